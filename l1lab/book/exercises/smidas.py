"""Checkers of the exercise notebook of the lectures on SMIDAS and truncated gradient."""
from __future__ import annotations

import math

import numpy as np

from ._framework import Report, compare

__all__ = ["check_link_inverse", "check_constant"]


def check_link_inverse(f):
    """``f(theta, p)`` = eq. (12): sign(theta_j) |theta_j|^(p-1) / ||theta||_p^(p-2), the gradient of
    ||theta||_p^2 / 2 (p >= 2)."""
    from ...links import link_inverse
    r = Report("link_inverse")
    rng = np.random.default_rng(4)
    for p in (2.0, 3.0, 2 * math.log(1000)):
        th = rng.normal(size=30)
        compare(r, f"p = {p:.4g}, 30 random entries", link_inverse(th, p), lambda th=th, p=p: f(th.copy(), p))
    th = np.zeros(5)
    th[2] = -0.4
    compare(r, "a single nonzero entry", link_inverse(th, 5.0), lambda: f(th.copy(), 5.0))
    r.finish()


def check_constant(name, value):
    """Check a derived constant.  ``name`` is one of: "rho_13_logistic" (|L'| <= rho for the logistic loss),
    "rho_14_squared" (L'^2 <= rho L for L = (a - y)^2 / 2), "beta_logistic" (sup L'' of the logistic loss),
    "kappa_smidas_d1000" (kappa = (p - 1) d^(2/p) at p = 2 ln d, d = 1000)."""
    from ...losses import get_loss
    from ...theory import shalev_shwartz_tewari as sst
    refs = {
        "rho_13_logistic": (get_loss("logistic").rho_lipschitz, "smallest rho with |L'(a, y)| <= rho"),
        "rho_14_squared": (2.0, "smallest rho with L'(a, y)^2 <= rho L(a, y) for L = (a - y)^2 / 2"),
        "beta_logistic": (get_loss("logistic").beta, "sup of L''(a, y)"),
        "kappa_smidas_d1000": (sst.smidas_kappa(2 * math.log(1000), 1000), "(p - 1) d^(2/p) at p = 2 ln d"),
    }
    if name not in refs:
        raise ValueError(f"unknown constant {name!r}; known: {sorted(refs)}")
    expected, what = refs[name]
    r = Report(name)
    compare(r, what, expected, lambda: value)
    r.finish()
