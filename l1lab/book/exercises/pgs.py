"""Checkers of the exercise notebooks of the lectures on the Primal Gradient Solver of Zhu et al. (2009):
``pgs`` (the solver and its guarantee) and ``pgs_more_data`` (more data, less time)."""
from __future__ import annotations

import numpy as np

from ._framework import Report, compare

__all__ = ["check_grad_r_star", "check_corollary1_bound", "check_first_round_regret", "check_theorem2_sigma",
           "check_theorem2_error", "check_theorem2_iterations"]


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


def _first_round_cases():
    rng = np.random.default_rng(11)
    cases = [(np.array([1.0, 0.0]), 1.0, 1.0), (np.array([0.5, -0.5, 1.0]), -1.0, 0.05)]
    for n, sigma in ((10, 0.05), (10, 0.5), (50, 0.01), (5, 2.0)):
        cases.append((rng.uniform(-1, 1, n), float(rng.choice([-1.0, 1.0])), sigma))
    return cases


def check_first_round_regret(f):
    """``f(x, y, sigma)`` = the regret of the first round of PGS (p = 2, S = R^n, logistic loss, one example
    (x, y)): c_1(w_0) - min_w c_1(w) with w_0 = 0 and c_1(w) = sigma ||w||_2^2/2 + log(1 + exp(-y <w, x>)).
    The reference minimum is l1lab's L-BFGS on the one-example problem (the objective PGS minimizes)."""
    from ...problem import Problem
    from ...solvers import lbfgs
    from ...solvers.pgs import pgs_objective
    r = Report("first_round_regret")
    for k, (x, y, sigma) in enumerate(_first_round_cases()):
        c1 = Problem(x[None, :], np.array([y]), "logistic", 0.0)
        expected = pgs_objective(c1, np.zeros(x.size), sigma) - lbfgs(c1, sigma, tol=1e-13).objective
        compare(r, f"case {k + 1}: n = {x.size}, y = {y:+g}, sigma = {sigma:g}", expected,
                lambda x=x, y=y, sigma=sigma: f(x.copy(), y, sigma))
    r.finish()


_THEOREM2_CASES = ((1000, 5000, 0.1, 1.0, 2.0), (100, 10 ** 6, 0.05, 3.0, 1.5), (10 ** 5, 200, 0.5, 0.3, 1.8),
                   (50, 50, 0.2, 2.0, 1.2))


def check_theorem2_sigma(f):
    """``f(T, m, delta, u_norm, p)`` = the sigma that minimizes the bound (20) of Theorem 2 of Zhu et al. (2009)
    with c_opt = c_est = 1 (:func:`l1lab.theory.zhu2009.theorem2_sigma`)."""
    from ...theory import zhu2009 as zhu
    r = Report("theorem2_sigma")
    for T, m, delta, u, p in _THEOREM2_CASES:
        compare(r, f"T = {T}, m = {m}, delta = {delta:g}, ||u|| = {u:g}, p = {p:g}",
                zhu.theorem2_sigma(T, m, delta, u, p), lambda a=(T, m, delta, u, p): f(*a))
    r.finish()


def check_theorem2_error(f):
    """``f(T, m, delta, u_norm, p)`` = the value of the bound (20) at its minimizing sigma, the eps of (21)
    derived (with the factor 2 the paper's (21) misses; :func:`l1lab.theory.zhu2009.theorem2_error_at_sigma`)."""
    from ...theory import zhu2009 as zhu
    r = Report("theorem2_error")
    for T, m, delta, u, p in _THEOREM2_CASES:
        compare(r, f"T = {T}, m = {m}, delta = {delta:g}, ||u|| = {u:g}, p = {p:g}",
                zhu.theorem2_error_at_sigma(T, m, delta, u, p), lambda a=(T, m, delta, u, p): f(*a))
    r.finish()


def check_theorem2_iterations(f):
    """``f(eps, m, delta, u_norm, p)`` = the iterations T at which the derived (21) equals eps (eq. (12) with
    c_opt = c_est = 1), ``math.inf`` when eps is out of reach with m examples
    (:func:`l1lab.theory.zhu2009.theorem2_iterations`)."""
    from ...theory import zhu2009 as zhu
    r = Report("theorem2_iterations")
    for eps, m, delta, u, p in ((0.4, 5000, 0.1, 1.0, 2.0), (0.4, 13, 0.1, 1.0, 2.0), (0.4, 12, 0.1, 1.0, 2.0),
                                (0.05, 10 ** 6, 0.05, 1.0, 1.5), (0.3, 100, 0.2, 0.5, 1.8)):
        compare(r, f"eps = {eps:g}, m = {m}, delta = {delta:g}, ||u|| = {u:g}, p = {p:g}",
                zhu.theorem2_iterations(eps, m, delta, u, p), lambda a=(eps, m, delta, u, p): f(*a))
    r.finish()
