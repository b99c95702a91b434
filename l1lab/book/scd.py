r"""The demos of the chapter "Stochastic coordinate descent" (Section 2 of Shalev-Shwartz & Tewari 2011).

Each demo of the book has three layers, so the HTML book (no kernel) and the live notebook show the same figure:

* a cached *data* function (:func:`scd_bound_data`, :func:`cd_comparison_data`) that builds the problem, its
  reference optimum and the runs;
* a *figure* function (:func:`scd_bound_figure`, :func:`cd_comparison_figure`) that returns a
  ``matplotlib.figure.Figure`` (not managed by pyplot, so it is shown once and never leaks);
* the *widget* (:func:`scd_bound_demo`, :func:`cd_comparison_demo`): sliders and dropdowns wired to the figure
  function with ``continuous_update=False`` by :func:`l1lab.book.controls.wire`, which keeps one figure per widget
  and redraws it in place (the figure functions take ``fig=`` and get their axes from
  :func:`l1lab.book.live.figure_axes`);
* the *static player* (:func:`scd_bound_player`, :func:`cd_comparison_player`): the same widget precomputed over
  the grid :data:`SCD_BOUND_STATIC` or :data:`CD_COMPARISON_STATIC` by :func:`l1lab.book.static.static_player`,
  which works in the HTML book without a kernel.

A slider move answers in a median of at most 0.3 s on a 2-core machine (``benchmarks/bench_widgets.py``
measures it): the drawing is cut by the in-place redraw (:mod:`l1lab.book.live`), and the computing by caching
runs per seed (fewer seeds are the first of more; SCD runs are continued to a larger T), by computing every
position of the cheap controls when the widget is first shown, and by lighter live starting settings
(``*_LIVE``) than the chapter's static figures.

The slider ranges are chosen so that every setting, including the largest, answers in a few seconds on a
2-core machine (``tests/test_book_scd.py`` runs the largest ones).  The data functions run with one BLAS
thread: the demos' matrices are small, and on a busy 2-core machine a multi-threaded OpenBLAS made the reference
solver's small least-squares solves about ten times slower.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from matplotlib.figure import Figure
from threadpoolctl import threadpool_limits

from ..data.synthetic import make_classification, make_regression
from ..experiments import SeedRuns, run_seeds
from ..problem import Problem
from ..solvers import cyclic_cd, gcd, reference_solution, scd
from ..theory import shalev_shwartz_tewari as sst
from . import style as _style
from .controls import check_choice, check_range, int_slider, log_slider, wire
from .live import figure_axes
from .plotting import plot_gap_vs_bound, plot_objective_and_nnz
from .static import static_player
from .timing import Clock

__all__ = [
    "CD_COMPARISON_DEFAULTS", "CD_COMPARISON_LIMITS", "CD_COMPARISON_LIVE", "CD_COMPARISON_STATIC",
    "SCD_BOUND_DEFAULTS", "SCD_BOUND_LIMITS", "SCD_BOUND_LIVE", "SCD_BOUND_STATIC",
    "cd_comparison_data", "cd_comparison_demo", "cd_comparison_figure", "cd_comparison_player", "draw_scd_bound",
    "make_problem", "scd_bound_data", "scd_bound_demo", "scd_bound_figure", "scd_bound_player",
]

LOSSES = ("logistic", "squared")

#: defaults of demo 1 (Theorem 1 against SCD over seeds)
SCD_BOUND_DEFAULTS = dict(d=50, m=200, lam=3e-2, loss="logistic", n_seeds=10, T=10_000)
#: widget ranges of demo 1: (min, max) or (min, max, step); T takes one of the listed values
SCD_BOUND_LIMITS = dict(d=(10, 200, 10), m=(50, 500, 50), lam=(3e-4, 1e-1), n_seeds=(2, 20, 1),
                        T=(1_000, 2_000, 5_000, 10_000, 20_000))
#: the live widget of demo 1 starts from the static figure's problem with 5 seeds and T = 5,000 instead of 10 seeds
#: and T = 10,000, so that a move that changes the problem (d, m, λ, the loss: a new reference optimum and new
#: runs) computes for under 0.1 s; more seeds or a larger T are one slider away and only run what is missing
SCD_BOUND_LIVE = dict(SCD_BOUND_DEFAULTS, n_seeds=5, T=5_000)

#: defaults of demo 2 (SCD, cyclic CD and GCD against data accesses)
CD_COMPARISON_DEFAULTS = dict(d=100, m=300, lam=1e-2, loss="logistic", epochs=50, density=1.0, n_seeds=5)
#: widget ranges of demo 2
CD_COMPARISON_LIMITS = dict(d=(20, 200, 10), m=(50, 500, 50), lam=(3e-4, 1e-1), epochs=(5, 100, 5),
                            density=(1.0, 0.3, 0.1), n_seeds=(1, 10, 1))
#: the live widget of demo 2 starts with 3 SCD seeds instead of the static figure's 5 (for the same reason)
CD_COMPARISON_LIVE = dict(CD_COMPARISON_DEFAULTS, n_seeds=3)

#: the static player of demo 1: every position of the loss and T, λ a decade apart (the slider's positions from
#: 3e-4 to 9.5e-2); d, m and the seeds at the live widget's start (each other value is a new problem or new runs
#: for every frame)
SCD_BOUND_STATIC = dict(grid=dict(d=(50,), m=(200,), lam=(3e-4, 3e-3, 3e-2, 3e-4 * 10 ** 2.5), n_seeds=(5,)),
                        name="scd-bound")
#: the static player of demo 2: every loss and density, λ a decade apart; the size, the budget and the seeds at
#: the live widget's start
CD_COMPARISON_STATIC = dict(grid=dict(d=(100,), m=(300,), lam=(3e-4 * 10 ** 0.5, 1e-2, 3e-4 * 10 ** 2.5), epochs=(50,),
                                      n_seeds=(3,)), name="cd-comparison")


def make_problem(d, m, lam, loss="logistic", density=1.0, data_seed=0):
    """The synthetic problem of the demos: k = max(1, d // 10) relevant features, features in [-1, 1].

    Squared loss: :func:`l1lab.data.make_regression` (targets scaled to mean square 1, so C(0) = 1/2).
    Logistic loss: :func:`l1lab.data.make_classification` (5% label noise).
    """
    if loss not in LOSSES:
        raise ValueError(f"loss must be one of {LOSSES}, got {loss!r}")
    k = max(1, int(d) // 10)
    if loss == "squared":
        X, y, _ = make_regression(int(m), int(d), k, noise=0.1, density=density, seed=data_seed)
    else:
        X, y, _ = make_classification(int(m), int(d), k, density=density, seed=data_seed)
    return Problem(X, y, loss=loss, lam=float(lam))


# ---------------------------------------------------------------------------------------------- demo 1
@dataclass(frozen=True)
class ScdBoundData:
    """Everything demo 1 draws: the problem, its optimum, Psi(0), the SCD runs and Theorem 1's bound."""

    problem: Problem
    w_star: np.ndarray
    p_star: float
    psi0: float
    runs: SeedRuns
    bound: np.ndarray

    def ratio(self):
        """bound / (mean gap) at every checkpoint T > 0 (inf where the mean gap is <= 0)."""
        keep = self.runs.iteration > 0
        g = self.runs.gap_summary(self.p_star).mean[keep]
        with np.errstate(divide="ignore"):
            return np.where(g > 0, self.bound[keep] / np.where(g > 0, g, 1.0), np.inf)


@lru_cache(maxsize=64)
@threadpool_limits.wrap(limits=1, user_api="blas")
def _problem_reference(d, m, lam, loss, density, data_seed):
    """(problem, w*, P*) of :func:`make_problem`, cached: a move of a control that does not change the problem
    (seeds, T, the budget) reuses it and its reference optimum."""
    prob = make_problem(d, m, lam, loss, density=density, data_seed=data_seed)
    w_star, p_star = reference_solution(prob)
    return prob, w_star, p_star


class _ExtendableScd:
    """One SCD run (:func:`l1lab.solvers.scd`, one seed) that can be continued: it records the trace at every
    point of ``grid`` (the union of the checkpoints of several T) and keeps w_T at the iterations ``keep_w``.

    The coordinate stream is drawn from ``numpy.random.default_rng(seed)`` chunk by chunk, which gives the same
    stream however the draws are split, and the steps are the solver's own kernel on the same state, so the
    records at the checkpoints of one T are bit for bit those of ``scd(problem, T, seed, n_checkpoints)``
    (``tests/test_book_scd.py`` checks it); only the ``seconds`` column (wall-clock time, summed over the kernel's
    calls by a :class:`l1lab.book.timing.Clock` after an untimed warm-up) differs."""

    def __init__(self, problem, seed, grid, keep_w):
        from ..solvers.coordinate import _CDState

        self.problem, self.seed = problem, seed
        self.grid = np.asarray(grid, dtype=np.int64)
        self.keep_w = frozenset(int(t) for t in keep_w)
        self.beta = float(problem.loss.beta)
        self.beta_vec = np.array([self.beta])
        self.state = _CDState(problem)
        self.rng = np.random.default_rng(seed)
        self.k = 0  # self.grid[self.k] is the iteration reached
        self.accesses = 0
        # the time the kernel has spent, summed over the chunks, after an untimed warm-up: a few steps of the same
        # kernel on a fresh state of the same problem (its first call compiles or loads it)
        self.clock = Clock(warm_up=lambda: _CDState(problem).run(np.zeros(1, dtype=np.int64), problem.lam,
                                                                 self.beta_vec))
        self.records = {0: (0.0, self.state.objective(), 0, 0.0)}
        self.w = {0: self.state.w.copy()}

    def advance(self, T):
        prob, state = self.problem, self.state
        while self.grid[self.k] < T:
            a, b = int(self.grid[self.k]), int(self.grid[self.k + 1])
            idx = self.rng.integers(0, prob.d, size=b - a, dtype=np.int64)
            with self.clock:
                state.run(idx, prob.lam, self.beta_vec)
            self.accesses += int(prob.column_nnz[idx].sum())
            self.records[b] = (float(self.accesses), state.objective(), int(np.count_nonzero(state.w)),
                               self.clock.now())
            if b in self.keep_w:
                self.w[b] = state.w.copy()
            self.k += 1

    def result(self, T, n_checkpoints):
        """The trace of ``scd(problem, T, seed, n_checkpoints)`` and w_T, as a :class:`l1lab.trace.Result`."""
        from ..trace import Result, Trace, log_checkpoints

        self.advance(T)
        cps = log_checkpoints(T, n_checkpoints)
        rows = [self.records[int(t)] for t in cps]
        acc, obj, nnz, sec = (np.array(c) for c in zip(*rows))
        trace = Trace(iteration=cps.astype(np.int64), data_accesses=acc.astype(np.float64),
                      objective=obj.astype(np.float64), nnz=nnz.astype(np.int64), seconds=sec.astype(np.float64))
        info = {"method": "scd", "beta": self.beta, "step": "global", "seed": self.seed, "n_iter": int(T)}
        return Result(w=self.w[int(T)].copy(), trace=trace, info=info)


#: the checkpoints per run of demo 1
_SCD_BOUND_CHECKPOINTS = 40


@lru_cache(maxsize=256)
def _scd_bound_seed(d, m, lam, loss, data_seed, seed):
    """Seed ``seed``'s SCD run on demo 1's problem, extendable to every T of the widget (SCD_BOUND_LIMITS["T"])."""
    from ..trace import log_checkpoints

    prob, _, _ = _problem_reference(d, m, lam, loss, 1.0, data_seed)
    Ts = SCD_BOUND_LIMITS["T"]
    grid = np.unique(np.concatenate([log_checkpoints(T, _SCD_BOUND_CHECKPOINTS) for T in Ts]))
    return _ExtendableScd(prob, seed, grid, Ts)


@threadpool_limits.wrap(limits=1, user_api="blas")
def _scd_bound_runs(d, m, lam, loss, n_seeds, T, data_seed):
    """SCD with seeds 0, ..., n_seeds - 1 for T iterations: equal to
    ``run_seeds(scd, problem, range(n_seeds), n_iter=T, n_checkpoints=40)`` (but the seconds).  For the T of the
    widget each seed's run is cached and extended, so more seeds or another T only run what is missing."""
    prob, _, _ = _problem_reference(d, m, lam, loss, 1.0, data_seed)
    if T not in SCD_BOUND_LIMITS["T"]:
        return run_seeds(scd, prob, range(n_seeds), n_iter=T, n_checkpoints=_SCD_BOUND_CHECKPOINTS)
    results = [_scd_bound_seed(d, m, lam, loss, data_seed, s).result(T, _SCD_BOUND_CHECKPOINTS)
               for s in range(n_seeds)]
    return SeedRuns.from_results(results, range(n_seeds))


@lru_cache(maxsize=128)
@threadpool_limits.wrap(limits=1, user_api="blas")
def _scd_bound_data(d, m, lam, loss, n_seeds, T, data_seed):
    prob, w_star, p_star = _problem_reference(d, m, lam, loss, 1.0, data_seed)
    psi0 = sst.scd_psi0(prob.loss.beta, w_star, prob.objective(np.zeros(prob.d)))
    runs = _scd_bound_runs(d, m, lam, loss, n_seeds, T, data_seed)
    bound = np.asarray(sst.scd_expected_gap_bound(runs.iteration, prob.d, psi0))
    return ScdBoundData(prob, w_star, p_star, psi0, runs, bound)


def scd_bound_data(d=50, m=200, lam=3e-2, loss="logistic", n_seeds=10, T=10_000, data_seed=0) -> ScdBoundData:
    """Demo 1's computation: SCD on :func:`make_problem` with ``n_seeds`` seeds (0, 1, ...) for T iterations
    (40 checkpoints), the reference optimum, Psi(0) and Theorem 1's bound d Psi(0)/(T+1) at the checkpoints.

    Cached at three levels, so that a slider move only computes what it changes: the problem and its reference
    optimum (per d, m, λ, loss), each seed's run (extended as needed to the T of the widget, whose numbers are
    those of a fresh run of that T), and the result.  The runs with n seeds are the first n of any larger
    number: the same numbers as ``run_seeds(scd, problem, range(n_seeds), n_iter=T, n_checkpoints=40)``."""
    if int(n_seeds) < 1:
        raise ValueError(f"need at least one seed, got n_seeds={n_seeds}")
    return _scd_bound_data(int(d), int(m), float(lam), str(loss), int(n_seeds), int(T), int(data_seed))


def draw_scd_bound(ax, data: ScdBoundData, ylim=None, title=True):
    """Draw demo 1 on ``ax``: the mean gap over seeds with its min-max band against Theorem 1's bound."""
    prob = data.problem
    out = plot_gap_vs_bound(ax, data.runs, data.p_star, data.bound, label="SCD",
                            bound_label=r"Theorem 1 of S-S & T: $d\,\Psi(0)/(T+1)$")
    if ylim is not None:
        ax.set_ylim(*ylim)
    if title:
        ax.set_title(f"{prob.loss.name} loss, d = {prob.d}, m = {prob.m}, λ = {prob.lam:.1e}: "
                     f"$\\|w^\\star\\|_0$ = {np.count_nonzero(data.w_star)}, Ψ(0) = {data.psi0:.3g}", fontsize=10)
    ax.legend(loc="lower left", fontsize=9)
    return out


@_style.book_figure
def scd_bound_figure(d=50, m=200, lam=3e-2, loss="logistic", n_seeds=10, T=10_000, data_seed=0,
                     figsize=(7.0, 4.4), fig=None) -> Figure:
    """Demo 1 as a Figure: empirical E[P(w_T)] - P* of SCD (mean and min-max over seeds) against
    d Psi(0)/(T+1) (Theorem 1 of Shalev-Shwartz & Tewari 2011) on log-log axes.  ``fig``: a figure this
    function returned before, redrawn in place (:func:`l1lab.book.live.figure_axes`)."""
    data = scd_bound_data(d, m, lam, loss, n_seeds, T, data_seed)
    fig, ax = figure_axes(fig, figsize)
    draw_scd_bound(ax, data)
    return fig


def scd_bound_demo(ahead=True, **defaults):
    """Live demo 1: sliders for d, m, λ (log scale), the loss, the number of seeds and T, redrawing
    :func:`scd_bound_figure`, starting from :data:`SCD_BOUND_LIVE` (5 seeds, T = 5,000).
    More seeds and another T only run what is missing (each seed's run is cached and extended).  With ``ahead``
    (default), the first display also computes every position of the loss, seeds and T controls, each with the
    others at their starting values (a fraction of a second), so these moves only redraw.  Returns an
    ipywidgets VBox (display it, or let it be a cell's value)."""
    import ipywidgets as widgets

    v = dict(SCD_BOUND_LIVE, **defaults)
    lim = SCD_BOUND_LIMITS
    for name in ("d", "m", "lam", "n_seeds"):
        check_range(name, v[name], lim)
    check_choice("T", v["T"], lim["T"])
    controls = dict(
        d=int_slider(widgets, "d", v, lim),
        m=int_slider(widgets, "m", v, lim),
        lam=log_slider(widgets, v["lam"], *lim["lam"], description="λ"),
        loss=widgets.Dropdown(options=list(LOSSES), value=v["loss"], description="loss"),
        n_seeds=widgets.IntSlider(value=v["n_seeds"], min=lim["n_seeds"][0], max=lim["n_seeds"][1],
                                  description="seeds", continuous_update=False),
        T=widgets.SelectionSlider(options=list(lim["T"]), value=v["T"], description="T",
                                  continuous_update=False),
    )
    if ahead:
        start = {k: c.value for k, c in controls.items()}
        for name, values in (("loss", LOSSES), ("n_seeds", range(lim["n_seeds"][0], lim["n_seeds"][1] + 1)),
                             ("T", lim["T"])):
            for value in values:
                scd_bound_data(**dict(start, **{name: value}))

    return wire(controls, scd_bound_figure, [["d", "m", "lam"], ["loss", "n_seeds", "T"]])


def scd_bound_player(**static):
    """Demo 1 for the HTML book: the live widget (:func:`scd_bound_demo`) precomputed over
    :data:`SCD_BOUND_STATIC` (``static`` overrides its entries) by :func:`l1lab.book.static.static_player`."""
    return static_player(scd_bound_demo(ahead=False), **dict(SCD_BOUND_STATIC, **static))


# ---------------------------------------------------------------------------------------------- demo 2
@dataclass(frozen=True)
class CdComparisonData:
    """Demo 2: the problem, P*, and the runs by algorithm name."""

    problem: Problem
    w_star: np.ndarray
    p_star: float
    results: dict


@lru_cache(maxsize=512)
@threadpool_limits.wrap(limits=1, user_api="blas")
def _cd_comparison_scd(d, m, lam, loss, epochs, density, data_seed, seed):
    """One SCD seed of demo 2 (cached per seed: n seeds are the first n of any larger number)."""
    prob, _, _ = _problem_reference(d, m, lam, loss, density, data_seed)
    return scd(prob, epochs * prob.d, seed=seed, n_checkpoints=40)


@lru_cache(maxsize=128)
@threadpool_limits.wrap(limits=1, user_api="blas")
def _cd_comparison_deterministic(d, m, lam, loss, epochs, density, data_seed):
    """Cyclic CD and GCD of demo 2 (they do not depend on the number of SCD seeds)."""
    prob, _, _ = _problem_reference(d, m, lam, loss, density, data_seed)
    # one GCD iteration reads all of X: the same budget of data accesses buys `epochs` iterations
    return cyclic_cd(prob, epochs * prob.d, n_checkpoints=40), gcd(prob, epochs, n_checkpoints=30)


@lru_cache(maxsize=128)
def _cd_comparison_data(d, m, lam, loss, epochs, density, n_seeds, data_seed):
    prob, w_star, p_star = _problem_reference(d, m, lam, loss, density, data_seed)
    # SCD and cyclic CD: `epochs` passes over the d coordinates (~ epochs nnz(X) data accesses)
    scd_runs = [_cd_comparison_scd(d, m, lam, loss, epochs, density, data_seed, s) for s in range(n_seeds)]
    cyclic, greedy = _cd_comparison_deterministic(d, m, lam, loss, epochs, density, data_seed)
    results = {"SCD": SeedRuns.from_results(scd_runs, range(n_seeds)), "cyclic CD": cyclic, "GCD": greedy}
    return CdComparisonData(prob, w_star, p_star, results)


def cd_comparison_data(d=100, m=300, lam=1e-2, loss="logistic", epochs=50, density=1.0, n_seeds=5,
                       data_seed=0) -> CdComparisonData:
    """Demo 2's computation: SCD (``n_seeds`` seeds), cyclic CD and GCD on :func:`make_problem` with the same
    budget of about ``epochs`` * nnz(X) data accesses each, and the reference optimum.

    Cached at three levels, so that a slider move only computes what it changes: the problem and its reference
    optimum, each SCD seed's run (n seeds are the first n of any larger number, the same numbers as
    ``run_seeds(scd, problem, range(n_seeds), n_iter=epochs * d, n_checkpoints=40)``), cyclic CD with GCD, and
    the result."""
    if int(n_seeds) < 1:
        raise ValueError(f"need at least one seed, got n_seeds={n_seeds}")
    return _cd_comparison_data(int(d), int(m), float(lam), str(loss), int(epochs), float(density), int(n_seeds),
                               int(data_seed))


@_style.book_figure
def cd_comparison_figure(d=100, m=300, lam=1e-2, loss="logistic", epochs=50, density=1.0, n_seeds=5,
                         data_seed=0, figsize=(7.0, 7.4), fig=None) -> Figure:
    """Demo 2 as a Figure: P(w) - P* (log-log, top) and ||w||_0 (bottom) against data accesses for SCD, cyclic CD
    and GCD, stacked so that the figure fits the page's width.  ``fig``: a figure this function returned before,
    redrawn in place."""
    data = cd_comparison_data(d, m, lam, loss, epochs, density, n_seeds, data_seed)
    prob = data.problem
    fig, axes = figure_axes(fig, figsize, nrows=2, ncols=1)
    plot_objective_and_nnz(axes, data.results, data.p_star)
    axes[1].axhline(np.count_nonzero(data.w_star), color="k", ls="--", lw=1, label=r"$\|w^\star\|_0$")
    axes[0].legend(loc="lower left", fontsize=9)
    axes[1].legend(loc="upper left", fontsize=9)
    kind = "dense" if not prob.is_sparse else f"density {prob.density:.2g}"
    fig.suptitle(f"{prob.loss.name} loss, d = {prob.d}, m = {prob.m} ({kind}), λ = {prob.lam:.1e}; "
                 f"budget ≈ {epochs} passes over X", fontsize=10)
    return fig


def cd_comparison_demo(ahead=True, **defaults):
    """Live demo 2: sliders for d, m, λ, the loss, the data density, the budget (passes over X) and the number
    of SCD seeds, redrawing :func:`cd_comparison_figure`, starting from :data:`CD_COMPARISON_LIVE` (3 SCD
    seeds).  With ``ahead`` (default), the first display also computes every position of the loss, density,
    budget and seeds controls, each with the others at their starting values (about a second), so these moves
    only redraw; a new d, m or λ computes what it shows.  Returns an ipywidgets VBox."""
    import ipywidgets as widgets

    v = dict(CD_COMPARISON_LIVE, **defaults)
    lim = CD_COMPARISON_LIMITS
    for name in ("d", "m", "lam", "epochs", "n_seeds"):
        check_range(name, v[name], lim)
    check_choice("density", v["density"], lim["density"])
    controls = dict(
        d=int_slider(widgets, "d", v, lim),
        m=int_slider(widgets, "m", v, lim),
        lam=log_slider(widgets, v["lam"], *lim["lam"], description="λ"),
        loss=widgets.Dropdown(options=list(LOSSES), value=v["loss"], description="loss"),
        density=widgets.Dropdown(options=list(lim["density"]), value=v["density"], description="density"),
        epochs=widgets.IntSlider(value=v["epochs"], min=lim["epochs"][0], max=lim["epochs"][1],
                                 step=lim["epochs"][2], description="passes", continuous_update=False),
        n_seeds=widgets.IntSlider(value=v["n_seeds"], min=lim["n_seeds"][0], max=lim["n_seeds"][1],
                                  description="SCD seeds", continuous_update=False),
    )
    if ahead:
        start = {k: c.value for k, c in controls.items()}
        for name, values in (("loss", LOSSES), ("density", lim["density"]),
                             ("epochs", range(lim["epochs"][0], lim["epochs"][1] + 1, lim["epochs"][2])),
                             ("n_seeds", range(lim["n_seeds"][0], lim["n_seeds"][1] + 1))):
            for value in values:
                cd_comparison_data(**dict(start, **{name: value}))

    return wire(controls, cd_comparison_figure, [["d", "m", "lam", "loss"], ["density", "epochs", "n_seeds"]])


def cd_comparison_player(**static):
    """Demo 2 for the HTML book: :func:`cd_comparison_demo` precomputed over :data:`CD_COMPARISON_STATIC`."""
    return static_player(cd_comparison_demo(ahead=False), **dict(CD_COMPARISON_STATIC, **static))
