r"""Loss functions L(a, y) of problem (1) and the constants the theory uses.

Every loss exposes its value, its derivative with respect to the first argument (a sub-gradient for the
hinge loss) and, where it exists, its second derivative, both as numba scalar functions usable inside
kernels (:func:`loss_value`, :func:`loss_deriv`, :func:`loss_second`, dispatched on an integer code) and as
vectorized numpy methods of a :class:`Loss` object.

The constants (Shalev-Shwartz & Tewari 2011):

* ``beta`` -- an upper bound on :math:`L''(a, y)` over all ``a`` (eq. (7)); it is the step ``1/beta`` of SCD and,
  by Lemma 6, the coordinate-smoothness constant of condition (9) when features lie in [-1, 1].
* ``rho_lipschitz`` -- condition (13), :math:`|L'(a, y)| \le \rho`.
* ``rho_self_bounded`` -- condition (14), :math:`L'(a, y)^2 \le \rho L(a, y)`.

A constant that does not exist is ``math.inf``.  Each is verified numerically in ``tests/test_losses.py``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numba import njit

from ._validate import check_array, check_real

SQUARED = 0
LOGISTIC = 1
HINGE = 2


@njit(cache=True, inline="always")
def loss_value(code, a, y):
    """L(a, y) for the loss with integer ``code`` (SQUARED, LOGISTIC, HINGE)."""
    if code == SQUARED:
        r = a - y
        return 0.5 * r * r
    elif code == LOGISTIC:
        t = -y * a  # log(1 + e^t), computed without overflow
        if t > 0.0:
            return t + math.log1p(math.exp(-t))
        return math.log1p(math.exp(t))
    else:
        t = 1.0 - y * a
        return t if t > 0.0 else 0.0


@njit(cache=True, inline="always")
def loss_deriv(code, a, y):
    """dL/da at (a, y); for the hinge loss the sub-gradient -y on ya < 1 and 0 otherwise."""
    if code == SQUARED:
        return a - y
    elif code == LOGISTIC:
        u = y * a  # L' = -y / (1 + e^u)
        if u >= 0.0:
            e = math.exp(-u)
            return -y * e / (1.0 + e)
        return -y / (1.0 + math.exp(u))
    else:
        return -y if y * a < 1.0 else 0.0


@njit(cache=True, inline="always")
def loss_second(code, a, y):
    """d^2L/da^2 at (a, y) (0 for the hinge loss away from its kink)."""
    if code == SQUARED:
        return 1.0
    elif code == LOGISTIC:
        u = y * a
        e = math.exp(-abs(u))
        return e / ((1.0 + e) * (1.0 + e))
    else:
        return 0.0


@njit(cache=True)
def _apply(kind, code, a, y):
    out = np.empty(a.shape[0])
    for i in range(a.shape[0]):
        if kind == 0:
            out[i] = loss_value(code, a[i], y[i])
        elif kind == 1:
            out[i] = loss_deriv(code, a[i], y[i])
        else:
            out[i] = loss_second(code, a[i], y[i])
    return out


@njit(cache=True)
def mean_loss(code, z, y):
    """(1/m) sum_i L(z_i, y_i): the smooth part C(w) given the margins z = Xw."""
    s = 0.0
    for i in range(z.shape[0]):
        s += loss_value(code, z[i], y[i])
    return s / z.shape[0]


def _as_pair(a, y):
    a = np.asarray(a, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    a, y = np.broadcast_arrays(a, y)
    # copies: a broadcast view is read-only, and numba warns on those
    return np.array(a, copy=True).ravel(), np.array(y, copy=True).ravel(), a.shape


@dataclass(frozen=True)
class Loss:
    """A loss of problem (1) with the constants of Shalev-Shwartz & Tewari (2011)."""

    name: str
    code: int
    beta: float
    rho_lipschitz: float
    rho_self_bounded: float
    classification: bool
    smooth: bool
    doc: str

    def value(self, a, y):
        """L(a, y), vectorized over numpy arrays (broadcasting)."""
        a, y, shape = _as_pair(a, y)
        return _apply(0, self.code, a, y).reshape(shape)

    def deriv(self, a, y):
        """L'(a, y) with respect to a (a sub-gradient for the hinge loss)."""
        a, y, shape = _as_pair(a, y)
        return _apply(1, self.code, a, y).reshape(shape)

    def second(self, a, y):
        """L''(a, y) with respect to a."""
        a, y, shape = _as_pair(a, y)
        return _apply(2, self.code, a, y).reshape(shape)

    def __repr__(self):
        return f"Loss({self.name!r})"


squared = Loss(
    name="squared", code=SQUARED, beta=1.0, rho_lipschitz=math.inf, rho_self_bounded=2.0,
    classification=False, smooth=True,
    doc=(
        "L(a, y) = (a - y)^2 / 2.  beta = 1 (eq. (7)).  Condition (13) fails: L' = a - y is unbounded.  "
        "Condition (14) holds with rho = 2 because L'^2 = (a - y)^2 = 2 L.  The paper (Section 3.1) says "
        "rho = 4, which is the constant of the unhalved loss (a - y)^2 (L'^2 = 4(a - y)^2 = 4 L); for the "
        "halved loss it uses everywhere else, rho = 2 is the right, and tight, constant."
    ),
)

logistic = Loss(
    name="logistic", code=LOGISTIC, beta=0.25, rho_lipschitz=1.0, rho_self_bounded=0.5,
    classification=True, smooth=True,
    doc=(
        "L(a, y) = log(1 + exp(-y a)), y in {-1, +1}.  beta = 1/4 (the maximum of L'' at a = 0).  "
        "(13) holds with rho = 1 (|L'| < 1).  (14) holds with the paper's rho = 1/2; the tight constant is "
        "max_u sigma(-u)^2 / log(1 + e^-u) = 0.40726... (at u = y a = -0.921), so 1/2 is valid but not tight."
    ),
)

hinge = Loss(
    name="hinge", code=HINGE, beta=math.inf, rho_lipschitz=1.0, rho_self_bounded=math.inf,
    classification=True, smooth=False,
    doc=(
        "L(a, y) = max(0, 1 - y a), y in {-1, +1}.  Not differentiable at y a = 1: the derivative returned is "
        "the sub-gradient -y for y a < 1 and 0 for y a >= 1.  No finite beta (SCD does not apply).  (13) holds "
        "with rho = 1.  (14) fails: as y a -> 1 from below, L'^2 = 1 while L -> 0."
    ),
)

LOSSES = {"squared": squared, "logistic": logistic, "hinge": hinge}


def get_loss(loss) -> Loss:
    """Return the :class:`Loss` for a name ('squared', 'logistic', 'hinge') or a Loss instance."""
    if isinstance(loss, Loss):
        return loss
    if isinstance(loss, str) and loss in LOSSES:
        return LOSSES[loss]
    raise ValueError(f"unknown loss {loss!r}; choose one of {sorted(LOSSES)}")


def soft_threshold(w, tau):
    r"""The thresholding operation :math:`s_\tau(w) = \mathrm{sign}(w)(|w| - \tau)_+` of Section 2."""
    w = check_array(w, "w", ndim=None, allow_empty=True)  # elementwise: any shape
    tau = check_real(tau, "the threshold tau", low=0.0, allow_inf=True)  # tau = inf: everything is thresholded
    return np.sign(w) * np.maximum(np.abs(w) - tau, 0.0) + 0.0  # + 0.0 turns -0.0 into 0.0
