"""ROFL version 2 (hexagons, '?' groups): file size against the .clues text, and codec speed.

    PYTHONPATH=. python benchmarks/rofl_shapes.py [--sides 5 20 128 512 1024] [--write-docs]

For random hexagons (black and white, and 5 colours with 30% of the groups
turned to '?') prints the ``.rofl`` and ``.clues`` sizes and the best of
three runs of write (puzzle -> bytes) and parse (bytes -> validated puzzle).
Parsing includes the model's validation, which for '?' groups runs in Python
per group (``rofl.validate.min_cells``) on lines that could overflow.
``--write-docs`` writes the table into section ``rofl-shapes`` of
``docs/benchmarks.md``.
"""

from __future__ import annotations

import argparse

import numpy as np
from _docs import stamp, write_section
from _timing import best_of

from rofl.formats import clues
from rofl.formats import rofl as codec
from rofl.hexagon import Hexagon, HexPuzzle
from rofl.puzzle import Palette


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sides", type=int, nargs="+", default=[5, 20, 128, 512])
    parser.add_argument("--write-docs", action="store_true", help="write the table into docs/benchmarks.md")
    args = parser.parse_args()
    rng = np.random.default_rng(27)
    lines = ["| puzzle | groups | .rofl bytes | .clues bytes | write | parse |", "|---|---|---|---|---|---|"]
    print(*lines, sep="\n")
    for side in args.sides:
        for k in (2, 5):
            board = Hexagon.of(side)
            cells = rng.integers(0, k, board.n_cells).astype(np.uint8)
            palette = Palette(["#ffffff"] + [f"#{40 * i:02x}{255 - 40 * i:02x}80" for i in range(1, k)])
            puzzle = HexPuzzle.from_cells(side, cells, palette)
            if k > 2:
                puzzle = puzzle.with_unknown_colors(rng.random(puzzle.n_groups) < 0.3)
            data = codec.dumps(puzzle, cells)
            text = clues.dumps(puzzle).encode()
            write = best_of(lambda p=puzzle, c=cells: codec.dumps(p, c))
            parse = best_of(lambda d=data: codec.parse(d), 1 if k > 2 and side > 128 else 3)
            what = f"side {side}, {k} colours" + (", 30% '?'" if k > 2 else "")
            times = f"{write * 1e3:.1f} ms | {parse * 1e3:.1f} ms"
            lines.append(f"| {what} | {puzzle.n_groups} | {len(data)} | {len(text)} | {times} |")
            print(lines[-1], flush=True)
    if args.write_docs:
        write_section("rofl-shapes", "\n".join([stamp(), "", *lines]))


if __name__ == "__main__":
    main()
