"""Checkers of the exercise notebook of the lectures on The ℓ1 problem."""
from __future__ import annotations

import numpy as np

from ._framework import Report, compare, small_problems

__all__ = ["check_soft_threshold", "check_objective", "check_lambda_max"]


def check_soft_threshold(f):
    """``f(w, tau)`` = s_tau(w) = sign(w) max(|w| - tau, 0), elementwise on arrays."""
    from ...losses import soft_threshold
    r = Report("soft_threshold")
    for w, tau in ((1.5, 0.5), (-1.5, 0.5), (0.3, 0.5), (-0.5, 0.5), (2.0, 0.0)):
        compare(r, f"s_{tau}({w})", soft_threshold(w, tau), lambda w=w, tau=tau: f(w, tau))
    w = np.random.default_rng(0).normal(size=50)
    compare(r, "50 random entries, tau = 0.7", soft_threshold(w, 0.7), lambda: f(w.copy(), 0.7))
    r.finish()


def check_objective(f):
    """``f(X, y, w, lam, loss)`` = P(w) = (1/m) sum_i L(<w, x_i>, y_i) + lam ||w||_1 for ``loss`` in
    {"squared", "logistic"}, with L(a, y) = (a - y)^2 / 2 or log(1 + exp(-y a))."""
    r = Report("objective")
    rng = np.random.default_rng(1)
    for loss, prob in small_problems().items():
        for k, w in enumerate((np.zeros(prob.d), rng.normal(size=prob.d))):
            X = np.asarray(prob.X)
            compare(r, f"{loss} loss, {'w = 0' if k == 0 else 'random w'}", prob.objective(w),
                     lambda X=X, prob=prob, w=w, loss=loss: f(X.copy(), prob.y.copy(), w.copy(), prob.lam, loss))
    r.finish()


def check_lambda_max(f):
    """``f(X, y, loss)`` = the smallest lam for which w = 0 is optimal, ||X^T L'(0, y)||_inf / m."""
    r = Report("lambda_max")
    for loss, prob in small_problems().items():
        X = np.asarray(prob.X)
        compare(r, f"{loss} loss", prob.lambda_max, lambda X=X, prob=prob, loss=loss: f(X.copy(), prob.y.copy(), loss))
    r.finish()
