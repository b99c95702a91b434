"""How live the widget demos feel: the time from a slider move to the redrawn figure.

Every demo of the book is built as a reader's kernel builds it (its ``*_demo()`` function, defaults), displayed
once (the first draw, which the chapter's own static cell has usually already cached), and then each control is
moved the way a reader moves it: one step of the slider (or the next option of a drop-down), to a value not
drawn before, twice per control.  The time of each update is the time of the ``value`` assignment, which runs
the demo's update function synchronously (data + figure; the figure is rendered to PNG as the notebook would).
The CPU time of the process is printed beside the wall time: on a busy machine it is the better estimate.

    python benchmarks/bench_widgets.py [--quick] [--demos scd_bound,link ...]

Prints, per demo, the median and the maximum update time and the share of updates under 0.3 s; writes
``benchmarks/results/widgets.json``.  Absolute times on purpose: "live" is a human threshold, not a ratio.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import IPython.display  # noqa: E402
import ipywidgets  # noqa: E402
from _common import finish  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from l1lab.book import experiments, exponentiated, lower_bound, pgs, projections, radar, scd, smidas  # noqa: E402

LIVE = 0.3

DEMOS = {
    "scd_bound": scd.scd_bound_demo,
    "cd_comparison": scd.cd_comparison_demo,
    "link": smidas.link_demo,
    "smidas_bound": smidas.smidas_bound_demo,
    "magic_comparison": smidas.magic_comparison_demo,
    "prop4": smidas.prop4_demo,
    "geometry": projections.geometry_demo,
    "timing": projections.timing_demo,
    "synthetic": projections.synthetic_demo,
    "eg_vs_pg": projections.eg_vs_pg_demo,
    "scaling": exponentiated.scaling_demo,
    "regret": exponentiated.regret_demo,
    "averaging": exponentiated.averaging_demo,
    "lb_frontier": lower_bound.frontier_demo,
    "lb_steps": lower_bound.steps_demo,
    "experiment": experiments.experiment_demo,
    "pgs_inverse": pgs.inverse_demo,
    "pgs_text": pgs.text_demo,
    "pgs_fixed_sigma": pgs.fixed_sigma_demo,
    "pgs_k": pgs.k_demo,
    "pgs_bounds": pgs.bounds_demo,
    "radar_fig1a": radar.figure1a_demo,
    "radar_fig1b": radar.figure1b_demo,
    "radar_weak": radar.weak_sparsity_demo,
}


def _render(obj):
    """What the notebook front end gets: figures are rendered to PNG."""
    if isinstance(obj, Figure):
        obj.savefig(_Sink(), format="png", dpi=obj.dpi)


class _Sink:
    def write(self, b):
        return len(b)


def _next_values(ctrl, n=2):
    """The next ``n`` values a reader reaches by moving ``ctrl`` one step at a time (up, or down at the top)."""
    if isinstance(ctrl, (ipywidgets.SelectionSlider, ipywidgets.Dropdown, ipywidgets.SelectMultiple,
                         ipywidgets.ToggleButtons, ipywidgets.RadioButtons)):
        opts = [o[1] if isinstance(o, tuple) else o for o in ctrl.options]
        if isinstance(ctrl, ipywidgets.SelectMultiple):
            return []
        i = opts.index(ctrl.value)
        order = opts[i + 1:] + opts[:i][::-1]
        return order[:n]
    if isinstance(ctrl, ipywidgets.FloatLogSlider):
        lo, hi, step = ctrl.min, ctrl.max, ctrl.step
        import math
        e = math.log10(ctrl.value)
        out = []
        for k in range(1, n + 1):
            x = e + k * step if e + k * step <= hi + 1e-12 else e - k * step
            out.append(10 ** max(lo, min(hi, x)))
        return out
    if isinstance(ctrl, (ipywidgets.IntSlider, ipywidgets.FloatSlider)):
        v, step = ctrl.value, ctrl.step
        up = [v + k * step for k in range(1, n + 1)]
        if up[-1] <= ctrl.max:
            return up
        return [v - k * step for k in range(1, n + 1) if v - k * step >= ctrl.min]
    if isinstance(ctrl, ipywidgets.Checkbox):
        return [not ctrl.value]
    return []


def bench(name, make, n_moves=2):
    shown = []
    IPython.display.display = lambda *objs, **kw: [(shown.append(o), _render(o)) for o in objs]
    widgets_display = sys.modules["l1lab.book.controls"]
    t0 = time.perf_counter()
    box = make()
    first = time.perf_counter() - t0
    times, cpu = [], []
    for cname, ctrl in box.controls.items():
        start = ctrl.value
        for v in _next_values(ctrl, n_moves):
            t, c = time.perf_counter(), time.process_time()
            ctrl.value = v
            times.append((cname, time.perf_counter() - t))
            cpu.append(time.process_time() - c)
        ctrl.value = start
    assert widgets_display is not None
    med = statistics.median(t for _, t in times) if times else float("nan")
    worst = max(times, key=lambda x: x[1]) if times else ("-", float("nan"))
    live = sum(t <= LIVE for _, t in times) / max(1, len(times))
    med_cpu = statistics.median(cpu) if cpu else float("nan")
    print(f"{name:>17}: first draw {first:6.2f} s | {len(times):2d} updates: median {med:5.2f} s "
          f"(CPU {med_cpu:5.2f} s), max {worst[1]:5.2f} s ({worst[0]}), {100 * live:3.0f}% under {LIVE} s")
    return {"first": first, "median": med, "median_cpu": med_cpu, "max": worst[1], "max_control": worst[0],
            "live_share": live,
            "updates": [{"control": c, "seconds": t} for c, t in times]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="one move per control")
    ap.add_argument("--demos", default=",".join(DEMOS))
    args = ap.parse_args()
    t_start = time.perf_counter()
    res = {}
    for name in args.demos.split(","):
        res[name] = bench(name, DEMOS[name], 1 if args.quick else 2)
    meds = [r["median"] for r in res.values()]
    print(f"median of the demos' medians: {statistics.median(meds):.2f} s; demos with median <= {LIVE} s: "
          f"{sum(m <= LIVE for m in meds)}/{len(meds)}")
    out = Path(__file__).parent / "results" / "widgets.json"
    finish(out, t_start, args.quick, res)


if __name__ == "__main__":
    main()
