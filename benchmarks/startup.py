"""Start-up of a ``rofl`` process: whole commands, and where the time of ``rofl solve`` goes.

    PYTHONPATH=. python benchmarks/startup.py [--runs 7] [--checkout DIR] [--write-docs]

Every command runs in its own process, as the ``rofl`` script runs it
(``rofl.__main__.run``), ``--runs`` times after one run that is not
counted; the figures are the median wall and CPU (user + system, the
operating system's account of the finished child) seconds.  The puzzles
are tiny, so what is measured is start-up: a 5x5 puzzle line logic solves
(``samples/hands-up.json`` written as ``.non``) and ``samples/two-ways.non``
(6x6, two solutions: the complete search).  ``rofl make`` of a small
picture is there for comparison.

Phases of ``rofl solve hands-up.non``: a process that does, in order, what
the command does, with a clock read between the steps --

interpreter
    from the start of the process to its first line (Python and ``site``);
numpy
    ``import numpy``;
click
    ``import click``;
rofl
    importing every other module the command loads (rofl's, and what they
    import of the standard library), listed by a run of the command first;
extension
    loading the kernels compiled at install (``rofl.kernels._aot``: the
    extension module and the check of its source digest);
the command
    ``rofl solve`` itself, with everything loaded: reading the file,
    solving, grading and printing;
exit
    what is left of the whole process (the interpreter's teardown).

The rows before the phases are the floors: an empty ``python`` and
``python -c 'import numpy'``.  Python's compiled modules (``.pyc``) are
written on the first, uncounted run, as an install has them; the row
"without .pyc" runs a copy of ``rofl/`` under ``PYTHONDONTWRITEBYTECODE=1``,
as a source checkout with that setting does (rofl's modules compiled at
every start).  ``--checkout`` times another checkout's ``rofl`` (its
``rofl/kernels/_aot_kernels*.so`` built) with this script.
``--write-docs`` writes the tables into ``docs/benchmarks.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _docs import stamp, write_section

ROOT = Path(__file__).resolve().parent.parent

# The ``rofl`` script: what ``pip install`` writes, without its own imports.
_ROFL = "import sys; sys.argv[0] = 'rofl'; from rofl.__main__ import run; run()"

# Lists the modules a command loaded, in order (for the phase "rofl").
_LIST = """\
import atexit, json, os, sys
atexit.register(lambda: open(os.environ["ROFL_BENCH_LIST"], "w").write(json.dumps(list(sys.modules))))
sys.argv[0] = "rofl"
from rofl.__main__ import run
run()
"""

# The phases of one command, each timed (see the module docstring).
_PHASES = """\
import time
cpu, wall = [time.process_time()], [time.time()]
def tick():
    cpu.append(time.process_time())
    wall.append(time.time())
import contextlib, importlib, json, os, sys
import numpy
tick()
import click
tick()
for name in json.loads(open(os.environ["ROFL_BENCH_LIST"]).read()):
    if name.startswith("rofl.kernels._aot"):
        continue  # the extension's phase
    with contextlib.suppress(ImportError):
        importlib.import_module(name)
tick()
from rofl.kernels import _aot
_aot._load()
tick()
sys.argv = ["rofl", *json.loads(os.environ["ROFL_BENCH_ARGS"])]
from rofl.__main__ import run
with contextlib.suppress(SystemExit):
    run()
tick()
with open(os.environ["ROFL_BENCH_OUT"], "w") as f:
    f.write(json.dumps({"cpu": cpu, "wall": wall, "status": _aot.status()[0]}))
"""

PHASES = ("interpreter", "numpy", "click", "rofl", "extension", "the command", "exit")


def _spawn(argv: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float, float]:
    """Start ``argv``; (start time, wall seconds, CPU seconds) of the whole process."""
    began = time.time()
    start = time.perf_counter()
    child = subprocess.Popen(argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = 0  # reaped above
    return began, wall, usage.ru_utime + usage.ru_stime


def whole(argv: list[str], env: dict[str, str], cwd: Path, runs: int) -> tuple[float, float]:
    """Median wall and CPU seconds of ``runs`` runs of ``argv`` (after one not counted)."""
    _spawn(argv, env, cwd)
    times = [_spawn(argv, env, cwd)[1:] for _ in range(runs)]
    return statistics.median(t[0] for t in times), statistics.median(t[1] for t in times)


def phases(args: list[str], env: dict[str, str], cwd: Path, runs: int) -> tuple[dict[str, tuple[float, float]], str]:
    """Median (wall, CPU) seconds of each phase of ``rofl ARGS``, and whether the extension was in use."""
    listing = cwd / "modules.json"
    out = cwd / "phases.json"
    env = {**env, "ROFL_BENCH_LIST": str(listing), "ROFL_BENCH_ARGS": json.dumps(args), "ROFL_BENCH_OUT": str(out)}
    subprocess.run([sys.executable, "-c", _LIST, *args], env=env, cwd=cwd, capture_output=True, check=False)
    samples: dict[str, list[tuple[float, float]]] = {p: [] for p in PHASES}
    status = ""
    for i in range(runs + 1):
        began, wall, cpu = _spawn([sys.executable, "-c", _PHASES], env, cwd)
        got = json.loads(out.read_text())
        status = got["status"]
        if i == 0:
            continue  # writes the .pyc files
        walls = [got["wall"][0] - began, *(b - a for a, b in zip(got["wall"], got["wall"][1:], strict=False))]
        cpus = [got["cpu"][0], *(b - a for a, b in zip(got["cpu"], got["cpu"][1:], strict=False))]
        walls.append(wall - sum(walls))
        cpus.append(cpu - sum(cpus))
        for name, w, c in zip(PHASES, walls, cpus, strict=True):
            samples[name].append((w, c))
    medians = {p: (statistics.median(s[0] for s in v), statistics.median(s[1] for s in v)) for p, v in samples.items()}
    return medians, status


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="counted runs of each command (median)")
    parser.add_argument("--checkout", type=Path, default=ROOT, help="the checkout whose rofl is timed")
    parser.add_argument("--write-docs", action="store_true", help="write the tables into docs/benchmarks.md")
    opts = parser.parse_args()
    checkout = opts.checkout.resolve()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(checkout)
    py = sys.executable
    samples = checkout / "samples"
    rows: list[tuple[str, float, float]] = []

    with tempfile.TemporaryDirectory(prefix="rofl-startup-") as name:
        tmp = Path(name)
        subprocess.run(
            [py, "-c", _ROFL, "convert", str(samples / "hands-up.json"), "hands-up.non"],
            env=env,
            cwd=tmp,
            capture_output=True,
            check=True,
        )
        shutil.copy(samples / "two-ways.non", tmp)
        shutil.copy(samples / "horse.png", tmp)

        def time_it(label: str, argv: list[str], run_env: dict[str, str] = env) -> None:
            wall, cpu = whole(argv, run_env, tmp, opts.runs)
            rows.append((label, wall, cpu))
            print(f"{label:48} {wall:6.3f} s wall {cpu:6.3f} s CPU", flush=True)

        time_it("python -c pass (floor)", [py, "-c", "pass"])
        time_it("python -c 'import numpy' (floor)", [py, "-c", "import numpy"])
        time_it("python -c 'import rofl'", [py, "-c", "import rofl"])
        time_it("rofl --version", [py, "-c", _ROFL, "--version"])
        time_it("rofl --help", [py, "-c", _ROFL, "--help"])
        time_it("rofl solve --help", [py, "-c", _ROFL, "solve", "--help"])
        time_it("rofl info hands-up.non (5x5)", [py, "-c", _ROFL, "info", "hands-up.non"])
        time_it("rofl solve hands-up.non (5x5, line logic)", [py, "-c", _ROFL, "solve", "hands-up.non"])
        time_it("rofl solve two-ways.non (6x6, search)", [py, "-c", _ROFL, "solve", "two-ways.non"])
        time_it("rofl make horse.png (27x20)", [py, "-c", _ROFL, "make", "horse.png", "-o", "horse.rofl", "-q"])
        source = tmp / "source"
        shutil.copytree(checkout / "rofl", source / "rofl", ignore=shutil.ignore_patterns("__pycache__"))
        no_pyc = {**env, "PYTHONPATH": str(source), "PYTHONDONTWRITEBYTECODE": "1"}
        time_it("rofl solve hands-up.non, without .pyc", [py, "-c", _ROFL, "solve", "hands-up.non"], no_pyc)

        split, status = phases(["solve", "hands-up.non"], env, tmp, opts.runs)
    print(f"\nphases of rofl solve hands-up.non (kernels compiled at install: {status}):")
    for label, (wall, cpu) in split.items():
        print(f"  {label:14} {wall * 1000:6.1f} ms wall {cpu * 1000:6.1f} ms CPU")
    total = [sum(v[i] for v in split.values()) for i in (0, 1)]
    print(f"  {'total':14} {total[0] * 1000:6.1f} ms wall {total[1] * 1000:6.1f} ms CPU")

    if opts.write_docs:
        markdown = "\n".join(
            [
                stamp(),
                "",
                f"Kernels compiled at install: {status}. Median of {opts.runs} runs.",
                "",
                "| command | wall | CPU |",
                "|---|---:|---:|",
                *(f"| {label} | {wall:.3f} s | {cpu:.3f} s |" for label, wall, cpu in rows),
                "",
                "| phase of `rofl solve hands-up.non` | wall | CPU |",
                "|---|---:|---:|",
                *(f"| {label} | {wall * 1000:.1f} ms | {cpu * 1000:.1f} ms |" for label, (wall, cpu) in split.items()),
                f"| total | {total[0] * 1000:.1f} ms | {total[1] * 1000:.1f} ms |",
            ]
        )
        write_section("startup", markdown)


if __name__ == "__main__":
    main()
