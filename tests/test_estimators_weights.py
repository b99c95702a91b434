"""Sample weights of the estimators: the weighted mean loss sum_i s_i L_i / sum_i s_i + lam ||w||_1.

What is stated here: integer weights equal repeating the rows and zero weights equal removing them (the scaling
factors included), on dense and sparse data, with and without the intercept, for both losses (two and three
classes); the solutions are scikit-learn's Lasso(sample_weight=...) and LogisticRegression(sample_weight=...) at
tight tolerances; the cross-validated estimators' weighted held-out scores are those of single weighted fits; bad
weights are refused clearly, and so are weights given to a classifier solver of the papers.
"""
import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import load_diabetes, load_iris
from sklearn.linear_model import Lasso, LogisticRegression
from sklearn.model_selection import KFold, StratifiedKFold

from l1lab.estimators import L1Classifier, L1ClassifierCV, L1Regressor, L1RegressorCV


@pytest.fixture(scope="module")
def data():
    X, y = load_diabetes(return_X_y=True)
    X = X / np.abs(X).max(axis=0) * 3.0          # outside [-1, 1]: scale="auto" divides the columns
    s = np.random.default_rng(0).integers(0, 4, size=len(y)).astype(float)
    s[np.argmax(np.abs(X[:, 0]))] = 0.0           # a removed row holds a column's largest entry
    return X, y, s


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_integer_weights_repeat_rows_and_zero_weights_remove_them(data, sparse, fit_intercept):
    X, y, s = data
    M = sp.csr_matrix(X) if sparse else X
    weighted = L1Regressor(lam=0.05, fit_intercept=fit_intercept).fit(M, y, sample_weight=s)
    rows = np.repeat(np.arange(len(y)), s.astype(int))
    repeated = L1Regressor(lam=0.05, fit_intercept=fit_intercept).fit(M[rows], y[rows])
    assert np.count_nonzero(weighted.coef_) >= 3
    np.testing.assert_allclose(weighted.coef_, repeated.coef_, rtol=0, atol=1e-9 * np.abs(repeated.coef_).max())
    assert weighted.intercept_ == pytest.approx(repeated.intercept_, abs=1e-9 * abs(y).max())
    np.testing.assert_array_equal(weighted.scale_, repeated.scale_)   # the removed row does not set a factor


def test_weights_match_scikit_learn_lasso(data):
    X, y, _ = data
    s = np.random.default_rng(1).uniform(0.1, 5.0, size=len(y))
    ours = L1Regressor(lam=0.1, scale=None).fit(X / 3.0, y, sample_weight=s)
    ref = Lasso(alpha=0.1, tol=1e-14, max_iter=1_000_000).fit(X / 3.0, y, sample_weight=s)
    assert np.count_nonzero(ref.coef_) >= 3
    np.testing.assert_allclose(ours.coef_, ref.coef_, rtol=0, atol=1e-7 * np.abs(ref.coef_).max())
    assert ours.intercept_ == pytest.approx(ref.intercept_, abs=1e-7 * abs(y).max())


def test_uniform_weights_change_nothing(data):
    X, y, _ = data
    a = L1Regressor(lam=0.05).fit(X, y, sample_weight=np.full(len(y), 7.0))
    b = L1Regressor(lam=0.05).fit(X, y)
    np.testing.assert_allclose(a.coef_, b.coef_, rtol=0, atol=1e-9 * np.abs(b.coef_).max())


def test_cv_scores_are_weighted_single_fits(data):
    """Each held-out score of L1RegressorCV with weights is minus the weighted MSE of L1Regressor fitted with the
    fold's training weights."""
    X, y, s = data
    keep = s > 0
    X, y, s = X[keep] / 3.0, y[keep], s[keep]     # inside [-1, 1]: no scaling (the folds share all data's factors)
    cv = KFold(3)
    est = L1RegressorCV(n_lams=5, eps=0.05, cv=cv, cv_tol=1e-12).fit(X, y, sample_weight=s)
    for f, (train, test) in enumerate(cv.split(X, y)):
        for k in (0, 2, 4):
            fit = L1Regressor(lam=est.lams_[k]).fit(X[train], y[train], sample_weight=s[train])
            expected = -np.average((fit.predict(X[test]) - y[test]) ** 2, weights=s[test])
            assert est.scores_path_[k, f] == pytest.approx(expected, rel=1e-6)
    ref = L1Regressor(lam=est.lam_).fit(X, y, sample_weight=s)
    np.testing.assert_array_equal(est.coef_, ref.coef_)


@pytest.fixture(scope="module")
def iris():
    X, y = load_iris(return_X_y=True)
    X = X * 2.0                                   # outside [-1, 1]: scale="auto" divides the columns
    s = np.random.default_rng(2).integers(0, 4, size=len(y)).astype(float)
    s[np.argmax(X[:, 2])] = 0.0                   # a removed row holds a column's largest entry
    return X, y, s


@pytest.mark.parametrize("classes", [2, 3])
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_classifier_integer_weights_repeat_rows_and_zero_weights_remove_them(iris, classes, sparse, fit_intercept):
    X, y, s = iris
    if classes == 2:
        y = np.where(y == 2, "virginica", "other")
    M = sp.csr_matrix(X) if sparse else X
    weighted = L1Classifier(lam=0.002, fit_intercept=fit_intercept).fit(M, y, sample_weight=s)
    rows = np.repeat(np.arange(len(y)), s.astype(int))
    repeated = L1Classifier(lam=0.002, fit_intercept=fit_intercept).fit(M[rows], y[rows])
    assert weighted.coef_.shape == (1 if classes == 2 else 3, X.shape[1])
    assert np.count_nonzero(weighted.coef_) >= 2
    np.testing.assert_allclose(weighted.coef_, repeated.coef_, rtol=0, atol=1e-8 * np.abs(repeated.coef_).max())
    np.testing.assert_allclose(weighted.intercept_, repeated.intercept_, rtol=0, atol=1e-8)
    np.testing.assert_array_equal(weighted.scale_, repeated.scale_)
    np.testing.assert_array_equal(weighted.classes_, repeated.classes_)


def test_classifier_weights_match_scikit_learn_logistic_regression(iris):
    """liblinear minimizes C sum_i s_i L_i + ||w||_1 (no intercept here: liblinear penalizes its own), that is
    l1lab's weighted mean loss + lam ||w||_1 times C sum(s) for C = 1 / (lam sum(s))."""
    X, y, _ = iris
    X, y = X / np.abs(X).max(axis=0), np.where(y == 1, 1, -1)
    s = np.random.default_rng(3).uniform(0.1, 5.0, size=len(y))
    lam = 0.005
    ours = L1Classifier(lam=lam, fit_intercept=False, scale=None).fit(X, y, sample_weight=s)
    ref = LogisticRegression(l1_ratio=1.0, C=1.0 / (lam * s.sum()), solver="liblinear", fit_intercept=False,
                             tol=1e-12, max_iter=100_000).fit(X, y, sample_weight=s)
    assert np.count_nonzero(ref.coef_) >= 2
    np.testing.assert_allclose(ours.coef_, ref.coef_, rtol=0, atol=1e-5 * np.abs(ref.coef_).max())


def test_classifier_cv_scores_are_weighted_single_fits(iris):
    """Each held-out score of L1ClassifierCV with weights is the weighted accuracy of L1Classifier fitted with the
    fold's training weights."""
    X, y, s = iris
    keep = s > 0
    X, y, s = X[keep] / 2.0 / np.abs(X[keep] / 2.0).max(axis=0), y[keep], s[keep]   # inside [-1, 1]: no scaling
    cv = StratifiedKFold(3)
    est = L1ClassifierCV(n_lams=5, eps=0.05, cv=cv, cv_tol=1e-12).fit(X, y, sample_weight=s)
    assert np.ptp(est.scores_path_) > 0.1
    for f, (train, test) in enumerate(cv.split(X, y)):
        for k in (0, 2, 4):
            fit = L1Classifier(lam=est.lams_[k]).fit(X[train], y[train], sample_weight=s[train])
            expected = np.average(fit.predict(X[test]) == y[test], weights=s[test])
            assert est.scores_path_[k, f] == pytest.approx(expected, abs=1e-12)
    ref = L1Classifier(lam=est.lam_).fit(X, y, sample_weight=s)
    np.testing.assert_array_equal(est.coef_, ref.coef_)


@pytest.mark.parametrize("weights, match", [
    (lambda n: -np.ones(n), "(?i)negative"), (lambda n: np.full(n, np.nan), "NaN|finite"),
    (lambda n: np.ones(n + 1), "sample_weight"), (lambda n: np.zeros(n), "every sample_weight is zero"),
    (lambda n: np.full(n, np.inf), "finite|infinity"),
])
@pytest.mark.parametrize("E", [L1Regressor, L1RegressorCV, L1Classifier, L1ClassifierCV])
def test_bad_weights_are_refused(data, weights, match, E):
    X, y, _ = data
    if E in (L1Classifier, L1ClassifierCV):
        y = y > np.median(y)
    with pytest.raises(ValueError, match=match):
        E().fit(X, y, sample_weight=weights(len(y)))


@pytest.mark.parametrize("solver", ["scd", "cyclic", "gcd", "smidas", "truncgrad", "sgd"])
def test_the_papers_classifier_solvers_refuse_weights(solver):
    X = np.random.default_rng(0).uniform(-1, 1, (20, 3))
    with pytest.raises(ValueError, match=f"solver='{solver}'.*does not take sample_weight.*'working_set'"):
        L1Classifier(solver=solver).fit(X, np.r_[np.zeros(10), np.ones(10)], sample_weight=np.ones(20))
