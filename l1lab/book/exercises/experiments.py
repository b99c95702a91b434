"""Checkers of the exercise notebook of the lectures on The experiments of Section 4."""
from __future__ import annotations

import math

import numpy as np

from ._framework import Report, compare

__all__ = ["check_data_accesses", "check_choose_eta"]


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
