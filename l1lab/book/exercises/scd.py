"""Checkers of the exercise notebook of the lectures on Stochastic coordinate descent."""
from __future__ import annotations

import numpy as np

from ._framework import Report, compare, small_problems

__all__ = ["check_scd_step", "check_scd_bound"]


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


def check_scd_bound(f):
    """``f(T, d, beta, w_star, P0)`` = Theorem 1's bound d Psi(0)/(T + 1), Psi(0) = beta/2 ||w*||^2 + P(0)."""
    from ...theory import shalev_shwartz_tewari as sst
    r = Report("scd_bound")
    rng = np.random.default_rng(3)
    for T, d, beta, P0 in ((0, 10, 1.0, 0.5), (999, 50, 0.25, 0.6931), (10 ** 6, 2000, 1.0, 1.3)):
        w = rng.normal(size=4)
        compare(r, f"T = {T}, d = {d}", sst.scd_expected_gap_bound(T, d, sst.scd_psi0(beta, w, P0)),
                 lambda T=T, d=d, beta=beta, w=w, P0=P0: f(T, d, beta, w.copy(), P0))
    r.finish()
