"""The theorem index (``theorem_index.md``) is complete and up to date: every registry entry has a function, a
place in its chapter and a test; every result of the five papers that a chapter states is in the registry."""
from pathlib import Path

import yaml

from l1lab.theory import index, registry

ROOT = Path(__file__).resolve().parents[1]


def _toc_chapters():
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    return {ch["file"] for part in toc["parts"] for ch in part["chapters"]}


def test_index_page_is_generated_from_the_registry():
    page = (ROOT / "theorem_index.md").read_text(encoding="utf-8")
    assert page == index.render_index(ROOT) + "\n", "regenerate: python -m l1lab.theory.index > theorem_index.md"
    assert "theorem_index" in _toc_chapters()
    for e in registry.REGISTRY:
        assert f"`{e.function.__module__}.{e.function.__qualname__}`" in page


def test_every_entry_has_a_label_and_a_test_and_every_stated_result_is_registered():
    found = index.problems(ROOT, _toc_chapters())
    assert not found, "\n".join(found)


def test_every_registry_chapter_is_in_the_book():
    assert {e.chapter for e in registry.REGISTRY} <= _toc_chapters()
    assert not index.problems(ROOT)


def test_directive_parser():
    text = "```{prf:theorem} Theorem 1 of Zhu et al. (2009)\n:label: pgs-thm-1\n:class: x\n\nbody\n```\n(sec-a)=\n## A"
    assert index.directives(text) == [("theorem", "Theorem 1 of Zhu et al. (2009)", "pgs-thm-1")]
    assert index.section_labels(text) == {"sec-a"}
    tests = index.tests_by_name(ROOT)
    assert "tests/test_theory.py" in " ".join(tests["scd_expected_gap_bound"])
