"""Checkers of the exercise notebooks of the lectures on RADAR (``radar``, ``radar_theory``, ``radar_const``)."""
from __future__ import annotations

import math

import numpy as np

from ._framework import Report, compare

__all__ = ["check_radar_update", "check_epoch_length", "check_epochs_that_fit", "check_smallest_sigma",
           "check_omega_for_probability", "check_radar_const", "check_theorem2_epochs"]


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


# ------------------------------------------------------------------------------------------- lecture "radar"
def epochs_that_fit_reference(T, R1, d, s, gamma, G, sigma, omega, c1):
    """The number of complete epochs of the lengths (9) (each rounded up, as Algorithm 1 runs them; radii
    R_i = R1 2^(-(i-1)/2), omega_i^2 = omega^2 + 24 log i, constant G and sigma) that fit into T iterations."""
    from ...theory.agarwal2012 import epoch_length, epoch_radius
    used, K = 0, 0
    while True:
        i = K + 1
        length = math.ceil(epoch_length(epoch_radius(i, R1), i, d, s, gamma, G, sigma, omega, c1))
        if used + length > T:
            return K
        used, K = used + length, K + 1


def check_epochs_that_fit(f):
    """``f(T, R1, d, s, gamma, G, sigma, omega, c1)`` = the number of complete epochs of Agarwal, Negahban &
    Wainwright's lengths (9) that fit into T iterations (:func:`epochs_that_fit_reference`)."""
    r = Report("epochs_that_fit")
    cases = ((10_000, 5.657, 2000, 8, 1 / 3, 1.886, 12.71, 1.0, 1.0),        # not even one: (9) asks for ~25,500
             (10 ** 6, 5.657, 2000, 8, 1 / 3, 1.886, 12.71, 1.0, 1.0),
             (10 ** 7, 5.657, 2000, 8, 1 / 3, 1.886, 12.71, 3.0, 1.0),
             (20_000, 5.5, 40_000, 11, 1 / 3, 1.0, 2.0, 1.0, 0.001),
             (5_000, 1.0, 100, 5, 1.0, 0.5, 0.5, 0.0, 0.1))
    for args in cases:
        T, R1, d = args[:3]
        compare(r, f"T = {T:,}, R_1 = {R1}, d = {d}, omega = {args[7]}, c1 = {args[8]}",
                epochs_that_fit_reference(*args), lambda args=args: f(*args))
    r.finish()


# ------------------------------------------------------------------------------------ lecture "radar_theory"
def smallest_sigma_reference(errors):
    """The smallest sigma with mean_k exp(||e_k||_inf^2/sigma^2) <= exp(1) over the rows e_k of ``errors``
    (Assumption 3 of Agarwal, Negahban & Wainwright 2012 on an empirical distribution): the root of a decreasing
    function of sigma, found by bisection on log sigma."""
    m = np.max(np.abs(np.asarray(errors, dtype=np.float64)), axis=1) ** 2
    top = float(m.max())
    if top == 0:
        return 0.0

    def log_moment(sigma):      # log of the moment, scaled by the largest term: no overflow
        return math.log(float(np.mean(np.exp((m - top) / sigma ** 2)))) + top / sigma ** 2

    lo, hi = math.sqrt(top) * 1e-3, math.sqrt(top)          # the moment at sqrt(top) is at most e
    for _ in range(200):
        mid = math.sqrt(lo * hi)
        lo, hi = (mid, hi) if log_moment(mid) > 1.0 else (lo, mid)
    return hi


def check_smallest_sigma(f):
    """``f(errors)`` = the smallest sigma for which the empirical moment of Assumption 3 of Agarwal, Negahban &
    Wainwright (2012), mean_k exp(||e_k||_inf^2/sigma^2) over the rows e_k of ``errors``, is at most exp(1)
    (relative tolerance 1e-6)."""
    r = Report("smallest_sigma")
    rng = np.random.default_rng(11)
    cases = [("one row", np.array([[0.5, -2.0, 1.0]])),
             ("rows of equal norm", np.array([[3.0, 0.0], [0.0, -3.0], [1.0, 3.0]])),
             ("Gaussian errors, 500 x 20", rng.normal(size=(500, 20))),
             ("heavy-tailed errors, 2000 x 5", rng.standard_t(3, size=(2000, 5))),
             ("uniform errors, 100 x 1000", rng.uniform(-0.2, 0.2, size=(100, 1000)))]
    for what, e in cases:
        expected = smallest_sigma_reference(e)
        try:
            got = float(f(e.copy()))
        except NotImplementedError:
            raise
        except Exception as err:  # a student's bug: a failed check
            r.fail(what, f"raised {type(err).__name__}: {err}")
            continue
        if math.isfinite(got) and abs(got - expected) <= 1e-6 * expected:
            r.ok(what)
        else:
            r.fail(what, f"expected {expected:.6g}, got {got:.6g}")
    r.finish()


def check_omega_for_probability(f):
    """``f(delta)`` = the smallest omega >= 0 for which Theorem 1 of Agarwal, Negahban & Wainwright (2012) holds
    with probability at least 1 - delta, i.e. 1 - 6 exp(-omega^2/12) >= 1 - delta."""
    from ...theory.agarwal2012 import theorem1_probability
    r = Report("omega_for_probability")
    for delta in (0.5, 0.1, 0.01, 1e-6):
        expected = math.sqrt(12 * math.log(6 / delta))
        assert abs(theorem1_probability(expected) - (1 - delta)) < 1e-12
        compare(r, f"delta = {delta:g}", expected, lambda delta=delta: f(delta))
    r.finish()


# ------------------------------------------------------------------------------------- lecture "radar_const"
def stream_samples(stream, seed, n):
    """The first n samples that l1lab's solvers draw from ``stream`` for ``seed``: blocks of
    min(256, 2^21 // d) rows from ``numpy.random.default_rng(seed)``."""
    block = max(1, min(256, (1 << 21) // stream.d))
    rng = np.random.default_rng(seed)
    parts = [stream(rng, block) for _ in range(-(-n // block))]
    return np.concatenate([p[0] for p in parts])[:n], np.concatenate([p[1] for p in parts])[:n]


def check_radar_const(f):
    """``f(X, y, R1, length, lams, steps, p)`` = RADAR-CONST (Algorithm 1 of Agarwal, Negahban & Wainwright 2012
    with epochs of one length) on the squared loss, one sample per step: the centre after the last complete
    epoch, compared with ``l1lab.solvers.dual_averaging.radar(..., epochs="constant")`` on the same samples."""
    from ...data.radar import make_stream
    from ...solvers.dual_averaging import radar
    from ...theory.agarwal2012 import prox_exponent
    from ..radar import method_settings
    r = Report("radar_const")
    for d, T, K, seed in ((20, 600, 3, 0), (100, 1_000, 4, 1), (200, 1_500, 5, 2), (60, 700, 3, 3)):
        stream = make_stream(d, seed=seed)
        kw = method_settings("RADAR-CONST", stream, T, const_epochs=K)
        run = radar(stream, T, seed=seed, n_checkpoints=2, **kw)
        X, y = stream_samples(stream, seed, T)
        args = (kw["R1"], kw["epoch_length"], run.epochs["lam"].copy(), run.epochs["alpha"].copy(), prox_exponent(d))
        note = "" if T % kw["epoch_length"] == 0 else ", the last epoch incomplete"
        compare(r, f"d = {d}, T = {T:,}, {run.n_epochs} epochs of {kw['epoch_length']}{note}", run.w,
                lambda X=X, y=y, args=args: f(X.copy(), y.copy(), *args))
    r.finish()


def check_theorem2_epochs(f):
    """``f(T, d, s, gamma, R1, G, sigma, omega)`` = the number of epochs kappa_T/log d of Theorem 2 of Agarwal,
    Negahban & Wainwright (2012), kappa_T of their (11)."""
    from ...theory.agarwal2012 import kappa_T
    r = Report("theorem2_epochs")
    cases = ((10 ** 6, 2000, 8, 1 / 3, 5.657, 1.886, 12.71, 3.0), (10 ** 9, 2000, 8, 1 / 3, 5.657, 1.886, 12.71, 3.0),
             (10 ** 5, 100, 5, 1.0, 2.0, 0.5, 1.0, 1.0), (20_000, 40_000, 11, 1 / 3, 5.5, 1.8, 12.0, 1.0))
    for args in cases:
        T, d = args[:2]
        compare(r, f"T = {T:,}, d = {d:,}, omega = {args[7]}", kappa_T(*args) / math.log(d), lambda args=args: f(*args))
    r.finish()
