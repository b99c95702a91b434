r"""Results of Kakade, Foster & Even-Dar, lecture note *(Exponentiated) Stochastic Gradient Descent for L1
Constrained Problems* (2008), re-derived (the source lost its mathematical layout in extraction).

Setting: online convex programming over F with costs c^t, noisy unbiased gradients, and the regret
R_T = (1/T)(sum_t c^t(w^t) - min_{w in F} sum_t c^t(w)).  L2 setting: ||w||_2 <= F2, gradients bounded by G2
in l2 norm.  L1 setting: F the simplex {w >= 0, sum w = F1}, gradients bounded by G_inf in l_inf norm.
"""
from __future__ import annotations

import math

from .._validate import FLAG, check_array, checked, count, nonnegative, positive, probability, vector

#: The domain of every parameter of this module, by name (checked before each call; see ``l1lab._validate``).
#: d is a count; T a horizon > 0 (the bounds are formulas of it, also evaluated at real T); delta a probability
#: (None: the noiseless bound).
_P = {
    "T": positive(), "F2": positive(), "G2": positive(), "delta": probability().opt(), "eta": positive(), "d": count(1),
    "G_inf": positive(), "F1": positive(), "as_printed": FLAG, "B": nonnegative(), "w": vector(),
    "grad": vector(),
}
_checked = checked(_P)


def _pos(**kw):
    for k, v in kw.items():
        if not (v > 0 and math.isfinite(v)):
            raise ValueError(f"{k} must be a finite number > 0, got {v}")


def _delta_term(delta, T):
    if delta is None:
        return 0.0
    if not 0 < delta < 1:
        raise ValueError(f"delta must be in (0, 1), got {delta}")
    return math.sqrt(2.0 * math.log(1.0 / delta) / T)


@_checked
def sg_eta(T, F2, G2):
    r"""Theorem 2.1 of Kakade, Foster & Even-Dar (2008): the SG step :math:`\eta = \frac{2F_2}{G_2\sqrt T}`,
    the minimizer of Lemma 5.2's bound."""
    _pos(T=T, F2=F2, G2=G2)
    return 2.0 * F2 / (G2 * math.sqrt(T))


@_checked
def sg_regret_bound(T, F2, G2, delta=None):
    r"""Theorem 2.1 of Kakade, Foster & Even-Dar (2008), SG with l2 projection and :func:`sg_eta`:
    noiseless :math:`R_T \le 2F_2G_2\sqrt{1/T}`; noisy, with probability 1 - delta,
    :math:`R_T \le 2F_2G_2\left(\sqrt{1/T} + \sqrt{\tfrac8T\log\tfrac1\delta}\right)` (Lemma 5.1 with B = 4 F2 G2)."""
    _pos(T=T, F2=F2, G2=G2)
    return 2.0 * F2 * G2 * (math.sqrt(1.0 / T) + 2.0 * _delta_term(delta, T))


@_checked
def lemma52_bound(eta, T, F2, G2):
    r"""Lemma 5.2 of Kakade, Foster & Even-Dar (2008):
    :math:`\frac1T\sum_t \hat\nabla^t\cdot(w^t - w^*) \le \frac{2F_2^2}{\eta T} + \frac\eta2 G_2^2`
    (D(w^1, w^*) <= (2 F2)^2 for any start in F)."""
    _pos(eta=eta, T=T, F2=F2, G2=G2)
    return 2.0 * F2 ** 2 / (eta * T) + eta * G2 ** 2 / 2.0


@_checked
def smg_eta(T, d, G_inf, F1=1.0, as_printed=False):
    r"""Theorem 2.3 of Kakade, Foster & Even-Dar (2008): the SMG step.

    Derived (default): :math:`\eta = \frac{1}{2G_\infty}\sqrt{\log d / T}`, the minimizer of Lemma 5.3's
    bound :math:`F_1\log d/(T\eta) + 4\eta F_1G_\infty^2`, whose minimum is the theorem's
    :math:`4F_1G_\infty\sqrt{\log d/T}`; T >= 16 log d makes it at most 1/(8 G_inf), Lemma 5.3's condition.
    The note prints :math:`\frac{1}{2F_1G_\infty}\sqrt{\log d/T}` (``as_printed=True``), which agrees only for
    F1 = 1: for other F1 it does not give the stated regret (see the chapter)."""
    _pos(T=T, d=d, G_inf=G_inf, F1=F1)
    eta = math.sqrt(math.log(d) / T) / (2.0 * G_inf)
    return eta / F1 if as_printed else eta


@_checked
def smg_regret_bound(T, d, F1, G_inf, delta=None):
    r"""Theorem 2.3 of Kakade, Foster & Even-Dar (2008), SMG with :func:`smg_eta`, T >= 16 log d:
    noiseless :math:`R_T \le 4F_1G_\infty\sqrt{\log d/T}`; noisy, with probability 1 - delta,
    :math:`R_T \le 4F_1G_\infty\left(\sqrt{\log d/T} + \sqrt{\tfrac2T\log\tfrac1\delta}\right)` (Lemma 5.1 with
    B = 4 F1 G_inf)."""
    _pos(T=T, d=d, F1=F1, G_inf=G_inf)
    if T < 16 * math.log(d):
        raise ValueError(f"Theorem 2.3 needs T >= 16 log d = {16 * math.log(d):.1f}, got T = {T}")
    return 4.0 * F1 * G_inf * (math.sqrt(math.log(d) / T) + _delta_term(delta, T))


@_checked
def lemma53_bound(eta, T, d, F1, G_inf):
    r"""Lemma 5.3 of Kakade, Foster & Even-Dar (2008), for eta <= 1/(8 G_inf) (which keeps SMG feasible):
    :math:`\frac1T\sum_t\hat\nabla^t\cdot(w^t - w^*) \le \frac{F_1\log d}{T\eta} + 4\eta F_1G_\infty^2`."""
    _pos(eta=eta, T=T, d=d, F1=F1, G_inf=G_inf)
    if eta > 1.0 / (8.0 * G_inf) * (1 + 1e-12):
        raise ValueError(f"Lemma 5.3 needs eta <= 1/(8 G_inf) = {1 / (8 * G_inf):.4g}, got {eta}")
    return F1 * math.log(d) / (T * eta) + 4.0 * eta * F1 * G_inf ** 2


@_checked
def smg_max_step(G_inf):
    r"""Lemma 5.3 of Kakade, Foster & Even-Dar (2008): eta <= 1/(8 G_inf) keeps every SMG factor
    1 - eta g_i + eta Z >= 3/4 > 0, so the iterates stay in the simplex (any eta < 1/(2 G_inf) already keeps
    them nonnegative)."""
    _pos(G_inf=G_inf)
    return 1.0 / (8.0 * G_inf)


@_checked
def lemma51_azuma_term(B, T, delta):
    r"""Lemma 5.1 of Kakade, Foster & Even-Dar (2008): with |(grad - noisy grad).(w^t - w)| <= B, with
    probability 1 - delta the regret exceeds the average of the noisy linearized terms by at most
    :math:`B\sqrt{\tfrac2T\log\tfrac1\delta}` (Azuma-Hoeffding)."""
    _pos(T=T)
    if B < 0:
        raise ValueError(f"B must be >= 0, got {B}")
    return B * _delta_term(delta, T)


@_checked
def prop22_inner_product(w, grad, eta, F1):
    r"""Proposition 2.2 of Kakade, Foster & Even-Dar (2008): for the SMG step with an exact gradient,
    :math:`(w^{t+1} - w^t)\cdot\nabla = -\eta F_1\,\mathrm{Var}_{i\sim w/F_1}(\nabla_i) \le 0`.  Returns the
    inner product computed from the update itself; :func:`prop22_variance_form` gives the right-hand side."""
    w = check_array(w, "w")
    g = check_array(grad, "grad", shape=w.shape, like="w")
    Z = float(w @ g) / F1
    w_next = w * (1.0 - eta * g + eta * Z)
    return float((w_next - w) @ g)


@_checked
def prop22_variance_form(w, grad, eta, F1):
    r"""Proposition 2.2 of Kakade, Foster & Even-Dar (2008), right-hand side:
    :math:`-\eta F_1\,(\sum_i p_i\nabla_i^2 - (\sum_i p_i\nabla_i)^2)` with p = w/F1.  It vanishes at a corner
    of the simplex (p a unit vector), the footnote's warning that the step can be arbitrarily small there."""
    w = check_array(w, "w")
    p = w / F1
    g = check_array(grad, "grad", shape=w.shape, like="w")
    return -eta * F1 * float(p @ (g * g) - (p @ g) ** 2)


@_checked
def cor31_bound(T, d, F1, G_inf, delta):
    r"""Corollary 3.1 of Kakade, Foster & Even-Dar (2008): for the average decision
    :math:`\bar w^T = \frac1T\sum_t w^t` of SMG, with probability 1 - delta,
    :math:`c(\bar w^T) \le c(w^*) + 4F_1G_\infty(\sqrt{\log d/T} + \sqrt{\tfrac2T\log\tfrac1\delta})`
    (convexity plus Theorem 2.3); returns the excess over c(w*).  Running on with the same step, almost surely
    :math:`\limsup_\tau c(\bar w^\tau) \le c(w^*) + 4F_1G_\infty\sqrt{\log d/T}` (:func:`cor31_limsup`)."""
    return smg_regret_bound(T, d, F1, G_inf, delta)


@_checked
def cor31_limsup(T, d, F1, G_inf):
    r"""Corollary 3.1 of Kakade, Foster & Even-Dar (2008), the almost-sure statement: with the step of horizon
    T kept forever, :math:`\limsup_\tau c(\bar w^\tau) - c(w^*) \le 4F_1G_\infty\sqrt{\log d/T}`, as the note
    states it.  The proof gives half: as tau grows, Lemma 5.3's first term F1 log d/(tau eta) vanishes and
    the martingale term of Lemma 5.1 goes to 0 almost surely, leaving 4 eta F1 G_inf^2 =
    2 F1 G_inf sqrt(log d/T) at the step of :func:`smg_eta` (the chapter draws both levels)."""
    return smg_regret_bound(T, d, F1, G_inf, None)


@_checked
def cor41_risk_bound(T, d, F1, G_inf, delta):
    r"""Corollary 4.1 of Kakade, Foster & Even-Dar (2008): one pass of SMG over T i.i.d. examples (gradient
    l'(w.x, y) x, ||x||_inf <= 1, |l'| <= G_inf), averaged decision: with probability 1 - delta,
    :math:`\mathrm{risk}(\bar w^T) \le \mathrm{risk}(w^*) + 4F_1G_\infty(\sqrt{\log d/T} +
    \sqrt{\tfrac2T\log\tfrac1\delta})`; returns the excess risk bound."""
    return smg_regret_bound(T, d, F1, G_inf, delta)
