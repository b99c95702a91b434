"""l1lab.book.projections: the checks hold, the figures and widgets build at the defaults and at the largest
settings, and out-of-range settings fail with a message.

Nothing here asserts a timing.  The largest setting of the timing demo (n = 10^7) measures for a few seconds and
is marked ``slow``.
"""
import math
from functools import partial

import matplotlib

matplotlib.use("Agg")
import ipywidgets  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from l1lab.book import live  # noqa: E402
from l1lab.book import projections as W  # noqa: E402
from l1lab.book.static import plan  # noqa: E402
from l1lab.projections import l1_ball_threshold, project_l1_ball  # noqa: E402
from l1lab.projections import sparse as sp_mod  # noqa: E402
from l1lab.solvers import exponentiated_gradient, projected_gradient  # noqa: E402


def _redraws_in_place(fn, first, second):
    """fn(**first), then fn(**second) redrawn in place, then fn(**first) again: each frame is the PNG of a fresh
    figure for the same arguments, and the figure is the same object throughout."""
    lf = live.LiveFigure(fn)
    assert lf.in_place
    p1 = lf.render(**first)
    fig = lf.fig
    assert p1 == live.png_bytes(fn(**first))
    p2 = lf.render(**second)
    assert p2 == live.png_bytes(fn(**second))
    assert lf.render(**first) == p1
    return fig


# ------------------------------------------------------------------------------------------- lemma checks
def test_lemma_checks_hold():
    c = W.lemma_checks(n_vectors=80, n=25, seed=1)
    assert c["lemma1"] == 0.0 and c["lemma2_rho"] == 0 and c["lemma3"] == 0.0
    assert c["lemma2_theta"] < 1e-12 and c["kkt"] < 1e-12
    assert c["methods"] < 1e-12 and c["reduction"] < 1e-12


def test_weighted_ball_check_holds():
    c = W.weighted_ball_check(n_vectors=60, n=20, seed=2)
    assert c["constraint"] < 1e-12 and c["bisection"] < 1e-9 and c["unit_weights"] < 1e-12 and c["sign"] == 0


# ------------------------------------------------------------------------------------------------ geometry
def test_ball_regions_match_projection():
    rng = np.random.default_rng(0)
    for z in (0.3, 1.0, 1.7):
        V = rng.uniform(-2.5, 2.5, size=(400, 2))
        R = W.ball_regions_2d(V[:, 0], V[:, 1], z)
        for v, r in zip(V, R):
            w = project_l1_ball(v, z)
            if r == 0:
                assert np.array_equal(w, v)
            else:
                assert np.count_nonzero(w) == r
                assert abs(np.abs(w).sum() - z) < 1e-12


@pytest.mark.parametrize("kw", [{}, dict(z=0.25, v1=-2.5, v2=2.5), dict(z=2.0, v1=0.0, v2=0.0)])
def test_geometry_figure(kw):
    fig = W.geometry_figure(**kw)
    assert isinstance(fig, Figure) and len(fig.axes) == 2


def test_ball_region_polygons_are_the_regions():
    from matplotlib.path import Path

    rng = np.random.default_rng(1)
    for z in (0.25, 0.6, 1.0, 2.0):
        V = rng.uniform(-2.6, 2.6, size=(4000, 2))
        polys = W.ball_region_polygons(z)
        inside = Path(polys[0][0]).contains_points(V)
        band = np.any([Path(p).contains_points(V) for p in polys[2]], axis=0)
        assert not np.any(inside & band)
        np.testing.assert_array_equal(np.where(inside, 0, np.where(band, 2, 1)), W.ball_regions_2d(V[:, 0], V[:, 1], z))


@pytest.mark.parametrize("first,second", [(dict(z=1.0), dict(z=1.05, v1=-2.0)),
                                          (dict(z=0.25, v1=-2.5, v2=2.5), dict(z=2.0, v1=0.0, v2=0.0))])
def test_geometry_redraws_in_place(first, second):
    # the 3-d panel too: the same view and limits as a fresh figure (its projection of the last draw is dropped,
    # so nothing measures the new tick labels with the old limits)
    fig = _redraws_in_place(W.geometry_figure, first, second)
    W.geometry_figure(fig=fig, **second)
    fresh = W.geometry_figure(**second)
    for ax, ax_fresh in zip(fig.axes, fresh.axes):
        assert ax.get_position().bounds == ax_fresh.get_position().bounds
        assert ax.get_xlim() == ax_fresh.get_xlim() and ax.get_ylim() == ax_fresh.get_ylim()
    ax3, ax3_fresh = fig.axes[1], fresh.axes[1]
    assert ax3.get_zlim() == ax3_fresh.get_zlim()
    assert (ax3.elev, ax3.azim) == (ax3_fresh.elev, ax3_fresh.azim) == (22, 30)
    assert ax3.M is None


def test_geometry_errors_and_widget():
    with pytest.raises(ValueError, match="range"):
        W.geometry_figure(z=3.0)
    with pytest.raises(ValueError, match="range"):
        W.geometry_figure(v1=5.0)
    box = W.geometry_demo()
    assert isinstance(box, ipywidgets.VBox) and set(box.controls) == {"z", "v1", "v2"}
    with pytest.raises(ValueError, match="range"):
        W.geometry_demo(z=0.1)


# ---------------------------------------------------------------------------------------------------- tree
@pytest.mark.parametrize("kw", [{}, dict(n=200, z=2.0, n_updates=20, k=10, seed=1), dict(n=30, z=50.0, seed=2)])
def test_tree_snapshot_descent_is_figure3(kw):
    snap = W.tree_snapshot(**kw)
    # the drawn descent, the projector's update and the dense threshold give the same theta
    assert abs(snap.theta - snap.theta_update) <= 1e-12 * max(1.0, snap.theta)
    assert abs(snap.theta - snap.theta_dense) <= 1e-9 * max(1.0, snap.theta)
    # the path has at most height nodes, and the nodes that stay are those above theta
    assert 1 <= len(snap.path) <= snap.height
    assert snap.nnz_after == sum(nd["mag"] > snap.theta for nd in snap.nodes.values()) or snap.theta == 0.0
    # in-order x positions follow the keys (a search tree ordered by magnitude)
    keys = [nd["key"] for nd in sorted(snap.nodes.values(), key=lambda nd: nd["x"])]
    assert keys == sorted(keys)


def test_descent_matches_pivot_search():
    snap = W.tree_snapshot()
    rng = np.random.default_rng(3)
    P = sp_mod.SparseL1BallProjector(500, 1e300)
    P.update(rng.choice(500, 80, replace=False), rng.standard_normal(80))
    I, F, root = P._I, P._F, int(P._st[sp_mod._ROOT])
    for z in (0.1, 1.0, 5.0, 20.0):
        path, pb, sb = W._descent(I, F, root, z)
        assert (pb, sb) == tuple(sp_mod._pivot_search(I, F, root, z))
        theta = (sb - z) / pb
        assert abs(theta - l1_ball_threshold(P.to_dense(), z)) < 1e-12
    assert snap.root in snap.nodes


def test_tree_figure_and_errors():
    assert isinstance(W.tree_figure(), Figure)
    with pytest.raises(ValueError, match="k <= n"):
        W.tree_snapshot(n=5, k=6)
    with pytest.raises(ValueError, match="z"):
        W.tree_snapshot(z=0.0)


def test_sparse_pg_check_reproduces_solver():
    chk = W.sparse_pg_check(n_steps=300)
    assert chk["max_diff"] < 1e-12
    res = projected_gradient(chk["problem"], 300, chk["z"], eta0=0.3, method="stochastic", seed=0, n_checkpoints=2)
    assert np.abs(res.w - chk["w_dense"]).max() < 1e-12


# -------------------------------------------------------------------------------------------------- timing
def test_timing_small_and_widget():
    pt = W.projection_timing_data(max_n=10_000, z_frac=0.1)
    assert pt.sizes == (1000, 3162, 10000)
    assert all(np.all(s > 0) for s in pt.per_projection.values())
    tt = W.tree_timing_data(max_n=10_000, k=10)
    assert tt.max_diff < 1e-9 and np.all(tt.tree > 0) and np.all(tt.dense > 0)
    fig = W.timing_figure(max_n=10_000, k=10, z_frac=0.1)
    assert len(fig.axes) == 2 and all(ax.get_xscale() == "log" for ax in fig.axes)
    box = W.timing_demo(max_n=10_000, k=10)
    assert set(box.controls) == {"max_n", "k", "z_frac"}


def test_timing_cells_are_shared_by_every_max_n():
    # a measurement per size: the sizes of a smaller max_n are the same numbers (measured once, cached)
    small, large = W.projection_timing_data(max_n=10_000), W.projection_timing_data(max_n=100_000)
    assert large.sizes[:3] == small.sizes
    for m in small.per_projection:
        np.testing.assert_array_equal(large.per_projection[m][:3], small.per_projection[m])
    np.testing.assert_array_equal(large.support[:3], small.support)
    t_small, t_large = W.tree_timing_data(max_n=10_000, k=10), W.tree_timing_data(max_n=100_000, k=10)
    np.testing.assert_array_equal(t_large.tree[:3], t_small.tree)
    np.testing.assert_array_equal(t_large.dense[:3], t_small.dense)
    assert t_large.max_diff < 1e-9


def test_projection_timings_are_taken_after_a_warm_up(monkeypatch):
    """Every method is timed by l1lab.book.timing.best_of, after an untimed call on the same vector (the call that
    compiles the long-vector path of Condat's method, n >= 65,536), as the best of at least TIMING_REPEATS calls."""
    from l1lab.book import timing

    seen = []

    def spy(fn, **kw):
        seen.append(kw)
        return timing.best_of(fn, **kw)

    monkeypatch.setattr(W, "best_of", spy)
    secs, nnz = W._projection_cell(1000, 0.1, 12345)      # a seed of its own: measured now, not from the cache
    assert set(secs) == set(W.METHODS) and nnz > 0 and len(seen) == len(W.METHODS)
    assert all(kw["warmups"] >= 1 and kw["repeats"] >= W.TIMING_REPEATS == 3 for kw in seen)


def test_timing_redraws_in_place():
    _redraws_in_place(W.timing_figure, dict(max_n=10_000, k=10), dict(max_n=10_000, k=100, z_frac=0.5))
    for panels in (("dense",), ("tree",)):
        _redraws_in_place(W.timing_figure, dict(max_n=10_000, k=10, panels=panels),
                          dict(max_n=10_000, k=100, z_frac=0.5, panels=panels))


@pytest.mark.parametrize("panels,controls", [(("dense",), {"max_n", "z_frac"}), (("tree",), {"max_n", "k"}),
                                             (("dense", "tree"), {"max_n", "k", "z_frac"})])
def test_timing_panels(panels, controls):
    # one panel per lecture: the dense projections (first lecture) and the sparse step (second lecture)
    fig = W.timing_figure(max_n=10_000, k=10, panels=panels)
    assert len(fig.axes) == len(panels)
    titles = " ".join(ax.get_title() for ax in fig.axes)
    assert ("dense projection" in titles) == ("dense" in panels)
    assert ("sparse step" in " ".join(ax.get_ylabel() for ax in fig.axes)) == ("tree" in panels)
    box = W.timing_demo(panels=panels, max_n=10_000, k=10)
    assert set(box.controls) == controls
    # the static player offers every position of every control: three each
    specs = plan(box, W.TIMING_STATIC["grid"])
    assert {s.name for s in specs} == controls and not any(s.listed for s in specs)
    assert math.prod(len(s.values) for s in specs) == 3 ** len(controls)
    with pytest.raises(ValueError, match="panels"):
        W.timing_figure(max_n=10_000, panels=("dense", "dense"))
    with pytest.raises(ValueError, match="panels"):
        W.timing_demo(panels=("sort",))


# ------------------------------------------------------------------------------------------- readability
def _small_texts(fig, smallest=9.0):
    """The visible texts of ``fig`` (titles, labels, ticks, legends, annotations) smaller than ``smallest`` pt."""
    import io

    from matplotlib.text import Text

    fig.savefig(io.BytesIO(), format="png")  # draw: the tick labels exist after a draw
    return [(t.get_text(), t.get_fontsize()) for t in fig.findobj(Text)
            if t.get_visible() and t.get_text().strip() and t.get_fontsize() < smallest]


@pytest.mark.parametrize("make", [
    lambda: W.geometry_figure(),
    lambda: W.geometry_figure(simplex3d=False),
    lambda: W.tree_figure(),
    lambda: W.timing_figure(max_n=10_000, k=10),
    lambda: W.timing_figure(max_n=10_000, k=10, panels=("dense",)),
    lambda: W.timing_figure(max_n=10_000, k=10, panels=("tree",)),
    lambda: W.synthetic_figure(n=200, passes=20),
    lambda: W.synthetic_figure(n=200, passes=20, losses=("squared",)),
    lambda: W.eg_vs_pg_figure(m=200, d=1000, epochs=2),
], ids=["geometry", "geometry-2d", "tree", "timing", "timing-dense", "timing-tree", "synthetic", "synthetic-one",
        "eg"])
def test_figures_are_readable_at_the_page_width(make):
    # at most about 8 inches wide (the page's width), no text below 9 pt, panels stacked rather than side by side
    # (except the geometry figure's two square panels)
    fig = make()
    assert fig.get_size_inches()[0] <= 8.0
    assert _small_texts(fig) == []
    if len(fig.axes) == 2 and fig.axes[1].name != "3d":
        (x0, _, _, _), (x1, _, _, _) = (ax.get_position().bounds for ax in fig.axes)
        assert x0 == x1  # stacked


def test_timing_errors():
    with pytest.raises(ValueError, match="max_n"):
        W.projection_timing_data(max_n=123)
    with pytest.raises(ValueError, match="k must"):
        W.tree_timing_data(max_n=10_000, k=7)
    with pytest.raises(ValueError, match="z_frac"):
        W.timing_figure(z_frac=0.2)
    with pytest.raises(ValueError, match="max_n"):  # 10^7 is for the functions, not the live demo
        W.timing_demo(max_n=10_000_000)


@pytest.mark.slow
def test_timing_largest_settings():
    # the tree part at n = 10^7, k = 1000 (memory: node arrays of n int32 and dense vectors of n doubles); the
    # dense-projection timings at 10^7 run the same code as above for about 4 s more, so they are not repeated
    lim = W.TIMING_LIMITS
    tt = W.tree_timing_data(max_n=max(lim["max_n"]), k=max(lim["k"]))
    assert tt.sizes[-1] == 10_000_000 and np.all(tt.tree > 0) and np.all(tt.nnz > 0)


# ----------------------------------------------------------------------------------------------- synthetic
def test_paper_synthetic_problem():
    X, y, w = W.paper_synthetic_problem(200, "logistic", seed=1)
    assert X.shape == (200, 200) and np.abs(X).max() <= 1.0 and np.count_nonzero(w) == 100
    assert set(np.unique(y)) == {-1.0, 1.0}
    with pytest.raises(ValueError, match="loss"):
        W.paper_synthetic_problem(200, "hinge")


def _check_synthetic(d):
    ref = d.ref
    # Lemma (penalized -> constrained): w_lam is feasible with ||w||_1 = z and no run goes below f*
    assert abs(np.abs(ref.w_lam).sum() - ref.z) < 1e-9
    for name, g in d.gaps.items():
        assert np.all(g >= -1e-9 * max(1.0, ref.f_star)), name
        assert d.flops[name][-1] <= 1.01 * d.budget, name
    # the projected methods stay feasible
    for name in ("batch", "line search", "stochastic", "mini-batch"):
        assert np.abs(d.results[name].w).sum() <= ref.z * (1 + 1e-9)
    assert d.betas["coordinate descent, data β"] < d.betas["coordinate descent"]


def test_synthetic_defaults():
    # the chapter draws both losses at the defaults; here the squared loss (the logistic one is the largest
    # setting below, and the notebook test runs its defaults)
    fig = W.synthetic_figure(losses=("squared",))
    assert isinstance(fig, Figure) and len(fig.axes) == 1 and fig.axes[0].get_yscale() == "log"
    d = W.synthetic_data(loss="squared")
    _check_synthetic(d)
    # the line search and coordinate descent with the data's beta reach high accuracy
    assert d.gaps["line search"][-1] < 1e-5 and d.gaps["coordinate descent, data β"][-1] < 1e-5


def test_synthetic_largest_settings():
    lim = W.SYNTHETIC_LIMITS
    kw = dict(n=max(lim["n"]), lam_frac=lim["lam_frac"][0], passes=lim["passes"][1], step_mult=lim["step_mult"][1])
    fig = W.synthetic_figure(**kw, losses=("logistic",))
    assert len(fig.axes) == 1
    d = W.synthetic_data(loss="logistic", **kw)
    _check_synthetic(d)
    assert np.all(np.isfinite(d.gaps["batch"]))


def test_synthetic_errors_and_widget():
    with pytest.raises(ValueError, match="n must"):
        W.synthetic_data(n=3000)
    with pytest.raises(ValueError, match="n must"):  # n = 4000 is for the static page only
        W.synthetic_demo(n=4000)
    with pytest.raises(ValueError, match="range"):
        W.synthetic_data(lam_frac=0.9)
    with pytest.raises(ValueError, match="range"):
        W.synthetic_data(passes=1000)
    with pytest.raises(ValueError, match="range"):
        W.synthetic_data(step_mult=1e3)
    with pytest.raises(ValueError, match="loss"):
        W.synthetic_data(loss="hinge")
    box = W.synthetic_demo(n=200, passes=20)
    assert set(box.controls) == {"loss", "n", "lam_frac", "passes", "step_mult"}
    assert isinstance(box.controls["step_mult"], ipywidgets.FloatLogSlider)
    assert box.controls["loss"].value == "squared" and box.controls["n"].value == 200
    with pytest.raises(ValueError, match="loss"):
        W.synthetic_demo(loss="hinge")


def test_synthetic_live_losses_and_redraw_in_place():
    kw = dict(n=200, lam_frac=0.1, passes=20, step_mult=1.0)
    assert len(W._synthetic_live("both", **kw).axes) == 2
    assert len(W._synthetic_live("logistic", **kw).axes) == 1
    _redraws_in_place(W._synthetic_live, dict(loss="squared", **kw), dict(loss="squared", **dict(kw, passes=30)))
    # one loss, then both (another figure shape: rebuilt), then back
    _redraws_in_place(W._synthetic_live, dict(loss="logistic", **kw), dict(loss="both", **kw))


# ------------------------------------------------------------------------------------------- EG vs PG
def test_eg_vs_pg_defaults():
    fig = W.eg_vs_pg_figure()
    assert isinstance(fig, Figure) and len(fig.axes) == 2
    d = W.eg_vs_pg_data()
    assert set(d.results) == {"projected gradient", "EG±"}
    assert len(d.grid) == len(W.PG_ETA_GRID) + 2 * len(W.EG_ETA_GRID)
    # EG never returns a touched weight to zero; projected gradient's iterate is feasible
    assert d.results["EG±"].trace.nnz[-1] >= d.results["projected gradient"].trace.nnz[-1]
    assert np.abs(d.results["projected gradient"].w).sum() <= d.ref.z * (1 + 1e-9)
    assert np.abs(d.results["EG±"].w).sum() <= d.ref.z * (1 + 1e-9)
    for name, eta, sched, gap, nnz, sec in d.grid:
        assert gap >= -1e-9, (name, eta, sched)


def test_eg_vs_pg_largest_and_errors():
    lim = W.EG_LIMITS
    kw = dict(m=1000, d=lim["d"][1], density=max(lim["density"]), lam_frac=lim["lam_frac"][0], epochs=5)
    assert kw["m"] * kw["d"] * kw["epochs"] == lim["work"]
    d = W.eg_vs_pg_data(**kw)
    assert d.T == kw["epochs"] * kw["m"]
    with pytest.raises(ValueError, match="epochs \\* m \\* n"):
        W.eg_vs_pg_data(m=2000, d=10000, epochs=3)
    with pytest.raises(ValueError, match="range"):
        W.eg_vs_pg_data(d=50_000)
    with pytest.raises(ValueError, match="density"):
        W.eg_vs_pg_data(density=0.5)
    box = W.eg_vs_pg_demo()
    assert set(box.controls) == {"m", "d", "density", "lam_frac", "epochs"}
    with pytest.raises(ValueError, match="range"):
        W.eg_vs_pg_demo(lam_frac=0.9)


@pytest.mark.parametrize("epochs", [1, 4, 10, 2])
def test_eg_vs_pg_runs_cut_from_longer_runs_are_fresh_runs(epochs):
    # the projected-gradient runs are recorded at the checkpoints of every number of epochs, run on when more
    # epochs are asked for (1, then 4, then 10) and cut (2, after 10): every run of the grid has the trace and
    # iterate of the solver run for epochs * m steps (except the wall-clock seconds)
    m, d = 200, 1000
    data = W.eg_vs_pg_data(m=m, d=d, epochs=epochs)
    ref, T = data.ref, epochs * m
    assert data.T == T
    fields = ("iteration", "data_accesses", "objective", "nnz", "flops")
    pg = W._pg_runs(m, d, 0.01, 0.4, 0)
    for eta, run in pg.items():
        cut = run.result(T)
        fresh = projected_gradient(ref.constrained, T, ref.z, eta0=eta, method="stochastic", seed=0,
                                   n_checkpoints=W.EG_CHECKPOINTS)
        for f in fields:
            np.testing.assert_array_equal(getattr(cut.trace, f), getattr(fresh.trace, f), err_msg=f)
        np.testing.assert_array_equal(cut.w, fresh.w)
    for name, res in data.results.items():
        eta, sched = data.best[name]
        if name == "projected gradient":
            fresh = projected_gradient(ref.constrained, T, ref.z, eta0=eta, method="stochastic", seed=0,
                                       n_checkpoints=W.EG_CHECKPOINTS)
        else:
            fresh = exponentiated_gradient(ref.constrained, T, ref.z, eta0=eta, method="stochastic",
                                           decay=sched == "1/√t", dummy=True, seed=0, n_checkpoints=W.EG_CHECKPOINTS)
        for f in fields:
            np.testing.assert_array_equal(getattr(res.trace, f), getattr(fresh.trace, f), err_msg=f)
        np.testing.assert_array_equal(res.w, fresh.w)
        gaps = [g for n_, e, s, g, *_ in data.grid if n_ == name]
        assert float(res.trace.objective[-1] - ref.f_star) == min(gaps)


def test_eg_vs_pg_longest_runs_respect_the_cap():
    assert W._eg_max_epochs(200, 1000) == 10
    assert W._eg_max_epochs(1000, 10_000) == 5
    assert W._eg_max_epochs(2000, 10_000) == 2
    cps = W._union_checkpoints(300, 4)
    for e in range(1, 5):
        assert set(W.log_checkpoints(e * 300, W.EG_CHECKPOINTS)) <= set(cps.tolist())
    assert cps[-1] == 1200


def test_eg_vs_pg_redraws_in_place_and_says_why_not():
    kw = dict(m=200, d=1000, density=0.01, lam_frac=0.4)
    _redraws_in_place(W._eg_vs_pg_live, dict(kw, epochs=10), dict(kw, epochs=3))
    msg = W._eg_vs_pg_live(m=2000, d=10_000, density=0.01, lam_frac=0.4, epochs=3)
    assert not isinstance(msg, Figure) and "epochs * m * n" in msg.data
    box = W.eg_vs_pg_demo()
    assert {k: c.value for k, c in box.controls.items()} == dict(m=200, d=1000, density=0.01, lam_frac=0.4,
                                                                 epochs=5)


# ------------------------------------------------------------------------------------------ static players
@pytest.mark.parametrize("demo,static", [(W.geometry_demo, W.GEOMETRY_STATIC), (W.synthetic_demo, W.SYNTHETIC_STATIC),
                                         (W.eg_vs_pg_demo, W.EG_STATIC)], ids=["geometry", "synthetic", "eg"])
def test_static_grids_fit_the_live_widgets(demo, static):
    # every listed value is a position of the live widget, its start is offered, and the budget of frames holds
    specs = plan(demo(), static["grid"])
    assert 1 < math.prod(len(s.values) for s in specs) <= 40
    assert {s.name for s in specs if s.listed} == set(static["grid"])


@pytest.mark.parametrize("player,grid,name", [
    (W.geometry_player, dict(z=(0.25, 1.0), v1=(1.6,), v2=(0.9,)), "proj-geometry"),
    (W.synthetic_player, dict(loss=("squared",), n=(200,), lam_frac=(0.1,), passes=(100,), step_mult=(1.0, 10.0)),
     "proj-synthetic"),
    (W.eg_vs_pg_player, dict(m=(200,), d=(1000,), density=(0.01,), lam_frac=(0.4,), epochs=(1, 5)), "proj-eg-vs-pg"),
    (partial(W.timing_player, panels=("tree",)), dict(max_n=(100_000, 1_000_000), k=(100,)), "proj-timing-tree"),
], ids=["geometry", "synthetic", "eg", "timing-tree"])
def test_players_draw_the_live_figures(player, grid, name):
    # the module's player at a small grid: two frames of the live widget's figure, different, in the manifest
    p = player(grid=grid)
    assert p.name == name and p.n_frames == 2
    shas = {f["sha"] for f in p.frames.values()}
    assert len(shas) == 2 and all(f["png"] is not None for f in p.frames.values())
    html = p.html()
    assert f'data-l1lab-player="{name}"' in html and "l1lab-player-data" in html
    assert all(sha in html for sha in shas)
