"""Graded problems of the lectures of this family (see :mod:`l1lab.book.coursework`)."""
from __future__ import annotations

__all__ = ["ASSIGNMENTS"]

ASSIGNMENTS = ()
