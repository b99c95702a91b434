"""Numba kernels of the working-set solver (:mod:`l1lab.solvers.working_set`).

One kernel serves dense and sparse data: ``sparse`` selects the column access (dense columns are the
contiguous rows of XT, sparse ones the CSC arrays; the unused storage is passed as empty arrays).  The branch
is on a loop-invariant flag, so it costs nothing measurable in the inner loops.

``inner_cd`` runs cyclic coordinate descent over the working set with coordinate curvature h_j (the exact
coordinate minimizer for the squared loss, the curvature bound ||x_j||^2/(4m) for the logistic loss),
extrapolates the iterates every K epochs (Anderson acceleration, accepted only if it lowers the objective) and
stops when the largest optimality violation over the working set is at most ``tol``.

``inner_newton`` (logistic loss) minimizes the same working-set problem by proximal Newton steps: each step
solves the quadratic model of C around w, penalty included, by a few coordinate-descent epochs (no
exponential in the inner loop: the model needs only the weights L''(z_i)), then backtracks on P.
"""
import math

import numpy as np
from numba import njit

from ..losses import SQUARED, loss_deriv, loss_second, loss_value
from ._cd_kernels import dot, sparse_dot


@njit(cache=True, inline="always")
def col_dot(sparse, XT, indptr, indices, data, j, v):
    """<x_j, v>."""
    if sparse:
        return sparse_dot(indptr, indices, data, j, v)
    return dot(XT[j], v)


@njit(cache=True, inline="always")
def col_axpy(sparse, XT, indptr, indices, data, j, a, v):
    """v += a x_j."""
    if sparse:
        for k in range(indptr[j], indptr[j + 1]):
            v[indices[k]] += a * data[k]
    else:
        xj = XT[j]
        for i in range(xj.shape[0]):
            v[i] += a * xj[i]


@njit(cache=True, inline="always")
def col_wdot(sparse, XT, indptr, indices, data, j, u, v):
    """sum_i x_ij u_i v_i."""
    s = 0.0
    if sparse:
        for k in range(indptr[j], indptr[j + 1]):
            i = indices[k]
            s += data[k] * u[i] * v[i]
    else:
        xj = XT[j]
        for i in range(xj.shape[0]):
            s += xj[i] * u[i] * v[i]
    return s


@njit(cache=True, inline="always")
def col_wsq(sparse, XT, indptr, indices, data, j, h):
    """sum_i h_i x_ij^2."""
    s = 0.0
    if sparse:
        for k in range(indptr[j], indptr[j + 1]):
            s += h[indices[k]] * data[k] * data[k]
    else:
        xj = XT[j]
        for i in range(xj.shape[0]):
            s += h[i] * xj[i] * xj[i]
    return s


@njit(cache=True, inline="always")
def soft(u, t):
    if u > t:
        return u - t
    if u < -t:
        return u + t
    return 0.0


@njit(cache=True, inline="always")
def violation(wj, gj, lj):
    """Distance of -g_j to lam_j times the subdifferential of |w_j|: 0 exactly when coordinate j is optimal."""
    if wj > 0.0:
        return abs(gj + lj)
    if wj < 0.0:
        return abs(gj - lj)
    a = abs(gj) - lj
    return a if a > 0.0 else 0.0


@njit(cache=True)
def ws_gradient(code, sparse, XT, indptr, indices, data, y, sw, z, ws, out, dz):
    """out[k] = g_{ws[k]} = <x_j, L'(z, y)>/m for the working set; ``dz`` is scratch of length m.  ``sw``: the
    sample weights over m (s_i/m, the weighted mean loss's factors), or empty for the unweighted mean."""
    m = z.shape[0]
    weighted = sw.shape[0] > 0
    for i in range(m):
        dz[i] = loss_deriv(code, z[i], y[i])
        if weighted:
            dz[i] *= sw[i]
    # one column loop for both cases (each inlined copy of col_dot adds to the compile time of every kernel that
    # calls this one): the weights are in dz, the unweighted mean's 1/m is applied after the dot products
    scale = 1.0 if weighted else 1.0 / m
    for k in range(ws.shape[0]):
        out[k] = col_dot(sparse, XT, indptr, indices, data, ws[k], dz) * scale


@njit(cache=True)
def ws_max_violation(code, sparse, XT, indptr, indices, data, y, sw, w, z, ws, lam_ws, g, dz):
    ws_gradient(code, sparse, XT, indptr, indices, data, y, sw, z, ws, g, dz)
    worst = 0.0
    for k in range(ws.shape[0]):
        v = violation(w[ws[k]], g[k], lam_ws[k])
        if v > worst:
            worst = v
    return worst


@njit(cache=True)
def ws_objective(code, y, z, w, ws, lam_ws):
    """P restricted to the working set: C(w) + sum over ws of lam_j |w_j| (w is zero off the working set)."""
    s = 0.0
    for i in range(z.shape[0]):
        s += loss_value(code, z[i], y[i])
    s /= z.shape[0]
    for k in range(ws.shape[0]):
        s += lam_ws[k] * abs(w[ws[k]])
    return s


@njit(cache=True)
def anderson_weights(W, K):
    """Anderson weights c (sum 1) from the K + 1 stored iterates W[0..K] (rows): c minimizes
    ||sum_k c_k (W[k+1] - W[k])|| subject to sum c = 1, via the K x K normal equations (U U^T) c ∝ 1.
    Returns an empty array when the system is numerically singular (then no extrapolation)."""
    n = W.shape[1]
    U = np.empty((K, n))
    for k in range(K):
        for i in range(n):
            U[k, i] = W[k + 1, i] - W[k, i]
    A = np.empty((K, K + 1))  # augmented [U U^T | 1]
    scale = 0.0
    for a in range(K):
        for b in range(a, K):
            s = 0.0
            for i in range(n):
                s += U[a, i] * U[b, i]
            A[a, b] = s
            A[b, a] = s
        A[a, K] = 1.0
        scale = max(scale, A[a, a])
    if scale == 0.0:
        return np.empty(0)
    for a in range(K):  # a small ridge: the differences are often nearly collinear
        A[a, a] += 1e-10 * scale
    for col in range(K):  # Gaussian elimination with partial pivoting
        piv = col
        for r in range(col + 1, K):
            if abs(A[r, col]) > abs(A[piv, col]):
                piv = r
        if abs(A[piv, col]) <= 1e-300:
            return np.empty(0)
        if piv != col:
            for c in range(K + 1):
                A[col, c], A[piv, c] = A[piv, c], A[col, c]
        for r in range(col + 1, K):
            f = A[r, col] / A[col, col]
            for c in range(col, K + 1):
                A[r, c] -= f * A[col, c]
    x = np.empty(K)
    for r in range(K - 1, -1, -1):
        s = A[r, K]
        for c in range(r + 1, K):
            s -= A[r, c] * x[c]
        x[r] = s / A[r, r]
    total = 0.0
    for k in range(K):
        total += x[k]
    if total == 0.0 or not math.isfinite(total):
        return np.empty(0)
    for k in range(K):
        x[k] /= total
    return x


@njit(cache=True)
def extrapolate(W, K, sparse, XT, indptr, indices, data, ws, u, v_acc, u_acc):
    """The Anderson point of the iterates stored in W[0..K] (rows over the working set; W[K] is the current one)
    into ``v_acc``, and the margins u + X_ws (v_acc - W[K]) into ``u_acc`` (one pass over the working set's
    columns).  Returns False, writing nothing, when the weights are not defined."""
    c = anderson_weights(W, K)
    if c.shape[0] != K:
        return False
    n = W.shape[1]
    for k in range(n):
        s = 0.0
        for a in range(K):
            s += c[a] * W[a + 1, k]
        v_acc[k] = s
    for i in range(u.shape[0]):
        u_acc[i] = u[i]
    for k in range(n):
        diff = v_acc[k] - W[K, k]
        if diff != 0.0:
            col_axpy(sparse, XT, indptr, indices, data, ws[k], diff, u_acc)
    return True


@njit(cache=True)
def _cd_epoch(code, sparse, XT, indptr, indices, data, y, xty, w, z, ws, lam_ws, inv_h_ws):
    inv_m = 1.0 / z.shape[0]
    for k in range(ws.shape[0]):
        j = ws[k]
        if code == SQUARED:
            g = col_dot(sparse, XT, indptr, indices, data, j, z) * inv_m - xty[j]
        else:
            g = 0.0
            if sparse:
                for q in range(indptr[j], indptr[j + 1]):
                    i = indices[q]
                    g += loss_deriv(code, z[i], y[i]) * data[q]
            else:
                xj = XT[j]
                for i in range(xj.shape[0]):
                    g += loss_deriv(code, z[i], y[i]) * xj[i]
            g *= inv_m
        ih = inv_h_ws[k]
        new = soft(w[j] - g * ih, lam_ws[k] * ih)
        delta = new - w[j]
        if delta != 0.0:
            w[j] = new
            col_axpy(sparse, XT, indptr, indices, data, j, delta, z)


@njit(cache=True)
def inner_cd(code, sparse, XT, indptr, indices, data, y, xty, w, z, ws, lam_ws, inv_h_ws, max_epochs, tol,
             K, check_every, counts):
    """Coordinate descent over the working set ``ws`` until its largest violation is at most ``tol`` or
    ``max_epochs`` epochs have run.  Anderson extrapolation every K epochs (K = 0: none).  ``counts`` receives
    (epochs run, extrapolations accepted, extrapolations tried, passes over the working set's columns: epochs,
    extrapolations tried and optimality checks)."""
    n = ws.shape[0]
    m = z.shape[0]
    g = np.empty(n)
    dz = np.empty(m)
    unweighted = np.empty(0)
    W = np.empty((K + 1, n))
    w_acc = np.empty(n)
    z_acc = np.empty(m)
    stored = 0
    epochs = 0
    accepted = 0
    tried = 0
    passes = 0
    while epochs < max_epochs:
        _cd_epoch(code, sparse, XT, indptr, indices, data, y, xty, w, z, ws, lam_ws, inv_h_ws)
        epochs += 1
        passes += 1
        if K > 0:
            for k in range(n):
                W[stored, k] = w[ws[k]]
            stored += 1
            if stored == K + 1:
                stored = 0
                if extrapolate(W, K, sparse, XT, indptr, indices, data, ws, z, w_acc, z_acc):
                    tried += 1
                    passes += 1   # X (w_acc - w) read the working set's columns once
                    p_now = ws_objective(code, y, z, w, ws, lam_ws)
                    # the objective of the extrapolated point, with w_acc in place of w on the working set
                    p_acc = 0.0
                    for i in range(m):
                        p_acc += loss_value(code, z_acc[i], y[i])
                    p_acc /= m
                    for k in range(n):
                        p_acc += lam_ws[k] * abs(w_acc[k])
                    if p_acc < p_now:
                        accepted += 1
                        for k in range(n):
                            w[ws[k]] = w_acc[k]
                        for i in range(m):
                            z[i] = z_acc[i]
        if epochs % check_every == 0 or epochs == max_epochs:
            passes += 1
            if ws_max_violation(code, sparse, XT, indptr, indices, data, y, unweighted, w, z, ws, lam_ws, g,
                                dz) <= tol:
                break
    counts[0] = epochs
    counts[1] = accepted
    counts[2] = tried
    counts[3] = passes


@njit(cache=True, inline="always")
def _model_value(gj, h, Xd, w, d, ws, lam_ws):
    """The proximal Newton model at direction d: sum_k g_k d_k + 1/2 sum_i h_i (Xd)_i^2 + sum_k lam_k |w_k + d_k|."""
    q = 0.0
    for i in range(Xd.shape[0]):
        q += h[i] * Xd[i] * Xd[i]
    q *= 0.5
    for k in range(ws.shape[0]):
        q += gj[k] * d[k] + lam_ws[k] * abs(w[ws[k]] + d[k])
    return q


@njit(cache=True)
def inner_newton(code, sparse, XT, indptr, indices, data, y, sw, w, z, ws, lam_ws, max_newton, max_cd, tol,
                 K, counts):
    """Proximal Newton over the working set (smooth losses; used for the logistic loss).

    Each step: weights h_i = L''(z_i)/m and residuals r_i = L'(z_i)/m; the direction d (on the working set)
    minimizes the model sum_j (g_j d_j) + 1/2 ||X d||_h^2 + sum_j lam_j |w_j + d_j| by up to ``max_cd``
    cyclic coordinate epochs on it (exact coordinate minimization of the model, maintaining X d); then a
    backtracking line search on P (Armijo with the model's decrease).  The model epochs are extrapolated as in
    :func:`inner_cd` (Anderson, every K epochs, kept if the model's value drops; K = 0: none): the model is a
    quadratic, where extrapolation helps most on correlated columns.  Stops when the largest violation over
    the working set is at most ``tol``.  ``counts``: (Newton steps, model epochs, line-search halvings, passes
    over the working set's columns: checks, the model's curvatures and gradient, epochs, extrapolations).
    ``sw``: s_i/m for the weighted mean loss sum_i s_i L_i/m (then h_i, r_i and P carry the weights), or empty."""
    n = ws.shape[0]
    m = z.shape[0]
    weighted = sw.shape[0] > 0
    inv_m = 1.0 / m
    h = np.empty(m)
    r = np.empty(m)
    Xd = np.empty(m)
    d = np.empty(n)
    hj = np.empty(n)
    gj = np.empty(n)
    g = np.empty(n)
    dz = np.empty(m)
    z_new = np.empty(m)
    D = np.empty((K + 1, n))
    d_acc = np.empty(n)
    Xd_acc = np.empty(m)
    steps = 0
    model_epochs = 0
    halvings = 0
    passes = 0
    while steps < max_newton:
        viol = ws_max_violation(code, sparse, XT, indptr, indices, data, y, sw, w, z, ws, lam_ws, g, dz)
        passes += 1
        if viol <= tol:
            break
        steps += 1
        for i in range(m):
            f = sw[i] if weighted else inv_m
            h[i] = loss_second(code, z[i], y[i]) * f
            r[i] = loss_deriv(code, z[i], y[i]) * f
            Xd[i] = 0.0
        for k in range(n):
            j = ws[k]
            d[k] = 0.0
            hj[k] = col_wsq(sparse, XT, indptr, indices, data, j, h)
            gj[k] = col_dot(sparse, XT, indptr, indices, data, j, r)
        passes += 2
        # coordinate descent on the model, to a tenth of the current violation (in gradient units: a step
        # times its curvature), so the model is solved more accurately as Newton closes in
        model_tol = 0.1 * viol
        stored = 0
        for _ in range(max_cd):
            biggest = 0.0
            for k in range(n):
                if hj[k] <= 0.0:
                    continue
                j = ws[k]
                # gradient of the smooth model part at d: g_j + sum_i x_ij h_i (X d)_i
                gk = gj[k] + col_wdot(sparse, XT, indptr, indices, data, j, h, Xd)
                old = w[j] + d[k]
                new = soft(old - gk / hj[k], lam_ws[k] / hj[k])
                step = new - old
                if step != 0.0:
                    d[k] += step
                    col_axpy(sparse, XT, indptr, indices, data, j, step, Xd)
                    a = abs(step) * hj[k]
                    if a > biggest:
                        biggest = a
            model_epochs += 1
            passes += 1
            if biggest <= model_tol:
                break
            if K > 0:
                for k in range(n):
                    D[stored, k] = d[k]
                stored += 1
                if stored == K + 1:
                    stored = 0
                    if extrapolate(D, K, sparse, XT, indptr, indices, data, ws, Xd, d_acc, Xd_acc):
                        passes += 1
                        if _model_value(gj, h, Xd_acc, w, d_acc, ws, lam_ws) < _model_value(gj, h, Xd, w, d, ws,
                                                                                            lam_ws):
                            for k in range(n):
                                d[k] = d_acc[k]
                            for i in range(m):
                                Xd[i] = Xd_acc[i]
        # line search on P along d: decrease predicted by the model's first-order part and the penalty
        delta = 0.0
        pen_old = 0.0
        moved = False
        for k in range(n):
            j = ws[k]
            if d[k] != 0.0:
                moved = True
            # the penalty's change coordinate by coordinate: a difference of the two sums would round away
            # the small decreases near the optimum
            delta += gj[k] * d[k] + lam_ws[k] * (abs(w[j] + d[k]) - abs(w[j]))
            pen_old += lam_ws[k] * abs(w[j])
        if not moved:
            break
        p_old = pen_old
        for i in range(m):
            p_old += loss_value(code, z[i], y[i]) * (sw[i] if weighted else inv_m)
        rounding = abs(delta) <= 1e-13 * abs(p_old)
        if not (delta < 0.0 or rounding):
            break
        t = 1.0
        ok = False
        if rounding:
            # the predicted decrease is below the rounding of P, where Armijo's test cannot see it: near the
            # optimum the full Newton step is the accurate one (its error is quadratic)
            for i in range(m):
                z_new[i] = z[i] + Xd[i]
            ok = True
        for _ in range(0 if ok else 40):
            p_new = 0.0
            for i in range(m):
                z_new[i] = z[i] + t * Xd[i]
                p_new += loss_value(code, z_new[i], y[i]) * (sw[i] if weighted else inv_m)
            for k in range(n):
                p_new += lam_ws[k] * abs(w[ws[k]] + t * d[k])
            if p_new <= p_old + 1e-4 * t * delta:
                ok = True
                break
            t *= 0.5
            halvings += 1
        if not ok:
            break
        for k in range(n):
            w[ws[k]] += t * d[k]
        for i in range(m):
            z[i] = z_new[i]
    counts[0] = steps
    counts[1] = model_epochs
    counts[2] = halvings
    counts[3] = passes


@njit(cache=True)
def column_stats(sparse, XT, indptr, indices, data, y, xty, sq):
    """xty[j] = <x_j, y>/m and sq[j] = ||x_j||^2/m, in one pass over X."""
    d = xty.shape[0]
    m = y.shape[0]
    inv_m = 1.0 / m
    for j in range(d):
        a = 0.0
        b = 0.0
        if sparse:
            for k in range(indptr[j], indptr[j + 1]):
                v = data[k]
                a += v * y[indices[k]]
                b += v * v
        else:
            xj = XT[j]
            a = dot(xj, y)
            b = dot(xj, xj)
        xty[j] = a * inv_m
        sq[j] = b * inv_m


@njit(cache=True)
def support_margins(sparse, XT, indptr, indices, data, w, support, z):
    """z = X w computed from the columns of the support only (w is zero elsewhere): O(nnz of the support)."""
    for i in range(z.shape[0]):
        z[i] = 0.0
    for k in range(support.shape[0]):
        j = support[k]
        col_axpy(sparse, XT, indptr, indices, data, j, w[j], z)
