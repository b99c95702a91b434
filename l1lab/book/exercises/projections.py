"""Checkers of the exercise notebook of the lectures on Projections onto the ℓ1 ball."""
from __future__ import annotations

import numpy as np

from ._framework import Report, compare

__all__ = ["check_project_simplex", "check_project_l1_ball"]


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
