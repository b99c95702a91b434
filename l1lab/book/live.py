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

The constrained layout measures every text of the figure and costs as much as the draw itself, so it reruns
only when something it measures has changed (:func:`layout_signature`: the sizes of titles, labels, legends and
of the tick labels each axis will show); otherwise the axes stay where the last layout put them, which is where
the layout would put them again.  Arguments drawn before get their axes positions back, so moving a slider and
back shows the same PNG, byte for byte (``tests/test_live.py`` checks this, and the match with a fresh figure,
for every demo of the book).
"""
from __future__ import annotations

import inspect
import io
from functools import lru_cache

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


def clear_axes(ax) -> bool:
    """Empty ``ax`` for a redraw while keeping its axis objects (and their ticks): remove every artist and the
    legend, blank the titles and labels, restart the colour cycle, and return scales, limits and autoscaling to
    their defaults.  Returns False if an artist could not be removed (matplotlib refuses for a few kinds): the
    axes must then be made again."""
    removed = True
    for artist in list(ax.get_children()):
        if artist in (ax.xaxis, ax.yaxis, ax.patch, ax.title, ax._left_title, ax._right_title) \
                or artist in ax.spines.values() or getattr(ax, "zaxis", None) is artist:
            continue
        if artist is ax.legend_:
            continue
        try:
            artist.remove()
        except (NotImplementedError, ValueError):
            removed = False
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
    return removed


def figure_axes(fig, figsize, build=None, *, key=None, layout="constrained", **subplots_kw):
    """``(fig, axes)`` for a figure function that may redraw in place.

    ``fig`` is None (a new :class:`~matplotlib.figure.Figure` of ``figsize`` with ``layout``) or the figure the
    function returned last time.  The axes come from ``build(fig)`` (any callable returning them), or, without
    ``build``, from ``fig.subplots(**subplots_kw)``.  When ``fig`` was made by the same ``key`` (by default the
    build and the keyword arguments), its axes are cleared with :func:`clear_axes` and returned as they are;
    otherwise (or if an axes could not be cleared) the figure is cleared and rebuilt.  Figure-level texts (the
    suptitle) and legends are removed.
    """
    if key is None:
        key = (getattr(build, "__qualname__", None), repr(sorted(subplots_kw.items())))
    key = (tuple(np.atleast_1d(figsize).tolist()), layout, key)
    if fig is not None and getattr(fig, "_l1lab_key", None) == key \
            and all([clear_axes(ax) for ax in fig.axes]):
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
        self._layouts = {}

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
        engine = out.get_layout_engine()
        if not self.in_place or engine is None or not hasattr(engine, "execute"):
            return png_bytes(out)
        key = repr(sorted(kw.items()))
        if key in self._layouts:              # drawn before: the axes go back exactly where they were
            self._place(out, self._layouts[key])
            return self._frozen_png(out, engine, key)
        sig = layout_signature(out)
        if sig is not None and sig == self._signature:
            # everything the layout measures is as at the last draw: keep the axes where they are (and the
            # suptitle, which the figure function made again, where the layout put it)
            self._place(out, self._last)
            return self._frozen_png(out, engine, key)
        self.n_layouts += 1
        for ax in out.axes:                   # the layout refines the positions it starts from: a new figure's
            spec = ax.get_subplotspec()
            if spec is not None:
                ax._set_position(spec.get_position(out))
        png = png_bytes(out)
        self._remember(out, key)
        return png

    def _frozen_png(self, fig, engine, key):
        fig.set_layout_engine("none")
        try:
            png = png_bytes(fig)
        finally:
            fig.set_layout_engine(engine)
        self._remember(fig, key)
        return png

    def _remember(self, fig, key):
        """Keep the axes positions of the frame for ``key`` and what the layout measures at them."""
        self._last = self._layouts[key] = (
            [(ax.get_position(original=True).frozen(), ax.get_position().frozen()) for ax in fig.axes],
            [None if t is None else t.get_position() for t in (fig._suptitle, fig._supxlabel, fig._supylabel)])
        while len(self._layouts) > 256:
            self._layouts.pop(next(iter(self._layouts)))
        self._signature = layout_signature(fig)

    @staticmethod
    def _place(fig, remembered):
        axes, sup = remembered
        for ax, (original, active) in zip(fig.axes, axes):
            ax._set_position(original, which="original")
            ax._set_position(active, which="active")
        for text, xy in zip((fig._suptitle, fig._supxlabel, fig._supylabel), sup):
            if text is not None and xy is not None:
                text.set_position(xy)

    _signature = None
    #: how many renders ran the layout (the others kept the axes where they were)
    n_layouts = 0


@lru_cache(maxsize=4096)
def _label_size(text, prop, dpi):
    """(width, height) in pixels of a tick label, as the renderer lays it out (cached by string and font)."""
    from matplotlib.text import Text

    ismath = Text(text=text)._preprocess_math(text)[1]
    w, h, _ = _renderer(dpi).get_text_width_height_descent(text, prop, ismath=ismath)
    return w, h


@lru_cache(maxsize=8)
def _renderer(dpi):
    from matplotlib.backends.backend_agg import RendererAgg
    return RendererAgg(1, 1, dpi)


def _axis_signature(axis, length=None):
    """What the layout measures of an axis: its scale, label and tick settings and, for the tick labels it will
    show, their largest width and height and how far the first and last stick out past the ends of an axis of
    ``length`` pixels (the axes of a new figure); without ``length``, the label strings themselves."""
    head = (axis.get_scale(), axis.label.get_text(), axis.get_label_position(), axis.get_ticks_position(),
            repr(sorted(axis._major_tick_kw.items())), repr(sorted(axis._minor_tick_kw.items())))
    lo, hi = sorted(axis.get_view_interval())
    labels = []
    for locator, formatter in ((axis.get_major_locator(), axis.major.formatter),
                               (axis.get_minor_locator(), axis.minor.formatter)):
        locs = np.asarray(locator(), float)
        texts = formatter.format_ticks(locs) if locs.size else []
        labels += [(x, t) for x, t in zip(locs, texts) if t and lo - 1e-9 * abs(lo) <= x <= hi + 1e-9 * abs(hi)]
    if length is None:
        return head + (tuple(labels),)
    if not labels:
        return head + (None,)
    tick = axis.get_major_ticks(1)[0].label1
    prop, dpi = tick.get_fontproperties(), axis.get_figure(root=True).dpi
    sizes = np.array([_label_size(t, prop, dpi) for _, t in labels])
    tr = axis.get_transform()
    a, b = tr.transform(np.array([lo, hi], float)) if hasattr(tr, "transform") else (lo, hi)
    pos = (tr.transform(np.array([x for x, _ in labels], float)) - a) / (b - a) * length
    half = sizes[:, 0 if axis.axis_name == "x" else 1] / 2
    over_lo = float(np.max(np.maximum(half - pos, 0.0)))
    over_hi = float(np.max(np.maximum(pos + half - length, 0.0)))
    return head + (float(sizes[:, 0].max()), float(sizes[:, 1].max()), round(over_lo, 6), round(over_hi, 6))


def _axis_label_signature(axis, renderer, length):
    """An axis label is measured across (its height) unless it is nearly as long as its axis."""
    label = axis.label
    if not label.get_text() or not label.get_visible():
        return None
    bb = label.get_window_extent(renderer)
    along, across = (bb.width, bb.height) if axis.axis_name == "x" else (bb.height, bb.width)
    return (across, "fits") if along <= 0.9 * length else (across, along)


def _overhangs_hidden(ax, xsig, ysig, title):
    """Tick labels that stick out past an axis end by less than what the layout measures there anyway (the
    title above, the x tick labels below, the y tick labels left of the axes) change nothing: count them as 0."""
    def measured(sig):
        return len(sig) == 10 and sig[2] == "left" if sig is ysig else len(sig) == 10 and sig[2] == "bottom"

    xs, ys = list(xsig), list(ysig)
    if measured(ysig) and measured(xsig):
        if ys[8] < xs[7]:              # y labels below the axes end: within the x tick labels' height
            ys[8] = 0.0
        if xs[8] < ys[6]:              # x labels left of the axes: within the y tick labels' width
            xs[8] = 0.0
    if measured(ysig) and title is not None and ys[9] < title[0]:
        ys[9] = 0.0                    # y labels above the axes: within the title's height
    return tuple(xs), tuple(ys)


def _axes_text_signature(ax, renderer, room):
    """Texts of an axes placed (in data or axes coordinates) inside it add nothing to the layout: they count as
    "inside"; others by their strings and positions."""
    out = []
    for t in ax.texts:
        if not t.get_visible() or not t.get_text():
            continue
        tr = t.get_transform()
        if tr == ax.transData:
            fx, fy = (ax.transScale + ax.transLimits).transform(np.asarray(t.get_position(), float))
        elif tr == ax.transAxes:
            fx, fy = np.asarray(t.get_position(), float)
        else:
            out.append(_text_signature([t])[0])
            continue
        bb = t.get_window_extent(renderer)
        # in axes fractions, for axes down to 4/5 of a new figure's (the text's size is fixed in pixels)
        w, h = 1.25 * bb.width / room[0], 1.25 * bb.height / room[1]
        x0 = fx - {"left": 0.0, "center": 0.5, "right": 1.0}.get(t.get_ha(), 0.5) * w
        y0 = fy - {"bottom": 0.0, "baseline": 0.0, "center": 0.5, "center_baseline": 0.5, "top": 1.0}.get(
            t.get_va(), 0.5) * h
        if 0.0 <= x0 and x0 + w <= 1.0 and 0.0 <= y0 and y0 + h <= 1.0 and np.isfinite([fx, fy]).all():
            continue
        out.append(_text_signature([t])[0])
    return tuple(out)


def _text_signature(texts):
    return tuple((t.get_text(), t.get_visible(), t.get_fontsize(), tuple(np.asarray(t.get_position(), float)))
                 for t in texts)


def _fits(size, room):
    """``size`` (w, h) fits in ``room`` (w, h) with a tenth to spare on each side."""
    return size[0] <= 0.8 * room[0] and size[1] <= 0.8 * room[1]


def _title_signature(title, renderer, room):
    """A title centred (or aligned) over its axes is measured by the layout for its height only, as long as it
    is narrower than the axes (the layout's first pass starts from ``room``, the axes' width on a new figure)."""
    if not title.get_text() or not title.get_visible():
        return None
    bb = title.get_window_extent(renderer)
    return (bb.height, "fits") if bb.width <= 0.9 * room[0] else (bb.height, bb.width)


def _in_axes_coordinates(legend):
    """Whether the legend's ``bbox_to_anchor`` is given in its axes' coordinates (the default transform)."""
    tr = getattr(legend._bbox_to_anchor, "_transform", None)
    ax = getattr(legend, "axes", None)
    return ax is not None and getattr(tr, "_boxout", None) is ax.bbox


def _legend_signature(legend, renderer=None, room=None):
    """A legend placed inside its axes (no ``bbox_to_anchor``) and well smaller than them adds nothing to the
    layout; otherwise its texts, placement and size count."""
    if legend is None or not legend.get_visible():
        return None
    if renderer is not None:
        bb = legend.get_window_extent(renderer)
        if legend._bbox_to_anchor is None:
            if _fits((bb.width, bb.height), room):
                return ("inside", legend._loc)
        elif _in_axes_coordinates(legend) and bb.width <= 0.9 * room[0]:
            # anchored above or below the axes and narrower than them: its height counts
            return ("anchored", legend._loc, tuple(legend._bbox_to_anchor.bounds), bb.height)
    box = legend.get_bbox_to_anchor()
    return (_text_signature(legend.get_texts()), legend.get_title().get_text(), legend._loc,
            tuple(box.bounds) if box is not None else None)


def layout_signature(fig):
    """What the constrained layout of ``fig`` measures, at the axes' current positions, as a comparable value:
    the figure's size, the suptitle's height, each title's height (and its width when it is nearly as wide as
    its axes), the axis labels, the texts and legends that are not well inside their axes, and, for the tick
    labels each axis will show (formatted and measured, not drawn), their largest width and height and how far
    they stick out past the axis ends.  A live figure whose signature is the same as at its last draw keeps the
    axes where they are: the layout would find (to well under a pixel, ``tests/test_live.py``) the same
    positions.  None (always rerun) for figures this cannot describe: 3-D axes, colorbars, subfigures."""
    if fig.subfigs:
        return None
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = fig.canvas if isinstance(fig.canvas, FigureCanvasAgg) else FigureCanvasAgg(fig)  # as png_bytes draws
    renderer = canvas.get_renderer()
    sup = fig._suptitle
    sig = [tuple(fig.get_size_inches()), fig.dpi,
           # the layout reserves the suptitle's height only
           sup.get_window_extent(renderer).height if sup is not None and renderer is not None else
           (sup.get_text() if sup is not None else None),
           fig._supxlabel.get_text() if fig._supxlabel is not None else None,
           fig._supylabel.get_text() if fig._supylabel is not None else None,
           _text_signature([t for t in fig.texts if t not in (fig._suptitle, fig._supxlabel, fig._supylabel)]),
           tuple(_legend_signature(lg) for lg in fig.legends)]
    for ax in fig.axes:
        if hasattr(ax, "zaxis") or getattr(ax, "_colorbar", None) is not None or ax.get_label() == "<colorbar>":
            return None
        spec = ax.get_subplotspec()
        if renderer is None or spec is None:
            titles = (ax.get_title("left"), ax.get_title("center"), ax.get_title("right"))
            legend = _legend_signature(ax.legend_)
        else:
            room = spec.get_position(fig).transformed(fig.transFigure).size   # pixels, as on a new figure
            titles = tuple(_title_signature(t, renderer, room) for t in (ax._left_title, ax.title, ax._right_title))
            legend = _legend_signature(ax.legend_, renderer, room)
        if renderer is None or spec is None:
            xsig, ysig = _axis_signature(ax.xaxis), _axis_signature(ax.yaxis)
        else:
            xsig, ysig = _overhangs_hidden(ax, _axis_signature(ax.xaxis, room[0]), _axis_signature(ax.yaxis, room[1]),
                                           titles[1])
            xsig = xsig[:1] + (_axis_label_signature(ax.xaxis, renderer, room[0]),) + xsig[2:]
            ysig = ysig[:1] + (_axis_label_signature(ax.yaxis, renderer, room[1]),) + ysig[2:]
        sig.append((ax.get_visible(), ax.axison, titles, xsig, ysig,
                    tuple(sp.get_visible() for sp in ax.spines.values()),
                    _text_signature(ax.texts) if renderer is None or spec is None else
                    _axes_text_signature(ax, renderer, room),
                    legend, ax.get_aspect(), ax.get_box_aspect()))
    return tuple(sig)
