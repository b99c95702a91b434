r"""Exact sparse least squares on a greedy or a given support: the comparators of the lower-bound chapter.

* :func:`forward_selection` -- fully corrective forward greedy selection (orthogonal matching pursuit) for the
  squared loss with lambda = 0: for every s, an s-sparse fit whose excess the chapter compares with Lemma 5's
  frontier;
* :func:`restricted_scd` -- SCD run on the columns of a given support only, embedded back into R^d.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.linalg import solve_triangular

from ..problem import Problem
from ._checks import check_index_array, check_n_iter, check_problem, solver_checked
from .coordinate import scd

__all__ = ["ForwardPath", "forward_selection", "restricted_scd"]


@dataclass(frozen=True)
class ForwardPath:
    """Fully corrective forward greedy selection: ``order[s-1]`` is the coordinate added at step s,
    ``objective[s]`` the l1lab objective (squared loss/2) of the least-squares fit on the first s coordinates
    (``objective[0]`` = C(0)), and ``weights[s]`` (if kept) that fit as a full-length vector."""

    order: np.ndarray
    objective: np.ndarray
    weights: np.ndarray | None

    def w(self, s):
        """The s-sparse fit (needs ``keep_weights=True``)."""
        if self.weights is None:
            raise ValueError("this path was computed with keep_weights=False")
        return self.weights[int(s)]


@solver_checked()
def forward_selection(problem: Problem, s_max=None, keep_weights=True) -> ForwardPath:
    r"""Fully corrective forward greedy selection for the squared loss with lambda = 0 (orthogonal matching
    pursuit; the 'forward greedy selection' of Shalev-Shwartz, Srebro & Zhang 2010): start from w = 0; at each
    step add the coordinate with the largest :math:`|(\nabla C(w))_j|` (ties: the smallest index) and refit C
    by least squares on the chosen coordinates.  Works on the Gram matrix :math:`X^\top X/m` with an
    incrementally grown Cholesky factor: O(m d^2) once, then O(d s) per step."""
    if problem.loss.name != "squared" or problem.lam != 0.0:
        raise ValueError("forward_selection solves the squared loss with lam = 0: build the Problem with "
                         "loss='squared', lam=0.0")
    d = problem.d
    s_max = d if s_max is None else int(s_max)
    if not 1 <= s_max <= d:
        raise ValueError(f"s_max must be in [1, d = {d}], got {s_max}")
    X = problem.X.toarray() if problem.is_sparse else np.asarray(problem.X)
    y = problem.y
    m = problem.m
    G = X.T @ X / m
    b = X.T @ y / m
    c = float(y @ y) / m
    L = np.zeros((s_max, s_max))
    GS = np.zeros((d, s_max), order="F")  # the chosen columns of G, in the order chosen (views, no copies)
    order = np.empty(s_max, dtype=np.int64)
    objective = np.empty(s_max + 1)
    objective[0] = 0.5 * c
    weights = np.zeros((s_max + 1, d)) if keep_weights else None
    chosen = np.zeros(d, dtype=bool)
    grad = -b.copy()
    bS = np.empty(s_max)
    for s in range(s_max):
        score = np.where(chosen, -np.inf, np.abs(grad))
        j = int(np.argmax(score))
        order[s] = j
        chosen[j] = True
        GS[:, s] = G[:, j]
        bS[s] = b[j]
        if s:
            l = solve_triangular(L[:s, :s], GS[order[:s], s], lower=True, check_finite=False)
            L[s, :s] = l
            L[s, s] = math.sqrt(max(G[j, j] - l @ l, 1e-300))
        else:
            L[0, 0] = math.sqrt(G[j, j])
        Ls = L[: s + 1, : s + 1]
        wS = solve_triangular(Ls, solve_triangular(Ls, bS[: s + 1], lower=True, check_finite=False),
                              lower=True, trans="T", check_finite=False)
        objective[s + 1] = 0.5 * (c - bS[: s + 1] @ wS)
        grad = GS[:, : s + 1] @ wS - b
        if keep_weights:
            weights[s + 1, order[: s + 1]] = wS
    return ForwardPath(order=order, objective=objective, weights=weights)


@solver_checked()
def restricted_scd(problem: Problem, support, n_iter=None, seed=0):
    """SCD (``l1lab.solvers.scd``) on the columns ``support`` only, embedded back into R^d: the best vector on
    that support that SCD finds in ``n_iter`` steps (default 40 per coordinate).  Returns the full-length w."""
    check_problem(problem)
    support = check_index_array(support, "support (column indices)", upper=problem.d)
    X = problem.X[:, support]
    sub = Problem(X, problem.y, loss=problem.loss.name, lam=problem.lam)
    n_iter = 40 * support.size if n_iter is None else check_n_iter(n_iter)
    res = scd(sub, n_iter, seed=seed, n_checkpoints=2)
    w = np.zeros(problem.d)
    w[support] = res.w
    return w
