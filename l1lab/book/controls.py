r"""The controls of the live demos, shared by every chapter module of the book layer.

* :func:`wire` lays out ipywidgets controls above one figure and redraws it in place when a control moves
  (:class:`l1lab.book.live.LiveFigure`: one figure per widget, one draw per move);
* :func:`int_slider` and :func:`log_slider` build the sliders every demo uses (they redraw on release);
* :func:`check_range` and :func:`check_choice` refuse a demo argument outside the range its widget offers, with a
  message that says the range.

ipywidgets is imported inside the functions that build widgets, so a static page (or a test) can call the data
and figure functions of a chapter module without it.
"""
from __future__ import annotations

import warnings

import numpy as np
from matplotlib.figure import Figure

from .live import LiveFigure, png_bytes
from .style import FigureStyleError

__all__ = ["check_choice", "check_range", "figure_png", "int_slider", "log_slider", "wire"]


def check_range(name, value, limits):
    lo, hi = limits[name][0], limits[name][1]
    if not (lo <= value <= hi):
        raise ValueError(f"{name}={value} is outside the demo's range [{lo}, {hi}] (chosen to answer in seconds)")


def check_choice(name, value, options):
    if value not in options:
        raise ValueError(f"{name} must be one of {tuple(options)}, got {value!r}")


def figure_png(fig: Figure) -> bytes:
    """The PNG bytes of ``fig`` at its own dpi (one draw; :func:`l1lab.book.live.png_bytes`)."""
    return png_bytes(fig)


def wire(controls, figure_fn, rows):
    """Redraw ``figure_fn(**values)`` whenever one of the ``controls`` (a dict of ipywidgets) changes, and lay
    the controls out in ``rows`` (lists of their names) above the figure.

    A figure is shown in an ``ipywidgets.Image`` whose PNG is replaced at each move; when ``figure_fn`` accepts
    ``fig``, it is handed the figure it returned last time and redraws it in place (:class:`l1lab.book.live.LiveFigure`:
    no new figure, axes or tick objects per move, one draw).  Anything else the function returns (a message) and
    any error are shown in an output area below.  Returns the VBox, with the controls attached as
    ``.controls`` and the live figure as ``.live`` (for tests and for the reader who wants to set them from
    code)."""
    import ipywidgets as widgets
    from IPython.display import display

    live = LiveFigure(figure_fn)
    image = widgets.Image(format="png", layout=widgets.Layout(display="none", max_width="100%"))
    out = widgets.Output()

    def update(change=None):
        out.clear_output(wait=True)
        with out:  # an exception is shown here, as interactive_output would show it
            kw = {name: c.value for name, c in controls.items()}
            try:
                result = live.render(**kw)
            except FigureStyleError as err:   # a setting the build never drew: show the figure, say what is wrong
                if live.in_place:
                    live.fig = err.figure
                result = png_bytes(err.figure)
                warnings.warn(str(err), stacklevel=1)
            if isinstance(result, bytes):
                image.value = result
                image.layout.display = None
            else:
                image.layout.display = "none"
                display(result)

    for c in controls.values():
        c.observe(update, names="value")
    update()
    box = widgets.VBox([widgets.HBox([controls[k] for k in row]) for row in rows] + [image, out])
    box.controls = controls
    box.live = live
    box.image = image
    box.update = update
    return box


def int_slider(widgets, name, values, limits):
    lo, hi, step = limits[name]
    return widgets.IntSlider(value=values[name], min=lo, max=hi, step=step, description=name,
                             continuous_update=False)


def log_slider(widgets, value, lo, hi, description, step=0.25, readout_format=".1e"):
    """A base-10 log slider from lo to hi (``step`` in decades) that redraws on release."""
    return widgets.FloatLogSlider(value=value, base=10, min=np.log10(lo), max=np.log10(hi), step=step,
                                  description=description, continuous_update=False, readout_format=readout_format)
