r"""Bounds of Shalev-Shwartz & Tewari, *Stochastic Methods for l1-regularized Loss Minimization*, JMLR 12
(2011): Sections 1-2 and Appendix B (coordinate descent).

Each bound is a plain function of its parameters.  Where the paper's printed specialization does not follow
from its own theorem, the function computes what the theorem gives and a ``*_as_printed`` function keeps
the printed expression, so the book can show both.
"""
from __future__ import annotations

import math

import numpy as np


def _pos(name, v):
    v = np.asarray(v, dtype=np.float64)
    if np.any(~(v > 0)):
        raise ValueError(f"{name} must be > 0, got {v}")
    return v


def scd_psi0(beta, w_star, p0):
    r"""Theorem 1 of Shalev-Shwartz & Tewari (2011): the potential at the start,
    :math:`\Psi(0) = \frac{\beta}{2}\|w^\star\|_2^2 + P(0)`.

    ``p0`` is P(0) = C(0) (= log 2 for the logistic loss, (1/2m) sum y_i^2 for the squared loss).
    """
    w_star = np.asarray(w_star, dtype=np.float64)
    return 0.5 * float(beta) * float(w_star @ w_star) + float(p0)


def scd_expected_gap_bound(T, d, psi0):
    r"""Theorem 1 of Shalev-Shwartz & Tewari (2011):
    :math:`\mathbb{E}[P(w_T)] - P(w^\star) \le \frac{d\,\Psi(0)}{T+1}` for SCD after T iterations.

    ``T`` may be an array; returns an array of the same shape (a float for scalar T).
    """
    T = np.asarray(T, dtype=np.float64)
    if np.any(T < 0):
        raise ValueError("T must be >= 0")
    out = d * float(psi0) / (T + 1.0)
    return float(out) if out.ndim == 0 else out


def scd_high_probability_gap_bound(T, d, psi0):
    r"""Theorem 2 of Shalev-Shwartz & Tewari (2011): with probability at least 1/2 (and, for the best of
    :func:`scd_runs_for_confidence` independent runs, at least 1 - delta),
    :math:`P(w_T) - P(w^\star) \le \frac{2d\,\Psi(0)}{T+1}` (Markov's inequality on Theorem 1).
    """
    return 2.0 * np.asarray(scd_expected_gap_bound(T, d, psi0))[()]


def scd_runs_for_confidence(delta):
    r"""Theorem 2 of Shalev-Shwartz & Tewari (2011): :math:`r = \lceil \log_2(1/\delta) \rceil` runs make the
    best run satisfy the probability-1/2 bound with probability at least 1 - delta (each run fails with
    probability at most 1/2, independently)."""
    if not (0 < delta < 1):
        raise ValueError(f"delta must be in (0, 1), got {delta}")
    return max(1, math.ceil(math.log2(1.0 / delta) - 1e-12))


def scd_iterations_for_accuracy(eps, d, psi0):
    r"""Theorem 1 of Shalev-Shwartz & Tewari (2011) solved for T: the smallest T with
    :math:`d\Psi(0)/(T+1) \le \varepsilon`, i.e. :math:`T = \lceil d\Psi(0)/\varepsilon \rceil - 1`."""
    _pos("eps", eps)
    return max(0, math.ceil(d * psi0 / eps) - 1)


def average_nonzeros(problem):
    r"""Eq. (8) of Shalev-Shwartz & Tewari (2011): :math:`s = |\{(i,j): x_{ij} \ne 0\}| / (md)`, the
    fraction of nonzero entries, so that an SCD step costs s*m data accesses on average."""
    if problem.is_sparse:
        nnz = int(np.count_nonzero(problem.X.data))
    else:
        nnz = int(np.count_nonzero(problem.X))
    return nnz / (problem.m * problem.d)


def scd_runtime_bound(eps, m, d, beta, w_star_norm2_sq, s=1.0):
    r"""Bound (2) of Shalev-Shwartz & Tewari (2011), SCD's runtime to expected accuracy eps, up to the P(0)
    term: :math:`s\,m\,d\,\beta\|w^\star\|_2^2/\varepsilon` data accesses (the paper states it with s = 1;
    the exact statement with P(0) is :func:`scd_runtime_expected`)."""
    _pos("eps", eps)
    return s * m * d * beta * w_star_norm2_sq / eps


def scd_runtime_expected(eps, m, d, s, psi0):
    r"""Theorem 1 of Shalev-Shwartz & Tewari (2011) turned into data accesses: T(eps) iterations of
    average cost s*m, :math:`s\,m\,(\lceil d\Psi(0)/\varepsilon\rceil - 1)`."""
    return s * m * scd_iterations_for_accuracy(eps, d, psi0)


def scd_runtime_high_probability(eps, delta, m, d, s, psi0):
    r"""Theorem 2 of Shalev-Shwartz & Tewari (2011) turned into data accesses: r = ceil(log2(1/delta)) runs of
    T = ceil(2 d Psi(0)/eps) - 1 iterations each, average cost s*m per iteration:
    :math:`s\,m\,r\,(\lceil 2d\Psi(0)/\varepsilon\rceil - 1)`.  The log term multiplies: see
    :func:`scd_runtime_logistic_as_printed`."""
    r = scd_runs_for_confidence(delta)
    return s * m * r * scd_iterations_for_accuracy(eps, d, 2.0 * psi0)


def scd_runtime_logistic(eps, m, d, s, w_star_norm2_sq, delta=None):
    r"""Section 2.2 of Shalev-Shwartz & Tewari (2011), logistic loss, derived from Theorems 1-2 with
    beta = 1/4 and P(0) = C(0) = log 2 <= 1:  Psi(0) <= ||w*||^2/8 + 1, so expected eps-accuracy after
    :math:`s\,m\,d(\tfrac18\|w^\star\|_2^2 + 1)/\varepsilon` data accesses, and with probability 1 - delta after
    :math:`\lceil\log_2(1/\delta)\rceil` times twice that."""
    psi0 = w_star_norm2_sq / 8.0 + 1.0
    if delta is None:
        return s * m * d * psi0 / eps
    return s * m * scd_runs_for_confidence(delta) * d * 2.0 * psi0 / eps


def scd_runtime_logistic_as_printed(eps, m, d, s, w_star_norm2_sq, delta=None):
    r"""Section 2.2 of Shalev-Shwartz & Tewari (2011) as printed: :math:`smd(\frac14\|w^\star\|^2+2)/\varepsilon`
    (expected) and :math:`smd((\frac12\|w^\star\|^2+4)/\varepsilon + \lceil\log(1/\delta)\rceil)` (probability
    1 - delta).  The first is twice what Theorem 1 gives; the second adds the log term where Theorem 2's
    repetition argument multiplies by it."""
    if delta is None:
        return s * m * d * (w_star_norm2_sq / 4.0 + 2.0) / eps
    return s * m * d * ((w_star_norm2_sq / 2.0 + 4.0) / eps + math.ceil(math.log(1.0 / delta)))


def scd_runtime_squared(eps, m, d, s, w_star_norm2_sq, c0=1.0, delta=None):
    r"""Section 2.2 of Shalev-Shwartz & Tewari (2011), squared loss L = (a - y)^2/2, derived from Theorems
    1-2 with beta = 1 and C(0) = c0 (the paper assumes C(0) <= 1): Psi(0) = ||w*||^2/2 + c0, expected
    accuracy after :math:`s\,m\,d(\tfrac12\|w^\star\|^2 + c_0)/\varepsilon` data accesses; with probability
    1 - delta after ceil(log2(1/delta)) times twice that."""
    psi0 = w_star_norm2_sq / 2.0 + c0
    if delta is None:
        return s * m * d * psi0 / eps
    return s * m * scd_runs_for_confidence(delta) * d * 2.0 * psi0 / eps


def scd_runtime_squared_as_printed(eps, m, d, s, w_star_norm2_sq, delta):
    r"""Section 2.2 of Shalev-Shwartz & Tewari (2011) as printed for the squared loss:
    :math:`smd((2\|w^\star\|^2 + 4)/\varepsilon + \lceil\log(1/\delta)\rceil)`, four times Theorem 1's constant
    (the paper also writes C(0) = (1/m) sum y_i^2, the value for the unhalved loss)."""
    return s * m * d * ((2.0 * w_star_norm2_sq + 4.0) / eps + math.ceil(math.log(1.0 / delta)))


def tseng_yun_runtime_bound(eps, m, d, beta, w_star_norm2_sq):
    r"""Section 1.1.1 of Shalev-Shwartz & Tewari (2011): the runtime of Tseng & Yun's (2009) deterministic
    block coordinate gradient descent, translated to problem (1), is of order
    :math:`m d^2 \beta\|w^\star\|_2^2/\varepsilon` (iterations beta||w*||^2/(eps v) with v = 1/d, cost md each),
    a factor d above bound (2)."""
    _pos("eps", eps)
    return m * d * d * beta * w_star_norm2_sq / eps


def boosting_runtime_bound(eps, m, d, beta, w_star_norm1):
    r"""Section 1.1.2 of Shalev-Shwartz & Tewari (2011): forward greedy selection (boosting / Frank-Wolfe)
    for the l1-constrained problem needs O(beta ||w*||_1^2/eps) iterations of cost md, runtime of order
    :math:`m d \beta\|w^\star\|_1^2/\varepsilon`; up to d times bound (2) since ||w||_1^2 <= d ||w||_2^2."""
    _pos("eps", eps)
    return m * d * beta * w_star_norm1 ** 2 / eps


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
