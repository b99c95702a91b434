import os

import numpy as np
import pytest
import scipy.sparse as sp
from threadpoolctl import threadpool_limits

from l1lab.data import make_classification, make_regression

#: One BLAS thread in every test process.  The suite runs on as many processes as there are cores (``pytest -n 2``),
#: and OpenBLAS's own threads on top of them oversubscribe the cores, where its waiting threads spin: on a busy
#: 2-core machine numpy's lstsq of a 1000 x 100 system (tests/test_lessons_lower_bound.py) took 16 s with two
#: threads and 0.6 s with one.  (The book's data functions already run their solves with one BLAS thread; what a
#: thread count changes is the rounding of BLAS reductions, which no test relies on.)
_ONE_BLAS_THREAD = threadpool_limits(limits=1, user_api="blas")

#: The tests compute every result they read: no download of the book's published result files
#: (l1lab.data.results), which would also wait on a host an offline machine cannot reach.
os.environ["L1LAB_RESULTS_URL"] = ""


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

