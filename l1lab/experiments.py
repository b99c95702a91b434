"""Many seeds of one solver on one problem, aligned checkpoint by checkpoint.

The theorems of the book bound an *expectation* over the algorithm's own randomness, e.g. Theorem 1 of
Shalev-Shwartz & Tewari (2011) bounds E[P(w_T)] - P*.  :func:`run_seeds` runs a solver once per seed and
stacks the traces into a :class:`SeedRuns`, whose :meth:`SeedRuns.gap_summary` gives the empirical mean (the
estimate of the expectation) and the min and max over seeds (the band the figures draw).

Every l1lab solver records its trace at checkpoints that depend only on ``n_iter`` and ``n_checkpoints``,
so runs with different seeds share them; :class:`SeedRuns` checks this and refuses to average otherwise.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable, Sequence

import numpy as np

from .trace import Result

__all__ = ["GapSummary", "SeedRuns", "run_seeds"]


@dataclass
class GapSummary:
    """Sub-optimality P(w_t) - P* over seeds at each checkpoint: mean, min and max (each of length n_cp)."""

    iteration: np.ndarray
    mean: np.ndarray
    min: np.ndarray
    max: np.ndarray


@dataclass
class SeedRuns:
    """The traces of one solver run with several seeds, as matrices (one row per seed).

    Attributes
    ----------
    iteration : (n_cp,) int array, the checkpoints shared by every seed
    data_accesses, objective, nnz, seconds : (n_seeds, n_cp) arrays
    seeds : the seeds, in row order
    w : (n_seeds, d) array of the final iterates
    info : solver information of the first run (method, beta, ...)
    """

    iteration: np.ndarray
    data_accesses: np.ndarray
    objective: np.ndarray
    nnz: np.ndarray
    seconds: np.ndarray
    seeds: tuple
    w: np.ndarray
    info: dict = field(default_factory=dict)

    @classmethod
    def from_results(cls, results: Sequence[Result], seeds: Iterable | None = None) -> "SeedRuns":
        """Stack solver results; raises ValueError unless every trace has the same iteration checkpoints."""
        results = list(results)
        if not results:
            raise ValueError("need at least one result (got an empty list of seeds?)")
        seeds = tuple(range(len(results))) if seeds is None else tuple(seeds)
        if len(seeds) != len(results):
            raise ValueError(f"got {len(results)} results but {len(seeds)} seeds")
        it0 = np.asarray(results[0].trace.iteration)
        for s, r in zip(seeds, results):
            it = np.asarray(r.trace.iteration)
            if it.shape != it0.shape or not np.array_equal(it, it0):
                raise ValueError(
                    f"the run with seed {s!r} was recorded at different iteration checkpoints than the run with "
                    f"seed {seeds[0]!r} ({len(it)} vs {len(it0)} checkpoints); runs can only be averaged point by "
                    "point when they share n_iter and n_checkpoints")

        def stack(name):
            return np.vstack([np.asarray(getattr(r.trace, name)) for r in results])

        return cls(iteration=it0.copy(), data_accesses=stack("data_accesses"), objective=stack("objective"),
                   nnz=stack("nnz"), seconds=stack("seconds"), seeds=seeds,
                   w=np.vstack([np.asarray(r.w, dtype=np.float64) for r in results]),
                   info=dict(results[0].info))

    @property
    def n_seeds(self) -> int:
        return self.objective.shape[0]

    def __len__(self):
        return len(self.iteration)

    def gap(self, p_star: float) -> np.ndarray:
        """The (n_seeds, n_cp) matrix of sub-optimalities P(w_t) - P*, unclipped (it may hold tiny negatives
        when a run matches P* to rounding)."""
        return self.objective - float(p_star)

    def gap_summary(self, p_star: float) -> GapSummary:
        """Mean, min and max of P(w_t) - P* over seeds at every checkpoint."""
        g = self.gap(p_star)
        return GapSummary(iteration=self.iteration.copy(), mean=g.mean(axis=0), min=g.min(axis=0),
                          max=g.max(axis=0))


def run_seeds(solver: Callable[..., Result], problem, seeds, **kwargs) -> SeedRuns:
    """Run ``solver(problem, seed=s, **kwargs)`` for every seed ``s`` and stack the traces.

    ``seeds`` is an iterable of seeds or an int n (meaning seeds 0, ..., n-1).  Keyword arguments (``n_iter``,
    ``n_checkpoints``, ``beta``, ...) are passed unchanged to every run, so the checkpoints agree; a
    ValueError is raised if they do not.

    >>> import l1lab
    >>> from l1lab.datasets import make_regression
    >>> X, y, _ = make_regression(50, 10, 3)
    >>> runs = run_seeds(l1lab.solvers.scd, l1lab.Problem(X, y, lam=1e-2), seeds=3, n_iter=100)
    >>> runs.objective.shape[0]
    3
    """
    if isinstance(seeds, (int, np.integer)):
        if seeds < 1:
            raise ValueError(f"need at least one seed, got {seeds}")
        seeds = range(int(seeds))
    seeds = tuple(seeds)
    if not seeds:
        raise ValueError("need at least one seed")
    if "seed" in kwargs:
        raise ValueError("pass the seeds through `seeds`, not `seed`")
    results = [solver(problem, seed=s, **kwargs) for s in seeds]
    return SeedRuns.from_results(results, seeds)
