r"""scikit-learn estimators for the l1lab solvers: :class:`L1Regressor` (squared loss) and :class:`L1Classifier`
(logistic loss, binary or one-vs-rest), so that the book's algorithms fit into pipelines, cross-validation and
grid searches.

Both minimize problem (1) of Shalev-Shwartz & Tewari (2011) with an optional unpenalized intercept b,

.. math::  P(w, b) = \frac{1}{m}\sum_{i=1}^m L(\langle w, x_i\rangle + b, y_i) + \lambda\|w\|_1,

with L(a, y) = (a - y)^2/2 (``L1Regressor``: the objective of ``sklearn.linear_model.Lasso(alpha=lam)``) or
L(a, y) = log(1 + exp(-y a)), y in {-1, +1} (``L1Classifier``: the objective of ``LogisticRegression(
penalty="l1", C=1/(m lam))`` divided by C m, with an unpenalized intercept).

Solvers (``solver=``), every l1lab solver of problem (1):

* ``"working_set"`` (default): :func:`l1lab.solvers.working_set_cd`, coordinate descent with coordinate curvature on
  growing working sets (Anderson extrapolation for the squared loss, proximal Newton steps for the logistic loss),
  stopped when its duality gap, a certified bound on the sub-optimality, is at most ``tol`` times P at the
  intercept-only model; the gap is in ``solver_info_["gap"]``.  The fast way to a solution (beyond the papers).
* ``"scd"``, ``"cyclic"``, ``"gcd"``: :func:`l1lab.solvers.scd`, :func:`~l1lab.solvers.cyclic_cd`,
  :func:`~l1lab.solvers.gcd`; they stop when the relative optimality residual is at most ``tol`` (at most
  ``max_epochs`` passes; a GCD step reads all of X).
* ``"smidas"``, ``"truncgrad"``, ``"sgd"``: :func:`l1lab.solvers.smidas`, :func:`~l1lab.solvers.truncgrad`,
  :func:`~l1lab.solvers.sgd`; a fixed budget of ``max_epochs`` passes over the examples with step ``eta``.

The stochastic-gradient solvers return their averaged iterate (``output="average"``) unless ``solver_options``
says otherwise: the average is what Theorem 3 and Proposition 4 bound, and with a constant step it lies much
closer to the optimum than the last iterate, which rattles in a ball whose size scales with eta
(``solver_options={"output": "last"}`` gives the last iterate, sparser when many features are irrelevant).

**The intercept** (``fit_intercept=True``) is an extra feature column of ones (inside [-1, 1], so Lemma 6 and
every step size of the theory still hold) whose coordinate has penalty weight 0 (``Problem(...,
penalty_weights=[1, ..., 1, 0])``): coordinate descent updates it with the plain step -g/beta (threshold
lam * 0 / beta), the mirror-descent solvers never truncate it, and the objective, optimality residual,
``lambda_max`` and reference solution of :class:`l1lab.Problem` all use the weighted penalty.  It is exact, for
every loss and solver, and needs no centering (which would break sparsity and the [-1, 1] bound).

**Scaling.**  The theory (Lemma 6, every step size) needs features in [-1, 1].  ``scale="auto"`` (default)
accepts any finite data: a column that leaves [-1, 1] is divided by its largest absolute value, a column inside
it is left as it is; ``scale="maxabs"`` divides every column by its largest absolute value
(:func:`l1lab.data.scale_features`); ``scale=None`` enforces the theory's assumption and raises the error of
:class:`l1lab.Problem` on a feature outside [-1, 1].  The factors are kept in ``scale_`` (1 for a column left as
it is) and ``coef_`` is divided by them, so ``coef_`` is in the units of the data and predictions on unscaled X
are right; as with a ``MaxAbsScaler`` in a ``Pipeline``, the penalty applies to the coefficients of the scaled
columns.  Sparsity is kept.

**Choosing lam** (:class:`L1RegressorCV`, :class:`L1ClassifierCV`, as LassoCV and LogisticRegressionCV): a
geometric grid from lambda_max, K folds, each fold's regularization path solved by the working-set solver with
warm starts (:func:`l1lab.solvers.regularization_path`, the folds in parallel with joblib), the lam of the best
mean held-out score, refit on all data.  The scaling factors (``scale``) are those of all the data, the
refit's: every fold solves the problem the refit solves, on its rows.

**Sparse input** (CSR/CSC, any scipy sparse format) is never densified.

**Sample weights** (every estimator): ``fit(X, y, sample_weight=s)`` minimizes the weighted
mean loss sum_i s_i L(<w, x_i> + b, y_i) / sum_i s_i + lam ||w||_1, as Lasso does.  A zero weight removes its row
(before anything else, the scaling factors included) and an integer weight k counts its row k times.  For the
squared loss the weights fold into the data exactly: row i of the design and y_i are multiplied by
sqrt(s_i / max s) (so the rows stay in [-1, 1]) and lam is divided by max s (mean s = 1 after normalizing), which
divides the objective by max s and leaves its minimizer unchanged; the intercept column becomes a weighted one,
still unpenalized.  The logistic loss cannot be folded into the data: ``L1Classifier`` passes the weights to the
:class:`l1lab.Problem`, whose weighted mean the working-set solver minimizes (proximal Newton steps whose
curvatures and residuals carry the weights) and certifies (the weighted dual); the other solvers, the papers'
algorithms for the unweighted mean, refuse weights with a ValueError.  The cross-validated estimators weight each
fold's training rows the same way and weight its held-out score.
"""
from __future__ import annotations

import math
import numbers
import re
import warnings

import numpy as np
import scipy.sparse as sp
import sklearn
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils import check_random_state
from sklearn.utils.extmath import safe_sparse_dot
from sklearn.utils.multiclass import check_classification_targets

try:
    from sklearn.utils.validation import check_is_fitted, validate_data
except ImportError as err:  # validate_data and __sklearn_tags__ are scikit-learn 1.6's estimator API
    raise ImportError(f"l1lab.estimators needs scikit-learn >= 1.6; found {sklearn.__version__}") from err

from . import solvers
from ._validate import check_array, check_choice, check_real
from .links import smidas_p
from .problem import Problem, check_unweighted_problem

__all__ = ["L1Regressor", "L1Classifier", "L1RegressorCV", "L1ClassifierCV", "SOLVERS", "default_eta"]

#: solver name -> (l1lab solver function, family)
SOLVERS = {
    "working_set": (solvers.working_set_cd, "ws"),
    "scd": (solvers.scd, "cd"),
    "cyclic": (solvers.cyclic_cd, "cd"),
    "gcd": (solvers.gcd, "cd"),
    "smidas": (solvers.smidas, "sgd"),
    "truncgrad": (solvers.truncgrad, "sgd"),
    "sgd": (solvers.sgd, "sgd"),
}
#: default ``max_epochs`` per family: a cap for coordinate descent (which stops at ``tol``), the whole budget
#: of the stochastic-gradient solvers
DEFAULT_MAX_EPOCHS = {"ws": 10_000, "cd": 10_000, "sgd": 50}
#: default ``tol`` per family: the working-set solver's relative duality gap (tight, because a flat objective
#: leaves coefficients far less accurate than the objective: 1e-8 gave coefficient errors of 1.5e-5 on breast
#: cancer), coordinate descent's relative optimality residual
DEFAULT_TOL = {"ws": 1e-12, "cd": 1e-8, "sgd": None}
#: the values of ``scale``
SCALES = ("auto", "maxabs", None)
_RESERVED = {"n_iter", "seed", "eta", "tol", "problem", "max_epochs"}


def default_eta(problem, solver="smidas", p=None):
    r"""The default step size of the stochastic-gradient solvers: :math:`\eta = 1/(\beta\,(p-1)\max_i
    \|x_i\|_p^2)` (p = 2 for truncgrad and sgd; SMIDAS's p, default 2 ln d, otherwise).

    The loss of one example is :math:`\beta\|x_i\|_p^2`-smooth with respect to the norm
    :math:`\|\cdot\|_q` (q = p/(p-1)) in which the link's potential :math:`\frac12\|w\|_q^2` is
    (q - 1) = 1/(p - 1)-strongly convex, so this is the largest step for which every single-example step is a
    descent step on that example's loss.  It is the data-dependent form of the limit K -> infinity of
    Proposition 4's step :math:`\frac{2}{\kappa\rho}\frac{K}{1+K}` (:math:`2/\rho = 1/\beta` for both the
    squared and the logistic loss), with the worst case :math:`\kappa = (p-1)d^{2/p}` over x in [-1, 1]^d
    replaced by the data's :math:`(p-1)\max_i\|x_i\|_p^2`.  A constant step leaves the final iterate in a
    neighbourhood of the optimum whose size scales with eta; decrease eta (and raise ``max_epochs``) for more
    accuracy, or use a coordinate-descent solver, which converges.
    """
    check_unweighted_problem(problem)
    check_choice(solver, "solver", ("smidas", "truncgrad", "sgd"))
    if p is not None:
        check_real(p, "p (the link exponent)", low=2.0)
    if solver == "smidas":
        p = smidas_p(problem.d) if p is None else float(p)
    else:
        p = 2.0
    if problem.is_sparse:
        M = problem.csr
        norms = np.asarray(abs(M).power(p).sum(axis=1)).ravel()
    else:
        norms = (np.abs(problem.rows) ** p).sum(axis=1)
    r = float(norms.max()) ** (2.0 / p)
    beta = problem.loss.beta
    return 1.0 / (beta * (p - 1.0) * r) if r > 0 else 1.0 / beta


class _L1Base(BaseEstimator):
    """Parameters, validation and the solver call shared by the two estimators."""

    _loss = None

    def __init__(self, lam=1e-3, *, solver="working_set", fit_intercept=True, scale="auto", max_epochs=None, tol=None,
                 eta=None, random_state=0, solver_options=None):
        self.lam = lam
        self.solver = solver
        self.fit_intercept = fit_intercept
        self.scale = scale
        self.max_epochs = max_epochs
        self.tol = tol
        self.eta = eta
        self.random_state = random_state
        self.solver_options = solver_options

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags

    # ------------------------------------------------------------------ validation
    def _check_params(self):
        name = type(self).__name__
        if self.solver not in SOLVERS:
            raise ValueError(f"{name}: solver must be one of {sorted(SOLVERS)}, got {self.solver!r}")
        family = SOLVERS[self.solver][1]
        lam = _number(self.lam, "lam", name)
        if lam < 0:
            raise ValueError(f"{name}: lam must be a finite number >= 0, got {self.lam!r}")
        self._check_design_params()
        max_epochs = DEFAULT_MAX_EPOCHS[family] if self.max_epochs is None else self.max_epochs
        if isinstance(max_epochs, bool) or not isinstance(max_epochs, numbers.Real) or not (
                max_epochs > 0 and math.isfinite(max_epochs)):
            raise ValueError(f"{name}: max_epochs must be a finite number > 0 (passes over the data), "
                             f"got {self.max_epochs!r}")
        tol = DEFAULT_TOL[family] if self.tol is None else _number(self.tol, "tol", name)
        if tol is not None and tol <= 0:
            raise ValueError(f"{name}: tol must be None or a finite number > 0 (the relative duality gap or "
                             f"optimality residual at which the solver stops), got {self.tol!r}")
        eta = None
        if self.eta is not None:
            eta = _number(self.eta, "eta", name)
            if eta <= 0:
                raise ValueError(f"{name}: eta must be None or a finite number > 0, got {self.eta!r}")
            if family != "sgd":
                raise ValueError(f"{name}: eta is the step size of the stochastic-gradient solvers; "
                                 f"solver={self.solver!r} takes the step 1/beta of the theory (set beta with "
                                 "solver_options={'beta': ...})")
        opts = {} if self.solver_options is None else self.solver_options
        if not isinstance(opts, dict):
            raise ValueError(f"{name}: solver_options must be None or a dict, got {type(opts).__name__}")
        clash = _RESERVED & set(opts)
        if clash:
            raise ValueError(f"{name}: solver_options may not set {sorted(clash)}: use the estimator's "
                             "parameters (max_epochs, random_state, eta, tol)")
        return family, lam, float(max_epochs), tol, eta, dict(opts)

    def _check_design_params(self):
        """``fit_intercept`` and ``scale``, the parameters of the design matrix."""
        name = type(self).__name__
        if not isinstance(self.fit_intercept, (bool, np.bool_)):
            raise ValueError(f"{name}: fit_intercept must be True or False, got {self.fit_intercept!r}")
        if self.scale not in SCALES:
            raise ValueError(f"{name}: scale must be one of {SCALES}, got {self.scale!r}")

    def _check_fit_params(self, fit_params):
        if fit_params:
            raise TypeError(f"{type(self).__name__}.fit got unexpected keyword arguments {sorted(fit_params)}")

    def _seed(self):
        rs = self.random_state
        if isinstance(rs, numbers.Integral) and not isinstance(rs, (bool, np.bool_)):
            if rs < 0:
                raise ValueError(f"{type(self).__name__}: random_state must be None, an integer >= 0 or a "
                                 f"RandomState, got {rs!r}")
            return int(rs)
        if rs is not None and not isinstance(rs, np.random.RandomState):
            raise ValueError(f"{type(self).__name__}: random_state must be None, an integer >= 0 or a RandomState, "
                             f"got {rs!r}")
        return int(check_random_state(rs).randint(np.iinfo(np.int32).max))

    def _validate_X_y(self, X, y, **kwargs):
        _check_input(X, y)
        with _naming("X and y"):
            return validate_data(self, X, y, accept_sparse=("csr", "csc"), dtype=np.float64, **kwargs)

    # ------------------------------------------------------------------ design matrix
    def _design(self, X):
        """Scaled (or range-checked) X with the intercept column appended, the penalty weights and the
        per-feature scale factors (None: no column scaled)."""
        d = X.shape[1]
        factors = None
        if self.scale in ("maxabs", "auto"):
            if sp.issparse(X):
                big = np.asarray(abs(X).max(axis=0).todense()).ravel() if X.nnz else np.zeros(d)
            else:
                big = np.abs(X).max(axis=0) if X.size else np.zeros(d)
            if self.scale == "maxabs":
                factors = np.where(big > 0, big, 1.0)
            elif np.any(big > 1.0):
                factors = np.maximum(big, 1.0)   # only the columns that leave [-1, 1]
            if factors is not None and sp.issparse(X):
                X = sp.csc_matrix(X @ sp.diags(1.0 / factors))
                np.clip(X.data, -1.0, 1.0, out=X.data)  # rounding can leave 1 + 1 ulp
        else:
            values = X.data if sp.issparse(X) else X
            big = max(-float(values.min()), float(values.max())) if values.size else 0.0  # no |X| temporary
            if big > 1.0:
                raise ValueError(
                    f"features must lie in [-1, 1] (max |x_ij| = {big:.4g}), as the theory assumes with "
                    f"scale=None; pass scale='auto' (the default) or 'maxabs' to {type(self).__name__}, or use "
                    "l1lab.data.scale_features(X)")
        if sp.issparse(X):
            X = sp.csc_matrix(X)
            if self.fit_intercept:
                X = sp.hstack([X, sp.csc_matrix(np.ones((X.shape[0], 1)))], format="csc")
        elif not self.fit_intercept and factors is None:
            X = np.asfortranarray(X)  # Problem stores X^T: an F-ordered X is used as it is, without a copy
        else:
            cols = d + 1 if self.fit_intercept else d
            Xd = np.empty((X.shape[0], cols), order="F")  # Problem stores X^T: an F-ordered X needs no copy
            if factors is None:
                Xd[:, :d] = X
            else:
                np.divide(X, factors, out=Xd[:, :d])
                np.clip(Xd[:, :d], -1.0, 1.0, out=Xd[:, :d])  # rounding can leave 1 + 1 ulp
            if self.fit_intercept:
                Xd[:, d] = 1.0
            X = Xd
        weights = np.r_[np.ones(d), 0.0] if self.fit_intercept else None
        return X, weights, factors

    def _solve(self, X, y, weights, params, s=None):
        """Solve one problem (1) on the design matrix (with sample weights s: the weighted mean loss, for the
        working-set solver); returns (w, Result)."""
        family, lam, max_epochs, tol, eta, opts = params
        problem = Problem(X, y, self._loss, lam, penalty_weights=weights, sample_weight=s)
        fun = SOLVERS[self.solver][0]
        seed = self._seed()
        if family == "ws":
            if lam == 0:
                raise ValueError(f"{type(self).__name__}: lam=0 leaves no l1 problem for solver='working_set' (its "
                                 "duality gap needs lam > 0); pass lam > 0 or solver='cyclic'")
            result = fun(problem, tol=tol, max_epochs=max(1, int(max_epochs)), **opts)
            if not result.info["converged"]:
                warnings.warn(
                    f"{type(self).__name__}(solver='working_set') stopped with duality gap "
                    f"{result.info['gap']:.3g} > tol * P_null = {result.info['gap_target']:.3g}; increase "
                    "max_epochs or solver_options={'max_outer': ...} (or tol)", ConvergenceWarning, stacklevel=3)
        elif family == "cd":
            n_iter = max(1, int(math.ceil(max_epochs * problem.d)))
            kw = {"seed": seed} if self.solver == "scd" else {}
            result = fun(problem, n_iter, tol=tol, **kw, **opts)
            if not result.info["converged"]:
                warnings.warn(
                    f"{type(self).__name__}(solver={self.solver!r}) stopped after max_epochs={max_epochs:g} "
                    f"with relative optimality residual {result.info['residual']:.3g} > tol={tol:g}; "
                    "increase max_epochs (or tol)", ConvergenceWarning, stacklevel=3)
        else:
            n_iter = max(1, int(math.ceil(max_epochs * problem.m)))
            if eta is None:
                p = opts.get("p")
                if self.solver == "smidas" and p is None:
                    p = smidas_p(problem.d, rounded=bool(opts.get("p_rounded", False)))
                eta = default_eta(problem, self.solver, p)
            opts.setdefault("output", "average")
            result = fun(problem, n_iter, eta, seed=seed, **opts)
        return result.w, result

    def _unfold(self, w, factors):
        """(coef, intercept) on the original features from a solution w on the design matrix."""
        d = self.n_features_in_
        coef = w[:d].copy()
        if factors is not None:
            coef /= factors
        intercept = float(w[d]) if self.fit_intercept else 0.0
        return coef, intercept

    def _decision(self, X):
        check_is_fitted(self)
        _check_input(X)
        with _naming("X"):
            # C order: the same products, bit for bit, whatever the layout of the caller's X
            X = validate_data(self, X, accept_sparse=("csr", "csc"), dtype=np.float64, order="C", reset=False)
        return safe_sparse_dot(X, self.coef_.T, dense_output=True) + self.intercept_


def _check_input(X, y=None):
    """What scikit-learn's validation lets through or words without naming the argument: string dtypes (converted
    silently), the wrong number of dimensions, y of another length than X."""
    if not sp.issparse(X) and hasattr(X, "__len__"):
        kind = getattr(getattr(X, "dtype", None), "kind", None)
        if kind in ("U", "S"):
            raise TypeError(f"X must hold numbers, got an array of strings (dtype {X.dtype})")
        shape = np.shape(X) if kind is not None else None
        if shape is not None and len(shape) != 2:
            raise ValueError(f"X must be a 2-d array (n_samples, n_features), got shape {shape}. Reshape your data "
                             "with X.reshape(-1, 1) for a single feature or X.reshape(1, -1) for a single sample")
    if y is not None and hasattr(y, "__len__") and hasattr(X, "shape") and len(getattr(X, "shape", ())) == 2:
        if np.ndim(y) == 1 and len(y) != X.shape[0]:
            raise ValueError(f"y must have one entry per row of X: X has {X.shape[0]} rows, y has {len(y)} entries")


class _naming:
    """Re-raise scikit-learn's ValueErrors that do not name their argument with ``what`` in front."""

    def __init__(self, what):
        self.what = what

    def __enter__(self):
        return self

    def __exit__(self, kind, err, tb):
        if kind is ValueError and not re.search(r"\b[Xy]\b", str(err)):
            raise ValueError(f"{self.what}: {err}") from None
        return False


def _number(value, what, name):
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
        raise ValueError(f"{name}: {what} must be a finite number, got {value!r}")
    return float(value)


def _sample_weights(sample_weight, X, name):
    """The validated weights (None: unweighted) and the rows they keep (those of positive weight)."""
    if sample_weight is None:
        return None, None
    from sklearn.utils.validation import _check_sample_weight
    if getattr(np.asarray(sample_weight), "dtype", None) is not None and np.asarray(sample_weight).dtype.kind in "US":
        raise TypeError(f"{name}: sample_weight must hold numbers, got an array of strings")
    with _naming("sample_weight"):
        s = _check_sample_weight(sample_weight, X, dtype=np.float64, ensure_non_negative=True,
                                 allow_all_zero_weights=True)
    if not np.all(np.isfinite(s)):
        raise ValueError(f"{name}: sample_weight must be finite")
    keep = s > 0
    if not keep.any():
        raise ValueError(f"{name}: every sample_weight is zero (no positive entry: every row would be removed)")
    return s, keep


def _check_weighted_solver(est):
    if est.solver != "working_set":
        raise ValueError(
            f"{type(est).__name__}(solver={est.solver!r}) does not take sample_weight: that solver is one of the "
            "papers' algorithms, stated for the unweighted mean loss (1/m) sum_i L(<w, x_i> + b, y_i); "
            "solver='working_set' (the default) minimizes the weighted mean loss")


def _weigh_rows(Xd, y, s):
    """Fold the weights s (positive) into the squared loss: rows of the design and y times sqrt(s/max s); returns
    the new design, y, and the factor max(s)/mean(s) by which lam is divided."""
    s = s / s.mean()
    top = float(s.max())
    r = np.sqrt(s / top)
    if sp.issparse(Xd):
        Xw = sp.csc_matrix(sp.diags(r) @ Xd)
    else:
        Xw = np.asfortranarray(Xd * r[:, None])
    return Xw, y * r, top


_PARAMS_DOC = """
    Parameters
    ----------
    lam : float >= 0, default 1e-3
        The l1 penalty lambda of problem (1) (``alpha`` of ``Lasso``; ``1/(C m)`` of ``LogisticRegression``).
    solver : {"working_set", "scd", "cyclic", "gcd", "smidas", "truncgrad", "sgd"}, default "working_set"
        The l1lab solver (see the module docstring).
    fit_intercept : bool, default True
        Fit an unpenalized intercept, as a column of ones with penalty weight 0 (exact for every solver).
    scale : {"auto", "maxabs"} or None, default "auto"
        "auto": a column that leaves [-1, 1] is divided by its largest absolute value, the others are left as
        they are.  "maxabs": every column is divided by its largest absolute value.  None: features must lie in
        [-1, 1], as the theory assumes (ValueError otherwise).  The factors are kept in ``scale_`` and folded
        back into ``coef_``.
    max_epochs : float > 0, default None
        Passes over the data.  ``"working_set"``: at most ``max_epochs`` epochs over the working set (Newton
        steps for the logistic loss) per inner solve (default 10000, a cap).  Coordinate descent: at most
        ``max_epochs * d`` coordinate steps (default 10000 epochs, a cap: the run stops at ``tol``).
        Stochastic-gradient solvers: exactly ``max_epochs * m`` example steps (default 50 epochs, the whole
        budget).
    tol : float > 0 or None, default None
        ``"working_set"`` stops once its duality gap is at most ``tol`` times P at the null (intercept-only)
        model, which bounds the relative sub-optimality (None: 1e-12; an objective that is flat in some direction
        leaves the coefficients much less accurate than P, so the default is tight).  Coordinate descent (None:
        1e-8) stops at the first trace checkpoint, at least an epoch after the previous test, at which the
        relative optimality residual ``Problem.relative_residual`` (the l_inf norm of the minimum-norm
        sub-gradient of P over max(lambda_max, lam)) is at most ``tol``; a ConvergenceWarning if ``max_epochs``
        runs out first.  Ignored by the stochastic-gradient solvers, whose constant-step iterates do not
        converge to the optimum.
    eta : float > 0 or None, default None
        Step size of smidas, truncgrad and sgd; None: :func:`default_eta`, 1/(beta (p-1) max_i ||x_i||_p^2).
    random_state : int, RandomState or None, default 0
        Seed of the numpy Generator that draws the coordinate (scd) or example stream; an int is passed to the
        solver as its ``seed`` (same seed, same numbers as the l1lab solver); from None or a RandomState a seed
        is drawn.  Cyclic and greedy coordinate descent are deterministic and ignore it.
    solver_options : dict or None
        Further keyword arguments of the solver, e.g. ``{"anderson": 0}`` or ``{"max_outer": 500}``
        (``"working_set"``), ``{"beta": 0.5}`` or ``{"step": "coordinate"}`` (coordinate descent),
        ``{"output": "last"}`` (stochastic-gradient solvers; default here "average"), ``{"variant": "langford"}``
        (truncgrad), ``{"n_checkpoints": 100}`` (the trace's resolution).
"""


class L1Regressor(RegressorMixin, _L1Base):
    __doc__ = r"""Least squares with an l1 penalty (the Lasso) solved by an l1lab solver.

    Minimizes :math:`\frac{1}{2m}\sum_i(\langle w, x_i\rangle + b - y_i)^2 + \lambda\|w\|_1`, the objective of
    ``sklearn.linear_model.Lasso(alpha=lam)``.
""" + _PARAMS_DOC + """
    Attributes
    ----------
    coef_ : (n_features,) ndarray
        w, on the original (unscaled) features.
    scale_ : (n_features,) ndarray
        The factor each feature was divided by before the fit (1 for a column left as it is).
    intercept_ : float
        b (0.0 if ``fit_intercept=False``).
    n_iter_ : int
        Solver iterations run: coordinate steps (coordinate descent) or example steps.
    trace_ : l1lab.Trace
        The run's trace (objective P, nnz, data accesses, seconds at log-spaced checkpoints), on the problem
        actually solved (scaled features, intercept column).
    solver_info_ : dict
        The solver's ``Result.info`` (for coordinate descent also ``residual`` and ``converged``).
    n_features_in_, feature_names_in_ : as in scikit-learn.
    """

    _loss = "squared"

    def fit(self, X, y, sample_weight=None, **fit_params):
        """Fit on X (n_samples, n_features; dense or sparse) and targets y, with optional weights of the samples
        (a weighted mean loss; see the module docstring).  Returns self."""
        self._check_fit_params(fit_params)
        params = self._check_params()
        X, y = self._validate_X_y(X, y, y_numeric=True)
        s, keep = _sample_weights(sample_weight, X, type(self).__name__)
        if s is not None and not keep.all():
            X, y, s = X[keep], y[keep], s[keep]
        Xd, weights, factors = self._design(X)
        self.scale_ = np.ones(X.shape[1]) if factors is None else np.asarray(factors, dtype=np.float64)
        if s is not None:
            Xd, y, top = _weigh_rows(Xd, y, s)
            params = (params[0], params[1] / top, *params[2:])
        w, result = self._solve(Xd, y, weights, params)
        self.coef_, self.intercept_ = self._unfold(w, factors)
        self.n_iter_ = int(result.info["n_iter"])
        self.trace_ = result.trace
        self.solver_info_ = dict(result.info)
        return self

    def predict(self, X):
        """<coef_, x> + intercept_ for every row of X."""
        return self._decision(X)


class L1Classifier(ClassifierMixin, _L1Base):
    __doc__ = r"""l1-regularized logistic regression solved by an l1lab solver.

    Minimizes :math:`\frac{1}{m}\sum_i \log(1 + e^{-y_i(\langle w, x_i\rangle + b)}) + \lambda\|w\|_1` with the
    labels mapped to y_i in {-1, +1}: ``classes_[1]`` is +1, ``classes_[0]`` is -1 (labels of any type).  More
    than two classes: one binary problem per class (one-vs-rest), the predicted class the one with the largest
    decision value.  The objective is that of ``LogisticRegression(penalty="l1", C=1/(m lam))`` divided by
    C m, with the intercept unpenalized.
""" + _PARAMS_DOC + """
    Attributes
    ----------
    classes_ : (n_classes,) ndarray
        The labels seen in fit, sorted.
    coef_ : (1, n_features) or (n_classes, n_features) ndarray
        w of each binary problem on the original features (one row for two classes).
    scale_ : (n_features,) ndarray
        The factor each feature was divided by before the fit (1 for a column left as it is).
    intercept_ : (1,) or (n_classes,) ndarray
    n_iter_ : (1,) or (n_classes,) ndarray of int
        Solver iterations run for each binary problem.
    trace_ : list of l1lab.Trace
        One trace per binary problem (length 1 for two classes), in the order of ``coef_``'s rows.
    solver_info_ : list of dict
        The solver's ``Result.info`` of each binary problem.
    n_features_in_, feature_names_in_ : as in scikit-learn.
    """

    _loss = "logistic"

    def fit(self, X, y, sample_weight=None, **fit_params):
        """Fit on X (n_samples, n_features; dense or sparse) and labels y, with optional weights of the samples (a
        weighted mean loss, solver="working_set" only; see the module docstring).  Returns self."""
        self._check_fit_params(fit_params)
        params = self._check_params()
        X, y = self._validate_X_y(X, y)
        check_classification_targets(y)
        s, keep = _sample_weights(sample_weight, X, type(self).__name__)
        if s is not None:
            _check_weighted_solver(self)
            if not keep.all():
                X, y, s = X[keep], y[keep], s[keep]
        classes = np.unique(y)
        if classes.size < 2:
            raise ValueError(f"{type(self).__name__} needs samples of at least two classes; the data contain "
                             f"one class: {classes[0]!r}")
        Xd, weights, factors = self._design(X)
        self.scale_ = np.ones(X.shape[1]) if factors is None else np.asarray(factors, dtype=np.float64)
        positives = classes[1:] if classes.size == 2 else classes
        coefs, intercepts, n_iter, traces, infos = [], [], [], [], []
        for c in positives:
            w, result = self._solve(Xd, np.where(y == c, 1.0, -1.0), weights, params, s)
            coef, b = self._unfold(w, factors)
            coefs.append(coef)
            intercepts.append(b)
            n_iter.append(int(result.info["n_iter"]))
            traces.append(result.trace)
            infos.append(dict(result.info))
        self.classes_ = classes
        self.coef_ = np.vstack(coefs)
        self.intercept_ = np.array(intercepts)
        self.n_iter_ = np.array(n_iter, dtype=np.int64)
        self.trace_ = traces
        self.solver_info_ = infos
        return self

    def decision_function(self, X):
        """<coef_, x> + intercept_: shape (n_samples,) for two classes (positive: ``classes_[1]``), else
        (n_samples, n_classes)."""
        scores = self._decision(X)
        return scores.ravel() if scores.shape[1] == 1 else scores

    def predict(self, X):
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return self.classes_[(scores > 0).astype(int)]
        return self.classes_[np.argmax(scores, axis=1)]

    def predict_proba(self, X):
        """Two classes: [1 - s, s] with s = sigmoid(decision), the model's probability.  More classes: the
        one-vs-rest sigmoids normalized to sum to 1 (as scikit-learn's one-vs-rest LogisticRegression)."""
        scores = self.decision_function(X)
        if scores.ndim == 1:
            s = _sigmoid(scores)
            return np.column_stack([1.0 - s, s])
        s = _sigmoid(scores)
        return s / s.sum(axis=1, keepdims=True)

    def predict_log_proba(self, X):
        return np.log(self.predict_proba(X))


def _sigmoid(t):
    return 0.5 * (1.0 + np.tanh(0.5 * t))  # overflow-free 1 / (1 + e^-t)


# ============================================================================================ cross-validation
#: the relative duality gap of the paths solved on the folds (``cv_tol=None``), half LassoCV's default criterion
#: (its tol=1e-4 bounds the gap by 2e-4 P_null): a path solution's held-out score then moves by far less than the
#: scores' spread over the folds (benchmarks/bench_cv.py and the estimators appendix compare the choices with those
#: of tighter settings); the refit at the chosen lam uses ``tol`` (default: the single estimator's 1e-12)
DEFAULT_CV_TOL = 1e-4
_PATH_OPTIONS = ("max_outer", "ws_start", "anderson", "inner")


class _L1CVBase(_L1Base):
    """lam chosen by K-fold cross-validation over a geometric grid, each fold's path warm-started
    (:func:`l1lab.solvers.regularization_path`), then a refit on all the data at the chosen lam."""

    _single = None

    def __init__(self, *, lams=None, n_lams=100, eps=1e-3, cv=5, scoring=None, n_jobs=None, fit_intercept=True,
                 scale="auto", max_epochs=None, tol=None, cv_tol=None, solver_options=None):
        self.lams = lams
        self.n_lams = n_lams
        self.eps = eps
        self.cv = cv
        self.scoring = scoring
        self.n_jobs = n_jobs
        self.fit_intercept = fit_intercept
        self.scale = scale
        self.max_epochs = max_epochs
        self.tol = tol
        self.cv_tol = cv_tol
        self.solver_options = solver_options

    def _check_cv_params(self):
        name = type(self).__name__
        self._check_design_params()
        if self.lams is None:
            if isinstance(self.n_lams, (bool, np.bool_)) or not isinstance(self.n_lams, numbers.Integral) \
                    or self.n_lams < 1:
                raise ValueError(f"{name}: n_lams must be an integer >= 1, got {self.n_lams!r}")
            eps = _number(self.eps, "eps", name)
            if not 0 < eps <= 1:
                raise ValueError(f"{name}: eps (the smallest lam of the grid over lambda_max) must be in (0, 1], "
                                 f"got {self.eps!r}")
        else:
            try:
                lams = check_array(self.lams, "lams (the grid of lam)", allow_empty=True, finite=False)
            except (TypeError, ValueError) as err:
                raise type(err)(f"{name}: {err}") from None
            if lams.size == 0 or not np.all(np.isfinite(lams)) or np.any(lams <= 0):
                raise ValueError(f"{name}: lams must be None or a non-empty list of finite numbers > 0, "
                                 f"got {self.lams!r}")
        for what in ("tol", "cv_tol"):
            value = getattr(self, what)
            if value is not None and _number(value, what, name) <= 0:
                raise ValueError(f"{name}: {what} must be None or a finite number > 0, got {value!r}")
        if self.max_epochs is not None and (_number(self.max_epochs, "max_epochs", name) <= 0):
            raise ValueError(f"{name}: max_epochs must be None or a finite number > 0, got {self.max_epochs!r}")
        opts = {} if self.solver_options is None else self.solver_options
        if not isinstance(opts, dict):
            raise ValueError(f"{name}: solver_options must be None or a dict, got {type(opts).__name__}")
        unknown = set(opts) - set(_PATH_OPTIONS)
        if unknown:
            raise ValueError(f"{name}: solver_options may set only {list(_PATH_OPTIONS)} (the working-set "
                             f"solver's options); got {sorted(unknown)}")
        if self.n_jobs is not None and (isinstance(self.n_jobs, (bool, np.bool_)) or not isinstance(
                self.n_jobs, numbers.Integral) or self.n_jobs == 0):
            raise ValueError(f"{name}: n_jobs must be None or a nonzero integer (-1: every core), got {self.n_jobs!r}")
        if self.scoring is not None and not isinstance(self.scoring, str) and not callable(self.scoring):
            raise ValueError(f"{name}: scoring must be None, a scikit-learn scorer name or a callable "
                             f"scorer(estimator, X, y), got {self.scoring!r}")
        return dict(opts)

    def _grid(self, Xd, targets, weights, s=None):
        if self.lams is not None:
            return np.sort(np.asarray(self.lams, dtype=np.float64))[::-1].copy()
        if s is None or self._loss != "squared":
            lmax = max(Problem(Xd, t, self._loss, 1.0, penalty_weights=weights, sample_weight=s).lambda_max
                       for t in targets)
        else:
            Xw, yw, top = _weigh_rows(Xd, targets[0], s)
            lmax = Problem(Xw, yw, self._loss, 1.0, penalty_weights=weights).lambda_max * top
        if not lmax > 0:
            raise ValueError(f"{type(self).__name__}: lambda_max is 0 on these data (the null model is optimal for "
                             "every lam): there is no lam to choose")
        return lmax * np.geomspace(1.0, float(self.eps), int(self.n_lams))

    def _cross_validate(self, X, y, Xd, weights, factors, targets, opts, s=None):
        """Per fold and lam, the held-out score of the path's solution (higher is better); the paths' gaps.  With
        sample weights ``s``, each fold's training rows are weighted as in the single estimator (folded into the
        rows for the squared loss, the Problem's weights for the logistic loss) and its held-out score is weighted
        too."""
        from joblib import Parallel, delayed
        from sklearn.metrics import check_scoring
        from sklearn.model_selection import check_cv

        is_classifier = self._loss == "logistic"
        cv = check_cv(self.cv, y, classifier=is_classifier)
        folds = list(cv.split(X, y))
        lams = self._grid(Xd, targets, weights, s)
        tol = DEFAULT_CV_TOL if self.cv_tol is None else float(self.cv_tol)
        max_epochs = 10_000 if self.max_epochs is None else max(1, int(self.max_epochs))
        rows = sp.csr_matrix(Xd) if sp.issparse(Xd) else Xd
        for train, _ in folds:
            if is_classifier and any(np.unique(t[train]).size < 2 for t in targets):
                raise ValueError(f"{type(self).__name__}: a training fold holds a single class; use fewer folds "
                                 "(cv) or a stratified splitter")
        def fold_problem(train):
            if s is None:
                return rows[train], [t[train] for t in targets], 1.0, None
            if self._loss != "squared":
                return rows[train], [t[train] for t in targets], 1.0, s[train]
            Xw, yw, top = _weigh_rows(rows[train], targets[0][train], s[train])
            return Xw, [yw], top, None

        jobs = [fold_problem(train) for train, _ in folds]
        paths = Parallel(n_jobs=self.n_jobs)(
            delayed(_fold_paths)(Xf, tf, weights, self._loss, lams / top, tol, max_epochs, opts, sf)
            for Xf, tf, top, sf in jobs)
        paths = [(coefs, fold_gaps * top) for (coefs, fold_gaps), (_, _, top, _) in zip(paths, jobs)]
        scorer = None if self.scoring is None else check_scoring(self, scoring=self.scoring)
        scores = np.empty((lams.size, len(folds)))
        gaps = np.empty((lams.size, len(folds)))
        for f, ((train, test), (coefs, fold_gaps)) in enumerate(zip(folds, paths)):
            gaps[:, f] = np.max(fold_gaps, axis=0)
            held_out = None if s is None else {"sample_weight": s[test]}
            if scorer is None:
                scores[:, f] = self._default_scores(rows[test], y[test], coefs, **(held_out or {}))
            else:
                Xt = X[test]
                for k in range(lams.size):
                    scores[k, f] = scorer(self._at(coefs, k, lams[k], factors), Xt, y[test], **(held_out or {}))
        return lams, scores, gaps

    def _at(self, coefs, k, lam, factors):
        """A fitted single estimator with the k-th solution of a fold's path (for a scorer)."""
        est = self._single(lam=float(lam), fit_intercept=self.fit_intercept, scale=self.scale)
        est.n_features_in_ = self.n_features_in_
        est.scale_ = self.scale_
        pairs = [self._unfold(c[:, k], factors) for c in coefs]
        if self._loss == "squared":
            est.coef_, est.intercept_ = pairs[0]
        else:
            est.classes_ = self.classes_
            est.coef_ = np.vstack([c for c, _ in pairs])
            est.intercept_ = np.array([b for _, b in pairs])
        return est

    def _refit(self, X, y, lam, opts, s=None):
        est = self._single(lam=float(lam), fit_intercept=self.fit_intercept, scale=self.scale,
                           max_epochs=self.max_epochs, tol=self.tol, solver_options=opts or None)
        est.fit(X, y) if s is None else est.fit(X, y, sample_weight=s)
        for attr in ("coef_", "intercept_", "scale_", "n_iter_", "trace_", "solver_info_"):
            setattr(self, attr, getattr(est, attr))

    def _fit_cv(self, X, y, targets, fit_params, s=None):
        self._check_fit_params(fit_params)
        opts = self._check_cv_params()
        Xd, weights, factors = self._design(X)
        self.scale_ = np.ones(X.shape[1]) if factors is None else np.asarray(factors, dtype=np.float64)
        lams, scores, gaps = self._cross_validate(X, y, Xd, weights, factors, targets, opts, s)
        mean = scores.mean(axis=1)
        best = int(np.argmax(mean))        # ties: the first, i.e. the largest lam (the sparsest model)
        self.lams_ = lams
        self.scores_path_ = scores
        self.path_gaps_ = gaps
        self.lam_ = float(lams[best])
        self.best_score_ = float(mean[best])
        self._refit(X, y, self.lam_, opts, s)
        return self


def _fold_paths(Xd, targets, weights, loss, lams, tol, max_epochs, opts, s=None):
    """The regularization path of one fold's training rows (sample weights ``s`` or None), for every binary
    target: (coefs, gaps) with coefs a list of (d, n_lams) arrays and gaps of shape (n_targets, n_lams)."""
    coefs, gaps = [], []
    for t in targets:
        problem = Problem(Xd, t, loss, float(lams[0]), penalty_weights=weights, sample_weight=s)
        path = solvers.regularization_path(problem, lams=lams, tol=tol, max_epochs=max_epochs, **opts)
        coefs.append(path.coefs)
        gaps.append(path.gaps)
    return coefs, np.array(gaps)


_CV_PARAMS_DOC = """
    Parameters
    ----------
    lams : array of float > 0 or None, default None
        The grid of lam (sorted in decreasing order); None: ``n_lams`` values geometrically spaced from
        lambda_max of all the data (the smallest lam at which every coefficient is 0) down to ``eps`` times it,
        as LassoCV's ``alphas``.
    n_lams : int >= 1, default 100
    eps : float in (0, 1], default 1e-3
    cv : int, cross-validation splitter or iterable of (train, test) indices, default 5
        As in scikit-learn (``check_cv``): an int is K-fold, stratified for the classifier.
    scoring : None, str or callable, default None
        How a held-out fold is scored (higher is better).  None: {default_scoring}.  A scikit-learn scorer name or
        ``scorer(estimator, X, y)`` otherwise.
    n_jobs : int or None, default None
        Folds solved in parallel with joblib (None: one at a time).
    fit_intercept, scale :
        As in :class:`{single}`.
    max_epochs : float > 0 or None, default None
        Per solve of the working-set solver, at most this many epochs over the working set (default 10000).
    tol : float > 0 or None, default None
        The relative duality gap of the refit on all data at the chosen lam (None: 1e-12, as :class:`{single}`).
    cv_tol : float > 0 or None, default None
        The relative duality gap of the paths solved on the folds (None: 1e-4, half LassoCV's default criterion):
        enough to rank the lams, whose held-out scores differ far more between folds than a sub-optimality of
        1e-4 P_null moves them; lower it to compare scores more finely (each path costs more).
    solver_options : dict or None
        Options of :func:`l1lab.solvers.working_set_cd` (``max_outer``, ``ws_start``, ``anderson``, ``inner``).

    Attributes
    ----------
    lam_ : float
        The chosen lam: the largest of those with the best mean score over the folds.
    lams_ : (n_lams,) ndarray
        The grid, decreasing.
    scores_path_ : (n_lams, n_folds) ndarray
        The held-out score of each lam on each fold.
    best_score_ : float
        The mean score of ``lam_``.
    path_gaps_ : (n_lams, n_folds) ndarray
        The certified duality gap of each path solution (0 above a fold's lambda_max, where the null model is
        exact).
    coef_, intercept_, scale_, n_iter_, trace_, solver_info_ :
        Of the refit on all data at ``lam_``, as in :class:`{single}`.
    n_features_in_, feature_names_in_ : as in scikit-learn.
"""


class L1RegressorCV(RegressorMixin, _L1CVBase):
    __doc__ = r"""The Lasso with lam chosen by cross-validation (l1lab's LassoCV).

    Each fold's regularization path is solved by the working-set solver, each lam warm-started at the previous
    solution, to a certified relative duality gap ``cv_tol``; the lam with the smallest mean held-out squared
    error is refit on all data (:class:`L1Regressor`).
""" + _CV_PARAMS_DOC.format(default_scoring="minus the mean squared error (the lam of smallest MSE, as LassoCV)",
                            single="L1Regressor") + """
    mse_path_ : (n_lams, n_folds) ndarray
        The held-out mean squared errors (``scoring=None`` only), as LassoCV's.
    """

    _loss = "squared"
    _single = L1Regressor

    def fit(self, X, y, sample_weight=None, **fit_params):
        """Choose lam by cross-validation on X (dense or sparse) and y, with optional weights of the samples (the
        paths minimize the weighted mean loss, the held-out errors are weighted), then refit.  Returns self."""
        X, y = self._validate_X_y(X, y, y_numeric=True)
        s, keep = _sample_weights(sample_weight, X, type(self).__name__)
        if s is not None and not keep.all():
            X, y, s = X[keep], y[keep], s[keep]
        self._fit_cv(X, y, [y], fit_params, s)
        if self.scoring is None:
            self.mse_path_ = -self.scores_path_
        return self

    def _default_scores(self, Xt, yt, coefs, sample_weight=None):
        residual = safe_sparse_dot(Xt, coefs[0], dense_output=True) - yt[:, None]
        return -np.average(residual ** 2, axis=0, weights=sample_weight)

    def predict(self, X):
        """<coef_, x> + intercept_ for every row of X."""
        return self._decision(X)


class L1ClassifierCV(ClassifierMixin, _L1CVBase):
    __doc__ = r"""l1-regularized logistic regression with lam chosen by cross-validation (l1lab's
    ``LogisticRegressionCV(penalty="l1")``).

    As :class:`L1RegressorCV` for the logistic loss: each fold's path for each binary problem (one-vs-rest beyond
    two classes, one lam for all classes), the lam with the best mean held-out accuracy (or ``scoring``) refit on
    all data (:class:`L1Classifier`).  Beyond two classes the grid starts at the largest lambda_max of the
    binary problems.
""" + _CV_PARAMS_DOC.format(default_scoring="the accuracy, as LogisticRegressionCV", single="L1Classifier") + """
    classes_ : (n_classes,) ndarray
    """

    _loss = "logistic"
    _single = L1Classifier

    def fit(self, X, y, sample_weight=None, **fit_params):
        """Choose lam by cross-validation on X (dense or sparse) and labels y, with optional weights of the samples
        (the paths minimize the weighted mean loss, the held-out scores are weighted), then refit.  Returns self."""
        X, y = self._validate_X_y(X, y)
        check_classification_targets(y)
        s, keep = _sample_weights(sample_weight, X, type(self).__name__)
        if s is not None and not keep.all():
            X, y, s = X[keep], y[keep], s[keep]
        classes = np.unique(y)
        if classes.size < 2:
            raise ValueError(f"{type(self).__name__} needs samples of at least two classes; the data contain "
                             f"one class: {classes[0]!r}")
        self.classes_ = classes
        positives = classes[1:] if classes.size == 2 else classes
        targets = [np.where(y == c, 1.0, -1.0) for c in positives]
        return self._fit_cv(X, y, targets, fit_params, s)

    def _default_scores(self, Xt, yt, coefs, sample_weight=None):
        decisions = np.stack([safe_sparse_dot(Xt, c, dense_output=True) for c in coefs])  # (targets, n, lams)
        if len(coefs) == 1:
            predicted = self.classes_[(decisions[0] > 0).astype(int)]
        else:
            predicted = self.classes_[np.argmax(decisions, axis=0)]
        return np.average(predicted == yt[:, None], axis=0, weights=sample_weight)

    decision_function = L1Classifier.decision_function
    predict = L1Classifier.predict
    predict_proba = L1Classifier.predict_proba
    predict_log_proba = L1Classifier.predict_log_proba
