"""``python -m l1lab.book.coursework``: hand out graded notebooks, grade a folder of submissions, list the work.

    python -m l1lab.book.coursework list
    python -m l1lab.book.coursework handout scd --roster roster.txt --out handout/     # one notebook per student
    python -m l1lab.book.coursework handout scd --out handout/                         # the generic notebook
    python -m l1lab.book.coursework handout scd --solutions ada@uni.edu --out key/     # the instructors' key
    python -m l1lab.book.coursework grade scd submissions/ --out grades/ [--roster roster.csv] [--jobs 8]
        [--cell-seconds 60] [--total-seconds 600] [--memory-mb 4096] [--dask tcp://host:8786]
        [--container IMAGE]

A roster is a text file with one identifier per line, or a CSV ``file,identifier`` (the submission's file name
without .ipynb, and the student's identifier) when the files are not named by identifier.
"""
from __future__ import annotations

import argparse
import csv
import re
import sys
from pathlib import Path

import nbformat

from . import assignment, assignments
from .notebooks import student_notebook
from .runner import grade_folder


def _safe(identifier):
    return re.sub(r"[^\w.@+-]", "_", identifier)


def _read_roster(path):
    text = Path(path).read_text(encoding="utf-8").splitlines()
    rows = [r for r in csv.reader(text) if r and r[0].strip() and not r[0].startswith("#")]
    if rows and all(len(r) >= 2 for r in rows):
        return {r[0].strip(): r[1].strip() for r in rows}
    return {r[0].strip(): r[0].strip() for r in rows}


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m l1lab.book.coursework", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="the graded assignments, their points and weeks")
    h = sub.add_parser("handout", help="write graded notebooks")
    h.add_argument("assignment")
    h.add_argument("--out", required=True)
    h.add_argument("--roster", help="one identifier per line: one notebook each (default: the generic notebook)")
    h.add_argument("--solutions", metavar="IDENTIFIER", help="the instructors' key for this identifier")
    g = sub.add_parser("grade", help="grade a folder of submitted notebooks")
    g.add_argument("assignment")
    g.add_argument("submissions")
    g.add_argument("--out", required=True)
    g.add_argument("--roster")
    g.add_argument("--jobs", type=int, default=None)
    g.add_argument("--cell-seconds", type=float, default=60.0)
    g.add_argument("--total-seconds", type=float, default=600.0)
    g.add_argument("--memory-mb", type=int, default=4096)
    g.add_argument("--dask", default=None, help="a Dask scheduler address to grade on")
    g.add_argument("--container", default=None, help="run each submission in this Docker image")
    args = parser.parse_args(argv)
    if args.command == "list":
        for a in assignments().values():
            print(f"{a.name:22s} week {a.week:2d}  {a.points:3d} points  {len(a.questions)} questions  {a.title}")
        return 0
    a = assignment(args.assignment)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.command == "handout":
        if args.solutions:
            path = out / f"{a.name}-key-{_safe(args.solutions)}.ipynb"
            nbformat.write(student_notebook(a, args.solutions, solutions=True), path)
            print(f"wrote {path}")
            return 0
        idents = list(_read_roster(args.roster).values()) if args.roster else [None]
        for ident in idents:
            path = out / (f"{a.name}.ipynb" if ident is None else f"{_safe(ident)}.ipynb")
            nbformat.write(student_notebook(a, ident), path)
            print(f"wrote {path}")
        return 0
    roster = _read_roster(args.roster) if args.roster else None
    results = grade_folder(a, args.submissions, out, roster=roster, n_jobs=args.jobs, cluster=args.dask,
                           cell_seconds=args.cell_seconds, total_seconds=args.total_seconds,
                           memory_mb=args.memory_mb, container=args.container)
    for r in sorted(results, key=lambda r: r.identifier):
        print(f"{r.identifier}: {r.total}/{a.points}")
    print(f"wrote {out / 'gradebook.csv'} and {out / 'feedback'}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
