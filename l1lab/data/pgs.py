r"""Synthetic data for the Primal Gradient Solver chapter (Zhu et al. 2009, Section V).

* :func:`make_gaussian_classes` -- the toy sets of Figure 9: two Gaussian classes with a shared covariance,
  whose optimal linear predictor is known in closed form.
* :func:`make_text_like` -- a labelled stand-in with the shape and sparsity of RCV1's CCAT task
  (47 236 features, 0.16 % of the entries nonzero, cosine-normalized tf-idf rows, a generative two-topic
  model), for when the real data are not available offline.

Features lie in [-1, 1] (the package's convention, see :class:`l1lab.Problem`); labels are in {-1, +1}.
"""
from __future__ import annotations

import math

import numpy as np
import scipy.sparse as sp

from .._validate import ANY, check_array, checked, count, positive, real

#: The domain of every parameter of this module (checked before each call; see ``l1lab._validate``).  Seeds are
#: integers here: they are combined with a stream number, ``default_rng([seed, k])``.
_P = {"n": count(1), "separation": positive(), "condition": real(low=1.0), "seed": count(0), "m": count(1),
      "sample_seed": count(0), "w": ANY, "w_star": ANY, "n_features": count(4),
      "density": real(low=0.0, low_open=True, high=1.0), "zipf": positive(), "informative": real(low=0.0, high=0.5,
                                                                                                low_open=True),
      "topic_weight": real(low=0.0, high=1.0), "positive": real(low=0.0, high=1.0, low_open=True, high_open=True),
      "flip": real(low=0.0, high=0.5, high_open=True), "model_seed": count(0)}
_checked = checked(_P)

_BLOCK = 4096  # rows drawn per block: a data set is a prefix of any larger one with the same seed


@_checked
def gaussian_classes_model(n, separation=2.0, condition=10.0, seed=0):
    r"""The population of :func:`make_gaussian_classes`: ``(mu, cov, scale, w_star)``.

    Classes y = +1 and y = -1 have probability 1/2 each and x | y ~ N(y mu, cov), with cov = Q diag(e) Q^T
    (Q a random rotation, eigenvalues e log-uniform in [1/condition, 1]) and mu chosen so that the
    Mahalanobis distance between the class means, :math:`2\sqrt{\mu^T\Sigma^{-1}\mu}`, equals
    ``separation`` (the Bayes error is :math:`\Phi(-\text{separation}/2)`, 16 % at the default 2).
    Features are divided by ``scale`` and examples outside [-1, 1]^n are redrawn (rejection).

    Then :math:`P(y = 1 \mid x) = 1/(1 + e^{-\langle w^*, x\rangle})` exactly, with
    :math:`w^* = 2\,\text{scale}\,\Sigma^{-1}\mu` in the scaled features: the log-odds of two Gaussians with a
    shared covariance are linear, and the rejection region is symmetric (x -> -x maps one class onto the
    other), so both classes lose the same mass and the posterior is unchanged.  Hence w* minimizes the
    expected logistic loss over all linear predictors (the model is well specified), and its direction
    w*/||w*||_2 is the optimal separating direction of the paper's Figure 9.
    """
    n = int(n)
    if n < 1:
        raise ValueError(f"n must be >= 1, got {n}")
    separation, condition = float(separation), float(condition)
    if not (separation > 0 and math.isfinite(separation)):
        raise ValueError(f"separation must be a finite number > 0, got {separation}")
    if not (condition >= 1 and math.isfinite(condition)):
        raise ValueError(f"condition must be a finite number >= 1, got {condition}")
    rng = np.random.default_rng([int(seed), 0])
    Q, R = np.linalg.qr(rng.standard_normal((n, n)))
    Q = Q * np.sign(np.diag(R))
    e = np.exp(rng.uniform(-math.log(condition), 0.0, n)) if n > 1 else np.ones(1)
    cov = (Q * e) @ Q.T
    cov = (cov + cov.T) / 2.0
    v = rng.standard_normal(n)
    mu = v / math.sqrt(float(v @ np.linalg.solve(cov, v))) * (separation / 2.0)
    scale = float(np.max(np.abs(mu) + 5.0 * np.sqrt(np.diag(cov))))
    w_star = 2.0 * scale * np.linalg.solve(cov, mu)
    return mu, cov, scale, w_star


@_checked
def make_gaussian_classes(m, n, separation=2.0, condition=10.0, seed=0, sample_seed=None):
    r"""Two Gaussian classes with a shared covariance (Zhu et al. 2009, Section V, the toy sets of Figure 9).

    The population (means, covariance, scale) is fixed by ``seed`` (see :func:`gaussian_classes_model`);
    the examples by ``sample_seed`` (default: ``seed``).  Examples are drawn in blocks, so the data set with
    m examples is the first m rows of the one with m' > m examples (same seeds): growing m adds data.

    Returns ``(X, y, w_star)``: X dense (m, n) in [-1, 1], y in {-1, +1}, and w_star the population
    minimizer of the logistic loss (the true log-odds), whose direction w_star/||w_star||_2 is the target of
    the paper's error ||w* - w||_2 between unit vectors.
    """
    m = int(m)
    if m < 1:
        raise ValueError(f"m must be >= 1, got {m}")
    mu, cov, scale, w_star = gaussian_classes_model(n, separation, condition, seed)
    n = mu.shape[0]
    chol = np.linalg.cholesky(cov)
    rng = np.random.default_rng([int(seed if sample_seed is None else sample_seed), 1])
    Xs, ys, got = [], [], 0
    while got < m:
        y = np.where(rng.random(_BLOCK) < 0.5, 1.0, -1.0)
        X = (y[:, None] * mu + rng.standard_normal((_BLOCK, n)) @ chol.T) / scale
        keep = np.all(np.abs(X) <= 1.0, axis=1)
        Xs.append(X[keep])
        ys.append(y[keep])
        got += int(keep.sum())
    return np.concatenate(Xs)[:m], np.concatenate(ys)[:m], w_star


@_checked
def direction_error(w, w_star):
    r"""The error of Zhu et al. (2009)'s Figure 9: :math:`\| w^*/\|w^*\|_2 - w/\|w\|_2 \|_2` between unit
    vectors; ``math.inf`` for w = 0, which has no direction."""
    w = check_array(w, "w")
    w_star = check_array(w_star, "w_star", shape=w.shape, like="w")
    nw, ns = float(np.linalg.norm(w)), float(np.linalg.norm(w_star))
    if ns == 0.0:
        raise ValueError("w_star must be nonzero")
    if nw == 0.0:
        return math.inf
    return float(np.linalg.norm(w / nw - w_star / ns))


@_checked
def text_like_model(n_features=47236, density=0.0016, zipf=1.1, informative=0.01, topic_weight=0.05, seed=0):
    r"""The population of :func:`make_text_like`: ``(freq, topics, draws)``.

    ``freq`` (n,) are background term frequencies, Zipf-like :math:`\propto (j + 10)^{-\text{zipf}}` in a random
    order of the features; ``topics`` (2, n) are the term distributions of the classes -1 (row 0) and +1
    (row 1), each Zipf-like on its own disjoint set of round(informative * n) terms, drawn with probability
    proportional to sqrt(freq) (topic words are moderately frequent); a term occurrence in a document of class
    y comes from topics[y] with probability ``topic_weight`` and from ``freq`` otherwise.  ``draws`` is the
    mean number of occurrences per document that gives about ``density * n`` distinct terms."""
    n = int(n_features)
    if n < 4:
        raise ValueError(f"n_features must be >= 4, got {n}")
    zipf, informative, density, alpha = float(zipf), float(informative), float(density), float(topic_weight)
    if not (zipf > 0 and math.isfinite(zipf)):
        raise ValueError(f"zipf must be a finite number > 0, got {zipf}")
    if not 0 < informative <= 0.5:
        raise ValueError(f"informative must be in (0, 0.5], got {informative}")
    if not 0 <= alpha <= 1:
        raise ValueError(f"topic_weight must be in [0, 1], got {alpha}")
    if not 0 < density <= 1:
        raise ValueError(f"density must be in (0, 1], got {density}")
    target = density * n
    if target < 1:
        raise ValueError(f"density * n_features = {target:.3g} < 1: documents would be empty")
    if target > 0.5 * n:
        raise ValueError(f"density {density} is too high for a sparse text-like set (at most 0.5)")
    rng = np.random.default_rng([int(seed), 2])
    freq = (np.arange(n) + 10.0) ** -zipf
    freq = rng.permutation(freq / freq.sum())
    k = max(1, int(round(informative * n)))
    pick = np.sqrt(freq)
    chosen = rng.choice(n, 2 * k, replace=False, p=pick / pick.sum())
    topics = np.zeros((2, n))
    zk = (np.arange(k) + 10.0) ** -zipf
    for c in range(2):
        topics[c, chosen[c * k:(c + 1) * k]] = zk / zk.sum()
    mix = (1.0 - alpha) * freq + alpha * topics.mean(axis=0)
    return freq, topics, _draws_for_distinct(mix, target)


def _draws_for_distinct(freq, target):
    """The number of term draws L with E[#distinct terms] = sum_j 1 - (1 - f_j)^L equal to ``target``."""
    lo, hi = target, 4.0 * target + 10.0
    while np.sum(-np.expm1(hi * np.log1p(-freq))) < target:
        hi *= 2.0
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        if np.sum(-np.expm1(mid * np.log1p(-freq))) < target:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


@_checked
def make_text_like(m, n_features=47236, density=0.0016, positive=0.47, flip=0.03, zipf=1.1, informative=0.01,
                   topic_weight=0.05, seed=0, model_seed=0):
    r"""A sparse, text-like binary classification set shaped like RCV1's CCAT task in Zhu et al. (2009),
    Section V (47 236 features, 0.16 % density, i.e. about 76 distinct terms per document, 47 % positive).

    Generative, like text: a document's class y (+1 with probability ``positive``) decides its words.  It has
    a Poisson number of term occurrences, each drawn from the class's topic distribution with probability
    ``topic_weight`` and from the Zipf-like background otherwise (:func:`text_like_model`).  An entry is the
    tf-idf weight (1 + log tf) log(1/freq_j) and every row is scaled to unit l2 norm (RCV1's cosine
    normalization), so entries lie in [0, 1].  The label is y, flipped with probability ``flip``.  A linear
    predictor without intercept separates the classes well (the topic terms have opposite signs).

    Train and test sets: the same ``model_seed`` (the population) and different ``seed`` (the documents).
    Returns ``(X, y, w_ref)``: X a CSR matrix, y in {-1, +1}, and w_ref the naive-Bayes log-odds of one term
    occurrence, :math:`\log\frac{(1-\alpha)f_j + \alpha t_{+,j}}{(1-\alpha)f_j + \alpha t_{-,j}}` -- a
    reference direction, not the optimum on the tf-idf features.
    """
    m = int(m)
    if m < 1:
        raise ValueError(f"m must be >= 1, got {m}")
    flip, positive = float(flip), float(positive)
    if not 0 <= flip < 0.5:
        raise ValueError(f"flip must be in [0, 0.5), got {flip}")
    if not 0 < positive < 1:
        raise ValueError(f"positive must be in (0, 1), got {positive}")
    freq, topics, L = text_like_model(n_features, density, zipf, informative, topic_weight, model_seed)
    alpha = float(topic_weight)
    n = freq.shape[0]
    rng = np.random.default_rng([int(seed), 3])
    cls = (rng.random(m) < positive).astype(np.int64)  # 1: class +1
    counts = np.maximum(rng.poisson(L, m), 1)
    n_topic = rng.binomial(counts, alpha)
    rows_bg = np.repeat(np.arange(m), counts - n_topic)
    cols_bg = rng.choice(n, size=rows_bg.size, p=freq)
    rows, cols = [rows_bg], [cols_bg]
    for c in range(2):
        mine = np.flatnonzero(cls == c)
        r = np.repeat(mine, n_topic[mine])
        rows.append(r)
        cols.append(rng.choice(n, size=r.size, p=topics[c]))
    rows, cols = np.concatenate(rows), np.concatenate(cols)
    tf = sp.csr_matrix((np.ones(rows.size), (rows, cols)), shape=(m, n))
    tf.sum_duplicates()
    idf = -np.log(freq)
    tf.data = (1.0 + np.log(tf.data)) * idf[tf.indices]
    norms = np.sqrt(np.asarray(tf.multiply(tf).sum(axis=1)).ravel())
    X = sp.csr_matrix(sp.diags(1.0 / norms) @ tf)
    np.clip(X.data, 0.0, 1.0, out=X.data)  # 1 + 1 ulp from the division, for one-term documents
    X.sort_indices()
    y = np.where(cls == 1, 1.0, -1.0)
    y[rng.random(m) < flip] *= -1.0
    w_ref = np.log(((1 - alpha) * freq + alpha * topics[1]) / ((1 - alpha) * freq + alpha * topics[0]))
    return X, y, w_ref
