"""How much of a built page is code and printed text: the characters of the article's visible code cells and of
their outputs, against its prose (everything else in the article, math included as its TeX source).

Hidden code (a cell tagged ``hide-input``: behind a "Show code" button) and scripts are not counted; a collapsed
dropdown of prose (an answer, a solution) is prose, and so are a figure's caption and the questions in the page
(``l1lab-quiz``), although a code cell outputs them.  Runs of white space count as one character.
"""
from __future__ import annotations

import re
from html.parser import HTMLParser

_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track",
         "wbr"}


class _Share(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []          # (tag, role) with role in {None, "article", "code", "output", "prose", "skip"}
        self.counts = {"prose": [], "code": [], "printed": []}

    def _role(self, tag, attrs):
        cls = dict(attrs).get("class") or ""
        if tag == "article" and "bd-article" in cls:
            return "article"
        if tag in ("script", "style", "noscript", "template") or "headerlink" in cls:
            return "skip"
        if tag == "details" and re.search(r"\bhide\b", cls):
            return "skip"   # a hidden code input, behind its "Show code cell" button
        if tag == "figcaption" or re.search(r"\bl1lab-quiz\b", cls):      # the questions: a <section>
            return "prose"
        if tag == "div" and "cell_input" in cls:
            return "code"
        if tag == "div" and "cell_output" in cls:
            return "output"
        return None

    def handle_starttag(self, tag, attrs):
        if tag in _VOID:
            return
        self.stack.append((tag, self._role(tag, attrs)))

    def handle_endtag(self, tag):
        for k in range(len(self.stack) - 1, -1, -1):
            if self.stack[k][0] == tag:
                del self.stack[k:]
                return

    def handle_data(self, data):
        roles = [r for _, r in self.stack if r]
        if "article" not in roles or "skip" in roles:
            return
        inner = next((r for r in reversed(roles) if r in ("code", "output", "prose")), None)
        kind = "code" if inner == "code" else "printed" if inner == "output" else "prose"
        self.counts[kind].append(data)


def page_code_share(html: str) -> tuple[int, int, int]:
    """(prose, code, printed) characters of the article of a built page."""
    p = _Share()
    p.feed(html)

    def size(parts):
        return len(re.sub(r"\s+", " ", " ".join(parts)).strip())

    return size(p.counts["prose"]), size(p.counts["code"]), size(p.counts["printed"])


def share(html: str) -> float:
    prose, code, printed = page_code_share(html)
    return (code + printed) / max(prose + code + printed, 1)
