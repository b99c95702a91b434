r"""Stochastic mirror descent made sparse (SMIDAS, Algorithm 3 of Shalev-Shwartz & Tewari 2011), truncated
gradient (the SMIDAS-style variant the paper runs, and Langford, Li & Zhang's 2009 original), and plain
stochastic sub-gradient descent for contrast.

All sample one example i uniformly per iteration and use the unbiased gradient estimate
v = L'(<w, x_i>, y_i) x_i of C.  Data accesses per iteration: nnz(x_i).

Outputs (``output=``): ``"last"`` (the iterate after T steps), ``"random"`` (Theorem 3's w_o = w_r with r
uniform on {0, ..., T-1}, where w_t is the iterate after t steps and w_0 = 0, drawn independently for every
checkpoint T), ``"average"`` ((1/T) sum_{t<T} w_t; P of it is at most Theorem 3's average by convexity).
The trace records P and l0 of the chosen output at every checkpoint, and ``Result.w`` is the output at the
last checkpoint (for ``"random"``, the sampled w_r, not the last iterate).

With penalty weights (:class:`l1lab.Problem`'s ``penalty_weights``) coordinate j is truncated by eta lam c_j
(Langford's variant: gravity c_j g): the composite step of the weighted penalty, so an unpenalized coordinate
(c_j = 0, an intercept) takes plain stochastic gradient steps through the same link.
"""
from __future__ import annotations

import math

import numpy as np

from ..links import link_inverse, smidas_p
from . import _mirror_kernels as K
from ._checks import solver_checked
from ._example_driver import check_common, run_examples

_EMPTY = np.zeros(0)


def _weights(problem):
    """The kernels' penalty-weight argument: empty for the unweighted penalty."""
    return _EMPTY if problem.penalty_weights is None else problem.penalty_weights


class _Smidas:
    def __init__(self, problem, eta, p, average):
        self.prob, self.eta, self.p = problem, eta, p
        self.arrays = problem.csr_arrays()
        d = problem.d
        self.theta = np.zeros(d)
        self.active = np.zeros(d, dtype=np.int64)
        self.pos = np.full(d, -1, dtype=np.int64)
        self.n_active = np.zeros(1, dtype=np.int64)
        self.wsum = np.zeros(d) if average else _EMPTY
        self.pw = np.zeros(d)  # scratch: (|theta_j|/M)^(p-1) of the active entries

    def run(self, idx):
        K.smidas_chunk(self.prob.loss.code, *self.arrays, self.prob.y, self.theta, self.active, self.pos,
                       self.n_active, idx, self.eta, self.prob.lam, _weights(self.prob), self.p, self.wsum,
                       self.pw)

    def primal(self):
        return link_inverse(self.theta, self.p)


@solver_checked()
def smidas(problem, n_iter, eta, seed=0, p=None, p_rounded=False, output="last", n_checkpoints=60):
    r"""SMIDAS, Algorithm 3 of Shalev-Shwartz & Tewari (2011).

    theta = 0; every iteration: sample i, v = L'(<w, x_i>, y_i) x_i, theta <- theta - eta v, then
    theta_j <- sign(theta_j) max(0, |theta_j| - eta lam) for every j, and w = f^{-1}(theta) (eq. (12)).

    Parameters
    ----------
    eta : step size (Theorem 3 prescribes one per loss condition: see
        :func:`l1lab.theory.shalev_shwartz_tewari.smidas_eta_lipschitz` and ``smidas_eta_self_bounded``)
    p : link exponent; default 2 ln d (Algorithm 3), or ceil(2 ln d) with ``p_rounded=True`` (the paper's
        experiments).  p = 2 is the identity link, i.e. SMIDAS-style truncated gradient.
    output : "last", "random" (Theorem 3's w_r) or "average"

    Cost per iteration: O(nnz(x_i)) for the margin and the gradient step, plus O(nnz(theta)) for the
    truncation and the link: truncation moves every nonzero theta_j, and w = f^{-1}(theta) depends on all of
    them through ||theta||_p.  The kernel keeps a list of the nonzero theta_j, never forms w, and computes
    <w, x_i> from theta directly, so a step never costs O(d) unless theta is dense.
    """
    n_iter, eta = check_common(problem, n_iter, eta, output)
    if p is None:
        p = smidas_p(problem.d, rounded=p_rounded)
    p = float(p)
    if not (p >= 2 and math.isfinite(p)):
        raise ValueError(f"the link exponent p must be >= 2, got {p}")
    algo = _Smidas(problem, eta, p, output == "average")
    return run_examples(problem, n_iter, seed, n_checkpoints, output, algo,
                        {"method": "smidas", "eta": eta, "p": p})


class _TruncGradLazy:
    def __init__(self, problem, eta):
        self.prob, self.eta = problem, eta
        self.arrays = problem.csr_arrays()
        self.w = np.zeros(problem.d)
        self.last = np.zeros(problem.d, dtype=np.int64)
        self.step = 0

    def run(self, idx):
        K.truncgrad_lazy_chunk(self.prob.loss.code, *self.arrays, self.prob.y, self.w, self.last, self.step,
                               idx, self.eta, self.prob.lam, _weights(self.prob))
        self.step += idx.shape[0]

    def primal(self):
        K.catch_up(self.w, self.last, self.step, self.eta * self.prob.lam, _weights(self.prob))
        return self.w.copy()


class _Langford:
    def __init__(self, problem, eta, gravity, period, threshold, average):
        self.prob, self.eta = problem, eta
        self.gravity, self.period, self.threshold = gravity, period, threshold
        self.arrays = problem.csr_arrays()
        self.w = np.zeros(problem.d)
        self.step = 0
        self.wsum = np.zeros(problem.d) if average else _EMPTY

    def run(self, idx):
        K.langford_chunk(self.prob.loss.code, *self.arrays, self.prob.y, self.w, self.step, idx, self.eta,
                         self.gravity, self.period, self.threshold, self.wsum, _weights(self.prob))
        self.step += idx.shape[0]

    def primal(self):
        return self.w.copy()


@solver_checked()
def truncgrad(problem, n_iter, eta, seed=0, variant="smidas", gravity=None, period=1, threshold=math.inf,
              output="last", n_checkpoints=60):
    r"""Truncated gradient.

    ``variant="smidas"`` (default): the variant Shalev-Shwartz & Tewari (2011) run as TRUNCGRAD, Algorithm 3
    with the identity link: w <- w - eta v, then w_j <- sign(w_j) max(0, |w_j| - eta lam).  Truncation is
    applied lazily, so a step costs O(nnz(x_i)) whatever d is (exactly the same iterates as the eager form).

    ``variant="langford"``: Langford, Li & Zhang (2009): w <- w - eta v every step and, every ``period``
    (K) steps, w_j <- T1(w_j, K eta g, theta) with gravity g (default lam) and threshold theta (default inf):
    w_j shrinks toward 0 by K eta g if |w_j| <= theta.  With K = 1, theta = inf and g = lam it is the
    SMIDAS-style variant (the same iterates, to rounding).  Costs O(d) every K steps.
    """
    n_iter, eta = check_common(problem, n_iter, eta, output)
    if variant == "smidas":
        if output == "average":  # the eager kernel with the identity link (p = 2) gives the same iterates
            algo = _Smidas(problem, eta, 2.0, True)
        else:
            algo = _TruncGradLazy(problem, eta)
        info = {"method": "truncgrad", "variant": "smidas", "eta": eta}
    elif variant == "langford":
        gravity = problem.lam if gravity is None else float(gravity)
        period = int(period)
        if period < 1:
            raise ValueError(f"period K must be >= 1, got {period}")
        if gravity < 0 or not math.isfinite(gravity):
            raise ValueError(f"gravity must be a finite number >= 0, got {gravity}")
        if not threshold >= 0:
            raise ValueError(f"threshold must be >= 0, got {threshold}")
        algo = _Langford(problem, eta, gravity, period, float(threshold), output == "average")
        info = {"method": "truncgrad", "variant": "langford", "eta": eta, "gravity": gravity,
                "period": period, "threshold": threshold}
    else:
        raise ValueError(f"variant must be 'smidas' or 'langford', got {variant!r}")
    return run_examples(problem, n_iter, seed, n_checkpoints, output, algo, info)


class _SGD:
    def __init__(self, problem, eta, average):
        self.prob, self.eta = problem, eta
        self.arrays = problem.csr_arrays()
        self.w = np.zeros(problem.d)
        self.wsum = np.zeros(problem.d) if average else _EMPTY

    def run(self, idx):
        K.sgd_chunk(self.prob.loss.code, *self.arrays, self.prob.y, self.w, idx, self.eta, self.prob.lam,
                    self.wsum, _weights(self.prob))

    def primal(self):
        return self.w.copy()


@solver_checked()
def sgd(problem, n_iter, eta, seed=0, output="last", n_checkpoints=60):
    r"""Stochastic sub-gradient descent on P(w) = C(w) + lam ||w||_1, the baseline of Section 1.1.3 of
    Shalev-Shwartz & Tewari (2011): w <- w - eta (L'(<w, x_i>, y_i) x_i + lam sign(w)), sign(0) = 0.
    Coordinates oscillate around 0 instead of landing on it, so the iterates are dense."""
    n_iter, eta = check_common(problem, n_iter, eta, output)
    algo = _SGD(problem, eta, output == "average")
    return run_examples(problem, n_iter, seed, n_checkpoints, output, algo, {"method": "sgd", "eta": eta})
