"""Many seeds of one solver on one problem, aligned checkpoint by checkpoint.

The theorems of the book bound an *expectation* over the algorithm's own randomness, e.g. Theorem 1 of
Shalev-Shwartz & Tewari (2011) bounds E[P(w_T)] - P*.  :func:`run_seeds` runs a solver once per seed and
stacks the traces into a :class:`SeedRuns`, whose :meth:`SeedRuns.gap_summary` gives the empirical mean (the
estimate of the expectation) and the min and max over seeds (the band the figures draw).

Every l1lab solver records its trace at checkpoints that depend only on ``n_iter`` and ``n_checkpoints``,
so runs with different seeds share them; :class:`SeedRuns` checks this and refuses to average otherwise.

:func:`run_sweep` runs algorithms × data sets × lambda × eta grid × seeds (Section 4 of Shalev-Shwartz & Tewari
2011), caches every run on disk under a key that names everything its numbers depend on, runs the missing ones
in parallel with joblib or on a Dask cluster, and returns a :class:`Sweep` that chooses eta by grid as the paper
did and prints the choice beside the paper's Table 1 (:func:`format_eta_table`).
"""
from __future__ import annotations

import hashlib
import json
import math
import os
import tempfile
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterable, Sequence

import numpy as np

from ._optional import progress_bar, require
from ._validate import check_array, check_callable, check_count, check_path, check_positive, check_seed
from .data import results as result_files
from .trace import Result, Trace

__all__ = ["GapSummary", "SeedRuns", "run_seeds", "PAPER_SOLVERS", "PAPER_LAMS", "PAPER_ETA_GRID", "PAPER_TABLE1",
           "SWEEP_SOLVERS", "DEFAULT_SOLVER_OPTIONS", "Sweep", "SweepRecord", "SweepTask", "SweepSolver",
           "format_eta_table", "run_sweep", "sweep_cache_dir"]


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
    >>> from l1lab.data import make_regression
    >>> X, y, _ = make_regression(50, 10, 3)
    >>> runs = run_seeds(l1lab.solvers.scd, l1lab.Problem(X, y, lam=1e-2), seeds=3, n_iter=100)
    >>> runs.objective.shape[0]
    3
    """
    check_callable(solver, "solver")
    seeds = _check_seeds(seeds)
    if "seed" in kwargs:
        raise ValueError("pass the seeds through `seeds`, not `seed`")
    results = [solver(problem, seed=s, **kwargs) for s in seeds]
    return SeedRuns.from_results(results, seeds)


# =============================================================================================== sweeps
# Algorithms x data sets x lambda x eta grid x seeds, cached on disk, in parallel (joblib), optionally on a Dask
# cluster (joblib's dask backend).  Section 4 of Shalev-Shwartz & Tewari (2011).

#: The four algorithms of Section 4.
PAPER_SOLVERS = ("scd", "gcd", "smidas", "truncgrad")
#: "less regularization" and "more regularization" (Sections 4.3.1 and 4.3.2).
PAPER_LAMS = (1e-6, 1e-2)
#: The eta grid: 1 and 5 times each power of ten from 1e-6 to 10 (1e-6, 5e-6, ..., 10, 50).  It contains every
#: value of the paper's Table 1.
PAPER_ETA_GRID = tuple(sorted(c * 10.0 ** k for k in range(-6, 2) for c in (1, 5)))
#: Table 1 of Shalev-Shwartz & Tewari (2011): the step sizes used for SMIDAS and TRUNCGRAD.
PAPER_TABLE1 = {
    ("duke", 1e-6): {"smidas": 50.0, "truncgrad": 1e-1},
    ("duke", 1e-2): {"smidas": 1e-1, "truncgrad": 1e-2},
    ("arcene", 1e-6): {"smidas": 50.0, "truncgrad": 1e-1},
    ("arcene", 1e-2): {"smidas": 1e-2, "truncgrad": 5e-5},
    ("magic04s", 1e-6): {"smidas": 1e-2, "truncgrad": 5e-4},
    ("magic04s", 1e-2): {"smidas": 1e-4, "truncgrad": 5e-5},
    ("magic04d", 1e-6): {"smidas": 5e-3, "truncgrad": 1e-4},
    ("magic04d", 1e-2): {"smidas": 1e-3, "truncgrad": 1e-5},
}

_CACHE_FORMAT = 1
_COMMON_CODE = ("problem.py", "losses.py", "trace.py", "solvers/_checks.py")


@dataclass(frozen=True)
class SweepSolver:
    """How the sweep runs one solver: where it lives, whether it takes eta and a seed, what an iteration
    reads ("column": one column, "row": one example, "full": all of X plus a column), and the source files
    whose contents define its numbers (hashed into the cache key)."""

    module: str
    function: str
    uses_eta: bool
    uses_seed: bool
    cost: str
    code: tuple


_CD_CODE = ("solvers/coordinate.py", "solvers/_cd_kernels.py")
_MD_CODE = ("solvers/mirror.py", "solvers/_mirror_kernels.py", "solvers/_example_driver.py", "links.py")

#: Solvers :func:`run_sweep` knows by name.
SWEEP_SOLVERS = {
    "scd": SweepSolver("l1lab.solvers.coordinate", "scd", False, True, "column", _CD_CODE),
    "cyclic_cd": SweepSolver("l1lab.solvers.coordinate", "cyclic_cd", False, False, "column", _CD_CODE),
    "gcd": SweepSolver("l1lab.solvers.coordinate", "gcd", False, False, "full", _CD_CODE),
    "smidas": SweepSolver("l1lab.solvers.mirror", "smidas", True, True, "row", _MD_CODE),
    "truncgrad": SweepSolver("l1lab.solvers.mirror", "truncgrad", True, True, "row", _MD_CODE),
    "sgd": SweepSolver("l1lab.solvers.mirror", "sgd", True, True, "row", _MD_CODE),
}
#: Options every sweep passes unless overridden: the paper's SMIDAS uses p = ceil(2 ln d) (Section 4.3.3).
DEFAULT_SOLVER_OPTIONS = {"smidas": {"p_rounded": True}}


def _code_version(solver: str) -> str:
    """SHA-256 (16 hex digits) of the source files that define ``solver``'s numbers: editing any of them
    changes the cache key, so stale results are never served."""
    return _code_hash(SWEEP_SOLVERS[solver].code + _COMMON_CODE)


@lru_cache(maxsize=None)
def _code_hash(files) -> str:
    root = Path(__file__).resolve().parent
    h = hashlib.sha256()
    for rel in files:
        h.update(rel.encode())
        h.update((root / rel).read_bytes())
    return h.hexdigest()[:16]


@dataclass(frozen=True)
class SweepTask:
    """One run of a sweep.  ``eta`` is None for solvers without a step size, ``seed`` None for deterministic
    ones (GCD, cyclic CD)."""

    dataset: str
    solver: str
    lam: float
    eta: float | None
    seed: int | None
    n_iter: int


@dataclass
class SweepRecord:
    """A finished run: its task, the solver's :class:`l1lab.Result`, its cache key and whether it came from
    the cache."""

    task: SweepTask
    result: Result
    key: str
    cached: bool

    def __getattr__(self, name):  # record.solver, record.lam, ... read through to the task
        if name in ("dataset", "solver", "lam", "eta", "seed", "n_iter"):
            return getattr(self.task, name)
        raise AttributeError(name)


def _same(a, b) -> bool:
    if a is None or b is None:
        return a is b
    return math.isclose(float(a), float(b), rel_tol=1e-9, abs_tol=0.0)


@dataclass
class Sweep:
    """The records of :func:`run_sweep`, with selection, stacking over seeds and the choice of eta.

    Attributes
    ----------
    records : list of :class:`SweepRecord`, in task order
    datasets : dict name -> {"label", "offline", "fingerprint", "shape"} of the data sets swept
    n_cached, n_computed : how many runs came from the cache and how many were run now
    """

    records: list
    datasets: dict
    n_cached: int = 0
    n_computed: int = 0

    def select(self, dataset=None, solver=None, lam=None, eta=None, seed=None) -> list:
        """The records matching every given field (floats compared to a relative 1e-9)."""
        out = []
        for r in self.records:
            t = r.task
            if dataset is not None and t.dataset != dataset:
                continue
            if solver is not None and t.solver != solver:
                continue
            if lam is not None and not _same(t.lam, lam):
                continue
            if eta is not None and not _same(t.eta, eta):
                continue
            if seed is not None and t.seed != seed:
                continue
            out.append(r)
        return out

    def etas(self, dataset, solver, lam) -> list:
        """The step sizes run for (dataset, solver, lam), sorted ([None] for solvers without one)."""
        found = {r.task.eta for r in self.select(dataset, solver, lam)}
        if not found:
            raise ValueError(f"the sweep has no run of {solver!r} on {dataset!r} with lam={lam:g}")
        return sorted(found, key=lambda e: -math.inf if e is None else e)

    def runs(self, dataset, solver, lam, eta=None) -> SeedRuns:
        """The runs of one configuration stacked over seeds (a :class:`SeedRuns`).  For a solver with a step
        size, ``eta=None`` means the one :meth:`best_eta` chooses."""
        if eta is None and SWEEP_SOLVERS[solver].uses_eta:
            eta = self.best_eta(dataset, solver, lam)
        recs = [r for r in self.select(dataset, solver, lam) if _same(r.task.eta, eta)]
        if not recs:
            raise ValueError(f"the sweep has no run of {solver!r} on {dataset!r} with lam={lam:g}, eta={eta}")
        recs.sort(key=lambda r: -1 if r.task.seed is None else r.task.seed)
        return SeedRuns.from_results([r.result for r in recs], [r.task.seed for r in recs])

    def final_objective(self, dataset, solver, lam, eta=None) -> float:
        """Mean over seeds of P(w_T) at the last checkpoint (+inf if any run ended non-finite)."""
        recs = [r for r in self.select(dataset, solver, lam) if _same(r.task.eta, eta)]
        if not recs:
            raise ValueError(f"the sweep has no run of {solver!r} on {dataset!r} with lam={lam:g}, eta={eta}")
        vals = np.array([r.result.trace.objective[-1] for r in recs], dtype=np.float64)
        return float(vals.mean()) if np.all(np.isfinite(vals)) else math.inf

    def best_eta(self, dataset, solver, lam) -> float:
        """The step size whose runs reach the smallest mean final objective, as Section 4.2 chose it ("we ran
        SMIDAS and TRUNCGRAD for a range of different values of eta and chose the one that yielded the
        minimum value of the objective function").  Ties go to the smaller eta."""
        if not SWEEP_SOLVERS[solver].uses_eta:
            raise ValueError(f"{solver!r} has no step size to choose")
        etas = self.etas(dataset, solver, lam)
        vals = [self.final_objective(dataset, solver, lam, e) for e in etas]
        if not np.any(np.isfinite(vals)):
            raise ValueError(f"every run of {solver!r} on {dataset!r} with lam={lam:g} diverged; try smaller eta")
        return etas[int(np.argmin(vals))]

    def chosen_etas(self, solvers=("smidas", "truncgrad")) -> dict:
        """{(dataset, lam, solver): (chosen eta, at the edge of its grid?)} for every swept combination."""
        out = {}
        for ds in self.datasets:
            for lam in sorted({r.task.lam for r in self.select(ds)}):
                for s in solvers:
                    if self.select(ds, s, lam):
                        grid = self.etas(ds, s, lam)
                        e = self.best_eta(ds, s, lam)
                        out[(ds, lam, s)] = (e, len(grid) > 1 and (e == grid[0] or e == grid[-1]))
        return out

    def label(self, dataset) -> str:
        """The label a figure of ``dataset`` must show (it says "offline stand-in for ..." for a stand-in)."""
        return self.datasets[dataset]["label"]

    def summary(self) -> list:
        """One dict per record: the task's fields, the final objective, final l0 and data accesses, cached."""
        return [dict(dataset=r.task.dataset, solver=r.task.solver, lam=r.task.lam, eta=r.task.eta, seed=r.task.seed,
                     n_iter=r.task.n_iter, objective=float(r.result.trace.objective[-1]),
                     nnz=int(r.result.trace.nnz[-1]), data_accesses=float(r.result.trace.data_accesses[-1]),
                     cached=r.cached) for r in self.records]

    def eta_table(self, paper=None) -> str:
        """The chosen step sizes beside the paper's Table 1 (see :func:`format_eta_table`)."""
        return format_eta_table(self, PAPER_TABLE1 if paper is None else paper)


def _fmt_eta(e) -> str:
    if e is None:
        return "—"
    m, k = f"{e:.0e}".split("e")
    k = int(k)
    if float(f"{m}e{k}") != e or not 0 < e:
        return f"{e:g}"
    if 0 <= k <= 2:
        return f"{e:g}"
    return f"10^{k}" if m == "1" else f"{m}×10^{k}"


def format_eta_table(sweep: Sweep, paper=None) -> str:
    """A plain-text table of the step sizes chosen by grid (:meth:`Sweep.best_eta`) beside Table 1 of
    Shalev-Shwartz & Tewari (2011).

    One row per (data set, lambda) of the sweep; "—" where the paper has no value (e.g. CCAT) or the solver was
    not swept.  A value chosen at either end of its grid is marked "†" (the grid may be too narrow), and a data
    set that is an offline stand-in is marked "*" with its label in a footnote.
    """
    if not isinstance(sweep, Sweep):
        raise TypeError(f"sweep must be an l1lab.experiments.Sweep (what run_sweep returns), got "
                        f"{type(sweep).__name__}")
    if paper is not None and not isinstance(paper, dict):
        raise TypeError(f"paper must be None or a dict like PAPER_TABLE1, got {type(paper).__name__}")
    paper = PAPER_TABLE1 if paper is None else paper
    chosen = sweep.chosen_etas()
    rows = []
    for ds, meta in sweep.datasets.items():
        lams = sorted({r.task.lam for r in sweep.select(ds)})
        for lam in lams:
            if not any((ds, lam, s) in chosen for s in ("smidas", "truncgrad")):
                continue
            ref = next((v for (pds, plam), v in paper.items() if pds == ds and _same(plam, lam)), {})
            cells = [f"{ds.upper()}{'*' if meta['offline'] else ''}, {_fmt_eta(lam)}"]
            for s in ("smidas", "truncgrad"):
                e, edge = chosen.get((ds, lam, s), (None, False))
                cells += [_fmt_eta(e) + ("†" if edge else ""), _fmt_eta(ref.get(s))]
            rows.append(cells)
    head = ["Data set, λ", "SMIDAS (ours)", "SMIDAS (paper)", "TRUNCGRAD (ours)", "TRUNCGRAD (paper)"]
    if not rows:
        return "no SMIDAS or TRUNCGRAD runs in this sweep"
    widths = [max(len(r[i]) for r in rows + [head]) for i in range(len(head))]
    line = lambda cells: "  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()  # noqa: E731
    out = [line(head), line(["-" * w for w in widths])] + [line(r) for r in rows]
    notes = [f"* {meta['label']}" for ds, meta in sweep.datasets.items() if meta["offline"]]
    if any("†" in c for r in rows for c in r):
        notes.append("† chosen at the edge of the eta grid")
    return "\n".join(out + ([""] + notes if notes else []))


# ----------------------------------------------------------------------------------------------- running
def sweep_cache_dir(path=None) -> Path:
    """Where sweep results are cached: ``path``, else ``$L1LAB_SWEEP_CACHE``, else ``<data home>/sweeps``
    (``$L1LAB_DATA/sweeps`` or ``~/.cache/l1lab/sweeps``)."""
    check_path(path, "path", allow_none=True)
    if path is None:
        env = os.environ.get("L1LAB_SWEEP_CACHE")
        if env:
            path = env
        else:
            from .data.real import data_home

            path = data_home() / "sweeps"
    p = Path(path).expanduser()
    p.mkdir(parents=True, exist_ok=True)
    return p


def _iterations(solver, ds, epochs) -> int:
    """Iterations that read about ``epochs`` passes over the data (epochs * nnz(X) data accesses)."""
    m, d, nnz = ds.m, ds.d, max(ds.nnz, 1)
    cost = {"column": nnz / d, "row": nnz / m, "full": nnz + nnz / d}[SWEEP_SOLVERS[solver].cost]
    return max(1, int(round(epochs * nnz / cost)))


def _task_key(task, ds, loss, n_checkpoints, options) -> str:
    spec = {"format": _CACHE_FORMAT, "solver": task.solver, "code": _code_version(task.solver),
            "data": ds.fingerprint, "loss": loss, "lam": float(task.lam),
            "eta": None if task.eta is None else float(task.eta), "seed": task.seed, "n_iter": int(task.n_iter),
            "n_checkpoints": int(n_checkpoints), "options": options}
    return hashlib.sha256(json.dumps(spec, sort_keys=True, default=repr).encode()).hexdigest()


_PROBLEMS: "OrderedDict" = OrderedDict()


def _problem(X, y, loss, lam, fingerprint):
    """Problems are rebuilt per (data, loss, lam), but a worker keeps the last two it built."""
    from .problem import Problem

    k = (fingerprint, loss, float(lam))
    if k not in _PROBLEMS:
        _PROBLEMS[k] = Problem(X, y, loss=loss, lam=lam)
        while len(_PROBLEMS) > 2:
            _PROBLEMS.popitem(last=False)
    return _PROBLEMS[k]


def _run_task(key, task, X, y, fingerprint, loss, n_checkpoints, options):
    """Run one task (in a worker) and return (key, packed result)."""
    import importlib

    spec = SWEEP_SOLVERS[task.solver]
    fn = getattr(importlib.import_module(spec.module), spec.function)
    kwargs = dict(options)
    if spec.uses_eta:
        kwargs["eta"] = task.eta
    if spec.uses_seed:
        kwargs["seed"] = task.seed
    res = fn(_problem(X, y, loss, task.lam, fingerprint), task.n_iter, n_checkpoints=n_checkpoints, **kwargs)
    return key, _pack(res)


def _pack(res: Result) -> dict:
    tr = res.trace
    w = np.asarray(res.w, dtype=np.float64)
    nz = np.flatnonzero(w)
    out = {"iteration": tr.iteration, "data_accesses": tr.data_accesses, "objective": tr.objective, "nnz": tr.nnz,
           "seconds": tr.seconds, "w_index": nz.astype(np.int64), "w_value": w[nz], "d": np.array(w.shape[0]),
           "info": np.array(json.dumps(res.info, default=repr))}
    if tr.flops is not None:
        out["flops"] = tr.flops
    return out


def _unpack(z) -> Result:
    w = np.zeros(int(z["d"]))
    w[np.asarray(z["w_index"])] = np.asarray(z["w_value"])
    trace = Trace(iteration=np.asarray(z["iteration"]), data_accesses=np.asarray(z["data_accesses"]),
                  objective=np.asarray(z["objective"]), nnz=np.asarray(z["nnz"]), seconds=np.asarray(z["seconds"]),
                  flops=np.asarray(z["flops"]) if "flops" in z else None)
    return Result(w=w, trace=trace, info=json.loads(str(z["info"])))


def _cache_path(cache: Path, key: str) -> Path:
    return cache / key[:2] / f"{key}.npz"


def _published(cache, path):
    """The path of a result file relative to the data home when ``cache`` is the default sweep cache (whose files
    the book's build publishes, :mod:`l1lab.data.results`), else None."""
    from .data.real import data_home

    try:
        return path.relative_to(data_home().resolve()).as_posix() if cache.resolve() == (
            data_home().resolve() / "sweeps") else None
    except ValueError:
        return None


def _cache_load(cache, key):
    if cache is None:
        return None
    path = _cache_path(cache, key)
    rel = _published(cache, path.resolve())
    if not path.exists() and rel is not None:
        result_files.fetch(rel)        # the book's published copy, if there is one to be had
    if not path.exists():
        return None
    try:
        with np.load(path, allow_pickle=False) as z:
            out = _unpack(z)
    except Exception:  # damaged file: recompute (it is rewritten atomically)
        return None
    if rel is not None:
        result_files.record(rel)
    return out


def _cache_store(cache, key, packed, meta):
    if cache is None:
        return
    path = _cache_path(cache, key)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{key[:12]}.", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as f:
            np.savez_compressed(f, meta=np.array(json.dumps(meta, default=repr)), **packed)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    rel = _published(cache, path.resolve())
    if rel is not None:
        result_files.record(rel)


def _as_datasets(datasets) -> dict:
    from .data.real import Dataset

    if isinstance(datasets, Dataset):
        datasets = [datasets]
    if isinstance(datasets, dict):
        datasets = list(datasets.values())
    if not isinstance(datasets, (list, tuple)):
        raise TypeError(f"datasets must be a Dataset or a list / dict of them (load_dataset(...) or "
                        f"Dataset.from_arrays(name, X, y)), got {type(datasets).__name__}")
    out = {}
    for ds in datasets:
        if not isinstance(ds, Dataset):
            raise TypeError(f"datasets must be l1lab.data.real.Dataset objects (load_dataset(...) or "
                            f"Dataset.from_arrays(name, X, y)), got {type(ds).__name__}")
        if ds.name in out:
            raise ValueError(f"two data sets are named {ds.name!r}; names identify runs in a sweep")
        out[ds.name] = ds
    if not out:
        raise ValueError("need at least one data set")
    return out


def _check_seeds(seeds, name="seeds"):
    """``seeds``: an int n >= 1 (meaning 0, ..., n-1) or a non-empty sequence of seeds; as a tuple."""
    if not isinstance(seeds, (list, tuple, range, np.ndarray)):
        n = check_count(seeds, f"{name} (a number of seeds >= 1, or a sequence of seeds)", minimum=1)
        return tuple(range(n))
    seeds = tuple(seeds)
    if not seeds:
        raise ValueError(f"{name} must not be empty: need at least one seed")
    for s in seeds:
        check_seed(s, f"every entry of {name}")
    return seeds


def _check_cluster(cluster):
    if cluster is None or isinstance(cluster, str) or hasattr(cluster, "scheduler_address") or hasattr(
            cluster, "submit"):
        return cluster
    raise TypeError(f"cluster must be None, a scheduler address, a dask Cluster or a Client, got "
                    f"{type(cluster).__name__}")


def _per(value, key, what):
    """``value`` itself, or ``value[key]`` when it is a mapping."""
    if isinstance(value, dict):
        if key not in value:
            raise ValueError(f"{what} has no entry for {key!r}")
        return value[key]
    return value


def _dask_client(cluster):
    try:
        from distributed import Client
    except ImportError as e:  # pragma: no cover - dask is in requirements.txt
        raise ImportError("run_sweep(cluster=...) needs dask.distributed: pip install 'l1lab[dask]'") from e
    if isinstance(cluster, Client):
        return cluster, False
    if isinstance(cluster, str):
        return Client(cluster, set_as_default=False, timeout=30), True
    if hasattr(cluster, "scheduler_address"):  # a dask Cluster object (LocalCluster, ...)
        return Client(cluster, set_as_default=False), True
    raise TypeError(f"cluster must be a scheduler address, a dask Cluster or a Client, got {type(cluster).__name__}")


def run_sweep(datasets, solvers=PAPER_SOLVERS, lams=PAPER_LAMS, etas=PAPER_ETA_GRID, seeds=1, epochs=10.0,
              n_iter=None, loss="logistic", n_checkpoints=40, solver_options=None, cache_dir=None, n_jobs=1,
              cluster=None, progress=None, recompute=False) -> Sweep:
    r"""Run every solver on every data set for every lambda, step size (where the solver has one) and seed,
    reusing results cached on disk.

    Parameters
    ----------
    datasets : a :class:`l1lab.data.real.Dataset`, or a list / dict of them (``load_dataset(...)`` or
        ``Dataset.from_arrays(name, X, y)``); features must lie in [-1, 1]
    solvers : names from :data:`SWEEP_SOLVERS` (default the paper's SCD, GCD, SMIDAS, TRUNCGRAD)
    lams : regularization strengths (default the paper's 1e-6 and 1e-2)
    etas : the step-size grid of SMIDAS, TRUNCGRAD and SGD: a sequence, or a dict solver -> sequence
        (default :data:`PAPER_ETA_GRID`, 1e-6 ... 50)
    seeds : an int n (seeds 0..n-1) or a sequence; deterministic solvers (GCD, cyclic CD) run once
    epochs : the budget in passes over the data, i.e. epochs * nnz(X) data accesses (the x-axis of the paper's
        figures), converted to iterations per solver: SCD reads a column per step, SMIDAS/TRUNCGRAD an example,
        GCD all of X; a float, or a dict data-set name -> float
    n_iter : optional dict solver -> iterations, overriding ``epochs`` for those solvers
    loss : "logistic" (the paper's experiments) or "squared"
    n_checkpoints : trace records per run (log-spaced)
    solver_options : dict solver -> keyword arguments, merged over :data:`DEFAULT_SOLVER_OPTIONS`
        (SMIDAS with p = ceil(2 ln d), as the paper)
    cache_dir : where results are kept (default :func:`sweep_cache_dir`); ``False`` disables the cache
    n_jobs : parallel runs with joblib (loky processes); 1 runs in this process
    cluster : a Dask scheduler address ("tcp://host:8786"), a dask Cluster or a ``distributed.Client``: run
        the missing tasks there through joblib's dask backend (workers need l1lab installed; results come
        back to this process, which alone writes the cache)
    progress : tqdm progress bar over the runs to do: True, False, or None (shown only if the sweep takes more
        than a couple of seconds)
    recompute : ignore cached results (and overwrite them)

    Returns
    -------
    Sweep

    Notes
    -----
    **Cache.**  Each run is one compressed ``.npz`` under ``cache_dir``, named by the SHA-256 of everything its
    numbers depend on: the solver, a hash of the solver's source files (and of problem/loss/trace code), the
    data set's fingerprint (a hash of its arrays, so an offline stand-in never collides with the real data),
    the loss, lambda, eta, seed, iterations, checkpoints and options.  Changing one parameter therefore reruns
    exactly the runs it affects; rebuilding a chapter reruns nothing.  Files are written atomically.

    **Determinism.**  A run depends only on its task, so the local, joblib and Dask paths give identical
    numbers (apart from the ``seconds`` of the trace).
    """
    data = _as_datasets(datasets)
    solvers = tuple(solvers)
    for s in solvers:
        if s not in SWEEP_SOLVERS:
            raise ValueError(f"unknown solver {s!r}; choose from {', '.join(SWEEP_SOLVERS)}")
    lams = tuple(float(v) for v in check_array(lams, "lams", ndim=(0, 1)).ravel())
    if any(v < 0 for v in lams):
        raise ValueError(f"lams must be finite numbers >= 0, got {lams}")
    seeds = tuple(check_count(s, "every entry of seeds", minimum=0) for s in _check_seeds(seeds))
    for e in (epochs.values() if isinstance(epochs, dict) else (epochs,)):
        check_positive(e, "epochs (passes over the data)")
    n_checkpoints = check_count(n_checkpoints, "n_checkpoints", minimum=2)
    if cache_dir is not False:
        check_path(cache_dir, "cache_dir (a path, None or False)", allow_none=True)
    if isinstance(n_jobs, (bool, np.bool_)) or not isinstance(n_jobs, (int, np.integer)) or n_jobs == 0:
        raise ValueError(f"n_jobs must be a non-zero integer (joblib's: -1 is every core), got {n_jobs!r}")
    _check_cluster(cluster)
    n_iter = dict(n_iter or {})
    options = {s: dict(DEFAULT_SOLVER_OPTIONS.get(s, {}), **(solver_options or {}).get(s, {})) for s in solvers}
    cache = None if cache_dir is False else sweep_cache_dir(cache_dir)

    tasks = []
    for name, ds in data.items():
        for s in solvers:
            spec = SWEEP_SOLVERS[s]
            its = int(n_iter[s]) if s in n_iter else _iterations(s, ds, float(_per(epochs, name, "epochs")))
            grid = (None,)
            if spec.uses_eta:
                grid = tuple(float(e) for e in np.atleast_1d(_per(etas, s, "etas")))
                if not grid or any(not (math.isfinite(e) and e > 0) for e in grid):
                    raise ValueError(f"the eta grid of {s!r} must hold finite positive numbers, got {grid}")
            for lam in lams:
                for eta in grid:
                    for seed in (seeds if spec.uses_seed else (None,)):
                        tasks.append(SweepTask(name, s, lam, eta, seed, its))

    keys = [_task_key(t, data[t.dataset], loss, n_checkpoints, options[t.solver]) for t in tasks]
    results = {}
    recompute = recompute or result_files.recompute_requested()
    if cache is not None and not recompute:
        published = [_published(cache, _cache_path(cache, k).resolve()) for k in set(keys)]
        result_files.fetch_many([r for r in published if r is not None])   # the book's copies, in parallel
    for k in set(keys):
        if not recompute:
            r = _cache_load(cache, k)
            if r is not None:
                results[k] = r
    n_cached = sum(1 for k in keys if k in results)
    todo = []
    for t, k in zip(tasks, keys):
        if k not in results and k not in {kk for _, kk in todo}:
            todo.append((t, k))

    if todo:
        _execute(todo, data, loss, n_checkpoints, options, cache, n_jobs, cluster, progress, results)
    records = [SweepRecord(t, results[k], k, cached=(k not in {kk for _, kk in todo})) for t, k in zip(tasks, keys)]
    meta = {name: {"label": ds.label, "offline": bool(ds.offline), "fingerprint": ds.fingerprint, "shape": ds.shape}
            for name, ds in data.items()}
    return Sweep(records=records, datasets=meta, n_cached=n_cached, n_computed=len(todo))


def _execute(todo, data, loss, n_checkpoints, options, cache, n_jobs, cluster, progress, results):
    bar = progress_bar(total=len(todo), desc="l1lab sweep", unit="run", disable=(progress is False),
                       delay=0 if progress else 2.0)

    def store(key, packed):
        task = by_key[key]
        ds = data[task.dataset]
        meta = {"task": task.__dict__, "dataset_label": ds.label, "offline": bool(ds.offline), "loss": loss,
                "n_checkpoints": n_checkpoints, "options": options[task.solver],
                "code": _code_version(task.solver), "created": time.strftime("%Y-%m-%dT%H:%M:%S")}
        _cache_store(cache, key, packed, meta)
        results[key] = _unpack(packed)
        bar.update(1)

    by_key = {k: t for t, k in todo}

    def call(t, k):
        ds = data[t.dataset]
        return joblib.delayed(_run_task)(k, t, ds.X, ds.y, ds.fingerprint, loss, n_checkpoints, options[t.solver])

    try:
        if cluster is None and n_jobs == 1:
            for t, k in todo:
                ds = data[t.dataset]
                store(*_run_task(k, t, ds.X, ds.y, ds.fingerprint, loss, n_checkpoints, options[t.solver]))
        elif cluster is None:
            joblib = require("joblib", "a parallel sweep (n_jobs != 1)", "parallel")
            parallel = joblib.Parallel(n_jobs=n_jobs, return_as="generator_unordered")
            for key, packed in parallel(call(t, k) for t, k in todo):
                store(key, packed)
        else:
            joblib = require("joblib", "a sweep on a Dask cluster", "dask")
            client, own = _dask_client(cluster)
            try:
                with joblib.parallel_config(backend="dask", client=client):
                    gen = joblib.Parallel(n_jobs=-1, return_as="generator_unordered")(call(t, k) for t, k in todo)
                    for key, packed in gen:
                        store(key, packed)
            finally:
                if own:
                    client.close()
    finally:
        bar.close()
