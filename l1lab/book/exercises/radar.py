"""Checkers of the exercise notebook of the lectures on RADAR."""
from __future__ import annotations

import numpy as np

from ._framework import Report, compare

__all__ = ["check_radar_update", "check_epoch_length"]


def check_radar_update(f):
    """``f(mu, center, R, alpha, p)`` = update (4) of Agarwal, Negahban & Wainwright (2012) with the prox-function
    (5), the argmin over ||theta - center||_p <= R of alpha <mu, theta> + ||theta - center||_p^2/(2 R^2 (p-1)), in
    the closed form (6) re-derived in the chapter: center - alpha R^2 (p-1)/(1 + xi) sign(mu)|mu|^(q-1)/
    ||mu||_q^(q-2) with 1 + xi = max(1, alpha R (p-1) ||mu||_q), q = p/(p-1); center itself when mu = 0."""
    from ...solvers.dual_averaging import radar_update
    from ...theory.agarwal2012 import prox_exponent
    r = Report("radar_update")
    rng = np.random.default_rng(10)
    for d, R, alpha in ((5, 1.0, 0.01), (50, 2.0, 0.05), (50, 0.5, 30.0), (2000, 5.657, 0.19), (2000, 1.0, 20.0)):
        p = prox_exponent(d)
        mu = rng.normal(size=d)
        y = rng.normal(size=d) * (rng.random(d) < 0.3)
        expected = radar_update(mu, y, R, alpha, p)
        dist = float(np.sum(np.abs(expected - y) ** p) ** (1 / p))
        where = "inside the ball" if dist < R * (1 - 1e-9) else "on its sphere"
        compare(r, f"d = {d}, R = {R}, alpha = {alpha} ({where})", expected,
                 lambda mu=mu, y=y, R=R, alpha=alpha, p=p: f(mu.copy(), y.copy(), R, alpha, p))
    y = rng.normal(size=8)
    compare(r, "mu = 0 (no step)", y, lambda: f(np.zeros(8), y.copy(), 1.0, 0.1, prox_exponent(8)))
    r.finish()


def check_epoch_length(f):
    """``f(R_i, i, d, s, gamma, G, sigma, omega, c1)`` = the length (9) of epoch i of RADAR,
    c1 [s^2/(gamma^2 R_i^2) ((G^2 + sigma^2) log d + omega_i^2 sigma^2) + log d] with omega_i^2 = omega^2 + 24 log i
    (natural logarithms)."""
    from ...theory.agarwal2012 import epoch_length
    r = Report("epoch_length")
    cases = ((5.657, 1, 2000, 8, 1 / 3, 1.886, 12.71, 1.0, 1.0), (2.0, 4, 2000, 8, 1 / 3, 0.667, 4.955, 1.0, 256.0),
             (1.0, 10, 40000, 11, 0.1, 0.5, 2.0, 3.0, 0.01), (0.1, 2, 10, 1, 1.0, 0.0, 0.0, 0.0, 1.0))
    for args in cases:
        R, i, d = args[:3]
        compare(r, f"R_i = {R}, i = {i}, d = {d}", epoch_length(*args), lambda args=args: f(*args))
    r.finish()
