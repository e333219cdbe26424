"""Where the time of one ``rofl.solve`` call goes, and what each lever saves (prints figures; not a test).

Usage::

    python benchmarks/line_profile.py [CORPUS_DIR] [--repeat N] [--write-docs]

On the corpus puzzles line logic solves (issue 30, goal 1: median <= 0.15 ms
in process), every figure is the median over the puzzles of each puzzle's
best of ``--repeat`` runs.  The variants of a table take turns puzzle by
puzzle and run by run, so a machine whose load changes during the run
slows them all alike.

1. The reference path, the one ``rofl.solve`` took before the lean path
   (``LineSolver(cache_mb=0).solve``), cut into its stages: the whole
   call; ``LineSolver.run`` on ready masks; the compiled
   ``_kernels._propagate`` alone on pre-packed inputs; the Python pieces
   around it.  Then cProfile over many calls: the functions by own time.
2. The levers one by one: the lean compiled path of
   :mod:`rofl.kernels._fresh` without shortcuts (one call, buffers made
   inside, the same loop), then with the overlap rule for free lines, then
   also the check of known lines, then also the DP only between the known
   ends of a line, then also each group's start bounds kept from one solve
   of its line to the next, then also black-and-white puzzles of at most 63
   cells a side on bit sets (:mod:`rofl.kernels._bits`); the lean kernel
   alone; and the public ``rofl.solve`` as it is now.

``--write-docs`` writes the tables into section ``line-profile`` of
``docs/benchmarks.md``.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import statistics
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
# beside the repository, as CI clones it, or where this machine keeps it
DEFAULT_CORPUS = next((p for p in (REPO.parent / "shared" / "corpus", Path("/work/shared/corpus")) if p.is_dir()), None)
sys.path.insert(0, str(REPO))

from _timing import best_in_turns  # noqa: E402

import rofl  # noqa: E402
from rofl.formats import read_puzzle  # noqa: E402
from rofl.kernels import _fresh as _fast  # noqa: E402
from rofl.kernels import _line as k  # noqa: E402
from rofl.solver import line_logic as propagate  # noqa: E402
from rofl.solver.index_lines import full_mask  # noqa: E402


def _reference_stages(puzzle, solver) -> dict[str, Callable[[], object]]:
    packed = puzzle.packed
    start = propagate.initial_masks(puzzle)
    queue = np.arange(puzzle.n_lines, dtype=np.int64)
    solver.prepare(packed.kmax, start)
    scratch, cache = solver.work()
    clues = propagate.kernel_clues(packed)
    stats = np.zeros(k.N_STATS, dtype=np.int64)
    return {
        "whole call (LineSolver.solve)": lambda: solver.solve(puzzle),
        "LineSolver.run on ready masks": lambda: solver.run(packed, start.copy(), queue),
        "kernel _propagate alone": lambda: k._propagate(start.copy(), *clues, queue, *scratch, *cache, stats),
        "  initial masks": lambda: propagate.initial_masks(puzzle),
        "  sizing buffers (prepare)": lambda: solver.prepare(packed.kmax, start),
        "  result object": lambda: solver.result(0, start, stats, puzzle),
    }


def _levers(puzzle, solver) -> dict[str, Callable[[], object]]:
    packed = puzzle.packed
    full = full_mask(puzzle.n_colors)
    stats = np.zeros(k.N_STATS, dtype=np.int64)

    def fresh(rules: int) -> Callable[[], object]:
        def call():
            status, masks = _fast._solve_fresh(
                puzzle.height, puzzle.width, full, packed.lens, packed.cols, packed.offs, packed.kmax, stats, rules
            )
            return propagate.SolveResult(puzzle, propagate.STATUS_NAMES[status], masks, *stats[:2].tolist())

        return call

    lean = fresh(_fast.ALL_RULES)
    args = (puzzle.height, puzzle.width, full, packed.lens, packed.cols, packed.offs, packed.kmax, stats)
    return {
        "reference (LineSolver.solve)": lambda: solver.solve(puzzle),
        "lean path, no shortcuts": fresh(0),
        "+ overlap rule on free lines": fresh(_fast.FREE),
        "+ check of known lines": fresh(_fast.FREE | _fast.KNOWN),
        "+ DP only between the known ends": fresh(_fast.FREE | _fast.KNOWN | _fast.TRIM),
        "+ start bounds kept between solves": fresh(_fast.FREE | _fast.KNOWN | _fast.TRIM | _fast.BOUNDS),
        "+ black and white on bit sets": lean,
        "lean kernel alone": lambda: _fast._solve_fresh(*args, _fast.ALL_RULES),
        "rofl.solve now": lambda: rofl.solve(puzzle),
    }


def _table(title: str, rows: list[dict[str, float]], base: str) -> list[str]:
    names = list(rows[0])
    ref = statistics.median(r[base] for r in rows)
    lines = [title, "", "| stage | median per puzzle | of the reference |", "|---|---|---|"]
    for name in names:
        med = statistics.median(r[name] for r in rows)
        lines.append(f"| {name} | {med * 1e3:.3f} ms | {med / ref:.0%} |")
    return lines


def _profile(puzzles, solver, calls: int) -> list[str]:
    """cProfile over ``calls`` reference solves of ``puzzles``: own time per call of the top functions."""
    profile = cProfile.Profile()
    profile.enable()
    for i in range(calls):
        solver.solve(puzzles[i % len(puzzles)])
    profile.disable()
    out = io.StringIO()
    stats = pstats.Stats(profile, stream=out)
    rows = sorted(stats.stats.items(), key=lambda kv: -kv[1][2])[:8]  # by own time
    total = sum(v[2] for v in stats.stats.values())
    lines = [
        f"cProfile over {calls} reference calls on the middle half of the puzzles by time "
        "(cProfile slows the Python parts), mean own time per call:",
        "",
    ]
    lines += ["| function | own time per call | share |", "|---|---|---|"]
    for (path, line, name), (_, _, tottime, _, _) in rows:
        where = f"{Path(path).name}:{line}" if line else "built-in"
        lines.append(f"| `{name}` ({where}) | {tottime / calls * 1e6:.1f} us | {tottime / total:.0%} |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--repeat", type=int, default=7, help="runs per puzzle and variant; the best counts")
    parser.add_argument("--write-docs", action="store_true", help="write the tables into docs/benchmarks.md")
    args = parser.parse_args()
    files = sorted(args.corpus.glob("*/*.json")) if args.corpus else []
    if not files:
        sys.exit(f"no puzzles under {args.corpus or '../shared/corpus'}")
    solver = propagate.LineSolver(cache_mb=0)
    puzzles = [read_puzzle(path)[0] for path in files]
    puzzles = [p for p in puzzles if solver.solve(p).status == "solved"]
    for p in puzzles[:1]:  # compile or load every variant outside the timings
        for call in (*_reference_stages(p, solver).values(), *_levers(p, solver).values()):
            call()

    report = []
    stages = [best_in_turns(_reference_stages(p, solver), args.repeat) for p in puzzles]
    title = f"The reference path on the {len(puzzles)} puzzles line logic solves (best of {args.repeat} each):"
    report += _table(title, stages, "whole call (LineSolver.solve)")
    order = sorted(range(len(puzzles)), key=lambda i: stages[i]["whole call (LineSolver.solve)"])
    typical = [puzzles[i] for i in order[len(order) // 4 : 3 * len(order) // 4]]
    report += ["", *_profile(typical, solver, 40 * len(typical))]
    levers = [best_in_turns(_levers(p, solver), args.repeat) for p in puzzles]
    title = f"The levers, one by one, taking turns on the same {len(puzzles)} puzzles:"
    report += ["", *_table(title, levers, "reference (LineSolver.solve)")]
    print("\n".join(report))

    if args.write_docs:
        sys.path.insert(0, str(REPO / "benchmarks"))
        from _docs import stamp, write_section

        write_section("line-profile", "\n".join([stamp(), "", *report]))


if __name__ == "__main__":
    main()
