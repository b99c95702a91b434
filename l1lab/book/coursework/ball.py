r"""Graded problems of the ℓ1-ball lectures: projecting onto the ℓ1 ball (``chapters/projections``,
``chapters/projections_linear``), sparse steps and the experiments (``chapters/projections_sparse``,
``chapters/projections_sparse_experiments``), multiplicative updates and regret (``chapters/exponentiated``,
``chapters/exponentiated_regret``) and the log d miracle (``chapters/exponentiated_scaling``,
``chapters/exponentiated_scaling_demos``).

The worked exercises of these lectures project onto the simplex, the ℓ1 ball and the weighted ball, find one
threshold from the tree's shifted keys, run projected subgradient with one example per step, take one SMG step
for the logistic loss and count the examples Corollary 4.1 guarantees.  The graded problems ask for the next step
on each student's own data: the nonnegative part of the ball and the radius as a function of sparsity, a run of
sparse steps and mini-batches with the student's loss and the penalty that a radius corresponds to, the constants
and the regret of SMG for the squared loss against the best fixed decision, and the exact excess risk of a sparse
decision in any dimension, the average against the last decision and the guaranteed sample sizes of SG and SMG.
"""
from __future__ import annotations

import math

import numpy as np

from ._core import Assignment, Question, hidden_rng
from ._core import cached as _cached
from .coordinate import _data, _round

__all__ = ["ASSIGNMENTS", "EXPONENTIATED", "EXPONENTIATED_SCALING", "PROJECTIONS", "PROJECTIONS_SPARSE"]


# ------------------------------------------------------------------------------------------- lecture 8
def _projections_variant(rng):
    n = int(rng.integers(12, 31))
    gauss = np.round(rng.normal(0.0, 1.0, n), 3)
    ties = rng.integers(-3, 5, n).astype(float)                 # many equal entries, and zeros
    zeros = np.where(rng.random(n) < 0.4, np.round(rng.uniform(-1.0, 2.0, n), 2), 0.0)
    zeros[int(rng.integers(n))] = 1.5                            # at least one positive entry
    X = np.vstack([gauss, ties, zeros])
    positive = np.maximum(X, 0.0).sum(axis=1)
    # the first two radii cut the positive part; the third leaves it inside (though ||v||_1 may exceed it)
    factors = np.array([rng.uniform(0.2, 0.6), rng.uniform(0.3, 0.7), rng.uniform(1.05, 1.4)])
    radii = np.array([_round(f * s, 3) for f, s in zip(factors, positive)])
    n2 = int(rng.integers(15, 41))
    v = rng.normal(0.0, float(rng.uniform(0.5, 2.0)), n2)
    k = int(rng.integers(3, min(9, n2 // 2)))
    z = _round(float(rng.uniform(0.15, 0.6)) * float(np.abs(v).sum()), 3)
    return {"params": {"n": n, "n_v": n2, "k": k, "z": z}, "X": X, "radii": radii, "v": v}


def _nonneg_projection(v, z):
    from l1lab.solvers.online import _projector
    return _projector("nonneg_l1_ball", z)(np.asarray(v, dtype=np.float64))


def _nonneg_cases(v):
    rng = hidden_rng(v, int(v["params"]["n"]) * 7919 + int(v["params"]["n_v"]))
    hidden = [
        (np.array([0.5, -2.0, 0.25, -1.0]), 1.0),                 # positive part inside, ||v||_1 outside
        (-np.abs(rng.normal(size=9)) - 0.1, 0.7),                  # every entry negative
        (np.array([2.0, 2.0, 2.0, -1.0, 0.0, 0.0, 1.0]), 1.5),    # ties at the threshold's side
        (np.array([3.0, 3.0, 1.0, 1.0, -3.0]), 2.0),               # ties in the support
        (np.zeros(6), 1.0),                                        # zero vector
        (np.array([3.0]), 0.5),                                    # one coordinate
        (np.array([1.0, 1.0 - 1e-6, -5.0, 0.2]), 1e-6),            # a tiny radius
        (np.where(rng.random(200) < 0.2, rng.normal(size=200), 0.0), 1.3),   # long and mostly zeros
        (rng.normal(size=100), 4.0),
    ]
    cases = [(row.copy(), float(r)) for row, r in zip(v["X"], v["radii"])] + hidden
    return [((x, r), _nonneg_projection(x, r)) for x, r in cases]


def _largest_radius_k(v):
    """The largest z at which the projection of v onto the l1 ball has at most k nonzeros: the z at which
    l1lab's threshold reaches the (k+1)-st largest magnitude."""
    from scipy.optimize import brentq

    from l1lab.projections import l1_ball_threshold
    u = np.sort(np.abs(v["v"]))[::-1]
    level = u[v["params"]["k"]]
    return brentq(lambda z: l1_ball_threshold(v["v"], z) - level, 1e-12, float(u.sum()), xtol=1e-15, rtol=1e-15)


def _radius_derivative(v):
    """d/dz of half the squared distance from v to the ball of radius z: minus the threshold (the multiplier)."""
    from l1lab.projections import l1_ball_threshold
    return -l1_ball_threshold(v["v"], v["params"]["z"])


PROJECTIONS = Assignment(
    name="projections", lecture="projections", title="Projections onto ℓ1 balls, on your vectors", week=7,
    make_variant=_projections_variant,
    intro="Your data: three vectors, the rows of `task.X` (n entries each: Gaussian, integers with ties, mostly "
          "zeros), with their radii `task.radii`, and one more vector `task.v` (n_v entries). The ℓ1 ball of radius "
          "z is B_z = {w : ‖w‖₁ ≤ z} and Π_z(v) is the Euclidean projection of v onto it.",
    questions=(
        Question(
            "q1", "The nonnegative part of the ball", points=4, difficulty=2, minutes=30, kind="function",
            function="project_nonneg_ball",
            prompt="Write `project_nonneg_ball(v, z)`: the Euclidean projection of v onto F, the set of the w "
                   "with w ≥ 0 and Σ_i w_i ≤ z (for a z > 0): the part of the ℓ1 ball of radius z where every "
                   "weight is nonnegative. It is neither the simplex (the sum may be below z) nor the ball (signs are "
                   "not kept). Work out first, from the KKT conditions as in Lemmas 1–3, what happens to the "
                   "negative entries of v and when the sum constraint is inactive; then use one sort. It is checked "
                   "against l1lab's projection onto F on your three vectors (`task.X[i]`, `task.radii[i]`) and on "
                   "edge cases you do not see: a vector whose positive part is inside F although its ℓ1 norm is "
                   "not, ties, zeros, a vector with no positive entry, one coordinate, a tiny radius.",
            starter="def project_nonneg_ball(v, z):\n    PLACEHOLDER",
            expected=_nonneg_cases,
            solution="def project_nonneg_ball(v, z):\n"
                     "    # the KKT conditions give w_i = max(v_i - theta, 0) with theta >= 0, and theta = 0\n"
                     "    # exactly when the positive part of v already satisfies the sum constraint\n"
                     "    u = np.maximum(np.asarray(v, dtype=float), 0.0)\n"
                     "    if u.sum() <= z:\n"
                     "        return u\n"
                     "    mu = np.sort(u)[::-1]\n"
                     "    cums = np.cumsum(mu)\n"
                     "    j = np.arange(1, u.size + 1)\n"
                     "    rho = np.nonzero(j * mu - cums + z > 0)[0][-1] + 1\n"
                     "    theta = (cums[rho - 1] - z) / rho\n"
                     "    return np.maximum(u - theta, 0.0)",
            rtol=1e-9, atol=1e-12),
        Question(
            "q2", "The radius that keeps k entries", points=3, difficulty=2, minutes=20, kind="value",
            prompt="The lecture's question found, for a point of the plane, the radius at which its projection "
                   "loses its second coordinate. Do it in n_v = {n_v} dimensions: for your vector `task.v`, what is "
                   "the **largest** radius z at which the projection Π_z(`task.v`) onto the ℓ1 ball has at most "
                   "k = {k} nonzero entries? Assign it to `answer_q2` (checked to a relative 1e-8). Hint: the proof "
                   "of Lemma 2 says which radius puts the threshold θ exactly at a given magnitude.",
            expected=_largest_radius_k,
            solution="u = np.sort(np.abs(task.v))[::-1]\n"
                     "# theta(z) = u[k] (the (k+1)-st largest magnitude) at z = sum_i max(|v_i| - u[k], 0); below\n"
                     "# that radius theta is larger and at most k entries survive, above it k + 1 do\n"
                     "answer_q2 = np.maximum(np.abs(task.v) - u[task.params['k']], 0.0).sum()",
            rtol=1e-8, atol=1e-12),
        Question(
            "q3", "What a larger radius is worth", points=3, difficulty=3, minutes=25, kind="value",
            prompt="Let D(z) = ½‖`task.v` − Π_z(`task.v`)‖₂², half the squared distance from your vector to the ℓ1 "
                   "ball of radius z. How fast does it change with the radius? Assign D′(z) at z = {z} to "
                   "`answer_q3` (checked to a relative 1e-6). Find a closed form first: the Lagrangian of the "
                   "lecture's derivation has one multiplier for the constraint ‖w‖₁ ≤ z, and the form makes the "
                   "answer exact; a finite difference is a good check, not a proof.",
            expected=_radius_derivative,
            solution="u = np.abs(task.v)\n"
                     "z = task.params['z']\n"
                     "mu = np.sort(u)[::-1]\n"
                     "cums = np.cumsum(mu)\n"
                     "j = np.arange(1, u.size + 1)\n"
                     "rho = np.nonzero(j * mu - cums + z > 0)[0][-1] + 1\n"
                     "theta = (cums[rho - 1] - z) / rho\n"
                     "# D(z) = sum over the support of theta^2 / 2 + the squares cut off, and dD/dz = -theta:\n"
                     "# the threshold is the multiplier of the constraint ||w||_1 <= z\n"
                     "answer_q3 = -theta",
            rtol=1e-6, atol=1e-12),
    ))


# ------------------------------------------------------------------------------------------- lecture 9
def _sparse_variant(rng):
    from l1lab import Problem, reference_solution
    loss = str(rng.choice(["squared", "logistic"]))
    m, d, k = int(rng.integers(60, 121)), int(rng.integers(10, 26)), int(rng.integers(2, 5))
    X, y = _data(rng, loss, m, d, k)
    lam_max = Problem(X, y, loss, 0.0).lambda_max
    lam0 = float(rng.uniform(0.05, 0.3)) * lam_max
    z = _round(float(np.abs(reference_solution(Problem(X, y, loss, lam0), tol=1e-12)[0]).sum()), 4)
    b, T, eta0 = int(rng.integers(2, 9)), int(rng.integers(40, 121)), round(float(rng.uniform(0.2, 1.0)), 2)
    batches = rng.integers(0, m, size=(T, b))
    n, steps, kk = int(rng.integers(30, 61)), int(rng.integers(15, 31)), int(rng.integers(3, 9))
    radius = _round(float(rng.uniform(1.5, 4.0)), 3)
    indices = np.array([rng.choice(n, kk, replace=False) for _ in range(steps)])
    values = np.round(rng.normal(0.0, 1.2 * radius / kk, size=(steps, kk)), 4)
    values[rng.random(values.shape) < 0.05] = 0.0
    return {"params": {"loss": loss, "m": m, "d": d, "z": z, "b": b, "T": T, "eta0": eta0, "n": n,
                       "steps": steps, "k": kk, "radius": radius},
            "X": X, "y": y, "batches": batches, "indices": indices, "values": values}


def _tree_thresholds(n, radius, indices, values):
    from l1lab.projections import SparseL1BallProjector
    tree = SparseL1BallProjector(n, radius)
    return np.array([tree.update(i, x) for i, x in zip(indices, values)])


def _thresholds_cases(v):
    p = v["params"]
    rng = hidden_rng(v, p["n"] * 31 + p["steps"])
    small = (np.array([[2, 7], [7, 3], [0, 2], [5, 9], [2, 3]]),
             np.array([[0.75, -0.5], [0.375, 0.25], [0.0, 0.0], [-1.0, 1.0], [-0.625, -0.25]]))  # step 2 zeroes w_7
    ties = (np.array([[0, 1, 2], [3, 4, 5], [0, 3, 6]]), np.array([[1.0, -1.0, 1.0], [1.0, 1.0, -1.0],
                                                                   [0.5, -0.5, 0.5]]))
    dense = (np.array([rng.permutation(12) for _ in range(6)]), rng.normal(0.0, 1.0, (6, 12)))
    cases = [(p["n"], p["radius"], v["indices"], v["values"]), (10, 1.0, *small), (7, 2.0, *ties),
             (12, 0.8, *dense)]
    return [((n, r, idx, val), _tree_thresholds(n, r, idx, val)) for n, r, idx, val in cases]


def _psg_run(X, y, loss, z, eta0, batches):
    """l1lab's mini-batch kernel of projected_gradient on the given batches, from w = 0."""
    from l1lab import Problem
    from l1lab.solvers.projected import psg_chunk
    problem = Problem(X, y, loss, 0.0)
    indptr, indices, data = problem.csr_arrays()
    batches = np.asarray(batches, dtype=np.int64)
    b = batches.shape[1]
    w = np.zeros(problem.d)
    psg_chunk(problem.loss.code, indptr, indices, data, problem.y, w, np.ascontiguousarray(batches.ravel()), b,
              float(eta0), True, 0, float(z), np.empty(b), np.empty(problem.d))
    return w


def _psg_cases(v):
    p = v["params"]
    rng = hidden_rng(v, p["m"] * 13 + p["T"])
    half = p["m"] // 2
    X2, y2 = v["X"][:half], v["y"][:half]
    cases = [(v["X"], v["y"], p["z"], p["eta0"], v["batches"]),
             (X2, y2, p["z"] / 2, 1.5 * p["eta0"], rng.integers(0, half, size=(60, 1))),
             (X2, y2, 3 * p["z"], 0.5 * p["eta0"], rng.integers(0, half, size=(30, p["b"] + 3)))]
    return [((X, y, z, eta0, bt), _psg_run(X, y, p["loss"], z, eta0, bt)) for X, y, z, eta0, bt in cases]


def _penalty_of_radius(v):
    """The lambda whose penalized solution has l1 norm z (Proposition 'penalized and constrained solutions'
    read backwards): a root of lambda -> ||w_lambda||_1 - z, with l1lab's reference solutions."""
    from scipy.optimize import brentq

    from l1lab import Problem, reference_solution
    p = v["params"]

    def excess(lam):
        w, _ = reference_solution(Problem(v["X"], v["y"], p["loss"], lam), tol=1e-13)
        return float(np.abs(w).sum()) - p["z"]

    def compute():
        hi = Problem(v["X"], v["y"], p["loss"], 0.0).lambda_max      # w = 0 there: ||w||_1 < z
        lo = hi / 2
        while excess(lo) < 0:                                           # halve until ||w_lam||_1 > z
            hi, lo = lo, lo / 2
        return brentq(excess, lo, hi, xtol=1e-15, rtol=1e-13)

    return _cached(v, "lam_z", compute)


PROJECTIONS_SPARSE = Assignment(
    name="projections_sparse", lecture="projections_sparse", title="Sparse steps and constrained problems on your data",
    week=8, make_variant=_sparse_variant,
    intro="Your data: `task.X` (m × d, entries in [-1, 1]), `task.y`, the loss `task.params['loss']` (squared: "
          "L(a, y) = (a − y)²/2; logistic: L(a, y) = log(1 + exp(−y a))), C(w) = (1/m) Σ_i L(⟨w, x_i⟩, y_i), and the "
          "radius `task.params['z']` of the constrained problem min C(w) s.t. ‖w‖₁ ≤ z. For Q1, a stream of sparse "
          "steps: `task.indices` and `task.values` (one row per step); for Q2, mini-batches `task.batches` (one row "
          "of example indices per step).",
    questions=(
        Question(
            "q1", "A run of sparse steps", points=3, difficulty=2, minutes=25, kind="function",
            function="sparse_step_thresholds",
            prompt="Write `sparse_step_thresholds(n, radius, indices, values)`: start from w = 0 in R^n and make the "
                   "steps w ← Π(w + g_t) of the lecture's sparse step, onto the ℓ1 ball of the given radius, where "
                   "g_t has the entries `values[t]` at the distinct coordinates `indices[t]` and zeros elsewhere; "
                   "return the array of the thresholds θ_t that the steps subtract (0 for a step that stays inside "
                   "the ball). Keep what the tree keeps, the nonzero magnitudes and the total shift Θ = Σ θ_t, if "
                   "you like; a dense projection per step is fine too. It is checked against l1lab's "
                   "`SparseL1BallProjector` on your stream (n = {n}, radius {radius}, {steps} steps of {k} "
                   "coordinates) and on streams you do not see (a step that zeroes an entry exactly, ties, steps "
                   "that touch every coordinate).",
            starter="def sparse_step_thresholds(n, radius, indices, values):\n    PLACEHOLDER",
            expected=_thresholds_cases,
            solution="def sparse_step_thresholds(n, radius, indices, values):\n"
                     "    w = np.zeros(n)\n"
                     "    thetas = []\n"
                     "    for idx, val in zip(indices, values):\n"
                     "        w[idx] += val\n"
                     "        u = np.abs(w)\n"
                     "        if u.sum() <= radius:\n"
                     "            thetas.append(0.0)\n"
                     "            continue\n"
                     "        mu = np.sort(u)[::-1]\n"
                     "        cums = np.cumsum(mu)\n"
                     "        j = np.arange(1, n + 1)\n"
                     "        rho = np.nonzero(j * mu - cums + radius > 0)[0][-1] + 1\n"
                     "        theta = (cums[rho - 1] - radius) / rho\n"
                     "        w = np.sign(w) * np.maximum(u - theta, 0.0)\n"
                     "        thetas.append(theta)\n"
                     "    return np.array(thetas)",
            rtol=1e-8, atol=1e-10),
        Question(
            "q2", "Mini-batch projected subgradient, your loss", points=4, difficulty=2, minutes=30,
            kind="function", function="minibatch_psg",
            prompt="Write `minibatch_psg(X, y, z, eta0, batches)`: projected stochastic subgradient for the {loss} "
                   "loss over the ball ‖w‖₁ ≤ z, from w = 0, with T = `len(batches)` steps: at step t = 1, …, T "
                   "take the examples of row t of `batches` (b of them, repeats allowed), compute all their margins "
                   "at the current w, step against the **mean** of their gradients with η_t = eta0/√t, and project. "
                   "Return the final w. It is checked against the mini-batch kernel of l1lab's "
                   "`projected_gradient`, run on the same batches, on your data (z = {z}, η₀ = {eta0}, T = {T} "
                   "batches of b = {b}) and on other data, radii, steps and batch sizes.",
            starter="def minibatch_psg(X, y, z, eta0, batches):\n    PLACEHOLDER",
            expected=_psg_cases,
            solution="def minibatch_psg(X, y, z, eta0, batches):\n"
                     "    squared = task.params['loss'] == 'squared'\n"
                     "    w = np.zeros(X.shape[1])\n"
                     "    for t, rows in enumerate(batches, start=1):\n"
                     "        a = X[rows] @ w\n"
                     "        lp = a - y[rows] if squared else -y[rows] / (1 + np.exp(y[rows] * a))\n"
                     "        w = w - eta0 / np.sqrt(t) * (X[rows].T @ lp) / len(rows)\n"
                     "        u = np.abs(w)\n"
                     "        if u.sum() > z:\n"
                     "            mu = np.sort(u)[::-1]\n"
                     "            cums = np.cumsum(mu)\n"
                     "            j = np.arange(1, u.size + 1)\n"
                     "            rho = np.nonzero(j * mu - cums + z > 0)[0][-1] + 1\n"
                     "            w = np.sign(w) * np.maximum(u - (cums[rho - 1] - z) / rho, 0.0)\n"
                     "    return w",
            rtol=1e-7, atol=1e-10),
        Question(
            "q3", "The penalty that gives your radius", points=3, difficulty=3, minutes=35, kind="value",
            prompt="The lecture's proposition goes from a penalty to a radius: w_λ minimizes C(w) + λ‖w‖₁, so it "
                   "minimizes C over the ball of radius ‖w_λ‖₁. Go back: for your radius z = {z}, find the λ > 0 "
                   "for which the minimizer of C(w) + λ‖w‖₁ has ‖w_λ‖₁ = z, and assign it to `answer_q3` (checked "
                   "to a relative 1e-6). Solve the constrained problem min C(w) s.t. ‖w‖₁ ≤ z with your own code "
                   "(batch projected gradient converges here) and read λ off the optimality conditions; say to "
                   "yourself why that λ works.",
            expected=_penalty_of_radius,
            solution="X, y, z = task.X, task.y, task.params['z']\n"
                     "m, d = X.shape\n"
                     "squared = task.params['loss'] == 'squared'\n"
                     "Lip = (1.0 if squared else 0.25) * np.linalg.norm(X, 2) ** 2 / m\n"
                     "\n"
                     "def grad_C(w):\n"
                     "    a = X @ w\n"
                     "    lp = a - y if squared else -y / (1 + np.exp(y * a))\n"
                     "    return X.T @ lp / m\n"
                     "\n"
                     "def ball(v):\n"
                     "    u = np.abs(v)\n"
                     "    if u.sum() <= z:\n"
                     "        return v\n"
                     "    mu = np.sort(u)[::-1]\n"
                     "    cums = np.cumsum(mu)\n"
                     "    rho = np.nonzero(np.arange(1, d + 1) * mu - cums + z > 0)[0][-1] + 1\n"
                     "    return np.sign(v) * np.maximum(u - (cums[rho - 1] - z) / rho, 0.0)\n"
                     "\n"
                     "# accelerated projected gradient (FISTA), restarted when the momentum points uphill, until w\n"
                     "# is a fixed point of the projected gradient step (the optimality condition)\n"
                     "w = np.zeros(d)\n"
                     "v_, t = w.copy(), 1.0\n"
                     "for _ in range(200_000):\n"
                     "    w_new = ball(v_ - grad_C(v_) / Lip)\n"
                     "    if (v_ - w_new) @ (w_new - w) > 0:\n"
                     "        v_, t = w_new.copy(), 1.0\n"
                     "    else:\n"
                     "        t_new = (1 + np.sqrt(1 + 4 * t * t)) / 2\n"
                     "        v_, t = w_new + (t - 1) / t_new * (w_new - w), t_new\n"
                     "    w = w_new\n"
                     "    if np.abs(w - ball(w - grad_C(w) / Lip)).max() < 1e-13:\n"
                     "        break\n"
                     "# KKT: -grad C(w) = lam * (a subgradient of ||w||_1), so lam = max_j |grad_j C(w)|,\n"
                     "# and then w also minimizes C + lam ||.||_1\n"
                     "answer_q3 = np.abs(grad_C(w)).max()",
            rtol=1e-6, atol=1e-12),
    ))


# ------------------------------------------------------------------------------------------- lecture 10
def _eg_variant(rng):
    from l1lab import Problem
    from l1lab.solvers.online import best_fixed_decision
    m, d, k = int(rng.integers(40, 81)), int(rng.integers(8, 21)), int(rng.integers(2, 4))
    # features in [-1, 1], rows of different sizes ||x||_inf; a sparse linear target with noise
    X = np.round(rng.uniform(-1.0, 1.0, (m, d)) * rng.uniform(0.3, 1.0, size=(m, 1)), 3)
    w_true = np.zeros(d)
    w_true[rng.choice(d, k, replace=False)] = rng.choice([-1.0, 1.0], k) * rng.uniform(0.5, 1.5, k)
    y = np.round(X @ w_true + 0.1 * rng.normal(size=m), 3)
    T = int(rng.integers(150, 401))
    order = rng.integers(0, m, size=T)
    # a radius that binds: a fraction of the l1 norm of the unconstrained best decision on the stream
    w_ls = best_fixed_decision(Problem(X, y, "squared", 0.0), order, "l1_ball", 1e6)[0]
    F1 = _round(float(rng.uniform(0.4, 0.8)) * float(np.abs(w_ls).sum()), 2)
    return {"params": {"m": m, "d": d, "T": T, "F1": F1, "N": 2 * d + 1}, "X": X, "y": y, "order": order}


def _g_inf(X, y, F1):
    """The smallest G with |L'(<w, x>, y)| ||x||_inf <= G over the ball ||w||_1 <= F1 and the examples (squared
    loss): max over the examples of ||x||_inf (F1 ||x||_inf + |y|)."""
    xmax = np.abs(X).max(axis=1)
    return float(np.max(xmax * (F1 * xmax + np.abs(y))))


def _best_value(X, y, order, F1):
    from l1lab import Problem
    from l1lab.solvers.online import best_fixed_decision
    return best_fixed_decision(Problem(X, y, "squared", 0.0), order, "l1_ball", F1, max_iter=20_000, tol=1e-15)[1]


def _best_cases(v):
    return _cached(v, "best_cases", lambda: _best_cases_computed(v))


def _best_cases_computed(v):
    p = v["params"]
    rng = hidden_rng(v, p["T"] * 17 + p["m"])
    X, y, order = v["X"], v["y"], v["order"]
    X2 = np.round(rng.uniform(-1.0, 1.0, (30, 5)), 3)
    y2 = np.round(X2 @ np.array([1.5, 0.0, -1.0, 0.0, 0.5]) + 0.2 * rng.normal(size=30), 3)
    cases = [(X, y, order, p["F1"]), (X, y, order[: p["T"] // 3], p["F1"] / 2), (X, y, order, 1e3),
             (X, y, order, 0.05), (X2, y2, rng.integers(0, 30, size=100), 1.0)]
    return [((X, y, o, F1), _best_value(X, y, o, F1)) for X, y, o, F1 in cases]


def _smg_regret(v):
    from l1lab import Problem
    from l1lab.solvers.online import smg
    from l1lab.theory import kakade_foster_evendar as kfe

    def compute():
        p = v["params"]
        G = _g_inf(v["X"], v["y"], p["F1"])
        eta = kfe.smg_eta(p["T"], p["N"], G)               # the corrected step (the note prints it / F1)
        run = smg(Problem(v["X"], v["y"], "squared", 0.0), eta, p["F1"], order=v["order"])
        return float(run.costs.mean()) - _best_value(v["X"], v["y"], v["order"], p["F1"])

    return _cached(v, "regret", compute)


EXPONENTIATED = Assignment(
    name="exponentiated", lecture="exponentiated", title="SMG and its regret for the squared loss, on your stream",
    week=9, make_variant=_eg_variant,
    intro="Your data: a pool of m examples, `task.X` (m × d, entries in [-1, 1]) and `task.y` (real targets), and "
          "a stream `task.order` of T example indices drawn from the pool. The costs are those of the squared loss, "
          "c^t(w) = L(⟨w, x_t⟩, y_t) with L(a, y) = (a − y)²/2 and x_t, y_t = `task.X[task.order[t]]`, "
          "`task.y[task.order[t]]`, over the ℓ1 ball ‖w‖₁ ≤ F1, which SMG runs on as a simplex with N = 2d + 1 "
          "coordinates (w⁺, w⁻ and the dummy).",
    questions=(
        Question(
            "q1", "G∞ for the squared loss", points=2, difficulty=2, minutes=15, kind="value",
            prompt="The lecture's losses have |L′| ≤ 1, so G∞ = 1 for features in [-1, 1]. The squared loss has "
                   "no such bound on all of R^d, but it has one on the ball. Assign to `answer_q1` the smallest G∞ "
                   "such that ‖∇c(w)‖∞ ≤ G∞ for every w with ‖w‖₁ ≤ F1 = {F1} and for the cost c(w) = L(⟨w, x⟩, y) of "
                   "every example (x, y) of your pool (m = {m}): a supremum you can compute exactly.",
            expected=lambda v: _g_inf(v["X"], v["y"], v["params"]["F1"]),
            solution="xmax = np.abs(task.X).max(axis=1)\n"
                     "# |<w, x> - y| <= F1 ||x||_inf + |y| on the ball, with equality at w = -sign(y) F1 e_j for the\n"
                     "# j of the largest |x_j|; the gradient (<w, x> - y) x has infinity norm |<w, x> - y| ||x||_inf\n"
                     "answer_q1 = np.max(xmax * (task.params['F1'] * xmax + np.abs(task.y)))",
            rtol=1e-9, atol=1e-12),
        Question(
            "q2", "The best fixed decision in hindsight", points=4, difficulty=2, minutes=30, kind="function",
            function="best_fixed_value",
            prompt="Regret compares with the best fixed decision in hindsight. The worked exercise had linear costs on "
                   "a simplex, where a vertex wins; here the costs are quadratic and the set is the ball. Write "
                   "`best_fixed_value(X, y, order, F1)`: min over ‖w‖₁ ≤ F1 of (1/T) Σ_t L(⟨w, x_t⟩, y_t), the "
                   "examples x_t, y_t = `X[order[t]]`, `y[order[t]]` (an example drawn twice counts twice), for the "
                   "squared loss. Use your own projection onto the ℓ1 ball. It is checked (to a relative 1e-7) "
                   "against l1lab's `best_fixed_decision` on your stream (F1 = {F1}) and on other streams and radii, "
                   "including a radius so large that the constraint does not bind and a very small one.",
            starter="def best_fixed_value(X, y, order, F1):\n    PLACEHOLDER",
            expected=_best_cases,
            solution="def best_fixed_value(X, y, order, F1):\n"
                     "    A, b = X[order], y[order]\n"
                     "    T, d = A.shape\n"
                     "    step = T / np.linalg.norm(A, 2) ** 2     # 1 / (the smoothness of the average cost)\n"
                     "\n"
                     "    def project(v):\n"
                     "        u = np.abs(v)\n"
                     "        if u.sum() <= F1:\n"
                     "            return v\n"
                     "        mu = np.sort(u)[::-1]\n"
                     "        cums = np.cumsum(mu)\n"
                     "        rho = np.nonzero(np.arange(1, d + 1) * mu - cums + F1 > 0)[0][-1] + 1\n"
                     "        return np.sign(v) * np.maximum(u - (cums[rho - 1] - F1) / rho, 0.0)\n"
                     "\n"
                     "    def grad(w):\n"
                     "        return A.T @ (A @ w - b) / T\n"
                     "\n"
                     "    # FISTA, restarted when the momentum points uphill, until w is a fixed point of the\n"
                     "    # projected gradient step (the optimality condition)\n"
                     "    w = np.zeros(d)\n"
                     "    v, t = w.copy(), 1.0\n"
                     "    for _ in range(200_000):\n"
                     "        w_new = project(v - step * grad(v))\n"
                     "        if (v - w_new) @ (w_new - w) > 0:\n"
                     "            v, t = w_new.copy(), 1.0\n"
                     "        else:\n"
                     "            t_new = (1 + np.sqrt(1 + 4 * t * t)) / 2\n"
                     "            v, t = w_new + (t - 1) / t_new * (w_new - w), t_new\n"
                     "        w = w_new\n"
                     "        if np.abs(w - project(w - step * grad(w))).max() < 1e-13:\n"
                     "            break\n"
                     "    return 0.5 * np.mean((A @ w - b) ** 2)",
            rtol=1e-7, atol=1e-11),
        Question(
            "q3", "The regret of SMG on your stream", points=4, difficulty=3, minutes=35, kind="value",
            prompt="Run SMG (the note's update (3)) on your stream for the squared loss: the ± split and the dummy, "
                   "all N = {N} weights starting at F1/N, F1 = {F1}, T = {T} steps, with Theorem 2.3's step "
                   "η = √(log N / T)/(2 G∞) for your G∞ of Q1. This is the step as the book corrects it: the note "
                   "prints an extra factor 1/F1, which is right only for F1 = 1. Assign to `answer_q3` the regret "
                   "R_T = (1/T) Σ_t c^t(w^t) − min over the ball of (1/T) Σ_t c^t(w), where w^t is the decision "
                   "before step t (so w^1 = 0); checked to a relative 1e-6. Compare it with the theorem's bound "
                   "4 F1 G∞ √(log N / T).",
            expected=_smg_regret,
            solution="X, y, order = task.X, task.y, task.order\n"
                     "F1, T, N = task.params['F1'], task.params['T'], task.params['N']\n"
                     "eta = np.sqrt(np.log(N) / T) / (2 * answer_q1)\n"
                     "d = X.shape[1]\n"
                     "wp, wm = np.full(d, F1 / N), np.full(d, F1 / N)\n"
                     "paid = 0.0\n"
                     "for i in order:\n"
                     "    a = X[i] @ (wp - wm)\n"
                     "    paid += 0.5 * (a - y[i]) ** 2\n"
                     "    gamma = a - y[i]                      # L'(a, y) for the squared loss\n"
                     "    g, Z = gamma * X[i], gamma * a / F1\n"
                     "    wp, wm = wp * (1 - eta * g + eta * Z), wm * (1 + eta * g + eta * Z)\n"
                     "answer_q3 = paid / T - best_fixed_value(X, y, order, F1)",
            rtol=1e-6, atol=1e-10),
    ))


# ------------------------------------------------------------------------------------------- lecture 11
def _scaling_variant(rng):
    from l1lab.data.teacher import teacher_problem
    p = int(rng.integers(2, 5))
    beta = float(rng.choice([1.0, 1.5, 2.0, 2.5, 3.0]))
    d1 = int(rng.integers(60, 301))
    W = np.zeros((3, d1))
    for r in range(3):
        W[r, :p] = np.round(rng.normal(1.0, 0.3, p) * beta * (-1.0) ** np.arange(p), 3)
        extra = rng.choice(np.arange(p, d1), size=int(rng.integers(2, 9)), replace=False)
        W[r, extra] = np.round(rng.normal(0.0, 0.4, extra.size), 3)
    d2 = int(rng.integers(8, 13))
    T = int(rng.integers(5, 21)) * 100
    seed = int(rng.integers(2 ** 31))
    prob = teacher_problem(T, d2, p, beta, seed=seed)
    X, y = prob.X.toarray(), prob.y.copy()
    d3 = int(float(f"{10 ** rng.uniform(3, 6):.2g}"))
    eps = round(float(rng.uniform(0.05, 0.3)), 3)
    delta = float(rng.choice([0.01, 0.02, 0.05, 0.1]))
    return {"params": {"p": p, "beta": beta, "d1": d1, "d": d2, "T": T, "F1": beta * p, "N": 2 * d2 + 1,
                       "d3": d3, "eps": eps, "delta": delta},
            "W": W, "X": X, "y": y}


def _excess_cases(v):
    return _cached(v, "excess_cases", lambda: _excess_cases_computed(v))


def _excess_cases_computed(v):
    from l1lab.data.teacher import excess_risk_rows
    p, beta = v["params"]["p"], v["params"]["beta"]
    rng = hidden_rng(v, v["params"]["d1"] * 101 + p)
    dense = np.round(rng.normal(0.0, 0.5, 10), 3)                    # d = 10, every coordinate nonzero
    star = np.zeros(40)
    star[:3] = 2.5 * (-1.0) ** np.arange(3)                           # the teacher itself: 0
    only_relevant = np.zeros(500)
    only_relevant[:p] = [0.5 * beta] * p
    eight = np.zeros(1000)
    eight[p + rng.choice(1000 - p, 8, replace=False)] = rng.normal(0.0, 0.6, 8)
    eight[:p] = beta * (-1.0) ** np.arange(p)
    one = np.zeros(30)                                                # p = 1: one relevant feature
    one[[0, 4, 11, 29]] = [1.0, -0.5, 0.25, 2.0]
    gap = np.zeros(80)                                                # a relevant coordinate left at 0
    gap[[1, 2, 10, 50]] = [-1.5, 0.8, 0.3, -0.2]
    cases = [(w, p, beta) for w in v["W"]] + [
        (np.zeros(v["params"]["d1"]), p, beta), (star, 3, 2.5), (only_relevant, p, beta), (eight, p, beta),
        (dense, 2, 1.0), (one, 1, 3.0), (gap, 3, 2.0)]
    # the student's three decisions in one call (the same quadrature, exact here: at most 8 irrelevant nonzeros)
    first = excess_risk_rows(v["W"], p, beta)
    rest = [float(excess_risk_rows(w, pp, b)) for w, pp, b in cases[3:]]
    return [((w, pp, b), e) for (w, pp, b), e in zip(cases, [*map(float, first), *rest])]


def _average_and_last(v):
    from l1lab import Problem
    from l1lab.data.teacher import excess_risk
    from l1lab.solvers.online import smg
    from l1lab.theory import kakade_foster_evendar as kfe

    def compute():
        p = v["params"]
        eta = kfe.smg_eta(p["T"], p["N"], 1.0)            # the corrected step of Theorem 2.3, G_inf = 1
        run = smg(Problem(v["X"], v["y"], "logistic", 0.0), eta, p["F1"], order=np.arange(p["T"]))
        return np.asarray(excess_risk(np.vstack([run.w_avg, run.w]), p["p"], p["beta"]))

    return _cached(v, "average_and_last", compute)


def _smallest_T(bound, low):
    """The smallest integer T >= low with bound(T) <= eps, for a bound ~ c / sqrt(T): from the closed form, then
    moved to the exact threshold of the bound."""
    T = max(int(low), 1)
    while bound(T) > 0:
        T *= 2
    lo = max(int(low), T // 2)
    while lo < T:                       # bisection on the decreasing bound
        mid = (lo + T) // 2
        if bound(mid) <= 0:
            T = mid
        else:
            lo = mid + 1
    return T


def _sample_ratio(v):
    from l1lab.theory import kakade_foster_evendar as kfe
    p = v["params"]
    d, eps, delta = p["d3"], p["eps"], p["delta"]
    N, F1, F2, G2 = 2 * d + 1, p["beta"] * p["p"], p["beta"] * math.sqrt(p["p"]), math.sqrt(d)
    t_smg = _smallest_T(lambda T: kfe.cor41_risk_bound(T, N, F1, 1.0, delta) - eps, math.ceil(16 * math.log(N)))
    t_sg = _smallest_T(lambda T: kfe.sg_regret_bound(T, F2, G2, delta) - eps, 1)
    return t_sg / t_smg


EXPONENTIATED_SCALING = Assignment(
    name="exponentiated_scaling", lecture="exponentiated_scaling", title="Excess risk and sample sizes, your teacher",
    week=9, make_variant=_scaling_variant,
    intro="Your teacher: the sparse logistic teacher of the lectures with p = `task.params['p']` relevant features "
          "of weight ±β (β = `task.params['beta']`, signs alternating, +β first) among d features, x uniform on "
          "{-1, +1}^d and Pr[y = 1 | x] = 1/(1 + exp(−⟨w★, x⟩)). Your data: three decisions, the rows of `task.W` "
          "(d1 features each, few nonzeros), and a stream of T examples of the teacher with d features, `task.X` "
          "(T × d) and `task.y`.",
    questions=(
        Question(
            "q1", "The exact excess risk of a sparse decision", points=4, difficulty=3, minutes=35,
            kind="function", function="excess_risk_sparse",
            prompt="The lecture's `excess_risk_lesson` averages over all 2^d sign patterns, so it stops at d ≈ 16. "
                   "Write `excess_risk_sparse(w, p, beta)`: risk(w) − risk(w★) for the teacher with p relevant "
                   "features of weight ±beta, exactly, in any dimension d = `len(w)`, when w has few nonzero "
                   "entries outside the first p. Which coordinates can the expectation ignore, and why? It is "
                   "checked (to 1e-9) against l1lab's `excess_risk` on your decisions (d1 = {d1}, p = {p}, "
                   "β = {beta}) and on decisions you do not see (w = 0, the teacher itself, a dense w in d = 10, "
                   "other p and β).",
            starter="def excess_risk_sparse(w, p, beta):\n    PLACEHOLDER",
            expected=_excess_cases,
            solution="def excess_risk_sparse(w, p, beta):\n"
                     "    w = np.asarray(w, dtype=float)\n"
                     "    # a coordinate where both w and w_star are zero enters neither margin: average over\n"
                     "    # the sign patterns of the other coordinates only\n"
                     "    keep = np.union1d(np.arange(p), np.flatnonzero(w))\n"
                     "    k = keep.size\n"
                     "    S = 1.0 - 2.0 * ((np.arange(2 ** k)[:, None] >> np.arange(k)) & 1)\n"
                     "    w_star = np.zeros(w.size)\n"
                     "    w_star[:p] = beta * (-1.0) ** np.arange(p)\n"
                     "    z_star, a = S @ w_star[keep], S @ w[keep]\n"
                     "    q = 1.0 / (1.0 + np.exp(-z_star))\n"
                     "\n"
                     "    def risk(m):\n"
                     "        return np.mean(q * np.logaddexp(0.0, -m) + (1.0 - q) * np.logaddexp(0.0, m))\n"
                     "\n"
                     "    return risk(a) - risk(z_star)",
            rtol=1e-9, atol=1e-12),
        Question(
            "q2", "The average and the last decision", points=3, difficulty=2, minutes=25, kind="value",
            prompt="Make one pass of SMG (logistic loss, the ± split and the dummy, N = 2d + 1 = {N}, F1 = βp = {F1}, "
                   "starting at the centre) over your T = {T} examples in their order, with Theorem 2.3's step for "
                   "this horizon, η = √(log N / T)/(2 G∞) with G∞ = 1: the step as the book corrects it (the note "
                   "prints it divided by F1). Assign to `answer_q2` the pair [excess risk of the average decision "
                   "w̄ = (w¹ + … + w^T)/T, excess risk of the last decision w^(T+1)], exactly (your Q1 function works "
                   "here: d = {d}); checked to a relative 1e-6. Which is smaller, and does Corollary 4.1 speak about "
                   "both?",
            expected=_average_and_last,
            solution="X, y = task.X, task.y\n"
                     "T, N, F1 = task.params['T'], task.params['N'], task.params['F1']\n"
                     "eta = np.sqrt(np.log(N) / T) / 2.0\n"
                     "d = X.shape[1]\n"
                     "wp, wm = np.full(d, F1 / N), np.full(d, F1 / N)\n"
                     "w_sum = np.zeros(d)\n"
                     "for x, label in zip(X, y):\n"
                     "    a = x @ (wp - wm)\n"
                     "    w_sum += wp - wm\n"
                     "    gamma = -label / (1.0 + np.exp(label * a))\n"
                     "    g, Z = gamma * x, gamma * a / F1\n"
                     "    wp, wm = wp * (1 - eta * g + eta * Z), wm * (1 + eta * g + eta * Z)\n"
                     "p_, beta_ = task.params['p'], task.params['beta']\n"
                     "answer_q2 = [excess_risk_sparse(w_sum / T, p_, beta_), excess_risk_sparse(wp - wm, p_, beta_)]",
            rtol=1e-6, atol=1e-12),
        Question(
            "q3", "Guaranteed sample sizes, SG against SMG", points=3, difficulty=2, minutes=25, kind="value",
            prompt="For your teacher in d3 = {d3} dimensions, how many examples do the two methods need to "
                   "**guarantee** an excess risk of the average decision of at most ε = {eps} with probability at "
                   "least 1 − δ, δ = {delta}? SMG: Corollary 4.1, with F1 = βp, G∞ = 1, N = 2·d3 + 1 and the "
                   "condition T ≥ 16 log N of Theorem 2.3. SG: the same argument applied to Theorem 2.1, "
                   "risk(w̄) − risk(w★) ≤ 2 F2 G2 (√(1/T) + √(8 log(1/δ)/T)) with F2 = β√p and G2 = √d3. Take the "
                   "smallest whole T for each and assign the ratio T_SG / T_SMG to `answer_q3` (checked to a "
                   "relative 1e-9: the rounding counts).",
            expected=_sample_ratio,
            solution="import math\n"
                     "p_, beta_, d3 = task.params['p'], task.params['beta'], task.params['d3']\n"
                     "eps, delta = task.params['eps'], task.params['delta']\n"
                     "N, L = 2 * d3 + 1, math.log(1 / delta)\n"
                     "\n"
                     "def smallest(bound, T):\n"
                     "    # T from the closed form, then moved to the exact threshold (rounding errors)\n"
                     "    T = max(T, 1)\n"
                     "    while bound(T) > eps:\n"
                     "        T += 1\n"
                     "    return T\n"
                     "\n"
                     "smg_bound = lambda T: 4 * beta_ * p_ * (math.sqrt(math.log(N) / T) + math.sqrt(2 * L / T))\n"
                     "sg_bound = lambda T: 2 * beta_ * math.sqrt(p_ * d3) * (math.sqrt(1 / T) + math.sqrt(8 * L / T))\n"
                     "c_smg = 4 * beta_ * p_ * (math.sqrt(math.log(N)) + math.sqrt(2 * L)) / eps\n"
                     "c_sg = 2 * beta_ * math.sqrt(p_ * d3) * (1 + math.sqrt(8 * L)) / eps\n"
                     "t_smg = smallest(smg_bound, max(math.ceil(c_smg ** 2) - 2, math.ceil(16 * math.log(N))))\n"
                     "t_sg = smallest(sg_bound, math.ceil(c_sg ** 2) - 2)\n"
                     "answer_q3 = t_sg / t_smg",
            rtol=1e-9, atol=0.0),
    ))

ASSIGNMENTS = (PROJECTIONS, PROJECTIONS_SPARSE, EXPONENTIATED, EXPONENTIATED_SCALING)
