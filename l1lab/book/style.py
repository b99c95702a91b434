r"""One figure style for the whole book.

The conventions every chapter's figures follow (``tests/test_live.py`` checks them on every demo's figure with
:func:`style_problems`):

* **one colour per algorithm**, the same in every chapter (:data:`ALGORITHM_COLORS`): SCD is blue wherever it
  appears, SMIDAS red, TruncGrad purple, and so on; several curves of one algorithm (one per dimension, say)
  are :func:`shade`\ s of its colour;
* **measured curves are solid, theory is not**: a line whose label names a theorem, lemma, corollary,
  proposition or bound is drawn dashed or dash-dotted (:data:`BOUND`, or ``BOUND`` in an algorithm's colour when
  each algorithm has its own bound);
* runs over seeds are drawn as their mean (:data:`MEAN_LW`) with a min-max band (:data:`BAND_ALPHA`);
* values below a plotting floor are drawn on a dotted grey line (:data:`FLOOR`).
"""
from __future__ import annotations

import re

import numpy as np
from matplotlib.colors import to_hex, to_rgb

__all__ = ["ALGORITHM_COLORS", "BAND_ALPHA", "BOUND", "EXCEPTION_TEXT", "FLOOR", "MEAN_LW", "MIN_PT", "PAGE_WIDTH_IN",
           "algorithm_color", "FigureStyleError", "book_figure", "figure_texts", "page_problems",
           "readability_problems", "shade", "style_problems"]

#: the colour of each algorithm of the book, in every chapter
ALGORITHM_COLORS = {
    # coordinate methods (Shalev-Shwartz & Tewari 2011)
    "SCD": "C0", "cyclic CD": "C1", "GCD": "C2", "working-set CD": "C5",
    # stochastic gradient methods
    "SMIDAS": "C3", "TruncGrad": "C4", "SGD": "C7",
    # the teacher chapter (exponentiated gradient)
    "SMG": "C3", "SG": "C0", "EG": "C1", "EG±": "C9", "projected gradient": "C1",
    # RADAR (Agarwal et al. 2012)
    "RADAR": "C3", "RDA": "C0", "EDA": "C2", "RADAR-CONST": "C1",
    # the Primal Gradient Solver (Zhu et al. 2009) and its batch comparator
    "PGS": "C6", "L-BFGS": "C8",
}

#: a theorem's bound drawn over measured curves
BOUND = dict(color="k", ls="--", lw=1.5)
#: the plotting floor under which values are drawn (see ``l1lab.book.plotting``)
FLOOR = dict(color="0.45", ls=":", lw=1)
#: the page's width (inches): a figure is read at this width, so it may be no wider
PAGE_WIDTH_IN = 8.0
#: the smallest size (points) of a visible text of a figure (ticks, labels, legends, titles) read at the page's width
MIN_PT = 9.0
#: line width of a mean over seeds, and the opacity of its min-max band
MEAN_LW = 2.0
BAND_ALPHA = 0.2

_THEORY = re.compile(r"^\s*(Theorem|Lemma|Corollary|Proposition|Prop\.|Cor\.|bound\b|the bound|printed bound"
                     r"|eq\.\s*\()", re.IGNORECASE)
_NAMES = sorted(ALGORITHM_COLORS, key=len, reverse=True)   # "RADAR-CONST" before "RADAR"


def algorithm_color(name: str) -> str:
    """The colour of the algorithm ``name`` (a key of :data:`ALGORITHM_COLORS`); a clear error otherwise."""
    try:
        return ALGORITHM_COLORS[name]
    except KeyError:
        raise KeyError(f"no colour for algorithm {name!r}; the book's algorithms: {sorted(ALGORITHM_COLORS)}") \
            from None


def shade(name: str, t: float) -> str:
    """A shade of the algorithm ``name``'s colour for one of several curves of it (e.g. one per dimension):
    ``t`` in [-1, 1] mixes it with white (t < 0, lighter) or black (t > 0, darker); t = 0 is the colour itself."""
    if not -1.0 <= t <= 1.0:
        raise ValueError(f"t must be in [-1, 1], got {t}")
    c = np.array(to_rgb(algorithm_color(name)))
    end = np.zeros(3) if t > 0 else np.ones(3)
    return to_hex((1 - abs(t)) * c + abs(t) * end)


def _is_shade(color, base, tol=0.02):
    c, b = np.array(to_rgb(color)), np.array(to_rgb(base))
    for end in (np.ones(3), np.zeros(3)):
        d = end - b
        t = float(np.dot(c - b, d) / np.dot(d, d)) if np.dot(d, d) > 0 else 0.0
        if -tol <= t <= 1 - 0.1 and np.max(np.abs(b + t * d - c)) <= tol:
            return True
    return False


def _algorithm_of(label):
    for name in _NAMES:
        if label == name or re.match(re.escape(name) + r"(?=[\s:,(])", label):
            return name
    return None


_MEASURED_WORDS = re.compile(r"\b(measured|empirical|observed|mean|median|average of)\b", re.IGNORECASE)
_THEORY_ANYWHERE = re.compile(r"\b(Theorem|Lemma|Corollary|Proposition|Prop\.|Cor\.|bound|rate|slope|guide|"
                              r"predicted|theory|eq\.)", re.IGNORECASE)


def _labelled_lines(ax):
    for line in ax.get_lines():
        label = line.get_label()
        if label and not label.startswith("_") and line.get_visible():
            yield label, line


def _is_line(line):
    return line.get_linewidth() > 0 and line.get_linestyle() not in ("None", "none", "", " ")


def _is_solid(line):
    return line.get_linestyle() in ("-", "solid")


def _look(line):
    """What tells a legend entry apart: colour, line style, marker (and a clearly different width)."""
    ls = line.get_linestyle() if _is_line(line) else "None"
    marker = line.get_marker()
    marker = "None" if marker in (None, "", " ", "None", "none") else str(marker)
    return to_hex(line.get_color()), ls, marker, round(float(line.get_linewidth()) if ls != "None" else 0.0)


def style_problems(fig) -> list[str]:
    """The lines of ``fig`` that break the book's conventions, as messages (empty if none):

    * a line labelled with an algorithm's name in another colour than :data:`ALGORITHM_COLORS` gives it (or a
      :func:`shade` of it);
    * a line labelled as a theorem, lemma, corollary, proposition or bound drawn solid (theory is dashed);
    * a measured curve drawn dashed or dotted: a line labelled with an algorithm's name, or as measured, a mean or a
      median, that does not also name a theorem, bound or rate;
    * an algorithm's colour given to something else: a labelled line in the colour of an algorithm that another
      line of the same figure names, which neither names that algorithm nor is theory (a bound may take its
      algorithm's colour; the plotting floor, :data:`FLOOR`, keeps its grey beside SGD's);
    * two legend entries of one axes with different labels that look the same (colour, line style, marker and
      width): a reader cannot tell them apart.
    """
    problems = []
    named = {}
    for ax in fig.axes:
        for label, line in _labelled_lines(ax):
            name = _algorithm_of(label)
            if name is not None:
                named[name] = ALGORITHM_COLORS[name]
    for ax in fig.axes:
        looks = {}
        for label, line in _labelled_lines(ax):
            name = _algorithm_of(label)
            theory_start = bool(_THEORY.match(label))
            theory = theory_start or bool(_THEORY_ANYWHERE.search(label))
            if name is not None and not _is_shade(line.get_color(), ALGORITHM_COLORS[name]):
                problems.append(f"{label!r}: colour {to_hex(line.get_color())}, the book's {name} is "
                                f"{to_hex(ALGORITHM_COLORS[name])}")
            if theory_start and _is_solid(line) and _is_line(line) \
                    and line.get_marker() in (None, "None", "", " "):
                problems.append(f"{label!r}: a theoretical curve drawn solid (the book draws theory dashed)")
            measured = (name is not None or _MEASURED_WORDS.search(label)) and not theory
            if measured and _is_line(line) and not _is_solid(line):
                problems.append(f"{label!r}: a measured curve drawn {line.get_linestyle()!r} (the book draws "
                                f"measured curves solid, theory dashed)")
            floor = to_hex(line.get_color()) == to_hex(FLOOR["color"]) and line.get_linestyle() == FLOOR["ls"]
            if name is None and not theory and not floor:     # the floor's grey is the book's, not SGD's
                for other, color in named.items():
                    if _is_shade(line.get_color(), color):
                        problems.append(f"{label!r}: drawn in {other}'s colour {to_hex(color)}, which this figure "
                                        f"gives to {other}")
                        break
            look = _look(line)
            if look in looks and looks[look] != label:
                problems.append(f"{label!r} and {looks[look]!r}: two legend entries that look the same "
                                f"({look[0]}, {look[1]!r}, marker {look[2]!r})")
            looks.setdefault(look, label)
    return problems


#: what an exception looks like when its text reaches a figure or an output ("ValueError: eta above ...")
EXCEPTION_TEXT = re.compile(r"\b[A-Z]\w*(?:Error|Exception)\b:|Traceback \(most recent call last\)")


def figure_texts(fig) -> list[str]:
    """Every text a reader sees in ``fig`` apart from the tick labels: the suptitle and the figure's own texts,
    each axes' titles, axis labels, annotations and legend entries, in drawing order."""
    texts = []

    def keep(t):
        if t is not None and t.get_visible() and t.get_text().strip():
            texts.append(t.get_text())

    for t in fig.texts:                     # the suptitle is one of them
        keep(t)
    for legend in fig.legends:
        for t in legend.get_texts():
            keep(t)
    for ax in fig.axes:
        for loc in ("left", "center", "right"):
            if ax.get_title(loc):
                texts.append(ax.get_title(loc))
        keep(ax.xaxis.label)
        keep(ax.yaxis.label)
        for t in ax.texts:
            keep(t)
        legend = ax.get_legend()
        if legend is not None:
            for t in legend.get_texts():
                keep(t)
    return texts


def readability_problems(fig) -> list[str]:
    """What makes ``fig`` hard to read at the page's width: wider than :data:`PAGE_WIDTH_IN`, or a visible text
    (tick labels included: the figure is drawn to find them) smaller than :data:`MIN_PT`."""
    import matplotlib.text

    problems = []
    width = fig.get_size_inches()[0]
    if width > PAGE_WIDTH_IN + 1e-9:
        problems.append(f"{width:.1f} in wide, more than the page's {PAGE_WIDTH_IN:g} in")
    fig.canvas.draw()                     # the tick labels exist once drawn
    small = [(t.get_text()[:40], t.get_fontsize()) for t in fig.findobj(matplotlib.text.Text)
             if t.get_visible() and t.get_text().strip() and t.get_fontsize() < MIN_PT]
    if small:
        problems.append(f"text below {MIN_PT:g} pt: {small[:5]}")
    return problems


def page_problems(fig) -> list[str]:
    """Everything :func:`book_figure` refuses in a figure, and what makes it hard to read at the page's width: the
    check of a figure drawn by code on a page (a lecture's own short plotting code), which no figure function of the
    book layer checks.  Empty if none."""
    return (style_problems(fig) + [f"the figure shows exception text: {t!r}" for t in figure_texts(fig)
                                   if EXCEPTION_TEXT.search(t)]
            + readability_problems(fig))


class FigureStyleError(ValueError):
    """A figure that breaks the book's conventions; ``figure`` is the figure as drawn."""

    def __init__(self, message, figure=None):
        super().__init__(message)
        self.figure = figure


def book_figure(fn):
    """Mark ``fn`` as a figure function of the book and check what it returns: a figure that breaks the book's
    conventions (:func:`style_problems`) or shows an exception's text raises a :class:`FigureStyleError` that lists
    what is at fault, so that neither the build nor a test can draw it (a live widget, moved by a reader to a
    setting the build did not draw, shows the figure and a warning instead: :func:`l1lab.book.controls.wire`).
    The figure keeps the name of the function that drew it (``fig.l1lab_figure``), which the notebook display
    records beside the figure's texts."""
    import functools

    from matplotlib.figure import Figure

    @functools.wraps(fn)
    def checked(*args, **kwargs):
        out = fn(*args, **kwargs)
        if isinstance(out, Figure):
            problems = style_problems(out)
            problems += [f"the figure shows exception text: {t!r}" for t in figure_texts(out)
                         if EXCEPTION_TEXT.search(t)]
            if problems:
                raise FigureStyleError(f"{fn.__module__}.{fn.__qualname__} draws a figure that breaks the book's "
                                       "figure conventions (l1lab.book.style):\n  " + "\n  ".join(problems), out)
            out.l1lab_figure = f"{fn.__module__}.{fn.__qualname__}"
        return out

    checked.book_figure = True
    return checked
