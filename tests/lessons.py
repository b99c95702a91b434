"""The lectures' own code, for the tests: the cells tagged ``lesson`` (the page's short numpy implementation of an
algorithm), and how much of a page is code and printed text.

``lesson_namespace("scd")`` executes the ``lesson`` cells of ``chapters/scd.ipynb`` alone, in a fresh namespace,
and returns it, so that a test can call the page's function and compare it with l1lab's solver over several
seeds (``tests/test_lessons.py``).

``python tests/lessons.py chapters/scd.ipynb`` executes a lecture (in memory; nothing is written) and prints the
share of its text that is visible code and printed text output, the measure the reader's check applies to the
built page (``tests_html/test_reader.py::test_code_share``).
"""
from __future__ import annotations

import ast
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: tags whose cells (or inputs) a reader of the page does not see, or sees only after a click
HIDDEN_INPUT = {"remove-cell", "remove-input", "hide-input", "hide-cell"}
HIDDEN_OUTPUT = {"remove-cell", "remove-output", "hide-output", "hide-cell"}
#: what a lesson cell may import: the page's code is plain numpy
LESSON_IMPORTS = {"numpy", "math"}
MAX_LESSON_LINES = 40


def notebook(name: str) -> dict:
    return json.loads((ROOT / "chapters" / f"{name}.ipynb").read_text())


def tags(cell) -> set:
    return set(cell.get("metadata", {}).get("tags", []))


def lesson_cells(name: str) -> list[str]:
    return ["".join(c["source"]) for c in notebook(name)["cells"]
            if c["cell_type"] == "code" and "lesson" in tags(c)]


def lesson_namespace(name: str) -> dict:
    """Execute the ``lesson`` cells of ``chapters/<name>.ipynb`` in a fresh namespace holding only numpy (as
    ``np``) and ``math``, and return it."""
    cells = lesson_cells(name)
    if not cells:
        raise LookupError(f"chapters/{name}.ipynb has no cell tagged 'lesson'")
    import math

    import numpy as np

    ns = {"__name__": f"lesson_{name}", "np": np, "math": math}   # what every lecture has imported before
    for k, src in enumerate(cells):
        exec(compile(src, f"chapters/{name}.ipynb[lesson {k}]", "exec"), ns)
    return ns


def lesson_imports(src: str) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(src)):
        if isinstance(node, ast.Import):
            out.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            out.add((node.module or "").split(".")[0])
    return out


def _visible_text(text: str) -> int:
    return len(re.sub(r"\s+", " ", text).strip())


def code_share(nb: dict) -> tuple[int, int, int]:
    """(characters of prose, of visible code, of visible printed text) of an executed notebook."""
    prose = code = printed = 0
    for c in nb["cells"]:
        src = "".join(c["source"])
        if c["cell_type"] == "markdown":
            prose += _visible_text(src)
            continue
        if c["cell_type"] != "code":
            continue
        t = tags(c)
        if not t & HIDDEN_INPUT:
            code += _visible_text(src)
        if t & HIDDEN_OUTPUT:
            continue
        for out in c.get("outputs", []):
            if out.get("output_type") == "stream":
                printed += _visible_text("".join(out.get("text", "")))
            elif out.get("output_type") in ("execute_result", "display_data"):
                data = out.get("data", {})
                if not ({"image/png", "text/html", "application/vnd.jupyter.widget-view+json"} & set(data)) \
                        and "text/plain" in data:
                    printed += _visible_text("".join(data["text/plain"]))
    return prose, code, printed


def main(argv):
    import nbformat
    from nbclient import NotebookClient

    for path in argv:
        nb = nbformat.read(path, as_version=4)
        NotebookClient(nb, timeout=1200, kernel_name="python3",
                       resources={"metadata": {"path": str(Path(path).parent)}}).execute()
        prose, code, printed = code_share(nb)
        total = prose + code + printed
        print(f"{path}: prose {prose}, code {code}, printed {printed} characters: code and printed text "
              f"{100 * (code + printed) / max(total, 1):.1f}% of the page")


if __name__ == "__main__":
    main(sys.argv[1:])
