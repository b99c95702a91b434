"""l1lab.book.live and the book's live demos redrawn in place.

For every widget demo of the book: its figure follows the book's style (:func:`l1lab.book.style.style_problems`), a
slider move redraws the widget's one figure (no new figure), the frame it
shows is the figure a fresh call draws for the same values (same axes positions to a pixel, at most 1 % of the
pixels different), and moving the control back shows exactly, byte for byte, the first frame.  The demos are
built with small settings (the chapter notebooks run the default ones).  Nothing is timed here:
``benchmarks/bench_widgets.py`` measures the latency.
"""
import io

import matplotlib

matplotlib.use("Agg")
import ipywidgets  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from PIL import Image  # noqa: E402

from l1lab.book import exponentiated as widgets_exponentiated  # noqa: E402
from l1lab.book import l1_problem as widgets_l1_problem  # noqa: E402
from l1lab.book import live  # noqa: E402
from l1lab.book import lower_bound as widgets_lower_bound  # noqa: E402
from l1lab.book import pgs as widgets_pgs  # noqa: E402
from l1lab.book import projections as widgets_projections  # noqa: E402
from l1lab.book import radar as widgets_radar  # noqa: E402
from l1lab.book import scd as widgets  # noqa: E402
from l1lab.book import smidas as widgets_smidas  # noqa: E402
from l1lab.book.style import style_problems  # noqa: E402


# ---------------------------------------------------------------------------------------------- the module
def _pixels(png):
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGBA"))


def _line_figure(a, log=False, fig=None):
    fig, (ax0, ax1) = live.figure_axes(fig, (4, 2), nrows=1, ncols=2)
    ax0.plot([1, 2, 3], [1, a, a * a])
    ax0.plot([1, 3], [a, 1], ls="--")
    if log:
        ax0.set_yscale("log")
        ax0.legend(["x", "y"])
    ax1.bar([0, 1], [a, 1])
    ax1.set_title(f"a = {a}")
    fig.suptitle("two panels")
    return fig


def test_png_bytes_draws_once_at_the_figure_dpi():
    fig = _line_figure(2.0)
    png = live.png_bytes(fig)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert _pixels(png).shape == (200, 400, 4)


def test_figure_axes_reuses_the_axes_and_clears_them():
    fig = _line_figure(3.0, log=True)
    axes = list(fig.axes)
    again = _line_figure(2.0, fig=fig)
    assert again is fig and list(fig.axes) == axes
    assert len(axes[0].lines) == 2 and len(axes[1].patches) == 2   # nothing left from the first draw
    assert axes[0].get_yscale() == "linear" and axes[0].get_legend() is None
    colors = [matplotlib.colors.to_hex(ln.get_color()) for ln in axes[0].lines]
    assert colors == [matplotlib.colors.to_hex(c) for c in ("C0", "C1")]  # the colour cycle restarted
    assert fig.get_suptitle() == "two panels" and len(fig.texts) == 1
    other = live.figure_axes(fig, (4, 2), nrows=2, ncols=1)[1]          # another shape: rebuilt
    assert len(fig.axes) == 2 and all(ax not in axes for ax in other)


@pytest.mark.parametrize("first,second", [(2.0, 3.0), (2.0, 200.0), (0.5, 0.7)])
@pytest.mark.parametrize("log", [False, True])
def test_live_figure_matches_fresh_figures(first, second, log):
    lf = live.LiveFigure(_line_figure)
    p1 = lf.render(a=first, log=log)
    assert p1 == live.png_bytes(_line_figure(first, log=log))
    p2 = lf.render(a=second, log=log)
    fresh = _line_figure(second, log=log)
    p2_fresh = live.png_bytes(fresh)
    for ax, ax_fresh in zip(lf.fig.axes, fresh.axes):
        np.testing.assert_allclose(ax.get_position().bounds, ax_fresh.get_position().bounds, atol=1 / 400)
    assert (_pixels(p2) != _pixels(p2_fresh)).any(axis=2).mean() <= 0.01
    assert lf.render(a=first, log=log) == p1


def test_layout_signature_sees_the_texts_the_layout_measures():
    fig = _line_figure(2.0)
    s = live.layout_signature(fig)
    assert s == live.layout_signature(_line_figure(2.0, fig=fig))
    assert s != live.layout_signature(_line_figure(2000.0, fig=fig))     # other tick labels and title
    fig3d = Figure()
    fig3d.add_subplot(projection="3d")
    assert live.layout_signature(fig3d) is None


# ---------------------------------------------------------------------------------------------- every demo
def _next_value(ctrl):
    """The value one step further (or back at the top), as a reader moves ``ctrl``."""
    if isinstance(ctrl, (ipywidgets.SelectionSlider, ipywidgets.Dropdown, ipywidgets.ToggleButtons,
                         ipywidgets.RadioButtons)):
        opts = [o[1] if isinstance(o, tuple) else o for o in ctrl.options]
        i = opts.index(ctrl.value)
        return opts[(i + 1) % len(opts)]
    if isinstance(ctrl, ipywidgets.FloatLogSlider):
        e = np.log10(ctrl.value) + ctrl.step
        return 10 ** (e if e <= ctrl.max + 1e-12 else np.log10(ctrl.value) - ctrl.step)
    if isinstance(ctrl, (ipywidgets.IntSlider, ipywidgets.FloatSlider)):
        v = ctrl.value + ctrl.step
        return v if v <= ctrl.max else ctrl.value - ctrl.step
    if isinstance(ctrl, ipywidgets.Checkbox):
        return not ctrl.value
    raise TypeError(f"no next value for {type(ctrl).__name__}")


DEMOS = {
    "l1_path": widgets_l1_problem.path_demo,
    "scd_bound": lambda: widgets.scd_bound_demo(n_seeds=2, T=1_000),
    "cd_comparison": lambda: widgets.cd_comparison_demo(n_seeds=1, epochs=10),
    "link": widgets_smidas.link_demo,
    "smidas_bound": lambda: widgets_smidas.smidas_bound_demo(n_seeds=2),
    "magic_comparison": lambda: widgets_smidas.magic_comparison_demo(kinds="sparse", T=5_000, n_seeds=1),
    "prop4": lambda: widgets_smidas.prop4_demo(T=5_000, n_seeds=2),
    "geometry": widgets_projections.geometry_demo,
    "timing": lambda: widgets_projections.timing_demo(max_n=10_000, k=10),
    "synthetic": lambda: widgets_projections.synthetic_demo(n=200, passes=20),
    "eg_vs_pg": widgets_projections.eg_vs_pg_demo,
    "scaling": lambda: widgets_exponentiated.scaling_demo(d_max=100, n_seeds=1),
    "regret": widgets_exponentiated.regret_demo,
    "averaging": widgets_exponentiated.averaging_demo,
    "lb_frontier": widgets_lower_bound.frontier_demo,
    "lb_steps": widgets_lower_bound.steps_demo,
    "pgs_inverse": lambda: widgets_pgs.inverse_demo(n_max=10, n_runs=5),
    "pgs_bounds": lambda: widgets_pgs.bounds_demo(n_seeds=5),
    "radar_fig1a": lambda: widgets_radar.figure1a_demo(d=100, T=2_000, n_trials=1),
    "radar_fig1b": lambda: widgets_radar.figure1b_demo(d=100, T=2_000, n_trials=1),
    "radar_weak": lambda: widgets_radar.weak_sparsity_demo(d=200, T=5_000, n_trials=1, highlight=0.5),
}
#: the control each demo moves (the first one that changes the data, and one that only changes the drawing)
MOVES = {
    "l1_path": ["frac", "loss"], "scd_bound": ["lam"], "cd_comparison": ["loss"], "link": ["p", "theta1"],
    "smidas_bound": ["eta_mult"],
    "magic_comparison": ["lam"], "prop4": ["K"], "geometry": ["z", "v1"], "timing": None, "synthetic": None,
    "eg_vs_pg": None, "scaling": None, "regret": None, "averaging": None, "lb_frontier": None, "lb_steps": None,
    "pgs_inverse": ["target", "n_runs"], "pgs_bounds": ["sigma", "delta"], "radar_fig1a": None, "radar_fig1b": None,
    "radar_weak": None,
}
# Not built here because their first display runs PGS for 10-40 s (the chapter builds them): the PGS text, fixed-σ
# and k demos, whose in-place redraws are tested in tests/test_book_pgs.py; and the experiments demo, which
# needs the stand-in data sets (tests/test_book_experiments.py).


@pytest.mark.parametrize("name", sorted(DEMOS))
def test_demo_redraws_its_figure_in_place(name):
    box = DEMOS[name]()
    assert box.live.in_place, f"{name}: its figure function does not take fig= (a new figure at every move)"
    first, fig = box.image.value, box.live.fig
    assert isinstance(fig, Figure) and first[:4] == b"\x89PNG"
    assert style_problems(fig) == [], f"{name}: the book's figure style (l1lab.book.style)"
    moves = MOVES[name] or list(box.controls)[:1]
    for cname in moves:
        ctrl = box.controls[cname]
        start = ctrl.value
        ctrl.value = _next_value(ctrl)
        assert box.live.fig is fig, f"{name}: moving {cname} made a new figure"
        values = {k: c.value for k, c in box.controls.items()}
        fresh = box.live.figure_fn(**values)
        assert isinstance(fresh, Figure)
        shown, drawn = _pixels(box.image.value), _pixels(live.png_bytes(fresh))
        assert shown.shape == drawn.shape
        w, h = fresh.get_size_inches() * fresh.dpi
        for ax, ax_fresh in zip(fig.axes, fresh.axes):
            np.testing.assert_allclose(ax.get_position().bounds, ax_fresh.get_position().bounds,
                                       atol=1.0 / min(w, h), err_msg=f"{name}: {cname}")
        assert (shown != drawn).any(axis=2).mean() <= 0.01, f"{name}: moving {cname}"
        ctrl.value = start
        assert box.image.value == first, f"{name}: moving {cname} and back changed the figure"


def test_axes_that_cannot_be_cleared_are_made_again():
    class Stuck(matplotlib.lines.Line2D):
        def remove(self):
            raise NotImplementedError("cannot remove artist")

    fig = _line_figure(2.0)
    old = list(fig.axes)
    fig.axes[0].add_line(Stuck([0, 1], [0, 1]))
    assert not live.clear_axes(fig.axes[0]) and live.clear_axes(fig.axes[1])
    again = _line_figure(3.0, fig=fig)
    assert again is fig and all(ax not in old for ax in fig.axes) and len(fig.axes) == 2
    assert not any(isinstance(ln, Stuck) for ax in fig.axes for ln in ax.lines)
