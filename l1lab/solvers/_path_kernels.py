"""Numba kernel of the squared loss's regularization path (:func:`l1lab.solvers.regularization_path`).

The whole path in one call: for each lam of a decreasing grid, warm-started at the previous solution, the outer
iterations of :func:`l1lab.solvers.working_set_cd` (margins from the support, the full gradient, the duality gap
of the rescaled residual, the working set of the worst violators) around its inner solver
(:func:`l1lab.solvers._ws_kernels.inner_cd`, coordinate descent with Anderson extrapolation).  The same steps as
the Python loop of ``working_set_cd``, without its per-iteration bookkeeping (trace records, validation), which
dominates on the small problems a cross-validation solves hundreds of times.  A separate module, so that a single
fit does not compile it.

With more rows than columns (m > d, dense X) the path can work on the Gram matrix G = X^T X / m instead, as
scikit-learn's LassoCV does (its ``precompute="auto"``): the outer iterations' gradient is G w - X^T y / m, read from
the support's rows of G (O(d |support|) instead of a pass over X), and the inner coordinate descent
(:func:`inner_cd_gram`) keeps the working set's gradient up to date, each step O(|working set|) (or a contiguous
O(d) when the working set holds more than a quarter of the columns) instead of O(m), and checks its violations every
third epoch (free here: the gradient is kept; the column version's check is a pass, made every tenth).  The outer
iterations' duality gap comes from G too (:func:`gram_gap`: no pass over X); a gap that would end a solve is
recomputed from X (:func:`exact_gap`, the column version's), so the certificate is the same.
"""
import numpy as np
from numba import njit

from ..losses import SQUARED
from ._ws_kernels import anderson_weights, col_axpy, col_dot, inner_cd, soft, violation


@njit(cache=True)
def inner_cd_gram(G, xty, w, ws, lam_ws, inv_h_ws, max_epochs, tol, K, check_every, counts):
    """:func:`l1lab.solvers._ws_kernels.inner_cd` for the squared loss on the Gram matrix G = X^T X / m (xty =
    X^T y / m): cyclic coordinate descent over the working set ``ws`` (which holds the support: w is zero off it),
    its gradient g_ws = (G w - xty)_ws kept up to date (a step of coordinate j adds its change times G[j, ws]),
    Anderson extrapolation every K epochs kept if it lowers P (the change of P computed from g and G, not as a
    difference of two values), until the largest violation over ``ws`` is at most ``tol``.  ``counts`` as
    :func:`inner_cd`'s (the last: epochs and extrapolations, which read the working set's block of G)."""
    n = ws.shape[0]
    d = G.shape[0]
    # a working set of more than a quarter of the columns keeps the whole gradient (contiguous, vectorized updates
    # along a row of G), a smaller one only its own entries (gathered): the cheaper of the two
    full = 4 * n > d
    g = np.empty(n)
    gfull = np.empty(d if full else 0)
    if full:
        for b in range(d):
            gfull[b] = -xty[b]
        for a in range(n):
            wa = w[ws[a]]
            if wa != 0.0:
                row = G[ws[a]]
                for b in range(d):
                    gfull[b] += wa * row[b]
        for a in range(n):
            g[a] = gfull[ws[a]]
    else:
        for a in range(n):
            s = -xty[ws[a]]
            for b in range(n):
                wb = w[ws[b]]
                if wb != 0.0:
                    s += G[ws[b], ws[a]] * wb
            g[a] = s
    W = np.empty((K + 1, n))
    delta = np.empty(n)
    stored = 0
    epochs = 0
    accepted = 0
    tried = 0
    passes = 1
    while epochs < max_epochs:
        for a in range(n):
            j = ws[a]
            old = w[j]
            ga = gfull[j] if full else g[a]
            new = soft(old - ga * inv_h_ws[a], lam_ws[a] * inv_h_ws[a])
            if new != old:
                w[j] = new
                step = new - old
                row = G[j]
                if full:
                    for b in range(d):
                        gfull[b] += step * row[b]
                else:
                    for b in range(n):
                        g[b] += step * row[ws[b]]
        if full:
            for a in range(n):
                g[a] = gfull[ws[a]]
        epochs += 1
        passes += 1
        if K > 0:
            for a in range(n):
                W[stored, a] = w[ws[a]]
            stored += 1
            if stored == K + 1:
                stored = 0
                c = anderson_weights(W, K)
                if c.shape[0] == K:
                    tried += 1
                    passes += 1
                    # d = w_acc - w on the working set; P(w_acc) - P(w) = d.g + d'G d / 2 + sum lam (|w_acc| - |w|)
                    change = 0.0
                    for a in range(n):
                        v = 0.0
                        for q in range(K):
                            v += c[q] * W[q + 1, a]
                        delta[a] = v - w[ws[a]]
                        change += delta[a] * g[a] + lam_ws[a] * (abs(v) - abs(w[ws[a]]))
                    quad = 0.0
                    for a in range(n):
                        if delta[a] != 0.0:
                            row = G[ws[a]]
                            t = 0.0
                            for b in range(n):
                                t += row[ws[b]] * delta[b]
                            quad += delta[a] * t
                    if change + 0.5 * quad < 0.0:
                        accepted += 1
                        for a in range(n):
                            if delta[a] != 0.0:
                                w[ws[a]] += delta[a]
                                row = G[ws[a]]
                                if full:
                                    for b in range(d):
                                        gfull[b] += delta[a] * row[b]
                                else:
                                    for b in range(n):
                                        g[b] += delta[a] * row[ws[b]]
                        if full:
                            for a in range(n):
                                g[a] = gfull[ws[a]]
        if epochs % check_every == 0 or epochs == max_epochs:
            worst = 0.0
            for a in range(n):
                v = violation(w[ws[a]], g[a], lam_ws[a])
                if v > worst:
                    worst = v
            if worst <= tol:
                break
    counts[0] = epochs
    counts[1] = accepted
    counts[2] = tried
    counts[3] = passes


@njit(cache=True)
def exact_gap(sparse, XT, indptr, indices, data, y, yy, w, lam_j, Q, XtQ, grad, z, r, u, xtu, coef_q, gradient):
    """P(w) - D(u) from the residual r = Xw - y (z = Xw afresh from the support's columns: no drift), the dual point
    u = -r/m made orthogonal to the unpenalized columns (Q) and scaled into |X^T u|_j <= lam_j.  ``gradient``:
    compute grad = X^T r / m from the columns too (else ``grad`` holds it already, from G)."""
    m = y.shape[0]
    d = w.shape[0]
    inv_m = 1.0 / m
    for i in range(m):
        z[i] = 0.0
    for j in range(d):
        if w[j] != 0.0:
            col_axpy(sparse, XT, indptr, indices, data, j, w[j], z)
    primal = 0.0
    for i in range(m):
        r[i] = z[i] - y[i]
        primal += r[i] * r[i]
    primal *= 0.5 * inv_m
    if gradient:
        for j in range(d):
            grad[j] = col_dot(sparse, XT, indptr, indices, data, j, r) * inv_m
    for j in range(d):
        primal += lam_j[j] * abs(w[j])
    for i in range(m):
        u[i] = -r[i] * inv_m
    for j in range(d):
        xtu[j] = -grad[j]
    n_q = Q.shape[1]
    for q in range(n_q):
        s = 0.0
        for i in range(m):
            s += Q[i, q] * u[i]
        coef_q[q] = s
    for q in range(n_q):
        for i in range(m):
            u[i] -= Q[i, q] * coef_q[q]
        for j in range(d):
            xtu[j] -= XtQ[j, q] * coef_q[q]
    scale = _box_scale(xtu, lam_j)
    rr = 0.0
    for i in range(m):
        t = y[i] - m * scale * u[i]
        rr += t * t
    return primal - 0.5 * (yy - rr) * inv_m


@njit(cache=True, inline="always")
def _box_scale(xtu, lam_j):
    """The factor that scales u into the box |X^T u|_j <= lam_j."""
    worst = 0.0
    for j in range(xtu.shape[0]):
        if lam_j[j] > 0.0:
            ratio = abs(xtu[j]) / lam_j[j]
            if ratio > worst:
                worst = ratio
    return 1.0 if worst <= 1.0 else 1.0 / worst


@njit(cache=True)
def gram_gradient(G, xty, w, grad):
    """grad = G w - X^T y / m from the rows of G of the support."""
    d = w.shape[0]
    for j in range(d):
        grad[j] = -xty[j]
    for j2 in range(d):
        if w[j2] != 0.0:
            row = G[j2]
            wj = w[j2]
            for j in range(d):
                grad[j] += row[j] * wj


@njit(cache=True)
def gram_gap(xty, yy, w, lam_j, XtQ, Qty, grad, xtu, coef_q, m):
    """The duality gap of :func:`exact_gap` from the Gram quantities alone (grad = G w - X^T y / m, Q^T y): with
    r = Xw - y, ||r||^2 = m (w.grad - w.X^T y/m) + ||y||^2, y.r = m w.X^T y/m - ||y||^2 and Q^T r = (X^T Q)^T w - Q^T y,
    no pass over X.  Differences of numbers of the size of ||y||^2: accurate to about 1e-16 ||y||^2 / m, so a gap that
    ends a solve is recomputed by :func:`exact_gap`."""
    d = w.shape[0]
    wg = 0.0
    wx = 0.0
    pen = 0.0
    for j in range(d):
        if w[j] != 0.0:
            wg += w[j] * grad[j]
            wx += w[j] * xty[j]
            pen += lam_j[j] * abs(w[j])
    rr = m * (wg - wx) + yy
    yr = m * wx - yy
    n_q = XtQ.shape[1]
    qq = 0.0
    qy = 0.0
    for q in range(n_q):
        s = -Qty[q]
        for j in range(d):
            if w[j] != 0.0:
                s += XtQ[j, q] * w[j]
        coef_q[q] = s
        qq += s * s
        qy += Qty[q] * s
    for j in range(d):
        t = -grad[j]
        for q in range(n_q):
            t += XtQ[j, q] * coef_q[q] / m
        xtu[j] = t
    scale = _box_scale(xtu, lam_j)
    rperp = rr - qq
    y_rperp = yr - qy
    return 0.5 * rr / m + pen + (2.0 * scale * y_rperp + scale * scale * rperp) / (2.0 * m)


@njit(cache=True)
def path_squared(sparse, XT, indptr, indices, data, y, xty, h, c, Q, XtQ, lams, w, tol_abs, max_outer, max_epochs,
                 ws_start, anderson, G, coefs, gaps, converged, n_iter):
    """Solve P_lam(w) = ||Xw - y||^2/(2m) + lam sum_j c_j |w_j| for every lams[k] (decreasing, each below
    lambda_max), warm-started from ``w`` (updated in place), to a duality gap of at most ``tol_abs``.  ``h``: the
    coordinate curvatures ||x_j||^2/m (0: an empty column, left at 0); ``Q`` (m x r, orthonormal) spans the
    unpenalized columns and ``XtQ`` = X^T Q: the dual point is projected onto their orthogonal complement.
    ``G``: the Gram matrix X^T X / m (d x d) to work on, or an empty (0 x 0) array to read the columns of X.
    Writes column k of ``coefs``, ``gaps[k]``, ``converged[k]`` and ``n_iter[k]`` (coordinate updates)."""
    gram = G.shape[0] > 0
    m = y.shape[0]
    d = h.shape[0]
    n_q = Q.shape[1]
    z = np.empty(m)
    r = np.empty(m)
    u = np.empty(m)
    grad = np.empty(d)
    xtu = np.empty(d)
    score = np.empty(d)
    lam_j = np.empty(d)
    coef_q = np.empty(n_q)
    counts = np.zeros(4, dtype=np.int64)
    yy = 0.0
    for i in range(m):
        yy += y[i] * y[i]
    Qty = np.empty(n_q)
    for q in range(n_q):
        t = 0.0
        for i in range(m):
            t += Q[i, q] * y[i]
        Qty[q] = t
    n_eligible = 0
    n_free = 0
    for j in range(d):
        if h[j] > 0.0:
            n_eligible += 1
            if c[j] == 0.0:
                n_free += 1
    for k in range(lams.shape[0]):
        for j in range(d):
            lam_j[j] = lams[k] * c[j]
        gap = np.inf
        done = False
        stalled = False
        steps = 0
        for outer in range(max_outer + 1):
            if gram:
                # the gap from G (no pass over X); a gap that would end the solve is recomputed exactly from X
                gram_gradient(G, xty, w, grad)
                gap = gram_gap(xty, yy, w, lam_j, XtQ, Qty, grad, xtu, coef_q, m)
                if gap <= tol_abs or outer == max_outer or stalled:
                    gap = exact_gap(sparse, XT, indptr, indices, data, y, yy, w, lam_j, Q, XtQ, grad, z, r, u, xtu,
                                    coef_q, False)
            else:
                gap = exact_gap(sparse, XT, indptr, indices, data, y, yy, w, lam_j, Q, XtQ, grad, z, r, u, xtu,
                                coef_q, True)
            if gap <= tol_abs:
                done = True
                break
            if outer == max_outer or stalled:
                break
            best = 0.0
            n_support = 0
            for j in range(d):
                if h[j] > 0.0:
                    v = violation(w[j], grad[j], lam_j[j])
                    if v > best:
                        best = v
                    score[j] = np.inf if (w[j] != 0.0 or c[j] == 0.0) else v
                    if w[j] != 0.0:
                        n_support += 1
                else:
                    score[j] = -1.0
            if best <= 0.0:                           # optimal to rounding
                if gram:
                    gap = exact_gap(sparse, XT, indptr, indices, data, y, yy, w, lam_j, Q, XtQ, grad, z, r, u, xtu,
                                    coef_q, False)
                break
            size = max(ws_start, 2 * n_support, n_free + ws_start)
            if size > n_eligible:
                size = n_eligible
            ws = np.empty(size, dtype=np.int64)
            if size == n_eligible:
                n = 0
                for j in range(d):
                    if h[j] > 0.0:
                        ws[n] = j
                        n += 1
            else:
                cut = np.partition(score, d - size)[d - size]   # the size-th largest score
                n = 0
                for j in range(d):                   # above the cut first, then ties at the cut
                    if score[j] > cut:
                        ws[n] = j
                        n += 1
                for j in range(d):
                    if n == size:
                        break
                    if score[j] == cut:
                        ws[n] = j
                        n += 1
                ws = np.sort(ws[:n])
            lam_ws = np.empty(ws.shape[0])
            inv_h = np.empty(ws.shape[0])
            for q in range(ws.shape[0]):
                lam_ws[q] = lam_j[ws[q]]
                inv_h[q] = 1.0 / h[ws[q]]
            if gram:
                inner_cd_gram(G, xty, w, ws, lam_ws, inv_h, max_epochs, 0.3 * best, anderson, 3, counts)
            else:
                inner_cd(SQUARED, sparse, XT, indptr, indices, data, y, xty, w, z, ws, lam_ws, inv_h, max_epochs,
                         0.3 * best, anderson, 10, counts)
            steps += counts[0] * ws.shape[0]
            stalled = counts[0] == 0
        for j in range(d):
            coefs[j, k] = w[j]
        gaps[k] = gap
        converged[k] = done
        n_iter[k] = steps
