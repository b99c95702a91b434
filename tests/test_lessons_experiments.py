"""The lecture "The experiments of Section 4": its own numpy code (the cells tagged ``lesson``) against l1lab.

The page counts the data accesses of a step of each algorithm, the steps a budget of passes buys, the data
accesses of a run after each step, and chooses the step size on a grid.  Here, over several seeds and two
problem sizes, sparse and dense: the counts equal the traces of l1lab's solvers exactly, the steps equal those
of :func:`l1lab.experiments.run_sweep`, and the choice of eta equals :meth:`l1lab.experiments.Sweep.best_eta`.
"""
import math

import numpy as np
import pytest
import scipy.sparse as sp
from lessons import lesson_cells, lesson_imports, lesson_namespace

from l1lab import Problem
from l1lab.data.real import Dataset
from l1lab.experiments import PAPER_SOLVERS, Sweep, SweepRecord, SweepTask, run_sweep
from l1lab.solvers import gcd, scd, smidas, truncgrad
from l1lab.trace import Result, Trace

SEEDS = (0, 1, 2)
SIZES = ((60, 40), (300, 120))


@pytest.fixture(scope="module")
def ns():
    return lesson_namespace("experiments")


def test_the_lesson_is_plain_numpy():
    cells = lesson_cells("experiments")
    assert cells
    for src in cells:
        assert lesson_imports(src) <= {"numpy", "math"}


def _problem(seed, m, d, sparse):
    rng = np.random.default_rng(seed)
    if sparse:
        X = sp.random(m, d, density=0.1, format="csr", random_state=seed, data_rvs=lambda n: rng.uniform(-1, 1, n))
    else:
        X = rng.uniform(-1, 1, size=(m, d))          # no exact zero: l1lab charges a dense column m entries
    y = np.where(rng.random(m) < 0.5, -1.0, 1.0)
    return X, y


@pytest.mark.parametrize("sparse", [True, False], ids=["sparse", "dense"])
@pytest.mark.parametrize("m,d", SIZES)
@pytest.mark.parametrize("seed", SEEDS)
def test_data_accesses_equal_l1lab_traces(ns, seed, m, d, sparse):
    X, y = _problem(seed, m, d, sparse)
    prob = Problem(X, y, loss="logistic", lam=1e-2)
    cost = ns["cost_per_step"](X)
    steps = ns["steps_for_budget"](X, 2.0)
    assert steps["scd"] == 2 * d and steps["smidas"] == steps["truncgrad"] == 2 * m
    runs = {"scd": scd(prob, steps["scd"], seed=seed, n_checkpoints=12),
            "smidas": smidas(prob, steps["smidas"], eta=0.1, seed=seed, n_checkpoints=12),
            "truncgrad": truncgrad(prob, steps["truncgrad"], eta=0.1, seed=seed, n_checkpoints=12)}
    for name, res in runs.items():
        mine = ns["data_accesses"](cost[name], steps[name], seed)
        assert mine.shape == (steps[name],)
        at = np.asarray(res.trace.iteration[1:]) - 1
        np.testing.assert_array_equal(mine[at], res.trace.data_accesses[1:], err_msg=name)
    # GCD: every step reads all of X and the column it updates
    res = gcd(prob, steps["gcd"], n_checkpoints=5)
    t = np.asarray(res.trace.iteration[1:], dtype=float)
    nnz = cost["scd"].sum()
    if sparse:
        lo, hi = t * (nnz + cost["scd"].min()), t * (nnz + cost["scd"].max())
        assert np.all(lo <= res.trace.data_accesses[1:]) and np.all(res.trace.data_accesses[1:] <= hi)
    else:
        np.testing.assert_array_equal(cost["gcd"], np.full(d, nnz + m))
        np.testing.assert_array_equal(res.trace.data_accesses[1:], t * (nnz + m))


@pytest.mark.parametrize("epochs", [0.5, 3.0, 30.0])
@pytest.mark.parametrize("m,d", SIZES)
def test_steps_equal_run_sweep(ns, m, d, epochs):
    for sparse in (True, False):
        X, y = _problem(0, m, d, sparse)
        ds = Dataset.from_arrays("toy", X, y)
        sw = run_sweep(ds, solvers=PAPER_SOLVERS, lams=(1e-2,), etas=(0.1,), seeds=1, epochs=epochs, n_checkpoints=4,
                       cache_dir=False, progress=False)
        mine = ns["steps_for_budget"](X, epochs)
        for rec in sw.records:
            assert mine[rec.task.solver] == rec.task.n_iter, (rec.task.solver, sparse)


def _sweep(grid, finals):
    records = []
    for eta, val in zip(grid, finals):
        trace = Trace(iteration=np.array([0, 1]), data_accesses=np.array([0.0, 1.0]),
                      objective=np.array([math.log(2), val]), nnz=np.array([0, 1]), seconds=np.zeros(2))
        records.append(SweepRecord(SweepTask("toy", "smidas", 1e-2, eta, 0, 1), Result(w=np.zeros(3), trace=trace),
                                   key=f"{eta}", cached=False))
    meta = {"toy": {"label": "toy", "offline": False, "fingerprint": "x", "shape": (1, 3)}}
    return Sweep(records=records, datasets=meta)


@pytest.mark.parametrize("seed", range(6))
def test_choose_eta_equals_the_sweeps_choice(ns, seed):
    rng = np.random.default_rng(seed)
    grid = sorted(set(np.round(10.0 ** rng.uniform(-5, 1, size=8), 8)))
    finals = rng.uniform(0.1, 0.7, size=len(grid))
    finals[rng.integers(0, len(grid))] = np.inf                       # a diverged run
    if seed % 2:                                                      # a tie at the minimum
        finals[1] = finals[3] = np.min(finals[np.isfinite(finals)]) - 0.01
    sw = _sweep(grid, finals)
    eta, edge = ns["choose_eta"](grid, finals)
    assert eta == sw.best_eta("toy", "smidas", 1e-2)
    assert edge == sw.chosen_etas()[("toy", 1e-2, "smidas")][1]


def test_choose_eta_rules(ns):
    assert ns["choose_eta"]([1e-3, 1e-2, 1e-1], [0.2, 0.2, np.inf]) == (1e-3, True)      # tie: the smaller step
    assert ns["choose_eta"]([1e-3, 1e-2, 1e-1], [np.nan, 0.3, 0.4]) == (1e-2, False)    # nan never wins
