"""RADAR, EDA, RDA and l1-ball SGD (l1lab.solvers.dual_averaging) against independent computations."""
import math

import numpy as np
import pytest
from scipy.optimize import minimize

from l1lab import Problem
from l1lab.data import make_classification
from l1lab.data import radar as rd
from l1lab.links import link_inverse
from l1lab.projections import l1_ball_threshold, project_l1_ball
from l1lab.solvers import _da_kernels as K
from l1lab.solvers import dual_averaging as da
from l1lab.theory import agarwal2012 as th


def pnorm(v, p):
    return float(np.sum(np.abs(v) ** p) ** (1.0 / p))


def example2(stream):
    """Example 2's constants for a UniformDesignStream: G(R), sigma(R), gamma."""
    rho = stream.sigma2
    return dict(G=lambda R: th.example2_G(R, rho), sigma=lambda R: th.example2_sigma(R, rho, stream.B,
                math.sqrt(stream.noise_var)), gamma=th.example2_gamma(rho))


class Recorder:
    """Wraps a sampler and keeps every sample it hands out, in order."""

    def __init__(self, sampler):
        self.sampler, self.X, self.y = sampler, [], []
        self.d = sampler.d
        self.theta_star = sampler.theta_star

    def __call__(self, rng, n):
        X, y = self.sampler(rng, n)
        self.X.append(X)
        self.y.append(y)
        return X, y

    def samples(self):
        return np.vstack(self.X), np.concatenate(self.y)


# ------------------------------------------------------------------------------------- update (6)
def objective_4(theta, mu, y, R, alpha, p):
    return alpha * mu @ theta + pnorm(theta - y, p) ** 2 / (2 * R * R * (p - 1))


@pytest.mark.parametrize("d,p", [(5, None), (7, None), (6, 1.5), (8, "rounded")])
def test_update_6_is_the_numerical_argmin_of_4(d, p):
    p = th.prox_exponent(d) if p is None else th.prox_exponent(d, rounded=True) if p == "rounded" else p
    rng = np.random.default_rng(d)
    cases = {"interior": 0, "boundary": 0}
    for k in range(12):
        mu = rng.standard_normal(d) * rng.choice([0.1, 1.0, 10.0])
        y = rng.standard_normal(d)
        R = rng.uniform(0.2, 3.0)
        alpha = rng.choice([0.01, 0.3, 3.0])
        closed = da.radar_update(mu, y, R, alpha, p)
        cons = {"type": "ineq", "fun": lambda t: R - pnorm(t - y, p)}
        best = None
        for start in (y, y - 0.5 * R * np.sign(mu) / d ** (1 / p), closed + 0.1 * rng.standard_normal(d)):
            res = minimize(objective_4, start, args=(mu, y, R, alpha, p), method="SLSQP", constraints=[cons],
                           options={"ftol": 1e-14, "maxiter": 500})
            x = y + (res.x - y) * min(1.0, R / pnorm(res.x - y, p))  # SLSQP may overstep the sphere by ~1e-8
            if best is None or objective_4(x, mu, y, R, alpha, p) < objective_4(best, mu, y, R, alpha, p):
                best = x
        f_closed, f_num = objective_4(closed, mu, y, R, alpha, p), objective_4(best, mu, y, R, alpha, p)
        assert pnorm(closed - y, p) <= R * (1 + 1e-12)
        assert f_closed <= f_num + 1e-9 * (1 + abs(f_num))
        np.testing.assert_allclose(closed, best, atol=2e-4 * (1 + R))
        cases["boundary" if pnorm(closed - y, p) > R * (1 - 1e-9) else "interior"] += 1
    assert cases["interior"] > 0 and cases["boundary"] > 0, cases


def test_powers_match_numpy():
    """The vectorized power of the kernels: relative error at most 3e-16 (|log u^e| + 4) -- a few ulps for the
    entries that matter (u near 1), 2.2e-13 at worst -- where the result is a normal number; 0 for 0 and flushed
    to 0 below ~1e-307."""
    rng = np.random.default_rng(0)
    u = np.concatenate([rng.random(3000), 10 ** rng.uniform(-330, 3, 3000), [0.0, 1.0, 0.5, 5e-324, 2.0 ** -1022]])
    ib = np.zeros(u.size, dtype=np.int64)
    for e in (1.0, 1.05, 2.0, math.e, 14.2, 20.19, 37.0):
        out = np.empty_like(u)
        K.powers(u, e, out, ib)
        with np.errstate(under="ignore", over="ignore"):
            ref = u ** e
        big = (ref > 1e-300) & np.isfinite(ref) & (u < 1e300 ** (1 / e))
        rel = np.abs(out[big] / ref[big] - 1)
        assert np.all(rel <= 3e-16 * (np.abs(np.log(ref[big])) + 4)), (e, rel.max())
        assert np.all(out[ref <= 1e-300] <= 1e-300) and out[u == 0].max() == 0.0
        same = u.copy()
        K.powers(same, e, same, ib)  # in place
        np.testing.assert_array_equal(same, out)


def test_update_6_kernel_matches_closed_form():
    d = 200
    rng = np.random.default_rng(0)
    p = th.prox_exponent(d)
    q = p / (p - 1)
    scratch = (np.zeros(d), np.zeros(d), np.zeros(d, dtype=np.int64))
    for size in (1e-200, 1.0, 1e200):
        mu = rng.standard_normal(d) * size
        y = rng.standard_normal(d)
        theta, tsum, nu = np.zeros(d), np.zeros(d), np.zeros(d)
        for alpha in (1e-3 / size, 10.0 / size):
            ratio = K.radar_step(theta, mu.copy(), nu, y, tsum, *scratch, 0.0, alpha, 1.5, q, 1 / (q - 1))
            ref = da.radar_update(mu, y, 1.5, alpha, p)
            np.testing.assert_allclose(theta, ref, rtol=1e-11, atol=1e-13)
            assert ratio == pytest.approx(pnorm(theta - y, p) / 1.5, rel=1e-10)
            np.testing.assert_array_equal(nu, np.sign(theta))
    # the l1 sub-gradient enters as mu + lam nu
    nu = np.sign(rng.standard_normal(d))
    mu = rng.standard_normal(d)
    theta = np.zeros(d)
    K.radar_step(theta, mu.copy(), nu.copy(), y, np.zeros(d), *scratch, 0.7, 0.01, 2.0, q, 1 / (q - 1))
    np.testing.assert_allclose(theta, da.radar_update(mu + 0.7 * nu, y, 2.0, 0.01, p), rtol=1e-11, atol=1e-13)


# ------------------------------------------------------------------------ a plain numpy Algorithm 1
def numpy_radar(X, y, loss_deriv, R1, lam_of, alpha_of, p, n_iter, length=None, theta_star=None):
    """Algorithm 1 written directly: update (4) by radar_update, epochs of fixed ``length`` or by the oracle rule
    (checked every step).  lam_of(i, R), alpha_of(i, R) give lam_i and the multiplier of 1/sqrt(t)."""
    d = X.shape[1]
    center, R, i = np.zeros(d), R1, 1
    mu, theta, tsum, te = np.zeros(d), center.copy(), np.zeros(d), 0
    lam, a = lam_of(i, R), alpha_of(i, R)
    ends = []
    target = 0.5 * pnorm(center - theta_star, p) ** 2 if theta_star is not None else None
    for t in range(n_iter):
        g = loss_deriv(X[t] @ theta, y[t]) * X[t]
        mu = mu + g + lam * np.sign(theta)
        te += 1
        theta = da.radar_update(mu, center, R, a / math.sqrt(te), p)
        tsum += theta
        end = te == length if length else pnorm(tsum / te - theta_star, p) ** 2 <= target
        if end:
            ends.append(t + 1)
            center = tsum / te
            R, i = R / math.sqrt(2), i + 1
            mu, theta, tsum, te = np.zeros(d), center.copy(), np.zeros(d), 0
            lam, a = lam_of(i, R), alpha_of(i, R)
            if theta_star is not None:
                target = 0.5 * pnorm(center - theta_star, p) ** 2
    return theta, center, ends


def test_radar_oracle_rule_and_schedule_12_match_plain_numpy():
    d = 40
    stream = Recorder(rd.make_stream(d, seed=1))
    c = example2(stream.sampler)
    R1 = 1.2 * float(np.abs(stream.theta_star).sum())
    s, omega, c1 = math.ceil(math.log(d)), 1.0, 64.0
    res = da.radar(stream, 1500, R1=R1, s=s, omega=omega, c1=c1, oracle_check=0.0, seed=3, **c)
    X, y = stream.samples()
    p = th.prox_exponent(d)

    def lam_of(i, R):
        Ti = th.epoch_length(R, i, d, s, c["gamma"], c["G"](R), c["sigma"](R), omega, c1)
        return th.schedule_lambda(R, Ti, i, d, s, c["gamma"], c["G"](R), c["sigma"](R), omega)

    def alpha_of(i, R):
        return th.schedule_step(R, 1, lam_of(i, R), d, c["G"](R), c["sigma"](R), normalization="eq5")

    theta, center, ends = numpy_radar(X, y, lambda a, b: a - b, R1, lam_of, alpha_of, p, 1500,
                                      theta_star=stream.theta_star)
    assert res.n_epochs >= 3
    np.testing.assert_array_equal(res.epochs["end"], ends)
    np.testing.assert_allclose(res.theta, theta, rtol=1e-9, atol=1e-11)
    np.testing.assert_allclose(res.w, center, rtol=1e-9, atol=1e-11)
    np.testing.assert_allclose(res.epochs["lam"], [lam_of(i + 1, R1 / 2 ** (i / 2)) for i in range(res.n_epochs)],
                               rtol=1e-12)


def test_radar_constant_epochs_on_a_finite_pool_match_plain_numpy():
    """RADAR-CONST with fixed lam and alpha (Algorithm 1's inputs) on a sparse logistic pool, eq. (15)."""
    X, yl, _ = make_classification(150, 25, 3, flip=0.05, density=0.3, seed=2)
    prob = Problem(X, yl, "logistic", 0.0)
    n_iter, length, lam, alpha, R1 = 700, 160, 0.02, 0.8, 6.0
    res = da.radar(prob, n_iter, R1=R1, epochs="constant", epoch_length=length, lam=lam, alpha=alpha, seed=5)
    order = np.random.default_rng(5).integers(0, prob.m, size=n_iter)  # the pool's draws (up front)
    Xd = prob.X.toarray()[order]
    theta, center, ends = numpy_radar(Xd, prob.y[order], prob.loss.deriv, R1, lambda i, R: lam,
                                      lambda i, R: alpha, th.prox_exponent(25), n_iter, length=length)
    np.testing.assert_array_equal(res.epochs["end"], [160, 320, 480, 640])
    assert ends == [160, 320, 480, 640]
    np.testing.assert_allclose(res.theta, theta, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(res.w, center, rtol=1e-9, atol=1e-12)
    assert res.info["method"] == "eda" and np.all(res.epochs["lam"] == lam)


def test_iterates_stay_in_omega_R_i():
    """A large step puts the unconstrained minimizer of (4) outside Omega(R_i): the iterate must sit on its
    sphere, ||theta_t - y_i||_p = R_i, never outside (checked on the returned iterates, not the kernel's ratio)."""
    d = 30
    stream = rd.make_stream(d, seed=4)
    R1 = float(np.abs(stream.theta_star).sum())
    p = th.prox_exponent(d)
    on_sphere = 0
    for n in range(60, 390, 7):
        res = da.radar(stream, n, R1=R1, epochs="constant", epoch_length=60, lam=0.05, alpha=50.0, seed=1)
        R_i = R1 * 2 ** (-res.n_epochs / 2)
        dist = pnorm(res.theta - res.w, p)
        assert dist <= R_i * (1 + 1e-10)
        on_sphere += dist >= R_i * (1 - 1e-9)
        assert np.all(res.epochs["max_radius_ratio"] <= 1 + 1e-12)
    assert on_sphere >= 40
    # with the step of (12) the constraint is inactive on this problem, and the iterates are inside
    c = example2(stream)
    res = da.radar(stream, 2000, R1=R1, s=4, omega=1.0, c1=64.0, seed=1, **c)
    assert np.all(res.epochs["max_radius_ratio"] < 1)


# ------------------------------------------------------------------------------------- RDA and SGD
def test_rda_closed_form_is_the_argmin_and_matches_plain_numpy():
    d = 6
    rng = np.random.default_rng(0)
    p = th.prox_exponent(d)
    q = p / (p - 1)
    for _ in range(5):
        gsum = rng.standard_normal(d) * 3
        t, lam, beta = 4.0, 0.4, 0.7
        theta, act, ib = np.zeros(d), np.zeros(d, dtype=np.int64), np.zeros(d, dtype=np.int64)
        K.rda_step(theta, gsum, np.zeros(d), act, np.zeros(d), np.zeros(d), ib, t, lam, beta, q, 1 / (q - 1))
        c = beta * math.sqrt(t) / t / (p - 1)

        def f(z):  # theta = z+ - z-, smooth in (z+, z-) >= 0
            v = z[:d] - z[d:]
            return gsum / t @ v + lam * z.sum() + c * pnorm(v, p) ** 2 / 2

        best = min((minimize(f, z0, method="L-BFGS-B", bounds=[(0, None)] * (2 * d),
                             options={"ftol": 1e-15, "gtol": 1e-12}) for z0 in
                    (np.zeros(2 * d), np.abs(np.concatenate([theta, -theta])) + 0.01)), key=lambda r: r.fun)
        assert f(np.concatenate([np.maximum(theta, 0), np.maximum(-theta, 0)])) <= best.fun + 1e-10
        np.testing.assert_allclose(theta, best.x[:d] - best.x[d:], atol=1e-4)
        assert np.all((theta == 0) == (np.abs(gsum / t) <= lam))
    # a whole run against the update written with soft-thresholding and link_inverse
    stream = Recorder(rd.make_stream(50, seed=2))
    res = da.rda(stream, 400, 0.05, 0.5, seed=7)
    X, y = stream.samples()
    p = th.prox_exponent(50)
    theta, gs = np.zeros(50), np.zeros(50)
    for t in range(1, 401):
        gs += (X[t - 1] @ theta - y[t - 1]) * X[t - 1]
        z = np.sign(gs) * np.maximum(np.abs(gs) / t - 0.05, 0)
        theta = -(math.sqrt(t) * (p - 1) / 0.5) * link_inverse(z, p / (p - 1))
    np.testing.assert_allclose(res.theta, theta, rtol=1e-9, atol=1e-12)
    assert np.count_nonzero(res.theta) < 50


@pytest.mark.parametrize("schedule", ["1/t", "1/sqrt(t)", "constant"])
def test_sgd_is_projected_gradient_onto_the_l1_ball(schedule):
    X, y, _ = make_classification(120, 40, 4, seed=3)
    prob = Problem(X, y, "logistic", 0.0)
    res = da.sgd(prob, 300, 2.0, 0.5, schedule=schedule, seed=9)
    order = np.random.default_rng(9).integers(0, prob.m, size=300)
    w = np.zeros(40)
    for t, i in enumerate(order, start=1):
        eta = {"1/t": 0.5 / t, "1/sqrt(t)": 0.5 / math.sqrt(t), "constant": 0.5}[schedule]
        w = project_l1_ball(w - eta * prob.loss.deriv(prob.X[i] @ w, prob.y[i]) * prob.X[i], 2.0)
    np.testing.assert_allclose(res.theta, w, rtol=1e-10, atol=1e-13)
    assert np.abs(res.theta).sum() <= 2.0 * (1 + 1e-12)


def test_warm_started_l1_ball_threshold_is_project_l1_balls():
    rng = np.random.default_rng(4)
    for d, z in [(10, 0.5), (1000, 3.0), (5000, 0.01), (200, 150.0)]:
        v = rng.standard_normal(d) * rng.choice([0.01, 1.0, 100.0], d)
        u = np.abs(v)
        if u.sum() <= z:
            continue
        ref = l1_ball_threshold(v, z)
        for guess in (0.0, ref, 0.5 * ref, 2 * ref, 1e9):
            for passes in (50, 0):  # 0 passes: the pivoting fallback
                assert K.l1_ball_threshold_warm(u, u.sum(), z, guess, passes) == pytest.approx(ref, rel=1e-12)
        theta, tsum = v.copy(), np.zeros(d)
        K.l1_ball_step(theta, tsum, z, np.zeros(d), np.array([0.3 * ref]))
        np.testing.assert_allclose(theta, project_l1_ball(v, z), rtol=1e-12, atol=1e-15)
        np.testing.assert_array_equal(tsum, theta)


# ------------------------------------------------------------------- the comparison of Figure 1(a)
def test_radar_beats_rda_and_sgd_at_d_2000():
    """Section 4's least-squares simulation at d = 2000, T = 10^4, one seed: RADAR (oracle epochs, (12) with
    Example 2's G(R), sigma(R), gamma and the choices c1 = 256, omega = 1) against RDA with
    lam = 4 eta sqrt(log d/T) and SGD (eta_t = 1/(gamma t)) on the l1 ball of radius ||theta*||_1."""
    d, T = 2000, 10_000
    stream = rd.make_stream(d, seed=0)
    R1 = float(np.abs(stream.theta_star).sum())
    c = example2(stream)
    radar = da.radar(stream, T, R1=R1, s=math.ceil(math.log(d)), omega=1.0, c1=256.0, seed=0, **c)
    rda = da.rda(stream, T, th.rda_lambda(math.sqrt(stream.noise_var), d, T), 0.1, seed=0)
    sgd = da.sgd(stream, T, R1, 1.0 / c["gamma"], seed=0)
    assert radar.error[-1] < rda.error[-1] and radar.error[-1] < sgd.error[-1]
    assert radar.slope() < -0.75 < rda.slope()
    assert radar.n_epochs >= 3
    assert radar.error[0] == pytest.approx(float(stream.theta_star @ stream.theta_star))


# --------------------------------------------------------------------------------- data and errors
def test_stream_and_generators():
    d = 500
    theta = rd.sparse_theta(d, seed=3)
    assert np.count_nonzero(theta) == math.ceil(math.log(d))
    np.testing.assert_allclose(np.abs(theta[theta != 0]), 1 / math.sqrt(2))
    st = rd.UniformDesignStream(theta, B=2.0, noise_var=0.5)
    X, y = st(np.random.default_rng(0), 4000)
    assert X.shape == (4000, d) and np.all(np.abs(X) <= 2.0)
    resid = y - X @ theta
    assert abs(resid.mean()) < 0.05 and resid.var() == pytest.approx(0.5, rel=0.1)
    assert X.var() == pytest.approx(st.sigma2, rel=0.02)
    w = np.random.default_rng(1).standard_normal(d) * 0.1
    assert np.mean((y - X @ w) ** 2 / 2) == pytest.approx(st.expected_loss(w), rel=0.1)
    for q in (0.2, 0.5, 1.0):
        t = rd.weakly_sparse_theta(d, q, Rq=3.0, seed=2)
        assert th.lq_radius(t, q) == pytest.approx(3.0)
        t = rd.weakly_sparse_theta(d, q, seed=2)
        assert float(t @ t) == pytest.approx(math.ceil(math.log(d)) / 2)
        mags = np.sort(np.abs(t))[::-1]
        np.testing.assert_allclose(mags[1:4] / mags[0], np.arange(2, 5) ** (-1 / q))
    assert np.count_nonzero(rd.make_stream(d, q=0.0, seed=1).theta_star) == math.ceil(math.log(d))


def test_same_seed_same_numbers_whatever_the_checkpoints():
    stream = rd.make_stream(300, seed=5)
    R1 = float(np.abs(stream.theta_star).sum())
    c = example2(stream)
    kw = dict(R1=R1, s=6, omega=1.0, c1=64.0, seed=2, **c)
    a = da.radar(stream, 3000, n_checkpoints=60, **kw)
    b = da.radar(stream, 3000, n_checkpoints=7, **kw)
    np.testing.assert_array_equal(a.theta, b.theta)
    np.testing.assert_array_equal(a.epochs["end"], b.epochs["end"])
    common = np.isin(a.iteration, b.iteration)
    np.testing.assert_array_equal(a.error[common], b.error[np.isin(b.iteration, a.iteration)])
    assert not np.array_equal(da.radar(stream, 3000, **dict(kw, seed=3)).theta, a.theta)
    s1 = da.sgd(stream, 500, R1, 3.0, seed=1, n_checkpoints=5)
    np.testing.assert_array_equal(s1.theta, da.sgd(stream, 500, R1, 3.0, seed=1).theta)


def test_bad_parameters_give_clear_errors():
    stream = rd.make_stream(100, seed=0)
    R1 = float(np.abs(stream.theta_star).sum())
    c = example2(stream)
    with pytest.raises(ValueError, match="too small for one epoch.*c1"):
        da.radar(stream, 1000, R1=R1, epochs="theory", s=5, omega=1.0, c1=1.0, **c)
    with pytest.raises(ValueError, match="too small for one epoch"):
        da.radar(stream, 100, R1=R1, epochs="constant", epoch_length=200, lam=0.1, alpha=1.0)
    with pytest.raises(ValueError, match="too small for one epoch"):
        da.radar(stream, 100, R1=R1, epochs="constant", s=5, omega=1.0, **c)  # Theorem 2's length
    with pytest.raises(ValueError, match=r"below \|\|theta\*\|\|_1"):
        da.radar(stream, 1000, R1=0.5 * R1, s=5, omega=1.0, c1=64.0, **c)
    with pytest.raises(ValueError, match=r"below \|\|theta\*\|\|_1"):
        da.sgd(stream, 100, 0.5 * R1, 1.0)
    with pytest.raises(ValueError, match="needs c1"):
        da.radar(stream, 1000, R1=R1, s=5, omega=1.0, **c)
    with pytest.raises(ValueError, match="needs .*gamma"):
        da.radar(stream, 1000, R1=R1, s=5, omega=1.0, c1=1.0, G=c["G"], sigma=c["sigma"])
    with pytest.raises(ValueError, match="oracle epoch rule needs theta_star"):
        da.radar(lambda rng, n: stream(rng, n), 100, R1=R1, lam=0.1, alpha=1.0)
    with pytest.raises(ValueError, match="epochs must be"):
        da.radar(stream, 100, R1=R1, epochs="halving", lam=0.1, alpha=1.0)
    with pytest.raises(ValueError, match="EDA needs a fixed lam"):
        da.eda(stream, 100, None, R1=R1)
    with pytest.raises(ValueError, match="p must be in"):
        da.rda(stream, 100, 0.1, 1.0, p=2.5)
    with pytest.raises(ValueError, match="lam=0"):
        X, y = stream.pool(50)
        da.sgd(Problem(X, y, "squared", 0.1), 100, R1, 1.0)
    with pytest.raises(ValueError, match="shape"):
        da.sgd(lambda rng, n: (np.zeros((n, 5)), np.zeros(n + 1)), 10, 1.0, 1.0)
    with pytest.raises(TypeError, match="Problem"):
        da.rda(np.zeros((3, 3)), 10, 0.1, 1.0)
    with pytest.raises(ValueError, match="schedule"):
        da.sgd(stream, 10, R1, 1.0, schedule="1/t^2")
    with pytest.raises(ValueError, match="n_iter"):
        da.rda(stream, 0, 0.1, 1.0)


def test_loglog_slope():
    t = np.array([1, 10, 100, 1000, 10000])
    assert da.loglog_slope(t, 3.0 / t) == pytest.approx(-1.0)
    assert da.loglog_slope(t, 2.0 / np.sqrt(t), start_fraction=0.0) == pytest.approx(-0.5)
    with pytest.raises(ValueError, match="two"):
        da.loglog_slope(t, np.full(5, np.nan))


def test_theory_epochs_follow_9_and_a_plain_sampler_gives_the_same_run():
    d = 100
    stream = rd.make_stream(d, seed=6)
    R1 = float(np.abs(stream.theta_star).sum())
    c = example2(stream)
    kw = dict(R1=R1, epochs="theory", s=5, omega=1.0, c1=2e-3, seed=4, **c)
    res = da.radar(stream, 4000, **kw)
    lengths = [math.ceil(th.epoch_length(R1 * 2 ** (-i / 2), i + 1, d, 5, c["gamma"], c["G"](R1 * 2 ** (-i / 2)),
                                         c["sigma"](R1 * 2 ** (-i / 2)), 1.0, 2e-3)) for i in range(40)]
    ends = np.cumsum(lengths)
    np.testing.assert_array_equal(res.epochs["end"], ends[ends <= 4000])
    np.testing.assert_array_equal(res.epochs["length"], lengths[:res.n_epochs])
    assert res.n_epochs >= 3
    # the same samples from a bare callable (no d attribute: probed on a copy of the generator)
    bare = da.radar(lambda rng, n: stream(rng, n), 4000, theta_star=stream.theta_star, **kw)
    np.testing.assert_array_equal(bare.theta, res.theta)


def test_radar_const_default_length_is_theorem_2s_and_eda_needs_only_G_sigma():
    d, T = 100, 3000
    stream = rd.make_stream(d, seed=8)
    R1 = float(np.abs(stream.theta_star).sum())
    res = da.radar(stream, T, R1=R1, epochs="constant", s=5, gamma=1 / 3, G=0.5, sigma=0.5, omega=1.0, seed=1)
    kap = th.kappa_T(T, d, 5, 1 / 3, R1, 0.5, 0.5, 1.0)
    length = math.ceil(th.theorem2_epoch_length(T, d, kap))
    assert res.info["epoch_length"] == length
    np.testing.assert_array_equal(res.epochs["end"], length * np.arange(1, T // length + 1))
    np.testing.assert_allclose(res.epochs["R"], R1 * 2.0 ** (-np.arange(res.n_epochs) / 2))
    # EDA with the oracle rule: lam fixed, the step of (12) from G and sigma only
    eda = da.eda(stream, T, th.rda_lambda(math.sqrt(0.5), d, T), R1=R1, G=0.5, sigma=0.5, seed=1)
    assert eda.info["method"] == "eda" and eda.n_epochs >= 1
    assert np.all(eda.epochs["lam"] == th.rda_lambda(math.sqrt(0.5), d, T))
    assert eda.error_output[-1] < eda.error_output[0] / 2
