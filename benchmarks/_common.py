"""Plumbing shared by the benchmark scripts: one BLAS/OpenMP thread, a record of the environment, and the JSON
output.  Run the scripts as ``python benchmarks/<script>.py`` (this folder is then on sys.path)."""
from __future__ import annotations

import datetime
import json
import os
import platform
import sys
import time

from threadpoolctl import threadpool_info, threadpool_limits

__all__ = ["blas_summary", "finish", "single_thread"]


def blas_summary():
    """The thread pools (BLAS, OpenMP) numpy and friends loaded, as short dicts."""
    keys = ("user_api", "internal_api", "prefix", "version", "architecture", "threading_layer", "num_threads")
    return [{k: info.get(k) for k in keys if k in info} for info in threadpool_info()]


def single_thread():
    """Limit every BLAS/OpenMP pool to one thread (a context manager); print what is loaded."""
    limiter = threadpool_limits(limits=1)
    for info in blas_summary():
        print("threadpool:", ", ".join(f"{k}={v}" for k, v in info.items()))
    return limiter


def finish(out_path, t_start, quick, payload):
    """Print the total time and load, and write ``payload`` with the date, machine, versions and thread pools to
    ``out_path`` as JSON."""
    total = time.perf_counter() - t_start
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    print(f"total {total:.0f} s" + (f"; load average {load[0]:.2f} (other processes add noise)" if load else ""))
    versions = {"python": platform.python_version()}
    for mod in ("numpy", "scipy", "sklearn", "numba", "l1lab"):
        if mod in sys.modules:
            versions[mod] = getattr(sys.modules[mod], "__version__", None)
    out = {
        "date": datetime.datetime.now().isoformat(timespec="seconds"),
        "quick": quick,
        "machine": {"platform": platform.platform(), "processor": platform.processor(),
                    "cpu_count": os.cpu_count(), "OPENBLAS_CORETYPE": os.environ.get("OPENBLAS_CORETYPE"),
                    "load_average_1min": load and load[0]},
        "versions": versions,
        "threadpools": blas_summary(),
        "total_seconds": total,
        **payload,
    }
    out_path.parent.mkdir(parents=True, exist_ok=True)
    out_path.write_text(json.dumps(out, indent=2))
    print(f"wrote {out_path}")
