"""Checkers of the exercise notebook of the lectures on Stochastic coordinate descent."""
from __future__ import annotations

import numpy as np

from ._framework import Report, compare, compare_count, small_problems

__all__ = ["check_scd_iterations", "check_scd_step"]


def check_scd_step(f):
    """``f(X, y, w, j, lam, beta, loss)`` = the vector w after one step of Algorithm 1 on coordinate j:
    w_j <- s_{lam/beta}(w_j - g_j/beta) with g_j the j-th partial derivative of C(w) = (1/m) sum L; the other
    coordinates unchanged; the input w must not be modified."""
    from ...losses import soft_threshold
    r = Report("scd_step")
    rng = np.random.default_rng(2)
    for loss, prob in small_problems().items():
        beta = prob.loss.beta
        for j in (0, prob.d - 1):
            w = rng.normal(scale=0.3, size=prob.d)
            g = prob.gradient(w)
            expected = w.copy()
            expected[j] = float(soft_threshold(w[j] - g[j] / beta, prob.lam / beta))
            X = np.asarray(prob.X)
            w_in = w.copy()
            compare(r, f"{loss} loss, coordinate {j}", expected,
                     lambda X=X, prob=prob, w_in=w_in, j=j, beta=beta, loss=loss:
                     f(X.copy(), prob.y.copy(), w_in, j, prob.lam, beta, loss))
            if not np.array_equal(w_in, w):
                r.fail(f"{loss} loss, coordinate {j}", "the input w was modified in place")
    r.finish()


def check_scd_iterations(f):
    """``f(eps, d, psi0)`` = the smallest integer T >= 0 for which Theorem 1's bound d Psi(0)/(T + 1) is at most
    eps: T = ceil(d Psi(0)/eps) - 1 (and 0 when d Psi(0) <= eps).  Checked where d Psi(0)/eps is an integer,
    where it is not, and where one step is already enough."""
    from ...theory import shalev_shwartz_tewari as sst
    r = Report("scd_iterations")
    # binary fractions: d Psi(0)/eps is exact whatever the order of the operations
    for eps, d, psi0 in ((2.0 ** -10, 50, 1.5), (0.25, 10, 2.0), (0.125, 7, 0.375), (0.25, 3, 0.3), (2.0, 3, 0.5),
                         (2.0 ** -7, 50, 2.0 ** -7), (2.0 ** -14, 1000, 0.75)):
        expected = sst.scd_iterations_for_accuracy(eps, d, psi0)
        what = f"eps = {eps:g}, d = {d}, Psi(0) = {psi0:g}"
        compare_count(r, what, expected, lambda: f(eps, d, psi0), "iterations")
    r.finish()
