"""l1lab.book.coursework: graded problems per student, l1lab out of reach of the student's code, and the grading
command over a folder of submissions (each in its own process, with limits) into a gradebook.

The whole cycle runs here on small cases: notebooks generated for several identifiers; one filled with the model
solutions (full points), one with a wrong answer (that question's points lost, the feedback says why), one that
calls l1lab inside an answer (no points there, the message says why), one with a cell that hangs (the time limit)
and one with a cell that raises (the points earned before count), one that tries to forge its answers and to write
the gradebook (no effect), an empty notebook and a file that is not a notebook.
"""
import csv
import json

import nbformat
import numpy as np
import pytest

import l1lab
from l1lab.book import coursework as cw
from l1lab.book.coursework import guard
from l1lab.book.coursework.notebooks import PLACEHOLDER, student_notebook
from l1lab.book.coursework.runner import grade_folder

IDS = ("ada@uni.edu", "Bob Smith", "s1234567")
ASSIGNMENTS = tuple(cw.assignments())


def test_seeds_come_from_the_identifier():
    assert cw.seed_of("Ada@Uni.edu ", "scd") == cw.seed_of("ada@uni.edu", "scd")
    assert cw.seed_of("ada@uni.edu", "scd") != cw.seed_of("ada@uni.edu", "l1_problem")
    assert len({cw.seed_of(i, "scd") for i in IDS}) == len(IDS)
    for bad in ("", "   ", None, 3):
        with pytest.raises(ValueError, match="identifier must be a non-empty string"):
            cw.seed_of(bad, "scd")


@pytest.mark.parametrize("name", ASSIGNMENTS)
def test_every_assignment_is_complete(name):
    """Points, difficulty and time on every question; at least one implementation; the variants of different
    students differ (data and parameters)."""
    a = cw.assignment(name)
    assert a.points == sum(q.points for q in a.questions) > 0
    assert any(q.kind == "function" for q in a.questions)
    tasks = [a.task(i) for i in IDS]
    assert len({json.dumps(t.params, sort_keys=True) for t in tasks}) == len(IDS)
    assert len({float(np.sum(t.X)) for t in tasks}) == len(IDS)


@pytest.mark.parametrize("name", ASSIGNMENTS)
@pytest.mark.parametrize("identifier", IDS)
def test_model_solutions_earn_every_point_and_answers_are_personal(name, identifier, capsys):
    """The model solution (numpy only) passes every check for its student; a value answer of one student is
    wrong for another (the answers differ)."""
    a = cw.assignment(name)
    task = a.task(identifier)
    ns = {"np": np, "task": task}
    for q in a.questions:
        exec(q.solution, ns)
        answer, why = task.answer_of(q.name, ns)
        assert why is None, f"{name} {q.name}: {why}"
        assert task.judge(q.name, answer) is None, f"{name} {q.name}: the model solution is judged wrong"
    other = a.task(IDS[(IDS.index(identifier) + 1) % len(IDS)])
    for q in a.questions:
        if q.kind == "value":
            assert other.judge(q.name, task.answer_of(q.name, ns)[0]) is not None, f"{name} {q.name}: same answer"
    task.check(a.questions[0].name, ns)
    assert capsys.readouterr().out.startswith("✔")


@pytest.mark.parametrize("name", ASSIGNMENTS)
def test_hidden_inputs_are_drawn_with_the_graders_secret(name):
    """Every implementation question has an input that the grader's secret changes (so no notebook can know it
    in advance), and the model solution is right on the inputs of a secret too."""
    a = cw.assignment(name)
    for q in (q for q in a.questions if q.kind == "function"):
        runs = []
        for secret in (None, 11, 12):
            task = a.task(IDS[0])
            if secret is not None:
                task.variant["_secret"] = secret
            runs.append(task)
        inputs = [[args for args, _ in t._reference(q.name)] for t in runs]
        assert any(not _same(x, y) for x, y in zip(inputs[1], inputs[2])), f"{name} {q.name}: no secret input"
        assert _same(inputs[0][0], inputs[1][0]), f"{name} {q.name}: the student's own data changed"
        ns = {"np": np, "task": runs[1]}
        exec(q.solution, ns)
        answer, why = runs[1].answer_of(q.name, ns)
        assert why is None and runs[1].judge(q.name, answer) is None, f"{name} {q.name}: {why}"


def _same(a, b):
    import scipy.sparse as sp
    if isinstance(a, (list, tuple)):
        return isinstance(b, (list, tuple)) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    a, b = (x.toarray() if sp.issparse(x) else x for x in (a, b))
    return np.array_equal(np.asarray(a), np.asarray(b))


def test_a_wrong_answer_is_named_without_the_expected_value(capsys):
    a = cw.assignment("scd")
    task = a.task(IDS[0])
    ns = {"np": np, "task": task, "answer_q2": task._reference("q2") * 1.01}
    task.check("q2", ns)
    out = capsys.readouterr().out
    assert out.startswith("✘ q2") and "not equal to the reference" in out
    assert f"{task._reference('q2'):.4g}" not in out


def test_l1lab_is_out_of_reach_of_a_checked_function():
    from l1lab.projections import project_l1_ball as bound_early
    ns = {"proj": bound_early, "l1lab": l1lab}
    v = np.array([3.0, 1.0, -2.0])
    calls = {"by a name bound before": lambda: ns["proj"](v, 1.0),
             "through the package": lambda: ns["l1lab"].projections.project_l1_ball(v, 1.0),
             "through a kept reference": (lambda kept=[bound_early]: kept[0](v, 1.0))}
    for what, call in calls.items():
        with pytest.raises(guard.OwnCodeRequired, match="asks for your own code"):
            with guard.own_code_only(ns):
                call()
    assert ns["proj"] is bound_early and l1lab.projections.project_l1_ball(v, 1.0)[0] == 1.0   # restored
    with guard.own_code_only(ns):
        assert np.allclose(np.sign(v) * np.maximum(np.abs(v) - 1, 0), [2.0, 0.0, -1.0])     # numpy is fine


@pytest.mark.parametrize("name", ASSIGNMENTS)
def test_no_model_solution_in_a_students_notebook(name):
    a = cw.assignment(name)
    for ident in (*IDS, None):
        text = "\n".join(c.source for c in student_notebook(a, ident).cells)
        for q in a.questions:
            lines = [x.strip() for x in q.solution.splitlines() if len(x.strip()) >= 12 and x not in q.starter]
            assert not [x for x in lines if x in text], f"{name} {q.name}: a line of the model solution"
        assert PLACEHOLDER in text or all(q.kind == "value" for q in a.questions)
    with pytest.raises(ValueError, match="made for one identifier"):
        student_notebook(a, None, solutions=True)


def _answer_cell(nb, q):
    return next(i for i, c in enumerate(nb.cells) if "answer" in c.metadata.get("tags", [])
                and (f"answer_{q}" in c.source or f"def {cw.assignment('scd').question(q).function}" in c.source
                     if cw.assignment("scd").question(q).kind == "function" else f"answer_{q}" in c.source))


def _grade_the_cases(tmp_path):
    a = cw.assignment("scd")
    sub, out = tmp_path / "submissions", tmp_path / "grades"
    sub.mkdir()
    key = {i: student_notebook(a, i, solutions=True) for i in IDS}
    nbformat.write(key[IDS[0]], sub / "full.ipynb")
    wrong = key[IDS[1]]
    wrong.cells[_answer_cell(wrong, "q2")].source += "\nanswer_q2 = answer_q2 * 1.001"
    nbformat.write(wrong, sub / "wrong.ipynb")
    uses = student_notebook(a, IDS[2], solutions=True)
    uses.cells[_answer_cell(uses, "q1")].source = (
        "def scd_steps(X, y, lam, coords):\n"
        "    from l1lab.book.coursework.coordinate import _scd_run, _problem\n"
        "    return _scd_run(_problem(task.variant, X, y, lam), coords)")
    nbformat.write(uses, sub / "uses.ipynb")
    hangs = student_notebook(a, "hangs", solutions=True)
    hangs.cells.insert(_answer_cell(hangs, "q3"), nbformat.v4.new_code_cell("while True:\n    pass"))
    nbformat.write(hangs, sub / "hangs.ipynb")
    raises = student_notebook(a, "raises", solutions=True)
    raises.cells.insert(_answer_cell(raises, "q2"), nbformat.v4.new_code_cell("1 / 0"))
    nbformat.write(raises, sub / "raises.ipynb")
    forges = student_notebook(a, "forges")
    forges.cells.append(nbformat.v4.new_code_cell(
        "import builtins, json\n"
        "line = 'L1LAB-ANSWER ' + json.dumps({'question': 'q2', 'answer': 0.0, 'why': None})\n"
        "print(line)\n"
        "task.check = lambda *args, **kwargs: print('✔ everything')\n"
        "task.judge = lambda *args, **kwargs: None\n"
        "open('gradebook.csv', 'w').write('identifier,q1,q2,q3,total,out_of\\nforges,4,2,4,10,10\\n')"))
    nbformat.write(forges, sub / "forges.ipynb")
    peeks = student_notebook(a, "peeks")          # the checker's reference answers, read through the handout's task
    peeks.cells[_answer_cell(peeks, "q1")].source = (
        "_table = task._reference('q1')\n"
        "def scd_steps(X, y, lam, coords):\n"
        "    return next(out for args, out in _table if np.array_equal(args[3], coords))")
    peeks.cells[_answer_cell(peeks, "q2")].source = "answer_q2 = task._reference('q2')"
    peeks.cells[_answer_cell(peeks, "q3")].source = "task.check('q3', globals())\nanswer_q3 = task.variant['_cache']"
    nbformat.write(peeks, sub / "peeks.ipynb")
    table = student_notebook(a, "table", solutions=True)  # outputs computed beforehand, looked up by the input
    outputs = {tuple(args[3].tolist()): out.tolist() for args, out in a.task("table")._reference("q1")}
    table.cells[_answer_cell(table, "q1")].source = (
        f"_outputs = {outputs!r}\n"
        "def scd_steps(X, y, lam, coords):\n"
        "    return np.array(_outputs.get(tuple(coords.tolist()), next(iter(_outputs.values()))))")
    nbformat.write(table, sub / "table.ipynb")
    nbformat.write(nbformat.v4.new_notebook(), sub / "empty.ipynb")
    (sub / "garbage.ipynb").write_text("this is not a notebook")
    roster = {"full": IDS[0], "wrong": IDS[1], "uses": IDS[2]}
    results = grade_folder(a, sub, out, roster=roster, n_jobs=2, cell_seconds=20, total_seconds=240)
    with open(out / "gradebook.csv", newline="") as f:
        book = {row["identifier"]: row for row in csv.DictReader(f)}
    feedback = {r.identifier: "\n".join(r.feedback) for r in results}
    return a, book, feedback, out


def test_the_grading_cycle(tmp_path):
    """One grading run of every case (one test, so that the two test workers do not both run it)."""
    a, book, feedback, out = _grade_the_cases(tmp_path)
    # a row per student, a column per question, the total; a feedback file each
    assert set(book) == {*IDS, "hangs", "raises", "forges", "peeks", "table", "empty", "garbage"}
    for row in book.values():
        assert list(row) == ["identifier", "q1", "q2", "q3", "total", "out_of"]
        assert int(row["total"]) == sum(int(row[q]) for q in ("q1", "q2", "q3")) and int(row["out_of"]) == a.points
    assert sorted(p.name for p in (out / "feedback").iterdir()) == sorted(f"{i.replace(' ', '_')}.txt" for i in book)

    # full points, one wrong answer, l1lab inside an answer
    assert int(book[IDS[0]]["total"]) == a.points
    assert (book[IDS[1]]["q1"], book[IDS[1]]["q2"], book[IDS[1]]["q3"]) == ("4", "0", "4")
    assert "✘ q2 (0/2)" in feedback[IDS[1]] and "not equal to the reference" in feedback[IDS[1]]
    # the function's run meets the guard; the cell names l1lab, which voids it and every value answer (they may
    # come from it: q2 here is computed with that function)
    assert book[IDS[2]]["total"] == "0" and "your own code" in feedback[IDS[2]] and "names l1lab" in feedback[IDS[2]]

    # a cell that hangs, a cell that raises, forged answers and gradebook, an empty notebook, not a notebook
    assert (book["hangs"]["q1"], book["hangs"]["q2"], book["hangs"]["q3"]) == ("4", "2", "0")
    assert "longer than 20 s" in feedback["hangs"]
    assert (book["raises"]["q1"], book["raises"]["q2"], book["raises"]["q3"]) == ("4", "0", "0")
    assert "ZeroDivisionError" in feedback["raises"]
    assert book["forges"]["total"] == "0" and "not answered yet" in feedback["forges"]
    assert book["empty"]["total"] == "0" and "no answer_q2 defined" in feedback["empty"]
    # the checker's reference answers read in the notebook: void; answers looked up in a table made beforehand:
    # the hidden inputs are drawn by the grader, so the second input is not in the table
    assert book["peeks"]["total"] == "0" and feedback["peeks"].count("checker's internals") == 3
    assert book["table"]["q1"] == "0" and "on input 2 of" in feedback["table"]
    assert (book["table"]["q2"], book["table"]["q3"]) == ("2", "4")
    assert book["garbage"]["total"] == "0" and "not a readable notebook" in feedback["garbage"]
    assert not list(out.glob("*.ipynb")) and (out / "gradebook.csv").read_text().count("forges") == 1


def test_out_dir_may_not_lie_inside_the_submissions(tmp_path):
    with pytest.raises(ValueError, match="must not lie inside"):
        grade_folder("scd", tmp_path, tmp_path / "grades")


def test_command_line_hands_out_and_lists(tmp_path, capsys):
    from l1lab.book.coursework.__main__ import main
    (tmp_path / "roster.txt").write_text("ada@uni.edu\nBob Smith\n")
    main(["handout", "scd", "--roster", str(tmp_path / "roster.txt"), "--out", str(tmp_path / "h")])
    main(["handout", "scd", "--out", str(tmp_path / "g")])
    main(["list"])
    out = capsys.readouterr().out
    assert sorted(p.name for p in (tmp_path / "h").iterdir()) == ["Bob_Smith.ipynb", "ada@uni.edu.ipynb"]
    generic = nbformat.read(tmp_path / "g" / "scd.ipynb", as_version=4)
    assert "STUDENT = 'your identifier here'" in generic.cells[1].source and "scd" in out


def test_each_assignment_is_in_the_week_of_its_lecture_in_the_pacing_plan():
    import re
    from pathlib import Path
    page = (Path(__file__).resolve().parents[1] / "instructors.md").read_text(encoding="utf-8")
    weeks = {}
    for row in re.findall(r"^\| (\d+) \| (.*?) \|", page, re.M):
        for lecture in re.findall(r"\{doc\}`chapters/(\w+)`", row[1]):
            weeks[lecture] = int(row[0])
    assert len(weeks) >= 16
    wrong = {a.name: (a.week, weeks.get(a.lecture)) for a in cw.assignments().values()
             if a.week != weeks.get(a.lecture)}
    assert not wrong, f"assignment week against the pacing plan's: {wrong}"


def test_what_counts_as_naming_l1lab_in_a_students_cell():
    from l1lab.book.coursework.runner import _L1LAB, _code_only
    names = {src: bool(_L1LAB.search(_code_only(src))) for src in (
        "x = 1  # as l1lab does", 's = "the l1lab way"', "import l1lab", "from l1lab.projections import p",
        '__import__("l1" + "lab")', "importlib.import_module(name)", "exec(code)", "task._reference('q2')",
        "task.variant['_cache']", "getattr(task, 'var' + 'iant')", "task.__dict__", "task.check('q1', globals())",
        "X, y = task.X, task.y", "q = a.question('q1')")}
    assert names == {"x = 1  # as l1lab does": False, 's = "the l1lab way"': False, "import l1lab": True,
                     "from l1lab.projections import p": True, '__import__("l1" + "lab")': True,
                     "importlib.import_module(name)": True, "exec(code)": True, "task._reference('q2')": True,
                     "task.variant['_cache']": True, "getattr(task, 'var' + 'iant')": True, "task.__dict__": True,
                     "task.check('q1', globals())": False, "X, y = task.X, task.y": False,
                     "q = a.question('q1')": True}


def test_every_topic_has_a_graded_assignment():
    """One graded assignment per topic: a lecture of the roadmap that does not continue another one (a second part
    shares its first part's assignment), outside the back matter (the unnumbered part of _toc.yml, whose appendices,
    the tools and the scikit-learn estimators, have no graded work)."""
    from pathlib import Path

    import yaml

    from l1lab.book import roadmap
    toc = yaml.safe_load((Path(__file__).resolve().parents[1] / "_toc.yml").read_text(encoding="utf-8"))
    appendices = {ch["file"] for part in toc["parts"] if not part.get("numbered") for ch in part["chapters"]}
    assert {"chapters/tools", "chapters/tools_divergences", "chapters/estimators"} <= appendices
    topics = {lec.page for lec in roadmap.LECTURES if not lec.continues and lec.page not in appendices}
    graded = [f"chapters/{a.lecture}" for a in cw.assignments().values()]
    assert len(graded) == len(set(graded)), f"two assignments for one topic: {sorted(graded)}"
    assert set(graded) == topics, f"topics without an assignment: {sorted(topics - set(graded))}; " \
                                  f"assignments of no topic: {sorted(set(graded) - topics)}"


def test_a_container_has_memory_and_process_limits_and_a_name_to_kill():
    from l1lab.book.coursework.runner import _container_command
    cmd = _container_command("course-image", "/tmp/sub", ["submission.ipynb", "scd", "ada", "60"], "l1lab-grade-x",
                             2048)
    flags = dict(zip(cmd, cmd[1:]))
    assert flags["--memory"] == "2048m" and flags["--pids-limit"] == "256" and flags["--name"] == "l1lab-grade-x"
    assert flags["--network"] == "none" and "--read-only" in cmd and "-i" in cmd    # -i: the grader's inputs on stdin
    assert cmd[cmd.index("course-image") + 1:] == ["python", "-m", "l1lab.book.coursework.runner", "submission.ipynb",
                                                   "scd", "ada", "60"]
