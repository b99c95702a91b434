"""Figures a reader can redraw, and figures that follow the book's rules wherever they are drawn.

Most figures of the book are drawn by the book layer (``l1lab.book``), behind hidden cells; the functions that draw
them are checked when they draw (``l1lab.book.style.book_figure``).  Every lecture also draws at least one figure
with short code on the page, folded behind a "Show code" toggle (tag ``hide-input``, not removed): at most
:data:`MAX_LINES` lines of numpy and matplotlib over the page's own implementation or an ``l1lab`` call, so that a
reader can change a line and redraw it.  Such a figure is checked where it is shown: the notebook display writes what
breaks the book's figure rules into the figure's plain-text form (``l1lab.book.notebook.PROBLEMS_MARK``), which the
executed notebooks keep, and which this check reads in every page.
"""
import re

import pytest
from conftest import ROOT, executed

from l1lab.book.notebook import PROBLEMS_MARK
from l1lab.book.roadmap import LECTURES

#: the longest drawing code a reader is asked to read, change and rerun (non-blank lines)
MAX_LINES = 15
#: the lectures (not the appendices on tools and on scikit-learn, which are pages of another kind)
PAGES = [lec.page for lec in LECTURES if lec.page not in ("chapters/tools", "chapters/estimators")]
ALL_NOTEBOOKS = sorted((ROOT / "chapters").glob("*.ipynb"))

_DRAWS = re.compile(r"\.(plot|loglog|semilogy|semilogx|scatter|fill_between|step|bar|barh|hist|imshow|contour"
                    r"|contourf|errorbar|axhline|axvline)\(")
_BOOK_FIGURE = re.compile(r"\b\w+_(figure|player|demo)\(")


def _lines(source):
    return [ln for ln in source.splitlines() if ln.strip()]


def _shows_image(cell):
    return any("image/png" in o.get("data", {}) for o in cell.get("outputs", []))


def drawing_cells(nb):
    """The code cells of ``nb`` that draw a figure on the page with code a reader sees when they unfold it."""
    out = []
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        tags = set(cell.metadata.get("tags", []))
        if "hide-input" in tags and _DRAWS.search(cell.source) and not _BOOK_FIGURE.search(cell.source):
            out.append(cell)
    return out


@pytest.mark.parametrize("page", PAGES)
def test_every_lecture_draws_a_figure_with_short_code_on_the_page(page):
    nb = executed(ROOT / f"{page}.ipynb")
    cells = drawing_cells(nb)
    assert cells, (f"{page}: no figure drawn by code on the page (a code cell tagged hide-input that draws with "
                   "matplotlib from the page's numpy or an l1lab call)")
    short = [c for c in cells if len(_lines(c.source)) <= MAX_LINES]
    assert short, (f"{page}: its drawing code is {min(len(_lines(c.source)) for c in cells)} lines, more than "
                   f"{MAX_LINES}")
    assert any(_shows_image(c) for c in short), f"{page}: its short drawing code shows no figure when executed"


@pytest.mark.parametrize("path", ALL_NOTEBOOKS, ids=lambda p: p.stem)
def test_every_figure_shown_follows_the_book_rules(path):
    bad = []
    for cell in executed(path).cells:
        for o in cell.get("outputs", []):
            plain = o.get("data", {}).get("text/plain", "")
            if isinstance(plain, str) and plain.startswith("<figure by") and PROBLEMS_MARK in plain:
                bad.append(plain.split(PROBLEMS_MARK, 1)[1].rstrip(">"))
    assert not bad, f"{path.stem}: figures that break the book's rules: {bad}"


def test_the_display_marks_a_figure_that_breaks_the_rules():
    """The mark the check looks for is written for a figure drawn on a page that breaks a rule, and not otherwise."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from l1lab.book.notebook import figure_summary
    from l1lab.book.style import BOUND, algorithm_color

    fig, ax = plt.subplots(figsize=(7, 3))
    ax.plot([1, 2], [2, 1], color=algorithm_color("SMIDAS"), label="SMIDAS")
    ax.plot([1, 2], [3, 2], **BOUND, label="Theorem 3's bound")
    ax.legend()
    assert PROBLEMS_MARK not in figure_summary(fig)
    wide, ax = plt.subplots(figsize=(9, 3))
    ax.plot([1, 2], [2, 1], "C0--", label="SMIDAS")
    ax.set_title("tiny", fontsize=6)
    summary = figure_summary(wide)
    assert PROBLEMS_MARK in summary
    for part in ("9.0 in wide", "below 9 pt", "colour", "measured curve drawn"):
        assert part in summary, (part, summary)
    plt.close("all")
