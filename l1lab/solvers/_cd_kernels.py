"""Numba kernels of the coordinate-descent family (Section 2 of Shalev-Shwartz & Tewari 2011).

Each kernel runs a chunk of iterations on plain arrays and updates ``w`` and the maintained margins
``z = Xw`` in place, so one coordinate step costs O(nnz of column j).  Dense data is passed as XT, the
C-contiguous (d, m) transpose, so that column j is the contiguous row ``XT[j]``; sparse data as the CSC
arrays (indptr, indices, data).  Coordinate indices come pre-drawn from numpy's Generator.

Penalty weights: ``pw`` is empty for the papers' penalty lam ||w||_1, or holds one weight c_j >= 0 per
coordinate for lam sum_j c_j |w_j| (the threshold of coordinate j becomes lam c_j / beta; c_j = 0 is an
unpenalized coordinate such as an intercept).

Logistic loss on dense data: the derivatives L'(z_i, y_i) are kept in an array beside z and refreshed only when
a step changes z (a step that leaves w_j where it is, the common case at a zero coordinate, computes none), by
:func:`logistic_deriv_fast`, a branch-free form that LLVM vectorizes; the gradient is then one vectorized dot.
"""
import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from ..losses import LOGISTIC, SQUARED, loss_deriv


@intrinsic
def prefetch(typingctx, arr, idx):
    """Hint the CPU to load arr[idx] into cache (llvm.prefetch; no effect on results)."""
    sig = types.void(arr, idx)

    def codegen(context, builder, signature, args):
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [args[1]], wraparound=False)
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32]),
                                            "llvm.prefetch.p0i8")
        builder.call(fn, [builder.bitcast(ptr, i8p), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def _float_bits(typingctx, x):
    """The bits of a float64 as an int64 (a bitcast: no conversion)."""
    sig = types.int64(types.float64)

    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.IntType(64))

    return sig, codegen


@intrinsic
def _bits_float(typingctx, x):
    """The float64 whose bits are the int64 x (a bitcast)."""
    sig = types.float64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.DoubleType())

    return sig, codegen


_ROUND = 6755399441055744.0          # 1.5 * 2^52: x + _ROUND rounds x (|x| < 2^51) to an integer in the low bits
_ROUND_BITS = 0x4338000000000000     # the bits of _ROUND


@njit(cache=True, inline="always")
def exp_taylor13(r):
    """e^r for |r| <= log(2)/2 by its Taylor polynomial of degree 13 (Horner; truncation below 1e-17 relative):
    the reduced argument of the vectorizable exps (:func:`logistic_deriv_fast`, ``_da_kernels._pow``)."""
    P = 1.0 / 6227020800.0
    P = P * r + 1.0 / 479001600.0
    P = P * r + 1.0 / 39916800.0
    P = P * r + 1.0 / 3628800.0
    P = P * r + 1.0 / 362880.0
    P = P * r + 1.0 / 40320.0
    P = P * r + 1.0 / 5040.0
    P = P * r + 1.0 / 720.0
    P = P * r + 1.0 / 120.0
    P = P * r + 1.0 / 24.0
    P = P * r + 1.0 / 6.0
    P = P * r + 0.5
    P = P * r + 1.0
    P = P * r + 1.0
    return P


@njit(cache=True, inline="always")
def logistic_deriv_fast(a, y):
    """L'(a, y) = -y/(1 + e^(ya)) of the logistic loss, as :func:`l1lab.losses.loss_deriv` computes it
    (-y e/(1 + e) for ya >= 0, -y/(1 + e) below, e = e^(-|ya|)), without branches and with its own exp so that
    a loop over it vectorizes (libm's exp does not): Cody-Waite reduction e^x = 2^n e^r, |r| <= log(2)/2, a
    Taylor polynomial of degree 13 for e^r (truncation below 1e-17 relative) and 2^n from its exponent bits.
    e is within a few ulps of libm's; e = 0 where |ya| > 708 (libm: e < 1e-307).  Call it from a loop compiled
    with ``error_model="numpy"`` (the division's zero test would stop the vectorizer) and without ``reassoc``
    (it would undo the rounding by _ROUND and the two-part reduction)."""
    u = y * a
    x = -abs(u)
    ok = x > -708.0
    x = x if ok else 0.0
    kd = x * 1.4426950408889634 + _ROUND
    n = kd - _ROUND
    r = (x - n * 6.93147180369123816490e-01) - n * 1.90821492927058770002e-10
    P = exp_taylor13(r)
    e = P * _bits_float((_float_bits(kd) - _ROUND_BITS + 1023) << 52)
    e = e if ok else 0.0
    num = e if u >= 0.0 else 1.0
    return -y * num / (1.0 + e)


@njit(cache=True, error_model="numpy")
def logistic_derivs(z, y, dz):
    """dz_i = L'(z_i, y_i) of the logistic loss (:func:`logistic_deriv_fast`; vectorized)."""
    for i in range(z.shape[0]):
        dz[i] = logistic_deriv_fast(z[i], y[i])


@njit(cache=True, error_model="numpy")
def _logistic_move(z, y, dz, delta, xj):
    """z += delta x_j and dz = L'(z, y) in one vectorized pass (z's arithmetic as in :func:`cd_dense`)."""
    for i in range(z.shape[0]):
        zi = z[i] + delta * xj[i]
        z[i] = zi
        dz[i] = logistic_deriv_fast(zi, y[i])


@njit(cache=True, inline="always")
def soft_step(wj, g, lam, beta):
    """s_{lam/beta}(w_j - g/beta): the coordinate update of Algorithm 1."""
    return soft_step_inv(wj, g, lam / beta, 1.0 / beta)


@njit(cache=True, inline="always")
def soft_step_inv(wj, g, thr, inv_beta):
    """s_thr(w_j - g * inv_beta), with thr = lam/beta and inv_beta = 1/beta computed once by the caller."""
    u = wj - g * inv_beta
    if u > thr:
        return u - thr
    elif u < -thr:
        return u + thr
    return 0.0


@njit(cache=True, fastmath=True)
def dot(a, b):
    """<a, b> for contiguous 1-d arrays; fastmath lets LLVM vectorize the reduction (summation order is
    the only change: tests/test_coordinate.py checks dense and sparse runs agree to 1e-12).  Not inlined at
    the numba level: an inlined body would be compiled with the caller's (strict) flags."""
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * b[i]
    return s


@njit(cache=True, inline="always")
def _grad_dense(code, xj, z, y, xty_j, inv_m):
    if code == SQUARED:
        # L'(z_i, y_i) = z_i - y_i, so g_j = <x_j, z>/m - <x_j, y>/m: one vectorized dot per step.
        return dot(xj, z) * inv_m - xty_j
    g = 0.0
    for i in range(xj.shape[0]):
        g += loss_deriv(code, z[i], y[i]) * xj[i]
    return g * inv_m


@njit(cache=True, inline="always")
def sparse_dot(indptr, indices, data, j, v):
    """(indptr: uint64.)  sum_k data[k] v[indices[k]] over column j, with four partial sums: a single running sum is
    bound by the latency of floating-point addition, four independent ones are not (fixed order: deterministic)."""
    start = indptr[j]
    end = indptr[j + 1]
    s0 = 0.0
    s1 = 0.0
    s2 = 0.0
    s3 = 0.0
    one = np.uint64(1)  # indptr is uint64: unsigned arithmetic only (uint64 + int64 would be float64)
    four = np.uint64(4)
    k = start
    while k + four <= end:
        s0 += data[k] * v[indices[k]]
        s1 += data[k + one] * v[indices[k + one]]
        s2 += data[k + one + one] * v[indices[k + one + one]]
        s3 += data[k + one + one + one] * v[indices[k + one + one + one]]
        k += four
    while k < end:
        s0 += data[k] * v[indices[k]]
        k += one
    return (s0 + s1) + (s2 + s3)


@njit(cache=True, inline="always")
def _grad_sparse(code, indptr, indices, data, j, z, y, xty_j, inv_m):
    if code == SQUARED:
        return sparse_dot(indptr, indices, data, j, z) * inv_m - xty_j
    g = 0.0
    for k in range(indptr[j], indptr[j + 1]):
        i = indices[k]
        g += loss_deriv(code, z[i], y[i]) * data[k]
    return g * inv_m


@njit(cache=True, inline="always")
def _coordinate_threshold(j, lam, pw, beta):
    """(lam_j / beta_j, 1 / beta_j) for coordinate j; beta has length 1 (shared) or d, pw length 0 or d."""
    b = beta[j] if beta.shape[0] > 1 else beta[0]
    inv_b = 1.0 / b
    if pw.shape[0] > 0:
        return lam * pw[j] * inv_b, inv_b
    return lam * inv_b, inv_b


@njit(cache=True)
def cd_dense(code, XT, y, xty, w, z, idx, lam, pw, beta):
    """Run the coordinates ``idx`` of Algorithm 2 on dense data.  ``beta`` holds one curvature bound per
    coordinate, or a single one shared by all; ``pw`` the penalty weights (empty: none).  With a shared beta
    and no weights the thresholds are computed once (the fast path of the benchmarks); a coordinate with
    beta_j <= 0 (an all-zero column, in the reference solver) is skipped."""
    inv_m = 1.0 / XT.shape[1]
    shared = beta.shape[0] == 1 and pw.shape[0] == 0
    inv_b = 1.0 / beta[0]
    thr = lam * inv_b
    n = idx.shape[0]
    logistic = code == LOGISTIC
    if logistic:  # the derivatives at z, refreshed whenever z moves (see the module docstring)
        dz = np.empty(XT.shape[1])
        logistic_derivs(z, y, dz)
    else:
        dz = np.empty(0)
    for t in range(n):
        j = idx[t]
        if t + 1 < n and idx[t + 1] != j + 1:  # fetch a non-adjacent next column early (see cd_sparse)
            prefetch(XT[idx[t + 1]], 0)
        if not shared:
            if beta.shape[0] > 1 and beta[j] <= 0.0:
                continue
            thr, inv_b = _coordinate_threshold(j, lam, pw, beta)
        xj = XT[j]
        if logistic:
            g = dot(xj, dz) * inv_m
        else:
            g = _grad_dense(code, xj, z, y, xty[j], inv_m)
        new = soft_step_inv(w[j], g, thr, inv_b)
        delta = new - w[j]
        if delta != 0.0:
            w[j] = new
            if logistic:
                _logistic_move(z, y, dz, delta, xj)
            else:
                for i in range(xj.shape[0]):
                    z[i] += delta * xj[i]


@njit(cache=True)
def cd_sparse(code, indptr, indices, data, y, xty, w, z, idx, lam, pw, beta):
    """Run the coordinates ``idx`` of Algorithm 2 on CSC data; ``pw`` and ``beta`` as in :func:`cd_dense`."""
    inv_m = 1.0 / z.shape[0]
    shared = beta.shape[0] == 1 and pw.shape[0] == 0
    inv_b = 1.0 / beta[0]
    thr = lam * inv_b
    n = idx.shape[0]
    nnz = data.shape[0]
    for t in range(n):
        j = idx[t]
        if t + 1 < n and idx[t + 1] != j + 1:
            # the coordinate stream is known in advance: start fetching the next column now, so a random
            # column order does not pay a memory round trip per column (an adjacent column, as in cyclic
            # order, is already on its way through the hardware prefetcher)
            nxt = indptr[idx[t + 1]]
            if nxt < nnz:
                prefetch(data, nxt)
                prefetch(indices, nxt)
        if not shared:
            if beta.shape[0] > 1 and beta[j] <= 0.0:
                continue
            thr, inv_b = _coordinate_threshold(j, lam, pw, beta)
        g = _grad_sparse(code, indptr, indices, data, j, z, y, xty[j], inv_m)
        new = soft_step_inv(w[j], g, thr, inv_b)
        delta = new - w[j]
        if delta != 0.0:
            w[j] = new
            for k in range(indptr[j], indptr[j + 1]):
                z[indices[k]] += delta * data[k]


@njit(cache=True, inline="always")
def _greedy_pick(grad, w, lam, pw, beta):
    # Guaranteed decrease of the coordinate step, from (9) and (10):
    #   P(w) - P(w + eta_j e_j) >= -(g_j eta_j + beta_j/2 eta_j^2 + lam_j(|w_j + eta_j| - |w_j|)),
    # lam_j = lam (lam c_j with penalty weights pw); beta_j = beta[0] when beta holds one shared bound, and a
    # coordinate with beta_j <= 0 (an empty column, with coordinate curvature) is never picked.
    best_j = 0
    best = -1.0
    weighted = pw.shape[0] > 0
    shared = beta.shape[0] == 1
    lam_j = lam
    b = beta[0]
    for j in range(grad.shape[0]):
        if weighted:
            lam_j = lam * pw[j]
        if not shared:
            b = beta[j]
            if b <= 0.0:
                continue
        eta = soft_step(w[j], grad[j], lam_j, b) - w[j]
        dec = -(grad[j] * eta + 0.5 * b * eta * eta + lam_j * (abs(w[j] + eta) - abs(w[j])))
        if dec > best:
            best = dec
            best_j = j
    return best_j


@njit(cache=True)
def gcd_dense(code, XT, y, xty, w, z, n_steps, lam, pw, beta, chosen):
    """Greedy coordinate descent: each step computes the full gradient (all of X) and updates the coordinate
    with the largest guaranteed decrease.  ``chosen`` receives the coordinates picked; ``pw`` and ``beta`` (one
    shared bound or one per coordinate) as in :func:`cd_dense`."""
    d, m = XT.shape
    inv_m = 1.0 / m
    dz = np.empty(m)
    grad = np.empty(d)
    for t in range(n_steps):
        for i in range(m):
            dz[i] = loss_deriv(code, z[i], y[i])
        for j in range(d):
            grad[j] = dot(XT[j], dz) * inv_m
        j = _greedy_pick(grad, w, lam, pw, beta)
        chosen[t] = j
        new = soft_step(w[j], grad[j], lam if pw.shape[0] == 0 else lam * pw[j],
                        beta[0] if beta.shape[0] == 1 else beta[j])
        delta = new - w[j]
        if delta != 0.0:
            w[j] = new
            xj = XT[j]
            for i in range(m):
                z[i] += delta * xj[i]


@njit(cache=True)
def gcd_sparse(code, indptr, indices, data, y, xty, w, z, n_steps, lam, pw, beta, chosen):
    """Sparse (CSC) version of :func:`gcd_dense`."""
    d = indptr.shape[0] - 1
    m = z.shape[0]
    inv_m = 1.0 / m
    dz = np.empty(m)
    grad = np.empty(d)
    for t in range(n_steps):
        for i in range(m):
            dz[i] = loss_deriv(code, z[i], y[i])
        for j in range(d):
            grad[j] = sparse_dot(indptr, indices, data, j, dz) * inv_m
        j = _greedy_pick(grad, w, lam, pw, beta)
        chosen[t] = j
        new = soft_step(w[j], grad[j], lam if pw.shape[0] == 0 else lam * pw[j],
                        beta[0] if beta.shape[0] == 1 else beta[j])
        delta = new - w[j]
        if delta != 0.0:
            w[j] = new
            for k in range(indptr[j], indptr[j + 1]):
                z[indices[k]] += delta * data[k]
