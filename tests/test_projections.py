import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from l1lab.projections import (
    METHODS,
    l1_ball_threshold,
    project_l1_ball,
    project_simplex,
    project_weighted_l1_ball,
    simplex_threshold,
)

finite = st.floats(-1e6, 1e6, allow_nan=False, allow_subnormal=False)
vectors = arrays(np.float64, st.integers(1, 60), elements=finite)
radii = st.floats(0.0, 1e4, allow_subnormal=False)


def check_ball_kkt(v, w, z, theta):
    """Optimality of w = argmin ||w - v|| s.t. ||w||_1 <= z, through its KKT conditions."""
    scale = max(1.0, np.abs(v).max(), z)
    tol = 1e-12 * scale * max(1, v.size)
    if np.abs(v).sum() <= z:
        assert theta == 0.0
        np.testing.assert_array_equal(w, v)
        return
    assert theta >= 0
    np.testing.assert_allclose(w, np.sign(v) * np.maximum(np.abs(v) - theta, 0), atol=tol)
    assert abs(np.abs(w).sum() - z) <= tol
    assert np.all(w * v >= 0)  # Lemma 3: signs are kept
    # variational inequality <v - w, u - w> <= 0 for all u in the ball; the vertices +-z e_i suffice
    r = v - w
    assert z * np.abs(r).max() <= r @ w + tol * max(1.0, np.abs(r).max())


@settings(max_examples=300, deadline=None)
@given(vectors, radii)
def test_l1_ball_projection_is_optimal_and_methods_agree(v, z):
    ws = {}
    for method in METHODS:
        w = project_l1_ball(v, z, method)
        check_ball_kkt(v, w, z, l1_ball_threshold(v, z, method))
        assert w is not v
        ws[method] = w
    scale = max(1.0, np.abs(v).max())
    for method in METHODS:
        np.testing.assert_allclose(ws[method], ws["sort"], atol=1e-12 * scale, rtol=0)


@settings(max_examples=300, deadline=None)
@given(vectors, st.floats(1e-3, 1e4))
def test_simplex_projection_is_optimal(v, z):
    for method in METHODS:
        w = project_simplex(v, z, method)
        theta = simplex_threshold(v, z, method)
        scale = max(1.0, np.abs(v).max(), z)
        assert np.all(w >= 0)
        assert abs(w.sum() - z) <= 1e-12 * scale * v.size
        np.testing.assert_allclose(w, np.maximum(v - theta, 0), atol=1e-12 * scale)
        # KKT: theta >= v_i for every i outside the support
        assert np.all(v[w == 0] <= theta + 1e-12 * scale)


@pytest.mark.parametrize("method", METHODS)
def test_edge_cases(method):
    v = np.array([0.3, -0.2, 0.1])
    w = project_l1_ball(v, 1.0, method)  # inside: a copy, not the input
    assert w is not v and np.array_equal(w, v)
    v_on = np.array([0.5, -0.5])  # exactly on the boundary
    np.testing.assert_array_equal(project_l1_ball(v_on, 1.0, method), v_on)
    assert np.all(project_l1_ball(np.array([3.0, -1.0]), 0.0, method) == 0)  # z = 0
    np.testing.assert_allclose(project_l1_ball(np.array([2.0, 2.0, 2.0]), 1.5, method), [0.5, 0.5, 0.5])  # ties
    np.testing.assert_allclose(project_l1_ball(np.array([-2.0, -2.0]), 1.0, method), [-0.5, -0.5])  # negative
    np.testing.assert_allclose(project_l1_ball(np.array([-7.0]), 2.0, method), [-2.0])  # n = 1
    np.testing.assert_allclose(project_simplex(np.array([-7.0]), 2.0, method), [2.0])
    np.testing.assert_allclose(project_simplex(np.array([-1.0, -1.0]), 1.0, method), [0.5, 0.5])
    np.testing.assert_allclose(project_simplex(np.array([5.0, 0.0, 0.0]), 1.0, method), [1.0, 0.0, 0.0])
    assert np.all(project_simplex(np.array([1.0, 2.0]), 0.0, method) == 0)


@pytest.mark.parametrize("method", METHODS)
def test_errors(method):
    for bad in (np.array([1.0, np.nan]), np.array([np.inf, 0.0])):
        with pytest.raises(ValueError, match="NaN or infinite"):
            project_l1_ball(bad, 1.0, method)
    with pytest.raises(ValueError, match="z must be"):
        project_l1_ball(np.ones(3), -1.0, method)
    with pytest.raises(ValueError, match="empty"):
        project_simplex(np.zeros(0), 1.0, method)
    with pytest.raises(ValueError, match="1-d"):
        project_l1_ball(np.ones((2, 2)), 1.0, method)
    with pytest.raises(ValueError, match="method"):
        project_l1_ball(np.ones(3), 1.0, "bisection")


def test_pivot_result_does_not_depend_on_seed():
    v = np.random.default_rng(0).standard_normal(1000)
    ref = project_l1_ball(v, 5.0, "pivot", seed=0)
    for s in range(1, 5):
        np.testing.assert_array_equal(project_l1_ball(v, 5.0, "pivot", seed=s), ref)


@settings(max_examples=200, deadline=None)
@given(vectors, st.floats(0.0, 1e4), st.integers(0, 2 ** 31))
def test_weighted_projection_kkt(v, z, seed):
    a = np.random.default_rng(seed).uniform(0.1, 10.0, v.size)
    w = project_weighted_l1_ball(v, a, z)
    scale = max(1.0, np.abs(v).max(), z) * 100
    if a @ np.abs(v) <= z:
        np.testing.assert_array_equal(w, v)
        return
    assert abs(a @ np.abs(w) - z) <= 1e-10 * scale * v.size
    # KKT: w = sign(v) max(|v| - theta a, 0) for one theta >= 0
    sup = w != 0
    r = (np.abs(v) - np.abs(w)) / a
    if sup.any():
        theta = r[sup].mean()
        assert theta >= -1e-12
        np.testing.assert_allclose(r[sup], theta, atol=1e-9 * scale)
        assert np.all(np.abs(v[~sup]) / a[~sup] <= theta + 1e-9 * scale)
    # variational inequality over the weighted ball's vertices +-z/a_i e_i
    res = v - w
    assert z * np.max(np.abs(res) / a) <= res @ w + 1e-9 * scale * max(1.0, np.abs(res).max())


def test_weighted_with_unit_weights_is_the_l1_ball():
    v = np.random.default_rng(3).standard_normal(200) * 4
    np.testing.assert_allclose(project_weighted_l1_ball(v, np.ones(200), 7.0), project_l1_ball(v, 7.0), atol=1e-12)
    with pytest.raises(ValueError, match="weights"):
        project_weighted_l1_ball(v, np.zeros(200), 1.0)
    with pytest.raises(ValueError, match="shape"):
        project_weighted_l1_ball(v, np.ones(3), 1.0)


@settings(max_examples=200, deadline=None)
@given(vectors, st.floats(1e-3, 1e4))
def test_lemmas_1_to_3(v, z):
    from l1lab.theory import duchi2008 as dssc

    w = project_simplex(v, z)
    assert dssc.lemma1_violation(v, w) == 0.0
    scale = max(1.0, np.abs(v).max(), z)
    # (entries at rounding level may go either way between the two computations)
    assert np.count_nonzero(w > 1e-12 * scale) <= dssc.simplex_support_size(v, z)
    assert abs(dssc.simplex_theta(v, z) - simplex_threshold(v, z)) <= 1e-12 * scale * v.size
    assert dssc.lemma3_violation(v, project_l1_ball(v, z)) == 0.0
    # the checks can fail: a sign-flipped or non-prefix vector is caught
    if np.any(v != 0):
        assert dssc.lemma3_violation(v, -v) > 0


def test_lemma1_detects_a_non_prefix_support():
    from l1lab.theory import duchi2008 as dssc

    assert dssc.lemma1_violation(np.array([3.0, 2.0, 1.0]), np.array([0.0, 0.5, 0.5])) == 0.5


# ---- long vectors: Condat's method first keeps the entries above a certified lower bound of theta --------------
_N = 1 << 17   # above l1lab.projections.dense._PREFILTER_N


def _long_cases():
    rng = np.random.default_rng(17)
    g = rng.standard_normal(_N)
    ties = rng.integers(-5, 6, size=_N).astype(float)
    # the strided sample sees only large entries: its bound is too high, the certificate fails
    fooled = np.full(_N, 0.1)
    fooled[::_N // 4096] = 10.0
    # large entries the sample does not see: the bound is low, the certificate holds with many entries kept
    hidden = rng.uniform(0, 1e-3, size=_N)
    hidden[1::97] = 5.0
    cases = [(g, np.abs(g).sum() * f) for f in (1e-4, 0.01, 0.3, 0.9, 0.999)]
    cases += [(ties, np.abs(ties).sum() * f) for f in (1e-3, 0.2, 0.7)]
    cases += [(fooled, 1000.0), (hidden, 50.0), (g * 1e250, 1e248), (g * 1e-250, 1e-253)]
    return cases


@pytest.mark.parametrize("case", range(12))
def test_long_vectors_condat_with_the_certified_bound_agrees_with_sort(case):
    from l1lab.projections import dense

    assert _N >= dense._PREFILTER_N
    v, z = _long_cases()[case]
    w = project_l1_ball(v, z, "condat")
    ref = project_l1_ball(v, z, "sort")
    np.testing.assert_allclose(w, ref, atol=1e-12 * z, rtol=0)
    assert abs(np.abs(w).sum() - z) <= 1e-12 * z
    check_ball_kkt(v / z, w / z, 1.0, l1_ball_threshold(v, z, "condat") / z)
    # the simplex of the same entries (negative ones included)
    ws, wsort = project_simplex(v, z, "condat"), project_simplex(v, z, "sort")
    np.testing.assert_allclose(ws, wsort, atol=1e-12 * max(z, np.abs(v).max()), rtol=0)


def test_the_bound_is_certified_or_not_used():
    """The prefilter keeps a superset of the support when its certificate holds, and declines when it fails."""
    from l1lab.projections import dense

    used = 0
    for v, z in _long_cases():
        u = np.abs(v)
        kept = dense._prefiltered(u, z)
        theta = dense._threshold_sort(u, z)
        if kept is None:
            continue
        used += 1
        assert np.count_nonzero(u > theta) <= kept.size          # the support is among the kept entries
        assert kept.min() <= u[u > theta].min()
    assert used >= 8
    fooled = np.full(_N, 0.1)
    fooled[::_N // 4096] = 10.0
    assert dense._prefiltered(fooled, 1000.0) is None              # the sample's bound is above theta
    rng = np.random.default_rng(3)
    assert dense._prefiltered(np.abs(rng.standard_normal(_N)), 100.0).size < _N // 10


@pytest.mark.parametrize("levels", [1, 3, 10])
def test_pivot_on_tied_entries(levels):
    """Entries tied at a few values (a pivot above theta removes all its copies at once): the pivot's theta is
    the sort's, and the projection satisfies the optimality conditions, at every radius between two levels."""
    rng = np.random.default_rng(levels)
    v = rng.integers(1, levels + 1, 60_000).astype(np.float64) * rng.choice([-1.0, 1.0], 60_000)
    u = np.abs(v)
    for z in (0.5, u.sum() / 3, u.sum() - 0.5, float(np.sum(u == u.max())) * 0.7):
        t_pivot = l1_ball_threshold(v, z, "pivot", seed=3)
        t_sort = l1_ball_threshold(v, z, "sort")
        assert t_pivot == pytest.approx(t_sort, rel=1e-12, abs=1e-12)
        check_ball_kkt(v, project_l1_ball(v, z, "pivot", seed=3), z, t_pivot)
