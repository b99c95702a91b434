r"""Coursework an instructor can grade: per-student graded problems, their checks, the graded notebooks and the
grading command.

* :mod:`._core` -- an :class:`Assignment` is a lecture's :class:`Question`\ s over a student's *variant* (data
  and parameters drawn from a hash of the student's identifier); the expected answers are computed with l1lab;
* :mod:`.guard` -- while a student's function is checked, l1lab's solvers, projections and bounds raise;
* :mod:`.notebooks` -- the notebooks handed out (per student, or generic with an identifier cell) and the
  instructors' version with model solutions;
* :mod:`.runner` -- grading a folder of submissions, each in its own process with limits, into a gradebook CSV and
  a feedback file per student;
* one module per lecture family with its assignments: :mod:`.coordinate` (lectures 1-4), :mod:`.sgd` (5-7),
  :mod:`.ball` (8-11), :mod:`.regularizers` (12-16), :mod:`.family` (17).

``python -m l1lab.book.coursework --help`` lists the commands (hand out, grade, list).  The reference package
never imports this subpackage.
"""
from __future__ import annotations

import importlib

from ._core import Assignment, Question, Task, compare_answer, seed_of

__all__ = ["ASSIGNMENT_MODULES", "Assignment", "Question", "Task", "assignment", "assignments", "compare_answer",
           "seed_of", "summary_markdown"]

#: the modules that define assignments (each has ``ASSIGNMENTS``, a tuple of :class:`Assignment`)
ASSIGNMENT_MODULES = ("coordinate", "sgd", "ball", "regularizers", "family")


def assignments() -> dict:
    """{name: Assignment} of every graded assignment of the book, in the order of the lectures."""
    out = {}
    for name in ASSIGNMENT_MODULES:
        for a in importlib.import_module(f"{__name__}.{name}").ASSIGNMENTS:
            if a.name in out:
                raise ValueError(f"two assignments named {a.name!r}")
            out[a.name] = a
    return out


def assignment(name: str) -> Assignment:
    """The assignment ``name`` (a lecture's name, e.g. "scd")."""
    found = assignments()
    if name not in found:
        raise KeyError(f"no graded assignment {name!r}; there are {sorted(found)}")
    return found[name]


def summary_markdown() -> str:
    """A markdown table of the graded assignments by week: lecture, questions (kind, points, difficulty,
    minutes), total points and time (the instructors' page shows it)."""
    rows = ["| week | assignment | questions (points · difficulty · minutes) | points | minutes |",
            "|---|---|---|---|---|"]
    for a in sorted(assignments().values(), key=lambda a: a.week):
        qs = "<br>".join(f"{q.name.upper()} {q.title} ({'implementation' if q.kind == 'function' else 'value'}: "
                         f"{q.points} · {q.difficulty} · {q.minutes})" for q in a.questions)
        rows.append(f"| {a.week} | `{a.name}`, for {{doc}}`/chapters/{a.lecture}` | {qs} | {a.points} | "
                    f"{sum(q.minutes for q in a.questions)} |")
    return "\n".join(rows)
