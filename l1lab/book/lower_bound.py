r"""The figures and widgets of the chapter "What no coordinate method can beat" (Lemma 5 of Shalev-Shwartz &
Tewari 2011).

Same three layers as :mod:`l1lab.book.scd`: cached *data* functions, *figure* functions returning a
``matplotlib.figure.Figure`` (not managed by pyplot), and *widgets* (ipywidgets imported inside them).

Everything runs on the lemma's construction as an exact finite instance (:func:`l1lab.data.lower_bound.exact_design`,
B = 2 or 3, d = 100(B^2 - 1), the half without mirrored rows), whose l1lab objective is exactly half the
lemma's population risk, so the traces of the solvers give the excess risk :math:`R(w_t) - R(w^\star)` without
estimation.  The runs are cached per B (and per seed for SCD), and both demos share them:

* SCD (``l1lab.solvers.scd``), seeds 0, 1, ...: 20 d steps each, 600 log-spaced records;
* cyclic CD: 200 d steps (it is slow on this instance), 600 records;
* GCD: 3 d steps, every step recorded;
* fully corrective forward greedy selection (:func:`l1lab.solvers.forward.forward_selection`), every s;
* SCD restricted to the greedy support at a few s (:func:`l1lab.solvers.forward.restricted_scd`).

Demo 1 (:func:`frontier_figure`): the frontier between :math:`\|w\|_0` and the excess risk, the best s-sparse
points each method found, against :math:`\min\{0.12, B^2/(16s)\}`.  Demo 2 (:func:`steps_figure`): the number of
steps each method needs to reach an excess risk eps, against :math:`B^2/(16\varepsilon)`.  On two cores, B = 2
computes in about 0.5 s and B = 3 in about 2 s, once; the widgets compute both values of B for their seeds when
they are built (nothing, after the chapter's own figures), so that every later change costs a redraw and at most
a new SCD seed (10 to 50 ms).  Their figure functions take ``fig=`` and redraw the widget's one figure in place
(:func:`l1lab.book.live.figure_axes`).

The *static players* (:func:`frontier_player`, :func:`steps_player`) are the same widgets precomputed over the
grids :data:`FRONTIER_STATIC` and :data:`STEPS_STATIC` by :func:`l1lab.book.static.static_player`: they work in
the HTML book without a kernel.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from matplotlib.figure import Figure
from threadpoolctl import threadpool_limits

from ..data import lower_bound as lb
from ..problem import Problem
from ..solvers import cyclic_cd, gcd, scd
from ..solvers.forward import forward_selection, restricted_scd
from ..theory import shalev_shwartz_tewari as sst
from ..trace import best_found, hitting_steps
from . import style as _style
from .controls import check_choice, check_range, log_slider, wire
from .live import figure_axes
from .plotting import ALGORITHM_COLORS
from .plotting import log_axes as _log_axes
from .static import static_player

__all__ = [
    "FRONTIER_DEFAULTS", "FRONTIER_LIMITS", "FRONTIER_STATIC", "STEPS_DEFAULTS", "STEPS_LIMITS", "STEPS_STATIC",
    "Instance", "Run", "FrontierData", "StepsData", "instance", "scd_run", "cyclic_run", "gcd_run", "frontier_data",
    "frontier_figure", "frontier_demo", "frontier_player", "steps_data", "steps_figure", "steps_demo",
    "steps_player", "draw_frontier", "draw_steps", "lecture_numbers",
]

#: budgets, in passes over the d coordinates, and numbers of trace records
SCD_PASSES, CYCLIC_PASSES, GCD_PASSES = 20, 200, 3
N_RECORDS = 600
#: the accuracies at which demo 2 measures steps (lemma units): 15 per decade from 1e-4 to 0.1 (the powers of
#: ten exactly), and 0.12
EPS_GRID = np.concatenate([10.0 ** (np.arange(-60, -14) / 15.0), [0.12]])

FRONTIER_DEFAULTS = dict(B=2, s_range=(1, 800), n_seeds=10)
FRONTIER_LIMITS = dict(B=lb.EXACT_B, s=(1, 800), n_seeds=(1, 20, 1))
STEPS_DEFAULTS = dict(B=2, eps=0.01, n_seeds=10)
STEPS_LIMITS = dict(B=lb.EXACT_B, eps=(1e-4, 0.12), n_seeds=(1, 20, 1))
#: the static player of demo 1: both values of B; four ranges of s (all of it; s <= 100, where the chapter compares
#: the bound with the frontier; 200-300, where the printed bound crosses the frontier for B = 2; 100-800, which shows
#: the crossing for B = 3 too: every range keeps two values of s, and the four stay different, after clipping to
#: d = 300 for B = 2); 3 and 10 SCD seeds (the live start): the number of seeds only widens or narrows SCD's band,
#: and each value draws all 8 other frames again
FRONTIER_STATIC = dict(grid=dict(s_range=((1, 800), (1, 100), (200, 300), (100, 800)), n_seeds=(3, 10)),
                       name="lb-frontier")
#: the static player of demo 2: both values of B; five positions of the eps slider (steps of a tenth of a decade),
#: on points of :data:`EPS_GRID` too (every fifth of a decade), so that each frame's dots mark the steps at the
#: frame's eps exactly: the decades from 1e-4 to 0.1 and 10^-3.4, where GCD starts to need fewer steps than the
#: printed bound at B = 2 (the chapter's question; each value costs two frames of 0.6 s); 10 SCD seeds, the start
STEPS_STATIC = dict(grid=dict(eps=(1e-4, 10 ** -3.4, 1e-3, 1e-2, 0.1), n_seeds=(10,)),
                    name="lb-steps")

_BOUND = dict(color="C3", ls="--", lw=1.6)
_POP = dict(color="C3", ls=":", lw=1.4)
_EXACT = dict(color="k", lw=1.8)
#: the smallest text of the figures (the book's figures have no text below 9 pt)
_LEGEND_PT = 9
#: SCD restricted to the greedy support: a darker shade of SCD's blue (C0 mixed with 40% black)
_SCD_DARK = _style.shade("SCD", 0.4)


# ---------------------------------------------------------------------------------------------- shared data
@dataclass(frozen=True)
class Instance:
    """The exact instance for one B: the Problem (squared loss, lambda = 0), d, and the optimal risk."""

    B: int
    d: int
    problem: Problem
    risk_star: float

    def excess(self, objective):
        """R(w) - R(w*) (lemma units) from l1lab objective values (squared loss/2, lambda = 0)."""
        return lb.risk_from_objective(objective) - self.risk_star


@lru_cache(maxsize=4)
def _instance(B):
    prob = lb.lemma5_problem(B, mirrored=False)
    return Instance(B, prob.d, prob, sst.lemma5_optimal_risk(B, prob.d))


def instance(B=2) -> Instance:
    """The cached exact instance of Lemma 5 for B = 2 (d = 300, m = 1024) or B = 3 (d = 800, m = 2187)."""
    check_choice("B", B, lb.EXACT_B)
    return _instance(int(B))


@dataclass(frozen=True)
class Run:
    """One run's records: steps, excess risk R(w_t) - R* (lemma units) and ||w_t||_0 at each record."""

    name: str
    iteration: np.ndarray
    excess: np.ndarray
    nnz: np.ndarray


def _as_run(name, inst, res):
    t = res.trace
    return Run(name, t.iteration, inst.excess(t.objective), t.nnz)


@lru_cache(maxsize=64)
def _scd_run(B, seed):
    inst = instance(B)
    return _as_run("SCD", inst, scd(inst.problem, SCD_PASSES * inst.d, seed=seed, n_checkpoints=N_RECORDS))


def scd_run(B=2, seed=0) -> Run:
    """SCD on :func:`instance` for 20 d steps with ``seed`` (cached per (B, seed))."""
    check_choice("B", B, lb.EXACT_B)
    return _scd_run(int(B), int(seed))


@lru_cache(maxsize=4)
def _cyclic_run(B):
    inst = instance(B)
    return _as_run("cyclic CD", inst, cyclic_cd(inst.problem, CYCLIC_PASSES * inst.d, n_checkpoints=N_RECORDS))


def cyclic_run(B=2) -> Run:
    """Cyclic CD on :func:`instance` for 200 d steps (cached)."""
    check_choice("B", B, lb.EXACT_B)
    return _cyclic_run(int(B))


@lru_cache(maxsize=4)
@threadpool_limits.wrap(limits=1, user_api="blas")
def _gcd_run(B):
    inst = instance(B)
    n = GCD_PASSES * inst.d
    return _as_run("GCD", inst, gcd(inst.problem, n, n_checkpoints=n + 1))


def gcd_run(B=2) -> Run:
    """GCD on :func:`instance` for 3 d steps, every step recorded (cached)."""
    check_choice("B", B, lb.EXACT_B)
    return _gcd_run(int(B))


def _scd_stack(B, n_seeds):
    runs = [scd_run(B, s) for s in range(n_seeds)]
    return runs[0].iteration, np.array([r.excess for r in runs]), np.array([r.nnz for r in runs])


# ---------------------------------------------------------------------------------------------- demo 1
@dataclass(frozen=True)
class FrontierData:
    """Demo 1: for s = 1..d, the exact frontier, the printed bounds, the forward-selection path, restricted SCD
    at a few s, and for each method the best excess it visited with at most s nonzeros (SCD: one row per
    seed).  Every curve is an excess over R*; ``population`` is the proof's inequality, which bounds the excess
    over R(w0) = (B^2 - 1)/d, raised by R(w0) - R* to be read on that axis."""

    instance: Instance
    s: np.ndarray
    exact: np.ndarray
    printed: np.ndarray
    population: np.ndarray
    greedy: np.ndarray
    restricted_s: np.ndarray
    restricted: np.ndarray
    found: dict

    @property
    def proof_limit(self) -> float:
        """The largest s covered by the printed proof's step, 12.5(B^2 - 2)."""
        return sst.lemma5_proof_sparsity_limit(self.instance.B, self.instance.d)

    @property
    def printed_range(self) -> int:
        """The largest s at which the exact frontier is still above min{0.12, B^2/(16 s)}."""
        return sst.lemma5_printed_bound_range(self.instance.B, self.instance.d)


@lru_cache(maxsize=4)
@threadpool_limits.wrap(limits=1, user_api="blas")
def _greedy(B):
    inst = instance(B)
    path = forward_selection(inst.problem, keep_weights=False)
    d = inst.d
    rs = np.unique(np.round(np.geomspace(1, d, 12)).astype(np.int64))
    restricted = np.array([lb.population_excess(restricted_scd(inst.problem, path.order[:s], seed=0), B)
                           for s in rs])
    return inst.excess(path.objective[1:]), rs, restricted


@lru_cache(maxsize=16)
def _frontier_data(B, n_seeds):
    inst = instance(B)
    d = inst.d
    s = np.arange(1, d + 1)
    greedy, rs, restricted = _greedy(B)
    it, ex, nnz = _scd_stack(B, n_seeds)
    found = {"SCD": best_found(nnz, ex, s)}
    for run in (cyclic_run(B), gcd_run(B)):
        found[run.name] = best_found(run.nnz, run.excess, s)[None, :]
    # the proof's population inequality bounds R(w) - R(w0), R(w0) = (B^2 - 1)/d; on this figure's axis,
    # R(w) - R*, it reads R(w) - R* >= min{0.24, B^2/(8s)} + R(w0) - R*
    shift = (B * B - 1.0) / d - sst.lemma5_optimal_risk(B, d)
    return FrontierData(inst, s, np.asarray(sst.lemma5_frontier(s, B, d)),
                        np.asarray(sst.lemma5_sparse_gap_bound(s, B)),
                        np.asarray(sst.lemma5_population_gap_bound(s, B)) + shift, greedy, rs, restricted, found)


def frontier_data(B=2, n_seeds=10) -> FrontierData:
    """Demo 1's computation for B (2 or 3) and SCD seeds 0..n_seeds-1 (cached)."""
    check_choice("B", B, lb.EXACT_B)
    check_range("n_seeds", n_seeds, FRONTIER_LIMITS)
    return _frontier_data(int(B), int(n_seeds))


def _floor(values, lo):
    return np.maximum(values, lo)


def draw_frontier(ax, data: FrontierData, s_range=None, legend=True):
    """Draw demo 1 on ``ax`` for s in ``s_range`` (clipped to [1, d]); returns the y floor used.  The legend goes
    below the axes, in two columns (``legend=False``: none)."""
    inst = data.instance
    d, B = inst.d, inst.B
    lo_s, hi_s = (1, d) if s_range is None else (max(1, int(s_range[0])), min(d, int(s_range[1])))
    if lo_s >= hi_s:
        raise ValueError(f"the s range must contain at least two values in [1, d = {d}], got {s_range}")
    sel = (data.s >= lo_s) & (data.s <= hi_s)
    s = data.s[sel]
    positive = s < d   # the exact frontier and the greedy path are 0 at s = d: not drawable on a log axis
    low = min(data.exact[sel & (data.s < d)].min() if np.any(positive) else 1e-3, data.printed[sel].min())
    floor = 0.3 * low
    ax.fill_between(s, floor, _floor(data.exact[sel], floor), color="0.85", lw=0,
                    label="unreachable (below the exact frontier)")
    ax.plot(s[positive], data.exact[sel][positive], **_EXACT, label=r"exact frontier $E_d(s)$")
    mk = np.unique(np.round(np.geomspace(lo_s, hi_s, 14)).astype(np.int64))
    mk = mk[mk < d]
    ax.plot(mk, data.greedy[mk - 1], "o", mfc="none", color="C4", ms=7, label="forward greedy selection")
    rsel = (data.restricted_s >= lo_s) & (data.restricted_s <= hi_s) & (data.restricted_s < d)
    ax.plot(data.restricted_s[rsel], _floor(data.restricted[rsel], floor), "x", color=_SCD_DARK, ms=7,
            label="SCD on the greedy support")
    for name, best in data.found.items():
        b = best[:, sel]
        color = ALGORITHM_COLORS[name]
        if b.shape[0] > 1:
            ax.fill_between(s, _floor(b.min(axis=0), floor), _floor(b.max(axis=0), floor), color=color, alpha=0.2,
                            lw=0, step="post")
            label = f"{name}, best visited: median of {b.shape[0]} seeds, band min–max"
        else:
            label = f"{name}, best visited"
        ax.plot(s, _floor(np.median(b, axis=0), floor), color=color, lw=1.6, drawstyle="steps-post", label=label)
    ax.plot(s, data.printed[sel], **_BOUND, label=r"Lemma 5 as printed: $\min\{0.12,\ B^2/(16s)\}$")
    ax.plot(s, data.population[sel], **_POP, label=r"its proof: $\min\{0.24,\ B^2/(8s)\} + R(\bar w) - R^\star$")
    # where the printed bound crosses the frontier is the chapter's question about this figure: the figure shows the
    # two curves, and says nothing more about the crossing (the Answer gives data.printed_range)
    lim = data.proof_limit
    if lo_s <= lim <= hi_s:
        ax.axvline(lim, color="0.4", ls="-.", lw=1, label=f"the printed proof covers s ≤ {lim:g}")
    _log_axes(ax)
    _label_short_range(ax.xaxis, lo_s, hi_s)
    ax.set_xlim(lo_s, hi_s)
    ax.set_ylim(floor, 1.5)
    ax.set_xlabel(r"$s = \|w\|_0$ (nonzeros)")
    ax.set_ylabel(r"excess risk $R(w) - R(w^\star)$")
    ax.grid(True, which="major", alpha=0.3)
    ax.set_title(f"Lemma 5's instance, B = {B}, d = {d} (exact, m = {inst.problem.m}): "
                 f"$R^\\star$ = {inst.risk_star:.4f}", fontsize=10)
    if legend:
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=2, fontsize=_LEGEND_PT)
    return floor


def _label_short_range(axis, lo, hi):
    """Plain labelled ticks on a log axis from ``lo`` to ``hi`` that holds fewer than two powers of ten (200 to
    300, say), where the log locator would label nothing; the axis keeps its log ticks otherwise."""
    from matplotlib.ticker import FixedFormatter, FixedLocator, MaxNLocator, NullLocator

    if np.sum((10.0 ** np.arange(0, 4) >= lo) & (10.0 ** np.arange(0, 4) <= hi)) >= 2:
        return
    ticks = [t for t in MaxNLocator(nbins=5, steps=[1, 2, 2.5, 5, 10]).tick_values(lo, hi) if lo <= t <= hi]
    axis.set_major_locator(FixedLocator(ticks))
    axis.set_major_formatter(FixedFormatter([f"{t:g}" for t in ticks]))
    axis.set_minor_locator(NullLocator())


@_style.book_figure
def frontier_figure(B=2, s_range=(1, 800), n_seeds=10, figsize=(8.0, 6.6), fig=None) -> Figure:
    """Demo 1 as a Figure: excess risk against the number of nonzeros, log-log -- the exact frontier (with the
    points forward greedy selection and restricted SCD find on it), the best s-sparse points SCD (median and
    min-max over seeds), cyclic CD and GCD visited, and Lemma 5's bounds.  ``s_range`` is clipped to [1, d].
    ``fig``: a figure this function returned before, redrawn in place (:func:`l1lab.book.live.figure_axes`)."""
    data = frontier_data(B, n_seeds)
    fig, ax = figure_axes(fig, figsize)
    draw_frontier(ax, data, s_range)
    return fig


def _compute_ahead(n_seeds, frontier):
    """Compute the runs of both values of B for SCD seeds 0..n_seeds-1 (and forward selection for demo 1)
    before the widget is shown, so that the B buttons answer with a redraw: about 2 s of CPU the first time
    for B = 3, nothing if the chapter's figures have already computed them."""
    for B in lb.EXACT_B:
        (frontier_data if frontier else steps_data)(B, n_seeds)


def frontier_demo(**defaults):
    """Live demo 1: B (2 or 3), the range of s shown, the number of SCD seeds.  Returns an ipywidgets VBox."""
    import ipywidgets as widgets

    v = dict(FRONTIER_DEFAULTS, **defaults)
    lim = FRONTIER_LIMITS
    check_choice("B", v["B"], lim["B"])
    check_range("n_seeds", v["n_seeds"], lim)
    lo, hi = v["s_range"]
    check_range("s", lo, lim)
    check_range("s", hi, lim)
    if lo >= hi:
        raise ValueError(f"s_range must be increasing, got {v['s_range']}")
    _compute_ahead(v["n_seeds"], frontier=True)
    controls = dict(
        B=widgets.ToggleButtons(options=list(lim["B"]), value=v["B"], description="B"),
        s_range=widgets.IntRangeSlider(value=(lo, hi), min=lim["s"][0], max=lim["s"][1], description="s",
                                       continuous_update=False),
        n_seeds=widgets.IntSlider(value=v["n_seeds"], min=lim["n_seeds"][0], max=lim["n_seeds"][1],
                                  description="SCD seeds", continuous_update=False),
    )
    return wire(controls, frontier_figure, [["B"], ["s_range", "n_seeds"]])


def frontier_player(**static):
    """Demo 1 for the HTML book: the live widget (:func:`frontier_demo`) precomputed over :data:`FRONTIER_STATIC`
    (``static`` overrides its entries) by :func:`l1lab.book.static.static_player`."""
    return static_player(frontier_demo(), **dict(FRONTIER_STATIC, **static))


# ---------------------------------------------------------------------------------------------- demo 2
@dataclass(frozen=True)
class StepsData:
    """Demo 2: steps to reach each eps of :data:`EPS_GRID` -- (lo, hi) brackets per method (SCD: one row per
    seed; nan if not reached within the budget) -- the exact least number of steps, the printed bound, and
    Theorem 2's guarantee for SCD's median."""

    instance: Instance
    eps: np.ndarray
    steps: dict
    budget: dict
    s_min: np.ndarray
    printed: np.ndarray
    theorem2: np.ndarray
    runs: dict

    @property
    def failure_accuracy(self) -> float:
        """The eps below which the printed B^2/(16 eps) exceeds the exact least number of steps."""
        return sst.lemma5_failure_accuracy(self.instance.B, self.instance.d)

    def median_steps(self, name):
        """The median over runs of the steps to each eps (inf where a run did not reach it)."""
        hi = np.atleast_2d(self.steps[name][1])
        return np.median(np.where(np.isnan(hi), np.inf, hi), axis=0)


@lru_cache(maxsize=16)
def _steps_data(B, n_seeds):
    inst = instance(B)
    d = inst.d
    eps = EPS_GRID
    it, ex, nnz = _scd_stack(B, n_seeds)
    brackets = [hitting_steps(it, e, eps) for e in ex]
    steps = {"SCD": (np.array([b[0] for b in brackets]), np.array([b[1] for b in brackets]))}
    runs = {"SCD": (it, ex)}
    budget = {"SCD": SCD_PASSES * d}
    for run, passes in ((cyclic_run(B), CYCLIC_PASSES), (gcd_run(B), GCD_PASSES)):
        steps[run.name] = hitting_steps(run.iteration, run.excess, eps)
        runs[run.name] = (run.iteration, run.excess[None, :])
        budget[run.name] = passes * d
    w_star = lb.optimum(B, d)
    psi0 = sst.scd_psi0(1.0, w_star, 0.5)            # l1lab units: beta = 1, P(0) = C(0) = 1/2
    theorem2 = np.array([sst.scd_iterations_for_accuracy(e / 2.0, d, 2.0 * psi0) for e in eps], dtype=float)
    return StepsData(inst, eps, steps, budget, np.asarray(sst.lemma5_min_steps(eps, B, d)),
                     B * B / (16.0 * eps), theorem2, runs)


def steps_data(B=2, n_seeds=10) -> StepsData:
    """Demo 2's computation for B (2 or 3) and SCD seeds 0..n_seeds-1 (cached)."""
    check_choice("B", B, lb.EXACT_B)
    check_range("n_seeds", n_seeds, STEPS_LIMITS)
    return _steps_data(int(B), int(n_seeds))


def draw_steps(axes, data: StepsData, eps):
    """Draw demo 2 on two axes: excess risk against steps with the line R - R* = eps (first), steps to reach
    each eps against 1/eps (second), the current eps marked; each axes has its legend below it."""
    ax, ax2 = axes
    inst = data.instance
    B, d = inst.B, inst.d
    t_max = max(data.budget.values())
    t = np.unique(np.round(np.geomspace(1, t_max, 300)).astype(np.int64))
    floor = 3e-6
    exact_t = np.asarray(sst.lemma5_frontier(np.minimum(t, d), B, d))
    pos = t < d
    ax.fill_between(t[pos], floor, exact_t[pos], color="0.85", lw=0, label="unreachable after t steps")
    ax.plot(t[pos], exact_t[pos], **_EXACT, label=r"exact frontier $E_d(t)$: the least excess after $t$ steps")
    ax.plot(t, np.minimum(0.12, B * B / (16.0 * t)), **_BOUND, label=r"Lemma 5 as printed: $\min\{0.12,\ B^2/(16t)\}$")
    for name, (it, ex) in data.runs.items():
        color = ALGORITHM_COLORS[name]
        keep = it > 0
        x = it[keep]
        e = ex[:, keep]
        if e.shape[0] > 1:
            ax.fill_between(x, _floor(e.min(axis=0), floor), _floor(e.max(axis=0), floor), color=color, alpha=0.2,
                            lw=0)
            ax.plot(x, _floor(np.median(e, axis=0), floor), color=color, lw=1.6,
                    label=f"{name}: median of {e.shape[0]} seeds, band min–max")
        else:
            ax.plot(x, _floor(e[0], floor), color=color, lw=1.6, label=name)
    ax.axhline(eps, color="0.3", lw=1, ls="-", alpha=0.7)
    ax.text(1.2, eps * 1.15, f"ε = {eps:.2g}", fontsize=_LEGEND_PT, color="0.3")
    k = int(np.argmin(np.abs(np.log(data.eps) - np.log(eps))))
    for name in data.runs:
        med = data.median_steps(name)[k]
        if np.isfinite(med):
            ax.plot([med], [data.eps[k]], "o", color=ALGORITHM_COLORS[name], ms=6, mec="k", mew=0.6)
    _log_axes(ax)
    ax.set_xlim(1, t_max)
    ax.set_ylim(floor, 1.5)
    ax.set_xlabel("steps $t$ (one coordinate changed per step)")
    ax.set_ylabel(r"excess risk $R(w_t) - R^\star$")
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2, fontsize=_LEGEND_PT)

    x = 1.0 / data.eps
    ax2.plot(x, data.printed, **_BOUND, label=r"Lemma 5 as printed: $B^2/(16\varepsilon)$")
    ax2.plot(x, np.maximum(data.s_min, 0.5), **_EXACT, label=r"exact least number $s_{\min}(\varepsilon)$")
    ax2.plot(x, data.theorem2, color="C0", ls=(0, (1, 1)), lw=1.4,
             label=r"Theorem 2 (the paper's): SCD's median $\leq 4d\Psi(0)/\varepsilon$")
    for name in data.runs:
        lo, hi = data.steps[name]
        color = ALGORITHM_COLORS[name]
        hi2 = np.atleast_2d(hi)
        if hi2.shape[0] > 1:
            filled = np.where(np.isnan(hi2), np.inf, hi2)
            ax2.fill_between(x, filled.min(axis=0), np.minimum(filled.max(axis=0), 10 * t_max), color=color,
                             alpha=0.2, lw=0)
            ax2.plot(x, data.median_steps(name), color=color, lw=1.8,
                     label=f"{name}: median of {hi2.shape[0]} seeds, band min–max")
        else:
            reached = ~np.isnan(hi2[0])
            ax2.plot(x[reached], hi2[0][reached], color=color, lw=1.8, marker=".", ms=3,
                     label=name + ("" if reached.all() else f" (in {data.budget[name] // d}d steps: "
                                                              f"ε ≥ {data.eps[reached].min():.2g} only)")
                     if reached.any() else name)
    ax2.axhline(d, color="0.5", ls="-.", lw=1, label=f"d = {d} steps write $w^\\star$")
    fa = data.failure_accuracy
    # the region outside the repaired theorem's d >= (B^2 - 1)/eps, labelled by its condition alone: whether GCD's
    # crossing of the printed bound there contradicts the theorem is the chapter's question about this figure
    ax2.axvspan(d / (B * B - 1.0), x.max(), color="0.5", alpha=0.08, lw=0, label=r"shaded: $\varepsilon < (B^2-1)/d$")
    # dash-dotted, so that its legend entry is not taken for the printed bound's dashed line
    ax2.axvline(1.0 / fa, color="C3", lw=1, ls="-.", alpha=0.8, label=f"printed bound > exact below ε = {fa:.2g}")
    ax2.axvline(1.0 / eps, color="0.3", lw=1)
    _log_axes(ax2)
    ax2.set_xlim(x.min(), x.max())
    ax2.set_ylim(1, 3 * t_max)
    ax2.set_xlabel(r"$1/\varepsilon$")
    ax2.set_ylabel(r"steps to reach $R - R^\star \leq \varepsilon$")
    ax2.grid(True, which="major", alpha=0.3)
    ax2.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2, fontsize=_LEGEND_PT)


@_style.book_figure
def steps_figure(B=2, eps=0.01, n_seeds=10, figsize=(8.0, 11.0), fig=None) -> Figure:
    """Demo 2 as a Figure: excess risk against steps (top) and steps to reach eps against 1/eps (bottom) for
    SCD (median and min-max over seeds), cyclic CD and GCD, against Lemma 5's B^2/(16 eps) and the exact least
    number of steps.  ``fig``: a figure this function returned before, redrawn in place
    (:func:`l1lab.book.live.figure_axes`)."""
    check_range("eps", eps, STEPS_LIMITS)
    data = steps_data(B, n_seeds)
    fig, axes = figure_axes(fig, figsize, nrows=2, ncols=1)
    draw_steps(axes, data, float(eps))
    inst = data.instance
    fig.suptitle(f"Lemma 5's instance, B = {inst.B}, d = {inst.d} (exact, m = {inst.problem.m}); lemma units: "
                 f"loss $(a-y)^2$", fontsize=10)
    return fig


def steps_demo(**defaults):
    """Live demo 2: B (2 or 3), eps (log scale) and the number of SCD seeds.  Returns an ipywidgets VBox."""
    import ipywidgets as widgets

    v = dict(STEPS_DEFAULTS, **defaults)
    lim = STEPS_LIMITS
    check_choice("B", v["B"], lim["B"])
    check_range("eps", v["eps"], lim)
    check_range("n_seeds", v["n_seeds"], lim)
    _compute_ahead(v["n_seeds"], frontier=False)
    controls = dict(
        B=widgets.ToggleButtons(options=list(lim["B"]), value=v["B"], description="B"),
        eps=log_slider(widgets, v["eps"], *lim["eps"], "ε", step=0.1, readout_format=".1e"),
        n_seeds=widgets.IntSlider(value=v["n_seeds"], min=lim["n_seeds"][0], max=lim["n_seeds"][1],
                                  description="SCD seeds", continuous_update=False),
    )
    return wire(controls, steps_figure, [["B"], ["eps", "n_seeds"]])


def steps_player(**static):
    """Demo 2 for the HTML book: :func:`steps_demo` precomputed over :data:`STEPS_STATIC` (``static`` overrides
    its entries)."""
    return static_player(steps_demo(), **dict(STEPS_STATIC, **static))


# ---------------------------------------------------------------------------------------------- the page's numbers
def _at(grid, value):
    """The index of the grid point nearest to ``value`` on a log scale."""
    return int(np.argmin(np.abs(np.log(np.asarray(grid) / value))))


@lru_cache(maxsize=1)
@threadpool_limits.wrap(limits=1, user_api="blas")
def lecture_numbers() -> dict:
    """Every number the lecture states about what l1lab computes, by name (the notebook glues them as
    ``lower_bound-<name>``).  Lemma units (loss (a - y)^2) unless a name says otherwise; B = 2 (d = 300) unless it
    ends in 3 (B = 3, d = 800).  Uses the demos' cached runs (10 SCD seeds)."""
    out = {}
    k2 = 3.0
    # the exact instances
    for B in lb.EXACT_B:
        X, _ = lb.exact_design(B)
        out[f"d{B}"] = int(X.shape[1])
        out[f"m{B}"] = int(X.shape[0])
        out[f"m{B}-half"] = int(instance(B).problem.m)
        out[f"proof-limit{B}"] = float(sst.lemma5_proof_sparsity_limit(B))
        out[f"printed-range{B}"] = int(sst.lemma5_printed_bound_range(B))
        out[f"population-range{B}"] = int(sst.lemma5_population_inequality_range(B))
        out[f"failure{B}"] = float(sst.lemma5_failure_accuracy(B))
        out[f"proof-eps{B}"] = B * B / (200.0 * (B * B - 2.0))   # the printed proof's range: eps >= this
    out["beyond-d-eps"] = 4.0 / (16.0 * out["d2"])             # B^2/(16 eps) > d below this eps
    # demo 1: the frontier against the printed bound, and what the methods found
    for B in lb.EXACT_B:
        fd = frontier_data(B)
        s = fd.s[fd.s <= 100]
        ratio = fd.exact[s - 1] / fd.printed[s - 1]
        suffix = "" if B == 2 else "3"
        out[f"ratio-min{suffix}"], out[f"ratio-min-s{suffix}"] = float(ratio.min()), int(s[np.argmin(ratio)])
        out[f"ratio-max{suffix}"], out[f"ratio-max-s{suffix}"] = float(ratio.max()), int(s[np.argmax(ratio)])
        out[f"greedy-err{suffix}"] = float(np.abs(fd.greedy - fd.exact).max())
        out[f"restricted-err{suffix}"] = float(np.abs(fd.restricted - fd.exact[fd.restricted_s - 1]).max())
    fd = frontier_data(2)
    s100 = fd.s <= 100
    out["gcd-gap100"] = float((fd.found["GCD"][0, s100] / fd.exact[s100] - 1.0).max())
    for s_ in (25, 100):
        out[f"scd-median{s_}"] = float(np.median(fd.found["SCD"][:, s_ - 1]))
    # the limits of the derived counts against the printed one (eps -> 0, d -> infinity): 16k/B^2 and 8k/B^2
    tiny = 1e-9
    out["ratio-limit16"] = float(sst.lemma5_min_steps(tiny, 2, 10**15) / sst.lemma5_iteration_bound(tiny, 2))
    out["ratio-limit8"] = float(sst.lemma5_iteration_bound_derived(tiny, 2) / sst.lemma5_iteration_bound(tiny, 2))
    # demo 2: steps to reach eps
    for B in lb.EXACT_B:
        sd = steps_data(B)
        beat = sd.eps[sd.steps["GCD"][1] < sd.printed]
        out["gcd-beats" + ("" if B == 2 else "3")] = float(beat.max()) if beat.size else float("nan")
    # step counts are read at trace records: the widest bracket [lo, hi], relative to hi, over all runs
    width = 0.0
    for B in lb.EXACT_B:
        for lo, hi in steps_data(B).steps.values():
            ok = ~np.isnan(np.asarray(hi))
            width = max(width, float(np.max((np.asarray(hi)[ok] - np.asarray(lo)[ok]) / np.asarray(hi)[ok])))
    out["bracket-width"] = width
    sd = steps_data(2)
    for name, e in (("001", 0.01), ("012", 0.12), ("a", 3e-4), ("b", 1e-4)):
        i = _at(sd.eps, e)
        out[f"eps-{name}"] = float(sd.eps[i])
        out[f"printed-{name}"] = float(sd.printed[i])
        out[f"smin-{name}"] = int(sd.s_min[i])
        out[f"gcd-{name}"] = int(sd.steps["GCD"][1][i])
        out[f"scd-{name}"] = float(sd.median_steps("SCD")[i])
    i = _at(sd.eps, 0.01)
    out["cyclic-001"] = int(sd.steps["cyclic CD"][1][i])
    out["cyclic-001-passes"] = out["cyclic-001"] / out["d2"]
    out["scd-over-d-012"] = out["scd-012"] / out["d2"]
    cyc = cyclic_run(2)
    out["cyclic-final"] = float(cyc.excess[-1])
    out["cyclic-passes"] = int(cyc.iteration[-1] // out["d2"])
    # runtimes in data accesses at eps = 0.01 (lemma units; the SCD bounds at the book's accuracy eps/2)
    inst = instance(2)
    prob, m, d = inst.problem, inst.problem.m, inst.d
    w_star = lb.optimum(2, d)
    n1, n2 = float(np.abs(w_star).sum()), float(w_star @ w_star)
    p0 = float(prob.objective(np.zeros(d)))
    psi0 = sst.scd_psi0(1.0, w_star, p0)
    out["p0"], out["psi0"] = p0, float(psi0)
    out["p0-ratio"] = p0 / (0.5 * n2)
    for name, e in (("005", 0.05), ("001", 0.01)):
        i = _at(sd.eps, e)
        out[f"rt-gcd-lower-{name}"] = float(m * d * sd.s_min[i])
        out[f"rt-gcd-printed-{name}"] = float(m * d * sst.lemma5_iteration_bound(e, 2))
        out[f"rt-gcd-{name}"] = float(sd.steps["GCD"][1][i] * (m * d + m))
        out[f"rt-boost-{name}"] = float(sst.boosting_runtime_bound(e / 2, m, d, 1.0, n1))
        out[f"rt-scd-lower-{name}"] = float(m * sd.s_min[i])
        out[f"rt-scd-{name}"] = float(sd.median_steps("SCD")[i] * m)
        out[f"rt-thm1-{name}"] = float(sst.scd_runtime_expected(e / 2, m, d, 1.0, psi0))
        out[f"rt-bound2-{name}"] = float(sst.scd_runtime_bound(e / 2, m, d, 1.0, n2))
    out["rt-grad"] = float(m * d)
    out["rt-gcd-over-scd"] = out["rt-gcd-001"] / out["rt-scd-001"]
    steps2 = sst.scd_runtime_bound(0.01 / 2, m, d, 1.0, n2) / m       # bound (2)'s iteration count at eps = 0.01
    it, excess = sd.runs["SCD"]
    j = int(np.searchsorted(it, steps2))
    out["bound2-steps"] = float(steps2)
    out["bound2-excess"] = float(excess[:, j].mean())
    out["bound2-excess-ratio"] = out["bound2-excess"] / 0.01
    # one gradient step from 0 with step 1/mu_max (mu_max: the largest eigenvalue of the Hessian X^T X/m)
    X = np.asarray(prob.X)
    mu = float(np.linalg.eigvalsh(X.T @ X / m).max())
    w1 = -prob.gradient(np.zeros(d)) / mu
    out["mu-max"] = mu
    out["grad-step-excess"] = float(lb.population_excess(w1, 2))
    # the price of sampling (exercise): forward greedy selection on m examples, the empirical excess of its
    # s-sparse fits over the empirical optimum against their population excess, s = 100
    for m_ in (1000, 16000):
        path = forward_selection(lb.lemma5_problem(2, m=m_, seed=0))
        emp = lb.risk_from_objective(path.objective)
        out[f"sample-emp-{m_}"] = float(emp[100] - emp[-1])
        out[f"sample-pop-{m_}"] = float(lb.population_excess(path.weights[100], 2))
    out["frontier-100"] = float(fd.exact[99])
    # Maurey's random 25-sparse vector around w* (exercise): its expected excess, exactly, and the bound B^2/s
    s_ = 25
    b1 = n1                                                          # ||w*||_1 = dB/(d + k)
    out["maurey-25"] = k2 / 4.0 * b1 ** 2 * (d - 1) / (s_ * d)
    out["frontier-25"] = float(fd.exact[s_ - 1])
    out["maurey-ratio-25"] = out["maurey-25"] / out["frontier-25"]
    return out
