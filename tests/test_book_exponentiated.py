"""l1lab.book.exponentiated: the figures of the chapter "Multiplicative updates and the log d miracle" at
their defaults and at the widgets' largest settings, the widgets' construction, and their range checks.

Nothing is timed here.  The number of seeds only repeats a run, so the largest settings are run with the
largest d (and T0) and few seeds; the scaling figure's defaults (d up to 10^5, five seeds, about 20 s) run in
the chapter itself (``pytest --nbval-lax chapters/exponentiated.ipynb``).  The live widgets' caches are tested
here: seeds reuse (bit for bit), controls that only redraw, and the in-place figures.
"""
import math

import matplotlib

matplotlib.use("Agg")
import ipywidgets  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from player_checks import assert_grid_fits  # noqa: E402

from l1lab.book import exponentiated as W  # noqa: E402
from l1lab.book.static import encode_frame, static_player  # noqa: E402
from l1lab.data.teacher import excess_risk_rows  # noqa: E402
from l1lab.solvers.online import best_fixed_value_logistic, smg  # noqa: E402
from l1lab.solvers.streamed import sg_l2_stream, smg_stream  # noqa: E402
from l1lab.theory import kakade_foster_evendar as kfe  # noqa: E402


# ---------------------------------------------------------------------------------------------- teacher
def test_teacher_stream_and_constants():
    prob = W.teacher_problem(300, 20, p=3, beta=1.5, seed=4)
    X = prob.X.toarray()
    assert prob.m == 300 and prob.d == 20 and prob.lam == 0.0 and prob.loss.name == "logistic"
    assert set(np.unique(X)) == {-1.0, 1.0}
    np.testing.assert_array_equal(W.teacher_weights(5, 3, 1.5), [1.5, -1.5, 1.5, 0.0, 0.0])
    # the first T examples of a longer stream are the stream of length T (prefix property of the demos)
    short = W.teacher_problem(100, 20, p=3, beta=1.5, seed=4)
    np.testing.assert_array_equal(short.X.toarray(), X[:100])
    np.testing.assert_array_equal(short.y, prob.y[:100])
    c = W.teacher_constants(20, 3, 1.5)
    assert (c.F1, c.G_inf, c.G2, c.d_smg) == (4.5, 1.0, math.sqrt(20), 41)
    assert c.F2 == pytest.approx(1.5 * math.sqrt(3))
    # a weight vector in either feasible set has |<w, x>| <= F1 resp. sqrt(d) F2, and |L'| <= 1 = G_inf
    assert c.sg_eta(100) == kfe.sg_eta(100, c.F2, c.G2) and c.smg_eta(100) == kfe.smg_eta(100, 41, 1.0)
    with pytest.raises(ValueError, match="p must be"):
        W.teacher_constants(5, 6)
    with pytest.raises(ValueError, match="beta"):
        W.teacher_problem(10, 5, beta=0.0)


def test_excess_risk_is_zero_at_w_star_and_exact_for_small_d():
    for d in (2, 10, 50):
        assert W.excess_risk(W.teacher_weights(d)) == pytest.approx(0.0, abs=1e-15)
    # w = 0: the risk is log 2 everywhere; the teacher's risk is averaged over the 4 patterns exactly
    z = np.array([0.0, 4.0, -4.0, 0.0])   # <w*, x> for x_R in {-1,+1}^2 with w*_R = (2, -2)
    q = 1 / (1 + np.exp(-z))
    risk_star = np.mean(q * np.log1p(np.exp(-z)) + (1 - q) * np.log1p(np.exp(z)))
    assert W.excess_risk(np.zeros(30)) == pytest.approx(math.log(2) - risk_star, rel=1e-12)
    # irrelevant weights only add noise to the margin: they increase the risk (Jensen), exactly for d - p <= 12
    w = W.teacher_weights(10)
    w[5] = 0.7
    e_exact = W.excess_risk(w)
    s = np.array([-0.7, 0.7])  # the only irrelevant term, +-0.7 with probability 1/2
    zz = z[:, None] + s[None, :]
    brute = np.mean(q[:, None] * np.log1p(np.exp(-zz)) + (1 - q[:, None]) * np.log1p(np.exp(zz))) - risk_star
    assert e_exact == pytest.approx(brute, rel=1e-6) and e_exact > 0
    # many irrelevant coordinates (normal approximation, see tests/test_teacher.py): reproducible, nonnegative
    rng = np.random.default_rng(0)
    M = rng.normal(0, 0.02, (3, 400))
    assert np.array_equal(W.excess_risk(M), W.excess_risk(M))
    assert np.all(W.excess_risk(M) >= 0)


# ---------------------------------------------------------------------------------------------- Prop. 2.2
def test_prop22_path():
    data = W.prop22_path_data()
    np.testing.assert_allclose(data.from_update, data.variance_form, rtol=1e-9, atol=1e-15)
    assert np.all(data.from_update <= 1e-15)
    # near the corner the inner product is proportional to the distance (footnote 4)
    slope = np.log(np.abs(data.variance_form[:, -1] / data.variance_form[:, -11])) / \
        np.log(data.dist[-1] / data.dist[-11])
    np.testing.assert_allclose(slope, 1.0, atol=1e-3)
    assert np.all(np.abs(data.euclidean) > 100 * np.abs(data.variance_form[:, -1]))
    fig = W.prop22_figure()
    assert isinstance(fig, Figure) and len(fig.axes) == 2
    with pytest.raises(ValueError, match="eta"):
        W.prop22_path_data(eta=0.5)
    with pytest.raises(ValueError, match="d must be"):
        W.prop22_path_data(d=1)


# ---------------------------------------------------------------------------------------------- demo 1
def test_horizon_grid_and_crossing():
    g = W.horizon_grid(1000)
    assert g[0] == 16 and g[-1] == 1000 and np.all(np.diff(g) > 0)
    np.testing.assert_array_equal(W.horizon_grid(1000, per_octave=2),
                                  [16, 23, 32, 45, 64, 91, 128, 181, 256, 362, 512, 724, 1000])
    assert W.horizon_grid(1024, per_octave=1)[-2:].tolist() == [512, 1024]   # 1024 itself is not repeated
    assert W.crossing([10, 100], [1.0, 0.01], 0.1) == pytest.approx(31.6227766, rel=1e-6)
    assert W.crossing([10, 100], [0.05, 0.01], 0.1) == 10
    assert math.isinf(W.crossing([10, 100], [1.0, 0.5], 0.1))
    with pytest.raises(ValueError, match="T_max"):
        W.horizon_grid(5)


def test_scaling_small_and_largest_d():
    fig = W.scaling_figure(d_max=100)
    assert isinstance(fig, Figure) and len(fig.axes) == 2
    assert fig.axes[0].get_xscale() == "log"
    # the largest d of the widget (one seed: seeds only repeat the computation)
    data = W.scaling_data(d_max=100_000, n_seeds=1)
    assert data.ds == W.SCALING_DS
    assert np.all(data.T_max == W.stream_length(100_000)) and W.T_CAP == 6_000
    assert math.isfinite(data.needed["SMG"][-1])          # SMG reaches eps at d = 10^5 ...
    assert math.isinf(data.needed["SG"][-1])               # ... SG does not, within the stream
    assert data.needed["SG"][1] < data.needed["SMG"][1]    # while at d = 100 SG is the faster one
    fig = W.scaling_figure(d_max=100_000, n_seeds=1, eps=0.25)
    assert len(fig.axes) == 2
    assert len(W.scaling_figure(d_max=100, n_seeds=1, p=4, beta=1.0, eps=0.1).axes) == 2


def test_scaling_range_errors():
    with pytest.raises(ValueError, match="d_max"):
        W.scaling_data(d_max=1_000_000)
    with pytest.raises(ValueError, match="range"):
        W.scaling_data(eps=0.5)
    with pytest.raises(ValueError, match="range"):
        W.scaling_data(n_seeds=6)
    with pytest.raises(ValueError, match="T_max"):
        W.horizon_runs(100, T_max=10)
    with pytest.raises(ValueError, match="per_octave"):
        W.horizon_runs(100, per_octave=0)


def test_scaling_demo_widget():
    box = W.scaling_demo(d_max=100, n_seeds=1)
    assert isinstance(box, ipywidgets.VBox)
    assert set(box.controls) == {"d_max", "p", "beta", "eps", "n_seeds"}
    with pytest.raises(ValueError, match="range"):
        W.scaling_demo(p=9)


# ---------------------------------------------------------------------------------------------- regret
def test_regret_defaults_bounds_hold():
    fig = W.regret_figure()
    assert len(fig.axes) == 2
    data = W.regret_data()
    c = data.constants
    for name in ("SMG", "SG"):
        ok = np.isfinite(c.bound(name, data.Ts))
        # noiseless: every seed's regret of the realized sequence is below the theorem's bound
        assert np.all(data.regret[name][:, ok] <= c.bound(name, data.Ts)[ok])
        # noisy: the excess risk of the average is below the bound with delta
        assert np.all(data.excess[name][:, ok] <= c.bound(name, data.Ts, data.delta)[ok])
        assert np.all(data.regret[name] > 0)
        noiseless, noisy = data.ratios(name)
        assert np.all(noiseless[ok] > 1) and np.all(noisy[ok] > 1)


def test_regret_largest_and_widget():
    lim = W.REGRET_LIMITS
    data = W.regret_data(d=max(lim["d"]), p=lim["p"][1], beta=lim["beta"][1], n_seeds=lim["n_seeds"][0],
                         delta=lim["delta"][0])
    assert data.regret["SMG"].shape == (2, len(W.REGRET_TS))
    with pytest.raises(ValueError, match="d must be"):
        W.regret_data(d=50)
    with pytest.raises(ValueError, match="range"):
        W.regret_data(delta=0.9)
    box = W.regret_demo()
    assert set(box.controls) == {"d", "p", "beta", "n_seeds", "delta"}


# ---------------------------------------------------------------------------------------------- demo 2
def test_averaging_defaults():
    fig = W.averaging_figure()
    assert len(fig.axes) == 1
    data = W.averaging_data()
    assert data.eta == pytest.approx(W.teacher_constants(100).smg_eta(1_000))
    assert data.taus[-1] == 30 * 1_000
    # Lemma 5.3 (+ Azuma) holds for the averaged decision at every tau, for every seed
    assert np.all(data.avg <= data.lemma53(0.05)[None, :])
    assert data.lemma53_limit == pytest.approx(data.cor31_limsup / 2)
    # the average keeps improving; at the end it is better than at T0
    k0 = int(np.argmin(np.abs(data.taus - data.T0)))
    assert np.median(data.avg[:, -1]) < 0.2 * np.median(data.avg[:, k0])


def test_averaging_largest_and_errors():
    lim = W.AVERAGING_LIMITS
    data = W.averaging_data(d=max(lim["d"]), T0=max(lim["T0"]), eta_mult=lim["eta_mult"][1], n_seeds=2)
    assert data.taus[-1] == W.AVERAGING_BUDGET // max(lim["d"])
    with pytest.raises(ValueError, match="1/\\(8 G_inf\\)"):
        W.averaging_data(d=10, T0=300, eta_mult=3.0)
    # clipped, the step is Lemma 5.3's largest, and the data say so
    top = kfe.smg_max_step(1.0)
    clipped = W.averaging_data(d=10, T0=300, eta_mult=3.0, n_seeds=2, clip=True)
    assert clipped.clipped and clipped.eta == top and clipped.eta_mult == 3.0
    again = W.averaging_data(d=10, T0=300, eta_mult=2.5, n_seeds=2, clip=True)      # the same step, the same runs
    np.testing.assert_array_equal(again.avg, clipped.avg)
    assert not W.averaging_data(d=10, T0=300, n_seeds=2, clip=True).clipped
    with pytest.raises(ValueError, match="T0"):
        W.averaging_data(T0=500)
    box = W.averaging_demo()
    assert set(box.controls) == {"d", "p", "T0", "eta_mult", "n_seeds"}


def test_smg_too_large_step_raises_but_eg_does_not():
    prob = W.teacher_problem(50, 20)
    with pytest.raises(ValueError, match="negative"):
        smg(prob, 2.0, 4.0, n_steps=50)
    res = smg(prob, 2.0, 4.0, n_steps=50, exact=True)
    assert np.abs(res.w).sum() <= 4.0 * (1 + 1e-12)


# ---------------------------------------------------------------------------------------------- live demos
def test_excess_risk_rows_is_the_teachers_excess_risk_row_by_row():
    rng = np.random.default_rng(3)
    rows = []
    for d in (1, 2, 5, 14, 15, 100, 1_000):
        for p in (1, 2, 3, 4):
            if p > d:
                continue
            for scale in (0.0, 0.01, 0.3, 2.0):
                w = rng.normal(0, scale, d)
                w[:p] += rng.normal(0, 2, p)
                rows.append((w, p, 1.5))
    c = W.teacher_constants(300, 3, 2.0)
    rows += [(smg_stream(300, 400, c.smg_eta(400), c.F1, 3, 2.0, seed=1)[1], 3, 2.0),
             (sg_l2_stream(300, 400, c.sg_eta(400), c.F2, 3, 2.0, seed=1)[1], 3, 2.0)]
    for w, p, beta in rows:
        ref = W.excess_risk(w, p, beta)
        assert excess_risk_rows(w, p, beta) == pytest.approx(ref, rel=1e-12, abs=1e-15)
    M = np.array([w for w, p, _ in rows if w.size == 100 and p == 2])
    np.testing.assert_allclose(excess_risk_rows(M), [W.excess_risk(w) for w in M], rtol=1e-12, atol=1e-15)
    with pytest.raises(ValueError, match="p must be"):
        excess_risk_rows(np.zeros(3), p=4)


def test_best_fixed_value_is_best_fixed_decision_compiled():
    from l1lab.solvers.online import best_fixed_decision

    for d, p, beta in ((10, 2, 2.0), (100, 4, 1.0)):
        c = W.teacher_constants(d, p, beta)
        prob = W.teacher_problem(400, d, p, beta, seed=5)
        X = np.ascontiguousarray(prob.X.toarray())
        for T in (50, 400):
            for l2, radius, constraint in ((False, c.F1, "l1_ball"), (True, c.F2, "l2_ball")):
                ref = best_fixed_decision(prob, np.arange(T), constraint, radius, max_iter=100)[1]
                value = best_fixed_value_logistic(X[:T], prob.y[:T], l2, radius, 100, 1e-12)
                assert value == pytest.approx(ref, rel=1e-10)


def _clear_run_caches():
    W._STREAM_RUNS.clear()
    W._regret_seed.cache_clear()
    W._averaging_seed.cache_clear()


def test_seeds_are_a_prefix_bit_for_bit():
    """n seeds computed alone are exactly the first n rows of a larger number, in every demo (the widgets
    reuse the runs of the seeds they have seen)."""
    _clear_run_caches()
    few = W.horizon_runs(100, 3, 1.5, n_seeds=2, T_max=300)
    reg = W.regret_data(d=10, p=3, beta=1.5, n_seeds=2)
    avg = W.averaging_data(d=10, p=3, beta=1.5, T0=300, n_seeds=2)
    _clear_run_caches()
    many = W.horizon_runs(100, 3, 1.5, n_seeds=4, T_max=300)
    reg4 = W.regret_data(d=10, p=3, beta=1.5, n_seeds=4)
    avg4 = W.averaging_data(d=10, p=3, beta=1.5, T0=300, n_seeds=4)
    for name in ("SMG", "SG"):
        assert np.array_equal(few.excess[name], many.excess[name][:2])
        assert np.array_equal(reg.regret[name], reg4.regret[name][:2])
        assert np.array_equal(reg.excess[name], reg4.excess[name][:2])
    assert np.array_equal(avg.avg, avg4.avg[:2]) and np.array_equal(avg.last, avg4.last[:2])
    # and asking for fewer seeds afterwards computes nothing
    n = len(W._STREAM_RUNS)
    assert np.array_equal(W.horizon_runs(100, 3, 1.5, n_seeds=3, T_max=300).excess["SG"], many.excess["SG"][:3])
    assert len(W._STREAM_RUNS) == n


def test_horizon_runs_are_the_streamed_runs():
    runs = W.horizon_runs(100, 2, 2.0, n_seeds=2, T_max=200, data_seed=7)
    c = runs.constants
    for s in range(2):
        for k, T in enumerate(runs.grid):
            T = int(T)
            w1 = smg_stream(100, T, c.smg_eta(T), c.F1, 2, 2.0, seed=7 + s)[1]
            w2 = sg_l2_stream(100, T, c.sg_eta(T), c.F2, 2, 2.0, seed=7 + s)[1]
            assert runs.excess["SMG"][s, k] == pytest.approx(W.excess_risk(w1), rel=1e-12)
            assert runs.excess["SG"][s, k] == pytest.approx(W.excess_risk(w2), rel=1e-12)


def test_averaging_checkpoints_are_the_runs_for_each_tau():
    data = W.averaging_data(d=10, p=2, beta=2.0, T0=300, eta_mult=2.0, n_seeds=2)
    c = data.constants
    prob = W.teacher_problem(int(data.taus[-1]), 10, 2, 2.0, seed=2001)
    for k in (0, len(data.taus) // 2, len(data.taus) - 1):
        r = smg(prob, data.eta, c.F1, order=np.arange(data.taus[k]))
        assert data.avg[1, k] == pytest.approx(W.excess_risk(r.w_avg), rel=1e-9)
        assert data.last[1, k] == pytest.approx(W.excess_risk(r.w), rel=1e-9)


def test_drawing_controls_compute_nothing():
    W.regret_data(d=10, n_seeds=2, delta=0.05)
    misses = W._regret_seed.cache_info().misses
    data = W.regret_data(d=10, n_seeds=2, delta=0.3)
    assert W._regret_seed.cache_info().misses == misses and data.delta == 0.3
    W.scaling_data(d_max=100, n_seeds=1, eps=0.15)
    n = len(W._STREAM_RUNS)
    W.scaling_data(d_max=100, n_seeds=1, eps=0.2)
    assert len(W._STREAM_RUNS) == n


def test_live_widgets_start_light_and_redraw_in_place():
    box = W.scaling_demo(n_seeds=1)
    assert box.controls["d_max"].value == W.SCALING_DEMO_DEFAULTS["d_max"] == 1_000
    assert list(box.controls["d_max"].options) == [100, 1_000]
    assert list(W.scaling_demo(d_max=100_000, n_seeds=1).controls["d_max"].options) == \
        list(W.SCALING_LIMITS["d_max"])
    assert W.regret_demo().controls["n_seeds"].value == W.REGRET_DEMO_DEFAULTS["n_seeds"] == 3
    fig = W.regret_figure(d=10, n_seeds=2)
    axes = list(fig.axes)
    again = W.regret_figure(d=10, n_seeds=2, delta=0.2, fig=fig)
    assert again is fig and list(fig.axes) == axes
    fig = W.averaging_figure(d=10, T0=300, n_seeds=2)
    assert W.averaging_figure(d=10, T0=300, n_seeds=2, eta_mult=0.5, fig=fig) is fig
    fig = W.scaling_figure(d_max=100, n_seeds=1)
    assert W.scaling_figure(d_max=100, n_seeds=1, eps=0.2, fig=fig) is fig
    # demo 2's step above Lemma 5.3's limit: the figure at the limit, whose title says so, and back
    box = W.averaging_demo(d=10, T0=300)
    first = box.image.value
    box.controls["eta_mult"].value = 3.0
    title = box.live.fig.axes[0].get_title()
    assert len(box.live.fig.axes) == 1 and "clipped at Lemma 5.3's largest step" in title and "= 0.125" in title
    box.controls["eta_mult"].value = 1.0
    assert box.image.value == first and "clipped" not in box.live.fig.axes[0].get_title()


# ---------------------------------------------------------------------------------------------- static players
@pytest.mark.parametrize("demo,static", [("scaling_demo", "SCALING_STATIC"), ("regret_demo", "REGRET_STATIC"),
                                          ("averaging_demo", "AVERAGING_STATIC")])
def test_static_grids_fit_the_live_widgets(demo, static):
    """The chapters' players: every listed value is a position of the live widget, its start is offered, the cheap
    controls offer all their positions, and the grid stays within the frame budget (40)."""
    box = getattr(W, demo)()
    grid = getattr(W, static)["grid"]
    assert_grid_fits(box, grid, frames=(10, 40))
    assert getattr(W, static)["name"].startswith("eg-")


def test_regret_player_draws_the_live_figures():
    """A small grid of the regret figure: each frame is the PNG the live widget draws for that setting."""
    grid = dict(d=(10, 100), p=(2,), beta=(2.0,), n_seeds=(3,), delta=(0.05,))
    player = W.regret_player(grid=grid, name="t")
    assert player.n_frames == 2 and len({f["sha"] for f in player.frames.values()}) == 2
    box = W.regret_demo()
    setting = dict(d=10, p=2, beta=2.0, n_seeds=3, delta=0.05)
    frame = player.frames[player.key(d=10)]
    assert frame["png"] == encode_frame(box.live.render(**setting))
    assert "d = 10, p = 2" in frame["alt"]
    assert '"name":"t"' in player.html() and 'class="l1lab-player-data"' in player.html()


def test_averaging_player_clips_the_step_at_the_lemmas_limit():
    """Demo 2's player at d = 10, T0 = 300: the tuned step draws the figure; 2.5 times it would exceed Lemma 5.3's
    limit, and the frame is the figure at that limit, whose title (and so the frame's alternative text) says so:
    every frame is a figure, none an error message."""
    grid = dict(d=(10,), p=(2,), T0=(300,), eta_mult=(1.0, 2.5), n_seeds=(2,))
    player = static_player(W.averaging_demo(d=10, T0=300, n_seeds=2), grid, name="t")
    assert player.n_frames == 2 and len({f["sha"] for f in player.frames.values()}) == 2
    assert "η = 1 × η(T₀ = 300)" in player.frames[player.key()]["alt"]
    big = player.frames[player.key(eta_mult=2.5)]
    assert big["png"] is not None and "η = min(2.5 × η(T₀ = 300), 1/(8G∞)) = 0.125" in big["alt"]
    assert "clipped at Lemma 5.3's largest step" in big["alt"] and "Error" not in big["alt"]
    assert all(f["png"] is not None for f in player.frames.values())


def test_a_frame_that_fails_to_draw_fails_the_player(monkeypatch):
    """A setting whose figure raises is not drawn as a message: the player is not made (the build fails)."""
    real = W.averaging_figure

    def failing(*args, eta_mult=1.0, fig=None, **kw):
        if eta_mult > 2:
            raise ValueError("this setting cannot be drawn")
        return real(*args, eta_mult=eta_mult, fig=fig, **kw)

    monkeypatch.setattr(W, "averaging_figure", failing)
    grid = dict(d=(10,), p=(2,), T0=(300,), eta_mult=(1.0, 2.5), n_seeds=(2,))
    with pytest.raises(ValueError, match="cannot be drawn"):
        static_player(W.averaging_demo(d=10, T0=300, n_seeds=2), grid, name="t")


# ---------------------------------------------------------------------------------------------- readability
def _small_texts(fig):
    from matplotlib.text import Text

    return [(t.get_text(), t.get_fontsize()) for t in fig.findobj(Text)
            if t.get_visible() and t.get_text().strip() and t.get_fontsize() < 9]


@pytest.mark.parametrize("make", [
    lambda: W.prop22_figure(),
    lambda: W.regret_figure(d=10, n_seeds=2),
    lambda: W.scaling_figure(d_max=100, n_seeds=1),
    lambda: W.averaging_figure(d=10, T0=300, n_seeds=2),
], ids=["prop22", "regret", "scaling", "averaging"])
def test_figures_fit_the_page_and_their_text_is_at_least_9_points(make):
    """The book's pages are about 8 inches wide: every figure of the lectures fits, with no text below 9 pt."""
    fig = make()
    assert fig.get_size_inches()[0] <= 8.0
    assert _small_texts(fig) == []
