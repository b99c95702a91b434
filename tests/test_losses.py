import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from l1lab import losses
from l1lab.losses import get_loss, hinge, logistic, soft_threshold, squared

A = np.linspace(-60, 60, 240_001)


def _labels(loss):
    return [-1.0, 1.0] if loss.classification else [-3.0, -0.5, 0.0, 0.7, 2.0]


@pytest.mark.parametrize("loss", [squared, logistic, hinge])
def test_derivative_matches_finite_differences(loss):
    for y in _labels(loss):
        a = np.linspace(-8, 8, 1601)
        if not loss.smooth:
            a = a[np.abs(y * a - 1) > 1e-3]
        h = 1e-6
        fd = (loss.value(a + h, y) - loss.value(a - h, y)) / (2 * h)
        np.testing.assert_allclose(loss.deriv(a, y), fd, atol=1e-6)
        if loss.smooth:
            fd2 = (loss.deriv(a + h, y) - loss.deriv(a - h, y)) / (2 * h)
            np.testing.assert_allclose(loss.second(a, y), fd2, atol=1e-5)


def test_logistic_is_stable_for_huge_margins():
    a = np.array([-1e4, -800.0, 0.0, 800.0, 1e4])
    v = logistic.value(a, 1.0)
    assert np.all(np.isfinite(v))
    np.testing.assert_allclose(v, [1e4, 800.0, math.log(2), 0.0, 0.0], atol=1e-12)
    np.testing.assert_allclose(logistic.deriv(a, 1.0), [-1.0, -1.0, -0.5, 0.0, 0.0], atol=1e-12)


@pytest.mark.parametrize("loss", [squared, logistic])
def test_beta_bounds_second_derivative(loss):
    """eq. (7): L'' <= beta everywhere (grid), and beta is attained (tight)."""
    worst = max(loss.second(A, y).max() for y in _labels(loss))
    assert worst <= loss.beta * (1 + 1e-12)
    assert worst >= loss.beta * (1 - 1e-6)


@pytest.mark.parametrize("loss", [logistic, hinge])
def test_rho_condition_13(loss):
    """(13): |L'| <= rho."""
    worst = max(np.abs(loss.deriv(A, y)).max() for y in _labels(loss))
    assert worst <= loss.rho_lipschitz
    assert worst >= 0.999 * loss.rho_lipschitz


def test_squared_violates_13_and_hinge_violates_14():
    assert squared.rho_lipschitz == math.inf and np.abs(squared.deriv(A, 0.0)).max() > 50
    assert hinge.rho_self_bounded == math.inf
    a = 1 - np.logspace(-12, -1, 50)  # y a -> 1 from below: L'^2 = 1 while L -> 0
    ratio = hinge.deriv(a, 1.0) ** 2 / hinge.value(a, 1.0)
    assert ratio.max() > 1e11


@pytest.mark.parametrize("loss", [squared, logistic])
def test_rho_condition_14(loss):
    """(14): L'^2 <= rho L, on a grid and by random search."""
    rng = np.random.default_rng(0)
    for y in _labels(loss):
        for a in (A, rng.uniform(-30, 30, 200_000)):
            L = loss.value(a, y)
            d2 = loss.deriv(a, y) ** 2
            assert np.all(d2 <= loss.rho_self_bounded * L * (1 + 1e-12) + 1e-300)


def test_squared_rho_is_2_not_the_papers_4():
    """The paper's rho = 4 is the constant of (a - y)^2; for (a - y)^2/2 the tight constant is 2."""
    a = np.linspace(-5, 5, 1001)
    a = a[np.abs(a - 0.3) > 1e-6]
    ratio_halved = squared.deriv(a, 0.3) ** 2 / squared.value(a, 0.3)
    np.testing.assert_allclose(ratio_halved, 2.0, rtol=1e-12)
    unhalved_value, unhalved_deriv = (a - 0.3) ** 2, 2 * (a - 0.3)
    np.testing.assert_allclose(unhalved_deriv ** 2 / unhalved_value, 4.0, rtol=1e-12)


def test_logistic_rho_14_tight_value():
    ratio = logistic.deriv(A, 1.0) ** 2 / logistic.value(A, 1.0)
    assert 0.4072 < ratio.max() < 0.4073 < logistic.rho_self_bounded


def test_get_loss():
    assert get_loss("logistic") is logistic
    assert get_loss(squared) is squared
    with pytest.raises(ValueError, match="unknown loss"):
        get_loss("absolute")


@settings(max_examples=200, deadline=None)
@given(st.floats(-1e3, 1e3), st.floats(0, 1e2))
def test_soft_threshold_is_the_prox_of_tau_abs(w, tau):
    """s_tau(w) = argmin_u (u - w)^2/2 + tau |u|: no perturbation does better."""
    u = float(soft_threshold(w, tau))

    def f(v):
        return 0.5 * (v - w) ** 2 + tau * abs(v)

    for eps in (1e-6, 1e-3, 1.0):
        assert f(u) <= f(u + eps) + 1e-9 and f(u) <= f(u - eps) + 1e-9
    assert f(u) <= f(0.0) + 1e-9


def test_soft_threshold_rejects_negative_tau():
    with pytest.raises(ValueError, match="tau"):
        soft_threshold(1.0, -0.1)


def test_numba_scalar_functions_agree_with_methods():
    from numba import njit

    @njit
    def f(code, a, y):
        return losses.loss_value(code, a, y), losses.loss_deriv(code, a, y)

    for loss in (squared, logistic, hinge):
        v, d = f(loss.code, 0.3, 1.0)
        assert v == loss.value(0.3, 1.0) and d == loss.deriv(0.3, 1.0)
