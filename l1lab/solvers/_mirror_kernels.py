"""Numba kernels of the example-sampling family: SMIDAS (p-norm link + truncation), truncated gradient
(identity link + truncation, lazy), Langford et al.'s truncated gradient, and plain sub-gradient SGD.

All take the rows of X as CSR arrays (indptr, indices, data) and a pre-drawn stream of example indices,
and run one chunk of iterations in place.

Penalty weights: ``pw`` is empty for the papers' penalty lam ||w||_1, or holds one weight c_j >= 0 per
coordinate for lam sum_j c_j |w_j|: coordinate j is then truncated (or sub-gradient-shrunk) by eta lam c_j,
so a coordinate with c_j = 0, such as an intercept, takes plain gradient steps.
"""
import math

from numba import njit

from ..losses import loss_deriv


@njit(cache=True, inline="always")
def shrink(v, tau):
    """sign(v) max(0, |v| - tau), branch-free (v - v is exactly 0 when |v| <= tau): data-dependent branches
    here were the largest cost of the truncated-gradient step."""
    return v - math.copysign(min(abs(v), tau), v)


@njit(cache=True, inline="always")
def pow_pm1(u, pm1, ipm1):
    """u ** (p - 1), by repeated squaring when p - 1 is the integer ``ipm1`` >= 0 (the experiments' p =
    ceil(2 ln d)), which is several times faster than a general pow."""
    if ipm1 >= 0:
        r = 1.0
        b = u
        e = ipm1
        while e > 0:
            if e & 1:
                r *= b
            b *= b
            e >>= 1
        return r
    return u ** pm1


@njit(cache=True)
def _norm_pass(theta, active, n_active, M, p, pm1, ipm1, pw):
    """s = sum_j (|theta_j|/M)^p over the active set, storing (|theta_j|/M)^(p-1) in pw[k]."""
    inv_M = 1.0 / M
    s = 0.0
    for k in range(n_active):
        u = abs(theta[active[k]]) * inv_M
        q = pow_pm1(u, pm1, ipm1)
        pw[k] = q
        s += q * u
    return s


@njit(cache=True)
def smidas_chunk(code, indptr, indices, data, y, theta, active, pos, n_active_box, idx, eta, lam, pen, p, wsum,
                 pw):
    """Algorithm 3 for the example indices ``idx``.

    theta: the dual vector (d,), updated in place.  active[:n_active] lists the j with theta_j != 0 and
    pos[j] is j's place in it (-1 if inactive), so truncation and the link cost O(nnz(theta)), not O(d).
    w = f^{-1}(theta) is never formed: with any scale M >= max|theta_j|, u = |theta|/M and s = ||u||_p^p,
    w_j = c sign(theta_j) u_j^(p-1) with c = M s^(-(p-2)/p).  M is carried from step to step as an upper
    bound (the previous maximum, or a touched entry, minus the truncation), so truncation and the norm take a
    single pass.  If wsum has length d, the primal iterate after every step is added to it (averaged output).
    ``pen``: the penalty weights (empty: none; see the module docstring); ``pw`` is scratch space.
    """
    n_active = n_active_box[0]
    tau = eta * lam
    weighted = pen.shape[0] > 0
    tau_min = tau  # the smallest truncation: M_hi - tau_min bounds the maximum after a step
    if weighted:
        for j in range(pen.shape[0]):
            tau_min = min(tau_min, tau * pen[j])
    pm1 = p - 1.0
    ipm1 = int(pm1) if pm1 == int(pm1) and pm1 < 64 else -1
    do_avg = wsum.shape[0] == theta.shape[0]
    # M: the scale of u = |theta|/M that c refers to; M_hi: an upper bound on max|theta_j| (exact after a pass)
    M = 0.0
    for k in range(n_active):
        M = max(M, abs(theta[active[k]]))
    M_hi = M
    c = 0.0
    if M > 0.0:
        c = M * math.exp(-(p - 2.0) / p * math.log(_norm_pass(theta, active, n_active, M, p, pm1, ipm1, pw)))
    for t in range(idx.shape[0]):
        i = idx[t]
        a = 0.0
        if c > 0.0:
            inv_M = 1.0 / M
            acc = 0.0
            for k in range(indptr[i], indptr[i + 1]):
                th = theta[indices[k]]
                if th != 0.0:
                    q = pow_pm1(abs(th) * inv_M, pm1, ipm1)
                    acc += data[k] * (q if th > 0 else -q)
            a = acc * c
        g = loss_deriv(code, a, y[i])
        if g != 0.0:
            step = eta * g
            for k in range(indptr[i], indptr[i + 1]):
                j = indices[k]
                v = theta[j] - step * data[k]
                theta[j] = v
                if abs(v) > M_hi:
                    M_hi = abs(v)
                if pos[j] < 0 and v != 0.0:
                    pos[j] = n_active
                    active[n_active] = j
                    n_active += 1
        # truncation of every nonzero theta_j toward 0 by eta*lam, fused with the norm: M_hi - tau bounds the
        # new maximum, so it can serve as the scale of this pass (M_hi - tau_min with penalty weights)
        M = M_hi - tau_min
        c = 0.0
        if M <= 0.0:
            for k in range(n_active):
                j = active[k]
                theta[j] = 0.0
                pos[j] = -1
            n_active = 0
            M = M_hi = 0.0
            continue
        inv_M = 1.0 / M
        s = 0.0
        M_hi = 0.0
        k = 0
        while k < n_active:
            j = active[k]
            v = shrink(theta[j], tau * pen[j] if weighted else tau)
            theta[j] = v
            if v == 0.0:
                n_active -= 1
                last = active[n_active]
                active[k] = last
                pos[last] = k
                pos[j] = -1
                continue
            u = abs(v) * inv_M
            q = pow_pm1(u, pm1, ipm1)
            pw[k] = q
            s += q * u
            if abs(v) > M_hi:
                M_hi = abs(v)
            k += 1
        if n_active == 0:
            M = M_hi = 0.0
            continue
        if s < 1e-200:  # the bound was far above the true maximum (a touched maximum decreased): rescale
            M = M_hi
            s = _norm_pass(theta, active, n_active, M, p, pm1, ipm1, pw)
        c = M * math.exp(-(p - 2.0) / p * math.log(s))
        if do_avg:
            for k in range(n_active):
                j = active[k]
                wsum[j] += c * pw[k] if theta[j] > 0 else -c * pw[k]
    n_active_box[0] = n_active


@njit(cache=True)
def truncgrad_lazy_chunk(code, indptr, indices, data, y, w, last, step0, idx, eta, lam, pen):
    """SMIDAS-style truncated gradient (identity link) with lazy truncation: O(nnz(x_i)) per step.

    Every coordinate shrinks toward 0 by eta*lam at every step; a coordinate not in x_i is brought up to
    date only when it is next read (shrinking by k*eta*lam at once equals k shrinks by eta*lam).
    last[j] is the number of steps whose truncation w_j has received; step0 the global step count.  ``pen``:
    the penalty weights (empty: none).
    """
    tau = eta * lam
    weighted = pen.shape[0] > 0
    for t in range(idx.shape[0]):
        s = step0 + t
        i = idx[t]
        a = 0.0
        for k in range(indptr[i], indptr[i + 1]):
            j = indices[k]
            if last[j] < s:
                if w[j] != 0.0:
                    w[j] = shrink(w[j], (s - last[j]) * (tau * pen[j] if weighted else tau))
                last[j] = s
            a += data[k] * w[j]
        g = loss_deriv(code, a, y[i])
        step = eta * g
        for k in range(indptr[i], indptr[i + 1]):
            j = indices[k]
            w[j] = shrink(w[j] - step * data[k], tau * pen[j] if weighted else tau)
            last[j] = s + 1


@njit(cache=True)
def catch_up(w, last, step, tau, pen):
    """Apply the pending truncations so that w is the iterate after ``step`` steps (``pen``: penalty weights,
    empty for none)."""
    weighted = pen.shape[0] > 0
    for j in range(w.shape[0]):
        if last[j] < step:
            if w[j] != 0.0:
                w[j] = shrink(w[j], (step - last[j]) * (tau * pen[j] if weighted else tau))
            last[j] = step


@njit(cache=True)
def langford_chunk(code, indptr, indices, data, y, w, step0, idx, eta, gravity, period, threshold, wsum, pen):
    """Truncated gradient of Langford, Li & Zhang (2009): an SGD step w <- w - eta v, and every ``period``
    steps T1(w_j, period*eta*gravity, threshold) on every coordinate: w_j shrinks toward 0 by
    period*eta*gravity (clipped at 0) if |w_j| <= threshold, and is left alone otherwise.  With penalty
    weights ``pen`` (empty: none) coordinate j's gravity is gravity * c_j."""
    alpha = period * eta * gravity
    weighted = pen.shape[0] > 0
    d = w.shape[0]
    do_avg = wsum.shape[0] == d
    for t in range(idx.shape[0]):
        s = step0 + t + 1
        i = idx[t]
        a = 0.0
        for k in range(indptr[i], indptr[i + 1]):
            a += data[k] * w[indices[k]]
        step = eta * loss_deriv(code, a, y[i])
        for k in range(indptr[i], indptr[i + 1]):
            w[indices[k]] -= step * data[k]
        if s % period == 0:
            for j in range(d):
                if w[j] != 0.0 and abs(w[j]) <= threshold:
                    w[j] = shrink(w[j], alpha * pen[j] if weighted else alpha)
        if do_avg:
            for j in range(d):
                wsum[j] += w[j]


@njit(cache=True)
def sgd_chunk(code, indptr, indices, data, y, w, idx, eta, lam, wsum, pen):
    """Stochastic sub-gradient descent on P: w <- w - eta (L'(<w, x_i>, y_i) x_i + lam sign(w)), sign(0) = 0.
    The l1 sub-gradient touches every nonzero w_j, so a step costs O(d) and the iterates are dense.  With
    penalty weights ``pen`` (empty: none) the sub-gradient of coordinate j is lam c_j sign(w_j)."""
    d = w.shape[0]
    do_avg = wsum.shape[0] == d
    tau = eta * lam
    weighted = pen.shape[0] > 0
    for t in range(idx.shape[0]):
        i = idx[t]
        a = 0.0
        for k in range(indptr[i], indptr[i + 1]):
            a += data[k] * w[indices[k]]
        step = eta * loss_deriv(code, a, y[i])
        for j in range(d):
            tj = tau * pen[j] if weighted else tau
            if w[j] > 0.0:
                w[j] -= tj
            elif w[j] < 0.0:
                w[j] += tj
        for k in range(indptr[i], indptr[i + 1]):
            w[indices[k]] -= step * data[k]
        if do_avg:
            for j in range(d):
                wsum[j] += w[j]
