"""The checkers of the exercise notebooks on multiplicative updates (``l1lab.book.exercises.exponentiated``) accept
l1lab's references and reject wrong answers with deterministic text, and the notebooks of both lectures are
stored as the exercise tooling writes them (the shared ``tests/test_exercises.py`` runs nbval on every solution
notebook and checks the chapter notebook ``exponentiated``; this file adds ``exponentiated_scaling``)."""
import math
from pathlib import Path

import checker_contract
import nbformat
import numpy as np
import pytest

from l1lab.book import exercises as E
from l1lab.book.exponentiated import crossing
from l1lab.data.teacher import teacher_problem
from l1lab.solvers.online import smg
from l1lab.theory import kakade_foster_evendar as kfe

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ("exponentiated", "exponentiated_scaling")


def _signed_step(wp, wm, w0, x, y, eta, F1):
    """One step of l1lab's smg from the state (wp, wm, w0): the reference, through a one-example problem is not
    possible from an arbitrary state, so it is written out and compared with smg in the test below."""
    a = x @ (wp - wm)
    gamma = -y / (1.0 + np.exp(y * a))
    Z = gamma * a / F1
    return wp * (1 - eta * gamma * x + eta * Z), wm * (1 + eta * gamma * x + eta * Z), w0 * (1 + eta * Z)


def _samples(d, eps, delta, F1, G):
    """The smallest T >= 16 log N with Corollary 4.1's bound <= eps, by bisection (the bound falls with T)."""
    N = 2 * d + 1
    lo, hi = math.ceil(16 * math.log(N)), math.ceil(16 * math.log(N))
    while kfe.cor41_risk_bound(hi, N, F1, G, delta) > eps:
        hi *= 2
    if kfe.cor41_risk_bound(lo, N, F1, G, delta) <= eps:
        return lo
    while hi - lo > 1:                                     # bound(lo) > eps >= bound(hi)
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if kfe.cor41_risk_bound(mid, N, F1, G, delta) <= eps else (mid, hi)
    return hi


RIGHT = {
    E.check_smg_signed_step: _signed_step,
    E.check_linear_regret: lambda G, W, F1: float((G * W).sum(axis=1).mean() - F1 * min(G.sum(axis=0)) / len(G)),
    E.check_samples_for_guarantee: _samples,
    E.check_crossing: crossing,
}


def _no_dummy(wp, wm, w0, x, y, eta, F1):
    wp, wm, _ = _signed_step(wp, wm, w0, x, y, eta, F1)
    return wp, wm, w0                                              # forgets the dummy's factor: sum drifts


WRONG = {
    E.check_smg_signed_step: _no_dummy,
    E.check_linear_regret: lambda G, W, F1: float((G * W).sum(axis=1).mean() - (G.sum(axis=0) * F1 / W.shape[1]).min()
                                                  / len(G)),       # the center, not a vertex, as comparator
    E.check_samples_for_guarantee: lambda d, eps, delta, F1, G: math.ceil(
        16 * (F1 * G) ** 2 * (math.log(2 * d + 1) + 2 * math.log(1 / delta)) / eps ** 2),   # (a + b)^2 -> a^2 + b^2
    # the first grid point below eps, without the interpolation
    E.check_crossing: lambda grid, values, eps: float(grid[int(np.argmax(np.asarray(values) <= eps))]),
}


@pytest.mark.parametrize("checker", list(RIGHT), ids=lambda c: c.__name__)
def test_checkers_accept_the_references(checker, capsys):
    checker_contract.assert_passes(checker, RIGHT[checker], capsys)


@pytest.mark.parametrize("checker", list(WRONG), ids=lambda c: c.__name__)
def test_checkers_reject_wrong_answers_deterministically(checker, capsys):
    checker_contract.assert_fails_deterministically(checker, WRONG[checker], capsys)


def test_the_signed_step_reference_is_l1labs_smg():
    prob = teacher_problem(30, 8, seed=3)
    X, y = prob.X.toarray(), prob.y
    order = np.arange(30)
    wp, wm, w0 = np.full(8, 4.0 / 17), np.full(8, 4.0 / 17), 4.0 / 17
    for i in order:
        wp, wm, w0 = _signed_step(wp, wm, w0, X[i], y[i], 0.1, 4.0)
    np.testing.assert_allclose(wp - wm, smg(prob, 0.1, 4.0, order=order).w, rtol=1e-12, atol=1e-14)


def test_samples_for_guarantee_is_the_threshold_of_corollary_41():
    for d, eps, delta in ((10_000, 0.15, 0.05), (100, 3.0, 0.5)):
        T, N = _samples(d, eps, delta, 4.0, 1.0), 2 * d + 1
        assert kfe.cor41_risk_bound(T, N, 4.0, 1.0, delta) <= eps
        assert T == math.ceil(16 * math.log(N)) or kfe.cor41_risk_bound(T - 1, N, 4.0, 1.0, delta) > eps


def test_unfilled_and_crashing_answers():
    checker_contract.assert_unfilled_answers_raise(RIGHT)
    with pytest.raises(E.ExerciseFailed, match="raised ZeroDivisionError"):
        E.check_linear_regret(lambda G, W, F1: 1 / 0)


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_student_notebooks_are_the_solutions_without_answers(name):
    sol = nbformat.read(ROOT / "chapters/exercises/solutions" / f"{name}.ipynb", as_version=4)
    stu = nbformat.read(ROOT / "chapters/exercises/student" / f"{name}.ipynb", as_version=4)
    assert stu == E.make_student_notebook(sol), f"{name}: regenerate with python -m l1lab.book.exercises students ..."
    assert sum(E.SOLUTION_BEGIN in c.source for c in sol.cells if c.cell_type == "code") >= 2
    text = "".join(o.get("text", "") for c in sol.cells if c.cell_type == "code" for o in c.outputs)
    assert "checks passed" in text and "✘" not in text
    # a "predict" item starts empty: the cell that reads the prediction follows one that the student fills in
    code = [c for c in stu.cells if c.cell_type == "code"]
    readers = [k for k, c in enumerate(code) if "{prediction}" in c.source]
    assert readers and all(code[k - 1].source.strip() == E.PLACEHOLDER for k in readers)
    assert not any("*Solution.*" in c.source for c in stu.cells)
