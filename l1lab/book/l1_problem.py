r"""The figures and the demo of the lecture "The ℓ1 problem" (the book's first lecture).

Static figures, each a function that returns a ``matplotlib.figure.Figure`` and takes ``fig=`` (a figure it
returned before, redrawn in place):

* :func:`losses_figure` -- the squared, logistic and hinge losses with their first and second derivatives, and
  the self-bounding ratio L'^2 / L of condition (14) of Shalev-Shwartz & Tewari (2011);
* :func:`soft_threshold_figure` -- soft-thresholding against the shrinkage of a squared penalty, and the
  one-dimensional objective whose minimizer it is;
* :func:`balls_figure` -- a quadratic minimized over the ℓ1 ball and over the ℓ2 ball (:func:`balls_minimizers`).

The numbers the lecture states about the losses come from :func:`loss_suprema` (suprema over grids of a) and
:func:`logistic_rho_tight` (the tight constant of (14) for the logistic loss).

The demo, the regularization path, has the three layers of every demo of the book:

* :func:`path_data`, cached per (loss, data): the exact minimizer w*(λ) (:func:`l1lab.reference_solution`, to a
  relative optimality residual of 1e-10) on a grid of λ/λ_max log-spaced from 1 down to 10^-3, with
  :data:`PATH_PER_DECADE` points per decade (no warm starts: at this size each solve takes milliseconds);
* :func:`path_figure`: the coefficients of w*(λ) along the path with the current λ marked, and ||w*(λ)||_0;
* :func:`path_demo`: a log slider for λ/λ_max whose positions are the grid's points, and a loss dropdown, wired
  by :func:`l1lab.book.controls.wire`.  The first display computes the path of both losses (a few seconds),
  so that every later move, of λ or of the loss, only redraws;
* :func:`path_player`: the same widget precomputed over the grid :data:`PATH_STATIC` by
  :func:`l1lab.book.static.static_player`, which works in the HTML book without a kernel.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from matplotlib.figure import Figure
from threadpoolctl import threadpool_limits

from ..data.synthetic import make_classification, make_regression
from ..losses import hinge, logistic, soft_threshold, squared
from ..problem import Problem
from ..solvers import reference_solution
from . import style as _style
from .controls import check_choice, check_range, log_slider, wire
from .live import figure_axes
from .static import static_player

__all__ = [
    "LOSSES", "PATH_DATA", "PATH_DECADES", "PATH_DEFAULTS", "PATH_LIMITS", "PATH_PER_DECADE", "PathData",
    "balls_figure", "balls_minimizers", "logistic_rho_tight", "loss_suprema", "losses_figure", "make_path_problem",
    "PATH_STATIC", "path_data", "path_demo", "path_figure", "path_fractions", "path_player", "soft_threshold_figure",
]

LOSSES = ("squared", "logistic")
#: the demo's data: m examples, d features uniform in [-1, 1], k of which carry the signal, drawn with data_seed
PATH_DATA = dict(m=200, d=50, k=5, data_seed=0)
#: the grid of λ/λ_max: PATH_PER_DECADE points per decade, from 1 down to 10**-PATH_DECADES
PATH_PER_DECADE, PATH_DECADES = 16, 3
#: where the widget starts (and the lecture's static figure)
PATH_DEFAULTS = dict(frac=0.1, loss="squared")
#: the range of the λ/λ_max slider
PATH_LIMITS = dict(frac=(10.0 ** -PATH_DECADES, 1.0))
#: the static player: both losses (the cheap control), and 10 of the 49 positions of λ/λ_max: every half decade
#: from 10^-3 to λ_max, the quarter decades near λ_max (where the true features enter) and the grid's first point
#: below λ_max, 10^(-1/16), where the lecture's question looks (every position would be 98 frames)
PATH_STATIC = dict(grid=dict(frac=tuple(10.0 ** (-k / PATH_PER_DECADE) for k in (0, 1, 4, 8, 12, 16, 24, 32, 40, 48))),
                   name="l1-path")


# ---------------------------------------------------------------------------------------------- the losses
def _ratio(loss, a, y):
    """L'(a, y)^2 / L(a, y) where L > 0 (NaN where L = 0)."""
    val, der = loss.value(a, y), loss.deriv(a, y)
    out = np.full_like(val, np.nan)
    pos = val > 1e-12
    out[pos] = der[pos] ** 2 / val[pos]
    return out


def loss_suprema(width, spacing):
    """For each of the three losses, the suprema over a grid of a in [-width, width] (spacing ``spacing``,
    y = +1) of L'', |L'| and L'^2 / L (where L > 0): a dict name -> (sup L'', sup |L'|, sup L'^2/L).
    A finite constant of the loss is matched or undercut; an infinite one grows with the grid."""
    a = np.linspace(-width, width, int(round(2 * width / spacing)) + 1)
    one = np.ones_like(a)
    out = {}
    for loss in (squared, logistic, hinge):
        out[loss.name] = (float(loss.second(a, one).max()), float(np.abs(loss.deriv(a, one)).max()),
                          float(np.nanmax(_ratio(loss, a, one))))
    return out


def logistic_rho_tight():
    """(rho, u): the smallest rho with L'(a, y)^2 <= rho L(a, y) for the logistic loss, and the margin u = ya
    where the ratio L'^2 / L peaks (a bounded scalar optimizer on l1lab's logistic loss, to 1e-10 in u)."""
    from scipy.optimize import minimize_scalar

    def neg_ratio(u):
        u = np.array([u], dtype=float)
        return -float(_ratio(logistic, u, np.ones(1))[0])

    res = minimize_scalar(neg_ratio, bounds=(-5.0, 5.0), method="bounded", options={"xatol": 1e-10})
    return -float(res.fun), float(res.x)


@_style.book_figure
def losses_figure(figsize=(8.0, 6.6), fig=None) -> Figure:
    """The three losses at y = +1 with L' and L'' (one panel each), and the self-bounding ratio L'^2 / L of
    condition (14) against l1lab's constants and the paper's rho = 4 for the squared loss."""
    fig, axes = figure_axes(fig, figsize, nrows=2, ncols=2)
    a = np.linspace(-3.0, 3.0, 1201)
    one = np.ones_like(a)
    for ax, loss, note in zip(axes.flat[:3], (squared, logistic, hinge),
                              ("", "", " (kink at a = 1)")):
        ax.axhline(0.0, color="k", lw=0.6)
        ax.plot(a, loss.value(a, one), color="C0", lw=2, label="$L(a, 1)$")
        ax.plot(a, loss.deriv(a, one), color="C1", lw=2, label="$L'(a, 1)$")
        ax.plot(a, loss.second(a, one), color="C2", lw=2, label="$L''(a, 1)$")
        ax.set_title(f"{loss.name} loss{note}", fontsize=10)
        ax.set_ylim(-2.2, 4.2)
        ax.set_xlabel("$a$")
    # the hinge loss has L'' = 0 on either side of its kink and no second derivative at it (no finite beta): the
    # kink is marked, so that the flat L'' line does not read as a curvature bound of 0
    ax = axes[1, 0]
    ax.annotate("", xy=(1.0, 4.0), xytext=(1.0, 0.0),
                arrowprops=dict(arrowstyle="-|>", color="C2", lw=1.5, shrinkA=0, shrinkB=0))
    ax.text(1.15, 3.1, "$L''$ unbounded\nat the kink", color="C2", fontsize=9)
    ax = axes[1, 1]
    for loss, color in ((squared, "C3"), (logistic, "C4"), (hinge, "C5")):
        ax.plot(a, _ratio(loss, a, one), color=color, lw=2, label=f"$L'^2/L$, {loss.name}")
    ax.axhline(4.0, color="C3", ls=":", lw=1.5, label="the paper's ρ = 4 (squared)")
    ax.axhline(0.5, color="C4", ls=":", lw=1.5, label="the paper's ρ = 1/2 (logistic)")
    ax.set_ylim(0.0, 4.6)
    ax.set_xlabel("$a$")
    ax.set_title("self-bounding ratio of the paper's (14), $y = 1$", fontsize=10)
    handles, labels = [], []
    for axis in (axes[0, 0], axes[1, 1]):
        h, lab = axis.get_legend_handles_labels()
        handles += h
        labels += lab
    fig.legend(handles, labels, loc="outside lower center", ncol=4, fontsize=9)
    return fig


# ---------------------------------------------------------------------------------------------- soft-thresholding
@_style.book_figure
def soft_threshold_figure(tau=1.0, figsize=(8.0, 4.0), fig=None) -> Figure:
    """Left: s_tau(v) against the identity and the squared-penalty shrinkage v / (1 + tau).  Right:
    h(u) = (u - v)^2 / 2 + tau |u| for two values of v, with its minimizer s_tau(v) marked."""
    fig, (ax, ax2) = figure_axes(fig, figsize, nrows=1, ncols=2)
    v = np.linspace(-3.0, 3.0, 601)
    ax.axvspan(-tau, tau, color="0.9")
    ax.plot(v, v, color="0.5", ls=":", lw=1.5, label="identity $v$")
    ax.plot(v, soft_threshold(v, tau), color="C0", lw=2.5, label=r"$s_\tau(v)$, prox of $\tau|u|$")
    ax.plot(v, v / (1.0 + tau), color="C1", lw=2, label=r"$v/(1+\tau)$, prox of $\frac{\tau}{2}u^2$")
    ax.set_xlabel("$v$")
    ax.set_title(rf"$\tau = {tau:g}$: zero on $[-\tau, \tau]$ (shaded)", fontsize=10)
    u = np.linspace(-2.0, 3.0, 1001)
    for vi, color in ((0.6, "C2"), (2.0, "C3")):
        ax2.plot(u, 0.5 * (u - vi) ** 2 + tau * np.abs(u), color=color, lw=2, label=f"$h(u)$, $v = {vi:g}$")
        us = float(soft_threshold(vi, tau))
        ax2.plot([us], [0.5 * (us - vi) ** 2 + tau * abs(us)], "o", color=color, ms=8)
    ax2.set_ylim(0.0, 4.0)
    ax2.set_xlabel("$u$")
    ax2.set_title(r"$h(u) = \frac{1}{2}(u-v)^2 + \tau|u|$; dots: $s_\tau(v)$", fontsize=10)
    handles, labels = [], []
    for axis in (ax, ax2):
        h, lab = axis.get_legend_handles_labels()
        handles += h
        labels += lab
    fig.legend(handles, labels, loc="outside lower center", ncol=3, fontsize=9)
    return fig


# ---------------------------------------------------------------------------------------------- the two balls
#: the quadratic C(w) = (w - c)^T A (w - c) / 2 of the balls figure, and the radius t of the balls
BALLS_A = np.array([[1.0, 0.35], [0.35, 0.6]])
BALLS_C = np.array([1.9, 0.9])
BALLS_T = 1.0


def _balls_c(W):
    D = W - BALLS_C
    return 0.5 * np.einsum("...i,ij,...j->...", D, BALLS_A, D)


@lru_cache(maxsize=1)
def _balls_boundaries():
    theta = np.linspace(0.0, 2.0 * np.pi, 200_001)
    circle = np.stack([np.cos(theta), np.sin(theta)], axis=-1)
    return {"l1": BALLS_T * circle / np.abs(circle).sum(axis=1, keepdims=True), "l2": BALLS_T * circle}


def balls_minimizers():
    """The minimizer of the quadratic of :func:`balls_figure` on the boundary of the ℓ1 ball and of the ℓ2
    ball of radius 1 (a scan of 200,001 boundary points; the unconstrained minimizer lies outside both balls,
    so the constrained ones lie on the boundary): a dict ``{"l1": w, "l2": w}``."""
    return {name: B[np.argmin(_balls_c(B))].copy() for name, B in _balls_boundaries().items()}


@_style.book_figure
def balls_figure(figsize=(8.0, 4.0), fig=None) -> Figure:
    """Level sets of a quadratic and the ℓ1 and ℓ2 balls of radius 1, with the constrained minimizers."""
    fig, axes = figure_axes(fig, figsize, nrows=1, ncols=2)
    g1, g2 = np.meshgrid(np.linspace(-1.6, 2.6, 300), np.linspace(-1.6, 2.0, 300))
    G = _balls_c(np.stack([g1, g2], axis=-1))
    titles = {"l1": r"$\ell_1$ ball $\|w\|_1 \leq 1$", "l2": r"$\ell_2$ ball $\|w\|_2 \leq 1$"}
    mins = balls_minimizers()
    for ax, (name, B) in zip(axes, _balls_boundaries().items()):
        w_hat = mins[name]
        ax.contour(g1, g2, G, levels=np.linspace(0.05, 4.0, 14), colors="0.7", linewidths=0.8)
        ax.contour(g1, g2, G, levels=[_balls_c(w_hat)], colors="C3", linewidths=2)
        ax.fill(B[::100, 0], B[::100, 1], color="C0", alpha=0.25)
        ax.plot(B[::100, 0], B[::100, 1], color="C0", lw=2)
        ax.plot(*BALLS_C, "k*", ms=12, label="unconstrained minimizer")
        ax.plot(*w_hat, "o", color="C3", ms=9, label="constrained minimizer")
        ax.axhline(0, color="k", lw=0.6)
        ax.axvline(0, color="k", lw=0.6)
        ax.set_aspect("equal")
        ax.set_title(f"{titles[name]}: minimizer ({w_hat[0]:.2f}, {w_hat[1]:.2f})", fontsize=10)
        ax.set_xlabel("$w_1$")
        ax.set_ylabel("$w_2$")
    h, lab = axes[0].get_legend_handles_labels()
    fig.legend(h, lab, loc="outside lower center", ncol=2, fontsize=9)
    return fig


# ---------------------------------------------------------------------------------------------- the path
def path_fractions():
    """The grid of λ/λ_max of the path: PATH_PER_DECADE points per decade from 1 down to 10**-PATH_DECADES."""
    n = PATH_PER_DECADE * PATH_DECADES
    return 10.0 ** (-np.arange(n + 1) / PATH_PER_DECADE)


def make_path_problem(loss, m=200, d=50, k=5, data_seed=0):
    """(X, y, w_true) of the demo: :func:`l1lab.data.make_regression` (noise 0.1, targets of mean square 1)
    for the squared loss, :func:`l1lab.data.make_classification` (5% label noise) for the logistic loss."""
    check_choice("loss", loss, LOSSES)
    if loss == "squared":
        return make_regression(int(m), int(d), int(k), noise=0.1, seed=int(data_seed))
    return make_classification(int(m), int(d), int(k), seed=int(data_seed))


@dataclass(frozen=True)
class PathData:
    """The regularization path of one (loss, data): w*(λ) at λ = fracs[i] * lambda_max, row i of ``path``."""

    loss: str
    problem: Problem          # the data at λ = 0 (its gradient and lambda_max)
    w_true: np.ndarray
    fracs: np.ndarray
    path: np.ndarray          # (len(fracs), d)
    key: tuple                # (loss, m, d, k, data_seed): the cache key of off-grid solutions

    @property
    def lambda_max(self) -> float:
        return self.problem.lambda_max

    @property
    def l0(self) -> np.ndarray:
        """||w*(λ)||_0 at every grid point."""
        return np.count_nonzero(self.path, axis=1)

    @property
    def true_support(self) -> np.ndarray:
        return np.flatnonzero(self.w_true)

    @property
    def first(self) -> int:
        """The feature with the largest |∇_j C(0)|: the one that leaves zero first as λ falls below λ_max."""
        return int(np.argmax(np.abs(self.problem.gradient(np.zeros(self.problem.d)))))

    def recovers(self) -> np.ndarray:
        """At every grid point: whether the support of w*(λ) is exactly the true support."""
        return np.array([np.array_equal(np.flatnonzero(w), self.true_support) for w in self.path])

    def index(self, frac):
        """The grid index whose λ/λ_max is ``frac`` (to 1e-6 of a decade), or None."""
        k = int(np.argmin(np.abs(np.log10(self.fracs) - np.log10(frac))))
        return k if abs(np.log10(self.fracs[k]) - np.log10(frac)) <= 1e-6 else None

    def solution(self, frac) -> np.ndarray:
        """w*(frac λ_max): the grid's row if frac is a grid point, else solved (and cached)."""
        k = self.index(frac)
        if k is not None:
            return self.path[k].copy()
        return _off_grid_solution(*self.key, float(frac)).copy()


@lru_cache(maxsize=16)
@threadpool_limits.wrap(limits=1, user_api="blas")
def _path_data(loss, m, d, k, data_seed):
    X, y, w_true = make_path_problem(loss, m, d, k, data_seed)
    prob = Problem(X, y, loss, lam=0.0)
    fracs = path_fractions()
    path = np.array([reference_solution(Problem(X, y, loss, f * prob.lambda_max))[0] for f in fracs])
    return PathData(loss, prob, w_true, fracs, path, (loss, m, d, k, data_seed))


@lru_cache(maxsize=256)
@threadpool_limits.wrap(limits=1, user_api="blas")
def _off_grid_solution(loss, m, d, k, data_seed, frac):
    data = _path_data(loss, m, d, k, data_seed)
    return reference_solution(Problem(data.problem.X, data.problem.y, loss, frac * data.lambda_max))[0]


def path_data(loss="squared", m=200, d=50, k=5, data_seed=0) -> PathData:
    """The regularization path of :func:`make_path_problem`: w*(λ) by :func:`l1lab.reference_solution` at
    every λ = f λ_max, f in :func:`path_fractions` (cached per loss and data)."""
    check_choice("loss", loss, LOSSES)
    return _path_data(str(loss), int(m), int(d), int(k), int(data_seed))


def _decades_axis(ax, lo):
    """A log x-axis from just above 1 down to just below ``lo`` (λ decreasing to the right), with plain labels
    at the decades and unlabelled minor ticks (fixed locators: fewer tick objects to draw than the default)."""
    from matplotlib.ticker import FixedFormatter, FixedLocator, NullFormatter

    ax.set_xscale("log")
    ax.set_xlim(1.6, 0.6 * lo)
    decades = 10.0 ** -np.arange(0, int(round(-np.log10(lo))) + 1)
    ax.xaxis.set_major_locator(FixedLocator(decades))
    ax.xaxis.set_major_formatter(FixedFormatter([f"{x:g}" for x in decades]))
    ax.xaxis.set_minor_locator(FixedLocator(np.concatenate([decades[1:] * k for k in (2, 5)])))
    ax.xaxis.set_minor_formatter(NullFormatter())


@_style.book_figure
def path_figure(frac=0.1, loss="squared", figsize=(7.6, 6.4), fig=None) -> Figure:
    """The regularization path of :func:`path_data` (the lecture's data) with λ = ``frac`` λ_max marked:
    top, every coefficient w*_j(λ) (the true features in colour, the others grey); bottom, ||w*(λ)||_0 with
    the true sparsity.  The x-axis is λ/λ_max on a log scale, decreasing to the right.  ``fig``: a figure
    this function returned before, redrawn in place."""
    check_range("frac", frac, PATH_LIMITS)
    data = path_data(loss, **PATH_DATA)
    w_now = data.solution(frac)
    n_now = int(np.count_nonzero(w_now))
    fig, (ax, ax0) = figure_axes(fig, figsize, nrows=2, ncols=1, sharex=True,
                                 gridspec_kw=dict(height_ratios=(1.7, 1.0)))
    fr, path, support = data.fracs, data.path, data.true_support
    others = np.setdiff1d(np.arange(path.shape[1]), support)
    # the other features as one line, with breaks between them (one artist to draw instead of dozens)
    xs = np.concatenate([np.append(fr, np.nan) for _ in others])
    ys = np.concatenate([np.append(path[:, j], np.nan) for j in others])
    ax.plot(xs, ys, color="0.65", lw=0.9, label=f"the {others.size} other features")
    for i, j in enumerate(support):
        ax.plot(fr, path[:, j], color=f"C{i}", lw=2, label=f"$w_{{{j}}}$ (true {data.w_true[j]:+.2f})")
    ax.axvline(frac, color="k", lw=1.2, ls=":")
    ax.plot(np.full(path.shape[1], frac), w_now, "o", color="k", ms=3.5, label=r"$w^\star(\lambda)$ at this λ")
    ax.axhline(0.0, color="k", lw=0.6)
    ax.set_ylabel(r"$w^\star_j(\lambda)$")
    # plain text (no mathtext): the title changes at every move, and parsing TeX costs more than drawing
    ax.set_title(f"{loss} loss, m = {PATH_DATA['m']}, d = {PATH_DATA['d']}: at λ = {frac:.3g} λmax, "
                 f"{n_now} nonzero coefficient{'s' if n_now != 1 else ''}", fontsize=10)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=9, borderaxespad=0.0)
    ax0.plot(fr, data.l0, "o-", color="0.3", lw=1.5, ms=3, label=r"$\|w^\star(\lambda)\|_0$")
    ax0.axhline(support.size, color="C3", ls="--", lw=1.2, label=f"true sparsity ({support.size})")
    ax0.axvline(frac, color="k", lw=1.2, ls=":")
    ax0.plot([frac], [n_now], "o", color="k", ms=8, label="at this λ")
    ax0.set_ylim(-1.5, path.shape[1] + 2)
    ax0.set_ylabel(r"$\|w^\star(\lambda)\|_0$")
    ax0.set_xlabel(r"$\lambda / \lambda_{\max}$ (log scale; λ decreases to the right)")
    ax0.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=9, borderaxespad=0.0)
    for axis in (ax, ax0):
        _decades_axis(axis, fr[-1])
    return fig


def path_demo(ahead=True, **defaults):
    """Live demo: a log slider for λ/λ_max (10^-3 to 1, one position per grid point of the path) and the loss,
    redrawing :func:`path_figure`, starting from :data:`PATH_DEFAULTS`.  With ``ahead`` (default), the first
    display computes the path of both losses, so that no later move computes anything.  Returns an
    ipywidgets VBox (display it, or let it be a cell's value)."""
    import ipywidgets as widgets

    v = dict(PATH_DEFAULTS, **defaults)
    check_range("frac", v["frac"], PATH_LIMITS)
    check_choice("loss", v["loss"], LOSSES)
    controls = dict(
        frac=log_slider(widgets, v["frac"], *PATH_LIMITS["frac"], description="λ/λ_max", step=1 / PATH_PER_DECADE,
                        readout_format=".3g"),
        loss=widgets.Dropdown(options=list(LOSSES), value=v["loss"], description="loss"),
    )
    if ahead:
        for loss in LOSSES:
            path_data(loss, **PATH_DATA)
    return wire(controls, path_figure, [["frac", "loss"]])


def path_player(**static):
    """The demo for the HTML book: the live widget (:func:`path_demo`) precomputed over :data:`PATH_STATIC`
    (``static`` overrides its entries) by :func:`l1lab.book.static.static_player`."""
    return static_player(path_demo(ahead=False), **dict(PATH_STATIC, **static))
