"""Sphinx extension of this book: four fixes to the HTML every page gets, the first two found by ``tests_html``
(the reader's check in headless Chromium).

* Duplicate ``<script>`` entries.  sphinx-thebe 0.3.1 adds its inline configuration script
  (``const THEBE_JS_URL = ...``) once per reading phase and Jupyter Book runs that phase twice, so every page
  declared the constant twice and the browser raised "Identifier 'THEBE_JS_URL' has already been declared"
  (sphinx-togglebutton's inline script was doubled too).  Identical scripts (same file or same inline body, same
  attributes) are kept once, in their first position.
* The colour mode.  pydata-sphinx-theme's layout reads a ``default_mode`` template variable that nothing sets
  with sphinx-book-theme 1.3, so pages started in the mode "" and logged "Got invalid theme mode: . Resetting to
  auto." as a console error.  The variable is set to "auto" (the theme's own fallback) when empty.
* The live widgets' saved state.  A notebook that built ipywidgets (the live demos, which the HTML hides, and the
  static players, which build one to read its controls) stores their state in its metadata, and MyST-NB writes it
  into the page as a ``application/vnd.jupyter.widget-state+json`` script: up to 1.4 MB a page (the PNGs of the
  widgets' images) that nothing reads, since no widget is shown and no widget manager is loaded.  It is dropped.
* The titles of the papers' results.  The book numbers only its own results; a paper's result is a
  ``:nonumber:`` box titled by paper and number ("Theorem 1 of Shalev-Shwartz & Tewari (2011)"), which
  sphinx-proof renders as "Theorem (Theorem 1 of Shalev-Shwartz & Tewari (2011))".  The box shows its title
  alone.
"""
import re

WIDGET_STATE = "application/vnd.jupyter.widget-state+json"

# an unnumbered sphinx-proof title whose own title starts with the same kind: "Theorem (Theorem 1 of X)"
_UNNUMBERED = re.compile(r'<span class="caption-number">(?P<kind>[A-Z][a-z]+) </span> '
                         r'\((?P<title>(?P=kind)\b.*?)\)</p>')


def _fix_page(app, pagename, templatename, context, doctree):
    if not context.get("default_mode"):
        context["default_mode"] = "auto"
    if context.get("body"):
        context["body"] = _UNNUMBERED.sub(lambda m: m["title"] + "</p>", context["body"])
    files = context.get("script_files")
    if not files:
        return
    seen, kept = set(), []
    for js in files:
        if getattr(js, "attributes", {}).get("type") == WIDGET_STATE:
            continue
        # an inline script is registered once with filename None and once with '' (same body): same script
        key = (str(getattr(js, "filename", js) or ""), tuple(sorted(getattr(js, "attributes", {}).items())))
        if key not in seen:
            seen.add(key)
            kept.append(js)
    files[:] = kept


def setup(app):
    app.connect("html-page-context", _fix_page, priority=900)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
