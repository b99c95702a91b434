r"""What the chapter notebooks need from the book build, made safe to run anywhere.

The chapters *glue* every number their prose states from the value the code computes (MyST-NB's ``glue``): the
book build puts the value into the text.  On Colab or Binder, or in a plain Jupyter, MyST-NB is not installed
(``l1lab[notebooks]`` does not pull in the book's build tools) and the notebook must still run: :func:`glue` then
keeps the value in :data:`GLUED` and shows it only when asked to (``display=True``), as MyST-NB does.
"""
from __future__ import annotations

__all__ = ["GLUED", "glue"]

#: the values glued in this kernel when MyST-NB is not installed (name -> value)
GLUED: dict = {}


def glue(name: str, variable, display: bool = True):
    """MyST-NB's ``glue(name, variable, display)`` when MyST-NB is installed (the book build); otherwise the value
    is kept in :data:`GLUED` and, with ``display``, shown as the cell's output."""
    try:
        from myst_nb import glue as myst_glue
    except ImportError:
        GLUED[name] = variable
        if display:
            from IPython.display import display as show
            show(variable)
        return None
    return myst_glue(name, variable, display=display)
