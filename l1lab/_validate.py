"""Argument checks at the API boundary, shared by every subpackage: one wording for one mistake.

Every check names the argument, says what it must be and shows what it got, and raises ``TypeError`` for a value
of the wrong kind (a string where a number belongs, an object array) and ``ValueError`` for a value of the right
kind outside its domain (NaN, inf, a negative count, an array of the wrong shape).  The checks run in Python
before any numba kernel is called; the kernels assume checked arguments.

Conventions (decided once, here):

* **Counts** (``n_iter``, ``m``, ``d``, ``k``, ``T``, ...) accept Python and numpy integers and floats that are
  exactly integral (``10.0``); they reject ``1.5``, NaN, inf and bools (``True`` is almost always a mistake for
  a count) with a ValueError, and strings with a TypeError.
* **Real parameters** accept any real number (Python, numpy, :class:`fractions.Fraction`); NaN is always
  rejected, inf only where the parameter's domain includes it; bools (ValueError) and strings (TypeError) are
  rejected.
* **Arrays** accept integer and floating dtypes (converted to float64: float32 data is converted exactly, so a
  float32 input gives bit for bit the result of its float64 conversion); object, string, bool and complex dtypes
  are rejected.  Read-only and non-contiguous inputs are accepted; a checked array that is not writable and
  C-contiguous float64 is copied, so no caller's array is ever modified and no kernel sees a read-only view.
* **Sparse matrices** must be CSR or CSC (the formats the kernels read); other scipy formats are rejected with
  the conversion to use (``X.tocsr()``).
* **Seeds**: None, a non-negative integer (an integral float is accepted like a count), a sequence of them, or a
  numpy ``Generator``/``SeedSequence``/``BitGenerator``.
"""
from __future__ import annotations

import functools
import inspect
import math
import numbers
import os

import numpy as np
import scipy.sparse as sp

__all__ = []  # private: the public functions call these


def _show(value):
    """A short repr of a bad value for an error message."""
    if isinstance(value, np.ndarray):
        return f"an array of shape {value.shape} and dtype {value.dtype}"
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _is_bool(value):
    return isinstance(value, (bool, np.bool_))


def _scalar(value):
    """value as a Python number when it is a real number (0-d numpy arrays included), else None."""
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    if _is_bool(value) or not isinstance(value, numbers.Real):
        return None
    return value


# ------------------------------------------------------------------------------------------------ scalars
def _integral(v, name, what, value):
    """The real number v (from :func:`_scalar`) as an int when it is integral, else a ValueError naming ``name``
    that says it must be ``what`` and shows ``value``."""
    if isinstance(v, numbers.Integral):
        return int(v)
    f = float(v)
    if not (math.isfinite(f) and f.is_integer()):
        raise ValueError(f"{name} must be {what}, got {_show(value)}")
    return int(f)


def check_count(value, name, *, minimum=0, maximum=None, allow_none=False):
    """``value`` as an int >= ``minimum`` (and <= ``maximum``), or a TypeError/ValueError naming ``name``."""
    if value is None and allow_none:
        return None
    v = _scalar(value)
    lower = "a non-negative integer" if minimum == 0 else f"an integer >= {minimum}"
    what = lower if maximum is None else f"an integer in [{minimum}, {maximum}]"
    if _is_bool(value):
        raise ValueError(f"{name} must be {what}, got the bool {value!r}")
    if v is None:
        raise TypeError(f"{name} must be {what}, got {_show(value)}")
    v = _integral(v, name, what, value)
    if v < minimum or (maximum is not None and v > maximum):
        raise ValueError(f"{name} must be {what}, got {_show(value)}")
    return v


def _domain(low, high, low_open, high_open, allow_inf):
    if low is None and high is None:
        return "a finite number" if not allow_inf else "a number (not NaN)"
    lo = "" if low is None else (f"> {low:g}" if low_open else f">= {low:g}")
    hi = "" if high is None else (f"< {high:g}" if high_open else f"<= {high:g}")
    if lo and hi:
        return f"a number in {'(' if low_open else '['}{low:g}, {high:g}{')' if high_open else ']'}"
    kind = "a finite number" if not allow_inf else "a number"
    return f"{kind} {lo or hi}"


def _in_domain(x, low, high, low_open, high_open, allow_inf):
    """Elementwise: x (float array) is not NaN, finite unless allowed, and inside the bounds."""
    ok = ~np.isnan(x)
    if not allow_inf:
        ok &= np.isfinite(x)
    if low is not None:
        ok &= (x > low) if low_open else (x >= low)
    if high is not None:
        ok &= (x < high) if high_open else (x <= high)
    return ok


def check_real(value, name, *, low=None, high=None, low_open=False, high_open=False, allow_inf=False,
               allow_none=False, allow_nan=False):
    """``value`` as a float in the given domain, or a TypeError/ValueError naming ``name`` (NaN passes only with
    ``allow_nan``: a recorded objective of a diverged run)."""
    if value is None and allow_none:
        return None
    what = _domain(low, high, low_open, high_open, allow_inf)
    if _is_bool(value):
        raise ValueError(f"{name} must be {what}, got the bool {value!r}")
    v = _scalar(value)
    if v is None:
        raise TypeError(f"{name} must be {what}, got {_show(value)}")
    f = float(v)
    if allow_nan and math.isnan(f):
        return f
    if not _in_domain(np.float64(f), low, high, low_open, high_open, allow_inf):
        raise ValueError(f"{name} must be {what}, got {_show(value)}")
    return f


def check_positive(value, name, *, allow_inf=False, allow_none=False):
    """A finite number > 0."""
    return check_real(value, name, low=0.0, low_open=True, allow_inf=allow_inf, allow_none=allow_none)


def check_nonnegative(value, name, *, allow_inf=False, allow_none=False):
    """A finite number >= 0."""
    return check_real(value, name, low=0.0, allow_inf=allow_inf, allow_none=allow_none)


def _numeric_array(value, name):
    """np.asarray(value) with a numeric (integer or floating) dtype, or a TypeError naming ``name``."""
    if sp.issparse(value):
        raise TypeError(f"{name} must be a dense array, got a scipy.sparse {value.format.upper()} matrix")
    try:
        a = np.asarray(value)
    except Exception as err:  # ragged nested sequences and the like
        raise TypeError(f"{name} must be a numeric array, got {_show(value)} ({err})") from None
    if a.dtype.kind not in "iuf":
        what = {"O": "object", "U": "string", "S": "bytes", "b": "bool", "c": "complex"}.get(a.dtype.kind, a.dtype)
        raise TypeError(f"{name} must be a numeric (integer or floating) array, got dtype {what}"
                        f"{' (' + str(a.dtype) + ')' if what != a.dtype else ''}")
    return a


def check_reals(value, name, *, low=None, high=None, low_open=False, high_open=False, allow_inf=False,
                allow_none=False, integral=False):
    """A real number or a numeric array of them (vectorized parameters such as T or eps of the bounds), each in
    the given domain (and integral with ``integral=True``).  Returns the value unchanged."""
    if value is None and allow_none:
        return None
    what = _domain(low, high, low_open, high_open, allow_inf)
    if integral:
        what = what.replace("a number", "an integer").replace("a finite number", "an integer")
    if _is_bool(value):
        raise ValueError(f"{name} must be {what} (or an array of them), got the bool {value!r}")
    if isinstance(value, (str, bytes)):
        raise TypeError(f"{name} must be {what} (or an array of them), got {_show(value)}")
    if isinstance(value, numbers.Real):
        x = np.float64(float(value))
    else:
        x = _numeric_array(value, name).astype(np.float64)
    ok = _in_domain(x, low, high, low_open, high_open, allow_inf)
    if integral:
        ok &= np.isfinite(x) & (x == np.round(x))
    if not np.all(ok):
        bad = x if x.ndim == 0 else x[~ok][0]
        raise ValueError(f"{name} must be {what}, got {_show(value) if x.ndim == 0 else bad}")
    return value


# ------------------------------------------------------------------------------------------------- arrays
def check_array(value, name, *, ndim=1, shape=None, allow_empty=False, finite=True, copy=False, like=None):
    """A float64 C-contiguous writable array of ``ndim`` dimensions (an int, a tuple of allowed ones, or None for
    any) and,
    if given, ``shape`` (None entries are free), or a TypeError/ValueError naming ``name``.

    The input is returned itself when it is already such an array and ``copy`` is False; otherwise it is
    converted (a copy): read-only or strided inputs are never written to, and never reach a kernel.  ``like``:
    the name of the argument whose shape ``shape`` is (the message of a mismatch names both)."""
    a = _numeric_array(value, name)
    dims = (ndim,) if isinstance(ndim, int) else (a.ndim,) if ndim is None else tuple(ndim)
    if a.ndim not in dims:
        want = " or ".join(f"{k}-d" for k in dims)
        raise ValueError(f"{name} must be a {want} array, got shape {a.shape}")
    if shape is not None:
        if len(shape) != a.ndim or any(s is not None and s != t for s, t in zip(shape, a.shape)):
            want = "(" + ", ".join("*" if s is None else str(s) for s in shape) + ("," if len(shape) == 1 else "") + ")"
            of = f" (the shape of {like})" if like else ""
            raise ValueError(f"{name} must have shape {want}{of}, got {a.shape}")
    if a.size == 0 and not allow_empty:
        raise ValueError(f"{name} must not be empty, got shape {a.shape}")
    if finite and not np.all(np.isfinite(a)):
        raise ValueError(f"{name} contains NaN or infinite entries")
    if copy or a.dtype != np.float64 or not a.flags.c_contiguous or not a.flags.writeable:
        a = np.array(a, dtype=np.float64, order="C", copy=True)
    return a


def check_index_array(value, name, *, ndim=1, upper=None, allow_empty=False):
    """An int64 array of indices in [0, upper) (integral floats are accepted), or an error naming ``name``."""
    a = _numeric_array(value, name)
    dims = (ndim,) if isinstance(ndim, int) else tuple(ndim)
    if a.ndim not in dims:
        want = " or ".join(f"{k}-d" for k in dims)
        raise ValueError(f"{name} must be a {want} array of indices, got shape {a.shape}")
    if a.size == 0 and not allow_empty:
        raise ValueError(f"{name} must not be empty")
    if a.dtype.kind == "f" and not np.all(np.isfinite(a) & (a == np.round(a))):
        raise ValueError(f"{name} must hold integer indices")
    bound = "" if upper is None else f", {upper})"
    if a.size and (a.min() < 0 or (upper is not None and a.max() >= upper)):
        raise ValueError(f"{name} must hold indices in [0{bound or ', inf)'}, got values in [{a.min()}, {a.max()}]")
    return np.array(a, dtype=np.int64, order="C", copy=True)


SPARSE_FORMATS = ("csr", "csc")


def check_matrix(X, name="X", *, finite=True, allow_sparse=True, allow_empty=False):
    """A 2-d float64 array (C- or F-contiguous, writable: a copy otherwise) or a CSR/CSC matrix with float64
    values, or a TypeError/ValueError naming ``name``.  Other sparse formats are rejected with the conversion
    that fixes them.  The input is returned itself when nothing needs converting (never modified)."""
    if sp.issparse(X):
        if not allow_sparse:
            raise TypeError(f"{name} must be a dense array, got a scipy.sparse {X.format.upper()} matrix; "
                            f"use {name}.toarray()")
        if X.format not in SPARSE_FORMATS:
            raise TypeError(f"{name} must be a dense array or a scipy.sparse CSR or CSC matrix, got the "
                            f"{X.format.upper()} format; convert it with {name}.tocsr() or {name}.tocsc()")
        if X.ndim != 2:
            raise ValueError(f"{name} must be 2-dimensional, got shape {X.shape}")
        if X.dtype.kind not in "iuf":
            raise TypeError(f"{name} must have numeric (integer or floating) values, got dtype {X.dtype}")
        if (X.shape[0] == 0 or X.shape[1] == 0) and not allow_empty:
            raise ValueError(f"{name} must not be empty, got shape {X.shape}")
        if finite and not np.all(np.isfinite(X.data)):
            raise ValueError(f"{name} contains NaN or infinite entries")
        if X.dtype != np.float64:
            X = X.astype(np.float64)
        return X
    a = _numeric_array(X, name)
    if a.ndim != 2:
        raise ValueError(f"{name} must be a 2-dimensional array (m examples x d features), got shape {a.shape}")
    if (a.shape[0] == 0 or a.shape[1] == 0) and not allow_empty:
        raise ValueError(f"{name} must not be empty, got shape {a.shape}")
    if finite and not np.all(np.isfinite(a)):
        raise ValueError(f"{name} contains NaN or infinite entries")
    if a.dtype != np.float64 or not a.flags.writeable or not (a.flags.c_contiguous or a.flags.f_contiguous):
        a = np.array(a, dtype=np.float64, order="K" if (a.flags.c_contiguous or a.flags.f_contiguous) else "C",
                     copy=True)
    return a


# ------------------------------------------------------------------------------------------------- others
def check_choice(value, name, options):
    """``value`` if it is one of ``options``, else a ValueError naming ``name`` and listing them."""
    try:
        ok = any(value is o or (type(value) is type(o) and value == o) for o in options)
    except Exception:  # an array compared with a string, ...
        ok = False
    if not ok:
        raise ValueError(f"{name} must be one of {', '.join(repr(o) for o in options)}; got {_show(value)}")
    return value


def check_flag(value, name):
    """A bool (Python or numpy), or a TypeError naming ``name``."""
    if not _is_bool(value):
        raise TypeError(f"{name} must be True or False, got {_show(value)}")
    return bool(value)


def check_seed(seed, name="seed"):
    """A valid argument of ``numpy.random.default_rng``: None, a non-negative integer (integral floats are
    accepted and converted), a sequence of them, or a numpy Generator, SeedSequence or BitGenerator; otherwise
    a TypeError/ValueError naming ``name``."""
    if seed is None or isinstance(seed, (np.random.Generator, np.random.SeedSequence, np.random.BitGenerator)):
        return seed
    what = "None, a non-negative integer, a sequence of them or a numpy Generator"
    if _is_bool(seed):
        raise ValueError(f"{name} must be {what}, got the bool {seed!r}")
    v = _scalar(seed)
    if v is not None:
        v = _integral(v, name, what, seed)
        if v < 0:
            raise ValueError(f"{name} must be {what}, got {_show(seed)}")
        return v
    if _is_bool(seed) or isinstance(seed, (str, bytes)) or not isinstance(seed, (list, tuple, np.ndarray)):
        raise TypeError(f"{name} must be {what}, got {_show(seed)}")
    return [check_seed(s, name) for s in np.asarray(seed, dtype=object).ravel()]


def check_callable(value, name, *, allow_none=False):
    """A callable (or None when allowed), or a TypeError naming ``name``."""
    if (value is None and allow_none) or callable(value):
        return value
    raise TypeError(f"{name} must be a callable{' or None' if allow_none else ''}, got {_show(value)}")


def check_path(value, name, *, allow_none=False):
    """A str or os.PathLike (or None when allowed), or a TypeError naming ``name``."""
    if (value is None and allow_none) or isinstance(value, (str, os.PathLike)):
        return value
    raise TypeError(f"{name} must be a path (str or os.PathLike){' or None' if allow_none else ''}, "
                    f"got {_show(value)}")


def check_text(value, name, *, allow_none=False):
    """A str (or None when allowed), or a TypeError naming ``name``."""
    if (value is None and allow_none) or isinstance(value, str):
        return value
    raise TypeError(f"{name} must be a str{' or None' if allow_none else ''}, got {_show(value)}")


# ------------------------------------------------------------------------------------- declared parameters
class Param:
    """A declared parameter domain: ``Param(check, **options)`` checks a value with ``check(value, name,
    **options)``; ``optional=True`` lets None through (the parameter's "not given")."""

    __slots__ = ("check", "options", "optional", "what")

    def __init__(self, check, optional=False, what=None, **options):
        self.check, self.options, self.optional, self.what = check, options, optional, what

    def __call__(self, value, name):
        if value is None and self.optional:
            return
        self.check(value, self.what or name, **self.options)

    def opt(self):
        """The same domain, None allowed."""
        return Param(self.check, optional=True, what=self.what, **self.options)

    def named(self, what):
        """The same domain, described as ``what`` in messages (e.g. "the epoch index i": it must contain the name)."""
        return Param(self.check, optional=self.optional, what=what, **self.options)


def _anything(value, name):
    return None


#: a parameter that is not checked (its own function checks it, or any value is meaningful)
ANY = Param(_anything)


def checked(table, **overrides):
    """Decorator: check every argument of the decorated function against ``overrides`` or, by parameter name,
    ``table`` (a dict name -> :class:`Param`), before the call.  Every parameter must have an entry: a new
    parameter without a domain fails at import time.  A parameter whose default is None also accepts None.
    Arguments are checked, never converted."""

    def decorate(func):
        sig = inspect.signature(func)
        specs = {}
        for pname, par in sig.parameters.items():
            if par.kind in (par.VAR_POSITIONAL, par.VAR_KEYWORD):
                continue  # **options: the function passes them on to a checked function
            spec = overrides.get(pname, table.get(pname))
            if spec is None:
                raise TypeError(f"{func.__module__}.{func.__qualname__}: no declared domain for parameter {pname!r}")
            specs[pname] = spec.opt() if par.default is None else spec  # a default None means "not given"

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            try:
                bound = sig.bind(*args, **kwargs)
            except TypeError as err:
                raise TypeError(f"{func.__name__}(): {err}") from None
            for pname, value in bound.arguments.items():
                if pname in specs:
                    specs[pname](value, pname)
            return func(*args, **kwargs)

        return wrapper

    return decorate


def count(minimum=0, maximum=None):
    """A count (an integer; integral floats accepted) >= ``minimum``."""
    return Param(check_count, minimum=minimum, maximum=maximum)


def counts(minimum=0):
    """A count or an array of counts >= ``minimum`` (vectorized parameters such as T of the bounds)."""
    return Param(check_reals, low=minimum, integral=True)


def real(low=None, high=None, low_open=False, high_open=False, allow_inf=False):
    """A real number in the given domain."""
    return Param(check_real, low=low, high=high, low_open=low_open, high_open=high_open, allow_inf=allow_inf)


def reals(low=None, high=None, low_open=False, high_open=False, allow_inf=False):
    """A real number or an array of them, each in the given domain."""
    return Param(check_reals, low=low, high=high, low_open=low_open, high_open=high_open, allow_inf=allow_inf)


def positive(allow_inf=False):
    """A number > 0 (finite unless ``allow_inf``)."""
    return real(low=0.0, low_open=True, allow_inf=allow_inf)


def nonnegative(allow_inf=False):
    """A number >= 0 (finite unless ``allow_inf``)."""
    return real(low=0.0, allow_inf=allow_inf)


def probability(open_low=True, open_high=True):
    """A number in (0, 1), its ends included on request."""
    return real(low=0.0, high=1.0, low_open=open_low, high_open=open_high)


def vector(ndim=1, finite=True, allow_empty=False):
    """A numeric array of ``ndim`` dimensions (an int or a tuple)."""
    return Param(check_array, ndim=ndim, finite=finite, allow_empty=allow_empty)


FLAG = Param(check_flag)
SEED = Param(check_seed)

