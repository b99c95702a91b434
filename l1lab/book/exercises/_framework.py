r"""What every checker of the exercise notebooks shares: the report, the comparison, the fixed problems, and the
tools that run solution notebooks and write their student versions.

Each ``check_*`` function takes the student's function (or value), compares it with l1lab's reference
implementation on fixed inputs and on random inputs from a fixed seed, prints one deterministic line per check
(``✔`` or ``✘``, no timings, no addresses) and a summary, returns None (so a notebook cell displays nothing
else), and raises :class:`ExerciseFailed` if any check failed.  So a notebook run with ``pytest --nbval``
passes when its stored outputs are the all-``✔`` lines of a correct solution and fails when a function is
unfilled (it raises ``NotImplementedError``) or wrong (the checker raises).
"""
from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field

import numpy as np

__all__ = ["ATOL", "ExerciseFailed", "PLACEHOLDER", "RTOL", "Report", "SOLUTION_BEGIN", "SOLUTION_END", "compare",
           "execute_notebook", "fmt", "main", "make_student_notebook", "small_problems", "student_source",
           "write_student_versions"]

SOLUTION_BEGIN = "# BEGIN SOLUTION"
SOLUTION_END = "# END SOLUTION"
PLACEHOLDER = 'raise NotImplementedError("your code here")'
RTOL, ATOL = 1e-9, 1e-12


class ExerciseFailed(AssertionError):
    """A checker found a wrong answer (the message lists the failed checks)."""


def fmt(x):
    """Short deterministic text for a value in a failure message."""
    if isinstance(x, (float, np.floating)):
        return f"{float(x):.6g}"
    if isinstance(x, np.ndarray):
        with np.printoptions(precision=6, threshold=8, edgeitems=3, suppress=False):
            return np.array2string(x, separator=", ")
    return repr(x)


@dataclass
class Report:
    """The outcome of one checker: (passed, line) per check."""

    name: str
    lines: list = field(default_factory=list)

    def ok(self, what):
        self.lines.append((True, f"✔ {self.name}: {what}"))

    def fail(self, what, why):
        self.lines.append((False, f"✘ {self.name}: {what} -- {why}"))

    @property
    def passed(self):
        return all(p for p, _ in self.lines)

    def finish(self):
        for _, line in self.lines:
            print(line)
        n_ok = sum(p for p, _ in self.lines)
        print(f"{self.name}: {n_ok}/{len(self.lines)} checks passed")
        if not self.passed:
            raise ExerciseFailed(f"{self.name}: " + "; ".join(line for p, line in self.lines if not p))


def _run(report, what, call):
    """``(True, call())``; a placeholder left unfilled raises on (``NotImplementedError``), and any other
    exception is a student's bug, reported as a failed check with its type and message: ``(False, None)``."""
    try:
        return True, call()
    except NotImplementedError:
        raise
    except Exception as err:
        report.fail(what, f"raised {type(err).__name__}: {err}")
        return False, None


def compare(report, what, expected, call):
    """Run ``call()`` and compare with ``expected`` (arrays or scalars) to RTOL/ATOL."""
    ran, got = _run(report, what, call)
    if not ran:
        return
    try:
        got_arr = np.asarray(got, dtype=np.float64)
    except (TypeError, ValueError):
        report.fail(what, f"expected a number or an array, got {type(got).__name__}")
        return
    exp_arr = np.asarray(expected, dtype=np.float64)
    if got_arr.shape != exp_arr.shape:
        report.fail(what, f"expected shape {exp_arr.shape}, got {got_arr.shape}")
        return
    bad = ~np.isclose(got_arr, exp_arr, rtol=RTOL, atol=ATOL)
    if np.any(bad):
        k = int(np.flatnonzero(bad)[0])
        report.fail(what, f"expected {fmt(exp_arr.ravel()[k])}, got {fmt(got_arr.ravel()[k])}"
                    + (f" (entry {k})" if exp_arr.ndim else ""))
    else:
        report.ok(what)



def compare_count(report, what, expected, call, unit):
    """Run ``call()`` and check that it returns the whole number ``expected`` of ``unit`` (an int, or a float
    with no fractional part)."""
    ran, got = _run(report, what, call)
    if not ran:
        return
    if not isinstance(got, (int, np.integer)) and not (isinstance(got, float) and got.is_integer()):
        report.fail(what, f"expected a whole number of {unit}, got {got!r}")
    elif int(got) != expected:
        report.fail(what, f"expected {expected}, got {int(got)}")
    else:
        report.ok(what)


def small_problems():
    """A squared-loss and a logistic-loss problem, small and fixed (the checkers' fixed inputs)."""
    from ...data.synthetic import make_classification, make_regression
    from ...problem import Problem
    Xr, yr, _ = make_regression(40, 12, 3, noise=0.1, seed=1)
    Xc, yc, _ = make_classification(50, 10, 3, flip=0.1, seed=2)
    return {"squared": Problem(Xr, yr, "squared", 0.05), "logistic": Problem(Xc, yc, "logistic", 0.02)}


# ---------------------------------------------------------------------------------------------- notebooks
_BLOCK = re.compile(r"^([ \t]*)" + re.escape(SOLUTION_BEGIN) + r"[^\n]*\n.*?^[ \t]*" + re.escape(SOLUTION_END)
                    + r"[^\n]*$", re.S | re.M)


def student_source(source: str) -> str:
    """Replace every ``# BEGIN SOLUTION`` ... ``# END SOLUTION`` block by the placeholder (same indentation)."""
    if source.count(SOLUTION_BEGIN) != source.count(SOLUTION_END):
        raise ValueError("unbalanced BEGIN/END SOLUTION markers in a cell")
    return _BLOCK.sub(lambda m: m.group(1) + PLACEHOLDER, source)


def make_student_notebook(solution):
    """The student's version of a solution notebook (an ``nbformat`` NotebookNode): solution blocks replaced by
    the placeholder, every output and execution count cleared, cells tagged ``solution-only`` removed."""
    nb = copy.deepcopy(solution)
    cells = []
    for cell in nb.cells:
        if "solution-only" in cell.get("metadata", {}).get("tags", []):
            continue
        if cell.cell_type == "code":
            cell.source = student_source(cell.source)
            cell.outputs = []
            cell.execution_count = None
        cells.append(cell)
    nb.cells = cells
    return nb


def write_student_versions(solution_dir, student_dir, names=None):
    """Write the student's version of every ``*.ipynb`` in ``solution_dir`` (or of those whose stem is in
    ``names``) to ``student_dir`` (same names)."""
    import pathlib

    import nbformat
    src, dst = pathlib.Path(solution_dir), pathlib.Path(student_dir)
    dst.mkdir(parents=True, exist_ok=True)
    written = []
    for path in sorted(src.glob("*.ipynb")):
        if names and path.stem not in names:
            continue
        nb = make_student_notebook(nbformat.read(path, as_version=4))
        nbformat.write(nb, dst / path.name)
        written.append(dst / path.name)
    return written


def execute_notebook(path, timeout=600):
    """Run every cell of the notebook at ``path`` (in its own folder) and store the outputs in place (needs
    nbclient, which Jupyter Book installs)."""
    import pathlib

    import nbformat
    from nbclient import NotebookClient
    path = pathlib.Path(path)
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=timeout, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    nbformat.write(nb, path)
    return path


def main(argv=None):
    """``python -m l1lab.book.exercises execute NOTEBOOK...`` runs solution notebooks and stores their outputs;
    ``python -m l1lab.book.exercises students SOLUTION_DIR STUDENT_DIR [NAME ...]`` writes the student versions
    (of the named notebooks only, if names are given)."""
    import argparse
    parser = argparse.ArgumentParser(prog="python -m l1lab.book.exercises", description=main.__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    ex = sub.add_parser("execute", help="run notebooks and store their outputs in place")
    ex.add_argument("notebooks", nargs="+")
    st = sub.add_parser("students", help="write the student version of every solution notebook")
    st.add_argument("solution_dir")
    st.add_argument("student_dir")
    st.add_argument("names", nargs="*", help="notebook names without .ipynb (default: all)")
    args = parser.parse_args(argv)
    if args.command == "execute":
        for p in args.notebooks:
            print(f"executed {execute_notebook(p)}")
    else:
        for p in write_student_versions(args.solution_dir, args.student_dir, args.names):
            print(f"wrote {p}")


