"""Fixtures of the reader's check of the built book (``tests_html``), run after the build:

    .venv/bin/python -m pytest tests_html

The setup installs what the check needs when it is missing: Chromium from the system packages (apt-get, as root
or through ``sudo -n``) and a local copy of MathJax 3 from npm (into ``.cache/mathjax``), because the pages load
MathJax from a CDN that a CI machine may not reach; the browser is given the local copy for those URLs and every
other external request is blocked (the book must render offline).
"""
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HTML = ROOT / "_build" / "html"
CACHE = ROOT / ".cache"


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
def mathjax_dir():
    target = CACHE / "mathjax"
    es5 = target / "node_modules" / "mathjax" / "es5"
    if not (es5 / "tex-mml-chtml.js").exists():
        npm = shutil.which("npm")
        if npm is None and shutil.which("apt-get"):
            _run(_as_root(["apt-get", "install", "-y", "-qq", "--no-install-recommends", "npm"]),
                 env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})
            npm = shutil.which("npm")
        if npm is None:
            pytest.fail("the reader's check needs npm to fetch a local MathJax 3 (the CDN may be unreachable)")
        target.mkdir(parents=True, exist_ok=True)
        res = _run([npm, "install", "--silent", "--no-audit", "--no-fund", "--prefix", str(target), "mathjax@3"])
        if res.returncode != 0 or not (es5 / "tex-mml-chtml.js").exists():
            pytest.fail(f"npm could not install mathjax@3:\n{res.stderr[-2000:]}")
    return es5


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
