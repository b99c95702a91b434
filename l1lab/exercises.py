r"""Checkers for the exercise notebooks in ``chapters/exercises/``.

Each ``check_*`` function takes the student's function (or value), compares it with l1lab's reference
implementation on fixed inputs and on random inputs from a fixed seed, prints one deterministic line per check
(``✔`` or ``✘``, no timings, no addresses) and a summary, returns None (so a notebook cell displays nothing
else), and raises :class:`ExerciseFailed` if any check failed.  So a notebook run with ``pytest --nbval`` passes when its stored outputs are the all-``✔`` lines of a
correct solution and fails when a function is unfilled (it raises ``NotImplementedError``) or wrong (the
checker raises).  ``make_student_notebook`` turns a solution notebook into the student's version.

The reference implementations are l1lab's own (:func:`l1lab.losses.soft_threshold`, :class:`l1lab.Problem`,
:func:`l1lab.links.link_inverse`, :func:`l1lab.projections.project_simplex` and ``project_l1_ball``, the theory
modules); the student's code is never compared with itself.
"""
from __future__ import annotations

import copy
import math
import re
from dataclasses import dataclass, field

import numpy as np

__all__ = ["ExerciseFailed", "Report", "check_choose_eta", "check_constant", "check_corollary1_bound", "check_grad_r_star", "check_data_accesses", "check_epoch_length",
           "check_lemma5_frontier", "check_lemma5_risk", "check_lambda_max", "check_link_inverse",
           "check_objective", "check_project_l1_ball", "check_project_simplex", "check_radar_update", "check_scd_bound",
           "check_scd_step", "check_smg_regret_bound", "check_smg_update", "check_soft_threshold",
           "execute_notebook", "main", "make_student_notebook", "student_source", "write_student_versions", "SOLUTION_BEGIN", "SOLUTION_END", "PLACEHOLDER"]

SOLUTION_BEGIN = "# BEGIN SOLUTION"
SOLUTION_END = "# END SOLUTION"
PLACEHOLDER = 'raise NotImplementedError("your code here")'
RTOL, ATOL = 1e-9, 1e-12


class ExerciseFailed(AssertionError):
    """A checker found a wrong answer (the message lists the failed checks)."""


def _fmt(x):
    """Short deterministic text for a value in a failure message."""
    if isinstance(x, (float, np.floating)):
        return f"{float(x):.6g}"
    if isinstance(x, np.ndarray):
        with np.printoptions(precision=6, threshold=8, edgeitems=3, suppress=False):
            return np.array2string(x, separator=", ")
    return repr(x)


@dataclass
class Report:
    """The outcome of one checker: (passed, line) per check."""

    name: str
    lines: list = field(default_factory=list)

    def ok(self, what):
        self.lines.append((True, f"✔ {self.name}: {what}"))

    def fail(self, what, why):
        self.lines.append((False, f"✘ {self.name}: {what} -- {why}"))

    @property
    def passed(self):
        return all(p for p, _ in self.lines)

    def finish(self):
        for _, line in self.lines:
            print(line)
        n_ok = sum(p for p, _ in self.lines)
        print(f"{self.name}: {n_ok}/{len(self.lines)} checks passed")
        if not self.passed:
            raise ExerciseFailed(f"{self.name}: " + "; ".join(line for p, line in self.lines if not p))


def _compare(report, what, expected, call):
    """Run ``call()`` and compare with ``expected`` (arrays or scalars) to RTOL/ATOL."""
    try:
        got = call()
    except NotImplementedError:
        raise
    except Exception as err:  # a student's bug: report it as a failed check, with its type and message
        report.fail(what, f"raised {type(err).__name__}: {err}")
        return
    try:
        got_arr = np.asarray(got, dtype=np.float64)
    except (TypeError, ValueError):
        report.fail(what, f"expected a number or an array, got {type(got).__name__}")
        return
    exp_arr = np.asarray(expected, dtype=np.float64)
    if got_arr.shape != exp_arr.shape:
        report.fail(what, f"expected shape {exp_arr.shape}, got {got_arr.shape}")
        return
    bad = ~np.isclose(got_arr, exp_arr, rtol=RTOL, atol=ATOL)
    if np.any(bad):
        k = int(np.flatnonzero(bad)[0])
        report.fail(what, f"expected {_fmt(exp_arr.ravel()[k])}, got {_fmt(got_arr.ravel()[k])}"
                    + (f" (entry {k})" if exp_arr.ndim else ""))
    else:
        report.ok(what)


# ---------------------------------------------------------------------------------------------- chapter 1
def check_soft_threshold(f):
    """``f(w, tau)`` = s_tau(w) = sign(w) max(|w| - tau, 0), elementwise on arrays."""
    from .losses import soft_threshold
    r = Report("soft_threshold")
    for w, tau in ((1.5, 0.5), (-1.5, 0.5), (0.3, 0.5), (-0.5, 0.5), (2.0, 0.0)):
        _compare(r, f"s_{tau}({w})", soft_threshold(w, tau), lambda w=w, tau=tau: f(w, tau))
    w = np.random.default_rng(0).normal(size=50)
    _compare(r, "50 random entries, tau = 0.7", soft_threshold(w, 0.7), lambda: f(w.copy(), 0.7))
    r.finish()


def _problems():
    from .datasets import make_classification, make_regression
    from .problem import Problem
    Xr, yr, _ = make_regression(40, 12, 3, noise=0.1, seed=1)
    Xc, yc, _ = make_classification(50, 10, 3, flip=0.1, seed=2)
    return {"squared": Problem(Xr, yr, "squared", 0.05), "logistic": Problem(Xc, yc, "logistic", 0.02)}


def check_objective(f):
    """``f(X, y, w, lam, loss)`` = P(w) = (1/m) sum_i L(<w, x_i>, y_i) + lam ||w||_1 for ``loss`` in
    {"squared", "logistic"}, with L(a, y) = (a - y)^2 / 2 or log(1 + exp(-y a))."""
    r = Report("objective")
    rng = np.random.default_rng(1)
    for loss, prob in _problems().items():
        for k, w in enumerate((np.zeros(prob.d), rng.normal(size=prob.d))):
            X = np.asarray(prob.X)
            _compare(r, f"{loss} loss, {'w = 0' if k == 0 else 'random w'}", prob.objective(w),
                     lambda X=X, prob=prob, w=w, loss=loss: f(X.copy(), prob.y.copy(), w.copy(), prob.lam, loss))
    r.finish()


def check_lambda_max(f):
    """``f(X, y, loss)`` = the smallest lam for which w = 0 is optimal, ||X^T L'(0, y)||_inf / m."""
    r = Report("lambda_max")
    for loss, prob in _problems().items():
        X = np.asarray(prob.X)
        _compare(r, f"{loss} loss", prob.lambda_max, lambda X=X, prob=prob, loss=loss: f(X.copy(), prob.y.copy(), loss))
    r.finish()


# ---------------------------------------------------------------------------------------------- chapter 2
def check_scd_step(f):
    """``f(X, y, w, j, lam, beta, loss)`` = the vector w after one step of Algorithm 1 on coordinate j:
    w_j <- s_{lam/beta}(w_j - g_j/beta) with g_j the j-th partial derivative of C(w) = (1/m) sum L; the other
    coordinates unchanged; the input w must not be modified."""
    from .losses import soft_threshold
    r = Report("scd_step")
    rng = np.random.default_rng(2)
    for loss, prob in _problems().items():
        beta = prob.loss.beta
        for j in (0, prob.d - 1):
            w = rng.normal(scale=0.3, size=prob.d)
            g = prob.gradient(w)
            expected = w.copy()
            expected[j] = float(soft_threshold(w[j] - g[j] / beta, prob.lam / beta))
            X = np.asarray(prob.X)
            w_in = w.copy()
            _compare(r, f"{loss} loss, coordinate {j}", expected,
                     lambda X=X, prob=prob, w_in=w_in, j=j, beta=beta, loss=loss:
                     f(X.copy(), prob.y.copy(), w_in, j, prob.lam, beta, loss))
            if not np.array_equal(w_in, w):
                r.fail(f"{loss} loss, coordinate {j}", "the input w was modified in place")
    r.finish()


def check_scd_bound(f):
    """``f(T, d, beta, w_star, P0)`` = Theorem 1's bound d Psi(0)/(T + 1), Psi(0) = beta/2 ||w*||^2 + P(0)."""
    from .theory import shalev_shwartz_tewari as sst
    r = Report("scd_bound")
    rng = np.random.default_rng(3)
    for T, d, beta, P0 in ((0, 10, 1.0, 0.5), (999, 50, 0.25, 0.6931), (10 ** 6, 2000, 1.0, 1.3)):
        w = rng.normal(size=4)
        _compare(r, f"T = {T}, d = {d}", sst.scd_expected_gap_bound(T, d, sst.scd_psi0(beta, w, P0)),
                 lambda T=T, d=d, beta=beta, w=w, P0=P0: f(T, d, beta, w.copy(), P0))
    r.finish()


# ---------------------------------------------------------------------------------------------- chapter 3
def check_link_inverse(f):
    """``f(theta, p)`` = eq. (12): sign(theta_j) |theta_j|^(p-1) / ||theta||_p^(p-2), the gradient of
    ||theta||_p^2 / 2 (p >= 2)."""
    from .links import link_inverse
    r = Report("link_inverse")
    rng = np.random.default_rng(4)
    for p in (2.0, 3.0, 2 * math.log(1000)):
        th = rng.normal(size=30)
        _compare(r, f"p = {p:.4g}, 30 random entries", link_inverse(th, p), lambda th=th, p=p: f(th.copy(), p))
    th = np.zeros(5)
    th[2] = -0.4
    _compare(r, "a single nonzero entry", link_inverse(th, 5.0), lambda: f(th.copy(), 5.0))
    r.finish()


def check_constant(name, value):
    """Check a derived constant.  ``name`` is one of: "rho_13_logistic" (|L'| <= rho for the logistic loss),
    "rho_14_squared" (L'^2 <= rho L for L = (a - y)^2 / 2), "beta_logistic" (sup L'' of the logistic loss),
    "kappa_smidas_d1000" (kappa = (p - 1) d^(2/p) at p = 2 ln d, d = 1000)."""
    from .losses import get_loss
    from .theory import shalev_shwartz_tewari as sst
    refs = {
        "rho_13_logistic": (get_loss("logistic").rho_lipschitz, "smallest rho with |L'(a, y)| <= rho"),
        "rho_14_squared": (2.0, "smallest rho with L'(a, y)^2 <= rho L(a, y) for L = (a - y)^2 / 2"),
        "beta_logistic": (get_loss("logistic").beta, "sup of L''(a, y)"),
        "kappa_smidas_d1000": (sst.smidas_kappa(2 * math.log(1000), 1000), "(p - 1) d^(2/p) at p = 2 ln d"),
    }
    if name not in refs:
        raise ValueError(f"unknown constant {name!r}; known: {sorted(refs)}")
    expected, what = refs[name]
    r = Report(name)
    _compare(r, what, expected, lambda: value)
    r.finish()


# ---------------------------------------------------------------------------------------------- chapter 4
def check_project_simplex(f):
    """``f(v, z)`` = the Euclidean projection of v onto {w >= 0, sum w = z} (Figure 1 of Duchi et al. 2008)."""
    from .projections import project_simplex
    r = Report("project_simplex")
    rng = np.random.default_rng(5)
    cases = [(np.array([0.5, 0.2, 0.1]), 1.0), (np.array([3.0, -1.0, 0.0]), 1.0), (np.array([0.2, 0.2]), 1.0),
             (rng.normal(size=100), 2.5), (rng.exponential(size=1000) * 0.001, 1.0)]
    for k, (v, z) in enumerate(cases):
        _compare(r, f"case {k + 1}: n = {v.size}, z = {z}", project_simplex(v, z, method="sort"),
                 lambda v=v, z=z: f(v.copy(), z))
    r.finish()


def check_project_l1_ball(f):
    """``f(v, z)`` = the Euclidean projection of v onto {||w||_1 <= z} (the reduction of Section 4 of Duchi
    et al. 2008: v itself if inside, else sign(v) times the simplex projection of |v|)."""
    from .projections import project_l1_ball
    r = Report("project_l1_ball")
    rng = np.random.default_rng(6)
    cases = [(np.array([0.1, -0.2]), 1.0), (np.array([2.0, -3.0, 0.5]), 1.0), (rng.normal(size=200), 5.0),
             (rng.normal(size=200), 500.0)]
    for k, (v, z) in enumerate(cases):
        _compare(r, f"case {k + 1}: n = {v.size}, z = {z}", project_l1_ball(v, z, method="sort"),
                 lambda v=v, z=z: f(v.copy(), z))
    r.finish()


# ---------------------------------------------------------------------------------------------- chapter 5
def check_smg_update(f):
    """``f(w, g, eta, F1)`` = update (3) of Kakade, Foster & Even-Dar: w_i (1 - eta g_i + eta Z),
    Z = <w, g>/F1 (w on the simplex of scale F1)."""
    r = Report("smg_update")
    rng = np.random.default_rng(7)
    for d, F1, eta in ((3, 1.0, 0.1), (50, 4.0, 0.05), (1000, 2.0, 0.125)):
        w = rng.dirichlet(np.ones(d)) * F1
        g = rng.uniform(-1, 1, d)
        expected = w * (1 - eta * g + eta * float(w @ g) / F1)
        _compare(r, f"d = {d}, F1 = {F1}, eta = {eta}", expected, lambda w=w, g=g, eta=eta, F1=F1:
                 f(w.copy(), g.copy(), eta, F1))
        try:
            s = float(np.sum(f(w.copy(), g.copy(), eta, F1)))
            if abs(s - F1) > 1e-9 * F1:
                r.fail(f"d = {d}: sum of the new weights", f"expected {_fmt(F1)}, got {_fmt(s)}")
            else:
                r.ok(f"d = {d}: the new weights still sum to F1")
        except NotImplementedError:
            raise
        except Exception as err:
            r.fail(f"d = {d}: sum of the new weights", f"raised {type(err).__name__}: {err}")
    r.finish()


def check_smg_regret_bound(f):
    """``f(T, d, F1, G_inf)`` = Theorem 2.3's noiseless regret bound 4 F1 G_inf sqrt(log d / T)."""
    from .theory import kakade_foster_evendar as kfe
    r = Report("smg_regret_bound")
    for T, d, F1, G in ((1000, 10, 1.0, 1.0), (10 ** 5, 2001, 4.0, 1.0), (500, 3, 2.5, 0.5)):
        _compare(r, f"T = {T}, d = {d}, F1 = {F1}, G_inf = {G}", kfe.smg_regret_bound(T, d, F1, G),
                 lambda T=T, d=d, F1=F1, G=G: f(T, d, F1, G))
    r.finish()


# ---------------------------------------------------------------------------------------------- lower bound
def check_lemma5_risk(f):
    """``f(w, B)`` = the risk of Lemma 5's construction, E[(<w, X> - Y)^2] = (1 - 1/B^2) ||w||_2^2 +
    (1 - sum(w)/B)^2 (X_j = Y with probability 1/2 + 1/(2B), independently given Y = +-1)."""
    from .lower_bound import population_risk
    r = Report("lemma5_risk")
    rng = np.random.default_rng(8)
    for B, d in ((2.0, 5), (3.0, 40), (2.5, 300)):
        for k, w in enumerate((np.zeros(d), rng.normal(scale=0.1, size=d), np.full(d, B / d))):
            _compare(r, f"B = {B}, d = {d}, w #{k + 1}", population_risk(w, B), lambda w=w, B=B: f(w.copy(), B))
    r.finish()


def check_lemma5_frontier(f):
    """``f(s, B, d)`` = the least excess risk of an s-sparse vector on Lemma 5's construction,
    k(d - s)/((s + k)(d + k)) with k = B^2 - 1."""
    from .theory import shalev_shwartz_tewari as sst
    r = Report("lemma5_frontier")
    for s_, B, d in ((0, 2.0, 300), (1, 2.0, 300), (25, 2.0, 300), (300, 2.0, 300), (10, 3.0, 800)):
        _compare(r, f"s = {s_}, B = {B}, d = {d}", sst.lemma5_frontier(s_, B, d), lambda s_=s_, B=B, d=d: f(s_, B, d))
    r.finish()


# ---------------------------------------------------------------------------------------------- experiments
def check_data_accesses(f):
    """``f(X, method, idx)`` = the data accesses (entries x_ij read) of the steps ``idx``: for "scd" the
    coordinates updated (a step reads the nonzeros of column j), for "smidas" the examples used (a step reads
    the nonzeros of row i) -- the x-axis of Shalev-Shwartz & Tewari's figures, as l1lab's traces count it."""
    import scipy.sparse as sp

    from .problem import Problem
    r = Report("data_accesses")
    rng = np.random.default_rng(9)
    X = sp.random(60, 40, density=0.1, random_state=3, format="csr")
    X.data = np.clip(X.data, -1, 1)
    dense = rng.uniform(-1, 1, size=(30, 20))
    for name, M in (("sparse 60 x 40", X), ("dense 30 x 20", dense)):
        prob = Problem(M, np.ones(M.shape[0]), "logistic", 0.1)
        for method in ("scd", "smidas"):
            n = prob.d if method == "scd" else prob.m
            idx = rng.integers(0, n, size=25)
            nnz = prob.column_nnz if method == "scd" else prob.row_nnz
            _compare(r, f"{method}, {name}", float(nnz[idx].sum()),
                     lambda M=M, method=method, idx=idx: f(M.copy(), method, idx.copy()))
    r.finish()


def check_choose_eta(f):
    """``f(etas, final_objectives)`` = (the step size with the smallest final objective -- the smaller step on
    a tie, inf or nan meaning diverged -- and whether it lies at an edge of the grid), as Section 4.2 chose it."""
    r = Report("choose_eta")
    cases = [([1e-3, 1e-2, 1e-1, 1.0], [0.5, 0.3, 0.2, 0.4], (1e-1, False)),
             ([1e-3, 1e-2, 1e-1], [0.5, 0.3, 0.2], (1e-1, True)),
             ([1e-3, 1e-2, 1e-1], [0.2, 0.2, np.inf], (1e-3, True)),
             ([5e-4, 1e-3, 5e-3, 1e-2], [0.9, 0.4, np.nan, 0.45], (1e-3, False))]
    for k, (etas, vals, (eta, edge)) in enumerate(cases):
        try:
            got = f(list(etas), list(vals))
            got_eta, got_edge = float(got[0]), bool(got[1])
        except NotImplementedError:
            raise
        except Exception as err:
            r.fail(f"case {k + 1}", f"raised {type(err).__name__}: {err}")
            continue
        if math.isclose(got_eta, eta) and got_edge == edge:
            r.ok(f"case {k + 1}: eta = {eta:g}, edge = {edge}")
        else:
            r.fail(f"case {k + 1}", f"expected ({eta:g}, {edge}), got ({got_eta:g}, {got_edge})")
    r.finish()


# ---------------------------------------------------------------------------------------------- RADAR
def check_radar_update(f):
    """``f(mu, center, R, alpha, p)`` = update (4) of Agarwal, Negahban & Wainwright (2012) with the prox-function
    (5), the argmin over ||theta - center||_p <= R of alpha <mu, theta> + ||theta - center||_p^2/(2 R^2 (p-1)), in
    the closed form (6) re-derived in the chapter: center - alpha R^2 (p-1)/(1 + xi) sign(mu)|mu|^(q-1)/
    ||mu||_q^(q-2) with 1 + xi = max(1, alpha R (p-1) ||mu||_q), q = p/(p-1); center itself when mu = 0."""
    from .solvers.dual_averaging import radar_update
    from .theory.agarwal2012 import prox_exponent
    r = Report("radar_update")
    rng = np.random.default_rng(10)
    for d, R, alpha in ((5, 1.0, 0.01), (50, 2.0, 0.05), (50, 0.5, 30.0), (2000, 5.657, 0.19), (2000, 1.0, 20.0)):
        p = prox_exponent(d)
        mu = rng.normal(size=d)
        y = rng.normal(size=d) * (rng.random(d) < 0.3)
        expected = radar_update(mu, y, R, alpha, p)
        dist = float(np.sum(np.abs(expected - y) ** p) ** (1 / p))
        where = "inside the ball" if dist < R * (1 - 1e-9) else "on its sphere"
        _compare(r, f"d = {d}, R = {R}, alpha = {alpha} ({where})", expected,
                 lambda mu=mu, y=y, R=R, alpha=alpha, p=p: f(mu.copy(), y.copy(), R, alpha, p))
    y = rng.normal(size=8)
    _compare(r, "mu = 0 (no step)", y, lambda: f(np.zeros(8), y.copy(), 1.0, 0.1, prox_exponent(8)))
    r.finish()


def check_epoch_length(f):
    """``f(R_i, i, d, s, gamma, G, sigma, omega, c1)`` = the length (9) of epoch i of RADAR,
    c1 [s^2/(gamma^2 R_i^2) ((G^2 + sigma^2) log d + omega_i^2 sigma^2) + log d] with omega_i^2 = omega^2 + 24 log i
    (natural logarithms)."""
    from .theory.agarwal2012 import epoch_length
    r = Report("epoch_length")
    cases = ((5.657, 1, 2000, 8, 1 / 3, 1.886, 12.71, 1.0, 1.0), (2.0, 4, 2000, 8, 1 / 3, 0.667, 4.955, 1.0, 256.0),
             (1.0, 10, 40000, 11, 0.1, 0.5, 2.0, 3.0, 0.01), (0.1, 2, 10, 1, 1.0, 0.0, 0.0, 0.0, 1.0))
    for args in cases:
        R, i, d = args[:3]
        _compare(r, f"R_i = {R}, i = {i}, d = {d}", epoch_length(*args), lambda args=args: f(*args))
    r.finish()


# ---------------------------------------------------------------------------------------------- PGS
def check_grad_r_star(f):
    """``f(theta, p, B)`` = Figure 2 of Zhu et al. (2009) on the ball S = {||w||_p <= B}: the gradient of the
    conjugate of r(w) = ||w||_p^2/(2(p-1)), i.e. w_j = ||theta||_q^(2-q) sgn(theta_j)|theta_j|^(q-1)/(q-1)
    (q = p/(p-1)), rescaled by B/||w||_p when ||w||_p > B (Corollary 2; not by the printed B/||w||_q)."""
    from .solvers.pgs import grad_r_star
    r = Report("grad_r_star")
    rng = np.random.default_rng(10)
    cases = [(np.array([0.3, -0.4]), 2.0, 10.0), (np.array([3.0, -4.0]), 2.0, 1.0),
             (rng.normal(size=20) * 0.05, 1.5, 1.0), (rng.normal(size=20) * 3, 1.5, 0.5),
             (rng.normal(size=50), 1.8, 0.2), (rng.normal(size=50) * 2, 1.2, 0.7)]
    for k, (th, p, B) in enumerate(cases):
        inside = np.sum(np.abs(grad_r_star(th, p)) ** p) ** (1 / p) <= B
        _compare(r, f"case {k + 1}: n = {th.size}, p = {p}, B = {B} ({'inside' if inside else 'outside'} the ball)",
                 grad_r_star(th, p, B), lambda th=th, p=p, B=B: f(th.copy(), p, B))
    r.finish()


def check_corollary1_bound(f):
    """``f(T, sigma, L)`` = Corollary 1 of Zhu et al. (2009) with its constant made explicit: the regret bound
    L^2 H_T/(2 sigma), H_T = 1 + 1/2 + ... + 1/T the harmonic number."""
    from .theory import zhu2009 as zhu
    r = Report("corollary1_bound")
    for T, sigma, L in ((1, 0.5, 2.0), (2, 1.0, 1.0), (10, 0.05, 2.41), (1000, 1e-3, 1.0), (10 ** 6, 1e-5, 0.8)):
        _compare(r, f"T = {T}, sigma = {sigma:g}, L = {L:g}", zhu.corollary1_regret_bound(T, sigma, L),
                 lambda T=T, sigma=sigma, L=L: f(T, sigma, L))
    r.finish()


# ---------------------------------------------------------------------------------------------- notebooks
_BLOCK = re.compile(r"^([ \t]*)" + re.escape(SOLUTION_BEGIN) + r"[^\n]*\n.*?^[ \t]*" + re.escape(SOLUTION_END)
                    + r"[^\n]*$", re.S | re.M)


def student_source(source: str) -> str:
    """Replace every ``# BEGIN SOLUTION`` ... ``# END SOLUTION`` block by the placeholder (same indentation)."""
    if source.count(SOLUTION_BEGIN) != source.count(SOLUTION_END):
        raise ValueError("unbalanced BEGIN/END SOLUTION markers in a cell")
    return _BLOCK.sub(lambda m: m.group(1) + PLACEHOLDER, source)


def make_student_notebook(solution):
    """The student's version of a solution notebook (an ``nbformat`` NotebookNode): solution blocks replaced by
    the placeholder, every output and execution count cleared, cells tagged ``solution-only`` removed."""
    nb = copy.deepcopy(solution)
    cells = []
    for cell in nb.cells:
        if "solution-only" in cell.get("metadata", {}).get("tags", []):
            continue
        if cell.cell_type == "code":
            cell.source = student_source(cell.source)
            cell.outputs = []
            cell.execution_count = None
        cells.append(cell)
    nb.cells = cells
    return nb


def write_student_versions(solution_dir, student_dir):
    """Write the student's version of every ``*.ipynb`` in ``solution_dir`` to ``student_dir`` (same names)."""
    import pathlib

    import nbformat
    src, dst = pathlib.Path(solution_dir), pathlib.Path(student_dir)
    dst.mkdir(parents=True, exist_ok=True)
    written = []
    for path in sorted(src.glob("*.ipynb")):
        nb = make_student_notebook(nbformat.read(path, as_version=4))
        nbformat.write(nb, dst / path.name)
        written.append(dst / path.name)
    return written


def execute_notebook(path, timeout=600):
    """Run every cell of the notebook at ``path`` (in its own folder) and store the outputs in place (needs
    nbclient, which Jupyter Book installs)."""
    import pathlib

    import nbformat
    from nbclient import NotebookClient
    path = pathlib.Path(path)
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=timeout, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    nbformat.write(nb, path)
    return path


def main(argv=None):
    """``python -m l1lab.exercises execute NOTEBOOK...`` runs solution notebooks and stores their outputs;
    ``python -m l1lab.exercises students SOLUTION_DIR STUDENT_DIR`` writes the student versions."""
    import argparse
    parser = argparse.ArgumentParser(prog="python -m l1lab.exercises", description=main.__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    ex = sub.add_parser("execute", help="run notebooks and store their outputs in place")
    ex.add_argument("notebooks", nargs="+")
    st = sub.add_parser("students", help="write the student version of every solution notebook")
    st.add_argument("solution_dir")
    st.add_argument("student_dir")
    args = parser.parse_args(argv)
    if args.command == "execute":
        for p in args.notebooks:
            print(f"executed {execute_notebook(p)}")
    else:
        for p in write_student_versions(args.solution_dir, args.student_dir):
            print(f"wrote {p}")


if __name__ == "__main__":
    main()
