r"""Online learning over a stream of examples, and the regret of Kakade, Foster & Even-Dar (2008).

Each step t the algorithm holds a decision w^t, sees an example (x_t, y_t), pays the cost
c^t(w^t) = L(<w^t, x_t>, y_t) and then updates with the (sub)gradient L'(<w^t, x_t>, y_t) x_t of c^t.  The
examples come from a Problem's data: drawn uniformly with replacement (the stochastic, "finite pool"
setting) or in a fixed order that the caller chooses (e.g. adversarially).  The regret against the best
fixed decision in hindsight, R_T = (1/T)(sum_t c^t(w^t) - min_{w in F} sum_t c^t(w)), is computed with
:func:`best_fixed_decision` (accelerated projected gradient on the T costs).

* :func:`smg` -- the stochastic multiplicative gradient update (3) on the simplex {w >= 0, sum w = F1},
  starting at its center: w_i <- w_i (1 - eta g_i + eta Z), Z = <w, g>/F1 (the normalization is exact:
  sum w stays F1).  ``signed=True`` splits w = w+ - w- (footnote 3), ``dummy=True`` adds a coordinate with no
  gradient so that ||w||_1 <= F1.  ``exact=True`` runs Kivinen & Warmuth's exponentiated gradient instead,
  w_i <- w_i exp(-eta g_i) / normalizer, of which (3) is the first-order expansion.
* :func:`sg_l2` -- stochastic gradient with Euclidean projection onto {||w||_2 <= F2} (Theorem 2.1).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from ..losses import LOGISTIC, loss_deriv, loss_value
from ..projections import dense as _proj
from ..projections import project_l1_ball, project_simplex
from ._checks import (
    check_array,
    check_count,
    check_flag,
    check_index_array,
    check_matrix,
    check_positive,
    check_problem,
    check_real,
    check_seed,
    nonnegative,
    solver_checked,
)


@dataclass
class OnlineResult:
    """Decisions and costs of an online run.

    w : the decision after the last step; w_avg : (1/T) sum_{t=1}^T w^t (Corollary 3.1's average decision);
    costs : c^t(w^t) for t = 1..T; order : the example indices seen; info : parameters.
    """

    w: np.ndarray
    w_avg: np.ndarray
    costs: np.ndarray
    order: np.ndarray
    info: dict = field(default_factory=dict)

    def regret(self, problem, T=None, max_iter=1000):
        """R_T = (1/T)(sum_{t<=T} c^t(w^t) - min_F sum_{t<=T} c^t(w)) on the first T steps (default all)."""
        T = len(self.costs) if T is None else int(T)
        if not 1 <= T <= len(self.costs):
            raise ValueError(f"T must be in [1, {len(self.costs)}], got {T}")
        best = best_fixed_decision(problem, self.order[:T], self.info["constraint"], self.info["radius"],
                                   max_iter=max_iter)[1]
        return float(self.costs[:T].mean() - best)


def _check(problem, n_steps, eta, radius, order, seed, radius_name):
    check_problem(problem)
    if problem.lam != 0:
        raise ValueError(f"online costs are the unregularized losses: build the Problem with lam=0 (got {problem.lam})")
    eta = check_positive(eta, "the step size eta")
    radius = check_positive(radius, f"the radius {radius_name}")
    if order is None:
        if n_steps is None:
            raise ValueError("give the stream: n_steps (uniform draws) or order (example indices)")
        n_steps = check_count(n_steps, "n_steps", minimum=1)
        order = np.random.default_rng(check_seed(seed)).integers(0, problem.m, size=n_steps, dtype=np.int64)
    else:
        order = check_index_array(order, "order (example indices)", upper=problem.m)
    return eta, radius, order


@njit(cache=True)
def _smg_kernel(code, indptr, indices, data, y, order, eta, F1, signed, dummy, exact, pp, pm, costs, wsum):
    """SMG / EG steps on dense weights; returns -1 on success, else the step at which a factor went <= 0."""
    d = pp.shape[0]
    pd = np.zeros(1)
    n_slots = d * (2 if signed else 1) + (1 if dummy else 0)
    for j in range(d):
        pp[j] = F1 / n_slots
        if signed:
            pm[j] = F1 / n_slots
    pd[0] = F1 / n_slots if dummy else 0.0
    g = np.zeros(d)
    for t in range(order.shape[0]):
        i = order[t]
        a = 0.0
        for k in range(indptr[i], indptr[i + 1]):
            j = indices[k]
            a += data[k] * (pp[j] - pm[j] if signed else pp[j])
        costs[t] = loss_value(code, a, y[i])
        for j in range(d):
            wsum[j] += pp[j] - pm[j] if signed else pp[j]
        lp = loss_deriv(code, a, y[i])
        if lp == 0.0:
            continue
        for k in range(indptr[i], indptr[i + 1]):
            g[indices[k]] = lp * data[k]
        if exact:
            tot = pd[0]
            for j in range(d):
                pp[j] *= math.exp(-eta * g[j])
                tot += pp[j]
                if signed:
                    pm[j] *= math.exp(eta * g[j])
                    tot += pm[j]
            s = F1 / tot
            for j in range(d):
                pp[j] *= s
                if signed:
                    pm[j] *= s
            pd[0] *= s
        else:
            Z = lp * a / F1  # <p, gradient in p-space> / F1 = L' <w, x> / F1
            for j in range(d):
                f = 1.0 - eta * g[j] + eta * Z
                if f <= 0.0:
                    return t
                pp[j] *= f
                if signed:
                    f = 1.0 + eta * g[j] + eta * Z
                    if f <= 0.0:
                        return t
                    pm[j] *= f
            pd[0] *= 1.0 + eta * Z
        for k in range(indptr[i], indptr[i + 1]):
            g[indices[k]] = 0.0
    return -1


@solver_checked()
def smg(problem, eta, F1, n_steps=None, order=None, seed=0, signed=True, dummy=True, exact=False):
    r"""Stochastic multiplicative gradient, update (3) of Kakade, Foster & Even-Dar (2008), or exponentiated
    gradient (``exact=True``), over a stream of the problem's examples.

    Parameters
    ----------
    problem : Problem with ``lam=0`` (its loss defines the costs)
    eta : step size; Theorem 2.3's is :func:`l1lab.theory.kakade_foster_evendar.smg_eta`, and Lemma 5.3 keeps the
        iterates in the simplex for eta <= 1/(8 G_inf).  A step that would make a weight negative raises.
    F1 : scale of the simplex
    n_steps, order, seed : the stream: ``order`` (example indices) if given, else ``n_steps`` uniform draws
    signed, dummy : w = w+ - w- (footnote 3), and a gradient-free extra coordinate so that ||w||_1 <= F1

    The update touches every weight, O(d) per step (plus O(d) for the running average).
    """
    eta, F1, order = _check(problem, n_steps, eta, F1, order, seed, "F1")
    indptr, indices, data = problem.csr_arrays()
    d = problem.d
    pp, pm = np.zeros(d), np.zeros(d)
    costs, wsum = np.zeros(order.size), np.zeros(d)
    bad = _smg_kernel(problem.loss.code, indptr, indices, data, problem.y, order, eta, F1, bool(signed),
                      bool(dummy), bool(exact), pp, pm, costs, wsum)
    if bad >= 0:
        raise ValueError(
            f"the SMG step eta={eta:g} would make a weight negative at step {bad + 1} (a factor 1 - eta g_i + eta Z "
            f"<= 0): use a smaller eta; Lemma 5.3 guarantees feasibility for eta <= 1/(8 G_inf), where G_inf "
            f"bounds |L'(<w, x>, y)| max|x_ij|")
    w = pp - pm if signed else pp.copy()
    constraint = "l1_ball" if (signed or dummy) else "simplex"
    if not signed and dummy:
        constraint = "nonneg_l1_ball"
    info = {"method": "eg" if exact else "smg", "eta": eta, "radius": F1, "signed": signed, "dummy": dummy,
            "constraint": constraint, "seed": seed}
    return OnlineResult(w=w, w_avg=wsum / order.size, costs=costs, order=order, info=info)


@njit(cache=True)
def _sg_kernel(code, indptr, indices, data, y, order, eta, F2, w, costs, wsum):
    d = w.shape[0]
    sq = 0.0  # ||w||^2
    for t in range(order.shape[0]):
        i = order[t]
        a = 0.0
        for k in range(indptr[i], indptr[i + 1]):
            a += data[k] * w[indices[k]]
        costs[t] = loss_value(code, a, y[i])
        for j in range(d):
            wsum[j] += w[j]
        lp = loss_deriv(code, a, y[i])
        if lp == 0.0:
            continue
        for k in range(indptr[i], indptr[i + 1]):
            j = indices[k]
            old = w[j]
            w[j] = old - eta * lp * data[k]
            sq += w[j] * w[j] - old * old
        if sq > F2 * F2:
            sq = 0.0
            for j in range(d):
                sq += w[j] * w[j]  # exact norm before scaling (no drift)
            if sq > F2 * F2:
                s = F2 / math.sqrt(sq)
                for j in range(d):
                    w[j] *= s
                sq = F2 * F2


@solver_checked()
def sg_l2(problem, eta, F2, n_steps=None, order=None, seed=0):
    r"""Stochastic gradient with Euclidean projection onto {||w||_2 <= F2}, Section 2.1 of Kakade, Foster &
    Even-Dar (2008) (Zinkevich's online gradient descent with noisy gradients), from w^1 = 0; Theorem 2.1's
    step is :func:`l1lab.theory.kakade_foster_evendar.sg_eta`."""
    eta, F2, order = _check(problem, n_steps, eta, F2, order, seed, "F2")
    indptr, indices, data = problem.csr_arrays()
    w = np.zeros(problem.d)
    costs, wsum = np.zeros(order.size), np.zeros(problem.d)
    _sg_kernel(problem.loss.code, indptr, indices, data, problem.y, order, eta, F2, w, costs, wsum)
    info = {"method": "sg_l2", "eta": eta, "radius": F2, "constraint": "l2_ball", "seed": seed}
    return OnlineResult(w=w, w_avg=wsum / order.size, costs=costs, order=order, info=info)


def _projector(constraint, radius):
    if constraint == "simplex":
        return lambda v: project_simplex(v, radius)
    if constraint == "l1_ball":
        return lambda v: project_l1_ball(v, radius)
    if constraint == "nonneg_l1_ball":
        def proj(v):
            u = np.maximum(v, 0.0)
            return u if u.sum() <= radius else project_simplex(v, radius)
        return proj
    if constraint == "l2_ball":
        def proj(v):
            n = np.linalg.norm(v)
            return v * (radius / n) if n > radius else v.copy()
        return proj
    raise ValueError(f"unknown constraint {constraint!r}")


@solver_checked()
def best_fixed_decision(problem, order, constraint, radius, max_iter=1000, tol=1e-12):
    r"""argmin over F of (1/T) sum_t L(<w, x_{order[t]}>, y_{order[t]}) by accelerated projected gradient
    (FISTA with backtracking and restarts); F is ``"simplex"`` {w >= 0, sum w = r}, ``"l1_ball"``
    {||w||_1 <= r}, ``"nonneg_l1_ball"`` {w >= 0, sum w <= r} or ``"l2_ball"`` {||w||_2 <= r}.
    Stops when the value has changed by at most ``tol`` (relative) over 10 consecutive iterations, or after
    ``max_iter``.  Returns (w, value).  For the hinge loss (non-smooth) the result is approximate."""
    check_problem(problem)
    order = check_index_array(order, "order (example indices)", upper=problem.m)
    counts = np.bincount(order, minlength=problem.m).astype(np.float64)
    keep = counts > 0
    X = problem.X[keep] if problem.is_sparse else np.asarray(problem.X)[keep]
    y, c = problem.y[keep], counts[keep] / counts.sum()
    loss = problem.loss
    proj = _projector(constraint, radius)

    def f(w):
        return float(c @ loss.value(X @ w, y))

    def grad(w):
        return np.asarray(X.T @ (c * loss.deriv(X @ w, y))).ravel()

    if constraint == "simplex":
        w = np.full(problem.d, radius / problem.d)
    else:
        w = np.zeros(problem.d)
    v, t, L = w.copy(), 1.0, 1.0
    fw = f(w)
    quiet = 0  # consecutive iterations with a negligible change of the value
    for _ in range(max_iter):
        gv, fv = grad(v), f(v)
        while True:
            w_new = proj(v - gv / L)
            dw = w_new - v
            f_new = f(w_new)
            if f_new <= fv + gv @ dw + 0.5 * L * (dw @ dw) + 1e-15 * abs(fv):
                break
            L *= 2.0
        if f_new > fw:  # restart the momentum
            v, t = w.copy(), 1.0
            quiet += 1
            if quiet >= 10:
                break
            continue
        t_new = 0.5 * (1 + math.sqrt(1 + 4 * t * t))
        v = w_new + (t - 1) / t_new * (w_new - w)
        quiet = quiet + 1 if fw - f_new <= tol * max(1.0, abs(f_new)) else 0
        w, fw, t = w_new, f_new, t_new
        L *= 0.9
        if quiet >= 10:
            break
    return w, fw


@njit(cache=True, inline="always")
def _project_ball(u, l2, radius):
    """The projections of :func:`l1lab.solvers.online.best_fixed_decision` onto {||w||_2 <= radius} (``l2``)
    or {||w||_1 <= radius}, with the kernels of :mod:`l1lab.projections` (Condat's threshold)."""
    if l2:
        n = math.sqrt(np.dot(u, u))
        return u * (radius / n) if n > radius else u.copy()
    a, total = _proj._abs_and_sum(u)
    if total <= radius:
        return u.copy()
    theta = max(_proj._support_threshold_kernel(a, radius, _proj._threshold_condat(a, radius)), 0.0)
    if theta == 0.0:
        return u.copy()
    return _proj._shrink_signed(u, theta)


@njit(cache=True, inline="always")
def _mean_logistic(a, y, c):
    s = 0.0
    for i in range(a.shape[0]):
        s += c * loss_value(LOGISTIC, a[i], y[i])
    return s


@solver_checked(tol=nonnegative())
def best_fixed_value_logistic(X, y, l2, radius, max_iter=1000, tol=1e-12):
    """The value of :func:`best_fixed_decision` for the logistic loss over {||w||_1 <= radius} (or {||w||_2 <=
    radius} with ``l2``), on the rows of the dense ``X`` (each once): min over the ball of (1/T) sum_t
    L(<w, x_t>, y_t) by the same algorithm (FISTA from w = 0 with backtracking, the same restarts,
    constants and stopping rule) for the logistic loss, compiled, and with the margins carried along: the
    extrapolated point's margins are X v = (1 + b) X w_new - b X w, so an iteration multiplies by X twice
    instead of five times.  Equal to ``best_fixed_decision`` up to rounding (``tests``).  ``y``: labels in
    {-1, +1}, one per row of X."""
    X = check_matrix(X, "X", allow_sparse=False)
    y = check_array(y, "y", shape=(X.shape[0],), like="the rows of X")
    if not np.all((y == 1.0) | (y == -1.0)):
        raise ValueError("y must hold labels in {-1, +1} (the logistic loss)")
    radius = check_positive(radius, "radius")
    return _best_fixed_value_logistic(np.ascontiguousarray(X), y, check_flag(l2, "l2"), radius,
                                      check_count(max_iter, "max_iter", minimum=1),
                                      check_real(tol, "tol", low=0.0))


@njit(cache=True, fastmath=True, nogil=True)
def _best_fixed_value_logistic(X, y, l2, radius, max_iter, tol):
    """The kernel of :func:`best_fixed_value_logistic` (checked arguments)."""
    T, d = X.shape
    c = 1.0 / T
    w = np.zeros(d)
    aw = np.zeros(T)
    fw = _mean_logistic(aw, y, c)
    v = w.copy()
    av = aw.copy()
    t = 1.0
    L = 1.0
    quiet = 0
    g = np.empty(T)
    for _ in range(max_iter):
        for i in range(T):
            g[i] = c * loss_deriv(LOGISTIC, av[i], y[i])
        gv = np.zeros(d)
        for i in range(T):
            gi = g[i]
            for j in range(d):
                gv[j] += X[i, j] * gi
        fv = _mean_logistic(av, y, c)
        while True:
            w_new = _project_ball(v - gv / L, l2, radius)
            a_new = np.empty(T)
            for i in range(T):
                acc = 0.0
                for j in range(d):
                    acc += X[i, j] * w_new[j]
                a_new[i] = acc
            f_new = _mean_logistic(a_new, y, c)
            dw = w_new - v
            if f_new <= fv + np.dot(gv, dw) + 0.5 * L * np.dot(dw, dw) + 1e-15 * abs(fv):
                break
            L *= 2.0
        if f_new > fw:  # restart the momentum
            v = w.copy()
            av = aw.copy()
            t = 1.0
            quiet += 1
            if quiet >= 10:
                break
            continue
        t_new = 0.5 * (1.0 + math.sqrt(1.0 + 4.0 * t * t))
        b = (t - 1.0) / t_new
        v = w_new + b * (w_new - w)
        av = a_new + b * (a_new - aw)
        quiet = quiet + 1 if fw - f_new <= tol * max(1.0, abs(f_new)) else 0
        w, aw, fw, t = w_new, a_new, f_new, t_new
        L *= 0.9
        if quiet >= 10:
            break
    return fw
