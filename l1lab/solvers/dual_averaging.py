r"""RADAR (Algorithm 1 of Agarwal, Negahban & Wainwright 2012), its fixed-lambda variant EDA, regularized dual
averaging (RDA, Xiao 2010) and SGD on an l1 ball: the methods of the paper's Section 4 (its simulated data are
in :mod:`l1lab.data.radar`).

Sources of stochastic gradients (``source``):

* a *stream* (the paper's setting: one fresh sample per iteration): any callable ``sampler(rng, n)``
  returning (X, y) with X of shape (n, d), e.g. :class:`l1lab.data.radar.UniformDesignStream`
  (x ~ Unif[-B, B]^d, y = <theta*, x> + w, w ~ N(0, eta^2)).  Samples are requested in blocks of a fixed size
  that depends on d only, so the samples, and hence every result, depend only on (source, seed): RADAR, RDA and
  SGD run with one seed see the same samples, whatever the checkpoints or epochs;
* a *finite pool* (eq. (15)): a :class:`l1lab.Problem` built with ``lam=0``, sampled uniformly with
  replacement (indices drawn up front).

The loss gradient of a sample is L'(<theta, x>, y) x (``loss``, squared by default for streams; the Problem's
own loss for pools).  Every method returns a :class:`RecoveryResult`: the output, and ||theta - theta*||_2^2
at log-spaced checkpoints for the current iterate, the method's output and the running average.

The prox-function is psi(theta) = ||theta - y||_p^2/(2 R^2 (p-1)), p = 2 log d/(2 log d - 1), whose gradient map
is the p-norm link of :mod:`l1lab.links` at the conjugate exponent q = 2 log d: the argmin of update (4) is

.. math:: \theta_{t+1} = y_i - \frac{\alpha_{t+1}R_i^2(p-1)}{1+\xi}\,\nabla\tfrac12\|\mu_{t+1}\|_q^2,\qquad
          1 + \xi = \max\{1,\ \alpha_{t+1}R_i(p-1)\|\mu_{t+1}\|_q\},

with :math:`\nabla\tfrac12\|\mu\|_q^2 = \mathrm{sign}(\mu)|\mu|^{q-1}/\|\mu\|_q^{q-2}` (``link_inverse(mu, q)``):
the unconstrained minimizer, pulled back to the sphere of Omega(R_i) when it lies outside (:func:`radar_update`).
Steps: (12) prints alpha(t) for the prox-function without 1/R_i^2; the kernels use alpha(t)/R_i^2, which gives the
same iterates (see :func:`l1lab.theory.agarwal2012.schedule_step`).  The kernels (``_da_kernels``) evaluate the
link with their own vectorized powers (one per coordinate and step is the cost of RADAR); the tests check them
against :func:`radar_update`, which uses ``link_inverse``, and against a plain numpy Algorithm 1.
"""
from __future__ import annotations

import copy
import math
import time
from dataclasses import dataclass, field

import numpy as np

from ..links import link_inverse
from ..losses import get_loss
from ..problem import Problem, check_unweighted_problem
from ..theory import agarwal2012 as th
from ..trace import log_checkpoints
from . import _da_kernels as K
from ._checks import ANY, check_array, check_count, check_positive, check_real, count, solver_checked

EPOCH_RULES = ("oracle", "theory", "constant")
SGD_SCHEDULES = {"1/t": 0, "1/sqrt(t)": 1, "constant": 2}
_BLOCK_DOUBLES = 1 << 21  # a stream block holds at most this many features (16 MB)


# ============================================================================================ results
@dataclass
class RecoveryResult:
    """A run of RADAR, EDA, RDA or SGD.

    * ``w``: the method's output after n_iter steps (RADAR/EDA: y_{K_T+1}, the average of the last completed
      epoch, y_1 = 0 if none completed; RDA, SGD: the last iterate); ``theta``: the last iterate theta_T;
    * ``iteration``: checkpoints (log-spaced, shared by runs with the same n_iter and n_checkpoints);
    * ``error``: ||theta_t - theta*||_2^2 of the current iterate; ``error_output``: of the output available at t
      (RADAR/EDA: the prox-center y_i of the running epoch; RDA, SGD: the iterate); ``error_average``: of the
      running average (RADAR/EDA: of the running epoch's iterates, y_i at its start; RDA, SGD: of all iterates);
      all NaN without theta*;
    * ``seconds``: kernel time up to each checkpoint (sampling excluded, see info["sampling_seconds"]);
    * ``epochs``: per completed epoch, "end" (iteration), "R", "lam", "alpha" (the multiplier of 1/sqrt(t) in
      the normalization of (5)), "length" (the planned T_i; -1 for the oracle rule) and "max_radius_ratio"
      (max_t ||theta_t - y_i||_p/R_i, at most 1).
    """

    w: np.ndarray
    theta: np.ndarray
    iteration: np.ndarray
    error: np.ndarray
    error_output: np.ndarray
    error_average: np.ndarray
    seconds: np.ndarray
    epochs: dict = field(default_factory=dict)
    info: dict = field(default_factory=dict)

    @property
    def n_epochs(self) -> int:
        """Number of completed epochs (0 for RDA and SGD)."""
        return len(self.epochs.get("end", ()))

    def slope(self, which="error", start_fraction=0.1):
        """The least-squares slope of log(error) against log(iteration) over the checkpoints at
        iteration >= start_fraction * n_iter (``which``: "error", "error_output" or "error_average")."""
        return loglog_slope(self.iteration, getattr(self, which), start_fraction)


@solver_checked()
def loglog_slope(iterations, errors, start_fraction=0.1):
    """Fitted slope of log(errors) against log(iterations) over iterations >= start_fraction * max(iterations)
    (the rate exponent: -1 for O(1/T), -1/2 for O(1/sqrt(T))).  ``errors`` may be an average over runs."""
    it = check_array(iterations, "iterations")
    err = check_array(errors, "errors", shape=it.shape, finite=False, like="iterations")  # inf/NaN: diverged runs
    if not 0 <= start_fraction < 1:
        raise ValueError(f"start_fraction must be in [0, 1), got {start_fraction}")
    keep = (it >= start_fraction * it.max()) & (it > 0) & (err > 0) & np.isfinite(err)
    if keep.sum() < 2:
        raise ValueError("fewer than two positive checkpoints to fit a slope")
    return float(np.polyfit(np.log(it[keep]), np.log(err[keep]), 1)[0])


# ===================================================================================== the sample source
class _Samples:
    """One iterator over the samples of a run: a pool (indices drawn up front) or a stream (fixed blocks)."""

    def __init__(self, source, n_iter, seed, loss):
        self.rng = np.random.default_rng(seed)
        self.sampling_seconds = 0.0
        if isinstance(source, Problem):
            check_unweighted_problem(source, "source")   # the pool is sampled uniformly
            if source.lam != 0:
                raise ValueError(f"a finite pool is the unregularized objective (15): build the Problem with lam=0 "
                                 f"(got lam={source.lam}); the methods set their own regularization")
            self.pool = True
            self.d = source.d
            self.code = source.loss.code
            self.arrays = source.csr_arrays()
            self.y = source.y
            self.order = self.rng.integers(0, source.m, size=n_iter, dtype=np.int64)
            self.theta_star = None
        elif callable(source):
            self.pool = False
            self.sampler = source
            self.code = get_loss(loss).code
            self.theta_star = getattr(source, "theta_star", None)
            d = getattr(source, "d", None)
            self.X = self.y = None
            self.pos = 0
            if d is None:  # probe one sample with a copy of the generator: the run's samples stay the same
                X, _ = source(copy.deepcopy(self.rng), 1)
                d = np.shape(X)[-1]
            self.d = int(d)
            self.block = max(1, min(256, _BLOCK_DOUBLES // self.d))
        else:
            raise TypeError(f"source must be an l1lab.Problem (finite pool) or a callable sampler(rng, n) -> (X, y), "
                            f"got {type(source).__name__}")

    def _draw(self, n):
        t0 = time.perf_counter()
        X, y = self.sampler(self.rng, n)
        X = np.ascontiguousarray(X, dtype=np.float64)
        y = np.ascontiguousarray(y, dtype=np.float64)
        if X.ndim != 2 or X.shape[0] != n or y.shape != (n,):
            raise ValueError(f"the sampler must return X of shape (n, d) and y of shape (n,) for n = {n}; got "
                             f"{X.shape} and {y.shape}")
        if self.X is not None and X.shape[1] != self.X.shape[1]:
            raise ValueError(f"the sampler changed dimension from {self.X.shape[1]} to {X.shape[1]}")
        if self.X is None and not (np.all(np.isfinite(X)) and np.all(np.isfinite(y))):
            raise ValueError("the sampler returned NaN or infinite values")
        self.X, self.y, self.pos = X, y, 0
        self.sampling_seconds += time.perf_counter() - t0

    def segment(self, t, n):
        """Arguments (data..., k0, k1) for the next at most n steps, starting at step t of the run."""
        if self.pool:
            return self.arrays + (self.y, self.order, t, t + n)
        if self.X is None or self.pos >= self.X.shape[0]:
            self._draw(self.block)
        k1 = min(self.X.shape[0], self.pos + n)
        return (self.X, self.y, self.pos, k1)

    def advance(self, k):
        if not self.pool:
            self.pos += k


# ============================================================================================ checks
def _check_n_iter(n_iter):
    return check_count(n_iter, "n_iter", minimum=1)


def _positive(value, name):
    return check_positive(value, name)


def _theta_star(theta_star, samples):
    if theta_star is None:
        theta_star = samples.theta_star
    if theta_star is None:
        return None
    return check_array(theta_star, "theta_star", shape=(samples.d,), like="the source's dimension")


def _check_R1(R1, theta_star):
    R1 = _positive(R1, "R1")
    if theta_star is not None:
        n1 = float(np.abs(theta_star).sum())
        if R1 < n1 * (1 - 1e-12):
            raise ValueError(f"R1 = {R1:.6g} is below ||theta*||_1 = {n1:.6g}: R1 must bound ||theta*||_1 "
                             f"(Algorithm 1; for SGD, the l1 ball must contain theta*)")
    return R1


def _exponents(d, p):
    p = th.prox_exponent(d) if p is None else check_real(p, "the prox exponent p")
    if not 1 < p <= 2:
        raise ValueError(f"the prox exponent p must be in (1, 2], got {p}")
    q = p / (p - 1.0)
    return p, q, 1.0 / (q - 1.0)  # p - 1, exact from q


# ============================================================================================ the runner
def _run(algo, samples, n_iter, n_checkpoints, theta_star):
    cps = log_checkpoints(n_iter, n_checkpoints)
    n = len(cps)
    err, err_out, err_avg, secs = (np.full(n, np.nan) for _ in range(4))

    def sq(v):
        if theta_star is None:
            return np.nan
        diff = v - theta_star
        return K.dot(diff, diff)  # (not BLAS: its threads stall on a busy machine)

    def record(k):
        err[k] = sq(algo.theta)
        err_out[k] = sq(algo.output())
        err_avg[k] = sq(algo.average())
        secs[k] = seconds

    seconds = 0.0
    t = 0
    record(0)
    for k in range(1, n):
        while t < cps[k]:
            n_steps = min(int(cps[k]) - t, algo.steps_left_in_epoch())
            args = samples.segment(t, n_steps)
            t0 = time.perf_counter()
            done, ended = algo.run(args)
            seconds += time.perf_counter() - t0
            samples.advance(done)
            t += done
            if ended or algo.steps_left_in_epoch() == 0:
                algo.end_epoch(t)
        record(k)
    return RecoveryResult(w=algo.output().copy(), theta=algo.theta.copy(), iteration=cps, error=err,
                          error_output=err_out, error_average=err_avg, seconds=secs, epochs=algo.epoch_table(),
                          info=dict(algo.info, n_iter=n_iter, pool=samples.pool,
                                    sampling_seconds=samples.sampling_seconds))


class _NoEpochs:
    def steps_left_in_epoch(self):
        return 1 << 62

    def end_epoch(self, t):  # pragma: no cover - never called
        raise AssertionError

    def epoch_table(self):
        return {}

    def output(self):
        return self.theta

    def average(self):
        return self.tsum / self.state[0] if self.state[0] > 0 else self.theta


# ================================================================================================ RADAR
def _as_function(v, name):
    if v is None:
        return None
    if callable(v):
        return v
    v = check_real(v, f"{name} (a number >= 0 or a function of R)", low=0.0)
    return lambda R: v


class _Radar:
    def __init__(self, samples, n_iter, R1, theta_star, rule, lam, alpha, s, gamma, G, sigma, omega, c1,
                 step_constant, lam_constant, epoch_length, oracle_check, p):
        d = samples.d
        self.samples, self.d, self.n_iter = samples, d, n_iter
        self.p, self.q, self.pm1 = _exponents(d, p)
        self.R1, self.theta_star, self.rule = R1, theta_star, rule
        self.lam_fixed = lam
        self.alpha_fixed = alpha
        self.s, self.gamma, self.omega, self.c1 = s, gamma, omega, c1
        self.G, self.sigma = G, sigma
        self.step_constant, self.lam_constant = step_constant, lam_constant
        self.epoch_length_const = epoch_length
        self.check_frac = oracle_check
        self.center = np.zeros(d)
        self.theta = np.zeros(d)
        self.mu = np.zeros(d)
        self.nu = np.zeros(d)
        self.tsum = np.zeros(d)
        self.w, self.u, self.ib = np.zeros(d), np.zeros(d), np.zeros(d, dtype=np.int64)
        self.state = np.zeros(3)  # [t in epoch, next oracle check, max ||theta - y||_p / R]
        self.i, self.R = 1, R1
        self.table = {k: [] for k in ("end", "R", "lam", "alpha", "length", "max_radius_ratio")}
        self.ts_dummy = np.zeros(d) if theta_star is None else theta_star
        self._begin_epoch()
        self.info = {"method": "radar" if lam is None else "eda", "epochs": rule, "R1": R1, "p": self.p,
                     "lam": lam, "alpha": alpha, "s": s, "gamma": gamma, "omega": omega, "c1": c1,
                     "step_constant": step_constant, "lam_constant": lam_constant,
                     "epoch_length": self.length if rule == "constant" else None}

    # ---- the parameters of epoch i
    def _Gs(self, R):
        return float(self.G(R)), float(self.sigma(R))

    def theory_length(self, i, R):
        G, sig = self._Gs(R)
        return th.epoch_length(R, i, self.d, self.s, self.gamma, G, sig, self.omega, self.c1)

    def _begin_epoch(self):
        i, R = self.i, self.R
        if self.rule == "theory":
            self.length = int(math.ceil(self.theory_length(i, R)))
        elif self.rule == "constant":
            self.length = int(self.epoch_length_const)
        else:
            self.length = -1
        if self.lam_fixed is not None:
            lam = self.lam_fixed
        else:
            T_i = self.length if self.length > 0 else self.theory_length(i, R)
            G, sig = self._Gs(R)
            lam = self.lam_constant * th.schedule_lambda(R, T_i, i, self.d, self.s, self.gamma, G, sig, self.omega)
        if self.alpha_fixed is not None:
            a = self.alpha_fixed
        else:
            G, sig = self._Gs(R)
            a = th.schedule_step(R, 1, lam, self.d, G, sig, self.step_constant, normalization="eq5")
        self.lam, self.a = lam, a
        if self.rule == "oracle":
            diff = self.center - self.theta_star
            self.target = 0.5 * float(np.linalg.norm(diff, ord=self.p)) ** 2 if np.any(diff) else 0.0
        else:
            self.target = -1.0
        self.state[:] = (0.0, 1.0, 0.0)

    def steps_left_in_epoch(self):
        if self.length < 0:
            return 1 << 62
        return self.length - int(self.state[0])

    def run(self, args):
        common = (self.theta, self.mu, self.nu, self.center, self.tsum, self.w, self.u, self.ib, self.state,
                  self.lam, self.a, self.R, self.q, self.pm1, self.rule == "oracle", self.ts_dummy, self.p,
                  self.target, self.check_frac)
        if self.samples.pool:
            return K.radar_pool(self.samples.code, *args, *common)
        return K.radar_dense(self.samples.code, *args, *common)

    def end_epoch(self, t):
        te = self.state[0]
        for k, v in (("end", t), ("R", self.R), ("lam", self.lam), ("alpha", self.a), ("length", self.length),
                     ("max_radius_ratio", self.state[2])):
            self.table[k].append(v)
        self.center = self.tsum / te
        self.theta[:] = self.center
        self.nu[:] = np.sign(self.center)
        self.mu[:] = 0.0
        self.tsum[:] = 0.0
        self.i += 1
        self.R = self.R / math.sqrt(2.0)
        self._begin_epoch()

    def epoch_table(self):
        out = {k: np.array(v, dtype=np.int64 if k in ("end", "length") else np.float64) for k, v in self.table.items()}
        return out

    def output(self):
        return self.center

    def average(self):
        return self.tsum / self.state[0] if self.state[0] > 0 else self.center


@solver_checked(n_iter=count(1), sigma=ANY)
def radar(source, n_iter, *, R1, epochs="oracle", theta_star=None, s=None, gamma=None, G=None, sigma=None,
          omega=None, c1=None, lam=None, alpha=None, step_constant=5.0, lam_constant=1.0, epoch_length=None,
          oracle_check=1 / 64, p=None, loss="squared", seed=0, n_checkpoints=60):
    r"""RADAR, Algorithm 1 of Agarwal, Negahban & Wainwright (2012).

    Epoch i = 1, 2, ...: mu_0 = 0, theta_0 = y_i (y_1 = 0); for t = 0, ..., T_i - 1, with a stochastic gradient
    g_t at theta_t and nu_t = sign(theta_t) (0 at 0),

        mu_{t+1} = mu_t + g_t + lam_i nu_t,
        theta_{t+1} = argmin_{||theta - y_i||_p <= R_i} alpha_{t+1} <mu_{t+1}, theta> + psi_{y_i, R_i}(theta)   (4)

    in closed form (:func:`radar_update`), alpha_t = alpha_i/sqrt(t); then y_{i+1} = (1/T_i) sum_{t=1}^{T_i}
    theta_t and R_{i+1}^2 = R_i^2/2.  Returns y_{K_T+1} (K_T the last epoch completed in n_iter steps).

    Epoch lengths (``epochs``):

    * ``"oracle"`` -- the paper's experiments: end the epoch once ||y_{i+1} - theta*||_p^2 <= ||y_i - theta*||_p^2/2,
      y_{i+1} the running average (needs theta*; checked at t = 1 and then every max(1, oracle_check * t) steps,
      so an epoch ends at most a fraction ``oracle_check`` later than the first step that satisfies the rule;
      ``oracle_check=0`` checks every step);
    * ``"theory"`` -- T_i = ceil((9)) (:func:`l1lab.theory.agarwal2012.epoch_length`, needs c1);
    * ``"constant"`` -- RADAR-CONST: every epoch has ``epoch_length`` steps (default Theorem 2's
      T log d/kappa_T, :func:`~l1lab.theory.agarwal2012.theorem2_epoch_length`).

    Parameters (12): ``lam=None`` gives lam_i = lam_constant sqrt(R_i gamma sqrt((G^2 + sigma^2) log d +
    omega_i^2 sigma^2)/(s sqrt(T_i))) with T_i the epoch's planned length ((9) for the oracle rule: this needs
    c1 too; ``lam_constant`` = 1 is (12) as printed -- with T_i from (9) lam_i is about gamma R_i/(s c1^(1/4)),
    and with short constant epochs (RADAR-CONST) a smaller constant may be needed); a number fixes lam (that is
    EDA, :func:`eda`).  ``alpha=None`` gives the step of (12), alpha(t) = step_constant R_i
    sqrt(log d/((G^2 + lam_i^2 + sigma^2) t)), divided by R_i^2 for the prox-function (5) (see the module
    docstring); a number is Algorithm 1's fixed multiplier, alpha_t = alpha/sqrt(t) in the normalization of (5).
    G and sigma (Assumptions 1 and 3) are numbers or functions of the radius, evaluated at R_i (e.g.
    Example 2's G(R) = rho R, :func:`l1lab.theory.agarwal2012.example2_G`); gamma is Assumption 2's constant,
    s the sparsity, omega the probability parameter (omega_i^2 = omega^2 + 24 log i).  The paper leaves the
    universal constant c1 unspecified and does not say which G, sigma, gamma, omega its experiments used: they
    have no defaults.  ``step_constant`` = 5 is (12)'s printed constant.

    R1 must bound ||theta*||_1 (checked when theta* is known: ``theta_star`` or the stream's ``theta_star``).
    Cost per step: O(d) with one power per coordinate (the prox-mapping is dense), plus the sample.
    """
    n_iter = _check_n_iter(n_iter)
    if epochs not in EPOCH_RULES:
        raise ValueError(f"epochs must be one of {EPOCH_RULES}, got {epochs!r}")
    samples = _Samples(source, n_iter, seed, loss)
    d = samples.d
    if d < 3:
        raise ValueError(f"RADAR needs d >= 3 (p = 2 log d/(2 log d - 1)), got d = {d}")
    theta_star = _theta_star(theta_star, samples)
    R1 = _check_R1(R1, theta_star)
    if epochs == "oracle" and theta_star is None:
        raise ValueError("the oracle epoch rule needs theta_star (it stops an epoch once the lp error has halved)")
    if lam is not None:
        lam = float(lam)
        if not (lam >= 0 and math.isfinite(lam)):
            raise ValueError(f"lam must be a finite number >= 0, got {lam}")
    if alpha is not None:
        alpha = _positive(alpha, "alpha")
    step_constant = _positive(step_constant, "step_constant")
    lam_constant = _positive(lam_constant, "lam_constant")
    oracle_check = float(oracle_check)
    if not 0 <= oracle_check < 1:
        raise ValueError(f"oracle_check must be in [0, 1), got {oracle_check}")
    G, sigma = _as_function(G, "G"), _as_function(sigma, "sigma")

    needs = []
    uses_theory_length = epochs == "theory" or (epochs == "oracle" and lam is None)
    if alpha is None:
        needs += [("G", G), ("sigma", sigma)]
    if lam is None or uses_theory_length or (epochs == "constant" and epoch_length is None):
        needs += [("s", s), ("gamma", gamma), ("G", G), ("sigma", sigma), ("omega", omega)]
    if uses_theory_length:
        needs.append(("c1", c1))
    missing = sorted({k for k, v in needs if v is None})
    if missing:
        why = {"c1": "c1 is the unspecified universal constant of the epoch lengths (9)",
               "omega": "omega is the probability parameter of Theorem 1"}
        extra = "; ".join(why[k] for k in missing if k in why)
        raise ValueError(f"radar with epochs={epochs!r}, lam={'fixed' if lam is not None else '(12)'} and "
                         f"alpha={'fixed' if alpha is not None else '(12)'} needs {', '.join(missing)}"
                         + (f" ({extra})" if extra else "") + ": the paper gives no values, pass them explicitly")
    if s is not None:
        s = _positive(s, "s")
    if gamma is not None:
        gamma = _positive(gamma, "gamma")
    if omega is not None:
        omega = float(omega)
        if not (omega >= 0 and math.isfinite(omega)):
            raise ValueError(f"omega must be a finite number >= 0, got {omega}")
    if c1 is not None:
        c1 = _positive(c1, "c1")

    if epochs == "constant":
        if epoch_length is None:
            G1, s1 = float(G(R1)), float(sigma(R1))
            kap = th.kappa_T(n_iter, d, s, gamma, R1, G1, s1, omega)
            if kap <= math.log(d):
                raise ValueError(f"n_iter = {n_iter} is too small for one epoch: kappa_T = {kap:.4g} <= log d "
                                 "(Theorem 2's epoch length T log d/kappa_T would exceed T); pass epoch_length")
            epoch_length = th.theorem2_epoch_length(n_iter, d, kap)
        epoch_length = int(math.ceil(epoch_length)) if math.isfinite(epoch_length) else epoch_length
        if not (isinstance(epoch_length, int) and epoch_length >= 1):
            raise ValueError(f"epoch_length must be a positive integer, got {epoch_length!r}")
        if epoch_length > n_iter:
            raise ValueError(f"n_iter = {n_iter} is too small for one epoch of length {epoch_length}: RADAR would "
                             "return y_1 = 0; increase n_iter or shorten the epochs")
    algo = _Radar(samples, n_iter, R1, theta_star, epochs, lam, alpha, s, gamma, G, sigma, omega, c1,
                  step_constant, lam_constant, epoch_length, oracle_check, p)
    if epochs == "theory" and algo.length > n_iter:
        raise ValueError(f"n_iter = {n_iter} is too small for one epoch: (9) gives T_1 = {algo.length} with "
                         f"c1 = {c1:g}; RADAR would return y_1 = 0. Increase n_iter or lower c1 (the paper leaves "
                         "it unspecified)")
    algo.info["seed"] = seed
    return _run(algo, samples, n_iter, n_checkpoints, theta_star)


@solver_checked(n_iter=count(1), lam=ANY)  # lam: None is an error with its own message
def eda(source, n_iter, lam, *, R1, epochs="oracle", **kwargs):
    r"""EDA (epoch dual averaging), the baseline of Section 4 of Agarwal, Negahban & Wainwright (2012): RADAR's
    epochs and radii with a fixed regularization ``lam`` (the paper uses lam = 4 eta sqrt(log d/T),
    :func:`l1lab.theory.agarwal2012.rda_lambda`) -- Juditsky & Nesterov's multi-step method on the regularized
    problem.  Same keywords as :func:`radar`."""
    if lam is None:
        raise ValueError("EDA needs a fixed lam (e.g. 4 eta sqrt(log d/T)); lam=None is RADAR's schedule (12)")
    return radar(source, n_iter, R1=R1, epochs=epochs, lam=lam, **kwargs)


@solver_checked()
def radar_update(mu, center, R, alpha, p):
    r"""Update (4) of Agarwal, Negahban & Wainwright (2012) with the prox-function (5), in closed form:

    .. math:: \arg\min_{\|\theta - y\|_p \le R}\ \alpha\langle\mu, \theta\rangle
              + \frac{\|\theta - y\|_p^2}{2R^2(p-1)}
              = y - \frac{\alpha R^2(p-1)}{1+\xi}\,\frac{\mathrm{sign}(\mu)|\mu|^{q-1}}{\|\mu\|_q^{q-2}},
              \qquad \xi = \max\{0,\ \alpha R(p-1)\|\mu\|_q - 1\},

    q = p/(p-1).  Derivation: the stationarity condition alpha mu + grad(1/2||u||_p^2)/(R^2(p-1)) = 0,
    u = theta - y, is inverted by the conjugate link grad(1/2||.||_q^2) (``l1lab.links.link_inverse`` at
    exponent q), giving ||u||_p = alpha R^2 (p-1) ||mu||_q; if that exceeds R, the constrained minimizer is the
    same direction scaled to the sphere (the objective is radial plus linear).  The paper's printed (6) has
    (p-1) in the denominators and ||mu||_q^{q-2} in the numerator; the argmin of (4) with (5) as printed is the
    form above (checked numerically in the tests)."""
    mu = check_array(mu, "mu")
    y = check_array(center, "center", shape=mu.shape, like="mu")
    R, alpha = _positive(R, "R"), _positive(alpha, "alpha")
    p = check_real(p, "p")
    if not 1 < p <= 2:
        raise ValueError(f"p must be in (1, 2], got {p}")
    q = p / (p - 1.0)
    if not np.any(mu):
        return y.copy()
    g = link_inverse(mu, q)
    norm_q = _qnorm(mu, q)
    one_xi = max(1.0, alpha * R * (p - 1.0) * norm_q)
    return y - alpha * R * R * (p - 1.0) / one_xi * g


def _qnorm(v, q):
    M = float(np.max(np.abs(v)))
    return M * float(np.sum((np.abs(v) / M) ** q)) ** (1.0 / q)


# ================================================================================================== RDA
class _Rda(_NoEpochs):
    def __init__(self, samples, lam, beta, p):
        d = samples.d
        self.samples = samples
        self.p, self.q, self.pm1 = _exponents(d, p)
        self.lam, self.beta = lam, beta
        self.theta, self.gsum, self.tsum = np.zeros(d), np.zeros(d), np.zeros(d)
        self.u, self.w = np.zeros(d), np.zeros(d)
        self.act, self.ib = np.zeros(d, dtype=np.int64), np.zeros(d, dtype=np.int64)
        self.state = np.zeros(1)
        self.info = {"method": "rda", "lam": lam, "beta": beta, "p": self.p}

    def run(self, args):
        common = (self.theta, self.gsum, self.tsum, self.act, self.u, self.w, self.ib, self.state, self.lam,
                  self.beta, self.q, self.pm1)
        if self.samples.pool:
            return K.rda_pool(self.samples.code, *args, *common), False
        return K.rda_dense(self.samples.code, *args, *common), False


@solver_checked(n_iter=count(1))
def rda(source, n_iter, lam, beta, *, theta_star=None, p=None, loss="squared", seed=0, n_checkpoints=60):
    r"""Regularized dual averaging (Xiao 2010), the first baseline of Section 4 of Agarwal, Negahban &
    Wainwright (2012): with g_1, ..., g_t the stochastic gradients at theta_1 = 0, ..., theta_t and
    gbar_t = (1/t) sum g,

    .. math:: \theta_{t+1} = \arg\min_\theta \langle\bar g_t, \theta\rangle + \lambda\|\theta\|_1
              + \frac{\beta_t}{t}\,\frac{\|\theta\|_p^2}{2(p-1)}
              = -\frac{t(p-1)}{\beta_t}\nabla\tfrac12\|S_\lambda(\bar g_t)\|_q^2,\qquad \beta_t = \beta\sqrt t,

    S_lam the soft-threshold (the conjugate of lam||.||_1 + c||.||_p^2/2 is ||S_lam(.)||_q^2/(2c)), so theta is
    exactly sparse: theta_j = 0 wherever |gbar_j| <= lam.  The paper uses lam = 4 eta sqrt(log d/T)
    (:func:`l1lab.theory.agarwal2012.rda_lambda`) and the prox-function ||theta||_p^2/(2(p-1)); ``beta`` (Xiao's
    gamma) is not given: Xiao's bound (gamma D^2 + G^2/gamma) sqrt(T) suggests beta ~ G_q/D with
    D^2 = ||theta*||_p^2/(2(p-1)).  Output: the last iterate (``error_average`` records Xiao's average)."""
    n_iter = _check_n_iter(n_iter)
    lam = float(lam)
    if not (lam >= 0 and math.isfinite(lam)):
        raise ValueError(f"lam must be a finite number >= 0, got {lam}")
    beta = _positive(beta, "beta")
    samples = _Samples(source, n_iter, seed, loss)
    if samples.d < 3:
        raise ValueError(f"RDA with the p-norm prox-function needs d >= 3, got d = {samples.d}")
    theta_star = _theta_star(theta_star, samples)
    algo = _Rda(samples, lam, beta, p)
    algo.info["seed"] = seed
    return _run(algo, samples, n_iter, n_checkpoints, theta_star)


# ================================================================================================== SGD
class _Sgd(_NoEpochs):
    def __init__(self, samples, R1, eta, schedule):
        d = samples.d
        self.samples = samples
        self.R1, self.eta, self.schedule = R1, eta, SGD_SCHEDULES[schedule]
        self.theta, self.tsum, self.u = np.zeros(d), np.zeros(d), np.zeros(d)
        self.state = np.zeros(2)  # [t, the last projection threshold]
        self.info = {"method": "sgd_l1_ball", "R1": R1, "eta": eta, "schedule": schedule}

    def run(self, args):
        common = (self.theta, self.tsum, self.u, self.state, self.R1, self.eta, self.schedule)
        if self.samples.pool:
            return K.sgd_pool(self.samples.code, *args, *common), False
        return K.sgd_dense(self.samples.code, *args, *common), False


@solver_checked(n_iter=count(1))
def sgd(source, n_iter, R1, eta, *, schedule="1/t", theta_star=None, loss="squared", seed=0, n_checkpoints=60):
    r"""Stochastic gradient descent on the l1 ball, the second baseline of Section 4 of Agarwal, Negahban &
    Wainwright (2012): theta_1 = 0, theta_{t+1} = P(theta_t - eta_t g_t), P the Euclidean projection onto
    {||theta||_1 <= R1}.  "Since the squared loss is not uniformly Lipschitz, we impose an additional constraint
    ||theta||_1 <= R1, without which the algorithm does not converge."  The paper gives no step: ``schedule``
    "1/t" (eta_t = eta/t; eta = 1/gamma is the classical strongly convex choice), "1/sqrt(t)" or "constant".
    Output: the last iterate (``error_average``: the average).

    Cost per step O(d): the gradient, and the projection, whose threshold comes from Michelot's iteration
    warm-started at the previous step's (two or three vectorized passes; ``l1lab.projections``' pivoting is the
    fallback): the same iterates as ``l1lab.projections.project_l1_ball`` to rounding."""
    n_iter = _check_n_iter(n_iter)
    if schedule not in SGD_SCHEDULES:
        raise ValueError(f"schedule must be one of {tuple(SGD_SCHEDULES)}, got {schedule!r}")
    eta = _positive(eta, "the step size eta")
    samples = _Samples(source, n_iter, seed, loss)
    theta_star = _theta_star(theta_star, samples)
    R1 = _check_R1(R1, theta_star)
    algo = _Sgd(samples, R1, eta, schedule)
    algo.info["seed"] = seed
    return _run(algo, samples, n_iter, n_checkpoints, theta_star)
