r"""The book's lectures, what each needs first, and the roadmap figure of the introduction.

:data:`LECTURES` lists every lecture of the table of contents with the lectures it builds on; the introduction
draws it (:func:`roadmap_figure`) and the instructors' page tabulates it (:func:`dependency_table`).
``tests/test_book.py`` checks that it names exactly the lectures of ``_toc.yml``, in their order, and that every
prerequisite comes earlier in the book.
"""
from __future__ import annotations

import ast
import json
import posixpath
import re
from dataclasses import dataclass
from pathlib import Path

from matplotlib.figure import Figure
from matplotlib.patches import Patch

from . import style as _style

__all__ = ["LECTURES", "Lecture", "dependency_table", "exercises", "exercises_markdown", "lecture_title",
           "objectives", "objectives_markdown", "reading_minutes", "roadmap_figure"]


@dataclass(frozen=True)
class Lecture:
    """A lecture: its page (``chapters/<name>``), a short title for the figure, its paper, what it needs first
    (pages; only the direct needs, the figure draws one arrow per need), and its place in the roadmap (column,
    row).  Its title, reading time and objectives are read from the lecture itself.

    A lecture that continues another one (``continues``: the page of its first part, which it needs; a topic too
    long for one 40-minute reading, read in two) shares its first part's box in the roadmap figure, which says
    how many parts the topic has; its own ``short`` and ``place`` are not drawn."""

    page: str
    short: str
    paper: str
    needs: tuple
    place: tuple
    continues: str | None = None


SST, DSSC, KFE, ZHU, ANW = ("Shalev-Shwartz & Tewari (2011)", "Duchi et al. (2008)",
                            "Kakade, Foster & Even-Dar (2008)", "Zhu et al. (2009)",
                            "Agarwal, Negahban & Wainwright (2012)")

#: every lecture of the book in the order of the table of contents
LECTURES = (
    Lecture("chapters/l1_problem", "The ℓ1 problem", SST, (), (0, 3)),
    Lecture("chapters/l1_problem_optimality", "Optimality\nand the path", SST, ("chapters/l1_problem",), (0, 3),
            continues="chapters/l1_problem"),
    Lecture("chapters/scd", "Stochastic\ncoordinate\ndescent", SST, ("chapters/l1_problem_optimality",), (1, 0)),
    Lecture("chapters/scd_practice", "SCD in\npractice", SST, ("chapters/scd",), (1, 0), continues="chapters/scd"),
    Lecture("chapters/lower_bound", "What no\ncoordinate\nmethod can beat", SST, ("chapters/scd_practice",), (2, 0)),
    Lecture("chapters/lower_bound_measured", "Lemma 5\nmeasured", SST, ("chapters/lower_bound",), (2, 0),
            continues="chapters/lower_bound"),
    Lecture("chapters/fast_cd", "Towards a\nfast solver", SST, ("chapters/scd_practice",), (2, 1)),
    Lecture("chapters/fast_cd_solver", "A fast solver", SST, ("chapters/fast_cd",), (2, 1),
            continues="chapters/fast_cd"),
    Lecture("chapters/smidas", "Mirror descent\nmade sparse", SST, ("chapters/scd_practice",), (2, 2)),
    Lecture("chapters/smidas_guarantee", "What SMIDAS\nguarantees", SST, ("chapters/smidas",), (2, 2),
            continues="chapters/smidas"),
    Lecture("chapters/smidas_truncgrad", "Truncated\ngradient and\nthe p-norm", SST, ("chapters/smidas_guarantee",),
            (3, 2)),
    Lecture("chapters/smidas_truncgrad_prop4", "Proposition 4", SST, ("chapters/smidas_truncgrad",), (3, 2),
            continues="chapters/smidas_truncgrad"),
    Lecture("chapters/experiments", "The experiments\nof Section 4", SST, ("chapters/smidas_truncgrad_prop4",),
            (4, 2)),
    Lecture("chapters/experiments_claims", "The claims\nof Section 4", SST, ("chapters/experiments",), (4, 2),
            continues="chapters/experiments"),
    Lecture("chapters/projections", "Projecting\nonto the\nℓ1 ball", DSSC, ("chapters/l1_problem_optimality",),
            (1, 5)),
    Lecture("chapters/projections_linear", "Projecting\nin linear\ntime", DSSC, ("chapters/projections",), (1, 5),
            continues="chapters/projections"),
    Lecture("chapters/projections_sparse", "Sparse steps,\nexperiments", DSSC, ("chapters/projections_linear",),
            (2, 5)),
    Lecture("chapters/projections_sparse_experiments", "The paper's\nexperiments", DSSC,
            ("chapters/projections_sparse",), (2, 5), continues="chapters/projections_sparse"),
    Lecture("chapters/exponentiated", "Multiplicative\nupdates", KFE, ("chapters/projections",), (2, 6)),
    Lecture("chapters/exponentiated_regret", "Regret bounds", KFE, ("chapters/exponentiated",), (2, 6),
            continues="chapters/exponentiated"),
    Lecture("chapters/exponentiated_scaling", "The log d\nmiracle", KFE, ("chapters/exponentiated_regret",), (3, 6)),
    Lecture("chapters/exponentiated_scaling_demos", "The log d\nmiracle, measured", KFE,
            ("chapters/exponentiated_scaling",), (3, 6), continues="chapters/exponentiated_scaling"),
    Lecture("chapters/pgs", "The Primal\nGradient\nSolver", ZHU, ("chapters/smidas_guarantee",), (3, 3)),
    Lecture("chapters/pgs_guarantee", "The guarantee\nof PGS", ZHU, ("chapters/pgs",), (3, 3),
            continues="chapters/pgs"),
    Lecture("chapters/pgs_more_data", "More data,\nless time", ZHU, ("chapters/pgs_guarantee",), (4, 3)),
    Lecture("chapters/pgs_more_data_text", "Sparse text", ZHU, ("chapters/pgs_more_data",), (4, 3),
            continues="chapters/pgs_more_data"),
    Lecture("chapters/radar", "RADAR", ANW, ("chapters/smidas_guarantee", "chapters/projections"), (3, 4)),
    Lecture("chapters/radar_epochs", "RADAR's epochs", ANW, ("chapters/radar",), (3, 4), continues="chapters/radar"),
    Lecture("chapters/radar_theory", "What RADAR\nguarantees", ANW, ("chapters/radar_epochs",), (4, 4)),
    Lecture("chapters/radar_theory_corollaries", "Corollaries", ANW, ("chapters/radar_theory",), (4, 4),
            continues="chapters/radar_theory"),
    Lecture("chapters/radar_const", "Constant\nepochs", ANW, ("chapters/radar_theory",), (5, 4)),
    Lecture("chapters/family", "One family:\nmirror descent,\ndual averaging", "",
            ("chapters/smidas_truncgrad", "chapters/exponentiated_regret", "chapters/pgs_guarantee",
             "chapters/radar_theory"), (5, 2)),
    Lecture("chapters/tools", "Tools from\nconvex analysis\nand probability", "", (), (5, 6)),
    Lecture("chapters/tools_divergences", "Tools: divergences,\nconcentration", "", ("chapters/tools",), (5, 6),
            continues="chapters/tools"),
    Lecture("chapters/estimators", "l1lab from\nscikit-learn", "", ("chapters/fast_cd_solver",), (3, 1)),
)

#: the colour of each paper's lectures in the roadmap (from the book's palette)
_PAPER_COLORS = {SST: "SCD", DSSC: "projected gradient", KFE: "SMG", ZHU: "GCD", ANW: "TruncGrad", "": "SGD"}


def _markdown(root, page) -> str:
    nb = json.loads((Path(root) / f"{page}.ipynb").read_text(encoding="utf-8"))
    return "\n\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")


def lecture_title(root, page) -> str:
    """The first level-1 heading of the lecture ``page`` (e.g. ``chapters/scd``) under the book's ``root``."""
    m = re.search(r"^# (.+)$", _markdown(root, page), re.M)
    return m.group(1).strip() if m else page


def reading_minutes(root, page) -> int:
    """The lecture's reading time in minutes, computed from its page (:func:`l1lab.book.reading.reading_time`), the
    number its "In this lecture" box shows."""
    from .reading import reading_time

    return reading_time(root, page).minutes


def objectives(root, page) -> list[str]:
    """The learning objectives of a lecture: the points of the "You will learn" list of its "In this lecture"
    box (the lecture is their single source; the instructors' page collects them)."""
    text = _markdown(root, page)
    box = re.search(r"In this (?:lecture|appendix)(.*?)(?:\n```|\n:::)", text, re.S)
    if not box:
        return []
    learn = re.search(r"learn\W*\n(.*?)(?:\n\s*\n(?!\s*[-*] )|$)", box.group(1), re.S | re.I)
    if not learn:
        return []
    items, current = [], None
    for line in learn.group(1).splitlines():
        m = re.match(r"\s*[-*] (.*)", line)
        if m:
            current = m.group(1).strip()
            items.append(current)
        elif items and line.strip():
            items[-1] += " " + line.strip()
    return [_absolute_docs(item, page) for item in items]


_DOC = re.compile(r"\{doc\}`(?:([^`<]*?)\s*<)?([^`<>]+?)>?`")


def _absolute_docs(text, page) -> str:
    """``text`` of the lecture ``page`` with its relative ``{doc}`` links made absolute (``{doc}`radar``` on a page
    of ``chapters/`` becomes ``{doc}`radar </chapters/radar>```), so that it links right on any other page."""
    folder = page.rsplit("/", 1)[0] if "/" in page else ""

    def absolute(m):
        label, target = m.group(1), m.group(2).strip()
        if target.startswith("/"):
            return m.group(0)
        path = posixpath.normpath(f"/{folder}/{target}")
        return f"{{doc}}`{label} <{path}>`" if label else f"{{doc}}`{path}`"

    return _DOC.sub(absolute, text)


#: the line under an exercise's statement that says what it is: "*Practice · difficulty 2 · about 15 minutes*"
_KIND_LINE = re.compile(r"^\*(Practice|Graded)\s*·\s*difficulty\s*([123])\s*·\s*about\s*(\d+)\s*minutes\*\s*$",
                        re.M)
_EXERCISE = re.compile(r"^(`{3,}|:{3,})\{exercise\}\s*(.*?)\s*$(.*?)^\1\s*$", re.M | re.S)


def exercises(root, page) -> list[dict]:
    """The exercises of a lecture (its ``{exercise}`` blocks): title, label, kind ("Practice" or "Graded"),
    difficulty (1-3) and minutes, read from the line that each exercise states them on; ``None`` where an
    exercise lacks it (a test requires it)."""
    out = []
    for m in _EXERCISE.finditer(_markdown(root, page)):
        label = re.search(r"^:label:\s*(\S+)", m.group(3), re.M)
        kind = _KIND_LINE.search(m.group(3))
        out.append({"title": m.group(2), "label": label.group(1) if label else None,
                    "kind": kind.group(1) if kind else None, "difficulty": int(kind.group(2)) if kind else None,
                    "minutes": int(kind.group(3)) if kind else None})
    return out


_NOTEBOOK_EXERCISE = re.compile(r"^##\s*Exercise\s+(\d+):\s*(.*?)\s*$")


def notebook_exercises(root, topic) -> list[dict]:
    """The exercises of a topic's exercise notebook (``chapters/exercises/solutions/<topic>.ipynb``): number,
    title, kind, difficulty and minutes, read from the line under each ``## Exercise N: title`` heading (the
    lectures' format); ``[]`` when the topic has no notebook."""
    path = Path(root) / "chapters" / "exercises" / "solutions" / f"{topic}.ipynb"
    if not path.exists():
        return []
    out = []
    for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        lines = "".join(cell["source"]).splitlines()
        head = _NOTEBOOK_EXERCISE.match(lines[0]) if lines else None
        if head is None:
            continue
        kind = next((_KIND_LINE.match(x.strip()) for x in lines[1:] if x.strip()), None)
        out.append({"number": int(head.group(1)), "title": head.group(2),
                    "kind": kind.group(1) if kind else None, "difficulty": int(kind.group(2)) if kind else None,
                    "minutes": int(kind.group(3)) if kind else None})
    return out


def notebook_exercises_markdown(root, lectures=LECTURES) -> str:
    """A markdown table of the exercise notebooks' exercises, per topic (the notebook of a topic's first part):
    notebook, exercise, kind, difficulty, time."""
    rows = ["| notebook | exercise | kind | difficulty | minutes |", "|---|---|---|---|---|"]
    for lec in lectures:
        topic = lec.page.split("/")[-1]
        for ex in notebook_exercises(root, topic):
            rows.append(f"| `chapters/exercises/solutions/{topic}.ipynb` | {ex['number']}. {_plain(ex['title'])} | "
                        f"{ex['kind'] or '?'} | {ex['difficulty'] or '?'} | {ex['minutes'] or '?'} |")
    return "\n".join(rows)


_TEX_WORDS = {"lambda": "λ", "max": "max", "varepsilon": "ε", "epsilon": "ε", "omega": "ω", "ell": "ℓ", "eta": "η",
              "theta": "θ", "sigma": "σ", "rho": "ρ", "beta": "β", "kappa": "κ", "log": "log", "infty": "∞",
              "min": "min", "psi": "ψ", "Psi": "Ψ", "delta": "δ", "gamma": "γ", "tau": "τ", "mu": "μ"}


def _plain(title) -> str:
    """A title's inline formulas as plain text (``$\\lambda_{\\max}$`` -> ``λ_max``), for a link's text."""
    def text(m):
        tex = re.sub(r"\\([A-Za-z]+)", lambda c: _TEX_WORDS.get(c.group(1), c.group(1)), m.group(1))
        return re.sub(r"[{}\\]", "", tex)
    return re.sub(r"\$([^$]*)\$", text, title).replace("<", "‹").replace(">", "›").replace("`", "")


def exercises_markdown(root, lectures=LECTURES) -> str:
    """A markdown table of every exercise of the lectures: lecture, title, practice or graded, difficulty, time."""
    rows = ["| lecture | exercise | kind | difficulty | minutes |", "|---|---|---|---|---|"]
    for lec in lectures:
        for ex in exercises(root, lec.page):
            # the link's text is the exercise's title, its formulas as plain text (a reference's text cannot hold
            # math, and a bare reference can render as the kind alone)
            title = f"{{ref}}`{_plain(ex['title'])} <{ex['label']}>`" if ex["label"] else ex["title"]
            rows.append(f"| {{doc}}`/{lec.page}` | {title} | {ex['kind'] or '?'} | "
                        f"{ex['difficulty'] or '?'} | {ex['minutes'] or '?'} |")
    return "\n".join(rows)


def questions(root, page) -> list[dict]:
    """The in-page questions of a lecture (:mod:`l1lab.book.quiz`), read from its code cells without running them:
    each ``Numeric(...)`` or ``Choice(...)`` call's name, kind, prompt (a string or f-string literal; an f-string's
    fields are shown as ``{...}``), the glue key of a numeric answer (``source``), the player it asks the reader
    to move and the places (from 1) of the learning objectives it checks (``objective``, a tuple, empty when the
    call names none)."""
    nb = json.loads((Path(root) / f"{page}.ipynb").read_text(encoding="utf-8"))
    out = []
    for cell in nb["cells"]:
        src = "".join(cell["source"])
        if cell["cell_type"] != "code" or "Numeric(" not in src and "Choice(" not in src:
            continue
        tree = ast.parse("\n".join(line for line in src.splitlines() if not line.lstrip().startswith(("%", "!"))))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in ("Numeric", "Choice") and len(node.args) >= 2):
                continue
            kw = {k.arg: k.value for k in node.keywords}
            out.append({"name": _literal(node.args[0]), "kind": node.func.id.lower(),
                        "prompt": _literal(node.args[1]),
                        "source": _literal(kw["source"]) if "source" in kw else None,
                        "player": _literal(kw["player"]) if "player" in kw else None,
                        "objective": _places(kw.get("objective"))})
    return out


def _places(node) -> tuple:
    """The objectives' places an ``objective=`` argument names: ``2`` or ``(1, 3)``; () for none."""
    if node is None:
        return ()
    value = ast.literal_eval(node)
    return (value,) if isinstance(value, int) else tuple(value)


def _literal(node) -> str:
    if isinstance(node, ast.Constant):
        return str(node.value)
    if isinstance(node, ast.JoinedStr):
        return "".join(str(v.value) if isinstance(v, ast.Constant) else "{...}" for v in node.values)
    return ast.unparse(node)


def questions_markdown(root, lectures=LECTURES) -> str:
    """Every lecture's in-page questions, as markdown: a numbered list per lecture with each question's kind (a
    numeric answer names the value it is checked against; a "predict, then move" item names its player), and the
    learning objectives it checks, by their numbers in :func:`objectives_markdown`."""
    out = []
    for lec in lectures:
        qs = questions(root, lec.page)
        if not qs:
            continue
        out.append(f"**{{doc}}`/{lec.page}`** ({len(qs)} questions)\n")
        for i, q in enumerate(qs, 1):
            what = "number" if q["kind"] == "numeric" else "choice"
            if q["source"]:
                what += f", the page's value `{q['source']}`"
            if q["player"]:
                what += f", then move the player `{q['player']}`"
            if q["objective"]:
                what += (", objective " if len(q["objective"]) == 1 else ", objectives ") \
                    + ", ".join(map(str, q["objective"]))
            prompt = q["prompt"].replace("\n", " ")
            out.append(f"{i}. {prompt} *({what})*")
        out.append("")
    return "\n".join(out)


def objectives_markdown(root, lectures=LECTURES) -> str:
    """Every lecture's title (a link) and its learning objectives, as markdown: a numbered list (the numbers the
    questions of :func:`questions_markdown` refer to)."""
    out = []
    for lec in lectures:
        minutes = reading_minutes(root, lec.page)
        out.append(f"**{{doc}}`{lecture_title(root, lec.page)} </{lec.page}>`**"
                   + (f" ({minutes} min)" if minutes else "") + "\n")
        out += [f"{i}. {item}" for i, item in enumerate(objectives(root, lec.page), 1)] + [""]
    return "\n".join(out)


def dependency_table(root, lectures=LECTURES) -> str:
    """A markdown table: lecture, paper, what it needs first, reading time."""
    title = {lec.page: lecture_title(root, lec.page) for lec in lectures}
    rows = ["| lecture | paper | needs first | minutes |", "|---|---|---|---|"]
    for lec in lectures:
        needs = ", ".join(f"{{doc}}`{title[n]} </{n}>`" for n in lec.needs) or "—"
        rows.append(f"| {{doc}}`{title[lec.page]} </{lec.page}>` | {lec.paper or 'the package'} | "
                    f"{needs} | {reading_minutes(root, lec.page) or '–'} |")
    return "\n".join(rows)


@_style.book_figure
def roadmap_figure(lectures=LECTURES, figsize=(8.0, 6.0)) -> Figure:
    """The lectures as boxes at their places (column: how far into the book, row: the track), coloured by paper,
    with an arrow from each lecture to every lecture that needs it."""
    parts = {}
    for lec in lectures:                       # a continuation is drawn in its first part's box
        parts.setdefault(lec.continues or lec.page, []).append(lec.page)
    head = {page: first for first, pages in parts.items() for page in pages}
    lectures = [lec for lec in lectures if lec.continues is None]
    pos = {lec.page: lec.place for lec in lectures}
    n_cols = 1 + max(c for c, _ in pos.values())
    n_rows = 1 + max(r for _, r in pos.values())
    fig = Figure(figsize=figsize, dpi=100)
    ax = fig.add_axes((0.0, 0.15, 1.0, 0.85))            # the legend below, in two columns
    ax.set_xlim(-0.5, n_cols - 0.5)
    ax.set_ylim(n_rows - 0.5, -0.5)
    ax.axis("off")
    boxes = {}
    for lec in lectures:
        x, y = pos[lec.page]
        algo = _PAPER_COLORS[lec.paper]
        label = lec.short + (f"\n({len(parts[lec.page])} parts)" if len(parts[lec.page]) > 1 else "")
        boxes[lec.page] = ax.text(x, y, label, ha="center", va="center", fontsize=9, zorder=3,
                                  bbox=dict(boxstyle="round,pad=0.35", fc=_style.shade(algo, -0.85),
                                            ec=_style.ALGORITHM_COLORS[algo], lw=1.2))
    arrows = {(head[need], lec.page) for lec in lectures for need in lec.needs}
    for need, page in sorted(arrows):
        if need != page:
            # from the right edge of the needed lecture to the left edge of the one that needs it
            ax.annotate("", xy=(0.0, 0.5), xycoords=boxes[page], xytext=(1.0, 0.5), textcoords=boxes[need],
                        arrowprops=dict(arrowstyle="-|>", color="0.4", lw=0.9, shrinkA=6, shrinkB=6), zorder=4)
    handles = [Patch(fc=_style.shade(algo, -0.85), ec=_style.ALGORITHM_COLORS[algo], lw=1.2,
                     label=paper or "using the package")
               for paper, algo in _PAPER_COLORS.items() if any(lec.paper == paper for lec in lectures)]
    fig.legend(handles=handles, loc="lower center", ncol=2, fontsize=9, frameon=False)
    return fig
