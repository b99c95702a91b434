r"""The book's standard figures, drawn with matplotlib only (no ipywidgets here).

* :func:`plot_gap_vs_bound` -- the empirical mean sub-optimality over seeds, with a min-max band, against a
  theorem's bound, on log-log axes (x = iterations).
* :func:`plot_objective_and_nnz` -- two panels, P(w) - P* and the number of nonzeros of w against data
  accesses, one line per algorithm (the figures of Section 4 of Shalev-Shwartz & Tewari 2011).

Log axes and zeros.  A sub-optimality can reach 0, or a rounding-level negative number, when a run meets the
reference optimum to machine precision; a log axis cannot show it.  These functions never drop such
points (or seeds): they draw every gap below a ``floor`` *at* the floor, draw the floor as a dotted
horizontal line and say in its legend entry how many points were lifted onto it.  The default floor is
``1e-12 * max(1, |P*|)``, about the accuracy to which P* itself is known.  The iteration 0 (x = 0) checkpoint
cannot be drawn on a log x-axis and is left out of these plots: its value is P(0) - P*.
"""
from __future__ import annotations

from typing import Mapping

import numpy as np

from ..experiments import SeedRuns
from ..trace import Result
from . import style as _style

__all__ = ["default_floor", "log_axes", "plot_gap_vs_bound", "plot_objective_and_nnz"]

#: the colours the book uses for each algorithm (matplotlib's tab10)
ALGORITHM_COLORS = {name: _style.ALGORITHM_COLORS[name] for name in ("SCD", "cyclic CD", "GCD")}


def default_floor(p_star: float) -> float:
    """The default lower clip of a sub-optimality on a log axis: ``1e-12 * max(1, |P*|)``."""
    return 1e-12 * max(1.0, abs(float(p_star)))


def _as_matrix(runs, name):
    """(n_seeds, n_cp) matrix of trace field ``name`` for a SeedRuns or a single Result (one row)."""
    if isinstance(runs, SeedRuns):
        return np.asarray(getattr(runs, name), dtype=np.float64)
    if isinstance(runs, Result):
        return np.asarray(getattr(runs.trace, name), dtype=np.float64)[None, :]
    raise TypeError(f"expected an l1lab Result or experiments.SeedRuns, got {type(runs).__name__}")


def _iterations(runs):
    if isinstance(runs, SeedRuns):
        return np.asarray(runs.iteration, dtype=np.float64)
    if isinstance(runs, Result):
        return np.asarray(runs.trace.iteration, dtype=np.float64)
    raise TypeError(f"expected an l1lab Result or experiments.SeedRuns, got {type(runs).__name__}")


def _floor_line(ax, floor, n_clipped, color="0.45"):
    return ax.axhline(floor, color=color, ls=":", lw=1,
                      label=f"floor {floor:.0e}: {n_clipped} value(s) at or below it drawn here")


def log_axes(ax):
    """Log-log axes with minor ticks at 2 and 5 only: every tick is several artists, laid out and drawn at each
    redraw of a live figure, and the full set of minor ticks doubled the time to draw one."""
    ax.set_xscale("log")
    ax.set_yscale("log")
    for axis in (ax.xaxis, ax.yaxis):
        _few_minor_ticks(axis)


def _few_minor_ticks(axis):
    """Minor ticks of a log axis at 2 and 5 times the powers of ten only, unlabelled."""
    from matplotlib.ticker import LogLocator, NullFormatter

    axis.set_minor_locator(LogLocator(base=10.0, subs=(2.0, 5.0)))
    axis.set_minor_formatter(NullFormatter())


def plot_gap_vs_bound(ax, runs, p_star, bound, label="SCD", bound_label="bound", color="C0",
                      bound_color="k", floor=None, band=True):
    r"""Empirical sub-optimality over seeds against a bound, on log-log axes (x = iterations T).

    Draws the mean over seeds of P(w_T) - P* (the estimate of E[P(w_T)] - P*), a shaded band from the min to
    the max over seeds, and the bound as a dashed black line.

    Parameters
    ----------
    ax : matplotlib Axes
    runs : :class:`l1lab.experiments.SeedRuns` (or a single :class:`l1lab.Result`, whose band is a line)
    p_star : the optimal value P*
    bound : array of the bound at ``runs.iteration``, or a callable ``bound(T)`` evaluated there
    floor : gaps (mean, min or max) below ``floor`` are drawn at ``floor`` and a dotted line with a legend
        entry reports how many; default :func:`default_floor`.  No seed is ever dropped.
    band : draw the min-max band (default True)

    The checkpoint T = 0 is not drawn (log x-axis).  Returns a dict of the artists (``mean``, ``band``,
    ``bound``, ``floor`` (None if nothing was clipped)) and ``n_clipped``, the number of values lifted.
    """
    it = _iterations(runs)
    gaps = _as_matrix(runs, "objective") - float(p_star)
    b = np.asarray(bound(it) if callable(bound) else bound, dtype=np.float64)
    if b.shape != it.shape:
        raise ValueError(f"bound has shape {b.shape} but the runs have {it.shape[0]} checkpoints")
    floor = default_floor(p_star) if floor is None else float(floor)
    if not floor > 0:
        raise ValueError(f"floor must be > 0 on a log axis, got {floor}")
    keep = it > 0
    x = it[keep]
    mean, lo, hi = gaps.mean(axis=0)[keep], gaps.min(axis=0)[keep], gaps.max(axis=0)[keep]
    n_seeds = gaps.shape[0]
    n_clipped = int(np.sum(mean < floor) + (np.sum(lo < floor) + np.sum(hi < floor) if band else 0))
    out = {"n_clipped": n_clipped, "band": None, "floor": None}
    what = f"mean over {n_seeds} seeds" if n_seeds > 1 else "one run"
    if band and n_seeds > 1:
        out["band"] = ax.fill_between(x, np.maximum(lo, floor), np.maximum(hi, floor), color=color, alpha=0.25,
                                      lw=0, label=f"{label}: min–max over seeds")
    (out["mean"],) = ax.plot(x, np.maximum(mean, floor), color=color, lw=2, label=f"{label}: {what}")
    (out["bound"],) = ax.plot(x, b[keep], color=bound_color, ls="--", lw=1.5, label=bound_label)
    if n_clipped:
        out["floor"] = _floor_line(ax, floor, n_clipped)
    log_axes(ax)
    ax.set_xlabel("iterations $T$")
    ax.set_ylabel(r"$P(w_T) - P^\star$")
    ax.grid(True, which="major", alpha=0.3)
    return out


def plot_objective_and_nnz(axes, results_by_name: Mapping, p_star, x="data_accesses", floor=None, colors=None):
    r"""Two panels: P(w) - P* (log-log) and the l0 "norm" of w, both against ``x``, one line per algorithm.

    Parameters
    ----------
    axes : two matplotlib Axes (left: sub-optimality, right: nonzeros)
    results_by_name : {name: Result or SeedRuns}; a SeedRuns is drawn as its mean over seeds with a min-max
        band, against the mean over seeds of ``x``
    p_star : the optimal value P*
    x : ``"data_accesses"`` (entries of X read, the x-axis of Shalev-Shwartz & Tewari's figures) or
        ``"iteration"``
    floor : gaps below it are drawn at it, reported by a dotted line (default :func:`default_floor`)

    Points with x = 0 (the start, w = 0) are not drawn on the log x-axis.  Returns a dict
    ``{name: (gap_line, nnz_line)}`` plus ``"floor"`` (the floor line or None) and ``"n_clipped"``.
    """
    if x not in ("data_accesses", "iteration"):
        raise ValueError(f"x must be 'data_accesses' or 'iteration', got {x!r}")
    if len(axes) != 2:
        raise ValueError(f"need two axes (sub-optimality, nonzeros), got {len(axes)}")
    if not results_by_name:
        raise ValueError("results_by_name is empty: nothing to plot")
    ax_gap, ax_nnz = axes
    floor = default_floor(p_star) if floor is None else float(floor)
    colors = dict(ALGORITHM_COLORS, **(colors or {}))
    out = {}
    n_clipped = 0
    for k, (name, res) in enumerate(results_by_name.items()):
        color = colors.get(name, f"C{k % 10}")
        if x == "iteration":
            xs = _iterations(res)
        else:
            xs = _as_matrix(res, "data_accesses").mean(axis=0)
        keep = xs > 0
        xs = xs[keep]
        gaps = (_as_matrix(res, "objective") - float(p_star))[:, keep]
        nnz = _as_matrix(res, "nnz")[:, keep]
        n = gaps.shape[0]
        lbl = f"{name} (mean of {n} seeds, band min–max)" if n > 1 else name
        mean = gaps.mean(axis=0)
        n_clipped += int(np.sum(mean < floor))
        if n > 1:
            lo, hi = gaps.min(axis=0), gaps.max(axis=0)
            n_clipped += int(np.sum(lo < floor) + np.sum(hi < floor))
            ax_gap.fill_between(xs, np.maximum(lo, floor), np.maximum(hi, floor), color=color, alpha=0.2, lw=0)
            ax_nnz.fill_between(xs, nnz.min(axis=0), nnz.max(axis=0), color=color, alpha=0.2, lw=0)
        marker = "o" if len(xs) < 12 else None
        (lg,) = ax_gap.plot(xs, np.maximum(mean, floor), color=color, lw=2, marker=marker, ms=3, label=lbl)
        (ln,) = ax_nnz.plot(xs, nnz.mean(axis=0), color=color, lw=2, marker=marker, ms=3, label=lbl)
        out[name] = (lg, ln)
    out["floor"] = _floor_line(ax_gap, floor, n_clipped) if n_clipped else None
    out["n_clipped"] = n_clipped
    xlabel = "data accesses (entries of $X$ read)" if x == "data_accesses" else "iterations"
    for ax in axes:
        ax.set_xscale("log")
        _few_minor_ticks(ax.xaxis)
        ax.set_xlabel(xlabel)
        ax.grid(True, which="major", alpha=0.3)
    lims = ax_gap.dataLim
    if np.isfinite(lims.y0) and lims.y0 > 0 and lims.y1 <= lims.y0 * (1 + 1e-9):
        ax_gap.set_ylim(lims.y0 / 10, lims.y0 * 10)   # every gap on the floor: one decade around it
    ax_gap.set_yscale("log")
    _few_minor_ticks(ax_gap.yaxis)
    ax_gap.set_ylabel(r"$P(w) - P^\star$")
    ax_nnz.set_ylabel(r"$\|w\|_0$ (nonzeros)")
    # all-zero iterates (lambda >= lambda_max) would make the axis a single point
    ax_nnz.set_ylim(bottom=0, top=max(ax_nnz.get_ylim()[1], 1.0))
    return out
