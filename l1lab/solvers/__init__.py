"""l1lab solvers.  Each returns an :class:`l1lab.trace.Result` (final iterate + trace)."""
from .coordinate import cyclic_cd, gcd, scd

__all__ = ["scd", "cyclic_cd", "gcd"]
