"""Checkers of the exercise notebook of the lectures on The lower bound of Lemma 5."""
from __future__ import annotations

import numpy as np

from ._framework import Report, compare

__all__ = ["check_lemma5_risk", "check_lemma5_frontier"]


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
