r"""Euclidean projections onto the simplex and the l1 ball (Duchi, Shalev-Shwartz, Singer & Chandra 2008).

* :mod:`.dense` -- one projection of a dense vector: by sorting (O(n log n)), by randomized pivoting (expected
  O(n)), Condat's method (the fastest in practice), and the weighted l1 ball;
* :mod:`.sparse` -- :class:`SparseL1BallProjector`, the search-tree projection of Section 6 and Figure 3 (an AVL tree):
  after a k-sparse update, the projection costs O(k log n).
"""
from .dense import (
                    METHODS,
                    l1_ball_threshold,
                    project_l1_ball,
                    project_simplex,
                    project_weighted_l1_ball,
                    simplex_threshold,
)
from .sparse import SparseL1BallProjector

__all__ = ["METHODS", "SparseL1BallProjector", "l1_ball_threshold", "project_l1_ball", "project_simplex",
           "project_weighted_l1_ball", "simplex_threshold"]
