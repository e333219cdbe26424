"""The grader's kernel, side by side: builds of the compiled extension (or the JIT) on one puzzle.

Loads each extension file named (``rofl/kernels/_aot_kernels_1*.so`` of a
checkout, the part that holds the grader, as ``setup.py build_ext
--inplace`` builds it; ``jit`` for
numba's JIT of this checkout's ``rofl.kernels._grade``) into this process,
checks that all give the same answer (status, masks, log, rounds, statistics),
then calls their ``grade`` in turn, interleaved, ``--repeat`` times each,
and prints the best and median CPU time (``time.process_time``) of each:
the kernel alone, without ``rofl.grade``'s Python around it.  By default
the puzzle is the corpus's ``webpbn-00803`` (50x45, 325 rounds of probing),
the slowest one of up to 50x50 (issue 42's goal: under 10 ms).

Usage::

    python benchmarks/grade_speed.py [--repeat 40] [--puzzle FILE] [--write-docs] EXTENSION_OR_jit...

For example main's extension against this checkout's::

    python benchmarks/grade_speed.py /work/main/rofl/kernels/_aot_kernels_1*.so rofl/kernels/_aot_kernels_1*.so

``--write-docs`` writes section ``grade-speed`` of ``docs/benchmarks.md``.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import time
from pathlib import Path

import numpy as np

from rofl.formats import open_puzzle
from rofl.kernels import grade_codes
from rofl.solver.grade import PROBE_WORK
from rofl.solver.index_lines import board_of

ROOT = Path(__file__).resolve().parent.parent
PUZZLE = ROOT.parent / "shared" / "corpus" / "webpbn-survey" / "webpbn-00803.json"


def _kernel(source: str):
    """The grade kernel of an extension file, or of the JIT (``jit``)."""
    if source == "jit":
        from rofl.kernels._grade import _grade

        return _grade
    spec = importlib.util.spec_from_file_location(Path(source).name.split(".")[0], source)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.grade


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sources", nargs="+", help="extension files (.so), or jit")
    parser.add_argument("--puzzle", type=Path, default=PUZZLE)
    parser.add_argument("--repeat", type=int, default=40)
    parser.add_argument("--write-docs", action="store_true")
    args = parser.parse_args()
    puzzle = open_puzzle(args.puzzle).puzzle
    board = board_of(puzzle)
    lines = [np.array(a) for a in (board.line_cells, board.line_offsets, board.cell_lines, board.cell_offsets)]
    clues = [a.astype(np.int64) for a in (puzzle.lengths, puzzle.colors, puzzle.offsets)]
    full = (1 << puzzle.n_colors) - 1

    def once(kernel) -> tuple[float, tuple]:
        masks = np.full(board.n_cells, full, dtype=np.int64)
        log = np.zeros((board.n_cells + 64, 2), dtype=np.int64)
        when = np.full(board.n_cells, -1, dtype=np.int64)
        stats = np.zeros(grade_codes.N_STATS, dtype=np.int64)
        start = time.process_time()
        status = kernel(masks, *lines, *clues, PROBE_WORK, grade_codes.RECALL, log, when, stats)
        seconds = time.process_time() - start
        return seconds, (status, masks.tobytes(), log.tobytes(), when.tobytes(), stats.tobytes())

    kernels = {source: _kernel(source) for source in args.sources}
    answers = {source: once(kernel)[1] for source, kernel in kernels.items()}  # also the warm-up
    first = next(iter(answers.values()))
    for source, answer in answers.items():
        if answer != first:
            msg = f"Error: {source} answers differently from {args.sources[0]}"
            raise SystemExit(msg)
    times: dict[str, list[float]] = {source: [] for source in kernels}
    for _ in range(args.repeat):
        for source, kernel in kernels.items():
            times[source].append(once(kernel)[0] * 1000)
    lines = [f"{args.puzzle.name}: CPU ms of the grade kernel, {args.repeat} calls each, interleaved"]
    for source, ms in times.items():
        lines.append(f"  best {min(ms):6.2f}  median {statistics.median(ms):6.2f}  {source}")
    print("\n".join(lines))
    if args.write_docs:
        from _docs import stamp, write_section

        write_section("grade-speed", "\n".join([stamp(), "", "```text", *lines, "```"]))


if __name__ == "__main__":
    main()
