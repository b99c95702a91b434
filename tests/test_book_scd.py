"""l1lab.book.scd: the widgets build, and their compute functions run at the defaults and the largest settings.

Nothing here is timed: the ranges in SCD_BOUND_LIMITS / CD_COMPARISON_LIMITS are what keeps the widgets fast,
and running the largest settings here keeps them from silently growing.
"""
import matplotlib

matplotlib.use("Agg")
import figure_checks  # noqa: E402
import ipywidgets  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from player_checks import assert_grid_fits  # noqa: E402

from l1lab.book import controls  # noqa: E402
from l1lab.book import scd as W  # noqa: E402
from l1lab.book.static import encode_frame, static_player  # noqa: E402
from l1lab.experiments import SeedRuns  # noqa: E402


def _largest_scd_bound():
    lim = W.SCD_BOUND_LIMITS
    return dict(d=lim["d"][1], m=lim["m"][1], lam=lim["lam"][0], loss="logistic", n_seeds=lim["n_seeds"][1],
                T=max(lim["T"]))


def _largest_cd_comparison():
    lim = W.CD_COMPARISON_LIMITS
    return dict(d=lim["d"][1], m=lim["m"][1], lam=lim["lam"][0], loss="logistic", epochs=lim["epochs"][1],
                density=min(lim["density"]), n_seeds=lim["n_seeds"][1])


def test_scd_bound_figure_defaults():
    fig = W.scd_bound_figure()
    assert isinstance(fig, Figure)
    (ax,) = fig.axes
    assert ax.get_xscale() == "log" and ax.get_yscale() == "log"
    data = W.scd_bound_data()
    assert data.runs.n_seeds == W.SCD_BOUND_DEFAULTS["n_seeds"] >= 10
    # Theorem 1 holds on the demo: the empirical mean gap is below the bound at every checkpoint
    g = data.runs.gap_summary(data.p_star).mean
    assert np.all(g <= data.bound + 1e-12)
    assert np.all(data.ratio() >= 1.0)


def test_scd_bound_data_is_cached():
    assert W.scd_bound_data() is W.scd_bound_data(**W.SCD_BOUND_DEFAULTS)


def test_scd_bound_figure_largest_settings():
    kw = _largest_scd_bound()
    fig = W.scd_bound_figure(**kw)
    assert len(fig.axes) == 1
    data = W.scd_bound_data(**kw)
    assert data.runs.objective.shape[0] == kw["n_seeds"] and data.runs.iteration[-1] == kw["T"]
    assert np.all(data.runs.gap_summary(data.p_star).mean <= data.bound + 1e-12)


def test_scd_bound_demo_widget():
    box = W.scd_bound_demo()
    assert isinstance(box, ipywidgets.VBox)
    assert set(box.controls) == {"d", "m", "lam", "loss", "n_seeds", "T"}
    assert isinstance(box.controls["lam"], ipywidgets.FloatLogSlider)
    assert {k: c.value for k, c in box.controls.items()} == W.SCD_BOUND_LIVE   # the chapter's text says so
    with pytest.raises(ValueError, match="range"):
        W.scd_bound_demo(d=10_000)


@pytest.mark.parametrize("demo,static", [("scd_bound_demo", "SCD_BOUND_STATIC"),
                                          ("cd_comparison_demo", "CD_COMPARISON_STATIC")])
def test_static_grids_fit_the_live_widgets(demo, static):
    """The chapter's players: every listed value is a position of the live widget, its start is offered, the cheap
    controls offer all their positions, and the grid stays within the frame budget."""
    box = getattr(W, demo)(ahead=False)
    assert_grid_fits(box, getattr(W, static)["grid"], frames=(10, 60))


def test_scd_bound_player_draws_the_live_figures():
    """A small grid of demo 1: each frame is the PNG the live widget draws for that setting (palette-encoded)."""
    grid = dict(d=(10,), m=(50,), lam=(3e-2, 3e-4 * 10 ** 2.5), n_seeds=(2,), T=(1_000,))
    small = dict(d=10, m=50, n_seeds=2, T=1_000)
    player = static_player(W.scd_bound_demo(ahead=False, **small), grid, name="t")
    assert player.n_frames == 4 and len({f["sha"] for f in player.frames.values()}) == 4
    box = W.scd_bound_demo(ahead=False, **small)
    setting = dict(d=10, m=50, lam=3e-4 * 10 ** 2.5, loss="squared", n_seeds=2, T=1_000)
    frame = player.frames[player.key(lam=setting["lam"], loss="squared")]
    assert frame["png"] == encode_frame(box.live.render(**setting))
    assert "squared loss" in frame["alt"] and "λ = 9.5e-02" in frame["alt"]


def test_cd_comparison_figure_defaults():
    fig = W.cd_comparison_figure()
    assert len(fig.axes) == 2
    data = W.cd_comparison_data()
    assert set(data.results) == {"SCD", "cyclic CD", "GCD"}
    assert isinstance(data.results["SCD"], SeedRuns)
    # the three algorithms get about the same budget of data accesses
    budgets = [np.max(r.data_accesses) for r in (data.results["SCD"], data.results["cyclic CD"].trace,
                                                  data.results["GCD"].trace)]
    assert max(budgets) / min(budgets) < 1.1


def test_cd_comparison_figure_largest_settings():
    kw = _largest_cd_comparison()
    fig = W.cd_comparison_figure(**kw)
    assert len(fig.axes) == 2
    assert W.cd_comparison_data(**kw).problem.is_sparse


def test_cd_comparison_demo_widget():
    box = W.cd_comparison_demo()
    assert isinstance(box, ipywidgets.VBox)
    assert set(box.controls) == {"d", "m", "lam", "loss", "density", "epochs", "n_seeds"}
    with pytest.raises(ValueError):
        W.cd_comparison_demo(density=0.5)


def _same_runs(a, b):
    """Two SeedRuns with the same numbers (all but the wall-clock seconds), bit for bit."""
    assert a.seeds == b.seeds
    for name in ("iteration", "data_accesses", "objective", "nnz", "w"):
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype and np.array_equal(x, y), name
    assert a.info == b.info


@pytest.mark.parametrize("order", [(1_000, 20_000, 5_000, 2_000, 10_000), (20_000, 1_000), (5_000,)])
def test_extended_scd_runs_are_fresh_runs(order):
    """Each seed's run of demo 1 is extended to the T asked for (the T slider and more seeds cost only what is
    new): the numbers at each T are those of a fresh ``run_seeds(scd, ...)`` of that T, in any order of T."""
    from l1lab.experiments import run_seeds
    from l1lab.solvers import scd

    W._scd_bound_seed.cache_clear()
    W._scd_bound_data.cache_clear()
    kw = dict(d=20, m=60, lam=1e-2, loss="logistic", data_seed=3)
    prob, _, _ = W._problem_reference(20, 60, 1e-2, "logistic", 1.0, 3)
    for T in order:
        for n in (3, 1, 4):
            data = W.scd_bound_data(n_seeds=n, T=T, **kw)
            _same_runs(data.runs, run_seeds(scd, prob, range(n), n_iter=T, n_checkpoints=40))
    # a T that is not a position of the slider: a plain run
    _same_runs(W.scd_bound_data(n_seeds=2, T=1_500, **kw).runs,
               run_seeds(scd, prob, range(2), n_iter=1_500, n_checkpoints=40))
    with pytest.raises(ValueError, match="seed"):
        W.scd_bound_data(n_seeds=0)


def test_scd_bound_seeds_are_a_prefix_and_moves_reuse_the_problem():
    small = W.scd_bound_data(d=20, m=60, n_seeds=2, T=2_000)
    large = W.scd_bound_data(d=20, m=60, n_seeds=5, T=2_000)
    assert small.problem is large.problem and small.p_star == large.p_star
    np.testing.assert_array_equal(large.runs.objective[:2], small.runs.objective)
    np.testing.assert_array_equal(large.runs.w[:2], small.runs.w)


def test_cd_comparison_seeds_are_fresh_runs():
    from l1lab.experiments import run_seeds
    from l1lab.solvers import cyclic_cd, gcd, scd

    kw = dict(d=30, m=80, lam=1e-2, loss="squared", epochs=10, density=0.5, data_seed=1)
    prob, _, _ = W._problem_reference(30, 80, 1e-2, "squared", 0.5, 1)
    for n in (4, 2):
        data = W.cd_comparison_data(n_seeds=n, **kw)
        assert data.problem is prob
        _same_runs(data.results["SCD"], run_seeds(scd, prob, range(n), n_iter=10 * 30, n_checkpoints=40))
        cyc, gr = cyclic_cd(prob, 10 * 30, n_checkpoints=40), gcd(prob, 10, n_checkpoints=30)
        np.testing.assert_array_equal(data.results["cyclic CD"].trace.objective, cyc.trace.objective)
        np.testing.assert_array_equal(data.results["GCD"].trace.objective, gr.trace.objective)
    with pytest.raises(ValueError, match="seed"):
        W.cd_comparison_data(n_seeds=0)


def test_demos_start_from_the_live_settings_and_compute_ahead():
    box = W.cd_comparison_demo(d=30, m=50)
    start = dict(W.CD_COMPARISON_LIVE, d=30, m=50)
    assert {k: c.value for k, c in box.controls.items()} == start
    assert W.CD_COMPARISON_LIVE == dict(W.CD_COMPARISON_DEFAULTS, n_seeds=3)
    info = W._cd_comparison_data.cache_info()
    lim = W.CD_COMPARISON_LIMITS
    for name, values in (("loss", W.LOSSES), ("density", lim["density"]),
                         ("epochs", range(lim["epochs"][0], lim["epochs"][1] + 1, lim["epochs"][2])),
                         ("n_seeds", range(1, lim["n_seeds"][1] + 1))):
        for value in values:   # every position of these controls was computed at first display
            W.cd_comparison_data(**dict(start, **{name: value}))
    assert W._cd_comparison_data.cache_info().misses == info.misses

    box = W.scd_bound_demo(d=20, m=50)
    start = dict(W.SCD_BOUND_LIVE, d=20, m=50)
    assert {k: c.value for k, c in box.controls.items()} == start
    info = W._scd_bound_data.cache_info()
    for name, values in (("loss", W.LOSSES), ("n_seeds", range(2, W.SCD_BOUND_LIMITS["n_seeds"][1] + 1)),
                         ("T", W.SCD_BOUND_LIMITS["T"])):
        for value in values:
            W.scd_bound_data(**dict(start, **{name: value}))
    assert W._scd_bound_data.cache_info().misses == info.misses
    assert {k: c.value for k, c in W.scd_bound_demo(ahead=False).controls.items()} == W.SCD_BOUND_LIVE


def test_make_problem_rejects_unknown_loss():
    with pytest.raises(ValueError, match="loss"):
        W.make_problem(10, 20, 1e-2, loss="hinge")


def test_wire_shows_each_update_as_one_png_and_messages_in_the_output(monkeypatch):
    """A slider move replaces the PNG of the image widget (one draw per move); a figure function that accepts
    ``fig`` gets its own figure back; anything else it returns is displayed in the output area, and the image
    is hidden meanwhile."""
    import IPython.display

    shown = []
    monkeypatch.setattr(IPython.display, "display", lambda obj, **kw: shown.append(obj))
    figs = []

    def figure_fn(a, fig=None):
        if a > 2:
            return "message"
        figs.append(fig)
        fig, ax = W.figure_axes(fig, (2, 1))
        ax.plot([0, a])
        return fig

    box = controls.wire({"a": ipywidgets.IntSlider(value=1, min=0, max=5)}, figure_fn, [["a"]])
    first = box.image.value
    assert first[:8] == b"\x89PNG\r\n\x1a\n" and box.image.layout.display is None
    box.controls["a"].value = 2
    assert box.image.value != first and box.image.value[:4] == b"\x89PNG"
    assert figs[0] is None and figs[1] is box.live.fig  # the second move redrew the first figure
    box.controls["a"].value = 3
    assert shown == ["message"] and box.image.layout.display == "none"
    box.controls["a"].value = 1
    assert box.image.value == first and box.image.layout.display is None
    assert controls.figure_png(figure_fn(1))[:4] == b"\x89PNG"


def test_figures_fit_the_page_and_are_readable():
    """The lecture's figures at the page's width: the bound figure, and the comparison with its two panels
    stacked (side by side they were 10 inches wide)."""
    figure_checks.assert_readable(W.scd_bound_figure(d=10, m=40, n_seeds=2, T=500))
    figure_checks.assert_readable(W.cd_comparison_figure(d=20, m=60, epochs=5, n_seeds=2))
