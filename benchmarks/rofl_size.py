"""ROFL file size against an optimised PNG of the same grid, and codec speed.

    PYTHONPATH=. python benchmarks/rofl_size.py [--corpus ../shared/corpus] [--write-docs]

Sizes: every corpus puzzle and sample whose picture is known (stored with
it, or found by line logic); ``.rofl`` is the plain form without metadata (the smallest file),
PNG is the smallest of Pillow's palette PNG at 1/2/4/8 bits per pixel
(``optimize=True``) and, for two colours, a 1-bit PNG.  Times: best of
several runs of parse (bytes -> Puzzle) and write (Puzzle -> bytes).
Prints Markdown tables; ``--write-docs`` also writes them into ``docs/benchmarks.md``.
"""

from __future__ import annotations

import argparse
import io
import statistics
from pathlib import Path

import numpy as np
from _docs import stamp, write_section
from _timing import best_of
from PIL import Image

from rofl.decode import solve_picture
from rofl.errors import RoflError
from rofl.formats import read_puzzle
from rofl.formats import rofl as codec
from rofl.picture import image_from_grid
from rofl.puzzle import Palette, Puzzle

ROOT = Path(__file__).resolve().parent.parent
REPORT: list[str] = []  # what was printed, for --write-docs


def emit(text: str = "") -> None:
    print(text)
    REPORT.extend(text.split("\n"))


def png_bytes(grid: np.ndarray, palette: Palette) -> int:
    image = image_from_grid(grid, palette)
    k = len(palette)
    sizes = []
    for bits in (1, 2, 4, 8):
        if k <= 1 << bits:
            buf = io.BytesIO()
            image.save(buf, format="PNG", optimize=True, bits=bits)
            sizes.append(len(buf.getvalue()))
    if k <= 2:
        buf = io.BytesIO()
        Image.fromarray(grid.astype(bool)).save(buf, format="PNG", optimize=True)
        sizes.append(len(buf.getvalue()))
    return min(sizes)


def cases(corpus: Path):
    """(set, puzzle, picture): the stored solution, else the line-logic one; unsolved puzzles are left out."""
    paths = [(p.parent.name, p) for p in sorted(corpus.glob("*/*.json"))]
    paths += [("samples", p) for p in sorted((ROOT / "samples").glob("*.json"))]
    for group, path in paths:
        puzzle, solution = read_puzzle(path)
        if solution is None:
            try:
                solution = solve_picture(puzzle)
            except RoflError:
                continue
        yield group, puzzle, solution


def sizes(corpus: Path) -> None:
    rows = []
    for group, puzzle, grid in cases(corpus):
        data = codec.dumps(puzzle, meta={})
        no_shorthand = len(data) + (puzzle.n_groups if puzzle.n_colors == 2 else 0)
        rows.append(
            (
                group,
                puzzle.n_colors,
                len(data),
                no_shorthand,
                png_bytes(grid, puzzle.palette),
                puzzle.width * puzzle.height,
            )
        )
    emit(f"### Size: {len(rows)} pictures (corpus solutions and samples)\n")
    emit("| set | pictures | .rofl bytes | PNG bytes | .rofl / PNG | median ratio | .rofl smaller |")
    emit("|---|---|---|---|---|---|---|")
    groups = sorted({r[0] for r in rows})
    bw = [r for r in rows if r[1] == 2]
    colour = [r for r in rows if r[1] > 2]
    for name, subset in [
        *[(g, [r for r in rows if r[0] == g]) for g in groups],
        ("black and white", bw),
        ("colour", colour),
        ("all", rows),
    ]:
        if not subset:
            continue
        rofl = sum(r[2] for r in subset)
        png = sum(r[4] for r in subset)
        median = statistics.median(r[2] / r[4] for r in subset)
        smaller = sum(r[2] < r[4] for r in subset)
        emit(f"| {name} | {len(subset)} | {rofl} | {png} | {rofl / png:.2f} | {median:.2f} | {smaller} |")
    if bw:
        saved = 1 - sum(r[2] for r in bw) / sum(r[3] for r in bw)
        emit(
            f"\nTwo-colour shorthand: black-and-white files are {100 * saved:.0f}% smaller than with a colour "
            "byte per group."
        )
    cells = sum(r[5] for r in rows)
    rofl_bits = 8 * sum(r[2] for r in rows) / cells
    png_bits = 8 * sum(r[4] for r in rows) / cells
    emit(f"Bits per cell: .rofl {rofl_bits:.2f}, PNG {png_bits:.2f}.")


def speed(corpus: Path) -> None:
    emit("\n### Speed (best of 5)\n")
    emit("| file | bytes | groups | parse ms | write ms |")
    emit("|---|---|---|---|---|")
    tests = []
    all_files = [codec.dumps(p, meta={}) for _, p, _ in cases(corpus)]
    tests.append((f"all {len(all_files)} pictures above", all_files))
    worst = (np.indices((255, 255)).sum(0) % 2 + 1).astype(np.uint8)
    three = Palette(["#ffffff", "#000000", "#ff0000"])
    tests.append(("255x255 worst case (255 touching groups per line)", [codec.dumps(Puzzle.from_grid(worst, three))]))
    for name in ("255x255", "300x200-extended"):
        tests.append((f"vector {name}", [(ROOT / "spec" / "vectors" / f"{name}.rofl").read_bytes()]))
    rng = np.random.default_rng(0)
    big = rng.integers(0, 4, size=(2000, 2000)).astype(np.uint8)
    tests.append(
        ("2000x2000 random, 4 colours (extended)", [codec.dumps(Puzzle.from_grid(big, three.colors + ((0, 0, 255),)))])
    )
    wide = (np.indices((64, 65535)).sum(0) % 2 + 1).astype(np.uint8)
    tests.append(("65535x64 worst case (extended, 2-byte fields)", [codec.dumps(Puzzle.from_grid(wide, three))]))
    for name, files in tests:
        puzzles = [codec.loads(f) for f in files]
        parse = best_of(lambda files=files: [codec.parse(f) for f in files], 5)
        write = best_of(lambda puzzles=puzzles: [codec.dumps(p, meta={}) for p in puzzles], 5)
        size = sum(len(f) for f in files)
        groups = sum(p.n_groups for p in puzzles)
        emit(f"| {name} | {size} | {groups} | {1000 * parse:.1f} | {1000 * write:.1f} |")
    rings = codec.loads((ROOT / "spec" / "vectors" / "255x255.rofl").read_bytes())
    solve_picture(rings)  # compile
    emit(f"\nDecoding (line logic) the 255x255 vector: {1000 * best_of(lambda: solve_picture(rings), 3):.0f} ms.")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--write-docs", action="store_true", help="write the tables into docs/benchmarks.md")
    args = parser.parse_args()
    sizes(args.corpus)
    speed(args.corpus)
    if args.write_docs:
        write_section("rofl-size", "\n".join([stamp(), "", *REPORT]))


if __name__ == "__main__":
    main()
