"""Quality and speed of ``rofl.make`` on photos.

Runs every sample picture (``samples/*.jpg|png``) and scikit-image's bundled
photos at 30x30, 50x50 and 100x100 cells (``mode="crop"``), black and white
and 4 colours, and prints per configuration: success rate (the puzzle
line-solves to exactly the final grid; a run still going after ``--budget``
seconds counts as failed, a guard against hangs, not a time target), cells
changed by refinement (% of all cells: median, mean, worst), mean ΔE2000 of
the final grid against the area-averaged picture, clue numbers and the share
of 1s, and warm wall time of the whole ``make`` (loading, scaling,
quantising, refining) and of the refinement.

Every run happens in a warm worker process; a run longer than ``--budget``
seconds is stopped and counted as a failure (the worker is replaced).

Usage::

    python benchmarks/make_photos.py [--sizes 30,50,100] [--colors 2,4] [--budget 600] [--effort 1] [-v]
                                     [--write-docs]

``--write-docs`` also writes the table into section ``make-photos-effort-E``
of ``docs/benchmarks.md``.

Targets (issue 4): 100% success; changed <= 0.3% at 30-50 cells, <= 0.5% at
100; warm time <= 0.1 s at 30x30, <= 0.5 s at 50x50, <= 3 s at 100x100.
"""

from __future__ import annotations

import argparse
import functools
import multiprocessing as mp
import statistics
import sys
from pathlib import Path

print = functools.partial(print, flush=True)  # noqa: A001 - progress of a long run shows as it goes
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

SKIMAGE_PHOTOS = ("astronaut", "camera", "chelsea", "coffee", "rocket", "hubble_deep_field")
TARGET_CHANGED = {30: 0.3, 50: 0.3, 100: 0.5}
TARGET_SECONDS = {30: 0.1, 50: 0.5, 100: 3.0}


def picture_names(photos: tuple[str, ...] = SKIMAGE_PHOTOS) -> list[str]:
    """The sample pictures and the scikit-image ``photos``, as :func:`_load` takes them."""
    names = [f"samples/{p.name}" for p in sorted((ROOT / "samples").iterdir()) if p.suffix in (".jpg", ".png")]
    return names + [f"skimage.{name}" for name in photos]


def _load(name: str):
    if name.startswith("skimage."):
        import skimage.data

        return getattr(skimage.data, name.split(".", 1)[1])()
    return ROOT / name


def _warm() -> None:
    sys.path.insert(0, str(ROOT))
    import numpy as np

    import rofl

    rng = np.random.default_rng(0)
    for k in (2, 4):  # compile (or load) the solver kernels: timings are warm
        rofl.make(rng.random((24, 24, 3)), colors=k)


def _run(name: str, n: int, k: int, effort: float = 1.0) -> dict:
    import time

    import rofl
    from rofl.solver import solve

    pic = _load(name)
    t0 = time.perf_counter()
    res = rofl.make(pic, width=n, height=n, mode="crop", colors=k, effort=effort)
    wall = time.perf_counter() - t0
    check = solve(res.puzzle)
    s = res.stats
    return {
        "ok": check.status == "solved" and bool((check.grid == res.grid).all()),
        "wall": wall,
        "pct": s.changed_pct,
        "n_changed": s.n_changed,
        "de": s.mean_delta_e,
        "clues": s.clues,
        "ones": s.ones_share,
        "sweeps": s.sweeps,
        "refine": s.refine_seconds,
        "rounds": s.iterations,
        "polish": s.polish_rounds,
        "moved": s.relocated,
        "fallback": getattr(res.refinement, "fallback_lines", 0),
    }


def _serve(conn, job) -> None:
    """The worker process: warm up, then run ``job(*args)`` for the ``args``
    from ``conn`` until it closes."""
    _warm()
    conn.send("ready")
    while True:
        try:
            args = conn.recv()
        except EOFError:
            return
        conn.send(job(*args))


class Worker:
    """One warm process running ``job`` (a module-level function, :func:`_run`
    by default); killed and replaced when a run goes over the budget."""

    def __init__(self, job=_run) -> None:
        self.job = job
        self.process = None
        self.conn = None

    def run(self, args: tuple, budget: float) -> dict | None:
        if self.process is None:
            ctx = mp.get_context("spawn")
            self.conn, child = ctx.Pipe()
            self.process = ctx.Process(target=_serve, args=(child, self.job), daemon=True)
            self.process.start()
            child.close()
            self.conn.recv()  # waits for the warm-up: warming up is not part of any budget
        self.conn.send(args)
        if self.conn.poll(budget):
            return self.conn.recv()
        self.close()
        return None

    def close(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.join()
            self.conn.close()
            self.process = self.conn = None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="30,50,100")
    parser.add_argument("--colors", default="2,4")
    parser.add_argument(
        "--budget", type=float, default=600.0, help="seconds per run before it counts as failed (a hang guard)"
    )
    parser.add_argument("--effort", type=float, default=1.0, help="rofl make's --effort (default 1, as rofl make)")
    parser.add_argument("-v", "--verbose", action="store_true", help="one line per picture")
    parser.add_argument("--write-docs", action="store_true", help="write the table into docs/benchmarks.md")
    args = parser.parse_args()
    print(f"effort {args.effort:g}")
    sizes = [int(s) for s in args.sizes.split(",")]
    palettes = [int(c) for c in args.colors.split(",")]
    names = picture_names()
    worker = Worker()
    worker.run((names[0], 8, 2), 600)  # start and warm the worker before timing anything

    header = (
        f"{'size':>7} {'colours':>7} {'runs':>4} {'success':>7} {'changed% median':>15} {'mean':>6} {'max':>6} "
        f"{'cells max':>9} {'ΔE2000':>7} {'clues':>6} {'1s':>4} {'time s median':>13} {'mean':>6} {'max':>6} "
        f"{'refine s':>8}"
    )
    print(header)
    print("-" * len(header))
    misses = []
    table = [
        "| cells | colours | success | changed: median / mean / worst | ΔE2000 | time: median / worst |",
        "|---|---|---|---|---|---|",
    ]
    for n in sizes:
        for k in palettes:
            rows, failed = [], []
            for name in names:
                r = worker.run((name, n, k, args.effort), args.budget)
                if r is None or not r["ok"]:
                    failed.append(name)
                    if args.verbose:
                        why = f"over the {args.budget:g} s budget" if r is None else "not solved to its grid"
                        print(f"    {name:28} {n}x{n} c={k} FAILED: {why}")
                    continue
                rows.append((name, r))
                if args.verbose:
                    print(
                        f"    {name:28} {n}x{n} c={k} changed={r['n_changed']} ({r['pct']:.2f}%) ΔE={r['de']:.2f} "
                        f"clues={r['clues']} sweeps={r['sweeps']} {r['wall']:.3f}s (refine {r['refine']:.3f}s, "
                        f"{r['rounds']} rounds, {r['polish']} repair attempts, {r['moved']} changes moved, "
                        f"{r['fallback']} fallback lines)"
                    )
            total = len(rows) + len(failed)
            success = len(rows) / total
            if rows:
                pct = [r["pct"] for _, r in rows]
                times = [r["wall"] for _, r in rows]
                print(
                    f"{f'{n}x{n}':>7} {k:>7} {total:>4} {success:>7.0%} {statistics.median(pct):>15.3f} "
                    f"{statistics.mean(pct):>6.2f} {max(pct):>6.2f} {max(r['n_changed'] for _, r in rows):>9} "
                    f"{statistics.mean(r['de'] for _, r in rows):>7.2f} "
                    f"{statistics.mean(r['clues'] for _, r in rows):>6.0f} "
                    f"{statistics.mean(r['ones'] for _, r in rows):>4.0%} "
                    f"{statistics.median(times):>13.3f} {statistics.mean(times):>6.2f} {max(times):>6.2f} "
                    f"{statistics.mean(r['refine'] for _, r in rows):>8.3f}"
                )
                table.append(
                    f"| {n}×{n} | {k} | {success:.0%} | {statistics.median(pct):.2f} / {statistics.mean(pct):.2f} / "
                    f"{max(pct):.1f} % | {statistics.mean(r['de'] for _, r in rows):.1f} | "
                    f"{_seconds(statistics.median(times))} / {_seconds(max(times))} s |"
                )
            else:
                print(f"{f'{n}x{n}':>7} {k:>7} {total:>4} {success:>7.0%}")
                table.append(f"| {n}×{n} | {k} | {success:.0%} | | | |")
            if failed:
                misses.append(f"{n}x{n} c={k}: success {success:.0%} (failed: {', '.join(failed)})")
            limit = TARGET_CHANGED.get(n, 0.5)
            over = [(name, r) for name, r in rows if r["pct"] > limit]
            if over:
                worst = ", ".join(f"{name} {r['pct']:.2f}%" for name, r in over)
                misses.append(f"{n}x{n} c={k}: {len(over)}/{total} pictures change more than {limit}% ({worst})")
            limit = TARGET_SECONDS.get(n, 3.0)
            slow = [r["wall"] for _, r in rows if r["wall"] > limit]
            if slow:
                misses.append(
                    f"{n}x{n} c={k}: {len(slow)}/{total} pictures slower than {limit} s (worst {max(slow):.2f} s)"
                )
    worker.close()
    print()
    print("targets missed:" if misses else "all targets met")
    for m in misses:
        print("  " + m)
    if args.write_docs:
        from _docs import stamp, write_section

        write_section(f"make-photos-effort-{args.effort:g}", "\n".join([stamp(), "", *table]))


def _seconds(seconds: float) -> str:
    """Two significant digits, as the docs print times: 0.086, 0.75, 2.3, 19."""
    return f"{seconds:.2g}" if seconds < 10 else f"{seconds:.0f}"


if __name__ == "__main__":
    main()
