r"""Questions in the page that answer back: numeric answers with a tolerance, multiple choice whose wrong choices
explain themselves, and "predict, then move the player" items, working in the HTML book with no kernel and no
network, and in a notebook (Jupyter, Colab) the same way.

A lecture's code computes a value, glues it for the prose and hands the *same* value to a :class:`Numeric`
question (``source=`` the glue key), so an answer cannot drift from what the page states; the reader's check of
the book compares them.  :func:`show` renders a group of questions as one HTML block: native form controls (text
fields, radio buttons, buttons) reachable from the keyboard, feedback in a live region that screen readers
announce, element ids made from the lecture's and the questions' names (the same page from the same source: the
execution cache and the HTML tests rely on it), a light card readable in both colour modes, and one small
self-contained script (:data:`QUIZ_JS`; a second copy on a page does nothing).

Why not a quiz library: jupyterquiz (the closest fit) draws random element ids in Python and in JavaScript and
shuffles its answers at random, so the same source gives a different page each build, and its choices are not
form controls reachable from the keyboard.
"""
from __future__ import annotations

import html
import json
import math
import re
from dataclasses import dataclass, field
from typing import Sequence

__all__ = ["QUIZ_CSS", "QUIZ_JS", "Choice", "Numeric", "Quiz", "show"]

_NAME = re.compile(r"[a-z0-9][a-z0-9_-]*")


#: a MyST link to a page, ``{doc}`text <target>``` or ``{doc}`target``` (after escaping: ``&lt;target&gt;``)
_DOC = re.compile(r"\{doc\}`(?:([^`]*?)\s*&lt;([^`]+?)&gt;|([^`]+))`")


def _doc_link(m) -> str:
    text, target = (m.group(1), m.group(2)) if m.group(2) else (None, m.group(3))
    target = target.strip()
    if target.startswith("/") or not re.fullmatch(r"[\w./-]+", target):
        raise ValueError(f"a question's {{doc}} link takes a page's path relative to its own page: {target!r}")
    return f'<a href="{target}.html">{text or target}</a>'


def _math(text: str) -> str:
    """Markdown-ish text to HTML: escaped, ``$...$`` to MathJax's inline delimiters, `code`, *emphasis* and
    ``{doc}`text <page>``` links.  A question is the HTML output of a code cell, where MyST does not resolve roles:
    a link's target is the page's path relative to the page of the question (as in the prose of that page), and
    it points at that page's HTML file, as the built book lays them out."""
    out = html.escape(text, quote=False)
    out = _DOC.sub(_doc_link, out)
    out = re.sub(r"\$\$(.+?)\$\$", r"\\[\1\\]", out, flags=re.S)
    out = re.sub(r"(?<!\\)\$(.+?)(?<!\\)\$", r"\\(\1\\)", out)
    out = re.sub(r"`([^`]+)`", r"<code>\1</code>", out)
    out = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", out)
    out = re.sub(r"(?<![\w*])\*([^*\s][^*]*)\*(?![\w*])", r"<em>\1</em>", out)
    return out


def _check_objective(q) -> None:
    """``q.objective`` as a tuple of the objectives' places (from 1), or None; anything else is refused."""
    obj = q.objective
    if obj is None:
        return
    objs = (obj,) if isinstance(obj, int) else tuple(obj)
    if not objs or any(isinstance(o, bool) or not isinstance(o, int) or o < 1 for o in objs):
        raise ValueError(f"{q.name}: objective= takes the places (1, 2, ...) of the lecture's objectives, "
                         f"got {obj!r}")
    object.__setattr__(q, "objective", objs)


@dataclass(frozen=True)
class Numeric:
    """A number to compute or predict.  ``answer``: the computed value (glued as ``source`` when the prose
    states it); right when ``|x - answer| <= atol + rtol |answer|``.  ``explanation``: shown with either verdict.
    ``player``: the name of the static player this item asks the reader to move (a "predict, then move" item).
    ``objective``: the learning objective(s) of the lecture the question checks, by their place (from 1) in the
    lecture's "You will learn" list (the book's test: every objective has a question)."""

    name: str
    prompt: str
    answer: float
    explanation: str
    rtol: float = 0.02
    atol: float = 0.0
    source: str | None = None
    unit: str = ""
    player: str | None = None
    objective: int | tuple[int, ...] | None = None

    def __post_init__(self):
        _check_objective(self)
        if not math.isfinite(float(self.answer)):
            raise ValueError(f"{self.name}: the answer must be a finite number, got {self.answer!r}")
        if self.rtol < 0 or self.atol < 0 or (self.rtol == 0 and self.atol == 0 and float(self.answer) != 0):
            raise ValueError(f"{self.name}: give a tolerance (rtol or atol > 0)")

    kind = "numeric"


@dataclass(frozen=True)
class Choice:
    """Multiple choice: ``options`` are ``(text, right, why)``, exactly one right; ``why`` says why that choice is
    right or wrong (a wrong choice explains itself, not only "no").  ``player`` and ``objective`` as for
    :class:`Numeric`."""

    name: str
    prompt: str
    options: Sequence[tuple]
    player: str | None = None
    objective: int | tuple[int, ...] | None = None

    def __post_init__(self):
        _check_objective(self)
        if len(self.options) < 2 or sum(bool(o[1]) for o in self.options) != 1:
            raise ValueError(f"{self.name}: at least two options, exactly one right")
        if any(not str(o[2]).strip() for o in self.options):
            raise ValueError(f"{self.name}: every option says why it is right or wrong")

    kind = "choice"


@dataclass
class Quiz:
    """A group of questions of one lecture, displayed as HTML (:meth:`_repr_html_`)."""

    lecture: str
    title: str
    questions: list = field(default_factory=list)

    def manifest(self) -> dict:
        items = []
        for q in self.questions:
            item = {"name": q.name, "kind": q.kind, "player": q.player}
            if q.kind == "numeric":
                item.update(answer=float(q.answer), rtol=q.rtol, atol=q.atol, source=q.source)
            else:
                item.update(right=[i for i, o in enumerate(q.options) if o[1]][0])
            items.append(item)
        return {"lecture": self.lecture, "questions": items}

    def html(self) -> str:
        parts = []
        for n, q in enumerate(self.questions, 1):
            qid = f"l1lab-quiz-{self.lecture}-{q.name}"
            head = f'<p class="l1lab-quiz-prompt" id="{qid}-prompt"><strong>{n}.</strong> {_math(q.prompt)}'
            if q.player:
                head += (f' <a href="#l1lab-player-{html.escape(q.player)}">Move the player</a> after you have '
                         "answered.")
            head += "</p>"
            if q.kind == "numeric":
                unit = f" {html.escape(q.unit)}" if q.unit else ""
                body = (f'<label for="{qid}-input">Your answer</label> <input type="text" inputmode="decimal" '
                        f'autocomplete="off" id="{qid}-input" aria-describedby="{qid}-prompt" '
                        f'data-answer="{float(q.answer)!r}" data-rtol="{q.rtol!r}" data-atol="{q.atol!r}">{unit}'
                        f' <button type="submit">Check</button>'
                        f'<template class="l1lab-quiz-why">{_math(q.explanation)}</template>')
            else:
                opts = []
                for i, (text, right, why) in enumerate(q.options):
                    opts.append(f'<label class="l1lab-quiz-option"><input type="radio" name="{qid}" value="{i}" '
                                f'data-right="{int(bool(right))}"> {_math(text)}'
                                f'<template class="l1lab-quiz-why">{_math(why)}</template></label>')
                body = (f'<fieldset aria-describedby="{qid}-prompt"><legend class="l1lab-quiz-hidden">Choices'
                        f'</legend>{"".join(opts)}</fieldset><button type="submit">Check</button>')
            parts.append(f'<form class="l1lab-quiz-item" id="{qid}" data-kind="{q.kind}" novalidate>{head}{body}'
                         f'<p class="l1lab-quiz-feedback" role="status" aria-live="polite"></p></form>')
        blob = json.dumps(self.manifest(), separators=(",", ":")).replace("</", "<\\/")
        return (f'<section class="l1lab-quiz mathjax_process" data-l1lab-quiz="{self.lecture}" '
                f'aria-label="{html.escape(self.title)}"><style>{QUIZ_CSS}</style>'
                f'<p class="l1lab-quiz-title">{html.escape(self.title)}</p>'
                f'<script type="application/json" class="l1lab-quiz-data">{blob}</script>'
                + "".join(parts) + f"<script>{QUIZ_JS}</script></section>")

    def _repr_html_(self):
        return self.html()

    def __repr__(self):      # the plain-text output of a notebook: the questions, without their answers
        return f"<quiz {self.title!r}: " + "; ".join(q.prompt for q in self.questions) + ">"


def show(lecture: str, title: str, questions: Sequence) -> Quiz:
    """The questions of ``lecture`` as one quiz block (display it, or let it be a cell's last value).  Names are
    unique on the page: ``lecture`` and each question's ``name`` are lower-case letters, digits, "_" and "-"."""
    if not _NAME.fullmatch(lecture) or not questions:
        raise ValueError("a quiz needs a lecture name of lower-case letters, digits and '-', and questions")
    names = [q.name for q in questions]
    bad = [n for n in names if not _NAME.fullmatch(n)]
    if bad or len(set(names)) != len(names):
        raise ValueError(f"question names must be unique, lower-case letters, digits and '-': {names}")
    return Quiz(lecture, title, list(questions))


QUIZ_CSS = """
.l1lab-quiz{margin:1.2em 0;padding:.7em 1em;border:1px solid #c8cdd3;border-left:4px solid #1f6fb4;border-radius:6px;
  color-scheme:light;color:#1f2328;background:#fff}
.l1lab-quiz-title{font-weight:600;margin:0 0 .4em 0;color:#1f2328}
.l1lab-quiz-item{margin:.6em 0 .9em 0}
.l1lab-quiz-prompt{margin:0 0 .35em 0;color:#1f2328}
.l1lab-quiz a{color:#0b5394;text-decoration:underline}
.l1lab-quiz code{color:#1f2328;background:#eef1f4;border-radius:3px;padding:0 .2em}
.l1lab-quiz input[type=text]{width:9em;color:#1f2328;background:#fff;border:1px solid #6e7781;border-radius:4px;
  padding:.15em .35em;font-variant-numeric:tabular-nums}
.l1lab-quiz button{color:#fff;background:#1f6fb4;border:1px solid #1f6fb4;border-radius:4px;padding:.15em .8em;
  margin-left:.3em;cursor:pointer}
.l1lab-quiz fieldset{border:0;margin:0;padding:0}
.l1lab-quiz-option{display:block;margin:.15em 0;color:#1f2328;font-weight:400}
.l1lab-quiz-option input{accent-color:#1f6fb4;margin-right:.35em}
.l1lab-quiz :focus-visible{outline:2px solid #1f6fb4;outline-offset:2px}
.l1lab-quiz-feedback{margin:.35em 0 0 0;font-size:.95em;color:#1f2328}
.l1lab-quiz-feedback[data-verdict=right]{border-left:3px solid #1a7f37;padding-left:.5em}
.l1lab-quiz-feedback[data-verdict=wrong]{border-left:3px solid #b35900;padding-left:.5em}
.l1lab-quiz-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
"""

#: the questions' script: no external code (but MathJax in Colab, below); each quiz block wires its own forms
#: once (``data-ready`` marks a wired block, so a second copy of the script does nothing).  Where
#: ``document.currentScript`` is null (the classic Jupyter notebook runs an output's scripts through jQuery), the
#: script wires every block not yet marked; and a listener on
#: the document (installed once) keeps the submit of any block it has not wired yet from sending the form and leaving
#: the page: Enter in a text field, or the Check button, never navigates.  Its one load from outside, and only in
#: Colab: Colab shows each output in a frame of its own without MathJax (where the book and Jupyter typeset the
#: questions' formulas), so in a frame that has Colab's ``google.colab`` and no MathJax the script loads MathJax
#: from a CDN (Colab runs online), once per frame, to typeset the block and its feedback
QUIZ_JS = r"""
(function(script){
  var MATHJAX_CDN="https://cdn.jsdelivr.net/npm/mathjax@3/es5/tex-chtml.js";
  function num(s){s=String(s).trim().replace(/\u2212/g,"-").replace(/\s/g,"").replace(/\u00d7\s*10\^?/,"e")
    .replace(/,/g,".");if(!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?%?$/i.test(s))return NaN;
    var pct=s.slice(-1)==="%";var v=parseFloat(pct?s.slice(0,-1):s);return pct?v/100:v;}
  function say(fb,right,text,why){fb.dataset.verdict=right?"right":"wrong";fb.innerHTML="";
    var b=document.createElement("strong");b.textContent=text;fb.appendChild(b);
    if(why){var s=document.createElement("span");s.innerHTML=" "+why;fb.appendChild(s);}
    if(window.MathJax&&MathJax.typesetPromise)MathJax.typesetPromise([fb]).catch(function(){});}
  function check(form){
    var fb=form.querySelector(".l1lab-quiz-feedback");
    if(form.dataset.kind==="numeric"){
      var inp=form.querySelector("input"),x=num(inp.value),a=parseFloat(inp.dataset.answer),
          tol=parseFloat(inp.dataset.atol)+parseFloat(inp.dataset.rtol)*Math.abs(a),
          why=form.querySelector("template.l1lab-quiz-why").innerHTML;
      if(isNaN(x)){say(fb,false,"Type a number (for example 0.25, 2.5e-3 or 40%).","");return;}
      if(Math.abs(x-a)<=tol){say(fb,true,"Right.",why);}
      else{say(fb,false,x>a?"Not quite: too large.":"Not quite: too small.",why);}
    }else{
      var c=form.querySelector("input[type=radio]:checked");
      if(!c){say(fb,false,"Choose one of the answers first.","");return;}
      var why2=c.parentNode.querySelector("template.l1lab-quiz-why").innerHTML;
      say(fb,c.dataset.right==="1",c.dataset.right==="1"?"Right.":"Not this one.",why2);
    }
  }
  function wire(root){
    if(!root||root.dataset.ready)return;root.dataset.ready="1";
    Array.prototype.forEach.call(root.querySelectorAll("form.l1lab-quiz-item"),function(form){
      form.addEventListener("submit",function(ev){ev.preventDefault();check(form);});
    });
  }
  if(!window.l1labQuizGuard){window.l1labQuizGuard=true;
    document.addEventListener("submit",function(ev){
      var form=ev.target,root=form&&form.closest?form.closest(".l1lab-quiz"):null;
      if(!root||!form.matches("form.l1lab-quiz-item"))return;
      ev.preventDefault();
      if(!root.dataset.ready){wire(root);check(form);}
    });
  }
  var own=script&&script.closest?script.closest(".l1lab-quiz"):null;
  if(own){wire(own);}
  else{Array.prototype.forEach.call(document.querySelectorAll(".l1lab-quiz"),wire);}
  if(!window.MathJax&&window.google&&window.google.colab&&!window.l1labQuizMath){window.l1labQuizMath=true;
    window.MathJax={tex:{inlineMath:[["\\(","\\)"]],displayMath:[["\\[","\\]"]]},startup:{typeset:true}};
    var mj=document.createElement("script");mj.src=MATHJAX_CDN;mj.async=true;document.head.appendChild(mj);}
})(document.currentScript);
"""
