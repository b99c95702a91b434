"""Numba kernels of the coordinate-descent family (Section 2 of Shalev-Shwartz & Tewari 2011).

Each kernel runs a chunk of iterations on plain arrays and updates ``w`` and the maintained margins
``z = Xw`` in place, so one coordinate step costs O(nnz of column j).  Dense data is passed as XT, the
C-contiguous (d, m) transpose, so that column j is the contiguous row ``XT[j]``; sparse data as the CSC
arrays (indptr, indices, data).  Coordinate indices come pre-drawn from numpy's Generator.
"""
import numpy as np
from numba import njit

from ..losses import SQUARED, loss_deriv


@njit(cache=True, inline="always")
def soft_step(wj, g, lam, beta):
    """s_{lam/beta}(w_j - g/beta): the coordinate update of Algorithm 1."""
    u = wj - g / beta
    thr = lam / beta
    if u > thr:
        return u - thr
    elif u < -thr:
        return u + thr
    return 0.0


@njit(cache=True, inline="always")
def _grad_dense(code, xj, z, y, xty_j, inv_m):
    if code == SQUARED:
        # L'(z_i, y_i) = z_i - y_i, so g_j = <x_j, z>/m - <x_j, y>/m: one BLAS dot per step.
        return np.dot(xj, z) * inv_m - xty_j
    g = 0.0
    for i in range(xj.shape[0]):
        g += loss_deriv(code, z[i], y[i]) * xj[i]
    return g * inv_m


@njit(cache=True, inline="always")
def _grad_sparse(code, indptr, indices, data, j, z, y, xty_j, inv_m):
    g = 0.0
    if code == SQUARED:
        for k in range(indptr[j], indptr[j + 1]):
            g += data[k] * z[indices[k]]
        return g * inv_m - xty_j
    for k in range(indptr[j], indptr[j + 1]):
        i = indices[k]
        g += loss_deriv(code, z[i], y[i]) * data[k]
    return g * inv_m


@njit(cache=True)
def cd_dense(code, XT, y, xty, w, z, idx, lam, beta):
    """Run the coordinates ``idx`` of Algorithm 2 on dense data; ``beta`` is an array (one per coordinate)."""
    inv_m = 1.0 / XT.shape[1]
    for t in range(idx.shape[0]):
        j = idx[t]
        if beta[j] <= 0.0:
            continue
        xj = XT[j]
        g = _grad_dense(code, xj, z, y, xty[j], inv_m)
        new = soft_step(w[j], g, lam, beta[j])
        delta = new - w[j]
        if delta != 0.0:
            w[j] = new
            for i in range(xj.shape[0]):
                z[i] += delta * xj[i]


@njit(cache=True)
def cd_sparse(code, indptr, indices, data, y, xty, w, z, idx, lam, beta):
    """Run the coordinates ``idx`` of Algorithm 2 on CSC data; ``beta`` is an array (one per coordinate)."""
    inv_m = 1.0 / z.shape[0]
    for t in range(idx.shape[0]):
        j = idx[t]
        if beta[j] <= 0.0:
            continue
        g = _grad_sparse(code, indptr, indices, data, j, z, y, xty[j], inv_m)
        new = soft_step(w[j], g, lam, beta[j])
        delta = new - w[j]
        if delta != 0.0:
            w[j] = new
            for k in range(indptr[j], indptr[j + 1]):
                z[indices[k]] += delta * data[k]


@njit(cache=True, inline="always")
def _greedy_pick(grad, w, lam, beta):
    # Guaranteed decrease of the coordinate step, from (9) and (10):
    #   P(w) - P(w + eta_j e_j) >= -(g_j eta_j + beta/2 eta_j^2 + lam(|w_j + eta_j| - |w_j|)).
    best_j = 0
    best = -1.0
    for j in range(grad.shape[0]):
        eta = soft_step(w[j], grad[j], lam, beta) - w[j]
        dec = -(grad[j] * eta + 0.5 * beta * eta * eta + lam * (abs(w[j] + eta) - abs(w[j])))
        if dec > best:
            best = dec
            best_j = j
    return best_j


@njit(cache=True)
def gcd_dense(code, XT, y, xty, w, z, n_steps, lam, beta, chosen):
    """Greedy coordinate descent: each step computes the full gradient (all of X) and updates the coordinate
    with the largest guaranteed decrease.  ``chosen`` receives the coordinates picked."""
    d, m = XT.shape
    inv_m = 1.0 / m
    dz = np.empty(m)
    grad = np.empty(d)
    for t in range(n_steps):
        for i in range(m):
            dz[i] = loss_deriv(code, z[i], y[i])
        for j in range(d):
            grad[j] = np.dot(XT[j], dz) * inv_m
        j = _greedy_pick(grad, w, lam, beta)
        chosen[t] = j
        new = soft_step(w[j], grad[j], lam, beta)
        delta = new - w[j]
        if delta != 0.0:
            w[j] = new
            xj = XT[j]
            for i in range(m):
                z[i] += delta * xj[i]


@njit(cache=True)
def gcd_sparse(code, indptr, indices, data, y, xty, w, z, n_steps, lam, beta, chosen):
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
            g = 0.0
            for k in range(indptr[j], indptr[j + 1]):
                g += data[k] * dz[indices[k]]
            grad[j] = g * inv_m
        j = _greedy_pick(grad, w, lam, beta)
        chosen[t] = j
        new = soft_step(w[j], grad[j], lam, beta)
        delta = new - w[j]
        if delta != 0.0:
            w[j] = new
            for k in range(indptr[j], indptr[j + 1]):
                z[indices[k]] += delta * data[k]
