"""The checkers of the fast-solver exercise notebook: they accept independent right answers and reject typical wrong
ones with the same text every time, and let an unfilled answer's NotImplementedError through."""
import checker_contract
import numpy as np
import pytest

from l1lab.book.exercises import fast_cd as C


def _p0(y, loss):
    return 0.5 * np.mean(y ** 2) if loss == "squared" else np.log(2.0)


def _psi_b(X, y, w, lam, loss):
    beta = 1.0 if loss == "squared" else 0.25
    return 0.5 * beta * float(((X ** 2).mean(axis=0)) @ (w * w)) + _p0(y, loss)


def _psi_global(X, y, w, lam, loss):
    """Theorem 1's Psi(0): the global beta for every coordinate"""
    beta = 1.0 if loss == "squared" else 0.25
    return 0.5 * beta * float(w @ w) + _p0(y, loss)


def _gap(X, y, w, lam, scale=True):
    m = X.shape[0]
    r = y - X @ w
    u = r / m
    if scale:
        u = u * min(1.0, lam / np.abs(X.T @ u).max())
    return r @ r / (2 * m) + lam * np.abs(w).sum() - (y @ u - m / 2 * u @ u)


RIGHT = {
    C.check_coordinate_psi0: _psi_b,
    C.check_lasso_duality_gap: _gap,
}
WRONG = {
    C.check_coordinate_psi0: _psi_global,
    C.check_lasso_duality_gap: lambda X, y, w, lam: _gap(X, y, w, lam, scale=False),   # an infeasible dual point
}


@pytest.mark.parametrize("checker", list(RIGHT), ids=lambda c: c.__name__)
def test_checkers_accept_right_answers(checker, capsys):
    checker_contract.assert_passes(checker, RIGHT[checker], capsys, min_checks=6)


@pytest.mark.parametrize("checker", list(WRONG), ids=lambda c: c.__name__)
def test_checkers_reject_wrong_answers_deterministically(checker, capsys):
    checker_contract.assert_fails_deterministically(checker, WRONG[checker], capsys)


def test_unfilled_answers_raise():
    checker_contract.assert_unfilled_answers_raise(RIGHT)


def test_checkers_leave_the_inputs_alone(capsys):
    """The checker hands copies: an answer that scales its inputs in place cannot spoil the next check."""
    def in_place(X, y, w, lam):
        value = _gap(X, y, w, lam)
        X *= 2.0
        w[:] = 0.0
        return value

    checker_contract.assert_passes(C.check_lasso_duality_gap, in_place, capsys, min_checks=6)
