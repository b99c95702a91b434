import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from l1lab import Problem
from l1lab.data import make_classification
from l1lab.solvers.online import best_fixed_decision, sg_l2, smg
from l1lab.theory import kakade_foster_evendar as kfe


@pytest.fixture(scope="module")
def stream_problem():
    X, y, _ = make_classification(400, 30, 3, flip=0.05, seed=0)
    return Problem(X, y, "logistic", 0.0)


def naive_smg(prob, order, eta, F1):
    X = np.asarray(prob.X)
    w = np.full(prob.d, F1 / prob.d)
    for i in order:
        g = prob.loss.deriv(X[i] @ w, prob.y[i]) * X[i]
        w = w * (1 - eta * g + eta * (w @ g) / F1)
    return w


def test_smg_follows_update_3_and_stays_in_the_simplex(stream_problem):
    order = np.random.default_rng(1).integers(0, stream_problem.m, 300)
    res = smg(stream_problem, 0.05, 2.0, order=order, signed=False, dummy=False)
    np.testing.assert_allclose(res.w, naive_smg(stream_problem, order, 0.05, 2.0), rtol=1e-12)
    assert np.all(res.w >= 0) and abs(res.w.sum() - 2.0) <= 1e-12
    assert res.info["constraint"] == "simplex"


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2 ** 31), st.floats(0.01, 1.0), st.floats(0.1, 50.0))
def test_smg_feasible_under_lemma_5_3(seed, frac, F1):
    """Random gradients with ||g||_inf <= G: eta <= 1/(8G) keeps w >= 0 and sum w = F1."""
    rng = np.random.default_rng(seed)
    d, G = 20, 3.0
    w = np.full(d, F1 / d)
    eta = frac * kfe.smg_max_step(G)
    for _ in range(200):
        g = rng.uniform(-G, G, d)
        w = w * (1 - eta * g + eta * (w @ g) / F1)
        assert np.all(w > 0) and abs(w.sum() - F1) <= 1e-12 * F1 * 10
    # and Proposition 2.2: the step's inner product with the gradient is minus a variance
    g = rng.uniform(-G, G, d)
    assert kfe.prop22_inner_product(w, g, eta, F1) == pytest.approx(kfe.prop22_variance_form(w, g, eta, F1),
                                                                    rel=1e-9, abs=1e-15)
    assert kfe.prop22_inner_product(w, g, eta, F1) <= 0


def test_prop22_vanishes_at_a_corner():
    w = np.zeros(5)
    w[2] = 1.0
    assert kfe.prop22_variance_form(w, np.arange(5.0), 0.1, 1.0) == 0.0


def test_infeasible_step_raises(stream_problem):
    with pytest.raises(ValueError, match="negative.*Lemma 5.3"):
        smg(stream_problem, 50.0, 1.0, n_steps=50, signed=False, dummy=False)


def test_smg_regret_below_theorem_2_3_over_seeds(stream_problem):
    T, F1 = 400, 5.0
    d_eff = 2 * stream_problem.d + 1  # the +- split and the dummy coordinate
    eta = kfe.smg_eta(T, d_eff, 1.0)
    regrets = [smg(stream_problem, eta, F1, n_steps=T, seed=s).regret(stream_problem) for s in range(20)]
    bound = kfe.smg_regret_bound(T, d_eff, F1, 1.0)
    assert np.mean(regrets) <= bound
    assert max(regrets) <= kfe.smg_regret_bound(T, d_eff, F1, 1.0, delta=0.05)
    assert np.mean(regrets) > 0  # the comparator is the best in hindsight: regret is positive here


def test_sg_regret_below_theorem_2_1_over_seeds(stream_problem):
    T, F2 = 400, 3.0
    G2 = math.sqrt(stream_problem.d)  # |L'| <= 1 and |x_ij| <= 1
    eta = kfe.sg_eta(T, F2, G2)
    regrets = [sg_l2(stream_problem, eta, F2, n_steps=T, seed=s).regret(stream_problem) for s in range(20)]
    assert np.mean(regrets) <= kfe.sg_regret_bound(T, F2, G2)
    assert max(regrets) <= kfe.sg_regret_bound(T, F2, G2, delta=0.05)
    res = sg_l2(stream_problem, eta, F2, n_steps=T, seed=0)
    assert np.linalg.norm(res.w) <= F2 * (1 + 1e-12)


def test_exact_eg_and_best_fixed_decision(stream_problem):
    order = np.arange(stream_problem.m)
    res = smg(stream_problem, 0.05, 3.0, order=order, exact=True)
    assert np.abs(res.w).sum() <= 3.0 * (1 + 1e-12)
    w, val = best_fixed_decision(stream_problem, order, "l1_ball", 3.0)
    # the comparator is optimal: the penalized reference with lam s.t. ||w_lam||_1 = 3 cannot beat it
    assert np.abs(w).sum() <= 3.0 * (1 + 1e-9)
    assert val <= stream_problem.objective(res.w_avg) + 1e-12
    rng = np.random.default_rng(0)
    for _ in range(50):
        u = rng.standard_normal(stream_problem.d)
        u *= 3.0 / np.abs(u).sum()
        assert val <= stream_problem.objective(u) + 1e-9


def test_printed_smg_step_differs_for_F1_not_1():
    """Theorem 2.3 as printed, eta = sqrt(log d/T)/(2 F1 G), does not minimize Lemma 5.3's bound unless F1 = 1;
    eta = sqrt(log d/T)/(2 G) does, and reaches the stated 4 F1 G sqrt(log d/T)."""
    T, d, G = 10_000, 1000, 1.0
    for F1 in (0.5, 1.0, 4.0):
        eta = kfe.smg_eta(T, d, G, F1)
        assert kfe.lemma53_bound(eta, T, d, F1, G) == pytest.approx(kfe.smg_regret_bound(T, d, F1, G))
        printed = kfe.smg_eta(T, d, G, F1, as_printed=True)
        if F1 != 1.0:
            assert kfe.lemma53_bound(printed, T, d, F1, G) > 1.1 * kfe.smg_regret_bound(T, d, F1, G)
    assert kfe.smg_eta(16 * math.log(d) + 1, d, G) <= kfe.smg_max_step(G)
    with pytest.raises(ValueError, match="16 log d"):
        kfe.smg_regret_bound(10, d, 1.0, 1.0)
    with pytest.raises(ValueError, match="1/\\(8 G_inf\\)"):
        kfe.lemma53_bound(1.0, T, d, 1.0, 1.0)


def test_theorem_2_1_step_minimizes_lemma_5_2():
    T, F2, G2 = 500, 2.0, 7.0
    eta = kfe.sg_eta(T, F2, G2)
    assert kfe.lemma52_bound(eta, T, F2, G2) == pytest.approx(kfe.sg_regret_bound(T, F2, G2))
    for f in (0.5, 2.0):
        assert kfe.lemma52_bound(f * eta, T, F2, G2) > kfe.lemma52_bound(eta, T, F2, G2)
    assert kfe.lemma51_azuma_term(4 * F2 * G2, T, 0.1) == pytest.approx(
        kfe.sg_regret_bound(T, F2, G2, 0.1) - kfe.sg_regret_bound(T, F2, G2))


def test_input_errors(stream_problem):
    with pytest.raises(ValueError, match="lam=0"):
        smg(Problem(np.asarray(stream_problem.X), stream_problem.y, "logistic", 0.1), 0.1, 1.0, n_steps=5)
    with pytest.raises(ValueError, match="eta"):
        sg_l2(stream_problem, 0.0, 1.0, n_steps=5)
    with pytest.raises(ValueError, match="radius"):
        smg(stream_problem, 0.1, -1.0, n_steps=5)
    with pytest.raises(ValueError, match="order"):
        smg(stream_problem, 0.1, 1.0, order=[stream_problem.m])
    with pytest.raises(ValueError, match="delta"):
        kfe.smg_regret_bound(1000, 10, 1.0, 1.0, delta=1.5)
