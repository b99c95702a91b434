r"""Graded problems of the foundations and the coordinate lectures: the ℓ1 problem (``chapters/l1_problem`` and
``chapters/l1_problem_optimality``), stochastic coordinate descent (``chapters/scd``, ``chapters/scd_practice``), the
lower bound (``chapters/lower_bound``, ``chapters/lower_bound_measured``) and the fast solver (``chapters/fast_cd``,
``chapters/fast_cd_solver``).

Each student gets their own data (sizes, sparsity, the loss) and their own λ, step count and accuracy; the
worked exercises of the lectures teach the formulas, these problems ask for them on new data and one step further
(an optimal value the student must certify, Theorem 1's iteration count with the student's own w★, Lemma 5's
frontier when the ℓ1 ball binds, the certificate of the logistic loss with a weighted penalty).
"""
from __future__ import annotations

import numpy as np

from ._core import Assignment, Question, hidden_rng

__all__ = ["ASSIGNMENTS", "FAST_CD", "L1_PROBLEM", "LOWER_BOUND", "SCD"]


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


def _with_intercept(v, X=None, y=None, lam=None, c=None):
    """Problem (1) with the weighted penalty lam sum_j c_j |w_j| and an unpenalized intercept (a column of ones of
    weight 0), the problem of the graded questions that go a step beyond the practice notebook."""
    from l1lab import Problem
    X = v["X"] if X is None else X
    c = v["weights"] if c is None else c
    return Problem(np.hstack([X, np.ones((X.shape[0], 1))]), v["y"] if y is None else y, v["params"]["loss"],
                   v["params"]["lam"] if lam is None else lam, penalty_weights=np.r_[c, 0.0])


def _weighted_lam_max(v):
    return float(_with_intercept(v).lambda_max)


def _residual_cases(v):
    from l1lab import reference_solution
    p = v["params"]
    problem = _with_intercept(v)
    wb_star, _ = reference_solution(problem, tol=1e-12)
    rng = hidden_rng(v, len(v["y"]))
    w_other = np.where(rng.random(p["d"]) < 0.3, rng.normal(size=p["d"]), 0.0)
    c_other = np.round(rng.uniform(0.5, 2.0, size=p["d"]), 2)
    half = p["m"] // 2
    cases = ((v["X"], v["y"], wb_star[:-1], wb_star[-1], p["lam"], v["weights"]),
             (v["X"], v["y"], w_other, float(rng.normal()), 2 * p["lam"], c_other),
             (v["X"][:half], v["y"][:half], np.zeros(p["d"]), 0.0, p["lam"] / 3, v["weights"]))
    return [((X, y, w, b, lam, c), _with_intercept(v, X, y, lam, c).optimality_residual(np.r_[w, b]))
            for X, y, w, b, lam, c in cases]

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
            "q1", "λ_max with weights and an intercept", points=2, difficulty=2, minutes=20, kind="value",
            prompt="The practice notebook found λ_max for a weighted penalty λ Σ_j c_j |w_j| without an intercept. "
                   "Now the model is ⟨w, x⟩ + b with an **unpenalized intercept** b: P(w, b) = (1/m) Σ_i "
                   "L(⟨w, x_i⟩ + b, y_i) + λ Σ_j c_j |w_j| (weights c_j = `task.weights[j]`). What is the smallest "
                   "λ at which the minimizer has w = 0 (b then takes its best value alone), for your data and your "
                   "loss ({loss})? Assign it to `answer_q1`.",
            expected=_weighted_lam_max,
            solution="p, y = task.params, task.y\n"
                     "if p['loss'] == 'squared':\n"
                     "    slopes = y.mean() - y                  # L'(b*, y) at the best intercept b* = mean(y)\n"
                     "else:\n"
                     "    b = np.log(np.mean(y > 0) / np.mean(y < 0))   # the best intercept: log-odds of the labels\n"
                     "    slopes = -y / (1 + np.exp(y * b))\n"
                     "answer_q1 = np.max(np.abs(task.X.T @ slopes) / p['m'] / task.weights)",
            rtol=1e-8, atol=1e-12),
        Question(
            "q2", "An optimality residual, with weights and an intercept", points=3, difficulty=2, minutes=25,
            kind="function", function="residual",
            prompt="Write `residual(X, y, w, b, lam, c)`: for the {loss} loss and the problem of q1 (weights c, an "
                   "unpenalized intercept b), the largest distance from −∂C to the subdifferential of the penalty, "
                   "over the coordinates w_j (to λ c_j times that of |w_j|) and the intercept (to 0: its penalty "
                   "is 0); so 0 exactly at the minimizer. It is checked on your data at the optimum, at another "
                   "point with other weights and on other data.",
            starter="def residual(X, y, w, b, lam, c):\n    PLACEHOLDER",
            expected=_residual_cases,
            solution="def residual(X, y, w, b, lam, c):\n"
                     "    a = X @ w + b\n"
                     "    if task.params['loss'] == 'squared':\n"
                     "        lp = a - y\n"
                     "    else:\n"
                     "        lp = -y / (1 + np.exp(y * a))\n"
                     "    g = X.T @ lp / len(y)\n"
                     "    t = lam * np.asarray(c)\n"
                     "    r = np.where(w != 0, np.abs(g + t * np.sign(w)), np.maximum(np.abs(g) - t, 0))\n"
                     "    return max(r.max(), abs(lp.mean()))",
            rtol=1e-6, atol=1e-9),
        Question(
            "q3", "The optimal value, certified", points=3, difficulty=3, minutes=30, kind="value",
            prompt="Minimize P(w) = (1/m) Σ L(⟨w, x_i⟩, y_i) + λ‖w‖₁ for your data, loss ({loss}) and λ = {lam} "
                   "(no weights, no intercept) with your own code (a proximal gradient or coordinate method), until "
                   "its optimality residual is below 1e-10, and assign the optimal value P★ to `answer_q3` (checked "
                   "to a relative 1e-7).",
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
                     "    a = X @ w\n"
                     "    g = X.T @ (a - y if beta == 1.0 else -y / (1 + np.exp(y * a))) / m\n"
                     "    r = np.where(w != 0, np.abs(g + lam * np.sign(w)), np.maximum(np.abs(g) - lam, 0))\n"
                     "    if r.max() < 1e-10:\n"
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
    rng = hidden_rng(v, p["T"])
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


# ------------------------------------------------------------------------------------------- lecture 3
def _lb_variant(rng):
    B = float(rng.integers(20, 41)) / 10                      # a radius B in [2, 4], not only the lecture's 2, 3
    k = B * B - 1
    while True:                                               # eps < 0.01: the printed d = 100(B^2 - 1) fails
        eps = float(rng.integers(10, 90)) / 10_000
        d_eps = k / eps
        r_star = k / (np.ceil(d_eps) + k)
        s_min = k / (eps + r_star) - k
        if min(abs(d_eps - round(d_eps)), abs(s_min - round(s_min))) > 0.02:   # no rounding knife-edge
            break
    s_ball = int(rng.integers(5, 61))
    r = _round(float(rng.uniform(0.3, 0.8)) * B * s_ball / (s_ball + k), 3)       # a ball that binds
    d_w = int(rng.integers(20, 61))
    w = rng.normal(size=d_w) * (rng.random(d_w) < 0.5)
    w[int(rng.integers(d_w))] = -np.abs(w).max() - 0.5         # mixed signs, at least one nonzero
    w[int(rng.integers(d_w))] = np.abs(w).max() + 0.25
    w = np.round(w * float(rng.uniform(0.5, 1.0)) * B / np.abs(w).sum(), 4)      # inside the lemma's ball
    s_draws = int(rng.integers(5, 41))
    m, d = int(rng.integers(150, 401)), int(rng.integers(30, 61))
    y = np.where(rng.random(m) < 0.5, 1.0, -1.0)
    X = y[:, None] / B + np.sqrt(1 - 1 / B ** 2) * rng.standard_normal((m, d))
    s_fit = int(rng.integers(5, d // 2))
    return {"params": {"B": B, "eps": eps, "s_ball": s_ball, "r": r, "d_w": d_w, "s_draws": s_draws, "m": m,
                       "d": d, "s_fit": s_fit},
            "X": X, "y": y, "w": w}


def _lb_repaired(v):
    from l1lab.theory import shalev_shwartz_tewari as sst
    p = v["params"]
    d = sst.lemma5_dimension_for_accuracy(p["eps"], p["B"])
    return [d, int(sst.lemma5_min_steps(p["eps"], p["B"], d))]


def _ball_risk(s, B, r):
    """min R(w) over ||w||_0 <= s, ||w||_1 <= r: the best s-sparse vector of the lecture (constant on its
    support) projected onto the ball; by symmetry and convexity the minimizer is constant on its support, so
    the projection of the unconstrained one (a uniform shrink) is the constrained one."""
    from l1lab.data import lower_bound as lb
    from l1lab.projections import project_l1_ball
    return lb.population_risk(project_l1_ball(lb.best_sparse(s, B, s), r), B)


def _ball_cases(v):
    p = v["params"]
    B, s, r = p["B"], p["s_ball"], p["r"]
    k = B * B - 1
    inputs = [(s, B, r), (s, B, 2 * B), (3 * s, B, r / 2), (1, B, 0.5 / B), (7, 2.0, 2.0 * 7 / (7 + 3) - 0.01),
              (250, 3.0, 2.5), (s + 1, 2.5, 0.95 * 2.5 * (s + 1) / (s + 1 + 5.25)), (40, B, B * 40 / (40 + k))]
    rng = hidden_rng(v, 1000 * s + int(B))
    inputs.append((int(rng.integers(1, 3 * s + 2)), B, round(float(rng.uniform(0.1, 2.0)) * B, 3)))
    return [((si, Bi, ri), _ball_risk(si, Bi, ri)) for si, Bi, ri in inputs]


def _maurey_excess(v):
    """E R(w_hat) - R(w) for the sampling argument, computed as the exact finite expectation over one draw:
    w_hat - w is the mean of s i.i.d. zero-mean draws v_J - w, v_j = ||w||_1 sign(w_j) e_j with probability
    |w_j|/||w||_1, so the excess is E Q(v_J - w)/s, Q the quadratic part of R: Q(x) = R(x) - 1 + 2 sum(x)/B."""
    from l1lab.data import lower_bound as lb
    p = v["params"]
    w, B, s = v["w"], p["B"], p["s_draws"]
    b = np.abs(w).sum()
    probs = np.abs(w) / b
    draws = b * np.diag(np.sign(w)) - w[None, :]                       # row j: v_j - w
    quad = lb.population_risk(draws, B) - 1 + 2 * draws.sum(axis=1) / B
    return float(probs @ quad) / s


def _greedy_excesses(v):
    from l1lab import Problem
    from l1lab.data import lower_bound as lb
    from l1lab.solvers.forward import forward_selection
    p = v["params"]
    # l1lab's problems have features in [-1, 1]: divide all of X by one factor, which changes neither the greedy
    # choices (every gradient entry scales alike) nor the fits' predictions (the weights scale back)
    scale = float(np.abs(v["X"]).max())
    path = forward_selection(Problem(v["X"] / scale, v["y"], loss="squared", lam=0.0))
    empirical = lb.risk_from_objective(path.objective[p["s_fit"]] - path.objective[p["d"]])
    return [float(empirical), float(lb.population_excess(path.w(p["s_fit"]) / scale, p["B"]))]


LOWER_BOUND = Assignment(
    name="lower_bound", lecture="lower_bound", title="What no coordinate method can beat, at your B", week=3,
    make_variant=_lb_variant,
    intro="As in the lecture, every risk, excess and accuracy ε is in the lemma's units: the loss (a − y)², twice "
          "l1lab's squared loss, and R(w) = E[(⟨w, X⟩ − Y)²] is the population risk of Lemma 5's construction "
          "with your B = `task.params['B']` (features that agree with the label with probability "
          "1/2 + 1/(2B)). Your sample: `task.X` (m × d), `task.y` (±1); your vector `task.w`.",
    questions=(
        Question(
            "q1", "The repaired lemma at your B and ε", points=2, difficulty=1, minutes=10, kind="value",
            prompt="Your B = {B} and ε = {eps}. The paper's dimension d = 100(B² − 1) proves Lemma 5 only for "
                   "ε ≥ 0.01, which your ε is not; the book's repaired theorem takes d = ⌈(B² − 1) max(100, 1/ε)⌉. "
                   "Assign to `answer_q1` the list `[d, s]`: that dimension, and the fewest one-coordinate steps "
                   "from w = 0 that can reach excess risk ε on the construction in that dimension (integers).",
            expected=_lb_repaired,
            solution="B, eps = task.params['B'], task.params['eps']\n"
                     "k = B * B - 1\n"
                     "d_rep = int(np.ceil(k * max(100, 1 / eps)))\n"
                     "excess = k / (np.arange(d_rep + 1) + k) - k / (d_rep + k)   # the frontier E_d(s)\n"
                     "answer_q1 = [d_rep, int(np.argmax(excess <= eps))]",
            rtol=0.0, atol=0.5),
        Question(
            "q2", "The frontier when the ball binds", points=3, difficulty=3, minutes=30, kind="function",
            function="sparse_risk_in_ball",
            prompt="The lemma's problem is constrained to ‖w‖₁ ≤ B, a constraint its best sparse vectors never "
                   "touch. Shrink the ball. Write `sparse_risk_in_ball(s, B, r)`: the least risk R(w) over the "
                   "vectors with at most s nonzeros (s ≥ 1) **and** ‖w‖₁ ≤ r (any r > 0, any B ≥ 2). Prove your "
                   "formula first (the lecture's Cauchy–Schwarz argument, with the constraint). It is checked on "
                   "your s = {s_ball}, B = {B}, r = {r}, where the ball binds, and on other inputs, some where it "
                   "does not.",
            starter="def sparse_risk_in_ball(s, B, r):\n    PLACEHOLDER",
            expected=_ball_cases,
            solution="def sparse_risk_in_ball(s, B, r):\n"
                     "    k = B * B - 1\n"
                     "    # R >= k v^2 / s + (1 - v)^2 with v = sum(w)/B, and now |v| <= ||w||_1/B <= r/B\n"
                     "    v = min(s / (s + k), r / B)\n"
                     "    return k * v * v / s + (1 - v) ** 2",
            rtol=1e-9, atol=1e-12),
        Question(
            "q3", "The sampling argument on a signed vector", points=3, difficulty=2, minutes=30, kind="value",
            prompt="The lecture's sampling argument draws s coordinates J₁, …, J_s independently with "
                   "P[J = j] = |w_j|/‖w‖₁ and sets ŵ = (‖w‖₁/s) Σ_i sign(w_(J_i)) e_(J_i), so E ŵ = w. Its "
                   "exercise applies it to w★, whose entries are equal and positive. Apply it to your `task.w` "
                   "(d = {d_w}, entries of both signs, some zero) with s = {s_draws} draws, and assign to "
                   "`answer_q3` the exact expected excess E R(ŵ) − R(w) on the construction with B = {B}.",
            expected=_maurey_excess,
            solution="w, B, s = task.w, task.params['B'], task.params['s_draws']\n"
                     "l1, l2sq, total = np.abs(w).sum(), w @ w, w.sum()\n"
                     "# E||w_hat||^2 = ||w||^2 + (||w||_1^2 - ||w||^2)/s,\n"
                     "# Var(sum of w_hat) = (||w||_1^2 - (sum of w)^2)/s\n"
                     "answer_q3 = (1 - 1 / B**2) * (l1**2 - l2sq) / s + (l1**2 - total**2) / (B**2 * s)",
            rtol=1e-9, atol=1e-12),
        Question(
            "q4", "Greedy selection on a Gaussian sample", points=2, difficulty=2, minutes=20, kind="value",
            prompt="Your sample `task.X`, `task.y` ({m} examples, d = {d}) is a Gaussian version of the "
                   "construction: X_j = Y/B + √(1 − 1/B²) Z_j with independent standard normal Z_j, B = {B}. Run "
                   "fully corrective forward greedy selection (your own code) on it for the squared loss, λ = 0, "
                   "and take its {s_fit}-sparse fit w. Assign to `answer_q4` the list `[empirical excess, "
                   "population excess]`: the sample's average loss (a − y)² at w minus its minimum over all of "
                   "ℝ^d, and R(w) − R★ for this distribution (same first two moments as the lemma's: which "
                   "formula of the lecture still holds?).",
            expected=_greedy_excesses,
            solution="X, y, B = task.X, task.y, task.params['B']\n"
                     "m, d = X.shape\n"
                     "w_fit, chosen = np.zeros(d), []\n"
                     "for _ in range(task.params['s_fit']):\n"
                     "    score = np.abs(X.T @ (X @ w_fit - y))\n"
                     "    score[chosen] = -1.0\n"
                     "    chosen.append(int(np.argmax(score)))\n"
                     "    w_fit = np.zeros(d)\n"
                     "    w_fit[chosen] = np.linalg.lstsq(X[:, chosen], y, rcond=None)[0]\n"
                     "w_all = np.linalg.lstsq(X, y, rcond=None)[0]\n"
                     "emp = np.mean((X @ w_fit - y) ** 2) - np.mean((X @ w_all - y) ** 2)\n"
                     "k = B * B - 1\n"
                     "pop = (1 - 1 / B**2) * w_fit @ w_fit + (1 - w_fit.sum() / B) ** 2 - k / (d + k)\n"
                     "answer_q4 = [emp, pop]",
            rtol=1e-7, atol=1e-12),
    ))


# ------------------------------------------------------------------------------------------- lecture 4
def _fast_variant(rng):
    from l1lab.data import make_classification, make_regression
    loss = str(rng.choice(["squared", "logistic"]))
    m, d, k = int(rng.integers(50, 81)), int(rng.integers(80, 161)), int(rng.integers(4, 10))
    density = float(rng.choice([1.0, 0.6, 0.4]))
    seed = int(rng.integers(2 ** 31))
    if loss == "squared":
        X, y, _ = make_regression(m, d, k, noise=0.1, density=density, seed=seed)
    else:
        X, y, _ = make_classification(m, d, k, flip=0.1, density=density, seed=seed)
    X = X.toarray() if hasattr(X, "toarray") else np.asarray(X)
    weights = np.round(rng.uniform(0.5, 2.0, size=d), 2)
    lam_max = float(np.max(np.abs(X.T @ _deriv0(loss, y)) / m / weights))
    lam = _round(float(rng.uniform(0.05, 0.2)) * lam_max)
    T = int(rng.integers(2, 6)) * d                           # a few passes: far from the optimum still
    coords = rng.integers(0, d, size=T)
    eps = float(10.0 ** -int(rng.integers(2, 5)))
    return {"params": {"loss": loss, "m": m, "d": d, "density": density, "lam": lam, "T": T, "eps": eps},
            "X": X, "y": y, "weights": weights, "coords": coords}


def _weighted(v, X=None, y=None, lam=None, weights=None):
    from l1lab import Problem
    p = v["params"]
    return Problem(v["X"] if X is None else X, v["y"] if y is None else y, p["loss"],
                   p["lam"] if lam is None else lam, penalty_weights=v["weights"] if weights is None else weights)


def _coordinate_run(problem, coords):
    from l1lab.solvers.coordinate import _run
    coords = np.asarray(coords, dtype=np.int64)
    return _run(problem, len(coords), 2, problem.loss.beta, lambda a, b: coords[a:b], "scd", None, None,
                step="coordinate").w


def _fast_other(v):
    """Other data for the hidden checks: the first half of the examples, another lambda, other weights, another
    stream."""
    p = v["params"]
    rng = hidden_rng(v, p["T"] + p["d"])
    half = p["m"] // 2
    return (v["X"][:half], v["y"][:half], 0.6 * p["lam"], np.round(rng.uniform(0.2, 3.0, size=p["d"]), 2),
            rng.integers(0, p["d"], size=2 * p["d"]))


def _fast_steps_cases(v):
    p = v["params"]
    X2, y2, lam2, c2, coords2 = _fast_other(v)
    cyclic = np.tile(np.arange(p["d"]), 2)
    cases = [(v["X"], v["y"], p["lam"], v["weights"], v["coords"]), (X2, y2, lam2, c2, coords2),
             (v["X"], v["y"], 2 * p["lam"], np.ones(p["d"]), cyclic)]
    return [(args, _coordinate_run(_weighted(v, *args[:4]), args[4])) for args in cases]


def _fast_gap_cases(v):
    from l1lab import reference_solution
    from l1lab.solvers.working_set import duality_gap
    p = v["params"]
    X2, y2, lam2, c2, coords2 = _fast_other(v)
    problem = _weighted(v)
    w_T = _coordinate_run(problem, v["coords"])
    w_star, _ = reference_solution(problem, tol=1e-12)
    w_inside, _ = reference_solution(_weighted(v, lam=p["lam"] / 2), tol=1e-12)    # its u needs no scaling
    other = _weighted(v, X2, y2, lam2, c2)
    w_other = _coordinate_run(other, coords2)
    points = [np.zeros(p["d"]), w_T, w_star, w_inside]
    return [((v["X"], v["y"], w, p["lam"], v["weights"]), duality_gap(problem, w)) for w in points] + \
        [((X2, y2, w_other, lam2, c2), duality_gap(other, w_other))]


def _fast_run_gap(v):
    from l1lab import reference_solution
    from l1lab.solvers.working_set import duality_gap
    problem = _weighted(v)
    w_T = _coordinate_run(problem, v["coords"])
    _, p_star = reference_solution(problem, tol=1e-12)
    p0 = problem.objective(np.zeros(problem.d))
    return [duality_gap(problem, w_T) / p0, (problem.objective(w_T) - p_star) / p0]


def _fast_sharper_T(v):
    from l1lab import reference_solution
    from l1lab.theory import shalev_shwartz_tewari as sst
    p = v["params"]
    problem = _weighted(v)
    w_star, _ = reference_solution(problem, tol=1e-12)
    psi_b = sst.scd_coordinate_psi0(problem.loss.beta * problem.column_sq_norms(), w_star,
                                    problem.objective(np.zeros(p["d"])))
    # the theorem's T solves d Psi_B/(T + 1) <= eps; the proof's sharper d Psi_B/(T + d - 1) needs d - 2 fewer
    return max(0, sst.scd_iterations_for_accuracy(p["eps"], p["d"], psi_b) - p["d"] + 2)


FAST_CD = Assignment(
    name="fast_cd", lecture="fast_cd", title="Coordinate steps and a certificate on your data", week=3,
    make_variant=_fast_variant,
    intro="Your data: `task.X` (m × d, a dense array with entries in [-1, 1], a fraction `task.params['density']` "
          "of them nonzero), `task.y`, the loss `task.params['loss']` (squared: L(a, y) = (a − y)²/2, β = 1; "
          "logistic: L(a, y) = log(1 + exp(−y a)), β = 1/4), and a **weighted** penalty: P(w) = C(w) + "
          "λ Σ_j c_j |w_j| with your weights c_j = `task.weights[j]` > 0. Your stream of coordinates: "
          "`task.coords`.",
    questions=(
        Question(
            "q1", "Coordinate steps, weighted penalty, your loss", points=3, difficulty=2, minutes=25,
            kind="function", function="scd_coordinate",
            prompt="Write `scd_coordinate(X, y, lam, c, coords)`: the lecture's SCD with coordinate steps for the "
                   "{loss} loss and the penalty λ Σ_j c_j |w_j|, from w = 0, updating the coordinates in the order "
                   "`coords`: coordinate j steps by 1/β_j, β_j = β‖X_(:j)‖²/m, with the threshold of its own "
                   "weight (a coordinate whose column is all zero has β_j = 0: skip it). Keep X w up to date. "
                   "Return the final w. It is checked on your data and stream (T = {T}, λ = {lam}) and on other "
                   "data, weights and streams.",
            starter="def scd_coordinate(X, y, lam, c, coords):\n    PLACEHOLDER",
            expected=_fast_steps_cases,
            solution="def scd_coordinate(X, y, lam, c, coords):\n"
                     "    squared = task.params['loss'] == 'squared'\n"
                     "    m, d = X.shape\n"
                     "    beta_j = (1.0 if squared else 0.25) * (X ** 2).sum(axis=0) / m\n"
                     "    w, a = np.zeros(d), np.zeros(m)\n"
                     "    for j in coords:\n"
                     "        if beta_j[j] == 0:\n"
                     "            continue\n"
                     "        lp = a - y if squared else -y / (1 + np.exp(y * a))\n"
                     "        z = w[j] - X[:, j] @ lp / m / beta_j[j]\n"
                     "        new = np.sign(z) * max(abs(z) - lam * c[j] / beta_j[j], 0.0)\n"
                     "        a += (new - w[j]) * X[:, j]\n"
                     "        w[j] = new\n"
                     "    return w",
            rtol=1e-8, atol=1e-11),
        Question(
            "q2", "The certificate, for your loss and weights", points=3, difficulty=3, minutes=30,
            kind="function", function="duality_gap",
            prompt="Write `duality_gap(X, y, w, lam, c)`: the lecture's certificate P(w) − D(u) for the {loss} "
                   "loss and the weighted penalty. Build u from the residuals as the lecture does, u = "
                   "−L'(X w, y)/m, then scale it by the largest factor in (0, 1] that makes it feasible, which "
                   "with weights means |X_(:j)ᵀ u| ≤ λ c_j for every j. The dual function: for the squared loss, "
                   "D(u) = ⟨y, u⟩ − (m/2)‖u‖²; for the logistic loss, D(u) = −(1/m) Σ_i [t_i log t_i + "
                   "(1 − t_i) log(1 − t_i)] with t_i = m y_i u_i ∈ [0, 1] (0 log 0 = 0). Derive the feasibility "
                   "condition with weights before you code it. It is checked at w = 0, after your run, at the "
                   "optimum, at a point whose u needs no scaling, and on other data.",
            starter="def duality_gap(X, y, w, lam, c):\n    PLACEHOLDER",
            expected=_fast_gap_cases,
            solution="def duality_gap(X, y, w, lam, c):\n"
                     "    squared = task.params['loss'] == 'squared'\n"
                     "    m = X.shape[0]\n"
                     "    a = X @ w\n"
                     "    if squared:\n"
                     "        u = (y - a) / m\n"
                     "        primal = np.mean((a - y) ** 2) / 2\n"
                     "    else:\n"
                     "        u = y / (1 + np.exp(y * a)) / m\n"
                     "        primal = np.mean(np.logaddexp(0, -y * a))\n"
                     "    primal += lam * c @ np.abs(w)\n"
                     "    u *= min(1.0, 1.0 / np.max(np.abs(X.T @ u) / (lam * c)))\n"
                     "    if squared:\n"
                     "        dual = y @ u - m / 2 * (u @ u)\n"
                     "    else:\n"
                     "        t = np.clip(m * y * u, 0.0, 1.0)\n"
                     "        ent = np.where(t > 0, t * np.log(np.where(t > 0, t, 1.0)), 0.0)\n"
                     "        ent += np.where(t < 1, (1 - t) * np.log(np.where(t < 1, 1 - t, 1.0)), 0.0)\n"
                     "        dual = -ent.sum() / m\n"
                     "    return primal - dual",
            rtol=1e-6, atol=1e-9),
        Question(
            "q3", "The proof's sharper iteration count", points=3, difficulty=3, minutes=30, kind="value",
            prompt="The lecture's theorem bounds E[P(w_T)] − P★ by d Ψ_B(0)/(T + 1), with Ψ_B(0) = "
                   "½ Σ_j β_j (w★_j)² + P(0); it holds for your weighted penalty too. Its proof shows more before "
                   "its last line: d Ψ_B(0)/(T + d − 1). Find w★ for your problem with your own code (until your "
                   "`duality_gap` certifies it below 1e-12 P(0)), and assign to `answer_q3` the smallest T for "
                   "which that sharper bound is at most ε = {eps} (d = {d}).",
            expected=_fast_sharper_T,
            solution="X, y, lam, c = task.X, task.y, task.params['lam'], task.weights\n"
                     "m, d = X.shape\n"
                     "squared = task.params['loss'] == 'squared'\n"
                     "beta = 1.0 if squared else 0.25\n"
                     "p_zero = 0.5 * np.mean(y ** 2) if squared else np.log(2)\n"
                     "L = beta * np.linalg.norm(X, 2) ** 2 / m           # smoothness of C: proximal gradient\n"
                     "w_star = v = np.zeros(d)\n"
                     "t_k = 1.0\n"
                     "for it in range(100_000):                           # FISTA with restarts\n"
                     "    a = X @ v\n"
                     "    lp = a - y if squared else -y / (1 + np.exp(y * a))\n"
                     "    q = v - X.T @ lp / m / L\n"
                     "    w_new = np.sign(q) * np.maximum(np.abs(q) - lam * c / L, 0)\n"
                     "    t_new = (1 + np.sqrt(1 + 4 * t_k * t_k)) / 2\n"
                     "    if (v - w_new) @ (w_new - w_star) > 0:\n"
                     "        t_new, v = 1.0, w_new\n"
                     "    else:\n"
                     "        v = w_new + (t_k - 1) / t_new * (w_new - w_star)\n"
                     "    w_star, t_k = w_new, t_new\n"
                     "    if it % 50 == 0 and duality_gap(X, y, w_star, lam, c) < 1e-12 * p_zero:\n"
                     "        break\n"
                     "psi_b = 0.5 * beta * ((X ** 2).sum(axis=0) / m) @ (w_star * w_star) + p_zero\n"
                     "answer_q3 = max(0, int(np.ceil(d * psi_b / task.params['eps'])) - d + 1)",
            rtol=0.0, atol=1.0),
        Question(
            "q4", "Your run, certified, and how pessimistic the certificate is", points=2, difficulty=2,
            minutes=15, kind="value",
            prompt="Your run: `scd_coordinate` on your data with λ = {lam}, your weights and your T = {T} "
                   "coordinates `task.coords`, ending at w_T. Assign to `answer_q4` the list `[gap, "
                   "suboptimality]`: the certified (P(w_T) − D(u))/P(0) of your `duality_gap`, and the true "
                   "(P(w_T) − P★)/P(0), with P★ from your w★ of Q3. How many times the truth is the certificate?",
            expected=_fast_run_gap,
            solution="def objective(w):\n"
                     "    a = X @ w\n"
                     "    loss = 0.5 * (a - y) ** 2 if squared else np.logaddexp(0, -y * a)\n"
                     "    return loss.mean() + lam * c @ np.abs(w)\n"
                     "\n"
                     "w_T = scd_coordinate(X, y, lam, c, task.coords)\n"
                     "answer_q4 = [duality_gap(X, y, w_T, lam, c) / p_zero,\n"
                     "             (objective(w_T) - objective(w_star)) / p_zero]",
            rtol=1e-6, atol=1e-10),
    ))

ASSIGNMENTS = (L1_PROBLEM, SCD, LOWER_BOUND, FAST_CD)
