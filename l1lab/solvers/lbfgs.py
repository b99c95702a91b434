r"""The quasi-Newton baseline of Zhu et al. (2009), Section V: L-BFGS (Nocedal & Wright, ch. 6-7; scipy's
L-BFGS-B without bounds) on PGS's objective (7),

.. math::  \hat F_\sigma(w) = \frac{\sigma}{2(p-1)}\|w\|_p^2 + \frac1m\sum_{i=1}^m L(\langle w, x_i\rangle, y_i),

over S = R^n or S = {||w||_p <= B}.  Every function evaluation is a full pass over the data, so an iteration
costs O(nnz(X)) -- the m-dependence that PGS avoids.

Choices (the paper runs L-BFGS only on logistic regression):

* **Smoothness.**  For p in (1, 2] the regularizer is continuously differentiable, with gradient
  :math:`\frac{\sigma}{p-1}\|w\|_p^{2-p}|w_j|^{p-1}\mathrm{sgn}\,w_j` (for p < 2 its curvature is unbounded
  near w_j = 0, which slows L-BFGS but does not stop it).  The logistic and squared losses are smooth.
* **Hinge loss.**  It is not differentiable, and L-BFGS on a kink stalls.  We minimize instead the objective
  with the quadratically smoothed hinge :math:`h_\mu(z) = 0` (z >= 1), :math:`(1-z)^2/(2\mu)`
  (1 - mu < z < 1), :math:`1 - z - \mu/2` (z <= 1 - mu), z = y a, for mu = 1e-1, 1e-2, ..., ``hinge_mu``
  (warm starts).  Since :math:`0 \le h - h_\mu \le \mu/2`, the returned w satisfies
  :math:`\hat F_\sigma(w) \le \hat F_\sigma(\hat w) + \mu/2 + (\text{the smoothed problem's optimization
  error})`; the trace records the true (hinge) objective.
* **Bounded S.**  If the unconstrained minimizer lies in S it is the answer.  Otherwise the constraint is
  active, and by the KKT conditions the solution minimizes :math:`(\sigma + \nu) r(w) + C(w)` for the
  multiplier :math:`\nu > 0` at which :math:`\|w\|_p = B` (||w(sigma')||_p decreases as sigma' grows): the
  solver brackets sigma' and bisects on log sigma' (regula falsi, warm-started inner L-BFGS runs), and
  returns the feasible end of the final bracket.
"""
from __future__ import annotations

import math
import time

import numpy as np
from scipy.optimize import minimize

from ..trace import Result, TraceRecorder, log_checkpoints
from ._checks import check_array, check_positive, check_problem, solver_checked
from .pgs import _check_B, _check_p, _norm, pgs_objective


def _smoothed_hinge(z, mu):
    """Value and derivative (w.r.t. z = y a) of the quadratically smoothed hinge."""
    v = np.where(z >= 1.0, 0.0, np.where(z > 1.0 - mu, (1.0 - z) ** 2 / (2.0 * mu), 1.0 - z - mu / 2.0))
    dv = np.where(z >= 1.0, 0.0, np.where(z > 1.0 - mu, -(1.0 - z) / mu, -1.0))
    return v, dv


class _Objective:
    """F(w) = s r(w) + mean loss, value and gradient, counting evaluations."""

    def __init__(self, problem, p, mu):
        self.prob, self.p, self.mu = problem, p, mu
        self.n_eval = 0
        self.last = (None, None)  # (x, f) of the last evaluation

    def __call__(self, w, s):
        self.n_eval += 1
        f, grad = self._evaluate(w, s)
        self.last = (w.copy(), f)
        return f, grad

    def _evaluate(self, w, s):
        prob, p = self.prob, self.p
        z = prob.margins(w)
        if prob.loss.name == "hinge":
            v, dv = _smoothed_hinge(prob.y * z, self.mu)
            f_loss = float(v.mean())
            g_loss = prob.y * dv
        else:
            f_loss = prob.smooth_from_margins(z)
            g_loss = prob.loss.deriv(z, prob.y)
        grad = np.asarray(prob.X.T @ g_loss).ravel() / prob.m
        nw = _norm(w, p)
        f = f_loss + s * nw ** 2 / (2.0 * (p - 1.0))
        if nw > 0.0:
            if p == 2.0:
                grad = grad + s * w
            else:
                u = np.abs(w) / np.max(np.abs(w))
                # grad (1/2)||w||_p^2 = ||w||_p^{2-p} |w|^{p-1} sgn w, computed with the maximum factored out
                un = np.sum(u ** p) ** (1.0 / p)
                grad = grad + s / (p - 1.0) * nw * np.sign(w) * (u / un) ** (p - 1.0)
        return f, grad


@solver_checked()
def lbfgs(problem, sigma, p=2.0, B=None, max_iter=2000, tol=1e-10, hinge_mu=1e-6, memory=10, w0=None,
          n_checkpoints=60, monitor=None):
    r"""Minimize Zhu et al. (2009)'s objective (7) with L-BFGS (their quasi-Newton baseline, Section V).

    Parameters
    ----------
    problem : Problem with ``lam=0`` and the hinge, logistic or squared loss (the data and the loss; the
        objective is :math:`\sigma\|w\|_p^2/(2(p-1)) + C(w)`, see :func:`l1lab.solvers.pgs.pgs_objective`)
    sigma, p, B : as in :func:`l1lab.solvers.pgs.pgs` (B = None: S = R^n)
    max_iter : L-BFGS iterations per inner run
    tol : stopping tolerance: scipy's ``gtol`` (on the projected gradient's max entry) and ``ftol`` = tol *
        1e-5 (relative decrease); also the relative width of the multiplier bracket for an active constraint
    hinge_mu : the final smoothing of the hinge loss (module docstring), >= 1e-12
    memory : the number of correction pairs kept (scipy's ``maxcor``)
    w0 : starting point (default 0)
    monitor : optional callable w -> float evaluated after every iteration (outside the timing), returned at
        the checkpoints in ``info["monitor"]`` (e.g. a test accuracy)

    Returns
    -------
    Result.  The trace records, at log-spaced checkpoints of the cumulative L-BFGS iterations, the true
    :math:`\hat F_\sigma`, nnz, data accesses (nnz(X) per function-and-gradient evaluation) and seconds
    (excluding the recording; F is the value L-BFGS computed at the accepted point when it is F itself, and an
    extra pass otherwise: smoothed hinge, or an inner run of the multiplier search).  ``info`` holds the
    parameters, the iterations, the evaluations, scipy's messages, the number of inner runs, the constraint
    multiplier ``nu`` (0 if inactive), for the hinge loss ``hinge_gap_bound`` = mu/2, and the monitor values.
    """
    check_problem(problem)
    if problem.lam != 0:
        raise ValueError(f"the objective is sigma r(w) + C(w) without an l1 penalty: build the Problem with lam=0 "
                         f"(got lam={problem.lam})")
    sigma = check_positive(sigma, "sigma")
    p = _check_p(p)
    B = _check_B(B)
    tol = check_positive(tol, "tol")
    hinge_mu = check_positive(hinge_mu, "hinge_mu")
    if hinge_mu < 1e-12:
        raise ValueError(f"hinge_mu must be >= 1e-12 (smaller makes the smoothed problem numerically nonsmooth), "
                         f"got {hinge_mu}")
    max_iter = int(max_iter)
    if max_iter < 1:
        raise ValueError(f"max_iter must be >= 1, got {max_iter}")
    if problem.loss.name not in ("hinge", "logistic", "squared"):
        raise ValueError(f"unsupported loss {problem.loss.name}")
    if monitor is not None and not callable(monitor):
        raise TypeError("monitor must be a callable w -> float")
    w = np.zeros(problem.d) if w0 is None else check_array(w0, "w0", shape=(problem.d,), copy=True)
    if B is not None and _norm(w, p) > B:
        raise ValueError(f"w0 must lie in S: ||w0||_p = {_norm(w, p):.4g} > B = {B}")

    if problem.loss.name == "hinge":
        mus = [10.0 ** -e for e in range(1, 13) if 10.0 ** -e > hinge_mu] + [hinge_mu]
    else:
        mus = [None]
    obj = _Objective(problem, p, mus[0])
    exact_f = problem.loss.name != "hinge"  # the solved objective is F itself (until a constraint is active)
    rows = []  # (cumulative iteration, evaluations, F, nnz, seconds, monitor) after every iteration

    def record(xk, s):
        x_last, f_last = obj.last
        if exact_f and s == sigma and x_last is not None and np.array_equal(x_last, xk):
            f = f_last  # L-BFGS-B's accepted point is its last evaluation: no extra pass
        else:
            f = pgs_objective(problem, xk, sigma, p)
        rows.append((clock["it"], obj.n_eval, f, np.count_nonzero(xk), clock["seconds"],
                     math.nan if monitor is None else float(monitor(xk))))
    clock = {"seconds": 0.0, "it": 0, "messages": [], "solves": 0}

    def solve(w_start, s, levels=mus):
        """One inner L-BFGS run on s r + C (for every hinge smoothing level in ``levels``)."""
        w_cur = w_start
        clock["solves"] += 1
        for mu in levels:
            obj.mu = mu
            t0 = [time.perf_counter()]

            def cb(xk):
                clock["seconds"] += time.perf_counter() - t0[0]
                clock["it"] += 1
                record(xk, s)
                t0[0] = time.perf_counter()

            res = minimize(obj, w_cur, args=(s,), jac=True, method="L-BFGS-B", callback=cb,
                           options={"maxiter": max_iter, "gtol": tol, "ftol": tol * 1e-5, "maxcor": memory,
                                    "maxfun": 10 * max_iter})
            clock["seconds"] += time.perf_counter() - t0[0]
            clock["messages"].append(str(res.message))
            w_cur = res.x
        return w_cur

    record(w, sigma)
    w = solve(w, sigma)
    nu = 0.0
    if B is not None and _norm(w, p) > B:
        # the constraint is active: find sigma' = sigma + nu with ||w(sigma')||_p = B
        lo, w_lo = sigma, w  # infeasible end
        hi = 2.0 * sigma
        w_hi = solve(w, hi, mus[-1:])
        while _norm(w_hi, p) > B:
            lo, w_lo = hi, w_hi
            hi *= 2.0
            w_hi = solve(w_hi, hi, mus[-1:])
        f_lo = math.log(_norm(w_lo, p) / B)  # > 0
        nh = _norm(w_hi, p)
        f_hi = math.log(nh / B) if nh > 0 else -math.inf  # <= 0
        side = 0
        while math.log(hi / lo) > tol:
            if math.isfinite(f_hi):
                x = math.log(lo) + f_lo * (math.log(hi) - math.log(lo)) / (f_lo - f_hi)
                x = min(max(x, math.log(lo) + 0.01 * math.log(hi / lo)), math.log(hi) - 0.01 * math.log(hi / lo))
            else:
                x = 0.5 * (math.log(lo) + math.log(hi))
            s = math.exp(x)
            w_s = solve(w_hi, s, mus[-1:])
            ns = _norm(w_s, p)
            f_s = math.log(ns / B) if ns > 0 else -math.inf
            if f_s > 0:
                lo, w_lo, f_lo = s, w_s, f_s
                if side == -1:
                    f_hi /= 2.0  # Illinois modification
                side = -1
            else:
                hi, w_hi, f_hi = s, w_s, f_s
                if side == 1:
                    f_lo /= 2.0
                side = 1
            if f_s == 0.0:
                break
        w = w_hi
        nu = hi - sigma

    # the trace: log-spaced checkpoints over the cumulative iterations (rows[i] is iteration i); the last one
    # records the returned w (with an active constraint, the feasible end of the bracket, not necessarily the
    # last inner iterate) with the total evaluations and seconds
    rows.pop()
    record(w, -1.0)
    n_done = rows[-1][0]
    rec = TraceRecorder()
    mon = []
    for it in log_checkpoints(n_done, n_checkpoints):
        _, nev, f, nnz, sec, mv = rows[int(it)]
        rec.record(it, nev * problem.nnz, f, nnz, sec)
        mon.append(mv)
    info = {"method": "lbfgs", "sigma": sigma, "p": p, "B": B, "iterations": n_done, "evaluations": obj.n_eval,
            "messages": clock["messages"], "inner_solves": clock["solves"], "nu": nu, "tol": tol}
    if problem.loss.name == "hinge":
        info["hinge_gap_bound"] = hinge_mu / 2.0
    if monitor is not None:
        info["monitor"] = np.array(mon)
    return Result(w=w, trace=rec.finish(), info=info)
