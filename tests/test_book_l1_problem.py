"""l1lab.book.l1_problem: the lecture's figures at their defaults, the path demo at its defaults and at the extreme
settings of its widget, the path against the optimality conditions, and a slider move that only redraws.

Nothing here is timed: the path is solved once per loss (cached), and the test that moves every control checks
that no move calls the solver.
"""
import matplotlib

matplotlib.use("Agg")
import ipywidgets  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.text import Text  # noqa: E402

from l1lab import Problem  # noqa: E402
from l1lab.book import l1_problem as W  # noqa: E402
from l1lab.book import live  # noqa: E402
from l1lab.book.static import plan  # noqa: E402
from l1lab.book.style import style_problems  # noqa: E402
from l1lab.losses import logistic, squared  # noqa: E402


def _readable(fig, max_width=8.0, min_pt=9.0):
    """The figure is at most ``max_width`` inches wide and no visible text of it is smaller than ``min_pt``."""
    assert fig.get_size_inches()[0] <= max_width + 1e-9
    live.png_bytes(fig)   # draw, so that tick labels exist
    small = [(t.get_text(), t.get_fontsize()) for t in fig.findobj(Text)
             if t.get_visible() and t.get_text().strip() and t.get_fontsize() < min_pt]
    assert small == []
    assert style_problems(fig) == []


# ---------------------------------------------------------------------------------------------- static figures
def test_losses_figure_and_constants():
    fig = W.losses_figure()
    assert isinstance(fig, Figure) and len(fig.axes) == 4
    _readable(fig)
    sups = W.loss_suprema(10.0, 1e-2)
    wider = W.loss_suprema(100.0, 1e-3)
    # finite constants are matched (beta, rho of (13)) or undercut (rho of (14), logistic)
    assert sups["squared"][0] == pytest.approx(squared.beta) and sups["logistic"][0] == pytest.approx(logistic.beta)
    assert sups["squared"][2] == pytest.approx(squared.rho_self_bounded)
    assert wider["logistic"][1] == pytest.approx(logistic.rho_lipschitz, abs=1e-9)
    assert sups["logistic"][2] < logistic.rho_self_bounded
    # infinite constants grow with the grid: |L'| of the squared loss, L'^2/L of the hinge loss
    assert wider["squared"][1] > 9 * sups["squared"][1] and wider["hinge"][2] > 9 * sups["hinge"][2]


def test_logistic_rho_tight_against_a_closed_form_ratio():
    rho, u = W.logistic_rho_tight()
    # independently of l1lab's loss: L = log(1 + e^-u), L' = -1 / (1 + e^u) at y = 1, margin u
    grid = np.linspace(-30.0, 30.0, 600_001)
    ratio = (1.0 / (1.0 + np.exp(grid))) ** 2 / np.log1p(np.exp(-grid))
    assert rho == pytest.approx(ratio.max(), rel=1e-8) and rho < 0.5
    assert u == pytest.approx(grid[np.argmax(ratio)], abs=1e-4)
    # the maximizer solves the first-order condition 2 L L'' = L'^2 ... in u: 2 log(1+e^-u) sigma(u) = 1/(1+e^u)
    s = 1.0 / (1.0 + np.exp(-u))
    assert 2.0 * np.log1p(np.exp(-u)) * s == pytest.approx(1.0 - s, rel=1e-6)


def test_soft_threshold_figure():
    fig = W.soft_threshold_figure()
    assert len(fig.axes) == 2
    _readable(fig)


def test_balls_minimizers_are_optimal_on_each_ball():
    fig = W.balls_figure()
    assert len(fig.axes) == 2
    _readable(fig)
    mins = W.balls_minimizers()
    np.testing.assert_allclose(mins["l1"], [1.0, 0.0], atol=1e-12)        # a corner: w_2 = 0 exactly
    w2 = mins["l2"]
    assert np.linalg.norm(w2) == pytest.approx(1.0) and np.all(np.abs(w2) > 0.1)
    # optimality on the ℓ2 ball: the gradient A (w - c) points along -w
    g = W.BALLS_A @ (w2 - W.BALLS_C)
    assert abs(g[0] * w2[1] - g[1] * w2[0]) < 1e-4 and g @ w2 < 0
    # optimality on the ℓ1 ball at the corner (1, 0): -g lies in the normal cone {s (1, t): s >= 0, |t| <= 1}
    g1 = W.BALLS_A @ (mins["l1"] - W.BALLS_C)
    assert -g1[0] > 0 and abs(g1[1]) <= abs(g1[0])


# ---------------------------------------------------------------------------------------------- the path
@pytest.mark.parametrize("loss", W.LOSSES)
def test_path_satisfies_the_optimality_conditions(loss):
    data = W.path_data(loss, **W.PATH_DATA)
    assert data is W.path_data(loss, **W.PATH_DATA)            # cached
    X, y = data.problem.X, data.problem.y
    lm = data.lambda_max
    ell = (X @ np.zeros(X.shape[1]) - y) if loss == "squared" else -y / 2.0
    assert lm == pytest.approx(np.abs(X.T @ ell).max() / X.shape[0], rel=1e-12)
    assert data.fracs[0] == 1.0 and data.fracs[-1] == pytest.approx(1e-3)
    assert np.all(data.path[0] == 0.0)                            # w* = 0 at lambda_max
    for f, w in zip(data.fracs, data.path):
        assert Problem(X, y, loss, f * lm).relative_residual(w) <= 1e-10
    # just below lambda_max, the first feature to leave zero is the one with the largest |grad_j C(0)|
    assert np.flatnonzero(data.solution(0.99)).tolist() == [data.first]


def test_path_figure_defaults():
    fig = W.path_figure()
    assert isinstance(fig, Figure) and len(fig.axes) == 2
    assert all(ax.get_xscale() == "log" for ax in fig.axes)
    lo, hi = fig.axes[0].get_xlim()
    assert lo > hi                                                # λ decreases to the right
    _readable(fig)


@pytest.mark.parametrize("loss", W.LOSSES)
@pytest.mark.parametrize("frac", [W.PATH_LIMITS["frac"][0], W.PATH_LIMITS["frac"][1]])
def test_path_figure_at_the_widgets_extremes(loss, frac):
    fig = W.path_figure(frac=frac, loss=loss)
    assert len(fig.axes) == 2
    _readable(fig)


def test_path_off_the_grid_is_solved():
    data = W.path_data("squared", **W.PATH_DATA)
    assert data.index(0.5) is None and data.index(data.fracs[7] * (1 + 1e-9)) == 7
    w = data.solution(0.5)
    assert Problem(data.problem.X, data.problem.y, "squared", 0.5 * data.lambda_max).relative_residual(w) <= 1e-10
    fig = W.path_figure(frac=0.5)
    assert len(fig.axes) == 2


def test_path_demo_widget():
    box = W.path_demo()
    assert isinstance(box, ipywidgets.VBox)
    assert set(box.controls) == {"frac", "loss"}
    assert isinstance(box.controls["frac"], ipywidgets.FloatLogSlider)
    assert {k: c.value for k, c in box.controls.items()} == W.PATH_DEFAULTS   # the lecture's text says so
    with pytest.raises(ValueError, match="range"):
        W.path_demo(frac=2.0)
    with pytest.raises(ValueError):
        W.path_demo(loss="hinge")


def _next_value(ctrl):
    if isinstance(ctrl, ipywidgets.Dropdown):
        opts = list(ctrl.options)
        return opts[(opts.index(ctrl.value) + 1) % len(opts)]
    e = np.log10(ctrl.value) + ctrl.step
    return 10 ** (e if e <= ctrl.max + 1e-12 else np.log10(ctrl.value) - ctrl.step)


def test_path_player_grid_fits_the_live_widget():
    """The chapter's player: every listed λ/λ_max is a slider position (a grid point of the path), the start is
    offered, both losses are, and the grid stays within the frame budget."""
    box = W.path_demo(ahead=False)
    specs = {s.name: s for s in plan(box, W.PATH_STATIC["grid"])}
    assert specs["loss"].values == W.LOSSES
    fracs = specs["frac"].values
    assert specs["frac"].values[specs["frac"].default] == W.PATH_DEFAULTS["frac"]
    assert 1.0 in fracs and min(fracs) == pytest.approx(W.PATH_LIMITS["frac"][0])
    grid = W.path_fractions()
    assert all(np.min(np.abs(np.log10(grid / f))) < 1e-9 for f in fracs)
    assert np.isclose(fracs, grid[1]).any()                       # the first point below λ_max (the question's)
    assert 10 <= len(fracs) * len(W.LOSSES) <= 40


def test_path_player_draws_the_live_frames():
    player = W.path_player(grid=dict(frac=(0.1, 1.0)), name="t")
    assert player.n_frames == 4 and len({f["sha"] for f in player.frames.values()}) == 4
    assert "at λ = 0.1 λmax" in player.frames[player.key(frac=0.1, loss="logistic")]["alt"]
    html = player.html()
    # every frame in the manifest, and the first one also as the image shown before the script runs
    assert 'data-l1lab-player="t"' in html and html.count("data:image/png;base64") == player.n_frames + 1


def test_every_slider_position_is_a_grid_point_and_moves_only_redraw(monkeypatch):
    box = W.path_demo()
    fig, first = box.live.fig, box.image.value
    data = W.path_data("squared", **W.PATH_DATA)

    def no_solve(*args, **kwargs):
        raise AssertionError("a move of the path demo called the solver")

    monkeypatch.setattr(W, "reference_solution", no_solve)
    W._off_grid_solution.cache_clear()
    slider = box.controls["frac"]
    positions = 10.0 ** np.arange(slider.min, slider.max + slider.step / 2, slider.step)
    assert len(positions) == len(data.fracs)
    for value in positions:
        assert data.index(value) is not None
    for value in positions[::6]:
        slider.value = value
        assert box.live.fig is fig
    for loss in W.LOSSES:
        box.controls["loss"].value = loss
    slider.value = W.PATH_DEFAULTS["frac"]
    box.controls["loss"].value = W.PATH_DEFAULTS["loss"]
    assert box.image.value == first


@pytest.mark.parametrize("cname", ["frac", "loss"])
def test_path_demo_redraws_in_place_as_a_fresh_figure(cname):
    """As tests/test_live.py does for every demo: a move redraws the same figure, which then looks like a fresh
    figure of the new settings, and moving back gives the first image byte for byte."""
    import io

    from PIL import Image

    def pixels(png):
        return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))

    box = W.path_demo()
    fig, first = box.live.fig, box.image.value
    assert style_problems(fig) == []
    ctrl = box.controls[cname]
    start = ctrl.value
    ctrl.value = _next_value(ctrl)
    assert box.live.fig is fig
    fresh = box.live.figure_fn(**{k: c.value for k, c in box.controls.items()})
    shown, drawn = pixels(box.image.value), pixels(live.png_bytes(fresh))
    assert shown.shape == drawn.shape
    assert (shown != drawn).any(axis=2).mean() <= 0.01
    ctrl.value = start
    assert box.image.value == first
