r"""Results of Agarwal, Negahban & Wainwright, *Stochastic optimization and sparse statistical recovery: optimal
algorithms for high dimensions* (NIPS 2012), re-derived where the source lost its mathematical layout.

Setting: minimize L(theta) = E[L(theta; Z)] from stochastic gradients, theta* (approximately) s-sparse, L
locally strongly convex.  RADAR (Algorithm 1) runs dual averaging in epochs i = 1, 2, ... on
L + lambda_i ||.||_1 over Omega(R_i) = {||theta - y_i||_p <= R_i}, p = 2 log d/(2 log d - 1), with
R_{i+1}^2 = R_i^2/2, epoch lengths (9) and lambda_i, alpha(t) from (12).

Conventions.  log is the natural logarithm except in kappa_T (11), whose outer log_2 counts halvings.  The paper
leaves its universal constants (c0, c1, c2, c3 and those hidden in O(.)) unspecified: every function takes them
as parameters; where a default exists it is 1.0 and only shows the shape of a bound, never a value from the paper.
``omega`` is the probability parameter of Theorem 1 (failure probability 6 exp(-omega^2/12)), and
``delta`` that of the corollaries (omega^2 = delta log d).

Re-derivations and corrections (see the chapter "Strong convexity and sparsity together"):

* lambda_i^2 of (12) is the minimizer over lambda of the epoch bound s(eps_i/gamma + s lambda^2/gamma^2) +
  eps_i^2/lambda^2 with eps_i = R_i sqrt(A_i/T_i): lambda_i^2 = gamma eps_i / s (:func:`schedule_lambda`).
* alpha(t) of (12), 5 R_i sqrt(log d/((G^2 + lambda_i^2 + sigma^2) t)), is the dual-averaging step for the
  prox-function ||theta - y_i||_p^2/(2(p-1)), i.e. (5) without its 1/R_i^2: with (5) as printed the same
  iterates need the step alpha(t)/R_i^2 (:func:`schedule_step`; the solver converts).
* Theorem 2's rate carries the factor kappa_T/log d (the number of epochs, ~ log T), not log d/kappa_T: the
  text says the rate is O(log T/T); its probability is 1 - 3 exp(-omega^2/12) (the minus sign is lost).
"""
from __future__ import annotations

import math

import numpy as np

from .._validate import (
    ANY,
    FLAG,
    check_array,
    check_count,
    check_index_array,
    checked,
    count,
    nonnegative,
    positive,
    real,
    vector,
)

SOURCE = "Agarwal, Negahban & Wainwright (2012)"

#: The domain of every parameter of this module, by name (checked before each call; see ``l1lab._validate``).
#: Counts: d (>= 3), i (an epoch index >= 1), t, T, n.  s, the sparsity the algorithm is tuned with, and the epoch
#: length T_i of (9) are real numbers > 0; delta of the corollaries is the multiplier in omega^2 = delta log d.
_P = {
    "d": count(3), "rounded": FLAG, "i": count(1).named("the epoch index i"), "R1": positive(), "L_theta": real(),
    "L_tilde": real(),
    "theta": vector(), "theta_tilde": vector(), "grad_theta": vector(), "gamma": positive(),
    "errors": vector(ndim=(1, 2)), "sigma": nonnegative(), "a": real(allow_inf=True), "B": positive(),
    "R": nonnegative(), "sigma_min": positive(), "rho": positive(), "eta": nonnegative(), "omega": nonnegative(),
    "R_i": positive(), "s": positive(), "G": nonnegative(), "c1": positive(), "T_i": positive(), "t": count(1),
    "lam_i": nonnegative(), "constant": positive(), "normalization": ANY, "T": count(1),
    "theta_star": vector(), "S": ANY, "eps2": nonnegative(), "c0": positive(), "delta": positive(),
    "q": real(low=0.0, high=1.0), "Rq": positive(), "kappa": positive(), "eta_x": positive(), "c3": positive(),
    "n": count(1), "c": positive(), "G2": nonnegative(), "sigma2": nonnegative(),
}
_checked = checked(_P)


def _pos(**kw):
    for k, v in kw.items():
        if not (isinstance(v, (int, float, np.integer, np.floating)) and v > 0 and math.isfinite(v)):
            raise ValueError(f"{k} must be a finite number > 0, got {v!r}")


def _nonneg(**kw):
    for k, v in kw.items():
        if not (isinstance(v, (int, float, np.integer, np.floating)) and v >= 0 and math.isfinite(v)):
            raise ValueError(f"{k} must be a finite number >= 0, got {v!r}")


def _dim(d):
    if not (isinstance(d, (int, np.integer)) or float(d).is_integer()) or d < 3:
        raise ValueError(f"d must be an integer >= 3 (p = 2 log d/(2 log d - 1) needs 2 log d > 2), got {d!r}")
    return int(d)


# ------------------------------------------------------------------------------------------- Section 2
@_checked
def prox_exponent(d, rounded=False):
    r"""Eq. (5) of Agarwal, Negahban & Wainwright (2012): the exponent of the prox-function
    :math:`\psi_{y,R}(\theta) = \|\theta - y\|_p^2/(2R^2(p-1))`, :math:`p = \frac{2\log d}{2\log d - 1}`, whose
    conjugate is q = p/(p-1) = 2 log d.  Then :math:`\|x\|_1 \le d^{1/q}\|x\|_p = \sqrt e\,\|x\|_p`, so psi is
    strongly convex with respect to the l1 norm.  ``rounded=True`` returns q/(q-1) with q = ceil(2 log d) (still
    d^{1/q} <= sqrt(e)), for which q - 1 is an integer and the solvers' powers are repeated squarings."""
    d = _dim(d)
    q = 2.0 * math.log(d)
    if rounded:
        q = float(math.ceil(q))
    return q / (q - 1.0)


@_checked
def epoch_radius(i, R1):
    r"""Algorithm 1 of Agarwal, Negahban & Wainwright (2012): :math:`R_{i+1}^2 = R_i^2/2`, i.e.
    :math:`R_i = R_1 2^{-(i-1)/2}` (R1 an upper bound on ||theta*||_1)."""
    _pos(R1=R1)
    if int(i) != i or i < 1:
        raise ValueError(f"the epoch index i must be an integer >= 1, got {i!r}")
    return R1 * 2.0 ** (-(int(i) - 1) / 2.0)


# ------------------------------------------------------------------------- Assumptions 1-3, Examples 1-2
@_checked
def assumption1_lipschitz_ratio(L_theta, L_tilde, theta, theta_tilde):
    r"""Assumption 1 of Agarwal, Negahban & Wainwright (2012) (locally Lipschitz) as a checkable quantity:
    :math:`|L(\theta) - L(\tilde\theta)|/\|\theta - \tilde\theta\|_1`, which must be at most G(R) for all pairs
    within l1 distance R of theta*."""
    theta = check_array(theta, "theta")
    diff = theta - check_array(theta_tilde, "theta_tilde", shape=theta.shape, like="theta")
    n1 = float(np.abs(diff).sum())
    if n1 == 0:
        raise ValueError("theta and theta_tilde coincide: the ratio is undefined")
    return abs(float(L_theta) - float(L_tilde)) / n1


@checked(_P, gamma=nonnegative())
def assumption2_lsc_gap(L_theta, L_tilde, grad_theta, theta, theta_tilde, gamma):
    r"""Assumption 2 of Agarwal, Negahban & Wainwright (2012) (local strong convexity, (7)) as a checkable
    quantity: :math:`L(\tilde\theta) - L(\theta) - \langle\nabla L(\theta), \tilde\theta - \theta\rangle -
    \frac\gamma2\|\theta - \tilde\theta\|_2^2`, which must be >= 0 for ||theta||_1, ||theta_tilde||_1 <= R."""
    _nonneg(gamma=gamma)
    t = check_array(theta, "theta")
    tt = check_array(theta_tilde, "theta_tilde", shape=t.shape, like="theta")
    g = check_array(grad_theta, "grad_theta", shape=t.shape, like="theta")
    return float(L_tilde) - float(L_theta) - float(g @ (tt - t)) - 0.5 * gamma * float((t - tt) @ (t - tt))


@checked(_P, sigma=positive())
def assumption3_mgf(errors, sigma):
    r"""Assumption 3 of Agarwal, Negahban & Wainwright (2012) (sub-Gaussian stochastic gradients, (8)) as a
    checkable quantity: the empirical :math:`\frac1n\sum_k \exp(\|e_k\|_\infty^2/\sigma^2)` over gradient errors
    e_k = g(theta) - E g(theta) (rows of ``errors``), which must be at most e = exp(1)."""
    _pos(sigma=sigma)
    E = np.atleast_2d(np.asarray(errors, dtype=np.float64))
    m = np.max(np.abs(E), axis=1)
    return float(np.mean(np.exp((m / sigma) ** 2)))


@_checked
def logistic_curvature(a):
    r"""Example 1 of Agarwal, Negahban & Wainwright (2012): the logistic link's curvature
    :math:`\psi(a) = e^a/(1 + e^a)^2` (the second derivative of log(1 + e^a); even, decreasing in |a|)."""
    a = abs(float(a))
    e = math.exp(-a)
    return e / (1.0 + e) ** 2


@_checked
def example1_G(B):
    r"""Example 1 of Agarwal, Negahban & Wainwright (2012) (hinge or logistic loss, ||x||_inf <= B):
    Assumption 1 holds globally with :math:`G \le \|\nabla L\|_\infty \le B`."""
    _pos(B=B)
    return float(B)


@checked(_P, R=positive())
def example1_gamma(B, R, sigma_min):
    r"""Example 1 of Agarwal, Negahban & Wainwright (2012), logistic loss under the population distribution:
    Assumption 2 holds with :math:`\gamma \ge \psi(BR)\,\sigma_{\min}(\Sigma)`, psi the logistic curvature and
    Sigma = E[x x^T]."""
    _pos(B=B, R=R, sigma_min=sigma_min)
    return logistic_curvature(B * R) * sigma_min


@_checked
def example1_sigma(B):
    r"""Example 1 of Agarwal, Negahban & Wainwright (2012): :math:`\|e(\theta)\|_\infty \le 2B`, so Assumption 3
    holds with :math:`\sigma = 2B`."""
    _pos(B=B)
    return 2.0 * B


@_checked
def example2_G(R, rho):
    r"""Example 2 of Agarwal, Negahban & Wainwright (2012) (least squares, y = <x, theta*> + w):
    :math:`G(R) \le \rho(\Sigma) R` with :math:`\rho(\Sigma) = \max_i \Sigma_{ii}`."""
    _nonneg(R=R)
    _pos(rho=rho)
    return rho * R


@_checked
def example2_gamma(sigma_min):
    r"""Example 2 of Agarwal, Negahban & Wainwright (2012): under the population distribution the squared loss
    is strongly convex with :math:`\gamma = \sigma_{\min}(\Sigma)`."""
    _pos(sigma_min=sigma_min)
    return float(sigma_min)


@checked(_P, eta=nonnegative())
def example2_sigma(R, rho, B, eta):
    r"""Example 2 of Agarwal, Negahban & Wainwright (2012), ||x||_inf <= B, noise w ~ N(0, eta^2): Assumption 3
    holds with :math:`\sigma^2(R) = 8\rho(\Sigma)^2R^2 + 4B^4R^2 + 10B^2\eta^2`; returns sigma(R)."""
    _nonneg(R=R, eta=eta)
    _pos(rho=rho, B=B)
    return math.sqrt(8.0 * rho ** 2 * R ** 2 + 4.0 * B ** 4 * R ** 2 + 10.0 * B ** 2 * eta ** 2)


@_checked
def uniform_design_covariance(B):
    r"""Section 4 of Agarwal, Negahban & Wainwright (2012): with x ~ Unif[-B, B]^d, :math:`\Sigma = E[xx^T] =
    (B^2/3) I`, so Example 2's rho(Sigma) = sigma_min(Sigma) = B^2/3."""
    _pos(B=B)
    return B * B / 3.0


# -------------------------------------------------------------------------------------- (9)-(12)
@_checked
def omega_sq(omega, i):
    r"""Section 3 of Agarwal, Negahban & Wainwright (2012): the per-epoch probability parameter
    :math:`\omega_i^2 = \omega^2 + 24\log i` (a union bound over epochs)."""
    _nonneg(omega=omega)
    if int(i) != i or i < 1:
        raise ValueError(f"the epoch index i must be an integer >= 1, got {i!r}")
    return omega ** 2 + 24.0 * math.log(int(i))


def _A(d, G, sigma, om2):
    return (G * G + sigma * sigma) * math.log(d) + om2 * sigma * sigma


@_checked
def epoch_length(R_i, i, d, s, gamma, G, sigma, omega, c1):
    r"""Eq. (9) of Agarwal, Negahban & Wainwright (2012): the length of epoch i,
    :math:`T_i = c_1\left[\frac{s^2}{\gamma^2R_i^2}\big((G^2 + \sigma^2)\log d + \omega_i^2\sigma^2\big) +
    \log d\right]` (a real number; the solver uses its ceiling).  c1 is the paper's unspecified universal
    constant."""
    d = _dim(d)
    _pos(R_i=R_i, s=s, gamma=gamma, c1=c1)
    _nonneg(G=G, sigma=sigma, omega=omega)
    om2 = omega_sq(omega, i)
    return c1 * (s * s / (gamma * gamma * R_i * R_i) * _A(d, G, sigma, om2) + math.log(d))


@_checked
def schedule_lambda(R_i, T_i, i, d, s, gamma, G, sigma, omega):
    r"""Eq. (12) of Agarwal, Negahban & Wainwright (2012): the regularization of epoch i,
    :math:`\lambda_i^2 = \frac{R_i\gamma}{s\sqrt{T_i}}\sqrt{(G^2 + \sigma^2)\log d + \omega_i^2\sigma^2}`;
    returns lambda_i.  It is gamma eps_i/s with eps_i = R_i sqrt(A_i/T_i) the epoch's optimization error, the
    minimizer over lambda of s^2 lambda^2/gamma^2 + eps_i^2/lambda^2 (re-derived).  With T_i from (9) it is
    about gamma R_i/(s c1^{1/4}): lambda anneals with the radius."""
    d = _dim(d)
    _pos(R_i=R_i, T_i=T_i, s=s, gamma=gamma)
    _nonneg(G=G, sigma=sigma, omega=omega)
    om2 = omega_sq(omega, i)
    return math.sqrt(R_i * gamma / (s * math.sqrt(T_i)) * math.sqrt(_A(d, G, sigma, om2)))


@_checked
def schedule_step(R_i, t, lam_i, d, G, sigma, constant=5.0, normalization="psi0"):
    r"""Eq. (12) of Agarwal, Negahban & Wainwright (2012): the step of iteration t >= 1 of epoch i,
    :math:`\alpha(t) = 5R_i\sqrt{\frac{\log d}{(G^2 + \lambda_i^2 + \sigma^2)\,t}}` (``constant`` = 5 as
    printed).

    This step belongs to the prox-function psi_0 = ||theta - y_i||_p^2/(2(p-1)) (``normalization="psi0"``):
    dual averaging with it has regret psi_0(theta*)/alpha_T + sum_t alpha_t ||g_t||_q^2/2, psi_0(theta*) <=
    R_i^2/(2(p-1)) ~ R_i^2 log d, which alpha ~ R_i sqrt(log d/t)/G balances.  (5) as printed divides by R_i^2:
    ``normalization="eq5"`` returns alpha(t)/R_i^2, the step that gives the same iterates with (5)."""
    d = _dim(d)
    _pos(R_i=R_i, t=t, constant=constant)
    _nonneg(lam_i=lam_i, G=G, sigma=sigma)
    if G == 0 and sigma == 0 and lam_i == 0:
        raise ValueError("G, sigma and lambda_i are all 0: the step of (12) is infinite")
    a = constant * R_i * math.sqrt(math.log(d) / ((G * G + lam_i * lam_i + sigma * sigma) * t))
    if normalization == "psi0":
        return a
    if normalization == "eq5":
        return a / (R_i * R_i)
    raise ValueError(f"normalization must be 'psi0' or 'eq5', got {normalization!r}")


@_checked
def kappa_T(T, d, s, gamma, R1, G, sigma, omega):
    r"""Eq. (11) of Agarwal, Negahban & Wainwright (2012):
    :math:`\kappa_T = \log_2\left[\frac{\gamma^2R_1^2T}{s^2((G^2 + \sigma^2)\log d + \omega^2\sigma^2)}\right]
    \log d`.  kappa_T/log d is about the number of epochs that fit in T iterations (the lengths (9) double)."""
    d = _dim(d)
    _pos(T=T, s=s, gamma=gamma, R1=R1)
    _nonneg(G=G, sigma=sigma, omega=omega)
    A = _A(d, G, sigma, omega ** 2)
    if A == 0:
        raise ValueError("G = sigma = 0 (noiseless, zero gradients): kappa_T is infinite")
    return math.log2(gamma ** 2 * R1 ** 2 * T / (s ** 2 * A)) * math.log(d)


@_checked
def sparsity_error(theta_star, S):
    r"""Eq. (10) of Agarwal, Negahban & Wainwright (2012): :math:`\varepsilon^2(\theta^*; S) =
    \|\theta^*_{S^c}\|_1^2/s`, s = |S|.  ``S`` is an index set, or an integer s for the best set of that size
    (the s largest |theta*_j|, which minimizes the l1 mass left out)."""
    th = check_array(theta_star, "theta_star")
    if np.ndim(S) == 0:
        s = check_count(S, "S (a set size s)", minimum=1, maximum=th.size)
        a = np.sort(np.abs(th))
        return float(a[: th.size - s].sum() ** 2 / s)
    idx = np.unique(check_index_array(S, "S", upper=th.size))
    mask = np.ones(th.size, dtype=bool)
    mask[idx] = False
    return float(np.abs(th[mask]).sum() ** 2 / idx.size)


# -------------------------------------------------------------------------------------- Theorems
def _check_T_vs_kappa(T, kappa, d):
    # kappa_T/log d is about the number of epochs in T iterations: below one epoch the bounds' term
    # log(kappa_T/log d) is negative, and they can turn negative (the result does not apply there)
    if kappa < math.log(d):
        raise ValueError(f"kappa_T = {kappa:.4g} < log d = {math.log(d):.4g}: T is too small for one epoch of "
                         "length (9), and the result does not apply")
    if T < 2.0 * kappa:
        raise ValueError(f"the result needs T >= 2 kappa_T = {2 * kappa:.4g}, got T = {T}")


@_checked
def theorem1_bound(T, d, s, gamma, R1, G, sigma, omega, eps2=0.0, c0=1.0):
    r"""Theorem 1 of Agarwal, Negahban & Wainwright (2012), (13): for T >= 2 kappa_T, with probability at least
    1 - 6 exp(-omega^2/12) (:func:`theorem1_probability`),

    .. math:: \|\hat\theta_T - \theta^*\|_2^2 \le c_0\left[\frac{s}{\gamma^2T}\Big((G^2 + \sigma^2)\log d +
              \sigma^2\big(\omega^2 + \log\tfrac{\kappa_T}{\log d}\big)\Big) + \varepsilon^2(\theta^*; S)\right]

    (``eps2`` = eps^2(theta*; S) of (10), 0 for an s-sparse theta*).  The statement names the constant c0 (the
    display prints c3); it is unspecified: the default 1.0 shows the shape only."""
    d = _dim(d)
    _pos(T=T, c0=c0)
    _nonneg(eps2=eps2)
    kap = kappa_T(T, d, s, gamma, R1, G, sigma, omega)
    _check_T_vs_kappa(T, kap, d)
    L = math.log(d)
    inner = (G * G + sigma * sigma) * L + sigma * sigma * (omega ** 2 + math.log(kap / L))
    return c0 * (s / (gamma ** 2 * T) * inner + eps2)


@_checked
def theorem1_probability(omega):
    r"""Theorem 1 of Agarwal, Negahban & Wainwright (2012): the bound (13) holds with probability at least
    :math:`1 - 6\exp(-\omega^2/12)` (clipped at 0; it is positive for omega > sqrt(12 log 6) = 4.637)."""
    _nonneg(omega=omega)
    return max(0.0, 1.0 - 6.0 * math.exp(-omega ** 2 / 12.0))


@_checked
def theorem1_example1_bound(T, d, s, B, gamma, omega, eps2=0.0, c=1.0):
    r"""Theorem 1 of Agarwal, Negahban & Wainwright (2012) in the setup of Example 1, the form that Section 3.1
    prints after the theorem:

    .. math:: \|\hat\theta_T - \theta^*\|_2^2 = O\Big(\frac{sB^2}{\gamma^2T}(\log d + \omega^2)
              + \varepsilon^2(\theta^*; S)\Big),

    returned as ``c`` times the bracket (``c`` is the hidden constant; the default 1.0 shows the shape only).
    With Example 1's G = B and sigma = 2B, Theorem 1's bracket is
    :math:`\frac{sB^2}{\gamma^2T}\big(5\log d + 4\omega^2 + 4\log\frac{\kappa_T}{\log d}\big) + \varepsilon^2`:
    the simplified form drops the term :math:`4\log(\kappa_T/\log d)`, of order log log T, into the O(.).
    Section 3.1 states the same scaling, up to logarithmic factors, for EDA with the fixed regularization of
    :func:`fixed_lambda`."""
    d = _dim(d)
    _pos(T=T, s=s, B=B, gamma=gamma, c=c)
    _nonneg(omega=omega, eps2=eps2)
    return c * (s * B * B / (gamma ** 2 * T) * (math.log(d) + omega ** 2) + eps2)


@checked(_P, delta=positive())
def corollary1_sparse(T, d, s, gamma, R1, G, sigma, delta, c0=1.0):
    r"""Corollary 1 of Agarwal, Negahban & Wainwright (2012), s-sparse theta*: Theorem 1 with eps^2 = 0 and
    omega^2 = delta log d; for T > 2 kappa_T, with probability at least 1 - 6 exp(-delta log d/12),

    .. math:: \|\hat\theta_T - \theta^*\|_2^2 \le c_0\left[\frac{G^2 + \sigma^2(1 + \delta)}{\gamma^2}
              \frac{s\log d}{T} + \frac{s\sigma^2}{\gamma^2T}\log\frac{\kappa_T}{\log d}\right]."""
    d = _dim(d)
    _pos(T=T, delta=delta, c0=c0)
    L = math.log(d)
    kap = kappa_T(T, d, s, gamma, R1, G, sigma, math.sqrt(delta * L))
    _check_T_vs_kappa(T, kap, d)
    return c0 * ((G * G + sigma * sigma * (1 + delta)) / gamma ** 2 * s * L / T
                 + s * sigma ** 2 / (gamma ** 2 * T) * math.log(kap / L))


@checked(_P, delta=positive(), q=real(low=0.0, low_open=True, high=1.0))
def corollary1_weak(T, d, q, Rq, s, gamma, R1, G, sigma, delta, c0=1.0):
    r"""Corollary 1 of Agarwal, Negahban & Wainwright (2012), theta* in the l_q ball
    :math:`B_q(R_q) = \{\sum_i|\theta_i|^q \le R_q\}`, 0 < q <= 1: with probability at least
    1 - 6 exp(-delta log d/12),

    .. math:: \|\hat\theta_T - \theta^*\|_2^2 \le c_0R_q\left[\Big(\frac{(G^2 + \sigma^2(1+\delta))\log d}
              {\gamma^2T}\Big)^{\frac{2-q}2} + \Big(\frac{\sigma^2}{\gamma^2T}\Big)^{\frac{2-q}2}
              \frac{\log(\kappa_T/\log d)}{((1+\delta)\log d)^{q/2}}\right].

    Re-derived from Theorem 1 with S = {|theta*_j| > tau}, tau^2 = (G^2 + sigma^2(1+delta)) log d/(gamma^2 T):
    |S| <= R_q tau^{-q} and ||theta*_{S^c}||_1 <= R_q tau^{1-q}, so both s A/(gamma^2 T) and eps^2 are at most
    R_q tau^{2-q}.  The rate goes from 1/T (q -> 0) to 1/sqrt(T) (q = 1).  ``s`` is the sparsity the
    algorithm was run with (it enters kappa_T only)."""
    d = _dim(d)
    if not 0 < q <= 1:
        raise ValueError(f"q must be in (0, 1], got {q!r}")
    _pos(T=T, Rq=Rq, delta=delta, c0=c0)
    L = math.log(d)
    kap = kappa_T(T, d, s, gamma, R1, G, sigma, math.sqrt(delta * L))
    _check_T_vs_kappa(T, kap, d)
    e = (2.0 - q) / 2.0
    first = ((G * G + sigma * sigma * (1 + delta)) * L / (gamma ** 2 * T)) ** e
    second = (sigma ** 2 / (gamma ** 2 * T)) ** e * math.log(kap / L) / ((1 + delta) * L) ** (q / 2.0)
    return c0 * Rq * (first + second)


@checked(_P, q=real(low=0.0, high=1.0))
def lq_radius(theta, q):
    r"""Corollary 1 of Agarwal, Negahban & Wainwright (2012): the smallest R_q with theta in
    :math:`B_q(R_q)`, i.e. :math:`\sum_i |\theta_i|^q` (for q = 0 the number of nonzeros)."""
    th = np.abs(np.asarray(theta, dtype=np.float64))
    if not 0 <= q <= 1:
        raise ValueError(f"q must be in [0, 1], got {q!r}")
    if q == 0:
        return float(np.count_nonzero(th))
    return float(np.sum(th[th > 0] ** q))


@checked(_P, delta=positive())
def corollary2_bound(T, d, s, sigma_min, B, R1, sigma, delta, kappa, c0=1.0):
    r"""Corollary 2 of Agarwal, Negahban & Wainwright (2012), finite pool (15) of n samples, logistic loss,
    sub-Gaussian design (Sigma, eta_x^2), s-sparse theta*: for T >= 2 kappa_T and n large enough
    (:func:`corollary2_min_samples`),

    .. math:: \|\hat\theta_T - \theta^*\|_2^2 \le \frac{c_0}{\sigma_{\min}^2(\Sigma)}\frac{s\log d}{T}
              \frac{B^2(1+\delta)}{\psi^2(2BR_1)} + \frac{c_0\,s\,\sigma^2}{\sigma_{\min}^2(\Sigma)
              \psi^2(2BR_1)T}\log\frac{\kappa_T}{\log d}

    (psi the logistic curvature, :func:`logistic_curvature`; it is Corollary 1 with Example 1's G = B, sigma = 2B
    and the restricted curvature gamma = psi(2BR1) sigma_min(Sigma)).  ``kappa`` is kappa_T (11)."""
    d = _dim(d)
    _pos(T=T, s=s, sigma_min=sigma_min, B=B, R1=R1, delta=delta, kappa=kappa, c0=c0)
    _nonneg(sigma=sigma)
    _check_T_vs_kappa(T, kappa, d)
    L = math.log(d)
    psi2 = logistic_curvature(2.0 * B * R1) ** 2
    return (c0 / sigma_min ** 2 * s * L / T * B * B * (1 + delta) / psi2
            + c0 * s * sigma ** 2 / (sigma_min ** 2 * psi2 * T) * math.log(kappa / L))


@_checked
def corollary2_min_samples(d, sigma_min, eta_x, c3=1.0):
    r"""Corollary 2 of Agarwal, Negahban & Wainwright (2012): the pool must have
    :math:`n \ge c_3\frac{\log d}{\sigma_{\min}^2(\Sigma)}\max(\sigma_{\min}^2(\Sigma), \eta_x^4)` samples for
    the restricted strong convexity of (15) (c3 unspecified)."""
    d = _dim(d)
    _pos(sigma_min=sigma_min, eta_x=eta_x, c3=c3)
    return c3 * math.log(d) / sigma_min ** 2 * max(sigma_min ** 2, eta_x ** 4)


@checked(_P, delta=positive())
def corollary2_probability(n, d, sigma_min, eta_x, delta, c1=1.0):
    r"""Corollary 2 of Agarwal, Negahban & Wainwright (2012): the bound holds with probability at least
    :math:`1 - 2\exp(-c_1 n\min(\sigma_{\min}^2(\Sigma)/\eta_x^4, 1)) - 6\exp(-\delta\log d/12)` (clipped at 0;
    c1 unspecified)."""
    d = _dim(d)
    _pos(n=n, sigma_min=sigma_min, eta_x=eta_x, delta=delta, c1=c1)
    p = (1.0 - 2.0 * math.exp(-c1 * n * min(sigma_min ** 2 / eta_x ** 4, 1.0))
         - 6.0 * math.exp(-delta * math.log(d) / 12))
    return max(0.0, p)


@_checked
def theorem2_epoch_length(T, d, kappa):
    r"""Theorem 2 of Agarwal, Negahban & Wainwright (2012) (RADAR-CONST): constant epochs
    :math:`T_i \equiv T\log d/\kappa_T`, i.e. about kappa_T/log d ~ log T epochs of equal length."""
    d = _dim(d)
    _pos(T=T, kappa=kappa)
    return T * math.log(d) / kappa


@_checked
def theorem2_bound(T, d, s, G, sigma, omega, kappa, c=1.0):
    r"""Theorem 2 of Agarwal, Negahban & Wainwright (2012) (constant epochs T log d/kappa_T, parameters (12)):
    with probability at least 1 - 3 exp(-omega^2/12),

    .. math:: \|\hat\theta_T - \theta^*\|_2^2 = O\left(s\,\frac{(G^2 + \sigma^2)\log d + (\omega^2 +
              \log(\kappa_T/\log d))\sigma^2}{T}\,\frac{\kappa_T}{\log d}\right),

    returned with the hidden constant ``c`` (default 1.0: the shape only).  The printed display reads log d/kappa
    for the last factor; the text (O(log T/T)) and the proof idea (the last of kappa_T/log d epochs of length
    T log d/kappa_T) give kappa_T/log d.  As in the paper's statement, gamma is absorbed into the O(.)."""
    d = _dim(d)
    _pos(T=T, s=s, kappa=kappa, c=c)
    _nonneg(G=G, sigma=sigma, omega=omega)
    L = math.log(d)
    if kappa <= L:
        raise ValueError(f"Theorem 2 needs kappa_T > log d = {L:.4g} (at least one epoch), got {kappa}")
    return c * s * ((G * G + sigma * sigma) * L + (omega ** 2 + math.log(kappa / L)) * sigma ** 2) / T * kappa / L


@_checked
def theorem2_probability(omega):
    r"""Theorem 2 of Agarwal, Negahban & Wainwright (2012): probability at least
    :math:`1 - 3\exp(-\omega^2/12)` (printed without the minus sign, which would make it negative)."""
    _nonneg(omega=omega)
    return max(0.0, 1.0 - 3.0 * math.exp(-omega ** 2 / 12.0))


# ------------------------------------------------------------------------------- Sections 3.1 and 4
@_checked
def sgd_rate(T, gamma, G2, sigma2, c=1.0):
    r"""Section 3.1 of Agarwal, Negahban & Wainwright (2012): strongly convex SGD converges at
    :math:`O((\tilde G^2 + \tilde\sigma^2)/(\gamma^2T))` with the l2 constants ||grad L||_2 <= G2 and
    E exp(||e||_2^2/sigma2^2) <= e; with dense features G2^2 ~ B^2 d, hence O(d/T).  ``c`` is the hidden
    constant (default 1.0: the shape only)."""
    _pos(T=T, gamma=gamma, c=c)
    _nonneg(G2=G2, sigma2=sigma2)
    return c * (G2 ** 2 + sigma2 ** 2) / (gamma ** 2 * T)


@_checked
def single_step_rate(T, d, R, gamma, G, sigma, c=1.0):
    r"""Section 3.1 of Agarwal, Negahban & Wainwright (2012): the single-step method (mirror descent or dual
    averaging with RADAR's prox-function, one epoch over the l1 ball of radius R >= ||theta*||_1) converges at a
    rate that does not use the strong convexity.  Its explicit shape: a gap of order
    :math:`R\sqrt{(G^2 + \sigma^2)\log d/T}` (G, sigma the l_inf constants of Assumptions 1 and 3) turned
    into a squared error by the curvature gamma,

    .. math:: \|\theta_T - \theta^*\|_2^2 \lesssim \frac{R}{\gamma}\sqrt{\frac{(G^2 + \sigma^2)\log d}{T}},

    ``c`` times it (the hidden constant; default 1.0, the shape only).  The paper prints the rate as
    :math:`O(s\sqrt{\log d/T})` in Section 3.1 and its introduction (R <= s ||theta*||_inf) and as
    :math:`O(\sqrt{s\log d/T})` in its abstract (R <= sqrt(s) ||theta*||_2): both are this bound with the
    constants absorbed, for two different normalizations of theta*."""
    d = _dim(d)
    _pos(T=T, gamma=gamma, c=c)
    _nonneg(R=R, G=G, sigma=sigma)
    return c * R / gamma * math.sqrt((G * G + sigma * sigma) * math.log(d) / T)


@_checked
def fixed_lambda(sigma, d, T):
    r"""Section 3.1 of Agarwal, Negahban & Wainwright (2012): the fixed regularization
    :math:`\lambda = \sigma\sqrt{\log d/T}` (sigma of Assumption 3) for the multi-step method of Juditsky and
    Nesterov on the regularized problem (EDA); the paper says it reaches the scaling of Theorem 1,
    :math:`\tilde O(\frac{sB^2}{\gamma^2T}(\log d + \omega^2))` in the setup of Example 1
    (:func:`theorem1_example1_bound`), with first epochs much longer than needed.  Its simulations use RDA's
    :math:`4\eta\sqrt{\log d/T}` instead (:func:`rda_lambda`)."""
    d = _dim(d)
    _pos(T=T)
    _nonneg(sigma=sigma)
    return sigma * math.sqrt(math.log(d) / T)


@checked(_P, eta=positive())
def rda_lambda(eta, d, T):
    r"""Section 4 of Agarwal, Negahban & Wainwright (2012): the regularization of the RDA and EDA baselines,
    :math:`\lambda = 4\eta\sqrt{\log d/T}`, eta the noise standard deviation (statistically optimal for T
    samples)."""
    d = _dim(d)
    _pos(eta=eta, T=T)
    return 4.0 * eta * math.sqrt(math.log(d) / T)
