"""Other tools' text formats on the whole corpus: round trips, file sizes, speed.

    PYTHONPATH=. python benchmarks/text_formats.py [--corpus ../shared/corpus] [--write-docs]

Every corpus puzzle is written in every puzzle format of
``rofl.formats.FORMATS`` that can hold it (corpus JSON, ROFL, webpbn XML,
.non, .nin, Olsak .g and .mk, .cwd, Tatham .sav, .gno, .pzl, rofl's .clues;
not the NotMine cipher, which holds a picture rather than clues) and read
back; the round trip must give the same clues (and the same goal picture
where the format keeps it).  Prints, per format, how many puzzles
it holds, failures, total bytes, and the total write and read times (best
of three).  Also times the reader on the largest file of each format.
``--write-docs`` also writes the table into ``docs/benchmarks.md``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
from _docs import stamp, write_section
from _timing import best_of

from rofl.errors import FormatError
from rofl.formats import FORMATS as TABLE
from rofl.formats import corpus as corpus_json
from rofl.formats import open_puzzle

ROOT = Path(__file__).resolve().parent.parent
FORMATS = {f.extension: f for f in TABLE if f.write is not None and f.extension != ".notmine"}


def row(suffix: str, fmt, puzzles) -> str:
    """One table row: round trips, sizes and times of the format ``fmt`` on ``puzzles``."""
    blobs, failures = [], 0
    for puzzle, solution in puzzles:
        try:
            data = fmt.write(puzzle, solution)
        except FormatError:
            continue  # the format cannot hold it (colour into a black-and-white format)
        opened = open_puzzle(data, name=f"x{suffix}")
        back, goal = opened.puzzle, opened.solution
        same_goal = goal is None or (solution is not None and np.array_equal(goal, solution))
        if back != puzzle or not same_goal:
            failures += 1
        blobs.append((puzzle, solution, data))
    write = best_of(lambda: [fmt.write(p, s) for p, s, _ in blobs])
    read = best_of(lambda: [open_puzzle(d, name=f"x{suffix}") for _, _, d in blobs])
    largest = max((d for _, _, d in blobs), key=len)
    one = best_of(lambda: open_puzzle(largest, name=f"x{suffix}"), repeat=5)
    size = sum(len(d) for _, _, d in blobs)
    return (
        f"| {suffix} | {len(blobs)} | {failures} | {size:,} | {write * 1e3:.0f} ms | {read * 1e3:.0f} ms "
        f"| {len(largest):,} B in {one * 1e3:.2f} ms |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--write-docs", action="store_true", help="write the table into docs/benchmarks.md")
    args = parser.parse_args()
    files = sorted(args.corpus.glob("*/*.json"))
    if not files:
        msg = f"no puzzles under {args.corpus}"
        raise SystemExit(msg)
    puzzles = [corpus_json.load(f) for f in files]
    lines = [
        f"{len(puzzles)} corpus puzzles ({sum(p.n_colors > 2 for p, _ in puzzles)} in colour)",
        "",
        "| format | holds | round-trip failures | bytes | write all | read all | largest file, read |",
        "|---|---|---|---|---|---|---|",
    ]
    print("\n".join(lines))
    for suffix, fmt in FORMATS.items():
        lines.append(row(suffix, fmt, puzzles))
        print(lines[-1])
    if args.write_docs:
        write_section("text-formats", "\n".join([stamp(), "", *lines]))


if __name__ == "__main__":
    main()
