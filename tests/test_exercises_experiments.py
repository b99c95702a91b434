"""The checkers of the exercise notebook of "The experiments of Section 4" (l1lab.book.exercises.experiments):
they accept a right answer, written here independently of l1lab, and reject wrong ones with the same text every
time.  (``tests/test_exercises.py`` checks check_data_accesses and check_choose_eta, the notebooks' student
versions and nbval.)"""
import math

import checker_contract
import numpy as np
import pytest

from l1lab.book import exercises as E


def _measures(x, curves, target, low=None):
    p0 = np.mean([c[0] for c in curves.values()])
    p_low = min(float(np.min(c)) for c in curves.values()) if low is None else low
    excess = {n: (np.asarray(c) - p_low) / (p0 - p_low) for n, c in curves.items()}
    reach = {n: float(x[np.flatnonzero(e <= target)[0]]) if np.any(e <= target) else math.inf
             for n, e in excess.items()}
    return {n: float(e[-1]) for n, e in excess.items()}, reach


def _own_minimum(x, curves, target):
    """Each curve measured against its own minimum (not the best of all algorithms)."""
    excess = {n: (c[-1] - np.min(c)) / (c[0] - np.min(c)) for n, c in curves.items()}
    return excess, _measures(x, curves, target)[1]


def _reach_by_index(x, curves, target):
    """The checkpoint's index instead of its data accesses."""
    excess, reach = _measures(x, curves, target)
    return excess, {n: (float(np.searchsorted(x, v)) if math.isfinite(v) else v) for n, v in reach.items()}


def _final_low(x, curves, target):
    """P_low taken over the final values only (a curve that dips and rises again is missed)."""
    return _measures(x, curves, target, low=min(float(c[-1]) for c in curves.values()))


def _p_unrounded(d, rel):
    return rel ** (1 / (2 * math.log(d) - 1))          # p = 2 ln d, not ceil(2 ln d)


def _power_p(d, rel):
    return rel ** (1 / math.ceil(2 * math.log(d)))     # exponent p instead of p - 1


RIGHT = {
    E.check_claim_measures: _measures,
    E.check_negligible_ratio: lambda d, rel: rel ** (1 / (math.ceil(2 * math.log(d)) - 1)),
}
WRONG = [
    (E.check_claim_measures, _own_minimum),
    (E.check_claim_measures, _reach_by_index),
    (E.check_claim_measures, _final_low),                              # one made-up curve dips and rises
    (E.check_negligible_ratio, _p_unrounded),
    (E.check_negligible_ratio, _power_p),
    (E.check_negligible_ratio, lambda d, rel: rel),                    # the primal ratio itself
]


@pytest.mark.parametrize("checker", list(RIGHT), ids=lambda c: c.__name__)
def test_checkers_accept_right_answers(checker, capsys):
    checker_contract.assert_passes(checker, RIGHT[checker], capsys)


@pytest.mark.parametrize("checker,wrong", WRONG, ids=lambda v: getattr(v, "__name__", ""))
def test_checkers_reject_wrong_answers_deterministically(checker, wrong, capsys):
    checker_contract.assert_fails_deterministically(checker, wrong, capsys)


def test_unfilled_and_crashing_answers():
    checker_contract.assert_unfilled_answers_raise(RIGHT)
    with pytest.raises(E.ExerciseFailed, match="raised ZeroDivisionError"):
        E.check_negligible_ratio(lambda d, rel: 1 / 0)
    with pytest.raises(E.ExerciseFailed, match="two dicts"):
        E.check_claim_measures(lambda x, c, t: ([0.0] * len(c), [0.0] * len(c)))
    with pytest.raises(E.ExerciseFailed, match="lies in"):
        E.check_negligible_ratio(lambda d, rel: 2.0)
