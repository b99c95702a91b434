"""The checkers of the RADAR exercise notebooks (l1lab.book.exercises.radar): they accept right answers written
independently of their references and reject typical wrong ones with deterministic text."""
import math

import checker_contract
import numpy as np
import pytest

from l1lab.book import exercises as E
from l1lab.book import radar as rw
from l1lab.book.exercises.radar import epochs_that_fit_reference, smallest_sigma_reference, stream_samples
from l1lab.data import radar as rd
from l1lab.solvers import dual_averaging as da
from l1lab.theory import agarwal2012 as anw


# ---------------------------------------------------------------------------------------------- right answers
def _epochs_that_fit(T, R1, d, s, gamma, G, sigma, omega, c1):
    K, used = 0, 0
    while True:
        i = K + 1
        R = R1 / math.sqrt(2) ** (i - 1)
        A = (G ** 2 + sigma ** 2) * math.log(d) + (omega ** 2 + 24 * math.log(i)) * sigma ** 2
        length = math.ceil(c1 * (s ** 2 / (gamma ** 2 * R ** 2) * A + math.log(d)))
        if used + length > T:
            return K
        used, K = used + length, K + 1


def _smallest_sigma(errors):
    from scipy.optimize import brentq
    m = np.max(np.abs(errors), axis=1) ** 2
    # mean exp(m / s^2) = e, in u = 1 / s^2 (log-sum-exp for large m u)
    def g(u):
        return float(np.log(np.mean(np.exp(m * u - (m * u).max()))) + (m * u).max()) - 1.0
    u = brentq(g, 0.0, (1 + math.log(m.size)) / m.max(), xtol=1e-300, rtol=1e-15)
    return 1 / math.sqrt(u)


def _radar_const(X, y, R1, length, lams, steps, p):
    center, R = np.zeros(X.shape[1]), R1
    for i in range(len(y) // length):
        theta, mu, total = center.copy(), np.zeros_like(center), np.zeros_like(center)
        for t in range(1, length + 1):
            k = i * length + t - 1
            mu += (theta @ X[k] - y[k]) * X[k] + lams[i] * np.sign(theta)
            theta = da.radar_update(mu, center, R, steps[i] / math.sqrt(t), p)
            total += theta
        center, R = total / length, R / math.sqrt(2)
    return center


RIGHT = {
    E.check_epochs_that_fit: _epochs_that_fit,
    E.check_smallest_sigma: _smallest_sigma,
    E.check_omega_for_probability: lambda delta: math.sqrt(-12 * math.log(delta / 6)),
    E.check_radar_const: _radar_const,
    E.check_theorem2_epochs: lambda T, d, s, g, R1, G, sig, om: math.log2(
        g ** 2 * R1 ** 2 * T / (s ** 2 * ((G ** 2 + sig ** 2) * math.log(d) + om ** 2 * sig ** 2))),
}


# ---------------------------------------------------------------------------------------------- wrong answers
def _radar_const_fixed_radius(X, y, R1, length, lams, steps, p):
    q = p / (p - 1)
    center = np.zeros(X.shape[1])
    for i in range(len(y) // length):
        theta, mu, total = center.copy(), np.zeros_like(center), np.zeros_like(center)
        for t in range(1, length + 1):
            k = i * length + t - 1
            mu += (theta @ X[k] - y[k]) * X[k] + lams[i] * np.sign(theta)
            norm_q = np.sum(np.abs(mu) ** q) ** (1 / q)
            alpha = steps[i] / math.sqrt(t)
            step = alpha * R1 ** 2 * (p - 1) / max(1.0, alpha * R1 * (p - 1) * norm_q)
            theta = center - step * np.sign(mu) * np.abs(mu) ** (q - 1) / norm_q ** (q - 2)
            total += theta
        center = total / length                     # forgets R_{i+1} = R_i / sqrt(2)
    return center


WRONG = {
    E.check_epochs_that_fit: lambda T, R1, d, s, g, G, sig, om, c1: _epochs_that_fit(T, R1, d, s, g, G, sig, om, c1)
    if om == 0 else _epochs_that_fit(T, R1, d, s, g, G, sig, 0.0, c1),                # no omega
    E.check_smallest_sigma: lambda e: float(np.sqrt(np.mean(np.max(np.abs(e), axis=1) ** 2))),   # RMS, not the root
    E.check_omega_for_probability: lambda delta: math.sqrt(12 * math.log(1 / delta)),          # forgets the 6
    E.check_radar_const: _radar_const_fixed_radius,
    E.check_theorem2_epochs: lambda T, d, s, g, R1, G, sig, om: anw.kappa_T(T, d, s, g, R1, G, sig, om),  # not / log d
}


@pytest.mark.parametrize("checker", list(RIGHT), ids=lambda c: c.__name__)
def test_checkers_accept_right_answers(checker, capsys):
    checker_contract.assert_passes(checker, RIGHT[checker], capsys)


@pytest.mark.parametrize("checker", list(WRONG), ids=lambda c: c.__name__)
def test_checkers_reject_wrong_answers_deterministically(checker, capsys):
    checker_contract.assert_fails_deterministically(checker, WRONG[checker], capsys)


def test_unfilled_answers_raise_and_crashes_are_failed_checks():
    checker_contract.assert_unfilled_answers_raise(RIGHT)
    with pytest.raises(E.ExerciseFailed, match="raised ZeroDivisionError"):
        E.check_smallest_sigma(lambda e: 1 / 0)


# ---------------------------------------------------------------------------------------------- the references
def test_epochs_that_fit_is_what_radar_runs_with_the_lengths_9():
    """The reference counts the epochs that da.radar(..., epochs="theory") completes (constant G and sigma)."""
    stream = rd.make_stream(100, seed=0)
    R1 = float(np.abs(stream.theta_star).sum())
    for T, c1 in ((3_000, 0.01), (6_000, 0.02), (20_000, 0.05)):
        kw = dict(R1=R1, epochs="theory", s=5, gamma=1 / 3, G=0.5, sigma=2.0, omega=1.0, c1=c1)
        run = da.radar(stream, T, n_checkpoints=2, **kw)
        assert run.n_epochs == epochs_that_fit_reference(T, R1, 100, 5, 1 / 3, 0.5, 2.0, 1.0, c1) >= 1
        np.testing.assert_array_equal(run.epochs["length"], [
            math.ceil(anw.epoch_length(anw.epoch_radius(i, R1), i, 100, 5, 1 / 3, 0.5, 2.0, 1.0, c1))
            for i in range(1, run.n_epochs + 1)])


def test_smallest_sigma_is_the_root_of_assumption_3():
    e = np.random.default_rng(2).normal(size=(300, 40))
    sigma = smallest_sigma_reference(e)
    assert anw.assumption3_mgf(e, sigma) == pytest.approx(math.e, rel=1e-9)
    assert anw.assumption3_mgf(e, sigma * (1 - 1e-6)) > math.e
    assert smallest_sigma_reference(np.zeros((3, 2))) == 0.0


def test_stream_samples_are_the_solvers_samples():
    """RADAR run on a sampler that replays stream_samples gives the same iterates: the samples are the same."""
    stream = rd.make_stream(150, seed=3)
    X, y = stream_samples(stream, 3, 1_024)
    kw = rw.method_settings("RADAR-CONST", stream, 1_000, const_epochs=4)
    direct = da.radar(stream, 1_000, seed=3, **kw)

    class Replay:
        d, theta_star = 150, stream.theta_star

        def __init__(self):
            self.pos = 0

        def __call__(self, rng, n):
            out = X[self.pos:self.pos + n], y[self.pos:self.pos + n]
            self.pos += n
            return out

    replay = da.radar(Replay(), 1_000, seed=3, **kw)
    np.testing.assert_array_equal(replay.w, direct.w)


# ---------------------------------------------------------------------------------------------- the notebooks
@pytest.mark.parametrize("name", ["radar", "radar_theory", "radar_const"])
def test_student_notebooks_are_the_solutions_without_answers(name):
    from pathlib import Path

    import nbformat
    root = Path(__file__).resolve().parents[1] / "chapters" / "exercises"
    sol = nbformat.read(root / "solutions" / f"{name}.ipynb", as_version=4)
    stu = nbformat.read(root / "student" / f"{name}.ipynb", as_version=4)
    assert stu == E.make_student_notebook(sol), f"{name}: regenerate with python -m l1lab.book.exercises students ..."
    assert sum(E.SOLUTION_BEGIN in c.source for c in sol.cells if c.cell_type == "code") >= 2
    text = "".join(o.get("text", "") for c in sol.cells if c.cell_type == "code" for o in c.outputs)
    assert "checks passed" in text and "✘" not in text
    # a "predict" item starts empty in the student's version
    assert any(c.source.startswith("prediction = None\n" + E.PLACEHOLDER) for c in stu.cells if c.cell_type == "code")
