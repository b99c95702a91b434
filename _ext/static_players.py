"""Sphinx extension of this book: the static players' frames become files beside the pages, loaded lazily.

A static player (:mod:`l1lab.book.static`) is a notebook output that embeds its frames as PNG data URIs, so that
it works in Jupyter as it is.  In the built book that would put megabytes of base64 into a page that a reader
downloads before seeing any text.  When a page is written, this extension moves every embedded frame of its
players to ``_players/<sha256>.png`` in the HTML output (written once however many pages or settings show it)
and points the player's manifest and first image at those files by relative URLs, which also work when the HTML
is opened from disk.  The page then holds the controls, the manifest and the alternative texts; the player
loads its first frame when it scrolls into view and the others when the reader comes near it.

The frame's file name is the SHA-256 of its bytes, the same hash as the manifest's ``sha`` entry: the reader's
check (``tests_html``) recomputes it from the file a setting shows.
"""
import base64
import hashlib
import os
import re

from docutils import nodes

_DATA_URI = re.compile(r"data:image/png;base64,([A-Za-z0-9+/=]+)")
FOLDER = "_players"


def _externalize(app, doctree, docname):
    if app.builder.format != "html":
        return
    out_dir = os.path.join(app.outdir, FOLDER)
    prefix = "../" * docname.count("/") + FOLDER + "/"
    for node in list(doctree.findall(nodes.raw)):
        text = node.astext()
        if "data-l1lab-player" not in text:
            continue

        def move(match):
            data = base64.b64decode(match.group(1))
            name = hashlib.sha256(data).hexdigest() + ".png"
            path = os.path.join(out_dir, name)
            if not os.path.exists(path):
                os.makedirs(out_dir, exist_ok=True)
                tmp = f"{path}.{os.getpid()}.tmp"
                with open(tmp, "wb") as fh:
                    fh.write(data)
                os.replace(tmp, path)
            return prefix + name

        new = _DATA_URI.sub(move, text)
        node.replace_self(nodes.raw("", new, format=node.get("format", "html"), classes=node.get("classes", [])))


def setup(app):
    app.connect("doctree-resolved", _externalize)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
