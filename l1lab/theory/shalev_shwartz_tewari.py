r"""Bounds of Shalev-Shwartz & Tewari, *Stochastic Methods for l1-regularized Loss Minimization*, JMLR 12
(2011): Sections 1-2 and Appendix B (coordinate descent).

Each bound is a plain function of its parameters.  Where the paper's printed specialization does not follow
from its own theorem, the function computes what the theorem gives and a ``*_as_printed`` function keeps
the printed expression, so the book can show both.
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from .._validate import (
    ANY,
    SEED,
    check_real,
    check_reals,
    checked,
    count,
    counts,
    nonnegative,
    positive,
    probability,
    real,
    reals,
    vector,
)
from ..problem import PROBLEM

#: The domain of every parameter of this module, by name (checked before each call; see ``l1lab._validate``).
#: Counts (T, d, m, n_trials, s of Lemma 5) must be integers; T of the SMIDAS and Lemma 7 bounds is a real horizon
#: >= 1 (> 0 for Lemma 7): those bounds are formulas the book draws over continuous grids of T.
_P = {
    "beta": positive(), "w_star": vector(), "p0": nonnegative(), "beta_j": vector(), "T": counts(0),
    "d": count(1), "psi0": nonnegative(), "delta": probability(), "eps": positive(), "m": count(1),
    "s": real(low=0.0, low_open=True, high=1.0), "w_star_norm2_sq": nonnegative(), "w_star_norm1": nonnegative(),
    "x2_sq": nonnegative(), "c0": nonnegative(), "problem": PROBLEM, "n_trials": count(1), "seed": SEED,
    "scale": positive(), "p": real(low=2.0), "eta": positive(), "rho": positive(), "K": positive(),
    "p_star": nonnegative(), "a": positive(), "b": positive(), "P": positive(), "loss": ANY, "w_j": real(),
    "g_j": real(), "lam": nonnegative(), "c": positive(), "cap": positive(),
    "B": ANY,  # checked by _lemma5_B (B >= 2, with the reason)
}
#: s of Lemma 5 (a number of nonzeros, or an array of them): checked by _lemma5_s (its range with the lemma's
#: wording, then integrality)
_SPARSITY = ANY
_checked = checked(_P)
_checked_horizon = checked(_P, T=reals(low=1.0))


def _pos(name, v):
    v = np.asarray(v, dtype=np.float64)
    if np.any(~(v > 0)):
        raise ValueError(f"{name} must be > 0, got {v}")
    return v


@_checked
def scd_psi0(beta, w_star, p0):
    r"""Theorem 1 of Shalev-Shwartz & Tewari (2011): the potential at the start,
    :math:`\Psi(0) = \frac{\beta}{2}\|w^\star\|_2^2 + P(0)`.

    ``p0`` is P(0) = C(0) (= log 2 for the logistic loss, (1/2m) sum y_i^2 for the squared loss).
    """
    w_star = np.asarray(w_star, dtype=np.float64)
    return 0.5 * float(beta) * float(w_star @ w_star) + float(p0)


@_checked
def scd_coordinate_psi0(beta_j, w_star, p0):
    r"""Theorem 1 of Shalev-Shwartz & Tewari (2011) with coordinate curvature (this book's extension, not in the
    paper; the weighted norm of Nesterov (2012) and Richtárik & Takáč (2014)): the potential
    :math:`\Psi_B(0) = \frac12\sum_j \beta_j (w^\star_j)^2 + P(0)`.

    When every coordinate j satisfies condition (9) with its own constant beta_j (beta_j = beta ||x_j||^2/m for
    the squared and the logistic loss) and SCD steps by 1/beta_j (``scd(..., step="coordinate")``), the proof
    of Theorem 1 with the norm :math:`\|v\|_B^2 = \sum_j \beta_j v_j^2` gives
    :math:`\mathbb{E}[P(w_T)] - P^\star \le \frac{d\,\Psi_B(0)}{T+1}` (d >= 2), i.e.
    :func:`scd_expected_gap_bound` with this potential.  Since beta_j <= beta on [-1, 1] data,
    Psi_B(0) <= Psi(0).
    """
    beta_j = np.asarray(beta_j, dtype=np.float64)
    w_star = np.asarray(w_star, dtype=np.float64)
    if beta_j.shape != w_star.shape:
        raise ValueError(f"beta_j and w_star must have the same shape, got {beta_j.shape} and {w_star.shape}")
    if np.any(~(beta_j >= 0)):
        raise ValueError("beta_j must be >= 0")
    return 0.5 * float(beta_j @ (w_star * w_star)) + float(p0)


@_checked
def scd_expected_gap_bound(T, d, psi0):
    r"""Theorem 1 of Shalev-Shwartz & Tewari (2011):
    :math:`\mathbb{E}[P(w_T)] - P(w^\star) \le \frac{d\,\Psi(0)}{T+1}` for SCD after T iterations.

    ``T`` may be an array; returns an array of the same shape (a float for scalar T).

    >>> scd_expected_gap_bound(999, d=50, psi0=2.0)        # d Psi(0) / (T + 1)
    0.1
    """
    T = np.asarray(T, dtype=np.float64)
    if np.any(T < 0):
        raise ValueError("T must be >= 0")
    out = d * float(psi0) / (T + 1.0)
    return float(out) if out.ndim == 0 else out


@_checked
def scd_high_probability_gap_bound(T, d, psi0):
    r"""Theorem 2 of Shalev-Shwartz & Tewari (2011): with probability at least 1/2 (and, for the best of
    :func:`scd_runs_for_confidence` independent runs, at least 1 - delta),
    :math:`P(w_T) - P(w^\star) \le \frac{2d\,\Psi(0)}{T+1}` (Markov's inequality on Theorem 1).
    """
    return 2.0 * np.asarray(scd_expected_gap_bound(T, d, psi0))[()]


@_checked
def scd_runs_for_confidence(delta):
    r"""Theorem 2 of Shalev-Shwartz & Tewari (2011): :math:`r = \lceil \log_2(1/\delta) \rceil` runs make the
    best run satisfy the probability-1/2 bound with probability at least 1 - delta (each run fails with
    probability at most 1/2, independently)."""
    if not (0 < delta < 1):
        raise ValueError(f"delta must be in (0, 1), got {delta}")
    # The smallest r >= 1 with 2**-r <= delta, decided exactly: powers of two are exact floats, so start from
    # the logarithm and correct its rounding by comparing the powers themselves.
    r = max(1, math.ceil(-math.log2(delta)))
    while 0.5**r > delta:
        r += 1
    while r > 1 and 0.5 ** (r - 1) <= delta:
        r -= 1
    return r


@_checked
def scd_iterations_for_accuracy(eps, d, psi0):
    r"""Theorem 1 of Shalev-Shwartz & Tewari (2011) solved for T: the smallest T with
    :math:`d\Psi(0)/(T+1) \le \varepsilon`, i.e. :math:`T = \lceil d\Psi(0)/\varepsilon \rceil - 1`."""
    _pos("eps", eps)
    if not (math.isfinite(float(psi0)) and psi0 >= 0):
        raise ValueError(f"psi0 must be finite and >= 0, got {psi0}")
    # Exact rational arithmetic, each float read as the shortest decimal that prints it (0.1 is 1/10): d*psi0/eps
    # is often a whole number (d = 3, psi0 = eps = 0.1), and the rounded float quotient then lands just above it,
    # one iteration too many.
    q = Fraction(int(d)) * Fraction(repr(float(psi0))) / Fraction(repr(float(eps)))
    return max(0, math.ceil(q) - 1)


@_checked
def average_nonzeros(problem):
    r"""Eq. (8) of Shalev-Shwartz & Tewari (2011): :math:`s = |\{(i,j): x_{ij} \ne 0\}| / (md)`, the
    fraction of nonzero entries, so that an SCD step costs s*m data accesses on average."""
    if problem.is_sparse:
        nnz = int(np.count_nonzero(problem.X.data))
    else:
        nnz = int(np.count_nonzero(problem.X))
    return nnz / (problem.m * problem.d)


@_checked
def scd_runtime_bound(eps, m, d, beta, w_star_norm2_sq, s=1.0):
    r"""Bound (2) of Shalev-Shwartz & Tewari (2011), SCD's runtime to expected accuracy eps, up to the P(0)
    term: :math:`s\,m\,d\,\beta\|w^\star\|_2^2/\varepsilon` data accesses (the paper states it with s = 1;
    the exact statement with P(0) is :func:`scd_runtime_expected`)."""
    _pos("eps", eps)
    return s * m * d * beta * w_star_norm2_sq / eps


@_checked
def scd_runtime_expected(eps, m, d, s, psi0):
    r"""Theorem 1 of Shalev-Shwartz & Tewari (2011) turned into data accesses: T(eps) iterations of
    average cost s*m, :math:`s\,m\,(\lceil d\Psi(0)/\varepsilon\rceil - 1)`."""
    return s * m * scd_iterations_for_accuracy(eps, d, psi0)


@_checked
def scd_runtime_high_probability(eps, delta, m, d, s, psi0):
    r"""Theorem 2 of Shalev-Shwartz & Tewari (2011) turned into data accesses: r = ceil(log2(1/delta)) runs of
    T = ceil(2 d Psi(0)/eps) - 1 iterations each, average cost s*m per iteration:
    :math:`s\,m\,r\,(\lceil 2d\Psi(0)/\varepsilon\rceil - 1)`.  The log term multiplies: see
    :func:`scd_runtime_logistic_as_printed`.  Not counted, as in the paper: evaluating P on the r results to
    pick the best, r passes over the data (r s m d accesses), a fraction eps/(2 Psi(0)) of one run's cost."""
    r = scd_runs_for_confidence(delta)
    return s * m * r * scd_iterations_for_accuracy(eps, d, 2.0 * psi0)


@_checked
def scd_runtime_logistic(eps, m, d, s, w_star_norm2_sq, delta=None):
    r"""Section 2.2 of Shalev-Shwartz & Tewari (2011), logistic loss, derived from Theorems 1-2 with
    beta = 1/4 and P(0) = C(0) = log 2 <= 1:  Psi(0) <= ||w*||^2/8 + 1, so expected eps-accuracy after
    :math:`s\,m\,d(\tfrac18\|w^\star\|_2^2 + 1)/\varepsilon` data accesses, and with probability 1 - delta after
    :math:`\lceil\log_2(1/\delta)\rceil` times twice that."""
    psi0 = w_star_norm2_sq / 8.0 + 1.0
    if delta is None:
        return s * m * d * psi0 / eps
    return s * m * scd_runs_for_confidence(delta) * d * 2.0 * psi0 / eps


@_checked
def scd_runtime_logistic_as_printed(eps, m, d, s, w_star_norm2_sq, delta=None):
    r"""Section 2.2 of Shalev-Shwartz & Tewari (2011) as printed: :math:`smd(\frac14\|w^\star\|^2+2)/\varepsilon`
    (expected) and :math:`smd((\frac12\|w^\star\|^2+4)/\varepsilon + \lceil\log(1/\delta)\rceil)` (probability
    1 - delta).  The first is twice what Theorem 1 gives; the second adds the log term where Theorem 2's
    repetition argument multiplies by it."""
    if delta is None:
        return s * m * d * (w_star_norm2_sq / 4.0 + 2.0) / eps
    return s * m * d * ((w_star_norm2_sq / 2.0 + 4.0) / eps + math.ceil(math.log(1.0 / delta)))


@_checked
def scd_runtime_squared(eps, m, d, s, w_star_norm2_sq, c0=1.0, delta=None):
    r"""Section 2.2 of Shalev-Shwartz & Tewari (2011), squared loss L = (a - y)^2/2, derived from Theorems
    1-2 with beta = 1 and C(0) = c0 (the paper assumes C(0) <= 1): Psi(0) = ||w*||^2/2 + c0, expected
    accuracy after :math:`s\,m\,d(\tfrac12\|w^\star\|^2 + c_0)/\varepsilon` data accesses; with probability
    1 - delta after ceil(log2(1/delta)) times twice that."""
    psi0 = w_star_norm2_sq / 2.0 + c0
    if delta is None:
        return s * m * d * psi0 / eps
    return s * m * scd_runs_for_confidence(delta) * d * 2.0 * psi0 / eps


@_checked
def scd_runtime_squared_as_printed(eps, m, d, s, w_star_norm2_sq, delta):
    r"""Section 2.2 of Shalev-Shwartz & Tewari (2011) as printed for the squared loss:
    :math:`smd((2\|w^\star\|^2 + 4)/\varepsilon + \lceil\log(1/\delta)\rceil)`, four times Theorem 1's constant
    (the paper also writes C(0) = (1/m) sum y_i^2, the value for the unhalved loss)."""
    return s * m * d * ((2.0 * w_star_norm2_sq + 4.0) / eps + math.ceil(math.log(1.0 / delta)))


@_checked
def tseng_yun_runtime_bound(eps, m, d, beta, w_star_norm2_sq):
    r"""Section 1.1.1 of Shalev-Shwartz & Tewari (2011): the runtime of Tseng & Yun's (2009) deterministic
    block coordinate gradient descent, translated to problem (1), is of order
    :math:`m d^2 \beta\|w^\star\|_2^2/\varepsilon` (iterations beta||w*||^2/(eps v) with v = 1/d, cost md each),
    a factor d above bound (2)."""
    _pos("eps", eps)
    return m * d * d * beta * w_star_norm2_sq / eps


@_checked
def boosting_runtime_bound(eps, m, d, beta, w_star_norm1):
    r"""Section 1.1.2 of Shalev-Shwartz & Tewari (2011): forward greedy selection (boosting / Frank-Wolfe)
    for the l1-constrained problem needs O(beta ||w*||_1^2/eps) iterations of cost md, runtime of order
    :math:`m d \beta\|w^\star\|_1^2/\varepsilon`; up to d times bound (2) since ||w||_1^2 <= d ||w||_2^2."""
    _pos("eps", eps)
    return m * d * beta * w_star_norm1 ** 2 / eps


@_checked
def lemma6_max_violation(problem, n_trials=2000, seed=0, beta=None, scale=3.0):
    r"""Lemma 6 of Shalev-Shwartz & Tewari (2011), checked on data: condition (9),
    :math:`C(w + \eta e_j) \le C(w) + \eta(\nabla C(w))_j + \frac{\beta}{2}\eta^2`.

    Draws ``n_trials`` random (w, j, eta) (w with entries of size ``scale``/sqrt(d), eta log-uniform in
    [1e-3, 1e2] with a random sign) and returns the largest value of
    LHS - RHS, relative to max(1, |C(w)|).  A value <= ~1e-12 means (9) held in every trial.
    """
    beta = problem.loss.beta if beta is None else float(beta)
    rng = np.random.default_rng(seed)
    worst = -np.inf
    X = problem.X
    for _ in range(n_trials):
        w = rng.standard_normal(problem.d) * scale / np.sqrt(problem.d)
        j = int(rng.integers(problem.d))
        eta = rng.choice([-1.0, 1.0]) * 10.0 ** rng.uniform(-3, 2)
        z = problem.margins(w)
        c = problem.smooth_from_margins(z)
        col = X[:, j]
        col = np.asarray(col.todense()).ravel() if hasattr(col, "todense") else np.asarray(col)
        g = float(problem.loss.deriv(z, problem.y) @ col) / problem.m
        lhs = problem.smooth_from_margins(z + eta * col)
        rhs = c + eta * g + 0.5 * beta * eta * eta
        worst = max(worst, (lhs - rhs) / max(1.0, abs(c)))
    return float(worst)


# ---------------------------------------------------------------------------------------------------------
# Section 3: SMIDAS (Theorem 3, Proposition 4, Lemma 7) and the runtime bounds (3), (4)
#
# The proof of Theorem 3 bounds ||v_t||_p^2 <= ||v_t||_inf^2 d^{2/p} and uses d^{2/p} = e for p = 2 ln d.
# The functions below keep the general factor kappa = (p - 1) d^{2/p} (so they also hold for the
# experiments' p = ceil(2 ln d), or any p >= 2); the *_as_printed functions are the log-d forms of the
# theorem statement, which upper-bound them when p = 2 ln d.


@_checked
def smidas_kappa(p, d):
    r"""Proof of Theorem 3 of Shalev-Shwartz & Tewari (2011): :math:`\kappa = (p-1)\,d^{2/p}`, the factor the
    step-size term carries; it equals (p - 1)e at p = 2 ln d."""
    if not p >= 2:
        raise ValueError(f"p must be >= 2, got {p}")
    if d < 1:
        raise ValueError(f"d must be >= 1, got {d}")
    return (p - 1.0) * d ** (2.0 / p)


@_checked_horizon
def smidas_bound_lipschitz(eta, T, rho, w_star_norm1, p, d):
    r"""Theorem 3 of Shalev-Shwartz & Tewari (2011), case (13) |L'| <= rho, any step size eta:
    :math:`\mathbb{E}[P(w_o)] - P(w^\star) \le \frac{\eta\kappa\rho^2}{2} + \frac{\|w^\star\|_1^2}{\eta T}`,
    :math:`\kappa = (p-1)d^{2/p}` (= (p-1)e at p = 2 ln d), w_o uniform among the first T iterates."""
    _pos("eta", eta)
    T = np.asarray(T, dtype=np.float64)
    out = eta * smidas_kappa(p, d) * rho ** 2 / 2.0 + w_star_norm1 ** 2 / (eta * T)
    return float(out) if out.ndim == 0 else out


@_checked_horizon
def smidas_eta_lipschitz(T, rho, w_star_norm1, p, d):
    r"""Theorem 3 of Shalev-Shwartz & Tewari (2011), case (13): the step size minimizing the bound,
    :math:`\eta = \frac{\|w^\star\|_1}{\rho}\sqrt{\frac{2}{\kappa T}}` (the paper's
    :math:`\frac{\|w^\star\|_1}{\rho}\sqrt{\frac{2}{(p-1)eT}}`)."""
    return w_star_norm1 / rho * math.sqrt(2.0 / (smidas_kappa(p, d) * T))


@_checked_horizon
def smidas_rate_lipschitz(T, rho, w_star_norm1, p, d):
    r"""Theorem 3 of Shalev-Shwartz & Tewari (2011), case (13), at the optimal eta:
    :math:`\rho\|w^\star\|_1\sqrt{2\kappa/T}`."""
    T = np.asarray(T, dtype=np.float64)
    out = rho * w_star_norm1 * np.sqrt(2.0 * smidas_kappa(p, d) / T)
    return float(out) if out.ndim == 0 else out


@_checked_horizon
def smidas_rate_lipschitz_as_printed(T, rho, w_star_norm1, d):
    r"""Theorem 3 of Shalev-Shwartz & Tewari (2011), case (13), as stated:
    :math:`\rho\|w^\star\|_1\sqrt{12\log(d)/T}` (2(p-1)e <= 4e ln d <= 12 ln d at p = 2 ln d)."""
    T = np.asarray(T, dtype=np.float64)
    out = rho * w_star_norm1 * np.sqrt(12.0 * math.log(d) / T)
    return float(out) if out.ndim == 0 else out


@checked(_P, eta=reals(), T=reals(low=0.0, low_open=True), P=nonnegative(), b=nonnegative())
def lemma7_f(eta, a, b, P, T):
    r"""Lemma 7 of Shalev-Shwartz & Tewari (2011): :math:`f(\eta) = \left(\frac{1}{1-a\eta} - 1\right)P +
    \frac{b/(\eta T)}{1 - a\eta}` on (0, 1/a) (infinite outside); b >= 0 (b = ||w*||_1^2 is 0 when w* = 0)."""
    eta = np.asarray(eta, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where((eta > 0) & (a * eta < 1), (1.0 / (1.0 - a * eta) - 1.0) * P + b / (eta * T) / (1.0 - a * eta),
                       np.inf)
    return float(out) if out.ndim == 0 else out


@checked(_P, T=reals(low=0.0, low_open=True))
def lemma7_eta_star(a, b, P, T):
    r"""Lemma 7 of Shalev-Shwartz & Tewari (2011): the minimizer
    :math:`\eta^\star = \frac{b}{PT}\left(\sqrt{1 + \frac{PT}{ab}} - 1\right)` of :func:`lemma7_f`."""
    for name, v in (("a", a), ("b", b), ("P", P), ("T", T)):
        _pos(name, v)
    x = P * T / (a * b)
    # sqrt(1 + x) - 1 = x / (sqrt(1 + x) + 1), without cancellation for small x
    return b / (P * T) * x / (math.sqrt(1.0 + x) + 1.0)


@checked(_P, T=reals(low=0.0, low_open=True), P=nonnegative())
def lemma7_min_upper_bound(a, b, P, T):
    r"""Lemma 7 of Shalev-Shwartz & Tewari (2011): :math:`f(\eta^\star) \le 4\sqrt{abP/T} + 4ab/T`."""
    return 4.0 * math.sqrt(a * b * P / T) + 4.0 * a * b / T


@_checked_horizon
def smidas_bound_self_bounded(eta, T, rho, w_star_norm1, p0, p, d):
    r"""Theorem 3 of Shalev-Shwartz & Tewari (2011), case (14) L'^2 <= rho L, any eta with a eta < 1:
    :math:`\mathbb{E}[P(w_o)] - P(w^\star) \le \left(\frac{1}{1-a\eta} - 1\right)P(0) +
    \frac{\|w^\star\|_1^2}{\eta T(1-a\eta)}`, :math:`a = \kappa\rho/2` (= (p-1)\rho e/2 at p = 2 ln d)."""
    a = smidas_kappa(p, d) * rho / 2.0
    return lemma7_f(eta, a, w_star_norm1 ** 2, p0, np.asarray(T, dtype=np.float64))


@_checked_horizon
def smidas_eta_self_bounded(T, rho, w_star_norm1, p0, p, d):
    r"""Theorem 3 of Shalev-Shwartz & Tewari (2011), case (14): the step size of Lemma 7,
    :math:`\eta = \frac{\|w^\star\|_1^2}{P(0)T}\left(\sqrt{1 + \frac{2P(0)T}{\kappa\rho\|w^\star\|_1^2}} - 1\right)`."""
    return lemma7_eta_star(smidas_kappa(p, d) * rho / 2.0, w_star_norm1 ** 2, p0, T)


@_checked_horizon
def smidas_rate_self_bounded(T, rho, w_star_norm1, p0, p, d):
    r"""Theorem 3 of Shalev-Shwartz & Tewari (2011), case (14), at Lemma 7's eta:
    :math:`4\sqrt{abP(0)/T} + 4ab/T` with a = kappa rho/2, b = ||w*||_1^2, i.e.
    :math:`4\|w^\star\|_1\sqrt{\frac{\kappa\rho P(0)}{2T}} + \frac{2\kappa\rho\|w^\star\|_1^2}{T}`."""
    T = np.asarray(T, dtype=np.float64)
    a, b = smidas_kappa(p, d) * rho / 2.0, w_star_norm1 ** 2
    out = 4.0 * np.sqrt(a * b * p0 / T) + 4.0 * a * b / T
    return float(out) if out.ndim == 0 else out


@_checked_horizon
def smidas_rate_self_bounded_as_printed(T, rho, w_star_norm1, p0, d):
    r"""Theorem 3 of Shalev-Shwartz & Tewari (2011), case (14), as stated:
    :math:`4\|w^\star\|_1\sqrt{\frac{6\rho\log(d)P(0)}{2T}} + \frac{12\rho\log(d)\|w^\star\|_1^2}{T}`."""
    T = np.asarray(T, dtype=np.float64)
    L = math.log(d)
    out = 4.0 * w_star_norm1 * np.sqrt(6.0 * rho * L * p0 / (2.0 * T)) + 12.0 * rho * L * w_star_norm1 ** 2 / T
    return float(out) if out.ndim == 0 else out


@_checked
def smidas_prop4_eta(K, rho, p, d):
    r"""Proposition 4 of Shalev-Shwartz & Tewari (2011): :math:`\eta = \frac{2}{\kappa\rho}\frac{K}{1+K}`
    (the paper's :math:`\frac{2}{(p-1)\rho e}\frac{K}{1+K}`), any K > 0."""
    _pos("K", K)
    return 2.0 / (smidas_kappa(p, d) * rho) * K / (1.0 + K)


@checked(_P, T=reals(low=1.0), K=reals(low=0.0, low_open=True))
def smidas_prop4_bound(K, T, rho, w_star_norm1, p_star, p, d):
    r"""Proposition 4 of Shalev-Shwartz & Tewari (2011), under (14) with :func:`smidas_prop4_eta`:
    :math:`\mathbb{E}[P(w_o)] \le (1+K)P(w^\star) + \frac{(1+K)^2}{K}\frac{ab}{T}`, a = kappa rho/2,
    b = ||w*||_1^2 (the statement's :math:`3\rho\log(d)\|w^\star\|_1^2` upper-bounds ab at p = 2 ln d).
    Note: the proposition averages the iterates at the *beginning* of iterations 0..T-1; Theorem 3 those at
    their end; both equal {w_0, ..., w_{T-1}} with w_0 = 0 once indexed by the number of steps taken."""
    _pos("K", K)
    K = np.asarray(K, dtype=np.float64)
    T = np.asarray(T, dtype=np.float64)
    ab = smidas_kappa(p, d) * rho / 2.0 * w_star_norm1 ** 2
    out = (1.0 + K) * p_star + (1.0 + K) ** 2 / K * ab / T
    return float(out) if out.ndim == 0 else out


@_checked
def smidas_runtime_bound(eps, d, w_star_norm1):
    r"""Bound (3) of Shalev-Shwartz & Tewari (2011): SMIDAS reaches expected accuracy eps for the logistic and
    squared losses in :math:`O(d\log(d)\|w^\star\|_1^2/\varepsilon^2)` time (O(d) per step, O(log(d)
    ||w*||_1^2/eps^2) steps); the function returns the expression without its constant."""
    _pos("eps", eps)
    return d * math.log(d) * w_star_norm1 ** 2 / eps ** 2


@_checked
def truncgrad_runtime_bound(eps, d, w_star_norm2_sq, x2_sq):
    r"""Bound (4) of Shalev-Shwartz & Tewari (2011), Langford et al.'s truncated gradient:
    :math:`O(d\|w^\star\|_2^2 X_2^2/\varepsilon^2)` with :math:`X_2^2 = \frac1m\sum_i\|x_i\|_2^2`; the function
    returns the expression without its constant."""
    _pos("eps", eps)
    return d * w_star_norm2_sq * x2_sq / eps ** 2


@_checked
def mean_squared_row_norm(problem):
    r"""Section 1.1.3 of Shalev-Shwartz & Tewari (2011): :math:`X_2^2 = \frac1m\sum_i\|x_i\|_2^2`, the
    average squared norm of an example (bound (4))."""
    X = problem.X
    sq = X.multiply(X).sum() if problem.is_sparse else float(np.einsum("ij,ij->", X, X))
    return float(sq) / problem.m


@checked(_P, a=reals(), y=reals())
def loss_derivative(a, y, loss):
    r"""Eq. (6) of Shalev-Shwartz & Tewari (2011): the derivative of the loss in its first argument,
    :math:`L'(a, y) = a - y` for the squared loss (a - y)^2/2 and :math:`-y/(1 + \exp(ay))` for the logistic
    loss log(1 + exp(-ya)); for the hinge loss a sub-gradient (-y where ya < 1, else 0).  Element-wise over
    arrays (numpy broadcasting); a float for two scalars."""
    from ..losses import get_loss

    out = get_loss(loss).deriv(a, y)
    return float(out) if out.ndim == 0 else out


@_checked
def loss_curvature_bound(loss):
    r"""Eq. (7) of Shalev-Shwartz & Tewari (2011): the bound :math:`L''(a, y) \le \beta` for every a, the
    curvature that sets SCD's step 1/beta: 1 for the squared loss (a - y)^2/2, 1/4 for the logistic loss (its
    second derivative peaks at a = 0), math.inf for the hinge loss (not differentiable; SCD does not apply)."""
    from ..losses import get_loss

    return get_loss(loss).beta


@_checked
def coordinate_step(w_j, g_j, beta, lam):
    r"""Eq. (10) of Shalev-Shwartz & Tewari (2011): SCD's step on coordinate j,
    :math:`\eta_j = \arg\min_\eta\ \eta g_j + \frac\beta2\eta^2 + \lambda|w_j + \eta|`, in closed form
    :math:`\eta_j = s_{\lambda/\beta}(w_j - g_j/\beta) - w_j` with the soft threshold
    :math:`s_\tau(x) = \operatorname{sign}(x)\max\{|x| - \tau, 0\}` (the minimizer of the quadratic upper bound
    of the objective along coordinate j)."""
    _pos("beta", beta)
    if not (math.isfinite(float(beta)) and lam >= 0 and math.isfinite(float(lam))):
        raise ValueError(f"beta must be finite and lam finite and >= 0, got beta = {beta}, lam = {lam}")
    x = w_j - g_j / beta
    return float(np.sign(x) * max(abs(x) - lam / beta, 0.0) - w_j)


@_checked
def loss_condition_13(loss):
    r"""Condition (13) of Shalev-Shwartz & Tewari (2011), :math:`|L'(a, y)| \le \rho`: the constant for the
    loss as l1lab defines it (1 for the logistic and hinge losses; math.inf for the squared loss, whose
    derivative is unbounded)."""
    from ..losses import get_loss

    return get_loss(loss).rho_lipschitz


@_checked
def loss_condition_14(loss):
    r"""Condition (14) of Shalev-Shwartz & Tewari (2011), :math:`L'(a, y)^2 \le \rho L(a, y)`: 2 for the squared
    loss (a - y)^2/2 (the paper's 4 is the constant of (a - y)^2), 1/2 for the logistic loss (tight value
    0.4073), math.inf for the hinge loss."""
    from ..losses import get_loss

    return get_loss(loss).rho_self_bounded


# ---------------------------------------------------------------------------------------------------------
# Appendix A: Lemma 5, the lower bound for methods that change one coordinate per step
#
# The lemma's loss is L(a, b) = (a - b)^2, twice l1lab's squared loss; every value below is in the lemma's
# units.  Its distribution: Y = +-1 with probability 1/2 each, and given Y = y the features X_1, ..., X_d are
# independent with P[X_j = y] = 1/2 + 1/(2B).  Then E[(<w, X> - Y)^2] = (1 - 1/B^2)||w||_2^2 + (1 - sum_j w_j/B)^2
# (l1lab.data.lower_bound.population_risk), and with k = B^2 - 1 everything is explicit:
#   min over ||w||_0 <= s  =  k/(s + k)   (w = B/(s + k) on any s coordinates),   R* = k/(d + k).
# The printed proof fixes d = 100(B^2 - 1) whatever eps is; its step "(B^2-1)/(4s) - 0.01 >= B^2/(8s)" holds
# only for s <= 12.5(B^2 - 2), and the printed iteration bound exceeds the exact minimum number of steps once
# eps is below about 1e-3.  d >= (B^2 - 1)/eps repairs it (lemma5_dimension_for_accuracy).


def _lemma5_B(B):
    B = check_real(B, "B", allow_inf=True)
    if not (math.isfinite(B) and B >= 2.0):
        raise ValueError(f"Lemma 5 needs B >= 2 (the radius of the l1 ball), got B = {B}")
    return B


def _lemma5_eps(eps):
    eps = np.asarray(check_reals(eps, "eps"), dtype=np.float64)
    if np.any(~(eps > 0)) or np.any(eps > 0.12):
        raise ValueError(f"Lemma 5 needs 0 < eps <= 0.12, got eps = {eps}")
    return eps


def _lemma5_s(s, minimum=1):
    s = np.asarray(check_reals(s, "s"), dtype=np.float64)
    if np.any(~(s >= minimum)):
        raise ValueError(f"the sparsity s must be >= {minimum} (a number of nonzero coordinates), got s = {s}")
    if np.any(s != np.round(s)):
        raise ValueError(f"the sparsity s must be an integer (a number of nonzero coordinates), got s = {s}")
    return s


def _scalar(out):
    out = np.asarray(out, dtype=np.float64)
    return float(out) if out.ndim == 0 else out


@_checked
def lemma5_dimension(B):
    r"""Lemma 5 of Shalev-Shwartz & Tewari (2011), proof: the dimension of the construction,
    :math:`d = 100(B^2 - 1)` (rounded up to an integer), for B >= 2.  It makes the risk of
    :math:`w_0 = (B/d)\mathbf{1}` equal to :math:`(B^2-1)/d = 0.01`."""
    B = _lemma5_B(B)
    return int(math.ceil(100.0 * (B * B - 1.0) - 1e-9))


@checked(_P, eps=ANY)  # eps: _lemma5_eps
def lemma5_dimension_for_accuracy(eps, B):
    r"""Lemma 5 of Shalev-Shwartz & Tewari (2011), repaired: the dimension
    :math:`d = \lceil (B^2 - 1)\max\{100, 1/\varepsilon\}\rceil` for which the construction proves the iteration
    bound at accuracy eps.  The proof's d = 100(B^2 - 1) is enough only for eps >= 0.01; the lemma lets the
    problem depend on eps, and with :math:`d \ge (B^2-1)/\varepsilon` every w with fewer than
    :math:`(B^2-1)/(2\varepsilon) - (B^2 - 1)` nonzeros has excess risk above eps."""
    B = _lemma5_B(B)
    eps = float(_lemma5_eps(eps))
    return int(math.ceil((B * B - 1.0) * max(100.0, 1.0 / eps) - 1e-9))


@checked(_P, s=_SPARSITY)
def lemma5_sparse_gap_bound(s, B):
    r"""Lemma 5 of Shalev-Shwartz & Tewari (2011), end of the proof, as printed: for every w with
    :math:`\|w\|_0 \le s` (and :math:`\|w\|_1 \le B`),
    :math:`C(w) - \min_{\|w\|_1 \le B} C(w) \ge \min\{0.12,\ B^2/(16 s)\}`.

    This is half the population bound :func:`lemma5_population_gap_bound` (the price of the sampling step).
    With the proof's d = 100(B^2 - 1) it is *false* for s close to d (the exact frontier
    :func:`lemma5_frontier` is 0 at s = d); it holds for all s <= :func:`lemma5_printed_bound_range`."""
    B = _lemma5_B(B)
    s = _lemma5_s(s)
    return _scalar(np.minimum(0.12, B * B / (16.0 * s)))


@checked(_P, s=_SPARSITY)
def lemma5_population_gap_bound(s, B):
    r"""Lemma 5 of Shalev-Shwartz & Tewari (2011), proof: the population inequality
    :math:`\mathbb{E}[(\langle w, X\rangle - Y)^2 - (\langle w_0, X\rangle - Y)^2] \ge \min\{0.24,\ B^2/(8s)\}`
    for :math:`\|w\|_0 \le s`, with d = 100(B^2 - 1).  The printed argument supports it only for
    s <= :func:`lemma5_proof_sparsity_limit`; the exact frontier shows it for a wider range, never for s
    near d."""
    B = _lemma5_B(B)
    s = _lemma5_s(s)
    return _scalar(np.minimum(0.24, B * B / (8.0 * s)))


@checked(_P, eps=ANY)  # eps: _lemma5_eps
def lemma5_iteration_bound(eps, B):
    r"""Lemma 5 of Shalev-Shwartz & Tewari (2011): an algorithm that starts at w = 0 and changes one
    coordinate per iteration needs at least :math:`B^2/(16\varepsilon)` iterations to reach accuracy
    eps <= 0.12 (the iterate after T steps has at most T nonzeros).  For the construction with
    d = 100(B^2 - 1) this is proved for eps >= 0.01 and false below :func:`lemma5_failure_accuracy`; a
    dimension d >= (B^2 - 1)/eps (:func:`lemma5_dimension_for_accuracy`) makes it hold at every eps."""
    B = _lemma5_B(B)
    eps = _lemma5_eps(eps)
    return _scalar(B * B / (16.0 * eps))


@checked(_P, eps=ANY)  # eps: _lemma5_eps
def lemma5_iteration_bound_derived(eps, B):
    r"""Lemma 5 of Shalev-Shwartz & Tewari (2011), re-derived: if :math:`d \ge (B^2-1)/\varepsilon`, every w with
    excess risk at most eps has more than :math:`(B^2 - 1)/(2\varepsilon) - (B^2 - 1)` nonzeros, which is at least
    the printed :math:`B^2/(16\varepsilon)` for B >= 2 and eps <= 0.12 (for small eps the ratio tends to
    :math:`8(B^2 - 1)/B^2`: 6 at B = 2, 8 only as B grows)."""
    B = _lemma5_B(B)
    eps = _lemma5_eps(eps)
    k = B * B - 1.0
    return _scalar(k / (2.0 * eps) - k)


@checked(_P, s=_SPARSITY)
def lemma5_risk_lower_bound_as_printed(s, B):
    r"""Lemma 5 of Shalev-Shwartz & Tewari (2011), proof: every w with :math:`\|w\|_0 \le s` has risk
    :math:`\mathbb{E}[(\langle w, X\rangle - Y)^2] \ge \min\{1/4,\ (B^2 - 1)/(4s)\}` (case split on
    :math:`|\sum_j w_j| \le B/2`).  The exact minimum :func:`lemma5_sparse_risk` is at least twice this."""
    B = _lemma5_B(B)
    s = _lemma5_s(s)
    return _scalar(np.minimum(0.25, (B * B - 1.0) / (4.0 * s)))


@checked(_P, s=_SPARSITY)
def lemma5_sparse_risk(s, B):
    r"""Lemma 5 of Shalev-Shwartz & Tewari (2011), proof made exact: the smallest risk of a w with
    :math:`\|w\|_0 \le s` (s >= 0) is :math:`\min_{\|w\|_0 \le s}\mathbb{E}[(\langle w, X\rangle - Y)^2] =
    \frac{B^2 - 1}{s + B^2 - 1}`, attained by :math:`B/(s + B^2 - 1)` on any s coordinates (Cauchy-Schwarz,
    then a one-variable minimization).  Its l1 norm sB/(s + B^2 - 1) < B: the constraint never binds."""
    B = _lemma5_B(B)
    s = _lemma5_s(s, minimum=0)
    k = B * B - 1.0
    return _scalar(k / (s + k))


@_checked
def lemma5_optimal_risk(B, d):
    r"""Lemma 5 of Shalev-Shwartz & Tewari (2011), proof: the optimal risk of the construction in dimension d,
    :math:`C(w^\star) = \frac{B^2-1}{d + B^2 - 1}` at :math:`w^\star = \frac{B}{d + B^2 - 1}\mathbf{1}` (1/101 for
    d = 100(B^2 - 1)); the proof compares with :math:`w_0 = (B/d)\mathbf{1}`, of risk (B^2 - 1)/d = 0.01."""
    B = _lemma5_B(B)
    if not d >= 1:
        raise ValueError(f"d must be >= 1, got {d}")
    return (B * B - 1.0) / (d + B * B - 1.0)


@checked(_P, s=_SPARSITY)
def lemma5_frontier(s, B, d):
    r"""Lemma 5 of Shalev-Shwartz & Tewari (2011), exact: the least excess risk of an s-sparse vector,
    :math:`\min_{\|w\|_0\le s} C(w) - C(w^\star) = \frac{k}{s + k} - \frac{k}{d + k} = \frac{k(d - s)}{(s+k)(d+k)}`,
    k = B^2 - 1, for 0 <= s <= d.  Every iterate of a one-coordinate method after s steps is at least this far
    from optimal."""
    s = _lemma5_s(s, minimum=0)
    if np.any(s > d):
        raise ValueError(f"s must be <= d = {d}, got {s}")
    return _scalar(np.asarray(lemma5_sparse_risk(s, B)) - lemma5_optimal_risk(B, d))


@checked(_P, eps=reals(low=0.0, low_open=True))
def lemma5_min_steps(eps, B, d):
    r"""Lemma 5 of Shalev-Shwartz & Tewari (2011), exact: the fewest coordinate steps from w = 0 that can reach
    excess risk eps on the construction in dimension d,
    :math:`s_{\min}(\varepsilon) = \max\{0, \lceil k/(\varepsilon + C(w^\star)) - k\rceil\}`, k = B^2 - 1 (the
    smallest s with :func:`lemma5_frontier` <= eps; it is attained by writing B/(s + k) into s coordinates)."""
    B = _lemma5_B(B)
    eps = np.asarray(eps, dtype=np.float64)
    if np.any(~(eps > 0)):
        raise ValueError(f"eps must be > 0, got {eps}")
    k = B * B - 1.0
    r = lemma5_optimal_risk(B, d)
    # Start from the closed form, then correct its rounding against the frontier itself: s is the smallest
    # integer with frontier(s) <= eps (the frontier decreases in s).
    s = np.minimum(np.maximum(0.0, np.ceil(k / (eps + r) - k)), d)
    s = np.where((s > 0) & (np.asarray(lemma5_frontier(np.maximum(s - 1, 0), B, d)) <= eps), s - 1, s)
    s = np.where((s < d) & (np.asarray(lemma5_frontier(s, B, d)) > eps), s + 1, s)
    return _scalar(s + 0.0)  # + 0.0 turns a -0.0 into 0.0


@_checked
def lemma5_proof_sparsity_limit(B, d=None):
    r"""Lemma 5 of Shalev-Shwartz & Tewari (2011), proof: the largest s for which the printed step
    :math:`\frac{B^2-1}{4s} - \frac{B^2-1}{d} \ge \frac{B^2}{8s}` holds,
    :math:`s \le \frac{d(B^2-2)}{8(B^2-1)}` (= 12.5(B^2 - 2) for the proof's d = 100(B^2 - 1)).  The proof
    uses the step for every s."""
    B = _lemma5_B(B)
    d = lemma5_dimension(B) if d is None else d
    return d * (B * B - 2.0) / (8.0 * (B * B - 1.0))


@_checked
def lemma5_printed_bound_range(B, d=None, c=16.0, cap=0.12):
    r"""Lemma 5 of Shalev-Shwartz & Tewari (2011): the largest s <= d at which the exact frontier
    :func:`lemma5_frontier` (an excess over the optimal risk R*) is still at least the printed
    :math:`\min\{\text{cap},\ B^2/(c\,s)\}` (c = 16, cap = 0.12: :func:`lemma5_sparse_gap_bound`).  Beyond it
    the printed inequality is false for the construction (274 of d = 300 for B = 2).  The proof's population
    inequality is an excess over R(w0), not R*: its range is :func:`lemma5_population_inequality_range`."""
    B = _lemma5_B(B)
    d = lemma5_dimension(B) if d is None else int(d)
    s = np.arange(1, d + 1, dtype=np.float64)
    ok = np.asarray(lemma5_frontier(s, B, d)) >= np.minimum(cap, B * B / (c * s))
    bad = np.nonzero(~ok)[0]
    return int(d if bad.size == 0 else bad[0])  # s = bad[0] + 1 fails, so bad[0] is the last good s


@_checked
def lemma5_population_inequality_range(B, d=None):
    r"""Lemma 5 of Shalev-Shwartz & Tewari (2011), proof: the largest s <= d at which the population inequality
    :math:`\mathbb{E}[(\langle w, X\rangle - Y)^2 - (\langle w_0, X\rangle - Y)^2] \ge \min\{0.24,\ B^2/(8s)\}`
    (:func:`lemma5_population_gap_bound`) holds for every s-sparse w of the construction.  Its left side is an
    excess over the risk of :math:`w_0 = (B/d)\mathbf{1}`, :math:`R(w_0) = (B^2-1)/d`, so the least value over
    s-sparse w is :math:`\frac{k}{s+k} - \frac{k}{d}` (k = B^2 - 1; :func:`lemma5_sparse_risk`), smaller than the
    frontier over R* by :math:`\frac{k}{d} - \frac{k}{d+k}`.  For B = 2, 3, 5, 10: 246, 678, 2059, 8536."""
    B = _lemma5_B(B)
    d = lemma5_dimension(B) if d is None else int(d)
    k = B * B - 1.0
    s = np.arange(1, d + 1, dtype=np.float64)
    least = np.asarray(lemma5_sparse_risk(s, B)) - k / d
    ok = least >= np.minimum(0.24, B * B / (8.0 * s))
    bad = np.nonzero(~ok)[0]
    return int(d if bad.size == 0 else bad[0])


@_checked
def lemma5_failure_accuracy(B, d=None):
    r"""Lemma 5 of Shalev-Shwartz & Tewari (2011): the accuracy below which the printed iteration bound
    :math:`B^2/(16\varepsilon)` exceeds the exact least number of steps on the construction of dimension d
    (default 100(B^2 - 1)), i.e. the smaller root of
    :math:`k/(\varepsilon + r) - k = B^2/(16\varepsilon)`, :math:`r = k/(d+k)`, k = B^2 - 1.  Below it the
    construction does not support the lemma (about 9.1e-4 for B = 2, 7.6e-4 for B = 3); inf when the quadratic
    has no real root, i.e. the printed bound exceeds the exact count at every accuracy (a small d, e.g. d <= 2)."""
    B = _lemma5_B(B)
    d = lemma5_dimension(B) if d is None else d
    k = B * B - 1.0
    c = B * B / 16.0
    r = lemma5_optimal_risk(B, d)
    # k eps^2 + (c + k r - k) eps + c r = 0
    bq = c + k * r - k
    disc = bq * bq - 4.0 * k * c * r
    if disc < 0:
        return math.inf
    return (-bq - math.sqrt(disc)) / (2.0 * k)
