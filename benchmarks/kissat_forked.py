"""What running Kissat's calls in a child process costs a tournament (prints
figures; not a test).

Usage::

    python benchmarks/kissat_forked.py [--set tcga2022] [--labels 399,452,...] [--budget 10] [--write-docs]

For each puzzle of ``--labels`` in the tournament file ``--set`` (by
default tcga2022's 35 puzzles that the search hands to the SAT solver),
``solve_complete(puzzle, solutions=1, cpu_budget=--budget, time_budget=6 x
--budget)`` twice, in this one process, the order alternating from puzzle
to puzzle: once with ``sat.KISSAT_FORKED`` (Kissat's calls in a child
process, one fork per hand-over) and once without (the calls in this
process). Each side keeps its own measured pace (``sat._PACE``) from puzzle
to puzzle, as a tournament process would.  CPU seconds are
``rofl.solver.cpu_time`` (the child's included); every grid is checked
against the clues.  Prints each puzzle's verdicts and CPU seconds, then the
totals; ``--write-docs`` writes the totals into section ``kissat-forked`` of
``docs/benchmarks.md``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
SHARED = next((p for p in (REPO.parent / "shared", REPO.parents[1] / "shared") if p.is_dir()), REPO.parent / "shared")

from rofl.batch.tournament import read_tournament  # noqa: E402
from rofl.solver import cpu_time, sat, solve_complete  # noqa: E402

HANDED_OVER = (
    "399,452,463,464,474,476,481,483,505,518,536,538,541,567,575,587,588,590,595,610,630,638,645,704,713,715,"
    "720,721,740,747,765,769,781,794,844"
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", default="tcga2022")
    parser.add_argument("--labels", default=HANDED_OVER)
    parser.add_argument("--budget", type=float, default=10.0)
    parser.add_argument("--write-docs", action="store_true", help="write the totals into docs/benchmarks.md")
    args = parser.parse_args()
    if not sat.FORKS:
        sys.exit("this platform does not fork: Kissat's calls always run in the process")
    wanted = {int(x) for x in args.labels.split(",")}
    puzzles = [
        (label, p) for label, p in read_tournament(SHARED / "tournaments" / f"{args.set}.txt") if label in wanted
    ]
    solve_complete(puzzles[0][1], solutions=1, cpu_budget=args.budget, time_budget=6 * args.budget)  # warm
    paces = {True: sat._Pace(), False: sat._Pace()}
    totals = {True: 0.0, False: 0.0}
    differ = 0
    for i, (label, puzzle) in enumerate(puzzles):
        row, statuses = {}, {}
        for forked in (True, False) if i % 2 == 0 else (False, True):
            sat.KISSAT_FORKED, sat._PACE = forked, paces[forked]
            began = cpu_time()
            result = solve_complete(puzzle, solutions=1, cpu_budget=args.budget, time_budget=6 * args.budget)
            seconds = cpu_time() - began
            if not all(puzzle.is_solution(grid) for grid in result.solutions):
                sys.exit(f"#{label}: a grid that breaks the clues")
            totals[forked] += seconds
            statuses[forked] = result.status
            row[forked] = f"{result.status} {seconds:.2f} s"
        differ += statuses[True] != statuses[False]
        print(f"#{label}: child process {row[True]}, in process {row[False]}", flush=True)
    report = [
        f"* {len(puzzles)} puzzles of {args.set}, first solution, CPU budget {args.budget:g} s, both ways alternating:",
        f"  Kissat in a child process {totals[True]:.1f} CPU s (the child's included),"
        f" in the process {totals[False]:.1f} CPU s; verdicts that differ: {differ}",
    ]
    print("\n".join(report))
    if args.write_docs:
        from _docs import stamp, write_section

        write_section("kissat-forked", "\n".join([stamp(), "", *report]))


if __name__ == "__main__":
    main()
