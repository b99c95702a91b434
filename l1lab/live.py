r"""Figures that are redrawn in place, so that a slider move costs a redraw and not a new figure.

A new Matplotlib figure is expensive to show: every axis creates its tick objects again (on log axes, dozens of
them), the constrained layout measures all the text, and ``savefig`` draws twice (a dry run for the layout,
then the real one).  On the book's 2-core machine that is 0.3 s for a two-panel figure before any computing.
The demos therefore keep one figure alive per widget and redraw it:

* a figure function takes ``fig=None``; it gets its axes from :func:`figure_axes`, which makes a new figure
  the first time and, when handed the live figure back, empties its axes (artists, legends, titles, labels,
  scales and limits) and returns the same axes objects, so the tick objects and the cached text metrics are
  reused;
* :class:`LiveFigure` calls the figure function with the figure it returned last time and renders it with one
  draw (:func:`png_bytes`).

The constrained layout measures every text of the figure and costs more than the draw itself, so it reruns only
when something it measures has changed (:func:`layout_signature`: titles, labels, legends, and the tick labels
each axis will show); otherwise the axes stay where the last layout put them.  Returning to earlier arguments
gives, pixel for pixel, the figure drawn fresh with them (``tests/test_live.py`` checks this for every demo of
the book).
"""
from __future__ import annotations

import inspect
import io

import numpy as np
from matplotlib.figure import Figure

__all__ = ["LiveFigure", "clear_axes", "figure_axes", "layout_signature", "png_bytes"]


def png_bytes(fig: Figure, compress_level: int = 1) -> bytes:
    """The PNG of ``fig`` at its own dpi with a single draw (``savefig`` draws twice when a layout engine is
    set).  ``compress_level`` 1 encodes several times faster than the default 6 for a slightly larger file."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from PIL import Image

    canvas = fig.canvas if isinstance(fig.canvas, FigureCanvasAgg) else FigureCanvasAgg(fig)
    canvas.draw()
    buf = io.BytesIO()
    Image.fromarray(np.asarray(canvas.buffer_rgba())).save(buf, format="png", compress_level=compress_level)
    return buf.getvalue()


def clear_axes(ax) -> None:
    """Empty ``ax`` for a redraw while keeping its axis objects (and their ticks): remove every artist and the
    legend, blank the titles and labels, restart the colour cycle, and return scales, limits and autoscaling to their defaults."""
    for artist in list(ax.get_children()):
        if artist in (ax.xaxis, ax.yaxis, ax.patch, ax.title, ax._left_title, ax._right_title) \
                or artist in ax.spines.values() or getattr(ax, "zaxis", None) is artist:
            continue
        if artist is ax.legend_:
            continue
        try:
            artist.remove()
        except (NotImplementedError, ValueError):  # pragma: no cover - artists matplotlib cannot remove
            pass
    if ax.legend_ is not None:
        ax.legend_.remove()
    for loc in ("center", "left", "right"):
        ax.set_title("", loc=loc)
    ax.set_xlabel("")
    ax.set_ylabel("")
    ax.set_prop_cycle(None)  # the next line is C0 again, as on new axes
    if hasattr(ax, "zaxis"):
        ax.set_zlabel("")
        ax.M = None  # the projection of the last draw: anything measured before the next draw would use it
    else:
        ax.set_xscale("linear")
        ax.set_yscale("linear")
        ax.set_aspect("auto")
        ax.set_xmargin(0.05)
        ax.set_ymargin(0.05)
    ax.relim()
    ax.ignore_existing_data_limits = True
    ax.set_autoscale_on(True)
    ax.autoscale_view()


def figure_axes(fig, figsize, build=None, *, key=None, layout="constrained", **subplots_kw):
    """``(fig, axes)`` for a figure function that may redraw in place.

    ``fig`` is None (a new :class:`~matplotlib.figure.Figure` of ``figsize`` with ``layout``) or the figure the
    function returned last time.  The axes come from ``build(fig)`` (any callable returning them), or, without
    ``build``, from ``fig.subplots(**subplots_kw)``.  When ``fig`` was made by the same ``key`` (by default the
    build and the keyword arguments), its axes are cleared with :func:`clear_axes` and returned as they are;
    otherwise the figure is cleared and rebuilt.  Figure-level texts (the suptitle) and legends are removed.
    """
    if key is None:
        key = (getattr(build, "__qualname__", None), repr(sorted(subplots_kw.items())))
    key = (tuple(np.atleast_1d(figsize).tolist()), layout, key)
    if fig is not None and getattr(fig, "_l1lab_key", None) == key:
        for ax in fig.axes:
            clear_axes(ax)
        for artist in list(fig.texts) + list(fig.legends) + list(fig.lines) + list(fig.patches):
            artist.remove()
        if fig._suptitle is not None:
            fig._suptitle.remove()
            fig._suptitle = None
        return fig, fig._l1lab_axes
    if fig is None:
        fig = Figure(figsize=figsize, layout=layout)
    else:
        fig.clear()
        fig.set_size_inches(figsize)
        fig.set_layout_engine(layout)
    axes = build(fig) if build is not None else fig.subplots(**subplots_kw)
    fig._l1lab_key = key
    fig._l1lab_axes = axes
    return fig, axes


class LiveFigure:
    """Calls ``figure_fn(**kw)`` and renders what it returns; a figure function that accepts ``fig`` is handed
    the figure it returned last time, to redraw in place.  :meth:`render` returns PNG bytes for a figure and the
    object itself otherwise (a message, an HTML table)."""

    def __init__(self, figure_fn):
        self.figure_fn = figure_fn
        try:
            self.in_place = "fig" in inspect.signature(figure_fn).parameters
        except (TypeError, ValueError):  # pragma: no cover - builtins without a signature
            self.in_place = False
        self.fig = None

    def __call__(self, **kw):
        if self.in_place and self.fig is not None:
            kw = dict(kw, fig=self.fig)
        out = self.figure_fn(**kw)
        if isinstance(out, Figure):
            if self.in_place:
                self.fig = out
            return out
        return out

    def render(self, **kw):
        out = self(**kw)
        if not isinstance(out, Figure):
            return out
        if not self.in_place:
            return png_bytes(out)
        sig = layout_signature(out)
        engine = out.get_layout_engine()
        if sig is None or sig != self._signature or engine is None or not hasattr(engine, "execute"):
            self._signature = sig
            # the constrained layout refines the positions it starts from: start from a new figure's
            for ax in out.axes:
                spec = ax.get_subplotspec()
                if spec is not None:
                    ax._set_position(spec.get_position(out))
            return png_bytes(out)
        # the texts that size the layout are the same as at the last draw: keep the axes where they are
        out.set_layout_engine("none")
        try:
            return png_bytes(out)
        finally:
            out.set_layout_engine(engine)

    _signature = None


def _axis_signature(axis):
    locs = axis.get_majorticklocs()
    minor = axis.get_minorticklocs()
    return (axis.get_scale(), axis.label.get_text(), axis.get_label_position(), axis.get_ticks_position(),
            tuple(axis.major.formatter.format_ticks(locs)), tuple(axis.minor.formatter.format_ticks(minor)),
            repr(sorted(axis._major_tick_kw.items())), repr(sorted(axis._minor_tick_kw.items())))


def _text_signature(texts):
    return tuple((t.get_text(), t.get_visible(), t.get_fontsize(), tuple(np.asarray(t.get_position(), float)))
                 for t in texts)


def _legend_signature(legend):
    if legend is None:
        return None
    box = legend.get_bbox_to_anchor()
    return (_text_signature(legend.get_texts()), legend.get_title().get_text(), legend._loc,
            tuple(box.bounds) if box is not None else None, legend.get_visible())


def layout_signature(fig):
    """Everything the constrained layout of ``fig`` measures, as a comparable value: the figure's size, every
    title, label, text and legend, and the tick labels each axis will show (formatted, not drawn).  Two states
    with the same signature get the same layout, so a live figure only reruns the layout when it changes.
    None (always rerun) for figures this cannot describe: 3-D axes, colorbars, subfigures."""
    if fig.subfigs:
        return None
    sig = [tuple(fig.get_size_inches()), fig.dpi,
           fig._suptitle.get_text() if fig._suptitle is not None else None,
           fig._supxlabel.get_text() if fig._supxlabel is not None else None,
           fig._supylabel.get_text() if fig._supylabel is not None else None,
           _text_signature(fig.texts), tuple(_legend_signature(lg) for lg in fig.legends)]
    for ax in fig.axes:
        if hasattr(ax, "zaxis") or getattr(ax, "_colorbar", None) is not None or ax.get_label() == "<colorbar>":
            return None
        sig.append((ax.get_visible(), ax.axison, ax.get_title("left"), ax.get_title("center"),
                    ax.get_title("right"), _axis_signature(ax.xaxis), _axis_signature(ax.yaxis),
                    tuple(sp.get_visible() for sp in ax.spines.values()), _text_signature(ax.texts),
                    _legend_signature(ax.legend_), ax.get_aspect(), ax.get_box_aspect()))
    return tuple(sig)
