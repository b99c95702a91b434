"""Checkers of the exercise notebook of the lectures on The Primal Gradient Solver."""
from __future__ import annotations

import numpy as np

from ._framework import Report, compare

__all__ = ["check_grad_r_star", "check_corollary1_bound"]


def check_grad_r_star(f):
    """``f(theta, p, B)`` = Figure 2 of Zhu et al. (2009) on the ball S = {||w||_p <= B}: the gradient of the
    conjugate of r(w) = ||w||_p^2/(2(p-1)), i.e. w_j = ||theta||_q^(2-q) sgn(theta_j)|theta_j|^(q-1)/(q-1)
    (q = p/(p-1)), rescaled by B/||w||_p when ||w||_p > B (Corollary 2; not by the printed B/||w||_q)."""
    from ...solvers.pgs import grad_r_star
    r = Report("grad_r_star")
    rng = np.random.default_rng(10)
    cases = [(np.array([0.3, -0.4]), 2.0, 10.0), (np.array([3.0, -4.0]), 2.0, 1.0),
             (rng.normal(size=20) * 0.05, 1.5, 1.0), (rng.normal(size=20) * 3, 1.5, 0.5),
             (rng.normal(size=50), 1.8, 0.2), (rng.normal(size=50) * 2, 1.2, 0.7)]
    for k, (th, p, B) in enumerate(cases):
        inside = np.sum(np.abs(grad_r_star(th, p)) ** p) ** (1 / p) <= B
        compare(r, f"case {k + 1}: n = {th.size}, p = {p}, B = {B} ({'inside' if inside else 'outside'} the ball)",
                 grad_r_star(th, p, B), lambda th=th, p=p, B=B: f(th.copy(), p, B))
    r.finish()


def check_corollary1_bound(f):
    """``f(T, sigma, L)`` = Corollary 1 of Zhu et al. (2009) with its constant made explicit: the regret bound
    L^2 H_T/(2 sigma), H_T = 1 + 1/2 + ... + 1/T the harmonic number."""
    from ...theory import zhu2009 as zhu
    r = Report("corollary1_bound")
    for T, sigma, L in ((1, 0.5, 2.0), (2, 1.0, 1.0), (10, 0.05, 2.41), (1000, 1e-3, 1.0), (10 ** 6, 1e-5, 0.8)):
        compare(r, f"T = {T}, sigma = {sigma:g}, L = {L:g}", zhu.corollary1_regret_bound(T, sigma, L),
                 lambda T=T, sigma=sigma, L=L: f(T, sigma, L))
    r.finish()
