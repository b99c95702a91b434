"""One bad-input matrix over every public entry point of l1lab.

Every public function, class (its constructor) and public method of a class of the core package is found from the
``__all__`` of ``l1lab`` and of each public module below it (a module without ``__all__``: the public names it
defines), recursively; ``l1lab.book``, the chapters' layer, is not part of it.  The scikit-learn estimators are
checked through ``fit`` (constructor parameters are validated at fit time, as scikit-learn wants) and their
prediction methods.  Each argument is described once, by its parameter name, in :data:`TABLE` (a small valid
value and the kind of the parameter), with :data:`OVERRIDES` where a name means something else in one module or
function.  The matrix then substitutes one argument at a time with each bad value of its kind:

* counts (n_iter, m, d, k, T, ...): 1.5, NaN, inf, a value below the minimum, a string, a bool;
* real parameters: NaN, a string, inf (unless the domain includes it), values outside the domain (0 where it
  must be positive, negative where it must be >= 0, above 1 for a probability);
* arrays: NaN and inf entries, the wrong number of dimensions, the wrong length, empty, object and string dtypes;
* feature matrices: the same, and the sparse formats other than CSR/CSC (COO, LIL, DOK);
* choices (a name from a list), seeds, problems, paths, callables: a value of the wrong kind.

Each bad call must raise a ``ValueError`` or ``TypeError`` whose message names the argument: never a crash inside
numba or numpy, never a silent result.  Every valid call must leave its inputs unchanged, and read-only and
non-contiguous arrays must give exactly the result of their writable contiguous copies.

A public callable with a parameter that the table does not know fails :func:`test_every_parameter_is_described`,
which names the entry to add, so a new public function is covered without writing a test.  Constants (tuples,
dicts, ``Loss`` instances), exception classes and plain records (dataclasses) are skipped by type; numba kernels
are skipped by name (:data:`KERNELS`: they are the building blocks of the compiled solvers and take checked
arguments; their public wrappers are in the matrix).
"""
from __future__ import annotations

import atexit
import copy
import dataclasses
import fnmatch
import hashlib
import importlib
import inspect
import math
import pkgutil
import re
import shutil
import tempfile
import types
import warnings
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

import l1lab
from l1lab.losses import Loss

# ============================================================================================ discovery


def _public_modules():
    mods = [l1lab]
    for info in pkgutil.walk_packages(l1lab.__path__, "l1lab."):
        parts = info.name.split(".")
        if parts[1] == "book" or any(p.startswith("_") for p in parts[1:]):
            continue
        mods.append(importlib.import_module(info.name))
    return mods


def _public_names(mod):
    if hasattr(mod, "__all__"):
        return list(mod.__all__)
    return [n for n, o in vars(mod).items() if not n.startswith("_") and getattr(o, "__module__", None) == mod.__name__]


#: constants exported by the modules (METHODS, REGISTRY, SOURCES, the Loss instances, ...), skipped by type
CONSTANT_TYPES = (tuple, list, dict, frozenset, set, str, bytes, int, float, Loss)

#: numba kernels that are public names of their modules, skipped: they are compiled building blocks (callable from
#: other kernels, or run by the solvers on arguments those already checked), not entry points
KERNELS = {
    "l1lab.losses.loss_value": "scalar kernel of the compiled solvers; Loss.value is the checked entry point",
    "l1lab.losses.loss_deriv": "scalar kernel of the compiled solvers; Loss.deriv is the checked entry point",
    "l1lab.losses.loss_second": "scalar kernel of the compiled solvers; Loss.second is the checked entry point",
    "l1lab.losses.mean_loss": "kernel of Problem.smooth_from_margins, which checks its arguments",
    "l1lab.solvers.exponentiated.eg_chunk": "chunk kernel of exponentiated_gradient",
    "l1lab.solvers.projected.project_inplace": "kernel of psg_chunk and the book's timing demo",
    "l1lab.solvers.projected.psg_chunk": "chunk kernel of projected_gradient",
}


def _is_kernel(obj):
    return type(obj).__module__.startswith("numba") and hasattr(obj, "py_func")


def _is_record(cls):
    return dataclasses.is_dataclass(cls)


def _is_estimator(cls):
    try:
        from sklearn.base import BaseEstimator
    except ImportError:  # pragma: no cover
        return False
    return issubclass(cls, BaseEstimator)


@dataclasses.dataclass
class Entry:
    """One checked entry point: ``id`` (module.qualname), its parameters, and how to call it with keywords."""

    id: str
    params: list          # [(name, has_default)]
    call: object          # call(kwargs) -> result
    kind: str = "function"  # "function", "class" (its constructor), "method" (on an INSTANCES instance), "fit"


def _params(func, skip_self=False):
    sig = inspect.signature(func)
    out = []
    for i, p in enumerate(sig.parameters.values()):
        if skip_self and i == 0:
            continue
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        out.append((p.name, p.default is not p.empty))
    return out


def _own_methods(cls):
    """Public methods defined by the class itself (or an l1lab base), not properties, not dunders."""
    out = {}
    for klass in reversed(cls.__mro__):
        if not klass.__module__.startswith("l1lab"):
            continue
        for name, val in vars(klass).items():
            if name.startswith("_") or not inspect.isfunction(val):
                continue
            out[name] = val
    return out


def _discover():
    entries, skipped, unknown = {}, {}, []
    seen = set()
    for mod in _public_modules():
        for name in _public_names(mod):
            obj = getattr(mod, name)
            where = f"{mod.__name__}.{name}"
            if isinstance(obj, types.ModuleType):
                continue
            if isinstance(obj, CONSTANT_TYPES):
                skipped[where] = "constant"
                continue
            if _is_kernel(obj):
                key = f"{obj.py_func.__module__}.{obj.py_func.__qualname__}"
                if key in KERNELS:
                    skipped[key] = "numba kernel"
                else:
                    unknown.append(f"{key}: a public numba kernel: wrap it in a checked Python function or list it "
                                   "in KERNELS with the reason")
                continue
            if inspect.isclass(obj):
                key = f"{obj.__module__}.{obj.__qualname__}"
                if key in seen:
                    continue
                seen.add(key)
                if issubclass(obj, BaseException):
                    skipped[key] = "exception class"
                elif _is_record(obj):
                    skipped[key] = "record (dataclass)"
                elif _is_estimator(obj):
                    _add_estimator(entries, key, obj)
                else:
                    entries[key] = Entry(key, _params(obj.__init__, skip_self=True),
                                         (lambda kw, cls=obj: cls(**kw)), "class")
                    for mname, meth in _own_methods(obj).items():
                        mkey = f"{key}.{mname}"
                        entries[mkey] = Entry(mkey, _params(meth, skip_self=True),
                                              (lambda kw, k=mkey, m=mname: getattr(_instance(k), m)(**kw)), "method")
                continue
            if inspect.isfunction(obj) or inspect.isbuiltin(obj):
                key = f"{obj.__module__}.{obj.__qualname__}"
                if key in seen:
                    continue
                seen.add(key)
                entries[key] = Entry(key, _params(obj), (lambda kw, f=obj: f(**kw)))
                continue
            unknown.append(f"{where}: a public {type(obj).__name__} the matrix does not know how to check")
    return entries, skipped, unknown


def _add_estimator(entries, key, cls):
    ctor = _params(cls.__init__, skip_self=True)
    fit = [(n, d) for n, d in _params(cls.fit, skip_self=True)]
    ctor_names = [n for n, _ in ctor]

    def fit_call(kw, cls=cls):
        est = cls(**{k: v for k, v in kw.items() if k in ctor_names})
        return est.fit(**{k: v for k, v in kw.items() if k not in ctor_names})

    entries[f"{key}.fit"] = Entry(f"{key}.fit", ctor + fit, fit_call, "fit")
    for mname, meth in _own_methods(cls).items():
        if mname == "fit":
            continue
        mkey = f"{key}.{mname}"
        entries[mkey] = Entry(mkey, _params(meth, skip_self=True),
                              (lambda kw, k=mkey, m=mname: getattr(_instance(k), m)(**kw)), "method")


# ============================================================================================ kinds


class Spec:
    """A parameter's kind, a factory of a small valid value and the options of the kind.

    ``given``: pass the valid value even when the parameter has a default (its bad values are tested either way).
    ``none``: None is a valid value (the parameter's "not given").
    """

    kind = "opaque"

    def __init__(self, make=None, given=False, none=False, **opts):
        self._make, self.given, self.none, self.opts = make, given, none, opts

    def valid(self):
        v = self._make() if callable(self._make) and not isinstance(self._make, type) else self._make
        return copy.deepcopy(v) if isinstance(v, (np.ndarray, list, dict)) or sp.issparse(v) else v

    def bad(self):
        """{label: factory of the bad value}."""
        return {}

    def variants(self):
        """{label: transform of the valid value} that must give the same result."""
        return {}


class Opaque(Spec):
    """Not checked by the matrix (a flag, a dict of options, a value any type of which is meaningful)."""


class Count(Spec):
    kind = "count"

    def bad(self):
        lo, hi = self.opts.get("min", 0), self.opts.get("max")
        v = self.valid()
        base = 3 if v is None else v
        out = {"fraction": lambda: base + 0.5, "nan": lambda: math.nan, "inf": lambda: math.inf,
               "below minimum": lambda: lo - 1, "string": lambda: str(base), "bool": lambda: True}
        if hi is not None:
            out["above maximum"] = lambda: hi + 1
        if self.opts.get("array"):
            out["array with a fraction"] = lambda: np.array([base, base + 0.5])
        return out


class Real(Spec):
    kind = "real"

    def bad(self):
        o = self.opts
        lo, hi = o.get("lo"), o.get("hi")
        out = {"nan": lambda: math.nan, "string": lambda: "0.5"}
        if not o.get("inf_ok"):
            out["inf"] = lambda: math.inf
            if lo is None:
                out["-inf"] = lambda: -math.inf
        if lo is not None:
            out["below domain"] = (lambda: lo) if o.get("lo_open") else (lambda: lo - 1.0)
        if hi is not None:
            out["above domain"] = (lambda: hi) if o.get("hi_open") else (lambda: hi + 1.0)
        if o.get("array"):
            base = self.valid()
            out["array with nan"] = lambda: np.array([base, math.nan])
        return out


class Vector(Spec):
    """A numeric array (1-d by default; ``ndim`` an int or a tuple of allowed dimensions)."""

    kind = "array"

    def bad(self):
        o = self.opts
        ndims = o.get("ndim", 1)
        ndims = (ndims,) if isinstance(ndims, int) else tuple(ndims)
        out = {}

        def with_value(x):
            def make():
                a = np.array(self.valid(), dtype=np.float64)
                a.flat[a.size // 2] = x
                return a
            return make

        if o.get("finite", True):
            out["nan entry"] = with_value(math.nan)
            out["inf entry"] = with_value(math.inf)
        if o.get("lo") is not None:
            out["entry below domain"] = with_value(o["lo"] - 1.0)
        if not o.get("any_ndim"):
            wrong = max(ndims) + 1
            out["wrong ndim"] = lambda: np.asarray(self.valid(), dtype=np.float64).reshape(
                (1,) * (wrong - np.ndim(self.valid())) + np.shape(self.valid()))
        if not o.get("empty_ok"):
            out["empty"] = lambda: np.zeros((0,) + np.shape(self.valid())[1:])
        if o.get("tied"):
            out["wrong length"] = lambda: np.asarray(self.valid())[..., :-1]
        if not o.get("sklearn"):             # scikit-learn converts an object array of numbers
            out["object dtype"] = lambda: np.asarray(self.valid()).astype(object)
        out["string dtype"] = lambda: np.asarray(self.valid()).astype(str)
        return out

    def variants(self):
        out = {"read-only": _read_only, "non-contiguous": _strided}
        if self.opts.get("sklearn"):
            out["object dtype"] = lambda a: np.asarray(a).astype(object)
        return out


class Labels(Vector):
    """Labels of a classifier: any type of label is valid (strings too), NaN is not."""

    def bad(self):
        out = super().bad()
        for k in ("string dtype", "object dtype", "inf entry"):
            out.pop(k, None)
        return out


class Indices(Spec):
    """An integer index array (entries in [0, upper))."""

    kind = "indices"

    def bad(self):
        o = self.opts
        ndims = o.get("ndim", 1)
        ndims = (ndims,) if isinstance(ndims, int) else tuple(ndims)
        v = lambda: np.asarray(self.valid())  # noqa: E731
        out = {"fraction": lambda: v() + 0.5, "negative": lambda: v() - 100, "nan entry":
               lambda: np.where(np.arange(v().size).reshape(v().shape) == 0, np.nan, v()),
               "object dtype": lambda: v().astype(object), "string dtype": lambda: v().astype(str),
               "wrong ndim": lambda: v().reshape((1,) * (max(ndims) + 1 - v().ndim) + v().shape)}
        if o.get("upper") is not None:
            out["out of range"] = lambda: v() + o["upper"]
        if not o.get("empty_ok"):
            out["empty"] = lambda: np.zeros((0,) + v().shape[1:], dtype=np.int64)
        return out

    def variants(self):
        return {"read-only": _read_only, "non-contiguous": _strided}


class Matrix(Spec):
    """A feature matrix: dense, or CSR/CSC when ``sparse`` (the default)."""

    kind = "matrix"

    def bad(self):
        o = self.opts
        v = lambda: np.asarray(self.valid().toarray() if sp.issparse(self.valid()) else self.valid())  # noqa: E731

        def with_value(x):
            def make():
                a = np.array(v(), dtype=np.float64)
                a[a.shape[0] // 2, a.shape[1] // 2] = x
                return a
            return make

        out = {"wrong ndim": lambda: v()[0], "object dtype": lambda: v().astype(object),
               "string dtype": lambda: v().astype(str)}
        if o.get("finite", True):
            out.update({"nan entry": with_value(math.nan), "inf entry": with_value(math.inf)})
        if not o.get("empty_ok"):
            out["empty"] = lambda: v()[:0]
        if o.get("tied"):
            out["wrong rows"] = lambda: v()[:-1]
        if o.get("sklearn"):
            del out["object dtype"]          # scikit-learn's convention: both are converted (check_dtype_object)
        elif o.get("sparse", True):
            out.update({"COO": lambda: sp.coo_matrix(v()), "LIL": lambda: sp.lil_matrix(v()),
                        "DOK": lambda: sp.dok_matrix(v())})
        else:
            out["sparse"] = lambda: sp.csr_matrix(v())
        return out

    def variants(self):
        out = {"read-only": _read_only, "non-contiguous": _strided}
        if self.opts.get("sparse", True):
            out.update({"CSR": sp.csr_matrix, "CSC": sp.csc_matrix})
        if self.opts.get("sklearn"):
            out.update({"object dtype": lambda a: np.asarray(a).astype(object), "COO": sp.coo_matrix,
                        "LIL": sp.lil_matrix, "DOK": sp.dok_matrix})
        return out


class Choice(Spec):
    kind = "choice"

    def bad(self):
        return {"unknown name": lambda: "no-such-option", "wrong type": lambda: 3.5}


class Seed(Spec):
    kind = "seed"

    def bad(self):
        return {"fraction": lambda: 1.5, "negative": lambda: -1, "string": lambda: "0"}


class Instance(Spec):
    """An object of a given type (a Problem, a Dataset, a sampler, ...): a value of the wrong type."""

    kind = "instance"

    def bad(self):
        return {"wrong type": lambda: 3.5}


class Function(Spec):
    kind = "callable"

    def bad(self):
        return {"not callable": lambda: 3.5}


class PathArg(Spec):
    kind = "path"

    def bad(self):
        return {"not a path": lambda: 3.5}


class Text(Spec):
    kind = "text"

    def bad(self):
        return {"not a string": lambda: 3.5}


def _read_only(a):
    if sp.issparse(a):
        return a
    a = np.array(a)
    a.setflags(write=False)
    return a


def _strided(a):
    """The same values in a non-contiguous view (every other element of a twice-as-large array)."""
    if sp.issparse(a):
        return a
    a = np.asarray(a)
    if a.ndim == 0:
        return a
    big = np.zeros(a.shape[:-1] + (2 * a.shape[-1],), dtype=a.dtype)
    big[..., ::2] = a
    return big[..., ::2]


# ============================================================================================ valid values
M, D = 8, 5
_RNG = np.random.default_rng(2024)
X8 = np.round(_RNG.uniform(-1.0, 1.0, (M, D)), 3)
Y_REG = np.round(_RNG.standard_normal(M), 3)
Y_CLS = np.array([1.0, -1.0, 1.0, 1.0, -1.0, -1.0, 1.0, -1.0])
W5 = np.array([0.5, -0.25, 0.0, 1.0, -0.75])
V6 = np.array([0.3, -1.2, 0.0, 2.5, -0.4, 0.9])
_TMP = Path(tempfile.mkdtemp(prefix="l1lab-bad-inputs-"))
atexit.register(shutil.rmtree, _TMP, ignore_errors=True)


def _tmp(name):
    p = _TMP / name
    p.mkdir(parents=True, exist_ok=True)
    return p


def _problem(loss="squared", lam=0.05, sparse=False):
    y = Y_REG if loss == "squared" else Y_CLS
    return l1lab.Problem(sp.csc_matrix(X8) if sparse else X8, y, loss, lam)


def _stream():
    from l1lab.data.radar import UniformDesignStream

    return UniformDesignStream(np.array([0.5, -0.5, 0.0, 0.0, 0.25]), B=1.0, noise_var=0.5)


def _results_manifest():
    p = _tmp("results") / "manifest"
    p.write_text("matrix/result.npz\n")
    return p


def _svmlight_file():
    p = _tmp("svm") / "tiny.svm"
    if not p.exists():
        p.write_text("1 1:0.5 3:-1\n-1 2:0.25\n1 1:1 2:1 3:1\n")
    return p


def _remote():
    from l1lab.data.real import RemoteFile

    p = _svmlight_file()
    return RemoteFile(name=p.name, url="https://invalid.example/tiny.svm",
                      sha256=hashlib.sha256(p.read_bytes()).hexdigest())


def _dataset():
    from l1lab.data.real import Dataset

    return Dataset.from_arrays("tiny", X8, Y_CLS)


def _sweep():
    from l1lab.experiments import run_sweep

    return run_sweep(_dataset(), solvers=("scd", "smidas"), lams=(0.01,), etas=(0.1,), epochs=1.0,
                     cache_dir=False, progress=False)


def _index_root():
    root = _tmp("index")
    (root / "tests").mkdir(exist_ok=True)
    (root / "chapters").mkdir(exist_ok=True)
    t = root / "tests" / "test_x.py"
    if not t.exists():
        t.write_text("def test_x():\n    scd_psi0(1, 2, 3)\n")
    return root


def _solver():
    from l1lab.solvers import scd

    return scd


P = _problem            # the default problem: squared loss, lam = 0.05
P0 = lambda: _problem(lam=0.0)                          # noqa: E731
PL0 = lambda: _problem("logistic", 0.0)                 # noqa: E731
PL = lambda: _problem("logistic", 0.05)                 # noqa: E731

# Parameter name -> kind and a small valid value.  Counts: Count(valid, min=...); real parameters: Real(valid,
# lo=, hi=, lo_open=, hi_open=, inf_ok=) (the domain); arrays: Vector(factory, tied=True when the length must
# match another argument, finite=False when non-finite entries are meaningful); feature matrices: Matrix; names
# from a list: Choice(valid); Instance/Function/PathArg/Text: a value of that type; Opaque: not checked (flags,
# dicts of options).  ``none=True``: None is valid; ``given=True``: passed even where the parameter has a default.
TABLE = {
    # ---- data and problems
    "problem": Instance(P),
    "X": Matrix(lambda: X8, tied=True),
    "y": Vector(lambda: Y_REG, tied=True),
    "loss": Choice("squared"),
    "lam": Real(0.05, lo=0.0),
    "penalty_weights": Vector(lambda: np.ones(D), tied=True, lo=0.0, none=True),
    "sample_weight": Vector(lambda: np.arange(1.0, M + 1.0), tied=True, lo=0.0, none=True),
    "w": Vector(lambda: W5, tied=True),
    "w0": Vector(lambda: W5 * 0.1, tied=True, none=True),
    "v": Vector(lambda: V6),
    "z": Real(1.0, lo=0.0, lo_open=True),
    "a": Vector(lambda: np.ones(V6.size), tied=True, lo=0.0),
    "theta": Vector(lambda: W5),
    "U": Indices(lambda: np.array([0, 2]), upper=D),
    "lam_j": Vector(lambda: np.full(D, 0.01), tied=True, lo=0.0),
    "max_steps": Count(20, min=1),
    # ---- solver controls
    "n_iter": Count(3, min=0),
    "n_checkpoints": Count(5, min=2),
    "seed": Seed(0),
    "eta": Real(0.1, lo=0.0, lo_open=True),
    "eta0": Real(0.5, lo=0.0, lo_open=True),
    "beta": Real(1.0, lo=0.0, lo_open=True, none=True),
    "tol": Real(1e-6, lo=0.0, lo_open=True, none=True),
    "step": Choice("global"),
    "p": Real(2.0, lo=2.0, none=True),
    "p_rounded": Opaque(False),
    "output": Choice("last"),
    "variant": Choice("smidas"),
    "gravity": Real(0.01, lo=0.0, none=True),
    "period": Count(1, min=1),
    "threshold": Real(math.inf, lo=0.0, inf_ok=True),
    "method": Choice("stochastic"),
    "batch_size": Count(2, min=1),
    "line_search": Opaque(False),
    "schedule": Choice("sqrt"),
    "projection": Choice("dense"),
    "decay": Opaque(False),
    "dummy": Opaque(False),
    "signed": Opaque(True),
    "exact": Opaque(False),
    "F1": Real(1.0, lo=0.0, lo_open=True),
    "F2": Real(1.0, lo=0.0, lo_open=True),
    "n_steps": Count(4, min=1, given=True, none=True),
    "order": Indices(lambda: np.array([0, 3, 1, 7]), upper=M, none=True),
    "constraint": Choice("l1_ball"),
    "radius": Real(1.0, lo=0.0, lo_open=True),
    "max_iter": Count(20, min=1),
    "sigma": Real(0.1, lo=0.0, lo_open=True),
    "k": Count(2, min=1),
    "B": Real(2.0, lo=0.0, lo_open=True, none=True),
    "batches": Indices(lambda: np.array([[0, 1], [2, 3], [4, 5]]), upper=M, ndim=2, none=True),
    "monitor": Function(lambda: (lambda w: 0.0), none=True),
    "record_objective": Opaque(True),
    "exact_norm": Opaque(False),
    "hinge_mu": Real(1e-6, lo=0.0, lo_open=True),
    "memory": Count(3, min=1),
    "s_max": Count(3, min=1, max=D, none=True),
    "keep_weights": Opaque(True),
    "support": Indices(lambda: np.array([0, 2]), upper=D),
    "max_outer": Count(5, min=1),
    "max_epochs": Count(50, min=1),
    "ws_start": Count(3, min=1),
    "anderson": Count(2, min=0),
    "inner": Choice("auto"), "gram": Choice("auto"),
    "lams": Vector(lambda: np.array([0.1, 0.05]), lo=0.0, none=True),
    "n_lams": Count(3, min=1),
    "eps": Real(1e-2, lo=0.0, lo_open=True, hi=1.0),
    "R1": Real(10.0, lo=0.0, lo_open=True),
    "source": Instance(_stream),
    "theta_star": Vector(lambda: np.array([0.5, -0.5, 0.0, 0.0, 0.25]), tied=True, none=True),
    "mu": Vector(lambda: W5, tied=True),
    "center": Vector(lambda: W5 * 0.5, tied=True),
    "R": Real(1.0, lo=0.0, lo_open=True),
    "alpha": Real(0.5, lo=0.0, lo_open=True, none=True),
    "iterations": Vector(lambda: np.array([1.0, 2.0, 4.0, 8.0])),
    "errors": Vector(lambda: np.array([1.0, 0.5, 0.25, 0.125]), tied=True, finite=False),
    "start_fraction": Real(0.1, lo=0.0, hi=1.0, hi_open=True),
    "T": Count(5, min=1),
    "d": Count(6, min=1),
    "taus": Indices(lambda: np.array([1, 3, 5])),
    "n": Count(6, min=1),
    # ---- records and checkpoints
    "nnz": Indices(lambda: np.array([0, 1, 3, 2])),
    "excess": Vector(lambda: np.array([1.0, 0.5, 0.1, 0.2]), tied=True, finite=False),
    "s_values": Indices(lambda: np.array([1, 2, 3])),
    "iteration": Indices(lambda: np.array([0, 1, 3, 7])),
    "data_accesses": Real(10.0, lo=0.0),
    "objective": Real(1.0, inf_ok=True),
    "seconds": Real(0.5, lo=0.0),
    "flops": Real(2.0, lo=0.0, none=True),
    # ---- data generators
    "m": Count(8, min=1),
    "noise": Real(0.1, lo=0.0),
    "density": Real(1.0, lo=0.0, lo_open=True, hi=1.0),
    "kind": Choice("uniform"),
    "normalize": Opaque(True),
    "flip": Real(0.05, lo=0.0, hi=0.5, hi_open=True),
    "scale": Real(3.0, lo=0.0, lo_open=True),
    "n_extra": Count(3, min=0),
    "prob": Real(0.05, lo=0.0, lo_open=True, hi=1.0),
    "return_scale": Opaque(False),
    "s": Count(2, min=1, none=True),
    "mirrored": Opaque(False),
    "separation": Real(2.0, lo=0.0),
    "condition": Real(10.0, lo=1.0),
    "sample_seed": Seed(None, none=True),
    "w_star": Vector(lambda: W5 * 0.5, tied=True),
    "n_features": Count(30, min=1),
    "zipf": Real(1.1, lo=0.0, lo_open=True),
    "informative": Real(0.1, lo=0.0, hi=1.0),
    "topic_weight": Real(0.05, lo=0.0),
    "positive": Real(0.47, lo=0.0, lo_open=True, hi=1.0, hi_open=True),
    "model_seed": Seed(0),
    "noise_var": Real(0.5, lo=0.0),
    "magnitude": Real(0.7, lo=0.0, lo_open=True),
    "q": Real(0.0, lo=0.0, hi=1.0),
    "norm2_sq": Real(1.0, lo=0.0, lo_open=True, none=True),
    "Rq": Real(1.0, lo=0.0, lo_open=True, none=True),
    "W": Vector(lambda: np.array([0.5, -0.5, 0.1, 0.0, 0.0, -0.1]), ndim=(1, 2)),
    # ---- real data, caches, files
    "name": Choice("magic04"),
    "names": Opaque(("magic04",), given=True),
    "allow_offline": Opaque(True, given=True),
    "augment_seed": Seed(0),
    "subset": Choice("train"),
    "data_dir": PathArg(lambda: _tmp("data"), given=True, none=True),
    "download": Opaque(False, given=True),
    "timeout": Real(1.0, lo=0.0, lo_open=True),
    "progress": Opaque(False),
    "path": PathArg(_svmlight_file),
    "directory": PathArg(lambda: _svmlight_file().parent, given=True, none=True),
    "remote": Instance(_remote),
    "zero_based": Opaque(False),
    # ---- experiments
    "solver": Function(_solver),
    "seeds": Count(2, min=1),
    "datasets": Instance(_dataset),
    "solvers": Opaque(("scd",), given=True),
    "etas": Opaque((0.1,)),
    "epochs": Real(1.0, lo=0.0, lo_open=True, given=True),
    "solver_options": Opaque(None),
    "cache_dir": PathArg(lambda: _tmp("sweep"), given=True, none=True),
    "n_jobs": Count(1, min=1),
    "cluster": Instance(None, none=True),
    "recompute": Opaque(False),
    "sweep": Instance(_sweep),
    "paper": Opaque(None),
    # ---- links, losses
    "rounded": Opaque(False),
    "r": Real(3.0, lo=1.0, lo_open=True),
    "tau": Real(0.1, lo=0.0),
    # ---- theory registry and index
    "key": Text("sst.theorem1"),
    "root": PathArg(_index_root),
    "chapter": Text("chapters/scd", none=True),
    "text": Text("# Title\n\n(label-a)=\n"),
    "chapters": Opaque(None),
}

# Where a name means something else: (pattern of entry ids, {name: spec}); the last matching pattern wins.
OVERRIDES = [
    # ---- problem and solvers
    ("l1lab.problem.Problem", {"y": Vector(lambda: Y_REG, tied=True), "loss": Choice("squared")}),
    ("l1lab.problem.Problem.*", {
        "w": Vector(lambda: W5, tied=True, finite=False),    # a diverged run's P(w) is inf or NaN, not an error
        "z": Vector(lambda: np.zeros(M), tied=True, finite=False),
        "margins": Vector(lambda: np.zeros(M), tied=True, finite=False, none=True)}),
    ("l1lab.problem.hinge_linear_program", {"y": Vector(lambda: Y_CLS, tied=True)}),
    ("l1lab.solvers.projected.*", {"problem": Instance(P0), "n_iter": Count(3, min=0)}),
    ("l1lab.solvers.exponentiated.*", {"problem": Instance(P0), "method": Choice("stochastic")}),
    ("l1lab.solvers.online.*", {"problem": Instance(P0)}),
    ("l1lab.solvers.online.best_fixed_decision", {"order": Indices(lambda: np.array([0, 3, 1, 7]), upper=M)}),
    ("l1lab.solvers.online.best_fixed_value_logistic", {
        "X": Matrix(lambda: X8, tied=True, sparse=False), "y": Vector(lambda: Y_CLS, tied=True),
        "l2": Opaque(False), "tol": Real(1e-10, lo=0.0)}),
    ("l1lab.solvers.pgs.*", {"problem": Instance(PL0), "p": Real(2.0, lo=1.0, lo_open=True, hi=2.0),
                             "B": Real(2.0, lo=0.0, lo_open=True, none=True), "output": Choice("random")}),
    ("l1lab.solvers.pgs.sample_batches", {"k": Count(2, min=1)}),
    ("l1lab.solvers.pgs.grad_r_star", {"printed_rescaling": Opaque(False)}),
    ("l1lab.solvers.lbfgs.*", {"problem": Instance(PL0), "p": Real(2.0, lo=1.0, lo_open=True, hi=2.0),
                               "max_iter": Count(5, min=1), "tol": Real(1e-8, lo=0.0, lo_open=True)}),
    ("l1lab.solvers.forward.*", {"problem": Instance(P0), "n_iter": Count(3, min=0, none=True)}),
    ("l1lab.solvers.pgs.regularizer_value", {"w": Vector(lambda: W5)}),
    ("l1lab.solvers.working_set.*", {"tol": Real(1e-6, lo=0.0, lo_open=True), "max_epochs": Count(50, min=1),
                                     "eps": Real(0.01, lo=0.0, lo_open=True, hi=1.0)}),
    ("l1lab.solvers.reference.*", {"tol": Real(1e-8, lo=0.0, lo_open=True)}),
    ("l1lab.solvers.dual_averaging.*", {
        "n_iter": Count(4, min=1), "p": Real(1.5, lo=1.0, lo_open=True, hi=2.0, none=True), "lam": Real(0.1, lo=0.0),
        "loss": Choice("squared"), "s": Real(2.0, lo=0.0, lo_open=True, none=True), "n_checkpoints": Count(3, min=2)}),
    ("l1lab.solvers.dual_averaging.radar", {
        "epochs": Choice("constant", given=True), "epoch_length": Count(2, min=1, given=True, none=True),
        "lam": Real(0.1, lo=0.0, given=True, none=True),
        "alpha": Real(0.5, lo=0.0, lo_open=True, given=True, none=True),
        "gamma": Real(1.0, lo=0.0, lo_open=True, none=True), "G": Real(1.0, lo=0.0, none=True),
        "sigma": Real(1.0, lo=0.0, none=True), "omega": Real(1.0, lo=0.0, none=True),
        "c1": Real(1.0, lo=0.0, lo_open=True, none=True), "step_constant": Real(5.0, lo=0.0, lo_open=True),
        "lam_constant": Real(1.0, lo=0.0, lo_open=True),
        "oracle_check": Real(1 / 64, lo=0.0, hi=1.0, hi_open=True)}),
    ("l1lab.solvers.dual_averaging.eda", {"epochs": Choice("oracle")}),
    ("l1lab.solvers.dual_averaging.rda", {"beta": Real(1.0, lo=0.0, lo_open=True)}),
    ("l1lab.solvers.dual_averaging.sgd", {"schedule": Choice("1/t")}),
    ("l1lab.solvers.dual_averaging.radar_update", {"p": Real(1.5, lo=1.0, lo_open=True, hi=2.0)}),
    ("l1lab.solvers.streamed.*", {"p": Count(2, min=1, max=6), "beta": Real(2.0, lo=0.0, lo_open=True),
                                  "seed": Seed(0), "T": Count(5, min=1)}),
    # ---- the estimators: constructor parameters at fit time, then fit's and the predictions' X and y
    ("l1lab.estimators.*", {
        "lam": Real(0.01, lo=0.0), "solver": Choice("working_set"), "fit_intercept": Opaque(True),
        "scale": Choice("auto"), "max_epochs": Real(50.0, lo=0.0, lo_open=True, none=True),
        "tol": Real(1e-6, lo=0.0, lo_open=True, none=True), "eta": Real(0.1, lo=0.0, lo_open=True, none=True),
        "random_state": Seed(0, none=True), "solver_options": Instance(None, none=True),
        # scikit-learn's conventions: object arrays of numbers and any sparse format are converted
        "X": Matrix(lambda: X8 * 3.0, tied=True, sklearn=True)}),
    ("l1lab.estimators.L1*CV.*", {
        "lams": Vector(lambda: np.array([0.1, 0.01]), none=True), "n_lams": Count(3, min=1),
        "eps": Real(0.1, lo=0.0, lo_open=True, hi=1.0), "cv": Opaque(2, given=True),
        "scoring": Instance(None, none=True), "n_jobs": Count(1, min=1, none=True),
        "cv_tol": Real(1e-6, lo=0.0, lo_open=True, none=True)}),
    ("l1lab.estimators.L1Regressor*.fit", {"y": Vector(lambda: Y_REG, tied=True, sklearn=True),
                                          "sample_weight": Vector(lambda: np.arange(1.0, 9.0), tied=True, none=True,
                                                                  sklearn=True)}),
    ("l1lab.estimators.L1Classifier*.fit", {"y": Labels(lambda: Y_CLS, tied=True),
                                           "sample_weight": Vector(lambda: np.arange(1.0, 9.0), tied=True,
                                                                   none=True, sklearn=True)}),
    ("l1lab.estimators.L1*.predict*", {"X": Matrix(lambda: X8 * 3.0, sklearn=True)}),
    ("l1lab.estimators.L1*.decision_function", {"X": Matrix(lambda: X8 * 3.0, sklearn=True)}),
    ("l1lab.estimators.default_eta", {"solver": Choice("smidas"), "p": Real(3.0, lo=2.0, none=True)}),
    # ---- data
    ("l1lab.data.synthetic.make_*", {"k": Count(2, min=1), "d": Count(D, min=1), "kind": Choice("uniform")}),
    ("l1lab.data.synthetic.add_random_features", {"kind": Choice("sparse"), "X": Matrix(lambda: X8)}),
    ("l1lab.data.synthetic.scale_features", {"X": Matrix(lambda: X8 * 3.0)}),
    ("l1lab.data.real.*", {"y": Vector(lambda: Y_CLS, tied=True, none=True), "seed": Seed(0),
                           "scale": Opaque(True), "n_features": Count(3, min=1, none=True)}),
    ("l1lab.data.real.array_fingerprint", {
        "X": Matrix(lambda: X8, tied=True, finite=False, empty_ok=True),   # a fingerprint of any values
        "y": Vector(lambda: Y_CLS, tied=True, finite=False, empty_ok=True, given=True, none=True)}),
    ("l1lab.data.real.data_home", {"path": PathArg(lambda: _tmp("home"), none=True)}),
    ("l1lab.data.real.sha256_file", {"path": PathArg(_svmlight_file)}),
    ("l1lab.data.results.*", {      # a result file of the matrix's own, in its own data home
        "relpath": Text("matrix/result.npz"), "fingerprint": Text("fp"), "recompute": Opaque(False),
        "arrays": Instance(lambda: {"x": np.arange(3.0)}), "files": Opaque(("problem.py",)),
        "manifest": PathArg(_results_manifest), "out_dir": PathArg(lambda: _tmp("published")),
        "relpaths": Opaque(["matrix/result.npz"]), "workers": Count(2, min=1)}),
    ("l1lab.data.lower_bound.*", {
        "B": Real(2.0, lo=2.0), "d": Count(6, min=1), "m": Count(8, min=1), "s": Count(2, min=0),
        "support": Indices(lambda: np.array([0, 3]), upper=6, none=True),
        "w": Vector(lambda: np.full(6, 0.2), ndim=(1, 2)), "objective": Real(0.3, lo=0.0)}),
    ("l1lab.data.lower_bound.exact_design", {"d": Count(6, min=1, none=True)}),
    ("l1lab.data.lower_bound.lemma5_problem", {"d": Count(6, min=1, given=True, none=True),
                                               "m": Count(8, min=1, none=True)}),
    ("l1lab.data.lower_bound.sample", {"d": Count(6, min=1, given=True, none=True)}),
    ("l1lab.data.pgs.*", {      # seeds are integers here: default_rng([seed, stream number])
        "n": Count(6, min=1), "separation": Real(2.0, lo=0.0, lo_open=True),
        "informative": Real(0.1, lo=0.0, lo_open=True, hi=0.5), "topic_weight": Real(0.05, lo=0.0, hi=1.0),
        "seed": Count(0, min=0), "model_seed": Count(0, min=0), "sample_seed": Count(1, min=0, none=True),
        "m": Count(8, min=1), "density": Real(0.2, lo=0.0, lo_open=True, hi=1.0), "n_features": Count(30, min=1),
        "flip": Real(0.03, lo=0.0, hi=0.5, hi_open=True), "w": Vector(lambda: W5, tied=True)}),
    ("l1lab.data.pgs.make_text_like", {"n_features": Count(30, min=1, given=True),
                                       "density": Real(0.2, lo=0.0, lo_open=True, hi=1.0, given=True)}),
    ("l1lab.data.pgs.text_like_model", {"n_features": Count(30, min=1, given=True),
                                        "density": Real(0.2, lo=0.0, lo_open=True, hi=1.0, given=True)}),
    ("l1lab.data.radar.*", {
        "d": Count(6, min=3), "s": Count(2, min=1, none=True), "B": Real(1.0, lo=0.0, lo_open=True),
        "theta_star": Vector(lambda: np.array([0.5, -0.5, 0.0, 0.0, 0.25])),
        "theta": Vector(lambda: np.array([0.4, -0.5, 0.1, 0.0, 0.25]), tied=True)}),
    ("l1lab.data.radar.weakly_sparse_theta", {"q": Real(0.5, lo=0.0, hi=1.0)}),
    ("l1lab.data.radar.UniformDesignStream.pool", {"n": Count(4, min=1)}),
    ("l1lab.data.teacher.*", {"p": Count(2, min=1, max=6), "beta": Real(2.0, lo=0.0, lo_open=True),
                              "d": Count(6, min=2), "n": Count(4, min=1), "seed": Seed(0)}),
    # ---- records and experiments
    ("l1lab.trace.TraceRecorder.record", {
        "iteration": Count(3, min=0), "nnz": Count(2, min=0), "flops": Real(2.0, lo=0.0, none=True),
        "objective": Opaque(1.0)}),            # a diverged run records P = inf or NaN
    ("l1lab.trace.best_found", {"nnz": Indices(lambda: np.array([0, 1, 3, 2]), ndim=(1, 2)),
                                "excess": Vector(lambda: np.array([1.0, 0.5, 0.1, 0.2]), tied=True, finite=False,
                                                 ndim=(1, 2))}),
    ("l1lab.trace.hitting_steps", {"eps": Real(0.3, lo=0.0, lo_open=True, array=True)}),
    ("l1lab.experiments.run_seeds", {"problem": Instance(P)}),
    ("l1lab.experiments.run_sweep", {"lams": Vector(lambda: np.array([0.01]), lo=0.0, given=True),
                                     "loss": Choice("logistic"), "n_iter": Opaque(None),
                                     "seeds": Count(1, min=1)}),
    # ---- theory: Shalev-Shwartz & Tewari (2011).  T of the SMIDAS and Lemma 7 bounds is a real horizon (the book
    # draws them over continuous grids of T); everywhere else a count.  s: a density in (0, 1] in the runtime
    # bounds, a number of nonzeros in Lemma 5.
    ("l1lab.theory.shalev_shwartz_tewari.*", {
        "beta": Real(1.0, lo=0.0, lo_open=True), "w_star": Vector(lambda: W5), "p0": Real(0.5, lo=0.0),
        "beta_j": Vector(lambda: np.full(D, 0.5), tied=True), "T": Count(99, min=0, array=True),
        "d": Count(D, min=1), "psi0": Real(2.0, lo=0.0),
        "delta": Real(0.1, lo=0.0, lo_open=True, hi=1.0, hi_open=True, none=True),
        "eps": Real(0.01, lo=0.0, lo_open=True), "m": Count(100, min=1), "s": Real(0.5, lo=0.0, lo_open=True, hi=1.0),
        "w_star_norm2_sq": Real(1.0, lo=0.0), "w_star_norm1": Real(1.0, lo=0.0), "x2_sq": Real(1.0, lo=0.0),
        "c0": Real(1.0, lo=0.0), "n_trials": Count(3, min=1), "scale": Real(3.0, lo=0.0, lo_open=True),
        "p": Real(4.0, lo=2.0), "eta": Real(0.01, lo=0.0, lo_open=True), "rho": Real(1.0, lo=0.0, lo_open=True),
        "K": Real(1.0, lo=0.0, lo_open=True), "p_star": Real(0.1, lo=0.0), "a": Real(1.0, lo=0.0, lo_open=True),
        "b": Real(1.0, lo=0.0, lo_open=True), "P": Real(1.0, lo=0.0, lo_open=True), "loss": Choice("logistic"),
        "w_j": Real(0.5), "g_j": Real(-0.3), "lam": Real(0.1, lo=0.0), "B": Real(2.0, lo=2.0),
        "c": Real(16.0, lo=0.0, lo_open=True), "cap": Real(0.12, lo=0.0, lo_open=True)}),
    ("l1lab.theory.shalev_shwartz_tewari.loss_derivative", {"a": Real(0.5, array=True), "y": Real(1.0, array=True)}),
    ("l1lab.theory.shalev_shwartz_tewari.smidas_*", {"T": Real(100.0, lo=1.0, array=True)}),
    ("l1lab.theory.shalev_shwartz_tewari.smidas_prop4_bound", {"K": Real(1.0, lo=0.0, lo_open=True, array=True)}),
    ("l1lab.theory.shalev_shwartz_tewari.lemma7_*", {"T": Real(100.0, lo=0.0, lo_open=True, array=True)}),
    ("l1lab.theory.shalev_shwartz_tewari.lemma7_f", {"eta": Real(0.1, array=True), "P": Real(1.0, lo=0.0),
                                                     "b": Real(1.0, lo=0.0)}),
    ("l1lab.theory.shalev_shwartz_tewari.lemma7_min_upper_bound", {"P": Real(1.0, lo=0.0)}),
    ("l1lab.theory.shalev_shwartz_tewari.lemma5_*", {
        "s": Count(3, min=1, array=True), "eps": Real(0.05, lo=0.0, lo_open=True, hi=0.12, array=True),
        "d": Count(300, min=1, none=True)}),
    ("l1lab.theory.shalev_shwartz_tewari.lemma5_dimension_for_accuracy", {
        "eps": Real(0.05, lo=0.0, lo_open=True, hi=0.12)}),
    ("l1lab.theory.shalev_shwartz_tewari.lemma5_sparse_risk", {"s": Count(3, min=0, array=True)}),
    ("l1lab.theory.shalev_shwartz_tewari.lemma5_frontier", {"s": Count(3, min=0, array=True)}),
    ("l1lab.theory.shalev_shwartz_tewari.lemma5_min_steps", {"eps": Real(0.05, lo=0.0, lo_open=True, array=True)}),
    # ---- theory: Zhu et al. (2009).  T and m are real horizons (H_T of real T; the book draws Theorem 2 over m)
    ("l1lab.theory.zhu2009.*", {
        "T": Real(10.0, lo=1.0, array=True), "w": Vector(lambda: W5), "p": Real(1.5, lo=1.0, lo_open=True, hi=2.0),
        "X": Matrix(lambda: X8, tied=True), "loss": Choice("logistic"),
        "B": Real(2.0, lo=0.0, lo_open=True, none=True), "y": Vector(lambda: Y_REG, tied=True, none=True),
        "c0": Real(0.5, lo=0.0), "sigma": Real(0.1, lo=0.0, lo_open=True),
        "lambda_norms_q": Vector(lambda: np.array([1.0, 0.5, 2.0]), lo=0.0), "cumulative": Opaque(False),
        "L": Real(1.0, lo=0.0, lo_open=True), "delta": Real(0.1, lo=0.0, lo_open=True, hi=1.0, hi_open=True, none=True),
        "eps_acc": Real(0.5, lo=0.0, lo_open=True), "m": Real(1000.0, lo=0.0, lo_open=True),
        "w0_norm_p": Real(1.0, lo=0.0, lo_open=True), "c_opt": Real(1.0, lo=0.0, lo_open=True),
        "c_est": Real(1.0, lo=0.0, lo_open=True), "as_printed": Opaque(False), "eps": Real(0.5, lo=0.0, lo_open=True),
        "d": Real(3.0, lo=0.0, lo_open=True), "n": Count(10, min=1), "k": Count(1, min=1),
        "subgradient": Vector(lambda: W5), "theta": Vector(lambda: W5)}),
    ("l1lab.theory.zhu2009.loss_lipschitz_constant", {
        "loss": Choice("squared"), "B": Real(2.0, lo=0.0, lo_open=True, given=True),
        "y": Vector(lambda: Y_REG, tied=True, given=True)}),
    ("l1lab.theory.zhu2009.theorem2_error_bound", {"w0_norm_p": Real(1.0, lo=0.0)}),
    ("l1lab.theory.zhu2009.least_squares_radius", {"c0": Real(0.5, lo=0.0)}),
    # ---- theory: Agarwal, Negahban & Wainwright (2012)
    ("l1lab.theory.agarwal2012.*", {
        "d": Count(10, min=3), "rounded": Opaque(False), "i": Count(2, min=1), "R1": Real(1.0, lo=0.0, lo_open=True),
        "L_theta": Real(1.0), "L_tilde": Real(0.5), "theta": Vector(lambda: W5, tied=True),
        "theta_tilde": Vector(lambda: W5 * 0.5, tied=True), "grad_theta": Vector(lambda: W5 * 0.1, tied=True),
        "gamma": Real(1.0, lo=0.0, lo_open=True),
        "errors": Vector(lambda: np.array([[0.1, -0.2], [0.05, 0.0]]), ndim=(1, 2)),
        "sigma": Real(1.0, lo=0.0), "a": Real(0.5, inf_ok=True),      # psi(inf) = 0: the curvature's limit
        "B": Real(1.0, lo=0.0, lo_open=True), "R": Real(1.0, lo=0.0), "sigma_min": Real(0.5, lo=0.0, lo_open=True),
        "rho": Real(0.5, lo=0.0, lo_open=True), "eta": Real(0.5, lo=0.0), "omega": Real(1.0, lo=0.0),
        "R_i": Real(1.0, lo=0.0, lo_open=True), "s": Real(1.0, lo=0.0, lo_open=True), "G": Real(1.0, lo=0.0),
        "c1": Real(1.0, lo=0.0, lo_open=True), "T_i": Real(100.0, lo=0.0, lo_open=True), "t": Count(3, min=1),
        "lam_i": Real(0.1, lo=0.0), "constant": Real(5.0, lo=0.0, lo_open=True), "normalization": Choice("psi0"),
        "T": Count(10000, min=1), "theta_star": Vector(lambda: W5), "S": Indices(lambda: np.array([0, 3]), upper=D),
        "eps2": Real(0.0, lo=0.0), "c0": Real(1.0, lo=0.0, lo_open=True), "delta": Real(1.0, lo=0.0, lo_open=True),
        "q": Real(0.5, lo=0.0, hi=1.0), "Rq": Real(1.0, lo=0.0, lo_open=True),
        "kappa": Real(10.0, lo=0.0, lo_open=True), "eta_x": Real(1.0, lo=0.0, lo_open=True),
        "c3": Real(1.0, lo=0.0, lo_open=True), "n": Count(100, min=1),
        "c": Real(1.0, lo=0.0, lo_open=True), "G2": Real(1.0, lo=0.0), "sigma2": Real(1.0, lo=0.0)}),
    ("l1lab.theory.agarwal2012.lq_radius", {"theta": Vector(lambda: W5)}),
    ("l1lab.theory.agarwal2012.corollary1_weak", {"q": Real(0.5, lo=0.0, lo_open=True, hi=1.0)}),
    ("l1lab.theory.agarwal2012.assumption3_mgf", {"sigma": Real(1.0, lo=0.0, lo_open=True)}),
    ("l1lab.theory.agarwal2012.example1_gamma", {"R": Real(1.0, lo=0.0, lo_open=True)}),
    ("l1lab.theory.agarwal2012.example2_sigma", {"eta": Real(0.5, lo=0.0)}),
    ("l1lab.theory.agarwal2012.rda_lambda", {"eta": Real(0.5, lo=0.0, lo_open=True)}),
    ("l1lab.theory.agarwal2012.assumption2_lsc_gap", {"gamma": Real(1.0, lo=0.0)}),
    # ---- theory: Kakade, Foster & Even-Dar (2008) and Duchi et al. (2008)
    ("l1lab.theory.kakade_foster_evendar.*", {
        "T": Real(1000.0, lo=0.0, lo_open=True), "F2": Real(1.0, lo=0.0, lo_open=True),
        "G2": Real(1.0, lo=0.0, lo_open=True),
        "delta": Real(0.1, lo=0.0, lo_open=True, hi=1.0, hi_open=True, none=True),
        "eta": Real(0.01, lo=0.0, lo_open=True), "d": Count(6, min=1), "G_inf": Real(1.0, lo=0.0, lo_open=True),
        "F1": Real(1.0, lo=0.0, lo_open=True), "as_printed": Opaque(False), "B": Real(1.0, lo=0.0),
        "w": Vector(lambda: np.full(D, 0.2), tied=True), "grad": Vector(lambda: W5, tied=True)}),
    ("l1lab.theory.duchi2008.*", {"v": Vector(lambda: V6, tied=True), "z": Real(1.0, lo=0.0, lo_open=True),
                                  "w": Vector(lambda: np.array([0.0, 0.0, 0.0, 1.0, 0.0, 0.0]), tied=True)}),
    ("l1lab.theory.duchi2008.simplex_*", {"v": Vector(lambda: V6)}),
    # (9)-(11) hold for magnitudes (v >= 0) with sum(v) >= z; the value tested by (11) is any real number
    ("l1lab.theory.duchi2008.pivot_*", {"v": Vector(lambda: np.abs(V6), lo=0.0)}),
    ("l1lab.theory.duchi2008.support_test", {"v": Vector(lambda: np.abs(V6), lo=0.0), "value": Real(0.5)}),
    ("l1lab.theory.index.*", {"chapter": Text("chapters/scd")}),
    # ---- projections
    # z = 0 is documented (the ball {0}); rebase_ratio > 0
    ("l1lab.projections.sparse.*", {"n": Count(6, min=1), "z": Real(1.0, lo=0.0),
                                    "capacity": Count(8, min=1, none=True), "rebase_ratio": Real(4.0, lo=0.0,
                                                                                                  lo_open=True),
                                    "j": Count(2, min=0, max=5),
                                    "indices": Indices(lambda: np.array([0, 2]), upper=6, empty_ok=True),
                                    "values": Vector(lambda: np.array([0.5, -0.25]), tied=True)}),
    ("l1lab.projections.dense.*", {"v": Vector(lambda: V6), "z": Real(1.0, lo=0.0), "method": Choice("condat"),
                                   "seed": Seed(0)}),
    ("l1lab.projections.dense.project_weighted_l1_ball", {
        "v": Vector(lambda: V6, tied=True), "a": Vector(lambda: np.ones(6), tied=True, lo=0.0)}),
    ("l1lab.theory.registry.entries", {"source": Text("Shalev", none=True)}),
    # ---- links and losses
    ("l1lab.losses.soft_threshold", {"w": Vector(lambda: W5, any_ndim=True, empty_ok=True),   # elementwise
                                     "tau": Real(0.1, lo=0.0, inf_ok=True)}),           # tau = inf: all zero
    ("l1lab.links.*", {"p": Real(3.0, lo=2.0), "d": Count(6, min=1), "w": Vector(lambda: W5),
                       "theta": Vector(lambda: W5)}),
]

#: keyword arguments passed to an entry besides its parameters (what its ``**kwargs`` needs)
EXTRA = {
    "l1lab.experiments.run_seeds": {"n_iter": 3, "n_checkpoints": 3},
    "l1lab.solvers.dual_averaging.eda": {"epochs": "constant", "epoch_length": 2, "alpha": 0.5},
    "l1lab.data.real.load_paper_datasets": {"allow_offline": True, "download": False},
}

#: the instance a method is called on (a fresh one for every call)
INSTANCES = {
    "l1lab.problem.Problem": P,
    "l1lab.problem.Problem.csc_arrays": lambda: _problem(sparse=True),
    "l1lab.data.radar.UniformDesignStream": _stream,
    "l1lab.trace.TraceRecorder": lambda: l1lab.trace.TraceRecorder(),
    "l1lab.trace.TraceRecorder.finish": lambda: _recorded(),
    "l1lab.projections.sparse.SparseL1BallProjector": lambda: _projector(),
    "l1lab.estimators.L1Regressor": lambda: _fitted("L1Regressor"),
    "l1lab.estimators.L1Classifier": lambda: _fitted("L1Classifier"),
    "l1lab.estimators.L1RegressorCV": lambda: _fitted("L1RegressorCV", n_lams=3, cv=2),
    "l1lab.estimators.L1ClassifierCV": lambda: _fitted("L1ClassifierCV", n_lams=3, cv=2),
}


def _recorded():
    rec = l1lab.trace.TraceRecorder()
    rec.record(0, 0.0, 1.0, 0, 0.0)
    return rec


def _projector():
    from l1lab.projections import SparseL1BallProjector

    return SparseL1BallProjector(6, 1.0)


def _fitted(name, **params):
    from l1lab import estimators

    y = Y_REG if name.startswith("L1Regressor") else Y_CLS
    return getattr(estimators, name)(**(params or {"lam": 0.01})).fit(X8 * 3.0, y)


def _instance(key):
    for k in (key, key.rsplit(".", 1)[0]):
        if k in INSTANCES:
            return INSTANCES[k]()
    raise KeyError(f"no INSTANCES entry for {key!r}")


# ============================================================================================ the matrix
ENTRIES, SKIPPED, UNKNOWN = _discover()

def spec_for(entry_id, name):
    found = None
    for pattern, specs in OVERRIDES:
        if name in specs and fnmatch.fnmatchcase(entry_id, pattern):
            found = specs[name]
    return found if found is not None else TABLE.get(name)


def valid_kwargs(entry):
    kw = {}
    for name, has_default in entry.params:
        spec = spec_for(entry.id, name)
        if not has_default or spec.given:
            kw[name] = spec.valid()
    kw.update(copy.deepcopy(EXTRA.get(entry.id, {})))
    return kw


def _cases():
    bad, variants = [], []
    for eid, entry in sorted(ENTRIES.items()):
        for name, _ in entry.params:
            spec = spec_for(eid, name)
            if spec is None:
                continue
            for cases, labels in ((bad, spec.bad()), (variants, spec.variants())):
                if not labels:
                    continue
                cases.append(pytest.param(eid, name, id=f"{eid.removeprefix('l1lab.')}-{name}"))
    return bad, variants


BAD_CASES, VARIANT_CASES = _cases()


def _names_argument(message, name):
    return re.search(rf"(?<![\w.]){re.escape(name)}(?!\w)", message) is not None


def _call(entry, kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return entry.call(kw)


def bad_value_problems(entry_id, name):
    """What goes wrong when each bad value of ``name`` is passed to ``entry_id`` ([] when every one raises a
    ValueError or TypeError that names ``name``)."""
    entry = ENTRIES[entry_id]
    spec = spec_for(entry_id, name)
    problems = []
    for label, make in spec.bad().items():
        kw = valid_kwargs(entry)
        kw[name] = make()
        try:
            result = _call(entry, kw)
        except (ValueError, TypeError) as err:
            if isinstance(err, np.linalg.LinAlgError):
                problems.append(f"<{label}>: {err!r} from numpy.linalg")
            elif not _names_argument(str(err), name):
                problems.append(f"<{label}>: {type(err).__name__} without naming {name!r}: {err}")
        except Exception as err:
            problems.append(f"<{label}>: {type(err).__name__} (not a ValueError/TypeError): {err}")
        else:
            problems.append(f"<{label}>: returned silently: {_short(result)}")
    return problems


@pytest.mark.parametrize(("entry_id", "name"), BAD_CASES)
def test_bad_argument_raises_a_clear_error(entry_id, name):
    problems = bad_value_problems(entry_id, name)
    assert not problems, f"{entry_id}, argument {name}:\n  " + "\n  ".join(problems)


def _short(x):
    text = repr(x)
    return text if len(text) < 200 else text[:200] + "..."


# ------------------------------------------------------------------------------------ valid calls, variants
_VOLATILE = {"seconds", "sampling_seconds", "created", "time",
             "cached", "n_cached", "n_computed"}   # a sweep's cache bookkeeping: the second call finds the first's


def _same(a, b, path="result"):
    """Exact equality of two results (arrays bit for bit, NaN equal to NaN), recursing into containers,
    dataclasses and objects; timings are ignored.  Returns "" or where they differ."""
    if isinstance(a, l1lab.Problem) and isinstance(b, l1lab.Problem):
        for attr in ("X", "y", "lam", "penalty_weights", "sample_weight"):
            diff = _same(getattr(a, attr), getattr(b, attr), f"{path}.{attr}")
            if diff:
                return diff
        return "" if a.loss.name == b.loss.name else f"{path}.loss"
    if sp.issparse(a) or sp.issparse(b):
        if not (sp.issparse(a) and sp.issparse(b)) or a.shape != b.shape or (a != b).nnz:
            return path
        return ""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        a2, b2 = np.asarray(a), np.asarray(b)
        if a2.shape != b2.shape or a2.dtype != b2.dtype:
            return f"{path} (shape/dtype {a2.shape}/{a2.dtype} vs {b2.shape}/{b2.dtype})"
        if a2.dtype.kind in "fc":
            return "" if np.array_equal(a2, b2, equal_nan=True) else path
        return "" if np.array_equal(a2, b2) else path
    if isinstance(a, float) and isinstance(b, float):
        return "" if (a == b or (math.isnan(a) and math.isnan(b))) else f"{path} ({a!r} vs {b!r})"
    if isinstance(a, dict) and isinstance(b, dict):
        if set(a) != set(b):
            return f"{path} (keys)"
        for k in a:
            if k in _VOLATILE:
                continue
            diff = _same(a[k], b[k], f"{path}[{k!r}]")
            if diff:
                return diff
        return ""
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        if len(a) != len(b):
            return f"{path} (length)"
        for i, (x, y) in enumerate(zip(a, b)):
            diff = _same(x, y, f"{path}[{i}]")
            if diff:
                return diff
        return ""
    if dataclasses.is_dataclass(a) and type(a) is type(b):
        return _same({f.name: getattr(a, f.name) for f in dataclasses.fields(a)},
                     {f.name: getattr(b, f.name) for f in dataclasses.fields(b)}, path)
    if type(a) is type(b) and hasattr(a, "__dict__") and not isinstance(
            a, (Path, type, types.FunctionType, types.MethodType, types.BuiltinFunctionType)):
        return _same(vars(a), vars(b), path)
    try:
        return "" if a == b else f"{path} ({_short(a)} vs {_short(b)})"
    except Exception:  # pragma: no cover - incomparable objects
        return "" if a is b else path


def _snapshot(kw):
    return {k: copy.deepcopy(v) for k, v in kw.items() if not callable(v) or isinstance(v, np.ndarray)}


@pytest.mark.parametrize("entry_id", sorted(ENTRIES))
def test_valid_call_works_and_leaves_its_inputs_alone(entry_id):
    entry = ENTRIES[entry_id]
    kw = valid_kwargs(entry)
    before = _snapshot(kw)
    _call(entry, kw)
    for k, v in before.items():
        diff = _same(v, kw[k], k)
        assert not diff, f"{entry_id} modified its argument {diff}"


def variant_problems(entry_id, name):
    """Where a read-only or strided (or CSR/CSC) ``name`` fails or changes the result of ``entry_id``."""
    entry = ENTRIES[entry_id]
    spec = spec_for(entry_id, name)
    kw = valid_kwargs(entry)
    if name not in kw:
        kw[name] = spec.valid()
    expected = _call(entry, copy.deepcopy(kw))
    problems = []
    for label, transform in spec.variants().items():
        kw2 = copy.deepcopy(kw)
        kw2[name] = transform(kw2[name])
        try:
            got = _call(entry, kw2)
        except Exception as err:
            problems.append(f"<{label}>: {type(err).__name__}: {err}")
            continue
        if label not in ("CSR", "CSC", "COO", "LIL", "DOK"):  # a sparse result may differ in type, or by rounding
            diff = _same(expected, got)
            if diff:
                problems.append(f"<{label}>: differs from the contiguous writable input at {diff}")
    return problems


@pytest.mark.parametrize(("entry_id", "name"), VARIANT_CASES)
def test_read_only_and_strided_arrays_give_the_same_result(entry_id, name):
    problems = variant_problems(entry_id, name)
    assert not problems, f"{entry_id}, argument {name}:\n  " + "\n  ".join(problems)


# ------------------------------------------------------------------------------------------------ coverage
def test_every_parameter_is_described():
    missing = []
    for eid, entry in sorted(ENTRIES.items()):
        for name, _ in entry.params:
            if spec_for(eid, name) is None:
                missing.append(f"{eid}: parameter {name!r} -> add TABLE[{name!r}] (its kind and a small valid "
                               f"value) or an OVERRIDES entry for {eid!r}")
    assert not missing, "\n".join(missing)


def test_every_public_object_is_checked_or_skipped_by_type():
    assert not UNKNOWN, "\n".join(UNKNOWN)
    listed = set(KERNELS)
    found = {k for k, why in SKIPPED.items() if why == "numba kernel"}
    assert listed == found, f"KERNELS lists {sorted(listed - found)} which are not public numba kernels"


def test_every_method_has_an_instance_to_run_on():
    missing = [eid for eid, e in ENTRIES.items()
               if e.kind == "method" and not any(k in INSTANCES for k in (eid, eid.rsplit(".", 1)[0]))]
    assert not missing, f"add INSTANCES entries (a factory of a small valid instance) for the classes of {missing}"


def test_the_matrix_is_not_empty():
    # the discovery must see the package: a few entry points of each subpackage, and thousands of cases
    for prefix in ("l1lab.solvers.", "l1lab.theory.", "l1lab.data.", "l1lab.projections.", "l1lab.estimators.",
                   "l1lab.experiments.", "l1lab.problem.", "l1lab.trace.", "l1lab.links.", "l1lab.losses."):
        assert any(e.startswith(prefix) for e in ENTRIES), prefix
    assert sum(len(spec_for(e, n).bad()) for e, n in (c.values for c in BAD_CASES)) > 3000
