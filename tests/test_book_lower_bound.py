"""l1lab.book.lower_bound: the figures at their defaults and at the largest widget settings, the widgets, the
static players' grids, and the range checks.  Nothing here is timed: FRONTIER_LIMITS / STEPS_LIMITS keep the demos
fast, and running the largest settings here keeps them from silently growing."""
import io

import matplotlib

matplotlib.use("Agg")
import figure_checks  # noqa: E402
import ipywidgets  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from l1lab.book import lower_bound as W  # noqa: E402
from l1lab.book.static import plan, static_player  # noqa: E402
from l1lab.theory import shalev_shwartz_tewari as sst  # noqa: E402


def _render(fig):
    """Draw the figure (labels with mathtext only fail when drawn)."""
    fig.savefig(io.BytesIO(), format="png", dpi=30)
    return fig


def test_frontier_figure_defaults():
    fig = _render(W.frontier_figure())
    assert isinstance(fig, Figure)
    (ax,) = fig.axes
    assert ax.get_xscale() == "log" and ax.get_yscale() == "log"
    assert ax.get_xlim() == (1, 300)                      # s_range (1, 800) clipped to d = 300
    data = W.frontier_data()
    assert data.instance.d == 300 and data.found["SCD"].shape == (W.FRONTIER_DEFAULTS["n_seeds"], 300)
    assert np.allclose(data.greedy, data.exact, atol=1e-12)
    assert np.allclose(data.exact, sst.lemma5_frontier(data.s, 2, 300))
    # every method's best s-sparse point is on or above the exact frontier
    for best in data.found.values():
        assert np.all(best >= data.exact - 1e-12)
    assert data.proof_limit == 25.0 and data.printed_range == 274
    assert W.frontier_data() is W.frontier_data(B=2, n_seeds=10)


def test_frontier_figure_population_curve_is_an_excess_over_R_w0():
    """Demo 1's dotted curve is the proof's population inequality, an excess over R(w0) = (B^2 - 1)/d (w0 = (B/d) 1),
    drawn on the figure's axis R(w) - R*: min{0.24, B^2/(8s)} + (B^2 - 1)/d - (B^2 - 1)/(d + B^2 - 1), computed here
    from the paper's formulas.  Read against R* instead (no shift), it would cross the frontier at s = 248, not 246."""
    data = W.frontier_data()
    B, d, k = 2, 300, 3.0
    s = np.arange(1, d + 1)
    expected = np.minimum(0.24, B * B / (8.0 * s)) + k / d - k / (d + k)
    assert np.allclose(data.population, expected, rtol=1e-13, atol=0)
    # the dotted curve stays below the exact frontier exactly up to the glued range, 246 for B = 2
    below = data.population <= data.exact
    assert np.all(below[s <= 246]) and not below[246]
    n = W.lecture_numbers()
    assert (n["population-range2"], n["population-range3"]) == (246, 678)


def test_frontier_figure_largest_settings():
    lim = W.FRONTIER_LIMITS
    fig = _render(W.frontier_figure(B=max(lim["B"]), s_range=(lim["s"][0], lim["s"][1]), n_seeds=lim["n_seeds"][1]))
    (ax,) = fig.axes
    assert ax.get_xlim() == (1, 800)
    data = W.frontier_data(B=3, n_seeds=lim["n_seeds"][1])
    assert data.found["SCD"].shape == (20, 800)
    narrow = _render(W.frontier_figure(B=3, s_range=(10, 50)))
    assert narrow.axes[0].get_xlim() == (10, 50)
    # less than a decade of s: plain labelled ticks (the log locator would label none)
    assert [t.get_text() for t in narrow.axes[0].get_xticklabels() if t.get_text()] == ["10", "20", "30", "40", "50"]
    with pytest.raises(ValueError, match="s range"):
        W.frontier_figure(B=2, s_range=(400, 800))      # nothing left after clipping to d = 300


def test_steps_figure_defaults():
    fig = _render(W.steps_figure())
    assert isinstance(fig, Figure) and len(fig.axes) == 2
    assert all(ax.get_xscale() == "log" and ax.get_yscale() == "log" for ax in fig.axes)
    data = W.steps_data()
    assert set(data.steps) == {"SCD", "cyclic CD", "GCD"}
    lo, hi = data.steps["SCD"]
    assert lo.shape == hi.shape == (W.STEPS_DEFAULTS["n_seeds"], data.eps.size)
    assert np.all(lo[~np.isnan(lo)] <= hi[~np.isnan(hi)])
    # Lemma 5 on the demo's runs: never fewer steps than the exact least number
    for name in data.steps:
        low = np.atleast_2d(data.steps[name][0])
        ok = ~np.isnan(low)
        assert np.all(low[ok] >= np.broadcast_to(data.s_min, low.shape)[ok])
    assert 0.0 < data.failure_accuracy < 1e-3
    assert W.steps_data() is W.steps_data(B=2, n_seeds=10)


def test_steps_figure_largest_settings():
    lim = W.STEPS_LIMITS
    for eps in lim["eps"]:
        fig = _render(W.steps_figure(B=max(lim["B"]), eps=eps, n_seeds=lim["n_seeds"][1]))
        assert len(fig.axes) == 2
    data = W.steps_data(B=3, n_seeds=20)
    assert data.steps["SCD"][0].shape[0] == 20 and data.instance.d == 800
    assert np.all(np.isfinite(data.median_steps("GCD")))       # GCD reaches every eps of the grid in 3 d steps


@pytest.mark.parametrize("demo,static", [("frontier_demo", "FRONTIER_STATIC"), ("steps_demo", "STEPS_STATIC")])
def test_static_grids_fit_the_live_widgets(demo, static):
    """The chapter's players: every listed value is a position of the live widget, its start is offered, B offers
    both values, and the grid stays within the frame budget."""
    grid = getattr(W, static)["grid"]
    assert W.STEPS_DEFAULTS["n_seeds"] in grid["n_seeds"] and W.FRONTIER_DEFAULTS["n_seeds"] == 10
    box = getattr(W, demo)(n_seeds=3)                          # a small widget: its own start for the seeds
    specs = plan(box, dict(grid, n_seeds=(3,)))
    for spec in specs:
        assert spec.values[spec.default] == box.controls[spec.name].value
    assert specs[0].name == "B" and specs[0].values == tuple(W.lb.EXACT_B)
    assert 8 <= np.prod([len(s.values) for s in specs]) * len(grid["n_seeds"]) <= 40


def test_frontier_ranges_keep_two_values_of_s_for_every_B():
    for lo, hi in W.FRONTIER_STATIC["grid"]["s_range"]:
        for B in W.lb.EXACT_B:
            assert lo < min(hi, W.instance(B).d)


def test_steps_player_frames_mark_grid_points():
    """Each eps of the player is a point of EPS_GRID (the frame's dots sit at its eps), and a small player draws
    one distinct frame per setting with the frame's eps in its alternative text."""
    for e in W.STEPS_STATIC["grid"]["eps"]:
        assert np.min(np.abs(np.log10(W.EPS_GRID / e))) < 1e-9
    player = static_player(W.steps_demo(n_seeds=3), dict(eps=(1e-2,), n_seeds=(3,)), name="t")
    assert player.n_frames == 2 and len({f["sha"] for f in player.frames.values()}) == 2
    assert "B = 3, ε = 1.0e-02" in player.frames[player.key(B=3)]["alt"]
    assert 'data-l1lab-player="t"' in player.html()


def test_widgets_build_and_check_their_ranges():
    box = W.frontier_demo()
    assert isinstance(box, ipywidgets.VBox)
    assert set(box.controls) == {"B", "s_range", "n_seeds"}
    assert box.controls["s_range"].value == W.FRONTIER_DEFAULTS["s_range"]
    box = W.steps_demo()
    assert set(box.controls) == {"B", "eps", "n_seeds"}
    assert isinstance(box.controls["eps"], ipywidgets.FloatLogSlider)
    with pytest.raises(ValueError, match="range"):
        W.frontier_demo(n_seeds=50)
    with pytest.raises(ValueError, match="range"):
        W.frontier_demo(s_range=(0, 10))
    with pytest.raises(ValueError, match="increasing"):
        W.frontier_demo(s_range=(50, 10))
    with pytest.raises(ValueError, match="B must be one of"):
        W.frontier_demo(B=4)
    with pytest.raises(ValueError, match="range"):
        W.steps_demo(eps=0.5)
    with pytest.raises(ValueError, match="range"):
        W.steps_figure(eps=1e-6)
    with pytest.raises(ValueError, match="B must be one of"):
        W.steps_data(B=2.5)


def test_widgets_compute_both_B_ahead_and_redraw_in_place():
    W.frontier_demo(n_seeds=3)
    W.steps_demo(n_seeds=3)
    misses = (W._frontier_data.cache_info().misses, W._steps_data.cache_info().misses)
    for B in (2, 3):
        W.frontier_data(B, 3)
        W.steps_data(B, 3)
    assert (W._frontier_data.cache_info().misses, W._steps_data.cache_info().misses) == misses
    fig = W.steps_figure(n_seeds=3)
    axes = list(fig.axes)
    assert W.steps_figure(n_seeds=3, eps=0.001, fig=fig) is fig and list(fig.axes) == axes
    fig = W.frontier_figure(n_seeds=3)
    assert W.frontier_figure(n_seeds=3, s_range=(10, 100), fig=fig) is fig and fig.axes[0].get_xlim() == (10, 100)


def test_lecture_numbers_are_the_computed_values():
    """The numbers the lecture glues, against values computed here from the closed forms."""
    n = W.lecture_numbers()
    assert all(type(v) in (int, float) for v in n.values())          # plain Python numbers: glue shows them
    assert (n["d2"], n["m2"], n["m2-half"], n["d3"], n["m3"], n["m3-half"]) == (300, 2048, 1024, 800, 4374, 2187)

    def exact(s, B=2, d=300):
        k = B * B - 1.0
        return k * (d - s) / ((s + k) * (d + k))

    ratio = {s: exact(s) / min(0.12, 4 / (16 * s)) for s in range(1, 101)}
    assert (n["ratio-min-s"], n["ratio-max-s"]) == (min(ratio, key=ratio.get), max(ratio, key=ratio.get)) == (2, 27)
    assert n["ratio-min"] == pytest.approx(ratio[2], rel=1e-12) and n["ratio-max"] == pytest.approx(ratio[27])
    # for eps -> 0: 16(B^2 - 1)/B^2 = 12 and 8(B^2 - 1)/B^2 = 6 at B = 2
    assert n["ratio-limit16"] == pytest.approx(12.0, rel=1e-5) and n["ratio-limit8"] == pytest.approx(6.0, rel=1e-6)
    assert (n["printed-range2"], n["printed-range3"], n["proof-limit2"], n["proof-limit3"]) == (274, 742, 25.0, 87.5)
    assert (n["smin-001"], n["printed-001"]) == (148, 25.0)
    # GCD beats the printed bound only where the printed bound is false, and never beats the exact minimum
    assert n["gcd-beats"] < n["failure2"] and n["gcd-a"] < n["printed-a"] and n["gcd-a"] >= n["smin-a"]
    # the greedy path is on the frontier; one gradient step solves the problem
    assert n["greedy-err"] < 1e-12 and n["grad-step-excess"] < 1e-12
    assert n["mu-max"] == pytest.approx(1 - 1 / 4 + 300 / 4)
    # the sampling argument on the construction: the exact expected excess against a Monte Carlo estimate
    w = np.full(300, 2 / 303)
    rng = np.random.default_rng(0)
    draws = [np.bincount(rng.integers(0, 300, size=25), minlength=300) * w.sum() / 25 for _ in range(4000)]
    excess = np.array([0.75 * v @ v + (1 - v.sum() / 2) ** 2 - 3 / 303 for v in draws])
    assert abs(excess.mean() - n["maurey-25"]) < 4 * excess.std() / np.sqrt(excess.size)
    assert n["frontier-25"] == pytest.approx(exact(25)) and n["maurey-25"] < 4 / 25


def test_figures_fit_the_page_and_are_readable():
    """Demo 1 and Demo 2 as the lecture draws them, at the page's width."""
    figure_checks.assert_readable(W.frontier_figure(B=2, n_seeds=2))
    figure_checks.assert_readable(W.steps_figure(B=2, eps=0.01, n_seeds=2))
