"""The checkers of the lower-bound exercise notebook added with the lecture rewrite (min_steps, printed_range,
greedy_gram): they accept independent right answers and reject typical wrong ones with the same text every time.
(The older lower-bound checkers are tested in tests/test_exercises.py.)"""
import math

import checker_contract
import numpy as np
import pytest

from l1lab.book import exercises as E


def _frontier(s, B, d):
    k = B * B - 1.0
    return k * (d - s) / ((s + k) * (d + k))


def _min_steps(eps, B, d):
    return next(s for s in range(d + 1) if _frontier(s, B, d) <= eps)


def _printed_range(B, d):
    for s in range(1, d + 1):
        if _frontier(s, B, d) < min(0.12, B * B / (16.0 * s)):
            return s - 1
    return d


def _greedy_gram(G, b, c, s_max):
    w = np.zeros(b.size)
    order, objective = [], [0.5 * c]
    for _ in range(s_max):
        score = np.abs(G @ w - b)
        score[order] = -1.0
        order.append(int(np.argmax(score)))
        w_J = np.linalg.solve(G[np.ix_(order, order)], b[order])
        w = np.zeros(b.size)
        w[order] = w_J
        objective.append(0.5 * (c - b[order] @ w_J))
    return np.array(order), np.array(objective)


def _greedy_without_refit(G, b, c, s_max):
    """Greedy coordinate descent (one exact coordinate step, no refit): the right order at first, wrong values."""
    w = np.zeros(b.size)
    order, objective = [], [0.5 * c]
    for _ in range(s_max):
        g = G @ w - b
        score = np.abs(g)
        score[order] = -1.0
        j = int(np.argmax(score))
        order.append(j)
        w[j] -= g[j] / G[j, j]
        objective.append(0.5 * (w @ G @ w - 2 * b @ w + c))
    return np.array(order), np.array(objective)


RIGHT = {
    E.check_lemma5_min_steps: _min_steps,
    E.check_lemma5_printed_range: _printed_range,
    E.check_greedy_gram: _greedy_gram,
}
WRONG = {
    E.check_lemma5_min_steps: lambda eps, B, d: math.ceil((B * B - 1) / eps - (B * B - 1)),   # forgets R*, and d
    E.check_lemma5_printed_range: lambda B, d: d,                                             # "it always holds"
    E.check_greedy_gram: _greedy_without_refit,
}


@pytest.mark.parametrize("checker", list(RIGHT), ids=lambda c: c.__name__)
def test_new_checkers_accept_right_answers(checker, capsys):
    checker_contract.assert_passes(checker, RIGHT[checker], capsys)


@pytest.mark.parametrize("checker", list(WRONG), ids=lambda c: c.__name__)
def test_new_checkers_reject_wrong_answers_deterministically(checker, capsys):
    checker_contract.assert_fails_deterministically(checker, WRONG[checker], capsys)


def test_greedy_gram_checker_does_not_let_the_answer_modify_its_inputs(capsys):
    def modifies(G, b, c, s_max):
        out = _greedy_gram(G, b, c, s_max)
        G[:] = 0.0
        return out
    E.check_greedy_gram(modifies)           # the checker hands out copies: the second call still sees the moments
    assert "checks passed" in capsys.readouterr().out
