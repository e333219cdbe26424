"""The search's nogoods handed to the SAT solver with a first solution's hand-over, or not (issue 45; prints
figures; not a test).

Usage::

    python benchmarks/handover_nogoods.py --rows rows.jsonl --set tcga2014 [--set NAME ...] --save ab.jsonl
        [--budget 10] [--report-only] [--write-docs]

The puzzles: every puzzle of each ``--set`` that the saved rows of
``benchmarks/tournament.py`` (``--rows``, its ``--save`` file) say rofl
handed over to the SAT solver.  Each is solved twice, with
``search.HANDOVER_NOGOODS`` on and off, in turn, the order alternating from
puzzle to puzzle: ``solve_complete(puzzle, solutions=1,
cpu_budget=--budget)``, its CPU seconds (``rofl.solver.cpu_time``: Kissat's
child processes included), every grid checked against the clues.

``--save`` keeps the rows (JSON lines; an interrupted run resumes);
``--report-only`` prints the report of saved rows; ``--write-docs`` writes
it into section ``handover-nogoods`` of docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _docs import publish, report_options, saved_rows  # noqa: E402
from _timing import first_solution  # noqa: E402
from tournament import DEFAULT_SETS  # noqa: E402

from rofl.formats import taai  # noqa: E402
from rofl.solver import search  # noqa: E402


def run(puzzle, nogoods: bool, budget: float) -> dict:
    search.HANDOVER_NOGOODS = nogoods
    return first_solution(puzzle, budget)


def measure(args) -> None:
    saved = {(r["set"], r["label"]) for r in saved_rows(args.save)}
    handed = [r for r in saved_rows(args.rows) if r["set"] in args.set and r["rofl"]["sat"] > 0]
    with args.save.open("a") as out:
        for i, row in enumerate(handed):
            if (row["set"], row["label"]) in saved:
                continue
            data = (args.sets / f"{row['set']}.txt").read_bytes()
            puzzle, _ = taai.read_bytes(data, where=row["set"], number=row["label"])
            ab = {"set": row["set"], "label": row["label"]}
            for on in (False, True) if i % 2 == 0 else (True, False):
                ab["with" if on else "without"] = run(puzzle, on, args.budget)
            print(f"  {row['set']}#{row['label']}: without {ab['without']['cpu']:.2f} s, "
                  f"with {ab['with']['cpu']:.2f} s", file=sys.stderr, flush=True)  # fmt: skip
            out.write(json.dumps(ab) + "\n")
            out.flush()


def report(saved: list[dict]) -> list[str]:
    out = ["| hand-overs | without | with the nogoods | faster on |", "|---|---|---|---|"]
    groups = {name: [r for r in saved if r["set"] == name] for name in dict.fromkeys(r["set"] for r in saved)}
    groups["**all**"] = saved
    for name, mine in groups.items():
        without = sum(r["without"]["cpu"] for r in mine)
        with_ = sum(r["with"]["cpu"] for r in mine)
        faster = sum(r["with"]["cpu"] < r["without"]["cpu"] for r in mine)
        out.append(f"| {name} ({len(mine)}) | {without:.1f} s | {with_:.1f} s | {faster} |")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=Path, help="benchmarks/tournament.py's saved rows")
    parser.add_argument("--set", action="append", default=[], help="a tournament set's name (e.g. tcga2014)")
    parser.add_argument("--sets", type=Path, default=DEFAULT_SETS, help="the folder of the tournament files")
    parser.add_argument("--budget", type=float, default=10.0, help="CPU seconds a puzzle")
    report_options(parser, "handover-nogoods")
    args = parser.parse_args()
    if not args.report_only:
        if args.sets is None:
            parser.error("no tournament sets found: pass --sets DIR")
        if args.rows is None:
            parser.error("--rows is needed to find the hand-overs (or --report-only)")
        measure(args)
    publish(args, report(saved_rows(args.save)))


if __name__ == "__main__":
    main()
