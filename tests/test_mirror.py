import math

import numpy as np
import pytest

from l1lab import Problem, reference_solution, solvers
from l1lab.data import make_classification, make_regression
from l1lab.links import link_inverse, smidas_p
from l1lab.theory import shalev_shwartz_tewari as sst


def naive_smidas(prob, rows, eta, p):
    """Algorithm 3 written directly from the paper, dense and O(d) per step."""
    theta = np.zeros(prob.d)
    w = np.zeros(prob.d)
    X = prob.X.toarray() if prob.is_sparse else np.asarray(prob.X)
    for i in rows:
        v = prob.loss.deriv(X[i] @ w, prob.y[i]) * X[i]
        tt = theta - eta * v
        theta = np.sign(tt) * np.maximum(0.0, np.abs(tt) - eta * prob.lam)
        w = link_inverse(theta, p)
    return w


def naive_sgd(prob, rows, eta):
    w = np.zeros(prob.d)
    X = np.asarray(prob.X)
    for i in rows:
        v = prob.loss.deriv(X[i] @ w, prob.y[i]) * X[i]
        w = w - eta * (v + prob.lam * np.sign(w))
    return w


def naive_langford(prob, rows, eta, g, K, theta):
    w = np.zeros(prob.d)
    X = np.asarray(prob.X)
    for t, i in enumerate(rows, start=1):
        w = w - eta * prob.loss.deriv(X[i] @ w, prob.y[i]) * X[i]
        if t % K == 0:
            small = np.abs(w) <= theta
            w[small] = np.sign(w[small]) * np.maximum(0.0, np.abs(w[small]) - K * eta * g)
    return w


def _rows(seed, m, n):
    return np.random.default_rng(seed).integers(0, m, size=n)


@pytest.mark.parametrize("loss", ["logistic", "squared", "hinge"])
@pytest.mark.parametrize("sparse", [False, True])
def test_smidas_follows_algorithm_3(loss, sparse):
    gen = make_regression if loss == "squared" else make_classification
    X, y, _ = gen(40, 30, 4, density=0.3 if sparse else 1.0, seed=2)
    prob = Problem(X, y, loss, 0.01)
    p = smidas_p(prob.d)
    res = solvers.smidas(prob, 300, eta=0.1, seed=3)
    np.testing.assert_allclose(res.w, naive_smidas(prob, _rows(3, prob.m, 300), 0.1, p), rtol=1e-9, atol=1e-12)
    assert res.info["p"] == pytest.approx(2 * math.log(30))
    assert solvers.smidas(prob, 10, eta=0.1, p_rounded=True).info["p"] == math.ceil(2 * math.log(30))


@pytest.mark.parametrize("sparse", [False, True])
def test_truncgrad_lazy_equals_eager(sparse):
    X, y, _ = make_classification(60, 80, 5, density=0.1 if sparse else 1.0, seed=4)
    prob = Problem(X, y, "logistic", 0.02)
    lazy = solvers.truncgrad(prob, 2000, eta=0.2, seed=5)
    eager = naive_smidas(prob, _rows(5, prob.m, 2000), 0.2, 2.0)
    np.testing.assert_allclose(lazy.w, eager, rtol=1e-10, atol=1e-12)
    avg = solvers.truncgrad(prob, 2000, eta=0.2, seed=5, output="average")
    assert avg.info["variant"] == "smidas"
    # the averaged run takes the same examples, so its last iterate is the same
    np.testing.assert_allclose(solvers.smidas(prob, 2000, eta=0.2, p=2.0, seed=5).w, lazy.w, rtol=1e-10, atol=1e-12)


def test_truncgrad_langford_and_sgd_follow_their_updates():
    X, y, _ = make_classification(50, 20, 3, seed=6)
    prob = Problem(X, y, "logistic", 0.01)
    res = solvers.truncgrad(prob, 500, eta=0.1, seed=7, variant="langford", gravity=0.05, period=3, threshold=0.4)
    np.testing.assert_allclose(res.w, naive_langford(prob, _rows(7, prob.m, 500), 0.1, 0.05, 3, 0.4), rtol=1e-10,
                               atol=1e-13)
    res = solvers.sgd(prob, 500, eta=0.1, seed=8)
    np.testing.assert_allclose(res.w, naive_sgd(prob, _rows(8, prob.m, 500), 0.1), rtol=1e-10, atol=1e-13)


def test_outputs_random_and_average():
    X, y, _ = make_classification(40, 10, 3, seed=9)
    prob = Problem(X, y, "logistic", 0.01)
    n = 200
    rng = np.random.default_rng(1)
    cps = solvers.smidas(prob, n, eta=0.1, seed=1, n_checkpoints=5).trace.iteration
    r = np.array([rng.integers(0, T) if T > 0 else 0 for T in cps])
    rows = rng.integers(0, prob.m, size=n)  # the example stream is drawn after the output indices
    res = solvers.smidas(prob, n, eta=0.1, seed=1, n_checkpoints=5, output="random")
    p = smidas_p(prob.d)
    for k, T in enumerate(cps):
        w_r = naive_smidas(prob, rows[:r[k]], 0.1, p)
        assert res.trace.objective[k] == pytest.approx(prob.objective(w_r), rel=1e-10)
    np.testing.assert_allclose(res.w, naive_smidas(prob, rows[:r[-1]], 0.1, p), rtol=1e-9, atol=1e-12)
    avg = solvers.sgd(prob, 50, eta=0.1, seed=2, output="average")
    rows = np.random.default_rng(2).integers(0, prob.m, size=50)
    iterates = [naive_sgd(prob, rows[:t], 0.1) for t in range(50)]
    np.testing.assert_allclose(avg.w, np.mean(iterates, axis=0), rtol=1e-10, atol=1e-13)


def test_smidas_iterates_stay_sparse_where_sgd_do_not():
    """A MAGIC04S-like problem: 10 informative features plus 300 irrelevant ones that are 1 with probability
    0.05.  Truncation sets irrelevant coordinates to exactly 0 between their rare kicks; SGD's sub-gradient
    makes them oscillate around 0 without landing on it."""
    from l1lab.data import add_random_features

    X0, y, _ = make_classification(2000, 10, 5, flip=0.05, seed=10)
    prob = Problem(add_random_features(X0, 300, "sparse", seed=1), y, "logistic", 0.05)
    _, p_star = reference_solution(prob)
    a = solvers.smidas(prob, 20_000, eta=0.1, seed=0)
    b = solvers.sgd(prob, 20_000, eta=0.01, seed=0)
    assert a.trace.nnz[-1] <= 0.4 * prob.d
    assert b.trace.nnz[-1] >= 0.95 * prob.d
    # and SMIDAS is not sparse by being useless: both are within 10% of the optimum
    assert a.objective - p_star < 0.1 * p_star and b.objective - p_star < 0.1 * p_star


def test_data_accesses_and_reproducibility(sparse_classification):
    prob = Problem(*sparse_classification, "logistic", 1e-3)
    a = solvers.smidas(prob, 3000, eta=0.1, seed=4)
    b = solvers.smidas(prob, 3000, eta=0.1, seed=4)
    np.testing.assert_array_equal(a.w, b.w)
    rows = np.random.default_rng(4).integers(0, prob.m, size=3000)
    assert a.trace.data_accesses[-1] == prob.row_nnz[rows].sum()
    assert not np.array_equal(a.w, solvers.smidas(prob, 3000, eta=0.1, seed=5).w)


def _bound_problem(loss, seed):
    gen = make_regression if loss == "squared" else make_classification
    X, y, _ = gen(60, 30, 3, seed=seed)
    prob = Problem(X, y, loss, 0.05 * Problem(X, y, loss, 1.0).lambda_max)
    w_star, p_star = reference_solution(prob)
    return prob, np.abs(w_star).sum(), p_star


def test_theorem3_case13_over_seeds():
    """Logistic loss, (13) with rho = 1: mean over 20 seeds of P(w_r) - P* below the bound at every checkpoint,
    with the step size Theorem 3 prescribes for the final T."""
    prob, w1, p_star = _bound_problem("logistic", 1)
    p = smidas_p(prob.d)
    T = 3000
    eta = sst.smidas_eta_lipschitz(T, 1.0, w1, p, prob.d)
    runs = [solvers.smidas(prob, T, eta=eta, seed=s, output="random", n_checkpoints=20) for s in range(20)]
    its = runs[0].trace.iteration[1:]
    gaps = np.array([r.trace.gap(p_star)[1:] for r in runs])
    bound = sst.smidas_bound_lipschitz(eta, its, 1.0, w1, p, prob.d)
    assert np.all(gaps.mean(axis=0) <= bound)
    assert gaps.mean(axis=0)[-1] < 0.5 * (np.log(2) - p_star)  # progress: not a vacuous comparison


@pytest.mark.parametrize("loss,rho", [("squared", 2.0), ("logistic", 0.5)])
def test_theorem3_case14_over_seeds(loss, rho):
    prob, w1, p_star = _bound_problem(loss, 2)
    assert rho == sst.loss_condition_14(loss)
    p = smidas_p(prob.d)
    p0 = prob.objective(np.zeros(prob.d))
    T = 3000
    eta = sst.smidas_eta_self_bounded(T, rho, w1, p0, p, prob.d)
    runs = [solvers.smidas(prob, T, eta=eta, seed=s, output="random", n_checkpoints=20) for s in range(20)]
    its = runs[0].trace.iteration[1:]
    gaps = np.array([r.trace.gap(p_star)[1:] for r in runs])
    bound = sst.smidas_bound_self_bounded(eta, its, rho, w1, p0, p, prob.d)
    assert np.all(gaps.mean(axis=0) <= bound)
    assert sst.smidas_rate_self_bounded(T, rho, w1, p0, p, prob.d) >= bound[-1] * (1 - 1e-12)


def test_proposition4_over_seeds():
    prob, w1, p_star = _bound_problem("logistic", 3)
    p = smidas_p(prob.d)
    K = 1.0
    eta = sst.smidas_prop4_eta(K, 0.5, p, prob.d)
    runs = [solvers.smidas(prob, 3000, eta=eta, seed=s, output="random", n_checkpoints=15) for s in range(20)]
    its = runs[0].trace.iteration[1:]
    mean_p = np.array([r.trace.objective[1:] for r in runs]).mean(axis=0)
    assert np.all(mean_p <= sst.smidas_prop4_bound(K, its, 0.5, w1, p_star, p, prob.d))


def test_bad_input_errors(small_classification):
    prob = Problem(*small_classification, "logistic", 0.01)
    for bad in (0.0, -1.0, np.inf, np.nan):
        with pytest.raises(ValueError, match="eta"):
            solvers.smidas(prob, 10, eta=bad)
    with pytest.raises(ValueError, match="output"):
        solvers.sgd(prob, 10, eta=0.1, output="best")
    with pytest.raises(ValueError, match="p must be >= 2"):
        solvers.smidas(prob, 10, eta=0.1, p=1.5)
    with pytest.raises(ValueError, match="variant"):
        solvers.truncgrad(prob, 10, eta=0.1, variant="other")
    with pytest.raises(ValueError, match="period"):
        solvers.truncgrad(prob, 10, eta=0.1, variant="langford", period=0)
    with pytest.raises(ValueError, match="n_iter"):
        solvers.truncgrad(prob, -5, eta=0.1)
    with pytest.raises(TypeError, match="Problem"):
        solvers.smidas(np.eye(2), 10, eta=0.1)
