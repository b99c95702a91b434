"""Checkers of the exercise notebook of the lectures "Coordinate steps: the first ingredient of a fast solver"
and "A fast solver: working sets, extrapolation and a certificate"."""
from __future__ import annotations

import numpy as np

from ._framework import Report, compare, small_problems

__all__ = ["check_coordinate_psi0", "check_lasso_duality_gap"]


def _problems():
    """The fixed problems of these checkers: the two small ones, and a sparse squared-loss one whose columns have
    very different norms (where beta_j and beta differ the most)."""
    from ...data.synthetic import make_regression
    from ...problem import Problem
    probs = small_problems()
    Xs, ys, _ = make_regression(60, 15, 3, noise=0.1, density=0.3, seed=3)
    probs["sparse squared"] = Problem(Xs, ys, "squared", 0.03)
    return probs


def check_coordinate_psi0(f):
    """``f(X, y, w_star, lam, loss)`` = Psi_B(0) of the lecture's theorem: half the sum over j of
    beta_j (w*_j)^2, with beta_j = beta ||x_j||^2/m (beta = 1 for the squared loss, 1/4 for the logistic loss),
    plus P(0).  X is passed as a dense array."""
    from ...theory import shalev_shwartz_tewari as sst
    r = Report("coordinate_psi0")
    rng = np.random.default_rng(5)
    for name, prob in _problems().items():
        loss = prob.loss.name
        beta_j = prob.loss.beta * prob.column_sq_norms()
        p0 = prob.objective(np.zeros(prob.d))
        for kind in ("sparse w*", "dense w*"):
            w = rng.normal(size=prob.d)
            if kind == "sparse w*":
                w[rng.permutation(prob.d)[3:]] = 0.0
            expected = sst.scd_coordinate_psi0(beta_j, w, p0)
            X = prob.X.toarray() if prob.is_sparse else np.asarray(prob.X)
            compare(r, f"{name} loss, {kind}", expected,
                    lambda X=X, prob=prob, w=w, loss=loss: f(X.copy(), prob.y.copy(), w.copy(), prob.lam, loss))
    r.finish()


def check_lasso_duality_gap(f):
    """``f(X, y, w, lam)`` = the duality gap P(w) - D(u) of the Lasso at w, for the dual point the lecture builds
    from the residuals (u = (y - Xw)/m, scaled down into the box |X^T u|_j <= lam when it is outside): the value of
    :func:`l1lab.solvers.working_set.duality_gap`.  Checked at w = 0, at random points, and near the optimum."""
    from ...solvers import working_set_cd
    from ...solvers.working_set import duality_gap
    r = Report("lasso_duality_gap")
    rng = np.random.default_rng(6)
    for name, prob in _problems().items():
        if prob.loss.name != "squared":
            continue
        X = prob.X.toarray() if prob.is_sparse else np.asarray(prob.X)
        near = working_set_cd(prob, tol=1e-4).w
        for what, w in (("w = 0", np.zeros(prob.d)), ("a random w", rng.normal(scale=0.5, size=prob.d)),
                        ("a sparse random w", np.where(rng.random(prob.d) < 0.3, rng.normal(size=prob.d), 0.0)),
                        ("w near the optimum", near)):
            expected = duality_gap(prob, w)
            compare(r, f"{name}, {what}", expected,
                    lambda X=X, prob=prob, w=w: f(X.copy(), prob.y.copy(), w.copy(), prob.lam))
    r.finish()
