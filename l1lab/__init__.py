"""l1lab: stochastic methods for l1-regularized and l1-constrained loss minimization.

The reference package of the l1lab book: every algorithm and every bound of its five source papers.

* :class:`Problem` -- data, a loss and lambda: P(w) = C(w) + lambda ||w||_1 (:mod:`l1lab.problem`), with the
  losses (:mod:`l1lab.losses`) and the p-norm links (:mod:`l1lab.links`);
* :mod:`l1lab.solvers` -- every algorithm, each returning a :class:`Result` (final iterate and :class:`Trace`);
* :mod:`l1lab.projections` -- Euclidean projections onto the simplex and the l1 ball, dense and sparse;
* :mod:`l1lab.theory` -- every theorem bound of the five papers, one module per paper, and their registry;
* :mod:`l1lab.data` -- feature scaling, the papers' synthetic setups, the real data sets with a verified cache;
* :mod:`l1lab.experiments` -- many seeds of a solver aligned checkpoint by checkpoint, and cached sweeps.

Not imported here: :mod:`l1lab.estimators` (scikit-learn estimators ``L1Regressor`` and ``L1Classifier``; needs
scikit-learn) and :mod:`l1lab.book` (the book's figures and widgets; needs matplotlib and ipywidgets).
``import l1lab`` needs only numpy, scipy and numba.
"""
from . import data, experiments, links, losses, projections, solvers, theory
from .losses import get_loss
from .problem import Problem
from .solvers import reference_solution
from .trace import Result, Trace, log_checkpoints

__all__ = ["Problem", "Result", "Trace", "data", "experiments", "get_loss", "links", "log_checkpoints", "losses",
           "projections", "reference_solution", "solvers", "theory"]
__version__ = "0.1.0"
