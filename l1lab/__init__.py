"""l1lab: stochastic methods for l1-regularized and l1-constrained loss minimization.

The reference package of the l1lab book: every algorithm and every bound of its five source papers.
``l1lab.widgets`` (ipywidgets) is not imported here: import it explicitly in a notebook.
``l1lab.estimators`` (scikit-learn estimators ``L1Regressor`` and ``L1Classifier``) is not imported here either,
to keep ``import l1lab`` free of scikit-learn's import time: ``from l1lab.estimators import L1Classifier``.
"""
from . import datasets, experiments, links, losses, plotting, solvers, theory
from .losses import get_loss
from .problem import Problem
from .trace import Result, Trace, log_checkpoints

__all__ = ["Problem", "Result", "Trace", "datasets", "experiments", "get_loss", "links", "log_checkpoints",
           "losses", "plotting", "solvers", "theory"]
__version__ = "0.1.0"
