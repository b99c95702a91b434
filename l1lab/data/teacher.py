r"""The sparse logistic teacher of the exponentiated-gradient chapter (Kakade, Foster & Even-Dar 2008), as a stream.

Examples :math:`x \in \{-1, +1\}^d` are uniform; the first ``p`` coordinates are relevant, and
:math:`\Pr[y = 1 \mid x] = \sigma(\langle w^\star, x\rangle)` with :math:`w^\star_j = \pm\beta` (alternating
signs) for :math:`j < p` and 0 otherwise.

**A counter-based stream.**  Example ``t`` of stream ``seed`` at dimension ``d`` is a pure function of
``(seed, d, t)``: its signs are the bits of splitmix64 hashes of the counter, and its label compares a hashed
uniform with :math:`\sigma(\langle w^\star, x\rangle)`.  So a stream needs no storage: the kernels
:func:`l1lab.solvers.streamed.smg_stream` and :func:`~l1lab.solvers.streamed.sg_l2_stream` regenerate each example
when they need it and run SMG and SG in O(d) memory, which is what lets the scaling demo reach :math:`d = 10^5`
with thousands of samples.
:func:`teacher_problem` materializes the same examples as a :class:`~l1lab.problem.Problem`, so that the
general solvers :func:`~l1lab.solvers.online.smg` and :func:`~l1lab.solvers.online.sg_l2` reproduce the
streamed runs bit for bit (``tests/test_teacher.py``).  The stream of length n is the first n examples of
any longer one, and streams for different ``p`` or ``beta`` share their examples.

**Excess risk.**  :func:`excess_risk` computes
:math:`\mathrm{risk}(w) - \mathrm{risk}(w^\star) = \mathbb{E}_x\,\mathrm{KL}(\sigma(\langle w^\star,
x\rangle)\,\|\,\sigma(\langle w, x\rangle))`.  The relevant coordinates are summed exactly over their
:math:`2^p` sign patterns.  The irrelevant part :math:`s = \sum_{j \ge p} w_j x_j` is independent of the
label; with at most :data:`EXACT_IRRELEVANT` irrelevant coordinates it is enumerated exactly, otherwise the
:data:`TOP_EXACT` largest :math:`|w_j|` are enumerated exactly and the remaining Rademacher sum, of variance
:math:`\sigma_r^2 = \sum_{\rm rest} w_j^2`, is replaced by a normal variable (trapezoid rule).
The error of that replacement is bounded by :func:`excess_risk_error_bound` (a Wasserstein bound and a
Lindeberg fourth-moment bound); for the weights the demos produce it is below :math:`10^{-3}`.
"""
from __future__ import annotations

import math

import numpy as np
import scipy.sparse as sp
from numba import njit

from .._validate import check_array, check_count, check_positive
from ..problem import Problem

__all__ = ["EXACT_IRRELEVANT", "MAX_P", "TOP_EXACT", "excess_risk", "excess_risk_error_bound", "excess_risk_rows",
           "stream_labels", "teacher_problem", "teacher_weights"]

MAX_P = 8
#: up to this many irrelevant coordinates, excess_risk enumerates all their sign patterns (exact)
EXACT_IRRELEVANT = 12
#: beyond that, the TOP_EXACT largest irrelevant weights are enumerated and the rest is a normal variable
TOP_EXACT = 8
#: the normal part is integrated by the trapezoid rule on u in [-U_MAX, U_MAX] (Z = u) with step
#: min(0.5, NORMAL_STEP / sigma_r): the integrand is analytic in the strip |Im u| < pi / sigma_r (softplus has
#: its poles at +-i pi), so the error is of order exp(-2 pi^2 / (sigma_r h)) = exp(-2 pi^2 / NORMAL_STEP) < 1e-12
U_MAX = 10.0
NORMAL_STEP = 0.6

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_LABEL = np.uint64(0xD1B54A32D192ED03)
_S30, _S27, _S31, _S11, _S6 = (np.uint64(k) for k in (30, 27, 31, 11, 6))
_ONE = np.uint64(1)
_MASK6 = np.uint64(63)


def check_teacher(d, p, beta):
    """(d, p, beta) checked: d a positive integer, p an integer in [1, min(d, MAX_P)], beta a finite number > 0."""
    d = check_count(d, "d", minimum=1)
    p = check_count(p, "p", minimum=1)
    if p > min(d, MAX_P):  # the relevant coordinates: at most d and MAX_P
        raise ValueError(f"p must be an integer in [1, min(d, {MAX_P})] = [1, {min(d, MAX_P)}] for d = {d}, got {p}")
    return d, p, check_positive(beta, "beta")


def check_seed(seed):
    """The stream's seed: an integer in [0, 2^63) (the counter-based stream hashes it)."""
    return check_count(seed, "seed", minimum=0, maximum=2 ** 63 - 1)


def teacher_weights(d, p=2, beta=2.0) -> np.ndarray:
    """The teacher's w*: +beta, -beta, +beta, ... on the first p coordinates, 0 elsewhere."""
    d, p, beta = check_teacher(d, p, beta)
    w = np.zeros(d)
    w[:p] = beta * np.where(np.arange(p) % 2 == 0, 1.0, -1.0)
    return w


# ------------------------------------------------------------------------------------- the stream
@njit(cache=True, inline="always")
def _mix(z):
    """splitmix64's finalizer: a bijection of uint64 with good avalanche."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit(cache=True)
def _stream_key_kernel(seed, d):
    return _mix(_mix(seed + _GOLDEN) ^ d)


def stream_key(seed, d):
    # a numpy uint64 scalar, so that numba types it uint64 (a Python int would become int64, and
    # int64 + uint64 arithmetic is float64 in numba)
    return np.uint64(_stream_key_kernel(np.uint64(seed), np.uint64(d)))


@njit(cache=True)
def draw_example(key, t, wstar, words):
    """Fill ``words`` with the sign bits of example t (bit j set <=> x_j = +1) and return its label."""
    kt = _mix(key + np.uint64(t) * _GOLDEN)
    for k in range(words.shape[0]):
        words[k] = _mix(kt + np.uint64(k + 1) * _GOLDEN)
    z = 0.0
    for j in range(wstar.shape[0]):
        if (words[j >> 6] >> np.uint64(j & 63)) & _ONE:
            z += wstar[j]
        else:
            z -= wstar[j]
    u = float(_mix(kt ^ _LABEL) >> _S11) * (1.0 / 9007199254740992.0)
    return 1.0 if u < 1.0 / (1.0 + math.exp(-z)) else -1.0


@njit(cache=True)
def _fill(key, n, d, wstar, cols, y):
    words = np.empty((d + 63) // 64, dtype=np.uint64)
    for t in range(n):
        y[t] = draw_example(key, t, wstar, words)
        for j in range(d):
            cols[j, t] = 1.0 if (words[j >> 6] >> np.uint64(j & 63)) & _ONE else -1.0


def teacher_problem(n, d, p=2, beta=2.0, seed=0) -> Problem:
    """The first n examples of stream ``seed`` as a Problem (logistic loss, lam = 0).

    The dense matrix is stored as CSC with every entry present (the cheapest way to hand it to the online
    solvers); it takes 12 n d bytes, so long streams at large d are better run by
    :func:`l1lab.solvers.streamed.smg_stream` and :func:`~l1lab.solvers.streamed.sg_l2_stream`, which produce the
    same iterates without storing anything."""
    n = check_count(n, "n", minimum=1)
    d, p, beta = check_teacher(d, p, beta)
    seed = check_seed(seed)
    if n < 1:
        raise ValueError(f"n must be >= 1, got {n}")
    data = np.empty(n * d)
    y = np.empty(n)
    _fill(stream_key(seed, d), n, d, teacher_weights(d, p, beta)[:p], data.reshape(d, n), y)
    X = sp.csc_matrix((data, np.tile(np.arange(n, dtype=np.int32), d),
                       np.arange(0, n * d + 1, n, dtype=np.int64)), shape=(n, d))
    X.has_sorted_indices = True
    return Problem(X, y, loss="logistic", lam=0.0)


@njit(cache=True)
def _labels(key, n, d, wstar, y):
    words = np.empty((d + 63) // 64, dtype=np.uint64)
    for t in range(n):
        y[t] = draw_example(key, t, wstar, words)


def stream_labels(n, d, p=2, beta=2.0, seed=0) -> np.ndarray:
    """The labels of the first n examples of stream ``seed`` (without storing the examples)."""
    n = check_count(n, "n", minimum=1)
    d, p, beta = check_teacher(d, p, beta)
    y = np.empty(n)
    _labels(stream_key(check_seed(seed), d), n, d, teacher_weights(d, p, beta)[:p], y)
    return y


# ------------------------------------------------------------------------------------- excess risk
def _all_signs(k):
    return np.array(np.meshgrid(*[[-1.0, 1.0]] * k, indexing="ij")).reshape(k, -1).T


def _split_irrelevant(V):
    """For each row v of V (k, m): the TOP_EXACT largest |v_j| (k, TOP_EXACT), the variance of the rest, and
    the bound of :func:`excess_risk_error_bound` on the error of its normal approximation."""
    idx = np.argpartition(-np.abs(V), TOP_EXACT - 1, axis=1)[:, :TOP_EXACT]
    top = np.take_along_axis(V, idx, axis=1)
    sq = V * V
    var = np.maximum(sq.sum(axis=1) - (top * top).sum(axis=1), 0.0)
    cube = np.maximum((sq * np.abs(V)).sum(axis=1) - (np.abs(top) ** 3).sum(axis=1), 0.0)
    quart = np.maximum((sq * sq).sum(axis=1) - (top ** 4).sum(axis=1), 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        w1 = np.where(var > 0, cube / np.where(var > 0, var, 1.0), 0.0)
    return top, var, np.minimum(w1, quart / 48.0)


def _check_W(W, p, beta):
    W = check_array(W, "W (a weight vector or a 2-d array of them, one per row)", ndim=(1, 2))
    single = W.ndim == 1
    W = np.atleast_2d(W)
    check_teacher(W.shape[1], p, beta)
    return W, single


def excess_risk_error_bound(W, p=2, beta=2.0):
    r"""An upper bound on the error of :func:`excess_risk` for every row w of ``W`` (the quadrature error
    of the normal part aside, about 1e-12): 0 when the irrelevant part is enumerated exactly, otherwise, over
    the irrelevant coordinates outside the TOP_EXACT largest ("rest"),

    .. math:: \min\Big(\frac{\sum_{\rm rest}|w_j|^3}{\sum_{\rm rest} w_j^2},\;
              \frac{1}{48}\sum_{\rm rest} w_j^4\Big).

    The risk integrand :math:`f(z) = q\log(1 + e^{-z}) + (1 - q)\log(1 + e^{z})` is 1-Lipschitz, so the error
    is at most the Wasserstein-1 distance between the Rademacher sum and the normal, bounded by the first
    term (Goldstein 2010, constant 1).  And :math:`|f^{(4)}| \le 1/8`; Rademacher and normal summands share
    their first three moments, so swapping them one at a time (Lindeberg) costs at most
    :math:`\|f^{(4)}\|_\infty (E(w_jx_j)^4 + E(w_jZ)^4)/24 = w_j^4/48` each: the second term."""
    W, single = _check_W(W, p, beta)
    V = W[:, int(p):]
    out = np.zeros(W.shape[0]) if V.shape[1] <= EXACT_IRRELEVANT else _split_irrelevant(V)[2]
    return out[0] if single else out


def normal_nodes(sigma):
    """Nodes u and weights of the trapezoid rule for E g(sigma Z), Z standard normal, accurate to about 1e-12
    for g = the risk integrand (see NORMAL_STEP); the weights sum to 1."""
    h = min(0.5, NORMAL_STEP / sigma) if sigma > 0 else 0.5
    n = int(math.ceil(U_MAX / h))
    u = np.linspace(-n * h, n * h, 2 * n + 1)
    w = np.exp(-0.5 * u * u)
    return u, w / w.sum()


def _softplus(z):
    return np.logaddexp(0.0, z)


def excess_risk(W, p=2, beta=2.0) -> np.ndarray:
    r"""risk(w) - risk(w*) of the teacher's logistic risk for every row w of ``W`` (or for a single vector):
    exact over the relevant patterns, exact over the irrelevant ones when there are at most EXACT_IRRELEVANT,
    else exact over the TOP_EXACT largest irrelevant weights and normal (trapezoid rule) over the rest,
    with the error bound :func:`excess_risk_error_bound`.  Deterministic, O(k d) for k rows."""
    W, single = _check_W(W, p, beta)
    k, d = W.shape
    p = int(p)
    pats = _all_signs(p)                       # 2^p x p
    z_star = pats @ teacher_weights(d, p, beta)[:p]
    a = pats @ W[:, :p].T                      # 2^p x k
    V = W[:, p:]
    if V.shape[1] == 0 or not V.any():
        s, ws = np.zeros((1, k)), np.ones(1)
    elif V.shape[1] <= EXACT_IRRELEVANT:
        s = _all_signs(V.shape[1]) @ V.T                   # 2^m x k
        ws = np.full(s.shape[0], 1.0 / s.shape[0])
    else:
        top, var, _ = _split_irrelevant(V)
        s_top = _all_signs(TOP_EXACT) @ top.T              # 256 x k
        x, wh = normal_nodes(float(np.sqrt(var.max())))
        s = (s_top[:, None, :] + x[None, :, None] * np.sqrt(var)[None, None, :]).reshape(-1, k)
        ws = (np.full(s_top.shape[0], 1.0 / s_top.shape[0])[:, None] * wh[None, :]).ravel()
    out = np.zeros(k)
    for r in range(pats.shape[0]):
        q = 1.0 / (1.0 + math.exp(-z_star[r]))
        z = a[r][None, :] + s
        risk_w = ws @ (q * _softplus(-z) + (1 - q) * _softplus(z))
        out += risk_w - (q * _softplus(-z_star[r]) + (1 - q) * _softplus(z_star[r]))
    out /= pats.shape[0]
    return out[0] if single else out


def excess_risk_rows(W, p=2, beta=2.0) -> np.ndarray:
    r""":func:`excess_risk` of every row of ``W`` (or of a single vector), each row as if it were
    passed alone: the same sign patterns, the same split of the irrelevant part (exact enumeration up to
    EXACT_IRRELEVANT coordinates, else the TOP_EXACT largest exactly and a normal variable on the row's own
    quadrature nodes) and the same weights.  Two things are done differently, for speed:

    * the integrand :math:`q\,\mathrm{softplus}(-z) + (1-q)\,\mathrm{softplus}(z)` is computed as
      :math:`\log(1 + e^{-|z|}) + q\max(-z, 0) + (1-q)\max(z, 0)`: one exponential and one logarithm per
      node instead of two ``logaddexp`` (which numpy does not vectorize);
    * only half of the relevant sign patterns are summed: the pattern -x_R has the margin -<w_R, x_R>, the
      probability 1 - q and, the irrelevant sum being symmetric, the same expected loss.

    Together 20 to 50 times faster, and equal to ``excess_risk(row)`` to about 1e-13 relative
    (``tests/test_teacher.py``).  The exponentiated-gradient chapter's demos evaluate thousands of decisions;
    without this it is most of their time.  Its matrix products are short: call it with one BLAS thread (more
    threads only spin)."""
    W, single = _check_W(W, p, beta)
    k, d = W.shape
    p = int(p)
    pats = _all_signs(p)                               # 2^p x p, the second half = -(the first)
    half = pats.shape[0] // 2
    if not np.array_equal(pats[half:], -pats[:half][::-1]):  # pragma: no cover - _all_signs' order
        raise RuntimeError("the sign patterns are not ordered in +- pairs")
    pats = pats[:half]
    z_star = pats @ teacher_weights(d, p, beta)[:p]
    q = 1.0 / (1.0 + np.exp(-z_star))
    f_star = q * np.logaddexp(0.0, -z_star) + (1 - q) * np.logaddexp(0.0, z_star)
    A = pats @ W[:, :p].T                                       # half x k
    V = W[:, p:]
    m = V.shape[1]
    if m > EXACT_IRRELEVANT:
        top, var, _ = _split_irrelevant(V)
        signs = _all_signs(TOP_EXACT)
        w_top = np.full(signs.shape[0], 1.0 / signs.shape[0])
    elif m > 0:
        signs = _all_signs(m)
    out = np.empty(k)
    for i in range(k):
        v = V[i]
        if m == 0 or not v.any():
            s, ws = np.zeros(1), np.ones(1)
        elif m <= EXACT_IRRELEVANT:
            s = signs @ v
            ws = np.full(s.size, 1.0 / s.size)
        else:
            sd = math.sqrt(var[i])
            x, wh = normal_nodes(sd)
            s = ((signs @ top[i])[:, None] + (x * sd)[None, :]).ravel()
            ws = (w_top[:, None] * wh[None, :]).ravel()
        total = 0.0
        for r in range(half):                                   # one pattern at a time: arrays stay in cache
            z = A[r, i] + s
            f = np.log1p(np.exp(-np.abs(z)))
            f += q[r] * np.maximum(-z, 0.0) + (1 - q[r]) * np.maximum(z, 0.0)
            total += f @ ws - f_star[r]
        out[i] = total / half
    return out[0] if single else out
