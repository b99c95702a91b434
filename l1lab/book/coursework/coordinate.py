r"""Graded problems of the coordinate lectures: the ℓ1 problem (lecture 1) and stochastic coordinate descent
(lecture 2).

Each student gets their own data (sizes, sparsity, the loss) and their own λ, step count and accuracy; the
worked exercises of the lectures teach the formulas, these problems ask for them on new data and one step further
(an optimal value the student must certify, Theorem 1's iteration count with the student's own w★).
"""
from __future__ import annotations

import numpy as np

from ._core import Assignment, Question

__all__ = ["ASSIGNMENTS", "L1_PROBLEM", "SCD"]


def _problem(v, X=None, y=None, lam=None):
    from l1lab import Problem
    return Problem(v["X"] if X is None else X, v["y"] if y is None else y, v["params"]["loss"],
                   v["params"]["lam"] if lam is None else lam)


def _data(rng, loss, m, d, k):
    from l1lab.data import make_classification, make_regression
    seed = int(rng.integers(2 ** 31))
    if loss == "squared":
        X, y, _ = make_regression(m, d, k, noise=0.1, seed=seed)
    else:
        X, y, _ = make_classification(m, d, k, flip=0.1, seed=seed)
    return X, y


def _round(x, digits=4):
    return float(f"{x:.{digits}g}")


# ------------------------------------------------------------------------------------------- lecture 1
def _l1_variant(rng):
    loss = str(rng.choice(["squared", "logistic"]))
    m, d, k = int(rng.integers(50, 121)), int(rng.integers(10, 26)), int(rng.integers(2, 5))
    X, y = _data(rng, loss, m, d, k)
    weights = np.round(rng.uniform(0.5, 2.0, size=d), 2)
    lam_max = float(np.abs(X.T @ _deriv0(loss, y)).max() / m)
    lam = _round(float(rng.uniform(0.1, 0.4)) * lam_max)
    return {"params": {"loss": loss, "m": m, "d": d, "lam": lam}, "X": X, "y": y, "weights": weights}


def _deriv0(loss, y):
    """L'(0, y): the derivative of the loss at the prediction 0."""
    return -y if loss == "squared" else -y / 2.0


def _weighted_lam_max(v):
    p = v["params"]
    return float(np.max(np.abs(v["X"].T @ _deriv0(p["loss"], v["y"])) / p["m"] / v["weights"]))


def _residual_cases(v):
    from l1lab import reference_solution
    p = v["params"]
    w_star, _ = reference_solution(_problem(v), tol=1e-12)
    rng = np.random.default_rng(len(v["y"]))
    w_other = np.where(rng.random(p["d"]) < 0.3, rng.normal(size=p["d"]), 0.0)
    return [((X, y, w, lam), _problem(v, X, y, lam).optimality_residual(w))
            for X, y, w, lam in ((v["X"], v["y"], w_star, p["lam"]), (v["X"], v["y"], w_other, 2 * p["lam"]),
                                 (v["X"][: p["m"] // 2], v["y"][: p["m"] // 2], np.zeros(p["d"]), p["lam"] / 3))]

def _optimal_value(v):
    from l1lab import reference_solution
    return reference_solution(_problem(v), tol=1e-12)[1]


L1_PROBLEM = Assignment(
    name="l1_problem", lecture="l1_problem", title="The ℓ1 problem on your data", week=1,
    make_variant=_l1_variant,
    intro="Your data: `task.X` (m × d, entries in [-1, 1]), `task.y`, the loss `task.params['loss']` "
          "(squared: L(a, y) = (a − y)²/2; logistic: L(a, y) = log(1 + exp(−y a))), and `task.weights`.",
    questions=(
        Question(
            "q1", "λ_max of a weighted penalty", points=2, difficulty=2, minutes=15, kind="value",
            prompt="The lecture's λ_max is the smallest λ at which w = 0 minimizes P. With a **weighted** penalty "
                   "λ Σ_j c_j |w_j| (weights c_j = `task.weights[j]` > 0), what is the smallest λ at which w = 0 is "
                   "optimal, for your data and your loss ({loss})? Assign it to `answer_q1`.",
            expected=_weighted_lam_max,
            solution="p = task.params\n"
                     "deriv0 = -task.y if p['loss'] == 'squared' else -task.y / 2\n"
                     "answer_q1 = np.max(np.abs(task.X.T @ deriv0) / p['m'] / task.weights)",
            rtol=1e-9, atol=1e-12),
        Question(
            "q2", "An optimality residual", points=3, difficulty=2, minutes=20, kind="function",
            function="residual",
            prompt="Write `residual(X, y, w, lam)`: for the {loss} loss, the largest distance, over the coordinates "
                   "j, from −∂_j C(w) to λ times the subdifferential of |w_j| (so 0 exactly at the minimizer, the "
                   "optimality condition of the lecture). It is checked on your data at the optimum, at another "
                   "point and on other data.",
            starter="def residual(X, y, w, lam):\n    PLACEHOLDER",
            expected=_residual_cases,
            solution="def residual(X, y, w, lam):\n"
                     "    a = X @ w\n"
                     "    if task.params['loss'] == 'squared':\n"
                     "        lp = a - y\n"
                     "    else:\n"
                     "        lp = -y / (1 + np.exp(y * a))\n"
                     "    g = X.T @ lp / len(y)\n"
                     "    r = np.where(w != 0, np.abs(g + lam * np.sign(w)), np.maximum(np.abs(g) - lam, 0))\n"
                     "    return r.max()",
            rtol=1e-6, atol=1e-9),
        Question(
            "q3", "The optimal value, certified", points=3, difficulty=3, minutes=30, kind="value",
            prompt="Minimize P(w) = (1/m) Σ L(⟨w, x_i⟩, y_i) + λ‖w‖₁ for your data, loss ({loss}) and λ = {lam} "
                   "with your own code (a proximal gradient or coordinate method), until your `residual` is below "
                   "1e-10, and assign the optimal value P★ to `answer_q3` (checked to a relative 1e-7).",
            expected=_optimal_value,
            solution="X, y, lam, m = task.X, task.y, task.params['lam'], task.params['m']\n"
                     "beta = 1.0 if task.params['loss'] == 'squared' else 0.25\n"
                     "L = beta * np.linalg.norm(X, 2) ** 2 / m   # smoothness of C\n"
                     "w = np.zeros(X.shape[1])\n"
                     "for _ in range(200_000):\n"
                     "    a = X @ w\n"
                     "    lp = a - y if beta == 1.0 else -y / (1 + np.exp(y * a))\n"
                     "    z = w - X.T @ lp / m / L\n"
                     "    w = np.sign(z) * np.maximum(np.abs(z) - lam / L, 0)\n"
                     "    if residual(X, y, w, lam) < 1e-10:\n"
                     "        break\n"
                     "a = X @ w\n"
                     "loss = 0.5 * (a - y) ** 2 if beta == 1.0 else np.logaddexp(0, -y * a)\n"
                     "answer_q3 = loss.mean() + lam * np.abs(w).sum()",
            rtol=1e-7, atol=1e-12),
    ))


# ------------------------------------------------------------------------------------------- lecture 2
def _scd_variant(rng):
    loss = str(rng.choice(["squared", "logistic"]))
    m, d, k = int(rng.integers(60, 121)), int(rng.integers(12, 31)), int(rng.integers(2, 6))
    X, y = _data(rng, loss, m, d, k)
    lam_max = float(np.abs(X.T @ _deriv0(loss, y)).max() / m)
    lam = _round(float(rng.uniform(0.05, 0.3)) * lam_max)
    T = int(rng.integers(3, 9)) * d
    coords = rng.integers(0, d, size=T)
    eps = float(10.0 ** -int(rng.integers(3, 6)))
    return {"params": {"loss": loss, "m": m, "d": d, "lam": lam, "T": T, "eps": eps}, "X": X, "y": y,
            "coords": coords}


def _scd_run(problem, coords):
    from l1lab.solvers.coordinate import _run
    coords = np.asarray(coords, dtype=np.int64)
    return _run(problem, len(coords), 2, problem.loss.beta, lambda a, b: coords[a:b], "scd", None, None).w


def _scd_cases(v):
    p = v["params"]
    rng = np.random.default_rng(p["T"])
    half = p["m"] // 2
    coords2 = rng.integers(0, p["d"], size=2 * p["d"])
    cases = [((v["X"], v["y"], p["lam"], v["coords"]), _scd_run(_problem(v), v["coords"])),
             ((v["X"][:half], v["y"][:half], p["lam"] / 2, coords2),
              _scd_run(_problem(v, v["X"][:half], v["y"][:half], p["lam"] / 2), coords2))]
    return cases


def _theorem1_T(v):
    from l1lab import reference_solution
    from l1lab.theory import shalev_shwartz_tewari as sst
    p = v["params"]
    problem = _problem(v)
    w_star, _ = reference_solution(problem, tol=1e-12)
    return sst.scd_iterations_for_accuracy(p["eps"], p["d"], sst.scd_psi0(problem.loss.beta, w_star,
                                                                         problem.objective(np.zeros(p["d"]))))


SCD = Assignment(
    name="scd", lecture="scd", title="Stochastic coordinate descent on your data", week=2,
    make_variant=_scd_variant,
    intro="Your data: `task.X` (m × d, entries in [-1, 1]), `task.y`, the loss `task.params['loss']`, and a "
          "stream of coordinates `task.coords` (T of them). β is the bound on L'' of eq. (7): 1 for the squared "
          "loss, 1/4 for the logistic loss.",
    questions=(
        Question(
            "q1", "Algorithm 1, step by step", points=4, difficulty=2, minutes=25, kind="function",
            function="scd_steps",
            prompt="Write `scd_steps(X, y, lam, coords)`: Algorithm 1 for the {loss} loss with the step 1/β, from "
                   "w = 0, updating the coordinates in the order `coords`, returning the final w. Keep the "
                   "predictions X w up to date (one column per step), as the lecture's code does. It is checked "
                   "on your data and stream (T = {T} steps, λ = {lam}) and on other data.",
            starter="def scd_steps(X, y, lam, coords):\n    PLACEHOLDER",
            expected=_scd_cases,
            solution="def scd_steps(X, y, lam, coords):\n"
                     "    squared = task.params['loss'] == 'squared'\n"
                     "    beta = 1.0 if squared else 0.25\n"
                     "    m, d = X.shape\n"
                     "    w, a = np.zeros(d), np.zeros(m)\n"
                     "    for j in coords:\n"
                     "        lp = a - y if squared else -y / (1 + np.exp(y * a))\n"
                     "        g = X[:, j] @ lp / m\n"
                     "        z = w[j] - g / beta\n"
                     "        new = np.sign(z) * max(abs(z) - lam / beta, 0.0)\n"
                     "        a += (new - w[j]) * X[:, j]\n"
                     "        w[j] = new\n"
                     "    return w",
            rtol=1e-8, atol=1e-11),
        Question(
            "q2", "How far the steps got", points=2, difficulty=1, minutes=10, kind="value",
            prompt="Assign to `answer_q2` the objective P(w_T) of your run: your data, λ = {lam}, your T = {T} "
                   "coordinates `task.coords`.",
            expected=lambda v: _problem(v).objective(_scd_run(_problem(v), v["coords"])),
            solution="w = scd_steps(task.X, task.y, task.params['lam'], task.coords)\n"
                     "a = task.X @ w\n"
                     "loss = 0.5 * (a - task.y) ** 2 if task.params['loss'] == 'squared' else "
                     "np.logaddexp(0, -task.y * a)\n"
                     "answer_q2 = loss.mean() + task.params['lam'] * np.abs(w).sum()",
            rtol=1e-8, atol=1e-12),
        Question(
            "q3", "Theorem 1's iteration count, with your own w★", points=4, difficulty=3, minutes=30,
            kind="value",
            prompt="Theorem 1 bounds E[P(w_T)] − P★ by d Ψ(0)/(T + 1), with Ψ(0) = β‖w★‖²/2 + P(0). Find w★ for "
                   "your problem with your own code (run `scd_steps` on long cyclic or random streams until the "
                   "optimality residual is below 1e-10), and assign to `answer_q3` the smallest T for which the "
                   "bound is at most ε = {eps}.",
            expected=_theorem1_T,
            solution="X, y, lam = task.X, task.y, task.params['lam']\n"
                     "m, d = X.shape\n"
                     "squared = task.params['loss'] == 'squared'\n"
                     "beta = 1.0 if squared else 0.25\n"
                     "w = np.zeros(d)\n"
                     "for sweep in range(2000):\n"
                     "    # a warm-started run of Algorithm 1 over 10 cyclic epochs (scd_steps starts at 0, so\n"
                     "    # here the same step with a start)\n"
                     "    a = X @ w\n"
                     "    for j in np.tile(np.arange(d), 10):\n"
                     "        lp = a - y if squared else -y / (1 + np.exp(y * a))\n"
                     "        z = w[j] - X[:, j] @ lp / m / beta\n"
                     "        new = np.sign(z) * max(abs(z) - lam / beta, 0.0)\n"
                     "        a += (new - w[j]) * X[:, j]\n"
                     "        w[j] = new\n"
                     "    lp = a - y if squared else -y / (1 + np.exp(y * a))\n"
                     "    g = X.T @ lp / m\n"
                     "    r = np.where(w != 0, np.abs(g + lam * np.sign(w)), np.maximum(np.abs(g) - lam, 0))\n"
                     "    if r.max() < 1e-10:\n"
                     "        break\n"
                     "p0 = 0.5 * np.mean(y ** 2) if squared else np.log(2)\n"
                     "psi0 = beta * (w @ w) / 2 + p0\n"
                     "answer_q3 = int(np.ceil(d * psi0 / task.params['eps'])) - 1",
            rtol=1e-4, atol=0.0),
    ))

ASSIGNMENTS = (L1_PROBLEM, SCD)
