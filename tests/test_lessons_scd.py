"""The SCD lecture's own numpy implementation (its ``lesson`` cell) gives l1lab's iterates for the same seed."""
import numpy as np
import pytest
from lessons import lesson_cells, lesson_imports, lesson_namespace

import l1lab
from l1lab.data import make_classification, make_regression

NS = lesson_namespace("scd")


def test_the_lesson_is_short_plain_numpy():
    for src in lesson_cells("scd"):
        assert lesson_imports(src) <= {"numpy", "math"}
        assert len(src.strip().splitlines()) <= 40


@pytest.mark.parametrize("loss", ["logistic", "squared"])
@pytest.mark.parametrize("m,d", [(60, 15), (200, 50)])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_lesson_scd_gives_l1labs_iterates(loss, m, d, seed):
    if loss == "squared":
        X, y, _ = make_regression(m, d, 3, seed=seed + 10)
    else:
        X, y, _ = make_classification(m, d, 3, seed=seed + 10)
    prob = l1lab.Problem(X, y, loss=loss, lam=0.02)
    T = 7 * d
    ours = NS["scd_numpy"](np.asarray(X), y, prob.lam, prob.loss.beta, T, seed, loss=loss)
    ref = l1lab.solvers.scd(prob, n_iter=T, seed=seed).w
    np.testing.assert_allclose(ours, ref, rtol=1e-10, atol=1e-12)
    assert np.count_nonzero(ref) > 0     # the comparison is not between two zero vectors


def test_lesson_soft_threshold_is_l1labs():
    from l1lab.losses import soft_threshold

    for v in np.random.default_rng(0).normal(size=50):
        for tau in (0.0, 0.3, 1.0):
            assert NS["soft_threshold"](v, tau) == soft_threshold(v, tau)
