"""When a search for a first solution should hand over to the SAT solver, on whole tournament sets (issue 45;
prints figures; not a test).

Usage::

    python benchmarks/handover_nodes.py --set tcga2017 [--set NAME ...] [--base 750] [--nodes 2000,3150]
        [--budget 10] [--wall 6] --save rows.jsonl [--report-only]

Every puzzle of each ``--set`` is solved once as ``solve_complete(puzzle,
solutions=1, cpu_budget=--budget, time_budget=--wall x --budget)`` with
``search.HANDOVER_NODES_FIRST`` set to ``--base``; each puzzle whose search
reaches that many nodes is solved again with the hand-over at each of
``--nodes`` (each larger than ``--base``), right after, in the same
process.  CPU seconds (``rofl.solver.cpu_time``: Kissat's child processes
included), every grid checked against the clues.  Puzzles settled within
``--base`` nodes take the same path under every setting and count their
one run in each total.

Two totals a setting: **as measured**, and **with the base's SAT draw**.  A
SAT run's length is a draw that any change of the formula redraws (the
eleventh round of docs/benchmarks.md), and a hand-over after more nodes
hands over a slightly different formula; over one set's 50--80 hand-overs
the draws' noise is as large as the difference sought.  The second total
counts each puzzle that a setting still hands over at its search's CPU (the
run's CPU less its SAT seconds) plus the SAT seconds of the base's run of
the same puzzle: the search's part as measured, the same draw on both
sides.

``--save`` keeps the rows (JSON lines; an interrupted run resumes);
``--report-only`` prints the report of saved rows; ``--write-docs`` writes
it into section ``handover-nodes`` of docs/benchmarks.md (``--section``:
another).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _docs import publish, report_options, saved_rows  # noqa: E402
from tournament import DEFAULT_SETS  # noqa: E402

from rofl import solve_complete  # noqa: E402
from rofl.formats import taai  # noqa: E402
from rofl.solver import cpu_time, search  # noqa: E402


def run(puzzle, nodes: int, budget: float, wall: float) -> dict:
    """One first-solution solve with the hand-over after ``nodes`` nodes: its verdict, CPU, nodes and SAT seconds."""
    search.HANDOVER_NODES_FIRST = nodes
    cpu = cpu_time()
    result = solve_complete(puzzle, solutions=1, cpu_budget=budget, time_budget=wall * budget)
    cpu = cpu_time() - cpu
    if not all(puzzle.is_solution(grid) for grid in result.solutions):
        sys.exit(f"a grid that breaks the clues (hand-over after {nodes} nodes)")
    return {"status": str(result.status), "cpu": cpu, "nodes": result.nodes, "sat": result.sat_seconds}


def measure(args, save: Path) -> None:
    done = {(r["set"], r["label"]) for r in saved_rows(save)}
    with save.open("a") as out:
        for name in args.set:
            data = (args.sets / f"{name}.txt").read_bytes()
            for label in taai.labels(data, where=name):
                if (name, label) in done:
                    continue
                puzzle, _ = taai.read_bytes(data, where=name, number=label)
                row = {"set": name, "label": label, "base": args.base, "runs": {}}
                row["runs"][str(args.base)] = first = run(puzzle, args.base, args.budget, args.wall)
                if first["nodes"] > args.base:
                    for nodes in args.nodes:
                        row["runs"][str(nodes)] = run(puzzle, nodes, args.budget, args.wall)
                    said = "  ".join(f"{k}: {v['cpu']:.2f} s / {v['nodes']}" for k, v in row["runs"].items())
                    print(f"  {name}#{label}: {said}", file=sys.stderr, flush=True)
                out.write(json.dumps(row) + "\n")
                out.flush()


def report(saved: list[dict]) -> list[str]:
    out: list[str] = []
    settings = sorted({int(k) for r in saved for k in r["runs"]})
    out.append("| set | puzzles | reach the base | " + " | ".join(f"after {n} nodes" for n in settings) + " |")
    out.append("|---|---|---|" + "---|" * len(settings))
    totals = {n: [0.0, 0.0] for n in settings}  # over the sets that tried every setting
    for name in dict.fromkeys(r["set"] for r in saved):
        mine = [r for r in saved if r["set"] == name]
        base = mine[0]["base"]
        tried = {int(k) for r in mine for k in r["runs"]}
        measured, same = dict.fromkeys(tried, 0.0), dict.fromkeys(tried, 0.0)
        for r in mine:
            first = r["runs"][str(base)]
            for n in tried:
                v = r["runs"].get(str(n), first)
                measured[n] += v["cpu"]
                same[n] += v["cpu"] if n == base or v["sat"] <= 0 else v["cpu"] - v["sat"] + first["sat"]
        reach = sum(r["runs"][str(base)]["nodes"] > base for r in mine)
        cells = " | ".join(f"{measured[n]:.1f} s ({same[n]:.1f} s)" if n in tried else "–" for n in settings)
        out.append(f"| {name} | {len(mine)} | {reach} | {cells} |")
        for n in settings:
            if n in tried and totals[n] is not None:
                totals[n][0] += measured[n]
                totals[n][1] += same[n]
            else:
                totals[n] = None
    cells = " | ".join(f"**{t[0]:.1f} s ({t[1]:.1f} s)**" if t else "–" for t in totals.values())
    out.append(f"| all | {len(saved)} | | {cells} |")
    out.append("\nEach cell: CPU as measured (and with each hand-over's SAT run at its length in the base's run).")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", action="append", default=[], help="a tournament set's name (e.g. tcga2017)")
    parser.add_argument("--sets", type=Path, default=DEFAULT_SETS, help="the folder of the tournament files")
    parser.add_argument("--base", type=int, default=750, help="the hand-over every puzzle is solved with")
    parser.add_argument("--nodes", default="2000,3150", help="the later hand-overs tried, comma-separated")
    parser.add_argument("--budget", type=float, default=10.0, help="CPU seconds a puzzle")
    parser.add_argument("--wall", type=float, default=6.0, help="the wall clock, times the budget")
    report_options(parser, "handover-nodes")
    args = parser.parse_args()
    args.nodes = [int(n) for n in args.nodes.split(",") if n]
    if any(n <= args.base for n in args.nodes):
        parser.error("every --nodes must be larger than --base (the base's run decides who reaches them)")
    if not args.report_only:
        if args.sets is None:
            parser.error("no tournament sets found: pass --sets DIR")
        measure(args, args.save)
    publish(args, report(saved_rows(args.save)))


if __name__ == "__main__":
    main()
