r"""The figures and widgets of the chapter "Projecting onto the l1 ball" (Duchi, Shalev-Shwartz, Singer & Chandra,
ICML 2008).

Same three layers as :mod:`l1lab.book.scd`: a cached *data* function, a *figure* function returning a
``matplotlib.figure.Figure`` (not managed by pyplot), and a *widget* (ipywidgets imported inside it).

* :func:`lemma_checks`, :func:`weighted_ball_check` -- Lemmas 1-3 and the weighted-ball formula checked on
  random vectors (KKT residuals, every projection method, an independent bisection);
* :func:`geometry_figure` / :func:`geometry_demo` -- the 2-d l1 ball with the regions whose projection has one
  or two nonzeros, and the 3-d simplex with points and their projections;
* :func:`tree_snapshot` / :func:`tree_figure` -- the AVL tree of :class:`l1lab.projections.sparse.
  SparseL1BallProjector` after a sparse step, with the descent of Figure 3 and the entries the projection drops;
* :func:`projection_timing_data`, :func:`tree_timing_data` / :func:`timing_figure` / :func:`timing_demo` --
  wall-clock time of the dense projections against n, and of one sparse update (tree vs dense re-projection),
  as one panel each (``panels``: the first lecture shows the dense one, the second the tree) or both stacked;
* :func:`synthetic_data` / :func:`synthetic_figure` / :func:`synthetic_demo` -- the synthetic experiments of
  Section 7 (Figs. 4-5): projected gradient variants and coordinate descent against approximate flops;
* :func:`eg_vs_pg_data` / :func:`eg_vs_pg_figure` / :func:`eg_vs_pg_demo` -- stochastic EG against stochastic
  projected gradient on sparse high-dimensional data (the story of Fig. 6);
* :func:`sparse_pg_check` -- stochastic projected gradient with the tree gives the iterates of the dense
  solver :func:`l1lab.solvers.projected_gradient`;
* the *static players* (:func:`geometry_player`, :func:`timing_player`, :func:`synthetic_player`,
  :func:`eg_vs_pg_player`): each live demo precomputed over its grid (:data:`GEOMETRY_STATIC`,
  :data:`TIMING_STATIC`, :data:`SYNTHETIC_STATIC`, :data:`EG_STATIC`) by :func:`l1lab.book.static.static_player`,
  which works in the HTML book without a kernel (the timing player's frames are the measurements taken when the
  page is built).

Timings are measured when first asked for (best of the calls that fit in :data:`TIMING_BUDGET`, once per size
and session) and differ between machines; nothing else here depends on the clock.  Every timing is taken with
:mod:`l1lab.book.timing`, after an untimed warm-up call of the same code on the same vector or state, so that it
never includes numba's compilation (which, for the long-vector path of Condat's method, happens only when the
first vector of 65,536 entries or more arrives).

The figures are at most 8 inches wide with no text below 9 pt (:data:`FONT`), and their panels are stacked rather
than side by side (except the geometry figure's two square panels), so that they read at the page's width.

The figure functions of the live demos take ``fig=None``: handed a figure they returned before, they redraw it
in place (:func:`l1lab.book.live.figure_axes`), as the demos do at every move; their layouts are fixed margins, not a
layout engine, so that a redraw needs no layout pass.  Every data function runs with one BLAS thread, and the
slider ranges keep every setting, including the largest, to a few seconds on a 2-core machine
(``tests/test_book_projections.py`` runs the largest ones).  The demos start at settings where a move answers
in a fraction of a second.
"""
from __future__ import annotations

import copy
import math
from dataclasses import dataclass
from functools import lru_cache, partial

import numpy as np
from matplotlib.figure import Figure
from threadpoolctl import threadpool_limits

from ..data.synthetic import make_classification, scale_features
from ..problem import Problem
from ..projections import (
    METHODS,
    l1_ball_threshold,
    project_l1_ball,
    project_simplex,
    project_weighted_l1_ball,
    simplex_threshold,
)
from ..projections import sparse as _sp
from ..projections.sparse import SparseL1BallProjector
from ..solvers import exponentiated_gradient, projected_gradient, reference_solution, scd, working_set_cd
from ..solvers.projected import PROJECTION_FLOPS_PER_ENTRY, project_inplace, psg_chunk
from ..theory import duchi2008 as dssc
from ..trace import Result, Trace, TraceRecorder, log_checkpoints
from . import style as _style
from .controls import check_choice, check_range, log_slider, wire
from .live import figure_axes
from .plotting import default_floor, plot_objective_and_nnz
from .static import static_player
from .timing import Clock, best_of, warm_up

__all__ = [
    "EG_DEFAULTS", "EG_LIMITS", "EG_STATIC", "GEOMETRY_DEFAULTS", "GEOMETRY_LIMITS", "GEOMETRY_STATIC",
    "STEP_CONSTANTS", "SYNTHETIC_DEFAULTS", "SYNTHETIC_LIMITS", "SYNTHETIC_LIVE_LOSSES", "SYNTHETIC_STATIC",
    "SYNTHETIC_STATIC_N", "TIMING_BUDGET", "TIMING_DEFAULTS", "TIMING_LIMITS", "TIMING_LIVE_MAX_N", "TIMING_PANELS",
    "TIMING_REPEATS", "TIMING_STATIC", "ball_region_polygons", "ball_regions_2d", "eg_vs_pg_data", "eg_vs_pg_demo",
    "eg_vs_pg_figure", "eg_vs_pg_player", "geometry_demo", "geometry_figure", "geometry_player", "lemma_checks",
    "paper_synthetic_problem", "projection_timing_data", "sparse_pg_check", "sparse_text_like_problem",
    "SyntheticCurves", "synthetic_curves", "synthetic_data", "synthetic_demo", "synthetic_figure", "synthetic_player",
    "timing_demo", "timing_figure", "timing_player", "tree_figure", "tree_snapshot", "tree_timing_data",
    "weighted_ball_check",
]

LOSSES = ("squared", "logistic")
METHOD_COLORS = {"sort": "C0", "pivot": "C1", "condat": "C2"}
#: the smallest text of the chapter's figures (points): readable at the page's width
FONT = 9

#: geometry demo: the radius and the point v = (v1, v2) projected onto the 2-d ball
GEOMETRY_DEFAULTS = dict(z=1.0, v1=1.6, v2=0.9)
GEOMETRY_LIMITS = dict(z=(0.25, 2.0), v1=(-2.5, 2.5), v2=(-2.5, 2.5))
#: the static player of the geometry demo: the radii the chapter discusses, from 1/4 to 2 (a frame of both panels
#: draws for about half a second, so six radii), the live start's point v = (1.6, 0.9), which moves from an edge
#: to a vertex between z = 0.75 and 0.5, and v = (1.6, 0.2), which lands inside the ball, on an edge or on a
#: vertex as z shrinks; v1 stays at the start
GEOMETRY_STATIC = dict(grid=dict(z=(0.25, 0.5, 0.75, 1.0, 1.5, 2.0), v1=(1.6,), v2=(0.2, 0.9)), name="proj-geometry")

#: timing demo: the largest n, the nonzeros k of a sparse step, the radius as a fraction of ||v||_1
TIMING_DEFAULTS = dict(max_n=1_000_000, k=100, z_frac=0.1, seed=0)
TIMING_LIMITS = dict(max_n=(10_000, 100_000, 1_000_000, 10_000_000), k=(10, 100, 1000), z_frac=(0.01, 0.1, 0.5))
#: the live timing demo's largest n (10^7 takes several seconds to measure: for the functions, not the widget)
TIMING_LIVE_MAX_N = (10_000, 100_000, 1_000_000)
#: seconds of repeated calls behind one timing (a projection: best of the calls; a sparse step: their mean)
TIMING_BUDGET = 0.01
#: the fewest timed calls behind the timing of one projection (the best of them: the least disturbed by the
#: machine's other work), after the untimed warm-up call
TIMING_REPEATS = 3
#: the static player of the timing demo: every position of its controls (the largest n, and the radius or k: three
#: each, nine frames per panel), the measurements the live widget takes when it is built; the page's name gets
#: the panels (``proj-timing-dense``, ``proj-timing-tree``)
TIMING_STATIC = dict(grid=dict(), name="proj-timing")

#: synthetic experiments (Figs. 4-5): n = m, lambda = lam_frac * lambda_max for the radius, the budget in
#: passes (one pass = one full gradient, 4 nnz(X) flops), and a common multiplier of the eta0/sqrt(t) steps
#: (the live demo's: one loss at n = 200, so that a move answers in a fraction of a second; the chapter's
#: figures have n = 800 and 4000, both losses)
SYNTHETIC_DEFAULTS = dict(loss="squared", n=200, lam_frac=0.1, passes=100, step_mult=1.0, seed=0)
#: the live demo's loss choices: one loss, or both side by side
SYNTHETIC_LIVE_LOSSES = ("squared", "logistic", "both")
SYNTHETIC_LIMITS = dict(n=(200, 400, 800), lam_frac=(0.05, 0.5), passes=(20, 150), step_mult=(0.01, 100.0))
#: the static player of the synthetic demo: the step multiplier half a decade apart from 0.1 to 10 (the chapter's
#: question multiplies every eta0 by 10) at the live start's n = 200 and at the chapter's n = 800, on the squared
#: loss (the question's; the logistic loss at n = 800 alone computes for about 7 s, too long for the page's
#: build); lambda/lambda_max and the budget at the live start
SYNTHETIC_STATIC = dict(grid=dict(loss=("squared",), n=(200, 800), lam_frac=(0.1,), passes=(100,),
                                  step_mult=(0.1, 10 ** -0.5, 1.0, 10 ** 0.5, 10.0)), name="proj-synthetic")

#: eta0 = c / (curvature scale): batch and line search in units of 1/L, L = beta ||X||_2^2/m; stochastic and
#: mini-batch in units of 1/R, R = beta mean_i ||x_i||_2^2.  The constants are the best of a grid in factors
#: of about 3 at n = 400, 800 and 1600 for both losses (the best c did not move with n).
#: sizes computed for the static page only (the paper's n = m = 4000 takes about a minute, not seconds)
SYNTHETIC_STATIC_N = (4000,)
STEP_CONSTANTS = {"batch": 8.0, "line search": 64.0, "stochastic": 10.0, "mini-batch": 30.0}
MINIBATCH = 10

#: EG against projected gradient on sparse data: examples m, features d, density of X, lambda fraction for the
#: radius, budget in epochs (passes over the examples); step sizes tuned on the grids below.  The live demo
#: starts at the smallest m and d and 5 epochs (a move answers in a fraction of a second; the chapter's figure
#: has m = 1000, d = 5000 and 10 epochs, about 2 s)
EG_DEFAULTS = dict(m=200, d=1000, density=0.01, lam_frac=0.4, epochs=5, seed=0)
EG_LIMITS = dict(m=(200, 2000), d=(1000, 10000), density=(0.005, 0.01, 0.02), lam_frac=(0.2, 0.8),
                 epochs=(1, 10), work=5e7)
#: the static player of the EG demo: the live start's size (m = 200, d = 1000) and the chapter's figure's
#: (m = 1000, d = 5000), crossed, with 1, 5 and 10 epochs (the chapter's question compares 1 and 10); the density
#: and lambda/lambda_max at the live start (each other value is a new problem and new runs for every frame)
EG_STATIC = dict(grid=dict(m=(200, 1000), d=(1000, 5000), density=(0.01,), lam_frac=(0.4,), epochs=(1, 5, 10)),
                 name="proj-eg-vs-pg")
PG_ETA_GRID = (0.1, 0.3, 1.0)
EG_ETA_GRID = (0.1, 0.3, 1.0, 3.0)

#: the projected gradient variants in shades of the book's projected-gradient orange, coordinate descent (SCD) in
#: shades of SCD's blue (l1lab.book.style)
SYNTHETIC_COLORS = {"batch": _style.shade("projected gradient", 0.45),
                    "line search": _style.shade("projected gradient", 0.75),
                    "stochastic": _style.shade("projected gradient", 0.0),
                    "mini-batch": _style.shade("projected gradient", -0.5),
                    "coordinate descent": _style.shade("SCD", -0.5),
                    "coordinate descent, data β": _style.shade("SCD", 0.0)}
EG_COLORS = {name: _style.ALGORITHM_COLORS[name] for name in ("projected gradient", "EG±")}


# ============================================================================================ lemma checks
def lemma_checks(n_vectors=400, n=40, seed=0):
    r"""Lemmas 1-3 of Duchi et al. (2008) on ``n_vectors`` random vectors of length ``n`` (half of them with
    many ties: integer entries), each with a random radius.  Returns a dict of worst cases over all vectors:

    * ``lemma1``: :func:`l1lab.theory.duchi2008.lemma1_violation` of the simplex projection (0 = holds);
    * ``lemma2_rho``: number of vectors whose Lemma 2 support size differs from the nonzeros of the projection;
    * ``lemma2_theta``: max |theta of Lemma 2 - theta of each method| / max(1, |theta|);
    * ``kkt``: max over vectors of the simplex KKT residual (sum w = z, w >= 0, w_i = v_i - theta on the
      support, v_i <= theta off it), relative to max(1, ||v||_inf);
    * ``methods``: max |w_sort - w_method| over the other methods;
    * ``lemma3``: :func:`l1lab.theory.duchi2008.lemma3_violation` of the ball projection;
    * ``reduction``: max |Pi_ball(v) - sign(v) Pi_simplex(|v|)| over vectors outside the ball.
    """
    rng = np.random.default_rng(seed)
    out = dict(lemma1=0.0, lemma2_rho=0, lemma2_theta=0.0, kkt=0.0, methods=0.0, lemma3=0.0, reduction=0.0,
               n_vectors=int(n_vectors), n=int(n))
    for t in range(int(n_vectors)):
        if t % 2:
            v = rng.integers(-3, 4, size=n).astype(np.float64)  # ties
        else:
            v = rng.standard_normal(n) * rng.uniform(0.1, 10.0)
        z = float(rng.uniform(0.05, 2.0) * max(np.abs(v).max(), 1.0))
        ws = {m: project_simplex(v, z, method=m, seed=t) for m in METHODS}
        w = ws["sort"]
        out["lemma1"] = max(out["lemma1"], dssc.lemma1_violation(v, w))
        rho = dssc.simplex_support_size(v, z)
        out["lemma2_rho"] += int(rho != np.count_nonzero(w))
        th = dssc.simplex_theta(v, z)
        for m in METHODS:
            out["lemma2_theta"] = max(out["lemma2_theta"],
                                      abs(th - simplex_threshold(v, z, method=m, seed=t)) / max(1.0, abs(th)))
            out["methods"] = max(out["methods"], float(np.abs(ws[m] - w).max()))
        supp = w > 0
        scale = max(1.0, float(np.abs(v).max()))
        kkt = max(abs(w.sum() - z), float(np.maximum(-w, 0).max()),
                  float(np.abs(w[supp] - (v[supp] - th)).max()) if supp.any() else 0.0,
                  float(np.maximum(v[~supp] - th, 0).max()) if (~supp).any() else 0.0)
        out["kkt"] = max(out["kkt"], kkt / scale)
        zb = float(rng.uniform(0.05, 1.5) * np.abs(v).sum())
        wb = project_l1_ball(v, zb)
        out["lemma3"] = max(out["lemma3"], dssc.lemma3_violation(v, wb))
        if np.abs(v).sum() > zb:
            out["reduction"] = max(out["reduction"],
                                   float(np.abs(wb - np.sign(v) * project_simplex(np.abs(v), zb)).max()))
    return out


def _weighted_theta_bisection(u, a, z, iters=200):
    """theta >= 0 with sum_i a_i max(u_i - theta a_i, 0) = z, by bisection (an independent check)."""
    lo, hi = 0.0, float(np.max(u / a))
    for _ in range(iters):
        mid = 0.5 * (lo + hi)
        if float(a @ np.maximum(u - mid * a, 0.0)) > z:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def weighted_ball_check(n_vectors=200, n=30, seed=0):
    r"""The weighted l1 ball :math:`\sum_i a_i|w_i| \le z` (:func:`l1lab.projections.project_weighted_l1_ball`)
    against its KKT conditions and an independent bisection for theta.  Returns worst cases over the vectors:
    ``constraint`` (|sum a|w| - z| for v outside), ``bisection`` (max |w - w_bisection|), ``sign`` (entries
    with w_i v_i < 0), ``unit_weights`` (max |weighted with a = 1 - project_l1_ball|)."""
    rng = np.random.default_rng(seed)
    out = dict(constraint=0.0, bisection=0.0, sign=0, unit_weights=0.0, n_vectors=int(n_vectors), n=int(n))
    for _ in range(int(n_vectors)):
        v = rng.standard_normal(n) * rng.uniform(0.5, 5.0)
        a = rng.uniform(0.1, 3.0, n)
        z = float(rng.uniform(0.05, 1.2) * (a @ np.abs(v)))
        w = project_weighted_l1_ball(v, a, z)
        outside = a @ np.abs(v) > z
        if outside:
            out["constraint"] = max(out["constraint"], abs(float(a @ np.abs(w)) - z) / max(1.0, z))
            th = _weighted_theta_bisection(np.abs(v), a, z)
            wb = np.sign(v) * np.maximum(np.abs(v) - th * a, 0.0)
            out["bisection"] = max(out["bisection"], float(np.abs(w - wb).max()))
        out["sign"] += int(np.sum(w * v < 0))
        zu = float(rng.uniform(0.05, 1.2) * np.abs(v).sum())
        out["unit_weights"] = max(out["unit_weights"],
                                  float(np.abs(project_weighted_l1_ball(v, np.ones(n), zu)
                                               - project_l1_ball(v, zu)).max()))
    return out


# ================================================================================================ geometry
def ball_regions_2d(v1, v2, z):
    r"""Where a point of the plane lands when projected onto the 2-d l1 ball of radius z (vectorized):
    0 inside the ball (the projection is the point itself), 1 on a vertex (one nonzero), 2 on an edge (two
    nonzeros).  Lemma 2 with n = 2: outside the ball, with mu_1 >= mu_2 the sorted |v_i|, the support has two
    entries iff mu_2 > (mu_1 + mu_2 - z)/2, i.e. iff mu_1 - mu_2 < z."""
    a1, a2 = np.abs(np.asarray(v1, dtype=np.float64)), np.abs(np.asarray(v2, dtype=np.float64))
    inside = a1 + a2 <= z
    two = np.abs(a1 - a2) < z
    return np.where(inside, 0, np.where(two, 2, 1))


_EXAMPLES_2D = ((1.7, 0.2), (-0.4, 1.9), (-1.6, -1.2), (0.9, -1.5), (-2.2, 0.5), (0.3, 0.3))


REGION_COLORS = ("#f2f2f2", "#f6c89f", "#bcd7ee")  # inside, one nonzero (a vertex), two nonzeros (an edge)
_LIM_2D = 2.6


def ball_region_polygons(z, lim=_LIM_2D):
    r"""The regions of :func:`ball_regions_2d` in the square [-lim, lim]^2 as exact polygons (needs z < lim):
    a dict with ``0``: [the ball] and ``2``: [the four bands ||v_1| - |v_2|| < z outside the ball, one per
    quadrant]; the rest of the square (the four wedges around the axes) is region 1.  Each polygon is an array
    of (w_1, w_2) vertices."""
    z = float(z)
    bands = [np.array([[sx * z, 0.0], [sx * lim, sy * (lim - z)], [sx * lim, sy * lim], [sx * (lim - z), sy * lim],
                       [0.0, sy * z]]) for sx in (1.0, -1.0) for sy in (1.0, -1.0)]
    ball = np.array([[z, 0.0], [0.0, z], [-z, 0.0], [0.0, -z]])
    return {0: [ball], 2: bands}


def _draw_ball_2d(ax, z, v):
    from matplotlib.patches import Polygon, Rectangle

    lim = _LIM_2D
    # the regions as exact polygons (the same partition as ball_regions_2d): wedges, then bands, then the ball
    ax.add_patch(Rectangle((-lim, -lim), 2 * lim, 2 * lim, facecolor=REGION_COLORS[1], lw=0, zorder=0))
    polys = ball_region_polygons(z, lim)
    for region in (2, 0):
        for xy in polys[region]:
            ax.add_patch(Polygon(xy, closed=True, facecolor=REGION_COLORS[region], lw=0, zorder=0))
    ball = np.array([[z, 0], [0, z], [-z, 0], [0, -z], [z, 0]])
    ax.plot(ball[:, 0], ball[:, 1], color="k", lw=1.8)
    ax.plot([z, 0], [0, z], color="C3", lw=3, alpha=0.8, label=r"the simplex $w \geq 0$, $w_1 + w_2 = z$")
    for p in _EXAMPLES_2D:
        w = project_l1_ball(np.array(p), z)
        ax.annotate("", xy=w, xytext=p, arrowprops=dict(arrowstyle="->", color="0.35", lw=1))
        ax.plot(*p, "o", color="0.35", ms=3)
    v = np.asarray(v, dtype=np.float64)
    w = project_l1_ball(v, z)
    th = l1_ball_threshold(v, z)
    ax.annotate("", xy=w, xytext=v, arrowprops=dict(arrowstyle="->", color="k", lw=2))
    ax.plot(*v, "ko", ms=6, label=f"v = ({v[0]:.2f}, {v[1]:.2f})")
    ax.plot(*w, "o", color="C3", ms=7, mec="k",
            label=rf"$\Pi(v)$ = ({w[0]:.3f}, {w[1]:.3f}), $\theta$ = {th:.3f}")
    ax.set_xlim(-lim, lim)
    ax.set_ylim(-lim, lim)
    ax.set_aspect("equal")
    ax.axhline(0, color="0.6", lw=0.6)
    ax.axvline(0, color="0.6", lw=0.6)
    ax.set_xlabel("$w_1$")
    ax.set_ylabel("$w_2$")
    from matplotlib.patches import Patch
    handles, labels = ax.get_legend_handles_labels()
    handles += [Patch(color=REGION_COLORS[1]), Patch(color=REGION_COLORS[2])]
    labels += ["lands on a vertex: 1 nonzero", "lands on an edge: 2 nonzeros"]
    ax.legend(handles, labels, fontsize=FONT, loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=1)
    ax.set_title(f"ℓ₁ ball of radius z = {z:g} in " + r"$\mathbb{R}^2$", fontsize=10)


_EXAMPLES_3D = {"interior": (0.75, 0.6, 0.7), "edge": (1.1, 0.7, -0.4), "vertex": (1.5, 0.1, -0.2)}
_ARTICLE = {"interior": "the", "edge": "an", "vertex": "a"}


def _draw_simplex_3d(ax, z):
    tri = z * np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 0, 0]], dtype=float)
    from mpl_toolkits.mplot3d.art3d import Poly3DCollection

    ax.add_collection3d(Poly3DCollection([tri[:3]], alpha=0.25, facecolor="C3", edgecolor="C3"))
    ax.plot(tri[:, 0], tri[:, 1], tri[:, 2], color="C3", lw=1.5)
    for k, (what, p) in enumerate(_EXAMPLES_3D.items()):
        v = z * np.array(p)
        w = project_simplex(v, z)
        th = simplex_threshold(v, z)
        c = f"C{k}"
        ax.plot([v[0], w[0]], [v[1], w[1]], [v[2], w[2]], color=c, lw=1.5, ls="--")
        # markers drawn as lines (Line3D): far cheaper to build and draw than 3-d scatter collections
        ax.plot([v[0]], [v[1]], [v[2]], "o", color=c, ms=4.2)
        ax.plot([w[0]], [w[1]], [w[2]], "o", color=c, ms=6.3, mec="k", mew=1.0,
                label=f"to {_ARTICLE[what]} {what}: θ = {th:.2f}, {np.count_nonzero(w)} nonzero"
                      + ("s" if np.count_nonzero(w) > 1 else ""))
    for i in range(3):
        e = np.zeros(3)
        e[i] = 1.25 * z
        ax.plot([0, e[0]], [0, e[1]], [0, e[2]], color="0.5", lw=0.8)
    ax.set_xlabel("$w_1$", labelpad=-6)
    ax.set_ylabel("$w_2$", labelpad=-6)
    ax.set_zlabel("$w_3$", labelpad=-6)
    ticks = [0.0, z]
    ax.set_xticks(ticks)
    ax.set_yticks(ticks)
    ax.set_zticks(ticks)
    ax.tick_params(labelsize=FONT, pad=-2)
    ax.view_init(elev=22, azim=30)
    ax.legend(fontsize=FONT, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=1)
    ax.set_title(f"simplex of radius z = {z:g} in " + r"$\mathbb{R}^3$", fontsize=10)


def _geometry_axes(fig):
    """The two panels of :func:`geometry_figure`, the plane and the 3-d simplex, with fixed margins (those the
    constrained layout finds, with room for the legends below): no layout pass per redraw."""
    gs = fig.add_gridspec(1, 2, left=0.08, right=0.98, bottom=0.25, top=0.95, wspace=0.22)
    return fig.add_subplot(gs[0, 0]), fig.add_subplot(gs[0, 1], projection="3d")


def _geometry_axes_2d(fig):
    return fig.add_subplot(fig.add_gridspec(1, 1, left=0.12, right=0.97, bottom=0.3, top=0.95)[0, 0])


@_style.book_figure
def geometry_figure(z=1.0, v1=1.6, v2=0.9, simplex3d=True, figsize=(8.0, 5.6), fig=None) -> Figure:
    r"""Left: the l1 ball of radius z in the plane, shaded by where the projection of each point lands (inside:
    grey; a vertex, one nonzero: orange; an edge, two nonzeros: blue), arrows from sample points to their
    projections and the point (v1, v2) with its projection and theta.  Right (``simplex3d``): the simplex of
    radius z in R^3 with three points whose projections land in its interior, on an edge and on a vertex.
    ``fig``: a figure this function returned before, redrawn in place (:func:`l1lab.book.live.figure_axes`)."""
    for name, val in (("z", z), ("v1", v1), ("v2", v2)):
        check_range(name, val, GEOMETRY_LIMITS)
    if simplex3d:
        fig, (ax0, ax1) = figure_axes(fig, figsize, _geometry_axes, layout="none")
        _draw_simplex_3d(ax1, z)
        # forget the projection of the last draw, as on new 3-d axes (anything that measures the tick labels
        # before the next draw, a layout engine or a tight bounding box, would use the old limits' projection)
        ax1.M = None
    else:
        fig, ax0 = figure_axes(fig, (5.6, 5.6), _geometry_axes_2d, layout="none")
    _draw_ball_2d(ax0, z, (v1, v2))
    return fig


def geometry_demo(**defaults):
    """Live geometry demo: sliders for z, v1, v2 redrawing :func:`geometry_figure`."""
    import ipywidgets as widgets

    v = dict(GEOMETRY_DEFAULTS, **defaults)
    for name in ("z", "v1", "v2"):
        check_range(name, v[name], GEOMETRY_LIMITS)
    lim = GEOMETRY_LIMITS
    controls = {name: widgets.FloatSlider(value=v[name], min=lim[name][0], max=lim[name][1], step=0.05,
                                          description=label, continuous_update=False)
                for name, label in (("z", "z"), ("v1", "v₁"), ("v2", "v₂"))}

    return wire(controls, geometry_figure, [list(controls)])


def geometry_player(**static):
    """The geometry demo for the HTML book: :func:`geometry_demo` precomputed over :data:`GEOMETRY_STATIC`
    (``static`` overrides its entries) by :func:`l1lab.book.static.static_player`."""
    return static_player(geometry_demo(), **dict(GEOMETRY_STATIC, **static))


# ==================================================================================================== tree
@dataclass(frozen=True)
class TreeSnapshot:
    """The tree of a :class:`SparseL1BallProjector` holding v = w + g (after the k insertions of a step, before
    its projection), the descent of Figure 3 on it and the result.

    ``nodes``: {node: dict(j, key, mag, count, ksum, left, right, depth, x)} (key = |v_j| + Theta, mag = |v_j|,
    count and ksum over the node's subtree); ``path``: [(node, in_support)] in the order visited; ``theta``:
    the threshold the descent finds; ``theta_update``: what :meth:`SparseL1BallProjector.update` returned for
    the same step on the real projector; ``theta_dense``: :func:`l1lab.projections.l1_ball_threshold` of v."""

    nodes: dict
    root: int
    shift: float
    z: float
    path: list
    theta: float
    theta_update: float
    theta_dense: float
    step_indices: np.ndarray
    nnz_before: int
    nnz_after: int
    height: int


def _descent(I, F, root, z):
    """Figure 3's descent on the projector's arrays, recording the path (the same rule as
    ``l1lab.projections.sparse._pivot_search``).  Returns (path, p*, s*)."""
    x, p, s, pb, sb = root, 0, 0.0, 0, 0.0
    path = []
    while x != 0:
        r = I[x, _sp._R]
        key = F[x, _sp._K]
        p2 = p + I[r, _sp._C] + 1
        s2 = s + F[r, _sp._S] + key
        ok = bool(s2 - p2 * key < z)
        path.append((int(x), ok))
        if ok:
            pb, sb, p, s = p2, s2, p2, s2
            x = int(I[x, _sp._L])
        else:
            x = int(r)
    return path, pb, sb


@lru_cache(maxsize=8)
def _tree_snapshot(n, z, n_updates, k, seed):
    rng = np.random.default_rng(seed)
    P = SparseL1BallProjector(n, z)
    for _ in range(n_updates):
        idx = rng.choice(n, size=k, replace=False)
        P.update(idx, rng.standard_normal(k))
    nnz_before = P.nnz
    idx = np.sort(rng.choice(n, size=k, replace=False))
    val = rng.standard_normal(k)
    # the same step on a copy whose radius is infinite: it only inserts, so its tree holds v = w + g
    Q = copy.deepcopy(P)
    Q._z = math.inf
    Q.update(idx, val)
    v = Q.to_dense()
    I, F, root, shift = Q._I, Q._F, int(Q._st[_sp._ROOT]), float(Q._shift[0])
    path, pb, sb = _descent(I, F, root, z)
    theta = max(((sb - pb * shift) - z) / pb, 0.0) if pb else float("nan")
    theta_update = P.update(idx, val)
    nodes = {}

    def walk(x, depth):
        if x == 0:
            return
        walk(int(I[x, _sp._L]), depth + 1)
        nodes[x] = dict(j=int(I[x, _sp._J]), key=float(F[x, _sp._K]), mag=float(F[x, _sp._K] - shift),
                        count=int(I[x, _sp._C]), ksum=float(F[x, _sp._S]), left=int(I[x, _sp._L]),
                        right=int(I[x, _sp._R]), depth=depth, x=len(nodes))
        walk(int(I[x, _sp._R]), depth + 1)

    walk(root, 0)
    return TreeSnapshot(nodes=nodes, root=root, shift=shift, z=float(z), path=path, theta=theta,
                        theta_update=theta_update, theta_dense=l1_ball_threshold(v, z), step_indices=idx,
                        nnz_before=nnz_before, nnz_after=P.nnz, height=int(I[root, _sp._H]))


def tree_snapshot(n=60, z=4.0, n_updates=8, k=6, seed=8) -> TreeSnapshot:
    """Run ``n_updates`` sparse steps (k random coordinates, N(0, 1) values) of a
    :class:`SparseL1BallProjector` (dimension n, radius z), then one more step, and return its tree just
    before the projection of that step (see :class:`TreeSnapshot`).  Cached."""
    if not (1 <= k <= n <= 1000):
        raise ValueError(f"need 1 <= k <= n <= 1000 (the picture is for small trees), got k={k}, n={n}")
    if not (z > 0 and math.isfinite(z)):
        raise ValueError(f"z must be a finite number > 0, got {z}")
    return _tree_snapshot(int(n), float(z), int(n_updates), int(k), int(seed))


@_style.book_figure
def tree_figure(n=60, z=4.0, n_updates=8, k=6, seed=8, figsize=(8.0, 5.4)) -> Figure:
    """The AVL tree of :func:`tree_snapshot`: one node per nonzero of v = w + g, ordered by magnitude (in-order
    from left to right), labelled with its coordinate j (``*``: touched by the step) and |v_j|, and under it the
    subtree count c and key sum Σ that the descent uses.  The descent of Figure 3 of the paper is drawn in red
    (solid: the node is in the support, go left; dashed: it is not, go right); the nodes the projection then
    removes are grey."""
    snap = tree_snapshot(n, z, n_updates, k, seed)
    fig = Figure(figsize=figsize, layout="constrained")
    ax = fig.add_subplot()
    on_path = dict(snap.path)
    new = set(snap.step_indices.tolist())
    for x, nd in snap.nodes.items():
        for c in (nd["left"], nd["right"]):
            if c:
                ch = snap.nodes[c]
                red = x in on_path and c in on_path and (
                    (c == nd["left"] and on_path[x]) or (c == nd["right"] and not on_path[x]))
                ax.plot([nd["x"], ch["x"]], [-nd["depth"], -ch["depth"]], color="C3" if red else "0.6",
                        lw=2.5 if red else 1, zorder=1)
    for x, nd in snap.nodes.items():
        kept = nd["mag"] > snap.theta
        face = "#bcd7ee" if kept else "0.85"
        edge = "C3" if x in on_path else "k"
        ls = "-" if x not in on_path or on_path[x] else "--"
        ax.scatter(nd["x"], -nd["depth"], s=1500, color=face, edgecolor=edge, lw=2.2 if x in on_path else 1,
                   linestyle=ls, zorder=2)
        ax.text(nd["x"], -nd["depth"] + 0.1, f"{nd['j']}" + ("*" if nd["j"] in new else ""), ha="center",
                va="center", fontsize=FONT, fontweight="bold", zorder=3)
        ax.text(nd["x"], -nd["depth"] - 0.1, f"{nd['mag']:.2f}", ha="center", va="center", fontsize=FONT,
                zorder=3, color="k" if kept else "0.4")
        ax.text(nd["x"], -nd["depth"] - 0.43, f"{nd['count']}, {nd['ksum']:.1f}", ha="center", va="center",
                fontsize=FONT, color="0.3", zorder=3)
    ax.set_xlim(-0.7, len(snap.nodes) - 0.3)
    ax.set_ylim(-snap.height + 0.45, 0.45)
    ax.axis("off")
    ax.set_title(f"v = w + g in the tree: {len(snap.nodes)} nonzeros (* = touched by the step), shift Θ = "
                 f"{snap.shift:.3f}, z = {snap.z:g}\ndescent (red): {len(snap.path)} nodes → θ = {snap.theta:.4f}; "
                 f"{snap.nnz_after} entries stay (blue), {len(snap.nodes) - snap.nnz_after} drop (grey)",
                 fontsize=10)
    return fig


# ================================================================================================= timing
def _sizes(max_n):
    e = np.arange(3.0, math.log10(max_n) + 1e-9, 0.5)
    return tuple(int(round(10 ** x)) for x in e)


def _check_timing(max_n, k, z_frac, live=False):
    check_choice("max_n", max_n, TIMING_LIVE_MAX_N if live else TIMING_LIMITS["max_n"])
    check_choice("k", k, TIMING_LIMITS["k"])
    check_choice("z_frac", z_frac, TIMING_LIMITS["z_frac"])


@dataclass(frozen=True)
class ProjectionTiming:
    sizes: tuple
    per_projection: dict  # method -> array of best-of-reps seconds per projection (timed by best_of)
    support: np.ndarray  # nonzeros of the projection at each size


@lru_cache(maxsize=None)
def _projection_cell(n, z_frac, seed):
    """({method: best seconds}, support size) at one n: a N(0, 1) vector of its own stream (seed, n), so that
    one measurement serves every max_n.  Each method is timed by :func:`l1lab.book.timing.best_of` after an
    untimed call on the same vector, which compiles every path the timed calls take (Condat's method compiles its
    long-vector path only when a vector of 65,536 entries or more first arrives)."""
    v = np.random.default_rng([int(seed), int(n)]).standard_normal(n)
    z = z_frac * float(np.abs(v).sum())
    secs, w = {}, None
    for m in METHODS:
        secs[m], w = best_of(partial(project_l1_ball, v, z, method=m), repeats=TIMING_REPEATS,
                             budget=TIMING_BUDGET, warmups=1)
    return secs, int(np.count_nonzero(w))


def projection_timing_data(max_n=1_000_000, z_frac=0.1, seed=0) -> ProjectionTiming:
    """Seconds per projection of a N(0, 1) vector of length n onto the l1 ball of radius z_frac ||v||_1, for
    n = 10^3, 10^3.5, ..., max_n and each method: after an untimed call on the same vector (which compiles every
    path the timed calls take), the best of repeated calls, at least :data:`TIMING_REPEATS`, then more while they
    have taken less than :data:`TIMING_BUDGET` seconds (at most 200).  Each n has its own vector (drawn from
    ``default_rng([seed, n])``) and is measured once per session and cached, so a larger max_n measures only the
    new sizes: the numbers are this machine's."""
    _check_timing(max_n, TIMING_DEFAULTS["k"], z_frac)
    sizes = _sizes(int(max_n))
    cells = [_projection_cell(n, float(z_frac), int(seed)) for n in sizes]
    return ProjectionTiming(sizes, {m: np.array([c[0][m] for c in cells]) for m in METHODS},
                            np.array([c[1] for c in cells]))


@dataclass(frozen=True)
class TreeTiming:
    sizes: tuple
    k: int
    tree: np.ndarray    # seconds per SparseL1BallProjector.update
    dense: np.ndarray   # seconds per dense step: w[idx] += g, then project_inplace (O(n))
    nnz: np.ndarray     # nonzeros of w at the end, per size
    max_diff: float     # max |tree - dense| over the coordinates, after the steps both timed


@lru_cache(maxsize=None)
def _tree_cell(n, k, seed, z, n_warm, n_timed):
    """(tree seconds per step, dense seconds per step, nnz at the end, max |tree - dense|) at one n."""
    rng = np.random.default_rng(seed)
    kk = min(k, n)
    steps = []

    def step(i):  # the i-th step (k random coordinates, N(0, 1) values), drawn in order, outside the timings
        while len(steps) <= i:
            steps.append((rng.choice(n, kk, replace=False), rng.standard_normal(kk)))
        return steps[i]

    P = SparseL1BallProjector(n, z)

    def warm_steps():  # the untimed steps before the timed ones, after a first step that compiles the kernels
        SparseL1BallProjector(n, z).update(*step(0))
        for i in range(n_warm):
            P.update(*step(i))

    tree_clock = Clock(warm_up=warm_steps)
    w = P.to_dense()
    # the dense step from the same state: add g, re-project all n coordinates (at least 5 steps, then more
    # while they have taken less than the budget), timed by a clock whose warm-up makes the first of these steps
    # on a copy of w
    absw = np.empty(n)

    def dense_step_on_a_copy():
        idx, val = step(n_warm)
        v = w.copy()
        v[idx] += val
        project_inplace(v, z, absw)

    clock = Clock(warm_up=dense_step_on_a_copy)
    n_dense = 0
    while n_dense < n_timed and (n_dense < 5 or clock.seconds < TIMING_BUDGET):
        idx, val = step(n_warm + n_dense)
        with clock:
            w[idx] += val
            project_inplace(w, z, absw)
        n_dense += 1
    dense = clock.seconds / n_dense
    # the same steps by the tree (and more while within the budget), on the clock that made the warm-up steps;
    # its iterate is compared with the dense one after the steps both took
    n_tree, max_diff = 0, math.nan
    while n_tree < n_timed and (n_tree < max(n_dense, 10) or tree_clock.seconds < TIMING_BUDGET):
        idx, val = step(n_warm + n_tree)
        with tree_clock:
            P.update(idx, val)
        n_tree += 1
        if n_tree == n_dense:
            max_diff = float(np.abs(P.to_dense() - w).max())
    return tree_clock.seconds / n_tree, dense, P.nnz, max_diff


def tree_timing_data(max_n=1_000_000, k=100, seed=0, z=30.0, n_warm=50, n_timed=200) -> TreeTiming:
    """Seconds per sparse projected step w <- Proj(w + g), g with k nonzeros (N(0, 1) values at random
    coordinates), radius z, in dimension n = 10^3, ..., max_n: by :class:`SparseL1BallProjector` and by the
    dense re-projection that :func:`l1lab.solvers.projected_gradient` does (add g, then :func:`project_inplace`,
    Condat's threshold), both from the state after ``n_warm`` warm-up steps.  Each is the mean over the next
    steps, as many as take :data:`TIMING_BUDGET` seconds (the dense one at least 5, the tree at least as many
    as the dense one and 10, both at most ``n_timed``); ``max_diff`` compares the two iterates after the steps
    both took.  Each n is measured once per session and cached."""
    _check_timing(max_n, k, TIMING_DEFAULTS["z_frac"])
    sizes = _sizes(int(max_n))
    cells = [_tree_cell(n, int(k), int(seed), float(z), int(n_warm), int(n_timed)) for n in sizes]
    return TreeTiming(sizes, int(k), np.array([c[0] for c in cells]), np.array([c[1] for c in cells]),
                      np.array([c[2] for c in cells]), max(c[3] for c in cells))


#: the margins of the timing figure (each panel's legend below it): one panel of 6.4 x 4.8 inches, or two stacked
#: panels of 7 x 9.6 inches
ONE_PANEL_MARGINS = dict(left=0.13, right=0.97, bottom=0.3, top=0.93)
TWO_ROW_MARGINS = dict(left=0.12, right=0.97, bottom=0.15, top=0.965, hspace=0.62)
#: timing panels: the dense projections (sort, pivot, Condat) and one sparse step (tree against dense)
TIMING_PANELS = ("dense", "tree")


def _loglog_guide(ax, x, y_anchor, slope, label, color="0.5"):
    x = np.asarray(x, dtype=float)
    ax.plot(x, y_anchor * (x / x[0]) ** slope, color=color, ls=":", lw=1.2, label=label)


def _check_panels(panels):
    panels = tuple(panels)
    if not panels or any(p not in TIMING_PANELS for p in panels) or len(set(panels)) != len(panels):
        raise ValueError(f"panels must be distinct entries of {TIMING_PANELS}, got {panels}")
    return panels


def _draw_dense_timing(ax, pt, z_frac):
    for m in METHODS:
        ax.plot(pt.sizes, pt.per_projection[m], "o-", color=METHOD_COLORS[m], lw=2, ms=4,
                label={"sort": "sort (the paper's Figure 1)", "pivot": "pivot (the paper's Figure 2)",
                       "condat": "Condat (2016)"}[m])
    _loglog_guide(ax, pt.sizes, pt.per_projection["condat"][0] * 0.5, 1.0, "slope 1 (linear time)")
    ax.set_ylabel("seconds per projection (best of repeats)")
    ax.set_title(f"one dense projection onto the ball of radius z = {z_frac:g}·‖v‖₁", fontsize=10)


def _draw_tree_timing(ax, tt, k):
    ax.plot(tt.sizes, tt.tree, "o-", color="C3", lw=2, ms=4, label="tree (the paper's Figure 3), O(k log n)")
    ax.plot(tt.sizes, tt.dense, "o-", color="C2", lw=2, ms=4, label="dense re-projection, O(n)")
    _loglog_guide(ax, tt.sizes, tt.dense[0] * 0.5, 1.0, "slope 1")
    ax.set_ylabel("seconds per sparse step")
    ax.set_title(f"one projected step with k = {k} nonzeros (‖w‖₀ ≈ {int(np.median(tt.nnz))})", fontsize=10)


@_style.book_figure
def timing_figure(max_n=1_000_000, k=100, z_frac=0.1, seed=0, figsize=None, fig=None,
                  panels=TIMING_PANELS) -> Figure:
    """Wall-clock times against the dimension n (log-log), one panel per entry of ``panels``, stacked:
    ``"dense"``: seconds per projection onto the l1 ball for sort (Figure 1 of the paper), pivot (Figure 2) and
    Condat, with a slope-1 guide (``k`` is not used); ``"tree"``: seconds per sparse step (k nonzeros), the
    tree (O(k log n)) against dense re-projection (O(n)) (``z_frac`` is not used); each panel's legend is below
    it.  Times of this machine, measured once per session (:func:`projection_timing_data`,
    :func:`tree_timing_data`).  ``figsize``: by default 6.4 x 4.8 inches for one panel and 7 x 9.6 for two.
    ``fig``: a figure this function returned before, redrawn in place (:func:`l1lab.book.live.figure_axes`)."""
    panels = _check_panels(panels)
    _check_timing(max_n, k, z_frac)
    two = len(panels) == 2
    if figsize is None:
        figsize = (7.0, 9.6) if two else (6.4, 4.8)
    # a fixed layout (the margins the constrained layout finds for these labels): no layout pass per redraw
    fig, axes = figure_axes(fig, figsize, layout="none", nrows=len(panels), ncols=1, squeeze=False,
                            gridspec_kw=TWO_ROW_MARGINS if two else ONE_PANEL_MARGINS)
    for ax, panel in zip(axes[:, 0], panels):
        if panel == "dense":
            _draw_dense_timing(ax, projection_timing_data(max_n, z_frac, seed), z_frac)
        else:
            _draw_tree_timing(ax, tree_timing_data(max_n, k, seed), k)
        ax.set_xlabel("dimension n")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.grid(True, which="major", alpha=0.3)
        ax.legend(fontsize=FONT, loc="upper center", bbox_to_anchor=(0.5, -0.17), ncol=2)
    return fig


def timing_demo(panels=TIMING_PANELS, **defaults):
    """Live timing demo of :func:`timing_figure` for ``panels``: the largest n (up to 10^6:
    :data:`TIMING_LIVE_MAX_N`), and the radius fraction (with the ``"dense"`` panel) and k (with ``"tree"``).
    Every setting it offers is measured when it is built (a few seconds: :data:`TIMING_BUDGET` per
    measurement), so a move redraws measurements and does not wait for new ones."""
    import ipywidgets as widgets

    panels = _check_panels(panels)
    v = dict(TIMING_DEFAULTS, **defaults)
    _check_timing(v["max_n"], v["k"], v["z_frac"], live=True)
    lim = TIMING_LIMITS
    top = max(TIMING_LIVE_MAX_N)
    controls = dict(max_n=widgets.Dropdown(options=list(TIMING_LIVE_MAX_N), value=v["max_n"], description="max n"))
    if "dense" in panels:
        for z_frac in lim["z_frac"]:
            projection_timing_data(top, z_frac, v["seed"])
        controls["z_frac"] = widgets.Dropdown(options=list(lim["z_frac"]), value=v["z_frac"], description="z/‖v‖₁")
    if "tree" in panels:
        for k in lim["k"]:
            tree_timing_data(top, k, v["seed"])
        controls["k"] = widgets.Dropdown(options=list(lim["k"]), value=v["k"], description="k")
    fixed = {name: v[name] for name in ("k", "z_frac") if name not in controls}
    return wire(controls, partial(timing_figure, seed=v["seed"], panels=panels, **fixed), [list(controls)])


def timing_player(panels=TIMING_PANELS, **static):
    """The timing demo of ``panels`` for the HTML book: :func:`timing_demo` precomputed over
    :data:`TIMING_STATIC` (``static`` overrides its entries; the name gets the panels, ``proj-timing-tree``
    say).  Its frames are the measurements taken when it is built (on the machine that builds the page)."""
    panels = _check_panels(panels)
    opts = dict(TIMING_STATIC, name=f"{TIMING_STATIC['name']}-{'-'.join(panels)}")
    return static_player(timing_demo(panels=panels), **dict(opts, **static))


# ================================================================================ synthetic experiments
def paper_synthetic_problem(n=800, loss="squared", seed=0):
    r"""The synthetic data of Section 7 (Figs. 4-5) with m = n: w_true with N(0, 1) entries, a random half of
    them zeroed; X with N(0, 1) entries, each column then divided by its largest |entry| so that X lies in
    [-1, 1] (:func:`l1lab.data.scale_features`, which :class:`l1lab.Problem` requires); targets
    y = X w_true + N(0, 1) noise (``squared``) or sign(X w_true), each flipped with probability 0.1
    (``logistic``).  Returns (X, y, w_true)."""
    check_choice("loss", loss, LOSSES)
    rng = np.random.default_rng(seed)
    w = rng.standard_normal(n)
    w[rng.choice(n, size=n // 2, replace=False)] = 0.0
    X = scale_features(rng.standard_normal((n, n)))
    if loss == "squared":
        y = X @ w + rng.standard_normal(n)
    else:
        y = np.sign(X @ w)
        y[y == 0] = 1.0
        y[rng.random(n) < 0.1] *= -1.0
    return X, y, w


@dataclass(frozen=True)
class ConstrainedReference:
    """The constrained problem (lam = 0), the penalized one, its solution w_lam, the radius z = ||w_lam||_1 and
    f* = C(w_lam), the optimal value of min C(w) s.t. ||w||_1 <= z."""

    constrained: Problem
    penalized: Problem
    w_lam: np.ndarray
    p_lam: float
    z: float
    f_star: float
    w_true: np.ndarray


#: the duality gap, relative to P at the null model, to which :func:`_penalized_reference` solves the penalized
#: problems: a certificate P(w_lam) - P* <= 1e-14 P(0), far below the floor 1e-12 max(1, |f*|) of the sub-optimality
#: plots (the relative optimality residual 1e-10 of :func:`l1lab.solvers.reference_solution` left certified gaps
#: up to 1.5e-11 on these problems)
REFERENCE_TOL = 1e-14


def _penalized_reference(penalized):
    """(w_lam, P(w_lam)): the solution of the penalized problem by :func:`l1lab.solvers.working_set_cd` to the
    certified duality gap :data:`REFERENCE_TOL` (10 to 100 times faster than
    :func:`l1lab.solvers.reference_solution` here; that one if the gap is not reached)."""
    res = working_set_cd(penalized, tol=REFERENCE_TOL)
    if not res.info["converged"]:
        return reference_solution(penalized)
    return res.w, penalized.objective(res.w)


@lru_cache(maxsize=8)
@threadpool_limits.wrap(limits=1, user_api="blas")
def _synthetic_reference(n, loss, lam_frac, seed):
    X, y, w_true = paper_synthetic_problem(n, loss, seed)
    constrained = Problem(X, y, loss, lam=0.0)
    penalized = Problem(X, y, loss, lam=lam_frac * constrained.lambda_max)
    w_lam, p_lam = _penalized_reference(penalized)
    z = float(np.abs(w_lam).sum())
    return ConstrainedReference(constrained, penalized, w_lam, p_lam, z, constrained.objective(w_lam), w_true)


def _curvature_scales(prob):
    """(L, R): beta ||X||_2^2 / m (power iteration) and beta mean_i ||x_i||_2^2."""
    X = np.asarray(prob.X)
    rng = np.random.default_rng(0)
    u = rng.standard_normal(prob.d)
    for _ in range(50):
        u = X.T @ (X @ u)
        u /= np.linalg.norm(u)
    L = prob.loss.beta * float(np.linalg.norm(X @ u) ** 2) / prob.m
    R = prob.loss.beta * float(np.mean(np.sum(X * X, axis=1)))
    return L, R


@dataclass(frozen=True)
class SyntheticData:
    ref: ConstrainedReference
    loss: str
    budget: float          # flops
    etas: dict             # method -> eta0
    results: dict          # method -> Result
    flops: dict            # method -> flops at the checkpoints
    gaps: dict             # method -> f(w) - f* at the checkpoints (SCD: P(w) - P(w_lam), its own objective)
    betas: dict            # coordinate descent runs -> the beta of their step 1/beta


@lru_cache(maxsize=16)
@threadpool_limits.wrap(limits=1, user_api="blas")
def _fixed_runs(n, loss, lam_frac, passes, seed):
    """Line search and coordinate descent: no eta0/sqrt(t) step to scale."""
    ref = _synthetic_reference(n, loss, lam_frac, seed)
    prob = ref.constrained
    L, _ = _curvature_scales(prob)
    budget = passes * 4.0 * prob.nnz
    eta_ls = STEP_CONSTANTS["line search"] / L
    # a line-search step costs at least two passes (gradient, one trial): budget / 2 iterations at most
    ls = projected_gradient(prob, max(1, int(passes // 2)), ref.z, eta0=eta_ls, method="batch", line_search=True)
    # SCD reads one column (m entries) per step; flops = 4 per data access (our convention).  Twice: with the
    # loss's beta (Lemma 6, |x_ij| <= 1) and with the data's beta_loss max_j ||x_j||^2/m, also valid for (9)
    n_cd = int(budget // (4.0 * prob.m))
    cd = scd(ref.penalized, n_iter=n_cd, seed=seed)
    beta_data = prob.loss.beta * float(ref.penalized.column_sq_norms().max())
    cd_data = scd(ref.penalized, n_iter=n_cd, seed=seed, beta=beta_data)
    return eta_ls, ls, cd, cd_data, beta_data


@lru_cache(maxsize=32)
@threadpool_limits.wrap(limits=1, user_api="blas")
def _step_runs(n, loss, lam_frac, passes, step_mult, seed):
    ref = _synthetic_reference(n, loss, lam_frac, seed)
    prob = ref.constrained
    L, R = _curvature_scales(prob)
    budget = passes * 4.0 * prob.nnz
    row = float(prob.nnz) / prob.m
    proj = PROJECTION_FLOPS_PER_ENTRY * prob.d
    etas = {"batch": step_mult * STEP_CONSTANTS["batch"] / L,
            "stochastic": step_mult * STEP_CONSTANTS["stochastic"] / R,
            "mini-batch": step_mult * STEP_CONSTANTS["mini-batch"] / R}
    res = {
        "batch": projected_gradient(prob, int(budget // (4.0 * prob.nnz + proj)), ref.z, eta0=etas["batch"],
                                    method="batch"),
        "stochastic": projected_gradient(prob, int(budget // (4.0 * row + proj)), ref.z, eta0=etas["stochastic"],
                                         method="stochastic", seed=seed),
        "mini-batch": projected_gradient(prob, int(budget // (4.0 * MINIBATCH * row + proj)), ref.z,
                                         eta0=etas["mini-batch"], method="minibatch", batch_size=MINIBATCH,
                                         seed=seed),
    }
    return etas, res


def _check_synthetic(n, lam_frac, passes, step_mult, loss=None, widget=False):
    check_choice("n", n, SYNTHETIC_LIMITS["n"] if widget else SYNTHETIC_LIMITS["n"] + SYNTHETIC_STATIC_N)
    check_range("lam_frac", lam_frac, SYNTHETIC_LIMITS)
    check_range("passes", passes, SYNTHETIC_LIMITS)
    check_range("step_mult", step_mult, SYNTHETIC_LIMITS)
    if loss is not None:
        check_choice("loss", loss, LOSSES)


def synthetic_data(n=800, loss="squared", lam_frac=0.1, passes=100, step_mult=1.0, seed=0) -> SyntheticData:
    r"""The experiment of Figs. 4-5 of Duchi et al. (2008) on :func:`paper_synthetic_problem`.

    The radius is z = ||w_lam||_1 for the solution w_lam of the penalized problem with
    lam = lam_frac * lambda_max (by the KKT conditions w_lam also solves min C(w) s.t. ||w||_1 <= z, so
    f* = C(w_lam)).  Runs, each with a budget of ``passes`` * 4 nnz(X) approximate flops:

    * projected gradient, ``batch`` with eta0/sqrt(t), ``line search`` (backtracking), ``stochastic`` and
      ``mini-batch`` (b = 10), eta0 = ``step_mult`` * STEP_CONSTANTS / (curvature scale);
    * ``coordinate descent``: :func:`l1lab.solvers.scd` on the penalized problem, 4 flops per data access,
      sub-optimality in its own objective P(w) - P(w_lam), with the loss's beta (Lemma 6 of Shalev-Shwartz &
      Tewari 2011) and (``coordinate descent, data β``) with beta_loss max_j ||x_j||^2/m, which also satisfies
      their condition (9).

    Cached (the reference and the runs that do not depend on ``step_mult`` separately)."""
    _check_synthetic(n, lam_frac, passes, step_mult, loss)
    args = (int(n), str(loss), float(lam_frac), int(passes))
    ref = _synthetic_reference(*args[:3], int(seed))
    eta_ls, ls, cd, cd_data, beta_data = _fixed_runs(*args, int(seed))
    etas, res = _step_runs(*args, float(step_mult), int(seed))
    results = dict(res)
    results["line search"] = ls
    results["coordinate descent"] = cd
    results["coordinate descent, data β"] = cd_data
    etas = dict(etas, **{"line search": eta_ls})
    flops, gaps = {}, {}
    for k, r in results.items():
        if k.startswith("coordinate descent"):
            flops[k] = 4.0 * np.asarray(r.trace.data_accesses)
            gaps[k] = np.asarray(r.trace.objective) - ref.p_lam
        else:
            flops[k] = np.asarray(r.trace.flops)
            gaps[k] = np.asarray(r.trace.objective) - ref.f_star
    order = ("batch", "line search", "stochastic", "mini-batch", "coordinate descent", "coordinate descent, data β")
    return SyntheticData(ref, str(loss), args[3] * 4.0 * ref.constrained.nnz, etas,
                         {k: results[k] for k in order}, {k: flops[k] for k in order}, {k: gaps[k] for k in order},
                         {"coordinate descent": ref.penalized.loss.beta, "coordinate descent, data β": beta_data})


@dataclass(frozen=True)
class SyntheticCurves:
    """What :func:`synthetic_figure` draws of a :class:`SyntheticData`: per method its flops and sub-optimality at
    the checkpoints, the coordinate-descent runs' beta, the budget, and of the reference f*, z, n and ||w*||_0."""

    loss: str
    budget: float
    flops: dict
    gaps: dict
    betas: dict
    f_star: float
    z: float
    n: int
    w_nnz: int


#: from this n on the synthetic experiment's curves are result files (:mod:`l1lab.data.results`): the build's
#: n = 4000 runs take 50 s on two cores, which a live reader then reads instead
SYNTHETIC_STORED_FROM = 2000
_SYNTHETIC_METHODS = ("batch", "line search", "stochastic", "mini-batch", "coordinate descent",
                      "coordinate descent, data β")


def _curves_of(data: SyntheticData) -> SyntheticCurves:
    return SyntheticCurves(data.loss, float(data.budget), dict(data.flops), dict(data.gaps), dict(data.betas),
                           float(data.ref.f_star), float(data.ref.z), int(data.ref.constrained.d),
                           int(np.count_nonzero(data.ref.w_lam)))


@lru_cache(maxsize=16)
def synthetic_curves(n=800, loss="squared", lam_frac=0.1, passes=100, step_mult=1.0, seed=0) -> SyntheticCurves:
    """The curves of :func:`synthetic_data` (same arguments).  From n = :data:`SYNTHETIC_STORED_FROM` on they are
    a result file fingerprinted by l1lab's source and the arguments (:mod:`l1lab.data.results`): read if the
    build (or an earlier run) wrote it, else computed and written; ``$L1LAB_RECOMPUTE`` recomputes."""
    _check_synthetic(n, lam_frac, passes, step_mult, loss)
    args = (int(n), str(loss), float(lam_frac), int(passes), float(step_mult), int(seed))
    if args[0] < SYNTHETIC_STORED_FROM:
        return _curves_of(synthetic_data(*args))
    import hashlib

    from ..data import results

    code = results.code_fingerprint()
    name = hashlib.sha256(repr(args).encode()).hexdigest()[:24]
    where = (f"projections-synthetic/{code}/{name}.npz", f"{code}:{args!r}")
    z = results.load(*where)
    if z is not None:
        return SyntheticCurves(str(z["loss"]), float(z["budget"]),
                               {k: z[f"flops {k}"] for k in _SYNTHETIC_METHODS},
                               {k: z[f"gaps {k}"] for k in _SYNTHETIC_METHODS},
                               {k: float(z[f"beta {k}"]) for k in _SYNTHETIC_METHODS if f"beta {k}" in z},
                               float(z["f_star"]), float(z["z"]), int(z["n"]), int(z["w_nnz"]))
    c = _curves_of(synthetic_data(*args))
    arrays = {"loss": np.array(c.loss), "budget": np.array(c.budget), "f_star": np.array(c.f_star),
              "z": np.array(c.z), "n": np.array(c.n), "w_nnz": np.array(c.w_nnz)}
    for k in _SYNTHETIC_METHODS:
        arrays[f"flops {k}"], arrays[f"gaps {k}"] = np.asarray(c.flops[k]), np.asarray(c.gaps[k])
        if k in c.betas:
            arrays[f"beta {k}"] = np.array(c.betas[k])
    results.save(*where, arrays)
    return c


#: the legend labels of the synthetic experiments (the coordinate-descent ones also give their beta)
SYNTHETIC_LABELS = {"batch": "batch, η₀/√t", "line search": "batch, line search", "stochastic": "stochastic, η₀/√t",
                    "mini-batch": f"mini-batch (b = {MINIBATCH}), η₀/√t",
                    "coordinate descent": "SCD, β of the loss", "coordinate descent, data β": "SCD, β of the data"}
#: the margins of the synthetic figure (the legend to the right of each panel): one loss 8 x 4 inches, two losses
#: stacked 8 x 7.6
SYNTHETIC_ONE_MARGINS = dict(left=0.1, right=0.64, bottom=0.13, top=0.92)
SYNTHETIC_TWO_MARGINS = dict(left=0.1, right=0.64, bottom=0.07, top=0.955, hspace=0.32)


def _draw_synthetic(ax, data: SyntheticCurves, ylim=None, legend=True):
    floor = default_floor(data.f_star)
    n_clipped = 0
    for name in data.flops:
        x, g = data.flops[name], data.gaps[name]
        n_clipped += int(np.sum(g < floor))
        label = SYNTHETIC_LABELS[name]
        if name in data.betas:
            label += f" ({data.betas[name]:.3g})"
        ax.plot(x, np.maximum(g, floor), color=SYNTHETIC_COLORS[name], lw=2, label=label)
    if n_clipped:
        ax.axhline(floor, color="0.45", ls=":", lw=1, label=f"floor {floor:.0e}:\n{n_clipped} value(s) drawn here")
    ax.set_yscale("log")
    ax.set_xlim(0, data.budget)
    if ylim is not None:
        ax.set_ylim(*ylim)
    ax.set_xlabel("approximate flops")
    ax.set_ylabel("sub-optimality")
    ax.grid(True, which="major", alpha=0.3)
    ax.set_title(f"{data.loss} loss, n = m = {data.n}: z = {data.z:.1f}, ‖w*‖₀ = {data.w_nnz}", fontsize=10)
    if legend:
        ax.legend(fontsize=FONT, loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0)


@_style.book_figure
def synthetic_figure(n=800, lam_frac=0.1, passes=100, step_mult=1.0, seed=0, losses=LOSSES, figsize=None,
                     fig=None) -> Figure:
    """Figs. 4-5 of the paper: f(w) - f(w*) (log) against approximate flops, one panel per loss in ``losses``
    (stacked), each with its legend on the right.  ``figsize``: by default 8 x 4 inches for one loss and
    8 x 7.6 for two.  ``fig``: a figure this function returned before, redrawn in place
    (:func:`l1lab.book.live.figure_axes`)."""
    losses = tuple(losses)
    for loss in losses:
        check_choice("loss", loss, LOSSES)
    datas = [synthetic_curves(n, loss, lam_frac, passes, step_mult, seed) for loss in losses]
    # a fixed layout (the margins the constrained layout finds for these labels): no layout pass per redraw
    two = len(losses) > 1
    if figsize is None:
        figsize = (8.0, 7.6) if two else (8.0, 4.0)
    fig, axes = figure_axes(fig, figsize, layout="none", nrows=len(losses), ncols=1, squeeze=False,
                            gridspec_kw=SYNTHETIC_TWO_MARGINS if two else SYNTHETIC_ONE_MARGINS)
    for ax, data in zip(axes[:, 0], datas):
        _draw_synthetic(ax, data)
    return fig


def _synthetic_live(loss, n, lam_frac, passes, step_mult, seed=0, fig=None):
    """:func:`synthetic_figure` for one loss, or both side by side (``loss="both"``)."""
    check_choice("loss", loss, SYNTHETIC_LIVE_LOSSES)
    return synthetic_figure(n, lam_frac, passes, step_mult, seed, LOSSES if loss == "both" else (loss,), fig=fig)


def synthetic_demo(**defaults):
    """Live demo of Figs. 4-5: the loss (one, or both side by side as on the page), n <= 800 (4000 only on the
    static page), the lambda fraction that sets z, the budget and the step multiplier, redrawing
    :func:`synthetic_figure`.  It starts with one loss at n = 200 (:data:`SYNTHETIC_DEFAULTS`), where a move
    answers in a fraction of a second; at n = 800 a move computes for a second or more."""
    import ipywidgets as widgets

    v = dict(SYNTHETIC_DEFAULTS, **defaults)
    check_choice("loss", v["loss"], SYNTHETIC_LIVE_LOSSES)
    _check_synthetic(v["n"], v["lam_frac"], v["passes"], v["step_mult"], widget=True)
    lim = SYNTHETIC_LIMITS
    controls = dict(
        loss=widgets.Dropdown(options=[("squared", "squared"), ("logistic", "logistic"), ("both", "both")],
                              value=v["loss"], description="loss"),
        n=widgets.Dropdown(options=list(lim["n"]), value=v["n"], description="n = m"),
        lam_frac=log_slider(widgets, v["lam_frac"], *lim["lam_frac"], "λ/λmax", step=0.1, readout_format=".2f"),
        passes=widgets.IntSlider(value=v["passes"], min=lim["passes"][0], max=lim["passes"][1], step=10,
                                 description="passes", continuous_update=False),
        step_mult=log_slider(widgets, v["step_mult"], *lim["step_mult"], "η₀ ×", step=0.25, readout_format=".2g"),
    )

    return wire(controls, partial(_synthetic_live, seed=v["seed"]),
                [["loss", "n", "lam_frac"], ["passes", "step_mult"]])


def synthetic_player(**static):
    """The synthetic demo for the HTML book: :func:`synthetic_demo` precomputed over :data:`SYNTHETIC_STATIC`."""
    return static_player(synthetic_demo(), **dict(SYNTHETIC_STATIC, **static))


# ============================================================================== EG vs projected gradient
def sparse_text_like_problem(m=1000, d=5000, density=0.01, seed=0):
    """Sparse, high-dimensional classification: :func:`l1lab.data.make_classification` with +-1 entries at
    a fraction ``density`` of positions (d * density nonzeros per example, like a bag of words), 20 relevant
    features and 5% label noise.  Returns (X (CSC), y, w_true)."""
    return make_classification(int(m), int(d), 20, flip=0.05, density=float(density), kind="sign", seed=seed)


@lru_cache(maxsize=8)
@threadpool_limits.wrap(limits=1, user_api="blas")
def _eg_reference(m, d, density, lam_frac, seed):
    X, y, w_true = sparse_text_like_problem(m, d, density, seed)
    constrained = Problem(X, y, "logistic", lam=0.0)
    penalized = Problem(X, y, "logistic", lam=lam_frac * constrained.lambda_max)
    w_lam, p_lam = _penalized_reference(penalized)
    z = float(np.abs(w_lam).sum())
    return ConstrainedReference(constrained, penalized, w_lam, p_lam, z, constrained.objective(w_lam), w_true)


@dataclass(frozen=True)
class EgVsPgData:
    ref: ConstrainedReference
    T: int
    results: dict   # "projected gradient", "EG±": the tuned runs
    grid: list      # (name, eta0, schedule, final gap, final nnz, seconds) of every run tried
    best: dict      # name -> (eta0, schedule)


#: the margins of the EG figure: two stacked panels with a suptitle, their legends on the right
EG_MARGINS = dict(left=0.1, right=0.6, bottom=0.07, top=0.93, hspace=0.28)
EG_CHECKPOINTS = 40  # checkpoints of each run (log-spaced over its T steps)


def _eg_max_epochs(m, d):
    """The most epochs the work cap allows for (m, d): the runs of every epochs setting are cut from these."""
    return int(min(EG_LIMITS["epochs"][1], EG_LIMITS["work"] * 1.0001 // (m * d)))


def _union_checkpoints(m, max_epochs):
    """Every checkpoint of a run of e * m steps, e = 1, ..., max_epochs (log_checkpoints(e * m, 40) each)."""
    return np.unique(np.concatenate([log_checkpoints(e * m, EG_CHECKPOINTS) for e in range(1, max_epochs + 1)]))


class _PgRun:
    """:func:`l1lab.solvers.projected_gradient` (stochastic, eta0/sqrt(t), dense projection) advanced on demand,
    with a trace row at every checkpoint of ``cps`` (the checkpoints of all the run lengths it serves) and the
    iterate kept at every multiple of ``m`` (the end of an epoch).  The same example stream (drawn chunk by chunk
    between checkpoints, as the solver does), the same kernel and the same bookkeeping: :meth:`result` (T) has
    the trace rows at log_checkpoints(T, 40) and the iterate of a run of T steps."""

    def __init__(self, prob, z, eta0, seed, cps):
        self.prob, self.z, self.eta0, self.seed, self.cps = prob, z, eta0, seed, cps
        self.rng = np.random.default_rng(seed)
        self.w, self.margins, self.absw = np.zeros(prob.d), np.empty(1), np.empty(prob.d)
        self.rec = TraceRecorder()
        self.rec.record(0, 0, prob.objective(self.w), 0, 0.0, 0.0)
        self.acc = self.flops = 0.0
        self.clock = None  # the kernel's seconds (l1lab.book.timing.Clock), made with its warm-up at the first step
        self.at = 0  # index in cps of the checkpoint reached
        self.ws = {}

    def _advance(self, T):
        prob, w = self.prob, self.w
        indptr, indices, data = prob.csr_arrays()
        row_nnz = prob.row_nnz
        if self.clock is None and self.cps[0] < T:
            # the clock's warm-up is one step on copies, untimed: the first call of the kernel compiles it (numba),
            # and the seconds are meant to measure the steps
            self.clock = Clock(warm_up=lambda: psg_chunk(
                prob.loss.code, indptr, indices, data, prob.y, w.copy(), np.zeros(1, dtype=np.int64), 1, self.eta0,
                True, 0, self.z, self.margins.copy(), self.absw.copy()))
        while self.cps[self.at] < T:
            a, c = int(self.cps[self.at]), int(self.cps[self.at + 1])
            idx = self.rng.integers(0, prob.m, size=c - a, dtype=np.int64)
            with self.clock:
                psg_chunk(prob.loss.code, indptr, indices, data, prob.y, w, idx, 1, self.eta0, True, a, self.z,
                          self.margins, self.absw)
            nz = float(row_nnz[idx].sum())
            self.acc += nz
            self.flops += 4.0 * nz + PROJECTION_FLOPS_PER_ENTRY * prob.d * (c - a)
            self.rec.record(c, self.acc, prob.objective(w), np.count_nonzero(w), self.clock.seconds, self.flops)
            if c % prob.m == 0:
                self.ws[c] = w.copy()
            self.at += 1

    def result(self, T):
        """The Result of a run of T steps (T a multiple of m within cps): run on if needed, then cut."""
        self._advance(T)
        trace = self.rec.finish()
        rows = np.isin(trace.iteration, log_checkpoints(T, EG_CHECKPOINTS))
        cut = Trace(**{f: getattr(trace, f)[rows] for f in ("iteration", "data_accesses", "objective", "nnz",
                                                            "seconds", "flops")})
        info = {"method": "projected_gradient/stochastic", "z": self.z, "eta0": self.eta0, "seed": self.seed,
                "schedule": "sqrt", "projection": "dense", "n_iter": int(T)}
        return Result(w=self.ws[T].copy(), trace=cut, info=info)


@lru_cache(maxsize=8)
def _pg_runs(m, d, density, lam_frac, seed):
    """Projected gradient for every eta0 of the grid, as :class:`_PgRun` s recorded at the checkpoints of every
    number of epochs the work cap allows: the runs of one epochs setting are cut from these, and they are run
    on only when more epochs are asked for (each step re-projects all d coordinates: these are the expensive
    runs)."""
    ref = _eg_reference(m, d, density, lam_frac, seed)
    cps = _union_checkpoints(m, _eg_max_epochs(m, d))
    return {eta: _PgRun(ref.constrained, ref.z, eta, seed, cps) for eta in PG_ETA_GRID}


@lru_cache(maxsize=32)
@threadpool_limits.wrap(limits=1, user_api="blas")
def _eg_runs(m, d, density, lam_frac, epochs, seed):
    """Stochastic EG+- for every (eta0, schedule) of the grid, T = epochs * m steps (O(nnz(x_i)) each: cheap).
    Called by :func:`_eg_vs_pg` after its warm-up (:func:`_warm_up_eg`), so that the seconds these runs record do
    not include numba's compilation."""
    ref = _eg_reference(m, d, density, lam_frac, seed)
    return {(eta, "1/√t" if decay else "constant"):
            exponentiated_gradient(ref.constrained, epochs * m, ref.z, eta0=eta, method="stochastic", decay=decay,
                                   dummy=True, seed=seed, n_checkpoints=EG_CHECKPOINTS)
            for eta in EG_ETA_GRID for decay in (False, True)}


def _warm_up_eg(ref, seed):
    """Two steps of stochastic EG+- with each schedule: they compile the kernels the timed runs use."""
    for decay in (False, True):
        exponentiated_gradient(ref.constrained, 2, ref.z, eta0=EG_ETA_GRID[0], method="stochastic", decay=decay,
                               dummy=True, seed=seed, n_checkpoints=2)


@lru_cache(maxsize=64)
@threadpool_limits.wrap(limits=1, user_api="blas")
def _eg_vs_pg(m, d, density, lam_frac, epochs, seed):
    ref = _eg_reference(m, d, density, lam_frac, seed)
    # the seconds read below are those of runs timed after a warm-up: EG's here, projected gradient's by the
    # warm-up of its clock (_PgRun)
    warm_up(_warm_up_eg, ref, seed)
    T = int(epochs * m)
    runs = {}
    for eta, run in _pg_runs(m, d, density, lam_frac, seed).items():
        runs[("projected gradient", eta, "1/√t")] = run.result(T)
    for (eta, sched), r in _eg_runs(m, d, density, lam_frac, epochs, seed).items():
        runs[("EG±", eta, sched)] = r
    grid, best, results = [], {}, {}
    for (name, eta, sched), r in runs.items():
        gap = float(r.trace.objective[-1] - ref.f_star)
        grid.append((name, eta, sched, gap, int(r.trace.nnz[-1]), float(r.trace.seconds[-1])))
        if name not in best or gap < best[name][2]:
            best[name] = (eta, sched, gap)
    for name, (eta, sched, _) in best.items():
        results[name] = runs[(name, eta, sched)]
    return EgVsPgData(ref, T, results, grid, {k: v[:2] for k, v in best.items()})


def _check_eg(m, d, density, lam_frac, epochs):
    check_range("m", m, EG_LIMITS)
    check_range("d", d, EG_LIMITS)
    check_choice("density", density, EG_LIMITS["density"])
    check_range("lam_frac", lam_frac, EG_LIMITS)
    check_range("epochs", epochs, EG_LIMITS)
    work = epochs * m * d
    if work > EG_LIMITS["work"] * 1.0001:
        raise ValueError(f"epochs * m * n = {work:.3g} is outside the demo's range (at most {EG_LIMITS['work']:.0e}: "
                         "each projected-gradient step re-projects all n coordinates); lower m, n or epochs")


def eg_vs_pg_data(m=1000, d=5000, density=0.01, lam_frac=0.4, epochs=10, seed=0) -> EgVsPgData:
    r"""Stochastic projected gradient (eta0/sqrt(t), eta0 in PG_ETA_GRID) against stochastic EG+- (one example
    per step, O(nnz(x_i)); eta0 in EG_ETA_GRID, constant or eta0/sqrt(t), with the dummy coordinate so that its
    domain is the ball ||w||_1 <= z) on :func:`sparse_text_like_problem`, logistic loss, z = ||w_lam||_1 for
    lam = lam_frac * lambda_max, ``epochs`` passes over the examples (T = epochs * m steps, 40 log-spaced
    checkpoints).  Each method keeps the step size with the smallest final objective (as the paper did for EG).

    Cached: the projected-gradient runs (the expensive ones) are recorded at the checkpoints of every number of
    epochs the work cap allows and are only run on when more epochs are asked for, so fewer epochs are a lookup
    and more cost the extra epochs.  The traces and iterates are those of
    :func:`l1lab.solvers.projected_gradient` and :func:`l1lab.solvers.exponentiated_gradient` run for T steps
    (the same examples and kernels; ``tests/test_book_projections.py`` checks it), except the wall-clock
    ``seconds`` (of the kernel, timed between more checkpoints)."""
    _check_eg(m, d, density, lam_frac, epochs)
    return _eg_vs_pg(int(m), int(d), float(density), float(lam_frac), int(epochs), int(seed))


@_style.book_figure
def eg_vs_pg_figure(m=1000, d=5000, density=0.01, lam_frac=0.4, epochs=10, seed=0, figsize=(8.0, 7.2),
                    fig=None) -> Figure:
    """C(w) - C* (log-log, top) and ||w||_0 (bottom) against data accesses for the tuned stochastic EG+- and
    stochastic projected gradient of :func:`eg_vs_pg_data`, with ||w*||_0 and the dimension d marked (the figure
    writes n for it, as the lectures do).  ``fig``: a figure this
    function returned before, redrawn in place (:func:`l1lab.book.live.figure_axes`)."""
    data = eg_vs_pg_data(m, d, density, lam_frac, epochs, seed)
    ref = data.ref
    fig, axes = figure_axes(fig, figsize, layout="none", nrows=2, ncols=1, gridspec_kw=EG_MARGINS)
    named = {f"{k} (η₀ = {data.best[k][0]:g}, {data.best[k][1]})": r for k, r in data.results.items()}
    colors = {f"{k} (η₀ = {data.best[k][0]:g}, {data.best[k][1]})": EG_COLORS[k] for k in data.results}
    plot_objective_and_nnz(axes, named, ref.f_star, colors=colors)
    k = int(np.count_nonzero(ref.w_lam))
    axes[1].axhline(k, color="k", ls="--", lw=1, label=rf"$\|w^\star\|_0$ = {k}")
    axes[1].axhline(ref.constrained.d, color="0.5", ls=":", lw=1, label=f"n = {ref.constrained.d}")
    axes[1].set_ylim(0, 1.08 * ref.constrained.d)
    axes[0].set_ylabel(r"$C(w) - C(w^\star)$")
    for ax in axes:
        ax.legend(fontsize=FONT, loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0)
    p = ref.constrained
    fig.suptitle(f"sparse logistic regression: m = {p.m}, n = {p.d}, {p.nnz / p.m:.0f} nonzeros per example, "
                 f"z = {ref.z:.1f}; {epochs} epochs", fontsize=10)
    return fig


def _eg_vs_pg_live(m, d, density, lam_frac, epochs, seed=0, fig=None):
    """:func:`eg_vs_pg_figure`, or the reason why not (a setting above the work cap) as a message."""
    try:
        _check_eg(m, d, density, lam_frac, epochs)
    except ValueError as err:
        import html

        from IPython.display import HTML

        return HTML(f"<pre>{html.escape(str(err))}</pre>")
    return eg_vs_pg_figure(m, d, density, lam_frac, epochs, seed, fig=fig)


def eg_vs_pg_demo(**defaults):
    """Live demo: m, d (the dimension, which the widget and the lectures call n), density, the lambda fraction that
    sets z and the epochs, redrawing :func:`eg_vs_pg_figure` (epochs * m * d is capped so that every setting
    answers in seconds; a setting above the cap shows why instead of a figure).  Its defaults (:data:`EG_DEFAULTS`)
    are smaller than the chapter's figure (m = 1000, d = 5000), so that a move answers in a fraction of a second."""
    import ipywidgets as widgets

    v = dict(EG_DEFAULTS, **defaults)
    _check_eg(v["m"], v["d"], v["density"], v["lam_frac"], v["epochs"])
    lim = EG_LIMITS
    controls = dict(
        m=widgets.IntSlider(value=v["m"], min=lim["m"][0], max=lim["m"][1], step=100, description="m",
                            continuous_update=False),
        d=widgets.IntSlider(value=v["d"], min=lim["d"][0], max=lim["d"][1], step=500, description="n",
                            continuous_update=False),
        density=widgets.Dropdown(options=list(lim["density"]), value=v["density"], description="density"),
        lam_frac=widgets.FloatSlider(value=v["lam_frac"], min=lim["lam_frac"][0], max=lim["lam_frac"][1],
                                     step=0.05, description="λ/λmax", continuous_update=False),
        epochs=widgets.IntSlider(value=v["epochs"], min=lim["epochs"][0], max=lim["epochs"][1],
                                 description="epochs", continuous_update=False),
    )

    return wire(controls, partial(_eg_vs_pg_live, seed=v["seed"]),
                [["m", "d", "density"], ["lam_frac", "epochs"]])


def eg_vs_pg_player(**static):
    """The EG demo for the HTML book: :func:`eg_vs_pg_demo` precomputed over :data:`EG_STATIC`."""
    return static_player(eg_vs_pg_demo(), **dict(EG_STATIC, **static))


# ================================================================= the tree inside projected gradient
def sparse_pg_check(m=1000, d=5000, density=0.01, lam_frac=0.4, eta0=0.3, n_steps=2000, seed=0):
    r"""Stochastic projected gradient (eq. (3), eta_t = eta0/sqrt(t), one example per step) run twice with the
    same examples by :func:`l1lab.solvers.projected_gradient`: with the dense projection and with
    ``projection="tree"`` (:class:`SparseL1BallProjector`, which touches only the nonzeros of x_i).  Returns a
    dict: the final iterates, max |difference|, and the seconds per step of each, after an untimed warm-up run
    of each (the tree runs a Python loop: for the ratio, not the absolute numbers)."""
    ref = _eg_reference(int(m), int(d), float(density), float(lam_frac), int(seed))
    prob, z = ref.constrained, ref.z
    for proj in ("dense", "tree"):  # warm-up runs: the timed runs below do not include numba's compilation
        warm_up(projected_gradient, prob, 2, z, eta0=eta0, seed=seed, projection=proj, n_checkpoints=2)
    runs = {proj: projected_gradient(prob, int(n_steps), z, eta0=eta0, seed=seed, projection=proj, n_checkpoints=2)
            for proj in ("dense", "tree")}
    w, w_tree = runs["dense"].w, runs["tree"].w
    return dict(w_dense=w, w_tree=w_tree, max_diff=float(np.abs(w - w_tree).max()),
                nnz=int(np.count_nonzero(w_tree)),
                dense_seconds_per_step=runs["dense"].trace.seconds[-1] / n_steps,
                tree_seconds_per_step=runs["tree"].trace.seconds[-1] / n_steps, z=z, n_steps=int(n_steps),
                problem=prob)
