"""Checkers of the exercise notebook of the lectures on Exponentiated gradient."""
from __future__ import annotations

import numpy as np

from ._framework import Report, compare, fmt

__all__ = ["check_smg_update", "check_smg_regret_bound"]


def check_smg_update(f):
    """``f(w, g, eta, F1)`` = update (3) of Kakade, Foster & Even-Dar: w_i (1 - eta g_i + eta Z),
    Z = <w, g>/F1 (w on the simplex of scale F1)."""
    r = Report("smg_update")
    rng = np.random.default_rng(7)
    for d, F1, eta in ((3, 1.0, 0.1), (50, 4.0, 0.05), (1000, 2.0, 0.125)):
        w = rng.dirichlet(np.ones(d)) * F1
        g = rng.uniform(-1, 1, d)
        expected = w * (1 - eta * g + eta * float(w @ g) / F1)
        compare(r, f"d = {d}, F1 = {F1}, eta = {eta}", expected, lambda w=w, g=g, eta=eta, F1=F1:
                 f(w.copy(), g.copy(), eta, F1))
        try:
            s = float(np.sum(f(w.copy(), g.copy(), eta, F1)))
            if abs(s - F1) > 1e-9 * F1:
                r.fail(f"d = {d}: sum of the new weights", f"expected {fmt(F1)}, got {fmt(s)}")
            else:
                r.ok(f"d = {d}: the new weights still sum to F1")
        except NotImplementedError:
            raise
        except Exception as err:
            r.fail(f"d = {d}: sum of the new weights", f"raised {type(err).__name__}: {err}")
    r.finish()


def check_smg_regret_bound(f):
    """``f(T, d, F1, G_inf)`` = Theorem 2.3's noiseless regret bound 4 F1 G_inf sqrt(log d / T)."""
    from ...theory import kakade_foster_evendar as kfe
    r = Report("smg_regret_bound")
    for T, d, F1, G in ((1000, 10, 1.0, 1.0), (10 ** 5, 2001, 4.0, 1.0), (500, 3, 2.5, 0.5)):
        compare(r, f"T = {T}, d = {d}, F1 = {F1}, G_inf = {G}", kfe.smg_regret_bound(T, d, F1, G),
                 lambda T=T, d=d, F1=F1, G=G: f(T, d, F1, G))
    r.finish()
