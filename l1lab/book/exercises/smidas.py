"""Checkers of the exercise notebooks of the lectures on SMIDAS (``smidas``) and on SMIDAS against truncated
gradient (``smidas_truncgrad``).  Each compares the student's answer with l1lab's own implementation."""
from __future__ import annotations

import math

import numpy as np

from ._framework import Report, compare, small_problems

__all__ = ["check_link_inverse", "check_constant", "check_first_step", "check_smidas_run", "check_truncgrad_run",
           "check_bound_ratio", "check_best_k", "check_magic_prediction"]


def check_link_inverse(f):
    """``f(theta, p)`` = eq. (12): sign(theta_j) |theta_j|^(p-1) / ||theta||_p^(p-2), the gradient of
    ||theta||_p^2 / 2 (p >= 2)."""
    from ...links import link_inverse
    r = Report("link_inverse")
    rng = np.random.default_rng(4)
    for p in (2.0, 3.0, 2 * math.log(1000)):
        th = rng.normal(size=30)
        compare(r, f"p = {p:.4g}, 30 random entries", link_inverse(th, p), lambda th=th, p=p: f(th.copy(), p))
    th = np.zeros(5)
    th[2] = -0.4
    compare(r, "a single nonzero entry", link_inverse(th, 5.0), lambda: f(th.copy(), 5.0))
    r.finish()


def _kappa_argmin(d):
    L = math.log(d)
    return L + math.sqrt(L * L - 2 * L)


def check_constant(name, value):
    """Check a derived constant.  ``name`` is one of: "rho_13_logistic" (|L'| <= rho for the logistic loss),
    "rho_14_squared" (L'^2 <= rho L for L = (a - y)^2 / 2), "beta_logistic" (sup L'' of the logistic loss),
    "kappa_smidas_d1000" (kappa = (p - 1) d^(2/p) at p = 2 ln d, d = 1000), "p_best_d1000" (the p >= 2 that
    minimizes kappa for d = 1000)."""
    from ...losses import get_loss
    from ...theory import shalev_shwartz_tewari as sst
    refs = {
        "rho_13_logistic": (get_loss("logistic").rho_lipschitz, "smallest rho with |L'(a, y)| <= rho"),
        "rho_14_squared": (2.0, "smallest rho with L'(a, y)^2 <= rho L(a, y) for L = (a - y)^2 / 2"),
        "beta_logistic": (get_loss("logistic").beta, "sup of L''(a, y)"),
        "kappa_smidas_d1000": (sst.smidas_kappa(2 * math.log(1000), 1000), "(p - 1) d^(2/p) at p = 2 ln d"),
        "p_best_d1000": (_kappa_argmin(1000), "the p >= 2 that minimizes (p - 1) d^(2/p), d = 1000"),
    }
    if name not in refs:
        raise ValueError(f"unknown constant {name!r}; known: {sorted(refs)}")
    expected, what = refs[name]
    r = Report(name)
    if name == "p_best_d1000":   # a numerical minimizer is accurate to about 1e-6 only
        try:
            got = float(value)
        except (TypeError, ValueError):
            r.fail(what, f"expected a number, got {type(value).__name__}")
        else:
            if abs(got - expected) <= 1e-5 * expected:
                r.ok(what)
            else:
                r.fail(what, f"expected {expected:.6g}, got {got:.6g}")
        r.finish()
        return
    compare(r, what, expected, lambda: value)
    r.finish()


def check_first_step(f):
    """``f(x, y, lam)``: the boolean mask of the nonzero coordinates of w after the first SMIDAS step from
    theta = 0 on the example (x, y), logistic loss (any step size).  Compared with ``l1lab.solvers.smidas`` run
    for one step on a one-example problem, at two step sizes."""
    from ...problem import Problem
    from ...solvers import smidas
    r = Report("first_step")
    rng = np.random.default_rng(7)
    cases = [(rng.uniform(-1, 1, 40), 1.0, 0.05), (rng.uniform(-1, 1, 40), -1.0, 0.2),
             ((rng.random(60) < 0.2) * rng.choice([-1.0, 1.0], 60) * rng.uniform(0, 1, 60), 1.0, 0.1)]
    for k, (x, y, lam) in enumerate(cases):
        prob = Problem(x[None, :], np.array([y]), "logistic", lam)
        for eta in (0.01, 1.0):
            expected = (smidas(prob, n_iter=1, eta=eta, seed=0).w != 0).astype(float)
            compare(r, f"example {k + 1} (lam = {lam:g}), eta = {eta:g}", expected,
                    lambda x=x, y=y, lam=lam: np.asarray(f(x.copy(), y, lam), dtype=float))
    r.finish()


def _runs(f, solver, name, **extra):
    r = Report(name)
    for loss, prob in small_problems().items():
        X = prob.X.toarray() if hasattr(prob.X, "toarray") else np.asarray(prob.X)
        for seed, eta, T in ((0, 0.05, 300), (3, 0.2, 150)):
            expected = solver(prob, n_iter=T, eta=eta, seed=seed, **extra).w
            compare(r, f"{loss} loss, lam = {prob.lam:g}, eta = {eta:g}, T = {T}, seed = {seed}", expected,
                    lambda X=X, prob=prob, loss=loss, eta=eta, T=T, seed=seed:
                    f(X.copy(), prob.y.copy(), prob.lam, eta, T, seed, loss))
    r.finish()


def check_smidas_run(f):
    """``f(X, y, lam, eta, T, seed, loss)``: the last iterate of T iterations of SMIDAS (p = 2 ln d) with the
    examples ``np.random.default_rng(seed).integers(0, m, size=T)``, for ``loss`` "logistic" or "squared";
    compared with ``l1lab.solvers.smidas``."""
    from ...solvers import smidas
    _runs(f, smidas, "smidas_run")


def check_truncgrad_run(f):
    """``f(X, y, lam, eta, T, seed, loss)``: the last iterate of T steps of truncated gradient (SMIDAS-style),
    same stream and losses as :func:`check_smidas_run`; compared with ``l1lab.solvers.truncgrad``."""
    from ...solvers import truncgrad
    _runs(f, truncgrad, "truncgrad_run")


def check_bound_ratio(f):
    """``f(X, w_star)``: the runtime bound of truncated gradient divided by that of SMIDAS (the paper's (4)
    over (3), without their constants) for the examples X (rows) and the minimizer w_star."""
    from ...data.synthetic import add_random_features, make_classification
    from ...problem import Problem
    from ...theory import shalev_shwartz_tewari as sst
    r = Report("bound_ratio")
    rng = np.random.default_rng(11)
    for kind in ("sparse", "dense"):
        X0, y, _ = make_classification(200, 10, 5, seed=5)
        X = add_random_features(X0, 50, kind, seed=6)
        Xd = X.toarray() if hasattr(X, "toarray") else np.asarray(X)
        w = np.zeros(Xd.shape[1])
        w[:5] = rng.normal(size=5)
        prob = Problem(Xd, y, "logistic", 0.1)
        x2 = sst.mean_squared_row_norm(prob)
        expected = sst.truncgrad_runtime_bound(1e-2, prob.d, float(w @ w), x2) / \
            sst.smidas_runtime_bound(1e-2, prob.d, float(np.abs(w).sum()))
        compare(r, f"{kind} random features, d = {prob.d}", expected, lambda Xd=Xd, w=w: f(Xd.copy(), w.copy()))
    r.finish()


def check_best_k(f):
    """``f(p_star, alpha_gamma, T)``: the K > 0 that minimizes the excess K P* + (1+K)^2/K * alpha_gamma/T of
    Proposition 4's bound; compared with a fine numerical minimization of
    ``sst.smidas_prop4_bound``-style excess."""
    r = Report("best_k")
    for p_star, ag, T in ((0.04, 387.0, 30_000), (0.5, 10.0, 100), (1e-3, 50.0, 1e6)):
        c = ag / T
        Ks = np.exp(np.linspace(math.log(1e-6), math.log(1e3), 400_001))
        excess = Ks * p_star + (1 + Ks) ** 2 / Ks * c
        k = int(np.argmin(excess))
        lo, hi = Ks[max(k - 1, 0)], Ks[min(k + 1, Ks.size - 1)]
        try:
            got = float(f(p_star, ag, T))
        except NotImplementedError:
            raise
        except Exception as err:
            r.fail(f"P* = {p_star:g}, alpha gamma = {ag:g}, T = {T:g}", f"raised {type(err).__name__}: {err}")
            continue
        if lo <= got <= hi:
            r.ok(f"P* = {p_star:g}, alpha gamma = {ag:g}, T = {T:g}")
        else:
            r.fail(f"P* = {p_star:g}, alpha gamma = {ag:g}, T = {T:g}",
                   f"expected a K between {lo:.6g} and {hi:.6g}, got {got:.6g}")
    r.finish()


def check_magic_prediction(prediction):
    """``prediction``: "SMIDAS" or "TruncGrad", the method that ends lower, each at its step size tuned on
    ``ETA_GRID``, on the MAGIC04D-like data (dense examples) at lambda = 0.05 after T = 5,000 iterations (one
    seed), as the live demo of the lecture computes it."""
    from .. import smidas as demos
    r = Report("magic_prediction")
    if prediction not in ("SMIDAS", "TruncGrad"):
        r.fail("the prediction", f"expected 'SMIDAS' or 'TruncGrad', got {prediction!r}")
        r.finish()
    data = demos.magic_comparison_data("dense", lam=0.05, T=5_000, n_seeds=1)
    gaps = {n: float(data.runs[n].gap_summary(data.p_star).mean[-1]) for n in ("SMIDAS", "TruncGrad")}
    winner = min(gaps, key=gaps.get)
    what = (f"tuned final gaps: SMIDAS {gaps['SMIDAS']:.2e}, TruncGrad {gaps['TruncGrad']:.2e}; "
            f"the ratio of the runtime bounds is {data.bound_ratio:.1f}")
    if prediction == winner:
        r.ok(what)
    else:
        r.fail(what, f"{winner} ends lower, not {prediction}")
    r.finish()
