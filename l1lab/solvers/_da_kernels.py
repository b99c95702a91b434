"""Numba kernels of the dual-averaging family (RADAR, EDA, RDA) and of l1-ball-constrained SGD.

Every kernel runs the steps k0 <= k < k1 of one segment, in place, for either a dense block of fresh samples
(``*_dense``: rows X[k], targets y[k]) or a finite pool (``*_pool``: CSR rows of X picked by ``order[k]``).
The O(d) part of a step (the prox-mapping or the projection) is shared by both through ``*_step`` helpers.
Powers |u|^(q-1) are the cost that matters (one general pow per coordinate and step); they are repeated
squarings when q - 1 is an integer (``iqm1 >= 0``).
"""
import math

from numba import njit

from ..losses import loss_deriv
from ..projections import _abs_and_sum, _support_threshold_kernel, _threshold_condat
from ._mirror_kernels import pow_pm1


@njit(cache=True, fastmath=True)
def dot(a, b):
    """<a, b> for contiguous 1-d arrays (fastmath: vectorized, summation order differs from np.dot)."""
    s = 0.0
    for j in range(a.shape[0]):
        s += a[j] * b[j]
    return s


@njit(cache=True, fastmath=True)
def axpy(y, c, x):
    """y += c x."""
    for j in range(y.shape[0]):
        y[j] += c * x[j]


@njit(cache=True)
def _dot_sparse(theta, indices, data, lo, hi):
    s = 0.0
    for k in range(lo, hi):
        s += data[k] * theta[indices[k]]
    return s


@njit(cache=True)
def _axpy_sparse(y, c, indices, data, lo, hi):
    for k in range(lo, hi):
        y[indices[k]] += c * data[k]


# ------------------------------------------------------------------------------------------- RADAR / EDA
@njit(cache=True)
def _radar_powers(mu, w, M, qm1, iqm1):
    """w_j = (|mu_j|/M)^(q-1); returns S = sum_j (|mu_j|/M)^q."""
    inv_M = 1.0 / M
    S = 0.0
    for j in range(mu.shape[0]):
        u = abs(mu[j]) * inv_M
        r = pow_pm1(u, qm1, iqm1) if u > 0.0 else 0.0
        w[j] = r
        S += r * u
    return S


@njit(cache=True)
def radar_step(theta, mu, nu, center, tsum, w, scale, lam, alpha, R, q, pm1, iqm1):
    """mu += lam nu (the l1 sub-gradient of the previous iterate; the loss gradient is already in mu), then
    theta = argmin_{||theta - y||_p <= R} alpha <mu, theta> + ||theta - y||_p^2/(2 R^2 (p - 1))  (update (4)
    with the prox-function (5)), in closed form:

        theta = y - alpha R^2 (p-1) grad(1/2 ||.||_q^2)(mu) / (1 + xi),
        1 + xi = max(1, alpha R (p-1) ||mu||_q),

    with grad_j(1/2 ||mu||_q^2) = M S^((2-q)/q) sign(mu_j) (|mu_j|/M)^(q-1), S = sum_j (|mu_j|/M)^q, for any
    scale M > 0.  M is the previous step's max|mu_j| (``scale[0]``), so that the update, the maximum and the
    powers take one pass; the powers are recomputed with the new maximum only when it left [M/1e3, 1e3 M]
    (where (|mu_j|/M)^(q-1) could lose digits to underflow or overflow).  Then nu = sign(theta) (0 where
    theta_j = 0, the paper's choice) and tsum += theta.  Returns ||theta - y||_p / R."""
    d = theta.shape[0]
    qm1 = q - 1.0
    M = scale[0]
    inv_M = 1.0 / M if M > 0.0 else 0.0
    Mx = 0.0
    S = 0.0
    for j in range(d):
        m = mu[j] + lam * nu[j]
        mu[j] = m
        a = abs(m)
        if a > Mx:
            Mx = a
        u = a * inv_M
        r = pow_pm1(u, qm1, iqm1) if u > 0.0 else 0.0
        w[j] = r
        S += r * u
    if Mx == 0.0:
        for j in range(d):
            th = center[j]
            theta[j] = th
            tsum[j] += th
            nu[j] = (th > 0.0) - (th < 0.0)
        scale[0] = 0.0
        return 0.0
    if not (1e-3 * M <= Mx <= 1e3 * M):
        M = Mx
        S = _radar_powers(mu, w, M, qm1, iqm1)
    scale[0] = Mx
    norm_q = M * S ** (1.0 / q)
    ratio = alpha * R * pm1 * norm_q
    one_xi = ratio if ratio > 1.0 else 1.0
    kappa = alpha * R * R * pm1 * M * S ** ((2.0 - q) / q) / one_xi
    for j in range(d):
        th = center[j] - math.copysign(kappa * w[j], mu[j])
        theta[j] = th
        tsum[j] += th
        nu[j] = (th > 0.0) - (th < 0.0)
    return ratio / one_xi


@njit(cache=True)
def lp_distance_sq(tsum, te, theta_star, p):
    """||tsum/te - theta*||_p^2 (scaled by its largest entry: no overflow or harmful underflow)."""
    d = tsum.shape[0]
    inv = 1.0 / te
    M = 0.0
    for j in range(d):
        a = abs(tsum[j] * inv - theta_star[j])
        if a > M:
            M = a
    if M == 0.0:
        return 0.0
    S = 0.0
    inv_M = 1.0 / M
    for j in range(d):
        a = abs(tsum[j] * inv - theta_star[j]) * inv_M
        if a > 0.0:
            S += a ** p
    return M * M * S ** (2.0 / p)


@njit(cache=True)
def _oracle(state, tsum, theta_star, p, target, check_frac):
    """The paper's oracle rule, checked at t = state[1] (then every max(1, check_frac t) steps): end the
    epoch once ||tsum/t - theta*||_p^2 <= target = ||y_i - theta*||_p^2/2."""
    te = state[0]
    if te < state[1]:
        return False
    step = int(check_frac * te)
    state[1] = te + (step if step > 1 else 1)
    return lp_distance_sq(tsum, te, theta_star, p) <= target


@njit(cache=True)
def radar_dense(code, X, yv, k0, k1, theta, mu, nu, center, tsum, w, state, lam, a_i, R, q, pm1, iqm1,
                oracle, theta_star, p, target, check_frac):
    """RADAR/EDA steps on fresh samples X[k0:k1]; state = [t in epoch, next oracle check, max ||theta-y||_p/R,
    scale of the powers].
    Returns (steps done, epoch ended by the oracle rule)."""
    for k in range(k0, k1):
        x = X[k]
        g = loss_deriv(code, dot(theta, x), yv[k])
        if g != 0.0:
            axpy(mu, g, x)
        state[0] += 1
        r = radar_step(theta, mu, nu, center, tsum, w, state[3:4], lam, a_i / math.sqrt(state[0]), R, q, pm1, iqm1)
        if r > state[2]:
            state[2] = r
        if oracle and _oracle(state, tsum, theta_star, p, target, check_frac):
            return k - k0 + 1, True
    return k1 - k0, False


@njit(cache=True)
def radar_pool(code, indptr, indices, data, yv, order, k0, k1, theta, mu, nu, center, tsum, w, state, lam, a_i,
               R, q, pm1, iqm1, oracle, theta_star, p, target, check_frac):
    """RADAR/EDA steps on pool samples order[k0:k1] (CSR rows)."""
    for k in range(k0, k1):
        i = order[k]
        lo, hi = indptr[i], indptr[i + 1]
        g = loss_deriv(code, _dot_sparse(theta, indices, data, lo, hi), yv[i])
        if g != 0.0:
            _axpy_sparse(mu, g, indices, data, lo, hi)
        state[0] += 1
        r = radar_step(theta, mu, nu, center, tsum, w, state[3:4], lam, a_i / math.sqrt(state[0]), R, q, pm1, iqm1)
        if r > state[2]:
            state[2] = r
        if oracle and _oracle(state, tsum, theta_star, p, target, check_frac):
            return k - k0 + 1, True
    return k1 - k0, False


# ------------------------------------------------------------------------------------------------- RDA
@njit(cache=True)
def rda_step(theta, gsum, tsum, act, w, t, lam, beta, q, pm1, iqm1):
    """theta_{t+1} = argmin <gbar, theta> + lam ||theta||_1 + beta sqrt(t)/t ||theta||_p^2/(2(p-1)),
    gbar = gsum/t, in closed form: theta = -(sqrt(t)(p-1)/beta) grad(1/2||.||_q^2)(z), z the soft-threshold
    of gbar at lam.  Only the surviving coordinates need a power.  tsum += theta."""
    d = theta.shape[0]
    inv_t = 1.0 / t
    M = 0.0
    n_act = 0
    for j in range(d):
        z = abs(gsum[j]) * inv_t - lam
        theta[j] = 0.0
        if z > 0.0:
            act[n_act] = j
            w[n_act] = z
            n_act += 1
            if z > M:
                M = z
    if n_act > 0:
        inv_M = 1.0 / M
        S = 0.0
        qm1 = q - 1.0
        for k in range(n_act):
            u = w[k] * inv_M
            r = pow_pm1(u, qm1, iqm1)
            w[k] = r
            S += r * u
        c = math.sqrt(t) * pm1 / beta * M * S ** ((2.0 - q) / q)
        for k in range(n_act):
            j = act[k]
            theta[j] = -c * w[k] if gsum[j] > 0.0 else c * w[k]
    for j in range(d):
        tsum[j] += theta[j]
    return n_act


@njit(cache=True)
def rda_dense(code, X, yv, k0, k1, theta, gsum, tsum, act, w, state, lam, beta, q, pm1, iqm1):
    """RDA steps on fresh samples; state = [t]."""
    for k in range(k0, k1):
        x = X[k]
        g = loss_deriv(code, dot(theta, x), yv[k])
        if g != 0.0:
            axpy(gsum, g, x)
        state[0] += 1
        rda_step(theta, gsum, tsum, act, w, state[0], lam, beta, q, pm1, iqm1)
    return k1 - k0


@njit(cache=True)
def rda_pool(code, indptr, indices, data, yv, order, k0, k1, theta, gsum, tsum, act, w, state, lam, beta, q, pm1,
             iqm1):
    for k in range(k0, k1):
        i = order[k]
        lo, hi = indptr[i], indptr[i + 1]
        g = loss_deriv(code, _dot_sparse(theta, indices, data, lo, hi), yv[i])
        if g != 0.0:
            _axpy_sparse(gsum, g, indices, data, lo, hi)
        state[0] += 1
        rda_step(theta, gsum, tsum, act, w, state[0], lam, beta, q, pm1, iqm1)
    return k1 - k0


# ------------------------------------------------------------------------------------ SGD on the l1 ball
@njit(cache=True)
def l1_ball_step(theta, tsum, R1):
    """theta <- the Euclidean projection of theta onto {||.||_1 <= R1}, exactly as
    l1lab.projections.project_l1_ball(theta, R1) (method "condat"): the same threshold routines.  tsum += theta."""
    u, total = _abs_and_sum(theta)
    if total > R1:
        th = _support_threshold_kernel(u, R1, _threshold_condat(u, R1))
        if th > 0.0:
            for j in range(theta.shape[0]):
                a = u[j] - th
                theta[j] = (a if theta[j] > 0 else -a) if a > 0.0 else 0.0
    for j in range(theta.shape[0]):
        tsum[j] += theta[j]


@njit(cache=True, inline="always")
def _sgd_eta(eta, t, schedule):
    if schedule == 0:
        return eta / t
    if schedule == 1:
        return eta / math.sqrt(t)
    return eta


@njit(cache=True)
def sgd_dense(code, X, yv, k0, k1, theta, tsum, state, R1, eta, schedule):
    """theta <- P_{||.||_1 <= R1}(theta - eta_t g_t) on fresh samples; state = [t]."""
    for k in range(k0, k1):
        x = X[k]
        g = loss_deriv(code, dot(theta, x), yv[k])
        state[0] += 1
        if g != 0.0:
            axpy(theta, -_sgd_eta(eta, state[0], schedule) * g, x)
        l1_ball_step(theta, tsum, R1)
    return k1 - k0


@njit(cache=True)
def sgd_pool(code, indptr, indices, data, yv, order, k0, k1, theta, tsum, state, R1, eta, schedule):
    for k in range(k0, k1):
        i = order[k]
        lo, hi = indptr[i], indptr[i + 1]
        g = loss_deriv(code, _dot_sparse(theta, indices, data, lo, hi), yv[i])
        state[0] += 1
        if g != 0.0:
            _axpy_sparse(theta, -_sgd_eta(eta, state[0], schedule) * g, indices, data, lo, hi)
        l1_ball_step(theta, tsum, R1)
    return k1 - k0
