r"""Graded problems of the lecture that ties the stochastic methods together ("One family: mirror descent and dual
averaging", ``chapters/family``).

The worked exercises of that lecture derive EG±'s link in one dimension and the threshold of dual averaging; its
exercise notebook computes the step of RDA and Theorem 3's bound at a fixed step.  The graded problems go one step
further on each student's own regression: RDA with the Euclidean potential, run over the student's stream of
examples, and the bound of Theorem 3 (case (14)) for the two potentials of mirror descent at the student's step.
"""
from __future__ import annotations

import math

import numpy as np

from ._core import Assignment, Question, hidden_rng
from ._core import cached as _cached
from .coordinate import _data, _round

__all__ = ["ASSIGNMENTS", "FAMILY"]


def _family_variant(rng):
    m, d, k = int(rng.integers(60, 121)), int(rng.integers(8, 21)), int(rng.integers(2, 5))
    X, y = _data(rng, "squared", m, d, k)
    lam_max = float(np.abs(X.T @ y).max() / m)
    lam = _round(float(rng.uniform(0.05, 0.3)) * lam_max)
    gamma = _round(10 ** rng.uniform(-1.0, 0.5), 3)
    T = int(rng.integers(300, 801))
    seed = int(rng.integers(2 ** 31))
    order = np.random.default_rng(seed).integers(0, m, size=T, dtype=np.int64)     # the stream, as l1lab draws it
    T_big = int(rng.choice([10_000, 20_000, 50_000]))
    return {"params": {"m": m, "d": d, "lam": lam, "gamma": gamma, "T": T, "T_big": T_big},
            "X": X, "y": y, "order": order, "seed": seed}


def _rda_reference(X, y, lam, gamma, T, seed):
    """l1lab's RDA (Euclidean potential, p = 2) on the pool (X, y), T steps drawn from ``seed``: its last iterate."""
    from l1lab import Problem
    from l1lab.solvers import rda
    return rda(Problem(X, y, "squared", 0.0), T, lam, gamma, p=2.0, seed=seed, n_checkpoints=2).w


def _rda_cases(v):
    def compute():
        p = v["params"]
        X, y, m = v["X"], v["y"], p["m"]
        rng = hidden_rng(v, v["seed"] % 100_003)
        cases = []
        for lam, gamma, T, seed in ((p["lam"], p["gamma"], p["T"], v["seed"]),
                                    (3 * p["lam"], p["gamma"], p["T"] // 3, v["seed"] + 1),    # sparser
                                    (p["lam"] / 10, 2 * p["gamma"], 200, v["seed"] + 2),
                                    (0.0, 0.5, 50, v["seed"] + 3)):                          # no l1 term
            order = np.random.default_rng(seed).integers(0, m, size=T, dtype=np.int64)
            cases.append(((X, y, order, lam, gamma), _rda_reference(X, y, lam, gamma, T, seed)))
        half = m // 2
        seed = int(rng.integers(2 ** 31))
        order = np.random.default_rng(seed).integers(0, half, size=150, dtype=np.int64)
        cases.append(((X[:half], y[:half], order, p["lam"], 1.0),
                      _rda_reference(X[:half], y[:half], p["lam"], 1.0, 150, seed)))
        return cases
    return _cached(v, "q1", compute)


def _theorem3_values(v):
    from l1lab.theory import shalev_shwartz_tewari as sst
    p, X, y = v["params"], v["X"], v["y"]
    d = p["d"]

    def compute():
        from l1lab import Problem
        from l1lab.solvers import reference_solution
        w_star, _ = reference_solution(Problem(X, y, "squared", p["lam"]), tol=1e-12)
        w1, p0, rho = float(np.abs(w_star).sum()), 0.5 * float(np.mean(y ** 2)), 2.0
        out = []
        for link_p in (2 * math.log(d), 2.0):
            eta = sst.smidas_eta_self_bounded(p["T_big"], rho, w1, p0, link_p, d)
            out.append(sst.smidas_bound_self_bounded(eta, p["T_big"], rho, w1, p0, link_p, d))
        return out
    return _cached(v, "q2", compute)


FAMILY = Assignment(
    name="family", lecture="family", title="Dual averaging and mirror descent on your regression", week=12,
    make_variant=_family_variant,
    intro="Your regression: m examples, the rows of `task.X` (entries in [−1, 1]) with targets `task.y`, and the "
          "squared loss (a − y)²/2. λ = `task.params['lam']`; your stream of examples is `task.order` (indices into "
          "the rows, drawn with replacement).",
    questions=(
        Question(
            "q1", "RDA with the Euclidean potential", points=4, difficulty=2, minutes=30,
            kind="function", function="rda_euclid",
            prompt="Write `rda_euclid(X, y, order, lam, gamma)`: dual averaging with the potential ½‖w‖₂², the ℓ1 "
                   "term λ‖w‖₁ and the prox coefficient γ√t (the lecture's template). Start at w₁ = 0; step "
                   "t = 1, …, T (T = len(order)) takes the gradient v_t = (⟨w_t, x⟩ − y) x of the example "
                   "order[t − 1] at the current point, adds it to the running sum, and sets w_{{t+1}} to the "
                   "minimizer of ⟨Σ_{{s≤t}} v_s, w⟩ + tλ‖w‖₁ + γ√t ‖w‖₂²/2. Return w_{{T+1}}. It is checked on "
                   "your data with λ = {lam}, γ = {gamma} and T = {T}, and on inputs you do not see (other λ and γ, "
                   "shorter streams, λ = 0, another pool).",
            starter="def rda_euclid(X, y, order, lam, gamma):\n    PLACEHOLDER",
            expected=_rda_cases,
            solution="def rda_euclid(X, y, order, lam, gamma):\n"
                     "    w, g = np.zeros(X.shape[1]), np.zeros(X.shape[1])\n"
                     "    for t, i in enumerate(order, start=1):\n"
                     "        g += (X[i] @ w - y[i]) * X[i]\n"
                     "        w = -np.sign(g) * np.maximum(np.abs(g) - t * lam, 0.0) / (gamma * np.sqrt(t))\n"
                     "    return w",
            rtol=1e-7, atol=1e-10),
        Question(
            "q2", "Theorem 3 for the two potentials of mirror descent", points=2, difficulty=2, minutes=20,
            kind="value",
            prompt="For SMIDAS (p = 2 ln d) and TruncGrad (p = 2) on your regression, with the step of Lemma 7 for "
                   "the horizon T = {T_big}: compute the bound of Theorem 3, case (14), at T = {T_big} (ρ = 2 for "
                   "the squared loss, P(0) = C(0) the mean of y²/2, and ‖w★‖₁ of the minimizer w★ of "
                   "C + λ‖·‖₁, which you compute with your own solver, e.g. coordinate descent to 1e-12). Assign "
                   "to `answer_q2` the list `[SMIDAS's bound, TruncGrad's bound]`. Which is smaller, and by about "
                   "the square root of which ratio?",
            expected=_theorem3_values,
            solution="X, y, lam = task.X, task.y, task.params['lam']\n"
                     "m, d = X.shape\n"
                     "w = np.zeros(d)\n"
                     "col = (X ** 2).sum(axis=0) / m\n"
                     "for sweep in range(20_000):                      # cyclic coordinate descent, exact steps\n"
                     "    w_old = w.copy()\n"
                     "    r = y - X @ w\n"
                     "    for j in range(d):\n"
                     "        r += X[:, j] * w[j]\n"
                     "        z = X[:, j] @ r / m\n"
                     "        w[j] = np.sign(z) * max(abs(z) - lam, 0.0) / col[j]\n"
                     "        r -= X[:, j] * w[j]\n"
                     "    if np.abs(w - w_old).max() < 1e-15:\n"
                     "        break\n"
                     "w1, p0, rho, T = np.abs(w).sum(), np.mean(y ** 2) / 2, 2.0, task.params['T_big']\n"
                     "answer_q2 = []\n"
                     "for p in (2 * np.log(d), 2.0):\n"
                     "    a = (p - 1) * d ** (2 / p) * rho / 2\n"
                     "    eta = w1 ** 2 / (p0 * T) * (np.sqrt(1 + p0 * T / (a * w1 ** 2)) - 1)   # Lemma 7's step\n"
                     "    answer_q2.append((1 / (1 - a * eta) - 1) * p0 + w1 ** 2 / (eta * T * (1 - a * eta)))",
            rtol=1e-6, atol=1e-12),
    ))

ASSIGNMENTS = (FAMILY,)
