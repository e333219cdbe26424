"""The SAT engine against rofl's compiled search (prints figures; not a test).

Usage::

    python benchmarks/sat_engine.py [--corpus DIR] [--every N] [--budget SECONDS] [--write-docs]

Solves every ``N``-th corpus puzzle of at most 30x30 (default every 2nd)
and hexagonal puzzles of side 5, 10 and 20 (``benchmarks/hex_solve.py``'s
pictures, three inks, a third of the groups ``?``) with
:func:`rofl.solve_complete`, once with each engine, ``--budget`` seconds
each (default 2), after a warm-up.  Prints, per group of puzzles, how many
each engine decided and its median, p90 and maximum wall time, and the SAT
formulas' median size.  ``--write-docs`` writes the table into section
``sat-engine`` of ``docs/benchmarks.md``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).parent))
DEFAULT_CORPUS = REPO.parent / "shared" / "corpus"


def _corpus(corpus: Path, every: int):
    from rofl.formats import read_puzzle

    groups: dict[str, list] = {}
    for path in sorted(corpus.glob("*/*.json"))[::every]:
        puzzle, _ = read_puzzle(path)
        if puzzle.width <= 30 and puzzle.height <= 30:
            name = "corpus, tournament 25x25" if path.parent.name == "taai-tournament" else "corpus, others <= 30x30"
            groups.setdefault(name, []).append(puzzle)
    return groups


def _hexagons():
    from hex_solve import picture, with_question_marks

    from rofl.hexagon import HexPuzzle
    from rofl.puzzle import Palette

    four = Palette(["#ffffff", "#000000", "#d62728", "#1f77b4"])
    return {
        f"hexagon side {side}, 3 inks, 1/3 ?": [
            with_question_marks(HexPuzzle.from_cells(side, picture(side, 3, s), four), 1 / 3, s) for s in range(4)
        ]
        for side in (5, 10, 20)
    }


def _row(name, puzzles, budget):
    import rofl
    from rofl.solver.sat import Encoding

    cells = []
    for engine in ("search", "sat"):
        times, decided = [], 0
        for p in puzzles:
            t = time.perf_counter()
            status = rofl.solve_complete(p, time_budget=budget, engine=engine).status
            times.append(time.perf_counter() - t)
            decided += status != "budget"
        p90 = float(np.quantile(times, 0.9))
        median = 1e3 * statistics.median(times)
        cells.append(f"{decided}/{len(puzzles)} | {median:.1f} / {1e3 * p90:.0f} / {1e3 * max(times):.0f} ms")
    clauses = statistics.median(len(Encoding(p).clauses) for p in puzzles[:20])
    return f"| {name} | {cells[0]} | {cells[1]} | {clauses:,.0f} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--every", type=int, default=2)
    parser.add_argument("--budget", type=float, default=2.0)
    parser.add_argument("--write-docs", action="store_true")
    args = parser.parse_args()

    import rofl
    from rofl.puzzle import Puzzle

    warm = Puzzle.from_grid(np.eye(3, dtype=int))
    rofl.solve_complete(warm)
    rofl.solve_complete(warm, engine="sat")

    lines = [
        "| puzzles | search: decided | search: median / p90 / max | SAT: decided | SAT: median / p90 / max "
        "| clauses (median) |",
        "|---|---|---|---|---|---|",
    ]
    for name, puzzles in {**_corpus(args.corpus, args.every), **_hexagons()}.items():
        row = _row(name, puzzles, args.budget)
        lines.append(row)
        print(row, flush=True)
    if args.write_docs:
        from _docs import stamp, write_section

        write_section("sat-engine", "\n".join([stamp(), "", *lines]))


if __name__ == "__main__":
    main()
