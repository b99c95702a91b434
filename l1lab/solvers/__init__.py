"""l1lab solvers.  Each returns an :class:`l1lab.trace.Result` (final iterate + trace).

Penalized problem (5), min C(w) + lam ||w||_1: ``scd``, ``cyclic_cd``, ``gcd`` (coordinate descent),
``smidas``, ``truncgrad``, ``sgd`` (one example per step).
Constrained problem, min C(w) s.t. ||w||_1 <= z (build the Problem with lam=0): ``projected_gradient``,
``exponentiated_gradient``.
Online learning with regret (``l1lab.solvers.online``): ``smg`` (update (3) and exact EG), ``sg_l2``.
Stochastic recovery of a sparse theta* (``l1lab.solvers.dual_averaging``, each returns a ``RecoveryResult``):
``radar`` (Agarwal, Negahban & Wainwright 2012), ``eda``, ``rda``; the l1-ball SGD baseline is
``l1lab.solvers.dual_averaging.sgd`` (not exported: ``sgd`` here is the penalized SGD of ``mirror``).
l_p-regularized problem (7) of Zhu et al. (2009), min sigma ||w||_p^2/(2(p-1)) + C(w) (build the Problem with
lam=0): ``pgs`` (the Primal Gradient Solver) and its quasi-Newton baseline ``lbfgs``.
The practical solver of problem (5), beyond the papers (``l1lab.solvers.working_set``): ``working_set_cd``
(coordinate curvature, working sets, Anderson extrapolation or proximal Newton, a duality-gap certificate) and
``regularization_path`` (warm-started along a geometric grid of lam).
Exact solutions: ``reference_solution`` (the high-accuracy optimum of (5) that every sub-optimality is measured
against) and ``forward_selection`` (the greedy s-sparse least-squares fits of ``l1lab.solvers.forward``).
The sparse logistic teacher's stream has its own O(d)-memory SMG and SG: ``l1lab.solvers.streamed``.
"""
from .coordinate import cyclic_cd, gcd, scd
from .dual_averaging import eda, radar, rda
from .exponentiated import exponentiated_gradient
from .forward import forward_selection
from .lbfgs import lbfgs
from .mirror import sgd, smidas, truncgrad
from .online import sg_l2, smg
from .pgs import pgs
from .projected import projected_gradient
from .reference import reference_solution
from .working_set import regularization_path, working_set_cd

__all__ = ["scd", "cyclic_cd", "gcd", "smidas", "truncgrad", "sgd", "projected_gradient",
           "exponentiated_gradient", "smg", "sg_l2", "radar", "eda", "rda", "pgs", "lbfgs", "forward_selection",
           "reference_solution", "working_set_cd", "regularization_path"]
