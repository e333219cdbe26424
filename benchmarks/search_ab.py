"""The complete search of two rofl checkouts on the tournament sample, puzzle
by puzzle (issue 45's two-solution p90; prints figures; not a test).

Usage::

    git worktree add --detach /work/wt-old main    # the code before a change
    python benchmarks/search_ab.py --old /work/wt-old [--new DIR] [--mode two]
        [--per-set 60] [--slowest 42 --from rows.json | --puzzles SET#LABEL,...
         | --band 201-1999 --tournament-rows rows.jsonl] [--rounds 1] [--save rows.json]

Runs :func:`rofl.solve_complete` (``--mode two``: two solutions, the
default; ``first``: one) on the tournament sample of
``benchmarks/tournament.py`` (``--per-set`` puzzles of each of its five
sets), in two worker processes, one importing rofl from ``--old`` and one
from ``--new`` (default: this checkout), taking turns puzzle by puzzle
(which goes first alternates), after a warm-up solve in each.  Each side's
figure is the CPU time of its process (``time.process_time``), the best of
``--rounds`` runs.  ``--slowest N --from ROWS`` runs only the ``N``
puzzles the old side took longest over in rows saved by an earlier
``--save`` (the puzzles around the sample's p90 and above: those that
decide it).  ``--puzzles`` names puzzles of any set; ``--band LO-HI
--tournament-rows ROWS`` takes every puzzle that rofl settled in LO to HI
nodes in rows saved by ``benchmarks/tournament.py --save`` (a band of a
whole set, where a node's cost shows: session 22 and 23 in
docs/benchmarks.md).

A change meant to make each node cheaper must leave the search's tree as
it was: the report lists every puzzle whose nodes, probes or line solves
differ between the sides, then both sides' total, median and p90 CPU, and
the per-puzzle ratio old / new (above 1: faster now).  ``--write-docs``
writes it into section ``search-ab`` of ``docs/benchmarks.md`` (``--section``:
another marked section).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from _children import Worker, commit_of, percentile

REPO = Path(__file__).resolve().parents[1]
#: tournament.py's sample: its sets, where they are kept
SETS = next((p for p in (REPO.parent / "shared" / "tournaments", Path("/work/shared/tournaments")) if p.is_dir()), None)
SAMPLE_SETS = ("taai2011", "tcga2014", "icga2017", "taai2020", "tcga2022")


def sample(per_set: int) -> dict:
    """tournament.py's sample (``per_set`` puzzles of each set, evenly
    spread), by name, read by the rofl this process imports (tournament.py
    itself would put this checkout first on the path)."""
    from rofl.batch.tournament import read_tournament

    chosen = {}
    for name in SAMPLE_SETS:
        puzzles = read_tournament(SETS / f"{name}.txt")
        step = len(puzzles) / per_set
        for i in range(per_set):
            label, puzzle = puzzles[min(len(puzzles) - 1, int(i * step))]
            chosen[f"{name}#{label}"] = puzzle
    return chosen


class _Puzzles(dict):
    """Puzzles by name (``SET#LABEL``): the sample's, and any other set's read when first named."""

    def __missing__(self, key: str):
        from rofl.batch.tournament import read_tournament

        name, _ = key.split("#")
        for label, puzzle in read_tournament(SETS / f"{name}.txt"):
            self.setdefault(f"{name}#{label}", puzzle)
        return dict.__getitem__(self, key)


def _worker(mode: str, per_set: int) -> None:
    """Solve the puzzle named on each line of stdin; one JSON line of figures each."""
    import rofl

    want = 2 if mode == "two" else 1
    puzzles = _Puzzles(sample(per_set))
    rofl.solve_complete(next(iter(puzzles.values())), solutions=want)
    print(json.dumps({"ready": rofl.__file__}), flush=True)
    for line in sys.stdin:
        key, rounds = line.split()
        best = None
        for _ in range(int(rounds)):
            began = time.process_time()
            result = rofl.solve_complete(puzzles[key], solutions=want, time_budget=60)
            cpu = time.process_time() - began
            best = cpu if best is None else min(best, cpu)
        print(json.dumps({"status": str(result.status), "cpu": best, "nodes": result.nodes, "probes": result.probes,
                          "line_solves": result.line_solves}), flush=True)  # fmt: skip


def measure(args) -> list[dict]:
    if args.puzzles:
        keys = args.puzzles.split(",")
    elif args.band:
        low, high = args.band
        rows = [json.loads(line) for line in args.tournament_rows.read_text().splitlines() if line.strip()]
        keys = [f"{r['set']}#{r['label']}" for r in rows if low <= r["rofl"].get("nodes", -1) <= high]
    elif args.slowest:
        saved = json.loads(args.source.read_text())
        keys = [r["puzzle"] for r in sorted(saved, key=lambda r: -r["old"]["cpu"])[: args.slowest]]
    else:
        sys.path.insert(0, str(REPO))
        keys = list(sample(args.per_set))
    options = ["--mode", args.mode, "--per-set", str(args.per_set)]
    sides = [Worker("old", args.old, __file__, options), Worker("new", args.new, __file__, options)]
    rows = []
    try:
        for i, key in enumerate(keys):
            row = {"puzzle": key}
            for side in sides if i % 2 == 0 else sides[::-1]:
                row[side.name] = side.ask(f"{key} {args.rounds}")
            rows.append(row)
            print(f"{i + 1}/{len(keys)} {key}: old {row['old']['cpu']:.4f} s, new {row['new']['cpu']:.4f} s, "
                  f"{row['new']['nodes']} nodes", file=sys.stderr, flush=True)  # fmt: skip
    finally:
        for side in sides:
            side.close()
    return rows


def summary(rows: list[dict]) -> list[str]:
    old = [r["old"]["cpu"] for r in rows]
    new = [r["new"]["cpu"] for r in rows]
    ratios = [r["old"]["cpu"] / max(r["new"]["cpu"], 1e-6) for r in rows]
    fields = ("status", "nodes", "probes", "line_solves")
    moved = [r["puzzle"] for r in rows if any(r["old"][f] != r["new"][f] for f in fields)]
    return [
        f"{len(rows)} puzzles; trees that differ (status, nodes, probes or line solves): {len(moved)} "
        + " ".join(moved),
        "",
        "| CPU | old | new |",
        "|---|---|---|",
        f"| total | {sum(old):.2f} s | {sum(new):.2f} s |",
        f"| median / p90 of a puzzle | {percentile(old, 0.5):.3f} / {percentile(old, 0.9):.3f} s | "
        f"{percentile(new, 0.5):.3f} / {percentile(new, 0.9):.3f} s |",
        "",
        f"Per puzzle, old CPU over new CPU: median {statistics.median(ratios):.2f}, "
        f"p10 {percentile(ratios, 0.1):.2f}, p90 {percentile(ratios, 0.9):.2f}; "
        f"faster now on {sum(v > 1 for v in ratios)} of {len(ratios)}.",
    ]


def _band(text: str) -> tuple[int, int]:
    try:
        low, high = (int(part) for part in text.split("-"))
    except ValueError:
        msg = f"{text!r}: expected LO-HI, two node counts"
        raise argparse.ArgumentTypeError(msg) from None
    return low, high


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", type=Path)
    parser.add_argument("--new", type=Path, default=REPO)
    parser.add_argument("--mode", choices=("two", "first"), default="two")
    parser.add_argument("--per-set", type=int, default=60)
    parser.add_argument("--slowest", type=int, default=0, help="only the N slowest puzzles of --from (old side)")
    parser.add_argument("--from", dest="source", type=Path, help="rows saved by --save, for --slowest")
    parser.add_argument("--puzzles", help="only these puzzles, as SET#LABEL,SET#LABEL...")
    parser.add_argument("--band", type=_band, help="LO-HI: the puzzles settled in LO to HI nodes in --tournament-rows")
    parser.add_argument("--tournament-rows", type=Path, help="rows saved by tournament.py --save, for --band")
    parser.add_argument("--rounds", type=int, default=1, help="runs of each puzzle on each side; the best counts")
    parser.add_argument("--save", type=Path, help="write the per-puzzle rows as JSON")
    parser.add_argument("--load", type=Path, help="summarise rows saved by --save instead of measuring")
    parser.add_argument("--write-docs", action="store_true", help="write the report into a section of docs")
    parser.add_argument("--section", default="search-ab", help="with --write-docs: the marked section")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        _worker(args.mode, args.per_set)
        return
    if args.load:
        rows = json.loads(args.load.read_text())
    else:
        if args.old is None:
            parser.error("--old DIR (a checkout of the older commit) is needed")
        if args.slowest and args.source is None:
            parser.error("--slowest needs --from ROWS")
        if args.band and args.tournament_rows is None:
            parser.error("--band needs --tournament-rows ROWS")
        rows = measure(args)
        if args.save:
            args.save.write_text(json.dumps(rows, indent=1))
    lines = summary(rows)
    print("\n".join(lines))
    if args.write_docs:
        sys.path.insert(0, str(Path(__file__).parent))
        from _docs import stamp, write_section

        old = commit_of(args.old) if args.old else "?"
        mode = "two solutions" if args.mode == "two" else "first solution"
        text = [stamp(), "", f"old: `{old}`; new: `{commit_of(args.new)}`; {mode}.", "", *lines]
        write_section(args.section, "\n".join(text))


if __name__ == "__main__":
    main()
