"""l1lab.book.pgs: the figures of the chapter "More data, less time" (Zhu et al. 2009) at their defaults and
at the widgets' largest settings, the widgets' construction, their range checks, and the helpers the demos
measure with (first_reach, run_until).

Nothing is timed here.  The number of seeds (runs) only repeats a run, so the largest settings are run with the
largest n, m, k and the smallest sigma, and few seeds; the CCAT-like figures at their defaults (three seeds) run
in the chapter itself (``pytest --nbval-lax chapters/pgs.ipynb``).
"""
import math

import matplotlib

matplotlib.use("Agg")
import figure_checks  # noqa: E402
import ipywidgets  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from l1lab import Problem  # noqa: E402
from l1lab.book import pgs as W  # noqa: E402
from l1lab.book.static import plan, static_player  # noqa: E402
from l1lab.data import make_classification  # noqa: E402
from l1lab.data.pgs import direction_error  # noqa: E402
from l1lab.solvers import pgs  # noqa: E402
from l1lab.theory import zhu2009 as zhu  # noqa: E402


# ---------------------------------------------------------------------------------------------- helpers
def assert_solvers_in_their_colours(fig):
    """Every data line of ``fig`` (more than one point, drawn as a line) that is not grey is a shade of PGS's or of
    L-BFGS's colour, and every line in a shade of either is solid: the curves are measured (theory and reference
    lines of these figures are grey or black)."""
    from matplotlib.colors import to_rgb

    from l1lab.book import style
    for ax in fig.axes:
        for line in ax.get_lines():
            if len(line.get_xdata()) < 2 or line.get_linestyle() in ("None", "none", "", " "):
                continue
            r, g, b = to_rgb(line.get_color())
            if max(r, g, b) - min(r, g, b) < 1e-9:            # grey or black
                continue
            solver = [n for n in ("PGS", "L-BFGS") if style._is_shade(line.get_color(), style.ALGORITHM_COLORS[n])]
            assert solver, f"{line.get_label()!r}: colour {line.get_color()} is neither PGS's nor L-BFGS's"
            assert line.get_linestyle() in ("-", "solid"), f"{line.get_label()!r}: a measured curve drawn dashed"


def test_first_reach_interpolates_between_checkpoints():
    it = np.array([0, 10, 100, 1000])
    err = np.array([np.inf, 0.5, 0.2, 0.05])
    assert W.first_reach(it, err, 0.5) == (10.0, 0.0)
    x, _ = W.first_reach(it, err, 0.125)             # halfway between 0.2 and 0.05: geometric mean of 100 and 1000
    assert x == pytest.approx(math.sqrt(100 * 1000))
    assert W.first_reach(it, err, 0.01) == (math.inf, math.inf)
    acc = np.array([0.0, 0.8, 0.9, 0.95])
    sec = np.array([0.0, 1.0, 2.0, 3.0])
    x, s = W.first_reach(it, acc, 0.925, below=False, seconds=sec)
    assert x == pytest.approx(math.sqrt(100 * 1000)) and 2.0 < s < 3.0


def test_run_until_stops_and_is_the_beginning_of_the_full_run():
    X, y, _ = make_classification(300, 8, 3, seed=1)
    prob = Problem(X, y, "logistic", 0.0)
    w_dir = np.ones(8)

    def measure(w):
        return float(w @ w_dir)

    full = pgs(prob, 2000, 0.05, seed=3, output="last", n_checkpoints=30, record_objective=False, monitor=measure)
    level = full.info["monitor"][12]
    cut = W.run_until(prob, 2000, 0.05, measure, stop=lambda v: v == level, n_checkpoints=30, seed=3, output="last")
    assert cut.stopped and cut.value.size == 13
    np.testing.assert_array_equal(cut.iteration, full.trace.iteration[:13])
    np.testing.assert_array_equal(cut.value, full.info["monitor"][:13])
    assert np.all(np.diff(cut.seconds) >= 0)
    whole = W.run_until(prob, 2000, 0.05, measure, n_checkpoints=30, seed=3, output="last")
    assert not whole.stopped
    np.testing.assert_array_equal(whole.value, full.info["monitor"])


# ---------------------------------------------------------------------------------------------- Theorem 2
def test_theorem2_figure():
    fig = W.theorem2_figure()
    assert isinstance(fig, Figure) and len(fig.axes) == 2
    figure_checks.assert_readable(fig)
    # the asymptotes drawn: below m0 = 2 c ||w0||^2/(eps^2 (p-1)) eps is out of reach, and T(m) -> 2 c/(delta eps^2)
    eps, delta = 0.4, 0.1
    m0 = 2 / eps ** 2
    assert zhu.theorem2_iterations(eps, 0.999 * m0, delta, 1.0, 2.0) == math.inf
    assert zhu.theorem2_iterations(eps, 1e12, delta, 1.0, 2.0) == pytest.approx(2 / (delta * eps ** 2), rel=1e-9)
    with pytest.raises(ValueError, match="empty"):
        W.theorem2_figure(eps_values=())


# ---------------------------------------------------------------------------------------------- demo (a)
def test_inverse_dependency_on_the_gaussian_toy():
    data = W.inverse_data(n_max=10, n_runs=5)
    assert data.ns == (10,) and data.ms == W.INVERSE_MS
    X, y, w_star = W.gaussian_toy(10)
    assert X.shape == (max(W.INVERSE_MS), 10) and np.max(np.abs(X)) <= 1
    hat, med = data.hat_error[0], data.pgs_median[0]
    # w_hat's own error falls with m; where it is far above the target PGS does not get there, where it is below
    # PGS does, and its iterations do not grow with m once the target is reachable
    assert np.all(np.diff(hat) < 0)
    assert np.all(np.isinf(med[hat > 1.5 * data.target])) and np.all(np.isfinite(med[hat < data.target]))
    assert med[-1] <= 1.2 * med[np.isfinite(med)][0]
    assert 1_000 < data.m0(10) < 10_000
    # L-BFGS's work to the target grows in proportion to m (a handful of passes over the data)
    acc = data.lbfgs_accesses[0]
    ok = np.isfinite(acc)
    assert np.all(np.diff(acc[ok]) > 0) and acc[-1] >= 0.5 * max(W.INVERSE_MS) * 10
    fig = W.inverse_figure(n_max=10, n_runs=5)
    assert_solvers_in_their_colours(fig)
    assert len(fig.axes) == 4 and fig.axes[0].get_xscale() == "log"   # three panels and the legend's axes
    figure_checks.assert_readable(fig)


def test_inverse_largest_settings_widget_and_player():
    lim = W.INVERSE_LIMITS
    data = W.inverse_data(n_max=max(lim["n_max"]), sigma=lim["sigma"][0], target=lim["target"][0], n_runs=5)
    assert data.ns == W.INVERSE_NS and data.pgs_median.shape == (3, len(W.INVERSE_MS))
    assert np.isinf(data.pgs_median[2, 0])       # n = 40, m = 1000: out of reach
    avg = W.inverse_runs(10, 100_000, n_runs=5, output="average")
    assert avg.output == "average" and np.all(np.isfinite(avg.pgs_needed(0.05)))
    box = W.inverse_demo(n_max=10, n_runs=5)
    assert isinstance(box, ipywidgets.VBox)
    assert set(box.controls) == {"n_max", "target", "n_runs"}
    assert box.controls["n_runs"].max == 5 and list(box.controls["n_max"].options) == [10]
    # the chapter's player: its targets are positions of the live slider, every largest n is offered
    grid = W.INVERSE_STATIC["grid"]
    specs = {s.name: s for s in plan(box, dict(grid, n_runs=(5,)))}
    assert specs["target"].values == pytest.approx(grid["target"]) and specs["n_max"].values == (10,)
    assert "n_max" not in grid and len(W.INVERSE_NS) * len(grid["target"]) <= 40
    player = static_player(box, dict(grid, target=(0.05, 0.1), n_runs=(5,)), name="t")
    assert player.n_frames == 2 and len({f["sha"] for f in player.frames.values()}) == 2
    assert "≤ 0.1 (Figure 9" in player.frames[player.key(target=0.1)]["alt"]
    for bad in (dict(n=30, m=1000), dict(n=10, m=5000), dict(n=10, m=1000, sigma=1.0),
                dict(n=10, m=1000, output="random")):
        with pytest.raises(ValueError):
            W.inverse_runs(**bad)
    with pytest.raises(ValueError, match="range"):
        W.inverse_data(target=0.2)
    with pytest.raises(ValueError, match="n_max"):
        W.inverse_demo(n_max=30)


# ---------------------------------------------------------------------------------------------- demo (b)
def test_text_sets_and_tuned_sigma():
    sets = W.text_sets()
    assert sets.X.shape == (max(W.TEXT_MS), 47236)
    assert abs(sets.X.nnz / np.prod(sets.X.shape) - 0.0016) < 0.0001
    assert sets.X_test.shape[0] == sets.X_val.shape[0] == W.TEXT_N_HELDOUT
    # sigma(m) is the best of the grid on the validation set, and it does not grow with m
    for p in (2.0, 1.8):
        sig = [W.TEXT_SIGMA[(p, m)] for m in W.TEXT_MS]
        assert all(a >= b for a, b in zip(sig, sig[1:]))
        for m in W.TEXT_MS:
            acc = W.TEXT_VALIDATION[(p, m)]
            assert acc[W.TEXT_SIGMA_GRID.index(W.TEXT_SIGMA[(p, m)])] == max(acc)
    assert W.TEXT_SIGMA[(2.0, 100_000)] == 1e-5 and W.TEXT_SIGMA[(1.8, 100_000)] == 3e-6
    assert "synthetic stand-in for CCAT" in W.STAND_IN


def test_text_figures_and_table2():
    data = W.text_data(n_seeds=1)
    fig = W.text_figure(n_seeds=1)
    assert_solvers_in_their_colours(fig)
    assert len(fig.axes) == 4 and "synthetic stand-in for CCAT" in fig._suptitle.get_text()
    figure_checks.assert_readable(fig)
    for cfg in W.TEXT_CONFIGS:
        it = data.pgs_iterations[cfg]
        # every level up to 92 % is reached at every m, and a higher level takes longer
        assert np.all(np.isfinite(it[:3]))
        assert np.all(np.diff(it, axis=0)[np.isfinite(np.diff(it, axis=0))] >= 0)
        # the exact optimum gets more accurate with more data
        assert np.all(np.diff(data.lbfgs_accuracy[cfg]) > 0) and data.lbfgs_accuracy[cfg][-1] > 0.94
        assert np.all(np.isfinite(data.lbfgs_iterations[cfg][:3]))
    fixed = W.fixed_sigma_data(level=0.92, n_seeds=1)
    assert fixed.iterations.shape == (len(W.FIXED_SIGMAS), len(W.TEXT_MS))
    # the runs at the tuned sigma are the runs of the text figure's p = 2
    np.testing.assert_array_equal(fixed.tuned_iterations, data.pgs_iterations[(2.0, 1)][2])
    assert np.all(fixed.best_iterations <= fixed.tuned_iterations)
    fig = W.fixed_sigma_figure(level=0.92, n_seeds=1)
    assert_solvers_in_their_colours(fig)
    assert len(fig.axes) == 2 and "synthetic stand-in for CCAT" in fig._suptitle.get_text()
    figure_checks.assert_readable(fig)
    rows = W.table2_data(n_seeds=1)
    assert [(r["p"], r["k"]) for r in rows] == list(W.TEXT_CONFIGS)
    for r in rows:
        assert 0.9 < r["pgs_accuracy"] <= r["lbfgs_accuracy"] + 0.01


def test_text_widgets_players_and_range_errors():
    box = W.text_demo(n_seeds=1)
    assert set(box.controls) == {"n_seeds"} and box.controls["n_seeds"].max == 1
    assert [len(s.values) for s in plan(box, W.TEXT_STATIC["grid"])] == [1]
    fixed = W.fixed_sigma_demo(n_seeds=1)
    assert set(fixed.controls) == {"level", "n_seeds"}
    # the chapter's player of the second figure: every level (read off the same runs) and every number of seeds
    player = static_player(fixed, W.FIXED_SIGMA_STATIC["grid"], name="t")
    assert [c.values for c in player.controls] == [W.TEXT_LEVELS, (1,)]
    assert player.n_frames == len(W.TEXT_LEVELS) and len({f["sha"] for f in player.frames.values()}) == 4
    assert "level = 0.93" in player.frames[player.key(level=0.93)]["alt"]
    html = player.html()
    assert 'class="l1lab-player-data"' in html and '"name":"t"' in html
    assert html.count("data:image/png") == 1 + 4      # the first frame, and every frame in the manifest
    with pytest.raises(ValueError, match="range"):
        W.text_data(n_seeds=6)
    with pytest.raises(ValueError, match="level"):
        W.fixed_sigma_data(level=0.95)
    with pytest.raises(ValueError, match="m must"):
        W.text_runs(2.0, 1, 30_000)
    with pytest.raises(ValueError, match="k must"):
        W.text_runs(2.0, 0, 10_000)
    with pytest.raises(ValueError, match="tuned sigma"):
        W.text_runs(1.5, 1, 10_000)
    with pytest.raises(ValueError, match="m must"):
        W.tune_text_sigma(2.0, 5_000)


# ---------------------------------------------------------------------------------------------- demo (c)
def test_k_figure_largest_k_and_widget():
    data = W.k_data(p=1.8, level=0.92, n_seeds=1)
    assert data.ks == W.K_VALUES and max(data.ks) == 1000 and data.n == 47236
    med = data.median()
    assert np.all(np.isfinite(med)) and np.all(np.diff(med) < 0)         # fewer iterations with larger k ...
    ratio = data.examples.max() / data.examples.min()
    assert ratio < 3                                                      # ... but about the same examples
    # Figure 2's O(n) norm costs more per iteration than the running norm at small k, not much more at k ~ n/d
    assert data.step_exact[0] > 3 * data.step_running[0]
    assert data.step_exact[-1] < 3 * data.step_running[-1]
    fig = W.k_figure(p=1.8, level=0.92, n_seeds=1)
    assert_solvers_in_their_colours(fig)
    assert len(fig.axes) == 4
    figure_checks.assert_readable(fig)
    box = W.k_demo(n_seeds=1)
    assert set(box.controls) == {"p", "level", "n_seeds"}
    # the chapter's player offers every position: both p, every level, every number of seeds the widget has
    assert [len(s.values) for s in plan(box, W.K_STATIC["grid"])] == [2, len(W.TEXT_LEVELS), 1]
    with pytest.raises(ValueError, match="p must"):
        W.k_data(p=1.5)
    with pytest.raises(ValueError, match="k must"):
        W.step_seconds(2.0, 0)


# ---------------------------------------------------------------------------------------------- demo (d)
def test_bounds_hold_at_the_defaults():
    data = W.bounds_data()
    assert data.B is None and data.L == pytest.approx(zhu.loss_lipschitz_constant(
        np.asarray(W.bounds_problem().X), "logistic", 2.0))
    # Theorem 1 bounds the mean over seeds at every checkpoint, and the 1 - delta quantile with delta
    assert np.all(data.gaps.mean(axis=0) <= data.theorem1)
    assert np.all(np.quantile(data.gaps, 1 - data.delta, axis=0) <= data.theorem1_delta)
    # Lemma 1 bounds every run's regret at every horizon, Corollary 1 bounds Lemma 1
    assert np.all(data.regret <= data.lemma1 * (1 + 1e-9)) and np.all(data.regret > 0)
    assert np.all(data.lemma1 <= data.corollary1[None, :] * (1 + 1e-12))
    assert all(r > 1 for r in data.ratios())
    fig = W.bounds_figure()
    assert_solvers_in_their_colours(fig)
    assert len(fig.axes) == 2
    figure_checks.assert_readable(fig)


def test_bounds_largest_settings_widget_and_player():
    lim = W.BOUNDS_LIMITS
    data = W.bounds_data(loss="squared", p=lim["p"][0], sigma=lim["sigma"][0], n_seeds=lim["n_seeds"][1],
                         delta=lim["delta"][0])
    assert data.B == pytest.approx(zhu.least_squares_radius(W.bounds_problem("squared").smooth(np.zeros(10)),
                                                            lim["sigma"][0], lim["p"][0]))
    assert data.gaps.shape[0] == lim["n_seeds"][1]
    assert np.all(data.gaps.mean(axis=0) <= data.theorem1)
    assert np.all(data.regret <= data.lemma1 * (1 + 1e-9))
    hinge = W.bounds_data(loss="hinge", n_seeds=5)
    assert np.all(hinge.regret <= hinge.lemma1 * (1 + 1e-9))
    box = W.bounds_demo(n_seeds=5)
    assert set(box.controls) == {"loss", "p", "sigma", "n_seeds", "delta"}
    # the chapter's player: sigma from 0.01 to 1 (slider positions and the start), the widget's start elsewhere
    grid = W.BOUNDS_STATIC["grid"]
    specs = {s.name: s for s in plan(box, dict(grid, n_seeds=(5,)))}
    assert specs["sigma"].values == pytest.approx(grid["sigma"])
    assert specs["sigma"].values[specs["sigma"].default] == W.BOUNDS_DEFAULTS["sigma"]
    assert specs["loss"].values == ("logistic", "squared") and len(grid["loss"]) * len(grid["sigma"]) <= 40
    player = static_player(box, dict(grid, sigma=(0.05, 1.0), n_seeds=(5,), loss=("logistic",)), name="t")
    assert player.n_frames == 2 and len({f["sha"] for f in player.frames.values()}) == 2
    assert "σ = 1, m = 200" in player.frames[player.key(sigma=1.0)]["alt"]
    with pytest.raises(ValueError, match="range"):
        W.bounds_data(p=1.0)
    with pytest.raises(ValueError, match="loss"):
        W.bounds_data(loss="absolute")


# ---------------------------------------------------------------------------------------------- live widgets
def _count_solver_calls(monkeypatch):
    """Record every call of the solvers the demos run (PGS, the monitored runs, L-BFGS) from now on."""
    calls = []
    for name in ("run_until", "pgs", "lbfgs"):
        real = getattr(W, name)

        def counted(*args, _real=real, _name=name, **kw):
            calls.append(_name)
            return _real(*args, **kw)
        monkeypatch.setattr(W, name, counted)
    return calls


def _visit_every_position(box, names=None):
    """Move the controls (all, or ``names``) of a widget through their positions (a float slider: its ends) and
    back to where they were."""
    for name in names or box.controls:
        ctrl = box.controls[name]
        start = ctrl.value
        if hasattr(ctrl, "options"):
            values = [o[1] if isinstance(o, tuple) else o for o in ctrl.options]
        elif isinstance(ctrl, ipywidgets.IntSlider):
            values = list(range(ctrl.min, ctrl.max + 1, ctrl.step))
        else:
            values = [ctrl.min, ctrl.max]
        for v in values:
            ctrl.value = v
        ctrl.value = start


def test_fewer_runs_are_the_first_of_more():
    # demo (a): the runs are cached per seed; 5 runs are the first 5 of 10, and each is the run computed fresh
    more = W.inverse_runs(10, 10_000, n_runs=10)
    fewer = W.inverse_runs(10, 10_000, n_runs=5)
    X, y, w_star = W.gaussian_toy(10)
    prob = Problem(X[:10_000], y[:10_000], "logistic", 0.0)
    for s in (0, 9):
        fresh = W.run_until(prob, W.INVERSE_T_MAX, 1e-2, lambda w: direction_error(w, w_star),
                            stop=lambda v: v <= W.INVERSE_LIMITS["target"][0],
                            n_checkpoints=W.INVERSE_CHECKPOINTS, seed=s, output="last")
        np.testing.assert_array_equal(more.curves[s].iteration, fresh.iteration)
        np.testing.assert_array_equal(more.curves[s].value, fresh.value)
    for a, b in zip(fewer.curves, more.curves):
        np.testing.assert_array_equal(a.value, b.value)
    assert more.hat_error == fewer.hat_error
    # demo (b): the same for the text runs
    two = W.text_runs(2.0, 1, 20_000, n_seeds=2)
    sets = W.text_sets()
    fresh = W.run_until(sets.problem(20_000), W.text_iterations(1), W.TEXT_SIGMA[(2.0, 20_000)], sets.accuracy,
                        stop=lambda v: v >= max(W.TEXT_LEVELS), n_checkpoints=W.TEXT_CHECKPOINTS, seed=1,
                        output="last")
    np.testing.assert_array_equal(two.curves[1].value, fresh.value)
    np.testing.assert_array_equal(W.text_runs(2.0, 1, 20_000, n_seeds=1).curves[0].value, two.curves[0].value)
    # demo (d): the gaps of 5 seeds are the first 5 of 10, the runs computed fresh; delta changes nothing computed
    ten = W.bounds_data(n_seeds=10)
    five = W.bounds_data(n_seeds=5, delta=0.3)
    np.testing.assert_array_equal(five.gaps, ten.gaps[:5])
    np.testing.assert_array_equal(five.regret, ten.regret)
    run = pgs(W.bounds_problem(), W.BOUNDS_T, 0.05, seed=7, output="random", n_checkpoints=30)
    np.testing.assert_array_equal(ten.gaps[7], np.maximum(run.trace.objective[1:] - ten.f_hat, 0.0))
    assert five.delta == 0.3 and np.all(five.theorem1_delta < ten.theorem1_delta)


def test_inverse_widget_moves_are_lookups(monkeypatch):
    box = W.inverse_demo(n_max=20, n_runs=10)             # the runs of every position, when the widget is built
    assert list(box.controls["n_max"].options) == [10, 20] and box.controls["n_runs"].step == 5
    calls = _count_solver_calls(monkeypatch)
    _visit_every_position(box)
    assert calls == []
    with pytest.raises(ValueError, match="output"):
        W.inverse_demo(output="random")


def test_text_and_k_widget_moves_are_lookups(monkeypatch):
    boxes = [W.fixed_sigma_demo(n_seeds=1), W.k_demo(n_seeds=1)]     # k_demo: both p, when it is built
    calls = _count_solver_calls(monkeypatch)
    for box in boxes:
        _visit_every_position(box)
    assert calls == []


def test_bounds_widget_delta_and_fewer_seeds_are_lookups(monkeypatch):
    box = W.bounds_demo(n_seeds=10, sigma=0.2)            # a setting no other test runs
    calls = _count_solver_calls(monkeypatch)
    _visit_every_position(box, ["delta"])
    box.controls["n_seeds"].value = 5
    assert calls == []
    box.controls["n_seeds"].value = 15                     # five more seeds: five more runs, nothing else
    assert calls == ["pgs"] * 5


# ---------------------------------------------------------------------------------------------- the lectures' claims
def test_pgs_path_is_every_iterate_of_pgs():
    prob = W.bounds_problem()
    path = W.pgs_path(prob, 40, 0.05, p=1.5, k=3, B=0.8, seed=4)
    assert path.shape == (41, prob.d) and np.all(path[0] == 0)
    last = pgs(prob, 40, 0.05, p=1.5, k=3, B=0.8, seed=4, output="last").w
    np.testing.assert_array_equal(path[-1], last)


def test_strong_convexity_radius_and_conjugate_claims():
    ratios = W.strong_convexity_ratios(n_pairs=300)
    assert min(ratios.values()) >= 1 - 1e-9 and ratios[2.0] == pytest.approx(1.0, abs=1e-9)
    rad = W.radius_check(sigma=0.01, p=2.0)
    # the paper's radius cuts off the optimum, the corrected one contains it
    assert rad["r_hat"] > max(rad["F_hat"], rad["F0"]) and rad["paper_radius"] < rad["norm_hat"] <= rad["radius"]
    c = W.conjugate_check(p=1.5, B=0.5)
    assert c["free_norm"] > 0.5 and c["right_norm"] == pytest.approx(0.5, rel=1e-12) and c["printed_norm"] > 0.5
    assert c["argmax_diff"] < 1e-6 and c["formula_diff"] < 1e-12 and c["free_diff"] < 1e-12
    assert c["value"] == pytest.approx(c["conjugate"], abs=1e-12) and c["numerical_max"] <= c["conjugate"] + 1e-9


def test_regret_and_theorem1_slips_are_measured():
    assert np.all(W.first_round_regrets() > 0) and W.printed_corollary1_from() == 3
    pn = W.played_vs_next(n_runs=60)
    assert abs(pn["played"]) < 3 * pn["played_half"] + 0.01          # zero within the noise at w_{t-1}
    assert pn["next"] + 3 * pn["next_half"] < 0                       # clearly negative at w_t
    # the sample minimum is optimistic: far below F_hat(w_hat) for short horizons, below it for long ones
    f_hat, mins = W.sample_minimum_means(Ts=(5, 100), n_draws=100)
    assert mins[5][0] + 3 * mins[5][1] < f_hat and mins[100][0] < f_hat and mins[5][0] < mins[100][0]


def test_theorem2_factor_and_the_two_norms():
    t2 = W.theorem2_factor_check()
    assert t2["numerical"] == pytest.approx(t2["derived"], rel=1e-9) == pytest.approx(2 * t2["printed"], rel=1e-12)
    assert t2["T_derived"] == pytest.approx(1_000) and t2["m0_derived"] == pytest.approx(4 * t2["m0_printed"])
    nm = W.norm_implementations(n_iter=500)
    assert nm["rel_diff"] < 1e-6 and nm["recomputes_exact"] == 500 and nm["recomputes_running"] < 50
    assert nm["n"] == 47236 and 60 < nm["d"] < 90


def test_the_toy_needs_the_identity_covariance():
    bias = W.condition_bias(sigmas=(1e-2,), m=50_000)
    assert bias[1e-2] > 0.05
