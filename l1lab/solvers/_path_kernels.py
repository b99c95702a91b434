"""Numba kernel of the squared loss's regularization path (:func:`l1lab.solvers.regularization_path`).

The whole path in one call: for each lam of a decreasing grid, warm-started at the previous solution, the outer
iterations of :func:`l1lab.solvers.working_set_cd` (margins from the support, the full gradient, the duality gap
of the rescaled residual, the working set of the worst violators) around its inner solver
(:func:`l1lab.solvers._ws_kernels.inner_cd`, coordinate descent with Anderson extrapolation).  The same steps as
the Python loop of ``working_set_cd``, without its per-iteration bookkeeping (trace records, validation), which
dominates on the small problems a cross-validation solves hundreds of times.  A separate module, so that a single
fit does not compile it.
"""
import numpy as np
from numba import njit

from ..losses import SQUARED
from ._ws_kernels import col_axpy, col_dot, inner_cd, violation


@njit(cache=True)
def path_squared(sparse, XT, indptr, indices, data, y, xty, h, c, Q, XtQ, lams, w, tol_abs, max_outer, max_epochs,
                 ws_start, anderson, coefs, gaps, converged, n_iter):
    """Solve P_lam(w) = ||Xw - y||^2/(2m) + lam sum_j c_j |w_j| for every lams[k] (decreasing, each below
    lambda_max), warm-started from ``w`` (updated in place), to a duality gap of at most ``tol_abs``.  ``h``: the
    coordinate curvatures ||x_j||^2/m (0: an empty column, left at 0); ``Q`` (m x r, orthonormal) spans the
    unpenalized columns and ``XtQ`` = X^T Q: the dual point is projected onto their orthogonal complement.
    Writes column k of ``coefs``, ``gaps[k]``, ``converged[k]`` and ``n_iter[k]`` (coordinate updates)."""
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
    n_eligible = 0
    n_free = 0
    for j in range(d):
        if h[j] > 0.0:
            n_eligible += 1
            if c[j] == 0.0:
                n_free += 1
    inv_m = 1.0 / m
    for k in range(lams.shape[0]):
        for j in range(d):
            lam_j[j] = lams[k] * c[j]
        gap = np.inf
        done = False
        stalled = False
        steps = 0
        for outer in range(max_outer + 1):
            for i in range(m):                       # the margins afresh from the support: no drift
                z[i] = 0.0
            for j in range(d):
                if w[j] != 0.0:
                    col_axpy(sparse, XT, indptr, indices, data, j, w[j], z)
            primal = 0.0
            for i in range(m):
                r[i] = z[i] - y[i]
                primal += r[i] * r[i]
            primal *= 0.5 * inv_m
            for j in range(d):
                grad[j] = col_dot(sparse, XT, indptr, indices, data, j, r) * inv_m
                primal += lam_j[j] * abs(w[j])
            # the dual point u = -r/m, orthogonal to the unpenalized columns, scaled into |X^T u|_j <= lam_j
            for i in range(m):
                u[i] = -r[i] * inv_m
            for j in range(d):
                xtu[j] = -grad[j]
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
            worst = 0.0
            for j in range(d):
                if lam_j[j] > 0.0:
                    ratio = abs(xtu[j]) / lam_j[j]
                    if ratio > worst:
                        worst = ratio
            scale = 1.0 if worst <= 1.0 else 1.0 / worst
            rr = 0.0
            for i in range(m):
                t = y[i] - m * scale * u[i]
                rr += t * t
            gap = primal - 0.5 * (yy - rr) * inv_m
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
            if best <= 0.0:
                break                                 # optimal to rounding
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
            inner_cd(SQUARED, sparse, XT, indptr, indices, data, y, xty, w, z, ws, lam_ws, inv_h, max_epochs,
                     0.3 * best, anderson, 10, counts)
            steps += counts[0] * ws.shape[0]
            stalled = counts[0] == 0
        for j in range(d):
            coefs[j, k] = w[j]
        gaps[k] = gap
        converged[k] = done
        n_iter[k] = steps
