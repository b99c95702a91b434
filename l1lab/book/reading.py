"""How long a lecture takes to read, computed from its page rather than guessed.

The rule (stated on the instructors' page and applied to every lecture alike):

* prose at :data:`WORDS_PER_MINUTE` words a minute: the words of the markdown cells outside the exercises and their
  solutions, an inline formula counting as :data:`INLINE_MATH_WORDS` words;
* displayed math at :data:`DISPLAY_MATH_MINUTES` minutes per line of a displayed equation (``$$ ... $$`` or a
  ``{math}`` block);
* code shown on the page (cells that are not removed, or whose input is folded) at :data:`CODE_LINES_PER_MINUTE`
  lines a minute;
* :data:`FIGURE_MINUTES` minutes per figure (a cell with a figure caption) or static player;
* the exercises separately: the sum of the times they state (``*Practice · difficulty N · about M minutes*``).

The lecture's reading time is the sum of the first four, rounded up to 5 minutes.
"""
from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from pathlib import Path

__all__ = ["CODE_LINES_PER_MINUTE", "DISPLAY_MATH_MINUTES", "FIGURE_MINUTES", "INLINE_MATH_WORDS", "ReadingTime",
           "WORDS_PER_MINUTE", "glue_reading_time", "reading_time"]

WORDS_PER_MINUTE = 110
INLINE_MATH_WORDS = 3
DISPLAY_MATH_MINUTES = 0.25
CODE_LINES_PER_MINUTE = 10
FIGURE_MINUTES = 2.0

_EXERCISE = re.compile(r"^(`{3,}|:{3,})\{(exercise|solution)\}.*?^\1\s*$", re.M | re.S)
_DISPLAY = re.compile(r"\$\$(.*?)\$\$|^(`{3,}|:{3,})\{math\}(.*?)^\2\s*$", re.M | re.S)
_INLINE = re.compile(r"(?<![\\$])\$(?!\$)(.+?)(?<![\\$])\$")
_DIRECTIVE_LINE = re.compile(r"^\s*(`{3,}|:{3,})\S*.*$|^\s*:[a-z-]+:.*$|^\(.*\)=\s*$", re.M)
_EXERCISE_TIME = re.compile(r"^\*(?:Practice|Graded)\s*·\s*difficulty\s*[123]\s*·\s*about\s*(\d+)\s*minutes\*",
                            re.M)
_PLAYER_CALL = re.compile(r"\b\w*player\w*\(")


@dataclass(frozen=True)
class ReadingTime:
    """The parts of a lecture's reading time (minutes) and its total, rounded up to 5 minutes."""

    prose_words: int
    prose_minutes: float
    display_lines: int
    math_minutes: float
    code_lines: int
    code_minutes: float
    figures: int
    players: int
    figure_minutes: float
    exercises: int
    exercise_minutes: int

    @property
    def exact_minutes(self) -> float:
        return self.prose_minutes + self.math_minutes + self.code_minutes + self.figure_minutes

    @property
    def minutes(self) -> int:
        return 5 * math.ceil(self.exact_minutes / 5)


def _code_shown(cell) -> int:
    tags = set(cell.get("metadata", {}).get("tags", []))
    if tags & {"remove-cell", "remove-input"}:
        return 0
    src = "".join(cell["source"])
    return sum(1 for line in src.splitlines() if line.strip() and not line.lstrip().startswith("#"))


def _has_figure_caption(cell) -> bool:
    return "figure" in cell.get("metadata", {}).get("mystnb", {})


def _is_player(cell) -> bool:
    tags = set(cell.get("metadata", {}).get("tags", []))
    return not tags & {"remove-cell", "remove-output"} and bool(_PLAYER_CALL.search("".join(cell["source"])))


def reading_time(root, page) -> ReadingTime:
    """The reading time of the lecture ``page`` (e.g. ``"chapters/scd"``) of the book at ``root``, by the rule of
    this module, from the notebook's source (no outputs needed)."""
    nb = json.loads((Path(root) / f"{page}.ipynb").read_text(encoding="utf-8"))
    words = display = code = figures = players = 0
    exercise_minutes, exercises = 0, 0
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown":
            text = "".join(cell["source"])
            for m in _EXERCISE.finditer(text):
                if m.group(2) == "exercise":
                    exercises += 1
                    t = _EXERCISE_TIME.search(m.group(0))
                    exercise_minutes += int(t.group(1)) if t else 0
            text = _EXERCISE.sub(" ", text)
            for m in _DISPLAY.finditer(text):
                body = m.group(1) if m.group(1) is not None else m.group(3)
                display += max(1, sum(1 for line in body.splitlines() if line.strip()))
            text = _DISPLAY.sub(" ", text)
            n_inline = len(_INLINE.findall(text))
            text = _INLINE.sub(" ", text)
            text = _DIRECTIVE_LINE.sub(" ", text)
            words += len(re.findall(r"[\w’'-]+", text)) + INLINE_MATH_WORDS * n_inline
        elif cell["cell_type"] == "code":
            code += _code_shown(cell)
            figures += _has_figure_caption(cell)
            players += _is_player(cell) and not _has_figure_caption(cell)
    return ReadingTime(words, words / WORDS_PER_MINUTE, display, display * DISPLAY_MATH_MINUTES, code,
                       code / CODE_LINES_PER_MINUTE, figures, players, FIGURE_MINUTES * (figures + players),
                       exercises, exercise_minutes)


def _book_root(page) -> Path | None:
    """The book's root folder seen from a running lecture: the working directory (a lecture runs in ``chapters/``
    when the book is built or tested) or one of its parents, the first that holds ``page``'s notebook."""
    here = Path.cwd().resolve()
    for root in (here, *here.parents):
        if (root / f"{page}.ipynb").is_file():
            return root
    return None


def glue_reading_time(page) -> ReadingTime | None:
    """In a lecture: compute its reading time from its own notebook and glue ``<name>-reading-minutes`` (the
    total) and ``<name>-exercise-minutes`` (the exercises' stated times), which the lecture's "In this lecture" box
    shows.  Returns ``None`` (and glues nothing) where the notebook is not found (a copy run on its own, on Colab)."""
    from .notebook import glue

    root = _book_root(page)
    if root is None:
        return None
    r = reading_time(root, page)
    name = Path(page).name
    glue(f"{name}-reading-minutes", r.minutes, display=False)
    glue(f"{name}-exercise-minutes", r.exercise_minutes, display=False)
    return r
