r"""The Primal Gradient Solver (PGS), Figures 1-2 of Zhu, Chen, Zhu, Wang, Wang & Chen (2009).

PGS minimizes the empirical objective (7)

.. math::  \hat F_\sigma(w) = \frac{\sigma}{2(p-1)}\|w\|_p^2 + \frac1m\sum_{i=1}^m L(\langle w, x_i\rangle, y_i),
           \qquad p \in (1, 2],

over S = R^n or S = {||w||_p <= B}, for the hinge, logistic and (only on bounded S) least-squares losses.
It is follow-the-regularized-leader on the sigma-strongly convex functions c_t = sigma r + g_t: with
r(w) = ||w||_p^2/(2(p-1)), q = p/(p-1),

* start with w_0 = 0 and the dual accumulator lambda = 0;
* at t = 1, ..., T draw a set A_t of k distinct examples, take the sub-gradient
  lambda_t = (1/k) sum_{i in A_t} L'(<w_{t-1}, x_i>, y_i) x_i of g_t at w_{t-1}, set lambda <- lambda - lambda_t;
* w_t = grad r*(lambda/((t+1) sigma)) (Figure 2, :func:`grad_r_star`);
* output a random iterate (Theorem 1), the last one or the average.

A step never forms w.  Writing w_t = c_t phi(lambda) with phi_j(lambda) = sgn(lambda_j)|lambda_j|^(q-1) and a
scalar c_t that depends on lambda only through ||lambda||_q, a margin <w_t, x_i> costs O(nnz(x_i)); the
kernel keeps sum_j |lambda_j|^q up to date as the touched lambda_j change, so a step costs O(dk) for every p
(d: nonzeros per example).  For p = 2 this is the paper's scalar trick (10), w_t = lambda/((t+1) sigma) (times
min(1, B/||.||_2) on the ball); for p < 2 the paper's Figure 2 recomputes the norm, O(n) per step
(``exact_norm=True`` does that, e.g. to reproduce the paper's cost model, from which Section VII's advice
k ~ n/d comes; with the running sum that reason disappears).  The running sum is recomputed exactly every n
coordinate updates, and whenever cancellation, a change of scale or a 1024-fold growth is detected (O(1)
amortized); the tests find the iterates equal to the O(n) recomputation to 1e-11 relative.  The averaged
output is accumulated lazily in the same representation, so it costs O(dk) per step as well.
"""
from __future__ import annotations

import math
import time

import numpy as np
from numba import njit

from ..links import link_inverse
from ..losses import loss_deriv
from ..trace import Result, TraceRecorder, log_checkpoints
from ._checks import check_array, check_n_iter, check_positive, check_problem, solver_checked
from ._example_driver import output_events

OUTPUTS = ("random", "last", "average")
_MAX_DRAW = 1 << 20  # at most this many uniforms per kernel call (memory), the stream is the same
_EMPTY_F = np.zeros(0)


# ------------------------------------------------------------------------------------------- the mathematics
def _check_p(p):
    p = float(p)
    if not (1.0 < p <= 2.0):
        raise ValueError(f"p must lie in (1, 2]: r(w) = ||w||_p^2/(2(p-1)) is strongly convex w.r.t. ||.||_p only "
                         f"there (Example 1), got p = {p}")
    return p


def _check_B(B):
    return None if B is None else check_positive(B, "the radius B of S = {||w||_p <= B}")


def _norm(v, r):
    """||v||_r computed with the maximum factored out (no overflow for large r)."""
    M = float(np.max(np.abs(v))) if v.size else 0.0
    if M == 0.0:
        return 0.0
    return M * float(np.sum((np.abs(v) / M) ** r)) ** (1.0 / r)


@solver_checked()
def regularizer_value(w, p):
    """r(w) = ||w||_p^2/(2(p-1)), eq. (3) of Zhu et al. (2009)."""
    p = _check_p(p)
    return _norm(check_array(w, "w"), p) ** 2 / (2.0 * (p - 1.0))


@solver_checked()
def pgs_objective(problem, w, sigma, p=2.0):
    r"""The empirical objective (7): :math:`\hat F_\sigma(w) = \sigma\|w\|_p^2/(2(p-1)) + C(w)` with
    C(w) = (1/m) sum_i L(<w, x_i>, y_i) the problem's mean loss (the problem's lam is not used)."""
    check_problem(problem)
    sigma = check_positive(sigma, "sigma")
    w = check_array(w, "w", shape=(problem.d,), like="the problem's d")
    return sigma * regularizer_value(w, p) + problem.smooth(w)


@solver_checked()
def grad_r_star(theta, p, B=None, printed_rescaling=False):
    r"""Figure 2 of Zhu et al. (2009): :math:`\nabla r^*(\theta)` for :math:`r(w) = \|w\|_p^2/(2(p-1))`.

    * S = R^n (Corollary 3, Figure 2 line 3):
      :math:`(\nabla r^*(\theta))_i = \frac{1}{q-1}\|\theta\|_q^{2-q}|\theta_i|^{q-1}\mathrm{sgn}\,\theta_i`,
      i.e. (p - 1) times the inverse p-norm link of :func:`l1lab.links.link_inverse` with exponent q.
    * S = {||w||_p <= B} (Corollary 2, eq. (28)): the same vector, rescaled to the sphere when it leaves S,
      :math:`w \leftarrow B\,w/\|w\|_p`.

    **Erratum.**  Line 6 of Figure 2 prints :math:`w_t \leftarrow \frac{B}{\|w_t\|_q} w_t`.  Corollary 2's
    gradient has p-norm :math:`\min\{B, (p-1)\|\theta\|_q\}` and equals Corollary 3's (whose p-norm is
    (p-1)||theta||_q) below the radius, so the rescaling divides by the p-norm.  For p < 2 the printed
    q-norm (q > 2, ||w||_q <= ||w||_p) leaves the result outside S, with p-norm B ||w||_p/||w||_q > B; it is
    also not the argmax of <w, theta> - r(w) over S.  ``printed_rescaling=True`` applies the printed line,
    for demonstration only (the tests check both facts numerically).
    """
    p = _check_p(p)
    B = _check_B(B)
    theta = check_array(theta, "theta")
    q = p / (p - 1.0)
    w = link_inverse(theta, q) * (p - 1.0)  # link_inverse checks finiteness
    if B is not None:
        if _norm(w, p) > B:
            w = w * (B / _norm(w, q if printed_rescaling else p))
    return w


# ------------------------------------------------------------------------------------------- kernels
@njit(cache=True)
def _floyd_batches(U, m, stamp, tag0, out):
    """Row s of ``out``: k = U.shape[1] distinct indices in [0, m), uniformly (Floyd's algorithm), from the
    uniforms U[s]; ``stamp`` (length m) marks membership with the tag tag0 + s (no clearing needed)."""
    n_steps, k = U.shape
    for s in range(n_steps):
        tag = tag0 + s
        for b in range(k):
            jj = m - k + b
            r = np.int64(U[s, b] * (jj + 1))
            if r > jj:
                r = jj
            if stamp[r] == tag:
                r = jj
            stamp[r] = tag
            out[s, b] = r


@njit(cache=True, inline="always")
def _phi(lam_j, inv_M, euclid, qm1):
    """phi_j = sgn(lambda_j) (|lambda_j|/M)^(q-1)."""
    if lam_j == 0.0:
        return 0.0
    u = abs(lam_j) * inv_M
    v = u if euclid else u ** qm1
    return v if lam_j > 0.0 else -v


@njit(cache=True, inline="always")
def _term(lam_j, inv_M, euclid, q):
    """(|lambda_j|/M)^q."""
    u = abs(lam_j) * inv_M
    return u * u if euclid else u ** q


@njit(cache=True)
def _scale_c(S, M, t, sigma, p, B):
    """c_t with w_t = c_t phi(lambda): (p-1) M S^((p-2)/p)/tau, tau = (t+1) sigma, times the rescaling
    min(1, B tau/((p-1) ||lambda||_q)) on S = {||w||_p <= B} (B <= 0 means S = R^n)."""
    if S <= 0.0 or M <= 0.0:
        return 0.0
    tau = (t + 1.0) * sigma
    c = (p - 1.0) * M * math.exp((p - 2.0) / p * math.log(S)) / tau
    if B > 0.0:
        norm_w = (p - 1.0) * M * math.exp((p - 1.0) / p * math.log(S)) / tau  # ||w_unconstrained||_p
        if norm_w > B:
            c *= B / norm_w
    return c


@njit(cache=True)
def _form_last(lam, c, M, euclid, qm1, out):
    inv_M = 1.0 / M if M > 0.0 else 0.0
    for j in range(lam.shape[0]):
        out[j] = c * _phi(lam[j], inv_M, euclid, qm1)


@njit(cache=True)
def _form_sum(lam, wsum, mark, csum, M, euclid, qm1, out):
    """sum_{r<T} w_r = wsum_j + phi_j (Csum - mark_j) (see :func:`_pgs_chunk`)."""
    inv_M = 1.0 / M if M > 0.0 else 0.0
    for j in range(lam.shape[0]):
        out[j] = wsum[j] + _phi(lam[j], inv_M, euclid, qm1) * (csum - mark[j])


@njit(cache=True)
def _pgs_chunk(code, indptr, indices, data, y, batches, lam, st, wsum, mark, g, p, q, sigma, B, euclid,
               exact_norm, n_refresh):
    """Figure 1 for the mini-batches ``batches`` (one row of k example indices per step), in place.

    st (float64 state vector): [0] t, steps done; [1] M, the scale of u = |lambda|/M; [2] S = sum_j u_j^q;
    [3] c_t; [4] Csum = sum of c_r for the averaged output (in units of the current M); [5] S_abs, the sum of
    |terms| added and removed since the last exact recompute; [6] touched coordinates since then; [7] S right
    after that recompute; [8] the number of exact recomputes.  The recompute also runs when S grows 1024-fold:
    c_t ~ S^((p-2)/p) then shrinks, and for p near 1 a large drop of c would let the lazy differences Csum - mark_j
    cancel.
    Averaged output (wsum of length n): wsum_j + phi_j(lambda_j) (Csum - mark_j) is sum_{r<t} w_r; a
    coordinate's pending contribution is flushed before lambda_j changes.  Returns the data accesses.
    """
    n = lam.shape[0]
    k = batches.shape[1]
    do_avg = wsum.shape[0] == n
    qm1 = q - 1.0
    t = st[0]
    M = st[1]
    S = st[2]
    c = st[3]
    csum = st[4]
    S_abs = st[5]
    touched = st[6]
    S_ref = st[7]
    low = 2.0 ** (-min(2.0 * q, 1000.0))
    accesses = 0
    inv_k = 1.0 / k
    for s in range(batches.shape[0]):
        inv_M = 1.0 / M if M > 0.0 else 0.0
        # sub-gradients at w_{t-1} = c phi(lambda), for the whole batch first
        for b in range(k):
            i = batches[s, b]
            a = 0.0
            if c != 0.0:
                acc = 0.0
                for kk in range(indptr[i], indptr[i + 1]):
                    acc += data[kk] * _phi(lam[indices[kk]], inv_M, euclid, qm1)
                a = c * acc
            g[b] = loss_deriv(code, a, y[i])
            accesses += np.int64(indptr[i + 1]) - np.int64(indptr[i])
        if do_avg:
            csum += c
        refresh = exact_norm or M == 0.0
        for b in range(k):
            if g[b] == 0.0:
                continue
            i = batches[s, b]
            coef = g[b] * inv_k
            for kk in range(indptr[i], indptr[i + 1]):
                j = indices[kk]
                old = lam[j]
                if do_avg:
                    wsum[j] += _phi(old, inv_M, euclid, qm1) * (csum - mark[j])
                    mark[j] = csum
                new = old - coef * data[kk]
                lam[j] = new
                if not refresh:
                    t_old = _term(old, inv_M, euclid, q)
                    t_new = _term(new, inv_M, euclid, q)
                    S += t_new - t_old
                    S_abs += t_new + t_old
                    if abs(new) * inv_M > 2.0:
                        refresh = True
                touched += 1.0
        t += 1.0
        if not refresh:
            if touched >= n_refresh or S < low or S < 1e-6 * S_abs or S > 1024.0 * S_ref:
                refresh = True
        if refresh:
            # exact recompute: flush the averaged sum in the old units, then a new scale M = max |lambda_j|
            if do_avg:
                for j in range(n):
                    wsum[j] += _phi(lam[j], inv_M, euclid, qm1) * (csum - mark[j])
                    mark[j] = 0.0
                csum = 0.0
            M = 0.0
            for j in range(n):
                if abs(lam[j]) > M:
                    M = abs(lam[j])
            S = 0.0
            if M > 0.0:
                inv_M = 1.0 / M
                for j in range(n):
                    if lam[j] != 0.0:
                        S += _term(lam[j], inv_M, euclid, q)
            S_abs = S
            S_ref = S
            touched = 0.0
            st[8] += 1.0
        c = _scale_c(S, M, t, sigma, p, B)
    st[0] = t
    st[1] = M
    st[2] = S
    st[3] = c
    st[4] = csum
    st[5] = S_abs
    st[6] = touched
    st[7] = S_ref
    return accesses


# ------------------------------------------------------------------------------------------- driver
@solver_checked()
def sample_batches(m, k, n_iter, seed=0):
    """The mini-batches A_1, ..., A_T that :func:`pgs` draws with this seed: an (n_iter, k) int64 array whose
    rows hold k distinct example indices, each row a uniform k-subset of {0, ..., m-1} (Floyd's algorithm on
    uniforms from ``numpy.random.default_rng``)."""
    m, k, n_iter = _check_mk(m, k), int(k), check_n_iter(n_iter)
    rng = _streams(seed)[0]
    out = np.empty((n_iter, k), dtype=np.int64)
    stamp = np.full(m, -1, dtype=np.int64)
    step = max(1, _MAX_DRAW // k)
    for s0 in range(0, n_iter, step):
        s1 = min(n_iter, s0 + step)
        _floyd_batches(rng.random((s1 - s0, k)), m, stamp, s0, out[s0:s1])
    return out


def _check_mk(m, k):
    m = int(m)
    if int(k) != k or not 1 <= k <= m:
        raise ValueError(f"the mini-batch size k must be an integer with 1 <= k <= m = {m}, got {k}")
    return m


def _streams(seed):
    """Two independent generators from one seed: the mini-batch stream and the output index, so the iterates
    do not depend on ``output``, ``n_checkpoints`` or ``n_iter`` (a longer run extends a shorter one)."""
    ss = np.random.SeedSequence(seed)
    a, b = ss.spawn(2)
    return np.random.default_rng(a), np.random.default_rng(b)


class _State:
    def __init__(self, problem, p, sigma, B, average, exact_norm):
        self.prob = problem
        self.p, self.q, self.sigma = p, p / (p - 1.0), sigma
        self.B = -1.0 if B is None else B
        self.euclid = p == 2.0
        self.exact_norm = bool(exact_norm)
        self.arrays = problem.csr_arrays()
        n = problem.d
        self.lam = np.zeros(n)
        self.st = np.zeros(9)
        self.wsum = np.zeros(n) if average else _EMPTY_F
        self.mark = np.zeros(n) if average else _EMPTY_F
        self.n_refresh = float(max(n, 64))

    def run(self, batches):
        g = np.empty(batches.shape[1])
        return _pgs_chunk(self.prob.loss.code, *self.arrays, self.prob.y, batches, self.lam, self.st, self.wsum,
                          self.mark, g, self.p, self.q, self.sigma, self.B, self.euclid, self.exact_norm,
                          self.n_refresh)

    def last(self):
        out = np.empty(self.prob.d)
        _form_last(self.lam, self.st[3], self.st[1], self.euclid, self.q - 1.0, out)
        return out

    def average(self, T):
        out = np.empty(self.prob.d)
        _form_sum(self.lam, self.wsum, self.mark, self.st[4], self.st[1], self.euclid, self.q - 1.0, out)
        return out / T


@solver_checked()
def pgs(problem, n_iter, sigma, p=2.0, k=1, B=None, seed=0, output="random", n_checkpoints=60, batches=None,
        monitor=None, record_objective=True, exact_norm=False):
    r"""The Primal Gradient Solver, Figure 1 of Zhu et al. (2009), with Figure 2's :math:`\nabla r^*`.

    Minimizes :math:`\hat F_\sigma(w) = \sigma\|w\|_p^2/(2(p-1)) + \frac1m\sum_i L(\langle w,x_i\rangle, y_i)`
    (eq. (7)) over S = R^n (``B=None``, Corollary 3) or S = {||w||_p <= B} (Corollary 2, with the p-norm
    rescaling: see :func:`grad_r_star` for the erratum in Figure 2).

    Parameters
    ----------
    problem : Problem with ``lam=0`` and the hinge, logistic or squared loss.  The squared loss is l1lab's
        (a - y)^2/2 (the paper's least squares is (a - y)^2: the same minimizer at twice sigma); it is not
        Lipschitz on R^n, so it needs a bounded S (Section IV; a radius that contains the optimum is
        :func:`l1lab.theory.zhu2009.least_squares_radius`).
    n_iter : T, the number of iterations (mini-batches)
    sigma : the regularization weight, > 0
    p : the norm, in (1, 2]
    k : the mini-batch size |A_t|, 1 <= k <= m; A_t is a uniformly random set of k distinct examples
    B : radius of S, or None for S = R^n
    seed : the seed of the mini-batch stream and of the random output index (two independent streams: the
        iterates do not depend on ``output``/``n_checkpoints``, and a longer run extends a shorter one)
    output : "random" (Figure 1 line 9 and Theorem 1; the default), "last" or "average".  "random" at
        checkpoint T returns w_i with i uniform on {0, ..., T-1}, drawn independently for every checkpoint:
        the points played, at which the sub-gradients are taken, as the proof of Theorem 1 needs (Figure 1
        prints {w_1, ..., w_T}).  "average" is (1/T) sum_{t<T} w_t.
    batches : optional (n_iter, k) array of example indices (distinct within a row) to use instead of the
        seeded stream (``n_iter`` must match); :func:`sample_batches` gives the seeded one
    monitor : optional callable w -> float, evaluated on the output at every checkpoint; the values are
        returned in ``info["monitor"]`` (e.g. the distance to a known optimal direction, a test accuracy)
    record_objective : record :math:`\hat F_\sigma` at the checkpoints (a pass over the data each; NaN if
        False)
    exact_norm : recompute ||lambda||_q from scratch every step, O(n) like Figure 2, instead of the running
        sum (same iterates to about 1e-10)

    Returns
    -------
    Result whose trace records, at log-spaced checkpoints T, the output's :math:`\hat F_\sigma`, its number
    of nonzeros, the data accesses (sum of nnz(x_i) over the sampled examples) and the kernel seconds.
    ``info`` holds the parameters (method "pgs", sigma, p, q, k, B, seed, n_iter, output) and the monitor.
    """
    check_problem(problem)
    if problem.lam != 0:
        raise ValueError(f"PGS minimizes sigma r(w) + C(w) with r(w) = ||w||_p^2/(2(p-1)); the l1 penalty is not "
                         f"part of it: build the Problem with lam=0 (got lam={problem.lam})")
    sigma = check_positive(sigma, "sigma")
    p = _check_p(p)
    B = _check_B(B)
    if output not in OUTPUTS:
        raise ValueError(f"output must be one of {OUTPUTS}, got {output!r}")
    if problem.loss.name == "squared" and B is None:
        raise ValueError("the least-squares loss is not Lipschitz on S = R^n, so PGS's analysis (Section IV) needs "
                         "a bounded S = {||w||_p <= B}: pass B, e.g. l1lab.theory.zhu2009.least_squares_radius("
                         "C(0), sigma, p) with C(0) = problem.smooth(zeros), which contains the optimum")
    if problem.loss.name not in ("hinge", "logistic", "squared"):
        raise ValueError(f"PGS supports the hinge, logistic and squared losses, got {problem.loss.name}")
    if batches is not None:
        batches = np.asarray(batches)
        if batches.ndim != 2 or not np.issubdtype(batches.dtype, np.integer):
            raise ValueError(f"batches must be a 2-d integer array (n_iter, k), got shape {batches.shape}, dtype "
                             f"{batches.dtype}")
        n_iter = check_n_iter(n_iter if n_iter is not None else batches.shape[0])
        if batches.shape[0] != n_iter:
            raise ValueError(f"batches has {batches.shape[0]} rows but n_iter = {n_iter}")
        k = batches.shape[1]
        _check_mk(problem.m, k)
        if batches.size and (batches.min() < 0 or batches.max() >= problem.m):
            raise ValueError(f"batches must hold example indices in [0, {problem.m})")
        srt = np.sort(batches, axis=1)
        if np.any(srt[:, 1:] == srt[:, :-1]):
            raise ValueError("every mini-batch A_t must hold k distinct examples (a row of batches repeats one)")
        batches = np.ascontiguousarray(batches, dtype=np.int64)
    else:
        n_iter = check_n_iter(n_iter)
        _check_mk(problem.m, k)
        k = int(k)
    if n_checkpoints < 2:
        raise ValueError(f"n_checkpoints must be >= 2, got {n_checkpoints}")
    if monitor is not None and not callable(monitor):
        raise TypeError("monitor must be a callable w -> float")

    rng, rng_out = _streams(seed)
    cps = log_checkpoints(n_iter, n_checkpoints)
    snaps, events, cp_index = output_events(cps, output, rng_out)

    state = _State(problem, p, sigma, B, output == "average", exact_norm)
    stamp = np.full(problem.m, -1, dtype=np.int64)
    rec = TraceRecorder()
    taken, mon = {}, []
    accesses, seconds, t = 0, 0.0, 0
    step = max(1, _MAX_DRAW // k)
    for e in events:
        e = int(e)
        while t < e:
            t1 = min(e, t + step)
            if batches is None:
                U = rng.random((t1 - t, k))
                chunk = np.empty((t1 - t, k), dtype=np.int64)
                _floyd_batches(U, problem.m, stamp, t, chunk)
            else:
                chunk = batches[t:t1]
            t0 = time.perf_counter()
            accesses += int(state.run(chunk))
            seconds += time.perf_counter() - t0
            t = t1
        if e in snaps:
            w_snap = state.last()
            for i in snaps[e]:
                taken[i] = w_snap
        if e in cp_index:
            i = cp_index[e]
            if output == "last" or e == 0:
                w_out = state.last()
            elif output == "random":
                w_out = taken[i]
            else:
                w_out = state.average(e)
            obj = pgs_objective(problem, w_out, sigma, p) if record_objective else math.nan
            rec.record(e, accesses, obj, np.count_nonzero(w_out), seconds)
            if monitor is not None:
                mon.append(float(monitor(w_out)))
    info = {"method": "pgs", "sigma": sigma, "p": p, "q": p / (p - 1.0), "k": k, "B": B, "seed": seed,
            "n_iter": n_iter, "output": output, "norm_recomputes": int(state.st[8])}
    if monitor is not None:
        info["monitor"] = np.array(mon)
    return Result(w=w_out, trace=rec.finish(), info=info)


__all__ = ["pgs", "pgs_objective", "grad_r_star", "regularizer_value", "sample_batches", "OUTPUTS"]
