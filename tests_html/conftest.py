"""Fixtures of the reader's check of the built book (``tests_html``), run after the build:

    .venv/bin/python -m pytest tests_html

The setup installs Chromium from the system packages when it is missing (apt-get, as root or through
``sudo -n``).  The browser opens the pages from disk and every request that leaves the build folder is blocked
and fails the check: the book ships its formula renderer (MathJax, ``_ext/offline_assets.py``) and everything
else it loads, so that it reads offline.
"""
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HTML = ROOT / "_build" / "html"
CACHE = ROOT / "_build" / ".jupyter_cache"


def _book_toc():
    """The book tests' reader of _toc.yml (tests/toc.py), loaded by its path: the two test trees share it without
    putting tests/ (and its conftest) on this tree's import path."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("l1lab_book_toc", ROOT / "tests" / "toc.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


#: the pages of the table of contents, in order (the root page first)
toc_files = _book_toc().toc_files


def executed(path):
    """The notebook ``path`` as the build executed it: its current code with the outputs of MyST-NB's execution
    cache (``_build/.jupyter_cache``); fails when the cache holds no execution of that code."""
    import nbformat
    from jupyter_cache import get_cache

    if not CACHE.exists():
        pytest.fail(f"no execution cache in {CACHE}: run the README's build command first")
    nb = nbformat.read(path, as_version=4)
    try:
        _, merged = get_cache(str(CACHE)).merge_match_into_notebook(nb)
    except KeyError:
        pytest.fail(f"{path.name}: no execution of its current code in {CACHE}: run the README's build command")
    return merged


def _run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=900, **kw)


def _as_root(cmd):
    return cmd if os.geteuid() == 0 else ["sudo", "-n", *cmd]


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    return None


@pytest.fixture(scope="session")
def chromium_path():
    path = find_chromium()
    if path is None and shutil.which("apt-get"):
        _run(_as_root(["apt-get", "update", "-qq"]))
        res = _run(_as_root(["apt-get", "install", "-y", "-qq", "--no-install-recommends", "chromium"]),
                   env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})
        if res.returncode != 0:
            pytest.fail(f"Chromium is missing and apt-get could not install it:\n{res.stderr[-2000:]}")
        path = find_chromium()
    if path is None:
        pytest.fail("the reader's check needs Chromium: install the system package 'chromium'")
    return path


@pytest.fixture(scope="session")
def built_pages():
    if not (HTML / "index.html").exists():
        pytest.fail(f"no built book in {HTML}: run the README's build command first")
    return sorted(p for p in HTML.rglob("*.html")
                  if not any(part.startswith(("_", ".")) for part in p.relative_to(HTML).parts[:-1])
                  and p.name not in ("genindex.html", "search.html"))


@pytest.fixture(scope="session")
def browser(chromium_path):
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=chromium_path, args=["--no-sandbox", "--disable-gpu"])
        yield b
        b.close()
