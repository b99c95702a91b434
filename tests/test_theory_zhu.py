"""Zhu et al. (2009): Lemma 1, Corollaries 1-3, Theorems 1-3 against the Primal Gradient Solver and numerics."""
import inspect
import math
from fractions import Fraction

import numpy as np
import pytest
from scipy.optimize import minimize, minimize_scalar

from l1lab import Problem
from l1lab.data import make_classification, make_regression
from l1lab.solvers import lbfgs, pgs
from l1lab.solvers.pgs import pgs_objective, sample_batches
from l1lab.theory import registry
from l1lab.theory import zhu2009 as zhu


def pnorm(w, p):
    return float(np.sum(np.abs(w) ** p) ** (1.0 / p))


# ------------------------------------------------------------------------------------------ registry
def test_every_public_function_is_registered_with_its_source():
    funcs = {f for name, f in inspect.getmembers(zhu, inspect.isfunction)
             if not name.startswith("_") and f.__module__ == zhu.__name__}
    entries = registry.entries(source="Zhu et al. (2009)")
    assert funcs == {e.function for e in entries}
    for e in entries:
        assert e.chapter in ("chapters/pgs", "chapters/pgs_guarantee", "chapters/pgs_more_data",
                             "chapters/pgs_more_data_text")
        first = inspect.getdoc(e.function).split("\n")[0]
        result = " ".join(e.number.split()[:2]).rstrip(",")
        assert first.startswith(f"{result} of Zhu et al. (2009)"), (e.key, first)


# ------------------------------------------------------------------------------------------ Appendix: conjugates
def _argmax(theta, p, B, scale):
    """max_{||w||_p <= B} <w, theta> - scale ||w||_p^2 by a generic constrained optimizer."""
    def f(w):
        a = np.abs(w)
        s = np.sum(a ** p)
        if s == 0:
            return 0.0, -theta
        return scale * s ** (2 / p) - w @ theta, 2 * scale * s ** (2 / p - 1) * np.sign(w) * a ** (p - 1) - theta

    cons = {"type": "ineq", "fun": lambda w: B ** p - np.sum(np.abs(w) ** p),
            "jac": lambda w: -p * np.sign(w) * np.abs(w) ** (p - 1)}
    res = minimize(f, np.full(theta.size, 1e-3), jac=True, method="SLSQP", constraints=[cons],
                   options={"ftol": 1e-15, "maxiter": 1000})
    return res.x, -res.fun


@pytest.mark.parametrize("p", [2.0, 1.6, 1.3])
def test_theorem3_and_corollary2_are_the_conjugates_over_the_ball(p):
    """Eqs. (23)-(24) for f = ||w||^2/2 and (27)-(28) for r = ||w||^2/(2(p-1)) on S = {||w||_p <= B}: the value is
    the numerical max of <w, theta> - f(w) over S, the gradient is the argmax and the finite-difference gradient
    of the value; both branches (||theta|| below and above the radius) are exercised."""
    rng = np.random.default_rng(int(100 * p))
    B = 1.0
    for theta_scale in (0.2, 3.0):
        theta = rng.standard_normal(5) * theta_scale
        for scale, val, grad in [(0.5, zhu.theorem3_conjugate, zhu.theorem3_conjugate_gradient),
                                 (0.5 / (p - 1), zhu.corollary2_conjugate, zhu.corollary2_conjugate_gradient)]:
            w_num, v_num = _argmax(theta, p, B, scale)
            g = grad(theta, p, B)
            assert val(theta, p, B) == pytest.approx(v_num, rel=1e-7, abs=1e-10)
            assert np.max(np.abs(g - w_num)) <= 2e-5
            h = 1e-6
            fd = np.array([(val(theta + h * e, p, B) - val(theta - h * e, p, B)) / (2 * h) for e in np.eye(5)])
            np.testing.assert_allclose(g, fd, rtol=1e-6, atol=1e-8)
            assert pnorm(g, p) <= B * (1 + 1e-12)


@pytest.mark.parametrize("p", [2.0, 1.6, 1.3])
def test_corollary3_is_the_conjugate_on_Rn_and_the_limit_of_corollary2(p):
    rng = np.random.default_rng(7)
    theta = rng.standard_normal(6)
    g = zhu.corollary3_conjugate_gradient(theta, p)
    # the maximizer of <w, theta> - r(w) over R^n: the gradient of the concave objective vanishes at g
    grad_r = pnorm(g, p) ** (2 - p) * np.sign(g) * np.abs(g) ** (p - 1) / (p - 1)
    np.testing.assert_allclose(grad_r, theta, rtol=1e-12, atol=1e-14)
    assert theta @ g - zhu.regularizer(g, p) == pytest.approx(zhu.corollary3_conjugate(theta, p), rel=1e-12)
    # a large enough ball changes nothing (Figure 2: rescale only outside S), and ||g||_p = (p-1)||theta||_q
    q = p / (p - 1)
    assert pnorm(g, p) == pytest.approx((p - 1) * pnorm(theta, q), rel=1e-12)
    np.testing.assert_allclose(zhu.corollary2_conjugate_gradient(theta, p, 10.0), g, rtol=1e-13)
    assert zhu.corollary2_conjugate(theta, p, 10.0) == pytest.approx(zhu.corollary3_conjugate(theta, p), rel=1e-13)


# ------------------------------------------------------------------------------------------ Lemma 1, Corollary 1
@pytest.mark.parametrize("loss,p,sigma,B,k", [("logistic", 2.0, 0.1, None, 1), ("hinge", 2.0, 1.0, None, 1),
                                              ("logistic", 1.5, 0.1, None, 3), ("hinge", 1.3, 0.05, 1.0, 2),
                                              ("squared", 2.0, 0.1, 0.5, 1)])
def test_lemma1_and_corollary1_bound_the_regret_of_figure_1(loss, p, sigma, B, k):
    """Regret of the points played, sum_t c_t(w_{t-1}) - min_S sum_t c_t, against Lemma 1 (with the solver's
    ||lambda_t||_q) and Corollary 1 (with ||lambda_t||_q <= L, Proposition 1 and Section IV's L)."""
    gen = make_regression if loss == "squared" else make_classification
    X, y, _ = gen(60, 8, 3, seed=1)
    prob = Problem(X, y, loss, 0.0)
    T = 200
    batches = sample_batches(prob.m, k, T, seed=4)
    ws = []
    pgs(prob, T, sigma, p=p, k=k, B=B, batches=batches, output="last", n_checkpoints=2000, record_objective=False,
        monitor=lambda w: ws.append(w) or 0.0)
    assert len(ws) == T + 1  # w_0, ..., w_T
    Xd = np.asarray(prob.X)
    q = p / (p - 1)
    lam_norms = np.array([pnorm(np.mean([prob.loss.deriv(Xd[i] @ ws[t], prob.y[i]) * Xd[i] for i in batches[t]],
                                        axis=0), q) for t in range(T)])
    L = zhu.loss_lipschitz_constant(Xd, loss, p, B=B, y=prob.y)
    assert np.all(lam_norms <= L * (1 + 1e-12))  # Proposition 1
    lemma1 = zhu.lemma1_regret_bound(lam_norms, sigma, cumulative=True)
    for Tp in (1, 5, 30, 200):
        rows = batches[:Tp].ravel()
        best = Tp * lbfgs(Problem(Xd[rows], prob.y[rows], loss, 0.0), sigma, p=p, B=B, tol=1e-12).objective
        played = sum(pgs_objective(Problem(Xd[batches[t]], prob.y[batches[t]], loss, 0.0), ws[t], sigma, p)
                     for t in range(Tp))
        regret = played - best
        assert 0 < regret <= lemma1[Tp - 1] * (1 + 1e-9)  # equality is possible at T = 1 (hinge, linear part)
        assert lemma1[Tp - 1] <= zhu.corollary1_regret_bound(Tp, sigma, L) * (1 + 1e-12)


def test_corollary1_constant_and_the_printed_log_T():
    L, sigma = 2.0, 0.5
    for T in (1, 2, 3, 10, 1000):
        v = zhu.corollary1_regret_bound(T, sigma, L)
        assert v == pytest.approx(L ** 2 * sum(1 / t for t in range(1, T + 1)) / (2 * sigma), rel=1e-12)
        assert v <= L ** 2 * (1 + math.log(T)) / (2 * sigma) * (1 + 1e-12)
        # the printed C log T / sigma with C = L^2 holds from T = 3 on, and no C works at T = 1 (log 1 = 0)
        assert (v <= L ** 2 * math.log(T) / sigma) == (T >= 3)
    assert zhu.harmonic_number(np.array([1, 2, 4])) == pytest.approx([1.0, 1.5, 25 / 12])


# ------------------------------------------------------------------------------------------ Theorem 1
@pytest.mark.parametrize("loss,p,sigma,B", [("logistic", 2.0, 0.05, None), ("logistic", 1.5, 0.05, None),
                                            ("hinge", 2.0, 0.1, None), ("squared", 2.0, 0.1, "radius")])
def test_theorem1_bound_holds_in_expectation_over_seeds(loss, p, sigma, B):
    """E[F(w_i)] - F(w_hat) <= L^2 H_T/(2 sigma T) (eq. (17) with Corollary 1's constant) for the random output,
    estimated by the mean over 20 seeds at every checkpoint; and Markov's 1 - delta statement (11) per seed."""
    gen = make_regression if loss == "squared" else make_classification
    X, y, _ = gen(200, 10, 4, seed=3)
    prob = Problem(X, y, loss, 0.0)
    if B == "radius":
        B = zhu.least_squares_radius(prob.smooth(np.zeros(prob.d)), sigma, p)
    f_star = lbfgs(prob, sigma, p=p, B=B).objective
    L = zhu.loss_lipschitz_constant(prob.X, loss, p, B=B, y=prob.y)
    runs = [pgs(prob, 3000, sigma, p=p, B=B, seed=s, output="random", n_checkpoints=30) for s in range(20)]
    it = runs[0].trace.iteration[1:]
    gaps = np.array([r.trace.objective[1:] for r in runs]) - f_star
    assert np.all(gaps >= -1e-9)
    bound = zhu.theorem1_expected_gap_bound(it, sigma, L)
    assert np.all(gaps.mean(axis=0) <= bound)
    delta = 0.1
    assert np.all((gaps > zhu.theorem1_gap_bound(it, sigma, L, delta)).sum(axis=0) <= delta * 20)


def test_theorem1_iterations_is_the_smallest_T():
    for eps, sigma, L, delta in [(0.01, 0.1, 1.0, None), (1e-3, 1e-2, 2.0, 0.1), (0.5, 1.0, 1.0, 0.5)]:
        T = zhu.theorem1_iterations(eps, sigma, L, delta)
        b = (lambda T: zhu.theorem1_expected_gap_bound(T, sigma, L)) if delta is None else \
            (lambda T: zhu.theorem1_gap_bound(T, sigma, L, delta))
        assert b(T) <= eps and (T == 1 or b(T - 1) > eps)


# ------------------------------------------------------------------------------------------ Theorem 2
def test_theorem2_sigma_minimizes_the_decomposition_and_the_printed_21_is_half():
    args = dict(T=5000, m=20000, delta=0.1, w0_norm_p=3.0, p=1.8, c_opt=2.0, c_est=0.5)
    s = zhu.theorem2_sigma(**args)
    num = minimize_scalar(lambda ls: zhu.theorem2_error_bound(sigma=math.exp(ls), **args), bounds=(-20, 5),
                          method="bounded", options={"xatol": 1e-12})
    assert math.exp(num.x) == pytest.approx(s, rel=1e-5)
    eps = zhu.theorem2_error_bound(sigma=s, **args)
    assert eps == pytest.approx(zhu.theorem2_error_at_sigma(**args), rel=1e-12)
    assert eps == pytest.approx(2 * zhu.theorem2_error_at_sigma(**args, as_printed=True), rel=1e-12)
    # (12) inverts (21): at T = theorem2_iterations(eps), the error at the optimal sigma is eps
    rest = {k: v for k, v in args.items() if k != "T"}
    T = zhu.theorem2_iterations(eps, **rest)
    assert T == pytest.approx(args["T"], rel=1e-10)
    assert zhu.theorem2_iterations(eps, **rest, as_printed=True) < T


def test_theorem2_registry_statement_is_what_the_function_computes():
    """The theorem index shows the registry's statement: it must be the corrected (12) that the function
    evaluates, eps^2 (p-1)/(2 ||w_0||^2), not the printed 2 eps^2 (p-1)/||w_0||^2 (four times larger)."""
    entry = next(e for e in registry.REGISTRY if e.key == "zhu.theorem2")
    assert "eps^2 (p-1)/(2 ||w_0||_p^2)" in entry.statement and "corrected" in entry.statement
    assert "printed" in entry.note
    # eps = 0.4, m = 1000, delta = 0.1, ||w_0|| = 1, p = 2: (1/0.1)/(0.16/2 - 1/1000) against (1/0.1)/(0.32 - 1/1000)
    assert zhu.theorem2_iterations(0.4, 1000, 0.1, 1.0, 2.0) == pytest.approx(10 / 0.079, rel=1e-12)
    assert zhu.theorem2_iterations(0.4, 1000, 0.1, 1.0, 2.0, as_printed=True) == pytest.approx(10 / 0.319, rel=1e-12)


def test_theorem2_optimization_term_is_twice_theorem1_with_c_opt_L2_HT():
    """Theorem 1 (11) bounds the empirical gap by L^2 H_T/(2 sigma T delta) (w.p. 1 - delta); the oracle inequality
    F(w) - F(w*) <= 2(F^(w) - F^(w^)) + c_est/(sigma m) (w.p. 1 - delta over the sample) doubles it, so the constant
    that makes (20)'s optimization term exact is c_opt = L^2 H_T (not L^2 H_T/2), and the union bound leaves
    probability 1 - 2 delta.  Computed here from the formulas (H_T as an exact sum); the docstring must say so."""
    T, m, sigma, L, delta, c_est = 400, 5000, 0.3, 1.7, 0.1, 0.5
    H_T = float(sum(Fraction(1, t) for t in range(1, T + 1)))
    thm1 = L ** 2 * H_T / (2 * sigma * T * delta)                           # eq. (11), Corollary 1's constant
    assert zhu.theorem1_gap_bound(T, sigma, L, delta) == pytest.approx(thm1, rel=1e-12)
    # ||w_0|| = 0 removes the regularization term: what is left is the optimization and the estimation terms
    bound = zhu.theorem2_error_bound(T, m, delta, sigma, 0.0, 2.0, c_opt=L ** 2 * H_T, c_est=c_est)
    assert bound == pytest.approx(2 * thm1 + c_est / (sigma * m), rel=1e-12)
    doc = " ".join(zhu.theorem2_error_bound.__doc__.split())
    assert "c_{opt} = L^2 H_T`" in doc and "1 - 2\\delta" in doc      # not L^2 H_T/2, not 1 - delta


def test_theorem2_iterations_fall_with_m():
    kw = dict(delta=0.1, w0_norm_p=2.0, p=2.0)
    ms = [2e3, 1e4, 1e5, 1e6]
    Ts = [zhu.theorem2_iterations(0.05, m, **kw) for m in ms]
    assert all(a > b for a, b in zip(Ts, Ts[1:]))
    # below the smallest m for which eps is reachable, no T suffices
    m_min = 2 * kw["w0_norm_p"] ** 2 / (0.05 ** 2 * (kw["p"] - 1))
    assert zhu.theorem2_iterations(0.05, 0.99 * m_min, **kw) == math.inf
    assert math.isfinite(zhu.theorem2_iterations(0.05, 1.01 * m_min, **kw))
    # at the smallest m the denominator is zero: its sign is that of the arguments as given, not of a rounding
    # (eps = 0.14, p = 1.25, ||w_0|| = 4.9, m = 9800: the floating-point denominator is -1.4e-20 while the exact
    # value of the same floats is +4.6e-21, so a finite T, computed here from fractions independently)
    exact = Fraction(1, 2) * Fraction(0.14) ** 2 * Fraction(1, 4) / Fraction(4.9) ** 2 - Fraction(1, 9800)
    assert 0.5 * 0.14 ** 2 * 0.25 / 4.9 ** 2 - 1 / 9800 < 0 < exact
    assert zhu.theorem2_iterations(0.14, 9800, 0.1, 4.9, 1.25) == pytest.approx(float(1 / (Fraction(0.1) * exact)),
                                                                               rel=1e-15)
    assert zhu.theorem2_iterations(0.14, 9799, 0.1, 4.9, 1.25) == math.inf
    # p < 2 costs dk + n per iteration, p = 2 only dk
    r2 = zhu.theorem2_runtime(0.05, 1e5, d=76, n=47236, **kw)
    assert r2 == pytest.approx(76 * zhu.theorem2_iterations(0.05, 1e5, **kw))
    r18 = zhu.theorem2_runtime(0.05, 1e5, 0.1, 2.0, 1.8, d=76, n=47236, k=300)
    assert r18 == pytest.approx((76 * 300 + 47236) * zhu.theorem2_iterations(0.05, 1e5, 0.1, 2.0, 1.8))


# ------------------------------------------------------------------------------------------ Section IV
def test_least_squares_radius_contains_the_optimum_and_the_printed_bound_does_not():
    X, y, _ = make_regression(200, 10, 4, seed=5)
    prob = Problem(X, y, "squared", 0.0)
    c0 = prob.smooth(np.zeros(prob.d))
    for p in (2.0, 1.5):
        for sigma in (1.0, 0.1, 0.01):
            B = zhu.least_squares_radius(c0, sigma, p)
            w_hat = lbfgs(prob, sigma, p=p, B=100 * B).w
            assert pnorm(w_hat, p) <= B
            assert zhu.regularizer(w_hat, p) <= c0 / sigma
    # Section IV prints r(w*) <= F(0): wrong without the 1/sigma once sigma is small
    w_hat = lbfgs(prob, 0.01, p=2.0, B=100).w
    assert zhu.regularizer(w_hat, 2.0) > c0


def test_lipschitz_constant_bounds_the_loss_differences():
    rng = np.random.default_rng(2)
    Xc, yc, _ = make_classification(80, 12, 3, density=0.3, seed=6)
    Xr, yr, _ = make_regression(80, 12, 3, seed=6)
    for X, y, loss, B in [(Xc, yc, "logistic", None), (Xc, yc, "hinge", None), (Xr, yr, "squared", 0.7)]:
        Xd = X.toarray() if hasattr(X, "toarray") else X
        lossf = Problem(Xd, y, loss, 0.0).loss
        for p in (2.0, 1.4):
            L = zhu.loss_lipschitz_constant(X, loss, p, B=B, y=y)
            assert L == pytest.approx(zhu.loss_lipschitz_constant(Xd, loss, p, B=B, y=y), rel=1e-12)
            worst = 0.0
            for _ in range(300):
                w1, w2 = rng.standard_normal((2, 12))
                if B is not None:
                    w1, w2 = w1 * B / pnorm(w1, p) * rng.random(), w2 * B / pnorm(w2, p) * rng.random()
                i = rng.integers(80)
                diff = abs(lossf.value(Xd[i] @ w1, y[i]) - lossf.value(Xd[i] @ w2, y[i]))
                worst = max(worst, float(diff) / pnorm(w1 - w2, p))
            assert worst <= L
    with pytest.raises(ValueError, match="not Lipschitz"):
        zhu.loss_lipschitz_constant(Xr, "squared", 2.0)


def test_input_errors():
    with pytest.raises(ValueError, match="p must lie"):
        zhu.corollary3_conjugate(np.ones(3), 1.0)
    with pytest.raises(ValueError, match="p must lie"):
        zhu.regularizer(np.ones(3), 2.5)
    with pytest.raises(ValueError, match="sigma"):
        zhu.theorem1_expected_gap_bound(10, 0.0, 1.0)
    with pytest.raises(ValueError, match="T must be"):
        zhu.theorem1_expected_gap_bound(0, 0.1, 1.0)
    with pytest.raises(ValueError, match="delta"):
        zhu.theorem1_gap_bound(10, 0.1, 1.0, 1.0)
    with pytest.raises(ValueError, match="B must"):
        zhu.corollary2_conjugate_gradient(np.ones(3), 1.5, -1.0)
    with pytest.raises(ValueError, match="lambda_norms_q"):
        zhu.lemma1_regret_bound([], 0.1)


def test_section_vii_regularizers_as_printed_are_not_strongly_convex():
    """Section VII's regularizer with a bias, (||w||_p^p + b^p)^(1/p)/(2(p-1)), is a norm: along a ray the
    midpoint inequality of strong convexity fails; its square (the book's r of (w, b)) keeps it.  And |x| log|x|
    is not convex: -1/e at +-1/e, 0 at the midpoint."""
    p = 1.8
    sigma = 1.0                                 # r = ||.||_p^2/(2(p-1)) is 1-strongly convex w.r.t. ||.||_p

    def printed(v):
        return np.sum(np.abs(v) ** p) ** (1 / p) / (2 * (p - 1))

    def squared(v):
        return np.sum(np.abs(v) ** p) ** (2 / p) / (2 * (p - 1))

    a, b = np.array([1.0, 2.0, 0.5]), np.array([3.0, 6.0, 1.5])        # (w, b) and 3 (w, b): one ray
    gap = lambda f: (f(a) + f(b)) / 2 - f((a + b) / 2)                  # noqa: E731
    needed = sigma / 8 * np.sum(np.abs(a - b) ** p) ** (2 / p)
    assert gap(printed) == pytest.approx(0.0, abs=1e-12) and gap(printed) < needed
    assert gap(squared) >= needed * (1 - 1e-12)
    ent = lambda x: abs(x) * math.log(abs(x)) if x else 0.0             # noqa: E731
    assert ent(0.0) > (ent(1 / math.e) + ent(-1 / math.e)) / 2


@pytest.mark.parametrize("p", [1.5, 1.8, 2.0])
def test_proposition1_the_subgradients_of_the_logistic_loss_are_bounded_in_the_dual_norm(p):
    """Mini-batch sub-gradients of the logistic loss at random points: their q-norm (computed here with numpy) is
    what proposition1_dual_norm returns, and at most L = max_i ||x_i||_q."""
    rng = np.random.default_rng(4)
    X, y, _ = make_classification(60, 9, 3, density=0.5, seed=11)
    X = np.asarray(X.todense()) if hasattr(X, "todense") else np.asarray(X)
    q = p / (p - 1)
    L = np.max(np.sum(np.abs(X) ** q, axis=1) ** (1 / q))
    assert zhu.loss_lipschitz_constant(X, "logistic", p) == pytest.approx(L, rel=1e-12)
    for _ in range(20):
        w = rng.normal(size=X.shape[1]) * 3
        batch = rng.choice(X.shape[0], size=5, replace=False)
        margins = y[batch] * (X[batch] @ w)
        lam = (-(y[batch] / (1 + np.exp(margins)))[:, None] * X[batch]).mean(axis=0)
        dual = np.sum(np.abs(lam) ** q) ** (1 / q)
        assert zhu.proposition1_dual_norm(lam, p) == pytest.approx(dual, rel=1e-12)
        assert dual <= L * (1 + 1e-12)


@pytest.mark.parametrize("p,B", [(1.5, 0.5), (1.5, 5.0), (2.0, 0.5), (1.8, 2.0)])
def test_lemma2_the_argmax_is_the_gradient_of_the_conjugate(p, B):
    """Lemma 2 on the book's case: the numerical argmax of <w, theta> - ||w||_p^2/2 over the ball equals Theorem
    3's closed form and a central finite difference of the conjugate (23)."""
    theta = np.array([0.3, -1.2, 0.7, 0.05])
    argmax = zhu.lemma2_conjugate_gradient(theta, p, B)
    np.testing.assert_allclose(argmax, zhu.theorem3_conjugate_gradient(theta, p, B), atol=1e-6)
    h = 1e-6
    fd = np.array([(zhu.theorem3_conjugate(theta + h * e, p, B) - zhu.theorem3_conjugate(theta - h * e, p, B)) / (2 * h)
                   for e in np.eye(theta.size)])
    np.testing.assert_allclose(argmax, fd, atol=1e-6)
