"""Sphinx extension of this book: the formula renderer ships with the book, so that it reads offline.

Sphinx loads MathJax 3 from a CDN by default: a reader who opens the book from disk or without a network (on a
train) would see every formula as raw LaTeX.  The package ``sphinx-mathjax-offline`` (a dependency of the book,
from PyPI) carries a copy of MathJax 3; this extension points the pages at ``_static/mathjax/tex-mml-chtml.js``
and copies the parts of MathJax the pages can load into the HTML output: the component itself, the TeX input's
extensions (loaded on demand), the CHTML output's web fonts, the menu, the accessibility extensions and the
speech rules they load.  MathJax's SVG output and its other combined components are not copied.

The reader's check (``tests_html``) blocks every request that leaves the build folder, so a page that still needs
the network fails it.
"""
import importlib.metadata
import os

from sphinx.util.fileutil import copy_asset

COMPONENT = "tex-mml-chtml.js"
PARTS = (COMPONENT, "input", os.path.join("output", "chtml"), "ui", "a11y", "adaptors", "sre")


def mathjax_source():
    """The MathJax 3 folder of the installed ``sphinx-mathjax-offline``."""
    dist = importlib.metadata.distribution("sphinx-mathjax-offline")
    path = dist.locate_file(os.path.join("sphinx-mathjax-offline", "static", "mathjax"))
    if not os.path.exists(os.path.join(path, COMPONENT)):
        raise RuntimeError(f"MathJax's {COMPONENT} is missing from {path}: reinstall sphinx-mathjax-offline")
    return str(path)


def _use_local_mathjax(app, config):
    config.mathjax_path = "mathjax/" + COMPONENT


def _copy_mathjax(app, exc):
    if exc is not None or app.builder.format != "html":
        return
    src = mathjax_source()
    dest = os.path.join(app.outdir, "_static", "mathjax")
    for part in PARTS:
        s, d = os.path.join(src, part), os.path.join(dest, part)
        if os.path.isdir(s):
            copy_asset(s, d)
        else:
            os.makedirs(os.path.dirname(d), exist_ok=True)
            copy_asset(s, os.path.dirname(d))


def setup(app):
    mathjax_source()   # fail at the start of the build, not after it
    app.connect("config-inited", _use_local_mathjax, priority=900)
    app.connect("build-finished", _copy_mathjax)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
