"""Collection rules for ``pytest --nbval(-lax) chapters``.

The student versions of the exercises (``exercises/student/``) fail by design until they are filled in, so they
are collected only when a path inside that folder is named on the command line, e.g.
``pytest --nbval chapters/exercises/student/scd.ipynb`` (see the page "For instructors").
"""
from pathlib import Path

STUDENT = (Path(__file__).parent / "exercises" / "student").resolve()


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def pytest_ignore_collect(collection_path, config):
    path = Path(collection_path).resolve()
    if not _inside(path, STUDENT):
        return None
    named = [Path(str(a).split("::")[0]).resolve() for a in config.args]
    if any(_inside(a, STUDENT) for a in named):
        return None
    return True
