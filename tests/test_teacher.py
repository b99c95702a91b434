"""l1lab.data.teacher: the counter-based stream of the sparse logistic teacher, the streamed SMG and SG (equal to the
general solvers on the materialized stream), and the excess risk with its certified error bound."""
import math

import numpy as np
import pytest
from scipy import integrate

from l1lab.data import teacher as T
from l1lab.solvers.online import sg_l2, smg
from l1lab.solvers.streamed import sg_l2_stream, smg_stream, smg_stream_snapshots
from l1lab.theory import kakade_foster_evendar as kfe


# ---------------------------------------------------------------------------------------------- the stream
def test_stream_is_a_pure_function_of_seed_d_t():
    a = T.teacher_problem(200, 70, p=3, beta=1.5, seed=11)
    b = T.teacher_problem(200, 70, p=3, beta=1.5, seed=11)
    np.testing.assert_array_equal(a.X.toarray(), b.X.toarray())
    # prefix property, labels alone, streams for other p / beta share their examples
    short = T.teacher_problem(50, 70, p=3, beta=1.5, seed=11)
    np.testing.assert_array_equal(short.X.toarray(), a.X.toarray()[:50])
    np.testing.assert_array_equal(short.y, a.y[:50])
    np.testing.assert_array_equal(T.stream_labels(200, 70, 3, 1.5, seed=11), a.y)
    np.testing.assert_array_equal(T.teacher_problem(200, 70, p=1, beta=3.0, seed=11).X.toarray(), a.X.toarray())
    # other seeds and other d give other examples
    assert not np.array_equal(T.teacher_problem(200, 70, p=3, beta=1.5, seed=12).X.toarray(), a.X.toarray())
    assert not np.array_equal(T.teacher_problem(200, 71, p=3, beta=1.5, seed=11).X.toarray()[:, :70],
                              a.X.toarray())


def test_stream_statistics_match_the_model():
    # 3000 x 500 signs: fair coins, uncorrelated neighbours; labels follow sigma(<w*, x>)
    prob = T.teacher_problem(3000, 500, p=2, beta=2.0, seed=0)
    X = prob.X.toarray()
    n = X.size
    assert abs(X.mean()) < 5 / math.sqrt(n)
    assert abs(np.mean(X[:, 1:] * X[:, :-1])) < 5 / math.sqrt(n)
    assert abs(np.mean(X[1:] * X[:-1])) < 5 / math.sqrt(n)           # consecutive examples
    z = X[:, :2] @ T.teacher_weights(500)[:2]
    q = 1 / (1 + np.exp(-z))
    # P[y = 1 | x] = q for each of the margin values 0, +4, -4
    for v in (0.0, 4.0, -4.0):
        sel = z == v
        k = sel.sum()
        p_hat = np.mean(prob.y[sel] == 1)
        assert abs(p_hat - q[sel][0]) < 5 * math.sqrt(q[sel][0] * (1 - q[sel][0]) / k)


@pytest.mark.parametrize("d,p,beta", [(1, 1, 2.0), (64, 2, 2.0), (65, 3, 1.5), (300, 8, 1.0)])
def test_streamed_runs_equal_the_general_solvers(d, p, beta):
    n, seed = 400, 5
    prob = T.teacher_problem(n, d, p, beta, seed=seed)
    F1, F2 = beta * p, beta * math.sqrt(p)
    for steps in (1, 17, n):
        eta = kfe.smg_eta(steps, 2 * d + 1, 1.0)
        r = smg(prob, eta, F1, order=np.arange(steps))
        w, w_avg, cost = smg_stream(d, steps, eta, F1, p, beta, seed=seed)
        np.testing.assert_allclose(w, r.w, rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(w_avg, r.w_avg, rtol=1e-12, atol=1e-15)
        assert cost == pytest.approx(r.costs.mean(), rel=1e-12)
        # SG with a step large enough that the projection is active most of the time
        eta = 4 * kfe.sg_eta(steps, F2, math.sqrt(d))
        r = sg_l2(prob, eta, F2, order=np.arange(steps))
        w, w_avg, cost = sg_l2_stream(d, steps, eta, F2, p, beta, seed=seed)
        np.testing.assert_allclose(w, r.w, rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(w_avg, r.w_avg, rtol=1e-12, atol=1e-15)
        assert cost == pytest.approx(r.costs.mean(), rel=1e-12)
        assert np.linalg.norm(w) <= F2 * (1 + 1e-12)


def test_streamed_smg_stays_on_the_simplex_and_rejects_infeasible_steps():
    d, steps = 50, 300
    w, w_avg, _ = smg_stream(d, steps, kfe.smg_max_step(1.0), 4.0, seed=1)
    assert np.abs(w).sum() <= 4.0 * (1 + 1e-12) and np.abs(w_avg).sum() <= 4.0 * (1 + 1e-12)
    with pytest.raises(ValueError, match="negative"):
        smg_stream(d, steps, 5.0, 4.0, seed=1)      # eta G_inf = 5: a factor 1 - eta L' + eta Z < 0


def test_snapshots_are_the_averages_and_decisions_of_shorter_runs():
    d, p, beta, seed = 40, 2, 2.0, 3
    taus = np.array([1, 7, 50, 120])
    eta = kfe.smg_eta(int(taus[-1]), 2 * d + 1, 1.0)
    w_avg, w_last = smg_stream_snapshots(d, taus, eta, beta * p, p, beta, seed=seed)
    for k, tau in enumerate(taus):
        w, avg, _ = smg_stream(d, int(tau), eta, beta * p, p, beta, seed=seed)
        np.testing.assert_allclose(w_avg[k], avg, rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(w_last[k], w, rtol=1e-12, atol=1e-15)
    for bad in ([], [3, 3], [0, 5], [[1, 2]]):
        with pytest.raises(ValueError, match="taus"):
            smg_stream_snapshots(d, bad, eta, beta * p, p, beta)


def test_stream_input_errors():
    with pytest.raises(ValueError, match="seed"):
        T.teacher_problem(10, 5, seed=-1)
    with pytest.raises(ValueError, match="T must"):
        smg_stream(5, 0, 0.1, 1.0)
    with pytest.raises(ValueError, match="eta"):
        sg_l2_stream(5, 10, 0.0, 1.0)
    with pytest.raises(ValueError, match="radius"):
        sg_l2_stream(5, 10, 0.1, -1.0)
    with pytest.raises(ValueError, match="p must"):
        smg_stream(5, 10, 0.1, 1.0, p=9)
    with pytest.raises(ValueError, match="n must"):
        T.teacher_problem(0, 5)


# ---------------------------------------------------------------------------------------------- excess risk
def _exact_excess(w, p=2, beta=2.0):
    """Brute force over all 2^d sign patterns (d <= 20)."""
    d = w.size
    X = np.array(np.meshgrid(*[[-1.0, 1.0]] * d, indexing="ij")).reshape(d, -1).T
    z_star = X @ T.teacher_weights(d, p, beta)
    z = X @ w
    q = 1 / (1 + np.exp(-z_star))
    risk = np.mean(q * np.logaddexp(0, -z) + (1 - q) * np.logaddexp(0, z))
    risk_star = np.mean(q * np.logaddexp(0, -z_star) + (1 - q) * np.logaddexp(0, z_star))
    return risk - risk_star


def test_excess_risk_exact_for_few_irrelevant_and_within_its_bound_beyond():
    rng = np.random.default_rng(3)
    for d in (2, 9, 14):                                   # <= EXACT_IRRELEVANT irrelevant: enumerated
        w = rng.normal(0, 0.5, d)
        assert T.excess_risk(w) == pytest.approx(_exact_excess(w), rel=1e-12, abs=1e-15)
        assert T.excess_risk_error_bound(w) == 0.0
    worst = 0.0
    for scale in (0.05, 0.2, 0.6):                         # 18 irrelevant: 8 enumerated + a normal for 10
        for _ in range(3):
            w = np.concatenate([[1.5, -2.5], rng.normal(0, scale, 18)])
            err = abs(T.excess_risk(w) - _exact_excess(w))
            bound = T.excess_risk_error_bound(w)
            assert err <= bound + 1e-10
            worst = max(worst, err / max(bound, 1e-300))
    assert worst > 1e-3         # the bound is not vacuous: the approximation does make an error


def test_normal_part_quadrature_is_accurate():
    # the trapezoid rule of excess_risk against adaptive quadrature for E f(a + sigma Z)
    for sigma in (0.01, 0.5, 1.5, 3.0, 6.0, 10.0):
        x, wh = T.normal_nodes(sigma)
        for a, q in ((0.0, 0.5), (4.0, 0.98), (-2.0, 0.3)):
            def f(z):
                return q * np.logaddexp(0, -z) + (1 - q) * np.logaddexp(0, z)
            gh = wh @ f(a + sigma * x)
            ref = integrate.quad(lambda u: f(a + sigma * u) * np.exp(-u * u / 2) / math.sqrt(2 * math.pi),
                                 -12, 12, epsabs=1e-14, epsrel=1e-13, limit=400, points=[-a / sigma])[0]
            assert gh == pytest.approx(ref, abs=1e-10)


def test_excess_risk_batches_rows_and_checks_input():
    rng = np.random.default_rng(0)
    M = rng.normal(0, 0.01, (4, 2_000))
    M[:, :2] = [2.0, -2.0]
    e = T.excess_risk(M)
    np.testing.assert_allclose(e, [T.excess_risk(r) for r in M], rtol=1e-12)
    assert np.all(e > 0) and np.all(T.excess_risk_error_bound(M) < 1e-5)
    with pytest.raises(ValueError, match="finite"):
        T.excess_risk(np.array([np.nan, 1.0, 0.0]))


# ---------------------------------------------------------------------------------------------- Cor. 3.1, 4.1
def test_corollary_41_one_pass_risk_bound_over_seeds():
    """Corollary 4.1: one pass of SMG over T fresh examples with Theorem 2.3's step; the excess risk of the
    averaged decision is below 4 F1 G (sqrt(log d/T) + sqrt(2 log(1/delta)/T)) for (at least) a 1 - delta
    fraction of 20 seeds -- in fact for all of them, and the mean is far below the delta-free level."""
    d, p, beta, n, delta = 40, 2, 2.0, 400, 0.05
    F1, d_smg = beta * p, 2 * d + 1
    eta = kfe.smg_eta(n, d_smg, 1.0)
    ex = np.array([T.excess_risk(smg_stream(d, n, eta, F1, p, beta, seed=100 + s)[1]) for s in range(20)])
    bound = kfe.cor41_risk_bound(n, d_smg, F1, 1.0, delta)
    assert np.all(ex <= bound)
    assert ex.mean() <= kfe.cor41_risk_bound(n, d_smg, F1, 1.0, None)
    assert bound > kfe.cor41_risk_bound(n, d_smg, F1, 1.0, None)      # the delta term is positive


def test_corollary_31_averaging_on_a_fixed_convex_function():
    """Corollary 3.1: c = the mean logistic loss over a fixed pool of 200 examples; SMG gets the gradient of a
    uniformly drawn example (unbiased for grad c).  c(average) - min over the l1 ball of c is below the bound
    for every one of 20 seeds."""
    from l1lab.solvers.online import best_fixed_decision
    d, p, beta, n, delta = 30, 2, 2.0, 600, 0.05
    pool = T.teacher_problem(200, d, p, beta, seed=9)
    F1, d_smg = beta * p, 2 * d + 1
    eta = kfe.smg_eta(n, d_smg, 1.0)
    c_star = best_fixed_decision(pool, np.arange(pool.m), "l1_ball", F1, max_iter=3000)[1]
    gaps = []
    for s in range(20):
        w_avg = smg(pool, eta, F1, n_steps=n, seed=s).w_avg
        gaps.append(pool.smooth(w_avg) - c_star)
    gaps = np.array(gaps)
    assert np.all(gaps >= -1e-9)
    assert np.all(gaps <= kfe.cor31_bound(n, d_smg, F1, 1.0, delta))
    assert gaps.mean() <= kfe.cor31_limsup(n, d_smg, F1, 1.0)
