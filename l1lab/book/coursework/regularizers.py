r"""Graded problems of the lectures on regularizers that do more than select: the Primal Gradient Solver
(``chapters/pgs``, ``chapters/pgs_guarantee``), more data and less time (``chapters/pgs_more_data``,
``chapters/pgs_more_data_text``), RADAR (``chapters/radar``, ``chapters/radar_epochs``), its guarantees
(``chapters/radar_theory``, ``chapters/radar_theory_corollaries``) and its constant epochs (``chapters/radar_const``).

The worked exercises of these lectures compute Figure 2 on the ball, the regret of a first round, Corollary 1 and
Theorem 2 with unit constants; RADAR's closed-form update, the epochs of (9) that fit, the smallest σ of
Assumption 3, the probability parameter ω, and RADAR-CONST on the squared loss.  The graded problems go one step
further on each student's own data: PGS with the student's loss on a ball whose radius also contains the regret's
comparator, its exact regret against Lemma 1; PGS on sparse data on a ball with the running norm, Theorem 2 with
Theorem 1's explicit constant L²H_T and the p that minimizes it; RADAR with the schedule and the oracle rule, and
the epoch lemma checked on its first epoch; the weak-sparsity terms of Corollary 1 and the sparsity level that
minimizes Theorem 1 against the proof's; RADAR-CONST on a finite pool with the logistic loss, and Theorem 2 with
its corrected probability.
"""
from __future__ import annotations

import math

import numpy as np

from ._core import Assignment, Question, hidden_rng
from ._core import cached as _cached
from .coordinate import _data, _round

__all__ = ["ASSIGNMENTS", "PGS", "PGS_MORE_DATA", "RADAR", "RADAR_CONST", "RADAR_THEORY"]


def _distinct_batches(rng, m, k, T):
    """T mini-batches of k distinct example indices each (a T x k array), uniformly from range(m)."""
    return np.array([rng.choice(m, size=k, replace=False) for _ in range(T)], dtype=np.int64)


# ------------------------------------------------------------------------------------------- lecture 12
def _pgs_variant(rng):
    loss = str(rng.choice(["logistic", "squared"]))
    m, n, k_true = int(rng.integers(60, 121)), int(rng.integers(6, 16)), int(rng.integers(2, 5))
    X, y = _data(rng, loss, m, n, k_true)
    p = float(rng.integers(13, 21)) / 10
    sigma = _round(10 ** rng.uniform(-1.5, -0.7), 3)
    k, T = int(rng.integers(2, 7)), int(rng.integers(100, 201))
    batches = _distinct_batches(rng, m, k, T)
    return {"params": {"loss": loss, "m": m, "n": n, "p": p, "sigma": sigma, "k": k, "T": T},
            "X": X, "y": y, "batches": batches}


def _pgs_radius(loss, y, sigma, p):
    """sqrt(2 (p - 1) M/sigma), M the largest loss at 0: the ball contains the minimizer of sigma r plus any
    average of the examples' losses (the lecture's radius with F(0) replaced by M)."""
    from l1lab.losses import get_loss
    from l1lab.theory import zhu2009 as zhu
    M = float(np.max(get_loss(loss).value(np.zeros(len(y)), y)))
    return zhu.least_squares_radius(M, sigma, p)


def _pgs_radius_L(v):
    from l1lab.theory import zhu2009 as zhu
    p = v["params"]
    B = _pgs_radius(p["loss"], v["y"], p["sigma"], p["p"])
    return [B, zhu.loss_lipschitz_constant(v["X"], p["loss"], p["p"], B=B, y=v["y"])]


def _pgs_run(loss, X, y, sigma, p, B, batches, output):
    from l1lab import Problem
    from l1lab.solvers.pgs import pgs
    return pgs(Problem(X, y, loss, 0.0), len(batches), sigma, p=p, B=B, batches=batches, output=output,
               n_checkpoints=2, record_objective=False).w


def _pgs_average_cases(v):
    def compute():
        p = v["params"]
        loss, X, y, sigma = p["loss"], v["X"], v["y"], p["sigma"]
        B = _pgs_radius(loss, y, sigma, p["p"])
        rng = hidden_rng(v, p["m"] * 1009 + p["T"])
        half = p["m"] // 2
        p2 = 2.0 if p["p"] != 2.0 else 1.5
        B2 = _pgs_radius(loss, y[:half], 2 * sigma, p2)
        cases = [(X, y, sigma, p["p"], B, v["batches"]),
                 (X, y, sigma, p["p"], B / 4, v["batches"]),                   # a ball that binds
                 (X[:half], y[:half], 2 * sigma, p2, B2, _distinct_batches(rng, half, 1, 60)),
                 (X, y, 3 * sigma, 1.25, B / 2, _distinct_batches(rng, p["m"], 3, 40))]
        return [(args, _pgs_run(loss, *args, output="average")) for args in cases]
    return _cached(v, "q2", compute)


def _pgs_regret(v):
    def compute():
        from l1lab import Problem
        from l1lab.solvers.lbfgs import lbfgs
        from l1lab.solvers.pgs import pgs, regularizer_value
        from l1lab.theory import zhu2009 as zhu
        p = v["params"]
        loss, X, y, b, sigma, pp = p["loss"], v["X"], v["y"], v["batches"], p["sigma"], p["p"]
        T, k = b.shape
        B = _pgs_radius(loss, y, sigma, pp)
        prob = Problem(X, y, loss, 0.0)
        played = []                                  # w_0, ..., w_T: the monitor sees every iterate
        pgs(prob, T, sigma, p=pp, B=B, batches=b, output="last", n_checkpoints=20 * T + 2, record_objective=False,
            monitor=lambda w: played.append(w.copy()) or 0.0)
        paid, norms = 0.0, []
        for t in range(1, T + 1):
            w, A = played[t - 1], b[t - 1]
            a = X[A] @ w
            paid += sigma * regularizer_value(w, pp) + float(np.mean(prob.loss.value(a, y[A])))
            norms.append(zhu.proposition1_dual_norm(X[A].T @ prob.loss.deriv(a, y[A]) / k, pp))
        pooled = Problem(X[b.ravel()], y[b.ravel()], loss, 0.0)     # sum_t c_t = T (sigma r + the pooled mean)
        best = T * lbfgs(pooled, sigma, p=pp, B=B, tol=1e-12, max_iter=20_000).objective
        return [paid - best, zhu.lemma1_regret_bound(norms, sigma)]
    return _cached(v, "q3", compute)


PGS = Assignment(
    name="pgs", lecture="pgs", title="The Primal Gradient Solver on your data", week=10,
    make_variant=_pgs_variant,
    intro="Your data: `task.X` (m × n, entries in [-1, 1]; the lecture's letters: n features), `task.y`, the loss "
          "`task.params['loss']` (logistic: l(a, y) = log(1 + exp(−y a)); squared: l(a, y) = (a − y)²/2, l1lab's), "
          "the regularizer r(w) = ‖w‖_p²/(2(p − 1)) with your p and σ, and your mini-batches `task.batches` (a "
          "T × k array: row t − 1 holds the k distinct example indices of A_t). F̂_σ(w) = σ r(w) + (1/m) Σ_i "
          "l(⟨w, x_i⟩, y_i), q = p/(p − 1).",
    questions=(
        Question(
            "q1", "A ball for every comparator, and its Lipschitz constant", points=2, difficulty=1, minutes=15,
            kind="value",
            prompt="The lecture's radius √(2(p − 1) F̂_σ(0)/σ) contains ŵ (the paper's Section IV drops the 1/σ "
                   "and, for σ < 1, cuts ŵ off: use the corrected form). Q3 compares PGS with the minimizer of "
                   "σ r plus an average of the losses of the examples *drawn*, whose value at 0 is not F̂_σ(0). "
                   "Take instead M = max_i l(0, y_i) and S = the set of w with ‖w‖_p ≤ B, B = √(2(p − 1) M/σ): "
                   "check that S contains the minimizer of σ r plus any weighted average of your examples' "
                   "losses. For your loss ({loss}), p = {p} and σ = {sigma}, assign to `answer_q1` the list "
                   "`[B, L]`, L the Lipschitz constant of Section IV of your loss on S with respect to ‖·‖_p "
                   "(the bound on every ‖λ_t‖_q).",
            expected=_pgs_radius_L,
            solution="X, y, p, sigma = task.X, task.y, task.params['p'], task.params['sigma']\n"
                     "q = p / (p - 1)\n"
                     "logistic = task.params['loss'] == 'logistic'\n"
                     "M = np.log(2) if logistic else np.max(y ** 2) / 2      # the largest loss at w = 0\n"
                     "B = np.sqrt(2 * (p - 1) * M / sigma)\n"
                     "xq = np.sum(np.abs(X) ** q, axis=1) ** (1 / q)\n"
                     "L = np.max(xq) if logistic else np.max(xq * (B * xq + np.abs(y)))\n"
                     "answer_q1 = [B, L]",
            rtol=1e-9, atol=1e-12),
        Question(
            "q2", "PGS on the ball, averaged over the points played", points=4, difficulty=2, minutes=30,
            kind="function", function="pgs_average",
            prompt="Write `pgs_average(X, y, sigma, p, B, batches)`: Figure 1 of the paper for the {loss} loss on "
                   "S = {{‖w‖_p ≤ B}}, with Figure 2's map corrected as in the lecture (the rescaling divides by "
                   "the p-norm, not the printed q-norm), mini-batch t being the row t − 1 of `batches` (k = the "
                   "number of columns), and return the average (1/T) Σ_(t<T) w_t of the points played w_0 = 0, "
                   "w_1, …, w_(T−1): the output that satisfies Theorem 1 by Jensen's inequality. It is checked on "
                   "your data (T = {T}, k = {k}, σ = {sigma}, p = {p}, B of Q1) and on inputs you do not see: "
                   "a ball that binds, another p, σ and k.",
            starter="def pgs_average(X, y, sigma, p, B, batches):\n    PLACEHOLDER",
            expected=_pgs_average_cases,
            solution="def pgs_average(X, y, sigma, p, B, batches):\n"
                     "    squared = task.params['loss'] == 'squared'\n"
                     "    q = p / (p - 1)\n"
                     "    T, k = batches.shape\n"
                     "    Lam, w = np.zeros(X.shape[1]), np.zeros(X.shape[1])\n"
                     "    total = np.zeros(X.shape[1])\n"
                     "    for t in range(1, T + 1):\n"
                     "        total += w                                  # w_(t-1), the point played at round t\n"
                     "        A = batches[t - 1]\n"
                     "        a = X[A] @ w\n"
                     "        deriv = a - y[A] if squared else -y[A] / (1 + np.exp(y[A] * a))\n"
                     "        Lam += X[A].T @ deriv / k\n"
                     "        theta = -Lam / ((t + 1) * sigma)\n"
                     "        norm_q = np.sum(np.abs(theta) ** q) ** (1 / q)\n"
                     "        if norm_q == 0:\n"
                     "            w = np.zeros_like(theta)\n"
                     "            continue\n"
                     "        w = norm_q ** (2 - q) * np.sign(theta) * np.abs(theta) ** (q - 1) / (q - 1)\n"
                     "        norm_p = np.sum(np.abs(w) ** p) ** (1 / p)\n"
                     "        if norm_p > B:\n"
                     "            w = w * (B / norm_p)                    # back onto the sphere, by the p-norm\n"
                     "    return total / T",
            rtol=1e-8, atol=1e-11),
        Question(
            "q3", "The regret of your run, against Lemma 1", points=4, difficulty=3, minutes=40, kind="value",
            prompt="With c_t(w) = σ r(w) + g_t(w), g_t(w) = (1/k) Σ_(i ∈ A_t) l(⟨w, x_i⟩, y_i), the regret of "
                   "your run after T = {T} rounds is Σ_(t=1..T) c_t(w_(t−1)) − min_(w ∈ S) Σ_(t=1..T) c_t(w): "
                   "each cost is charged at the point played, w_(t−1), before A_t is seen (the paper charges it "
                   "at w_t, one of the slips the lecture repairs), and S is the ball of Q1. Lemma 1 bounds it by "
                   "½ Σ_t ‖λ_t‖_q²/(t σ), λ_t the mini-batch sub-gradient at w_(t−1). Run PGS on your data and "
                   "mini-batches, compute the comparator's minimum with your own code (a strongly convex smooth "
                   "problem: an L-BFGS from scipy is fine; why does Q1's ball let you ignore the constraint?), "
                   "and assign to `answer_q3` the list `[regret, Lemma 1's bound]` (checked to a relative 1e-6).",
            expected=_pgs_regret,
            solution="from scipy.optimize import minimize\n"
                     "\n"
                     "X, y, b = task.X, task.y, task.batches\n"
                     "sigma, p = task.params['sigma'], task.params['p']\n"
                     "squared = task.params['loss'] == 'squared'\n"
                     "q = p / (p - 1)\n"
                     "T, k = b.shape\n"
                     "B = answer_q1[0]\n"
                     "\n"
                     "\n"
                     "def losses(a, yy):\n"
                     "    return 0.5 * (a - yy) ** 2 if squared else np.logaddexp(0, -yy * a)\n"
                     "\n"
                     "\n"
                     "def derivs(a, yy):\n"
                     "    return a - yy if squared else -yy / (1 + np.exp(yy * a))\n"
                     "\n"
                     "\n"
                     "def reg(w):\n"
                     "    return np.sum(np.abs(w) ** p) ** (2 / p) / (2 * (p - 1))\n"
                     "\n"
                     "\n"
                     "Lam, w = np.zeros(X.shape[1]), np.zeros(X.shape[1])\n"
                     "paid = bound = 0.0\n"
                     "for t in range(1, T + 1):\n"
                     "    A = b[t - 1]\n"
                     "    a = X[A] @ w                                     # w is w_(t-1), the point played\n"
                     "    paid += sigma * reg(w) + losses(a, y[A]).mean()\n"
                     "    lam_t = X[A].T @ derivs(a, y[A]) / k\n"
                     "    bound += np.sum(np.abs(lam_t) ** q) ** (2 / q) / (2 * t * sigma)\n"
                     "    Lam += lam_t\n"
                     "    theta = -Lam / ((t + 1) * sigma)\n"
                     "    nq = np.sum(np.abs(theta) ** q) ** (1 / q)\n"
                     "    w = nq ** (2 - q) * np.sign(theta) * np.abs(theta) ** (q - 1) / (q - 1)\n"
                     "    npn = np.sum(np.abs(w) ** p) ** (1 / p)\n"
                     "    w = w * min(1.0, B / npn) if npn > 0 else w\n"
                     "\n"
                     "# sum_t c_t(w) = T (sigma r(w) + the mean loss over the T k examples drawn); by Q1 its\n"
                     "# minimizer over R^n lies in S, so the constraint can be ignored\n"
                     "Xa, ya = X[b.ravel()], y[b.ravel()]\n"
                     "\n"
                     "\n"
                     "def pooled(v):\n"
                     "    a = Xa @ v\n"
                     "    nv = np.sum(np.abs(v) ** p) ** (1 / p)\n"
                     "    value = sigma * reg(v) + losses(a, ya).mean()\n"
                     "    grad = Xa.T @ derivs(a, ya) / len(ya)\n"
                     "    if nv > 0:\n"
                     "        grad = grad + sigma / (p - 1) * nv ** (2 - p) * np.sign(v) * np.abs(v) ** (p - 1)\n"
                     "    return value, grad\n"
                     "\n"
                     "\n"
                     "best = minimize(pooled, np.zeros(X.shape[1]), jac=True, method='L-BFGS-B',\n"
                     "                options={'gtol': 1e-13, 'ftol': 1e-16, 'maxiter': 20_000, 'maxcor': 20})\n"
                     "answer_q3 = [paid - T * best.fun, bound]",
            rtol=1e-6, atol=1e-9),
    ))


# ------------------------------------------------------------------------------------------- lecture 13
def _sparse_rows(rng, m, n, lo, hi):
    """A CSR matrix m x n whose row i has between lo and hi - 1 nonzeros, uniform in [-1, 1], at random columns."""
    import scipy.sparse as sp
    nnz = rng.integers(lo, hi, size=m)
    cols = [np.sort(rng.choice(n, size=int(c), replace=False)) for c in nnz]
    indptr = np.concatenate(([0], np.cumsum(nnz))).astype(np.int64)
    data = np.round(rng.uniform(-1.0, 1.0, size=int(nnz.sum())), 3)
    data[data == 0] = 0.5
    return sp.csr_matrix((data, np.concatenate(cols).astype(np.int64), indptr), shape=(m, n))


def _labels(rng, X, k, flip):
    n = X.shape[1]
    w = np.zeros(n)
    w[rng.choice(n, size=k, replace=False)] = rng.normal(0.0, 3.0, size=k)
    y = np.sign(np.asarray(X @ w).ravel())
    y[y == 0] = 1.0
    y[rng.random(X.shape[0]) < flip] *= -1.0
    return y


def _row_qnorms(X, q):
    import scipy.sparse as sp
    A = abs(sp.csr_matrix(X))
    return np.asarray(A.power(q).sum(axis=1)).ravel() ** (1 / q)


def _more_variant(rng):
    loss = str(rng.choice(["hinge", "logistic"]))
    m, n = int(rng.integers(150, 301)), int(rng.integers(300, 801))
    X = _sparse_rows(rng, m, n, 5, int(rng.integers(20, 101)))
    y = _labels(rng, X, int(rng.integers(5, 11)), 0.05)
    p = float(rng.integers(15, 21)) / 10
    sigma = _round(10 ** rng.uniform(-2.5, -1.5), 3)
    k, T = int(rng.integers(1, 6)), int(rng.integers(300, 601))
    batches = _distinct_batches(rng, m, k, T)
    B = _round(rng.uniform(0.5, 3.0), 3)
    u = np.zeros(n)
    s_u = int(rng.integers(1, 9))
    u[rng.choice(n, size=s_u, replace=False)] = np.round(rng.normal(0.0, 1.0, size=s_u), 3)
    delta = float(rng.choice([0.05, 0.1, 0.2]))
    c_est = float(rng.choice([0.5, 1.0, 2.0, 4.0]))
    q = p / (p - 1)
    L = float(_row_qnorms(X, q).max())
    b = float(np.sum(np.abs(u) ** p) ** (2 / p)) / (2 * (p - 1))
    while True:                                   # m/m0 in [1.5, 5], m0 = 4 b c_est L^2/eps^2 not near an integer
        eps = _round(math.sqrt(4 * b * c_est * L * L * float(rng.uniform(1.5, 5.0)) / m), 3)
        m0 = 4 * b * c_est * L * L / eps ** 2
        if 0.02 < m0 - math.floor(m0) < 0.98 and m0 < m:
            break
    T0 = int(_round(10 ** rng.uniform(3.0, 5.0), 2))
    return {"params": {"loss": loss, "m": m, "n": n, "p": p, "sigma": sigma, "k": k, "T": T, "B": B,
                       "delta": delta, "c_est": c_est, "eps": eps, "T0": T0},
            "X": X, "y": y, "batches": batches, "u": u}


def _more_sparse_cases(v):
    def compute():
        p = v["params"]
        loss, X, y = p["loss"], v["X"], v["y"]
        rng = hidden_rng(v, p["n"] * 7 + p["T"])
        X2 = _sparse_rows(rng, 400, 5_000, 3, 8)
        y2 = _labels(rng, X2, 8, 0.05)
        p2 = 1.6 if p["p"] == 2.0 else 2.0
        cases = [(X, y, p["sigma"], p["p"], p["B"], v["batches"]),
                 (X, y, p["sigma"], p2, None, v["batches"]),                             # S = R^n
                 (X, y, 2 * p["sigma"], p["p"], p["B"] / 5, v["batches"][: p["T"] // 2]),   # the ball binds
                 (X2, y2, 1e-3, 1.7, 2.0, _distinct_batches(rng, 400, 10, 200))]
        return [(args, _pgs_run(loss, *args, output="last")) for args in cases]
    return _cached(v, "q1", compute)


def _more_L(v, p):
    from l1lab.theory import zhu2009 as zhu
    return zhu.loss_lipschitz_constant(v["X"], v["params"]["loss"], p)


def _more_m_T(v):
    from l1lab.theory import zhu2009 as zhu
    p = v["params"]
    pp, m, eps, delta, c_est = p["p"], p["m"], p["eps"], p["delta"], p["c_est"]
    L = _more_L(v, pp)
    u_norm = float(np.sum(np.abs(v["u"]) ** pp) ** (1 / pp))

    def reachable(mm):                  # Theorem 2's T is finite (for any c_opt) iff eps is reachable with mm
        return math.isfinite(zhu.theorem2_iterations(eps, mm, delta, u_norm, pp, c_est=c_est * L * L))
    m_min = math.floor(4 * u_norm ** 2 / (2 * (pp - 1)) * c_est * L * L / eps ** 2) + 1
    if not (reachable(m_min) and not reachable(m_min - 1)):
        raise RuntimeError("the smallest training set size is on a rounding edge")
    left = eps ** 2 * (pp - 1) / (2 * u_norm ** 2) - c_est * L * L / m          # what optimization may use
    # the smallest T with L^2 H_T/(T delta) <= left: Theorem 1's count with sigma = 1/2
    return [m_min, zhu.theorem1_iterations(left, 0.5, L, delta)]


def _more_best_p(v):
    from l1lab.theory import zhu2009 as zhu
    p = v["params"]
    H = zhu.harmonic_number(p["T0"])
    out = []
    for pp in np.round(np.arange(1.1, 2.01, 0.1), 1):
        L = _more_L(v, pp)
        u_norm = float(np.sum(np.abs(v["u"]) ** pp) ** (1 / pp))
        out.append((zhu.theorem2_error_at_sigma(p["T0"], p["m"], p["delta"], u_norm, pp, c_opt=L * L * H,
                                                c_est=p["c_est"] * L * L), float(pp)))
    eps, pp = min(out)
    return [pp, eps]


PGS_MORE_DATA = Assignment(
    name="pgs_more_data", lecture="pgs_more_data", title="More data, less time: your sparse data", week=10,
    make_variant=_more_variant,
    intro="Your data: `task.X`, a scipy.sparse CSR matrix (m × n, a few nonzeros per row, entries in [-1, 1]), "
          "labels `task.y` (±1), the loss `task.params['loss']` (hinge: l(a, y) = max(0, 1 − y a), whose "
          "sub-gradient is −y on y a < 1 and 0 otherwise; logistic: log(1 + exp(−y a))), your mini-batches "
          "`task.batches` (T × k, row t − 1 is A_t) and a sparse reference predictor `task.u`. As in the "
          "lecture, r(w) = ‖w‖_p²/(2(p − 1)), q = p/(p − 1), and L = max_i ‖x_i‖_q is the Lipschitz constant of "
          "both losses.",
    questions=(
        Question(
            "q1", "PGS on sparse data, on a ball, O(dk) a step", points=4, difficulty=2, minutes=35,
            kind="function", function="pgs_sparse",
            prompt="Write `pgs_sparse(X, y, sigma, p, B, batches)`: PGS for the {loss} loss on S = the set of w "
                   "with ‖w‖_p ≤ B (B = None: S = ℝⁿ), X in CSR form, returning the last iterate w_T. An "
                   "iteration must cost O(dk), d the nonzeros of a row: keep Σ_j |Λ_j|^q up to date as the "
                   "lecture's `pgs_last_iterate` does, and find the rescaling of Corollary 2 from that sum too "
                   "(which p-norm has the unconstrained w_t, in terms of ‖Λ_t‖_q?), never forming w_t inside "
                   "the loop. It is checked on your data (σ = {sigma}, p = {p}, B = {B}, T = {T}, k = {k}) and on "
                   "inputs you do not see: S = ℝⁿ and another p, a ball that binds, and a larger sparse problem.",
            starter="def pgs_sparse(X, y, sigma, p, B, batches):\n    PLACEHOLDER",
            expected=_more_sparse_cases,
            solution="def pgs_sparse(X, y, sigma, p, B, batches):\n"
                     "    hinge = task.params['loss'] == 'hinge'\n"
                     "    q = p / (p - 1)\n"
                     "    k = batches.shape[1]\n"
                     "\n"
                     "    def phi(v):\n"
                     "        return np.sign(v) * np.abs(v) ** (q - 1)\n"
                     "\n"
                     "    def deriv(a, yi):\n"
                     "        if hinge:\n"
                     "            return -yi if yi * a < 1 else 0.0\n"
                     "        return -yi / (1 + np.exp(yi * a))\n"
                     "\n"
                     "    Lam = np.zeros(X.shape[1])\n"
                     "    S, c = 0.0, 0.0                 # S = sum_j |Lambda_j|^q; w_(t-1) = c phi(Lambda)\n"
                     "    for t, A in enumerate(batches, start=1):\n"
                     "        rows = [slice(X.indptr[i], X.indptr[i + 1]) for i in A]\n"
                     "        margins = [c * (X.data[r] @ phi(Lam[X.indices[r]])) for r in rows]\n"
                     "        for i, r, a in zip(A, rows, margins):\n"
                     "            cols = X.indices[r]\n"
                     "            S -= np.sum(np.abs(Lam[cols]) ** q)\n"
                     "            Lam[cols] += deriv(a, y[i]) * X.data[r] / k\n"
                     "            S += np.sum(np.abs(Lam[cols]) ** q)\n"
                     "        S = max(S, 0.0)\n"
                     "        if S == 0:\n"
                     "            c = 0.0\n"
                     "            continue\n"
                     "        # Corollary 3 at -Lambda/((t + 1) sigma), p-norm (p - 1) ||Lambda||_q/((t + 1) sigma)\n"
                     "        c = -(p - 1) * S ** ((p - 2) / p) / ((t + 1) * sigma)\n"
                     "        norm_w = (p - 1) * S ** (1 / q) / ((t + 1) * sigma)\n"
                     "        if B is not None and norm_w > B:\n"
                     "            c *= B / norm_w\n"
                     "    return c * phi(Lam)",
            rtol=1e-7, atol=1e-10),
        Question(
            "q2", "Theorem 2 with Theorem 1's own constant", points=3, difficulty=2, minutes=25, kind="value",
            prompt="Theorem 2 with explicit constants bounds the generalization error by c_opt/(σTδ) + "
                   "σ‖u‖_p²/(2(p − 1)) + c_est/(σm), minimized over σ as in the lecture (with the factor 2 "
                   "that the paper's (21) omits). The lecture's exercise took c_opt = c_est = 1; here take the "
                   "constants the argument gives: c_opt = L²H_T (Theorem 1 through the oracle inequality, H_T the "
                   "harmonic number: c_opt now grows with T) and c_est = {c_est} L², with L = max_i ‖x_i‖_q of "
                   "your X, your p = {p}, u = `task.u`, δ = {delta} and the target ε = {eps}. Assign to "
                   "`answer_q2` the list `[m_min, T]`: the smallest integer training set size m from which some T "
                   "reaches ε, and at your m = {m} the smallest integer T that reaches it.",
            expected=_more_m_T,
            solution="from scipy.special import digamma\n"
                     "\n"
                     "X, u = task.X, task.u\n"
                     "p, m, eps = task.params['p'], task.params['m'], task.params['eps']\n"
                     "delta, c_e = task.params['delta'], task.params['c_est']\n"
                     "\n"
                     "\n"
                     "def lipschitz(p):\n"
                     "    q = p / (p - 1)\n"
                     "    return np.max(np.asarray(abs(X).power(q).sum(axis=1)).ravel() ** (1 / q))\n"
                     "\n"
                     "\n"
                     "def harmonic(T):\n"
                     "    return digamma(T + 1.0) + np.euler_gamma\n"
                     "\n"
                     "\n"
                     "L = lipschitz(p)\n"
                     "b = np.sum(np.abs(u) ** p) ** (2 / p) / (2 * (p - 1))\n"
                     "# eps = 2 sqrt(a b), a = L^2 H_T/(T delta) + c_e L^2/m: reachable iff eps^2/(4b) > c_e L^2/m\n"
                     "m_min = int(np.floor(4 * b * c_e * L ** 2 / eps ** 2)) + 1\n"
                     "left = eps ** 2 / (4 * b) - c_e * L ** 2 / m\n"
                     "hi = 1\n"
                     "while L ** 2 * harmonic(hi) / (hi * delta) > left:   # H_T/T decreases: double, then bisect\n"
                     "    hi *= 2\n"
                     "lo = hi // 2\n"
                     "while hi - lo > 1:\n"
                     "    mid = (lo + hi) // 2\n"
                     "    lo, hi = (lo, mid) if L ** 2 * harmonic(mid) / (mid * delta) <= left else (mid, hi)\n"
                     "answer_q2 = [m_min, hi]",
            rtol=0.0, atol=0.5),
        Question(
            "q3", "Which p, for your data and your u?", points=3, difficulty=3, minutes=25, kind="value",
            prompt="The bound of Q2 depends on p twice: through ‖u‖_p²/(p − 1), smallest at p = 2 for a dense u "
                   "and large as p → 1, and through L = max_i ‖x_i‖_q, which falls as p → 1 (q grows). With the "
                   "constants of Q2 (c_opt = L²H_T, c_est = {c_est} L²), δ = {delta}, your m = {m} and "
                   "T = {T0} iterations, compute Theorem 2's error ε(p) at its best σ for p = 1.1, 1.2, …, 2.0 "
                   "(each p with its own L), and assign to `answer_q3` the list `[p, ε(p)]` for the p of the grid "
                   "with the smallest ε(p). When does a p below 2 pay here, and how does it relate to the "
                   "sparsity of u and of your rows?",
            expected=_more_best_p,
            solution="errors = []\n"
                     "T0 = task.params['T0']\n"
                     "for pp in np.round(np.arange(1.1, 2.01, 0.1), 1):\n"
                     "    Lp = lipschitz(pp)\n"
                     "    a = Lp ** 2 * (harmonic(T0) / (T0 * delta) + c_e / m)\n"
                     "    bp = np.sum(np.abs(u) ** pp) ** (2 / pp) / (2 * (pp - 1))\n"
                     "    errors.append((2 * np.sqrt(a * bp), pp))\n"
                     "best_eps, best_p = min(errors)\n"
                     "answer_q3 = [best_p, best_eps]",
            rtol=1e-7, atol=1e-12),
    ))


# ------------------------------------------------------------------------------------------- lecture 14
class _Rows:
    """A stream that hands out the rows of (X, y) in order (l1lab's solvers draw their samples from it in blocks;
    rows past the end are zeros, never used by a run of len(y) steps)."""

    def __init__(self, X, y):
        self.X, self.y = np.asarray(X, dtype=np.float64), np.asarray(y, dtype=np.float64)
        self.d, self.pos = self.X.shape[1], 0

    def __call__(self, rng, n):
        i, self.pos = self.pos, self.pos + n
        X, y = self.X[i:i + n], self.y[i:i + n]
        if y.size < n:
            X = np.vstack([X, np.zeros((n - y.size, self.d))])
            y = np.concatenate([y, np.zeros(n - y.size)])
        return X, y


def _example2(B, eta2):
    """Example 2 of the paper for x uniform on [-B, B]^d: G(R) = rho R, sigma(R), gamma = rho = B^2/3."""
    from l1lab.theory import agarwal2012 as anw
    rho = anw.uniform_design_covariance(B)
    eta = math.sqrt(eta2)
    return dict(G=lambda R: anw.example2_G(R, rho), sigma=lambda R: anw.example2_sigma(R, rho, B, eta),
                gamma=anw.example2_gamma(rho))


def _stream_sample(rng, theta, B, eta2, T):
    X = rng.uniform(-B, B, size=(T, theta.size))
    return X, X @ theta + math.sqrt(eta2) * rng.standard_normal(T)


def _radar_variant(rng):
    d, s = int(rng.integers(30, 81)), int(rng.integers(2, 5))
    B, eta2 = float(rng.choice([0.5, 1.0, 1.5])), float(rng.choice([0.25, 0.5, 1.0]))
    theta = np.zeros(d)
    theta[rng.choice(d, size=s, replace=False)] = np.round(rng.uniform(0.4, 1.0, s) * rng.choice([-1, 1], s), 3)
    R1 = math.ceil(float(np.abs(theta).sum()) * 1000) / 1000
    omega, c1 = float(rng.choice([0.5, 1.0, 2.0])), float(rng.choice([64.0, 256.0, 1024.0]))
    T = int(rng.integers(2000, 3501))
    X, y = _stream_sample(rng, theta, B, eta2, T)
    return {"params": {"d": d, "s": s, "B": B, "eta2": eta2, "R1": R1, "omega": omega, "c1": c1, "T": T},
            "X": X, "y": y, "theta_star": theta}


def _radar_plan(v):
    from l1lab.theory import agarwal2012 as anw
    p = v["params"]
    c = _example2(p["B"], p["eta2"])
    R = p["R1"]
    G, sig = c["G"](R), c["sigma"](R)
    T1 = anw.epoch_length(R, 1, p["d"], p["s"], c["gamma"], G, sig, p["omega"], p["c1"])
    lam1 = anw.schedule_lambda(R, T1, 1, p["d"], p["s"], c["gamma"], G, sig, p["omega"])
    return [T1, lam1, anw.schedule_step(R, 1, lam1, p["d"], G, sig, 5.0, normalization="eq5")]


def _radar_oracle_run(v, X, y, R1, theta_star):
    from l1lab.solvers import dual_averaging as da
    p = v["params"]
    return da.radar(_Rows(X, y), len(y), R1=R1, epochs="oracle", theta_star=theta_star, s=p["s"],
                    omega=p["omega"], c1=p["c1"], n_checkpoints=2, **_example2(p["B"], p["eta2"]))


def _radar_cases(v):
    def compute():
        p = v["params"]
        X, y, th = v["X"], v["y"], v["theta_star"]
        rng = hidden_rng(v, p["d"] * 31 + p["T"])
        d2 = p["d"] // 2 + 10
        th2 = np.zeros(d2)
        th2[rng.choice(d2, size=p["s"], replace=False)] = rng.uniform(0.4, 1.0, p["s"]) * rng.choice([-1, 1], p["s"])
        X2, y2 = _stream_sample(rng, th2, p["B"], p["eta2"], 2500)
        cut = (3 * p["T"]) // 5
        cases = [(X, y, p["R1"], th), (X[:cut], y[:cut], p["R1"], th),
                 (X2, y2, 1.2 * float(np.abs(th2).sum()), th2)]
        return [(args, _radar_oracle_run(v, *args).w) for args in cases]
    return _cached(v, "q2", compute)


def _radar_lemma(v):
    def compute():
        from l1lab.data.radar import UniformDesignStream
        p = v["params"]
        X, y, th = v["X"], v["y"], v["theta_star"]
        run = _radar_oracle_run(v, X, y, p["R1"], th)
        if run.n_epochs == 0:
            raise RuntimeError("no complete epoch")
        n1, lam = int(run.epochs["end"][0]), float(run.epochs["lam"][0])
        center = _radar_oracle_run(v, X[:n1], y[:n1], p["R1"], th).w       # the centre after epoch 1
        stream = UniformDesignStream(th, B=p["B"], noise_var=p["eta2"])
        gamma = stream.sigma2
        eps = (stream.expected_loss(center) + lam * np.abs(center).sum()
               - stream.expected_loss(th) - lam * np.abs(th).sum())
        s = p["s"]
        bound = 2 * eps ** 2 / lam ** 2 + 32 * s * eps / gamma + 32 * s * s * lam ** 2 / gamma ** 2
        return [float(eps), float(bound), float(np.abs(center - th).sum() ** 2)]
    return _cached(v, "q3", compute)


RADAR = Assignment(
    name="radar", lecture="radar", title="RADAR on your stream", week=11,
    make_variant=_radar_variant,
    intro="Your stream: T samples, the rows of `task.X` (x uniform on [−B, B]^d) and `task.y` = ⟨θ★, x⟩ + w, "
          "w ~ N(0, η²), with your B and η² = `task.params['eta2']`; the loss is (y − ⟨θ, x⟩)²/2 and θ★ = "
          "`task.theta_star` (s nonzeros; R₁ = `task.params['R1']` ≥ ‖θ★‖₁). Example 2 of the paper gives, with "
          "ρ = B²/3: G(R) = ρR, σ(R)² = 8ρ²R² + 4B⁴R² + 10B²η² and γ = ρ. Use s = the number of nonzeros of θ★, "
          "your ω and your c₁, and p = 2 log d/(2 log d − 1).",
    questions=(
        Question(
            "q1", "The schedule of your first epoch", points=2, difficulty=2, minutes=15, kind="value",
            prompt="With the constants of Example 2 at R₁ = {R1} (d = {d}, s = {s}, B = {B}, η² = {eta2}, "
                   "ω = {omega}, c₁ = {c1}), assign to `answer_q1` the list `[T_1, λ_1, a_1]`: the length of the "
                   "first epoch by the paper's (9) (a real number, not rounded), λ₁ by (12) evaluated at that "
                   "length, and the multiplier a₁ of the step a₁/√t for the prox-function (5): the step α(1) of "
                   "(12) divided by R₁², the correction the lecture explains (the printed α(t) belongs to the "
                   "prox-function without its 1/R²).",
            expected=_radar_plan,
            solution="p = task.params\n"
                     "d, s, B, eta2, omega, c1 = p['d'], p['s'], p['B'], p['eta2'], p['omega'], p['c1']\n"
                     "rho = B ** 2 / 3\n"
                     "gamma = rho\n"
                     "\n"
                     "\n"
                     "def schedule(i, R):\n"
                     "    G = rho * R\n"
                     "    sig2 = 8 * rho ** 2 * R ** 2 + 4 * B ** 4 * R ** 2 + 10 * B ** 2 * eta2\n"
                     "    A = (G ** 2 + sig2) * np.log(d) + (omega ** 2 + 24 * np.log(i)) * sig2\n"
                     "    T_i = c1 * (s ** 2 / (gamma ** 2 * R ** 2) * A + np.log(d))\n"
                     "    lam = np.sqrt(R * gamma / (s * np.sqrt(T_i)) * np.sqrt(A))\n"
                     "    a = 5 * R * np.sqrt(np.log(d) / (G ** 2 + lam ** 2 + sig2)) / R ** 2\n"
                     "    return T_i, lam, a\n"
                     "\n"
                     "\n"
                     "answer_q1 = list(schedule(1, p['R1']))",
            rtol=1e-9, atol=1e-12),
        Question(
            "q2", "Algorithm 1 with its schedule and the oracle rule", points=5, difficulty=3, minutes=45,
            kind="function", function="radar_oracle",
            prompt="Write `radar_oracle(X, y, R1, theta_star)`: RADAR on the samples (x_t, y_t) = the rows of "
                   "(X, y) in order, one per step, epoch i (i = 1, 2, …) on the ball of radius R_i = R₁/√2^(i−1) "
                   "around its centre, with λ_i and a_i of Q1's formulas at R_i (Example 2's G(R_i), σ(R_i), "
                   "ω_i² = ω² + 24 log i, T_i of (9), your s, B, η², ω, c₁: read them from `task.params`), the "
                   "step a_i/√t, and the lecture's oracle rule (checked at t = 1, then every max(1, ⌊t/64⌋) steps, "
                   "with the ℓ_p distance). Return the output: the average of the last completed epoch (0 if none "
                   "completed). It is checked on your stream (T = {T}) and on inputs you do not see: a shorter "
                   "stream and another θ★ in another dimension, with a radius above ‖θ★‖₁.",
            starter="def radar_oracle(X, y, R1, theta_star):\n    PLACEHOLDER",
            expected=_radar_cases,
            solution="def radar_oracle(X, y, R1, theta_star):\n"
                     "    T, d = X.shape\n"
                     "    q = 2 * np.log(d)\n"
                     "    p = q / (q - 1)\n"
                     "    rho, B, eta2 = task.params['B'] ** 2 / 3, task.params['B'], task.params['eta2']\n"
                     "    s, omega, c1 = task.params['s'], task.params['omega'], task.params['c1']\n"
                     "\n"
                     "    def dist2(v):\n"
                     "        return np.sum(np.abs(v - theta_star) ** p) ** (2 / p)\n"
                     "\n"
                     "    center, R, i, t0 = np.zeros(d), R1, 1, 0\n"
                     "    while t0 < T:\n"
                     "        G = rho * R\n"
                     "        sig2 = 8 * rho ** 2 * R ** 2 + 4 * B ** 4 * R ** 2 + 10 * B ** 2 * eta2\n"
                     "        A = (G ** 2 + sig2) * np.log(d) + (omega ** 2 + 24 * np.log(i)) * sig2\n"
                     "        T_i = c1 * (s ** 2 / (rho ** 2 * R ** 2) * A + np.log(d))\n"
                     "        lam = np.sqrt(R * rho / (s * np.sqrt(T_i)) * np.sqrt(A))\n"
                     "        a = 5 * R * np.sqrt(np.log(d) / (G ** 2 + lam ** 2 + sig2)) / R ** 2\n"
                     "        theta, mu, total = center.copy(), np.zeros(d), np.zeros(d)\n"
                     "        target, check, ended = dist2(center) / 2, 1, False\n"
                     "        for t in range(1, T - t0 + 1):\n"
                     "            x = X[t0 + t - 1]\n"
                     "            mu += (theta @ x - y[t0 + t - 1]) * x + lam * np.sign(theta)\n"
                     "            norm_q = np.sum(np.abs(mu) ** q) ** (1 / q)\n"
                     "            if norm_q > 0:\n"
                     "                alpha = a / np.sqrt(t)\n"
                     "                one_xi = max(1.0, alpha * R * (p - 1) * norm_q)\n"
                     "                g = np.sign(mu) * np.abs(mu) ** (q - 1) / norm_q ** (q - 2)\n"
                     "                theta = center - alpha * R ** 2 * (p - 1) / one_xi * g\n"
                     "            else:\n"
                     "                theta = center.copy()\n"
                     "            total += theta\n"
                     "            if t == check:\n"
                     "                check = t + max(1, t // 64)\n"
                     "                if dist2(total / t) <= target:\n"
                     "                    ended = True\n"
                     "                    break\n"
                     "        if not ended:\n"
                     "            break                      # the samples ran out inside the epoch\n"
                     "        center, R, i, t0 = total / t, R / np.sqrt(2), i + 1, t0 + t\n"
                     "    return center",
            rtol=1e-7, atol=1e-10),
        Question(
            "q3", "The epoch lemma on your first epoch", points=3, difficulty=2, minutes=25, kind="value",
            prompt="The lecture's lemma turns an objective gap into an error. Take your first epoch (Q2 on your "
                   "stream), its λ₁ and the average θ̄₂ it ends with, Δ = θ̄₂ − θ★, the population loss of your "
                   "stream, ℒ(θ) = (B²/6)‖θ − θ★‖₂² + η²/2 (so γ = B²/3), and f = ℒ + λ₁‖·‖₁. Assign to "
                   "`answer_q3` the list `[ε, bound, ‖Δ‖₁²]`: the gap ε = f(θ̄₂) − f(θ★), the lemma's bound "
                   "2ε²/λ₁² + 32sε/γ + 32s²λ₁²/γ² on ‖Δ‖₁² at that ε, and the true ‖Δ‖₁². Does the bound certify "
                   "‖Δ‖₁² ≤ R₁²/2 = {R1}²/2, which would put θ★ in the next ball? Which of its three terms is to "
                   "blame, and what does that say about c₁ (the lecture's exercise on c₁)? Does the true ‖Δ‖₁² "
                   "satisfy it, and why is θ★ in the next ball anyway (which norm does the oracle rule halve)?",
            expected=_radar_lemma,
            solution="T1, lam1, a1 = answer_q1\n"
                     "X, y, th, s = task.X, task.y, task.theta_star, task.params['s']\n"
                     "B, eta2, R1 = task.params['B'], task.params['eta2'], task.params['R1']\n"
                     "d = X.shape[1]\n"
                     "q = 2 * np.log(d)\n"
                     "p = q / (q - 1)\n"
                     "theta, mu, total, check = np.zeros(d), np.zeros(d), np.zeros(d), 1\n"
                     "target = np.sum(np.abs(th) ** p) ** (2 / p) / 2\n"
                     "for t in range(1, len(y) + 1):                # epoch 1, as in Q2, until the oracle ends it\n"
                     "    x = X[t - 1]\n"
                     "    mu += (theta @ x - y[t - 1]) * x + lam1 * np.sign(theta)\n"
                     "    nq = np.sum(np.abs(mu) ** q) ** (1 / q)\n"
                     "    alpha = a1 / np.sqrt(t)\n"
                     "    one_xi = max(1.0, alpha * R1 * (p - 1) * nq)\n"
                     "    g = np.sign(mu) * np.abs(mu) ** (q - 1) / nq ** (q - 2)\n"
                     "    theta = -alpha * R1 ** 2 * (p - 1) / one_xi * g           # the centre is 0\n"
                     "    total += theta\n"
                     "    if t == check:\n"
                     "        check = t + max(1, t // 64)\n"
                     "        if np.sum(np.abs(total / t - th) ** p) ** (2 / p) <= target:\n"
                     "            break\n"
                     "center = total / t\n"
                     "gamma = B ** 2 / 3\n"
                     "\n"
                     "\n"
                     "def f(v):\n"
                     "    return B ** 2 / 6 * np.sum((v - th) ** 2) + eta2 / 2 + lam1 * np.abs(v).sum()\n"
                     "\n"
                     "\n"
                     "eps = f(center) - f(th)\n"
                     "bound = 2 * eps ** 2 / lam1 ** 2 + 32 * s * eps / gamma + 32 * s ** 2 * lam1 ** 2 / gamma ** 2\n"
                     "answer_q3 = [eps, bound, np.abs(center - th).sum() ** 2]",
            rtol=1e-6, atol=1e-10),
    ))


# ------------------------------------------------------------------------------------------- lecture 15
def _theory_variant(rng):
    from l1lab.data.radar import weakly_sparse_theta
    # Q2: Theorem 1 in the setting of Example 1 (logistic) or Example 2 (least squares)
    example = int(rng.choice([1, 2]))
    B = float(rng.choice([0.5, 1.0, 2.0]))
    eta2 = float(rng.choice([0.25, 0.5, 1.0]))
    d = int(_round(10 ** rng.uniform(2.7, 4.7), 2))
    s = int(rng.integers(3, 21))
    R1 = _round(rng.uniform(0.5, 1.5) / B, 3)
    delta_p = float(rng.choice([0.01, 0.02, 0.05, 0.1]))
    omega = math.sqrt(12 * math.log(6 / delta_p))
    G, sig, gamma = _theory_constants(example, B, eta2, R1)
    A = (G * G + sig * sig) * math.log(d) + omega ** 2 * sig * sig
    T = int(_round(2 ** rng.uniform(3.0, 8.0) * s * s * A / (gamma ** 2 * R1 ** 2), 2))
    # Q1 and Q3: a weakly sparse theta* of a least-squares stream (Corollary 1)
    d3 = int(rng.integers(80, 251))
    q = float(rng.integers(3, 7)) / 10               # q <= 0.6: the proof's s stays below d (see Q3)
    theta = weakly_sparse_theta(d3, q, seed=int(rng.integers(2 ** 31)))
    tau = _round(rng.uniform(0.01, 0.08), 3)
    B3, eta3, om3 = float(rng.choice([0.5, 1.0])), float(rng.choice([0.25, 0.5])), float(rng.choice([1.0, 2.0]))
    gamma3, sig3 = B3 ** 2 / 3, math.sqrt(10.0) * B3 * math.sqrt(eta3)
    A3 = sig3 ** 2 * (math.log(d3) + om3 ** 2)
    R3 = float(np.abs(theta).sum())
    # Theorem 1 applies for every s <= d3 (kappa_T >= log d3) once T3 >= 2 d3^2 A3/(gamma3 R3)^2
    T3 = int(_round(2 * d3 * d3 * A3 / (gamma3 ** 2 * R3 ** 2) * 10 ** rng.uniform(0.2, 1.0), 2))
    return {"params": {"example": example, "B": B, "eta2": eta2, "d": d, "s": s, "R1": R1, "delta": delta_p,
                       "T": T, "d3": d3, "q": q, "tau": tau, "B3": B3, "eta3": eta3, "omega3": om3, "T3": T3},
            "X": theta[None, :], "theta": theta}


def _theory_constants(example, B, eta2, R1):
    """(G, sigma, gamma) of Example 1 (logistic, G = B, sigma = 2B, gamma = psi(2 B R1) B^2/3, the curvature on
    the l1 ball of radius 2 R1 that every point within R1 of theta* lies in) or of Example 2 at R1."""
    from l1lab.theory import agarwal2012 as anw
    rho = anw.uniform_design_covariance(B)
    if example == 1:
        return anw.example1_G(B), anw.example1_sigma(B), anw.example1_gamma(B, 2 * R1, rho)
    return anw.example2_G(R1, rho), anw.example2_sigma(R1, rho, B, math.sqrt(eta2)), anw.example2_gamma(rho)


def _weak_terms(theta, q, tau):
    from l1lab.theory import agarwal2012 as anw
    Rq = anw.lq_radius(theta, q)
    s = min(theta.size, math.ceil(Rq * tau ** -q))
    return [s, anw.sparsity_error(theta, s), Rq * tau ** (2 - q)]


def _weak_cases(v):
    def compute():
        from l1lab.data.radar import weakly_sparse_theta
        p = v["params"]
        th, q, tau = v["theta"], p["q"], p["tau"]
        rng = hidden_rng(v, p["d3"] * 13 + p["T"] % 1000)
        other = weakly_sparse_theta(300, 1.0, seed=int(rng.integers(2 ** 31)))
        ties = np.array([3.0, -3.0, 1.0, 1.0, 0.0, 0.0, 0.5, -0.25, 0.0, 2.0])
        inputs = [(th, q, tau), (th, q, 10 * tau), (th, q, tau / 1000), (ties, 0.5, 0.7), (ties, 1.0, 0.05),
                  (other, 1.0, 0.05), (other, 0.2, 0.3), (th, 1.0, 0.5)]
        return [((x, qq, tt), _weak_terms(x, qq, tt)) for x, qq, tt in inputs]
    return _cached(v, "q1", compute)


def _theory_thm1(v):
    from l1lab.theory import agarwal2012 as anw
    p = v["params"]
    G, sig, gamma = _theory_constants(p["example"], p["B"], p["eta2"], p["R1"])
    omega = math.sqrt(12 * math.log(6 / p["delta"]))
    kappa = anw.kappa_T(p["T"], p["d"], p["s"], gamma, p["R1"], G, sig, omega)
    return [kappa, anw.theorem1_bound(p["T"], p["d"], p["s"], gamma, p["R1"], G, sig, omega)]


def _theory_best_s(v):
    def compute():
        from l1lab.book.radar import corollary1_s
        from l1lab.theory import agarwal2012 as anw
        p = v["params"]
        th = v["theta"]
        d, B, eta2, om, T = p["d3"], p["B3"], p["eta3"], p["omega3"], p["T3"]
        gamma, sig = B * B / 3, math.sqrt(10.0) * B * math.sqrt(eta2)
        R1 = float(np.abs(th).sum())

        def bound(s):
            return anw.theorem1_bound(T, d, s, gamma, R1, 0.0, sig, om, eps2=anw.sparsity_error(th, s))
        s_proof = corollary1_s(th, p["q"], T, B=B, noise_var=eta2, omega=om)
        values = [bound(s) for s in range(1, d + 1)]
        s_best = int(np.argmin(values)) + 1
        return [s_proof, s_best, values[s_best - 1] / values[s_proof - 1]]
    return _cached(v, "q3", compute)


RADAR_THEORY = Assignment(
    name="radar_theory", lecture="radar_theory", title="What RADAR guarantees, at your constants", week=11,
    make_variant=_theory_variant,
    intro="Natural logarithms throughout, except the log₂ of κ_T (the paper's (11)). Your weakly sparse vector θ★ "
          "is `task.theta` (also the single row of `task.X`).",
    questions=(
        Question(
            "q1", "The two counting facts of Corollary 1's proof", points=3, difficulty=2, minutes=20,
            kind="function", function="weak_sparsity_terms",
            prompt="Write `weak_sparsity_terms(theta, q, tau)` for a vector θ, 0 < q ≤ 1 and a threshold τ > 0: "
                   "with R_q = Σ_j |θ_j|^q, the sparsity s = min(d, ⌈R_q τ^(−q)⌉) of the proof, S the s entries "
                   "of largest magnitude, return the list `[s, ε²(θ; S), R_q τ^(2−q)]`, where ε²(θ; S) = "
                   "‖θ_(Sᶜ)‖₁²/s is the paper's (10) (0 when s = d) and the last entry is the proof's bound on "
                   "it. It is checked on your θ★ (q = {q}, τ = {tau}), at other thresholds, and on vectors you do "
                   "not see (with zeros and ties). Before you code it, prove the bound: why does S contain every "
                   "entry above τ, and why is ‖θ_(Sᶜ)‖₁ ≤ R_q τ^(1−q)?",
            starter="def weak_sparsity_terms(theta, q, tau):\n    PLACEHOLDER",
            expected=_weak_cases,
            solution="def weak_sparsity_terms(theta, q, tau):\n"
                     "    a = np.sort(np.abs(np.asarray(theta, dtype=float)))[::-1]\n"
                     "    Rq = np.sum(a[a > 0] ** q)\n"
                     "    s = int(min(a.size, np.ceil(Rq * tau ** -q)))\n"
                     "    eps2 = a[s:].sum() ** 2 / s\n"
                     "    return [s, eps2, Rq * tau ** (2 - q)]",
            rtol=1e-9, atol=1e-12),
        Question(
            "q2", "Theorem 1 at your constants and probability", points=3, difficulty=2, minutes=20, kind="value",
            prompt="Your setting is Example {example} of the paper with B = {B} (Example 1: the logistic loss, "
                   "G = B, σ = 2B, and γ = ψ(2BR₁)σ_min(Σ), ψ(a) = e^a/(1 + e^a)², the curvature on the ℓ₁ ball "
                   "of radius 2R₁ that contains every point within R₁ of θ★; Example 2: least squares with η² = "
                   "{eta2}, G = ρR₁, σ = σ(R₁) of the lecture, γ = ρ), for a uniform design on [−B, B]^d, so that "
                   "Σ = (B²/3)I; d = {d}, an s = {s}-sparse θ★, R₁ = {R1} and T = {T}. Take the smallest ω for "
                   "which Theorem 1 holds with probability at least 1 − {delta}. Assign to `answer_q2` the list "
                   "`[κ_T, bound]`: κ_T of the paper's (11), and Theorem 1's bound with c₀ = 1 (the constant the "
                   "statement names c₀ and its display prints c₃), after checking that T ≥ 2κ_T.",
            expected=_theory_thm1,
            solution="p = task.params\n"
                     "B, R1, d, s, T = p['B'], p['R1'], p['d'], p['s'], p['T']\n"
                     "rho = B ** 2 / 3\n"
                     "if p['example'] == 1:\n"
                     "    a = 2 * B * R1\n"
                     "    G, sig, gamma = B, 2 * B, np.exp(-a) / (1 + np.exp(-a)) ** 2 * rho\n"
                     "else:\n"
                     "    G = rho * R1\n"
                     "    sig = np.sqrt(8 * rho ** 2 * R1 ** 2 + 4 * B ** 4 * R1 ** 2 + 10 * B ** 2 * p['eta2'])\n"
                     "    gamma = rho\n"
                     "omega = np.sqrt(12 * np.log(6 / p['delta']))      # 1 - 6 exp(-omega^2/12) >= 1 - delta\n"
                     "A = (G ** 2 + sig ** 2) * np.log(d) + omega ** 2 * sig ** 2\n"
                     "kappa = np.log2(gamma ** 2 * R1 ** 2 * T / (s ** 2 * A)) * np.log(d)\n"
                     "assert T >= 2 * kappa\n"
                     "inner = (G ** 2 + sig ** 2) * np.log(d) + sig ** 2 * (omega ** 2 + np.log(kappa / np.log(d)))\n"
                     "answer_q2 = [kappa, s / (gamma ** 2 * T) * inner]",
            rtol=1e-9, atol=1e-12),
        Question(
            "q3", "The proof's sparsity against the best one", points=4, difficulty=3, minutes=35, kind="value",
            prompt="Your θ★ (`task.theta`, d = {d3}, on the boundary of an ℓ_q ball with q = {q}) is the optimum "
                   "of a least-squares stream with B = {B3} and η² = {eta3}. Near θ★, Example 2 gives G = 0, "
                   "σ² = 10B²η² and γ = B²/3; take ω = {omega3}, R₁ = ‖θ★‖₁ and T = {T3}. Theorem 1 with c₀ = 1 "
                   "and S the s largest entries of θ★ is a function b(s) of the sparsity s the algorithm is run "
                   "with (through its first term, κ_T and ε²(θ★; S)). Corollary 1's proof picks s = ⌈R_q τ^(−q)⌉ "
                   "with τ² = (G² + σ²(1 + δ)) log d/(γ²T), ω² = δ log d, capped at d. Assign to `answer_q3` the "
                   "list `[s_proof, s_best, b(s_best)/b(s_proof)]`, s_best the s in 1, …, d with the smallest "
                   "b(s). How much does the proof's choice lose?",
            expected=_theory_best_s,
            solution="th, p = task.theta, task.params\n"
                     "d, q, B3, om, T3 = p['d3'], p['q'], p['B3'], p['omega3'], p['T3']\n"
                     "gam, sig2 = B3 ** 2 / 3, 10 * B3 ** 2 * p['eta3']\n"
                     "R1 = np.abs(th).sum()\n"
                     "mags = np.sort(np.abs(th))[::-1]\n"
                     "\n"
                     "\n"
                     "def b_of(s):\n"
                     "    A = sig2 * np.log(d) + om ** 2 * sig2                    # G = 0\n"
                     "    kappa = np.log2(gam ** 2 * R1 ** 2 * T3 / (s ** 2 * A)) * np.log(d)\n"
                     "    inner = sig2 * np.log(d) + sig2 * (om ** 2 + np.log(kappa / np.log(d)))\n"
                     "    return s / (gam ** 2 * T3) * inner + mags[s:].sum() ** 2 / s\n"
                     "\n"
                     "\n"
                     "tau = np.sqrt(sig2 * (1 + om ** 2 / np.log(d)) * np.log(d) / (gam ** 2 * T3))\n"
                     "s_proof = int(min(d, np.ceil(np.sum(mags ** q) * tau ** -q)))\n"
                     "values = [b_of(s) for s in range(1, d + 1)]\n"
                     "s_best = int(np.argmin(values)) + 1\n"
                     "answer_q3 = [s_proof, s_best, values[s_best - 1] / values[s_proof - 1]]",
            rtol=1e-7, atol=1e-12),
    ))


# ------------------------------------------------------------------------------------------- lecture 16
def _const_variant(rng):
    from l1lab import Problem, reference_solution
    from l1lab.theory import agarwal2012 as anw
    while True:
        n, d, s = int(rng.integers(800, 1601)), int(rng.integers(10, 21)), int(rng.integers(2, 5))
        gen = np.zeros(d)
        gen[rng.choice(d, size=s, replace=False)] = rng.uniform(0.2, 0.6, s) * rng.choice([-1, 1], s)
        X = rng.uniform(-1.0, 1.0, size=(n, d))
        y = np.where(rng.random(n) < 1 / (1 + np.exp(-X @ gen)), 1.0, -1.0)
        w_pool, _ = reference_solution(Problem(X, y, "logistic", 0.0), tol=1e-12)
        if np.all(np.isfinite(w_pool)) and np.abs(w_pool).sum() < 4 * np.abs(gen).sum():
            break
    R1 = math.ceil(1.2 * float(np.abs(w_pool).sum()) * 100) / 100
    gamma = _round(anw.example1_gamma(1.0, 2 * R1, 1 / 3), 4)
    omega, lam_factor = float(rng.choice([1.0, 2.0, 3.0])), float(rng.choice([0.1, 0.2, 0.5]))
    T = int(rng.integers(2000, 3501))
    order = rng.integers(0, n, size=T)
    K = math.ceil(math.log(T))
    Ks = [int(rng.integers(2, 5)), int(rng.integers(6, 13)), int(rng.integers(18, 31))]
    delta = float(rng.choice([0.01, 0.05, 0.1]))
    om2 = math.sqrt(12 * math.log(3 / delta))
    A = 5.0 * math.log(d) + 4.0 * om2 ** 2
    T_big = int(_round(2 ** rng.uniform(3.0, 12.0) * s * s * A / (gamma ** 2 * R1 ** 2), 2))
    return {"params": {"n": n, "d": d, "s": s, "R1": R1, "gamma": gamma, "omega": omega, "lam_factor": lam_factor,
                       "T": T, "K": K, "Ks": Ks, "delta": delta, "T_big": T_big},
            "X": X, "y": y, "order": order, "w_pool": w_pool}


def _const_run(v, X, y, order, R1, K):
    from l1lab.book.radar import const_epoch_length
    from l1lab.solvers import dual_averaging as da
    p = v["params"]
    order = np.asarray(order)
    return da.radar(_Rows(X[order], y[order]), len(order), R1=R1, epochs="constant",
                    epoch_length=const_epoch_length(len(order), K), s=p["s"], gamma=p["gamma"], G=1.0, sigma=2.0,
                    omega=p["omega"], lam_constant=p["lam_factor"], loss="logistic", n_checkpoints=2).w


def _const_cases(v):
    def compute():
        p = v["params"]
        X, y, order = v["X"], v["y"], v["order"]
        half = p["n"] // 2
        rng = hidden_rng(v, p["n"] * 17 + p["T"])
        cases = [(X, y, order, p["R1"], p["K"]), (X, y, order, p["R1"], p["Ks"][2]),
                 (X, y, order[: p["T"] // 2], 1.5 * p["R1"], 4),
                 (X[:half], y[:half], rng.integers(0, half, size=1500), p["R1"], 7)]
        return [(args, _const_run(v, *args)) for args in cases]
    return _cached(v, "q1", compute)


def _const_thm2(v):
    from l1lab.theory import agarwal2012 as anw
    p = v["params"]
    omega = math.sqrt(12 * math.log(3 / p["delta"]))
    if anw.theorem2_probability(omega) < 1 - p["delta"] - 1e-12:
        raise RuntimeError("omega does not give the probability")
    kappa = anw.kappa_T(p["T_big"], p["d"], p["s"], p["gamma"], p["R1"], 1.0, 2.0, omega)
    return [omega, kappa / math.log(p["d"]), anw.theorem2_epoch_length(p["T_big"], p["d"], kappa)]


def _const_errors(v):
    def compute():
        p = v["params"]
        return [float(np.sum((_const_run(v, v["X"], v["y"], v["order"], p["R1"], K) - v["w_pool"]) ** 2))
                for K in p["Ks"]]
    return _cached(v, "q3", compute)


RADAR_CONST = Assignment(
    name="radar_const", lecture="radar_const", title="RADAR-CONST on your pool", week=12,
    make_variant=_const_variant,
    intro="Your pool (the paper's (15)): n examples, the rows of `task.X` (entries in [−1, 1], so B = 1 and, for a "
          "uniform design, σ_min(Σ) = 1/3) with labels `task.y` (±1), and the logistic loss "
          "log(1 + exp(−y⟨θ, x⟩)); θ★ minimizes the pool's average loss. Step t uses the example `task.order[t − 1]` "
          "(drawn with replacement). The constants are Example 1's, G = 1 and σ = 2, and Corollary 2's curvature "
          "γ = ψ(2R₁)/3 = `task.params['gamma']` (ψ(a) = e^a/(1 + e^a)², rounded to 4 digits: use the given "
          "value); R₁ = `task.params['R1']` ≥ ‖θ★‖₁, s and ω are yours, and p = 2 log d/(2 log d − 1).",
    questions=(
        Question(
            "q1", "RADAR-CONST on a pool, logistic, with its schedule", points=4, difficulty=2, minutes=35,
            kind="function", function="radar_const",
            prompt="Write `radar_const(X, y, order, R1, K)`: RADAR-CONST for the logistic loss, step t on the "
                   "example order[t − 1], T = len(order) steps cut into epochs of the common length ⌈T/K⌉ (only "
                   "complete epochs count), epoch i on the ball of radius R_i = R₁/√2^(i−1), with λ_i = {lam_factor} "
                   "times the schedule's (12) evaluated at the epoch's length T_i = ⌈T/K⌉ (ω_i² = ω² + 24 log i, "
                   "your s = {s}, γ = {gamma}, ω = {omega}, G = 1, σ = 2: read them from `task.params`), and the "
                   "step a_i/√t with a_i = α(1) of (12) divided by R_i². Return the centre after the last complete "
                   "epoch. It is checked on your pool with K = ⌈log T⌉ = {K} and T = {T}, and on inputs you do "
                   "not see (other K, a shorter order, another pool, a larger radius).",
            starter="def radar_const(X, y, order, R1, K):\n    PLACEHOLDER",
            expected=_const_cases,
            solution="def radar_const(X, y, order, R1, K):\n"
                     "    T, d = len(order), X.shape[1]\n"
                     "    q = 2 * np.log(d)\n"
                     "    p = q / (q - 1)\n"
                     "    s, gamma, omega = task.params['s'], task.params['gamma'], task.params['omega']\n"
                     "    G, sig, length = 1.0, 2.0, int(np.ceil(T / K))\n"
                     "    center, R = np.zeros(d), R1\n"
                     "    for i in range(1, T // length + 1):\n"
                     "        A = (G ** 2 + sig ** 2) * np.log(d) + (omega ** 2 + 24 * np.log(i)) * sig ** 2\n"
                     "        lam = np.sqrt(R * gamma / (s * np.sqrt(length)) * np.sqrt(A))\n"
                     "        lam *= task.params['lam_factor']\n"
                     "        a = 5 * R * np.sqrt(np.log(d) / (G ** 2 + lam ** 2 + sig ** 2)) / R ** 2\n"
                     "        theta, mu, total = center.copy(), np.zeros(d), np.zeros(d)\n"
                     "        for t in range(1, length + 1):\n"
                     "            k = order[(i - 1) * length + t - 1]\n"
                     "            x, yk = X[k], y[k]\n"
                     "            mu += -yk / (1 + np.exp(yk * (theta @ x))) * x + lam * np.sign(theta)\n"
                     "            norm_q = np.sum(np.abs(mu) ** q) ** (1 / q)\n"
                     "            alpha = a / np.sqrt(t)\n"
                     "            one_xi = max(1.0, alpha * R * (p - 1) * norm_q)\n"
                     "            g = np.sign(mu) * np.abs(mu) ** (q - 1) / norm_q ** (q - 2)\n"
                     "            theta = center - alpha * R ** 2 * (p - 1) / one_xi * g\n"
                     "            total += theta\n"
                     "        center, R = total / length, R / np.sqrt(2)\n"
                     "    return center",
            rtol=1e-7, atol=1e-10),
        Question(
            "q2", "Theorem 2, with its probability repaired", points=2, difficulty=2, minutes=15, kind="value",
            prompt="Theorem 2 holds with probability at least 1 − 3 exp(−ω²/12) (the printed exp(+ω²/12) makes it "
                   "negative), for about κ_T/log d epochs of the constant length T log d/κ_T. With your pool's "
                   "constants (G = 1, σ = 2, γ = {gamma}, s = {s}, R₁ = {R1}, d = {d}) and a horizon of "
                   "T = {T_big}, take the smallest ω for which the probability is at least 1 − {delta}, and "
                   "assign to `answer_q2` the list `[ω, κ_T/log d, T log d/κ_T]`. (How small is γ, and why? See "
                   "Corollary 2 in the previous lecture.)",
            expected=_const_thm2,
            solution="d, s, R1, gam = task.params['d'], task.params['s'], task.params['R1'], task.params['gamma']\n"
                     "Tb = task.params['T_big']\n"
                     "om = np.sqrt(12 * np.log(3 / task.params['delta']))\n"
                     "A = (1 + 4) * np.log(d) + om ** 2 * 4\n"
                     "epochs = np.log2(gam ** 2 * R1 ** 2 * Tb / (s ** 2 * A))\n"
                     "answer_q2 = [om, epochs, Tb / epochs]",
            rtol=1e-9, atol=1e-12),
        Question(
            "q3", "How many constant epochs, on your pool?", points=4, difficulty=3, minutes=35, kind="value",
            prompt="Find θ★, the minimizer of your pool's average logistic loss (no regularization), with your own "
                   "code (Newton's method converges in a few steps), and run your `radar_const` on your pool and "
                   "`task.order` with K = {Ks} epochs. Assign to `answer_q3` the list of the three final errors "
                   "‖θ̂ − θ★‖₂², in the order of the K. Which K is best, and how does the answer compare with the "
                   "lecture's Figure 1(b) and with Theorem 2's advice of about log T epochs?",
            expected=_const_errors,
            solution="X, y = task.X, task.y\n"
                     "w = np.zeros(X.shape[1])\n"
                     "for _ in range(100):                                  # Newton on the pool's mean loss\n"
                     "    prob = 1 / (1 + np.exp(-y * (X @ w)))\n"
                     "    grad = -X.T @ (y * (1 - prob)) / len(y)\n"
                     "    H = (X * (prob * (1 - prob))[:, None]).T @ X / len(y)\n"
                     "    step = np.linalg.solve(H, grad)\n"
                     "    w = w - step\n"
                     "    if np.abs(step).max() < 1e-14:\n"
                     "        break\n"
                     "answer_q3 = [np.sum((radar_const(X, y, task.order, task.params['R1'], K) - w) ** 2)\n"
                     "             for K in task.params['Ks']]",
            rtol=1e-6, atol=1e-12),
    ))

ASSIGNMENTS = (PGS, PGS_MORE_DATA, RADAR, RADAR_THEORY, RADAR_CONST)
