"""Lemma 5 of Shalev-Shwartz & Tewari (2011): the construction (l1lab.data.lower_bound) and the lemma's constants
(l1lab.theory.shalev_shwartz_tewari.lemma5_*).

The construction has the stated moments (exactly, and on samples within a Hoeffding tolerance); the exact
design's average loss is the population risk; the exact frontier is what solvers find and never beat; the
printed inequality holds exactly where the chapter says; coordinate methods respect the iteration bound where
it is proved, and GCD beats the printed bound where the chapter says it is false.
"""
import math
from fractions import Fraction

import numpy as np
import pytest

from l1lab.data import lower_bound as lb
from l1lab.problem import Problem
from l1lab.solvers import cyclic_cd, gcd, scd
from l1lab.solvers.forward import forward_selection, restricted_scd
from l1lab.theory import shalev_shwartz_tewari as sst
from l1lab.trace import best_found, hitting_steps


# ---------------------------------------------------------------------------------------------- moments
@pytest.mark.parametrize("B", [Fraction(2), Fraction(5, 2), Fraction(3), Fraction(7, 3), Fraction(10)])
def test_conditional_moments_exact(B):
    p = lb.agreement_probability(B)
    assert p == Fraction(1, 2) + 1 / (2 * B)
    mean, var = lb.conditional_moments(B)
    assert mean == 1 / B                      # E[X_j | Y = y] = y/B
    assert var == 1 - 1 / B ** 2              # Var[X_j | Y = y] = 1 - 1/B^2
    fmean, fvar = lb.conditional_moments(float(B))
    assert fmean == pytest.approx(float(mean), abs=1e-15) and fvar == pytest.approx(float(var), abs=1e-15)


@pytest.mark.parametrize("B", [2.0, 2.5, 3.0])
def test_sample_moments_within_hoeffding_tolerance(B):
    m, delta = 20_000, 1e-6
    X, y = lb.sample(B, m, seed=3)
    d = X.shape[1]
    assert d == sst.lemma5_dimension(B) and set(np.unique(X)) == {-1.0, 1.0} and set(np.unique(y)) == {-1.0, 1.0}
    # X_j Y in {-1, 1} with mean 1/B: Hoeffding + a union bound over d coordinates
    t = math.sqrt(2 * math.log(2 * d / delta) / m)
    assert np.abs((X * y[:, None]).mean(axis=0) - 1 / B).max() <= t
    for c in (-1.0, 1.0):
        Xc = X[y == c]
        mc = Xc.shape[0]
        tc = math.sqrt(2 * math.log(4 * d / delta) / mc)       # both classes, d coordinates each
        mean = Xc.mean(axis=0)
        assert np.abs(mean - c / B).max() <= tc
        # X_j^2 = 1, so the sample variance is 1 - mean^2 and |(1 - mean^2) - (1 - 1/B^2)| <= 2 |mean - c/B|
        assert np.abs((1 - mean ** 2) - (1 - 1 / B ** 2)).max() <= 2 * tc
    assert abs(np.mean(y == 1) - 0.5) <= math.sqrt(math.log(2 / delta) / (2 * m))


def test_sample_is_seeded():
    a = lb.sample(2, 50, d=10, seed=7)
    b = lb.sample(2, 50, d=10, seed=7)
    c = lb.sample(2, 50, d=10, seed=8)
    assert all(np.array_equal(u, v) for u, v in zip(a, b))
    assert not np.array_equal(a[0], c[0])


@pytest.mark.parametrize("B", lb.EXACT_B)
def test_exact_design_has_the_population_moments(B):
    X, y = lb.exact_design(B)
    m, d = X.shape
    assert d == sst.lemma5_dimension(B)
    # (1/m) X^T X = (1 - 1/B^2) I + 11^T/B^2 and (1/m) X^T y = 1/B, exactly: the entries are +-1, so every
    # product below is an integer of magnitude < 2^53, which float64 arithmetic (BLAS) computes exactly
    assert np.array_equal(B * B * (X.T @ X), m * ((B * B - 1) * np.eye(d) + 1))
    assert np.array_equal(B * (X.T @ y), np.full(d, float(m)))
    assert y.sum() == 0
    half, yh = lb.exact_design(B, mirrored=False)
    assert half.shape[0] * 2 == m and np.all(yh == 1)
    # the average loss is the population risk, for the full and the half design
    rng = np.random.default_rng(0)
    full, small = Problem(X, y, "squared", 0.0), lb.lemma5_problem(B)
    for _ in range(5):
        w = rng.standard_normal(d) * rng.uniform(0.01, 1.0)
        r = lb.population_risk(w, B)
        assert lb.risk_from_objective(full.smooth(w)) == pytest.approx(r, rel=1e-12, abs=1e-12)
        assert lb.risk_from_objective(small.smooth(w)) == pytest.approx(r, rel=1e-12, abs=1e-12)


def test_exact_design_smaller_d_and_population_risk_of_stacks():
    X, _ = lb.exact_design(2, d=21)
    assert X.shape == (2 * 4 ** 3, 21)
    w = np.random.default_rng(1).standard_normal((4, 21))
    assert np.allclose(lb.population_risk(w, 2), [lb.population_risk(v, 2) for v in w])
    assert lb.population_excess(lb.optimum(2, 21), 2) == pytest.approx(0.0, abs=1e-15)


# ---------------------------------------------------------------------------------------------- the frontier
@pytest.mark.parametrize("B", [2, 2.5, 3, 7])
def test_exact_frontier_formulas(B):
    d = sst.lemma5_dimension(B)
    k = B * B - 1
    assert sst.lemma5_optimal_risk(B, d) == pytest.approx(k / (d + k))
    assert lb.population_risk(lb.optimum(B, d), B) == pytest.approx(sst.lemma5_optimal_risk(B, d), rel=1e-12)
    assert lb.population_risk(np.full(d, B / d), B) == pytest.approx(k / d)          # R(w0) = 0.01
    assert k / d == pytest.approx(0.01, rel=1e-3)
    s = np.arange(0, d + 1)
    fr = sst.lemma5_frontier(s, B, d)
    assert np.allclose(fr, k * (d - s) / ((s + k) * (d + k)))
    assert fr[-1] == pytest.approx(0.0, abs=1e-15) and np.all(np.diff(fr) < 0)
    for si in (0, 1, 3, 40, d):
        w = lb.best_sparse(si, B, d)
        assert lb.population_risk(w, B) == pytest.approx(sst.lemma5_sparse_risk(si, B), rel=1e-12)
        assert np.abs(w).sum() < B                                    # the l1 constraint never binds
    # exact minimum >= twice the printed case split min{1/4, (B^2-1)/(4s)}
    s1 = np.arange(1, d + 1)
    assert np.all(np.asarray(sst.lemma5_sparse_risk(s1, B)) >= 2 * np.asarray(
        sst.lemma5_risk_lower_bound_as_printed(s1, B)) - 1e-15)


def test_no_sparse_vector_beats_the_frontier():
    from scipy.optimize import minimize

    B, d = 2, 60
    rng = np.random.default_rng(5)
    for s in (1, 4, 17, 45):
        floor = sst.lemma5_sparse_risk(s, B)
        for _ in range(3):   # random s-sparse vectors, and the best vector on a random support found numerically
            S = rng.choice(d, size=s, replace=False)
            w = np.zeros(d)
            w[S] = rng.standard_normal(s)
            assert lb.population_risk(w, B) >= floor
            res = minimize(lambda v: lb.population_risk(np.pad(v, (0, d - s)), B), np.zeros(s), method="BFGS",
                           options=dict(gtol=1e-12))
            assert res.fun >= floor - 1e-12 and res.fun == pytest.approx(floor, abs=1e-9)


def test_min_steps_is_the_first_s_below_eps():
    for B in (2, 3):
        d = sst.lemma5_dimension(B)
        fr = np.asarray(sst.lemma5_frontier(np.arange(d + 1), B, d))
        for eps in (0.9, 0.12, 0.05, 0.01, 1e-3, 1e-4, 1e-6):
            brute = int(np.nonzero(fr <= eps)[0][0])
            assert sst.lemma5_min_steps(eps, B, d) == brute
        # at eps = frontier(s) exactly, s steps are the fewest (the frontier decreases strictly)
        for s in range(0, d, 7):
            assert sst.lemma5_min_steps(fr[s], B, d) == s
            assert sst.lemma5_min_steps(fr[s] * (1 - 1e-12), B, d) == s + 1
    # no negative zero where no step is needed
    zero = sst.lemma5_min_steps(1.0, 2, sst.lemma5_dimension(2))
    assert zero == 0 and math.copysign(1.0, zero) == 1.0
    zeros = sst.lemma5_min_steps(np.array([1.0, 2.0]), 2, sst.lemma5_dimension(2))
    assert np.all(np.signbit(zeros) == False)  # noqa: E712


# ---------------------------------------------------------------------------------------------- constants
def test_lemma5_constants():
    assert sst.lemma5_dimension(2) == 300 and sst.lemma5_dimension(3) == 800 and sst.lemma5_dimension(2.5) == 525
    assert sst.lemma5_iteration_bound(0.01, 2) == pytest.approx(25.0)
    assert np.allclose(sst.lemma5_iteration_bound(np.array([0.12, 0.01]), 3), [9 / 1.92, 56.25])
    s = np.arange(1, 1000)
    for B in (2, 3, 10):
        assert np.allclose(sst.lemma5_population_gap_bound(s, B), 2 * np.asarray(sst.lemma5_sparse_gap_bound(s, B)))
    assert sst.lemma5_sparse_gap_bound(1, 2) == 0.12 and sst.lemma5_sparse_gap_bound(100, 2) == 4 / 1600
    assert sst.lemma5_proof_sparsity_limit(2) == 25.0 and sst.lemma5_proof_sparsity_limit(3) == 87.5
    assert sst.lemma5_dimension_for_accuracy(0.05, 2) == 300 and sst.lemma5_dimension_for_accuracy(1e-3, 2) == 3000


@pytest.mark.parametrize("B", [2, 3, 5])
def test_printed_step_holds_exactly_up_to_the_proof_limit(B):
    d = sst.lemma5_dimension(B)
    lim = sst.lemma5_proof_sparsity_limit(B)
    s = np.arange(1, d + 1)
    step = (B * B - 1) / (4 * s) - (B * B - 1) / d >= B * B / (8 * s) - 1e-15
    assert np.all(step[s <= lim]) and not np.any(step[s > lim + 1e-9])


@pytest.mark.parametrize("B", [2, 3, 5])
def test_where_the_printed_inequalities_are_true(B):
    d = sst.lemma5_dimension(B)
    s = np.arange(1, d + 1)
    fr = np.asarray(sst.lemma5_frontier(s, B, d))
    rng = sst.lemma5_printed_bound_range(B)
    ok = fr >= np.asarray(sst.lemma5_sparse_gap_bound(s, B))
    assert np.all(ok[s <= rng]) and not np.any(ok[s > rng])
    assert sst.lemma5_proof_sparsity_limit(B) < rng < d
    assert sst.lemma5_printed_bound_range(2) == 274 and sst.lemma5_printed_bound_range(3) == 742


@pytest.mark.parametrize("B,expected", [(2, 246), (3, 678), (5, 2059), (10, 8536)])
def test_where_the_population_inequality_is_true(B, expected):
    """The proof's population inequality compares with R(w0) = (B^2 - 1)/d, the risk of w0 = (B/d) 1, not with
    the optimal risk: computed here in rational arithmetic from the least s-sparse risk (B^2 - 1)/(s + B^2 - 1)."""
    d = sst.lemma5_dimension(B)
    k = Fraction(B * B - 1)
    true_up_to = 0
    for s in range(1, d + 1):
        if k / (s + k) - k / d >= min(Fraction(24, 100), Fraction(B * B, 8 * s)):
            true_up_to = s
        else:
            break
    assert true_up_to == expected == sst.lemma5_population_inequality_range(B)
    # against the frontier over R* the range would be wider: the mistake this guards against
    assert sst.lemma5_printed_bound_range(B, c=8, cap=0.24) > expected


@pytest.mark.parametrize("B", [2, 3, 6])
def test_failure_accuracy(B):
    d = sst.lemma5_dimension(B)
    k, r = B * B - 1, sst.lemma5_optimal_risk(B, d)
    ef = sst.lemma5_failure_accuracy(B)
    assert k / (ef + r) - k == pytest.approx(B * B / (16 * ef), rel=1e-9)
    # above it the printed bound is below the exact least number of steps, below it (far enough) above
    for eps in np.geomspace(ef * 1.01, 0.12, 40):
        assert sst.lemma5_min_steps(eps, B, d) >= sst.lemma5_iteration_bound(eps, B)
    assert sst.lemma5_min_steps(ef / 2, B, d) < sst.lemma5_iteration_bound(ef / 2, B)
    assert sst.lemma5_iteration_bound(0.99 * B * B / (16 * d), B) > d          # more than d steps: trivially false


@pytest.mark.parametrize("B", [2, 2.5, 3, 10])
def test_repaired_lemma_holds_at_every_eps(B):
    for eps in (0.12, 0.05, 0.01, 1e-3, 1e-4, 1e-5):
        d = sst.lemma5_dimension_for_accuracy(eps, B)
        assert d >= (B * B - 1) / eps and d >= sst.lemma5_dimension(B)
        s_min = sst.lemma5_min_steps(eps, B, d)
        assert s_min > sst.lemma5_iteration_bound_derived(eps, B) >= sst.lemma5_iteration_bound(eps, B)


# ---------------------------------------------------------------------------------------------- found solutions
@pytest.mark.parametrize("B", lb.EXACT_B)
def test_found_sparse_solutions_satisfy_the_lemma_for_every_s(B):
    prob = lb.lemma5_problem(B)
    d = prob.d
    path = forward_selection(prob)
    s = np.arange(1, d + 1)
    excess = lb.risk_from_objective(path.objective[1:]) - sst.lemma5_optimal_risk(B, d)
    pop = lb.population_excess(path.weights[1:], B)
    assert np.allclose(excess, pop, atol=1e-12)
    fr = np.asarray(sst.lemma5_frontier(s, B, d))
    assert np.all(pop >= fr - 1e-12) and np.allclose(pop, fr, atol=1e-12)   # greedy is optimal on this instance
    assert np.all(np.count_nonzero(path.weights[1:], axis=1) == s)
    rng = sst.lemma5_printed_bound_range(B)
    assert np.all(pop[s <= rng] >= np.asarray(sst.lemma5_sparse_gap_bound(s[s <= rng], B)))
    pr = sst.lemma5_population_inequality_range(B)    # an excess over R(w0) = (B^2 - 1)/d
    over_w0 = pop + sst.lemma5_optimal_risk(B, d) - (B * B - 1) / d
    assert np.all(over_w0[s <= pr] >= np.asarray(sst.lemma5_population_gap_bound(s[s <= pr], B)))
    assert not np.all(over_w0 >= np.asarray(sst.lemma5_population_gap_bound(s, B)))
    for si in (1, 7, 50):   # SCD restricted to the greedy support reaches the frontier
        w = restricted_scd(prob, path.order[:si])
        assert np.count_nonzero(w) <= si
        assert lb.population_excess(w, B) == pytest.approx(fr[si - 1], abs=1e-10)


def test_solutions_found_on_a_sample_never_beat_the_population_frontier():
    B = 2
    prob = lb.lemma5_problem(B, m=2_000, seed=0)
    d = prob.d
    path = forward_selection(prob, s_max=150)
    pop = lb.population_excess(path.weights[1:], B)
    s = np.arange(1, 151)
    assert np.all(pop >= np.asarray(sst.lemma5_frontier(s, B, d)) - 1e-12)
    assert np.all(pop >= np.asarray(sst.lemma5_sparse_gap_bound(s, B)))
    emp = lb.risk_from_objective(path.objective)
    assert np.all(np.diff(emp) <= 1e-15)          # refitting on a growing support never increases the risk


def test_iteration_bound_respected_by_scd_cyclic_and_gcd_runs():
    B = 2
    prob = lb.lemma5_problem(B)
    d = prob.d
    r_star = sst.lemma5_optimal_risk(B, d)
    eps = np.geomspace(1e-4, 0.12, 30)
    covered = eps >= (B * B - 1) / d                      # the printed d proves the lemma for eps >= 0.01
    runs = [scd(prob, 20 * d, seed=s, n_checkpoints=400) for s in range(5)]
    runs += [cyclic_cd(prob, 50 * d, n_checkpoints=400), gcd(prob, 3 * d, n_checkpoints=3 * d + 1)]
    for res in runs:
        t, nnz = res.trace.iteration, res.trace.nnz
        ex = lb.risk_from_objective(res.trace.objective) - r_star
        assert np.all(nnz <= t)                            # one coordinate per step
        keep = t <= d
        assert np.all(ex[keep] >= np.asarray(sst.lemma5_frontier(nnz[keep], B, d)) - 1e-12)
        lo, hi = hitting_steps(t, ex, eps)
        reached = ~np.isnan(lo)
        assert np.all(lo[reached] >= np.asarray(sst.lemma5_min_steps(eps[reached], B, d)))
        ok = reached & covered & (eps <= 0.12)
        assert np.all(lo[ok] >= np.asarray(sst.lemma5_iteration_bound(eps[ok], B)))
    # GCD (one coordinate per step) is below the printed B^2/(16 eps) at eps = 1e-4: the printed construction fails
    g = runs[-1]
    lo, hi = hitting_steps(g.trace.iteration, lb.risk_from_objective(g.trace.objective) - r_star, 1e-4)
    assert hi[0] < sst.lemma5_iteration_bound(1e-4, B) and hi[0] < 3 * d


def test_best_found_and_hitting_steps():
    assert np.allclose(best_found([0, 1, 2, 2, 3], [1.0, 0.5, 0.6, 0.3, 0.1], [0, 1, 2, 3, 4]),
                       [1.0, 0.5, 0.3, 0.1, 0.1])
    two = best_found(np.array([[0, 2], [0, 1]]), np.array([[1.0, 0.2], [1.0, 0.4]]), [1, 2])
    assert two.shape == (2, 2) and np.allclose(two, [[1.0, 0.2], [0.4, 0.4]])
    assert np.isinf(best_found([3, 4], [0.1, 0.2], [1])[0])
    lo, hi = hitting_steps([0, 10, 20, 40], [1.0, 0.5, 0.2, 0.1], [0.3, 0.05, 1.0])
    assert np.array_equal(lo[[0, 2]], [11, 0]) and np.array_equal(hi[[0, 2]], [20, 0]) and np.isnan(lo[1])


# ---------------------------------------------------------------------------------------------- bad input
def test_bad_inputs_give_clear_errors():
    with pytest.raises(ValueError, match="B >= 2"):
        sst.lemma5_dimension(1.5)
    with pytest.raises(ValueError, match="B >= 2"):
        sst.lemma5_iteration_bound(0.01, 1.0)
    with pytest.raises(ValueError, match="B >= 2"):
        lb.sample(1.9, 10)
    with pytest.raises(ValueError, match="B >= 2"):
        lb.conditional_moments(Fraction(3, 2))
    with pytest.raises(ValueError, match="eps <= 0.12"):
        sst.lemma5_iteration_bound(0.2, 2)
    with pytest.raises(ValueError, match="eps <= 0.12"):
        sst.lemma5_iteration_bound_derived(0.0, 2)
    with pytest.raises(ValueError, match="eps <= 0.12"):
        sst.lemma5_dimension_for_accuracy(0.5, 2)
    with pytest.raises(ValueError, match="s must be >= 1"):
        sst.lemma5_sparse_gap_bound(0, 2)
    with pytest.raises(ValueError, match="s must be >= 1"):
        sst.lemma5_population_gap_bound(np.array([1, 0.5]), 2)
    with pytest.raises(ValueError, match="s must be >= 1"):
        sst.lemma5_risk_lower_bound_as_printed(-1, 3)
    with pytest.raises(ValueError, match="s must be <= d"):
        sst.lemma5_frontier(301, 2, 300)
    with pytest.raises(ValueError, match="exact finite instance"):
        lb.exact_design(4)
    with pytest.raises(ValueError, match="lam = 0"):
        forward_selection(Problem(*lb.sample(2, 20, d=5), "squared", 0.1))
    with pytest.raises(ValueError, match="0 <= s <= d"):
        lb.best_sparse(11, 2, 10)
    with pytest.raises(ValueError, match="m >= 1"):
        lb.sample(2, 0)


@pytest.mark.parametrize("B", [2, 3, 10])
def test_derived_iteration_bound_over_printed_tends_to_8_k_over_B2(B):
    """(k/(2 eps) - k) / (B^2/(16 eps)) = 8k/B^2 - 16 k eps/B^2 -> 8(B^2 - 1)/B^2 as eps -> 0 (6 at B = 2)."""
    eps = 1e-9
    ratio = sst.lemma5_iteration_bound_derived(eps, B) / sst.lemma5_iteration_bound(eps, B)
    assert ratio == pytest.approx(8 * (B * B - 1) / (B * B), rel=1e-6)
