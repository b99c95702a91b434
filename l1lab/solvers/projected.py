r"""Projected (sub)gradient methods for the l1-constrained problem of Duchi, Shalev-Shwartz, Singer & Chandra
(2008), their eq. (1):

.. math::  \min_w C(w) = \frac1m\sum_{i=1}^m L(\langle w, x_i\rangle, y_i) \quad\text{s.t.}\quad \|w\|_1 \le z,

with the update :math:`w^{(t+1)} = \Pi_{B_z}(w^{(t)} - \eta_t \nabla^{(t)})` (their eq. (2)), where
:math:`\nabla^{(t)}` is the full gradient (``batch``), the gradient of one example (``stochastic``) or the
mean over a mini-batch of b examples (``minibatch``), and :math:`\eta_t = \eta_0/\sqrt t`.  ``batch`` can
instead take a backtracking line search along the projection arc.

The problem must be built with ``lam=0``: here the l1 norm is a constraint, not a penalty.

Traces record data accesses (entries of X read) and approximate floating-point operations, the x-axis of the
paper's figures, counted as: 2 per entry read for a margin and 2 per entry for a gradient update (a multiply
and an add each), and 4n for a dense projection of an n-vector (absolute values and the linear-time threshold
search, the shrink, the sign) -- a convention, stated so that curves are comparable, not a measurement.
"""
from __future__ import annotations

import math
import time

import numpy as np
from numba import njit

from ..losses import loss_deriv
from ..projections.dense import _threshold_condat
from ..trace import Result, TraceRecorder, log_checkpoints
from ._checks import check_n_iter, check_positive, check_problem, solver_checked

PROJECTION_FLOPS_PER_ENTRY = 4


@solver_checked()
def check_constrained(problem, n_iter, z):
    check_problem(problem)
    if problem.lam != 0:
        raise ValueError(f"the l1-constrained solvers minimize C(w) over ||w||_1 <= z: build the Problem with "
                         f"lam=0 (got lam={problem.lam})")
    if not problem.loss.smooth and problem.loss.name != "hinge":
        raise ValueError(f"unsupported loss {problem.loss.name}")
    return check_n_iter(n_iter), check_positive(z, "the radius z")


@njit(cache=True)
def project_inplace(w, z, absw):
    """w <- Pi_{||.||_1 <= z}(w) with Condat's threshold; returns 1 if a projection was needed."""
    n = w.shape[0]
    s = 0.0
    for j in range(n):
        absw[j] = abs(w[j])
        s += absw[j]
    if s <= z:
        return 0
    theta = _threshold_condat(absw, z)
    # recompute theta from its support, as l1lab.projections does
    tot = 0.0
    cnt = 0
    for j in range(n):
        if absw[j] > theta:
            tot += absw[j]
            cnt += 1
    if cnt > 0:
        theta = (tot - z) / cnt
    for j in range(n):
        a = absw[j] - theta
        if a > 0.0:
            w[j] = a if w[j] > 0 else -a
        else:
            w[j] = 0.0
    return 1


@njit(cache=True)
def psg_chunk(code, indptr, indices, data, y, w, idx, batch, eta0, decay, t0, z, margins, absw):
    """Stochastic / mini-batch projected gradient steps t0+1, ..., t0+len(idx)/batch.
    Returns the number of projections performed."""
    n_steps = idx.shape[0] // batch
    n_proj = 0
    for s in range(n_steps):
        eta = eta0 / math.sqrt(t0 + s + 1.0) if decay else eta0
        # all the batch's margins at the same w, then the averaged step
        for r in range(batch):
            i = idx[s * batch + r]
            a = 0.0
            for k in range(indptr[i], indptr[i + 1]):
                a += data[k] * w[indices[k]]
            margins[r] = a
        for r in range(batch):
            i = idx[s * batch + r]
            g = eta * loss_deriv(code, margins[r], y[i]) / batch
            if g != 0.0:
                for k in range(indptr[i], indptr[i + 1]):
                    w[indices[k]] -= g * data[k]
        n_proj += project_inplace(w, z, absw)
    return n_proj


@solver_checked()
def projected_gradient(problem, n_iter, z, eta0=1.0, method="stochastic", batch_size=10, seed=0,
                       line_search=False, schedule="sqrt", projection="dense", n_checkpoints=60):
    r"""Projected (sub)gradient descent on C over the l1 ball of radius z (Duchi et al. 2008, their eq. (2)).

    Parameters
    ----------
    problem : Problem with ``lam=0``
    n_iter : number of steps (of one example, one mini-batch or one full gradient)
    z : radius of the l1 ball
    eta0 : step eta_t = eta0/sqrt(t) (for ``batch`` with ``line_search``, the first trial step)
    method : ``"stochastic"`` (one example per step), ``"minibatch"`` (``batch_size`` examples, sampled with
        replacement) or ``"batch"`` (the full gradient)
    line_search : ``batch`` only: backtracking (halving from eta0, Armijo condition
        C(w+) <= C(w) + <grad, w+ - w> + ||w+ - w||^2/(2 eta)) instead of eta0/sqrt(t)
    schedule : ``"sqrt"`` (eta_t = eta0/sqrt(t), the default) or ``"constant"`` (eta_t = eta0)
    projection : ``"dense"`` (Condat on all n coordinates, O(n) per step) or, with ``method="stochastic"``,
        ``"tree"``: the iterate lives in a :class:`l1lab.projections.sparse.SparseL1BallProjector` and a step
        with a k-sparse example costs O(k log n) (Section 6 of the paper; a Python loop per step, so it pays
        off only for large n); the same iterates to rounding.  Projection flops are counted as 4k log2(n).

    Returns a Result whose trace also has ``flops`` (see the module docstring); ``info["projections"]``
    counts the projections that moved the point.
    """
    n_iter, z = check_constrained(problem, n_iter, z)
    eta0 = check_positive(eta0, "eta0")
    if method not in ("stochastic", "minibatch", "batch"):
        raise ValueError(f"method must be 'stochastic', 'minibatch' or 'batch', got {method!r}")
    if line_search and method != "batch":
        raise ValueError("line_search is only available with method='batch'")
    if schedule not in ("sqrt", "constant"):
        raise ValueError(f"schedule must be 'sqrt' or 'constant', got {schedule!r}")
    if projection not in ("dense", "tree"):
        raise ValueError(f"projection must be 'dense' or 'tree', got {projection!r}")
    if projection == "tree" and method != "stochastic":
        raise ValueError("projection='tree' is only available with method='stochastic'")
    decay = schedule == "sqrt"
    b = 1 if method == "stochastic" else int(batch_size)
    if method == "minibatch" and not (1 <= b <= problem.m):
        raise ValueError(f"batch_size must be in [1, m={problem.m}], got {batch_size}")
    if method == "batch":
        return _batch(problem, n_iter, z, eta0, line_search, decay, n_checkpoints)

    rng = np.random.default_rng(seed)
    indptr, indices, data = problem.csr_arrays()
    row_nnz = problem.row_nnz
    w = np.zeros(problem.d)
    margins = np.empty(b)
    absw = np.empty(problem.d)
    rec = TraceRecorder()
    acc = flops = 0.0
    seconds = 0.0
    n_proj = 0
    rec.record(0, 0, problem.objective(w), 0, 0.0, 0.0)
    cps = log_checkpoints(n_iter, n_checkpoints)
    tree = None
    if projection == "tree":
        from ..projections.sparse import SparseL1BallProjector

        tree = SparseL1BallProjector(problem.d, z)
        code, y = problem.loss.code, problem.y
        log_n = math.log2(max(problem.d, 2))
    for a, c in zip(cps[:-1], cps[1:]):
        idx = rng.integers(0, problem.m, size=(c - a) * b, dtype=np.int64)
        t0 = time.perf_counter()
        if tree is None:
            n_proj += psg_chunk(problem.loss.code, indptr, indices, data, problem.y, w, idx, b, eta0, decay, int(a),
                                z, margins, absw)
        else:
            for s, i in enumerate(idx):
                lo, hi = indptr[i], indptr[i + 1]
                cols, vals = indices[lo:hi], data[lo:hi]
                g = loss_deriv(code, float(vals @ tree.values(cols)), y[i])
                if g != 0.0:
                    eta = eta0 / math.sqrt(a + s + 1.0) if decay else eta0
                    n_proj += tree.update(cols, -eta * g * vals) > 0.0
        seconds += time.perf_counter() - t0
        nz = float(row_nnz[idx].sum())
        acc += nz
        if tree is None:
            flops += 4.0 * nz + PROJECTION_FLOPS_PER_ENTRY * problem.d * (c - a)
        else:
            w = tree.to_dense()
            flops += 4.0 * nz + PROJECTION_FLOPS_PER_ENTRY * nz * log_n
        rec.record(c, acc, problem.objective(w), np.count_nonzero(w), seconds, flops)
    info = {"method": f"projected_gradient/{method}", "z": z, "eta0": eta0, "batch_size": b, "seed": seed,
            "projections": n_proj, "schedule": schedule, "projection": projection}
    return Result(w=w, trace=rec.finish(), info=info)


def _batch(problem, n_iter, z, eta0, line_search, decay, n_checkpoints):
    from ..projections import project_l1_ball

    w = np.zeros(problem.d)
    zm = problem.margins(w)
    rec = TraceRecorder()
    rec.record(0, 0, problem.objective(w), 0, 0.0, 0.0)
    cps = set(log_checkpoints(n_iter, n_checkpoints).tolist())
    acc = flops = seconds = 0.0
    nnzX, n = float(problem.nnz), problem.d
    eta = eta0
    for t in range(1, n_iter + 1):
        t0 = time.perf_counter()
        g = problem.gradient_from_margins(zm)
        acc += nnzX
        flops += 2 * nnzX
        if line_search:
            c0 = problem.smooth_from_margins(zm)
            eta = min(eta * 2.0, eta0)  # allow the step to grow back
            while True:
                w_new = project_l1_ball(w - eta * g, z)
                z_new = problem.margins(w_new)
                acc += nnzX
                flops += 2 * nnzX + PROJECTION_FLOPS_PER_ENTRY * n
                dw = w_new - w
                if problem.smooth_from_margins(z_new) <= c0 + g @ dw + (dw @ dw) / (2 * eta) or eta < 1e-14:
                    break
                eta *= 0.5
        else:
            w_new = project_l1_ball(w - (eta0 / math.sqrt(t) if decay else eta0) * g, z)
            z_new = problem.margins(w_new)
            acc += nnzX
            flops += 2 * nnzX + PROJECTION_FLOPS_PER_ENTRY * n
        w, zm = w_new, z_new
        seconds += time.perf_counter() - t0
        if t in cps:
            rec.record(t, acc, problem.smooth_from_margins(zm), np.count_nonzero(w), seconds, flops)
    info = {"method": "projected_gradient/batch", "z": z, "eta0": eta0, "line_search": line_search,
            "schedule": "sqrt" if decay else "constant"}
    return Result(w=w, trace=rec.finish(), info=info)


# SG with Euclidean projection onto an l2 ball (Theorem 2.1 of Kakade, Foster & Even-Dar 2008) is an online
# method with its regret harness in l1lab.solvers.online; re-exported here beside the l1-constrained methods.
from .online import sg_l2  # noqa: E402, F401
