"""The lectures' own code against l1lab: the numpy update (6) of the lecture "radar", one epoch of Algorithm 1 of
the lecture "radar_epochs", and the numpy RADAR-CONST of the lecture "radar_const", over seeds and sizes, at a
tight tolerance."""
import math

import numpy as np
import pytest
from lessons import lesson_cells, lesson_imports, lesson_namespace

from l1lab.book import radar as rw
from l1lab.book.exercises.radar import stream_samples
from l1lab.data import radar as rd
from l1lab.solvers import dual_averaging as da
from l1lab.theory import agarwal2012 as anw

SEEDS = (0, 1, 2)
SIZES = (100, 300)


@pytest.fixture(scope="module")
def radar_lesson():
    return lesson_namespace("radar")


@pytest.fixture(scope="module")
def epochs_lesson(radar_lesson):
    """The epoch of the lecture "radar_epochs", which calls the update (6) that the lecture "radar" writes."""
    ns = lesson_namespace("radar_epochs")
    ns["radar_update"] = radar_lesson["radar_update"]
    return ns


@pytest.fixture(scope="module")
def const_lesson():
    return lesson_namespace("radar_const")


@pytest.mark.parametrize("name", ["radar", "radar_epochs", "radar_const"])
def test_lessons_are_plain_numpy_and_short(name):
    cells = lesson_cells(name)
    assert cells
    for src in cells:
        assert lesson_imports(src) <= {"numpy", "math"}
        assert len(src.splitlines()) <= 40


@pytest.mark.parametrize("d", SIZES + (2_000,))
@pytest.mark.parametrize("seed", SEEDS)
def test_update_6_is_l1labs(radar_lesson, d, seed):
    rng = np.random.default_rng(seed)
    p = anw.prox_exponent(d)
    center = rng.normal(size=d) * (rng.random(d) < 0.1)
    for R, alpha in ((1.0, 1e-3), (5.0, 0.2), (0.5, 50.0)):        # inside the ball, and on its sphere
        mu = rng.normal(size=d)
        ours = radar_lesson["radar_update"](mu.copy(), center.copy(), R, alpha, p)
        np.testing.assert_allclose(ours, da.radar_update(mu, center, R, alpha, p), rtol=1e-12, atol=1e-14)
    np.testing.assert_array_equal(radar_lesson["radar_update"](np.zeros(d), center, 1.0, 0.1, p), center)


@pytest.mark.parametrize("d", SIZES)
@pytest.mark.parametrize("seed", SEEDS)
def test_one_epoch_is_l1labs_first_epoch(epochs_lesson, d, seed):
    """The page's epoch, with l1lab's lambda_1 and step, ends where l1lab's first epoch ends (the oracle rule) and
    returns its next centre."""
    stream = rd.make_stream(d, seed=seed)
    settings = rw.method_settings("RADAR", stream, 4_000)
    first = da.radar(stream, 4_000, seed=seed, **settings).epochs
    assert first["end"].size >= 1
    X, y = stream_samples(stream, seed, 4_000)
    ours, length = epochs_lesson["radar_epoch"](X, y, np.zeros(d), first["R"][0], first["lam"][0],
                                                first["alpha"][0], anw.prox_exponent(d), stream.theta_star)
    assert length == first["end"][0]
    theirs = da.radar(stream, length, seed=seed, **settings)
    assert theirs.n_epochs == 1
    np.testing.assert_allclose(ours, theirs.w, rtol=1e-10, atol=1e-13)


def test_the_page_draws_the_solvers_samples():
    """The comparison cells draw blocks of 256 rows from default_rng(seed), as the solvers do for d <= 8192."""
    stream = rd.make_stream(200, seed=4)
    X, y = stream_samples(stream, 4, 600)
    rng = np.random.default_rng(4)
    parts = [stream(rng, 256) for _ in range(3)]
    np.testing.assert_array_equal(X, np.concatenate([p[0] for p in parts])[:600])
    np.testing.assert_array_equal(y, np.concatenate([p[1] for p in parts])[:600])


@pytest.mark.parametrize("d", SIZES)
@pytest.mark.parametrize("seed", SEEDS)
def test_radar_const_is_l1labs(const_lesson, d, seed):
    T, K = 1_500, 5
    stream = rd.make_stream(d, seed=seed)
    settings = rw.method_settings("RADAR-CONST", stream, T, const_epochs=K)
    run = da.radar(stream, T, seed=seed, **settings)
    assert run.n_epochs == K
    X, y = stream_samples(stream, seed, T)
    ours = const_lesson["radar_const"](X, y, settings["R1"], settings["epoch_length"], run.epochs["lam"],
                                       run.epochs["alpha"], anw.prox_exponent(d))
    np.testing.assert_allclose(ours, run.w, rtol=1e-10, atol=1e-13)
    assert math.isclose(float(ours @ ours), float(run.w @ run.w), rel_tol=1e-10)
