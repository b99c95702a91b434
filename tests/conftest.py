import numpy as np
import pytest
import scipy.sparse as sp

from l1lab.data import make_classification, make_regression


@pytest.fixture(scope="session")
def small_regression():
    X, y, _ = make_regression(120, 40, 5, noise=0.1, seed=3)
    return X, y


@pytest.fixture(scope="session")
def small_classification():
    X, y, _ = make_classification(150, 30, 4, flip=0.1, seed=4)
    return X, y


@pytest.fixture(scope="session")
def sparse_classification():
    X, y, _ = make_classification(300, 120, 6, flip=0.05, density=0.1, seed=5)
    assert sp.issparse(X)
    return X, y


@pytest.fixture
def rng():
    return np.random.default_rng(12345)

