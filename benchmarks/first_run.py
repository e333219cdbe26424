"""First run and everyday speed of the ``rofl`` commands: a fresh numba cache, then a warm one.

    PYTHONPATH=. python benchmarks/first_run.py [--repeat 3] [--skip-fresh] [--jit] [--write-docs]

Every command runs in its own process, as a user runs it, with
``NUMBA_CACHE_DIR`` pointing at a new temporary folder: the script never
reads or clears any other cache (the one next to rofl's modules, or a
user's ``NUMBA_CACHE_DIR``), and removes its own folder at the end.

Fresh: in the empty cache, in this order, each command compiles what it
needs and the ones before it did not -- ``info`` (line logic), ``make``
(refinement), ``solve`` of a puzzle with two solutions (the complete
search).  Warm: every command again, ``--repeat`` times, the median wall
and CPU (user + system) time.  The last column says whether the command
imported numba at all.  ``--write-docs`` also writes the table into
``docs/benchmarks.md``.

Line logic, refinement and the complete search run from the extension
compiled at install (:mod:`rofl.kernels._aot`) when this Python finds it
(installed, or built into the source tree by ``python setup.py build_ext
--inplace``): then no command compiles anything, and only a puzzle that
needs search imports numba.  ``--jit`` ignores it (``ROFL_NO_AOT=1``), as
an install without a C compiler would, and writes its own section.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _docs import stamp, write_section

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"

# Runs the CLI and, on the way out, writes to $ROFL_BENCH_MODULES whether numba was loaded.
_RUNNER = """\
import atexit, os, sys
def _note():
    with open(os.environ["ROFL_BENCH_MODULES"], "w") as f:
        f.write("yes" if "numba" in sys.modules else "no")
atexit.register(_note)
sys.argv[0] = "rofl"
from rofl.cli import main
main()
"""


def commands(tmp: Path) -> list[tuple[str, list[str]]]:
    """(label, arguments) of every command timed warm; outputs go to ``tmp``."""
    coffee = str(SAMPLES / "coffee.rofl")
    return [
        ("python -c 'import numba' (floor)", ["-c", "import numba"]),
        ("python -c 'import rofl'", ["-c", "import rofl"]),
        ("rofl --help", ["rofl", "--help"]),
        ("info --no-solve coffee.rofl", ["rofl", "info", "--no-solve", coffee]),
        ("info coffee.rofl (45x30)", ["rofl", "info", coffee]),
        ("solve coffee.rofl", ["rofl", "solve", coffee]),
        ("solve camera.rofl (28x35)", ["rofl", "solve", str(SAMPLES / "camera.rofl")]),
        ("decode coffee.rofl", ["rofl", "decode", coffee, "-o", str(tmp / "decoded.png")]),
        ("sheet coffee.rofl", ["rofl", "sheet", coffee, "-o", str(tmp / "sheet.png")]),
        ("sheet two-ways.non", ["rofl", "sheet", str(SAMPLES / "two-ways.non"), "-o", str(tmp / "sheet.svg")]),
        ("page coffee.rofl", ["rofl", "page", coffee, "-o", str(tmp / "page.html")]),
        ("page two-ways.non", ["rofl", "page", str(SAMPLES / "two-ways.non"), "-o", str(tmp / "page2.html")]),
        ("convert two-ways.non to .nin", ["rofl", "convert", str(SAMPLES / "two-ways.non"), str(tmp / "c.nin")]),
        ("convert coffee.rofl to .json", ["rofl", "convert", coffee, str(tmp / "c.json")]),
        ("solve two-ways.non (search)", ["rofl", "solve", str(SAMPLES / "two-ways.non")]),
        ("make coffee.jpg", ["rofl", "make", str(SAMPLES / "coffee.jpg"), "-o", str(tmp / "made.rofl"), "-q"]),
    ]


FRESH = [
    "info coffee.rofl (45x30)",
    "make coffee.jpg",
    "solve two-ways.non (search)",
]


def run(args: list[str], env: dict[str, str], tmp: Path) -> tuple[float, float, bool]:
    """Wall seconds, CPU seconds (user + system) and whether numba was imported."""
    for path in tmp.glob("*"):
        if path.is_file() and path.name != "runner.py":
            path.unlink()  # commands refuse to overwrite
    flag = tmp / "modules.txt"
    env = {**env, "ROFL_BENCH_MODULES": str(flag)}
    argv = [sys.executable, str(tmp / "runner.py"), *args[1:]] if args[0] == "rofl" else [sys.executable, *args]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if args[0] == "rofl":
        numba = flag.read_text() == "yes"
    else:
        numba = "numba" in args[-1]
    return wall, cpu, numba


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="warm runs of each command (median)")
    parser.add_argument("--skip-fresh", action="store_true", help="only the warm figures (compiles unreported)")
    parser.add_argument("--jit", action="store_true", help="ignore the kernels compiled at install (ROFL_NO_AOT=1)")
    parser.add_argument("--write-docs", action="store_true", help="write the table into docs/benchmarks.md")
    opts = parser.parse_args()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if opts.jit:
        env["ROFL_NO_AOT"] = "1"
    aot = subprocess.run(
        [sys.executable, "-c", "from rofl.kernels._aot import status; print(status()[0])"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    print(f"kernels compiled at install: {aot}")

    cache = Path(tempfile.mkdtemp(prefix="rofl-bench-numba-"))
    tmp = Path(tempfile.mkdtemp(prefix="rofl-bench-out-"))
    try:
        (tmp / "runner.py").write_text(_RUNNER, encoding="utf-8")
        env = {**env, "NUMBA_CACHE_DIR": str(cache)}
        table = dict(commands(tmp))
        fresh: dict[str, tuple[float, float]] = {}
        for label in FRESH:
            wall, cpu, _ = run(table[label], env, tmp)
            fresh[label] = (wall, cpu)
            print(f"fresh  {label:36} {wall:6.2f} s wall {cpu:6.2f} s CPU", flush=True)
        if opts.skip_fresh:
            fresh = {}
        rows = []
        for label, args in table.items():
            if label not in FRESH:
                run(args, env, tmp)  # fills the cache for what was not compiled above
            runs = [run(args, env, tmp) for _ in range(opts.repeat)]
            wall = statistics.median(r[0] for r in runs)
            cpu = statistics.median(r[1] for r in runs)
            numba = runs[-1][2]
            first = fresh.get(label)
            first_text = f"{first[0]:.1f} s ({first[1]:.1f} s CPU)" if first else ""
            imports = "yes" if numba else "no"
            print(f"warm   {label:36} {wall:6.2f} s wall {cpu:6.2f} s CPU  numba: {imports}", flush=True)
            rows.append(f"| {label} | {first_text} | {wall:.2f} s | {cpu:.2f} s | {imports} |")
        cached = sum(f.stat().st_size for f in cache.rglob("*") if f.is_file())
        print(f"compiled code in the cache: {cached / 2**20:.1f} MiB")
    finally:
        shutil.rmtree(cache, ignore_errors=True)
        shutil.rmtree(tmp, ignore_errors=True)

    if opts.write_docs:
        markdown = "\n".join(
            [
                stamp(),
                "",
                f"Kernels compiled at install: {aot}.",
                "",
                "| command | first run, fresh cache | warm, wall | warm, CPU | imports numba |",
                "|---|---:|---:|---:|---|",
                *rows,
                "",
                f"Compiled code in the cache after these commands: {cached / 2**20:.1f} MiB.",
            ]
        )
        write_section("first-run-jit" if opts.jit else "first-run", markdown)


if __name__ == "__main__":
    main()
