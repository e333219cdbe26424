"""Step pictures and animations of a solve (``rofl solve --steps/--gif``): time and size.

    PYTHONPATH=. python benchmarks/steps.py [--write-docs]

For the samples and the ``.pzl`` examples of Izaron's solver, and a
random 25x25 puzzle that needs search: the trace's steps and time
(:func:`rofl.solver.trace.trace_solve`, a Python loop around the compiled
line solver) next to the compiled line logic's time, the frames per line
and per sweep, and the default animation (a frame per line solve, at
most 300 frames, cells up to 24 pixels within 800): its time to draw and
write as GIF, and its size.  Best of three for the times.  ``--write-docs``
also writes the table into ``docs/benchmarks.md``.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import numpy as np
from _docs import stamp, write_section
from _timing import best_of

from rofl.formats import open_puzzle
from rofl.puzzle import Palette, Puzzle
from rofl.render.animation import animate_solve
from rofl.solver import solve
from rofl.solver.trace import trace_solve

ROOT = Path(__file__).resolve().parent.parent
FILES = [
    "samples/hands-up.json",
    "samples/horse.rofl",
    "samples/rocket.rofl",
    "samples/astronaut.rofl",
    "samples/chelsea.rofl",
    "tests/data/pzl/emoji.pzl",
    "tests/data/pzl/kolobok.pzl",
    "tests/data/pzl/sparkle.pzl",
]


def puzzles():
    for name in FILES:
        yield name, open_puzzle(ROOT / name).puzzle
    grid = (np.random.default_rng(3).random((25, 25)) < 0.5).astype(np.uint8)
    yield "random 25x25 (search)", Puzzle.from_grid(grid, Palette.black_white())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write-docs", action="store_true", help="also write the table into docs/benchmarks.md")
    args = parser.parse_args()
    lines = [
        "| puzzle | size | colours | steps (probes, guesses) | trace ms | line logic ms | frames line / sweep "
        "| GIF ms | GIF KB |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name, puzzle in puzzles():
        trace_solve(puzzle)  # compile what it needs
        trace = trace_solve(puzzle)
        traced = best_of(lambda p=puzzle: trace_solve(p))
        compiled = best_of(lambda p=puzzle: solve(p))
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "a.gif"
            drawn = best_of(lambda p=puzzle, t=trace, path=path: animate_solve(p, path, trace=t))
            size = path.stat().st_size
        kinds = [step.kind for step in trace.steps]
        steps = f"{len(kinds)} ({kinds.count('probe')}, {kinds.count('guess')})"
        frames = f"{trace.frame_count('line')} / {trace.frame_count('sweep')}"
        lines.append(
            f"| {name} | {puzzle.width}x{puzzle.height} | {puzzle.n_colors} | {steps} | {traced * 1000:.0f} "
            f"| {compiled * 1000:.1f} | {frames} | {drawn * 1000:.0f} | {size / 1024:.0f} |"
        )
        print(lines[-1], flush=True)
    if args.write_docs:
        write_section("steps", "\n".join([stamp(), "", *lines]))


if __name__ == "__main__":
    main()
