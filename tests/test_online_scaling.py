"""The "log d miracle" of Kakade, Foster & Even-Dar (2008), measured.

Setting (l1lab.book.exponentiated's sparse logistic teacher): x uniform on {-1, +1}^d, p = 2 relevant
coordinates with weights +-2, labels from the logistic model, so that w* minimizes the risk and F1 = ||w*||_1 = 4,
F2 = ||w*||_2 = 2 sqrt(2), G_inf = 1, G2 = sqrt(d).  SMG (Theorem 2.3's step, 2d + 1 coordinates) and SG with l2
projection (Theorem 2.1's step) make one pass over a fresh stream; the number of samples needed is the first
horizon T at which the median over seeds of the excess risk of the averaged decision is <= 0.15.

From d = 10^2 to d = 10^4 the bounds predict growth by log(20001)/log(201) = 1.87 for SMG and by 100 for SG.
Measured with these seeds: SMG about 2.2 (the multiplicative warm-up adds a factor log(d/p)/sqrt(log d) over
the bound's shape), SG more than 10 (it has not reached the target within ten times the samples it needed at
d = 10^2; at d = 10^3 it already needs about 10 times more).  With the chapter's five seeds and d up to 10^5:
SMG needs 689, 1117, 1422 and 1801 samples at d = 10^2 ... 10^5 (a factor 2.6 over three decades).
"""
import math

import numpy as np

from l1lab.book import exponentiated as ew

EPS, P, BETA, SEEDS = 0.15, 2, 2.0, 4


def test_bounds_predict_log_d_for_smg_and_d_for_sg():
    lo, hi = ew.teacher_constants(100, P, BETA), ew.teacher_constants(10_000, P, BETA)
    assert math.isclose(hi.bound_samples("SMG", EPS) / lo.bound_samples("SMG", EPS),
                        math.log(20_001) / math.log(201))
    assert math.isclose(hi.bound_samples("SG", EPS) / lo.bound_samples("SG", EPS), 100.0)


def test_samples_needed_grow_like_log_d_for_smg_and_like_d_for_sg():
    lo = ew.horizon_runs(100, P, BETA, n_seeds=SEEDS, T_max=1_500)
    smg_lo, _ = lo.samples_needed("SMG", EPS)
    sg_lo, _ = lo.samples_needed("SG", EPS)
    assert math.isfinite(smg_lo) and math.isfinite(sg_lo)
    # the stream at d = 10^4 is long enough for SMG and for 10x the samples SG needed at d = 10^2
    T_hi = max(2_000, int(math.ceil(10 * sg_lo)))
    hi = ew.horizon_runs(10_000, P, BETA, n_seeds=SEEDS, T_max=T_hi)
    smg_hi, _ = hi.samples_needed("SMG", EPS)
    growth = smg_hi / smg_lo
    assert 1.3 < growth < 3.0, f"SMG needed {smg_lo:.0f} samples at d = 100 and {smg_hi:.0f} at d = 10^4"
    # SG: the median excess risk stays above eps for every horizon up to 10x what d = 100 needed
    assert hi.grid[-1] >= 10 * sg_lo
    assert math.isinf(hi.samples_needed("SG", EPS)[0])
    assert np.all(hi.median("SG") > EPS)
