"""l1lab: stochastic methods for l1-regularized and l1-constrained loss minimization.

The reference package of the l1lab book: every algorithm and every bound of its five source papers.
"""
from . import datasets, losses, solvers, theory
from .losses import get_loss
from .problem import Problem
from .trace import Result, Trace, log_checkpoints

__all__ = ["Problem", "Result", "Trace", "datasets", "get_loss", "log_checkpoints", "losses", "solvers", "theory"]
__version__ = "0.1.0"
