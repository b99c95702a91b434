"""Choosing lam by cross-validation: l1lab's L1RegressorCV / L1ClassifierCV against scikit-learn's LassoCV and
LogisticRegressionCV (l1, liblinear and saga), on the same folds and the same grid.

    .venv/bin/python benchmarks/bench_cv.py            # a few minutes here
    .venv/bin/python benchmarks/bench_cv.py --quick    # one repeat, the small problems

For each problem: the time of the whole fit (the paths on the folds and the refit on all data; best of
``--repeats`` after a warm-up fit, one BLAS thread), the chosen lam, and the mean held-out score of each estimator's
choice read from l1lab's score path, beside the standard error of the folds' scores at l1lab's choice (a choice
whose mean score is within it is as good as the data can tell).  Ratios are to the fastest scikit-learn estimator.

Accuracy.  Two settings of l1lab: its default (``cv_tol=1e-4``: each path solution certified to a duality gap of
1e-4 P_null) and a tight one (``cv_tol=1e-8``), whose score path is the reference the choices are read on.
LassoCV stops each fit when its duality gap is at most ``tol`` ||y_c||^2/m, with y centred on the fold: 2 tol P_null
in l1lab's normalization, so its default tol=1e-4 is ``cv_tol = 2e-4``, half as strict as l1lab's default.
LogisticRegressionCV's solvers stop on their own criteria (the change of the coefficients), which certify nothing;
it runs at its default tol (1e-4).  scikit-learn's C is 1/(m_train lam), m_train the size of a training fold
(K-fold: m - m/K up to one example).

The logistic problems differ in one respect: liblinear penalizes its intercept (as an extra feature of value
``intercept_scaling``), l1lab and saga do not.
"""
from __future__ import annotations

import argparse
import time
import warnings
from pathlib import Path

import numpy as np
from _common import finish, single_thread
from sklearn.datasets import load_breast_cancer, load_diabetes
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LassoCV, LogisticRegressionCV
from sklearn.model_selection import KFold, StratifiedKFold

from l1lab.data import make_classification, make_regression
from l1lab.estimators import L1ClassifierCV, L1RegressorCV


def problems(quick):
    X, y = load_diabetes(return_X_y=True)
    out = [("diabetes", "squared", X, y)]
    for m, d in ((500, 200), (200, 1000)) + (() if quick else ((2000, 500),)):
        X, y, _ = make_regression(m, d, 10, noise=0.5, seed=0)
        out.append((f"regression {m}x{d}", "squared", X, y))
    X, y = load_breast_cancer(return_X_y=True)
    out.append(("breast cancer", "logistic", X, y))
    X, y, _ = make_classification(500, 200, 10, flip=0.1, seed=0)
    out.append(("classification 500x200", "logistic", X, y))
    return out


def best_time(fit, repeats):
    fit()                                          # warm-up: numba's cache load, scikit-learn's first call
    best = np.inf
    for _ in range(repeats):
        t = time.perf_counter()
        est = fit()
        best = min(best, time.perf_counter() - t)
    return best, est


def run(name, loss, X, y, K, repeats):
    print(f"\n{name}: m = {X.shape[0]}, d = {X.shape[1]}")
    rows = []
    if loss == "squared":
        folds, sk_tol = KFold(K), 1e-4
        ours = {"l1lab (cv_tol 1e-8, tight)": lambda: L1RegressorCV(cv=folds, cv_tol=1e-8).fit(X, y),
                "l1lab (default cv_tol 1e-4)": lambda: L1RegressorCV(cv=folds).fit(X, y)}
    else:
        folds = StratifiedKFold(K)
        ours = {"l1lab (cv_tol 1e-8, tight)": lambda: L1ClassifierCV(cv=folds, cv_tol=1e-8).fit(X, y),
                "l1lab (default cv_tol 1e-4)": lambda: L1ClassifierCV(cv=folds).fit(X, y)}
    ref_t, ref = best_time(next(iter(ours.values())), repeats)
    lams, scores = ref.lams_, ref.scores_path_
    mean = scores.mean(axis=1)
    noise = scores[np.argmax(mean)].std(ddof=1) / np.sqrt(K)

    def row(label, seconds, lam):
        k = int(np.argmin(np.abs(np.log(lams / lam))))
        rows.append({"estimator": label, "seconds": seconds, "lam": float(lam), "mean_score": float(mean[k])})

    row(next(iter(ours)), ref_t, ref.lam_)
    for label, fit in list(ours.items())[1:]:
        t, est = best_time(fit, repeats)
        row(label, t, est.lam_)
    m_train = X.shape[0] - X.shape[0] // K
    scaled = X / ref.scale_
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        warnings.simplefilter("ignore", FutureWarning)
        if loss == "squared":
            t, est = best_time(lambda: LassoCV(alphas=lams, cv=folds, tol=sk_tol).fit(scaled, y), repeats)
            row("scikit-learn LassoCV (tol 1e-4)", t, est.alpha_)
        else:
            for solver in ("liblinear", "saga"):
                t, est = best_time(lambda: LogisticRegressionCV(
                    Cs=1.0 / (m_train * lams), l1_ratios=(1.0,), cv=folds, solver=solver,
                    max_iter=10_000).fit(scaled, y), repeats)
                row(f"scikit-learn LogisticRegressionCV ({solver})", t, 1.0 / (m_train * float(est.C_[0])))
    fastest_peer = min(r["seconds"] for r in rows if r["estimator"].startswith("scikit"))
    for r in rows:
        r["ratio_to_fastest_peer"] = r["seconds"] / fastest_peer
        print(f"  {r['estimator']:<48} {r['seconds']:8.3f} s  {r['ratio_to_fastest_peer']:5.2f}x   "
              f"lam {r['lam']:.4g}   mean score {r['mean_score']:.5g}")
    print(f"  the folds' standard error at the tight choice: {noise:.3g} (mean scores read on the tight path)")
    return {"problem": name, "m": X.shape[0], "d": X.shape[1], "folds": K, "score_noise": float(noise), "rows": rows}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--folds", type=int, default=5)
    args = ap.parse_args()
    t0 = time.perf_counter()
    with single_thread():
        results = [run(*p, args.folds, 1 if args.quick else args.repeats) for p in problems(args.quick)]
    finish(Path(__file__).parent / "results" / "cv.json", t0, args.quick, {"problems": results})


if __name__ == "__main__":
    main()
