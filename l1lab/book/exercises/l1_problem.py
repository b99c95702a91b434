"""Checkers of the exercise notebook of the lectures on The ℓ1 problem."""
from __future__ import annotations

import numpy as np

from ._framework import Report, compare, fmt, small_problems

__all__ = ["check_lambda_max", "check_objective", "check_optimality_residual", "check_path_segment",
           "check_prox_elastic_net", "check_rho_tight_logistic", "check_soft_threshold", "check_weighted_lambda_max"]


def check_soft_threshold(f):
    """``f(w, tau)`` = s_tau(w) = sign(w) max(|w| - tau, 0), elementwise on arrays."""
    from ...losses import soft_threshold
    r = Report("soft_threshold")
    for w, tau in ((1.5, 0.5), (-1.5, 0.5), (0.3, 0.5), (-0.5, 0.5), (2.0, 0.0)):
        compare(r, f"s_{tau}({w})", soft_threshold(w, tau), lambda w=w, tau=tau: f(w, tau))
    w = np.random.default_rng(0).normal(size=50)
    compare(r, "50 random entries, tau = 0.7", soft_threshold(w, 0.7), lambda: f(w.copy(), 0.7))
    r.finish()


def check_objective(f):
    """``f(X, y, w, lam, loss)`` = P(w) = (1/m) sum_i L(<w, x_i>, y_i) + lam ||w||_1 for ``loss`` in
    {"squared", "logistic"}, with L(a, y) = (a - y)^2 / 2 or log(1 + exp(-y a))."""
    r = Report("objective")
    rng = np.random.default_rng(1)
    for loss, prob in small_problems().items():
        for k, w in enumerate((np.zeros(prob.d), rng.normal(size=prob.d))):
            X = np.asarray(prob.X)
            compare(r, f"{loss} loss, {'w = 0' if k == 0 else 'random w'}", prob.objective(w),
                     lambda X=X, prob=prob, w=w, loss=loss: f(X.copy(), prob.y.copy(), w.copy(), prob.lam, loss))
    r.finish()


def check_lambda_max(f):
    """``f(X, y, loss)`` = the smallest lam for which w = 0 is optimal, ||X^T L'(0, y)||_inf / m."""
    r = Report("lambda_max")
    for loss, prob in small_problems().items():
        X = np.asarray(prob.X)
        compare(r, f"{loss} loss", prob.lambda_max, lambda X=X, prob=prob, loss=loss: f(X.copy(), prob.y.copy(), loss))
    r.finish()


# ---------------------------------------------------------------------------------------------- the lecture's exercises
def _compare_tol(report, what, expected, call, rtol, atol):
    """:func:`compare` with its own tolerances (for answers computed by a route that rounds differently)."""
    try:
        got = call()
    except NotImplementedError:
        raise
    except Exception as err:  # a student's bug: a failed check, with its type and message
        report.fail(what, f"raised {type(err).__name__}: {err}")
        return None
    try:
        got_arr = np.asarray(got, dtype=np.float64)
    except (TypeError, ValueError):
        report.fail(what, f"expected a number or an array, got {type(got).__name__}")
        return None
    exp_arr = np.asarray(expected, dtype=np.float64)
    if got_arr.shape != exp_arr.shape:
        report.fail(what, f"expected shape {exp_arr.shape}, got {got_arr.shape}")
        return None
    bad = ~np.isclose(got_arr, exp_arr, rtol=rtol, atol=atol)
    if np.any(bad):
        k = int(np.flatnonzero(bad)[0])
        report.fail(what, f"expected {fmt(exp_arr.ravel()[k])}, got {fmt(got_arr.ravel()[k])}"
                    + (f" (entry {k})" if exp_arr.ndim else ""))
        return None
    report.ok(what)
    return got_arr


def check_rho_tight_logistic(value):
    """``value`` = the smallest rho for which L'(a, y)^2 <= rho L(a, y) holds for every a and y = +-1, for the
    logistic loss L(a, y) = log(1 + exp(-y a)), to six significant digits (relative tolerance 1e-6).  The
    reference maximizes L'^2 / L of l1lab's logistic loss over the margin with a bounded scalar optimizer."""
    from scipy.optimize import minimize_scalar

    from ...losses import logistic

    def neg_ratio(u):
        u = np.array([u], dtype=float)
        one = np.ones(1)
        return -float(logistic.deriv(u, one)[0] ** 2 / logistic.value(u, one)[0])

    res = minimize_scalar(neg_ratio, bounds=(-5.0, 5.0), method="bounded", options={"xatol": 1e-10})
    r = Report("rho_tight_logistic")
    _compare_tol(r, "max over a of L'(a, y)^2 / L(a, y)", -res.fun, lambda: value, rtol=1e-6, atol=0.0)
    r.finish()


def check_prox_elastic_net(f):
    """``f(v, tau, mu)`` = argmin over u of (u - v)^2 / 2 + tau |u| + (mu / 2) u^2, entrywise on arrays
    (tau, mu >= 0).  The reference is l1lab's soft-thresholding followed by the shrinkage 1 / (1 + mu)."""
    from ...losses import soft_threshold
    r = Report("prox_elastic_net")
    for v, tau, mu in ((2.5, 1.0, 0.5), (-2.5, 1.0, 0.5), (0.7, 1.0, 0.5), (-1.0, 1.0, 3.0), (3.0, 0.0, 1.0),
                       (-3.0, 0.5, 0.0)):
        compare(r, f"v = {v}, tau = {tau}, mu = {mu}", soft_threshold(v, tau) / (1.0 + mu),
                lambda v=v, tau=tau, mu=mu: f(v, tau, mu))
    v = np.random.default_rng(3).normal(scale=2.0, size=40)
    compare(r, "40 random entries, tau = 0.8, mu = 0.25", soft_threshold(v, 0.8) / 1.25,
            lambda: f(v.copy(), 0.8, 0.25))
    r.finish()


def check_optimality_residual(f):
    """``f(X, y, w, lam, loss)`` = the largest absolute entry of the sub-gradient of P at w of smallest norm
    (0 exactly at a minimizer), for the squared and the logistic loss; the reference is
    :meth:`l1lab.Problem.optimality_residual`.  Checked at w = 0, at a random sparse w and at the minimizer."""
    from ...problem import Problem
    from ...solvers import reference_solution
    r = Report("optimality_residual")
    rng = np.random.default_rng(4)
    for loss, prob in small_problems().items():
        X = np.asarray(prob.X)
        w_sparse = rng.normal(size=prob.d) * (rng.random(prob.d) < 0.5)
        w_star, _ = reference_solution(Problem(X, prob.y, loss, prob.lam))
        for name, w in (("w = 0", np.zeros(prob.d)), ("a random w with zeros", w_sparse), ("the minimizer", w_star)):
            compare(r, f"{loss} loss, {name}", prob.optimality_residual(w),
                    lambda X=X, prob=prob, w=w, loss=loss: f(X.copy(), prob.y.copy(), w.copy(), prob.lam, loss))
    r.finish()


def check_weighted_lambda_max(f):
    """``f(X, y, c, loss)`` = the smallest lam for which w = 0 minimizes C(w) + lam sum_j c_j |w_j| (every
    c_j > 0), for the squared and the logistic loss; the reference is ``Problem(X, y, loss, lam,
    penalty_weights=c).lambda_max``."""
    from ...problem import Problem
    r = Report("weighted_lambda_max")
    rng = np.random.default_rng(5)
    for loss, prob in small_problems().items():
        X = np.asarray(prob.X)
        for name, c in (("c = 1", np.ones(prob.d)), ("random c in [0.2, 3]", rng.uniform(0.2, 3.0, prob.d))):
            expected = Problem(X, prob.y, loss, prob.lam, penalty_weights=c).lambda_max
            compare(r, f"{loss} loss, {name}", expected,
                    lambda X=X, prob=prob, c=c, loss=loss: f(X.copy(), prob.y.copy(), c.copy(), loss))
    r.finish()


def check_path_segment(f):
    """``f(X, y, S, signs, lam)`` = the minimizer w* (a vector of length d, zero off S) of the squared-loss
    problem at lam, computed from its support S (an array of indices) and the signs of w*_S alone, without
    an iterative solver.  Compared with :func:`l1lab.reference_solution` (relative optimality residual 1e-12)
    to 1e-8, and its own optimality residual must be at most 1e-10 times lambda_max."""
    from ...problem import Problem
    from ...solvers import reference_solution
    r = Report("path_segment")
    prob = small_problems()["squared"]
    X, y = np.asarray(prob.X), prob.y
    lmax = prob.lambda_max
    for frac in (0.7, 0.3, 0.1, 0.02):
        p = Problem(X, y, "squared", frac * lmax)
        w_star, _ = reference_solution(p, tol=1e-12)
        S = np.flatnonzero(w_star)
        what = f"lam = {frac:g} lambda_max, |S| = {S.size}"
        got = _compare_tol(r, what, w_star, lambda S=S, w_star=w_star, p=p:
                           f(X.copy(), y.copy(), S.copy(), np.sign(w_star[S]), p.lam), rtol=1e-8, atol=1e-10)
        if got is not None and p.optimality_residual(got) > 1e-10 * lmax:
            r.lines[-1] = (False, f"✘ path_segment: {what} -- optimality residual "
                                  f"{fmt(p.optimality_residual(got))} (not a minimizer)")
    r.finish()
