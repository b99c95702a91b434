r"""Grading a folder of submitted notebooks: each in its own process, with time and memory limits, in a temporary
directory of its own; the points computed where no submission runs.

For each submission (a notebook, and the identifier of its student: the file's name, ``<identifier>.ipynb``, or a
roster) :func:`grade_submission`:

1. copies the notebook alone into a fresh temporary directory and starts a **worker process** there (its own
   session, ``RLIMIT_AS`` for memory, ``RLIMIT_CPU`` for processor time, ``HOME`` in the temporary directory),
   which executes the notebook in a fresh kernel, cell by cell with a time limit per cell (a cell that raises or
   hangs stops the notebook there; what was answered before counts);
2. in the same kernel, a harness reads each answer (a value, or the student's function called on the student's
   variant and on more inputs, each call with a time limit and with l1lab out of reach:
   :func:`l1lab.book.coursework.guard.own_code_only`) and prints it as JSON, one line per question.  The more
   inputs are drawn by the grader with a secret of that run (:func:`l1lab.book.coursework.hidden_rng`) and
   reach the kernel only after the submission's cells have run (the worker reads them from its standard input
   and hands them to the harness): no cell can compute them, nor look their answers up, in advance; the
   expected answers are never computed in the kernel;
3. back in the **grader's process**, the JSON is parsed (never unpickled) and each answer compared with the
   expected answer the grader computes for that identifier with l1lab; the submission's code cells are read too:
   a cell the handout did not give that names l1lab, or reaches into the checker's internals (the task's
   reference answers, its variant or assignment objects, attribute lookups by name), voids the answers it defines
   (value answers: any such cell).

So a notebook that redefines the checks, patches l1lab in its kernel or writes a gradebook changes only its own
answers: the checks, the points and the gradebook live in the grader's process and folder.  The wall-clock limit
of the whole submission kills the worker's process group.  What is left to the instructor: the worker runs as the
instructor's user, so a submission could read other files the user can read, or use the network.  Against that,
run the grading command inside a container or a throw-away account (``--container IMAGE`` runs each worker with
``docker run --network none --read-only`` and only its temporary directory mounted).

:func:`grade_folder` grades many submissions in parallel (threads that each wait on a worker process, or a Dask
cluster through joblib's dask backend, as the sweeps do), writes ``gradebook.csv`` (one row per student, one column
per question, the total) and ``feedback/<identifier>.txt``.
"""
from __future__ import annotations

import csv
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["GradeResult", "MARKER", "collect", "grade_folder", "grade_submission", "write_gradebook"]

#: the prefix of the harness's output lines
MARKER = "L1LAB-ANSWER "
#: what a cell may not name unless the handout gave it: l1lab, imports by name, code from strings, and the ways
#: into the checker's reference answers (a task's ``_reference``, ``variant`` (its cache), ``assignment`` and
#: questions, attribute lookups by name)
_L1LAB = re.compile(r"\bl1lab\b|__import__|importlib|\bexec\s*\(|\beval\s*\(|\bcompile\s*\("
                    r"|\.\s*_reference\b|\.\s*expected\b|\.\s*variant\b|\.\s*assignment\b|\.\s*question\s*\("
                    r"|\b_cache\b|\b_secret\b"
                    r"|\bgetattr\s*\(|\bvars\s*\(|__dict__|__class__|__globals__|\bsys\s*\.\s*modules\b|\bgc\b|\binspect\b")
_STUDENT_CELL = re.compile(r"""\A\s*STUDENT\s*=\s*(["'])[^"'\n]*\1\s*\Z""")


@dataclass
class GradeResult:
    """The grade of one submission: points per question, the total, and the feedback lines."""

    identifier: str
    points: dict
    max_points: dict
    feedback: list = field(default_factory=list)

    @property
    def total(self):
        return sum(self.points.values())


# --------------------------------------------------------------------------------------------- in the kernel
def collect(assignment_name: str, identifier: str, namespace: dict, seconds: float = 60.0, inputs_path=None):
    """The harness, run in the submission's kernel after its cells: print each question's answer as one JSON line
    (``MARKER`` then ``{"question", "answer", "why"}``); a function is called with a time limit of ``seconds``
    per question, on the grader's inputs (a pickle at ``inputs_path``, {question: [args, ...]}, deleted once
    read) or, without them, on the task's own reference inputs."""
    import pickle

    from . import assignment

    task = assignment(assignment_name).task(identifier)
    inputs = {}
    if inputs_path is not None:
        with open(inputs_path, "rb") as f:
            inputs = pickle.load(f)
        os.remove(inputs_path)

    def alarm(signum, frame):
        raise TimeoutError(f"the function took longer than {seconds:g} s")

    for q in task.assignment.questions:
        given = inputs.get(q.name)
        if q.kind == "function" and given is None:
            task._reference(q.name)              # the inputs, outside the guard and the clock
        previous = signal.signal(signal.SIGALRM, alarm)
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            answer, why = task.answer_of(q.name, namespace, inputs=given)
        except TimeoutError as err:
            answer, why = None, str(err)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
        print(MARKER + json.dumps({"question": q.name, "answer": answer, "why": why}), flush=True)


# --------------------------------------------------------------------------------------------- the worker
def _limits(memory_mb, cpu_seconds):
    def apply():
        import resource
        if memory_mb:
            resource.setrlimit(resource.RLIMIT_AS, (memory_mb * 2 ** 20, memory_mb * 2 ** 20))
        if cpu_seconds:
            resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 5))
    return apply


def _worker(argv=None):
    """``python -m l1lab.book.coursework.runner NOTEBOOK ASSIGNMENT IDENTIFIER CELL_SECONDS``: execute the
    notebook in a fresh kernel, then the harness on the inputs read from standard input (the grader's pickle, read
    before the notebook starts and written for the harness only after its cells have run); print the harness's
    lines and one status line."""
    import secrets

    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError

    path, name, identifier, cell_seconds = (argv or sys.argv[1:])[:4]
    cell_seconds = float(cell_seconds)
    inputs = sys.stdin.buffer.read()
    inputs_path = os.path.join(os.path.dirname(os.path.abspath(path)), f".inputs-{secrets.token_hex(8)}.pkl")
    nb = nbformat.read(path, as_version=4)
    harness = nbformat.v4.new_code_cell(
        "from l1lab.book.coursework.runner import collect as _l1lab_collect\n"
        f"_l1lab_collect({name!r}, {identifier!r}, globals(), {cell_seconds!r}, "
        f"{inputs_path if inputs else None!r})")
    client = NotebookClient(nb, timeout=int(cell_seconds), kernel_name="python3", allow_errors=False,
                            interrupt_on_timeout=True, resources={"metadata": {"path": os.path.dirname(path)}})
    status = None
    with client.setup_kernel():
        for index, cell in enumerate(nb.cells):
            if cell.cell_type != "code":
                continue
            try:
                client.execute_cell(cell, index)
            except CellTimeoutError:
                status = f"the notebook stopped at cell {index + 1}: it ran longer than {cell_seconds:g} s"
                break
            except CellExecutionError as err:
                if err.ename == "KeyboardInterrupt":      # interrupted at the time limit
                    status = f"the notebook stopped at cell {index + 1}: it ran longer than {cell_seconds:g} s"
                    break
                status = f"the notebook stopped at cell {index + 1}: {err.ename}: {str(err.evalue)[:200]}"
                break
            except DeadKernelError:
                status = f"the notebook's kernel died at cell {index + 1} (memory limit?)"
                break
        try:
            n_questions = len(nb.cells) + 1
            client.timeout = int(cell_seconds * n_questions + 30)
            nb.cells.append(harness)
            if inputs:
                with open(inputs_path, "wb") as f:
                    f.write(inputs)
            client.execute_cell(harness, len(nb.cells) - 1)
        except Exception as err:  # the harness cannot run: the answers read so far stand
            status = (status + "; " if status else "") + f"the answers could not all be read ({type(err).__name__})"
    for out in harness.get("outputs", []):
        if out.get("output_type") == "stream" and out.get("name") == "stdout":
            for line in out["text"].splitlines():
                if line.startswith(MARKER):
                    print(line)
    print(MARKER + json.dumps({"status": status}))


# --------------------------------------------------------------------------------------------- the grader
def _given_sources(assignment, identifier):
    from .notebooks import student_notebook
    given = set()
    for ident in (identifier, None):
        for cell in student_notebook(assignment, ident).cells:
            if cell.cell_type == "code" and "given" in cell.metadata.get("tags", []):
                given.add(cell.source.strip())
    return given


def _code_only(source):
    """``source`` without its comments and string literals (a comment "as l1lab does" is not a use of l1lab;
    ``__import__("l1lab")`` still is, by its name); the source itself when it does not tokenize."""
    import io
    import tokenize
    try:
        tokens = [t for t in tokenize.generate_tokens(io.StringIO(source).readline)
                  if t.type not in (tokenize.COMMENT, tokenize.STRING)]
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return source
    return " ".join(t.string for t in tokens)


def _defined_in(source):
    names = set(re.findall(r"^\s*def\s+(\w+)", source, re.M))
    names |= set(re.findall(r"^\s*(answer_\w+)\s*=", source, re.M))
    return names


def _source_findings(assignment, identifier, nb):
    """{question name: why its answer is void} from the submission's own cells that name l1lab."""
    given = _given_sources(assignment, identifier)
    void = {}
    own = [c.source for c in nb.cells if c.cell_type == "code" and c.source.strip() not in given
           and not _STUDENT_CELL.match(c.source)]
    naming = [s for s in own if _L1LAB.search(_code_only(s))]
    if not naming:
        return void
    defined = set().union(*(_defined_in(s) for s in naming))
    for q in assignment.questions:
        if q.kind == "value" or q.variable in defined:
            void[q.name] = ("a cell of yours names l1lab (or imports by name) or reaches into the checker's internals: "
                            "the exercise asks for your own code, so this answer earns no points")
    return void


def _container_command(image, tmp, argv, name, memory_mb):
    return ["docker", "run", "--rm", "-i", "--name", name, "--network", "none", "--read-only", "--tmpfs", "/tmp",
            "--memory", f"{int(memory_mb)}m", "--pids-limit", "256",
            "-v", f"{tmp}:/submission", "-w", "/submission", "-e", "HOME=/submission", image,
            "python", "-m", "l1lab.book.coursework.runner", *argv]


def grade_submission(assignment, identifier: str, notebook: bytes | str | Path, *, cell_seconds: float = 60.0,
                     total_seconds: float = 600.0, memory_mb: int = 4096, container: str | None = None
                     ) -> GradeResult:
    """Grade one submission (the notebook's bytes or path) of the student ``identifier``: see the module's
    description.  Never raises for a bad submission: a notebook that is empty, raises, hangs or is not a notebook
    gets the points it earned and the feedback says why."""
    import pickle
    import secrets

    import nbformat

    from . import assignment as _assignment
    if isinstance(assignment, str):
        assignment = _assignment(assignment)
    task = assignment.task(identifier)
    task.variant["_secret"] = secrets.randbits(62)   # this run's hidden inputs: drawn here, unknown to the notebook
    for q in assignment.questions:                # the references first, before anything of the submission runs
        task._reference(q.name)
    inputs = pickle.dumps({q.name: [args for args, _ in task._reference(q.name)]
                           for q in assignment.questions if q.kind == "function"})
    points = {q.name: 0 for q in assignment.questions}
    maxima = {q.name: q.points for q in assignment.questions}
    result = GradeResult(identifier, points, maxima)
    data = Path(notebook).read_bytes() if isinstance(notebook, (str, Path)) else bytes(notebook)
    try:
        nb = nbformat.reads(data.decode("utf-8"), as_version=4)
    except Exception as err:
        result.feedback.append(f"the submission is not a readable notebook ({type(err).__name__}): no points")
        return result
    student = next((m.group(0) for c in nb.cells if c.cell_type == "code"
                    for m in [_STUDENT_CELL.match(c.source)] if m), None)
    if student is not None and re.search(r"(['\"])(.*)\1", student).group(2).strip().casefold() != \
            identifier.strip().casefold():
        result.feedback.append(f"the notebook's STUDENT is not {identifier!r}: it is graded as {identifier!r}'s "
                               "variant (the roster's identifier)")
    tmp = tempfile.mkdtemp(prefix="l1lab-grade-")
    try:
        path = os.path.join(tmp, "submission.ipynb")
        with open(path, "wb") as f:
            f.write(data)
        argv = ["submission.ipynb" if container else path, assignment.name, identifier, str(cell_seconds)]
        box = f"l1lab-grade-{secrets.token_hex(6)}"
        cmd = _container_command(container, tmp, argv, box, memory_mb) if container else \
            [sys.executable, "-m", "l1lab.book.coursework.runner", *argv]
        env = {k: v for k, v in os.environ.items() if not k.startswith(("JUPYTER", "IPY"))}
        env.update(HOME=tmp, MPLBACKEND="Agg", PYTHONDONTWRITEBYTECODE="1")
        proc = subprocess.Popen(cmd, cwd=tmp, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                stdin=subprocess.PIPE, start_new_session=True,
                                preexec_fn=None if container else _limits(memory_mb, int(total_seconds)))
        try:
            out, _ = proc.communicate(inputs, timeout=total_seconds)
        except subprocess.TimeoutExpired:
            if container:                         # the client's death does not stop the container
                subprocess.run(["docker", "kill", box], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            _kill(proc)
            out, _ = proc.communicate()
            result.feedback.append(f"the submission ran longer than {total_seconds:g} s and was stopped")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    answers, status = {}, None
    out = (out or b"").decode("utf-8", errors="replace")
    for line in out.splitlines():
        if not line.startswith(MARKER):
            continue
        try:
            item = json.loads(line[len(MARKER):])
        except json.JSONDecodeError:
            continue
        if not isinstance(item, dict):
            continue
        if "status" in item and item["status"] is not None:
            status = str(item["status"])
        elif item.get("question") in points:
            answers.setdefault(item["question"], item)        # the harness's first line for a question counts
    if status:
        result.feedback.append(status)
    void = _source_findings(assignment, identifier, nb)
    for q in assignment.questions:
        item = answers.get(q.name)
        if q.name in void:
            why = void[q.name]
        elif item is None:
            why = "no answer was read (the notebook stopped before the answers could be read)"
        elif item.get("why"):
            why = str(item["why"])
        else:
            why = task.judge(q.name, item.get("answer"))
        if why is None:
            points[q.name] = q.points
            result.feedback.append(f"✔ {q.name} ({q.points}/{q.points}): {q.title}")
        else:
            result.feedback.append(f"✘ {q.name} (0/{q.points}): {q.title} -- {why}")
    return result


def _kill(proc):
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        proc.kill()


def write_gradebook(results, out_dir, assignment):
    """``gradebook.csv`` (identifier, one column per question, total, out of) and ``feedback/<identifier>.txt``
    in ``out_dir``."""
    out = Path(out_dir)
    (out / "feedback").mkdir(parents=True, exist_ok=True)
    names = [q.name for q in assignment.questions]
    with open(out / "gradebook.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["identifier", *names, "total", "out_of"])
        for r in sorted(results, key=lambda r: r.identifier):
            w.writerow([r.identifier, *(r.points[n] for n in names), r.total, assignment.points])
    for r in results:
        safe = re.sub(r"[^\w.@+-]", "_", r.identifier)
        text = [f"{assignment.title}: {r.identifier}", f"total: {r.total} / {assignment.points}", "", *r.feedback]
        (out / "feedback" / f"{safe}.txt").write_text("\n".join(text) + "\n", encoding="utf-8")
    return out / "gradebook.csv"


def grade_folder(assignment, submissions, out_dir, *, roster: dict | None = None, n_jobs: int | None = None,
                 cluster=None, **limits):
    """Grade every ``*.ipynb`` in ``submissions`` (the identifier is the file's stem, or ``roster[stem]``) and
    write the gradebook and the feedback to ``out_dir`` (which must not lie inside ``submissions``).  ``n_jobs``:
    submissions graded at once (default: the machine's cores); ``cluster``: a Dask scheduler address, Cluster or
    Client to grade on (workers need l1lab[classroom]).  ``limits``: :func:`grade_submission`'s."""
    from . import assignment as _assignment
    if isinstance(assignment, str):
        assignment = _assignment(assignment)
    src, out = Path(submissions).resolve(), Path(out_dir).resolve()
    if out == src or src in out.parents:
        raise ValueError("out_dir must not lie inside the submissions folder (a submission must not see it)")
    files = sorted(src.glob("*.ipynb"))
    jobs = [((roster or {}).get(p.stem, p.stem), p.read_bytes()) for p in files]
    import joblib
    calls = [joblib.delayed(grade_submission)(assignment.name, ident, data, **limits) for ident, data in jobs]
    if cluster is not None:
        from ...experiments import _dask_client
        client, close = _dask_client(cluster)
        try:
            with joblib.parallel_config(backend="dask", client=client):
                results = joblib.Parallel()(calls)
        finally:
            if close:
                client.close()
    else:
        results = joblib.Parallel(n_jobs=n_jobs or os.cpu_count() or 1, backend="threading")(calls)
    write_gradebook(results, out, assignment)
    return results


if __name__ == "__main__":
    _worker()
