"""High-accuracy reference optimum of problem (5), used to measure sub-optimality P(w) - P*.

Smooth losses: cyclic coordinate descent with per-coordinate curvature bounds h_j = beta * (1/m)||x_j||^2
(for the squared loss the exact coordinate minimizer), sweeping the active set between full sweeps as
glmnet and scikit-learn do, then Newton steps on the support (with the signs fixed, a smooth problem) with
a backtracking line search on P itself.  It stops when the relative optimality residual
(:meth:`l1lab.Problem.relative_residual`) is at most ``tol``.

Hinge loss: P is piecewise linear, so min P is a linear program, solved exactly by HiGHS.

Penalty weights (lam_j = lam c_j, e.g. 0 for an intercept) enter every step: the coordinate thresholds, the
signed penalty on the support, the line search and the linear program's costs.
"""
from __future__ import annotations

import weakref

import numpy as np
import scipy.sparse as sp
from scipy.linalg import cho_factor, cho_solve

from ..problem import hinge_linear_program
from ._checks import check_problem, solver_checked
from .coordinate import _CDState

__all__ = ["reference_solution", "solve_reference"]


def _newton_step(H, g):
    """Solve H s = -g: Cholesky when H is positive definite (the usual case), least squares otherwise (a
    support larger than m makes H singular)."""
    try:
        return cho_solve(cho_factor(H, check_finite=False), -g, check_finite=False)
    except np.linalg.LinAlgError:
        return np.linalg.lstsq(H, -g, rcond=1e-14)[0]


def _newton_polish(problem, state, tol, max_steps=30, max_support=3000):
    """Newton steps on the support S of w for C(w_S) + lam * sign(w_S) . w_S, line search on P; stops once
    the gradient on S is a tenth of the target residual ``tol`` (relative to max(lambda_max, lam))."""
    S = np.flatnonzero(state.w)
    if S.size == 0 or S.size > max_support:
        return
    XS = problem.X[:, S]
    XS = XS.toarray() if sp.issparse(XS) else np.asarray(XS)
    loss, y, lam = problem.loss, problem.y, problem.lam
    lam_S = lam if problem.penalty_weights is None else lam * problem.penalty_weights[S]
    goal = 0.1 * tol * max(problem.lambda_max, lam)
    for _ in range(max_steps):
        w = state.w
        sgn = np.sign(w[S])
        z = state.z
        g = XS.T @ loss.deriv(z, y) / problem.m + lam_S * sgn
        if np.max(np.abs(g)) <= goal:
            return
        H = (XS * loss.second(z, y)[:, None]).T @ XS / problem.m
        step = _newton_step(H, g)
        p0 = state.objective()
        slope = float(g @ step)
        if not slope < 0:
            return
        t = 1.0
        while t > 1e-10:
            w_new = w.copy()
            w_new[S] += t * step
            z_new = z + t * (XS @ step)
            p_new = problem.smooth_from_margins(z_new) + problem.penalty(w_new)
            if p_new <= p0 + 1e-4 * t * slope:
                break
            t *= 0.5
        else:
            return
        state.w[:] = w_new
        state.z[:] = z_new
        if np.any(np.sign(w_new[S]) != sgn):
            return  # support or signs changed: go back to coordinate descent


def _smooth_reference(problem, tol, max_rounds=500):
    state = _CDState(problem)
    lam = problem.lam
    if problem.lambda_max <= lam:  # the penalized coordinates vanish: w = 0, or the unpenalized fit
        w = problem.null_solution()
        return w, problem.objective(w)
    h = problem.loss.beta * problem.column_sq_norms()
    all_idx = np.arange(problem.d, dtype=np.int64)
    for _ in range(max_rounds):
        state.run(all_idx, lam, h)
        for _inner in range(200):
            active = np.flatnonzero(state.w).astype(np.int64)
            if active.size == 0:
                break
            w_old = state.w[active].copy()
            state.run(active, lam, h)
            if np.max(np.abs(state.w[active] - w_old) * np.sqrt(h[active])) < 1e-3 * tol * problem.lambda_max:
                break
        _newton_polish(problem, state, tol)
        # z drifts by rounding over many updates; refresh it before judging convergence
        state.z[:] = problem.margins(state.w)
        if problem.relative_residual(state.w) <= tol:
            break
    else:
        raise RuntimeError(
            f"reference solver did not reach relative residual {tol:g} "
            f"(reached {problem.relative_residual(state.w):.3g}); the problem may be very ill-conditioned")
    return state.w, problem.objective(state.w)


def _hinge_reference(problem):
    w = hinge_linear_program(problem.X, problem.y, problem.lam_vector)
    return w, problem.objective(w)


@solver_checked()
def solve_reference(problem, tol=1e-10):
    """The reference optimum ``(w_star, p_star)`` computed afresh (no cache): coordinate descent and Newton
    polishing for a smooth loss, the linear program for the hinge loss.  :func:`reference_solution` caches it."""
    if problem.loss.smooth:
        return _smooth_reference(problem, tol)
    return _hinge_reference(problem)


_REFERENCES = weakref.WeakKeyDictionary()  # problem -> (tol, w_star, p_star): one solve per problem and tol


@solver_checked()
def reference_solution(problem, tol: float = 1e-10):
    """A high-accuracy minimizer of P and the optimal value: ``(w_star, p_star)``.

    Smooth losses: coordinate descent (exact coordinate minimization for the squared loss, the majorization
    step of Algorithm 1 for the logistic loss) with an active set, polished by Newton steps on the support,
    until the relative optimality residual (:meth:`l1lab.Problem.relative_residual`) is at most ``tol``
    (default 1e-10).  Hinge loss: the linear program solved by HiGHS.  The result is cached per problem (a
    looser ``tol`` is served by a tighter solve); ``w_star`` is a copy.

    >>> from l1lab import Problem
    >>> from l1lab.data import make_regression
    >>> X, y, _ = make_regression(50, 20, 3, seed=0)
    >>> problem = Problem(X, y, loss="squared", lam=0.05)
    >>> w_star, p_star = reference_solution(problem)
    >>> problem.relative_residual(w_star) <= 1e-10
    True
    """
    check_problem(problem)
    tol = float(tol)
    if not (tol > 0):
        raise ValueError(f"tol must be a positive number, got {tol}")
    cached = _REFERENCES.get(problem)
    if cached is None or cached[0] > tol:
        w, p = solve_reference(problem, tol)
        cached = _REFERENCES[problem] = (tol, w, p)
    return cached[1].copy(), cached[2]

