import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from l1lab.links import dual_exponent, link, link_inverse, smidas_p


def naive_inverse(theta, p):
    return np.sign(theta) * np.abs(theta) ** (p - 1) / np.linalg.norm(theta, p) ** (p - 2)


def test_matches_the_formula_where_the_naive_one_is_safe():
    rng = np.random.default_rng(0)
    theta = rng.standard_normal(50)
    for p in (2.0, 3.5, 9.2, 28.0):
        np.testing.assert_allclose(link_inverse(theta, p), naive_inverse(theta, p), rtol=1e-13)
        q = dual_exponent(p)
        w = rng.standard_normal(50)
        naive = np.sign(w) * np.abs(w) ** (q - 1) / np.linalg.norm(w, q) ** (q - 2)
        np.testing.assert_allclose(link(w, p), naive, rtol=1e-13)


def test_p2_is_the_identity():
    x = np.array([3.0, -1e-200, 0.0, 7e150])
    np.testing.assert_allclose(link_inverse(x, 2.0), x, rtol=1e-13)


def test_is_the_gradient_of_half_squared_norm():
    rng = np.random.default_rng(1)
    theta = rng.standard_normal(8)
    p = 6.0
    g = link_inverse(theta, p)
    h = 1e-6
    for j in range(8):
        e = np.zeros(8)
        e[j] = h
        fd = (0.5 * np.linalg.norm(theta + e, p) ** 2 - 0.5 * np.linalg.norm(theta - e, p) ** 2) / (2 * h)
        assert g[j] == pytest.approx(fd, rel=1e-6)


def test_zero_maps_to_zero():
    assert np.all(link_inverse(np.zeros(5), 28.0) == 0)
    assert np.all(link(np.zeros(5), 28.0) == 0)


def test_stable_at_a_million_dims_with_extreme_entries():
    """p = 2 ln(1e6) ~ 27.6; entries spanning 1e-300 .. 1e300 must neither overflow nor lose the round trip."""
    d = 10 ** 6
    p = smidas_p(d)
    rng = np.random.default_rng(2)
    w = rng.choice([-1.0, 1.0], d) * 10.0 ** rng.uniform(-300, 300, d)
    w[rng.random(d) < 0.5] = 0.0
    theta = link(w, p)
    assert np.all(np.isfinite(theta))
    back = link_inverse(theta, p)
    assert np.all(np.isfinite(back))
    big = np.abs(w) > 1e-250 * np.abs(w).max()  # entries representable after the round trip
    np.testing.assert_allclose(back[big], w[big], rtol=1e-12)
    assert np.all(back[w == 0] == 0) and np.all(np.sign(back) == np.sign(w))


@settings(max_examples=200, deadline=None)
@given(arrays(np.float64, st.integers(1, 40),
              elements=st.floats(-1e200, 1e200, allow_nan=False, allow_subnormal=False)),
       st.floats(2.0, 40.0))
def test_round_trip_property(w, p):
    back = link_inverse(link(w, p), p)
    M = np.abs(w).max()
    keep = np.abs(w) > 1e-200 * M
    np.testing.assert_allclose(back[keep], w[keep], rtol=1e-12)
    assert np.all(np.abs(back[~keep]) <= 1e-150 * max(M, 1e-300))


def test_smidas_p_and_errors():
    assert smidas_p(1000) == pytest.approx(2 * math.log(1000))
    assert smidas_p(1000, rounded=True) == 14.0
    assert smidas_p(2) == 2.0
    with pytest.raises(ValueError):
        smidas_p(0)
    with pytest.raises(ValueError, match="exponent"):
        link_inverse(np.ones(3), 1.0)
    with pytest.raises(ValueError, match="NaN"):
        link_inverse(np.array([1.0, np.nan]), 3.0)
    with pytest.raises(ValueError, match="1-d"):
        link(np.ones((2, 2)), 3.0)
    with pytest.raises(ValueError, match=">= 2"):
        link(np.ones(2), 1.5)
    assert dual_exponent(2.0) == 2.0
    with pytest.raises(ValueError):
        dual_exponent(1.0)
