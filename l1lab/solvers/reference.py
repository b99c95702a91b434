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

import numpy as np
import scipy.sparse as sp
from scipy.linalg import cho_factor, cho_solve
from scipy.optimize import linprog

from .coordinate import _CDState


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
    """min (1/m) sum xi_i + sum_j lam_j (u_j + v_j)  s.t. xi_i >= 1 - y_i <x_i, u - v>,  u, v, xi >= 0."""
    m, d = problem.m, problem.d
    YX = sp.csr_matrix(problem.X).multiply(problem.y[:, None]).tocsr()
    A = sp.hstack([-YX, YX, -sp.identity(m)], format="csr")
    lam_j = problem.lam_vector
    c = np.concatenate([lam_j, lam_j, np.full(m, 1.0 / m)])
    res = linprog(c, A_ub=A, b_ub=-np.ones(m), bounds=(0, None), method="highs",
                  options={"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10})
    if res.status != 0:
        raise RuntimeError(f"HiGHS failed on the hinge-loss linear program: {res.message}")
    w = res.x[:d] - res.x[d:2 * d]
    return w, problem.objective(w)


def unpenalized_minimizer(problem, U, max_steps=100):
    """argmin over w_U of C(w) with every w_j, j not in U, at zero (U: a few column indices).

    Squared loss: least squares.  Logistic loss: Newton's method with a backtracking line search, to a gradient
    of 1e-13 or a Newton decrement of 1e-16 (|L'| <= 1 and |x_ij| <= 1 make these absolute scales).  Hinge loss: the linear program.  Raises
    ValueError when no finite minimizer exists (e.g. logistic labels of one class with an intercept)."""
    m = problem.m
    XU = problem.X[:, U]
    XU = XU.toarray() if sp.issparse(XU) else np.asarray(XU)
    loss, y = problem.loss, problem.y
    if not loss.smooth:
        from ..problem import Problem

        return solve_reference(Problem(XU, y, loss, 0.0))[0]
    if loss.name == "squared":
        return np.linalg.lstsq(XU, y, rcond=None)[0]
    w = np.zeros(len(U))
    for _ in range(max_steps):
        z = XU @ w
        g = XU.T @ loss.deriv(z, y) / m
        if np.max(np.abs(g)) <= 1e-13:
            return w
        H = (XU * loss.second(z, y)[:, None]).T @ XU / m
        step = np.linalg.lstsq(H, -g, rcond=None)[0]
        if -float(g @ step) <= 1e-16:
            # Newton decrement at the rounding level of C: a line search cannot see a decrease any more, and
            # the full step is the accurate one (quadratic convergence)
            return w + step
        c0 = problem.smooth_from_margins(z)
        t = 1.0
        while t > 1e-12:
            if problem.smooth_from_margins(z + t * (XU @ step)) <= c0 + 1e-4 * t * float(g @ step):
                break
            t *= 0.5
        else:
            return w  # no further decrease at working precision
        w = w + t * step
    raise ValueError(
        "the unpenalized coordinates have no finite minimizer (Newton's method diverged): for the logistic "
        "loss with an intercept, are all labels the same?")


def solve_reference(problem, tol=1e-10):
    if problem.loss.smooth:
        return _smooth_reference(problem, tol)
    return _hinge_reference(problem)
