"""l1lab.book.quiz: questions in the page that answer back, the same HTML from the same source."""
import ast
import json
import re
from pathlib import Path

import pytest
from toc import toc_files

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
    (lambda: Numeric("a", "?", 1.0, "w", objective=0), "objective"),
    (lambda: Choice("a", "?", [("x", True, "w"), ("y", False, "w")], objective=(1, "2")), "objective"),
    (lambda: Choice("a", "?", [("x", True, "w"), ("y", False, "w")], objective=()), "objective"),
])
def test_bad_questions_are_refused_with_a_reason(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_doc_links_point_at_the_pages_html_files():
    q = Choice("c", "?", [("a", True, "See {doc}`The ℓ1 problem <chapters/l1_problem>` and {doc}`scd`."),
                          ("b", False, "No.")])
    page = show("intro", "t", [q]).html()
    assert '<a href="chapters/l1_problem.html">The ℓ1 problem</a>' in page and '<a href="scd.html">scd</a>' in page
    assert "{doc}" not in page
    with pytest.raises(ValueError, match="relative to its own page"):
        show("intro", "t", [Choice("c", "?", [("a", True, "{doc}`/chapters/scd`"), ("b", False, "No.")])]).html()


def test_the_script_wires_a_block_without_current_script_and_never_submits():
    """The classic notebook runs an output's scripts through jQuery, where ``document.currentScript`` is null:
    the script then wires every block not yet marked, and every submit is prevented (no navigation)."""
    from l1lab.book.quiz import QUIZ_JS
    assert "})(document.currentScript);" in QUIZ_JS
    assert 'document.querySelectorAll(".l1lab-quiz")' in QUIZ_JS and "root.dataset.ready" in QUIZ_JS
    assert QUIZ_JS.count("ev.preventDefault()") == 2           # the block's own forms, and the document's guard


# ------------------------------------------------------------------------- the questions of the book's pages
ROOT = Path(__file__).resolve().parents[1]
#: the pages of chapters/ without questions, as in tests_html/test_quizzes.py (an appendix on the package's use)
NO_QUESTIONS = {"chapters/estimators"}


LECTURE_PAGES = [p for p in toc_files() if p.startswith("chapters/") and p not in NO_QUESTIONS]


def _code_cells(page):
    """The code of the page's code cells (a notebook's, or a MyST notebook's ``{code-cell}`` blocks)."""
    path = ROOT / f"{page}.ipynb"
    if path.exists():
        cells = ["".join(c["source"]) for c in json.loads(path.read_text(encoding="utf-8"))["cells"]
                 if c["cell_type"] == "code"]
    else:
        text = (ROOT / f"{page}.md").read_text(encoding="utf-8")
        cells = [re.sub(r"\A(?::[^\n]*\n|---\n.*?\n---\n)*", "", m, flags=re.S)
                 for m in re.findall(r"^```\{code-cell\}[^\n]*\n(.*?)^```", text, flags=re.S | re.M)]
    return ["\n".join(x for x in c.splitlines() if not x.lstrip().startswith(("%", "!"))) for c in cells]


def _quizzes(page):
    """Each ``show(lecture, title, [questions])`` call of the page: its lecture id and its question calls."""
    out = []
    for code in _code_cells(page):
        for node in ast.walk(ast.parse(code)):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "show":
                qs = [n for n in ast.walk(node) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                      and n.func.id in ("Numeric", "Choice")]
                out.append((ast.literal_eval(node.args[0]), qs))
    return out


def _keyword(call, name):
    return next((k.value for k in call.keywords if k.arg == name), None)


def test_every_lecture_asks_three_to_six_questions():
    counts = {p: sum(len(qs) for _, qs in _quizzes(p)) for p in LECTURE_PAGES}
    off = {p: n for p, n in counts.items() if not 3 <= n <= 6}
    assert not off, f"lectures with fewer than three or more than six questions in the page: {off}"


def test_an_objective_is_kept_as_the_tuple_of_its_places():
    assert Numeric("a", "?", 1.0, "w", objective=2).objective == (2,)
    assert Choice("a", "?", [("x", True, "w"), ("y", False, "w")], objective=[1, 3]).objective == (1, 3)


@pytest.mark.parametrize("page", LECTURE_PAGES)
def test_each_lectures_questions_cover_its_learning_objectives(page):
    """Every question names the objectives it checks (``objective=``, their places in the lecture's "You will
    learn" list), every place exists, and every objective of the lecture is checked by at least one question."""
    from l1lab.book.roadmap import objectives

    n = len(objectives(ROOT, page))
    assert n >= 3, f"{page}: its objectives were not found"
    places = {}
    for _, qs in _quizzes(page):
        for q in qs:
            node = _keyword(q, "objective")
            value = () if node is None else ast.literal_eval(node)
            places[ast.literal_eval(q.args[0])] = (value,) if isinstance(value, int) else tuple(value)
    unnamed = [name for name, p in places.items() if not p]
    assert not unnamed, f"{page}: questions that name no objective: {unnamed}"
    wrong = {name: p for name, p in places.items() if not set(p) <= set(range(1, n + 1))}
    assert not wrong, f"{page}: objectives that the lecture does not have (it has {n}): {wrong}"
    uncovered = sorted(set(range(1, n + 1)) - {o for p in places.values() for o in p})
    assert not uncovered, (f"{page}: objectives that no question checks: "
                           + "; ".join(objectives(ROOT, page)[k - 1][:80] for k in uncovered))


def test_every_numeric_answer_names_its_glued_value():
    """A numeric question passes ``source=`` (the glue key of its answer): the reader's check compares them."""
    missing = []
    for page in LECTURE_PAGES:
        for _, qs in _quizzes(page):
            for q in qs:
                src = _keyword(q, "source")
                if q.func.id == "Numeric" and (src is None or (isinstance(src, ast.Constant) and src.value is None)):
                    missing.append(f"{page}: {ast.literal_eval(q.args[0])}")
    assert not missing, "numeric questions without source= (glue the answer, pass its key): " + ", ".join(missing)


@pytest.mark.parametrize("page", LECTURE_PAGES + ["intro"])
def test_the_quiz_id_is_the_page_name_and_element_ids_are_unique(page):
    """The lecture id of ``show`` makes the element ids (``l1lab-quiz-<id>-<question>``) and names the page: a
    page's quizzes take the page's own name, so two pages never share ids and a question's id says its page."""
    quizzes = _quizzes(page)
    assert quizzes, f"{page}: no questions"
    ids = {lecture for lecture, _ in quizzes}
    assert ids == {Path(page).name}, f"{page}: quiz ids {sorted(ids)}, not the page's name {Path(page).name!r}"
    names = [ast.literal_eval(q.args[0]) for _, qs in quizzes for q in qs]
    assert len(names) == len(set(names)), f"{page}: two questions share a name (and an element id): {names}"


def test_the_quiz_cells_hide_their_code():
    """The questions' cells keep the answers in their code: removed from the page (``remove-input``) and collapsed
    where a reader opens the notebook: in JupyterLab (``jupyter.source_hidden``) and in Colab (``cellView: form``,
    Colab's "hide code")."""
    shown = []
    for page in LECTURE_PAGES:
        for k, cell in enumerate(json.loads((ROOT / f"{page}.ipynb").read_text(encoding="utf-8"))["cells"]):
            if cell["cell_type"] == "code" and re.search(r"^show\(", "".join(cell["source"]), re.M):
                md = cell.get("metadata", {})
                if ("remove-input" not in md.get("tags", []) or md.get("jupyter", {}).get("source_hidden") is not True
                        or md.get("cellView") != "form"):
                    shown.append(f"{page} cell {k}")
    assert not shown, ("quiz cells without remove-input, jupyter.source_hidden and cellView 'form': "
                       + ", ".join(shown))


def test_the_diagnostic_links_to_pages_of_the_book():
    """The intro's diagnostic says where the book teaches each prerequisite, as {doc} links to pages in _toc.yml
    (relative to the intro, at the root of the book); every question points somewhere."""
    pages = set(toc_files())
    (lecture, qs), = _quizzes("intro")
    bad, unlinked = [], []
    for q in qs:
        whys = [ast.literal_eval(opt.elts[2]) for opt in q.args[2].elts]
        links = [m.group(2) or m.group(3) for w in whys
                 for m in re.finditer(r"\{doc\}`(?:([^`<]*?)\s*<([^`>]+)>|([^`]+))`", w)]
        if not links:
            unlinked.append(ast.literal_eval(q.args[0]))
        bad += [f"{ast.literal_eval(q.args[0])}: {t}" for t in links if t.strip() not in pages]
    assert not bad, f"diagnostic links to pages not in _toc.yml: {bad}"
    assert not unlinked, f"diagnostic questions that link to no page: {unlinked}"
    assert len(qs) == 6
