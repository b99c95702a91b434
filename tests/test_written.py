"""The written problems (chapters/written/): each states its difficulty, time and points, its rubric's points add
up to them, it has a model solution, and every part of the book has three to five problems (the first file covers
two parts, Foundations and the coordinate methods)."""
import re
from pathlib import Path

import pytest

WRITTEN = Path(__file__).resolve().parents[1] / "chapters" / "written"
PARTS = {"coordinate": 2, "sgd": 1, "ball": 1, "regularizers": 1}
_EXERCISE = re.compile(r"^(`{3,})\{exercise\}[^\n]*\n:label: (\S+)\n(.*?)^\1\s*$", re.M | re.S)
_LINE = re.compile(r"^\*Written · difficulty ([123]) · about (\d+) minutes · (\d+) points\*$", re.M)
_ROW = re.compile(r"^\|.*\|\s*(\d+)\s*\|\s*$", re.M)


@pytest.mark.parametrize("part", sorted(PARTS))
def test_problems_have_rubrics_that_add_up_and_model_solutions(part):
    problems = _EXERCISE.findall((WRITTEN / f"{part}.md").read_text(encoding="utf-8"))
    solutions = (WRITTEN / f"{part}-solutions.md").read_text(encoding="utf-8")
    assert 3 * PARTS[part] <= len(problems) <= 5 * PARTS[part], f"{part}: {len(problems)} problems"
    for _, label, body in problems:
        line = _LINE.search(body)
        assert line, f"{label}: no '*Written · difficulty N · about M minutes · P points*' line"
        points = [int(p) for p in _ROW.findall(body[line.end():])]
        assert points and sum(points) == int(line.group(3)), f"{label}: rubric {points} for {line.group(3)} points"
        assert re.search(rf"^`{{3,}}\{{solution\}} {re.escape(label)}\s*$", solutions, re.M), f"{label}: no solution"
