"""The lecture's own code (the ``lesson`` cell of chapters/lower_bound.ipynb): its fully corrective forward greedy
selection chooses the same coordinates in the same order as :func:`l1lab.solvers.forward.forward_selection`, with
the same objective path and the same final fit, over seeds and problem sizes, on the lemma's distribution and on
a continuous design."""
import numpy as np
import pytest
from lessons import LESSON_IMPORTS, MAX_LESSON_LINES, lesson_cells, lesson_imports, lesson_namespace

from l1lab import Problem
from l1lab.data import lower_bound as lb
from l1lab.data import make_regression
from l1lab.solvers.forward import forward_selection

NS = lesson_namespace("lower_bound")


def _compare(X, y, s_max):
    order, objective, w = NS["forward_greedy"](X, y, s_max=s_max)
    path = forward_selection(Problem(X, y, loss="squared", lam=0.0), s_max=s_max)
    np.testing.assert_array_equal(order, path.order)
    np.testing.assert_allclose(objective, path.objective, rtol=0, atol=1e-12)
    np.testing.assert_allclose(w, path.weights[s_max], rtol=0, atol=1e-10)


def test_the_lesson_is_short_plain_numpy():
    (src,) = lesson_cells("lower_bound")
    assert lesson_imports(src) <= LESSON_IMPORTS
    assert len(src.strip().splitlines()) <= MAX_LESSON_LINES


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("B, m, d", [(2, 200, 30), (2, 500, 40), (3, 1000, 100)])
def test_forward_greedy_is_l1labs_on_the_lemmas_distribution(B, m, d, seed):
    X, y = lb.sample(B, m, d=d, seed=seed)
    _compare(X, y, s_max=d)


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("m, d, s_max", [(60, 25, 10), (150, 80, 40)])
def test_forward_greedy_is_l1labs_on_a_continuous_design(m, d, s_max, seed):
    X, y, _ = make_regression(m, d, 5, noise=0.1, seed=seed)
    _compare(X, y, s_max=s_max)


def test_the_page_run():
    """The lecture's visible run: 500 examples, d = 40, all 40 steps."""
    X, y = lb.sample(B=2, m=500, d=40, seed=0)
    _compare(X, y, s_max=40)
