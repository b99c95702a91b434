"""l1lab.widgets_smidas: the figures of the SMIDAS chapter at their defaults and at the widgets' largest settings,
the widgets' construction, and their range checks.

Nothing is timed here: the ranges in *_LIMITS keep the widgets fast, and running the largest settings keeps them
from silently growing.  The mathematical checks are the ones the chapter states: Theorem 3 holds for SMIDAS on
the demo, Proposition 4's bound holds, and SGD is dense while truncation is not.
"""
import matplotlib

matplotlib.use("Agg")
import ipywidgets  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from l1lab import widgets_smidas as W  # noqa: E402
from l1lab.experiments import SeedRuns  # noqa: E402


def _largest_bound():
    lim = W.SMIDAS_BOUND_LIMITS
    return dict(eta_mult=lim["eta_mult"][1], case="14", kind="dense", lam=lim["lam"][0], T=max(lim["T"]),
                n_seeds=lim["n_seeds"][1])


def _largest_magic():
    lim = W.MAGIC_COMPARISON_LIMITS
    return dict(lam=lim["lam"][0], T=max(lim["T"]), n_seeds=lim["n_seeds"][1])


# ---------------------------------------------------------------------------------------------- sparsity
def test_sparsity_figure_defaults():
    fig = W.sparsity_figure()
    assert isinstance(fig, Figure) and len(fig.axes) == 2
    data = W.sparsity_data()
    d = data.problem.d
    nnz = {name: np.count_nonzero(r.w) for name, r in data.results.items()}
    assert nnz["SGD"] == d                       # sub-gradient SGD is dense
    assert nnz["TruncGrad"] < d / 2 and nnz["SMIDAS"] < d / 2
    with pytest.raises(ValueError, match="kind"):
        W.sparsity_data(kind="medium")
    with pytest.raises(ValueError, match="eta"):
        W.sparsity_data(eta=0.0)


# ---------------------------------------------------------------------------------------------- link
@pytest.mark.parametrize("kw", [{}, dict(p=40.0, theta1=-1.0, theta2=1.0), dict(p=2.0, theta1=0.0, theta2=0.5)])
def test_link_figure(kw):
    fig = W.link_figure(**kw)
    assert len(fig.axes) == 2
    assert fig.axes[1].get_xscale() == "log"


def test_link_figure_out_of_range():
    with pytest.raises(ValueError, match="range"):
        W.link_figure(p=1.5)
    with pytest.raises(ValueError, match="range"):
        W.link_figure(theta1=2.0)


def test_link_demo_widget():
    box = W.link_demo()
    assert isinstance(box, ipywidgets.VBox)
    assert set(box.controls) == {"p", "theta1", "theta2"}
    assert box.controls["p"].value == pytest.approx(2 * np.log(310))
    with pytest.raises(ValueError, match="range"):
        W.link_demo(p=100.0)


# ---------------------------------------------------------------------------------------------- demo 1
def test_smidas_bound_defaults_theorem3_holds():
    fig = W.smidas_bound_figure()
    assert len(fig.axes) == 3
    assert fig.axes[0].get_xscale() == "log" and fig.axes[0].get_yscale() == "log"
    data = W.smidas_bound_data()
    assert set(data.runs) == {"SMIDAS", "TruncGrad", "SGD", "SCD"}
    assert all(isinstance(r, SeedRuns) for r in data.runs.values())
    assert data.runs["SMIDAS"].n_seeds == W.SMIDAS_BOUND_DEFAULTS["n_seeds"] >= 10
    assert data.eta == data.eta_prescribed
    # Theorem 3, case (13): the empirical mean of P(w_o) - P* is below the bound at every checkpoint
    assert np.all(data.ratio() >= 1.0)
    assert W.smidas_bound_data() is data          # cached


def test_smidas_bound_largest_settings():
    kw = _largest_bound()
    fig = W.smidas_bound_figure(**kw)
    assert len(fig.axes) == 3
    data = W.smidas_bound_data(**kw)
    assert data.runs["SMIDAS"].n_seeds == kw["n_seeds"] and data.runs["SMIDAS"].iteration[-1] == kw["T"]
    # 30 times Lemma 7's step size leaves (0, 1/a): the case-(14) bound is void (infinite), not negative
    assert np.all(np.isinf(data.bound))


def test_smidas_bound_errors_and_widget():
    with pytest.raises(ValueError, match="case"):
        W.smidas_bound_data(case="15")
    with pytest.raises(ValueError, match="eta_mult"):
        W.smidas_bound_data(eta_mult=-1.0)
    box = W.smidas_bound_demo()
    assert isinstance(box, ipywidgets.VBox)
    assert set(box.controls) == {"eta_mult", "case", "kind", "lam", "T", "n_seeds"}
    with pytest.raises(ValueError, match="range"):
        W.smidas_bound_demo(eta_mult=100.0)
    with pytest.raises(ValueError, match="range"):
        W.smidas_bound_demo(n_seeds=50)
    with pytest.raises(ValueError, match="T"):
        W.smidas_bound_demo(T=123)


def test_smidas_bound_sweep_html():
    html = W.smidas_bound_sweep([0.5, 2.0], T=2_000, n_seeds=2, dpi=30)
    assert "<script" in html and html.count("data:image/png;base64") == 2


# ---------------------------------------------------------------------------------------------- demo 2
def test_magic_comparison_defaults_sparse():
    data = W.magic_comparison_data("sparse")
    assert set(data.eta) == {"SMIDAS", "TruncGrad"}
    for name, rows in data.tuning.items():
        assert [r[0] for r in rows] == list(W.ETA_GRID)
        assert data.eta[name] == min(rows, key=lambda r: r[1])[0]
    assert 0.3 < data.bound_ratio < 3.0           # sparse examples: bounds (3) and (4) about even
    assert data.effective_nnz("SMIDAS") <= data.runs["SMIDAS"].nnz[:, -1].mean()


def test_magic_comparison_largest_settings():
    kw = _largest_magic()
    fig = W.magic_comparison_figure(kinds=("dense",), **kw)
    assert len(fig.axes) == 2
    data = W.magic_comparison_data("dense", **kw)
    assert data.bound_ratio > 5.0                 # dense examples: bound (3) (SMIDAS) much smaller
    assert data.runs["SMIDAS"].n_seeds == kw["n_seeds"]


def test_magic_comparison_widget_and_errors():
    box = W.magic_comparison_demo(kinds="sparse", T=5_000, n_seeds=1)   # constructing it draws once: keep it small
    assert set(box.controls) == {"kinds", "lam", "T", "n_seeds"}
    assert box.controls["kinds"].value == "sparse"
    with pytest.raises(ValueError, match="range"):
        W.magic_comparison_demo(n_seeds=10)
    with pytest.raises(ValueError, match="kind"):
        W.magic_comparison_figure(kinds=("medium",))
    with pytest.raises(ValueError, match="grid"):
        W.magic_comparison_data(grid=())


# ---------------------------------------------------------------------------------------------- Prop. 4
def test_prop4_defaults_bound_holds():
    fig = W.prop4_figure()
    assert len(fig.axes) == 2
    data = W.prop4_data()
    assert set(data.runs) == set(W.PROP4_DEFAULTS["Ks"])
    for K, r in data.runs.items():
        keep = r.iteration > 0
        assert np.all(r.objective.mean(axis=0)[keep] <= data.bounds[K][keep])
        assert np.all(data.excess_ratio(K) >= 1.0)
    T, thm3, prop4 = W.guarantee_curves(data.p_star, data.p0, data.rho, float(np.abs(data.w_star).sum()),
                                        data.p, data.problem.d)
    assert np.all(np.diff(thm3) < 0) and np.all(prop4 <= thm3)


def test_prop4_largest_settings_and_widget():
    lim = W.PROP4_LIMITS
    fig = W.prop4_figure(Ks=(lim["K"][1],), lam=lim["lam"][0], T=max(lim["T"]), n_seeds=lim["n_seeds"][1])
    assert len(fig.axes) == 2
    box = W.prop4_demo(T=5_000, n_seeds=2)
    assert set(box.controls) == {"K", "lam", "T", "n_seeds"}
    with pytest.raises(ValueError, match="range"):
        W.prop4_demo(K=1000.0)
    with pytest.raises(ValueError, match="range"):
        W.prop4_data(Ks=(0.0,))
