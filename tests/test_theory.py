import inspect
import math

import numpy as np
import pytest

from l1lab.theory import registry
from l1lab.theory import shalev_shwartz_tewari as sst


def test_theorem1_and_2_formulas():
    assert sst.scd_psi0(0.25, np.array([2.0, 0.0]), np.log(2)) == pytest.approx(0.5 + np.log(2))
    T = np.array([0, 9, 99])
    np.testing.assert_allclose(sst.scd_expected_gap_bound(T, 10, 2.0), [20.0, 2.0, 0.2])
    np.testing.assert_allclose(sst.scd_high_probability_gap_bound(T, 10, 2.0), [40.0, 4.0, 0.4])
    assert isinstance(sst.scd_expected_gap_bound(5, 3, 1.0), float)
    with pytest.raises(ValueError):
        sst.scd_expected_gap_bound(-1, 3, 1.0)


def test_iterations_for_accuracy_is_the_smallest_T():
    for d, psi0, eps in [(10, 1.3, 0.01), (100, 0.7, 1e-3), (3, 2.0, 0.5)]:
        T = sst.scd_iterations_for_accuracy(eps, d, psi0)
        assert sst.scd_expected_gap_bound(T, d, psi0) <= eps * (1 + 1e-12)
        if T > 0:
            assert sst.scd_expected_gap_bound(T - 1, d, psi0) > eps


@pytest.mark.parametrize("delta,r", [(0.5, 1), (0.25, 2), (0.1, 4), (0.01, 7), (1e-6, 20)])
def test_runs_for_confidence(delta, r):
    assert sst.scd_runs_for_confidence(delta) == r
    assert 2.0 ** -r <= delta


def test_runs_for_confidence_rejects_bad_delta():
    for bad in (0.0, 1.0, -0.1, 2.0):
        with pytest.raises(ValueError, match="delta"):
            sst.scd_runs_for_confidence(bad)


def test_printed_logistic_runtime_is_twice_theorem1():
    """Section 2.2 prints s m d (||w*||^2/4 + 2)/eps; Theorem 1 with beta = 1/4, C(0) <= 1 gives half."""
    args = dict(eps=1e-3, m=100, d=50, s=0.3, w_star_norm2_sq=7.0)
    assert sst.scd_runtime_logistic_as_printed(**args) == pytest.approx(2 * sst.scd_runtime_logistic(**args))
    # with delta, Theorem 2's repetition multiplies by ceil(log2(1/delta)); the printed form adds a log
    derived = sst.scd_runtime_logistic(**args, delta=1e-3)
    printed = sst.scd_runtime_logistic_as_printed(**args, delta=1e-3)
    assert derived == pytest.approx(10 * 2 * sst.scd_runtime_logistic(**args))
    assert printed < derived


def test_squared_runtime_uses_psi0():
    v = sst.scd_runtime_squared(0.01, 10, 20, 1.0, 4.0, c0=0.5)
    assert v == pytest.approx(10 * 20 * (2.0 + 0.5) / 0.01)
    assert sst.scd_runtime_squared_as_printed(0.01, 10, 20, 1.0, 4.0, delta=0.1) == pytest.approx(
        10 * 20 * ((8 + 4) / 0.01 + math.ceil(math.log(10))))


def test_runtime_comparisons_of_section_1_1():
    """Tseng-Yun is d times bound (2); boosting is between (2) and d times (2) since
    ||w||_2 <= ||w||_1 <= sqrt(d)||w||_2."""
    rng = np.random.default_rng(0)
    for _ in range(50):
        d = int(rng.integers(2, 1000))
        w = rng.standard_normal(d) * (rng.random(d) < 0.2)
        n2, n1 = float(w @ w), float(np.abs(w).sum())
        b2 = sst.scd_runtime_bound(0.01, 100, d, 1.0, n2)
        assert sst.tseng_yun_runtime_bound(0.01, 100, d, 1.0, n2) == pytest.approx(d * b2)
        boost = sst.boosting_runtime_bound(0.01, 100, d, 1.0, n1)
        assert b2 <= boost * (1 + 1e-12) <= d * b2 * (1 + 1e-9)


def test_runtime_expected_and_high_probability():
    assert sst.scd_runtime_expected(0.1, 10, 5, 0.5, 2.0) == 0.5 * 10 * (100 - 1)
    assert sst.scd_runtime_high_probability(0.1, 0.25, 10, 5, 0.5, 2.0) == 0.5 * 10 * 2 * (200 - 1)


def test_average_nonzeros(sparse_classification):
    from l1lab import Problem

    prob = Problem(*sparse_classification, "logistic", 0.1)
    assert sst.average_nonzeros(prob) == pytest.approx(prob.X.nnz / (prob.m * prob.d))
    dense = Problem(prob.X.toarray(), prob.y, "logistic", 0.1)
    assert sst.average_nonzeros(dense) == pytest.approx(sst.average_nonzeros(prob))


def test_every_registry_entry_is_documented_and_callable():
    keys = [e.key for e in registry.REGISTRY]
    assert len(keys) == len(set(keys))
    for e in registry.REGISTRY:
        assert callable(e.function)
        doc = inspect.getdoc(e.function)
        assert doc and e.source.split(" (")[0] in doc, f"{e.key}: docstring must name its source"
        result = " ".join(e.number.split()[:2]).rstrip(",")  # "Theorem 1", "Bound (2)", "Section 2.2", ...
        assert result in doc, f"{e.key}: docstring must name its result ({result!r})"
        assert e.chapter.startswith("chapters/")
    assert registry.get("sst.theorem1").function is sst.scd_expected_gap_bound
    with pytest.raises(KeyError):
        registry.get("nope")
    assert all(e.source.startswith("Shalev") for e in registry.entries(source="Shalev-Shwartz"))


def test_registry_chapters_exist():
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    for e in registry.REGISTRY:
        assert (root / (e.chapter + ".ipynb")).exists() or (root / (e.chapter + ".md")).exists(), e.chapter


def test_every_public_bound_is_registered():
    from l1lab.theory import duchi2008, kakade_foster_evendar

    funcs = {f for mod in (sst, duchi2008, kakade_foster_evendar)
             for name, f in inspect.getmembers(mod, inspect.isfunction)
             if not name.startswith("_") and f.__module__ == mod.__name__}
    registered = {e.function for e in registry.REGISTRY}
    assert funcs <= registered, sorted(f.__name__ for f in funcs - registered)


# ---- Section 3 (SMIDAS) --------------------------------------------------------------------------------

@pytest.mark.parametrize("a,b,P,T", [(1.0, 1.0, 1.0, 100), (13.6, 4.0, 0.69, 1000), (0.2, 30.0, 5.0, 10),
                                     (50.0, 0.01, 1e-3, 1e6)])
def test_lemma7_eta_star_minimizes_f(a, b, P, T):
    from scipy.optimize import minimize_scalar

    eta_star = sst.lemma7_eta_star(a, b, P, T)
    assert 0 < eta_star < 1 / a
    res = minimize_scalar(lambda e: sst.lemma7_f(e, a, b, P, T), bounds=(1e-12 / a, (1 - 1e-12) / a),
                          method="bounded", options={"xatol": 1e-14 / a})
    assert sst.lemma7_f(eta_star, a, b, P, T) <= res.fun * (1 + 1e-9)
    assert eta_star == pytest.approx(res.x, rel=1e-4)
    assert sst.lemma7_f(eta_star, a, b, P, T) <= sst.lemma7_min_upper_bound(a, b, P, T)
    assert sst.lemma7_f(2 / a, a, b, P, T) == np.inf


def test_kappa_is_p_minus_1_times_e_at_p_2lnd():
    for d in (10, 1000, 10 ** 6):
        p = 2 * math.log(d)
        assert sst.smidas_kappa(p, d) == pytest.approx((p - 1) * math.e)
        # the experiments' ceil(2 ln d) keeps d^(2/p) <= e
        pc = math.ceil(p)
        assert sst.smidas_kappa(pc, d) <= (pc - 1) * math.e


def test_theorem3_optimal_eta_and_printed_forms():
    rng = np.random.default_rng(0)
    for _ in range(100):
        d = int(rng.integers(3, 10 ** 6))
        p = 2 * math.log(d)
        T = float(rng.integers(10, 10 ** 7))
        rho, w1, p0 = rng.uniform(0.1, 4), rng.uniform(0.01, 100), rng.uniform(0.01, 2)
        eta = sst.smidas_eta_lipschitz(T, rho, w1, p, d)
        # eta minimizes the case-(13) bound, whose minimum is the stated rate
        assert sst.smidas_bound_lipschitz(eta, T, rho, w1, p, d) == pytest.approx(
            sst.smidas_rate_lipschitz(T, rho, w1, p, d))
        for f in (0.5, 2.0):
            moved = sst.smidas_bound_lipschitz(f * eta, T, rho, w1, p, d)
            assert moved > sst.smidas_bound_lipschitz(eta, T, rho, w1, p, d)
        assert sst.smidas_rate_lipschitz(T, rho, w1, p, d) <= sst.smidas_rate_lipschitz_as_printed(T, rho, w1, d)
        # case (14): Lemma 7's eta and bound, and the printed log-d form is larger
        eta14 = sst.smidas_eta_self_bounded(T, rho, w1, p0, p, d)
        val = sst.smidas_bound_self_bounded(eta14, T, rho, w1, p0, p, d)
        assert val <= sst.smidas_rate_self_bounded(T, rho, w1, p0, p, d) * (1 + 1e-12)
        assert sst.smidas_rate_self_bounded(T, rho, w1, p0, p, d) <= sst.smidas_rate_self_bounded_as_printed(
            T, rho, w1, p0, d) * (1 + 1e-12)
        # Proposition 4: a eta = K/(1+K)
        K = rng.uniform(0.1, 10)
        a = sst.smidas_kappa(p, d) * rho / 2
        assert a * sst.smidas_prop4_eta(K, rho, p, d) == pytest.approx(K / (1 + K))


def test_runtime_bounds_3_and_4_ratio():
    """Section 1.1.3: with k-sparse w* and dense +-1 examples, (4)/(3) = d/(k log d) up to the norms."""
    d, k = 10_000, 10
    w = np.zeros(d)
    w[:k] = 1.0
    r3 = sst.smidas_runtime_bound(0.01, d, np.abs(w).sum())
    r4 = sst.truncgrad_runtime_bound(0.01, d, float(w @ w), x2_sq=d)
    assert r4 / r3 == pytest.approx(d / (k * math.log(d)))


def test_loss_conditions_registered_with_the_losses_constants():
    assert sst.loss_condition_14("squared") == 2.0
    assert sst.loss_condition_14("logistic") == 0.5
    assert sst.loss_condition_13("logistic") == 1.0 and sst.loss_condition_13("hinge") == 1.0
    assert sst.loss_condition_13("squared") == math.inf


def test_mean_squared_row_norm(sparse_classification):
    from l1lab import Problem

    prob = Problem(*sparse_classification, "logistic", 0.1)
    X = prob.X.toarray()
    assert sst.mean_squared_row_norm(prob) == pytest.approx(np.mean(np.sum(X ** 2, axis=1)))
    assert sst.mean_squared_row_norm(Problem(X, prob.y, "logistic", 0.1)) == pytest.approx(
        sst.mean_squared_row_norm(prob))


def test_iterations_for_accuracy_exact_on_a_decimal_grid():
    """Where d Psi(0)/eps is a whole number in the decimals the user typed, the float quotient can land just above
    it; the count must still be the smallest T, computed here in rational arithmetic from the decimals."""
    from fractions import Fraction
    assert sst.scd_iterations_for_accuracy(0.1, 3, 0.1) == 2
    for d in (1, 3, 7, 10, 29):
        for i in range(1, 30):
            for j in range(1, 30):
                psi0, eps = Fraction(i, 10), Fraction(j, 100)
                expected = max(0, math.ceil(d * psi0 / eps) - 1)
                assert sst.scd_iterations_for_accuracy(j / 100, d, i / 10) == expected, (d, i / 10, j / 100)


def test_runs_for_confidence_at_the_powers_of_two():
    """r is the smallest integer with 2^-r <= delta: exactly r at delta = 2^-r, one more just below it."""
    for r in range(1, 40):
        delta = 2.0 ** -r
        assert sst.scd_runs_for_confidence(delta) == r
        assert sst.scd_runs_for_confidence(np.nextafter(delta, 0.0)) == r + 1
        if r > 1:
            assert sst.scd_runs_for_confidence(np.nextafter(delta, 1.0)) == r


def test_eq7_beta_bounds_the_second_derivative():
    """beta = 1 for (a - y)^2/2 and 1/4 for log(1 + exp(-ya)): the largest L'' over a grid of margins, computed
    here from the closed forms."""
    a = np.linspace(-30, 30, 600_001)
    logistic_second = np.exp(-np.abs(a)) / (1 + np.exp(-np.abs(a))) ** 2       # L'' = e^a/(1 + e^a)^2, even
    assert sst.loss_curvature_bound("logistic") == pytest.approx(logistic_second.max(), rel=1e-12) == 0.25
    assert sst.loss_curvature_bound("squared") == 1.0
    assert sst.loss_curvature_bound("hinge") == math.inf


def test_eq10_coordinate_step_minimizes_the_model():
    """The closed form of (10) against a numerical minimization of eta g + beta/2 eta^2 + lam |w + eta|."""
    from scipy.optimize import minimize_scalar

    rng = np.random.default_rng(3)
    for _ in range(200):
        w, g = rng.normal(size=2) * rng.choice([0.01, 1.0, 10.0], size=2)
        beta, lam = rng.choice([0.25, 1.0, 3.0]), rng.choice([0.0, 1e-3, 0.1, 2.0])
        model = lambda e: e * g + beta / 2 * e * e + lam * abs(w + e)           # noqa: E731
        eta = sst.coordinate_step(w, g, beta, lam)
        num = minimize_scalar(model, bounds=(-abs(w) - abs(g) / beta - 1, abs(w) + abs(g) / beta + 1),
                              method="bounded", options={"xatol": 1e-12})
        assert model(eta) <= num.fun + 1e-10
    assert sst.coordinate_step(0.3, 0.5, 1.0, 1.0) == -0.3        # the threshold stops at zero, never crosses it
    with pytest.raises(ValueError):
        sst.coordinate_step(0.0, 1.0, math.inf, 0.1)


@pytest.mark.parametrize("p", [2.0, 3.0, 2 * math.log(1000)])
def test_eq12_link_inverse_inverts_the_link_and_is_a_gradient(p):
    """f^{-1}(theta) of (12) is the gradient of ||theta||_p^2/2 (central differences) and f(f^{-1}(theta)) = theta
    with f_j(w) = sign(w_j)|w_j|^{q-1}/||w||_q^{q-2}, written here with numpy."""
    from l1lab.links import link_inverse

    theta = np.random.default_rng(1).normal(size=7)
    w = link_inverse(theta, p)
    q = p / (p - 1)
    f = np.sign(w) * np.abs(w) ** (q - 1) / np.sum(np.abs(w) ** q) ** ((q - 2) / q)
    np.testing.assert_allclose(f, theta, rtol=1e-9)
    half_sq = lambda t: 0.5 * np.sum(np.abs(t) ** p) ** (2 / p)                # noqa: E731
    h = 1e-6
    fd = np.array([(half_sq(theta + h * e) - half_sq(theta - h * e)) / (2 * h) for e in np.eye(7)])
    np.testing.assert_allclose(w, fd, rtol=1e-6, atol=1e-9)


# ---- Eq. (6): the loss derivatives ------------------------------------------------------------------------

def test_loss_derivative_is_the_derivative_of_the_loss():
    """Central differences of the losses written out here (not l1lab's) against eq. (6)."""
    values = {"squared": lambda a, y: (a - y) ** 2 / 2, "logistic": lambda a, y: math.log1p(math.exp(-y * a))}
    h = 1e-6
    for loss, f in values.items():
        for a, y in [(0.3, 1.0), (-2.0, -1.0), (4.0, 1.0), (0.0, -1.0), (1.5, 0.25)]:
            if loss == "logistic" and y not in (1.0, -1.0):
                continue
            fd = (f(a + h, y) - f(a - h, y)) / (2 * h)
            assert sst.loss_derivative(a, y, loss) == pytest.approx(fd, rel=1e-7, abs=1e-9)
    a = np.linspace(-3, 3, 7)
    got = sst.loss_derivative(a[:, None], np.array([-1.0, 1.0]), "logistic")
    assert got.shape == (7, 2) and np.all(np.abs(got) < 1)
    assert sst.loss_derivative(0.5, 1.0, "hinge") == -1.0 and sst.loss_derivative(1.5, 1.0, "hinge") == 0.0
    with pytest.raises(ValueError, match="unknown loss"):
        sst.loss_derivative(0.0, 1.0, "cubic")


# ---- Duchi et al. (2008), (9)-(11): the pivot characterization and the tree's test -----------------------

def test_pivot_rank_threshold_and_test_agree_with_lemma2_and_the_projection():
    from l1lab.projections import project_simplex
    from l1lab.theory import duchi2008 as dssc

    rng = np.random.default_rng(11)
    cases = [np.abs(rng.normal(size=n)) for n in (1, 2, 7, 50)]
    cases += [rng.integers(0, 4, size=30).astype(float), np.array([0.75, 0.75, 0.75, 0.25]), np.zeros(3) + 2.0]
    for u in cases:
        for frac in (1e-3, 0.1, 0.5, 0.999, 1.0):
            z = frac * u.sum()
            if z <= 0:
                continue
            rho = dssc.pivot_rank(u, z)
            w = project_simplex(u, z)
            assert rho == dssc.simplex_support_size(u, z) == np.count_nonzero(w > 0) or frac == 1.0
            assert dssc.pivot_threshold(u, z) == pytest.approx(dssc.simplex_theta(u, z), abs=1e-12 * u.max())
            tests = np.array([dssc.support_test(u, z, x) for x in u])
            assert np.array_equal(tests, w > 0) or frac == 1.0
            assert tests.sum() == rho
    with pytest.raises(ValueError, match=">= 0"):
        dssc.pivot_rank(np.array([1.0, -0.5]), 0.2)
    with pytest.raises(ValueError, match="sum"):
        dssc.pivot_threshold(np.array([0.1, 0.2]), 1.0)
    with pytest.raises(ValueError, match="sum"):
        dssc.support_test(np.array([0.1, 0.2]), 1.0, 0.15)
