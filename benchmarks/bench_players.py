"""How fast the static players of the built book answer: the time from a control move to the new frame on screen.

Every player of every page of the built book (``_build/html``, run the README's build command first) is opened in
headless Chromium from disk, with every request that leaves the build folder blocked, scrolled into view (which
loads its frames: the player marks itself ``data-loaded`` once all of them are decoded), and then each control is
moved through its positions.  A move is timed inside the page: from
the ``input`` event the control dispatches to the frame of the new setting being decoded and painted (the next
animation frame after ``img.decode()``).

    python benchmarks/bench_players.py [--pages chapters/scd,chapters/radar]

Prints, per player, the median and the largest move time and the share of moves under 50 ms, and the weight of
its frames; writes ``benchmarks/results/players.json``.  Absolute times on purpose, as for the live widgets: "at
once" is a human threshold, not a ratio.
"""
from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import time
from pathlib import Path

from _common import finish

ROOT = Path(__file__).resolve().parents[1]
HTML = ROOT / "_build" / "html"
sys.path.insert(0, str(ROOT / "tests_html"))
AT_ONCE_MS = 50.0

_MOVE = """async ([root, name, i]) => {
  const el = root.querySelector(`[data-control="${name}"]`);
  const img = root.querySelector('img.l1lab-player-frame');
  const t0 = performance.now();
  if (el.type === 'checkbox') el.checked = !el.checked; else el.value = String(i);
  el.dispatchEvent(new Event('input', {bubbles: true}));
  if (!img.hidden) { await img.decode(); }
  await new Promise(r => requestAnimationFrame(() => r()));
  return performance.now() - t0;
}"""


def main(argv=None):
    from playwright.sync_api import sync_playwright
    from test_players import PLAYER_PAGES, players_of

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", default="", help="comma-separated pages (default: every page with a player)")
    args = parser.parse_args(argv)
    pages = [p for p in args.pages.split(",") if p] or PLAYER_PAGES
    t_start = time.perf_counter()
    chromium = next(filter(None, map(shutil.which, ("chromium", "chromium-browser", "google-chrome"))), None)
    results = {}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
        for page in pages:
            pg = browser.new_page(viewport={"width": 1280, "height": 1200})
            pg.route("**/*", lambda r: r.continue_() if r.request.url.startswith(("data:", "file://"))
                     else r.abort())
            pg.goto((HTML / f"{page}.html").as_uri(), wait_until="load")
            for pl in players_of(page):
                root = pg.locator(f'#l1lab-player-{pl["name"]}')
                root.scroll_into_view_if_needed()
                pg.wait_for_selector(f'#l1lab-player-{pl["name"]}[data-loaded="1"]', timeout=60_000)
                handle = root.element_handle()
                times = []
                for c in pl["controls"]:
                    n = len(c["labels"])
                    if n < 2:
                        continue
                    for i in list(range(n)) + [c["default"]]:
                        times.append(pg.evaluate(_MOVE, [handle, c["name"], i]))
                size = sum((HTML / page).parent.joinpath(f["src"]).resolve().stat().st_size
                           for f in pl["frames"].values() if "src" in f)
                if times:
                    med, worst = statistics.median(times), max(times)
                    share = sum(t <= AT_ONCE_MS for t in times) / len(times)
                    print(f"{pl['name']:<24} {len(pl['frames']):>4} frames {size / 2 ** 20:5.2f} MB  "
                          f"move: median {med:5.1f} ms, max {worst:6.1f} ms, {100 * share:5.1f} % <= "
                          f"{AT_ONCE_MS:.0f} ms ({len(times)} moves)")
                results[pl["name"]] = {"page": page, "frames": len(pl["frames"]), "bytes": size, "move_ms": times}
            pg.close()
        browser.close()
    finish(ROOT / "benchmarks" / "results" / "players.json", t_start, False, {"players": results})


if __name__ == "__main__":
    main()
