"""How long a first solution's first search attempt runs (issue 45; prints figures; not a test).

Usage::

    python benchmarks/first_attempt.py --set tcga2022 [--set NAME ...] --nodes 50,300 --save ab.jsonl
        [--budget 10] [--report-only] [--write-docs]

Every puzzle of each ``--set``, in order, solved once for each first
attempt's node limit in ``--nodes`` (``search.FIRST_ATTEMPT_NODES``; each
later attempt doubles it, and the hand-over to the SAT solver still comes
after ``search.HANDOVER_NODES_FIRST`` nodes in all), in turn, the order rotating from puzzle to
puzzle, in this one process (as a tournament runs): ``solve_complete(puzzle,
solutions=1, cpu_budget=--budget)``, its CPU seconds (``rofl.solver.cpu_time``:
Kissat's child processes included), its search nodes and whether
it handed over to the SAT solver; every grid checked against the clues.

``--save`` keeps the rows (JSON lines; an interrupted run resumes);
``--report-only`` prints the report of saved rows; ``--write-docs`` writes
it into section ``first-attempt`` of docs/benchmarks.md.
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

from rofl.batch.tournament import iter_tournament  # noqa: E402
from rofl.solver import search  # noqa: E402


def run(puzzle, nodes: int, budget: float) -> dict:
    search.FIRST_ATTEMPT_NODES = nodes
    return first_solution(puzzle, budget)


def measure(args) -> None:
    saved = {(r["set"], r["label"]) for r in saved_rows(args.save)}
    with args.save.open("a") as out:
        for name in args.set:
            for i, (label, puzzle) in enumerate(iter_tournament(args.sets / f"{name}.txt")):
                if (name, label) in saved:
                    continue
                turn = i % len(args.nodes)
                row = {"set": name, "label": label}
                for nodes in args.nodes[turn:] + args.nodes[:turn]:
                    row[str(nodes)] = run(puzzle, nodes, args.budget)
                out.write(json.dumps(row) + "\n")
                out.flush()
            print(f"  {name} done", file=sys.stderr, flush=True)


def report(saved: list[dict], sides: list[int], budget: float) -> list[str]:
    head = " | ".join(f"first attempt {n} nodes" for n in sides)
    out = [
        "CPU s in all; puzzles handed over to the SAT solver; over the budget or undecided.",
        "",
        f"| set | {head} | faster than {sides[0]} on (by over 0.05 s) |",
        "|---" * (len(sides) + 2) + "|",
    ]
    groups = {name: [r for r in saved if r["set"] == name] for name in dict.fromkeys(r["set"] for r in saved)}
    groups["**all**"] = saved
    for name, mine in groups.items():
        cells = []
        for n in sides:
            runs = [r[str(n)] for r in mine]
            over = sum(x["cpu"] > budget or x["status"] not in ("found", "unique") for x in runs)
            cells.append(f"{sum(x['cpu'] for x in runs):.1f} s, {sum(x['sat'] for x in runs)}, {over}")
        base = str(sides[0])
        faster = [sum(r[str(n)]["cpu"] < r[base]["cpu"] - 0.05 for r in mine) for n in sides[1:]]
        slower = [sum(r[str(n)]["cpu"] > r[base]["cpu"] + 0.05 for r in mine) for n in sides[1:]]
        versus = ", ".join(f"{f} (slower on {s})" for f, s in zip(faster, slower, strict=True))
        out.append(f"| {name} ({len(mine)}) | " + " | ".join(cells) + f" | {versus} |")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--set", action="append", required=True)
    parser.add_argument("--sets", type=Path, default=DEFAULT_SETS)
    parser.add_argument("--nodes", default="50,300", help="first attempts' node limits, in turn")
    parser.add_argument("--budget", type=float, default=10.0)
    report_options(parser, "first-attempt")
    args = parser.parse_args()
    args.nodes = [int(n) for n in args.nodes.split(",")]
    if not args.report_only:
        if args.sets is None:
            parser.error("no tournament sets found: pass --sets DIR")
        measure(args)
    saved = [r for r in saved_rows(args.save) if r["set"] in args.set and all(str(n) in r for n in args.nodes)]
    publish(args, report(saved, args.nodes, args.budget))


if __name__ == "__main__":
    main()
