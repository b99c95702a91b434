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

The solvers then run on an ordinary :class:`l1lab.Problem` (squared loss, lambda = 0): :func:`lemma5_problem`;
the exact sparse fits the chapter compares them with are in :mod:`l1lab.solvers.forward`.
"""
from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np

from .._validate import ANY, SEED, check_array, check_index_array, checked, count, reals
from ..problem import Problem
from ..theory import shalev_shwartz_tewari as sst

__all__ = ["EXACT_B", "agreement_probability", "best_sparse", "conditional_moments", "exact_design",
           "lemma5_problem", "optimum", "population_excess", "population_risk", "risk_from_objective", "sample"]

#: the values of B for which :func:`exact_design` builds an exact finite instance: (field size q, design)
EXACT_B = (2, 3)
_FIELD = {2: 4, 3: 3}
# GF(4) = {0, 1, w, w^2} coded 0, 1, 2, 3 (addition is XOR of the codes, w^2 = w + 1)
_GF4_MUL = np.array([[0, 0, 0, 0], [0, 1, 2, 3], [0, 2, 3, 1], [0, 3, 1, 2]], dtype=np.int64)


#: The domain of every parameter of this module (checked before each call; see ``l1lab._validate``); B is checked by
#: _check_B (B >= 2, a number or a Fraction).
_P = {"B": ANY, "d": count(1), "s": count(0), "support": ANY, "w": ANY, "objective": reals(low=0.0),
      "m": count(0),  # m >= 1: checked by sample, with its wording
      "mirrored": ANY, "seed": SEED}
_checked = checked(_P)


def _check_B(B):
    if isinstance(B, Fraction):
        if B < 2:
            raise ValueError(f"Lemma 5 needs B >= 2, got B = {B}")
        return B
    return sst._lemma5_B(B)


@_checked
def agreement_probability(B):
    r""":math:`\mathbb{P}[X_j = y \mid Y = y] = \frac12 + \frac1{2B}` (exact for a ``fractions.Fraction`` B)."""
    B = _check_B(B)
    return Fraction(1, 2) + 1 / (2 * B) if isinstance(B, Fraction) else 0.5 + 0.5 / B


@_checked
def conditional_moments(B):
    r"""(mean coefficient, variance) of :math:`X_j` given :math:`Y = y`, computed from the two-point law
    :math:`\mathbb{P}[X_j = y \mid y] = p`: the mean is :math:`(p - (1 - p))\,y` and, as :math:`X_j^2 = 1`, the
    variance is :math:`1 - (2p - 1)^2`.  The lemma states y/B and 1 - 1/B^2; with a ``Fraction`` B the result is
    exact rational arithmetic."""
    p = agreement_probability(B)
    mean = p * 1 + (1 - p) * (-1)
    return mean, 1 - mean * mean


def _as_w(w):
    return check_array(w, "w (a vector or a stack of vectors, one per row)", ndim=(1, 2))


@_checked
def population_risk(w, B):
    r"""The lemma's risk :math:`R(w) = \mathbb{E}[(\langle w, X\rangle - Y)^2] = (1 - 1/B^2)\|w\|_2^2 +
    (1 - \sum_j w_j/B)^2`, exactly (no sampling).  ``w`` may be one vector or a 2-d array of vectors (rows)."""
    B = float(_check_B(B))
    w = _as_w(w)
    sq = np.einsum("...j,...j->...", w, w)
    out = (1.0 - 1.0 / (B * B)) * sq + (1.0 - w.sum(axis=-1) / B) ** 2
    return float(out) if np.ndim(out) == 0 else out


@_checked
def optimum(B, d):
    r"""The minimizer :math:`w^\star = \frac{B}{d + B^2 - 1}\mathbf{1}` of :func:`population_risk` in dimension d
    (it lies inside the l1 ball of radius B, so it is also the lemma's constrained optimum)."""
    B = float(_check_B(B))
    return np.full(int(d), B / (d + B * B - 1.0))


@_checked
def population_excess(w, B):
    r""":math:`R(w) - R(w^\star)` with d = the length of w (rows of a 2-d array: one excess per row)."""
    w = _as_w(w)
    return population_risk(w, B) - sst.lemma5_optimal_risk(B, w.shape[-1])


@_checked
def best_sparse(s, B, d, support=None):
    r"""A best s-sparse vector: :math:`B/(s + B^2 - 1)` on ``support`` (default the first s coordinates), 0
    elsewhere; its risk is :func:`l1lab.theory.shalev_shwartz_tewari.lemma5_sparse_risk`."""
    B = float(_check_B(B))
    s, d = int(s), int(d)
    if not 0 <= s <= d:
        raise ValueError(f"need 0 <= s <= d, got s = {s}, d = {d}")
    support = np.arange(s) if support is None else check_index_array(support, "support", upper=d, allow_empty=True)
    if support.shape != (s,) or len(set(support.tolist())) != s:
        raise ValueError(f"support must hold s = {s} distinct coordinates")
    w = np.zeros(d)
    w[support] = B / (s + B * B - 1.0)
    return w


@_checked
def risk_from_objective(objective):
    """The lemma's risk from an l1lab objective with the squared loss and lambda = 0: l1lab's loss is
    (a - y)^2/2, the lemma's (a - y)^2, so the lemma's value is twice l1lab's."""
    return 2.0 * np.asarray(objective, dtype=np.float64)[()]


# ---------------------------------------------------------------------------------------------- finite data
@_checked
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


@_checked
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
                         f"realised over GF(4) or GF(3)); for B = {B} use "
                         f"l1lab.data.lower_bound.sample(B, m, seed=...)")
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


@_checked
def lemma5_problem(B, d=None, mirrored=False, m=None, seed=0):
    r"""The lemma's problem as an :class:`l1lab.Problem` (squared loss, lambda = 0): on :func:`exact_design` if
    ``m`` is None (its objective is exactly R(w)/2), else on ``m`` examples from :func:`sample` (the empirical
    risk, halved)."""
    if m is None:
        X, y = exact_design(B, d, mirrored=mirrored)
    else:
        X, y = sample(B, m, d, seed=seed)
    return Problem(X, y, loss="squared", lam=0.0)
