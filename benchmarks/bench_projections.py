"""Speed benchmark of the l1-ball projections (Duchi, Shalev-Shwartz, Singer & Chandra 2008).

    python benchmarks/bench_projections.py            # full run, ~50 s here
    python benchmarks/bench_projections.py --quick    # ~6 s, noisier

(a) Dense projections.  ``project_l1_ball(v, z, method)`` for method = "pivot" (Figure 2) and "condat"
    (Condat 2016) against "sort" (Figure 1), on v ~ N(0, I_n) with z chosen so that the projection keeps 3 % of
    the entries, for n = 1e3 .. 1e7 (``--quick``: 1e4 and 1e6).  Reported: median wall time of the whole call
    and ratio = t(sort) / t(method); targets at n = 1e6: condat >= 5x, pivot >= 2x.  For information the
    threshold kernels alone (``l1lab.projections.dense._threshold_*`` on |v|) are timed the same way.
(b) Sparse updates.  ``SparseL1BallProjector.update`` (Section 6, Figure 3) with k = 100 random coordinates and
    values 0.1 * N(0, 1), radius z = 100, at n = 1e4 and n = 1e6 (full run: also 1e7), after a burn-in that
    brings the support to its steady size.  Reported: median time per update and
    ratio = t(n = 1e6) / t(n = 1e4) (target <= 2: the cost depends on the support, not on n).  For contrast,
    the dense way: ``w[idx] += g; w = project_l1_ball(w, z)`` per update, started from the same iterate and fed
    the same updates (the two final iterates are compared).

Results are printed and written to benchmarks/results/bench_projections.json.
"""
from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np
from _common import finish

import l1lab
from l1lab.projections import dense as dense_projections
from l1lab.projections import project_l1_ball
from l1lab.projections.sparse import SparseL1BallProjector

RESULTS = Path(__file__).resolve().parent / "results" / "bench_projections.json"
METHODS = ("sort", "pivot", "condat")
TARGETS = {"condat": 5.0, "pivot": 2.0}  # minimum speed-up over "sort" at n = 1e6
SUPPORT_FRACTION = 0.03


def radius_for_support(u, frac):
    """z such that the projection of (a vector with magnitudes) u onto the l1 ball keeps ceil(frac n) entries."""
    s = np.sort(u)[::-1]
    m = int(np.ceil(frac * u.size))
    return float(s[:m].sum() - m * s[m]) if m < u.size else float(s.sum()) / 2


def median_time(fn, min_repeats, budget):
    """Median of at least min_repeats timings, more while the total stays under budget seconds."""
    times = []
    t_all = time.perf_counter()
    while len(times) < min_repeats or (time.perf_counter() - t_all < budget and len(times) < 200):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return float(np.median(times)), times


# ------------------------------------------------------------------------------------------ (a) dense
def bench_dense(ns, budget):
    kernels = {"sort": getattr(dense_projections, "_threshold_sort", None),
               "pivot": getattr(dense_projections, "_threshold_pivot", None),
               "condat": getattr(dense_projections, "_threshold_condat", None)}
    rows = []
    for n in ns:
        rng = np.random.default_rng(n)
        v = rng.standard_normal(n)
        u = np.abs(v)
        z = radius_for_support(u, SUPPORT_FRACTION)
        ref = project_l1_ball(v, z, method="sort")
        support = int(np.count_nonzero(ref))
        row = {"n": n, "z": z, "support": support, "full": {}, "kernel": {}, "max_abs_diff_vs_sort": {}}
        for m in METHODS:  # warm-up (numba compilation or cache load) and agreement
            w = project_l1_ball(v, z, method=m)
            row["max_abs_diff_vs_sort"][m] = float(np.abs(w - ref).max())
        for m in METHODS:
            med, _ = median_time(lambda: project_l1_ball(v, z, method=m), 3, budget)
            row["full"][m] = med
            k = kernels[m]
            if k is not None:
                if m == "sort":
                    call = lambda: k(u, z)  # noqa: E731
                elif m == "pivot":
                    call = lambda: k(u, z, 0)  # noqa: E731
                else:
                    call = lambda: k(u, z)  # noqa: E731
                call()
                row["kernel"][m], _ = median_time(call, 3, budget / 2)
        row["ratio"] = {m: row["full"]["sort"] / row["full"][m] for m in ("pivot", "condat")}
        if len(row["kernel"]) == 3:
            row["kernel_ratio"] = {m: row["kernel"]["sort"] / row["kernel"][m] for m in ("pivot", "condat")}
        rows.append(row)
        kr = row.get("kernel_ratio", {})
        print(f"  n={n:>9,d} support {support:>7,d}  sort {1e3 * row['full']['sort']:9.3f} ms  "
              f"pivot {1e3 * row['full']['pivot']:8.3f} ms ({row['ratio']['pivot']:5.1f}x)  "
              f"condat {1e3 * row['full']['condat']:8.3f} ms ({row['ratio']['condat']:5.1f}x)   kernels only: "
              f"pivot {kr.get('pivot', float('nan')):5.1f}x, condat {kr.get('condat', float('nan')):5.1f}x",
              flush=True)
    return rows


# ----------------------------------------------------------------------------------------- (b) sparse
def update_stream(n, k, steps, rng):
    idx = [rng.choice(n, size=k, replace=False).astype(np.int64) for _ in range(steps)]
    vals = 0.1 * rng.standard_normal((steps, k))
    return idx, vals


def bench_sparse(ns, k, z, burn_in, steps, repeats, dense_steps):
    rows = []
    for n in ns:
        rng = np.random.default_rng(1000 + n)
        P = SparseL1BallProjector(n, z)
        b_idx, b_vals = update_stream(n, k, burn_in, rng)
        for t in range(burn_in):
            P.update(b_idx[t], b_vals[t])
        per_update = []
        nnz = []
        for _ in range(repeats):
            idx, vals = update_stream(n, k, steps, rng)
            t0 = time.perf_counter()
            for t in range(steps):
                P.update(idx[t], vals[t])
            per_update.append((time.perf_counter() - t0) / steps)
            nnz.append(P.nnz)
        # the dense way, from the same iterate, on the same updates
        idx, vals = update_stream(n, k, dense_steps, rng)
        w = P.to_dense()
        t0 = time.perf_counter()
        for t in range(dense_steps):
            w[idx[t]] += vals[t]
            w = project_l1_ball(w, z)
        t_dense = (time.perf_counter() - t0) / dense_steps
        for t in range(dense_steps):
            P.update(idx[t], vals[t])
        diff = float(np.abs(P.to_dense() - w).max())
        row = {"n": n, "k": k, "z": z, "burn_in": burn_in, "steps": steps, "repeats": repeats,
               "update_s": float(np.median(per_update)), "all_update_s": per_update, "nnz": nnz,
               "tree_height": int(P._I[P._st[0], 3]), "rebases": P.n_rebases,
               "dense_update_s": t_dense, "dense_steps": dense_steps, "max_abs_diff_vs_dense": diff}
        rows.append(row)
        print(f"  n={n:>10,d}  tree {1e6 * row['update_s']:8.1f} us/update (nnz ~{int(np.median(nnz)):,d}, "
              f"height {row['tree_height']})   dense re-projection {1e6 * t_dense:10.1f} us/update "
              f"({t_dense / row['update_s']:7.1f}x slower); final |tree - dense| = {diff:.1e}", flush=True)
    return rows


# ---------------------------------------------------------------------------------------------- main
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="fewer sizes and repeats (~6 s)")
    ap.add_argument("--out", type=Path, default=RESULTS, help="JSON output path")
    args = ap.parse_args(argv)

    t_start = time.perf_counter()
    if args.quick:
        dense_ns, budget = [10**4, 10**6], 0.6
        sparse_ns, burn_in, steps, repeats, dense_steps = [10**4, 10**6], 2000, 2000, 3, 10
    else:
        dense_ns, budget = [10**3, 10**4, 10**5, 10**6, 10**7], 2.0
        sparse_ns, burn_in, steps, repeats, dense_steps = [10**4, 10**6, 10**7], 5000, 5000, 5, 20
    k, z = 100, 100.0
    print(f"python {platform.python_version()}, numpy {np.__version__}, numba {sys.modules['numba'].__version__},"
          f" l1lab {l1lab.__version__}; {os.cpu_count()} cores")

    print(f"(a) project_l1_ball on v ~ N(0, I_n), support {SUPPORT_FRACTION:.0%} of n; ratio = t(sort) / t(method)")
    dense = bench_dense(dense_ns, budget)
    print(f"(b) SparseL1BallProjector.update, k = {k}, values 0.1 N(0,1), z = {z:g}")
    sparse = bench_sparse(sparse_ns, k, z, burn_in, steps, repeats, dense_steps)

    print()
    at = {r["n"]: r for r in dense}
    summary = {}
    if 10**6 in at:
        for m, target in TARGETS.items():
            ratio = at[10**6]["ratio"][m]
            summary[f"{m}_vs_sort_at_1e6"] = {"ratio": ratio, "target": target, "met": ratio >= target}
            print(f"{m:7s} vs sort at n = 1e6: {ratio:5.2f}x  (target >= {target:g}x: "
                  f"{'met' if ratio >= target else 'NOT met'})")
    sp_at = {r["n"]: r for r in sparse}
    if 10**4 in sp_at and 10**6 in sp_at:
        ratio = sp_at[10**6]["update_s"] / sp_at[10**4]["update_s"]
        summary["sparse_update_1e6_over_1e4"] = {"ratio": ratio, "target": 2.0, "met": ratio <= 2.0}
        print(f"sparse update time n = 1e6 / n = 1e4: {ratio:5.2f}  (target <= 2: "
              f"{'met' if ratio <= 2.0 else 'NOT met'})")
    finish(args.out, t_start, args.quick, {
        "support_fraction": SUPPORT_FRACTION,
        "dense": dense,
        "sparse": sparse,
        "summary": summary,
    })


if __name__ == "__main__":
    main()
