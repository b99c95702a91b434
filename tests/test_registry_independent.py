"""Every entry of the theorem registry is evaluated against an independent form of its formula (written from the
paper, with the correction its note states) at three or more points: the per-paper files hold the formulas
(``FORMULAS = {key: (formula, points)}``); this test makes sure that no entry, and no new entry, is left out."""
import test_registry_independent_agarwal as agarwal
import test_registry_independent_others as others
import test_registry_independent_sst as sst

from l1lab.theory import registry


def test_every_registry_entry_has_an_independent_formula():
    covered = {}
    for module in (sst, agarwal, others):
        for key, (formula, points) in module.FORMULAS.items():
            assert key not in covered, f"{key} has two independent formulas ({covered[key]} and {module.__name__})"
            assert callable(formula) and len(points) >= 3, key
            covered[key] = module.__name__
    missing = sorted({e.key for e in registry.REGISTRY} - set(covered))
    assert not missing, f"registry entries without an independent formula (add them to a tests/" \
                        f"test_registry_independent_*.py FORMULAS table): {missing}"
    assert not set(covered) - {e.key for e in registry.REGISTRY}
