"""The checkers of the SMIDAS lectures' exercise notebooks (``l1lab.book.exercises.smidas``) that are new with the
two lectures: each accepts a right answer written independently here and rejects a typical wrong one with the same
deterministic text every time; the notebooks themselves are run with ``pytest --nbval`` by tests/test_exercises.py.
"""
import math

import checker_contract
import numpy as np
import pytest

from l1lab.book import exercises as E


def _link_inverse(theta, p):
    M = np.abs(theta).max()
    if M == 0:
        return np.zeros_like(theta)
    u = np.abs(theta) / M
    return np.sign(theta) * M * u ** (p - 1) / np.linalg.norm(u, p) ** (p - 2)


def _mirror_run(X, y, lam, eta, T, seed, loss, p=None):
    """SMIDAS (p = 2 ln d), or truncated gradient (p = 2), written from the paper's Algorithm 3."""
    m, d = X.shape
    p = 2 * math.log(d) if p is None else p
    theta = np.zeros(d)
    for i in np.random.default_rng(seed).integers(0, m, size=T):
        a = _link_inverse(theta, p) @ X[i]
        slope = a - y[i] if loss == "squared" else -y[i] / (1 + np.exp(y[i] * a))
        theta = theta - eta * slope * X[i]
        theta = np.sign(theta) * np.maximum(np.abs(theta) - eta * lam, 0.0)
    return _link_inverse(theta, p)


def _bound_ratio(X, w, log=math.log):
    x2 = float((X ** 2).sum(axis=1).mean())
    return (w @ w) * x2 / (log(X.shape[1]) * np.abs(w).sum() ** 2)


RIGHT = {
    E.check_first_step: lambda x, y, lam: np.abs(x) > 2 * lam,        # L'(0, y) = -y/2 survives if |x_j| > 2 lam
    E.check_smidas_run: _mirror_run,
    E.check_truncgrad_run: lambda *args: _mirror_run(*args, p=2.0),
    E.check_bound_ratio: _bound_ratio,
    E.check_best_k: lambda P, ag, T: math.sqrt((ag / T) / (P + ag / T)),
}

WRONG = {
    E.check_first_step: lambda x, y, lam: np.abs(x) > lam,            # forgets |L'(0, y)| = 1/2
    E.check_smidas_run: lambda *args: _mirror_run(*args, p=2.0),       # the identity link: truncated gradient
    E.check_truncgrad_run: _mirror_run,                                # the p-norm link: SMIDAS
    E.check_bound_ratio: lambda X, w: _bound_ratio(X, w, log=math.log2),   # log base 2
    E.check_best_k: lambda P, ag, T: math.sqrt((ag / T) / P),          # drops the c in P* + c
}


@pytest.mark.parametrize("checker", list(RIGHT), ids=lambda c: c.__name__)
def test_checkers_accept_right_answers(checker, capsys):
    checker_contract.assert_passes(checker, RIGHT[checker], capsys, min_checks=2)


@pytest.mark.parametrize("checker", list(WRONG), ids=lambda c: c.__name__)
def test_checkers_reject_wrong_answers_deterministically(checker, capsys):
    checker_contract.assert_fails_deterministically(checker, WRONG[checker], capsys)


def test_unfilled_and_crashing_answers():
    checker_contract.assert_unfilled_answers_raise(RIGHT)
    with pytest.raises(E.ExerciseFailed, match="raised ZeroDivisionError"):
        E.check_best_k(lambda P, ag, T: 1 / 0)
    with pytest.raises(E.ExerciseFailed, match="expected shape"):
        E.check_smidas_run(lambda *args: np.zeros(3))


def test_constants_of_the_lectures():
    d = 1000
    L = math.log(d)
    E.check_constant("p_best_d1000", L + math.sqrt(L * L - 2 * L))
    with pytest.raises(E.ExerciseFailed):
        E.check_constant("p_best_d1000", 2 * L)                        # 2 ln d is close, not the minimizer
    with pytest.raises(E.ExerciseFailed, match="expected a number"):
        E.check_constant("p_best_d1000", "eleven")
    E.check_constant("rho_14_squared", 2.0)
    E.check_constant("kappa_smidas_d1000", (2 * L - 1) * math.e)


def test_magic_prediction(capsys):
    E.check_magic_prediction("SMIDAS")
    assert "✔" in capsys.readouterr().out
    with pytest.raises(E.ExerciseFailed, match="SMIDAS ends lower"):
        E.check_magic_prediction("TruncGrad")
    with pytest.raises(E.ExerciseFailed, match="expected 'SMIDAS' or 'TruncGrad'"):
        E.check_magic_prediction("smidas")
