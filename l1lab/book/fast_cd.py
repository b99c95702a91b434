r"""The demos of the chapters "Coordinate steps" and "A fast solver" (beyond the papers).

Algorithm 1 of Shalev-Shwartz & Tewari (2011) becomes a practical solver one ingredient at a time, and every
demo measures what an ingredient buys in **data accesses** (entries of X read: deterministic, machine
independent) to reach a relative accuracy eps, (P(w) - P*)/P(0) <= eps, on the same problem:

1. Algorithm 1: :func:`l1lab.solvers.scd` with the global step 1/beta (``step="global"``);
2. + coordinate curvature: the step 1/beta_j, beta_j = beta ||x_j||^2/m (``step="coordinate"``);
3. + working sets: :func:`l1lab.solvers.working_set_cd` with inner coordinate descent and no extrapolation
   (``inner="cd", anderson=0``);
4. + extrapolation: the same with Anderson extrapolation of 5 iterates (``anderson=5``);
5. for the logistic loss only, + proximal Newton: the solver's default for that loss (``inner="newton"``).

The SCD runs (seed 0) are read at their trace's checkpoints: the work to eps is the data accesses at the first
checkpoint where the relative sub-optimality, against :func:`l1lab.solvers.reference_solution`, is at most eps
(:func:`l1lab.trace.hitting_steps`); a run that does not get there within its budget of passes over X is "not
reached".  A working-set run is stopped by its duality gap: ``working_set_cd(problem, tol=eps)`` returns when the
certified gap is at most eps P(0), and the work is its ``trace.data_accesses[-1]``.  Its iterates do not depend on
``tol`` (only the stopping test does), so the run with ``tol=eps`` is the beginning of the run with the smallest
tol: one run per rung, read at the first outer iteration whose gap is at most eps P(0), gives every eps
(``tests/test_book_fast_cd.py`` checks it against separate runs).

Each demo has the book's three layers (:mod:`l1lab.book.scd`): a cached *data* function (:func:`ladder_data`,
:func:`bound_data`, :func:`path_data`), a *figure* function returning a ``matplotlib.figure.Figure`` and taking
``fig=`` to redraw in place, and for the ladder the *widget* (:func:`ladder_demo`: the loss, the density of X and
lambda as a fraction of lambda_max) and its *static player* (:func:`ladder_player`, the grid
:data:`LADDER_STATIC`).  The problem is small (m = 200, d = 1000), so that a frame computes in a fraction of a
second (the logistic loss at the smallest lambda in about one second) and draws in a quarter of one.  The data
functions run with one BLAS thread, as in :mod:`l1lab.book.scd`.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from matplotlib.figure import Figure
from threadpoolctl import threadpool_limits

from ..data.synthetic import make_classification, make_regression
from ..experiments import run_seeds
from ..problem import Problem
from ..solvers import reference_solution, scd, working_set_cd
from ..solvers.working_set import regularization_path
from ..theory import shalev_shwartz_tewari as sst
from ..trace import hitting_steps
from . import style as _style
from .controls import check_choice, wire
from .live import figure_axes
from .plotting import log_axes, plot_gap_vs_bound
from .static import static_player
from .timing import best_of

__all__ = [
    "DENSITIES", "EPS", "FRACS", "LADDER_DEFAULTS", "LADDER_LIVE", "LADDER_STATIC", "LOSSES", "RUNGS", "BoundData",
    "LadderData", "PathData", "bound_data", "bound_figure", "draw_ladder", "ladder_data", "ladder_demo",
    "certificate_figure", "ladder_figure", "ladder_player", "make_problem", "path_data", "path_figure",
    "wall_times",
]

LOSSES = ("squared", "logistic")
#: the densities of X the demo offers (fraction of nonzero entries), with their labels
DENSITIES = (("dense", 1.0), ("20% nonzeros", 0.2))
#: lambda as a fraction of lambda_max
FRACS = (0.05, 0.1, 0.2, 0.5)
#: the accuracies of the ladder: relative sub-optimality (P(w) - P*)/P(0)
EPS = tuple(10.0 ** -k for k in range(2, 9))
#: the problem's size, its relevant features and the SCD runs' budget in passes over the coordinates
M, D, K_RELEVANT, PASSES = 200, 1000, 20, 100

#: the rungs of the ladder, in order; the last is for the logistic loss only
RUNGS = ("Algorithm 1: step 1/β", "+ coordinate steps 1/β_j", "+ working sets", "+ extrapolation",
         "+ proximal Newton")
#: how each rung is run
_RUN = {RUNGS[0]: ("scd", "global"), RUNGS[1]: ("scd", "coordinate"), RUNGS[2]: ("ws", dict(inner="cd", anderson=0)),
        RUNGS[3]: ("ws", dict(inner="cd", anderson=5)), RUNGS[4]: ("ws", dict(inner="newton"))}
#: colours and markers: SCD's colour for Algorithm 1 and a darker shade of it for SCD with coordinate steps; the
#: book's colour of working-set CD for ``working_set_cd`` with its defaults (extrapolation), a lighter shade
#: without extrapolation and a darker one with proximal Newton
_LOOK = {RUNGS[0]: (_style.algorithm_color("SCD"), "o"), RUNGS[1]: (_style.shade("SCD", 0.5), "s"),
         RUNGS[2]: (_style.shade("working-set CD", -0.45), "^"),
         RUNGS[3]: (_style.algorithm_color("working-set CD"), "D"),
         RUNGS[4]: (_style.shade("working-set CD", 0.5), "v")}

#: the running example and the live widget's start: the Lasso on dense data at lambda = 0.1 lambda_max
LADDER_DEFAULTS = dict(loss="squared", density=1.0, frac=0.1)
LADDER_LIVE = dict(LADDER_DEFAULTS)
#: the static player: every loss and density, λ at the start (0.1 λ_max) and at 0.5 λ_max (2 x 2 x 2 = 8 frames: the
#: logistic loss costs up to a second per frame, and the chapter executes in 20 s); every λ is one move away in the
#: live widget
LADDER_STATIC = dict(grid=dict(frac=(0.1, 0.5)), name="fastcd-ladder")

_LEGEND_PT = 9


def make_problem(loss="squared", density=1.0, frac=0.1, m=M, d=D, k=K_RELEVANT, data_seed=0) -> Problem:
    """The demos' problem: ``k`` relevant features among ``d``, ``m`` examples, features in [-1, 1] (CSC when
    ``density`` < 1), lambda = ``frac`` lambda_max.

    Squared loss: :func:`l1lab.data.make_regression` (targets scaled to mean square 1, so P(0) = 1/2).
    Logistic loss: :func:`l1lab.data.make_classification` (5% label noise), P(0) = log 2.
    """
    check_choice("loss", loss, LOSSES)
    if not 0 < frac < 1:
        raise ValueError(f"frac must lie in (0, 1) (lambda as a fraction of lambda_max), got {frac}")
    if loss == "squared":
        X, y, _ = make_regression(int(m), int(d), int(k), noise=0.1, density=density, seed=data_seed)
    else:
        X, y, _ = make_classification(int(m), int(d), int(k), density=density, seed=data_seed)
    lam_max = Problem(X, y, loss=loss, lam=1.0).lambda_max
    return Problem(X, y, loss=loss, lam=float(frac) * lam_max)


@lru_cache(maxsize=64)
@threadpool_limits.wrap(limits=1, user_api="blas")
def _problem_reference(loss, density, frac, m, d, data_seed):
    """(problem, w*, P*, P(0)), cached per problem."""
    prob = make_problem(loss, density, frac, m, d, data_seed=data_seed)
    w_star, p_star = reference_solution(prob)
    return prob, w_star, p_star, prob.objective(np.zeros(prob.d))


# ---------------------------------------------------------------------------------------------- the ladder
@dataclass(frozen=True)
class LadderData:
    """The ladder on one problem: for every rung, the data accesses to reach each eps of ``eps`` (nan: not
    reached), and its run (the SCD results, and the working-set results stopped at the smallest eps)."""

    problem: Problem
    w_star: np.ndarray
    p_star: float
    p0: float
    eps: np.ndarray
    work: dict
    runs: dict
    budget: float
    passes: int

    @property
    def final(self) -> str:
        """The last rung: the solver as a user calls it (``working_set_cd`` with its defaults)."""
        return list(self.work)[-1]

    def relative_gap(self, name) -> np.ndarray:
        """The certified duality gap of a working-set rung at every outer iteration, relative to P(0)."""
        return np.asarray(self.runs[name].info["gaps"]) / self.p0

    def relative_suboptimality(self, name) -> np.ndarray:
        """(P(w) - P*)/P(0) at every record of a rung's trace."""
        return (self.runs[name].trace.objective - self.p_star) / self.p0

    def speedup(self, eps, slow=RUNGS[0], fast=None) -> float:
        """work(slow)/work(fast) at ``eps`` (one of :data:`EPS`); nan if either did not reach it."""
        k = int(np.argmin(np.abs(np.log(self.eps) - np.log(eps))))
        return float(self.work[slow][k] / self.work[fast or self.final][k])


def _scd_work(result, p_star, p0, eps):
    """Data accesses at the first checkpoint where (P - P*)/P(0) <= eps, for each eps (nan if never)."""
    tr = result.trace
    _, hi = hitting_steps(tr.iteration, (tr.objective - p_star) / p0, eps)
    out = np.full(len(eps), np.nan)
    ok = np.isfinite(hi)
    out[ok] = tr.data_accesses[np.searchsorted(tr.iteration, hi[ok].astype(np.int64))]
    return out


def _ws_work(result, p0, eps):
    """Data accesses at the first outer iteration whose certified gap is at most eps P(0), for each eps: where
    ``working_set_cd(problem, tol=eps)`` stops (nan if the run never certified eps)."""
    gaps = np.asarray(result.info["gaps"])
    out = np.full(len(eps), np.nan)
    for k, e in enumerate(eps):
        hit = np.flatnonzero(gaps <= e * p0)
        if hit.size:
            out[k] = result.trace.data_accesses[hit[0]]
    return out


@lru_cache(maxsize=64)
@threadpool_limits.wrap(limits=1, user_api="blas")
def _ladder_data(loss, density, frac, m, d, passes, data_seed):
    prob, w_star, p_star, p0 = _problem_reference(loss, density, frac, m, d, data_seed)
    eps = np.array(EPS)
    work, runs = {}, {}
    for name in RUNGS[:5 if loss == "logistic" else 4]:
        kind, how = _RUN[name]
        if kind == "scd":
            res = scd(prob, passes * prob.d, seed=0, n_checkpoints=200, step=how)
            work[name] = _scd_work(res, p_star, p0, eps)
        else:
            res = working_set_cd(prob, tol=float(eps.min()), **how)
            work[name] = _ws_work(res, p0, eps)
        runs[name] = res
    budget = float(runs[RUNGS[0]].trace.data_accesses[-1])
    return LadderData(prob, w_star, p_star, p0, eps, work, runs, budget, int(passes))


def ladder_data(loss="squared", density=1.0, frac=0.1, m=M, d=D, passes=PASSES, data_seed=0) -> LadderData:
    """The ladder on :func:`make_problem`: the data accesses each rung of :data:`RUNGS` needs to reach each
    relative accuracy of :data:`EPS` (SCD: seed 0, ``passes`` d steps; working sets: stopped by the duality gap).
    Cached per setting."""
    check_choice("loss", loss, LOSSES)
    return _ladder_data(str(loss), float(density), float(frac), int(m), int(d), int(passes), int(data_seed))


def draw_ladder(ax, data: LadderData):
    """Draw the ladder on ``ax``: the data accesses each rung needs to reach each eps, on log-log axes (more
    accuracy to the right); an open marker at the SCD budget where a run did not reach eps."""
    x = data.eps
    for name, work in data.work.items():
        color, marker = _LOOK[name]
        ok = np.isfinite(work)
        label = name if ok.all() else f"{name} (reached {int(ok.sum())} of {len(x)})"
        # the working sets without extrapolation drawn wider: where extrapolation buys nothing, the line of the
        # next rung lies on it and leaves it visible as an outline
        wide = name == RUNGS[2]
        ax.plot(x[ok], work[ok], color=color, marker=marker, ms=8 if wide else 5, lw=4 if wide else 2, label=label)
        if not ok.all():    # not reached within the budget: an open marker at the budget
            ax.plot(x[~ok], np.full(int((~ok).sum()), data.budget), ls="none", marker=marker, ms=6, mfc="none",
                    mec=color, mew=1.2)
    ax.axhline(data.budget, color="0.45", ls=":", lw=1,
               label=f"{data.passes} passes of SCD (open: not reached)")
    log_axes(ax)
    ax.set_xlim(3e-2, 3e-9)            # more accuracy to the right
    # whole decades, so that at least two are labelled
    values = np.concatenate([w[np.isfinite(w)] for w in data.work.values()] + [[data.budget]])
    ax.set_ylim(10.0 ** np.floor(np.log10(values.min())), 10.0 ** np.ceil(np.log10(values.max() * 1.2)))
    ax.set_xlabel(r"accuracy $\varepsilon$ of $(P(w) - P^\star)/P(0)$")
    ax.set_ylabel("data accesses to reach ε")
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2, fontsize=_LEGEND_PT)


def _title(data: LadderData, frac):
    prob = data.problem
    kind = "dense" if not prob.is_sparse else f"{prob.density:.0%} nonzeros"
    return (f"{prob.loss.name} loss, m = {prob.m}, d = {prob.d} ({kind}), λ = {frac:g} λ_max: "
            f"‖w*‖₀ = {np.count_nonzero(data.w_star)}")


@_style.book_figure
def ladder_figure(loss="squared", density=1.0, frac=0.1, m=M, d=D, passes=PASSES, data_seed=0,
                  figsize=(7.0, 5.4), fig=None) -> Figure:
    """The ladder as a Figure (:func:`draw_ladder`); ``fig``: a figure this function returned before, redrawn
    in place."""
    data = ladder_data(loss, density, frac, m, d, passes, data_seed)
    fig, ax = figure_axes(fig, figsize)
    draw_ladder(ax, data)
    ax.set_title(_title(data, frac), fontsize=10)
    return fig


@_style.book_figure
def certificate_figure(loss="logistic", density=1.0, frac=0.1, rung=None, m=M, d=D, passes=PASSES, data_seed=0,
                       figsize=(7.0, 4.0), fig=None) -> Figure:
    """A working-set rung of the ladder (default: the last) at each of its outer iterations: the certified
    duality gap and the true sub-optimality, both relative to P(0), against data accesses."""
    data = ladder_data(loss, density, frac, m, d, passes, data_seed)
    name = rung or data.final
    if _RUN[name][0] != "ws":
        raise ValueError(f"{name!r} is not a working-set rung: it has no certificate")
    tr = data.runs[name].trace
    gap = data.relative_gap(name)
    sub = data.relative_suboptimality(name)
    floor = 1e-12 * max(1.0, abs(data.p_star)) / data.p0
    fig, ax = figure_axes(fig, figsize)
    color, marker = _LOOK[name]
    ax.plot(tr.data_accesses, np.maximum(gap, floor), color=color, marker=marker, ms=5, lw=1.5,
            label="certified gap (P(w) − D(u))/P(0)")
    ax.plot(tr.data_accesses, np.maximum(sub, floor), color="k", marker="o", ms=3, lw=1,
            label="true sub-optimality (P(w) − P*)/P(0)")
    n_low = int(np.sum(sub < floor) + np.sum(gap < floor))
    if n_low:
        ax.axhline(floor, **_style.FLOOR, label=f"floor {floor:.0e}: {n_low} value(s) at or below it drawn here")
    ax.set_yscale("log")
    ax.set_xlabel("data accesses")
    ax.set_ylabel("relative to P(0)")
    ax.set_title(f"{name.lstrip('+ ')}, one point per outer iteration; " + _title(data, frac).split(":")[0],
                 fontsize=9.5)
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(loc="lower left", fontsize=_LEGEND_PT)
    return fig


def ladder_demo(ahead=True, m=M, d=D, passes=PASSES, **defaults):
    """Live demo: the loss, the density of X and lambda/lambda_max, redrawing :func:`ladder_figure`, starting
    from :data:`LADDER_LIVE`.  With ``ahead`` (default), the first display also computes every loss and density
    at the starting lambda, so that these moves only redraw; a new lambda computes its problem (a fraction of a
    second, about one second for the logistic loss at the smallest lambda).  ``m``, ``d`` and ``passes`` fix the
    problem's size and the SCD budget (the chapter keeps the defaults).  Returns an ipywidgets VBox."""
    import ipywidgets as widgets

    v = dict(LADDER_LIVE, **defaults)
    check_choice("loss", v["loss"], LOSSES)
    check_choice("density", v["density"], [value for _, value in DENSITIES])
    check_choice("frac", v["frac"], FRACS)
    controls = dict(
        loss=widgets.Dropdown(options=list(LOSSES), value=v["loss"], description="loss"),
        density=widgets.Dropdown(options=list(DENSITIES), value=v["density"], description="X"),
        frac=widgets.SelectionSlider(options=list(FRACS), value=v["frac"], description="λ/λ_max",
                                     continuous_update=False),
    )
    if ahead:
        for loss in LOSSES:
            for _, density in DENSITIES:
                ladder_data(loss, density, v["frac"], m, d, passes)
    figure_fn = functools.partial(ladder_figure, m=m, d=d, passes=passes)
    return wire(controls, figure_fn, [["loss", "density", "frac"]])


def ladder_player(**static):
    """The ladder for the HTML book: :func:`ladder_demo` precomputed over :data:`LADDER_STATIC`."""
    return static_player(ladder_demo(ahead=False), **dict(LADDER_STATIC, **static))


def wall_times(eps=1e-6, repeats=3, loss="squared", density=1.0, frac=0.1, m=M, d=D, passes=PASSES) -> dict:
    """Seconds each rung takes to reach ``eps`` on the ladder's problem, the best of ``repeats`` runs after an
    untimed warm-up run (:func:`l1lab.book.timing.best_of`: the first call of a numba kernel in a process loads or
    compiles it).  The SCD rungs run
    ``scd(problem, T)`` with T the checkpoint at which the ladder's run reached eps; the working-set rungs run
    ``working_set_cd(problem, tol=eps)``.  {rung: seconds}; rungs that did not reach eps are left out.
    Wall time depends on the machine and its load: the book states it beside the data accesses, never alone."""
    data = ladder_data(loss, density, frac, m, d, passes)
    prob = data.problem
    k = int(np.argmin(np.abs(np.log(data.eps) - np.log(eps))))
    out = {}
    with threadpool_limits(limits=1, user_api="blas"):
        for name in data.work:
            if not np.isfinite(data.work[name][k]):
                continue
            kind, how = _RUN[name]
            if kind == "scd":
                tr = data.runs[name].trace
                _, hi = hitting_steps(tr.iteration, (tr.objective - data.p_star) / data.p0, [data.eps[k]])
                T = int(hi[0])

                def run(how=how, T=T):
                    return scd(prob, T, seed=0, step=how)
            else:
                def run(how=how):
                    return working_set_cd(prob, tol=float(data.eps[k]), **how)
            out[name], _ = best_of(run, repeats=repeats, warmups=1)     # an untimed warm-up run first
    return out


# ---------------------------------------------------------------------------------------------- the theorem
@dataclass(frozen=True)
class BoundData:
    """SCD with both steps over seeds on one problem, with the bounds d Psi(0)/(T+1) and d Psi_B(0)/(T+1)."""

    problem: Problem
    w_star: np.ndarray
    p_star: float
    psi0: float
    psi0_b: float
    runs: dict
    bounds: dict


@lru_cache(maxsize=16)
@threadpool_limits.wrap(limits=1, user_api="blas")
def _bound_data(loss, density, frac, m, d, n_seeds, passes, data_seed):
    prob, w_star, p_star, p0 = _problem_reference(loss, density, frac, m, d, data_seed)
    beta = prob.loss.beta
    psi0 = sst.scd_psi0(beta, w_star, p0)
    psi0_b = sst.scd_coordinate_psi0(beta * prob.column_sq_norms(), w_star, p0)
    runs, bounds = {}, {}
    for step, psi in (("global", psi0), ("coordinate", psi0_b)):
        runs[step] = run_seeds(scd, prob, range(n_seeds), n_iter=passes * prob.d, n_checkpoints=40, step=step)
        bounds[step] = np.asarray(sst.scd_expected_gap_bound(runs[step].iteration, prob.d, psi))
    return BoundData(prob, w_star, p_star, psi0, psi0_b, runs, bounds)


def bound_data(loss="squared", density=1.0, frac=0.1, m=M, d=D, n_seeds=10, passes=30, data_seed=0) -> BoundData:
    """SCD with the global step (Algorithm 1) and with coordinate steps, ``n_seeds`` seeds, ``passes`` d steps,
    40 checkpoints, on :func:`make_problem`; Theorem 1's bound with Psi(0) and the weighted bound with Psi_B(0)
    (:func:`l1lab.theory.shalev_shwartz_tewari.scd_coordinate_psi0`).  Cached."""
    if int(n_seeds) < 1:
        raise ValueError(f"need at least one seed, got n_seeds={n_seeds}")
    return _bound_data(str(loss), float(density), float(frac), int(m), int(d), int(n_seeds), int(passes),
                       int(data_seed))


@_style.book_figure
def bound_figure(loss="squared", density=1.0, frac=0.1, m=M, d=D, n_seeds=10, passes=30, data_seed=0,
                 figsize=(7.0, 4.6), fig=None) -> Figure:
    """SCD with coordinate steps (mean and min-max over seeds) against d Psi_B(0)/(T+1), and Algorithm 1 against
    d Psi(0)/(T+1), on log-log axes."""
    data = bound_data(loss, density, frac, m, d, n_seeds, passes, data_seed)
    fig, ax = figure_axes(fig, figsize)
    plot_gap_vs_bound(ax, data.runs["global"], data.p_star, data.bounds["global"], label="SCD, Algorithm 1",
                      color=_LOOK[RUNGS[0]][0], bound_color=_LOOK[RUNGS[0]][0],
                      bound_label=r"Theorem 1 of S-S & T: $d\,\Psi(0)/(T+1)$")
    plot_gap_vs_bound(ax, data.runs["coordinate"], data.p_star, data.bounds["coordinate"],
                      label="SCD, coordinate steps", color=_LOOK[RUNGS[1]][0], bound_color=_LOOK[RUNGS[1]][0],
                      bound_label=r"bound of this book: $d\,\Psi_B(0)/(T+1)$")
    prob = data.problem
    ax.set_title(f"{prob.loss.name} loss, m = {prob.m}, d = {prob.d}, λ = {frac:g} λ_max: "
                 f"Ψ(0) = {data.psi0:.3g}, Ψ_B(0) = {data.psi0_b:.3g}", fontsize=10)
    ax.legend(loc="lower left", fontsize=_LEGEND_PT)
    return fig


# ---------------------------------------------------------------------------------------------- the path
@dataclass(frozen=True)
class PathData:
    """A regularization path on the ladder's problem, and what it costs warm-started and cold: the data accesses
    and coordinate updates of every solve below lambda_max, each started from the previous solution (the path's
    own solves, ``warm_*``) or from zero (``cold_*``); ``*_gradient_accesses``: the part of the accesses spent on
    the outer iterations' full gradients (and support columns), ``*_outer``: the outer iterations."""

    problem: Problem
    path: object
    warm_accesses: float
    cold_accesses: float
    warm_updates: int
    cold_updates: int
    warm_gradient_accesses: float
    cold_gradient_accesses: float
    warm_outer: int
    cold_outer: int


@lru_cache(maxsize=8)
@threadpool_limits.wrap(limits=1, user_api="blas")
def _path_data(loss, density, frac, m, d, n_lams, eps, data_seed):
    prob, _, _, _ = _problem_reference(loss, density, frac, m, d, data_seed)
    path = regularization_path(prob, n_lams=n_lams, eps=eps, tol=1e-8)
    # the path's solves again, one by one, to read their data accesses (PathResult keeps the updates only): the same
    # solver from the same warm start, so the same iterates (tests/test_book_fast_cd.py checks it)
    warm_acc = cold_acc = warm_grad = cold_grad = 0.0
    warm_up = cold_up = warm_outer = cold_outer = 0
    w = np.zeros(prob.d)
    for lam in path.lams[path.lams < prob.lambda_max]:
        at = Problem(prob.X, prob.y, loss=prob.loss.name, lam=float(lam))
        warm = working_set_cd(at, tol=1e-8, w0=w)
        cold = working_set_cd(at, tol=1e-8)
        w = warm.w
        warm_acc += float(warm.trace.data_accesses[-1])
        cold_acc += float(cold.trace.data_accesses[-1])
        warm_up += int(warm.info["n_iter"])
        cold_up += int(cold.info["n_iter"])
        warm_grad += warm.info["gradient_accesses"]
        cold_grad += cold.info["gradient_accesses"]
        warm_outer += len(warm.info["gaps"])
        cold_outer += len(cold.info["gaps"])
    return PathData(prob, path, warm_acc, cold_acc, warm_up, cold_up, warm_grad, cold_grad, warm_outer, cold_outer)


def path_data(loss="squared", density=1.0, frac=0.1, m=M, d=D, n_lams=50, eps=1e-2, data_seed=0) -> PathData:
    """:func:`l1lab.solvers.working_set.regularization_path` on the ladder's problem (``n_lams`` values of lambda
    from lambda_max down to ``eps`` lambda_max, each to a certified gap of 1e-8 P(0), warm-started), and the work
    of its solves warm-started and cold.  Cached."""
    return _path_data(str(loss), float(density), float(frac), int(m), int(d), int(n_lams), float(eps),
                      int(data_seed))


@_style.book_figure
def path_figure(loss="squared", density=1.0, frac=0.1, m=M, d=D, n_lams=50, eps=1e-2, data_seed=0,
                figsize=(7.0, 3.6), fig=None) -> Figure:
    """The coefficients w_j along the path against lambda/lambda_max (log axis), the ladder's lambda marked."""
    data = path_data(loss, density, frac, m, d, n_lams, eps, data_seed)
    p = data.path
    lmax = data.problem.lambda_max
    fig, ax = figure_axes(fig, figsize)
    x = p.lams / lmax
    active = np.flatnonzero(np.any(p.coefs != 0, axis=1))
    for j in active:
        ax.plot(x, p.coefs[j], lw=1)
    ax.axvline(frac, color="0.3", ls="--", lw=1, label=f"λ = {frac:g} λ_max (the ladder's)")
    ax.set_xscale("log")
    ax.set_xlim(x.max() * 1.1, x.min() / 1.1)       # decreasing lambda to the right
    ax.set_xlabel(r"$\lambda/\lambda_{\max}$ (decreasing)")
    ax.set_ylabel(r"$w_j$")
    ax.set_title(f"{len(x)} values of λ, warm-started: {len(active)} coordinates ever nonzero", fontsize=10)
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(loc="upper left", fontsize=_LEGEND_PT)
    return fig
