"""What a run records, and the one result type every solver returns.

A :class:`Trace` holds, at each checkpoint, the iteration count, the cumulative number of data accesses
(entries x_ij read: the x-axis of Shalev-Shwartz & Tewari's figures), the objective P(w), the number of
nonzeros of w (its l0 "norm") and the solver's elapsed seconds (kernel time only: recording is excluded).
Checkpoints are log-spaced in iterations and depend only on ``n_iter`` and ``n_checkpoints``, so runs with
different seeds share them and can be averaged point by point.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ._validate import check_array, check_count, check_index_array, check_real, check_reals

__all__ = ["Result", "Trace", "TraceRecorder", "best_found", "hitting_steps", "log_checkpoints"]


def log_checkpoints(n_iter: int, n_checkpoints: int = 60) -> np.ndarray:
    """Iteration counts 0 < ... < n_iter, roughly log-spaced, always including 0 and ``n_iter``."""
    n_iter = check_count(n_iter, "n_iter")
    n_checkpoints = check_count(n_checkpoints, "n_checkpoints", minimum=2)
    if n_iter == 0:
        return np.zeros(1, dtype=np.int64)
    pts = np.unique(np.round(np.logspace(0.0, np.log10(n_iter), n_checkpoints - 1)).astype(np.int64))
    return np.concatenate(([0], pts[(pts > 0) & (pts < n_iter)], [n_iter])).astype(np.int64)


@dataclass
class Trace:
    """Checkpoint records of one run.  All arrays have the same length."""

    iteration: np.ndarray
    data_accesses: np.ndarray
    objective: np.ndarray
    nnz: np.ndarray
    seconds: np.ndarray
    flops: np.ndarray | None = None  # approximate floating-point operations (solvers that count them)

    def gap(self, p_star: float) -> np.ndarray:
        """Sub-optimality P(w_t) - P* at every checkpoint."""
        return self.objective - p_star

    def __len__(self):
        return len(self.iteration)


class TraceRecorder:
    """Collects checkpoint records; solvers call :meth:`record` between kernel chunks."""

    def __init__(self):
        self._rows = []

    def record(self, iteration, data_accesses, objective, nnz, seconds, flops=None):
        """One checkpoint: counts, and the objective P(w) (inf or NaN for a diverged run: recorded as such)."""
        self._rows.append((check_count(iteration, "iteration"), check_real(data_accesses, "data_accesses", low=0.0),
                           check_real(objective, "objective", allow_inf=True, allow_nan=True),
                           check_count(nnz, "nnz"), check_real(seconds, "seconds", low=0.0),
                           np.nan if flops is None else check_real(flops, "flops", low=0.0)))

    def finish(self) -> Trace:
        it, acc, obj, nnz, sec, fl = (np.array(c) for c in zip(*self._rows))
        return Trace(iteration=it.astype(np.int64), data_accesses=acc, objective=obj,
                     nnz=nnz.astype(np.int64), seconds=sec, flops=None if np.all(np.isnan(fl)) else fl)


@dataclass
class Result:
    """The output of every l1lab solver: the final iterate ``w``, its ``trace`` and solver ``info``."""

    w: np.ndarray
    trace: Trace
    info: dict = field(default_factory=dict)

    @property
    def objective(self) -> float:
        """P(w) of the final iterate."""
        return float(self.trace.objective[-1])


# ------------------------------------------------------------------------------------ queries on records
def best_found(nnz, excess, s_values):
    r"""For every s of ``s_values``: the smallest ``excess`` among the records whose ``nnz`` is at most s (inf if
    none): the best s-sparse point a run visited.  ``nnz`` and ``excess`` are 1-d (one run) or 2-d (one run per
    row; then one row of results per run)."""
    nnz = check_index_array(nnz, "nnz", ndim=(1, 2))
    excess = check_array(excess, "excess", ndim=(1, 2), shape=nnz.shape, finite=False, like="nnz")  # inf: diverged
    s_values = check_index_array(s_values, "s_values", ndim=(0, 1))
    one = nnz.ndim == 1
    nnz, excess, s_values = np.atleast_2d(nnz), np.atleast_2d(excess), np.atleast_1d(s_values)
    out = np.full((nnz.shape[0], s_values.size), np.inf)
    for i in range(nnz.shape[0]):
        order = np.argsort(nnz[i], kind="stable")
        sorted_nnz = nnz[i][order]
        running = np.minimum.accumulate(excess[i][order])
        k = np.searchsorted(sorted_nnz, s_values, side="right")   # records with nnz <= s: the first k
        out[i] = np.where(k > 0, running[np.maximum(k - 1, 0)], np.inf)
    return out[0] if one else out


def hitting_steps(iteration, excess, eps):
    r"""Steps a run needed to reach ``excess <= eps``, from records at checkpoints: returns (lo, hi), where hi is
    the first checkpoint with excess <= eps and lo = (previous checkpoint) + 1, so the true first step lies in
    [lo, hi]; both nan if the run never reached eps.  ``eps`` may be an array (one pair of arrays then)."""
    iteration = check_index_array(iteration, "iteration")
    excess = check_array(excess, "excess", shape=iteration.shape, finite=False, like="iteration")  # inf: diverged
    eps = np.atleast_1d(np.asarray(check_reals(eps, "eps", low=0.0, low_open=True), dtype=np.float64))
    lo = np.full(eps.shape, np.nan)
    hi = np.full(eps.shape, np.nan)
    for k, e in enumerate(eps):
        idx = np.nonzero(excess <= e)[0]
        if idx.size:
            i = idx[0]
            hi[k] = iteration[i]
            lo[k] = iteration[i - 1] + 1 if i > 0 else iteration[i]
    return lo, hi
