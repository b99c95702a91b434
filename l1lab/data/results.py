"""Result files of the lectures' paper-size computations: written by the build, read by a live reader.

Some lectures show computations at the papers' sizes that take tens of seconds each on two cores (RADAR's trials
at d = 40 000, the sweeps of Section 4, the projections' synthetic experiment at n = 4000).  Each result is a file
under the data home (:func:`l1lab.data.real.data_home`, ``~/.cache/l1lab`` by default) whose path holds the fingerprint
of what made it: the hash of l1lab's source files that define its numbers and of its parameters.  A file is used
only if the fingerprint recorded inside it is the expected one, so a change of code or parameters never serves a
stale result: it recomputes.  The files are ``.npz`` archives read with ``allow_pickle=False``: numbers, never code.

Where a live reader's result comes from, in this order:

1. the data home: the build's own files on the machine that built the book (a course's JupyterHub, a clone), or
   the reader's earlier runs;
2. the book's site: the build copies every result file its pages read into ``_build/html/_static/results/``
   (:func:`publish`), and a miss downloads it from :func:`results_url` (``$L1LAB_RESULTS_URL``, else
   :data:`PUBLISHED_URL`), once, into the data home.  No network, an unreachable host, a file that is not there or
   that is damaged: the result is computed instead (one failed connection stops the later attempts of the session;
   ``$L1LAB_OFFLINE`` or an empty ``$L1LAB_RESULTS_URL`` turns downloads off);
3. computed now, and stored for the next time.

``$L1LAB_RECOMPUTE=1`` (or a function's ``recompute=True``) ignores stored files, recomputes and overwrites them.
While the book is built, ``$L1LAB_RESULTS_MANIFEST`` names a file to which every result file a page reads or writes
is appended (its path relative to the data home), which :func:`publish` then copies next to the HTML.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from functools import lru_cache
from pathlib import Path

import numpy as np

from .._validate import check_flag, check_path, check_text

__all__ = ["PUBLISHED_URL", "code_fingerprint", "fetch", "fetch_many", "load", "publish", "recompute_requested",
           "record", "results_url", "save"]

#: Where the published book's result files are (its site's ``_static/results/``); ``$L1LAB_RESULTS_URL`` overrides it.
PUBLISHED_URL = "https://l1lab.github.io/l1lab/_static/results/"

_PACKAGE = Path(__file__).resolve().parents[1]


def code_fingerprint(files=()) -> str:
    """SHA-256 (20 hex digits) of l1lab's source files ``files`` (paths relative to the package, e.g.
    ``"solvers/projected.py"``), or of every ``.py`` file of the package when ``files`` is empty."""
    if not isinstance(files, (tuple, list)) or not all(isinstance(f, str) for f in files):
        raise TypeError(f"files must be a sequence of paths relative to the package (str), got {files!r}")
    files = tuple(files)
    for f in files:
        if not (_PACKAGE / f).is_file():
            raise ValueError(f"files: {f!r} is not a file of the l1lab package")
    return _code_fingerprint(files)


@lru_cache(maxsize=None)
def _code_fingerprint(files: tuple) -> str:
    paths = [_PACKAGE / f for f in files] if files else sorted(_PACKAGE.rglob("*.py"))
    h = hashlib.sha256()
    for path in paths:
        h.update(path.relative_to(_PACKAGE).as_posix().encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:20]


def recompute_requested() -> bool:
    """``$L1LAB_RECOMPUTE`` is set (to anything but 0, false, no): stored results are ignored."""
    return os.environ.get("L1LAB_RECOMPUTE", "").strip().lower() not in ("", "0", "false", "no")


def results_url() -> str:
    """The base URL of the published result files: ``$L1LAB_RESULTS_URL`` if set (empty: no downloads), else
    :data:`PUBLISHED_URL`."""
    url = os.environ.get("L1LAB_RESULTS_URL")
    return PUBLISHED_URL if url is None else url.strip()


def _check_relpath(relpath, name="relpath"):
    """A result file's path relative to the data home: a str of '/'-separated names, none empty, '.' or '..' (it
    must stay inside the data home, also when it comes from a manifest)."""
    check_text(relpath, name)
    parts = relpath.split("/")
    if not relpath or relpath.startswith("/") or "\\" in relpath or any(p in ("", ".", "..") for p in parts):
        raise ValueError(f"{name} must be a relative path of '/'-separated names inside the data home (no '', '.', "
                         f"'..' or '\\'), got {relpath!r}")
    return relpath


def _home() -> Path:
    from .real import data_home

    return data_home()


def record(relpath: str):
    """Append ``relpath`` to the build's manifest (``$L1LAB_RESULTS_MANIFEST``), if one is kept."""
    _check_relpath(relpath)
    manifest = os.environ.get("L1LAB_RESULTS_MANIFEST")
    if manifest:
        with open(manifest, "a", encoding="utf-8") as f:   # one short line per append: atomic across processes
            f.write(relpath + "\n")


def fetch(relpath: str) -> Path | None:
    """Download the published copy of ``relpath`` into the data home; None when there is none to be had."""
    _check_relpath(relpath)
    base = results_url()
    if not base:
        return None
    from .real import DataUnavailableError, RemoteFile, fetch_file

    dest = _home() / relpath
    dest.parent.mkdir(parents=True, exist_ok=True)
    remote = RemoteFile(name=relpath, url=base.rstrip("/") + "/" + relpath, sha256=None)
    try:
        return fetch_file(remote, timeout=10.0, progress=False)
    except (DataUnavailableError, ValueError, OSError):
        return None


def fetch_many(relpaths, workers: int = 16) -> int:
    """:func:`fetch` every path of ``relpaths`` missing from the data home, ``workers`` downloads at a time (a
    lecture's sweep reads hundreds of small files: one at a time, their round trips would add up to seconds);
    returns how many were downloaded."""
    relpaths = [_check_relpath(r, "an entry of relpaths") for r in relpaths]
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be an integer >= 1, got {workers!r}")
    home = _home()
    missing = [r for r in dict.fromkeys(relpaths) if not (home / r).exists()]
    if not missing or not results_url():
        return 0
    from concurrent.futures import ThreadPoolExecutor

    first = fetch(missing[0])          # one first: an unreachable host then fails the rest at once
    if first is None:
        return 0
    with ThreadPoolExecutor(min(workers, len(missing))) as pool:
        got = list(pool.map(fetch, missing[1:]))
    return 1 + sum(p is not None for p in got)


def load(relpath: str, fingerprint: str, recompute: bool = False) -> dict | None:
    """The arrays of the result file ``relpath`` (relative to the data home) if it holds ``fingerprint``, from
    the data home or else downloaded from the book's site; None if there is no such file (or ``recompute``)."""
    _check_relpath(relpath)
    check_text(fingerprint, "fingerprint")
    if check_flag(recompute, "recompute") or recompute_requested():
        return None
    path = _home() / relpath
    for attempt in ("local", "download"):
        if attempt == "download":
            if fetch(relpath) is None:
                return None
        if not path.exists():
            continue
        try:
            with np.load(path, allow_pickle=False) as z:
                arrays = {k: z[k] for k in z.files}
            meta = json.loads(str(arrays.pop("_meta")))
        except Exception:           # damaged or foreign: computed again (and rewritten)
            _unlink(path)
            continue
        if meta.get("fingerprint") == fingerprint:
            record(relpath)
            return arrays
        _unlink(path)               # another fingerprint at this path: never served
    return None


def save(relpath: str, fingerprint: str, arrays: dict):
    """Write ``arrays`` (name -> array or number) with ``fingerprint`` to ``relpath`` under the data home,
    atomically (a reader never sees half a file); a failure to write (a read-only home) only loses the reuse."""
    _check_relpath(relpath)
    check_text(fingerprint, "fingerprint")
    if not isinstance(arrays, dict) or not all(isinstance(k, str) and k != "_meta" for k in arrays):
        raise TypeError(f"arrays must be a dict of names (str, not '_meta') to arrays, got {type(arrays).__name__}")
    arrays = {k: np.asarray(v) for k, v in arrays.items()}
    bad = sorted(k for k, v in arrays.items() if v.dtype.kind not in "biufcUS")
    if bad:
        raise TypeError(f"arrays must hold numbers or strings (a result file holds no code); {bad} do not")
    path = _home() / relpath
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
        try:
            with os.fdopen(fd, "wb") as f:
                np.savez_compressed(f, _meta=np.array(json.dumps({"fingerprint": fingerprint})), **arrays)
            os.replace(tmp, path)
        except BaseException:
            _unlink(Path(tmp))
            raise
    except OSError:
        return
    record(relpath)


def _unlink(path: Path):
    try:
        path.unlink()
    except FileNotFoundError:
        pass


def publish(manifest, out_dir) -> list:
    """Copy every result file listed in ``manifest`` (paths relative to the data home, one per line) to
    ``out_dir`` under the same relative path; returns the relative paths copied, sorted."""
    check_path(manifest, "manifest")
    check_path(out_dir, "out_dir")
    home = _home()
    names = sorted({line.strip() for line in Path(manifest).read_text(encoding="utf-8").splitlines() if line.strip()})
    names = [_check_relpath(n, f"the manifest's entry {n!r}") for n in names]
    out = Path(out_dir)
    copied = []
    for name in names:
        src = home / name
        if src.exists():
            (out / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, out / name)
            copied.append(name)
    return copied
