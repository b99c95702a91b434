"""l1lab.book.smidas: the figures of the SMIDAS chapter at their defaults and at the widgets' largest settings,
the widgets' construction, and their range checks.

Nothing is timed here: the ranges in *_LIMITS keep the widgets fast, and running the largest settings keeps them
from silently growing.  The mathematical checks are the ones the chapter states: Theorem 3 holds for SMIDAS on
the demo, Proposition 4's bound holds, and SGD is dense while truncation is not.
"""
import matplotlib

matplotlib.use("Agg")
import ipywidgets  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from player_checks import assert_grid_fits  # noqa: E402

from l1lab.book import smidas as W  # noqa: E402
from l1lab.book.static import encode_frame, static_player  # noqa: E402
from l1lab.experiments import SeedRuns  # noqa: E402


def _largest_bound():
    lim = W.SMIDAS_BOUND_LIMITS
    return dict(eta_mult=lim["eta_mult"][1], case="14", kind="dense", lam=lim["lam"][0], T=max(lim["T"]),
                n_seeds=lim["n_seeds"][1])


def _largest_magic():
    lim = W.MAGIC_COMPARISON_LIMITS
    return dict(lam=lim["lam"][0], T=max(lim["T"]), n_seeds=lim["n_seeds"][1])


# ---------------------------------------------------------------------------------------------- sparsity
def test_sparsity_figure_defaults():
    fig = W.sparsity_figure()
    assert isinstance(fig, Figure) and len(fig.axes) == 2
    data = W.sparsity_data()
    d = data.problem.d
    nnz = {name: np.count_nonzero(r.w) for name, r in data.results.items()}
    assert nnz["SGD"] == d                       # sub-gradient SGD is dense
    assert nnz["TruncGrad"] < d / 2 and nnz["SMIDAS"] < d / 2
    with pytest.raises(ValueError, match="kind"):
        W.sparsity_data(kind="medium")
    with pytest.raises(ValueError, match="eta"):
        W.sparsity_data(eta=0.0)


# ---------------------------------------------------------------------------------------------- link
@pytest.mark.parametrize("kw", [{}, dict(p=40.0, theta1=-1.0, theta2=1.0), dict(p=2.0, theta1=0.0, theta2=0.5)])
def test_link_figure(kw):
    fig = W.link_figure(**kw)
    assert len(fig.axes) == 2
    assert fig.axes[1].get_xscale() == "log"


def test_link_figure_out_of_range():
    with pytest.raises(ValueError, match="range"):
        W.link_figure(p=1.5)
    with pytest.raises(ValueError, match="range"):
        W.link_figure(theta1=2.0)


def test_link_demo_widget():
    box = W.link_demo()
    assert isinstance(box, ipywidgets.VBox)
    assert set(box.controls) == {"p", "theta1", "theta2"}
    assert box.controls["p"].value == pytest.approx(2 * np.log(310))
    with pytest.raises(ValueError, match="range"):
        W.link_demo(p=100.0)


# ---------------------------------------------------------------------------------------------- demo 1
def test_smidas_bound_defaults_theorem3_holds():
    fig = W.smidas_bound_figure()
    assert len(fig.axes) == 3
    assert fig.axes[0].get_xscale() == "log" and fig.axes[0].get_yscale() == "log"
    data = W.smidas_bound_data()
    assert set(data.runs) == {"SMIDAS", "TruncGrad", "SGD", "SCD"}
    assert all(isinstance(r, SeedRuns) for r in data.runs.values())
    assert data.runs["SMIDAS"].n_seeds == W.SMIDAS_BOUND_DEFAULTS["n_seeds"] >= 10
    assert data.eta == data.eta_prescribed
    # Theorem 3, case (13): the empirical mean of P(w_o) - P* is below the bound at every checkpoint
    assert np.all(data.ratio() >= 1.0)
    assert W.smidas_bound_data() is data          # cached


def test_smidas_bound_largest_settings():
    kw = _largest_bound()
    fig = W.smidas_bound_figure(**kw)
    assert len(fig.axes) == 3
    data = W.smidas_bound_data(**kw)
    assert data.runs["SMIDAS"].n_seeds == kw["n_seeds"] and data.runs["SMIDAS"].iteration[-1] == kw["T"]
    # 10**1.5 times Lemma 7's step size leaves (0, 1/a): the case-(14) bound is void (infinite), not negative
    assert np.all(np.isinf(data.bound))


def test_smidas_bound_errors_and_widget():
    with pytest.raises(ValueError, match="case"):
        W.smidas_bound_data(case="15")
    with pytest.raises(ValueError, match="eta_mult"):
        W.smidas_bound_data(eta_mult=-1.0)
    box = W.smidas_bound_demo()
    assert isinstance(box, ipywidgets.VBox)
    assert set(box.controls) == {"eta_mult", "case", "kind", "lam", "T", "n_seeds"}
    with pytest.raises(ValueError, match="range"):
        W.smidas_bound_demo(eta_mult=100.0)
    with pytest.raises(ValueError, match="range"):
        W.smidas_bound_demo(n_seeds=50)
    with pytest.raises(ValueError, match="T"):
        W.smidas_bound_demo(T=123)


@pytest.mark.parametrize("demo,static", [("link_demo", "LINK_STATIC"), ("smidas_bound_demo", "SMIDAS_BOUND_STATIC"),
                                          ("magic_comparison_demo", "MAGIC_COMPARISON_STATIC"),
                                          ("prop4_demo", "PROP4_STATIC")])
def test_static_grids_fit_the_live_widgets(demo, static):
    """The chapters' players: every listed value is a position of the live widget, its start is offered, the cheap
    controls offer all their positions, and the grid stays within the frame budget."""
    grid = getattr(W, static)["grid"]
    box = W.link_demo() if demo == "link_demo" else getattr(W, demo)(ahead=False)
    assert_grid_fits(box, grid, frames=(10, 40))


def test_smidas_bound_player_draws_the_live_figures():
    """A small grid of demo 1 (both loss conditions): each frame is the PNG the live widget draws for that setting."""
    small = dict(T=1_000, n_seeds=2)
    grid = dict(eta_mult=(1.0,), kind=("sparse",), lam=(0.05,), T=(1_000,), n_seeds=(2,))
    box = W.smidas_bound_demo(ahead=False, **small)
    player = static_player(box, grid, name="t")
    assert player.n_frames == 2 and len({f["sha"] for f in player.frames.values()}) == 2
    frame = player.frames[player.key(case="14")]
    assert frame["png"] == encode_frame(box.live.render(**dict(W.SMIDAS_BOUND_LIVE, case="14", **small)))
    assert "self-bounded" in frame["alt"]


def test_link_player():
    """The link player with a two-frame grid: the frames differ, and the page carries the manifest and the script."""
    player = W.link_player(grid=dict(p=(2.0, W.smidas_p(310)), theta1=(1.0,), theta2=(0.6,)), name="t")
    assert player.n_frames == 2 and len({f["sha"] for f in player.frames.values()}) == 2
    assert [c.name for c in player.controls] == ["p", "theta1", "theta2"]
    assert player.controls[0].labels[player.controls[0].default] == "11.47"
    html = player.html()
    assert 'class="l1lab-player-data"' in html and '"name":"t"' in html
    assert html.count("data:image/png;base64") == 3      # the two frames of the manifest, and the first one shown


# ---------------------------------------------------------------------------------------------- demo 2
def test_magic_comparison_defaults_sparse():
    data = W.magic_comparison_data("sparse")
    assert set(data.eta) == {"SMIDAS", "TruncGrad"}
    for name, rows in data.tuning.items():
        assert [r[0] for r in rows] == list(W.ETA_GRID)
        assert data.eta[name] == min(rows, key=lambda r: r[1])[0]
    assert 0.3 < data.bound_ratio < 3.0           # sparse examples: bounds (3) and (4) about even
    assert data.effective_nnz("SMIDAS") <= data.runs["SMIDAS"].nnz[:, -1].mean()


def test_magic_comparison_largest_settings():
    kw = _largest_magic()
    fig = W.magic_comparison_figure(kinds=("dense",), **kw)
    assert len(fig.axes) == 2
    data = W.magic_comparison_data("dense", **kw)
    assert data.bound_ratio > 5.0                 # dense examples: bound (3) (SMIDAS) much smaller
    assert data.runs["SMIDAS"].n_seeds == kw["n_seeds"]


def test_magic_comparison_widget_and_errors():
    # constructing it draws once (and, with ahead=True, computes both kinds at every T): keep it small
    box = W.magic_comparison_demo(kinds="sparse", T=5_000, n_seeds=1, ahead=False)
    assert set(box.controls) == {"kinds", "lam", "T", "n_seeds"}
    assert box.controls["kinds"].value == "sparse"
    with pytest.raises(ValueError, match="range"):
        W.magic_comparison_demo(n_seeds=10)
    with pytest.raises(ValueError, match="kind"):
        W.magic_comparison_figure(kinds=("medium",))
    with pytest.raises(ValueError, match="grid"):
        W.magic_comparison_data(grid=())


# ---------------------------------------------------------------------------------------------- Prop. 4
def test_prop4_defaults_bound_holds():
    fig = W.prop4_figure()
    assert len(fig.axes) == 2
    data = W.prop4_data()
    assert set(data.runs) == set(W.PROP4_DEFAULTS["Ks"])
    for K, r in data.runs.items():
        keep = r.iteration > 0
        assert np.all(r.objective.mean(axis=0)[keep] <= data.bounds[K][keep])
        assert np.all(data.excess_ratio(K) >= 1.0)
    T, thm3, prop4 = W.guarantee_curves(data.p_star, data.p0, data.rho, float(np.abs(data.w_star).sum()),
                                        data.p, data.problem.d)
    assert np.all(np.diff(thm3) < 0) and np.all(prop4 <= thm3)


def test_prop4_largest_settings_and_widget():
    lim = W.PROP4_LIMITS
    fig = W.prop4_figure(Ks=(lim["K"][1],), lam=lim["lam"][0], T=max(lim["T"]), n_seeds=lim["n_seeds"][1])
    assert len(fig.axes) == 2
    box = W.prop4_demo(T=5_000, n_seeds=2)
    assert set(box.controls) == {"K", "lam", "T", "n_seeds"}
    with pytest.raises(ValueError, match="range"):
        W.prop4_demo(K=1000.0)
    with pytest.raises(ValueError, match="range"):
        W.prop4_data(Ks=(0.0,))


# ---------------------------------------------------------------------------------------------- live widgets
def _same_runs(a, b):
    """Two SeedRuns with the same numbers (all but the wall-clock seconds), bit for bit."""
    assert a.seeds == b.seeds
    for name in ("iteration", "data_accesses", "objective", "nnz", "w"):
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype and np.array_equal(x, y), name


def test_cached_seeds_are_the_runs_of_run_seeds():
    """The demos cache each seed's run: n seeds are the first n of any larger number, bit for bit the runs of
    ``run_seeds`` with the same arguments."""
    from l1lab.experiments import run_seeds
    from l1lab.links import smidas_p
    from l1lab.solvers import scd, sgd, smidas, truncgrad

    data = W.smidas_bound_data(eta_mult=2.0, kind="sparse", T=1_000, n_seeds=3)
    prob, eta = data.problem, data.eta
    kw = dict(n_iter=1_000, eta=eta, output="random", n_checkpoints=40)
    _same_runs(data.runs["SMIDAS"], run_seeds(smidas, prob, range(3), p=smidas_p(prob.d), **kw))
    _same_runs(data.runs["TruncGrad"], run_seeds(truncgrad, prob, range(3), **kw))
    _same_runs(data.runs["SGD"], run_seeds(sgd, prob, range(3), **kw))
    n_scd = round(1_000 * prob.d / prob.m)
    _same_runs(data.runs["SCD"], run_seeds(scd, prob, range(3), n_iter=n_scd, n_checkpoints=40))
    fewer = W.smidas_bound_data(eta_mult=2.0, kind="sparse", T=1_000, n_seeds=2)
    assert fewer.runs["SMIDAS"].n_seeds == 2
    np.testing.assert_array_equal(fewer.runs["SMIDAS"].objective, data.runs["SMIDAS"].objective[:2])

    mc = W.magic_comparison_data("sparse", T=1_000, n_seeds=2)
    for name, solver, extra in (("SMIDAS", smidas, dict(p=smidas_p(prob.d))), ("TruncGrad", truncgrad, {})):
        for eta_k, gap in mc.tuning[name]:
            fresh = solver(mc.problem, 1_000, eta_k, seed=1000, n_checkpoints=2, **extra)
            assert gap == float(fresh.trace.objective[-1] - mc.p_star)
        _same_runs(mc.runs[name], run_seeds(solver, mc.problem, range(2), n_iter=1_000, eta=mc.eta[name],
                                            n_checkpoints=40, **extra))

    pr = W.prop4_data(Ks=(1.0,), T=1_000, n_seeds=2)
    _same_runs(pr.runs[1.0], run_seeds(smidas, pr.problem, range(2), n_iter=1_000, eta=pr.etas[1.0],
                                       p=smidas_p(pr.problem.d), output="random", n_checkpoints=40))
    with pytest.raises(ValueError, match="seed"):
        W.prop4_data(n_seeds=0)
    with pytest.raises(ValueError, match="seed"):
        W.smidas_bound_data(n_seeds=0)


def test_log_sliders_land_on_their_grids():
    """The η/η₃ and K sliders move in quarter decades from their minimum; every position, as a browser or
    Python computes it, is a point of ETA_MULT_GRID or K_GRID (which the demos compute ahead), 1 among them."""
    for grid, lim in ((W.ETA_MULT_GRID, W.SMIDAS_BOUND_LIMITS["eta_mult"]), (W.K_GRID, W.PROP4_LIMITS["K"])):
        assert 1.0 in grid and (grid[0], grid[-1]) == lim
        lo = np.log10(lim[0])
        for k, g in enumerate(grid):
            for value in (10 ** (lo + 0.25 * k), g * (1 + 1e-15), 10 ** (0.25 * round(np.log10(g) / 0.25))):
                assert W._snap(value, grid) == g
        assert W._snap(1.05, grid) == 1.05       # not a position: taken as it is
    assert {0.1, 10 ** -0.5, 1.0, 10 ** 0.5, 10.0} <= set(W.ETA_MULT_GRID)   # the player's
    a = W.smidas_bound_data(eta_mult=10 ** 0.25, T=1_000, n_seeds=2)
    assert W.smidas_bound_data(eta_mult=10 ** 0.25 * (1 + 1e-14), T=1_000, n_seeds=2) is a
    assert W.prop4_data(Ks=(10 ** 0.5 * (1 - 1e-14),), T=5_000, n_seeds=2).runs.keys() == {10 ** 0.5}


def test_demos_start_from_the_live_settings_and_compute_ahead():
    box = W.smidas_bound_demo(T=1_000, n_seeds=2)
    assert {k: c.value for k, c in box.controls.items()} == dict(W.SMIDAS_BOUND_LIVE, T=1_000, n_seeds=2)
    info = W._smidas_bound_data.cache_info()
    for eta_mult in W.ETA_MULT_GRID:                 # every position of the η slider is ready, both cases
        for case in W.CASES:
            W.smidas_bound_data(eta_mult=eta_mult, case=case, T=1_000, n_seeds=2)
    W.smidas_bound_data(kind="dense", T=1_000, n_seeds=2)
    W.smidas_bound_data(T=20_000, n_seeds=2)
    W.smidas_bound_data(T=1_000, n_seeds=10)
    assert W._smidas_bound_data.cache_info().misses == info.misses
    assert {k: c.value for k, c in W.smidas_bound_demo(ahead=False).controls.items()} == W.SMIDAS_BOUND_LIVE

    box = W.prop4_demo(T=5_000, n_seeds=2)
    assert {k: c.value for k, c in box.controls.items()} == dict(W.PROP4_LIVE, T=5_000, n_seeds=2)
    info = W._prop4_runs.cache_info()
    for K in W.K_GRID:
        W.prop4_data(Ks=(K,), T=5_000, n_seeds=2)
    assert W._prop4_runs.cache_info().misses == info.misses

    box = W.magic_comparison_demo(kinds="sparse", lam=0.1, n_seeds=1)
    assert {k: c.value for k, c in box.controls.items()} == dict(W.MAGIC_COMPARISON_LIVE, kinds="sparse",
                                                                   lam=0.1, n_seeds=1)
    info = W._magic_comparison_data.cache_info()
    for kind in W.KINDS:
        for T in W.MAGIC_COMPARISON_LIMITS["T"]:
            W.magic_comparison_data(kind, lam=0.1, T=T, n_seeds=1)
    assert W._magic_comparison_data.cache_info().misses == info.misses


def test_widget_figures_redraw_in_place_with_a_fixed_layout():
    """The widgets' figures have fixed margins (no layout engine to rerun at each move) and are redrawn in
    place: the same figure and axes, and the pixels of a fresh figure."""
    from l1lab.book.live import png_bytes

    cases = [(W.link_figure, dict(p=2.0), dict(p=40.0, theta1=-1.0)),
             (W.smidas_bound_figure, dict(T=1_000, n_seeds=2), dict(T=1_000, n_seeds=2, case="14")),
             (W.magic_comparison_figure, dict(kinds=("sparse",), T=1_000, n_seeds=1),
              dict(kinds=("sparse",), T=2_000, n_seeds=1)),
             (W.prop4_figure, dict(Ks=(1.0,), T=5_000, n_seeds=2), dict(Ks=(0.1,), T=5_000, n_seeds=2))]
    for fn, first, second in cases:
        fig = fn(**first)
        assert fig.get_layout_engine() is None
        axes = list(fig.axes)
        assert fn(fig=fig, **second) is fig and list(fig.axes) == axes
        assert png_bytes(fig) == png_bytes(fn(**second)), fn.__name__


# ---------------------------------------------------------------------------------------------- page width
def test_figures_fit_the_page():
    """The lectures' figures are at most 8 inches wide, with no text below 9 pt (ticks, labels, legends, titles)."""
    from matplotlib.text import Text

    figs = {"sparsity": W.sparsity_figure(), "link": W.link_figure(),
            "bound": W.smidas_bound_figure(T=1_000, n_seeds=2),
            "magic": W.magic_comparison_figure(T=1_000, n_seeds=1),
            "prop4": W.prop4_figure(T=5_000, n_seeds=2)}
    for name, fig in figs.items():
        assert fig.get_size_inches()[0] <= 8.0 + 1e-9, name
        fig.canvas.draw()
        small = [t.get_text() for t in fig.findobj(Text)
                 if t.get_visible() and t.get_text().strip() and t.get_fontsize() < 9]
        assert not small, f"{name}: text below 9 pt: {small[:3]}"


# ---------------------------------------------------------------------------------------------- geometry of the link
def _min_dist(line, point):
    xy = np.column_stack(line.get_data())
    return float(np.min(np.hypot(*(xy - point).T)))


@pytest.mark.parametrize("p,theta2", [(None, 0.6), (40.0, 0.3), (4.0, 0.9)])
def test_link_figure_draws_curves_through_theta_and_w(p, theta2):
    """theta lies on the drawn circle and l_p sphere, w on the image of each (the l_q sphere of radius
    ||theta||_p), and the chapter's figure (values=False) prints neither w nor the ratio its question asks for."""
    from l1lab.links import link_inverse

    fig = W.link_figure(p=p, theta1=1.0, theta2=theta2, values=False)
    pp = W.smidas_p(310) if p is None else p
    theta = np.array([1.0, theta2])
    w = link_inverse(theta, pp)
    lines = {ln.get_label(): ln for ln in fig.axes[0].get_lines()}
    circle = next(ln for lb, ln in lines.items() if lb.startswith("circle through"))
    sphere = next(ln for lb, ln in lines.items() if lb.startswith(r"$\ell_p$ sphere"))
    image = next(ln for lb, ln in lines.items() if lb.startswith("its image"))
    own = next(ln for lb, ln in lines.items() if lb == f"$f^{{-1}}$(circle), p = {pp:.3g}")
    step = 2 * np.pi * np.linalg.norm(theta) / 720              # the curves' sampling
    assert _min_dist(circle, theta) < step and _min_dist(sphere, theta) < step
    assert _min_dist(image, w) < step and _min_dist(own, w) < step
    xy = np.column_stack(image.get_data())
    q = pp / (pp - 1)
    assert np.allclose(np.sum(np.abs(xy) ** q, axis=1) ** (1 / q), np.linalg.norm(theta, pp))
    texts = [t.get_text() for ax in fig.axes for t in ax.get_legend().get_texts()]
    assert r"$w = f^{-1}(\theta)$" in texts and "the $\\theta$ on the left" in texts   # no values after them


def test_image_of_the_circle_moves_inside_the_diamond():
    assert W.diagonal_image(2.0) == pytest.approx(2 ** -0.5) and W.diagonal_image(4.0) == pytest.approx(0.5)
    for p in (W.smidas_p(310), 20.0, 40.0):
        assert W.diagonal_image(p) == pytest.approx(2 ** (2 / p - 1.5)) and W.diagonal_image(p) < 0.5
    assert W.diagonal_image(W.smidas_p(310)) == pytest.approx(0.399, abs=5e-4)
    assert W.diagonal_image(40.0) == pytest.approx(0.366, abs=5e-4)


def test_guarantee_iterations_gain_grows_towards_p0_over_pstar():
    """Proposition 4 at its best K is Lemma 7's minimum with P* for P(0): the iterations it saves over Theorem 3
    grow as the accuracy falls, towards P(0)/P*, and each T solves its guarantee exactly."""
    data = W.prop4_data()
    w1 = float(np.abs(data.w_star).sum())
    args = (data.p_star, data.p0, data.rho, w1, data.p, data.problem.d)
    gains = []
    for k in (10.0, 1.0, 0.1, 0.01):
        eps = k * data.p_star
        t3, t4 = W.guarantee_iterations(eps, *args)
        _, thm3, prop4 = W.guarantee_curves(*args, T=[t3, t4])
        assert thm3[0] == pytest.approx(eps, rel=1e-9) and prop4[1] == pytest.approx(eps, rel=1e-9)
        gains.append(t3 / t4)
    assert all(a < b for a, b in zip(gains, gains[1:])) and gains[-1] < data.p0 / data.p_star
    assert gains[-1] > 0.95 * data.p0 / data.p_star
    with pytest.raises(ValueError, match="eps"):
        W.guarantee_iterations(0.0, *args)
