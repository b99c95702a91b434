r"""Results of Duchi, Shalev-Shwartz, Singer & Chandra, *Efficient Projections onto the l1-Ball for Learning in
High Dimensions*, ICML 2008 (Sections 3-4), as checkable functions.  The source text is OCR-damaged; the
statements below are re-derived from the KKT conditions of the projection problems (3) and (7).

Section 5's characterization (9)-(10) and Section 6's test (11) are stated for a vector u >= 0 (the magnitudes
|v| of the ball's reduction) with an entry u_{n+1} = 0 appended; they describe the projection when sum(u) >= z,
where the threshold is >= 0.
"""
from __future__ import annotations

import numpy as np

from .._validate import check_array, checked, positive, real, vector

#: The domain of every parameter of this module, by name (checked before each call; see ``l1lab._validate``).
_P = {"v": vector(), "z": positive(), "w": vector(), "value": real()}
_checked = checked(_P)


@_checked
def simplex_support_size(v, z):
    r"""Lemma 2 of Duchi et al. (2008): with :math:`\mu` = v sorted in descending order, the projection of v onto
    :math:`\{w \ge 0, \sum w_i = z\}` has
    :math:`\rho = \max\{j : \mu_j - \frac1j(\sum_{r \le j}\mu_r - z) > 0\}` strictly positive entries."""
    mu = np.sort(np.asarray(v, dtype=np.float64))[::-1]
    if not z > 0:
        raise ValueError(f"z must be > 0, got {z}")
    k = np.arange(1, mu.size + 1)
    ind = np.nonzero((mu * k - np.cumsum(mu)) + z > 0)[0]
    return int(ind[-1]) + 1 if ind.size else 1


@_checked
def simplex_theta(v, z):
    r"""Lemma 2 of Duchi et al. (2008), eq. (4)-(5): the threshold
    :math:`\theta = \frac1\rho(\sum_{i \le \rho}\mu_i - z)`, so that :math:`w_i = \max(v_i - \theta, 0)`."""
    rho = simplex_support_size(v, z)
    mu = np.sort(np.asarray(v, dtype=np.float64))[::-1]
    return (float(mu[:rho].sum()) - z) / rho


@_checked
def lemma1_violation(v, w):
    r"""Lemma 1 of Duchi et al. (2008): for the simplex projection w of v, if :math:`v_s > v_j` and
    :math:`w_s = 0` then :math:`w_j = 0` (the support is a set of largest entries).  Returns the largest
    w_j over the pairs that break it (0 when the lemma holds)."""
    v = check_array(v, "v")
    w = check_array(w, "w", shape=v.shape, like="v")
    zero = w == 0
    if not zero.any():
        return 0.0
    top_zero = v[zero].max()  # any entry smaller than a zeroed one must be zero too
    bad = (v < top_zero) & (w != 0)
    return float(np.abs(w[bad]).max()) if bad.any() else 0.0


@_checked
def lemma3_violation(v, w):
    r"""Lemma 3 of Duchi et al. (2008): the projection w of v onto the l1 ball keeps signs,
    :math:`w_i v_i \ge 0` for all i, which reduces the ball to the simplex of |v|.  Returns the largest
    |w_i| whose sign is opposite to v_i's (0 when the lemma holds)."""
    v = check_array(v, "v")
    w = check_array(w, "w", shape=v.shape, like="v")
    bad = np.sign(w) * np.sign(v) < 0
    return float(np.abs(w[bad]).max()) if bad.any() else 0.0


def _magnitudes(v, z):
    u = check_array(v, "v")
    if (u < 0).any():
        raise ValueError("v must be >= 0 (the magnitudes |v| that the ball reduces to): (9)-(11) append an entry "
                         f"0 and hold for nonnegative vectors only; got a smallest entry {u.min()!r}")
    if not u.sum() >= z:
        raise ValueError(f"sum(v) must be >= z for (9)-(10) (then the threshold is >= 0); got sum(v) = {u.sum()!r} < "
                         f"z = {z!r}: every entry is in the support, see simplex_support_size")
    return u


@_checked
def pivot_rank(v, z):
    r"""Eq. (9) of Duchi et al. (2008): with :math:`\mu` = v sorted in descending order and
    :math:`\mu_{n+1} = 0` appended, the support size of the simplex projection is the index rho with

    .. math:: \sum_{i=1}^{\rho}(\mu_i - \mu_\rho) < z \le \sum_{i=1}^{\rho+1}(\mu_i - \mu_{\rho+1}),

    the same rho as Lemma 2's (:func:`simplex_support_size`).  For v >= 0 with sum(v) >= z."""
    return _pivot(_magnitudes(v, z), z)[0]


def _pivot(u, z):
    """(rho of (9), u sorted in descending order) for a checked u >= 0 with sum(u) >= z."""
    mu = np.sort(u)[::-1]
    mu0 = np.concatenate((mu, [0.0]))
    k = np.arange(1, mu0.size + 1)
    mass = np.cumsum(mu0) - k * mu0  # sum_{i <= j} (mu_i - mu_j), nondecreasing in j
    return int(np.count_nonzero(mass < z)), mu


@_checked
def pivot_threshold(v, z):
    r"""Eq. (10) of Duchi et al. (2008): the threshold from the pivot :math:`v_{(\rho)}` of (9),
    :math:`\theta = \frac1\rho\big(\sum_{i : v_i \ge v_{(\rho)}} v_i - z\big)`; no entry below the pivot
    equals it (an equal entry would pass the first inequality of (9) too), so the sum has rho terms.
    For v >= 0 with sum(v) >= z."""
    u = _magnitudes(v, z)
    rho, mu = _pivot(u, z)
    return (float(u[u >= mu[rho - 1]].sum()) - z) / rho


@_checked
def support_test(v, z, value):
    r"""Eq. (11) of Duchi et al. (2008), the test of the tree search of its Figure 3: a value u is not smaller
    than the pivot (an entry of value u is in the support) if and only if

    .. math:: \sum_{j : v_j \ge u} v_j < |\{j : v_j \ge u\}|\,u + z .

    Our copy of the paper prints the inequality the other way round; Figure 3 tests this one.  For every real u it
    holds exactly when u is above the threshold theta of (10).  For v >= 0 with sum(v) >= z."""
    u = _magnitudes(v, z)
    above = u >= value
    return bool(float(u[above].sum()) < int(np.count_nonzero(above)) * value + z)
