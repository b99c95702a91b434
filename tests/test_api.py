"""The API reference (``api.md``) documents the whole reference package, and the package's docstring examples
run: every public module of the core is on the page, every name it exports has a docstring, and every ``>>>``
example of the core passes as a doctest."""
import doctest
import importlib
import pkgutil
import re
from pathlib import Path

import pytest

import l1lab

ROOT = Path(__file__).resolve().parents[1]


def _core_modules():
    names = []
    for info in pkgutil.walk_packages(l1lab.__path__, "l1lab."):
        parts = info.name.split(".")
        if parts[1] == "book" or any(p.startswith("_") for p in parts[1:]):
            continue
        names.append(info.name)
    return sorted(names)


CORE = _core_modules()


def test_the_api_page_documents_every_public_module():
    page = (ROOT / "api.md").read_text()
    documented = set(re.findall(r"^\.\. automodule:: (\S+)", page, re.M))
    missing = [m for m in CORE if m not in documented]
    assert not missing, f"api.md lacks {missing}"
    assert "l1lab.book" not in " ".join(documented)


@pytest.mark.parametrize("name", CORE)
def test_every_exported_name_has_a_docstring(name):
    mod = importlib.import_module(name)
    assert (mod.__doc__ or "").strip(), f"{name} has no module docstring"
    undocumented = []
    for attr in getattr(mod, "__all__", []):
        obj = getattr(mod, attr)
        if isinstance(obj, type(mod)) or not callable(obj):
            continue                     # submodules (documented on their own) and constants
        if not (getattr(obj, "__doc__", None) or "").strip():
            undocumented.append(attr)
    assert not undocumented, f"{name}: no docstring for {undocumented}"


@pytest.mark.parametrize("name", CORE)
def test_docstring_examples(name):
    mod = importlib.import_module(name)
    result = doctest.testmod(mod, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False)
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} docstring examples failed"
