r"""The figures and widgets of the lectures "Multiplicative updates and regret" (``chapters/exponentiated``) and
"The log d miracle" (``chapters/exponentiated_scaling``) (Kakade, Foster & Even-Dar 2008: SG with l2 projection
against the stochastic multiplicative gradient SMG).  The figures are at most 8 inches wide, with no text below
9 pt (two panels are stacked, not side by side).

Same three layers as :mod:`l1lab.book.scd`: a cached *data* function, a *figure* function returning a
``matplotlib.figure.Figure`` (not managed by pyplot), and a *widget* (ipywidgets imported inside it).

The data of every demo come from one **sparse logistic teacher** (:mod:`l1lab.data.teacher`): examples
:math:`x` uniform on :math:`\{-1, +1\}^d`, of which the first ``p`` coordinates are relevant, and labels
:math:`y \in \{-1, +1\}` with :math:`\Pr[y = 1 \mid x] = \sigma(\langle w^\star, x\rangle)`, where
:math:`w^\star_j = \pm\beta` (alternating signs) for :math:`j < p` and 0 otherwise.  The logistic model is well
specified, so :math:`w^\star` minimizes the logistic risk over all of :math:`\mathbb{R}^d`; it lies on the
boundary of both feasible sets, :math:`\|w\|_1 \le F_1 = \beta p` (SMG) and :math:`\|w\|_2 \le F_2 = \beta\sqrt p`
(SG).  The gradient bounds are :math:`G_\infty = 1` and :math:`G_2 = \sqrt d` (:math:`|L'| \le 1`,
:math:`|x_j| = 1`), and SMG works in :math:`2d + 1` coordinates (the :math:`\pm` split and a dummy,
footnote 3), so the "d" of Theorem 2.3 is :math:`2d + 1`.  The excess risk of a decision is computed by
:func:`l1lab.data.teacher.excess_risk` (exact over the relevant coordinates, with a certified normal
approximation of the irrelevant sum).

* :func:`prop22_path_data` / :func:`prop22_figure` -- Proposition 2.2 along a path to a corner of the simplex;
* :func:`horizon_runs`, :func:`scaling_data` / :func:`scaling_figure` / :func:`scaling_demo` -- demo 1, the
  samples SMG and SG need to reach a fixed excess risk as d grows;
* :func:`regret_data` / :func:`regret_figure` / :func:`regret_demo` -- the regret of the realized sequence
  (noiseless) and the excess risk (noisy) against the bounds, bands over seeds;
* :func:`averaging_data` / :func:`averaging_figure` / :func:`averaging_demo` -- demo 2, Corollary 3.1: the
  averaged decision against the last one, with a constant step;
* the *static players* (:func:`scaling_player`, :func:`regret_player`, :func:`averaging_player`): each live widget
  precomputed over the grid :data:`SCALING_STATIC`, :data:`REGRET_STATIC` or :data:`AVERAGING_STATIC` by
  :func:`l1lab.book.static.static_player`, which works in the HTML book without a kernel.

The data functions use a fresh stream of examples per seed (one pass, Corollary 4.1's setting), and cache
their runs per stream: n seeds are the first n of any larger number, bit for bit, so the seeds slider of a
widget only computes seeds it has not seen, and controls that only change the drawing (eps, delta) compute
nothing.  The scaling demo runs on the teacher's counter-based stream (:func:`l1lab.solvers.streamed.smg_stream`,
:func:`l1lab.solvers.streamed.sg_l2_stream`: O(d) memory, nothing stored), which is what lets it reach
:math:`d = 10^5`; demo 2 streams too, one run per seed with checkpoints (its step is constant, so the run
for tau is the beginning of the longest one); the regret figure keeps the examples
(:func:`l1lab.data.teacher.teacher_problem`) because the regret needs the best fixed decision on them, and
:data:`ENTRY_BUDGET` caps their n d.  Excess risks are computed by :func:`excess_risk_rows` (the teacher's
:func:`~l1lab.data.teacher.excess_risk`, row by row, 20 to 50 times faster).
"""
from __future__ import annotations

import math
import os
import threading
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache, partial

import numpy as np
from matplotlib.figure import Figure
from threadpoolctl import threadpool_limits

from ..data.teacher import check_teacher, excess_risk, excess_risk_rows, teacher_problem, teacher_weights
from ..solvers.online import best_fixed_value_logistic, sg_l2, smg
from ..solvers.streamed import sg_l2_stream, smg_stream, smg_stream_snapshots
from ..theory import kakade_foster_evendar as kfe
from . import style as _style
from .controls import check_choice, check_range, log_slider, wire
from .live import figure_axes
from .plotting import log_axes as _log_axes
from .static import static_player

__all__ = [
    "ALGORITHM_COLORS", "AVERAGING_BUDGET", "AVERAGING_DEFAULTS", "AVERAGING_LIMITS", "AVERAGING_STATIC",
    "ENTRY_BUDGET", "REGRET_DEFAULTS", "REGRET_DEMO_DEFAULTS", "REGRET_LIMITS", "REGRET_STATIC", "SCALING_DEFAULTS",
    "SCALING_DEMO_DEFAULTS", "SCALING_DS", "SCALING_LIMITS", "SCALING_STATIC", "TeacherConstants", "averaging_data",
    "averaging_demo", "averaging_figure", "averaging_player", "averaging_taus", "crossing", "excess_risk",
    "excess_risk_rows", "horizon_grid", "horizon_runs", "prop22_figure", "prop22_path_data", "regret_data",
    "regret_demo", "regret_figure", "regret_player", "scaling_data", "scaling_demo", "scaling_figure",
    "scaling_player", "stream_length", "teacher_constants", "teacher_problem", "teacher_weights",
]

#: colours of this chapter's algorithms
ALGORITHM_COLORS = {name: _style.ALGORITHM_COLORS[name] for name in ("SMG", "SG", "EG")}




NAMES = ("SMG", "SG")

#: largest n * d of the stored streams of the regret figure (about 30 bytes per entry while in use)
ENTRY_BUDGET = 20_000_000
#: longest stream of the scaling demo (at every d: the streams are not stored)
T_CAP = 6_000
#: horizons per octave of the scaling demo's grid (one run per horizon)
SCALING_PER_OCTAVE = 2

#: demo 1 (scaling with d): d runs over SCALING_DS up to d_max
SCALING_DS = (10, 100, 1_000, 10_000, 100_000)
SCALING_DEFAULTS = dict(d_max=100_000, p=2, beta=2.0, eps=0.15, n_seeds=5)
SCALING_LIMITS = dict(d_max=(100, 1_000, 10_000, 100_000), p=(1, 4, 1), beta=(1.0, 3.0), eps=(0.1, 0.25),
                      n_seeds=(1, 5, 1))
#: the live widget's start: d up to 1,000, so that a new p or beta answers in a fraction of a second
SCALING_DEMO_DEFAULTS = dict(SCALING_DEFAULTS, d_max=1_000)
#: the static player of demo 1: β from 1 to 3 (every other position) and four values of ε (the chapter's 0.15 among
#: them), the two controls the chapter asks to move; the largest d, p and the seeds at the widget's start (a largest d
#: of 100 only drops the d = 1,000 points, and each other p is new runs at every d)
SCALING_STATIC = dict(grid=dict(d_max=(1_000,), p=(2,), beta=(1.0, 2.0, 3.0), eps=(0.1, 0.15, 0.2, 0.25),
                                n_seeds=(5,)),
                      name="eg-scaling")

#: the regret figure: horizons T (each a separate run with the theorem's step for that T)
REGRET_TS = (50, 100, 200, 400, 800, 1600)
REGRET_DEFAULTS = dict(d=100, p=2, beta=2.0, n_seeds=5, delta=0.05)
REGRET_LIMITS = dict(d=(10, 100, 300), p=(1, 4, 1), beta=(1.0, 3.0), n_seeds=(2, 5, 1), delta=(0.01, 0.5))
#: the live widget starts with three seeds (a new d, p or beta then computes in about 0.1 s of CPU)
REGRET_DEMO_DEFAULTS = dict(REGRET_DEFAULTS, n_seeds=3)
#: the static player of the regret figure: every d (the chapter compares 10, 100 and 300), p = 2 and 4 (F1 = beta p
#: grows faster than F2 = beta sqrt(p)), three seeds (the live start) and five (the chapter's figure and numbers); beta
#: and delta at the widget's start (beta scales both bounds alike, delta only moves the noisy panel's bounds)
REGRET_STATIC = dict(grid=dict(p=(2, 4), beta=(2.0,), n_seeds=(3, 5), delta=(0.05,)), name="eg-regret")

#: demo 2 (Corollary 3.1): a constant step eta = eta_mult * smg_eta(T0), run for up to tau_mult * T0 steps
AVERAGING_DEFAULTS = dict(d=100, p=2, beta=2.0, T0=1_000, eta_mult=1.0, n_seeds=5)
AVERAGING_LIMITS = dict(d=(10, 100, 300), p=(1, 4, 1), T0=(300, 1_000, 3_000), eta_mult=(0.25, 3.0),
                        n_seeds=(2, 5, 1))
TAU_MULT = 30
#: largest tau * d of demo 2's streams
AVERAGING_BUDGET = 10_000_000


#: the static player of demo 2: five step multipliers, a factor about 2 apart (0.25, 10^-0.3, 1, 10^0.3, 2.5: the
#: positions of the live widget's log slider nearest to 0.25, 0.5, 1, 2 and 2.5), the step the chapter asks to move,
#: and every T0 (where the multiplier would take the step above Lemma 5.3's limit 1/(8 G_inf), a short T0 with a
#: large multiplier, the step is that limit and the frame's title says so); d, p and the seeds at the widget's start
AVERAGING_STATIC = dict(grid=dict(d=(100,), p=(2,), eta_mult=(0.25, 0.25 * 10 ** 0.3, 1.0, 0.25 * 10 ** 0.9, 2.5),
                                  n_seeds=(5,)), name="eg-averaging")


# ---------------------------------------------------------------------------------------------- teacher
@dataclass(frozen=True)
class TeacherConstants:
    r"""The constants of Section 2 for the teacher: F1 = ||w*||_1, G_inf = 1 (l_inf bound on the gradients
    L'(<w, x>, y) x), F2 = ||w*||_2, G2 = sqrt(d) (l2 bound), and d_smg = 2d + 1, the dimension SMG works in."""

    d: int
    p: int
    beta: float
    F1: float
    G_inf: float
    F2: float
    G2: float
    d_smg: int

    def smg_eta(self, T):
        """Theorem 2.3's step (derived form) for horizon T."""
        return kfe.smg_eta(T, self.d_smg, self.G_inf)

    def sg_eta(self, T):
        """Theorem 2.1's step for horizon T."""
        return kfe.sg_eta(T, self.F2, self.G2)

    def bound(self, name, T, delta=None):
        """The regret bound of Theorem 2.3 ("SMG") or 2.1 ("SG") at horizon T (array); nan where Theorem 2.3
        does not apply (T < 16 log d_smg)."""
        T = np.atleast_1d(np.asarray(T, dtype=np.float64))
        if name == "SMG":
            return np.array([kfe.smg_regret_bound(t, self.d_smg, self.F1, self.G_inf, delta)
                             if t >= 16 * math.log(self.d_smg) else np.nan for t in T])
        if name == "SG":
            return np.array([kfe.sg_regret_bound(t, self.F2, self.G2, delta) for t in T])
        raise ValueError(f"name must be 'SMG' or 'SG', got {name!r}")

    def bound_samples(self, name, eps):
        """The horizon at which the (expected, delta-free) bound reaches eps: 16 F1^2 G^2 log(d_smg)/eps^2 for
        SMG, 4 F2^2 G2^2/eps^2 for SG."""
        if name == "SMG":
            return max(16 * self.F1 ** 2 * self.G_inf ** 2 * math.log(self.d_smg) / eps ** 2,
                       16 * math.log(self.d_smg))
        if name == "SG":
            return 4 * self.F2 ** 2 * self.G2 ** 2 / eps ** 2
        raise ValueError(f"name must be 'SMG' or 'SG', got {name!r}")


def teacher_constants(d, p=2, beta=2.0) -> TeacherConstants:
    """F1, G_inf, F2, G2 and the SMG dimension 2d + 1 of the sparse logistic teacher (see the module doc)."""
    d, p = int(d), int(p)
    check_teacher(d, p, beta)
    return TeacherConstants(d, p, float(beta), beta * p, 1.0, beta * math.sqrt(p), math.sqrt(d), 2 * d + 1)


# ------------------------------------------------------------------------------------- Proposition 2.2
@dataclass(frozen=True)
class Prop22Data:
    """Proposition 2.2 along w = r center + (1 - r) F1 e_1: ``dist`` = r, the distance to the corner (the lecture's
    exercise "Escaping a corner" writes r too), and for each gradient (rows of ``grads``: random, and against the
    corner) the inner product from the update and from the variance form, and the inner product
    -eta ||g - mean(g)||^2 of a Euclidean gradient step in the simplex's plane, for comparison."""

    d: int
    F1: float
    eta: float
    dist: np.ndarray
    grads: np.ndarray
    from_update: np.ndarray     # (n_grads, n)
    variance_form: np.ndarray   # (n_grads, n)
    euclidean: np.ndarray       # (n_grads,)


def prop22_path_data(d=10, F1=1.0, eta=0.05, n=121, seed=0) -> Prop22Data:
    """Proposition 2.2 of Kakade, Foster & Even-Dar (2008) evaluated with
    :func:`l1lab.theory.kakade_foster_evendar.prop22_inner_product` and ``prop22_variance_form`` on a path
    from the center of the simplex {w >= 0, sum w = F1} to its corner F1 e_1, for two gradients: random
    uniform in [-1, 1]^d, and one pointing away from the corner (g_1 = +1, the others uniform in [-1, 0]: the
    corner is the worst vertex).  Distances r are log-spaced from 1 down to 1e-6."""
    d = int(d)
    if d < 2:
        raise ValueError(f"d must be >= 2 (a simplex with a corner to approach), got {d}")
    if not (F1 > 0 and math.isfinite(F1)):
        raise ValueError(f"F1 must be a finite number > 0, got {F1}")
    if not (0 < eta <= kfe.smg_max_step(1.0)):
        raise ValueError(f"eta must be in (0, 1/8] (Lemma 5.3 with G_inf = 1), got {eta}")
    rng = np.random.default_rng(seed)
    g_rand = rng.uniform(-1, 1, d)
    g_bad = np.concatenate([[1.0], rng.uniform(-1, 0, d - 1)])
    grads = np.vstack([g_rand, g_bad])
    dist = np.logspace(0, -6, int(n))
    center = np.full(d, F1 / d)
    corner = np.zeros(d)
    corner[0] = F1
    up = np.empty((len(grads), dist.size))
    var = np.empty((len(grads), dist.size))
    for k, g in enumerate(grads):
        for i, r in enumerate(dist):
            w = r * center + (1 - r) * corner
            up[k, i] = kfe.prop22_inner_product(w, g, eta, F1)
            var[k, i] = kfe.prop22_variance_form(w, g, eta, F1)
    eu = np.array([-eta * float(np.sum((g - g.mean()) ** 2)) for g in grads])
    return Prop22Data(d, float(F1), float(eta), dist, grads, up, var, eu)


@_style.book_figure
def prop22_figure(d=10, F1=1.0, eta=0.05, seed=0, figsize=(8.0, 7.0)) -> Figure:
    """Top: the inner product (w^{t+1} - w^t) . grad of one SMG step along the path from the center
    (r = 1) to the corner (r = 0), computed from the update (lines, solid) and from Proposition 2.2's
    formula -eta F1 Var (markers).  Bottom: its absolute value from the update near the corner on log-log axes,
    against the Euclidean step's -eta ||g - mean g||^2 (dotted levels).  The simplex has ``d`` coordinates (the
    lectures call this number N)."""
    data = prop22_path_data(d, F1, eta, seed=seed)
    fig = Figure(figsize=figsize, layout="constrained")
    ax0, ax1 = fig.subplots(2, 1)
    labels = ["random gradient", "gradient against the corner"]
    x = data.dist
    for k, lbl in enumerate(labels):
        c = ("C2", "C4")[k]
        ax0.plot(1 - x, data.from_update[k], color=c, lw=2, label=f"{lbl}, from the note's update (3)")
        ax0.plot((1 - x)[::6], data.variance_form[k][::6], "o", color=c, ms=4, mfc="none")
        ax1.loglog(x, np.abs(data.from_update[k]), color=c, lw=2, label=lbl)
        ax1.axhline(abs(data.euclidean[k]), color=c, ls=":", lw=1.2)
    ax0.plot([], [], "o", color="0.3", mfc="none", ms=4, label=r"Proposition 2.2: $-\eta F_1\,\mathrm{Var}$")
    ax0.axhline(0, color="0.6", lw=0.8)
    ax0.set_xlabel("position $1 - r$ on the path  $w = r\\,$center$ + (1 - r) F_1 e_1$")
    ax0.set_ylabel(r"$(w^{t+1} - w^t)\cdot\nabla$")
    ax0.set_title(f"Proposition 2.2: never positive (N = {data.d}, η = {data.eta:g}, F₁ = {data.F1:g})",
                  fontsize=10)
    ax0.legend(fontsize=9, loc="upper left")
    ax0.grid(True, alpha=0.3)
    ax1.plot([], [], ls=":", color="0.3", label=r"Euclidean step in the plane: $\eta\|g - \bar g\|_2^2$")
    ax1.set_xlabel("distance to the corner $r$")
    ax1.set_ylabel(r"$|(w^{t+1} - w^t)\cdot\nabla|$")
    ax1.set_title("the note's footnote 4: it vanishes linearly at the corner", fontsize=10)
    ax1.legend(fontsize=9, loc="lower right")
    ax1.grid(True, which="major", alpha=0.3)
    return fig


# ---------------------------------------------------------------------------------------------- demo 1
def stream_length(d) -> int:
    """The longest stream the scaling demo draws at dimension d: T_CAP at every d (streams cost O(d) memory)."""
    if int(d) < 1:
        raise ValueError(f"d must be >= 1, got {d}")
    return T_CAP


def horizon_grid(T_max, T_min=16, per_octave=4) -> np.ndarray:
    """Horizons T_min, T_min 2^(1/per_octave), ... (rounded; 16, 19, 23, 27, ... by default) up to and including
    T_max; a grid point within 5% of T_max is replaced by T_max."""
    T_max = int(T_max)
    if T_max < T_min:
        raise ValueError(f"T_max must be >= {T_min}, got {T_max}")
    if not (isinstance(per_octave, (int, np.integer)) and per_octave >= 1):
        raise ValueError(f"per_octave must be a positive integer, got {per_octave!r}")
    n = int(math.ceil(per_octave * math.log2(T_max / T_min))) + 1
    g = np.unique(np.round(T_min * 2.0 ** (np.arange(n) / per_octave)).astype(np.int64))
    g = g[g < T_max / 1.05] if T_max > T_min else g[:0]
    return np.append(g, T_max)


def crossing(grid, values, eps) -> float:
    """The first horizon at which ``values`` (excess risks along ``grid``) is <= eps, interpolated linearly in
    log-log coordinates between the grid points around it; inf if it never is."""
    grid = np.asarray(grid, dtype=np.float64)
    values = np.asarray(values, dtype=np.float64)
    below = np.nonzero(values <= eps)[0]
    if below.size == 0:
        return math.inf
    k = int(below[0])
    if k == 0:
        return float(grid[0])
    x0, x1 = math.log(grid[k - 1]), math.log(grid[k])
    y0, y1 = math.log(max(values[k - 1], 1e-300)), math.log(max(values[k], 1e-300))
    if y1 == y0:
        return float(grid[k])
    return float(math.exp(x0 + (math.log(eps) - y0) * (x1 - x0) / (y1 - y0)))


@dataclass(frozen=True)
class HorizonRuns:
    """SMG and SG run on fresh streams, one run per seed and horizon T of ``grid``, each with its theorem's
    step size for that T (Theorem 2.3 for SMG, 2.1 for SG); ``excess[name]`` is the excess risk of the
    averaged decision, shape (n_seeds, len(grid))."""

    constants: TeacherConstants
    grid: np.ndarray
    excess: dict

    @property
    def n_seeds(self):
        return self.excess["SMG"].shape[0]

    def median(self, name):
        return np.median(self.excess[name], axis=0)

    def samples_needed(self, name, eps):
        """(crossing of the median over seeds, crossing of every seed); inf where eps is not reached."""
        med = crossing(self.grid, self.median(name), eps)
        per = np.array([crossing(self.grid, e, eps) for e in self.excess[name]])
        return med, per


def _workers() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


#: the runs of one stream at one d: (SMG row, SG row) of excess risks along the grid, per
#: (d, p, beta, stream seed, T_max, per_octave); a bounded LRU (each entry is two short rows)
_STREAM_RUNS: "OrderedDict[tuple, tuple]" = OrderedDict()
_STREAM_RUNS_MAX = 4096
_STREAM_RUNS_LOCK = threading.Lock()


@threadpool_limits.wrap(limits=1, user_api="blas")
def _run_streams(d, p, beta, seeds, T_max, per_octave):
    """Compute and cache the runs of every stream seed of ``seeds`` (all horizons, both algorithms), spread
    over the cores: one task per (seed, algorithm, horizon), the longest first so that the threads finish
    together (the kernels release the GIL)."""
    c = teacher_constants(d, p, beta)
    grid = horizon_grid(T_max, per_octave=per_octave)
    runs = {"SMG": (smg_stream, c.smg_eta, c.F1), "SG": (sg_l2_stream, c.sg_eta, c.F2)}

    def task(job):
        seed, name, k = job
        fn, eta, radius = runs[name]
        T = int(grid[k])
        return fn(d, T, eta(T), radius, p, beta, seed=seed)[1]

    jobs = sorted(((s, n, k) for s in seeds for n in NAMES for k in range(grid.size)), key=lambda j: -grid[j[2]])
    with ThreadPoolExecutor(_workers()) as pool:
        w_avg = dict(zip(jobs, pool.map(task, jobs)))
    for s in seeds:
        rows = []
        for n in NAMES:
            e = excess_risk_rows(np.array([w_avg[(s, n, k)] for k in range(grid.size)]), p, beta)
            e.setflags(write=False)
            rows.append(e)
        with _STREAM_RUNS_LOCK:
            _STREAM_RUNS[(d, p, beta, s, T_max, per_octave)] = tuple(rows)
            while len(_STREAM_RUNS) > _STREAM_RUNS_MAX:
                _STREAM_RUNS.popitem(last=False)


def horizon_runs(d, p=2, beta=2.0, n_seeds=5, T_max=None, data_seed=0, per_octave=SCALING_PER_OCTAVE) -> HorizonRuns:
    """Demo 1's runs at one dimension d: for seeds data_seed, data_seed + 1, ... the teacher's stream, and for
    every horizon T of ``horizon_grid(T_max, per_octave=per_octave)`` (T_max default :func:`stream_length`)
    SMG (F1 = beta p, eta of Theorem 2.3 with d_smg = 2d + 1) and SG (F2 = beta sqrt(p), eta of Theorem 2.1)
    make one pass over its first T examples; the excess risk of the averaged decision is recorded
    (:func:`excess_risk_rows`).  The runs are streamed (O(d) memory each), spread over the CPU's cores, and
    cached per stream seed: n seeds are the first n of any larger number (bit for bit), so changing the
    number of seeds computes at most the seeds not seen before."""
    d, p, n_seeds = int(d), int(p), int(n_seeds)
    check_teacher(d, p, beta)
    if n_seeds < 1:
        raise ValueError(f"n_seeds must be >= 1, got {n_seeds}")
    T_max = stream_length(d) if T_max is None else int(T_max)
    grid = horizon_grid(T_max, per_octave=per_octave)
    beta, per_octave = float(beta), int(per_octave)
    seeds = [int(data_seed) + s for s in range(n_seeds)]
    with _STREAM_RUNS_LOCK:
        missing = [s for s in seeds if (d, p, beta, s, T_max, per_octave) not in _STREAM_RUNS]
    if missing:
        _run_streams(d, p, beta, missing, T_max, per_octave)
    with _STREAM_RUNS_LOCK:
        rows = []
        for s in seeds:
            key = (d, p, beta, s, T_max, per_octave)
            _STREAM_RUNS.move_to_end(key)
            rows.append(_STREAM_RUNS[key])
    ex = {}
    for i, name in enumerate(NAMES):
        ex[name] = np.array([r[i] for r in rows])
        ex[name].setflags(write=False)
    return HorizonRuns(teacher_constants(d, p, beta), grid, ex)


@dataclass(frozen=True)
class ScalingData:
    """Demo 1: for every d of ``ds``, the runs, and the samples each algorithm needs to bring the median
    excess risk to eps (``needed[name]``, inf if not within the stream) with every seed's own crossing
    (``per_seed[name]``, shape (n_d, n_seeds)) and the horizon at which the bound reaches eps."""

    ds: tuple
    eps: float
    runs: tuple
    needed: dict
    per_seed: dict
    bound_samples: dict

    @property
    def T_max(self):
        return np.array([r.grid[-1] for r in self.runs])

    def growth(self, name, d_from, d_to):
        """needed(d_to)/needed(d_from) (inf if d_to's target was not reached within its stream)."""
        i, j = self.ds.index(d_from), self.ds.index(d_to)
        return self.needed[name][j] / self.needed[name][i]


def scaling_data(d_max=100_000, p=2, beta=2.0, eps=0.15, n_seeds=5, data_seed=0) -> ScalingData:
    """Demo 1's computation: :func:`horizon_runs` for every d of SCALING_DS up to ``d_max`` and the samples
    needed to reach excess risk ``eps`` (median over seeds).  The runs are cached per d, so changing eps is
    free."""
    check_choice("d_max", d_max, SCALING_LIMITS["d_max"])
    check_range("p", p, SCALING_LIMITS)
    check_range("beta", beta, SCALING_LIMITS)
    check_range("eps", eps, SCALING_LIMITS)
    check_range("n_seeds", n_seeds, SCALING_LIMITS)
    ds = tuple(d for d in SCALING_DS if d <= d_max)
    runs = tuple(horizon_runs(d, p, beta, n_seeds, data_seed=data_seed) for d in ds)
    needed = {n: np.empty(len(ds)) for n in NAMES}
    per = {n: np.empty((len(ds), n_seeds)) for n in NAMES}
    bnd = {n: np.empty(len(ds)) for n in NAMES}
    for i, r in enumerate(runs):
        for n in NAMES:
            needed[n][i], per[n][i] = r.samples_needed(n, eps)
            bnd[n][i] = r.constants.bound_samples(n, eps)
    return ScalingData(ds, float(eps), runs, needed, per, bnd)


@_style.book_figure
def scaling_figure(d_max=100_000, p=2, beta=2.0, eps=0.15, n_seeds=5, data_seed=0, figsize=(8.0, 10.0),
                   fig=None) -> Figure:
    """Demo 1 as a Figure.  Top: the samples SMG and SG need to bring the excess risk of their averaged
    decision to eps (median over seeds, bars from the fastest to the slowest seed; a triangle marks a
    target not reached within the stream), with curves proportional to log(2d + 1) and to d through the
    d = 100 measurements, and the samples at which the bounds of Theorems 2.3 and 2.1 reach eps.  Bottom: the
    median excess risk against the number of samples for every d.  ``fig``: a figure this function returned
    before, redrawn in place (:func:`l1lab.book.live.figure_axes`)."""
    data = scaling_data(d_max, p, beta, eps, n_seeds, data_seed)
    fig, (ax0, ax1) = figure_axes(fig, figsize, nrows=2, ncols=1)
    ds = np.array(data.ds, dtype=np.float64)
    dd = np.logspace(np.log10(ds[0]), np.log10(max(ds[-1], 100)), 100)
    shapes = {"SMG": lambda x: np.log(2 * x + 1), "SG": lambda x: x}
    guide_lbl = {"SMG": r"Theorem 2.3's shape $\propto \log(2d+1)$", "SG": r"Theorem 2.1's shape $\propto d$"}

    def warm_up(x):
        return np.log(2 * x / p) ** 2 / np.log(2 * x + 1)
    for n in NAMES:
        col = ALGORITHM_COLORS[n]
        need, per = data.needed[n], data.per_seed[n]
        ok = np.isfinite(need)
        lo = np.where(np.isfinite(per), per, np.nan)
        lo_min = np.nanmin(np.where(np.isfinite(lo), lo, np.inf), axis=1)
        hi_max = np.max(per, axis=1)
        for i in np.nonzero(ok)[0]:
            top = hi_max[i] if np.isfinite(hi_max[i]) else data.T_max[i]
            ax0.plot([ds[i], ds[i]], [lo_min[i], top], color=col, lw=1.2, alpha=0.6)
        ax0.plot(ds[ok], need[ok], "o-", color=col, lw=2, ms=6, label=f"{n}: median over {n_seeds} seeds")
        if (~ok).any():
            ax0.plot(ds[~ok], data.T_max[~ok], "^", color=col, ms=10, mfc="none", mew=2,
                     label=f"{n}: not reached within the stream")
            for i in np.nonzero(~ok)[0]:
                ax0.annotate(f"> {data.T_max[i]:,}", (ds[i], data.T_max[i]), textcoords="offset points",
                             xytext=(-8, -16), ha="right", fontsize=9, color=col)
        if 100 in data.ds and np.isfinite(need[data.ds.index(100)]):
            ref = need[data.ds.index(100)] / shapes[n](100.0)
            ax0.plot(dd, ref * shapes[n](dd), color=col, ls=":", lw=1.3, label=f"{n}: {guide_lbl[n]}, through d = 100")
            if n == "SMG":
                ref = need[data.ds.index(100)] / warm_up(100.0)
                ax0.plot(dd, ref * warm_up(dd), color=col, ls="-.", lw=1, alpha=0.8,
                         label=r"SMG: predicted warm-up $\propto \log^2(2d/p)/\log(2d+1)$")
        ax0.plot(ds, data.bound_samples[n], color=col, ls="--", lw=1.3,
                 label=f"{n}: Theorem {'2.3' if n == 'SMG' else '2.1'}'s bound reaches ε")
    _log_axes(ax0)
    ax0.set_xlabel("dimension $d$")
    ax0.set_ylabel(f"samples to reach excess risk ε = {eps:g}")
    ax0.legend(fontsize=9, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2)
    ax0.grid(True, which="major", alpha=0.3)
    c = data.runs[0].constants
    ax0.set_title(f"p = {p} relevant of d, β = {beta:g}: F₁G∞ = {c.F1 * c.G_inf:g}, F₂G₂ = {c.F2:.3g}√d",
                  fontsize=10)
    for n in NAMES:   # measured curves: solid, each method in shades of its colour
        for r in data.runs:
            t = -0.6 + 1.1 * SCALING_DS.index(r.constants.d) / (len(SCALING_DS) - 1)   # light: small d
            ax1.plot(r.grid, np.maximum(r.median(n), 1e-4), color=_style.shade(n, t), lw=1.8,
                     label=f"{n}, d = {r.constants.d:,}")
        if n == "SMG":   # the legend's first column: SMG's curves and eps; the second: SG's
            ax1.axhline(eps, color="k", lw=1, ls=":", label=f"ε = {eps:g}")
    _log_axes(ax1)
    ax1.set_xlabel("samples $T$ (one pass; step of the theorem for horizon $T$)")
    ax1.set_ylabel(r"risk$(\bar w^T)$ − risk$(w^\star)$, median over seeds")
    ax1.legend(fontsize=9, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2)
    ax1.grid(True, which="major", alpha=0.3)
    ax1.set_title("SMG in red, SG in blue; darker: larger d", fontsize=10)
    return fig


def scaling_demo(**defaults):
    """Live demo 1: the largest d, p, beta, eps and the number of seeds, redrawing :func:`scaling_figure`.

    The widget starts at ``SCALING_DEMO_DEFAULTS`` (d up to 1,000; the chapter's figure goes to 10^5) and its
    "largest d" slider stops at the larger of 1,000 and the ``d_max`` asked for, so that every move answers in
    a fraction of a second on two cores: the runs are cached per d and per seed, so moving d down, the number
    of seeds and eps compute nothing, and a new p or beta computes d = 10, 100 and 1,000 (about 0.3 s of CPU
    for five seeds).  ``scaling_demo(d_max=100_000)`` offers the figure's full range; there a new p or beta
    takes about 20 s of CPU (d = 10^4 about 2 s)."""
    import ipywidgets as widgets

    v = dict(SCALING_DEMO_DEFAULTS, **defaults)
    lim = SCALING_LIMITS
    check_choice("d_max", v["d_max"], lim["d_max"])
    for name in ("p", "beta", "eps", "n_seeds"):
        check_range(name, v[name], lim)
    top = max(v["d_max"], SCALING_DEMO_DEFAULTS["d_max"])
    controls = dict(
        d_max=widgets.SelectionSlider(options=[d for d in lim["d_max"] if d <= top], value=v["d_max"],
                                      description="largest d", continuous_update=False),
        p=widgets.IntSlider(value=v["p"], min=lim["p"][0], max=lim["p"][1], description="p",
                            continuous_update=False),
        beta=widgets.FloatSlider(value=v["beta"], min=lim["beta"][0], max=lim["beta"][1], step=0.5,
                                 description="β", continuous_update=False),
        eps=widgets.FloatSlider(value=v["eps"], min=lim["eps"][0], max=lim["eps"][1], step=0.01,
                                description="ε", continuous_update=False),
        n_seeds=widgets.IntSlider(value=v["n_seeds"], min=lim["n_seeds"][0], max=lim["n_seeds"][1],
                                  description="seeds", continuous_update=False),
    )

    return wire(controls, scaling_figure, [["d_max", "p", "beta"], ["eps", "n_seeds"]])


def scaling_player(**static):
    """Demo 1 for the HTML book: the live widget (:func:`scaling_demo`) precomputed over :data:`SCALING_STATIC`
    (``static`` overrides its entries) by :func:`l1lab.book.static.static_player`."""
    return static_player(scaling_demo(), **dict(SCALING_STATIC, **static))


# ------------------------------------------------------------------------------------- regret figure
@dataclass(frozen=True)
class RegretData:
    """For each horizon T of ``Ts`` and seed, one run of SMG and of SG with the theorem's step for T:
    ``regret[name]`` is the regret of the realized sequence of costs c^t(w) = L(<w, x_t>, y_t) against the
    best fixed decision in hindsight (the noiseless setting: each gradient is exact for its c^t), and
    ``excess[name]`` the excess risk of the averaged decision (the noisy setting, c = risk)."""

    constants: TeacherConstants
    Ts: np.ndarray
    delta: float
    regret: dict
    excess: dict

    def ratios(self, name):
        """(noiseless bound)/(median regret) and (bound with delta)/(median excess risk), per T."""
        rg = np.median(self.regret[name], axis=0)
        ex = np.median(self.excess[name], axis=0)
        return (self.constants.bound(name, self.Ts) / rg,
                self.constants.bound(name, self.Ts, self.delta) / np.maximum(ex, 1e-12))


@lru_cache(maxsize=256)
@threadpool_limits.wrap(limits=1, user_api="blas")
def _regret_seed(d, p, beta, Ts, seed):
    """One stream's part of the regret figure: (regret, excess) arrays of shape (2, len(Ts)), rows SMG, SG.
    The comparator of each run is :func:`l1lab.solvers.online.best_fixed_value_logistic` (best_fixed_decision's
    algorithm, compiled) on the first T examples, held densely."""
    c = teacher_constants(d, p, beta)
    prob = teacher_problem(max(Ts), d, p, beta, seed=seed)
    X = np.ascontiguousarray(prob.X.toarray())
    rg = np.empty((2, len(Ts)))
    W = np.empty((2 * len(Ts), d))
    for k, T in enumerate(Ts):
        order = np.arange(T)
        for i, (run, l2, radius) in enumerate(((smg(prob, c.smg_eta(T), c.F1, order=order), False, c.F1),
                                               (sg_l2(prob, c.sg_eta(T), c.F2, order=order), True, c.F2))):
            rg[i, k] = float(run.costs.mean() - best_fixed_value_logistic(X[:T], prob.y[:T], l2, radius, 100, 1e-12))
            W[2 * k + i] = run.w_avg
    e = excess_risk_rows(W, p, beta)
    ex = np.vstack([e[0::2], e[1::2]])
    for a in (rg, ex):
        a.setflags(write=False)
    return rg, ex


def regret_data(d=100, p=2, beta=2.0, n_seeds=5, delta=0.05, Ts=REGRET_TS, data_seed=0) -> RegretData:
    """The regret figure's computation (see :class:`RegretData`).  The comparator is the minimizer of
    :func:`l1lab.solvers.online.best_fixed_decision` (compiled: :func:`l1lab.solvers.online.best_fixed_value_logistic`)
    over each algorithm's own set (l1 ball of radius F1 for SMG with its +- split and dummy, l2 ball of radius F2
    for SG), 100 accelerated iterations (the value is then stable to about 5 digits; the solver's own tolerance
    would run all 3000).  The runs are cached per stream (seed data_seed + 1000 + s), so n seeds are the first n
    of any larger number, bit for bit; delta only enters the bounds, so changing it computes nothing."""
    check_choice("d", d, REGRET_LIMITS["d"])
    check_range("p", p, REGRET_LIMITS)
    check_range("beta", beta, REGRET_LIMITS)
    check_range("n_seeds", n_seeds, REGRET_LIMITS)
    check_range("delta", delta, REGRET_LIMITS)
    Ts = tuple(int(t) for t in Ts)
    if not Ts or min(Ts) < 1 or max(Ts) * d > ENTRY_BUDGET:
        raise ValueError(f"Ts must be positive horizons with max(Ts) * d <= {ENTRY_BUDGET:.0e}, got {Ts}")
    d, p, beta = int(d), int(p), float(beta)
    parts = [_regret_seed(d, p, beta, Ts, int(data_seed) + 1000 + s) for s in range(int(n_seeds))]
    rg = {n: np.array([rgs[i] for rgs, _ in parts]) for i, n in enumerate(NAMES)}
    ex = {n: np.array([exs[i] for _, exs in parts]) for i, n in enumerate(NAMES)}
    return RegretData(teacher_constants(d, p, beta), np.asarray(Ts, dtype=np.int64), float(delta), rg, ex)


@_style.book_figure
def regret_figure(d=100, p=2, beta=2.0, n_seeds=5, delta=0.05, data_seed=0, figsize=(8.0, 7.6),
                  fig=None) -> Figure:
    """Top (noiseless): the regret of the realized sequence against Theorems 2.3 and 2.1 without delta.
    Bottom (noisy): the excess risk of the averaged decision against the same theorems with probability
    1 - delta (Corollary 4.1 for SMG; online-to-batch for SG).  Medians over seeds with min-max bands; the
    two panels share both axes.  ``fig``: a figure this function returned before, redrawn in place
    (:func:`l1lab.book.live.figure_axes`)."""
    data = regret_data(d, p, beta, n_seeds, delta, data_seed=data_seed)
    c = data.constants
    T = data.Ts.astype(np.float64)
    fig, (ax0, ax1) = figure_axes(fig, figsize, nrows=2, ncols=1, sharex=True, sharey=True)
    handles = []
    for n in NAMES:
        col = ALGORITHM_COLORS[n]
        thm = "2.3" if n == "SMG" else "2.1"
        for ax, vals, bnd, tag in ((ax0, data.regret[n], c.bound(n, T), "noiseless"),
                                   (ax1, data.excess[n], c.bound(n, T, delta), f"δ = {delta:g}")):
            ax.fill_between(T, np.maximum(vals.min(axis=0), 1e-4), vals.max(axis=0), color=col, alpha=0.2, lw=0)
            med, = ax.plot(T, np.maximum(np.median(vals, axis=0), 1e-4), "o-", color=col, lw=2, ms=4,
                           label=f"{n}: median of {n_seeds} seeds, band min–max")
            bl, = ax.plot(T, bnd, color=col, ls="--", lw=1.5, label=f"Theorem {thm} ({tag})")
            if ax is ax0:
                handles += [(med, f"{n}: median of {n_seeds} seeds, band min–max"),
                            (bl, f"Theorem {thm}'s bound for {n}")]
    ax0.set_ylabel(r"regret $R_T$")
    ax0.set_title("noiseless: costs $c^t(w) = L(\\langle w, x_t\\rangle, y_t)$, exact gradients, bounds without δ",
                  fontsize=10)
    ax1.set_ylabel(r"risk$(\bar w^T)$ − risk$(w^\star)$")
    ax1.set_title(f"noisy: $c$ = the risk, one example = one noisy gradient, bounds with δ = {delta:g}",
                  fontsize=10)
    ax1.set_xlabel("horizon $T$ (step of the theorem for $T$)")
    for ax in (ax0, ax1):
        _log_axes(ax)
        ax.grid(True, which="major", alpha=0.3)
    fig.legend([h for h, _ in handles], [lbl for _, lbl in handles], loc="outside lower center", ncol=2, fontsize=9)
    fig.suptitle(f"d = {c.d}, p = {c.p}, β = {c.beta:g}: F₁ = {c.F1:g}, G∞ = 1, F₂ = {c.F2:.3g}, "
                 f"G₂ = √d = {c.G2:.3g}; SMG in N = 2d + 1 = {c.d_smg} coordinates", fontsize=10)
    return fig


def regret_demo(**defaults):
    """Live regret figure: d, p, beta, the number of seeds and delta, redrawing :func:`regret_figure`.  Starts
    at ``REGRET_DEMO_DEFAULTS`` (three seeds; the chapter's figure has five).  The runs are cached per seed
    and delta only changes the bounds, so the seeds and delta answer with a redraw; a new d, p or beta
    computes every seed (d = 100: about 25 ms of CPU per seed, d = 300 about 60 ms)."""
    import ipywidgets as widgets

    v = dict(REGRET_DEMO_DEFAULTS, **defaults)
    lim = REGRET_LIMITS
    check_choice("d", v["d"], lim["d"])
    for name in ("p", "beta", "n_seeds", "delta"):
        check_range(name, v[name], lim)
    controls = dict(
        d=widgets.SelectionSlider(options=list(lim["d"]), value=v["d"], description="d", continuous_update=False),
        p=widgets.IntSlider(value=v["p"], min=lim["p"][0], max=lim["p"][1], description="p",
                            continuous_update=False),
        beta=widgets.FloatSlider(value=v["beta"], min=lim["beta"][0], max=lim["beta"][1], step=0.5,
                                 description="β", continuous_update=False),
        n_seeds=widgets.IntSlider(value=v["n_seeds"], min=lim["n_seeds"][0], max=lim["n_seeds"][1],
                                  description="seeds", continuous_update=False),
        delta=log_slider(widgets, v["delta"], *lim["delta"], "δ", step=0.25, readout_format=".2g"),
    )

    return wire(controls, regret_figure, [["d", "p", "beta"], ["n_seeds", "delta"]])


def regret_player(**static):
    """The regret figure for the HTML book: :func:`regret_demo` precomputed over :data:`REGRET_STATIC`."""
    return static_player(regret_demo(), **dict(REGRET_STATIC, **static))


# ---------------------------------------------------------------------------------------------- demo 2
@dataclass(frozen=True)
class AveragingData:
    """Demo 2: SMG with the constant step eta = eta_mult * (Theorem 2.3's step for horizon T0), run for tau
    steps on a fresh stream, for every tau of ``taus``; excess risk of the averaged decision ``avg`` and of
    the last one ``last`` (n_seeds, len(taus)); the bounds of Lemma 5.3 at this eta and of Corollary 3.1.
    ``clipped``: eta_mult * eta(T0) was above Lemma 5.3's limit 1/(8 G_inf), and eta is that limit."""

    constants: TeacherConstants
    T0: int
    eta: float
    eta_mult: float
    taus: np.ndarray
    avg: np.ndarray
    last: np.ndarray
    clipped: bool = False

    def lemma53(self, delta=None):
        """Lemma 5.3 at the fixed eta for every tau, plus Lemma 5.1's Azuma term (B = 4 F1 G_inf) if delta is
        given: a bound on risk(avg) - risk(w*) that holds for every tau (in expectation without delta)."""
        c = self.constants
        b = np.array([kfe.lemma53_bound(self.eta, t, c.d_smg, c.F1, c.G_inf) for t in self.taus])
        if delta is not None:
            b += np.array([kfe.lemma51_azuma_term(4 * c.F1 * c.G_inf, t, delta) for t in self.taus])
        return b

    @property
    def lemma53_limit(self):
        """lim_{tau -> inf} of Lemma 5.3's bound at this eta: 4 eta F1 G_inf^2."""
        c = self.constants
        return 4 * self.eta * c.F1 * c.G_inf ** 2

    @property
    def cor31_limsup(self):
        """Corollary 3.1's almost-sure level 4 F1 G_inf sqrt(log d / T0) (for eta_mult = 1)."""
        c = self.constants
        return kfe.cor31_limsup(self.T0, c.d_smg, c.F1, c.G_inf)


def averaging_taus(d, T0) -> np.ndarray:
    """Demo 2's horizons: every other point of ``horizon_grid(tau_max, T_min=10)`` and tau_max =
    min(30 T0, AVERAGING_BUDGET / d)."""
    tau_max = int(min(TAU_MULT * int(T0), AVERAGING_BUDGET // int(d)))
    taus = horizon_grid(tau_max, T_min=10)[::2]
    if taus[-1] != tau_max:
        taus = np.append(taus, tau_max)
    return taus


@lru_cache(maxsize=512)
@threadpool_limits.wrap(limits=1, user_api="blas")
def _averaging_seed(d, p, beta, T0, eta, seed):
    """One stream's part of demo 2 at the constant step ``eta``: (avg, last) excess risks along
    :func:`averaging_taus`, from one streamed run with snapshots
    (:func:`l1lab.solvers.streamed.smg_stream_snapshots`)."""
    c = teacher_constants(d, p, beta)
    w_avg, w_last = smg_stream_snapshots(d, averaging_taus(d, T0), eta, c.F1, p, beta, seed)
    avg, last = excess_risk_rows(w_avg, p, beta), excess_risk_rows(w_last, p, beta)
    for a in (avg, last):
        a.setflags(write=False)
    return avg, last


def averaging_data(d=100, p=2, beta=2.0, T0=1_000, eta_mult=1.0, n_seeds=5, data_seed=0,
                   clip=False) -> AveragingData:
    """Demo 2's computation (see :class:`AveragingData`): taus log-spaced up to min(30 T0, AVERAGING_BUDGET/d)
    (:func:`averaging_taus`).  SMG runs once per stream (seed data_seed + 2000 + s) with checkpoints at the
    taus: with a constant step, the run for tau is the first tau steps of the longest run.  Cached per
    stream and step, so n seeds are the first n of any larger number, bit for bit.

    A step eta_mult * eta(T0) above Lemma 5.3's limit 1/(8 G_inf) (where the lemma says nothing and SMG may
    leave the simplex) raises a ValueError, or, with ``clip``, is replaced by that limit (``clipped`` is then
    True): the live demo and its player clip, and their figure says so."""
    lim = AVERAGING_LIMITS
    check_choice("d", d, lim["d"])
    check_choice("T0", T0, lim["T0"])
    for name, val in (("p", p), ("eta_mult", eta_mult), ("n_seeds", n_seeds)):
        check_range(name, val, lim)
    c = teacher_constants(int(d), int(p), beta)
    d, p, beta, T0, eta_mult = int(d), int(p), float(beta), int(T0), float(eta_mult)
    eta, top = eta_mult * c.smg_eta(T0), kfe.smg_max_step(c.G_inf)
    clipped = eta > top
    if clipped and not clip:
        raise ValueError(f"eta = {eta_mult:g} x {c.smg_eta(T0):.4g} exceeds Lemma 5.3's 1/(8 G_inf) = "
                         f"{top:g}; use a smaller eta_mult or a longer T0 (or clip=True)")
    eta = min(eta, top)
    parts = [_averaging_seed(d, p, beta, T0, eta, int(data_seed) + 2000 + s) for s in range(int(n_seeds))]
    avg = np.array([a for a, _ in parts])
    last = np.array([b for _, b in parts])
    return AveragingData(c, T0, eta, eta_mult, averaging_taus(d, T0), avg, last, clipped)


def draw_averaging(ax, data: AveragingData, delta=0.05, ylim=None):
    """Demo 2 on one axis: excess risk of the averaged and of the last decision against tau (median and
    min-max band over seeds), Lemma 5.3's bound at this step (with and without delta), its limit 4 eta F1 G^2
    and Corollary 3.1's level."""
    c = data.constants
    t = data.taus.astype(np.float64)
    for vals, col, lbl in ((data.avg, ALGORITHM_COLORS["SMG"], r"averaged $\bar w^\tau$"),
                           (data.last, _style.shade("SMG", -0.55), r"last $w^\tau$")):
        ax.fill_between(t, np.maximum(vals.min(axis=0), 1e-5), vals.max(axis=0), color=col, alpha=0.2, lw=0)
        ax.plot(t, np.maximum(np.median(vals, axis=0), 1e-5), color=col, lw=2, label=f"SMG, {lbl}: median")
    ax.plot(t, data.lemma53(), color="k", ls="--", lw=1.3, label=r"Lemma 5.3 at this $\eta$ (expectation)")
    ax.plot(t, data.lemma53(delta), color="k", ls=":", lw=1.3, label=f"Lemma 5.3 + 5.1, prob. ≥ {1 - delta:g}")
    # the two levels are theory too: black and grey, in line styles of their own (no algorithm's colour)
    ax.axhline(data.lemma53_limit, color="k", lw=1.3, ls="-.", label=r"$4\eta F_1G_\infty^2$ (its limit)")
    ax.axhline(data.cor31_limsup, color="0.5", lw=1.3, ls=(0, (5, 2, 1, 2)),
               label=r"Cor. 3.1: $4F_1G_\infty\sqrt{\log N/T_0}$, N = 2d + 1")
    ax.axvline(data.T0, color="0.6", lw=0.8)
    _log_axes(ax)
    if ylim is not None:
        ax.set_ylim(*ylim)
    ax.set_xlabel(r"steps $\tau$ (constant step $\eta$; vertical line: $T_0$)")
    ax.set_ylabel(r"risk − risk$(w^\star)$")
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize=9, loc="lower left")
    if data.clipped:   # the step the multiplier asks for is above Lemma 5.3's limit: the run uses the limit
        step = (f"η = min({data.eta_mult:.2g} × η(T₀ = {data.T0:,}), 1/(8G∞)) = {data.eta:.3g}, "
                f"{data.avg.shape[0]} seeds\nthe step is clipped at Lemma 5.3's largest step 1/(8G∞)")
    else:
        step = f"η = {data.eta_mult:.2g} × η(T₀ = {data.T0:,}) = {data.eta:.3g}, {data.avg.shape[0]} seeds"
    ax.set_title(f"d = {c.d}, p = {c.p}, β = {c.beta:g}: {step}", fontsize=10)


@_style.book_figure
def averaging_figure(d=100, p=2, beta=2.0, T0=1_000, eta_mult=1.0, n_seeds=5, delta=0.05, data_seed=0,
                     figsize=(8.0, 4.8), fig=None, clip=False) -> Figure:
    """Demo 2 as a Figure (:func:`draw_averaging`).  ``clip``: a step above Lemma 5.3's limit is that limit,
    and the title says so (:func:`averaging_data`).  ``fig``: a figure this function returned before, redrawn
    in place (:func:`l1lab.book.live.figure_axes`)."""
    data = averaging_data(d, p, beta, T0, eta_mult, n_seeds, data_seed, clip=clip)
    fig, ax = figure_axes(fig, figsize)
    draw_averaging(ax, data, delta)
    return fig


def averaging_demo(**defaults):
    """Live demo 2: d, p, T0, the step multiplier and the number of seeds, redrawing :func:`averaging_figure`.
    Where the multiplier would take the step above Lemma 5.3's limit 1/(8 G_inf) (a short T0 with a large
    multiplier), the run uses that limit and the figure's title says so (``clip=True``)."""
    import ipywidgets as widgets

    v = dict(AVERAGING_DEFAULTS, **defaults)
    lim = AVERAGING_LIMITS
    check_choice("d", v["d"], lim["d"])
    check_choice("T0", v["T0"], lim["T0"])
    for name in ("p", "eta_mult", "n_seeds"):
        check_range(name, v[name], lim)
    controls = dict(
        d=widgets.SelectionSlider(options=list(lim["d"]), value=v["d"], description="d", continuous_update=False),
        p=widgets.IntSlider(value=v["p"], min=lim["p"][0], max=lim["p"][1], description="p",
                            continuous_update=False),
        T0=widgets.SelectionSlider(options=list(lim["T0"]), value=v["T0"], description="T₀",
                                   continuous_update=False),
        eta_mult=log_slider(widgets, v["eta_mult"], *lim["eta_mult"], "η / η(T₀)", step=0.1, readout_format=".2g"),
        n_seeds=widgets.IntSlider(value=v["n_seeds"], min=lim["n_seeds"][0], max=lim["n_seeds"][1],
                                  description="seeds", continuous_update=False),
    )

    return wire(controls, partial(averaging_figure, clip=True), [["d", "p", "T0"], ["eta_mult", "n_seeds"]])


def averaging_player(**static):
    """Demo 2 for the HTML book: :func:`averaging_demo` precomputed over :data:`AVERAGING_STATIC`."""
    return static_player(averaging_demo(), **dict(AVERAGING_STATIC, **static))
