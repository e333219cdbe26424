"""How far is ``rofl make`` from the fewest changed cells?  An exhaustive lower bound.

For every picture of ``make_photos.py`` (square crop, ``--size`` cells,
``--colors`` colours), take the quantised grid that refinement starts from
and try every change of one cell and every change of two cells (to every
other colour) with a full line solve from scratch.  When none of them makes
the puzzle line-solvable, the picture needs at least three changed cells,
whatever the method.  Prints, per picture, what ``rofl make`` changed and
the bound, then what the bounds imply for the median over all pictures.

Run by hand (a few seconds per 30x30 black-and-white picture; the count of
pairs grows with the fourth power of the size and the square of the colours):

    python benchmarks/fewest_changes.py
    python benchmarks/fewest_changes.py --size 20 --colors 4

``--write-docs`` also writes the table into section ``fewest-changes`` of
``docs/benchmarks.md``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from itertools import combinations, product
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from make_photos import _load, picture_names  # noqa: E402

import rofl  # noqa: E402
from rofl.refine.judge import grid_clues  # noqa: E402
from rofl.refine.passes import initial_masks_for  # noqa: E402
from rofl.solver import LineSolver  # noqa: E402


def fewest_bound(grid: np.ndarray, n_colors: int, solver: LineSolver, most: int = 2) -> int:
    """The fewest changed cells that make ``grid``'s puzzle line-solvable, if
    at most ``most``; else ``most + 1`` (a lower bound)."""
    full = initial_masks_for(*grid.shape, n_colors)

    def solvable(trial: np.ndarray) -> bool:
        return solver.run(grid_clues(trial), full.copy()).status == "solved"

    if solvable(grid):
        return 0
    flat = grid.ravel()
    others = [[c for c in range(n_colors) if c != v] for v in flat]
    for size in range(1, most + 1):
        for cells in combinations(range(flat.size), size):
            for colours in product(*(others[i] for i in cells)):
                trial = flat.copy()
                trial[list(cells)] = colours
                if solvable(trial.reshape(grid.shape)):
                    return size
    return most + 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=30)
    parser.add_argument("--colors", type=int, default=2)
    parser.add_argument("--write-docs", action="store_true", help="write the table into docs/benchmarks.md")
    args = parser.parse_args(argv)
    n = args.size
    solver = LineSolver()
    made, bounds = [], []
    print(f"{n}x{n}, {args.colors} colours: every change of one and of two cells tried")
    table = [
        f"{n}×{n}, {args.colors} colours: every change of one and of two cells tried.",
        "",
        "| picture | rofl changes | fewest possible |",
        "|---|---|---|",
    ]
    for name in picture_names():
        start = time.perf_counter()
        res = rofl.make(_load(name), width=n, height=n, mode="crop", colors=args.colors)
        bound = fewest_bound(res.quantised, args.colors, solver)
        made.append(res.stats.n_changed)
        bounds.append(bound)
        found = "at least 3" if bound == 3 else f"exactly {bound}"
        print(
            f"  {name:28s} rofl changes {res.stats.n_changed:4d}; fewest possible: {found:10s}"
            f" ({time.perf_counter() - start:.1f} s)",
            flush=True,
        )
        table.append(f"| `{name}` | {res.stats.n_changed} | {found} |")
    cells = n * n
    exact = [(m, b) for m, b in zip(made, bounds, strict=True) if b <= 2]
    print(
        f"rofl changes the fewest possible cells on {sum(m == b for m, b in exact)} of the"
        f" {len(exact)} pictures that need at most 2"
    )
    print(
        f"median changed: rofl {statistics.median(made) / cells:.2%};"
        f" no method can go below {statistics.median(bounds) / cells:.2%}"
    )
    if args.write_docs:
        from _docs import stamp, write_section

        table += [
            "",
            f"rofl changes the fewest possible cells on {sum(m == b for m, b in exact)} of the {len(exact)} pictures"
            f" that need at most 2. Median changed: rofl {statistics.median(made) / cells:.2%}; no method can go"
            f" below {statistics.median(bounds) / cells:.2%}.",
        ]
        write_section("fewest-changes", "\n".join([stamp(), "", *table]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
