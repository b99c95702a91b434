"""Result files (l1lab.data.results): written with their fingerprint, read only when it matches, downloaded from the
book's site on a miss (a local HTTP server stands in for it), listed in the build's manifest and published; the
three users: RADAR's paper-size trials, the sweeps of Section 4 and the projections' synthetic experiment."""
import functools
import http.server
import threading
from pathlib import Path

import numpy as np
import pytest

from l1lab.data import real, results
from l1lab.data.real import Dataset


@pytest.fixture
def home(tmp_path, monkeypatch):
    """An empty data home, no downloads, no manifest, no recompute request."""
    h = tmp_path / "home"
    monkeypatch.setenv("L1LAB_DATA", str(h))
    monkeypatch.setenv("L1LAB_RESULTS_URL", "")
    monkeypatch.delenv("L1LAB_RESULTS_MANIFEST", raising=False)
    monkeypatch.delenv("L1LAB_RECOMPUTE", raising=False)
    monkeypatch.delenv("L1LAB_OFFLINE", raising=False)
    real.forget_unreachable_hosts()
    return h


@pytest.fixture
def site(tmp_path, monkeypatch):
    """A directory served over HTTP on localhost, set as the results URL."""
    root = tmp_path / "site"
    root.mkdir()
    handler = functools.partial(_QuietHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    monkeypatch.setenv("L1LAB_RESULTS_URL", f"http://127.0.0.1:{server.server_address[1]}/")
    yield root
    server.shutdown()
    server.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


ARRAYS = {"x": np.arange(5.0), "label": np.array("squared"), "n": np.array(7)}


def _same(a, b):
    assert set(a) == set(b)
    for k in a:
        np.testing.assert_array_equal(a[k], b[k])


def test_a_result_is_read_back_only_with_its_fingerprint(home):
    results.save("kind/abc.npz", "fp-1", ARRAYS)
    _same(results.load("kind/abc.npz", "fp-1"), ARRAYS)
    assert results.load("kind/abc.npz", "fp-1", recompute=True) is None
    assert results.load("kind/abc.npz", "fp-2") is None          # another fingerprint: never served ...
    assert not (home / "kind/abc.npz").exists()                   # ... and removed
    assert results.load("kind/none.npz", "fp-1") is None


def test_a_damaged_file_is_recomputed_and_the_reader_can_ask_to_recompute(home, monkeypatch):
    results.save("kind/abc.npz", "fp", ARRAYS)
    path = home / "kind/abc.npz"
    path.write_bytes(path.read_bytes()[:40])
    assert results.load("kind/abc.npz", "fp") is None and not path.exists()
    results.save("kind/abc.npz", "fp", ARRAYS)
    monkeypatch.setenv("L1LAB_RECOMPUTE", "1")
    assert results.load("kind/abc.npz", "fp") is None
    monkeypatch.setenv("L1LAB_RECOMPUTE", "0")
    assert results.load("kind/abc.npz", "fp") is not None


def test_a_result_holds_numbers_never_code(home):
    results.save("kind/abc.npz", "fp", ARRAYS)
    with np.load(home / "kind/abc.npz", allow_pickle=False) as z:      # would raise on an object array
        assert sorted(z.files) == ["_meta", "label", "n", "x"]


def test_a_miss_downloads_the_published_copy(home, site):
    published = site / "kind" / "abc.npz"
    results.save("kind/abc.npz", "fp", ARRAYS)                   # made by "the build" ...
    published.parent.mkdir(parents=True)
    (home / "kind/abc.npz").rename(published)                     # ... and published; the reader has none
    _same(results.load("kind/abc.npz", "fp"), ARRAYS)
    assert (home / "kind/abc.npz").exists()                       # kept for the next time
    published.unlink()
    _same(results.load("kind/abc.npz", "fp"), ARRAYS)             # read locally now


def test_a_published_file_with_another_fingerprint_or_none_is_not_used(home, site):
    results.save("kind/abc.npz", "old", ARRAYS)
    (site / "kind").mkdir()
    (home / "kind/abc.npz").rename(site / "kind/abc.npz")
    assert results.load("kind/abc.npz", "new") is None            # the code changed since the build
    assert not (home / "kind/abc.npz").exists()
    assert results.load("kind/missing.npz", "new") is None        # HTTP 404


def test_an_unreachable_site_is_tried_once(home, monkeypatch):
    import socket

    with socket.socket() as s:                                    # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setenv("L1LAB_RESULTS_URL", f"http://127.0.0.1:{port}/")
    assert results.load("kind/a.npz", "fp") is None
    assert f"127.0.0.1:{port}" in real._UNREACHABLE
    monkeypatch.setenv("L1LAB_OFFLINE", "1")
    assert results.fetch("kind/b.npz") is None


def test_the_manifest_lists_what_was_read_or_written_and_publish_copies_it(home, tmp_path, monkeypatch):
    manifest = tmp_path / "manifest"
    monkeypatch.setenv("L1LAB_RESULTS_MANIFEST", str(manifest))
    results.save("a/one.npz", "fp", ARRAYS)
    results.save("b/two.npz", "fp", ARRAYS)
    results.load("a/one.npz", "fp")
    results.load("a/none.npz", "fp")
    assert manifest.read_text().split() == ["a/one.npz", "b/two.npz", "a/one.npz"]
    out = tmp_path / "html" / "_static" / "results"
    assert results.publish(manifest, out) == ["a/one.npz", "b/two.npz"]
    assert (out / "a/one.npz").read_bytes() == (home / "a/one.npz").read_bytes()


def test_the_build_keeps_a_manifest_publishes_it_and_downloads_nothing():
    text = (Path(__file__).resolve().parents[1] / "_ext" / "build_book.py").read_text(encoding="utf-8")
    assert 'os.environ["L1LAB_RESULTS_MANIFEST"]' in text and 'os.environ["L1LAB_RESULTS_URL"] = ""' in text
    assert 'publish(manifest, html / "_static" / "results")' in text


def test_the_code_fingerprint_follows_the_source():
    one = results.code_fingerprint(("problem.py",))
    assert one == results.code_fingerprint(("problem.py",)) != results.code_fingerprint(("losses.py",))
    assert len(results.code_fingerprint()) == 20


# ------------------------------------------------------------------------------------------------ the users
def test_radar_trials_round_trip_bit_for_bit(home):
    from l1lab.book import radar as rw

    key = rw._key("RADAR", 50, 200, 0.0, 0, None, rw.CONST_LAM)
    record = rw._compute([key])[0]
    rw._disk_store(key, record)
    back = rw._disk_load(key)
    assert back.method == record.method and back.s == record.s and back.norm2_sq == record.norm2_sq
    for f in rw._RECORD_ARRAYS:
        np.testing.assert_array_equal(getattr(back, f), getattr(record, f))
        assert getattr(back, f).dtype == getattr(record, f).dtype
    other = rw._key("RADAR", 50, 200, 0.0, 1, None, rw.CONST_LAM)
    assert rw._disk_load(other) is None


def test_projections_synthetic_curves_are_stored_and_read(home, monkeypatch, tmp_path):
    from l1lab.book import projections as wp

    manifest = tmp_path / "manifest"
    monkeypatch.setenv("L1LAB_RESULTS_MANIFEST", str(manifest))
    monkeypatch.setattr(wp, "SYNTHETIC_STORED_FROM", 200)
    wp.synthetic_curves.cache_clear()
    computed = wp.synthetic_curves(n=200, loss="logistic", passes=20)
    (stored,) = manifest.read_text().split()
    assert stored.startswith("projections-synthetic/")
    wp.synthetic_curves.cache_clear()
    monkeypatch.setattr(wp, "synthetic_data", lambda *a, **k: pytest.fail("recomputed"))
    read = wp.synthetic_curves(n=200, loss="logistic", passes=20)
    wp.synthetic_curves.cache_clear()
    for k in computed.gaps:
        np.testing.assert_array_equal(read.gaps[k], computed.gaps[k])
        np.testing.assert_array_equal(read.flops[k], computed.flops[k])
    assert (read.loss, read.budget, read.betas, read.f_star, read.z, read.n, read.w_nnz) == (
        computed.loss, computed.budget, computed.betas, computed.f_star, computed.z, computed.n, computed.w_nnz)


def test_sweeps_in_the_default_cache_are_listed_and_downloaded(home, site, tmp_path, monkeypatch):
    from l1lab.experiments import run_sweep

    rng = np.random.default_rng(0)
    X = rng.uniform(-1, 1, (30, 8))
    ds = Dataset.from_arrays("tiny", X, np.where(X[:, 0] > 0, 1.0, -1.0))
    manifest = tmp_path / "manifest"
    monkeypatch.setenv("L1LAB_RESULTS_MANIFEST", str(manifest))
    first = run_sweep(ds, solvers=("scd",), lams=(0.01,), epochs=1.0, n_checkpoints=4, progress=False)
    (name,) = set(manifest.read_text().split())
    assert name.startswith("sweeps/") and first.n_computed == 1
    (site / name).parent.mkdir(parents=True)
    (home / name).rename(site / name)                                 # published; this reader has none
    again = run_sweep(ds, solvers=("scd",), lams=(0.01,), epochs=1.0, n_checkpoints=4, progress=False)
    assert again.n_cached == 1 and again.n_computed == 0
    np.testing.assert_array_equal(again.records[0].result.w, first.records[0].result.w)
    monkeypatch.setenv("L1LAB_RECOMPUTE", "1")
    assert run_sweep(ds, solvers=("scd",), lams=(0.01,), epochs=1.0, n_checkpoints=4, progress=False).n_computed == 1


@pytest.mark.parametrize("relpath", ["../outside.npz", "/abs/x.npz", "a//b.npz", "a/./b.npz", "a\\b.npz", ""])
def test_a_result_path_stays_inside_the_data_home(home, relpath):
    with pytest.raises(ValueError, match="relpath must be a relative path"):
        results.save(relpath, "fp", ARRAYS)
    with pytest.raises(ValueError, match="relpath must be a relative path"):
        results.load(relpath, "fp")


def test_a_manifest_entry_leaving_the_data_home_is_refused(home, tmp_path):
    manifest = tmp_path / "manifest"
    manifest.write_text("ok/one.npz\n../../etc/passwd\n")
    with pytest.raises(ValueError, match="manifest's entry"):
        results.publish(manifest, tmp_path / "out")


def test_many_published_files_are_downloaded_together(home, site):
    names = [f"kind/f{i}.npz" for i in range(6)]
    for i, name in enumerate(names):
        results.save(name, f"fp{i}", {"i": np.array(i)})
    (site / "kind").mkdir()
    for name in names[1:]:
        (home / name).rename(site / name)
    assert results.fetch_many(names + names[:2], workers=3) == 5      # the one at home is not fetched again
    for i, name in enumerate(names):
        assert int(results.load(name, f"fp{i}")["i"]) == i
    assert results.fetch_many(names) == 0


def test_many_files_from_an_unreachable_site_cost_one_attempt(home, monkeypatch):
    import socket
    import time

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setenv("L1LAB_RESULTS_URL", f"http://127.0.0.1:{port}/")
    t = time.perf_counter()
    assert results.fetch_many([f"kind/f{i}.npz" for i in range(50)]) == 0
    assert time.perf_counter() - t < 5.0
