"""l1lab.book.family: the demo of the lecture "One family: mirror descent and dual averaging".

The sample's regularized and constrained problems share their minimizer (against scikit-learn's Lasso and l1lab's
projected gradient); every method's mean over seeds stays below its guarantee at every checkpoint where that
guarantee applies; the figure follows the book's style.  Small horizons and few seeds: the bounds' slack at the
lecture's size is a factor of at least two (the smallest, EG+-'s, is checked here too)."""
import math

import matplotlib

matplotlib.use("Agg")
import figure_checks  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from l1lab.book import family as F  # noqa: E402
from l1lab.book.style import style_problems  # noqa: E402
from l1lab.theory import agarwal2012 as anw  # noqa: E402

T_SMALL, SEEDS_SMALL = 4_000, 3


@pytest.fixture(scope="module")
def setup():
    return F.family_setup()


def test_the_regularized_and_the_constrained_problems_share_the_minimizer(setup):
    from sklearn.linear_model import Lasso

    st = setup
    # scikit-learn's Lasso minimizes (1/2m)||y - Xw||^2 + alpha ||w||_1: the book's P with lam = alpha
    lasso = Lasso(alpha=st.lam, fit_intercept=False, tol=1e-14, max_iter=100_000).fit(st.X, st.y)
    assert np.abs(lasso.coef_ - st.w_star).max() < 1e-9
    assert np.count_nonzero(st.w_star) >= 2 and st.R == pytest.approx(np.abs(st.w_star).sum())
    # the minimizer of C on the l1 ball of radius ||w*||_1 (projected gradient, Duchi et al.) is w* again
    w_c = F.constrained_minimizer()
    assert np.abs(w_c).sum() <= st.R * (1 + 1e-12)
    assert np.abs(w_c - st.w_star).max() < 1e-7
    assert st.pool.objective(w_c) == pytest.approx(st.pool.objective(st.w_star), rel=1e-12, abs=1e-14)
    # and it is unique: X has full column rank, so C is strictly convex
    assert st.gamma > 0 and np.linalg.matrix_rank(st.X) == st.d


def test_radar_targets_the_least_squares_fit(setup):
    st = setup
    assert np.abs(st.X.T @ (st.X @ st.theta_star - st.y)).max() < 1e-10
    assert st.R1 >= np.abs(st.theta_star).sum() - 1e-12
    assert st.eps2 == pytest.approx(anw.sparsity_error(st.theta_star, F.DATA["k"]))


@pytest.mark.parametrize("name", [m for m in F.METHODS if m != "RADAR"])
def test_every_mean_is_below_its_guarantee_at_every_checkpoint(name):
    r = F.method_run(name, T=T_SMALL, n_seeds=SEEDS_SMALL)
    assert r.values.shape == (SEEDS_SMALL, r.iteration.size) and r.iteration[-1] == T_SMALL
    ok = np.isfinite(r.bound)
    assert ok.all(), f"{name}: its guarantee applies at every checkpoint"
    assert np.all(r.values >= -1e-12), f"{name}: a gap or an error below zero"
    assert np.all(r.mean < r.bound), f"{name}: the mean over seeds is above the guarantee"
    assert np.all(r.ratio() > 1.0)


def test_radar_is_below_its_theorem_where_it_applies():
    r = F.method_run("RADAR", T=40_000, n_seeds=2)
    ok = np.isfinite(r.bound)
    assert ok.any() and not ok[0], "Theorem 1 applies at the last checkpoints only"
    assert np.all(r.mean[ok] < r.bound[ok])
    assert r.extra["epochs"] >= 2


def test_the_lectures_numbers():
    """What the lecture's answer states (at its size): the order of the final gaps and of the guarantees of SMIDAS,
    TruncGrad and EG+-, and EG+-'s guarantee the tightest of the four bounds."""
    d = F.family_data()
    runs = d.runs
    assert all(np.all(r.mean[np.isfinite(r.bound)] < r.bound[np.isfinite(r.bound)]) for r in runs.values())
    assert runs["SMIDAS"].final < runs["TruncGrad"].final < runs["EG±"].final
    assert runs["SMIDAS"].bound[-1] < runs["TruncGrad"].bound[-1] < runs["EG±"].bound[-1]
    ratios = {m: r.ratio()[-1] for m, r in runs.items() if r.rigorous}
    assert set(ratios) == {"SMIDAS", "TruncGrad", "EG±", "PGS"} and min(ratios, key=ratios.get) == "EG±"
    assert 1.0 < ratios["EG±"] < 20.0
    assert math.isfinite(d.kappa_applies_from()) and d.kappa_applies_from() <= d.T


def test_the_figure_follows_the_style():
    fig = F.family_figure(T=T_SMALL, n_seeds=2)
    assert style_problems(fig) == []
    figure_checks.assert_readable(fig)
    assert len(fig.axes) == len(F.METHODS)
    for ax, name in zip(fig.axes, F.METHODS):
        assert ax.get_title().startswith(name)
        solid = [ln for ln in ax.get_lines() if ln.get_linestyle() == "-"]
        theory = [ln for ln in ax.get_lines() if ln.get_linestyle() in ("--", "-.")]
        assert len(solid) == 1 and len(theory) == 1
        assert solid[0].get_color() == theory[0].get_color()


def test_bad_arguments():
    with pytest.raises(ValueError, match="method must be one of"):
        F.method_run("SGD")
    with pytest.raises(ValueError, match="T >= 100"):
        F.method_run("SMIDAS", T=10)
