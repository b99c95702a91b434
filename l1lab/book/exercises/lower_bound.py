"""Checkers of the exercise notebook of the lectures on The lower bound of Lemma 5."""
from __future__ import annotations

import numpy as np

from ._framework import Report, compare

__all__ = ["check_greedy_gram", "check_lemma5_frontier", "check_lemma5_min_steps", "check_lemma5_printed_range",
           "check_lemma5_risk"]


def check_lemma5_risk(f):
    """``f(w, B)`` = the risk of Lemma 5's construction, E[(<w, X> - Y)^2] = (1 - 1/B^2) ||w||_2^2 +
    (1 - sum(w)/B)^2 (X_j = Y with probability 1/2 + 1/(2B), independently given Y = +-1)."""
    from ...data.lower_bound import population_risk
    r = Report("lemma5_risk")
    rng = np.random.default_rng(8)
    for B, d in ((2.0, 5), (3.0, 40), (2.5, 300)):
        for k, w in enumerate((np.zeros(d), rng.normal(scale=0.1, size=d), np.full(d, B / d))):
            compare(r, f"B = {B}, d = {d}, w #{k + 1}", population_risk(w, B), lambda w=w, B=B: f(w.copy(), B))
    r.finish()


def check_lemma5_frontier(f):
    """``f(s, B, d)`` = the least excess risk of an s-sparse vector on Lemma 5's construction,
    k(d - s)/((s + k)(d + k)) with k = B^2 - 1."""
    from ...theory import shalev_shwartz_tewari as sst
    r = Report("lemma5_frontier")
    for s_, B, d in ((0, 2.0, 300), (1, 2.0, 300), (25, 2.0, 300), (300, 2.0, 300), (10, 3.0, 800)):
        compare(r, f"s = {s_}, B = {B}, d = {d}", sst.lemma5_frontier(s_, B, d), lambda s_=s_, B=B, d=d: f(s_, B, d))
    r.finish()


def check_lemma5_min_steps(f):
    """``f(eps, B, d)`` = the fewest one-coordinate steps from w = 0 that can reach excess risk eps on Lemma 5's
    construction in dimension d: the smallest integer s in [0, d] whose frontier k(d - s)/((s + k)(d + k)),
    k = B^2 - 1, is at most eps (checked away from the boundaries, where rounding could decide)."""
    from ...theory import shalev_shwartz_tewari as sst
    r = Report("lemma5_min_steps")
    for eps, B, d in ((0.12, 2.0, 300), (0.01, 2.0, 300), (1e-3, 2.0, 300), (1e-5, 2.0, 300), (0.995, 2.0, 300),
                      (0.05, 3.0, 800), (2e-3, 3.0, 800), (0.03, 2.5, 525)):
        expected = float(sst.lemma5_min_steps(eps, B, d)) + 0.0      # + 0.0: no "-0" in a message
        compare(r, f"eps = {eps:g}, B = {B}, d = {d}", expected,
                lambda eps=eps, B=B, d=d: f(eps, B, d))
    r.finish()


def check_lemma5_printed_range(f):
    """``f(B, d)`` = the largest s <= d such that the printed bound min{0.12, B^2/(16 s')} is at most the exact
    frontier for every s' = 1, ..., s (after it, the printed inequality is false for the construction)."""
    from ...theory import shalev_shwartz_tewari as sst
    r = Report("lemma5_printed_range")
    for B, d in ((2.0, 300), (3.0, 800), (2.5, 525), (2.0, 1000)):
        compare(r, f"B = {B}, d = {d}", sst.lemma5_printed_bound_range(B, d), lambda B=B, d=d: f(B, d))
    r.finish()


def _greedy_problems():
    from ...data import make_regression
    from ...data.lower_bound import sample
    X1, y1 = sample(2, 500, d=40, seed=0)
    X2, y2, _ = make_regression(60, 25, 5, noise=0.1, seed=1)
    return (("the lemma's distribution, m = 500, d = 40", X1, y1, 40),
            ("a continuous design, m = 60, d = 25", X2, y2, 12))


def check_greedy_gram(f):
    """``f(G, b, c, s_max)`` = (order, objective) of fully corrective forward greedy selection computed from the
    moments only, G = X^T X/m, b = X^T y/m, c = |y|^2/m: the coordinates in the order chosen (largest |gradient|
    first, ties to the smallest index) and the objectives C(w_0), ..., C(w_s_max) of the least-squares refits, in
    l1lab's units (C(w) = |Xw - y|^2/(2m)).  Compared with :func:`l1lab.solvers.forward.forward_selection`."""
    from ...problem import Problem
    from ...solvers.forward import forward_selection
    r = Report("greedy_gram")
    for what, X, y, s_max in _greedy_problems():
        m = X.shape[0]
        G, b, c = X.T @ X / m, X.T @ y / m, float(y @ y) / m
        path = forward_selection(Problem(X, y, loss="squared", lam=0.0), s_max=s_max, keep_weights=False)
        args = (G, b, c, s_max)
        compare(r, f"{what}: the order", path.order, lambda args=args: f(*(a.copy() if hasattr(a, "copy") else a
                                                                         for a in args))[0])
        compare(r, f"{what}: the objectives", path.objective,
                lambda args=args: f(*(a.copy() if hasattr(a, "copy") else a for a in args))[1])
    r.finish()
