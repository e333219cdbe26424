"""What a ``rofl`` command costs in a child process, in one checkout or two
side by side: its exit status (or what it answered), CPU seconds and peak
resident memory (``resource.getrusage`` of the child).  The hostile-input
benchmarks (``hostile_inputs.py``, ``bounded_io.py``) print and write their
tables with it.  And :class:`Worker`: a benchmark's own worker process on one
checkout's rofl, which the A/B benchmarks (``no_slower.py``,
``search_ab.py``) ask puzzle by puzzle, taking turns.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from _docs import stamp, write_section

REPO = Path(__file__).resolve().parent.parent

_SCRIPT = (
    "import resource, subprocess, sys\n"
    "argv = sys.argv[1:] if sys.argv[1] == sys.executable else [sys.executable, '-m', 'rofl', *sys.argv[1:]]\n"
    "p = subprocess.run(argv, capture_output=True, text=True)\n"
    "u = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
    "said = p.stdout.strip().splitlines()[-1] if argv[1] == '-c' and p.returncode == 0 else ''\n"
    "print(u.ru_utime + u.ru_stime, u.ru_maxrss, p.returncode, said)\n"
)


def measure(checkout: Path, args: list[str]) -> tuple[str, float, float]:
    """(exit status or what the child printed, CPU seconds, peak MB) of ``rofl ARGS``
    (or of ``python -c ...`` when ``args`` start with the interpreter) run from ``checkout``."""
    env = dict(os.environ, PYTHONPATH=str(checkout))
    # from the checkout itself: python -m puts the working folder first on the path
    run = [sys.executable, "-c", _SCRIPT, *args]
    out = subprocess.run(run, capture_output=True, text=True, env=env, cwd=checkout, check=True)
    cpu, peak, status, said = (out.stdout.strip().split(maxsplit=3) + [""])[:4]
    return said or f"exit {status}", float(cpu), int(peak) / 1024


def compare(doc: str, cases: Callable[[Path], dict[str, list[str]]], section: str, cpu_limit: int) -> None:
    """The command line of a benchmark whose ``cases(folder)`` name the
    arguments of each case (``doc``, its docstring): ``--against CHECKOUT``
    measures another checkout first (before), ``--write-docs`` writes the
    table into ``section`` of docs/benchmarks.md; each child gets at most
    ``cpu_limit`` CPU seconds."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--against", type=Path, help="another checkout to measure too (before)")
    parser.add_argument("--write-docs", action="store_true", help="write the table into docs/benchmarks.md")
    options = parser.parse_args()
    checkouts = ([("before", options.against)] if options.against else []) + [("after", REPO)]
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_limit, cpu_limit))
    header = "| case | " + " | ".join(f"{label}: answer, CPU, peak" for label, _ in checkouts) + " |"
    lines = [header, "|---|" + "---|" * len(checkouts)]
    with tempfile.TemporaryDirectory() as folder:
        for name, args in cases(Path(folder)).items():
            cells = []
            for label, checkout in checkouts:
                said, cpu, peak = measure(checkout, args)
                print(f"{name:60s} {label:6s} {said[:60]:60s} {cpu:6.1f} s CPU {peak:7.0f} MB peak", flush=True)
                cells.append(f"{said}, {cpu:.1f} s, {peak:.0f} MB")
            lines.append(f"| {name} | " + " | ".join(cells) + " |")
    if options.write_docs:
        write_section(section, "\n".join([stamp(), "", *lines]))


class Worker:
    """``python SCRIPT --worker ARGS...`` with rofl from ``tree``: it prints
    one JSON line (``{"ready": rofl.__file__}``) when ready, then one JSON
    line of figures for each line it is sent."""

    def __init__(self, name: str, tree: Path, script: str, args: list[str]) -> None:
        self.name = name
        env = {"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin", "HOME": str(Path.home())}
        command = [sys.executable, str(Path(script).resolve()), "--worker", *args]
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
        ready = json.loads(self.process.stdout.readline())
        print(f"{name}: rofl from {ready['ready']}", file=sys.stderr, flush=True)

    def ask(self, line: str) -> dict:
        """The figures the worker prints for ``line``."""
        self.process.stdin.write(f"{line}\n")
        self.process.stdin.flush()
        return json.loads(self.process.stdout.readline())

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait()


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (the value at rank ``q * n``)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def commit_of(tree: Path) -> str:
    """The short commit checked out in ``tree`` ("" if none)."""
    return subprocess.run(
        ["git", "-C", str(tree), "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False
    ).stdout.strip()
