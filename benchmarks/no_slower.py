"""rofl now against rofl at an older commit, puzzle by puzzle (issue 45's
"no slower than today anywhere"; prints figures; not a test).

Usage::

    git worktree add --detach /work/wt-old 737a35b     # main when issue 45 was filed
    (cd /work/wt-old && python setup.py build_ext --inplace)   # or let its kernels JIT-compile
    python benchmarks/no_slower.py --old /work/wt-old [--new DIR] [--corpus DIR]
        [--budget 10] [--every N] [--write-docs]

Runs :func:`rofl.solve_complete` (two solutions: uniqueness) on every
``--every``-th puzzle of the corpus (the webpbn survey included), in two
worker processes, one importing rofl from ``--old`` and one from ``--new``
(default: this checkout), taking turns puzzle by puzzle (which goes first
alternates), after a warm-up solve in each.  Each side's time is the CPU
time of its process (``time.process_time``, the search's threads included);
a puzzle that takes under 20 ms is solved again, up to 5 times, and its
fastest run counts.  ``--budget`` is each solve's time budget (seconds, as
``solve_complete`` reads it).

Prints, for the puzzles both sides decide, the per-puzzle ratio old CPU /
new CPU (above 1: faster now) at the median and the 10th percentile, both
totals, the puzzles where the verdicts differ, those only one side decides,
and the largest slow-downs.  ``--write-docs`` writes the summary into
section ``no-slower`` of ``docs/benchmarks.md``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from _children import Worker, commit_of, percentile

REPO = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = REPO.parent / "shared" / "corpus"
#: A solve shorter than this (CPU s) is repeated, up to REPEATS runs in all, and the fastest counts.
SHORT = 0.02
REPEATS = 5


def _worker(budget: float) -> None:
    """Solve the puzzle of each line of stdin; one JSON line of answer each."""
    import rofl
    from rofl.formats import read_puzzle

    warm, _ = read_puzzle(DEFAULT_CORPUS / "webpbn-survey" / "webpbn-00001.json")
    rofl.solve_complete(warm, time_budget=budget)
    print(json.dumps({"ready": rofl.__file__}), flush=True)
    for line in sys.stdin:
        puzzle, _ = read_puzzle(line.strip())
        best = None
        for _ in range(REPEATS):
            began = time.process_time()
            result = rofl.solve_complete(puzzle, time_budget=budget)
            cpu = time.process_time() - began
            best = cpu if best is None else min(best, cpu)
            if cpu >= SHORT:
                break
        print(json.dumps({"status": str(result.status), "cpu": best}), flush=True)


def _decided(status: str) -> bool:
    return status in ("unique", "multiple", "none")


def measure(old: Path, new: Path, corpus: Path, budget: float, every: int) -> list[dict]:
    paths = sorted(corpus.glob("*/*.json"))[::every]
    sides = [Worker(name, tree, __file__, ["--budget", str(budget)]) for name, tree in (("old", old), ("new", new))]
    rows = []
    try:
        for i, path in enumerate(paths):
            row = {"puzzle": f"{path.parent.name}/{path.stem}"}
            for side in sides if i % 2 == 0 else sides[::-1]:
                row[side.name] = side.ask(str(path))
            rows.append(row)
            print(
                f"{i + 1}/{len(paths)} {row['puzzle']}: old {row['old']['cpu']:.4f} s {row['old']['status']}, "
                f"new {row['new']['cpu']:.4f} s {row['new']['status']}",
                file=sys.stderr,
                flush=True,
            )
    finally:
        for side in sides:
            side.close()
    return rows


def summary(rows: list[dict], budget: float) -> list[str]:
    both = [r for r in rows if _decided(r["old"]["status"]) and _decided(r["new"]["status"])]
    ratios = sorted((r["old"]["cpu"] / max(r["new"]["cpu"], 1e-6), r) for r in both)
    values = [ratio for ratio, _ in ratios]
    old_total = sum(r["old"]["cpu"] for r in both)
    new_total = sum(r["new"]["cpu"] for r in both)
    decided = {who: sum(_decided(r[who]["status"]) for r in rows) for who in ("old", "new")}
    lines = [
        f"{len(rows)} puzzles; decided within the budget ({budget:g} s): old {decided['old']}, "
        f"new {decided['new']}, both {len(both)}.",
        "",
        "| | old | new |",
        "|---|---|---|",
        f"| CPU, the {len(both)} both decide | {old_total:.2f} s | {new_total:.2f} s |",
        f"| median / p90 of a puzzle | {percentile([r['old']['cpu'] for r in both], 0.5) * 1000:.2f} / "
        f"{percentile([r['old']['cpu'] for r in both], 0.9) * 1000:.1f} ms | "
        f"{percentile([r['new']['cpu'] for r in both], 0.5) * 1000:.2f} / "
        f"{percentile([r['new']['cpu'] for r in both], 0.9) * 1000:.1f} ms |",
        "",
        f"Per puzzle, old CPU over new CPU: median {percentile(values, 0.5):.2f}, p10 {percentile(values, 0.1):.2f} "
        f"(above 1: faster now); faster now on {sum(v > 1 for v in values)} of {len(values)}.",
    ]
    differ = [r["puzzle"] for r in both if r["old"]["status"] != r["new"]["status"]]
    lines.append(f"Verdicts that differ: {len(differ)} {' '.join(differ)}")
    for who, other in (("old", "new"), ("new", "old")):
        only = [r for r in rows if _decided(r[who]["status"]) and not _decided(r[other]["status"])]
        if only:
            lines.append(f"Decided by {who} only: " + ", ".join(f"{r['puzzle']} ({r[who]['cpu']:.2f} s)" for r in only))
    neither = [r["puzzle"] for r in rows if not _decided(r["old"]["status"]) and not _decided(r["new"]["status"])]
    if neither:
        lines.append(f"Decided by neither: {', '.join(neither)}")
    lines += ["", "The largest slow-downs (old / new CPU):"]
    for ratio, r in ratios[:8]:
        lines.append(f"- {r['puzzle']}: {ratio:.2f} ({r['old']['cpu'] * 1000:.2f} -> {r['new']['cpu'] * 1000:.2f} ms)")
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", type=Path)
    parser.add_argument("--new", type=Path, default=REPO)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--budget", type=float, default=10.0)
    parser.add_argument("--every", type=int, default=1)
    parser.add_argument("--save", type=Path, help="write the per-puzzle rows as JSON")
    parser.add_argument("--load", type=Path, help="summarise rows saved by --save instead of measuring")
    parser.add_argument("--write-docs", action="store_true", help="write section no-slower of docs/benchmarks.md")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        _worker(args.budget)
        return
    if args.load:
        rows = json.loads(args.load.read_text())
    else:
        if args.old is None:
            parser.error("--old DIR (a checkout of the older commit) is needed")
        rows = measure(args.old, args.new, args.corpus, args.budget, args.every)
        if args.save:
            args.save.write_text(json.dumps(rows, indent=1))
    lines = summary(rows, args.budget)
    print("\n".join(lines))
    if args.write_docs:
        sys.path.insert(0, str(Path(__file__).parent))
        from _docs import stamp, write_section

        old = commit_of(args.old) if args.old else "?"
        text = [stamp(), "", f"old: `{old}`; new: `{commit_of(args.new)}`.", "", *lines]
        write_section("no-slower", "\n".join(text))


if __name__ == "__main__":
    main()
