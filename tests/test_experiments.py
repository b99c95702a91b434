"""l1lab.experiments: many seeds stacked checkpoint by checkpoint."""
import numpy as np
import pytest

import l1lab
from l1lab import reference_solution
from l1lab.data import make_regression
from l1lab.experiments import SeedRuns, run_seeds


@pytest.fixture(scope="module")
def problem():
    X, y, _ = make_regression(40, 12, 3, seed=1)
    return l1lab.Problem(X, y, loss="squared", lam=1e-2)


def test_shapes_and_alignment(problem):
    runs = run_seeds(l1lab.solvers.scd, problem, seeds=[3, 5, 7, 11], n_iter=200, n_checkpoints=20)
    n_cp = len(runs.iteration)
    assert runs.seeds == (3, 5, 7, 11)
    assert runs.n_seeds == 4 and len(runs) == n_cp
    for name in ("data_accesses", "objective", "nnz", "seconds"):
        assert getattr(runs, name).shape == (4, n_cp)
    assert runs.w.shape == (4, problem.d)
    single = l1lab.solvers.scd(problem, 200, seed=5, n_checkpoints=20)
    np.testing.assert_array_equal(runs.iteration, single.trace.iteration)
    np.testing.assert_array_equal(runs.objective[1], single.trace.objective)
    np.testing.assert_array_equal(runs.w[1], single.w)


def test_int_seeds_means_range(problem):
    runs = run_seeds(l1lab.solvers.scd, problem, 3, n_iter=50)
    assert runs.seeds == (0, 1, 2)


def test_gap_and_summary_match_numpy(problem):
    runs = run_seeds(l1lab.solvers.scd, problem, range(5), n_iter=120, n_checkpoints=10)
    _, p_star = reference_solution(problem)
    objs = np.vstack([l1lab.solvers.scd(problem, 120, seed=s, n_checkpoints=10).trace.objective for s in range(5)])
    g = objs - p_star
    np.testing.assert_array_equal(runs.gap(p_star), g)
    s = runs.gap_summary(p_star)
    np.testing.assert_allclose(s.mean, g.mean(axis=0), rtol=0, atol=1e-15)
    np.testing.assert_array_equal(s.min, g.min(axis=0))
    np.testing.assert_array_equal(s.max, g.max(axis=0))
    np.testing.assert_array_equal(s.iteration, runs.iteration)
    assert np.all(s.min <= s.mean + 1e-15) and np.all(s.mean <= s.max + 1e-15)


def test_misaligned_checkpoints_raise(problem):
    a = l1lab.solvers.scd(problem, 100, seed=0)
    b = l1lab.solvers.scd(problem, 150, seed=1)
    with pytest.raises(ValueError, match="different iteration checkpoints"):
        SeedRuns.from_results([a, b], seeds=[0, 1])


def test_bad_seed_arguments(problem):
    with pytest.raises(ValueError):
        run_seeds(l1lab.solvers.scd, problem, [], n_iter=10)
    with pytest.raises(ValueError):
        run_seeds(l1lab.solvers.scd, problem, 0, n_iter=10)
    with pytest.raises(ValueError, match="seeds"):
        run_seeds(l1lab.solvers.scd, problem, 2, n_iter=10, seed=4)
    with pytest.raises(ValueError):
        SeedRuns.from_results([])
