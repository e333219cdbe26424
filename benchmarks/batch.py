"""Batch throughput: pictures and puzzles per second with 1 and 2 workers (prints figures; not a test).

Usage::

    python benchmarks/batch.py [--copies 2] [--width 50] [--corpus DIR] [--dask] [--cold] [--write-docs]

Measures, on the samples' photos (each copied ``--copies`` times, so that
there are tasks enough for two workers) made at ``--width`` cells:

* a plain loop of :func:`rofl.make` in this process (the kernels loaded
  first), the floor a batch is compared with;
* :func:`rofl.make_many` with 1 worker (this process: the overhead per task
  over the plain loop is reading, hashing, the summary and the writes) and
  with 2 worker processes (their start -- the fork server loading the
  kernels, the workers forked -- measured apart, on a first batch of two
  tiny pictures), and the speed-up from 1 to 2 workers, with and without
  that start;
* with ``--dask``, the same on a 2-worker Dask ``LocalCluster`` (its start
  not counted, the workers' warm-up counted);
* :func:`rofl.solve_many` over one corpus folder with 1 and 2 workers;
* the resident memory of a process that makes them all (what a worker needs);
* with ``--cold``, what a cold worker costs: :func:`rofl.batch.tasks.warm_up`
  in a fresh interpreter with an empty numba cache (it compiles every
  kernel) and with the warm cache;
* from the measured cost per picture, what 100,000 photos at 50x50 would
  take on N workers.

``--write-docs`` writes the figures into section ``batch`` of
``docs/batch.md``.  The machine has 2 cores shared with other jobs: the
speed-up is the figure to read, the absolute times move with the load.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
PHOTOS = sorted([*ROOT.glob("samples/*.jpg"), ROOT / "samples" / "horse.png"])
CORPUS_FOLDER = "jwilk-nonogram"


def _pictures(folder: Path, copies: int) -> list[Path]:
    paths = []
    for n in range(copies):
        for photo in PHOTOS:
            path = folder / f"{photo.stem}-{n}{photo.suffix}"
            shutil.copy(photo, path)
            paths.append(path)
    return paths


def _timed(run) -> tuple[float, list]:
    start = time.perf_counter()
    rows = list(run())
    return time.perf_counter() - start, rows


def _cold_worker() -> tuple[float, float]:
    code = (
        "import time; t = time.perf_counter(); from rofl.batch.tasks import warm_up; warm_up(); "
        "print(time.perf_counter() - t)"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with tempfile.TemporaryDirectory() as cache:
        cold = subprocess.run(
            [sys.executable, "-c", code],
            env={**env, "NUMBA_CACHE_DIR": cache},
            capture_output=True,
            text=True,
            check=True,
        )
    warm = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return float(cold.stdout), float(warm.stdout)


def _cpu_pressure() -> str:
    """How busy the machine is: the share of the last minute some task waited for a CPU (Linux)."""
    try:
        text = Path("/proc/pressure/cpu").read_text()
    except OSError:
        return ""
    fields = dict(item.split("=") for item in text.split()[1:4])
    return f"tasks waited for a CPU {fields['avg60']}% of the last minute"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=6, help="copies of each sample photo (default 6)")
    parser.add_argument("--width", type=int, default=50, help="grid width of the puzzles (default 50)")
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--dask", action="store_true", help="also a 2-worker Dask LocalCluster")
    parser.add_argument("--cold", action="store_true", help="also a cold worker (compiles the kernels: minutes)")
    parser.add_argument("--write-docs", action="store_true", help="write the figures into docs/batch.md")
    args = parser.parse_args()
    corpus = args.corpus if args.corpus.is_dir() else Path("/work/shared/corpus")

    import rofl
    from rofl.batch import MakeOptions, make_many, solve_many
    from rofl.batch.tasks import warm_up

    warm_up()
    options = MakeOptions(width=args.width)
    report = []

    def line(text: str, markdown: str | None = None) -> None:
        print(text, flush=True)
        if markdown is not None:
            report.append(markdown)

    with tempfile.TemporaryDirectory() as tmp:
        pictures = _pictures(Path(tmp), args.copies)
        n = len(pictures)
        line(f"{n} pictures ({len(PHOTOS)} sample photos x {args.copies}) at {args.width} cells wide")
        pressure = _cpu_pressure()
        if pressure:
            line(
                f"CPU pressure before the run: {pressure}",
                f"CPU pressure before the run (`/proc/pressure/cpu`): {pressure}\n",
            )
        start = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for path in pictures:
                rofl.make(path, width=args.width)
        loop = time.perf_counter() - start
        one, rows = _timed(lambda: make_many(pictures, Path(tmp) / "one", options, jobs=1))
        # the start of 2 workers (spawn, imports, kernels loaded): a batch of two pictures of 3x3 cells
        tiny = MakeOptions(width=3)
        start_up, _ = _timed(lambda: make_many(pictures[:2], Path(tmp) / "start", tiny, jobs=2))
        two, _ = _timed(lambda: make_many(pictures, Path(tmp) / "two", options, jobs=2))
        # what a worker needs: this process after making them all (forked workers are not its children)
        memory = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        per_picture = sorted(r["seconds"] for r in rows)[n // 2]
        report += ["| run | pictures/s | wall |", "|---|---|---|"]
        for name, seconds in (
            ("plain loop of rofl.make", loop),
            ("make_many, 1 worker", one),
            ("make_many, 2 workers", two),
        ):
            line(
                f"  {name:28s} {n / seconds:6.2f} pictures/s  ({seconds:.1f} s)",
                f"| {name} | {n / seconds:.2f} | {seconds:.1f} s |",
            )
        if args.dask:
            from distributed import LocalCluster

            with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster:
                on_dask, _ = _timed(
                    lambda: make_many(pictures, Path(tmp) / "dask", options, scheduler=cluster.scheduler_address)
                )
            line(
                f"  {'Dask LocalCluster, 2 workers':28s} {n / on_dask:6.2f} pictures/s  ({on_dask:.1f} s)",
                f"| Dask LocalCluster, 2 workers | {n / on_dask:.2f} | {on_dask:.1f} s |",
            )
        report.append("")
        line(
            f"speed-up 1 -> 2 workers: {one / two:.2f}x once they are started; {one / (two + start_up):.2f}x "
            f"with their start ({start_up:.1f} s)",
            f"* speed-up from 1 to 2 local workers: **{one / two:.2f}x** once they are started, "
            f"{one / (two + start_up):.2f}x with their start (the fork server loading the kernels and two workers "
            f"forked: {start_up:.1f} s, once per `rofl` process)",
        )
        overhead = (one - loop) / n
        line(
            f"overhead per task over the plain loop: {overhead * 1e3:.0f} ms",
            f"* overhead per task over the plain loop (1 worker): {overhead * 1e3:.0f} ms",
        )
        line(
            f"resident memory of a process making them: {memory:.0f} MB",
            f"* resident memory of a process making these puzzles (a worker's need): {memory:.0f} MB",
        )

        folder = corpus / CORPUS_FOLDER
        if folder.is_dir():
            files = sorted(folder.glob("*.json"))
            s1, _ = _timed(lambda: solve_many(files, jobs=1))
            s2, _ = _timed(lambda: solve_many(files, jobs=2))
            line(
                f"solve_many over {len(files)} {CORPUS_FOLDER} puzzles: {len(files) / s1:.0f} puzzles/s with 1 worker, "
                f"{len(files) / s2:.0f} with 2 ({s1 / s2:.2f}x)",
                f"* `solve_many` over the {len(files)} `{CORPUS_FOLDER}` corpus puzzles: "
                f"{len(files) / s1:.0f} puzzles/s with 1 worker, {len(files) / s2:.0f} with 2 ({s1 / s2:.2f}x; "
                "most solve in a millisecond, so the workers' start-up weighs)",
            )
        if args.cold:
            cold, warm = _cold_worker()
            line(
                f"a worker's warm-up: {cold:.1f} s with an empty numba cache (compiling), {warm:.1f} s with the cache",
                f"* a worker's warm-up (`warm_up`): {cold:.0f} s with an empty numba cache (it compiles every kernel), "
                f"{warm:.1f} s with the cache",
            )
        for workers in (2, 16, 64):
            hours = 100_000 * per_picture / workers / 3600
            line(
                f"100,000 photos at this size on {workers} workers: {hours:.1f} h",
                f"* 100,000 photos at {args.width} cells on {workers} workers: about {hours:.1f} h "
                f"({per_picture:.2f} s per picture, median), {memory:.0f} MB per worker",
            )

    if args.write_docs:
        sys.path.insert(0, str(ROOT / "benchmarks"))
        from _docs import stamp, write_section

        write_section("batch", "\n".join([stamp(), "", *report]), path=ROOT / "docs" / "batch.md")


if __name__ == "__main__":
    main()
