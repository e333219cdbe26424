"""How fast the HTML page (``rofl page``) is on a big colour board, in Chromium.

Makes a 100x100 puzzle in 6 colours from ``samples/astronaut.jpg`` (and, for
comparison, a 27x20 one), opens its page in headless Chromium (Debian's
``/usr/bin/chromium`` through Playwright for Python) and measures, inside the
page with ``performance.now()``:

- *load*: from the navigation's start to the end of the first frame after the
  page's script is ready (``performance.mark("rofl-ready")``);
- *click*: a left click on a cell (pointerdown and pointerup events), to the
  end of the frame that shows it: the script, style, layout and paint (the
  median and worst of 40 clicks on cells spread over the board);
- *hover*: the pointer moving onto another cell (the highlighted row and
  column, the clue bar), to the end of its frame (40 moves);
- *click (sync)* and *hover (sync)*: the same up to a forced layout, without
  waiting for the frame (the part the script controls);
- *first Check*: the Check button's first press, which works the solution out
  by line logic, to the end of its frame.

A frame is waited for with ``requestAnimationFrame`` then a zero timeout (the
paint comes between them); headless Chromium paces frames at 60 Hz, so a
frame-inclusive figure can hold up to 16 ms of waiting for the next frame.

Usage::

    python benchmarks/page_speed.py [--width 100] [--height 100] [--colours 6]

Targets (issue 43): load < 1 s, click and hover < 16 ms, first Check < 0.5 s.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
from pathlib import Path

from rofl.maker import make
from rofl.render.page import puzzle_page

SAMPLE = Path(__file__).resolve().parent.parent / "samples" / "astronaut.jpg"

_FRAME = "() => new Promise(r => requestAnimationFrame(() => setTimeout(() => r(performance.now()), 0)))"

_MEASURE = """async ([kind, cells, sync]) => {
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
    if (sync) void document.body.offsetHeight; else await frame();
    out.push(performance.now() - t0);
  }
  return out;
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
    ready = page.evaluate("performance.getEntriesByName('rofl-ready')[0].startTime")
    load = page.evaluate(_FRAME)
    # cells spread over the board, each away from the last (new row and column every time)
    step = width + 7
    cells = [(k * step * 13) % n_cells for k in range(1, 41)]
    out: dict[str, object] = {"ready": ready, "load": load}
    for kind in ("hover", "click"):
        for sync in (True, False):
            times = page.evaluate(_MEASURE, [kind, cells, sync])
            out[kind + (" (sync)" if sync else "")] = (statistics.median(times), max(times))
    out["first Check"] = page.evaluate(_CHECK)
    context.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--width", type=int, default=100)
    parser.add_argument("--height", type=int, default=100)
    parser.add_argument("--colours", type=int, default=6)
    args = parser.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("Error: no chromium on PATH (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    sizes = [(args.width, args.height), (27, 20)]
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, headless=True, args=["--no-sandbox"])
        for w, h in sizes:
            puzzle = _puzzle(w, h, args.colours)
            path = Path(folder) / f"page-{w}x{h}.html"
            path.write_text(puzzle_page(puzzle), encoding="utf-8")
            figures = measure(browser, path, puzzle.width * puzzle.height, puzzle.width)
            print(f"{puzzle.width}x{puzzle.height}, {puzzle.n_colors - 1} colours, {path.stat().st_size // 1024} KiB:")
            for name, value in figures.items():
                if isinstance(value, tuple):
                    print(f"  {name:14s} median {value[0]:7.1f} ms   worst {value[1]:7.1f} ms")
                else:
                    print(f"  {name:14s} {value:7.1f} ms")
        browser.close()


if __name__ == "__main__":
    main()
