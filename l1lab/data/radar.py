r"""The simulated data of Section 4 of Agarwal, Negahban & Wainwright (2012): linear regression with a uniform
design, as a stream of fresh samples (:class:`UniformDesignStream`), with an s-sparse (:func:`sparse_theta`) or a
weakly sparse (:func:`weakly_sparse_theta`) parameter; :func:`make_stream` builds the paper's setting.
The solvers of :mod:`l1lab.solvers.dual_averaging` take such a stream as their ``source``.
"""
from __future__ import annotations

import math

import numpy as np

from .._validate import ANY, SEED, check_array, checked, count, nonnegative, positive, real

__all__ = ["UniformDesignStream", "make_stream", "sparse_theta", "weakly_sparse_theta"]


#: The domain of every parameter of this module (checked before each call; see ``l1lab._validate``).
_P = {"self": ANY, "theta_star": ANY, "B": positive(), "noise_var": nonnegative(), "theta": ANY, "n": count(1),
      "seed": SEED, "d": count(3), "s": count(1), "magnitude": positive(), "q": real(low=0.0, high=1.0),
      "norm2_sq": positive(), "Rq": positive()}
_checked = checked(_P)


class UniformDesignStream:
    r"""The simulation of Section 4 of Agarwal, Negahban & Wainwright (2012): every call draws n fresh samples
    x ~ Unif[-B, B]^d, y = <theta*, x> + w, w ~ N(0, noise_var).

    Least squares L(theta; (x, y)) = (y - <theta, x>)^2/2 then has Sigma = (B^2/3) I, the expected loss
    :meth:`expected_loss` = (B^2/3)||theta - theta*||^2/2 + noise_var/2 and gamma = rho(Sigma) = B^2/3
    (Example 2).  ``sampler(rng, n) -> (X, y)``; :meth:`pool` draws a finite pool for eq. (15).
    """

    @_checked
    def __init__(self, theta_star, B=1.0, noise_var=0.5):
        theta_star = check_array(theta_star, "theta_star", copy=True)
        if theta_star.size < 3:
            raise ValueError(f"theta_star must be a 1-d array with d >= 3 entries, got shape {theta_star.shape}")
        B, noise_var = float(B), float(noise_var)
        if not (B > 0 and math.isfinite(B)):
            raise ValueError(f"B must be a finite number > 0, got {B}")
        if not (noise_var >= 0 and math.isfinite(noise_var)):
            raise ValueError(f"noise_var must be a finite number >= 0, got {noise_var}")
        self.theta_star, self.B, self.noise_var = theta_star, B, noise_var
        self.d = theta_star.size
        self._support = np.flatnonzero(theta_star)

    @property
    def sigma2(self) -> float:
        """The variance B^2/3 of a feature (Sigma = sigma2 I)."""
        return self.B ** 2 / 3.0

    def __call__(self, rng, n):
        X = rng.random((n, self.d))  # = rng.uniform(-B, B, (n, d)) bit for bit, without its temporaries
        X *= 2.0 * self.B
        X -= self.B
        y = (X[:, self._support] * self.theta_star[self._support]).sum(axis=1)
        if self.noise_var > 0:
            y = y + math.sqrt(self.noise_var) * rng.standard_normal(n)
        return X, y

    def expected_loss(self, theta):
        """E[(y - <theta, x>)^2/2] = (B^2/3)||theta - theta*||_2^2/2 + noise_var/2."""
        diff = self._theta(theta) - self.theta_star
        return 0.5 * self.sigma2 * float(diff @ diff) + 0.5 * self.noise_var

    def gradient(self, theta):
        """grad E[L] = Sigma (theta - theta*) = (B^2/3)(theta - theta*)."""
        return self.sigma2 * (self._theta(theta) - self.theta_star)

    def _theta(self, theta):
        return check_array(theta, "theta", shape=(self.d,), like="theta_star")

    @_checked
    def pool(self, n, seed=0):
        """A finite pool of n samples for eq. (15) (needs B <= 1 to build a Problem): returns (X, y)."""
        return self(np.random.default_rng(seed), int(n))

    def __repr__(self):
        return (f"UniformDesignStream(d={self.d}, nnz(theta*)={self._support.size}, B={self.B:g}, "
                f"noise_var={self.noise_var:g})")


@_checked
def sparse_theta(d, s=None, magnitude=1.0 / math.sqrt(2.0), seed=0):
    r"""An s-sparse theta* for Section 4 of Agarwal, Negahban & Wainwright (2012): s = ceil(log d) by default,
    a uniformly random support, entries +-``magnitude`` with random signs.

    The paper does not state the nonzero values; the default 1/sqrt(2) (a choice) gives ||theta*||_2^2 = s/2 =
    5.5 at d = 40 000, the error at iteration 0 of its Figure 1."""
    d = int(d)
    if d < 3:
        raise ValueError(f"d must be >= 3, got {d}")
    s = math.ceil(math.log(d)) if s is None else int(s)
    if not 1 <= s <= d:
        raise ValueError(f"need 1 <= s <= d, got s={s}, d={d}")
    if not (magnitude > 0 and math.isfinite(magnitude)):
        raise ValueError(f"magnitude must be a finite number > 0, got {magnitude}")
    rng = np.random.default_rng(seed)
    theta = np.zeros(d)
    support = rng.choice(d, size=s, replace=False)
    theta[support] = magnitude * rng.choice([-1.0, 1.0], size=s)
    return theta


@_checked
def weakly_sparse_theta(d, q, norm2_sq=None, Rq=None, seed=0):
    r"""A theta* on the boundary of the l_q ball B_q(R_q) (Corollary 1 of Agarwal, Negahban & Wainwright 2012):
    sorted magnitudes :math:`|\theta^*|_{(j)} = c\,j^{-1/q}`, j = 1..d, on a random permutation with random
    signs, so that :math:`\sum_j|\theta^*_j|^q = c^q H_d = R_q` (H_d the harmonic number): in B_q(R_q) but in
    no B_{q'} ball of comparable radius for q' < q.  Scale: ``norm2_sq`` = ||theta*||_2^2 (default s/2 with
    s = ceil(log d), as :func:`sparse_theta`) or ``Rq``.  q = 0 gives :func:`sparse_theta`."""
    d = int(d)
    if not 0 <= q <= 1:
        raise ValueError(f"q must be in [0, 1], got {q}")
    if norm2_sq is not None and Rq is not None:
        raise ValueError("give norm2_sq or Rq, not both")
    if q == 0:
        if Rq is not None:
            return sparse_theta(d, s=int(Rq), seed=seed)
        s = math.ceil(math.log(d))
        mag = 1 / math.sqrt(2.0) if norm2_sq is None else math.sqrt(norm2_sq / s)
        return sparse_theta(d, s=s, magnitude=mag, seed=seed)
    rng = np.random.default_rng(seed)
    j = np.arange(1, d + 1, dtype=np.float64)
    mags = j ** (-1.0 / q)
    if Rq is not None:
        if not (Rq > 0 and math.isfinite(Rq)):
            raise ValueError(f"Rq must be a finite number > 0, got {Rq}")
        mags *= (Rq / np.sum(mags ** q)) ** (1.0 / q)
    else:
        target = math.ceil(math.log(d)) / 2.0 if norm2_sq is None else float(norm2_sq)
        if not (target > 0 and math.isfinite(target)):
            raise ValueError(f"norm2_sq must be a finite number > 0, got {norm2_sq}")
        mags *= math.sqrt(target / float(mags @ mags))
    theta = np.zeros(d)
    theta[rng.permutation(d)] = mags * rng.choice([-1.0, 1.0], size=d)
    return theta


@_checked
def make_stream(d, s=None, B=1.0, noise_var=0.5, magnitude=1.0 / math.sqrt(2.0), q=0.0, norm2_sq=None, seed=0):
    r"""The data of Section 4 of Agarwal, Negahban & Wainwright (2012) as a :class:`UniformDesignStream`:
    x ~ Unif[-B, B]^d, noise variance 0.5, theta* s-sparse with s = ceil(log d) (:func:`sparse_theta`), or, for
    0 < q <= 1, theta* on the boundary of an l_q ball (:func:`weakly_sparse_theta`, Corollary 1's q sweep).
    The paper gives neither B nor the nonzero values of theta*: B = 1 (features in [-1, 1], as everywhere in
    l1lab) and +-1/sqrt(2) are choices."""
    if q == 0:
        theta = sparse_theta(d, s=s, magnitude=magnitude, seed=seed) if norm2_sq is None else \
            weakly_sparse_theta(d, 0.0, norm2_sq=norm2_sq, seed=seed)
    else:
        theta = weakly_sparse_theta(d, q, norm2_sq=norm2_sq, seed=seed)
    return UniformDesignStream(theta, B=B, noise_var=noise_var)
