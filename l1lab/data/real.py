r"""The real data sets of Section 4 of Shalev-Shwartz & Tewari (2011), and RCV1/CCAT: download, verify, cache.

>>> ds = load_dataset("magic04d", allow_offline=True)        # doctest: +SKIP
>>> ds.label, ds.offline, ds.X.shape                         # doctest: +SKIP
('MAGIC04D (UCI MAGIC gamma telescope + 1000 random ±1 features, 19020 × 1010)', False, (19020, 1010))

Data sets (:data:`NAMES`):

* ``duke``: DUKE breast cancer (West et al. 2001), 44 × 7129, from the LIBSVM collection (``duke.bz2``).
* ``arcene``: ARCENE (NIPS 2003 feature-selection challenge, UCI), the 100 × 10 000 training split.
* ``magic04``: MAGIC gamma telescope (UCI ``magic04.data``), 19 020 × 10, class g (gamma) = +1, h (hadron) = -1.
* ``magic04s``: MAGIC plus 1000 features that are 1 with probability 0.05 and 0 otherwise (Section 4.1).
* ``magic04d``: MAGIC plus 1000 features that are -1 or +1 with probability 1/2 (Section 4.1).
* ``ccat``: RCV1-v2, label "document is in topic CCAT" (+1) or not (-1), 47 236 tf-idf features, from the files
  scikit-learn's ``fetch_rcv1`` uses; ``subset="train"`` (23 149 documents, default), ``"test"`` (781 265) or
  ``"all"``.

Every loader returns a :class:`Dataset` whose features lie in [-1, 1] (each column divided by its largest
absolute value, :func:`l1lab.data.scale_features`, unless ``scale=False``) and whose labels are -1/+1.

Where the files live
--------------------
In ``$L1LAB_DATA`` if set, else ``$XDG_CACHE_HOME/l1lab`` (``~/.cache/l1lab``).  Raw files are downloaded to a
temporary file in that directory and moved into place with :func:`os.replace` only after they are complete and
verified, so an interrupted or corrupted download never leaves a file that a later load would use.  Parsed
arrays are kept in ``processed/`` (keyed by the raw files' SHA-256) so a second load does not parse again.
With ``$L1LAB_OFFLINE`` set to a non-empty value other than ``0``, nothing is downloaded (cached files are
still used).  You can also copy a file obtained elsewhere into the cache directory under its file name.

Verification: pinned SHA-256 or trust on first use
---------------------------------------------------
Where a SHA-256 of the source file has been published, it is pinned in :data:`SOURCES` (with where it comes
from) and every download and every later load is checked against it:

* ``magic04.data``: ``e9314b7e...``, pinned by two independent projects for the same UCI URL (JackDunnNZ/UCIData.jl,
  ``src/data/classification/magic-gamma-telescope.jl``; vdorie/dbarts, ``benchmarks/R/uci-binary.R``);
* the six RCV1-v2 files of CCAT: the checksums in scikit-learn's ``sklearn/datasets/_rcv1.py``
  (``RemoteFileMetadata`` of ``fetch_rcv1``), for the same figshare URLs.

For DUKE (LIBSVM ``duke.bz2``) and ARCENE (UCI ``arcene_train.data``/``.labels``) no published SHA-256 was found.
They are verified by **trust on first use**: the SHA-256 of the first complete download is recorded next to the
file (``<file>.sha256``, the ``sha256sum`` format) and every later load checks the file against it.  This
detects a file that changed or was damaged after the first download, not a first download that was already
wrong; compressed files are at least checked to be complete streams before they are accepted.  A file found in
the cache without a record (e.g. copied there by hand) is trusted and recorded on its first load.

Offline stand-ins
-----------------
When a file is neither cached nor downloadable, :func:`load_dataset` raises :class:`DataUnavailableError` with
one sentence saying so, unless the caller passes ``allow_offline=True``: then it warns and returns a stand-in
built from data that ships with an installed package or generated deterministically (:func:`offline_standin`),
with ``Dataset.offline = True`` and a ``label`` starting with "offline stand-in for ..." that every figure made
from it must show.  A checksum mismatch is never replaced by a stand-in: it raises :class:`ChecksumError`.
"""
from __future__ import annotations

import bz2
import gzip
import hashlib
import http.client
import json
import os
import tempfile
import urllib.error
import urllib.parse
import urllib.request
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from .._optional import progress_bar, require
from .._validate import check_array, check_count, check_matrix, check_path, check_positive, check_seed
from .synthetic import add_random_features, scale_features

__all__ = ["NAMES", "PAPER_DATASETS", "SOURCES", "ChecksumError", "DataUnavailableError", "Dataset", "DatasetSource",
           "RemoteFile", "array_fingerprint", "data_home", "fetch_file", "forget_unreachable_hosts", "load_dataset",
           "load_paper_datasets", "offline_standin", "read_svmlight", "sha256_file"]

#: Names accepted by :func:`load_dataset`.
NAMES = ("duke", "arcene", "magic04", "magic04s", "magic04d", "ccat")
#: The four data sets of Section 4 (Figures 1-8, Table 1).
PAPER_DATASETS = ("duke", "arcene", "magic04s", "magic04d")

_PARSER_VERSION = "1"   # bump when a parser's output changes: processed caches are keyed by it
_CHUNK = 1 << 16


# ----------------------------------------------------------------------------------------------- errors
class DataUnavailableError(OSError):
    """A data file is not in the cache and could not be downloaded (no network, unreachable host, HTTP error,
    interrupted transfer)."""


class ChecksumError(ValueError):
    """A file's SHA-256 differs from the pinned value or from the value recorded on first use."""


# ----------------------------------------------------------------------------------------------- sources
@dataclass(frozen=True)
class RemoteFile:
    """One file of a data set: its name in the cache, its URL and its SHA-256.

    ``sha256=None`` means trust on first use (see the module docstring); ``sha256_source`` says where a pinned
    value comes from.
    """

    name: str
    url: str
    sha256: str | None = None
    sha256_source: str = ""


@dataclass(frozen=True)
class DatasetSource:
    """Where a data set comes from and how its files are read.

    ``kind`` selects the parser ("svmlight", "arcene", "magic", "rcv1"); ``n_features`` is passed to the
    svmlight parser; ``shape`` (if not None; for RCV1 a dict by subset) is checked after parsing, so a changed
    upstream file is an error.
    """

    name: str
    title: str
    kind: str
    files: tuple
    n_features: int | None = None
    shape: tuple | None = None
    citation: str = ""


_LIBSVM = "https://www.csie.ntu.edu.tw/~cjlin/libsvmtools/datasets/binary"
_UCI = "https://archive.ics.uci.edu/ml/machine-learning-databases"
_SKLEARN_RCV1 = "scikit-learn sklearn/datasets/_rcv1.py (fetch_rcv1, RemoteFileMetadata.checksum)"
_MAGIC_PIN = ("JackDunnNZ/UCIData.jl src/data/classification/magic-gamma-telescope.jl and "
              "vdorie/dbarts benchmarks/R/uci-binary.R (both pin this hash for the UCI URL)")

#: The real sources.  Tests replace entries (URLs on a loopback server) with ``monkeypatch.setitem``.
SOURCES = {
    "duke": DatasetSource(
        "duke", "DUKE (LIBSVM duke breast-cancer)", "svmlight",
        # no published SHA-256 found: trust on first use
        (RemoteFile("duke.bz2", f"{_LIBSVM}/duke.bz2"),),
        n_features=7129, shape=(44, 7129), citation="West et al. (2001); LIBSVM data sets"),
    "arcene": DatasetSource(
        "arcene", "ARCENE (UCI, NIPS 2003 feature selection challenge, training split)", "arcene",
        # no published SHA-256 found: trust on first use
        (RemoteFile("arcene_train.data", f"{_UCI}/arcene/ARCENE/arcene_train.data"),
         RemoteFile("arcene_train.labels", f"{_UCI}/arcene/ARCENE/arcene_train.labels")),
        n_features=10000, shape=(100, 10000), citation="Guyon et al. (2005); UCI repository"),
    "magic04": DatasetSource(
        "magic04", "MAGIC gamma telescope (UCI magic04.data)", "magic",
        (RemoteFile("magic04.data", f"{_UCI}/magic/magic04.data",
                    "e9314b7ebd4b4b59a3b3d65f7316663963777b16a46786877651dbbaa640b36a", _MAGIC_PIN),),
        n_features=10, shape=(19020, 10), citation="Bock (2004); UCI repository"),
    "ccat": DatasetSource(
        "ccat", "RCV1-v2 / CCAT (Lewis et al. 2004)", "rcv1",
        # same URLs and SHA-256 as scikit-learn's fetch_rcv1; the vectors are Lewis et al.'s lyrl2004 files
        (RemoteFile("lyrl2004_vectors_train.dat.gz", "https://ndownloader.figshare.com/files/5976057",
                    "5468f656d0ba7a83afc7ad44841cf9a53048a5c083eedc005dcdb5cc768924ae", _SKLEARN_RCV1),
         RemoteFile("lyrl2004_vectors_test_pt0.dat.gz", "https://ndownloader.figshare.com/files/5976069",
                    "ed40f7e418d10484091b059703eeb95ae3199fe042891dcec4be6696b9968374", _SKLEARN_RCV1),
         RemoteFile("lyrl2004_vectors_test_pt1.dat.gz", "https://ndownloader.figshare.com/files/5976066",
                    "87700668ae45d45d5ca1ef6ae9bd81ab0f5ec88cc95dcef9ae7838f727a13aa6", _SKLEARN_RCV1),
         RemoteFile("lyrl2004_vectors_test_pt2.dat.gz", "https://ndownloader.figshare.com/files/5976063",
                    "48143ac703cbe33299f7ae9f4995db49a258690f60e5debbff8995c34841c7f5", _SKLEARN_RCV1),
         RemoteFile("lyrl2004_vectors_test_pt3.dat.gz", "https://ndownloader.figshare.com/files/5976060",
                    "dfcb0d658311481523c6e6ca0c3f5a3e1d3d12cde5d7a8ce629a9006ec7dbb39", _SKLEARN_RCV1),
         RemoteFile("rcv1v2.topics.qrels.gz", "https://ndownloader.figshare.com/files/5976048",
                    "2a98e5e5d8b770bded93afc8930d88299474317fe14181aee1466cc754d0d1c1", _SKLEARN_RCV1)),
        n_features=47236, shape={"train": (23149, 47236), "test": (781265, 47236), "all": (804414, 47236)},
        citation="Lewis, Yang, Rose & Li (2004)"),
}

_RCV1_SUBSETS = {"train": (0,), "test": (1, 2, 3, 4), "all": (0, 1, 2, 3, 4)}
_AUGMENT = {"magic04s": "sparse", "magic04d": "dense"}


# ----------------------------------------------------------------------------------------------- dataset
@dataclass
class Dataset:
    """A data set ready for :class:`l1lab.Problem`: features in [-1, 1], labels in {-1, +1}.

    Attributes
    ----------
    name : "duke", "arcene", "magic04", "magic04s", "magic04d", "ccat" (or any name for :meth:`from_arrays`)
    X : (m, d) ndarray or scipy.sparse matrix
    y : (m,) float array of -1/+1
    label : what a figure must show, e.g. "MAGIC04S (UCI MAGIC gamma telescope + ...)" or
        "offline stand-in for DUKE (...)"
    offline : True for an offline stand-in
    source : URLs of the files, or the package data / generator a stand-in was built from
    fingerprint : SHA-256 of the arrays (shape, storage, values): the data set's identity in result caches
    info : anything else (file checksums, scaling, augmentation seed, ...)
    """

    name: str
    X: object
    y: np.ndarray
    label: str
    offline: bool = False
    source: str = ""
    fingerprint: str = ""
    info: dict = field(default_factory=dict)

    def __post_init__(self):
        self.y = np.asarray(self.y, dtype=np.float64)
        if self.X.shape[0] != self.y.shape[0]:
            raise ValueError(f"X has {self.X.shape[0]} rows but y has {self.y.shape[0]} entries")
        if not self.fingerprint:
            self.fingerprint = array_fingerprint(self.X, self.y)

    @classmethod
    def from_arrays(cls, name, X, y, label=None, **kwargs):
        """Wrap arrays (e.g. synthetic data) so that :func:`l1lab.experiments.run_sweep` can use them."""
        return cls(name=str(name), X=X, y=y, label=str(name) if label is None else str(label), **kwargs)

    @property
    def shape(self):
        return tuple(self.X.shape)

    @property
    def m(self) -> int:
        return int(self.X.shape[0])

    @property
    def d(self) -> int:
        return int(self.X.shape[1])

    @property
    def nnz(self) -> int:
        return int(self.X.nnz) if sp.issparse(self.X) else int(np.count_nonzero(self.X))

    @property
    def density(self) -> float:
        return self.nnz / float(self.m * self.d)

    def problem(self, lam, loss="logistic"):
        """The :class:`l1lab.Problem` min (1/m) sum L(<w, x_i>, y_i) + lam ||w||_1 on this data."""
        from ..problem import Problem

        return Problem(self.X, self.y, loss=loss, lam=lam)

    def __str__(self):
        return self.label

    def __repr__(self):
        kind = "sparse" if sp.issparse(self.X) else "dense"
        flag = ", OFFLINE STAND-IN" if self.offline else ""
        return (f"Dataset({self.name!r}, {self.m} × {self.d}, {kind}, density {self.density:.3g}{flag}: "
                f"{self.label})")


def array_fingerprint(X, y=None) -> str:
    """SHA-256 of a feature matrix (dense, or sparse in canonical CSR form) and optional labels."""
    h = hashlib.sha256()
    X = check_matrix(X, "X", finite=False, allow_empty=True)  # a fingerprint of any values, NaN included
    if y is not None:
        y = check_array(y, "y", shape=(X.shape[0],), finite=False, allow_empty=True, like="the rows of X")
    if sp.issparse(X):
        A = sp.csr_matrix(X, dtype=np.float64, copy=True)
        A.sum_duplicates()
        A.sort_indices()
        h.update(f"csr{A.shape}".encode())
        for arr in (A.indptr.astype(np.int64), A.indices.astype(np.int64), A.data):
            h.update(np.ascontiguousarray(arr).tobytes())
    else:
        A = np.ascontiguousarray(np.asarray(X, dtype=np.float64))
        h.update(f"dense{A.shape}".encode())
        h.update(A.tobytes())
    if y is not None:
        h.update(b"y")
        h.update(np.ascontiguousarray(np.asarray(y, dtype=np.float64)).tobytes())
    return h.hexdigest()


# ----------------------------------------------------------------------------------------------- cache + download
def data_home(path=None) -> Path:
    """The cache directory: ``path`` if given, else ``$L1LAB_DATA``, else ``$XDG_CACHE_HOME/l1lab``
    (``~/.cache/l1lab``).  Created if missing."""
    check_path(path, "path", allow_none=True)
    if path is None:
        path = os.environ.get("L1LAB_DATA") or os.path.join(
            os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "l1lab")
    p = Path(path).expanduser()
    p.mkdir(parents=True, exist_ok=True)
    return p


def _offline_env() -> bool:
    v = os.environ.get("L1LAB_OFFLINE", "").strip().lower()
    return v not in ("", "0", "false", "no")


def sha256_file(path) -> str:
    """SHA-256 of a file, read in chunks."""
    h = hashlib.sha256()
    with open(check_path(path, "path"), "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _atomic_write_bytes(path: Path, data: bytes):
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        _unlink(tmp)
        raise


def _unlink(path):
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def _record_path(path: Path) -> Path:
    return path.with_name(path.name + ".sha256")


def _read_record(path: Path):
    rec = _record_path(path)
    if not rec.exists():
        return None
    text = rec.read_text().split()
    if not text or len(text[0]) != 64:
        raise ChecksumError(f"the checksum record {rec} is unreadable; delete it and {path} to download again")
    return text[0].lower()


def _write_record(path: Path, digest: str):
    _atomic_write_bytes(_record_path(path), f"{digest}  {path.name}\n".encode())


def _verify_cached(path: Path, remote: RemoteFile) -> str:
    digest = sha256_file(path)
    expected = remote.sha256.lower() if remote.sha256 else _read_record(path)
    if expected is None:  # found without a record (copied by hand, or a crash between file and record)
        _write_record(path, digest)
        return digest
    if digest != expected:
        how = "pinned" if remote.sha256 else "recorded on first download"
        raise ChecksumError(
            f"the cached file {path} has SHA-256 {digest}, but {expected} was {how}; it changed or is damaged: "
            f"delete it (and {_record_path(path).name} if present) to download it again")
    return digest


def _check_stream(path):
    """Raise ValueError if a bz2/gzip file is not one complete stream (truncated transfers end early)."""
    with open(path, "rb") as f:
        magic = f.read(3)
    opener = bz2.open if magic == b"BZh" else gzip.open if magic[:2] == b"\x1f\x8b" else None
    if opener is None:
        return
    try:
        with opener(path, "rb") as f:
            while f.read(1 << 20):
                pass
    except (EOFError, OSError) as e:
        raise ValueError(f"not a complete compressed stream ({e})") from e


def fetch_file(remote: RemoteFile, directory=None, timeout=30.0, progress=None, download=True) -> Path:
    """The local path of ``remote``, downloading it into ``directory`` (default :func:`data_home`) if needed.

    A cached file is verified against the pinned SHA-256, or against the one recorded on its first download
    (trust on first use).  A download goes to a temporary file in the same directory, is checked (declared
    length, complete bz2/gzip stream, SHA-256) and only then moved into place with :func:`os.replace`.

    Raises
    ------
    DataUnavailableError
        if the file is not cached and cannot be downloaded (``download=False``, ``$L1LAB_OFFLINE``, network
        error, HTTP error, timeout, interrupted transfer); nothing is left in the cache.
    ChecksumError
        if the cached or downloaded file has the wrong SHA-256; a bad download is deleted, not cached.
    """
    if not isinstance(remote, RemoteFile):
        raise TypeError(f"remote must be an l1lab.data.real.RemoteFile, got {type(remote).__name__}")
    check_path(directory, "directory", allow_none=True)
    check_positive(timeout, "timeout (seconds)")
    directory = data_home(directory)
    path = directory / remote.name
    if path.exists():
        _verify_cached(path, remote)
        return path
    if not download or _offline_env():
        why = "downloads are disabled (download=False)" if not download else "$L1LAB_OFFLINE is set"
        raise DataUnavailableError(f"{remote.name} is not in the cache ({directory}) and {why}")
    _download(remote, path, timeout, progress)
    return path


#: Hosts (host:port) that could not be reached in this process, with the reason: later downloads from them fail
#: at once instead of waiting for another timeout (a chapter loading four data sets offline waits at most once
#: per host).  HTTP errors do not count.  Cleared by :func:`forget_unreachable_hosts`.
_UNREACHABLE: dict = {}


def forget_unreachable_hosts():
    """Try hosts again that failed earlier in this process (see ``_UNREACHABLE``)."""
    _UNREACHABLE.clear()


def _download(remote: RemoteFile, path: Path, timeout, progress):
    host = urllib.parse.urlsplit(remote.url).netloc
    if host in _UNREACHABLE:
        raise DataUnavailableError(
            f"{remote.name} is not in the cache ({path.parent}) and {host} was unreachable earlier in this session "
            f"({_UNREACHABLE[host]}); nothing was cached")
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    try:
        h = hashlib.sha256()
        n = 0
        request = urllib.request.Request(remote.url, headers={"User-Agent": "l1lab (+data loader)"})
        try:
            with os.fdopen(fd, "wb") as out, urllib.request.urlopen(request, timeout=timeout) as resp:
                length = resp.headers.get("Content-Length")
                total = int(length) if length and length.strip().isdigit() else None
                with progress_bar(total=total, unit="B", unit_scale=True, desc=remote.name, leave=False,
                          disable=(progress is False) or None, delay=1.0) as bar:
                    while True:
                        chunk = resp.read(_CHUNK)
                        if not chunk:
                            break
                        out.write(chunk)
                        h.update(chunk)
                        n += len(chunk)
                        bar.update(len(chunk))
            if total is not None and n != total:
                raise DataUnavailableError(
                    f"the download of {remote.name} from {remote.url} was interrupted after {n} of {total} bytes; "
                    "nothing was cached")
        except DataUnavailableError:
            raise
        except (OSError, http.client.HTTPException, ValueError) as e:
            # URLError/HTTPError/timeouts are OSErrors; IncompleteRead (connection closed mid-body) is an
            # HTTPException; ValueError covers malformed URLs
            if isinstance(e, urllib.error.HTTPError):
                reason = f"HTTP {e.code} {e.reason}"
            else:
                reason = f"{type(e).__name__}: {getattr(e, 'reason', None) or e}"
                if n == 0 and isinstance(e, (urllib.error.URLError, TimeoutError, ConnectionError)):
                    _UNREACHABLE[host] = reason  # never connected: do not wait for this host again
            raise DataUnavailableError(
                f"{remote.name} is not in the cache ({path.parent}) and could not be downloaded from "
                f"{remote.url} ({reason}); nothing was cached") from e
        digest = h.hexdigest()
        if remote.sha256:
            if digest != remote.sha256.lower():
                raise ChecksumError(
                    f"the download of {remote.name} from {remote.url} has SHA-256 {digest}, expected {remote.sha256} "
                    f"({remote.sha256_source or 'pinned'}); it was discarded and nothing was cached")
        else:
            try:
                _check_stream(tmp)
            except ValueError as e:
                raise DataUnavailableError(
                    f"the download of {remote.name} from {remote.url} is incomplete or damaged ({e}); "
                    "nothing was cached") from e
        os.replace(tmp, path)
        tmp = None
        if not remote.sha256:
            _write_record(path, digest)  # trust on first use
    finally:
        if tmp is not None:
            _unlink(tmp)


# ----------------------------------------------------------------------------------------------- parsers
def _open_maybe_compressed(path):
    with open(path, "rb") as f:
        magic = f.read(3)
    if magic == b"BZh":
        return bz2.open(path, "rb")
    if magic[:2] == b"\x1f\x8b":
        return gzip.open(path, "rb")
    return open(path, "rb")


def read_svmlight(path, n_features=None, zero_based=False):
    """Read a svmlight/LIBSVM file (plain, bz2 or gzip, recognised by its first bytes).

    Lines are ``<label> <index>:<value> ...`` with 1-based indices (``zero_based=False``, the LIBSVM
    convention) unless told otherwise.  Returns ``(X, labels)`` with X a CSR matrix of shape
    (n_lines, n_features) (n_features defaults to the largest index seen).
    """
    check_path(path, "path")
    n_features = check_count(n_features, "n_features", minimum=1, allow_none=True)
    load_svmlight_file = require("sklearn.datasets", "reading svmlight files", "sklearn").load_svmlight_file

    with _open_maybe_compressed(path) as f:
        X, labels = load_svmlight_file(f, n_features=n_features, dtype=np.float64, zero_based=zero_based)
    return sp.csr_matrix(X), np.asarray(labels, dtype=np.float64)


def _pm1(labels, what):
    """Labels as -1/+1: {-1, +1} unchanged, {0, 1} -> 0 becomes -1; anything else is an error."""
    labels = np.asarray(labels, dtype=np.float64)
    vals = set(np.unique(labels).tolist())
    if vals <= {-1.0, 1.0}:
        return labels
    if vals <= {0.0, 1.0}:
        return np.where(labels > 0, 1.0, -1.0)
    raise ValueError(f"{what}: expected two classes coded -1/+1 or 0/1, found labels {sorted(vals)[:6]}")


def _parse_svmlight(src, paths, subset):
    X, labels = read_svmlight(paths[0], n_features=src.n_features)
    return X, _pm1(labels, src.name)


def _parse_arcene(src, paths, subset):
    X = np.loadtxt(paths[0], dtype=np.float64, ndmin=2)
    labels = np.loadtxt(paths[1], dtype=np.float64, ndmin=1)
    if X.shape[0] != labels.shape[0]:
        raise ValueError(f"{paths[0].name} has {X.shape[0]} rows but {paths[1].name} has {labels.shape[0]} labels")
    return X, _pm1(labels, src.name)


def _parse_magic(src, paths, subset):
    rows, labels = [], []
    with open(paths[0], encoding="ascii") as f:
        for k, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            parts = line.split(",")
            if len(parts) != 11 or parts[-1].strip() not in ("g", "h"):
                raise ValueError(f"{paths[0].name}, line {k}: expected 10 numbers and a class g/h, got {line[:80]!r}")
            rows.append([float(v) for v in parts[:10]])
            labels.append(1.0 if parts[-1].strip() == "g" else -1.0)
    return np.array(rows, dtype=np.float64).reshape(-1, 10), np.array(labels)


def _parse_rcv1(src, paths, subset):
    """The lyrl2004 vector files are svmlight lines whose 'label' is the document id; the topics file has
    lines '<topic> <docid> 1'.  Label +1 iff the document is in CCAT.  The vectors are read with the call
    scikit-learn's ``fetch_rcv1`` makes (``load_svmlight_files(..., n_features=47236)``, index base detected),
    training file first, so X is the same matrix as ``fetch_rcv1``'s."""
    load_svmlight_files = require("sklearn.datasets", "reading svmlight files", "sklearn").load_svmlight_files

    handles = [_open_maybe_compressed(p) for p in paths[:-1]]
    try:
        parts = load_svmlight_files(handles, n_features=src.n_features, dtype=np.float64)
    finally:
        for f in handles:
            f.close()
    X = sp.vstack(parts[0::2], format="csr")
    doc_ids = np.concatenate(parts[1::2]).astype(np.int64)
    ccat = set()
    with gzip.open(paths[-1], "rt", encoding="ascii") as f:
        for line in f:
            fields = line.split()
            if len(fields) >= 2 and fields[0] == "CCAT":
                ccat.add(int(fields[1]))
    y = np.where(np.isin(doc_ids, np.fromiter(ccat, dtype=np.int64, count=len(ccat))), 1.0, -1.0)
    return X, y


_PARSERS = {"svmlight": _parse_svmlight, "arcene": _parse_arcene, "magic": _parse_magic, "rcv1": _parse_rcv1}


def _needed_files(src, subset):
    if src.kind == "rcv1":
        return [src.files[i] for i in _RCV1_SUBSETS[subset]] + [src.files[-1]]
    return list(src.files)


def _save_arrays(path: Path, X, y):
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    os.close(fd)
    try:
        if sp.issparse(X):
            X = sp.csr_matrix(X)
            arrays = dict(format=np.array("csr"), shape=np.array(X.shape), data=X.data, indices=X.indices,
                          indptr=X.indptr, y=y)
        else:
            arrays = dict(format=np.array("dense"), X=X, y=y)
        with open(tmp, "wb") as f:
            np.savez(f, **arrays)
        os.replace(tmp, path)
    except BaseException:
        _unlink(tmp)
        raise


def _load_arrays(path: Path):
    with np.load(path, allow_pickle=False) as z:
        if str(z["format"]) == "csr":
            X = sp.csr_matrix((z["data"], z["indices"], z["indptr"]), shape=tuple(z["shape"]))
        else:
            X = z["X"]
        return X, z["y"]


def _load_raw(src, subset, home, timeout, progress, download):
    """Fetch, verify and parse the files of ``src``; returns (X, y, file digests)."""
    files = _needed_files(src, subset)
    paths = [fetch_file(f, home, timeout=timeout, progress=progress, download=download) for f in files]
    digests = [f.sha256.lower() if f.sha256 else _read_record(p) for p, f in zip(paths, files)]
    key = hashlib.sha256(json.dumps([src.name, src.kind, subset, _PARSER_VERSION, digests]).encode()).hexdigest()
    processed = home / "processed"
    processed.mkdir(exist_ok=True)
    cached = processed / f"{src.name}{'-' + subset if subset else ''}-{key[:16]}.npz"
    if cached.exists():
        try:
            X, y = _load_arrays(cached)
            return X, y, digests
        except Exception:  # a damaged derived file is rebuilt from the verified raw files
            _unlink(cached)
    X, y = _PARSERS[src.kind](src, paths, subset)
    expected = src.shape.get(subset) if isinstance(src.shape, dict) else src.shape
    if expected is not None and tuple(X.shape) != tuple(expected):
        raise ValueError(f"{src.title}: the files parse to shape {X.shape}, expected {tuple(expected)}; "
                         "the source may have changed")
    _save_arrays(cached, X, y)
    return X, y, digests


# ----------------------------------------------------------------------------------------------- offline stand-ins
def _standin_duke(seed):
    """44 × 7129, dense, p >> n: 'co-expression' factors + noise, labels from a few informative genes."""
    rng = np.random.default_rng(seed)
    m, d, k = 44, 7129, 8
    scores = rng.standard_normal((m, k))
    loadings = rng.standard_normal((d, k)) * (rng.random((d, k)) < 0.2)
    X = scores @ loadings.T + 0.7 * rng.standard_normal((m, d))
    genes = rng.choice(d, 20, replace=False)
    s = X[:, genes] @ rng.standard_normal(20)
    y = np.where(s > np.median(s), 1.0, -1.0)
    return X, y, ("synthetic 44 × 7129 p ≫ n gene-expression-like set: 8 co-expression factors plus noise, "
                  "labels from 20 genes; no installed package ships a gene-expression set")


def _standin_arcene(seed):
    """100 × 10000, ~54% nonzero, nonnegative 'mass spectra': 7000 real features + 3000 random probes."""
    rng = np.random.default_rng(seed)
    m, d_real, d_probe, k = 100, 7000, 3000, 10
    Z = rng.standard_normal((m, k)) @ rng.standard_normal((k, d_real)) / np.sqrt(k) \
        + 0.5 * rng.standard_normal((m, d_real))
    probes = rng.standard_normal((m, d_probe))
    Z = np.hstack([Z, probes])
    t = np.quantile(Z, 0.46)
    X = np.round(1000.0 * np.maximum(Z - t, 0.0))
    support = rng.choice(d_real, 30, replace=False)
    s = X[:, support] @ rng.standard_normal(30)
    y = -np.ones(m)
    y[np.argsort(s)[-44:]] = 1.0  # 44 positive, 56 negative, as in ARCENE's training split
    return X, y, ("synthetic 100 × 10000 mass-spectrum-like set, 54% nonzero: 7000 correlated features and "
                  "3000 random probes")


def _standin_magic(seed):
    load_breast_cancer = require("sklearn.datasets", "the MAGIC04 stand-in", "sklearn").load_breast_cancer

    bc = load_breast_cancer()
    y = np.where(bc.target == 0, 1.0, -1.0)  # malignant = +1
    return np.asarray(bc.data, dtype=np.float64), y, "scikit-learn's breast-cancer data, 569 × 30"


def _standin_ccat(seed):
    """23149 × 47236 sparse, density ~0.16%, unit-norm tf-idf rows: the PGS chapter's text-like generator."""
    from .pgs import make_text_like

    X, y, _ = make_text_like(23149, seed=seed)
    return X, y, ("synthetic 23149 × 47236 text-like set (l1lab.data.pgs.make_text_like: two-topic "
                  "generative model, tf-idf rows of unit norm, density ~0.16%, about 47% positive)")


_STANDINS = {"duke": _standin_duke, "arcene": _standin_arcene, "magic04": _standin_magic, "ccat": _standin_ccat}


def offline_standin(name, seed=0, scale=True, augment_seed=0) -> Dataset:
    """A clearly labelled stand-in for data set ``name`` that needs no network.

    * DUKE: a synthetic 44 × 7129 p ≫ n set (8 'co-expression' factors plus noise, labels from 20 of the
      features): no installed package ships gene-expression data, and the point of DUKE in Section 4 is its
      shape (tiny m, large d, dense).
    * ARCENE: a synthetic 100 × 10 000 nonnegative set, 54% nonzero like ARCENE, whose last 3000 columns are
      random probes (ARCENE has 3000 such distractors).
    * MAGIC04 / MAGIC04S / MAGIC04D: scikit-learn's bundled breast-cancer data (569 × 30), with the same
      1000-feature augmentation for S and D.
    * CCAT: :func:`l1lab.data.pgs.make_text_like` with 23 149 documents: a generative two-topic text model
      with CCAT's shape (47 236 features, density ~0.16%, about 47% positive, unit-norm tf-idf rows).

    The result has ``offline=True`` and ``label`` "offline stand-in for <NAME> (...)".
    """
    name = _check_name(name)
    check_seed(seed, "seed")
    check_seed(augment_seed, "augment_seed")
    base = "magic04" if name in _AUGMENT else name
    X, y, what = _STANDINS[base](seed)
    info = {"standin_seed": seed, "scaled": bool(scale)}
    if scale:
        X = scale_features(X)
    if name in _AUGMENT:
        X = _augment(X, name, augment_seed)
        what += f" + 1000 {_AUGMENT_TEXT[name]} features"
        info["augment_seed"] = augment_seed
    if base == "magic04":
        what += ", malignant = +1"
    label = f"offline stand-in for {name.upper()} ({what})"
    return Dataset(name=name, X=X, y=y, label=label, offline=True, source=what, info=info)


_AUGMENT_TEXT = {"magic04s": "sparse random 0/1 (P[1] = 0.05)", "magic04d": "random ±1"}


def _augment(X, name, seed):
    return add_random_features(X, n_extra=1000, kind=_AUGMENT[name], prob=0.05, seed=seed)


# ----------------------------------------------------------------------------------------------- the loader
def _check_name(name):
    key = name.strip().lower() if isinstance(name, str) else None
    if key not in NAMES:
        raise ValueError(f"unknown data set name {name!r}; choose one of {', '.join(NAMES)}")
    return key


def load_dataset(name, *, allow_offline=False, scale=True, augment_seed=0, subset="train", data_dir=None,
                 download=True, timeout=30.0, progress=None) -> Dataset:
    """Load one of the paper's data sets, downloading and verifying it on first use.

    Parameters
    ----------
    name : "duke", "arcene", "magic04", "magic04s", "magic04d" or "ccat" (case-insensitive)
    allow_offline : if the files are neither cached nor downloadable, return :func:`offline_standin` (with a
        warning, ``offline=True`` and an "offline stand-in for ..." label) instead of raising
    scale : divide every column by its largest absolute value so features lie in [-1, 1] (the papers'
        assumption); MAGIC04S/D scale the MAGIC columns before appending the random features
    augment_seed : seed of the 1000 random features of MAGIC04S/D
    subset : CCAT only: "train" (23 149 documents), "test" (781 265) or "all" (804 414)
    data_dir : cache directory (default :func:`data_home`: ``$L1LAB_DATA`` or ``~/.cache/l1lab``)
    download : if False, use cached files only
    timeout : seconds to wait on the network before giving up
    progress : show a download progress bar (None: only on a terminal and after a second)

    Returns
    -------
    Dataset

    Raises
    ------
    DataUnavailableError
        files missing and not downloadable, and ``allow_offline`` is False (one sentence says which and why)
    ChecksumError
        a file does not match its pinned or recorded SHA-256 (never replaced by a stand-in)
    ValueError
        unknown name or subset, or a file that does not parse to the expected shape
    """
    name = _check_name(name)
    check_seed(augment_seed, "augment_seed")
    check_path(data_dir, "data_dir", allow_none=True)
    check_positive(timeout, "timeout (seconds)")
    if subset not in _RCV1_SUBSETS:
        raise ValueError(f"subset must be 'train', 'test' or 'all', got {subset!r}")
    base = "magic04" if name in _AUGMENT else name
    src = SOURCES[base]
    home = data_home(data_dir)
    try:
        X, y, digests = _load_raw(src, subset if src.kind == "rcv1" else None, home, timeout, progress, download)
    except DataUnavailableError as e:
        if not allow_offline:
            raise DataUnavailableError(
                f"{name.upper()} is unavailable: {e}; pass allow_offline=True for a labelled offline "
                "stand-in") from e
        warnings.warn(f"{name.upper()} is unavailable ({e}); using an offline stand-in, labelled as such",
                      stacklevel=2)
        return offline_standin(name, scale=scale, augment_seed=augment_seed)
    info = {"files": {f.name: dg for f, dg in zip(_needed_files(src, subset), digests)},
            "verification": {f.name: ("pinned: " + f.sha256_source) if f.sha256 else "trust on first use"
                             for f in _needed_files(src, subset)},
            "scaled": bool(scale)}
    if scale:
        X = scale_features(X)
    what = src.title
    if src.kind == "rcv1":
        what += f", {subset} split"
        info["subset"] = subset
    if name in _AUGMENT:
        X = _augment(X, name, augment_seed)
        what = f"UCI MAGIC gamma telescope + 1000 {_AUGMENT_TEXT[name]} features"
        info["augment_seed"] = augment_seed
    label = f"{name.upper()} ({what}, {X.shape[0]} × {X.shape[1]})"
    source = " ".join(f.url for f in _needed_files(src, subset))
    return Dataset(name=name, X=X, y=y, label=label, offline=False, source=source, info=info)


def load_paper_datasets(names=PAPER_DATASETS, **kwargs) -> dict:
    """``{name: load_dataset(name, **kwargs)}`` for the data sets of Section 4 (DUKE, ARCENE, MAGIC04S, MAGIC04D),
    in that order; e.g. ``load_paper_datasets(allow_offline=True)`` for a chapter that must build without
    network."""
    return {str(n).lower(): load_dataset(n, **kwargs) for n in names}
