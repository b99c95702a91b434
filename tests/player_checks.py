"""The check every lecture family runs on its static players' grids (``l1lab.book.static``)."""
import math

from l1lab.book.static import plan


def assert_grid_fits(box, grid, frames=(10, 40)):
    """``grid`` fits the live widget ``box``: every listed value is one of the widget's positions and its start is
    offered (``plan`` raises otherwise), the player starts where the live widget starts, every control the grid
    does not list offers all its positions, and the number of frames lies in ``frames``.  Returns the specs."""
    specs = plan(box, grid)
    for spec in specs:
        assert spec.values[spec.default] == box.controls[spec.name].value, f"{spec.name}: not the live start"
        if spec.name not in grid:
            assert len(spec.values) == spec.options, f"{spec.name}: a cheap control misses positions"
    n = math.prod(len(s.values) for s in specs)
    assert frames[0] <= n <= frames[1], f"{n} frames, outside {frames}"
    return specs
