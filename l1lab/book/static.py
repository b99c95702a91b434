r"""Static players: a live demo's controls, precomputed over a grid, working in a page without a kernel.

Most readers open the HTML book and never start a kernel.  :func:`static_player` turns a live demo (the
ipywidgets box a ``*_demo()`` function returns, see :func:`l1lab.book.controls.wire`) into a static interactive
figure:

* the **controls are read from the live widget** itself: the same labels, the same defaults, the same kinds (a
  slider stays a slider, snapping to the grid's positions; a dropdown or toggle buttons become a list box; a
  checkbox stays a checkbox), so the two cannot drift apart;
* the **frames are drawn by the widget's own figure function** (its :class:`l1lab.book.live.LiveFigure`), over
  the grid: every option of every cheap control (a control with at most :data:`MAX_OPTIONS` positions) and the
  representative values the chapter chooses for the costly ones (``grid=``), so a demo is never written twice;
* each frame is a PNG with an alternative text (the setting and the figure's titles, where the demos print their
  main numbers) and a SHA-256 content hash, all in one JSON manifest; a small self-contained script (no
  external code, :data:`PLAYER_JS`) swaps the frame when a control moves.

In a notebook the frames are embedded as data URIs, so the output works in Jupyter as it is.  When the book is
built, the Sphinx extension ``_ext/static_players.py`` moves every frame to a file of its own
(``_players/<hash>.png`` beside the pages, shared by every page that shows it) and the page loads them lazily:
the first frame when the player scrolls into view, the others when the reader comes near it (all of them,
so that a move only swaps an image that is already decoded).  It works when the HTML is opened from disk.

In a live notebook (Colab, Binder, JupyterLab) the live demo next to each player is the same demo with every
setting, so the player's frames are not drawn there: in an IPython kernel without ``$L1LAB_DRAW_PLAYERS=1`` (the
book's build sets it, ``_ext/build_book.py``), :func:`static_player` checks the grid and returns a player without
frames, which says where the live demo is (:func:`draws_frames`).  Outside a kernel (a script, the tests) it draws.
"""
from __future__ import annotations

import hashlib
import html
import io
import itertools
import json
import math
import os
import re
from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

from .style import EXCEPTION_TEXT, figure_texts, style_problems

__all__ = ["DRAW_PLAYERS", "MAX_OPTIONS", "PLAYER_JS", "ControlSpec", "StaticPlayer", "control_spec", "draws_frames",
           "encode_frame", "frame_text", "plan", "static_player"]

#: a control with at most this many positions is "cheap": the player offers all of them
MAX_OPTIONS = 12
#: the most frames one player may have (a guard against a grid that would take minutes to draw)
MAX_FRAMES = 200
#: the environment variable that makes a kernel draw the players' frames (the book's build sets it to "1")
DRAW_PLAYERS = "L1LAB_DRAW_PLAYERS"


def _in_kernel() -> bool:
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None


def draws_frames() -> bool:
    """Whether :func:`static_player` draws its frames here: outside an IPython kernel, or in one with
    ``$L1LAB_DRAW_PLAYERS`` set to "1" (the book's build); not in a live notebook, whose live demo is the same demo
    with every setting (drawing a player there would only delay the notebook's run by its frames)."""
    if os.environ.get(DRAW_PLAYERS, "").strip() == "1":
        return True
    return not _in_kernel()


@dataclass(frozen=True)
class ControlSpec:
    """One control of a static player, as read from the live widget.

    ``kind`` is ``"range"`` (a slider over the offered positions), ``"select"`` (a list box) or ``"checkbox"``;
    ``values`` are the Python values the figure function receives, ``labels`` what the control shows for them,
    ``default`` the index of the live widget's starting value, ``options`` the number of positions the live
    widget has, ``listed`` whether the offered values were chosen by the chapter (a costly control) rather than
    all of them."""

    name: str
    label: str
    kind: str
    values: tuple
    labels: tuple
    default: int
    options: int = 0
    listed: bool = False

    def as_json(self):
        return {"name": self.name, "label": self.label, "kind": self.kind, "labels": list(self.labels),
                "default": self.default, "options": self.options, "listed": self.listed}


def _format(value, fmt):
    fmt = fmt or ".3g"
    try:
        return format(value, fmt)
    except (TypeError, ValueError):
        return str(value)


def _widget_positions(ctrl):
    """(values, labels, kind) of every position the live control offers (None for a range slider, whose
    positions are pairs)."""
    import ipywidgets as w

    if isinstance(ctrl, (w.Dropdown, w.ToggleButtons, w.RadioButtons, w.Select)):
        return list(ctrl._options_values), [str(lb) for lb in ctrl._options_labels], "select"
    if isinstance(ctrl, w.SelectionSlider):
        return list(ctrl._options_values), [str(lb) for lb in ctrl._options_labels], "range"
    if isinstance(ctrl, w.Checkbox):
        return [False, True], ["off", "on"], "checkbox"
    if isinstance(ctrl, w.FloatLogSlider):
        exps = _steps(ctrl.min, ctrl.max, ctrl.step)
        values = [float(ctrl.base ** e) for e in exps]
        return values, [_format(v, ctrl.readout_format) for v in values], "range"
    if isinstance(ctrl, w.IntRangeSlider):
        return None, None, "select"
    if isinstance(ctrl, w.IntSlider):
        values = list(range(ctrl.min, ctrl.max + 1, ctrl.step))
        return values, [str(v) for v in values], "range"
    if isinstance(ctrl, w.FloatSlider):
        digits = max(0, -math.floor(math.log10(ctrl.step)) + 2)
        values = [round(x, digits) for x in _steps(ctrl.min, ctrl.max, ctrl.step)]
        return values, [_format(v, ctrl.readout_format) for v in values], "range"
    raise TypeError(f"a static player cannot offer a {type(ctrl).__name__} control")


def _steps(lo, hi, step):
    """The positions of a float slider: lo + k step up to hi (never past it), and hi itself, which the slider
    reaches although it may lie between two steps."""
    n = math.floor((hi - lo) / step + 1e-9)
    out = [lo + k * step for k in range(n + 1)]
    if hi - out[-1] > 1e-9 * max(1.0, abs(hi)):
        out.append(hi)
    return out


def _same(a, b):
    """Whether a listed value is the position ``b`` of a widget (to 1e-6: the chapter may write 3e-4 * 10 ** 2.5
    where the slider computes 10 ** (log10(3e-4) + 10 * 0.25))."""
    if isinstance(a, float) or isinstance(b, float):
        try:
            return math.isclose(float(a), float(b), rel_tol=1e-6, abs_tol=1e-12)
        except (TypeError, ValueError):
            return False
    return a == b


def control_spec(name, ctrl, offered=None) -> ControlSpec:
    """The :class:`ControlSpec` of the live control ``ctrl``: every position it offers, or the positions
    ``offered`` (each must be one of the widget's own positions, and its starting value must be among them)."""
    values, labels, kind = _widget_positions(ctrl)
    label = ctrl.description or name
    if values is None:   # a range slider: the chapter lists the ranges it offers
        if offered is None:
            raise ValueError(f"{name}: a range slider has too many positions; give the ranges to offer in grid=")
        pairs = [tuple(int(x) for x in p) for p in offered]
        for p in pairs:
            if not (ctrl.min <= p[0] <= p[1] <= ctrl.max):
                raise ValueError(f"{name}: the range {p} is not within the widget's [{ctrl.min}, {ctrl.max}]")
        start = tuple(ctrl.value)
        if start not in pairs:
            raise ValueError(f"{name}: the live widget starts at {start}, which grid= does not offer")
        n = (ctrl.max - ctrl.min + 1) * (ctrl.max - ctrl.min + 2) // 2
        return ControlSpec(name, label, kind, tuple(pairs), tuple(f"{a}–{b}" for a, b in pairs),
                           pairs.index(start), n, True)
    at_start = [i for i, x in enumerate(values) if _same(x, ctrl.value)]
    if at_start:                     # the start exactly as the live widget passes it (the data caches' key)
        values[at_start[0]] = ctrl.value
    else:
        # a slider may start off its steps (the live widget keeps the value until it is moved): one more position
        at = sum(1 for x in values if x < ctrl.value)
        values.insert(at, ctrl.value)
        labels.insert(at, _format(ctrl.value, getattr(ctrl, "readout_format", None)) if isinstance(ctrl.value, float)
                      else str(ctrl.value))
    if offered is None:
        if len(values) > MAX_OPTIONS:
            raise ValueError(f"{name} has {len(values)} positions: list the representative values the static "
                             f"player offers in grid= (at most {MAX_OPTIONS} are offered without one)")
        chosen = list(range(len(values)))
    else:
        chosen = []
        for v in offered:
            hits = [i for i, x in enumerate(values) if _same(x, v)]
            if not hits:
                raise ValueError(f"{name}={v!r} is not a position of the live widget ({labels[0]} … {labels[-1]})")
            if hits[0] in chosen:
                raise ValueError(f"{name}={v!r} is offered twice")
            chosen.append(hits[0])
        chosen.sort()
    start = [i for i in chosen if _same(values[i], ctrl.value)]
    if not start:
        raise ValueError(f"{name}: the live widget starts at {ctrl.value!r}, which grid= does not offer")
    return ControlSpec(name, label, kind, tuple(values[i] for i in chosen), tuple(labels[i] for i in chosen),
                       chosen.index(start[0]), len(values), offered is not None)


_MATH = [(r"\|", "‖"), (r"\star", "*"), (r"\lambda", "λ"), (r"\eta", "η"), (r"\sigma", "σ"), (r"\theta", "θ"),
         (r"\Psi", "Ψ"), (r"\varepsilon", "ε"), (r"\epsilon", "ε"), (r"\delta", "δ"), (r"\beta", "β"),
         (r"\ell", "ℓ"), (r"\max", "max"), (r"\min", "min"), (r"\log", "log"), (r"\left", ""), (r"\right", ""),
         (r"\le", "≤"), (r"\ge", "≥"), (r"\cdot", "·"), (r"\,", " "), (r"\;", " "), (r"\ ", " ")]


def frame_text(fig) -> str:
    """The texts of ``fig`` a reader needs without the image: the suptitle and each axes' title, where the demos
    print the main numbers of the frame (mathtext turned into plain characters)."""
    texts = []
    sup = getattr(fig, "_suptitle", None)
    if sup is not None and sup.get_text():
        texts.append(sup.get_text())
    for ax in fig.axes:
        for loc in ("left", "center", "right"):
            t = ax.get_title(loc)
            if t:
                texts.append(t)
    out = []
    for t in texts:
        for a, b in _MATH:
            t = t.replace(a, b)
        t = re.sub(r"\\[a-zA-Z]+", "", t).replace("$", "").replace("{", "").replace("}", "")
        out.append(" ".join(t.split()))
    return "; ".join(out)


def encode_frame(png: bytes) -> bytes:
    """A frame as the player ships it: the PNG reduced to a 256-colour palette without dithering (the book's
    figures are flat colours and anti-aliased lines, which a palette keeps; the file is about four times
    smaller, and the fast octree quantizer costs a few milliseconds, next to a quarter of a second for the draw)."""
    from PIL import Image

    img = Image.open(io.BytesIO(png)).convert("RGB")
    pal = img.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    buf = io.BytesIO()
    pal.save(buf, format="png", compress_level=9)
    return buf.getvalue()


@dataclass(repr=False)
class StaticPlayer:
    """A demo precomputed over its grid.  ``frames`` maps a setting (a tuple of indices into each control's
    ``values``) to ``{"png": bytes or None, "html": str or None, "sha": hex, "alt": text}``; display the player
    in a notebook (its HTML embeds the frames) or call :meth:`html`."""

    name: str
    controls: list
    frames: dict
    caption: str = ""
    costly: tuple = ()
    drawn: bool = True      # False: made in a live notebook, without frames (see draws_frames)

    def key(self, **setting) -> tuple:
        """The frame key of a setting given by control values (the others at their defaults)."""
        idx = []
        for c in self.controls:
            if c.name in setting:
                hits = [i for i, v in enumerate(c.values) if _same(v, setting[c.name])]
                if not hits:
                    raise ValueError(f"{c.name}={setting[c.name]!r} is not offered by the player")
                idx.append(hits[0])
            else:
                idx.append(c.default)
        return tuple(idx)

    def __repr__(self):      # the notebook's plain-text output: not the frames' bytes
        if not self.drawn:
            return f"<static player {self.name!r}: not drawn in a live notebook; run the live demo>"
        return f"<static player {self.name!r}: {self.n_frames} frames, {self.n_bytes / 1e3:.0f} kB>"

    def manifest(self) -> dict:
        frames = {}
        for key, f in self.frames.items():
            entry = {"sha": f["sha"], "alt": f["alt"]}
            if f["png"] is not None:
                entry["src"] = "data:image/png;base64," + _b64(f["png"])
            else:
                entry["html"] = f["html"]
            frames["-".join(map(str, key))] = entry
        return {"name": self.name, "controls": [c.as_json() for c in self.controls], "frames": frames}

    def html(self) -> str:
        if not self.drawn:
            settings = math.prod(len(c.values) for c in self.controls)
            return (f'<p class="l1lab-player-skipped" data-player="{html.escape(self.name)}"><em>The HTML book shows '
                    f"this demo here as a player precomputed over {settings} settings, which works without a kernel. "
                    "In this notebook, run the live demo instead: the same demo with every setting (set "
                    f"<code>{DRAW_PLAYERS}=1</code> to draw the player here too).</em></p>")
        return _player_html(self)

    def _repr_html_(self):
        return self.html()

    @property
    def n_frames(self):
        return len(self.frames)

    @property
    def n_bytes(self):
        seen = {}
        for f in self.frames.values():
            if f["png"] is not None:
                seen[f["sha"]] = len(f["png"])
        return sum(seen.values())


def _b64(data: bytes) -> str:
    import base64
    return base64.b64encode(data).decode("ascii")


def plan(demo, grid: Mapping[str, Sequence] | None = None, *, max_frames: int = MAX_FRAMES) -> list:
    """The :class:`ControlSpec` of every control of the live ``demo`` for ``grid`` (see :func:`static_player`),
    checked, without drawing anything: every control the grid does not list offers all its positions (at most
    :data:`MAX_OPTIONS`), every listed value is a position of the widget, the widget's start is offered, and the
    grid has at most ``max_frames`` frames."""
    controls = getattr(demo, "controls", None)
    if not controls or getattr(demo, "live", None) is None:
        raise TypeError("demo must be the box of a live demo (l1lab.book.controls.wire): it has no controls")
    grid = dict(grid or {})
    unknown = sorted(set(grid) - set(controls))
    if unknown:
        raise ValueError(f"grid names controls the demo does not have: {unknown}; it has {sorted(controls)}")
    specs = [control_spec(n, c, grid.get(n)) for n, c in controls.items()]
    total = math.prod(len(s.values) for s in specs)
    if total > max_frames:
        sizes = ", ".join(f"{s.name}: {len(s.values)}" for s in specs)
        raise ValueError(f"the grid has {total} frames ({sizes}), more than max_frames={max_frames}")
    return specs


def static_player(demo, grid: Mapping[str, Sequence] | None = None, *, name: str, caption: str = "",
                  describe: Callable | None = None, max_frames: int = MAX_FRAMES) -> StaticPlayer:
    """Precompute the live ``demo`` (the box a ``*_demo()`` function returns) over a grid of its controls.

    Parameters
    ----------
    demo : the ipywidgets box of :func:`l1lab.book.controls.wire` (its ``.controls`` and ``.live``)
    grid : {control name: values to offer} for the costly controls (more than :data:`MAX_OPTIONS` positions,
        or too slow to compute at every position); every other control offers all its positions.  A value must
        be one of the live widget's positions, and the widget's starting value must be offered.
    name : the player's identifier in the page (letters, digits, ``-`` and ``_``)
    caption : a sentence under the controls (which controls are representative, say)
    describe : optional ``describe(setting, figure) -> str``, more text for a frame's alternative text
    max_frames : refuse a grid with more frames than this

    Every combination of the offered values is drawn by the widget's own figure function, in place
    (:class:`l1lab.book.live.LiveFigure`).  Returns a :class:`StaticPlayer`.
    """
    if not re.fullmatch(r"[A-Za-z0-9_-]+", name or ""):
        raise ValueError(f"name must be letters, digits, '-' and '_', got {name!r}")
    grid = dict(grid or {})
    specs = plan(demo, grid, max_frames=max_frames)
    costly = tuple(s.name for s in specs if s.name in grid)
    if not draws_frames():
        _close(demo)
        return StaticPlayer(name, specs, {}, caption, costly, drawn=False)
    live = demo.live
    frames = {}
    for key in itertools.product(*(range(len(s.values)) for s in specs)):
        setting = {s.name: s.values[i] for s, i in zip(specs, key)}
        out = live.render(**setting)
        said = ", ".join(f"{s.label} = {s.labels[i]}" for s, i in zip(specs, key))
        if isinstance(out, bytes):
            _check_frame(name, said, live.fig)
            png = encode_frame(out)
            text = frame_text(live.fig)
            extra = describe(setting, live.fig) if describe is not None else ""
            alt = " ".join(p for p in (f"Setting: {said}.", text + "." if text else "", extra) if p)
            frames[key] = {"png": png, "html": None, "sha": hashlib.sha256(png).hexdigest(), "alt": alt}
        else:
            body = out._repr_html_() if hasattr(out, "_repr_html_") else html.escape(str(out))
            if EXCEPTION_TEXT.search(html.unescape(re.sub(r"<[^>]+>", " ", body))):
                raise ValueError(f"player {name!r}, frame {said}: the frame shows exception text, not a figure")
            frames[key] = {"png": None, "html": body, "sha": hashlib.sha256(body.encode()).hexdigest(),
                           "alt": f"Setting: {said}."}
    _close(demo)     # the widget has served: its state would otherwise be saved with the notebook
    return StaticPlayer(name, specs, frames, caption, costly)


def _check_frame(name, said, fig):
    """A frame is a figure that follows the book's conventions and shows no exception's text: otherwise the player
    is not made (the build fails on the cell) and the message names the frame."""
    problems = style_problems(fig)
    problems += [f"exception text in the figure: {t!r}" for t in figure_texts(fig) if EXCEPTION_TEXT.search(t)]
    if problems:
        raise ValueError(f"player {name!r}, frame {said}:\n  " + "\n  ".join(problems))


def _close(widget):
    """Close ``widget`` and every widget below it (a box's children)."""
    for child in getattr(widget, "children", ()):
        _close(child)
    close = getattr(widget, "close", None)
    if close is not None:
        close()


# --------------------------------------------------------------------------------------------------- the page
PLAYER_CSS = """
.l1lab-player{margin:1em 0;padding:.6em .8em;border:1px solid #c8cdd3;border-radius:6px;color-scheme:light;
  color:#1f2328;background:#fff}
.l1lab-player-controls{display:flex;flex-wrap:wrap;gap:.4em 1.4em;align-items:center;margin-bottom:.4em}
.l1lab-player-controls label{display:inline-flex;align-items:center;gap:.45em;font-size:.92em;margin:0;color:#1f2328}
.l1lab-player-controls input[type=range]{width:9em;accent-color:#1f6fb4}
.l1lab-player-controls input:disabled{opacity:.45}
.l1lab-player-controls select{color:#1f2328;background:#fff;border:1px solid #8c959f;border-radius:4px;
  padding:.1em .3em}
.l1lab-player-controls output{font-variant-numeric:tabular-nums;min-width:4.5em}
.l1lab-player :focus-visible{outline:2px solid #1f6fb4;outline-offset:2px}
.l1lab-player-frame{display:block;max-width:100%;height:auto;background:#fff;border-radius:3px}
.l1lab-player .l1lab-player-note,.l1lab-player .l1lab-player-setting{font-size:.85em;color:#3d434a;margin:.3em 0 0 0;
  font-family:inherit;font-weight:400;text-align:left}
.l1lab-player-html{padding:.4em}
"""

#: the player's script: one function, no external code; it runs once per player (a guard makes a second copy on
#: the page a no-op) and needs nothing but the player's element and its JSON manifest.  Where
#: ``document.currentScript`` is null (the classic Jupyter notebook runs an output's scripts through jQuery), it wires
#: every player of the page not yet wired
PLAYER_JS = r"""
(function(wire){
  var s=document.currentScript,own=s&&s.closest?s.closest(".l1lab-player"):null;
  if(own){wire(own);}else{Array.prototype.forEach.call(document.querySelectorAll(".l1lab-player"),wire);}
})(function(root){
  if(!root||root.dataset.ready)return;root.dataset.ready="1";
  var data=JSON.parse(root.querySelector("script.l1lab-player-data").textContent);
  var img=root.querySelector("img.l1lab-player-frame"),box=root.querySelector(".l1lab-player-html");
  var said=root.querySelector(".l1lab-player-setting");
  var inputs=Array.prototype.slice.call(root.querySelectorAll("[data-control]"));
  var kept=[];
  function index(el){return el.type==="checkbox"?(el.checked?1:0):parseInt(el.value,10);}
  function show(){
    var key=inputs.map(index).join("-"),f=data.frames[key],parts=[];
    inputs.forEach(function(el,i){
      var c=data.controls[i],lab=c.labels[index(el)];parts.push(c.label+" = "+lab);
      if(el.type==="range"){el.setAttribute("aria-valuetext",lab);
        var o=root.querySelector('output[data-for="'+c.name+'"]');if(o)o.textContent=lab;}
    });
    said.textContent=parts.join(", ");
    if(!f){img.hidden=true;box.hidden=false;box.textContent="No frame was computed for this setting.";return;}
    root.dataset.key=key;root.dataset.sha=f.sha;
    if(f.src){img.hidden=false;box.hidden=true;if(img.getAttribute("src")!==f.src)img.src=f.src;img.alt=f.alt;}
    else{img.hidden=true;box.hidden=false;box.innerHTML=f.html;}
  }
  function preload(){
    if(kept.length)return;
    var waits=[];
    if(img.decode&&!img.hidden)waits.push(img.decode().catch(function(){}));
    Object.keys(data.frames).forEach(function(k){var f=data.frames[k];
      if(f.src){var im=new Image();im.src=f.src;kept.push(im);
        if(im.decode)waits.push(im.decode().catch(function(){}));}});
    Promise.all(waits).then(function(){root.dataset.loaded="1";});
  }
  inputs.forEach(function(el){el.addEventListener("input",show);el.addEventListener("change",show);
    el.addEventListener("focus",preload);});
  root.addEventListener("pointerenter",preload);
  if("IntersectionObserver" in window){
    var io=new IntersectionObserver(function(es){if(es.some(function(e){return e.isIntersecting;})){
      preload();io.disconnect();}},{rootMargin:"600px"});io.observe(root);
  }else{preload();}
  show();
});
"""


def _control_html(player_name, c: ControlSpec) -> str:
    cid = f"l1lab-{player_name}-{c.name}"
    label = html.escape(c.label)
    if c.kind == "range":
        fixed = ' disabled title="one value here: the live version moves it"' if len(c.values) == 1 else ""
        return (f'<label for="{cid}">{label} <input type="range" id="{cid}" data-control="{c.name}" min="0" '
                f'max="{len(c.values) - 1}" step="1" value="{c.default}"{fixed} '
                f'aria-valuetext="{html.escape(c.labels[c.default])}"> <output data-for="{c.name}" for="{cid}">'
                f'{html.escape(c.labels[c.default])}</output></label>')
    if c.kind == "checkbox":
        on = " checked" if c.values[c.default] else ""
        return (f'<label for="{cid}"><input type="checkbox" id="{cid}" data-control="{c.name}"{on}> '
                f'{label}</label>')
    fixed = ' disabled title="one value here: the live version offers more"' if len(c.values) == 1 else ""
    opts = "".join(f'<option value="{i}"{" selected" if i == c.default else ""}>{html.escape(lb)}</option>'
                   for i, lb in enumerate(c.labels))
    return f'<label for="{cid}">{label} <select id="{cid}" data-control="{c.name}"{fixed}>{opts}</select></label>'


def _player_html(p: StaticPlayer) -> str:
    manifest = p.manifest()
    start = "-".join(str(c.default) for c in p.controls)
    first = manifest["frames"][start]
    blob = json.dumps(manifest, separators=(",", ":"), ensure_ascii=False).replace("</", "<\\/")
    controls = "".join(_control_html(p.name, c) for c in p.controls)
    note = p.caption or ""
    if p.costly:
        names = ", ".join(c.label for c in p.controls if c.name in p.costly)
        offered = "; ".join(f"{c.label}: {', '.join(c.labels)}" for c in p.controls if c.name in p.costly)
        note = (note + " " if note else "") + (
            f"Precomputed: every position of the other controls; representative values of {names} ({offered}).")
    if first.get("src"):
        body = (f'<img class="l1lab-player-frame" src="{first["src"]}" alt="{html.escape(first["alt"])}" '
                f'loading="lazy"><div class="l1lab-player-html" hidden></div>')
    else:
        body = f'<img class="l1lab-player-frame" alt="" hidden><div class="l1lab-player-html">{first["html"]}</div>'
    return (f'<div class="l1lab-player" id="l1lab-player-{p.name}" data-l1lab-player="{p.name}" '
            f'data-frames="{p.n_frames}"><style>{PLAYER_CSS}</style>'
            f'<script type="application/json" class="l1lab-player-data">{blob}</script>'
            f'<div class="l1lab-player-controls" role="group" aria-label="Controls of the precomputed figure">'
            f'{controls}</div><figure style="margin:0">{body}'
            f'<figcaption class="l1lab-player-setting" aria-live="polite"></figcaption></figure>'
            + (f'<p class="l1lab-player-note">{html.escape(note)}</p>' if note else "")
            + f"<script>{PLAYER_JS}</script></div>")
