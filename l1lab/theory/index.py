"""The theorem index page, generated from :data:`l1lab.theory.registry.REGISTRY`.

``python -m l1lab.theory.index > theorem_index.md`` (from the repository root) writes the page: for every source
paper, every registered result with its statement, the l1lab function that computes it, the chapter section
that states or demonstrates it, and the tests that check it.  The tests are found by reading ``tests/*.py``:
a test checks a result when its body names the result's function.  ``tests/test_theorem_index.py`` fails when
the committed page is out of date, when an entry has no label in its chapter or no test, and when a chapter
states a result of one of the papers that the registry does not have.
"""
from __future__ import annotations

import ast
import json
import re
from collections import defaultdict
from pathlib import Path

from .._validate import check_path, check_text
from . import registry

#: the sphinx-proof directives that state results (algorithms are not results)
RESULT_KINDS = ("theorem", "lemma", "proposition", "corollary")
#: words that identify a source paper in a directive's title
SOURCE_WORDS = {"Shalev-Shwartz": registry.SST, "Duchi": registry.DSSC, "Kakade": registry.KFE, "Zhu": registry.ZHU,
                "Agarwal": registry.ANW}


def chapter_text(root: Path, chapter: str) -> str:
    """The markdown of a chapter (all markdown cells of its notebook, or its .md file)."""
    root = Path(check_path(root, "root"))
    check_text(chapter, "chapter")
    nb = root / f"{chapter}.ipynb"
    if nb.exists():
        cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
        return "\n\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    md = root / f"{chapter}.md"
    return md.read_text(encoding="utf-8") if md.exists() else ""


_DIRECTIVE = re.compile(r"^```\{prf:(\w+)\}([^\n]*)\n((?::[^\n]*\n)*)", re.M)


def lecture_title(text: str) -> str:
    """The first level-1 heading of a lecture's markdown ("" if none)."""
    check_text(text, "text")
    m = re.search(r"^# (.+)$", text, re.M)
    return m.group(1).strip() if m else ""


def directives(text: str):
    """(kind, title, label) of every sphinx-proof directive in a chapter's markdown."""
    check_text(text, "text")
    out = []
    for kind, title, opts in _DIRECTIVE.findall(text):
        m = re.search(r"^:label:\s*(\S+)", opts, re.M)
        out.append((kind, title.strip(), m.group(1) if m else ""))
    return out


def section_labels(text: str) -> set:
    """The MyST section labels ``(label)=`` of a chapter's markdown."""
    check_text(text, "text")
    return set(re.findall(r"^\(([\w-]+)\)=\s*$", text, re.M))


def tests_by_name(root: Path) -> dict:
    """{name: [test ids]}: the test functions of ``tests/*.py`` whose body names ``name``."""
    root = Path(check_path(root, "root"))
    found = defaultdict(list)
    for path in sorted((root / "tests").glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test"):
                names = {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)}
                names |= {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
                for name in names:
                    found[name].append(f"{path.relative_to(root).as_posix()}::{node.name}")
    return found


def _iterable(value, name):
    try:
        return list(value)
    except TypeError:
        raise TypeError(f"{name} must be None or a collection of chapter names (str), got {value!r}") from None


def _function_name(fn) -> str:
    return f"{fn.__module__}.{fn.__qualname__}"


def render_index(root) -> str:
    """The MyST markdown of the theorem index."""
    root = Path(check_path(root, "root"))
    tests = tests_by_name(root)
    prf_labels, titles = {}, {}
    for chapter in {e.chapter for e in registry.REGISTRY}:
        text = chapter_text(root, chapter)
        titles[chapter] = lecture_title(text) or chapter
        for kind, title, label in directives(text):
            if label:
                prf_labels[label] = (kind, title)
    lines = [
        "# Theorem index",
        "",
        "Every theorem, lemma, proposition, corollary and numbered bound of the five papers that l1lab implements,",
        "generated from the registry `l1lab.theory.registry` by `python -m l1lab.theory.index`. For each result:",
        "the function that computes it, the lecture that states or demonstrates it, and the tests that check it",
        "(`tests/...`). Statements are given in the plain-text form of the registry; the lectures typeset them.",
        "Where a paper's printed form is wrong, the registry keeps the derived form and notes the difference.",
        "",
        "**Numbering.** The column *result* is the paper's own numbering (Theorem 1 of Shalev-Shwartz & Tewari is",
        "\"Theorem 1\" under their heading). The book does not renumber the papers' results: each is stated in an",
        "unnumbered box titled by paper and number, and the column *in the book* links to that box by the title of",
        "its lecture. The few results of the book's own (a repaired statement, an extension beyond the papers) carry",
        "the book's numbering, and their boxes say \"this book\"; they are marked *(this book)* here.",
        "",
    ]
    by_source = defaultdict(list)
    for e in registry.REGISTRY:
        by_source[e.source].append(e)
    for source, entries in by_source.items():
        lines += [f"## {source}", "", "| result | statement | function | in the book | tests |",
                  "|---|---|---|---|---|"]
        for e in entries:
            lecture = titles.get(e.chapter, e.chapter).replace("`", "")
            if not e.label:
                where = "–"
            elif e.label in prf_labels:
                where = f"{{prf:ref}}`{lecture} <{e.label}>`"
                if "this book" in prf_labels[e.label][1]:
                    where += " *(this book)*"
            else:
                where = f"{{ref}}`{lecture} <{e.label}>`"
            name = e.function.__name__
            t = tests.get(name, [])
            shown = "<br>".join(f"`{x}`" for x in t[:3]) + (f" (+{len(t) - 3})" if len(t) > 3 else "")
            statement = e.statement.replace("|", "\\|")
            note = f"<br>*{e.note}*" if e.note else ""
            lines.append(f"| {e.number} | `{statement}`{note.replace('|', chr(92) + '|')} | "
                         f"`{_function_name(e.function)}` | {where} | {shown or '–'} |")
        lines.append("")
    return "\n".join(lines)


def problems(root, chapters=None) -> list:
    """What keeps the index from being complete: entries without a label found in their chapter or without a
    test, and results of the papers stated in a chapter but missing from the registry; only for the given
    ``chapters`` (e.g. "chapters/scd") if any are given."""
    root = Path(check_path(root, "root"))
    if chapters is not None:
        if isinstance(chapters, str) or not all(isinstance(c, str) for c in _iterable(chapters, "chapters")):
            raise TypeError(f"chapters must be None or a collection of chapter names (str), got {chapters!r}")
        chapters = list(chapters)
    tests = tests_by_name(root)
    out = []
    labels = {e.label for e in registry.REGISTRY}
    wanted = {e.chapter for e in registry.REGISTRY}
    if chapters is not None:
        wanted &= set(chapters)
    for chapter in sorted(wanted):
        text = chapter_text(root, chapter)
        known = {lab for _, _, lab in directives(text)} | section_labels(text)
        for e in (e for e in registry.REGISTRY if e.chapter == chapter):
            if not e.label:
                out.append(f"{e.key}: no label (the place in {chapter} that states it)")
            elif e.label not in known:
                out.append(f"{e.key}: label {e.label!r} not found in {chapter}")
            if not tests.get(e.function.__name__):
                out.append(f"{e.key}: no test names {e.function.__name__}")
    stating = sorted(p.with_suffix("").relative_to(root).as_posix() for p in (root / "chapters").glob("*.ipynb"))
    for chapter in (c for c in stating if chapters is None or c in chapters):
        for kind, title, label in directives(chapter_text(root, chapter)):
            if kind in RESULT_KINDS and any(w in title for w in SOURCE_WORDS) and label not in labels:
                out.append(f"{chapter}: the {kind} '{title}' ({label or 'no label'}) is not in the registry")
    return out


if __name__ == "__main__":
    print(render_index(Path.cwd()))
