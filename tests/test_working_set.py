"""The working-set solver (l1lab.solvers.working_set): agreement with scikit-learn and the reference solver, the
duality gap as a certificate, dense = sparse, determinism, the regularization path, and clear errors."""
import numpy as np
import pytest
import scipy.sparse as sp
from scipy.special import expit, xlogy
from sklearn.linear_model import Lasso, lasso_path

from l1lab import Problem, reference_solution
from l1lab.data import make_classification, make_regression
from l1lab.solvers import regularization_path, working_set_cd
from l1lab.solvers.working_set import duality_gap


def _problem(loss, m=120, d=300, sparse=False, intercept=False, frac=0.05, seed=0, tiny=False, empty=False):
    gen = make_regression if loss == "squared" else make_classification
    X, y, _ = gen(m, d, 6, seed=seed)
    X = np.asarray(X.toarray() if sp.issparse(X) else X, dtype=np.float64).copy()
    if tiny:
        X[:, 3] *= 1e-7            # a column with a tiny norm: a huge step 1/h_j
    if empty:
        X[:, [5, 17]] = 0.0        # empty columns: skipped
    weights = None
    if intercept:
        X = np.c_[X, np.ones(m)]
        weights = np.r_[np.ones(d), 0.0]
    Xs = sp.csc_matrix(X) if sparse else X
    lmax = Problem(Xs, y, loss, 1.0, penalty_weights=weights).lambda_max
    return Problem(Xs, y, loss, frac * lmax, penalty_weights=weights)


CASES = [(loss, sparse, intercept, extra)
         for loss in ("squared", "logistic") for sparse in (False, True) for intercept in (False, True)
         for extra in ("", "tiny+empty")]


@pytest.mark.parametrize("loss, sparse, intercept, extra", CASES)
def test_agrees_with_the_reference_solution(loss, sparse, intercept, extra):
    """w and P(w) agree with the reference solver (coordinate descent + Newton polish, to residual 1e-12) to
    1e-8 relative, and the reported gap bounds the true sub-optimality."""
    prob = _problem(loss, sparse=sparse, intercept=intercept, tiny=bool(extra), empty=bool(extra), seed=len(extra))
    res = working_set_cd(prob, tol=1e-12)
    w_ref, p_ref = reference_solution(prob, tol=1e-12)
    assert res.info["converged"]
    assert np.max(np.abs(res.w - w_ref)) <= 1e-8 * np.max(np.abs(w_ref))
    assert abs(res.objective - p_ref) <= 1e-12 * abs(p_ref)
    assert res.objective - p_ref <= res.info["gap"] + 1e-15
    if extra:
        assert res.w[5] == 0.0 and res.w[17] == 0.0


@pytest.mark.parametrize("sparse", [False, True])
def test_lasso_agrees_with_scikit_learn(sparse):
    prob = _problem("squared", m=200, d=500, sparse=sparse, frac=0.02, seed=3)
    res = working_set_cd(prob, tol=1e-13)
    sk = Lasso(alpha=prob.lam, fit_intercept=False, tol=1e-14, max_iter=100_000).fit(prob.X, prob.y).coef_
    assert np.max(np.abs(res.w - sk)) <= 1e-8 * np.max(np.abs(sk))


def test_logistic_agrees_with_liblinear():
    from tests.comparators import sklearn_objective_value

    prob = _problem("logistic", m=200, d=100, frac=0.05, seed=4)
    res = working_set_cd(prob, tol=1e-13)
    p_sk = sklearn_objective_value(prob)
    assert res.objective <= p_sk + 1e-12 and p_sk - res.objective <= 1e-8 * p_sk


def _independent_dual(prob, w):
    """A feasible dual point built here from the formulas (residuals, projection, box scaling) and its value:
    D(u) = (1/2m)(||y||^2 - ||y - m u||^2) (squared) or -(1/m) sum [t log t + (1 - t) log(1 - t)], t = m y u."""
    X = prob.X.toarray() if sp.issparse(prob.X) else np.asarray(prob.X)
    z = X @ w
    m = prob.m
    lam = prob.lam_vector
    U = lam == 0
    if prob.loss.name == "squared":
        u = (prob.y - z) / m
        if U.any():
            Q, _ = np.linalg.qr(X[:, U])
            u = u - Q @ (Q.T @ u)
        s = min(1.0, np.min(lam[~U] / np.maximum(np.abs(X[:, ~U].T @ u), 1e-300)))
        u = s * u
        return (prob.y @ prob.y - np.sum((prob.y - m * u) ** 2)) / (2 * m)
    t = expit(-prob.y * z)
    if U.any():   # one intercept column: balance the classes so that sum_i y_i t_i = 0
        pos = prob.y > 0
        a, b = t[pos].sum(), t[~pos].sum()
        t[pos if a > b else ~pos] *= min(a, b) / max(a, b)
    u = prob.y * t / m
    s = min(1.0, np.min(lam[~U] / np.maximum(np.abs(X[:, ~U].T @ u), 1e-300)))
    t = s * t
    return -np.sum(xlogy(t, t) + xlogy(1 - t, 1 - t)) / m


@pytest.mark.parametrize("loss", ["squared", "logistic"])
@pytest.mark.parametrize("intercept", [False, True])
def test_the_gap_is_never_below_the_true_sub_optimality(loss, intercept):
    """At random points and along the run: gap >= P(w) - P*, and the gap equals P(w) - D(u) for the dual point
    built independently from its formulas."""
    prob = _problem(loss, m=80, d=60, intercept=intercept, seed=5)
    _, p_star = reference_solution(prob, tol=1e-12)
    rng = np.random.default_rng(0)
    for scale in (0.0, 1e-3, 0.1, 1.0):
        w = scale * rng.standard_normal(prob.d) * (rng.random(prob.d) < 0.3)
        gap = duality_gap(prob, w)
        assert gap >= prob.objective(w) - p_star - 1e-14
        assert gap == pytest.approx(prob.objective(w) - _independent_dual(prob, w), rel=1e-9, abs=1e-13)
    res = working_set_cd(prob, tol=1e-10)
    assert np.all(res.trace.objective - p_star <= res.info["gaps"] + 1e-14)
    assert res.info["gaps"][-1] <= res.info["gap_target"]


@pytest.mark.parametrize("loss", ["squared", "logistic"])
def test_dense_and_sparse_storage_give_the_same_solution(loss):
    dense = _problem(loss, seed=6)
    sparse = Problem(sp.csc_matrix(dense.X), dense.y, loss, dense.lam)
    a = working_set_cd(dense, tol=1e-12).w
    b = working_set_cd(sparse, tol=1e-12).w
    assert np.max(np.abs(a - b)) <= 1e-9 * np.max(np.abs(a))


def test_same_input_same_numbers():
    prob = _problem("logistic", sparse=True, seed=7)
    a, b = working_set_cd(prob, tol=1e-9), working_set_cd(prob, tol=1e-9)
    assert np.array_equal(a.w, b.w) and np.array_equal(a.trace.objective, b.trace.objective)


@pytest.mark.parametrize("inner, anderson", [("cd", 0), ("cd", 5), ("newton", 0), ("newton", 5)])
def test_every_inner_solver_reaches_the_same_optimum(inner, anderson):
    prob = _problem("logistic", seed=8)
    w_ref, p_ref = reference_solution(prob, tol=1e-12)
    res = working_set_cd(prob, tol=1e-12, inner=inner, anderson=anderson)
    assert res.info["converged"] and res.info["inner"] == inner
    assert abs(res.objective - p_ref) <= 1e-12 * p_ref


def test_warm_start_and_stopping_rule():
    prob = _problem("squared", seed=9)
    cold = working_set_cd(prob, tol=1e-4)
    assert cold.info["gap"] <= 1e-4 * prob.objective(np.zeros(prob.d))
    warm = working_set_cd(prob, tol=1e-12, w0=cold.w)
    assert warm.trace.objective[0] == pytest.approx(cold.objective)
    assert warm.info["converged"]


def test_path_matches_single_solves_and_scikit_learn():
    prob = _problem("squared", m=100, d=200, seed=10)
    path = regularization_path(prob, n_lams=8, eps=1e-2, tol=1e-12)
    assert path.coefs.shape == (prob.d, 8) and np.all(np.diff(path.lams) < 0)
    assert path.lams[0] == pytest.approx(prob.lambda_max) and np.all(path.coefs[:, 0] == 0)
    assert np.all(path.converged)
    alphas, coefs, _ = lasso_path(prob.X, prob.y, alphas=path.lams, tol=1e-14, max_iter=100_000)
    assert np.max(np.abs(coefs - path.coefs)) <= 1e-8 * np.max(np.abs(coefs))
    k = 5
    single = working_set_cd(Problem(prob.X, prob.y, "squared", path.lams[k]), tol=1e-12).w
    assert np.max(np.abs(single - path.coefs[:, k])) <= 1e-8 * np.max(np.abs(single))


@pytest.mark.parametrize("sparse, intercept, extra", [(False, False, ""), (True, True, ""), (False, True, "tiny+empty"),
                                                   (True, False, "tiny+empty")])
def test_squared_path_kernel_takes_the_steps_of_warm_started_solves(sparse, intercept, extra):
    """The squared loss's path runs in one numba kernel; it must take the steps of working_set_cd warm-started
    along the grid (the Python loop), and each solution's gap, recomputed by duality_gap at its lam, must meet
    tol * P_null."""
    prob = _problem("squared", m=80, d=120, sparse=sparse, intercept=intercept, seed=13, tiny="tiny" in extra,
                    empty="empty" in extra)
    tol = 1e-9
    path = regularization_path(prob, n_lams=12, eps=1e-2, tol=tol)
    assert np.all(path.converged)
    w = prob.null_solution()
    p_null = None
    for k, lam in enumerate(path.lams):
        at = Problem(prob.X, prob.y, "squared", lam, penalty_weights=prob.penalty_weights)
        p_null = at.objective(at.null_solution()) if p_null is None else p_null
        if lam < prob.lambda_max:
            w = working_set_cd(at, tol=tol, w0=w).w
        # the same steps (the same working sets, ties broken alike), so the same iterates up to rounding
        np.testing.assert_allclose(path.coefs[:, k], w, rtol=1e-10, atol=1e-13)
        assert duality_gap(at, path.coefs[:, k]) <= tol * p_null * (1 + 1e-9)
        assert path.gaps[k] == pytest.approx(duality_gap(at, path.coefs[:, k]), rel=1e-6, abs=1e-15)


@pytest.mark.parametrize("sparse, intercept", [(False, False), (False, True), (True, True)])
def test_the_gram_path_reaches_the_column_paths_solutions_and_certifies_them(sparse, intercept):
    """With m > d the squared loss's path works on X^T X / m (gram="auto" for dense X, gram=True for sparse): the
    same solutions as reading the columns (gram=False) and as scikit-learn's lasso_path, each gap recomputed by
    duality_gap at its lam within tol * P_null."""
    prob = _problem("squared", m=300, d=60, sparse=sparse, intercept=intercept, seed=21)
    tol = 1e-12
    on_gram = regularization_path(prob, n_lams=15, eps=1e-3, tol=tol, gram="auto" if not sparse else True)
    on_columns = regularization_path(prob, n_lams=15, eps=1e-3, tol=tol, gram=False)
    assert on_gram.converged.all() and on_columns.converged.all()
    scale = np.abs(on_columns.coefs).max()
    assert np.count_nonzero(on_gram.coefs[:, -1]) >= 10
    np.testing.assert_allclose(on_gram.coefs, on_columns.coefs, rtol=0, atol=1e-9 * scale)
    if not sparse:
        np.testing.assert_array_equal(on_gram.coefs, regularization_path(prob, n_lams=15, eps=1e-3, tol=tol,
                                                                         gram=True).coefs)   # auto chose the Gram
    if not intercept:
        _, ref, _ = lasso_path(prob.X, prob.y, alphas=on_gram.lams, tol=1e-14, max_iter=100_000)
        np.testing.assert_allclose(on_gram.coefs, ref, rtol=0, atol=1e-8 * scale)
    p_null = prob.objective(prob.null_solution())
    for k in (3, 9, 14):
        at = Problem(prob.X, prob.y, "squared", on_gram.lams[k], penalty_weights=prob.penalty_weights)
        assert duality_gap(at, on_gram.coefs[:, k]) <= tol * p_null * (1 + 1e-9)


@pytest.mark.parametrize("intercept", [False, True])
def test_the_gram_gap_is_the_exact_gap(intercept):
    """The Gram path decides on a gap computed from X^T X / m alone (gram_gap) and recomputes a gap that ends a solve
    from X (exact_gap): at random points of several sparsities both are P(w) - D(u) of the same dual point, up to
    the rounding of differences of size ||y||^2; the exact one is duality_gap's."""
    from l1lab.solvers import _path_kernels as PK
    from l1lab.solvers.working_set import _Setup

    prob = _problem("squared", m=200, d=40, intercept=intercept, seed=23, frac=0.1)
    setup = _Setup(prob)
    m, d = prob.m, prob.d
    G = np.ascontiguousarray(prob._XT @ prob._XT.T / m)
    Q = setup.Q if setup.Q is not None else np.zeros((m, 0))
    XtQ = np.ascontiguousarray(setup.XtQ) if setup.XtQ is not None else np.zeros((d, 0))
    Qty = Q.T @ prob.y
    yy = float(prob.y @ prob.y)
    lam_j = prob.lam_vector
    rng = np.random.default_rng(0)
    work = [np.empty(m), np.empty(m), np.empty(m), np.empty(d), np.empty(Q.shape[1])]
    for density in (0.0, 0.1, 0.5, 1.0):
        w = rng.standard_normal(d) * (rng.random(d) < density)
        if intercept:
            w[-1] = 0.7
        grad = np.empty(d)
        PK.gram_gradient(G, setup.xty, w, grad)
        np.testing.assert_allclose(grad, prob.gradient(w), rtol=1e-10, atol=1e-12)
        z, r, u, xtu, coef = work
        estimate = PK.gram_gap(setup.xty, yy, w, lam_j, XtQ, Qty, grad, xtu, coef, m)
        exact = PK.exact_gap(False, prob._XT, np.zeros(1, np.uint64), np.zeros(0, np.uint32), np.zeros(0), prob.y,
                             yy, w, lam_j, Q, XtQ, grad.copy(), z, r, u, xtu, coef, True)
        assert exact == pytest.approx(duality_gap(prob, w), rel=1e-9, abs=1e-13)
        assert estimate == pytest.approx(exact, rel=1e-9, abs=1e-12 * yy / m)


def test_the_gram_option_is_checked():
    with pytest.raises(ValueError, match="gram must be 'auto', True or False"):
        regularization_path(_problem("squared", m=50, d=10, seed=1), n_lams=3, gram="yes")
    with pytest.raises(ValueError, match="gram=True is the squared loss's path.*logistic"):
        regularization_path(_problem("logistic", m=50, d=10, seed=1), n_lams=3, gram=True)
    with pytest.raises(ValueError, match="gram=True is the squared loss's path.*inner='newton'"):
        regularization_path(_problem("squared", m=50, d=10, seed=1), n_lams=3, gram=True, inner="newton")


def test_path_with_an_intercept_starts_at_the_null_model():
    prob = _problem("logistic", d=50, intercept=True, seed=11)
    path = regularization_path(prob, n_lams=5, eps=0.05, tol=1e-10)
    assert np.all(path.coefs[:-1, 0] == 0) and path.coefs[-1, 0] == pytest.approx(prob.null_solution()[-1])
    assert np.all(path.converged)


def test_clear_errors():
    prob = _problem("squared", d=20, seed=12)
    for kwargs, match in [({"tol": 0.0}, "tol"), ({"tol": np.nan}, "tol"), ({"max_outer": 1.5}, "max_outer"),
                          ({"max_epochs": 0}, "max_epochs"), ({"ws_start": True}, "ws_start"),
                          ({"anderson": -1}, "anderson"), ({"inner": "lbfgs"}, "inner"),
                          ({"w0": np.ones(3)}, "w0"), ({"w0": np.full(20, np.nan)}, "w0")]:
        with pytest.raises(ValueError, match=match):
            working_set_cd(prob, **kwargs)
    with pytest.raises(ValueError, match="lam > 0"):
        working_set_cd(Problem(prob.X, prob.y, "squared", 0.0))
    X, y, _ = make_classification(40, 10, 2, seed=0)
    with pytest.raises(ValueError, match="differentiable"):
        working_set_cd(Problem(X, y, "hinge", 0.01))
    weights = np.r_[np.zeros(1), np.ones(9)]   # an unpenalized column that is not an intercept
    with pytest.raises(ValueError, match="intercept"):
        working_set_cd(Problem(X, y, "logistic", 0.01, penalty_weights=weights))
    with pytest.raises(TypeError, match="Problem"):
        working_set_cd(np.ones((3, 3)))
    with pytest.raises(ValueError, match="eps"):
        regularization_path(prob, eps=2.0)
    with pytest.raises(ValueError, match="lams"):
        regularization_path(prob, lams=[0.1, -1.0])
    with pytest.raises(TypeError, match="unexpected"):
        regularization_path(prob, n_lams=3, bogus=1)


@pytest.mark.parametrize("sparse", [False, True])
def test_gradient_accesses_are_the_full_gradients_and_support_columns(sparse):
    """``info["gradient_accesses"]``: every outer iteration after the first reads all of X and its iterate's
    support columns (the first, at w = 0, reads nothing), recounted here from the trace's nonzeros on a problem
    whose columns all hold the same number of nonzeros; the rest of the accesses is the inner solves'."""
    rng = np.random.default_rng(3)
    m, d, per_col = 80, 200, 40
    X = np.zeros((m, d))
    for j in range(d):                       # every column has per_col nonzeros
        X[rng.choice(m, per_col, replace=False), j] = rng.uniform(-1, 1, per_col)
    y = X[:, :5] @ np.ones(5) + 0.1 * rng.standard_normal(m)
    Xs = sp.csc_matrix(X) if sparse else X
    prob = Problem(Xs, y, "squared", 0.05 * Problem(Xs, y, "squared", 1.0).lambda_max)
    res = working_set_cd(prob, tol=1e-10)
    nnz_X = float(d * per_col) if sparse else float(m * d)
    col = float(per_col) if sparse else float(m)
    nnz = res.trace.nnz.astype(float)
    expected = sum(nnz_X + col * k for k in nnz if k > 0)
    assert res.info["gradient_accesses"] == pytest.approx(expected, rel=1e-12)
    assert 0 < res.info["gradient_accesses"] < float(res.trace.data_accesses[-1])
