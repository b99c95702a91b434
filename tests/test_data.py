"""l1lab.data.real: download, verification, atomic caching, parsing, scaling and offline stand-ins.

Every download goes to an HTTP server on loopback that serves the tiny files of tests/fixtures/ (same formats as
the real sources); an autouse fixture makes any other URL fail, so these tests never touch the network.
"""
import bz2
import hashlib
import socket
import threading
import time
import urllib.parse
import urllib.request
import warnings
from dataclasses import replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

import l1lab
from l1lab.data import add_random_features, scale_features
from l1lab.data import real as dr

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# ------------------------------------------------------------------------------------------ loopback server
class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):  # noqa: N802 (http.server API)
        srv = self.server
        srv.hits.append(self.path)
        entry = srv.routes.get(self.path)
        if entry is None:
            self.send_error(404, "no such fixture")
            return
        body, mode = entry
        self.send_response(200)
        if not mode.startswith("nolength"):
            self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        if mode in ("truncate", "nolength-truncate"):
            self.wfile.write(body[: len(body) // 2])  # then close the connection mid-body
        else:
            self.wfile.write(body)
        self.wfile.flush()
        self.close_connection = True

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def server():
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    httpd.routes, httpd.hits = {}, []
    httpd.daemon_threads = True
    t = threading.Thread(target=httpd.serve_forever, daemon=True)
    t.start()
    httpd.base = f"http://127.0.0.1:{httpd.server_address[1]}"
    yield httpd
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture
def srv(server):
    server.routes.clear()
    server.hits.clear()

    def serve(name, body=None, mode="ok"):
        body = (FIXTURES / name).read_bytes() if body is None else body
        server.routes["/" + name] = (body, mode)
        return f"{server.base}/{name}", body

    server.serve = serve
    return server


@pytest.fixture(autouse=True)
def loopback_only(monkeypatch, tmp_path):
    """No test may reach beyond 127.0.0.1, and none may use the user's cache."""
    real = urllib.request.urlopen

    def guarded(req, *args, **kwargs):
        url = req.full_url if isinstance(req, urllib.request.Request) else req
        host = urllib.parse.urlsplit(url).hostname
        if host != "127.0.0.1":
            raise AssertionError(f"a test tried to reach {url}")
        return real(req, *args, **kwargs)

    monkeypatch.setattr(urllib.request, "urlopen", guarded)
    monkeypatch.setenv("L1LAB_DATA", str(tmp_path / "cache"))
    monkeypatch.delenv("L1LAB_OFFLINE", raising=False)
    dr.forget_unreachable_hosts()
    yield
    dr.forget_unreachable_hosts()


def cache_files(home: Path):
    return sorted(p.name for p in home.iterdir() if p.is_file())


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def use_source(monkeypatch, name, files, **changes):
    monkeypatch.setitem(dr.SOURCES, name, replace(dr.SOURCES[name], files=tuple(files), **changes))


# ------------------------------------------------------------------------------------------ cache directory
def test_data_home_env_and_default(monkeypatch, tmp_path):
    monkeypatch.setenv("L1LAB_DATA", str(tmp_path / "a"))
    assert dr.data_home() == tmp_path / "a" and (tmp_path / "a").is_dir()
    monkeypatch.delenv("L1LAB_DATA")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert dr.data_home() == tmp_path / "xdg" / "l1lab"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert dr.data_home() == tmp_path / "home" / ".cache" / "l1lab"
    assert dr.data_home(tmp_path / "explicit") == tmp_path / "explicit"


def test_real_sources_pin_only_published_checksums():
    pinned = {f.name: f for s in dr.SOURCES.values() for f in s.files if f.sha256}
    assert set(pinned) == {"magic04.data", "lyrl2004_vectors_train.dat.gz", "rcv1v2.topics.qrels.gz",
                           *(f"lyrl2004_vectors_test_pt{k}.dat.gz" for k in range(4))}
    for f in pinned.values():
        assert len(f.sha256) == 64 and int(f.sha256, 16) >= 0 and f.sha256_source
    # DUKE and ARCENE: no published SHA-256 -> trust on first use
    assert all(f.sha256 is None for n in ("duke", "arcene") for f in dr.SOURCES[n].files)


# ------------------------------------------------------------------------------------------ DUKE (svmlight, bz2)
def expected_duke():
    X = np.zeros((6, 12))
    rows = [(1, {1: -2.5, 3: 0.75, 12: 4}), (-1, {2: 1.5, 3: -0.25, 7: 2, 11: -1}), (1, {1: 0.5, 4: 3, 5: -3.5, 12: 1}),
            (-1, {6: 2.25, 8: -1, 9: 0.5}), (1, {1: 1, 2: -1, 10: 2, 12: -2}), (-1, {3: 1, 4: -0.5, 7: -4, 11: 0.25})]
    for i, (_, feats) in enumerate(rows):
        for j, v in feats.items():
            X[i, j - 1] = v
    return X, np.array([lab for lab, _ in rows], dtype=float)


def test_duke_downloads_parses_scales_and_records_trust_on_first_use(srv, monkeypatch, tmp_path):
    url, body = srv.serve("duke_tiny.bz2")
    use_source(monkeypatch, "duke", [dr.RemoteFile("duke.bz2", url)], n_features=12, shape=(6, 12))
    ds = dr.load_dataset("duke", progress=False)
    X_raw, y = expected_duke()
    assert not ds.offline and ds.label.startswith("DUKE (") and "6 × 12" in ds.label
    np.testing.assert_array_equal(ds.y, y)
    Xd = ds.X.toarray() if sp.issparse(ds.X) else ds.X
    np.testing.assert_allclose(Xd, X_raw / np.abs(X_raw).max(axis=0), rtol=0, atol=1e-15)
    assert np.abs(Xd).max() == 1.0
    home = tmp_path / "cache"
    assert cache_files(home) == ["duke.bz2", "duke.bz2.sha256"]
    assert (home / "duke.bz2.sha256").read_text() == f"{sha(body)}  duke.bz2\n"
    assert ds.info["verification"]["duke.bz2"] == "trust on first use"
    # a second load uses the cache: no request, same data
    n = len(srv.hits)
    ds2 = dr.load_dataset("duke")
    assert len(srv.hits) == n and ds2.fingerprint == ds.fingerprint
    # a damaged cached file is caught by the recorded hash
    (home / "duke.bz2").write_bytes(bz2.compress(b"1 1:1\n"))
    with pytest.raises(dr.ChecksumError, match="recorded on first download"):
        dr.load_dataset("duke")


def test_unscaled_load_keeps_raw_values(srv, monkeypatch):
    url, _ = srv.serve("duke_tiny.bz2")
    use_source(monkeypatch, "duke", [dr.RemoteFile("duke.bz2", url)], n_features=12, shape=(6, 12))
    ds = dr.load_dataset("duke", scale=False)
    np.testing.assert_array_equal(ds.X.toarray(), expected_duke()[0])
    with pytest.raises(ValueError, match="scale_features"):
        ds.problem(1e-2)


def test_file_copied_by_hand_is_trusted_and_recorded(srv, monkeypatch, tmp_path):
    use_source(monkeypatch, "duke", [dr.RemoteFile("duke.bz2", f"{srv.base}/nowhere.bz2")], n_features=12,
               shape=(6, 12))
    home = tmp_path / "cache"
    home.mkdir()
    body = (FIXTURES / "duke_tiny.bz2").read_bytes()
    (home / "duke.bz2").write_bytes(body)
    ds = dr.load_dataset("duke")
    assert srv.hits == [] and ds.m == 6
    assert (home / "duke.bz2.sha256").read_text().split()[0] == sha(body)


def test_shape_check_catches_a_changed_source(srv, monkeypatch):
    url, _ = srv.serve("duke_tiny.bz2")
    use_source(monkeypatch, "duke", [dr.RemoteFile("duke.bz2", url)], n_features=12, shape=(44, 7129))
    with pytest.raises(ValueError, match="expected"):
        dr.load_dataset("duke")


# ------------------------------------------------------------------------------------------ MAGIC (UCI csv, pinned)
def magic_raw():
    rows = [line.split(",") for line in (FIXTURES / "magic04_tiny.data").read_text().split()]
    return np.array([[float(v) for v in r[:10]] for r in rows]), np.array([1.0 if r[10] == "g" else -1.0 for r in rows])


def serve_magic(srv, monkeypatch, pin=None, mode="ok"):
    url, body = srv.serve("magic04_tiny.data", mode=mode)
    use_source(monkeypatch, "magic04",
               [dr.RemoteFile("magic04.data", url, sha(body) if pin is None else pin, "test fixture")],
               shape=(8, 10))
    return body


def test_magic_pinned_checksum_parse_and_labels(srv, monkeypatch, tmp_path):
    serve_magic(srv, monkeypatch)
    ds = dr.load_dataset("magic04")
    X_raw, y = magic_raw()
    np.testing.assert_array_equal(ds.y, y)
    np.testing.assert_allclose(ds.X, X_raw / np.abs(X_raw).max(axis=0), rtol=1e-15)
    assert ds.info["verification"]["magic04.data"] == "pinned: test fixture"
    assert cache_files(tmp_path / "cache") == ["magic04.data"]  # a pinned file needs no record


@pytest.mark.parametrize("name, kind", [("magic04s", "sparse"), ("magic04d", "dense")])
def test_magic_augmentations_reuse_add_random_features(srv, monkeypatch, name, kind):
    serve_magic(srv, monkeypatch)
    base = dr.load_dataset("magic04")
    ds = dr.load_dataset(name, augment_seed=7)
    assert ds.shape == (8, 1010) and ds.name == name and name.upper() in ds.label
    expected = add_random_features(base.X, n_extra=1000, kind=kind, prob=0.05, seed=7)
    got = ds.X.toarray() if sp.issparse(ds.X) else ds.X
    np.testing.assert_array_equal(got, expected.toarray() if sp.issparse(expected) else expected)
    extra = got[:, 10:]
    assert set(np.unique(extra)) <= ({0.0, 1.0} if kind == "sparse" else {-1.0, 1.0})
    assert dr.load_dataset(name, augment_seed=8).fingerprint != ds.fingerprint


def test_corrupted_download_is_an_error_and_caches_nothing(srv, monkeypatch, tmp_path):
    serve_magic(srv, monkeypatch, pin="0" * 64)
    for allow_offline in (False, True):  # a checksum mismatch is never replaced by a stand-in
        with pytest.raises(dr.ChecksumError, match="nothing was cached"):
            dr.load_dataset("magic04", allow_offline=allow_offline)
    assert cache_files(tmp_path / "cache") == []
    assert not list((tmp_path / "cache").glob("**/*.part"))


def test_interrupted_download_leaves_nothing_and_a_later_load_works(srv, monkeypatch, tmp_path):
    serve_magic(srv, monkeypatch, mode="truncate")
    with pytest.raises(dr.DataUnavailableError) as err:
        dr.load_dataset("magic04")
    assert "MAGIC04 is unavailable" in str(err.value) and "allow_offline=True" in str(err.value)
    assert cache_files(tmp_path / "cache") == []
    serve_magic(srv, monkeypatch)  # the server recovers
    assert dr.load_dataset("magic04").shape == (8, 10)


def test_truncated_stream_without_length_is_rejected_under_trust_on_first_use(srv, monkeypatch, tmp_path):
    url, _ = srv.serve("duke_tiny.bz2", mode="nolength-truncate")
    use_source(monkeypatch, "duke", [dr.RemoteFile("duke.bz2", url)], n_features=12, shape=(6, 12))
    with pytest.raises(dr.DataUnavailableError, match="incomplete or damaged"):
        dr.load_dataset("duke")
    assert cache_files(tmp_path / "cache") == []
    srv.serve("duke_tiny.bz2", mode="nolength")  # complete body, no Content-Length: accepted
    assert dr.load_dataset("duke").shape == (6, 12)


# ------------------------------------------------------------------------------------------ no network
def test_unreachable_source_fails_fast_with_one_sentence(monkeypatch, tmp_path):
    url = f"http://127.0.0.1:{free_port()}/duke.bz2"
    use_source(monkeypatch, "duke", [dr.RemoteFile("duke.bz2", url)], n_features=12, shape=(6, 12))
    t0 = time.perf_counter()
    with pytest.raises(dr.DataUnavailableError) as err:
        dr.load_dataset("duke", timeout=2.0)
    assert time.perf_counter() - t0 < 5.0
    msg = str(err.value)
    assert msg.startswith("DUKE is unavailable") and "allow_offline=True" in msg and "\n" not in msg
    assert cache_files(tmp_path / "cache") == []
    # the host is remembered as unreachable: the next load does not wait again
    with pytest.raises(dr.DataUnavailableError, match="unreachable earlier in this session"):
        dr.load_dataset("duke", timeout=2.0)
    dr.forget_unreachable_hosts()
    with pytest.raises(dr.DataUnavailableError, match="could not be downloaded"):
        dr.load_dataset("duke", timeout=2.0)


def test_paper_datasets_offline_and_the_datasets_module_entry_point(monkeypatch):
    for name in ("duke", "arcene", "magic04"):
        url = f"http://127.0.0.1:{free_port()}/{name}"
        src = dr.SOURCES[name]
        use_source(monkeypatch, name, [replace(f, url=url) for f in src.files])
    with pytest.warns(UserWarning):
        got = dr.load_paper_datasets(allow_offline=True, timeout=2.0)
    assert list(got) == ["duke", "arcene", "magic04s", "magic04d"]
    assert all(ds.offline and ds.label.startswith(f"offline stand-in for {n.upper()}") for n, ds in got.items())
    with pytest.warns(UserWarning):
        ds = l1lab.data.load_dataset("magic04d", allow_offline=True, timeout=2.0)
    assert ds.offline and ds.fingerprint == got["magic04d"].fingerprint


def test_http_error_is_unavailable(srv, monkeypatch):
    use_source(monkeypatch, "duke", [dr.RemoteFile("duke.bz2", f"{srv.base}/missing.bz2")], n_features=12)
    with pytest.raises(dr.DataUnavailableError, match="HTTP Error 404|404"):
        dr.load_dataset("duke")


def test_allow_offline_returns_a_flagged_standin_with_a_warning(monkeypatch):
    url = f"http://127.0.0.1:{free_port()}/magic04.data"
    use_source(monkeypatch, "magic04", [dr.RemoteFile("magic04.data", url, "0" * 64)], shape=(8, 10))
    with pytest.warns(UserWarning, match="offline stand-in"):
        ds = dr.load_dataset("magic04s", allow_offline=True, timeout=2.0)
    assert ds.offline and ds.label.startswith("offline stand-in for MAGIC04S (")
    assert "breast-cancer" in ds.label and ds.shape == (569, 1030) and "OFFLINE STAND-IN" in repr(ds)


def test_offline_env_uses_the_cache_only(srv, monkeypatch):
    serve_magic(srv, monkeypatch)
    monkeypatch.setenv("L1LAB_OFFLINE", "1")
    with pytest.raises(dr.DataUnavailableError, match="L1LAB_OFFLINE"):
        dr.load_dataset("magic04")
    assert srv.hits == []
    monkeypatch.delenv("L1LAB_OFFLINE")
    dr.load_dataset("magic04")
    monkeypatch.setenv("L1LAB_OFFLINE", "1")
    assert dr.load_dataset("magic04").shape == (8, 10)  # cached: fine offline
    monkeypatch.delenv("L1LAB_OFFLINE")
    with pytest.raises(dr.DataUnavailableError, match="download=False"):
        dr.load_dataset("duke", download=False)


# ------------------------------------------------------------------------------------------ ARCENE, CCAT
def test_arcene_two_files(srv, monkeypatch):
    u1, _ = srv.serve("arcene_tiny_train.data")
    u2, _ = srv.serve("arcene_tiny_train.labels")
    use_source(monkeypatch, "arcene", [dr.RemoteFile("arcene_train.data", u1),
                                       dr.RemoteFile("arcene_train.labels", u2)], shape=(5, 8))
    ds = dr.load_dataset("arcene", scale=False)
    raw = np.loadtxt(FIXTURES / "arcene_tiny_train.data")
    np.testing.assert_array_equal(ds.X, raw)
    np.testing.assert_array_equal(ds.y, [1, -1, 1, 1, -1])
    assert ds.density == pytest.approx(np.count_nonzero(raw) / raw.size)


def serve_ccat(srv, monkeypatch):
    files = [dr.RemoteFile("lyrl2004_vectors_train.dat.gz", srv.serve("lyrl_tiny_train.dat.gz")[0])]
    for k in range(4):
        url, body = srv.serve(f"lyrl_tiny_test_pt{k}.dat.gz")
        files.append(dr.RemoteFile(f"lyrl2004_vectors_test_pt{k}.dat.gz", url, sha(body), "fixture"))
    url, body = srv.serve("rcv1v2_tiny.topics.qrels.gz")
    files.append(dr.RemoteFile("rcv1v2.topics.qrels.gz", url, sha(body), "fixture"))
    use_source(monkeypatch, "ccat", files, n_features=20,
               shape={"train": (4, 20), "test": (5, 20), "all": (9, 20)})


def test_ccat_train_subset_fetches_only_what_it_needs(srv, monkeypatch):
    serve_ccat(srv, monkeypatch)
    ds = dr.load_dataset("ccat", scale=False)
    assert sorted(srv.hits) == ["/lyrl_tiny_train.dat.gz", "/rcv1v2_tiny.topics.qrels.gz"]
    np.testing.assert_array_equal(ds.y, [1, -1, 1, -1])
    X = ds.X.toarray()
    assert X.shape == (4, 20) and X[0, 2] == 0.5 and X[0, 19] == 0.8 and X[3, 3] == 1.0
    assert "train split" in ds.label


def test_ccat_all_subset(srv, monkeypatch):
    serve_ccat(srv, monkeypatch)
    ds = dr.load_dataset("ccat", subset="all")
    np.testing.assert_array_equal(ds.y, [1, -1, 1, -1, -1, 1, -1, 1, -1])
    assert sp.issparse(ds.X) and ds.shape == (9, 20) and abs(ds.X).max() == 1.0
    with pytest.raises(ValueError, match="subset"):
        dr.load_dataset("ccat", subset="valid")


def test_processed_arrays_are_reused(srv, monkeypatch):
    serve_magic(srv, monkeypatch)
    first = dr.load_dataset("magic04")

    def boom(*a, **k):
        raise AssertionError("parsed again")

    monkeypatch.setitem(dr._PARSERS, "magic", boom)
    assert dr.load_dataset("magic04").fingerprint == first.fingerprint


# ------------------------------------------------------------------------------------------ misc
def test_unknown_name():
    with pytest.raises(ValueError, match="choose one of duke, arcene"):
        dr.load_dataset("iris")


@pytest.mark.parametrize("name, shape", [("duke", (44, 7129)), ("arcene", (100, 10000)), ("magic04", (569, 30)),
                                         ("magic04d", (569, 1030)), ("ccat", (23149, 47236))])
def test_standins_are_flagged_bounded_and_deterministic(name, shape):
    ds = dr.offline_standin(name)
    assert ds.offline and ds.label.startswith(f"offline stand-in for {name.upper()} (") and ds.shape == shape
    vals = ds.X.data if sp.issparse(ds.X) else ds.X
    assert np.abs(vals).max() <= 1.0 and set(np.unique(ds.y)) == {-1.0, 1.0}
    assert 0.3 < np.mean(ds.y > 0) < 0.7
    if name != "ccat":
        assert dr.offline_standin(name).fingerprint == ds.fingerprint
    if name == "arcene":
        assert ds.density == pytest.approx(0.54, abs=0.01)


def test_dataset_from_arrays_problem_and_fingerprint(small_classification):
    X, y = small_classification
    ds = dr.Dataset.from_arrays("toy", X, y)
    p = ds.problem(1e-2)
    assert isinstance(p, l1lab.Problem) and p.loss.name == "logistic" and p.lam == 1e-2
    X2 = X.copy()
    X2[0, 0] = -X2[0, 0]
    assert dr.Dataset.from_arrays("toy", X2, y).fingerprint != ds.fingerprint
    assert dr.Dataset.from_arrays("toy", sp.csr_matrix(X), y).fingerprint != ds.fingerprint  # storage counts
    with pytest.raises(ValueError, match="rows"):
        dr.Dataset.from_arrays("bad", X, y[:-1])


def test_read_svmlight_plain_and_compressed(tmp_path):
    text = (FIXTURES / "duke_tiny.bz2").read_bytes()
    (tmp_path / "plain.txt").write_bytes(bz2.decompress(text))
    Xa, ya = dr.read_svmlight(tmp_path / "plain.txt", n_features=12)
    Xb, yb = dr.read_svmlight(FIXTURES / "duke_tiny.bz2", n_features=12)
    assert (Xa != Xb).nnz == 0 and np.array_equal(ya, yb)
    np.testing.assert_array_equal(Xa.toarray(), expected_duke()[0])


def test_scaled_real_data_builds_a_problem(srv, monkeypatch):
    serve_magic(srv, monkeypatch)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ds = dr.load_dataset("magic04")
    p = ds.problem(1e-3)
    np.testing.assert_allclose(p.X, scale_features(magic_raw()[0]))
