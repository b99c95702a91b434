"""Sample weights in a Problem: C(w) = sum_i s_i L(<w, x_i>, y_i) / sum_i s_i, solved and certified by the
working-set solver and refused by the papers' algorithms.

What is stated here: the weighted C, its gradient and lambda_max are those of the formulas, computed here
independently; integer weights give the problem of the repeated rows (its optimum from the reference solver, an
independent code), for both losses, dense and sparse, with an intercept; real weights give the optimum of an
independent L-BFGS-B on the split form w = u - v; the weighted duality gap bounds the true sub-optimality at
random points and equals P(w) - D(u) for the weighted dual written out here; every other public solver refuses a
weighted Problem, and bad weights are refused with a reason.
"""
import inspect

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import minimize
from scipy.special import expit, log1p, xlogy

import l1lab.solvers as solvers
from l1lab import Problem, reference_solution
from l1lab.estimators import default_eta
from l1lab.solvers import regularization_path, working_set_cd
from l1lab.solvers.working_set import duality_gap

WEIGHTED_SOLVERS = {"working_set_cd", "regularization_path"}


def _data(loss, m=90, d=40, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1.0, 1.0, (m, d)) * (rng.random((m, d)) < 0.5)
    X[:, -1] = 1.0                                   # an intercept column, unpenalized
    w_true = np.zeros(d)
    w_true[:4] = [1.5, -1.0, 0.8, 0.5]
    t = X @ w_true + 0.3 * rng.standard_normal(m)
    y = t if loss == "squared" else np.where(t > 0, 1.0, -1.0)
    counts = rng.integers(1, 4, m)                   # integer weights 1..3
    return X, y, counts, np.r_[np.ones(d - 1), 0.0]


def _smooth(loss, X, y, s, w):
    z = X @ w
    values = 0.5 * (z - y) ** 2 if loss == "squared" else np.logaddexp(0.0, -y * z)
    return float(s @ values) / s.sum()


def _deriv(loss, X, y, w):
    z = X @ w
    return z - y if loss == "squared" else -y * expit(-y * z)


@pytest.mark.parametrize("loss", ["squared", "logistic"])
def test_weighted_smooth_part_gradient_and_lambda_max_follow_their_formulas(loss):
    X, y, counts, c = _data(loss)
    s = counts * 0.7
    prob = Problem(X, y, loss, 0.01, penalty_weights=c, sample_weight=s)
    np.testing.assert_allclose(prob.sample_weight.mean(), 1.0, rtol=1e-15)
    w = np.random.default_rng(1).standard_normal(X.shape[1]) * 0.3
    assert prob.smooth(w) == pytest.approx(_smooth(loss, X, y, s, w), rel=1e-13)
    grad = X.T @ (s * _deriv(loss, X, y, w)) / s.sum()
    np.testing.assert_allclose(prob.gradient(w), grad, rtol=1e-12, atol=1e-15)
    # lambda_max: the largest |gradient| of the penalized coordinates at the weighted intercept-only fit
    b = minimize(lambda v: _smooth(loss, X, y, s, np.r_[np.zeros(X.shape[1] - 1), v[0]]), [0.0],
                 method="Nelder-Mead", options={"xatol": 1e-12, "fatol": 1e-15}).x[0]
    w0 = np.r_[np.zeros(X.shape[1] - 1), b]
    g0 = X.T @ (s * _deriv(loss, X, y, w0)) / s.sum()
    assert prob.lambda_max == pytest.approx(np.abs(g0[:-1]).max(), rel=1e-6)
    np.testing.assert_allclose(prob.column_sq_norms(), (X ** 2).T @ s / s.sum(), rtol=1e-13)


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("loss", ["squared", "logistic"])
def test_integer_weights_solve_the_problem_of_the_repeated_rows(loss, sparse):
    X, y, counts, c = _data(loss)
    rows = np.repeat(np.arange(len(y)), counts)
    as_stored = (lambda A: sp.csc_matrix(A)) if sparse else (lambda A: A)
    repeated = Problem(as_stored(X[rows]), y[rows], loss, 1.0, penalty_weights=c)
    lam = 0.05 * repeated.lambda_max
    repeated = Problem(as_stored(X[rows]), y[rows], loss, lam, penalty_weights=c)
    weighted = Problem(as_stored(X), y, loss, lam, penalty_weights=c, sample_weight=counts)
    assert weighted.lambda_max == pytest.approx(repeated.lambda_max, rel=1e-10)
    w_ref, p_star = reference_solution(repeated, tol=1e-12)
    res = working_set_cd(weighted, tol=1e-13)
    assert res.info["converged"] and res.info["inner"] == "newton"
    assert np.count_nonzero(res.w[:-1]) >= 3
    assert weighted.objective(res.w) - p_star <= res.info["gap"] + 1e-14   # the certificate holds
    assert res.info["gap"] <= 1e-13 * weighted.objective(weighted.null_solution())
    np.testing.assert_allclose(res.w, w_ref, rtol=0, atol=1e-7)
    assert weighted.objective(res.w) == pytest.approx(repeated.objective(res.w), rel=1e-13)


def _lbfgs_split(loss, X, y, s, lam, c):
    """argmin sum_i s_i L_i / sum s + lam sum_j c_j |w_j| by L-BFGS-B on w = u - v, u, v >= 0 (the unpenalized
    coordinates free in u): an independent solver."""
    d = X.shape[1]
    pen = c > 0

    def fun(uv):
        w = uv[:d] - uv[d:]
        z = X @ w
        if loss == "squared":
            values, deriv = 0.5 * (z - y) ** 2, z - y
        else:
            values, deriv = np.logaddexp(0.0, -y * z), -y * expit(-y * z)
        g = X.T @ (s * deriv) / s.sum()
        f = float(s @ values) / s.sum() + lam * float(c @ (uv[:d] + uv[d:]))
        return f, np.r_[g + lam * c, -g + lam * c]

    bounds = [(0, None) if p else (None, None) for p in pen] + [(0, None) if p else (0, 0) for p in pen]
    res = minimize(fun, np.zeros(2 * d), jac=True, method="L-BFGS-B", bounds=bounds,
                   options={"maxiter": 100_000, "maxfun": 100_000, "ftol": 1e-16, "gtol": 1e-12, "maxcor": 30})
    return res.x[:d] - res.x[d:], res.fun


@pytest.mark.parametrize("loss", ["squared", "logistic"])
def test_real_weights_reach_the_optimum_of_an_independent_solver(loss):
    X, y, _, c = _data(loss, seed=3)
    s = np.random.default_rng(4).uniform(0.05, 5.0, len(y))
    prob = Problem(X, y, loss, 1.0, penalty_weights=c, sample_weight=s)
    lam = 0.08 * prob.lambda_max
    prob = Problem(X, y, loss, lam, penalty_weights=c, sample_weight=s)
    res = working_set_cd(prob, tol=1e-13)
    w_ref, p_ref = _lbfgs_split(loss, X, y, s, lam, c)
    assert np.count_nonzero(res.w[:-1]) >= 3
    assert prob.objective(res.w) <= p_ref + 1e-12                   # certified: never worse than L-BFGS-B
    assert p_ref - prob.objective(res.w) <= 1e-8                    # and L-BFGS-B is close behind
    np.testing.assert_allclose(res.w, w_ref, rtol=0, atol=1e-3)


def _weighted_dual(prob, w, s):
    """D(u) of the weighted problem at the dual point the solver builds, written out from its formulas: u from
    the weighted residuals, balanced over the classes (logistic with an intercept) or made orthogonal to the
    intercept (squared), then scaled into the box |X^T u|_j <= lam_j."""
    X, y, m = prob.X, prob.y, prob.m
    s = s / s.mean()
    z = X @ w
    lam_j = prob.lam_vector
    if prob.loss.name == "squared":
        u = -s * (z - y) / m
        u = u - u.mean()                            # orthogonal to the intercept column of ones
        ratio = np.abs(X.T @ u)[lam_j > 0] / lam_j[lam_j > 0]
        u *= min(1.0, 1.0 / ratio.max())
        return float(u @ y) - 0.5 * m * float(u @ (u / s))
    t = expit(-y * z)
    pos = y > 0
    a, b = float(s[pos] @ t[pos]), float(s[~pos] @ t[~pos])
    big = pos if a > b else ~pos
    t[big] *= min(a, b) / max(a, b)
    u = y * s * t / m
    ratio = np.abs(X.T @ u)[lam_j > 0] / lam_j[lam_j > 0]
    t *= min(1.0, 1.0 / ratio.max())
    return -float(s @ (xlogy(t, t) + (1 - t) * log1p(-t))) / m


@pytest.mark.parametrize("loss", ["squared", "logistic"])
def test_the_weighted_gap_bounds_the_true_sub_optimality(loss):
    X, y, counts, c = _data(loss, m=60, d=30, seed=7)
    rows = np.repeat(np.arange(len(y)), counts)
    lam = 0.1 * Problem(X, y, loss, 1.0, penalty_weights=c, sample_weight=counts).lambda_max
    prob = Problem(X, y, loss, lam, penalty_weights=c, sample_weight=counts)
    _, p_star = reference_solution(Problem(X[rows], y[rows], loss, lam, penalty_weights=c), tol=1e-12)
    rng = np.random.default_rng(0)
    for scale in (0.0, 1e-3, 0.1, 1.0):
        w = scale * rng.standard_normal(prob.d) * (rng.random(prob.d) < 0.4)
        gap = duality_gap(prob, w)
        assert gap >= prob.objective(w) - p_star - 1e-14
        assert gap == pytest.approx(prob.objective(w) - _weighted_dual(prob, w, counts.astype(float)), rel=1e-9,
                                    abs=1e-13)
    res = working_set_cd(prob, tol=1e-10)
    assert np.all(res.trace.objective - p_star <= res.info["gaps"] + 1e-14)


def test_weighted_path_matches_single_solves():
    X, y, counts, c = _data("logistic", seed=2)
    prob = Problem(X, y, "logistic", 1.0, penalty_weights=c, sample_weight=counts)
    path = regularization_path(prob, n_lams=6, eps=0.05, tol=1e-12)
    assert path.converged.all()
    for k in (2, 5):
        single = working_set_cd(Problem(X, y, "logistic", path.lams[k], penalty_weights=c, sample_weight=counts),
                                tol=1e-12)
        np.testing.assert_allclose(path.coefs[:, k], single.w, rtol=0, atol=1e-6)


def test_equal_weights_are_the_unweighted_problem_bit_for_bit():
    X, y, _, c = _data("logistic")
    prob = Problem(X, y, "logistic", 0.01, penalty_weights=c, sample_weight=np.full(len(y), 2.5))
    assert prob.sample_weight is None
    plain = Problem(X, y, "logistic", 0.01, penalty_weights=c)
    np.testing.assert_array_equal(working_set_cd(prob).w, working_set_cd(plain).w)


def _required_args(fun):
    params = list(inspect.signature(fun).parameters.values())[1:]
    return [None] * sum(p.default is inspect.Parameter.empty and p.kind == p.POSITIONAL_OR_KEYWORD for p in params)


@pytest.mark.parametrize("name", sorted(set(solvers.__all__) - WEIGHTED_SOLVERS) + ["default_eta"])
def test_the_papers_solvers_refuse_a_weighted_problem(name):
    """Every public solver but the working-set solver (RADAR, EDA and RDA take the Problem as their finite pool,
    with lam = 0), and the stochastic solvers' default step."""
    X, y, counts, _ = _data("squared", m=20, d=5)
    prob = Problem(X, y, "squared", 0.0 if name in ("radar", "eda", "rda") else 0.01, sample_weight=counts)
    fun = default_eta if name == "default_eta" else getattr(solvers, name)
    args, kwargs = ["smidas"] if name == "default_eta" else [10] + _required_args(fun)[1:], {}
    if name in ("radar", "eda", "rda"):
        args, kwargs = {"radar": [10], "eda": [10, 0.1], "rda": [10, 0.1, 1.0]}[name], {"R1": 1.0}
        kwargs = {} if name == "rda" else kwargs
    with pytest.raises(ValueError, match="sample weights.*unweighted mean loss.*working_set_cd"):
        fun(prob, *args, **kwargs)


@pytest.mark.parametrize("weights, match", [
    (lambda m: np.r_[0.0, np.ones(m - 1)], "> 0.*remove the examples of weight 0"),
    (lambda m: -np.ones(m), "> 0"), (lambda m: np.full(m, np.nan), "NaN|finite"),
    (lambda m: np.ones(m + 1), "sample_weight.*one weight per example"),
])
def test_bad_weights_are_refused(weights, match):
    X, y, _, _ = _data("squared", m=20, d=5)
    with pytest.raises(ValueError, match=match):
        Problem(X, y, "squared", 0.01, sample_weight=weights(20))


def test_the_hinge_loss_and_the_plain_inner_solver_refuse_weights():
    X, y, counts, _ = _data("logistic", m=20, d=5)
    with pytest.raises(ValueError, match="squared and logistic losses.*not the hinge"):
        Problem(X, y, "hinge", 0.01, sample_weight=counts)
    prob = Problem(X, y, "logistic", 0.01, sample_weight=counts)
    with pytest.raises(ValueError, match='inner="cd".*unweighted.*"newton"'):
        working_set_cd(prob, inner="cd")
