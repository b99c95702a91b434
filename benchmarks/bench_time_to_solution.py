"""Time to a solution: l1lab's solvers against scikit-learn, skglm and celer, to the same duality gap.

    .venv/bin/pip install -r benchmarks/requirements.txt     # skglm and celer (benchmark only)
    .venv/bin/python benchmarks/bench_time_to_solution.py    # ~10 min here
    .venv/bin/python benchmarks/bench_time_to_solution.py --quick --problems lasso-dense,logreg-dense

Every solver minimizes the same objective, P(w) = (1/m) sum_i L(<w, x_i>, y_i) + lam ||w||_1 with no intercept, on
the same data (features in [-1, 1]).  Each has one accuracy knob (its ``tol``); the script walks it down a ladder
(1e-2, 1e-3, ...) and takes the first setting whose output w reaches the target, judged for every solver by the same
certificate: the duality gap of l1lab's feasible dual point at w (``l1lab.solvers.working_set.duality_gap``), relative
to P(0), at most ``--eps`` (default 1e-6).  The time is the best of ``--repeats`` fits at that setting, after a
warm-up fit (numba compilation or cache load, scikit-learn's first call), with one BLAS/OpenMP thread.  The true
sub-optimality (P(w) - P*)/P(0), P* from ``l1lab.reference_solution`` at 1e-12, is printed beside it.

l1lab is timed through its scikit-learn estimators (what a user calls: validation included) and, for the
coordinate-descent variants, through the solver functions on a prebuilt ``Problem``.  Ratios are to the fastest
peer on the problem.  ``--first-fit`` also times the first fit of both default estimators and their peers in a
fresh process on 500 x 200, with numba's cache empty (a user's first call compiles) and filled, and lists the
kernels that l1lab compiled with their seconds.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np
import scipy.sparse as sp
from _common import finish, single_thread

import l1lab
from l1lab import Problem, reference_solution, solvers
from l1lab.estimators import L1Classifier, L1Regressor
from l1lab.solvers.working_set import duality_gap

HERE = Path(__file__).resolve().parent
TOLS = [10.0 ** -k for k in range(2, 15)]


# ------------------------------------------------------------------------------------------------ problems
def _targets(X, seed, k=20):
    rng = np.random.default_rng(seed)
    w = np.zeros(X.shape[1])
    w[rng.choice(X.shape[1], k, replace=False)] = rng.standard_normal(k)
    z = X @ w
    return np.asarray(z).ravel(), rng


def lasso_dense(m, d, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1.0, 1.0, (m, d))
    z, rng = _targets(X, seed + 1)
    y = z + 0.5 * np.std(z) * rng.standard_normal(m)
    return np.asfortranarray(X), (y - y.mean()) / y.std()


def lasso_sparse(m, d, density, seed=0):
    rng = np.random.default_rng(seed)
    X = sp.random(m, d, density=density, format="csc", random_state=rng,
                  data_rvs=lambda n: rng.uniform(-1.0, 1.0, n))
    z, rng = _targets(X, seed + 1)
    y = z + 0.5 * np.std(z) * rng.standard_normal(m)
    return X, (y - y.mean()) / y.std()


def logreg(X, seed=0):
    z, rng = _targets(X, seed + 1)
    p = 1.0 / (1.0 + np.exp(-3.0 * z / max(np.std(z), 1e-12)))
    return np.where(rng.uniform(size=z.size) < p, 1.0, -1.0)


def real_breast_cancer():
    from sklearn.datasets import load_breast_cancer
    X, y = load_breast_cancer(return_X_y=True)
    X = X / np.abs(X).max(axis=0)
    return np.asfortranarray(X), np.where(y == 1, 1.0, -1.0)


def real_diabetes():
    from sklearn.datasets import load_diabetes
    X, y = load_diabetes(return_X_y=True)
    X = X / np.abs(X).max(axis=0)
    return np.asfortranarray(X), (y - y.mean()) / y.std()


def make_problems():
    """name -> (X, y, loss, lam fraction of lambda_max, description)."""
    out = {}
    out["lasso-dense"] = lambda: (*lasso_dense(1000, 5000), "squared", 1 / 20, "Lasso, dense 1000 x 5000, U[-1, 1]")
    out["lasso-sparse"] = lambda: (*lasso_sparse(20000, 20000, 0.01), "squared", 1 / 20,
                                   "Lasso, CSC 20000 x 20000, 1 % nonzeros")
    out["lasso-wide"] = lambda: (*lasso_dense(500, 20000, seed=2), "squared", 1 / 20,
                                 "Lasso, dense 500 x 20000 (wide)")

    def lr_dense():
        X = np.asfortranarray(np.random.default_rng(3).uniform(-1.0, 1.0, (1000, 1000)))
        return X, logreg(X, 3), "logistic", 1 / 10, "L1-logistic, dense 1000 x 1000"

    def lr_sparse():
        X = sp.random(10000, 10000, density=0.01, format="csc", random_state=np.random.default_rng(4),
                      data_rvs=lambda n: np.random.default_rng(5).uniform(-1.0, 1.0, n))
        return X, logreg(X, 4), "logistic", 1 / 10, "L1-logistic, CSC 10000 x 10000, 1 % nonzeros"

    out["logreg-dense"] = lr_dense
    out["logreg-sparse"] = lr_sparse
    out["breast-cancer"] = lambda: (*real_breast_cancer(), "logistic", 1 / 100,
                                    "L1-logistic, breast cancer (scikit-learn), 569 x 30, max-abs scaled")
    out["diabetes"] = lambda: (*real_diabetes(), "squared", 1 / 100,
                               "Lasso, diabetes (scikit-learn), 442 x 10, max-abs scaled")
    return out


# ------------------------------------------------------------------------------------------------ solvers
def solver_table(X, y, loss, lam, problem):
    """name -> fit(tol) returning w.  Peers that are not installed are left out (and said so)."""
    m = X.shape[0]
    table = {}
    if loss == "squared":
        from sklearn.linear_model import Lasso

        table["scikit-learn"] = lambda tol: Lasso(alpha=lam, fit_intercept=False, tol=tol, max_iter=100_000,
                                                  selection="cyclic").fit(X, y).coef_
    else:
        from sklearn.linear_model import LogisticRegression

        def sk_lr(tol):
            clf = LogisticRegression(l1_ratio=1.0, C=1.0 / (m * lam), fit_intercept=False, solver="liblinear",
                                     tol=tol, max_iter=100_000)
            return clf.fit(X, y).coef_.ravel()
        table["scikit-learn"] = sk_lr
    try:
        import skglm
        if loss == "squared":
            table["skglm"] = lambda tol: skglm.Lasso(alpha=lam, fit_intercept=False, tol=tol,
                                                     max_iter=1000).fit(X, y).coef_
        else:
            table["skglm"] = lambda tol: skglm.SparseLogisticRegression(alpha=lam, fit_intercept=False, tol=tol,
                                                                        max_iter=1000).fit(X, y).coef_.ravel()
    except ImportError:
        print("skglm not installed: pip install -r benchmarks/requirements.txt")
    try:
        import celer
        if loss == "squared":
            table["celer"] = lambda tol: celer.Lasso(alpha=lam, fit_intercept=False, tol=tol,
                                                     max_iter=1000).fit(X, y).coef_
        else:
            table["celer"] = lambda tol: celer.LogisticRegression(C=1.0 / (m * lam), tol=tol,
                                                                  max_iter=1000).fit(X, y).coef_.ravel()
    except ImportError:
        print("celer not installed: pip install -r benchmarks/requirements.txt")
    Est = L1Regressor if loss == "squared" else L1Classifier
    table["l1lab estimator"] = lambda tol: np.ravel(Est(lam, fit_intercept=False, scale=None,
                                                        tol=tol).fit(X, y).coef_)
    table["l1lab working_set_cd"] = lambda tol: solvers.working_set_cd(problem, tol=tol).w
    for name, fun in (("scd", solvers.scd), ("cyclic_cd", solvers.cyclic_cd)):
        def cd(tol, fun=fun):
            return fun(problem, 20_000 * problem.d, tol=tol, step="coordinate").w
        table[f"l1lab {name} (coordinate)"] = cd
    table["l1lab scd (Algorithm 1)"] = lambda tol: solvers.scd(problem, 20_000 * problem.d, tol=tol).w
    return table


PEERS = ("scikit-learn", "skglm", "celer")


def time_to_target(fit, problem, p_star, p0, eps, repeats, budget):
    """Walk the tol ladder; returns (seconds, tol, relative gap, relative sub-optimality) of the first setting that
    reaches the target, or None if none does within ``budget`` seconds of fitting."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t0 = time.perf_counter()
        fit(TOLS[0])                                  # warm-up: compilation, caches
        spent = time.perf_counter() - t0
        for tol in TOLS:
            times = []
            for _ in range(repeats):
                t = time.perf_counter()
                w = fit(tol)
                times.append(time.perf_counter() - t)
                spent += times[-1]
                if times[-1] > budget / 4:
                    break                              # slow: one timing is enough
            gap = duality_gap(problem, w) / p0
            sub = (problem.objective(w) - p_star) / p0
            if gap <= eps:
                return min(times), tol, gap, sub
            if spent > budget:
                return None
    return None


# ------------------------------------------------------------------------------------------------ first fit
#: the first fit in a fresh interpreter: 500 x 200 (the cold-start target's size), the default estimator of each
#: loss and its peers, each with its default settings (an intercept included) at lam = lambda_max / 20; prints
#: import, first and second fit seconds as JSON, and for l1lab the compile seconds of every numba kernel it
#: compiled (numba's own timers, which nest: a kernel's time includes the kernels it calls)
_FIRST_FIT = """
import json, sys, time
t0 = time.perf_counter()
import numpy as np
LOSS, WHO = sys.argv[1], sys.argv[2]
if WHO == "l1lab":
    from l1lab.estimators import L1Classifier, L1Regressor
    make = (lambda: L1Regressor(lam=LAM)) if LOSS == "squared" else (lambda: L1Classifier(lam=LAM))
elif WHO == "skglm":
    from skglm import Lasso, SparseLogisticRegression
    make = (lambda: Lasso(alpha=LAM)) if LOSS == "squared" else (lambda: SparseLogisticRegression(alpha=LAM))
else:
    from sklearn.linear_model import Lasso, LogisticRegression
    make = (lambda: Lasso(alpha=LAM)) if LOSS == "squared" else (
        lambda: LogisticRegression(l1_ratio=1.0, C=1 / (500 * LAM), solver="liblinear"))
t1 = time.perf_counter()
rng = np.random.default_rng(0)
X = rng.uniform(-1, 1, (500, 200))
y = X[:, :10].sum(axis=1) + 0.1 * rng.standard_normal(500)
if LOSS == "logistic":
    y = np.where(y > 0, 1.0, -1.0)
LAM = 0.05 * float(np.abs(X.T @ (y if LOSS == "squared" else y / 2)).max() / 500)
t2 = time.perf_counter()
make().fit(X, y)
t3 = time.perf_counter()
make().fit(X, y)
t4 = time.perf_counter()
kernels = {}
if WHO == "l1lab":
    from numba.core.dispatcher import Dispatcher
    for name, mod in list(sys.modules.items()):
        if name.startswith("l1lab"):
            for attr, f in vars(mod).items():
                if isinstance(f, Dispatcher):
                    for cres in f.overloads.values():
                        t = (cres.metadata or {}).get("timers", {}).get("compiler_lock", 0.0)
                        if t > 0:
                            kernels[f.py_func.__module__ + "." + f.py_func.__qualname__] = round(t, 3)
print(json.dumps({"import": t1 - t0, "first_fit": t3 - t2, "second_fit": t4 - t3, "compiled": kernels}))
"""


def _fresh(loss, who, cache_dir):
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1")
    if cache_dir is not None:
        env["NUMBA_CACHE_DIR"] = cache_dir
    res = subprocess.run([sys.executable, "-c", _FIRST_FIT, loss, who], capture_output=True, text=True, env=env,
                         check=True)
    return json.loads(res.stdout.strip().splitlines()[-1])


def first_fit():
    """The first fit of each loss's default estimator (and its peers) in a fresh interpreter on 500 x 200: with
    numba's on-disk cache empty (a new environment: Colab, Binder, a fresh install) and filled (a later session)."""
    out = {}
    for loss in ("squared", "logistic"):
        for who in ("l1lab", "skglm", "scikit-learn"):
            if who == "skglm":
                try:
                    __import__("skglm")
                except ImportError:
                    continue
            empty = tempfile.mkdtemp()
            runs = {"numba cache empty": _fresh(loss, who, empty)}
            runs["numba cache filled"] = _fresh(loss, who, empty)     # the same cache, filled by the run above
            out[f"{loss}/{who}"] = runs
            for label, r in runs.items():
                print(f"  {loss:8s} {who:12s} {label:18s} import {r['import']:5.2f} s   first fit "
                      f"{r['first_fit']:5.2f} s   second fit {r['second_fit'] * 1e3:7.1f} ms", flush=True)
            top = sorted(runs["numba cache empty"]["compiled"].items(), key=lambda kv: -kv[1])[:6]
            if top:
                print("    compiled (s, nested): " + ", ".join(f"{k.rsplit('.', 1)[-1]} {v:.2f}" for k, v in top))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="one repeat, a 30 s budget per solver")
    ap.add_argument("--problems", default="", help="comma-separated subset of the problems ('none': only "
                    "--first-fit)")
    ap.add_argument("--solvers", default="", help="comma-separated subset of the solvers")
    ap.add_argument("--eps", type=float, default=1e-6, help="target relative duality gap")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--first-fit", action="store_true", help="also time the first fit in a fresh process")
    args = ap.parse_args()
    repeats = 1 if args.quick else args.repeats
    budget = 30.0 if args.quick else 120.0
    t_start = time.perf_counter()
    problems = make_problems()
    chosen = [] if args.problems == "none" else [p for p in args.problems.split(",") if p] or list(problems)
    results = {}
    with single_thread():
        for name in chosen:
            X, y, loss, frac, desc = problems[name]()
            lmax = Problem(X, y, loss, 1.0).lambda_max
            lam = frac * lmax
            problem = Problem(X, y, loss, lam)
            _, p_star = reference_solution(problem, tol=1e-12)
            p0 = problem.objective(np.zeros(problem.d))
            print(f"\n{name}: {desc}; lam = lambda_max/{1 / frac:g}; target gap <= {args.eps:g} P(0)")
            rows = {}
            for sname, fit in solver_table(X, y, loss, lam, problem).items():
                if args.solvers and sname not in args.solvers.split(","):
                    continue
                r = time_to_target(fit, problem, p_star, p0, args.eps, repeats, budget)
                rows[sname] = None if r is None else dict(zip(("seconds", "tol", "rel_gap", "rel_subopt"), r))
                shown = "did not reach the target" if r is None else (
                    f"{r[0] * 1e3:10.1f} ms  (tol {r[1]:.0e}, gap {r[2]:.1e}, sub-opt {r[3]:.1e})")
                print(f"  {sname:30s} {shown}", flush=True)
            peers = [v["seconds"] for k, v in rows.items() if k in PEERS and v]
            best = min(peers) if peers else math.nan
            for sname, v in rows.items():
                if v:
                    v["ratio_to_fastest_peer"] = v["seconds"] / best
            print("  ratios to the fastest peer: " + ", ".join(
                f"{k} {v['ratio_to_fastest_peer']:.2f}" for k, v in rows.items() if v and not k.startswith("sci")
                and k not in PEERS))
            results[name] = {"description": desc, "lam_over_lambda_max": frac, "rows": rows}
    payload = {"eps": args.eps, "results": results, "l1lab": l1lab.__version__}
    for mod in ("skglm", "celer"):
        try:
            payload[mod] = __import__(mod).__version__
        except ImportError:
            pass
    if args.first_fit:
        print("\nfirst fit in a fresh process (500 x 200, the default estimators and their peers):")
        payload["first_fit"] = first_fit()
    finish(HERE / "results" / "bench_time_to_solution.json", t_start, args.quick, payload)
    print(json.dumps({k: {s: (v and round(v["ratio_to_fastest_peer"], 2)) for s, v in r["rows"].items()}
                      for k, r in results.items()}, indent=1))


if __name__ == "__main__":
    main()
