"""Line-logic speed on the puzzle corpus (prints figures; not a test).

Usage::

    python benchmarks/solve_corpus.py [CORPUS_DIR] [--repeat N] [--search] [--write-docs]

Measures, in this order:

* ``import rofl`` in a fresh interpreter (best of 5), and whether it pulled
  in numba;
* one cold-cache run: a fresh interpreter with ``NUMBA_CACHE_DIR`` set to an
  empty directory, from start-up to the end of the first solve (that is
  the compilation a fresh install pays once);
* the first solve of a warm process (loading the cached machine code);
* warm, in this process: every corpus puzzle solved with :func:`rofl.solve`
  (the public call, wrapper included), each timed as the best of
  ``--repeat`` runs; counts and median / p90 / max / total per group;
* a warm ``rofl solve`` of a 30x30 puzzle as a whole process (median of 5),
  wall and CPU time (CPU time does not grow when other jobs load the
  machine);
* with ``--search``, the complete solver on every puzzle by category
  (issue 6; ``benchmarks/search_corpus.py``).

``--write-docs`` also writes the figures into section ``solve-corpus`` of
``docs/benchmarks.md`` (and, with ``--search``, ``search-corpus``).

Targets (issue 2): median <= 0.3 ms and max <= 20 ms on the puzzles line
logic finishes; import <= 0.3 s with no compilation; whole-process ``rofl
solve`` of a 30x30 puzzle <= 1 s.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = REPO.parent / "shared" / "corpus"
PUZZLE_30 = "kde-picmi/00-basketball.json"  # 30x30, stalls


def _env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), *filter(None, [env.get("PYTHONPATH")])])
    env.update(extra)
    return env


def _python(code: str, **extra: str) -> str:
    out = subprocess.run([sys.executable, "-c", code], env=_env(**extra), capture_output=True, text=True, check=True)
    return out.stdout.strip()


def import_time() -> tuple[float, bool]:
    code = (
        "import time, sys; t = time.perf_counter(); import rofl; t = time.perf_counter() - t; "
        "print(t, 'numba' in sys.modules)"
    )
    runs = [_python(code).split() for _ in range(5)]
    return min(float(t) for t, _ in runs), any(flag == "True" for _, flag in runs)


def first_solve(path: Path, **extra: str) -> tuple[float, float]:
    """Wall and CPU seconds from ``import rofl`` to the end of the first solve, in a fresh interpreter."""
    code = (
        "import time; t = time.perf_counter(); c = time.process_time(); import rofl; "
        "from rofl.formats import read_puzzle; "
        f"p, _ = read_puzzle({str(path)!r}); r = rofl.solve(p); "
        "print(time.perf_counter() - t, time.process_time() - c)"
    )
    wall, cpu = _python(code, **extra).split()
    return float(wall), float(cpu)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def whole_process(path: Path, runs: int = 5) -> tuple[float, float, str]:
    """Median wall and CPU seconds of ``python -m rofl solve path`` (after one run that warms the cache)."""
    cmd = [sys.executable, "-m", "rofl", "solve", "--no-color", str(path)]
    subprocess.run(cmd, env=_env(), capture_output=True, check=False)
    walls, cpus = [], []
    for _ in range(runs):
        t, c = time.perf_counter(), _children_cpu()
        out = subprocess.run(cmd, env=_env(), capture_output=True, text=True, check=False)
        walls.append(time.perf_counter() - t)
        cpus.append(_children_cpu() - c)
    return statistics.median(walls), statistics.median(cpus), (out.stdout + out.stderr).strip().splitlines()[-1]


def solvable_30x30(directory: Path) -> Path:
    """A line-solvable 30x30 puzzle (the corpus has none): the first seeded random picture that solves."""
    import numpy as np

    import rofl
    from rofl.formats import write_puzzle

    for seed in range(1000):
        grid = (np.random.default_rng(seed).random((30, 30)) < 0.65).astype(np.uint8)
        puzzle = rofl.Puzzle.from_grid(grid, meta={"title": f"random 30x30, density 0.65, seed {seed}"})
        if rofl.solve(puzzle).status == "solved":
            path = directory / f"random30-seed{seed}.json"
            write_puzzle(path, puzzle, grid)
            return path
    msg = "no line-solvable random 30x30 picture found"
    raise RuntimeError(msg)


def _ms(seconds: list[float]) -> str:
    if not seconds:
        return "-"
    s = sorted(seconds)
    p90 = s[min(len(s) - 1, int(round(0.9 * (len(s) - 1))))]
    return (
        f"median {statistics.median(s) * 1e3:7.3f} ms  p90 {p90 * 1e3:7.3f} ms  "
        f"max {s[-1] * 1e3:7.3f} ms  total {sum(s) * 1e3:8.1f} ms"
    )


def _md_ms(seconds: list[float]) -> str:
    """Median, p90, max and total as Markdown table cells."""
    s = sorted(seconds)
    p90 = s[min(len(s) - 1, int(round(0.9 * (len(s) - 1))))]
    cells = [t * 1e3 for t in (statistics.median(s), p90, s[-1], sum(s))]
    return " | ".join(f"{ms:.2g} ms" if ms < 10 else f"{ms:.0f} ms" for ms in cells)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--repeat", type=int, default=5, help="runs per puzzle; the best counts (default 5)")
    parser.add_argument(
        "--search",
        action="store_true",
        help="then the complete solver by category (benchmarks/search_corpus.py, 10 s budget)",
    )
    parser.add_argument("--write-docs", action="store_true", help="write the figures into docs/benchmarks.md")
    args = parser.parse_args()
    report = []  # Markdown for --write-docs
    files = sorted(args.corpus.glob("*/*.json"))
    if not files:
        sys.exit(f"no puzzles under {args.corpus}")

    seconds, numba_loaded = import_time()
    print(f"import rofl (fresh process, best of 5): {seconds * 1e3:.1f} ms; numba imported: {numba_loaded}")
    report.append(f"* `import rofl`, fresh process: {seconds * 1e3:.1f} ms (best of 5); numba loaded: {numba_loaded}")
    with tempfile.TemporaryDirectory() as cache:
        wall, cpu = first_solve(files[0], NUMBA_CACHE_DIR=cache)
    print(f"cold numba cache, import to first solve (compiles the kernels): {wall:.2f} s wall, {cpu:.2f} s CPU")
    report.append(f"* empty numba cache, import to first solve (compiles): {wall:.2f} s wall, {cpu:.2f} s CPU")
    wall, cpu = first_solve(files[0])
    print(f"warm numba cache, import to first solve (loads them): {wall:.2f} s wall, {cpu:.2f} s CPU")
    report.append(f"* warm numba cache, import to first solve (loads them): {wall:.2f} s wall, {cpu:.2f} s CPU")

    sys.path.insert(0, str(REPO))
    import rofl
    from rofl.formats import read_puzzle

    puzzles = [(path, *read_puzzle(path)) for path in files]
    rofl.solve(puzzles[0][1])  # load the compiled code outside the timings
    rows = []
    for path, puzzle, _ in puzzles:
        best = float("inf")
        for _ in range(args.repeat):
            t = time.perf_counter()
            result = rofl.solve(puzzle)
            best = min(best, time.perf_counter() - t)
        rows.append((path, puzzle, result, best))

    print(f"\nwarm rofl.solve over {len(rows)} corpus puzzles (best of {args.repeat} runs each):")
    report += [
        "",
        f"Warm `rofl.solve` over {len(rows)} corpus puzzles, best of {args.repeat} runs each:",
        "",
        "| puzzles | count | median | p90 | max | total |",
        "|---|---|---|---|---|---|",
    ]
    for kind, pick in (
        ("all", lambda p: True),
        ("B/W", lambda p: p.n_colors == 2),
        ("colour", lambda p: p.n_colors > 2),
    ):
        group = [r for r in rows if pick(r[1])]
        solved = [r[3] for r in group if r[2].status == "solved"]
        stalled = [r[3] for r in group if r[2].status == "stalled"]
        other = len(group) - len(solved) - len(stalled)
        print(f"  {kind:6} {len(group):3} puzzles: {len(solved)} solved, {len(stalled)} stalled, {other} other")
        print(f"           solved : {_ms(solved)}")
        print(f"           stalled: {_ms(stalled)}")
        for status, times in (("solved", solved), ("stalled", stalled)):
            if kind != "all" and times:  # no row for a group with no puzzles
                report.append(f"| {kind}, {status} | {len(times)} | {_md_ms(times)} |")
    slow = sorted(rows, key=lambda r: -r[3])[:5]
    print("  slowest:")
    for path, puzzle, result, t in slow:
        name = path.relative_to(args.corpus)
        print(
            f"    {t * 1e3:7.3f} ms  {name}  {puzzle.width}x{puzzle.height} {result.status}, "
            f"{result.line_solves} line solves, {result.sweeps} sweeps"
        )

    print("\nwarm `python -m rofl solve` of a 30x30 puzzle as a whole process, median of 5:")
    report += ["", "A whole warm `rofl solve` process on a 30x30 puzzle, median of 5:", ""]
    with tempfile.TemporaryDirectory() as tmp:
        for target in (solvable_30x30(Path(tmp)), args.corpus / PUZZLE_30):
            if target.exists():
                wall, cpu, last = whole_process(target)
                print(f"  {target.name}: {wall:.3f} s wall, {cpu:.3f} s CPU  [{last}]")
                report.append(f"* `{target.name}`: {wall:.2f} s wall, {cpu:.2f} s CPU ({last})")

    if args.write_docs:
        sys.path.insert(0, str(REPO / "benchmarks"))
        from _docs import stamp, write_section

        write_section("solve-corpus", "\n".join([stamp(), "", *report]))

    if args.search:
        import runpy

        print("\ncomplete solver (benchmarks/search_corpus.py):", flush=True)
        sys.argv = [str(REPO / "benchmarks" / "search_corpus.py"), "--corpus", str(args.corpus)]
        sys.argv += ["--write-docs"] if args.write_docs else []
        runpy.run_path(sys.argv[0], run_name="__main__")


if __name__ == "__main__":
    main()
