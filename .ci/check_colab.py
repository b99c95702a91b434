"""The notebooks as a Colab user opens them, as far as a machine without Colab can check it.

Run inside a fresh virtual environment that has the built wheel of l1lab with the extra its Colab install cell
names (``l1lab[notebooks]``) and IPython, nothing else (no Jupyter Book, no MyST-NB, no pytest)::

    python .ci/check_colab.py chapters

For every chapter and exercise notebook: its first code cell is the install cell (it installs
``l1lab[notebooks]`` from the repository when ``google.colab`` is loaded, and turns on Colab's widget manager for
ipywidgets 8), and the notebook's first cells run in an IPython shell: every code cell up to and including the
first one that imports the book layer (``l1lab.book``), or the first that imports l1lab.  A cell that needs what
only the book build has (``myst_nb``) fails here, as it would on Colab.
"""
import json
import re
import sys
from pathlib import Path

INSTALL = re.compile(r'%pip install -q "l1lab\[notebooks(,[a-z]+)*\] @ git\+https://github\.com/l1lab/l1lab"')


def first_cells(nb):
    cells = [("".join(c["source"]), c) for c in nb["cells"] if c["cell_type"] == "code"]
    out = []
    for src, _ in cells:
        out.append(src)
        if re.search(r"^\s*(from|import) l1lab\.book\b|^\s*from l1lab\.book(\.\w+)* import", src, re.M):
            return out
    for k, (src, _) in enumerate(cells):          # no book layer: up to the first import of l1lab
        if re.search(r"^\s*(from|import) l1lab\b", src, re.M):
            return [s for s, _ in cells[:k + 1]]
    return out


def main(root):
    from IPython.core.interactiveshell import InteractiveShell

    class Shell(InteractiveShell):
        def enable_gui(self, gui=None):     # %matplotlib inline: no event loop to start outside a kernel
            pass

    root = Path(root).resolve()
    notebooks = sorted(root.glob("*.ipynb")) + sorted(root.glob("exercises/*/*.ipynb"))
    assert notebooks, f"no notebook under {root}"
    problems = []
    for path in notebooks:
        nb = json.loads(path.read_text())
        code = [("".join(c["source"])) for c in nb["cells"] if c["cell_type"] == "code"]
        if not code or "google.colab" not in code[0] or not INSTALL.search(code[0]) \
                or "enable_custom_widget_manager" not in code[0]:
            problems.append(f"{path}: the first code cell is not the Colab install cell")
            continue
        Shell.clear_instance()
        shell = Shell.instance()
        shell.run_line_magic("cd", f"-q {path.parent}")
        for k, src in enumerate(first_cells(nb)):
            res = shell.run_cell(src, silent=True)
            if not res.success:
                err = res.error_in_exec or res.error_before_exec
                problems.append(f"{path}: code cell {k} fails: {type(err).__name__}: {err}")
                break
        else:
            print(f"ok  {path}")
    if problems:
        print("\n".join(problems))
        sys.exit(1)
    print(f"{len(notebooks)} notebooks: the install cell is there and the first cells run with l1lab[notebooks]")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "chapters")
