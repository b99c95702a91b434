"""The checkers of the two PGS exercise notebooks (chapters/exercises/solutions/pgs.ipynb and pgs_more_data.ipynb):
they accept l1lab's references and independent right answers, reject the natural wrong ones (the paper's printed
forms among them) with the same text every time, and the student notebooks are the solutions without answers."""
import math
from pathlib import Path

import checker_contract
import nbformat
import numpy as np
import pytest
from scipy.optimize import minimize_scalar

from l1lab.book import exercises as E
from l1lab.theory import zhu2009 as zhu

ROOT = Path(__file__).resolve().parents[1]
SOLUTIONS = ROOT / "chapters" / "exercises" / "solutions"
STUDENT = ROOT / "chapters" / "exercises" / "student"


def _first_round_regret(x, y, sigma):
    a = float(x @ x)
    res = minimize_scalar(lambda s: sigma * s * s * a / 2 + np.logaddexp(0, -s * a), bounds=(0, 1 / sigma + 1),
                          method="bounded", options={"xatol": 1e-13})
    return math.log(2) - res.fun


def _iterations(eps, m, delta, u, p):
    left = eps ** 2 * (p - 1) / (2 * u ** 2) - 1 / m
    return math.inf if left <= 0 else 1 / (delta * left)


RIGHT = {
    E.check_first_round_regret: _first_round_regret,
    E.check_theorem2_sigma: lambda T, m, d, u, p: math.sqrt(2 * (p - 1) / u ** 2 * (1 / (T * d) + 1 / m)),
    E.check_theorem2_error: lambda T, m, d, u, p: 2 * u * math.sqrt((1 / (T * d) + 1 / m) / (2 * (p - 1))),
    E.check_theorem2_iterations: _iterations,
    E.check_grad_r_star: lambda th, p, B: zhu.corollary2_conjugate_gradient(th, p, B),
    E.check_corollary1_bound: lambda T, s, L: L ** 2 * math.fsum(1 / t for t in range(1, T + 1)) / (2 * s),
}
WRONG = {
    E.check_first_round_regret: lambda x, y, s: 0.0,                                  # "C log 1 / sigma = 0"
    E.check_theorem2_sigma: lambda T, m, d, u, p: math.sqrt((1 / (T * d) + 1 / m) / u ** 2),   # no 2(p - 1)
    E.check_theorem2_error: lambda T, m, d, u, p: zhu.theorem2_error_at_sigma(T, m, d, u, p, as_printed=True),
    E.check_theorem2_iterations: lambda e, m, d, u, p: zhu.theorem2_iterations(e, m, d, u, p, as_printed=True),
}


@pytest.mark.parametrize("checker", list(RIGHT), ids=lambda c: c.__name__)
def test_checkers_accept_right_answers(checker, capsys):
    checker_contract.assert_passes(checker, RIGHT[checker], capsys)


@pytest.mark.parametrize("checker", list(WRONG), ids=lambda c: c.__name__)
def test_checkers_reject_wrong_answers_deterministically(checker, capsys):
    checker_contract.assert_fails_deterministically(checker, WRONG[checker], capsys)


def test_iterations_checker_sees_the_unreachable_target():
    # below m0 = 2 ||u||^2/(eps^2 (p - 1)) the answer is inf: an answer that returns a negative T is wrong
    with pytest.raises(E.ExerciseFailed, match="m = 12"):
        E.check_theorem2_iterations(lambda e, m, d, u, p: 1 / (d * (e ** 2 * (p - 1) / (2 * u ** 2) - 1 / m)))


@pytest.mark.parametrize("name", ["pgs", "pgs_more_data"])
def test_student_notebooks_are_the_solutions_without_answers(name):
    sol = nbformat.read(SOLUTIONS / f"{name}.ipynb", as_version=4)
    stu = nbformat.read(STUDENT / f"{name}.ipynb", as_version=4)
    assert stu == E.make_student_notebook(sol), f"{name}: regenerate with python -m l1lab.book.exercises students ..."
    assert sum(E.SOLUTION_BEGIN in c.source for c in sol.cells if c.cell_type == "code") >= 3
    assert not any(E.SOLUTION_BEGIN in c.source or c.source.startswith("*Solution.*") for c in stu.cells)
    text = "".join(o.get("text", "") for c in sol.cells if c.cell_type == "code" for o in c.outputs)
    assert text.count("checks passed") >= 3 and "✘" not in text
