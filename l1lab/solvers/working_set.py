r"""The practical solver of problem (5): coordinate descent on working sets, stopped by a duality gap.

Not an algorithm of the five papers: the way scikit-learn, glmnet, celer and skglm make coordinate descent fast
to a *solution*, written for l1lab (the book's lectures "Coordinate steps" and "A fast solver" build it one
ingredient at a time).  For P(w) = C(w) + sum_j lam_j |w_j| (lam_j = lam c_j), squared or logistic loss:

1. **Coordinate curvature.**  Coordinate j moves by the exact minimizer of the model
   g_j eta + h_j eta^2/2 + lam_j |w_j + eta| with h_j = beta ||x_j||^2/m, its own curvature, instead of the
   global beta of Algorithm 1 (for the squared loss the exact coordinate minimizer of P).
2. **Working sets.**  Each outer iteration computes the full gradient once, scores every coordinate by its
   optimality violation (the distance of -g_j to lam_j times the subdifferential of |w_j|), and solves the problem
   restricted to the current support and the worst violators (twice the support, at least ``ws_start``);
   unpenalized coordinates (an intercept) are always in it.  Inner solves stop at 0.3 times the outer violation.
3. **Extrapolation.**  Every K epochs the last K + 1 iterates are combined by Anderson
   acceleration; the extrapolated point is kept only if it lowers P.  For the logistic loss the inner solver is
   by default a proximal Newton method (inner ``"newton"``): coordinate descent on the quadratic model, whose
   coordinate curvatures sum_i L''(z_i) x_ij^2/m are exact and whose epochs need no exponential; its epochs
   are extrapolated the same way.
4. **The duality gap** stops the run and certifies it: a feasible dual point is built from the residuals
   (u = -L'(Xw, y)/m, made orthogonal to the unpenalized columns, then scaled into the box |X^T u|_j <= lam_j),
   and P(w) - D(u) >= P(w) - P* is reported.  The run stops once the gap is at most ``tol`` times P at the
   null model (the model with every penalized coordinate at 0: P(0) without an intercept).

A Problem with sample weights (C the weighted mean of the losses) is solved with the proximal Newton inner solver,
whose curvatures and residuals carry the weights, and certified by the weighted dual (each example's conjugate
scaled by its weight).
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from scipy.special import expit, xlogy

from ..losses import SQUARED
from ..problem import ANY_PROBLEM, Problem
from ..trace import Result, TraceRecorder
from . import _ws_kernels as K
from ._checks import check_array, check_problem, solver_checked

__all__ = ["working_set_cd", "regularization_path", "duality_gap", "PathResult"]

INNER = ("auto", "cd", "newton")


class _Setup:
    """Everything about a problem that does not depend on lam: kernel arrays, curvatures, the unpenalized
    columns and the dual's helpers."""

    def __init__(self, problem: Problem):
        if not problem.loss.smooth:
            raise ValueError(f"working_set_cd needs a differentiable loss (squared or logistic); the "
                             f"{problem.loss.name} loss is not: its minimum is a linear program "
                             "(l1lab.solvers.reference_solution solves it)")
        self.p = problem
        self.code = problem.loss.code
        self.sparse = problem.is_sparse
        empty2 = np.zeros((0, 0))
        if self.sparse:
            self.arrays = (empty2, *problem.csc_arrays())
        else:
            self.arrays = (problem._XT, np.zeros(1, np.uint64), np.zeros(0, np.uint32), np.zeros(0))
        self.s = problem.sample_weight        # None, or the sample weights (mean 1)
        self.xty = np.empty(problem.d)
        sq = np.empty(problem.d)
        if self.s is None:
            self.sw = np.empty(0)                # the kernels' "unweighted"
            K.column_stats(self.sparse, *self.arrays, problem.y, self.xty, sq)   # one pass over X for both
        else:
            self.sw = self.s / problem.m
            self.xty[:] = self._xt(self.sw * problem.y)
            sq[:] = problem.column_sq_norms()
        self.h = problem.loss.beta * sq          # coordinate curvature bounds; 0: an empty column
        self.usable = self.h > 0
        c = problem.penalty_weights
        self.c = np.ones(problem.d) if c is None else c
        self.U = np.flatnonzero((self.c == 0) & self.usable)
        self.null = problem.null_solution()
        self.p_null = problem.smooth_from_margins(self.margins(self.null))
        self.yy = float(problem.y @ problem.y)
        self.Q = self.XtQ = None
        if self.U.size:
            XU = problem.X[:, self.U]
            XU = XU.toarray() if sp.issparse(XU) else np.asarray(XU)
            if self.code == SQUARED:
                # the dual point must be orthogonal to the unpenalized columns: project on their complement
                Q, R = np.linalg.qr(XU)
                keep = np.abs(np.diag(R)) > 1e-12 * max(1.0, np.abs(np.diag(R)).max())
                self.Q = np.ascontiguousarray(Q[:, keep])
                self.XtQ = self._xt(self.Q) if self.Q.shape[1] else None
            else:
                constant = np.all(XU == XU[:1, :], axis=0) & (XU[0] != 0)
                if not np.all(constant):
                    raise ValueError(
                        "working_set_cd certifies the logistic loss with unpenalized coordinates only when they "
                        "are intercept columns (constant, nonzero): a feasible dual point must then balance the "
                        "two classes; use scd or cyclic_cd for other unpenalized columns")

    def _xt(self, V):
        """X^T V for a vector or matrix V."""
        if self.sparse:
            out = self.p.X.T @ V
            return np.asarray(out)
        return self.p._XT @ V

    def margins(self, w):
        """Xw from the support of w only (O(nnz of its columns), not a pass over X)."""
        z = np.empty(self.p.m)
        K.support_margins(self.sparse, *self.arrays, w, np.flatnonzero(w).astype(np.int64), z)
        return z

    def gradient(self, w, z, dz):
        """The gradient of C at w (margins z, dz = L'(z, y)): a pass over X, except at w = 0, where it is
        -<x_j, y>/m (squared loss) or -<x_j, y>/(2m) (logistic loss) from the precomputed <x_j, y>/m (with sample
        weights, <x_j, s y>/m)."""
        if not w.any():
            return -self.xty if self.code == SQUARED else -0.5 * self.xty
        return self.p.gradient_from_margins(z)


def _dual(setup: _Setup, lam_j, z, dz, grad):
    """(D(u), u) for the feasible dual point built from the residuals at margins z (dz = L'(z, y))."""
    p = setup.p
    m = p.m
    s = setup.s
    if setup.code == SQUARED:
        u = -dz / m if s is None else -s * dz / m
        xtu = -grad
        if setup.Q is not None and setup.Q.shape[1]:
            coef = setup.Q.T @ u
            u = u - setup.Q @ coef
            xtu = xtu - setup.XtQ @ coef
    else:
        # the dual variables of the logistic loss, t_i = m y_i u_i in (0, 1), and 1 - t_i, each computed from the
        # margins (1 - t as a difference would lose the digits that decide the gap when t is near 1)
        t = expit(-p.y * z)
        one_minus_t = expit(p.y * z)
        st = t if s is None else s * t       # with sample weights: t_i in (0, 1) is u_i m y_i / s_i
        if setup.U.size:                      # intercepts: balance the classes so that sum_i u_i = 0
            pos = p.y > 0
            a, b = float(st[pos].sum()), float(st[~pos].sum())
            cls = pos if a > b else ~pos
            f = min(a, b) / max(a, b)
            one_minus_t[cls] += (1.0 - f) * t[cls]
            t[cls] *= f
            u = p.y * t / m if s is None else p.y * s * t / m
            xtu = setup._xt(u)
        else:
            u = p.y * st / m
            xtu = -grad
    pen = lam_j > 0
    big = np.abs(xtu[pen])
    ratio = big / lam_j[pen]
    worst = float(ratio.max()) if ratio.size else 0.0
    scale = 1.0 if worst <= 1.0 else 1.0 / worst
    u = scale * u
    if setup.code == SQUARED:
        if s is None:
            r = p.y - m * u
            value = 0.5 * (setup.yy - float(r @ r)) / m
        else:   # -(1/m) sum_i f_i*(-m u_i) with f_i(z) = s_i (z - y_i)^2 / 2
            value = float(u @ p.y) - 0.5 * m * float(u @ (u / s))
    else:
        one_minus_t = one_minus_t + (1.0 - scale) * t
        t = scale * t
        entropy = xlogy(t, t) + xlogy(one_minus_t, one_minus_t)
        value = -float(np.sum(entropy) if s is None else s @ entropy) / m
    return value, u


@solver_checked(problem=ANY_PROBLEM)
def duality_gap(problem: Problem, w) -> float:
    """P(w) - D(u) for the feasible dual point that :func:`working_set_cd` builds from the residuals at w: an
    upper bound on the sub-optimality P(w) - P* (weak duality), zero only at a minimizer."""
    check_problem(problem)
    setup = _Setup(problem)
    w = check_array(w, "w", shape=(problem.d,), like="the problem's d")
    z = setup.margins(w)
    dz = problem.loss.deriv(z, problem.y)
    grad = setup.gradient(w, z, dz)
    lam_j = problem.lam * setup.c
    d_value, _ = _dual(setup, lam_j, z, dz, grad)
    return problem.objective(w) - d_value


def _violations(w, grad, lam_j):
    """Optimality violation of every coordinate (numpy version of the kernels' ``violation``)."""
    return np.where(w > 0, np.abs(grad + lam_j), np.where(w < 0, np.abs(grad - lam_j),
                                                           np.maximum(np.abs(grad) - lam_j, 0.0)))


def _largest(score, size):
    """The indices of the ``size`` largest scores, in increasing order; ties at the cut go to the smallest indices
    (deterministic, and the rule of the path kernel, so that a path and its warm-started solves take the same
    steps)."""
    cut = np.partition(score, score.size - size)[score.size - size]
    above = np.flatnonzero(score > cut)
    ties = np.flatnonzero(score == cut)[: size - above.size]
    return np.sort(np.concatenate([above, ties]))


def _check_args(problem, tol, max_outer, max_epochs, ws_start, anderson, inner):
    check_problem(problem)
    tol = float(tol)
    if not (tol > 0 and math.isfinite(tol)):
        raise ValueError(f"tol must be a finite number > 0 (the duality gap relative to P at the null model), "
                         f"got {tol}")
    for name, value in (("max_outer", max_outer), ("max_epochs", max_epochs), ("ws_start", ws_start)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise ValueError(f"{name} must be an integer >= 1, got {value!r}")
    if isinstance(anderson, bool) or not isinstance(anderson, (int, np.integer)) or anderson < 0:
        raise ValueError(f"anderson must be an integer >= 0 (iterates combined; 0: no extrapolation), "
                         f"got {anderson!r}")
    if inner not in INNER:
        raise ValueError(f"inner must be one of {INNER}, got {inner!r}")
    if inner == "auto":
        inner = "cd" if problem.loss.code == SQUARED and problem.sample_weight is None else "newton"
    elif inner == "cd" and problem.sample_weight is not None:
        raise ValueError('inner="cd" solves the unweighted problem; a Problem with sample weights is solved by the '
                         'proximal Newton inner solver (inner="newton" or "auto")')
    return tol, int(max_outer), int(max_epochs), int(ws_start), int(anderson), inner


def _start(problem, setup, w0):
    if w0 is None:
        return np.zeros(problem.d)
    w = check_array(w0, "w0", shape=(problem.d,), like="the problem's d", copy=True)
    w[~setup.usable] = 0.0  # an empty column does not change C: its best value is 0
    return w


def _solve(setup: _Setup, lam, w0, tol, max_outer, max_epochs, ws_start, anderson, inner):
    p = setup.p
    t_start = time.perf_counter()
    lam_j = lam * setup.c
    w = _start(p, setup, w0)
    rec = TraceRecorder()
    gaps = []
    ws_sizes = []
    counts = np.zeros(4, dtype=np.int64)
    totals = {"epochs": 0, "extrapolations_accepted": 0, "extrapolations_tried": 0, "newton_steps": 0,
              "model_epochs": 0}
    steps = 0
    accesses = 0.0
    gradient_accesses = 0.0    # the part of ``accesses`` spent on the outer iterations' full gradients
    eligible = np.flatnonzero(setup.usable)
    target = tol * setup.p_null
    converged = False
    gap = math.inf
    stalled = False
    for outer in range(max_outer + 1):
        z = setup.margins(w)   # afresh from the support: no drift from the incremental updates
        dz = p.loss.deriv(z, p.y)
        grad = setup.gradient(w, z, dz)
        if w.any():            # X^T L'(z) and the support's columns; at w = 0 both are free
            cost = p.nnz + float(p.column_nnz[w != 0].sum())
            accesses += cost
            gradient_accesses += cost
        primal = p.smooth_from_margins(z) + float(lam_j @ np.abs(w))
        dual, _ = _dual(setup, lam_j, z, dz, grad)
        gap = primal - dual
        gaps.append(gap)
        rec.record(steps, accesses, primal, np.count_nonzero(w), time.perf_counter() - t_start)
        if gap <= target:
            converged = True
            break
        if outer == max_outer or stalled:
            break
        viol = _violations(w, grad, lam_j)
        viol[~setup.usable] = -1.0
        worst = float(viol.max())
        if worst <= 0.0:
            break  # optimal to rounding: the gap left is rounding in P and D
        support = np.flatnonzero(w)
        size = min(eligible.size, max(ws_start, 2 * support.size, setup.U.size + ws_start))
        score = viol.copy()
        score[support] = np.inf
        score[setup.U] = np.inf
        ws = eligible if size >= eligible.size else _largest(score, size)
        ws = ws.astype(np.int64)
        ws_sizes.append(int(ws.size))
        inner_tol = 0.3 * worst
        lam_ws = np.ascontiguousarray(lam_j[ws])
        if inner == "cd":
            inv_h = 1.0 / setup.h[ws]
            K.inner_cd(setup.code, setup.sparse, *setup.arrays, p.y, setup.xty, w, z, ws, lam_ws, inv_h,
                       max_epochs, inner_tol, anderson, 10, counts)
            totals["epochs"] += int(counts[0])
            totals["extrapolations_accepted"] += int(counts[1])
            totals["extrapolations_tried"] += int(counts[2])
            work = int(counts[0])
        else:
            K.inner_newton(setup.code, setup.sparse, *setup.arrays, p.y, setup.sw, w, z, ws, lam_ws, max_epochs,
                           50, inner_tol, anderson, counts)
            totals["newton_steps"] += int(counts[0])
            totals["model_epochs"] += int(counts[1])
            work = int(counts[0]) + int(counts[1])
        steps += work * ws.size
        accesses += int(counts[3]) * float(p.column_nnz[ws].sum())   # every pass over the working set's columns
        stalled = work == 0
    info = {"method": "working_set_cd", "inner": inner, "lam": lam, "tol": tol, "gap": gap,
            "gap_target": target, "converged": converged, "n_outer": len(ws_sizes), "gaps": np.array(gaps),
            "ws_sizes": ws_sizes, "n_iter": steps, "gradient_accesses": gradient_accesses, **totals}
    info["anderson"] = anderson
    return Result(w=w, trace=rec.finish(), info=info)


@solver_checked(problem=ANY_PROBLEM)
def working_set_cd(problem: Problem, tol: float = 1e-12, w0=None, max_outer: int = 100, max_epochs: int = 10_000,
                   ws_start: int = 10, anderson: int = 5, inner: str = "auto") -> Result:
    r"""Minimize P(w) = C(w) + lam sum_j c_j |w_j| (squared or logistic loss, dense or sparse) to a certified
    duality gap: coordinate descent with coordinate curvature on growing working sets, Anderson extrapolation,
    and a duality-gap stopping rule.  Beyond the papers (see the module docstring).

    Parameters
    ----------
    problem : Problem with the squared or the logistic loss and lam > 0 (its penalty weights are used; for the
        logistic loss, unpenalized coordinates must be intercept columns)
    tol : stop when the duality gap P(w) - D(u) is at most ``tol`` times P at the null model (P(0) when no
        coordinate is unpenalized); the gap bounds the sub-optimality, so ``P(w) - P* <= tol * P_null``.  The
        default is tight because coefficients are much less accurate than P where P is flat: on breast cancer a
        gap of 1e-8 still left errors of 1.5e-5 in w, 1e-12 left 2e-11
    w0 : warm start (default 0)
    max_outer : outer iterations (each: one full gradient, the gap, a working set and an inner solve)
    max_epochs : per inner solve: coordinate-descent epochs over the working set (inner ``"cd"``) or Newton
        steps (inner ``"newton"``, each with at most 50 model epochs)
    ws_start : the smallest working set
    anderson : K, the iterates combined by Anderson extrapolation every K epochs of inner ``"cd"``, and of the
        coordinate descent on each Newton model of inner ``"newton"`` (0: none)
    inner : "auto" (``"cd"`` for the squared loss, ``"newton"`` for the logistic loss and for a Problem with sample
        weights, which only ``"newton"`` takes), "cd" or "newton"

    Returns
    -------
    Result: ``w``; a trace with one record per outer iteration (cumulative coordinate updates, data accesses, P,
    nonzeros, wall seconds including the gap computations); ``info`` with ``gap`` (the certificate),
    ``gap_target``, ``converged``, ``gaps`` (every outer iteration's), ``ws_sizes``, the inner counts and
    ``gradient_accesses``, the data accesses of the full gradients and support columns alone.
    Data accesses count every entry of X read after the setup (whose one pass, for <x_j, y> and the curvatures,
    is not counted, as for :func:`l1lab.solvers.scd`): the full gradient and the support's columns of each
    outer iteration (both free at w = 0), and every pass over the working set's columns (epochs, optimality
    checks, extrapolations, the Newton models' curvatures and gradients).

    Examples
    --------
    >>> from l1lab import Problem, reference_solution
    >>> from l1lab.data import make_regression
    >>> X, y, _ = make_regression(200, 500, 5, seed=0)
    >>> problem = Problem(X, y, loss="squared", lam=0.05)
    >>> result = working_set_cd(problem, tol=1e-10)
    >>> result.info["converged"], bool(result.objective - reference_solution(problem)[1] <= result.info["gap"])
    (True, True)
    """
    tol, max_outer, max_epochs, ws_start, anderson, inner = _check_args(problem, tol, max_outer, max_epochs,
                                                                         ws_start, anderson, inner)
    if not problem.lam > 0:
        raise ValueError("working_set_cd needs lam > 0 (with lam = 0 there is no l1 problem and no bounded dual); "
                         "use a least-squares or logistic-regression solver")
    setup = _Setup(problem)
    return _solve(setup, problem.lam, w0, tol, max_outer, max_epochs, ws_start, anderson, inner)


@dataclass
class PathResult:
    """A regularization path: ``lams`` (decreasing), ``coefs`` of shape (d, n_lams) (column k solves lams[k],
    as scikit-learn's ``lasso_path``), the certified ``gaps`` and whether each solve ``converged``."""

    lams: np.ndarray
    coefs: np.ndarray
    gaps: np.ndarray
    converged: np.ndarray
    n_iter: np.ndarray


@solver_checked(problem=ANY_PROBLEM)
def regularization_path(problem: Problem, lams=None, n_lams: int = 100, eps: float = 1e-3, tol: float = 1e-12,
                        gram="auto", **options) -> PathResult:
    """Solutions of P along a decreasing grid of lam, each warm-started at the previous one (``problem.lam`` is
    not used).

    ``lams``: the grid (sorted in decreasing order), or None for ``n_lams`` values geometrically spaced from
    ``problem.lambda_max`` down to ``eps * lambda_max``, as ``sklearn.linear_model.lasso_path``.  ``tol`` and
    ``options`` go to every :func:`working_set_cd` solve.  Above lambda_max the null model is exact (gap 0).

    ``gram`` (squared loss, unweighted, inner ``"cd"``): work on the Gram matrix X^T X / m, as LassoCV's
    ``precompute="auto"`` (see :mod:`l1lab.solvers._path_kernels`): ``"auto"`` does for dense X with more rows
    than columns (and at most 4096 columns: G takes d^2 numbers), True always, False never.  The same algorithm
    and certificate; the steps differ from the column version's in rounding and in how often the inner solves check
    their violations (every third epoch, which is free on G, against every tenth), so its iterates differ within
    the tolerance.
    """
    if gram not in ("auto", True, False):
        raise ValueError(f"gram must be 'auto', True or False, got {gram!r}")
    check_problem(problem)
    lmax = problem.lambda_max
    if lams is None:
        if isinstance(n_lams, bool) or not isinstance(n_lams, (int, np.integer)) or n_lams < 1:
            raise ValueError(f"n_lams must be an integer >= 1, got {n_lams!r}")
        eps = float(eps)
        if not (0 < eps <= 1):
            raise ValueError(f"eps must be in (0, 1] (the smallest lam over lambda_max), got {eps}")
        if not lmax > 0:
            raise ValueError("lambda_max is 0 (the null model is optimal for every lam): no path to compute")
        lams = lmax * np.geomspace(1.0, eps, int(n_lams))
    else:
        lams = np.sort(check_array(lams, "lams"))[::-1]
        if lams.size == 0 or not np.all(np.isfinite(lams)) or np.any(lams <= 0):
            raise ValueError("lams must be a non-empty list of finite numbers > 0")
    tol, max_outer, max_epochs, ws_start, anderson, inner = _check_args(
        problem, tol, options.pop("max_outer", 100), options.pop("max_epochs", 10_000),
        options.pop("ws_start", 10), options.pop("anderson", 5), options.pop("inner", "auto"))
    if options:
        raise TypeError(f"regularization_path got unexpected keyword arguments {sorted(options)}")
    if gram is True and (problem.loss.code != SQUARED or inner != "cd"):
        raise ValueError(f"gram=True is the squared loss's path with inner='cd' (got the {problem.loss.name} loss, "
                         f"inner={inner!r}{', sample weights' if problem.sample_weight is not None else ''})")
    setup = _Setup(problem)
    coefs = np.zeros((problem.d, lams.size))
    gaps = np.zeros(lams.size)
    converged = np.zeros(lams.size, dtype=bool)
    n_iter = np.zeros(lams.size, dtype=np.int64)
    w = setup.null.copy()
    if setup.code == SQUARED and inner == "cd":
        # the whole path in one kernel: the same outer and inner iterations, without the per-iteration bookkeeping
        from ._path_kernels import path_squared
        above = lams >= lmax
        coefs[:, above] = w[:, None]
        converged[above] = True
        below = np.flatnonzero(~above)
        if below.size:
            Q = setup.Q if setup.Q is not None else np.zeros((problem.m, 0))
            XtQ = np.ascontiguousarray(setup.XtQ) if setup.XtQ is not None else np.zeros((problem.d, 0))
            sub = np.empty((problem.d, below.size))
            sub_gaps, sub_conv = np.empty(below.size), np.zeros(below.size, dtype=np.bool_)
            sub_iter = np.zeros(below.size, dtype=np.int64)
            use_gram = gram is True or (gram == "auto" and not setup.sparse and problem.m > problem.d <= 4096)
            if use_gram:
                G = (problem.X.T @ problem.X).toarray() if setup.sparse else problem._XT @ problem._XT.T
                G = np.ascontiguousarray(G / problem.m)
            else:
                G = np.zeros((0, 0))
            path_squared(setup.sparse, *setup.arrays, problem.y, setup.xty, setup.h, np.ascontiguousarray(setup.c,
                         dtype=np.float64), np.ascontiguousarray(Q), XtQ, np.ascontiguousarray(lams[below]), w,
                         tol * setup.p_null, max_outer, max_epochs, ws_start, anderson, G, sub, sub_gaps, sub_conv,
                         sub_iter)
            coefs[:, below], gaps[below], converged[below], n_iter[below] = sub, sub_gaps, sub_conv, sub_iter
        return PathResult(lams=lams, coefs=coefs, gaps=gaps, converged=converged, n_iter=n_iter)
    for k, lam in enumerate(lams):
        if lam >= lmax:
            w = setup.null.copy()
            coefs[:, k] = w
            converged[k] = True
            continue
        res = _solve(setup, float(lam), w, tol, max_outer, max_epochs, ws_start, anderson, inner)
        w = res.w
        coefs[:, k] = w
        gaps[k] = res.info["gap"]
        converged[k] = res.info["converged"]
        n_iter[k] = res.info["n_iter"]
    return PathResult(lams=lams, coefs=coefs, gaps=gaps, converged=converged, n_iter=n_iter)
