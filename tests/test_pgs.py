"""The Primal Gradient Solver (Zhu et al. 2009, Figures 1-2) and its quasi-Newton baseline."""
import math
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import minimize

from l1lab import Problem
from l1lab.data import make_classification, make_regression
from l1lab.data.pgs import direction_error, make_gaussian_classes, make_text_like
from l1lab.solvers import lbfgs, pgs
from l1lab.solvers.pgs import grad_r_star, pgs_objective, sample_batches
from l1lab.theory import zhu2009 as zhu


def pnorm(w, p):
    return float(np.sum(np.abs(w) ** p) ** (1.0 / p))


def naive_pgs(prob, batches, sigma, p, B=None):
    """Figure 1 written directly from the paper, dense, with grad r* from Corollaries 2-3 of l1lab.theory.zhu2009:
    returns the iterates w_0, ..., w_T."""
    X = prob.X.toarray() if prob.is_sparse else np.asarray(prob.X)
    lam = np.zeros(prob.d)
    w = np.zeros(prob.d)
    ws = [w]
    for t, A in enumerate(batches, start=1):
        lam_t = np.mean([prob.loss.deriv(X[i] @ w, prob.y[i]) * X[i] for i in A], axis=0)
        lam = lam - lam_t
        theta = lam / ((t + 1) * sigma)
        w = zhu.corollary3_conjugate_gradient(theta, p) if B is None else zhu.corollary2_conjugate_gradient(theta, p, B)
        ws.append(w)
    return np.array(ws)


def numerical_argmax(theta, p, B=None):
    """argmax_{w in S} <w, theta> - ||w||_p^2/(2(p-1)) by a generic optimizer (no Hoelder structure used)."""
    n = theta.size

    def f(w):
        a = np.abs(w)
        s = np.sum(a ** p)
        if s == 0:
            return 0.0, -theta
        nrm = s ** (1 / p)
        return nrm ** 2 / (2 * (p - 1)) - w @ theta, nrm ** (2 - p) * np.sign(w) * a ** (p - 1) / (p - 1) - theta

    x0 = np.full(n, 1e-3)
    if B is None:
        res = minimize(f, x0, jac=True, method="L-BFGS-B", options={"gtol": 1e-13, "ftol": 1e-16, "maxiter": 5000})
    else:
        cons = {"type": "ineq", "fun": lambda w: B ** p - np.sum(np.abs(w) ** p),
                "jac": lambda w: -p * np.sign(w) * np.abs(w) ** (p - 1)}
        res = minimize(f, x0, jac=True, method="SLSQP", constraints=[cons],
                       options={"ftol": 1e-15, "maxiter": 1000})
    return res.x, -res.fun


# ------------------------------------------------------------------------------------------ grad r* (Figure 2)
@pytest.mark.parametrize("p", [2.0, 1.8, 1.5, 1.25])
@pytest.mark.parametrize("B", [None, 0.7, 5.0])
def test_grad_r_star_is_the_argmax_and_the_gradient_of_r_star(p, B):
    """Lemma 2: grad r*(theta) = argmax_{w in S} <w, theta> - r(w); checked against a numerical maximization and
    against central finite differences of the conjugate value r* (eq. (27), Corollary 3)."""
    rng = np.random.default_rng(int(10 * p) + (0 if B is None else int(10 * B)))
    for _ in range(3):
        theta = rng.standard_normal(6) * rng.choice([0.3, 1.0, 3.0])
        g = grad_r_star(theta, p, B)
        w_num, val_num = numerical_argmax(theta, p, B)
        assert np.max(np.abs(g - w_num)) <= 2e-5 * max(1.0, np.max(np.abs(g)))
        conj = (lambda th: zhu.corollary3_conjugate(th, p)) if B is None else \
            (lambda th: zhu.corollary2_conjugate(th, p, B))
        assert conj(theta) == pytest.approx(val_num, rel=1e-7, abs=1e-9)
        assert theta @ g - zhu.regularizer(g, p) == pytest.approx(conj(theta), rel=1e-12, abs=1e-14)
        h = 1e-6
        fd = np.array([(conj(theta + h * e) - conj(theta - h * e)) / (2 * h) for e in np.eye(theta.size)])
        np.testing.assert_allclose(g, fd, rtol=1e-6, atol=1e-7)
        if B is not None:
            assert pnorm(g, p) <= B * (1 + 1e-12)


def test_figure2_printed_rescaling_leaves_S():
    """Figure 2, line 6 prints w <- B w/||w||_q.  For p < 2 that w has p-norm B ||w||_p/||w||_q > B: it leaves S,
    while the p-norm rescaling of Corollary 2 lands on the sphere ||w||_p = B."""
    rng = np.random.default_rng(0)
    p, B = 1.5, 0.5
    theta = rng.standard_normal(20) * 3
    right = grad_r_star(theta, p, B)
    printed = grad_r_star(theta, p, B, printed_rescaling=True)
    unconstrained = grad_r_star(theta, p)
    q = p / (p - 1)
    assert pnorm(unconstrained, p) > B  # the rescaling line is reached
    assert pnorm(right, p) == pytest.approx(B, rel=1e-12)
    assert pnorm(printed, p) == pytest.approx(B * pnorm(unconstrained, p) / pnorm(unconstrained, q), rel=1e-12)
    assert pnorm(printed, p) > 1.2 * B  # outside S: it cannot be the argmax over S that Lemma 2 asks for
    # at p = 2 the two norms coincide and so do the two lines
    np.testing.assert_allclose(grad_r_star(theta, 2.0, B), grad_r_star(theta, 2.0, B, printed_rescaling=True))


def test_grad_r_star_matches_corollaries_and_scalar_trick():
    rng = np.random.default_rng(1)
    theta = rng.standard_normal(50) * np.exp(rng.uniform(-8, 8, 50))
    for p in (2.0, 1.7, 1.1):
        np.testing.assert_allclose(grad_r_star(theta, p), zhu.corollary3_conjugate_gradient(theta, p), rtol=1e-11)
        np.testing.assert_allclose(grad_r_star(theta, p, 2.0), zhu.corollary2_conjugate_gradient(theta, p, 2.0),
                                   rtol=1e-11)
    np.testing.assert_allclose(grad_r_star(theta, 2.0), theta, rtol=1e-15)  # eq. (10): w = theta at p = 2
    assert np.all(grad_r_star(np.zeros(4), 1.5, 1.0) == 0)


# ------------------------------------------------------------------------------------------ Figure 1
CASES = [("logistic", False, 2.0, None, 1), ("logistic", True, 1.6, None, 3), ("hinge", True, 2.0, 0.4, 1),
         ("hinge", False, 1.3, None, 4), ("squared", True, 2.0, 0.5, 2), ("squared", False, 1.5, 0.3, 1),
         ("logistic", True, 1.2, 0.8, 5)]


@pytest.mark.parametrize("loss,sparse,p,B,k", CASES)
def test_pgs_follows_figure_1(loss, sparse, p, B, k):
    gen = make_regression if loss == "squared" else make_classification
    X, y, _ = gen(50, 30, 4, density=0.2 if sparse else 1.0, seed=2)
    prob = Problem(X, y, loss, 0.0)
    T, sigma = 300, 0.05
    ws = naive_pgs(prob, sample_batches(prob.m, k, T, seed=3), sigma, p, B)
    scale = np.max(np.abs(ws))
    last = pgs(prob, T, sigma, p=p, k=k, B=B, seed=3, output="last")
    np.testing.assert_allclose(last.w, ws[-1], rtol=0, atol=1e-11 * scale)
    avg = pgs(prob, T, sigma, p=p, k=k, B=B, seed=3, output="average")
    np.testing.assert_allclose(avg.w, ws[:-1].mean(axis=0), rtol=0, atol=1e-11 * scale)
    # Figure 2's O(n) recomputation of ||lambda||_q gives the same iterates as the running sum
    exact = pgs(prob, T, sigma, p=p, k=k, B=B, seed=3, output="average", exact_norm=True)
    np.testing.assert_allclose(exact.w, avg.w, rtol=0, atol=1e-11 * scale)
    # the random output is one of the points played, w_0, ..., w_{T-1}
    rnd = pgs(prob, T, sigma, p=p, k=k, B=B, seed=3, output="random")
    assert np.min(np.max(np.abs(ws[:-1] - rnd.w), axis=1)) <= 1e-11 * scale
    assert last.trace.objective[-1] == pytest.approx(pgs_objective(prob, ws[-1], sigma, p), rel=1e-10)
    assert last.trace.data_accesses[-1] == prob.row_nnz[sample_batches(prob.m, k, T, seed=3)].sum()


def test_sparse_input_is_not_densified_and_gives_the_dense_answer():
    X, y, _ = make_classification(80, 40, 5, density=0.1, seed=4)
    sparse, dense = Problem(X, y, "logistic", 0.0), Problem(X.toarray(), y, "logistic", 0.0)
    for p in (2.0, 1.5):
        a = pgs(sparse, 500, 0.1, p=p, seed=1, output="last")
        b = pgs(dense, 500, 0.1, p=p, seed=1, output="last")
        np.testing.assert_allclose(a.w, b.w, rtol=1e-12, atol=1e-14)
        assert a.trace.data_accesses[-1] == b.trace.data_accesses[-1]
    # the CCAT-shaped set: a step reads the sampled rows only (about 76 entries), not the 47 236 features
    Xt, yt, _ = make_text_like(3000, seed=0)
    assert sp.issparse(Xt)
    assert abs(Xt.nnz / np.prod(Xt.shape) - 0.0016) < 0.0002
    prob = Problem(Xt, yt, "logistic", 0.0)
    res = pgs(prob, 2000, 1e-4, p=1.8, seed=0, output="last", record_objective=False)
    assert res.trace.data_accesses[-1] == prob.row_nnz[sample_batches(prob.m, 1, 2000, seed=0)].sum()
    assert res.trace.data_accesses[-1] < 2000 * 150


@pytest.mark.parametrize("p", [2.0, 1.5])
def test_iterates_stay_in_S_and_reach_its_boundary(p):
    X, y, _ = make_classification(100, 20, 5, seed=5)
    prob = Problem(X, y, "hinge", 0.0)
    B, T = 0.3, 300
    res = pgs(prob, T, 0.01, p=p, B=B, seed=2, output="last", n_checkpoints=2000,
              monitor=lambda w: pnorm(w, p))
    assert np.array_equal(res.trace.iteration, np.arange(T + 1))  # every iterate w_0, ..., w_T
    norms = res.info["monitor"]
    assert np.all(norms <= B * (1 + 1e-12))
    assert np.max(norms) == pytest.approx(B, rel=1e-12)  # the constraint is active: the test is not vacuous
    avg = pgs(prob, T, 0.01, p=p, B=B, seed=2, output="average", monitor=lambda w: pnorm(w, p))
    assert np.all(avg.info["monitor"] <= B * (1 + 1e-12))  # S is convex


# ------------------------------------------------------------------------------------------ vs L-BFGS
def _sklearn_value(prob, sigma):
    """F at scikit-learn's solution of the p = 2 problem (liblinear), an independent comparator."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.svm import LinearSVC

    C = 1.0 / (sigma * prob.m)  # sigma/2 ||w||^2 + (1/m) sum l  <=>  1/2 ||w||^2 + C sum l
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if prob.loss.name == "logistic":
            est = LogisticRegression(C=C, fit_intercept=False, tol=1e-12, max_iter=100_000, solver="lbfgs")
        else:
            est = LinearSVC(C=C, fit_intercept=False, loss="hinge", tol=1e-9, max_iter=100_000, dual=True,
                            random_state=0)
        est.fit(prob.X, prob.y)
    return pgs_objective(prob, est.coef_.ravel(), sigma, 2.0)


@pytest.mark.parametrize("loss,p,B", [("logistic", 2.0, None), ("logistic", 1.5, None), ("hinge", 2.0, None),
                                       ("squared", 2.0, "radius"), ("squared", 1.7, "radius"),
                                       ("logistic", 1.5, 0.4)])
def test_pgs_reaches_the_lbfgs_optimum(loss, p, B):
    gen = make_regression if loss == "squared" else make_classification
    X, y, _ = gen(200, 10, 4, seed=2)
    prob = Problem(X, y, loss, 0.0)
    sigma = 0.1
    if B == "radius":  # Section IV: this S contains the optimum, so the constraint is inactive
        B = zhu.least_squares_radius(prob.smooth(np.zeros(prob.d)), sigma, p)
    ref = lbfgs(prob, sigma, p=p, B=B)
    if p == 2.0 and loss == "logistic":
        assert ref.objective == pytest.approx(_sklearn_value(prob, sigma), rel=1e-8)
    if p == 2.0 and loss == "hinge":  # L-BFGS on the smoothed hinge: within mu/2 of the optimum
        assert -1e-10 <= ref.objective - _sklearn_value(prob, sigma) <= ref.info["hinge_gap_bound"]
    if B is not None:
        assert pnorm(ref.w, p) <= B * (1 + 1e-12)
        if ref.info["nu"] > 0:  # active: ||w||_p = B and w minimizes (sigma + nu) r + C (KKT)
            assert pnorm(ref.w, p) == pytest.approx(B, rel=1e-6)
    res = pgs(prob, 10 ** 6, sigma, p=p, B=B, seed=0, output="last", n_checkpoints=10)
    gap = (res.objective - ref.objective) / ref.objective
    assert -1e-9 <= gap <= 1e-4


def test_lbfgs_active_constraint_satisfies_kkt():
    X, y, _ = make_classification(150, 8, 4, seed=6)
    prob = Problem(X, y, "logistic", 0.0)
    sigma, p, B = 0.01, 1.5, 0.5
    free = lbfgs(prob, sigma, p=p)
    assert pnorm(free.w, p) > B  # the unconstrained optimum lies outside S
    res = lbfgs(prob, sigma, p=p, B=B)
    nu = res.info["nu"]
    assert nu > 0 and pnorm(res.w, p) == pytest.approx(B, rel=1e-6)
    # stationarity: grad C(w) + (sigma + nu) grad r(w) = 0, with grad r = ||w||^(2-p) sgn|w|^(p-1)/(p-1)
    w = res.w
    grad_r = pnorm(w, p) ** (2 - p) * np.sign(w) * np.abs(w) ** (p - 1) / (p - 1)
    resid = prob.gradient(w) + (sigma + nu) * grad_r
    assert np.max(np.abs(resid)) <= 1e-6 * np.max(np.abs(prob.gradient(w)))
    # and every feasible point on the sphere in a random direction is worse
    rng = np.random.default_rng(0)
    for _ in range(20):
        v = w + 0.05 * rng.standard_normal(w.size)
        v *= B / pnorm(v, p)
        assert pgs_objective(prob, v, sigma, p) >= res.objective


def test_lbfgs_hinge_smoothing_bound_and_trace():
    X, y, _ = make_classification(120, 6, 3, seed=7)
    prob = Problem(X, y, "hinge", 0.0)
    res = lbfgs(prob, 0.05, hinge_mu=1e-3)
    fine = lbfgs(prob, 0.05)
    assert res.info["hinge_gap_bound"] == 5e-4
    assert fine.objective <= res.objective <= fine.objective + 5e-4
    tr = res.trace
    assert tr.iteration[0] == 0 and np.all(np.diff(tr.iteration) > 0) and tr.iteration[-1] == res.info["iterations"]
    assert np.all(np.diff(tr.data_accesses) >= 0) and tr.data_accesses[-1] == res.info["evaluations"] * prob.nnz
    assert tr.objective[-1] == pytest.approx(pgs_objective(prob, res.w, 0.05, 2.0), rel=1e-14)


# ------------------------------------------------------------------------------------------ the inverse dependency
def test_inverse_dependency_on_the_gaussian_toy():
    """Figure 9 analogue, one data seed: iterations of PGS (p = 2, logistic, k = 1, averaged output, fixed sigma) until
    the direction error ||w*/||w*|| - w/||w||||_2 reaches a target, median over 9 runs.  The target is the error of
    the exact regularized optimum on the smallest set (m = 1e3) plus 10 %: reachable for every m, but for m = 1e3
    only once PGS has nearly converged, while with m = 1e5 the empirical optimum is far better than the target and a
    rougher solution suffices: Theorem 2's T = O(1/(eps^2 - O(1/m))) falls with m."""
    X, y, w_star = make_gaussian_classes(100_000, 10, condition=1.0, seed=0)
    sigma, T = 1e-3, 50_000
    small = Problem(X[:1000], y[:1000], "logistic", 0.0)
    target = 1.1 * direction_error(lbfgs(small, sigma).w, w_star)
    med = {}
    for m in (1000, 10_000, 100_000):
        prob = Problem(X[:m], y[:m], "logistic", 0.0)
        hits = []
        for s in range(9):
            r = pgs(prob, T, sigma, seed=s, output="average", record_objective=False, n_checkpoints=100,
                    monitor=lambda w: direction_error(w, w_star))
            below = np.flatnonzero(r.info["monitor"] <= target)
            hits.append(r.trace.iteration[below[0]] if below.size else math.inf)
        med[m] = float(np.median(hits))
    assert math.isfinite(med[1000])
    assert med[100_000] <= med[1000], med


# ------------------------------------------------------------------------------------------ API and input errors
def test_determinism_and_prefix_consistency():
    X, y, _ = make_classification(60, 15, 3, density=0.3, seed=8)
    prob = Problem(X, y, "logistic", 0.0)
    a = pgs(prob, 400, 0.1, p=1.5, k=2, seed=11, output="random")
    b = pgs(prob, 400, 0.1, p=1.5, k=2, seed=11, output="random")
    np.testing.assert_array_equal(a.w, b.w)
    np.testing.assert_array_equal(a.trace.objective, b.trace.objective)
    # the iterates do not depend on output or n_checkpoints, and a longer run extends a shorter one
    short = pgs(prob, 250, 0.1, p=1.5, k=2, seed=11, output="last", n_checkpoints=5)
    long = pgs(prob, 400, 0.1, p=1.5, k=2, seed=11, output="last", n_checkpoints=3000,
               monitor=lambda w: float(w @ np.arange(w.size)))
    i = int(np.flatnonzero(long.trace.iteration == 250)[0])
    assert long.info["monitor"][i] == pytest.approx(float(short.w @ np.arange(short.w.size)), rel=1e-13)
    assert pgs(prob, 400, 0.1, p=1.5, k=2, seed=12).w.tolist() != a.w.tolist()


def test_sample_batches_are_uniform_subsets():
    m, k, T = 7, 3, 21000
    bt = sample_batches(m, k, T, seed=0)
    srt = np.sort(bt, axis=1)
    assert np.all(np.diff(srt, axis=1) > 0)  # k distinct examples per step
    # all C(7, 3) = 35 subsets equally likely: chi-square with 34 degrees of freedom
    codes = (srt * np.array([49, 7, 1])).sum(axis=1)
    _, counts = np.unique(codes, return_counts=True)
    assert counts.size == 35
    chi2 = np.sum((counts - T / 35) ** 2 / (T / 35))
    assert chi2 < 65  # the 0.999 quantile of chi2(34) is 65.2
    np.testing.assert_array_equal(sample_batches(m, k, T, seed=0), bt)
    assert np.all(sample_batches(5, 5, 3, seed=1).sum(axis=1) == 10)  # k = m: every example


def test_input_errors():
    X, y, _ = make_classification(30, 5, 2, seed=9)
    prob = Problem(X, y, "logistic", 0.0)
    for p in (1.0, 2.5, 0.5, math.nan):
        with pytest.raises(ValueError, match="p must lie in"):
            pgs(prob, 10, 0.1, p=p)
    for sigma in (0.0, -1.0, math.inf):
        with pytest.raises(ValueError, match="sigma"):
            pgs(prob, 10, sigma)
    for k in (0, 31, 2.5):
        with pytest.raises(ValueError, match="mini-batch size k"):
            pgs(prob, 10, 0.1, k=k)
    with pytest.raises(ValueError, match="radius B"):
        pgs(prob, 10, 0.1, B=0.0)
    with pytest.raises(ValueError, match="lam=0"):
        pgs(Problem(X, y, "logistic", 0.1), 10, 0.1)
    with pytest.raises(ValueError, match="output"):
        pgs(prob, 10, 0.1, output="best")
    Xr, yr, _ = make_regression(30, 5, 2, seed=9)
    with pytest.raises(ValueError, match="least-squares loss is not Lipschitz"):
        pgs(Problem(Xr, yr, "squared", 0.0), 10, 0.1)
    with pytest.raises(ValueError, match="distinct"):
        pgs(prob, 2, 0.1, batches=np.array([[0, 1], [3, 3]]))
    with pytest.raises(ValueError, match="n_iter"):
        pgs(prob, 3, 0.1, batches=np.array([[0, 1], [3, 4]]))
    with pytest.raises(ValueError, match="lam=0"):
        lbfgs(Problem(X, y, "logistic", 0.1), 0.1)
    with pytest.raises(ValueError, match="p must lie in"):
        lbfgs(prob, 0.1, p=1.0)
    with pytest.raises(TypeError):
        pgs(X, 10, 0.1)


@pytest.mark.parametrize("p", [1.8, 1.02])
def test_averaged_output_is_exact_for_p_near_1(p):
    """The averaged output sums w_t = c_t phi(lambda) lazily; for p near 1, c_t ~ S^((p-2)/p) can fall by many orders
    between exact recomputes of the running sum S = ||lambda/M||_q^q.  Checked against the plain sum of every
    iterate (in extended precision)."""
    X, y, _ = make_text_like(1000, n_features=500, density=0.02, seed=1)
    prob = Problem(X, y, "logistic", 0.0)
    T = 3000
    acc = {"s": np.zeros(prob.d, dtype=np.longdouble), "n": 0}

    def add(w):
        if acc["n"] < T:
            acc["s"] += w
        acc["n"] += 1
        return 0.0

    pgs(prob, T, 1e-4, p=p, k=2, seed=0, output="last", record_objective=False, n_checkpoints=40 * T, monitor=add)
    assert acc["n"] == T + 1
    ref = (acc["s"] / T).astype(np.float64)
    avg = pgs(prob, T, 1e-4, p=p, k=2, seed=0, output="average", record_objective=False)
    assert np.max(np.abs(avg.w - ref)) <= 1e-11 * np.max(np.abs(ref))


# ------------------------------------------------------------------------------------------ data
def test_gaussian_classes_have_the_stated_logistic_optimum():
    """Shared-covariance Gaussian classes, truncated to [-1, 1]^n symmetrically: P(y=1|x) = sigmoid(<w*, x>), so the
    (nearly unregularized) empirical logistic minimizer on 1e5 examples is close to w* -- and w* is not the trivial
    direction mu of the class means when the covariance is not isotropic."""
    from l1lab.data.pgs import gaussian_classes_model

    X, y, w_star = make_gaussian_classes(100_000, 10, condition=10.0, seed=3)
    assert np.max(np.abs(X)) <= 1 and set(np.unique(y)) == {-1.0, 1.0}
    fit = lbfgs(Problem(X, y, "logistic", 0.0), 1e-7).w
    assert np.linalg.norm(fit - w_star) <= 0.03 * np.linalg.norm(w_star)
    mu, cov, scale, w2 = gaussian_classes_model(10, condition=10.0, seed=3)
    np.testing.assert_array_equal(w2, w_star)
    assert direction_error(mu, w_star) > 0.3
    # more data extends the same data set
    X1, y1, _ = make_gaussian_classes(1000, 10, condition=10.0, seed=3)
    np.testing.assert_array_equal(X1, X[:1000])
    np.testing.assert_array_equal(y1, y[:1000])
    assert direction_error(np.zeros(10), w_star) == math.inf


def test_text_like_has_the_ccat_shape():
    X, y, w_ref = make_text_like(4000, seed=5)
    assert X.shape == (4000, 47236)
    assert abs(X.nnz / np.prod(X.shape) - 0.0016) < 0.0001
    np.testing.assert_allclose(np.sqrt(np.asarray(X.multiply(X).sum(axis=1)).ravel()), 1.0, rtol=1e-14)
    assert X.data.min() > 0 and X.data.max() <= 1
    assert abs(np.mean(y > 0) - 0.47) < 0.03
    # the topic terms carry the label: the naive-Bayes direction classifies far above chance, below 1 - flip + slack
    acc = np.mean(np.sign(X @ w_ref) == y)
    assert 0.85 < acc < 0.99
    # the same population (model_seed) with other documents (seed)
    X2, y2, w2 = make_text_like(10, seed=6)
    np.testing.assert_array_equal(w2, w_ref)
    assert (X2 != make_text_like(10, seed=5)[0]).nnz > 0
