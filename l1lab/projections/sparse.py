r"""Projection onto the l1 ball after a sparse update, in O(k log n) time (Section 6 and Figure 3 of Duchi,
Shalev-Shwartz, Singer & Chandra 2008).

Projected (sub)gradient methods on a high-dimensional, sparse problem repeat

.. math::  w \leftarrow \Pi_{B_z}(w + g), \qquad B_z = \{w : \|w\|_1 \le z\},

with a gradient step g that has only k nonzero entries, k << n.  Adding g costs O(k), but the dense projections
of :mod:`l1lab.projections.dense` cost O(n).  The paper's remedy, generalized here from the simplex to the (signed)
l1 ball:

* **A lazy global shift.**  The projection subtracts the same theta from every nonzero magnitude
  (:math:`w_i = \mathrm{sign}(v_i)\max(|v_i| - \theta, 0)`).  Instead of touching every entry we store
  ``key_j = |w_j| + Theta`` where ``Theta`` is the sum of all the thetas applied so far; the true magnitude is
  ``key_j - Theta``, and "subtract theta from everything" is ``Theta += theta``, O(1).
* **A balanced search tree of the nonzeros.**  The keys of the nonzero coordinates live in a balanced binary
  search tree ordered by (key, coordinate index); every node also holds the number and the sum of the keys in its
  subtree.  Zeros are not stored; signs are stored per node.  Here the tree is an AVL tree (height at most
  1.44 log2(nnz + 2)) in preallocated arrays, with the hot operations compiled by numba.
* **The threshold by one descent (Figure 3).**  The r-th largest magnitude u_(r) is in the support of the
  projection iff :math:`\sum_{i \le r} u_{(i)} - r\,u_{(r)} < z`, and this quantity is the same for keys and for
  true magnitudes (the shift cancels).  Descending from the root while accumulating the count p and key sum s of
  everything larger than the current subtree, a node x is in the support iff
  ``s + sum(right(x)) + key(x) - (p + count(right(x)) + 1) key(x) < z``: if it is, remember (p, s) with x and its
  right subtree added, and go left; else go right.  At the leaf, :math:`\theta = (s^* - p^*\Theta - z)/p^*`,
  O(log n).
* **Pruning.**  After ``Theta += theta`` every node whose key is <= Theta is now zero and is removed by repeated
  deletions of the minimum.  Each node is removed at most once per insertion, so this costs amortized
  O(log n) per inserted coordinate.

One update ``w <- Proj(w + g)`` with a k-sparse g therefore takes O(k log n) amortized: k deletions and
re-insertions (the coordinates of g), one descent, and amortized k deletions, and never touches the other
coordinates.  The memory is O(nnz) for the tree plus one int32 per coordinate (its node, allocated zeroed and
so not touched until used).

**Rounding.**  With the lazy shift, a magnitude is known only to about eps * (Theta + |w_j|) in absolute terms,
and Theta grows without bound in a long run.  So whenever Theta exceeds a few times the largest magnitude the
keys are *rebased* (``key -= Theta; Theta = 0``, exactly the magnitudes :meth:`to_dense` reports, then the
subtree sums are recomputed), an O(nnz) pass that is only done after at least nnz coordinates were touched
since the previous one, so it adds amortized O(1) per touched coordinate.  This keeps every result within a
few ulps of (the largest magnitude) x (a small factor) of the dense projection of the same vector.

**Far outside the ball.**  An update that brings an entry above 4z (say 1e300 with z = 1) would make every key
huge and the threshold cancel against them.  Every stored magnitude is at most z (the previous iterate is in the
ball) and the projection keeps only entries within z of the largest, so such an update empties the tree and takes
the keys relative to that entry (Theta = -its magnitude): the threshold and the magnitudes are then differences of
the size of z, exact to rounding of z (tested against rational arithmetic from 1e-300 to 1e300).  A new entry below
the rounding of Theta is not dropped: the keys are rebased first.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from .._validate import check_array, check_count, check_index_array, check_positive, check_real

__all__ = ["SparseL1BallProjector"]

# columns of the int32 node table I (row 0 is the null sentinel: height 0, count 0)
_L, _R, _P, _H, _C, _J, _SG = 0, 1, 2, 3, 4, 5, 6
_NI = 8  # (one spare column: rows of 32 bytes)
# columns of the float64 node table F
_K, _S = 0, 1  # key = |w_j| + Theta, sum of the keys of the subtree
# entries of the int64 state vector
_ROOT, _NFREE, _TOUCHED, _REBASES = 0, 1, 2, 3
#: an update with an entry above _ANCHOR z re-anchors the keys at that entry (see _update); any value > 2 works
_ANCHOR = 4.0

_STACK = 128  # AVL height <= 1.44 log2(2^31) < 46: a fixed stack is enough for in-order walks


# ---------------------------------------------------------------------------------------- tree kernels
@njit(cache=True)
def _pull(I, F, x):
    """Recompute height, count and key sum of node x from its children."""
    l = I[x, _L]
    r = I[x, _R]
    hl = I[l, _H]
    hr = I[r, _H]
    I[x, _H] = (hl if hl > hr else hr) + 1
    I[x, _C] = I[l, _C] + I[r, _C] + 1
    F[x, _S] = F[l, _S] + F[x, _K] + F[r, _S]


@njit(cache=True)
def _rotate_left(I, F, st, x):
    y = np.int64(I[x, _R])
    b = I[y, _L]
    p = I[x, _P]
    I[x, _R] = b
    if b != 0:
        I[b, _P] = x
    I[y, _L] = x
    I[x, _P] = y
    I[y, _P] = p
    if p == 0:
        st[_ROOT] = y
    elif I[p, _L] == x:
        I[p, _L] = y
    else:
        I[p, _R] = y
    _pull(I, F, x)
    _pull(I, F, y)
    return y


@njit(cache=True)
def _rotate_right(I, F, st, x):
    y = np.int64(I[x, _L])
    b = I[y, _R]
    p = I[x, _P]
    I[x, _L] = b
    if b != 0:
        I[b, _P] = x
    I[y, _R] = x
    I[x, _P] = y
    I[y, _P] = p
    if p == 0:
        st[_ROOT] = y
    elif I[p, _L] == x:
        I[p, _L] = y
    else:
        I[p, _R] = y
    _pull(I, F, x)
    _pull(I, F, y)
    return y


@njit(cache=True)
def _fix_up(I, F, st, x):
    """Walk from x to the root, restoring the AVL balance and the subtree counts and sums."""
    while x != 0:
        l = np.int64(I[x, _L])
        r = np.int64(I[x, _R])
        bal = I[l, _H] - I[r, _H]
        if bal > 1:
            if I[I[l, _L], _H] < I[I[l, _R], _H]:
                _rotate_left(I, F, st, l)
            x = _rotate_right(I, F, st, x)
        elif bal < -1:
            if I[I[r, _R], _H] < I[I[r, _L], _H]:
                _rotate_right(I, F, st, r)
            x = _rotate_left(I, F, st, x)
        else:
            _pull(I, F, x)
        x = I[x, _P]


@njit(cache=True)
def _insert(I, F, free, st, key, j, sg):
    """Insert coordinate j with key and sign sg; returns its node."""
    nf = st[_NFREE] - 1
    x = np.int64(free[nf])
    st[_NFREE] = nf
    I[x, _L] = 0
    I[x, _R] = 0
    I[x, _H] = 1
    I[x, _C] = 1
    I[x, _J] = j
    I[x, _SG] = sg
    F[x, _K] = key
    F[x, _S] = key
    y = st[_ROOT]
    if y == 0:
        I[x, _P] = 0
        st[_ROOT] = x
        return x
    while True:
        ky = F[y, _K]
        if key < ky or (key == ky and j < I[y, _J]):
            c = I[y, _L]
            if c == 0:
                I[y, _L] = x
                break
        else:
            c = I[y, _R]
            if c == 0:
                I[y, _R] = x
                break
        y = c
    I[x, _P] = y
    _fix_up(I, F, st, y)
    return x


@njit(cache=True)
def _delete(I, F, node_of, free, st, x):
    """Remove node x from the tree (the caller has already cleared node_of of x's coordinate)."""
    if I[x, _L] != 0 and I[x, _R] != 0:
        # move the in-order successor's payload into x, then unlink the successor instead
        s = np.int64(I[x, _R])
        while I[s, _L] != 0:
            s = np.int64(I[s, _L])
        F[x, _K] = F[s, _K]
        I[x, _J] = I[s, _J]
        I[x, _SG] = I[s, _SG]
        node_of[I[x, _J]] = x
        x = s
    c = I[x, _L] if I[x, _L] != 0 else I[x, _R]
    p = np.int64(I[x, _P])
    if c != 0:
        I[c, _P] = p
    if p == 0:
        st[_ROOT] = c
    elif I[p, _L] == x:
        I[p, _L] = c
    else:
        I[p, _R] = c
    free[st[_NFREE]] = x
    st[_NFREE] += 1
    _fix_up(I, F, st, p)


@njit(cache=True)
def _leftmost(I, x):
    x = np.int64(x)
    while I[x, _L] != 0:
        x = np.int64(I[x, _L])
    return x


@njit(cache=True)
def _rightmost(I, x):
    x = np.int64(x)
    while I[x, _R] != 0:
        x = np.int64(I[x, _R])
    return x


@njit(cache=True)
def _prune(I, F, node_of, free, st, level):
    """Remove every node whose key is <= level (repeated deletions of the minimum)."""
    while st[_ROOT] != 0:
        x = _leftmost(I, st[_ROOT])
        if F[x, _K] > level:
            break
        node_of[I[x, _J]] = 0
        _delete(I, F, node_of, free, st, x)


@njit(cache=True)
def _pivot_search(I, F, root, z):
    """Figure 3: (count, key sum) of the support of the projection, i.e. of the largest p entries such that
    sum_{i<=p} key_(i) - p key_(p) < z.  (0, 0) if none (z = 0)."""
    x = root
    p = 0
    s = 0.0
    pb = 0
    sb = 0.0
    while x != 0:
        r = I[x, _R]
        key = F[x, _K]
        p2 = p + I[r, _C] + 1
        s2 = s + F[r, _S] + key
        if s2 - p2 * key < z:  # x is in the support (it may be the smallest one)
            pb = p2
            sb = s2
            p = p2
            s = s2
            x = I[x, _L]
        else:  # x is below the threshold: the smallest support entry is to its right
            x = r
    return pb, sb


@njit(cache=True)
def _bfs(I, root, out):
    """Nodes of the tree in breadth-first order (parents before children) into out; returns their number."""
    if root == 0:
        return 0
    out[0] = root
    head = 0
    tail = 1
    while head < tail:
        x = out[head]
        head += 1
        if I[x, _L] != 0:
            out[tail] = I[x, _L]
            tail += 1
        if I[x, _R] != 0:
            out[tail] = I[x, _R]
            tail += 1
    return tail


@njit(cache=True)
def _rebase(I, F, node_of, st, theta_total):
    """key -= Theta for every node (Theta := 0), restore the (key, index) order among keys that became equal,
    and recompute the subtree sums.  O(nnz)."""
    root = st[_ROOT]
    nnz = I[root, _C]
    order = np.empty(nnz, np.int32)
    stack = np.empty(_STACK, np.int32)
    sp = 0
    m = 0
    x = root
    while sp > 0 or x != 0:
        while x != 0:
            stack[sp] = x
            sp += 1
            x = I[x, _L]
        sp -= 1
        x = stack[sp]
        F[x, _K] = F[x, _K] - theta_total
        order[m] = x
        m += 1
        x = I[x, _R]
    # subtracting a constant keeps keys sorted but may make distinct keys equal: re-sort such runs by index
    i = 0
    while i < nnz:
        e = i + 1
        ki = F[order[i], _K]
        while e < nnz and F[order[e], _K] == ki:
            e += 1
        if e - i > 1:
            ok = True
            for t in range(i + 1, e):
                if I[order[t], _J] < I[order[t - 1], _J]:
                    ok = False
                    break
            if not ok:
                js = np.empty(e - i, np.int64)
                sg = np.empty(e - i, np.int64)
                for t in range(i, e):
                    js[t - i] = I[order[t], _J]
                    sg[t - i] = I[order[t], _SG]
                perm = np.argsort(js)
                for t in range(i, e):
                    y = order[t]
                    I[y, _J] = js[perm[t - i]]
                    I[y, _SG] = sg[perm[t - i]]
                    node_of[I[y, _J]] = y
        i = e
    # sums, children before parents
    m = _bfs(I, root, order)
    for t in range(m - 1, -1, -1):
        x = order[t]
        F[x, _S] = F[I[x, _L], _S] + F[x, _K] + F[I[x, _R], _S]
    st[_REBASES] += 1


@njit(cache=True)
def _update(I, F, node_of, free, st, shift, idx, val, z, rebase_ratio):
    """w <- Proj(w + g), g = sum_t val[t] e_{idx[t]}; returns the theta applied.  shift[0] is Theta."""
    theta_total = shift[0]
    k = idx.shape[0]
    new = np.empty(k)
    top = 0.0
    for t in range(k):
        j = idx[t]
        x = np.int64(node_of[j])
        w = 0.0
        if x != 0:
            w = I[x, _SG] * (F[x, _K] - theta_total)
            node_of[j] = 0
            _delete(I, F, node_of, free, st, x)
        new[t] = w + val[t]
        if abs(new[t]) > top:
            top = abs(new[t])
    anchored = top > _ANCHOR * z
    if anchored:
        # An entry far above the radius: the projection keeps only entries within z of it, so every stored
        # magnitude (all <= z) goes, and the keys are taken relative to it (Theta = -top), so that the
        # threshold and the magnitudes are differences of the size of z, not of top (no cancellation).
        _prune(I, F, node_of, free, st, np.inf)
        theta_total = -top
    for t in range(k):
        if new[t] != 0.0:
            key = abs(new[t]) + theta_total
            if not key > theta_total and theta_total != 0.0 and not anchored:
                # |new| is below the rounding of Theta: make Theta 0 (an O(nnz) rebase) rather than drop it
                if st[_ROOT] != 0:
                    _rebase(I, F, node_of, st, theta_total)
                theta_total = 0.0
                st[_TOUCHED] = 0
                key = abs(new[t])
            if key > theta_total:  # (else it is not in the support of an anchored projection)
                node_of[idx[t]] = _insert(I, F, free, st, key, idx[t], 1 if new[t] > 0.0 else -1)
    shift[0] = theta_total
    st[_TOUCHED] += k
    root = st[_ROOT]
    if root == 0:
        shift[0] = 0.0  # empty tree: the shift can restart at 0 for free
        st[_TOUCHED] = 0
        return 0.0
    l1 = F[root, _S] - I[root, _C] * theta_total
    if l1 <= z and not anchored:
        return 0.0
    pb, sb = _pivot_search(I, F, root, z)
    if pb == 0:  # z = 0 (or z below the rounding of the largest key): everything goes
        level = F[_rightmost(I, root), _K]
        theta = level - theta_total
    elif anchored:
        level = (sb - z) / pb  # directly: Theta + theta would cancel
        theta = level - theta_total
    else:
        theta = ((sb - pb * theta_total) - z) / pb
        if theta < 0.0:
            theta = 0.0
        level = theta_total + theta
    _prune(I, F, node_of, free, st, level)
    root = st[_ROOT]
    if root == 0:
        shift[0] = 0.0
        st[_TOUCHED] = 0
        return theta
    shift[0] = level
    top = F[_rightmost(I, root), _K] - level
    if level > rebase_ratio * top and (st[_TOUCHED] >= I[root, _C] or level > 1048576.0 * top):
        _rebase(I, F, node_of, st, level)
        shift[0] = 0.0
        st[_TOUCHED] = 0
    return theta


@njit(cache=True)
def _to_dense(I, F, root, theta_total, n):
    w = np.zeros(n)
    if root == 0:
        return w
    order = np.empty(I[root, _C], np.int32)
    m = _bfs(I, root, order)
    for t in range(m):
        x = order[t]
        w[I[x, _J]] = I[x, _SG] * (F[x, _K] - theta_total)
    return w


@njit(cache=True)
def _check_update(idx, val, n):
    """0 if fine; else (code, position): 1 index out of range, 2 value not finite, 3 duplicate index."""
    k = idx.shape[0]
    for t in range(k):
        if idx[t] < 0 or idx[t] >= n:
            return 1, t
        if not np.isfinite(val[t]):
            return 2, t
    if k > 1:
        srt = np.sort(idx)
        for t in range(1, k):
            if srt[t] == srt[t - 1]:
                return 3, srt[t]
    return 0, 0


# ---------------------------------------------------------------------------------------------- class
class SparseL1BallProjector:
    r"""An iterate w in the l1 ball :math:`\{\|w\|_1 \le z\}` of :math:`\mathbb{R}^n`, starting at w = 0, under
    sparse projected steps ``w <- Proj(w + g)`` (Section 6, Figure 3 of Duchi et al. 2008).

    The nonzero magnitudes are stored, shifted by a lazy global threshold Theta, in an AVL tree whose nodes
    carry subtree counts and key sums; one :meth:`update` with k nonzeros costs O(k log n) amortized
    (k deletions and insertions, one O(log n) descent for theta, amortized k deletions of entries that the
    projection zeroed) and never touches the other coordinates.  See the module docstring.

    Parameters
    ----------
    n : int
        The dimension (at most 2**31 - 2).
    z : float
        The radius, finite and >= 0.
    capacity : int, optional
        Initial number of tree nodes (grown by doubling as needed, never beyond n).
    rebase_ratio : float
        Rebase the keys once the global shift exceeds this multiple of the largest magnitude (and at least nnz
        coordinates were touched since the last rebase).  Smaller: more accurate, more rebasing.

    Examples
    --------
    >>> P = SparseL1BallProjector(10, z=1.0)
    >>> P.update([2, 7], [0.75, -0.5])         # ||w + g||_1 = 1.25 > 1: theta = 0.125
    0.125
    >>> P.to_dense()[[2, 7]]
    array([ 0.625, -0.375])
    >>> P.update([7, 3], [0.375, 0.25])        # w_7 becomes 0, w_3 = 0.25: inside the ball
    0.0
    >>> P.nnz, P.l1_norm, P.support()
    (2, 0.875, array([2, 3]))
    """

    def __init__(self, n, z, capacity=None, rebase_ratio=4.0):
        n = check_count(n, "the dimension n", minimum=1, maximum=2**31 - 2)
        z = check_real(z, "the radius z", low=0.0)
        rebase_ratio = check_positive(rebase_ratio, "rebase_ratio")
        cap = min(n, 1024) if capacity is None else check_count(capacity, "capacity", minimum=1)
        cap = min(cap, n)
        self._n = n
        self._z = z
        self._rebase_ratio = rebase_ratio
        self._I = np.zeros((cap + 1, _NI), np.int32)
        self._F = np.zeros((cap + 1, 2))
        self._free = np.arange(cap, 0, -1, dtype=np.int32)  # a stack: nodes 1, 2, ... are used first
        self._st = np.array([0, cap, 0, 0], np.int64)
        self._shift = np.zeros(1)
        # node of each coordinate (0: the coordinate is zero).  np.zeros maps zeroed pages lazily, so a large
        # n costs nothing until coordinates are touched.
        self._node_of = np.zeros(n, np.int32)

    # ------------------------------------------------------------------------------------------ updates
    def _grow(self, need):
        cap = self._I.shape[0] - 1
        new_cap = min(self._n, max(2 * cap, need))
        I = np.zeros((new_cap + 1, _NI), np.int32)
        I[: cap + 1] = self._I
        F = np.zeros((new_cap + 1, 2))
        F[: cap + 1] = self._F
        nfree = int(self._st[_NFREE])
        free = np.empty(new_cap, np.int32)
        free[:nfree] = self._free[:nfree]
        free[nfree: nfree + new_cap - cap] = np.arange(new_cap, cap, -1, dtype=np.int32)
        self._st[_NFREE] = nfree + new_cap - cap
        self._I, self._F, self._free = I, F, free

    def update(self, indices, values):
        r"""``w <- Proj_{||.||_1 <= z}(w + g)`` with :math:`g = \sum_t \mathrm{values}_t\, e_{\mathrm{indices}_t}`.

        ``indices``: distinct integers in [0, n); ``values``: finite floats of the same length (zeros allowed).
        Returns the theta >= 0 subtracted from every nonzero magnitude (0.0 when w + g is inside the ball).
        O(k log n) amortized for k = len(indices).
        """
        idx = np.asarray(indices)
        if idx.ndim != 1:
            raise ValueError(f"indices must be a 1-d array of integers, got shape {idx.shape}")
        if idx.size and idx.dtype.kind not in "iu":
            raise ValueError(f"indices must be integers, got dtype {idx.dtype}")
        if idx.dtype != np.int64 or not idx.flags.c_contiguous or not idx.flags.writeable:
            idx = np.array(idx, dtype=np.int64, order="C")  # (one kernel specialization: writable, contiguous)
        val = check_array(values, "values", shape=idx.shape, like="indices", allow_empty=True, finite=False)
        code, where = _check_update(idx, val, self._n)
        if code == 1:
            raise ValueError(f"indices must lie in [0, n) = [0, {self._n}); got {idx[where]} at position {where}")
        if code == 2:
            raise ValueError(f"values must be finite; got {val[where]} at position {where}")
        if code == 3:
            raise ValueError(f"indices must be distinct; {where} appears more than once (sum its values first)")
        need = int(self._I[self._st[_ROOT], _C]) + idx.size  # nnz can grow by k before the pruning
        if need > self._I.shape[0] - 1:
            self._grow(need)
        return float(_update(self._I, self._F, self._node_of, self._free, self._st, self._shift, idx, val,
                             self._z, self._rebase_ratio))

    # -------------------------------------------------------------------------------------------- reads
    @property
    def n(self):
        """The dimension."""
        return self._n

    @property
    def z(self):
        """The radius of the ball."""
        return self._z

    @property
    def nnz(self):
        """The number of nonzero coordinates of w."""
        return int(self._I[self._st[_ROOT], _C])

    @property
    def l1_norm(self):
        """||w||_1, from the tree: (sum of the keys) - nnz * Theta, O(1)."""
        root = self._st[_ROOT]
        if root == 0:
            return 0.0
        return float(self._F[root, _S] - self._I[root, _C] * self._shift[0])

    @property
    def theta_total(self):
        """The global shift Theta (sum of the thetas since the last rebase): |w_j| = key_j - Theta."""
        return float(self._shift[0])

    @property
    def n_rebases(self):
        """How many times the keys were rebased (Theta reset to 0)."""
        return int(self._st[_REBASES])

    def get(self, j):
        """w_j, O(1)."""
        j = check_count(j, "the coordinate j", maximum=self._n - 1)
        x = self._node_of[j]
        if x == 0:
            return 0.0
        return float(self._I[x, _SG] * (self._F[x, _K] - self._shift[0]))

    def values(self, indices):
        """w at the coordinates ``indices`` (a new array), O(k): what a stochastic step needs for a margin."""
        idx = check_index_array(indices, "indices", upper=self._n, allow_empty=True)
        x = self._node_of[idx]
        out = self._I[x, _SG] * (self._F[x, _K] - self._shift[0])
        out[x == 0] = 0.0
        return out

    def to_dense(self):
        """w as a new array of length n, O(n)."""
        return _to_dense(self._I, self._F, self._st[_ROOT], self._shift[0], self._n)

    def support(self):
        """The sorted indices of the nonzero coordinates, O(nnz log nnz)."""
        root = int(self._st[_ROOT])
        if root == 0:
            return np.zeros(0, np.int64)
        order = np.empty(self.nnz, np.int32)
        m = _bfs(self._I, root, order)
        return np.sort(self._I[order[:m], _J].astype(np.int64))

    def __repr__(self):
        return (f"SparseL1BallProjector(n={self._n}, z={self._z}, nnz={self.nnz}, "
                f"l1_norm={self.l1_norm:.6g})")

    # --------------------------------------------------------------------------------------- invariants
    def check_invariants(self):
        """Verify the whole data structure in O(nnz) (for tests): the search-tree order by (key, index), the AVL
        heights and balance, parent links, subtree counts and key sums, the node of every coordinate, the free
        list, and that every stored magnitude is > 0.  Raises AssertionError with a description."""
        I, F, st = self._I, self._F, self._st
        theta = self._shift[0]
        assert I[0, _H] == 0 and I[0, _C] == 0 and F[0, _S] == 0.0, "the null node was written to"
        root = int(st[_ROOT])
        nodes = []
        if root != 0:
            assert I[root, _P] == 0, "the root has a parent"
            stack = [root]
            while stack:
                x = stack.pop()
                nodes.append(x)
                for c in (I[x, _L], I[x, _R]):
                    if c != 0:
                        assert I[c, _P] == x, f"node {c}: parent link {I[c, _P]} != {x}"
                        stack.append(int(c))
        assert len(set(nodes)) == len(nodes), "a node is reachable twice"
        # heights, counts and sums, children first (reverse of a parents-first order)
        for x in reversed(nodes):
            l, r = I[x, _L], I[x, _R]
            h = max(I[l, _H], I[r, _H]) + 1
            assert I[x, _H] == h, f"node {x}: height {I[x, _H]} != {h}"
            assert abs(int(I[l, _H]) - int(I[r, _H])) <= 1, f"node {x}: AVL balance violated"
            assert I[x, _C] == I[l, _C] + I[r, _C] + 1, f"node {x}: count {I[x, _C]} is wrong"
            s = F[l, _S] + F[x, _K] + F[r, _S]
            assert F[x, _S] == s, f"node {x}: sum {F[x, _S]} != {s}"
            assert F[x, _K] > theta, f"node {x}: stored magnitude {F[x, _K] - theta} <= 0"
            assert I[x, _SG] in (-1, 1), f"node {x}: sign {I[x, _SG]}"
        nnz = len(nodes)
        if nnz:
            assert I[root, _H] <= 1.4405 * math.log2(nnz + 2) - 0.3277 + 1e-9, "AVL height bound violated"
        # in-order: strictly increasing (key, index)
        seq = []
        stack, x = [], root
        while stack or x:
            while x:
                stack.append(x)
                x = int(I[x, _L])
            x = stack.pop()
            seq.append((float(F[x, _K]), int(I[x, _J])))
            x = int(I[x, _R])
        assert all(a < b for a, b in zip(seq, seq[1:])), "in-order (key, index) sequence is not increasing"
        # coordinate -> node map, and the free list
        js = [int(I[x, _J]) for x in nodes]
        assert len(set(js)) == nnz, "a coordinate is stored twice"
        for x, j in zip(nodes, js):
            assert self._node_of[j] == x, f"coordinate {j}: node_of {self._node_of[j]} != {x}"
        assert int(np.count_nonzero(self._node_of)) == nnz, "node_of has stale entries"
        cap = I.shape[0] - 1
        nfree = int(st[_NFREE])
        assert nfree + nnz == cap, f"{nfree} free + {nnz} used != capacity {cap}"
        assert set(self._free[:nfree].tolist()).isdisjoint(nodes), "a used node is on the free list"
        assert len(set(self._free[:nfree].tolist())) == nfree, "the free list has duplicates"
