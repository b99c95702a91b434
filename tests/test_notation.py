"""One meaning per letter per page: the promise of ``notation.md``.

``notation.md`` promises that no letter has two meanings on one page, and gives most letters one meaning book-wide
(its reuse table lists where a lecture uses a letter in its paper's sense).  This test reads the prose of every page
(markdown cells, without code, glue, roles and display math) and collects the places where a letter is *defined*:

- a noun phrase before the symbol: "the dual scale $s$", "a potential $D$", "its failure probability $\\delta$",
  "in dimension $n = 60$", "a parabola of curvature $\\beta$" (named by the attribute: curvature);
- a noun phrase after it: "$\\delta \\in (0, 1)$, the failure probability", "with $s \\in (0, 1]$ the largest
  factor", "and $\\eta$ the step";
- a copula or a verb of naming: "where $\\rho$ is the ...", "the corollary's $\\delta$ is a ...", "$\\psi$ denotes
  ...", "let $D(\\theta) = ...$ be the dual function", "we write $k$ for the ...";
- a count, "$n = 5000$ features" (the number of features); a sub-gradient, "$\\rho_j \\in \\partial|w_j|$"; a failure
  probability, "with probability at least $1 - \\delta$";
- a formula, "Let $D_t = \\frac12\\|w^\\star - w_t\\|^2$": its meaning is the formula, which no heuristic can compare
  with a noun phrase, so it only counts against notation.md (see ``notation_conflicts``).

Only a math span that is one symbol counts (with an optional relation after it: "$s = 0.2$", "$\\delta \\in (0,1)$";
"the gap $P(w) - D(u)$" is not a definition of $P$), and the phrase must name it: not "the paper's $\\sigma$" (a
possessive), "the same $\\lambda$" (an adjective), "the bounds reach $\\varepsilon$" (a verb), "for the squared loss
$L'(a, y) = a - y$" (an adverbial, then a clause) or "with $k = 1$ the time bounds are ..." (the subject of a clause).
The *letter* of a symbol is its Latin or Greek letter with

- its running indices, arguments and powers dropped: $\\psi_t$, $\\psi_{t-1}$, $\\psi(a)$, $\\psi^2$, $c^t$, $x_{ij}$
  are the letters $\\psi$, $c$, $x$: an indexed family or a function is one meaning of its letter, and a page where
  $\\psi_t$ is a running maximum and $\\psi(a)$ a curvature gives the reader two meanings of $\\psi$;
- its decorations kept: $\\hat\\theta$, $\\bar w$, $w^\\star$, $L'$, $f^{-1}$ and descriptive subscripts (a word, a
  command, a capital or a digit: $\\lambda_{\\max}$, $c_{opt}$, $G_\\infty$, $\\Psi_B$, $F_1$, $m_0$, $\\eta_0$) make
  symbols of their own, because the decoration says what the new symbol is *relative to* the letter (the estimate
  of, the average of, the optimal, the largest, the initial, the ℓ1 one, ...): "the estimate $\\hat\\theta$" does not
  redefine $\\theta$, nor "the smallest useful training set $m_0$" the number of examples $m$;
- $\\varepsilon$/$\\epsilon$, $\\vartheta$/$\\theta$, $\\varphi$/$\\phi$, $\\varrho$/$\\rho$ one letter each;
  upper and lower case different letters ($\\Psi$ is not $\\psi$, $D$ is not $d$).

A page is a lecture notebook with its exercise notebook (``chapters/exercises/solutions/<same name>.ipynb``), or
``intro.md``, ``instructors.md``.  Two meanings *agree* when they share a word (but for meaningless, counting and
stop words) or a group of ``SYNONYMS``.  The tests:

1. no letter has two meanings (definitions that fall into two groups of agreeing meanings) on one page;
2. nor across the lectures that notation.md's reuse table lists together (the RADAR, PGS, projection and
   exponentiated families), which a reader meets in sequence;
3. a letter that notation.md's tables give one meaning keeps it on every page, unless the reuse table gives it
   another meaning for that lecture;
4. no two letters have the very same meaning on one page (the dimension $n$ and the dimension $d$).

Heuristic findings that are not conflicts are listed in ``ALLOWED`` with the reason; an entry that no longer occurs
fails too, so that the list stays honest.  Real conflicts are never allowlisted: reword the page (or, for a
deliberate reuse in the paper's sense, list it in notation.md's reuse table).
"""
import json
import re
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHAPTERS = ROOT / "chapters"
SOLUTIONS = CHAPTERS / "exercises" / "solutions"
MD_PAGES = ("intro.md", "instructors.md")

# ---------------------------------------------------------------------------------------------------------------
# prose: markdown without code, glue, roles, display math, comments (the same stripping as test_prose_numbers.py)
# ---------------------------------------------------------------------------------------------------------------
_FENCE = re.compile(r"^[ \t]*(?P<fence>`{3,}|~{3,}|:{3,})(?P<info>[^\n]*)\n(?P<body>.*?)^[ \t]*(?P=fence)[ \t]*$",
                    re.M | re.S)
_CODE_DIRECTIVES = re.compile(r"\{(?:code|code-block|code-cell|sourcecode|glue(?::\w+)?|literalinclude|math|"
                              r"raw|list-table|csv-table|figure|image)\}")
_OPTION = re.compile(r"^[ \t]*:[\w-]+:.*$", re.M)
_FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.S)
_ROLE = re.compile(r"\{[\w:-]+\}`[^`]*`")
_INLINE_CODE = re.compile(r"(`+)[^`]*?\1")
_LINK = re.compile(r"\]\([^)\s]*\)")
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_HTML = re.compile(r"<[^>\n]+>")
_DISPLAY = re.compile(r"\$\$.*?\$\$(?:[ \t]*\([\w:-]+\))?", re.S)
_HOLE = "\x01"                                       # what stands for a removed role, code or display
_INLINE_MATH = re.compile(r"(?<![\\$])\$(?!\$)((?:[^$\\]|\\.)+?)\$")


def prose(markdown: str) -> str:
    """The prose of a markdown text, inline math kept, whitespace collapsed."""
    def fence(m):
        info = m["info"].strip()
        if info.startswith("{") and not _CODE_DIRECTIVES.match(info):
            return "\n" + _OPTION.sub("", m["body"]) + "\n"                     # a prose directive: keep its body
        return "\n.\n"
    text = _COMMENT.sub(" ", _FRONT_MATTER.sub("", markdown))
    while True:                                      # nested fences: the outer one first, then what it held
        new = _FENCE.sub(fence, text)
        if new == text:
            break
        text = new
    text = _DISPLAY.sub(f" {_HOLE} ", text)             # a hole ends a noun phrase, as punctuation does
    text = _ROLE.sub(f" {_HOLE} ", text)
    text = _INLINE_CODE.sub(f" {_HOLE} ", text)
    text = _LINK.sub("]", text)
    text = _HTML.sub(" ", text)
    text = re.sub(r"^[ \t]*(?:#+|[-*+]|\d+\.|>)[ \t]", ". ", text, flags=re.M)   # headings, items: a new clause
    text = re.sub(r"(?:^|(?<=\s))\|(?=\s|$)|^\|", " . ", text, flags=re.M)          # table cells too
    return re.sub(r"\s+", " ", text)


# ---------------------------------------------------------------------------------------------------------------
# symbols: which letter a math span names, if it is one symbol
# ---------------------------------------------------------------------------------------------------------------
_GREEK = ("alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu nu xi pi varpi "
          "rho varrho sigma varsigma tau upsilon phi varphi chi psi omega Gamma Delta Theta Lambda Xi Pi Sigma "
          "Upsilon Phi Psi Omega").split()
_VARIANT = {"varepsilon": "epsilon", "vartheta": "theta", "varphi": "phi", "varrho": "rho", "varsigma": "sigma",
            "varpi": "pi"}
_ACCENTS = ("hat widehat bar overline tilde widetilde check dot ddot vec mathbf boldsymbol bm mathcal mathbb "
            "mathscr mathfrak").split()
_NOT_LETTERS = {"O", "e"}                 # big-O; Euler's e
_LETTER = re.compile(r"\\(?P<greek>" + "|".join(sorted(_GREEK, key=len, reverse=True)) + r")(?![A-Za-z])\s*"
                     r"|(?P<latin>[A-Za-z])(?![A-Za-z])")
_ACCENT = re.compile(r"\\(?P<accent>" + "|".join(_ACCENTS) + r")(?![A-Za-z])\s*(?P<brace>\{)?\s*")
_GROUP = r"\{(?:[^{}]|\{[^{}]*\})*\}"
_SCRIPTS = re.compile(r"(?:\s*(?:[_^]\s*(?:" + _GROUP + r"|\\[A-Za-z]+|[A-Za-z0-9*])|'+))*")
_ARGS = re.compile(r"\s*(?:\\left)?\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*(?:\\right)?\)")
_REST = re.compile(r"\s*(?:(?P<rel>=|\\in|\\ge|\\le|\\geq|\\leq|>|<|\\sim|\\approx|:=|\\equiv|\\propto)"
                   r"(?![A-Za-z])(?P<rest>.*)|\\?[,;]?\s*)$", re.S)
# an index: t, j, ij, t+1, k-1, (t), a running index; a word ($c_{opt}$), a command ($\max$), a capital ($\Psi_B$) or
# a digit ($F_1$ the l1 radius, $m_0$, $\eta_0$) is none: a fixed member with a meaning of its own, not the family
_INDEX = re.compile(r"^(?=.*[a-z])(?!.*[a-z]{3})[a-z0-9+\-, ()]+$|^\\(?:cdot|dots|ldots)$")


def _script_key(scripts: str) -> str:
    """The part of the sub- and superscripts that makes a new symbol (the rest is an index or a power)."""
    key = ""
    for m in re.finditer(r"([_^])(" + _GROUP + r"|\\[A-Za-z]+|[A-Za-z0-9*])|('+)", scripts):
        if m[3]:
            key += "'"                                                     # L', L'': the derivative
            continue
        kind, body = m[1], m[2].strip("{}").strip()
        if kind == "^":
            if body in ("\\star", "*", "\\ast"):
                key += "^*"                                                # w^star: the optimum
            elif body.replace(" ", "") in ("-1",):
                key += "^{-1}"                                             # f^{-1}: the inverse
            # powers, transposes, iteration superscripts (x^2, x^\top, c^t) are the letter itself
        else:
            if not _INDEX.match(body):
                key += "_{" + body + "}"                                   # lambda_max, G_infty, Psi_B
    return key


def symbol(math: str):
    """(letter key, relation, the math after it) if ``math`` is one symbol (relation None if none), else None."""
    pos, accent = 0, None
    m = _ACCENT.match(math, len(math) - len(math.lstrip()))
    if m:
        accent, pos = m["accent"], m.end()
    else:
        pos = len(math) - len(math.lstrip())
    m = _LETTER.match(math, pos)
    if not m:
        return None
    greek, pos = m["greek"], m.end()
    letter = _VARIANT.get(greek, greek) if greek else m["latin"]
    if accent:
        brace = _ACCENT.match(math, len(math) - len(math.lstrip()))["brace"]
        if brace:
            close = re.compile(r"\s*\}").match(math, pos)
            if not close:
                return None
            pos = close.end()
    elif letter in _NOT_LETTERS:
        return None
    scripts = _SCRIPTS.match(math, pos)
    pos = scripts.end()
    args = _ARGS.match(math, pos)
    if args:
        pos = args.end()
    rest = _REST.match(math, pos)
    if not rest:
        return None
    key = ("\\" if greek else "") + letter
    if accent:
        key = f"\\{accent}{{{key}}}"
    return key + _script_key(scripts[0]), rest["rel"], (rest["rest"] or "").strip()


# ---------------------------------------------------------------------------------------------------------------
# definitions: where a noun phrase names a symbol
# ---------------------------------------------------------------------------------------------------------------
_TOKEN = re.compile(r"\x00(?P<math>\d+)\x00|(?P<word>[A-Za-zℓ0-9][\w'’ℓ-]*)|(?P<punct>[^\s\w])")
# the articles that open a naming noun phrase ("in this lecture $s$ ..." is no naming, so no demonstratives)
_DET = {"the", "a", "an", "its", "their", "our", "each", "every"}
# the preposition that opens one without an article, for one word: "in dimension $n = 60$"
_NP_START = {"in"}
# words that cannot be inside a noun phrase that names a symbol ("of" can: "the number of features $d$")
_BREAK = set("""is are was were be been being has have had do does did can could may might must shall should will would
and or but nor so yet than then that which who whom whose where when while if as at by for from in into on onto to
with without over under between through per via about after before since until across along against among around
within inside outside beyond near toward towards up down off like unlike versus vs not only also just very too even
never always often still already again almost nearly exactly roughly once twice times below above its their the a an
this these those each every some any all both either neither one no such same own other another whether because
although though here there how what why let we you it they he she us them me say says""".split())
# adjectives, ordinals and the like: no head of a naming noun phrase ("the same $\lambda$", "the paper's $\sigma$")
_NOT_HEAD = set("""same first second third last next previous new old own given fixed true printed largest smallest
best worst larger smaller higher lower small large big tiny huge few many more most less least much several various
whole entire full current final initial optimal dense sparse random exact known unknown general typical usual common
single different equal similar fast faster fastest slow slower slowest high low convex concave positive negative
nonnegative nonzero zero finite infinite relevant irrelevant corresponding respective resulting original above below
following chosen derived stated other such natural tuned regularized unchosen additive uniform generous enormous
short long even tight time two three four five six seven eight nine ten""".split())
# verbs that end a phrase after a singular noun ("the proof fixes $d$"); plural nouns they are not in this book
_VERBS = set("""moves solves fixes reaches increases decreases recomputes chooses relates knows evaluates brings quotes
maps charges leaves returns shrinks sets gives makes takes uses needs shows says grows falls reads draws keeps lets
calls computes becomes stays remains means denotes matches finds follows picks applies wants exceeds adds holds
writes puts stops starts tracks changes converges halves doubles reaches contributes equals determines""".split())
# nouns that name a relation: "the equality $\hat F(\hat w) = ...$" names the equation, not its left side
_RELATION_NOUNS = {"equality", "inequality", "identity", "equation", "condition", "relation", "constraint",
                   "assumption", "bound", "link", "update", "rule", "choice", "schedule", "advice", "limit"}
# attributes: "a parabola of curvature $\beta$", "the ball of radius $z$" name the symbol by the attribute
_ATTRIBUTES = {"radius", "length", "size", "scale", "curvature", "dimension", "order", "degree", "rank", "width",
               "level", "modulus", "exponent", "variance", "density", "sparsity", "accuracy", "precision"}
# words after a noun phrase that make it the subject of a clause: "with $k = 1$ the time bounds are ..."
_VERB_AFTER = {"is", "are", "was", "were", "can", "could", "will", "would", "has", "have", "had", "may", "might",
               "must", "should", "does", "do", "becomes", "stays", "remains"}
_PREPOSITIONS = {"for", "in", "on", "at", "to", "from", "by", "with", "of", "under", "over", "after", "before",
                 "within", "than", "as", "between", "through", "into", "onto", "across", "along", "near"}
# words after which a word is a noun when it follows an article: "the potential of", "a density," (see _nouns)
_NOUN_FOLLOW = {"of", "is", "are", "was", "were", "and", "or", "that", "which", "in", "on", "to", "for", "with", "at",
                "from", "by", "as", "has", "have", "its", "per"}
# words after which a symbol starts a clause, so that a noun phrase after it names it: "where $\rho$ is the ..."
_CLAUSE_START = {"where", "with", "and", "let", "take", "fix", "choose", "pick", "write", "denote", "define", "call"}
_COMMA_START = {"where", "with", "let", "take", "fix", "choose", "pick", "write", "denote", "define", "here"}
# a count that names the letter: "$n = 5000$ features", "$m = 200$ examples"
_COUNT_NOUNS = set("""features examples iterations steps samples coordinates nonzeros entries rounds epochs passes
seeds runs columns rows documents dimensions points classes updates trials experts""".split())
# "the book's $\sigma$ is ..." and "the paper's $\rho_j$ is ..." say what the letter means elsewhere, not here
_OTHER_OWNERS = {"book's", "paper's", "papers'", "authors'", "author's"}
_RELATIONS_NAMED = {None, "=", "\\in", ":=", "\\equiv"}   # "the advice $k \approx n/d$" names the formula, not $k$
_MAX_NP = 4
FORMULA = "= "                                          # the meaning of "let $X = ...$": the formula, after this


class Definition:
    """One place where a symbol is named: its letter key, its meaning (the noun phrase, normalized), a quote."""
    __slots__ = ("key", "meaning", "quote", "where", "pos", "phrase")

    def __init__(self, key, meaning, quote, where, pos=0, phrase=0):
        self.key, self.meaning, self.quote, self.where = key, meaning, quote, where
        self.pos, self.phrase = pos, phrase                   # token indices of the symbol, of its noun phrase

    def __repr__(self):
        return f"{self.key}: {self.meaning!r} ({self.where}: ...{self.quote}...)"


def _tokens(text):
    """Words, inline math and punctuation of a prose text: [(kind, value)], the text with math held, the maths."""
    maths = []

    def hold(m):
        maths.append(m[1])
        return f"\x00{len(maths) - 1}\x00"
    held = _INLINE_MATH.sub(hold, text)
    toks = []
    for m in _TOKEN.finditer(held):
        if m["math"] is not None:
            toks.append(("math", maths[int(m["math"])], m.start(), m.end()))
        elif m["word"] is not None:
            toks.append(("word", m["word"].replace("’", "'").lower(), m.start(), m.end()))
        elif m["punct"] not in "*_`":                                    # emphasis is no punctuation
            toks.append(("punct", m["punct"], m.start(), m.end()))
    return toks, held, maths


def singular(word: str) -> str:
    """A word in the singular, roughly: "entries" -> "entry", "features" -> "feature", "paper's" -> "paper"."""
    if word.endswith("'s"):
        word = word[:-2]
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def nouns(texts) -> frozenset:
    """Words that the texts use as nouns: after an article and before punctuation or a preposition, singular."""
    found = set()
    for text in texts:
        toks = _tokens(text)[0]
        for (k0, v0, *_), (k1, v1, *_), (k2, v2, *_) in zip(toks, toks[1:], toks[2:]):
            if k0 == "word" and v0 in ("the", "a", "an", "its", "their", "our") and k1 == "word" and (
                    k2 == "punct" and v2 not in "-'" or k2 == "word" and v2 in _NOUN_FOLLOW):
                found.add(singular(v1))
    return frozenset(found)


def _noun_test(known):
    """is_noun for ``definitions``: the word is used as a noun in the texts, or is a meaningless or counting noun."""
    return lambda word: singular(word) in known or singular(word) in _MEANINGLESS | _QUANTITY


def _names(words, is_noun) -> bool:
    """Can a phrase end a naming noun phrase: a noun, not an adjective, a possessive or a verb?"""
    last = words[-1]
    if len(words) > _MAX_NP or last.endswith("'s") or last in _NOT_HEAD or last in _VERBS or not is_noun(last):
        return False
    before = words[-2] if len(words) > 1 else ""
    if before and singular(before) != before and not before.endswith("'s") and singular(last) == last:
        return False                                          # "the bounds reach $\varepsilon$": a plural and a verb
    return True


def _np_after(toks, j, is_noun):
    """The noun phrase opened by an article at toks[j]: (its words up to the first stop, the index after it)."""
    if j >= len(toks) or toks[j][:2] not in (("word", "the"), ("word", "a"), ("word", "an")):
        return None, j
    words, k = [], j + 1
    while k < len(toks) and len(words) < 2 * _MAX_NP:
        kind, val = toks[k][:2]
        inner = words and words[-1] in ("of", "on")                        # "a bound on the gradients"
        if kind == "word" and (val not in _BREAK or val in ("of", "on") and words or val in ("the", "a", "an")
                               and inner):
            words.append(val)
        elif kind == "math" and words[-1:] in (["of"], ["on"], ["the"], ["a"], ["an"]):
            words.append("MATH")
        else:
            break
        k += 1
    while words and words[-1] in ("of", "on", "the", "a", "an", "MATH"):
        words.pop()
        k -= 1
    cut = min([words.index(w) for w in ("of", "on") if w in words], default=len(words))
    head = words[:cut]
    if not head or not _names(head, is_noun):
        return None, k
    return words, k


def _np_before(toks, i, is_noun):
    """The noun phrase, opened by an article (or "in"), that ends just before toks[i]: (words, index of the
    article), or (None, None).  "X of A $s$" with an attribute A ("the ball of radius $z$") names $s$ by A."""
    words, k = [], i - 1
    while k >= 0 and toks[k][0] == "word":
        val = toks[k][1]
        if val in _DET or val in _NP_START:
            break
        if val in _BREAK and val != "of" or len(words) > 2 * _MAX_NP:
            return None, None
        words.insert(0, val)
        k -= 1
    else:
        return None, None
    if not words or words[0] == "of" or words[-1] == "of":
        return None, None
    tail = words[len(words) - words[::-1].index("of"):] if "of" in words else words
    if "of" in words and tail[-1].endswith("ing"):
        return None, None                                     # "the protocol of tuning $\sigma$"
    if not _names(tail, is_noun) or toks[k][1] in _NP_START and len(words) > 1:
        return None, None                                     # "in dimension $n$", not "in Lemma 5's construction"
    if "of" in words and len(tail) == 1 and tail[0] in _ATTRIBUTES:
        return tail, k
    return words, k


def _quote(toks, held, maths, i):
    lo, hi = toks[max(0, i - 7)][2], toks[min(len(toks) - 1, i + 7)][3]
    text = re.sub(r"\x00(\d+)\x00", lambda m: "$" + maths[int(m[1])] + "$", held[lo:hi])
    return re.sub(r"\s+", " ", text.replace(_HOLE, "…")).strip()


def definitions(text, is_noun=None, where=""):
    """The definitions in a prose text (see ``prose``): [Definition].  ``is_noun(word)`` says whether a word can
    be the head of a noun phrase (by default: it is used as a noun somewhere in the text)."""
    if is_noun is None:
        is_noun = _noun_test(nouns([text]))
    toks, held, maths = _tokens(text)
    found = []

    def add(key, words, i, phrase):
        meaning = normalize(words)
        if meaning and not (found and (found[-1].key, found[-1].meaning, found[-1].pos) == (key, meaning, i)):
            found.append(Definition(key, meaning, _quote(toks, held, maths, i), where, i, phrase))

    def tok(n):
        return toks[n][:2] if 0 <= n < len(toks) else ("end", "")

    for i, (kind, val, _, _) in enumerate(toks):
        if kind != "math":
            continue
        # a failure probability: "with probability at least $1 - \delta$"
        m = re.fullmatch(r"\s*1\s*-\s*(.+?)\s*", val)
        if m and symbol(m[1]) and symbol(m[1])[1] is None and tok(i - 1) == ("word", "least") \
                and ("word", "probability") in (tok(i - 3), tok(i - 4)):
            add(symbol(m[1])[0], ["failure", "probability"], i, i)
        sym = symbol(val)
        if sym is None:
            continue
        key, rel, rest = sym
        prev, nxt, nxt2 = tok(i - 1), tok(i + 1), tok(i + 2)
        # a sub-gradient: "$\rho_j \in \partial|w_j|$"
        if rel == "\\in" and rest.startswith("\\partial"):
            add(key, ["subgradient"], i, i)
        # a count: "$n = 5000$ features"
        counted = rel == "=" and re.fullmatch(r"[\d.,{}\\ ^]+", rest) and nxt[0] == "word" and nxt[1] in _COUNT_NOUNS
        if counted:
            add(key, ["number", "of", nxt[1]], i, i + 1)
        # a noun phrase before the symbol: "the dual scale $s$", "in dimension $n = 60$"; not "for the squared
        # loss $L'(a, y) = a - y$" (a preposition, then a clause), nor "the equality $F(w) = ...$" (names the relation)
        words, k = _np_before(toks, i, is_noun) if rel in _RELATIONS_NAMED and not counted else (None, None)
        clause = rel is not None or nxt[0] == "word" and nxt[1] in _VERB_AFTER   # "... $P(0)$ is": a clause
        if words and clause and (tok(k - 1)[0] == "word" and tok(k - 1)[1] in _PREPOSITIONS - {"with"}
                                          or (words[:words.index("of")] if "of" in words else words)[-1]
                                          in _RELATION_NOUNS):
            words = None
        if words:
            add(key, words, i, k + 1)
        # a noun phrase after it: "with $s \in (0, 1]$ the largest factor", "$\delta \in (0,1)$, the failure ..."
        # (not "with $k = 1$ the time bounds are ...": there the phrase is the subject of the clause)
        starts = prev[0] in ("punct", "end") and prev[1] in ("", ".", ":", ";", "(")
        if rel != "=" and (starts or prev[0] == "word" and prev[1] in _CLAUSE_START):
            j = i + 1 + (nxt == ("punct", ","))
            words, k = _np_after(toks, j, is_noun) if j == i + 1 or starts or prev[1] in _COMMA_START else (None, 0)
            if words and j == i + 2 and tok(k)[0] == "math":      # "..., the step size $\eta$": a list
                words = None
            if words and tok(k) not in [("word", v) for v in _VERB_AFTER]:
                add(key, words, i, j + 1)
        # copula and verbs of naming: "where $\rho$ is the ...", "$\psi$ denotes ...", "let $D$ be the ..."
        owner = prev[0] == "word" and prev[1].endswith("'s") and prev[1] not in _OTHER_OWNERS
        if starts or prev == ("punct", ",") or prev[0] == "word" and prev[1] in _CLAUSE_START or owner:
            two = nxt2 in (("word", "for"), ("word", "called"))
            if nxt in (("word", "denotes"), ("word", "stands")) or nxt == ("word", "is") and (
                    two or nxt2 == ("word", "the") or prev[1] in ("where", "here") or owner) \
                    or nxt == ("word", "be") and prev == ("word", "let"):
                words, _ = _np_after(toks, i + 2 + two, is_noun)
                if words:
                    add(key, words, i, i + 3 + two)
        # a formula: "Let $D_t = \frac12\|w^\star - w_t\|_B^2$." (a meaning that no noun phrase gives: see agree)
        if rel == "=" and prev in (("word", "let"), ("word", "write"), ("word", "define"), ("word", "set")) and \
                re.search(r"[A-Za-z]", rest) and nxt != ("word", "be") and not (
                    nxt == ("word", "for") or tok(i + 1)[0] == "word" and tok(i + 1)[1] in _COUNT_NOUNS):
            found.append(Definition(key, FORMULA + re.sub(r"\s+", " ", rest), _quote(toks, held, maths, i), where, i))
        # "write $k$ for the ...", "denote by $k$ the ..."
        if prev == ("word", "write") and nxt == ("word", "for") or prev == ("word", "by") and \
                tok(i - 2) == ("word", "denote"):
            j = i + 1 + (nxt == ("word", "for"))
            words, _ = _np_after(toks, j, is_noun)
            if words:
                add(key, words, i, j + 1)
    return found


# ---------------------------------------------------------------------------------------------------------------
# meanings: when two noun phrases say the same thing
# ---------------------------------------------------------------------------------------------------------------
# words that say nothing about what a symbol is: a phrase made of these only is no definition ("the factor $d$",
# "an error of order $\delta$" has a meaning, "error", but "of order" says that $\delta$ is a magnitude)
_MEANINGLESS = set("""factor order case choice candidate particular term one version kind form expression
formula notation name letter symbol quantity thing display value values setting sense way integer vector point
function set matrix scalar variable sequence""".split())
# counting words: "the number of features" means features; "number of features" and "number of examples" differ
_QUANTITY = {"number", "size", "count", "amount", "total"}
# words of a phrase that are no part of its meaning
_STOP = {"of", "the", "a", "an", "MATH", "paper", "book", "lecture", "page", "figure", "lemma", "theorem",
         "corollary", "proposition", "ref", "this", "that", "our", "its", "their", "same"}

# Synonyms: groups of words (or phrases, matched on word boundaries) that name the same idea in this book.
# Two meanings that each contain a member of one group agree, whatever else they say.
SYNONYMS = [
    # the step of a gradient method (notation.md: "step size (learning rate)")
    {"step", "step size", "learning rate", "stepsize"},
    # the dimension: "the dimension $d$", "$d = 300$ features", "the number of coordinates", "a vector of length $d$"
    {"dimension", "feature", "coordinate", "column", "length"},
    # the data: "$m = 200$ examples", "documents" (the CCAT stand-in), "the training set size", "samples"
    {"example", "sample", "document", "training set", "observation"},
    # the horizon: "number of iterations", "steps", "rounds", "the horizon $T$", "each checkpoint $T$", "an epoch of
    # length $T_i$"; for one-pass methods an iteration is an example (notation.md: "or samples, for one-pass methods")
    {"iteration", "step", "round", "horizon", "update", "checkpoint", "length", "sample", "example"},
    # the accuracy: "accuracy", "target", "optimization error", "tolerance", "gap"
    {"accuracy", "target", "error", "tolerance", "precision", "gap"},
    # the regularization weight: "the penalty $\lambda$", "regularization weight"
    {"regularization", "penalty"},
    # an optimum: "the minimizer $w^\star$", "the optimum", "the solution"
    {"minimizer", "optimum", "optimal", "solution", "minimum", "argmin"},
    # the weight vector: "the iterate $w_t$", "the weights $w$", "the decision $w^t$" (online learning), "the primal
    # $w$" (mirror descent), "the predictor", "the output"
    {"weight", "iterate", "decision", "predictor", "primal", "output"},
    # a sub-gradient
    {"subgradient", "gradient"},
    # the loss: "the loss $L$", "the costs $c_t$" (online learning), "risk", "the objective $C$" (the constrained
    # lectures minimize the loss itself)
    {"loss", "cost", "risk", "objective"},
    # the curvature bound $\beta$: "curvature", "smoothness"
    {"curvature", "smoothness", "smooth"},
    # a radius: "the radius $z$", "the ℓ1 ball of radius $z$", "the simplex of scale $F_1$"
    {"radius", "radii", "ball", "scale"},
    # the threshold of a projection is its Lagrange multiplier
    {"threshold", "multiplier"},
    # an average or mean; RADAR's centre $\bar\theta_i$ of an epoch's ball is the average of the previous epoch
    {"average", "mean", "centre", "center"},
    # the density of a matrix: "fraction of nonzero entries", "density", "sparsity"
    {"density", "nonzero", "sparsity"},
    # the regularizer of mirror descent: "regularizer", "prox-function"
    {"regularizer", "proxfunction", "prox"},
    # the link function of mirror descent: "the map $f^{-1}$"
    {"link", "map", "mirror map"},
    # a constraint set: "the ball $\Omega(R_i)$", "the crude constraint set $\Omega$", "the feasible set $S$"
    {"ball", "constraint set", "feasible set", "domain"},
]


def _words(meaning: str):
    words = [w.replace("sub-", "sub").replace("prox-", "prox") for w in meaning.split()]
    return [singular(p) for w in words for p in w.split("-") if p]


def normalize(words) -> str:
    """The meaning of a noun phrase, or '' if it has none (only meaningless words; "of order")."""
    words = [w.replace("sub-", "sub").replace("prox-", "prox") for w in words]
    words = [p for w in words for p in w.split("-") if p]
    if not words:
        return ""
    head = words[:words.index("of")] if "of" in words else words
    if singular(head[-1]) in _MEANINGLESS and "of" in words:
        return ""                                                      # "an error of order $\delta$"
    if all(singular(w) in _MEANINGLESS | _STOP | _QUANTITY for w in words):
        return ""
    return " ".join(words)


def _content(meaning: str) -> frozenset:
    return frozenset(w for w in _words(meaning) if w not in _MEANINGLESS | _STOP | _QUANTITY | _BREAK)


def _groups(meaning: str) -> frozenset:
    text = " " + " ".join(_words(meaning)) + " "
    return frozenset(i for i, group in enumerate(SYNONYMS)
                     if any(f" {' '.join(_words(member))} " in text for member in group))


def agree(a: str, b: str) -> bool:
    """Do two meanings say the same thing: a word in common (but for counting and meaningless words), or a group
    of SYNONYMS?  A formula agrees with the same formula only: whether it is what a noun phrase says is not for a
    heuristic to decide, so a letter of notation.md's tables defined by a formula is reported (see
    notation_conflicts), and formulas take no part in the check of one page (see letter_conflicts)."""
    if a.startswith(FORMULA) or b.startswith(FORMULA):
        return a == b
    return bool(_content(a) & _content(b)) or bool(_groups(a) & _groups(b))


# ---------------------------------------------------------------------------------------------------------------
# pages and notation.md
# ---------------------------------------------------------------------------------------------------------------
def _cells(path: Path):
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return [(i, "".join(c["source"])) for i, c in enumerate(cells) if c["cell_type"] == "markdown"]


def page_sources() -> dict:
    """{page: [(where, markdown)]}: a lecture with its exercise notebook, and the markdown pages."""
    pages = {}
    for path in sorted(CHAPTERS.glob("*.ipynb")):
        sources = [(f"{path.name} cell {i}", md) for i, md in _cells(path)]
        solutions = SOLUTIONS / path.name
        if solutions.exists():
            sources += [(f"exercises/solutions/{path.name} cell {i}", md) for i, md in _cells(solutions)]
        pages[path.stem] = sources
    for name in MD_PAGES:
        pages[Path(name).stem] = [(name, (ROOT / name).read_text(encoding="utf-8"))]
    return pages


@lru_cache(maxsize=1)
def page_definitions() -> dict:
    """{page: [Definition]} over every page (scanned once; do not modify)."""
    sources = {page: [(where, prose(md)) for where, md in cells] for page, cells in page_sources().items()}
    is_noun = _noun_test(nouns([text for cells in sources.values() for _, text in cells]
                               + [prose((ROOT / "notation.md").read_text(encoding="utf-8"))]))
    return {page: [d for where, text in cells for d in definitions(text, is_noun, where)]
            for page, cells in sources.items()}


def _table_rows(markdown: str, heading: str):
    """The rows (lists of cells) of the first table after a heading."""
    section = markdown.split(heading, 1)[1]
    rows = []
    for line in section.splitlines():
        if line.startswith("|"):
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
            if not all(set(c) <= set("-: ") for c in cells):
                rows.append(cells)
        elif rows:
            break
    return rows[1:]                                                    # without the header row


def _symbols(cell: str):
    return [s[0] for s in (symbol(m) for m in _INLINE_MATH.findall(cell)) if s]


def _meaning_text(cell: str) -> str:
    """A table cell as a meaning: its words, math and roles removed."""
    text = _ROLE.sub(" ", _INLINE_MATH.sub(" ", cell))
    return " ".join(w.lower() for w in re.findall(r"[A-Za-zℓ0-9][\w'’ℓ-]*", text))


def _split_meanings(cell: str, n: int):
    """A meaning cell of a row of n symbols, split into one meaning each where it is a list of n ("number of
    examples, number of features"; "a sub-gradient and their running sum"); else the whole cell for each."""
    masked = _INLINE_MATH.sub(lambda m: "x" * len(m[0]), cell)
    while True:
        new = re.sub(r"\([^()]*\)", lambda m: "x" * len(m[0]), masked)
        if new == masked:
            break
        masked = new
    for sep in (" and ", "; ", ", "):
        cuts = [m.start() for m in re.finditer(re.escape(sep), masked)]
        if n > 1 and len(cuts) == n - 1:
            bounds = [0] + [c + len(sep) for c in cuts]
            ends = cuts + [len(cell)]
            return [_meaning_text(cell[a:b]) for a, b in zip(bounds, ends)]
    return [_meaning_text(cell)] * n


@lru_cache(maxsize=1)
def notation() -> tuple:
    """({letter: book-wide meaning}, {page: {letter: meaning there}}, [lecture families]) from notation.md's tables:
    the two tables of symbols, and the reuse table (whose rows list the lectures of a family together)."""
    md = (ROOT / "notation.md").read_text(encoding="utf-8")
    book = {}
    for heading in ("## Data and problem", "## Algorithms and bounds"):
        for cells in _table_rows(md, heading):
            keys = _symbols(cells[0])
            for key, meaning in zip(keys, _split_meanings(cells[1], len(keys))):
                book[key] = (book.get(key, "") + " " + meaning).strip()
    reuse, lectures, families = {}, [], set()
    for cells in _table_rows(md, "## Letters that a lecture uses in its paper's sense"):
        lectures = re.findall(r"\{doc\}`chapters/([\w-]+)`", cells[0]) or lectures
        if len(lectures) > 1:
            families.add(tuple(lectures))
        keys = _symbols(cells[1])
        for page in lectures:
            for key, meaning in zip(keys, _split_meanings(cells[2], len(keys))):
                reuse.setdefault(page, {})[key] = meaning
    return book, reuse, sorted(families)


# ---------------------------------------------------------------------------------------------------------------
# the checks
# ---------------------------------------------------------------------------------------------------------------
def _base(key: str) -> str:
    """The bare letter of a key: $F$ for $F_1$, $\\theta$ for $\\hat\\theta$."""
    return re.match(r"(?:\\[A-Za-z]+\{)?(\\?[A-Za-z]+)", key)[1]


def kept(page, defs):
    """The definitions of a page that ALLOWED does not list as misreadings ("letter: meaning")."""
    allowed = ALLOWED.get(page, {})
    return [d for d in defs if f"{d.key}: {d.meaning}" not in allowed]


def letter_conflicts(defs) -> dict:
    """{letter: [Definition], one per group of agreeing meanings} for the letters whose definitions fall into two
    groups or more (the connected components of ``agree``; formulas take no part)."""
    by_letter = {}
    for d in defs:
        if not d.meaning.startswith(FORMULA):
            by_letter.setdefault(d.key, {}).setdefault(d.meaning, d)
    out = {}
    for key, meanings in by_letter.items():
        groups = []
        for meaning, d in meanings.items():
            joined = [g for g in groups if any(agree(meaning, other.meaning) for other in g)]
            groups = [g for g in groups if g not in joined] + [[d] + [x for g in joined for x in g]]
        if len(groups) > 1:
            out[key] = [g[-1] for g in groups]                        # one definition of each group
    return out


def notation_conflicts(page, defs) -> dict:
    """{"letter: meaning": (book-wide meaning, Definition)} for the definitions of a letter of notation.md's tables
    that agree neither with its book-wide meaning nor with the meaning of the reuse table for this page (a formula
    agrees with neither, unless the reuse table lists the letter for this page: then the formula is taken for the
    page's own meaning, which the page has declared)."""
    book, reuse, _ = notation()
    here = reuse.get(page, {})
    out = {}
    for d in defs:
        if d.key not in book or agree(d.meaning, book[d.key]):
            continue
        if d.key in here and (not here[d.key] or agree(d.meaning, here[d.key]) or d.meaning.startswith(FORMULA)):
            continue
        out.setdefault(f"{d.key}: {d.meaning}", (book[d.key], d))
    return out


def shared_meanings(defs) -> dict:
    """{"letter & letter: meaning": (Definition, Definition)} for two letters (not two symbols of one letter, like $T$
    and $T_0$) that a page defines with the very same meaning, in two places: "in dimension $n$" and "the
    dimension $d$" (synonyms are not enough here: "the step $\\eta$" and "$T$ steps" are different things); not
    "$x_i$ the example $i$", where one phrase names both."""
    by_meaning = {}
    for d in defs:
        if not d.meaning.startswith(FORMULA):
            by_meaning.setdefault(" ".join(_words(d.meaning)), []).append(d)
    out = {}
    for meaning, ds in by_meaning.items():
        for a in ds:
            for b in ds:
                if _base(a.key) < _base(b.key) and (a.where, a.phrase) != (b.where, b.phrase):
                    out.setdefault(f"{a.key} & {b.key}: {meaning}", (a, b))
    return out


def _show(d) -> str:
    return f"{d.meaning!r} ({d.where}: \"...{d.quote}...\")"


# ---------------------------------------------------------------------------------------------------------------
# the allowlist: findings of the heuristic that are not conflicts, with the reason
# ---------------------------------------------------------------------------------------------------------------
# {page: {"letter: meaning": reason}} for a definition that the heuristic misreads (dropped from every check), and
# {page: {"letter & letter: meaning": reason}} for two letters that may share a meaning on the page.
ALLOWED = {
    "experiments": {
        "x: entries": "the entries $x_{ij}$ and the examples $x_i$ are one family (notation.md: $x_{ij}$ is "
                      "feature $j$ of example $i$)",
        "m: column costs": "misread: in 'a column costs $m$', costs is the verb",
    },
    "exponentiated": {
        "w: difference": "$w = w^+ - w^-$ writes the decision $w$ as a difference; no second meaning",
    },
    "exponentiated_regret": {
        "d: stray exponent": "quotes a misprint of the paper's copy (a stray exponent $d$), no meaning of $d$",
    },
    "exponentiated_scaling": {
        "c: single convex function": "the cost $c$ of online learning, here one function for every round ($c^t = c$)",
        "w: average": "'the same glyph as the average $w^T$': the page explains the note's clash of glyphs",
    },
    "fast_cd": {
        "\\Phi & \\Psi_{B}: potential": "two potentials of one proof, the weighted distance $\\Phi_t$ and the "
                                      "theorem's $\\Psi_B(0) = \\Phi_0 + P(0)$, named as in the proof of scd",
    },
    "l1_problem_optimality": {
        "\\lambda_{\\max}: threshold": "notation.md's 'the smallest $\\lambda$ with $w^\\star = 0$' is this threshold",
    },
    "lower_bound": {
        "X & \\xi: feature": "the features of two constructions, the lemma's $X_j$ and the finite-field proof's "
                             "$\\xi_j(u)$",
    },
    "pgs": {
        "x: = |x|^a\\operatorname{sgn}x": "defines the signed power $x^a$ of any number $x$, not an example",
    },
    "projections": {
        "\\mu: level": "the sorted entries $\\mu_j$ are the cut levels of the threshold search: the same numbers",
    },
    "projections_linear": {
        "u: random pivot": "the pivot $u_r$ is an entry of $u = |v|$, the vector being projected: one meaning",
        "\\mu & u: entry": "$\\mu$ and $u$ are the entries of $v$ sorted and of $|v|$: two vectors",
        "z: length": "'an interval of length $z$' measures an interval by the radius $z$; no new meaning",
        "u: entry": "$u_i$ is an entry of $u = |v|$, the vector being projected (notation.md's reuse table)",
    },
    "projections_sparse_experiments": {
        "z: = \\|w_\\lambda\\|_1": "the radius of the ℓ1 ball through $w_\\lambda$: the book's meaning of $z$",
    },
    "radar": {
        "B: radius": "the sentence that says what $B$ means elsewhere in the book, as notation.md asks",
        "\\theta: query point": "the point at which RADAR queries a gradient is its primal parameter $\\theta$",
        "\\bar{\\theta} & \\bar{g}: average": "averages of two different things: an epoch's iterates "
                                              "($\\bar\\theta_{i+1}$, the next centre) and the stochastic gradients",
    },
    "radar_epochs": {
        "\\beta: smoothness": "the sentence that says what $\\beta$ means in other chapters (RDA's weight here, "
                              "listed in notation.md's reuse table), as notation.md asks",
    },
    "radar_theory": {
        "L': curvature": "the curvature $L''(a)$ of the loss in the margin is its second derivative: the book's $L$",
    },
    "radar_theory_corollaries": {
        "L': curvature": "the curvature $L''(a)$ of the loss in the margin is its second derivative: the book's $L$",
        "\\delta: parameter": "the sentence that retires the paper's parameter $\\delta$ (replaced by $\\omega$) and "
                               "keeps $\\delta$ for a failure probability, as notation.md asks",
    },
    "scd": {
        "\\eta: minimizer": "the step $\\eta_j$ is the minimizer of $h$: one object, two descriptions",
    },
    "scd_practice": {
        "T: smallest integer": "'the smallest integer $T$' is the number of iterations the question asks for",
    },
    "smidas_truncgrad": {
        "w: number of truncations": "misread: in '(the number of truncations $w_j$ has received)', $w_j$ is the "
                                    "subject of the clause",
    },
}


# ---------------------------------------------------------------------------------------------------------------
# the tests
# ---------------------------------------------------------------------------------------------------------------
def test_one_meaning_per_letter_per_page():
    """No letter has two meanings on one page (a lecture with its exercises)."""
    found = []
    for page, defs in page_definitions().items():
        for key, ds in letter_conflicts(kept(page, defs)).items():
            found.append(f"{page}: ${key}$ is " + " and ".join(_show(d) for d in ds))
    assert not found, (
        "letters defined with two meanings on one page:\n  " + "\n  ".join(found)
        + "\nRename one of them (and say in notation.md's reuse table if a lecture keeps its paper's letter); if a "
          "meaning is misread or the two are the same idea, add it to ALLOWED (or SYNONYMS) in "
          "tests/test_notation.py with the reason.")


def test_one_meaning_per_letter_per_lecture_family():
    """The lectures that notation.md's reuse table lists together (RADAR, PGS, projections, exponentiated) are
    read in sequence and share their letters: no letter has two meanings across them either."""
    _, _, families = notation()
    pages = page_definitions()
    found = []
    for family in families:
        defs = [d for page in family if page in pages for d in kept(page, pages[page])]
        for key, ds in letter_conflicts(defs).items():
            where = {d.where.split(" cell")[0] for d in ds}
            if len({w.split("/")[-1] for w in where}) > 1:                 # else: one page, reported above
                found.append(f"{' + '.join(family)}: ${key}$ is " + " and ".join(_show(d) for d in ds))
    assert not found, (
        "letters defined with two meanings across the lectures of one family:\n  " + "\n  ".join(found)
        + "\nRename one of them, or allowlist a misreading in ALLOWED with the reason.")


def test_letters_keep_their_book_meaning():
    """A letter that notation.md's tables give one meaning keeps it, except where its reuse table says otherwise."""
    found = []
    for page, defs in page_definitions().items():
        for book, d in notation_conflicts(page, kept(page, defs)).values():
            found.append(f"{page}: ${d.key}$ is {_show(d)}; notation.md: {book!r}")
    assert not found, (
        "letters defined against notation.md:\n  " + "\n  ".join(found)
        + "\nRename the letter, or list the reuse in notation.md's table of letters used in a paper's sense (a "
          "formula definition is reported because a heuristic cannot compare it: if it is the book's meaning, "
          "allowlist it with the reason).")


def test_one_letter_per_meaning_per_page():
    """Two letters for one meaning on one page (the dimension $n$ and the dimension $d$) are as confusing."""
    found = []
    for page, defs in page_definitions().items():
        allowed = ALLOWED.get(page, {})
        for finding, (a, b) in shared_meanings(kept(page, defs)).items():
            if finding not in allowed:
                found.append(f"{page}: ${a.key}$ is {_show(a)}, and ${b.key}$ is {_show(b)}")
    assert not found, "two letters with one meaning on one page:\n  " + "\n  ".join(found)


def test_allowlist_is_current():
    """Every allowlist entry still occurs on its page, and has a reason."""
    pages = page_definitions()
    stale = []
    for page, entries in ALLOWED.items():
        defs = pages.get(page, [])
        present = {f"{d.key}: {d.meaning}" for d in defs}
        shared = set(shared_meanings(defs))
        stale += [f"{page}: {entry!r}" for entry in entries if entry not in present | shared]
    assert not stale, "allowlist entries that no longer occur (remove them):\n  " + "\n  ".join(stale)
    assert all(reason.strip() for entries in ALLOWED.values() for reason in entries.values())


def _defs(markdown, where=""):
    return definitions(prose(markdown), lambda word: word not in _VERBS, where)


def test_the_scan_sees_what_it_should():
    """The patterns on a small synthetic text: what is a definition, which letter, which meaning."""
    md = " ".join([
        "Let $D(\\theta) = \\langle y, \\theta\\rangle$ be the dual function and $D_t$ a potential, where $\\rho$",
        "is the constant of condition (13); $\\psi$ denotes the prox-function. The density $s$ of $X$ and, with",
        "$s \\in (0, 1]$ the largest factor that keeps it feasible, its failure probability $\\delta$. Fix",
        "$\\delta \\in (0, 1)$, the failure probability. With probability at least $1 - \\delta$ it holds. We use",
        "$n = 5000$ features, in dimension $n$, a sub-gradient $\\rho_j \\in \\partial|w_j|$, the estimate",
        "$\\hat\\theta_T$ and the step $\\eta_t$. Let $\\Phi_t = \\frac12\\|w_t\\|^2$.\n",
        "```python\nthe step $k$ = 1\n```\n",
        "Not definitions: the paper's $\\sigma$, the same $\\lambda$, the bounds reach $\\varepsilon$, the sparsity",
        "of $w^\\star$, for the squared loss $L'(a, y) = a - y$, the gap $P(w) - D(u)$, an error of order",
        "$\\delta$, the book's $\\eta$ is the step, with $k = 1$ the time bounds are short, `the step $k$` and",
        "{glue:text}`key` $m$."])
    assert [(d.key, d.meaning) for d in _defs(md)] == [
        ("D", "dual function"), ("D", "potential"), ("\\rho", "constant of condition"), ("\\psi", "proxfunction"),
        ("s", "density"), ("s", "largest factor"), ("\\delta", "failure probability"),
        ("\\delta", "failure probability"), ("\\delta", "failure probability"), ("n", "number of features"),
        ("n", "dimension"), ("\\rho", "subgradient"), ("\\hat{\\theta}_{T}", "estimate"), ("\\eta", "step"),
        ("\\Phi", FORMULA + "\\frac12\\|w_t\\|^2")]


def test_symbols():
    """Which letter a math span names: indices, arguments and powers dropped; decorations and digits kept."""
    keys = {m: (symbol(m) or [None])[0] for m in (
        "s", "\\psi_t(\\vartheta)", "\\psi^2", "x_{ij}", "\\hat\\theta", "\\bar w^T", "w^\\star", "L'(a, y)", "f^{-1}",
        "\\lambda_{\\max}", "G_\\infty", "F_1", "m_0", "c_{opt}", "\\varepsilon", "\\Psi_B(0)", "O(k)", "1/\\beta",
        "P(w) - D(u)", "\\delta \\in (0, 1)")}
    assert keys == {
        "s": "s", "\\psi_t(\\vartheta)": "\\psi", "\\psi^2": "\\psi", "x_{ij}": "x", "\\hat\\theta": "\\hat{\\theta}",
        "\\bar w^T": "\\bar{w}", "w^\\star": "w^*", "L'(a, y)": "L'", "f^{-1}": "f^{-1}",
        "\\lambda_{\\max}": "\\lambda_{\\max}", "G_\\infty": "G_{\\infty}", "F_1": "F_{1}", "m_0": "m_{0}",
        "c_{opt}": "c_{opt}", "\\varepsilon": "\\epsilon", "\\Psi_B(0)": "\\Psi_{B}", "O(k)": None, "1/\\beta": None,
        "P(w) - D(u)": None, "\\delta \\in (0, 1)": "\\delta"}


def test_the_checks_are_not_vacuous():
    """Each kind of conflict that the book had (fast_cd: $s$ a density and a dual scale, $D$ the dual function and a
    potential; scd: $\\rho$; radar_theory: $\\delta$; $\\psi$ across the RADAR lectures; projections_sparse: $n$ and
    $d$) is found on a synthetic page, and synonyms are not."""
    page = _defs(" ".join([
        "The dual scale $s$ makes $u$ feasible, and the density $s$ of $X$ is 0.2. The dual function $D(u)$ bounds",
        "$P^\\star$; the potential $D_t$ falls. With a sub-gradient $\\rho_j \\in \\partial|w_j|$ we use the constant",
        "$\\rho = 4$. The corollary's $\\delta$ is a parameter, and with probability at least $1 - \\delta$ it holds.",
        "In dimension $n = 60$ we step; the widgets call the dimension $d$."]))
    assert {key: sorted(d.meaning for d in ds) for key, ds in letter_conflicts(page).items()} == {
        "s": ["density", "dual scale"], "D": ["dual function", "potential"], "\\rho": ["constant", "subgradient"],
        "\\delta": ["failure probability", "parameter"]}
    assert set(shared_meanings(page)) == {"d & n: dimension"}
    # across the pages of a family
    radar = _defs("Not for the prox-function $\\psi_i$.", "radar.ipynb cell 1")
    theory = _defs("The logistic loss, with the curvature $\\psi(a) = e^a/(1 + e^a)^2$.", "radar_theory.ipynb cell 1")
    assert list(letter_conflicts(radar + theory)) == ["\\psi"]
    # against notation.md: scd may not call $z$ the margins; RADAR may call $\\eta$ its noise level (reuse table)
    assert list(notation_conflicts("scd", _defs("It keeps the margins $z = Xw$ up to date."))) == ["z: margins"]
    assert notation_conflicts("radar", _defs("Here $\\eta$ is the noise level.")) == {}
    assert list(notation_conflicts("fast_cd", _defs("Let $D_t = \\frac12\\|w_t\\|^2$."))) == [
        "D: " + FORMULA + "\\frac12\\|w_t\\|^2"]
    # synonyms and decorations are no conflicts
    same = _defs("The step size $\\eta$ and the learning rate $\\eta_t$; the dimension $d$ and $d = 50$ features; the "
                 "parameter $\\theta$ and the estimate $\\hat\\theta$; the minimizer $w^\\star$ and the optimum "
                 "$w^\\star$; the number of iterations $T$ and the horizon $T$.")
    assert letter_conflicts(same) == {} and shared_meanings(same) == {}


def test_notation_tables_are_read():
    """notation.md's tables are found: the book-wide meanings, the reuse table and its lecture families."""
    book, reuse, families = notation()
    for key, word in (("d", "feature"), ("m", "example"), ("s", "nonzero"), ("\\rho", "constant"),
                      ("\\delta", "failure"), ("D", "dual"), ("\\eta", "step"), ("T", "iteration")):
        assert word in book.get(key, ""), (key, book.get(key))
    assert "noise" in reuse["radar"]["\\eta"] and "dimension" in reuse["projections_sparse"]["n"]
    assert ("radar", "radar_epochs", "radar_theory", "radar_theory_corollaries", "radar_const") in families
    assert all(page in page_definitions() for family in families for page in family)
