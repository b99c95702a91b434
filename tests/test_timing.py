"""l1lab.book.timing: every time the book shows is taken after an untimed warm-up.

A numba kernel compiles on its first call with a given type signature, so a timing that includes a first call
measures the compiler.  The book layer reads clocks only through :mod:`l1lab.book.timing`; these tests check that
by reading the source of every module of the book layer, and check the timing helpers themselves.
"""
import ast
from pathlib import Path

import pytest

from l1lab.book import timing

BOOK = Path(__file__).resolve().parents[1] / "l1lab" / "book"
MODULES = sorted(p for p in BOOK.rglob("*.py") if p.name != "timing.py")
#: the clocks of the standard library
CLOCK_MODULES = {"time", "timeit"}
#: what runs a warm-up before it times (l1lab.book.timing)
WARMING = {"warm_up", "best_of", "Clock"}


def _tree(path):
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(BOOK)))
def test_no_book_module_reads_a_clock_itself(path):
    found = []
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.Import):
            found += [f"line {node.lineno}: import {a.name}" for a in node.names
                      if a.name.split(".")[0] in CLOCK_MODULES]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in CLOCK_MODULES:
            found.append(f"line {node.lineno}: from {node.module} import ...")
    assert not found, (f"{path.name} reads a clock itself ({found}): time with l1lab.book.timing (best_of, Clock), "
                       "which runs an untimed warm-up first")


def _functions(tree):
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node


def _names(node):
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} | \
           {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)}


def _reads_seconds(fn):
    return [n.lineno for n in ast.walk(fn) if isinstance(n, ast.Attribute) and n.attr == "seconds"
            and isinstance(n.ctx, ast.Load) and not (isinstance(n.value, ast.Name) and n.value.id == "self")]


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(BOOK)))
def test_solver_timings_are_read_after_a_warm_up(path):
    """A function that reads a solver's own timing (a trace's ``seconds``) runs a warm-up first: it calls
    ``warm_up``, ``best_of`` or a ``Clock`` (whose construction runs the warm-up), itself or in the function that
    encloses it."""
    tree = _tree(path)
    parents = {}
    for fn in _functions(tree):
        for child in ast.walk(fn):
            if child is not fn and isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                parents.setdefault(child, fn)
    bad = []
    for fn in _functions(tree):
        lines = _reads_seconds(fn)
        if not lines or fn in parents and _reads_seconds(parents[fn]):
            continue                      # checked with the function that encloses it
        scope, names = fn, set()
        while scope is not None:
            names |= _names(scope)
            scope = parents.get(scope)
        if not names & WARMING:
            bad.append(f"{fn.name} (line {lines[0]})")
    assert not bad, f"{path.name}: reads a trace's seconds without a warm-up: {bad}"


def test_the_checks_above_see_what_they_look_for(tmp_path):
    """The source checks are not vacuous: they find a clock import and an unwarmed ``.seconds`` read."""
    src = tmp_path / "m.py"
    src.write_text("import time\n\ndef f(run):\n    return run().trace.seconds\n\n"
                   "def g(run):\n    warm_up(run)\n    return run().trace.seconds\n")
    tree = _tree(src)
    assert any(isinstance(n, ast.Import) and n.names[0].name == "time" for n in ast.walk(tree))
    fns = {f.name: f for f in _functions(tree)}
    assert _reads_seconds(fns["f"]) and not _names(fns["f"]) & WARMING
    assert _names(fns["g"]) & WARMING


def test_best_of_warms_up_then_times_the_best_call():
    calls = []

    def fn():
        calls.append(len(calls))
        return len(calls)

    seconds, last = timing.best_of(fn, repeats=3, warmups=2)
    assert calls == [0, 1, 2, 3, 4] and last == 5 and 0.0 <= seconds < 1.0
    calls.clear()
    seconds, last = timing.best_of(fn, repeats=1, budget=0.05, max_reps=4)
    assert len(calls) == 5      # one warm-up, then at most max_reps timed calls while within the budget
    for bad in ({"repeats": 0}, {"repeats": 1.5}, {"warmups": 0}):
        with pytest.raises(ValueError):
            timing.best_of(fn, **bad)


def test_clock_warms_up_once_and_sums_its_blocks():
    warmed = []
    clock = timing.Clock(warm_up=lambda: warmed.append(1))
    assert warmed == [1] and clock.seconds == 0.0
    with clock:
        inside = clock.now()
        sum(range(10_000))
    first = clock.seconds
    assert 0.0 <= inside <= first
    with clock:
        sum(range(10_000))
    assert clock.seconds > first and clock.now() == clock.seconds and warmed == [1]
    with pytest.raises(RuntimeError, match="already running"):
        with clock:
            with clock:
                pass
    with pytest.raises(TypeError, match="warm_up must be a callable"):
        timing.Clock(warm_up=None)
