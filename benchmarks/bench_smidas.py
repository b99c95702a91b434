"""Speed benchmark: SMIDAS and truncated gradient (l1lab) vs scikit-learn's SGDClassifier, per example processed.

    python benchmarks/bench_smidas.py            # full run, ~85 s (budget 3 minutes)
    python benchmarks/bench_smidas.py --quick    # ~20 s (budget 1 minute), noisier

Timed on the same CSR 20000 x 20000 data at 1 % density (nonzeros uniform in [-1, 1], labels sign(X w_true) of
a sparse w_true with 5 % flipped), logistic loss, objective (1/m) sum_i L(<w, x_i>, y_i) + lam ||w||_1:

    l1lab.solvers.smidas(prob, n, eta_smidas)       p-norm link (p = 2 ln d) + truncation, O(nnz(x_i) + nnz(theta))
    l1lab.solvers.truncgrad(prob, n, eta)           identity link + lazy truncation, O(nnz(x_i))
    l1lab.solvers.sgd(prob, n, eta)                 plain sub-gradient, O(d) (for information)
    SGDClassifier(loss='log_loss', penalty='l1', alpha=lam, learning_rate='constant', eta0=eta, max_iter=k,
                  tol=None, shuffle=True, fit_intercept=False, average=False, random_state=0)
                                                    cumulative l1 penalty (Tsuruoka et al. 2009), O(nnz(x_i))

One step = one example processed.  Each solver is warmed up (numba compilation, one untimed run), then run from
w = 0 for k1 and k2 epochs (epoch = m examples); t(k) is the median wall time of several interleaved repeats
and the cost per example (t(k2) - t(k1)) / ((k2 - k1) m) has the fixed costs (input checks, the objective
evaluations at the two checkpoints, the output link) differenced out.  SMIDAS is 20-100x slower per step, so its
k1 < k2 are fractions of an epoch: nnz(theta) saturates within ~1000 steps (every coordinate is hit once per
~100 steps), so the window k1..k2 measures the same steady state as whole epochs would.  Reported: ns per example
and ratio = l1lab / sklearn (wall, and l1lab's kernel-only time ``trace.seconds[-1]`` for information), the final
nnz(w) (= nnz(theta) for SMIDAS, on which its cost depends) and P(w) as a sanity check.  A sweep of SMIDAS over
more lam gives its kernel time per step against its steady-state nnz(theta) (a linear fit a + b nnz(theta)).
Results are printed and written to benchmarks/results/bench_smidas.json.  BLAS / OpenMP pools are limited to
one thread.
"""
from __future__ import annotations

import argparse
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
from sklearn.linear_model import SGDClassifier

import l1lab

RESULTS = Path(__file__).resolve().parent / "results" / "bench_smidas.json"

M_EX, D, DENSITY, K_TRUE, FLIP = 20000, 20000, 0.01, 100, 0.05
LAMS = (1e-4, 1e-2)
# Step sizes.  eta = 0.01 for the Euclidean methods (sklearn, TruncGrad, SGD): eta ||x_i||^2 / 4 ~ 0.17, well
# inside the stable range for the logistic loss.  SMIDAS's p-norm geometry needs a much larger eta to move at
# all (with 0.01, P drops by 0.002 in an epoch); eta = 1 makes about the progress of TruncGrad at 0.01.  Its cost
# per step does not depend on eta: nnz(theta) is the same within 1 % for eta from 0.01 to 20.
ETA = 0.01
ETA_SMIDAS = 1.0
# lam values of the SMIDAS cost sweep (steady-state nnz(theta) from ~d down to a few hundred)
SWEEP_LAMS = (1e-4, 1e-3, 3e-3, 1e-2, 3e-2, 1e-1)


# ---------------------------------------------------------------------------------------------- data
def make_data(rng):
    X = sp.random(M_EX, D, density=DENSITY, format="csr", dtype=np.float64, random_state=rng,
                  data_rvs=lambda n: rng.uniform(-1.0, 1.0, size=n))
    X.sort_indices()
    w_true = np.zeros(D)
    support = rng.choice(D, size=K_TRUE, replace=False)
    w_true[support] = rng.standard_normal(K_TRUE)
    y = np.sign(np.asarray(X @ w_true).ravel())
    y[y == 0] = 1.0
    y[rng.random(M_EX) < FLIP] *= -1.0
    return X, y


# ------------------------------------------------------------------------------------------- timing
def run_l1lab(prob, method, n_iter):
    eta = ETA_SMIDAS if method == "smidas" else ETA
    solver = getattr(l1lab.solvers, method)
    t0 = time.perf_counter()
    res = solver(prob, n_iter, eta, seed=0, n_checkpoints=2)
    wall = time.perf_counter() - t0
    return wall, float(res.trace.seconds[-1]), res.w


def run_sklearn(X, y, lam, epochs):
    model = SGDClassifier(loss="log_loss", penalty="l1", alpha=lam, learning_rate="constant", eta0=ETA,
                          max_iter=epochs, tol=None, shuffle=True, fit_intercept=False, average=False,
                          random_state=0)
    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model.fit(X, y)
    wall = time.perf_counter() - t0
    return wall, None, model.coef_.ravel().copy()


def time_group(runners, ks, repeats):
    """runners: {name: f(k) -> (wall, kernel or None, w)}; every runner is run for every k in ks, interleaved,
    ``repeats`` times.  Returns medians, raw timings and the iterate of the last run at the largest k."""
    walls = {(name, k): [] for name in runners for k in ks}
    kernels = {(name, k): [] for name in runners for k in ks}
    last_w = {}
    for _ in range(repeats):
        for k in ks:
            for name, f in runners.items():
                wall, ksec, w = f(k)
                walls[(name, k)].append(wall)
                if ksec is not None:
                    kernels[(name, k)].append(ksec)
                if k == ks[-1]:
                    last_w[name] = w
    return walls, kernels, last_w


def per_example(samples, name, k1, k2, n_per_k):
    """Differenced cost per example in ns, from the medians at k1 and k2 (None if not recorded)."""
    if not samples[(name, k1)]:
        return None
    t1, t2 = float(np.median(samples[(name, k1)])), float(np.median(samples[(name, k2)]))
    return 1e9 * (t2 - t1) / ((k2 - k1) * n_per_k)


def smidas_sweep(X, y, lams, n1, n2, repeats):
    """SMIDAS kernel time per step at the steady-state nnz(theta) of several lam: kernel seconds of n2 steps
    minus those of n1 steps (median of ``repeats``), with nnz(theta) at n1 and n2 (it saturates within ~1000
    steps: every coordinate is hit once per ~100 steps)."""
    rows = []
    for lam in lams:
        prob = l1lab.Problem(X, y, loss="logistic", lam=lam)
        sec = {n1: [], n2: []}
        nnz = {}
        for _ in range(repeats):
            for n in (n1, n2):
                res = l1lab.solvers.smidas(prob, n, ETA_SMIDAS, seed=0, n_checkpoints=2)
                sec[n].append(float(res.trace.seconds[-1]))
                nnz[n] = int(np.count_nonzero(res.w))
        ns = 1e9 * (float(np.median(sec[n2])) - float(np.median(sec[n1]))) / (n2 - n1)
        rows.append({"lam": lam, "steps_n1": n1, "steps_n2": n2, "repeats": repeats,
                     "nnz_theta_n1": nnz[n1], "nnz_theta_n2": nnz[n2],
                     "nnz_theta_mean": 0.5 * (nnz[n1] + nnz[n2]), "ns_per_step": ns,
                     "all_kernel_s": {f"n{n}": v for n, v in sec.items()}})
    return rows


# ---------------------------------------------------------------------------------------------- main
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="fewer epochs and repeats (~20 s)")
    ap.add_argument("--out", type=Path, default=RESULTS, help="JSON output path")
    args = ap.parse_args(argv)

    if args.quick:
        k1, k2, repeats = 1, 4, 3                 # epochs, for sklearn / truncgrad / sgd
        s1, s2, s_repeats = 0.05, 0.2, 3          # epochs (fractional), for smidas
        sweep_n1, sweep_n2, sweep_repeats = 1000, 2000, 1
    else:
        k1, k2, repeats = 2, 12, 7
        s1, s2, s_repeats = 0.1, 0.5, 5
        sweep_n1, sweep_n2, sweep_repeats = 1000, 3000, 3
    m = M_EX
    rng = np.random.default_rng(0)
    t_start = time.perf_counter()
    X, y = make_data(rng)

    print(f"python {platform.python_version()}, numpy {np.__version__}, scipy {scipy.__version__}, "
          f"scikit-learn {sklearn.__version__}, l1lab {l1lab.__version__}")
    print(f"CSR {m}x{D}, density {DENSITY}, nnz per row {X.nnz / m:.0f}; logistic loss; eta = {ETA} "
          f"(sklearn, truncgrad, sgd), {ETA_SMIDAS} (smidas); epochs k1={k1}, k2={k2}, repeats={repeats}; "
          f"smidas epochs {s1}..{s2}, repeats={s_repeats}")

    rows = []
    limiter = single_thread()
    try:
        lam_max = l1lab.Problem(X, y, loss="logistic", lam=0.0).lambda_max
        print(f"lambda_max = {lam_max:.3g}: lam = {', '.join(f'{lam:g}' for lam in LAMS)} "
              f"= {', '.join(f'{lam / lam_max:.3g}' for lam in LAMS)} lambda_max")
        for lam in LAMS:
            prob = l1lab.Problem(X, y, loss="logistic", lam=lam)
            p0 = prob.objective(np.zeros(D))
            # warm-up: numba compilation (or cache load), one untimed run of each
            for method in ("truncgrad", "sgd", "smidas"):
                run_l1lab(prob, method, 2000)
            run_l1lab(prob, "truncgrad", m)
            run_sklearn(X, y, lam, 1)

            runners = {"sklearn": lambda k, lam=lam: run_sklearn(X, y, lam, k),
                       "truncgrad": lambda k, prob=prob: run_l1lab(prob, "truncgrad", k * m),
                       "sgd": lambda k, prob=prob: run_l1lab(prob, "sgd", k * m)}
            walls, kernels, last_w = time_group(runners, (k1, k2), repeats)
            s_runner = {"smidas": lambda k, prob=prob: run_l1lab(prob, "smidas", int(round(k * m)))}
            s_walls, s_kernels, s_last = time_group(s_runner, (s1, s2), s_repeats)
            walls.update(s_walls)
            kernels.update(s_kernels)
            last_w.update(s_last)

            sk_ns = per_example(walls, "sklearn", k1, k2, m)
            for name in ("smidas", "truncgrad", "sgd", "sklearn"):
                a, b = (s1, s2) if name == "smidas" else (k1, k2)
                ns = per_example(walls, name, a, b, m)
                kns = per_example(kernels, name, a, b, m)
                w = last_w[name]
                nnz_w = int(np.count_nonzero(w))
                row = {
                    "lam": lam, "lam_over_lambda_max": lam / lam_max, "solver": name,
                    "eta": ETA_SMIDAS if name == "smidas" else ETA,
                    "epochs_k1": a, "epochs_k2": b, "repeats": s_repeats if name == "smidas" else repeats,
                    "ns_per_example": ns, "kernel_ns_per_example": kns,
                    "ratio": ns / sk_ns, "ratio_kernel": None if kns is None else kns / sk_ns,
                    "nnz_w_final": nnz_w, "objective_final": prob.objective(w), "objective_at_0": p0,
                    "finite": bool(np.all(np.isfinite(w))),
                    "ns_per_example_per_nnz_w": (ns / nnz_w) if (name == "smidas" and nnz_w) else None,
                    "median_wall_s": {f"k{k}": float(np.median(walls[(name, k)])) for k in (a, b)},
                    "all_wall_s": {f"k{k}": walls[(name, k)] for k in (a, b)},
                    "all_kernel_s": {f"k{k}": kernels[(name, k)] for k in (a, b)},
                }
                rows.append(row)
            print(f"  done: lam={lam:g} ({time.perf_counter() - t_start:.0f} s elapsed)", flush=True)
        sweep = smidas_sweep(X, y, SWEEP_LAMS, sweep_n1, sweep_n2, sweep_repeats)
        print(f"  done: smidas sweep ({time.perf_counter() - t_start:.0f} s elapsed)", flush=True)
    finally:
        limiter.unregister()

    print()
    print(f"ns per example processed (differenced over epochs {k1}..{k2}, smidas {s1}..{s2}; medians); "
          f"ratio = l1lab / sklearn")
    head = (f"{'lam':>7s} {'solver':10s} {'eta':>5s} {'ns/example':>11s} {'ratio':>7s} {'kernel':>9s} "
            f"{'k.ratio':>7s} {'nnz(w)':>7s} {'P(w)':>7s}")
    print(head)
    print("-" * len(head))
    for r in rows:
        kern = "" if r["kernel_ns_per_example"] is None else f"{r['kernel_ns_per_example']:9.0f}"
        kr = "" if r["ratio_kernel"] is None else f"{r['ratio_kernel']:7.2f}"
        print(f"{r['lam']:7g} {r['solver']:10s} {r['eta']:5g} {r['ns_per_example']:11.0f} {r['ratio']:7.2f} "
              f"{kern:>9s} {kr:>7s} {r['nnz_w_final']:7d} {r['objective_final']:7.4f}"
              + ("" if r["finite"] else "  NOT FINITE"))
    sk_ns_all = sorted(r["ns_per_example"] for r in rows if r["solver"] == "sklearn")
    print(f"P(0) = {rows[0]['objective_at_0']:.4f}.  smidas: nnz(w) = nnz(theta); "
          + "; ".join(f"lam={r['lam']:g}: {r['ns_per_example_per_nnz_w']:.1f} ns per step per nonzero theta_j"
                      for r in rows if r["solver"] == "smidas"))
    print()
    print(f"smidas kernel time per step vs its steady-state nnz(theta), over lam (steps {sweep_n1}..{sweep_n2}, "
          f"median of {sweep_repeats}; eta = {ETA_SMIDAS}):")
    print(f"{'lam':>7s} {'nnz(theta)':>10s} {'us/step':>8s} {'ns/step/nnz':>11s}")
    for c in sweep:
        print(f"{c['lam']:7g} {c['nnz_theta_mean']:10.0f} {c['ns_per_step'] / 1e3:8.1f} "
              f"{c['ns_per_step'] / c['nnz_theta_mean']:11.1f}")
    nz, ns = np.array([(c["nnz_theta_mean"], c["ns_per_step"]) for c in sweep]).T
    slope, intercept = np.polyfit(nz, ns, 1)
    fit = {"ns_per_nonzero_theta": float(slope), "intercept_ns": float(intercept), "n_points": int(nz.size)}
    print(f"least-squares fit: time per step = {intercept / 1e3:.1f} us + {slope:.1f} ns x nnz(theta)  "
          f"(sklearn: {sk_ns_all[0] / 1e3:.1f}-{sk_ns_all[-1] / 1e3:.1f} us per example)")
    finish(args.out, t_start, args.quick, {
        "data": {"m": M_EX, "d": D, "density": DENSITY, "nnz": int(X.nnz), "k_true": K_TRUE, "flip": FLIP},
        "lambda_max": lam_max, "eta": ETA, "eta_smidas": ETA_SMIDAS,
        "epochs": {"k1": k1, "k2": k2, "repeats": repeats, "smidas_k1": s1, "smidas_k2": s2,
                   "smidas_repeats": s_repeats},
        "results": rows,
        "smidas_sweep": sweep,
        "smidas_fit": fit,
    })


if __name__ == "__main__":
    main()
