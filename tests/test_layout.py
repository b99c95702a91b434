"""The package's layout: the reference package never depends on the book layer, on matplotlib or on widgets;
``import l1lab`` loads none of the optional dependencies; no module imports another that imports it back.

The imports are read from the source (every ``import`` statement, including those inside functions), so a
lazy import that would close a cycle or pull the book into the core is caught too.
"""
from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

import l1lab

ROOT = Path(l1lab.__file__).resolve().parent
#: what the core (everything outside l1lab.book) may not import, even lazily
CORE_FORBIDDEN = ("l1lab.book", "matplotlib", "ipywidgets", "IPython", "threadpoolctl", "PIL")
#: what ``import l1lab`` may not load: the book stack and every optional dependency
IMPORT_FORBIDDEN = ("l1lab.book", "l1lab.estimators", "matplotlib", "ipywidgets", "IPython", "sklearn", "joblib",
                    "tqdm", "dask", "distributed", "threadpoolctl", "pandas")


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


MODULES = _modules()


def _imports(name: str, path: Path) -> set[str]:
    """Every module ``name`` imports (absolute names; ``from pkg import sub`` counts as importing pkg.sub when
    sub is a module of the package)."""
    is_pkg = path.name == "__init__.py"
    package = name if is_pkg else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module
            for a in node.names:
                sub = f"{mod}.{a.name}"
                out.add(sub if sub in MODULES else mod)
    return out


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def test_the_layout_has_its_rooms():
    """The reference package at the root, the book layer in its own subpackage."""
    for name in ("l1lab.problem", "l1lab.losses", "l1lab.links", "l1lab.trace", "l1lab.projections",
                 "l1lab.solvers", "l1lab.theory", "l1lab.data", "l1lab.experiments", "l1lab.estimators",
                 "l1lab.book"):
        assert name in MODULES, name
    top = sorted(n for n in MODULES if n.count(".") == 1 and not MODULES[n].name == "__init__.py")
    # no chapter demo module sits among the core modules
    assert not [n for n in top if "widgets" in n or n.split(".")[1] in ("live", "style", "plotting")], top


@pytest.mark.parametrize("name", sorted(n for n in MODULES if not n.startswith("l1lab.book")))
def test_the_core_never_imports_the_book_or_matplotlib(name):
    bad = sorted(m for m in GRAPH[name] if m.split(".")[0] in CORE_FORBIDDEN or m.startswith(CORE_FORBIDDEN))
    assert not bad, f"{name} imports {bad}"


def test_the_import_reader_sees_lazy_and_relative_imports(tmp_path):
    """The reader behind the checks above finds imports inside functions, and resolves relative ones."""
    path = tmp_path / "fake.py"
    path.write_text("import numpy\ndef f():\n    import matplotlib.pyplot as plt\n    from .book import live\n"
                    "    from .solvers import scd\n")
    found = _imports("l1lab.fake", path)
    assert {"numpy", "matplotlib.pyplot", "l1lab.book.live", "l1lab.solvers"} <= found


def _cycles(graph):
    """Strongly connected components with more than one module (Tarjan), among l1lab's modules."""
    graph = {k: {m for m in v if m in graph and m != k} for k, v in graph.items()}
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_import_cycles():
    # a package's __init__ importing its own submodules is not a cycle of the design: leave those edges out
    graph = {k: {m for m in v if not (MODULES[k].name == "__init__.py" and m.startswith(k + "."))}
             for k, v in GRAPH.items()}
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_import_l1lab_loads_no_optional_dependency():
    code = ("import sys, json, l1lab; import l1lab.solvers, l1lab.projections, l1lab.theory, l1lab.data, "
            "l1lab.experiments; print(json.dumps(sorted(sys.modules)))")
    loaded = json.loads(subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                                       text=True).stdout)
    bad = [m for m in loaded if m.split(".")[0] in IMPORT_FORBIDDEN or m.startswith(IMPORT_FORBIDDEN)]
    assert not bad, bad


def test_every_core_module_imports_without_the_book_stack():
    """Each core module imports in a process where matplotlib, ipywidgets and IPython cannot be imported."""
    core = [n for n in MODULES if not n.startswith(("l1lab.book", "l1lab.estimators"))]
    code = ("import sys, importlib\n"
            "for m in ('matplotlib', 'ipywidgets', 'IPython', 'sklearn', 'joblib', 'tqdm'):\n"
            "    sys.modules[m] = None\n"
            f"for name in {core!r}:\n"
            "    importlib.import_module(name)\n")
    subprocess.run([sys.executable, "-c", code], check=True)
