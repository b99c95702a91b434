"""The checkers of the exercise notebook of the lecture "One family" (chapters/exercises/solutions/family.ipynb):
they accept l1lab's references and independent right answers, reject the natural wrong ones with the same text
every time, and the student notebook is the solution without answers."""
import math
from pathlib import Path

import checker_contract
import nbformat
import numpy as np
import pytest
from scipy.optimize import minimize

from l1lab.book import exercises as E
from l1lab.theory import shalev_shwartz_tewari as sst

ROOT = Path(__file__).resolve().parents[1]
SOLUTIONS = ROOT / "chapters" / "exercises" / "solutions"
STUDENT = ROOT / "chapters" / "exercises" / "student"


def _dual_averaging_point(g, t, lam, gamma, p):
    """Independent: the closed form for p = 2, a numerical minimization otherwise (smooth on each orthant's
    interior; the zero pattern is the soft-threshold's, which the minimization finds to its tolerance, so the
    closed-form link is used once the support is known)."""
    z = np.sign(g) * np.maximum(np.abs(g) / t - lam, 0.0)
    if p == 2.0:
        return -math.sqrt(t) / gamma * z
    q = p / (p - 1)
    nq = np.sum(np.abs(z) ** q) ** (1 / q)
    if nq == 0:
        return np.zeros_like(z)
    return -math.sqrt(t) * (p - 1) / gamma * np.sign(z) * np.abs(z) ** (q - 1) / nq ** (q - 2)


def test_the_reference_is_the_minimizer():
    """l1lab's RDA kernel step minimizes the exercise's objective (a derivative-free check of the closed form)."""
    from l1lab.book.exercises.family import _rda_point
    rng = np.random.default_rng(0)
    for p in (2.0, 1.5, 1.2):
        g, t, lam, gamma = rng.normal(size=6) * 4, 9, 0.3, 0.7
        w = _rda_point(g, t, lam, gamma, p)

        def obj(v):
            return g @ v + t * lam * np.abs(v).sum() + gamma * math.sqrt(t) * np.sum(np.abs(v) ** p) ** (2 / p) / (
                2 * (p - 1))
        best = minimize(obj, w + 0.05, method="Nelder-Mead", options=dict(xatol=1e-10, fatol=1e-14,
                                                                          maxiter=40_000)).fun
        assert obj(w) <= best + 1e-9
        for _ in range(50):
            assert obj(w) <= obj(w + rng.normal(scale=1e-3, size=6)) + 1e-12


RIGHT = {
    E.check_dual_averaging_point: _dual_averaging_point,
    E.check_theorem3_fixed_step: lambda eta, T, rho, w1, p0, p, d: sst.smidas_bound_self_bounded(eta, T, rho, w1,
                                                                                                   p0, p, d),
}


def _kappa_as_e(eta, T, rho, w1, p0, p, d):
    a = (p - 1) * math.e * rho / 2                        # (p - 1)e, right only at p = 2 ln d
    return (1 / (1 - a * eta) - 1) * p0 + w1 ** 2 / (eta * T * (1 - a * eta))


WRONG = {
    # the soft-threshold of the sum at lam, not of the average (forgets the factor t)
    E.check_dual_averaging_point: lambda g, t, lam, gamma, p: _dual_averaging_point(g, t, lam / t, gamma, p),
    E.check_theorem3_fixed_step: _kappa_as_e,
}


@pytest.mark.parametrize("checker", list(RIGHT), ids=lambda c: c.__name__)
def test_checkers_accept_right_answers(checker, capsys):
    checker_contract.assert_passes(checker, RIGHT[checker], capsys, min_checks=5)


@pytest.mark.parametrize("checker", list(WRONG), ids=lambda c: c.__name__)
def test_checkers_reject_wrong_answers_deterministically(checker, capsys):
    checker_contract.assert_fails_deterministically(checker, WRONG[checker], capsys)


def test_unfilled_answers_raise():
    checker_contract.assert_unfilled_answers_raise(list(RIGHT))


def test_student_notebook_is_the_solution_without_answers():
    sol = nbformat.read(SOLUTIONS / "family.ipynb", as_version=4)
    stu = nbformat.read(STUDENT / "family.ipynb", as_version=4)
    assert stu == E.make_student_notebook(sol), "regenerate with python -m l1lab.book.exercises students ..."
    assert sum(E.SOLUTION_BEGIN in c.source for c in sol.cells if c.cell_type == "code") == 3
    text = "".join(o.get("text", "") for c in sol.cells if c.cell_type == "code" for o in c.outputs)
    assert text.count("checks passed") == 2 and "✘" not in text
