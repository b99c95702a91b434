r"""Coordinate descent for problem (5): stochastic (SCD, Algorithms 1-2 of Shalev-Shwartz & Tewari 2011),
cyclic, and greedy (GCD, the deterministic comparator of their Section 4).

Every variant makes the same coordinate step

.. math::  w_j \leftarrow s_{\lambda/\beta}\big(w_j - g_j/\beta\big), \qquad g_j = (\nabla C(w))_j,

and keeps the margins z = Xw up to date, so a step reads column j once to form g_j and once to update z:
its cost, and its count of data accesses, is the number of nonzeros of column j (m for dense data).
They differ only in how j is chosen: uniformly at random (``scd``), in the order 0, 1, ..., d-1, 0, ...
(``cyclic_cd``), or as the coordinate with the largest guaranteed decrease (``gcd``), which needs the
whole gradient and therefore reads all of X at every step.

With penalty weights (:class:`l1lab.Problem`'s ``penalty_weights``, e.g. 0 for an intercept column) the step
of coordinate j thresholds at lam c_j / beta instead: the same analysis, the penalty being separable.
``tol`` turns a fixed budget into a stopping rule: stop at the first checkpoint at which the relative optimality
residual (:meth:`l1lab.Problem.relative_residual`) is at most ``tol``.
"""
from __future__ import annotations

import time

import numpy as np

from ..problem import Problem
from ..trace import Result, TraceRecorder, log_checkpoints
from . import _cd_kernels as K
from ._checks import check_n_iter, check_positive, check_problem, solver_checked

STEPS = ("global", "coordinate")


def _step_curvatures(problem, beta, step):
    """The kernels' ``beta`` argument: one shared bound (``step="global"``, Algorithm 1) or one curvature per
    coordinate, beta_j = beta ||x_j||^2/m (``step="coordinate"``; an empty column gets 0 and is skipped)."""
    if step not in STEPS:
        raise ValueError(f"step must be one of {STEPS}, got {step!r}")
    if step == "global":
        return np.array([beta])
    b = beta * problem.column_sq_norms()
    # a length-1 array means "shared" to the kernels: pad it, so a single column is still checked for 0
    return b if b.size > 1 else np.r_[b, b]


def _check_common(problem, n_iter, n_checkpoints, beta, tol=None):
    check_problem(problem)
    if not problem.loss.smooth:
        raise ValueError(
            f"coordinate descent needs a loss with a bounded second derivative (condition (9)); "
            f"the {problem.loss.name} loss has none: use a mirror-descent solver instead")
    n_iter = check_n_iter(n_iter)
    beta = check_positive(problem.loss.beta if beta is None else beta, "beta")
    if tol is not None:
        tol = check_positive(tol, "tol (the relative optimality residual at which to stop)")
    return n_iter, beta, tol


class _Stopper:
    """The stopping rule of ``tol``: at a checkpoint at least ``gap`` iterations after the previous test (or
    the last one), stop once the relative optimality residual, computed from the maintained margins z (no
    extra pass over X), is at most ``tol``."""

    def __init__(self, problem, tol, gap):
        self.p, self.tol, self.gap = problem, tol, gap
        self.last = 0
        self.residual = None

    def done(self, state, it, final):
        if self.tol is None or (it - self.last < self.gap and not final):
            return False
        self.last = it
        self.residual = self.p.relative_residual(state.w, state.z)
        return self.residual <= self.tol

    def info(self):
        if self.tol is None:
            return {}
        return {"tol": self.tol, "residual": self.residual,
                "converged": self.residual is not None and self.residual <= self.tol}


class _CDState:
    """w, z = Xw and the kernel arguments for one problem."""

    def __init__(self, problem: Problem):
        self.p = problem
        self.w = np.zeros(problem.d)
        self.z = np.zeros(problem.m)
        self.code = problem.loss.code
        pw = problem.penalty_weights
        self.pw = np.zeros(0) if pw is None else pw  # empty: the shared threshold lam / beta
        # <x_j, y>/m, used by the squared-loss gradient g_j = <x_j, z>/m - <x_j, y>/m
        if problem.is_sparse:
            X = problem.X
            self.xty = np.asarray(X.T @ problem.y).ravel() / problem.m
            self.arrays = problem.csc_arrays()
        else:
            self.xty = problem._XT @ problem.y / problem.m
            self.arrays = (problem._XT,)

    def run(self, idx, lam, beta_vec):
        if self.p.is_sparse:
            K.cd_sparse(self.code, *self.arrays, self.p.y, self.xty, self.w, self.z, idx, lam, self.pw, beta_vec)
        else:
            K.cd_dense(self.code, *self.arrays, self.p.y, self.xty, self.w, self.z, idx, lam, self.pw, beta_vec)

    def run_greedy(self, n_steps, lam, beta):
        chosen = np.empty(n_steps, dtype=np.int64)
        if self.p.is_sparse:
            K.gcd_sparse(self.code, *self.arrays, self.p.y, self.xty, self.w, self.z, n_steps, lam, self.pw, beta,
                         chosen)
        else:
            K.gcd_dense(self.code, *self.arrays, self.p.y, self.xty, self.w, self.z, n_steps, lam, self.pw, beta,
                        chosen)
        return chosen

    def objective(self):
        return self.p.smooth_from_margins(self.z) + self.p.penalty(self.w)


def _run(problem, n_iter, n_checkpoints, beta, draw, method, seed, tol, step="global"):
    state = _CDState(problem)
    beta_vec = _step_curvatures(problem, beta, step)
    rec = TraceRecorder()
    rec.record(0, 0, state.objective(), 0, 0.0)
    cps = log_checkpoints(n_iter, n_checkpoints)
    stop = _Stopper(problem, tol, problem.d)  # test the residual (one gradient) at most once per epoch
    accesses = 0
    seconds = 0.0
    it = 0
    for a, b in zip(cps[:-1], cps[1:]):
        idx = draw(a, b)
        t0 = time.perf_counter()
        state.run(idx, problem.lam, beta_vec)
        seconds += time.perf_counter() - t0
        accesses += int(problem.column_nnz[idx].sum())
        it = int(b)
        rec.record(b, accesses, state.objective(), np.count_nonzero(state.w), seconds)
        if stop.done(state, it, b == n_iter):
            break
    info = {"method": method, "beta": beta, "step": step, "seed": seed, "n_iter": it if tol is not None else n_iter}
    info.update(stop.info())
    return Result(w=state.w, trace=rec.finish(), info=info)


@solver_checked()
def scd(problem: Problem, n_iter: int, seed=0, n_checkpoints: int = 60, beta=None, tol=None,
        step="global") -> Result:
    r"""Stochastic coordinate descent (Algorithms 1 and 2 of Shalev-Shwartz & Tewari 2011).

    Starting at w = 0, each iteration samples j uniformly from {0, ..., d-1} and sets
    w_j <- s_{lam/beta}(w_j - g_j/beta).  Theorem 1: E[P(w_T)] - P(w*) <= d Psi(0)/(T+1).

    Parameters
    ----------
    problem : Problem (squared or logistic loss)
    n_iter : number of coordinate steps T
    seed : seed of ``numpy.random.default_rng`` that draws the coordinate stream (reproducible; the same
        stream for dense and sparse storage of the same matrix)
    n_checkpoints : number of log-spaced trace records
    beta : coordinate-smoothness constant of condition (9); default ``problem.loss.beta`` (eq. (7)), valid
        for features in [-1, 1] by Lemma 6
    tol : None (default: run all ``n_iter`` steps) or a number > 0: stop at the first checkpoint, at least
        one epoch (d steps) after the previous test, at which ``problem.relative_residual(w) <= tol``; then
        ``n_iter`` is a maximum and ``info`` also holds ``n_iter`` (steps run), ``residual`` and ``converged``
    step : "global" (default: Algorithm 1, the step 1/beta for every coordinate) or "coordinate": coordinate j
        steps by 1/beta_j with its own curvature beta_j = beta ||x_j||^2/m, the exact coordinate minimizer for
        the squared loss (beyond the paper; Theorem 1 holds with the weighted potential
        :func:`l1lab.theory.shalev_shwartz_tewari.scd_coordinate_psi0`); empty columns are skipped

    Returns
    -------
    Result with ``w`` (= w_T) and the trace (iteration, data accesses, P, l0, seconds).

    Examples
    --------
    >>> from l1lab import Problem, reference_solution
    >>> from l1lab.data import make_classification
    >>> X, y, _ = make_classification(200, 30, 3, seed=0)
    >>> problem = Problem(X, y, loss="logistic", lam=0.02)
    >>> result = scd(problem, n_iter=30 * 200, seed=0)
    >>> p_star = reference_solution(problem)[1]
    >>> bool(result.objective - p_star < 1e-6), int(result.trace.iteration[-1])
    (True, 6000)
    """
    n_iter, beta, tol = _check_common(problem, n_iter, n_checkpoints, beta, tol)
    rng = np.random.default_rng(seed)
    return _run(problem, n_iter, n_checkpoints, beta,
                lambda a, b: rng.integers(0, problem.d, size=b - a, dtype=np.int64), "scd", seed, tol, step)


@solver_checked()
def cyclic_cd(problem: Problem, n_iter: int, n_checkpoints: int = 60, beta=None, tol=None,
              step="global") -> Result:
    """Cyclic coordinate descent: the update of Algorithm 1 with j = t mod d (deterministic).  ``tol`` and
    ``step``: as in :func:`scd`."""
    n_iter, beta, tol = _check_common(problem, n_iter, n_checkpoints, beta, tol)
    return _run(problem, n_iter, n_checkpoints, beta,
                lambda a, b: np.arange(a, b, dtype=np.int64) % problem.d, "cyclic_cd", None, tol, step)


@solver_checked()
def gcd(problem: Problem, n_iter: int, n_checkpoints: int = 30, beta=None, tol=None, step="global") -> Result:
    r"""Greedy coordinate descent, the deterministic comparator of Section 4.

    Each iteration computes the full gradient (reading every entry of X) and updates the coordinate whose
    step has the largest guaranteed decrease
    -(g_j eta_j + beta eta_j^2/2 + lam(|w_j + eta_j| - |w_j|)), eta_j = s_{lam/beta}(w_j - g_j/beta) - w_j,
    the lower bound that condition (9) gives.  Data accesses per iteration: nnz(X) + nnz(column j).
    ``tol``: the stopping rule of :func:`scd`, tested at every checkpoint (a GCD step already reads all of X).
    ``step="coordinate"``: every beta above becomes coordinate j's own curvature beta_j = beta ||x_j||^2/m, in the
    step and in the guaranteed decrease that picks it (empty columns are never picked).
    """
    n_iter, beta, tol = _check_common(problem, n_iter, n_checkpoints, beta, tol)
    beta_vec = _step_curvatures(problem, beta, step)
    state = _CDState(problem)
    rec = TraceRecorder()
    rec.record(0, 0, state.objective(), 0, 0.0)
    cps = log_checkpoints(n_iter, n_checkpoints)
    stop = _Stopper(problem, tol, 1)
    accesses = 0
    seconds = 0.0
    it = 0
    for a, b in zip(cps[:-1], cps[1:]):
        t0 = time.perf_counter()
        chosen = state.run_greedy(int(b - a), problem.lam, beta_vec)
        seconds += time.perf_counter() - t0
        accesses += int((b - a) * problem.nnz + problem.column_nnz[chosen].sum())
        it = int(b)
        rec.record(b, accesses, state.objective(), np.count_nonzero(state.w), seconds)
        if stop.done(state, it, b == n_iter):
            break
    info = {"method": "gcd", "beta": beta, "step": step, "n_iter": it if tol is not None else n_iter}
    info.update(stop.info())
    return Result(w=state.w, trace=rec.finish(), info=info)
