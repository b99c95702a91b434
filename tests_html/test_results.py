"""The lectures' paper-size results published with the built book (``_build/html/_static/results/``, see
:mod:`l1lab.data.results`), from where a live reader's l1lab downloads them instead of computing for a minute:
the three kinds the lectures store are there, each file holds numbers only and its fingerprint, and the set is
small next to the site."""
import json

import numpy as np
from conftest import HTML

RESULTS = HTML / "_static" / "results"


def test_the_build_publishes_the_paper_size_results():
    files = sorted(RESULTS.rglob("*.npz"))
    kinds = {f.relative_to(RESULTS).parts[0] for f in files}
    # RADAR's trials at d = 40 000 (radar_const, radar_epochs), the sweeps of Section 4 (experiments_claims and
    # its companions), the projections' synthetic experiment at n = 4000 (projections_sparse_experiments)
    assert {"radar-trials", "sweeps", "projections-synthetic"} <= kinds, (
        f"published result files of {sorted(kinds)} only: the build lists the files its notebooks read or write "
        "(_build/.results-manifest), so a build whose execution cache skipped those notebooks from before the list "
        "was kept publishes none of theirs; build once from a clean _build")
    for f in files:
        with np.load(f, allow_pickle=False) as z:                 # numbers, never code
            meta = json.loads(str(z["_meta" if "_meta" in z.files else "meta"]))
            assert meta, f
    size = sum(f.stat().st_size for f in files)
    assert size < 50e6, f"{size / 1e6:.1f} MB of result files"
