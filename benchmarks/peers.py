"""rofl beside the C solver pbnsolve in one run on the shared corpus (issue 30; prints figures; not a test).

pbnsolve (Jan Wolter's solver, Apache-2.0) is NOT bundled with rofl: build it
yourself and pass the binary with ``--pbnsolve``.  Its sources are in the
public repository avi-levy/pbnsolve (release 1.10 under
``tags/pbnsolve-1.10``, the later tree under ``src/``); it builds with
``make`` given libxml2's headers (Debian: ``apt-get install libxml2-dev``;
``CFLAGS= -O2 -I/usr/include/libxml2``).  Build it outside this repository.

Usage::

    python benchmarks/peers.py --pbnsolve PATH [--corpus DIR] [--repeat 5] [--budget 10]
        [--core 0] [--only TEXT] [--list] [--line-only | --large-only] [--write-docs]

Both solvers run pinned to one core (``--core``; pbnsolve inherits the
affinity) and take turns puzzle by puzzle, so a machine whose load changes
during the run slows both alike.  Every puzzle is handed to pbnsolve as
webpbn XML written by rofl, once, before any timing.

1. Line logic, on the puzzles ``rofl.solve`` finishes: ``rofl.solve`` in
   process against pbnsolve's own solve time with line logic only
   (``-aLE``: its left-right-overlap line solver, plus its exhaustive
   check of every cell that makes its line logic complete; no search).
   pbnsolve's own time is the "Processing Time" its ``-t`` flag prints: CPU
   time from after the puzzle is read to the end of the solve, so neither
   process start-up nor reading counts; its resolution is 1 us.  rofl's is
   the CPU time of the call (``time.process_time``: the process's threads,
   so a machine busy with other work slows neither side's figure).  Each
   side is the best of ``--repeat`` runs, the runs alternating.  pbnsolve's whole
   process (wall clock, start-up and reading included) is shown for scale.
   pbnsolve must solve each puzzle by line logic to the same grid.
2. Search, on the puzzles line logic cannot finish, ``--budget`` seconds
   each: ``rofl.solve_complete(puzzle, time_budget=...)`` (its CPU time) and
   pbnsolve with its default algorithms and ``-u`` (prove uniqueness), both
   stopped after the same wall-clock budget.  (pbnsolve's own CPU limit
   ``-x`` is not used: while a CPU limit is armed, Linux advances a
   process's CPU clock only at scheduler ticks, and ``-t`` then reads 0 for
   any solve shorter than a tick.)  Each outcome is sorted into unique,
   several solutions, no solution or over budget; the table compares the two
   on the puzzles both decide, by category, and lists the slowest.  Puzzles
   the two sort into different categories are listed (over budget aside).

3. Large pictures: the puzzles in ``benchmarks/data/large`` (made by
   ``rofl make`` from crops of ``samples/camera.jpg`` and
   ``samples/astronaut.jpg``, 200 and 400 cells a side, black and white and
   four colours; all line-solvable), each ``rofl.solve`` in process against
   pbnsolve ``-aLE``'s own time, as in part 1.

``--write-docs`` writes the tables into section ``peers`` of
``docs/benchmarks.md``; with ``--large-only`` (part 3 alone) into section
``peers-large``.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
# beside the repository, as CI clones it, or where this machine keeps it
DEFAULT_CORPUS = next((p for p in (REPO.parent / "shared" / "corpus", Path("/work/shared/corpus")) if p.is_dir()), None)
sys.path.insert(0, str(REPO))

import rofl  # noqa: E402
from rofl.formats import puzzle_bytes, read_puzzle  # noqa: E402

LARGE = REPO / "benchmarks" / "data" / "large"
CATEGORIES = ("unique", "several solutions", "no solution", "over budget")
LINE_FLAGS = ["-aLE"]  # line solver + exhaustive check: pbnsolve's complete line logic, no search
SEARCH_FLAGS = ["-u"]  # default algorithms (-aLHEGP), and prove uniqueness
# pbnsolve's verdict (the line after the puzzle's name), its category
VERDICTS = (
    ("UNIQUE LINE SOLUTION", "unique"),
    ("UNIQUE DEPTH-", "unique"),
    ("UNIQUE SOLUTION", "unique"),
    ("FOUND MULTIPLE SOLUTIONS", "several solutions"),
    ("NO SOLUTION", "no solution"),
    ("CPU time limit exceeded", "over budget"),
    ("STALLED WITH PARTIAL SOLUTION", "stalled"),
    ("STOPPED WITH SOLUTION", "solved, uniqueness not checked"),
)
MICROSECOND = 1e-6  # pbnsolve prints its time to the microsecond


@dataclass
class Run:
    """One pbnsolve run: its verdict, its own time and what the whole process took."""

    verdict: str
    seconds: float | None  # pbnsolve's "Processing Time"; None when it printed none
    wall: float
    grid: list[str] | None  # the solution rows it printed first, if any


def _fail(message: str) -> None:
    sys.exit(f"peers.py: {message}")


def _run(exe: str, flags: list[str], xml: Path, timeout: float) -> Run:
    """Run pbnsolve once on ``xml`` and read its verdict and ``-t`` time."""
    start = time.perf_counter()
    try:
        done = subprocess.run([exe, *flags, "-t", str(xml)], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return Run("over budget", None, time.perf_counter() - start, None)
    wall = time.perf_counter() - start
    lines = done.stdout.splitlines()
    verdict, grid = "unreadable", None
    for i, line in enumerate(lines):
        found = next((cat for head, cat in VERDICTS if line.startswith(head)), None)
        if found is not None:
            verdict = found
            grid = []
            for row in lines[i + 1 :]:
                if not row or " " in row or row.startswith("ALTERNATE"):
                    break
                grid.append(row)
            break
    timed = re.search(r"^Processing Time: ([0-9.]+) sec", done.stdout, re.MULTILINE)
    return Run(verdict, float(timed.group(1)) if timed else None, wall, grid or None)


def _check_pbnsolve(exe: str, folder: Path) -> str:
    """pbnsolve's version; one clear line and exit when ``exe`` is not a working pbnsolve."""
    found = shutil.which(exe) or (exe if Path(exe).is_file() else None)
    if found is None or not os.access(found, os.X_OK):
        _fail(
            f"no pbnsolve at {exe!r} (not bundled: build it from avi-levy/pbnsolve, see this script's docstring, "
            "and pass --pbnsolve PATH)"
        )
    probe = folder / "probe.xml"
    probe.write_bytes(puzzle_bytes(probe, rofl.Puzzle.from_grid(np.eye(2, dtype=np.uint8), rofl.Palette.black_white())))
    try:
        done = subprocess.run([found, "-vA", "-u", str(probe)], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as exc:
        _fail(f"{found} does not run as pbnsolve: {exc}")
    version = re.search(r"pbnsolve version (\S+)", done.stdout)
    if done.returncode != 0 or "MULTIPLE" not in done.stdout:
        _fail(f"{found} does not behave as pbnsolve (exit {done.returncode}): {done.stderr.strip()[:200]}")
    return version.group(1) if version else "unknown"


def _grid_rows(grid: np.ndarray, chars: str) -> list[str]:
    return ["".join(chars[v] for v in row) for row in grid]


def _xml_chars(xml: Path) -> str:
    """The character pbnsolve prints for each colour index (the ``char`` of each ``<color>``, in order)."""
    return "".join(re.findall(r'<color name="[^"]*" char="(.)"', xml.read_text(encoding="utf-8")))


def _fmt(seconds: float | None) -> str:
    if seconds is None:
        return "–"
    if seconds < 0.01:
        return f"{seconds * 1e3:.3f} ms"
    return f"{seconds * 1e3:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def _spread(times: list[float]) -> str:
    """``median | p90 | max`` cells of a table row."""
    return f"{_fmt(statistics.median(times))} | {_fmt(float(np.percentile(times, 90)))} | {_fmt(max(times))}"


def _warm_up() -> None:
    # a 2x2 diagonal stalls line logic, so the search kernel loads too
    puzzle = rofl.Puzzle.from_grid(np.eye(2, dtype=np.uint8), rofl.Palette.black_white())
    rofl.solve(puzzle)
    rofl.solve_complete(puzzle)


def _category(result) -> str:
    return {"unique": "unique", "multiple": "several solutions", "none": "no solution"}.get(
        result.status, "over budget"
    )


def _line_turns(exe: str, puzzle, xml: Path, repeat: int, timeout: float):
    """``rofl.solve`` and pbnsolve's line logic taking turns ``repeat`` times:
    the last results of both, and the best CPU time of rofl, pbnsolve's best
    own time (``inf`` when it printed none) and its best whole process."""
    best_rofl = best_own = best_wall = float("inf")
    result = run = None
    for _ in range(repeat):
        t = time.process_time()
        result = rofl.solve(puzzle)
        best_rofl = min(best_rofl, time.process_time() - t)
        run = _run(exe, LINE_FLAGS, xml, timeout=timeout)
        best_wall = min(best_wall, run.wall)
        if run.seconds is not None:
            best_own = min(best_own, run.seconds)
    assert result is not None and run is not None
    return result, run, best_rofl, best_own, best_wall


def line_logic(exe: str, items: list[tuple[str, object, Path]], repeat: int) -> tuple[list[str], list[str]]:
    """Part 1: the table, and the puzzles on which pbnsolve's line logic disagrees with rofl's."""
    rows, odd = [], []
    for n, (name, puzzle, xml) in enumerate(items, 1):
        chars = _xml_chars(xml)
        result, run, best_rofl, best_own, best_wall = _line_turns(exe, puzzle, xml, repeat, timeout=60)
        if run.verdict != "unique" or run.grid != _grid_rows(result.grid, chars):
            odd.append(f"{name}: pbnsolve {run.verdict}" + (", another grid" if run.verdict == "unique" else ""))
        else:
            rows.append((name, best_rofl, max(best_own, MICROSECOND), best_wall))
        print(f"\rline logic {n}/{len(items)}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    if not rows:
        return ["No puzzle solved alike by both."], odd
    ours = [r[1] for r in rows]
    theirs = [r[2] for r in rows]
    walls = [r[3] for r in rows]
    ratios = [a / b for a, b in zip(ours, theirs, strict=True)]
    faster = sum(r < 1 for r in ratios)
    table = [
        f"Line logic on the {len(rows)} puzzles both solve to the same grid by line logic "
        f"(best of {repeat} runs each, taking turns):",
        "",
        "| | median | p90 | max |",
        "|---|---|---|---|",
        f"| rofl: `rofl.solve` in process | {_spread(ours)} |",
        f"| pbnsolve `{' '.join(LINE_FLAGS)}`: its own time (`-t`) | {_spread(theirs)} |",
        f"| pbnsolve, whole process (wall clock: start-up and reading included) | {_spread(walls)} |",
        "",
        f"Per puzzle, rofl's time over pbnsolve's own: median {statistics.median(ratios):.2f}, "
        f"p90 {np.percentile(ratios, 90):.2f}; rofl is faster on {faster} of {len(rows)}.",
    ]
    return table, odd


def large(exe: str, folder: Path, repeat: int) -> list[str]:
    """Part 3: the table of the large pictures."""
    rows = [
        f"Large pictures (`benchmarks/data/large`, best of {repeat} runs each, taking turns):",
        "",
        "| puzzle | size | colours | line solves | rofl: `rofl.solve` | pbnsolve `-aLE`, own time | rofl / pbnsolve |",
        "|---|---|---|---|---|---|---|",
    ]
    for path in sorted(LARGE.glob("*.rofl")):
        puzzle, _ = read_puzzle(path)
        xml = folder / (path.stem + ".xml")
        xml.write_bytes(puzzle_bytes(xml, puzzle))
        chars = _xml_chars(xml)
        rofl.solve(puzzle)  # loads what this size needs, outside the timing
        result, run, best_rofl, best_own, _ = _line_turns(exe, puzzle, xml, repeat, timeout=600)
        if result.status != "solved" or run.verdict != "unique" or run.grid != _grid_rows(result.grid, chars):
            _fail(f"{path.name}: rofl {result.status}, pbnsolve {run.verdict}: not the same grid by line logic")
        rows.append(
            f"| {path.stem} | {puzzle.width}×{puzzle.height} | {puzzle.n_colors} | {result.line_solves} "
            f"| {_fmt(best_rofl)} | {_fmt(best_own)} | {best_rofl / best_own:.2f} |"
        )
    return rows


def search(exe: str, items: list[tuple[str, object, Path]], budget: float) -> tuple[list[str], list[str], list[str]]:
    """Part 2: the table, the slowest puzzles and the puzzles sorted differently."""
    rows = []
    for n, (name, puzzle, xml) in enumerate(items, 1):
        t = time.process_time()
        result = rofl.solve_complete(puzzle, time_budget=budget)
        ours = (_category(result), time.process_time() - t)
        run = _run(exe, SEARCH_FLAGS, xml, timeout=budget)
        theirs = (run.verdict, run.seconds if run.verdict != "over budget" else None)
        rows.append((name, ours, theirs))
        print(f"\rsearch {n}/{len(items)}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)

    table = [
        f"Search on the {len(rows)} puzzles line logic cannot finish, {budget:g} s each "
        "(rofl: CPU time of `rofl.solve_complete`; pbnsolve: its own CPU time, default algorithms, `-u`):",
        "",
        "| outcome | rofl | pbnsolve |",
        "|---|---|---|",
    ]
    for cat in CATEGORIES:
        table.append(f"| {cat} | {sum(r[1][0] == cat for r in rows)} | {sum(r[2][0] == cat for r in rows)} |")
    other = sorted({r[2][0] for r in rows} - set(CATEGORIES))
    for cat in other:
        table.append(f"| {cat} | – | {sum(r[2][0] == cat for r in rows)} |")
    table += [
        "",
        "On the puzzles both decide alike, by category:",
        "",
        "| category | puzzles | rofl median | pbnsolve median | rofl max | pbnsolve max | median of rofl / pbnsolve |",
        "|---|---|---|---|---|---|---|",
    ]
    for cat in CATEGORIES[:3]:
        both = [r for r in rows if r[1][0] == cat and r[2][0] == cat and r[2][1] is not None]
        if not both:
            continue
        ours = [r[1][1] for r in both]
        theirs = [max(r[2][1], MICROSECOND) for r in both]
        ratio = statistics.median(a / b for a, b in zip(ours, theirs, strict=True))
        table.append(
            f"| {cat} | {len(both)} | {_fmt(statistics.median(ours))} | {_fmt(statistics.median(theirs))} "
            f"| {_fmt(max(ours))} | {_fmt(max(theirs))} | {ratio:.2f} |"
        )

    def spent(r) -> float:
        """Both solvers' seconds on the puzzle, a run over budget counting as the budget."""
        return (budget if r[1][0] == "over budget" else r[1][1]) + (budget if r[2][1] is None else r[2][1])

    slow = [
        f"| `{r[0]}` | {r[1][0]}, {_fmt(r[1][1]) if r[1][0] != 'over budget' else '–'} | {r[2][0]}, {_fmt(r[2][1])} |"
        for r in sorted(rows, key=spent, reverse=True)[:8]
    ]
    slowest = [
        "The slowest (by the two times added, a run over budget counting as the budget):",
        "",
        "| puzzle | rofl | pbnsolve |",
        "|---|---|---|",
        *slow,
    ]
    for who, side in (("rofl", 1), ("pbnsolve", 2)):
        over = [f"`{r[0]}`" for r in rows if r[side][0] == "over budget"]
        slowest += ["", f"Over budget, {who} ({len(over)}): {', '.join(over) or 'none'}."]
    decided = set(CATEGORIES[:3])
    differ = [
        f"{r[0]}: rofl {r[1][0]}, pbnsolve {r[2][0]}"
        for r in rows
        if r[1][0] in decided and r[2][0] in decided and r[1][0] != r[2][0]
    ]
    return table, slowest, differ


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pbnsolve", required=True, help="the pbnsolve binary (not bundled; see the docstring)")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--repeat", type=int, default=5, help="line logic: runs per puzzle and solver; the best counts")
    parser.add_argument("--budget", type=float, default=10.0, help="search: seconds per puzzle and solver (default 10)")
    parser.add_argument("--core", type=int, default=0, help="the core both solvers are pinned to (default 0)")
    parser.add_argument("--only", default="", help="only folders whose name contains this")
    parser.add_argument("--list", action="store_true", help="print the puzzles the two sort differently")
    parser.add_argument("--write-docs", action="store_true", help="write the tables into docs/benchmarks.md")
    parser.add_argument("--line-only", action="store_true", help="line logic only (not with --write-docs)")
    parser.add_argument("--large-only", action="store_true", help="the large pictures only (part 3)")
    args = parser.parse_args()
    if args.line_only and args.write_docs:
        _fail("--write-docs needs both parts: leave out --line-only")
    if args.large_only:
        os.sched_setaffinity(0, {args.core})
        with tempfile.TemporaryDirectory(prefix="rofl-peers-") as tmp:
            version = _check_pbnsolve(args.pbnsolve, Path(tmp))
            _warm_up()
            report = [
                f"pbnsolve {version} (`{args.pbnsolve}`), core {args.core}.",
                "",
                *large(args.pbnsolve, Path(tmp), args.repeat),
            ]
        print("\n".join(report))
        if args.write_docs:
            sys.path.insert(0, str(REPO / "benchmarks"))
            from _docs import stamp, write_section

            write_section("peers-large", "\n".join([stamp(), "", *report]))
        return

    files = sorted(p for p in args.corpus.glob("*/*.json") if args.only in p.parent.name) if args.corpus else []
    if not files:
        _fail(f"no puzzles under {args.corpus or '../shared/corpus'}")
    os.sched_setaffinity(0, {args.core})
    with tempfile.TemporaryDirectory(prefix="rofl-peers-") as tmp:
        folder = Path(tmp)
        version = _check_pbnsolve(args.pbnsolve, folder)
        _warm_up()
        line_items, search_items = [], []
        for path in files:
            puzzle, _ = read_puzzle(path)
            name = str(path.relative_to(args.corpus).with_suffix(""))
            xml = folder / (name.replace("/", "__") + ".xml")
            xml.write_bytes(puzzle_bytes(xml, puzzle))
            (line_items if rofl.solve(puzzle).status == "solved" else search_items).append((name, puzzle, xml))

        # first calls on real puzzles load the rest of the compiled code: outside the timings
        for _, puzzle, _ in line_items[:1]:
            rofl.solve(puzzle)
        for _, puzzle, _ in search_items[:1]:
            rofl.solve_complete(puzzle, time_budget=args.budget)
        start = time.perf_counter()
        line_table, line_odd = line_logic(args.pbnsolve, line_items, args.repeat)
        search_table, slowest, differ, large_table = [], [], [], []
        if not args.line_only:
            search_table, slowest, differ = search(args.pbnsolve, search_items, args.budget)
            large_table = large(args.pbnsolve, folder, args.repeat)
        wall = time.perf_counter() - start

    report = [
        f"pbnsolve {version} (`{args.pbnsolve}`), core {args.core}, {len(files)} puzzles: "
        f"{len(line_items)} solved by rofl's line logic, {len(search_items)} not.",
        "",
        *line_table,
        "",
        f"pbnsolve's line logic disagrees on {len(line_odd)} of the {len(line_items)}"
        + (": " + "; ".join(f"`{x}`" for x in line_odd) if line_odd else "."),
        "",
        *search_table,
        "",
        *slowest,
        "",
        f"Decided, but sorted differently: {len(differ)}"
        + (": " + "; ".join(f"`{x}`" for x in differ) if differ else "."),
        "",
        *large_table,
    ]
    print("\n".join(report))
    print(f"wall time {wall:.0f} s")
    if args.list:
        for line in line_odd + differ:
            print("  ", line)
    if args.write_docs:
        sys.path.insert(0, str(REPO / "benchmarks"))
        from _docs import stamp, write_section

        write_section("peers", "\n".join([stamp(), "", *report]))


if __name__ == "__main__":
    main()
