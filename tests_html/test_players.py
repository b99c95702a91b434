"""The static players of the built book (``l1lab.book.static``): every demo interactive in the page itself.

Static checks of every player on every page: the grid holds a frame for every combination of the offered values,
every cheap control offers all the positions of the live widget, every frame is a file beside the pages (none left
inline) whose SHA-256 is the hash the build wrote for that setting, and every page with a player or questions
(``l1lab.book.quiz``) stays within its weight budget.

In headless Chromium, with every request that leaves the build folder blocked: for every player, every control is
moved with the keyboard (sliders with the arrow keys, list boxes and checkboxes from the keyboard too) through
every position it offers; after each move the frame shown must be the one the manifest holds for the setting the
controls now show (its file, hash and alternative text), it must differ from the frame before the move, the
setting must be announced in the caption, and no console error may appear.  The latency of a move is measured by
``benchmarks/bench_players.py``, not here.
"""
import hashlib
import itertools
import json
import re
from pathlib import Path

import pytest
from conftest import HTML
from test_reader import PAGES, _in_build

#: the weight budget of a page with players or questions (its HTML and the frames of its players) and of all the
#: players' frames of the book
PAGE_BUDGET = 10 * 2 ** 20
BOOK_BUDGET = 80 * 2 ** 20

#: what a frame must never be: an exception's text or a figure's bare repr instead of the figure
_NOT_A_FIGURE = re.compile(r"\b[A-Z]\w*(?:Error|Exception)\b:|Traceback \(most recent|<Figure size \d")
_BLOB = re.compile(r'<script type="application/json" class="l1lab-player-data">(.*?)</script>', re.S)


def players_of(page):
    text = (HTML / f"{page}.html").read_text(encoding="utf-8")
    return [json.loads(b.replace("<\\/", "</")) for b in _BLOB.findall(text)]


PLAYER_PAGES = [p for p in PAGES if (HTML / f"{p}.html").exists() and players_of(p)]
#: the pages with questions (each quiz block holds its manifest, ``l1lab.book.quiz``)
QUIZ_PAGES = [p for p in PAGES if (HTML / f"{p}.html").exists()
              and 'class="l1lab-quiz-data"' in (HTML / f"{p}.html").read_text(encoding="utf-8")]


def _frame_file(page, src):
    assert not src.startswith("data:"), f"{page}: a frame left inline in the page"
    return (HTML / f"{page}.html").parent.joinpath(src).resolve()


def test_the_book_has_players():
    names = [pl["name"] for p in PLAYER_PAGES for pl in players_of(p)]
    assert len(names) >= 20, f"only {len(names)} static players in the book"
    assert len(names) == len(set(names)), "two players share a name (their controls' ids would collide)"


@pytest.mark.parametrize("page", PLAYER_PAGES)
def test_grids_are_complete_and_frames_are_the_hashed_files(page):
    for pl in players_of(page):
        controls = pl["controls"]
        for c in controls:
            assert 0 <= c["default"] < len(c["labels"])
            if not c["listed"]:        # a cheap control: every position of the live widget
                assert len(c["labels"]) == c["options"], f"{pl['name']}: {c['name']} misses positions"
        keys = {"-".join(map(str, k)) for k in itertools.product(*(range(len(c["labels"])) for c in controls))}
        assert set(pl["frames"]) == keys, f"{pl['name']}: frames missing for {sorted(keys - set(pl['frames']))[:5]}"
        for key, f in pl["frames"].items():
            assert f["alt"].startswith("Setting: "), f"{pl['name']} {key}: no alternative text"
            shown = f["alt"] + " " + re.sub(r"<[^>]+>", " ", f.get("html") or "")
            assert not _NOT_A_FIGURE.search(shown), f"{pl['name']} {key}: the frame shows {shown[:200]!r}"
            if "src" not in f:
                continue
            path = _frame_file(page, f["src"])
            assert path.parent == (HTML / "_players").resolve() and path.is_file(), f"{pl['name']}: {f['src']}"
            assert hashlib.sha256(path.read_bytes()).hexdigest() == f["sha"] == path.stem


def test_weight_budgets():
    sizes = {}
    for page in dict.fromkeys(PLAYER_PAGES + QUIZ_PAGES):     # a page with questions and no player: its HTML
        files = {_frame_file(page, f["src"]) for pl in players_of(page) for f in pl["frames"].values() if "src" in f}
        sizes[page] = (HTML / f"{page}.html").stat().st_size + sum(p.stat().st_size for p in files)
    heavy = {p: round(s / 2 ** 20, 1) for p, s in sizes.items() if s > PAGE_BUDGET}
    assert not heavy, f"pages over {PAGE_BUDGET / 2 ** 20:.0f} MB (MB): {heavy}"
    total = sum(p.stat().st_size for p in (HTML / "_players").glob("*.png"))
    assert total <= BOOK_BUDGET, f"the players' frames weigh {total / 2 ** 20:.1f} MB"


@pytest.mark.parametrize("page", PAGES)
def test_no_saved_widget_state_in_the_page(page):
    """The pages hold no ipywidgets state (no widget is shown in the HTML, and no widget manager reads it)."""
    html = (HTML / f"{page}.html").read_text(encoding="utf-8")
    assert "application/vnd.jupyter.widget-state+json" not in html, f"{page}: dead widget state in the page"


# ---------------------------------------------------------------------------------------------- in the browser
_STATE = """root => {
  const img = root.querySelector('img.l1lab-player-frame');
  return {key: root.dataset.key || null, sha: root.dataset.sha || null, src: img.getAttribute('src'),
          alt: img.alt, hidden: img.hidden, said: root.querySelector('.l1lab-player-setting').textContent,
          html: root.querySelector('.l1lab-player-html').hidden ? null
                : root.querySelector('.l1lab-player-html').innerHTML};
}"""


def _move(pg, root, c, i, current):
    """Set control ``c`` to its position ``i`` from the keyboard, as a reader would."""
    el = root.locator(f'[data-control="{c["name"]}"]')
    el.focus()
    if c["kind"] == "range":
        key = "ArrowRight" if i > current else "ArrowLeft"
        for _ in range(abs(i - current)):
            pg.keyboard.press(key)
    elif c["kind"] == "checkbox":
        pg.keyboard.press("Space")
    else:
        el.select_option(str(i))


@pytest.mark.parametrize("page", PLAYER_PAGES)
def test_every_control_moves_the_frame(page, browser):
    ctx = browser.new_context(viewport={"width": 1280, "height": 1200})
    pg = ctx.new_page()
    errors, blocked = [], []

    def route(r):
        url = r.request.url
        if url.startswith(("data:", "blob:")) or (url.startswith("file://") and _in_build(url)):
            return r.continue_()
        blocked.append(url)
        return r.abort()

    pg.route("**/*", route)
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto((HTML / f"{page}.html").as_uri(), wait_until="load", timeout=120_000)
    problems = []
    for pl in players_of(page):
        root = pg.locator(f'#l1lab-player-{pl["name"]}')
        root.scroll_into_view_if_needed()
        # near the viewport the player loads and decodes all its frames, then marks itself loaded
        pg.wait_for_selector(f'#l1lab-player-{pl["name"]}[data-loaded="1"]', timeout=60_000)
        controls = pl["controls"]
        state = [c["default"] for c in controls]

        def check(what):
            key = "-".join(map(str, state))
            shown = root.evaluate(_STATE)
            frame = pl["frames"][key]
            if shown["key"] != key:
                problems.append(f"{pl['name']} {what}: shows {shown['key']}, the controls say {key}")
                return None
            if "src" in frame:
                if shown["hidden"] or shown["src"] != frame["src"] or shown["alt"] != frame["alt"]:
                    problems.append(f"{pl['name']} {what}: not the frame of {key}")
                elif not Path(_frame_file(page, shown["src"])).is_file():
                    problems.append(f"{pl['name']} {what}: the frame's file is missing")
            elif shown["html"] is None:
                problems.append(f"{pl['name']} {what}: the message of {key} is not shown")
            labels = [f"{c['label']} = {c['labels'][i]}" for c, i in zip(controls, state)]
            if shown["said"] != ", ".join(labels):
                problems.append(f"{pl['name']} {what}: the caption says {shown['said']!r}")
            return frame["sha"]

        before = check("at the start")
        for n, c in enumerate(controls):
            if len(c["labels"]) < 2:
                continue
            order = list(range(c["default"] + 1, len(c["labels"]))) + list(range(c["default"] - 1, -1, -1))
            for i in order + [c["default"]]:
                _move(pg, root, c, i, state[n])
                state[n] = i
                now = check(f"{c['name']} -> {c['labels'][i]}")
                if now is not None and before is not None and now == before:
                    problems.append(f"{pl['name']}: moving {c['name']} to {c['labels'][i]} did not change the frame")
                before = now
    ctx.close()
    assert not blocked, f"{page}: requests that leave the build folder: {blocked[:5]}"
    assert not errors, f"{page}: console errors {errors[:5]}"
    assert not problems, f"{page}:\n" + "\n".join(problems[:20])


_CONTRAST = """() => {
  const rgb = c => c.match(/[\\d.]+/g).map(Number);
  const lin = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
  const lum = c => { const [r, g, b] = rgb(c); return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b); };
  const ground = e => { for (; e; e = e.parentElement) { const c = getComputedStyle(e).backgroundColor;
                          if (rgb(c).length < 4 || rgb(c)[3] > 0.5) return c; } return 'rgb(255, 255, 255)'; };
  const out = [];
  const measure = (name, e) => {
    const a = lum(getComputedStyle(e).color), b = lum(ground(e));
    out.push([name + ' ' + (e.className || e.tagName), (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)]);
  };
  for (const root of document.querySelectorAll('.l1lab-player')) {
    for (const e of root.querySelectorAll('label, select, output, .l1lab-player-setting, .l1lab-player-note')) {
      measure(root.dataset.l1labPlayer, e);
    }
  }
  // the questions: title, prompts, labels and choices, links, code, text fields, buttons and feedback
  for (const root of document.querySelectorAll('.l1lab-quiz')) {
    for (const e of root.querySelectorAll('.l1lab-quiz-title, .l1lab-quiz-prompt, label, a, code, ' +
                                          'input[type=text], button, .l1lab-quiz-feedback')) {
      measure('quiz ' + root.dataset.l1labQuiz, e);
    }
  }
  return {theme: document.documentElement.dataset.theme, ratios: out,
          quizzes: document.querySelectorAll('.l1lab-quiz').length};
}"""


def _contrast_pages():
    """A page with players and questions, or else the first page with players and the first with questions."""
    both = [p for p in PLAYER_PAGES if p in QUIZ_PAGES]
    return both[:1] or list(dict.fromkeys(PLAYER_PAGES[:1] + QUIZ_PAGES[:1]))


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_players_are_readable_in_both_colour_modes(browser, scheme):
    """The controls' labels, list boxes, readouts, caption and note of the players, and the title, prompts,
    choices, links, text fields, buttons and feedback of the questions, have a text contrast of at least 4.5:1
    (WCAG AA) on the ground they are drawn on, in the light and the dark colour mode of the theme."""
    ratios, quizzes = [], 0
    for page in _contrast_pages():
        ctx = browser.new_context(color_scheme=scheme, viewport={"width": 1280, "height": 1200})
        pg = ctx.new_page()
        pg.route("**/*", lambda r: r.continue_() if r.request.url.startswith(("data:", "file://")) else r.abort())
        pg.goto((HTML / f"{page}.html").as_uri(), wait_until="load", timeout=120_000)
        state = pg.evaluate(_CONTRAST)
        ctx.close()
        assert state["theme"] == scheme, f"{page}: the theme is in {state['theme']} mode"
        ratios += [(f"{page}: {what}", r) for what, r in state["ratios"]]
        quizzes += state["quizzes"]
    assert quizzes, "no questions measured"
    low = [(what, round(r, 2)) for what, r in ratios if r < 4.5]
    assert ratios and not low, f"{scheme} mode: text below 4.5:1 contrast: {low[:5]}"
