"""l1lab.book.exercises: the checkers accept l1lab's references and reject wrong answers with deterministic text, the
student notebooks are the solutions with the answers removed, and ``pytest --nbval`` passes on the solutions
(with their stored outputs) and fails on the student versions and on a wrong solution."""
import math
import re
import subprocess
import sys
from pathlib import Path

import checker_contract
import nbformat
import numpy as np
import pytest

from l1lab.book import exercises as E
from l1lab.data.lower_bound import population_risk
from l1lab.links import link_inverse
from l1lab.losses import soft_threshold
from l1lab.projections import project_l1_ball, project_simplex
from l1lab.solvers.dual_averaging import radar_update
from l1lab.solvers.pgs import grad_r_star
from l1lab.theory import agarwal2012 as anw
from l1lab.theory import kakade_foster_evendar as kfe
from l1lab.theory import shalev_shwartz_tewari as sst
from l1lab.theory import zhu2009 as zhu

ROOT = Path(__file__).resolve().parents[1]
SOLUTIONS = ROOT / "chapters" / "exercises" / "solutions"
STUDENT = ROOT / "chapters" / "exercises" / "student"
#: every exercise notebook (one per lecture, or per pair of short lectures): its solution and student versions
CHAPTERS = tuple(sorted(p.stem for p in SOLUTIONS.glob("*.ipynb")))


def _objective(X, y, w, lam, loss):
    a = X @ w
    val = 0.5 * (a - y) ** 2 if loss == "squared" else np.logaddexp(0, -y * a)
    return val.mean() + lam * np.abs(w).sum()


def _scd_step(X, y, w, j, lam, beta, loss):
    a = X @ w
    lp = a - y if loss == "squared" else -y / (1 + np.exp(y * a))
    w = w.copy()
    w[j] = soft_threshold(w[j] - X[:, j] @ lp / X.shape[0] / beta, lam / beta)
    return w


RIGHT = {
    E.check_soft_threshold: lambda w, tau: soft_threshold(w, tau),
    E.check_objective: _objective,
    E.check_lambda_max: lambda X, y, loss: np.abs(X.T @ (-y if loss == "squared" else -y / 2)).max() / X.shape[0],
    E.check_scd_step: _scd_step,
    E.check_scd_iterations: lambda eps, d, psi0: sst.scd_iterations_for_accuracy(eps, d, psi0),
    E.check_link_inverse: link_inverse,
    E.check_project_simplex: lambda v, z: project_simplex(v, z),
    E.check_project_l1_ball: lambda v, z: project_l1_ball(v, z),
    E.check_smg_update: lambda w, g, eta, F1: w * (1 - eta * g + eta * (w @ g) / F1),
    E.check_smg_regret_bound: lambda T, d, F1, G: kfe.smg_regret_bound(T, d, F1, G),
    E.check_grad_r_star: lambda th, p, B: grad_r_star(th, p, B),
    E.check_corollary1_bound: lambda T, sigma, L: zhu.corollary1_regret_bound(T, sigma, L),
    E.check_lemma5_risk: lambda w, B: population_risk(w, B),
    E.check_lemma5_frontier: lambda s, B, d: sst.lemma5_frontier(s, B, d),
    E.check_data_accesses: lambda X, method, idx: float(np.asarray(
        (X != 0).sum(axis=0 if method == "scd" else 1)).ravel()[idx].sum()),
    E.check_choose_eta: lambda etas, vals: (etas[int(np.argmin(np.where(np.isfinite(vals), vals, np.inf)))],
                                            int(np.argmin(np.where(np.isfinite(vals), vals, np.inf)))
                                            in (0, len(etas) - 1)),
    E.check_radar_update: lambda mu, y, R, alpha, p: radar_update(mu, y, R, alpha, p),
    E.check_epoch_length: lambda *args: anw.epoch_length(*args),
}


def _scd_step_in_place(X, y, w, j, lam, beta, loss):
    new = _scd_step(X, y, w, j, lam, beta, loss)
    w[:] = new          # right values, but it modifies the caller's w
    return new


def _radar_update_as_printed(mu, y, R, alpha, p):
    """(6) as printed: (p - 1) in the denominators (right on the sphere, wrong inside the ball)"""
    q = p / (p - 1)
    norm_q = np.sum(np.abs(mu) ** q) ** (1 / q)
    if norm_q == 0:
        return y.copy()
    return y - alpha * R * R / ((p - 1) * max(1.0, alpha * R * norm_q / (p - 1))) * link_inverse(mu, q)


WRONG = {
    E.check_soft_threshold: lambda w, tau: np.maximum(np.asarray(w) - tau, 0.0),       # forgets negative w
    E.check_objective: lambda X, y, w, lam, loss: _objective(X, y, w, lam, loss) - lam * np.abs(w).sum(),
    E.check_lambda_max: lambda X, y, loss: np.abs(X.T @ y).max() / X.shape[0],          # logistic's 1/2 missing
    E.check_scd_step: _scd_step_in_place,
    E.check_scd_iterations: lambda eps, d, psi0: math.ceil(d * psi0 / eps),             # one too many
    E.check_link_inverse: lambda th, p: np.sign(th) * np.abs(th) ** (p - 1),            # no normalization
    E.check_project_simplex: lambda v, z: np.maximum(v - (v.sum() - z) / v.size, 0),     # one-shot shift
    E.check_project_l1_ball: lambda v, z: v * min(1.0, z / np.abs(v).sum()),           # scaling, not projection
    E.check_smg_update: lambda w, g, eta, F1: w * (1 - eta * g),                        # no normalization
    E.check_smg_regret_bound: lambda T, d, F1, G: 4 * F1 * G * math.sqrt(math.log2(d) / T),
    E.check_grad_r_star: lambda th, p, B: grad_r_star(th, p, B, printed_rescaling=True),   # Figure 2 as printed
    E.check_corollary1_bound: lambda T, sigma, L: L ** 2 * (1 + math.log(T)) / (2 * sigma),  # 1 + ln T, not H_T
    E.check_lemma5_risk: lambda w, B: (1 - 1 / B) * w @ w + (1 - w.sum() / B) ** 2,          # 1/B, not 1/B^2
    E.check_lemma5_frontier: lambda s, B, d: min(0.12, B * B / (16 * max(s, 1))),           # the printed bound
    E.check_data_accesses: lambda X, method, idx: float(len(idx) * X.shape[0 if method == "scd" else 1]),
    E.check_choose_eta: lambda etas, vals: (etas[int(np.nanargmin(vals))], False),          # never at an edge
    E.check_radar_update: _radar_update_as_printed,
    # the epoch length of epoch 1 whatever epoch i is asked for (omega_i ignored)
    E.check_epoch_length: lambda R, i, d, s, g, G, sig, om, c1: anw.epoch_length(R, 1, d, s, g, G, sig, om, c1),
}


@pytest.mark.parametrize("checker", list(RIGHT), ids=lambda c: c.__name__)
def test_checkers_accept_the_references(checker, capsys):
    checker_contract.assert_passes(checker, RIGHT[checker], capsys)


@pytest.mark.parametrize("checker", list(WRONG), ids=lambda c: c.__name__)
def test_checkers_reject_wrong_answers_deterministically(checker, capsys):
    checker_contract.assert_fails_deterministically(checker, WRONG[checker], capsys)


def test_unfilled_and_crashing_answers():
    checker_contract.assert_unfilled_answers_raise(RIGHT)
    with pytest.raises(E.ExerciseFailed, match="raised ZeroDivisionError"):
        E.check_smg_regret_bound(lambda T, d, F1, G: 1 / 0)
    with pytest.raises(E.ExerciseFailed, match="expected shape"):
        E.check_project_simplex(lambda v, z: v[:1])


def test_constants():
    E.check_constant("rho_14_squared", 2.0)
    E.check_constant("rho_13_logistic", 1.0)
    E.check_constant("beta_logistic", 0.25)
    E.check_constant("kappa_smidas_d1000", (2 * math.log(1000) - 1) * 1000 ** (1 / math.log(1000)))
    with pytest.raises(E.ExerciseFailed):
        E.check_constant("rho_14_squared", 4.0)     # the paper's constant is for (a - y)^2
    with pytest.raises(ValueError, match="unknown constant"):
        E.check_constant("rho", 1.0)


def test_student_source():
    src = "def f(x):\n    y = 1\n    # BEGIN SOLUTION\n    return x + y\n    # END SOLUTION\n\nprint(f)"
    assert E.student_source(src) == f"def f(x):\n    y = 1\n    {E.PLACEHOLDER}\n\nprint(f)"
    assert E.student_source("# BEGIN SOLUTION\nx = 1\n# END SOLUTION") == E.PLACEHOLDER
    with pytest.raises(ValueError, match="unbalanced"):
        E.student_source("# BEGIN SOLUTION\nx = 1\n")


def test_student_notebooks_are_the_solutions_without_answers():
    assert len(CHAPTERS) >= 9
    assert sorted(p.stem for p in STUDENT.glob("*.ipynb")) == list(CHAPTERS), "a student or a solution is missing"
    for name in CHAPTERS:
        sol = nbformat.read(SOLUTIONS / f"{name}.ipynb", as_version=4)
        stu = nbformat.read(STUDENT / f"{name}.ipynb", as_version=4)
        assert stu == E.make_student_notebook(sol), \
            f"{name}: regenerate with python -m l1lab.book.exercises students ..."
        assert sum(E.SOLUTION_BEGIN in c.source for c in sol.cells if c.cell_type == "code") >= 2
        assert not any(E.SOLUTION_BEGIN in c.source for c in stu.cells)
        assert all(not c.get("outputs") for c in stu.cells if c.cell_type == "code")
        # the solutions are stored with the checkers' all-pass output
        text = "".join(o.get("text", "") for c in sol.cells if c.cell_type == "code" for o in c.outputs)
        assert "checks passed" in text and "✘" not in text


_SOLUTION_TEXT = re.compile(r"^\s*(?:\*{1,2}|_)?(?:Solution|Answer)\b", re.I)


def _solution_blocks(sol):
    """The solution blocks of a solution notebook, each as the set of its lines that say something (not a blank,
    a bracket, a comment or a line that only opens a bracket)."""
    blocks = []
    for c in sol.cells:
        if c.cell_type != "code":
            continue
        for block in re.findall(re.escape(E.SOLUTION_BEGIN) + r"[^\n]*\n(.*?)" + re.escape(E.SOLUTION_END), c.source,
                                re.S):
            lines = {line.strip() for line in block.splitlines()}
            lines = {x for x in lines if len(x) >= 12 and not x.startswith("#") and not x.endswith(("{", "(", "["))}
            if lines:
                blocks.append(lines)
    return blocks


def _copied_blocks(sol, text):
    """The solution blocks whose lines stand in ``text``: all of a one-line block, half or more of a longer one
    (a line or two a block shares with the code the notebook gives, e.g. the q-norm of a dual point, is not a
    copy of the answer)."""
    present = {line.strip() for line in text.splitlines()}
    return [sorted(b)[:3] for b in _solution_blocks(sol) if len(b & present) >= max(1, (len(b) + 1) // 2)]


@pytest.mark.parametrize("name", CHAPTERS)
def test_no_answer_in_a_students_copy(name):
    """A student's copy holds no solution: no text of a solution-only cell, no cell written as a solution that
    lacks the tag, no line of the reference code of a solution block."""
    sol = nbformat.read(SOLUTIONS / f"{name}.ipynb", as_version=4)
    stu = E.make_student_notebook(sol)
    text = "\n".join(c.source for c in stu.cells)
    leaked = [c.source[:60] for c in sol.cells if "solution-only" in c.get("metadata", {}).get("tags", [])
              and c.source.strip() and c.source.strip() in text]
    untagged = [c.source[:60] for c in stu.cells if c.cell_type == "markdown" and _SOLUTION_TEXT.match(c.source)]
    code = _copied_blocks(sol, text)
    assert not leaked and not untagged and not code, (
        f"{name}: the student's copy shows solutions: solution-only cells {leaked}, solution cells without the "
        f"'solution-only' tag {untagged}, reference code {code[:5]}")


def test_the_copy_check_sees_a_solution():
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("*Solution.* The epoch ends at T/2."),
        nbformat.v4.new_code_cell("def f(x):\n    # BEGIN SOLUTION\n    return np.sqrt(x) + 1\n    # END SOLUTION\n"
                                  "print(np.sqrt(x) + 1)")])
    stu = E.make_student_notebook(nb)
    assert _SOLUTION_TEXT.match(stu.cells[0].source)
    assert _solution_blocks(nb) == [{"return np.sqrt(x) + 1"}]
    assert _copied_blocks(nb, "\n".join(c.source for c in stu.cells)) == []
    assert _copied_blocks(nb, "def g(x):\n    return np.sqrt(x) + 1") == [["return np.sqrt(x) + 1"]]


def _nbval(*args):
    return subprocess.run([sys.executable, "-m", "pytest", "--nbval", "-q", "-p", "no:cacheprovider", *map(str, args)],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)


# three tests, not one, so that the two test workers share the notebook runs
def test_nbval_passes_on_the_solutions():
    ok = _nbval(SOLUTIONS)
    assert ok.returncode == 0, ok.stdout[-3000:]


def test_nbval_fails_on_every_student_version():
    bad = _nbval(STUDENT, "-rf")
    assert bad.returncode != 0
    assert "NotImplementedError" in bad.stdout
    failed = {Path(line.split("::")[0].split()[-1]).stem for line in bad.stdout.splitlines()
              if line.startswith("FAILED ")}
    assert failed == set(CHAPTERS), f"student versions that pass: {sorted(set(CHAPTERS) - failed)}"


def test_nbval_fails_on_a_wrong_answer(tmp_path):
    # a solution with a wrong answer, its outputs stored from the right one: the checker's exception fails it
    nb = nbformat.read(SOLUTIONS / "projections.ipynb", as_version=4)
    for cell in nb.cells:
        cell.source = cell.source.replace("theta = cums[rho] / (rho + 1)", "theta = cums[rho] / rho")
    wrong = tmp_path / "projections.ipynb"
    nbformat.write(nb, wrong)
    res = _nbval(wrong)
    assert res.returncode != 0 and "ExerciseFailed" in res.stdout


def test_command_line_writes_the_student_versions(tmp_path, capsys):
    E.main(["students", str(SOLUTIONS), str(tmp_path)])
    assert "wrote" in capsys.readouterr().out
    for name in CHAPTERS:
        assert nbformat.read(tmp_path / f"{name}.ipynb", as_version=4) == \
            nbformat.read(STUDENT / f"{name}.ipynb", as_version=4)
    with pytest.raises(SystemExit):
        E.main(["grade"])


def test_student_folder_is_skipped_unless_named():
    res = subprocess.run([sys.executable, "-m", "pytest", "--nbval-lax", "--collect-only", "-q", "-p",
                          "no:cacheprovider", "chapters/exercises"], cwd=ROOT, capture_output=True, text=True,
                         timeout=300)
    assert res.returncode == 0 and "solutions/scd.ipynb" in res.stdout and "student/" not in res.stdout


#: the line under an exercise's heading that says what it is, as the lectures' exercises state it
_EXERCISE_HEADING = re.compile(r"^## Exercise \d+\b.*$", re.M)
_KIND_LINE = re.compile(r"^\*Practice · difficulty (\d+) · about (\d+) minutes\*$")


def _exercises_without_kind(nb):
    """The headings of the '## Exercise' sections of a notebook whose first line below (after a blank line) is not
    '*Practice · difficulty N · about M minutes*' with N in 1..3 and M > 0."""
    bad = []
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            continue
        lines = cell.source.split("\n")
        for k, line in enumerate(lines):
            if not _EXERCISE_HEADING.match(line):
                continue
            below = next((x.strip() for x in lines[k + 1:] if x.strip()), "")
            m = _KIND_LINE.match(below)
            if not (m and 1 <= int(m.group(1)) <= 3 and int(m.group(2)) > 0):
                bad.append(f"{line} -> {below[:60]!r}")
    return bad


def test_every_notebook_exercise_says_what_it_is():
    """Every exercise of the solution and student notebooks states, on the first line under its heading, its kind,
    difficulty (1-3) and expected time, in the lectures' format."""
    bad, count = [], 0
    for folder in (SOLUTIONS, STUDENT):
        for name in CHAPTERS:
            nb = nbformat.read(folder / f"{name}.ipynb", as_version=4)
            count += sum(len(_EXERCISE_HEADING.findall(c.source)) for c in nb.cells if c.cell_type == "markdown")
            bad += [f"{folder.name}/{name}: {b}" for b in _exercises_without_kind(nb)]
    assert count >= 2 * 2 * len(CHAPTERS), f"only {count} exercise headings found"
    assert not bad, "exercises without '*Practice · difficulty N · about M minutes*':\n  " + "\n  ".join(bad)
    # the check sees a missing line, a difficulty out of range and a time of zero
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(s) for s in (
        "## Exercise 1: a\n\nWrite `f`.", "## Exercise 2: b\n\n*Practice · difficulty 4 · about 10 minutes*",
        "## Exercise 3: c\n\n*Practice · difficulty 2 · about 0 minutes*",
        "## Exercise 4: d\n\n*Practice · difficulty 2 · about 15 minutes*\n\nWrite `g`.")])
    assert [b.split(":")[0] for b in _exercises_without_kind(nb)] == ["## Exercise 1", "## Exercise 2",
                                                                       "## Exercise 3"]
