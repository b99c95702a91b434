"""l1lab.book.quiz: questions in the page that answer back, the same HTML from the same source."""
import json
import re

import pytest

from l1lab.book.quiz import Choice, Numeric, show


def _quiz():
    return show("scd", "Check yourself: Theorem 1", [
        Numeric("steps", r"How many steps does Theorem 1 ask for at $\varepsilon = 10^{-3}$?", 12345.0,
                "Solve $d\\Psi(0)/(T+1) \\le \\varepsilon$ for $T$.", rtol=0.01, source="scd-T-eps"),
        Choice("order", "Which order of coordinates does Theorem 1 cover?",
               [("uniformly random", True, "The proof takes an expectation over the coordinate drawn."),
                ("cyclic", False, "A cyclic order has no expectation to take: the proof does not apply.")],
               player="scd-order"),
    ])


def test_the_same_source_gives_the_same_page():
    assert _quiz().html() == _quiz().html()
    assert re.search(r"Math\.random|uuid|Date\.now", _quiz().html()) is None


def test_the_html_holds_form_controls_ids_and_the_manifest():
    page = _quiz().html()
    assert page.count('<form class="l1lab-quiz-item"') == 2
    assert 'id="l1lab-quiz-scd-steps-input"' in page and 'type="radio" name="l1lab-quiz-scd-order"' in page
    assert 'role="status" aria-live="polite"' in page and '<button type="submit">Check</button>' in page
    assert r"\(\varepsilon = 10^{-3}\)" in page and 'href="#l1lab-player-scd-order"' in page
    blob = json.loads(re.search(r'class="l1lab-quiz-data">(.*?)</script>', page).group(1))
    assert blob == {"lecture": "scd", "questions": [
        {"name": "steps", "kind": "numeric", "player": None, "answer": 12345.0, "rtol": 0.01, "atol": 0.0,
         "source": "scd-T-eps"},
        {"name": "order", "kind": "choice", "player": "scd-order", "right": 0}]}
    assert "12345" not in repr(_quiz())           # the notebook's text output does not give answers away


@pytest.mark.parametrize("make, message", [
    (lambda: Numeric("a", "?", float("nan"), "why"), "finite"),
    (lambda: Numeric("a", "?", 1.0, "why", rtol=0.0), "tolerance"),
    (lambda: Choice("a", "?", [("x", True, "w"), ("y", True, "w")]), "exactly one right"),
    (lambda: Choice("a", "?", [("x", True, "w"), ("y", False, " ")]), "says why"),
    (lambda: show("scd", "t", [Numeric("a", "?", 1.0, "w"), Numeric("a", "?", 2.0, "w")]), "unique"),
    (lambda: show("Bad Name", "t", [Numeric("a", "?", 1.0, "w")]), "lecture name"),
])
def test_bad_questions_are_refused_with_a_reason(make, message):
    with pytest.raises(ValueError, match=message):
        make()
