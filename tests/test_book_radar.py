"""l1lab.book.radar: the figures of the chapter "Strong convexity and sparsity together" at small budgets and at
the widgets' largest settings, the runs against direct solver calls, the weakly sparse vectors, the widgets'
construction and their range checks.

Nothing is timed here.  The number of trials only repeats a run, so the largest settings are run with one trial;
the defaults (d = 2000 with 5 trials, the paper's d = 40 000) run in the chapter itself
(``pytest --nbval-lax chapters/radar.ipynb``).
"""
import math
from types import SimpleNamespace

import matplotlib

matplotlib.use("Agg")
import ipywidgets  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from player_checks import assert_grid_fits  # noqa: E402

from l1lab.book import radar as W  # noqa: E402
from l1lab.book.live import png_bytes  # noqa: E402
from l1lab.book.static import encode_frame, static_player  # noqa: E402
from l1lab.data import radar as rd  # noqa: E402
from l1lab.solvers import dual_averaging as da  # noqa: E402
from l1lab.theory import agarwal2012 as th  # noqa: E402


# ---------------------------------------------------------------------------------------------- settings
def test_method_settings_are_the_chapters_choices():
    stream = rd.make_stream(300, seed=2)
    R1 = float(np.abs(stream.theta_star).sum())
    s = math.ceil(math.log(300))
    radar = W.method_settings("RADAR", stream, 4_000)
    assert (radar["R1"], radar["epochs"], radar["s"], radar["omega"], radar["c1"]) == (R1, "oracle", s, W.OMEGA, W.C1)
    assert radar["gamma"] == pytest.approx(1 / 3)
    assert radar["G"](2.0) == pytest.approx(th.example2_G(2.0, 1 / 3))
    assert radar["sigma"](2.0) == pytest.approx(th.example2_sigma(2.0, 1 / 3, 1.0, math.sqrt(0.5)))
    lam = th.rda_lambda(math.sqrt(0.5), 300, 4_000)
    assert W.method_settings("RDA", stream, 4_000) == dict(lam=lam, beta=W.RDA_BETA)
    assert W.method_settings("SGD", stream, 4_000) == dict(R1=R1, eta=pytest.approx(3.0), schedule="1/t")
    assert W.method_settings("EDA", stream, 4_000)["lam"] == lam
    const = W.method_settings("RADAR-CONST", stream, 4_000)
    assert const["epoch_length"] == math.ceil(4_000 / math.ceil(math.log(4_000))) == W.const_epoch_length(4_000)
    assert const["lam_constant"] == W.CONST_LAM
    assert W.default_const_epochs(20_000) == 10 and W.const_epoch_length(20_000) == 2_000
    assert W.const_epoch_length(10_000, 40) == 250
    with pytest.raises(ValueError, match="method must be one of"):
        W.method_settings("SMIDAS", stream, 100)
    with pytest.raises(ValueError, match="const_epochs"):
        W.const_epoch_length(100, 0)


def test_runs_are_the_solvers_runs_and_forked_runs_are_identical(monkeypatch):
    """A cached record is a direct call of the solver with method_settings; the forked path gives the same
    numbers as the serial one."""
    d, T = 200, 2_000
    stream = rd.make_stream(d, seed=1)
    kw = W.method_settings("RADAR", stream, T)
    direct = da.radar(stream, T, seed=1, n_checkpoints=W.N_CHECKPOINTS, **kw)
    rec = W.run_trial("RADAR", d, T, trial=1)
    np.testing.assert_array_equal(rec.error, direct.error)
    np.testing.assert_array_equal(rec.epoch_end, direct.epochs["end"])
    # lambda of the completed epochs from the run; of the running one from (9) and (12) at R_{K+1}
    np.testing.assert_array_equal(rec.lam_epochs[:-1], direct.epochs["lam"])
    K = direct.n_epochs
    R = kw["R1"] * 2 ** (-K / 2)
    T_i = th.epoch_length(R, K + 1, d, kw["s"], kw["gamma"], kw["G"](R), kw["sigma"](R), kw["omega"], kw["c1"])
    assert rec.lam_epochs[-1] == pytest.approx(th.schedule_lambda(R, T_i, K + 1, d, kw["s"], kw["gamma"], kw["G"](R),
                                                                  kw["sigma"](R), kw["omega"]))
    rda = da.rda(stream, T, **W.method_settings("RDA", stream, T), seed=1, n_checkpoints=W.N_CHECKPOINTS)
    np.testing.assert_array_equal(W.run_trial("RDA", d, T, trial=1).error, rda.error)
    keys = [W._key(m, 150, 1_500, 0.0, k, None, W.CONST_LAM) for m in ("RADAR", "SGD") for k in (5, 6)]
    monkeypatch.setattr(W, "_CACHE", {})
    serial = W._compute(keys)
    monkeypatch.setattr(W, "_CACHE", {})
    monkeypatch.setattr(W, "_PARALLEL_ABOVE", 0.0)
    forked = W._compute(keys)
    for a, b in zip(serial, forked):
        np.testing.assert_array_equal(a.error, b.error)
        np.testing.assert_array_equal(a.lam_epochs, b.lam_epochs)


# ---------------------------------------------------------------------------------------------- Figure 1
def test_figure1_small_budget():
    data = W.figure1_data(d=200, T=2_000, n_trials=2)
    assert set(data.curves) == set(W.METHODS) and data.s == 6 and data.norm2_sq == pytest.approx(3.0)
    for m, c in data.curves.items():
        assert c.error.shape == (2, c.iteration.size) and c.iteration[-1] == 2_000
        assert c.error[:, 0] == pytest.approx(data.norm2_sq)          # theta_0 = 0
        assert np.isfinite(c.slope())
    assert data.curves["RADAR"].n_epochs.min() >= 1 and np.all(data.curves["SGD"].n_epochs == 0)
    eda = data.curves["EDA"].records[0]
    assert np.all(eda.lam_epochs == th.rda_lambda(math.sqrt(0.5), 200, 2_000))
    const = data.curves["RADAR-CONST"].records[0]
    np.testing.assert_array_equal(const.epoch_end, W.const_epoch_length(2_000) * np.arange(1, const.epoch_end.size + 1))
    assert np.all(np.diff(const.lam_epochs) < 0)                     # lambda anneals with the radius
    lines = data.table()
    assert len(lines) == 5 and lines[0].startswith("RADAR") and "slope" in lines[0]
    for fn in (W.figure1a_figure, W.figure1b_figure):
        fig = fn(d=200, T=2_000, n_trials=2)
        assert isinstance(fig, Figure) and len(fig.axes) == 2
        assert fig.axes[0].get_xscale() == "log" and fig.axes[0].get_yscale() == "log"


def test_figure1_draws_the_output_the_theorems_bound_and_the_papers_iterate():
    """The upper panel of Figure 1 draws the error of each method's output (RADAR: the average of its last completed
    epoch, which stays at theta = 0 until the first epoch ends; RDA, SGD: the iterate) and RADAR's iterate beside
    it; the lower panel the iterates, as the paper draws them.  Slopes and finals are the output's."""
    data = W.figure1_data(d=200, T=2_000, n_trials=2, methods=W.FIGURE1A)
    rad = data.curves["RADAR"]
    np.testing.assert_array_equal(rad.mean, rad.error_output.mean(axis=0))
    np.testing.assert_array_equal(rad.iterate_mean, rad.error.mean(axis=0))
    assert rad.final == pytest.approx(float(rad.error_output[:, -1].mean()))
    first_end = min(r.epoch_end[0] for r in rad.records)
    before = rad.iteration < first_end
    np.testing.assert_allclose(rad.error_output[:, before], data.norm2_sq)       # the output is still 0
    for m in ("RDA", "SGD"):
        np.testing.assert_array_equal(data.curves[m].error_output, data.curves[m].error)
    fig = W.figure1a_figure(d=200, T=2_000, n_trials=2)
    top, bottom = fig.axes
    lines = {ln.get_label(): ln for ln in top.get_lines()}
    keep = rad.iteration > 0
    np.testing.assert_array_equal(lines["RADAR: output (average of its last epoch)"].get_ydata(), rad.mean[keep])
    np.testing.assert_array_equal(lines["RADAR: iterate θ_t"].get_ydata(), rad.iterate_mean[keep])
    low = {ln.get_label(): ln for ln in bottom.get_lines()}
    np.testing.assert_array_equal(low["RADAR: iterate θ_t"].get_ydata(), rad.iterate_mean)
    # the two slope guides are told apart, and drawn as theory (not solid)
    g1, g2 = lines["slope −1 guide: O(1/T)"], lines["slope −½ guide: O(1/√T)"]
    assert g1.get_linestyle() != g2.get_linestyle() and "-" != g1.get_linestyle() != "solid"
    weak = W.weak_sparsity_data(qs=(0.0,), d=200, T=5_000, n_trials=1)
    assert weak.final[0][0, -1] == W.run_trial("RADAR", 200, 5_000, trial=0).error_output[-1]
    assert weak.final_iterate[0][0, -1] == W.run_trial("RADAR", 200, 5_000, trial=0).error[-1]


def test_figure1_largest_live_settings_and_radar_wins_at_d_5000():
    lim = W.FIGURE1_LIMITS
    d, T = max(lim["d"]), max(lim["T"])
    fig = W.figure1a_figure(d=d, T=T, n_trials=1, live=True)
    assert len(fig.axes) == 2
    data = W.figure1_data(d=d, T=T, n_trials=1, methods=W.FIGURE1A, live=True)
    rad, rda, sgd = (data.curves[m] for m in W.FIGURE1A)
    assert rad.final < rda.final and rad.final < sgd.final
    assert rad.slope() < -0.75 < rda.slope()
    blim = W.FIGURE1B_LIMITS
    fig = W.figure1b_figure(d=max(blim["d"]), T=max(blim["T"]), n_trials=1, const_epochs=blim["const_epochs"][1],
                            const_lam=blim["const_lam"][0], live=True)
    assert len(fig.axes) == 2
    fig = W.figure1b_figure(d=100, T=min(lim["T"]), n_trials=1, const_epochs=blim["const_epochs"][0],
                            const_lam=blim["const_lam"][1], live=True)
    assert len(fig.axes) == 2


@pytest.mark.parametrize("demo,static", [("figure1a_demo", "FIGURE1A_STATIC"), ("figure1b_demo", "FIGURE1B_STATIC"),
                                          ("weak_sparsity_demo", "WEAK_STATIC")])
def test_static_grids_fit_the_live_widgets(monkeypatch, demo, static):
    """The chapters' players: every listed value is a position of the live widget at its real start (the widget
    is built without its first draw), the start is offered, the cheap controls offer all their positions, and the
    grid stays within the frame budget."""
    monkeypatch.setattr(W, "wire", lambda controls, show, rows: SimpleNamespace(controls=controls, live=show))
    box = getattr(W, demo)(ahead=False)
    grid = getattr(W, static)["grid"]
    assert_grid_fits(box, grid, frames=(5, 40))
    assert getattr(W, static)["name"].startswith("radar-")


@pytest.mark.parametrize("demo,small,grid,n", [
    ("figure1a_demo", dict(d=100, T=2_000, n_trials=1), dict(d=(100, 200), T=(2_000,), n_trials=(1,)), 2),
    ("figure1b_demo", dict(d=100, T=2_000, n_trials=1),
     dict(d=(100,), T=(2_000,), n_trials=(1,), const_epochs=(3, 8), const_lam=(W.CONST_LAM, 0.05 * 10 ** 1.3)), 4),
    ("weak_sparsity_demo", dict(d=200, T=5_000, n_trials=1),
     dict(highlight=(0.0, 0.5), d=(200,), T=(5_000,), n_trials=(1,)), 2),
])
def test_players_draw_the_live_figures_and_run_only_what_they_show(monkeypatch, demo, small, grid, n):
    """A small grid of each demo: distinct frames, each the PNG the live widget draws for its setting, and without
    the runs a live widget prepares ahead (other horizons, the other d)."""
    monkeypatch.setattr(W, "_CACHE", {})
    runs = _count_runs(monkeypatch)
    player = static_player(getattr(W, demo)(ahead=False, **small), grid, name="t")
    assert player.n_frames == n and len({f["sha"] for f in player.frames.values()}) == n
    assert {job[1] for job in runs} == set(grid["d"])
    assert {job[2] for job in runs} <= ({small["T"]} | set(W.weak_horizons(small["T"])))
    key = max(player.frames)
    setting = {c.name: c.values[i] for c, i in zip(player.controls, key)}
    box = getattr(W, demo)(ahead=False, **small)
    assert player.frames[key]["png"] == encode_frame(box.live.render(**setting))
    assert '"name":"t"' in player.html()


def test_figure1_range_errors():
    with pytest.raises(ValueError, match="d must be one of"):
        W.figure1a_figure(d=40_000, T=20_000, n_trials=3, live=True)
    with pytest.raises(ValueError, match="T must be one of"):
        W.figure1_data(d=100, T=3_000, live=True)
    with pytest.raises(ValueError, match="outside the demo's range"):
        W.figure1_data(d=100, T=2_000, n_trials=6, live=True)
    with pytest.raises(ValueError, match="const_lam"):
        W.figure1b_figure(d=100, T=2_000, n_trials=1, const_lam=5.0, live=True)
    with pytest.raises(ValueError, match="const_epochs"):
        W.figure1b_figure(d=100, T=2_000, n_trials=1, const_epochs=100, live=True)
    with pytest.raises(ValueError, match="d must be one of"):        # Figure 1(b)'s live range is smaller
        W.figure1b_figure(d=2_000, T=2_000, n_trials=1, live=True)
    with pytest.raises(ValueError, match="outside the demo's range"):
        W.figure1b_figure(d=100, T=2_000, n_trials=4, live=True)
    with pytest.raises(ValueError, match="method must be one of"):
        W.figure1_data(d=100, T=2_000, methods=("RADAR", "SMIDAS"))
    with pytest.raises(ValueError, match="n_trials"):
        W.figure1_data(d=100, T=2_000, n_trials=0)
    with pytest.raises(ValueError, match="T must be an integer"):
        W.figure1_data(d=100, T=10)


# ---------------------------------------------------------------------------------------------- Corollary 1
def test_capped_power_theta_and_corollary1_s():
    d = 400
    s = math.ceil(math.log(d))
    np.testing.assert_array_equal(W.capped_power_theta(d, 0.0, seed=3), rd.sparse_theta(d, seed=3))
    for q in (0.25, 0.5, 1.0):
        t = W.capped_power_theta(d, q, seed=3)
        mags = np.sort(np.abs(t))[::-1]
        assert float(t @ t) == pytest.approx(s / 2) and np.count_nonzero(t) == d
        np.testing.assert_allclose(mags[:s], mags[0])                                  # the flat top
        np.testing.assert_allclose(mags[s:s + 3] / mags[0], (np.arange(s + 1, s + 4) / s) ** (-1 / q))
    # the s of the proof: the number of nonzeros for q = 0, and growing like T^(q/2) otherwise
    assert W.corollary1_s(W.capped_power_theta(d, 0.0), 0.0, 1_000) == s
    t = W.capped_power_theta(d, 1.0, seed=0)
    s1, s4 = W.corollary1_s(t, 1.0, 1_000), W.corollary1_s(t, 1.0, 16_000)
    assert s4 / s1 == pytest.approx(4.0, rel=0.05)
    Rq = th.lq_radius(t, 1.0)
    tau2 = 10 * 0.5 * (1 + 1 / math.log(d)) * math.log(d) * 9 / 1_000
    assert s1 == math.ceil(Rq / math.sqrt(tau2))
    with pytest.raises(ValueError, match="q must be"):
        W.capped_power_theta(d, 1.5)
    assert W.weak_horizons(20_000) == (1250, 2500, 5000, 10000, 20000)


def test_weak_sparsity_small_and_largest_settings():
    data = W.weak_sparsity_data(qs=(0.0, 1.0), d=200, T=5_000, n_trials=1)
    assert data.Ts == W.weak_horizons(5_000) and data.final[0].shape == (1, 5)
    assert data.theory.tolist() == [-1.0, -0.5]
    assert data.s_used[0].tolist() == [6] * 5 and np.all(np.diff(data.s_used[1]) > 0)
    fig = W.weak_sparsity_figure(qs=(0.0, 1.0), d=200, T=5_000, n_trials=1)
    assert isinstance(fig, Figure) and len(fig.axes) == 2
    lim = W.WEAK_LIMITS
    fig = W.weak_sparsity_figure(highlight=0.35, d=max(lim["d"]), T=max(lim["T"]), n_trials=1, live=True)
    assert len(fig.axes) == 2
    big = W.weak_sparsity_data(qs=W.WEAK_QS + (0.35,), d=max(lim["d"]), T=max(lim["T"]), n_trials=1, live=True)
    slopes = big.slopes()
    assert slopes[0] < -0.8 and slopes[W.WEAK_QS.index(1.0)] > -0.6        # the rate slows down as q grows


def test_weak_sparsity_range_errors():
    with pytest.raises(ValueError, match="q"):
        W.weak_sparsity_data(qs=(1.5,), d=200, T=5_000, n_trials=1)
    with pytest.raises(ValueError, match="empty"):
        W.weak_sparsity_data(qs=())
    with pytest.raises(ValueError, match="d must be one of"):
        W.weak_sparsity_figure(d=1_000, live=True)
    with pytest.raises(ValueError, match="q"):
        W.weak_sparsity_figure(highlight=-0.1, d=200, T=5_000, n_trials=1)


# ---------------------------------------------------------------------------------------------- widgets
def test_demos_construct_and_check_their_ranges():
    box = W.figure1a_demo(d=100, T=2_000, n_trials=1)
    assert isinstance(box, ipywidgets.VBox) and set(box.controls) == {"d", "T", "n_trials"}
    assert box.controls["d"].options == W.FIGURE1_LIMITS["d"]
    box = W.figure1b_demo(d=100, T=2_000, n_trials=1)
    assert set(box.controls) == {"d", "T", "n_trials", "const_epochs", "const_lam"}
    assert box.controls["const_epochs"].value == W.default_const_epochs(2_000)
    box = W.weak_sparsity_demo(d=200, T=5_000, n_trials=1, highlight=0.5)
    assert set(box.controls) == {"highlight", "d", "T", "n_trials"}
    with pytest.raises(ValueError, match="d must be one of"):
        W.figure1a_demo(d=40_000)
    with pytest.raises(ValueError, match="outside the demo's range"):
        W.figure1b_demo(d=100, T=2_000, n_trials=1, const_lam=2.0)
    with pytest.raises(ValueError, match="highlight must be one of"):
        W.weak_sparsity_demo(highlight=0.35)                         # the slider runs over the grid WEAK_QS
    with pytest.raises(ValueError, match="T must be one of"):
        W.weak_sparsity_demo(T=1_000)


# ---------------------------------------------------------------------------------------------- live redraws
def _count_runs(monkeypatch):
    """Count the runs computed from now on (serially, so that the counter sees them)."""
    runs = []
    run = W._run_job
    monkeypatch.setattr(W, "_PARALLEL_ABOVE", math.inf)
    monkeypatch.setattr(W, "_run_job", lambda job, *source: runs.append(job) or run(job, *source))
    return runs


def test_live_figure1_runs_every_horizon_and_fewer_trials_are_a_prefix(monkeypatch):
    """A live Figure 1 runs every horizon of the T slider, so a move of T computes nothing, and its records are
    those of a fresh run at that T; the first n trials of a larger run are, bit for bit, n trials run fresh."""
    monkeypatch.setattr(W, "_CACHE", {})
    d = 100
    live = W.figure1_data(d=d, T=5_000, n_trials=3, methods=W.FIGURE1A, live=True)
    runs = _count_runs(monkeypatch)
    for T in W.FIGURE1_LIMITS["T"]:
        for n in (1, 2, 3):
            W.figure1a_figure(d=d, T=T, n_trials=n, live=True)
    assert runs == []
    shown = {T: W.figure1_data(d=d, T=T, n_trials=2, methods=W.FIGURE1A, live=True) for T in (2_000, 10_000)}
    monkeypatch.setattr(W, "_CACHE", {})
    for T, data in shown.items():
        fresh = W.figure1_data(d=d, T=T, n_trials=2, methods=W.FIGURE1A)
        for m in W.FIGURE1A:
            np.testing.assert_array_equal(data.curves[m].error, fresh.curves[m].error)
            np.testing.assert_array_equal(data.curves[m].iteration, fresh.curves[m].iteration)
    monkeypatch.setattr(W, "_CACHE", {})
    two = W.figure1_data(d=d, T=5_000, n_trials=2, methods=W.FIGURE1A)
    for m in W.FIGURE1A:
        np.testing.assert_array_equal(live.curves[m].error[:2], two.curves[m].error)
        np.testing.assert_array_equal(live.curves[m].error_output[:2], two.curves[m].error_output)
    assert len(runs) == 2 * 3 * 2 + 3 * 2                  # the fresh runs only (2 horizons, then 5000)


def test_live_figure1b_redraws_in_place_and_back():
    box = W.figure1b_demo(d=100, T=2_000, n_trials=1)
    first, fig = box.image.value, box.live.fig
    for name, value in (("const_epochs", 9), ("const_lam", 0.5), ("T", 5_000), ("n_trials", 2)):
        ctrl = box.controls[name]
        start = ctrl.value
        ctrl.value = value
        assert box.live.fig is fig
        values = {k: c.value for k, c in box.controls.items()}
        assert box.image.value == png_bytes(box.live.figure_fn(**values))   # fixed margins: the same pixels
        ctrl.value = start
        assert box.image.value == first


def test_weak_sparsity_highlight_and_d_are_lookups(monkeypatch):
    monkeypatch.setattr(W, "_CACHE", {})
    box = W.weak_sparsity_demo(d=200, T=5_000, n_trials=1, highlight=0.5)
    assert box.controls["highlight"].options == W.WEAK_QS
    first = box.image.value
    runs = _count_runs(monkeypatch)
    for q in W.WEAK_QS:
        box.controls["highlight"].value = q
    assert runs == []
    box.controls["highlight"].value = 0.5
    assert box.image.value == first
    box.controls["d"].value = 500                                  # the other d was computed with the first
    assert runs == []
    box.controls["T"].value = 10_000           # shares 625, ..., 5000 with the horizons of 5000: runs 10 000 only
    assert {job[2] for job in runs} == {10_000} and {job[1] for job in runs} == set(W.WEAK_LIMITS["d"])
    assert len(runs) == len(W.WEAK_QS) * len(W.WEAK_LIMITS["d"])


# ---------------------------------------------------------------------------------------------- readability
def _texts(fig):
    for ax in fig.axes:
        yield ax.title
        yield ax.xaxis.label
        yield ax.yaxis.label
        yield from ax.get_xticklabels() + ax.get_yticklabels()
        leg = ax.get_legend()
        if leg is not None:
            yield from leg.get_texts()
            yield leg.get_title()


@pytest.mark.parametrize("live", [False, True])
def test_figures_fit_the_page_and_their_text_is_readable(live):
    """The static figures (and the live ones) are at most 8 inches wide, their two panels stacked, and no text is
    smaller than 9 pt."""
    figs = [W.figure1a_figure(d=100, T=2_000, n_trials=1, live=live),
            W.figure1b_figure(d=100, T=2_000, n_trials=1, live=live),
            W.weak_sparsity_figure(qs=(0.0, 1.0), d=200, T=5_000, n_trials=1, live=live)]
    for fig in figs:
        width, height = fig.get_size_inches()
        assert width <= 8.0 and height <= 8.0
        fig.draw_without_rendering()                     # the layout engine places the axes
        top, bottom = (ax.get_position() for ax in fig.axes)
        assert top.y0 > bottom.y1 and top.width == pytest.approx(bottom.width, rel=0.05)   # stacked, full width
        sizes = [t.get_fontsize() for t in _texts(fig) if t.get_text()]
        assert sizes and min(sizes) >= 9


def test_paper_size_trials_are_shared_through_the_disk(tmp_path, monkeypatch):
    """Large trials are kept on disk (the two RADAR lectures draw the same ones in separate processes): a process
    that finds the file loads exactly the record another computed; a damaged file is ignored and recomputed."""
    rw_mod = W
    monkeypatch.setenv("L1LAB_DATA", str(tmp_path))
    monkeypatch.setattr(rw_mod, "_DISK_MIN_SIZE", 100 * 1_000)
    monkeypatch.setattr(rw_mod, "_CACHE", {})
    first = rw_mod.run_trial("RDA", 100, 1_000, trial=2)
    files = list(tmp_path.rglob("*.npz"))
    assert len(files) == 1 and files[0].relative_to(tmp_path).parts[0] == "radar-trials"
    rw_mod._CACHE.clear()
    again = rw_mod.run_trial("RDA", 100, 1_000, trial=2)
    assert again is not first and np.array_equal(again.error, first.error) and again.method == "RDA"
    files[0].write_bytes(b"not an archive")
    rw_mod._CACHE.clear()
    fresh = rw_mod.run_trial("RDA", 100, 1_000, trial=2)
    assert np.array_equal(fresh.error, first.error)
    assert rw_mod.run_trial("RDA", 99, 1_000, trial=2) is not None and len(list(tmp_path.rglob("*.npz"))) == 1


def test_the_runs_of_a_trial_draw_its_samples_once_and_equal_the_runs_alone(monkeypatch):
    """The runs of one trial (every method, two horizons, a weak-sparsity theta* too) computed together read one
    draw of the trial's samples (W._SharedSamples, in threads), and each is, bit for bit, the run computed alone
    from its own stream; a run that fails fails the whole job, without blocking the others."""
    draws = []
    stream = W._stream
    for q in (0.0, 0.5):
        keys = [W._key(m, 300, T, q, 1, None, W.CONST_LAM) for m in W.METHODS for T in (2_000, 5_000)]
        if q > 0:
            keys = [k for k in keys if k[0] == "RADAR"]
        monkeypatch.setattr(W, "_stream", lambda d, q, trial: _Counted(stream(d, q, trial), draws))
        draws.clear()
        together = W._run_trial_jobs(keys)
        assert len(draws) == math.ceil(5_000 / min(256, (1 << 21) // 300))   # the longest run's blocks, once
        monkeypatch.setattr(W, "_stream", stream)
        for key, rec in zip(keys, together):
            alone = W._run_job(key)
            assert rec.method == alone.method == key[0]
            for field in ("iteration", "error", "error_output", "epoch_end", "epoch_R", "lam_epochs"):
                np.testing.assert_array_equal(getattr(rec, field), getattr(alone, field))
    run = W._run_job

    def failing(job, *source):
        if job[0] == "SGD":
            raise ZeroDivisionError("a run that fails")
        return run(job, *source)

    monkeypatch.setattr(W, "_run_job", failing)
    with pytest.raises(ZeroDivisionError, match="a run that fails"):
        W._run_trial_jobs([W._key(m, 200, 3_000, 0.0, 0, None, W.CONST_LAM) for m in W.FIGURE1A])


class _Counted:
    """A stream whose draws are counted (the samples themselves unchanged)."""

    def __init__(self, stream, draws):
        self.stream, self.draws = stream, draws
        self.d, self.theta_star, self.B, self.noise_var = stream.d, stream.theta_star, stream.B, stream.noise_var

    def __call__(self, rng, n):
        self.draws.append(n)
        return self.stream(rng, n)
