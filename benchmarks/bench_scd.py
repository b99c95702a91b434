"""Speed benchmark: one epoch (d coordinate steps) of l1lab's coordinate descent vs scikit-learn's.

    python benchmarks/bench_scd.py            # full run, ~45 s (budget 3 minutes)
    python benchmarks/bench_scd.py --quick    # ~10 s (budget 1 minute), noisier

Pairs timed on the same data and the same objective (1/2m)||y - Xw||^2 + lam ||w||_1:

    l1lab.solvers.scd        vs  Lasso(alpha=lam, fit_intercept=False, selection='random', tol=0, max_iter=k)
    l1lab.solvers.cyclic_cd  vs  Lasso(alpha=lam, fit_intercept=False, selection='cyclic', tol=0, max_iter=k)

on (a) dense 1000 x 5000 and (b) CSC 20000 x 20000 at 1% density.  Each solver is warmed up (numba
compilation, one untimed run), then run from w = 0 for k1 and k2 epochs; t(k) is the median wall time of several
repeats, and the epoch time (t(k2) - t(k1)) / (k2 - k1) has the fixed start-up costs (input checks,
column norms, X^T y, duality gaps, ...) differenced out.  We report ns per nonzero of X per epoch and
ratio = l1lab / sklearn (target: <= 1.0).  For information, the same difference is also formed from
l1lab's kernel-only time ``trace.seconds[-1]``.  l1lab is given beta = max_j ||x_j||^2/m (the largest
coordinate curvature) instead of its default 1, so that its steps, and hence its per-epoch work, match
sklearn's exact coordinate minimization (the final nnz(w) of both are reported).  Results are printed and written to
benchmarks/results/bench_scd.json.  BLAS / OpenMP pools are limited to one thread.
"""
from __future__ import annotations

import argparse
import os
import platform
import time
import warnings
from pathlib import Path

import numpy as np
import scipy
import scipy.sparse as sp
import sklearn
from _common import finish, single_thread
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import Lasso

import l1lab

RESULTS = Path(__file__).resolve().parent / "results" / "bench_scd.json"


# ---------------------------------------------------------------------------------------------- data
def make_dense(m, d, k_true, rng):
    X = rng.uniform(-1.0, 1.0, size=(m, d))
    return X, _targets(X, d, k_true, rng)


def make_sparse(m, d, density, k_true, rng):
    X = sp.random(m, d, density=density, format="csc", dtype=np.float64, random_state=rng,
                  data_rvs=lambda n: rng.uniform(-1.0, 1.0, size=n))
    X.sort_indices()
    return X, _targets(X, d, k_true, rng)


def _targets(X, d, k_true, rng):
    """y = X w_true + noise with a k_true-sparse w_true, standardized to mean 0 and variance 1."""
    w_true = np.zeros(d)
    support = rng.choice(d, size=k_true, replace=False)
    w_true[support] = rng.standard_normal(k_true)
    y = np.asarray(X @ w_true).ravel()
    y += 0.1 * np.std(y) * rng.standard_normal(y.shape[0])
    return (y - y.mean()) / y.std()


def lasso_objective(X, y, w, lam):
    r = y - np.asarray(X @ w).ravel()
    return 0.5 * float(r @ r) / X.shape[0] + lam * float(np.abs(w).sum())


def sklearn_initially_screened(X, y, lam):
    """How many features sklearn's gap safe screening removes before its first epoch (at w = 0).

    With tol=0 sklearn only re-screens after its last epoch, so this is the only screening that can
    change the work per epoch.  Reproduces enet_coordinate_descent's rule (formulation A, beta = 0)."""
    m = X.shape[0]
    alpha = lam * m
    XtR = np.asarray(X.T @ y).ravel()
    dual_norm = np.max(np.abs(XtR))
    scale = alpha / dual_norm if dual_norm > alpha else 1.0
    yy = float(y @ y)
    gap = 0.5 * yy - (-0.5 * scale ** 2 * yy + scale * yy)
    if sp.issparse(X):
        norm2 = np.asarray(X.multiply(X).sum(axis=0)).ravel()
    else:
        norm2 = np.einsum("ij,ij->j", X, X)
    d_j = (1.0 - np.abs(XtR / max(alpha, dual_norm))) / np.sqrt(norm2)
    return int(np.count_nonzero(d_j > np.sqrt(2.0 * gap) / alpha))


# ------------------------------------------------------------------------------------------- timing
def run_l1lab(prob, method, epochs, beta):
    n_iter = epochs * prob.d
    t0 = time.perf_counter()
    if method == "scd":
        res = l1lab.solvers.scd(prob, n_iter, seed=0, n_checkpoints=2, beta=beta)
    else:
        res = l1lab.solvers.cyclic_cd(prob, n_iter, n_checkpoints=2, beta=beta)
    wall = time.perf_counter() - t0
    return wall, float(res.trace.seconds[-1]), res.w


def run_sklearn(X, y, lam, selection, epochs):
    model = Lasso(alpha=lam, fit_intercept=False, selection=selection, tol=0.0, max_iter=epochs,
                  random_state=0)
    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model.fit(X, y)
    wall = time.perf_counter() - t0
    return wall, model.coef_


def time_pair(name, X_sk, y, prob, lam, beta, method, selection, k1, k2, repeats):
    nnz_X = prob.nnz
    # warm-up: numba compilation (or cache load) and one untimed run of each
    run_l1lab(prob, method, 1, beta)
    run_sklearn(X_sk, y, lam, selection, 1)

    walls = {("l1lab", k): [] for k in (k1, k2)}
    walls.update({("sklearn", k): [] for k in (k1, k2)})
    kernel = {k1: [], k2: []}
    w_l1 = w_sk = None
    for _ in range(repeats):
        for k in (k1, k2):  # interleave the two libraries so drifts affect both alike
            wall, ksec, w = run_l1lab(prob, method, k, beta)
            walls[("l1lab", k)].append(wall)
            kernel[k].append(ksec)
            if k == k2:
                w_l1 = w
            wall, w = run_sklearn(X_sk, y, lam, selection, k)
            walls[("sklearn", k)].append(wall)
            if k == k2:
                w_sk = w
    med = {key: float(np.median(v)) for key, v in walls.items()}
    kmed = {k: float(np.median(v)) for k, v in kernel.items()}
    epoch_l1 = (med[("l1lab", k2)] - med[("l1lab", k1)]) / (k2 - k1)
    epoch_sk = (med[("sklearn", k2)] - med[("sklearn", k1)]) / (k2 - k1)
    epoch_kernel = (kmed[k2] - kmed[k1]) / (k2 - k1)
    return {
        "data": name,
        "l1lab": method,
        "sklearn": f"Lasso(selection={selection!r})",
        "k1": k1, "k2": k2, "repeats": repeats, "nnz_X": nnz_X,
        "l1lab_ns_per_nnz": 1e9 * epoch_l1 / nnz_X,
        "sklearn_ns_per_nnz": 1e9 * epoch_sk / nnz_X,
        "ratio": epoch_l1 / epoch_sk,
        "l1lab_kernel_ns_per_nnz": 1e9 * epoch_kernel / nnz_X,
        "ratio_kernel": epoch_kernel / epoch_sk,
        "l1lab_epoch_s": epoch_l1, "sklearn_epoch_s": epoch_sk, "l1lab_kernel_epoch_s": epoch_kernel,
        "nnz_w_l1lab": int(np.count_nonzero(w_l1)),
        "nnz_w_sklearn": int(np.count_nonzero(w_sk)),
        "objective_l1lab": lasso_objective(X_sk, y, w_l1, lam),
        "objective_sklearn": lasso_objective(X_sk, y, w_sk, lam),
        "median_wall_s": {f"{lib}_k{k}": v for (lib, k), v in med.items()},
        "median_kernel_s": {f"k{k}": v for k, v in kmed.items()},
        "all_wall_s": {f"{lib}_k{k}": v for (lib, k), v in walls.items()},
    }


# ---------------------------------------------------------------------------------------------- main
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="fewer epochs and repeats (~1 minute)")
    ap.add_argument("--out", type=Path, default=RESULTS, help="JSON output path")
    args = ap.parse_args(argv)

    if args.quick:
        k1, k2, repeats = 2, 12, 5
    else:
        k1, k2, repeats = 5, 45, 15
    rng = np.random.default_rng(0)
    lam_frac = 0.05

    t_start = time.perf_counter()
    datasets = []
    X, y = make_dense(1000, 5000, 50, rng)
    datasets.append(("dense 1000x5000", np.asfortranarray(X), y))
    X, y = make_sparse(20000, 20000, 0.01, 200, rng)
    datasets.append(("csc 20000x20000 1%", X, y))

    print(f"python {platform.python_version()}, numpy {np.__version__}, scipy {scipy.__version__}, "
          f"scikit-learn {sklearn.__version__}, l1lab {l1lab.__version__}")
    print(f"OPENBLAS_CORETYPE={os.environ.get('OPENBLAS_CORETYPE', '(unset)')}; epochs k1={k1}, k2={k2}, "
          f"repeats={repeats}, lam = {lam_frac} * lambda_max")

    rows = []
    limiter = single_thread()
    try:
        for name, X_sk, y in datasets:
            prob0 = l1lab.Problem(X_sk, y, loss="squared", lam=0.0)
            lam = lam_frac * prob0.lambda_max
            prob = l1lab.Problem(X_sk, y, loss="squared", lam=lam)
            # Coordinate curvature of the squared loss: beta_j = ||x_j||^2 / m.  sklearn minimizes exactly
            # along each coordinate (step 1/beta_j); l1lab's default beta = 1 (valid for any x in [-1, 1])
            # takes ~3x (dense) to ~300x (sparse) shorter steps, which leaves many more coordinates moving,
            # i.e. more z-updates per epoch.  beta = max_j beta_j keeps both solvers on comparable
            # iterates, so the two do comparable work per epoch (compare nnz(w) in the table).
            beta = float(prob.column_sq_norms().max())
            screened = sklearn_initially_screened(X_sk, y, lam)
            for method, selection in (("scd", "random"), ("cyclic_cd", "cyclic")):
                row = time_pair(name, X_sk, y, prob, lam, beta, method, selection, k1, k2, repeats)
                row["lam"] = lam
                row["beta"] = beta
                row["sklearn_screened_at_start"] = screened
                rows.append(row)
                print(f"  done: {name:20s} {method:10s} ratio {row['ratio']:.2f} "
                      f"({time.perf_counter() - t_start:.0f} s elapsed)", flush=True)
    finally:
        limiter.unregister()

    print()
    print(f"ns per nonzero of X per epoch (epoch = d coordinate steps; differenced over epochs {k1}..{k2}, "
          f"median of {repeats})")
    head = (f"{'data':20s} {'l1lab':10s} {'sklearn':9s} {'l1lab':>7s} {'sklearn':>8s} {'ratio':>6s} "
            f"{'kernel':>7s} {'k.ratio':>7s} {'nnz(w) l1lab/skl':>17s}")
    print(head)
    print("-" * len(head))
    for r in rows:
        sel = "random" if r["l1lab"] == "scd" else "cyclic"
        print(f"{r['data']:20s} {r['l1lab']:10s} {sel:9s} {r['l1lab_ns_per_nnz']:7.3f} "
              f"{r['sklearn_ns_per_nnz']:8.3f} {r['ratio']:6.2f} {r['l1lab_kernel_ns_per_nnz']:7.3f} "
              f"{r['ratio_kernel']:7.2f} {str(r['nnz_w_l1lab']) + ' / ' + str(r['nnz_w_sklearn']):>17s}")
    print("ratio = l1lab / sklearn wall time per epoch (target <= 1.0); kernel = l1lab trace.seconds only.")
    screened = sorted({(r["data"], r["sklearn_screened_at_start"]) for r in rows})
    print("features removed by sklearn's initial gap-safe screening: "
          + ", ".join(f"{n}: {s}" for n, s in screened))
    finish(args.out, t_start, args.quick, {
        "lam_fraction_of_lambda_max": lam_frac,
        "results": rows,
    })


if __name__ == "__main__":
    main()
