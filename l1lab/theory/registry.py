"""The registry of every theorem, lemma and bound in l1lab: source, number, statement, function, chapter.

Later chapters extend :data:`REGISTRY` with their papers' results.  ``tests/test_registry.py`` checks that
every entry points at a callable whose docstring names its source, and that every chapter named exists.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from . import shalev_shwartz_tewari as sst

SST = "Shalev-Shwartz & Tewari (2011)"


@dataclass(frozen=True)
class TheoremEntry:
    key: str
    source: str
    number: str
    statement: str
    function: Callable
    chapter: str
    note: str = ""


REGISTRY: list[TheoremEntry] = [
    TheoremEntry("sst.theorem1", SST, "Theorem 1",
                 r"E[P(w_T)] - P(w*) <= d Psi(0)/(T+1), Psi(0) = beta/2 ||w*||_2^2 + P(0)",
                 sst.scd_expected_gap_bound, "chapters/scd"),
    TheoremEntry("sst.theorem1.psi0", SST, "Theorem 1 (potential)", r"Psi(0) = beta/2 ||w*||_2^2 + P(0)",
                 sst.scd_psi0, "chapters/scd"),
    TheoremEntry("sst.theorem1.iterations", SST, "Theorem 1 (iterations)",
                 r"T = ceil(d Psi(0)/eps) - 1 iterations give expected eps-accuracy",
                 sst.scd_iterations_for_accuracy, "chapters/scd"),
    TheoremEntry("sst.theorem2", SST, "Theorem 2",
                 r"P(w_T) - P(w*) <= 2 d Psi(0)/(T+1) with probability >= 1/2",
                 sst.scd_high_probability_gap_bound, "chapters/scd"),
    TheoremEntry("sst.theorem2.runs", SST, "Theorem 2 (repetitions)",
                 r"best of ceil(log2(1/delta)) runs meets the bound with probability >= 1 - delta",
                 sst.scd_runs_for_confidence, "chapters/scd"),
    TheoremEntry("sst.eq8", SST, "Eq. (8)", r"s = #{(i,j): x_ij != 0}/(md)", sst.average_nonzeros,
                 "chapters/scd"),
    TheoremEntry("sst.eq2", SST, "Bound (2)", r"SCD runtime m d beta ||w*||_2^2 / eps", sst.scd_runtime_bound,
                 "chapters/scd"),
    TheoremEntry("sst.runtime.expected", SST, "Theorem 1 as runtime", r"s m (ceil(d Psi(0)/eps) - 1)",
                 sst.scd_runtime_expected, "chapters/scd"),
    TheoremEntry("sst.runtime.high_probability", SST, "Theorem 2 as runtime",
                 r"s m ceil(log2(1/delta)) (ceil(2 d Psi(0)/eps) - 1)", sst.scd_runtime_high_probability,
                 "chapters/scd"),
    TheoremEntry("sst.runtime.logistic", SST, "Section 2.2, logistic loss",
                 r"s m d (||w*||^2/8 + 1)/eps (derived)", sst.scd_runtime_logistic, "chapters/scd",
                 note="the paper prints s m d (||w*||^2/4 + 2)/eps, twice Theorem 1's constant"),
    TheoremEntry("sst.runtime.logistic.printed", SST, "Section 2.2, logistic loss (as printed)",
                 r"s m d (||w*||^2/4 + 2)/eps; s m d ((||w*||^2/2 + 4)/eps + ceil(log(1/delta)))",
                 sst.scd_runtime_logistic_as_printed, "chapters/scd",
                 note="the delta term is additive as printed; Theorem 2's argument makes it a factor"),
    TheoremEntry("sst.runtime.squared", SST, "Section 2.2, squared loss",
                 r"s m d (||w*||^2/2 + C(0))/eps (derived)", sst.scd_runtime_squared, "chapters/scd"),
    TheoremEntry("sst.runtime.squared.printed", SST, "Section 2.2, squared loss (as printed)",
                 r"s m d ((2||w*||^2 + 4)/eps + ceil(log(1/delta)))", sst.scd_runtime_squared_as_printed,
                 "chapters/scd"),
    TheoremEntry("sst.tseng_yun", SST, "Section 1.1.1 (Tseng & Yun 2009)", r"m d^2 beta ||w*||_2^2 / eps",
                 sst.tseng_yun_runtime_bound, "chapters/scd"),
    TheoremEntry("sst.boosting", SST, "Section 1.1.2 (boosting)", r"m d beta ||w*||_1^2 / eps",
                 sst.boosting_runtime_bound, "chapters/scd"),
    TheoremEntry("sst.lemma6", SST, "Lemma 6",
                 r"L'' <= beta and |x_ij| <= 1 imply C(w + eta e_j) <= C(w) + eta g_j + beta eta^2/2 (9)",
                 sst.lemma6_max_violation, "chapters/scd"),
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
