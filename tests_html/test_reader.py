"""The built book as a reader sees it: every page of the table of contents opened in headless Chromium.

Fails on a console error or an uncaught exception, on unrendered or broken math (MathJax error nodes, TeX left
as text), on a request that leaves the build folder (the book must read offline), on an image that does not
load, on an internal link to a missing page or anchor, on a widget demo without a static player, and on a
chapter page without working Binder and Colab launch links.  A screenshot of the top of every page is written to
``_build/screenshots/`` for a human to look at.
"""
import json
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import code_share
import pytest
import yaml
from conftest import HTML, ROOT, toc_files

PAGES = toc_files()


def source_of(page):
    for ext in (".ipynb", ".md"):
        if (ROOT / f"{page}{ext}").exists():
            return ROOT / f"{page}{ext}"
    raise FileNotFoundError(page)


# ---------------------------------------------------------------------------------------------- in the browser
def _in_build(url):
    path = Path(unquote(urlsplit(url).path)).resolve()
    return path == HTML.resolve() or HTML.resolve() in path.parents


_PAGE_STATE = """async () => {
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) { await MathJax.startup.promise; }
  const art = document.querySelector('article') || document.body;
  const mathSpans = Array.from(art.querySelectorAll('.math'));
  const unrendered = mathSpans.filter(s => !s.querySelector('mjx-container')).map(s => s.textContent.slice(0, 80));
  const errors = Array.from(art.querySelectorAll('mjx-merror')).map(e => e.textContent.slice(0, 80));
  // TeX delimiters left in prose (outside code, math and raw outputs)
  const walker = document.createTreeWalker(art, NodeFilter.SHOW_TEXT);
  const leftovers = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const p = n.parentElement;
    if (p.closest('pre, code, .math, mjx-container, script, style, .output, .cell_output')) continue;
    const t = n.textContent;
    if (/\\$[^$\\s][^$]*\\$|\\\\\\(|\\\\\\[|\\\\(frac|sum|mathbb|left|right)\\b/.test(t)) {
      leftovers.push(t.trim().slice(0, 80));
    }
  }
  const images = Array.from(document.images).map(i => ({src: i.currentSrc || i.src,
                                                        ok: i.complete && i.naturalWidth > 0,
                                                        lazy: i.loading === 'lazy'}));
  // dropdowns (answers, solutions, the papers' slips) start closed: sphinx-togglebutton hid their body
  const openDropdowns = Array.from(art.querySelectorAll('.admonition.dropdown'))
    .filter(e => !e.classList.contains('toggle-hidden'))
    .map(e => (e.querySelector('.admonition-title') || e).textContent.trim().slice(0, 60));
  return {nMath: mathSpans.length, unrendered, errors, leftovers, images, openDropdowns};
}"""


@pytest.mark.parametrize("page", PAGES)
def test_page_renders(page, browser, built_pages):
    path = HTML / f"{page}.html"
    assert path.exists(), f"{page} is in _toc.yml but was not built"
    ctx = browser.new_context(viewport={"width": 1280, "height": 1600})
    pg = ctx.new_page()
    console_errors, page_errors, blocked = [], [], []

    def route(r):
        url = r.request.url
        if url.startswith(("data:", "blob:")) or (url.startswith("file://") and _in_build(url)):
            return r.continue_()
        blocked.append(url)                # the network, or a file outside the build folder
        return r.abort()

    pg.route("**/*", route)
    pg.on("console", lambda msg: console_errors.append(msg.text) if msg.type == "error" else None)
    pg.on("pageerror", lambda exc: page_errors.append(str(exc)))
    pg.goto(path.as_uri(), wait_until="load", timeout=120_000)
    state = pg.evaluate(_PAGE_STATE)
    shots = ROOT / "_build" / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    pg.screenshot(path=str(shots / f"{page.replace('/', '__')}.png"))
    ctx.close()

    assert not blocked, f"{page}: requests that leave the build folder (the book must read offline): {blocked[:5]}"
    real = console_errors
    assert not page_errors, f"{page}: uncaught exceptions {page_errors[:5]}"
    assert not real, f"{page}: console errors {real[:5]}"
    assert not state["errors"], f"{page}: MathJax errors in {state['errors'][:5]}"
    assert not state["unrendered"], f"{page}: math not rendered: {state['unrendered'][:5]}"
    assert not state["leftovers"], f"{page}: TeX left as text: {state['leftovers'][:5]}"
    broken = []
    for im in state["images"]:
        if im["ok"]:
            continue
        parts = urlsplit(im["src"])
        if im["lazy"] and parts.scheme == "file" and Path(unquote(parts.path)).is_file():
            continue                       # below the fold, not loaded yet, but the file is there
        broken.append(im["src"][:120])
    assert not broken, f"{page}: images that do not load: {broken[:5]}"
    assert not state["openDropdowns"], f"{page}: dropdowns that do not start closed: {state['openDropdowns'][:5]}"


# ---------------------------------------------------------------------------------------------- static checks
class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.hrefs, self.ids = [], set()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"])
        if tag == "a" and a.get("href"):
            self.hrefs.append(a["href"])


def _parse(path, cache={}):
    if path not in cache:
        p = _Links()
        p.feed(path.read_text(encoding="utf-8", errors="replace"))
        cache[path] = p
    return cache[path]


def test_internal_links(built_pages):
    broken = []
    for page in built_pages:
        for href in _parse(page).hrefs:
            parts = urlsplit(href)
            if parts.scheme or href.startswith(("mailto:", "javascript:")):
                continue
            target = page if not parts.path else (page.parent / unquote(parts.path)).resolve()
            if target.is_dir():
                target = target / "index.html"
            if not target.exists():
                broken.append(f"{page.relative_to(HTML)} -> {href} (no such file)")
                continue
            frag = unquote(parts.fragment)
            if frag and target.suffix == ".html" and frag not in _parse(target).ids:
                broken.append(f"{page.relative_to(HTML)} -> {href} (no anchor '{frag}')")
    assert not broken, "broken internal links:\n" + "\n".join(broken[:30])


def test_widget_demos_have_static_players(built_pages):
    """Every live widget (a call of ``*_demo(``) is hidden from the HTML (tagged remove-output: the page has no
    kernel), and a visible cell of the same notebook shows its static player (``*_player(`` of the same demo),
    which the page holds (``tests_html/test_players.py`` moves its controls)."""
    problems = []
    for page in PAGES:
        src = source_of(page)
        if src.suffix != ".ipynb":
            continue
        cells = [c for c in json.loads(src.read_text())["cells"] if c["cell_type"] == "code"]
        text = ["".join(c["source"]) for c in cells]
        tags = [set(c.get("metadata", {}).get("tags", [])) for c in cells]
        html = (HTML / f"{page}.html").read_text(encoding="utf-8")
        players = 0
        for k, code in enumerate(text):
            for name in re.findall(r"(\w+)_demo\(", code):
                if not tags[k] & {"remove-output", "remove-cell"}:
                    problems.append(f"{page}: the widget {name}_demo is not hidden from the static page")
                shown = [j for j, t in enumerate(text) if re.search(rf"\b{name}_player\(", t)
                         and not tags[j] & {"remove-output", "remove-cell"}]
                if not shown:
                    problems.append(f"{page}: the widget {name}_demo has no static player ({name}_player cell)")
                players += bool(shown)
        if html.count("data-l1lab-player=") < players:
            problems.append(f"{page}: {players} widget demos but {html.count('data-l1lab-player=')} players")
    assert not problems, "\n".join(problems)


#: the lecture pages not yet rewritten to the arc of CONTRIBUTING.md ("Add a lecture"); each still prints more
#: code and text than a quarter of its page.  The test fails when one of them meets the target (strict xfail):
#: then it leaves this set.
NOT_YET_LECTURES: set = set()
#: code and printed text at most this share of a lecture page's text (tests_html/code_share.py measures it)
CODE_SHARE = 0.25


def test_code_share_counts_the_questions_as_prose():
    """The questions in the page are a code cell's output but read as prose, whatever element holds them (the
    quiz block is a <section>); a printed table next to them stays printed text."""
    from l1lab.book.quiz import Numeric, show
    quiz = show("x", "Check yourself", [Numeric("n", "How much is one half?", 0.5, "Halve one.")]).html()
    html = ('<article class="bd-article"><p>Some prose.</p><div class="cell_output">' + quiz + "</div>"
            '<div class="cell_output"><pre>a printed table</pre></div></article>')
    prose, code, printed = code_share.page_code_share(html)
    assert code == 0 and printed == len("a printed table") and prose > len("Some prose. How much is one half?")


@pytest.mark.parametrize("page", [p for p in PAGES if p.startswith("chapters/")])
def test_code_share(page, built_pages, request):
    """Code and printed text are at most a quarter of each lecture page's text: the page teaches in prose,
    figures and its one short lesson cell, with plotting, tables and listings out of the reading path."""
    if page in NOT_YET_LECTURES:
        request.applymarker(pytest.mark.xfail(strict=True, reason="not yet rewritten as a lecture"))
    share = code_share.share((HTML / f"{page}.html").read_text(encoding="utf-8"))
    assert share <= CODE_SHARE, f"{page}: code and printed text are {100 * share:.0f}% of the page's text"


class _LinkTexts(HTMLParser):
    """The text of every internal link of a page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.texts, self._in = [], None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "a" and "reference internal" in (a.get("class") or ""):
            self._in = [a.get("href", ""), ""]

    def handle_endtag(self, tag):
        if tag == "a" and self._in is not None:
            self.texts.append(tuple(self._in))
            self._in = None

    def handle_data(self, data):
        if self._in is not None:
            self._in[1] += data


_KINDS = ("Theorem", "Lemma", "Corollary", "Proposition", "Algorithm", "Definition", "Remark", "Example",
          "Assumption", "Conjecture", "Property", "Observation", "Criterion", "Axiom", "Exercise")


def test_no_reference_is_a_bare_kind(built_pages):
    """A reference to a paper's result (an unnumbered box) must say which one: a link whose whole text is
    "Theorem" (what a bare {prf:ref} of an unnumbered box renders) names nothing."""
    bare = []
    for page in built_pages:
        p = _LinkTexts()
        p.feed(page.read_text(encoding="utf-8", errors="replace"))
        bare += [f"{page.relative_to(HTML)} -> {href}" for href, text in p.texts if text.strip() in _KINDS]
    assert not bare, "references that only say a kind ('Theorem'):\n" + "\n".join(bare[:30])


def test_launch_links(built_pages):
    """Chapter pages built from notebooks carry Binder and Colab buttons whose URLs point at this repository's
    notebook for that page (the file exists at that path in the repository), and the Live Code (Thebe) button
    when _config.yml enables it."""
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    repo = urlsplit(config["repository"]["url"]).path.strip("/")
    branch = config["repository"].get("branch", "main")
    missing = []
    for page in PAGES:
        if source_of(page).suffix != ".ipynb":
            continue
        html = (HTML / f"{page}.html").read_text(encoding="utf-8")
        binder = f"https://mybinder.org/v2/gh/{repo}/{branch}?urlpath=tree/{page}.ipynb"
        colab = f"https://colab.research.google.com/github/{repo}/blob/{branch}/{page}.ipynb"
        for name, url in (("Binder", binder), ("Colab", colab)):
            if url not in html.replace("&amp;", "&"):
                missing.append(f"{page}: no {name} link {url}")
        if config["launch_buttons"].get("thebe") and "initThebeSBT()" not in html:
            missing.append(f"{page}: no Live Code (Thebe) button")
    assert not missing, "\n".join(missing)


class _Article(HTMLParser):
    """The visible text of a page's article and its content images (src, alt, inside a captioned figure)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.text, self.images, self._stack, self._figures = [], [], [], []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = a.get("class") or ""
        if tag == "article" and "bd-article" in cls:
            self._stack.append("article")
        elif tag in ("script", "style", "template", "noscript"):
            self._stack.append("skip")
        elif tag == "figure":
            self._figures.append({"caption": ""})
        if tag == "img" and "article" in self._stack:
            self.images.append({"src": a.get("src", ""), "alt": a.get("alt") or "",
                                "figure": self._figures[-1] if self._figures else None})
        if tag == "figcaption" and self._figures:
            self._stack.append("caption")

    def handle_endtag(self, tag):
        if tag == "figure" and self._figures:
            self._figures.pop()
        want = {"article": "article", "script": "skip", "style": "skip", "template": "skip", "noscript": "skip",
                "figcaption": "caption"}.get(tag)
        if want and want in self._stack:
            k = len(self._stack) - 1 - self._stack[::-1].index(want)
            del self._stack[k:]

    def handle_data(self, data):
        if "article" in self._stack and "skip" not in self._stack:
            self.text.append(data)
            if "caption" in self._stack and self._figures:
                self._figures[-1]["caption"] += data


def _article(page):
    p = _Article()
    p.feed((HTML / f"{page}.html").read_text(encoding="utf-8"))
    return p


#: what must never reach a page: a path of the build machine or of a cache, raw exception text, or a figure's text
#: form in place of its image (the documented default cache directory, ~/.cache/l1lab, is not the machine's)
_MACHINE_TEXT = re.compile(r"/work/|/home/|/tmp/|/root/|site-packages|(?<!~/)\.cache/|jupyter_cache|"
                           r"Traceback \(most recent call last\)|\[Errno -?\d+\]|URLError|HTTPError|"
                           r"ConnectionRefused|Max retries exceeded|"
                           # an exception's text, or a figure shown as its repr instead of its image
                           r"\b[A-Z]\w*(?:Error|Exception)\b: |<Figure size \d|<figure by ")


@pytest.mark.parametrize("page", PAGES)
def test_no_build_machine_text(page, built_pages):
    """No page shows the build machine's paths, a cache path or raw exception text (where data are a stand-in,
    a sentence of the page says so)."""
    text = " ".join(_article(page).text)
    found = sorted({m.group(0) for m in _MACHINE_TEXT.finditer(text)})
    assert not found, f"{page}: {found}"


_PATH_LIKE = re.compile(r"(^|/)[^ ]+\.(png|jpe?g|svg|gif)$|^\.\./|_images/", re.I)


@pytest.mark.parametrize("page", [p for p in PAGES if p.startswith("chapters/")])
def test_figures_have_captions_and_alt_text(page, built_pages):
    """Every figure a lecture draws has a numbered caption and an alt text that says what it shows, not the
    image's file path."""
    images = [im for im in _article(page).images if "_images/" in im["src"]]
    path_alt = [im["src"].rsplit("/", 1)[-1] for im in images if not im["alt"].strip() or _PATH_LIKE.search(im["alt"])]
    uncaptioned = [im["src"].rsplit("/", 1)[-1] for im in images
                   if im["figure"] is None or not re.match(r"\s*Fig\. \d+(\.\d+)*", im["figure"]["caption"])]
    assert not path_alt, f"{page}: images whose alt text is empty or a file path: {path_alt[:5]}"
    assert not uncaptioned, f"{page}: images without a numbered caption: {uncaptioned[:5]}"
