"""The registry of every theorem, lemma and bound in l1lab: source, number, statement, function, chapter.

Later chapters extend :data:`REGISTRY` with their papers' results.  ``tests/test_registry.py`` checks that
every entry points at a callable whose docstring names its source, and that every chapter named exists.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from . import agarwal2012 as anw
from . import duchi2008 as dssc
from . import kakade_foster_evendar as kfe
from . import shalev_shwartz_tewari as sst
from . import zhu2009 as zhu

SST = "Shalev-Shwartz & Tewari (2011)"
DSSC = "Duchi et al. (2008)"
KFE = "Kakade, Foster & Even-Dar (2008)"
ZHU = "Zhu et al. (2009)"
ANW = "Agarwal, Negahban & Wainwright (2012)"


@dataclass(frozen=True)
class TheoremEntry:
    key: str
    source: str
    number: str
    statement: str
    function: Callable
    chapter: str
    note: str = ""
    #: the MyST target in ``chapter`` that states or demonstrates the result: a sphinx-proof label or a
    #: section label ``(label)=``; the theorem index links to it
    label: str = ""


REGISTRY: list[TheoremEntry] = [
    TheoremEntry("sst.theorem1", SST, "Theorem 1",
                 r"E[P(w_T)] - P(w*) <= d Psi(0)/(T+1), Psi(0) = beta/2 ||w*||_2^2 + P(0)",
                 sst.scd_expected_gap_bound, "chapters/scd", label="scd-thm-expected"),
    TheoremEntry("sst.theorem1.psi0", SST, "Theorem 1 (potential)", r"Psi(0) = beta/2 ||w*||_2^2 + P(0)",
                 sst.scd_psi0, "chapters/scd", label="scd-thm-expected"),
    TheoremEntry("sst.theorem1.iterations", SST, "Theorem 1 (iterations)",
                 r"T = ceil(d Psi(0)/eps) - 1 iterations give expected eps-accuracy",
                 sst.scd_iterations_for_accuracy, "chapters/scd", label="scd-thm-expected"),
    TheoremEntry("sst.theorem2", SST, "Theorem 2",
                 r"P(w_T) - P(w*) <= 2 d Psi(0)/(T+1) with probability >= 1/2",
                 sst.scd_high_probability_gap_bound, "chapters/scd", label="scd-thm-high-probability"),
    TheoremEntry("sst.theorem2.runs", SST, "Theorem 2 (repetitions)",
                 r"best of ceil(log2(1/delta)) runs meets the bound with probability >= 1 - delta",
                 sst.scd_runs_for_confidence, "chapters/scd", label="scd-thm-high-probability"),
    TheoremEntry("sst.eq8", SST, "Eq. (8)", r"s = #{(i,j): x_ij != 0}/(md)", sst.average_nonzeros,
                 "chapters/scd", label="scd-sec-runtime"),
    TheoremEntry("sst.eq2", SST, "Bound (2)", r"SCD runtime m d beta ||w*||_2^2 / eps", sst.scd_runtime_bound,
                 "chapters/scd", label="scd-sec-runtime"),
    TheoremEntry("sst.runtime.expected", SST, "Theorem 1 as runtime", r"s m (ceil(d Psi(0)/eps) - 1)",
                 sst.scd_runtime_expected, "chapters/scd", label="scd-sec-runtime"),
    TheoremEntry("sst.runtime.high_probability", SST, "Theorem 2 as runtime",
                 r"s m ceil(log2(1/delta)) (ceil(2 d Psi(0)/eps) - 1)", sst.scd_runtime_high_probability,
                 "chapters/scd", label="scd-sec-runtime"),
    TheoremEntry("sst.runtime.logistic", SST, "Section 2.2, logistic loss",
                 r"s m d (||w*||^2/8 + 1)/eps (derived)", sst.scd_runtime_logistic, "chapters/scd",
                 note="the paper prints s m d (||w*||^2/4 + 2)/eps, twice Theorem 1's constant", label="scd-sec-runtime"),
    TheoremEntry("sst.runtime.logistic.printed", SST, "Section 2.2, logistic loss (as printed)",
                 r"s m d (||w*||^2/4 + 2)/eps; s m d ((||w*||^2/2 + 4)/eps + ceil(log(1/delta)))",
                 sst.scd_runtime_logistic_as_printed, "chapters/scd",
                 note="the delta term is additive as printed; Theorem 2's argument makes it a factor", label="scd-sec-runtime"),
    TheoremEntry("sst.runtime.squared", SST, "Section 2.2, squared loss",
                 r"s m d (||w*||^2/2 + C(0))/eps (derived)", sst.scd_runtime_squared, "chapters/scd", label="scd-sec-runtime"),
    TheoremEntry("sst.runtime.squared.printed", SST, "Section 2.2, squared loss (as printed)",
                 r"s m d ((2||w*||^2 + 4)/eps + ceil(log(1/delta)))", sst.scd_runtime_squared_as_printed,
                 "chapters/scd", label="scd-sec-runtime"),
    TheoremEntry("sst.tseng_yun", SST, "Section 1.1.1 (Tseng & Yun 2009)", r"m d^2 beta ||w*||_2^2 / eps",
                 sst.tseng_yun_runtime_bound, "chapters/scd", label="scd-sec-runtime"),
    TheoremEntry("sst.boosting", SST, "Section 1.1.2 (boosting)", r"m d beta ||w*||_1^2 / eps",
                 sst.boosting_runtime_bound, "chapters/scd", label="scd-sec-runtime"),
    TheoremEntry("sst.lemma6", SST, "Lemma 6",
                 r"L'' <= beta and |x_ij| <= 1 imply C(w + eta e_j) <= C(w) + eta g_j + beta eta^2/2 (9)",
                 sst.lemma6_max_violation, "chapters/scd", label="scd-lem-coordinate-smooth"),
    # Section 3: SMIDAS and truncated gradient
    TheoremEntry("sst.cond13", SST, "Condition (13)", r"|L'(a, y)| <= rho", sst.loss_condition_13, "chapters/smidas", label="smidas-sec-guarantee"),
    TheoremEntry("sst.cond14", SST, "Condition (14)", r"L'(a, y)^2 <= rho L(a, y)", sst.loss_condition_14,
                 "chapters/smidas", note="rho = 2 for (a-y)^2/2; the paper's rho = 4 is for (a-y)^2", label="smidas-sec-guarantee"),
    TheoremEntry("sst.theorem3.kappa", SST, "Theorem 3 (proof)", r"kappa = (p-1) d^{2/p} (= (p-1)e at p = 2 ln d)",
                 sst.smidas_kappa, "chapters/smidas", label="smidas-thm-3"),
    TheoremEntry("sst.theorem3.case13", SST, "Theorem 3, case (13)",
                 r"E[P(w_o)] - P* <= eta kappa rho^2/2 + ||w*||_1^2/(eta T)", sst.smidas_bound_lipschitz,
                 "chapters/smidas", label="smidas-thm-3"),
    TheoremEntry("sst.theorem3.case13.eta", SST, "Theorem 3, case (13), step size",
                 r"eta = ||w*||_1/rho sqrt(2/(kappa T))", sst.smidas_eta_lipschitz, "chapters/smidas", label="smidas-thm-3"),
    TheoremEntry("sst.theorem3.case13.rate", SST, "Theorem 3, case (13), rate", r"rho ||w*||_1 sqrt(2 kappa/T)",
                 sst.smidas_rate_lipschitz, "chapters/smidas", label="smidas-thm-3"),
    TheoremEntry("sst.theorem3.case13.printed", SST, "Theorem 3, case (13), as stated",
                 r"rho ||w*||_1 sqrt(12 log(d)/T)", sst.smidas_rate_lipschitz_as_printed, "chapters/smidas", label="smidas-thm-3"),
    TheoremEntry("sst.theorem3.case14", SST, "Theorem 3, case (14)",
                 r"E[P(w_o)] - P* <= (1/(1-a eta) - 1) P(0) + ||w*||_1^2/(eta T (1 - a eta)), a = kappa rho/2",
                 sst.smidas_bound_self_bounded, "chapters/smidas", label="smidas-thm-3"),
    TheoremEntry("sst.theorem3.case14.eta", SST, "Theorem 3, case (14), step size", r"Lemma 7's eta*",
                 sst.smidas_eta_self_bounded, "chapters/smidas", label="smidas-thm-3"),
    TheoremEntry("sst.theorem3.case14.rate", SST, "Theorem 3, case (14), rate", r"4 sqrt(a b P(0)/T) + 4ab/T",
                 sst.smidas_rate_self_bounded, "chapters/smidas", label="smidas-thm-3"),
    TheoremEntry("sst.theorem3.case14.printed", SST, "Theorem 3, case (14), as stated",
                 r"4||w*||_1 sqrt(6 rho log(d) P(0)/(2T)) + 12 rho log(d) ||w*||_1^2/T",
                 sst.smidas_rate_self_bounded_as_printed, "chapters/smidas", label="smidas-thm-3"),
    TheoremEntry("sst.prop4", SST, "Proposition 4", r"E[P(w_o)] <= (1+K) P* + (1+K)^2/K ab/T",
                 sst.smidas_prop4_bound, "chapters/smidas", label="smidas-prop-4"),
    TheoremEntry("sst.prop4.eta", SST, "Proposition 4, step size", r"eta = 2/(kappa rho) K/(1+K)",
                 sst.smidas_prop4_eta, "chapters/smidas", label="smidas-prop-4"),
    TheoremEntry("sst.lemma7.f", SST, "Lemma 7 (function)", r"f(eta) = (1/(1-a eta) - 1) P + b/(eta T (1-a eta))",
                 sst.lemma7_f, "chapters/smidas", label="smidas-lem-7"),
    TheoremEntry("sst.lemma7.eta", SST, "Lemma 7 (minimizer)", r"eta* = b/(PT) (sqrt(1 + PT/(ab)) - 1)",
                 sst.lemma7_eta_star, "chapters/smidas", label="smidas-lem-7"),
    TheoremEntry("sst.lemma7.bound", SST, "Lemma 7 (minimum)", r"f(eta*) <= 4 sqrt(abP/T) + 4ab/T",
                 sst.lemma7_min_upper_bound, "chapters/smidas", label="smidas-lem-7"),
    TheoremEntry("sst.eq3", SST, "Bound (3)", r"SMIDAS runtime O(d log(d) ||w*||_1^2/eps^2)", sst.smidas_runtime_bound,
                 "chapters/smidas", label="smidas-sec-runtime"),
    TheoremEntry("sst.eq4", SST, "Bound (4)", r"truncated gradient runtime O(d ||w*||_2^2 X_2^2/eps^2)",
                 sst.truncgrad_runtime_bound, "chapters/smidas", label="smidas-sec-runtime"),
    TheoremEntry("sst.x2", SST, "Section 1.1.3", r"X_2^2 = (1/m) sum_i ||x_i||_2^2", sst.mean_squared_row_norm,
                 "chapters/smidas", label="smidas-sec-runtime"),
    # Duchi, Shalev-Shwartz, Singer & Chandra (2008): projections
    TheoremEntry("dssc.lemma1", DSSC, "Lemma 1", r"v_s > v_j and w_s = 0 imply w_j = 0 (simplex projection)",
                 dssc.lemma1_violation, "chapters/projections", label="proj-lem-support"),
    TheoremEntry("dssc.lemma2", DSSC, "Lemma 2", r"rho = max{j : mu_j - (sum_{r<=j} mu_r - z)/j > 0}",
                 dssc.simplex_support_size, "chapters/projections", label="proj-lem-rho"),
    TheoremEntry("dssc.lemma2.theta", DSSC, "Lemma 2 (threshold)", r"theta = (sum_{i<=rho} mu_i - z)/rho",
                 dssc.simplex_theta, "chapters/projections", label="proj-lem-rho"),
    TheoremEntry("dssc.lemma3", DSSC, "Lemma 3", r"w_i v_i >= 0: the l1-ball projection keeps signs",
                 dssc.lemma3_violation, "chapters/projections", label="proj-lem-signs"),
    # Kakade, Foster & Even-Dar (2008): SG vs SMG for l1-constrained problems
    TheoremEntry("kfe.theorem2.1", KFE, "Theorem 2.1", r"R_T(SG) <= 2 F2 G2 (sqrt(1/T) + sqrt(8 log(1/delta)/T))",
                 kfe.sg_regret_bound, "chapters/exponentiated", label="eg-thm-sg"),
    TheoremEntry("kfe.theorem2.1.eta", KFE, "Theorem 2.1 (step)", r"eta = 2 F2/(G2 sqrt(T))", kfe.sg_eta,
                 "chapters/exponentiated", label="eg-thm-sg"),
    TheoremEntry("kfe.prop2.2", KFE, "Proposition 2.2", r"(w^{t+1} - w^t).grad = -eta F1 Var_{w/F1}(grad) <= 0",
                 kfe.prop22_inner_product, "chapters/exponentiated", label="eg-prop-descent"),
    TheoremEntry("kfe.prop2.2.variance", KFE, "Proposition 2.2 (variance form)", r"-eta F1 Var_{w/F1}(grad)",
                 kfe.prop22_variance_form, "chapters/exponentiated", label="eg-prop-descent"),
    TheoremEntry("kfe.theorem2.3", KFE, "Theorem 2.3",
                 r"T >= 16 log d: R_T(SMG) <= 4 F1 G_inf (sqrt(log d/T) + sqrt(2 log(1/delta)/T))",
                 kfe.smg_regret_bound, "chapters/exponentiated", label="eg-thm-smg"),
    TheoremEntry("kfe.theorem2.3.eta", KFE, "Theorem 2.3 (step)", r"eta = sqrt(log d/T)/(2 G_inf)", kfe.smg_eta,
                 "chapters/exponentiated", note="printed with an extra 1/F1, right only for F1 = 1", label="eg-thm-smg"),
    TheoremEntry("kfe.cor3.1", KFE, "Corollary 3.1", r"c(avg w) <= c(w*) + 4 F1 G_inf (...)", kfe.cor31_bound,
                 "chapters/exponentiated", label="eg-cor-averaging"),
    TheoremEntry("kfe.cor3.1.limsup", KFE, "Corollary 3.1 (lim sup)", r"limsup c(avg w) <= c(w*) + 4F1G sqrt(log d/T)",
                 kfe.cor31_limsup, "chapters/exponentiated", label="eg-cor-averaging"),
    TheoremEntry("kfe.cor4.1", KFE, "Corollary 4.1", r"risk(avg w) <= risk(w*) + 4 F1 G_inf (...)",
                 kfe.cor41_risk_bound, "chapters/exponentiated", label="eg-cor-learning"),
    TheoremEntry("kfe.lemma5.1", KFE, "Lemma 5.1", r"Azuma term B sqrt(2 log(1/delta)/T)", kfe.lemma51_azuma_term,
                 "chapters/exponentiated", label="eg-lem-azuma"),
    TheoremEntry("kfe.lemma5.2", KFE, "Lemma 5.2", r"2 F2^2/(eta T) + eta G2^2/2", kfe.lemma52_bound,
                 "chapters/exponentiated", label="eg-lem-sg"),
    TheoremEntry("kfe.lemma5.3", KFE, "Lemma 5.3", r"eta <= 1/(8G): F1 log d/(T eta) + 4 eta F1 G^2",
                 kfe.lemma53_bound, "chapters/exponentiated", label="eg-lem-smg"),
    TheoremEntry("kfe.lemma5.3.eta", KFE, "Lemma 5.3 (feasible step)", r"eta <= 1/(8 G_inf)", kfe.smg_max_step,
                 "chapters/exponentiated", label="eg-lem-smg"),
    # --- Zhu et al. (2009): Primal Gradient Solver (issue 6) -- entries go below this line ---
    TheoremEntry("zhu.eq3", ZHU, "Eq. (3)",
                 r"r(w) = ||w||_p^2/(2(p-1)), p in (1, 2], 1-strongly convex w.r.t. ||.||_p",
                 zhu.regularizer, "chapters/pgs"),
    TheoremEntry("zhu.section4.lipschitz", ZHU, "Section IV (Lipschitz constants)",
                 r"L = max_i ||x_i||_q (hinge, logistic); max_i ||x_i||_q (B ||x_i||_q + |y_i|) (least squares)",
                 zhu.loss_lipschitz_constant, "chapters/pgs",
                 note="for l1lab's (a-y)^2/2; the paper's (a-y)^2 doubles it"),
    TheoremEntry("zhu.section4.radius", ZHU, "Section IV (radius)", r"||w_hat||_p <= B = sqrt(2(p-1) C(0)/sigma)",
                 zhu.least_squares_radius, "chapters/pgs",
                 note="the paper's r(w*) <= F(0) drops the 1/sigma"),
    TheoremEntry("zhu.lemma1", ZHU, "Lemma 1",
                 r"sum_t c_t(w_{t-1}) - min_S sum_t c_t <= (1/2) sum_t ||lambda_t||_q^2/(t sigma)",
                 zhu.lemma1_regret_bound, "chapters/pgs"),
    TheoremEntry("zhu.lemma1.harmonic", ZHU, "Lemma 1 (harmonic number)", r"H_T = sum_{t<=T} 1/t <= 1 + ln T",
                 zhu.harmonic_number, "chapters/pgs"),
    TheoremEntry("zhu.corollary1", ZHU, "Corollary 1", r"regret <= C log T/sigma; explicitly L^2 H_T/(2 sigma)",
                 zhu.corollary1_regret_bound, "chapters/pgs",
                 note="C log T fails at T = 1; C = L^2 works for T >= 3"),
    TheoremEntry("zhu.theorem1.expected", ZHU, "Theorem 1 (expectation, eq. (17))",
                 r"E[F(w_i)] - F(w_hat) <= C log T/(sigma T) = L^2 H_T/(2 sigma T)",
                 zhu.theorem1_expected_gap_bound, "chapters/pgs",
                 note="i uniform on {0, ..., T-1}, the points played; the paper prints {1, ..., T}"),
    TheoremEntry("zhu.theorem1", ZHU, "Theorem 1", r"w.p. 1 - delta: F(w_i) <= F(w_hat) + C log T/(sigma T delta)",
                 zhu.theorem1_gap_bound, "chapters/pgs"),
    TheoremEntry("zhu.theorem1.iterations", ZHU, "Theorem 1 (iterations)", r"T = O~(1/(sigma delta eps_acc))",
                 zhu.theorem1_iterations, "chapters/pgs"),
    TheoremEntry("zhu.theorem2.decomposition", ZHU, "Theorem 2 (eq. (20))",
                 r"l(w~) - l(w_0) <= c/(sigma T delta) + sigma ||w_0||_p^2/(2(p-1)) + c'/(sigma m)",
                 zhu.theorem2_error_bound, "chapters/pgs"),
    TheoremEntry("zhu.theorem2.sigma", ZHU, "Theorem 2 (sigma)",
                 r"sigma = sqrt(2(p-1)/||w_0||_p^2 (1/(T delta) + 1/m))", zhu.theorem2_sigma, "chapters/pgs"),
    TheoremEntry("zhu.theorem2.error", ZHU, "Theorem 2 (eq. (21))",
                 r"eps = 2 ||w_0||_p sqrt((1/(T delta) + 1/m)/(2(p-1)))", zhu.theorem2_error_at_sigma, "chapters/pgs",
                 note="printed without the factor 2 (min of a/s + b s is 2 sqrt(ab))"),
    TheoremEntry("zhu.theorem2", ZHU, "Theorem 2",
                 r"T = O((1/delta)/(2 eps^2 (p-1)/||w_0||_p^2 - O~(1/m))), decreasing in m (eq. (12))",
                 zhu.theorem2_iterations, "chapters/pgs"),
    TheoremEntry("zhu.theorem2.runtime", ZHU, "Theorem 2 (running time)", r"T dk (p = 2), T (dk + n) (p < 2)",
                 zhu.theorem2_runtime, "chapters/pgs"),
    TheoremEntry("zhu.theorem3", ZHU, "Theorem 3", r"(||w||_p^2/2 on ||w||_p <= B)^* (eq. (23))",
                 zhu.theorem3_conjugate, "chapters/pgs"),
    TheoremEntry("zhu.theorem3.gradient", ZHU, "Theorem 3 (gradient)",
                 r"min{B, ||theta||_q} theta^{q/p}/||theta||_q^{q/p} (eq. (24))", zhu.theorem3_conjugate_gradient,
                 "chapters/pgs"),
    TheoremEntry("zhu.corollary2", ZHU, "Corollary 2", r"r^* on ||w||_p <= B (eq. (27))", zhu.corollary2_conjugate,
                 "chapters/pgs"),
    TheoremEntry("zhu.corollary2.gradient", ZHU, "Corollary 2 (gradient)",
                 r"min{B, ||(p-1) theta||_q} theta^{q/p}/||theta||_q^{q/p} (eq. (28))",
                 zhu.corollary2_conjugate_gradient, "chapters/pgs",
                 note="so Figure 2 line 6 must rescale by B/||w_t||_p, not the printed B/||w_t||_q"),
    TheoremEntry("zhu.corollary3", ZHU, "Corollary 3", r"r^*(theta) = ||theta||_q^2/(2(q-1)) on R^n",
                 zhu.corollary3_conjugate, "chapters/pgs"),
    TheoremEntry("zhu.corollary3.gradient", ZHU, "Corollary 3 (gradient)",
                 r"||theta||_q^{1-q/p} theta^{q/p}/(q-1) (Figure 2, line 3)", zhu.corollary3_conjugate_gradient,
                 "chapters/pgs"),
    # --- Agarwal, Negahban & Wainwright (2012): RADAR (issue 7) -- entries go below this line ---
    TheoremEntry("anw.eq5", ANW, "Eq. (5)", r"p = 2 log d/(2 log d - 1), q = 2 log d: ||x||_1 <= sqrt(e) ||x||_p",
                 anw.prox_exponent, "chapters/radar"),
    TheoremEntry("anw.algorithm1.radius", ANW, "Algorithm 1 (radii)", r"R_{i+1}^2 = R_i^2/2", anw.epoch_radius,
                 "chapters/radar"),
    TheoremEntry("anw.assumption1", ANW, "Assumption 1", r"|L(theta) - L(theta~)| <= G ||theta - theta~||_1",
                 anw.assumption1_lipschitz_ratio, "chapters/radar"),
    TheoremEntry("anw.assumption2", ANW, "Assumption 2",
                 r"L(theta~) >= L(theta) + <grad L(theta), theta~ - theta> + gamma/2 ||theta - theta~||_2^2 (7)",
                 anw.assumption2_lsc_gap, "chapters/radar"),
    TheoremEntry("anw.assumption3", ANW, "Assumption 3", r"E exp(||e(theta)||_inf^2/sigma^2) <= e (8)",
                 anw.assumption3_mgf, "chapters/radar"),
    TheoremEntry("anw.example1.curvature", ANW, "Example 1 (link)", r"psi(a) = e^a/(1 + e^a)^2",
                 anw.logistic_curvature, "chapters/radar"),
    TheoremEntry("anw.example1.G", ANW, "Example 1 (Lipschitz)", r"G <= B", anw.example1_G, "chapters/radar"),
    TheoremEntry("anw.example1.gamma", ANW, "Example 1 (LSC)", r"gamma >= psi(BR) sigma_min(Sigma)",
                 anw.example1_gamma, "chapters/radar"),
    TheoremEntry("anw.example1.sigma", ANW, "Example 1 (sub-Gaussian)", r"sigma = 2B", anw.example1_sigma,
                 "chapters/radar"),
    TheoremEntry("anw.example2.G", ANW, "Example 2 (Lipschitz)", r"G(R) <= rho(Sigma) R", anw.example2_G,
                 "chapters/radar"),
    TheoremEntry("anw.example2.gamma", ANW, "Example 2 (LSC)", r"gamma = sigma_min(Sigma)", anw.example2_gamma,
                 "chapters/radar"),
    TheoremEntry("anw.example2.sigma", ANW, "Example 2 (sub-Gaussian)",
                 r"sigma^2(R) = 8 rho(Sigma)^2 R^2 + 4 B^4 R^2 + 10 B^2 eta^2", anw.example2_sigma, "chapters/radar"),
    TheoremEntry("anw.section4.sigma", ANW, "Section 4 (design)", r"x ~ Unif[-B, B]^d: Sigma = (B^2/3) I",
                 anw.uniform_design_covariance, "chapters/radar"),
    TheoremEntry("anw.omega_i", ANW, "Section 3 (omega_i)", r"omega_i^2 = omega^2 + 24 log i", anw.omega_sq,
                 "chapters/radar"),
    TheoremEntry("anw.eq9", ANW, "Eq. (9)",
                 r"T_i = c1 [s^2/(gamma^2 R_i^2) ((G^2 + sigma^2) log d + omega_i^2 sigma^2) + log d]",
                 anw.epoch_length, "chapters/radar"),
    TheoremEntry("anw.eq12.lambda", ANW, "Eq. (12) (lambda)",
                 r"lambda_i^2 = R_i gamma/(s sqrt(T_i)) sqrt((G^2 + sigma^2) log d + omega_i^2 sigma^2)",
                 anw.schedule_lambda, "chapters/radar"),
    TheoremEntry("anw.eq12.alpha", ANW, "Eq. (12) (step)", r"alpha(t) = 5 R_i sqrt(log d/((G^2 + lambda_i^2 + sigma^2) t))",
                 anw.schedule_step, "chapters/radar",
                 note="the step of psi without 1/R_i^2; with (5) as printed the same iterates need alpha(t)/R_i^2"),
    TheoremEntry("anw.eq11", ANW, "Eq. (11)",
                 r"kappa_T = log2[gamma^2 R_1^2 T/(s^2((G^2 + sigma^2) log d + omega^2 sigma^2))] log d",
                 anw.kappa_T, "chapters/radar"),
    TheoremEntry("anw.eq10", ANW, "Eq. (10)", r"eps^2(theta*; S) = ||theta*_{S^c}||_1^2/s", anw.sparsity_error,
                 "chapters/radar"),
    TheoremEntry("anw.theorem1", ANW, "Theorem 1",
                 r"||theta_T - theta*||_2^2 <= c0 [s/(gamma^2 T)((G^2 + sigma^2) log d + sigma^2(omega^2 + "
                 r"log(kappa_T/log d))) + eps^2(theta*; S)]", anw.theorem1_bound, "chapters/radar"),
    TheoremEntry("anw.theorem1.probability", ANW, "Theorem 1 (probability)", r"1 - 6 exp(-omega^2/12)",
                 anw.theorem1_probability, "chapters/radar"),
    TheoremEntry("anw.corollary1.sparse", ANW, "Corollary 1 (s-sparse)",
                 r"c0 [(G^2 + sigma^2(1+delta))/gamma^2 s log d/T + s sigma^2/(gamma^2 T) log(kappa_T/log d)]",
                 anw.corollary1_sparse, "chapters/radar"),
    TheoremEntry("anw.corollary1.weak", ANW, "Corollary 1 (B_q(R_q))",
                 r"c0 R_q [((G^2 + sigma^2(1+delta)) log d/(gamma^2 T))^{1-q/2} + (sigma^2/(gamma^2 T))^{1-q/2} "
                 r"log(kappa_T/log d)/((1+delta) log d)^{q/2}]", anw.corollary1_weak, "chapters/radar",
                 note="re-derived from Theorem 1 (the printed display lost its layout)"),
    TheoremEntry("anw.corollary1.Rq", ANW, "Corollary 1 (l_q radius)", r"R_q = sum_i |theta_i|^q", anw.lq_radius,
                 "chapters/radar"),
    TheoremEntry("anw.corollary2", ANW, "Corollary 2",
                 r"c0/sigma_min^2 s log d/T B^2(1+delta)/psi^2(2BR1) + c0 s sigma^2/(sigma_min^2 psi^2(2BR1) T) "
                 r"log(kappa_T/log d)", anw.corollary2_bound, "chapters/radar"),
    TheoremEntry("anw.corollary2.n", ANW, "Corollary 2 (pool size)",
                 r"n >= c3 log d/sigma_min^2 max(sigma_min^2, eta_x^4)", anw.corollary2_min_samples, "chapters/radar"),
    TheoremEntry("anw.corollary2.probability", ANW, "Corollary 2 (probability)",
                 r"1 - 2 exp(-c1 n min(sigma_min^2/eta_x^4, 1)) - 6 exp(-delta log d/12)", anw.corollary2_probability,
                 "chapters/radar"),
    TheoremEntry("anw.theorem2.length", ANW, "Theorem 2 (epochs)", r"T_i = T log d/kappa_T",
                 anw.theorem2_epoch_length, "chapters/radar"),
    TheoremEntry("anw.theorem2", ANW, "Theorem 2",
                 r"O(s ((G^2 + sigma^2) log d + (omega^2 + log(kappa_T/log d)) sigma^2)/T kappa_T/log d)",
                 anw.theorem2_bound, "chapters/radar", note="printed with log d/kappa; the text's O(log T/T) needs kappa_T/log d"),
    TheoremEntry("anw.theorem2.probability", ANW, "Theorem 2 (probability)", r"1 - 3 exp(-omega^2/12)",
                 anw.theorem2_probability, "chapters/radar", note="printed without the minus sign"),
    TheoremEntry("anw.section3.1.sgd", ANW, "Section 3.1 (SGD)", r"O((G~^2 + sigma~^2)/(gamma^2 T)) ~ d/T",
                 anw.sgd_rate, "chapters/radar"),
    TheoremEntry("anw.section4.lambda", ANW, "Section 4 (RDA lambda)", r"lambda = 4 eta sqrt(log d/T)", anw.rda_lambda,
                 "chapters/radar"),
]


def entries(source: str | None = None, chapter: str | None = None) -> list[TheoremEntry]:
    """Registry entries, optionally filtered by source (substring) and chapter."""
    return [e for e in REGISTRY
            if (source is None or source in e.source) and (chapter is None or e.chapter == chapter)]


def get(key: str) -> TheoremEntry:
    for e in REGISTRY:
        if e.key == key:
            return e
    raise KeyError(f"no registry entry {key!r}; known keys: {[e.key for e in REGISTRY]}")
