r"""Graded problems: a student's own variant, generated from their identifier, and its checks.

A graded assignment (one per lecture) is a list of :class:`Question`\ s over a *variant*: the data and parameters
of one student, drawn from a seed that is a hash of the student's identifier (any string: an email, a student
number) and of the assignment's name.  Two students get different problem sizes, losses, radii and constants, so
their answers differ; the worked exercises of the lecture teach the method without giving the numbers.

A question is answered either by a **value** (the student assigns ``answer_<name>``) or by a **function** (the
student defines it; the checker calls it on inputs of the student's variant and on more inputs the student never
sees).  The expected answers are computed with l1lab, for that identifier, by :meth:`Question.expected`; the
student's function runs inside :func:`l1lab.book.coursework.guard.own_code_only`, after the reference is
computed.

The same objects serve the student (``task.check("q1", globals())`` in their notebook: right or wrong, with the
reason, never the expected value) and the grading command (:mod:`l1lab.book.coursework.runner`), which computes the
points in a process the submission never runs in.
"""
from __future__ import annotations

import copy
import hashlib
import math
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np

__all__ = ["Assignment", "Question", "Task", "cached", "compare_answer", "hidden_rng", "hidden_seed", "seed_of",
           "to_json"]


def seed_of(identifier: str, assignment: str) -> int:
    """The seed of a student's variant of ``assignment``: the first 8 bytes of SHA-256 of the identifier
    (stripped, case-folded: "Ada@Uni.edu " and "ada@uni.edu" are one student) and the assignment's name."""
    if not isinstance(identifier, str) or not identifier.strip():
        raise ValueError(f"the student identifier must be a non-empty string, got {identifier!r}")
    key = f"{assignment}\x00{identifier.strip().casefold()}".encode()
    return int.from_bytes(hashlib.sha256(key).digest()[:8], "little")


def hidden_rng(v: dict, key) -> np.random.Generator:
    """The generator of a function question's hidden inputs (the calls beyond the student's own data).

    In a student's session it is seeded by ``key`` (an integer from the variant's parameters), so the self-check
    is reproducible.  When grading, the grader puts a secret drawn for that run in the variant (``"_secret"``):
    the inputs the grade depends on are then drawn where no submission runs, and cannot be computed, nor their
    answers looked up, by a notebook in advance."""
    secret = v.get("_secret")
    key = int(key)
    return np.random.default_rng(key if secret is None else [int(secret), key])


def hidden_seed(v: dict, seed) -> int:
    """A seed among a function question's hidden inputs: ``seed`` in a student's session, drawn with the grader's
    secret when grading (see :func:`hidden_rng`)."""
    if v.get("_secret") is None:
        return int(seed)
    return int(hidden_rng(v, seed).integers(2 ** 31))


def to_json(value):
    """A value as plain JSON data (numbers, lists, strings, None): what crosses from a submission's process to the
    grader.  Arrays become nested lists; NaN and infinities become the strings "nan", "inf", "-inf"."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        v = float(value)
        return v if math.isfinite(v) else ("nan" if math.isnan(v) else ("inf" if v > 0 else "-inf"))
    if isinstance(value, str):
        return value
    if isinstance(value, np.ndarray):
        return [to_json(v) for v in value.tolist()] if value.ndim else to_json(value.item())
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    raise TypeError(f"an answer must be a number, an array or a list of numbers, got {type(value).__name__}")


def _from_json(value):
    if isinstance(value, str) and value in ("nan", "inf", "-inf"):
        return float(value)
    if isinstance(value, list):
        return [_from_json(v) for v in value]
    return value


def compare_answer(got, expected, rtol: float, atol: float) -> str | None:
    """None when ``got`` (JSON data, or a Python value) equals ``expected`` to the tolerances; otherwise why not,
    in words that do not give the expected value away."""
    try:
        g = np.asarray(_from_json(to_json(got)), dtype=np.float64)
    except (TypeError, ValueError):
        return f"expected a number or an array of numbers, got {type(got).__name__}"
    e = np.asarray(expected, dtype=np.float64)
    if g.shape != e.shape:
        return f"expected shape {e.shape}, got {g.shape}"
    if not np.all(np.isfinite(g)):
        return "the answer has NaN or infinite entries"
    bad = ~np.isclose(g, e, rtol=rtol, atol=atol)
    if np.any(bad):
        k = int(np.flatnonzero(bad)[0])
        where = f" (entry {k} and {int(bad.sum()) - 1} more)" if e.ndim and bad.sum() > 1 else \
            (f" (entry {k})" if e.ndim else "")
        return f"not equal to the reference to the tolerance (rtol {rtol:g}, atol {atol:g}){where}"
    return None


@dataclass(frozen=True)
class Question:
    """One graded question.

    name : "q1", "q2", ... (the gradebook's column)
    title : a few words
    points : what a right answer earns
    difficulty : 1 (apply the lecture's method), 2 (a step further), 3 (a new case)
    minutes : the expected time
    prompt : markdown, formatted with the variant's ``params`` (``{lam}``, ``{d}``...)
    kind : "value" (the student assigns ``answer_<name>``) or "function" (the student defines ``function``)
    expected : ``expected(variant) -> value`` for a value question; for a function question, ``expected(variant)
        -> [(args, expected output), ...]``, the inputs the function is called on (the student's data first)
    function : the name of the function a "function" question asks for
    starter : the code the student starts from (a signature and the placeholder)
    solution : a reference answer in plain numpy, the instructors' model solution (``{...}`` fields formatted
        like the prompt); run by the tests and by the grading cycle's full-points notebook
    rtol, atol : the tolerance of the comparison
    """

    name: str
    title: str
    points: int
    difficulty: int
    minutes: int
    prompt: str
    kind: str
    expected: Callable[[dict], Any]
    solution: str
    function: str = ""
    starter: str = ""
    rtol: float = 1e-6
    atol: float = 1e-9

    def __post_init__(self):
        if self.kind not in ("value", "function"):
            raise ValueError(f"kind must be 'value' or 'function', got {self.kind!r}")
        if self.kind == "function" and not self.function:
            raise ValueError(f"{self.name}: a function question names the function it asks for")
        if self.difficulty not in (1, 2, 3) or self.points <= 0 or self.minutes <= 0:
            raise ValueError(f"{self.name}: difficulty in 1-3, positive points and minutes")

    @property
    def variable(self) -> str:
        """The name the student's answer has in their notebook."""
        return self.function if self.kind == "function" else f"answer_{self.name}"


@dataclass(frozen=True)
class Assignment:
    """A lecture's graded problems: ``make_variant(rng) -> dict`` draws one student's data and parameters
    (``params``: what the prompts show; anything else: arrays the student reads from ``task``)."""

    name: str
    lecture: str
    title: str
    make_variant: Callable[[np.random.Generator], dict]
    questions: Sequence[Question]
    intro: str = ""
    setup: str = "import numpy as np"
    week: int = 0

    def __post_init__(self):
        names = [q.name for q in self.questions]
        if len(set(names)) != len(names):
            raise ValueError(f"{self.name}: two questions share a name")
        if not any(q.kind == "function" for q in self.questions):
            raise ValueError(f"{self.name}: at least one question asks for an implementation")

    @property
    def points(self) -> int:
        return sum(q.points for q in self.questions)

    def question(self, name) -> Question:
        for q in self.questions:
            if q.name == name:
                return q
        raise KeyError(f"{self.name} has no question {name!r}; it has {[q.name for q in self.questions]}")

    def task(self, identifier: str) -> "Task":
        return Task(self, identifier)


@dataclass
class Task:
    """One student's variant of an assignment: ``task.params`` (the numbers of the prompts), ``task.data`` (the
    arrays), :meth:`check` (the student's self-check in the notebook)."""

    assignment: Assignment
    identifier: str
    variant: dict = field(init=False)

    def __post_init__(self):
        rng = np.random.default_rng(seed_of(self.identifier, self.assignment.name))
        self.variant = self.assignment.make_variant(rng)
        if "params" not in self.variant:
            raise ValueError(f"{self.assignment.name}: a variant has 'params'")

    @property
    def params(self) -> dict:
        return self.variant["params"]

    def __getattr__(self, name):
        variant = self.__dict__.get("variant", {})
        if name in variant:
            return variant[name]
        raise AttributeError(name)

    def prompt(self, name) -> str:
        return self.assignment.question(name).prompt.format(**self.params)

    def describe(self):
        """Print this student's parameters (the numbers every prompt uses)."""
        print(f"{self.assignment.title}: the variant of {self.identifier!r}")
        for k, v in self.params.items():
            print(f"  {k} = {v}")

    def _reference(self, name):
        """The expected answer of question ``name`` for this student (computed once, a copy returned): the
        checker's and the grader's, not part of what a student's notebook uses (the grading command voids an
        answer whose cell reads it)."""
        cache = self.__dict__.setdefault("_expected", {})
        if name not in cache:
            cache[name] = self.assignment.question(name).expected(self.variant)
        return copy.deepcopy(cache[name])

    def answer_of(self, name, namespace: dict, inputs=None):
        """The student's answer to question ``name`` read from ``namespace`` (a notebook's globals), as JSON
        data, or the reason there is none: ``(answer, None)`` or ``(None, reason)``.  A function is called on
        ``inputs`` (a list of argument tuples: the grader's) or, by default, on this task's own reference
        inputs (the self-check)."""
        from .guard import OwnCodeRequired, own_code_only

        q = self.assignment.question(name)
        if q.variable not in namespace:
            return None, f"no {q.variable} defined"
        obj = namespace[q.variable]
        if obj is None:
            return None, f"not answered yet ({q.variable} is None)"
        if q.kind == "value":
            try:
                return to_json(obj), None
            except TypeError as err:
                return None, str(err)
        if not callable(obj):
            return None, f"{q.function} is not a function"
        outputs = []
        if inputs is None:
            inputs = [args for args, _ in self._reference(name)]
        for args in inputs:
            args = copy.deepcopy(list(args))       # the student's function may change its inputs
            try:
                with own_code_only(namespace):
                    out = obj(*args)
                outputs.append(to_json(out))
            except OwnCodeRequired as err:
                return None, str(err)
            except NotImplementedError:
                return None, "not answered yet (the placeholder raises NotImplementedError)"
            except Exception as err:  # the student's bug: reported, not raised
                return None, f"{q.function} raised {type(err).__name__}: {err}"
        return outputs, None

    def judge(self, name, answer) -> str | None:
        """None when ``answer`` (from :meth:`answer_of`) is right for this student, else why not."""
        q = self.assignment.question(name)
        expected = self._reference(name)
        if q.kind == "value":
            return compare_answer(answer, expected, q.rtol, q.atol)
        if not isinstance(answer, list) or len(answer) != len(expected):
            return "the function's outputs are missing"
        for i, (got, (_, exp)) in enumerate(zip(answer, expected)):
            why = compare_answer(got, exp, q.rtol, q.atol)
            if why is not None:
                return f"on input {i + 1} of {len(expected)}" + (" (your data)" if i == 0 else "") + f": {why}"
        return None

    def check(self, name, namespace: dict):
        """The student's self-check of question ``name``: prints right or wrong with the reason (never the
        expected value).  The grade comes from the grading command, not from this."""
        q = self.assignment.question(name)
        self._reference(name)                    # the reference first, outside the guard
        answer, why = self.answer_of(name, namespace)
        if why is None:
            why = self.judge(name, answer)
        mark = "✔" if why is None else "✘"
        unit = "point" if q.points == 1 else "points"
        print(f"{mark} {q.name} ({q.points} {unit}): {q.title}" + ("" if why is None else f" -- {why}"))


def cached(v, key, compute):
    """``compute()`` once per variant ``v`` (the checks ask for an expected answer several times), with one BLAS
    thread (the expected answers are small; several threads on a busy machine only slow them down)."""
    cache = v.setdefault("_cache", {})
    if key not in cache:
        from threadpoolctl import threadpool_limits
        with threadpool_limits(limits=1, user_api="blas"):
            cache[key] = compute()
    return cache[key]
