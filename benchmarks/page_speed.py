"""How fast the HTML page (``rofl page``) is on a big colour board, in Chromium.

Makes a 100x100 puzzle in 6 colours from ``samples/astronaut.jpg`` (and, for
comparison, a 27x20 one), opens its page in headless Chromium (Debian's
``/usr/bin/chromium`` through Playwright for Python) at 1280x800 and
measures, inside the page with ``performance.now()``:

- *ready*: from the navigation's start to the end of the page's script
  (``performance.mark("rofl-ready")``); *shown*: to the end of the first
  frame after it; *blank page shown*: the same for an empty page, what
  headless Chromium itself takes to show anything (its first frame);
- *click* and *hover*: a left click on a cell (pointerdown and pointerup),
  or the pointer moving onto another cell (the highlighted row and column,
  the clue bar): the script's time, and the frame's main-thread work (the
  script, then style, layout and paint: from the frame's start,
  ``requestAnimationFrame``, to a zero timeout after it), median and worst
  of 40 cells spread over the board; *to next paint* is from the event to
  after the next frame, which includes waiting for it (frames come at 60 Hz,
  so up to 16.7 ms of that is waiting);
- *line solve*: the page's line solver working the solution out from
  scratch (``RoflPage.lineSolve``), which the page does in 8 ms slices
  after it shows; *first Check*: the Check button's first press two seconds
  after load, to the end of its frame; *Check at once*: pressed as soon as
  the page shows, before the background has finished.

Usage::

    python benchmarks/page_speed.py [--width 100] [--height 100] [--colours 6] [--write-docs]

``--write-docs`` writes the figures into section ``page-speed`` of
``docs/benchmarks.md``.

Targets (issue 43): shown < 1 s, click and hover < 16 ms, first Check < 0.5 s.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
from pathlib import Path

from _docs import stamp, write_section

from rofl.maker import make
from rofl.render.page import puzzle_page

SAMPLE = Path(__file__).resolve().parent.parent / "samples" / "astronaut.jpg"

_FRAME = "() => new Promise(r => requestAnimationFrame(() => setTimeout(() => r(performance.now()), 0)))"

_MEASURE = """async ([kind, cells]) => {
  const frame = () => new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
  const out = [];
  for (const i of cells) {
    const box = RoflPageCellBox(i);
    await frame();
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 2;
    const target = document.elementFromPoint(x, y);
    const at = {bubbles: true, cancelable: true, pointerId: 1, pointerType: "mouse", isPrimary: true,
                clientX: x, clientY: y, button: 0, buttons: 1};
    const t0 = performance.now();
    if (kind === "click") {
      target.dispatchEvent(new PointerEvent("pointerdown", at));
      target.dispatchEvent(new PointerEvent("pointerup", Object.assign({}, at, {buttons: 0})));
    } else {
      target.dispatchEvent(new PointerEvent("pointermove", Object.assign({}, at, {buttons: 0})));
    }
    const t1 = performance.now();
    await new Promise(r => requestAnimationFrame(r));
    const t2 = performance.now();
    await new Promise(r => setTimeout(r, 0));
    const t3 = performance.now();
    out.push([t1 - t0, t1 - t0 + (t3 - t2), t3 - t0]);
  }
  return out;
}"""

_SOLVE = """() => {
  const puzzle = JSON.parse(document.getElementById("rofl-puzzle").textContent);
  const t0 = performance.now();
  RoflPage.lineSolve(puzzle);
  return performance.now() - t0;
}"""

_CHECK = """async () => {
  const t0 = performance.now();
  document.getElementById("check").click();
  await new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
  return performance.now() - t0;
}"""


def _puzzle(width: int, height: int, colours: int):
    return make(str(SAMPLE), width=width, height=height, colors=colours, mode="crop").puzzle


def measure(browser, path: Path, n_cells: int, width: int) -> dict[str, object]:
    """The figures (ms) of one page, in a fresh 1280x800 context."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(path.as_uri())
    page.wait_for_function("typeof RoflPageState === 'function'")
    out: dict[str, object] = {}
    out["ready"] = page.evaluate("performance.getEntriesByName('rofl-ready')[0].startTime")
    out["shown"] = page.evaluate(_FRAME)
    page.wait_for_timeout(2000)  # the player looks at the puzzle; the page works its solution out meanwhile
    out["first Check"] = page.evaluate(_CHECK)
    # cells spread over the board, each away from the last (new row and column every time)
    cells = [(k * (width + 7) * 13) % n_cells for k in range(1, 41)]
    for kind in ("hover", "click"):
        times = page.evaluate(_MEASURE, [kind, cells])
        for n, name in enumerate(("script", "frame work", "to next paint")):
            column = [t[n] for t in times]
            out[f"{kind}: {name}"] = (statistics.median(column), max(column))
    out["line solve"] = page.evaluate(_SOLVE)
    context.close()
    # a player who presses Check as soon as the page shows waits for what the background slices have left
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(path.as_uri())
    page.wait_for_function("typeof RoflPageState === 'function'")
    page.evaluate(_FRAME)
    out["Check at once"] = page.evaluate(_CHECK)
    context.close()
    return out


def blank(browser, folder: Path) -> float:
    """Headless Chromium's own time to show an empty page: navigation to its first frame, ms."""
    path = folder / "blank.html"
    path.write_text("<!DOCTYPE html><title>blank</title><p>blank</p>", encoding="utf-8")
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(path.as_uri())
    shown = page.evaluate(_FRAME)
    page.close()
    return shown


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--width", type=int, default=100)
    parser.add_argument("--height", type=int, default=100)
    parser.add_argument("--colours", type=int, default=6)
    parser.add_argument("--write-docs", action="store_true", help="write section page-speed of docs/benchmarks.md")
    args = parser.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        msg = "Error: no chromium on PATH (apt-get install chromium)"
        raise SystemExit(msg)
    from playwright.sync_api import sync_playwright

    sizes = [(args.width, args.height), (27, 20)]
    table = ["| page | figure | median ms | worst ms |", "|---|---|---:|---:|"]
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, headless=True, args=["--no-sandbox"])
        empty = blank(browser, Path(folder))
        print(f"blank page shown {empty:7.1f} ms")
        table.append(f"| (an empty page) | shown | {empty:.0f} | |")
        for w, h in sizes:
            puzzle = _puzzle(w, h, args.colours)
            path = Path(folder) / f"page-{w}x{h}.html"
            path.write_text(puzzle_page(puzzle), encoding="utf-8")
            figures = measure(browser, path, puzzle.width * puzzle.height, puzzle.width)
            name = f"{puzzle.width}x{puzzle.height}, {puzzle.n_colors} colours, {path.stat().st_size // 1024} KiB"
            print(name + ":")
            for figure, value in figures.items():
                if isinstance(value, tuple):
                    print(f"  {figure:22s} median {value[0]:7.1f} ms   worst {value[1]:7.1f} ms")
                    table.append(f"| {name} | {figure} | {value[0]:.1f} | {value[1]:.1f} |")
                else:
                    print(f"  {figure:22s} {value:7.1f} ms")
                    table.append(f"| {name} | {figure} | {value:.0f} | |")
        browser.close()
    if args.write_docs:
        write_section("page-speed", "\n".join([stamp(), "", *table]))


if __name__ == "__main__":
    main()
