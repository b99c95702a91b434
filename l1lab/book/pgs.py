r"""The figures and widgets of the chapter "More data, less time" (the Primal Gradient Solver of Zhu, Chen,
Zhu, Wang, Wang & Chen 2009, and the inverse dependency of training time on the training set size).

Same three layers as :mod:`l1lab.book.scd`: a cached *data* function, a *figure* function returning a
``matplotlib.figure.Figure`` (not managed by pyplot), and a *widget* (ipywidgets imported inside it).

* :func:`theorem2_figure` -- Figure 4 of the paper: the iterations Theorem 2 asks for a fixed generalization
  error, as a function of m, and the three terms of the bound (20) along the way;
* :func:`inverse_runs`, :func:`inverse_data` / :func:`inverse_figure` / :func:`inverse_demo` -- Figure 9: two
  Gaussian classes in n = 10, 20, 40 dimensions, the iterations PGS (p = 2, logistic) needs to bring the direction
  error below a target as m grows, beside L-BFGS;
* :func:`text_sets`, :func:`text_runs`, :func:`text_data` / :func:`text_figure` / :func:`text_demo` and
  :func:`table2_data` -- Figures 5-8 and Table II on the synthetic stand-in for CCAT: seconds and iterations to
  fixed test-accuracy levels against m, for p = 2 (k = 1) and p = 1.8 (k = 300), sigma tuned per m;
* :func:`k_data` / :func:`k_figure` / :func:`k_demo` -- Section VII: the mini-batch size k, with the running
  norm of l1lab and with Figure 2's O(n) norm (``exact_norm=True``);
* :func:`bounds_data` / :func:`bounds_figure` / :func:`bounds_demo` -- Theorem 1 and Lemma 1 / Corollary 1
  against PGS, bands over seeds;
* the *static players* (:func:`inverse_player`, :func:`text_player`, :func:`fixed_sigma_player`,
  :func:`k_player`, :func:`bounds_player`): each live widget precomputed over its grid (:data:`INVERSE_STATIC`,
  :data:`TEXT_STATIC`, :data:`FIXED_SIGMA_STATIC`, :data:`K_STATIC`, :data:`BOUNDS_STATIC`) by
  :func:`l1lab.book.static.static_player`, which works in the HTML book without a kernel;
* :func:`pgs_path` (every iterate of a run, for the lectures' own implementations) and the numbers the two
  lectures glue about their claims and the paper's slips (:func:`strong_convexity_ratios`, :func:`radius_check`,
  :func:`conjugate_check`, :func:`first_round_regrets`, :func:`played_vs_next`, :func:`sample_minimum_means`,
  :func:`theorem2_factor_check`, :func:`norm_implementations`, :func:`condition_bias`).

The figures are at most 8 inches wide with no text below 9 pt: two panels one above the other, three panels in
a 2 x 2 grid whose fourth cell holds the legend.

**No real CCAT data are used.**  Every CCAT-like figure runs on :func:`l1lab.data.pgs.make_text_like`, a
generative two-topic model with the shape of the paper's task (47 236 features, 0.16 % of the entries nonzero,
unit-l2 tf-idf rows, 47 % positive), and says so in its title (:data:`STAND_IN`).

Early stopping.  The demos measure when a run first reaches a level (a direction error, a test accuracy), so
they stop a run as soon as it reaches the most demanding level the widget can ask for (:func:`run_until`,
which ends :func:`l1lab.solvers.pgs.pgs` from its monitor); every other level is read off the stored curve.

Live widgets.  A setting of these demos runs PGS hundreds of times (seconds to tens of seconds on a 2-core
machine), so the widgets compute everything their sliders can reach when they are built, and a move only
redraws: the runs are cached per seed (:func:`_seed_prefix`; fewer seeds or runs are the first of more, exactly
as computed fresh), a target, a level or delta is read off the stored runs, and the seeds slider goes up to the
number of seeds the widget was built with.  What would need new runs on every move -- sigma and the output of
demo (a), whose 450 runs take about 10 s -- is an argument of the demo rather than a slider.  The bounds demo
(d) is small enough to recompute a new loss, p or sigma on the move.  The figures use fixed margins instead of a
constrained layout (:func:`_fixed_axes`), so that a redraw measures no text.  ``tests/test_book_pgs.py`` runs
the largest settings and checks that the widgets' moves run no solver.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache, partial

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import LogFormatter, NullLocator
from threadpoolctl import threadpool_limits

from ..data.pgs import direction_error, make_gaussian_classes, make_text_like
from ..data.synthetic import make_classification, make_regression
from ..problem import Problem
from ..solvers import lbfgs, pgs
from ..solvers.pgs import _State as _PgsState
from ..solvers.pgs import sample_batches
from ..theory import zhu2009 as zhu
from ..trace import log_checkpoints
from . import style as _style
from .controls import check_choice, check_range, log_slider, wire
from .live import figure_axes
from .static import static_player
from .timing import Clock, warm_up

__all__ = [
    "BOUNDS_DEFAULTS", "BOUNDS_LIMITS", "BOUNDS_STATIC", "Curve", "FIXED_SIGMA_STATIC", "INVERSE_DEFAULTS",
    "INVERSE_LIMITS", "INVERSE_MS", "INVERSE_NS", "INVERSE_STATIC", "K_DEFAULTS", "K_LIMITS", "K_STATIC", "K_VALUES",
    "STAND_IN", "TEXT_CONFIGS", "TEXT_DEFAULTS", "TEXT_LEVELS", "TEXT_LIMITS", "TEXT_MS", "TEXT_SIGMA",
    "TEXT_SIGMA_GRID", "TEXT_STATIC", "TEXT_VALIDATION", "bounds_data", "bounds_demo", "bounds_figure",
    "bounds_player", "bounds_problem", "first_reach", "fixed_sigma_player", "gaussian_toy", "inverse_data",
    "inverse_demo", "inverse_figure", "inverse_player", "inverse_runs", "k_data", "k_demo", "k_figure", "k_player",
    "run_until", "step_seconds", "table2_data", "text_data", "text_demo", "text_figure", "text_player", "text_runs",
    "text_sets", "theorem2_figure", "tune_text_sigma",
    "pgs_path", "strong_convexity_ratios", "radius_check", "conjugate_check", "first_round_regrets",
    "printed_corollary1_from", "played_vs_next", "sample_minimum_means", "theorem2_factor_check",
    "norm_implementations", "condition_bias",
]

#: the label every CCAT-like figure carries
STAND_IN = ("synthetic stand-in for CCAT (make_text_like: 47,236 features, 0.16 % nonzero, unit tf-idf rows; "
            "no real data)")


def _stand_in_title():
    """The stand-in label of the figures, on its own line (the figures are 8 inches wide)."""
    return "synthetic stand-in for CCAT (no real data): 47,236 features, 0.16 % nonzero, unit tf-idf rows"


#: PGS and L-BFGS keep the book's colours (:data:`l1lab.book.style.ALGORITHM_COLORS`) in every figure; several
#: curves of one of them (one per dimension n, per accuracy level, per sigma) are shades of its colour, lighter for
#: the smaller n, the lower level or the larger sigma.  The exact optimum w_hat (a property of the data, not of a
#: solver) is drawn in greys.
PGS_COLOR = _style.algorithm_color("PGS")
LBFGS_COLOR = _style.algorithm_color("L-BFGS")
#: the shade of each dimension of the Gaussian toy, and the grey of w_hat's curves at that dimension
N_SHADES = {10: -0.45, 20: 0.0, 40: 0.45}
N_GREYS = {10: "0.65", 20: "0.4", 40: "0.1"}
#: markers of the fixed sigmas of the second text figure (the same sigma, the same marker, in both panels)
SIGMA_MARKERS = ("o", "s", "^", "D")


def _spread(i, n, lo=-0.55, hi=0.55):
    """The shade parameter of curve i of n: from ``lo`` (light) to ``hi`` (dark)."""
    return 0.0 if n == 1 else lo + (hi - lo) * i / (n - 1)


# ----------------------------------------------------------------------------------------------- helpers
class _Reached(Exception):
    """Raised by :func:`run_until`'s monitor to end a run once its stop rule holds."""


@dataclass(frozen=True)
class Curve:
    """One PGS run observed at the log-spaced checkpoints of ``n_iter`` (``log_checkpoints(n_iter, n_cp)``) up to
    the one at which it stopped: ``value`` is the measured quantity, ``seconds`` the wall-clock seconds of the run
    up to the checkpoint without the time of the measurements themselves; ``stopped`` is True if the stop rule
    ended the run before ``n_iter``."""

    iteration: np.ndarray
    value: np.ndarray
    seconds: np.ndarray
    stopped: bool

    def reach(self, level, below=True):
        """(iteration, seconds) at which the curve first reaches ``level`` (``value <= level`` if ``below``,
        else ``value >= level``), interpolated between checkpoints; (inf, inf) if it never does."""
        return first_reach(self.iteration, self.value, level, below, self.seconds)


def first_reach(iteration, value, level, below=True, seconds=None):
    """The first iteration at which ``value`` reaches ``level`` (<= if ``below``, >= otherwise), interpolated
    linearly in the value between the two checkpoints around it on a log scale of iterations (the iteration
    itself if the first checkpoint already reaches it), and the matching ``seconds`` (interpolated linearly in
    the iteration); (inf, inf) if the level is never reached."""
    it = np.asarray(iteration, dtype=np.float64)
    v = np.asarray(value, dtype=np.float64)
    sec = np.zeros_like(it) if seconds is None else np.asarray(seconds, dtype=np.float64)
    ok = v <= level if below else v >= level
    hits = np.flatnonzero(ok)
    if hits.size == 0:
        return math.inf, math.inf
    k = int(hits[0])
    if k == 0 or it[k - 1] <= 0 or not np.isfinite(v[k - 1]) or v[k] == v[k - 1]:
        return float(it[k]), float(sec[k])
    frac = (level - v[k - 1]) / (v[k] - v[k - 1])
    x = math.exp(math.log(it[k - 1]) + frac * (math.log(it[k]) - math.log(it[k - 1])))
    s = sec[k - 1] + (x - it[k - 1]) / (it[k] - it[k - 1]) * (sec[k] - sec[k - 1])
    return float(x), float(s)


def run_until(problem, n_iter, sigma, measure, stop=None, n_checkpoints=80, **pgs_kw) -> Curve:
    """Run :func:`l1lab.solvers.pgs.pgs` (``record_objective=False``) and evaluate ``measure(w)`` on its output at
    the checkpoints ``log_checkpoints(n_iter, n_checkpoints)``; if ``stop(value)`` holds at a checkpoint the run
    ends there (its monitor raises).  PGS's iterates do not depend on ``n_iter`` or the checkpoints, so a stopped
    run is the beginning of the full one.  The seconds are those of the run up to each checkpoint without the
    measurements, timed with :class:`l1lab.book.timing.Clock` after an untimed two-iteration run of the same
    setting (which compiles the kernels).  Returns a :class:`Curve`."""
    cps = log_checkpoints(int(n_iter), n_checkpoints)
    vals, secs = [], []
    problem.csr_arrays()  # built once per problem, outside the timing
    run = Clock(warm_up=lambda: pgs(problem, 2, sigma, n_checkpoints=2, monitor=lambda w: 0.0,
                                    record_objective=False, **pgs_kw))
    measuring = Clock(warm_up=lambda: measure(np.zeros(problem.d)))

    def monitor(w):
        secs.append(run.now() - measuring.seconds)      # the run so far, without the measurements
        with measuring:
            v = float(measure(w))
        vals.append(v)
        if stop is not None and stop(v):
            raise _Reached
        return v

    stopped = False
    try:
        with run:
            pgs(problem, int(n_iter), sigma, n_checkpoints=n_checkpoints, monitor=monitor, record_objective=False,
                **pgs_kw)
    except _Reached:
        stopped = len(vals) < cps.size
    return Curve(cps[:len(vals)].copy(), np.array(vals), np.array(secs), stopped)


#: runs cached per setting and seed (see :func:`_seed_prefix`); at most _SEED_RUNS_MAX settings are kept
_SEED_RUNS: dict = {}
_SEED_RUNS_MAX = 1024


def _seed_prefix(key, n, compute):
    """The results of the setting ``key`` for the seeds 0, ..., n-1: those cached, and ``compute(seeds)`` (a list
    of results, run under one BLAS thread) for the missing ones.  Every seed's run depends on its seed alone, so
    the first n of more seeds are exactly the results of n seeds computed fresh (except measured seconds): a
    smaller number of seeds is a lookup, a larger one runs only the new seeds."""
    have = _SEED_RUNS.pop(key, [])
    if len(have) < n:
        with threadpool_limits(limits=1, user_api="blas"):
            have = have + list(compute(range(len(have), n)))
    _SEED_RUNS[key] = have          # the most recently used last
    while len(_SEED_RUNS) > _SEED_RUNS_MAX:
        _SEED_RUNS.pop(next(iter(_SEED_RUNS)))
    return tuple(have[:n])


def _fixed_axes(fig, figsize, nrows, ncols, margins, **subplots_kw):
    """``(fig, axes)`` from :func:`l1lab.book.live.figure_axes` with fixed margins (``margins``: the gridspec's left,
    right, bottom, top, wspace, hspace as figure fractions) and no layout engine.  The figures of this chapter
    carry many tick labels and legend entries, which a constrained layout measures again at every move (as
    long as the drawing itself); with fixed margins a live redraw measures nothing."""
    return figure_axes(fig, figsize, layout="none", nrows=nrows, ncols=ncols, gridspec_kw=dict(margins),
                       **subplots_kw)


#: the fixed margins of the figures (see :func:`_fixed_axes`)
_MARGINS_1x2 = dict(left=0.075, right=0.985, bottom=0.11, top=0.87, wspace=0.2)
_MARGINS_1x3 = dict(left=0.05, right=0.99, bottom=0.11, top=0.87, wspace=0.27)
_MARGINS_2x1 = dict(left=0.12, right=0.97, bottom=0.16, top=0.92, hspace=0.62)
_MARGINS_GRID = dict(left=0.1, right=0.98, bottom=0.08, top=0.89, wspace=0.34, hspace=0.42)
_MARGINS_TEXT = dict(left=0.1, right=0.98, bottom=0.065, top=0.8, wspace=0.3, hspace=0.3)
_MARGINS_LEGEND_RIGHT = dict(left=0.1, right=0.64, bottom=0.07, top=0.88, hspace=0.32)
_MARGINS_2x2 = dict(left=0.075, right=0.985, bottom=0.07, top=0.9, wspace=0.2, hspace=0.2)


class _PlainLogFormatter(LogFormatter):
    """The ticks a log axis labels (the decades, and the 2s and 5s when it spans little), as plain numbers
    ("0.2", "3000") instead of "2 x 10^-1"."""

    def __call__(self, x, pos=None):
        return f"{x:g}" if super().__call__(x, pos) else ""


def _plain_log_labels(axis):
    axis.set_major_formatter(_PlainLogFormatter(labelOnlyBase=False))
    axis.set_minor_formatter(_PlainLogFormatter(labelOnlyBase=False, minor_thresholds=(1.5, 0.6)))


def _thousands(v):
    """3000 -> "3k" (training set sizes)."""
    return f"{int(v) // 1000}k" if v >= 1000 and int(v) % 1000 == 0 else f"{int(v)}"


def _data_ticks(axis, values, fmt=_thousands):
    """Label a log axis at the data's own values (the training set sizes or mini-batch sizes of a figure), without
    minor ticks."""
    axis.set_ticks([float(v) for v in values], [fmt(v) for v in values])
    axis.set_minor_locator(NullLocator())


def _median_band(per_run):
    """(median, 25 %, 75 %) over runs of values that may be inf (not reached); inf where more than half (or a
    quarter) of the runs did not reach."""
    a = np.sort(np.asarray(per_run, dtype=np.float64), axis=0)
    return tuple(np.quantile(a, q, axis=0, method="inverted_cdf") if a.size else np.nan for q in (0.5, 0.25, 0.75))


# ----------------------------------------------------------------------------------------------- Theorem 2
@_style.book_figure
def theorem2_figure(p=2.0, w0_norm=1.0, delta=0.1, eps_values=(0.3, 0.4, 0.6), c_opt=1.0, c_est=1.0,
                    figsize=(7.5, 7.6)) -> Figure:
    """Figure 4 of Zhu et al. (2009) from the explicit form of Theorem 2 (:mod:`l1lab.theory.zhu2009`).
    Top: the iterations T(m) of eq. (12) for every generalization error eps of ``eps_values``, with the
    vertical asymptote m_0 = 2 c_est ||u||^2/(eps^2 (p-1)) below which eps cannot be reached, and the limit
    2 c_opt ||u||^2/(delta eps^2 (p-1)) for m -> infinity (u: the reference predictor, the paper's w_0,
    of norm ``w0_norm``).  Bottom, for the middle eps: the three terms of the bound (20) at sigma(T(m), m)
    (Theorem 2's choice) -- optimization, estimation and the regularization (approximation) term -- which add
    up to eps."""
    eps_values = tuple(float(e) for e in eps_values)
    if not eps_values:
        raise ValueError("eps_values is empty")
    fig = Figure(figsize=figsize, layout="constrained")
    ax0, ax1 = fig.subplots(2, 1)

    def m_zero(e):
        return 2 * c_est * w0_norm ** 2 / (e ** 2 * (p - 1))

    m_lo = min(m_zero(e) for e in eps_values)
    ms = np.logspace(np.log10(m_lo * 1.001), np.log10(m_lo * 1e3), 300)
    for i, eps in enumerate(eps_values):
        T = np.array([zhu.theorem2_iterations(eps, m, delta, w0_norm, p, c_opt, c_est) for m in ms])
        m0 = m_zero(eps)
        col = f"C{i}"
        # every curve of this figure is theory (Theorem 2's formulas): dashed, dotted or dash-dotted, none solid
        ax0.plot(ms, T, color=col, ls="--", lw=2, label=f"Theorem 2: T(m) for ε = {eps:g}")
        ax0.axvline(m0, color=col, ls=":", lw=1)
        ax0.axhline(2 * c_opt * w0_norm ** 2 / (delta * eps ** 2 * (p - 1)), color=col, ls="-.", lw=0.8)
    ax0.plot([], [], color="0.4", ls=":", lw=1, label="$m_0$: ε out of reach below it")
    ax0.plot([], [], color="0.4", ls="-.", lw=0.8, label=r"$m \to \infty$: optimization alone")
    ax0.set_xscale("log")
    ax0.set_yscale("log")
    ax0.set_xlabel("training set size $m$")
    ax0.set_ylabel("iterations $T$ of the paper's (12)")
    ax0.set_title(f"Theorem 2: p = {p:g}, ‖u‖ = {w0_norm:g}, δ = {delta:g}, "
                  f"$c_{{opt}}$ = {c_opt:g}, $c_{{est}}$ = {c_est:g}", fontsize=10)
    ax0.legend(fontsize=9, loc="upper right")
    ax0.grid(True, which="major", alpha=0.3)
    eps = eps_values[len(eps_values) // 2]
    ms2 = ms[ms > m_zero(eps) * 1.001]
    T = np.array([zhu.theorem2_iterations(eps, m, delta, w0_norm, p, c_opt, c_est) for m in ms2])
    sig = np.array([zhu.theorem2_sigma(t, m, delta, w0_norm, p, c_opt, c_est) for t, m in zip(T, ms2)])
    opt = c_opt / (sig * T * delta)
    est = c_est / (sig * ms2)
    app = sig * w0_norm ** 2 / (2 * (p - 1))
    # the three terms in colours of their own (not the targets' colours of the upper panel)
    ax1.stackplot(ms2, opt, est, app, colors=("C9", "C5", "C7"), alpha=0.6,
                  labels=[r"optimization $c_{opt}/(\sigma T\delta)$", r"estimation $c_{est}/(\sigma m)$",
                          r"regularization $\sigma\|u\|^2/(2(p-1))$"])
    ax1.axhline(eps, color="k", lw=1, ls="--", label=f"ε = {eps:g}")
    ax1.set_xscale("log")
    ax1.set_xlim(ms2[0], ms2[-1])
    ax1.set_ylim(0, 1.75 * eps)
    ax1.set_xlabel("training set size $m$")
    ax1.set_ylabel("terms of the bound at Theorem 2's σ")
    ax1.set_title("the error budget: more data leaves more of it to optimization", fontsize=10)
    ax1.legend(fontsize=9, loc="upper center", ncol=2)
    return fig


# ----------------------------------------------------------------------------------------------- demo (a)
#: demo (a): the dimensions and training set sizes of the Gaussian toy (Figure 9)
INVERSE_NS = (10, 20, 40)
INVERSE_MS = (1_000, 3_000, 10_000, 30_000, 100_000, 200_000)
#: the longest PGS run and its checkpoints (log-spaced, about 12 % apart)
INVERSE_T_MAX = 100_000
INVERSE_CHECKPOINTS = 100
INVERSE_DEFAULTS = dict(n_max=40, sigma=1e-2, target=0.05, n_runs=25, output="last")
INVERSE_LIMITS = dict(n_max=INVERSE_NS, sigma=(1e-3, 1e-1), target=(0.04, 0.1), n_runs=(5, 50),
                      output=("last", "average"))
#: the static player of demo (a): every largest n, four targets from the strictest to the loosest (the chapter's
#: question moves it from 0.1 to 0.04); the 25 runs of the live widget's start (every frame is a lookup in the
#: runs the widget computes when it is built)
INVERSE_STATIC = dict(grid=dict(target=(0.04, 0.05, 0.07, 0.1), n_runs=(25,)), name="pgs-inverse")


@lru_cache(maxsize=3)
def gaussian_toy(n, data_seed=0):
    """The Gaussian toy of Figure 9 at dimension n: ``(X, y, w_star)`` with max(INVERSE_MS) examples of two
    classes N(+-mu, I) (:func:`l1lab.data.pgs.make_gaussian_classes`, separation 2, identity covariance),
    truncated to [-1, 1]^n; the set of m examples is the first m rows.  Cached."""
    check_choice("n", n, INVERSE_NS)
    X, y, w_star = make_gaussian_classes(max(INVERSE_MS), int(n), separation=2.0, condition=1.0, seed=int(data_seed))
    for a in (X, y, w_star):
        a.setflags(write=False)
    return X, y, w_star


@dataclass(frozen=True)
class InverseRuns:
    """Demo (a) at one (n, m): ``curves`` are the PGS runs (direction error of the output at the checkpoints,
    each stopped once it reached the smallest target of the widget, INVERSE_LIMITS["target"][0]); ``hat_error``
    is the direction error of the empirical optimum w_hat (L-BFGS to 1e-10), and ``lbfgs_error``,
    ``lbfgs_accesses``, ``lbfgs_seconds`` describe the L-BFGS run iteration by iteration (0, 1, ...)."""

    n: int
    m: int
    sigma: float
    output: str
    curves: tuple
    hat_error: float
    lbfgs_error: np.ndarray
    lbfgs_accesses: np.ndarray
    lbfgs_seconds: np.ndarray

    def pgs_needed(self, target):
        """Iterations each run needs to bring its direction error to ``target`` (inf: not within INVERSE_T_MAX)."""
        return np.array([c.reach(target)[0] for c in self.curves])

    def lbfgs_needed(self, target):
        """(iterations, data accesses, seconds) of L-BFGS at its first iterate with direction error <= target."""
        hit = np.flatnonzero(self.lbfgs_error <= target)
        if hit.size == 0:
            return math.inf, math.inf, math.inf
        i = int(hit[0])
        return float(i), float(self.lbfgs_accesses[i]), float(self.lbfgs_seconds[i])


@lru_cache(maxsize=1)
def _inverse_problem(n, m, data_seed):
    """The logistic-loss Problem of the first m examples of the toy, shared by the runs and L-BFGS of one
    (n, m) (:func:`inverse_runs` then drops it: its CSR copy is up to 100 MB)."""
    X, y, _ = gaussian_toy(n, data_seed)
    return Problem(X[:m], y[:m], "logistic", 0.0)


def _inverse_curves(n, m, sigma, n_runs, output, data_seed):
    """The PGS runs of demo (a) at (n, m) for the seeds 0, ..., n_runs-1, cached per seed."""
    w_star = gaussian_toy(n, data_seed)[2]
    lo = INVERSE_LIMITS["target"][0]

    def err(w):
        return direction_error(w, w_star)

    def compute(seeds):
        prob = _inverse_problem(n, m, data_seed)
        return [run_until(prob, INVERSE_T_MAX, sigma, err, stop=lambda v: v <= lo,
                          n_checkpoints=INVERSE_CHECKPOINTS, seed=s, output=output) for s in seeds]

    return _seed_prefix(("inverse", n, m, sigma, output, data_seed), n_runs, compute)


@lru_cache(maxsize=96)
@threadpool_limits.wrap(limits=1, user_api="blas")
def _inverse_lbfgs(n, m, sigma, data_seed):
    w_star = gaussian_toy(n, data_seed)[2]

    def err(w):
        return direction_error(w, w_star)

    # an untimed iteration first: the recorded seconds do not include numba's compilation
    warm_up(lbfgs, _inverse_problem(n, m, data_seed), sigma, tol=1e-10, max_iter=1, n_checkpoints=2)
    ref = lbfgs(_inverse_problem(n, m, data_seed), sigma, tol=1e-10, n_checkpoints=100_000, monitor=err)
    it = ref.trace.iteration
    if not np.array_equal(it, np.arange(it.size)):
        raise RuntimeError("expected the L-BFGS trace to hold every iteration")
    return float(err(ref.w)), ref.info["monitor"], ref.trace.data_accesses, ref.trace.seconds


def inverse_runs(n, m, sigma=1e-2, n_runs=25, output="last", data_seed=0) -> InverseRuns:
    """Demo (a) at one dimension n and training set size m: ``n_runs`` runs of PGS (p = 2, logistic, k = 1,
    seeds 0, 1, ...) on the first m examples of :func:`gaussian_toy`, and L-BFGS on the same objective.  Cached
    per seed: fewer runs are the first of more, and more runs compute only the new seeds."""
    check_choice("n", n, INVERSE_NS)
    check_choice("m", m, INVERSE_MS)
    check_range("sigma", sigma, INVERSE_LIMITS)
    check_range("n_runs", n_runs, INVERSE_LIMITS)
    check_choice("output", output, INVERSE_LIMITS["output"])
    n, m, sigma, data_seed = int(n), int(m), float(sigma), int(data_seed)
    curves = _inverse_curves(n, m, sigma, int(n_runs), str(output), data_seed)
    hat, err, acc, sec = _inverse_lbfgs(n, m, sigma, data_seed)
    _inverse_problem.cache_clear()     # the runs are cached; their problem (up to 100 MB) is not kept
    return InverseRuns(n, m, sigma, str(output), curves, hat, err, acc, sec)


@dataclass(frozen=True)
class InverseData:
    """Demo (a): for every n of ``ns`` (rows) and m of INVERSE_MS (columns): the median and quartiles over runs
    of the iterations PGS needs to reach ``target`` (inf: more than half of the runs did not within
    INVERSE_T_MAX), the direction error of w_hat, and L-BFGS's iterations, data accesses and seconds."""

    ns: tuple
    ms: tuple
    sigma: float
    target: float
    output: str
    n_runs: int
    pgs_median: np.ndarray
    pgs_q25: np.ndarray
    pgs_q75: np.ndarray
    pgs_seconds: np.ndarray
    hat_error: np.ndarray
    lbfgs_iterations: np.ndarray
    lbfgs_accesses: np.ndarray
    lbfgs_seconds: np.ndarray

    def m0(self, n):
        """The training set size at which w_hat's direction error falls to the target (interpolated in log-log
        between the sizes around it; nan if it is below the target at every m, inf if at none)."""
        e = self.hat_error[self.ns.index(n)]
        ms = np.asarray(self.ms, dtype=np.float64)
        below = np.flatnonzero(e <= self.target)
        if below.size == 0:
            return math.inf
        k = int(below[0])
        if k == 0:
            return math.nan
        x0, x1 = math.log(ms[k - 1]), math.log(ms[k])
        y0, y1 = math.log(e[k - 1]), math.log(e[k])
        return math.exp(x0 + (math.log(self.target) - y0) * (x1 - x0) / (y1 - y0))


@lru_cache(maxsize=256)
def inverse_data(n_max=40, sigma=1e-2, target=0.05, n_runs=25, output="last", data_seed=0) -> InverseData:
    """Demo (a)'s computation for every n of INVERSE_NS up to ``n_max`` (see :class:`InverseData`).  The runs
    are cached per (n, m, sigma, output, seed): a new target, a smaller n_max or fewer runs are immediate."""
    check_choice("n_max", n_max, INVERSE_LIMITS["n_max"])
    check_range("target", target, INVERSE_LIMITS)
    ns = tuple(n for n in INVERSE_NS if n <= n_max)
    shape = (len(ns), len(INVERSE_MS))
    med, q25, q75, sec, hat, li, la, ls = (np.empty(shape) for _ in range(8))
    for i, n in enumerate(ns):
        for j, m in enumerate(INVERSE_MS):
            r = inverse_runs(n, m, sigma, n_runs, output, data_seed)
            reach = [c.reach(target) for c in r.curves]
            med[i, j], q25[i, j], q75[i, j] = _median_band([a for a, _ in reach])
            sec[i, j] = _median_band([b for _, b in reach])[0]
            hat[i, j] = r.hat_error
            li[i, j], la[i, j], ls[i, j] = r.lbfgs_needed(target)
    return InverseData(ns, INVERSE_MS, float(sigma), float(target), str(output), int(n_runs), med, q25, q75, sec,
                       hat, li, la, ls)


def draw_inverse(axes, data: InverseData, ylims=None, legend_ax=None):
    """Demo (a) on three axes: PGS's iterations to the target against m (median, quartile bars, triangles where
    the median run did not reach it within INVERSE_T_MAX, dotted lines at m_0 where w_hat's own error reaches
    the target); the data accesses of PGS (iterations x n) and of L-BFGS (evaluations x m x n); the direction
    error of w_hat against m.  PGS in shades of its colour, L-BFGS in shades of its own, w_hat in greys (lighter
    for smaller n); every curve is measured, so every curve is solid.  With ``legend_ax`` (an axes, switched off)
    one legend there names everything; otherwise each panel has its own."""
    ax0, ax1, ax2 = axes
    ms = np.asarray(data.ms, dtype=np.float64)
    shift = {10: 0.92, 20: 1.0, 40: 1.08}   # the triangles of the three n side by side
    for i, n in enumerate(data.ns):
        col = _style.shade("PGS", N_SHADES[n])
        lcol = _style.shade("L-BFGS", N_SHADES[n])
        med, lo, hi = data.pgs_median[i], data.pgs_q25[i], data.pgs_q75[i]
        ok = np.isfinite(med)
        ax0.plot(ms[ok], med[ok], "o-", color=col, lw=2, ms=5, label=f"PGS, n = {n}: median of {data.n_runs} runs")
        if ok.any():   # the quartiles of the runs
            ax0.vlines(ms[ok], lo[ok], np.where(np.isfinite(hi[ok]), hi[ok], INVERSE_T_MAX), color=col, lw=1.2,
                       alpha=0.6)
        if (~ok).any():
            ax0.plot(ms[~ok] * shift[n], np.full((~ok).sum(), INVERSE_T_MAX), "^", color=col, ms=8, mfc="none",
                     mew=1.5)
        m0 = data.m0(n)
        if np.isfinite(m0):
            ax0.axvline(m0, color=N_GREYS[n], ls=":", lw=1.2)
            ax2.axvline(m0, color=N_GREYS[n], ls=":", lw=1.2)
        ax1.plot(ms[ok], med[ok] * n, "o-", color=col, lw=2, ms=5, label=f"PGS, n = {n}")
        lok = np.isfinite(data.lbfgs_accesses[i])
        ax1.plot(ms[lok], data.lbfgs_accesses[i][lok], "s-", color=lcol, lw=1.5, ms=5, mfc="none",
                 label=f"L-BFGS, n = {n}")
        ax2.plot(ms, data.hat_error[i], "o-", color=N_GREYS[n], lw=2, ms=5, label=f"ŵ, n = {n}")
    ax2.axhline(data.target, color="k", ls="--", lw=1, label=f"target {data.target:g}")
    not_within = f"median PGS run > {INVERSE_T_MAX:,} iterations"
    m0_label = r"$m_0$: $\hat w$ reaches the target"
    if legend_ax is None:
        ax0.plot([], [], "^", color="0.4", ms=8, mfc="none", mew=1.5, label=not_within)
        ax0.plot([], [], ":", color="0.4", lw=1.2, label=m0_label)
    ax0.set_ylabel(f"PGS iterations to error ≤ {data.target:g}")
    ax0.set_title(f"PGS iterations (σ = {data.sigma:g}, {data.output} iterate)", fontsize=10)
    ax1.set_ylabel("data accesses to the target")
    ax1.set_title("work: PGS against L-BFGS", fontsize=10)
    ax2.set_ylabel(r"direction error of $\hat w$")
    ax2.set_title("estimation error: what no optimizer can beat", fontsize=10)
    for k, ax in enumerate(axes):
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlim(0.7 * ms[0], 1.4 * ms[-1])
        _data_ticks(ax.xaxis, data.ms)
        ax.tick_params(axis="x", labelsize=9)        # six sizes, two of them 0.3 decade apart
        ax.set_xlabel("training set size $m$")
        ax.grid(True, which="major", alpha=0.3)
        if k < 2:      # several decades: decades only (minor ticks would carry no labels)
            ax.yaxis.set_minor_locator(NullLocator())
        if ylims is not None and ylims[k] is not None:
            ax.set_ylim(*ylims[k])
        elif k < 2 and legend_ax is None:  # room for the legend above the curves
            lo, hi = ax.get_ylim()
            ax.set_ylim(lo, hi * 8)
    if legend_ax is None:
        ax0.legend(fontsize=7, loc="upper right", ncol=2)
        ax1.legend(fontsize=7, loc="upper left", ncol=2)
        ax2.legend(fontsize=7, loc="lower left")
        return
    from matplotlib.lines import Line2D
    handles = [Line2D([], [], marker="o", color=_style.shade("PGS", N_SHADES[n]), lw=2, ms=5,
                      label=f"PGS, n = {n}: median of {data.n_runs} runs") for n in data.ns]
    handles += [Line2D([], [], marker="s", color=_style.shade("L-BFGS", N_SHADES[n]), lw=1.5, ms=5, mfc="none",
                       label=f"L-BFGS, n = {n}") for n in data.ns]
    handles += [Line2D([], [], marker="o", color=N_GREYS[n], lw=2, ms=5, label=f"ŵ (exact optimum), n = {n}")
                for n in data.ns]
    handles += [
        Line2D([], [], marker="^", color="0.4", ls="none", ms=8, mfc="none", mew=1.5, label=not_within),
        Line2D([], [], color="0.4", ls=":", lw=1.2, label=m0_label),
        Line2D([], [], color="k", ls="--", lw=1, label=f"target {data.target:g}")]
    legend_ax.set_axis_off()
    legend_ax.legend(handles=handles, loc="center left", fontsize=9, frameon=False,
                     title="bars: quartiles of the PGS runs", title_fontsize=9)


@_style.book_figure
def inverse_figure(n_max=40, sigma=1e-2, target=0.05, n_runs=25, output="last", data_seed=0,
                   figsize=(8.0, 7.4), fig=None) -> Figure:
    """Demo (a), the Figure 9 analogue, as a Figure (:func:`draw_inverse`: three panels and the legend in a 2 x 2
    grid); ``fig``: the figure to redraw in place (:func:`l1lab.book.live.figure_axes`)."""
    data = inverse_data(n_max, sigma, target, n_runs, output, data_seed)
    fig, axes = _fixed_axes(fig, figsize, 2, 2, _MARGINS_GRID)
    draw_inverse((axes[0, 0], axes[0, 1], axes[1, 0]), data, legend_ax=axes[1, 1])
    fig.suptitle(f"Two Gaussian classes N(±μ, I) in n dimensions, logistic loss, PGS with p = 2, k = 1:\n"
                 f"direction error ‖w†/‖w†‖ − w/‖w‖‖₂ ≤ {target:g} (Figure 9 of Zhu et al. 2009)", fontsize=10)
    return fig


def inverse_demo(**defaults):
    """Live demo (a): the largest n, the target and the number of runs, redrawing :func:`inverse_figure` for
    the ``sigma`` and ``output`` given here (keywords; default INVERSE_DEFAULTS).  The runs are computed when the
    widget is built -- ``n_runs`` of them for every m and every n up to ``n_max`` (the sliders' tops), about
    10 s on two cores for 25 runs up to n = 40, nothing if the chapter's figure ran them -- and every move is a
    lookup: a smaller n_max, fewer runs (the first of them) or another target.  A new sigma or output would
    rerun the 450 runs and the 18 L-BFGS solves (10 to 20 s), so they are arguments of the demo, not sliders."""
    import ipywidgets as widgets

    v = dict(INVERSE_DEFAULTS, **defaults)
    lim = INVERSE_LIMITS
    check_choice("n_max", v["n_max"], lim["n_max"])
    check_choice("output", v["output"], lim["output"])
    for name in ("sigma", "target", "n_runs"):
        check_range(name, v[name], lim)
    sigma, output, n_runs = float(v["sigma"]), str(v["output"]), int(v["n_runs"])
    inverse_data(v["n_max"], sigma, v["target"], n_runs, output)      # every slider position, now
    lo = min(lim["n_runs"][0], n_runs)
    controls = dict(
        n_max=widgets.SelectionSlider(options=[n for n in lim["n_max"] if n <= v["n_max"]], value=v["n_max"],
                                      description="largest n", continuous_update=False),
        target=widgets.FloatSlider(value=v["target"], min=lim["target"][0], max=lim["target"][1], step=0.005,
                                   description="target", continuous_update=False, readout_format=".3f"),
        n_runs=widgets.IntSlider(value=n_runs, min=lo, max=n_runs, step=5 if (n_runs - lo) % 5 == 0 else 1,
                                 description="runs", continuous_update=False),
    )
    return wire(controls, partial(inverse_figure, sigma=sigma, output=output),
                [["n_max", "target", "n_runs"]])


def inverse_player(**static):
    """Demo (a) for the HTML book: the live widget (:func:`inverse_demo`) precomputed over :data:`INVERSE_STATIC`
    (``static`` overrides its entries) by :func:`l1lab.book.static.static_player`."""
    return static_player(inverse_demo(), **dict(INVERSE_STATIC, **static))


# ----------------------------------------------------------------------------------------------- demo (b)
#: demo (b): training set sizes of the CCAT stand-in (prefixes of one set of 100 000 documents), held-out sizes
TEXT_MS = (10_000, 20_000, 50_000, 100_000)
TEXT_N_HELDOUT = 20_000
#: document seeds of the training, validation and test sets (one population, model_seed 0)
TEXT_SEEDS = (1, 2, 3)
#: the test-accuracy levels of the figures (the paper's Figures 6-8 use levels such as 93 % and 94 %; the
#: stand-in's best test accuracy is 93 % at m = 10^4 and 94 % at m = 10^5)
TEXT_LEVELS = (0.90, 0.91, 0.92, 0.93)
#: the two settings of the paper's Section V, (p, k): k = 1 for p = 2, k = 300 ~ n/d for p = 1.8
TEXT_CONFIGS = ((2.0, 1), (1.8, 300))
#: the longest run, in examples read (T k), and at least TEXT_MIN_ITER iterations; the checkpoints per run
TEXT_EXAMPLES = 100_000
TEXT_MIN_ITER = 400
TEXT_CHECKPOINTS = 40
#: sigma tried for every (p, m) by :func:`tune_text_sigma`
TEXT_SIGMA_GRID = (3e-4, 1e-4, 3e-5, 1e-5, 3e-6, 1e-6)
#: validation accuracy of the exact optimum (L-BFGS, tol 1e-6) for every sigma of TEXT_SIGMA_GRID, as
#: ``tune_text_sigma`` computes it (about 45 s on two cores for all eight rows; rerun it to check)
TEXT_VALIDATION = {
    (2.0, 10_000): (0.93015, 0.93075, 0.9281, 0.92425, 0.9188, 0.9158),
    (2.0, 20_000): (0.93285, 0.93595, 0.93565, 0.93205, 0.9246, 0.91825),
    (2.0, 50_000): (0.9335, 0.93935, 0.9422, 0.94125, 0.933, 0.92135),
    (2.0, 100_000): (0.9342, 0.93975, 0.94365, 0.94515, 0.9423, 0.93185),
    (1.8, 10_000): (0.92625, 0.9302, 0.93105, 0.92895, 0.9249, 0.91985),
    (1.8, 20_000): (0.9232, 0.93205, 0.93525, 0.93605, 0.93315, 0.9261),
    (1.8, 50_000): (0.9173, 0.93185, 0.9387, 0.94275, 0.94265, 0.9365),
    (1.8, 100_000): (0.91595, 0.9325, 0.93935, 0.94335, 0.9457, 0.94445),
}
#: sigma(m) of the paper's protocol: the best of TEXT_SIGMA_GRID on the validation set
TEXT_SIGMA = {key: TEXT_SIGMA_GRID[int(np.argmax(acc))] for key, acc in TEXT_VALIDATION.items()}
#: the fixed sigmas of the second figure (p = 2, k = 1)
FIXED_SIGMAS = (3e-4, 1e-4, 3e-5, 1e-5)
TEXT_DEFAULTS = dict(n_seeds=3)
TEXT_LIMITS = dict(n_seeds=(1, 5), level=TEXT_LEVELS)
FIXED_DEFAULTS = dict(level=0.92, n_seeds=3)
#: the static players of demo (b): every position of every control (the seeds, the level), since fewer seeds are
#: the first of the runs the widget computes when it is built and a level is read off the same runs
TEXT_STATIC = dict(grid=dict(), name="pgs-text")
FIXED_SIGMA_STATIC = dict(grid=dict(), name="pgs-fixed-sigma")


def text_iterations(k):
    """The longest run of the text demos for mini-batch size k: max(TEXT_MIN_ITER, TEXT_EXAMPLES // k)."""
    return max(TEXT_MIN_ITER, TEXT_EXAMPLES // int(k))


@dataclass(frozen=True)
class TextSets:
    """The CCAT stand-in: a training set of max(TEXT_MS) documents (the set of m documents is its first m rows),
    a validation set (for sigma) and a test set (for the accuracy levels), TEXT_N_HELDOUT documents each."""

    X: object
    y: np.ndarray
    X_val: object
    y_val: np.ndarray
    X_test: object
    y_test: np.ndarray

    def problem(self, m):
        """The logistic-loss Problem (lam = 0) of the first m training documents."""
        return Problem(self.X[:m], self.y[:m], "logistic", 0.0)

    def accuracy(self, w, which="test"):
        """The fraction of the test (or validation) documents that sign(<w, x>) classifies correctly."""
        X, y = (self.X_test, self.y_test) if which == "test" else (self.X_val, self.y_val)
        return float(np.mean(np.sign(X @ w) == y))


@lru_cache(maxsize=1)
def text_sets() -> TextSets:
    """The training, validation and test sets of the CCAT stand-in (:func:`l1lab.data.pgs.make_text_like`
    with model_seed 0 and document seeds TEXT_SEEDS).  About 5 s the first time; cached."""
    tr, va, te = TEXT_SEEDS
    X, y, _ = make_text_like(max(TEXT_MS), seed=tr)
    Xv, yv, _ = make_text_like(TEXT_N_HELDOUT, seed=va)
    Xt, yt, _ = make_text_like(TEXT_N_HELDOUT, seed=te)
    return TextSets(X, y, Xv, yv, Xt, yt)


@lru_cache(maxsize=4)
def _text_problem(m):
    return text_sets().problem(m)


def tune_text_sigma(p, m, grid=TEXT_SIGMA_GRID, tol=1e-6):
    """The validation accuracy of the exact optimum of (7) (L-BFGS to ``tol``) for every sigma of ``grid``, on
    the first m training documents of the stand-in: Section V's choice of sigma(m) ("the maximal achievable
    accuracy"), made on a validation set rather than on the test set.  :data:`TEXT_VALIDATION` holds the output
    for every m of TEXT_MS and p in {2, 1.8}."""
    check_choice("m", m, TEXT_MS)
    prob = _text_problem(int(m))
    sets = text_sets()
    return tuple(sets.accuracy(lbfgs(prob, s, p=float(p), tol=tol, max_iter=300).w, "validation") for s in grid)


@dataclass(frozen=True)
class TextRuns:
    """PGS (last iterate, seeds 0, 1, ...) at one (p, k, m, sigma) on the stand-in: the test accuracy at the
    checkpoints, each run stopped once it reached max(TEXT_LEVELS) or after :func:`text_iterations` (k)."""

    p: float
    k: int
    m: int
    sigma: float
    curves: tuple

    def needed(self, level):
        """(median iterations, median seconds) over the runs to reach the test accuracy ``level`` (inf where
        more than half of the runs do not reach it)."""
        reach = np.array([c.reach(level, below=False) for c in self.curves])
        return float(_median_band(reach[:, 0])[0]), float(_median_band(reach[:, 1])[0])


def _text_runs(p, k, m, sigma, n_seeds):
    sets = text_sets()
    top = max(TEXT_LEVELS)

    def compute(seeds):
        prob = _text_problem(m)
        return [run_until(prob, text_iterations(k), sigma, sets.accuracy, stop=lambda v: v >= top,
                          n_checkpoints=TEXT_CHECKPOINTS, p=p, k=k, seed=s, output="last") for s in seeds]

    return TextRuns(p, k, m, sigma, _seed_prefix(("text", p, k, m, sigma), n_seeds, compute))


def text_runs(p, k, m, sigma=None, n_seeds=3) -> TextRuns:
    """PGS on the first m documents of the stand-in with norm p, mini-batch size k and regularization sigma
    (default TEXT_SIGMA[(p, m)], the paper's protocol); ``n_seeds`` runs (seeds 0, 1, ...).  Cached per seed:
    fewer seeds are the first of more, more seeds run only the new ones."""
    p = float(p)
    if not 1.0 < p <= 2.0:
        raise ValueError(f"p must lie in (1, 2], got {p}")
    check_choice("m", m, TEXT_MS)
    check_range("n_seeds", n_seeds, TEXT_LIMITS)
    if int(k) != k or not 1 <= k <= m:
        raise ValueError(f"k must be an integer in [1, m], got {k}")
    if sigma is None:
        if (p, m) not in TEXT_SIGMA:
            raise ValueError(f"no tuned sigma for p = {p}; pass sigma")
        sigma = TEXT_SIGMA[(p, m)]
    return _text_runs(p, int(k), int(m), float(sigma), int(n_seeds))


@lru_cache(maxsize=16)
@threadpool_limits.wrap(limits=1, user_api="blas")
def _text_lbfgs(p, m, sigma):
    sets = text_sets()
    # a warm-up iteration, untimed: the recorded seconds do not include numba's compilation
    warm_up(lbfgs, _text_problem(m), sigma, p=p, tol=1e-6, max_iter=1, n_checkpoints=2)
    ref = lbfgs(_text_problem(m), sigma, p=p, tol=1e-6, max_iter=300, n_checkpoints=100_000, monitor=sets.accuracy)
    return ref.info["monitor"], ref.trace.seconds, ref.trace.data_accesses


@dataclass(frozen=True)
class TextData:
    """Demo (b), the paper's protocol: for both settings of TEXT_CONFIGS (keys (p, k)), every level of
    TEXT_LEVELS (rows) and every m of TEXT_MS (columns), the median over seeds of PGS's iterations and seconds
    to the level at sigma = TEXT_SIGMA[(p, m)] (inf: not reached by the median run), and L-BFGS's iterations
    and seconds on the same objective."""

    levels: tuple
    ms: tuple
    n_seeds: int
    sigma: dict
    pgs_iterations: dict
    pgs_seconds: dict
    lbfgs_iterations: dict
    lbfgs_seconds: dict
    lbfgs_accuracy: dict   # the final (converged) test accuracy of L-BFGS, per m

    def ratio(self, config, level, m_from, m_to, what="seconds"):
        """PGS's median seconds (or iterations) to ``level`` at m_to divided by that at m_from."""
        a = (self.pgs_seconds if what == "seconds" else self.pgs_iterations)[config][self.levels.index(level)]
        return a[self.ms.index(m_to)] / a[self.ms.index(m_from)]


@lru_cache(maxsize=16)
def text_data(n_seeds=3) -> TextData:
    """Demo (b)'s computation (see :class:`TextData`); about 20 s on two cores the first time.  With the same
    number of seeds, the runs for p = 2 are shared with :func:`fixed_sigma_data`."""
    check_range("n_seeds", n_seeds, TEXT_LIMITS)
    shape = (len(TEXT_LEVELS), len(TEXT_MS))
    pi, ps, li, ls, la, sig = {}, {}, {}, {}, {}, {}
    for cfg in TEXT_CONFIGS:
        p, k = cfg
        pi[cfg], ps[cfg], li[cfg], ls[cfg] = (np.full(shape, np.inf) for _ in range(4))
        la[cfg] = np.empty(len(TEXT_MS))
        sig[cfg] = tuple(TEXT_SIGMA[(p, m)] for m in TEXT_MS)
        for j, m in enumerate(TEXT_MS):
            r = text_runs(p, k, m, n_seeds=n_seeds)
            acc, sec, _ = _text_lbfgs(p, m, TEXT_SIGMA[(p, m)])
            la[cfg][j] = acc[-1]
            for i, lev in enumerate(TEXT_LEVELS):
                pi[cfg][i, j], ps[cfg][i, j] = r.needed(lev)
                hit = np.flatnonzero(acc >= lev)
                if hit.size:
                    li[cfg][i, j], ls[cfg][i, j] = float(hit[0]), float(sec[hit[0]])
    return TextData(TEXT_LEVELS, TEXT_MS, int(n_seeds), sig, pi, ps, li, ls, la)


def _config_name(cfg):
    return f"p = {cfg[0]:g}, k = {cfg[1]}"


def _level_shade(i, n):
    """The shade of accuracy level i of n: lighter for the lower levels."""
    return _spread(i, n, -0.45, 0.5)


@_style.book_figure
def text_figure(n_seeds=3, figsize=(8.0, 8.4), fig=None) -> Figure:
    """Demo (b), Figures 5-8 of Zhu et al. (2009) on the CCAT stand-in, with the paper's protocol (sigma(m) the
    most accurate on a validation set): for p = 2 (k = 1) and p = 1.8 (k = 300), the seconds (top; L-BFGS
    dashed) and PGS iterations (bottom) to each test-accuracy level against m.  A level missing at a small m is
    not reached there (within the run's budget).  ``fig``: the figure to redraw in place."""
    data = text_data(n_seeds)
    fig, axes = _fixed_axes(fig, figsize, 2, len(TEXT_CONFIGS), _MARGINS_TEXT)
    ms = np.asarray(data.ms, dtype=np.float64)
    for c, cfg in enumerate(TEXT_CONFIGS):
        top, bottom = axes[0, c], axes[1, c]
        for i, lev in enumerate(data.levels):
            col = _style.shade("PGS", _level_shade(i, len(data.levels)))
            lcol = _style.shade("L-BFGS", _level_shade(i, len(data.levels)))
            s, it, ls = data.pgs_seconds[cfg][i], data.pgs_iterations[cfg][i], data.lbfgs_seconds[cfg][i]
            ok, lok = np.isfinite(s), np.isfinite(ls)
            top.plot(ms[ok], s[ok], "o-", color=col, lw=2, ms=5)
            top.plot(ms[lok], ls[lok], "s-", color=lcol, lw=1.2, ms=4, mfc="none")
            bottom.plot(ms[np.isfinite(it)], it[np.isfinite(it)], "o-", color=col, lw=2, ms=5)
        top.set_title(f"{_config_name(cfg)}: seconds", fontsize=10)
        bottom.set_title(f"{_config_name(cfg)}: PGS iterations", fontsize=10)
        top.set_ylabel("seconds")
        bottom.set_ylabel("iterations")
        bottom.set_xlabel("training set size $m$")
        for ax in (top, bottom):
            ax.set_xscale("log")
            ax.set_yscale("log")
            _plain_log_labels(ax.yaxis)
            ax.set_xlim(0.85 * ms[0], 1.18 * ms[-1])     # the same m axis in both rows
            _data_ticks(ax.xaxis, data.ms)
            ax.grid(True, which="major", alpha=0.3)
        top.tick_params(axis="x", labelbottom=False)
    # one legend for the four panels, under the title: the colours are the solvers (PGS pink, L-BFGS olive), the
    # shades the levels (darker: higher); one column per level
    from matplotlib.lines import Line2D
    handles = []
    for i, lev in enumerate(data.levels):
        t = _level_shade(i, len(data.levels))
        handles += [Line2D([], [], marker="o", color=_style.shade("PGS", t), lw=2, ms=5,
                           label=f"PGS, {100 * lev:g} %"),
                    Line2D([], [], marker="s", color=_style.shade("L-BFGS", t), lw=1.2, ms=4, mfc="none",
                           label=f"L-BFGS, {100 * lev:g} %")]
    fig.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, 0.925), ncol=len(data.levels), fontsize=9,
               title=f"time and iterations to a test accuracy of (PGS: median of {data.n_seeds} runs)",
               title_fontsize=9, frameon=False)
    fig.suptitle("Logistic loss, σ(m) the most accurate on a validation set\n" + _stand_in_title(), fontsize=9.5)
    return fig


def text_demo(**defaults):
    """Live demo (b): the number of seeds, from 1 to ``n_seeds`` (default TEXT_DEFAULTS), redrawing
    :func:`text_figure`.  The runs of ``n_seeds`` seeds are computed when the widget is built (nothing if the
    chapter's figure ran them; five seeds take about 40 s on two cores the first time), and a smaller number
    of seeds is the first of them: every move is a lookup."""
    import ipywidgets as widgets

    v = dict(TEXT_DEFAULTS, **defaults)
    check_range("n_seeds", v["n_seeds"], TEXT_LIMITS)
    n_seeds = int(v["n_seeds"])
    text_data(n_seeds)
    controls = dict(n_seeds=widgets.IntSlider(value=n_seeds, min=TEXT_LIMITS["n_seeds"][0], max=n_seeds,
                                              description="seeds", continuous_update=False))
    return wire(controls, text_figure, [["n_seeds"]])


def text_player(**static):
    """Demo (b) for the HTML book: :func:`text_demo` precomputed over :data:`TEXT_STATIC`."""
    return static_player(text_demo(), **dict(TEXT_STATIC, **static))


@dataclass(frozen=True)
class FixedSigmaData:
    """The second figure of demo (b) (p = 2, k = 1): the median iterations and seconds to ``level`` against m
    for every fixed sigma of FIXED_SIGMAS (rows) and for the tuned sigma(m) of the paper's protocol."""

    level: float
    ms: tuple
    sigmas: tuple
    n_seeds: int
    iterations: np.ndarray   # (n_sigmas, n_m)
    seconds: np.ndarray
    tuned_iterations: np.ndarray
    tuned_seconds: np.ndarray

    @property
    def best_iterations(self):
        """The fastest sigma of the grid for each m (the lower envelope; inf if no sigma reaches the level)."""
        return np.min(self.iterations, axis=0)


@lru_cache(maxsize=64)
def fixed_sigma_data(level=0.92, n_seeds=3) -> FixedSigmaData:
    """p = 2, k = 1 on the stand-in at every sigma of FIXED_SIGMAS and m of TEXT_MS, and at the tuned sigma(m)
    with the same seeds.  The runs are shared with :func:`text_data` where the sigmas coincide (same seeds)."""
    check_choice("level", level, TEXT_LEVELS)
    check_range("n_seeds", n_seeds, TEXT_LIMITS)
    it = np.empty((len(FIXED_SIGMAS), len(TEXT_MS)))
    sec = np.empty_like(it)
    for i, s in enumerate(FIXED_SIGMAS):
        for j, m in enumerate(TEXT_MS):
            it[i, j], sec[i, j] = text_runs(2.0, 1, m, s, n_seeds).needed(level)
    tuned = np.array([text_runs(2.0, 1, m, None, n_seeds).needed(level) for m in TEXT_MS])
    return FixedSigmaData(float(level), TEXT_MS, FIXED_SIGMAS, int(n_seeds), it, sec, tuned[:, 0], tuned[:, 1])


def draw_fixed_sigma(axes, data: FixedSigmaData, ylim=None, legend_size=7, legend_right=False):
    """Above: PGS's iterations to the level against m, one line per fixed sigma (shades of PGS's colour, one marker
    per sigma), the tuned sigma(m) (the darkest shade, stars) and the fastest sigma of the grid (grey band).
    Below: the validation accuracy of the exact optimum (L-BFGS) for each sigma (TEXT_VALIDATION; shades of
    L-BFGS's colour, the same markers), with the level: where a curve is below the level, no number of iterations
    helps."""
    ax0, ax1 = axes
    ms = np.asarray(data.ms, dtype=np.float64)
    n = len(data.sigmas)
    for i, s in enumerate(data.sigmas):
        t = _spread(i, n, -0.6, 0.3)
        mk = SIGMA_MARKERS[i % len(SIGMA_MARKERS)]
        it = data.iterations[i]
        ok = np.isfinite(it)
        ax0.plot(ms[ok], it[ok], marker=mk, color=_style.shade("PGS", t), lw=1.8, ms=5,
                 label=f"PGS, σ = {s:.0e}")
        acc = np.array([TEXT_VALIDATION[(2.0, m)][TEXT_SIGMA_GRID.index(s)] for m in data.ms])
        ax1.plot(ms, acc, marker=mk, color=_style.shade("L-BFGS", t), lw=1.8, ms=5, label=f"L-BFGS, σ = {s:.0e}")
    best = data.best_iterations
    ok = np.isfinite(best)
    ax0.plot(ms[ok], best[ok], color="0.5", lw=8, alpha=0.3, solid_capstyle="round", label="fastest σ")
    tk = np.isfinite(data.tuned_iterations)
    ax0.plot(ms[tk], data.tuned_iterations[tk], "*-", color=_style.shade("PGS", 0.75), ms=11, lw=1.2,
             label="PGS, σ(m) tuned")
    tuned = np.array([max(TEXT_VALIDATION[(2.0, m)]) for m in data.ms])
    ax1.plot(ms, tuned, "*-", color=_style.shade("L-BFGS", 0.75), ms=11, lw=1.2,
             label="L-BFGS, σ(m) tuned")
    ax1.axhline(data.level, color="k", lw=1, ls=":", label=f"level {100 * data.level:g} %")
    ax0.set_ylabel(f"PGS iterations to {100 * data.level:g} % test accuracy (median of {data.n_seeds})")
    ax0.set_title("p = 2, k = 1: fixed σ against σ(m) tuned per m", fontsize=10)
    ax1.set_ylabel("validation accuracy of the exact optimum")
    ax1.set_title("what each σ can reach (L-BFGS)", fontsize=10)
    for ax in axes:
        ax.set_xscale("log")
        _data_ticks(ax.xaxis, data.ms)
        ax.set_xlabel("training set size $m$")
        ax.grid(True, which="major", alpha=0.3)
        if legend_right:     # beside the panel: the curves keep the whole of it
            ax.legend(fontsize=legend_size, loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0)
        else:
            ax.legend(fontsize=legend_size, loc="upper right" if ax is ax0 else "lower right")
    ax0.set_yscale("log")
    _plain_log_labels(ax0.yaxis)
    if ylim is not None:
        ax0.set_ylim(*ylim)


@_style.book_figure
def fixed_sigma_figure(level=0.92, n_seeds=3, figsize=(8.0, 7.6), fig=None) -> Figure:
    """The second figure of demo (b) (:func:`draw_fixed_sigma`, the panels one above the other, each legend
    beside its panel); ``fig``: the figure to redraw in place."""
    data = fixed_sigma_data(level, n_seeds)
    fig, axes = _fixed_axes(fig, figsize, 2, 1, _MARGINS_LEGEND_RIGHT)
    draw_fixed_sigma(axes, data, legend_size=9, legend_right=True)
    fig.suptitle("Which σ? Logistic loss, p = 2, k = 1\n" + _stand_in_title(), fontsize=9.5)
    return fig


def fixed_sigma_demo(**defaults):
    """Live version of :func:`fixed_sigma_figure`: the level and the number of seeds, from 1 to ``n_seeds``
    (default FIXED_DEFAULTS).  The runs of ``n_seeds`` seeds are computed when the widget is built (nothing if
    the chapter's figure ran them; three seeds take about 20 s on two cores the first time); a level or fewer
    seeds is a lookup."""
    import ipywidgets as widgets

    v = dict(FIXED_DEFAULTS, **defaults)
    check_choice("level", v["level"], TEXT_LEVELS)
    check_range("n_seeds", v["n_seeds"], TEXT_LIMITS)
    n_seeds = int(v["n_seeds"])
    fixed_sigma_data(v["level"], n_seeds)
    controls = dict(
        level=widgets.SelectionSlider(options=list(TEXT_LEVELS), value=v["level"], description="level",
                                      continuous_update=False),
        n_seeds=widgets.IntSlider(value=n_seeds, min=TEXT_LIMITS["n_seeds"][0], max=n_seeds, description="seeds",
                                  continuous_update=False),
    )
    return wire(controls, fixed_sigma_figure, [["level", "n_seeds"]])


def fixed_sigma_player(**static):
    """The second figure of demo (b) for the HTML book: :func:`fixed_sigma_demo` precomputed over
    :data:`FIXED_SIGMA_STATIC`."""
    return static_player(fixed_sigma_demo(), **dict(FIXED_SIGMA_STATIC, **static))


def table2_data(m=100_000, n_seeds=3):
    """Table II of Zhu et al. (2009) on the stand-in, for both settings of TEXT_CONFIGS at one m: sigma(m), the
    test accuracy of the exact optimum (L-BFGS), PGS's test accuracy after its full run (last iterate, median and
    standard deviation over seeds) and its seconds (after an untimed warm-up run).  One dict per setting.
    Not cached."""
    check_choice("m", m, TEXT_MS)
    sets = text_sets()
    prob = _text_problem(int(m))
    rows = []
    for p, k in TEXT_CONFIGS:
        sigma, T = TEXT_SIGMA[(p, m)], text_iterations(k)
        acc, sec = [], []
        warm_up(pgs, prob, 2, sigma, p=p, k=k, seed=0, output="last", record_objective=False, n_checkpoints=2)
        for s in range(int(n_seeds)):
            r = pgs(prob, T, sigma, p=p, k=k, seed=s, output="last", record_objective=False, n_checkpoints=2)
            acc.append(sets.accuracy(r.w))
            sec.append(float(r.trace.seconds[-1]))
        lacc, lsec, _ = _text_lbfgs(p, m, sigma)
        rows.append(dict(p=p, k=k, T=T, sigma=sigma, lbfgs_accuracy=float(lacc[-1]), lbfgs_seconds=float(lsec[-1]),
                         pgs_accuracy=float(np.median(acc)), pgs_std=float(np.std(acc)),
                         pgs_seconds=float(np.median(sec))))
    return rows


# ----------------------------------------------------------------------------------------------- demo (c)
#: demo (c): mini-batch sizes, on the stand-in with K_M documents and sigma = TEXT_SIGMA[(p, K_M)]
K_VALUES = (1, 3, 10, 30, 100, 300, 1000)
K_M = 100_000
K_DEFAULTS = dict(p=1.8, level=0.92, n_seeds=3)
K_LIMITS = dict(p=(2.0, 1.8), level=TEXT_LEVELS, n_seeds=(1, 5))
#: the static player of demo (c): every position of every control (p, the level, the seeds), all of them lookups
#: in what the widget computes when it is built
K_STATIC = dict(grid=dict(), name="pgs-k")


#: the examples a timing run of Figure 2's norm reads before it is timed (see :func:`step_seconds`)
K_WARM_EXAMPLES = 20_000


@lru_cache(maxsize=64)
def _step_seconds(p, k, exact_norm, m, work):
    prob = _text_problem(m)
    sigma = TEXT_SIGMA.get((p, m), 1e-5)
    if exact_norm:
        # the O(n) recomputation costs in proportion to the nonzeros of the accumulator, which fill in as the run
        # reads examples: time the last part of a run that has read K_WARM_EXAMPLES (about what the runs to the
        # levels read), not the start of a run from 0.  The part before is not timed, so it runs with the running
        # norm (the same iterates, and the same accumulator to about 1e-8 relative: what the timed steps start
        # from); the timed part, the last of the log-spaced checkpoint intervals of the run pgs(..., n,
        # n_checkpoints=30, exact_norm=True), with the exact norm: the same kernel call on the same mini-batches
        n = int(min(max(60, math.ceil(K_WARM_EXAMPLES / k)), 100_000))
        a, b = (int(t) for t in log_checkpoints(n, 30)[-2:])
        batches = sample_batches(prob.m, k, n, seed=100)
        state = _PgsState(prob, p, sigma, None, False, False)
        clock = Clock(warm_up=lambda: state.run(batches[:a]))   # the untimed part, which compiles the kernel
        state.exact_norm = True
        with clock:
            state.run(batches[a:b])
        return float(clock.seconds / (b - a))
    d = prob.nnz / prob.m
    n = int(min(max(20, work / (k * d)), 100_000))
    warm_up(pgs, prob, 2, sigma, p=p, k=k, seed=100, output="last", n_checkpoints=2, record_objective=False)
    best = math.inf
    for rep in range(3):
        r = pgs(prob, n, sigma, p=p, k=k, seed=100 + rep, output="last", n_checkpoints=2, record_objective=False)
        best = min(best, float(r.trace.seconds[-1]) / n)
    return best


def step_seconds(p, k, exact_norm=False, m=K_M, work=3e5):
    """Seconds per PGS iteration on the stand-in (p, mini-batch size k, last iterate).  False: l1lab's running
    norm (O(dk)), the best of three short runs of about ``work`` entry operations each.  ``exact_norm=True``:
    ||lambda||_q recomputed from all n coordinates every iteration, as Figure 2 does (O(dk + n)); its cost grows
    with the nonzeros of the accumulator, so it is timed over the last part of one run that reads
    K_WARM_EXAMPLES examples (at k = 1 that part alone takes seconds: it is what Figure 2 costs; the run's first
    part, not timed, uses the running norm).  The iterates are the same either way (to about 1e-8 relative).
    Cached (a measurement: it varies with the machine's load)."""
    check_choice("m", m, TEXT_MS)
    if int(k) != k or not 1 <= k <= m:
        raise ValueError(f"k must be an integer in [1, m], got {k}")
    return _step_seconds(float(p), int(k), bool(exact_norm), int(m), float(work))


@dataclass(frozen=True)
class KData:
    """Demo (c): for every k of K_VALUES, the iterations each seed needs to reach ``level`` (inf: not within
    :func:`text_iterations` (k)), the measured seconds of those runs, and the seconds per iteration of the
    running norm and of Figure 2's exact norm.  n, d: the dimension and the mean nonzeros per document."""

    p: float
    level: float
    m: int
    sigma: float
    ks: tuple
    iterations: np.ndarray      # (n_k, n_seeds)
    seconds: np.ndarray         # (n_k, n_seeds), measured with the running norm
    step_running: np.ndarray    # (n_k,)
    step_exact: np.ndarray      # (n_k,)
    n: int
    d: float

    def median(self, what="iterations"):
        return np.array([_median_band(row)[0] for row in getattr(self, what)])

    @property
    def examples(self):
        """Median examples read to reach the level: iterations x k."""
        return self.median() * np.asarray(self.ks, dtype=np.float64)

    @property
    def time_exact(self):
        """Seconds Figure 2's implementation would take: median iterations x its seconds per iteration."""
        return self.median() * self.step_exact

    @property
    def time_running(self):
        """Seconds of the running-norm implementation, from the same model (iterations x seconds per iteration)."""
        return self.median() * self.step_running


@lru_cache(maxsize=64)
def k_data(p=1.8, level=0.92, n_seeds=3) -> KData:
    """Demo (c)'s computation: PGS (last iterate) on K_M documents of the stand-in for every k of K_VALUES (runs
    stopped at max(TEXT_LEVELS), so every level is read off the same runs), and :func:`step_seconds` for both
    implementations of the norm.  The runs are cached per seed and shared with :func:`text_data` (k = 1 for
    p = 2, k = 300 for p = 1.8)."""
    check_choice("p", p, K_LIMITS["p"])
    check_choice("level", level, K_LIMITS["level"])
    check_range("n_seeds", n_seeds, K_LIMITS)
    prob = _text_problem(K_M)
    it = np.empty((len(K_VALUES), int(n_seeds)))
    sec = np.empty_like(it)
    for i, k in enumerate(K_VALUES):
        r = text_runs(p, k, K_M, None, n_seeds)
        reach = np.array([c.reach(level, below=False) for c in r.curves])
        it[i], sec[i] = reach[:, 0], reach[:, 1]
    run = np.array([step_seconds(p, k, False) for k in K_VALUES])
    # Figure 2's norm costs O(dk + n) only for p < 2; for p = 2 it is a scalar times the accumulator (the paper's
    # (10)), and the figure draws the running norm alone
    exact = np.array([step_seconds(p, k, True) if p < 2 else math.nan for k in K_VALUES])
    return KData(float(p), float(level), K_M, TEXT_SIGMA[(float(p), K_M)], K_VALUES, it, sec, run, exact, prob.d,
                 prob.nnz / prob.m)


@_style.book_figure
def k_figure(p=1.8, level=0.92, n_seeds=3, figsize=(8.0, 7.4), fig=None) -> Figure:
    """Demo (c), Section VII of Zhu et al. (2009): against the mini-batch size k, the iterations to the level
    (median, min-max band over seeds, and the line 1/k through k = 1: what perfect averaging would give), the
    examples read (iterations x k: the work of one iteration is O(dk)), and the seconds: measured with the running
    norm, and Figure 2's O(dk + n) implementation (its seconds per iteration times the same iterations).  The
    vertical line is k = n/d.  ``fig``: the figure to redraw in place."""
    data = k_data(p, level, n_seeds)
    fig, axes = _fixed_axes(fig, figsize, 2, 2, _MARGINS_GRID)
    (ax0, ax1), (ax2, legend_ax) = axes
    ks = np.asarray(data.ks, dtype=np.float64)
    med = data.median()
    ok = np.isfinite(med)
    lo = np.min(data.iterations, axis=1)
    hi = np.max(data.iterations, axis=1)
    ax0.fill_between(ks[ok], lo[ok], np.where(np.isfinite(hi), hi, np.nan)[ok], color=PGS_COLOR, alpha=0.2, lw=0)
    ax0.plot(ks[ok], med[ok], "o-", color=PGS_COLOR, lw=2, label=f"PGS iterations: median of "
             f"{data.iterations.shape[1]} seeds,\nband min–max")
    if ok[0]:
        ax0.plot(ks, med[0] / ks, color="0.4", ls="-.", label="1/k guide (through k = 1)")
    ax1.plot(ks[ok], data.examples[ok], "o-", color=PGS_COLOR, lw=2)
    if ok.any():
        ax1.set_ylim(data.examples[ok].min() / 4, data.examples[ok].max() * 4)
    # every time curve is measured (solid): the seconds of the runs, and the measured seconds per iteration of each
    # implementation times the measured iterations; both implementations are PGS, in two shades of its colour
    ax2.plot(ks[ok], data.median("seconds")[ok], "o-", color=PGS_COLOR, lw=2,
             label="PGS, running norm O(dk): measured")
    ax2.plot(ks[ok], data.time_running[ok], "x-", color=_style.shade("PGS", -0.45), lw=1,
             label="PGS, running norm:\niterations × s/iteration")
    if data.p < 2:
        ax2.plot(ks[ok], data.time_exact[ok], "s-", color=_style.shade("PGS", 0.55), lw=2, mfc="none",
                 label="PGS, Figure 2's norm O(dk + n):\niterations × s/iteration")
    kd = data.n / data.d
    for ax in (ax0, ax1, ax2):
        ax.axvline(kd, color="k", lw=1, ls="--")
        ax.set_xscale("log")
        ax.set_yscale("log")
        _data_ticks(ax.xaxis, data.ks, str)
        ax.set_xlabel("mini-batch size $k$")
        ax.grid(True, which="major", alpha=0.3)
    ax0.yaxis.set_minor_locator(NullLocator())      # several decades: decades only
    _plain_log_labels(ax2.yaxis)
    ax0.plot([], [], color="k", lw=1, ls="--", label=f"k = n/d = {kd:.0f}")
    ax0.set_ylabel(f"iterations to {100 * level:g} %")
    ax1.set_ylabel("examples read: iterations × k")
    ax2.set_ylabel(f"seconds to {100 * level:g} %")
    ax0.set_title("iterations", fontsize=10)
    ax1.set_title("work with the running norm", fontsize=10)
    ax2.set_title("time: the two implementations of ∇r*", fontsize=10)
    handles = ax0.get_legend_handles_labels()[0] + ax2.get_legend_handles_labels()[0]
    legend_ax.set_axis_off()
    legend_ax.legend(handles=handles, loc="center left", fontsize=9, frameon=False)
    fig.suptitle(f"The mini-batch size k: p = {data.p:g}, σ = {data.sigma:.0e}, m = {data.m:,} documents, "
                 f"test accuracy {100 * level:g} %\n" + _stand_in_title(), fontsize=9.5)
    return fig


def k_demo(**defaults):
    """Live demo (c): p, the level and the number of seeds, from 1 to ``n_seeds`` (default K_DEFAULTS),
    redrawing :func:`k_figure`.  The runs and the time measurements for both p and ``n_seeds`` seeds are made
    when the widget is built (10 to 30 s on two cores the first time, a few seconds after the chapter's
    figure); every move is a lookup."""
    import ipywidgets as widgets

    v = dict(K_DEFAULTS, **defaults)
    check_choice("p", v["p"], K_LIMITS["p"])
    check_choice("level", v["level"], K_LIMITS["level"])
    check_range("n_seeds", v["n_seeds"], K_LIMITS)
    n_seeds = int(v["n_seeds"])
    for p in (v["p"],) + tuple(q for q in K_LIMITS["p"] if q != v["p"]):
        k_data(p, v["level"], n_seeds)
    controls = dict(
        p=widgets.Dropdown(options=list(K_LIMITS["p"]), value=v["p"], description="p"),
        level=widgets.SelectionSlider(options=list(TEXT_LEVELS), value=v["level"], description="level",
                                      continuous_update=False),
        n_seeds=widgets.IntSlider(value=n_seeds, min=K_LIMITS["n_seeds"][0], max=n_seeds, description="seeds",
                                  continuous_update=False),
    )
    return wire(controls, k_figure, [["p", "level", "n_seeds"]])


def k_player(**static):
    """Demo (c) for the HTML book: :func:`k_demo` precomputed over :data:`K_STATIC`."""
    return static_player(k_demo(), **dict(K_STATIC, **static))


# ----------------------------------------------------------------------------------------------- demo (d)
#: demo (d): Theorem 1 and Lemma 1 against PGS on a small problem (m = 200, n = 10, as in tests/test_theory_zhu.py)
BOUNDS_DEFAULTS = dict(loss="logistic", p=2.0, sigma=0.05, n_seeds=20, delta=0.1)
BOUNDS_LIMITS = dict(loss=("logistic", "hinge", "squared"), p=(1.2, 2.0), sigma=(0.01, 1.0), n_seeds=(5, 40),
                     delta=(0.05, 0.5))
BOUNDS_T = 3_000
#: the static player of demo (d): sigma over the slider's range, from 0.01 to 1 (half-decades and the start 0.05),
#: for the logistic and the squared loss; the hinge loss (whose L-BFGS solves take several seconds per sigma
#: below 0.3), p, the seeds and delta at the live widget's start
BOUNDS_STATIC = dict(grid=dict(loss=("logistic", "squared"), p=(2.0,),
                               sigma=(0.01, 10 ** -1.5, 0.05, 0.1, 10 ** -0.5, 1.0), n_seeds=(20,), delta=(0.1,)),
                     name="pgs-bounds")
#: horizons of the regret panel and the seeds it uses (each horizon needs the minimum of sum_t c_t)
REGRET_TS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)
REGRET_SEEDS = 5
#: L-BFGS's tolerance for the minimum of sum_t c_t: it moves the regret by less than 1e-10 (1e-5 for p near 1
#: with large sigma), far below what the figure shows, in half the time of 1e-12
REGRET_TOL = 1e-8


@lru_cache(maxsize=3)
def bounds_problem(loss="logistic"):
    """The problem of demo (d): :func:`l1lab.data.make_classification` (hinge, logistic) or
    ``make_regression`` (squared) with m = 200 examples, n = 10 features, 4 relevant, seed 3; lam = 0."""
    check_choice("loss", loss, BOUNDS_LIMITS["loss"])
    gen = make_regression if loss == "squared" else make_classification
    X, y, _ = gen(200, 10, 4, seed=3)
    return Problem(X, y, loss, 0.0)


@dataclass(frozen=True)
class BoundsData:
    """Demo (d): the problem's constants (L of Section IV, the radius B for the squared loss, F_hat(w_hat)), the
    optimization error F_hat(w_i) - F_hat(w_hat) of PGS's random output at the checkpoints ``iteration`` for
    every seed (``gaps``), and for REGRET_SEEDS seeds the regret of the points played against each horizon of
    REGRET_TS (``regret``) with Lemma 1's bound from the same run (``lemma1``)."""

    loss: str
    p: float
    sigma: float
    delta: float
    L: float
    B: float | None
    f_hat: float
    iteration: np.ndarray
    gaps: np.ndarray
    regret_T: np.ndarray
    regret: np.ndarray
    lemma1: np.ndarray

    @property
    def theorem1(self):
        """Theorem 1 in expectation, L^2 H_T/(2 sigma T), at the checkpoints T >= 1."""
        return zhu.theorem1_expected_gap_bound(self.iteration, self.sigma, self.L)

    @property
    def theorem1_delta(self):
        """Theorem 1 with probability 1 - delta (Markov), at the checkpoints."""
        return zhu.theorem1_gap_bound(self.iteration, self.sigma, self.L, self.delta)

    @property
    def corollary1(self):
        """Corollary 1's regret bound L^2 H_T/(2 sigma) at REGRET_TS."""
        return zhu.corollary1_regret_bound(self.regret_T, self.sigma, self.L)

    def ratios(self):
        """(Theorem 1 / mean gap, Theorem 1 with delta / the (1 - delta) quantile of the gaps, Lemma 1 / regret,
        Corollary 1 / regret), each the median over the checkpoints (horizons) with a positive denominator."""
        mean = self.gaps.mean(axis=0)
        q = np.quantile(self.gaps, 1 - self.delta, axis=0)

        def med(num, den):
            ok = den > 0
            return float(np.median(num[ok] / den[ok])) if ok.any() else math.nan
        reg = np.median(self.regret, axis=0)
        return (med(self.theorem1, mean), med(self.theorem1_delta, q), med(np.median(self.lemma1, axis=0), reg),
                med(self.corollary1, reg))


def _played_points(prob, T, sigma, p, B, seed):
    """w_0, ..., w_T of one PGS run (k = 1) and its mini-batches."""
    batches = sample_batches(prob.m, 1, T, seed=seed)
    ws = []
    pgs(prob, T, sigma, p=p, B=B, batches=batches, output="last", n_checkpoints=20 * T + 2, record_objective=False,
        monitor=lambda w: ws.append(w.copy()) or 0.0)
    if len(ws) != T + 1:
        raise RuntimeError(f"expected every iterate w_0, ..., w_T, got {len(ws)}")
    return np.array(ws), batches[:, 0]


@lru_cache(maxsize=64)
@threadpool_limits.wrap(limits=1, user_api="blas")
def _bounds_setup(loss, p, sigma):
    """(B, L, F_hat(w_hat)) of demo (d) at (loss, p, sigma): the radius of S (squared loss; None otherwise),
    Section IV's Lipschitz constant, and the minimum by L-BFGS to 1e-12."""
    prob = bounds_problem(loss)
    X = np.asarray(prob.X)
    B = zhu.least_squares_radius(prob.smooth(np.zeros(prob.d)), sigma, p) if loss == "squared" else None
    L = zhu.loss_lipschitz_constant(X, loss, p, B=B, y=prob.y)
    f_hat = lbfgs(prob, sigma, p=p, B=B, tol=1e-12).objective
    return B, L, f_hat


def _bounds_gap_runs(loss, p, sigma, n_seeds):
    """F_hat of PGS's random output at the checkpoints, (iteration, objective) for the seeds 0, ..., n_seeds-1
    (cached per seed)."""
    B = _bounds_setup(loss, p, sigma)[0]

    def compute(seeds):
        prob = bounds_problem(loss)
        out = []
        for s in seeds:
            tr = pgs(prob, BOUNDS_T, sigma, p=p, B=B, seed=s, output="random", n_checkpoints=30).trace
            out.append((tr.iteration[1:], tr.objective[1:]))
        return out

    return _seed_prefix(("bounds", loss, p, sigma), n_seeds, compute)


@lru_cache(maxsize=64)
@threadpool_limits.wrap(limits=1, user_api="blas")
def _bounds_regret(loss, p, sigma):
    """(REGRET_TS, regret, Lemma 1's bound) of REGRET_SEEDS runs (seeds 1000, 1001, ...) of demo (d); the minimum
    of sum_t c_t by L-BFGS to REGRET_TOL."""
    prob = bounds_problem(loss)
    X = np.asarray(prob.X)
    B = _bounds_setup(loss, p, sigma)[0]
    q = p / (p - 1.0)
    Ts = np.array(REGRET_TS)
    reg = np.empty((REGRET_SEEDS, Ts.size))
    lem = np.empty_like(reg)
    for s in range(REGRET_SEEDS):
        ws, rows = _played_points(prob, int(Ts.max()), sigma, p, B, seed=1000 + s)
        a = np.einsum("ij,ij->i", X[rows], ws[:-1])                      # <w_{t-1}, x_{i_t}>
        dl = prob.loss.deriv(a, prob.y[rows])
        xq = _row_norms(X[rows], q)
        bound = zhu.lemma1_regret_bound(np.abs(dl) * xq, sigma, cumulative=True)
        played = np.cumsum(sigma * _row_norms(ws[:-1], p) ** 2 / (2.0 * (p - 1.0))
                           + prob.loss.value(a, prob.y[rows]))
        for j, T in enumerate(Ts):
            sub = Problem(X[rows[:T]], prob.y[rows[:T]], loss, 0.0)
            best = T * lbfgs(sub, sigma, p=p, B=B, tol=REGRET_TOL).objective
            reg[s, j] = played[T - 1] - best
            lem[s, j] = bound[T - 1]
    return Ts, reg, lem


def _row_norms(A, r):
    """||a||_r of every row a of A, with each row's maximum factored out (as :func:`regularizer_value`)."""
    M = np.max(np.abs(A), axis=1)
    safe = np.where(M > 0, M, 1.0)
    return np.where(M > 0, M * np.sum((np.abs(A) / safe[:, None]) ** r, axis=1) ** (1.0 / r), 0.0)


def bounds_data(loss="logistic", p=2.0, sigma=0.05, n_seeds=20, delta=0.1) -> BoundsData:
    """Demo (d)'s computation (see :class:`BoundsData`): PGS with the random output (Figure 1, line 9; the index
    uniform on {0, ..., T-1}) for ``n_seeds`` seeds and T = BOUNDS_T, w_hat by L-BFGS to 1e-12, and the regret of
    REGRET_SEEDS further runs against the minimum of sum_t c_t over S (L-BFGS on the examples drawn).  The squared
    loss runs on S = {||w||_p <= B} with Section IV's radius.  Cached in parts: delta only changes what is drawn,
    the runs are cached per seed (fewer seeds are the first of more), the regret per (loss, p, sigma)."""
    check_choice("loss", loss, BOUNDS_LIMITS["loss"])
    for name, v in (("p", p), ("sigma", sigma), ("n_seeds", n_seeds), ("delta", delta)):
        check_range(name, v, BOUNDS_LIMITS)
    loss, p, sigma = str(loss), float(p), float(sigma)
    B, L, f_hat = _bounds_setup(loss, p, sigma)
    runs = _bounds_gap_runs(loss, p, sigma, int(n_seeds))
    gaps = np.maximum(np.array([obj for _, obj in runs]) - f_hat, 0.0)
    Ts, reg, lem = _bounds_regret(loss, p, sigma)
    return BoundsData(loss, p, sigma, float(delta), L, B, f_hat, runs[0][0], gaps, Ts, reg, lem)


def draw_bounds(axes, data: BoundsData, ylims=None, legend_size=7, legend_below=False):
    """Above: PGS's optimization error (mean over seeds, band min-max, and the (1 - delta) quantile; PGS's colour,
    measured curves solid) against Theorem 1 in expectation (dashed) and with probability 1 - delta (dotted).
    Below: the regret of PGS's points played (median, band min-max over seeds, in PGS's colour too) against
    Lemma 1 (median of each run's own bound, dashed) and Corollary 1 (dash-dotted)."""
    ax0, ax1 = axes
    T = data.iteration.astype(np.float64)
    g = data.gaps
    floor = 1e-10
    ax0.fill_between(T, np.maximum(g.min(axis=0), floor), np.maximum(g.max(axis=0), floor), color=PGS_COLOR,
                     alpha=0.2, lw=0)
    ax0.plot(T, np.maximum(g.mean(axis=0), floor), color=PGS_COLOR, lw=2,
             label=f"PGS, random output: mean of {g.shape[0]} seeds, band min–max")
    # measured, so solid: thinner and darker than the mean
    ax0.plot(T, np.maximum(np.quantile(g, 1 - data.delta, axis=0), floor), color=_style.shade("PGS", 0.5), lw=1,
             label=f"PGS: {1 - data.delta:g} quantile over seeds")
    ax0.plot(T, data.theorem1, color="k", ls="--", lw=1.5, label=r"Theorem 1, expectation: $L^2H_T/(2\sigma T)$")
    ax0.plot(T, data.theorem1_delta, color="k", ls=":", lw=1.5, label=f"Theorem 1, prob. ≥ {1 - data.delta:g}: ÷ δ")
    ax0.set_xlabel("iterations $T$")
    ax0.set_ylabel(r"$\hat F_\sigma(w_i) - \hat F_\sigma(\hat w)$")
    ax0.set_title("Theorem 1: the optimization error", fontsize=10)
    Tr = data.regret_T.astype(np.float64)
    r = data.regret
    ax1.fill_between(Tr, np.maximum(r.min(axis=0), floor), r.max(axis=0), color=PGS_COLOR, alpha=0.2, lw=0)
    ax1.plot(Tr, np.maximum(np.median(r, axis=0), floor), "o-", color=PGS_COLOR, lw=2, ms=4,
             label=f"PGS: regret of $w_0, …, w_{{T-1}}$, median of {r.shape[0]}, band min–max")
    ax1.plot(Tr, np.median(data.lemma1, axis=0), "k--", lw=1.5,
             label=r"Lemma 1: $\frac{1}{2}\sum_t \|\lambda_t\|_q^2/(t\sigma)$ of the run")
    # a bound that holds surely: dashed, like Lemma 1's, but dash-dotted to tell the two apart (the dotted line of
    # the upper panel is the bound with probability 1 - delta)
    ax1.plot(Tr, data.corollary1, "k-.", lw=1.5, label=r"Corollary 1: $L^2 H_T/(2\sigma)$")
    ax1.set_xlabel("rounds $T$")
    ax1.set_ylabel(r"$\sum_{t\leq T} c_t(w_{t-1}) - \min_S \sum_{t\leq T} c_t$")
    ax1.set_title("Lemma 1 and Corollary 1: the regret", fontsize=10)
    for k, ax in enumerate(axes):
        ax.set_xscale("log")
        ax.set_yscale("log")
        for axis in (ax.xaxis, ax.yaxis):      # decades only: the axes span several (and the redraw is faster)
            axis.set_minor_locator(NullLocator())
        ax.grid(True, which="major", alpha=0.3)
        if legend_below:     # below the axes, in two columns: the curves keep the whole panel
            ax.legend(fontsize=legend_size, loc="upper center", bbox_to_anchor=(0.5, -0.17), ncol=2)
        else:
            ax.legend(fontsize=legend_size, loc="lower left" if k == 0 else "lower right")
        if ylims is not None:
            ax.set_ylim(*ylims[k])


def _bounds_title(data):
    ball = f", S = ball of radius B = {data.B:.3g}" if data.B is not None else ", S = ℝⁿ"
    return (f"{data.loss} loss, p = {data.p:g}, σ = {data.sigma:g}, m = 200, n = 10{ball}\nL = {data.L:.3g}, "
            r"$\hat F_\sigma(\hat w)$" + f" = {data.f_hat:.4g}")


@_style.book_figure
def bounds_figure(loss="logistic", p=2.0, sigma=0.05, n_seeds=20, delta=0.1, figsize=(7.5, 9.6),
                  fig=None) -> Figure:
    """Demo (d) as a Figure (:func:`draw_bounds`, the two panels one above the other); ``fig``: the figure to
    redraw in place."""
    data = bounds_data(loss, p, sigma, n_seeds, delta)
    fig, axes = _fixed_axes(fig, figsize, 2, 1, _MARGINS_2x1)
    draw_bounds(axes, data, legend_size=9, legend_below=True)
    fig.suptitle(_bounds_title(data), fontsize=10)
    return fig


def bounds_demo(**defaults):
    """Live demo (d): the loss, p, sigma (log scale), the number of seeds and delta, redrawing
    :func:`bounds_figure`.  Delta and fewer seeds only redraw; more seeds run the new ones; a new loss, p or
    sigma reruns PGS and the regret's comparators (a tenth of a second for the logistic and squared losses,
    about a second for the hinge loss or p near 1, whose L-BFGS solves are slower).  The three losses at the
    starting p and sigma are computed when the widget is built (about 1.5 s; the chapter's table of the bounds'
    ratios uses them too), so the loss menu answers at once there."""
    import ipywidgets as widgets

    v = dict(BOUNDS_DEFAULTS, **defaults)
    lim = BOUNDS_LIMITS
    check_choice("loss", v["loss"], lim["loss"])
    for name in ("p", "sigma", "n_seeds", "delta"):
        check_range(name, v[name], lim)
    for loss in lim["loss"]:
        bounds_data(loss, v["p"], v["sigma"], v["n_seeds"], v["delta"])
    controls = dict(
        loss=widgets.Dropdown(options=list(lim["loss"]), value=v["loss"], description="loss"),
        p=widgets.FloatSlider(value=v["p"], min=lim["p"][0], max=lim["p"][1], step=0.1, description="p",
                              continuous_update=False),
        sigma=log_slider(widgets, v["sigma"], *lim["sigma"], "σ", step=0.25, readout_format=".2g"),
        n_seeds=widgets.IntSlider(value=v["n_seeds"], min=lim["n_seeds"][0], max=lim["n_seeds"][1], step=5,
                                  description="seeds", continuous_update=False),
        delta=widgets.FloatSlider(value=v["delta"], min=lim["delta"][0], max=lim["delta"][1], step=0.05,
                                  description="δ", continuous_update=False),
    )
    return wire(controls, bounds_figure, [["loss", "p", "sigma"], ["n_seeds", "delta"]])


def bounds_player(**static):
    """Demo (d) for the HTML book: :func:`bounds_demo` precomputed over :data:`BOUNDS_STATIC`."""
    return static_player(bounds_demo(), **dict(BOUNDS_STATIC, **static))


# ----------------------------------------------------------------------------------------------- the lectures' checks
# The numbers the two lectures state about their claims (the strong convexity of r, the paper's slips, the two
# implementations of the norm), computed here and glued into the pages; tests/test_book_pgs.py asserts each claim.
def pgs_path(problem, n_iter, sigma, p=2.0, k=1, B=None, seed=0):
    """Every iterate w_0, ..., w_T of :func:`l1lab.solvers.pgs` with this seed (its mini-batches are
    :func:`l1lab.solvers.pgs.sample_batches` (m, k, T, seed)): an (n_iter + 1, n) array.  One snapshot per
    iteration, for small problems: the lectures compare their own numpy implementation with it."""
    n_iter = int(n_iter)
    ws = []
    pgs(problem, n_iter, sigma, p=p, k=k, B=B, seed=seed, output="last", n_checkpoints=20 * n_iter + 2,
        record_objective=False, monitor=lambda w: ws.append(w.copy()) or 0.0)
    if len(ws) != n_iter + 1:
        raise RuntimeError(f"expected every iterate w_0, ..., w_T, got {len(ws)}")
    return np.array(ws)


@threadpool_limits.wrap(limits=1, user_api="blas")
def strong_convexity_ratios(ps=(2.0, 1.8, 1.5, 1.2, 1.05), n_pairs=2000, dim=50, seed=0):
    """For every p: the smallest ratio, over ``n_pairs`` random pairs (w1, w2) of R^dim and alpha in
    [0.05, 0.95], of the gap alpha r(w1) + (1 - alpha) r(w2) - r(alpha w1 + (1 - alpha) w2) to
    alpha (1 - alpha) ||w1 - w2||_p^2 / 2 (>= 1: r is 1-strongly convex w.r.t. ||.||_p, Example 1 of the paper)."""
    rng = np.random.default_rng(seed)
    out = {}
    for p in ps:
        worst = math.inf
        for _ in range(int(n_pairs)):
            w1, w2 = rng.standard_normal(dim) * rng.exponential(1, dim), rng.standard_normal(dim)
            a = rng.uniform(0.05, 0.95)
            gap = a * zhu.regularizer(w1, p) + (1 - a) * zhu.regularizer(w2, p) \
                - zhu.regularizer(a * w1 + (1 - a) * w2, p)
            worst = min(worst, gap / (0.5 * a * (1 - a) * _pnorm(w1 - w2, p) ** 2))
        out[float(p)] = worst
    return out


def _pnorm(w, r):
    return float(np.sum(np.abs(w) ** r) ** (1 / r))


@threadpool_limits.wrap(limits=1, user_api="blas")
def radius_check(sigma=0.01, p=2.0):
    """Section IV's radius on the least-squares problem of demo (d) (targets of mean square 1): r(w_hat),
    F_hat(w_hat), F_hat(0), ||w_hat||_p, the paper's radius sqrt(2 (p-1) F_hat(0)) (from r(w*) <= F(0)) and the
    corrected sqrt(2 (p-1) F_hat(0)/sigma) (:func:`l1lab.theory.zhu2009.least_squares_radius`)."""
    from ..solvers.pgs import pgs_objective, regularizer_value
    prob = bounds_problem("squared")
    w_hat = lbfgs(prob, sigma, p=p, tol=1e-12).w
    F0 = pgs_objective(prob, np.zeros(prob.d), sigma, p)
    return dict(r_hat=regularizer_value(w_hat, p), F_hat=pgs_objective(prob, w_hat, sigma, p), F0=F0,
                norm_hat=_pnorm(w_hat, p), paper_radius=math.sqrt(2 * (p - 1) * F0),
                radius=zhu.least_squares_radius(F0, sigma, p))


@threadpool_limits.wrap(limits=1, user_api="blas")
def conjugate_check(p=1.5, B=0.5, n=20, seed=0):
    """Figure 2 on the ball against a numerical argmax of <w, theta> - r(w) over S = {||w||_p <= B} (SLSQP), for
    theta = 3 N(0, I_n): the p-norm of the unconstrained gradient, of the p-norm rescaling (Corollary 2) and of the
    printed q-norm rescaling; the distance of the p-norm rescaling to the numerical argmax and to Corollary 2's
    formula; <w, theta> - r(w) at it against r*(theta) (Corollary 2's value) and the numerical maximum."""
    from scipy.optimize import minimize

    from ..solvers.pgs import grad_r_star
    theta = np.random.default_rng(seed).standard_normal(n) * 3

    def neg_objective(w):
        nw = _pnorm(w, p)
        g = nw ** (2 - p) * np.sign(w) * np.abs(w) ** (p - 1) / (p - 1) if nw > 0 else np.zeros_like(w)
        return zhu.regularizer(w, p) - w @ theta, g - theta

    ball = {"type": "ineq", "fun": lambda w: B ** p - np.sum(np.abs(w) ** p),
            "jac": lambda w: -p * np.sign(w) * np.abs(w) ** (p - 1)}
    num = minimize(neg_objective, np.full(n, 1e-3), jac=True, method="SLSQP", constraints=[ball],
                   options={"ftol": 1e-15, "maxiter": 1000})
    right = grad_r_star(theta, p, B)
    printed = grad_r_star(theta, p, B, printed_rescaling=True)
    free = grad_r_star(theta, p)
    return dict(free_norm=_pnorm(free, p), right_norm=_pnorm(right, p), printed_norm=_pnorm(printed, p),
                argmax_diff=float(np.max(np.abs(right - num.x))),
                formula_diff=float(np.max(np.abs(right - zhu.corollary2_conjugate_gradient(theta, p, B)))),
                value=float(theta @ right - zhu.regularizer(right, p)),
                conjugate=zhu.corollary2_conjugate(theta, p, B), numerical_max=float(-num.fun),
                free_diff=float(np.max(np.abs(free - zhu.corollary3_conjugate_gradient(theta, p)))))


@threadpool_limits.wrap(limits=1, user_api="blas")
def first_round_regrets(sigma=0.05, n_draws=5):
    """The regret of round 1, c_1(w_0) - min_w c_1(w) with w_0 = 0, of PGS on the hinge problem of demo (d)
    (p = 2, k = 1) for the seeds 0, ..., n_draws-1: positive, while the paper's C log(1)/sigma is 0."""
    from ..solvers.pgs import pgs_objective
    prob = bounds_problem("hinge")
    X = np.asarray(prob.X)
    out = []
    for seed in range(int(n_draws)):
        i = sample_batches(prob.m, 1, 1, seed=seed)[0, 0]
        c1 = Problem(X[[i]], prob.y[[i]], "hinge", 0.0)
        out.append(pgs_objective(c1, np.zeros(prob.d), sigma) - lbfgs(c1, sigma, tol=1e-12).objective)
    return np.array(out)


def printed_corollary1_from(sigma=0.05, L=1.0, T_max=100):
    """The smallest T from which the paper's C log T/sigma with C = L^2 bounds L^2 H_T/(2 sigma) at every T'
    up to ``T_max`` (the comparison is H_T <= 2 ln T, independent of sigma and L)."""
    ok = [zhu.corollary1_regret_bound(T, sigma, L) <= L ** 2 * math.log(T) / sigma for T in range(1, T_max + 1)]
    for T in range(1, T_max + 1):
        if all(ok[T - 1:]):
            return T
    return math.inf


@threadpool_limits.wrap(limits=1, user_api="blas")
def played_vs_next(sigma=0.05, T=50, n_runs=200):
    """The step E[c_t] = E[F_hat] of Theorem 1's proof, measured on the logistic problem of demo (d) (p = 2,
    k = 1): the mean over t <= T of c_t - F_hat at the point played, w_{t-1}, and at w_t (the paper's index),
    averaged over ``n_runs`` runs.  Returns (mean, half-width of a 95 % interval) for both."""
    from ..solvers.pgs import pgs_objective, regularizer_value
    prob = bounds_problem("logistic")
    X = np.asarray(prob.X)
    before, after = [], []
    for seed in range(int(n_runs)):
        rows = sample_batches(prob.m, 1, T, seed=seed)[:, 0]
        ws = pgs_path(prob, T, sigma, seed=seed)
        F = np.array([pgs_objective(prob, w, sigma) for w in ws])
        reg = sigma * np.array([regularizer_value(w, 2.0) for w in ws])

        def loss_at(W):
            return prob.loss.value(np.einsum("ij,ij->i", X[rows], W), prob.y[rows])
        before.append(np.mean(reg[:-1] + loss_at(ws[:-1]) - F[:-1]))
        after.append(np.mean(reg[1:] + loss_at(ws[1:]) - F[1:]))
    half = [2 * np.std(v) / math.sqrt(len(v)) for v in (before, after)]
    return dict(played=float(np.mean(before)), played_half=float(half[0]), next=float(np.mean(after)),
                next_half=float(half[1]))


@threadpool_limits.wrap(limits=1, user_api="blas")
def sample_minimum_means(sigma=0.05, Ts=(5, 20, 100), n_draws=100):
    """The proof of Theorem 1 writes F_hat(w_hat) = E[(1/T) min_w sum_t c_t(w)]; the mean of the sample minimum
    over ``n_draws`` draws of T examples (logistic problem of demo (d), p = 2), against F_hat(w_hat).  Returns
    F_hat(w_hat) and, per T, (mean, half-width of a 95 % interval)."""
    prob = bounds_problem("logistic")
    X = np.asarray(prob.X)
    f_hat = lbfgs(prob, sigma, tol=1e-12).objective
    out = {}
    for T in Ts:
        mins = [_logistic_minimum(X[r], prob.y[r], sigma)
                for r in (sample_batches(prob.m, 1, T, seed=s)[:, 0] for s in range(int(n_draws)))]
        out[int(T)] = (float(np.mean(mins)), float(2 * np.std(mins) / math.sqrt(len(mins))))
    return f_hat, out


def _logistic_minimum(X, y, sigma):
    """min_w sigma ||w||_2^2/2 + mean logistic loss of (X, y), by scipy's L-BFGS-B to a gradient of 1e-12 (the
    many small problems of :func:`sample_minimum_means`)."""
    from scipy.optimize import minimize

    def f(w):
        a = y * (X @ w)
        return sigma * (w @ w) / 2 + np.mean(np.logaddexp(0, -a)), sigma * w - X.T @ (y / (1 + np.exp(a))) / len(y)

    return float(minimize(f, np.zeros(X.shape[1]), jac=True, method="L-BFGS-B",
                          options={"gtol": 1e-12, "ftol": 1e-15, "maxiter": 1000}).fun)


def theorem2_factor_check(T=1_000, m=5_000, delta=0.1, u_norm=1.0, p=2.0, eps_m0=0.3):
    """Eq. (21) of the paper against a numerical minimization of the bound (20) over sigma: the numerical minimum
    and its sigma, Theorem 2's sigma, the derived value 2 sqrt(ab) and the printed sqrt(ab), the iterations (12)
    for that eps derived (= T) and as printed, and m_0 for eps = ``eps_m0`` derived and as printed."""
    from scipy.optimize import minimize_scalar
    best = minimize_scalar(lambda s: zhu.theorem2_error_bound(T, m, delta, s, u_norm, p), bounds=(1e-6, 10.0),
                           method="bounded", options={"xatol": 1e-12})
    eps = zhu.theorem2_error_at_sigma(T, m, delta, u_norm, p)
    return dict(numerical=float(best.fun), numerical_sigma=float(best.x),
                sigma=zhu.theorem2_sigma(T, m, delta, u_norm, p), derived=eps,
                printed=zhu.theorem2_error_at_sigma(T, m, delta, u_norm, p, as_printed=True),
                T_derived=zhu.theorem2_iterations(eps, m, delta, u_norm, p),
                T_printed=zhu.theorem2_iterations(eps, m, delta, u_norm, p, as_printed=True),
                m0_derived=2 * u_norm ** 2 / (eps_m0 ** 2 * (p - 1)),
                m0_printed=u_norm ** 2 / (2 * eps_m0 ** 2 * (p - 1)))


@threadpool_limits.wrap(limits=1, user_api="blas")
def norm_implementations(n_iter=2_000, p=1.8, sigma=1e-5, k=1):
    """The two implementations of Figure 2's norm on the CCAT stand-in (all K_M documents): l1lab's running sum
    (O(dk) per iteration) and the O(n) recomputation of Figure 2 (``exact_norm=True``), same seed.  Returns the
    largest difference of the last iterates relative to the largest weight, the microseconds per iteration of
    both (a measurement, after an untimed warm-up run), their exact recomputations of ||lambda||_q^q, and the shape
    of the data."""
    prob = _text_problem(K_M)
    warm_up(pgs, prob, 2, sigma, p=p, k=k, seed=0, output="last", n_checkpoints=2, record_objective=False)
    runs = {exact: pgs(prob, n_iter, sigma, p=p, k=k, seed=0, output="last", n_checkpoints=2,
                       record_objective=False, exact_norm=exact) for exact in (False, True)}
    a, b = runs[False], runs[True]
    return dict(rel_diff=float(np.max(np.abs(a.w - b.w)) / np.max(np.abs(b.w))),
                us_running=1e6 * float(a.trace.seconds[-1]) / n_iter,
                us_exact=1e6 * float(b.trace.seconds[-1]) / n_iter,
                recomputes_running=a.info["norm_recomputes"], recomputes_exact=b.info["norm_recomputes"],
                m=prob.m, n=prob.d, d=prob.nnz / prob.m, density=prob.density, positive=float(np.mean(prob.y > 0)))


@threadpool_limits.wrap(limits=1, user_api="blas")
def condition_bias(sigmas=(1e-2, 1e-3, 1e-4, 1e-5), condition=10.0, m=200_000, n=10, seed=0):
    """Why the Gaussian toy has the identity covariance: the direction error of the exact regularized optimum
    (L-BFGS to 1e-10) on m examples of two Gaussian classes whose shared covariance has condition number
    ``condition``, for every sigma.  With a non-identity covariance the regularized direction is biased, so the
    error stays away from 0 however many examples there are, unless sigma is tiny."""
    X, y, w_star = make_gaussian_classes(int(m), int(n), condition=float(condition), seed=int(seed))
    prob = Problem(X, y, "logistic", 0.0)
    return {float(s): direction_error(lbfgs(prob, s, tol=1e-10).w, w_star) for s in sigmas}
