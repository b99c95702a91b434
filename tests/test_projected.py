import numpy as np
import pytest

from l1lab import Problem, reference_solution
from l1lab.data import make_classification, make_regression
from l1lab.projections import project_l1_ball
from l1lab.solvers.exponentiated import exponentiated_gradient
from l1lab.solvers.projected import projected_gradient


@pytest.fixture(scope="module")
def constrained():
    """The l1-constrained problem whose radius is ||w_lam||_1 of the penalized optimum: same minimizer."""
    X, y, _ = make_regression(120, 60, 6, seed=1)
    pen = Problem(X, y, "squared", 0.02)
    w_lam, _ = reference_solution(pen)
    z = float(np.abs(w_lam).sum())
    return Problem(X, y, "squared", 0.0), z, pen.smooth(w_lam)


def naive_psg(prob, rows, eta0, z, b):
    X = np.asarray(prob.X)
    w = np.zeros(prob.d)
    for t in range(len(rows) // b):
        batch = rows[t * b:(t + 1) * b]
        g = sum(prob.loss.deriv(X[i] @ w, prob.y[i]) * X[i] for i in batch) / b
        w = project_l1_ball(w - eta0 / np.sqrt(t + 1) * g, z)
    return w


@pytest.mark.parametrize("method,b", [("stochastic", 1), ("minibatch", 5)])
def test_stochastic_projected_gradient_follows_the_update(constrained, method, b):
    prob, z, _ = constrained
    res = projected_gradient(prob, 300, z, eta0=0.3, method=method, batch_size=b, seed=2)
    rows = np.random.default_rng(2).integers(0, prob.m, size=300 * b)
    np.testing.assert_allclose(res.w, naive_psg(prob, rows, 0.3, z, b), rtol=1e-9, atol=1e-12)
    assert np.abs(res.w).sum() <= z * (1 + 1e-12)
    assert res.trace.flops[-1] > 0 and np.all(np.diff(res.trace.flops) >= 0)


def test_batch_projected_gradient_reaches_the_constrained_optimum(constrained):
    """KKT equivalence: min C over ||w||_1 <= ||w_lam||_1 has the value C(w_lam)."""
    prob, z, c_star = constrained
    res = projected_gradient(prob, 3000, z, eta0=10.0, method="batch", line_search=True)
    assert abs(res.objective - c_star) <= 1e-8 * c_star
    assert np.abs(res.w).sum() <= z * (1 + 1e-12)
    plain = projected_gradient(prob, 300, z, eta0=2.0, method="batch")
    assert plain.objective < prob.objective(np.zeros(prob.d))


def test_stochastic_projected_gradient_converges(constrained):
    prob, z, c_star = constrained
    res = projected_gradient(prob, 40_000, z, eta0=0.5, method="stochastic", seed=0)
    c0 = prob.objective(np.zeros(prob.d))
    assert res.objective - c_star < 0.05 * (c0 - c_star)


def naive_eg(prob, rows, eta, z, n_slots_extra):
    X = np.asarray(prob.X)
    n = prob.d
    k = 2 * n + n_slots_extra
    up, um, ud = np.full(n, z / k), np.full(n, z / k), z / k * n_slots_extra
    for i in rows:
        w = up - um
        g = prob.loss.deriv(X[i] @ w, prob.y[i]) * X[i]
        up, um = up * np.exp(-eta * g), um * np.exp(eta * g)
        tot = up.sum() + um.sum() + ud
        up, um, ud = z * up / tot, z * um / tot, z * ud / tot
    return up - um


@pytest.mark.parametrize("dummy", [False, True])
def test_stochastic_eg_follows_the_update(dummy):
    X, y, _ = make_classification(80, 30, 4, density=0.3, seed=3)
    prob = Problem(X, y, "logistic", 0.0)
    res = exponentiated_gradient(prob, 500, 3.0, eta0=0.2, dummy=dummy, seed=4)
    rows = np.random.default_rng(4).integers(0, prob.m, size=500)
    Xd = X.toarray()
    np.testing.assert_allclose(res.w, naive_eg(Problem(Xd, y, "logistic", 0.0), rows, 0.2, 3.0, int(dummy)),
                               rtol=1e-9, atol=1e-12)
    assert np.abs(res.w).sum() <= 3.0 * (1 + 1e-12)
    assert np.count_nonzero(res.w) == prob.d  # EG iterates are never sparse


def test_batch_eg_decreases_the_objective(constrained):
    prob, z, c_star = constrained
    res = exponentiated_gradient(prob, 3000, z, eta0=0.3, method="batch")
    assert np.all(np.diff(res.trace.objective) <= 1e-12)
    assert res.objective - c_star < 0.05 * (prob.objective(np.zeros(prob.d)) - c_star)


def test_errors(constrained):
    prob, z, _ = constrained
    pen = Problem(np.asarray(prob.X), prob.y, "squared", 0.1)
    with pytest.raises(ValueError, match="lam=0"):
        projected_gradient(pen, 10, 1.0)
    with pytest.raises(ValueError, match="lam=0"):
        exponentiated_gradient(pen, 10, 1.0)
    with pytest.raises(ValueError, match="radius"):
        projected_gradient(prob, 10, 0.0)
    with pytest.raises(ValueError, match="method"):
        projected_gradient(prob, 10, 1.0, method="newton")
    with pytest.raises(ValueError, match="line_search"):
        projected_gradient(prob, 10, 1.0, method="stochastic", line_search=True)
    with pytest.raises(ValueError, match="batch_size"):
        projected_gradient(prob, 10, 1.0, method="minibatch", batch_size=0)
    with pytest.raises(ValueError, match="eta0"):
        exponentiated_gradient(prob, 10, 1.0, eta0=-1)
    with pytest.raises(ValueError, match="method"):
        exponentiated_gradient(prob, 10, 1.0, method="minibatch")


@pytest.mark.parametrize("schedule", ["sqrt", "constant"])
def test_tree_projection_gives_the_dense_iterates(schedule):
    X, y, _ = make_classification(200, 400, 5, density=0.05, seed=7)
    prob = Problem(X, y, "logistic", 0.0)
    dense = projected_gradient(prob, 2000, 2.0, eta0=0.5, seed=3, schedule=schedule)
    tree = projected_gradient(prob, 2000, 2.0, eta0=0.5, seed=3, schedule=schedule, projection="tree")
    np.testing.assert_allclose(tree.w, dense.w, atol=1e-12)
    np.testing.assert_allclose(tree.trace.objective, dense.trace.objective, rtol=1e-12)
    assert tree.trace.flops[-1] < dense.trace.flops[-1]
    if schedule == "constant":
        rows = np.random.default_rng(3).integers(0, prob.m, size=50)
        w = np.zeros(prob.d)
        Xd = X.toarray()
        for i in rows:
            w = project_l1_ball(w - 0.5 * prob.loss.deriv(Xd[i] @ w, y[i]) * Xd[i], 2.0)
        np.testing.assert_allclose(projected_gradient(prob, 50, 2.0, eta0=0.5, seed=3, schedule=schedule).w, w,
                                   atol=1e-12)


def test_projection_option_errors(constrained):
    prob, z, _ = constrained
    with pytest.raises(ValueError, match="projection"):
        projected_gradient(prob, 10, z, projection="sorted")
    with pytest.raises(ValueError, match="tree"):
        projected_gradient(prob, 10, z, method="batch", projection="tree")
    with pytest.raises(ValueError, match="schedule"):
        projected_gradient(prob, 10, z, schedule="linear")
