"""No answer before its question: what a lecture shows between a Question and the player that answers it.

A lecture asks the reader a question (an ``{admonition} Question``) and lets them find the answer with a static
player before they open the ``{admonition} Answer``.  A figure, a printed value or a sentence between the Question
and that player must not already show the answer (a title "5 nonzero coefficients", a legend "s > 274: the
printed bound is false").

The check reads the lecture notebooks as the build executed them (MyST-NB's execution cache in
``_build/.jupyter_cache``, matched to the notebooks' current code): every figure the book displays carries its texts
(titles, axis labels, legend entries, annotations) as its plain-text form (``l1lab.book.notebook.figure_summary``),
so the texts drawn in a figure can be read as well as the printed ones.  For each Question, the values the Answer
glues (``{glue:text}`` with its format, as the page shows them) must not appear in what comes between the Question
and the first player after it (or the Answer when no player comes first).  Small integers (|n| < 10) are compared
with figure texts only, where a count like "5 nonzero" is a statement and not a setting.  A coincidence that is
not a leak is listed in ``ALLOWED`` with its reason.
"""
import ast
import json
import re

import nbformat
import pytest
from conftest import ROOT, executed

LECTURES = sorted((ROOT / "chapters").glob("*.ipynb"))

#: (lecture, glue key) -> why the value may appear between its Question and the player
ALLOWED: dict = {
    ("experiments_claims", "exp-demo-eta"): "'1' occurs in the figure's '1e-2' (λ) and data sizes, not as the "
                                            "step's multiple",
    ("experiments_claims", "exp-demo-eta-up"): "'5' occurs in the figure's data description, not as the step's "
                                               "multiple",
    ("exponentiated_regret", "exponentiated-noisy-sg-ahead"): "d = 100, a setting of the figure, is the dimension the "
                                                             "Answer names, not what it finds",
    ("exponentiated_scaling_demos", "exponentiated_scaling-stream"): "the stream's length, a setting the figure marks "
                                                                    "('> 6,000': not reached within the stream)",
    ("exponentiated_scaling_demos", "exponentiated_scaling-player-beta-min"): "'1' occurs in settings (η = 1 × ..., "
                                                                             "1,000), not as the player's smallest β",
    ("exponentiated_scaling_demos", "exponentiated_scaling-avg-best-mult"): "'2' is β = 2 and p = 2, settings, not the "
                                                                           "best multiple of the step",
    ("fast_cd_solver", "fastcd-sparse-a1-reached"): "'Algorithm 1' in a legend, not the count the Answer gives",
    ("pgs_more_data", "pgs_more_data-toy-lbfgs-it"): "'1' is the setting k = 1 in the title, not L-BFGS's iterations",
    ("projections", "projections-geo-nnz-075"): "'2' occurs in 'R^2' and the coordinates of another radius (z = 1)",
    ("projections", "projections-geo-nnz-05"): "'1' is the radius z = 1 of the figure, not a count of nonzeros",
    ("projections_sparse_experiments", "projections_sparse-eg10-eta-eg"): "EG's step is a setting of the figure "
                                                                         "(its legend), which the Answer restates; "
                                                                         "the question is about the gaps, not the "
                                                                         "step",
    ("radar_const", "radar_const-EDA-epochs"): "'2' is the '2' of d = 2,000 in the title, not EDA's epochs",
    ("scd_practice", "scd-thm2-violations"): "'0' occurs in 'Ψ(0)' in the title, not as the count of violations",
    ("scd_practice", "scd-nnz-small"): "d = 50, a setting in the title, is the size the Answer compares the support "
                                       "with",
    ("smidas_guarantee", "smidas-void-mult"): "'10' is the end of the player's range of multiples, which the text "
                                                "announces",
    ("smidas_guarantee", "smidas-best-mult-smidas"): "'10' is the end of the player's range of multiples, which the "
                                                    "text announces",
    ("smidas_guarantee", "smidas-best-gain"): "'2' occurs in settings (m = 2000, 2 ln d), not as the gain",
    ("smidas_guarantee", "smidas-best-mult-truncgrad"): "'1' is the figure's current multiple (η = 1 × ...), a "
                                                       "setting",
    ("smidas_truncgrad", "smidas-c-ratio-sparse"): "the ratio of the bounds is the Question's premise (the Question "
                                                  "states it); what the reader finds is the runs' final gaps",
}

#: (lecture, glue key) -> why; values measured on the machine that builds the page (timings), whose coincidence with
#: a setting comes and goes with the machine: allowed, and required only to be still glued (not to still coincide)
ALLOWED_TIMED: dict = {
    ("projections_sparse", "projections_sparse-tree-growth"): "a timing ratio; when it rounds to '1' it coincides "
                                                             "with settings (k = 100), not with the growth",
    ("pgs_more_data_text", "pgs_more_data-k-run-ratio"): "a ratio of running times; at 1.8 it coincides with the "
                                                        "setting p = 1.8 in the figure's title, not with the ratio",
}

_GLUE_TEXT = re.compile(r"\{glue:text\}`([^`]+)`")
_FENCE_OPEN = re.compile(r"^(?P<fence>`{3,}|:{3,})\{admonition\}\s*(?P<title>Question|Answer)\b.*$", re.M)
_PLAYER = re.compile(r'<script type="application/json" class="l1lab-player-data">(.*?)</script>', re.S)
_FIGURE = re.compile(r"^<figure by [^:]*: (.*)>$", re.S)


def _block(source, match):
    """The text of the admonition opened by ``match`` (up to its closing fence)."""
    rest = source[match.end():]
    close = re.search(rf"^{re.escape(match['fence'])}\s*$", rest, re.M)
    return rest[: close.start()] if close else rest


def _glued(nb):
    """{key: value} of every glue of the executed notebook (the text/plain the page formats)."""
    out = {}
    for cell in nb.cells:
        for o in cell.get("outputs", []):
            meta = o.get("metadata", {}).get("scrapbook")
            if not meta:
                continue
            plain = o["data"].get(meta.get("mime_prefix", "") + "text/plain")
            if plain is None:
                continue
            try:
                out[meta["name"]] = ast.literal_eval(plain)
            except (ValueError, SyntaxError):
                out[meta["name"]] = plain.strip("'\"")
    return out


def _as_shown(value, fmt):
    try:
        return format(value, fmt or "s") if fmt else str(value)
    except (TypeError, ValueError):
        return str(value)


def _shown_between(cells):
    """(figure texts, other texts) of the cells between a Question and its player, and whether a player ends it."""
    figures, texts = [], []
    for cell in cells:
        if cell.cell_type == "markdown":
            texts.append(cell.source)
            continue
        for o in cell.get("outputs", []):
            if o.get("metadata", {}).get("scrapbook") and o["metadata"]["scrapbook"].get("mime_prefix"):
                continue                          # a glue not displayed
            if o.output_type == "stream":
                texts.append(o.text)
                continue
            data = o.get("data", {})
            html = data.get("text/html", "")
            if _PLAYER.search(html):
                return figures, texts, True
            plain = data.get("text/plain", "")
            m = _FIGURE.match(plain)
            (figures if m else texts).append(m.group(1) if m else plain)
            if html:
                texts.append(re.sub(r"<[^>]+>", " ", html))
    return figures, texts, False


def _occurs(shown, text):
    return re.search(rf"(?<![\w.]){re.escape(shown)}(?![\w]|\.\d)", text) is not None


def answer_leaks(nb):
    """The values of each Answer that the cells between its Question and the Question's player already show."""
    leaks = []
    glued = _glued(nb)
    cells = nb.cells
    for i, cell in enumerate(cells):
        if cell.cell_type != "markdown":
            continue
        for q in (m for m in _FENCE_OPEN.finditer(cell.source) if m["title"] == "Question"):
            after_q = cell.source[q.end():]
            end = re.search(rf"^{re.escape(q['fence'])}\s*$", after_q, re.M)
            tail = after_q[end.end():] if end else ""
            answer, between = None, [nbformat.v4.new_markdown_cell(tail.split("{admonition} Answer")[0])]
            for j in range(i + 1, len(cells)):
                a = next((m for m in _FENCE_OPEN.finditer(cells[j].source) if m["title"] == "Answer"), None) \
                    if cells[j].cell_type == "markdown" else None
                if a is not None:
                    between.append(nbformat.v4.new_markdown_cell(cells[j].source[: a.start()]))
                    answer = _block(cells[j].source, a)
                    break
                if cells[j].cell_type == "markdown" and _FENCE_OPEN.search(cells[j].source):
                    break                         # another Question first: this one has its Answer elsewhere
                between.append(cells[j])
            if answer is None:
                continue
            figures, texts, _ = _shown_between(between)
            for ref in _GLUE_TEXT.findall(answer):
                key, _, fmt = ref.partition(":")
                if key not in glued or isinstance(glued[key], bool):
                    continue
                shown = _as_shown(glued[key], fmt)
                if not re.fullmatch(r"[-−]?[\d.,]+(?:e[-+]?\d+)?%?", shown):
                    continue
                small = re.fullmatch(r"-?\d", shown) is not None
                where = [f"figure: {t[:160]!r}" for t in figures if _occurs(shown, t)]
                if not small:
                    where += [f"text: {t[:160]!r}" for t in texts if _occurs(shown, t)]
                if where:
                    leaks.append((key, shown, where))
    return leaks


@pytest.mark.parametrize("path", LECTURES, ids=lambda p: p.stem)
def test_no_answer_is_shown_before_its_question_is_answered(path):
    leaks = [(k, s, w) for k, s, w in answer_leaks(executed(path))
             if (path.stem, k) not in ALLOWED and (path.stem, k) not in ALLOWED_TIMED]
    assert not leaks, f"{path.stem}: an Answer's value shown before its player: " + json.dumps(leaks, indent=1,
                                                                                             ensure_ascii=False)


def test_allowed_coincidences_still_occur():
    """An entry of ALLOWED that no longer matches is removed, so that the list stays honest."""
    if not ALLOWED:
        return
    stale = []
    for stem in {s for s, _ in ALLOWED}:
        found = {k for k, _, _ in answer_leaks(executed(ROOT / "chapters" / f"{stem}.ipynb"))}
        stale += [(stem, k) for s, k in ALLOWED if s == stem and k not in found]
    assert not stale, f"ALLOWED entries that no longer occur: {stale}"
    gone = [(s, k) for s, k in ALLOWED_TIMED if k not in _glued(executed(ROOT / "chapters" / f"{s}.ipynb"))]
    assert not gone, f"ALLOWED_TIMED entries no longer glued: {gone}"


def test_the_check_finds_a_leak():
    """The check is not vacuous: a figure title that states the Answer's value is found, the same value in an
    unrelated setting of the player is not looked at, and a small integer in prose is not a leak."""
    glue = nbformat.v4.new_code_cell("", outputs=[
        nbformat.v4.new_output("display_data", data={"application/papermill.record/text/plain": "5"},
                               metadata={"scrapbook": {"name": "k", "mime_prefix": "application/papermill.record/"}}),
        nbformat.v4.new_output("display_data", data={"application/papermill.record/text/plain": "274"},
                               metadata={"scrapbook": {"name": "s", "mime_prefix": "application/papermill.record/"}})])
    question = nbformat.v4.new_markdown_cell("```{admonition} Question\nHow many? From which s?\n```\nIn 5 steps.")
    figure = nbformat.v4.new_code_cell("", outputs=[nbformat.v4.new_output(
        "execute_result", data={"text/plain": "<figure by x.path_figure: 5 nonzero coefficients | s > 274>",
                                "image/png": ""})])
    player = nbformat.v4.new_code_cell("", outputs=[nbformat.v4.new_output("display_data", data={
        "text/html": '<script type="application/json" class="l1lab-player-data">{}</script>', "text/plain": ""})])
    answer = nbformat.v4.new_markdown_cell(
        "```{admonition} Answer\n:class: dropdown\n{glue:text}`k` coefficients, from {glue:text}`s:d`.\n```")
    nb = nbformat.v4.new_notebook(cells=[glue, question, figure, player, answer])
    leaks = answer_leaks(nb)
    assert [(k, s) for k, s, _ in leaks] == [("k", "5"), ("s", "274")]
    nb.cells = [glue, question, player, figure, answer]
    assert answer_leaks(nb) == []
