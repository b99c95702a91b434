"""Run inside a fresh virtual environment that has only the built wheel of l1lab and its core dependencies:
a solver, a projection and a bound work, and ``import l1lab`` loads neither the book stack nor scikit-learn."""
import sys
from importlib.metadata import distributions

installed = {d.metadata["Name"].lower() for d in distributions()} - {"pip", "setuptools", "wheel"}
assert installed == {"l1lab", "numpy", "scipy", "numba", "llvmlite"}, f"the wheel pulled in {sorted(installed)}"

import numpy as np  # noqa: E402

import l1lab  # noqa: E402
from l1lab import Problem, reference_solution  # noqa: E402
from l1lab.data import make_regression  # noqa: E402
from l1lab.projections import project_l1_ball  # noqa: E402
from l1lab.theory import shalev_shwartz_tewari as sst  # noqa: E402

X, y, _ = make_regression(100, 20, 3, seed=0)
problem = Problem(X, y, loss="squared", lam=0.05)
w_star, p_star = reference_solution(problem)
res = l1lab.solvers.scd(problem, n_iter=4000, seed=0)
psi0 = sst.scd_psi0(1.0, w_star, 0.5 * np.mean(y ** 2))
assert res.objective - p_star <= sst.scd_expected_gap_bound(4000, problem.d, psi0)
w = project_l1_ball(np.array([3.0, -1.0, 0.5]), 1.0)
assert abs(np.abs(w).sum() - 1.0) < 1e-12
for name in ("matplotlib", "ipywidgets", "IPython", "sklearn", "joblib", "tqdm"):
    assert name not in sys.modules, f"import l1lab loaded {name}"
print(f"l1lab {l1lab.__version__} from the wheel: SCD gap {res.objective - p_star:.2e} below Theorem 1's bound, "
      f"projection on the sphere, no optional dependency loaded")
