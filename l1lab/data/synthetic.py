"""Feature scaling to the papers' [-1, 1] assumption, and the synthetic generators of the coordinate-descent and
SMIDAS chapters (Shalev-Shwartz & Tewari 2011).

Every generator takes a ``seed`` for ``numpy.random.default_rng`` and returns features in [-1, 1].
"""
from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from .._validate import ANY, SEED, check_matrix, checked, count, nonnegative, positive, real

__all__ = ["add_random_features", "make_classification", "make_regression", "scale_features"]


#: The domain of every parameter of this module (checked before each call; see ``l1lab._validate``).
_P = {"X": ANY, "return_scale": ANY, "m": count(1), "d": count(1), "k": count(1), "noise": nonnegative(),
      "density": real(low=0.0, low_open=True, high=1.0), "kind": ANY, "seed": SEED, "normalize": ANY,
      "flip": real(low=0.0, high=0.5, high_open=True), "scale": positive(), "n_extra": count(0),
      "prob": real(low=0.0, low_open=True, high=1.0)}
_checked = checked(_P)


@_checked
def scale_features(X, return_scale=False):
    """Divide each column by its largest absolute value, so every entry lies in [-1, 1].

    Works on dense arrays and scipy.sparse matrices (sparsity is kept).  All-zero columns are left as
    they are.  With ``return_scale=True`` also returns the per-column divisors ``c`` (X_scaled = X / c),
    so that a weight vector w learned on the scaled data is w / c on the original features.
    """
    X = check_matrix(X, "X")
    if sp.issparse(X):
        X = sp.csc_matrix(X, dtype=np.float64, copy=True)
        c = np.asarray(abs(X).max(axis=0).todense()).ravel()
    else:
        X = np.array(X, dtype=np.float64, copy=True)
        c = np.abs(X).max(axis=0)
    c = np.where(c > 0, c, 1.0)
    Xs = X @ sp.diags(1.0 / c) if sp.issparse(X) else X / c
    if sp.issparse(X):
        Xs = sp.csc_matrix(Xs)
        # rounding can leave 1 + 1ulp; the theory's bound is exact, so clamp only those ulps
        np.clip(Xs.data, -1.0, 1.0, out=Xs.data)
    else:
        np.clip(Xs, -1.0, 1.0, out=Xs)
    return (Xs, c) if return_scale else Xs


def _features(rng, m, d, density, kind):
    if not (0 < density <= 1):
        raise ValueError(f"density must be in (0, 1], got {density}")
    if kind not in ("uniform", "sign"):
        raise ValueError(f"kind must be 'uniform' or 'sign', got {kind!r}")

    def draw(n):
        return rng.uniform(-1.0, 1.0, n) if kind == "uniform" else rng.choice([-1.0, 1.0], n)

    if density == 1:
        return draw(m * d).reshape(m, d)
    X = sp.random(m, d, density=density, format="csc", random_state=rng, data_rvs=draw)
    return X


def _sparse_truth(rng, d, k, scale):
    if not (1 <= k <= d):
        raise ValueError(f"need 1 <= k <= d, got k={k}, d={d}")
    w = np.zeros(d)
    support = rng.choice(d, size=k, replace=False)
    w[support] = scale * rng.choice([-1.0, 1.0], k) * rng.uniform(0.5, 1.5, k)
    return w


@_checked
def make_regression(m, d, k, noise=0.1, density=1.0, kind="uniform", seed=0, normalize=True):
    """Sparse linear regression: y = X w_true + noise, w_true with k nonzeros.

    X has entries uniform in [-1, 1] (``kind='uniform'``) or +-1 (``'sign'``), dense when ``density == 1``
    and CSC otherwise.  With ``normalize`` the targets are rescaled to mean square 1, so that
    C(0) = (1/m) sum y_i^2 / 2 = 1/2 (the paper assumes C(0) <= 1 in its squared-loss runtime bound);
    w_true is rescaled with them.  Returns (X, y, w_true).
    """
    rng = np.random.default_rng(seed)
    X = _features(rng, m, d, density, kind)
    w = _sparse_truth(rng, d, k, 1.0)
    y = np.asarray(X @ w).ravel() + noise * rng.standard_normal(m)
    if normalize:
        s = np.sqrt(np.mean(y ** 2))
        if s > 0:
            y, w = y / s, w / s
    return X, y, w


@_checked
def make_classification(m, d, k, flip=0.05, density=1.0, kind="uniform", seed=0, scale=3.0):
    """Sparse linear classification: y = sign(<w_true, x>), each label flipped with probability ``flip``.

    w_true has k nonzeros of size about ``scale``/sqrt(k).  Labels are in {-1, +1}.  Returns (X, y, w_true).
    """
    if not (0 <= flip < 0.5):
        raise ValueError(f"flip must be in [0, 0.5), got {flip}")
    rng = np.random.default_rng(seed)
    X = _features(rng, m, d, density, kind)
    w = _sparse_truth(rng, d, k, scale / np.sqrt(k))
    y = np.sign(np.asarray(X @ w).ravel())
    y[y == 0] = 1.0
    y[rng.random(m) < flip] *= -1.0
    return X, y, w


@_checked
def add_random_features(X, n_extra=1000, kind="sparse", prob=0.05, seed=0):
    """Append ``n_extra`` irrelevant random features, as Shalev-Shwartz & Tewari (2011, Section 4.1) do to
    the MAGIC gamma telescope data (following Langford et al. 2009):

    * ``kind="sparse"`` (MAGIC04S): each new entry is 1 with probability ``prob`` (0.05) and 0 otherwise;
    * ``kind="dense"`` (MAGIC04D): each new entry is -1 or +1 with probability 1/2.

    Returns a CSR matrix for "sparse" (whatever X was) and a dense array for "dense" with dense X (CSR if X
    is sparse).  X itself must already lie in [-1, 1] (see :func:`scale_features`).
    """
    if kind not in ("sparse", "dense"):
        raise ValueError(f"kind must be 'sparse' or 'dense', got {kind!r}")
    if n_extra < 0:
        raise ValueError(f"n_extra must be >= 0, got {n_extra}")
    if not (0 < prob <= 1):
        raise ValueError(f"prob must be in (0, 1], got {prob}")
    X = check_matrix(X, "X")
    rng = np.random.default_rng(seed)
    m = X.shape[0]
    if kind == "sparse":
        extra = sp.csr_matrix((rng.random((m, n_extra)) < prob).astype(np.float64))
        return sp.hstack([sp.csr_matrix(X), extra], format="csr")
    extra = rng.choice([-1.0, 1.0], size=(m, n_extra))
    if sp.issparse(X):
        return sp.hstack([X, sp.csr_matrix(extra)], format="csr")
    return np.hstack([np.asarray(X, dtype=np.float64), extra])
