"""The written problems ({doc}`written_problems`, their text in chapters/written/): every numbered part of the book
(the parts of _toc.yml) has a section of three to five problems on the page; each problem states its difficulty,
time and points, its rubric's points add up to them, and its model solution is in the same part of
{doc}`written_solutions`.  The pages are read as the book reads them, with their ``{include}`` directives resolved
(a part may be a range of lines of a shared file: the ranges must cut it between whole problems)."""
import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
_INCLUDE = re.compile(r"^```\{include\}\s+(\S+)\s*\n((?::[\w-]+:[^\n]*\n)*)```\s*$", re.M)
_OPTION = re.compile(r"^:([\w-]+):\s*(.*?)\s*$", re.M)
_EXERCISE = re.compile(r"^(`{3,})\{exercise\}[^\n]*\n:label: (\S+)\n(.*?)^\1\s*$", re.M | re.S)
_SOLUTION = re.compile(r"^(`{3,})\{solution\} (\S+)\s*\n(.*?)^\1\s*$", re.M | re.S)
_LINE = re.compile(r"^\*Written · difficulty ([123]) · about (\d+) minutes · (\d+) points\*$", re.M)
_ROW = re.compile(r"^\|.*\|\s*(\d+)\s*\|\s*$", re.M)


def _resolved(page):
    """The text of the root page ``page`` with each ``{include}`` replaced by what MyST includes: the file's lines
    [start-line:end-line], then the text after start-after and before end-before."""
    def include(m):
        options = dict(_OPTION.findall(m.group(2)))
        lines = (ROOT / m.group(1)).read_text(encoding="utf-8").splitlines()
        start, end = options.get("start-line"), options.get("end-line")
        text = "\n".join(lines[int(start) if start else None:int(end) if end else None])
        if "start-after" in options:
            text = text[text.index(options["start-after"]) + len(options["start-after"]):]
        if "end-before" in options:
            text = text[:text.index(options["end-before"])]
        return text
    return _INCLUDE.sub(include, (ROOT / page).read_text(encoding="utf-8"))


def _parts(page):
    """{heading: text} of the level-2 sections of the resolved page, in order."""
    sections = re.split(r"^## (.+)$", _resolved(page), flags=re.M)
    return dict(zip(sections[1::2], sections[2::2]))


def _book_parts():
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    return [part["caption"] for part in toc["parts"] if part.get("numbered")]


PROBLEMS, SOLUTIONS = _parts("written_problems.md"), _parts("written_solutions.md")


def test_the_pages_have_one_section_per_part_of_the_book_and_every_problem_once():
    parts = _book_parts()
    assert len(parts) == 5
    assert list(PROBLEMS) == parts and list(SOLUTIONS) == parts, (list(PROBLEMS), list(SOLUTIONS))
    written = sorted((ROOT / "chapters" / "written").glob("*.md"))
    for page, sections, pattern, solutions in (("written_problems.md", PROBLEMS, _EXERCISE, False),
                                               ("written_solutions.md", SOLUTIONS, _SOLUTION, True)):
        on_page = [m[1] for text in sections.values() for m in pattern.findall(text)]
        in_files = sorted(m[1] for f in written if f.stem.endswith("-solutions") == solutions
                          for m in pattern.findall(f.read_text(encoding="utf-8")))
        # a line range that cut a problem in two loses it (its fence, left open, would swallow the next heading)
        assert sorted(on_page) == in_files, f"{page}: {sorted(on_page)} against {in_files}"


@pytest.mark.parametrize("part", _book_parts())
def test_problems_have_rubrics_that_add_up_and_model_solutions(part):
    problems = _EXERCISE.findall(PROBLEMS.get(part, ""))
    solutions = {label for _, label, _ in _SOLUTION.findall(SOLUTIONS.get(part, ""))}
    assert 3 <= len(problems) <= 5, f"{part}: {len(problems)} problems"
    for _, label, body in problems:
        line = _LINE.search(body)
        assert line, f"{label}: no '*Written · difficulty N · about M minutes · P points*' line"
        points = [int(p) for p in _ROW.findall(body[line.end():])]
        assert points and sum(points) == int(line.group(3)), f"{label}: rubric {points} for {line.group(3)} points"
        assert label in solutions, f"{label}: no solution in the part {part!r} of written_solutions.md"
