r"""The figures and widgets of the lectures "Mirror descent made sparse" (``chapters/smidas``: the p-norm link,
Theorem 3) and "Truncated gradient, and when the p-norm link pays" (``chapters/smidas_truncgrad``: truncated
gradient, the MAGIC experiments, Proposition 4): Section 3 and the MAGIC experiments of Section 4 of
Shalev-Shwartz & Tewari 2011.

The figures are at most 8 inches wide with no text below 9 pt, multi-panel figures stacked in rows, legends off
the data; they name the paper's loss conditions (13) and (14) "Lipschitz" and "self-bounded" (:data:`CASE_NAMES`)
and its runtime bounds (3) and (4) by algorithm, since the lectures' own equation numbers are different.

Same three layers as :mod:`l1lab.book.scd`: a cached *data* function, a *figure* function returning a
``matplotlib.figure.Figure`` (not managed by pyplot), and a *widget* (ipywidgets imported inside it).

* :func:`sparsity_data` / :func:`sparsity_figure` -- why sub-gradient SGD is not sparse and truncation is;
* :func:`link_figure` / :func:`link_demo` -- the geometry of the p-norm link :math:`w = f^{-1}(\theta)`;
* :func:`smidas_bound_data` / :func:`smidas_bound_figure` / :func:`smidas_bound_demo` -- Theorem 3 against
  SMIDAS, TruncGrad and SGD at a multiple of the prescribed step size, with SCD (no step size) for reference;
* :func:`magic_comparison_data` / :func:`magic_comparison_figure` / :func:`magic_comparison_demo` -- bounds (3)
  vs (4): SMIDAS and TruncGrad, each with its step size tuned over a grid, on MAGIC04S-like (sparse examples)
  and MAGIC04D-like (dense examples) data;
* :func:`prop4_data` / :func:`prop4_figure` / :func:`prop4_demo` -- Proposition 4 on a problem with small P*;
* the *static players* (:func:`link_player`, :func:`smidas_bound_player`, :func:`magic_comparison_player`,
  :func:`prop4_player`): each widget precomputed over its grid (:data:`LINK_STATIC`, :data:`SMIDAS_BOUND_STATIC`,
  :data:`MAGIC_COMPARISON_STATIC`, :data:`PROP4_STATIC`) by :func:`l1lab.book.static.static_player`, which works
  in the HTML book without a kernel.

The data are MAGIC04-like: the MAGIC gamma telescope data are replaced by a synthetic 10-feature
classification (or regression) problem (:func:`l1lab.data.make_classification`) to which
:func:`l1lab.data.add_random_features` appends irrelevant features, 0/1 with P(1) = 0.05 ("sparse",
MAGIC04S) or +-1 ("dense", MAGIC04D), as the paper does.  The slider ranges keep every setting, including the
largest, to a few seconds on a 2-core machine (``tests/test_book_smidas.py`` runs the largest ones).

Live widgets (issue 9: a slider move should answer in about 0.3 s).  A SMIDAS step on these data costs O(d), so
the widgets start from lighter settings than the chapter's static figures (``*_LIVE``: smaller T, fewer seeds);
every run is cached one seed at a time (n seeds are the first n of any larger number, the numbers of
``run_seeds``); at first display a demo computes every position of its main sliders (``ahead=True``), so that
moving them only redraws; and the figures have fixed margins (:func:`_fixed_axes`), since rerunning the
constrained layout at every move cost as much as the drawing.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from matplotlib.figure import Figure
from threadpoolctl import threadpool_limits

from ..data.synthetic import add_random_features, make_classification, make_regression
from ..experiments import SeedRuns
from ..links import link_inverse, smidas_p
from ..problem import Problem
from ..solvers import reference_solution, scd, sgd, smidas, truncgrad
from ..theory import shalev_shwartz_tewari as sst
from . import style as _style
from .controls import check_choice, check_range, log_slider, wire
from .live import figure_axes
from .plotting import default_floor, plot_gap_vs_bound, plot_objective_and_nnz
from .static import static_player

__all__ = [
    "ALGORITHM_COLORS", "ETA_GRID", "ETA_MULT_GRID", "K_GRID", "LINK_DEFAULTS", "LINK_LIMITS", "LINK_STATIC",
    "MAGIC_COMPARISON_DEFAULTS", "MAGIC_COMPARISON_LIMITS", "MAGIC_COMPARISON_LIVE", "MAGIC_COMPARISON_STATIC",
    "PROP4_DEFAULTS", "PROP4_LIMITS", "PROP4_LIVE", "PROP4_STATIC", "SMIDAS_BOUND_DEFAULTS", "SMIDAS_BOUND_LIMITS",
    "SMIDAS_BOUND_LIVE", "SMIDAS_BOUND_STATIC",
    "diagonal_image", "draw_smidas_bound", "guarantee_curves", "guarantee_iterations", "link_demo", "link_figure",
    "link_player", "magic_comparison_data", "magic_comparison_demo", "magic_comparison_figure",
    "magic_comparison_player", "magic_like_problem", "prop4_data", "prop4_demo", "prop4_figure", "prop4_player",
    "reference", "smidas_bound_data", "smidas_bound_demo", "smidas_bound_figure", "smidas_bound_player",
    "sparsity_data", "sparsity_figure",
    "theorem3_bound", "theorem3_eta",
]

#: colours of this chapter's algorithms (SCD keeps the book's C0)
ALGORITHM_COLORS = {name: _style.ALGORITHM_COLORS[name] for name in ("SMIDAS", "TruncGrad", "SGD", "SCD")}
KINDS = ("sparse", "dense")
CASES = ("13", "14")
#: the two loss conditions of Theorem 3 (the paper's (13) and (14)), by name: the figures do not show the
#: paper's equation numbers, which the lectures write as "the paper's (13)"
CASE_NAMES = {"13": "Lipschitz case", "14": "self-bounded case"}
KIND_NAMES = {"sparse": "MAGIC04S-like (sparse examples)", "dense": "MAGIC04D-like (dense examples)"}

#: step sizes tried for SMIDAS and TruncGrad in the comparison (the paper tuned eta over a range, Sec. 4.2)
ETA_GRID = (1e-4, 3e-4, 1e-3, 3e-3, 1e-2, 3e-2)

#: the link demo: p (None = 2 ln 310, the p of the MAGIC-like data) and a 2-d dual vector theta
LINK_DEFAULTS = dict(p=None, theta1=1.0, theta2=0.6)
LINK_LIMITS = dict(p=(2.0, 40.0), theta1=(-1.0, 1.0), theta2=(-1.0, 1.0))
#: the static player of the link demo: p from 2 (gradient descent) to 40 through the chapter's 2 ln 310 (the live
#: start), and θ₂ from a tenth to nine tenths of θ₁ = 1 (the chapter's θ = (1, 0.6) among them); θ₁ stays at 1: the
#: link is positively homogeneous, so only the direction of θ matters (each slider has 41 or more positions)
LINK_STATIC = dict(grid=dict(p=(2.0, 4.0, smidas_p(310), 20.0, 40.0), theta1=(1.0,), theta2=(0.1, 0.3, 0.6, 0.9)),
                   name="smidas-link")



def _log_grid(lo_exp, hi_exp, step=0.25):
    """The values of a base-10 log slider from 10**lo_exp to 10**hi_exp in steps of ``step`` decades."""
    return tuple(10 ** (lo_exp + k * step) for k in range(int(round((hi_exp - lo_exp) / step)) + 1))


#: demo 1 (Theorem 3): eta = eta_mult * (the step size Theorem 3 prescribes for the final T)
SMIDAS_BOUND_DEFAULTS = dict(eta_mult=1.0, case="13", kind="sparse", lam=0.05, T=20_000, n_seeds=10)
#: the positions of the widget's eta_mult slider: 10**-1.5, ..., 10**1.5 in quarter decades (1 and the static
#: player's 0.1, 10**-0.5, 10**0.5, 10 among them)
ETA_MULT_GRID = _log_grid(-1.5, 1.5)
SMIDAS_BOUND_LIMITS = dict(eta_mult=(ETA_MULT_GRID[0], ETA_MULT_GRID[-1]), lam=(0.01, 0.1), n_seeds=(2, 10, 1),
                           T=(1_000, 2_000, 5_000, 10_000, 20_000))
#: the live widget of demo 1 starts at T = 5,000 with 3 seeds (the static figure: 20,000 and 10): a SMIDAS step
#: on these data costs O(d), and every move of eta, the case, the data, λ or T runs everything again
SMIDAS_BOUND_LIVE = dict(SMIDAS_BOUND_DEFAULTS, T=5_000, n_seeds=3)
#: the static player of demo 1: η a half decade apart from 0.1 η₃ to 10 η₃ (the chapter's question) under both loss
#: conditions; the sparse examples, λ, T and the seeds at the live widget's start (every frame is 3 runs of T steps of
#: each step-size method, and on dense examples a step costs about three times more)
SMIDAS_BOUND_STATIC = dict(grid=dict(eta_mult=(0.1, 10 ** -0.5, 1.0, 10 ** 0.5, 10.0), kind=("sparse",),
                                     lam=(0.05,), T=(5_000,), n_seeds=(3,)), name="smidas-bound")

#: demo 2 (bounds (3) vs (4)): eta tuned on ETA_GRID with one run (seed ``tune_seed``), then n_seeds runs
MAGIC_COMPARISON_DEFAULTS = dict(lam=0.05, T=20_000, n_seeds=3)
MAGIC_COMPARISON_LIMITS = dict(lam=(0.01, 0.1), n_seeds=(1, 3, 1), T=(1_000, 2_000, 5_000, 10_000))
#: the live widget of demo 2: one kind of data (dense), T = 5,000 (the static figure: both kinds, T = 20,000):
#: every change of the data, λ or T tunes both step sizes again, 12 runs of T steps
MAGIC_COMPARISON_LIVE = dict(MAGIC_COMPARISON_DEFAULTS, kinds="dense", T=5_000)
#: the static player of demo 2: both kinds of data and every T (each tunes both step sizes again); one seed or the
#: live widget's 3 (one seed is the first run of 3, a frame to draw but nothing to compute); λ at the live widget's
#: start (every λ is a new problem, and tuning again at every T)
MAGIC_COMPARISON_STATIC = dict(grid=dict(lam=(0.05,), n_seeds=(1, 3)), name="smidas-magic")

#: Proposition 4: squared loss, MAGIC04S-like regression with small noise, so that P* is small
PROP4_DEFAULTS = dict(Ks=(0.1, 1.0, 4.0), lam=0.01, T=30_000, n_seeds=10)
#: the positions of the widget's K slider: 10**-1.25, ..., 10**1.25 in quarter decades (1 and 0.1 among them)
K_GRID = _log_grid(-1.25, 1.25)
PROP4_LIMITS = dict(K=(K_GRID[0], K_GRID[-1]), lam=(0.003, 0.1), n_seeds=(2, 10, 1), T=(5_000, 10_000, 30_000))
#: the live widget of Proposition 4: one K, T = 10,000 and 5 seeds (the static figure: three K, 30,000 and 10)
PROP4_LIVE = dict(K=1.0, lam=PROP4_DEFAULTS["lam"], T=10_000, n_seeds=5)
#: the static player of Proposition 4: every position of the K slider, at the live widget's start for λ, T and
#: the seeds (each K is n_seeds new runs of T steps; a new λ is a new problem)
PROP4_STATIC = dict(grid=dict(lam=(PROP4_LIVE["lam"],), T=(PROP4_LIVE["T"],), n_seeds=(PROP4_LIVE["n_seeds"],)),
                    name="smidas-prop4")


def _compute_ahead(data_fn, start, variations):
    """Call ``data_fn(**start)`` with each control of ``variations`` (name -> its positions) moved to each of its
    positions, the others at their start: a demo does this at first display (its data functions are cached), so
    that these moves are lookups."""
    for name, values in variations.items():
        for value in values:
            data_fn(**dict(start, **{name: value}))


def _fixed_axes(fig, figsize, nrows, ncols, left, right, bottom, top, wgap=0.0, hgap=0.0, **subplots_kw):
    """:func:`l1lab.book.live.figure_axes` with a fixed layout: margins and gaps between the axes in inches.

    The widgets' figures change their legends and titles at every move, and the constrained layout, which
    measures every text of the figure, then costs as much as the drawing itself; these margins are the ones it
    found for them, with room for the largest labels."""
    W, H = figsize
    aw = (W - left - right - (ncols - 1) * wgap) / ncols
    ah = (H - top - bottom - (nrows - 1) * hgap) / nrows
    gs = dict(left=left / W, right=1.0 - right / W, bottom=bottom / H, top=1.0 - top / H, wspace=wgap / aw,
              hspace=hgap / ah)
    return figure_axes(fig, figsize, layout="none", nrows=nrows, ncols=ncols, gridspec_kw=gs, **subplots_kw)


# ---------------------------------------------------------------------------------------------- data
def magic_like_problem(kind="sparse", lam=0.05, m=2000, n_extra=300, loss="logistic", noise=0.05, data_seed=0):
    """A MAGIC04S-like (``kind="sparse"``) or MAGIC04D-like (``"dense"``) problem.

    Ten informative features (5 of them relevant, uniform in [-1, 1]) from
    :func:`l1lab.data.make_classification` with 5% label noise (``loss="logistic"``), or from
    :func:`l1lab.data.make_regression` with noise ``noise`` (``loss="squared"``), followed by ``n_extra``
    irrelevant features from :func:`l1lab.data.add_random_features` (0/1 with P(1) = 0.05, or +-1).
    """
    check_choice("kind", kind, KINDS)
    if loss == "logistic":
        X, y, _ = make_classification(int(m), 10, 5, flip=0.05, seed=data_seed)
    elif loss == "squared":
        X, y, _ = make_regression(int(m), 10, 5, noise=noise, seed=data_seed)
    else:
        raise ValueError(f"loss must be 'logistic' or 'squared', got {loss!r}")
    X = add_random_features(X, int(n_extra), kind, seed=data_seed + 1)
    return Problem(X, y, loss=loss, lam=float(lam))


@lru_cache(maxsize=32)
@threadpool_limits.wrap(limits=1, user_api="blas")
def _reference(kind, lam, m, n_extra, loss, noise, data_seed):
    prob = magic_like_problem(kind, lam, m, n_extra, loss, noise, data_seed)
    w_star, p_star = reference_solution(prob)
    return prob, w_star, p_star


def reference(kind="sparse", lam=0.05, m=2000, n_extra=300, loss="logistic", noise=0.05, data_seed=0):
    """(problem, w*, P*) of :func:`magic_like_problem`; cached, so every demo shares one problem object."""
    return _reference(str(kind), float(lam), int(m), int(n_extra), str(loss), float(noise), int(data_seed))


# The runs of the demos are cached one seed at a time: the runs with n seeds are the first n of any larger number
# (the same numbers as ``run_seeds(solver, problem, range(n), ...)``, which runs the seeds one after the other),
# so a move of a seeds slider only runs the seeds that are missing, and a setting seen before is a lookup.
_STEP_SOLVERS = {"SMIDAS": smidas, "TruncGrad": truncgrad, "SGD": sgd}


@lru_cache(maxsize=4096)
@threadpool_limits.wrap(limits=1, user_api="blas")
def _seed_run(name, kind, lam, loss, T, eta, output, n_checkpoints, seed):
    """One run of SMIDAS (p = 2 ln d), TruncGrad or SGD on ``reference(kind, lam, loss=loss)``."""
    prob, _, _ = reference(kind, lam, loss=loss)
    extra = dict(p=smidas_p(prob.d)) if name == "SMIDAS" else {}
    return _STEP_SOLVERS[name](prob, T, eta, seed=seed, output=output, n_checkpoints=n_checkpoints, **extra)


def _seed_runs(name, kind, lam, T, eta, n_seeds, output, loss="logistic", n_checkpoints=40):
    """Seeds 0, ..., n_seeds - 1 of :func:`_seed_run` as a :class:`l1lab.experiments.SeedRuns`."""
    return SeedRuns.from_results([_seed_run(name, kind, lam, loss, T, eta, output, n_checkpoints, s)
                                  for s in range(n_seeds)], range(n_seeds))


@lru_cache(maxsize=512)
@threadpool_limits.wrap(limits=1, user_api="blas")
def _scd_seed(kind, lam, n_iter, seed):
    prob, _, _ = reference(kind, lam)
    return scd(prob, n_iter, seed=seed, n_checkpoints=40)


def _scd_runs(kind, lam, n_iter, n_seeds):
    """SCD with seeds 0, ..., n_seeds - 1 for ``n_iter`` coordinate steps on ``reference(kind, lam)``."""
    return SeedRuns.from_results([_scd_seed(kind, lam, n_iter, s) for s in range(n_seeds)], range(n_seeds))


def _snap(value, grid):
    """``value``, or the point of ``grid`` it equals up to 1e-12 in log10 (a browser computes 10**x itself, and
    may differ from Python in the last bit), so that a slider position always finds its cached result."""
    for g in grid:
        if value > 0 and abs(math.log10(value) - math.log10(g)) < 1e-12:
            return g
    return value


# ------------------------------------------------------------------------------- why SGD is not sparse
@dataclass(frozen=True)
class SparsityData:
    problem: Problem
    w_star: np.ndarray
    p_star: float
    eta: float
    results: dict   # name -> Result (output="last")


@lru_cache(maxsize=8)
@threadpool_limits.wrap(limits=1, user_api="blas")
def _sparsity_data(kind, lam, T, eta, seed):
    prob, w_star, p_star = reference(kind, lam)
    kw = dict(n_iter=T, eta=eta, seed=seed, n_checkpoints=40)
    results = {"SGD": sgd(prob, **kw), "TruncGrad": truncgrad(prob, **kw), "SMIDAS": smidas(prob, **kw)}
    return SparsityData(prob, w_star, p_star, eta, results)


def sparsity_data(kind="sparse", lam=0.05, T=20_000, eta=5e-3, seed=0) -> SparsityData:
    """SGD (sub-gradient), TruncGrad (SMIDAS-style) and SMIDAS, one run each with the same examples and step
    size, on :func:`magic_like_problem`; the iterate after every checkpoint's step is recorded.  Cached."""
    check_choice("kind", kind, KINDS)
    if not (eta > 0 and math.isfinite(eta)):
        raise ValueError(f"eta must be a finite positive number, got {eta}")
    return _sparsity_data(kind, float(lam), int(T), float(eta), int(seed))


@_style.book_figure
def sparsity_figure(kind="sparse", lam=0.05, T=20_000, eta=5e-3, seed=0, figsize=(8.0, 6.6), fig=None) -> Figure:
    """Top: ||w_t||_0 against t for the three algorithms.  Bottom: the magnitudes |w_j| of the final iterates,
    sorted, on a log axis (exact zeros are not drawn), with eta*lam, SGD's per-step pull toward 0, marked.
    The legends sit to the right of the panels, off the data."""
    data = sparsity_data(kind, lam, T, eta, seed)
    prob = data.problem
    fig, (ax0, ax1) = _fixed_axes(fig, figsize, 2, 1, left=0.75, right=2.35, bottom=0.55, top=0.65, hgap=0.75)
    for name, res in data.results.items():
        tr = res.trace
        keep = tr.iteration > 0
        ax0.plot(tr.iteration[keep], tr.nnz[keep], color=ALGORITHM_COLORS[name], lw=2, label=name)
        mag = np.sort(np.abs(res.w))[::-1]
        mag = mag[mag > 0]
        ax1.plot(np.arange(1, mag.size + 1), mag, color=ALGORITHM_COLORS[name], lw=2,
                 label=f"{name}: {mag.size} nonzeros")
    k = int(np.count_nonzero(data.w_star))
    # black, not grey: grey is SGD's colour, and SGD is drawn here
    ax0.axhline(prob.d, color="k", ls=":", lw=1, label=f"d = {prob.d}")
    ax0.axhline(k, color="k", ls="--", lw=1, label=rf"$\|w^\star\|_0$ = {k}")
    ax0.set_xscale("log")
    ax0.set_xlabel("iterations $t$")
    ax0.set_ylabel(r"$\|w_t\|_0$")
    ax0.set_ylim(0, prob.d * 1.08)
    ax0.legend(fontsize=9, loc="center left", bbox_to_anchor=(1.02, 0.5))
    ax0.grid(True, alpha=0.3)
    ax1.axhline(eta * lam, color="k", ls="--", lw=1, label=r"$\eta\lambda$")
    ax1.set_yscale("log")
    ax1.set_xlabel("rank of the coordinate (by $|w_j|$)")
    ax1.set_ylabel(r"$|w_j|$ of the final iterate")
    ax1.legend(fontsize=9, loc="center left", bbox_to_anchor=(1.02, 0.5))
    ax1.grid(True, alpha=0.3)
    fig.suptitle(f"{KIND_NAMES[kind]}: m = {prob.m}, d = {prob.d}, logistic loss,\n"
                 f"λ = {lam:g}, η = {eta:g}, T = {T:,}", fontsize=10)
    return fig


# ------------------------------------------------------------------------------------ the p-norm link
def _default_p():
    return smidas_p(310)


@lru_cache(maxsize=64)
def _circle_image(p, n=721):
    """The image under f^{-1} of n points of the unit circle (cached per p: the link demo redraws it often)."""
    phi = np.linspace(0.0, 2.0 * np.pi, n)
    pts = np.array([link_inverse(np.array([np.cos(a), np.sin(a)]), p) for a in phi])
    pts.flags.writeable = False
    return pts


def _unit_sphere(r, n=721):
    r"""n points of the unit :math:`\ell_r` sphere in the plane, :math:`|u_1|^r + |u_2|^r = 1` (r >= 1)."""
    phi = np.linspace(0.0, 2.0 * np.pi, n)
    c, s = np.cos(phi), np.sin(phi)
    scale = (np.abs(c) ** r + np.abs(s) ** r) ** (1.0 / r)
    return np.column_stack([c / scale, s / scale])


def diagonal_image(p):
    r""":math:`f^{-1}((1, 1)/\sqrt2)_1`, the coordinates of the image of the unit circle's point at 45 degrees:
    :math:`2^{2/p - 3/2}`.  It is 1/2, on the diamond :math:`\|w\|_1 = 1`, at p = 4 and below 1/2, inside the
    diamond, for every larger p (1/(2 sqrt 2) in the limit), while the circle's points on the axes are fixed: the
    image of the circle collapses towards the axes."""
    return float(link_inverse(np.array([1.0, 1.0]) / math.sqrt(2.0), float(p))[0])


@_style.book_figure
def link_figure(p=None, theta1=1.0, theta2=0.6, ps=(2.0, 4.0, 40.0), values=True, figsize=(8.0, 7.2),
                fig=None) -> Figure:
    r"""The inverse p-norm link :math:`w = f^{-1}(\theta)` (eq. (12) of Shalev-Shwartz & Tewari 2011) in 2-d.

    Left, for ``p`` (default 2 ln 310, the p of this chapter's data) and the dual vector :math:`\theta` =
    (theta1, theta2), two curves through :math:`\theta` and their images, which pass through
    :math:`w = f^{-1}(\theta)`:

    * the :math:`\ell_p` sphere through :math:`\theta` (dotted black) and its image, the :math:`\ell_q` sphere of
      the same radius, :math:`\|w\|_q = \|\theta\|_p` (solid black), which closes in on the diamond
      :math:`\|w\|_1 = \|\theta\|_p` (grey) as p grows and q = p/(p-1) falls to 1;
    * the circle through :math:`\theta`, :math:`\|\cdot\|_2 = \|\theta\|_2` (dotted grey), and its image for
      ``p`` (thick red) and the exponents ``ps`` (thin), which collapses towards the axes as p grows, inside the
      diamond through the circle's points on the axes for p > 4 (:func:`diagonal_image`).

    Right: :math:`|w_{\rm small}|/|w_{\rm large}|` against :math:`|\theta_{\rm small}|/|\theta_{\rm large}|`,
    the power law of slope p - 1 that makes small dual coordinates tiny in the primal, with the point of
    :math:`\theta`.  ``values=False`` leaves the coordinates of w and that ratio out of the legends (the
    chapter's figure sits between a question about them and its answer)."""
    p = _default_p() if p is None else float(p)
    check_range("p", p, LINK_LIMITS)
    check_range("theta1", theta1, LINK_LIMITS)
    check_range("theta2", theta2, LINK_LIMITS)
    theta = np.array([theta1, theta2], dtype=np.float64)
    w = link_inverse(theta, p)
    q = p / (p - 1.0)
    r2 = float(np.linalg.norm(theta))                 # the circle through theta (the unit circle if theta = 0)
    rp = float(np.linalg.norm(theta, p))
    circle = r2 if r2 > 0 else 1.0
    fig, (ax0, ax1) = _fixed_axes(fig, figsize, 1, 2, left=0.75, right=0.1, bottom=2.95, top=0.55, wgap=0.95)
    unit = _unit_sphere(2.0)
    ax0.plot(circle * unit[:, 0], circle * unit[:, 1], color="0.6", lw=1.2, ls=":",
             label=rf"circle through $\theta$: $\|\cdot\|_2$ = {circle:.3f}")
    others = [v for v in ps if abs(v - p) > 1e-9]
    for k, v in enumerate(others):
        img = circle * _circle_image(v)
        ax0.plot(img[:, 0], img[:, 1], color=f"C{k}", lw=1.0, label=f"$f^{{-1}}$(circle), p = {v:g}")
    img = circle * _circle_image(p)
    ax0.plot(img[:, 0], img[:, 1], color="C3", lw=2.5, label=f"$f^{{-1}}$(circle), p = {p:.3g}")
    if rp > 0:
        sp_p, sp_q = rp * _unit_sphere(p), rp * _unit_sphere(q)
        ax0.plot(sp_p[:, 0], sp_p[:, 1], color="k", lw=1.2, ls=":",
                 label=rf"$\ell_p$ sphere through $\theta$: $\|\cdot\|_p$ = {rp:.3f}")
        ax0.plot(sp_q[:, 0], sp_q[:, 1], color="k", lw=1.5,
                 label=rf"its image: the $\ell_q$ sphere, q = {q:.3g}")
        ax0.plot(rp * np.array([1, 0, -1, 0, 1]), rp * np.array([0, 1, 0, -1, 0]), color="0.8", lw=3.5,
                 zorder=1, label=r"the diamond $\|w\|_1 = \|\theta\|_p$")
    ax0.annotate("", xy=theta, xytext=(0, 0), arrowprops=dict(arrowstyle="->", color="k", lw=1.2))
    ax0.annotate("", xy=w, xytext=(0, 0), arrowprops=dict(arrowstyle="->", color="C3", lw=2))
    ax0.plot(*theta, "ko", ms=5, label=rf"$\theta$ = ({theta1:.2f}, {theta2:.2f})")
    ax0.plot(*w, "o", color="C3", ms=6, label=(rf"$w = f^{{-1}}(\theta)$ = ({w[0]:.3f}, {w[1]:.3f})" if values
                                              else r"$w = f^{-1}(\theta)$"))
    ax0.set_aspect("equal")
    lim = 1.12 * circle
    ax0.set_xlim(-lim, lim)
    ax0.set_ylim(-lim, lim)
    ax0.axhline(0, color="0.85", lw=0.8)
    ax0.axvline(0, color="0.85", lw=0.8)
    ax0.set_xlabel(r"first coordinate ($\theta_1$ or $w_1$)")
    ax0.set_ylabel(r"second coordinate ($\theta_2$ or $w_2$)")
    ax0.legend(fontsize=9, loc="upper center", bbox_to_anchor=(0.5, -0.15), ncol=1)
    ax0.set_title(rf"$\|w\|_q$ = {np.linalg.norm(w, q):.3f} = $\|\theta\|_p$ = {rp:.3f}: $f^{{-1}}$ maps"
                  "\n" r"the $\ell_p$ sphere onto the $\ell_q$ sphere", fontsize=9)

    r = np.logspace(-3, 0, 200)
    for k, v in enumerate(others):
        ax1.plot(r, r ** (v - 1.0), color=f"C{k}", lw=1.0, label=f"p = {v:g}: slope {v - 1:g}")
    ax1.plot(r, r ** (p - 1.0), color="C3", lw=2.5, label=f"p = {p:.3g}: slope {p - 1:.3g}")
    if theta1 != 0 and theta2 != 0:
        a, b = sorted([abs(theta1), abs(theta2)])
        wa, wb = sorted(np.abs(w))
        ax1.plot(a / b, wa / wb, "o", color="C3", ms=6,
                 label=r"the $\theta$ on the left" + (f": {wa / wb:.2e}" if values else ""))
    ax1.set_xscale("log")
    ax1.set_yscale("log")
    ax1.set_ylim(1e-30, 2)
    ax1.set_xlabel(r"$|\theta_{\rm small}| / |\theta_{\rm large}|$")
    ax1.set_ylabel(r"$|w_{\rm small}| / |w_{\rm large}|$")
    ax1.legend(fontsize=9, loc="upper center", bbox_to_anchor=(0.5, -0.15), ncol=1)
    ax1.grid(True, which="major", alpha=0.3)
    ax1.set_title("ratios of coordinates are raised\nto the power p - 1", fontsize=9)
    return fig


def link_demo(**defaults):
    """Live link demo: sliders for p and the two coordinates of theta, redrawing :func:`link_figure`."""
    import ipywidgets as widgets

    v = dict(LINK_DEFAULTS, **defaults)
    if v["p"] is None:
        v["p"] = _default_p()
    for name in ("p", "theta1", "theta2"):
        check_range(name, v[name], LINK_LIMITS)
    lim = LINK_LIMITS
    controls = dict(
        p=widgets.FloatSlider(value=v["p"], min=lim["p"][0], max=lim["p"][1], step=0.25, description="p",
                              continuous_update=False),
        theta1=widgets.FloatSlider(value=v["theta1"], min=-1.0, max=1.0, step=0.05, description="θ₁",
                                   continuous_update=False),
        theta2=widgets.FloatSlider(value=v["theta2"], min=-1.0, max=1.0, step=0.05, description="θ₂",
                                   continuous_update=False),
    )

    return wire(controls, link_figure, [["p", "theta1", "theta2"]])


def link_player(**static):
    """The link demo for the HTML book: :func:`link_demo` precomputed over :data:`LINK_STATIC` (``static``
    overrides its entries) by :func:`l1lab.book.static.static_player`."""
    return static_player(link_demo(), **dict(LINK_STATIC, **static))


# ----------------------------------------------------------------------------------- demo 1: Theorem 3
@dataclass(frozen=True)
class SmidasBoundData:
    """Demo 1: the problem, its optimum, Theorem 3's constants, step size and bound, and the runs."""

    kind: str
    problem: Problem
    w_star: np.ndarray
    p_star: float
    p0: float
    p: float
    case: str
    rho: float
    eta_prescribed: float
    eta: float
    bound: np.ndarray        # Theorem 3's bound at runs["SMIDAS"].iteration (inf where a*eta >= 1)
    runs: dict[str, SeedRuns]  # SMIDAS, TruncGrad, SGD (output="random"); SCD (last iterate)

    def ratio(self, name="SMIDAS"):
        """bound / (mean gap over seeds) at every checkpoint T > 0 (inf where the mean gap is <= 0)."""
        r = self.runs[name]
        keep = r.iteration > 0
        g = r.gap_summary(self.p_star).mean[keep]
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(g > 0, self.bound[keep] / np.where(g > 0, g, 1.0), np.inf)


def theorem3_eta(case, T, rho, w1, p0, p, d):
    """The step size Theorem 3 prescribes for T iterations: case (13) or case (14) (Lemma 7's eta*)."""
    if case == "13":
        return sst.smidas_eta_lipschitz(T, rho, w1, p, d)
    return sst.smidas_eta_self_bounded(T, rho, w1, p0, p, d)


def theorem3_bound(case, eta, T, rho, w1, p0, p, d):
    """Theorem 3's bound on E[P(w_o)] - P* at a fixed step size ``eta`` for every T of the array ``T``."""
    if case == "13":
        return np.asarray(sst.smidas_bound_lipschitz(eta, T, rho, w1, p, d), dtype=np.float64)
    return np.asarray(sst.smidas_bound_self_bounded(eta, T, rho, w1, p0, p, d), dtype=np.float64)


@lru_cache(maxsize=128)
@threadpool_limits.wrap(limits=1, user_api="blas")
def _smidas_bound_data(eta_mult, case, kind, lam, T, n_seeds):
    prob, w_star, p_star = reference(kind, lam)
    d = prob.d
    p = smidas_p(d)
    p0 = prob.objective(np.zeros(d))
    w1 = float(np.abs(w_star).sum())
    rho = sst.loss_condition_13(prob.loss) if case == "13" else sst.loss_condition_14(prob.loss)
    eta0 = theorem3_eta(case, T, rho, w1, p0, p, d)
    eta = eta_mult * eta0
    runs = {name: _seed_runs(name, kind, lam, T, eta, n_seeds, "random") for name in ("SMIDAS", "TruncGrad", "SGD")}
    # SCD gets the same budget of data accesses: T * (nnz/m) = n * (nnz/d)  =>  n = T d / m
    runs["SCD"] = _scd_runs(kind, lam, max(1, round(T * d / prob.m)), n_seeds)
    it = runs["SMIDAS"].iteration
    with np.errstate(divide="ignore"):
        bound = theorem3_bound(case, eta, np.maximum(it, 1), rho, w1, p0, p, d)
    return SmidasBoundData(kind, prob, w_star, p_star, p0, p, case, rho, eta0, eta, bound, runs)


def smidas_bound_data(eta_mult=1.0, case="13", kind="sparse", lam=0.05, T=20_000, n_seeds=10) -> SmidasBoundData:
    """Demo 1's computation on :func:`magic_like_problem` (logistic loss).

    eta = ``eta_mult`` times the step size Theorem 3 prescribes for ``T`` iterations under condition
    ``case`` ("13": |L'| <= rho = 1; "14": L'^2 <= rho L, rho = 1/2).  SMIDAS (p = 2 ln d), TruncGrad
    (SMIDAS-style) and SGD run ``n_seeds`` seeds with that eta and ``output="random"`` (at checkpoint T, P of
    w_r with r uniform in {0, ..., T-1}); SCD, which has no step size, runs the same number of data accesses.
    The bound is Theorem 3's at the fixed eta, which holds at every T.

    Cached, and each seed's run separately: the runs with n seeds are the first n of any larger number (the
    numbers of ``run_seeds``), so adding seeds only runs the new ones.  An ``eta_mult`` within 1e-12 (in log10)
    of a position of the widget's slider (:data:`ETA_MULT_GRID`) is taken as that position.
    """
    check_choice("case", case, CASES)
    check_choice("kind", kind, KINDS)
    if not (eta_mult > 0 and math.isfinite(eta_mult)):
        raise ValueError(f"eta_mult must be a finite positive number, got {eta_mult}")
    if int(n_seeds) < 1:
        raise ValueError(f"need at least one seed, got n_seeds={n_seeds}")
    eta_mult = _snap(float(eta_mult), ETA_MULT_GRID)
    return _smidas_bound_data(eta_mult, str(case), str(kind), float(lam), int(T), int(n_seeds))


def _mean_band(ax, x, gaps, color, label, floor):
    mean, lo, hi = gaps.mean(axis=0), gaps.min(axis=0), gaps.max(axis=0)
    n_clipped = int(np.sum(mean < floor) + np.sum(lo < floor) + np.sum(hi < floor))
    if gaps.shape[0] > 1:
        ax.fill_between(x, np.maximum(lo, floor), np.maximum(hi, floor), color=color, alpha=0.2, lw=0)
    ax.plot(x, np.maximum(mean, floor), color=color, lw=2, label=label)
    return n_clipped


def draw_smidas_bound(axes, data: SmidasBoundData, ylim=None, title=True, legends="inside", fontsize=7):
    """Draw demo 1 on three axes: (a) gap against T with Theorem 3's bound, (b) gap and (c) l0 against data
    accesses, SCD included.  ``legends="inside"`` (three axes in a row) puts the legends in the lower
    left corners; ``"below"`` puts (a)'s legend under (a) and one legend for (b) and (c) under (b)."""
    ax0, ax1, ax2 = axes
    sm = data.runs["SMIDAS"]
    finite = np.isfinite(data.bound)
    shown_bound = np.where(finite, data.bound, np.nan)
    tag = r"$\eta\kappa\rho^2/2 + \|w^\star\|_1^2/(\eta T)$" if data.case == "13" else \
        r"$(1/(1-a\eta)-1)\,P(0) + \|w^\star\|_1^2/(\eta T(1-a\eta))$"
    out = plot_gap_vs_bound(ax0, sm, data.p_star, shown_bound, label="SMIDAS", color=ALGORITHM_COLORS["SMIDAS"],
                            bound_label=f"Theorem 3, {CASE_NAMES[data.case]}: " + tag)
    floor = default_floor(data.p_star)
    keep = sm.iteration > 0
    n_clipped = out["n_clipped"]
    for name in ("TruncGrad", "SGD"):
        r = data.runs[name]
        n_clipped += _mean_band(ax0, r.iteration[keep], r.gap(data.p_star)[:, keep], ALGORITHM_COLORS[name],
                                f"{name}: mean over {r.n_seeds} seeds", floor)
    if n_clipped and out["floor"] is None:
        ax0.axhline(floor, color="0.45", ls=":", lw=1, label=f"floor {floor:.0e}: {n_clipped} value(s) drawn here")
    if not finite.all():
        ax0.text(0.5, 0.5, r"bound void: $a\eta \geq 1$", transform=ax0.transAxes, ha="center", fontsize=10,
                 color="k", bbox=dict(fc="w", ec="0.5"))
    ax0.set_ylabel(r"$P(w_o) - P^\star$,  $w_o$ uniform in $w_0..w_{T-1}$", fontsize=9)
    if ylim is None:
        g = [r.gap(data.p_star)[:, r.iteration > 0] for r in data.runs.values()]
        ylim = (0.5 * max(min(x.min() for x in g), floor), 200.0 * max(x.max() for x in g))
    ax0.set_ylim(*ylim)
    below = legends == "below"
    if below:
        ax0.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2, fontsize=fontsize)
    else:
        ax0.legend(loc="lower left", fontsize=fontsize)
    order = {k: data.runs[k] for k in ("SMIDAS", "TruncGrad", "SGD", "SCD")}
    plot_objective_and_nnz((ax1, ax2), order, data.p_star, colors=ALGORITHM_COLORS)
    for band in list(ax2.collections):  # l0 of w_o jumps with r: show the mean over seeds only
        band.remove()
    ax1.set_ylim(*ylim)
    ax1.set_ylabel(r"$P(w) - P^\star$ ($w_o$; SCD: $w_T$)", fontsize=9)
    ax2.set_ylabel(r"$\|w\|_0$, mean over seeds" + ("\n" if below else " ") + r"($w_o$; SCD: $w_T$)", fontsize=9)
    ax2.set_ylim(0, data.problem.d * 1.05)
    if below:
        ax1.legend(loc="upper left", bbox_to_anchor=(0.0, -0.2), ncol=2, fontsize=fontsize)
    else:
        ax1.legend(loc="lower left", fontsize=fontsize)
    if title:
        prob = data.problem
        ax0.figure.suptitle(
            f"{KIND_NAMES[data.kind]}: d = {prob.d}, m = {prob.m}, λ = {prob.lam:g}, p = 2 ln d = {data.p:.2f}"
            + ("\n" if below else "; ")
            + f"η = {data.eta / data.eta_prescribed:.3g} × {data.eta_prescribed:.3g} (Theorem 3, "
              f"{CASE_NAMES[data.case]}, ρ = {data.rho:g})", fontsize=10)
    return out


def _inch_axes(fig, figsize, rects, key):
    """:func:`l1lab.book.live.figure_axes` with axes placed by hand: ``rects`` are (left, bottom, width, height)
    in inches (a fixed layout, as :func:`_fixed_axes`)."""
    W, H = figsize

    def build(f):
        return [f.add_axes((x / W, y / H, w / W, h / H)) for x, y, w, h in rects]

    return figure_axes(fig, figsize, build, key=(key, tuple(rects)), layout="none")


@_style.book_figure
def smidas_bound_figure(eta_mult=1.0, case="13", kind="sparse", lam=0.05, T=20_000, n_seeds=10,
                        figsize=(8.0, 9.0), fig=None) -> Figure:
    """Demo 1 as a Figure: (a, top, full width) empirical E[P(w_o)] - P* of SMIDAS, TruncGrad and SGD over seeds
    against Theorem 3's bound (log-log); below it, (b) the same and SCD against data accesses and (c) their l0
    norms.  The legends sit under (a) and under (b) and (c), off the data."""
    data = smidas_bound_data(eta_mult, case, kind, lam, T, n_seeds)
    W, H = figsize
    low_y, low_h = 1.25, 2.3            # (b) and (c), with their legend (two rows) below
    top_y = low_y + low_h + 1.55        # (a)'s x-label and legend (three rows) between
    top_h = H - top_y - 0.7             # the two-line title above
    half = (W - 0.85 - 0.2 - 0.95) / 2
    rects = [(0.85, top_y, W - 0.85 - 0.2, top_h), (0.85, low_y, half, low_h),
             (0.85 + half + 0.95, low_y, half, low_h)]
    fig, axes = _inch_axes(fig, figsize, rects, "smidas_bound")
    draw_smidas_bound(axes, data, legends="below", fontsize=9)
    return fig


def smidas_bound_demo(ahead=True, **defaults):
    """Live demo 1: the step-size multiplier (log slider), the loss condition of Theorem 3, the data (sparse
    or dense examples), λ, T and the number of seeds, redrawing :func:`smidas_bound_figure`, starting from
    :data:`SMIDAS_BOUND_LIVE` (T = 5,000, 3 seeds).

    With ``ahead`` (default), the first display also computes every position of the η slider (:data:`ETA_MULT_GRID`)
    under both conditions, and every position of the T, data and seeds controls, each with the other controls
    at their starting values (about 3 s), so these moves only redraw; any other move computes what it shows (a
    few tenths of a second, up to about a second for dense data at T = 20,000), and a setting seen before is a
    lookup."""
    import ipywidgets as widgets

    v = dict(SMIDAS_BOUND_LIVE, **defaults)
    lim = SMIDAS_BOUND_LIMITS
    for name in ("eta_mult", "lam", "n_seeds"):
        check_range(name, v[name], lim)
    check_choice("T", v["T"], lim["T"])
    check_choice("case", v["case"], CASES)
    check_choice("kind", v["kind"], KINDS)
    controls = dict(
        eta_mult=log_slider(widgets, v["eta_mult"], *lim["eta_mult"], "η / η₃", step=0.25, readout_format=".2g"),
        case=widgets.Dropdown(options=[("Lipschitz: |L'| ≤ 1", "13"), ("self-bounded: L'² ≤ L/2", "14")],
                              value=v["case"],
                              description="case"),
        kind=widgets.Dropdown(options=list(KINDS), value=v["kind"], description="examples"),
        lam=log_slider(widgets, v["lam"], *lim["lam"], description="λ"),
        T=widgets.SelectionSlider(options=list(lim["T"]), value=v["T"], description="T", continuous_update=False),
        n_seeds=widgets.IntSlider(value=v["n_seeds"], min=lim["n_seeds"][0], max=lim["n_seeds"][1],
                                  description="seeds", continuous_update=False),
    )
    if ahead:
        start = {k: c.value for k, c in controls.items()}
        seeds = range(lim["n_seeds"][0], lim["n_seeds"][1] + 1)
        for case in CASES:
            _compute_ahead(smidas_bound_data, dict(start, case=case), dict(eta_mult=ETA_MULT_GRID))
        _compute_ahead(smidas_bound_data, start, dict(T=lim["T"], kind=KINDS, n_seeds=seeds))

    return wire(controls, smidas_bound_figure, [["eta_mult", "case", "kind"], ["lam", "T", "n_seeds"]])


def smidas_bound_player(**static):
    """Demo 1 for the HTML book: :func:`smidas_bound_demo` precomputed over :data:`SMIDAS_BOUND_STATIC`."""
    return static_player(smidas_bound_demo(ahead=False), **dict(SMIDAS_BOUND_STATIC, **static))


# ------------------------------------------------------------------------ demo 2: bounds (3) and (4)
@dataclass(frozen=True)
class MagicComparisonData:
    """Demo 2 for one kind of data: the problem, P*, the tuning table, the chosen step sizes, the runs and the
    bounds (3) and (4) (without their constants) at eps = ``eps``."""

    kind: str
    problem: Problem
    w_star: np.ndarray
    p_star: float
    tuning: dict        # name -> list of (eta, final P - P* of the tuning run)
    eta: dict           # name -> chosen eta
    runs: dict[str, SeedRuns]  # SMIDAS, TruncGrad at their chosen eta; SCD for reference
    x2_sq: float        # X_2^2 = (1/m) sum ||x_i||_2^2
    bound3: float
    bound4: float
    eps: float

    def effective_nnz(self, name, rel=1e-6):
        """Mean over seeds of the number of coordinates of the final iterate with |w_j| > rel * max_j |w_j|
        (the trace's l0 counts every nonzero, however tiny)."""
        w = np.abs(self.runs[name].w)
        top = w.max(axis=1, keepdims=True)
        return float(np.mean(np.sum(w > rel * np.where(top > 0, top, np.inf), axis=1)))

    @property
    def bound_ratio(self):
        """Bound (4) / bound (3) = ||w*||_2^2 X_2^2 / (log(d) ||w*||_1^2): above 1 favours SMIDAS."""
        return self.bound4 / self.bound3


@lru_cache(maxsize=64)
@threadpool_limits.wrap(limits=1, user_api="blas")
def _magic_tuning(name, kind, lam, T, grid, tune_seed):
    """The tuning of ``name`` (SMIDAS or TruncGrad): one run of T iterations per eta of ``grid`` (seed
    ``tune_seed``, last iterate), as a list of (eta, final P - P*)."""
    _, _, p_star = reference(kind, lam)
    return [(eta, float(_seed_run(name, kind, lam, "logistic", T, eta, "last", 2, tune_seed).trace.objective[-1]
                        - p_star)) for eta in grid]


@lru_cache(maxsize=64)
@threadpool_limits.wrap(limits=1, user_api="blas")
def _magic_comparison_data(kind, lam, T, n_seeds, grid, tune_seed):
    prob, w_star, p_star = reference(kind, lam)
    tuning, chosen, runs = {}, {}, {}
    for name in ("SMIDAS", "TruncGrad"):
        tuning[name] = _magic_tuning(name, kind, lam, T, grid, tune_seed)
        chosen[name] = min(tuning[name], key=lambda r: r[1])[0]
        runs[name] = _seed_runs(name, kind, lam, T, chosen[name], n_seeds, "last")
    runs["SCD"] = _scd_runs(kind, lam, max(1, round(T * prob.d / prob.m)), n_seeds)
    eps = 1e-2
    x2 = sst.mean_squared_row_norm(prob)
    b3 = sst.smidas_runtime_bound(eps, prob.d, float(np.abs(w_star).sum()))
    b4 = sst.truncgrad_runtime_bound(eps, prob.d, float(w_star @ w_star), x2)
    return MagicComparisonData(kind, prob, w_star, p_star, tuning, chosen, runs, x2, b3, b4, eps)


def magic_comparison_data(kind="sparse", lam=0.05, T=20_000, n_seeds=3, grid=ETA_GRID,
                          tune_seed=1000) -> MagicComparisonData:
    """Demo 2's computation for one kind of data (``"sparse"``: MAGIC04S-like, ``"dense"``: MAGIC04D-like).

    As in Section 4.2 of the paper, each of SMIDAS and TruncGrad runs once (seed ``tune_seed``, not one of
    the plotted seeds) for T iterations with every eta of ``grid``, and the eta with the smallest final
    objective is kept; then each runs ``n_seeds`` seeds (0, 1, ...) with its eta, recording the last iterate.
    SCD runs the same number of data accesses.  Cached: the tuning per (kind, λ, T) and each seed's run
    separately (n seeds are the first n of any larger number, the numbers of ``run_seeds``).
    """
    check_choice("kind", kind, KINDS)
    grid = tuple(float(g) for g in grid)
    if not grid or min(grid) <= 0:
        raise ValueError(f"grid must be a non-empty sequence of positive step sizes, got {grid}")
    if int(n_seeds) < 1:
        raise ValueError(f"need at least one seed, got n_seeds={n_seeds}")
    return _magic_comparison_data(str(kind), float(lam), int(T), int(n_seeds), grid, int(tune_seed))


@_style.book_figure
def magic_comparison_figure(kinds=("sparse", "dense"), lam=0.05, T=20_000, n_seeds=3,
                            figsize=None, fig=None) -> Figure:
    """Demo 2 as a Figure: one row per kind of data, P(w) - P* (log-log) and ||w||_0 against data accesses
    for SMIDAS and TruncGrad at their tuned step sizes (named in the row's title, with the ratio of the two
    runtime bounds), and SCD; one legend under the last row."""
    if isinstance(kinds, str):
        kinds = (kinds,)
    for k in kinds:
        check_choice("kind", k, KINDS)
    n = len(kinds)
    figsize = figsize or (8.0, 3.35 * n + 0.95)
    fig, axes = _fixed_axes(fig, figsize, n, 2, left=0.85, right=0.15, bottom=1.4, top=0.55, wgap=0.85,
                            hgap=1.0)
    axes = np.atleast_2d(axes)
    W, H = figsize
    for r, (row, kind) in enumerate(zip(axes, kinds)):
        data = magic_comparison_data(kind, lam, T, n_seeds)
        named = {n_: data.runs[n_] for n_ in ("SMIDAS", "TruncGrad", "SCD")}
        plot_objective_and_nnz(row, named, data.p_star, colors=ALGORITHM_COLORS)
        k = int(np.count_nonzero(data.w_star))
        row[1].axhline(k, color="k", ls="--", lw=1, label=rf"$\|w^\star\|_0$ = {k}")
        row[1].set_ylim(0, data.problem.d * 1.05)
        y_title = 1.0 - (0.55 + r * (row[0].get_position().height * H + 1.0) - 0.08) / H
        fig.text(0.5, y_title, f"{KIND_NAMES[kind]}: tuned η = {data.eta['SMIDAS']:g} (SMIDAS), "
                 f"{data.eta['TruncGrad']:g} (TruncGrad); bound ratio (TruncGrad/SMIDAS) = {data.bound_ratio:.2f}",
                 ha="center", va="bottom", fontsize=9)
    handles, labels = axes[-1][1].get_legend_handles_labels()
    axes[-1][0].legend(handles, labels, loc="upper left", bbox_to_anchor=(0.0, -0.22), ncol=2, fontsize=9)
    fig.suptitle(f"d = {data.problem.d}, m = {data.problem.m}, λ = {lam:g}, T = {T:,} examples per run, "
                 f"{n_seeds} seeds", fontsize=10, y=1.0 - 0.08 / H, va="top")
    return fig


def magic_comparison_demo(ahead=True, **defaults):
    """Live demo 2: the data (sparse or dense examples), λ, T and the number of seeds, redrawing
    :func:`magic_comparison_figure` for one kind of data (every change of the data, λ or T re-tunes both step
    sizes), starting from :data:`MAGIC_COMPARISON_LIVE` (dense examples, T = 5,000, 3 seeds).

    With ``ahead`` (default), the first display also computes both kinds of data at every T of the widget, at
    the starting λ and number of seeds (a few seconds), so these moves only redraw; fewer seeds are always a
    lookup (the runs of each seed are cached), and a change of λ re-tunes in under a second."""
    import ipywidgets as widgets

    v = dict(MAGIC_COMPARISON_LIVE, **defaults)
    lim = MAGIC_COMPARISON_LIMITS
    for name in ("lam", "n_seeds"):
        check_range(name, v[name], lim)
    check_choice("T", v["T"], lim["T"])
    check_choice("kinds", v["kinds"], KINDS)
    controls = dict(
        kinds=widgets.Dropdown(options=list(KINDS), value=v["kinds"], description="examples"),
        lam=log_slider(widgets, v["lam"], *lim["lam"], description="λ"),
        T=widgets.SelectionSlider(options=list(lim["T"]), value=v["T"], description="T", continuous_update=False),
        n_seeds=widgets.IntSlider(value=v["n_seeds"], min=lim["n_seeds"][0], max=lim["n_seeds"][1],
                                  description="seeds", continuous_update=False),
    )

    if ahead:
        for kind in KINDS:
            for T in lim["T"]:
                magic_comparison_data(kind, controls["lam"].value, T, controls["n_seeds"].value)

    return wire(controls, magic_comparison_figure, [["kinds", "lam"], ["T", "n_seeds"]])


def magic_comparison_player(**static):
    """Demo 2 for the HTML book: :func:`magic_comparison_demo` precomputed over :data:`MAGIC_COMPARISON_STATIC`."""
    return static_player(magic_comparison_demo(ahead=False), **dict(MAGIC_COMPARISON_STATIC, **static))


# --------------------------------------------------------------------------------- Proposition 4
@dataclass(frozen=True)
class Prop4Data:
    problem: Problem
    w_star: np.ndarray
    p_star: float
    p0: float
    p: float
    rho: float
    runs: dict[float, SeedRuns]  # K -> runs (output="random")
    etas: dict      # K -> eta of Proposition 4
    bounds: dict    # K -> Proposition 4's bound on E[P(w_o)] at runs[K].iteration
    theorem3: np.ndarray   # P* + Theorem 3 (14) with eta tuned for each T (Lemma 7's minimum f(eta*)), same T's

    def excess_ratio(self, K):
        """(bound - P*) / (mean P(w_o) - P*) at every checkpoint T > 0 (inf where the mean is <= P*)."""
        r = self.runs[K]
        keep = r.iteration > 0
        g = r.objective.mean(axis=0)[keep] - self.p_star
        b = self.bounds[K][keep] - self.p_star
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(g > 0, b / np.where(g > 0, g, 1.0), np.inf)


@lru_cache(maxsize=64)
@threadpool_limits.wrap(limits=1, user_api="blas")
def _prop4_runs(K, lam, T, n_seeds):
    prob, w_star, p_star = reference("sparse", lam, loss="squared")
    p = smidas_p(prob.d)
    rho = sst.loss_condition_14(prob.loss)
    eta = sst.smidas_prop4_eta(K, rho, p, prob.d)
    runs = _seed_runs("SMIDAS", "sparse", lam, T, eta, n_seeds, "random", loss="squared")
    it = np.maximum(runs.iteration, 1)
    bound = np.asarray(sst.smidas_prop4_bound(K, it, rho, float(np.abs(w_star).sum()), p_star, p, prob.d))
    return eta, runs, bound


@lru_cache(maxsize=32)
def _prop4_theorem3(lam, iterations):
    """P* + Theorem 3 (14) with eta tuned for each T (Lemma 7's minimum f(eta*)) at the T of ``iterations``."""
    prob, w_star, p_star = reference("sparse", lam, loss="squared")
    p0 = prob.objective(np.zeros(prob.d))
    p, rho, w1 = smidas_p(prob.d), sst.loss_condition_14(prob.loss), float(np.abs(w_star).sum())
    it = np.maximum(np.asarray(iterations), 1)
    return np.array([sst.smidas_bound_self_bounded(sst.smidas_eta_self_bounded(t, rho, w1, p0, p, prob.d), t, rho,
                                                   w1, p0, p, prob.d) for t in it]) + p_star


def prop4_data(Ks=(0.1, 1.0, 4.0), lam=0.01, T=30_000, n_seeds=10) -> Prop4Data:
    """Proposition 4 on a MAGIC04S-like *regression* (squared loss (a-y)^2/2, rho = 2 in (14), noise 0.05, so
    that P* is small): SMIDAS with eta = 2K/(kappa rho (1+K)) for every K in ``Ks``, ``n_seeds`` seeds,
    ``output="random"``, and the bound (1+K)P* + (1+K)^2/K ab/T.

    Cached per K, and each seed's run separately (n seeds are the first n of any larger number, the numbers of
    ``run_seeds``).  A K within 1e-12 (in log10) of a position of the widget's slider (:data:`K_GRID`) is taken
    as that position."""
    Ks = tuple(_snap(float(k), K_GRID) for k in Ks)
    if not Ks:
        raise ValueError("Ks is empty")
    for K in Ks:
        check_range("K", K, PROP4_LIMITS)
    if int(n_seeds) < 1:
        raise ValueError(f"need at least one seed, got n_seeds={n_seeds}")
    prob, w_star, p_star = reference("sparse", float(lam), loss="squared")
    runs, etas, bounds = {}, {}, {}
    for K in Ks:
        etas[K], runs[K], bounds[K] = _prop4_runs(K, float(lam), int(T), int(n_seeds))
    p0 = prob.objective(np.zeros(prob.d))
    p, rho = smidas_p(prob.d), sst.loss_condition_14(prob.loss)
    thm3 = _prop4_theorem3(float(lam), tuple(int(t) for t in runs[Ks[0]].iteration))
    return Prop4Data(prob, w_star, p_star, p0, p, rho, runs, etas, bounds, thm3)


def _lemma7_min(c, T, rho, w1, p, d):
    """Lemma 7's minimum over eta of the self-bounded bound with c in the place of P(0), at the T of ``T``."""
    return np.array([sst.smidas_bound_self_bounded(sst.smidas_eta_self_bounded(t, rho, w1, c, p, d), t, rho, w1, c,
                                                   p, d) for t in np.atleast_1d(T)])


def guarantee_curves(p_star, p0, rho, w1, p, d, T=None, Ks=None):
    r"""The best guarantee on E[P(w_o)] - P* that each result gives for T iterations when its parameter is tuned
    for that T: Theorem 3 case (14) at Lemma 7's eta*(T) (the exact minimum h(eta*), not Lemma 7's upper bound on
    it), and Proposition 4 at its best K, :math:`\min_K KP^\star + rac{(1+K)^2}{K}rac{lpha\gamma}{T}`.

    The second is the first with P* in the place of P(0): :math:`\eta = K/(lpha(1+K))` runs over (0, 1/alpha) as
    K runs over (0, inf), and the bound at that step size is Lemma 7's h with P* for P(0), so the best K is Lemma 7's
    eta* for P* and the minimum is computed exactly that way.  ``Ks`` (optional) minimizes over that grid of K
    instead.  Returns (T, theorem3, prop4)."""
    T = np.logspace(1, 9, 161) if T is None else np.asarray(T, dtype=np.float64)
    thm3 = _lemma7_min(p0, T, rho, w1, p, d)
    if Ks is None:
        prop4 = _lemma7_min(p_star, T, rho, w1, p, d)
    else:
        Ks = np.asarray(Ks, dtype=np.float64)
        prop4 = np.min([np.asarray(sst.smidas_prop4_bound(K, T, rho, w1, p_star, p, d)) - p_star for K in Ks],
                       axis=0)
    return T, thm3, prop4


def guarantee_iterations(eps, p_star, p0, rho, w1, p, d):
    r"""(T3, T4): the iterations after which the two guarantees of :func:`guarantee_curves`, Theorem 3 case (14)
    at Lemma 7's eta*(T) and Proposition 4 at its best K, reach E[P(w_o)] - P* <= ``eps``, as real numbers >= 1
    (each guarantee falls continuously with T; the root is found to about 1e-13 in log10 T).

    Below the accuracy P* both guarantees fall as 1/sqrt(T), with P* and P(0) in their constants, so T3/T4 grows as
    eps falls and tends to P(0)/P*."""
    from scipy.optimize import brentq

    if not eps > 0:
        raise ValueError(f"eps must be positive, got {eps}")

    def solve(c):
        def f(x):
            return float(_lemma7_min(c, 10.0 ** x, rho, w1, p, d)[0]) - eps
        lo, hi = 0.0, 6.0                    # T >= 1: the results are about at least one iteration
        if f(lo) <= 0:
            return 1.0
        while f(hi) > 0:
            hi += 6.0
        return 10.0 ** brentq(f, lo, hi, xtol=1e-13, rtol=1e-13)

    return solve(p0), solve(p_star)


@lru_cache(maxsize=32)
def _guarantee_curves(p_star, p0, rho, w1, p, d):
    """:func:`guarantee_curves` on its default grids, cached (it depends on λ only)."""
    return guarantee_curves(p_star, p0, rho, w1, p, d)


@_style.book_figure
def prop4_figure(Ks=(0.1, 1.0, 4.0), lam=0.01, T=30_000, n_seeds=10, figsize=(8.0, 9.6), fig=None) -> Figure:
    """Proposition 4 as a Figure.  Top: E[P(w_o)] (mean and min-max band over seeds) for each K against its
    bound (1+K)P* + (1+K)^2/K * ab/T (dashed), with P* and P(0) marked.  Bottom: the guarantees alone, far beyond
    the runs: the excess E[P(w_o)] - P* that Theorem 3 (14) and Proposition 4 guarantee after T iterations,
    each with its parameter tuned for that T (:func:`guarantee_curves`).  Log-log axes."""
    data = prop4_data(Ks, lam, T, n_seeds)
    W, H = figsize
    legend_rows = 2 * len(data.runs) + 3                 # the legend below the top panel: one column
    gap = 0.75 + 0.24 * legend_rows
    low_h = 0.42 * (H - 0.6 - 0.35 - 0.3 - gap)          # the bottom panel, its title 0.3 in above it
    low_y, top_y = 0.6, 0.6 + low_h + 0.3 + gap
    rects = [(0.85, top_y, W - 1.0, H - 0.35 - top_y), (0.85, low_y, W - 1.0, low_h)]
    fig, (ax, ax2) = _inch_axes(fig, figsize, rects, "prop4")
    for k, K in enumerate(data.runs):
        r = data.runs[K]
        keep = r.iteration > 0
        x = r.iteration[keep]
        obj = r.objective[:, keep]
        # every curve is a SMIDAS run: shades of its colour, lighter for small K, darker for large K
        color = _style.shade("SMIDAS", 0.0 if len(data.runs) == 1 else -0.5 + k / (len(data.runs) - 1))
        ax.fill_between(x, obj.min(axis=0), obj.max(axis=0), color=color, alpha=0.2, lw=0)
        ax.plot(x, obj.mean(axis=0), color=color, lw=2, label=f"K = {K:g} (η = {data.etas[K]:.3g}): "
                                                               f"mean of {r.n_seeds} seeds")
        ax.plot(x, data.bounds[K][keep], color=color, ls="--", lw=1.3,
                label=f"K = {K:g}: $(1+K)P^\\star + (1+K)^2\\alpha\\gamma/(KT)$")
    it = next(iter(data.runs.values())).iteration
    ax.plot(it[it > 0], data.theorem3[it > 0], color="k", ls="-.", lw=1.3,
            label=r"$P^\star$ + Theorem 3 (self-bounded case), $\eta$ tuned for each $T$")
    ax.axhline(data.p_star, color="k", lw=1, label=f"$P^\\star$ = {data.p_star:.4f}")
    ax.axhline(data.p0, color="0.5", ls=":", lw=1, label=f"$P(0)$ = {data.p0:.3f}")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("iterations $T$")
    ax.set_ylabel(r"$P(w_o)$")
    ax.set_ylim(0.5 * data.p_star, 20.0 * data.p0)
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize=9, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=1)
    ax.set_title(f"squared loss, MAGIC04S-like regression: d = {data.problem.d}, m = {data.problem.m}, "
                 f"λ = {lam:g}, ρ = {data.rho:g}", fontsize=9)

    w1 = float(np.abs(data.w_star).sum())
    Tg, thm3, prop4 = _guarantee_curves(data.p_star, data.p0, data.rho, w1, data.p, data.problem.d)
    ax2.plot(Tg, thm3, color="k", ls="-.", lw=1.5, label=r"Theorem 3 (self-bounded case), $\eta^\star(T)$")
    ax2.plot(Tg, prop4, color=ALGORITHM_COLORS["SMIDAS"], lw=2, ls="--", label=r"Proposition 4, best $K$ for each $T$")
    ax2.axhline(data.p_star, color="k", lw=1, label=r"$\varepsilon = P^\star$")
    ax2.axvline(T, color="0.6", ls=":", lw=1, label=f"T of the runs ({T:,})")
    ax2.set_xscale("log")
    ax2.set_yscale("log")
    ax2.set_ylim(1e-4, 20.0 * data.p0)
    ax2.set_xlabel("iterations $T$")
    ax2.set_ylabel(r"guaranteed $\mathbb{E}[P(w_o)] - P^\star$")
    ax2.grid(True, which="major", alpha=0.3)
    ax2.legend(fontsize=9, loc="lower left")
    ax2.set_title("the two guarantees, each with its parameter tuned for each T", fontsize=9)
    return fig


def prop4_demo(ahead=True, **defaults):
    """Live Proposition 4 demo: K (log slider), λ, T and the number of seeds, redrawing :func:`prop4_figure`
    for one K, starting from :data:`PROP4_LIVE` (K = 1, T = 10,000, 5 seeds).

    With ``ahead`` (default), the first display also computes every position of the K slider (:data:`K_GRID`)
    and of the T and seeds sliders, the others at their starting values (a few seconds), so these moves only
    redraw; a new λ computes what it shows (a few tenths of a second), and a setting seen before is a lookup."""
    import ipywidgets as widgets

    v = dict(PROP4_LIVE, **defaults)
    lim = PROP4_LIMITS
    for name in ("K", "lam", "n_seeds"):
        check_range(name, v[name], lim)
    check_choice("T", v["T"], lim["T"])
    controls = dict(
        K=log_slider(widgets, v["K"], *lim["K"], description="K"),
        lam=log_slider(widgets, v["lam"], *lim["lam"], description="λ"),
        T=widgets.SelectionSlider(options=list(lim["T"]), value=v["T"], description="T", continuous_update=False),
        n_seeds=widgets.IntSlider(value=v["n_seeds"], min=lim["n_seeds"][0], max=lim["n_seeds"][1],
                                  description="seeds", continuous_update=False),
    )
    controls["K"].readout_format = ".2g"

    def figure(K, fig=None, **kw):
        return prop4_figure(Ks=(K,), fig=fig, **kw)

    if ahead:
        start = {k: c.value for k, c in controls.items()}
        seeds = range(lim["n_seeds"][0], lim["n_seeds"][1] + 1)
        _compute_ahead(lambda K, **kw: prop4_data(Ks=(K,), **kw), start, dict(K=K_GRID, T=lim["T"], n_seeds=seeds))

    return wire(controls, figure, [["K", "lam"], ["T", "n_seeds"]])


def prop4_player(**static):
    """The Proposition 4 demo for the HTML book: :func:`prop4_demo` precomputed over :data:`PROP4_STATIC`."""
    return static_player(prop4_demo(ahead=False), **dict(PROP4_STATIC, **static))
