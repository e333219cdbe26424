"""Large pictures made in one thread and in several: the wall time threads save (prints figures; not a test).

Usage::

    python benchmarks/threads.py [--cases astronaut-2,camera-2] [--threads 2] [--write-docs]

Each case of ``benchmarks/make_large.py`` (issue 45's large pictures) is
made by ``rofl.make`` in a fresh process, first with ``threads=1``, then
with ``--threads`` (by default the processors this process may use, at
most 4), one after the other, so run it on a quiet machine.  A refinement in
several threads splits large batches of move estimates between them, and
judges the next grid in another thread while one is judged (the large-grid
path); the puzzle must be the same.

Printed per case and thread count: the wall time and the processor time
(all threads) of the whole ``make``, and of its greedy and revert passes,
the judged grids and the cells changed; then whether the two puzzles are the
same, cell for cell.  ``--write-docs`` writes the table into section
``threads`` of ``docs/benchmarks.md``.
"""

from __future__ import annotations

import argparse
import functools
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

PASSES = ("greedy", "revert")


def run_case(case: str, threads: int) -> dict:
    """One ``make`` of ``case`` in this process: wall and processor seconds, whole and per pass, and its grid."""
    import numpy as np
    from make_large import CASES

    import rofl
    from rofl.refine import passes

    name, n, k, effort, shape = CASES[case]
    spent = {label: [0.0, 0.0] for label in PASSES}

    def timed(method, label):
        @functools.wraps(method)
        def wrapper(*args, **kwargs):
            w0, c0 = time.perf_counter(), time.process_time()
            try:
                return method(*args, **kwargs)
            finally:
                spent[label][0] += time.perf_counter() - w0
                spent[label][1] += time.process_time() - c0

        return wrapper

    for label in PASSES:
        setattr(passes._Run, label, timed(getattr(passes._Run, label), label))
    picture = np.random.default_rng(0).random((n, n, 3)) if name == "noise" else ROOT / name
    size = {"size": n} if shape == "hex" else {"width": n, "height": n, "mode": "crop"}
    rofl.kernels.ready(rofl.kernels.LINE, rofl.kernels.REFINE, rofl.kernels.REPAIR)  # not on the clock
    w0, c0 = time.perf_counter(), time.process_time()
    res = rofl.make(picture, colors=k, effort=effort, shape=shape, threads=threads, **size)
    return {
        "wall": time.perf_counter() - w0,
        "cpu": time.process_time() - c0,
        "passes": spent,
        "evaluations": getattr(res.refinement, "evaluations", None),
        "n_changed": res.stats.n_changed,
        "grid": np.asarray(res.grid).tolist(),
    }


def main() -> None:
    from rofl.refine.refinement import default_threads

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", default="astronaut-2,camera-2")
    parser.add_argument("--threads", type=int, default=default_threads())
    parser.add_argument("--write-docs", action="store_true", help="write the table into docs/benchmarks.md")
    parser.add_argument("--one", nargs=2, help=argparse.SUPPRESS)  # internal: CASE THREADS, print JSON
    args = parser.parse_args()
    if args.one:
        print(json.dumps(run_case(args.one[0], int(args.one[1]))))
        return
    print(f"{'case':>12} {'threads':>7} {'wall s':>7} {'CPU s':>7} {'greedy wall/CPU':>16} {'revert wall/CPU':>16}")
    table = [
        "| case | threads | wall | CPU | greedy: wall, CPU | revert: wall, CPU | judged grids | changed cells |",
        "|---|---|---|---|---|---|---|---|",
    ]
    same = []
    for case in args.cases.split(","):
        grids = []
        for threads in (1, args.threads):
            cmd = [sys.executable, __file__, "--one", case, str(threads)]
            done = subprocess.run(cmd, capture_output=True, text=True, check=True)
            r = json.loads(done.stdout.strip().splitlines()[-1])
            grids.append(r["grid"])
            g, v = r["passes"]["greedy"], r["passes"]["revert"]
            print(
                f"{case:>12} {threads:>7} {r['wall']:>7.1f} {r['cpu']:>7.1f} {g[0]:>7.1f}/{g[1]:<8.1f}"
                f" {v[0]:>7.1f}/{v[1]:<8.1f} {r['evaluations']} judged, {r['n_changed']} changed",
                flush=True,
            )
            table.append(
                f"| {case} | {threads} | {r['wall']:.1f} s | {r['cpu']:.1f} s | {g[0]:.1f} s, {g[1]:.1f} s"
                f" | {v[0]:.1f} s, {v[1]:.1f} s | {r['evaluations']} | {r['n_changed']} |"
            )
        same.append(f"{case}: {'the same puzzle' if grids[0] == grids[1] else 'DIFFERENT puzzles'}")
        print(f"{'':>12} {same[-1]}")
    if args.write_docs:
        from _docs import write_report

        write_report("threads", [*table, "", "; ".join(same) + "."])


if __name__ == "__main__":
    main()
