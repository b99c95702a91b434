import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from l1lab import Problem, log_checkpoints
from l1lab.data import make_classification, make_regression


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 10 ** 9), st.integers(2, 200))
def test_checkpoints_are_increasing_and_include_ends(n, k):
    c = log_checkpoints(n, k)
    assert c[0] == 0 and c[-1] == n
    assert np.all(np.diff(c) > 0)
    assert len(c) <= k + 1


def test_checkpoints_errors():
    with pytest.raises(ValueError):
        log_checkpoints(-1)
    with pytest.raises(ValueError):
        log_checkpoints(10, 1)


def test_generators_respect_the_feature_bound_and_are_reproducible():
    for kind in ("uniform", "sign"):
        X, y, w = make_regression(50, 30, 3, density=1.0, kind=kind, seed=1)
        assert np.abs(X).max() <= 1 and np.count_nonzero(w) == 3
        assert np.mean(y ** 2) == pytest.approx(1.0)
        X2, y2, _ = make_regression(50, 30, 3, density=1.0, kind=kind, seed=1)
        np.testing.assert_array_equal(X, X2)
        np.testing.assert_array_equal(y, y2)
    Xs, ys, _ = make_classification(100, 40, 4, density=0.1, seed=2)
    assert sp.issparse(Xs) and abs(Xs.nnz / 4000 - 0.1) < 0.01
    assert set(np.unique(ys)) <= {-1.0, 1.0}
    Problem(Xs, ys, "logistic", 0.1)


def test_generator_errors():
    with pytest.raises(ValueError, match="density"):
        make_regression(10, 5, 2, density=0)
    with pytest.raises(ValueError, match="k <= d"):
        make_regression(10, 5, 6)
    with pytest.raises(ValueError, match="flip"):
        make_classification(10, 5, 2, flip=0.5)
    with pytest.raises(ValueError, match="kind"):
        make_regression(10, 5, 2, kind="gauss")


def test_add_random_features():
    from l1lab.data import add_random_features

    X, _, _ = make_classification(500, 5, 2, seed=0)
    S = add_random_features(X, 200, "sparse", seed=1)
    assert sp.issparse(S) and S.shape == (500, 205)
    extra = S[:, 5:].toarray()
    assert set(np.unique(extra)) <= {0.0, 1.0} and abs(extra.mean() - 0.05) < 0.005
    np.testing.assert_array_equal(S[:, :5].toarray(), X)
    D = add_random_features(X, 200, "dense", seed=1)
    assert isinstance(D, np.ndarray) and set(np.unique(D[:, 5:])) == {-1.0, 1.0}
    assert abs(D[:, 5:].mean()) < 0.01
    with pytest.raises(ValueError, match="kind"):
        add_random_features(X, 10, "gaussian")
