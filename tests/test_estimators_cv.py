"""Cross-validated estimators (l1lab.estimators.L1RegressorCV, L1ClassifierCV).

What is stated here: on the same folds and grid, L1RegressorCV's held-out errors are LassoCV's and it chooses the
same lam; every held-out score equals the score of an independent single fit at that lam on that fold's training
rows (the paths' warm starts change nothing the scores can see); the chosen lam is the best mean score, the
largest on ties; the refit is the single estimator at the chosen lam; scorers, multiclass, sparse input and
DataFrames (feature names) go through.
"""
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import load_diabetes, load_iris
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LassoCV
from sklearn.metrics import get_scorer
from sklearn.model_selection import KFold, StratifiedKFold
from sklearn.utils.estimator_checks import parametrize_with_checks

from l1lab.data import make_classification
from l1lab.estimators import L1Classifier, L1ClassifierCV, L1Regressor, L1RegressorCV


@pytest.fixture(scope="module")
def diabetes():
    return load_diabetes(return_X_y=True)


@pytest.fixture(scope="module")
def classification():
    X, y, _ = make_classification(240, 30, 4, flip=0.1, seed=3)
    return X, np.where(y > 0, "spam", "ham")


def test_regressor_matches_lasso_cv(diabetes):
    """Same folds and grid: LassoCV's MSE path to 1e-6 relative (it stops at a gap of 1e-10 relative to
    ||y||^2/m here, l1lab at 1e-10 of P_null) and the same alpha, which is not an end of the grid."""
    X, y = diabetes
    est = L1RegressorCV(n_lams=30, cv=KFold(4), cv_tol=1e-10).fit(X, y)
    ref = LassoCV(alphas=est.lams_, cv=KFold(4), tol=1e-10, max_iter=100_000).fit(X / est.scale_, y)
    assert np.allclose(est.lams_, ref.alphas_)
    assert np.max(np.abs(est.mse_path_ - ref.mse_path_) / ref.mse_path_) <= 1e-6
    assert est.lam_ == pytest.approx(ref.alpha_, rel=1e-12)
    assert est.lams_[-1] < est.lam_ < est.lams_[0]
    assert est.lams_[0] == pytest.approx(_lambda_max(X / est.scale_, y), rel=1e-10)


def _lambda_max(X, y):
    """max_j |<x_j, y - mean(y)>| / m: the smallest alpha at which Lasso with an intercept is all zero."""
    return np.max(np.abs(X.T @ (y - y.mean()))) / X.shape[0]


@pytest.mark.parametrize("kind", ["regressor", "classifier"])
def test_scores_are_those_of_single_fits(kind, diabetes, classification):
    """Every entry of scores_path_ is the held-out score of L1Regressor/L1Classifier fitted at that lam on that
    fold's training rows, to 1e-6 (regressor: minus the MSE; classifier: the accuracy, exactly)."""
    if kind == "regressor":
        (X, y), E, single, cv = diabetes, L1RegressorCV, L1Regressor, KFold(3, shuffle=True, random_state=0)
    else:
        (X, y), E, single, cv = classification, L1ClassifierCV, L1Classifier, StratifiedKFold(3)
    est = E(n_lams=6, eps=0.05, cv=cv, cv_tol=1e-12).fit(X, y)
    assert est.scores_path_.shape == (6, 3)
    for f, (train, test) in enumerate(cv.split(X, y)):
        for k, lam in enumerate(est.lams_):
            fit = single(lam=lam).fit(X[train], y[train])
            if kind == "regressor":
                expected = -np.mean((fit.predict(X[test]) - y[test]) ** 2)
                assert est.scores_path_[k, f] == pytest.approx(expected, rel=1e-6)
            else:
                assert est.scores_path_[k, f] == np.mean(fit.predict(X[test]) == y[test])
    mean = est.scores_path_.mean(axis=1)
    assert est.best_score_ == mean.max()
    assert est.lam_ == est.lams_[np.flatnonzero(mean == mean.max())[0]]   # the largest of the best
    p_null = 0.5 * np.var(y) if kind == "regressor" else np.log(2.0)   # P at the null model is at most this
    assert np.max(est.path_gaps_) <= 1e-12 * 1.5 * p_null               # the certificate: cv_tol, a fold's P_null


@pytest.mark.parametrize("E,single", [(L1RegressorCV, L1Regressor), (L1ClassifierCV, L1Classifier)])
def test_refit_is_the_single_estimator_at_the_chosen_lam(E, single, diabetes, classification):
    X, y = diabetes if E is L1RegressorCV else classification
    est = E(n_lams=8, cv=3).fit(X, y)
    ref = single(lam=est.lam_).fit(X, y)
    np.testing.assert_array_equal(est.coef_, ref.coef_)
    np.testing.assert_array_equal(est.intercept_, ref.intercept_)
    np.testing.assert_array_equal(est.predict(X[:20]), ref.predict(X[:20]))


def test_scoring_by_name(diabetes):
    """scoring='r2' scores each fold with R^2 of the path's solution (checked against a single fit)."""
    X, y = diabetes
    cv = KFold(3)
    est = L1RegressorCV(n_lams=5, eps=0.05, cv=cv, scoring="r2", cv_tol=1e-12).fit(X, y)
    assert not hasattr(est, "mse_path_")
    train, test = next(iter(cv.split(X, y)))
    k = 3
    fit = L1Regressor(lam=est.lams_[k]).fit(X[train], y[train])
    assert est.scores_path_[k, 0] == pytest.approx(get_scorer("r2")(fit, X[test], y[test]), rel=1e-6)


def test_multiclass_and_sparse_input():
    """Three classes, one-vs-rest with one lam; sparse X gives the dense result."""
    X, y = load_iris(return_X_y=True)
    dense = L1ClassifierCV(n_lams=6, cv=3).fit(X, y)
    sparse = L1ClassifierCV(n_lams=6, cv=3).fit(sp.csr_matrix(X), y)
    assert dense.coef_.shape == (3, 4) and dense.classes_.tolist() == [0, 1, 2]
    np.testing.assert_allclose(sparse.scores_path_, dense.scores_path_)
    assert sparse.lam_ == pytest.approx(dense.lam_, rel=1e-12)
    assert dense.best_score_ > 0.85
    assert dense.predict_proba(X).shape == (150, 3)


def test_dataframe_keeps_feature_names(diabetes):
    pd = pytest.importorskip("pandas")
    X, y = diabetes
    frame = pd.DataFrame(X, columns=[f"f{j}" for j in range(X.shape[1])])
    est = L1RegressorCV(n_lams=5, cv=3).fit(frame, y)
    assert list(est.feature_names_in_) == list(frame.columns)
    with pytest.warns(UserWarning, match="feature names"):
        est.predict(X)


@pytest.mark.parametrize("kind", ["regressor", "classifier"])
def test_the_default_cv_tol_chooses_as_a_tight_one(kind, diabetes, classification):
    """The default cv_tol (1e-4 of P_null) ranks the lams as a tight one (1e-10) does: the same lam, or one whose
    mean score on the tight path is within half the folds' standard error of the best."""
    (X, y), E = (diabetes, L1RegressorCV) if kind == "regressor" else (classification, L1ClassifierCV)
    default = E(n_lams=40, cv=5).fit(X, y)
    tight = E(n_lams=40, cv=5, cv_tol=1e-10).fit(X, y)
    mean = tight.scores_path_.mean(axis=1)
    k, best = int(np.flatnonzero(tight.lams_ == default.lam_)[0]), int(np.argmax(mean))
    noise = tight.scores_path_[best].std(ddof=1) / np.sqrt(5)
    assert k == best or mean[best] - mean[k] <= 0.5 * noise


def test_single_class_fold_is_refused():
    X = np.random.default_rng(0).uniform(-1, 1, (9, 3))
    y = np.array([0] * 8 + [1])
    with pytest.raises(ValueError, match="single class"), warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)   # StratifiedKFold: the least populated class has 1 member
        L1ClassifierCV(cv=KFold(3)).fit(X, y)


@pytest.mark.parametrize("params,match", [
    ({"lams": [0.1, -1.0]}, "lams"), ({"lams": []}, "lams"), ({"lams": 0.1}, "lams"), ({"n_lams": 0}, "n_lams"),
    ({"eps": 0.0}, "eps"), ({"eps": 2.0}, "eps"), ({"cv_tol": 0.0}, "cv_tol"), ({"tol": -1.0}, "tol"),
    ({"solver_options": {"tol": 1.0}}, "solver_options"), ({"solver_options": 3}, "solver_options"),
    ({"scoring": 3}, "scoring"), ({"scale": "std"}, "scale"), ({"fit_intercept": "yes"}, "fit_intercept"),
])
def test_bad_parameters_are_named(params, match, diabetes):
    X, y = diabetes
    with pytest.raises(ValueError, match=match):
        L1RegressorCV(**params).fit(X[:40], y[:40])


def test_user_grid_is_sorted_and_used(diabetes):
    X, y = diabetes
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        est = L1RegressorCV(lams=[0.01, 1.0, 0.1], cv=3).fit(X, y)
    np.testing.assert_array_equal(est.lams_, [1.0, 0.1, 0.01])
    assert est.lam_ in est.lams_


# scikit-learn's estimator checks: the regressor on its defaults; the classifier on a 10-lam grid (its defaults
# pass too, in 95 s here against 20 s for the regressor: the checks' separable blobs make the logistic path long).
# Expected to fail, as for LassoCV: weights against repeated rows (K-fold splits repeated rows into other folds
# than the weighted ones, so the held-out errors, and the chosen lam, differ).
_FOLDS_DIFFER = {f"check_sample_weight_equivalence_on_{kind}_data": "repeated rows fall into other folds"
                 for kind in ("dense", "sparse")}


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@parametrize_with_checks([L1RegressorCV(), L1ClassifierCV(n_lams=10)], xfail_strict=True,
                         expected_failed_checks=lambda est: _FOLDS_DIFFER)
def test_sklearn_estimator_checks(estimator, check):
    check(estimator)
