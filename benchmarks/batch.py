"""Batch throughput: pictures and puzzles per second with 1 and 2 workers (prints figures; not a test).

Usage::

    python benchmarks/batch.py [--copies 2] [--width 50] [--corpus DIR] [--dask] [--cold] [--write-docs]

Measures, on the samples' photos (each copied ``--copies`` times, so that
there are tasks enough for two workers) made at ``--width`` cells, each
batch timed :data:`REPEAT` times and the fastest run kept:

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
* :func:`rofl.solve_many` with 1 and 2 workers over the corpus puzzles
  that solve in milliseconds (every folder but the TAAI tournament's and
  webpbn's hard survey), copied twice ``--copies`` times: the chunks that hand
  them out tens at a time are what makes two workers pay here;
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
#: Corpus folders whose puzzles take seconds (search, budgets): left out of
#: the throughput figure, which would then time the budget, not the batch.
HARD_FOLDERS = {"taai-tournament", "webpbn-survey"}


def _pictures(folder: Path, copies: int) -> list[Path]:
    paths = []
    for n in range(copies):
        for photo in PHOTOS:
            path = folder / f"{photo.stem}-{n}{photo.suffix}"
            shutil.copy(photo, path)
            paths.append(path)
    return paths


#: Runs of each timed batch; the fastest counts (the machine is shared, and
#: other jobs only ever add time).
REPEAT = 3


def _timed(run, repeat: int = 1) -> tuple[float, list]:
    best, rows = float("inf"), []
    for _ in range(repeat):
        start = time.perf_counter()
        rows = list(run())
        best = min(best, time.perf_counter() - start)
    return best, rows


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

        def plain_loop():
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                for path in pictures:
                    yield rofl.make(path, width=args.width)

        loop, _ = _timed(plain_loop, REPEAT)
        # (force: the same folder each run, and an up-to-date puzzle would be skipped)
        one, rows = _timed(lambda: make_many(pictures, Path(tmp) / "one", options, jobs=1, force=True), REPEAT)
        # the start of 2 workers (spawn, imports, kernels loaded): a batch of two pictures of 3x3 cells
        tiny = MakeOptions(width=3)
        from rofl.batch import run as batch_run

        small, batch_run.SMALL_BATCH_SECONDS = batch_run.SMALL_BATCH_SECONDS, 0.0  # this tiny batch to workers
        start_up, _ = _timed(lambda: make_many(pictures[:2], Path(tmp) / "start", tiny, jobs=2))
        batch_run.SMALL_BATCH_SECONDS = small
        two, _ = _timed(lambda: make_many(pictures, Path(tmp) / "two", options, jobs=2, force=True), REPEAT)
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

            with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=":0") as cluster:
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

        sources = sorted(
            p for d in corpus.iterdir() if d.is_dir() and d.name not in HARD_FOLDERS for p in d.iterdir() if p.is_file()
        )
        if sources:
            puzzles = Path(tmp) / "puzzles"
            puzzles.mkdir()
            files = []
            for copy in range(2 * args.copies):
                for k, source in enumerate(sources):
                    files.append(puzzles / f"{copy}-{k}-{source.name}")
                    shutil.copy(source, files[-1])
            s1, _ = _timed(lambda: solve_many(files, jobs=1), REPEAT)
            s2, _ = _timed(lambda: solve_many(files, jobs=2), REPEAT)
            line(
                f"solve_many over {len(files)} corpus puzzles ({len(sources)} x {2 * args.copies}): "
                f"{len(files) / s1:.0f} puzzles/s with 1 worker, {len(files) / s2:.0f} with 2 ({s1 / s2:.2f}x)",
                f"* `solve_many` over {len(files)} corpus puzzles ({len(sources)} of the quick folders, each "
                f"copied {2 * args.copies} times): {len(files) / s1:.0f} puzzles/s with 1 worker, "
                f"{len(files) / s2:.0f} with 2 (**{s1 / s2:.2f}x**, the workers' start included)",
            )
        if args.cold:
            cold, warm = _cold_worker()
            line(
                f"a worker's warm-up: {cold:.1f} s with an empty numba cache (compiling), {warm:.1f} s with the cache",
                f"* a worker's warm-up (`warm_up`): {cold:.0f} s with an empty numba cache (it compiles every kernel), "
                f"{warm:.1f} s with the cache",
            )
        # the whole command, as a user runs it: start-up, imports and the workers' start included
        folder = Path(tmp) / "pictures"
        folder.mkdir()
        for path in pictures:
            shutil.copy(path, folder / path.name)
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        command = {}
        for jobs in (1, 2):
            out = Path(tmp) / f"command-{jobs}"
            argv = [sys.executable, "-m", "rofl", "make", str(folder), "-o", f"{out}/", "-w", str(args.width)]
            argv += ["-j", str(jobs), "-q", "--force"]
            command[jobs], _ = _timed(lambda argv=argv: [subprocess.run(argv, env=env, check=True)], REPEAT)
        line(
            f"`rofl make` of the {n} pictures as a whole command: {command[1]:.1f} s with -j 1, "
            f"{command[2]:.1f} s with -j 2 ({command[1] / command[2]:.2f}x)",
            f"* `rofl make FOLDER -o OUT/` of the {n} pictures as a whole command (start-up, imports and the "
            f"workers' start included): {command[1]:.1f} s with `-j 1`, {command[2]:.1f} s with `-j 2` "
            f"({command[1] / command[2]:.2f}x)",
        )
        for workers in (2, 16, 64):
            hours = 100_000 * per_picture / workers / 3600
            took = f"{hours:.1f} h" if hours >= 1 else f"{hours * 60:.0f} min"
            line(
                f"100,000 photos at this size on {workers} workers: {took}",
                f"* 100,000 photos at {args.width} cells on {workers} workers: about {took} "
                f"({per_picture:.2f} s per picture, median), {memory:.0f} MB per worker",
            )

    if args.write_docs:
        sys.path.insert(0, str(ROOT / "benchmarks"))
        from _docs import stamp, write_section

        write_section("batch", "\n".join([stamp(), "", *report]), path=ROOT / "docs" / "batch.md")


if __name__ == "__main__":
    main()
