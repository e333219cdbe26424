"""How long Chromium takes to load ``rofl page``'s pages as boards grow (prints figures; not a test).

Usage::

    python benchmarks/page_load.py [--sides 100,200,300] [--hex 32,64,128] [--write-docs]

For each size, a random black-and-white square puzzle (and a random
hexagon of each side) is written as a page with rofl's own renderer
(:func:`rofl.render.page.puzzle_page`, without the size limit), opened in
headless Chromium through Playwright, and timed until its script has drawn
the board (``RoflPageState`` defined and the board's cells in the DOM).
The figures chose :data:`rofl.render.page.MAX_PAGE_CELLS` and ``MAX_PAGE_SIDE``.  ``--write-docs``
writes them into section ``page-load`` of ``docs/benchmarks.md``.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

import numpy as np


def _page(puzzle) -> str:
    import rofl.render.page as page

    limits = page.MAX_PAGE_CELLS, page.MAX_PAGE_SIDE
    page.MAX_PAGE_CELLS = page.MAX_PAGE_SIDE = 1 << 40  # measure past the limits
    try:
        return page.puzzle_page(puzzle, title="bench")
    finally:
        page.MAX_PAGE_CELLS, page.MAX_PAGE_SIDE = limits


def main() -> None:
    from playwright.sync_api import sync_playwright

    from rofl.hexagon import Hexagon, HexPuzzle
    from rofl.puzzle import Palette, Puzzle

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sides", default="100,256,512,1024")
    parser.add_argument("--hex", default="64,128,256")
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--write-docs", action="store_true", help="write the table into docs/benchmarks.md")
    args = parser.parse_args()
    rng = np.random.default_rng(1)
    made = {}
    for n in map(int, args.sides.split(",")):
        grid = (rng.random((n, n)) < 0.5).astype(np.uint8)
        made[f"{n}x{n} ({n * n} cells)"] = Puzzle.from_grid(grid, Palette.black_white())
    for side in map(int, args.hex.split(",")):
        cells = (rng.random(Hexagon.of(side).n_cells) < 0.5).astype(np.uint8)
        made[f"hexagon side {side} ({len(cells)} cells)"] = HexPuzzle.from_cells(side, cells)
    folder = Path(tempfile.mkdtemp(prefix="rofl-page-bench-"))
    report = ["| board | page | loaded in |", "|---|---:|---:|"]
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=shutil.which("chromium"), headless=True, args=["--no-sandbox"])
            for name, puzzle in made.items():
                path = folder / "page.html"
                text = _page(puzzle)
                path.write_text(text, encoding="utf-8")
                context = browser.new_context(viewport={"width": 1280, "height": 900})
                tab = context.new_page()
                start = time.perf_counter()
                try:
                    tab.goto(path.as_uri(), timeout=args.timeout * 1000)
                    tab.wait_for_function("typeof RoflPageState === 'function'", timeout=args.timeout * 1000)
                    seconds = f"{time.perf_counter() - start:6.2f} s"
                except Exception as exc:  # noqa: BLE001 -- a timeout is a figure too
                    seconds = f"not loaded ({type(exc).__name__})"
                context.close()
                print(f"{name:34s} {len(text) / 1e6:7.2f} MB  {seconds}", flush=True)
                report.append(f"| {name} | {len(text) / 1e6:.2f} MB | {seconds.strip()} |")
            browser.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if args.write_docs:
        from _docs import stamp, write_section

        write_section("page-load", "\n".join([stamp(), "", *report]))


if __name__ == "__main__":
    main()
