"""Input checks shared by the solvers: one wording for one mistake (the helpers of :mod:`l1lab._validate`)."""
from __future__ import annotations

from .._validate import (
    ANY,
    SEED,
    Param,
    check_array,
    check_callable,
    check_count,
    check_flag,
    check_index_array,
    check_matrix,
    check_real,
    check_seed,
    checked,
    count,
    nonnegative,
    positive,
    real,
)
from .._validate import check_positive as _check_positive
from ..problem import PROBLEM
from ..problem import check_problem as _check_problem

__all__ = ["ANY", "SOLVER_PARAMS", "check_array", "check_count", "check_flag", "check_index_array", "check_matrix",
           "check_n_iter", "check_positive", "check_problem", "check_real", "check_seed", "count", "nonnegative",
           "positive", "solver_checked"]


def check_problem(problem):
    """``problem`` if it is an :class:`l1lab.Problem`, else a TypeError naming ``problem``."""
    return _check_problem(problem, "problem")


def check_n_iter(n_iter, name="n_iter", minimum=0):
    """``n_iter`` as an int >= ``minimum``: Python and numpy integers and exactly integral floats (10.0) are
    accepted; 1.5, NaN, inf, strings and bools raise ("n_iter must be a non-negative integer, got 1.5")."""
    return check_count(n_iter, name, minimum=minimum)


def check_positive(value, what):
    """``value`` as a float, or a TypeError/ValueError '<what> must be a finite number > 0, got ...'."""
    return _check_positive(value, what)


#: The domain of every parameter of the public solver functions, by name (checked before each call by
#: ``checked(SOLVER_PARAMS, ...)``; see :mod:`l1lab._validate`).  ANY: the function checks it itself (a choice
#: from a list, an array whose shape depends on the problem, a flag, a value that may also be a function).
SOLVER_PARAMS = {
    "problem": PROBLEM, "n_iter": count(0), "n_checkpoints": count(2), "seed": SEED, "eta": positive(),
    "eta0": positive(), "beta": positive(), "tol": positive(), "step": ANY, "p": ANY, "p_rounded": ANY, "output": ANY,
    "variant": ANY, "gravity": nonnegative(), "period": count(1), "threshold": nonnegative(allow_inf=True),
    "method": ANY, "batch_size": count(1), "line_search": ANY, "schedule": ANY, "projection": ANY, "decay": ANY,
    "dummy": ANY, "signed": ANY, "exact": ANY, "F1": positive().named("the radius F1"),
    "F2": positive().named("the radius F2"), "n_steps": count(1), "order": ANY, "constraint": ANY,
    "radius": positive(), "max_iter": count(1), "sigma": positive(), "k": count(1).named("the mini-batch size k"),
    "batches": ANY,
    "B": positive().named("the radius B"), "monitor": Param(check_callable), "record_objective": ANY, "exact_norm": ANY,
    "hinge_mu": positive(), "memory": count(1), "w0": ANY, "s_max": count(1), "keep_weights": ANY, "support": ANY,
    "max_outer": count(1), "max_epochs": count(1), "ws_start": count(1), "anderson": count(0), "inner": ANY,
    "gram": ANY,
    "lams": ANY, "n_lams": count(1), "eps": real(low=0.0, low_open=True, high=1.0), "source": ANY, "R1": positive(),
    "epochs": ANY, "theta_star": ANY, "s": positive(), "gamma": positive(), "G": ANY, "omega": nonnegative(),
    "c1": positive(), "lam": nonnegative(), "alpha": positive(), "step_constant": positive(),
    "lam_constant": positive(), "epoch_length": count(1), "oracle_check": real(low=0.0, high=1.0, high_open=True),
    "loss": ANY, "mu": ANY, "center": ANY, "R": positive(), "iterations": ANY, "errors": ANY,
    "start_fraction": real(low=0.0, high=1.0, high_open=True), "d": count(1), "T": count(1), "taus": ANY, "w": ANY,
    "theta": ANY, "m": count(1), "X": ANY, "y": ANY, "l2": ANY, "printed_rescaling": ANY,
    "z": positive().named("the radius z"),
}


def solver_checked(**overrides):
    """Decorator: check a solver's arguments against :data:`SOLVER_PARAMS` (and ``overrides``) before the call."""
    return checked(SOLVER_PARAMS, **overrides)
