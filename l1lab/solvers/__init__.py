"""l1lab solvers.  Each returns an :class:`l1lab.trace.Result` (final iterate + trace).

Penalized problem (5), min C(w) + lam ||w||_1: ``scd``, ``cyclic_cd``, ``gcd`` (coordinate descent),
``smidas``, ``truncgrad``, ``sgd`` (one example per step).
Constrained problem, min C(w) s.t. ||w||_1 <= z (build the Problem with lam=0): ``projected_gradient``,
``exponentiated_gradient``.
Online learning with regret (``l1lab.solvers.online``): ``smg`` (update (3) and exact EG), ``sg_l2``.
"""
from .coordinate import cyclic_cd, gcd, scd
from .exponentiated import exponentiated_gradient
from .mirror import sgd, smidas, truncgrad
from .online import sg_l2, smg
from .projected import projected_gradient

__all__ = ["scd", "cyclic_cd", "gcd", "smidas", "truncgrad", "sgd", "projected_gradient",
           "exponentiated_gradient", "smg", "sg_l2"]
