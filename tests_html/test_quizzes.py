"""The questions in the pages (``l1lab.book.quiz``), answered in headless Chromium from the keyboard, offline.

For every quiz block of every page: each numeric question is answered by typing the right value (then Enter) and a
wrong one, each multiple-choice question by choosing every option with the arrow keys and pressing the Check button
from the keyboard; the feedback must give the verdict ("Right." for the right answer) and the question's or the
chosen option's explanation, for a right and a wrong answer alike, and no console error may appear.  Every lecture
has three to six questions.  Every numeric question names its glued value (``source``), and its answer equals the
value its lecture glues under that key (the executed notebooks in the build's execution cache), so an answer
cannot drift from what the page states.
"""
import json
import re

import pytest
from conftest import HTML, ROOT
from test_reader import PAGES, _in_build

_BLOB = re.compile(r'<script type="application/json" class="l1lab-quiz-data">(.*?)</script>', re.S)
LECTURES = [p for p in PAGES if p.startswith("chapters/") and p != "chapters/estimators"]


def quizzes_of(page):
    path = HTML / f"{page}.html"
    if not path.exists():
        return []
    return [json.loads(b.replace("<\\/", "</")) for b in _BLOB.findall(path.read_text(encoding="utf-8"))]


QUIZ_PAGES = [p for p in PAGES if quizzes_of(p)]


def _feedback(pg, form_id):
    return pg.locator(f"#{form_id} .l1lab-quiz-feedback")


def _why(pg, template):
    """The text of an explanation (the ``template`` element, a JavaScript expression) before its first formula:
    MathJax renders formulas into other characters."""
    why = pg.evaluate(f"{template}.content.textContent.trim()")
    return re.split(r"\\[(\[]", why)[0].strip()


def answer_all(pg, quiz):
    """Answer every question of ``quiz`` (its manifest) on the open page ``pg``; return the failures."""
    problems = []
    for q in quiz["questions"]:
        fid = f"l1lab-quiz-{quiz['lecture']}-{q['name']}"
        form = pg.locator(f"#{fid}")
        form.scroll_into_view_if_needed()
        fb = _feedback(pg, fid)
        if q["kind"] == "numeric":
            field = pg.locator(f"#{fid}-input")
            why = _why(pg, f"document.querySelector('#{fid} template.l1lab-quiz-why')")
            for value, verdict in ((q["answer"], "Right."),
                                   (q["answer"] * 1.5 + q["atol"] * 4 + (1.0 if q["answer"] == 0 else 0.0),
                                    "Not quite: too large.")):
                field.focus()
                field.fill("")
                pg.keyboard.type(repr(float(value)))
                pg.keyboard.press("Enter")
                text = fb.inner_text()
                # the explanation is shown with either verdict, as for a chosen option below
                explained = why[:20] in text if why else len(text) > len(verdict) + 1
                if not text.startswith(verdict) or not explained:
                    problems.append(f"{fid}: typed {value!r}, feedback {text[:80]!r}, expected {verdict!r} "
                                    "and the explanation")
        else:
            radios = pg.locator(f"#{fid} input[type=radio]")
            n = radios.count()
            radios.nth(0).focus()
            pg.keyboard.press("Space")                    # choose the first option from the keyboard
            for i in range(n):
                if i:
                    pg.keyboard.press("ArrowDown")        # the next option (arrow keys move and choose)
                chosen = pg.evaluate(f"document.querySelector('#{fid} input[type=radio]:checked').value")
                why = _why(pg, f"document.querySelectorAll('#{fid} template.l1lab-quiz-why')[{i}]")
                pg.keyboard.press("Tab")                  # to the Check button
                pg.keyboard.press("Enter")
                text = fb.inner_text()
                verdict = "Right." if i == q["right"] else "Not this one."
                explained = why[:20] in text if why else len(text) > len(verdict) + 1
                if chosen != str(i) or not text.startswith(verdict) or not explained:
                    problems.append(f"{fid}: option {i} (chosen {chosen}), feedback {text[:80]!r}, "
                                    f"expected {verdict!r} and its explanation")
                radios.nth(i).focus()
    return problems


def _open(browser, url):
    ctx = browser.new_context(viewport={"width": 1280, "height": 1400})
    pg = ctx.new_page()
    errors, blocked = [], []

    def route(r):
        u = r.request.url
        if u.startswith(("data:", "blob:")) or (u.startswith("file://") and (_in_build(u) or "/pytest-" in u)):
            return r.continue_()
        blocked.append(u)
        return r.abort()

    pg.route("**/*", route)
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(url, wait_until="load", timeout=120_000)
    return ctx, pg, errors, blocked


def test_the_quiz_answers_back_on_a_page_of_its_own(browser, tmp_path):
    """The component alone (no build needed): right and wrong answers, from the keyboard."""
    from l1lab.book.quiz import Choice, Numeric, show
    quiz = show("demo", "Check yourself", [
        Numeric("n", "How much is $2^{-3}$?", 0.125, "Halve three times.", rtol=1e-6),
        Choice("c", "Which is a norm?", [("the ℓ0 count", False, "It is not homogeneous."),
                                         ("the ℓ1 norm", True, "All three axioms hold."),
                                         ("a half-norm", False, "The triangle inequality fails.")])])
    page = tmp_path / "quiz.html"
    page.write_text(f"<!doctype html><html><body>{quiz.html()}</body></html>", encoding="utf-8")
    ctx, pg, errors, blocked = _open(browser, page.as_uri())
    try:
        problems = answer_all(pg, quiz.manifest())
        pg.locator("#l1lab-quiz-demo-n-input").fill("not a number")
        pg.keyboard.press("Enter")
        assert _feedback(pg, "l1lab-quiz-demo-n").inner_text().startswith("Type a number")
        pg.locator("#l1lab-quiz-demo-n-input").fill("12.5%")
        pg.keyboard.press("Enter")
        assert _feedback(pg, "l1lab-quiz-demo-n").inner_text().startswith("Right.")
    finally:
        ctx.close()
    assert not problems and not errors and not blocked, (problems, errors, blocked)


@pytest.mark.parametrize("page", QUIZ_PAGES)
def test_every_question_answers_back(page, browser, built_pages):
    ctx, pg, errors, blocked = _open(browser, (HTML / f"{page}.html").as_uri())
    try:
        problems = [p for quiz in quizzes_of(page) for p in answer_all(pg, quiz)]
        # a "predict, then move the player" item links to a player of the same page
        for quiz in quizzes_of(page):
            for q in quiz["questions"]:
                if q.get("player") and pg.locator(f"#l1lab-player-{q['player']}").count() != 1:
                    problems.append(f"{q['name']}: no player {q['player']!r} on the page")
    finally:
        ctx.close()
    assert not blocked, f"{page}: requests leaving the build: {blocked[:3]}"
    assert not errors, f"{page}: console errors {errors[:3]}"
    assert not problems, f"{page}: " + "\n".join(problems[:10])


def test_every_lecture_has_three_to_six_questions(built_pages):
    counts = {p: sum(len(q["questions"]) for q in quizzes_of(p)) for p in LECTURES}
    off = {p: n for p, n in counts.items() if not 3 <= n <= 6}
    assert not off, f"lectures with fewer than three or more than six questions in the page: {off}"


@pytest.mark.parametrize("page", [p for p in LECTURES if quizzes_of(p)])
def test_numeric_answers_are_the_glued_values(page, built_pages):
    from conftest import executed as _executed
    from test_answers import _glued
    glued = _glued(_executed(ROOT / f"{page}.ipynb"))
    wrong = []
    for quiz in quizzes_of(page):
        for q in quiz["questions"]:
            if q["kind"] != "numeric":
                continue
            if q.get("source") is None:
                wrong.append(f"{q['name']}: no source (glue the answer and pass its key as source=)")
            elif q["source"] not in glued:
                wrong.append(f"{q['name']}: no glued value {q['source']!r}")
            elif float(glued[q["source"]]) != q["answer"]:
                wrong.append(f"{q['name']}: answer {q['answer']!r}, glued {glued[q['source']]!r}")
    assert not wrong, f"{page}: {wrong}"


def test_quiz_and_player_work_where_scripts_run_without_current_script(browser, tmp_path):
    """The classic Jupyter notebook inserts an output's HTML and then runs its scripts through jQuery, where
    ``document.currentScript`` is null.  Simulated here (the HTML set with innerHTML, which runs no script, then each
    script's text run by a Function): the question must still answer back, Enter must not leave the page, and the
    player's control must still change its frame."""
    import json as _json

    import ipywidgets as widgets

    from l1lab.book import static
    from l1lab.book.controls import wire
    from l1lab.book.live import figure_axes
    from l1lab.book.quiz import Numeric, show

    quiz = show("classic", "Check yourself", [Numeric("n", "How much is $2^{-3}$?", 0.125, "Halve three times.")])

    def draw(a=1.0, fig=None):
        fig, ax = figure_axes(fig, (4.0, 2.4))
        ax.plot([0, 1], [0, a])
        ax.set_title(f"slope {a:g}", fontsize=10)
        return fig

    controls = {"a": widgets.FloatSlider(value=1.0, min=0.5, max=2.0, step=0.5, description="a")}
    demo = wire(controls, draw, [["a"]])
    player = static.static_player(demo, {"a": (0.5, 1.0, 2.0)}, name="classic")
    body = _json.dumps(quiz.html() + player.html()).replace("</", "<\\/")    # a string inside a <script>
    page = tmp_path / "classic.html"
    page.write_text(
        "<!doctype html><html><body><div id='out'></div><script>"
        f"var out=document.getElementById('out');out.innerHTML={body};"
        "Array.prototype.forEach.call(out.querySelectorAll('script:not([type])'),function(s){"
        "  (new Function(s.textContent))();});"
        "</script></body></html>", encoding="utf-8")
    ctx, pg, errors, blocked = _open(browser, page.as_uri())
    try:
        url = pg.url
        field = pg.locator("#l1lab-quiz-classic-n-input")
        field.click()
        pg.keyboard.type("0.125")
        pg.keyboard.press("Enter")
        assert _feedback(pg, "l1lab-quiz-classic-n").inner_text().startswith("Right.")
        assert pg.url == url                                   # the form did not submit
        root = pg.locator(".l1lab-player")
        before = root.get_attribute("data-key")
        slider = pg.locator(".l1lab-player input[type=range]")
        slider.focus()
        pg.keyboard.press("ArrowRight")
        assert root.get_attribute("data-key") != before and root.get_attribute("data-ready") == "1"
    finally:
        ctx.close()
    assert not errors and not blocked, (errors, blocked)


def test_in_colab_the_quiz_loads_mathjax_once_per_output_frame(browser):
    """Colab shows each output in a frame of its own, with its ``google.colab`` object and no MathJax: there the
    script loads MathJax (from its CDN, served here by a stub that records what it was configured with), once for
    two quiz blocks, and typesets the feedback with it.  Where MathJax is present (the book) or there is no Colab
    (JupyterLab, the page of its own above), it loads nothing: those tests block every request."""
    from l1lab.book.quiz import Numeric, show

    one = show("colab-a", "Check yourself", [Numeric("n", "How much is $2^{-3}$?", 0.125, "Halve $2$ three times.")])
    two = show("colab-b", "Check yourself", [Numeric("m", "How much is $2^{-1}$?", 0.5, "Halve $2$ once.")])
    frame = "https://abc123-colab.googleusercontent.com/outputframe.html"
    html = ("<!doctype html><html><head></head><body><script>window.google={colab:{kernel:{}}};</script>"
            f"{one.html()}{two.html()}</body></html>")
    stub = ("window.l1labStubConfig=JSON.stringify(window.MathJax.tex);window.l1labTypeset=0;"
            "window.MathJax.typesetPromise=function(els){window.l1labTypeset+=1;return Promise.resolve();};")
    loads, other = [], []
    ctx = browser.new_context()
    pg = ctx.new_page()

    def route(r):
        url = r.request.url
        if url == frame:
            return r.fulfill(status=200, content_type="text/html", body=html)
        if url.startswith("https://cdn.jsdelivr.net/npm/mathjax@3/"):
            loads.append(url)
            return r.fulfill(status=200, content_type="application/javascript", body=stub)
        other.append(url)
        return r.abort()

    errors = []
    pg.route("**/*", route)
    pg.on("pageerror", lambda e: errors.append(str(e)))
    try:
        pg.goto(frame, wait_until="load")
        pg.wait_for_function("window.l1labStubConfig !== undefined")
        config = pg.evaluate("JSON.parse(window.l1labStubConfig)")
        pg.locator("#l1lab-quiz-colab-b-m-input").fill("0.5")
        pg.keyboard.press("Enter")
        text = _feedback(pg, "l1lab-quiz-colab-b-m").inner_text()
        typeset = pg.evaluate("window.l1labTypeset")
    finally:
        ctx.close()
    assert len(loads) == 1 and not other and not errors, (loads, other, errors)
    assert config["inlineMath"] == [["\\(", "\\)"]]           # the delimiters the questions' HTML uses
    assert text.startswith("Right.") and typeset == 1
