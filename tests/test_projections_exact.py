"""The projections are exact across the floating-point range: for finite inputs from 1e-300 to 1e300, with ties and
zeros, and radii from 1e-300 to 1e300, every method returns the projection computed in exact rational arithmetic
(fractions.Fraction) to 1e-12 of the radius, entry by entry, and ||w||_1 = z to 1e-12 relative.  A naive last step
w_i = |v_i| - theta cancels when theta is large next to z (``project_l1_ball([1e300, -1e300, 1e300], 1)`` used to
return 0); these tests pin the cancellation-free computation (see l1lab.projections.dense)."""
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from l1lab.projections import (
    METHODS,
    SparseL1BallProjector,
    l1_ball_threshold,
    project_l1_ball,
    project_simplex,
    project_weighted_l1_ball,
    simplex_threshold,
)

REL = 1e-12


# ------------------------------------------------------------------------- exact references (rationals)
def exact_simplex(v, z):
    """argmin ||w - v|| over {w >= 0, sum w = z}, z > 0, in rationals: the largest k with
    v_(k) > (sum_{j<=k} v_(j) - z)/k gives theta (Lemma 2 of Duchi et al. 2008)."""
    q = [Fraction(x) for x in v]
    z = Fraction(z)
    srt = sorted(q, reverse=True)
    total, theta = Fraction(0), None
    for k, x in enumerate(srt, start=1):
        total += x
        t = (total - z) / k
        if x > t:
            theta = t
    return [max(x - theta, Fraction(0)) for x in q]


def exact_ball(v, z):
    q = [Fraction(x) for x in v]
    if sum(abs(x) for x in q) <= Fraction(z):
        return q
    if z == 0:
        return [Fraction(0)] * len(q)
    mags = exact_simplex([abs(x) for x in q], z)
    return [m if x >= 0 else -m for m, x in zip(mags, q)]


def exact_weighted_ball(v, a, z):
    """argmin ||w - v|| over {sum a_i |w_i| <= z}: w_i = sign(v_i) max(|v_i| - theta a_i, 0), the prefix in
    decreasing |v_i|/a_i order whose last ratio exceeds theta = (sum a|v| - z)/sum a^2."""
    q = [Fraction(x) for x in v]
    w8 = [Fraction(x) for x in a]
    z = Fraction(z)
    if sum(ai * abs(x) for ai, x in zip(w8, q)) <= z:
        return q
    if z == 0:
        return [Fraction(0)] * len(q)
    order = sorted(range(len(q)), key=lambda i: abs(q[i]) / w8[i], reverse=True)
    s1 = s2 = Fraction(0)
    theta = None
    for i in order:
        s1 += w8[i] * abs(q[i])
        s2 += w8[i] * w8[i]
        t = (s1 - z) / s2
        if abs(q[i]) / w8[i] > t:
            theta = t
    out = []
    for x, ai in zip(q, w8):
        m = max(abs(x) - theta * ai, Fraction(0))
        out.append(m if x >= 0 else -m)
    return out


def assert_close_to_exact(w, exact, z, norm=None):
    """Entry by entry within REL * z, and (if given) the norm within REL * z of z."""
    z = float(z)
    assert w.dtype == np.float64
    err = max(abs(Fraction(float(wi)) - e) for wi, e in zip(w, exact))
    assert err <= Fraction(REL) * Fraction(z), f"error {float(err):.3g} for z = {z:.3g}"
    if norm is not None:
        assert abs(Fraction(norm(w)) - Fraction(z)) <= Fraction(REL) * Fraction(z), (norm(w), z)


# ------------------------------------------------------------------------- strategies: the whole range
def _wide(draw_sign=True):
    mag = st.builds(lambda m, e: m * 10.0 ** e, st.floats(1.0, 9.99), st.integers(-300, 299))
    if draw_sign:
        return st.builds(lambda s, x: s * x, st.sampled_from([1.0, -1.0]), mag)
    return mag


@st.composite
def wide_vectors(draw, min_size=1, max_size=10, signed=True):
    """Entries from 1e-300 to 1e300, with exact zeros and ties (values drawn from a small pool)."""
    pool = draw(st.lists(_wide(signed), min_size=1, max_size=4))
    element = st.one_of(st.sampled_from(pool), st.just(0.0), _wide(signed))
    return np.array(draw(st.lists(element, min_size=min_size, max_size=max_size)), dtype=np.float64)


radii = st.one_of(_wide(False), st.sampled_from([1e-300, 1.0, 1e300]))
l1 = lambda w: float(sum(Fraction(float(x)).__abs__() for x in w))  # noqa: E731  (exact ||w||_1)


# ------------------------------------------------------------------------------------------ the tests
@pytest.mark.parametrize("method", METHODS)
def test_the_cancellation_that_returned_zero(method):
    w = project_l1_ball(np.array([1e300, -1e300, 1e300]), 1.0, method)
    np.testing.assert_allclose(w, [1 / 3, -1 / 3, 1 / 3], rtol=1e-15)
    w = project_l1_ball(np.full(5, 1e-300), 1e-300, method)          # tiny entries, tiny radius
    np.testing.assert_allclose(w, np.full(5, 2e-301), rtol=1e-15)
    w = project_simplex(np.array([1e300, 1e300 * (1 - 2 ** -52), 0.0]), 1.0, method)  # 1 ulp apart >> z
    assert w.tolist() == [1.0, 0.0, 0.0]
    w = project_l1_ball(np.ones(100_000), 1.0, method)                # theta ~ 1: w = 1e-5, no drift
    assert abs(w.sum() - 1.0) <= 1e-14 and np.all(w == w[0])


@settings(max_examples=150, deadline=None)
@given(wide_vectors(), radii)
def test_l1_ball_is_exact_over_the_range(v, z):
    exact = exact_ball(v, z)
    outside = sum(abs(Fraction(x)) for x in v) > Fraction(z)
    for method in METHODS:
        w = project_l1_ball(v, z, method)
        assert_close_to_exact(w, exact, z, norm=l1 if outside else None)
        assert np.all(np.sign(w) * np.sign(v) >= 0)                 # signs kept (Lemma 3)
        if not outside:
            np.testing.assert_array_equal(w, v)
        theta = l1_ball_threshold(v, z, method)
        assert theta >= 0.0


@settings(max_examples=150, deadline=None)
@given(wide_vectors(), radii)
def test_simplex_is_exact_over_the_range(v, z):
    exact = exact_simplex(v, z)
    for method in METHODS:
        w = project_simplex(v, z, method)
        assert np.all(w >= 0)
        assert_close_to_exact(w, exact, z, norm=lambda w: float(sum(Fraction(float(x)) for x in w)))
        # the threshold returned is the exact one, to rounding of its own size and of z
        theta = simplex_threshold(v, z, method)
        exact_theta = max(Fraction(x) - e for x, e in zip(v, exact) if e > 0)
        assert abs(Fraction(theta) - exact_theta) <= Fraction(2.3e-16) * abs(exact_theta) + Fraction(REL) * Fraction(z)


@settings(max_examples=150, deadline=None)
@given(wide_vectors(), radii, st.data())
def test_weighted_ball_is_exact_over_the_range(v, z, data):
    a = np.array(data.draw(st.lists(st.sampled_from([0.125, 0.3, 1.0, 1.7, 8.0, 0.5]), min_size=v.size,
                                    max_size=v.size)))
    exact = exact_weighted_ball(v, a, z)
    w = project_weighted_l1_ball(v, a, z)
    outside = sum(Fraction(ai) * abs(Fraction(x)) for ai, x in zip(a, v)) > Fraction(z)
    wnorm = lambda w: float(sum(Fraction(ai) * abs(Fraction(float(x))) for ai, x in zip(a, w)))  # noqa: E731
    assert_close_to_exact(w, exact, z, norm=wnorm if outside else None)
    assert np.all(np.sign(w) * np.sign(v) >= 0)


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_sparse_tree_is_exact_over_the_range(data):
    """Updates with entries from 1e-300 to 1e300 against the exact projection of (previous iterate + g)."""
    n = data.draw(st.integers(1, 8), label="n")
    z = data.draw(radii, label="z")
    P = SparseL1BallProjector(n, z)
    for _ in range(data.draw(st.integers(1, 5), label="steps")):
        k = data.draw(st.integers(1, n), label="k")
        idx = np.array(data.draw(st.permutations(range(n)), label="idx")[:k], dtype=np.int64)
        g = data.draw(wide_vectors(min_size=k, max_size=k), label="g")
        v = P.to_dense()
        v[idx] += g
        P.update(idx, g)
        w = P.to_dense()
        exact = exact_ball(v, z)
        outside = sum(abs(Fraction(x)) for x in v) > Fraction(z)
        assert_close_to_exact(w, exact, z, norm=l1 if outside else None)
        P.check_invariants()


@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.int32])
def test_float32_and_integer_inputs_are_the_float64_projection_of_the_same_numbers(dtype):
    rng = np.random.default_rng(0)
    v = (rng.standard_normal(50) * 100).astype(dtype)
    a = (rng.uniform(1, 5, 50)).astype(dtype)
    v64, a64 = v.astype(np.float64), a.astype(np.float64)
    for method in METHODS:
        for f, args in ((project_l1_ball, ()), (project_simplex, ())):
            w = f(v, 30.0, method, *args)
            assert w.dtype == np.float64
            np.testing.assert_array_equal(w, f(v64, 30.0, method))
    np.testing.assert_array_equal(project_weighted_l1_ball(v, a, 30.0), project_weighted_l1_ball(v64, a64, 30.0))
