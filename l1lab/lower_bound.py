r"""The construction of Lemma 5 of Shalev-Shwartz & Tewari (2011): a problem on which every method that changes
one coordinate per step needs of order :math:`B^2/\varepsilon` steps.

The distribution (Appendix A of the paper): :math:`Y = \pm 1` with probability 1/2 each and, given
:math:`Y = y`, features :math:`X_1, \dots, X_d \in \{-1, +1\}` drawn independently with
:math:`\mathbb{P}[X_j = y \mid y] = \frac12 + \frac1{2B}`, so that :math:`\mathbb{E}[X_j \mid y] = y/B` and
:math:`\operatorname{Var}[X_j \mid y] = 1 - 1/B^2`.  The lemma's loss is :math:`L(a, b) = (a - b)^2`, **twice**
l1lab's squared loss :math:`\frac12(a - b)^2`; every risk and excess in this module is in the lemma's units
(:func:`risk_from_objective` converts an l1lab objective).

For a linear predictor the risk has a closed form in the first two moments (:func:`population_risk`),

.. math::  R(w) = \mathbb{E}[(\langle w, X\rangle - Y)^2] = (1 - 1/B^2)\|w\|_2^2 + (1 - \textstyle\sum_j w_j/B)^2,

so nothing about the population needs to be estimated.  Two ways to turn it into a finite problem
:math:`\frac1m\sum_i L(\langle w, x_i\rangle, y_i)`:

* :func:`sample` draws m examples, seeded (the paper's route: Hoeffding and a covering argument then relate
  the empirical and the population risk);
* :func:`exact_design` (B = 2 or 3) builds a finite data set whose average loss *equals* R(w) for every w:
  because the loss is quadratic, only the first two moments of the examples matter, and pairwise independent
  features have the same second moments as independent ones.  The features are indicators
  :math:`\xi_j(u) = +1` if :math:`f_j(u) \ne 0` else :math:`-1`, where u runs over :math:`GF(q)^r` and the
  :math:`f_j` are pairwise non-proportional linear forms, so :math:`\mathbb{P}[\xi_j = +1] = (q-1)/q`, which is
  :math:`\frac12 + \frac1{2B}` for q = 4 (B = 2) and q = 3 (B = 3).

The solvers then run on an ordinary :class:`l1lab.Problem` (squared loss, lambda = 0): :func:`lemma5_problem`.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from scipy.linalg import solve_triangular

from .problem import Problem
from .theory import shalev_shwartz_tewari as sst

__all__ = ["EXACT_B", "ForwardPath", "agreement_probability", "best_sparse", "conditional_moments",
           "exact_design", "forward_selection", "hitting_steps", "lemma5_problem", "optimum",
           "population_excess", "population_risk", "restricted_scd", "risk_from_objective", "sample",
           "best_found"]

#: the values of B for which :func:`exact_design` builds an exact finite instance: (field size q, design)
EXACT_B = (2, 3)
_FIELD = {2: 4, 3: 3}
# GF(4) = {0, 1, w, w^2} coded 0, 1, 2, 3 (addition is XOR of the codes, w^2 = w + 1)
_GF4_MUL = np.array([[0, 0, 0, 0], [0, 1, 2, 3], [0, 2, 3, 1], [0, 3, 1, 2]], dtype=np.int64)


def _check_B(B):
    if isinstance(B, Fraction):
        if B < 2:
            raise ValueError(f"Lemma 5 needs B >= 2, got B = {B}")
        return B
    return sst._lemma5_B(B)


def agreement_probability(B):
    r""":math:`\mathbb{P}[X_j = y \mid Y = y] = \frac12 + \frac1{2B}` (exact for a ``fractions.Fraction`` B)."""
    B = _check_B(B)
    return Fraction(1, 2) + 1 / (2 * B) if isinstance(B, Fraction) else 0.5 + 0.5 / B


def conditional_moments(B):
    r"""(mean coefficient, variance) of :math:`X_j` given :math:`Y = y`, computed from the two-point law
    :math:`\mathbb{P}[X_j = y \mid y] = p`: the mean is :math:`(p - (1 - p))\,y` and, as :math:`X_j^2 = 1`, the
    variance is :math:`1 - (2p - 1)^2`.  The lemma states y/B and 1 - 1/B^2; with a ``Fraction`` B the result is
    exact rational arithmetic."""
    p = agreement_probability(B)
    mean = p * 1 + (1 - p) * (-1)
    return mean, 1 - mean * mean


def _as_w(w):
    w = np.asarray(w, dtype=np.float64)
    if w.ndim not in (1, 2):
        raise ValueError(f"w must be a vector or a stack of vectors (2-d, one per row), got shape {w.shape}")
    return w


def population_risk(w, B):
    r"""The lemma's risk :math:`R(w) = \mathbb{E}[(\langle w, X\rangle - Y)^2] = (1 - 1/B^2)\|w\|_2^2 +
    (1 - \sum_j w_j/B)^2`, exactly (no sampling).  ``w`` may be one vector or a 2-d array of vectors (rows)."""
    B = float(_check_B(B))
    w = _as_w(w)
    sq = np.einsum("...j,...j->...", w, w)
    out = (1.0 - 1.0 / (B * B)) * sq + (1.0 - w.sum(axis=-1) / B) ** 2
    return float(out) if np.ndim(out) == 0 else out


def optimum(B, d):
    r"""The minimizer :math:`w^\star = \frac{B}{d + B^2 - 1}\mathbf{1}` of :func:`population_risk` in dimension d
    (it lies inside the l1 ball of radius B, so it is also the lemma's constrained optimum)."""
    B = float(_check_B(B))
    return np.full(int(d), B / (d + B * B - 1.0))


def population_excess(w, B):
    r""":math:`R(w) - R(w^\star)` with d = the length of w (rows of a 2-d array: one excess per row)."""
    w = _as_w(w)
    return population_risk(w, B) - sst.lemma5_optimal_risk(B, w.shape[-1])


def best_sparse(s, B, d, support=None):
    r"""A best s-sparse vector: :math:`B/(s + B^2 - 1)` on ``support`` (default the first s coordinates), 0
    elsewhere; its risk is :func:`l1lab.theory.shalev_shwartz_tewari.lemma5_sparse_risk`."""
    B = float(_check_B(B))
    s, d = int(s), int(d)
    if not 0 <= s <= d:
        raise ValueError(f"need 0 <= s <= d, got s = {s}, d = {d}")
    support = np.arange(s) if support is None else np.asarray(support, dtype=np.int64)
    if support.shape != (s,) or len(set(support.tolist())) != s:
        raise ValueError(f"support must hold s = {s} distinct coordinates")
    w = np.zeros(d)
    w[support] = B / (s + B * B - 1.0)
    return w


def risk_from_objective(objective):
    """The lemma's risk from an l1lab objective with the squared loss and lambda = 0: l1lab's loss is
    (a - y)^2/2, the lemma's (a - y)^2, so the lemma's value is twice l1lab's."""
    return 2.0 * np.asarray(objective, dtype=np.float64)[()]


# ---------------------------------------------------------------------------------------------- finite data
def sample(B, m, d=None, seed=0):
    r"""m examples of the lemma's distribution in dimension d (default :func:`lemma5_dimension`), drawn with
    ``numpy.random.default_rng(seed)``: returns X (m x d, entries +-1, float64) and y (+-1).  Same seed, same
    data."""
    B = float(_check_B(B))
    d = sst.lemma5_dimension(B) if d is None else int(d)
    m = int(m)
    if m < 1 or d < 1:
        raise ValueError(f"need m >= 1 and d >= 1, got m = {m}, d = {d}")
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(m) < 0.5, 1.0, -1.0)
    agree = rng.random((m, d)) < 0.5 + 0.5 / B
    X = np.where(agree, y[:, None], -y[:, None])
    return X, y


def _projective_points(q, r, d):
    """The first d vectors of GF(q)^r whose first nonzero entry is 1 (pairwise non-proportional), in
    lexicographic order."""
    pts = []
    for a in itertools.product(range(q), repeat=r):
        nz = next((x for x in a if x), 0)
        if nz == 1:
            pts.append(a)
            if len(pts) == d:
                break
    return np.array(pts, dtype=np.int64)


def exact_design(B, d=None, mirrored=True):
    r"""A finite data set on which :math:`\frac1m\sum_i(\langle w, x_i\rangle - y_i)^2 = R(w)` for every w
    (B = 2 or 3; d defaults to :func:`lemma5_dimension`).

    Rows are indexed by :math:`u \in GF(q)^r` (q = 4 for B = 2, q = 3 for B = 3; r the smallest with
    :math:`(q^r - 1)/(q - 1) \ge d`), column j is :math:`\xi_j(u) = +1` if :math:`\langle a_j, u\rangle \ne 0`
    else -1 for pairwise non-proportional :math:`a_j`.  Any two columns are independent with
    :math:`\mathbb{P}[\xi_j = 1] = (q - 1)/q = \frac12 + \frac1{2B}`, so :math:`\frac1m X^\top X = (1 - 1/B^2)I +
    \mathbf{1}\mathbf{1}^\top/B^2` and :math:`\frac1m X^\top y = \mathbf{1}/B` exactly, the population moments.

    ``mirrored=True`` returns the rows :math:`(x, y) = (\xi, 1)` and :math:`(-\xi, -1)` (m = 2 q^r, y balanced as
    in the lemma); ``mirrored=False`` only the first half (m = q^r): since :math:`(\langle w, y\xi\rangle - y)^2 =
    (\langle w, \xi\rangle - 1)^2`, the mirrored rows repeat the same losses, and the solvers' iterates are the
    same at half the cost.
    """
    B = _check_B(B)
    if float(B) not in _FIELD:
        raise ValueError(f"an exact finite instance is built for B in {EXACT_B} only (P[X_j = y | y] = 3/4 or 2/3, "
                         f"realised over GF(4) or GF(3)); for B = {B} use l1lab.lower_bound.sample(B, m, seed=...)")
    B = int(B)
    q = _FIELD[B]
    d = sst.lemma5_dimension(B) if d is None else int(d)
    if d < 1:
        raise ValueError(f"d must be >= 1, got {d}")
    r = 1
    while (q ** r - 1) // (q - 1) < d:
        r += 1
    A = _projective_points(q, r, d)                       # d x r
    U = np.array(list(itertools.product(range(q), repeat=r)), dtype=np.int64)  # q^r x r
    F = np.zeros((U.shape[0], d), dtype=np.int64)
    for i in range(r):
        if q == 4:
            F ^= _GF4_MUL[U[:, i][:, None], A[:, i][None, :]]
        else:
            F = (F + U[:, i][:, None] * A[:, i][None, :]) % q
    xi = np.where(F != 0, 1.0, -1.0)
    if not mirrored:
        return xi, np.ones(xi.shape[0])
    return np.vstack([xi, -xi]), np.concatenate([np.ones(xi.shape[0]), -np.ones(xi.shape[0])])


def lemma5_problem(B, d=None, mirrored=False, m=None, seed=0):
    r"""The lemma's problem as an :class:`l1lab.Problem` (squared loss, lambda = 0): on :func:`exact_design` if
    ``m`` is None (its objective is exactly R(w)/2), else on ``m`` examples from :func:`sample` (the empirical
    risk, halved)."""
    if m is None:
        X, y = exact_design(B, d, mirrored=mirrored)
    else:
        X, y = sample(B, m, d, seed=seed)
    return Problem(X, y, loss="squared", lam=0.0)


# ---------------------------------------------------------------------------------------------- solutions
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


def restricted_scd(problem: Problem, support, n_iter=None, seed=0):
    """SCD (``l1lab.solvers.scd``) on the columns ``support`` only, embedded back into R^d: the best vector on
    that support that SCD finds in ``n_iter`` steps (default 40 per coordinate).  Returns the full-length w."""
    from .solvers import scd

    support = np.asarray(support, dtype=np.int64)
    if support.ndim != 1 or support.size == 0:
        raise ValueError("support must be a non-empty 1-d array of coordinates")
    X = problem.X[:, support]
    sub = Problem(X, problem.y, loss=problem.loss.name, lam=problem.lam)
    n_iter = 40 * support.size if n_iter is None else int(n_iter)
    res = scd(sub, n_iter, seed=seed, n_checkpoints=2)
    w = np.zeros(problem.d)
    w[support] = res.w
    return w


def best_found(nnz, excess, s_values):
    r"""For every s of ``s_values``: the smallest ``excess`` among the records whose ``nnz`` is at most s (inf if
    none): the best s-sparse point a run visited.  ``nnz`` and ``excess`` are 1-d (one run) or 2-d (one run per
    row; then one row of results per run)."""
    one = np.ndim(nnz) == 1
    nnz = np.atleast_2d(np.asarray(nnz))
    excess = np.atleast_2d(np.asarray(excess, dtype=np.float64))
    s_values = np.atleast_1d(np.asarray(s_values))
    out = np.full((nnz.shape[0], s_values.size), np.inf)
    for i in range(nnz.shape[0]):
        order = np.argsort(nnz[i], kind="stable")
        sorted_nnz = nnz[i][order]
        running = np.minimum.accumulate(excess[i][order])
        k = np.searchsorted(sorted_nnz, s_values, side="right")   # records with nnz <= s: the first k
        out[i] = np.where(k > 0, running[np.maximum(k - 1, 0)], np.inf)
    return out[0] if one else out


def hitting_steps(iteration, excess, eps):
    r"""Steps a run needed to reach ``excess <= eps``, from records at checkpoints: returns (lo, hi), where hi is
    the first checkpoint with excess <= eps and lo = (previous checkpoint) + 1, so the true first step lies in
    [lo, hi]; both nan if the run never reached eps.  ``eps`` may be an array (one pair of arrays then)."""
    iteration = np.asarray(iteration)
    excess = np.asarray(excess, dtype=np.float64)
    eps = np.atleast_1d(np.asarray(eps, dtype=np.float64))
    lo = np.full(eps.shape, np.nan)
    hi = np.full(eps.shape, np.nan)
    for k, e in enumerate(eps):
        idx = np.nonzero(excess <= e)[0]
        if idx.size:
            i = idx[0]
            hi[k] = iteration[i]
            lo[k] = iteration[i - 1] + 1 if i > 0 else iteration[i]
    return lo, hi
