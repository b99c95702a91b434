"""The lesson of chapters/pgs.ipynb, the page's own numpy implementation of the Primal Gradient Solver (Figures 1
and 2 of Zhu et al. 2009), gives l1lab's iterates: for several seeds, problem sizes, norms p, mini-batch sizes k,
losses, and with and without the ball S = {||w||_p <= B} (whose rescaling the runs must exercise)."""
import numpy as np
import pytest
from lessons import lesson_cells, lesson_imports, lesson_namespace

from l1lab import Problem
from l1lab.book import pgs as wp
from l1lab.data import make_classification, make_regression
from l1lab.solvers import pgs
from l1lab.solvers.pgs import grad_r_star, sample_batches

NS = lesson_namespace("pgs")


def test_the_lesson_is_plain_numpy_and_short():
    for src in lesson_cells("pgs"):
        assert lesson_imports(src) <= {"numpy", "math"}
    assert {"grad_r_star", "pgs_iterates", "logistic_deriv"} <= set(NS)


def _norm(w, p):
    return np.sum(np.abs(w) ** p, axis=-1) ** (1 / p)


@pytest.mark.parametrize("m,n", [(60, 5), (300, 25)])
@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("p,k,B", [(2.0, 1, None), (1.5, 4, 0.6), (1.8, 3, None), (1.2, 7, 0.3)])
def test_lesson_gives_l1labs_iterates_logistic(m, n, seed, p, k, B):
    X, y, _ = make_classification(m, n, 3, seed=10 + seed)
    prob = Problem(X, y, "logistic", 0.0)
    T, sigma = 250, 0.05
    ours = NS["pgs_iterates"](np.asarray(X), y, NS["logistic_deriv"], sigma, p, sample_batches(m, k, T, seed=seed), B)
    theirs = wp.pgs_path(prob, T, sigma, p=p, k=k, B=B, seed=seed)
    assert ours.shape == theirs.shape == (T + 1, n)
    np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-12)
    if B is not None:        # the ball is active: some iterates sit on its sphere
        assert np.max(_norm(theirs, p)) == pytest.approx(B, rel=1e-12)


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("m,n", [(80, 6), (250, 20)])
def test_lesson_gives_l1labs_iterates_squared_on_the_ball(seed, m, n):
    from l1lab.theory import zhu2009 as zhu
    X, y, _ = make_regression(m, n, 3, seed=20 + seed)
    prob = Problem(X, y, "squared", 0.0)
    sigma, p, T, k = 0.1, 1.6, 200, 2
    B = zhu.least_squares_radius(prob.smooth(np.zeros(n)), sigma, p) / 4     # small enough to be reached
    ours = NS["pgs_iterates"](np.asarray(X), y, lambda a, t: a - t, sigma, p, sample_batches(m, k, T, seed=seed), B)
    theirs = wp.pgs_path(prob, T, sigma, p=p, k=k, B=B, seed=seed)
    np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-12)
    assert np.max(_norm(theirs, p)) == pytest.approx(B, rel=1e-12)


@pytest.mark.parametrize("p", [2.0, 1.7, 1.3])
def test_lesson_grad_r_star_is_l1labs(p):
    rng = np.random.default_rng(5)
    for scale, B in ((0.01, 1.0), (3.0, 0.5), (1.0, None)):
        theta = rng.standard_normal(30) * scale
        np.testing.assert_allclose(NS["grad_r_star"](theta, p, B), grad_r_star(theta, p, B), rtol=1e-12, atol=1e-15)
    assert np.all(NS["grad_r_star"](np.zeros(4), p, 1.0) == 0)


# ---------------------------------------------------------------------------------------------- the second lecture
NS2 = lesson_namespace("pgs_more_data_text")


def test_the_second_lesson_is_plain_numpy():
    for src in lesson_cells("pgs_more_data_text"):
        assert lesson_imports(src) <= {"numpy", "math"}
    assert {"pgs_last_iterate", "logistic_deriv"} <= set(NS2)


@pytest.mark.parametrize("m,n_features", [(1_500, 800), (4_000, 3_000)])
@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("p,k,T", [(1.8, 1, 1_500), (2.0, 1, 1_500), (1.4, 5, 300)])
def test_sparse_lesson_gives_l1labs_last_iterate(m, n_features, seed, p, k, T):
    from l1lab.data.pgs import make_text_like
    X, y, _ = make_text_like(m, n_features=n_features, density=0.01, seed=seed)
    prob = Problem(X, y, "logistic", 0.0)
    sigma = 1e-3
    ours = NS2["pgs_last_iterate"](X.tocsr(), y, NS2["logistic_deriv"], sigma, p, sample_batches(m, k, T, seed=seed))
    theirs = pgs(prob, T, sigma, p=p, k=k, seed=seed, output="last", record_objective=False).w
    assert np.count_nonzero(theirs) > 0
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-9 * np.max(np.abs(theirs)))
