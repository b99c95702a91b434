r"""Results of Duchi, Shalev-Shwartz, Singer & Chandra, *Efficient Projections onto the l1-Ball for Learning in
High Dimensions*, ICML 2008 (Sections 3-4), as checkable functions.  The source text is OCR-damaged; the
statements below are re-derived from the KKT conditions of the projection problems (3) and (7).
"""
from __future__ import annotations

import numpy as np

from .._validate import check_array, checked, positive, vector

#: The domain of every parameter of this module, by name (checked before each call; see ``l1lab._validate``).
_P = {"v": vector(), "z": positive(), "w": vector()}
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
