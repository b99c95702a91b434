r"""Every time the book shows is taken here, after an untimed warm-up.

l1lab's kernels are compiled by numba the first time they run with a given type signature (and some, such as the
long-vector path of Condat's projection, only when a long vector first arrives), so the first call of a solver can
take a second where the next takes a millisecond.  A figure that plots such a first call shows the compiler, not the
algorithm.  The book layer therefore never reads a clock itself: it times with :func:`best_of` (repeated calls,
the first one untimed) or with a :class:`Clock` that runs its warm-up before it starts, and
``tests/test_timing.py`` checks that no other module of the book layer reads a clock, and that every function of
the book layer that reads a solver's own timing (a trace's ``seconds``) runs a warm-up first.
"""
from __future__ import annotations

import math
import time
from typing import Callable

__all__ = ["Clock", "best_of", "warm_up"]


def warm_up(fn: Callable, *args, **kwargs):
    """Call ``fn(*args, **kwargs)`` once, untimed, and return its result: the call that compiles what the timed
    calls then run (a smaller problem of the same types compiles the same kernels)."""
    return fn(*args, **kwargs)


def best_of(fn: Callable[[], object], *, repeats: int = 3, budget: float | None = None, max_reps: int = 200,
            warmups: int = 1):
    """``(best seconds, last result)`` of repeated calls of ``fn()`` after ``warmups`` untimed calls.

    With ``budget`` (seconds), calls go on after the first ``repeats`` while less than ``budget`` has been spent,
    up to ``max_reps`` calls; without it exactly ``repeats`` calls are timed.  The best of several calls is the
    least disturbed by the machine's other work."""
    if int(repeats) != repeats or repeats < 1:
        raise ValueError(f"repeats must be a positive integer, got {repeats!r}")
    if int(warmups) != warmups or warmups < 1:
        raise ValueError(f"warmups must be a positive integer (a first call compiles), got {warmups!r}")
    out = None
    for _ in range(int(warmups)):
        out = fn()
    best, spent, reps = math.inf, 0.0, 0
    while reps < repeats or (budget is not None and spent < budget and reps < max_reps):
        t0 = time.perf_counter()
        out = fn()
        dt = time.perf_counter() - t0
        best, spent, reps = min(best, dt), spent + dt, reps + 1
    return best, out


class Clock:
    """Seconds spent inside ``with clock:`` blocks, summed, for timings taken along a run (the time a solver has
    spent when it reaches each checkpoint).  ``warm_up`` is called once, untimed, when the clock is made: give it a
    short run of the same code on the same types, so that the timed blocks do not include numba's compilation.

    >>> clock = Clock(warm_up=lambda: None)
    >>> with clock:
    ...     pass
    >>> clock.seconds >= 0.0
    True
    """

    def __init__(self, warm_up: Callable[[], object]):
        if not callable(warm_up):
            raise TypeError("warm_up must be a callable: the untimed run that compiles what the clock times")
        warm_up()
        self.seconds = 0.0
        self._t0 = None

    def __enter__(self):
        if self._t0 is not None:
            raise RuntimeError("the clock is already running")
        self._t0 = time.perf_counter()
        return self

    def __exit__(self, *exc):
        self.seconds += time.perf_counter() - self._t0
        self._t0 = None
        return False

    def now(self) -> float:
        """The seconds counted so far, including the running block's."""
        return self.seconds + (time.perf_counter() - self._t0 if self._t0 is not None else 0.0)
