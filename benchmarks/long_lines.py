"""What one long line costs refinement: the line solve and the arrangement count (prints figures; not a test).

Usage::

    python benchmarks/long_lines.py [--sizes 100,200,400] [--repeat 15] [--write-docs]

Lines of more than 63 cells are what make a large picture slow
(issue 45, "Large pictures"): every judged grid solves them
(:func:`rofl.kernels._wide._line_wide`, the bit rows) and every estimated
move of the greedy pass counts their arrangements
(:func:`rofl.kernels._refine._line_log_count`).  The lines are the rows
and columns of ``samples/astronaut.jpg`` at ``N`` cells a side, dark cells
black (its median grey), their own clues, at four levels of knowledge:
nothing known, and 30, 60 and 85 percent of the cells known (at random,
to their true colour) -- the states refinement solves and counts lines in.

Printed per size, in microseconds a line (the best of ``--repeat`` rounds,
the variants taking turns, processor time):

* ``bit rows``: the line solve as refinement makes it;
* ``DP``: the exact colour DP (:func:`rofl.kernels._line._solve_line_dp`)
  on the same lines, the solver a long line had before the bit rows, and
  a check: the two answers are compared line by line;
* ``count``: the log count of arrangements.

``--write-docs`` writes the table into section ``long-lines`` of
``docs/benchmarks.md``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _timing import best_in_turns  # noqa: E402
from numba import njit  # noqa: E402
from PIL import Image  # noqa: E402

from rofl.kernels import _line as line_kernels  # noqa: E402
from rofl.kernels import _refine as refine_kernels  # noqa: E402
from rofl.kernels import _wide as wide  # noqa: E402
from rofl.kernels._fresh import _new_line_scratch  # noqa: E402

KNOWN = (0.0, 0.3, 0.6, 0.85)


def _clue(line: np.ndarray) -> list[int]:
    runs, run = [], 0
    for v in line:
        if v:
            run += 1
        elif run:
            runs.append(run)
            run = 0
    if run:
        runs.append(run)
    return runs


def astronaut_lines(size: int, seed: int = 1):
    """The rows and columns of the astronaut at ``size`` cells a side at every
    level of :data:`KNOWN`: ``cells`` (lines x size int64 masks), ``lens``,
    ``cols`` and each line's ``starts`` / ``ends`` into them."""
    picture = Image.open(ROOT / "samples" / "astronaut.jpg").convert("L").resize((size, size))
    grey = np.asarray(picture, dtype=float)
    grid = (grey < np.median(grey)).astype(np.int64)
    rng = np.random.default_rng(seed)
    lens, starts, ends, cells = [], [], [], []
    for share in KNOWN:
        for line in [*grid, *grid.T]:
            clue = _clue(line)
            if not clue:
                continue
            starts.append(len(lens))
            lens += clue
            ends.append(len(lens))
            known = rng.random(size) < share
            cells.append(np.where(known, np.where(line == 1, 2, 1), 3))
    lens_a = np.array(lens, dtype=np.int64)
    return np.array(cells, dtype=np.int64), lens_a, np.ones_like(lens_a), np.array(starts), np.array(ends)


@njit
def _solve_all(cells, lens, cols, starts, ends, answers, ws, cid, run, slot, gap, fwd, bwd, color_slot, dp):
    none = np.empty(0, dtype=np.int64)
    n = cells.shape[1]
    fits = 0
    for i in range(cells.shape[0]):
        out = answers[i]
        if dp:
            ok = line_kernels._solve_line_dp(
                cells[i], n, lens, cols, starts[i], ends[i], out, run, slot, gap, fwd, bwd, color_slot, none, none, 0
            )
        else:
            ok = wide._line_wide(cells[i], n, lens, cols, starts[i], ends[i], out, ws, cid, none, none, 0)
        if not ok:
            for j in range(n):
                out[j] = 0
        fits += ok
    return fits


@njit
def _count_all(cells, lens, cols, starts, ends, cnt):
    total = 0.0
    for i in range(cells.shape[0]):
        total += refine_kernels._line_log_count(cells[i], cells.shape[1], lens, cols, starts[i], ends[i], cnt)
    return total


def measure(size: int, repeat: int) -> dict[str, float]:
    cells, lens, cols, starts, ends = astronaut_lines(size)
    kmax = int((ends - starts).max())
    ws = np.zeros((wide.rows(kmax), wide.MAX_WORDS), dtype=np.uint64)
    cid = np.zeros(64, dtype=np.int64)
    scratch = _new_line_scratch(kmax, size)
    cnt = np.empty((kmax + 1, size + 2))
    by_rows = np.zeros_like(cells)
    by_dp = np.zeros_like(cells)
    variants = {
        "bit rows": lambda: _solve_all(cells, lens, cols, starts, ends, by_rows, ws, cid, *scratch, False),
        "DP": lambda: _solve_all(cells, lens, cols, starts, ends, by_dp, ws, cid, *scratch, True),
        "count": lambda: _count_all(cells, lens, cols, starts, ends, cnt),
    }
    for call in variants.values():  # compile
        call()
    if not np.array_equal(by_rows, by_dp):
        msg = f"{size} cells: the bit rows and the DP disagree"
        raise SystemExit(msg)
    best = best_in_turns(variants, repeat, time.process_time)
    return {name: seconds / len(cells) * 1e6 for name, seconds in best.items()} | {"lines": len(cells)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100,200,400", help="cells a side, comma-separated")
    parser.add_argument("--repeat", type=int, default=15, help="rounds; the best counts")
    parser.add_argument("--write-docs", action="store_true", help="write the table into docs/benchmarks.md")
    args = parser.parse_args()
    table = [
        "| cells a line | lines | bit rows | DP | DP / bit rows | arrangement count |",
        "|---|---|---|---|---|---|",
    ]
    for size in (int(s) for s in args.sizes.split(",")):
        r = measure(size, args.repeat)
        print(
            f"{size:4d} cells, {r['lines']} lines: bit rows {r['bit rows']:.2f} us, DP {r['DP']:.2f} us"
            f" (x{r['DP'] / r['bit rows']:.2f}), count {r['count']:.2f} us a line"
        )
        table.append(
            f"| {size} | {r['lines']} | {r['bit rows']:.2f} µs | {r['DP']:.2f} µs"
            f" | {r['DP'] / r['bit rows']:.2f} | {r['count']:.2f} µs |"
        )
    if args.write_docs:
        sys.path.insert(0, str(ROOT / "benchmarks"))
        from _docs import write_report

        write_report("long-lines", table)


if __name__ == "__main__":
    main()
