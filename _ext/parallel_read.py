"""Let Sphinx read the book's pages in parallel, so that the notebooks execute on every core.

Two extensions that Jupyter Book loads, sphinx-multitoc-numbering and sphinx-jupyterbook-latex, do not declare
whether they are safe for parallel reading and writing, so Sphinx assumes they are not: it warns (an error under
``-W``) and reads one page at a time.  Both are safe: sphinx-multitoc-numbering only replaces the section
numbering that runs once, after the pages are read and merged, and sphinx-jupyterbook-latex only transforms
documents for the LaTeX builder.  This extension declares them safe once every extension is set up.

sphinx-proof declares itself safe but its domain lacks the ``merge_domaindata`` that Sphinx calls to merge what
two processes read.  The domain keeps nothing of its own there (its results live in ``env.proof_list``, which
sphinx-proof merges on ``env-merge-info``), so merging is a no-op; this extension supplies it.
"""

_SAFE = ("sphinx_multitoc_numbering", "sphinx_jupyterbook_latex")


def _declare(app):
    for name in _SAFE:
        ext = app.extensions.get(name)
        if ext is not None:
            ext.parallel_read_safe = True
            ext.parallel_write_safe = True


def _nothing_to_merge(self, docnames, otherdata):
    """sphinx-proof's domain data hold no per-page entries: nothing to merge."""


def setup(app):
    try:
        from sphinx.domains import Domain
        from sphinx_proof.domain import ProofDomain
    except ImportError:
        pass
    else:
        if ProofDomain.merge_domaindata is Domain.merge_domaindata:
            ProofDomain.merge_domaindata = _nothing_to_merge
    app.connect("builder-inited", _declare)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
