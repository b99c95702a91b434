"""The lesson cells of chapters/l1_problem_optimality.ipynb (the page's own numpy code) give l1lab's numbers:
soft-thresholding against l1lab.losses.soft_threshold, the objective against Problem.objective and lambda_max
against Problem.lambda_max, over several seeds, two problem sizes and both losses, at a tight tolerance."""
import numpy as np
import pytest
from lessons import LESSON_IMPORTS, MAX_LESSON_LINES, lesson_cells, lesson_imports, lesson_namespace

from l1lab import Problem
from l1lab.data import make_classification, make_regression
from l1lab.losses import soft_threshold

NAME = "l1_problem_optimality"
SEEDS = (0, 1, 2, 3)
SIZES = ((30, 8), (200, 50))


@pytest.fixture(scope="module")
def ns():
    return lesson_namespace(NAME)


def test_lesson_cells_are_short_plain_numpy():
    cells = lesson_cells(NAME)
    assert cells
    for src in cells:
        assert lesson_imports(src) <= LESSON_IMPORTS
        assert len(src.strip().splitlines()) <= MAX_LESSON_LINES


def _problem(loss, m, d, seed):
    if loss == "squared":
        X, y, _ = make_regression(m, d, max(1, d // 10), noise=0.1, seed=seed)
    else:
        X, y, _ = make_classification(m, d, max(1, d // 10), seed=seed)
    return X, y


@pytest.mark.parametrize("seed", SEEDS)
def test_soft_threshold_is_l1labs(ns, seed):
    rng = np.random.default_rng(seed)
    v = rng.normal(scale=2.0, size=1000)
    v[:4] = (0.0, 0.7, -0.7, 3.0)                       # at zero and exactly at the threshold
    for tau in (0.0, 0.7, rng.uniform(0.1, 3.0)):
        ours = ns["soft_threshold"](v, tau)
        np.testing.assert_array_equal(ours + 0.0, soft_threshold(v, tau))


@pytest.mark.parametrize("loss", ["squared", "logistic"])
@pytest.mark.parametrize("m,d", SIZES)
@pytest.mark.parametrize("seed", SEEDS)
def test_objective_and_lambda_max_are_l1labs(ns, loss, m, d, seed):
    X, y = _problem(loss, m, d, seed)
    rng = np.random.default_rng(100 + seed)
    lam = rng.uniform(1e-3, 0.2)
    prob = Problem(X, y, loss, lam)
    for w in (np.zeros(d), rng.normal(size=d), 30.0 * rng.normal(size=d)):   # large margins: no overflow
        ours = ns["objective"](X, y, w, lam, loss)
        assert np.isfinite(ours)
        assert ours == pytest.approx(prob.objective(w), rel=1e-12, abs=1e-14)
    assert ns["lambda_max"](X, y, loss) == pytest.approx(prob.lambda_max, rel=1e-12, abs=1e-15)


def test_lesson_lambda_max_is_the_threshold_of_the_reference_solution(ns):
    from l1lab import reference_solution
    X, y = _problem("logistic", 60, 12, 5)
    lmax = ns["lambda_max"](X, y, "logistic")
    assert not reference_solution(Problem(X, y, "logistic", lmax))[0].any()
    assert reference_solution(Problem(X, y, "logistic", 0.99 * lmax))[0].any()


def test_unknown_loss_is_refused(ns):
    with pytest.raises(ValueError, match="unknown loss"):
        ns["objective"](np.zeros((2, 2)), np.ones(2), np.zeros(2), 0.1, "hinge")
