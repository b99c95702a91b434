"""The book's figures are read at the page's width (about 8 inches): a figure function's result must fit it and
keep every visible text at 9 pt or more (ticks, labels, legends, titles), which is 9 px or more as displayed
(the rule is :func:`l1lab.book.style.readability_problems`, which the notebook display applies to figures drawn
by code on a page)."""
from l1lab.book.style import MIN_PT, PAGE_WIDTH_IN, readability_problems

__all__ = ["MIN_PT", "PAGE_WIDTH_IN", "assert_readable"]


def assert_readable(fig):
    problems = readability_problems(fig)
    assert not problems, "; ".join(problems)
