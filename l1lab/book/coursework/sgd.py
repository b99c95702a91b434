r"""Graded problems of the sparse stochastic gradient lectures: SMIDAS (``chapters/smidas``,
``chapters/smidas_guarantee``), truncated gradient and when the p-norm link pays (``chapters/smidas_truncgrad``,
``chapters/smidas_truncgrad_prop4``), and the experiments of Section 4 (``chapters/experiments``,
``chapters/experiments_claims``).

Each student gets their own data (sizes, density of the examples, the loss) and their own λ, step size, stream of
examples and horizon.  The worked exercises of the lectures write the last iterate of SMIDAS and of the
SMIDAS-style truncated gradient, the inverse link, the best K of Proposition 4 and the ratio of the runtime bounds
for a given w★; these problems ask one step further: Theorem 3's averaged output, Langford et al.'s own truncated
gradient (period, gravity, threshold), the step size and the bounds of the self-bounded case with the student's
own w★ and the book's constants (κ = (p − 1)d^{2/p}, ρ = 2 for the squared loss where the paper says 4, the
potential ½‖w★‖_q² where the paper's proof drops the ½), the iterations Theorem 3 and Proposition 4 need for
an accuracy, and Section 4's tuning protocol and its claims read on the student's own runs.  The weeks follow
the pacing plan of the instructors' page (these lectures are taught in weeks 4-6).
"""
from __future__ import annotations

import math

import numpy as np

from ._core import Assignment, Question, hidden_seed

__all__ = ["ASSIGNMENTS", "EXPERIMENTS", "SMIDAS", "SMIDAS_TRUNCGRAD"]


def _round(x, digits=4):
    return float(f"{x:.{digits}g}")


def _dense(X):
    return np.asarray(X.toarray() if hasattr(X, "toarray") else X, dtype=np.float64)


def _problem(X, y, loss, lam):
    from l1lab import Problem
    return Problem(X, y, loss, lam)


def _lam_max(X, y, loss):
    """The smallest λ at which w = 0 is optimal: max_j |(1/m) Σ_i L'(0, y_i) x_ij|."""
    deriv0 = -y if loss == "squared" else -y / 2.0
    return float(np.abs(X.T @ deriv0).max() / len(y))


def _optimum(v, loss=None):
    """(w★, P★) of the student's problem, with l1lab's reference solver."""
    from l1lab import reference_solution
    p = v["params"]
    return reference_solution(_problem(v["X"], v["y"], loss or p["loss"], p["lam"]), tol=1e-12)


# The model solutions' own solver of the ℓ1 problem (FISTA with adaptive restart, stopped by the optimality
# residual of lecture 1), used by several questions: plain numpy.
_OWN_SOLVER = """\
def solve_l1(X, y, lam, squared, tol=1e-11):
    # FISTA with restarts on P(w) = (1/m) sum L(<w, x_i>, y_i) + lam ||w||_1, until the optimality residual
    # max_j dist(-grad_j C(w), lam * subdifferential of |w_j|) is at most tol
    m, d = X.shape
    beta = 1.0 if squared else 0.25
    step = m / (beta * np.linalg.norm(X, 2) ** 2)

    def grad(w):
        a = X @ w
        lp = a - y if squared else -y / (1 + np.exp(y * a))
        return X.T @ lp / m

    w = np.zeros(d)
    v, t = w.copy(), 1.0
    for _ in range(200_000):
        z = v - step * grad(v)
        w_new = np.sign(z) * np.maximum(np.abs(z) - step * lam, 0.0)
        if (v - w_new) @ (w_new - w) > 0:      # the momentum points uphill: restart
            v, t = w.copy(), 1.0
            continue
        t_new = (1 + np.sqrt(1 + 4 * t * t)) / 2
        v = w_new + (t - 1) / t_new * (w_new - w)
        w, t = w_new, t_new
        g = grad(w)
        r = np.where(w != 0, np.abs(g + lam * np.sign(w)), np.maximum(np.abs(g) - lam, 0.0))
        if r.max() <= tol:
            break
    a = X @ w
    loss = 0.5 * (a - y) ** 2 if squared else np.logaddexp(0, -y * a)
    return w, loss.mean() + lam * np.abs(w).sum()
"""


# ------------------------------------------------------------------------------------------- lecture 5
def _smidas_variant(rng):
    from l1lab.data import make_classification, make_regression
    from l1lab.theory import shalev_shwartz_tewari as sst
    loss = str(rng.choice(["logistic", "squared"]))
    m, d, k = int(rng.integers(120, 241)), int(rng.integers(20, 61)), int(rng.integers(3, 7))
    density = float(rng.choice([1.0, 0.3]))
    seed = int(rng.integers(2 ** 31))
    if loss == "squared":
        X, y, _ = make_regression(m, d, k, noise=0.1, density=density, seed=seed)
    else:
        X, y, _ = make_classification(m, d, k, flip=0.1, density=density, seed=seed)
    X = _dense(X)
    lam = _round(float(rng.uniform(0.1, 0.3)) * _lam_max(X, y, loss))
    eta = _round(float(rng.uniform(0.02, 0.08)))
    T = int(rng.integers(8, 21)) * 100
    run_seed = int(rng.integers(1000))
    horizon = int(rng.choice([10_000, 20_000, 50_000, 100_000]))
    return {"params": {"loss": loss, "m": m, "d": d, "lam": lam, "eta": eta, "T": T, "seed": run_seed,
                       "horizon": horizon, "rho": sst.loss_condition_14(loss)},
            "X": X, "y": y}


def _smidas_average(X, y, loss, lam, eta, T, seed):
    from l1lab.solvers import smidas
    return smidas(_problem(X, y, loss, lam), T, eta, seed=seed, output="average", n_checkpoints=2).w


def _smidas_cases(v):
    p = v["params"]
    X, y, loss = v["X"], v["y"], p["loss"]
    half, cols = p["m"] // 2, max(5, p["d"] // 2)
    cases = [(X, y, p["lam"], p["eta"], p["T"], p["seed"]),
             (X[:half], y[:half], p["lam"] / 2, 2 * p["eta"], 300, hidden_seed(v, p["seed"] + 1)),
             (X[:, :cols], y, 2 * p["lam"], p["eta"], 500, hidden_seed(v, 0))]
    return [(args, _smidas_average(args[0], args[1], loss, *args[2:])) for args in cases]


def _self_bounded_terms(v):
    """α = κρ/2 with κ = (p − 1)d^{2/p} at p = 2 ln d, and w★, P(0) of the student's problem."""
    from l1lab import links
    from l1lab.theory import shalev_shwartz_tewari as sst
    p = v["params"]
    w_star, _ = _optimum(v)
    pp = links.smidas_p(p["d"])
    p0 = _problem(v["X"], v["y"], p["loss"], p["lam"]).objective(np.zeros(p["d"]))
    return w_star, pp, p0, sst.smidas_kappa(pp, p["d"]) * p["rho"] / 2.0


def _lemma7_eta(v):
    from l1lab.theory import shalev_shwartz_tewari as sst
    p = v["params"]
    w_star, pp, p0, _ = _self_bounded_terms(v)
    return sst.smidas_eta_self_bounded(p["horizon"], p["rho"], float(np.abs(w_star).sum()), p0, pp, p["d"])


def _half_potential_bound(v):
    from l1lab import links
    from l1lab.theory import shalev_shwartz_tewari as sst
    p = v["params"]
    w_star, pp, p0, alpha = _self_bounded_terms(v)
    gamma = 0.5 * float(np.linalg.norm(w_star, links.dual_exponent(pp))) ** 2
    eta = sst.lemma7_eta_star(alpha, gamma, p0, p["horizon"])
    return sst.lemma7_f(eta, alpha, gamma, p0, p["horizon"])


SMIDAS = Assignment(
    name="smidas", lecture="smidas", title="SMIDAS and Theorem 3 on your data", week=4,
    make_variant=_smidas_variant,
    intro="Your data: `task.X` (m × d, entries in [-1, 1], dense or with many zeros), `task.y`, and the loss "
          "`task.params['loss']`: squared, L(a, y) = (a − y)²/2, or logistic, L(a, y) = log(1 + exp(−y a)). "
          "The problem is P(w) = (1/m) Σ L(⟨w, x_i⟩, y_i) + λ‖w‖₁, and SMIDAS is Algorithm 3 with p = 2 ln d.",
    questions=(
        Question(
            "q1", "SMIDAS's averaged output", points=4, difficulty=2, minutes=30, kind="function",
            function="smidas_average",
            prompt="Theorem 3 bounds E[P(w_o)] for w_o = w_r, r uniform on 0, …, T − 1 (w_t: the iterate after "
                   "t iterations, w_0 = 0), that is the average of P(w_0), …, P(w_(T−1)); by convexity the same "
                   "bound holds for P of the averaged iterate, an output that needs no draw of r. "
                   "Write `smidas_average(X, y, lam, eta, T, seed)`: T iterations of SMIDAS for the {loss} loss "
                   "with p = 2 ln d (d: the number of columns of `X`), from θ = 0, on the examples "
                   "`np.random.default_rng(seed).integers(0, m, size=T)`, returning the **average** "
                   "(w_0 + w_1 + … + w_(T−1)) / T (w_0 = 0 included, the last iterate w_T not). It is checked "
                   "on your data (λ = {lam}, η = {eta}, T = {T}, seed {seed}) and on other data, λ, η and sizes.",
            starter="def smidas_average(X, y, lam, eta, T, seed):\n    PLACEHOLDER",
            expected=_smidas_cases,
            solution="def smidas_average(X, y, lam, eta, T, seed):\n"
                     "    squared = task.params['loss'] == 'squared'\n"
                     "    m, d = X.shape\n"
                     "    p = 2 * np.log(d)\n"
                     "    theta, w, total = np.zeros(d), np.zeros(d), np.zeros(d)\n"
                     "    for i in np.random.default_rng(seed).integers(0, m, size=T):\n"
                     "        total += w                        # w_t before the step: w_0, ..., w_(T-1)\n"
                     "        a = w @ X[i]\n"
                     "        lp = a - y[i] if squared else -y[i] / (1 + np.exp(y[i] * a))\n"
                     "        theta = theta - eta * lp * X[i]\n"
                     "        theta = np.sign(theta) * np.maximum(np.abs(theta) - eta * lam, 0.0)\n"
                     "        top = np.abs(theta).max()\n"
                     "        if top == 0:\n"
                     "            w = np.zeros(d)\n"
                     "        else:                             # f^-1(theta), scaled by the largest entry\n"
                     "            u = np.abs(theta) / top\n"
                     "            w = np.sign(theta) * top * u ** (p - 1) / np.linalg.norm(u, p) ** (p - 2)\n"
                     "    return total / T",
            rtol=1e-6, atol=1e-9),
        Question(
            "q2", "Lemma 7's step size, with your own w★", points=3, difficulty=2, minutes=25, kind="value",
            prompt="Case 2 of Theorem 3 (the self-bounded condition L'² ≤ ρL) prescribes the step size η★ of "
                   "Lemma 7 with α = κρ/2, γ = ‖w★‖₁² and c = P(0), where κ = (p − 1)d^(2/p) at p = 2 ln d "
                   "(that is (p − 1)e). Use ρ = {rho} for your loss: for the squared loss (a − y)²/2 this is "
                   "the book's constant 2, not the paper's 4, which belongs to (a − y)². Find w★ for your "
                   "data, loss and λ = {lam} with your own code (until the optimality residual is below 1e-10), "
                   "and assign to `answer_q2` the step size η★ for the horizon T = {horizon}.",
            expected=_lemma7_eta,
            solution=_OWN_SOLVER
            + "squared = task.params['loss'] == 'squared'\n"
              "w_star, p_star = solve_l1(task.X, task.y, task.params['lam'], squared)\n"
              "d, T, rho = task.params['d'], task.params['horizon'], task.params['rho']\n"
              "p = 2 * np.log(d)\n"
              "kappa = (p - 1) * d ** (2 / p)\n"
              "alpha, gamma = kappa * rho / 2, np.abs(w_star).sum() ** 2\n"
              "c = 0.5 * np.mean(task.y ** 2) if squared else np.log(2)      # P(0)\n"
              "answer_q2 = gamma / (c * T) * (np.sqrt(1 + c * T / (alpha * gamma)) - 1)",
            rtol=1e-6, atol=0.0),
        Question(
            "q3", "Case 2 with the potential kept", points=3, difficulty=3, minutes=30, kind="value",
            prompt="The proof of Theorem 3 bounds the potential at the start, Δ(w_0) = ½‖w★‖_q² (q = p/(p − 1)), "
                   "by ‖w★‖₁², dropping a factor ½ (the lecture's slip). Redo case 2 with γ = ½‖w★‖_q² in place "
                   "of ‖w★‖₁² (same α and ρ = {rho}, c = P(0), T = {horizon}): assign to `answer_q3` the "
                   "**smallest value** over η in (0, 1/α) of the bound (1/(1 − αη) − 1)c + γ/(ηT(1 − αη)), the "
                   "exact minimum, not Lemma 7's upper bound 4√(αγc/T) + 4αγ/T.",
            expected=_half_potential_bound,
            solution="q = p / (p - 1)\n"
                     "gamma_half = 0.5 * np.sum(np.abs(w_star) ** q) ** (2 / q)\n"
                     "eta = gamma_half / (c * T) * (np.sqrt(1 + c * T / (alpha * gamma_half)) - 1)   # Lemma 7\n"
                     "answer_q3 = (1 / (1 - alpha * eta) - 1) * c + gamma_half / (eta * T * (1 - alpha * eta))",
            rtol=1e-6, atol=0.0),
    ))


# ------------------------------------------------------------------------------------------- lecture 6
def _truncgrad_variant(rng):
    from l1lab.data import make_regression
    kind = str(rng.choice(["dense", "sparse"]))
    m, d, k = int(rng.integers(150, 301)), int(rng.integers(30, 81)), int(rng.integers(3, 8))
    noise = _round(float(rng.uniform(0.02, 0.08)), 2)
    seed = int(rng.integers(2 ** 31))
    if kind == "dense":
        X, y, _ = make_regression(m, d, k, noise=noise, kind="sign", seed=seed)
    else:
        X, y, _ = make_regression(m, d, k, noise=noise, density=0.15, seed=seed)
    X = _dense(X)
    lam = _round(float(rng.uniform(0.02, 0.08)) * _lam_max(X, y, "squared"))
    eta = _round(float(rng.uniform(0.1, 0.5)) / float(np.max(np.sum(X * X, axis=1))))
    return {"params": {"kind": kind, "m": m, "d": d, "lam": lam, "eta": eta, "T": int(rng.integers(5, 16)) * 100,
                       "seed": int(rng.integers(1000)), "K": int(rng.integers(2, 9)),
                       "gravity": _round(float(rng.uniform(0.5, 2.0)) * lam),
                       "threshold": _round(float(rng.uniform(0.1, 0.5)), 2),
                       "eps_factor": float(rng.choice([0.5, 1.0, 2.0, 5.0]))},
            "X": X, "y": y}


def _langford(X, y, eta, T, seed, K, g, threshold):
    from l1lab.solvers import truncgrad
    return truncgrad(_problem(X, y, "squared", 0.0), T, eta, seed=seed, variant="langford", gravity=g, period=K,
                     threshold=threshold, n_checkpoints=2).w


def _langford_cases(v):
    p = v["params"]
    X, y = v["X"], v["y"]
    half = p["m"] // 2
    cases = [(X, y, p["eta"], p["T"], p["seed"], p["K"], p["gravity"], p["threshold"]),
             (X[:half], y[:half], p["eta"] / 2, 401, hidden_seed(v, p["seed"] + 1), 1, p["lam"], math.inf),
             (X, y, p["eta"], 700, hidden_seed(v, 3), 5, 2 * p["gravity"], p["threshold"] / 4)]
    return [(args, _langford(*args)) for args in cases]


def _bound_ratio(v):
    from l1lab.theory import shalev_shwartz_tewari as sst
    p = v["params"]
    w_star, _ = _optimum(v, "squared")
    x2 = sst.mean_squared_row_norm(_problem(v["X"], v["y"], "squared", p["lam"]))
    return sst.truncgrad_runtime_bound(1.0, p["d"], float(w_star @ w_star), x2) / \
        sst.smidas_runtime_bound(1.0, p["d"], float(np.abs(w_star).sum()))


def _guarantees(T, w1, p0, p_star, d):
    """The two guarantees on E[P(w_o)] − P★ at horizon T of the self-bounded case with the book's constants
    (ρ = 2 for the squared loss, κ = (p − 1)d^{2/p}): Theorem 3 case 2 at Lemma 7's η★ (the exact value of its
    bound there) and Proposition 4 at its best K (in closed form), both with l1lab's functions."""
    from l1lab import links
    from l1lab.theory import shalev_shwartz_tewari as sst
    rho, pp = sst.loss_condition_14("squared"), links.smidas_p(d)
    eta = sst.smidas_eta_self_bounded(T, rho, w1, p0, pp, d)
    thm3 = sst.smidas_bound_self_bounded(eta, T, rho, w1, p0, pp, d)
    omega = sst.smidas_kappa(pp, d) * rho / 2.0 * w1 ** 2 / T
    K = math.sqrt(omega / (p_star + omega))
    return thm3, sst.smidas_prop4_bound(K, T, rho, w1, p_star, pp, d) - p_star


def _iterations_for_accuracy(v):
    from l1lab import links
    from l1lab.theory import shalev_shwartz_tewari as sst
    p = v["params"]
    w_star, p_star = _optimum(v, "squared")
    w1, d = float(np.abs(w_star).sum()), p["d"]
    p0 = float(np.mean(v["y"] ** 2) / 2)
    eps = p["eps_factor"] * p_star
    ab = sst.smidas_kappa(links.smidas_p(d), d) * sst.loss_condition_14("squared") / 2.0 * w1 ** 2
    out = []
    for k, c in enumerate((p0, p_star)):
        # both minima are 2 sqrt(ω (c + ω)) + 2ω with ω = αγ/T, at most ε exactly when T >= 4αγ(c + ε)/ε²;
        # the integer is then checked against l1lab's bounds
        T = max(1, math.ceil(4 * ab * (c + eps) / eps ** 2))
        while T > 1 and _guarantees(T - 1, w1, p0, p_star, d)[k] <= eps:
            T -= 1
        while _guarantees(T, w1, p0, p_star, d)[k] > eps:
            T += 1
        out.append(T)
    return np.array(out, dtype=float)


SMIDAS_TRUNCGRAD = Assignment(
    name="smidas_truncgrad", lecture="smidas_truncgrad", title="Truncated gradient and Proposition 4 on your data",
    week=5, make_variant=_truncgrad_variant,
    intro="Your data: `task.X` (m × d, entries in [-1, 1]: ±1 for dense examples, or mostly zeros for sparse "
          "ones, `task.params['kind']`) and real targets `task.y`; the loss is the squared loss "
          "L(a, y) = (a − y)²/2 and P(w) = (1/m) Σ L(⟨w, x_i⟩, y_i) + λ‖w‖₁.",
    questions=(
        Question(
            "q1", "Langford et al.'s own truncated gradient", points=4, difficulty=3, minutes=30, kind="function",
            function="truncgrad_langford",
            prompt="The lecture runs truncated gradient in the variant of SMIDAS; Langford, Li and Zhang's own "
                   "version truncates only every K steps, by K times η g for a gravity g, and only the weights "
                   "at most θ in absolute value. Write `truncgrad_langford(X, y, eta, T, seed, K, g, theta)`: "
                   "from w = 0, at each step s = 1, …, T take the example i_s of "
                   "`np.random.default_rng(seed).integers(0, m, size=T)` and the gradient step "
                   "w ← w − η L'(⟨w, x_i⟩, y_i) x_i of the squared loss; then, when s is a multiple of K, "
                   "replace every w_j with |w_j| ≤ θ by sign(w_j) max(0, |w_j| − Kηg) (the others stay). Return "
                   "w after step T. It is checked on your data (η = {eta}, T = {T}, seed {seed}, K = {K}, "
                   "g = {gravity}, θ = {threshold}) and on other inputs, θ = ∞ (`math.inf`) among them.",
            starter="def truncgrad_langford(X, y, eta, T, seed, K, g, theta):\n    PLACEHOLDER",
            expected=_langford_cases,
            solution="def truncgrad_langford(X, y, eta, T, seed, K, g, theta):\n"
                     "    m, d = X.shape\n"
                     "    w = np.zeros(d)\n"
                     "    stream = np.random.default_rng(seed).integers(0, m, size=T)\n"
                     "    for s, i in enumerate(stream, start=1):\n"
                     "        w -= eta * (w @ X[i] - y[i]) * X[i]\n"
                     "        if s % K == 0:\n"
                     "            small = np.abs(w) <= theta\n"
                     "            w[small] = np.sign(w[small]) * np.maximum(np.abs(w[small]) - K * eta * g, 0.0)\n"
                     "    return w",
            rtol=1e-7, atol=1e-10),
        Question(
            "q2", "Which runtime bound is smaller, on your data", points=2, difficulty=2, minutes=20,
            kind="value",
            prompt="Find w★ for your data and λ = {lam} with your own code (until the optimality residual is below "
                   "1e-10) and assign to `answer_q2` the ratio of truncated gradient's runtime bound (the paper's "
                   "(4)) to SMIDAS's (the paper's (3)), without their constants (log: the natural logarithm), for your "
                   "{kind} examples. Which "
                   "method does it favour?",
            expected=_bound_ratio,
            solution=_OWN_SOLVER
            + "X, y = task.X, task.y\n"
              "w_star, p_star = solve_l1(X, y, task.params['lam'], squared=True)\n"
              "x2 = np.mean(np.sum(X ** 2, axis=1))                  # X_2^2\n"
              "answer_q2 = (w_star @ w_star) * x2 / (np.log(X.shape[1]) * np.abs(w_star).sum() ** 2)",
            rtol=1e-6, atol=0.0),
        Question(
            "q3", "How many iterations each guarantee needs", points=4, difficulty=3, minutes=35, kind="value",
            prompt="Compare the two guarantees of the self-bounded case on your problem (λ = {lam}), with "
                   "α = κρ/2, κ = (p − 1)d^(2/p) at p = 2 ln d, γ = ‖w★‖₁² and the book's ρ = 2 for the squared "
                   "loss (the paper's ρ = 4 is the constant of (a − y)², and its 3ρ log(d) rounds κρ/2 up): "
                   "Theorem 3, case 2, at Lemma 7's step size η★ for the horizon T (the exact value of its bound "
                   "there, not Lemma 7's upper bound), and Proposition 4 at the best K for T, which guarantees "
                   "E[P(w_o)] − P★ ≤ K P★ + ((1 + K)²/K) αγ/T. Assign to `answer_q3` the pair [T₃, T₄]: the "
                   "smallest numbers of iterations at which each guarantees E[P(w_o)] − P★ ≤ ε = {eps_factor} P★ "
                   "(your own w★ and P★). What does their ratio compare?",
            expected=_iterations_for_accuracy,
            solution="d = X.shape[1]\n"
                     "p = 2 * np.log(d)\n"
                     "ab = (p - 1) * d ** (2 / p) * 2.0 / 2 * np.abs(w_star).sum() ** 2     # alpha gamma, rho = 2\n"
                     "eps = task.params['eps_factor'] * p_star\n"
                     "p0 = np.mean(y ** 2) / 2\n"
                     "# Lemma 7's exact minimum with c (P(0): Theorem 3; P*: Proposition 4 at its best K) is\n"
                     "# 2 sqrt(om (c + om)) + 2 om, om = ab / T: at most eps exactly when om <= eps^2 / (4 (c + eps))\n"
                     "answer_q3 = [int(np.ceil(4 * ab * (c + eps) / eps ** 2)) for c in (p0, p_star)]",
            rtol=0.0, atol=1.0),
    ))


# ------------------------------------------------------------------------------------------- lecture 7
def _experiments_variant(rng):
    from l1lab.data import make_classification
    from l1lab.experiments import PAPER_ETA_GRID
    m, d, k = int(rng.integers(60, 141)), int(rng.integers(20, 61)), int(rng.integers(2, 6))
    density = _round(float(rng.uniform(0.1, 0.4)), 2)
    X, y, _ = make_classification(m, d, k, flip=0.1, density=density, seed=int(rng.integers(2 ** 31)))
    X = _dense(X)
    lam = _round(float(rng.uniform(0.05, 0.2)) * _lam_max(X, y, "logistic"))
    start = int(rng.integers(6, 9))                    # 8 values from 1e-3, 5e-3 or 1e-2 on
    grid = [float(e) for e in PAPER_ETA_GRID[start: start + 8]]
    return {"params": {"m": m, "d": d, "lam": lam, "epochs": int(rng.integers(2, 6)), "seed": int(rng.integers(1000)),
                       "grid": grid, "rel": float(rng.choice([1e-4, 1e-6, 1e-8]))},
            "X": X, "y": y}


def _sweep(X, y, lam, grid, epochs, seed, solvers=("smidas",)):
    """Section 4's protocol with l1lab's sweep: the same budget of passes, SMIDAS with p = ceil(2 ln d)."""
    from l1lab.data.real import Dataset
    from l1lab.experiments import run_sweep
    return run_sweep(Dataset.from_arrays("student", X, y), solvers=solvers, lams=(lam,), etas=tuple(grid),
                     seeds=(seed,), epochs=float(epochs), n_checkpoints=2, cache_dir=False, progress=False)


def _tuning_cases(v):
    p = v["params"]
    X, y = v["X"], v["y"]
    half = p["m"] // 2
    cases = [(X, y, p["lam"], list(p["grid"]), p["epochs"], p["seed"]),
             (X[:half], y[:half], p["lam"] / 2, [1e-3, 1e-2, 1e-1, 1.0, 10.0], 3, hidden_seed(v, p["seed"] + 1)),
             (X[:, : p["d"] // 2], y, 2 * p["lam"], [5e-3, 5e-2, 5e-1], 2, hidden_seed(v, 0))]
    out = []
    for args in cases:
        sweep = _sweep(*args)
        out.append((args, np.array([sweep.final_objective("student", "smidas", args[2], e) for e in args[3]])))
    return out


def _claim_runs(v):
    """SCD's run and the tuned SMIDAS run (its step chosen on the grid) at the same budget."""
    p = v["params"]
    sweep = _sweep(v["X"], v["y"], p["lam"], p["grid"], p["epochs"], p["seed"], solvers=("scd", "smidas"))
    scd = sweep.runs("student", "scd", p["lam"])
    smidas = sweep.runs("student", "smidas", p["lam"])         # at the step best_eta chooses
    return scd, smidas


def _excess_difference(v):
    scd, smidas = _claim_runs(v)
    a, b = float(scd.objective[0, -1]), float(smidas.objective[0, -1])
    p0 = float(scd.objective[0, 0])
    return (a - b) / (p0 - min(a, b))


def _sparsity(v):
    scd, smidas = _claim_runs(v)
    w = np.abs(smidas.w[0])                    # the effective count of the lecture, at the student's fraction
    return np.array([np.count_nonzero(scd.w[0]), np.count_nonzero(w > v["params"]["rel"] * w.max())], dtype=float)


EXPERIMENTS = Assignment(
    name="experiments", lecture="experiments", title="Section 4's protocol on your data", week=6,
    make_variant=_experiments_variant,
    intro="Your data: `task.X` (m × d, entries in [-1, 1], most of them 0) and labels `task.y` in {-1, +1}; the "
          "loss is the logistic loss of the paper's experiments, P(w) = (1/m) Σ log(1 + exp(−y_i⟨w, x_i⟩)) + "
          "λ‖w‖₁. As in the lecture, SMIDAS runs with the paper's p = ⌈2 ln d⌉, a budget of E passes over X buys "
          "E·m steps of SMIDAS (a step reads one example) and E·d steps of SCD (a step reads one column), and "
          "every run starts at 0.",
    questions=(
        Question(
            "q1", "The tuning runs of Section 4", points=4, difficulty=2, minutes=35, kind="function",
            function="tuning_curve",
            prompt="Write `tuning_curve(X, y, lam, grid, epochs, seed)`: for every step size η of the list `grid`, "
                   "run SMIDAS with p = ⌈2 ln d⌉ for the number of steps that `epochs` passes over X buy, on the "
                   "examples `np.random.default_rng(seed).integers(0, m, size=T)` (the same stream for every η), "
                   "and return the array of the final objectives P(w_T), one per η, in the order of `grid`. It "
                   "is checked on your data (λ = {lam}, the grid {grid}, E = {epochs} passes, seed {seed}) and on "
                   "other data, grids and budgets.",
            starter="def tuning_curve(X, y, lam, grid, epochs, seed):\n    PLACEHOLDER",
            expected=_tuning_cases,
            solution="def smidas_last(X, y, lam, eta, stream):\n"
                     "    # SMIDAS with the paper's p = ceil(2 ln d) on the given examples; the last iterate\n"
                     "    d = X.shape[1]\n"
                     "    p = np.ceil(2 * np.log(d))\n"
                     "    theta, w = np.zeros(d), np.zeros(d)\n"
                     "    for i in stream:\n"
                     "        g = -y[i] / (1 + np.exp(y[i] * (w @ X[i])))\n"
                     "        theta = theta - eta * g * X[i]\n"
                     "        theta = np.sign(theta) * np.maximum(np.abs(theta) - eta * lam, 0.0)\n"
                     "        top = np.abs(theta).max()\n"
                     "        if top == 0:\n"
                     "            w = np.zeros(d)\n"
                     "        else:\n"
                     "            u = np.abs(theta) / top\n"
                     "            w = np.sign(theta) * top * u ** (p - 1) / np.linalg.norm(u, p) ** (p - 2)\n"
                     "    return w\n"
                     "\n"
                     "\n"
                     "def tuning_curve(X, y, lam, grid, epochs, seed):\n"
                     "    m = X.shape[0]\n"
                     "    T = epochs * m             # E nnz(X) data accesses at nnz(X)/m per step\n"
                     "    stream = np.random.default_rng(seed).integers(0, m, size=T)\n"
                     "    finals = []\n"
                     "    for eta in grid:\n"
                     "        w = smidas_last(X, y, lam, eta, stream)\n"
                     "        finals.append(np.mean(np.logaddexp(0, -y * (X @ w))) + lam * np.abs(w).sum())\n"
                     "    return np.array(finals)",
            rtol=1e-7, atol=1e-12),
        Question(
            "q2", "A claim read on your runs", points=3, difficulty=3, minutes=30, kind="value",
            prompt="Choose SMIDAS's step as Section 4 does: the η of your grid with the smallest final objective "
                   "in your `tuning_curve` on your data (λ = {lam}, E = {epochs} passes, seed {seed}; a tie goes "
                   "to the smaller step); its run is the tuned one. Run SCD (Algorithm 1, step 1/β with β = 1/4) "
                   "for the same budget of {epochs} passes, on the coordinates "
                   "`np.random.default_rng(seed).integers(0, d, size=T)` with your seed. With P(0) = log 2 and "
                   "P_low the smaller of the two final objectives, the excess of a method is (P_final − P_low)/"
                   "(P(0) − P_low). Assign to `answer_q2` the excess of SCD minus that of tuned SMIDAS "
                   "(positive: SMIDAS ends lower). By the lecture's thresholds (0.02, 0.10), is SCD about the "
                   "same, slightly or much worse or better?",
            expected=_excess_difference,
            solution="X, y, lam = task.X, task.y, task.params['lam']\n"
                     "m, d = X.shape\n"
                     "grid, E, seed = task.params['grid'], task.params['epochs'], task.params['seed']\n"
                     "curve = tuning_curve(X, y, lam, grid, E, seed)\n"
                     "eta_best = grid[int(np.argmin(curve))]           # argmin keeps the first, the smaller step\n"
                     "p_smidas = curve.min()\n"
                     "w, a = np.zeros(d), np.zeros(m)                   # SCD, keeping a = X w\n"
                     "for j in np.random.default_rng(seed).integers(0, d, size=E * d):\n"
                     "    gj = X[:, j] @ (-y / (1 + np.exp(y * a))) / m\n"
                     "    z = w[j] - 4.0 * gj\n"
                     "    new = np.sign(z) * max(abs(z) - 4.0 * lam, 0.0)\n"
                     "    a += (new - w[j]) * X[:, j]\n"
                     "    w[j] = new\n"
                     "w_scd = w\n"
                     "p_scd = np.mean(np.logaddexp(0, -y * a)) + lam * np.abs(w).sum()\n"
                     "low = min(p_scd, p_smidas)\n"
                     "answer_q2 = (p_scd - p_smidas) / (np.log(2) - low)",
            rtol=1e-6, atol=1e-9),
        Question(
            "q3", "Sparse by count, sparse in effect", points=3, difficulty=2, minutes=20, kind="value",
            prompt="The paper counts nonzeros; the lecture also counts the weights above a fraction of the "
                   "largest. Assign to `answer_q3` the pair [number of nonzero weights of SCD's final iterate, "
                   "number of weights of the tuned SMIDAS run's final iterate with |w_j| > {rel} max_k |w_k|] "
                   "(the runs of Q2).",
            expected=_sparsity,
            solution="stream = np.random.default_rng(seed).integers(0, m, size=E * m)\n"
                     "w_sm = smidas_last(X, y, lam, eta_best, stream)\n"
                     "big = np.sum(np.abs(w_sm) > task.params['rel'] * np.abs(w_sm).max())\n"
                     "answer_q3 = [np.count_nonzero(w_scd), big]",
            rtol=0.0, atol=0.5),
    ))

ASSIGNMENTS = (SMIDAS, SMIDAS_TRUNCGRAD, EXPERIMENTS)
