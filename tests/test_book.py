"""The book's configuration and sources: what a broken build, a silently dropped launch button or a missing
citation would otherwise only show after a full build (the built pages are checked by ``tests_html``)."""
import json
import re
from pathlib import Path

import yaml
from toc import toc_files

ROOT = Path(__file__).resolve().parents[1]
COLAB_MARK = '"google.colab" in sys.modules'


def _config():
    return yaml.safe_load((ROOT / "_config.yml").read_text())


def _source(page):
    for ext in (".ipynb", ".md"):
        if (ROOT / f"{page}{ext}").exists():
            return ROOT / f"{page}{ext}"
    raise AssertionError(f"{page} is in _toc.yml but neither {page}.ipynb nor {page}.md exists")


def _notebooks():
    return [p for p in map(_source, toc_files()) if p.suffix == ".ipynb"]


def test_jupyter_book_1_and_launch_buttons_at_top_level():
    req = (ROOT / "requirements.txt").read_text()
    assert re.search(r"^jupyter-book>=1\.0\.4\.post1,<2\s*$", req, re.M), "pin jupyter-book>=1.0.4.post1,<2"
    assert re.search(r"^ipywidgets>=8", req, re.M), "ipywidgets 8 (the widgets' API)"
    cfg = _config()
    lb = cfg["launch_buttons"]
    assert lb["binderhub_url"] == "https://mybinder.org" and lb["colab_url"].startswith("https://colab")
    theme = cfg.get("sphinx", {}).get("config", {}).get("html_theme_options", {})
    assert "launch_buttons" not in theme, "launch_buttons inside html_theme_options are silently dropped"
    assert cfg["repository"]["url"].startswith("https://github.com/")
    assert cfg["execute"]["execute_notebooks"] in ("cache", "force")


def test_binder_can_build_the_environment():
    # repo2docker installs requirements.txt (ending with the package itself) on the Python of runtime.txt
    assert (ROOT / "runtime.txt").read_text().strip() == "python-3.11"
    assert (ROOT / "requirements.txt").read_text().strip().splitlines()[-1].strip() == "-e ."


def test_binder_builds_the_book_into_its_image():
    """repo2docker runs postBuild when it builds the image: the book's build fills numba's cache and the data home's
    result files, which a reader's live notebook then reads; a failed build must not fail the image."""
    import os
    post = ROOT / "postBuild"
    assert os.access(post, os.X_OK)
    text = post.read_text()
    assert text.startswith("#!/bin/bash") and "python _ext/build_book.py . --keep-going" in text
    assert "set -e" not in text and "|| echo" in text


def test_every_chapter_notebook_installs_l1lab_on_colab_first_and_is_stored_without_outputs():
    for nb_path in _notebooks():
        cells = json.loads(nb_path.read_text())["cells"]
        code = [c for c in cells if c["cell_type"] == "code"]
        first = "".join(code[0]["source"])
        assert COLAB_MARK in first and "%pip install" in first, f"{nb_path.name}: first code cell must install on Colab"
        assert "remove-cell" in code[0]["metadata"].get("tags", []), f"{nb_path.name}: hide the install cell"
        assert not any(c.get("outputs") for c in code), f"{nb_path.name}: store chapters without outputs"


def test_every_citation_is_in_the_bibliography():
    keys = set(re.findall(r"^@\w+\{([^,]+),", (ROOT / "references.bib").read_text(), re.M))
    cited = {}
    for page in toc_files():
        text = _source(page).read_text()
        for group in re.findall(r"\{cite(?::[pt])?\}`([^`]+)`", text):
            for key in group.split(","):
                cited.setdefault(key.strip(), page)
    missing = {k: p for k, p in cited.items() if k not in keys}
    assert not missing, f"cited but not in references.bib: {missing}"


def test_every_prf_label_is_unique_across_the_book():
    seen = {}
    for page in toc_files():
        for label in re.findall(r":label: ([\w-]+)", _source(page).read_text()):
            assert label not in seen, f"label {label} in {page} and {seen[label]}"
            seen[label] = page


def test_bibliography_titles_have_no_tex_math():
    # sphinxcontrib-bibtex prints titles as text: $...$ would reach the reader as raw TeX (found by tests_html)
    titles = re.findall(r"^\s*title\s*=\s*\{(.*)\},?\s*$", (ROOT / "references.bib").read_text(), re.M)
    assert titles and not [t for t in titles if "$" in t or "\\(" in t]


def test_the_roadmap_lists_the_lectures_of_the_table_of_contents():
    """l1lab.book.roadmap (the introduction's map, the instructors' tables) names exactly the lectures of
    _toc.yml, in their order; every prerequisite comes earlier in the book; every lecture has objectives."""
    from l1lab.book import roadmap

    lectures = [f for f in toc_files() if f.startswith("chapters/")]
    assert [lec.page for lec in roadmap.LECTURES] == lectures
    seen = set()
    for lec in roadmap.LECTURES:
        assert set(lec.needs) <= seen, f"{lec.page} needs a later lecture: {set(lec.needs) - seen}"
        assert len(roadmap.objectives(ROOT, lec.page)) >= 3, f"{lec.page}: no 'You will learn' list of 3+ points"
        name = lec.page.split("/")[-1]
        text = (ROOT / f"{lec.page}.ipynb").read_text(encoding="utf-8")
        assert f"Reading time** about {{glue:text}}`{name}-reading-minutes` minutes" in text \
            and f'glue_reading_time(\\"{lec.page}\\")' in text, \
            f"{lec.page}: the reading time is not the one computed from the page (l1lab.book.reading)"
        seen.add(lec.page)
    places = [lec.place for lec in roadmap.LECTURES if lec.continues is None]
    assert len(set(places)) == len(places), "two lectures at one place of the roadmap"
    pages = [lec.page for lec in roadmap.LECTURES]
    for lec in roadmap.LECTURES:
        if lec.continues:      # a second part comes right after its first and builds on it
            assert lec.continues in lec.needs and pages.index(lec.page) == pages.index(lec.continues) + 1, lec.page


def test_the_pacing_plan_covers_every_lecture():
    text = (ROOT / "instructors.md").read_text()
    start = text.index("## A pacing plan")
    plan = text[start:text.index("\n## ", start + 1)]
    for f in toc_files():
        if f.startswith("chapters/"):
            assert f"{{doc}}`{f}`" in plan, f"{f} is not in the pacing plan"


def test_every_exercise_says_what_it_is():
    """Each exercise of a lecture states its kind, difficulty (1-3) and expected time on its own line, which the
    instructors' table reads."""
    from l1lab.book import roadmap

    missing = [f"{lec.page}: {ex['title']!r}" for lec in roadmap.LECTURES
               for ex in roadmap.exercises(ROOT, lec.page) if ex["kind"] is None]
    assert not missing, "exercises without '*Practice · difficulty N · about M minutes*':\n  " + "\n  ".join(missing)
    # every page has an exercise, and every topic (a lecture and the part that continues it) at least two
    counts = {lec.page: len(roadmap.exercises(ROOT, lec.page)) for lec in roadmap.LECTURES}
    assert not [p for p, n in counts.items() if n < 1], f"pages without an exercise: {counts}"
    topics = {}
    for lec in roadmap.LECTURES:
        topics[lec.continues or lec.page] = topics.get(lec.continues or lec.page, 0) + counts[lec.page]
    assert not {t: n for t, n in topics.items() if n < 2}, f"topics with fewer than two exercises: {topics}"


def test_the_instructors_table_lists_every_notebook_exercise():
    """Every "## Exercise N" of every exercise notebook is a row of the instructors' table, with its kind,
    difficulty and time (counted here from the notebooks' markdown independently of the roadmap's reader)."""
    from l1lab.book import roadmap

    headings = 0
    for nb in sorted((ROOT / "chapters" / "exercises" / "solutions").glob("*.ipynb")):
        for cell in json.loads(nb.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] == "markdown" and re.match(r"##\s*Exercise\s+\d+:", "".join(cell["source"])):
                headings += 1
    table = roadmap.notebook_exercises_markdown(ROOT)
    rows = [r for r in table.splitlines()[2:] if r.strip()]
    assert headings >= 17 and len(rows) == headings
    assert not [r for r in rows if "| ? |" in r], "notebook exercises without kind, difficulty or time"
    assert "notebook_exercises_markdown" in (ROOT / "instructors.md").read_text(encoding="utf-8")


def test_the_questions_of_the_pages_are_read_from_their_code(tmp_path):
    """roadmap.questions reads a lecture's quiz calls without running them (the instructors' list)."""
    import json

    from l1lab.book import roadmap

    src = ('from l1lab.book.quiz import Choice, Numeric, show\n'
           'show("x", "t", [Numeric("steps", f"How many at {eps}?", T, "why", source="x-T"),\n'
           '                Choice("order", "Which order?", [("a", True, "w"), ("b", False, "w")], player="x-p",\n'
           '                       objective=(1, 3))])')
    nb = {"cells": [{"cell_type": "markdown", "source": ["# X"], "metadata": {}},
                    {"cell_type": "code", "source": [src], "metadata": {}, "outputs": [], "execution_count": None}],
          "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (tmp_path / "chapters").mkdir()
    (tmp_path / "chapters" / "x.ipynb").write_text(json.dumps(nb))
    qs = roadmap.questions(tmp_path, "chapters/x")
    assert qs == [{"name": "steps", "kind": "numeric", "prompt": "How many at {...}?", "source": "x-T", "player": None,
                   "objective": ()},
                  {"name": "order", "kind": "choice", "prompt": "Which order?", "source": None, "player": "x-p",
                   "objective": (1, 3)}]
    assert "*(choice, then move the player `x-p`, objectives 1, 3)*" in roadmap.questions_markdown(
        tmp_path, [roadmap.Lecture("chapters/x", "x", "", (), (0, 0))])


def test_figure_options_are_where_myst_nb_reads_them():
    """A figure's caption, name and alt text are read from the cell's ``mystnb`` metadata (``mystnb.figure``,
    ``mystnb.image``); the same keys at the top of the cell's metadata are silently ignored, and the page shows a
    figure without them."""
    import json

    misplaced = []
    for path in sorted((ROOT / "chapters").glob("*.ipynb")):
        for k, cell in enumerate(json.loads(path.read_text(encoding="utf-8"))["cells"]):
            keys = {"image", "figure"} & set(cell.get("metadata", {}))
            if keys:
                misplaced.append(f"{path.stem} cell {k}: {sorted(keys)}")
    assert not misplaced, "figure options outside the cell's mystnb metadata: " + "; ".join(misplaced)


def test_objectives_link_right_from_the_instructors_page():
    """The objectives are copied from each lecture into the instructors' page: their relative {doc} links are made
    absolute, so that they resolve there too."""
    from l1lab.book.roadmap import _absolute_docs

    text = "see {doc}`radar`, {doc}`the ball <projections>`, {doc}`/intro` and {doc}`../instructors`"
    expected = ("see {doc}`/chapters/radar`, {doc}`the ball </chapters/projections>`, {doc}`/intro` and "
                "{doc}`/instructors`")
    assert _absolute_docs(text, "chapters/x") == expected
