"""The fast-solver lecture's own numpy implementation (its ``lesson`` cell) gives l1lab's iterates of SCD with
coordinate steps for the same seed."""
import numpy as np
import pytest
from lessons import lesson_cells, lesson_imports, lesson_namespace

import l1lab
from l1lab.data import make_regression

NS = lesson_namespace("fast_cd")


def test_the_lesson_is_short_plain_numpy():
    for src in lesson_cells("fast_cd"):
        assert lesson_imports(src) <= {"numpy", "math"}
        assert len(src.strip().splitlines()) <= 40


@pytest.mark.parametrize("m,d", [(60, 15), (200, 50)])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_lesson_coordinate_steps_give_l1labs_iterates(m, d, seed):
    X, y, _ = make_regression(m, d, 3, seed=seed + 10)
    prob = l1lab.Problem(X, y, loss="squared", lam=0.02)
    T = 7 * d
    ours = NS["cd_coordinate_numpy"](np.asarray(X), y, prob.lam, T, seed)
    ref = l1lab.solvers.scd(prob, n_iter=T, seed=seed, step="coordinate").w
    np.testing.assert_allclose(ours, ref, rtol=1e-10, atol=1e-12)
    assert np.count_nonzero(ref) > 0     # the comparison is not between two zero vectors
    # and it is not Algorithm 1: the global step gives other iterates
    assert not np.allclose(ref, l1lab.solvers.scd(prob, n_iter=T, seed=seed).w)


def test_lesson_soft_threshold_is_l1labs():
    from l1lab.losses import soft_threshold

    for v in np.random.default_rng(0).normal(size=50):
        for tau in (0.0, 0.3, 1.0):
            assert NS["soft_threshold"](v, tau) == soft_threshold(v, tau)
