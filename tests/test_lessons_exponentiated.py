"""The lectures on multiplicative updates: their own numpy implementations (the ``lesson`` cells) give l1lab's
results.  ``chapters/exponentiated.ipynb``: SG with a Euclidean projection and SMG (update (3) with the +- split
and the dummy coordinate) give the iterates of :func:`l1lab.solvers.online.sg_l2` and
:func:`l1lab.solvers.online.smg` for the same order of examples; ``chapters/exponentiated_scaling.ipynb``: the exact
excess risk of the sparse logistic teacher by enumeration is :func:`l1lab.data.teacher.excess_risk`."""
import numpy as np
import pytest
from lessons import lesson_cells, lesson_imports, lesson_namespace

from l1lab.data.teacher import excess_risk, teacher_problem
from l1lab.solvers.online import sg_l2, smg
from l1lab.theory import kakade_foster_evendar as kfe

LECTURES = ("exponentiated", "exponentiated_scaling")
NS = lesson_namespace("exponentiated")
NS_LOGD = lesson_namespace("exponentiated_scaling")


@pytest.mark.parametrize("lecture", LECTURES)
def test_the_lessons_are_short_plain_numpy(lecture):
    cells = lesson_cells(lecture)
    assert cells
    for src in cells:
        assert lesson_imports(src) <= {"numpy", "math"}
        assert len(src.strip().splitlines()) <= 40


def _stream(m, d, seed, T):
    prob = teacher_problem(m, d, seed=seed)
    order = np.random.default_rng(seed + 100).integers(0, m, size=T)
    return prob, prob.X.toarray(), prob.y, order


def _assert_same_run(ours, ref):
    w, w_avg, costs = ours
    np.testing.assert_allclose(w, ref.w, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(w_avg, ref.w_avg, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(costs, ref.costs, rtol=1e-10, atol=1e-12)
    assert np.abs(ref.w).max() > 0.05            # the decisions have moved: not a comparison of two starts


@pytest.mark.parametrize("m,d,T", [(50, 5, 200), (300, 60, 900)])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_lesson_sg_gives_l1labs_iterates(m, d, T, seed):
    prob, X, y, order = _stream(m, d, seed, T)
    F2, G2 = 2 * np.sqrt(2), np.sqrt(d)
    for eta in (kfe.sg_eta(T, F2, G2), 5 * kfe.sg_eta(T, F2, G2)):     # the larger step projects often
        _assert_same_run(NS["sg_lesson"](X, y, order, eta, F2), sg_l2(prob, eta, F2, order=order))


@pytest.mark.parametrize("m,d,T", [(50, 5, 200), (300, 60, 900)])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_lesson_smg_gives_l1labs_iterates(m, d, T, seed):
    prob, X, y, order = _stream(m, d, seed, T)
    for eta in (kfe.smg_eta(T, 2 * d + 1, 1.0), kfe.smg_max_step(1.0)):
        _assert_same_run(NS["smg_lesson"](X, y, order, eta, 4.0), smg(prob, eta, 4.0, order=order))


def test_lesson_smg_refuses_a_step_that_makes_a_weight_negative_as_l1lab_does():
    prob, X, y, order = _stream(50, 20, 0, 50)
    with pytest.raises(ValueError, match="negative"):
        smg(prob, 2.0, 4.0, order=order)
    with pytest.raises(ValueError, match="negative"):
        NS["smg_lesson"](X, y, order, 2.0, 4.0)


@pytest.mark.parametrize("d", [6, 12])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_lesson_excess_risk_is_the_teachers(d, seed):
    rng = np.random.default_rng(seed)
    prob, X, y, order = _stream(200, d, seed, 400)
    run = smg(prob, kfe.smg_eta(400, 2 * d + 1, 1.0), 4.0, order=order)
    for p, beta in ((2, 2.0), (3, 1.5)):
        for w in (run.w_avg, run.w, rng.normal(0, 1, d), np.zeros(d)):
            assert NS_LOGD["excess_risk_lesson"](w, p, beta) == pytest.approx(excess_risk(w, p, beta), rel=1e-12,
                                                                             abs=1e-14)
