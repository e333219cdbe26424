"""How fast Ctrl-C and ``--budget`` stop line logic, and what the stop flag costs (prints figures; not a test).

Usage::

    python benchmarks/interrupt.py [--corpus DIR] [--against CHECKOUT] [--write-docs]

Measures, on a random 2048 x 2048 black-and-white puzzle (about 512
groups per line, so every line solve is slow and one line-logic pass takes
tens of seconds):

* Ctrl-C inside line logic, in this process: the time from SIGINT to
  ``KeyboardInterrupt`` in the caller, for signals sent 0.5, 1 and 1.5 s
  into the pass;
* ``rofl.solve(puzzle, budget=1)``: how far past the budget it returns;
* a whole ``rofl solve`` process: SIGINT once its line-logic thread runs,
  until the process has exited (interpreter shutdown included);

and the cost of polling the stop flag on the puzzle corpus: the median of
``rofl.solve`` per puzzle (best of 5 runs each), in this checkout and, with
``--against``, in another one (e.g. main: ``git archive main | tar -x -C
/tmp/rofl-main``), the two measured in alternation 5 times, best median of
each.

``--write-docs`` writes the figures into section ``interrupt`` of
``docs/benchmarks.md``.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
# the shared corpus beside the main checkout, or beside a worktree's folder
DEFAULT_CORPUS = next(
    (p for p in (REPO.parent / "shared" / "corpus", REPO.parents[1] / "shared" / "corpus") if p.is_dir()),
    REPO.parent / "shared" / "corpus",
)

# median seconds of rofl.solve per corpus puzzle, best of 5 runs each
_CORPUS_MEDIAN = """
import statistics, sys, time
from pathlib import Path
import rofl
from rofl.formats import read_puzzle
puzzles = [read_puzzle(p)[0] for p in sorted(Path(sys.argv[1]).glob("*/*.json"))]
rofl.solve(puzzles[0])
best = []
for puzzle in puzzles:
    runs = []
    for _ in range(5):
        t = time.perf_counter()
        rofl.solve(puzzle)
        runs.append(time.perf_counter() - t)
    best.append(min(runs))
print(statistics.median(best), len(best))
"""


def corpus_median(checkout: Path, corpus: Path) -> tuple[float, int]:
    env = dict(os.environ, PYTHONPATH=str(checkout))
    out = subprocess.run([sys.executable, "-c", _CORPUS_MEDIAN, str(corpus)], env=env, capture_output=True, text=True)
    if out.returncode:
        sys.exit(f"{checkout}: {out.stderr.strip()}")
    median, count = out.stdout.split()
    return float(median), int(count)


def random_puzzle(n: int):
    import numpy as np

    from rofl.puzzle import Puzzle

    grid = (np.random.default_rng(1).random((n, n)) < 0.5).astype(np.uint8)
    return Puzzle.from_grid(grid)


def ctrl_c_latency(puzzle, after: float) -> float:
    """Seconds from SIGINT, sent ``after`` seconds into line logic, to KeyboardInterrupt."""
    from rofl.solver import solve

    sent = []

    def interrupt() -> None:
        sent.append(time.monotonic())
        os.kill(os.getpid(), signal.SIGINT)

    timer = threading.Timer(after, interrupt)
    timer.start()
    try:
        solve(puzzle)
    except KeyboardInterrupt:
        return time.monotonic() - sent[0]
    msg = "line logic ended before the signal"
    raise RuntimeError(msg)


def budget_overrun(puzzle, budget: float) -> float:
    from rofl.errors import BudgetError
    from rofl.solver import solve

    start = time.monotonic()
    try:
        solve(puzzle, budget=budget)
    except BudgetError:
        return time.monotonic() - start - budget
    msg = "line logic finished within the budget"
    raise RuntimeError(msg)


def process_latency(path: Path) -> tuple[float, int, str]:
    """SIGINT to a ``rofl solve`` process in line logic: seconds to its exit, its status, its last line."""
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.Popen(
        [sys.executable, "-m", "rofl", "solve", str(path), "--budget", "600"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    tasks = f"/proc/{proc.pid}/task"
    time.sleep(1.0)
    baseline = len(os.listdir(tasks))
    while len(os.listdir(tasks)) <= baseline:  # the line-logic thread has not started yet
        time.sleep(0.02)
    time.sleep(0.5)
    start = time.monotonic()
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate()
    return time.monotonic() - start, proc.returncode, err.strip().splitlines()[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--against", type=Path, help="another checkout to compare the corpus median with")
    parser.add_argument("--write-docs", action="store_true", help="write the figures into docs/benchmarks.md")
    args = parser.parse_args()
    sys.path.insert(0, str(REPO))
    from rofl.formats.rofl import write_bytes
    from rofl.solver import solve

    report = []
    solve(random_puzzle(40))  # load the compiled code outside the timings
    puzzle = random_puzzle(2048)
    latencies = [ctrl_c_latency(puzzle, after) for after in (0.5, 1.0, 1.5)]
    line = ", ".join(f"{t * 1e3:.1f}" for t in latencies)
    print(f"Ctrl-C in line logic on 2048x2048, SIGINT to KeyboardInterrupt: {line} ms")
    report.append(f"* Ctrl-C inside one pass of line logic, random 2048 × 2048 puzzle: {line} ms to KeyboardInterrupt")
    over = budget_overrun(puzzle, 1.0)
    print(f"solve(budget=1) on 2048x2048: returns {over * 1e3:.0f} ms after the budget")
    report.append(f"* `rofl.solve(puzzle, budget=1)` on that puzzle: BudgetError {over * 1e3:.0f} ms after the budget")
    if Path("/proc/self/task").exists():
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "random-2048.rofl"
            path.write_bytes(write_bytes(puzzle))
            wall, status, last = process_latency(path)
        print(f"rofl solve process, SIGINT in line logic to exit: {wall:.2f} s, status {status}, {last!r}")
        report.append(
            f"* a whole `rofl solve` process, SIGINT in line logic until it has exited: {wall:.2f} s "
            f"(status {status}, `{last}`)"
        )

    trees = [("this checkout", REPO)] + ([(str(args.against), args.against)] if args.against else [])
    best = {name: float("inf") for name, _ in trees}
    count = 0
    for _ in range(5):  # alternate, so that other jobs on the machine load both alike
        for name, checkout in trees:
            median, count = corpus_median(checkout, args.corpus)
            best[name] = min(best[name], median)
    for name, _ in trees:
        print(f"corpus median per puzzle ({count} puzzles), {name}: {best[name] * 1e3:.3f} ms")
    figures = ", ".join(f"{best[name] * 1e3:.3f} ms ({name})" for name, _ in trees)
    report.append(f"* `rofl.solve` median per corpus puzzle ({count} puzzles, best of 5 runs, best of 5 medians): ")
    report[-1] += figures

    if args.write_docs:
        from _docs import stamp, write_section

        write_section("interrupt", "\n".join([stamp(), "", *report]))


if __name__ == "__main__":
    main()
