"""Checkers of the exercise notebooks of the lectures on multiplicative updates (Kakade, Foster & Even-Dar 2008):
``exponentiated`` (regret, SG and SMG) and ``exponentiated_scaling`` (the log d miracle)."""
from __future__ import annotations

import math

import numpy as np

from ._framework import Report, compare, compare_count, fmt

__all__ = ["check_crossing", "check_linear_regret", "check_samples_for_guarantee", "check_smg_regret_bound",
           "check_smg_signed_step", "check_smg_update"]


def check_smg_update(f):
    """``f(w, g, eta, F1)`` = update (3) of Kakade, Foster & Even-Dar: w_i (1 - eta g_i + eta Z),
    Z = <w, g>/F1 (w on the simplex of scale F1)."""
    r = Report("smg_update")
    rng = np.random.default_rng(7)
    for d, F1, eta in ((3, 1.0, 0.1), (50, 4.0, 0.05), (1000, 2.0, 0.125)):
        w = rng.dirichlet(np.ones(d)) * F1
        g = rng.uniform(-1, 1, d)
        expected = w * (1 - eta * g + eta * float(w @ g) / F1)
        compare(r, f"d = {d}, F1 = {F1}, eta = {eta}", expected, lambda w=w, g=g, eta=eta, F1=F1:
                 f(w.copy(), g.copy(), eta, F1))
        try:
            s = float(np.sum(f(w.copy(), g.copy(), eta, F1)))
            if abs(s - F1) > 1e-9 * F1:
                r.fail(f"d = {d}: sum of the new weights", f"expected {fmt(F1)}, got {fmt(s)}")
            else:
                r.ok(f"d = {d}: the new weights still sum to F1")
        except NotImplementedError:
            raise
        except Exception as err:
            r.fail(f"d = {d}: sum of the new weights", f"raised {type(err).__name__}: {err}")
    r.finish()


def check_smg_regret_bound(f):
    """``f(T, d, F1, G_inf)`` = Theorem 2.3's noiseless regret bound 4 F1 G_inf sqrt(log d / T)."""
    from ...theory import kakade_foster_evendar as kfe
    r = Report("smg_regret_bound")
    for T, d, F1, G in ((1000, 10, 1.0, 1.0), (10 ** 5, 2001, 4.0, 1.0), (500, 3, 2.5, 0.5)):
        compare(r, f"T = {T}, d = {d}, F1 = {F1}, G_inf = {G}", kfe.smg_regret_bound(T, d, F1, G),
                 lambda T=T, d=d, F1=F1, G=G: f(T, d, F1, G))
    r.finish()


def check_smg_signed_step(f):
    """``f(wp, wm, w0, x, y, eta, F1)`` = ``(wp, wm, w0)`` after one step of SMG for the logistic loss on the
    l1 ball of radius F1, with the +- split w = wp - wm and the dummy weight w0 (the simplex of 2d + 1
    coordinates).  Run from the center over a stream of examples of the sparse logistic teacher and compared with
    :func:`l1lab.solvers.online.smg` on the same order; the weights must stay positive and sum to F1."""
    from ...data.teacher import teacher_problem
    from ...solvers.online import smg
    r = Report("smg_signed_step")
    for d, F1, eta, seed in ((3, 1.0, 0.1, 0), (20, 4.0, 0.05, 1), (100, 2.0, 0.125, 2)):
        prob = teacher_problem(60, d, seed=seed)
        X, y = prob.X.toarray(), prob.y
        order = np.random.default_rng(seed + 10).integers(0, 60, size=40)
        what = f"d = {d}, F1 = {F1}, eta = {eta}, 40 steps"
        state = {}

        def run(X=X, y=y, order=order, d=d, F1=F1, eta=eta, state=state):
            wp, wm, w0 = np.full(d, F1 / (2 * d + 1)), np.full(d, F1 / (2 * d + 1)), F1 / (2 * d + 1)
            for i in order:
                wp, wm, w0 = f(wp.copy(), wm.copy(), float(w0), X[i].copy(), float(y[i]), eta, F1)
                wp, wm, w0 = np.asarray(wp, dtype=np.float64), np.asarray(wm, dtype=np.float64), float(w0)
            state["weights"] = (wp, wm, w0)
            return wp - wm

        compare(r, what + ": the decision w+ - w-", smg(prob, eta, F1, order=order).w, run)
        if "weights" in state:
            wp, wm, w0 = state["weights"]
            total = float(wp.sum() + wm.sum() + w0)
            if abs(total - F1) > 1e-9 * F1 or min(wp.min(), wm.min(), w0) <= 0:
                r.fail(what + ": the 2d + 1 weights", f"expected positive weights summing to {fmt(F1)}, got the "
                       f"sum {fmt(total)} and the smallest weight {fmt(min(wp.min(), wm.min(), w0))}")
            else:
                r.ok(what + ": the 2d + 1 weights stay positive and sum to F1")
    r.finish()


def _linear_regret(G, W, F1):
    """The reference: the average cost of the decisions minus that of the best vertex of the simplex."""
    G, W = np.asarray(G, dtype=np.float64), np.asarray(W, dtype=np.float64)
    return float(np.mean(np.sum(G * W, axis=1)) - F1 * G.sum(axis=0).min() / G.shape[0])


def check_linear_regret(f):
    """``f(G, W, F1)`` = the regret R_T of the decisions W (rows w^t, on the simplex of scale F1) on the linear
    costs c^t(w) = <g^t, w> (rows of G): the average cost minus min over the simplex of the average cost, which a
    vertex attains.  Also checked: the best vertex played throughout has regret 0."""
    r = Report("linear_regret")
    rng = np.random.default_rng(11)
    T = 6
    G = np.tile([[1.0, 0.0], [0.0, 1.0]], (T // 2, 1))       # alternating costs on two coordinates
    W = np.full((T, 2), 0.5)
    cases = [("alternating costs, the center played", G, W, 1.0)]
    for T, N, F1 in ((50, 5, 1.0), (200, 30, 4.0)):
        G = rng.uniform(-1, 1, (T, N))
        W = rng.dirichlet(np.ones(N), size=T) * F1
        cases.append((f"T = {T}, N = {N}, F1 = {F1}, random costs and decisions", G, W, F1))
    G = rng.uniform(0, 1, (40, 8))
    G[:, 5] -= 0.3
    best = np.zeros((40, 8))
    best[:, int(np.argmin(G.sum(axis=0)))] = 2.0
    cases.append(("the best vertex played throughout", G, best, 2.0))
    for what, G, W, F1 in cases:
        compare(r, what, _linear_regret(G, W, F1), lambda G=G, W=W, F1=F1: f(G.copy(), W.copy(), F1))
    r.finish()


def _samples_for_guarantee(d, eps, delta, F1, G_inf):
    """The reference: the smallest integer T >= 16 log N (N = 2d + 1) with Corollary 4.1's bound <= eps."""
    from ...theory import kakade_foster_evendar as kfe
    N = 2 * int(d) + 1
    lo = math.ceil(16 * math.log(N))
    T = max(lo, math.ceil(16 * (F1 * G_inf) ** 2 * (math.sqrt(math.log(N)) + math.sqrt(2 * math.log(1 / delta))) ** 2
                          / eps ** 2) - 2)
    while kfe.cor41_risk_bound(T, N, F1, G_inf, delta) > eps:
        T += 1
    return T


def check_samples_for_guarantee(f):
    """``f(d, eps, delta, F1, G_inf)`` = the smallest number of examples T for which Corollary 4.1 guarantees
    risk(avg w) - risk(w*) <= eps with probability 1 - delta, for SMG on the l1 ball in R^d (N = 2d + 1
    coordinates), with T >= 16 log N as Theorem 2.3 requires."""
    r = Report("samples_for_guarantee")
    for d, eps, delta, F1, G in ((10_000, 0.15, 0.05, 4.0, 1.0), (100, 0.1, 0.01, 2.0, 1.0),
                                 (10 ** 6, 0.25, 0.1, 1.0, 0.5), (100, 3.0, 0.5, 1.0, 1.0)):
        expected = _samples_for_guarantee(d, eps, delta, F1, G)
        what = f"d = {d}, eps = {eps}, delta = {delta}, F1 = {F1}, G_inf = {G}"
        compare_count(r, what, expected, lambda: f(d, eps, delta, F1, G), "examples")
    r.finish()


def check_crossing(f):
    """``f(grid, values, eps)`` = the first horizon at which ``values`` (along the increasing ``grid``) is at most
    eps, interpolated linearly in log-log coordinates between the grid points around it; the first grid point if
    values[0] <= eps already; inf if values never reaches eps (:func:`l1lab.book.exponentiated.crossing`)."""
    from ..exponentiated import crossing
    r = Report("crossing")
    rng = np.random.default_rng(5)
    grid = np.array([16, 23, 32, 45, 64, 91, 128, 181, 256], dtype=np.float64)
    falling = 0.4 * (grid / 16) ** -0.7
    cases = [("a power law crossing eps = 0.1", grid, falling, 0.1),
             ("already below eps at the first horizon", grid, falling, 0.5),
             ("never below eps", grid, falling, 0.01),
             ("not monotone: the first crossing counts", grid, np.array([0.3, 0.2, 0.09, 0.12, 0.08, 0.05, 0.04,
                                                                          0.03, 0.02]), 0.1)]
    vals = np.sort(rng.uniform(0.01, 1.0, grid.size))[::-1]
    cases.append(("random decreasing values", grid, vals, float(vals[4] * 0.97)))
    for what, g, v, eps in cases:
        compare(r, what, crossing(g, v, eps), lambda g=g, v=v, eps=eps: f(g.copy(), v.copy(), eps))
    r.finish()
