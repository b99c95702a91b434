"""The checkers of the projection lectures' exercise notebooks that ``tests/test_exercises.py`` does not cover:
each accepts an independent right answer, rejects a typical wrong one with the same text every time, and reports
an unfilled answer as such."""
import math

import checker_contract
import numpy as np
import pytest

from l1lab.book import exercises as E
from l1lab.book.exercises import projections as P


def _bisection(v, z):
    lo, hi = float(np.max(v)) - z, float(np.max(v))
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if np.maximum(v - mid, 0.0).sum() > z else (lo, mid)
    return 0.5 * (lo + hi)


def _weighted_by_bisection(v, a, z):
    u = np.abs(v)
    if a @ u <= z:
        return v.copy()
    lo, hi = 0.0, float(np.max(u / a))
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if a @ np.maximum(u - mid * a, 0.0) > z else (lo, mid)
    return np.sign(v) * np.maximum(u - 0.5 * (lo + hi) * a, 0.0)


def _keys_by_bisection(keys, shift, z):
    mags = keys - shift
    if mags.sum() <= z:
        return 0.0
    return _bisection(mags, z)


def _psg(X, y, z, eta, T, seed):
    """Stochastic projected subgradient with the projection computed by bisection (independent of l1lab)."""
    w = np.zeros(X.shape[1])
    for i in np.random.default_rng(seed).integers(0, X.shape[0], size=T):
        v = w + eta * y[i] / (1.0 + math.exp(y[i] * (X[i] @ w))) * X[i]
        if np.abs(v).sum() > z:
            theta = _bisection(np.abs(v), z)
            v = np.sign(v) * np.maximum(np.abs(v) - theta, 0.0)
        w = v
    return w


RIGHT = {
    E.check_threshold_bisection: _bisection,
    E.check_predicted_nnz: [2, 1, 2, 1],
    E.check_project_weighted_l1_ball: _weighted_by_bisection,
    E.check_threshold_from_keys: _keys_by_bisection,
    E.check_psg_constant: _psg,
}

WRONG = {
    E.check_threshold_bisection: lambda v, z: (np.sum(v) - z) / v.size,              # every entry in the support
    E.check_predicted_nnz: [2, 2, 2, 2],                                              # wedges forgotten
    E.check_project_weighted_l1_ball: lambda v, a, z: _weighted_by_bisection(v, np.ones_like(a), z),  # weights lost
    E.check_threshold_from_keys: lambda keys, shift, z: _bisection(keys, z),           # the shift not removed
    E.check_psg_constant: lambda X, y, z, eta, T, seed: _psg(X, y, z, eta, T, seed + 1),  # other examples
}


@pytest.mark.parametrize("checker", list(RIGHT), ids=lambda c: c.__name__)
def test_checkers_accept_right_answers(checker, capsys):
    checker_contract.assert_passes(checker, RIGHT[checker], capsys, min_checks=3)


@pytest.mark.parametrize("checker", list(WRONG), ids=lambda c: c.__name__)
def test_checkers_reject_wrong_answers_deterministically(checker, capsys):
    checker_contract.assert_fails_deterministically(checker, WRONG[checker], capsys)


@pytest.mark.parametrize("checker", [c for c in RIGHT if callable(RIGHT[c])], ids=lambda c: c.__name__)
def test_unfilled_answers_raise_not_implemented(checker):
    checker_contract.assert_unfilled_answers_raise([checker])


def test_predictions_of_the_wrong_length_fail():
    with pytest.raises(E.ExerciseFailed, match="expected 4 numbers"):
        E.check_predicted_nnz([2, 1])
    assert len(P.PREDICT_POINTS) == 4
