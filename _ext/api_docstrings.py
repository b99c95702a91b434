"""Sphinx extension of this book: the package's docstrings as the API reference reads them.

l1lab's docstrings are written for a reader of the source: plain-text mathematics such as ``|w_j|``, ``||w||_1``
and ``coef_`` sit beside reStructuredText markup (``:math:``, ``.. math::``, double back-quoted literals).  In
reStructuredText a ``|name|`` is a substitution and a ``name_`` a hyperlink reference, so the API pages would
fail with "Undefined substitution referenced" and "Unknown target name".  Before autodoc parses a docstring,
this hook escapes every ``|`` and every trailing ``_`` of a word in the plain text, and leaves alone what is
markup: inline literals, roles (``:math:`...```, ``:func:`...```), and the bodies of directives and literal blocks.
"""
import re

# inline markup that is left as it is: ``literal``, :role:`text`, `interpreted text`
_INLINE = re.compile(r"``.+?``|:[\w:.-]+:`[^`]*`|`[^`]*`_{0,2}")
_WORD_UNDERSCORE = re.compile(r"(?<=\w)_(?=$|[\s.,;:)\]}'\"/])")


def _escape_plain(text: str) -> str:
    out, pos = [], 0
    for m in _INLINE.finditer(text):
        out.append(_escape_run(text[pos:m.start()]))
        out.append(m.group(0))
        pos = m.end()
    out.append(_escape_run(text[pos:]))
    return "".join(out)


def _escape_run(run: str) -> str:
    run = run.replace("\\|", "\x00").replace("|", "\\|").replace("\x00", "\\|")
    return _WORD_UNDERSCORE.sub(r"\\_", run)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def escape_docstring(lines):
    """Escape the plain text of a docstring (a list of lines), in place.  Paragraphs are escaped whole, so that
    a role that runs over two lines (``:math:`...``` broken across a line end) stays one piece of markup."""
    block_indent = None          # inside a directive body or a literal block: its parent's indentation
    paragraph = []               # indices of the lines of the plain paragraph being collected

    def flush():
        if paragraph:
            text = _escape_plain("\n".join(lines[k] for k in paragraph)).split("\n")
            for k, new in zip(paragraph, text):
                lines[k] = new
            paragraph.clear()

    for k, line in enumerate(lines):
        stripped = line.strip()
        if block_indent is not None:
            if stripped and _indent(line) <= block_indent:
                block_indent = None
            else:
                continue
        if not stripped:
            flush()
            continue
        if re.match(r"\.\.\s+[\w:-]+::", stripped):
            flush()
            block_indent = _indent(line)          # a directive: its arguments and body are markup
            continue
        if stripped.startswith(">>>") or stripped.startswith("..."):
            flush()
            continue                              # doctest lines are literal
        paragraph.append(k)
        if stripped.endswith("::"):
            flush()
            block_indent = _indent(line)          # a literal block follows
    flush()


def _process(app, what, name, obj, options, lines):
    if name.startswith("l1lab"):
        escape_docstring(lines)


def _skip(app, what, name, obj, skip, options):
    # scikit-learn's metadata-routing methods (set_fit_request, ...) are generated on the estimators; they are
    # scikit-learn's API, documented there
    if name.startswith("set_") and name.endswith("_request"):
        return True
    return None


def setup(app):
    app.connect("autodoc-process-docstring", _process)
    app.connect("autodoc-skip-member", _skip)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
