"""Could line logic be compiled ahead of time?  numba.pycc, measured.

    PYTHONPATH=. python benchmarks/aot_study.py [--write-docs]

Builds rofl's line-logic entry points (``_propagate`` for the byte-wide
line cache, ``_clue_hashes``) into an ordinary extension module with
``numba.pycc`` (deprecated since numba 0.57, still shipped), in a
temporary folder, then in a fresh process with no numba: imports it, solves
``samples/coffee.rofl`` with it, checks that the result equals the JIT's,
and times the solve and the whole process against the same solve through
numba's JIT (warm cache).  Prints the figures; ``--write-docs`` also
writes them into ``docs/benchmarks.md``.  The build needs a C compiler.
This was the study; the install now builds line logic this way
(:mod:`rofl.kernels._aot`, docs/design.md "Line logic compiled at install").
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

from _docs import stamp, write_section

ROOT = Path(__file__).resolve().parent.parent

_USE = """
import resource, sys, time
import numpy as np
import {module}
from rofl.formats import open_puzzle
start = time.perf_counter()
puzzle = open_puzzle(sys.argv[1]).puzzle
packed = puzzle.packed
if "{module}" == "rofl_aot":
    hashes = rofl_aot.clue_hashes(packed.lens, packed.cols, packed.offs, len(packed.offs) - 1)
    def solve():
        masks = np.full((puzzle.height, puzzle.width), (1 << puzzle.n_colors) - 1, dtype=np.int64)
        kmax, nmax = max(packed.kmax, 1), max(puzzle.height, puzzle.width)
        stats = np.zeros(7, dtype=np.int64)
        rofl_aot.propagate(
            masks, packed.lens, packed.cols, packed.offs[:-1].copy(), packed.offs[1:].copy(), hashes,
            np.arange(puzzle.height + puzzle.width, dtype=np.int64),
            np.empty((kmax, nmax + 1), np.int64), np.empty(kmax, np.int64), np.empty(kmax, np.int64),
            np.empty((kmax + 1, nmax + 2), np.uint8), np.empty((kmax + 1, nmax + 2), np.uint8),
            np.empty(64, np.int64), np.zeros((1, 4), np.int64), np.zeros((1, 2), np.uint8), False, stats,
        )
        return masks
else:
    from rofl.solver import solve as jit_solve
    def solve():
        return jit_solve(puzzle).masks
masks = solve()
t = time.process_time()
for _ in range(50):
    solve()
per = (time.process_time() - t) / 50 * 1e3
usage = resource.getrusage(resource.RUSAGE_SELF)
print(per, usage.ru_utime + usage.ru_stime, "numba" in sys.modules, masks.tobytes().hex())
"""


def build(folder: Path) -> tuple[float, float]:
    """Build ``rofl_aot`` into ``folder``; wall and CPU seconds (this process and the linker)."""
    warnings.simplefilter("ignore")  # pycc's pending deprecation
    from numba.pycc import CC

    from rofl.kernels import _line as k

    cc = CC("rofl_aot")
    cc.output_dir = str(folder)
    a2, a1 = "int64[:, ::1]", "int64[::1]"
    flat = (
        f"int64({a2}, {a1}, {a1}, {a1}, {a1}, {a1}, {a1}, {a2}, {a1}, {a1}, uint8[:, ::1], uint8[:, ::1], "
        f"{a1}, int64[:, ::1], uint8[:, ::1], boolean, {a1})"
    )
    cc.export("propagate", flat)(k._propagate.py_func)
    cc.export("clue_hashes", f"int64[::1]({a1}, {a1}, {a1}, int64)")(k._clue_hashes.py_func)

    def cpu() -> float:
        own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime

    start, before = time.perf_counter(), cpu()
    cc.compile()
    return time.perf_counter() - start, cpu() - before


def measure(module: str, folder: Path) -> tuple[float, float, bool, str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(folder), str(ROOT)]))
    code = _USE.format(module=module if module == "rofl_aot" else "numpy")
    out = subprocess.run(
        [sys.executable, "-c", code, str(ROOT / "samples" / "coffee.rofl")],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    per, total, numba, masks = out.stdout.split()
    return float(per), float(total), numba == "True", masks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write-docs", action="store_true", help="write the figures into docs/benchmarks.md")
    opts = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="rofl-aot-") as tmp:
        folder = Path(tmp)
        wall, cpu = build(folder)
        (so,) = folder.glob("rofl_aot*")
        size = so.stat().st_size / 1024
        print(f"pycc build: {wall:.1f} s wall, {cpu:.1f} s CPU; {so.name}, {size:.0f} kB")
        aot = measure("rofl_aot", folder)
        jit = measure("jit", folder)
    assert aot[3] == jit[3], "the extension's solve differs from the JIT's"
    rows = []
    for name, (per, total, numba, _) in (("AOT extension", aot), ("numba JIT, warm cache", jit)):
        print(f"{name:22} solve coffee.rofl {per:.2f} ms; whole process {total:.2f} s CPU; numba imported: {numba}")
        rows.append(f"| {name} | {per:.2f} ms | {total:.2f} s | {'yes' if numba else 'no'} |")
    if opts.write_docs:
        markdown = "\n".join(
            [
                stamp(),
                "",
                f"Build with numba.pycc: {wall:.1f} s wall, {cpu:.1f} s CPU, {size:.0f} kB.",
                "",
                "| line logic | solve coffee.rofl | whole process, CPU | imports numba |",
                "|---|---:|---:|---|",
                *rows,
            ]
        )
        write_section("aot-study", markdown)


if __name__ == "__main__":
    main()
