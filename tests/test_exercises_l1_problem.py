"""The checkers of the exercise notebook of "The ℓ1 problem" (l1lab.book.exercises.l1_problem): they accept right
answers, computed here independently of l1lab (closed forms, numpy only), and reject typical wrong ones with
deterministic text.  (The older checkers check_soft_threshold, check_objective and check_lambda_max are tested in
tests/test_exercises.py.)"""
import checker_contract
import numpy as np
import pytest

from l1lab.book import exercises as E


def _prox(v, tau, mu):
    v = np.asarray(v, dtype=float)
    return np.sign(v) * np.maximum(np.abs(v) - tau, 0.0) / (1.0 + mu)


def _lprime(a, y, loss):
    return a - y if loss == "squared" else -y / (1.0 + np.exp(y * a))


def _residual(X, y, w, lam, loss):
    g = X.T @ _lprime(X @ w, y, loss) / X.shape[0]
    r = np.where(w != 0, g + lam * np.sign(w), np.maximum(np.abs(g) - lam, 0.0))
    return np.abs(r).max()


def _weighted_lambda_max(X, y, c, loss):
    g = X.T @ _lprime(np.zeros(len(y)), y, loss) / X.shape[0]
    return np.max(np.abs(g) / c)


def _segment(X, y, S, signs, lam):
    m = X.shape[0]
    XS = X[:, S]
    w = np.zeros(X.shape[1])
    w[S] = np.linalg.solve(XS.T @ XS, XS.T @ y - m * lam * signs)
    return w


def _rho_tight():
    u = np.linspace(-3.0, 1.0, 4_000_001)
    return np.max((1.0 / (1.0 + np.exp(u))) ** 2 / np.log1p(np.exp(-u)))


RIGHT = {
    E.check_prox_elastic_net: _prox,
    E.check_optimality_residual: _residual,
    E.check_weighted_lambda_max: _weighted_lambda_max,
    E.check_path_segment: _segment,
}

WRONG = {
    E.check_prox_elastic_net: lambda v, tau, mu: _prox(v, tau / (1.0 + mu), 0.0) / (1.0 + mu),   # threshold scaled
    E.check_optimality_residual: lambda X, y, w, lam, loss: np.abs(X.T @ _lprime(X @ w, y, loss) / X.shape[0]
                                                                   + lam * np.sign(w)).max(),  # zeros not absorbed
    E.check_weighted_lambda_max: lambda X, y, c, loss: _weighted_lambda_max(X, y, 1.0 / c, loss),  # times c
    E.check_path_segment: lambda X, y, S, signs, lam: _segment(X, y, S, -signs, lam),             # sign of the pull
}


@pytest.mark.parametrize("checker", list(RIGHT), ids=lambda c: c.__name__)
def test_checkers_accept_independent_right_answers(checker, capsys):
    checker_contract.assert_passes(checker, RIGHT[checker], capsys, min_checks=4)


@pytest.mark.parametrize("checker", list(WRONG), ids=lambda c: c.__name__)
def test_checkers_reject_wrong_answers_deterministically(checker, capsys):
    checker_contract.assert_fails_deterministically(checker, WRONG[checker], capsys)


def test_rho_tight_logistic(capsys):
    rho = _rho_tight()                     # a fine grid, independent of l1lab's loss
    assert 0.40 < rho < 0.41
    assert E.check_rho_tight_logistic(rho) is None
    assert "1/1 checks passed" in capsys.readouterr().out
    for wrong in (0.5, 0.25, round(rho, 3)):   # the paper's valid but loose 1/2, a guess, three digits only
        with pytest.raises(E.ExerciseFailed):
            E.check_rho_tight_logistic(wrong)


def test_path_segment_rejects_an_unsolved_or_wrong_support():
    def reference(X, y, S, signs, lam):
        from l1lab import Problem, reference_solution
        return reference_solution(Problem(X, y, "squared", lam), tol=1e-3)[0]      # a loose iterative answer
    with pytest.raises(E.ExerciseFailed):
        E.check_path_segment(reference)
    with pytest.raises(E.ExerciseFailed, match="raised"):
        E.check_path_segment(lambda X, y, S, signs, lam: 1 / 0)
    with pytest.raises(NotImplementedError):
        E.check_path_segment(lambda *a: (_ for _ in ()).throw(NotImplementedError("your code here")))
