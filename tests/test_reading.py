"""l1lab.book.reading: a lecture's reading time from its page, by the stated rule."""
import json
import math

import pytest

from l1lab.book import reading
from l1lab.book.reading import reading_time


def _nb(tmp_path, cells):
    nb = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (tmp_path / "chapters").mkdir(exist_ok=True)
    (tmp_path / "chapters" / "x.ipynb").write_text(json.dumps(nb), encoding="utf-8")
    return reading_time(tmp_path, "chapters/x")


def _md(text):
    return {"cell_type": "markdown", "metadata": {}, "source": [text]}


def _code(text, tags=(), figure=False):
    md = {"tags": list(tags)} if tags else {}
    if figure:
        md["mystnb"] = {"figure": {"caption": "c", "name": "f"}}
    return {"cell_type": "code", "metadata": md, "source": [text], "outputs": [], "execution_count": None}


def test_each_part_of_the_page_is_counted_by_the_rule(tmp_path):
    prose = "one two three four five six seven eight nine ten " * 22          # 220 words
    cells = [
        _md("# Title\n\n" + prose + "with $a + b$ inline.\n\n$$\nx = 1\n\\\\ y = 2\n$$\n"),
        _md("````{exercise} Ex\n:label: x-ex\n\nMany words here that are not read with the lecture.\n\n"
            "*Practice · difficulty 2 · about 15 minutes*\n````\n\n````{solution} x-ex\n:class: dropdown\n\n"
            "A solution, not counted.\n````\n"),
        _code("import numpy as np\n# a comment\nx = np.ones(3)\n", tags=("hide-input",)),      # 2 lines shown
        _code("hidden = 1\n", tags=("remove-cell",)),
        _code("demos.some_figure()\n", tags=("remove-input",), figure=True),
        _code("demos.some_player()\n", tags=("remove-input",)),
        _code("demos.some_player()\n", tags=("remove-output",)),                    # a live demo: not on the page
    ]
    r = _nb(tmp_path, cells)
    words = 1 + 220 + 2 + reading.INLINE_MATH_WORDS      # "Title", the prose, "with", "inline", one formula
    assert r.prose_words == words
    assert r.display_lines == 2 and r.code_lines == 3    # the live demo's input is on the page
    assert (r.figures, r.players, r.exercises, r.exercise_minutes) == (1, 1, 1, 15)
    exact = words / 110 + 2 * 0.25 + 3 / 10 + 2 * 2.0
    assert r.exact_minutes == pytest.approx(exact)
    assert r.minutes == 5 * math.ceil(exact / 5)


def test_a_longer_page_takes_longer(tmp_path):
    short = _nb(tmp_path, [_md("word " * 500)])
    long = _nb(tmp_path, [_md("word " * 5000)])
    assert short.minutes == 5 and long.minutes == 5 * math.ceil(5000 / 110 / 5)


#: the longest reading a lecture may ask for, by the rule (DESIGN.md: a lecture reads in 40 minutes or less)
MAX_MINUTES = 40.0
#: lectures still longer, to be split: each must still be longer (the list only shrinks)
NOT_YET_SPLIT: set = set()


def test_every_lecture_reads_in_forty_minutes_or_less():
    from pathlib import Path

    from l1lab.book.roadmap import LECTURES

    root = Path(__file__).resolve().parents[1]
    minutes = {lec.page: reading_time(root, lec.page).exact_minutes for lec in LECTURES}
    long = {p: round(m, 1) for p, m in minutes.items() if m > MAX_MINUTES and p not in NOT_YET_SPLIT}
    assert not long, f"lectures longer than {MAX_MINUTES:g} minutes to read (split them): {long}"
    stale = sorted(p for p in NOT_YET_SPLIT if minutes.get(p, 0.0) <= MAX_MINUTES)
    assert not stale, f"NOT_YET_SPLIT lists lectures that now read in {MAX_MINUTES:g} minutes: {stale}"
