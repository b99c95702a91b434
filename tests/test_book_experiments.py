"""l1lab.book.experiments: the figures of Section 4 on a tiny sweep of the offline stand-ins, the widget's
construction, range checks, the stand-in labels on every figure, and the claim criteria on constructed traces
(a claim that holds and the same claim that does not).

Nothing is timed.  The tiny sweep has a fraction of a pass over X per run and a three-value step-size grid, so the
numbers mean nothing; the tests check the mechanics, the criteria are checked on traces made up for them.
"""
import io
import math

import matplotlib

matplotlib.use("Agg")
import ipywidgets  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
import scipy.sparse as sp  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.text import Text  # noqa: E402

from l1lab.book import experiments as W  # noqa: E402
from l1lab.book.live import png_bytes  # noqa: E402
from l1lab.book.static import plan  # noqa: E402
from l1lab.book.style import style_problems  # noqa: E402
from l1lab.data.real import PAPER_DATASETS, offline_standin  # noqa: E402
from l1lab.experiments import Sweep, SweepRecord, SweepTask  # noqa: E402
from l1lab.trace import Result, Trace  # noqa: E402

GRID = (1e-2, 1e-1, 1.0)
BUDGET = dict(epochs=0.2, n_seeds=2, n_checkpoints=6, etas=GRID)


@pytest.fixture(scope="module")
def standins():
    return {name: offline_standin(name) for name in PAPER_DATASETS}


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    return tmp_path_factory.mktemp("sweeps")


@pytest.fixture(scope="module")
def tiny(standins, cache):
    return W.experiment_data(datasets=standins, cache_dir=cache, n_jobs=1, progress=False, **BUDGET)


def _title(fig):
    return fig._suptitle.get_text().replace("\n", " ")


# ---------------------------------------------------------------------------------------------- data
def test_tiny_sweep_chooses_eta_by_grid_and_runs_seeds(tiny):
    assert tiny.names == PAPER_DATASETS and tiny.lams == (1e-6, 1e-2)
    for ds in tiny.names:
        for lam in tiny.lams:
            for s in ("smidas", "truncgrad"):
                grid = tiny.grid(ds, s, lam)
                assert grid == list(GRID)
                finals = [tiny.tuning.final_objective(ds, s, lam, e) for e in grid]
                assert tiny.eta(ds, s, lam) == grid[int(np.argmin(finals))]
                assert tiny.runs(ds, s, lam).n_seeds == 2
            assert tiny.runs(ds, "scd", lam).n_seeds == 2
            assert tiny.runs(ds, "gcd", lam).n_seeds == 1          # deterministic: one run
    assert "offline stand-in for DUKE" in tiny.eta_table()


def test_second_call_hits_the_caches(tiny, standins, cache):
    assert W.experiment_data(datasets=standins, cache_dir=cache, n_jobs=1, progress=False, **BUDGET) is tiny
    W._DATA_CACHE.clear()
    again = W.experiment_data(datasets=standins, cache_dir=cache, n_jobs=1, progress=False, **BUDGET)
    assert again.n_computed == 0 and again.n_cached > 0                 # every run read from disk


def test_paper_datasets_offline_are_labelled_standins(monkeypatch, tmp_path):
    monkeypatch.setenv("L1LAB_OFFLINE", "1")
    monkeypatch.setenv("L1LAB_DATA", str(tmp_path))
    monkeypatch.setattr(W, "_DATASETS_CACHE", {})
    data = W.paper_datasets()
    assert tuple(data) == PAPER_DATASETS
    for name, ds in data.items():
        assert ds.offline and ds.label.startswith(f"offline stand-in for {name.upper()}")
        assert "L1LAB_OFFLINE" in ds.info["unavailable"]
    assert sp.issparse(data["arcene"].X)                            # 54 % dense: stored sparse
    assert not sp.issparse(data["duke"].X)


def test_prepare_dataset_keeps_values(standins):
    a = standins["arcene"]
    b = W.prepare_dataset(a)
    assert sp.issparse(b.X) and b.nnz == a.nnz and np.array_equal(b.X.toarray(), a.X)
    assert b.label == a.label and b.offline
    assert W.prepare_dataset(standins["duke"]) is standins["duke"]  # fully dense: unchanged


# ---------------------------------------------------------------------------------------------- figures
def test_every_figure_names_the_data_used(tiny):
    for (ds, lam), k in W.FIGURES.items():
        fig = W.experiment_figure(ds, lam, data=tiny)
        assert isinstance(fig, Figure) and len(fig.axes) == 2
        title = _title(fig)
        assert f"Figure {k} of the paper" in title
        assert tiny.label(ds) in title and "offline stand-in for" in title
        texts = [t.get_text() for t in fig.axes[0].texts]
        assert any(t.startswith(f"OFFLINE STAND-IN for {ds.upper()}") for t in texts)
        assert fig.axes[0].get_xscale() == "log" and fig.axes[0].get_yscale() == "linear"
        legend = [t.get_text() for t in fig.legends[0].get_texts()]
        assert sum("chosen by grid" in t for t in legend) == 2
        assert any(t.startswith("minimum P*") for t in legend) == (lam >= 1e-3)   # the optimum at lambda = 1e-2
    fig.savefig(io.BytesIO(), format="png", dpi=40)                 # the layout draws


def test_figure_with_budget_arguments(standins, cache):
    fig = W.experiment_figure("magic04s", 1e-2, datasets={"magic04s": standins["magic04s"]}, cache_dir=cache,
                              epochs=0.2, n_seeds=1, n_checkpoints=6, etas=(0.1, 1.0))
    assert "offline stand-in for MAGIC04S" in _title(fig)


def test_other_eta_runs_its_seeds(tiny):
    chosen = tiny.eta("magic04d", "smidas", 1e-2)
    other = next(e for e in GRID if e != chosen)
    fig = W.experiment_figure("magic04d", 1e-2, eta_smidas=other, data=tiny)
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert any(f"η = {other:g} (grid choice {chosen:g})" in t for t in legend)
    assert tiny.runs("magic04d", "smidas", 1e-2, other).n_seeds == 2


def test_eta_figure(tiny):
    fig = W.eta_figure(data=tiny)
    assert len(fig.axes) == 4 and all(ax.get_xscale() == "log" for ax in fig.axes)
    for ax, ds in zip(fig.axes, tiny.names):                        # 2 x 2 panels, each names its data
        assert ax.get_title() == f"{ds.upper()} (offline stand-in)"
    assert fig.legends and "Table 1" in _title(fig)


def test_overview_figure(tiny):
    for lam, first in ((1e-6, 1), (1e-2, 5)):
        fig = W.overview_figure(lam, data=tiny)
        assert len(fig.axes) == 8
        titles = [ax.get_title(loc="left") for ax in fig.axes[::2]]
        assert titles == [f"paper's Fig. {first + k}: {ds.upper()} (offline stand-in)"
                          for k, ds in enumerate(tiny.names)]
        assert "all on offline stand-ins" in _title(fig)
        legend = [t.get_text() for t in fig.legends[0].get_texts()]
        assert {"SCD", "GCD", "SMIDAS", "TruncGrad"} <= set(legend)
        assert ("minimum P*" in legend) == (lam >= 1e-3)
        assert style_problems(fig) == []
    with pytest.raises(ValueError, match="lam"):
        W.overview_figure(1e-3, data=tiny)


def _texts(fig):
    return [t for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip()]


def test_figures_fit_the_page_and_are_readable(tiny):
    """At most 8 inches wide, no text smaller than 9 points (the figure is drawn first: the tick labels exist)."""
    figs = [W.experiment_figure("duke", 1e-2, data=tiny), W.experiment_figure("arcene", 1e-6, data=tiny, live=True),
            W.overview_figure(1e-2, data=tiny), W.eta_figure(data=tiny)]
    for fig in figs:
        fig.savefig(io.BytesIO(), format="png", dpi=40)
        assert fig.get_size_inches()[0] <= 8.0
        small = [(t.get_text()[:30], t.get_fontsize()) for t in _texts(fig) if t.get_fontsize() < W.MIN_FONT]
        assert not small, small
        assert style_problems(fig) == []


def test_figure_range_errors(tiny):
    with pytest.raises(ValueError, match="dataset"):
        W.experiment_figure("rcv1", 1e-6, data=tiny)
    with pytest.raises(ValueError, match="lam"):
        W.experiment_figure("duke", 1e-3, data=tiny)
    with pytest.raises(ValueError, match="grid"):
        W.experiment_figure("duke", 1e-6, eta_smidas=0.3, data=tiny)
    with pytest.raises(ValueError, match="range"):
        W.experiment_figure("duke", 1e-6, epochs=1000.0)
    with pytest.raises(ValueError, match="range"):
        W.experiment_figure("duke", 1e-6, n_seeds=10)
    with pytest.raises(ValueError, match="either data or budget"):
        W.experiment_figure("duke", 1e-6, data=tiny, epochs=1.0)
    with pytest.raises(ValueError, match="no step size"):
        tiny.runs("duke", "gcd", 1e-6, eta=1.0)


# ---------------------------------------------------------------------------------------------- widget
def test_demo_widget(tiny):
    box = W.experiment_demo(data=tiny)
    assert isinstance(box, ipywidgets.VBox)
    c = box.controls
    assert set(c) == {"dataset", "lam", "eta_smidas", "eta_truncgrad"}
    assert c["eta_smidas"].value == tiny.eta("duke", "smidas", 1e-6)
    assert [v for _, v in c["eta_truncgrad"].options] == list(GRID)
    assert sum("(chosen)" in lbl for lbl, _ in c["eta_smidas"].options) == 1
    c["lam"].value = 1e-2
    c["dataset"].value = "magic04s"                                 # the sliders jump to the new choice
    assert c["eta_smidas"].value == tiny.eta("magic04s", "smidas", 1e-2)
    assert c["eta_truncgrad"].value == tiny.eta("magic04s", "truncgrad", 1e-2)


def test_experiment_player_offers_the_chosen_steps_and_their_neighbours(tiny):
    """The chapter's player on the tiny sweep: DUKE at lambda = 1e-2, each step size at the chosen value and its
    grid neighbours (the chosen one is the start), the data set and lambda shown but fixed."""
    specs = {s.name: s for s in plan(W.experiment_demo("duke", 1e-2, data=tiny), W.EXPERIMENT_STATIC["grid"])}
    assert specs["dataset"].values == ("duke",) and specs["lam"].values == (1e-2,)
    player = W.experiment_player(data=tiny, grid=dict(dataset=("duke",), lam=(1e-2,), eta_truncgrad=(
        tiny.eta("duke", "truncgrad", 1e-2),)), name="t")
    smidas = next(c for c in player.controls if c.name == "eta_smidas")
    chosen = tiny.eta("duke", "smidas", 1e-2)
    k = GRID.index(chosen)
    assert smidas.values == GRID[max(k - 1, 0):k + 2] and smidas.values[smidas.default] == chosen
    assert player.n_frames == len(smidas.values) and len({f["sha"] for f in player.frames.values()}) == player.n_frames
    html = player.html()
    assert 'data-l1lab-player="t"' in html and "l1lab-player-data" in html and "(chosen)" in html


def test_demo_draws_once_per_move_in_place(tiny, monkeypatch):
    """A move of the data set or lambda (which resets both step-size sliders) draws one figure, the final one,
    into the same Figure; moving back shows the first frame byte for byte."""
    box = W.experiment_demo(data=tiny)
    first, fig = box.image.value, box.live.fig
    calls = []
    draw = W.experiment_figure

    def counted(*args, **kw):
        calls.append((args, kw.get("fig")))
        return draw(*args, **kw)

    monkeypatch.setattr(W, "experiment_figure", counted)
    c = box.controls
    for name, value in (("dataset", "arcene"), ("lam", 1e-2), ("eta_smidas", GRID[0]), ("dataset", "duke"),
                        ("lam", 1e-6)):
        calls.clear()
        c[name].value = value
        assert len(calls) <= 1, f"moving {name} drew {len(calls)} figures"
        if calls:
            args, used = calls[0]
            assert args[:2] == (c["dataset"].value, c["lam"].value) and used is fig
        assert box.live.fig is fig
    assert (c["eta_smidas"].value, c["eta_truncgrad"].value) == (tiny.eta("duke", "smidas", 1e-6),
                                                                 tiny.eta("duke", "truncgrad", 1e-6))
    assert box.image.value == first
    fresh = draw("duke", 1e-6, data=tiny, live=True)
    assert png_bytes(fresh) == first                      # the frame shown is the figure drawn fresh
    np.testing.assert_allclose([ax.get_position().bounds for ax in fig.axes],
                               [ax.get_position().bounds for ax in fresh.axes], atol=2e-3)


def test_demo_range_errors(tiny):
    with pytest.raises(ValueError, match="dataset"):
        W.experiment_demo(dataset="ccat", data=tiny)
    with pytest.raises(ValueError, match="lam"):
        W.experiment_demo(lam=0.5, data=tiny)
    with pytest.raises(ValueError, match="range"):
        W.experiment_demo(epochs=1e4)
    with pytest.raises(ValueError, match="range"):
        W.experiment_demo(n_checkpoints=2)


# ---------------------------------------------------------------------------------------------- claims
def test_claims_on_the_tiny_sweep(tiny):
    results = W.evaluate_claims(tiny)
    assert [r.key for r in results] == [c.key for c in W.CLAIMS] and len(results) == 20
    for r in results:
        assert r.held in (True, False, None) and r.numbers and r.numbers != "—"
        assert r.verdict in ("held", "not held", "undecided")        # every figure is in the sweep
        assert (r.note == "") == (r.held is True)                    # a sentence exactly where ours differ
    md = W.claims_markdown(results)
    assert len(md.splitlines()) == 2 + len(results)
    assert "**held**" in md or "**not held**" in md
    text = W.format_claims(results)
    assert "of 20 claims evaluated hold" in text
    with pytest.raises(ValueError, match="unknown criteria"):
        W.evaluate_claims(tiny, criteria={"slack": 1.0})


def _record(ds, solver, lam, eta, seed, objective, nnz, d):
    n = len(objective)
    trace = Trace(iteration=np.arange(n), data_accesses=10.0 ** np.arange(n) - 1.0,
                  objective=np.asarray(objective, dtype=float), nnz=np.asarray(nnz, dtype=float),
                  seconds=np.zeros(n))
    w = np.zeros(d)
    w[: int(nnz[-1])] = 1.0
    task = SweepTask(ds, solver, lam, eta, seed, n - 1)
    return SweepRecord(task, Result(w=w, trace=trace), key=f"{ds}-{solver}-{lam}-{eta}-{seed}", cached=False)


def _constructed(smidas_end, truncgrad_end, truncgrad_nnz=100, lam=1e-6, optima=None, scd_end=0.35):
    """MAGIC04D, one lambda (1e-6 by default), with made-up traces: P(0) = log 2 and the given final objectives;
    ``optima`` gives the figure its minimum P* ({(data set, lambda): (P*, ||w*||_0)})."""
    p0, d = math.log(2.0), 100
    curves = {"scd": [p0, 0.5, 0.4, scd_end], "gcd": [p0, 0.65, 0.6, 0.55],
              "smidas": [p0, 0.6, 0.45, smidas_end], "truncgrad": [p0, 0.65, 0.5, truncgrad_end]}
    nnz = {"scd": [0, 5, 10, 10], "gcd": [0, 1, 2, 3], "smidas": [0, 5, 8, 8],
           "truncgrad": [0, 50, 90, truncgrad_nnz]}
    records = []
    for s, obj in curves.items():
        eta = 0.1 if s in ("smidas", "truncgrad") else None
        records.append(_record("magic04d", s, lam, eta, None if s == "gcd" else 0, obj, nnz[s], d))
    meta = {"magic04d": {"label": "constructed traces", "offline": False, "fingerprint": "x", "shape": (10, d)}}
    return W.ExperimentData.from_sweeps(Sweep(records=records, datasets=meta), optima=optima or {})


def test_claim_holds_and_fails_on_constructed_traces():
    key = "smidas-much-better-magic04d"
    held = {r.key: r for r in W.evaluate_claims(_constructed(smidas_end=0.30, truncgrad_end=0.45))}
    assert held[key].held is True and held[key].note == ""
    # P_low = 0.30, P(0) - P_low = 0.393: TruncGrad's excess 38 %, SMIDAS's 0 %
    assert "SMIDAS 0.0 %" in held[key].numbers and "TruncGrad 38.2 %" in held[key].numbers
    assert held["gcd-slower-than-scd"].held is True                   # GCD 63.6 %, SCD 12.7 %

    swapped = {r.key: r for r in W.evaluate_claims(_constructed(smidas_end=0.45, truncgrad_end=0.30))}
    assert swapped[key].held is False
    assert swapped[key].note == "SMIDAS is much worse than TruncGrad."
    # a difference within the tie threshold is "about the same", not "much better"
    tie = {r.key: r for r in W.evaluate_claims(_constructed(smidas_end=0.30, truncgrad_end=0.305))}
    assert tie[key].held is False and "about the same" in tie[key].note
    # the claims about figures that are not in the sweep are not evaluated
    assert held["gcd-much-worse-duke"].held is None and "DUKE" in held["gcd-much-worse-duke"].note


def test_sparsity_criteria_on_constructed_traces():
    st = W.figure_stats(_constructed(0.30, 0.45, truncgrad_nnz=95), "magic04d", 1e-6)
    assert st.nnz == {"SCD": 10, "GCD": 3, "SMIDAS": 8, "TruncGrad": 95}
    assert st.nnz_effective["TruncGrad"] == 95
    assert st.p_star is None and all(math.isnan(v) for v in st.reach.values())     # no minimum: no time to it
    held, numbers, note = W.claim_truncgrad_dense_magic04d({("magic04d", 1e-2): st}, W.CRITERIA)
    assert held and "TruncGrad 95" in numbers and note == ""
    st.nnz["SMIDAS"] = 50
    held, _, note = W.claim_truncgrad_dense_magic04d({("magic04d", 1e-2): st}, W.CRITERIA)
    assert not held and note.startswith("SMIDAS also has more than 10 %")


def test_figure_of_real_data_has_no_standin_box():
    data = _constructed(0.30, 0.45)
    fig = W.experiment_figure("magic04d", 1e-6, data=data)
    assert "data actually used: constructed traces" in _title(fig)
    assert not any("OFFLINE" in t.get_text() for t in fig.axes[0].texts)
    with pytest.raises(ValueError, match="no data sets"):
        data.optimum("magic04d", 1e-6)


# ---------------------------------------------------------------------------------------------- the lecture's numbers
def test_lecture_numbers_and_tables(tiny):
    nums = W.lecture_numbers(tiny)
    for key in ("magic-m", "bc-pairs", "n-tuning", "n-seeded", "gcd-steps", "eta-rows", "n-held", "n-claims",
                "demo-eta", "demo-final", "ex-link-duke", "ex-cyclic-diff", "wstar-m4d"):
        assert key in nums
    for key, value in nums.items():                                 # glued as plain Python values
        assert type(value) in (int, float, str), (key, type(value))
    assert nums["n-claims"] == 20 and 0 <= nums["n-held"] <= 20
    assert nums["n-tuning"] == len({r.key for r in tiny.tuning.records})
    assert nums["gcd-steps"] == 1                                   # 0.2 passes: one GCD step
    assert nums["eta-rows"] == 8 and nums["eta-pairs"] == 8
    assert nums["p-duke"] == math.ceil(2 * math.log(7129)) and nums["p-magic"] == math.ceil(2 * math.log(1030))
    assert math.isclose(nums["ex-link-duke"] ** (nums["p-duke"] - 1), 1e-6)
    assert nums["demo-eta-down"] <= nums["demo-eta"] <= nums["demo-eta-up"]
    md = W.lecture_markdown(tiny, nums)
    assert md["data-note"].startswith("**The data on this page are offline stand-ins.**")
    assert len(md["eta-table"].split("\n\n")[0].splitlines()) == 2 + 8
    assert "DUKE\\*, 10⁻⁶ |" not in md["eta-table"] and "| DUKE*, 10⁻⁶ |" in md["eta-table"]
    assert len(md["claims-table"].splitlines()) == 2 + 20
    assert "where ours differ" not in md["claims-table"]
    assert len(md["effective-table"].split("\n\n")[0].splitlines()) == 2 + 8
    assert md["optimum-table"].count("| MAGIC04D*") == 1
    assert "verdict" in md["ex-threshold-answer"] and md["ex-cyclic-where"].startswith(tuple(n.upper()
                                                                                               for n in tiny.names))


def test_table_formats():
    f = W._fmt_table_eta
    assert [f(e) for e in (50.0, 1.0, 0.1, 5e-5, 1e-6, None)] == ["50", "1", "10⁻¹", "5·10⁻⁵", "10⁻⁶", "—"]


def test_time_to_the_minimum_is_measured_against_p_star():
    """"Reaching the minimum" is measured against P*, not against the lowest value seen: with P* below every curve
    nobody reaches it (the claims about it are undecided), although SMIDAS ends lowest."""
    key = ("magic04d", 1e-2)
    # P* = 0.299: SMIDAS (0.30) is within 1 % of the descent, SCD (0.35) is not
    st = W.figure_stats(_constructed(0.30, 0.45, lam=1e-2, optima={key: (0.299, 5)}), *key)
    assert st.p_star == 0.299 and st.p_low == 0.30
    assert st.reach["SMIDAS"] == 999.0 and math.isinf(st.reach["SCD"]) and math.isinf(st.reach["GCD"])
    assert math.isclose(st.above_min["SMIDAS"], 0.001 / (math.log(2.0) - 0.299))
    edge = "cd-edge-lost-magic04d"
    held = {r.key: r for r in W.evaluate_claims(_constructed(0.30, 0.45, lam=1e-2, optima={key: (0.299, 5)}))}
    assert held[edge].held is True and held[edge].verdict == "held"
    # P* = 0.2: SMIDAS ends lowest (it is P_low) but nobody reaches the minimum: undecided, not held
    low = {r.key: r for r in W.evaluate_claims(_constructed(0.30, 0.45, lam=1e-2, optima={key: (0.2, 5)}))}
    assert low[edge].held is None and low[edge].verdict == "undecided" and "no algorithm" in low[edge].note
    # SCD reaches the minimum and SMIDAS does not: not held
    scd = {r.key: r for r in W.evaluate_claims(_constructed(0.31, 0.45, lam=1e-2, scd_end=0.2995,
                                                            optima={key: (0.299, 5)}))}
    assert scd[edge].held is False and scd[edge].note
    # the figure's optimum is the one given
    data = _constructed(0.30, 0.45, lam=1e-2, optima={key: (0.299, 5)})
    assert data.optimum(*key) == (0.299, 5)
