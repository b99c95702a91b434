"""``jupyter-book build`` with Sphinx reading the pages on every core (``-j``), so that the notebooks execute in
parallel: the Jupyter Book 1.x command line has no option for it, although its Sphinx call takes one.

Usage, with the arguments of ``jupyter-book build``::

    python _ext/build_book.py . -W --keep-going

The number of processes is the number of cores, or ``BOOK_JOBS`` when set (``BOOK_JOBS=1``: the serial build).
Sphinx reads in parallel only when more than five pages need reading; the execution cache (``_build/.jupyter_cache``)
still skips every notebook whose code did not change.

The pages' paper-size results (:mod:`l1lab.data.results`) are listed as the notebooks read or write them in
``_build/.results-manifest`` (kept across builds: a page the execution cache skips does not list them again), and
copied after the build to ``_build/html/_static/results/``, from where a live reader's l1lab downloads them.  The
build itself never downloads a result (``L1LAB_RESULTS_URL`` empty): it computes what its data home lacks.
"""
import os
import sys
from pathlib import Path

import jupyter_book.sphinx
import sphinx.builders
from jupyter_book.cli.main import main

_build_sphinx = jupyter_book.sphinx.build_sphinx


def _build_sphinx_parallel(*args, **kwargs):
    if not kwargs.get("jobs"):
        kwargs["jobs"] = int(os.environ.get("BOOK_JOBS") or os.cpu_count() or 1)
    return _build_sphinx(*args, **kwargs)


def _one_page_per_task(arguments, nproc, maxbatch=10):
    """Sphinx hands each process a batch of up to ten pages, in name order: one process then executes most of the
    long notebooks while the other idles.  One page per task balances the load (a process per page is cheap next
    to executing a notebook)."""
    return [[a] for a in arguments]


if __name__ == "__main__":
    # the notebooks' kernels inherit it: draw the static players' frames (l1lab.book.static.draws_frames; a live
    # notebook skips them, its live demos are the same demos)
    os.environ["L1LAB_DRAW_PLAYERS"] = "1"
    book = Path(next((a for a in sys.argv[1:] if not a.startswith("-")), ".")).resolve()
    (book / "_build").mkdir(exist_ok=True)
    manifest = book / "_build" / ".results-manifest"
    os.environ["L1LAB_RESULTS_MANIFEST"] = str(manifest)
    os.environ["L1LAB_RESULTS_URL"] = ""
    manifest.touch()
    jupyter_book.sphinx.build_sphinx = _build_sphinx_parallel   # the command imports it when it runs
    sphinx.builders.make_chunks = _one_page_per_task
    try:
        main(["build", *sys.argv[1:]])
    except SystemExit as done:
        status = done.code
    else:
        status = 0
    html = book / "_build" / "html"
    if html.is_dir():
        from l1lab.data.results import publish

        copied = publish(manifest, html / "_static" / "results")
        print(f"l1lab: {len(copied)} result files copied to {html / '_static' / 'results'}")
    sys.exit(status)
