"""The book's figures are read at the page's width (about 8 inches): a figure function's result must fit it and
keep every visible text at 9 pt or more (ticks, labels, legends, titles), which is 9 px or more as displayed."""
import matplotlib.text

PAGE_WIDTH_IN = 8.0
MIN_PT = 9.0


def assert_readable(fig):
    fig.canvas.draw()                     # the tick labels exist once drawn
    width = fig.get_size_inches()[0]
    assert width <= PAGE_WIDTH_IN + 1e-9, f"{width:.1f} in wide, more than the page's {PAGE_WIDTH_IN:g} in"
    small = [(t.get_text()[:40], t.get_fontsize()) for t in fig.findobj(matplotlib.text.Text)
             if t.get_visible() and t.get_text().strip() and t.get_fontsize() < MIN_PT]
    assert not small, f"text below {MIN_PT:g} pt: {small[:5]}"
