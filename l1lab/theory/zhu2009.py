r"""Results of Zhu, Chen, Zhu, Wang, Wang & Chen, *Inverse Time Dependency in Convex Regularized Learning*
(ICDM 2009): the Primal Gradient Solver (PGS) and its analysis.

Setting (Section III): minimize the empirical objective (7)

.. math::  \hat F_\sigma(w) = \sigma\, r(w) + \frac1m\sum_{i=1}^m l(\langle w, x_i\rangle; \theta_i),
           \qquad r(w) = \frac{\|w\|_p^2}{2(p-1)},\ p \in (1, 2],

over S = R^n or S = {||w||_p <= B}, q = p/(p-1) the dual exponent.  Every function here is the formula of
one numbered result, with the constants the paper hides in O(.) made explicit where the proof gives them;
where the printed statement differs from what its proof supports, the docstring says so and the chapter
checks it numerically.  The conjugates (Theorem 3, Corollaries 2-3) are written directly from their
statements, independently of the solver's implementation (:func:`l1lab.solvers.pgs.grad_r_star`), so that
the tests can hold one against the other.
"""
from __future__ import annotations

import math

import numpy as np
from scipy.special import digamma

from .._validate import (
    ANY,
    FLAG,
    Param,
    check_array,
    check_matrix,
    check_real,
    checked,
    count,
    nonnegative,
    positive,
    real,
    reals,
    vector,
)

#: The domain of every parameter of this module, by name (checked before each call; see ``l1lab._validate``).
#: T and m are real horizons here (T >= 1, m > 0): the bounds are formulas of them, H_T is defined for real T, and
#: the book draws Theorem 2 over continuous grids of m; the counts d (mean nonzeros per example, a real), n and k.
_P = {
    "T": reals(low=1.0), "w": vector(), "X": Param(check_matrix),
    "p": ANY,  # checked by _check_p (in (1, 2], with the reason)
    "loss": ANY, "B": positive(), "y": vector(), "c0": real(low=0.0), "sigma": positive(),
    "lambda_norms_q": vector(), "cumulative": FLAG, "L": positive(), "delta": real(low=0.0, high=1.0, low_open=True,
                                                                                   high_open=True),
    "eps_acc": positive(), "m": real(low=0.0, low_open=True), "w0_norm_p": positive(), "c_opt": positive(),
    "c_est": positive(), "as_printed": FLAG, "eps": positive(), "d": positive(), "n": count(1), "k": count(1),
    "subgradient": vector(), "theta": vector(),
}
_checked = checked(_P)

_EULER_GAMMA = 0.5772156649015329


# ----------------------------------------------------------------------------------------------- checks
def _pos(**kw):
    for k, v in kw.items():
        v = float(v)
        if not (v > 0 and math.isfinite(v)):
            raise ValueError(f"{k} must be a finite number > 0, got {v}")


def _check_p(p):
    p = check_real(p, "p")
    if not (1.0 < p <= 2.0):
        raise ValueError(f"p must lie in (1, 2] (r(w) = ||w||_p^2/(2(p-1)) is strongly convex only there), got {p}")
    return p


def _check_T(T):
    T = np.asarray(T)
    if not np.issubdtype(T.dtype, np.number) or np.any(T < 1) or not np.all(np.isfinite(T)):
        raise ValueError(f"T must be a number (or array) of iterations >= 1, got {T}")
    return T.astype(np.float64)


def _check_delta(delta):
    delta = float(delta)
    if not 0.0 < delta < 1.0:
        raise ValueError(f"delta must lie in (0, 1), got {delta}")
    return delta


def _out(x):
    x = np.asarray(x, dtype=np.float64)
    return float(x) if x.ndim == 0 else x


def _vec(theta, name="theta"):
    return check_array(theta, name)


def _qnorm(theta, q):
    M = np.max(np.abs(theta)) if theta.size else 0.0
    if M == 0.0:
        return 0.0
    return float(M * np.sum((np.abs(theta) / M) ** q) ** (1.0 / q))


def _signed_power(theta, e):
    """theta^e in the paper's notation: |theta|^e sgn(theta)."""
    return np.sign(theta) * np.abs(theta) ** e


@_checked
def harmonic_number(T):
    r"""Lemma 1 of Zhu et al. (2009), the sum it leaves: :math:`H_T = \sum_{t=1}^T 1/t` (digamma form
    :math:`\psi(T+1) + \gamma` for real or array T); :math:`\ln T < H_T \le 1 + \ln T`."""
    T = _check_T(T)
    return _out(digamma(T + 1.0) + _EULER_GAMMA)


# ----------------------------------------------------------------------------------------------- Section II
@_checked
def regularizer(w, p):
    r"""Eq. (3) of Zhu et al. (2009): :math:`r(w) = \frac{1}{2(p-1)}\|w\|_p^2`, p in (1, 2]; 1-strongly
    convex w.r.t. the l_p norm (Example 1)."""
    p = _check_p(p)
    w = _vec(w, "w")
    return _qnorm(w, p) ** 2 / (2.0 * (p - 1.0))


# ----------------------------------------------------------------------------------------------- Section IV
@_checked
def loss_lipschitz_constant(X, loss, p, B=None, y=None):
    r"""Section IV of Zhu et al. (2009): a Lipschitz constant L of :math:`w \mapsto l(\langle w, x_i\rangle;
    \theta_i)` w.r.t. the l_p norm on S, uniform over the training examples, so that by Proposition 1 every
    sub-gradient :math:`\lambda_t` of Figure 1 has :math:`\|\lambda_t\|_q \le L`.

    * hinge and logistic: :math:`|l'| \le 1`, so :math:`L = \max_i \|x_i\|_q`;
    * least squares, only on S = {||w||_p <= B}: for l1lab's loss :math:`(a - y)^2/2`,
      :math:`|a - y| \le B\|x\|_q + |y|`, so :math:`L = \max_i \|x_i\|_q (B\|x_i\|_q + |y_i|)`.  The paper's
      loss is :math:`(a - y)^2` (its :math:`\lambda_t` has the factor 2), whose constant,
      :math:`\|x\|_q(2B\|x\|_q + 2|y|)`, is twice this one.

    ``loss`` is a name or an :class:`l1lab.losses.Loss`; X a dense array or scipy.sparse matrix (rows are
    examples).  The squared loss needs ``B`` and ``y``; on S = R^n it is not Lipschitz and a ValueError says so.
    """
    import scipy.sparse as sp

    from ..losses import get_loss

    loss = get_loss(loss)
    p = _check_p(p)
    q = p / (p - 1.0)
    if sp.issparse(X):
        A = sp.csr_matrix(X)
        absX = abs(A)
        M = np.asarray(absX.max(axis=1).todense()).ravel()
        safe = np.where(M > 0, M, 1.0)
        scaled = sp.diags(1.0 / safe) @ absX
        row_q = M * np.asarray(scaled.power(q).sum(axis=1)).ravel() ** (1.0 / q)
    else:
        A = np.asarray(X, dtype=np.float64)
        if A.ndim != 2:
            raise ValueError(f"X must be 2-dimensional, got shape {A.shape}")
        M = np.abs(A).max(axis=1) if A.shape[1] else np.zeros(A.shape[0])
        safe = np.where(M > 0, M, 1.0)
        row_q = M * np.sum((np.abs(A) / safe[:, None]) ** q, axis=1) ** (1.0 / q)
    if loss.name in ("hinge", "logistic"):
        return float(row_q.max())
    if B is None:
        raise ValueError("the least-squares loss is not Lipschitz on S = R^n (Section IV): give the radius B of "
                         "S = {||w||_p <= B}, e.g. least_squares_radius(C(0), sigma, p)")
    _pos(B=B)
    if y is None:
        raise ValueError("the least-squares constant needs the targets y")
    y = np.asarray(y, dtype=np.float64).ravel()
    if y.shape[0] != row_q.shape[0]:
        raise ValueError(f"X has {row_q.shape[0]} rows but y has {y.shape[0]} entries")
    return float(np.max(row_q * (B * row_q + np.abs(y))))


@_checked
def least_squares_radius(c0, sigma, p):
    r"""Section IV of Zhu et al. (2009): a radius B such that S = {||w||_p <= B} contains the empirical
    optimum :math:`\hat w` (and the population optimum :math:`w^*`).  Since
    :math:`\sigma r(\hat w) \le \hat F_\sigma(\hat w) \le \hat F_\sigma(0) = C(0)` (the mean loss at 0),

    .. math::  \|\hat w\|_p \le B = \sqrt{2(p-1)\,C(0)/\sigma}.

    The paper writes :math:`r(w^*) \le F_\sigma(w^*) \le F_\sigma(0)`, which drops the factor 1/sigma: it holds
    only for sigma >= 1; the bound on r is C(0)/sigma."""
    c0 = float(c0)
    if not (c0 >= 0 and math.isfinite(c0)):
        raise ValueError(f"C(0) must be a finite number >= 0, got {c0}")
    _pos(sigma=sigma)
    p = _check_p(p)
    return math.sqrt(2.0 * (p - 1.0) * c0 / sigma)


# ----------------------------------------------------------------------------------------------- Section VI.A
@_checked
def lemma1_regret_bound(lambda_norms_q, sigma, cumulative=False):
    r"""Lemma 1 of Zhu et al. (2009): for sigma-strongly convex :math:`c_t = \sigma r + g_t`, the iterates of
    Figure 1 satisfy

    .. math::  \sum_{t=1}^T c_t(w_{t-1}) - \min_{w\in S}\sum_{t=1}^T c_t(w)
               \le \frac12\sum_{t=1}^T \frac{\|\lambda_t\|_q^2}{t\sigma},

    where :math:`\lambda_t \in \partial g_t(w_{t-1})` (the point played at round t is :math:`w_{t-1}`, the
    iterate the sub-gradient is taken at; the paper writes :math:`c_t(w_t)`).  ``lambda_norms_q`` are the
    :math:`\|\lambda_t\|_q`, t = 1..T.  Returns the bound for T = len(lambda_norms_q), or for every prefix
    with ``cumulative=True``."""
    _pos(sigma=sigma)
    a = np.asarray(lambda_norms_q, dtype=np.float64).ravel()
    if a.size == 0 or np.any(a < 0) or not np.all(np.isfinite(a)):
        raise ValueError("lambda_norms_q must be a non-empty sequence of finite norms >= 0")
    terms = a ** 2 / (np.arange(1, a.size + 1) * sigma) / 2.0
    return np.cumsum(terms) if cumulative else float(terms.sum())


@_checked
def corollary1_regret_bound(T, sigma, L):
    r"""Corollary 1 of Zhu et al. (2009) with its constant made explicit: if every loss is L-Lipschitz
    w.r.t. :math:`\|\cdot\|_p` on S, Proposition 1 gives :math:`\|\lambda_t\|_q \le L` and Lemma 1 gives

    .. math::  \mathrm{regret}_T \le \frac{L^2}{2\sigma} H_T \le \frac{L^2 (1 + \ln T)}{2\sigma}.

    The paper states :math:`C\log T/\sigma`; no constant C makes that hold at T = 1 (log 1 = 0 while the
    regret bound is L^2/(2 sigma)); :math:`C = L^2` works for T >= 3, :math:`C = L^2/2` on the
    :math:`(1 + \ln T)` form for all T.  This function returns the exact :math:`L^2 H_T/(2\sigma)`."""
    _pos(sigma=sigma, L=L)
    return _out(L ** 2 * np.asarray(harmonic_number(T)) / (2.0 * sigma))


@_checked
def theorem1_expected_gap_bound(T, sigma, L):
    r"""Theorem 1 of Zhu et al. (2009), in expectation (eq. (17)): for the output :math:`w_i`, i uniform,

    .. math::  \mathbb E[\hat F_\sigma(w_i)] - \hat F_\sigma(\hat w) \le \frac{C\log T}{\sigma T}
               = \frac{L^2 H_T}{2\sigma T}

    with Corollary 1's explicit constant.  The online-to-batch step needs the iterate independent of the
    mini-batch it is charged with, i.e. i uniform on {0, ..., T-1} (the points played), not on {1, ..., T} as
    Figure 1 prints; and it needs :math:`\hat F_\sigma(\hat w) \ge \mathbb E[\frac1T\min_w\sum_t c_t(w)]`,
    which the paper writes as an equality (only the inequality holds, and it is the direction the proof
    uses).  By convexity the averaged iterate obeys the same bound."""
    T = _check_T(T)
    return _out(np.asarray(corollary1_regret_bound(T, sigma, L)) / T)


@_checked
def theorem1_gap_bound(T, sigma, L, delta):
    r"""Theorem 1 of Zhu et al. (2009), eq. (11): with probability at least 1 - delta over the mini-batches
    and the output index (Markov's inequality on the non-negative gap),

    .. math::  \hat F_\sigma(w_i) \le \hat F_\sigma(\hat w) + \frac{C\log T}{\sigma T\delta}
               = \hat F_\sigma(\hat w) + \frac{L^2 H_T}{2\sigma T\delta}."""
    delta = _check_delta(delta)
    return _out(np.asarray(theorem1_expected_gap_bound(T, sigma, L)) / delta)


@_checked
def theorem1_iterations(eps_acc, sigma, L, delta=None):
    r"""Theorem 1 of Zhu et al. (2009) inverted: the smallest T with
    :math:`L^2 H_T/(2\sigma T\delta) \le \epsilon_{acc}` (delta = None: the expectation bound (17)), i.e. the
    :math:`T = \tilde O(1/(\sigma\delta\epsilon_{acc}))` of Section III.B.  H_T/T decreases in T, so the
    answer is found by doubling and bisection."""
    _pos(eps_acc=eps_acc, sigma=sigma, L=L)
    dl = 1.0 if delta is None else _check_delta(delta)

    def ok(T):
        return L ** 2 * harmonic_number(T) / (2.0 * sigma * T * dl) <= eps_acc

    hi = 1
    while not ok(hi):
        hi *= 2
        if hi > 2 ** 62:
            raise ValueError("the accuracy needs more than 2^62 iterations")
    lo = hi // 2
    if hi == 1:
        return 1
    while hi - lo > 1:  # ok(hi) and not ok(lo)
        mid = (lo + hi) // 2
        if ok(mid):
            hi = mid
        else:
            lo = mid
    return int(hi)


# ----------------------------------------------------------------------------------------------- Section VI.B
@checked(_P, w0_norm_p=nonnegative())
def theorem2_error_bound(T, m, delta, sigma, w0_norm_p, p, c_opt=1.0, c_est=1.0):
    r"""Theorem 2 of Zhu et al. (2009), its decomposition (20) with explicit constants:

    .. math::  l(\tilde w) - l(w_0) \le \frac{c_{opt}}{\sigma T\delta} + \frac{\sigma}{2(p-1)}\|w_0\|_p^2
               + \frac{c_{est}}{\sigma m},

    where :math:`c_{opt}/(\sigma T\delta)` is Theorem 1's optimization error passed through the oracle
    inequality of Sridharan et al. (2008), :math:`F_\sigma(w) - F_\sigma(w^\star) \le 2(\hat F_\sigma(w) -
    \hat F_\sigma(\hat w)) + c_{est}/(\sigma m)`: its factor 2 doubles Theorem 1's :math:`L^2 H_T/(2\sigma T\delta)`,
    so :math:`c_{opt} = L^2 H_T` makes the term exact, and the bound holds with probability at least
    :math:`1 - 2\delta` (a union bound over Theorem 1's event and the sample's).  :math:`c_{est}/(\sigma m)` is the
    estimation error (the paper keeps both constants inside :math:`\tilde O`)."""
    _pos(T=T, m=m, sigma=sigma, c_opt=c_opt, c_est=c_est)
    delta = _check_delta(delta)
    p = _check_p(p)
    w0 = float(w0_norm_p)
    if not (w0 >= 0 and math.isfinite(w0)):
        raise ValueError(f"w0_norm_p must be a finite number >= 0, got {w0}")
    return c_opt / (sigma * T * delta) + sigma * w0 ** 2 / (2.0 * (p - 1.0)) + c_est / (sigma * m)


@_checked
def theorem2_sigma(T, m, delta, w0_norm_p, p, c_opt=1.0, c_est=1.0):
    r"""Theorem 2 of Zhu et al. (2009), the choice of sigma in its proof: the minimizer of (20),

    .. math::  \sigma = \sqrt{\frac{2(p-1)}{\|w_0\|_p^2}\Big(\frac{c_{opt}}{T\delta} + \frac{c_{est}}{m}\Big)}."""
    _pos(T=T, m=m, w0_norm_p=w0_norm_p, c_opt=c_opt, c_est=c_est)
    delta = _check_delta(delta)
    p = _check_p(p)
    return math.sqrt(2.0 * (p - 1.0) / w0_norm_p ** 2 * (c_opt / (T * delta) + c_est / m))


@_checked
def theorem2_error_at_sigma(T, m, delta, w0_norm_p, p, c_opt=1.0, c_est=1.0, as_printed=False):
    r"""Theorem 2 of Zhu et al. (2009), eq. (21): the value of (20) at :func:`theorem2_sigma`,

    .. math::  \epsilon = 2\|w_0\|_p\sqrt{\frac{1}{2(p-1)}\Big(\frac{c_{opt}}{T\delta} + \frac{c_{est}}{m}\Big)}.

    The paper prints (21) without the factor 2 (``as_printed=True``): the minimum of a/sigma + b sigma is
    2 sqrt(ab), not sqrt(ab).  Inside its O(.) the factor is harmless; with explicit constants it matters."""
    _pos(T=T, m=m, w0_norm_p=w0_norm_p, c_opt=c_opt, c_est=c_est)
    delta = _check_delta(delta)
    p = _check_p(p)
    v = w0_norm_p * math.sqrt((c_opt / (T * delta) + c_est / m) / (2.0 * (p - 1.0)))
    return v if as_printed else 2.0 * v


@_checked
def theorem2_iterations(eps, m, delta, w0_norm_p, p, c_opt=1.0, c_est=1.0, as_printed=False):
    r"""Theorem 2 of Zhu et al. (2009), eq. (12): the iterations T at which (21) equals the generalization
    error eps,

    .. math::  T = \frac{c_{opt}/\delta}{\frac{\epsilon^2(p-1)}{2\|w_0\|_p^2} - \frac{c_{est}}{m}}
               \quad\Big(\text{printed: } \frac{1/\delta}{\frac{2\epsilon^2(p-1)}{\|w_0\|_p^2}
               - \tilde O(\frac1m)}\Big),

    decreasing in m: the inverse time dependency.  ``math.inf`` when eps is not reachable with m examples
    (the denominator is <= 0).  ``as_printed=True`` inverts the printed (21) instead (a factor 4 in the
    eps^2 term, see :func:`theorem2_error_at_sigma`).

    The denominator is computed in exact rational arithmetic from the arguments as given: near the smallest
    sufficient m, where it is zero, floating-point rounding alone would decide between ``inf`` and a finite T."""
    from fractions import Fraction

    _pos(eps=eps, m=m, w0_norm_p=w0_norm_p, c_opt=c_opt, c_est=c_est)
    delta = _check_delta(delta)
    p = _check_p(p)
    factor = Fraction(2) if as_printed else Fraction(1, 2)
    den = (factor * Fraction(eps) ** 2 * (Fraction(p) - 1) / Fraction(w0_norm_p) ** 2
           - Fraction(c_est) / Fraction(m))
    return math.inf if den <= 0 else float(Fraction(c_opt) / (Fraction(delta) * den))


@_checked
def theorem2_runtime(eps, m, delta, w0_norm_p, p, d, n, k=1, c_opt=1.0, c_est=1.0):
    r"""Theorem 2 of Zhu et al. (2009) as a running time (the bullets after (12)): Figure 1 costs O(dk) per
    iteration for p = 2 (the scalar trick (10)) and O(dk + n) for p < 2 (Figure 2 touches every coordinate),
    so the time is :func:`theorem2_iterations` times dk, respectively dk + n (d: mean nonzeros per example,
    n: the dimension)."""
    _pos(d=d, n=n)
    if int(k) != k or k < 1:
        raise ValueError(f"k must be an integer >= 1, got {k}")
    T = theorem2_iterations(eps, m, delta, w0_norm_p, p, c_opt, c_est)
    per = d * k if _check_p(p) == 2.0 else d * k + n
    return T * per


# ----------------------------------------------------------------------------------------------- Appendix
@_checked
def proposition1_dual_norm(subgradient, p):
    r"""Proposition 1 of Zhu et al. (2009): if f is L-Lipschitz with respect to :math:`\|\cdot\|_p`, every
    sub-gradient :math:`\lambda \in \partial f(w)` at an interior point has :math:`\|\lambda\|_q \le L`,
    q = p/(p - 1).  Returns :math:`\|\lambda\|_q`, the side the proposition bounds (the other side, L for the
    losses of Section IV, is :func:`loss_lipschitz_constant`)."""
    p = _check_p(p)
    return _qnorm(_vec(subgradient, "subgradient"), p / (p - 1.0))


@_checked
def lemma2_conjugate_gradient(theta, p, B):
    r"""Lemma 2 of Zhu et al. (2009), eq. (22), for the book's case: for f closed and strongly convex on S,
    :math:`f^*` is differentiable with :math:`\nabla f^*(\theta) = \arg\max_{w \in S}\ \langle w, \theta\rangle - f(w)`.
    Computed here as that argmax, numerically (SLSQP, to about 1e-7), for :math:`f = \frac12\|w\|_p^2` on
    S = {||w||_p <= B}: an independent route to the closed form :func:`theorem3_conjugate_gradient`.  Meant for
    small dimensions (it checks the lemma; PGS uses the closed form)."""
    from scipy.optimize import minimize

    p = _check_p(p)
    _pos(B=B)
    theta = _vec(theta)

    def neg(w):
        return 0.5 * _qnorm(w, p) ** 2 - theta @ w

    start = np.clip(theta, -B / max(1, theta.size), B / max(1, theta.size))
    res = minimize(neg, start, method="SLSQP", options={"ftol": 1e-14, "maxiter": 1000},
                   constraints=[{"type": "ineq", "fun": lambda w: B - _qnorm(w, p)}])
    if not res.success:
        raise RuntimeError(f"the argmax of Lemma 2 did not converge: {res.message}")
    return res.x


@_checked
def theorem3_conjugate(theta, p, B):
    r"""Theorem 3 of Zhu et al. (2009), eq. (23): for :math:`f(w) = \frac12\|w\|_p^2` on S = {||w||_p <= B},

    .. math::  f^*(\theta) = \begin{cases} \frac12\|\theta\|_q^2, & \|\theta\|_q \le B\\
               \frac12\|\theta\|_q^2 - \frac12(B - \|\theta\|_q)^2, & \|\theta\|_q > B.\end{cases}"""
    p = _check_p(p)
    _pos(B=B)
    t = _qnorm(_vec(theta), p / (p - 1.0))
    return 0.5 * t ** 2 if t <= B else 0.5 * t ** 2 - 0.5 * (B - t) ** 2


@_checked
def theorem3_conjugate_gradient(theta, p, B):
    r"""Theorem 3 of Zhu et al. (2009), eq. (24):
    :math:`(\nabla f^*(\theta))_i = \frac{\min\{B, \|\theta\|_q\}}{\|\theta\|_q^{q/p}}\,\theta_i^{q/p}`,
    with :math:`x^a = |x|^a\,\mathrm{sgn}\,x` (0 at theta = 0)."""
    p = _check_p(p)
    _pos(B=B)
    theta = _vec(theta)
    q = p / (p - 1.0)
    t = _qnorm(theta, q)
    if t == 0.0:
        return np.zeros_like(theta)
    return min(B, t) / t ** (q / p) * _signed_power(theta, q / p)


@_checked
def corollary2_conjugate(theta, p, B):
    r"""Corollary 2 of Zhu et al. (2009), eq. (27): for :math:`f = r = \frac{1}{2(p-1)}\|w\|_p^2` on
    S = {||w||_p <= B},

    .. math::  f^*(\theta) = \begin{cases} \frac{1}{2(q-1)}\|\theta\|_q^2, & \|(p-1)\theta\|_q \le B\\
               \frac{1}{2(q-1)}\|\theta\|_q^2 - \frac{1}{2(p-1)}(B - \|(p-1)\theta\|_q)^2,
               & \|(p-1)\theta\|_q > B.\end{cases}"""
    p = _check_p(p)
    _pos(B=B)
    q = p / (p - 1.0)
    t = _qnorm(_vec(theta), q)
    v = t ** 2 / (2.0 * (q - 1.0))
    if (p - 1.0) * t <= B:
        return v
    return v - (B - (p - 1.0) * t) ** 2 / (2.0 * (p - 1.0))


@_checked
def corollary2_conjugate_gradient(theta, p, B):
    r"""Corollary 2 of Zhu et al. (2009), eq. (28):
    :math:`(\nabla f^*(\theta))_i = \frac{\min\{B, \|(p-1)\theta\|_q\}}{\|\theta\|_q^{q/p}}\,\theta_i^{q/p}`.

    Its p-norm is :math:`\min\{B, (p-1)\|\theta\|_q\}`, and below the radius it equals Corollary 3's
    gradient, whose p-norm is :math:`(p-1)\|\theta\|_q`: so Figure 2's rescaling must divide by the
    **p**-norm of :math:`w_t`, :math:`w_t \leftarrow B w_t/\|w_t\|_p`, not by the q-norm printed on its line 6."""
    p = _check_p(p)
    _pos(B=B)
    theta = _vec(theta)
    q = p / (p - 1.0)
    t = _qnorm(theta, q)
    if t == 0.0:
        return np.zeros_like(theta)
    return min(B, (p - 1.0) * t) / t ** (q / p) * _signed_power(theta, q / p)


@_checked
def corollary3_conjugate(theta, p):
    r"""Corollary 3 of Zhu et al. (2009) (and Example 1): for S = R^n and
    :math:`f = \frac{1}{2(p-1)}\|w\|_p^2`, :math:`f^*(\theta) = \frac{1}{2(q-1)}\|\theta\|_q^2`."""
    p = _check_p(p)
    q = p / (p - 1.0)
    return _qnorm(_vec(theta), q) ** 2 / (2.0 * (q - 1.0))


@_checked
def corollary3_conjugate_gradient(theta, p):
    r"""Corollary 3 of Zhu et al. (2009):
    :math:`(\nabla f^*(\theta))_i = \frac{1}{q-1}\|\theta\|_q^{1-q/p}\,\theta_i^{q/p}`, which is line 3 of
    Figure 2 with :math:`\theta = \lambda/((t+1)\sigma)` (there :math:`(\sum_j|\theta_j|^q)^{2/q-1} =
    \|\theta\|_q^{2-q}` and :math:`q/p = q - 1`)."""
    p = _check_p(p)
    theta = _vec(theta)
    q = p / (p - 1.0)
    t = _qnorm(theta, q)
    if t == 0.0:
        return np.zeros_like(theta)
    return t ** (1.0 - q / p) / (q - 1.0) * _signed_power(theta, q / p)
