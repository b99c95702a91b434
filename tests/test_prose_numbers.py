"""Typed numbers in the book's prose.

The rule of the book: a number that a markdown cell states about something l1lab computes (a ratio, a range, a
crossing, a probability, a count, a timing) is glued from the computed value (``glue(...)`` in a code cell,
``{glue:text}`key:fmt``` in the markdown), never typed.  Parameters the text chooses, numbers printed in the
papers, section or lemma numbers and exact mathematical facts may be typed.

This test scans every markdown cell of every ``chapters/*.ipynb`` (not the exercise notebooks), after removing
fenced code blocks, inline code and roles, glue directives and the numbers after Section / Lemma / Figure / ...,
for tokens that look like stated results: decimals, percentages, "N times", "N-fold", "ten times", "tenfold",
"twice as" / "half as" and "orders of magnitude".  Each token must be listed for its chapter in ``ALLOWED`` with
the reason it may be typed; an entry that no longer occurs fails too, so that the list stays honest.
"""
import json
import re
from functools import lru_cache
from pathlib import Path

CHAPTERS = Path(__file__).resolve().parents[1] / "chapters"

# a fenced block: ``` or ~~~ (three or more), its info string, its body, the same fence closing it
_FENCE = re.compile(r"^(?P<fence>`{3,}|~{3,})(?P<info>[^\n]*)\n(?P<body>.*?)^(?P=fence)[ \t]*$", re.M | re.S)
# directives whose body is prose, kept (only their option lines are dropped); any other fence is code or glue
_CODE_DIRECTIVES = re.compile(r"\{(?:code|code-block|code-cell|sourcecode|glue(?::\w+)?|literalinclude)\}")
_OPTION = re.compile(r"^[ \t]*:[\w-]+:.*$", re.M)
_ROLE = re.compile(r"\{(?:glue(?::\w+)?|prf:ref|ref|numref|doc|eq|download|cite(?::\w+)?)\}`[^`]*`")
_INLINE = re.compile(r"(`+)[^`]*?\1")
_LINK = re.compile(r"\]\([^)\s]*\)")
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_NUM = r"\d+(?:\.\d+)*"
_REF_WORDS = (r"Sections?|Sec\.|Lemmas?|Theorems?|Corollary|Corollaries|Propositions?|Examples?|Algorithms?|"
              r"Figures?|Fig\.|Tables?|Steps?|steps?|Eq\.|eq\.|equations?|Assumptions?|[Ll]ines?")
# "Theorem 2.3", "Theorems 2.3 and 2.1", "Figures 4–5", "Lemma~7": the reference numbers, not results
_REF_NUMBERS = re.compile(rf"\b(?:{_REF_WORDS})[ \t~]*\(?{_NUM}\)?"
                          rf"(?:(?:\s*,\s*|\s+and\s+|\s+or\s+|\s+to\s+|\s*[–-]\s*)\(?{_NUM}\)?)*")
_WORDS = ("two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|"
          "hundred|thousand|million")
_TOKEN = re.compile(
    r"\d+(?:\.\d+)?(?:\\,|~|\s)*(?:\\%|%|percent\b)"              # a percentage
    r"|\d+\.\d+"                                                    # a decimal
    r"|\b\d+(?:\.\d+)?(?:\s+|-)(?:times|fold)\b"                    # "12 times", "3-fold"
    rf"|\b(?:{_WORDS})(?:[ -]times\b|[ -]?fold\b)"                   # "ten times", "tenfold", "ten-fold"
    r"|\b(?:twice|half) as\b"                                       # "twice as fast", "half as many"
    r"|\b(?:(?:an?|one|two|three|four|five|six|seven|eight|nine|ten|several|many|by|with)\s+)?"
    r"orders? of magnitude\b",                                      # "six orders of magnitude"
    re.I)


def _prose(markdown: str) -> str:
    """The prose of a markdown cell: without code, glue, roles, links, comments and reference numbers."""
    def fence(m):
        info = m["info"].strip()
        if info.startswith("{") and not _CODE_DIRECTIVES.match(info):
            return "\n" + _OPTION.sub("", m["body"]) + "\n"                     # a prose directive: keep its body
        return "\n"
    text = _COMMENT.sub(" ", markdown)
    while True:                                      # nested fences: the outer one first, then what it held
        new = _FENCE.sub(fence, text)
        if new == text:
            break
        text = new
    text = _ROLE.sub(" ", text)
    text = _INLINE.sub(" ", text)
    text = _LINK.sub("]", text)
    return _REF_NUMBERS.sub(" ", text)


def typed_tokens(markdown: str) -> list:
    """The tokens of a markdown cell that look like stated results, whitespace normalized."""
    return [re.sub(r"(?:\\,|~|\s)+", " ", m.group(0)) for m in _TOKEN.finditer(_prose(markdown))]


@lru_cache(maxsize=1)
def chapter_tokens() -> dict:
    """{chapter: {token: [markdown cell indices]}} over every chapters/*.ipynb (scanned once; do not modify)."""
    out = {}
    for path in sorted(CHAPTERS.glob("*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        found = {}
        for i, cell in enumerate(cells):
            if cell["cell_type"] == "markdown":
                for token in typed_tokens("".join(cell["source"])):
                    found.setdefault(token, []).append(i)
        out[path.stem] = found
    return out


ALLOWED = {
    "experiments": {
        "100 %": "the paper's data table (Section 4.1): densities of DUKE and MAGIC04D",
        "54 %": "ARCENE's density in the paper's data table, which the stand-in is generated to match",
        "5.81 %": "the paper's data table: density of MAGIC04S",
        "0.05": "the paper's MAGIC04S noise probability (a parameter of the data)",
        "5 times": "the step-size grid, 1 and 5 times every power of ten (a parameter)",
        "many orders of magnitude": "the protocol's reason for two nonzero counts; the counts themselves are glued",
        "0.9": "the correlation threshold of the glued count exp-bc-pairs (a parameter)",
        "63 \\%": "1 - 1/e (math)",
    },
    "experiments_claims": {
        "0.05": "thresholds offered in the exercise (parameters)",
        "0.02": "the tie threshold of we.CRITERIA (a parameter)",
        "0.10": "the 'much' threshold of we.CRITERIA (a parameter)",
        "0.01": "the 'reaches the minimum' threshold of we.CRITERIA (a parameter)",
        "90 %": "the 'sparser' threshold of we.CRITERIA (a parameter)",
        "1 %": "the 'reaches the minimum' threshold, CRITERIA['target'] (asserted in the page); the verdicts are "
               "asserted too",
        "0.001": "thresholds offered in the exercise (parameters)",
        "0.005": "thresholds offered in the exercise (parameters)",
        "0.2": "a threshold offered in the exercise (a parameter)",
    },
    "exponentiated": {
        "ten times": "the step multiplier of the demo (a parameter)",
        "0.05": "delta of the bounds, eta of the exercise (parameters)",
        "0.9": "the exercise's starting point h = 0.9 r and its step 0.9 eta (math of a chosen example)",
        "1.8": "log(1/(1.8 r)) = log(1/(2 * 0.9 r)) (math)",
    },
    "exponentiated_regret": {
        "0.05": "delta of the bounds (a parameter)",
    },
    "exponentiated_scaling": {
        "0.15": "the accuracy epsilon of the sample sizes and the exercise (a parameter)",
        "0.05": "delta of the bounds (a parameter)",
        "0.95": "the exercise's probability 1 - delta (a parameter)",
        "thousand times": "ten thousand times more features, d from 10^4 to 10^8 (parameters)",
        "2.45": "sqrt(2 log 20) (math)",
        "3.15": "sqrt(log N) at N = 20,001 (math)",
    },
    "exponentiated_scaling_demos": {
        "0.15": "the accuracy epsilon of the demos and the exercise (a parameter)",
        "thousandfold": "d from 100 to 10^5 (parameters)",
        "0.10": "the player's epsilon range (a parameter)",
        "0.25": "the player's epsilon range and step multipliers (parameters)",
        "0.05": "delta of the bounds (a parameter)",
        "with orders of magnitude": "the corollary's slack, asserted in the page (>= 100 times the glued end value)",
        "2.5": "the player's largest step multiplier (a parameter)",
        "four times": "the note's extra factor 1/F_1 with F_1 = 4 (math)",
    },
    "fast_cd": {
        "0.1": "lambda = 0.1 lambda_max (a parameter)",
        "20%": "the density of the sparse variant (a parameter)",
        "0.2": "the density s = 0.2 of the sparse variant (a parameter)",
    },
    "fast_cd_solver": {
        "0.1": "lambda = 0.1 lambda_max (a parameter)",
        "20%": "the density of the sparse variant (a parameter)",
        "0.5": "lambda = 0.5 lambda_max in the player (a parameter)",
        "0.05": "lambda = 0.05 lambda_max in the live widget (a parameter)",
        "0.2": "lambda = 0.2 lambda_max in the live widget (a parameter)",
        "0.01": "the end of the regularization path, 0.01 lambda_max (a parameter)",
    },
    "l1_problem": {
        "0.03": "lambda (a parameter)",
    },
    "l1_problem_optimality": {
        "0.03": "lambda (a parameter)",
        "0.99": "the lambda at which the page asserts that exactly one weight is nonzero (a parameter)",
        "5%": "the label noise of the example (a parameter)",
    },
    "lower_bound": {
        "0.12": "the lemma's range of epsilon, min{0.12, ...} (paper / math)",
        "0.01": "(B^2 - 1)/d at the paper's d, and the accuracy the text chooses (math / parameter)",
        "1.92": "16 * 0.12 (math)",
        "0.24": "the printed proof's constant (paper)",
        "12.5": "the solved inequality s <= 12.5 (B^2 - 2) (math)",
        "0.16": "B^2/s at B = 2, s = 25 (math)",
    },
    "lower_bound_measured": {
        "0.12": "the lemma's range of epsilon, up to 0.12 (paper / math)",
        "0.01": "(B^2 - 1)/d at the paper's d, and the accuracy the text chooses (math / parameter)",
        "0.1": "the range of the slider and of the question (parameters)",
        "3.4": "the slider position 10^-3.4 (a parameter)",
        "0.05": "an accuracy the text chooses (a parameter)",
    },
    "pgs": {
        "1.05": "a value of p the text chooses (a parameter)",
        "1.5": "p = 1.5 (a parameter)",
        "0.05": "sigma = 0.05 (a parameter)",
        "0.01": "sigma = 0.01 (a parameter)",
        "0.5": "B = 0.5 of the example (a parameter)",
    },
    "pgs_guarantee": {
        "1.5": "p = 1.5 (a parameter)",
        "0.05": "sigma = 0.05 (a parameter)",
        "0.01": "the player's range of sigma (a parameter)",
        "95 %": "the level of the intervals (a parameter)",
        "0.1": "delta = 0.1 (a parameter)",
        "0.9": "the 1 - delta quantile (a parameter)",
        "ten times": "Markov's factor 1/delta at delta = 0.1 (math)",
    },
    "pgs_more_data": {
        "four times": "the factor 4 between the printed and the derived form (math)",
        "0.1": "delta and the toy's targets (parameters)",
        "0.3": "an epsilon the text chooses (a parameter)",
        "0.16 %": "CCAT's density as the paper states it, matched by the stand-in (paper)",
        "1.8": "p = 1.8 (a parameter)",
        "16 %": "the Bayes error Phi(-1) of the toy (math)",
        "25 times": "the number of runs (a parameter)",
        "0.05": "the paper's target direction error (paper / parameter)",
        "0.04": "a target of the player (a parameter)",
        "0.07": "a target of the player (a parameter)",
        "0.005": "the live widget's step of the target (a parameter)",
    },
    "pgs_more_data_text": {
        "0.16 %": "CCAT's density as the paper states it, matched by the stand-in (paper)",
        "1.8": "p = 1.8 (a parameter)",
        "93 %": "accuracy levels of the paper and of the player (paper / parameters)",
        "94 %": "an accuracy level of the paper (paper)",
        "3 %": "the stand-in's label noise (a parameter)",
        "92 %": "the accuracy level of the demos (a parameter)",
        "90 %": "an accuracy level of the player (a parameter)",
        "0.06": "the paper's Table II (paper)",
    },
    "projections": {
        "0.9": "coordinates of the worked examples and exercises, chosen by the text, and math on them",
        "0.2": "coordinates of the worked examples and exercises, chosen by the text, and math on them",
        "0.6": "coordinates of the worked example (a parameter)",
        "0.3": "coordinates of the worked examples and the thresholds computed by hand from them (math)",
        "0.5": "coordinates and radii of the worked examples, and math on them",
        "0.1": "a threshold of the worked example (math)",
        "0.25": "a threshold of the worked example and a projection of the exercise (math)",
        "0.18": "a threshold of the worked example (math)",
        "1.6": "the question's point v (a parameter)",
        "0.75": "a radius of the question and a projection of the exercise (parameter / math)",
        "0.7": "|v_1| - |v_2| of the question's point (math)",
        "0.05": "the live widget's step and a projection of the exercise (parameter / math)",
        "2.5": "a point of the exercise (a parameter)",
        "1.4": "a point of the exercise (a parameter)",
        "1.9": "the l1 norm of the exercise's point (math)",
        "0.45": "the threshold of the exercise, (1.9 - 1)/2 (math)",
        "0.95": "the projection of the exercise's point (math)",
    },
    "projections_linear": {
        "0.1": "the radius 0.1 ||v||_1 of the timing and of the drawn figure (a parameter)",
        "twenty times": "log2(10^6), about 20 (math)",
        "0.5": "the radius of the exercise's input, and the threshold computed by hand from it (parameter / math)",
    },
    "projections_sparse": {
        "thousand times": "n/k at n = 10^6, k = 100 (math)",
        "million times": "a hypothetical Theta in the exercise (a parameter)",
    },
    "projections_sparse_experiments": {
        "0.1": "the label-flip probability, lambda = 0.1 lambda_max, the player's range and an exercise's eta0 "
               "(parameters)",
        "ten times": "the question's step multiplier (a parameter)",
        "Ten times": "the player's step multiplier 0.1 (a parameter)",
        "1%": "the density of the stand-in (a parameter)",
        "5%": "the label noise of the stand-in (a parameter)",
        "0.4": "lambda = 0.4 lambda_max (a parameter)",
        "by orders of magnitude": "what a change of flop convention cannot do (a statement about the convention)",
        "0.01": "an eta0 of the exercise (a parameter)",
    },
    "radar": {
        "0.5": "the noise variance eta^2 (a parameter)",
        "0.3333": "B^2/3 (math)",
        "orders of magnitude": "the unknown constants set to 1, read as orders of magnitude (a convention)",
    },
    "radar_epochs": {
        "0.1": "the weight beta of the comparison method (a parameter)",
        "0.05": "d/T = 500/10,000 at the largest d where SGD is ahead (parameters; the ordering is asserted)",
        "half as": "T = d/2 samples (parameters)",
    },
    "radar_const": {
        "0.2": "the factor on lambda_i, a choice (a parameter)",
        "0.1": "a factor on lambda_i offered by the player (a parameter)",
        "3.32": "log2(10) (math)",
    },
    "radar_theory": {
        "0.1": "gamma = 0.1 (a parameter)",
        "4.64": "sqrt(12 log 6) (math)",
        "by orders of magnitude": "the bounds' looseness, with the glued bound and run values beside it",
        "0.9": "a probability the exercise asks for (a parameter)",
        "0.99": "a probability the exercise asks for (a parameter)",
        "7.6": "log 2000 (math)",
    },
    "radar_theory_corollaries": {
        "0.25": "q = 0.25 (a parameter)",
        "0.5": "q = 0.5 and the corollary's exponent -0.5 (parameter / math)",
        "0.75": "q = 0.75 and the corollary's exponent -0.75 (parameter / math)",
        "0.03": "tau = 0.03 (a parameter)",
    },
    "scd": {
        "5%": "the label noise (a parameter)",
        "0.03": "lambda (a parameter)",
        "0.25": "the beta that the text chooses to show a failure (a parameter)",
        "ten times": "the exercise's beta (a parameter)",
    },
    "scd_practice": {
        "0.03": "lambda (a parameter)",
        "0.1": "the player's lambda range and the density s = 0.1 (parameters)",
    },
    "smidas": {
        "0.05": "lambda and the MAGIC04S noise probability (parameters)",
        "5%": "the label noise (a parameter)",
        "0.37": "an example value of w_j (a parameter)",
        "0.63": "0.37 - 1 (math)",
        "six orders of magnitude": "the counting threshold 1e-6 of the glued count smidas-sm-big (a parameter)",
        "ten times": "the link's example ratio (a parameter)",
        "0.6": "the dual vector of the exercise (a parameter)",
        "0.1": "2 lambda in the exercise (math)",
    },
    "smidas_guarantee": {
        "ten times": "the player's eta range (a parameter)",
        "0.1": "the player's eta range (a parameter)",
    },
    "smidas_truncgrad": {
        "0.05": "lambda (a parameter)",
        "six orders of magnitude": "the threshold rel=1e-6 of effective_nnz behind the glued counts (a parameter)",
    },
    "smidas_truncgrad_prop4": {
        "0.05": "the noise level (a parameter)",
        "0.1": "values of K (parameters)",
        "twice as": "Lemma 7's upper bound 4 sqrt(abc/T) against the exact minimum's 2 sqrt(abc/T) for large T (math)",
    },
}


def test_the_scan_sees_what_it_should():
    md = ("Section 2.3 and Theorems 2.1 and 2.4 are cited; $p = 1.5$ here, 25 times, tenfold, twice as fast,\n"
          "six orders of magnitude, 5 % and 16\\,\\%. `x = 0.7` and {glue:text}`k:.2f` and [a](http://x/1.2) are not.\n"
          "```python\ny = 0.3\n```\n"
          "````{admonition} Note\n:class: dropdown\n:width: 80%\n\nInside 0.25.\n```{glue:md} t\n:format: gfm\n```\n"
          "````\n")
    assert typed_tokens(md) == ["1.5", "25 times", "tenfold", "twice as", "six orders of magnitude", "5 %",
                                "16 \\%", "0.25"]


def test_typed_numbers_are_allowed():
    """Every token that looks like a stated result is allowlisted with a reason; glue the others."""
    found = chapter_tokens()
    unknown = [f"{chapter}.ipynb, markdown cell {cells[0]}: {token!r}"
               for chapter, tokens in found.items() for token, cells in tokens.items()
               if token not in ALLOWED.get(chapter, {})]
    assert not unknown, (
        "typed numbers in the prose that look like computed results:\n  " + "\n  ".join(unknown)
        + "\nGlue each from the value the chapter computes (glue(...) in a code cell, {glue:text}`key:fmt` in the"
        " markdown), or reword the sentence; if it is a parameter, a number of a paper or a mathematical fact,"
        " add it to ALLOWED in tests/test_prose_numbers.py with the reason.")


def test_allowlist_is_current():
    """Every allowlist entry still occurs in its chapter, and has a reason."""
    found = chapter_tokens()
    stale = [f"{chapter}: {token!r}" for chapter, tokens in ALLOWED.items() for token in tokens
             if token not in found.get(chapter, {})]
    assert not stale, "allowlist entries that no longer occur (remove them):\n  " + "\n  ".join(stale)
    assert all(reason.strip() for tokens in ALLOWED.values() for reason in tokens.values())
