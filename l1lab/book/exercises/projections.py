"""Checkers of the exercise notebooks of the two lectures on projections onto the ℓ1 ball (Duchi, Shalev-Shwartz,
Singer & Chandra 2008): ``projections`` (the simplex, the ball, the threshold) and ``projections_sparse`` (sparse
steps, the tree's threshold, projected stochastic gradient)."""
from __future__ import annotations

import numpy as np

from ._framework import Report, compare

__all__ = ["check_predicted_nnz", "check_project_l1_ball", "check_project_simplex", "check_project_weighted_l1_ball",
           "check_psg_constant", "check_threshold_bisection", "check_threshold_from_keys"]

#: the points of the prediction exercise, projected onto the l1 ball of radius PREDICT_Z
PREDICT_POINTS = ((2.0, 1.5), (-2.0, 0.5), (0.3, 0.4), (1.2, -0.1))
PREDICT_Z = 1.0


def check_project_simplex(f):
    """``f(v, z)`` = the Euclidean projection of v onto {w >= 0, sum w = z} (Figure 1 of Duchi et al. 2008)."""
    from ...projections import project_simplex
    r = Report("project_simplex")
    rng = np.random.default_rng(5)
    cases = [(np.array([0.5, 0.2, 0.1]), 1.0), (np.array([3.0, -1.0, 0.0]), 1.0), (np.array([0.2, 0.2]), 1.0),
             (rng.normal(size=100), 2.5), (rng.exponential(size=1000) * 0.001, 1.0)]
    for k, (v, z) in enumerate(cases):
        compare(r, f"case {k + 1}: n = {v.size}, z = {z}", project_simplex(v, z, method="sort"),
                lambda v=v, z=z: f(v.copy(), z))
    r.finish()


def check_project_l1_ball(f):
    """``f(v, z)`` = the Euclidean projection of v onto {||w||_1 <= z} (the reduction of Section 4 of Duchi
    et al. 2008: v itself if inside, else sign(v) times the simplex projection of |v|)."""
    from ...projections import project_l1_ball
    r = Report("project_l1_ball")
    rng = np.random.default_rng(6)
    cases = [(np.array([0.1, -0.2]), 1.0), (np.array([2.0, -3.0, 0.5]), 1.0), (rng.normal(size=200), 5.0),
             (rng.normal(size=200), 500.0)]
    for k, (v, z) in enumerate(cases):
        compare(r, f"case {k + 1}: n = {v.size}, z = {z}", project_l1_ball(v, z, method="sort"),
                lambda v=v, z=z: f(v.copy(), z))
    r.finish()


def check_threshold_bisection(f):
    """``f(v, z)`` = the threshold theta of the projection of v onto the simplex {w >= 0, sum w = z} (found by
    bisection on sum_i max(v_i - theta, 0) = z, to within 1e-12), compared with l1lab's exact threshold."""
    from ...projections import simplex_threshold
    r = Report("threshold_bisection")
    rng = np.random.default_rng(7)
    cases = [(np.array([0.9, 0.2, 0.6, -0.3, 0.5]), 1.0), (np.array([1.0, 1.0, 1.0]), 0.3),
             (np.array([-2.0, -1.0]), 1.0), (rng.normal(size=300), 4.0), (rng.integers(0, 4, 200) * 1.0, 2.0)]
    for k, (v, z) in enumerate(cases):
        compare(r, f"case {k + 1}: n = {v.size}, z = {z}", simplex_threshold(v, z), lambda v=v, z=z: f(v.copy(), z))
    r.finish()


def check_predicted_nnz(predicted):
    """``predicted``: the number of nonzeros of the projection of each point of :data:`PREDICT_POINTS` onto the
    l1 ball of radius :data:`PREDICT_Z`, in order."""
    from ...projections import project_l1_ball
    r = Report("predicted_nnz")
    got = list(predicted) if np.ndim(predicted) == 1 else [predicted]
    if len(got) != len(PREDICT_POINTS):
        r.fail("the predictions", f"expected {len(PREDICT_POINTS)} numbers, one per point, got {len(got)}")
        r.finish()
    for p, g in zip(PREDICT_POINTS, got):
        nnz = int(np.count_nonzero(project_l1_ball(np.array(p), PREDICT_Z)))
        compare(r, f"v = {p}", nnz, lambda g=g: g)
    r.finish()


def check_project_weighted_l1_ball(f):
    """``f(v, a, z)`` = the Euclidean projection of v onto {sum_i a_i |w_i| <= z}, a_i > 0."""
    from ...projections import project_weighted_l1_ball
    r = Report("project_weighted_l1_ball")
    rng = np.random.default_rng(8)
    cases = [(np.array([3.0, -1.0, 2.0, 0.5]), np.array([1.0, 0.25, 2.0, 1.0]), 2.0),
             (np.array([0.1, -0.2]), np.array([1.0, 2.0]), 1.0),
             (np.array([1.0, -2.0, 3.0]), np.ones(3), 2.0),
             (rng.normal(size=200), rng.uniform(0.1, 3.0, 200), 3.0)]
    for k, (v, a, z) in enumerate(cases):
        compare(r, f"case {k + 1}: n = {v.size}, z = {z}", project_weighted_l1_ball(v, a, z),
                lambda v=v, a=a, z=z: f(v.copy(), a.copy(), z))
    r.finish()


def check_threshold_from_keys(f):
    """``f(keys, shift, z)`` = the threshold theta >= 0 of the projection onto the l1 ball of radius z of a vector
    whose nonzero magnitudes are ``keys - shift`` (the tree's keys, shifted by the lazy global shift), 0 when the
    vector is inside the ball."""
    from ...projections import l1_ball_threshold
    r = Report("threshold_from_keys")
    rng = np.random.default_rng(9)
    cases = [(np.array([0.75, 0.5]) + 2.0, 2.0, 1.0), (np.array([1.5, 1.25, 1.0]), 1.0, 0.5),
             (np.array([0.1, 0.2]) + 7.0, 7.0, 1.0), (rng.exponential(size=300) + 12.5, 12.5, 5.0),
             (np.sort(rng.exponential(size=50)) + 0.0, 0.0, 3.0)]
    for k, (keys, shift, z) in enumerate(cases):
        compare(r, f"case {k + 1}: {keys.size} keys, shift {shift}, z = {z}", l1_ball_threshold(keys - shift, z),
                lambda keys=keys, shift=shift, z=z: f(keys.copy(), shift, z))
    r.finish()


def check_psg_constant(f):
    """``f(X, y, z, eta, T, seed)`` = the iterate after T steps of stochastic projected subgradient with the
    constant step eta on the logistic loss over {||w||_1 <= z}, starting at w = 0, with the examples
    ``np.random.default_rng(seed).integers(0, m, size=T)``: l1lab's
    ``projected_gradient(..., schedule="constant", n_checkpoints=2)``."""
    from ...data.synthetic import make_classification
    from ...problem import Problem
    from ...solvers import projected_gradient
    r = Report("psg_constant")
    cases = [(60, 20, 1.0, 0.5, 200, 0), (100, 40, 2.0, 0.2, 500, 3), (50, 80, 0.5, 1.0, 300, 4)]
    for m, d, z, eta, T, seed in cases:
        X, y, _ = make_classification(m, d, 3, flip=0.1, seed=seed)
        X = np.asarray(X, dtype=np.float64)
        ref = projected_gradient(Problem(X, y, "logistic", lam=0.0), T, z, eta0=eta, schedule="constant", seed=seed,
                                 n_checkpoints=2).w
        compare(r, f"m = {m}, d = {d}, z = {z}, eta = {eta}, T = {T}, seed = {seed}", ref,
                lambda X=X, y=y, z=z, eta=eta, T=T, seed=seed: f(X.copy(), y.copy(), z, eta, T, seed))
    r.finish()
