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

__all__ = ["ALGORITHM_COLORS", "BAND_ALPHA", "BOUND", "FLOOR", "MEAN_LW", "algorithm_color", "shade",
           "style_problems"]

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
}

#: a theorem's bound drawn over measured curves
BOUND = dict(color="k", ls="--", lw=1.5)
#: the plotting floor under which values are drawn (see ``l1lab.book.plotting``)
FLOOR = dict(color="0.45", ls=":", lw=1)
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


def style_problems(fig) -> list[str]:
    """The lines of ``fig`` that break the book's conventions, as messages (empty if none): a line labelled
    with an algorithm's name in another colour than :data:`ALGORITHM_COLORS` gives it (or a :func:`shade` of
    it), or a line labelled as a
    theorem, lemma, corollary, proposition or bound drawn solid."""
    problems = []
    for ax in fig.axes:
        for line in ax.get_lines():
            label = line.get_label()
            if not label or label.startswith("_"):
                continue
            name = _algorithm_of(label)
            if name is not None and not _is_shade(line.get_color(), ALGORITHM_COLORS[name]):
                problems.append(f"{label!r}: colour {to_hex(line.get_color())}, the book's {name} is "
                                f"{to_hex(ALGORITHM_COLORS[name])}")
            if _THEORY.match(label) and line.get_linestyle() in ("-", "solid") and line.get_linewidth() > 0 \
                    and line.get_marker() in (None, "None", "", " "):
                problems.append(f"{label!r}: a theoretical curve drawn solid (the book draws theory dashed)")
    return problems
