r"""SMG and SG on the sparse logistic teacher's stream (:mod:`l1lab.data.teacher`), in O(d) memory.

Example t of a stream is a pure function of ``(seed, d, t)``, so these kernels regenerate each example when they
need it and store nothing but the weights: this is what lets the scaling demo of the exponentiated-gradient
chapter reach d = 10^5 with thousands of samples.  They give the iterates of the general solvers
:func:`l1lab.solvers.online.smg` and :func:`l1lab.solvers.online.sg_l2` on
:func:`l1lab.data.teacher.teacher_problem` up to the rounding of the margins' sums (``tests/test_teacher.py``).
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from ..data.teacher import check_seed, check_teacher, draw_example, stream_key, teacher_weights
from ..losses import LOGISTIC, loss_deriv, loss_value
from ._checks import check_index_array, check_n_iter, count, positive, solver_checked

__all__ = ["sg_l2_stream", "smg_stream", "smg_stream_snapshots"]

#: row v holds x_{8i+b} = +1 if bit b of byte value v is set, else -1 (expands a byte of an example's bits)
_BYTE_SIGNS = np.array([[1.0 if (v >> b) & 1 else -1.0 for b in range(8)] for v in range(256)])
_BYTE, _FF = np.uint64(8), np.uint64(255)


@njit(cache=True)
def _expand(words, d, xs):
    """xs[j] = +1.0 if bit j of ``words`` is set, else -1.0, a byte at a time."""
    for k in range(words.shape[0]):
        w = words[k]
        for byte in range(8):
            j0 = k * 64 + byte * 8
            if j0 >= d:
                return
            row = _BYTE_SIGNS[np.int64(w & _FF)]
            w >>= _BYTE
            for u in range(min(8, d - j0)):
                xs[j0 + u] = row[u]


_NO_TAUS = np.zeros(0, dtype=np.int64)
_NO_ROWS = np.zeros((0, 0))


@njit(cache=True, fastmath=True, nogil=True)
def _smg_stream_kernel(key, d, wstar, T, eta, F1, pp, pm, wsum, taus, w_avg, w_last):
    """Update (3) with the +- split and the dummy coordinate (2d + 1 weights), as
    l1lab.solvers.online._smg_kernel: add w^t to the running sum, multiply every weight by its factor, and
    compute the next example's margin, in simple loops that vectorize (``fastmath`` reassociates the margin's
    sum: equal to the general kernel to about 1e-15 relative per step).  Returns the sum of the costs, or
    -(t + 1) if a factor of step t is <= 0.  With ``taus`` (increasing step counts, the last <= T), it also
    records after tau steps the average (1/tau) sum_{t <= tau} w^t in ``w_avg`` and the decision w^{tau+1}
    in ``w_last`` (one row per tau): with a constant step, the run of tau steps is the start of the longest."""
    words = np.empty((d + 63) // 64, dtype=np.uint64)
    xs = np.empty(d)
    init = F1 / (2 * d + 1)
    y = draw_example(key, 0, wstar, words)
    _expand(words, d, xs)
    for j in range(d):
        pp[j] = init
        pm[j] = init
    a = 0.0  # <w^1, x_1> with w^1 = pp - pm = 0
    total = 0.0
    k = 0
    for t in range(T):
        total += loss_value(LOGISTIC, a, y)
        lp = loss_deriv(LOGISTIC, a, y)
        for j in range(d):
            wsum[j] += pp[j] - pm[j]
        if lp != 0.0:
            Z = lp * a / F1
            f_up = 1.0 - eta * lp + eta * Z    # factor of w+_j when x_j = +1 and of w-_j when x_j = -1
            f_dn = 1.0 + eta * lp + eta * Z    # the other one
            if f_up <= 0.0 or f_dn <= 0.0:
                return -(t + 1.0)
            for j in range(d):
                pp[j] *= f_up if xs[j] > 0 else f_dn
            for j in range(d):
                pm[j] *= f_dn if xs[j] > 0 else f_up
        if k < taus.shape[0] and t + 1 == taus[k]:
            for j in range(d):
                w_avg[k, j] = wsum[j] / (t + 1)
                w_last[k, j] = pp[j] - pm[j]
            k += 1
        if t + 1 < T:
            y = draw_example(key, t + 1, wstar, words)
            _expand(words, d, xs)
            a = 0.0
            for j in range(d):
                a += (pp[j] - pm[j]) * xs[j]
    return total


@njit(cache=True, fastmath=True, nogil=True)
def _sg_stream_kernel(key, d, wstar, T, eta, F2, w, wsum):
    """Stochastic gradient with projection onto {||w||_2 <= F2}, as l1lab.solvers.online._sg_kernel, in
    simple loops that vectorize; the scaling of a projection is applied in the next step's first loop."""
    words = np.empty((d + 63) // 64, dtype=np.uint64)
    xs = np.empty(d)
    sq = 0.0
    scale = 1.0
    total = 0.0
    r2 = F2 * F2
    for t in range(T):
        y = draw_example(key, t, wstar, words)
        _expand(words, d, xs)
        a = 0.0
        for j in range(d):
            w[j] *= scale
            a += w[j] * xs[j]
        scale = 1.0
        total += loss_value(LOGISTIC, a, y)
        lp = loss_deriv(LOGISTIC, a, y)
        s = eta * lp
        inc = 0.0
        ex = 0.0
        for j in range(d):
            wsum[j] += w[j]
            old = w[j]
            new = old - s * xs[j]
            w[j] = new
            inc += new * new - old * old
            ex += new * new
        sq += inc
        if sq > r2:
            sq = ex
            if sq > r2:
                scale = F2 / math.sqrt(sq)
                sq = r2
    for j in range(d):
        w[j] *= scale
    return total


def _stream_args(d, p, beta, T, eta, radius, seed):
    d, p, beta = check_teacher(d, p, beta)
    T = check_n_iter(T, "T", minimum=1)
    seed = check_seed(seed)
    if T < 1:
        raise ValueError(f"T must be >= 1, got {T}")
    for name, v in (("eta", eta), ("the radius", radius)):
        if not (v > 0 and math.isfinite(v)):
            raise ValueError(f"{name} must be a finite number > 0, got {v}")
    return stream_key(seed, d), d, teacher_weights(d, p, beta)[:p], T, float(eta), float(radius)


@solver_checked(p=count(1), beta=positive())
def smg_stream(d, T, eta, F1, p=2, beta=2.0, seed=0):
    """SMG (update (3) of Kakade, Foster & Even-Dar 2008, +- split and dummy: 2d + 1 weights on the simplex
    of scale F1, started at its center) over the first T examples of stream ``seed``, in O(d) memory.

    Returns ``(w, w_avg, mean_cost)``: the last decision w^{T+1}, the average (1/T) sum_t w^t and
    (1/T) sum_t c^t(w^t).  Equal to ``smg(teacher_problem(T, d, p, beta, seed), eta, F1,
    order=np.arange(T))`` up to the rounding of the margins' sums (1e-12 relative)."""
    key, d, wstar, T, eta, F1 = _stream_args(d, p, beta, T, eta, F1, seed)
    pp, pm, wsum = np.empty(d), np.empty(d), np.zeros(d)
    total = _smg_stream_kernel(key, d, wstar, T, eta, F1, pp, pm, wsum, _NO_TAUS, _NO_ROWS, _NO_ROWS)
    if total < 0:
        raise ValueError(f"the SMG step eta={eta:g} would make a weight negative at step {int(-total)}: use "
                         f"eta <= 1/(8 G_inf) = 1/8 (Lemma 5.3)")
    return pp - pm, wsum / T, total / T


@solver_checked(p=count(1), beta=positive())
def sg_l2_stream(d, T, eta, F2, p=2, beta=2.0, seed=0):
    """SG with Euclidean projection onto {||w||_2 <= F2} from w^1 = 0 (Theorem 2.1's algorithm) over the first
    T examples of stream ``seed``, in O(d) memory.  Returns ``(w, w_avg, mean_cost)`` like :func:`smg_stream`;
    equal to ``sg_l2(teacher_problem(T, d, p, beta, seed), eta, F2, order=np.arange(T))`` up to rounding."""
    key, d, wstar, T, eta, F2 = _stream_args(d, p, beta, T, eta, F2, seed)
    w, wsum = np.zeros(d), np.zeros(d)
    total = _sg_stream_kernel(key, d, wstar, T, eta, F2, w, wsum)
    return w, wsum / T, total / T


@solver_checked(p=count(1), beta=positive())
def smg_stream_snapshots(d, taus, eta, F1, p=2, beta=2.0, seed=0):
    """SMG as :func:`smg_stream` over the first ``taus[-1]`` examples, with snapshots: for every tau of ``taus``
    (increasing step counts) the average (1/tau) sum_{t <= tau} w^t and the decision w^{tau+1}, one row per tau.
    With a constant step, the run of tau steps is the start of the longest, so one pass gives every tau.
    Returns ``(w_avg, w_last)``, each of shape (len(taus), d)."""
    taus = check_index_array(taus, "taus (step counts)")
    if taus[0] < 1 or np.any(np.diff(taus) <= 0):
        raise ValueError(f"taus must be a non-empty increasing 1-d array of step counts >= 1, got {taus!r}")
    key, d, wstar, T, eta, F1 = _stream_args(d, p, beta, int(taus[-1]), eta, F1, seed)
    pp, pm, wsum = np.empty(d), np.empty(d), np.zeros(d)
    w_avg, w_last = np.empty((taus.size, d)), np.empty((taus.size, d))
    total = _smg_stream_kernel(key, d, wstar, T, eta, F1, pp, pm, wsum, taus, w_avg, w_last)
    if total < 0:
        raise ValueError(f"the SMG step eta={eta:g} would make a weight negative at step {int(-total)}: use "
                         f"eta <= 1/(8 G_inf) = 1/8 (Lemma 5.3)")
    return w_avg, w_last
