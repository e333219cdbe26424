"""The hand-over's Python side: what a first solution's hand-over to the SAT
solver costs before Kissat runs (issue 45; prints figures; not a test).

Usage::

    git worktree add --detach /work/wt-old main    # the code before a change
    python benchmarks/handover_build.py [--old /work/wt-old] [--set tcga2022] [--labels 399,452,...]
        [--rounds 5] [--write-docs]

For each puzzle (by default the 35 of tcga2022 that its whole-set runs of
sessions 12 and 17 handed over), the root the search hands over (its masks
after probing the root: the search is let hand over after its first node)
is given to :func:`rofl.solver.sat.solve_sat` as the search gives it
(``want=1``, the CPU budget, the root as ``start``), with Kissat's call
replaced by loading the formula into Kissat alone: the formula counted and
built, the root's ruled-out colours, the root's probes as clauses, the
formula loaded.  Each puzzle's figure is the best of ``--rounds`` runs, in
milliseconds of CPU (``time.process_time``).  With ``--old``, a worker
process importing rofl from that checkout and one from this one take turns
puzzle by puzzle, and the report says whether each puzzle's formula (the
clauses handed to Kissat, in order) is the same on both sides: a change
that only makes the hand-over cheaper leaves every Kissat run as it was.
``--write-docs`` writes the table into section ``handover-build`` of
docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import sys
import time
from pathlib import Path

from _children import Worker, commit_of
from _docs import publish

REPO = Path(__file__).resolve().parents[1]
#: tcga2022's puzzles that its whole-set runs handed over (session 12's run and session 17's)
HANDOVERS = (
    "399,452,463,464,474,476,481,483,505,518,536,538,541,567,575,587,588,590,595,610,630,638,645,704,713,715,"
    "720,721,740,747,765,769,781,794,844"
)


def _root(puzzle):
    """The masks the search hands over for a first solution when it hands over after its first node."""
    from rofl import solve_complete
    from rofl.solver import sat, search

    caught = {}

    def catch(puzzle, **options):
        caught.update(options)
        return "found", [], {}

    real, nodes = sat.solve_sat, search.HANDOVER_NODES_FIRST
    sat.solve_sat, search.HANDOVER_NODES_FIRST = catch, 1
    try:
        solve_complete(puzzle, solutions=1, cpu_budget=10)
    finally:
        sat.solve_sat, search.HANDOVER_NODES_FIRST = real, nodes
    return caught["start"]


def _worker(sets: str, name: str) -> None:
    """Time the hand-over of the puzzle whose label is on each line of stdin; one JSON line each."""
    from pysat.solvers import Solver

    from rofl.formats import taai
    from rofl.solver import sat

    data = (Path(sets) / f"{name}.txt").read_bytes()
    handed: list = []

    def load_only(clauses, clock, top=0):  # Kissat's call, but for its run
        handed.append(hashlib.sha256(json.dumps(clauses).encode()).hexdigest()[:12])
        with Solver(name=sat.KISSAT, bootstrap_with=clauses):
            return False

    sat._kissat_first = load_only
    print(json.dumps({"ready": sat.__file__}), flush=True)
    for line in sys.stdin:
        label, rounds = (int(word) for word in line.split())
        puzzle = taai.read_bytes(data, number=label)[0]
        root = _root(puzzle)
        best = None
        for _ in range(rounds):
            handed.clear()
            began = time.process_time()
            sat.solve_sat(puzzle, time_budget=None, cpu_budget=10.0, start=root, want=1)
            cpu = time.process_time() - began
            best = cpu if best is None else min(best, cpu)
        print(json.dumps({"ms": 1000 * best, "formula": handed[0]}), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", type=Path, help="another checkout to measure beside this one (before)")
    parser.add_argument("--sets", type=Path, help="the tournament sets' folder (default: tournament.py's)")
    parser.add_argument("--set", default="tcga2022")
    parser.add_argument("--labels", default=HANDOVERS)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--write-docs", action="store_true")
    parser.add_argument("--section", default="handover-build")
    parser.add_argument("--worker", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        _worker(*args.worker)
        return
    if args.sets is None:  # here, not in the workers: tournament.py puts this checkout first on the path
        from tournament import DEFAULT_SETS

        args.sets = DEFAULT_SETS
    if args.sets is None:
        parser.error("no tournament sets found: pass --sets DIR")
    if not (args.sets / f"{args.set}.txt").is_file():
        parser.error(f"no set {args.set} in {args.sets}")
    sides = ([("before", args.old)] if args.old else []) + [("after", REPO)]
    workers = [Worker(label, tree, __file__, [str(args.sets), args.set]) for label, tree in sides]
    labels = [int(word) for word in args.labels.split(",")]
    rows = []
    for turn, label in enumerate(labels):
        order = workers if turn % 2 == 0 else workers[::-1]
        got = {worker.name: worker.ask(f"{label} {args.rounds}") for worker in order}
        rows.append((label, got))
        print(label, " ".join(f"{side} {got[side]['ms']:.1f} ms" for side, _ in sides), flush=True)
    for worker in workers:
        worker.close()
    lines = [
        f"{len(labels)} puzzles of {args.set}, best of {args.rounds} runs each, CPU ms of `solve_sat` "
        "with Kissat's run left out (the formula still loaded)",
        "",
        "| checkout | median | mean | slowest |",
        "|---|---|---|---|",
    ]
    for side, tree in sides:
        ms = [got[side]["ms"] for _, got in rows]
        lines.append(
            f"| {side} ({commit_of(tree)}) | {statistics.median(ms):.1f} | {statistics.mean(ms):.1f} | {max(ms):.1f} |"
        )
    if args.old:
        same = sum(got["before"]["formula"] == got["after"]["formula"] for _, got in rows)
        lines += ["", f"The same formula, clause for clause, on both sides: {same} of {len(rows)} puzzles."]
    publish(args, lines)


if __name__ == "__main__":
    main()
