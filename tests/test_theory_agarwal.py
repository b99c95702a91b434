"""Agarwal, Negahban & Wainwright (2012): the bounds and schedules of l1lab.theory.agarwal2012, checked against
hand computations and independent derivations."""
import inspect
import itertools
import math

import numpy as np
import pytest
from scipy.optimize import minimize, minimize_scalar

from l1lab.data import radar as rd
from l1lab.solvers import dual_averaging as da
from l1lab.theory import agarwal2012 as th
from l1lab.theory import registry

# one set of constants used by several tests (Example 2 at R = 3 with B = 1, eta^2 = 0.5)
D, S, GAM, R1 = 2000, 8, 1 / 3, 3.0
G, SIG = th.example2_G(R1, 1 / 3), th.example2_sigma(R1, 1 / 3, 1.0, math.sqrt(0.5))


def test_prox_exponent_makes_psi_l1_strongly_convex():
    for d in (3, 10, 2000, 40_000, 10 ** 6):
        p = th.prox_exponent(d)
        q = p / (p - 1)
        assert q == pytest.approx(2 * math.log(d))
        assert d ** (1 / q) == pytest.approx(math.sqrt(math.e))  # ||x||_1 <= sqrt(e) ||x||_p
        pr = th.prox_exponent(d, rounded=True)
        qr = pr / (pr - 1)
        assert qr == pytest.approx(math.ceil(2 * math.log(d))) and d ** (1 / qr) <= math.sqrt(math.e)
    x = np.random.default_rng(0).standard_normal(5000)
    p = th.prox_exponent(5000)
    assert np.abs(x).sum() <= math.sqrt(math.e) * np.sum(np.abs(x) ** p) ** (1 / p)
    with pytest.raises(ValueError, match="d must be"):
        th.prox_exponent(2)


def test_radii_halve_in_square():
    R = [th.epoch_radius(i, 4.0) for i in range(1, 6)]
    np.testing.assert_allclose(np.square(R[1:]) / np.square(R[:-1]), 0.5)
    assert R[0] == 4.0
    # after two epochs the radius is R_1/2, not the R_1/4 of the paper's footnote (R_3^2 = R_1^2/4)
    assert R[2] == 2.0
    with pytest.raises(ValueError):
        th.epoch_radius(0, 1.0)


def test_epoch_length_9_and_schedule_12_by_hand():
    L = math.log(D)
    for i in (1, 3):
        om2 = 4.0 + 24 * math.log(i)
        assert th.omega_sq(2.0, i) == pytest.approx(om2)
        A = (G ** 2 + SIG ** 2) * L + om2 * SIG ** 2
        T_i = th.epoch_length(R1, i, D, S, GAM, G, SIG, 2.0, 0.5)
        assert T_i == pytest.approx(0.5 * (S ** 2 * A / (GAM ** 2 * R1 ** 2) + L))
        lam = th.schedule_lambda(R1, T_i, i, D, S, GAM, G, SIG, 2.0)
        assert lam ** 2 == pytest.approx(R1 * GAM / (S * math.sqrt(T_i)) * math.sqrt(A))
    assert th.schedule_step(R1, 4, 0.1, D, G, SIG) == pytest.approx(
        5 * R1 * math.sqrt(L / ((G ** 2 + 0.01 + SIG ** 2) * 4)))
    assert th.schedule_step(R1, 4, 0.1, D, G, SIG, normalization="eq5") == pytest.approx(
        th.schedule_step(R1, 4, 0.1, D, G, SIG) / R1 ** 2)


def test_lambda_12_minimizes_the_epoch_tradeoff():
    """lambda_i^2 = gamma eps_i/s with eps_i = R_i sqrt(A_i/T_i) minimizes s^2 lambda^2/gamma^2 + eps_i^2/lambda^2;
    with T_i from (9) it is about gamma R_i/(s c1^(1/4)) (the log d term of (9) aside)."""
    for R, T, c1 in [(3.0, 500.0, 1.0), (0.2, 5e4, 100.0), (10.0, 20.0, 1e-3)]:
        A = (G ** 2 + SIG ** 2) * math.log(D) + SIG ** 2
        eps = R * math.sqrt(A / T)
        res = minimize_scalar(lambda lam: S ** 2 * lam ** 2 / GAM ** 2 + eps ** 2 / lam ** 2, bounds=(1e-8, 1e3),
                              method="bounded", options={"xatol": 1e-12})
        assert th.schedule_lambda(R, T, 1, D, S, GAM, G, SIG, 1.0) == pytest.approx(res.x, rel=1e-5)
        T9 = th.epoch_length(R, 1, D, S, GAM, G, SIG, 1.0, c1) - c1 * math.log(D)
        assert th.schedule_lambda(R, T9, 1, D, S, GAM, G, SIG, 1.0) == pytest.approx(GAM * R / (S * c1 ** 0.25))


def test_step_12_normalizations_give_the_same_iterate():
    """alpha(t) of (12) with psi_0 = ||.-y||_p^2/(2(p-1)) and alpha(t)/R^2 with (5) have the same argmin."""
    d = 6
    p = th.prox_exponent(d)
    rng = np.random.default_rng(1)
    for _ in range(4):
        mu, y, R = rng.standard_normal(d), rng.standard_normal(d), rng.uniform(0.5, 2)
        a0 = th.schedule_step(R, 3, 0.2, d, 1.0, 2.0)
        a5 = th.schedule_step(R, 3, 0.2, d, 1.0, 2.0, normalization="eq5")

        def f0(t):
            return a0 * mu @ t + np.sum(np.abs(t - y) ** p) ** (2 / p) / (2 * (p - 1))

        cons = {"type": "ineq", "fun": lambda t: R - np.sum(np.abs(t - y) ** p) ** (1 / p)}
        x = minimize(f0, y, method="SLSQP", constraints=[cons], options={"ftol": 1e-14, "maxiter": 500}).x
        np.testing.assert_allclose(da.radar_update(mu, y, R, a5, p), x, atol=1e-4)


def test_kappa_T_counts_the_epochs():
    T = 1e6
    L = math.log(D)
    A = (G ** 2 + SIG ** 2) * L + 4.0 * SIG ** 2
    kap = th.kappa_T(T, D, S, GAM, R1, G, SIG, 2.0)
    assert kap == pytest.approx(math.log2(GAM ** 2 * R1 ** 2 * T / (S ** 2 * A)) * L)
    # with (9)'s lengths T_i = T_1 2^(i-1) (c1 = 1, log d term dropped), kappa_T/log d epochs fill about T
    T1 = S ** 2 * A / (GAM ** 2 * R1 ** 2)
    assert T1 * 2 ** (kap / L) == pytest.approx(T)
    assert th.theorem2_epoch_length(T, D, kap) * kap / L == pytest.approx(T)


def test_theorem_1_by_hand_and_its_conditions():
    T, om = 1e7, 3.0
    L = math.log(D)
    kap = th.kappa_T(T, D, S, GAM, R1, G, SIG, om)
    expected = S / (GAM ** 2 * T) * ((G ** 2 + SIG ** 2) * L + SIG ** 2 * (om ** 2 + math.log(kap / L))) + 0.01
    assert th.theorem1_bound(T, D, S, GAM, R1, G, SIG, om, eps2=0.01) == pytest.approx(expected)
    assert th.theorem1_bound(T, D, S, GAM, R1, G, SIG, om, c0=7.0) == pytest.approx(7 * (expected - 0.01))
    assert th.theorem1_bound(2 * T, D, S, GAM, R1, G, SIG, om) < th.theorem1_bound(T, D, S, GAM, R1, G, SIG, om)
    with pytest.raises(ValueError, match="too small for one epoch"):
        th.theorem1_bound(10.0, D, S, GAM, R1, G, SIG, om)
    assert th.theorem1_probability(6.0) == pytest.approx(1 - 6 * math.exp(-3.0))
    assert th.theorem1_probability(1.0) == 0.0  # vacuous below omega = sqrt(12 log 6)
    assert th.theorem1_probability(math.sqrt(12 * math.log(6)) + 1e-9) > 0


def test_theorem_1_needs_T_at_least_2_kappa():
    # kappa_T grows like log T, so 2 kappa_T > T for T just above the first epoch when log d is large
    d, s, g, R, Gv, sg, om = 10 ** 8, 1, 1.0, 1.0, 0.1, 0.1, 0.0
    L = math.log(d)
    T = 20.0
    kap = th.kappa_T(T, d, s, g, R, Gv, sg, om)
    assert 0 < kap and T < 2 * kap, (kap, L)
    with pytest.raises(ValueError, match="2 kappa_T"):
        th.theorem1_bound(T, d, s, g, R, Gv, sg, om)


def test_corollary_1_sparse_is_theorem_1_with_omega_sq_delta_log_d():
    T, delta = 1e7, 2.0
    om = math.sqrt(delta * math.log(D))
    assert th.corollary1_sparse(T, D, S, GAM, R1, G, SIG, delta) == pytest.approx(
        th.theorem1_bound(T, D, S, GAM, R1, G, SIG, om))


def test_corollary_1_weak_sparsity_rederived_from_theorem_1():
    """For theta* on the boundary of B_q(R_q): Theorem 1 with S the ceil(R_q tau^-q) largest entries,
    tau^2 = (G^2 + sigma^2(1+delta)) log d/(gamma^2 T), is at most the corollary with c0 = 2 plus one extra
    coordinate's worth (the ceiling); and q -> 0 with R_q = s recovers the s-sparse case."""
    d, T, delta, g = 5000, 1e8, 1.0, 1 / 3
    L = math.log(d)
    Gv, sg = 0.5, 1.0
    for q in (0.3, 0.6, 1.0):
        theta = rd.weakly_sparse_theta(d, q, Rq=2.0, seed=1)
        Rq = th.lq_radius(theta, q)
        tau = math.sqrt((Gv ** 2 + sg ** 2 * (1 + delta)) * L / (g ** 2 * T))
        s = math.ceil(Rq * tau ** -q)
        assert np.sum(np.abs(theta) > tau) <= s
        om = math.sqrt(delta * L)
        thm1 = th.theorem1_bound(T, d, s, g, 10.0, Gv, sg, om, eps2=th.sparsity_error(theta, s))
        kap = th.kappa_T(T, d, s, g, 10.0, Gv, sg, om)
        one_more = ((Gv ** 2 + sg ** 2 * (1 + delta)) * L + sg ** 2 * math.log(kap / L)) / (g ** 2 * T)
        cor = th.corollary1_weak(T, d, q, Rq, s, g, 10.0, Gv, sg, delta)
        assert thm1 <= 2 * cor + one_more
    # rates: exponent (2 - q)/2 in T
    r = [th.corollary1_weak(T, d, q, 2.0, 8, g, 10.0, Gv, sg, delta) /
         th.corollary1_weak(10 * T, d, q, 2.0, 8, g, 10.0, Gv, sg, delta) for q in (0.5, 1.0)]
    assert r[0] == pytest.approx(10 ** 0.75, rel=0.02) and r[1] == pytest.approx(10 ** 0.5, rel=0.02)
    assert th.corollary1_weak(T, d, 1e-9, 8.0, 8, g, 10.0, Gv, sg, delta) == pytest.approx(
        th.corollary1_sparse(T, d, 8, g, 10.0, Gv, sg, delta), rel=1e-6)
    with pytest.raises(ValueError, match="q must be"):
        th.corollary1_weak(T, d, 0.0, 1.0, 8, g, 10.0, Gv, sg, delta)


def test_sparsity_error_10_best_set_is_the_largest_entries():
    theta = np.array([3.0, -0.5, 0.0, 1.0, -0.25])
    assert th.sparsity_error(theta, [0, 3]) == pytest.approx(0.75 ** 2 / 2)
    for s in range(1, 6):
        brute = min(th.sparsity_error(theta, list(c)) for c in itertools.combinations(range(5), s))
        assert th.sparsity_error(theta, s) == pytest.approx(brute)
    assert th.sparsity_error(theta, 4) == 0.0  # theta has 4 nonzeros
    assert th.lq_radius(theta, 0) == 4 and th.lq_radius(theta, 1) == pytest.approx(4.75)
    with pytest.raises(ValueError):
        th.sparsity_error(theta, 0)


def test_corollary_2_is_corollary_1_with_example_1_constants():
    T, d, s, smin, B, R, delta = 1e9, 1000, 5, 0.5, 1.0, 2.0, 1.0
    sig = th.example1_sigma(B)
    gamma = th.logistic_curvature(2 * B * R) * smin
    kap = th.kappa_T(T, d, s, gamma, R, th.example1_G(B), sig, math.sqrt(delta * math.log(d)))
    c2 = th.corollary2_bound(T, d, s, smin, B, R, sig, delta, kap)
    c1 = th.corollary1_sparse(T, d, s, gamma, R, th.example1_G(B), sig, delta)
    L = math.log(d)
    psi2 = th.logistic_curvature(2 * B * R) ** 2
    assert c2 == pytest.approx(s * L / T * B ** 2 * (1 + delta) / (smin ** 2 * psi2)
                               + s * sig ** 2 / (smin ** 2 * psi2 * T) * math.log(kap / L))
    assert c1 / 5 <= c2 <= c1  # B^2(1+delta) vs G^2 + sigma^2(1+delta) = B^2 + 4B^2(1+delta)
    assert th.corollary2_min_samples(d, 0.5, 2.0, c3=3.0) == pytest.approx(3 * L / 0.25 * 16)
    assert th.corollary2_probability(1e3, d, 0.5, 1.0, 20.0, c1=0.01) == pytest.approx(
        1 - 2 * math.exp(-0.01 * 1e3 * 0.25) - 6 * math.exp(-20.0 * L / 12))
    assert th.corollary2_probability(1, d, 0.5, 1.0, 0.1) == 0.0


def test_theorem_2_constant_epochs():
    T, om = 1e7, 3.0
    L = math.log(D)
    kap = th.kappa_T(T, D, S, GAM, R1, G, SIG, om)
    assert th.theorem2_bound(T, D, S, G, SIG, om, kap) == pytest.approx(
        S * ((G ** 2 + SIG ** 2) * L + (om ** 2 + math.log(kap / L)) * SIG ** 2) / T * kap / L)
    # O(log T / T): ten times more iterations divide the error by less than 10 (the log) but more than sqrt(10)
    ratio = th.theorem2_bound(T, D, S, G, SIG, om, kap) / th.theorem2_bound(
        10 * T, D, S, G, SIG, om, th.kappa_T(10 * T, D, S, GAM, R1, G, SIG, om))
    assert math.sqrt(10) < ratio < 10
    assert th.theorem2_probability(6.0) == pytest.approx(1 - 3 * math.exp(-3.0))
    with pytest.raises(ValueError, match="at least one epoch"):
        th.theorem2_bound(T, D, S, G, SIG, om, 0.5 * L)


def test_example_2_constants_satisfy_assumptions_1_to_3():
    """Least squares on x ~ Unif[-B, B]^d, y = <theta*, x> + w: Monte Carlo checks of G(R) = rho R (Assumption 1),
    gamma = sigma_min (Assumption 2, tight: a larger gamma fails) and sigma(R) (Assumption 3)."""
    d, B, eta, R = 40, 1.0, math.sqrt(0.5), 2.0
    stream = rd.UniformDesignStream(rd.sparse_theta(d, s=4, seed=0), B=B, noise_var=eta ** 2)
    rho = th.uniform_design_covariance(B)
    rng = np.random.default_rng(0)

    def ball_point():
        v = rng.standard_normal(d) * (rng.random(d) < 0.3)
        return stream.theta_star + v * rng.uniform(0, R) / max(np.abs(v).sum(), 1e-12)

    for _ in range(200):
        a, b = ball_point(), ball_point()
        La, Lb = stream.expected_loss(a), stream.expected_loss(b)
        assert th.assumption1_lipschitz_ratio(La, Lb, a, b) <= th.example2_G(R, rho) * (1 + 1e-12)
        gap = th.assumption2_lsc_gap(La, Lb, stream.gradient(a), a, b, th.example2_gamma(rho))
        assert gap >= -1e-12
        assert th.assumption2_lsc_gap(La, Lb, stream.gradient(a), a, b, 1.5 * rho) < 0
    theta = ball_point()
    X, y = stream(rng, 20_000)
    errors = (X @ theta - y)[:, None] * X - stream.gradient(theta)
    sigma = th.example2_sigma(R, rho, B, eta)
    assert th.assumption3_mgf(errors, sigma) <= math.e
    assert th.assumption3_mgf(errors, sigma / 8) > math.e  # the check can fail: sigma/8 is too small here


def test_example_1_constants_on_a_logistic_pool():
    """Logistic loss on an empirical distribution with ||x||_inf <= B: G <= B, sigma = 2B, and local strong
    convexity with gamma = psi(BR) sigma_min(Sigma) on the l1 ball of radius R."""
    rng = np.random.default_rng(2)
    n, d, B, R = 400, 5, 1.0, 1.5
    X = rng.uniform(-B, B, (n, d))
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    smin = float(np.linalg.eigvalsh(X.T @ X / n)[0])

    def loss(t):
        return float(np.mean(np.logaddexp(0, -y * (X @ t))))

    def grad(t):
        return -(X * (y / (1 + np.exp(y * (X @ t))))[:, None]).mean(axis=0)

    gamma = th.example1_gamma(B, R, smin)
    assert gamma == pytest.approx(th.logistic_curvature(B * R) * smin)
    for _ in range(300):
        a, b = (v * rng.uniform(0, R) / np.abs(v).sum() for v in rng.standard_normal((2, d)))
        assert th.assumption2_lsc_gap(loss(a), loss(b), grad(a), a, b, gamma) >= -1e-12
        assert th.assumption1_lipschitz_ratio(loss(a), loss(b), a, b) <= th.example1_G(B)
    theta = rng.standard_normal(d) * 0.3
    per = -(X * (y / (1 + np.exp(y * (X @ theta))))[:, None])
    assert np.max(np.abs(per - grad(theta))) <= th.example1_sigma(B)
    assert th.assumption3_mgf(per - grad(theta), th.example1_sigma(B)) <= math.e
    a = np.linspace(-5, 5, 11)
    np.testing.assert_allclose([th.logistic_curvature(v) for v in a], np.exp(a) / (1 + np.exp(a)) ** 2)


def test_section_4_and_3_1_formulas():
    assert th.rda_lambda(math.sqrt(0.5), 40_000, 20_000) == pytest.approx(
        4 * math.sqrt(0.5) * math.sqrt(math.log(40_000) / 20_000))
    assert th.sgd_rate(100.0, 0.5, 3.0, 4.0) == pytest.approx(25 / 25)
    assert th.uniform_design_covariance(3.0) == 3.0


def test_bad_inputs():
    with pytest.raises(ValueError, match="R_i"):
        th.epoch_length(0.0, 1, D, S, GAM, G, SIG, 1.0, 1.0)
    with pytest.raises(ValueError, match="c1"):
        th.epoch_length(1.0, 1, D, S, GAM, G, SIG, 1.0, -1.0)
    with pytest.raises(ValueError, match="epoch index"):
        th.omega_sq(1.0, 0)
    with pytest.raises(ValueError, match="normalization"):
        th.schedule_step(1.0, 1, 0.1, D, G, SIG, normalization="eq6")
    with pytest.raises(ValueError, match="coincide"):
        th.assumption1_lipschitz_ratio(1.0, 1.0, np.ones(3), np.ones(3))


def test_every_public_function_is_registered_with_its_source_first():
    funcs = {f for name, f in inspect.getmembers(th, inspect.isfunction)
             if not name.startswith("_") and f.__module__ == th.__name__}
    entries = registry.entries(source="Agarwal")
    assert funcs <= {e.function for e in entries}, sorted(f.__name__ for f in funcs - {e.function for e in entries})
    for e in entries:
        assert e.chapter in ("chapters/radar", "chapters/radar_epochs", "chapters/radar_theory",
                             "chapters/radar_theory_corollaries", "chapters/radar_const")
        first = inspect.getdoc(e.function).split(":")[0]
        assert first.endswith("Agarwal, Negahban & Wainwright (2012)") or \
            "of Agarwal, Negahban & Wainwright (2012)" in first, e.key
        assert e.number.split(" (")[0].split(",")[0] in first, (e.key, first)


def test_notation_names_sigma_the_sub_gaussian_parameter_and_eta_the_noise_level():
    """Assumption 3 makes sigma the sub-Gaussian parameter of the gradient error, E exp(||e||_inf^2/sigma^2) <= e;
    the noise level of the simulations is eta (Example 2: sigma^2 = 8 rho^2 R^2 + 4 B^4 R^2 + 10 B^2 eta^2, so
    sigma is not the noise level even when the design is fixed).  notation.md must say so."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "notation.md").read_text()
    rows = [line for line in text.splitlines() if line.startswith("|") and "RADAR" in line]
    sigma = [r for r in rows if r.split("|")[1].strip() == r"$\sigma$" or r.split("|")[2].strip() == r"$\sigma$"]
    assert sigma and all("sub-Gaussian" in r for r in sigma)
    for r in rows:
        for cell in r.split("|"):
            if "noise level" in cell and r"$\sigma$" in cell:
                assert r"noise level is $\eta$" in cell, cell


# ---- Section 3.1: the Example-1 form of Theorem 1, the single-step rate, the fixed lambda ---------------------

@pytest.mark.parametrize("T,omega,eps2", [(10 ** 7, 5.0, 0.0), (10 ** 9, 0.0, 0.3), (10 ** 15, 12.0, 1e-4)])
def test_example1_form_is_theorem1_with_G_B_sigma_2B_up_to_the_log_log_term(T, omega, eps2):
    """Theorem 1 with Example 1's G = B and sigma = 2B has the bracket s B^2/(gamma^2 T)(5 log d + 4 omega^2 +
    4 log(kappa_T/log d)): the simplified form is that with 1 log d + omega^2; kappa_T written out from (11)."""
    d, s, B, gamma, R = 2000, 8, 1.0, 0.1, 1.0
    L = math.log(d)
    kappa = math.log2(gamma ** 2 * R ** 2 * T / (s ** 2 * (5 * B ** 2 * L + omega ** 2 * 4 * B ** 2))) * L
    full = th.theorem1_bound(T, d, s, gamma, R, B, 2 * B, omega, eps2=eps2)
    simple = th.theorem1_example1_bound(T, d, s, B, gamma, omega, eps2=eps2)
    head = s * B ** 2 / (gamma ** 2 * T)
    assert full == pytest.approx(head * (5 * L + 4 * omega ** 2 + 4 * math.log(kappa / L)) + eps2, rel=1e-12)
    assert simple == pytest.approx(head * (L + omega ** 2) + eps2, rel=1e-12)
    ratio = th.theorem1_bound(T, d, s, gamma, R, B, 2 * B, omega) / th.theorem1_example1_bound(T, d, s, B, gamma, omega)
    assert 4 <= ratio <= (5 + 4 * math.log(kappa / L) / (L + omega ** 2)) * (1 + 1e-12)  # equal at omega = 0
    assert th.theorem1_example1_bound(T, d, s, B, gamma, omega, eps2=eps2, c=2.5) == pytest.approx(2.5 * simple)


def test_single_step_rate_is_a_gap_over_the_curvature_and_decays_like_one_over_root_T():
    d, R, gamma, G_, sig = 40_000, 3.0, 0.5, 1.0, 2.0
    r = [th.single_step_rate(T, d, R, gamma, G_, sig) for T in (10 ** 4, 4 * 10 ** 4, 16 * 10 ** 4)]
    assert r[0] / r[1] == pytest.approx(2.0, rel=1e-12) and r[1] / r[2] == pytest.approx(2.0, rel=1e-12)
    assert r[0] == pytest.approx(R * math.sqrt((G_ ** 2 + sig ** 2) * math.log(d) / 10 ** 4) / gamma, rel=1e-12)
    # the two printed forms: R = s ||theta*||_inf (Section 3.1) and R = sqrt(s) ||theta*||_2 (the abstract)
    s, T = 16, 10 ** 6
    theta = np.zeros(d)
    theta[:s] = 1.0
    unit = dict(T=T, d=d, gamma=1.0, G=1.0, sigma=0.0)
    assert th.single_step_rate(R=np.abs(theta).sum(), **unit) == pytest.approx(s * math.sqrt(math.log(d) / T))
    assert th.single_step_rate(R=np.abs(theta / math.sqrt(s)).sum(), **unit) == pytest.approx(
        math.sqrt(s * math.log(d) / T))
    # one step is slower than the multi-step target s (G^2 + sigma^2) log d/(gamma^2 T) once T is large
    target = s * (G_ ** 2 + sig ** 2) * math.log(d) / (gamma ** 2 * 10 ** 9)
    assert th.single_step_rate(10 ** 9, d, R, gamma, G_, sig) > target


def test_fixed_lambda_of_section_3_1_is_section_4_rda_lambda_with_sigma_4_eta():
    for eta, d, T in [(math.sqrt(0.5), 40_000, 20_000), (0.1, 3, 1), (2.0, 2000, 10 ** 8)]:
        assert th.fixed_lambda(4 * eta, d, T) == pytest.approx(th.rda_lambda(eta, d, T), rel=1e-14)
        assert th.fixed_lambda(1.0, d, 4 * T) == pytest.approx(th.fixed_lambda(1.0, d, T) / 2, rel=1e-14)
    assert th.fixed_lambda(0.0, 2000, 10) == 0.0
