r"""Own code only: while a student's function runs under a checker, l1lab's solvers, projections and bounds are out
of reach.

A graded exercise asks for an implementation (a projection, a step, a bound).  l1lab has all of them, one import
away, so the checker runs the student's function inside :func:`own_code_only`:

* every function and class of the reference package (``l1lab`` outside its book layer ``l1lab.book``) is replaced,
  in its module and in the namespaces the checker names (the notebook's globals), by a stand-in that raises
  :class:`OwnCodeRequired` with a message that says what the exercise asks; so does a name bound before the check
  (``from l1lab.projections import project_l1_ball as proj``);
* a profile hook records any call that still reaches the reference package's code (a method of an l1lab object, a
  reference kept in a list): the check then fails with the same message when the function returns.

Everything is restored when the block ends.  The checker computes its own reference before it enters the block, so
it is unaffected.  This stops a student who calls l1lab by mistake, with a clear message; it is not a sandbox
against a student who sets out to cheat (code in the same process can undo anything), which is why the grading
command also reads each submission's source (:mod:`l1lab.book.coursework.runner`).
"""
from __future__ import annotations

import contextlib
import os
import sys
import types

__all__ = ["OwnCodeRequired", "own_code_only", "reference_package_callables"]

#: the reference package's folder; its book layer (l1lab/book) is not part of it
_PACKAGE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_BOOK = os.path.join(_PACKAGE, "book")


class OwnCodeRequired(RuntimeError):
    """A student's function called l1lab while an exercise asked for the student's own code."""


def _message(name):
    return (f"{name} is not available in this exercise: it asks for your own code (numpy, scipy and the standard "
            "library are fine, l1lab's solvers, projections and bounds are not)")


def _is_reference(obj) -> bool:
    module = getattr(obj, "__module__", None)
    if not isinstance(module, str):
        return False
    return (module == "l1lab" or module.startswith("l1lab.")) and not module.startswith("l1lab.book")


def _reference_modules():
    return [m for name, m in list(sys.modules.items())
            if isinstance(m, types.ModuleType) and (name == "l1lab" or name.startswith("l1lab."))
            and not name.startswith("l1lab.book")]


def reference_package_callables(namespace) -> dict:
    """{name: object} of the reference package's functions and classes bound in ``namespace`` (a dict)."""
    return {k: v for k, v in namespace.items()
            if not isinstance(v, types.ModuleType) and callable(v) and _is_reference(v)}


def _stand_in(obj):
    name = f"{getattr(obj, '__module__', 'l1lab')}.{getattr(obj, '__qualname__', getattr(obj, '__name__', '?'))}"

    def unavailable(*args, **kwargs):
        raise OwnCodeRequired(_message(name))

    unavailable.__name__ = getattr(obj, "__name__", "unavailable")
    unavailable.__doc__ = _message(name)
    return unavailable


def _in_reference_code(filename: str) -> bool:
    path = os.path.abspath(filename)
    return path.startswith(_PACKAGE + os.sep) and not path.startswith(_BOOK + os.sep)


@contextlib.contextmanager
def own_code_only(*namespaces):
    """Run the block with l1lab's reference package out of reach (see the module's description).  ``namespaces``:
    dicts (a notebook's globals) whose l1lab names are replaced too.  Raises :class:`OwnCodeRequired` at the end
    of the block if a call reached the reference package's code anyway."""
    saved = []
    stand_ins = {}

    def swap(holder, setter, name, obj):
        stand_in = stand_ins.setdefault(id(obj), _stand_in(obj))
        saved.append((holder, setter, name, obj))
        setter(holder, name, stand_in)

    for module in _reference_modules():
        for name, obj in list(vars(module).items()):
            if not isinstance(obj, types.ModuleType) and callable(obj) and _is_reference(obj):
                swap(module, setattr, name, obj)
    for ns in namespaces:
        for name, obj in reference_package_callables(ns).items():
            swap(ns, dict.__setitem__, name, obj)
    reached = []
    previous = sys.getprofile()

    def hook(frame, event, arg):
        if event == "call" and not reached and _in_reference_code(frame.f_code.co_filename) \
                and not (frame.f_back is not None and _in_reference_code(frame.f_back.f_code.co_filename)):
            reached.append(f"{frame.f_globals.get('__name__', 'l1lab')}.{frame.f_code.co_name}")

    sys.setprofile(hook)
    try:
        yield
    finally:
        sys.setprofile(previous)
        for holder, setter, name, obj in reversed(saved):
            setter(holder, name, obj)
    if reached:
        raise OwnCodeRequired(_message(reached[0]))

