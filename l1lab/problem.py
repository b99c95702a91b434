r"""The l1-regularized problem (1)/(5) of Shalev-Shwartz & Tewari (2011).

.. math::  P(w) = C(w) + \lambda \|w\|_1, \qquad C(w) = \frac{1}{m}\sum_{i=1}^m L(\langle w, x_i\rangle, y_i).

:class:`Problem` holds the data (a dense ndarray or a scipy.sparse matrix, never densified), the labels,
the loss and lambda; validates them; evaluates C, P, the gradient of C and the optimality residual; and
the exact minimizer over the unpenalized coordinates, which defines lambda_max.  The high-accuracy reference
optimum is a solver's job: :func:`l1lab.solvers.reference_solution`.

Optional per-coordinate penalty weights c_j >= 0 generalize the penalty to :math:`\lambda\sum_j c_j|w_j|`; a
weight 0 leaves a coordinate unpenalized, which is how an intercept (a constant feature column of ones) enters
the problem (see :mod:`l1lab.estimators`).

Optional positive sample weights s_i make C the weighted mean :math:`\sum_i s_i L(\langle w, x_i\rangle, y_i) /
\sum_i s_i` (stored normalized to mean 1, so that :math:`C(w) = \frac{1}{m}\sum_i s_i L(\cdot)`).  They are beyond the
papers: the papers' algorithms and bounds are for the unweighted mean, and refuse a weighted Problem; the
working-set solver (:func:`l1lab.solvers.working_set_cd`, :func:`l1lab.solvers.regularization_path`) solves and
certifies it.
"""
from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from ._validate import (
    SPARSE_FORMATS,
    Param,
    check_array,
    check_count,
    check_index_array,
    check_matrix,
    check_nonnegative,
)
from .losses import Loss, get_loss, mean_loss

__all__ = ["Problem", "hinge_linear_program", "unpenalized_minimizer"]  # check_problem, PROBLEM: for the package


class Problem:
    """Data (X, y), a loss and lambda: the objective P(w) = C(w) + lam * ||w||_1.

    Parameters
    ----------
    X : (m, d) numpy array or scipy.sparse matrix
        Features, each entry in [-1, 1] (the papers' assumption, which makes ``loss.beta`` a valid
        coordinate-smoothness constant by Lemma 6).  Sparse input is stored as CSC (and CSR on demand).
    y : (m,) array
        Targets; labels in {-1, +1} for the logistic and hinge losses.
    loss : 'squared', 'logistic', 'hinge' or a :class:`l1lab.losses.Loss`
    lam : float >= 0
    penalty_weights : (d,) array of finite numbers >= 0, optional
        Weights c_j of the penalty lam * sum_j c_j |w_j| (glmnet's ``penalty.factor``).  Default: every
        c_j = 1, the papers' problem.  c_j = 0 leaves w_j unpenalized, e.g. an intercept held by a column of
        ones.  An all-ones vector is stored as ``None``, so the solvers keep their shared-threshold paths and
        give bit-for-bit the numbers of the unweighted problem.
    sample_weight : (m,) array of finite numbers > 0, optional
        Weights s_i of the examples: C becomes the weighted mean sum_i s_i L_i / sum_i s_i (a weight k counts an
        example k times).  Stored divided by their mean (``sample_weight``); equal weights are stored as None,
        the unweighted problem.  A weight of 0 is refused: remove the example instead (the estimators do).
        Only the working-set solver takes a weighted Problem; the papers' solvers and bounds raise a ValueError.

    Notes
    -----
    Input types: X and y may hold float64, float32 or integer values (dense arrays, or CSR/CSC matrices);
    Problem stores them as float64.  The conversion is exact (every float32, and every integer up to 2^53, is a
    float64), so a float32 or integer input gives bit for bit the results of its float64 conversion, in every
    solver (``tests/test_dtypes.py``).  Input arrays are never modified: read-only and non-contiguous arrays are
    copied, and a float64 CSC matrix in canonical form (like an F-ordered float64 array) is read in place.  Object,
    string, bool and complex arrays, NaN and inf entries, and sparse formats other than CSR and CSC (convert them
    with ``X.tocsc()``) raise a ValueError or TypeError that names the argument.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[1.0, 0.5], [-0.5, 1.0], [0.0, -1.0]])
    >>> problem = Problem(X, np.array([1.0, 0.0, -1.0]), loss="squared", lam=0.1)
    >>> round(problem.objective(np.zeros(2)), 6)         # C(0) = (1 + 0 + 1) / (2 * 3)
    0.333333
    >>> round(problem.lambda_max, 6)                       # ||grad C(0)||_inf: w* = 0 for lam >= lambda_max
    0.5
    """

    def __init__(self, X, y, loss="squared", lam=1e-3, penalty_weights=None, sample_weight=None):
        self.loss: Loss = get_loss(loss)
        self.lam = check_nonnegative(lam, "lam")

        if sp.issparse(X):
            if X.format not in SPARSE_FORMATS:
                raise TypeError(f"X must be a dense array or a scipy.sparse CSR or CSC matrix, got the "
                                f"{X.format.upper()} format; convert it with X.tocsc() (the layout Problem stores)")
            if X.ndim != 2:
                raise ValueError(f"X must be 2-dimensional, got shape {X.shape}")
            # a float64 CSC matrix in canonical form (sorted indices, no duplicates) is used as it is, as an F-ordered
            # dense array is: its arrays are read, never written; any other is converted into a private copy
            if X.format == "csc" and X.dtype == np.float64 and X.has_canonical_format:
                csc = sp.csc_matrix(X, copy=False)
            else:
                csc = sp.csc_matrix(X, dtype=np.float64, copy=True)
                csc.sum_duplicates()
                csc.sort_indices()
            values = csc.data
            self.is_sparse = True
        else:
            X = np.asarray(X)
            if X.ndim != 2:
                raise ValueError(f"X must be a 2-dimensional array (m examples x d features), got shape {X.shape}")
            if not np.issubdtype(X.dtype, np.number) or np.iscomplexobj(X):
                raise ValueError(f"X must be real-valued, got dtype {X.dtype}")
            values = X
            self.is_sparse = False
        m, d = X.shape
        if m == 0 or d == 0:
            raise ValueError(f"empty data: X has shape {X.shape}; need at least one example and one feature")
        # two reductions without temporaries; the detailed checks run only when one fails (NaN fails both)
        if values.size and not (values.min() >= -1.0 and values.max() <= 1.0):
            if not np.all(np.isfinite(values)):
                raise ValueError("X contains NaN or infinite entries; remove or impute them before building a Problem")
            raise ValueError(
                f"features must lie in [-1, 1] (max |x_ij| = {np.max(np.abs(values)):.4g}), as the theory assumes; "
                "use l1lab.data.scale_features(X)")

        y = np.asarray(y)
        if y.ndim != 1:
            raise ValueError(f"y must be 1-dimensional, got shape {y.shape}")
        if y.shape[0] != m:
            raise ValueError(f"X has {m} rows but y has {y.shape[0]} entries")
        if not np.issubdtype(y.dtype, np.number) or np.iscomplexobj(y):
            raise ValueError(f"y must be real-valued, got dtype {y.dtype}")
        y = y.astype(np.float64)
        if not np.all(np.isfinite(y)):
            raise ValueError("y contains NaN or infinite entries")
        if self.loss.classification and not np.all((y == 1.0) | (y == -1.0)):
            bad = np.unique(y[(y != 1.0) & (y != -1.0)])[:5]
            raise ValueError(
                f"the {self.loss.name} loss needs labels in {{-1, +1}}; found {bad.tolist()}. "
                "Map your classes to -1/+1 explicitly (e.g. y = np.where(labels == positive, 1.0, -1.0))")

        self.m, self.d = int(m), int(d)
        self.y = np.ascontiguousarray(y)
        if self.is_sparse:
            self._csc = csc
            self._csr = None
            self.column_nnz = np.diff(csc.indptr).astype(np.int64)
        else:
            # Column j of X is the contiguous row j of XT: coordinate descent reads columns.
            self._XT = np.ascontiguousarray(X.T, dtype=np.float64)
            self._XC = None
            self.column_nnz = np.full(self.d, self.m, dtype=np.int64)
        self.nnz = int(self.column_nnz.sum())
        self.penalty_weights = self._check_penalty_weights(penalty_weights)
        self.sample_weight = self._check_sample_weight(sample_weight)
        self._csr_arrays = None
        self._csc_arrays = None
        self._lambda_max = None
        self._null = None

    def _check_penalty_weights(self, c):
        if c is None:
            return None
        c = check_array(c, "penalty_weights", shape=(self.d,), like="one weight per feature", copy=True)
        if np.any(c < 0):
            raise ValueError("penalty_weights must be finite numbers >= 0 (0 leaves a coordinate unpenalized)")
        return None if np.all(c == 1.0) else c

    def _check_sample_weight(self, s):
        if s is None:
            return None
        if not self.loss.smooth:
            raise ValueError(f"sample weights are taken with the squared and logistic losses (the working-set "
                             f"solver's), not the {self.loss.name} loss")
        s = check_array(s, "sample_weight", shape=(self.m,), like="one weight per example", copy=True)
        if np.any(s <= 0):
            raise ValueError("sample_weight must hold finite numbers > 0; remove the examples of weight 0 (a weight "
                             "of 0 is the example's absence)")
        if np.all(s == s[0]):
            return None        # equal weights: the unweighted problem, bit for bit
        return s / s.mean()

    # ------------------------------------------------------------------ data access
    @property
    def X(self):
        """The feature matrix: an (m, d) Fortran-ordered array, or a CSC matrix."""
        return self._csc if self.is_sparse else self._XT.T

    @property
    def csr(self):
        """Row-compressed copy of sparse X (built once, on demand)."""
        if not self.is_sparse:
            raise ValueError("csr is only defined for sparse problems; use Problem.rows for dense data")
        if self._csr is None:
            self._csr = self._csc.tocsr()
            self._csr.sort_indices()
        return self._csr

    @property
    def rows(self):
        """Dense X in C order (rows contiguous), built once on demand."""
        if self.is_sparse:
            raise ValueError("rows is only defined for dense problems; use Problem.csr for sparse data")
        if self._XC is None:
            self._XC = np.ascontiguousarray(self._XT.T)
        return self._XC

    def csr_arrays(self):
        """(indptr, indices, data) of X by rows, for the example-sampling kernels (built once).

        Dense X is converted to CSR with its exact zeros dropped, which changes no inner product.
        """
        if self._csr_arrays is None:
            M = self.csr if self.is_sparse else sp.csr_matrix(self.rows)
            # unsigned indices: the kernels' loads need no negative-index wrap-around test (see _cd_kernels)
            self._csr_arrays = (M.indptr.astype(np.uint64), M.indices.astype(np.uint32),
                                np.ascontiguousarray(M.data, dtype=np.float64))
        return self._csr_arrays

    def csc_arrays(self):
        """(indptr, indices, data) of sparse X by columns for the coordinate-descent kernels (built once):
        unsigned indices, so the kernels' loads need no wrap-around test; 32-bit row indices (m < 2**32 for data
        that fits in memory) halve their memory traffic.  The indices are a view when scipy stores them as int32."""
        if not self.is_sparse:
            raise ValueError("csc_arrays is only defined for sparse problems; dense columns are the rows of X^T")
        if self._csc_arrays is None:
            X = self._csc
            idx = X.indices
            idx = idx.view(np.uint32) if idx.dtype == np.int32 else idx.astype(np.uint32)
            ptr = X.indptr
            ptr = ptr.view(np.uint64) if ptr.dtype == np.int64 else ptr.astype(np.uint64)
            self._csc_arrays = (ptr, idx, X.data)
        return self._csc_arrays

    @property
    def row_nnz(self) -> np.ndarray:
        """Number of nonzeros of every example x_i."""
        return np.diff(self.csr_arrays()[0])

    @property
    def density(self) -> float:
        """s of eq. (8): the fraction of nonzero entries (for dense storage, the stored fraction, 1)."""
        return self.nnz / (self.m * self.d)

    def column_sq_norms(self) -> np.ndarray:
        """(1/m) sum_i x_ij^2 for every column j (with sample weights, (1/m) sum_i s_i x_ij^2)."""
        s = self.sample_weight
        if self.is_sparse:
            sq = self._csc.multiply(self._csc)
            return (np.asarray(sq.sum(axis=0)).ravel() if s is None else sq.T @ s) / self.m
        if s is None:
            return np.einsum("ji,ji->j", self._XT, self._XT) / self.m
        return np.einsum("ji,ji,i->j", self._XT, self._XT, s) / self.m

    # ------------------------------------------------------------------ objective
    def _check_w(self, w, name="w"):
        """w as a float64 array of shape (d,); NaN and inf entries are allowed (P of a diverged run is inf or NaN,
        which the traces record)."""
        return check_array(w, name, shape=(self.d,), finite=False, like="one weight per feature")

    def _check_z(self, z, name="z"):
        """Margins z = Xw: a float64 array of shape (m,) (non-finite entries allowed, as for w)."""
        return check_array(z, name, shape=(self.m,), finite=False, like="one margin per example")

    def margins(self, w) -> np.ndarray:
        """z = Xw, the vector of <w, x_i>."""
        w = self._check_w(w)
        if self.is_sparse:
            return np.asarray(self._csc @ w).ravel()
        return self._XT.T @ w

    def smooth_from_margins(self, z) -> float:
        """C(w) from the margins z = Xw, shape (m,)."""
        z = self._check_z(z)
        if self.sample_weight is None:
            return float(mean_loss(self.loss.code, z, self.y))
        return float(self.sample_weight @ self.loss.value(z, self.y)) / self.m

    def smooth(self, w) -> float:
        """C(w) = (1/m) sum_i L(<w, x_i>, y_i) (with sample weights, (1/m) sum_i s_i L(<w, x_i>, y_i))."""
        return self.smooth_from_margins(self.margins(w))

    @property
    def lam_vector(self) -> np.ndarray:
        """The per-coordinate penalties lam_j = lam * c_j, shape (d,)."""
        if self.penalty_weights is None:
            return np.full(self.d, self.lam)
        return self.lam * self.penalty_weights

    def penalty(self, w) -> float:
        """lam ||w||_1, or lam sum_j c_j |w_j| with penalty weights."""
        w = self._check_w(w)
        if self.penalty_weights is None:
            return self.lam * float(np.abs(w).sum())
        return self.lam * float(self.penalty_weights @ np.abs(w))

    def objective(self, w) -> float:
        """P(w) = C(w) + lam ||w||_1 (with penalty weights, C(w) + lam sum_j c_j |w_j|)."""
        w = self._check_w(w)
        return self.smooth(w) + self.penalty(w)

    def gradient(self, w) -> np.ndarray:
        """The gradient of C at w (a sub-gradient for the hinge loss)."""
        return self.gradient_from_margins(self.margins(w))

    def gradient_from_margins(self, z) -> np.ndarray:
        """The gradient of C from the margins z = Xw, shape (m,)."""
        g = self.loss.deriv(self._check_z(z), self.y)
        if self.sample_weight is not None:
            g *= self.sample_weight
        if self.is_sparse:
            return np.asarray(self._csc.T @ g).ravel() / self.m
        return self._XT @ g / self.m

    def null_solution(self) -> np.ndarray:
        """The minimizer of C over the unpenalized coordinates (c_j = 0) with every other w_j = 0: the
        intercept-only model when the only unpenalized coordinate is an intercept; w = 0 without penalty
        weights.  It minimizes P for every lam >= :attr:`lambda_max` (computed once: least squares, Newton's
        method or a linear program on the unpenalized columns)."""
        if self._null is None:
            w = np.zeros(self.d)
            if self.penalty_weights is not None:
                U = np.flatnonzero(self.penalty_weights == 0)
                if U.size:
                    w[U] = unpenalized_minimizer(self, U)
            self._null = w
        return self._null.copy()

    @property
    def lambda_max(self) -> float:
        """The smallest lam at which the penalized coordinates all vanish at the optimum (computed once).

        Without penalty weights ||grad C(0)||_inf: for lam >= lambda_max, w = 0 is optimal.  With weights,
        max over c_j > 0 of |grad_j C(w_0)| / c_j, where w_0 is :meth:`null_solution` (0 if every coordinate
        is unpenalized).
        """
        if self._lambda_max is None:
            g = np.abs(self.gradient(self.null_solution()))
            if self.penalty_weights is None:
                self._lambda_max = float(np.max(g))
            else:
                pen = self.penalty_weights > 0
                self._lambda_max = float(np.max(g[pen] / self.penalty_weights[pen])) if pen.any() else 0.0
        return self._lambda_max

    def optimality_residual(self, w, margins=None) -> float:
        r"""The l_inf norm of the minimum-norm sub-gradient of P at w.

        For w_j != 0 its entry is g_j + lam_j sign(w_j); for w_j = 0 it is max(|g_j| - lam_j, 0), where
        lam_j = lam (lam c_j with penalty weights).  It is zero exactly at the minimizers of P.  Defined only
        for differentiable losses.  ``margins``: Xw if the caller already has it (saves one pass over X).
        """
        if not self.loss.smooth:
            raise ValueError(f"the optimality residual needs a differentiable loss; {self.loss.name} is not")
        w = self._check_w(w)
        g = self.gradient(w) if margins is None else self.gradient_from_margins(self._check_z(margins, "margins"))
        lam = self.lam if self.penalty_weights is None else self.lam_vector
        r = np.where(w != 0, g + lam * np.sign(w), np.maximum(np.abs(g) - lam, 0.0))
        return float(np.max(np.abs(r)))

    def relative_residual(self, w, margins=None) -> float:
        """optimality_residual(w) / max(lambda_max, lam): scale-free, 1 at w = 0 when lam is tiny."""
        scale = max(self.lambda_max, self.lam, np.finfo(float).tiny)
        return self.optimality_residual(w, margins) / scale

    def __repr__(self):
        kind = f"sparse, density {self.density:.3g}" if self.is_sparse else "dense"
        weights = "" if self.penalty_weights is None else (
            f", penalty weights ({int(np.sum(self.penalty_weights == 0))} unpenalized)")
        if self.sample_weight is not None:
            weights += ", sample weights"
        return f"Problem(m={self.m}, d={self.d}, {kind}, loss={self.loss.name!r}, lam={self.lam:g}{weights})"


def check_problem(value, name="problem"):
    """``value`` if it is a :class:`Problem`, else a TypeError naming ``name``."""
    if not isinstance(value, Problem):
        raise TypeError(f"{name} must be an l1lab.Problem, got {type(value).__name__}")
    return value


def check_unweighted_problem(value, name="problem"):
    """``value`` if it is a :class:`Problem` without sample weights: the papers' algorithms and bounds are stated
    for the unweighted mean loss (a TypeError for another type, a ValueError for a weighted Problem)."""
    check_problem(value, name)
    if value.sample_weight is not None:
        raise ValueError(f"{name} has sample weights, and this function is one of the papers' algorithms or bounds, "
                         "stated for the unweighted mean loss (1/m) sum_i L_i; a weighted Problem is solved by "
                         "l1lab.solvers.working_set_cd or regularization_path (l1lab.solvers.working_set.duality_gap "
                         "certifies it)")
    return value


#: the declared domain of a ``problem`` argument (see ``l1lab._validate.checked``): a Problem without sample
#: weights; the working-set solver, which takes weights, declares :data:`ANY_PROBLEM`
PROBLEM = Param(check_unweighted_problem)
ANY_PROBLEM = Param(check_problem)


def hinge_linear_program(X, y, lam_j):
    """argmin_w (1/m) sum_i max(0, 1 - y_i <x_i, w>) + sum_j lam_j |w_j|, exactly, as the linear program

    min (1/m) sum xi_i + sum_j lam_j (u_j + v_j)  s.t. xi_i >= 1 - y_i <x_i, u - v>,  u, v, xi >= 0

    solved by HiGHS (w = u - v)."""
    from scipy.optimize import linprog

    X = check_matrix(X, "X")
    m, d = X.shape
    y = check_array(y, "y", shape=(m,), like="the rows of X")
    if not np.all((y == 1.0) | (y == -1.0)):
        raise ValueError("y must hold labels in {-1, +1} (the hinge loss)")
    lam_j = check_array(lam_j, "lam_j", shape=(d,), like="the columns of X")
    if np.any(lam_j < 0):
        raise ValueError("lam_j must hold penalties >= 0")
    YX = sp.csr_matrix(X).multiply(y[:, None]).tocsr()
    A = sp.hstack([-YX, YX, -sp.identity(m)], format="csr")
    c = np.concatenate([lam_j, lam_j, np.full(m, 1.0 / m)])
    res = linprog(c, A_ub=A, b_ub=-np.ones(m), bounds=(0, None), method="highs",
                  options={"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10})
    if res.status != 0:
        raise RuntimeError(f"HiGHS failed on the hinge-loss linear program: {res.message}")
    return res.x[:d] - res.x[d:2 * d]


def unpenalized_minimizer(problem, U, max_steps=100):
    """argmin over w_U of C(w) with every w_j, j not in U, at zero (U: a few column indices).

    Squared loss: least squares.  Logistic loss: Newton's method with a backtracking line search, to a gradient
    of 1e-13 (|L'| <= 1 and |x_ij| <= 1 make it an absolute scale) or a Newton decrement of 1e-14 C, the rounding of
    C.  Hinge loss:
    the linear program.  Raises ValueError when no finite minimizer exists (e.g. logistic labels of one class with
    an intercept)."""
    check_problem(problem)
    U = check_index_array(U, "U (column indices)", upper=problem.d)
    max_steps = check_count(max_steps, "max_steps", minimum=1)
    m = problem.m
    XU = problem.X[:, U]
    XU = XU.toarray() if sp.issparse(XU) else np.asarray(XU)
    loss, y = problem.loss, problem.y
    s = np.ones(m) if problem.sample_weight is None else problem.sample_weight
    if not loss.smooth:
        return hinge_linear_program(XU, y, np.zeros(len(U)))
    if loss.name == "squared":
        if problem.sample_weight is None:
            return np.linalg.lstsq(XU, y, rcond=None)[0]
        r = np.sqrt(s)
        return np.linalg.lstsq(XU * r[:, None], y * r, rcond=None)[0]
    w = np.zeros(len(U))
    for _ in range(max_steps):
        z = XU @ w
        g = XU.T @ (s * loss.deriv(z, y)) / m
        if np.max(np.abs(g)) <= 1e-13:
            return w
        H = (XU * (s * loss.second(z, y))[:, None]).T @ XU / m
        step = np.linalg.lstsq(H, -g, rcond=None)[0]
        c0 = problem.smooth_from_margins(z)
        if -float(g @ step) <= 1e-14 * max(c0, 1e-2):
            # Newton decrement at the rounding level of C (a sum of m terms): a line search cannot see a decrease
            # any more, and the full step is the accurate one (quadratic convergence).  An absolute 1e-16 was
            # below the rounding of C = 0.69 on 177 rows, where the search then crept by noise-sized steps.
            return w + step
        t = 1.0
        while t > 1e-12:
            if problem.smooth_from_margins(z + t * (XU @ step)) <= c0 + 1e-4 * t * float(g @ step):
                break
            t *= 0.5
        else:
            return w  # no further decrease at working precision
        w = w + t * step
    raise ValueError(
        "the unpenalized coordinates have no finite minimizer (Newton's method diverged): for the logistic "
        "loss with an intercept, are all labels the same?")
