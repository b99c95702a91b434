"""The lectures' own code (the cells tagged ``lesson``) gives l1lab's iterates: SMIDAS in ``chapters/smidas.ipynb``
and truncated gradient with lazy truncation in ``chapters/smidas_truncgrad.ipynb``, for the same seed, over several
seeds, problem sizes and both kinds of MAGIC-like data, to rounding."""
import numpy as np
import pytest
from lessons import LESSON_IMPORTS, MAX_LESSON_LINES, lesson_cells, lesson_imports, lesson_namespace

from l1lab.book import smidas as ws
from l1lab.solvers import smidas, truncgrad

SEEDS = (0, 1, 2)
#: (kind of the random features, m, number of random features): d = 10 + the random features
SIZES = [("sparse", 300, 40), ("sparse", 600, 150), ("dense", 300, 40), ("dense", 400, 120)]


def _dense(problem):
    X = problem.X
    return X.toarray() if hasattr(X, "toarray") else np.asarray(X)


@pytest.fixture(scope="module")
def smidas_lesson():
    return lesson_namespace("smidas")


@pytest.fixture(scope="module")
def truncgrad_lesson():
    return lesson_namespace("smidas_truncgrad")


@pytest.mark.parametrize("name", ["smidas", "smidas_truncgrad"])
def test_lesson_cells_are_short_plain_numpy(name):
    cells = lesson_cells(name)
    assert len(cells) == 1
    for src in cells:
        assert lesson_imports(src) <= LESSON_IMPORTS
        assert len(src.splitlines()) <= MAX_LESSON_LINES


@pytest.mark.parametrize("kind,m,n_extra", SIZES)
def test_lesson_smidas_gives_l1lab_iterates(smidas_lesson, kind, m, n_extra):
    prob = ws.magic_like_problem(kind, lam=0.05, m=m, n_extra=n_extra)
    X = _dense(prob)
    for seed in SEEDS:
        for eta, T in ((0.01, 1_500), (0.05, 400)):
            ours = smidas_lesson["smidas_numpy"](X, prob.y, lam=0.05, eta=eta, T=T, seed=seed)
            ref = smidas(prob, n_iter=T, eta=eta, seed=seed).w
            np.testing.assert_allclose(ours, ref, rtol=1e-9, atol=1e-12)
            assert np.array_equal(ours == 0, ref == 0)          # the same exact zeros


def test_lesson_link_inverse_is_l1labs(smidas_lesson):
    from l1lab.links import link_inverse

    rng = np.random.default_rng(0)
    for p in (2.0, 4.0, 2 * np.log(310), 40.0):
        theta = rng.standard_normal(50) * (rng.random(50) < 0.5)
        np.testing.assert_allclose(smidas_lesson["link_inverse"](theta, p), link_inverse(theta, p),
                                   rtol=1e-12, atol=1e-300)
    assert not smidas_lesson["link_inverse"](np.zeros(5), 11.0).any()


@pytest.mark.parametrize("kind,m,n_extra", SIZES)
def test_lesson_truncgrad_gives_l1lab_iterates(truncgrad_lesson, kind, m, n_extra):
    prob = ws.magic_like_problem(kind, lam=0.05, m=m, n_extra=n_extra)
    X = _dense(prob)
    for seed in SEEDS:
        for eta, T in ((0.01, 1_500), (0.003, 3_000)):
            ours = truncgrad_lesson["truncgrad_numpy"](X, prob.y, lam=0.05, eta=eta, T=T, seed=seed)
            ref = truncgrad(prob, n_iter=T, eta=eta, seed=seed).w
            np.testing.assert_allclose(ours, ref, rtol=1e-9, atol=1e-12)
            assert np.array_equal(ours == 0, ref == 0)


def test_lesson_truncgrad_is_the_eager_form(truncgrad_lesson):
    """Postponing the truncations changes nothing: the eager step of (smidas-eq-tg-step), written out here."""
    prob = ws.magic_like_problem("sparse", lam=0.05, m=300, n_extra=40)
    X, y = _dense(prob), prob.y
    eta, lam, T = 0.01, 0.05, 800
    w = np.zeros(prob.d)
    for i in np.random.default_rng(4).integers(0, prob.m, size=T):
        a = w @ X[i]
        w = w + eta * y[i] / (1.0 + np.exp(y[i] * a)) * X[i]
        w = np.sign(w) * np.maximum(np.abs(w) - eta * lam, 0.0)
    lazy = truncgrad_lesson["truncgrad_numpy"](X, y, lam=lam, eta=eta, T=T, seed=4)
    np.testing.assert_allclose(lazy, w, rtol=1e-9, atol=1e-12)
