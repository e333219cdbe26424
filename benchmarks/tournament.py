"""rofl beside nonosolve on the tournament sets, side by side (issue 45; prints figures; not a test).

nonosolve (hyouv/FastNonogramSolver, MIT; it links Kissat and CaDiCaL) is NOT
bundled with rofl: build it outside this repository (docs/benchmarks.md,
"rofl beside nonosolve", says how) and pass the binary with ``--nonosolve``.

Usage::

    python benchmarks/tournament.py --nonosolve PATH [--sets DIR] [--per-set 60]
        [--set taai2020 --set tcga2015 ...] [--budget 10] [--mode first --mode two]
        [--batch] [--save results.json] [--write-docs]

The sample: ``--per-set`` puzzles of each ``--set`` (five by default),
evenly spread over its labels ($1, $17, $34... for 60 of 1000), as the
tournaments give them (the difficulty grows along a set).  ``--per-set 1000``
with one ``--set`` runs a whole set.

For each puzzle, in turn (the side that goes first alternates, so a machine
whose load changes slows both alike):

* rofl: ``rofl.solve_complete(puzzle, time_budget=..., solutions=1 or 2)``
  in this process, warm (compiled before the clock), its CPU time
  (``time.process_time``: the process's threads).
* nonosolve: one process per puzzle (``-n 1`` or ``-n 2``, ``--timeout``,
  ``--json``), its CPU time from the kernel's accounting (``os.wait4``:
  user + system of the whole process, start-up included, about 2 ms).

The machine this runs on is shared (2 cores, other jobs): CPU time, not the
wall clock, is the figure.  Both are given a wall-clock budget of three
times ``--budget``; a run that takes more than ``--budget`` CPU seconds
counts as undecided whatever it found.  Every grid either side returns is
checked against the clues; in mode ``two`` the two sides' verdicts (unique
or several) must agree where both decide.

``--batch`` also runs nonosolve's own batch mode (``--taai`` on the whole
sample in one process, its default first-solution mode, or ``-n 2``) and
prints its total CPU time: nonosolve's start-up counted once.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
DEFAULT_SETS = next(
    (p for p in (REPO.parent / "shared" / "tournaments", Path("/work/shared/tournaments")) if p.is_dir()), None
)
#: Five sets from the three tournaments and across the years.
SAMPLE_SETS = ("taai2011", "tcga2014", "icga2017", "taai2020", "tcga2022")
sys.path.insert(0, str(REPO))

from rofl.batch.tournament import read_tournament  # noqa: E402
from rofl.solver import solve_complete  # noqa: E402

MODES = {"first": 1, "two": 2}


def _fail(message: str) -> None:
    sys.exit(f"tournament.py: {message}")


def _clue_line(clue) -> str:
    return "\t".join(str(n) for n, _ in clue) if clue else "0"


def taai_text(label: int, puzzle) -> str:
    """One puzzle in the tournaments' format (columns first, then rows), for nonosolve."""
    lines = [f"${label}"]
    lines += [_clue_line(puzzle.clue(puzzle.height + c)) for c in range(puzzle.width)]
    lines += [_clue_line(puzzle.clue(r)) for r in range(puzzle.height)]
    return "\n".join(lines) + "\n"


def run_nonosolve(exe: str, path: Path, want: int, budget: float, puzzle) -> dict:
    """nonosolve on one puzzle file: its verdict, CPU seconds (wait4) and checked grids."""
    out = path.with_suffix(".json")
    out.unlink(missing_ok=True)
    start = time.perf_counter()
    proc = subprocess.Popen(
        [exe, "-n", str(want), "--timeout", str(3 * budget), "-q", "--json", str(out), str(path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - start
    cpu = usage.ru_utime + usage.ru_stime
    verdict, grids = "error", []
    if out.exists():
        data = json.loads(out.read_text())
        verdict = {"UNIQUE": "unique", "MULTIPLE": "multiple", "FOUND": "found", "NONE": "none"}.get(
            data["status"], "budget"
        )
        for text in data["solutions"]:
            grid = np.frombuffer(text.encode(), dtype=np.uint8).reshape(puzzle.height, puzzle.width) - ord("0")
            if not puzzle.is_solution(grid):
                _fail(f"nonosolve returned a grid that breaks the clues ({path.name})")
            grids.append(grid)
    return {"status": verdict, "cpu": cpu, "wall": wall, "solutions": len(grids)}


def run_rofl(puzzle, want: int, budget: float) -> dict:
    cpu, wall = time.process_time(), time.perf_counter()
    result = solve_complete(puzzle, time_budget=3 * budget, solutions=want)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    for grid in result.solutions:  # solve_complete checks too: a second look costs nothing
        if not puzzle.is_solution(grid):
            _fail("rofl returned a grid that breaks the clues")
    return {"status": str(result.status), "cpu": cpu, "wall": wall, "solutions": len(result.solutions),
            "sat": result.sat_seconds, "nodes": result.nodes}  # fmt: skip


def decided(run: dict, want: int, budget: float) -> bool:
    if run["cpu"] > budget or run["status"] in ("budget", "error"):
        return False
    return run["status"] in (("found", "unique", "multiple") if want == 1 else ("unique", "multiple", "none"))


def sample(sets_dir: Path, names: list[str], per_set: int) -> list[tuple[str, int, object]]:
    chosen = []
    for name in names:
        path = sets_dir / f"{name}.txt"
        if not path.is_file():
            _fail(f"no tournament set {path}")
        puzzles = read_tournament(path)
        step = len(puzzles) / per_set
        for i in range(per_set):
            label, puzzle = puzzles[min(len(puzzles) - 1, int(i * step))]
            chosen.append((name, label, puzzle))
    return chosen


def figures(times: list[float]) -> str:
    a = np.array(times)
    return f"{np.median(a):.3f} / {np.percentile(a, 90):.3f} / {a.max():.2f} s"


def say(out: list[str], *lines: str) -> None:
    """Print ``lines`` and keep them for ``--write-docs``."""
    text = "".join(lines)
    print(text, flush=True)
    out.append(text)


def report(mode: str, rows: list[dict], budget: float, out: list[str]) -> None:
    want = MODES[mode]
    other = "nonosolve -n 1" if want == 1 else "nonosolve -n 2"
    ours = [r["rofl"] for r in rows]
    theirs = [r["nonosolve"] for r in rows]
    dr = sum(decided(r, want, budget) for r in ours)
    dn = sum(decided(r, want, budget) for r in theirs)
    say(out, f"\n### mode {mode} ({'first solution' if want == 1 else 'two solutions'}), {len(rows)} puzzles, "
          f"budget {budget:g} CPU s")  # fmt: skip
    say(out, f"| | rofl `solve_complete(solutions={want})` | {other} |")
    say(out, "|---|---|---|")
    say(out, f"| decided within {budget:g} CPU s | {dr} | {dn} |")
    say(out, f"| median / p90 / slowest (CPU) | {figures([r['cpu'] for r in ours])} | "
          f"{figures([r['cpu'] for r in theirs])} |")  # fmt: skip
    say(out, f"| total CPU | {sum(r['cpu'] for r in ours):.1f} s | {sum(r['cpu'] for r in theirs):.1f} s |")
    ratio = [a["cpu"] / max(b["cpu"], 1e-4) for a, b in zip(ours, theirs, strict=True)]
    faster = sum(a["cpu"] < b["cpu"] for a, b in zip(ours, theirs, strict=True))
    say(out, f"\nPer puzzle, rofl's CPU over nonosolve's: median {statistics.median(ratio):.2f}; "
          f"rofl faster on {faster} of {len(rows)}.")  # fmt: skip
    if want == 2:
        differ = [
            f"{r['set']}#{r['label']}"
            for r in rows
            if decided(r["rofl"], 2, budget) and decided(r["nonosolve"], 2, budget)
            and r["rofl"]["status"] != r["nonosolve"]["status"]
        ]  # fmt: skip
        say(out, f"Verdicts that differ (both decided): {len(differ)} {' '.join(differ)}")
    slow = sorted(rows, key=lambda r: -r["rofl"]["cpu"])[:10]
    share = sum(r["rofl"]["cpu"] for r in slow)
    say(out, f"\nrofl's 10 slowest ({share:.1f} s of {sum(r['cpu'] for r in ours):.1f} s):")
    for r in slow:
        ours, theirs = r["rofl"], r["nonosolve"]
        say(out, f"- {r['set']}#{r['label']}: rofl {ours['cpu']:.2f} s ({ours['status']}, SAT {ours['sat']:.1f} s), "
              f"nonosolve {theirs['cpu']:.2f} s ({theirs['status']})")  # fmt: skip


def run_batch(exe: str, chosen, want: int, folder: Path, out: list[str]) -> None:
    text = "".join(taai_text(i + 1, puzzle) for i, (_, _, puzzle) in enumerate(chosen))
    path = folder / "sample.txt"
    path.write_text(text)
    proc = subprocess.Popen(
        [exe, "--taai", str(path), "-n", str(want), "-o", str(folder / "answers.txt")],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    _, _, usage = os.wait4(proc.pid, 0)
    said = proc.stdout.read().decode().strip()
    say(out, f"nonosolve's batch mode (-n {want}, one process, {len(chosen)} puzzles): "
          f"CPU {usage.ru_utime + usage.ru_stime:.1f} s; it says: {said}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--nonosolve", required=True)
    parser.add_argument("--sets", type=Path, default=DEFAULT_SETS)
    parser.add_argument("--set", dest="names", action="append")
    parser.add_argument("--per-set", type=int, default=60)
    parser.add_argument("--budget", type=float, default=10.0)
    parser.add_argument("--mode", dest="modes", action="append", choices=sorted(MODES))
    parser.add_argument("--batch", action="store_true")
    parser.add_argument("--save", type=Path)
    parser.add_argument("--write-docs", action="store_true", help="write section tournament-nonosolve of docs")
    parser.add_argument("--skip-nonosolve", action="store_true", help="rofl only (nonosolve's figures read 0)")
    args = parser.parse_args()
    if args.sets is None:
        _fail("no tournament sets found: pass --sets DIR")
    exe = str(Path(args.nonosolve).resolve())
    if not os.access(exe, os.X_OK):
        _fail(f"no nonosolve at {exe} (not bundled: see docs/benchmarks.md, 'rofl beside nonosolve')")
    names = args.names or list(SAMPLE_SETS)
    modes = args.modes or ["first", "two"]
    chosen = sample(args.sets, names, args.per_set)
    print(f"{len(chosen)} puzzles: {args.per_set} from each of {', '.join(names)}; nonosolve {exe}")
    # warm: compile (or load) every kernel before any clock
    solve_complete(chosen[0][2], solutions=2)
    saved = {}
    out: list[str] = [f"{len(chosen)} puzzles: {args.per_set} from each of {', '.join(names)}."]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for mode in modes:
            want = MODES[mode]
            rows = []
            for i, (name, label, puzzle) in enumerate(chosen):
                path = folder / f"{name}-{label}.txt"
                path.write_text(taai_text(label, puzzle))
                row = {"set": name, "label": label}
                order = ("rofl", "nonosolve") if i % 2 == 0 else ("nonosolve", "rofl")
                for side in order:
                    if side == "rofl":
                        row["rofl"] = run_rofl(puzzle, want, args.budget)
                    elif args.skip_nonosolve:
                        row["nonosolve"] = {"status": "skipped", "cpu": 0.0, "wall": 0.0, "solutions": 0}
                    else:
                        row["nonosolve"] = run_nonosolve(exe, path, want, args.budget, puzzle)
                rows.append(row)
                ours, theirs = row["rofl"], row["nonosolve"]
                print(f"  {mode} {i + 1}/{len(chosen)} {name}#{label}: rofl {ours['cpu']:.3f} s {ours['status']}, "
                      f"nonosolve {theirs['cpu']:.3f} s {theirs['status']}", file=sys.stderr, flush=True)  # fmt: skip
            report(mode, rows, args.budget, out)
            saved[mode] = rows
            if args.batch and not args.skip_nonosolve:
                run_batch(exe, chosen, want, folder, out)
    if args.save:
        args.save.write_text(json.dumps(saved, indent=1))
    if args.write_docs:
        from _docs import stamp, write_section

        write_section("tournament-nonosolve", stamp() + "\n\n" + "\n".join(out))


if __name__ == "__main__":
    main()
