"""Complete solving of the shared corpus: time per puzzle, by category.

Every puzzle is solved by :func:`rofl.solver.search.solve_complete` with a
time budget (10 s by default) and sorted into a category by what the solver
proved: line-solvable (line logic alone), needs search and unique, several
solutions; the ones that ran out of budget are counted apart (their
category is unknown).  Times are wall-clock seconds of the whole call
(line logic included), after a warm-up call that loads the compiled code;
a second table gives, per source folder, the puzzles that need search with
their wall and CPU times (CPU is the steadier figure on a shared machine).

Run from the repository root::

    python benchmarks/search_corpus.py [--budget 10] [--jobs 1] [--corpus ../shared/corpus] [--list] [--write-docs]

``--write-docs`` also writes the table into section ``search-corpus`` of
``docs/benchmarks.md``.

For scale (the issue's figures, same corpus and kind of machine): pbnsolve
median 13 ms, p90 1.3 s, max 6.6 s, 23 puzzles over 10 s; nonogrid 33 ms,
1.2 s, 9.1 s, 15 over 10 s.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

CATEGORIES = ("line-solvable", "search, unique", "several solutions", "no solution", "over budget")


def _solve(args: tuple[str, float]) -> tuple[str, str, float, int, int, float]:
    from rofl.formats import read_puzzle
    from rofl.solver.search import solve_complete

    path, budget = args
    puzzle, _ = read_puzzle(path)
    start = time.perf_counter()
    cpu = time.process_time()
    result = solve_complete(puzzle, time_budget=budget)
    seconds = time.perf_counter() - start
    cpu = time.process_time() - cpu
    if result.status == "unique":
        category = "line-solvable" if result.line_solvable else "search, unique"
    elif result.status == "multiple":
        category = "several solutions"
    elif result.status == "none":
        category = "no solution"
    else:
        category = "over budget"
    return path, category, seconds, result.nodes, result.probes, cpu


def _warm_up(_: object = None) -> None:
    import rofl
    from rofl.puzzle import Palette, Puzzle

    # a 2x2 diagonal stalls line logic, so the search kernel loads too
    rofl.solve_complete(Puzzle.from_grid(np.eye(2, dtype=np.uint8), Palette.black_white()))


def _fmt(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def _by_folder(rows: list[tuple], budget: float) -> list[str]:
    """Per source folder, the puzzles line logic does not finish: how many,
    decided, median wall and CPU time of the decided ones, the slowest."""
    lines = [
        f"Puzzles that need search, by source (wall and CPU time of the decided ones; over: the {budget:g} s budget):",
        "",
        "| folder | need search | unique | several | over | median | median CPU | max |",
        "|---|---|---|---|---|---|---|---|",
    ]
    folders = sorted({Path(r[0]).parent.name for r in rows})
    for folder in folders:
        mine = [r for r in rows if Path(r[0]).parent.name == folder and r[1] != "line-solvable"]
        if not mine:
            continue
        done = [r for r in mine if r[1] != "over budget"]
        count = {c: sum(r[1] == c for r in mine) for c in CATEGORIES}
        wall = np.array([r[2] for r in done]) if done else np.zeros(1)
        cpu = np.array([r[5] for r in done]) if done else np.zeros(1)
        lines.append(
            f"| {folder} | {len(mine)} | {count['search, unique']} | {count['several solutions']} "
            f"| {count['over budget']} | {_fmt(np.median(wall))} | {_fmt(np.median(cpu))} | {_fmt(wall.max())} |"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=10.0, help="seconds per puzzle (default 10)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1: cleanest timings)")
    parser.add_argument("--corpus", type=Path, default=Path(__file__).resolve().parents[1] / ".." / "shared" / "corpus")
    parser.add_argument("--only", default="", help="only folders whose name contains this")
    parser.add_argument("--list", action="store_true", help="print every puzzle's line")
    parser.add_argument("--write-docs", action="store_true", help="write the table into docs/benchmarks.md")
    args = parser.parse_args()

    corpus = args.corpus if args.corpus.is_dir() else Path("/work/shared/corpus")
    paths = sorted(str(p) for p in corpus.glob("*/*.json") if args.only in p.parent.name)
    if not paths:
        sys.exit(f"no puzzles under {corpus}")
    jobs = [(p, args.budget) for p in paths]
    rows = []
    start = time.perf_counter()
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs, initializer=_warm_up) as pool:
            for i, row in enumerate(pool.map(_solve, jobs), 1):
                rows.append(row)
                print(f"\r{i}/{len(jobs)}", end="", file=sys.stderr, flush=True)
    else:
        _warm_up()
        for i, job in enumerate(jobs, 1):
            rows.append(_solve(job))
            print(f"\r{i}/{len(jobs)}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    wall = time.perf_counter() - start

    if args.list:
        for path, category, seconds, nodes, probes, _ in rows:
            name = os.path.relpath(path, corpus)
            print(f"{name:52s} {category:18s} {_fmt(seconds):>10s}  nodes {nodes:6d}  probes {probes:8d}")
        print()

    print(f"complete solving of {len(rows)} corpus puzzles, budget {args.budget:g} s, {args.jobs} job(s)")
    print(f"{'category':20s} {'puzzles':>8s} {'median':>10s} {'p90':>10s} {'max':>10s}")
    table = ["| category | puzzles | median | p90 | max |", "|---|---|---|---|---|"]
    for category in CATEGORIES:
        times = np.array([r[2] for r in rows if r[1] == category])
        if times.size == 0:
            continue
        print(
            f"{category:20s} {times.size:8d} {_fmt(np.median(times)):>10s} "
            f"{_fmt(np.percentile(times, 90)):>10s} {_fmt(times.max()):>10s}"
        )
        if category == "over budget":  # their times are the budget
            table.append(f"| over the {args.budget:g} s budget | {times.size} | | | |")
        else:
            table.append(
                f"| {category} | {times.size} | {_fmt(np.median(times))} | {_fmt(np.percentile(times, 90))} "
                f"| {_fmt(times.max())} |"
            )
    times = np.array([r[2] for r in rows])
    over = sum(r[1] == "over budget" for r in rows)
    print(
        f"{'all':20s} {times.size:8d} {_fmt(np.median(times)):>10s} "
        f"{_fmt(np.percentile(times, 90)):>10s} {_fmt(times.max()):>10s}"
    )
    table.append(f"| all | {times.size} | {_fmt(np.median(times))} | {_fmt(np.percentile(times, 90))} | |")
    table += ["", *(f"* over budget: `{os.path.relpath(r[0], corpus)}`" for r in rows if r[1] == "over budget")]
    table += ["", *_by_folder(rows, args.budget)]
    print("\n".join(table[-len(_by_folder(rows, args.budget)) :]))
    print(f"decided within {args.budget:g} s: {len(rows) - over} of {len(rows)}; over budget: {over}")
    for path, category, *_ in rows:
        if category == "over budget":
            print(f"  over budget: {os.path.relpath(path, corpus)}")
    print(f"wall time {wall:.1f} s")
    if args.write_docs:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from _docs import stamp, write_section

        write_section("search-corpus", "\n".join([stamp(), "", *table]))


if __name__ == "__main__":
    main()
