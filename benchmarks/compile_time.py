"""Where the kernels' compile time goes: each kernel set, then each function.

    PYTHONPATH=. python benchmarks/compile_time.py [--top 25] [--write-docs] [--alone]

Runs in a fresh ``NUMBA_CACHE_DIR`` (a new temporary folder, removed at the
end; no other cache is read or cleared).  With ``--alone``, first compiles
each kernel set by itself, in a process and cache of its own (as a fresh
install's first command that needs only it does), and prints the CPU
seconds of each as the table :data:`rofl.kernels.COMPILE_SECONDS`, the one
source of the estimates rofl prints (rounded up to 5 s).  Then compiles
every set one after the other (:data:`rofl.kernels.SETS`) in this process
and prints the CPU seconds each adds, then the functions that took longest to compile (the
wall seconds of numba's ``numba:compile`` events, less those of the
functions compiled inside them; on a loaded machine wall time is more than
CPU time), and every rofl kernel numba compiled more than once, with its
signatures: a literal argument (``f(x, 0)``) or a second integer width
compiles a kernel again.  The kernels compiled at install are ignored
(``ROFL_NO_AOT``): these are the JIT's figures; the last row is what
``pip install`` adds to build that extension (line logic, refinement and
the complete search with ``numba.pycc``, the C compiler and the linker;
:func:`rofl.kernels._aot.build`).
``--write-docs`` writes the seconds of each set into section
``compile-time`` of ``docs/benchmarks.md``.  The table of
what was tried is in ``docs/design.md`` ("Compiling the kernels").
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from ast import literal_eval
from collections import defaultdict
from pathlib import Path

# before numba is imported: numba reads NUMBA_CACHE_DIR once
_CACHE = tempfile.mkdtemp(prefix="rofl-bench-numba-")
os.environ["NUMBA_CACHE_DIR"] = _CACHE
os.environ["ROFL_NO_AOT"] = "1"  # the JIT's compile times, even where the extension is installed

sys.path.insert(0, str(Path(__file__).resolve().parent))  # _docs, when run from elsewhere


def _cpu() -> float:
    """CPU seconds of this process and its finished children (pycc's compiler and linker)."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def _exclusive(buffer) -> tuple[dict[str, float], dict[str, int]]:
    """Seconds per function from nested start/end events, less the nested ones."""
    seconds: dict[str, float] = defaultdict(float)
    count: dict[str, int] = defaultdict(int)
    stack: list[list] = []
    for stamp, event in buffer:
        dispatcher = event.data.get("dispatcher")
        name = dispatcher.py_func.__qualname__ if dispatcher is not None else str(event.data)
        if event.is_start:
            stack.append([name, stamp, 0.0])
            continue
        name, began, inner = stack.pop()
        spent = stamp - began
        seconds[name] += spent - inner
        count[name] += 1
        if stack:
            stack[-1][2] += spent
    return seconds, count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=25, help="how many functions to list (default 25)")
    parser.add_argument("--write-docs", action="store_true", help="write the table into docs/benchmarks.md")
    parser.add_argument("--alone", action="store_true", help="first, each set alone in a fresh process and cache")
    args = parser.parse_args()
    try:
        import importlib

        from numba.core import event
        from numba.core.registry import CPUDispatcher

        from rofl.kernels import MODULES, SETS, ready

        if args.alone:
            print("CPU seconds to compile each set alone (a fresh process and cache each):")
            alone = {}
            for kernels in SETS:
                code = (
                    "import os, time; from rofl import kernels; "
                    f"s = next(s for s in kernels.SETS if s.name == {kernels.name!r}); "
                    "t = os.times(); w = time.perf_counter(); kernels.ready(s); u = os.times(); "
                    "print(u.user + u.system - t.user - t.system, time.perf_counter() - w)"
                )
                env = {**os.environ, "NUMBA_CACHE_DIR": tempfile.mkdtemp(dir=_CACHE)}
                out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
                cpu, wall = map(float, out.stdout.split())
                alone[kernels.name] = cpu
                print(f"  {kernels.name:36s} {cpu:6.1f} s CPU  ({wall:.1f} s wall)")
            print("COMPILE_SECONDS = {")
            for name, cpu in alone.items():
                print(f"    {name!r}: {5 * -(-cpu // 5):.0f},")
            print("}\n")

        recorder = event.RecordingListener()
        event.register("numba:compile", recorder)
        print("CPU seconds to compile, in a fresh cache:")
        total = 0.0
        rows = []
        for kernels in SETS:
            cpu, wall = _cpu(), time.perf_counter()
            ready(kernels)
            cpu, wall = _cpu() - cpu, time.perf_counter() - wall
            total += cpu
            print(f"  {kernels.name:36s} {cpu:6.1f} s CPU  ({wall:.1f} s wall)")
            rows.append(f"| {kernels.name} | {cpu:.1f} s | {wall:.1f} s |")
        print(f"  {'in all':20s} {total:6.1f} s CPU")
        # in a process of its own with an empty cache, as a fresh install runs
        # it: nothing compiled above is reused (pycc compiles the kernels'
        # callees through their JIT dispatchers, which read numba's cache)
        cpu, wall = _cpu(), time.perf_counter()
        code = f"from rofl.kernels._aot import build; print([str(p) for p in build({_CACHE!r})])"
        env = {**os.environ, "NUMBA_CACHE_DIR": tempfile.mkdtemp(dir=_CACHE)}
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
        cpu, wall = _cpu() - cpu, time.perf_counter() - wall
        size = sum(Path(path).stat().st_size for path in literal_eval(out.stdout.strip())) / 2**10
        print(f"  {'all at install':20s} {cpu:6.1f} s CPU  ({wall:.1f} s wall; numba.pycc, {size:.0f} kB)")
        aot_row = f"| all of them, ahead of time at install (numba.pycc, {size:.0f} kB) "
        aot_row += f"| {cpu:.1f} s | {wall:.1f} s |"

        seconds, count = _exclusive(recorder.buffer)
        print("\nlongest compiles (wall seconds, without what they compiled inside; x: times compiled):")
        for name, spent in sorted(seconds.items(), key=lambda item: -item[1])[: args.top]:
            print(f"  {name[:48]:48s} x{count[name]:<3d} {spent:6.2f} s")

        print("\nrofl kernels compiled more than once:")
        again = 0
        for module_name in MODULES:
            module = importlib.import_module(module_name)
            for name, value in vars(module).items():
                if isinstance(value, CPUDispatcher) and len(value.signatures) > 1:
                    again += 1
                    print(f"  {module_name}.{name}: {len(value.signatures)} signatures")
                    for signature in value.signatures:
                        print(f"    {signature}")
        if not again:
            print("  none")
        if args.write_docs:
            from _docs import stamp, write_section

            table = ["| kernels | CPU | wall |", "|---|---:|---:|", *rows, f"| in all | {total:.1f} s | |", aot_row]
            write_section("compile-time", "\n".join([stamp(), "", *table]))
    finally:
        shutil.rmtree(_CACHE, ignore_errors=True)


if __name__ == "__main__":
    main()
