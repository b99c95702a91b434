"""l1lab.book.style: the book's one figure style (the demos' figures are checked with it in tests/test_live.py)."""
import ast
import importlib
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import pytest  # noqa: E402
from matplotlib.colors import to_hex  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from l1lab.book import style  # noqa: E402


@pytest.mark.parametrize("table", ["plotting.ALGORITHM_COLORS", "experiments.ALGORITHM_COLORS",
                                   "exponentiated.ALGORITHM_COLORS", "radar.ALGORITHM_COLORS",
                                   "smidas.ALGORITHM_COLORS", "projections.EG_COLORS"])
def test_every_chapter_uses_the_books_colour_for_each_algorithm(table):
    module, name = table.split(".")
    for algorithm, color in getattr(importlib.import_module(f"l1lab.book.{module}"), name).items():
        assert to_hex(color) == to_hex(style.ALGORITHM_COLORS[algorithm]), f"{table}: {algorithm}"


def test_shades_stay_on_the_algorithms_colour():
    assert style.shade("SCD", 0.0) == to_hex("C0")
    assert style.shade("SCD", -1.0) == "#ffffff"
    assert style._is_shade(style.shade("SMG", -0.6), "C3") and style._is_shade(style.shade("SMG", 0.5), "C3")
    assert not style._is_shade("C0", "C3") and not style._is_shade("0.5", "C3")
    with pytest.raises(ValueError, match="t must be"):
        style.shade("SCD", 2.0)
    with pytest.raises(KeyError, match="no colour for algorithm 'Adam'"):
        style.algorithm_color("Adam")


def test_style_problems_finds_wrong_colours_and_solid_theory():
    fig = Figure()
    ax = fig.subplots()
    ax.plot([1, 2], color="C0", label="SCD: mean over 5 seeds")
    ax.plot([1, 2], color=style.shade("RADAR", -0.4), label="RADAR, d = 100")
    ax.plot([1, 2], label="_nolegend_", color="C5")
    ax.plot([1, 2], **style.BOUND, label="Theorem 1: bound")
    assert style.style_problems(fig) == []
    ax.plot([1, 2], color="C2", label="TruncGrad (η = 0.1)")          # green: the book's TruncGrad is purple
    ax.plot([1, 2], color="k", label="Corollary 1: −(2 − q)/2")        # theory drawn solid
    ax.plot([1, 2], "o", color="k", label="Lemma 5 at the design points")  # markers only: allowed
    ax.plot([1, 2], color="C3", label="RADAR-CONST")                   # the longer name wins: C1, not C3
    probs = style.style_problems(fig)
    assert len(probs) == 3
    assert "TruncGrad" in probs[0] and "Corollary 1" in probs[1] and "RADAR-CONST" in probs[2]


def _literal_label(node):
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
    return None


def test_no_figure_of_the_book_draws_theory_solid():
    """Every figure function of the package, read as code (the static figures as well as the live ones): a
    plotted line labelled as a theorem, lemma, corollary, proposition or bound has a dashed or dotted style."""
    solid = []
    for path in sorted(Path(style.__file__).parent.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in ("plot", "axhline", "axvline", "loglog", "semilogx", "semilogy", "step")):
                continue
            kw = {k.arg: k.value for k in node.keywords}
            label = _literal_label(kw.get("label"))
            if label is None or not style._THEORY.match(label) or None in kw:   # None: a **style dict
                continue
            ls = kw.get("ls", kw.get("linestyle"))
            fmt = "".join(a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str))
            dashed = (ls is not None and not (isinstance(ls, ast.Constant) and ls.value in ("-", "solid"))) \
                or re.search(r"--|-\.|:", fmt) or (fmt and "-" not in fmt)           # markers only: not a line
            if not dashed:
                solid.append(f"{path.name}:{node.lineno}: {label[:60]!r}")
    assert solid == []


def test_the_notation_page_lists_the_books_colours():
    page = (Path(__file__).resolve().parents[1] / "notation.md").read_text()
    listed = dict(re.findall(r"\| ([^|]+?) \| <span style=\"color:(#[0-9a-f]{6})\">", page))
    assert listed == {name: to_hex(c) for name, c in style.ALGORITHM_COLORS.items()}


def test_style_problems_finds_dashed_measurements_reused_colours_and_twin_entries():
    fig = Figure()
    ax1, ax2 = fig.subplots(1, 2)
    ax1.plot([1, 2], color="C3", label="SMIDAS: mean over 5 seeds")
    ax1.plot([1, 2], color="C3", ls="--", label="SMIDAS: Corollary 1's bound")    # its bound in its colour: allowed
    ax1.plot([1, 2], color="0.45", ls=":", label="plotting floor")
    ax1.plot([1, 2], color="k", ls="-.", label="slope −1 guide")
    ax2.plot([1, 2], "o", color="C3", label="SMIDAS at the design points")      # markers only: allowed
    ax2.plot([1, 2], color="C7", label="SGD: mean over 5 seeds")
    ax2.plot([1, 2], **style.FLOOR, label="values below 1e-12 drawn at the floor")  # the floor's grey beside SGD's
    assert style.style_problems(fig) == []
    ax2.plot([1, 2], color="0.45", ls="-", label="median of the runs' step")   # the grey, solid: SGD's colour
    ax2.plot([1, 2], color=style.shade("TruncGrad", 0.3), ls="--", label="TruncGrad, λ = 1e-2")  # measured, dashed
    ax2.plot([1, 2], color="C3", label="median of the runs' sparsity")  # SMIDAS's red, given to something else
    ax1.plot([1, 2], color="k", ls="-.", label="slope −1/2 guide")      # looks like the slope −1 guide
    probs = style.style_problems(fig)
    assert len(probs) == 4, probs
    assert any("median of the runs' step" in p and "SGD's colour" in p for p in probs)
    assert any("TruncGrad, λ = 1e-2" in p and "measured curve drawn '--'" in p for p in probs)
    assert any("median of the runs' sparsity" in p and "SMIDAS's colour" in p for p in probs)
    assert any("slope −1/2 guide" in p and "two legend entries that look the same" in p for p in probs)


def test_book_figure_refuses_a_figure_that_breaks_the_conventions():
    @style.book_figure
    def good_figure():
        fig = Figure()
        fig.subplots().plot([1, 2], color="C0", label="SCD")
        return fig

    @style.book_figure
    def bad_figure(label="SCD", color="C1", title=""):
        fig = Figure()
        ax = fig.subplots()
        ax.plot([1, 2], color=color, label=label)
        ax.set_title(title)
        return fig

    assert good_figure.book_figure and good_figure().l1lab_figure.endswith("good_figure")
    with pytest.raises(ValueError, match=r"(?s)bad_figure draws a figure that breaks .*'SCD': colour #ff7f0e"):
        bad_figure()
    with pytest.raises(ValueError, match="exception text"):
        bad_figure(color="C0", title="ValueError: eta above the limit")


def _book_functions():
    import inspect
    import pkgutil

    import l1lab.book

    for info in pkgutil.iter_modules(l1lab.book.__path__):
        module = importlib.import_module(f"l1lab.book.{info.name}")
        for name, fn in vars(module).items():
            if inspect.isfunction(fn) and fn.__module__ == module.__name__:
                yield module.__name__, name, fn


def test_every_figure_function_of_the_book_is_checked():
    """Every function of the book layer that makes a figure (named ``*_figure``, or annotated to return a
    ``Figure``) is decorated with :func:`l1lab.book.style.book_figure`, so a figure that breaks the conventions
    cannot be drawn, by the build or by a reader."""
    functions = [(m, n, f) for m, n, f in _book_functions()
                 if m != "l1lab.book.style" and (n.endswith("_figure") or re.search(
                     r"\bFigure\b", str(getattr(f, "__annotations__", {}).get("return", ""))))]
    assert len(functions) >= 30
    unchecked = [f"{m}.{n}" for m, n, f in functions if not getattr(f, "book_figure", False)]
    assert unchecked == [], [(u, str(f.__annotations__.get("return"))) for u, f in
                             ((f"{m}.{n}", f) for m, n, f in functions if f"{m}.{n}" in unchecked)]


def test_figure_texts_and_the_notebook_display_of_a_figure():
    from l1lab.book.notebook import figure_summary

    fig = Figure()
    fig.suptitle("Run $d = 10$")
    ax = fig.subplots()
    ax.plot([1, 2], color="C0", label="SCD")
    ax.set_title("gap after 100 steps")
    ax.set_xlabel("steps")
    ax.legend()
    ax.annotate("floor", (1, 1))
    assert style.figure_texts(fig) == ["Run $d = 10$", "gap after 100 steps", "steps", "floor", "SCD"]
    assert figure_summary(fig) == "<figure by matplotlib: Run $d = 10$ | gap after 100 steps | steps | floor | SCD>"
