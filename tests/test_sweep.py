"""l1lab.experiments.run_sweep: the task grid, the disk cache (hits, misses, what a changed parameter reruns),
eta chosen by grid beside Table 1, and the joblib and Dask paths giving the numbers of the local path."""
import math

import numpy as np
import pytest
import scipy.sparse as sp

import l1lab
from l1lab import experiments as ex
from l1lab.data import make_classification
from l1lab.data.real import Dataset

ETAS = (1e-2, 1e-1, 1.0)


@pytest.fixture(scope="module")
def dense_ds():
    X, y, _ = make_classification(60, 15, 3, flip=0.1, seed=11)
    return Dataset.from_arrays("toy_dense", X, y)


@pytest.fixture(scope="module")
def sparse_ds():
    X, y, _ = make_classification(80, 30, 4, flip=0.1, density=0.2, seed=12)
    return Dataset.from_arrays("toy_sparse", sp.csr_matrix(X), y)


@pytest.fixture
def cache(tmp_path):
    return tmp_path / "sweeps"


def sweep(datasets, cache, **kw):
    args = dict(lams=(1e-3, 1e-1), etas=ETAS, seeds=2, epochs=2.0, n_checkpoints=8, cache_dir=cache,
                progress=False)
    args.update(kw)
    return ex.run_sweep(datasets, **args)


def same_numbers(r1, r2):
    for name in ("iteration", "data_accesses", "objective", "nnz"):
        np.testing.assert_array_equal(getattr(r1.trace, name), getattr(r2.trace, name))
    np.testing.assert_array_equal(r1.w, r2.w)


def test_grid_counts_then_everything_cached(dense_ds, sparse_ds, cache):
    first = sweep([dense_ds, sparse_ds], cache)
    # per data set: scd 2 lams x 2 seeds, gcd 2 lams (deterministic), smidas/truncgrad 2 x 3 etas x 2 seeds
    assert len(first.records) == 2 * (4 + 2 + 12 + 12)
    assert (first.n_computed, first.n_cached) == (60, 0) and not any(r.cached for r in first.records)
    assert {r.seed for r in first.select(solver="gcd")} == {None}
    assert {r.eta for r in first.select(solver="scd")} == {None}
    files = list(cache.glob("*/*.npz"))
    assert len(files) == 60 and not list(cache.glob("**/*.part"))
    again = sweep([dense_ds, sparse_ds], cache)
    assert (again.n_computed, again.n_cached) == (0, 60) and all(r.cached for r in again.records)
    for a, b in zip(first.records, again.records):
        assert a.task == b.task and a.key == b.key
        same_numbers(a.result, b.result)
        np.testing.assert_array_equal(a.result.trace.seconds, b.result.trace.seconds)


def test_changed_parameters_rerun_only_what_they_change(dense_ds, sparse_ds, cache):
    sweep([dense_ds, sparse_ds], cache)
    s = sweep([dense_ds, sparse_ds], cache, etas={"smidas": ETAS + (3.0,), "truncgrad": ETAS})
    assert s.n_computed == 2 * 2 * 2  # the new eta: 2 data sets x 2 lams x 2 seeds, SMIDAS only
    s = sweep([dense_ds, sparse_ds], cache, lams=(1e-3, 1e-1, 1e-2))
    assert s.n_computed == 2 * (2 + 1 + 6 + 6)  # the new lambda only
    s = sweep([dense_ds, sparse_ds], cache, seeds=3)
    assert s.n_computed == 2 * (2 + 0 + 6 + 6)  # seed 2 of the stochastic solvers only
    s = sweep([dense_ds, sparse_ds], cache, epochs={"toy_dense": 3.0, "toy_sparse": 2.0})
    assert s.n_computed == 30 and {r.dataset for r in s.records if not r.cached} == {"toy_dense"}
    s = sweep([dense_ds, sparse_ds], cache, solver_options={"truncgrad": {"output": "average"}})
    assert s.n_computed == 2 * 12
    X = dense_ds.X.copy()
    X[0, 0] = -X[0, 0]  # same name, different data: its fingerprint changes
    s = sweep([Dataset.from_arrays("toy_dense", X, dense_ds.y), sparse_ds], cache)
    assert s.n_computed == 30 and {r.dataset for r in s.records if not r.cached} == {"toy_dense"}


def test_solver_code_version_is_part_of_the_key(dense_ds, cache, monkeypatch):
    sweep(dense_ds, cache, solvers=("scd", "smidas"))
    monkeypatch.setattr(ex, "_code_version", lambda solver: "edited" if solver == "smidas" else "same")
    s = sweep(dense_ds, cache, solvers=("scd", "smidas"))
    assert s.n_computed == 4 + 12  # with the patched versions nothing matches the first run's keys
    s = sweep(dense_ds, cache, solvers=("scd", "smidas"))
    assert s.n_computed == 0


def test_records_equal_direct_solver_calls(dense_ds, cache):
    s = sweep(dense_ds, cache, solvers=("scd", "gcd", "smidas", "truncgrad"), seeds=[5])
    prob = l1lab.Problem(dense_ds.X, dense_ds.y, loss="logistic", lam=1e-1)
    rec = s.select(solver="smidas", lam=1e-1, eta=1e-1, seed=5)[0]
    same_numbers(rec.result, l1lab.solvers.smidas(prob, rec.n_iter, 1e-1, seed=5, p_rounded=True, n_checkpoints=8))
    rec = s.select(solver="scd", lam=1e-1, seed=5)[0]
    same_numbers(rec.result, l1lab.solvers.scd(prob, rec.n_iter, seed=5, n_checkpoints=8))
    rec = s.select(solver="gcd", lam=1e-1)[0]
    same_numbers(rec.result, l1lab.solvers.gcd(prob, rec.n_iter, n_checkpoints=8))
    assert rec.result.info["method"] == "gcd"


def test_budget_in_passes_over_the_data(dense_ds, sparse_ds, cache):
    s = sweep([dense_ds, sparse_ds], cache, epochs=3.0, seeds=1, lams=(1e-2,), etas=(0.1,))
    for ds in (dense_ds, sparse_ds):
        assert s.select(ds.name, "scd")[0].n_iter == 3 * ds.d
        assert s.select(ds.name, "smidas")[0].n_iter == 3 * ds.m
        assert s.select(ds.name, "gcd")[0].n_iter == round(3 * ds.nnz / (ds.nnz + ds.nnz / ds.d))
        for solver in ("scd", "smidas"):  # about 3 nnz(X) data accesses each
            acc = s.select(ds.name, solver)[0].result.trace.data_accesses[-1]
            assert 2.0 * ds.nnz < acc < 4.0 * ds.nnz
    s2 = sweep(dense_ds, cache, n_iter={"scd": 17}, solvers=("scd",), seeds=1, lams=(1e-2,))
    assert s2.records[0].n_iter == 17


def test_seed_runs_best_eta_and_table(dense_ds, cache):
    ds = Dataset.from_arrays("magic04d", dense_ds.X, dense_ds.y, label="offline stand-in for MAGIC04D (toy)",
                             offline=True)
    s = sweep(ds, cache, lams=(1e-6, 1e-2))
    runs = s.runs("magic04d", "smidas", 1e-2, eta=0.1)
    assert isinstance(runs, ex.SeedRuns) and runs.seeds == (0, 1) and runs.objective.shape[0] == 2
    assert s.runs("magic04d", "gcd", 1e-2).seeds == (None,)
    for lam in (1e-6, 1e-2):
        for solver in ("smidas", "truncgrad"):
            finals = {e: np.mean([r.result.trace.objective[-1] for r in s.select("magic04d", solver, lam, e)])
                      for e in ETAS}
            best = s.best_eta("magic04d", solver, lam)
            assert finals[best] == min(finals.values())
            np.testing.assert_array_equal(s.runs("magic04d", solver, lam).objective,
                                          s.runs("magic04d", solver, lam, eta=best).objective)
    with pytest.raises(ValueError, match="no step size"):
        s.best_eta("magic04d", "scd", 1e-2)
    table = s.eta_table()
    lines = table.splitlines()
    assert lines[0].split("  ")[0] == "Data set, λ" and "TRUNCGRAD (paper)" in lines[0]
    row6 = next(line for line in lines if line.startswith("MAGIC04D*, 10^-6"))
    row2 = next(line for line in lines if line.startswith("MAGIC04D*, 10^-2"))
    assert "5×10^-3" in row6 and "10^-4" in row6  # the paper's SMIDAS and TRUNCGRAD values
    assert "10^-3" in row2 and "10^-5" in row2
    assert "* offline stand-in for MAGIC04D (toy)" in table
    assert s.label("magic04d") == "offline stand-in for MAGIC04D (toy)"
    rows = s.summary()
    assert len(rows) == len(s.records) and rows[0]["objective"] == s.records[0].result.trace.objective[-1]


def test_eta_formatting():
    assert [ex._fmt_eta(e) for e in (50.0, 1e-1, 5e-5, 1e-6, 1.0, 0.123, None)] == \
        ["50", "10^-1", "5×10^-5", "10^-6", "1", "0.123", "—"]
    assert all(e in ex.PAPER_ETA_GRID for v in ex.PAPER_TABLE1.values() for e in v.values())


def test_divergent_eta_is_never_chosen(dense_ds, cache):
    s = sweep(dense_ds, cache, solvers=("sgd",), etas=(1e-2, 1e300), seeds=1, lams=(1e-2,))
    assert math.isinf(s.final_objective("toy_dense", "sgd", 1e-2, 1e300)) or \
        s.final_objective("toy_dense", "sgd", 1e-2, 1e300) > s.final_objective("toy_dense", "sgd", 1e-2, 1e-2)
    assert s.best_eta("toy_dense", "sgd", 1e-2) == 1e-2


def exploding(problem, n_iter, seed=0, n_checkpoints=60):
    raise RuntimeError("boom")


def test_finished_runs_survive_a_failing_sweep(dense_ds, cache, monkeypatch):
    monkeypatch.setitem(ex.SWEEP_SOLVERS, "boom", ex.SweepSolver("test_sweep", "exploding", False, True, "row", ()))
    with pytest.raises(RuntimeError, match="boom"):
        sweep(dense_ds, cache, solvers=("scd", "boom"))
    assert sweep(dense_ds, cache, solvers=("scd",)).n_computed == 0


def test_no_cache_and_recompute(dense_ds, cache):
    s = sweep(dense_ds, False, solvers=("scd",))
    assert s.n_computed == 4 and not cache.exists()
    sweep(dense_ds, cache, solvers=("scd",))
    assert sweep(dense_ds, cache, solvers=("scd",), recompute=True).n_computed == 4


def test_default_cache_dir_follows_the_environment(dense_ds, tmp_path, monkeypatch):
    monkeypatch.delenv("L1LAB_SWEEP_CACHE", raising=False)
    monkeypatch.setenv("L1LAB_DATA", str(tmp_path / "data"))
    assert ex.sweep_cache_dir() == tmp_path / "data" / "sweeps"
    monkeypatch.setenv("L1LAB_SWEEP_CACHE", str(tmp_path / "s"))
    assert ex.sweep_cache_dir() == tmp_path / "s"
    ex.run_sweep(dense_ds, solvers=("scd",), lams=(1e-2,), epochs=1.0, progress=False)
    assert len(list((tmp_path / "s").glob("*/*.npz"))) == 1


def test_progress_bar(dense_ds, cache, capsys):
    sweep(dense_ds, cache, solvers=("scd",), progress=True)
    assert "l1lab sweep" in capsys.readouterr().err


def test_bad_arguments(dense_ds, cache):
    with pytest.raises(ValueError, match="unknown solver"):
        sweep(dense_ds, cache, solvers=("lasso",))
    with pytest.raises(ValueError, match="eta grid"):
        sweep(dense_ds, cache, etas=(0.1, -1.0))
    with pytest.raises(ValueError, match="lams"):
        sweep(dense_ds, cache, lams=(-1.0,))
    with pytest.raises(TypeError, match="Dataset"):
        sweep([(dense_ds.X, dense_ds.y)], cache)
    with pytest.raises(ValueError, match="two data sets"):
        sweep([dense_ds, dense_ds], cache)
    with pytest.raises(ValueError, match="no entry"):
        sweep(dense_ds, cache, etas={"smidas": ETAS})
    with pytest.raises(ValueError, match="no run"):
        sweep(dense_ds, cache, solvers=("scd",)).runs("toy_dense", "scd", 0.5)


def numbers(s):
    return [(r.task, r.result) for r in s.records]


def assert_same_sweeps(a, b):
    assert [t for t, _ in numbers(a)] == [t for t, _ in numbers(b)]
    for (_, r1), (_, r2) in zip(numbers(a), numbers(b)):
        same_numbers(r1, r2)


def test_joblib_processes_match_the_local_path(dense_ds, sparse_ds):
    kw = dict(solvers=("scd", "smidas"), lams=(1e-2,), etas=(0.1, 1.0), seeds=2, cache_dir=False)
    local = sweep([dense_ds, sparse_ds], None, **kw)
    par = sweep([dense_ds, sparse_ds], None, n_jobs=2, **kw)
    assert par.n_computed == local.n_computed == 2 * (2 + 4)
    assert_same_sweeps(local, par)


def test_dask_cluster_matches_the_local_path(dense_ds, sparse_ds, cache):
    distributed = pytest.importorskip("distributed", reason="dask.distributed is not installed")
    kw = dict(solvers=("scd", "gcd", "truncgrad"), lams=(1e-2,), etas=(0.1, 1.0), seeds=2)
    local = sweep([dense_ds, sparse_ds], False, **kw)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None) \
            as cluster:
        via_address = sweep([dense_ds, sparse_ds], cache, cluster=cluster.scheduler_address, **kw)
        assert via_address.n_computed == local.n_computed == 2 * (2 + 1 + 4)
        assert_same_sweeps(local, via_address)
        with distributed.Client(cluster) as client:
            with distributed.get_task_stream(client) as stream:
                via_client = sweep([dense_ds, sparse_ds], False, cluster=client, **kw)
            assert_same_sweeps(local, via_client)
            assert any("_run_task" in str(t["key"]) for t in stream.data)  # the runs executed on the cluster
            assert client.status == "running"  # a client passed in is not closed
    # what the cluster computed is in the cache: a local rebuild runs nothing
    assert sweep([dense_ds, sparse_ds], cache, **kw).n_computed == 0
