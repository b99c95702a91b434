"""Independent comparators (scikit-learn) shared by the tests."""
import warnings


def sklearn_objective_value(prob):
    """P at scikit-learn's solution of the same problem (the independent comparator)."""
    from sklearn import __version__ as skv
    from sklearn.linear_model import Lasso, LogisticRegression

    X = prob.X
    if prob.loss.name == "squared":
        est = Lasso(alpha=prob.lam, fit_intercept=False, tol=1e-14, max_iter=200_000)
        est.fit(X, prob.y)
        return prob.objective(est.coef_)
    major, minor = (int(v) for v in skv.split(".")[:2])
    kw = {"l1_ratio": 1.0} if (major, minor) >= (1, 8) else {"penalty": "l1"}
    est = LogisticRegression(C=1.0 / (prob.m * prob.lam), fit_intercept=False, solver="liblinear",
                             tol=1e-14, max_iter=100_000, **kw)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est.fit(X, prob.y)
    return prob.objective(est.coef_.ravel())
