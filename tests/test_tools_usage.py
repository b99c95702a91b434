"""The Tools appendix's table "Where the book uses each tool" says which lectures link to each of its sections, and
the lectures' links say it too: the two must agree, so that a reader sent from the table finds the tool used there,
and a lecture that starts to use a tool appears in the table."""
import re
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
TOOLS = ROOT / "chapters" / "tools.ipynb"
#: the appendix's pages (the table is on the first)
TOOL_PAGES = (TOOLS, ROOT / "chapters" / "tools_divergences.ipynb")
_LINK = re.compile(r"\{ref\}`(?:[^`<]*<)?(tools-sec-[a-z-]+)>?`|\]\((tools-sec-[a-z-]+)\)")
_DOC = re.compile(r"\{doc\}`([a-z0-9_]+)`")


def _markdown(path):
    return "\n".join(c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "markdown")


def table():
    """{tool section label: set of lecture stems} as the table states it."""
    text = _markdown(TOOLS).split("## Where the book uses each tool", 1)[1]
    rows = {}
    for line in text.splitlines():
        if not line.startswith("|") or "---" in line or line.startswith("| tool"):
            continue
        tool, used = line.strip("|").split("|")[:2]
        label = re.search(r"tools-sec-[a-z-]+", tool)
        if label:
            rows[label.group(0)] = set(_DOC.findall(used))
    return rows


def links():
    """{tool section label: set of lecture stems whose page links to it}."""
    out = {}
    for path in sorted((ROOT / "chapters").glob("*.ipynb")):
        if path in TOOL_PAGES:
            continue
        for m in _LINK.finditer(_markdown(path)):
            out.setdefault(m.group(1) or m.group(2), set()).add(path.stem)
    return out


def test_the_table_lists_every_section_of_the_appendix():
    sections = {s for page in TOOL_PAGES for s in re.findall(r"^\((tools-sec-[a-z-]+)\)=", _markdown(page), re.M)}
    assert sections and set(table()) == sections


def test_the_table_names_the_lectures_that_link_to_each_tool():
    stated, linked = table(), links()
    wrong = {label: {"table only": sorted(stated.get(label, set()) - linked.get(label, set())),
                     "links only": sorted(linked.get(label, set()) - stated.get(label, set()))}
             for label in set(stated) | set(linked) if stated.get(label, set()) != linked.get(label, set())}
    assert not wrong, f"the Tools table and the lectures' links disagree: {wrong}"


def test_the_check_reads_both_kinds_of_link():
    text = "see {ref}`tools-sec-dual`, {ref}`the conjugate <tools-sec-conjugate>` and [Hölder](tools-sec-strong)"
    assert [m.group(1) or m.group(2) for m in _LINK.finditer(text)] == ["tools-sec-dual", "tools-sec-conjugate",
                                                                          "tools-sec-strong"]
