"""How ``rofl.make`` scales with the number of cells (issue 30, goal 3).

Runs ``rofl.make`` warm on square crops of 100, 200 and 400 cells a side:
two photos (``samples/camera.jpg`` and ``samples/astronaut.jpg``, black and
white and 4 colours, ``--effort`` 1 as ``rofl make``) and a worst case,
uniform noise in black and white (``np.random.default_rng(0)``, ``effort=0``).
Prints per run the wall time of the whole ``make`` and its processor time
(``time.process_time`` of the worker: on a shared machine the figure that
load does not inflate), the cells changed and the candidate grids judged
(evaluations), checks that line logic solves the puzzle to exactly its
grid, and per case the exponent of the growth of the
processor time with the number of cells between consecutive sizes (time ~
cells^e).

Every run happens in a warm worker process; a run still going after its
time limit (``--budget``, ``--noise-budget`` for the noise cases at 400) is
stopped and reported as "> N s" (the worker is replaced).

Usage::

    python benchmarks/make_scale.py [--sizes 100,200,400] [--cases ...] [--budget 600]
                                    [--noise-budget 1800] [--write-docs]

``--write-docs`` writes the table into section ``make-scale`` of
``docs/benchmarks.md``.
"""

from __future__ import annotations

import argparse
import functools
import math
import sys
from pathlib import Path

print = functools.partial(print, flush=True)  # noqa: A001 - progress of a long run shows as it goes
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from make_photos import Worker, _seconds  # noqa: E402 - after the path set-up

# name: (picture, colours, effort)
CASES = {
    "camera-2": ("samples/camera.jpg", 2, 1.0),
    "camera-4": ("samples/camera.jpg", 4, 1.0),
    "astronaut-2": ("samples/astronaut.jpg", 2, 1.0),
    "astronaut-4": ("samples/astronaut.jpg", 4, 1.0),
    "noise-2": ("noise", 2, 0.0),
}


def _picture(name: str, n: int):
    if name == "noise":
        import numpy as np

        return np.random.default_rng(0).random((n, n, 3))
    return ROOT / name


def run_case(case: str, n: int) -> dict:
    """One ``make`` of ``case`` at ``n`` x ``n`` cells, in the calling (warm) process."""
    import time

    import rofl
    from rofl.solver import solve

    name, k, effort = CASES[case]
    pic = _picture(name, n)
    t0, c0 = time.perf_counter(), time.process_time()
    res = rofl.make(pic, width=n, height=n, mode="crop", colors=k, effort=effort)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    check = solve(res.puzzle)
    return {
        "ok": check.status == "solved" and bool((check.grid == res.grid).all()),
        "wall": wall,
        "cpu": cpu,
        "n_changed": res.stats.n_changed,
        "pct": res.stats.changed_pct,
        "evaluations": res.refinement.evaluations,
        "refine": res.stats.refine_seconds,
    }


def exponent(n0: int, t0: float, n1: int, t1: float) -> float:
    """``e`` in time ~ cells^e between two runs of ``n0`` and ``n1`` cells a side."""
    return math.log(t1 / t0) / math.log((n1 * n1) / (n0 * n0))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="100,200,400")
    parser.add_argument("--cases", default=",".join(CASES), help=f"comma-separated, of {', '.join(CASES)}")
    parser.add_argument("--budget", type=float, default=600.0, help="seconds per run before it is stopped")
    parser.add_argument("--noise-budget", type=float, default=1800.0, help="the same for noise at 400 cells")
    parser.add_argument("--write-docs", action="store_true", help="write the table into docs/benchmarks.md")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    cases = args.cases.split(",")
    worker = Worker(run_case)
    worker.run(("camera-2", 16), 600)  # start and warm the worker before timing anything
    print(
        f"{'case':>12} {'cells':>9} {'effort':>6} {'time s':>8} {'CPU s':>8} {'changed':>8} {'%':>6} "
        f"{'evaluations':>11} {'ok':>3}"
    )
    table = [
        "| picture | colours | effort | cells | time | CPU time | changed cells | evaluations | growth exponent |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    growth_lines = []
    for case in cases:
        name, k, effort = CASES[case]
        times: list[tuple[int, float | None]] = []
        for n in sizes:
            budget = args.noise_budget if name == "noise" and n >= 400 else args.budget
            r = worker.run((case, n), budget)
            if r is None:
                print(f"{case:>12} {f'{n}x{n}':>9} {effort:>6g} {f'> {budget:.0f}':>8}")
                times.append((n, None))
                row_time, row_cpu, changed, evaluations = f"> {budget:.0f} s", "", "", ""
            else:
                print(
                    f"{case:>12} {f'{n}x{n}':>9} {effort:>6g} {r['wall']:>8.2f} {r['cpu']:>8.2f} {r['n_changed']:>8} "
                    f"{r['pct']:>6.2f} {r['evaluations']:>11} {'yes' if r['ok'] else 'NO':>3}"
                )
                times.append((n, r["cpu"]))
                row_time = f"{_seconds(r['wall'])} s"
                row_cpu = f"{_seconds(r['cpu'])} s"
                changed = f"{r['n_changed']} ({r['pct']:.2f} %)"
                evaluations = str(r["evaluations"])
                if not r["ok"]:
                    changed += " NOT SOLVED"
            growth = ""
            if len(times) > 1 and times[-1][1] is not None and times[-2][1] is not None:
                growth = f"{exponent(times[-2][0], times[-2][1], n, times[-1][1]):.2f}"
            label = "noise" if name == "noise" else Path(name).stem
            cells = f"{label} | {k} | {effort:g} | {n}×{n}"
            table.append(f"| {cells} | {row_time} | {row_cpu} | {changed} | {evaluations} | {growth} |")
        steps = [
            f"{n0}→{n1}: {exponent(n0, t0, n1, t1):.2f}"
            for (n0, t0), (n1, t1) in zip(times, times[1:], strict=False)
            if t0 is not None and t1 is not None
        ]
        if steps:
            line = f"{case}: CPU time ~ cells^e, e = {', '.join(steps)}"
            print("  " + line)
            growth_lines.append(line)
    worker.close()
    if args.write_docs:
        from _docs import stamp, write_section

        growth = ["", "Growth of the processor time with the number of cells (CPU time ~ cells^e):", ""]
        growth += [f"* {line}" for line in growth_lines]
        write_section("make-scale", "\n".join([stamp(), "", *table, *(growth if growth_lines else [])]))


if __name__ == "__main__":
    main()
