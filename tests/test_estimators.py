"""scikit-learn estimators (l1lab.estimators) and the penalty weights behind their unpenalized intercept.

The mathematics stated here: the estimators minimize problem (1) with an unpenalized intercept, so they agree
with scikit-learn's Lasso / l1 LogisticRegression and with l1lab's own reference solver; at their solution the
KKT conditions hold (the intercept's partial derivative vanishes); the weighted kernels follow the weighted
updates step by step; and without penalty weights every solver gives bit-for-bit the numbers it gave before.
"""
import math
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import load_breast_cancer, load_diabetes
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import Lasso, LogisticRegression
from sklearn.model_selection import GridSearchCV, cross_val_score
from sklearn.multiclass import OneVsRestClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import MaxAbsScaler
from sklearn.utils.estimator_checks import parametrize_with_checks

from l1lab import Problem, reference_solution, solvers
from l1lab.data import make_classification, make_regression, scale_features
from l1lab.estimators import SOLVERS, L1Classifier, L1Regressor, default_eta
from l1lab.links import link_inverse, smidas_p
from l1lab.losses import soft_threshold
from l1lab.trace import Trace

CD = ("working_set", "scd", "cyclic", "gcd")
STOCHASTIC = ("smidas", "truncgrad", "sgd")
L1_LOGISTIC = {"l1_ratio": 1.0}  # scikit-learn >= 1.8 spelling of penalty="l1"


# ---------------------------------------------------------------------------------------- estimator checks
# The default instances of both estimators (solver="working_set"), every other solver, and fit_intercept=False:
# the checks feed data far outside [-1, 1] (blobs, iris, 3 * uniform), which the default scale="auto" scales column
# by column (scale=None, the theory's assumption enforced, rejects them: test_out_of_range_features_are_rejected);
# scale="maxabs" is checked too.  Both estimators take sample weights.  The expected failures: for L1Regressor, the
# checks that weights equal repeated rows for the solvers that do not reach the optimum on the checks' data (the
# papers' coordinate descent (global step 1/beta) stops at max_epochs there (a ConvergenceWarning), the
# stochastic-gradient solvers run a fixed budget); for L1Classifier, every sample-weight check of those solvers,
# which refuse weights with a ValueError (the papers' algorithms for the unweighted mean loss).  The equivalence
# holds at the optimum, which "working_set" reaches (checked here, and in tests/test_estimators_weights.py).
# Budgets are the defaults: the checks' data are small.
CHECKED = ([L1Regressor(), L1Classifier()]
           + [E(solver=s) for E in (L1Regressor, L1Classifier) for s in SOLVERS if s != "working_set"]
           + [L1Regressor(fit_intercept=False), L1Classifier(fit_intercept=False)]
           + [L1Regressor(scale="maxabs"), L1Classifier(scale="maxabs")])
_NOT_AT_THE_OPTIMUM = ("weights equal repeated rows at the optimum; this solver stops short of it on the "
                       "check's data (max_epochs or a fixed budget)")
EXPECTED_FAILED_CHECKS = {f"check_sample_weight_equivalence_on_{kind}_data": _NOT_AT_THE_OPTIMUM
                          for kind in ("dense", "sparse")}


_REFUSES_WEIGHTS = "this solver (one of the papers', for the unweighted mean) refuses sample_weight with a ValueError"
CLASSIFIER_WEIGHT_CHECKS = ("check_sample_weights_pandas_series", "check_sample_weights_not_an_array",
                            "check_sample_weights_list", "check_sample_weights_shape",
                            "check_sample_weights_not_overwritten", "check_sample_weight_equivalence_on_dense_data",
                            "check_sample_weight_equivalence_on_sparse_data", "check_sample_weights_invariance",
                            "check_classifiers_one_label_sample_weights")


def _expected_failures(est):
    if est.solver == "working_set":
        return {}
    if isinstance(est, L1Regressor):
        return EXPECTED_FAILED_CHECKS
    return dict.fromkeys(CLASSIFIER_WEIGHT_CHECKS, _REFUSES_WEIGHTS)


# Several checks fit the logistic loss with lam = 1e-3 on linearly separable blobs, where the optimum has
# large coefficients and coordinate descent hits max_epochs before tol: a ConvergenceWarning, by design.
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@parametrize_with_checks(CHECKED, expected_failed_checks=_expected_failures, xfail_strict=True)
def test_sklearn_estimator_checks(estimator, check):
    check(estimator)


# ---------------------------------------------------------------------------------------- fixed problems
@pytest.fixture(scope="module")
def synthetic_classification():
    X, y, _ = make_classification(300, 50, 5, flip=0.1, seed=0)
    return X, y


@pytest.fixture(scope="module")
def breast_cancer():
    X, y = load_breast_cancer(return_X_y=True)
    return scale_features(X), y


@pytest.fixture(scope="module")
def diabetes():
    X, y = load_diabetes(return_X_y=True)
    return scale_features(X), (y - y.mean()) / y.std()


@pytest.fixture(scope="module")
def liblinear_fit(synthetic_classification):
    """LogisticRegression(penalty='l1', C=1/(m lam), liblinear) on the synthetic problem at lam = 0.01; checked
    against l1lab's reference solver, so that the comparisons below compare with an exact answer."""
    X, y = synthetic_classification
    lam = 0.01
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # liblinear's iteration cap at tol = 1e-14
        ref = _liblinear_estimator(X.shape[0], lam).fit(X, y)
    w, _ = reference_solution(Problem(X, y, "logistic", lam), 1e-13)
    assert np.max(np.abs(ref.coef_[0] - w)) <= 1e-10
    return lam, ref


def _with_intercept(X, y, loss, lam):
    """Problem (1) with an intercept column of penalty weight 0, built independently of the estimators."""
    Xd = np.hstack([X.toarray() if sp.issparse(X) else X, np.ones((X.shape[0], 1))])
    return Problem(Xd, y, loss, lam, penalty_weights=np.r_[np.ones(X.shape[1]), 0.0])


# ---------------------------------------------------------------------------------------- sklearn agreement
@pytest.mark.parametrize("solver", CD)
def test_classifier_matches_liblinear(solver, synthetic_classification, liblinear_fit):
    """Default parameters: the coefficients of LogisticRegression(penalty='l1', C=1/(m lam)) to 1e-6 (measured:
    scd 1.5e-8, cyclic 3.5e-9, gcd 4e-11)."""
    X, y = synthetic_classification
    lam, ref = liblinear_fit
    est = L1Classifier(lam=lam, solver=solver, fit_intercept=False).fit(X, y)
    assert np.count_nonzero(ref.coef_) >= 10
    assert np.max(np.abs(est.coef_ - ref.coef_)) <= 1e-6
    assert est.solver_info_[0]["converged"]


@pytest.mark.parametrize("data", ["synthetic", "breast_cancer"])
def test_classifier_with_intercept_matches_saga_and_the_reference(data, synthetic_classification, breast_cancer):
    """The unpenalized intercept: liblinear penalizes its intercept, saga does not; both saga (at a tight
    tolerance) and l1lab's reference solver on the weighted problem agree with SCD to 1e-6."""
    if data == "synthetic":  # labels with an offset, so that the intercept matters
        X, _ = synthetic_classification
        rng = np.random.default_rng(1)
        y = np.where(X[:, :5] @ np.ones(5) + 0.8 + 0.3 * rng.standard_normal(X.shape[0]) > 0, 1, -1)
        lam = 0.01
    else:
        (X, y), lam = breast_cancer, 0.03
    m = X.shape[0]
    est = L1Classifier(lam=lam).fit(X, y)
    saga = LogisticRegression(C=1.0 / (m * lam), solver="saga", tol=1e-13, max_iter=1_000_000,
                              **L1_LOGISTIC).fit(X, y)
    w, _ = reference_solution(_with_intercept(X, np.where(y == 1, 1.0, -1.0), "logistic", lam), 1e-12)
    for coef, b in ((saga.coef_[0], saga.intercept_[0]), (w[:-1], w[-1])):
        assert np.max(np.abs(est.coef_[0] - coef)) <= 1e-6
        assert abs(est.intercept_[0] - b) <= 1e-6
    assert abs(w[-1]) > 0.3 and np.count_nonzero(w[:-1]) >= (5 if data == "synthetic" else 1)


@pytest.mark.parametrize("solver", CD)
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_regressor_matches_lasso(solver, fit_intercept, diabetes):
    """Lasso(alpha=lam) to 1e-6 (measured: 3e-8 or better; the intercept to 1e-15)."""
    X, y = diabetes
    lam = 0.005
    est = L1Regressor(lam=lam, solver=solver, fit_intercept=fit_intercept).fit(X, y + 0.7)
    ref = Lasso(alpha=lam, fit_intercept=fit_intercept, tol=1e-14, max_iter=1_000_000).fit(X, y + 0.7)
    assert np.count_nonzero(ref.coef_) >= 5
    assert np.max(np.abs(est.coef_ - ref.coef_)) <= 1e-6
    assert abs(est.intercept_ - ref.intercept_) <= 1e-6


def test_multiclass_one_vs_rest_matches_sklearn():
    X, y = load_breast_cancer(return_X_y=True)
    X = scale_features(X[:, :8])
    labels = np.array(["low", "mid", "high"])[np.digitize(X[:, 0], [0.25, 0.35])]
    lam = 0.02
    est = L1Classifier(lam=lam, fit_intercept=False).fit(X, labels)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # liblinear's iteration cap at tol = 1e-14
        ovr = OneVsRestClassifier(_liblinear_estimator(X.shape[0], lam)).fit(X, labels)
    np.testing.assert_array_equal(est.classes_, ["high", "low", "mid"])
    coef = np.vstack([e.coef_ for e in ovr.estimators_])
    assert est.coef_.shape == (3, 8) and est.intercept_.shape == (3,) and est.n_iter_.shape == (3,)
    assert len(est.trace_) == 3 and all(isinstance(t, Trace) for t in est.trace_)
    assert np.max(np.abs(est.coef_ - coef)) <= 1e-6
    np.testing.assert_array_equal(est.predict(X), ovr.predict(X))
    proba = est.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    np.testing.assert_array_equal(est.classes_[proba.argmax(axis=1)], est.predict(X))


def _liblinear_estimator(m, lam):
    return LogisticRegression(C=1.0 / (m * lam), fit_intercept=False, solver="liblinear", tol=1e-14,
                              max_iter=100_000, **L1_LOGISTIC)


@pytest.mark.parametrize("solver", STOCHASTIC)
def test_stochastic_solvers_get_close_on_a_fixed_budget(solver, synthetic_classification, diabetes):
    """Fixed budget (50 epochs), default step: the averaged iterate (the default output; Theorem 3 bounds its
    expected gap) closes 90% of the gap P(0) - P*; the last iterate, which a constant step leaves in a
    noise ball, at least improves on w = 0."""
    for E, (X, y), loss in ((L1Classifier, synthetic_classification, "logistic"), (L1Regressor, diabetes, "squared")):
        ys = y if loss == "squared" else np.where(y == y.max(), 1.0, -1.0)
        prob = _with_intercept(X, ys, loss, 0.01)
        _, p_star = reference_solution(prob)
        p0 = prob.objective(np.zeros(prob.d))
        for output, slack in (("average", 0.1), ("last", 1.0)):
            est = E(lam=0.01, solver=solver, solver_options={"output": output}).fit(X, y)
            coef = np.ravel(est.coef_)
            w = np.r_[coef, np.ravel(est.intercept_)]
            gap = prob.objective(w) - p_star
            assert 0 <= gap <= slack * (p0 - p_star), (E.__name__, output, gap / p0)
            trace = est.trace_[0] if isinstance(est.trace_, list) else est.trace_
            assert trace.objective[-1] == pytest.approx(prob.objective(w), rel=1e-9)


# ---------------------------------------------------------------------------------------- the intercept
@pytest.mark.parametrize("solver", CD)
def test_kkt_conditions_hold_at_the_fitted_model(solver, breast_cancer, diabetes):
    """At the optimum the partial derivative in the intercept is 0 and |g_j| <= lam, = -lam sign(w_j) on the
    support (g = grad C): checked on the original (unscaled) features, i.e. through the maxabs folding."""
    for E, (Xs, y), lam in ((L1Classifier, breast_cancer, 0.03), (L1Regressor, diabetes, 0.01)):
        X = Xs * np.linspace(1.0, 30.0, Xs.shape[1])  # out of [-1, 1]: scale="maxabs" is needed
        est = E(lam=lam, solver=solver, scale="maxabs").fit(X, y)
        coef, b = np.ravel(est.coef_), float(np.ravel(est.intercept_)[0])
        z = X @ coef + b
        if E is L1Classifier:
            yy = np.where(y == est.classes_[1], 1.0, -1.0)
            dL = -yy / (1.0 + np.exp(yy * z))
        else:
            dL = z - y
        assert abs(dL.mean()) <= 1e-8  # d/db of C
        # the penalty acts on the scaled coefficients w_j c_j: g_j / c_j against lam
        c = np.abs(X).max(axis=0)
        g = (X.T @ dL / X.shape[0]) / c
        on = coef != 0
        assert on.sum() >= 1
        np.testing.assert_allclose(g[on], -lam * np.sign(coef[on]), atol=1e-8)
        assert np.all(np.abs(g[~on]) <= lam + 1e-8)


@pytest.mark.parametrize("solver", SOLVERS)
def test_intercept_survives_any_penalty(solver, diabetes, breast_cancer):
    """lam above lambda_max zeroes every coefficient; the unpenalized intercept then fits the null model
    (mean of y; the log-odds of the positive class): for coordinate descent to the stopping rule's accuracy (its
    residual is relative to max(lambda_max, lam)).  The stochastic solvers never truncate it, and their averaged
    iterate approaches it up to the O(eta) bias of a constant step (a tenth of the default step here; at the
    default step the bias of the logistic intercept is ~0.3)."""
    for E, (X, y), loss in ((L1Regressor, diabetes, "squared"), (L1Classifier, breast_cancer, "logistic")):
        if E is L1Regressor:
            y = y + 2.0
            null = y.mean()
        else:
            null = math.log(y.mean() / (1 - y.mean()))
        prob = _with_intercept(X, y if loss == "squared" else 2.0 * y - 1.0, loss, 1.0)
        assert prob.null_solution()[-1] == pytest.approx(null, rel=1e-12)
        lam = 1.5 * prob.lambda_max
        if solver in CD:
            est = E(lam=lam, solver=solver).fit(X, y)
            assert not np.any(est.coef_)
            assert np.ravel(est.intercept_)[0] == pytest.approx(null, abs=1e-7)
        else:
            eta = 0.1 * default_eta(prob, solver)
            est = E(lam=lam, solver=solver, eta=eta, max_epochs=100).fit(X, y)
            assert np.max(np.abs(est.coef_)) < 0.05
            assert np.ravel(est.intercept_)[0] == pytest.approx(null, abs=0.05)


def test_penalty_weights_in_problem(small_regression):
    X, y = small_regression
    d = X.shape[1]
    c = np.r_[np.ones(d - 1), 0.0]
    prob = Problem(X, y, "squared", 0.05, penalty_weights=c)
    plain = Problem(X, y, "squared", 0.05)
    w = np.random.default_rng(0).standard_normal(d)
    assert prob.objective(w) == pytest.approx(plain.smooth(w) + 0.05 * np.abs(w[:-1]).sum())
    np.testing.assert_array_equal(prob.lam_vector, 0.05 * c)
    # the null solution minimizes C over the unpenalized coordinate, and lambda_max is measured from it
    w0 = prob.null_solution()
    assert np.all(w0[:-1] == 0) and abs(prob.gradient(w0)[-1]) <= 1e-12
    assert prob.lambda_max == pytest.approx(np.max(np.abs(prob.gradient(w0)[:-1])))
    big = Problem(X, y, "squared", prob.lambda_max * 1.01, penalty_weights=c)
    np.testing.assert_allclose(reference_solution(big)[0], w0, atol=1e-12)
    # residual: an unpenalized coordinate must have a zero derivative even at w_j = 0
    assert prob.optimality_residual(np.zeros(d)) >= abs(prob.gradient(np.zeros(d))[-1])
    # all-ones weights are the papers' problem: stored as None
    assert Problem(X, y, "squared", 0.05, penalty_weights=np.ones(d)).penalty_weights is None
    with pytest.raises(ValueError, match="shape"):
        Problem(X, y, "squared", 0.05, penalty_weights=np.ones(d + 1))
    with pytest.raises(ValueError, match=">= 0"):
        Problem(X, y, "squared", 0.05, penalty_weights=-np.ones(d))
    assert "1 unpenalized" in repr(prob)


@pytest.mark.parametrize("loss", ["squared", "logistic"])
def test_weighted_reference_matches_sklearn(loss, diabetes, breast_cancer):
    """The reference solver with an unpenalized intercept column against scikit-learn's intercept handling
    (Lasso centers the data; saga leaves the intercept unpenalized)."""
    lam = 0.01
    if loss == "squared":
        X, y = diabetes
        sk = Lasso(alpha=lam, tol=1e-14, max_iter=1_000_000).fit(X, y + 1.0)
        prob = _with_intercept(X, y + 1.0, loss, lam)
        coef, b = sk.coef_, sk.intercept_
    else:
        X, y = breast_cancer
        sk = LogisticRegression(C=1.0 / (X.shape[0] * lam), solver="saga", tol=1e-13, max_iter=1_000_000,
                                **L1_LOGISTIC).fit(X, y)
        prob = _with_intercept(X, np.where(y == 1, 1.0, -1.0), loss, lam)
        coef, b = sk.coef_[0], sk.intercept_[0]
    w, p_star = reference_solution(prob, 1e-12)
    np.testing.assert_allclose(w, np.r_[coef, b], atol=1e-7)
    assert p_star <= prob.objective(np.r_[coef, b]) + 1e-12


def test_weighted_hinge_reference_is_optimal(small_classification):
    """The linear program with a free (unpenalized) intercept: no random perturbation improves it, and it is
    at least as good as the intercept-free optimum."""
    X, y = small_classification
    prob = _with_intercept(X, y, "hinge", 0.02)
    w, p_star = reference_solution(prob)
    rng = np.random.default_rng(0)
    for _ in range(200):
        assert prob.objective(w + 1e-3 * rng.standard_normal(prob.d)) >= p_star - 1e-12
    assert p_star <= reference_solution(Problem(X, y, "hinge", 0.02))[1] + 1e-12


def naive_weighted_cd(prob, coords):
    """Algorithm 1 with the weighted threshold lam c_j / beta, from scratch at every step."""
    w = np.zeros(prob.d)
    b = prob.loss.beta
    for j in coords:
        g = prob.gradient(w)[j]
        w[j] = soft_threshold(w[j] - g / b, prob.lam_vector[j] / b)
    return w


def naive_weighted_smidas(prob, rows, eta, p):
    """Algorithm 3 with coordinate j truncated by eta lam c_j (dense, O(d) per step); p = 2: truncgrad."""
    theta = np.zeros(prob.d)
    w = np.zeros(prob.d)
    X = prob.X.toarray() if prob.is_sparse else np.asarray(prob.X)
    for i in rows:
        tt = theta - eta * prob.loss.deriv(X[i] @ w, prob.y[i]) * X[i]
        theta = np.sign(tt) * np.maximum(0.0, np.abs(tt) - eta * prob.lam_vector)
        w = link_inverse(theta, p)
    return w


def _weighted(loss, sparse):
    gen = make_regression if loss == "squared" else make_classification
    X, y, _ = gen(60, 25, 4, density=0.4 if sparse else 1.0, seed=1)
    c = np.random.default_rng(2).uniform(0.0, 2.0, 25)
    c[[3, 24]] = 0.0
    return Problem(X, y, loss, 0.03, penalty_weights=c)


@pytest.mark.parametrize("loss", ["squared", "logistic"])
@pytest.mark.parametrize("sparse", [False, True])
def test_weighted_coordinate_descent_follows_its_update(loss, sparse):
    prob = _weighted(loss, sparse)
    res = solvers.scd(prob, n_iter=400, seed=7)
    coords = np.random.default_rng(7).integers(0, prob.d, size=400)
    np.testing.assert_allclose(res.w, naive_weighted_cd(prob, coords), rtol=1e-11, atol=1e-13)
    res_c = solvers.cyclic_cd(prob, n_iter=400)
    np.testing.assert_allclose(res_c.w, naive_weighted_cd(prob, np.arange(400) % prob.d), rtol=1e-11, atol=1e-13)
    # greedy: the weighted guaranteed decrease picks the coordinate
    res_g = solvers.gcd(prob, n_iter=20)
    w = np.zeros(prob.d)
    b, lam = prob.loss.beta, prob.lam_vector
    for _ in range(20):
        g = prob.gradient(w)
        u = w - g / b
        eta = np.sign(u) * np.maximum(np.abs(u) - lam / b, 0.0) - w
        dec = -(g * eta + 0.5 * b * eta ** 2 + lam * (np.abs(w + eta) - np.abs(w)))
        j = int(np.argmax(dec))
        w[j] += eta[j]
    np.testing.assert_allclose(res_g.w, w, rtol=1e-11, atol=1e-13)
    assert res.trace.objective[-1] == pytest.approx(prob.objective(res.w), rel=1e-12)


@pytest.mark.parametrize("loss", ["squared", "logistic"])
@pytest.mark.parametrize("sparse", [False, True])
def test_weighted_mirror_descent_follows_its_update(loss, sparse):
    prob = _weighted(loss, sparse)
    rows = np.random.default_rng(3).integers(0, prob.m, size=300)
    p = smidas_p(prob.d)
    np.testing.assert_allclose(solvers.smidas(prob, 300, eta=0.1, seed=3).w,
                               naive_weighted_smidas(prob, rows, 0.1, p), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(solvers.smidas(prob, 300, eta=0.1, seed=3, output="average").w[[3, 24]] != 0,
                               True)
    lazy = solvers.truncgrad(prob, 300, eta=0.1, seed=3)
    np.testing.assert_allclose(lazy.w, naive_weighted_smidas(prob, rows, 0.1, 2.0), rtol=1e-10, atol=1e-12)
    # Langford with K = 1, theta = inf, g = lam is the same iterates; SGD shrinks by eta lam c_j
    lang = solvers.truncgrad(prob, 300, eta=0.1, seed=3, variant="langford")
    np.testing.assert_allclose(lang.w, lazy.w, rtol=1e-9, atol=1e-12)
    X = prob.X.toarray() if prob.is_sparse else np.asarray(prob.X)
    w = np.zeros(prob.d)
    for i in rows:
        v = prob.loss.deriv(X[i] @ w, prob.y[i]) * X[i]
        w = w - 0.1 * (v + prob.lam_vector * np.sign(w))
    np.testing.assert_allclose(solvers.sgd(prob, 300, eta=0.1, seed=3).w, w, rtol=1e-9, atol=1e-12)


def test_unweighted_runs_are_unchanged(small_classification):
    """All-ones weights take the unweighted paths: bit-for-bit the same numbers as no weights."""
    X, y = small_classification
    a = Problem(X, y, "logistic", 0.01)
    b = Problem(X, y, "logistic", 0.01, penalty_weights=np.ones(X.shape[1]))
    for run in (lambda p: solvers.scd(p, 2000, seed=1), lambda p: solvers.gcd(p, 30),
                lambda p: solvers.smidas(p, 500, 0.1, seed=2), lambda p: solvers.truncgrad(p, 500, 0.1, seed=2),
                lambda p: solvers.sgd(p, 500, 0.1, seed=2)):
        np.testing.assert_array_equal(run(a).w, run(b).w)


def test_coordinate_descent_tol_stops_at_the_residual(small_classification):
    X, y = small_classification
    prob = Problem(X, y, "logistic", 0.01)
    full = solvers.scd(prob, 200 * prob.d, seed=0)
    assert "converged" not in full.info and full.info["n_iter"] == 200 * prob.d
    for solver in (solvers.scd, solvers.cyclic_cd, solvers.gcd):
        res = solver(prob, 10_000 * prob.d, tol=1e-6)
        assert res.info["converged"] and res.info["n_iter"] < 10_000 * prob.d
        assert res.info["residual"] <= 1e-6
        assert prob.relative_residual(res.w) <= 1.01e-6
        assert res.trace.iteration[-1] == res.info["n_iter"]
    short = solvers.scd(prob, 3 * prob.d, tol=1e-12)
    assert not short.info["converged"] and short.info["n_iter"] == 3 * prob.d
    with pytest.raises(ValueError, match="tol"):
        solvers.scd(prob, 10, tol=0.0)


# ---------------------------------------------------------------------------------------- scaling, sparsity
@pytest.mark.parametrize("E", [L1Regressor, L1Classifier])
@pytest.mark.parametrize("sparse", [False, True])
def test_maxabs_scaling_is_folded_into_coef(E, sparse, breast_cancer):
    """scale='maxabs' equals MaxAbsScaler followed by the unscaled estimator, with coef_ divided by the scale:
    the same predictions on the raw features."""
    Xs, y = breast_cancer
    X = Xs * np.logspace(-2, 3, Xs.shape[1])
    if E is L1Regressor:
        y = X[:, 3] / X[:, 3].max() - 2 * X[:, 7] / X[:, 7].max()
    if sparse:
        X = sp.csr_matrix(np.where(np.abs(Xs) > 0.3, X, 0.0))
    est = E(lam=0.02, scale="maxabs").fit(X, y)
    pipe = make_pipeline(MaxAbsScaler(), E(lam=0.02)).fit(X, y)
    scale = pipe[0].scale_
    inner = pipe[-1]
    np.testing.assert_allclose(est.coef_, inner.coef_ / scale, rtol=1e-10, atol=1e-14)
    np.testing.assert_allclose(est.intercept_, inner.intercept_, rtol=1e-10)
    if E is L1Regressor:
        np.testing.assert_allclose(est.predict(X), pipe.predict(X), rtol=1e-9, atol=1e-12)
    else:
        np.testing.assert_allclose(est.decision_function(X), pipe.decision_function(X), rtol=1e-9, atol=1e-12)
        np.testing.assert_array_equal(est.predict(X), pipe.predict(X))
    assert np.count_nonzero(est.coef_) < X.shape[1]


def test_sparse_input_is_never_densified():
    """A 200000 x 200000 CSR matrix with 2e5 nonzeros (dense: 320 GB) fits in well under a second."""
    rng = np.random.default_rng(0)
    m = d = 200_000
    nnz = 200_000
    X = sp.csr_matrix((rng.uniform(-1, 1, nnz), (rng.integers(0, m, nnz), rng.integers(0, d, nnz))), shape=(m, d))
    w_true = np.zeros(d)
    w_true[:50] = 1.0
    y = X @ w_true
    for solver in ("scd", "truncgrad"):
        est = L1Regressor(lam=1e-4, solver=solver, max_epochs=1).fit(X, y)
        assert est.coef_.shape == (d,)
        assert est.predict(X[:5]).shape == (5,)


@pytest.mark.parametrize("solver", SOLVERS)
def test_sparse_and_dense_input_agree(solver):
    X, y, _ = make_classification(120, 40, 5, density=0.2, seed=6)
    for E, target in ((L1Classifier, y), (L1Regressor, np.asarray(X @ np.linspace(-1, 1, 40)).ravel())):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)  # a short budget is enough to compare runs
            a = E(lam=0.01, solver=solver, max_epochs=20).fit(X.toarray(), target)
            b = E(lam=0.01, solver=solver, max_epochs=20).fit(X.tocsc(), target)
        np.testing.assert_allclose(a.coef_, b.coef_, rtol=1e-9, atol=1e-11)
        np.testing.assert_allclose(a.intercept_, b.intercept_, rtol=1e-9, atol=1e-11)


# ---------------------------------------------------------------------------------------- pipelines, CV
def test_pipeline_and_grid_search_over_lam():
    X, y = load_breast_cancer(return_X_y=True)
    pipe = make_pipeline(MaxAbsScaler(), L1Classifier(solver="gcd"))
    grid = GridSearchCV(pipe, {"l1classifier__lam": [0.1, 0.03, 0.01]}, cv=3).fit(X, y)
    assert grid.best_params_["l1classifier__lam"] in (0.1, 0.03, 0.01)
    assert grid.best_score_ > 0.9
    assert grid.score(X, y) > 0.9
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)  # converged fits only
        scores = cross_val_score(L1Regressor(lam=1.0, scale="maxabs"), *load_diabetes(return_X_y=True), cv=3)
    assert np.all(scores > 0.4)


# ---------------------------------------------------------------------------------------- attributes, labels
def test_labels_of_any_type_map_to_plus_minus_one(breast_cancer):
    X, y = breast_cancer
    names = np.array(["malignant", "benign"])[y]
    est = L1Classifier(lam=0.02).fit(X, names)
    np.testing.assert_array_equal(est.classes_, ["benign", "malignant"])
    ref = L1Classifier(lam=0.02).fit(X, np.where(names == "malignant", 1.0, -1.0))  # classes_[1] is +1
    np.testing.assert_allclose(est.coef_, ref.coef_, rtol=1e-12)
    assert set(est.predict(X)) == {"benign", "malignant"}
    s = est.decision_function(X)
    np.testing.assert_array_equal(est.predict(X), np.where(s > 0, "malignant", "benign"))
    np.testing.assert_allclose(est.predict_proba(X)[:, 1], 1 / (1 + np.exp(-s)), rtol=1e-12)
    np.testing.assert_allclose(est.predict_log_proba(X), np.log(est.predict_proba(X)))
    assert est.score(X, names) > 0.9


def test_fitted_attributes_and_trace(diabetes):
    X, y = diabetes
    est = L1Regressor(lam=0.01).fit(X, y)
    assert isinstance(est.trace_, Trace) and est.n_iter_ == est.trace_.iteration[-1]
    assert est.solver_info_["method"] == "working_set_cd" and est.solver_info_["converged"]
    assert np.all(np.diff(est.trace_.objective) <= 1e-15)  # each outer iteration lowers P
    prob = _with_intercept(X, y, "squared", 0.01)
    assert est.solver_info_["gap"] <= 1e-12 * prob.objective(prob.null_solution())
    # the same numbers as the l1lab solver on the same problem (the default tol, 1e-12)
    np.testing.assert_array_equal(np.r_[est.coef_, est.intercept_], solvers.working_set_cd(prob).w)
    est = L1Regressor(lam=0.01, solver="scd").fit(X, y)
    assert est.solver_info_["method"] == "scd" and est.solver_info_["converged"]
    assert np.all(np.diff(est.trace_.objective) <= 1e-15)  # coordinate descent never increases P
    # the same numbers as the l1lab solver on the same problem with the same seed
    res = solvers.scd(prob, 10_000 * prob.d, seed=0, tol=1e-8)
    np.testing.assert_array_equal(np.r_[est.coef_, est.intercept_], res.w)
    sm = L1Regressor(lam=0.01, solver="smidas", random_state=5, max_epochs=2).fit(X, y)
    res = solvers.smidas(prob, 2 * prob.m, default_eta(prob, "smidas"), seed=5, output="average")
    np.testing.assert_array_equal(np.r_[sm.coef_, sm.intercept_], res.w)
    assert sm.n_iter_ == 2 * X.shape[0] and sm.solver_info_["eta"] == default_eta(prob, "smidas")
    other = L1Regressor(lam=0.01, solver="smidas", random_state=6, max_epochs=2).fit(X, y)
    assert not np.array_equal(other.coef_, sm.coef_)
    assert L1Regressor(lam=0.01, solver="smidas", random_state=None, max_epochs=1).fit(X, y).n_iter_ == X.shape[0]


def test_default_eta_is_the_largest_descent_step():
    X, y, _ = make_regression(50, 10, 3, seed=0)
    prob = Problem(X, y, "squared", 0.01)
    row = np.max(np.sum(X ** 2, axis=1))
    assert default_eta(prob, "truncgrad") == pytest.approx(1.0 / row)
    p = smidas_p(10)
    rp = np.max(np.sum(np.abs(X) ** p, axis=1)) ** (2 / p)
    assert default_eta(prob, "smidas") == pytest.approx(1.0 / ((p - 1) * rp))
    assert default_eta(Problem(X, np.sign(y), "logistic", 0.01), "sgd") == pytest.approx(4.0 / row)


def test_convergence_warning_when_the_budget_runs_out(breast_cancer):
    X, y = breast_cancer
    with pytest.warns(ConvergenceWarning, match="max_epochs=3"):
        est = L1Classifier(lam=1e-3, solver="scd", max_epochs=3).fit(X, y)
    assert not est.solver_info_[0]["converged"]
    with pytest.warns(ConvergenceWarning, match="duality gap"):
        est = L1Classifier(lam=1e-3, solver_options={"max_outer": 2}).fit(X, y)
    assert not est.solver_info_[0]["converged"]


# ---------------------------------------------------------------------------------------- clear errors
def test_out_of_range_features_are_rejected_with_scale_none():
    """scale=None keeps the theory's assumption: a feature outside [-1, 1] is an error that says how to fix it."""
    X = np.array([[0.5, 3.0], [-0.2, 1.0], [0.1, -2.0]])
    for E, y in ((L1Regressor, [1.0, 2.0, 3.0]), (L1Classifier, [0, 1, 1])):
        with pytest.raises(ValueError, match=r"\[-1, 1\].*scale='auto'.*scale_features"):
            E(scale=None).fit(X, y)
        with pytest.raises(ValueError, match=r"\[-1, 1\]"):
            E(scale=None).fit(sp.csr_matrix(X), y)
        E(lam=0.1, scale=None).fit(X / 3, y)
        E(lam=0.1, scale="maxabs").fit(X, y)
        E(lam=0.1).fit(X, y)


@pytest.mark.parametrize("E", [L1Regressor, L1Classifier])
@pytest.mark.parametrize("sparse", [False, True])
def test_auto_scales_only_the_columns_outside_the_unit_range(E, sparse, breast_cancer):
    """scale='auto' (the default) divides a column by its largest |x_ij| only when that exceeds 1; the fit equals
    scale=None on the data with exactly those columns divided (and coef_ divided back), and scale_ holds the
    factors.  Data inside [-1, 1] are fitted as they are."""
    Xs, y = breast_cancer
    mult = np.where(np.arange(Xs.shape[1]) % 3 == 0, 1.0, np.logspace(0.5, 3, Xs.shape[1]))
    X = Xs * mult                                        # every third column stays inside [-1, 1]
    if E is L1Regressor:
        y = X[:, 3] / X[:, 3].max() - 2 * Xs[:, 6]
    if sparse:
        X = sp.csr_matrix(np.where(np.abs(Xs) > 0.3, X, 0.0))
    est = E(lam=0.02).fit(X, y)
    big = np.asarray(abs(X).max(axis=0).todense()).ravel() if sparse else np.abs(X).max(axis=0)
    expected = np.maximum(big, 1.0)
    np.testing.assert_array_equal(est.scale_, expected)
    assert np.all(est.scale_[::3] == 1.0) and np.all(est.scale_[1::3] > 1.0)
    X_by_hand = X @ sp.diags(1.0 / expected) if sparse else X / expected
    ref = E(lam=0.02, scale=None).fit(X_by_hand, y)
    np.testing.assert_allclose(est.coef_ * expected, ref.coef_, rtol=1e-10, atol=1e-14)
    np.testing.assert_allclose(est.intercept_, ref.intercept_, rtol=1e-10, atol=1e-14)
    inside = E(lam=0.02).fit(Xs, y)
    np.testing.assert_array_equal(inside.scale_, np.ones(Xs.shape[1]))
    np.testing.assert_array_equal(inside.coef_, E(lam=0.02, scale=None).fit(Xs, y).coef_)


def test_clear_errors(diabetes):
    X, y = diabetes
    with pytest.raises(ValueError, match="solver='scd'.*does not take sample_weight.*unweighted"):
        L1Classifier(solver="scd").fit(X, np.sign(y - np.median(y)), sample_weight=np.ones(len(y)))
    with pytest.raises(TypeError, match="unexpected"):
        L1Regressor().fit(X, y, weights=1)
    with pytest.raises(ValueError, match="solver must be one of"):
        L1Regressor(solver="lbfgs").fit(X, y)
    with pytest.raises(ValueError, match="lam"):
        L1Regressor(lam=-1.0).fit(X, y)
    with pytest.raises(ValueError, match="lam"):
        L1Regressor(lam=float("nan")).fit(X, y)
    with pytest.raises(ValueError, match="scale"):
        L1Regressor(scale="standard").fit(X, y)
    with pytest.raises(ValueError, match="max_epochs"):
        L1Regressor(max_epochs=0).fit(X, y)
    with pytest.raises(ValueError, match="tol"):
        L1Regressor(tol=0).fit(X, y)
    with pytest.raises(ValueError, match="eta is the step size"):
        L1Regressor(eta=0.1).fit(X, y)
    with pytest.raises(ValueError, match="eta"):
        L1Regressor(solver="smidas", eta=-1.0).fit(X, y)
    with pytest.raises(ValueError, match="may not set"):
        L1Regressor(solver_options={"seed": 3}).fit(X, y)
    with pytest.raises(ValueError, match="fit_intercept"):
        L1Regressor(fit_intercept="yes").fit(X, y)
    with pytest.raises(TypeError):
        L1Regressor(solver_options={"nonsense": 1}).fit(X, y)
    with pytest.raises(ValueError, match="one class"):
        L1Classifier().fit(X, np.zeros(len(y)))
    with pytest.raises(ValueError, match="Unknown label type"):
        L1Classifier().fit(X, y)
    with pytest.raises(ValueError, match="coordinate descent needs"):
        solvers.scd(Problem(X, np.sign(y) + (y == 0), "hinge", 0.1), 10)
