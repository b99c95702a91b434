"""The book layer: what only the chapters import (matplotlib, ipywidgets), on top of the reference package.

One module per chapter holds that chapter's demos, each in three layers (a cached *data* function, a *figure*
function returning a ``matplotlib.figure.Figure``, and a *widget* built with ipywidgets inside the function):
:mod:`.l1_problem`, :mod:`.scd`, :mod:`.lower_bound`, :mod:`.fast_cd`, :mod:`.smidas`, :mod:`.experiments`,
:mod:`.projections`, :mod:`.exponentiated`, :mod:`.pgs`, :mod:`.radar`.  Shared by them:

* :mod:`.controls` -- the sliders and the wiring of a widget to its figure;
* :mod:`.live` -- figures redrawn in place, so that a slider move costs a redraw;
* :mod:`.style` -- the book's one figure style (one colour per algorithm, theory never solid);
* :mod:`.plotting` -- the standard figures (gap against bound, objective and sparsity against data accesses);
* :mod:`.exercises` -- the checkers of the exercise notebooks;
* :mod:`.roadmap` -- the lectures and what each needs first (the introduction's map, the instructors' tables).

The reference package never imports this subpackage (``tests/test_layout.py`` checks it).
"""

from .notebook import register_figure_display as _register_figure_display

_register_figure_display()     # under IPython: figures show as PNG even without %matplotlib inline
