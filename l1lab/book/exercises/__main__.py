"""``python -m l1lab.book.exercises``: run solution notebooks, write the student versions."""
from ._framework import main

main()
