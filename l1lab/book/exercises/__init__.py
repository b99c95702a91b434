"""Checkers for the exercise notebooks in ``chapters/exercises/``, one module per chapter.

Each ``check_*`` function takes the student's function (or value), compares it with l1lab's reference
implementation on fixed inputs and on random inputs from a fixed seed, prints one deterministic line per check
(``✔`` or ``✘``, no timings, no addresses) and a summary, returns None (so a notebook cell displays nothing
else), and raises :class:`ExerciseFailed` if any check failed.  So a notebook run with ``pytest --nbval`` passes
when its stored outputs are the all-``✔`` lines of a correct solution and fails when a function is unfilled (it
raises ``NotImplementedError``) or wrong (the checker raises).  :func:`make_student_notebook` turns a solution
notebook into the student's version (``python -m l1lab.book.exercises students ...``).

The reference implementations are l1lab's own (:func:`l1lab.losses.soft_threshold`, :class:`l1lab.Problem`,
:func:`l1lab.links.link_inverse`, the projections, the theory modules); the student's code is never compared with
itself.  A chapter's checkers live in the module of that chapter's name; this package exports them all.
"""
from . import (  # noqa: E402
    experiments,
    exponentiated,
    family,
    fast_cd,
    l1_problem,
    lower_bound,
    pgs,
    projections,
    radar,
    scd,
    smidas,
)
from ._framework import (
    ATOL,
    PLACEHOLDER,
    RTOL,
    SOLUTION_BEGIN,
    SOLUTION_END,
    ExerciseFailed,
    Report,
    compare,
    execute_notebook,
    fmt,
    main,
    make_student_notebook,
    small_problems,
    student_source,
    write_student_versions,
)
from .experiments import *  # noqa: F401,F403
from .exponentiated import *  # noqa: F401,F403
from .family import *  # noqa: F401,F403
from .fast_cd import *  # noqa: F401,F403
from .l1_problem import *  # noqa: F401,F403
from .lower_bound import *  # noqa: F401,F403
from .pgs import *  # noqa: F401,F403
from .projections import *  # noqa: F401,F403
from .radar import *  # noqa: F401,F403
from .scd import *  # noqa: F401,F403
from .smidas import *  # noqa: F401,F403

__all__ = ["ATOL", "ExerciseFailed", "PLACEHOLDER", "RTOL", "Report", "SOLUTION_BEGIN", "SOLUTION_END", "compare",
           "execute_notebook", "fmt", "main", "make_student_notebook", "small_problems", "student_source",
           "write_student_versions"]
for _module in (l1_problem, scd, smidas, projections, exponentiated, lower_bound, experiments, radar, pgs,
                fast_cd, family):
    __all__ += _module.__all__
