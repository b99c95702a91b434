r"""The figures and widgets of the lectures on RADAR (Agarwal, Negahban & Wainwright 2012, and its Section 4
simulations): ``chapters/radar`` (Figure 1(a)), ``chapters/radar_theory`` (Corollary 1's trade-off) and
``chapters/radar_const`` (Figure 1(b)).  The static figures stack their two panels, 8 inches wide (:data:`FIGSIZE`).

Same three layers as :mod:`l1lab.book.scd`: a cached *data* function, a *figure* function returning a
``matplotlib.figure.Figure`` (not managed by pyplot), and a *widget* (ipywidgets imported inside it).

* :func:`figure1_data` -- runs of RADAR, RDA, SGD, EDA and RADAR-CONST on the paper's least-squares simulation,
  one trial per seed (a fresh theta* and a fresh stream of samples);
* :func:`figure1a_figure` / :func:`figure1a_demo` -- Figure 1(a): RADAR against RDA and SGD on log-log axes,
  ||hat theta_t - theta*||_2^2 of each method's output (what Theorems 1 and 2 bound: for RADAR the average of its
  last completed epoch, for RDA and SGD the iterate), with RADAR's iterate theta_t beside it; below, on the paper's
  linear axes, the iterates theta_t, which is what the paper's Figure 1 plots;
* :func:`figure1b_figure` / :func:`figure1b_demo` -- Figure 1(b): RADAR against EDA (fixed lambda) and RADAR-CONST
  (constant epochs), the error of each output, with the regularization lambda of each epoch;
* :func:`weak_sparsity_data` / :func:`weak_sparsity_figure` / :func:`weak_sparsity_demo` -- Corollary 1's
  trade-off: theta* on the boundary of an l_q ball, q from 0 to 1, the final error of RADAR's output against the
  horizon and its fitted rate exponent against Corollary 1's -(2 - q)/2;
* the *static players* (:func:`figure1a_player`, :func:`figure1b_player`, :func:`weak_sparsity_player`): each
  widget precomputed over the grid :data:`FIGURE1A_STATIC`, :data:`FIGURE1B_STATIC` or :data:`WEAK_STATIC` by
  :func:`l1lab.book.static.static_player`, which works in the HTML book without a kernel.  The grids reuse the runs
  the chapters compute for their figures and glued numbers, and the players draw with ``ahead=False`` (only the
  runs a frame shows, not the other horizons or dimensions a live widget prepares).

The data (:func:`l1lab.data.radar.make_stream`): x ~ Unif[-1, 1]^d, y = <theta*, x> + w,
w ~ N(0, 1/2), theta* with s = ceil(log d) entries +-1/sqrt(2) on a random support (trial k: seed k for theta*
and for the samples; RADAR, RDA, SGD, EDA and RADAR-CONST of one trial see the same samples).  The paper leaves
the constants of its runs unspecified; the choices are :data:`C1`, :data:`OMEGA`, :data:`RDA_BETA`,
:data:`CONST_LAM` and the rest of :func:`method_settings` (Example 2's G(R) and sigma(R), gamma = 1/3).

Runs that are not cached are spread over the CPU's cores (forked processes: the kernels hold the GIL) when there
are several of them and they are long enough to pay for it; the runs of one trial (the same d, theta* and
samples, any horizon T) are one job, which draws the trial's samples once for all of them
(:class:`_SharedSamples`).  The slider ranges keep every live setting to a few seconds on a 2-core machine
(``tests/test_book_radar.py`` runs the largest ones); d = 40 000, the paper's, is computed once by the chapter
(about a minute on two cores).
"""
from __future__ import annotations

import math
import multiprocessing
import os
import threading
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

import numpy as np
from matplotlib.figure import Figure

from ..data import radar as radar_data
from ..solvers import dual_averaging as da
from ..theory import agarwal2012 as th
from . import style as _style
from .controls import check_choice, check_range, log_slider, wire
from .live import figure_axes
from .static import static_player

__all__ = [
    "ALGORITHM_COLORS", "C1", "CONST_LAM", "FIGSIZE", "capped_power_theta", "corollary1_s", "weak_horizons",
    "FIGURE1A", "FIGURE1A_STATIC", "FIGURE1B", "FIGURE1B_STATIC", "FIGURE1_DEFAULTS", "FIGURE1_LIMITS",
    "FIGURE1B_DEFAULTS", "FIGURE1B_LIMITS", "METHODS", "N_CHECKPOINTS", "OMEGA", "RDA_BETA", "WEAK_DEFAULTS",
    "WEAK_LIMITS", "WEAK_QS", "WEAK_STATIC", "Curves", "Figure1Data", "TrialRecord", "WeakSparsityData",
    "const_epoch_length", "default_const_epochs", "draw_figure1a", "draw_figure1b", "draw_weak_sparsity_frame",
    "example2_constants", "figure1_data", "figure1a_demo", "figure1a_figure", "figure1a_player", "figure1b_demo",
    "figure1b_figure", "figure1b_player", "method_settings", "run_trial", "weak_sparsity_data", "weak_sparsity_demo",
    "weak_sparsity_figure", "weak_sparsity_player",
]

#: the five methods of Section 4 and their colours
METHODS = ("RADAR", "RDA", "SGD", "EDA", "RADAR-CONST")
ALGORITHM_COLORS = {name: _style.ALGORITHM_COLORS[name] for name in METHODS}
FIGURE1A = ("RADAR", "RDA", "SGD")
FIGURE1B = ("RADAR", "EDA", "RADAR-CONST")

#: choices (the paper gives no values): the universal constant c1 of (9), which sets lambda_i of (12) through
#: T_i even with the oracle epoch rule; the probability parameter omega; RDA's beta (Xiao's gamma); the factor on
#: RADAR-CONST's lambda_i of (12) (with (12) as printed RADAR-CONST does not move: see the chapter)
C1 = 256.0
OMEGA = 1.0
RDA_BETA = 0.1
CONST_LAM = 0.2
#: checkpoints per run (log-spaced)
N_CHECKPOINTS = 80

#: Figure 1(a) and 1(b): the widgets' defaults and ranges (d and T take one of the listed values).  A move of T
#: is a lookup: the live data functions also run the other horizons of the slider (see :func:`figure1_data`).
FIGURE1_DEFAULTS = dict(d=2_000, T=10_000, n_trials=5)
FIGURE1_LIMITS = dict(d=(100, 200, 500, 1_000, 2_000), T=(2_000, 5_000, 10_000), n_trials=(1, 5, 1))
#: Figure 1(b) adds RADAR-CONST's number of epochs (None: ceil(log T)) and its factor on lambda_i; every move of
#: these two runs RADAR-CONST again, so its live settings are smaller than Figure 1(a)'s (d = 200 of at most
#: 1000, 3 trials of at most 3)
FIGURE1B_DEFAULTS = dict(d=200, T=10_000, n_trials=3, const_epochs=None, const_lam=CONST_LAM)
FIGURE1B_LIMITS = dict(FIGURE1_LIMITS, d=(100, 200, 500, 1_000), n_trials=(1, 3, 1), const_epochs=(2, 40, 1),
                       const_lam=(0.05, 1.0))

#: the static player of Figure 1(a): every d of the slider (where SGD stops keeping up with RADAR); T and the
#: trials at the live start, the chapter's figure (a shorter T is a new run of every method and trial).  The runs
#: at d = 200 and 2000 are the chapter's own, the other three d cost about a second.
FIGURE1A_STATIC = dict(grid=dict(T=(10_000,), n_trials=(5,)), name="radar-fig1a")
#: the static player of Figure 1(b): the live start (d = 200, T = 10 000, 3 trials), the numbers of RADAR-CONST's
#: epochs the chapter discusses (3 to 40, its default ceil(log T) = 10 among them) and three factors on lambda_i
#: (about 0.1, the default 0.2 and about 1, the schedule as printed: slider positions 0.05 * 10^0.3 and
#: 0.05 * 10^1.3); each frame runs RADAR-CONST's 3 trials at d = 200 (a few hundredths of a second)
FIGURE1B_STATIC = dict(grid=dict(d=(200,), T=(10_000,), n_trials=(3,), const_epochs=(3, 5, 10, 20, 40),
                                 const_lam=(0.05 * 10 ** 0.3, CONST_LAM, 0.05 * 10 ** 1.3)), name="radar-fig1b")

#: Corollary 1's trade-off: theta* on the boundary of B_q(R_q) for these q (0: s-sparse)
WEAK_QS = (0.0, 0.25, 0.5, 0.75, 1.0)
WEAK_DEFAULTS = dict(d=500, T=20_000, n_trials=5)
WEAK_LIMITS = dict(q=(0.0, 1.0), d=(200, 500), T=(5_000, 10_000, 20_000), n_trials=(1, 5, 1))
#: the static player of Corollary 1's demo: every q to highlight (drawing only), the largest T of the live start
#: and the shortest one (its horizons T/16, ..., T are those of 20 000 but the two shortest, runs of a few hundred
#: steps); d and the trials at the live start, the chapter's figure (the other d is 125 new runs, a new trial 25)
WEAK_STATIC = dict(grid=dict(d=(500,), T=(5_000, 20_000), n_trials=(5,)), name="radar-weak")

#: work (seconds per d * T) of a run, for deciding whether to fork: RADAR and its variants, RDA and SGD
_COST = {"RADAR": 1.3e-8, "EDA": 1.3e-8, "RADAR-CONST": 1.3e-8, "RDA": 0.7e-8, "SGD": 0.7e-8}
_PARALLEL_ABOVE = 0.5  # seconds of estimated work (about 0.3 s of real work; a fork costs about 0.02 s)


# ---------------------------------------------------------------------------------------------- settings
def example2_constants(stream):
    r"""Example 2 of Agarwal, Negahban & Wainwright (2012) for a :class:`~l1lab.solvers.dual_averaging.
    UniformDesignStream`: rho(Sigma) = sigma_min(Sigma) = B^2/3, G(R) = rho R, sigma(R)^2 = 8 rho^2 R^2 +
    4 B^4 R^2 + 10 B^2 eta^2 (functions of the radius) and gamma = B^2/3."""
    rho = th.uniform_design_covariance(stream.B)
    eta = math.sqrt(stream.noise_var)
    return dict(G=lambda R: th.example2_G(R, rho), sigma=lambda R: th.example2_sigma(R, rho, stream.B, eta),
                gamma=th.example2_gamma(rho))


def default_const_epochs(T) -> int:
    """RADAR-CONST's default number of epochs, ceil(log T): Theorem 2's T log d/kappa_T makes about
    kappa_T/log d ~ log T epochs of equal length (our reading of the paper's "epochs of length log(T)")."""
    return max(1, math.ceil(math.log(int(T))))


def const_epoch_length(T, const_epochs=None) -> int:
    """The length ceil(T/K) of RADAR-CONST's epochs, K = ``const_epochs`` (default :func:`default_const_epochs`)."""
    K = default_const_epochs(T) if const_epochs is None else int(const_epochs)
    if K < 1:
        raise ValueError(f"const_epochs must be >= 1, got {const_epochs}")
    return math.ceil(int(T) / K)


def method_settings(method, stream, T, const_epochs=None, const_lam=CONST_LAM):
    """The keyword arguments of one method of Section 4 on ``stream`` for a horizon T (the choices are named in
    the module docstring).  RADAR: the oracle epoch rule, (12) with Example 2's G(R), sigma(R), gamma,
    s = ceil(log d), omega = OMEGA, c1 = C1.  RDA: lambda = 4 eta sqrt(log d/T), beta = RDA_BETA.  SGD: the l1 ball
    of radius ||theta*||_1, eta_t = 1/(gamma t).  EDA: RADAR's epochs (oracle rule) with lambda fixed to RDA's.
    RADAR-CONST: ``const_epochs`` epochs of equal length, lambda_i of (12) times ``const_lam``."""
    d = stream.d
    R1 = float(np.abs(stream.theta_star).sum())
    c = example2_constants(stream)
    s = math.ceil(math.log(d))
    lam_rda = th.rda_lambda(math.sqrt(stream.noise_var), d, T)
    if method == "RADAR":
        return dict(R1=R1, epochs="oracle", s=s, omega=OMEGA, c1=C1, **c)
    if method == "RDA":
        return dict(lam=lam_rda, beta=RDA_BETA)
    if method == "SGD":
        return dict(R1=R1, eta=1.0 / c["gamma"], schedule="1/t")
    if method == "EDA":
        return dict(lam=lam_rda, R1=R1, epochs="oracle", G=c["G"], sigma=c["sigma"])
    if method == "RADAR-CONST":
        return dict(R1=R1, epochs="constant", epoch_length=const_epoch_length(T, const_epochs), s=s, omega=OMEGA,
                    lam_constant=float(const_lam), **c)
    raise ValueError(f"method must be one of {METHODS}, got {method!r}")


# ---------------------------------------------------------------------------------------------- runs
@dataclass(frozen=True)
class TrialRecord:
    """One run, without its d-vectors: at the checkpoints, ||theta_t - theta*||_2^2 of the iterate (``error``) and
    ||hat theta_t - theta*||_2^2 of the method's output if it stopped at t (``error_output``: for RADAR, EDA and
    RADAR-CONST the centre of the running epoch, the average of the last completed one, 0 before the first; for
    RDA and SGD the iterate itself); the epochs (end, R, lambda; empty for RDA and SGD), the lambda of every epoch
    begun (``lam_epochs``, one more than completed for the epoch methods), ||theta*||_2^2 and the sparsity
    parameter s the run used (0: none).  No timing: the book shows none of these runs' seconds."""

    method: str
    iteration: np.ndarray
    error: np.ndarray
    error_output: np.ndarray
    epoch_end: np.ndarray
    epoch_R: np.ndarray
    lam_epochs: np.ndarray
    norm2_sq: float
    s: int


def _lam_epochs(method, res, stream, kw, T):
    """lambda_i of every epoch begun (completed ones from the run's table, the running one recomputed with the
    solver's formula), or the fixed lambda of RDA/EDA; empty for SGD."""
    if method == "SGD":
        return np.zeros(0)
    if method in ("RDA", "EDA"):
        return np.full(res.n_epochs + 1, kw["lam"])
    i = res.n_epochs + 1
    R = kw["R1"] * 2.0 ** (-(i - 1) / 2.0)
    G, sig = kw["G"](R), kw["sigma"](R)
    if method == "RADAR":
        T_i = th.epoch_length(R, i, stream.d, kw["s"], kw["gamma"], G, sig, kw["omega"], kw["c1"])
        lam = th.schedule_lambda(R, T_i, i, stream.d, kw["s"], kw["gamma"], G, sig, kw["omega"])
    else:
        lam = kw["lam_constant"] * th.schedule_lambda(R, kw["epoch_length"], i, stream.d, kw["s"], kw["gamma"], G,
                                                      sig, kw["omega"])
    return np.append(res.epochs["lam"], lam)


def capped_power_theta(d, q, s=None, norm2_sq=None, seed=0):
    r"""A theta* in the l_q ball B_q(R_q) for Corollary 1's demo: s = ceil(log d) entries of equal magnitude
    followed by the power-law tail :math:`|\theta^*|_{(j)} = c\,(j/s)^{-1/q}` for j > s (on a random
    permutation, random signs), scaled to ||theta*||_2^2 = ``norm2_sq`` (default s/2, as in the sparse case).
    q = 0 is :func:`l1lab.data.radar.sparse_theta` (the same draw); as q grows the tail gets heavier,
    up to q = 1, where sum_j |theta_j| grows like c s log(d/s)."""
    d = int(d)
    s = math.ceil(math.log(d)) if s is None else int(s)
    target = s / 2.0 if norm2_sq is None else float(norm2_sq)
    if q == 0:
        mag = 1.0 / math.sqrt(2.0) if norm2_sq is None else math.sqrt(target / s)
        return radar_data.sparse_theta(d, s=s, magnitude=mag, seed=seed)
    if not 0 < q <= 1:
        raise ValueError(f"q must be in [0, 1], got {q}")
    if not (target > 0 and math.isfinite(target)):
        raise ValueError(f"norm2_sq must be a finite number > 0, got {norm2_sq}")
    rng = np.random.default_rng(seed)
    j = np.arange(1, d + 1, dtype=np.float64)
    mags = np.minimum(1.0, (j / s) ** (-1.0 / q))
    mags *= math.sqrt(target / float(mags @ mags))
    theta = np.zeros(d)
    theta[rng.permutation(d)] = mags * rng.choice([-1.0, 1.0], size=d)
    return theta


def corollary1_s(theta_star, q, T, B=1.0, noise_var=0.5, omega=OMEGA) -> int:
    r"""The sparsity parameter that the proof of Corollary 1 (Agarwal, Negahban & Wainwright 2012) gives RADAR for
    theta* in B_q(R_q) and horizon T: s = ceil(R_q tau^{-q}), the number of entries above the threshold
    :math:`\tau^2 = ((G^2 + \sigma^2)\log d + \sigma^2\omega^2)/(\gamma^2T)` (the paper writes
    :math:`(1 + \delta)\log d` for :math:`\log d + \omega^2`), with Example 2's constants near theta* (G(0) = 0,
    sigma(0)^2 = 10 B^2 eta^2, gamma = B^2/3).  For q = 0 it is the number of
    nonzeros.  An oracle choice: it needs R_q, as the epoch rule needs theta*."""
    theta_star = np.asarray(theta_star, dtype=np.float64)
    d = theta_star.size
    Rq = th.lq_radius(theta_star, q)
    if q == 0:
        return int(Rq)
    rho = th.uniform_design_covariance(B)
    gamma = th.example2_gamma(rho)
    sig2 = th.example2_sigma(0.0, rho, B, math.sqrt(noise_var)) ** 2
    L = math.log(d)
    tau2 = sig2 * (1.0 + omega ** 2 / L) * L / (gamma ** 2 * T)
    return max(1, min(d, math.ceil(Rq * tau2 ** (-q / 2.0))))


def _stream(d, q, trial):
    if q == 0:
        return radar_data.make_stream(d, seed=trial)
    return radar_data.UniformDesignStream(capped_power_theta(d, q, seed=trial), B=1.0, noise_var=0.5)


def _run_job(job, source=None):
    """The run of ``job`` (a :func:`_key`); ``source``: where the solver reads the trial's samples (default the
    trial's stream itself; :func:`_run_trial_jobs` passes a :class:`_SharedSamples` reader)."""
    method, d, T, q, trial, const_epochs, const_lam = job
    stream = _stream(d, q, trial)
    kw = method_settings(method, stream, T, const_epochs, const_lam)
    if method == "RADAR" and q > 0:
        kw["s"] = corollary1_s(stream.theta_star, q, T, stream.B, stream.noise_var, OMEGA)
    common = dict(seed=trial, n_checkpoints=N_CHECKPOINTS)
    source = stream if source is None else source
    if method == "RDA":
        res = da.rda(source, T, kw["lam"], kw["beta"], **common)
    elif method == "SGD":
        res = da.sgd(source, T, kw["R1"], kw["eta"], schedule=kw["schedule"], **common)
    elif method == "EDA":
        res = da.eda(source, T, **kw, **common)
    else:
        res = da.radar(source, T, **kw, **common)
    ends = res.epochs.get("end", np.zeros(0, dtype=np.int64))
    Rs = res.epochs.get("R", np.zeros(0))
    return TrialRecord(method, res.iteration, res.error, res.error_output, np.asarray(ends), np.asarray(Rs),
                       _lam_epochs(method, res, stream, kw, T), float(stream.theta_star @ stream.theta_star),
                       int(kw.get("s", 0)))


#: how many blocks of samples a run may read ahead of the slowest run of its trial (see :class:`_SharedSamples`)
_AHEAD = 4


class _SharedSamples:
    """The samples of one trial, drawn once for the several runs that read them.  A solver given a stream draws
    it in blocks of a size that depends on d only, from ``numpy.random.default_rng(seed)`` (the seed is the
    trial): every run of the trial reads the same blocks (a run of a shorter horizon the first of them), and
    drawing them costs as much as a cheap method's whole run at d = 40 000.  Here the runs read them together,
    each from its own :meth:`reader` (a sampler with the stream's ``d`` and ``theta_star``, which ignores the
    generator it is handed), in threads: block k is drawn by the first run to ask for it, from this object's
    generator with the same seed (so the same numbers), and dropped once every run has passed it; a run waits
    when it is :data:`_AHEAD` blocks ahead of the slowest.  The kernels hold the GIL, so the runs still take
    turns: what is saved is the drawing."""

    def __init__(self, stream, seed, n_readers):
        self.stream = stream
        self.rng = np.random.default_rng(seed)
        self.blocks = {}
        self.drawn = 0
        self.size = None
        self.at = [0] * n_readers          # the next block of each reader; inf once its run has ended
        self.cond = threading.Condition()

    def reader(self, i):
        """The sampler of run i."""
        return _SharedReader(self, i)

    def _take(self, i, n):
        with self.cond:
            k = self.at[i]
            self.cond.wait_for(lambda: k < min(self.at) + _AHEAD)
            if k == self.drawn:
                if self.size is None:
                    self.size = n
                if n != self.size:
                    raise RuntimeError(f"the runs of a trial read blocks of {self.size} samples, one asked for {n}")
                self.blocks[k] = self.stream(self.rng, n)
                self.drawn += 1
            X, y = self.blocks[k]
            self.at[i] = k + 1
            self._release()
            return X, y

    def finish(self, i):
        with self.cond:
            self.at[i] = math.inf
            self._release()

    def _release(self):
        low = min(self.at)
        for k in [k for k in self.blocks if k < low]:
            del self.blocks[k]
        self.cond.notify_all()


class _SharedReader:
    """A sampler ``(rng, n) -> (X, y)`` for one run: the next block of a :class:`_SharedSamples` (``rng``, the
    run's own generator seeded alike, is not used)."""

    def __init__(self, shared, i):
        self.shared, self.i = shared, i
        self.d, self.theta_star = shared.stream.d, shared.stream.theta_star

    def __call__(self, rng, n):
        return self.shared._take(self.i, n)


def _run_trial_jobs(jobs):
    """The runs of ``jobs``, which share d, q and the trial (their horizons T may differ: a run of a shorter one
    reads the first of the same samples): one run alone, several in threads reading one :class:`_SharedSamples`
    (the same records as run one by one)."""
    if len(jobs) == 1:
        return [_run_job(jobs[0])]
    _, d, _, q, trial = jobs[0][:5]
    shared = _SharedSamples(_stream(d, q, trial), trial, len(jobs))
    records, errors = [None] * len(jobs), []

    def work(i):
        try:
            records[i] = _run_job(jobs[i], shared.reader(i))
        except BaseException as err:   # re-raised below, in the caller's thread
            errors.append(err)
        finally:
            shared.finish(i)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    return records


_CACHE: dict = {}
_CACHE_LIMIT = 4_000
#: trials with d T at least this are also kept as result files (:mod:`l1lab.data.results`), so that the processes
#: that build the book share them (the two RADAR lectures draw the same paper-size trials) and a live reader reads
#: the build's: ``<data home>/radar-trials/<hash of l1lab's source>/<hash of the key>.npz``, where a change anywhere
#: in the package starts a fresh folder
_DISK_MIN_SIZE = 10 ** 8
_RECORD_ARRAYS = ("iteration", "error", "error_output", "epoch_end", "epoch_R", "lam_epochs")


def _disk_path(key):
    """(path relative to the data home, fingerprint) of a trial's result file."""
    import hashlib

    from ..data import results

    code = results.code_fingerprint()
    name = hashlib.sha256(repr(key).encode()).hexdigest()[:24]
    return f"radar-trials/{code}/{name}.npz", f"{code}:{key!r}"


def _disk_load(key):
    from ..data import results

    arrays = results.load(*_disk_path(key))
    if arrays is None:
        return None
    return TrialRecord(method=str(arrays["method"]), **{k: arrays[k] for k in _RECORD_ARRAYS},
                       norm2_sq=float(arrays["norm2_sq"]), s=int(arrays["s"]))


def _disk_store(key, record):
    from ..data import results

    arrays = {k: np.asarray(getattr(record, k)) for k in _RECORD_ARRAYS}
    results.save(*_disk_path(key), dict(arrays, method=np.array(record.method), norm2_sq=np.array(record.norm2_sq),
                                        s=np.array(record.s)))


def _key(method, d, T, q, trial, const_epochs, const_lam):
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    if method == "RADAR-CONST":
        K = default_const_epochs(T) if const_epochs is None else int(const_epochs)
        extra = (K, float(const_lam))
    else:
        extra = (None, None)
    return (method, int(d), int(T), float(q), int(trial)) + extra


def _workers() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def _compute(keys):
    """Run the jobs of ``keys`` that are not cached (in forked processes if worth it) and cache them."""
    todo = [k for k in dict.fromkeys(keys) if k not in _CACHE]
    for k in [k for k in todo if k[1] * k[2] >= _DISK_MIN_SIZE]:
        record = _disk_load(k)
        if record is not None:
            _CACHE[k] = record
            todo.remove(k)
    if todo:
        # the runs of one trial (d, q, seed) read the same samples (a shorter horizon T reads the first of them):
        # one job, which draws them once
        trials = {}
        for k in todo:
            trials.setdefault((k[1], k[3], k[4]), []).append(k)
        groups = list(trials.values())
        cost = {id(g): sum(_COST[k[0]] * k[1] * k[2] for k in g) for g in groups}
        work = sum(cost.values())
        workers = min(_workers(), len(groups))
        fork = "fork" in multiprocessing.get_all_start_methods()
        done = []

        def store(group, records):   # on disk as soon as a trial is done, for the other lecture built meanwhile
            done.append((group, records))
            for k, record in zip(group, records):
                if k[1] * k[2] >= _DISK_MIN_SIZE:
                    _disk_store(k, record)

        if workers > 1 and fork and work > _PARALLEL_ABOVE:
            groups.sort(key=lambda g: -cost[id(g)])   # longest first: the workers finish together
            with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
                for group, records in zip(groups, pool.map(_run_trial_jobs, groups)):
                    store(group, records)
        else:
            for group in groups:
                store(group, _run_trial_jobs(group))
        if len(_CACHE) + len(todo) > _CACHE_LIMIT:
            _CACHE.clear()
        for group, records in done:
            _CACHE.update(zip(group, records))
    return [_CACHE[k] for k in keys]


def run_trial(method, d, T, trial=0, q=0.0, const_epochs=None, const_lam=CONST_LAM) -> TrialRecord:
    """One run of ``method`` (one of :data:`METHODS`) on trial ``trial`` (seed of theta* and of the samples) of
    the Section 4 simulation in dimension d, horizon T, theta* s-sparse (q = 0) or on the boundary of an l_q
    ball (0 < q <= 1).  Cached."""
    return _compute([_key(method, d, T, q, trial, const_epochs, const_lam)])[0]


@dataclass(frozen=True)
class Curves:
    """The trials of one method: ``error`` (the iterate theta_t) and ``error_output`` (the output hat theta_t, see
    :class:`TrialRecord`) have shape (n_trials, n_checkpoints).  ``mean``, ``final`` and ``slope`` are about the
    output, the point the paper's theorems bound; ``iterate_mean`` is the curve the paper's Figure 1 draws."""

    method: str
    iteration: np.ndarray
    error: np.ndarray
    error_output: np.ndarray
    records: tuple

    @property
    def mean(self):
        """Mean over trials of ||hat theta_t - theta*||_2^2, the error of the output."""
        return self.error_output.mean(axis=0)

    @property
    def iterate_mean(self):
        """Mean over trials of ||theta_t - theta*||_2^2, the error of the iterate."""
        return self.error.mean(axis=0)

    def slope(self, start_fraction=0.1, iterate=False):
        """The log-log slope of the mean error of the output (of the iterate if ``iterate``) over trials, over the
        checkpoints t >= start_fraction T."""
        return da.loglog_slope(self.iteration, self.iterate_mean if iterate else self.mean, start_fraction)

    @property
    def final(self):
        """Mean over trials of the final ||hat theta_T - theta*||_2^2, the error of the output after T samples."""
        return float(self.mean[-1])

    @property
    def final_iterate(self):
        """Mean over trials of the final ||theta_T - theta*||_2^2."""
        return float(self.iterate_mean[-1])

    @property
    def n_epochs(self):
        return np.array([r.epoch_end.size for r in self.records])


def _curves(records):
    r0 = records[0]
    return Curves(r0.method, r0.iteration, np.array([r.error for r in records]),
                  np.array([r.error_output for r in records]), tuple(records))


@dataclass(frozen=True)
class Figure1Data:
    """Figure 1 of Agarwal, Negahban & Wainwright (2012) in dimension d: ``curves[method]`` over the trials."""

    d: int
    T: int
    n_trials: int
    s: int
    norm2_sq: float
    const_epochs: int
    const_lam: float
    curves: dict

    def table(self, methods=None):
        """Lines 'method: final error (min-max over trials), fitted slope, epochs' for the chapter."""
        out = []
        for m in methods or self.curves:
            c = self.curves[m]
            fin = c.error_output[:, -1]
            ep = c.n_epochs
            eps = f", epochs {ep.min()}-{ep.max()}" if ep.max() > 0 and ep.min() != ep.max() else \
                f", epochs {ep.max()}" if ep.max() > 0 else ""
            out.append(f"{m:<12} final ||hat theta_T - theta*||^2 = {c.final:.3f} "
                       f"(trials {fin.min():.3f}-{fin.max():.3f}),"
                       f" log-log slope {c.slope():+.2f}{eps}")
        return out


def _check_figure1(d, T, n_trials, limits, live):
    if live:
        check_choice("d", d, limits["d"])
        check_choice("T", T, limits["T"])
        check_range("n_trials", n_trials, limits)
    else:
        if int(d) != d or d < 3:
            raise ValueError(f"d must be an integer >= 3, got {d}")
        if int(T) != T or T < 100:
            raise ValueError(f"T must be an integer >= 100, got {T}")
        if int(n_trials) != n_trials or n_trials < 1:
            raise ValueError(f"n_trials must be an integer >= 1, got {n_trials}")


def figure1_data(d=2_000, T=10_000, n_trials=5, methods=METHODS, const_epochs=None, const_lam=CONST_LAM,
                 live=False, ahead=True) -> Figure1Data:
    """Section 4's simulation: ``n_trials`` trials (seeds 0, 1, ...) of every method of ``methods`` in dimension d
    for T iterations.  Cached per run, so a new number of trials or a new method reuses the others; runs not
    cached are spread over the cores.  ``live=True`` restricts d, T and n_trials to the widgets' ranges and also
    runs every other horizon of the T slider (the same trials; RADAR-CONST excepted), so that the widget answers
    a move of T from the cache: a new d costs 1.7 times the runs at T = 10 000 instead (``ahead=False``: only
    the runs shown, for a static player)."""
    _check_figure1(d, T, n_trials, FIGURE1_LIMITS, live)
    if live:
        check_range("const_lam", const_lam, FIGURE1B_LIMITS)
        if const_epochs is not None:
            check_range("const_epochs", const_epochs, FIGURE1B_LIMITS)
    methods = tuple(methods)
    for m in methods:
        check_choice("method", m, METHODS)
    d, T, n_trials = int(d), int(T), int(n_trials)
    K = default_const_epochs(T) if const_epochs is None else int(const_epochs)
    keys = [_key(m, d, T, 0.0, k, K, const_lam) for m in methods for k in range(n_trials)]
    others = []
    if live and ahead:   # the slider's other horizons too (not RADAR-CONST's, which its own two sliders change)
        others = [_key(m, d, t, 0.0, k, K, const_lam) for m in methods if m != "RADAR-CONST"
                  for t in FIGURE1_LIMITS["T"] if t != T for k in range(n_trials)]
    recs = _compute(keys + others)[:len(keys)]
    curves = {m: _curves(recs[i * n_trials:(i + 1) * n_trials]) for i, m in enumerate(methods)}
    return Figure1Data(d, T, n_trials, math.ceil(math.log(d)), recs[0].norm2_sq, K, float(const_lam), curves)


# ---------------------------------------------------------------------------------------------- drawing
#: RADAR's iterate theta_t beside its output: a lighter shade of RADAR's colour, thinner
ITERATE_SHADE = -0.5
#: the guides of a log-log slope (theory: dashed, and the two of a figure told apart by colour and line style)
GUIDE_STYLES = {-1.0: dict(color="k", ls="--", lw=1.2), -0.5: dict(color="0.45", ls="-.", lw=1.2)}


def _band(ax, curves, label, lw=2.0, band=True):
    """The mean over trials of the error of ``curves``' output, with the band from the best to the worst trial."""
    col = ALGORITHM_COLORS[curves.method]
    it = curves.iteration
    keep = it > 0
    if band and curves.error_output.shape[0] > 1:
        ax.fill_between(it[keep], curves.error_output.min(axis=0)[keep], curves.error_output.max(axis=0)[keep],
                        color=col, alpha=0.2, lw=0)
    ax.plot(it[keep], curves.mean[keep], color=col, lw=lw, label=label)


def _guide(ax, x_end, y_end, slope, x_start, text, style=None):
    """A line of the given log-log slope ending at (x_end, y_end): a rate, drawn as theory (dashed or dash-dotted)."""
    xs = np.array([x_start, x_end], dtype=np.float64)
    st = style if style is not None else GUIDE_STYLES.get(slope, dict(color="k", ls="--", lw=1.2))
    ax.plot(xs, y_end * (xs / x_end) ** slope, label=text, **st)


def _loglog_axes(ax, ylabel=r"$\|\hat\theta_t - \theta^\star\|_2^2$ of the output"):
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("iterations $t$ (one fresh sample each)")
    ax.set_ylabel(ylabel)
    ax.grid(True, which="major", alpha=0.3)


#: what each method outputs after t samples (the legends of Figure 1)
OUTPUT_NAMES = {"RADAR": "average of its last epoch", "EDA": "average of its last epoch",
                "RADAR-CONST": "average of its last epoch", "RDA": "its iterate", "SGD": "its iterate"}


def draw_figure1a(axes, data: Figure1Data, ylim=None, title=True):
    """Figure 1(a) on two axes.  Above, log-log: the error of each method's output hat theta_t (mean over trials,
    band min-max; RADAR's output is the average of its last completed epoch, RDA's and SGD's their iterate) and
    RADAR's iterate theta_t (thin, lighter), with guides of slope -1 and -1/2.  Below, the paper's linear axes and
    the paper's quantity: the mean error of the iterates theta_t.  The legends name the curves only: the slopes and
    final errors are the chapter's question, answered in its text."""
    ax0, ax1 = axes
    for m in FIGURE1A:
        c = data.curves[m]
        _band(ax0, c, f"{m}: output ({OUTPUT_NAMES[m]})")
    rad = data.curves["RADAR"]
    it = rad.iteration
    iterate_col = _style.shade("RADAR", ITERATE_SHADE)
    ax0.plot(it[it > 0], rad.iterate_mean[it > 0], color=iterate_col, lw=1.0, label="RADAR: iterate θ_t")
    T = data.T
    rda = data.curves["RDA"]
    _guide(ax0, T, rad.final, -1.0, T / 10, "slope −1 guide: O(1/T)")
    _guide(ax0, T, rda.final, -0.5, T / 10, "slope −½ guide: O(1/√T)")
    _loglog_axes(ax0)
    if ylim is not None:
        ax0.set_ylim(*ylim)
    ax0.legend(fontsize=9, loc="lower left")
    for m in FIGURE1A:
        c = data.curves[m]
        col = iterate_col if m == "RADAR" else ALGORITHM_COLORS[m]
        ax1.plot(c.iteration, c.iterate_mean, color=col, lw=2, label=f"{m}: iterate θ_t")
    ax1.set_xlabel("iterations $t$")
    ax1.set_ylabel(r"$\|\theta_t - \theta^\star\|_2^2$ of the iterate")
    ax1.set_xlim(0, T)
    ax1.set_ylim(bottom=0, top=(ylim[1] if ylim is not None else None))
    ax1.grid(True, alpha=0.3)
    ax1.legend(fontsize=9, loc="upper right")
    ax1.set_title("the paper's axes and quantity: the iterate (means over the trials)", fontsize=10)
    if title:
        ax0.set_title(f"d = {data.d:,}, s = {data.s}, ‖θ*‖² = {data.norm2_sq:.2f}, T = {T:,}, "
                      f"{data.n_trials} trial{'s' if data.n_trials > 1 else ''} (band: min–max)", fontsize=10)


#: the static figures: two panels stacked (each as wide as the page), 8 inches wide
FIGSIZE = (8.0, 7.6)
#: the live figures' fixed margins (fractions of the :data:`FIGSIZE` figure).  The static figures use the
#: constrained layout; a live figure keeps its axes where these put them, so a move costs one draw and no layout
#: pass (which measures every text and costs about as much as the draw itself).
LIVE_MARGINS = dict(left=0.125, right=0.97, bottom=0.065, top=0.95, hspace=0.3)


def _stacked(fig):
    """Two axes, one above the other, the upper one taller (Figure 1's layout)."""
    gs = fig.add_gridspec(2, 1, height_ratios=(3, 2))
    return [fig.add_subplot(gs[0]), fig.add_subplot(gs[1])]


def _stacked_fixed(fig):
    """:func:`_stacked` with the live figures' fixed margins."""
    gs = fig.add_gridspec(2, 1, height_ratios=(3, 2), **LIVE_MARGINS)
    return [fig.add_subplot(gs[0]), fig.add_subplot(gs[1])]


def _figure1_axes(fig, figsize, live):
    if live:
        return figure_axes(fig, figsize, _stacked_fixed, layout=None)
    return figure_axes(fig, figsize, _stacked)


@_style.book_figure
def figure1a_figure(d=2_000, T=10_000, n_trials=5, live=False, figsize=FIGSIZE, fig=None, ahead=True) -> Figure:
    """Figure 1(a) of Agarwal, Negahban & Wainwright (2012): ||theta_t - theta*||_2^2 of RADAR, RDA and SGD against
    the iterations, mean over ``n_trials`` trials; above log-log with the band over trials and the fitted slopes
    (t >= T/10), below on the paper's linear axes.  ``fig``: a figure this function returned before, redrawn in
    place (:func:`l1lab.book.live.figure_axes`); ``ahead``: see :func:`figure1_data`."""
    data = figure1_data(d, T, n_trials, FIGURE1A, live=live, ahead=ahead)
    fig, axes = _figure1_axes(fig, figsize, live)
    draw_figure1a(axes, data)
    return fig


def _lambda_steps(rec, T):
    """(t, lambda) pairs of a step function: lambda_i from the start to the end of epoch i (the last one to T)."""
    starts = np.concatenate(([0], rec.epoch_end))
    ends = np.concatenate((rec.epoch_end, [T]))
    n = min(rec.lam_epochs.size, starts.size)
    xs, ys = [], []
    for k in range(n):
        if ends[k] > starts[k]:
            xs += [max(starts[k], 1), ends[k]]
            ys += [rec.lam_epochs[k]] * 2
    return np.array(xs, dtype=np.float64), np.array(ys)


def draw_figure1b(axes, data: Figure1Data, ylim=None, title=True):
    """Figure 1(b) on two axes: the error of the output hat theta_t (the average of the last completed epoch) of
    RADAR, EDA and RADAR-CONST (log-log, mean and band over trials, the epoch ends of the first trial marked on the
    curves), and the lambda_i of each epoch of the first trial against t.  The legends name the curves only."""
    ax0, ax1 = axes
    for m in FIGURE1B:
        c = data.curves[m]
        _band(ax0, c, f"{m}: output ({OUTPUT_NAMES[m]})")
        rec = c.records[0]
        if rec.epoch_end.size:
            idx = np.searchsorted(c.iteration, rec.epoch_end)
            idx = idx[idx < c.iteration.size]
            ax0.plot(c.iteration[idx], c.mean[idx], "|", color=ALGORITHM_COLORS[m], ms=12, mew=2)
        xs, ys = _lambda_steps(rec, data.T)
        ax1.plot(xs, ys, color=ALGORITHM_COLORS[m], lw=2, label=m)
    _loglog_axes(ax0)
    if ylim is not None:
        ax0.set_ylim(*ylim)
    ax0.legend(fontsize=9, loc="lower left", title="ticks: epoch ends (trial 0)", title_fontsize=9)
    ax1.set_xscale("log")
    ax1.set_yscale("log")
    ax1.set_xlabel("iterations $t$")
    ax1.set_ylabel(r"$\lambda_i$ of the running epoch (trial 0)")
    ax1.grid(True, which="major", alpha=0.3)
    ax1.legend(fontsize=9, loc="lower left")
    if title:
        L = const_epoch_length(data.T, data.const_epochs)
        ax0.set_title(f"d = {data.d:,}, s = {data.s}, T = {data.T:,}, {data.n_trials} trial"
                      f"{'s' if data.n_trials > 1 else ''}; RADAR-CONST: {data.const_epochs} epochs of {L:,}, "
                      f"{data.const_lam:g} λᵢ", fontsize=10)


@_style.book_figure
def figure1b_figure(d=2_000, T=10_000, n_trials=5, const_epochs=None, const_lam=CONST_LAM, live=False,
                    figsize=FIGSIZE, fig=None, ahead=True) -> Figure:
    """Figure 1(b) of Agarwal, Negahban & Wainwright (2012): RADAR against EDA (its epochs with lambda fixed at
    4 eta sqrt(log d/T)) and RADAR-CONST (``const_epochs`` epochs of equal length, default ceil(log T), with
    ``const_lam`` times lambda_i of (12)); below: the regularization lambda_i of each epoch.  ``fig``: a figure
    this function returned before, redrawn in place; ``ahead``: see :func:`figure1_data`."""
    if live:
        _check_figure1(d, T, n_trials, FIGURE1B_LIMITS, True)
    data = figure1_data(d, T, n_trials, FIGURE1B, const_epochs, const_lam, live=live, ahead=ahead)
    fig, axes = _figure1_axes(fig, figsize, live)
    draw_figure1b(axes, data)
    return fig


def _figure1_controls(defaults, limits, extra):
    import ipywidgets as widgets

    v = dict(defaults, **extra)
    check_choice("d", v["d"], limits["d"])
    check_choice("T", v["T"], limits["T"])
    check_range("n_trials", v["n_trials"], limits)
    controls = dict(
        d=widgets.SelectionSlider(options=list(limits["d"]), value=v["d"], description="d", continuous_update=False),
        T=widgets.SelectionSlider(options=list(limits["T"]), value=v["T"], description="T", continuous_update=False),
        n_trials=widgets.IntSlider(value=v["n_trials"], min=limits["n_trials"][0], max=limits["n_trials"][1],
                                   description="trials", continuous_update=False),
    )
    return v, controls, widgets


def figure1a_demo(ahead=True, **defaults):
    """Live Figure 1(a): d, T and the number of trials (:data:`FIGURE1_DEFAULTS`, :data:`FIGURE1_LIMITS`),
    redrawing :func:`figure1a_figure` in place.  Runs are cached per (method, d, T, trial), and a new d runs every
    horizon of the T slider at once, so a move of T or of the number of trials (downwards) is a lookup; a new d
    costs about 1.5 s of CPU time per 1000 dimensions at 5 trials (spread over the cores).  ``ahead=False`` runs
    only the horizon shown (for the static player)."""
    _, controls, _ = _figure1_controls(FIGURE1_DEFAULTS, FIGURE1_LIMITS, defaults)

    def show(fig=None, **kw):
        return figure1a_figure(live=True, fig=fig, ahead=ahead, **kw)

    return wire(controls, show, [["d", "T", "n_trials"]])


def figure1a_player(**static):
    """Figure 1(a) for the HTML book: the live widget (:func:`figure1a_demo`) precomputed over
    :data:`FIGURE1A_STATIC` (``static`` overrides its entries) by :func:`l1lab.book.static.static_player`."""
    return static_player(figure1a_demo(ahead=False), **dict(FIGURE1A_STATIC, **static))


def figure1b_demo(ahead=True, **defaults):
    """Live Figure 1(b): d, T, the number of trials, RADAR-CONST's number of epochs and its factor on lambda_i
    of (12) (:data:`FIGURE1B_DEFAULTS`, :data:`FIGURE1B_LIMITS`: d = 200, 3 trials), redrawing
    :func:`figure1b_figure` in place.  A move of RADAR-CONST's two sliders, or of T, runs RADAR-CONST's trials
    again (about 0.06 s at the defaults, 0.12 s at d = 500); RADAR and EDA are run for every horizon of the T
    slider with each new d (``ahead=False``: only the horizon shown, for the static player)."""
    v, controls, widgets = _figure1_controls(FIGURE1B_DEFAULTS, FIGURE1B_LIMITS, defaults)
    lim = FIGURE1B_LIMITS
    K = default_const_epochs(v["T"]) if v["const_epochs"] is None else v["const_epochs"]
    check_range("const_epochs", K, lim)
    check_range("const_lam", v["const_lam"], lim)
    controls["const_epochs"] = widgets.IntSlider(value=K, min=lim["const_epochs"][0], max=lim["const_epochs"][1],
                                                 description="CONST epochs", continuous_update=False)
    controls["const_lam"] = log_slider(widgets, v["const_lam"], *lim["const_lam"], "CONST λ factor", step=0.1,
                                        readout_format=".2g")

    def show(fig=None, **kw):
        return figure1b_figure(live=True, fig=fig, ahead=ahead, **kw)

    return wire(controls, show, [["d", "T", "n_trials"], ["const_epochs", "const_lam"]])


def figure1b_player(**static):
    """Figure 1(b) for the HTML book: :func:`figure1b_demo` precomputed over :data:`FIGURE1B_STATIC`."""
    return static_player(figure1b_demo(ahead=False), **dict(FIGURE1B_STATIC, **static))


# ------------------------------------------------------------------------------------ Corollary 1 (q)
def weak_horizons(T_max, n=5) -> tuple:
    """The horizons of Corollary 1's demo: T_max/2^(n-1), ..., T_max/2, T_max (one run each)."""
    T_max = int(T_max)
    return tuple(int(round(T_max / 2 ** k)) for k in range(n - 1, -1, -1))


@dataclass(frozen=True)
class WeakSparsityData:
    """For each q of ``qs``: ``final[k]``, shape (n_trials, len(Ts)), ||hat theta_T - theta*||_2^2 of RADAR's
    output (the average of its last completed epoch, 0 if none completed: what Corollary 1 bounds) after one run
    per horizon T of ``Ts`` (s = :func:`corollary1_s` for that T), ``final_iterate[k]`` the same for the last
    iterate theta_T, ``s_used[k]`` (trial 0), the run to the largest T of every trial (``longest[k]``,
    :class:`Curves`) and the mean R_q over trials (``Rq[k]``)."""

    d: int
    Ts: tuple
    n_trials: int
    qs: tuple
    final: tuple
    final_iterate: tuple
    s_used: tuple
    longest: tuple
    Rq: np.ndarray

    def slopes(self, iterate=False):
        """The least-squares slope of log(mean final error over trials) against log T, for every q: of the output
        (of the last iterate if ``iterate``).  An output that no run has moved yet (no epoch completed at any
        horizon) has slope 0."""
        x = np.log(np.asarray(self.Ts, dtype=np.float64))
        finals = self.final_iterate if iterate else self.final
        return np.array([np.polyfit(x, np.log(f.mean(axis=0)), 1)[0] for f in finals])

    def epochs(self):
        """Completed epochs of the run to the largest T, trial 0, for every q."""
        return np.array([int(c.n_epochs[0]) for c in self.longest])

    @property
    def theory(self):
        """Corollary 1's rate exponent -(2 - q)/2 for each q."""
        return -(2.0 - np.asarray(self.qs)) / 2.0


def weak_sparsity_data(qs=WEAK_QS, d=500, T=20_000, n_trials=5, live=False, ahead=True) -> WeakSparsityData:
    """Corollary 1's trade-off: for every q of ``qs`` (0 <= q <= 1) and every horizon of :func:`weak_horizons`
    (T), ``n_trials`` runs of RADAR (the settings of :func:`method_settings`, s from :func:`corollary1_s`) with
    theta* from :func:`capped_power_theta` (trial k: seed k).  Cached per run.  ``live=True`` restricts d, T and
    n_trials to the widget's ranges and also runs the same grid at the slider's other d (unless ``ahead=False``)."""
    qs = tuple(round(float(q), 6) for q in qs)
    if not qs:
        raise ValueError("qs is empty")
    for q in qs:
        check_range("q", q, WEAK_LIMITS)
    if live:
        check_choice("d", d, WEAK_LIMITS["d"])
        check_choice("T", T, WEAK_LIMITS["T"])
        check_range("n_trials", n_trials, WEAK_LIMITS)
    else:
        _check_figure1(d, T, n_trials, WEAK_LIMITS, False)
    d, T, n_trials = int(d), int(T), int(n_trials)
    Ts = weak_horizons(T)
    keys = [_key("RADAR", d, t, q, k, None, CONST_LAM) for q in qs for k in range(n_trials) for t in Ts]
    others = []
    if live and ahead:   # the other d of the slider too (two values), so that a move of d is a lookup
        others = [_key("RADAR", dd, t, q, k, None, CONST_LAM) for dd in WEAK_LIMITS["d"] if dd != d
                  for q in qs for k in range(n_trials) for t in Ts]
    recs = _compute(keys + others)[:len(keys)]
    n = n_trials * len(Ts)
    final, final_it, s_used, longest = [], [], [], []
    for i in range(len(qs)):
        block = recs[i * n:(i + 1) * n]
        rows = [block[k * len(Ts):(k + 1) * len(Ts)] for k in range(n_trials)]
        final.append(np.array([[r.error_output[-1] for r in row] for row in rows]))
        final_it.append(np.array([[r.error[-1] for r in row] for row in rows]))
        s_used.append(np.array([r.s for r in block[:len(Ts)]]))
        longest.append(_curves([block[(k + 1) * len(Ts) - 1] for k in range(n_trials)]))
    Rq = np.array([np.mean([th.lq_radius(_stream(d, q, k).theta_star, q) for k in range(n_trials)]) for q in qs])
    return WeakSparsityData(d, Ts, n_trials, qs, tuple(final), tuple(final_it), tuple(s_used), tuple(longest), Rq)


def _horizon_ticks(ax, Ts):
    ax.set_xticks(list(Ts), [f"{t:,}" for t in Ts])
    ax.set_xticks([], minor=True)


def _q_shade(q):
    """RADAR's colour for the runs at sparsity exponent q: lighter for small q, darker for large q."""
    return _style.shade("RADAR", -0.55 + 1.1 * float(q))


def draw_weak_sparsity_frame(ax, data: WeakSparsityData, k, ylim=None):
    """One q of :func:`weak_sparsity_data` on ``ax``: the final errors of RADAR's output against the horizon T
    (mean and min-max over trials), Corollary 1's slope -(2 - q)/2 and the slope -1/2 through the last mean, and
    the output's error along the longest runs (thin)."""
    q = data.qs[k]
    col = _q_shade(q)
    Ts = np.asarray(data.Ts, dtype=np.float64)
    f = data.final[k]
    lon = data.longest[k]
    it = lon.iteration
    ax.plot(it[it > 0], lon.mean[it > 0], color=col, lw=1, alpha=0.6, label=f"RADAR: output along the runs to "
            f"T = {data.Ts[-1]:,} (mean)")
    ax.fill_between(Ts, f.min(axis=0), f.max(axis=0), color=col, alpha=0.25, lw=0)
    ax.plot(Ts, f.mean(axis=0), "o-", color=col, lw=2, ms=6, label="RADAR: output after T, one run per T")
    m = f.mean(axis=0)
    _guide(ax, Ts[-1], m[-1], data.theory[k], Ts[0], f"Corollary 1: slope {data.theory[k]:+.3g}",
           style=dict(color="k", ls="--", lw=1.2))
    _guide(ax, Ts[-1], m[-1], -0.5, Ts[0], "slope −½ guide", style=GUIDE_STYLES[-0.5])
    _loglog_axes(ax)
    ax.set_xlabel("iterations $t$ = horizon $T$")
    if ylim is not None:
        ax.set_ylim(*ylim)
    ax.legend(fontsize=9, loc="lower left")
    s = data.s_used[k]
    what = "s-sparse" if q == 0 else f"tail ∝ j^(−1/{q:g}), R_q = {data.Rq[k]:.3g}"
    ax.set_title(f"q = {q:g}: {what}; s = {s[0]}…{s[-1]}; d = {data.d:,}, {data.n_trials} trials", fontsize=10)


@_style.book_figure
def weak_sparsity_figure(qs=WEAK_QS, highlight=None, d=500, T=20_000, n_trials=5, live=False,
                         figsize=FIGSIZE, fig=None, ahead=True) -> Figure:
    """Corollary 1's trade-off: above, the mean final ||hat theta_T - theta*||_2^2 of RADAR's output (what the
    corollary bounds) against the horizon T for every q of ``qs`` (shades of RADAR's colour, darker for larger q;
    ``highlight`` adds one q, drawn thick); below, the fitted log-log slopes of the output and of the last iterate
    against q, with Corollary 1's exponent -(2 - q)/2 and the -1/2 of single-run methods (``ahead``: see
    :func:`weak_sparsity_data`).  The legends name the curves only: the exponents are the chapter's question."""
    qs = tuple(round(float(q), 6) for q in qs)
    if highlight is not None:
        check_range("q", highlight, WEAK_LIMITS)
        highlight = round(float(highlight), 6)
        qs = tuple(sorted(set(qs) | {highlight}))
    data = weak_sparsity_data(qs, d, T, n_trials, live=live, ahead=ahead)
    slopes, slopes_it = data.slopes(), data.slopes(iterate=True)
    if live:
        fig, (ax0, ax1) = figure_axes(fig, figsize, _stacked_fixed, layout=None)
    else:
        fig, (ax0, ax1) = figure_axes(fig, figsize, _stacked)
    for k, q in enumerate(data.qs):
        hl = highlight is not None and q == highlight
        ax0.plot(data.Ts, data.final[k].mean(axis=0), "o-", color=_q_shade(q), lw=3.2 if hl else 1.8, ms=5,
                 label=f"RADAR, q = {q:g}" + (" (selected)" if hl else ""))
    _loglog_axes(ax0, ylabel=r"$\|\hat\theta_T - \theta^\star\|_2^2$ of the output")
    _horizon_ticks(ax0, data.Ts)
    ax0.set_xlabel("horizon $T$ (one run per $T$)")
    ax0.legend(fontsize=9, loc="lower left", title="output after T samples, mean over trials", title_fontsize=9)
    ax0.set_title(f"θ* in B_q(R_q), ‖θ*‖² = {data.longest[0].records[0].norm2_sq:.2f}; d = {data.d:,}, "
                  f"{data.n_trials} trials", fontsize=10)
    qq = np.linspace(0, 1, 50)
    ax1.plot(qq, -(2 - qq) / 2, color="k", ls="--", lw=1.5, label="Corollary 1: −(2 − q)/2")
    ax1.axhline(-0.5, label="rate of single-run methods: −½", **GUIDE_STYLES[-0.5])
    ax1.plot(data.qs, slopes, "o-", color=ALGORITHM_COLORS["RADAR"], lw=2, ms=7, label="RADAR: output (fitted)")
    ax1.plot(data.qs, slopes_it, "s-", color=_style.shade("RADAR", ITERATE_SHADE), lw=1, ms=5,
             label="RADAR: last iterate θ_T (fitted)")
    if highlight is not None:
        k = data.qs.index(highlight)
        ax1.plot([highlight], [slopes[k]], "*", color="k", ms=14, label=f"selected q = {highlight:g}")
    ax1.set_xlabel("q (0: exactly sparse)")
    ax1.set_ylabel("fitted exponent of T")
    ax1.grid(True, alpha=0.3)
    ax1.legend(fontsize=9, loc="lower right")
    return fig


def weak_sparsity_demo(ahead=True, **defaults):
    """Live Corollary 1: which q of the grid :data:`WEAK_QS` to draw thick (default 0.5; drawing only, every q of
    the grid is computed), d, the largest horizon T and the number of trials, redrawing
    :func:`weak_sparsity_figure`.  Both values of d are computed (the first display computes the one the chapter
    has not, a few seconds); a new largest T reuses the horizons T/2^k it shares with those run before and runs
    only the new ones.  ``ahead=False`` computes only the d shown (for the static player)."""
    import ipywidgets as widgets

    v = dict(dict(WEAK_DEFAULTS, highlight=0.5), **defaults)
    lim = WEAK_LIMITS
    check_choice("highlight", v["highlight"], WEAK_QS)
    check_choice("d", v["d"], lim["d"])
    check_choice("T", v["T"], lim["T"])
    check_range("n_trials", v["n_trials"], lim)
    controls = dict(
        highlight=widgets.SelectionSlider(options=list(WEAK_QS), value=v["highlight"], description="q",
                                          continuous_update=False),
        d=widgets.SelectionSlider(options=list(lim["d"]), value=v["d"], description="d", continuous_update=False),
        T=widgets.SelectionSlider(options=list(lim["T"]), value=v["T"], description="largest T",
                                  continuous_update=False),
        n_trials=widgets.IntSlider(value=v["n_trials"], min=lim["n_trials"][0], max=lim["n_trials"][1],
                                   description="trials", continuous_update=False),
    )

    def show(fig=None, **kw):
        return weak_sparsity_figure(live=True, fig=fig, ahead=ahead, **kw)

    return wire(controls, show, [["highlight", "d"], ["T", "n_trials"]])


def weak_sparsity_player(**static):
    """Corollary 1's demo for the HTML book: :func:`weak_sparsity_demo` precomputed over :data:`WEAK_STATIC`."""
    return static_player(weak_sparsity_demo(ahead=False), **dict(WEAK_STATIC, **static))
