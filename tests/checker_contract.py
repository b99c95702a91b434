"""What every exercise checker of ``l1lab.book.exercises`` promises, as assertions the per-lecture tests share:
a right answer passes every check, with one line a check and a total; a wrong answer fails with a ✘ line, and
the same text on every run (no timings, no addresses), so that a grading run can be compared with the last."""
import pytest

from l1lab.book import exercises as E


def assert_passes(checker, answer, capsys, min_checks=1):
    """``checker(answer)`` returns None after printing at least ``min_checks`` ✔ lines and "n/n checks passed"."""
    assert checker(answer) is None
    out = capsys.readouterr().out.splitlines()
    n = len(out) - 1
    assert n >= min_checks and all(line.startswith("✔") for line in out[:-1])
    assert out[-1].endswith(f"{n}/{n} checks passed")


def assert_fails_deterministically(checker, answer, capsys):
    """``checker(answer)`` raises ExerciseFailed after printing a ✘ line, with the same text when run again."""
    with pytest.raises(E.ExerciseFailed, match="✘"):
        checker(answer)
    first = capsys.readouterr().out
    assert "✘" in first
    with pytest.raises(E.ExerciseFailed):
        checker(answer)
    assert capsys.readouterr().out == first


def assert_unfilled_answers_raise(checkers):
    """An answer left as the student version's ``raise NotImplementedError`` is not graded as wrong: every checker
    lets the NotImplementedError through (nbval then shows it as the cell's error)."""
    def unfilled(*args):
        raise NotImplementedError("your code here")

    for checker in checkers:
        with pytest.raises(NotImplementedError):
            checker(unfilled)
