"""l1lab.book.static: a live demo precomputed over a grid of its controls, for the HTML book without a kernel.

A toy demo wired as the chapters wire theirs (:func:`l1lab.book.controls.wire`) has one control of every kind the
book uses.  The checks: the controls are the live widget's (labels, defaults, kinds); every position of a cheap
control is offered and the grid is the product of the offered values; a costly control must be listed, with
values on the widget's positions and its start among them; each frame is what the widget's figure function draws
for that setting, with its content hash and an alternative text; the HTML is self-contained.
"""
import hashlib
import json
import math
import re

import matplotlib

matplotlib.use("Agg")
import ipywidgets as widgets  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from l1lab.book import static  # noqa: E402
from l1lab.book.controls import wire  # noqa: E402
from l1lab.book.live import figure_axes  # noqa: E402


def _figure(a=1.0, kind="line", n=3, show=True, level=0.5, fig=None):
    if kind == "message":
        return f"nothing to draw for a = {a}"
    fig, ax = figure_axes(fig, (3.0, 2.0))
    x = np.arange(1, n + 2)
    ax.plot(x, a * x ** level, label="measured")
    if show:
        ax.axhline(a, color="k", ls="--", label="bound")
    ax.set_title(f"a = {a:g}: $\\|w^\\star\\|_0$ = {n}")
    ax.legend(loc="upper left", fontsize=7)
    return fig


def _demo(a=1.0, n=3, many=False):
    controls = dict(
        a=widgets.FloatLogSlider(value=a, base=10, min=-1, max=1, step=0.5, description="scale",
                                 readout_format=".2g"),
        kind=widgets.Dropdown(options=[("a line", "line"), ("a message", "message")], value="line",
                              description="what"),
        n=widgets.IntSlider(value=n, min=1, max=20 if many else 4, description="n"),
        show=widgets.Checkbox(value=True, description="bound"),
        level=widgets.SelectionSlider(options=[0.25, 0.5, 1.0], value=0.5, description="exponent"),
    )
    return wire(controls, _figure, [list(controls)])


def test_controls_are_read_from_the_live_widget():
    specs = static.plan(_demo(), {"a": (0.1, 1.0)})
    by = {s.name: s for s in specs}
    assert [s.name for s in specs] == ["a", "kind", "n", "show", "level"]
    assert (by["a"].kind, by["a"].label, by["a"].labels, by["a"].default) == ("range", "scale", ("0.1", "1"), 1)
    assert by["a"].options == 5                                  # 10^-1 ... 10^1 in half decades
    assert (by["kind"].kind, by["kind"].labels, by["kind"].values) == ("select", ("a line", "a message"),
                                                                       ("line", "message"))
    assert by["n"].values == (1, 2, 3, 4) and by["n"].default == 2 and by["n"].kind == "range"
    assert by["show"].kind == "checkbox" and by["show"].values == (False, True) and by["show"].default == 1
    assert by["level"].values == (0.25, 0.5, 1.0) and by["level"].default == 1
    for s in specs:                                  # every cheap control offers every position of the widget
        if s.name != "a":
            assert len(s.values) == s.options


def test_grid_errors_name_the_control_and_the_fix():
    with pytest.raises(ValueError, match="n has 20 positions: list the representative values"):
        static.plan(_demo(many=True), {"a": (1.0,)})
    with pytest.raises(ValueError, match=r"a=0\.2 is not a position of the live widget"):
        static.plan(_demo(), {"a": (0.2, 1.0)})
    with pytest.raises(ValueError, match="the live widget starts at 1.0, which grid= does not offer"):
        static.plan(_demo(), {"a": (0.1, 10.0)})
    with pytest.raises(ValueError, match="does not have"):
        static.plan(_demo(), {"b": (1,)})
    with pytest.raises(ValueError, match="more than max_frames=10"):
        static.plan(_demo(), {"a": (0.1, 1.0)}, max_frames=10)
    with pytest.raises(TypeError, match="box of a live demo"):
        static.plan(widgets.VBox([]), {})
    with pytest.raises(ValueError, match="name must be"):
        static.static_player(_demo(), {"a": (1.0,)}, name="a player")


def test_float_slider_positions_stop_at_the_maximum_and_reach_it():
    ctrl = widgets.FloatLogSlider(value=1.0, base=10, min=-1, max=np.log10(3.0), step=0.25)
    values, labels, kind = static._widget_positions(ctrl)
    assert kind == "range" and max(values) == pytest.approx(3.0) and all(v <= 3.0 + 1e-12 for v in values)
    assert len(values) == 7                                          # 0.1 ... 1.78 in quarter decades, and 3
    values, _, _ = static._widget_positions(widgets.FloatSlider(value=0.3, min=0.0, max=1.0, step=0.3))
    assert values == [0.0, 0.3, 0.6, 0.9, 1.0]


def test_a_start_off_the_slider_steps_is_a_position():
    specs = static.plan(_demo(a=0.2), {"a": (0.1, 0.2, 1.0)})
    assert specs[0].values == (0.1, 0.2, 1.0) and specs[0].default == 1 and specs[0].options == 6


def test_every_frame_is_the_live_figure_for_its_setting():
    demo = _demo()
    grid = {"a": (0.1, 1.0), "n": (2, 3), "level": (0.5, 1.0)}
    player = static.static_player(demo, grid, name="toy", caption="A toy.")
    assert player.n_frames == 2 * 2 * 2 * 2 * 2
    assert set(player.frames) == {k for k in np.ndindex(2, 2, 2, 2, 2)}
    # each frame: the widget's own figure function, moved to that setting (moving back redraws byte for byte)
    for key, frame in player.frames.items():
        setting = {c.name: c.values[i] for c, i in zip(player.controls, key)}
        again = demo.live.render(**setting)
        if setting["kind"] == "message":
            assert frame["png"] is None and frame["html"] == f"nothing to draw for a = {setting['a']}"
            continue
        assert frame["png"] == static.encode_frame(again)
        assert frame["sha"] == hashlib.sha256(frame["png"]).hexdigest()
        assert frame["alt"].startswith(f"Setting: scale = {'0.1' if setting['a'] == 0.1 else '1'}, what = a line")
        assert f"‖w^*‖_0 = {setting['n']}" in frame["alt"]            # the title's number, as plain text
    assert all(c.comm is None for c in demo.controls.values())       # the widget was closed once drawn
    pngs = [f["sha"] for f in player.frames.values() if f["png"] is not None]
    assert len(set(pngs)) == len(pngs)                               # every control changes the drawing
    assert player.key(a=0.1, show=False) == (0, 0, 1, 0, 0)
    with pytest.raises(ValueError, match="not offered"):
        player.key(a=10.0)


def test_the_html_is_self_contained_and_starts_at_the_live_start():
    player = static.static_player(_demo(), {"a": (0.1, 1.0), "n": (3,)}, name="toy")
    assert repr(player) == f"<static player 'toy': 24 frames, {player.n_bytes / 1e3:.0f} kB>"   # not the bytes
    page = player.html()
    blob = re.search(r'<script type="application/json" class="l1lab-player-data">(.*?)</script>', page, re.S).group(1)
    manifest = json.loads(blob)
    assert [c["name"] for c in manifest["controls"]] == ["a", "kind", "n", "show", "level"]
    assert len(manifest["frames"]) == player.n_frames
    start = "-".join(str(c["default"]) for c in manifest["controls"])
    assert manifest["frames"][start]["src"] in page.split(blob)[1]   # the first image is the live start
    assert "http://" not in page and "https://" not in page         # no external script, style or font
    assert page.count('type="range"') == 3 and page.count("<select") == 1 and page.count('type="checkbox"') == 1
    assert 'disabled title="one value here' in page                  # n: one value offered
    assert "Precomputed: every position of the other controls; representative values of scale, n" in page


def test_a_range_slider_offers_the_listed_ranges():
    controls = dict(s=widgets.IntRangeSlider(value=(2, 5), min=1, max=10, description="s"))
    demo = wire(controls, lambda s, fig=None: _figure(a=float(s[1] - s[0]), fig=fig), [["s"]])
    with pytest.raises(ValueError, match="range slider"):
        static.plan(demo, {})
    with pytest.raises(ValueError, match="not within"):
        static.plan(demo, {"s": [(2, 5), (0, 3)]})
    (spec,) = static.plan(demo, {"s": [(1, 10), (2, 5)]})
    assert spec.kind == "select" and spec.labels == ("1–10", "2–5") and spec.default == 1


def test_frame_text_reads_the_titles_as_plain_text():
    fig = _figure(a=2.0, n=7)
    fig.suptitle(r"$\lambda = 0.1$, $\eta \le 2$")
    assert static.frame_text(fig) == "λ = 0.1, η ≤ 2; a = 2: ‖w^*‖_0 = 7"


def _faulty_figure(a=1.0, fault="none", fig=None):
    if fault == "message":
        return f"ValueError: a = {a} is out of range"
    fig, ax = figure_axes(fig, (3.0, 2.0))
    if fault == "exception text":
        ax.text(0.1, 0.5, f"ZeroDivisionError: a = {a}")
    else:
        ax.plot([1, 2], [a, 2 * a], color="C0", ls="--" if fault == "dashed" else "-", label="SCD: mean")
        ax.legend()
    return fig


@pytest.mark.parametrize("fault, message", [("exception text", "exception text in the figure"),
                                            ("dashed", "a measured curve drawn '--'"),
                                            ("message", "the frame shows exception text")])
def test_a_frame_that_shows_an_error_or_breaks_the_style_fails_the_player(fault, message):
    """A frame is a figure that follows the book's conventions: a frame whose figure shows an exception's text,
    breaks the style rules, or is an error message instead of a figure stops the player (and so the build), and
    the message names the frame."""
    def demo(fault_value):
        controls = dict(a=widgets.FloatSlider(value=1.0, min=1.0, max=2.0, step=1.0, description="a"),
                        fault=widgets.Dropdown(options=sorted({"none", fault_value}), value="none",
                                               description="fault"))
        return wire(controls, _faulty_figure, [list(controls)])

    with pytest.raises(ValueError, match=f"player 'faulty', frame .*fault = {fault}"):
        try:
            static.static_player(demo(fault), name="faulty")
        except ValueError as err:
            assert message in str(err)
            raise
    assert static.static_player(demo("none"), name="faulty").n_frames == 2


def test_a_live_notebook_skips_the_frames_and_the_build_draws_them(monkeypatch):
    """In an IPython kernel (a live notebook) the player checks its grid, keeps its controls and draws no frame:
    the live demo beside it is the same demo.  With ``$L1LAB_DRAW_PLAYERS=1`` (the book's build) a kernel draws,
    and outside a kernel (a script, these tests) the player is drawn whatever the variable says."""
    grid = {"a": (0.1, 1.0), "n": (2, 3)}
    monkeypatch.delenv(static.DRAW_PLAYERS, raising=False)
    assert static.draws_frames()                                  # pytest runs outside a kernel
    drawn = static.static_player(_demo(), grid, name="kept")
    monkeypatch.setattr(static, "_in_kernel", lambda: True)
    assert not static.draws_frames()
    calls = []
    demo = _demo()
    monkeypatch.setattr(demo.live, "render", lambda **kw: calls.append(kw))
    live = static.static_player(demo, grid, name="skipped")
    assert not calls and live.frames == {} and not live.drawn
    assert [c.values for c in live.controls] == [c.values for c in drawn.controls]
    page = live.html()
    settings = math.prod(len(c.values) for c in drawn.controls)
    assert f"precomputed over {settings} settings" in page and "live demo" in page and "<img" not in page
    assert "not drawn" in repr(live)
    with pytest.raises(ValueError, match="grid="):                # the grid is still checked
        static.static_player(_demo(many=True), {"a": (0.1, 1.0)}, name="big")
    monkeypatch.setenv(static.DRAW_PLAYERS, "1")
    assert static.draws_frames()
    again = static.static_player(_demo(), grid, name="kept")
    assert again.drawn and again.n_frames == drawn.n_frames > 0


def test_the_build_asks_the_kernels_to_draw_the_players():
    from pathlib import Path
    text = (Path(__file__).resolve().parents[1] / "_ext" / "build_book.py").read_text(encoding="utf-8")
    assert f'os.environ["{static.DRAW_PLAYERS}"] = "1"' in text
