r"""p-norm link functions (Gentile 2003), shared by SMIDAS, PGS and RADAR.

For :math:`q \in (1, 2]` and its dual :math:`p = q/(q-1) \ge 2`, the link is the gradient of
:math:`F(w) = \tfrac12\|w\|_q^2`,

.. math::  f_j(w) = \frac{\mathrm{sign}(w_j)\,|w_j|^{q-1}}{\|w\|_q^{q-2}}, \qquad
           f^{-1}_j(\theta) = \frac{\mathrm{sign}(\theta_j)\,|\theta_j|^{p-1}}{\|\theta\|_p^{p-2}}
           \quad\text{(eq. (12) of Shalev-Shwartz \& Tewari 2011)},

and :math:`f^{-1} = \nabla F^*` with :math:`F^*(\theta) = \tfrac12\|\theta\|_p^2`.  SMIDAS takes
p = 2 ln d, so p is about 28 at d = 1e6: a naive ``abs(theta)**(p-1)`` overflows or underflows for
entries far from 1.  Both maps here factor out M = max_j |x_j| first (the maps are positively homogeneous of
degree 1), raise only numbers in [0, 1] to powers, and switch to logarithms where a power would underflow
while the result would not, so they are exact to rounding for entries of any magnitude, and 0 maps to 0.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from ._validate import check_array, check_count, check_real


def smidas_p(d: int, rounded: bool = False) -> float:
    """The p of Algorithm 3: p = 2 ln d (Section 3), or ceil(2 ln d) as in the experiments (Section 4.3.3).

    For d <= 2, 2 ln d < 2 is not a valid dual exponent; p = 2 (the Euclidean link) is returned then.
    """
    d = check_count(d, "d", minimum=1)
    p = 2.0 * math.log(d)
    if rounded:
        p = float(math.ceil(p))
    return max(p, 2.0)


def dual_exponent(r: float) -> float:
    """The Hoelder conjugate r/(r - 1) of r > 1."""
    r = check_real(r, "the exponent r", low=1.0, low_open=True)
    return r / (r - 1.0)


@njit(cache=True)
def _link_kernel(x, r, rm1, rm2, out):
    """out = grad (1/2)||x||_r^2 = sign(x_j)|x_j|^(r-1) / ||x||_r^(r-2), with r - 1 = ``rm1`` and r - 2 = ``rm2``
    passed separately so that they can be exact (for r = q they are 1/(p-1) and (2-p)/(p-1), not q - 1)."""
    n = x.shape[0]
    M = 0.0
    for j in range(n):
        a = abs(x[j])
        if a > M:
            M = a
    if M == 0.0:
        for j in range(n):
            out[j] = 0.0
        return
    s = 0.0
    for j in range(n):
        s += (abs(x[j]) / M) ** r  # each term in [0, 1], the largest is 1: no overflow, harmless underflow
    log_norm = math.log(s) / r     # log ||x/M||_r, in [0, log(n)/r]
    scale = math.exp(-rm2 * log_norm)
    log_M = math.log(M)
    for j in range(n):
        a = abs(x[j])
        if a == 0.0:
            out[j] = 0.0
            continue
        u = a / M
        pw = u ** rm1 if u > 1e-290 else 0.0
        if pw > 1e-290:
            v = M * pw * scale
        else:  # u or its power underflows but the result may not: work in logarithms
            v = math.exp(log_M + rm1 * (math.log(a) - log_M) - rm2 * log_norm)
        out[j] = v if x[j] > 0 else -v


def _check(x, r, name):
    x = check_array(x, name)
    r = check_real(r, "the exponent p", allow_inf=True)
    if not (r >= 2 and math.isfinite(r)):
        raise ValueError(f"the exponent p must be a finite number >= 2 (the dual of q in (1, 2]), got {r}")
    return x, r


def link(w, p):
    r"""The p-norm link :math:`f(w) = \nabla \tfrac12\|w\|_q^2`, q = p/(p-1) (Section 3 of Shalev-Shwartz &
    Tewari 2011).  It is parametrized by the dual exponent p >= 2, like :func:`link_inverse`, so that the
    exponents q - 1 = 1/(p-1) and q - 2 = (2-p)/(p-1) are computed without cancellation and
    ``link_inverse(link(w, p), p)`` returns w to about 1e-13 relative."""
    w, p = _check(w, p, "w")
    out = np.empty_like(w)
    _link_kernel(w, p / (p - 1.0), 1.0 / (p - 1.0), (2.0 - p) / (p - 1.0), out)
    return out


def link_inverse(theta, p):
    r"""The inverse p-norm link, Eq. (12) of Shalev-Shwartz & Tewari (2011):
    :math:`f^{-1}_j(\theta) = \mathrm{sign}(\theta_j)|\theta_j|^{p-1}/\|\theta\|_p^{p-2}`, the gradient of
    :math:`\tfrac12\|\theta\|_p^2`."""
    theta, p = _check(theta, p, "theta")
    out = np.empty_like(theta)
    _link_kernel(theta, p, p - 1.0, p - 2.0, out)
    return out
