"""Checkers of the exercise notebook of the lecture "One family: mirror descent and dual averaging"."""
from __future__ import annotations

import math

import numpy as np

from ._framework import Report, compare

__all__ = ["check_dual_averaging_point", "check_theorem3_fixed_step"]


def _rda_point(g_sum, t, lam, gamma, p):
    """l1lab's RDA kernel step (``l1lab.solvers._da_kernels.rda_step``): the point of dual averaging for the sum
    ``g_sum`` of t gradients, the l1 weight lam and the prox coefficient gamma sqrt(t) of ||w||_p^2/(2(p-1))."""
    from ...solvers._da_kernels import rda_step
    d = g_sum.size
    w = np.zeros(d)
    scratch_f, scratch_w = np.zeros(d), np.zeros(d)
    act, ib = np.zeros(d, dtype=np.int64), np.zeros(d, dtype=np.int64)
    rda_step(w, np.asarray(g_sum, dtype=np.float64), np.zeros(d), act, scratch_f, scratch_w, ib, float(t),
             float(lam), float(gamma), p / (p - 1.0), p - 1.0)
    return w


def check_dual_averaging_point(f):
    """``f(g_sum, t, lam, gamma, p)`` = the minimizer over w of <g_sum, w> + t lam ||w||_1 + gamma sqrt(t)
    ||w||_p^2/(2(p-1)), the step of RDA (the lecture's dual-averaging template): the soft-threshold of the average
    gradient at lam, mapped by the p-norm link.  Checked against l1lab's RDA kernel at p = 2, at RADAR's p for
    d = 30 and at p = 3/2, for several t, and where lam zeroes every coordinate."""
    from ...theory.agarwal2012 import prox_exponent
    r = Report("dual_averaging_point")
    rng = np.random.default_rng(11)
    cases = [("p = 2", 2.0, 30, 1, 0.1, 1.0), ("p = 2, t = 50", 2.0, 30, 50, 0.2, 0.5),
             ("RADAR's p, d = 30", float(prox_exponent(30)), 30, 20, 0.1, 0.1),
             ("p = 3/2, t = 400", 1.5, 12, 400, 0.05, 2.0), ("RADAR's p, d = 200", float(prox_exponent(200)), 200, 7,
                                                              0.3, 0.1)]
    for what, p, d, t, lam, gamma in cases:
        g_sum = rng.normal(size=d) * t ** 0.5 + rng.normal(scale=0.3, size=d) * t
        compare(r, what, _rda_point(g_sum, t, lam, gamma, p),
                lambda g=g_sum, t=t, lam=lam, gamma=gamma, p=p: f(g.copy(), t, lam, gamma, p))
    g_small = rng.uniform(-0.5, 0.5, size=10) * 8                       # |average| <= 0.5 < lam at t = 8
    compare(r, "lam above every average gradient: w = 0", np.zeros(10),
            lambda: f(g_small.copy(), 8, 0.6, 1.0, 1.5))
    r.finish()


def check_theorem3_fixed_step(f):
    """``f(eta, T, rho, w1, p0, p, d)`` = the bound of Theorem 3 of Shalev-Shwartz & Tewari (2011), case (14), at
    a fixed step eta: (1/(1 - a eta) - 1) P(0) + ||w*||_1^2/(eta T (1 - a eta)), a = kappa rho/2,
    kappa = (p - 1) d^{2/p} (:func:`l1lab.theory.shalev_shwartz_tewari.smidas_bound_self_bounded`).  Checked at
    SMIDAS's p = 2 ln d and at TruncGrad's p = 2, several T, and at the step of Lemma 7."""
    from ...theory import shalev_shwartz_tewari as sst
    r = Report("theorem3_fixed_step")
    for d in (40, 1000):
        for name, p in (("SMIDAS", 2 * math.log(d)), ("TruncGrad", 2.0)):
            for T in (100, 20_000):
                rho, w1, p0 = 2.0, 2.5, 0.5
                eta = sst.smidas_eta_self_bounded(T, rho, w1, p0, p, d)
                for label, e in (("Lemma 7's step", eta), ("half of it", eta / 2)):
                    compare(r, f"{name}, d = {d}, T = {T:,}, {label}",
                            sst.smidas_bound_self_bounded(e, T, rho, w1, p0, p, d),
                            lambda e=e, T=T, p=p, d=d: f(e, T, rho, w1, p0, p, d))
    r.finish()
