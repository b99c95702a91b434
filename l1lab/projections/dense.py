r"""Euclidean projections onto the simplex and the l1 ball (Duchi, Shalev-Shwartz, Singer & Chandra 2008).

.. math::  \Pi_{\Delta_z}(v) = \arg\min_{w \ge 0,\ \sum_i w_i = z} \tfrac12\|w - v\|_2^2, \qquad
           \Pi_{B_z}(v) = \arg\min_{\|w\|_1 \le z} \tfrac12\|w - v\|_2^2 .

Both are thresholdings: :math:`\Pi_{\Delta_z}(v)_i = \max(v_i - \theta, 0)` with the unique theta that makes
the entries sum to z, and, when ||v||_1 > z, :math:`\Pi_{B_z}(v) = \mathrm{sign}(v)\,\Pi_{\Delta_z}(|v|)`
(Lemmas 1-3 of the paper: the support of the solution is the set of the rho largest entries, and each
entry keeps its sign).  The methods differ only in how they find theta:

* ``"sort"``  -- Figure 1: sort (numpy, O(n log n)), then one pass over the prefix sums;
* ``"pivot"`` -- Figure 2: randomized pivoting like quickselect, expected O(n), no sort;
* ``"condat"`` -- Condat (2016): one pass that keeps a running estimate of theta and a list of candidate
  entries, then a few cleaning passes; O(n) observed and the fastest known in practice.  Beyond the paper, for
  n >= 65536 it first runs on the entries above a *certified* lower bound of theta only (:func:`_prefiltered`):
  the bound is the threshold of a strided sample of 4096 entries for twice the proportional radius, certified by
  one pass (sum of max(v_i - L, 0) >= z implies theta >= L, so no entry <= L is in the support); when the
  certificate fails the method runs on all of v.

Every method returns a new array (never the input object).

**Exact across the floating-point range.**  The naive last step, w_i = v_i - theta with theta = (sum of the support
- z)/|support|, cancels when theta is large next to the result: ``project_l1_ball([1e300, -1e300, 1e300], 1)``
would give 0 where the answer is (1/3, -1/3, 1/3), because theta ~ 1e300 - 1/3 rounds to 1e300.  So each method's
threshold only serves as an *anchor* a (any float within z of the true theta, else the largest entry, which always
is): the differences d_i = v_i - a are computed once (a float subtraction is exact to its last bit), the support
and the correction c = theta - a are found from them by Michelot's fixed point (c = (sum_S d_i - z)/|S|,
S = {d_i > c}, which never moves away from the answer), and w_i = d_i - c.  Every number in that computation is
of the size of the result, so ||w||_1 = z to a few ulps whatever the size of v, of z, or of their ratio (tested
against exact rational arithmetic from 1e-300 to 1e300).  It costs one pass over v, as the previous recomputation
of theta did.

**Input types.**  v (and the weights a) are converted to float64 (float32 and integer inputs exactly, so the
result is the float64 projection of the same numbers); the result is always a new float64 array.
"""
from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import intrinsic

from .._validate import check_array, check_choice, check_count, check_real

__all__ = ["METHODS", "l1_ball_threshold", "project_l1_ball", "project_simplex", "project_weighted_l1_ball",
           "simplex_threshold"]

METHODS = ("sort", "pivot", "condat")


_UNSET = object()


def _check(v, z, name="v", method=None, seed=_UNSET):
    """v as a float64 array (1-d, non-empty, finite; integer and float32 inputs converted exactly, read-only and
    strided ones copied), z as a float >= 0, and the method and seed; errors name the argument."""
    v = check_array(v, name)
    z = check_real(z, "the radius z", low=0.0)
    if method is not None:
        check_choice(method, "method", METHODS)
    if seed is not _UNSET:
        check_count(seed, "seed")
    return v, z


#: Condat's method first discards the entries below a certified lower bound of theta when v has at least this many
#: entries (see :func:`_prefiltered`), estimated from a strided sample of about _SAMPLE entries
_PREFILTER_N = 1 << 16
_SAMPLE = 4096


# ------------------------------------------------------------------------------------- thresholds on u >= 0
def _threshold_sort(u, z):
    """Figure 1: theta for the simplex projection of u (sum(u) > z or any u)."""
    mu = np.sort(u)[::-1]
    css = np.cumsum(mu)
    k = np.arange(1, mu.size + 1)
    # mu_k > (css_k - z)/k, written so that a tiny z is not lost to rounding; the largest entry is always in
    ind = np.nonzero((mu * k - css) + z > 0)[0]
    rho = int(ind[-1]) + 1 if ind.size else 1
    return (css[rho - 1] - z) / rho


@njit(cache=True)
def _threshold_pivot(u, z, seed, absolute=False):
    """Figure 2: expected linear time.  Works on a copy (of |u| with ``absolute``), partitioned in place around
    random pivots; a pivot found above theta removes all its copies from the candidates (the paper removes one:
    the same theta, but quadratic time on tied entries)."""
    np.random.seed(seed)
    work = np.abs(u) if absolute else u.copy()
    lo, hi = 0, work.shape[0]  # the candidate set U = work[lo:hi]
    s = 0.0  # sum of the entries known to be in the support
    rho = 0  # their number
    while lo < hi:
        k = lo + np.random.randint(hi - lo)
        pivot = work[k]
        # partition U into G = {>= pivot} (moved to the front) and L = {< pivot}
        g = lo
        ds = 0.0
        for i in range(lo, hi):
            x = work[i]
            if x >= pivot:
                work[i] = work[g]
                work[g] = x
                g += 1
                ds += x
        drho = g - lo
        if (s + ds) - (rho + drho) * pivot < z:
            # every entry of G is in the support: keep them, continue with L
            s += ds
            rho += drho
            lo = g
        else:
            # theta >= pivot, so no entry equal to the pivot is in the support: continue with the entries of G
            # above it.  The paper removes the pivot k alone (U <- G minus {k}); removing every copy gives the same
            # theta and keeps the expected time linear when entries are tied (with one copy per round, n equal
            # entries would take n rounds)
            h = lo
            for i in range(lo, g):
                x = work[i]
                if x > pivot:
                    work[i] = work[h]
                    work[h] = x
                    h += 1
            hi = h
    if rho == 0:  # only when z is below rounding of the largest entry: the support is {argmax}
        return work.max() - z
    return (s - z) / rho


@njit(cache=True)
def _threshold_condat(y, a, absolute=False):
    """Condat (2016), Algorithm 'proposed': theta such that sum(max(y - theta, 0)) = a (of |y| with
    ``absolute``, read on the fly)."""
    n = y.shape[0]
    v = np.empty(n)
    vt = np.empty(n)
    nv = 1
    nvt = 0
    v[0] = abs(y[0]) if absolute else y[0]
    rho = v[0] - a
    for i in range(1, n):
        yi = abs(y[i]) if absolute else y[i]
        if yi > rho:
            rho += (yi - rho) / (nv + 1)
            if rho > yi - a:
                v[nv] = yi
                nv += 1
            else:
                for k in range(nv):
                    vt[nvt] = v[k]
                    nvt += 1
                v[0] = yi
                nv = 1
                rho = yi - a
    for k in range(nvt):
        yk = vt[k]
        if yk > rho:
            v[nv] = yk
            nv += 1
            rho += (yk - rho) / nv
    changed = True
    while changed:
        changed = False
        k = 0
        while k < nv:
            yk = v[k]
            if yk <= rho and nv > 1:  # (the largest entry always stays: rounding when a is tiny)
                nv -= 1
                v[k] = v[nv]
                rho += (rho - yk) / nv
                changed = True
            else:
                k += 1
    return rho


@njit(cache=True)
def _support_threshold_kernel(u, z, theta):
    tot = 0.0
    cnt = 0
    umax = u[0]
    for x in u:
        if x > theta:
            tot += x
            cnt += 1
        if x > umax:
            umax = x
    if cnt == 0:  # theta rounded up to max(u) (z tiny): the support is the largest entries
        for x in u:
            if x == umax:
                tot += x
                cnt += 1
    return (tot - z) / cnt


def _support_threshold(u, z, theta):
    """Recompute theta from the support {u > theta}: (sum - z)/count (the solvers' kernels use this one)."""
    return _support_threshold_kernel(u, z, theta)


@njit(cache=True)
def _fixed_point_pass(u, a, c, tol, absolute):
    """One pass of :func:`_fixed_point`: over S = {d > c}, d = u - a (|u| - a with ``absolute``), the compensated
    sum (Neumaier) as (sum, compensation), |S|, min over S, max outside S, and the number of d within tol of c."""
    s = 0.0
    comp = 0.0
    cnt = 0
    near = 0
    dmin_in = np.inf
    dmax_out = -np.inf
    for i in range(u.shape[0]):
        d = (abs(u[i]) if absolute else u[i]) - a
        near += abs(d - c) <= tol
        if d > c:
            t = s + d
            if abs(s) >= abs(d):
                comp += (s - t) + d
            else:
                comp += (d - t) + s
            s = t
            cnt += 1
            dmin_in = min(dmin_in, d)
        else:
            dmax_out = max(dmax_out, d)
    return s, comp, cnt, near, dmin_in, dmax_out


#: a pass of _fixed_point is final when its set is consistent with its c, or when the only entries on the wrong
#: side are at most _NEAR_COUNT within eps z of it (they change ||w||_1 by at most 2 eps z each)
_NEAR_COUNT = 4


@njit(cache=True)
def _fixed_point(u, a, z, absolute=False):
    """The correction c with theta = a + c exactly enough: S = {d_i > c}, c = (sum_S d_i - z)/|S|, d_i = u_i - a.

    Michelot's iteration: for any set S of the largest entries, (sum_S d - z)/|S| is at most the true c, so the
    set {d > c} that follows contains the support and shrinks to it while c increases; the first pass starts
    from S = {d > 0} (u > a) and stops at once when that set is consistent with its own c (or inconsistent only
    by a few entries within eps z of it, as when an entry lies exactly at the threshold).  The sum is compensated
    (Neumaier), so c is accurate to the size of the d_i in the support, which is that of z when ``a`` is within z
    of theta (the caller's choice).  With ``absolute`` the entries are |u_i|.  Returns (c, |S|)."""
    c = 0.0
    prev = -1
    tol = 2.220446049250313e-16 * z
    for _ in range(u.shape[0] + 3):
        s, comp, cnt, near, dmin_in, dmax_out = _fixed_point_pass(u, a, c, tol, absolute)
        if cnt == 0:  # c at or above every d: start below the answer, from S = {the largest entry}
            c = dmax_out - z
            prev = -1
            continue
        new = ((s - z) + comp) / cnt
        if cnt == prev or (dmin_in > new and dmax_out <= new) or (abs(new - c) <= tol and near <= _NEAR_COUNT):
            return new, cnt
        c = new
        prev = cnt
    return c, prev


@intrinsic
def _fma(typingctx, x, y, w):
    """x * y + w with one rounding (LLVM's fma: the instruction where the CPU has it, else an exact libm call)."""
    sig = types.float64(types.float64, types.float64, types.float64)

    def codegen(context, builder, signature, args):
        return builder.fma(*args)

    return sig, codegen


@njit(cache=True)
def _fixed_point_weighted(u, wt, a, z):
    """The weighted version of :func:`_fixed_point`: d_i = u_i - a wt_i with one rounding (fma), the support
    S = {d_i > c wt_i}, c = (sum_S wt_i d_i - z)/sum_S wt_i^2.  Returns (c, |sum_S wt_i d_i|): when that sum is
    much larger than z (the anchor a was far from theta next to z), c lost digits and the caller re-anchors."""
    n = u.shape[0]
    c = 0.0
    prev = -1
    for _ in range(n + 3):
        s = 0.0
        comp = 0.0
        q = 0.0
        cnt = 0
        rmin_in = np.inf
        rmax_out = -np.inf
        imax = 0
        for i in range(n):
            d = _fma(-a, wt[i], u[i])
            r = d / wt[i]
            if d > c * wt[i]:
                x = wt[i] * d
                t = s + x
                if abs(s) >= abs(x):
                    comp += (s - t) + x
                else:
                    comp += (x - t) + s
                s = t
                q += wt[i] * wt[i]
                cnt += 1
                rmin_in = min(rmin_in, r)
            elif r > rmax_out:
                rmax_out = r
                imax = i
        if cnt == 0:  # start below the answer, from S = {the largest ratio}
            c_try = rmax_out - z / (wt[imax] * wt[imax])
            if not c_try < rmax_out:  # z below the rounding of that ratio: re-anchor at it
                return rmax_out, np.inf
            c = c_try
            prev = -1
            continue
        new = ((s - z) + comp) / q
        if cnt == prev or (rmin_in > new and rmax_out <= new):
            return new, abs(s + comp)
        c = new
        prev = cnt
    return c, np.inf


@njit(cache=True)
def _residuals(u, wt, a):
    """u - a wt with one rounding per entry (the magnitudes left after a threshold a)."""
    out = np.empty_like(u)
    for i in range(u.shape[0]):
        out[i] = _fma(-a, wt[i], u[i])
    return out


def _anchor(theta, top, z):
    """theta if it is within z below the largest entry ``top`` (where the true threshold lies), else top."""
    return theta if top - z <= theta <= top else top


@njit(cache=True)
def _abs_total_top(v):
    """(||v||_1, max |v_i|) in one pass, without forming |v|."""
    s = 0.0
    mx = 0.0
    for i in range(v.shape[0]):
        x = abs(v[i])
        s += x
        if x > mx:
            mx = x
    return s, mx


@njit(cache=True)
def _shrink_signed_anchored(v, a, c):
    """sign(v) max((|v| - a) - c, 0), one pass, +0.0 for the zeros."""
    out = np.empty_like(v)
    for i in range(v.shape[0]):
        x = (abs(v[i]) - a) - c
        out[i] = (x if v[i] > 0 else -x) if x > 0.0 else 0.0
    return out


@njit(cache=True)
def _abs_and_sum(v):
    u = np.empty_like(v)
    s = 0.0
    for i in range(v.shape[0]):
        u[i] = abs(v[i])
        s += u[i]
    return u, s


@njit(cache=True)
def _shrink_signed(v, theta):
    """sign(v) max(|v| - theta, 0), one pass, +0.0 for the zeros."""
    out = np.empty_like(v)
    for i in range(v.shape[0]):
        a = abs(v[i]) - theta
        out[i] = (a if v[i] > 0 else -a) if a > 0.0 else 0.0
    return out


@njit(cache=True)
def _above(u, low, absolute, cap):
    """The entries of u (|u| with ``absolute``) above ``low``, in order, at most ``cap`` of them; the sum of
    (u_i - low) over all of them; and their number (above ``cap`` when they did not all fit)."""
    out = np.empty(cap)
    k = 0
    f = 0.0
    for i in range(u.shape[0]):
        x = abs(u[i]) if absolute else u[i]
        if x > low:
            if k < cap:
                out[k] = x
            k += 1
            f += x - low
    return out[:min(k, cap)], f, k


def _prefiltered(u, z, absolute=False):
    """The entries of u (|u| with ``absolute``) that can be in the support of the simplex projection of radius z,
    or None.

    L = the sort threshold of the strided sample u[::n // 4096] for the radius 2 z (sample size)/n, a guess of
    a value a little below theta; f(L) = sum max(u_i - L, 0) is computed in the pass that gathers {u_i > L}.  f
    decreases and f(theta) = z, so f(L) >= z certifies theta >= L: every entry <= L is outside the support, and the
    projection of the gathered entries has the same theta (the others add max(u_i - theta, 0) = 0 to both sums).
    The margin 1e-6 covers the rounding of f.  None when the certificate fails (the caller uses all of u).
    The gathered entries go to an array sized from the sample's count (no full-length temporary: a second one
    alive at the same time costs the page faults of fresh memory on every call), a second pass if they overflow."""
    n = u.shape[0]
    sample = u[::n // _SAMPLE]
    if absolute:
        sample = np.abs(sample)
    zs = 2.0 * z * sample.shape[0] / n
    if not sample.sum() > zs:
        return None
    low = float(_threshold_sort(sample, zs))
    cap = min(n, 2 * int(np.count_nonzero(sample > low)) * (n // sample.shape[0]) + 1024)
    kept, f, k = _above(u, low, absolute, cap)
    if not f >= z * (1.0 + 1e-6):
        return None
    if k > cap:
        kept, f, k = _above(u, low, absolute, k)
    return kept


def _threshold(u, z, method, seed, top, absolute=False):
    """(a, c): the threshold theta = a + c of the simplex projection of u (z > 0), ``top`` = max(u); the
    method's theta is the anchor a (see the module's docstring).  ``absolute`` (pivot and Condat): of |u|, read
    on the fly, without an array of magnitudes."""
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    if method == "sort":
        theta = _threshold_sort(u, z)
    elif method == "pivot":
        theta = _threshold_pivot(u, z, seed, absolute)
    else:
        kept = _prefiltered(u, z, absolute) if u.shape[0] >= _PREFILTER_N else None
        if kept is not None:  # the same theta, from the magnitudes that can be in the support
            u, absolute = kept, False
        theta = _threshold_condat(u, z, absolute)
    a = _anchor(float(theta), top, z)
    c, _ = _fixed_point(u, a, z, absolute)
    return a, float(c)


def simplex_threshold(v, z=1.0, method="condat", seed=0):
    r"""The theta of the projection onto :math:`\{w \ge 0, \sum_i w_i = z\}`: :math:`w_i = \max(v_i - \theta, 0)`.

    Figure 1 (``"sort"``), Figure 2 (``"pivot"``) of Duchi et al. (2008), or Condat (2016) (``"condat"``).
    """
    v, z = _check(v, z, method=method, seed=seed)
    seed = int(seed)
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    if z == 0:
        return float(v.max())  # the simplex of radius 0 is {0}: max(v - max v, 0) = 0
    a, c = _threshold(np.ascontiguousarray(v), z, method, seed, float(v.max()))
    return a + c


def project_simplex(v, z=1.0, method="condat", seed=0):
    r"""Euclidean projection of v onto the simplex :math:`\{w \ge 0, \sum_i w_i = z\}` (Section 3 of Duchi,
    Shalev-Shwartz, Singer & Chandra 2008); ``method`` in ``("sort", "pivot", "condat")``; ``seed`` only
    changes the pivots of ``"pivot"`` (not the result).  Always returns a new array."""
    v, z = _check(v, z, method=method, seed=seed)
    seed = int(seed)
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    if z == 0:
        return np.zeros_like(v)
    a, c = _threshold(np.ascontiguousarray(v), z, method, seed, float(v.max()))
    return np.maximum((v - a) - c, 0.0)


def _ball_theta(v, z, method, seed):
    """(a, c) with theta = a + c (0, 0 when v is inside the ball)."""
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    v = np.ascontiguousarray(v)
    total, top = _abs_total_top(v)
    if total <= z:
        return 0.0, 0.0
    if z == 0:
        return top, 0.0
    if method == "sort":
        a, c = _threshold(np.abs(v), z, method, seed, top)
    else:  # pivot and Condat read |v| on the fly: one full-length temporary fewer (fresh memory costs page faults)
        a, c = _threshold(v, z, method, seed, top, absolute=True)
    if a + c <= 0.0:   # (only when ||v||_1 exceeds z by rounding)
        return 0.0, 0.0
    return a, c


def l1_ball_threshold(v, z=1.0, method="condat", seed=0):
    r"""The theta >= 0 of the projection onto the l1 ball of radius z:
    :math:`w_i = \mathrm{sign}(v_i)\max(|v_i| - \theta, 0)`; 0 when v is inside the ball (Section 4 of Duchi
    et al. 2008)."""
    v, z = _check(v, z, method=method, seed=seed)
    a, c = _ball_theta(v, z, method, int(seed))
    return a + c


def project_l1_ball(v, z=1.0, method="condat", seed=0):
    r"""Euclidean projection of v onto :math:`\{w : \|w\|_1 \le z\}` (Section 4 of Duchi et al. 2008): v itself
    (a copy) if it is inside, else :math:`\mathrm{sign}(v)\,\Pi_{\Delta_z}(|v|)`.  Always returns a new array.

    >>> project_l1_ball(np.array([3.0, -1.0, 0.5]), z=2.0)     # theta = 1: every magnitude shrinks by 1
    array([2., 0., 0.])
    >>> project_l1_ball(np.array([0.5, -0.25]), z=1.0)          # inside the ball: unchanged
    array([ 0.5 , -0.25])
    """
    v, z = _check(v, z, method=method, seed=seed)
    a, c = _ball_theta(v, z, method, int(seed))
    if a == 0.0 and c == 0.0:
        return v.copy()
    return _shrink_signed_anchored(np.ascontiguousarray(v), a, c)


def project_weighted_l1_ball(v, a, z=1.0):
    r"""Euclidean projection onto the weighted l1 ball :math:`\{w : \sum_i a_i|w_i| \le z\}`, a_i > 0, the
    extension Duchi et al. (2008) mention and omit.

    The KKT conditions give :math:`w_i = \mathrm{sign}(v_i)\max(|v_i| - \theta a_i, 0)`: coordinates leave the
    support in decreasing order of the ratio |v_i|/a_i, and theta solves
    :math:`\sum_{i \in S} a_i(|v_i| - \theta a_i) = z`, i.e. :math:`\theta = (\sum_S a_i|v_i| - z)/\sum_S a_i^2`,
    for the largest prefix S (in that order) whose last ratio still exceeds theta.  O(n log n) (a sort).  That
    theta anchors the same cancellation-free last step as the unweighted projections (module docstring), with
    |v_i| - theta a_i rounded once (a fused multiply-add), repeated from the remainders where needed.
    """
    v, z = _check(v, z)
    a = check_array(a, "the weights a", shape=v.shape, like="v")
    if np.any(a <= 0):
        raise ValueError("the weights a must be finite and > 0")
    u = np.abs(v)
    if float(a @ u) <= z:
        return v.copy()
    if z == 0:
        return np.zeros_like(v)
    order = np.argsort(-(u / a), kind="stable")
    uo, ao = u[order], a[order]
    s1 = np.cumsum(ao * uo)
    s2 = np.cumsum(ao * ao)
    theta_k = (s1 - z) / s2
    # uo/ao > theta_k, multiplied out so that a tiny z is not lost to rounding; the first entry is always in
    ind = np.nonzero((uo * s2 - ao * s1) + ao * z > 0)[0]
    rho = int(ind[-1]) if ind.size else 0
    # that theta is the anchor of the cancellation-free last step (module docstring).  No float need lie within
    # z of theta here (the ratios |v_i|/a_i are rounded), so when the correction lost digits (the support's
    # weighted sum is far above z) the magnitudes are re-anchored, |v_i| - theta a_i with one rounding, and the
    # correction found again from them: each round gains about 15 digits.
    a = np.ascontiguousarray(a)
    r = np.ascontiguousarray(u)
    anchor = float(theta_k[rho])
    for _ in range(64):
        c, size = _fixed_point_weighted(r, a, anchor, z)
        if size <= 1024.0 * z:
            break
        r = _residuals(r, a, anchor)
        anchor = float(c)
    x = np.maximum(_residuals(r, a, anchor) - float(c) * a, 0.0)
    return np.where(v < 0, -x, x) + 0.0
