r"""Exponentiated gradient (Kivinen & Warmuth 1997) for the l1-constrained problem, with the +- split for signed
weights: the comparator of Duchi, Shalev-Shwartz, Singer & Chandra (2008, Section 7).

Write w = w^+ - w^- with (w^+, w^-) >= 0 and sum(w^+) + sum(w^-) = z (plus, with ``dummy=True``, one extra
coordinate that absorbs mass so that ||w||_1 <= z; footnote 3 of Kakade, Foster & Even-Dar 2008).  One EG step
with gradient g (of C at w):

.. math::  w^+_j \propto w^+_j e^{-\eta g_j}, \qquad w^-_j \propto w^-_j e^{+\eta g_j},

normalized to total mass z, starting from the center (all 2n (+1) entries equal).  The stochastic version keeps
the unnormalized weights u and their sum S, so a step with a k-sparse example costs O(k): only the touched
u_j change, S is updated by their change, and <w, x_i> = (z/S) sum_j x_ij (u^+_j - u^-_j).  The iterates are
never sparse: every weight stays positive.
"""
from __future__ import annotations

import math
import time

import numpy as np
from numba import njit

from ..losses import loss_deriv
from ..trace import Result, TraceRecorder, log_checkpoints
from ._checks import check_positive, solver_checked
from .projected import check_constrained


@njit(cache=True)
def eg_chunk(code, indptr, indices, data, y, up, um, S_box, idx, eta0, t0, decay, z):
    """Stochastic EG+- steps; up, um: unnormalized weights of w+ and w-; S_box[0] = their total (plus the
    dummy's, S_box[1], which never changes in a step: it has no gradient)."""
    n = up.shape[0]
    S = S_box[0]
    for s in range(idx.shape[0]):
        eta = eta0 / math.sqrt(t0 + s + 1.0) if decay else eta0
        i = idx[s]
        a = 0.0
        for k in range(indptr[i], indptr[i + 1]):
            j = indices[k]
            a += data[k] * (up[j] - um[j])
        a *= z / S
        g = loss_deriv(code, a, y[i])
        if g != 0.0:
            for k in range(indptr[i], indptr[i + 1]):
                j = indices[k]
                e = math.exp(-eta * g * data[k])
                nu_p = up[j] * e
                nu_m = um[j] / e
                S += (nu_p - up[j]) + (nu_m - um[j])
                up[j] = nu_p
                um[j] = nu_m
        if S > 1e100 or S < 1e-100 or (t0 + s) % n == 0:
            # rescale (no change to w) and recompute S exactly, against overflow and drift
            tot = S_box[1]
            for j in range(n):
                tot += up[j] + um[j]
            for j in range(n):
                up[j] /= tot
                um[j] /= tot
            S_box[1] /= tot
            S = 1.0
    S_box[0] = S


def _weights(up, um, S, z):
    return z * (up - um) / S


@solver_checked()
def exponentiated_gradient(problem, n_iter, z, eta0=1.0, method="stochastic", decay=False, dummy=False, seed=0,
                           n_checkpoints=60):
    r"""EG+- on min C(w) s.t. ||w||_1 = z (``dummy=False``) or <= z (``dummy=True``).

    Parameters
    ----------
    problem : Problem with ``lam=0``
    eta0 : step size; eta_t = eta0/sqrt(t) with ``decay=True``, else constant
    method : ``"stochastic"`` (one example per step, O(nnz(x_i)) per step) or ``"batch"`` (full gradient)

    Trace flops: 4 per entry read (margin and update) plus 2 per touched weight for the exponentials
    (counting an exp as one operation); batch adds 6 per weight for the update and normalization.
    """
    n_iter, z = check_constrained(problem, n_iter, z)
    eta0 = check_positive(eta0, "eta0")
    if method not in ("stochastic", "batch"):
        raise ValueError(f"method must be 'stochastic' or 'batch', got {method!r}")
    n = problem.d
    n_slots = 2 * n + (1 if dummy else 0)
    up = np.full(n, 1.0 / n_slots)
    um = np.full(n, 1.0 / n_slots)
    S_box = np.array([1.0, 1.0 / n_slots if dummy else 0.0])
    rec = TraceRecorder()
    w = _weights(up, um, S_box[0], z)
    rec.record(0, 0, problem.objective(w), np.count_nonzero(w), 0.0, 0.0)
    cps = log_checkpoints(n_iter, n_checkpoints)
    acc = flops = seconds = 0.0
    rng = np.random.default_rng(seed)
    indptr, indices, data = problem.csr_arrays()
    row_nnz = problem.row_nnz
    for a, c in zip(cps[:-1], cps[1:]):
        t0 = time.perf_counter()
        if method == "stochastic":
            idx = rng.integers(0, problem.m, size=c - a, dtype=np.int64)
            eg_chunk(problem.loss.code, indptr, indices, data, problem.y, up, um, S_box, idx, eta0, int(a),
                     decay, z)
            nz = float(row_nnz[idx].sum())
            acc += nz
            flops += 6.0 * nz
        else:
            for t in range(int(a) + 1, int(c) + 1):
                eta = eta0 / math.sqrt(t) if decay else eta0
                g = problem.gradient(_weights(up, um, S_box[0], z))
                up *= np.exp(-eta * g)
                um *= np.exp(eta * g)
                tot = up.sum() + um.sum() + S_box[1]
                up /= tot
                um /= tot
                S_box[1] /= tot
                S_box[0] = up.sum() + um.sum() + S_box[1]
                acc += 2.0 * problem.nnz
                flops += 4.0 * problem.nnz + 6.0 * n
        seconds += time.perf_counter() - t0
        w = _weights(up, um, S_box[0], z)
        rec.record(c, acc, problem.objective(w), np.count_nonzero(w), seconds, flops)
    info = {"method": f"exponentiated_gradient/{method}", "z": z, "eta0": eta0, "decay": decay, "dummy": dummy,
            "seed": seed}
    return Result(w=w, trace=rec.finish(), info=info)


# The online forms live in l1lab.solvers.online (they need the regret harness); re-exported here beside the
# batch/stochastic EG+- of the constrained problem.
from .online import smg  # noqa: E402, F401
