"""Solve times of hexagonal puzzles of side 5, 10, 20 and 40 (prints figures; not a test).

Usage::

    python benchmarks/hex_solve.py [--per-side N] [--budget SECONDS] [--write-docs]

For every side, ``--per-side`` pictures (default 4, seeded) are drawn on the
board: a smooth random field (a few plane waves over the cells' positions)
cut at zero, black and white, and the same field cut in three ink colours.
Each puzzle is solved by :func:`rofl.solve` (line logic) and by
:func:`rofl.solve_complete` (with ``--budget`` seconds, default 5), after a
warm-up that loads the compiled code.  A third row gives the three-colour
puzzles with a third of their groups turned to ``?``.  Times are wall
clock, median and maximum over the puzzles.

``--write-docs`` writes the table into section ``hex-solve`` of
``docs/benchmarks.md``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

SIDES = (5, 10, 20, 40)


def picture(side: int, n_inks: int, seed: int) -> np.ndarray:
    """A smooth random picture on the hexagon of ``side``: palette indices per cell."""
    from rofl.hexagon import Hexagon

    board = Hexagon.of(side)
    q, r = board.coords[:, 0], board.coords[:, 1]
    x, y = q + r / 2, r * np.sqrt(3) / 2  # cell centres
    rng = np.random.default_rng(seed)
    field = np.zeros(len(q))
    for _ in range(4):
        angle, phase = rng.uniform(0, 2 * np.pi, 2)
        freq = rng.uniform(1.5, 3.5) / side
        field += np.cos(2 * np.pi * freq * (x * np.cos(angle) + y * np.sin(angle)) + phase)
    if n_inks == 1:
        return (field > 0).astype(np.int64)
    cuts = np.quantile(field, [0.4, 0.6, 0.8])
    return np.searchsorted(cuts, field).astype(np.int64)  # 0 (background) .. 3


def with_question_marks(puzzle, fraction: float, seed: int):
    """``puzzle`` with about ``fraction`` of its groups' colours turned to ``?``."""
    return puzzle.with_unknown_colors(np.random.default_rng(seed).random(puzzle.n_groups) < fraction)


def measure(puzzles, budget: float) -> dict:
    import rofl

    line_times, complete_times, statuses = [], [], []
    for p in puzzles:
        t = time.perf_counter()
        rofl.solve(p)
        line_times.append(time.perf_counter() - t)
        t = time.perf_counter()
        statuses.append(str(rofl.solve_complete(p, time_budget=budget).status))
        complete_times.append(time.perf_counter() - t)
    return {"line": line_times, "complete": complete_times, "statuses": statuses}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-side", type=int, default=4)
    parser.add_argument("--budget", type=float, default=5.0)
    parser.add_argument("--write-docs", action="store_true")
    args = parser.parse_args()

    import rofl
    from rofl.hexagon import HexPuzzle
    from rofl.puzzle import Palette

    bw = Palette.black_white()
    four = Palette(["#ffffff", "#000000", "#d62728", "#1f77b4"])
    rofl.solve_complete(HexPuzzle.from_cells(3, picture(3, 3, 0), four))  # warm-up: loads the kernels
    rofl.solve_complete(with_question_marks(HexPuzzle.from_cells(3, picture(3, 3, 0), four), 0.5, 0))

    header = "| side | cells | puzzles | line logic median / max | complete median / max | statuses |"
    lines = [header, "|---|---|---|---|---|---|"]
    for side in SIDES:
        seeds = range(args.per_side)
        kinds = {
            "black and white": [HexPuzzle.from_cells(side, picture(side, 1, s), bw) for s in seeds],
            "3 inks": [HexPuzzle.from_cells(side, picture(side, 3, s), four) for s in seeds],
        }
        kinds["3 inks, 1/3 `?`"] = [with_question_marks(p, 1 / 3, s) for s, p in enumerate(kinds["3 inks"])]
        for kind, puzzles in kinds.items():
            got = measure(puzzles, args.budget)
            counts = {s: got["statuses"].count(s) for s in dict.fromkeys(got["statuses"])}
            row = (
                f"| {side} | {puzzles[0].n_cells} | {kind} "
                f"| {1e3 * statistics.median(got['line']):.1f} / {1e3 * max(got['line']):.1f} ms "
                f"| {1e3 * statistics.median(got['complete']):.1f} / {1e3 * max(got['complete']):.1f} ms "
                f"| {', '.join(f'{n} {s}' for s, n in counts.items())} |"
            )
            lines.append(row)
            print(row, flush=True)
    if args.write_docs:
        sys.path.insert(0, str(Path(__file__).parent))
        from _docs import stamp, write_section

        write_section("hex-solve", "\n".join([stamp(), "", *lines]))


if __name__ == "__main__":
    main()
