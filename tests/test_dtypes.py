"""float32 and integer inputs are converted to float64, exactly, at the API boundary.

The documented behaviour (``l1lab.Problem``'s docstring, ``l1lab._validate``, ``api.md``): every array argument of
a real-valued kind is converted to float64 before any computation.  A float32 number, and an integer up to 2**53,
is exactly a float64, so the conversion loses nothing and a float32 or integer input gives *bit for bit* the
result of its float64 conversion: the tolerance here is zero.  (The conversion does not undo float32's own
rounding: X.astype(np.float32) differs from X; what is compared is the float32 input with its exact float64 copy.)
"""
import numpy as np
import pytest
import scipy.sparse as sp

import l1lab
from l1lab import Problem, solvers
from l1lab.data import scale_features
from l1lab.projections import (
    METHODS,
    SparseL1BallProjector,
    l1_ball_threshold,
    project_l1_ball,
    project_simplex,
    project_weighted_l1_ball,
    simplex_threshold,
)

M, D = 8, 5
_RNG = np.random.default_rng(7)
X32 = _RNG.uniform(-1.0, 1.0, (M, D)).astype(np.float32)
XINT = _RNG.integers(-1, 2, (M, D)).astype(np.int64)          # entries in {-1, 0, 1}: inside [-1, 1]
Y32 = _RNG.standard_normal(M).astype(np.float32)
YINT = _RNG.integers(-3, 4, M).astype(np.int32)
LABELS_INT = np.array([1, -1, 1, 1, -1, -1, 1, -1], dtype=np.int8)


def _same(a, b):
    """Bit-for-bit equality of two results (a Result, an OnlineResult, a (w, value) tuple, arrays, numbers)."""
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, l1lab.Result):
        return _same(a.w, b.w) and _same(a.trace.objective, b.trace.objective) and _same(a.trace.nnz, b.trace.nnz)
    if isinstance(a, solvers.online.OnlineResult):
        return _same(a.w, b.w) and _same(a.costs, b.costs)
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b, equal_nan=True)


# every solver of a Problem, with a tiny budget: (name, loss, lam, call)
RUNS = [
    ("scd", "squared", 0.05, lambda p: solvers.scd(p, 20, seed=1)),
    ("cyclic_cd", "logistic", 0.05, lambda p: solvers.cyclic_cd(p, 20)),
    ("gcd", "squared", 0.05, lambda p: solvers.gcd(p, 10)),
    ("smidas", "logistic", 0.05, lambda p: solvers.smidas(p, 20, 0.1, seed=2)),
    ("truncgrad", "squared", 0.05, lambda p: solvers.truncgrad(p, 20, 0.1, seed=2)),
    ("sgd", "squared", 0.05, lambda p: solvers.sgd(p, 20, 0.1, seed=2)),
    ("working_set_cd", "logistic", 0.05, lambda p: solvers.working_set_cd(p, tol=1e-8)),
    ("reference_solution", "squared", 0.05, lambda p: solvers.reference_solution(p)),
    ("projected_gradient", "squared", 0.0, lambda p: solvers.projected_gradient(p, 20, 1.0, seed=3)),
    ("exponentiated_gradient", "squared", 0.0, lambda p: solvers.exponentiated_gradient(p, 20, 1.0, seed=3)),
    ("smg", "logistic", 0.0, lambda p: solvers.smg(p, 0.05, 1.0, n_steps=20, seed=4)),
    ("sg_l2", "logistic", 0.0, lambda p: solvers.sg_l2(p, 0.05, 1.0, n_steps=20, seed=4)),
    ("pgs", "logistic", 0.0, lambda p: solvers.pgs(p, 20, 0.1, seed=5)),
    ("lbfgs", "logistic", 0.0, lambda p: solvers.lbfgs(p, 0.1, max_iter=20)),
]


def _inputs(loss, kind, sparse):
    X = X32 if kind == "float32" else XINT
    y = (Y32 if kind == "float32" else YINT) if loss == "squared" else LABELS_INT.astype(
        np.float32 if kind == "float32" else np.int8)
    if sparse:
        X = sp.csr_matrix(X)
    return X, y


@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "sparse"])
@pytest.mark.parametrize("kind", ["float32", "int"])
def test_problem_stores_float64_bit_for_bit(kind, sparse):
    X, y = _inputs("squared", kind, sparse)
    X64 = X.astype(np.float64)
    p, p64 = Problem(X, y, "squared", 0.1), Problem(X64, y.astype(np.float64), "squared", 0.1)
    Xa = p.X.toarray() if sparse else p.X
    assert Xa.dtype == np.float64 and p.y.dtype == np.float64
    assert np.array_equal(Xa, p64.X.toarray() if sparse else p64.X) and np.array_equal(p.y, p64.y)
    w = np.array([0.5, -0.25, 0.0, 1.0, -0.75], dtype=np.float32)
    assert p.objective(w) == p64.objective(w.astype(np.float64))
    assert np.array_equal(p.gradient(w), p64.gradient(w.astype(np.float64)))


@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "sparse"])
@pytest.mark.parametrize("kind", ["float32", "int"])
@pytest.mark.parametrize(("name", "loss", "lam", "run"), RUNS, ids=[r[0] for r in RUNS])
def test_every_solver_gives_the_float64_result_bit_for_bit(name, loss, lam, run, kind, sparse):
    X, y = _inputs(loss, kind, sparse)
    got = run(Problem(X, y, loss, lam))
    expected = run(Problem(X.astype(np.float64), y.astype(np.float64), loss, lam))
    assert _same(got, expected), f"{name} on {kind} data differs from its float64 conversion"


@pytest.mark.parametrize("kind", ["float32", "int"])
def test_estimators_convert_exactly(kind):
    from l1lab.estimators import L1Classifier, L1Regressor

    X = (X32 if kind == "float32" else XINT) * 3    # out of [-1, 1]: scale="auto" divides, the same for both
    for est, y in ((L1Regressor(lam=0.01), Y32 if kind == "float32" else YINT),
                   (L1Classifier(lam=0.01), LABELS_INT)):
        a = type(est)(**est.get_params()).fit(X, y)
        b = type(est)(**est.get_params()).fit(X.astype(np.float64), y if est._loss == "logistic" else
                                              y.astype(np.float64))
        assert np.array_equal(a.coef_, b.coef_) and np.array_equal(a.intercept_, b.intercept_)
        assert np.array_equal(a.predict(X), b.predict(X.astype(np.float64)))


@pytest.mark.parametrize("kind", ["float32", "int"])
def test_data_helpers_convert_exactly(kind):
    X = (X32 if kind == "float32" else XINT) * 3
    assert np.array_equal(scale_features(X), scale_features(X.astype(np.float64)))
    assert scale_features(X).dtype == np.float64
    v = (X32 if kind == "float32" else XINT)[0]
    assert np.array_equal(l1lab.links.link(v, 3.0), l1lab.links.link(v.astype(np.float64), 3.0))
    assert np.array_equal(l1lab.losses.soft_threshold(v, 0.1), l1lab.losses.soft_threshold(v.astype(np.float64), 0.1))


# ---- projections: converted to float64 exactly
V32 = np.array([0.3, -1.2, 0.0, 2.5, -0.4, 0.9], dtype=np.float32)
VINT = np.array([3, -1, 0, 2, -4, 1], dtype=np.int64)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("v", [V32, VINT], ids=["float32", "int"])
@pytest.mark.parametrize("f", [project_l1_ball, project_simplex, l1_ball_threshold, simplex_threshold],
                         ids=lambda f: f.__name__)
def test_projections_convert_exactly(f, v, method):
    got, expected = f(v, 1.0, method=method), f(v.astype(np.float64), 1.0, method=method)
    assert np.asarray(got).dtype == np.float64 and np.array_equal(got, expected)


@pytest.mark.parametrize("v", [V32, VINT], ids=["float32", "int"])
def test_weighted_and_sparse_projections_convert_exactly(v):
    a = np.array([1, 2, 1, 3, 1, 2], dtype=v.dtype)
    got = project_weighted_l1_ball(v, a, 1.0)
    assert got.dtype == np.float64
    assert np.array_equal(got, project_weighted_l1_ball(v.astype(np.float64), a.astype(np.float64), 1.0))
    t, t64 = SparseL1BallProjector(v.size, 1.0), SparseL1BallProjector(v.size, 1.0)
    idx = np.array([0, 3, 5])
    t.update(idx, v[idx])
    t64.update(idx, v[idx].astype(np.float64))
    assert np.array_equal(t.to_dense(), t64.to_dense())
