r"""The graded notebooks: one per student (their identifier filled in) or one generic (an identifier cell to fill),
and the instructors' version with the model solutions.

Every cell the handout gives is tagged ``given``; the grading command reads which cells are the student's own by
comparing with these (:mod:`l1lab.book.coursework.runner`).  A student's copy never holds a model solution.
"""
from __future__ import annotations

import nbformat

from ..exercises._framework import PLACEHOLDER  # the same placeholder as the practice notebooks

__all__ = ["PLACEHOLDER", "student_notebook"]

DIFFICULTY = {1: "apply the lecture's method", 2: "a step further", 3: "a new case"}


def _given(source):
    return nbformat.v4.new_code_cell(source, metadata={"tags": ["given"]})


def student_notebook(assignment, identifier: str | None = None, *, solutions: bool = False):
    """The notebook of ``assignment`` (an :class:`~l1lab.book.coursework.Assignment` or its name) for the student
    ``identifier`` (None: the generic notebook, whose first code cell asks for the identifier).  ``solutions``:
    the instructors' version, each answer cell holding the model solution (needs an identifier, whose numbers
    the solution's prompts show)."""
    from . import assignment as _assignment
    if isinstance(assignment, str):
        assignment = _assignment(assignment)
    if solutions and identifier is None:
        raise ValueError("the instructors' version is made for one identifier (its numbers fill the prompts)")
    task = assignment.task(identifier) if identifier is not None else None
    cells = [nbformat.v4.new_markdown_cell(
        f"# Graded work: {assignment.title}\n\n"
        f"Lecture: [{assignment.lecture}](https://l1lab.github.io/l1lab/chapters/{assignment.lecture}.html). "
        f"{assignment.points} points. Your data and numbers are generated from your identifier: "
        "two students have different problems, so work out your own.\n\n"
        "Write your answers in the cells marked *your answer*, with numpy, scipy and the standard library: "
        "l1lab's solvers, projections and bounds are not available to your functions while they are checked, "
        "and a cell of yours that uses l1lab earns no points. Each `task.check(...)` cell tells you whether an "
        "answer is right (not what the right value is); your grade comes from the instructor's grading of the "
        "notebook you hand in, run from the top in a fresh kernel with a time limit per cell."
        + (f"\n\n{assignment.intro}" if assignment.intro else ""))]
    ident = identifier if identifier is not None else "your identifier here"
    cells.append(_given(f"STUDENT = {ident!r}"))
    cells.append(_given(f"{assignment.setup}\nfrom l1lab.book.coursework import assignment\n\n"
                        f"task = assignment({assignment.name!r}).task(STUDENT)\ntask.describe()"))
    for q in assignment.questions:
        prompt = q.prompt.format(**task.params) if task is not None else q.prompt.format_map(_Unfilled())
        cells.append(nbformat.v4.new_markdown_cell(
            f"## {q.name.upper()}: {q.title}\n\n"
            f"*{q.points} {'point' if q.points == 1 else 'points'} · difficulty {q.difficulty} "
            f"({DIFFICULTY[q.difficulty]}) · about {q.minutes} minutes · graded*\n\n{prompt}"))
        if solutions:
            cells.append(nbformat.v4.new_code_cell("# your answer\n" + q.solution,
                                                   metadata={"tags": ["answer", "solution"]}))
        else:
            starter = q.starter or f"answer_{q.name} = None  # your answer"
            cells.append(nbformat.v4.new_code_cell(
                "# your answer\n" + starter.replace("PLACEHOLDER", PLACEHOLDER), metadata={"tags": ["answer"]}))
        cells.append(_given(f"task.check({q.name!r}, globals())"))
    nb = nbformat.v4.new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.metadata["l1lab"] = {"assignment": assignment.name, "identifier": identifier}
    for i, cell in enumerate(nb.cells):               # deterministic ids: the same notebook from the same input
        cell["id"] = f"{assignment.name}-{i}"
    return nb


class _Unfilled(dict):
    """The generic notebook's prompts: a parameter the variant sets reads "(see task.describe())"."""

    def __missing__(self, key):
        return f"`task.params[{key!r}]`"
