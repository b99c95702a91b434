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


# ---------------------------------------------------------------------------------------------------------
# Section 3: SMIDAS (Theorem 3, Proposition 4, Lemma 7) and the runtime bounds (3), (4)
#
# The proof of Theorem 3 bounds ||v_t||_p^2 <= ||v_t||_inf^2 d^{2/p} and uses d^{2/p} = e for p = 2 ln d.
# The functions below keep the general factor kappa = (p - 1) d^{2/p} (so they also hold for the
# experiments' p = ceil(2 ln d), or any p >= 2); the *_as_printed functions are the log-d forms of the
# theorem statement, which upper-bound them when p = 2 ln d.


def smidas_kappa(p, d):
    r"""Proof of Theorem 3 of Shalev-Shwartz & Tewari (2011): :math:`\kappa = (p-1)\,d^{2/p}`, the factor the
    step-size term carries; it equals (p - 1)e at p = 2 ln d."""
    if not p >= 2:
        raise ValueError(f"p must be >= 2, got {p}")
    if d < 1:
        raise ValueError(f"d must be >= 1, got {d}")
    return (p - 1.0) * d ** (2.0 / p)


def smidas_bound_lipschitz(eta, T, rho, w_star_norm1, p, d):
    r"""Theorem 3 of Shalev-Shwartz & Tewari (2011), case (13) |L'| <= rho, any step size eta:
    :math:`\mathbb{E}[P(w_o)] - P(w^\star) \le \frac{\eta\kappa\rho^2}{2} + \frac{\|w^\star\|_1^2}{\eta T}`,
    :math:`\kappa = (p-1)d^{2/p}` (= (p-1)e at p = 2 ln d), w_o uniform among the first T iterates."""
    _pos("eta", eta)
    T = np.asarray(T, dtype=np.float64)
    out = eta * smidas_kappa(p, d) * rho ** 2 / 2.0 + w_star_norm1 ** 2 / (eta * T)
    return float(out) if out.ndim == 0 else out


def smidas_eta_lipschitz(T, rho, w_star_norm1, p, d):
    r"""Theorem 3 of Shalev-Shwartz & Tewari (2011), case (13): the step size minimizing the bound,
    :math:`\eta = \frac{\|w^\star\|_1}{\rho}\sqrt{\frac{2}{\kappa T}}` (the paper's
    :math:`\frac{\|w^\star\|_1}{\rho}\sqrt{\frac{2}{(p-1)eT}}`)."""
    return w_star_norm1 / rho * math.sqrt(2.0 / (smidas_kappa(p, d) * T))


def smidas_rate_lipschitz(T, rho, w_star_norm1, p, d):
    r"""Theorem 3 of Shalev-Shwartz & Tewari (2011), case (13), at the optimal eta:
    :math:`\rho\|w^\star\|_1\sqrt{2\kappa/T}`."""
    T = np.asarray(T, dtype=np.float64)
    out = rho * w_star_norm1 * np.sqrt(2.0 * smidas_kappa(p, d) / T)
    return float(out) if out.ndim == 0 else out


def smidas_rate_lipschitz_as_printed(T, rho, w_star_norm1, d):
    r"""Theorem 3 of Shalev-Shwartz & Tewari (2011), case (13), as stated:
    :math:`\rho\|w^\star\|_1\sqrt{12\log(d)/T}` (2(p-1)e <= 4e ln d <= 12 ln d at p = 2 ln d)."""
    T = np.asarray(T, dtype=np.float64)
    out = rho * w_star_norm1 * np.sqrt(12.0 * math.log(d) / T)
    return float(out) if out.ndim == 0 else out


def lemma7_f(eta, a, b, P, T):
    r"""Lemma 7 of Shalev-Shwartz & Tewari (2011): :math:`f(\eta) = \left(\frac{1}{1-a\eta} - 1\right)P +
    \frac{b/(\eta T)}{1 - a\eta}` on (0, 1/a) (infinite outside)."""
    eta = np.asarray(eta, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where((eta > 0) & (a * eta < 1), (1.0 / (1.0 - a * eta) - 1.0) * P + b / (eta * T) / (1.0 - a * eta),
                       np.inf)
    return float(out) if out.ndim == 0 else out


def lemma7_eta_star(a, b, P, T):
    r"""Lemma 7 of Shalev-Shwartz & Tewari (2011): the minimizer
    :math:`\eta^\star = \frac{b}{PT}\left(\sqrt{1 + \frac{PT}{ab}} - 1\right)` of :func:`lemma7_f`."""
    for name, v in (("a", a), ("b", b), ("P", P), ("T", T)):
        _pos(name, v)
    x = P * T / (a * b)
    # sqrt(1 + x) - 1 = x / (sqrt(1 + x) + 1), without cancellation for small x
    return b / (P * T) * x / (math.sqrt(1.0 + x) + 1.0)


def lemma7_min_upper_bound(a, b, P, T):
    r"""Lemma 7 of Shalev-Shwartz & Tewari (2011): :math:`f(\eta^\star) \le 4\sqrt{abP/T} + 4ab/T`."""
    return 4.0 * math.sqrt(a * b * P / T) + 4.0 * a * b / T


def smidas_bound_self_bounded(eta, T, rho, w_star_norm1, p0, p, d):
    r"""Theorem 3 of Shalev-Shwartz & Tewari (2011), case (14) L'^2 <= rho L, any eta with a eta < 1:
    :math:`\mathbb{E}[P(w_o)] - P(w^\star) \le \left(\frac{1}{1-a\eta} - 1\right)P(0) +
    \frac{\|w^\star\|_1^2}{\eta T(1-a\eta)}`, :math:`a = \kappa\rho/2` (= (p-1)\rho e/2 at p = 2 ln d)."""
    a = smidas_kappa(p, d) * rho / 2.0
    return lemma7_f(eta, a, w_star_norm1 ** 2, p0, np.asarray(T, dtype=np.float64))


def smidas_eta_self_bounded(T, rho, w_star_norm1, p0, p, d):
    r"""Theorem 3 of Shalev-Shwartz & Tewari (2011), case (14): the step size of Lemma 7,
    :math:`\eta = \frac{\|w^\star\|_1^2}{P(0)T}\left(\sqrt{1 + \frac{2P(0)T}{\kappa\rho\|w^\star\|_1^2}} - 1\right)`."""
    return lemma7_eta_star(smidas_kappa(p, d) * rho / 2.0, w_star_norm1 ** 2, p0, T)


def smidas_rate_self_bounded(T, rho, w_star_norm1, p0, p, d):
    r"""Theorem 3 of Shalev-Shwartz & Tewari (2011), case (14), at Lemma 7's eta:
    :math:`4\sqrt{abP(0)/T} + 4ab/T` with a = kappa rho/2, b = ||w*||_1^2, i.e.
    :math:`4\|w^\star\|_1\sqrt{\frac{\kappa\rho P(0)}{2T}} + \frac{2\kappa\rho\|w^\star\|_1^2}{T}`."""
    T = np.asarray(T, dtype=np.float64)
    a, b = smidas_kappa(p, d) * rho / 2.0, w_star_norm1 ** 2
    out = 4.0 * np.sqrt(a * b * p0 / T) + 4.0 * a * b / T
    return float(out) if out.ndim == 0 else out


def smidas_rate_self_bounded_as_printed(T, rho, w_star_norm1, p0, d):
    r"""Theorem 3 of Shalev-Shwartz & Tewari (2011), case (14), as stated:
    :math:`4\|w^\star\|_1\sqrt{\frac{6\rho\log(d)P(0)}{2T}} + \frac{12\rho\log(d)\|w^\star\|_1^2}{T}`."""
    T = np.asarray(T, dtype=np.float64)
    L = math.log(d)
    out = 4.0 * w_star_norm1 * np.sqrt(6.0 * rho * L * p0 / (2.0 * T)) + 12.0 * rho * L * w_star_norm1 ** 2 / T
    return float(out) if out.ndim == 0 else out


def smidas_prop4_eta(K, rho, p, d):
    r"""Proposition 4 of Shalev-Shwartz & Tewari (2011): :math:`\eta = \frac{2}{\kappa\rho}\frac{K}{1+K}`
    (the paper's :math:`\frac{2}{(p-1)\rho e}\frac{K}{1+K}`), any K > 0."""
    _pos("K", K)
    return 2.0 / (smidas_kappa(p, d) * rho) * K / (1.0 + K)


def smidas_prop4_bound(K, T, rho, w_star_norm1, p_star, p, d):
    r"""Proposition 4 of Shalev-Shwartz & Tewari (2011), under (14) with :func:`smidas_prop4_eta`:
    :math:`\mathbb{E}[P(w_o)] \le (1+K)P(w^\star) + \frac{(1+K)^2}{K}\frac{ab}{T}`, a = kappa rho/2,
    b = ||w*||_1^2 (the statement's :math:`3\rho\log(d)\|w^\star\|_1^2` upper-bounds ab at p = 2 ln d).
    Note: the proposition averages the iterates at the *beginning* of iterations 0..T-1; Theorem 3 those at
    their end; both equal {w_0, ..., w_{T-1}} with w_0 = 0 once indexed by the number of steps taken."""
    _pos("K", K)
    T = np.asarray(T, dtype=np.float64)
    ab = smidas_kappa(p, d) * rho / 2.0 * w_star_norm1 ** 2
    out = (1.0 + K) * p_star + (1.0 + K) ** 2 / K * ab / T
    return float(out) if out.ndim == 0 else out


def smidas_runtime_bound(eps, d, w_star_norm1):
    r"""Bound (3) of Shalev-Shwartz & Tewari (2011): SMIDAS reaches expected accuracy eps for the logistic and
    squared losses in :math:`O(d\log(d)\|w^\star\|_1^2/\varepsilon^2)` time (O(d) per step, O(log(d)
    ||w*||_1^2/eps^2) steps); the function returns the expression without its constant."""
    _pos("eps", eps)
    return d * math.log(d) * w_star_norm1 ** 2 / eps ** 2


def truncgrad_runtime_bound(eps, d, w_star_norm2_sq, x2_sq):
    r"""Bound (4) of Shalev-Shwartz & Tewari (2011), Langford et al.'s truncated gradient:
    :math:`O(d\|w^\star\|_2^2 X_2^2/\varepsilon^2)` with :math:`X_2^2 = \frac1m\sum_i\|x_i\|_2^2`; the function
    returns the expression without its constant."""
    _pos("eps", eps)
    return d * w_star_norm2_sq * x2_sq / eps ** 2


def mean_squared_row_norm(problem):
    r"""Section 1.1.3 of Shalev-Shwartz & Tewari (2011): :math:`X_2^2 = \frac1m\sum_i\|x_i\|_2^2`, the
    average squared norm of an example (bound (4))."""
    X = problem.X
    sq = X.multiply(X).sum() if problem.is_sparse else float(np.einsum("ij,ij->", X, X))
    return float(sq) / problem.m


def loss_condition_13(loss):
    r"""Condition (13) of Shalev-Shwartz & Tewari (2011), :math:`|L'(a, y)| \le \rho`: the constant for the
    loss as l1lab defines it (1 for the logistic and hinge losses; math.inf for the squared loss, whose
    derivative is unbounded)."""
    from ..losses import get_loss

    return get_loss(loss).rho_lipschitz


def loss_condition_14(loss):
    r"""Condition (14) of Shalev-Shwartz & Tewari (2011), :math:`L'(a, y)^2 \le \rho L(a, y)`: 2 for the squared
    loss (a - y)^2/2 (the paper's 4 is the constant of (a - y)^2), 1/2 for the logistic loss (tight value
    0.4073), math.inf for the hinge loss."""
    from ..losses import get_loss

    return get_loss(loss).rho_self_bounded
