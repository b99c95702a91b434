"""l1lab.book.plotting: the standard figures draw what they say, on log axes, and never drop points silently."""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.collections import PolyCollection  # noqa: E402

import l1lab  # noqa: E402
from l1lab import reference_solution  # noqa: E402
from l1lab.book.plotting import default_floor, plot_gap_vs_bound, plot_objective_and_nnz  # noqa: E402
from l1lab.data import make_regression  # noqa: E402
from l1lab.experiments import run_seeds  # noqa: E402
from l1lab.theory import shalev_shwartz_tewari as sst  # noqa: E402


@pytest.fixture(scope="module")
def setup():
    X, y, _ = make_regression(40, 10, 3, seed=2)
    prob = l1lab.Problem(X, y, loss="squared", lam=1e-2)
    w_star, p_star = reference_solution(prob)
    runs = run_seeds(l1lab.solvers.scd, prob, range(4), n_iter=2000, n_checkpoints=25)
    psi0 = sst.scd_psi0(prob.loss.beta, w_star, prob.objective(np.zeros(prob.d)))
    return prob, p_star, runs, psi0


def _polys(ax):
    return [c for c in ax.collections if isinstance(c, PolyCollection)]


def test_gap_vs_bound_draws_mean_band_bound(setup):
    prob, p_star, runs, psi0 = setup
    fig, ax = plt.subplots()
    try:
        bound = sst.scd_expected_gap_bound(runs.iteration, prob.d, psi0)
        out = plot_gap_vs_bound(ax, runs, p_star, bound)
        assert ax.get_xscale() == "log" and ax.get_yscale() == "log"
        assert len(_polys(ax)) == 1
        n_lines = 2 + (1 if out["floor"] is not None else 0)
        assert len(ax.get_lines()) == n_lines
        # T = 0 is left out of the log axis; every other checkpoint is drawn
        assert len(out["mean"].get_xdata()) == len(runs.iteration) - 1
        np.testing.assert_allclose(out["bound"].get_ydata(), bound[1:])
        floor = default_floor(p_star)
        g = runs.gap_summary(p_star)
        np.testing.assert_allclose(out["mean"].get_ydata(), np.maximum(g.mean[1:], floor))
        # the run converges to rounding level in 2000 steps: the clipping is reported, not hidden
        assert out["n_clipped"] > 0 and out["floor"] is not None
        assert "floor" in out["floor"].get_label()
    finally:
        plt.close(fig)


def test_gap_vs_bound_callable_bound_and_shape_check(setup):
    prob, p_star, runs, psi0 = setup
    fig, ax = plt.subplots()
    try:
        out = plot_gap_vs_bound(ax, runs, p_star, lambda T: sst.scd_expected_gap_bound(T, prob.d, psi0),
                                floor=1e-30)
        assert out["floor"] is None or out["n_clipped"] > 0
        with pytest.raises(ValueError, match="checkpoints"):
            plot_gap_vs_bound(ax, runs, p_star, np.ones(3))
        with pytest.raises(ValueError, match="floor"):
            plot_gap_vs_bound(ax, runs, p_star, lambda T: T, floor=0.0)
    finally:
        plt.close(fig)


def test_gap_vs_bound_nonpositive_gaps_are_clipped_not_dropped(setup):
    prob, p_star, runs, psi0 = setup
    fig, ax = plt.subplots()
    try:
        # a p_star above every objective makes every gap negative: all points must still be drawn
        out = plot_gap_vs_bound(ax, runs, runs.objective.max() + 1.0, np.ones(len(runs.iteration)), floor=1e-8)
        y = out["mean"].get_ydata()
        assert len(y) == len(runs.iteration) - 1 and np.all(y == 1e-8)
        assert out["n_clipped"] == 3 * (len(runs.iteration) - 1)
    finally:
        plt.close(fig)


def test_objective_and_nnz_two_panels(setup):
    prob, p_star, runs, _ = setup
    res = {"SCD": runs, "cyclic CD": l1lab.solvers.cyclic_cd(prob, 2000), "GCD": l1lab.solvers.gcd(prob, 200)}
    fig, axes = plt.subplots(1, 2)
    try:
        out = plot_objective_and_nnz(axes, res, p_star)
        for name in res:
            assert name in out
        n_floor = 1 if out["floor"] is not None else 0
        assert len(axes[0].get_lines()) == 3 + n_floor
        assert len(axes[1].get_lines()) == 3
        assert len(_polys(axes[0])) == 1 and len(_polys(axes[1])) == 1  # only SeedRuns get a band
        assert axes[0].get_xscale() == "log" and axes[0].get_yscale() == "log"
        assert axes[1].get_xscale() == "log" and axes[1].get_yscale() == "linear"
        # x = data accesses, the start (x = 0) left out
        gcd_line = out["GCD"][0]
        np.testing.assert_array_equal(gcd_line.get_xdata(), res["GCD"].trace.data_accesses[1:])
        np.testing.assert_array_equal(out["GCD"][1].get_ydata(), res["GCD"].trace.nnz[1:])
        with pytest.raises(ValueError):
            plot_objective_and_nnz(axes, res, p_star, x="seconds")
    finally:
        plt.close(fig)


def test_objective_and_nnz_by_iteration(setup):
    prob, p_star, runs, _ = setup
    fig, axes = plt.subplots(1, 2)
    try:
        out = plot_objective_and_nnz(axes, {"SCD": runs}, p_star, x="iteration")
        np.testing.assert_array_equal(out["SCD"][0].get_xdata(), runs.iteration[1:])
    finally:
        plt.close(fig)
