r"""The figures of the lecture "One family: mirror descent and dual averaging" (``chapters/family``).

One fixed sample, six solvers of l1lab, each against the guarantee that its own lecture proves, on the measure
that guarantee bounds.  Same layers as the other book modules: cached *data* functions returning dataclasses and a
*figure* function (:func:`family_figure`, checked by :func:`l1lab.book.style.book_figure`).

The sample (:func:`family_setup`): :func:`l1lab.data.make_regression` with m = 400 examples x_i in [-1, 1]^d,
d = 40 features, 4 relevant, noise 0.1 (y = X w_true + noise, rescaled to mean square 1), squared loss
(a - y)^2/2, and lambda a tenth of lambda_max.  X has full column rank, so C is strictly convex and the minimizer
w* of P = C + lambda ||.||_1 is unique; it is then also the minimizer of C on the l1 ball of radius R = ||w*||_1
(the constrained problem of the l1-ball lectures): any w in that ball with C(w) < C(w*) would have
P(w) < P(w*).  ``tests/test_book_family.py`` checks both against scikit-learn's Lasso and l1lab's projected
gradient.

The methods and their guarantees (:data:`METHODS`; every bound comes from :mod:`l1lab.theory`):

* SMIDAS (p = 2 ln d) and TruncGrad (the identity link, p = 2): Theorem 3 of Shalev-Shwartz & Tewari (2011),
  case (14) (the squared loss is self-bounded with rho = 2), at the step of Lemma 7 for the horizon T, on
  E[P(w_o)] - P*, w_o a uniformly random iterate (``output="random"``).  The bound at a fixed step holds at every
  T, so one run per seed gives the whole curve.
* EG+- (update (3) of Kakade, Foster & Even-Dar 2008, signed, with the dummy coordinate, on the ball of radius
  R): Lemma 5.3 with N = 2d + 1 weights, at the step of Theorem 2.3 for the horizon T, bounds the expected regret
  and hence E[C(w_bar_t)] - C(w*) for the average decision (online-to-batch in expectation); G_inf bounds
  |L'(<w, x>, y)| ||x||_inf on the ball.  l1lab's ``smg`` returns the average of a whole run, so each checkpoint is
  a run on the first t examples of the seed's stream (the prefix of the longer run).
* PGS (Zhu et al. 2009) on its own strongly convex problem F_sigma(w) = C(w) + sigma ||w||_p^2/(2(p-1)), with p
  the conjugate of SMIDAS's exponent (p = 2 ln d/(2 ln d - 1), close to 1), sigma = lambda, on the l_p ball of
  Section IV's radius: the paper's Theorem 1 in expectation, L^2 H_T/(2 sigma T), on E[F(w_i)] - F(w_hat).  Its
  minimizer is not w*: the theorem is about F_sigma.
* RDA (Xiao 2010) with the l1 term lambda and the prox term beta sqrt(t) ||.||_p^2/(2(p-1)) (beta = the RADAR
  lecture's 0.1): its iterates tend to w*.  l1lab.theory holds no bound for it; the curve drawn is the order of
  the single-step methods of Section 3.1 of Agarwal, Negahban & Wainwright (2012) with its constant set to 1, on
  ||theta_t - w*||_2^2: a shape, not a bound.
* RADAR (oracle epochs, the schedule (12) with Example 2's constants for this sample's covariance, s = 4,
  omega = 1, c1 = 256 as in the RADAR lecture) estimates the minimizer theta* of the loss itself, here the
  least-squares fit of the sample, not w*: its lambda_i anneals to 0.  Theorem 1 of the paper, with its
  unspecified c0 set to 1 and the tail eps^2(theta*; S) of (10) for the 4 largest entries, on
  ||theta_hat_T - theta*||_2^2, drawn only where it applies (kappa_T >= log d, T >= 2 kappa_T).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np
from matplotlib.figure import Figure
from threadpoolctl import threadpool_limits

from ..data.synthetic import make_regression
from ..links import smidas_p
from ..problem import Problem
from ..solvers import lbfgs, pgs, projected_gradient, radar, rda, reference_solution, smg, smidas, truncgrad
from ..theory import agarwal2012 as anw
from ..theory import kakade_foster_evendar as kfe
from ..theory import shalev_shwartz_tewari as sst
from ..theory import zhu2009 as zhu
from ..trace import log_checkpoints
from . import style as _style

__all__ = ["DATA", "FamilyData", "FamilySetup", "METHODS", "MethodRun", "RADAR_C1", "RADAR_OMEGA", "RDA_BETA",
           "constrained_minimizer", "family_data", "family_figure", "family_setup", "method_run"]

#: the sample: m examples, d features, k relevant, the noise level, data seed, lambda as a fraction of lambda_max
DATA = dict(m=400, d=40, k=4, noise=0.1, seed=1, lam_fraction=0.1)
#: the six methods, in the order of the figure's panels (mirror descent first, dual averaging second)
METHODS = ("SMIDAS", "TruncGrad", "EG±", "PGS", "RDA", "RADAR")
#: the RADAR lecture's choices (``l1lab.book.radar``): c1 of (9), omega, and RDA's beta
RADAR_C1, RADAR_OMEGA, RDA_BETA = 256.0, 1.0, 0.1
#: horizon, seeds and checkpoints of the lecture's figure
T_DEFAULT, SEEDS_DEFAULT, CHECKPOINTS = 50_000, 5, 30
_FLOOR = 1e-16


# ------------------------------------------------------------------------------------------------ the sample
@dataclass(frozen=True)
class FamilySetup:
    """The sample and every constant a method or a bound needs (names as in the lecture)."""

    X: np.ndarray
    y: np.ndarray
    w_true: np.ndarray
    lam: float
    lam_max: float
    problem: Problem        # P = C + lam ||w||_1
    pool: Problem           # the same data with lam = 0 (the constrained problem, PGS, RDA, RADAR)
    w_star: np.ndarray
    p_star: float
    R: float                # ||w*||_1, the radius of the constrained problem
    p0: float               # P(0)
    rho: float              # condition (14) of the squared loss
    p_smidas: float         # 2 ln d
    G_inf: float            # EG+-'s bound on |L'| ||x||_inf on the ball of radius R
    n_eg: int               # EG+-'s weights, 2d + 1
    p_pgs: float            # PGS's p, the conjugate of p_smidas
    sigma_pgs: float
    B_pgs: float
    L_pgs: float
    F_hat: float            # PGS's optimum
    w_hat: np.ndarray       # PGS's minimizer (L-BFGS)
    gamma: float            # the smallest eigenvalue of X^T X/m
    rho_sigma: float        # the largest diagonal entry of X^T X/m (Example 2's rho(Sigma))
    theta_star: np.ndarray  # the minimizer of C (RADAR's target): the least-squares fit
    R1: float               # RADAR's first radius, ||theta*||_1
    noise_level: float      # the residuals' root mean square at theta* (Example 2's eta)
    eps2: float             # eq. (10): ||theta*_{S^c}||_1^2/s for the s = k largest entries

    @property
    def d(self):
        return self.X.shape[1]

    @property
    def m(self):
        return self.X.shape[0]

    def G(self, R):
        """Example 2's G(R) = rho(Sigma) R."""
        return anw.example2_G(R, self.rho_sigma)

    def sigma(self, R):
        """Example 2's sigma(R) for this sample (eta its noise level at theta*, ||x||_inf <= 1)."""
        return anw.example2_sigma(R, self.rho_sigma, 1.0, self.noise_level)


@lru_cache(maxsize=4)
@threadpool_limits.wrap(limits=1, user_api="blas")
def _setup(m, d, k, noise, seed, lam_fraction):
    X, y, w_true = make_regression(m, d, k, noise=noise, seed=seed)
    X = np.asarray(X, dtype=np.float64)
    lam_max = float(np.abs(X.T @ y).max() / m)
    lam = lam_fraction * lam_max
    problem, pool = Problem(X, y, "squared", lam), Problem(X, y, "squared", 0.0)
    w_star, p_star = reference_solution(problem, tol=1e-12)
    R = float(np.abs(w_star).sum())
    p0 = float(problem.objective(np.zeros(d)))
    xmax = np.abs(X).max(axis=1)
    G_inf = float(np.max((R * xmax + np.abs(y)) * xmax))
    p_pgs = float(anw.prox_exponent(d))
    sigma_pgs = lam
    B_pgs = float(zhu.least_squares_radius(pool.smooth(np.zeros(d)), sigma_pgs, p_pgs))
    L_pgs = float(zhu.loss_lipschitz_constant(X, "squared", p_pgs, B=B_pgs, y=y))
    pgs_ref = lbfgs(pool, sigma_pgs, p=p_pgs, B=B_pgs, tol=1e-12)
    cov = X.T @ X / m
    theta_star = np.linalg.lstsq(X, y, rcond=None)[0]          # the minimizer of C, RADAR's target
    return FamilySetup(X=X, y=y, w_true=w_true, lam=lam, lam_max=lam_max, problem=problem, pool=pool,
                       w_star=w_star, p_star=float(p_star), R=R, p0=p0,
                       rho=float(sst.loss_condition_14(problem.loss)), p_smidas=float(smidas_p(d)), G_inf=G_inf,
                       n_eg=2 * d + 1, p_pgs=p_pgs, sigma_pgs=sigma_pgs, B_pgs=B_pgs, L_pgs=L_pgs,
                       F_hat=float(pgs_ref.objective), w_hat=pgs_ref.w,
                       gamma=float(np.linalg.eigvalsh(cov)[0]), rho_sigma=float(cov.diagonal().max()),
                       theta_star=theta_star, R1=float(np.abs(theta_star).sum()),
                       noise_level=float(np.sqrt(np.mean((y - X @ theta_star) ** 2))),
                       eps2=float(anw.sparsity_error(theta_star, k)))


@lru_cache(maxsize=1)
@threadpool_limits.wrap(limits=1, user_api="blas")
def constrained_minimizer(n_iter=3_000):
    """The minimizer of C on the l1 ball of radius ||w*||_1, by l1lab's projected gradient (full gradients, line
    search; Duchi et al. 2008): the lecture compares it with w*."""
    st = family_setup()
    return projected_gradient(st.pool, n_iter, st.R, eta0=8.0, method="batch", line_search=True).w


def family_setup(**changes) -> FamilySetup:
    """The lecture's sample (:data:`DATA`, any of whose entries ``changes`` may replace) and its constants."""
    kw = {**DATA, **changes}
    return _setup(*_key(kw))


def _key(kw=None):
    kw = DATA if kw is None else kw
    return int(kw["m"]), int(kw["d"]), int(kw["k"]), float(kw["noise"]), int(kw["seed"]), float(kw["lam_fraction"])


# ------------------------------------------------------------------------------------------------ the runs
@dataclass(frozen=True)
class MethodRun:
    """One method over seeds: the measure its guarantee bounds at the checkpoints ``iteration`` (all > 0) for every
    seed (``values``), the guarantee there (``bound``; NaN where it does not apply), and what they are."""

    name: str
    measure: str            # the measure, as a formula for the axis
    iteration: np.ndarray
    values: np.ndarray      # (n_seeds, checkpoints)
    bound: np.ndarray
    bound_label: str        # the guarantee's legend entry ("c = 1" where its constant is unspecified)
    rigorous: bool          # a bound (True), or an order whose unspecified constant is set to 1 (False)
    step: float             # the step size (or multiplier) the method ran with
    extra: dict = field(default_factory=dict)

    @property
    def mean(self):
        return self.values.mean(axis=0)

    @property
    def final(self):
        """The mean over seeds at the last checkpoint."""
        return float(self.mean[-1])

    def ratio(self):
        """bound / mean at every checkpoint where the bound applies (the guarantee's slack)."""
        ok = np.isfinite(self.bound)
        return self.bound[ok] / np.maximum(self.mean[ok], _FLOOR)

    def slope(self, start_fraction=0.1):
        """The log-log slope of the mean over the checkpoints t >= start_fraction T (least squares)."""
        t, v = self.iteration, np.maximum(self.mean, _FLOOR)
        keep = t >= start_fraction * t[-1]
        return float(np.polyfit(np.log(t[keep]), np.log(v[keep]), 1)[0])


@lru_cache(maxsize=64)
@threadpool_limits.wrap(limits=1, user_api="blas")
def _run(name, T, n_seeds, n_checkpoints, data_key):
    st = _setup(*data_key)
    d = st.d
    seeds = range(int(n_seeds))
    if name in ("SMIDAS", "TruncGrad"):
        p = st.p_smidas if name == "SMIDAS" else 2.0
        eta = sst.smidas_eta_self_bounded(T, st.rho, st.R, st.p0, p, d)
        gaps = []
        for s in seeds:
            if name == "SMIDAS":
                res = smidas(st.problem, T, eta, seed=s, output="random", n_checkpoints=n_checkpoints)
            else:
                res = truncgrad(st.problem, T, eta, seed=s, output="random", n_checkpoints=n_checkpoints)
            gaps.append(res.trace.objective[1:] - st.p_star)
        it = res.trace.iteration[1:].astype(np.int64)
        bound = np.asarray(sst.smidas_bound_self_bounded(eta, it, st.rho, st.R, st.p0, p, d), dtype=np.float64)
        return MethodRun(name, r"$P(w_o) - P^\star$", it, np.array(gaps), bound, "Theorem 3", True,
                         float(eta), {"p": p})
    if name == "EG±":
        eta = kfe.smg_eta(T, st.n_eg, st.G_inf)
        it = log_checkpoints(T, n_checkpoints)[1:]
        c_star = st.pool.objective(st.w_star)
        gaps = []
        for s in seeds:
            order = np.random.default_rng(s).integers(0, st.m, size=T)
            gaps.append([st.pool.objective(smg(st.pool, eta, st.R, order=order[:t]).w_avg) - c_star for t in it])
        bound = np.array([kfe.lemma53_bound(eta, int(t), st.n_eg, st.R, st.G_inf) for t in it])
        return MethodRun(name, r"$C(\bar w_t) - C(w^\star)$", it, np.array(gaps), bound, "Lemma 5.3", True,
                         float(eta))
    if name == "PGS":
        gaps = []
        for s in seeds:
            tr = pgs(st.pool, T, st.sigma_pgs, p=st.p_pgs, B=st.B_pgs, seed=s, output="random",
                     n_checkpoints=n_checkpoints).trace
            gaps.append(tr.objective[1:] - st.F_hat)
        it = tr.iteration[1:].astype(np.int64)
        bound = np.asarray(zhu.theorem1_expected_gap_bound(it, st.sigma_pgs, st.L_pgs), dtype=np.float64)
        return MethodRun(name, r"$\hat F_\sigma(w_i) - \hat F_\sigma(\hat w)$", it, np.array(gaps), bound,
                         "Theorem 1", True, float(st.sigma_pgs))
    if name == "RDA":
        errs = []
        for s in seeds:
            res = rda(st.pool, T, st.lam, RDA_BETA, theta_star=st.w_star, seed=s, n_checkpoints=n_checkpoints)
            errs.append(res.error[1:])
        it = res.iteration[1:].astype(np.int64)
        G, sig = st.G(st.R), st.sigma(st.R)
        bound = np.array([anw.single_step_rate(int(t), d, st.R, st.gamma, G, sig) for t in it])
        return MethodRun(name, r"$\|w_t - w^\star\|_2^2$", it, np.array(errs), bound,
                         "rate (c = 1)", False, RDA_BETA)
    if name == "RADAR":
        errs, epochs = [], []
        for s in seeds:
            res = radar(st.pool, T, R1=st.R1, epochs="oracle", theta_star=st.theta_star, s=DATA["k"], gamma=st.gamma,
                        G=st.G, sigma=st.sigma, omega=RADAR_OMEGA, c1=RADAR_C1, seed=s, n_checkpoints=n_checkpoints)
            errs.append(res.error_output[1:])
            epochs.append(res.n_epochs)
        it = res.iteration[1:].astype(np.int64)
        G, sig = st.G(st.R1), st.sigma(st.R1)
        bound = np.full(it.size, np.nan)
        for j, t in enumerate(it):
            try:
                bound[j] = anw.theorem1_bound(int(t), d, DATA["k"], st.gamma, st.R1, G, sig, RADAR_OMEGA,
                                              eps2=st.eps2)
            except ValueError:          # kappa_T < log d or T < 2 kappa_T: the theorem does not apply yet
                pass
        return MethodRun(name, r"$\|\hat w_T - w_{\mathrm{LS}}\|_2^2$", it, np.array(errs), bound,
                         "Theorem 1 (c0 = 1)", False, 5.0, {"epochs": int(min(epochs))})
    raise ValueError(f"method must be one of {METHODS}, got {name!r}")


def method_run(name, T=T_DEFAULT, n_seeds=SEEDS_DEFAULT, n_checkpoints=CHECKPOINTS) -> MethodRun:
    """One method of :data:`METHODS` on the lecture's sample, ``n_seeds`` seeds (0, 1, ...), horizon ``T``, each
    with the step or constants its guarantee prescribes (module docstring).  Cached."""
    if name not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {name!r}")
    if int(T) < 100 or int(n_seeds) < 1:
        raise ValueError(f"need T >= 100 and at least one seed, got T={T}, n_seeds={n_seeds}")
    return _run(name, int(T), int(n_seeds), int(n_checkpoints), _key())


@dataclass(frozen=True)
class FamilyData:
    """The six runs of the lecture's demo on one sample."""

    setup: FamilySetup
    T: int
    n_seeds: int
    runs: dict

    def kappa_applies_from(self):
        """The smallest checkpoint at which RADAR's Theorem 1 applies (NaN if none)."""
        r = self.runs["RADAR"]
        ok = np.isfinite(r.bound)
        return int(r.iteration[ok][0]) if ok.any() else math.nan


def family_data(T=T_DEFAULT, n_seeds=SEEDS_DEFAULT) -> FamilyData:
    """All of :data:`METHODS` (:func:`method_run`) on :func:`family_setup`'s sample."""
    return FamilyData(family_setup(), int(T), int(n_seeds), {name: method_run(name, T, n_seeds) for name in METHODS})


# ------------------------------------------------------------------------------------------------ the figure
@_style.book_figure
def family_figure(T=T_DEFAULT, n_seeds=SEEDS_DEFAULT, figsize=(7.5, 6.4)) -> Figure:
    """Six log-log panels, one per method (mirror descent on top, dual averaging below): the mean over seeds of the
    measure its guarantee bounds (solid, min-max band, in the method's colour) and the guarantee (dashed, same
    colour; RADAR's from the first T where its Theorem 1 applies).  RADAR is drawn in a darker shade of the red it
    shares with SMIDAS."""
    data = family_data(T, n_seeds)
    fig = Figure(figsize=figsize)
    axes = fig.subplots(2, 3)
    for ax, name in zip(axes.ravel(), METHODS):
        r = data.runs[name]
        color = _style.shade(name, 0.45) if name == "RADAR" else _style.algorithm_color(name)
        lo = np.maximum(r.values.min(axis=0), _FLOOR)
        hi = np.maximum(r.values.max(axis=0), _FLOOR)
        ax.fill_between(r.iteration, lo, hi, color=color, alpha=_style.BAND_ALPHA, lw=0)
        ax.plot(r.iteration, np.maximum(r.mean, _FLOOR), color=color, lw=_style.MEAN_LW, label=name)
        few = int(np.isfinite(r.bound).sum()) < 5                 # RADAR's theorem applies at the last few only
        ax.plot(r.iteration, r.bound, color=color, ls="--" if r.rigorous else "-.", lw=1.5, label=r.bound_label,
                marker="o" if few else None, ms=4)
        ax.set_xscale("log")
        ax.set_yscale("log")
        finite = r.bound[np.isfinite(r.bound)]
        top = max(float(finite.max()) if finite.size else 0.0, float(hi.max()))
        ax.set_ylim(float(lo.min()) / 3.0, top * 300.0)          # room for the legend at the top right
        ax.set_xlim(r.iteration[0], r.iteration[-1])
        ax.set_title(f"{name}: {r.measure}", fontsize=10)
        ax.legend(loc="upper right", fontsize=9, frameon=False, handlelength=2.2)
        ax.tick_params(labelsize=9)
    for ax in axes[1]:
        ax.set_xlabel("steps $t$", fontsize=10)
    fig.subplots_adjust(left=0.08, right=0.98, bottom=0.09, top=0.95, wspace=0.32, hspace=0.32)
    return fig
