"""Shared driver of the example-sampling solvers: draws the example stream, runs kernel chunks between
checkpoints, materializes the output iterate (last, uniformly random w_r, or average) and records the trace."""
from __future__ import annotations

import time

import numpy as np

from ..trace import Result, TraceRecorder, log_checkpoints
from ._checks import check_n_iter, check_positive, check_problem

OUTPUTS = ("last", "random", "average")


def check_common(problem, n_iter, eta, output):
    check_problem(problem)
    n_iter = check_n_iter(n_iter)
    eta = check_positive(eta, "the step size eta")
    if output not in OUTPUTS:
        raise ValueError(f"output must be one of {OUTPUTS}, got {output!r}")
    return n_iter, eta


def output_events(cps, output, rng):
    """The iterations at which a run must stop: the checkpoints ``cps`` and, for the random output (Theorem 3's,
    and PGS's: at checkpoint T the iterate w_r with r uniform on {0, ..., T-1}, w_0 = 0, drawn in advance from
    ``rng``, one draw per checkpoint T > 0), the iterations r to keep.  Returns (snaps: {r: [checkpoint
    indices]}, events: sorted iterations, cp_index: {T: checkpoint index})."""
    snaps = {}
    if output == "random":
        for k, T in enumerate(cps):
            snaps.setdefault(int(rng.integers(0, T)) if T > 0 else 0, []).append(k)
    events = np.unique(np.concatenate([cps, np.array(sorted(snaps), dtype=np.int64)]))
    return snaps, events, {int(T): k for k, T in enumerate(cps)}


def run_examples(problem, n_iter, seed, n_checkpoints, output, algo, info):
    """``algo`` has run(idx) (a chunk of steps), primal() (a copy of the current w) and, for the averaged
    output, wsum (the sum of the iterates after every step so far)."""
    rng = np.random.default_rng(seed)
    cps = log_checkpoints(n_iter, n_checkpoints)
    snaps, events, cp_index = output_events(cps, output, rng)
    row_nnz = problem.row_nnz
    taken = {}
    rec = TraceRecorder()
    accesses = 0
    seconds = 0.0
    t = 0
    for e in events:
        e = int(e)
        if e > t:
            idx = rng.integers(0, problem.m, size=e - t, dtype=np.int64)
            t0 = time.perf_counter()
            algo.run(idx)
            seconds += time.perf_counter() - t0
            accesses += int(row_nnz[idx].sum())
            t = e
        if e in snaps:
            w_snap = algo.primal()
            for k in snaps[e]:
                taken[k] = w_snap
        if e in cp_index:
            k = cp_index[e]
            if output == "last" or e == 0:
                w_out = algo.primal()
            elif output == "random":
                w_out = taken[k]
            else:  # (1/T) sum_{t=0}^{T-1} w_t, with w_0 = 0 and algo.wsum = sum_{t=1}^{T} w_t
                w_out = (algo.wsum - algo.primal()) / e
            rec.record(e, accesses, problem.objective(w_out), np.count_nonzero(w_out), seconds)
    info = dict(info, seed=seed, n_iter=n_iter, output=output)
    return Result(w=w_out, trace=rec.finish(), info=info)
