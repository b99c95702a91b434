r"""What the chapter notebooks need from the book build, made safe to run anywhere.

The chapters *glue* every number their prose states from the value the code computes (MyST-NB's ``glue``): the
book build puts the value into the text.  On Colab or Binder, or in a plain Jupyter, MyST-NB is not installed
(``l1lab[notebooks]`` does not pull in the book's build tools) and the notebook must still run: :func:`glue` then
keeps the value in :data:`GLUED` and shows it only when asked to (``display=True``), as MyST-NB does.

The book's figure functions return a ``matplotlib.figure.Figure`` that no pyplot window owns.  IPython shows such
a figure as a PNG only after ``%matplotlib inline`` has registered a formatter for it; without one (a MyST page
that does not run the magic, a plain IPython) the output would be the text ``<Figure size 800x600 with 1 Axes>``.
:func:`register_figure_display`, run when ``l1lab.book`` is imported under IPython, makes every figure show as a
PNG, and gives it a plain-text form that says what the figure shows (the function that drew it and its texts:
titles, axis labels, legend entries, annotations), which the executed notebook keeps beside the image: the
reader's check of the book reads it to verify that no figure gives away an answer before its question.
"""
from __future__ import annotations

__all__ = ["GLUED", "PROBLEMS_MARK", "figure_summary", "glue", "register_figure_display"]

#: the values glued in this kernel when MyST-NB is not installed (name -> value)
GLUED: dict = {}


def glue(name: str, variable, display: bool = True):
    """MyST-NB's ``glue(name, variable, display)`` when MyST-NB is installed (the book build); otherwise the value
    is kept in :data:`GLUED` and, with ``display``, shown as the cell's output."""
    try:
        from myst_nb import glue as myst_glue
    except ImportError:
        GLUED[name] = variable
        if display:
            from IPython.display import display as show
            show(variable)
        return None
    return myst_glue(name, variable, display=display)


#: what :func:`figure_summary` writes before the problems of a figure drawn by code on a page
PROBLEMS_MARK = " || breaks the book's figure rules: "


def figure_summary(fig) -> str:
    """The plain-text form of a figure: ``<figure by MODULE.FUNCTION: text | text | ...>``, its texts as
    :func:`l1lab.book.style.figure_texts` reads them (no tick labels).  A figure that no figure function of the
    book drew (``<figure by matplotlib: ...>``: short plotting code on a page) is checked here, where it is shown,
    as :func:`l1lab.book.style.book_figure` checks the book's own: what breaks the book's conventions or is hard
    to read (:func:`l1lab.book.style.page_problems`) is written after :data:`PROBLEMS_MARK`, which the reader's
    check of the built book looks for in every page."""
    from .style import figure_texts, page_problems

    who = getattr(fig, "l1lab_figure", None)
    texts = " | ".join(" ".join(t.split()) for t in figure_texts(fig))
    problems = [] if who else page_problems(fig)
    tail = PROBLEMS_MARK + "; ".join(problems) if problems else ""
    return f"<figure by {who or 'matplotlib'}: {texts}{tail}>"


def register_figure_display(shell=None) -> bool:
    """Show every ``matplotlib.figure.Figure`` displayed in the IPython ``shell`` (the running one by default) as a
    PNG, with :func:`figure_summary` as its plain text.  A PNG formatter that is already there (``%matplotlib
    inline``'s) is kept.  Returns False, doing nothing, outside IPython."""
    if shell is None:
        try:
            from IPython import get_ipython
        except ImportError:
            return False
        shell = get_ipython()
    if shell is None:
        return False
    from matplotlib.figure import Figure

    formatters = shell.display_formatter.formatters
    png = formatters["image/png"]
    try:
        png.lookup_by_type(Figure)
    except KeyError:
        from IPython.core.pylabtools import print_figure

        png.for_type(Figure, lambda fig: print_figure(fig, "png", bbox_inches="tight", base64=False))
    formatters["text/plain"].for_type(Figure, lambda fig, p, cycle: p.text(figure_summary(fig)))
    return True
