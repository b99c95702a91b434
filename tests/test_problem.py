import numpy as np
import pytest
import scipy.sparse as sp
from comparators import sklearn_objective_value

from l1lab import Problem, reference_solution
from l1lab.data import make_classification, make_regression, scale_features


def test_rejects_bad_input():
    X = np.full((4, 3), 0.5)
    y = np.array([1.0, -1.0, 1.0, -1.0])
    with pytest.raises(ValueError, match="X has 4 rows but y has 3"):
        Problem(X, y[:3], "logistic", 0.1)
    with pytest.raises(ValueError, match="2-dimensional"):
        Problem(X.ravel(), y, "logistic", 0.1)
    Xn = X.copy()
    Xn[1, 1] = np.nan
    with pytest.raises(ValueError, match="NaN or infinite"):
        Problem(Xn, y, "logistic", 0.1)
    Xi = X.copy()
    Xi[0, 0] = np.inf
    with pytest.raises(ValueError, match="NaN or infinite"):
        Problem(sp.csr_matrix(Xi), y, "logistic", 0.1)
    with pytest.raises(ValueError, match="NaN or infinite"):
        Problem(X, np.array([1.0, np.nan, 1.0, 2.0]), "squared", 0.1)
    with pytest.raises(ValueError, match=r"labels in \{-1, \+1\}.*\[0\.0\]"):
        Problem(X, np.array([1.0, 0.0, 1.0, 0.0]), "logistic", 0.1)
    with pytest.raises(ValueError, match="labels"):
        Problem(X, np.array([1.0, 2.0, 1.0, 2.0]), "hinge", 0.1)
    with pytest.raises(ValueError, match="lam must be"):
        Problem(X, y, "logistic", -1e-3)
    with pytest.raises(ValueError, match="lam must be"):
        Problem(X, y, "logistic", np.nan)
    with pytest.raises(ValueError, match=r"\[-1, 1\].*scale_features"):
        Problem(3 * X, y, "logistic", 0.1)
    with pytest.raises(ValueError, match=r"\[-1, 1\].*scale_features"):
        Problem(sp.csc_matrix(3 * X), y, "logistic", 0.1)
    with pytest.raises(ValueError, match="empty data"):
        Problem(np.zeros((0, 3)), np.zeros(0), "squared", 0.1)
    with pytest.raises(ValueError, match="empty data"):
        Problem(np.zeros((4, 0)), y, "squared", 0.1)
    with pytest.raises(ValueError, match="unknown loss"):
        Problem(X, y, "absolute", 0.1)
    with pytest.raises(ValueError, match="real-valued"):
        Problem(X.astype(complex), y, "squared", 0.1)


def test_scale_features_then_accepted():
    X = np.array([[3.0, -0.2], [-6.0, 0.1], [1.0, 0.0]])
    Xs, c = scale_features(X, return_scale=True)
    assert np.abs(Xs).max() == 1.0
    np.testing.assert_allclose(Xs * c, X)
    Problem(Xs, np.ones(3), "squared", 0.1)
    S = scale_features(sp.csr_matrix(X))
    assert sp.issparse(S)
    np.testing.assert_allclose(S.toarray(), Xs)
    Z = scale_features(np.zeros((2, 2)))
    assert np.all(Z == 0)


def test_sparse_is_never_densified(sparse_classification):
    X, y = sparse_classification
    prob = Problem(X, y, "logistic", 1e-3)
    assert sp.issparse(prob.X) and prob.X.format == "csc"
    assert prob.nnz == X.nnz
    assert sp.issparse(prob.csr)
    with pytest.raises(ValueError, match="dense"):
        prob.rows


@pytest.mark.parametrize("loss", ["squared", "logistic", "hinge"])
def test_objective_and_gradient(loss, small_classification):
    X, y = small_classification
    prob = Problem(X, y, loss, 0.05)
    rng = np.random.default_rng(0)
    w = rng.standard_normal(prob.d) * 0.3
    z = X @ w
    L = prob.loss.value(z, y)
    assert prob.smooth(w) == pytest.approx(L.mean(), rel=1e-14)
    assert prob.objective(w) == pytest.approx(L.mean() + 0.05 * np.abs(w).sum(), rel=1e-14)
    if prob.loss.smooth:
        g = prob.gradient(w)
        h = 1e-6
        for j in range(0, prob.d, 7):
            e = np.zeros(prob.d)
            e[j] = h
            fd = (prob.smooth(w + e) - prob.smooth(w - e)) / (2 * h)
            assert g[j] == pytest.approx(fd, abs=1e-8)
    sparse = Problem(sp.csr_matrix(X), y, loss, 0.05)
    assert sparse.objective(w) == pytest.approx(prob.objective(w), rel=1e-13)
    np.testing.assert_allclose(sparse.gradient(w), prob.gradient(w), atol=1e-14)


def test_w_shape_checked(small_regression):
    prob = Problem(*small_regression, "squared", 0.1)
    with pytest.raises(ValueError, match="w must have shape"):
        prob.objective(np.zeros(prob.d + 1))


def test_lambda_max_gives_zero_solution(small_regression):
    X, y = small_regression
    lm = Problem(X, y, "squared", 0.1).lambda_max
    prob = Problem(X, y, "squared", lm)
    w, p = reference_solution(prob)
    assert np.all(w == 0) and p == pytest.approx(0.5 * np.mean(y ** 2))
    assert prob.optimality_residual(np.zeros(prob.d)) == 0.0
    below = Problem(X, y, "squared", 0.9 * lm)
    assert below.optimality_residual(np.zeros(prob.d)) > 0


def test_residual_undefined_for_hinge(small_classification):
    prob = Problem(*small_classification, "hinge", 0.1)
    with pytest.raises(ValueError, match="differentiable"):
        prob.optimality_residual(np.zeros(prob.d))


@pytest.mark.parametrize("lam_frac", [0.3, 0.05, 0.005])
def test_reference_squared_matches_sklearn_lasso(lam_frac):
    X, y, _ = make_regression(150, 60, 6, noise=0.2, seed=11)
    lam = lam_frac * Problem(X, y, "squared", 1.0).lambda_max
    prob = Problem(X, y, "squared", lam)
    w, p = reference_solution(prob)
    assert prob.relative_residual(w) <= 1e-10
    p_sk = sklearn_objective_value(prob)
    assert p <= p_sk * (1 + 1e-12)
    assert abs(p - p_sk) <= 1e-8 * abs(p)


@pytest.mark.parametrize("lam_frac", [0.3, 0.03, 0.003])
@pytest.mark.parametrize("sparse", [False, True])
def test_reference_logistic_matches_sklearn(lam_frac, sparse):
    X, y, _ = make_classification(200, 50, 5, flip=0.1, density=0.3 if sparse else 1.0, seed=12)
    lam = lam_frac * Problem(X, y, "logistic", 1.0).lambda_max
    prob = Problem(X, y, "logistic", lam)
    w, p = reference_solution(prob)
    assert prob.relative_residual(w) <= 1e-10
    p_sk = sklearn_objective_value(prob)
    assert p <= p_sk * (1 + 1e-12)
    assert abs(p - p_sk) <= 1e-8 * abs(p)


def test_reference_hinge_is_optimal_lp(small_classification):
    """The LP optimum is not beaten by random perturbations or by a subgradient method."""
    prob = Problem(*small_classification, "hinge", 0.02)
    w, p = reference_solution(prob)
    rng = np.random.default_rng(1)
    for _ in range(200):
        assert prob.objective(w + 1e-3 * rng.standard_normal(prob.d)) >= p - 1e-10
    assert p < prob.objective(np.zeros(prob.d))


def test_reference_is_cached(small_regression):
    prob = Problem(*small_regression, "squared", 0.01)
    w1, p1 = reference_solution(prob)
    w1[:] = 99.0  # a copy: mutating it must not corrupt the cache
    w2, p2 = reference_solution(prob)
    assert p1 == p2 and not np.any(w2 == 99.0)


def test_a_canonical_csc_matrix_is_read_in_place_and_any_other_sparse_input_copied():
    """A float64 CSC matrix with sorted indices and no duplicates is used as it is (no copy of its arrays, as an
    F-ordered dense array); one with duplicates or unsorted indices, another dtype or format is converted into a
    private canonical copy; the caller's matrix is never modified either way."""
    rng = np.random.default_rng(0)
    X = sp.random(30, 8, density=0.3, format="csc", random_state=0, data_rvs=lambda k: rng.uniform(-1, 1, k))
    y = rng.standard_normal(30)
    p = Problem(X, y, "squared", 0.1)
    assert np.shares_memory(p.X.data, X.data) and np.shares_memory(p.X.indices, X.indices)
    messy = sp.csc_matrix((np.r_[0.25, 0.25, -0.5], np.array([3, 3, 1]), np.array([0, 3] + [3] * 7)), shape=(30, 8))
    before = (messy.data.copy(), messy.indices.copy())
    q = Problem(messy, y, "squared", 0.1)
    assert not np.shares_memory(q.X.data, messy.data)
    assert q.X.has_canonical_format and q.X.nnz == 2 and q.X[3, 0] == 0.5
    np.testing.assert_array_equal(messy.data, before[0])
    np.testing.assert_array_equal(messy.indices, before[1])
    for other in (X.astype(np.float32), X.tocsr()):
        assert not np.shares_memory(Problem(other, y, "squared", 0.1).X.data, X.data)
    np.testing.assert_array_equal(Problem(X.astype(np.float32), y, "squared", 0.1).X.toarray(),
                                  X.astype(np.float32).astype(np.float64).toarray())
