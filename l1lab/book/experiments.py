r"""The figures, widgets and claim checks of the chapter "The experiments of Section 4" (Section 4, Table 1 and
Figures 1-8 of Shalev-Shwartz & Tewari 2011).

Same three layers as :mod:`l1lab.book.scd`: cached *data* (the sweep), *figure* functions returning a
``matplotlib.figure.Figure`` not managed by pyplot, and *widgets* (ipywidgets imported inside them).

* :func:`paper_datasets` -- DUKE, ARCENE, MAGIC04S and MAGIC04D, downloaded and verified when the network allows,
  otherwise the labelled offline stand-ins of :mod:`l1lab.data.real` (never silently);
* :func:`experiment_data` -- the sweep of Section 4: SCD, GCD, SMIDAS and TruncGrad on every data set for
  lambda in {1e-6, 1e-2}, logistic loss, the step size of SMIDAS and TruncGrad chosen on a grid by the smallest
  final objective (one run, seed 0), then ``n_seeds`` seeds at the chosen step size.  Every run is cached on
  disk by :func:`l1lab.experiments.run_sweep`, so a rebuild reruns nothing;
* :func:`experiment_figure` / :func:`experiment_demo` -- the paper's Figures 1-8: the regularized objective and
  the l0 norm of the iterate against data accesses, with the data set actually used named on the figure;
* :func:`experiment_player` -- the demo precomputed by :func:`l1lab.book.static.static_player` over
  :data:`EXPERIMENT_STATIC` (one figure, the step sizes around the chosen ones), for the HTML book without a
  kernel;
* :func:`eta_figure` -- the final objective against the step size for SMIDAS and TruncGrad, with the chosen step
  size and the paper's Table 1;
* :func:`figure_stats`, :data:`CLAIMS`, :func:`evaluate_claims`, :func:`claims_markdown`,
  :func:`format_claims` -- the qualitative claims of Section 4.3, each made an explicit numeric criterion and
  marked held / not held / undecided on the sweep.

How the claims are measured
---------------------------
Every claim is read off one or more of the eight figures (a data set and a lambda), at the **common budget**
N, the smallest final number of data accesses of the four algorithms (all four are given the same number of
passes over X, so they end within about 1 % of each other; a checkpoint up to 1.01 N counts as "at N").  For
an algorithm A, with P_A(t) the mean over seeds of the objective after t data accesses:

* the **excess** e_A = (P_A(N) - P_low) / (P(0) - P_low), where P(0) = log 2 is the objective at w = 0 and
  P_low the **lowest value seen**, the smallest mean objective any of the four reaches on the figure by N (not the
  minimum P*, which the runs need not reach).  It is the distance to the best value seen, as a fraction of the
  whole descent, and is what a linear y-axis shows (the paper's figures and ours).  A is **better** than B if
  e_B - e_A > ``tie`` (0.02), **about the same** if \|e_A - e_B\| <= ``tie``,
  **slightly better** if ``tie`` < e_B - e_A <= ``much`` (0.10) and **much better** if e_B - e_A > ``much``;
* the **time to the minimum** r_A: the first data-access count at which P_A(t) - P* <= ``target`` (0.01) times
  P(0) - P*, with **the minimum** P* = min P computed by :meth:`ExperimentData.optimum`; infinite if it never does
  by N ("quicker to reach the minimum").  It needs P*, which the figures have at lambda = 1e-2 (where the paper's
  claims about reaching the minimum are made; at 1e-6 the stand-ins are separable and P* is not computed).  A
  claim about who reaches the minimum first is **undecided** when none of the algorithms it compares does by N.
  (Measured against P_low instead, whoever ends lowest would "reach the minimum" by construction.)
* **early**: the same quantities at ``early`` * N (0.1 N), the last checkpoint at or before it;
* the **sparsity** l0_A: the mean over seeds of the number of nonzeros of the iterate at N (the trace's count,
  which is what the paper plots; SMIDAS's tiny-but-nonzero weights count).  A is **sparser** than B if
  l0_A <= ``sparser`` (0.9) * l0_B.

The thresholds are :data:`CRITERIA`; :func:`evaluate_claims` accepts others.
"""
from __future__ import annotations

import math
import os
import re
import textwrap
import warnings
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import scipy.sparse as sp
from matplotlib.figure import Figure

from ..data.real import PAPER_DATASETS, Dataset, load_paper_datasets
from ..experiments import (
    PAPER_ETA_GRID,
    PAPER_LAMS,
    PAPER_SOLVERS,
    PAPER_TABLE1,
    SeedRuns,
    Sweep,
    format_eta_table,
    run_sweep,
)
from ..solvers import reference_solution
from . import style as _style
from .controls import check_choice, check_range, wire
from .live import figure_axes
from .plotting import plot_objective_and_nnz
from .static import static_player

__all__ = [
    "ALGORITHM_COLORS", "CLAIMS", "CRITERIA", "Claim", "ClaimResult", "EXPERIMENT_DEFAULTS", "EXPERIMENT_LIMITS",
    "EXPERIMENT_STATIC", "ExperimentData", "FIGURES", "FigureStats", "MIN_FONT", "SOLVER_NAMES", "claims_markdown",
    "cyclic_sweep", "data_note", "effective_markdown", "effective_nnz", "eta_figure", "eta_markdown",
    "evaluate_claims", "experiment_data", "experiment_demo", "experiment_figure", "experiment_player", "figure_stats",
    "format_claims", "known_optimum", "lecture_markdown", "lecture_numbers", "optimum_markdown", "overview_figure",
    "paper_datasets",
    "prepare_dataset",
]

#: The paper's figure number of each (data set, lambda).
FIGURES = {("duke", 1e-6): 1, ("arcene", 1e-6): 2, ("magic04s", 1e-6): 3, ("magic04d", 1e-6): 4,
           ("duke", 1e-2): 5, ("arcene", 1e-2): 6, ("magic04s", 1e-2): 7, ("magic04d", 1e-2): 8}
#: How the chapter names the solvers of :data:`l1lab.experiments.PAPER_SOLVERS`.
SOLVER_NAMES = {"scd": "SCD", "gcd": "GCD", "smidas": "SMIDAS", "truncgrad": "TruncGrad"}
#: Colours (SCD and GCD as in the SCD chapter, SMIDAS as in the SMIDAS chapter).
ALGORITHM_COLORS = {name: _style.ALGORITHM_COLORS[name] for name in ("SCD", "GCD", "SMIDAS", "TruncGrad")}

#: The chapter's budget: passes over X per run (epochs * nnz(X) data accesses for every algorithm), seeds at the
#: chosen step size, trace checkpoints per run, and the step-size grid (1 and 5 times every power of ten from
#: 1e-6 to 10: it contains every value of Table 1).
EXPERIMENT_DEFAULTS = dict(epochs=30.0, n_seeds=3, n_checkpoints=30, etas=PAPER_ETA_GRID)
#: Ranges the figure functions and the demo accept (a larger budget is a job for run_sweep itself).
EXPERIMENT_LIMITS = dict(epochs=(0.05, 100.0), n_seeds=(1, 5), n_checkpoints=(4, 60))
#: The static player of the demo: the figure the chapter's question is about (DUKE, lambda = 1e-2, the paper's
#: Figure 5; the live demo starts there too), and for each of SMIDAS and TruncGrad the chosen step size and
#: ``eta_neighbours`` grid values on each side of it (the step sizes depend on the sweep, so the player reads
#: them from the demo's sliders; ``grid`` may list them).  The data set and lambda stay fixed: the live widget
#: resets both step sizes to the chosen ones when they move, which a precomputed grid cannot follow, and every
#: other step size runs its seeds on demand.
EXPERIMENT_STATIC = dict(dataset="duke", lam=1e-2, eta_neighbours=1, grid=dict(dataset=("duke",), lam=(1e-2,)),
                         name="experiments-runs")

#: Thresholds of the claim criteria (see the module docstring).
CRITERIA = dict(tie=0.02, much=0.10, target=0.01, early=0.1, sparser=0.9, dense=0.5, almost_dense=0.9, few=0.1)

_LAM_NAMES = {1e-6: "less regularization", 1e-2: "more regularization"}


def _lam_text(lam) -> str:
    k = math.log10(lam) if lam > 0 else None
    if k is not None and abs(k - round(k)) < 1e-9:
        return f"1e{int(round(k))}"
    return f"{lam:g}"


def _same(a, b) -> bool:
    return a is not None and b is not None and math.isclose(float(a), float(b), rel_tol=1e-9, abs_tol=0.0)


def _lookup(table, dataset, lam):
    """``table[(dataset, lam)]`` with lam compared to a relative 1e-9; None if absent."""
    return next((v for (ds, lm), v in table.items() if ds == dataset and _same(lm, lam)), None)


def _lookup_lam(table, lam):
    return next((v for lm, v in table.items() if _same(lm, lam)), None)


# ---------------------------------------------------------------------------------------------- data sets
def prepare_dataset(ds: Dataset) -> Dataset:
    """``ds`` itself, or a copy stored as CSR when it is dense in memory but less than 90 % nonzero (ARCENE).

    The coordinate solvers count a column of a dense array as m data accesses, zeros included, while the
    example solvers always count nonzeros; sparse storage makes every algorithm pay for nonzeros only, as the
    paper counts ("the example matrix contains 5.4 x 10^5 non-zero entries").  No value changes.
    """
    if sp.issparse(ds.X) or ds.density >= 0.9:
        return ds
    return Dataset(name=ds.name, X=sp.csr_matrix(ds.X), y=ds.y, label=ds.label, offline=ds.offline,
                   source=ds.source, info=dict(ds.info, storage="CSR (dense array converted, zeros dropped)"))


_DATASETS_CACHE: dict = {}


def paper_datasets(names=PAPER_DATASETS, download=True, timeout=10.0) -> dict:
    """``{name: Dataset}`` of the paper's data sets: the real files (downloaded, SHA-256 verified and cached
    by :func:`l1lab.data.real.load_dataset`) when they can be had, otherwise the labelled offline stand-ins
    (``offline=True``, label "offline stand-in for ...").  Never raises for a missing network.

    ``download=False`` (or ``$L1LAB_OFFLINE``) uses cached files only.  Without network a host fails at once
    (name resolution) or after ``timeout`` seconds, once per host and process, so an offline build waits at
    most twice.  Why a data set was replaced is kept in ``info["unavailable"]``.  Cached per process.
    """
    names = tuple(str(n).lower() for n in names)
    key = (names, bool(download), float(timeout))
    if key not in _DATASETS_CACHE:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            loaded = load_paper_datasets(names, allow_offline=True, download=download, timeout=timeout)
        why = {}
        for w in caught:
            msg = str(w.message)
            for n in names:
                if msg.startswith(f"{n.upper()} is unavailable"):
                    why[n] = msg
                    break
            else:
                warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
        out = {}
        for n, ds in loaded.items():
            if n in why:
                ds.info = dict(ds.info, unavailable=why[n])
            out[n] = prepare_dataset(ds)
        _DATASETS_CACHE[key] = out
    return dict(_DATASETS_CACHE[key])


# ---------------------------------------------------------------------------------------------- the sweep
@dataclass
class ExperimentData:
    """The sweep behind the chapter.

    Attributes
    ----------
    tuning : :class:`l1lab.experiments.Sweep` of every solver, data set, lambda and (SMIDAS, TruncGrad) step
        size of the grid, seed 0 -- the runs the step size is chosen on
    final : Sweep of SCD, SMIDAS and TruncGrad (at the chosen step sizes) with seeds 0, ..., n_seeds - 1, and
        GCD (deterministic, one run): what the figures and the claims use
    chosen : {(data set, lambda, solver): eta} chosen on ``tuning`` (:meth:`Sweep.best_eta`)
    datasets : {name: Dataset} (None when built from sweeps alone; then runs at other step sizes than the
        grid's are unavailable)
    optima : {(data set, lambda): (P*, ||w*||_0)} known in advance (:meth:`optimum` computes the others from the
        data sets)
    """

    tuning: Sweep
    final: Sweep
    chosen: dict
    datasets: dict | None = None
    epochs: object = None
    n_seeds: int = 1
    n_checkpoints: int = 30
    etas: tuple = PAPER_ETA_GRID
    cache_dir: object = None
    optima: dict = field(default_factory=dict)
    _extra: dict = field(default_factory=dict, repr=False)

    @classmethod
    def from_sweeps(cls, tuning: Sweep, final: Sweep | None = None, **kw) -> "ExperimentData":
        """Wrap a tuning sweep (and optionally the multi-seed runs at the chosen step sizes)."""
        chosen = {k: e for k, (e, _edge) in tuning.chosen_etas().items()}
        return cls(tuning=tuning, final=tuning if final is None else final, chosen=chosen, **kw)

    @property
    def names(self) -> tuple:
        return tuple(self.tuning.datasets)

    @property
    def lams(self) -> tuple:
        return tuple(sorted({r.task.lam for r in self.tuning.records}))

    def label(self, dataset) -> str:
        return self.tuning.label(dataset)

    def offline(self, dataset) -> bool:
        return bool(self.tuning.datasets[dataset]["offline"])

    def d(self, dataset) -> int:
        return int(self.tuning.datasets[dataset]["shape"][1])

    def grid(self, dataset, solver, lam) -> list:
        """The step sizes the tuning sweep ran for (dataset, solver, lam)."""
        return self.tuning.etas(dataset, solver, lam)

    def eta(self, dataset, solver, lam) -> float:
        """The step size chosen on the grid."""
        for (ds, lm, s), e in self.chosen.items():
            if ds == dataset and s == solver and _same(lm, lam):
                return e
        raise ValueError(f"no step size was chosen for {solver!r} on {dataset!r} with lam={lam:g}")

    def check(self, dataset, lam):
        """ValueError unless (dataset, lam) is in the sweep."""
        check_choice("dataset", dataset, self.names)
        if not any(_same(lam, v) for v in self.lams):
            raise ValueError(f"lam must be one of {self.lams}, got {lam!r}")

    def runs(self, dataset, solver, lam, eta=None) -> SeedRuns:
        """The runs of one algorithm on one figure, stacked over seeds.  ``eta=None`` is the chosen step size
        (its ``n_seeds`` runs); another step size of the grid is run with the same seeds on demand (seed 0
        comes from the tuning sweep, the others from the disk cache or are computed now)."""
        self.check(dataset, lam)
        check_choice("solver", solver, PAPER_SOLVERS)
        if solver in ("scd", "gcd"):
            if eta is not None:
                raise ValueError(f"{SOLVER_NAMES[solver]} has no step size")
            return self.final.runs(dataset, solver, lam)
        chosen = self.eta(dataset, solver, lam)
        if eta is None or _same(eta, chosen):
            return self.final.runs(dataset, solver, lam, chosen)
        grid = self.grid(dataset, solver, lam)
        if not any(_same(eta, g) for g in grid):
            raise ValueError(f"eta={eta!r} is not on the grid of {SOLVER_NAMES[solver]} "
                             f"({', '.join(f'{g:g}' for g in grid)})")
        key = (dataset, solver, float(lam), float(eta))
        if key not in self._extra:
            if self.datasets is None or self.n_seeds == 1:
                self._extra[key] = self.tuning.runs(dataset, solver, lam, eta)
            else:
                sw = run_sweep(self.datasets[dataset], solvers=(solver,), lams=(lam,), etas=(eta,),
                               seeds=self.n_seeds, epochs=self.epochs, n_checkpoints=self.n_checkpoints,
                               cache_dir=self.cache_dir, progress=False)
                self._extra[key] = sw.runs(dataset, solver, lam, eta)
        return self._extra[key]

    def optimum(self, dataset, lam) -> tuple:
        """(P*, ||w*||_0) of the problem on ``dataset`` with ``lam``: given in :attr:`optima`, or from
        :func:`l1lab.solvers.reference_solution` (relative optimality residual 1e-8).  Cached.  Needs the data sets
        unless given."""
        self.check(dataset, lam)
        given = _lookup(self.optima, dataset, lam)
        if given is not None:
            return float(given[0]), int(given[1])
        if self.datasets is None:
            raise ValueError("this ExperimentData has no data sets (built from sweeps alone): no optimum")
        key = ("optimum", dataset, float(lam))
        if key not in self._extra:
            w, p = reference_solution(self.datasets[dataset].problem(lam), tol=1e-8)
            self._extra[key] = (float(p), int(np.count_nonzero(w)))
        return self._extra[key]

    def eta_table(self) -> str:
        """The chosen step sizes beside Table 1 (:func:`l1lab.experiments.format_eta_table`)."""
        return format_eta_table(self.tuning)

    @property
    def n_runs(self) -> int:
        """The number of distinct runs (the tuning runs at the chosen step sizes are reused as seed 0)."""
        return len({r.key for r in self.tuning.records} | {r.key for r in self.final.records})

    @property
    def n_cached(self) -> int:
        return self.tuning.n_cached + self.final.n_cached

    @property
    def n_computed(self) -> int:
        return self.tuning.n_computed + self.final.n_computed


_DATA_CACHE: dict = {}


def _check_budget(epochs, n_seeds, n_checkpoints):
    lim = EXPERIMENT_LIMITS
    for e in (epochs.values() if isinstance(epochs, dict) else (epochs,)):
        check_range("epochs", float(e), lim)
    check_range("n_seeds", int(n_seeds), lim)
    check_range("n_checkpoints", int(n_checkpoints), lim)


def _default_jobs(datasets) -> int:
    """Two processes for the small stand-ins; one for the real data (MAGIC04D alone is 150 MB dense, and every
    worker builds its own copy)."""
    total = sum(ds.nnz for ds in datasets.values())
    return max(1, min(2, os.cpu_count() or 1)) if total <= 5_000_000 else 1


def experiment_data(epochs=30.0, n_seeds=3, n_checkpoints=30, etas=PAPER_ETA_GRID, datasets=None, lams=PAPER_LAMS,
                    cache_dir=None, n_jobs=None, progress=None, download=True) -> ExperimentData:
    """Run (or read from the disk cache) the experiments of Section 4.

    1. ``tuning``: SCD, GCD, SMIDAS and TruncGrad on every data set (``datasets``, default
       :func:`paper_datasets`), for every lambda of ``lams``, the logistic loss, SMIDAS and TruncGrad for every
       step size of ``etas``, one run each (seed 0), ``epochs`` passes over X each (the same budget in data
       accesses for all four algorithms; a dict gives one budget per data set).
    2. The step size with the smallest final objective is chosen per (data set, lambda, solver), as Section 4.2
       did, and SCD, SMIDAS and TruncGrad at the chosen step sizes run seeds 0, ..., ``n_seeds`` - 1 (seed 0 is
       the tuning run).  GCD is deterministic and runs once.

    Results are cached on disk (``cache_dir``, default ``$L1LAB_SWEEP_CACHE`` or ``~/.cache/l1lab/sweeps``)
    and in this process, so a second call costs nothing.  ``n_jobs=None`` uses two processes for the small
    offline stand-ins and one for the real data.
    """
    _check_budget(epochs, n_seeds, n_checkpoints)
    etas = tuple(float(e) for e in etas)
    lams = tuple(float(v) for v in lams)
    if datasets is None:
        datasets = paper_datasets(download=download)
    datasets = {k: prepare_dataset(v) for k, v in (datasets.items() if isinstance(datasets, dict)
                                                   else ((ds.name, ds) for ds in datasets))}
    ep_key = tuple(sorted(epochs.items())) if isinstance(epochs, dict) else float(epochs)
    key = (ep_key, int(n_seeds), int(n_checkpoints), etas, lams, str(cache_dir),
           tuple((k, v.fingerprint) for k, v in datasets.items()))
    if key in _DATA_CACHE:
        return _DATA_CACHE[key]
    jobs = _default_jobs(datasets) if n_jobs is None else int(n_jobs)
    common = dict(epochs=epochs, n_checkpoints=int(n_checkpoints), cache_dir=cache_dir, n_jobs=jobs,
                  progress=progress)
    tuning = run_sweep(list(datasets.values()), solvers=PAPER_SOLVERS, lams=lams, etas=etas, seeds=(0,), **common)
    chosen = {k: e for k, (e, _edge) in tuning.chosen_etas().items()}
    records, n_cached, n_computed = [], 0, 0
    for name, ds in datasets.items():
        for lam in lams:
            sw = run_sweep(ds, solvers=PAPER_SOLVERS, lams=(lam,), seeds=int(n_seeds),
                           etas={s: (chosen[(name, lam, s)],) for s in ("smidas", "truncgrad")}, **common)
            records += sw.records
            n_cached += sw.n_cached
            n_computed += sw.n_computed
    final = Sweep(records=records, datasets=tuning.datasets, n_cached=n_cached, n_computed=n_computed)
    data = ExperimentData(tuning=tuning, final=final, chosen=chosen, datasets=datasets, epochs=epochs,
                          n_seeds=int(n_seeds), n_checkpoints=int(n_checkpoints), etas=etas, cache_dir=cache_dir)
    _DATA_CACHE[key] = data
    return data


def _data(data, budget) -> ExperimentData:
    if data is not None:
        if budget:
            raise ValueError(f"pass either data or budget arguments ({', '.join(budget)}), not both")
        return data
    unknown = set(budget) - set(EXPERIMENT_DEFAULTS) - {"cache_dir", "download", "datasets"}
    if unknown:
        raise TypeError(f"unexpected arguments {sorted(unknown)}")
    return experiment_data(**dict(EXPERIMENT_DEFAULTS, **budget))


# ---------------------------------------------------------------------------------------------- statistics
def _at(runs: SeedRuns, budget):
    """Index of the last checkpoint (mean data accesses over seeds) at or before ``budget`` (1 % slack)."""
    x = runs.data_accesses.mean(axis=0)
    idx = np.flatnonzero(x <= budget * 1.01)
    return int(idx[-1]) if idx.size else 0


@dataclass
class FigureStats:
    """The numbers the claims are read from, for one figure (data set, lambda); dicts are keyed by the
    algorithm's name (SCD, GCD, SMIDAS, TruncGrad).  See the module docstring for the definitions."""

    dataset: str
    lam: float
    d: int
    label: str
    offline: bool
    budget: float              # B, data accesses
    p0: float                  # P(0)
    p_low: float               # the lowest value seen: the best mean objective any algorithm reaches by B
    p_star: float | None       # the minimum P* (None where the figure does not know it)
    objective: dict            # P_A(B)
    excess: dict               # e_A = (P_A(B) - P_low) / (P(0) - P_low)
    excess_early: dict         # the same at early * B
    above_min: dict            # (P_A(B) - P*) / (P(0) - P*): the distance to the minimum (nan without P*)
    reach: dict                # data accesses to P_A(t) - P* <= target (P(0) - P*) (inf: never by B; nan: no P*)
    nnz: dict                  # l0 at B (mean over seeds)
    nnz_early: dict            # l0 at early * B
    nnz_effective: dict        # :func:`effective_nnz` of the final iterates (|w_j| > 1e-6 max |w|)
    eta: dict                  # step sizes (SMIDAS, TruncGrad)

    def pct(self, name, early=False) -> str:
        """The excess of ``name`` in percent of P(0) - P_low."""
        return f"{100 * (self.excess_early if early else self.excess)[name]:.1f} %"


def known_optimum(data: ExperimentData, dataset, lam):
    """P* of the figure (dataset, lam), or None: given in ``data.optima``, or computed from the data sets at
    lambda >= 1e-3 (at 1e-6 the stand-ins are separable or nearly so, and the reference solver would chase a huge
    w*), as the figures draw it."""
    if _lookup(data.optima, dataset, lam) is not None or (lam >= 1e-3 and data.datasets is not None):
        return data.optimum(dataset, lam)[0]
    return None


def figure_stats(data: ExperimentData, dataset, lam, criteria=None) -> FigureStats:
    """The claim statistics of one figure at the chosen step sizes (see the module docstring)."""
    c = dict(CRITERIA, **(criteria or {}))
    runs = {SOLVER_NAMES[s]: data.runs(dataset, s, lam) for s in PAPER_SOLVERS}
    budget = min(float(r.data_accesses.mean(axis=0)[-1]) for r in runs.values())
    means = {n: r.objective.mean(axis=0) for n, r in runs.items()}
    ends = {n: _at(r, budget) for n, r in runs.items()}
    early = {n: _at(r, c["early"] * budget) for n, r in runs.items()}
    p0 = float(np.mean([m[0] for m in means.values()]))
    p_low = min(float(np.min(means[n][: ends[n] + 1])) for n in runs)
    scale = p0 - p_low if p0 > p_low else 1.0

    def exc(n, i):
        return (float(means[n][i]) - p_low) / scale

    p_star = known_optimum(data, dataset, lam)
    reach, above = {}, {}
    for n, r in runs.items():
        if p_star is None:
            reach[n] = above[n] = math.nan
            continue
        x = r.data_accesses.mean(axis=0)
        gaps = (means[n][: ends[n] + 1] - p_star) / (p0 - p_star)
        hit = np.flatnonzero(gaps <= c["target"])
        reach[n] = float(x[hit[0]]) if hit.size else math.inf
        above[n] = float(gaps[-1])
    return FigureStats(
        dataset=dataset, lam=float(lam), d=data.d(dataset), label=data.label(dataset), offline=data.offline(dataset),
        budget=budget, p0=p0, p_low=p_low, p_star=p_star,
        objective={n: float(means[n][ends[n]]) for n in runs},
        excess={n: exc(n, ends[n]) for n in runs}, excess_early={n: exc(n, early[n]) for n in runs},
        above_min=above, reach=reach, nnz={n: float(r.nnz.mean(axis=0)[ends[n]]) for n, r in runs.items()},
        nnz_early={n: float(r.nnz.mean(axis=0)[early[n]]) for n, r in runs.items()},
        nnz_effective={n: effective_nnz(r) for n, r in runs.items()},
        eta={SOLVER_NAMES[s]: data.eta(dataset, s, lam) for s in ("smidas", "truncgrad")})


def effective_nnz(runs: SeedRuns, rel=1e-6) -> float:
    """Mean over seeds of the number of coordinates of the final iterate with |w_j| > rel * max_j |w_j|.

    The trace's l0 counts every nonzero, however tiny; the p-norm link of SMIDAS (p = ceil(2 ln d)) leaves many
    weights below 1e-20 of the largest, which count there but not here."""
    w = np.abs(runs.w)
    top = w.max(axis=1, keepdims=True)
    return float(np.mean(np.sum(w > rel * np.where(top > 0, top, np.inf), axis=1)))


# ---------------------------------------------------------------------------------------------- claims
@dataclass(frozen=True)
class Claim:
    """A qualitative claim of Section 4.3: where it is made, its words, the numeric criterion that decides it,
    the figures it needs, and the function that evaluates it on {(data set, lambda): FigureStats} with the
    thresholds, returning (held, our numbers, a sentence saying what we saw)."""

    key: str
    where: str
    text: str
    criterion: str
    needs: tuple
    evaluate: Callable = field(repr=False)


@dataclass
class ClaimResult:
    """One row of the claims table.  ``held`` is True, False, or None: undecided (the runs do not decide it: no
    algorithm it compares reaches the minimum by N), or not evaluated (a figure is missing; ``numbers`` is "—")."""

    key: str
    where: str
    text: str
    criterion: str
    held: bool | None
    numbers: str
    note: str

    @property
    def verdict(self) -> str:
        if self.held is None:
            return "not evaluated" if self.numbers == "—" else "undecided"
        return "held" if self.held else "not held"


def _cmp(st, a, b, c) -> str:
    """How a compares with b on the excess scale: 'much better', 'slightly better', 'about the same', ..."""
    diff = st.excess[b] - st.excess[a]
    if abs(diff) <= c["tie"]:
        return "about the same as"
    word = "much" if abs(diff) > c["much"] else "slightly"
    return f"{word} {'better' if diff > 0 else 'worse'} than"


def _exc(st, names, early=False) -> str:
    return ", ".join(f"{n} {st.pct(n, early)}" for n in names)


def _l0(st, names, early=False) -> str:
    src = st.nnz_early if early else st.nnz
    return ", ".join(f"{n} {src[n]:.0f}" for n in names) + f" (d = {st.d})"


def _reach(st, names) -> str:
    return ", ".join(f"{n} {st.reach[n]:.2g}" if math.isfinite(st.reach[n]) else f"{n} never" for n in names)


def _above(st, names) -> str:
    return ", ".join(f"{n} {100 * st.above_min[n]:.1f} %" for n in names)


def _no_minimum(st):
    """(None, "—"-less numbers, note) for a claim about reaching the minimum on a figure without P*."""
    return None, "the minimum P* is not known for this figure", (f"undecided: P* of {st.dataset.upper()} at "
                                                                 f"λ = {_lam_text(st.lam)} is not computed.")


ALL = ("SCD", "GCD", "SMIDAS", "TruncGrad")
OTHERS_THAN_GCD = ("SCD", "SMIDAS", "TruncGrad")


def _gcd_much_worse(st, c):
    worst = max(st.excess[n] for n in OTHERS_THAN_GCD)
    held = st.excess["GCD"] - worst > c["much"]
    note = ("" if held else f"GCD ends only {100 * (st.excess['GCD'] - worst):.1f} points of the descent above the "
            f"worst of the other three (needed: more than {100 * c['much']:.0f}).")
    return held, "excess: " + _exc(st, ALL), note


def _like_scd(st, c):
    gaps = {n: st.excess[n] - st.excess["SCD"] for n in ("SMIDAS", "TruncGrad")}
    held = all(abs(g) <= c["tie"] for g in gaps.values())
    off = [f"{n} is {_cmp(st, n, 'SCD', c)} SCD" for n, g in gaps.items() if abs(g) > c["tie"]]
    return held, "excess: " + _exc(st, ("SCD", "SMIDAS", "TruncGrad")), ("" if held else "; ".join(off) + ".")


def _effective(st, names) -> str:
    return ("counting only |w_j| > 1e-6 max|w| (final iterate): "
            + ", ".join(f"{n} {st.nnz_effective[n]:.0f}" for n in names))


def _smidas_sparser(st, c):
    others = min(st.nnz["TruncGrad"], st.nnz["SCD"])
    held = st.nnz["SMIDAS"] <= c["sparser"] * others
    note = "" if held else (f"SMIDAS ends with {st.nnz['SMIDAS']:.0f} nonzeros, not fewer than "
                            f"{100 * c['sparser']:.0f} % of the sparser of TruncGrad and SCD ({others:.0f}); "
                            + _effective(st, ("SMIDAS", "TruncGrad", "SCD")) + ".")
    return held, "ℓ0: " + _l0(st, ("SMIDAS", "TruncGrad", "SCD")), note


def claim_gcd_duke(stats, c):
    return _gcd_much_worse(stats[("duke", 1e-6)], c)


def claim_tuned_like_scd_duke(stats, c):
    return _like_scd(stats[("duke", 1e-6)], c)


def claim_smidas_sparse_duke(stats, c):
    return _smidas_sparser(stats[("duke", 1e-6)], c)


def claim_arcene_like_duke(stats, c):
    st = stats[("arcene", 1e-6)]
    h1, _, n1 = _gcd_much_worse(st, c)
    h2, _, n2 = _like_scd(st, c)
    return h1 and h2, "excess: " + _exc(st, ALL), " ".join(n for n in (n1, n2) if n)


def claim_smidas_catches_up_arcene(stats, c):
    st = stats[("arcene", 1e-6)]
    best_early = min(st.excess_early[n] for n in ("SCD", "TruncGrad"))
    best_end = min(st.excess[n] for n in ("SCD", "TruncGrad"))
    slow = st.excess_early["SMIDAS"] > best_early + c["tie"]
    caught = st.excess["SMIDAS"] <= best_end + c["tie"]
    nums = (f"at {c['early']:g} N: {_exc(st, ('SMIDAS', 'SCD', 'TruncGrad'), early=True)}; "
            f"at N: {_exc(st, ('SMIDAS', 'SCD', 'TruncGrad'))}")
    parts = []
    if not slow:
        parts.append(f"SMIDAS is not behind early on (at {c['early']:g} N it is within "
                     f"{100 * c['tie']:.0f} points of the better of SCD and TruncGrad, or ahead)")
    if not caught:
        parts.append("SMIDAS has not caught up by the end of the budget")
    return slow and caught, nums, ("; ".join(parts) + ".") if parts else ""


def claim_smidas_sparse_arcene(stats, c):
    return _smidas_sparser(stats[("arcene", 1e-6)], c)


def claim_smidas_much_better_magic04d(stats, c):
    st = stats[("magic04d", 1e-6)]
    diff = st.excess["TruncGrad"] - st.excess["SMIDAS"]
    held = diff > c["much"]
    note = "" if held else f"SMIDAS is {_cmp(st, 'SMIDAS', 'TruncGrad', c)} TruncGrad."
    return held, "excess: " + _exc(st, ("SMIDAS", "TruncGrad")), note


def claim_truncgrad_slightly_better_magic04s(stats, c):
    st = stats[("magic04s", 1e-6)]
    diff = st.excess["SMIDAS"] - st.excess["TruncGrad"]
    held = c["tie"] < diff <= c["much"]
    note = "" if held else f"TruncGrad is {_cmp(st, 'TruncGrad', 'SMIDAS', c)} SMIDAS."
    return held, "excess: " + _exc(st, ("TruncGrad", "SMIDAS")), note


def claim_scd_slightly_worse_magic04s(stats, c):
    st = stats[("magic04s", 1e-6)]
    diffs = {n: st.excess["SCD"] - st.excess[n] for n in ("TruncGrad", "SMIDAS")}
    held = all(c["tie"] < v <= c["much"] for v in diffs.values())
    off = [f"SCD is {_cmp(st, 'SCD', n, c)} {n}" for n, v in diffs.items() if not c["tie"] < v <= c["much"]]
    return held, "excess: " + _exc(st, ("SCD", "TruncGrad", "SMIDAS")), ("" if held else "; ".join(off) + ".")


def claim_scd_between_magic04d(stats, c):
    st = stats[("magic04d", 1e-6)]
    vs_tg = st.excess["TruncGrad"] - st.excess["SCD"]
    vs_sm = st.excess["SCD"] - st.excess["SMIDAS"]
    ok_tg = vs_tg > c["tie"]
    ok_sm = c["tie"] < vs_sm <= c["much"]
    off = []
    if not ok_tg:
        off.append(f"SCD is {_cmp(st, 'SCD', 'TruncGrad', c)} TruncGrad")
    if not ok_sm:
        off.append(f"SCD is {_cmp(st, 'SCD', 'SMIDAS', c)} SMIDAS")
    return ok_tg and ok_sm, "excess: " + _exc(st, ("SMIDAS", "SCD", "TruncGrad")), \
        ("; ".join(off) + ".") if off else ""


def claim_smidas_sparse_magic(stats, c):
    nums, off = [], []
    for ds in ("magic04s", "magic04d"):
        st = stats[(ds, 1e-6)]
        nums.append(f"{ds.upper()}: {_l0(st, ('SMIDAS', 'SCD', 'TruncGrad'))}")
        rival = min(("SCD", "TruncGrad"), key=lambda n: st.nnz[n])
        if st.nnz["SMIDAS"] > st.nnz[rival]:
            off.append(f"on {ds.upper()} SMIDAS ends with {st.nnz['SMIDAS']:.0f} nonzeros, {rival} with "
                       f"{st.nnz[rival]:.0f}")
        elif st.nnz["SMIDAS"] > c["dense"] * st.d:
            off.append(f"on {ds.upper()} SMIDAS keeps {st.nnz['SMIDAS']:.0f} of {st.d} coordinates nonzero "
                       f"(more than {100 * c['dense']:.0f} %; SCD {st.nnz['SCD']:.0f}, TruncGrad "
                       f"{st.nnz['TruncGrad']:.0f})")
    if off:
        eff = "; ".join(f"{ds.upper()} SMIDAS {stats[(ds, 1e-6)].nnz_effective['SMIDAS']:.0f}, SCD "
                        f"{stats[(ds, 1e-6)].nnz_effective['SCD']:.0f}, TruncGrad "
                        f"{stats[(ds, 1e-6)].nnz_effective['TruncGrad']:.0f}" for ds in ("magic04s", "magic04d"))
        off.append(f"counting only |w_j| > 1e-6 max|w| (final iterate): {eff}")
    return not off, "ℓ0: " + "; ".join(nums), ("; ".join(off) + ".") if off else ""


def claim_scd_fastest_duke_arcene(stats, c):
    nums, off, undecided = [], [], []
    for ds in ("duke", "arcene"):
        st = stats[(ds, 1e-2)]
        if st.p_star is None:
            return _no_minimum(st)
        nums.append(f"{ds.upper()}: to the minimum {_reach(st, ALL)}; above P* at N {_above(st, ALL)}; excess "
                    f"{_exc(st, ALL)}")
        others = ("GCD", "SMIDAS", "TruncGrad")
        first = min(st.reach[n] for n in others)
        if math.isfinite(st.reach["SCD"]) and st.reach["SCD"] <= first:
            if st.excess["SCD"] > min(st.excess[n] for n in others) + c["tie"]:
                off.append(f"on {ds.upper()} SCD ends above the best of the others")
        elif math.isfinite(first):
            faster = [n for n in others if st.reach[n] < st.reach["SCD"]]
            verb = "reaches" if len(faster) == 1 else "reach"
            off.append(f"on {ds.upper()} {' and '.join(faster)} {verb} the minimum first"
                       + ("" if math.isfinite(st.reach["SCD"]) else ", and SCD does not by N"))
        else:
            undecided.append(ds.upper())
    note = "; ".join(off) + "." if off else ""
    if undecided:
        note += (" " if note else "") + f"No algorithm reaches the minimum by N on {' or '.join(undecided)}."
    held = False if off else (None if undecided else True)
    return held, "data accesses " + " | ".join(nums), note


def claim_scd_sparsest_duke_arcene(stats, c):
    nums, off = [], []
    for ds in ("duke", "arcene"):
        st = stats[(ds, 1e-2)]
        nums.append(f"{ds.upper()}: {_l0(st, ALL)}")
        sparser = [n for n in ("GCD", "SMIDAS", "TruncGrad") if st.nnz[n] < st.nnz["SCD"]]
        if sparser:
            extra = ""
            if "GCD" in sparser:
                extra = (f" (GCD, at excess {st.pct('GCD')} against SCD's {st.pct('SCD')}, has updated few "
                         "coordinates in its few iterations)")
            off.append(f"on {ds.upper()} {' and '.join(sparser)} {'is' if len(sparser) == 1 else 'are'} sparser "
                       f"than SCD{extra}")
    return not off, "ℓ0: " + " | ".join(nums), ("; ".join(off) + ".") if off else ""


def claim_smidas_beats_truncgrad_duke_arcene(stats, c):
    nums, off = [], []
    for ds in ("duke", "arcene"):
        st = stats[(ds, 1e-2)]
        nums.append(f"{ds.upper()}: {_exc(st, ('SMIDAS', 'TruncGrad'))}")
        if not st.excess["TruncGrad"] - st.excess["SMIDAS"] > c["tie"]:
            off.append(f"on {ds.upper()} SMIDAS is {_cmp(st, 'SMIDAS', 'TruncGrad', c)} TruncGrad")
    return not off, "excess: " + " | ".join(nums), ("; ".join(off) + ".") if off else ""


def claim_smidas_dense_magic(stats, c):
    s, dd = stats[("magic04s", 1e-2)], stats[("magic04d", 1e-2)]
    adv_s = s.excess["TruncGrad"] - s.excess["SMIDAS"]
    adv_d = dd.excess["TruncGrad"] - dd.excess["SMIDAS"]
    held = adv_d > c["tie"] and adv_d > adv_s
    nums = (f"TruncGrad excess minus SMIDAS excess: MAGIC04D {100 * adv_d:.1f} points, "
            f"MAGIC04S {100 * adv_s:.1f} points")
    off = []
    if not adv_d > c["tie"]:
        off.append(f"on MAGIC04D SMIDAS is {_cmp(dd, 'SMIDAS', 'TruncGrad', c)} TruncGrad")
    if not adv_d > adv_s:
        off.append("SMIDAS's lead over TruncGrad is not larger on the dense data than on the sparse data")
    return held, nums, ("; ".join(off) + ".") if off else ""


def _reach_numbers(st) -> str:
    return f"data accesses to the minimum: {_reach(st, ALL)}; above P* at N: {_above(st, ALL)}"


def claim_cd_quicker_magic04s(stats, c):
    st = stats[("magic04s", 1e-2)]
    if st.p_star is None:
        return _no_minimum(st)
    cd = max(st.reach["SCD"], st.reach["GCD"])
    sg = min(st.reach["SMIDAS"], st.reach["TruncGrad"])
    if math.isfinite(cd) and cd < sg:
        return True, _reach_numbers(st), ""
    if math.isfinite(sg):
        return False, _reach_numbers(st), ("SMIDAS or TruncGrad reaches the minimum before both SCD and GCD have "
                                           "reached it.")
    return None, _reach_numbers(st), ("Undecided: SCD and GCD do not both reach the minimum by N, and neither do "
                                      "SMIDAS and TruncGrad.")


def claim_cd_edge_lost_magic04d(stats, c):
    st = stats[("magic04d", 1e-2)]
    if st.p_star is None:
        return _no_minimum(st)
    cd = min(st.reach["SCD"], st.reach["GCD"])
    sg = min(st.reach["SMIDAS"], st.reach["TruncGrad"])
    if math.isfinite(sg) and sg <= cd:
        return True, _reach_numbers(st), ""
    if math.isfinite(cd):
        return False, _reach_numbers(st), "The quicker of SCD and GCD still reaches the minimum first."
    return None, _reach_numbers(st), "Undecided: no algorithm reaches the minimum by N."


def claim_truncgrad_dense_all(stats, c):
    nums, off = [], []
    for ds in ("duke", "arcene", "magic04s", "magic04d"):
        st = stats[(ds, 1e-2)]
        tg = st.nnz["TruncGrad"]
        nums.append(f"{ds.upper()}: TruncGrad {st.nnz_early['TruncGrad']:.0f} → {tg:.0f} of {st.d}, "
                    f"densest other {max(st.nnz[n] for n in ('SCD', 'GCD', 'SMIDAS')):.0f}")
        denser = [n for n in ("SCD", "GCD", "SMIDAS") if st.nnz[n] > tg]
        if tg < c["dense"] * st.d:
            off.append(f"on {ds.upper()} TruncGrad keeps {tg:.0f} of {st.d} coordinates, fewer than "
                       f"{100 * c['dense']:.0f} %")
        if denser:
            off.append(f"on {ds.upper()} {' and '.join(denser)} {'is' if len(denser) == 1 else 'are'} denser")
    return not off, "ℓ0 (at 0.1 N → at N): " + " | ".join(nums), ("; ".join(off) + ".") if off else ""


def claim_truncgrad_dense_magic04d(stats, c):
    st = stats[("magic04d", 1e-2)]
    others = max(st.nnz[n] for n in ("SCD", "GCD", "SMIDAS"))
    ok_tg = st.nnz["TruncGrad"] >= c["almost_dense"] * st.d
    ok_others = others <= c["few"] * st.d
    off = []
    if not ok_tg:
        off.append(f"TruncGrad keeps {st.nnz['TruncGrad']:.0f} of {st.d}")
    if not ok_others:
        dense = [n for n in ("SCD", "GCD", "SMIDAS") if st.nnz[n] > c["few"] * st.d]
        off.append(f"{' and '.join(dense)} also {'has' if len(dense) == 1 else 'have'} more than "
                   f"{100 * c['few']:.0f} % of the coordinates nonzero")
    if off:
        off.append(_effective(st, ALL))
    return ok_tg and ok_others, "ℓ0: " + _l0(st, ALL), ("; ".join(off) + ".") if off else ""


def claim_gcd_slower_everywhere(stats, c):
    rows, off = [], []
    for (ds, lam), st in sorted(stats.items(), key=lambda kv: FIGURES.get(kv[0], 99)):
        diff = st.excess["GCD"] - st.excess["SCD"]
        rows.append(diff)
        if not diff > c["tie"]:
            off.append(f"{ds.upper()}, λ = {_lam_text(lam)} (GCD {st.pct('GCD')}, SCD {st.pct('SCD')})")
    n = len(rows)
    nums = f"GCD behind SCD in {n - len(off)} of {n} figures; smallest lead of SCD {100 * min(rows):.1f} points"
    return not off, nums, ("GCD is not behind SCD on " + "; ".join(off) + ".") if off else ""


_LESS, _MORE = 1e-6, 1e-2

#: The claims of Section 4.3 (and the expectation of Section 4.2 about GCD), in the paper's order.
CLAIMS = (
    Claim("gcd-much-worse-duke", "§4.3.1, the paper's Fig. 1 (DUKE, λ = 1e-6)",
          "It is clear that GCD does much worse than the other three algorithms.",
          "e_GCD − max(e_SCD, e_SMIDAS, e_TruncGrad) > much", (("duke", _LESS),), claim_gcd_duke),
    Claim("tuned-like-scd-duke", "§4.3.1, the paper's Fig. 1 (DUKE, λ = 1e-6)",
          "The two algorithms having a tunable parameter η have roughly the same performance as SCD.",
          "|e_SMIDAS − e_SCD| ≤ tie and |e_TruncGrad − e_SCD| ≤ tie", (("duke", _LESS),), claim_tuned_like_scd_duke),
    Claim("smidas-sparser-duke", "§4.3.1, the paper's Fig. 1 (DUKE, λ = 1e-6)",
          "SMIDAS has better sparsity properties as compared to TRUNCGRAD and SCD.",
          "l0_SMIDAS ≤ sparser × min(l0_TruncGrad, l0_SCD)", (("duke", _LESS),), claim_smidas_sparse_duke),
    Claim("arcene-like-duke", "§4.3.1, the paper's Fig. 2 (ARCENE, λ = 1e-6)",
          "The results are quite similar to those for the DUKE data set.",
          "the two criteria above (GCD much worse; SMIDAS and TruncGrad about the same as SCD) on ARCENE",
          (("arcene", _LESS),), claim_arcene_like_duke),
    Claim("smidas-catches-up-arcene", "§4.3.1, the paper's Fig. 2 (ARCENE, λ = 1e-6)",
          "SMIDAS is slow for a short while early on but quickly catches up.",
          "at early × N: e_SMIDAS > min(e_SCD, e_TruncGrad) + tie; at N: e_SMIDAS ≤ min(e_SCD, e_TruncGrad) + tie",
          (("arcene", _LESS),), claim_smidas_catches_up_arcene),
    Claim("smidas-sparser-arcene", "§4.3.1, the paper's Fig. 2 (ARCENE, λ = 1e-6)",
          "Again, it [SMIDAS] displays good sparsity properties.",
          "l0_SMIDAS ≤ sparser × min(l0_TruncGrad, l0_SCD)", (("arcene", _LESS),), claim_smidas_sparse_arcene),
    Claim("smidas-much-better-magic04d", "§4.3.1, the paper's Fig. 4 (MAGIC04D, λ = 1e-6)",
          "SMIDAS does much better than TRUNCGRAD for the MAGIC04D data set (where the example vectors are dense).",
          "e_TruncGrad − e_SMIDAS > much", (("magic04d", _LESS),), claim_smidas_much_better_magic04d),
    Claim("truncgrad-slightly-better-magic04s", "§4.3.1, the paper's Fig. 3 (MAGIC04S, λ = 1e-6)",
          "TRUNCGRAD is slightly better for the MAGIC04S data set (where the example vectors are sparse).",
          "tie < e_SMIDAS − e_TruncGrad ≤ much", (("magic04s", _LESS),), claim_truncgrad_slightly_better_magic04s),
    Claim("scd-slightly-worse-magic04s", "§4.3.1, the paper's Fig. 3 (MAGIC04S, λ = 1e-6)",
          "The parameter-free SCD algorithm is slightly worse than the parameter-based algorithms TRUNCGRAD and "
          "SMIDAS on MAGIC04S.",
          "tie < e_SCD − e_X ≤ much for X = TruncGrad and X = SMIDAS", (("magic04s", _LESS),),
          claim_scd_slightly_worse_magic04s),
    Claim("scd-between-magic04d", "§4.3.1, the paper's Fig. 4 (MAGIC04D, λ = 1e-6)",
          "For MAGIC04D, its [SCD's] performance is better than TRUNCGRAD, but slightly worse than SMIDAS.",
          "e_TruncGrad − e_SCD > tie and tie < e_SCD − e_SMIDAS ≤ much", (("magic04d", _LESS),),
          claim_scd_between_magic04d),
    Claim("smidas-sparse-magic", "§4.3.1, the paper's Figs. 3-4 (MAGIC04S/D, λ = 1e-6)",
          "On both data sets, SMIDAS seems to be doing quite well in terms of sparsity.",
          "on both: l0_SMIDAS ≤ min(l0_SCD, l0_TruncGrad) and l0_SMIDAS ≤ dense × d",
          (("magic04s", _LESS), ("magic04d", _LESS)),
          claim_smidas_sparse_magic),
    Claim("scd-fastest-duke-arcene", "§4.3.2, the paper's Figs. 5-6 (DUKE, ARCENE, λ = 1e-2)",
          "SCD outperforms all other algorithms on the DUKE and ARCENE data sets. [...] it gets to the minimum "
          "objective faster.",
          "on both: r_SCD ≤ r_X for every other X (r: data accesses to P − P* ≤ target × (P(0) − P*)) and "
          "e_SCD ≤ min_X e_X + tie",
          (("duke", _MORE), ("arcene", _MORE)), claim_scd_fastest_duke_arcene),
    Claim("scd-sparsest-duke-arcene", "§4.3.2, the paper's Figs. 5-6 (DUKE, ARCENE, λ = 1e-2)",
          "[...] but it [SCD] also gets best sparsity.",
          "on both: l0_SCD ≤ l0_X for every other algorithm X", (("duke", _MORE), ("arcene", _MORE)),
          claim_scd_sparsest_duke_arcene),
    Claim("smidas-beats-truncgrad-duke-arcene", "§4.3.2, the paper's Figs. 5-6 (DUKE, ARCENE, λ = 1e-2)",
          "On both data sets, SMIDAS does better than TRUNCGRAD.",
          "on both: e_TruncGrad − e_SMIDAS > tie", (("duke", _MORE), ("arcene", _MORE)),
          claim_smidas_beats_truncgrad_duke_arcene),
    Claim("smidas-dense-magic", "§4.3.2, the paper's Figs. 7-8 (MAGIC04S/D, λ = 1e-2)",
          "SMIDAS does better when the features are dense.",
          "on MAGIC04D e_TruncGrad − e_SMIDAS > tie, and larger than on MAGIC04S",
          (("magic04s", _MORE), ("magic04d", _MORE)), claim_smidas_dense_magic),
    Claim("cd-quicker-magic04s", "§4.3.2, the paper's Fig. 7 (MAGIC04S, λ = 1e-2)",
          "The coordinate descent algorithms SCD and GCD are quicker to reach the minimum on MAGIC04S.",
          "max(r_SCD, r_GCD) < min(r_SMIDAS, r_TruncGrad); undecided if no r is finite", (("magic04s", _MORE),),
          claim_cd_quicker_magic04s),
    Claim("cd-edge-lost-magic04d", "§4.3.2, the paper's Fig. 8 (MAGIC04D, λ = 1e-2)",
          "The edge, however, seems to be lost on the MAGIC04D data set.",
          "min(r_SMIDAS, r_TruncGrad) ≤ min(r_SCD, r_GCD); undecided if no r is finite", (("magic04d", _MORE),),
          claim_cd_edge_lost_magic04d),
    Claim("truncgrad-loses-sparsity", "§4.3.2, the paper's Figs. 5-8 (all, λ = 1e-2)",
          "In all cases, TRUNCGRAD seems to be unable to keep sparsity of the iterates as it progresses.",
          "on all four: l0_TruncGrad ≥ dense × d and l0_TruncGrad ≥ l0_X for every other X",
          tuple((ds, _MORE) for ds in PAPER_DATASETS), claim_truncgrad_dense_all),
    Claim("truncgrad-dense-magic04d", "§4.3.2, the paper's Fig. 8 (MAGIC04D, λ = 1e-2)",
          "[...] all the other algorithms have density levels of a few tens while TRUNCGRAD has almost no sparsity "
          "whatsoever.",
          "l0_TruncGrad ≥ almost_dense × d and l0_X ≤ few × d for X = SCD, GCD, SMIDAS", (("magic04d", _MORE),),
          claim_truncgrad_dense_magic04d),
    Claim("gcd-slower-than-scd", "§4.2 and the paper's Figs. 1-8 (all)",
          "We expect that the deterministic algorithm [GCD] will converge much slower than the stochastic "
          "algorithm [SCD].",
          "in every figure: e_GCD − e_SCD > tie", tuple(FIGURES), claim_gcd_slower_everywhere),
)


def evaluate_claims(data: ExperimentData, claims=CLAIMS, criteria=None) -> list:
    """Evaluate every claim on the sweep; a claim whose figures are not in the sweep is "not evaluated".

    ``criteria`` overrides entries of :data:`CRITERIA`.  Returns a list of :class:`ClaimResult`.
    """
    c = dict(CRITERIA, **(criteria or {}))
    unknown = set(c) - set(CRITERIA)
    if unknown:
        raise ValueError(f"unknown criteria {sorted(unknown)}; the thresholds are {sorted(CRITERIA)}")
    have = {(ds, lam) for ds in data.names for lam in data.lams}
    stats = {}
    out = []
    for cl in claims:
        needs = [k for k in cl.needs if any(k[0] == ds and _same(k[1], lm) for ds, lm in have)]
        if cl.key == "gcd-slower-than-scd":
            needs = sorted(have, key=lambda k: FIGURES.get(k, 99))
        elif len(needs) < len(cl.needs):
            missing = ", ".join(f"{ds.upper()} λ = {_lam_text(lm)}" for ds, lm in cl.needs
                                if (ds, lm) not in needs)
            out.append(ClaimResult(cl.key, cl.where, cl.text, cl.criterion, None, "—",
                                   f"not evaluated: the sweep has no {missing}."))
            continue
        sub = {}
        for ds, lam in needs:
            lam_in = next(lm for d2, lm in have if d2 == ds and _same(lm, lam))
            if (ds, lam_in) not in stats:
                stats[(ds, lam_in)] = figure_stats(data, ds, lam_in, c)
            sub[(ds, lam)] = stats[(ds, lam_in)]
        held, numbers, note = cl.evaluate(sub, c)
        held = None if held is None else bool(held)
        out.append(ClaimResult(cl.key, cl.where, cl.text, cl.criterion, held, numbers, "" if held else note))
    return out


def _md(text) -> str:
    out = str(text)
    for ch in "\\|*_[]<>":
        out = out.replace(ch, "\\" + ch)
    return out


def claims_markdown(results, criterion=False, notes=True) -> str:
    """The claims table as Markdown (display it with ``IPython.display.Markdown``; a pipe table, so a Jupyter
    Book cell showing it needs ``mystnb: {markdown_format: gfm}`` in its metadata): where, the claim, held / not
    held, our numbers, and where ours differ a sentence saying what we saw.  ``criterion=True`` adds the criterion
    column, ``notes=False`` drops the last one."""
    head = ["", "where", "claim (the paper's words)"] + (["criterion"] if criterion else []) + \
        ["ours", "our numbers"] + (["where ours differ"] if notes else [])
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    for k, r in enumerate(results, 1):
        mark = {"held": "**held**", "not held": "**not held**"}.get(r.verdict, r.verdict)
        cells = [str(k), _md(r.where), _md(r.text)] + ([_md(r.criterion)] if criterion else []) + \
            [mark, _md(r.numbers)] + ([_md(r.note)] if notes else [])
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def format_claims(results, width=110) -> str:
    """The claims table as plain text (one block per claim)."""
    out = []
    for k, r in enumerate(results, 1):
        out.append(f"{k:2d}. [{r.verdict.upper()}] {r.where}: {r.text}")
        for head, body in (("criterion", r.criterion), ("ours", r.numbers), ("differs", r.note)):
            if body:
                out.append(textwrap.fill(body, width, initial_indent=f"      {head}: ",
                                         subsequent_indent=" " * (8 + len(head))))
    n_held = sum(r.held is True for r in results)
    n_eval = sum(r.verdict != "not evaluated" for r in results)
    n_open = sum(r.verdict == "undecided" for r in results)
    out.append(f"\n{n_held} of {n_eval} claims evaluated hold on this sweep"
               + (f" ({n_open} undecided)." if n_open else "."))
    return "\n".join(out)


# ---------------------------------------------------------------------------------------------- the lecture's numbers
_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def _fmt_table_eta(e) -> str:
    """A step size (or a lambda) as the paper's Table 1 writes it, in plain text: 50, 1, 10⁻¹, 5·10⁻⁵."""
    if e is None:
        return "—"
    m, k = f"{e:.0e}".split("e")
    k = int(k)
    if k >= 0 or float(f"{m}e{k}") != e:
        return f"{e:g}"
    power = "10" + str(k).translate(_SUPERSCRIPT)
    return power if m == "1" else f"{m}·{power}"


def _ratio(a, b) -> float:
    return max(a / b, b / a)


def eta_markdown(data: ExperimentData) -> str:
    """The step sizes chosen by grid beside the paper's Table 1, as a Markdown table (a dagger marks a choice at
    an edge of the grid, a star a data set that is an offline stand-in)."""
    chosen = data.tuning.chosen_etas()
    lines = ["| data set, λ | SMIDAS: ours | paper | TruncGrad: ours | paper |",
             "|---|---:|---:|---:|---:|"]
    for ds in data.names:
        for lam in data.lams:
            paper = _lookup(PAPER_TABLE1, ds, lam) or {}
            cells = [f"{ds.upper()}{'*' if data.offline(ds) else ''}, {_fmt_table_eta(lam)}"]
            for s in ("smidas", "truncgrad"):
                e, edge = next(v for (d2, lm, s2), v in chosen.items() if d2 == ds and s2 == s and _same(lm, lam))
                cells += [_fmt_table_eta(e) + ("†" if edge else ""), _fmt_table_eta(paper.get(s))]
            lines.append("| " + " | ".join(cells) + " |")
    notes = []
    if any(data.offline(ds) for ds in data.names):
        notes.append("\\* an offline stand-in, not the paper's data")
    if any(edge for _e, edge in chosen.values()):
        notes.append("† chosen at an edge of the grid")
    return "\n".join(lines) + ("\n\n" + "; ".join(notes) + "." if notes else "")


def optimum_markdown(data: ExperimentData, lam=1e-2) -> str:
    """The minimum P*, ||w*||_0 and every algorithm's final distance P(w) - P* (mean over seeds), as a Markdown
    table."""
    head = "| data set | P* | ‖w*‖₀ | " + " | ".join(SOLVER_NAMES[s] for s in PAPER_SOLVERS) + " |"
    lines = [head, "|---|" + "---:|" * (2 + len(PAPER_SOLVERS))]
    for ds in data.names:
        p_star, l0 = data.optimum(ds, lam)
        gaps = [data.runs(ds, s, lam).objective[:, -1].mean() - p_star for s in PAPER_SOLVERS]
        lines.append(f"| {ds.upper()}{'*' if data.offline(ds) else ''} | {p_star:.4f} | {l0} | "
                     + " | ".join(f"{g:.4f}" for g in gaps) + " |")
    return "\n".join(lines) + f"\n\nThe minimum P* at λ = {_fmt_table_eta(lam)}, the nonzeros of the minimizer, and " \
        "each algorithm's distance P − P* at the end of the budget (mean over seeds)" + \
        ("; \\* an offline stand-in." if any(data.offline(ds) for ds in data.names) else ".")


def effective_markdown(data: ExperimentData) -> str:
    """For every figure and for SCD, SMIDAS and TruncGrad, the nonzeros of the final iterate (the paper's count) and
    the weights above 1e-6 times the largest (:func:`effective_nnz`), as a Markdown table."""
    shown = ("scd", "smidas", "truncgrad")      # GCD's few nonzeros are all large
    lines = ["| data set, λ | " + " | ".join(SOLVER_NAMES[s] for s in shown) + " |",
             "|---|" + "---:|" * len(shown)]
    for lam in data.lams:
        for ds in data.names:
            cells = []
            for s in shown:
                r = data.runs(ds, s, lam)
                cells.append(f"{r.nnz[:, -1].mean():.0f} / {effective_nnz(r):.0f}")
            lines.append(f"| {ds.upper()}{'*' if data.offline(ds) else ''}, {_fmt_table_eta(lam)} | "
                         + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n\nEach cell: nonzeros / weights above 10⁻⁶ times the largest, final iterate, " \
        "mean over seeds."


def data_note(data: ExperimentData) -> str:
    """One plain paragraph (Markdown) saying which data the page shows."""
    off = [ds.upper() for ds in data.names if data.offline(ds)]
    if not off:
        return ("**The data on this page are the paper's**, downloaded and checked against their SHA-256 when "
                "the page was computed.")
    which = "the four data sets" if len(off) == len(data.names) else ", ".join(off)
    return (f"**The data on this page are offline stand-ins.** The book is built without network access, so {which} "
            "are replaced by labelled stand-ins with the shape or the construction of the originals (described "
            "below); every figure and table says so, and every conclusion here is about the stand-ins. Run the "
            "notebook with network access (Binder or Colab) to recompute everything on the paper's data.")


#: the alternative thresholds of the lecture's exercise on the criteria
THRESHOLD_VARIANTS = ({"tie": 0.001}, {"tie": 0.005}, {"tie": 0.05}, {"much": 0.05}, {"much": 0.2})


def _threshold_answer(data: ExperimentData, variants=THRESHOLD_VARIANTS) -> str:
    """Which verdicts change, against :data:`CRITERIA`, under each of ``variants`` (Markdown)."""
    base = [r.verdict for r in evaluate_claims(data)]
    parts, changed = [], set()
    for v in variants:
        now = [r.verdict for r in evaluate_claims(data, criteria=v)]
        diff = [k for k, (a, b) in enumerate(zip(base, now)) if a != b]
        changed.update(diff)
        what = ", ".join(f"{k} = {x:g}" for k, x in v.items())
        if diff:
            parts.append(f"with {what}, claim{'s' if len(diff) > 1 else ''} "
                         + ", ".join(f"{k + 1} ({base[k]} → {now[k]})" for k in diff))
        else:
            parts.append(f"with {what}, none")
    head = (f"{len(changed)} of the {len(base)} verdicts change under at least one of these thresholds: "
            if changed else "No verdict changes under these thresholds: ")
    return head + "; ".join(parts) + "."


def _short_where(where: str) -> str:
    """"§4.3.1, the paper's Fig. 1 (DUKE, λ = 1e-6)" -> "§4.3.1, Fig. 1: DUKE, 10⁻⁶" (the column says "in the
    paper")."""
    out = where.replace("the paper's ", "")
    out = re.sub(r"λ = (1e-\d+)", lambda m: _fmt_table_eta(float(m.group(1))), out)
    out = re.sub(r"(Figs?\. [\d-]+) \((.*)\)$", r"\1: \2", out)
    return out.replace("-", "–")


def _claims_table(data: ExperimentData) -> str:
    """The claims table of the lecture: without the notes column (the prose discusses them), places shortened."""
    results = evaluate_claims(data)
    for r in results:
        r.where = _short_where(r.where)
    table = claims_markdown(results, notes=False)
    return table.replace("|  | where |", "|  | where in the paper |", 1)


def lecture_markdown(data: ExperimentData, numbers=None) -> dict:
    """The lecture's Markdown pieces, keyed as the page glues them (``exp-<key>``): the data note and the tables,
    the answer of the threshold exercise and the texts its prose needs (``numbers``: :func:`lecture_numbers`,
    computed if None)."""
    nums = lecture_numbers(data) if numbers is None else numbers
    return {"data-note": data_note(data), "eta-table": eta_markdown(data), "optimum-table": optimum_markdown(data),
            "claims-table": _claims_table(data),
            "effective-table": effective_markdown(data), "ex-threshold-answer": _threshold_answer(data),
            "ex-cyclic-where": nums["_cyclic_where"], "ex-cyclic-mid-where": nums["_cyclic_mid_where"],
            "demo-compare": nums["_demo_compare"], "demo-up-compare": nums["_demo_up_compare"],
            "demo-direction": nums["_demo_direction"], "reached": nums["_reached"]}


def cyclic_sweep(data: ExperimentData):
    """SCD (seed 0) and cyclic coordinate descent on the sweep's data sets, lambdas and budget (cached on disk)."""
    return run_sweep(data.datasets, solvers=("scd", "cyclic_cd"), lams=data.lams, epochs=data.epochs, seeds=(0,),
                     n_checkpoints=data.n_checkpoints, cache_dir=data.cache_dir, progress=False,
                     n_jobs=_default_jobs(data.datasets))


def _where(ds, lam) -> str:
    return f"{ds.upper()}, λ = {_fmt_table_eta(lam)}"


def lecture_numbers(data: ExperimentData, cyclic=None) -> dict:
    """Every number the lecture's prose states about the sweep, keyed as the page glues them (``exp-<key>``).
    Keys starting with "_" are texts for :func:`lecture_markdown`.  ``cyclic``: the sweep of :func:`cyclic_sweep`
    (computed if None).  Needs the data sets (``data.datasets``)."""
    if data.datasets is None:
        raise ValueError("lecture_numbers needs an ExperimentData with its data sets")
    less, more = min(data.lams), max(data.lams)
    out = {}
    # the data: stand-ins (their facts come from the stand-ins themselves, whatever data the page uses)
    from ..data.real import offline_standin

    sets = {n: (ds if ds.offline else offline_standin(n)) for n, ds in data.datasets.items()}
    magic = sets.get("magic04s")
    if magic is not None:
        out["magic-m"], out["magic-d"] = magic.m, magic.d
        out["magic-ratio"] = 19020 / magic.m
        Xr = magic.X[:, : magic.d - 1000]
        Xr = Xr.toarray() if sp.issparse(Xr) else np.asarray(Xr)
        cc = np.corrcoef(Xr.T)
        iu = np.triu_indices_from(cc, k=1)
        out["bc-pairs"] = int(np.sum(np.abs(cc[iu]) > 0.9))
        out["bc-maxcorr"] = float(np.max(np.abs(cc[iu])))
    out["dense-zeros"] = int(sum(ds.m * ds.d - ds.nnz for ds in data.datasets.values() if not sp.issparse(ds.X)))
    # the sweep
    tuning_keys = {r.key for r in data.tuning.records}
    out["n-tuning"] = len(tuning_keys)
    out["n-seeded"] = len({r.key for r in data.final.records} - tuning_keys)
    out["gcd-steps"] = max(int(data.runs(ds, "gcd", lam).iteration[-1]) for ds in data.names for lam in data.lams)
    # step sizes
    rows, ratios, smaller, pairs, larger_rows = 0, [], 0, 0, 0
    small_factor, large_factor, larger_elsewhere = [], [], 0
    for ds in data.names:
        for lam in data.lams:
            rows += 1
            e_s, e_t = data.eta(ds, "smidas", lam), data.eta(ds, "truncgrad", lam)
            larger_rows += e_s > e_t
            ratios.append(e_s / e_t)
            paper = _lookup(PAPER_TABLE1, ds, lam) or {}
            for s, e in (("smidas", e_s), ("truncgrad", e_t)):
                if s in paper:
                    if ds in ("duke", "arcene") and _same(lam, less):
                        small_factor.append(_ratio(e, paper[s]))
                    else:
                        large_factor.append(_ratio(e, paper[s]))
                        larger_elsewhere += e > paper[s] * (1 + 1e-9)
        for s in ("smidas", "truncgrad"):
            pairs += 1
            smaller += data.eta(ds, s, more) < data.eta(ds, s, less)
    out.update({"eta-rows": rows, "eta-smidas-larger": int(larger_rows), "eta-ratio-min": min(ratios),
                "eta-ratio-max": max(ratios), "eta-smaller": int(smaller), "eta-pairs": pairs,
                "eta-factor-small": max(small_factor) if small_factor else math.nan,
                "eta-factor-large": max(large_factor) if large_factor else math.nan,
                "eta-larger-elsewhere": int(larger_elsewhere), "eta-elsewhere": len(large_factor),
                "eta-edges": sum(bool(edge) for _e, edge in data.tuning.chosen_etas().values())})
    # the figures
    stats = {(ds, lam): figure_stats(data, ds, lam) for ds in data.names for lam in data.lams}
    out["gcd-excess-min"] = min(stats[(ds, less)].excess["GCD"] for ds in data.names)
    out["gcd-excess-max"] = max(stats[(ds, less)].excess["GCD"] for ds in data.names)
    if "magic04s" in data.names:
        out["scd-m4s-final"] = stats[("magic04s", less)].objective["SCD"]
        out["scd-m4s-excess"] = stats[("magic04s", less)].excess["SCD"]
    out["dense-min"] = min(stats[(ds, less)].nnz[n] / stats[(ds, less)].d for ds in data.names
                           for n in OTHERS_THAN_GCD)
    for ds in data.names:
        out[f"scd-l0-{ds}"] = stats[(ds, more)].nnz["SCD"]
    if "magic04d" in data.names:
        ds = data.datasets["magic04d"]
        w, _p = reference_solution(ds.problem(more), tol=1e-8)
        out["wstar-m4d"] = int(np.count_nonzero(w))
        out["wstar-m4d-random"] = int(np.count_nonzero(w[ds.d - 1000:]))
    if {"magic04s", "magic04d"} <= set(data.names):
        for ds, k in (("magic04s", "lead-m4s"), ("magic04d", "lead-m4d")):
            st = stats[(ds, more)]
            out[k] = st.excess["TruncGrad"] - st.excess["SMIDAS"]
    # the claims
    claims = evaluate_claims(data)
    out["n-held"] = sum(r.held is True for r in claims)
    out["n-undecided"] = sum(r.verdict == "undecided" for r in claims)
    out["n-claims"] = len(claims)
    # who reaches the minimum P* (within the target of the descent) at lambda = 1e-2, and how far above it the
    # closest algorithm of each figure ends
    reached = [f"{n} on {ds.upper()}" for ds in data.names for n in ALL
               if stats[(ds, more)].p_star is not None and math.isfinite(stats[(ds, more)].reach[n])]
    out["_reached"] = (" and ".join(reached) if reached else "no algorithm")
    out["n-reached"] = len(reached)
    closest = [min(stats[(ds, more)].above_min.values()) for ds in data.names if stats[(ds, more)].p_star is not None]
    if closest:
        out["above-min-max"] = max(closest)
    d_of = {ds: data.d(ds) for ds in data.names}
    eff = [stats[(ds, less)].nnz_effective["SMIDAS"] / d_of[ds] for ds in data.names]
    out["eff-smidas-min"], out["eff-smidas-max"] = min(eff), max(eff)
    ps = {ds: math.ceil(2 * math.log(d_of[ds])) for ds in data.names}
    out["p-duke"] = ps.get("duke", ps[data.names[0]])
    out["p-magic"] = ps.get("magic04s", ps[data.names[-1]])
    # the demo: SMIDAS's step on DUKE (the paper's Figure 5)
    demo = "duke" if "duke" in data.names else data.names[0]
    grid = data.grid(demo, "smidas", more)
    e0 = data.eta(demo, "smidas", more)
    k0 = grid.index(e0)
    down, up = grid[max(k0 - 1, 0)], grid[min(k0 + 1, len(grid) - 1)]
    fin = {e: float(data.runs(demo, "smidas", more, e).objective[:, -1].mean()) for e in (down, e0, up)}
    scd_final = float(data.runs(demo, "scd", more).objective[:, -1].mean())
    out.update({"demo-eta": e0, "demo-eta-down": down, "demo-eta-up": up, "demo-final": fin[e0],
                "demo-final-down": fin[down], "demo-final-up": fin[up], "demo-scd": scd_final,
                "demo-peak-up": float(data.runs(demo, "smidas", more, up).objective.mean(axis=0).max())})
    out["_demo_compare"] = "lower" if fin[down] < fin[e0] else ("the same" if fin[down] == fin[e0] else "higher")
    out["_demo_up_compare"] = "behind SCD" if fin[up] > scd_final else "still ahead of SCD"
    keeps = (fin[down] < scd_final, fin[up] < scd_final)
    out["_demo_direction"] = {(True, False): "**Down.**", (False, True): "**Up.**", (True, True): "**Both ways.**",
                              (False, False): "**Neither way.**"}[keeps]
    # exercises
    duke = data.datasets.get("duke")
    if duke is not None:
        m, d = duke.m, duke.d
        ep = data.epochs if not isinstance(data.epochs, dict) else data.epochs["duke"]
        out.update({"ex-duke-scd": int(round(ep * d)), "ex-duke-smidas": int(round(ep * m)),
                    "ex-duke-gcd": int(data.runs("duke", "gcd", more).iteration[-1])})
        out["ex-duke-gcd-frac"] = out["ex-duke-gcd"] / d
        out["ex-duke-gcd-reads"] = float(d) * (m * d + m)
    if "magic04d" in data.names:
        st = stats[("magic04d", less)]
        out.update({"ex-c10-scd": st.excess["SCD"], "ex-c10-smidas": st.excess["SMIDAS"],
                    "ex-c10-tg": st.excess["TruncGrad"]})
    out["ex-link-duke"] = 10 ** (-6 / (out["p-duke"] - 1))
    out["ex-link-magic"] = 10 ** (-6 / (out["p-magic"] - 1))
    cyc = cyclic_sweep(data) if cyclic is None else cyclic
    best = None
    mid = None
    for ds in data.names:
        for lam in data.lams:
            a = cyc.runs(ds, "scd", lam).objective[0]
            b = cyc.runs(ds, "cyclic_cd", lam).objective[0]
            diff = abs(a[-1] - b[-1])
            if best is None or diff > best[0]:
                best = (diff, ds, lam, a[0])
            dm = float(np.max(np.abs(a - b)))
            if mid is None or dm > mid[0]:
                spread = data.runs(ds, "scd", lam).objective
                mid = (dm, ds, lam, float(np.max(spread.max(axis=0) - spread.min(axis=0))))
    out["ex-cyclic-diff"], out["ex-cyclic-frac"] = float(best[0]), float(best[0] / best[3])
    out["_cyclic_where"] = _where(best[1], best[2])
    out["ex-cyclic-mid"], out["ex-cyclic-spread"] = mid[0], mid[3]
    out["_cyclic_mid_where"] = _where(mid[1], mid[2])
    return {k: v if isinstance(v, str) else (int(v) if isinstance(v, (bool, int, np.integer)) else float(v))
            for k, v in out.items()}


# ---------------------------------------------------------------------------------------------- figures
#: the smallest font of the chapter's figures (points): every text of a figure is at least this large
MIN_FONT = 9


def _wrap(text, width=100) -> str:
    return "\n".join(textwrap.wrap(text, width))


def _budget_text(data: ExperimentData, dataset=None) -> str:
    ep = data.epochs
    if isinstance(ep, dict):
        ep = ep.get(dataset) if dataset is not None else None
    ep = f"{ep:g} passes over X" if isinstance(ep, (int, float)) else "the sweep's budget"
    return f"{ep} per algorithm; SCD, SMIDAS, TruncGrad: mean of {data.n_seeds} seed(s), band min–max"


def _standin_box(ax, data, dataset):
    if data.offline(dataset):
        ax.text(0.98, 0.96, f"OFFLINE STAND-IN for {dataset.upper()}", transform=ax.transAxes,
                ha="right", va="top", fontsize=MIN_FONT, color="C3", bbox=dict(fc="w", ec="C3", lw=1.2))


def _check_eta(data, dataset, solver, lam, eta):
    if eta is None:
        return data.eta(dataset, solver, lam)
    grid = data.grid(dataset, solver, lam)
    if not any(_same(eta, g) for g in grid):
        raise ValueError(f"eta_{solver}={eta!r} is not on the step-size grid "
                         f"({', '.join(f'{g:g}' for g in grid)})")
    return next(g for g in grid if _same(eta, g))


def _draw_pair(ax0, ax1, data, dataset, lam, etas, optimum, long_labels=True):
    """One of the paper's Figures 1-8 on two axes: P(w) (linear) on ``ax0``, ||w||_0 on ``ax1``, against data
    accesses.  Returns the labelled artists of both axes, for a figure legend."""
    named, colors = {}, {}
    for s in PAPER_SOLVERS:
        name = SOLVER_NAMES[s]
        if s in etas:
            chosen = data.eta(dataset, s, lam)
            tag = "chosen by grid" if _same(etas[s], chosen) else f"grid choice {chosen:g}"
            label = f"{name}, η = {etas[s]:g} ({tag})" if long_labels else name
            named[label] = data.runs(dataset, s, lam, etas[s])
        else:
            label = name + (" (deterministic)" if s == "gcd" and long_labels else "")
            named[label] = data.runs(dataset, s, lam)
        colors[label] = ALGORITHM_COLORS[name]
    lines = plot_objective_and_nnz((ax0, ax1), named, 0.0, colors=colors)
    for label, (lg, ln) in ((k, v) for k, v in lines.items() if k in named):
        lg.set_label(label)                  # the seeds and the band are said once, in the title
        ln.set_label(label)
    ax0.set_yscale("linear")
    p0 = float(np.mean([r.objective[:, 0].mean() for r in named.values()]))
    top = 1.25 * p0
    ax0.set_ylim(0, top)
    if any(np.any(r.objective.max(axis=0)[1:] > top) for r in named.values()):
        ax0.text(0.02, 0.03, "early overshoot above the axis", transform=ax0.transAxes, ha="left", va="bottom",
                 fontsize=MIN_FONT, color="0.35")
    ax0.axhline(p0, color="0.6", ls=":", lw=1, label="P(0) = log 2")
    ax0.set_ylabel(r"$P(w)$")
    d = data.d(dataset)
    ax1.axhline(d, color="k", ls=":", lw=1, label=f"d = {d}" if long_labels else "d")   # not P(0)'s grey
    ax1.set_ylim(0, 1.05 * d)
    ax1.set_ylabel(r"$\|w\|_0$")
    if optimum:
        p_star, l0_star = data.optimum(dataset, lam)
        ax0.axhline(p_star, color="k", ls="--", lw=1,
                    label=f"minimum P* = {p_star:.4f}" if long_labels else "minimum P*")
        ax1.axhline(l0_star, color="k", ls="--", lw=1,
                    label=rf"$\|w^\star\|_0$ = {l0_star}" if long_labels else r"$\|w^\star\|_0$")
    handles, labels = [], []
    for ax in (ax0, ax1):
        for h, lb in zip(*ax.get_legend_handles_labels()):
            if lb not in labels:
                handles.append(h)
                labels.append(lb)
    return handles, labels


def _default_optimum(data, lam, optimum):
    if optimum is None:
        return lam >= 1e-3 and data.datasets is not None
    return bool(optimum)


#: the live figure's fixed margins (fractions of the 7.2 x 7.4 in figure): room for a title of four lines and a
#: legend of three rows.  The static figures use the constrained layout; the live one keeps its axes where these
#: put them, so a move costs one draw and no layout pass.
LIVE_MARGINS = dict(left=0.1, right=0.97, bottom=0.2, top=0.83, hspace=0.3)
#: the size of :func:`experiment_figure` (inches): the page's width, two panels stacked
FIGSIZE = (7.2, 7.4)


@_style.book_figure
def experiment_figure(dataset="duke", lam=1e-6, eta_smidas=None, eta_truncgrad=None, optimum=None, data=None,
                      figsize=FIGSIZE, fig=None, live=False, **budget) -> Figure:
    """One of the paper's Figures 1-8: the regularized objective P(w) (top, linear y-axis as in the paper) and
    ||w||_0 (bottom) against data accesses (log x-axis) for SCD, GCD, SMIDAS and TruncGrad, logistic loss.

    ``eta_smidas`` / ``eta_truncgrad``: a step size of the grid, None for the one chosen by grid (the legend says
    which).  ``optimum``: draw the minimum P* and ||w*||_0 (:meth:`ExperimentData.optimum`); None draws them for
    lam >= 1e-3 (at lam = 1e-6 the data sets are separable or nearly so and the reference solver would chase a
    huge w*).  ``data``: an :class:`ExperimentData`; otherwise :func:`experiment_data` with ``budget`` (epochs,
    n_seeds, n_checkpoints, etas; defaults :data:`EXPERIMENT_DEFAULTS`).

    The title names the data set actually used (its label), and a stand-in also carries a red "OFFLINE
    STAND-IN" box.  The objective axis ends at 1.25 P(0): the large step sizes the grid picks overshoot far
    above P(0) in their first steps, and a note says so when a curve leaves the axis.  Every text is at least
    :data:`MIN_FONT` points; the legend is under the panels.

    ``fig``: a figure this function returned before, redrawn in place (:func:`l1lab.book.live.figure_axes`).
    ``live=True``: fixed margins (:data:`LIVE_MARGINS`) instead of the constrained layout, for the widget.
    """
    data = _data(data, budget)
    data.check(dataset, lam)
    etas = {"smidas": _check_eta(data, dataset, "smidas", lam, eta_smidas),
            "truncgrad": _check_eta(data, dataset, "truncgrad", lam, eta_truncgrad)}
    if live:
        fig, (ax0, ax1) = figure_axes(fig, figsize, layout=None, nrows=2, ncols=1, gridspec_kw=LIVE_MARGINS)
    else:
        fig, (ax0, ax1) = figure_axes(fig, figsize, nrows=2, ncols=1)
    handles, labels = _draw_pair(ax0, ax1, data, dataset, lam, etas, _default_optimum(data, lam, optimum))
    ax0.set_xlabel("")
    if live:
        fig.legend(handles, labels, loc="lower center", bbox_to_anchor=(0.5, 0.0), ncol=2, fontsize=MIN_FONT)
    else:
        fig.legend(handles, labels, loc="outside lower center", ncol=2, fontsize=MIN_FONT)
    _standin_box(ax0, data, dataset)
    k = _lookup(FIGURES, dataset, lam)
    what = _lookup_lam(_LAM_NAMES, lam)
    head = (f"Figure {k} of the paper: " if k else "") + \
        f"{dataset.upper()}, λ = {_lam_text(lam)}" + (f" ({what})" if what else "")
    fig.suptitle(head + "\n" + _wrap("data actually used: " + data.label(dataset)) + "\n"
                 + _budget_text(data, dataset), fontsize=MIN_FONT, **(dict(y=0.995, va="top") if live else {}))
    return fig


@_style.book_figure
def overview_figure(lam=1e-6, data=None, optimum=None, figsize=(7.2, 11.0), **budget) -> Figure:
    """The four figures of one lambda on one page (Figures 1-4 for 1e-6, 5-8 for 1e-2): a row per data set,
    P(w) (left, linear) and ||w||_0 (right) against data accesses, at the chosen step sizes.  Each row's
    titles name the data set and the paper's figure, and say "offline stand-in" when it is one; one legend under
    the rows.  ``optimum`` as in :func:`experiment_figure` (the minimum P* and ||w*||_0, dashed)."""
    data = _data(data, budget)
    if not any(_same(lam, v) for v in data.lams):
        raise ValueError(f"lam must be one of {data.lams}, got {lam!r}")
    names = data.names
    fig = Figure(figsize=figsize, layout="constrained")
    axes = np.atleast_2d(fig.subplots(len(names), 2))
    optimum = _default_optimum(data, lam, optimum)
    handles, labels = [], []
    for (ax0, ax1), ds in zip(axes, names):
        etas = {s: data.eta(ds, s, lam) for s in ("smidas", "truncgrad")}
        h, lb = _draw_pair(ax0, ax1, data, ds, lam, etas, optimum, long_labels=False)
        for hh, ll in zip(h, lb):
            if ll not in labels:
                handles.append(hh)
                labels.append(ll)
        k = _lookup(FIGURES, ds, lam)
        where = f"{ds.upper()}" + (" (offline stand-in)" if data.offline(ds) else "")
        ax0.set_title(f"paper's Fig. {k}: {where}" if k else where, fontsize=10, loc="left")
        eta_text = ", ".join(f"η {SOLVER_NAMES[s]} = {e:g}" for s, e in etas.items())
        ax1.set_title(eta_text, fontsize=MIN_FONT, loc="right")
        if ds != names[-1]:
            ax0.set_xlabel("")
            ax1.set_xlabel("")
    fig.legend(handles, labels, loc="outside lower center", ncol=4, fontsize=MIN_FONT)
    what = _lookup_lam(_LAM_NAMES, lam)
    figs = sorted(_lookup(FIGURES, ds, lam) or 0 for ds in names)
    head = (f"Figures {figs[0]}–{figs[-1]} of the paper, " if figs[0] else "") + \
        f"λ = {_lam_text(lam)}" + (f" ({what})" if what else "")
    n_off = sum(data.offline(ds) for ds in names)
    note = "" if not n_off else (" — all on offline stand-ins" if n_off == len(names)
                                 else f" — {n_off} of {len(names)} on offline stand-ins")
    fig.suptitle(head + note + "\n" + _budget_text(data), fontsize=10)
    return fig


@_style.book_figure
def eta_figure(data=None, figsize=None, **budget) -> Figure:
    """The step-size choice: the final objective of the tuning run (seed 0) against eta for SMIDAS and TruncGrad,
    a panel per data set (two columns), both lambdas (1e-6 in the algorithm's colour, 1e-2 in a lighter shade of it
    with a dot at every step size of the grid; both measured, so both solid); a filled circle marks the step size
    chosen (the smallest
    final objective, as Section 4.2 chose) and a triangle on the x-axis the paper's Table 1 value (filled: lambda =
    1e-6, open: 1e-2).  Runs that diverged (non-finite objective) are marked x at the top.  A panel of a stand-in
    says so in its title."""
    data = _data(data, budget)
    names = data.names
    ncols = min(2, len(names))
    nrows = -(-len(names) // ncols)
    figsize = figsize or (7.2, 3.2 * nrows + 1.2)
    fig = Figure(figsize=figsize, layout="constrained")
    axes = np.atleast_1d(fig.subplots(nrows, ncols, sharey=False)).ravel()
    # both lambdas are measured curves, so both are solid: lambda = 1e-2 is a lighter shade of the algorithm's colour
    # with a dot at every step size of the grid
    shades = {1e-6: 0.0, 1e-2: -0.5}
    for ax, ds in zip(axes, names):
        tops = []
        for s in ("smidas", "truncgrad"):
            name = SOLVER_NAMES[s]
            for lam in data.lams:
                grid = data.grid(ds, s, lam)
                vals = np.array([data.tuning.final_objective(ds, s, lam, e) for e in grid])
                ok = np.isfinite(vals)
                shade = _lookup_lam(shades, lam)
                color = _style.shade(name, -0.25 if shade is None else shade)
                ax.plot(np.array(grid)[ok], vals[ok], color=color, lw=1.5, marker="." if shade else None,
                        label=f"{name}, λ = {_lam_text(lam)}")
                e = data.eta(ds, s, lam)
                ax.plot([e], [data.tuning.final_objective(ds, s, lam, e)], "o", color=color, ms=7)
                paper = (_lookup(PAPER_TABLE1, ds, lam) or {}).get(s)
                if paper is not None:
                    less = lam < 1e-4
                    ax.plot([paper], [0.0], marker="^" if less else "v", color=ALGORITHM_COLORS[name], ms=8,
                            mfc=ALGORITHM_COLORS[name] if less else "w", clip_on=False,
                            transform=ax.get_xaxis_transform(), ls="none")
                if not ok.all():
                    tops += list(np.array(grid)[~ok])
        ax.set_xscale("log")
        ax.set_yscale("log")
        if tops:
            ax.plot(tops, [0.98] * len(tops), "kx", ms=5, transform=ax.get_xaxis_transform(), clip_on=False)
        ax.set_title(ds.upper() + (" (offline stand-in)" if data.offline(ds) else ""), fontsize=10)
        ax.grid(True, which="major", alpha=0.3)
    for ax in axes[len(names):]:
        ax.set_visible(False)
    for k, ax in enumerate(axes[:len(names)]):
        if k % ncols == 0:
            ax.set_ylabel("final objective, seed 0")
        if k >= len(names) - ncols:
            ax.set_xlabel("step size η")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncol=2, fontsize=MIN_FONT)
    fig.suptitle("Step size by grid: ● chosen (smallest final objective); on the x-axis the paper's Table 1,\n"
                 "▲ λ = 1e-6, ▽ λ = 1e-2; × diverged", fontsize=10)
    return fig


def experiment_demo(dataset="duke", lam=1e-6, data=None, **budget):
    """Live version of :func:`experiment_figure`: the data set, lambda, and the step sizes of SMIDAS and TruncGrad
    on a slider over the grid (the chosen one is marked "(chosen)" and selected whenever the data set or lambda
    changes; a move of the data set or lambda draws the figure once, with the new chosen step sizes).  A step
    size other than the chosen one runs its seeds on demand (cached on disk).  The figure is redrawn in place.
    Returns an ipywidgets VBox."""
    import ipywidgets as widgets

    data = _data(data, budget)
    data.check(dataset, lam)
    lam = next(v for v in data.lams if _same(v, lam))

    def options(ds, lm, s):
        e0 = data.eta(ds, s, lm)
        return [(f"{e:g}" + (" (chosen)" if _same(e, e0) else ""), e) for e in data.grid(ds, s, lm)]

    controls = dict(
        dataset=widgets.Dropdown(options=[(n.upper(), n) for n in data.names], value=dataset, description="data"),
        lam=widgets.Dropdown(options=[(f"{_lam_text(v)}" + (f" ({_lookup_lam(_LAM_NAMES, v)})"
                                                                if _lookup_lam(_LAM_NAMES, v) else ""), v)
                                      for v in data.lams],
                             value=lam, description="λ"),
    )
    for s, desc in (("smidas", "η SMIDAS"), ("truncgrad", "η TruncGrad")):
        controls[f"eta_{s}"] = widgets.SelectionSlider(options=options(dataset, lam, s),
                                                       value=data.eta(dataset, s, lam), description=desc,
                                                       continuous_update=False,
                                                       layout=widgets.Layout(width="420px"))

    sliders = [controls["eta_smidas"], controls["eta_truncgrad"]]

    def reset(_change=None):
        # runs before the redraw that the data set's or lambda's own change triggers (observed first): the step
        # size sliders are set without redrawing for each of them, so a move draws one figure, the final one
        ds, lm = controls["dataset"].value, controls["lam"].value
        for sl in sliders:
            sl.unobserve(box.update, names="value")
        try:
            for s, sl in zip(("smidas", "truncgrad"), sliders):
                sl.options = options(ds, lm, s)
                sl.value = data.eta(ds, s, lm)
        finally:
            for sl in sliders:
                sl.observe(box.update, names="value")

    controls["dataset"].observe(reset, names="value")
    controls["lam"].observe(reset, names="value")

    def figure(dataset, lam, eta_smidas, eta_truncgrad, fig=None):
        return experiment_figure(dataset, lam, eta_smidas, eta_truncgrad, data=data, fig=fig, live=True)

    box = wire(controls, figure, [["dataset", "lam"], ["eta_smidas", "eta_truncgrad"]])
    return box


def experiment_player(data=None, **static):
    """The demo for the HTML book: :func:`experiment_demo` on ``data``, started at :data:`EXPERIMENT_STATIC`'s data
    set and lambda, precomputed by :func:`l1lab.book.static.static_player` over its grid, where each step size
    the grid does not list offers the chosen one and ``eta_neighbours`` grid values on each side (``static``
    overrides the entries of :data:`EXPERIMENT_STATIC`)."""
    opts = dict(EXPERIMENT_STATIC, **static)
    box = experiment_demo(opts.pop("dataset"), opts.pop("lam"), data=data)
    k = int(opts.pop("eta_neighbours"))
    grid = dict(opts.pop("grid"))
    for name in ("eta_smidas", "eta_truncgrad"):
        if name not in grid:
            values = list(box.controls[name].options)
            at = next(i for i, (_label, v) in enumerate(values) if _same(v, box.controls[name].value))
            grid[name] = tuple(v for _label, v in values[max(at - k, 0):at + k + 1])
    return static_player(box, grid, **opts)
