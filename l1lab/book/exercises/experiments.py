"""Checkers of the exercise notebook of the lecture "The experiments of Section 4".

The notebook uses :func:`check_claim_measures` and :func:`check_negligible_ratio`; :func:`check_data_accesses`
and :func:`check_choose_eta` check what the lecture's own code now shows (the cost of a step and the choice of
eta) and stay for readers who write them again."""
from __future__ import annotations

import math

import numpy as np

from ._framework import Report, compare

__all__ = ["check_choose_eta", "check_claim_measures", "check_data_accesses", "check_negligible_ratio"]


def check_data_accesses(f):
    """``f(X, method, idx)`` = the data accesses (entries x_ij read) of the steps ``idx``: for "scd" the
    coordinates updated (a step reads the nonzeros of column j), for "smidas" the examples used (a step reads
    the nonzeros of row i) -- the x-axis of Shalev-Shwartz & Tewari's figures, as l1lab's traces count it."""
    import scipy.sparse as sp

    from ...problem import Problem
    r = Report("data_accesses")
    rng = np.random.default_rng(9)
    X = sp.random(60, 40, density=0.1, random_state=3, format="csr")
    X.data = np.clip(X.data, -1, 1)
    dense = rng.uniform(-1, 1, size=(30, 20))
    for name, M in (("sparse 60 x 40", X), ("dense 30 x 20", dense)):
        prob = Problem(M, np.ones(M.shape[0]), "logistic", 0.1)
        for method in ("scd", "smidas"):
            n = prob.d if method == "scd" else prob.m
            idx = rng.integers(0, n, size=25)
            nnz = prob.column_nnz if method == "scd" else prob.row_nnz
            compare(r, f"{method}, {name}", float(nnz[idx].sum()),
                     lambda M=M, method=method, idx=idx: f(M.copy(), method, idx.copy()))
    r.finish()


def check_choose_eta(f):
    """``f(etas, final_objectives)`` = (the step size with the smallest final objective -- the smaller step on
    a tie, inf or nan meaning diverged -- and whether it lies at an edge of the grid), as Section 4.2 chose it."""
    r = Report("choose_eta")
    cases = [([1e-3, 1e-2, 1e-1, 1.0], [0.5, 0.3, 0.2, 0.4], (1e-1, False)),
             ([1e-3, 1e-2, 1e-1], [0.5, 0.3, 0.2], (1e-1, True)),
             ([1e-3, 1e-2, 1e-1], [0.2, 0.2, np.inf], (1e-3, True)),
             ([5e-4, 1e-3, 5e-3, 1e-2], [0.9, 0.4, np.nan, 0.45], (1e-3, False))]
    for k, (etas, vals, (eta, edge)) in enumerate(cases):
        try:
            got = f(list(etas), list(vals))
            got_eta, got_edge = float(got[0]), bool(got[1])
        except NotImplementedError:
            raise
        except Exception as err:
            r.fail(f"case {k + 1}", f"raised {type(err).__name__}: {err}")
            continue
        if math.isclose(got_eta, eta) and got_edge == edge:
            r.ok(f"case {k + 1}: eta = {eta:g}, edge = {edge}")
        else:
            r.fail(f"case {k + 1}", f"expected ({eta:g}, {edge}), got ({got_eta:g}, {got_edge})")
    r.finish()


def _measures_case(rng, n_cp, names=("SCD", "GCD", "SMIDAS", "TruncGrad")):
    """A made-up figure: the data-access axis and decreasing mean objective curves from P(0) = log 2."""
    x = np.concatenate([[0.0], np.cumsum(rng.integers(50, 500, size=n_cp - 1)).astype(float)])
    curves = {}
    base = rng.uniform(0.05, 0.4)
    for n in names:
        ends = base + rng.choice([0.0, 0.002, 0.05, 0.2])     # some curves end together, within the target
        steps = np.sort(rng.uniform(0, 1, size=n_cp - 1))[::-1]
        curves[n] = np.concatenate([[math.log(2)], ends + (math.log(2) - ends) * steps ** rng.uniform(1, 4)])
    return x, curves


def _as_experiment(x, curves):
    """The curves as the sweep of one figure (MAGIC04D, lambda = 1e-6), for l1lab's own figure_stats."""
    from ...experiments import Sweep, SweepRecord, SweepTask
    from ...trace import Result, Trace
    from .. import experiments as book

    solver = {v: k for k, v in book.SOLVER_NAMES.items()}
    records = []
    for name, obj in curves.items():
        s = solver[name]
        trace = Trace(iteration=np.arange(len(x)), data_accesses=np.asarray(x, float), objective=np.asarray(obj),
                      nnz=np.zeros(len(x)), seconds=np.zeros(len(x)))
        task = SweepTask("magic04d", s, 1e-6, 0.1 if s in ("smidas", "truncgrad") else None,
                         None if s == "gcd" else 0, len(x) - 1)
        records.append(SweepRecord(task, Result(w=np.ones(3), trace=trace), key=s, cached=False))
    meta = {"magic04d": {"label": "made-up curves", "offline": False, "fingerprint": "x", "shape": (1, 3)}}
    data = book.ExperimentData.from_sweeps(Sweep(records=records, datasets=meta))
    return book.figure_stats(data, "magic04d", 1e-6)


def check_claim_measures(f):
    """``f(x, curves, target)`` = (excess, reach): for every algorithm of ``curves`` ({name: mean objective at the
    checkpoints x, a shared data-access axis, all starting at P(0)}), its excess at the end of the run (the
    lecture's definition, with P_low the smallest value any curve reaches) and the first x at which its excess is
    at most ``target`` (math.inf if never) -- as l1lab's ``figure_stats`` computes them."""
    r = Report("claim_measures")
    rng = np.random.default_rng(11)
    for k, (n_cp, target) in enumerate(((8, 0.01), (15, 0.05), (30, 0.01), (30, 0.2))):
        x, curves = _measures_case(rng, n_cp)
        if k == 3:                                  # a curve that dips below its final value before the end
            first = next(iter(curves))
            curves[first][-2] = min(c.min() for c in curves.values()) - 0.02
        st = _as_experiment(x, curves)
        try:
            excess, reach = f(x.copy(), {n: c.copy() for n, c in curves.items()}, target)
        except NotImplementedError:
            raise
        except Exception as err:
            r.fail(f"case {k + 1}", f"raised {type(err).__name__}: {err}")
            continue
        for n in curves:
            exp_r = _reach_with(st, x, curves, target, n)
            got_e, got_r = excess.get(n) if isinstance(excess, dict) else None, \
                reach.get(n) if isinstance(reach, dict) else None
            if got_e is None or got_r is None:
                r.fail(f"case {k + 1}, {n}", "expected two dicts keyed by the algorithms' names")
            elif not math.isclose(float(got_e), st.excess[n], rel_tol=1e-9, abs_tol=1e-12):
                r.fail(f"case {k + 1}, {n}", f"excess: expected {st.excess[n]:.6g}, got {float(got_e):.6g}")
            elif not (float(got_r) == exp_r):
                r.fail(f"case {k + 1}, {n}", f"reach: expected {exp_r:g}, got {float(got_r):g}")
            else:
                r.ok(f"case {k + 1}, {n}: excess {st.excess[n]:.4f}, reach {exp_r:g}")
    r.finish()


def _reach_with(st, x, curves, target, name):
    """The reach of ``name`` for another target than figure_stats's default (the same definition)."""
    scale = st.p0 - st.p_low if st.p0 > st.p_low else 1.0
    hit = [i for i, v in enumerate(curves[name]) if (v - st.p_low) / scale <= target]
    return float(x[hit[0]]) if hit else math.inf


def check_negligible_ratio(f):
    """``f(d, rel)`` = the ratio |theta_j| / max_k |theta_k| of SMIDAS's dual vector below which the primal weight
    |w_j| is less than ``rel`` times the largest, with p = ceil(2 ln d) as in Section 4: checked with l1lab's link
    (:func:`l1lab.links.link_inverse`) -- at that ratio the primal ratio is exactly ``rel``."""
    from ...links import link_inverse
    r = Report("negligible_ratio")
    for d, rel in ((7129, 1e-6), (1030, 1e-6), (10000, 1e-3), (50, 1e-2), (2, 0.5)):
        p = math.ceil(2 * math.log(d))
        what = f"d = {d} (p = {p}), rel = {rel:g}"
        try:
            ratio = float(f(d, rel))
        except NotImplementedError:
            raise
        except Exception as err:
            r.fail(what, f"raised {type(err).__name__}: {err}")
            continue
        if not 0 < ratio <= 1:
            r.fail(what, f"a ratio of dual coordinates lies in (0, 1], got {ratio:g}")
            continue
        theta = np.zeros(d)
        theta[0], theta[1] = 1.0, ratio
        w = link_inverse(theta, p)
        got = abs(w[1]) / abs(w[0])
        if math.isclose(got, rel, rel_tol=1e-9):
            r.ok(f"{what}: ratio {ratio:.6g}")
        else:
            r.fail(what, f"at your ratio {ratio:.6g} the primal ratio is {got:.6g}, not {rel:g}")
    r.finish()
