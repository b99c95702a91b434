"""SparseL1BallProjector (Section 6 / Figure 3 of Duchi et al. 2008): every sparse update must give exactly the
dense projection of (previous iterate + g), and the AVL tree behind it must stay a valid, balanced, correctly
aggregated search tree."""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from l1lab.projections import l1_ball_threshold, project_l1_ball
from l1lab.projections.sparse import SparseL1BallProjector, _rebase

TOL = 1e-12


def step_and_compare(P, idx, vals, check_tree=True):
    """One update, checked against the dense projection of to_dense() + g; returns the dense result."""
    idx = np.asarray(idx, dtype=np.int64)
    vals = np.asarray(vals, dtype=np.float64)
    v = P.to_dense()
    v[idx] += vals
    ref = project_l1_ball(v, P.z, method="sort")
    theta = P.update(idx, vals)
    w = P.to_dense()
    scale = max(float(np.abs(v).max()), P.z, np.finfo(float).tiny)
    np.testing.assert_allclose(w, ref, rtol=0, atol=TOL * scale)
    # the theta returned is the projection's threshold
    assert theta >= 0.0
    assert abs(theta - l1_ball_threshold(v, P.z, method="sort")) <= TOL * scale
    # signs are kept, the norm bookkeeping is right, and the iterate is in the ball
    assert np.all(w * v >= 0)
    l1 = P.l1_norm
    assert abs(l1 - np.abs(w).sum()) <= TOL * scale * max(1, P.nnz)
    assert l1 <= P.z + TOL * scale * max(1, P.nnz)
    if theta > 0:
        assert abs(l1 - P.z) <= TOL * scale * max(1, P.nnz)
    # the other read accessors agree with to_dense
    nz = np.flatnonzero(w)
    assert P.nnz == nz.size
    np.testing.assert_array_equal(P.support(), nz)
    for j in idx[:5]:
        assert P.get(int(j)) == w[j]
    if check_tree:
        P.check_invariants()
    return w


# --------------------------------------------------------------------------------------- property tests
values = st.one_of(
    st.integers(-3, 3).map(float),  # ties and exact zeros (coordinates cancelling to 0)
    st.floats(-1e3, 1e3, allow_nan=False, allow_subnormal=False),
    st.sampled_from([1e9, -1e9, 1e-9, 0.5, -0.5]),
)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_random_update_sequences_match_dense_projection(data):
    n = data.draw(st.integers(1, 30), label="n")
    z = data.draw(st.one_of(st.sampled_from([0.0, 1e-3, 0.5, 1.0, 3.0, 100.0]),
                            st.floats(0.0, 1e4, allow_subnormal=False)), label="z")
    P = SparseL1BallProjector(n, z, capacity=data.draw(st.integers(1, 4), label="capacity"))
    for _ in range(data.draw(st.integers(1, 25), label="steps")):
        idx = data.draw(st.lists(st.integers(0, n - 1), unique=True, max_size=min(n, 8)), label="idx")
        vals = data.draw(st.lists(values, min_size=len(idx), max_size=len(idx)), label="vals")
        step_and_compare(P, idx, vals)


@pytest.mark.parametrize("n, k, z, scale, steps", [
    (1, 1, 1.0, 1.0, 2000),          # one coordinate
    (20, 20, 2.0, 1.0, 2000),        # dense updates (k = n)
    (50, 5, 1.0, 1.0, 3000),
    (300, 30, 10.0, 0.3, 3000),      # many small entries in the support
    (1000, 20, 1e-6, 1.0, 2000),     # tiny ball: support of one or two entries
    (200, 10, 5.0, 1e6, 2000),       # large values
    (100, 10, 1e4, 1e-3, 2000),      # the ball is never reached: theta = 0 throughout
    (100, 10, 0.0, 1.0, 1000),       # z = 0: w = 0 after every update
    (2000, 100, 50.0, 1.0, 1000),
])
def test_long_runs_match_dense_projection(n, k, z, scale, steps):
    rng = np.random.default_rng(n + k)
    P = SparseL1BallProjector(n, z)
    for t in range(steps):
        idx = rng.choice(n, size=k, replace=False)
        vals = scale * rng.standard_normal(k)
        if t % 3 == 0:  # integer values: ties among magnitudes, and coordinates cancelling to exactly 0
            vals = np.round(vals / scale) * scale
        w = step_and_compare(P, idx, vals, check_tree=(t % 97 == 0))
        if z == 0.0:
            assert not w.any() and P.nnz == 0
    P.check_invariants()


def test_ties_and_zeros_exactly():
    P = SparseL1BallProjector(6, 3.0)
    # four equal magnitudes 1: theta = 1/4
    step_and_compare(P, [0, 1, 2, 3], [1.0, -1.0, 1.0, -1.0])
    np.testing.assert_array_equal(P.to_dense(), [0.75, -0.75, 0.75, -0.75, 0, 0])
    # cancel coordinate 1 exactly, add zeros
    step_and_compare(P, [1, 4, 5], [0.75, 0.0, 0.0])
    assert P.get(1) == 0.0 and P.nnz == 3
    # a value that ties with the threshold is removed
    step_and_compare(P, [4], [1.0])
    step_and_compare(P, [0, 2, 3, 4, 5], [5.0, 5.0, -5.0, 2.0, -2.0])


def test_theta_and_norm_bookkeeping():
    P = SparseL1BallProjector(10, 1.0)
    assert P.update([2, 7], [0.75, -0.5]) == 0.125
    assert P.l1_norm == 1.0 and P.nnz == 2
    assert P.update([3], [0.0]) == 0.0  # already on the sphere; a zero entry changes nothing
    assert P.update([], []) == 0.0
    assert P.update([7, 3], [0.375, 0.25]) == 0.0  # w_7 -> 0, w_3 = 0.25: inside
    assert P.nnz == 2 and P.l1_norm == 0.875
    np.testing.assert_array_equal(P.support(), [2, 3])


def test_z_zero_always_gives_zero():
    P = SparseL1BallProjector(5, 0)
    assert P.update([1, 3], [2.0, -5.0]) == 5.0
    assert P.nnz == 0 and P.l1_norm == 0.0 and not P.to_dense().any()
    assert P.update([0], [0.0]) == 0.0
    P.check_invariants()


# ------------------------------------------------------------------------------------ tree invariants
def test_avl_stays_balanced_under_sorted_insertions():
    """Inserting increasing (then decreasing) magnitudes one by one is the worst case for an unbalanced
    tree; the AVL height bound 1.44 log2(nnz + 2) is asserted by check_invariants."""
    n = 4096
    P = SparseL1BallProjector(n, 1e300, capacity=1)
    for j in range(n // 2):
        P.update([j], [1.0 + j])
        if j % 257 == 0:
            P.check_invariants()
    for j in range(n // 2, n):
        P.update([j], [-(1.0 + n - j)])
    P.check_invariants()
    assert P.nnz == n
    assert P._I[P._st[0], 3] <= 1.4405 * math.log2(n + 2)
    # deleting in key order (the prune path) keeps it balanced too
    P2 = SparseL1BallProjector(n, 1e300)
    P2.update(np.arange(n), np.arange(1.0, n + 1.0))
    for j in range(0, n, 16):
        P2.update(np.arange(j, j + 16), -np.arange(j + 1.0, j + 17.0))
        if j % 1024 == 0:
            P2.check_invariants()
    assert P2.nnz == 0 and P2.l1_norm == 0.0


def test_projection_prunes_many_entries_at_once():
    n = 3000
    P = SparseL1BallProjector(n, 1e300)
    rng = np.random.default_rng(0)
    P.update(np.arange(n), rng.standard_normal(n))
    P._z = 5.0  # shrink the ball (white box): the next update prunes ~all entries in one go
    step_and_compare(P, [0], [0.0])
    assert P.nnz < 100


def test_rebase_keeps_errors_at_rounding_level():
    """Without rebasing, the lazy shift Theta grows with the run and magnitudes lose ~eps * Theta; the
    rebase keeps the error at a few ulps of the scale."""
    def worst_error(rebase_ratio):
        rng = np.random.default_rng(7)
        P = SparseL1BallProjector(50, 1.0, rebase_ratio=rebase_ratio)
        worst = 0.0
        for _ in range(5000):
            idx = rng.choice(50, 5, replace=False)
            vals = rng.standard_normal(5)
            v = P.to_dense()
            v[idx] += vals
            ref = project_l1_ball(v, 1.0, method="sort")
            P.update(idx, vals)
            worst = max(worst, float(np.abs(P.to_dense() - ref).max() / max(np.abs(v).max(), 1.0)))
        P.check_invariants()
        return worst, P

    err, P = worst_error(4.0)
    assert P.n_rebases > 100
    assert err < 1e-14
    err_lazy, P_lazy = worst_error(1e300)
    assert P_lazy.n_rebases == 0 and P_lazy.theta_total > 1000
    assert err_lazy > 10 * err  # (the shift alone costs ~1e-12 after 5000 steps)


def test_rebase_preserves_values_and_restores_tie_order():
    # keys 2^53 + 4 (coordinate 1) and 2^53 + 6 (coordinate 0) both round to 2^53 + 4 when Theta = 1 is
    # subtracted; the rebase must then order the tie by coordinate index
    big = 2.0 ** 53
    P = SparseL1BallProjector(3, 1e300)
    P.update([0, 1, 2], [big + 6, -(big + 4), 3.0])
    P._shift[0] = 1.0  # white box: pretend the keys carry a shift Theta = 1
    before = P.to_dense()
    assert before[0] == -before[1]
    _rebase(P._I, P._F, P._node_of, P._st, P._shift[0])
    P._shift[0] = 0.0
    np.testing.assert_array_equal(P.to_dense(), before)
    P.check_invariants()
    # and on a random state: the values are bitwise unchanged
    rng = np.random.default_rng(3)
    P = SparseL1BallProjector(500, 20.0, rebase_ratio=1e300)
    for _ in range(300):
        P.update(rng.choice(500, 20, replace=False), rng.standard_normal(20))
    assert P.theta_total > 0
    before = P.to_dense()
    _rebase(P._I, P._F, P._node_of, P._st, P._shift[0])
    P._shift[0] = 0.0
    np.testing.assert_array_equal(P.to_dense(), before)
    P.check_invariants()


def test_huge_dimension_is_never_scanned():
    """n = 10^8: the per-coordinate map is allocated lazily and the tree only holds the nonzeros."""
    n = 10 ** 8
    P = SparseL1BallProjector(n, 3.0)
    rng = np.random.default_rng(0)
    for _ in range(300):
        P.update(rng.integers(0, n, size=50, dtype=np.int64), rng.standard_normal(50))  # (repeats are
        # astronomically unlikely)
    assert P.nnz < 400 and P._I.shape[0] - 1 <= 1024
    assert abs(P.l1_norm - 3.0) <= 1e-12 * max(1, P.nnz)
    P.check_invariants()


def test_capacity_grows():
    P = SparseL1BallProjector(100, 1e9, capacity=1)
    P.update(np.arange(100), np.ones(100))
    assert P.nnz == 100 and P._I.shape[0] - 1 == 100
    P.check_invariants()


# ------------------------------------------------------------------------------------------- errors
@pytest.mark.parametrize("n", [0, -3, 2.5, True, "7", 2 ** 31])
def test_bad_dimension(n):
    with pytest.raises((ValueError, TypeError), match="dimension n"):
        SparseL1BallProjector(n, 1.0)


@pytest.mark.parametrize("z", [-1.0, float("nan"), float("inf"), "abc", None])
def test_bad_radius(z):
    with pytest.raises((ValueError, TypeError), match="radius z"):
        SparseL1BallProjector(10, z)


@pytest.mark.parametrize("indices, vals, msg", [
    ([10], [1.0], r"\[0, n\)"),
    ([-1], [1.0], r"\[0, n\)"),
    ([1, 2, 1], [1.0, 2.0, 3.0], "distinct"),
    ([1.0], [1.0], "integers"),
    ([True], [1.0], "integers"),
    ([[1, 2]], [[1.0, 2.0]], "1-d"),
    ([1, 2], [1.0], "shape"),
    ([1], [float("nan")], "finite"),
    ([1], [float("-inf")], "finite"),
])
def test_bad_updates_fail_early_and_change_nothing(indices, vals, msg):
    P = SparseL1BallProjector(10, 1.0)
    P.update([3, 4], [0.5, -2.0])
    before = P.to_dense()
    with pytest.raises(ValueError, match=msg):
        P.update(indices, vals)
    np.testing.assert_array_equal(P.to_dense(), before)
    P.check_invariants()


@pytest.mark.parametrize("j", [10, -1, 1.5, True])
def test_bad_get(j):
    with pytest.raises(ValueError, match="coordinate j"):
        SparseL1BallProjector(10, 1.0).get(j)
