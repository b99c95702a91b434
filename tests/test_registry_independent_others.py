"""Every registry entry of Zhu et al. (2009), Kakade, Foster & Even-Dar (2008) and Duchi et al. (2008) against an
independent form of its formula.

Each expected value below is written from the paper's text (``/work/shared/seeds/001``-``003``), with the
correction the registry's ``note`` states where there is one, in plain Python (``math``, ``fractions``, numpy
only for array bookkeeping).  No l1lab function is called to get an expected value: the l1lab function under test
is reached only through ``registry.get(key).function``.

``FORMULAS = {key: (independent_callable, [kwargs, ...])}``; one parametrized test evaluates the registry function
and the independent callable at every point and compares them at rel 1e-12 (integers and infinities exactly),
except for the entries in ``TOL``, whose reason is given there.
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
import scipy.sparse as sp

from l1lab.theory import registry

SOURCES = ("Zhu et al. (2009)", "Kakade, Foster & Even-Dar (2008)", "Duchi et al. (2008)")
RTOL = 1e-12

#: entries compared at a looser tolerance, and why
TOL = {
    # Lemma 2's function returns an argmax found numerically (SLSQP, ftol 1e-14; its docstring says "to about
    # 1e-7"); the expected value is the paper's closed form (24) of the same argmax.
    "zhu.lemma2": (1e-6, 1e-6),
}


# =============================================================================================== helpers
def _norm(x, p):
    """(sum_i |x_i|^p)^(1/p), Definition 4 of Zhu et al., summed with math.fsum."""
    return math.fsum(abs(float(v)) ** p for v in np.ravel(x)) ** (1.0 / p)


def _dual(p):
    """q with 1/p + 1/q = 1, written as Figure 1 line 2 of Zhu et al.: q = 1/(1 - 1/p)."""
    return 1.0 / (1.0 - 1.0 / p)


def _spow(x, e):
    """x^e in Zhu et al.'s notation: |x|^e sgn x."""
    return math.copysign(abs(x) ** e, x) if x != 0 else 0.0


def _H(T):
    """Harmonic number H_T = sum_{t <= T} 1/t: exact (Fraction) for integral T; for real T,
    H_x = H_{x+N} - sum_{k=1}^N 1/(x+k) with the asymptotic series of H_y at y = x + N = x + 40."""
    if float(T).is_integer():
        return sum((Fraction(1, t) for t in range(1, int(T) + 1)), Fraction(0))
    x = float(T)
    y = x + 40.0
    hy = (math.log(y) + 0.57721566490153286061 + 1 / (2 * y) - 1 / (12 * y ** 2) + 1 / (120 * y ** 4)
          - 1 / (252 * y ** 6) + 1 / (240 * y ** 8))
    return hy - math.fsum(1.0 / (x + k) for k in range(1, 41))


def _F(x):
    return Fraction(x)


# =============================================================================================== Zhu et al.
def zhu_regularizer(w, p):
    # eq. (3): r(w) = ||w||_p^2 / (2(p-1))
    return _norm(w, p) ** 2 / (2 * (p - 1))


def zhu_dual_norm(subgradient, p):
    # Proposition 1: the bounded side ||lambda||_q, 1/p + 1/q = 1
    return _norm(subgradient, _dual(p))


def zhu_lipschitz(X, loss, p, B=None, y=None):
    # Section IV: |l'| <= 1 for hinge/logistic, so L = max_i ||x_i||_q; least squares (l1lab's (a-y)^2/2, the
    # paper's (a-y)^2 halved, as the note says): |a - y| <= B ||x||_q + |y| on ||w||_p <= B.
    rows = X.toarray() if sp.issparse(X) else np.asarray(X, dtype=float)
    q = _dual(p)
    nq = [_norm(r, q) for r in rows]
    if loss in ("hinge", "logistic"):
        return max(nq)
    return max(a * (B * a + abs(float(yi))) for a, yi in zip(nq, y))


def zhu_radius(c0, sigma, p):
    # Section IV corrected: sigma r(w_hat) <= F_hat(0) = C(0) and r(w) = ||w||_p^2/(2(p-1))
    # => ||w_hat||_p^2 <= 2(p-1) C(0)/sigma
    r_max = c0 / sigma
    return math.sqrt(r_max * 2 * (p - 1))


def zhu_lemma1(lambda_norms_q, sigma, cumulative=False):
    # eq. (15): (1/2) sum_t ||lambda_t||_q^2 / (t sigma), in exact rationals
    s, out = Fraction(0), []
    for t, a in enumerate(lambda_norms_q, start=1):
        s += _F(a) ** 2 / (t * _F(sigma)) / 2
        out.append(float(s))
    return out if cumulative else out[-1]


def zhu_harmonic(T):
    if isinstance(T, np.ndarray):
        return [float(_H(t)) for t in T]
    return float(_H(T))


def zhu_cor1(T, sigma, L):
    # Corollary 1 with its constant explicit: regret <= L^2 H_T / (2 sigma)
    return float(_F(L) ** 2 * _H(T) / (2 * _F(sigma)))


def zhu_thm1_expected(T, sigma, L):
    # eq. (17): E[eps_acc] <= L^2 H_T / (2 sigma T)
    return float(_F(L) ** 2 * _H(T) / (2 * _F(sigma) * _F(T)))


def zhu_thm1(T, sigma, L, delta):
    # eq. (11)/(18): Markov => eps_acc <= E[eps_acc]/delta
    return float(_F(L) ** 2 * _H(T) / (2 * _F(sigma) * _F(T) * _F(delta)))


def zhu_thm1_iterations(eps_acc, sigma, L, delta=None):
    # the smallest integer T with L^2 H_T / (2 sigma T delta) <= eps_acc, by a scan over all T (H_T in
    # extended precision), doubling the range until one T qualifies
    dl = 1.0 if delta is None else delta
    N = 1024
    while True:
        t = np.arange(1, N + 1, dtype=np.longdouble)
        H = np.cumsum(1 / t)
        ok = np.nonzero(np.longdouble(L) ** 2 * H / (2 * np.longdouble(sigma) * t * np.longdouble(dl))
                        <= np.longdouble(eps_acc))[0]
        if ok.size:
            return int(ok[0]) + 1
        N *= 4


def zhu_thm2_decomposition(T, m, delta, sigma, w0_norm_p, p, c_opt=1.0, c_est=1.0):
    # eq. (20) with the constants of its O~ terms explicit
    F = _F
    return float(F(c_opt) / (F(sigma) * F(T) * F(delta)) + F(sigma) * F(w0_norm_p) ** 2 / (2 * (F(p) - 1))
                 + F(c_est) / (F(sigma) * F(m)))


def zhu_thm2_sigma(T, m, delta, w0_norm_p, p, c_opt=1.0, c_est=1.0):
    # the sigma of the proof: sqrt(2(p-1)/||w0||^2 (c_opt/(T delta) + c_est/m)); the argmin of (20), which is
    # a/sigma + b sigma with a = c_opt/(T delta) + c_est/m, b = ||w0||^2/(2(p-1)): sqrt(a/b)
    a = _F(c_opt) / (_F(T) * _F(delta)) + _F(c_est) / _F(m)
    b = _F(w0_norm_p) ** 2 / (2 * (_F(p) - 1))
    return math.sqrt(a / b)


def zhu_thm2_error(T, m, delta, w0_norm_p, p, c_opt=1.0, c_est=1.0, as_printed=False):
    # eq. (21) corrected: min_sigma a/sigma + b sigma = 2 sqrt(ab); printed without the 2
    a = _F(c_opt) / (_F(T) * _F(delta)) + _F(c_est) / _F(m)
    b = _F(w0_norm_p) ** 2 / (2 * (_F(p) - 1))
    return (1 if as_printed else 2) * math.sqrt(a * b)


def zhu_thm2_iterations(eps, m, delta, w0_norm_p, p, c_opt=1.0, c_est=1.0, as_printed=False):
    # eq. (12) corrected: solve (21) = eps for T.  (21) = k sqrt(a b), k = 2 (corrected) or 1 (printed):
    # a = eps^2 / (k^2 b), and a = c_opt/(T delta) + c_est/m  =>  T = c_opt / (delta (a - c_est/m)); no T when
    # a <= c_est/m.  Exact rationals.
    k = 1 if as_printed else 2
    b = _F(w0_norm_p) ** 2 / (2 * (_F(p) - 1))
    a = _F(eps) ** 2 / (k * k * b)
    rest = a - _F(c_est) / _F(m)
    if rest <= 0:
        return math.inf
    return float(_F(c_opt) / (_F(delta) * rest))


def zhu_thm2_runtime(eps, m, delta, w0_norm_p, p, d, n, k=1, c_opt=1.0, c_est=1.0):
    # the bullets after (12): per iteration O(dk) for p = 2 (eq. (10)), O(dk + n) for p < 2 (Figure 2)
    T = zhu_thm2_iterations(eps, m, delta, w0_norm_p, p, c_opt, c_est)
    return T * (d * k if p == 2 else d * k + n)


def zhu_thm3(theta, p, B):
    # eq. (23)
    t = _norm(theta, _dual(p))
    return t * t / 2 if t <= B else t * t / 2 - (B - t) ** 2 / 2


def zhu_thm3_grad(theta, p, B):
    # eq. (24); at theta = 0 the argmax of -||w||^2/2 (Lemma 2) is w = 0
    q = _dual(p)
    t = _norm(theta, q)
    if t == 0:
        return [0.0] * len(theta)
    return [min(B, t) / t ** (q / p) * _spow(float(x), q / p) for x in theta]


def zhu_lemma2(theta, p, B):
    # eq. (22): the argmax of <w, theta> - ||w||_p^2/2 over ||w||_p <= B; by Theorem 3's proof it is eq. (24)
    return zhu_thm3_grad(theta, p, B)


def zhu_cor2(theta, p, B):
    # eq. (27)
    q = _dual(p)
    t = _norm(theta, q)
    s = _norm([(p - 1) * float(x) for x in theta], q)
    v = t * t / (2 * (q - 1))
    return v if s <= B else v - (B - s) ** 2 / (2 * (p - 1))


def zhu_cor2_grad(theta, p, B):
    # eq. (28)
    q = _dual(p)
    t = _norm(theta, q)
    if t == 0:
        return [0.0] * len(theta)
    s = _norm([(p - 1) * float(x) for x in theta], q)
    return [min(B, s) / t ** (q / p) * _spow(float(x), q / p) for x in theta]


def zhu_cor3(theta, p):
    # Corollary 3 / Example 1: ||theta||_q^2 / (2(q-1))
    q = _dual(p)
    return _norm(theta, q) ** 2 / (2 * (q - 1))


def zhu_cor3_grad(theta, p):
    # Figure 2, line 3, with lambda/((t+1) sigma) = theta:
    # w_i = 1/(q-1) (sum_j |theta_j|^q)^(2/q - 1) |theta_i|^(q-1) sgn theta_i
    q = _dual(p)
    S = math.fsum(abs(float(x)) ** q for x in theta)
    if S == 0:
        return [0.0] * len(theta)
    return [S ** (2 / q - 1) * abs(float(x)) ** (q - 1) * math.copysign(1.0, x) / (q - 1) if x != 0 else 0.0
            for x in theta]


# =============================================================================================== Kakade et al.
def _log_term(delta, T):
    return 0.0 if delta is None else math.log(1 / delta) / T


def kfe_sg_regret(T, F2, G2, delta=None):
    # Theorem 2.1: 2 F2 G2 (sqrt(1/T) + sqrt(8/T log(1/delta))); noiseless without the second term
    return 2 * F2 * G2 * (math.sqrt(1 / T) + math.sqrt(8 * _log_term(delta, T)))


def kfe_sg_eta(T, F2, G2):
    # Theorem 2.1: eta = (2 F2/G2) sqrt(1/T)
    return 2 * F2 / G2 * math.sqrt(1 / T)


def kfe_prop22(w, grad, eta, F1):
    # Proposition 2.2: (w^{t+1} - w^t).grad = -eta F1 Var_{i ~ w/F1}(grad_i); the variance in centred form,
    # exact rationals
    P = [_F(x) / _F(F1) for x in w]
    G = [_F(g) for g in grad]
    mean = sum(p * g for p, g in zip(P, G))
    var = sum(p * (g - mean) ** 2 for p, g in zip(P, G))
    return float(-_F(eta) * _F(F1) * var)


def kfe_smg_regret(T, d, F1, G_inf, delta=None):
    # Theorem 2.3 (T >= 16 log d): 4 F1 G_inf (sqrt(log d/T) + sqrt(2/T log(1/delta)))
    return 4 * F1 * G_inf * (math.sqrt(math.log(d) / T) + math.sqrt(2 * _log_term(delta, T)))


def kfe_smg_eta(T, d, G_inf, F1=1.0, as_printed=False):
    # Theorem 2.3, corrected: the minimizer of Lemma 5.3's F1 log d/(T eta) + 4 eta F1 G^2 is
    # sqrt(F1 log d / (T 4 F1 G^2)) = sqrt(log d/(4 T G^2)); printed: 1/(2 F1 G) sqrt(log d/T)
    if as_printed:
        return 1 / (2 * F1 * G_inf) * math.sqrt(math.log(d) / T)
    return math.sqrt(math.log(d) / (4 * T * G_inf ** 2))


def kfe_cor31(T, d, F1, G_inf, delta):
    return kfe_smg_regret(T, d, F1, G_inf, delta)


def kfe_cor31_limsup(T, d, F1, G_inf):
    # Corollary 3.1 as the note states it: 4 F1 G sqrt(log d/T)
    return 4 * F1 * G_inf * math.sqrt(math.log(d) / T)


def kfe_cor41(T, d, F1, G_inf, delta):
    return kfe_smg_regret(T, d, F1, G_inf, delta)


def kfe_lemma51(B, T, delta):
    # eq. (4)'s Azuma term: B sqrt(2/T log(1/delta))
    return B * math.sqrt(2 / T * math.log(1 / delta))


def kfe_lemma52(eta, T, F2, G2):
    # Lemma 5.2: (2/(eta T)) F2^2 + (eta/2) G2^2, exact rationals
    F = _F
    return float(2 / (F(eta) * F(T)) * F(F2) ** 2 + F(eta) / 2 * F(G2) ** 2)


def kfe_lemma53(eta, T, d, F1, G_inf):
    # Lemma 5.3: (1/(T eta)) F1 log d + 4 eta F1 G^2
    return F1 * math.log(d) / (T * eta) + 4 * eta * F1 * G_inf ** 2


def kfe_max_step(G_inf):
    # Lemma 5.3: eta <= 1/(8 G_inf)
    return 1 / (8 * G_inf)


# =============================================================================================== Duchi et al.
def _simplex_projection(v, z):
    """The projection of v onto {w >= 0, sum w = z}, from its defining property only: w = max(v - theta, 0)
    with sum_i max(v_i - theta, 0) = z.  The function theta -> sum max(v - theta, 0) is piecewise linear with
    kinks at the v_i; every candidate theta = (sum of the entries > theta - z)/count is tried in exact
    rationals and the one that satisfies the property is kept."""
    V = [_F(x) for x in v]
    Z = _F(z)
    for S in {frozenset(i for i in range(len(V)) if V[i] >= c) for c in V}:
        theta = (sum(V[i] for i in S) - Z) / len(S)
        if sum(max(x - theta, 0) for x in V) == Z:
            return theta, [max(x - theta, 0) for x in V]
    raise AssertionError("no threshold found")


def dssc_lemma1(v, w):
    # Lemma 1 by brute force over pairs: v_s > v_j and w_s = 0 must give w_j = 0; the largest |w_j| over the
    # pairs that break it
    bad = [abs(float(w[j])) for s in range(len(v)) for j in range(len(v))
           if v[s] > v[j] and w[s] == 0 and w[j] != 0]
    return max(bad, default=0.0)


def dssc_rho(v, z):
    # Lemma 2 in exact rationals: rho = max{j : mu_j - (sum_{r <= j} mu_r - z)/j > 0}, mu sorted descending
    mu = sorted((_F(x) for x in v), reverse=True)
    return max(j for j in range(1, len(mu) + 1) if mu[j - 1] - (sum(mu[:j]) - _F(z)) / j > 0)


def dssc_theta(v, z):
    # Lemma 2 / eq. (4)-(5): theta = (sum_{i <= rho} mu_i - z)/rho, with rho as above
    mu = sorted((_F(x) for x in v), reverse=True)
    rho = dssc_rho(v, z)
    return float((sum(mu[:rho]) - _F(z)) / rho)


def dssc_lemma3(v, w):
    # Lemma 3: w_i v_i >= 0 for all i; the largest |w_i| with w_i v_i < 0
    return max((abs(float(b)) for a, b in zip(v, w) if float(a) * float(b) < 0), default=0.0)


def dssc_eq9(v, z):
    # (9) in exact rationals: with mu_{n+1} = 0 appended, the one index rho with
    # sum_{i <= rho}(mu_i - mu_rho) < z <= sum_{i <= rho + 1}(mu_i - mu_{rho + 1}); both inequalities checked at
    # every j, and exactly one j must satisfy them
    mu = sorted((_F(x) for x in v), reverse=True) + [Fraction(0)]
    Z = _F(z)
    hits = [j for j in range(1, len(mu))
            if sum(m - mu[j - 1] for m in mu[:j]) < Z <= sum(m - mu[j] for m in mu[:j + 1])]
    assert len(hits) == 1, hits
    return hits[0]


def dssc_eq10(v, z):
    # (10): theta = (sum over the entries >= the pivot mu_rho - z)/rho, rho from (9)
    mu = sorted((_F(x) for x in v), reverse=True)
    rho = dssc_eq9(v, z)
    top = [m for m in mu if m >= mu[rho - 1]]
    assert len(top) == rho
    return float((sum(top) - _F(z)) / rho)


def dssc_eq11(v, z, value):
    # (11), read through Figure 3's test: an entry of value u is in the support iff u > theta, theta the exact
    # threshold of the simplex projection of v (found by trying every support size)
    theta, _ = _simplex_projection([float(x) for x in v], float(z))
    return _F(value) > _F(theta)


def _ball_projection(v, z):
    """Projection onto ||w||_1 <= z: v itself inside the ball, else sign(v) * (simplex projection of |v|)
    (the reduction the paper builds on Lemma 3)."""
    if sum(abs(x) for x in v) <= z:
        return list(v)
    _, u = _simplex_projection([abs(x) for x in v], z)
    return [math.copysign(float(b), a) for a, b in zip(v, u)]


# =============================================================================================== points
_rng = np.random.default_rng(20090609)
_V1 = _rng.normal(size=7)
_V2 = np.array([0.5, 0.25, 0.125, 2.0, -1.0, 0.75])
_X = _rng.normal(size=(6, 5))
_Xs = sp.random(8, 12, density=0.3, format="csr", random_state=3)
_Xs.data = _rng.normal(size=_Xs.nnz)
_Y = _rng.normal(size=6)
_THETA = _rng.normal(size=5)  # q-norms around 2-3
_W = np.array([0.1, 0.4, 0.2, 0.3])


def _proj_pt(v, z):
    return {"v": np.asarray(v, float), "w": np.asarray(_simplex_projection(v, z)[1], float)}


FORMULAS = {
    # ---------------------------------------------------------------- Zhu et al. (2009)
    "zhu.eq3": (zhu_regularizer, [
        {"w": _V1, "p": 2.0}, {"w": _V1, "p": 1.5}, {"w": _V2, "p": 1.1}, {"w": np.zeros(3), "p": 1.8},
        {"w": np.array([0.0, -3.0, 0.0]), "p": 1.01}]),
    "zhu.proposition1": (zhu_dual_norm, [
        {"subgradient": _V1, "p": 2.0}, {"subgradient": _V1, "p": 1.5}, {"subgradient": _V2, "p": 1.25},
        {"subgradient": _V2, "p": 1.05}, {"subgradient": np.zeros(4), "p": 1.8}]),
    "zhu.lemma2": (zhu_lemma2, [
        {"theta": _THETA[:3], "p": 2.0, "B": 1.0}, {"theta": _THETA[:3], "p": 1.5, "B": 10.0},
        {"theta": _THETA[:4], "p": 1.8, "B": 0.5}, {"theta": np.array([0.3, -0.2]), "p": 1.5, "B": 2.0}]),
    "zhu.section4.lipschitz": (zhu_lipschitz, [
        {"X": _X, "loss": "hinge", "p": 2.0}, {"X": _X, "loss": "logistic", "p": 1.5},
        {"X": _Xs, "loss": "hinge", "p": 1.2}, {"X": _X, "loss": "squared", "p": 1.8, "B": 2.5, "y": _Y},
        {"X": _Xs, "loss": "squared", "p": 2.0, "B": 0.3, "y": _rng.normal(size=8)}]),
    "zhu.section4.radius": (zhu_radius, [
        {"c0": 0.5, "sigma": 1e-4, "p": 2.0}, {"c0": 0.6931, "sigma": 2.0, "p": 1.5},
        {"c0": 0.0, "sigma": 0.1, "p": 1.8}, {"c0": 3.0, "sigma": 1e-6, "p": 1.01}]),
    "zhu.lemma1": (zhu_lemma1, [
        {"lambda_norms_q": [1.0], "sigma": 0.5}, {"lambda_norms_q": list(np.abs(_V1)), "sigma": 1e-3},
        {"lambda_norms_q": list(np.abs(_V1)), "sigma": 0.2, "cumulative": True},
        {"lambda_norms_q": [0.0, 2.0, 0.0, 1.5], "sigma": 3.0, "cumulative": True}]),
    "zhu.lemma1.harmonic": (zhu_harmonic, [
        {"T": 1}, {"T": 2}, {"T": 10}, {"T": 1000}, {"T": 2.5}, {"T": 1.0},
        {"T": np.array([1.0, 3.0, 17.0, 123.0])}]),
    "zhu.corollary1": (zhu_cor1, [
        {"T": 1, "sigma": 1.0, "L": 1.0}, {"T": 3, "sigma": 0.01, "L": 2.5}, {"T": 1000, "sigma": 1e-6, "L": 0.7}]),
    "zhu.theorem1.expected": (zhu_thm1_expected, [
        {"T": 1, "sigma": 1.0, "L": 1.0}, {"T": 50, "sigma": 0.01, "L": 2.5}, {"T": 4000, "sigma": 1e-5, "L": 0.7}]),
    "zhu.theorem1": (zhu_thm1, [
        {"T": 1, "sigma": 1.0, "L": 1.0, "delta": 0.5}, {"T": 50, "sigma": 0.01, "L": 2.5, "delta": 0.05},
        {"T": 4000, "sigma": 1e-5, "L": 0.7, "delta": 0.999}]),
    "zhu.theorem1.iterations": (zhu_thm1_iterations, [
        {"eps_acc": 1.0, "sigma": 0.5, "L": 1.0}, {"eps_acc": 0.1, "sigma": 0.1, "L": 1.0},
        {"eps_acc": 1e-2, "sigma": 0.05, "L": 0.9, "delta": 0.1}, {"eps_acc": 2e-3, "sigma": 0.3, "L": 1.3},
        {"eps_acc": 10.0, "sigma": 1.0, "L": 1.0, "delta": 0.5}]),
    "zhu.theorem2.decomposition": (zhu_thm2_decomposition, [
        {"T": 100, "m": 1000, "delta": 0.1, "sigma": 0.01, "w0_norm_p": 2.0, "p": 2.0},
        {"T": 1e5, "m": 781265, "delta": 0.05, "sigma": 1e-6, "w0_norm_p": 30.0, "p": 1.8, "c_opt": 3.0,
         "c_est": 0.5},
        {"T": 1, "m": 1, "delta": 0.5, "sigma": 1.0, "w0_norm_p": 0.0, "p": 1.5}]),
    "zhu.theorem2.sigma": (zhu_thm2_sigma, [
        {"T": 100, "m": 1000, "delta": 0.1, "w0_norm_p": 2.0, "p": 2.0},
        {"T": 1e5, "m": 781265, "delta": 0.05, "w0_norm_p": 30.0, "p": 1.8, "c_opt": 3.0, "c_est": 0.5},
        {"T": 1, "m": 1, "delta": 0.5, "w0_norm_p": 0.1, "p": 1.5}]),
    "zhu.theorem2.error": (zhu_thm2_error, [
        {"T": 100, "m": 1000, "delta": 0.1, "w0_norm_p": 2.0, "p": 2.0},
        {"T": 1e5, "m": 781265, "delta": 0.05, "w0_norm_p": 30.0, "p": 1.8, "c_opt": 3.0, "c_est": 0.5},
        {"T": 1, "m": 1, "delta": 0.5, "w0_norm_p": 0.1, "p": 1.5},
        {"T": 100, "m": 1000, "delta": 0.1, "w0_norm_p": 2.0, "p": 1.2, "as_printed": True}]),
    "zhu.theorem2": (zhu_thm2_iterations, [
        {"eps": 0.5, "m": 1000, "delta": 0.1, "w0_norm_p": 2.0, "p": 2.0},
        {"eps": 0.1, "m": 781265, "delta": 0.05, "w0_norm_p": 1.5, "p": 1.8, "c_opt": 3.0, "c_est": 0.5},
        {"eps": 0.1, "m": 10, "delta": 0.05, "w0_norm_p": 1.5, "p": 1.8},  # unreachable: inf
        {"eps": 1.0, "m": 2.0, "delta": 0.5, "w0_norm_p": 1.0, "p": 2.0},  # denominator exactly 0: inf
        {"eps": 0.5, "m": 1000, "delta": 0.1, "w0_norm_p": 2.0, "p": 1.5, "as_printed": True}]),
    "zhu.theorem2.runtime": (zhu_thm2_runtime, [
        {"eps": 0.5, "m": 1000, "delta": 0.1, "w0_norm_p": 2.0, "p": 2.0, "d": 76.0, "n": 47236},
        {"eps": 0.5, "m": 1000, "delta": 0.1, "w0_norm_p": 2.0, "p": 1.8, "d": 76.0, "n": 47236, "k": 300},
        {"eps": 0.2, "m": 5e4, "delta": 0.2, "w0_norm_p": 1.0, "p": 2.0, "d": 3.5, "n": 10, "k": 4, "c_est": 2.0},
        {"eps": 0.1, "m": 10, "delta": 0.05, "w0_norm_p": 1.5, "p": 1.8, "d": 5.0, "n": 100}]),
    "zhu.theorem3": (zhu_thm3, [
        {"theta": _THETA, "p": 2.0, "B": 100.0}, {"theta": _THETA, "p": 1.5, "B": 0.5},
        {"theta": _THETA, "p": 1.8, "B": 3.0}, {"theta": np.array([3.0, 4.0]), "p": 2.0, "B": 5.0},
        {"theta": np.zeros(3), "p": 1.3, "B": 1.0}]),
    "zhu.theorem3.gradient": (zhu_thm3_grad, [
        {"theta": _THETA, "p": 2.0, "B": 100.0}, {"theta": _THETA, "p": 1.5, "B": 0.5},
        {"theta": _THETA, "p": 1.8, "B": 3.0}, {"theta": np.array([3.0, 0.0, -4.0]), "p": 2.0, "B": 5.0},
        {"theta": np.zeros(3), "p": 1.3, "B": 1.0}]),
    "zhu.corollary2": (zhu_cor2, [
        {"theta": _THETA, "p": 2.0, "B": 100.0}, {"theta": _THETA, "p": 1.5, "B": 0.5},
        {"theta": _THETA, "p": 1.8, "B": 2.0}, {"theta": 4 * _THETA, "p": 1.2, "B": 1.0},
        {"theta": np.zeros(3), "p": 1.3, "B": 1.0}]),
    "zhu.corollary2.gradient": (zhu_cor2_grad, [
        {"theta": _THETA, "p": 2.0, "B": 100.0}, {"theta": _THETA, "p": 1.5, "B": 0.5},
        {"theta": _THETA, "p": 1.8, "B": 2.0}, {"theta": 4 * _THETA, "p": 1.2, "B": 1.0},
        {"theta": np.zeros(3), "p": 1.3, "B": 1.0}]),
    "zhu.corollary3": (zhu_cor3, [
        {"theta": _THETA, "p": 2.0}, {"theta": _THETA, "p": 1.5}, {"theta": _V2, "p": 1.1},
        {"theta": np.zeros(2), "p": 1.7}]),
    "zhu.corollary3.gradient": (zhu_cor3_grad, [
        {"theta": _THETA, "p": 2.0}, {"theta": _THETA, "p": 1.5}, {"theta": _V2, "p": 1.1},
        {"theta": np.array([0.0, 2.0, -1e-3]), "p": 1.8}, {"theta": np.zeros(2), "p": 1.7}]),
    # ---------------------------------------------------------------- Kakade, Foster & Even-Dar (2008)
    "kfe.theorem2.1": (kfe_sg_regret, [
        {"T": 100, "F2": 1.0, "G2": 1.0}, {"T": 10000, "F2": 3.0, "G2": 0.5, "delta": 0.05},
        {"T": 1, "F2": 0.2, "G2": 7.0, "delta": 0.999}, {"T": 2.5e6, "F2": 10.0, "G2": 40.0, "delta": 1e-9}]),
    "kfe.theorem2.1.eta": (kfe_sg_eta, [
        {"T": 1, "F2": 1.0, "G2": 1.0}, {"T": 10000, "F2": 3.0, "G2": 0.5}, {"T": 7, "F2": 0.2, "G2": 7.0}]),
    "kfe.prop2.2": (kfe_prop22, [
        {"w": _W, "grad": np.array([1.0, -2.0, 0.5, 3.0]), "eta": 0.01, "F1": 1.0},
        {"w": 5 * _W, "grad": np.array([1.0, -2.0, 0.5, 3.0]), "eta": 0.02, "F1": 5.0},
        {"w": np.array([0.25, 0.5, 0.25]), "grad": np.array([1.0, -2.0, 4.0]), "eta": 0.125, "F1": 1.0},
        {"w": np.full(6, 0.5), "grad": _rng.normal(size=6), "eta": 0.03, "F1": 3.0},
        {"w": np.array([0.0, 2.0, 0.0]), "grad": np.array([1.0, -2.0, 4.0]), "eta": 0.125, "F1": 2.0}]),  # corner
    "kfe.prop2.2.variance": (kfe_prop22, [
        {"w": _W, "grad": np.array([1.0, -2.0, 0.5, 3.0]), "eta": 0.01, "F1": 1.0},
        {"w": 5 * _W, "grad": np.array([1.0, -2.0, 0.5, 3.0]), "eta": 0.02, "F1": 5.0},
        {"w": np.array([0.0, 2.0, 0.0]), "grad": np.array([1.0, -2.0, 4.0]), "eta": 0.1, "F1": 2.0},  # corner
        {"w": np.full(6, 0.5), "grad": _rng.normal(size=6), "eta": 0.03, "F1": 3.0}]),
    "kfe.theorem2.3": (kfe_smg_regret, [
        {"T": 100, "d": 2, "F1": 1.0, "G_inf": 1.0}, {"T": 1e4, "d": 1000, "F1": 5.0, "G_inf": 0.5, "delta": 0.05},
        {"T": 16 * math.log(47236) + 1, "d": 47236, "F1": 0.3, "G_inf": 2.0, "delta": 0.9},
        {"T": 5, "d": 1, "F1": 2.0, "G_inf": 1.0, "delta": 0.1}]),
    "kfe.theorem2.3.eta": (kfe_smg_eta, [
        {"T": 100, "d": 10, "G_inf": 1.0}, {"T": 1e4, "d": 1000, "G_inf": 0.5, "F1": 5.0},
        {"T": 1e4, "d": 1000, "G_inf": 0.5, "F1": 5.0, "as_printed": True},
        {"T": 3, "d": 1, "G_inf": 2.0}]),
    "kfe.cor3.1": (kfe_cor31, [
        {"T": 100, "d": 2, "F1": 1.0, "G_inf": 1.0, "delta": 0.5},
        {"T": 1e4, "d": 1000, "F1": 5.0, "G_inf": 0.5, "delta": 0.05},
        {"T": 2e6, "d": 47236, "F1": 0.3, "G_inf": 2.0, "delta": 1e-6}]),
    "kfe.cor3.1.limsup": (kfe_cor31_limsup, [
        {"T": 100, "d": 2, "F1": 1.0, "G_inf": 1.0}, {"T": 1e4, "d": 1000, "F1": 5.0, "G_inf": 0.5},
        {"T": 2e6, "d": 47236, "F1": 0.3, "G_inf": 2.0}]),
    "kfe.cor4.1": (kfe_cor41, [
        {"T": 100, "d": 2, "F1": 1.0, "G_inf": 1.0, "delta": 0.5},
        {"T": 1e4, "d": 1000, "F1": 5.0, "G_inf": 0.5, "delta": 0.05},
        {"T": 2e6, "d": 47236, "F1": 0.3, "G_inf": 2.0, "delta": 1e-6}]),
    "kfe.lemma5.1": (kfe_lemma51, [
        {"B": 4.0, "T": 100, "delta": 0.05}, {"B": 0.0, "T": 10, "delta": 0.5},
        {"B": 12.5, "T": 1, "delta": 1e-12}, {"B": 1.0, "T": 1e6, "delta": 0.999}]),
    "kfe.lemma5.2": (kfe_lemma52, [
        {"eta": 0.1, "T": 100, "F2": 1.0, "G2": 1.0}, {"eta": 2e-3, "T": 1e4, "F2": 3.0, "G2": 0.5},
        {"eta": 5.0, "T": 1, "F2": 0.2, "G2": 7.0}]),
    "kfe.lemma5.3": (kfe_lemma53, [
        {"eta": 0.125, "T": 100, "d": 10, "F1": 1.0, "G_inf": 1.0},
        {"eta": 1e-3, "T": 1e4, "d": 1000, "F1": 5.0, "G_inf": 0.5},
        {"eta": 0.01, "T": 7, "d": 1, "F1": 2.0, "G_inf": 3.0}]),
    "kfe.lemma5.3.eta": (kfe_max_step, [{"G_inf": 1.0}, {"G_inf": 0.5}, {"G_inf": 1e-3}, {"G_inf": 37.0}]),
    # ---------------------------------------------------------------- Duchi et al. (2008)
    "dssc.lemma1": (dssc_lemma1, [
        _proj_pt(_V1, 1.0), _proj_pt(_V1, 3.0), _proj_pt(_V2, 2.0), _proj_pt([3.0, 1.0, 2.0], 10.0),
        {"v": np.array([3.0, 1.0, 2.0]), "w": np.array([0.0, 0.5, 0.5])},    # broken by both j
        {"v": np.array([3.0, 1.0, 2.0]), "w": np.array([0.0, 0.0, -0.7])},   # broken by j = 2, |w_j|
        {"v": np.array([3.0, 1.0, 2.0]), "w": np.array([0.2, 0.0, 0.8])},    # w_s = 0 at the smallest v_s
        {"v": np.array([1.0, 1.0]), "w": np.array([0.0, 1.0])}]),             # tie: v_s > v_j fails
    "dssc.lemma2": (dssc_rho, [
        {"v": _V1, "z": 1.0}, {"v": _V1, "z": 3.0}, {"v": _V1, "z": 100.0}, {"v": _V2, "z": 0.5},
        {"v": _V2, "z": 2.0}, {"v": np.array([2.0, 1.0, 0.0]), "z": 1.0}, {"v": np.array([5.0]), "z": 2.0},
        {"v": -np.abs(_V1), "z": 1e-3}]),
    "dssc.lemma2.theta": (dssc_theta, [
        {"v": _V1, "z": 1.0}, {"v": _V1, "z": 3.0}, {"v": _V1, "z": 100.0}, {"v": _V2, "z": 0.5},
        {"v": _V2, "z": 2.0}, {"v": np.array([2.0, 1.0, 0.0]), "z": 1.0}, {"v": np.array([5.0]), "z": 2.0},
        {"v": -np.abs(_V1), "z": 1e-3}]),
    "dssc.eq9": (dssc_eq9, [
        {"v": np.abs(_V1), "z": 1.0}, {"v": np.abs(_V1), "z": 3.0}, {"v": np.abs(_V2), "z": 0.5},
        {"v": np.abs(_V2), "z": float(np.abs(_V2).sum())}, {"v": np.array([2.0, 1.0, 1.0, 0.0]), "z": 1.0},
        {"v": np.array([5.0]), "z": 2.0}, {"v": np.array([0.75, 0.75, 0.75, 0.25]), "z": 0.5}]),
    "dssc.eq10": (dssc_eq10, [
        {"v": np.abs(_V1), "z": 1.0}, {"v": np.abs(_V1), "z": 3.0}, {"v": np.abs(_V2), "z": 0.5},
        {"v": np.abs(_V2), "z": float(np.abs(_V2).sum())}, {"v": np.array([2.0, 1.0, 1.0, 0.0]), "z": 1.0},
        {"v": np.array([5.0]), "z": 2.0}, {"v": np.array([0.75, 0.75, 0.75, 0.25]), "z": 0.5}]),
    "dssc.eq11": (dssc_eq11, [
        {"v": np.abs(_V2), "z": 0.5, "value": float(x)} for x in (2.0, 1.5, 0.75, 0.5, 0.25, 0.125)] + [
        {"v": np.abs(_V2), "z": 0.5, "value": 1.875}, {"v": np.abs(_V2), "z": 0.5, "value": 1.625},
        {"v": np.abs(_V2), "z": 0.5, "value": 3.0}, {"v": np.abs(_V2), "z": 0.5, "value": -1.0},
        {"v": np.array([2.0, 1.0, 1.0, 0.0]), "z": 1.0, "value": 1.0},
        {"v": np.array([2.0, 1.0, 1.0, 0.0]), "z": 1.0, "value": 1.5}]),
    "dssc.lemma3": (dssc_lemma3, [
        {"v": _V1, "w": np.asarray(_ball_projection(list(_V1), 1.0))},
        {"v": _V2, "w": np.asarray(_ball_projection(list(_V2), 100.0))},
        {"v": np.array([1.0, -2.0, 0.0, 3.0]), "w": np.array([-0.5, -1.0, 0.4, 2.0])},
        {"v": np.array([1.0, -2.0, 3.0]), "w": np.array([-0.5, 1.5, -0.1])}]),
}


# =============================================================================================== tests
def _compare(key, got, want, rtol, atol):
    if isinstance(want, (list, tuple)) or isinstance(got, np.ndarray):
        got_a = np.asarray(got, dtype=float)
        want_a = np.asarray(want, dtype=float)
        assert got_a.shape == want_a.shape, (key, got_a.shape, want_a.shape)
        for g, w in zip(got_a.ravel(), want_a.ravel()):
            _compare(key, float(g), float(w), rtol, atol)
        return
    if isinstance(want, int) and not isinstance(want, bool):
        assert isinstance(got, (int, np.integer)) and got == want, (key, got, want)
        return
    if math.isinf(want) or want == 0:
        assert got == want or abs(got - want) <= atol, (key, got, want)
        return
    assert math.isclose(got, want, rel_tol=rtol, abs_tol=atol), (key, got, want, abs(got - want) / abs(want))


def test_scope_is_covered():
    scope = {e.key for e in registry.REGISTRY if e.source in SOURCES}
    assert len(scope) == 42
    assert scope == set(FORMULAS)


@pytest.mark.parametrize("key", sorted(FORMULAS))
def test_entry_matches_independent_formula(key):
    entry = registry.get(key)
    f, points = FORMULAS[key]
    assert len(points) >= 3
    rtol, atol = TOL.get(key, (RTOL, 0.0))
    for kw in points:
        got, want = entry.function(**kw), f(**kw)
        _compare(key, got, want, rtol, atol)


# ------------------------------------------------------------------ the statements' own claims
def test_harmonic_statement_bound():
    # zhu.lemma1.harmonic: H_T <= 1 + ln T (equality at T = 1), and ln T < H_T
    f = registry.get("zhu.lemma1.harmonic").function
    for T in (1, 2, 3, 10, 1000):
        assert math.log(T) < f(T) <= 1 + math.log(T) + 1e-15


def test_corollary1_constant_of_the_note():
    # zhu.corollary1: C log T / sigma with C = L^2 bounds L^2 H_T/(2 sigma) for T >= 3; at T = 1 nothing does
    f = registry.get("zhu.corollary1").function
    for T in (3, 4, 10, 1000, 10 ** 6):
        assert f(T, 0.1, 2.0) <= 2.0 ** 2 * math.log(T) / 0.1
    assert f(1, 0.1, 2.0) > 0 == math.log(1)


def test_theorem2_sigma_minimizes_the_decomposition():
    # zhu.theorem2.sigma is the argmin of (20) and zhu.theorem2.error its minimum (with the factor 2)
    dec = registry.get("zhu.theorem2.decomposition").function
    sig = registry.get("zhu.theorem2.sigma").function
    err = registry.get("zhu.theorem2.error").function
    kw = {"T": 300, "m": 5000, "delta": 0.1, "w0_norm_p": 1.7, "p": 1.6}
    s = sig(**kw)
    v = dec(sigma=s, **kw)
    assert math.isclose(v, err(**kw), rel_tol=1e-12)
    for f in (0.9, 0.99, 1.01, 1.1):
        assert dec(sigma=s * f, **kw) > v


def test_theorem2_iterations_reach_the_error():
    # zhu.theorem2: at the returned T, (21) equals eps; more data, fewer iterations
    it = registry.get("zhu.theorem2").function
    err = registry.get("zhu.theorem2.error").function
    kw = {"delta": 0.1, "w0_norm_p": 2.0, "p": 1.8}
    T = it(eps=0.3, m=4000, **kw)
    assert math.isclose(err(T=T, m=4000, **kw), 0.3, rel_tol=1e-12)
    assert it(eps=0.3, m=8000, **kw) < T


def test_theorem1_iterations_is_the_smallest():
    # zhu.theorem1.iterations: the bound holds at T and fails at T - 1 (expected-value form (17))
    f = registry.get("zhu.theorem1.iterations").function
    T = f(0.01, 0.2, 1.0)
    assert T > 1
    assert 1.0 * float(_H(T)) / (2 * 0.2 * T) <= 0.01 < float(_H(T - 1)) / (2 * 0.2 * (T - 1))


def test_smg_theorem_needs_T_at_least_16_log_d():
    f = registry.get("kfe.theorem2.3").function
    with pytest.raises(ValueError):
        f(T=16 * math.log(1000) - 1, d=1000, F1=1.0, G_inf=1.0)


def test_smg_step_keeps_the_iterates_in_the_simplex():
    # kfe.lemma5.3.eta: with eta = 1/(8 G), every factor 1 - eta g_i + eta Z of update (3) is >= 3/4
    rng = np.random.default_rng(7)
    for G in (0.5, 1.0, 20.0):
        eta = registry.get("kfe.lemma5.3.eta").function(G)
        for _ in range(20):
            w = rng.dirichlet(np.ones(6)) * 3.0
            g = rng.uniform(-G, G, size=6)
            g[rng.integers(6)] = G * rng.choice([-1, 1])
            factors = 1 - eta * g + eta * (w @ g) / 3.0
            assert factors.min() >= 0.75 - 1e-15


def test_smg_and_sg_steps_minimize_their_lemmas():
    # kfe.theorem2.3.eta (corrected) minimizes Lemma 5.3's bound, whose minimum is Theorem 2.3's noiseless
    # 4 F1 G sqrt(log d/T), for every F1; T >= 16 log d keeps it <= 1/(8 G); the printed step does not give the
    # stated regret for F1 != 1.  kfe.theorem2.1.eta minimizes Lemma 5.2's bound, giving 2 F2 G2 sqrt(1/T).
    eta = registry.get("kfe.theorem2.3.eta").function
    l53 = registry.get("kfe.lemma5.3").function
    reg = registry.get("kfe.theorem2.3").function
    for T, d, F1, G in ((100, 10, 1.0, 1.0), (1e4, 1000, 5.0, 0.5), (16 * math.log(500), 500, 0.2, 3.0)):
        e = eta(T, d, G, F1=F1)
        assert e <= 1 / (8 * G) * (1 + 1e-12)
        assert math.isclose(l53(e, T, d, F1, G), reg(T, d, F1, G), rel_tol=1e-12)
        for f in (0.95, 1.05):
            if e * f <= 1 / (8 * G):  # at T = 16 log d the step is the largest Lemma 5.3 allows
                assert l53(e * f, T, d, F1, G) > l53(e, T, d, F1, G)
    assert l53(eta(1e4, 1000, 0.5, F1=5.0, as_printed=True), 1e4, 1000, 5.0, 0.5) > 1.5 * reg(1e4, 1000, 5.0, 0.5)
    sg_eta = registry.get("kfe.theorem2.1.eta").function
    l52 = registry.get("kfe.lemma5.2").function
    sg = registry.get("kfe.theorem2.1").function
    for T, F2, G2 in ((1, 1.0, 1.0), (1e4, 3.0, 0.5), (7, 0.2, 7.0)):
        assert math.isclose(l52(sg_eta(T, F2, G2), T, F2, G2), sg(T, F2, G2), rel_tol=1e-12)


def test_corollary2_gradient_is_corollary3_rescaled_by_the_p_norm():
    # zhu.corollary2.gradient's note: outside the ball, (28) is B w/||w||_p with w Corollary 3's gradient
    # (Figure 2 line 6 with the p-norm), not B w/||w||_q as printed
    c2 = registry.get("zhu.corollary2.gradient").function
    for theta, p, B in ((4 * _THETA, 1.2, 1.0), (_THETA, 1.5, 0.5), (_THETA, 1.8, 0.3)):
        w = np.array(zhu_cor3_grad(theta, p))
        assert _norm(w, p) > B
        np.testing.assert_allclose(c2(theta, p, B), B * w / _norm(w, p), rtol=1e-12)
        assert not np.allclose(c2(theta, p, B), B * w / _norm(w, _dual(p)), rtol=1e-3)


def test_lemma2_support_size_is_the_support_of_the_projection():
    # dssc.lemma2/.theta: rho is the number of positive entries of the projection, theta its threshold
    # (projection found from its defining property, without Lemma 2)
    rho = registry.get("dssc.lemma2").function
    th = registry.get("dssc.lemma2.theta").function
    for v, z in ((_V1, 1.0), (_V1, 3.0), (_V1, 100.0), (_V2, 0.5), (_V2, 2.0), (-np.abs(_V1), 1e-3)):
        theta, w = _simplex_projection(v, z)
        assert rho(v, z) == sum(1 for x in w if x > 0)
        assert math.isclose(th(v, z), float(theta), rel_tol=1e-12)
