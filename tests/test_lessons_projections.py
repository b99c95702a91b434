"""The lesson cells of the two projection lectures (the pages' own numpy code) give l1lab's numbers, over several
seeds and two sizes, at a tight tolerance:

* ``chapters/projections.ipynb``: the sort-based simplex and l1-ball projections (Figure 1 of Duchi et al. 2008 and
  the reduction (8)) against ``l1lab.projections``, on Gaussian vectors, vectors with ties and vectors with zeros;
* ``chapters/projections_linear.ipynb``: the pivot threshold (Figure 2) and Condat's threshold against
  ``simplex_threshold``;
* ``chapters/projections_sparse.ipynb``: the descent of Figure 3 on the keys of a sparse step against the threshold
  that ``SparseL1BallProjector.update`` applies (and the dense threshold), and stochastic projected subgradient
  against ``l1lab.solvers.projected_gradient`` for the same seed.
"""
import numpy as np
import pytest
from lessons import LESSON_IMPORTS, MAX_LESSON_LINES, lesson_cells, lesson_imports, lesson_namespace

from l1lab import Problem
from l1lab.data import make_classification
from l1lab.projections import (
    SparseL1BallProjector,
    l1_ball_threshold,
    project_l1_ball,
    project_simplex,
    simplex_threshold,
)
from l1lab.solvers import projected_gradient

SEEDS = (0, 1, 2, 3)
SIZES = (7, 300)
TOL = 1e-12


@pytest.fixture(scope="module")
def dense():
    return lesson_namespace("projections")


@pytest.fixture(scope="module")
def linear():
    return lesson_namespace("projections_linear")


@pytest.fixture(scope="module")
def sparse():
    return lesson_namespace("projections_sparse")


@pytest.mark.parametrize("name", ["projections", "projections_linear", "projections_sparse"])
def test_lesson_cells_are_short_plain_numpy(name):
    cells = lesson_cells(name)
    assert len(cells) >= 2
    for src in cells:
        assert lesson_imports(src) <= LESSON_IMPORTS
        assert len(src.strip().splitlines()) <= MAX_LESSON_LINES


def _vectors(rng, n):
    """Gaussian entries of a random scale, integer entries (many ties), and a vector with many zeros."""
    sparse = rng.standard_normal(n)
    sparse[rng.random(n) < 0.6] = 0.0
    return [rng.standard_normal(n) * rng.uniform(0.1, 10.0), rng.integers(-3, 4, n).astype(float), sparse]


def _radii(rng, v):
    """Radii from tiny to larger than ||v||_1 (the point inside the ball)."""
    a = max(float(np.abs(v).max()), 1.0)
    return [1e-3 * a, float(rng.uniform(0.05, 2.0)) * a, 2.0 * float(np.abs(v).sum()) + 1.0]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("n", SIZES)
def test_sort_projections_are_l1labs(dense, seed, n):
    rng = np.random.default_rng(seed)
    for v in _vectors(rng, n):
        scale = max(1.0, float(np.abs(v).max()))
        for z in _radii(rng, v):
            w = dense["project_simplex"](v.copy(), z)
            assert np.abs(w - project_simplex(v, z, method="sort")).max() <= TOL * scale
            assert np.abs(w - project_simplex(v, z)).max() <= TOL * scale
            b = dense["project_l1_ball"](v.copy(), z)
            assert np.abs(b - project_l1_ball(v, z)).max() <= TOL * scale


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("n", SIZES)
def test_pivot_and_condat_thresholds_are_l1labs(linear, seed, n):
    rng = np.random.default_rng(seed)
    for v in _vectors(rng, n):
        scale = max(1.0, float(np.abs(v).max()))
        for u in (v, np.abs(v)):
            for z in _radii(rng, u)[:2]:
                ref = simplex_threshold(u, z, method="pivot")
                assert abs(linear["pivot_threshold"](u.copy(), z, np.random.default_rng(seed)) - ref) <= TOL * scale
                assert abs(linear["condat_threshold"](u.copy(), z) - simplex_threshold(u, z, method="condat")) \
                    <= TOL * scale
                assert abs(ref - simplex_threshold(u, z, method="sort")) <= TOL * scale


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("n,k", [(60, 6), (2000, 50)])
def test_tree_threshold_is_the_projectors(sparse, seed, n, k):
    rng = np.random.default_rng(seed)
    z = 4.0
    tree = SparseL1BallProjector(n, z)
    for _ in range(30):
        idx, g = rng.choice(n, k, replace=False), rng.standard_normal(k)
        v = tree.to_dense()
        v[idx] += g
        shift = tree.theta_total
        theta = sparse["tree_threshold"](np.abs(v[v != 0]) + shift, shift, z)
        assert abs(theta - l1_ball_threshold(v, z)) <= TOL * max(1.0, shift)
        assert abs(theta - tree.update(idx, g)) <= TOL * max(1.0, shift)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("m,d,z", [(60, 20, 1.0), (200, 150, 3.0)])
def test_projected_sgd_is_projected_gradient(sparse, seed, m, d, z):
    X, y, _ = make_classification(m, d, 4, flip=0.1, seed=seed)
    X = np.asarray(X, dtype=np.float64)
    T, eta0 = 600, 0.5
    w = sparse["projected_sgd"](X, y, z, eta0, T, seed)
    ref = projected_gradient(Problem(X, y, "logistic", lam=0.0), T, z, eta0=eta0, seed=seed, n_checkpoints=2).w
    assert np.abs(w).sum() <= z * (1 + 1e-12)
    assert np.abs(w - ref).max() <= TOL
