"""Input checks shared by the solvers: one wording for one mistake."""
from __future__ import annotations

import math

from ..problem import Problem


def check_problem(problem):
    if not isinstance(problem, Problem):
        raise TypeError(f"expected an l1lab.Problem, got {type(problem).__name__}")


def check_n_iter(n_iter):
    n_iter = int(n_iter)
    if n_iter < 0:
        raise ValueError(f"n_iter must be >= 0, got {n_iter}")
    return n_iter


def check_positive(value, what):
    """``value`` as a float, or a ValueError '<what> must be a finite positive number, got ...'."""
    value = float(value)
    if not (value > 0 and math.isfinite(value)):
        raise ValueError(f"{what} must be a finite positive number, got {value}")
    return value
