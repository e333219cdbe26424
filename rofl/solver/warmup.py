"""The tiny solves that compile the solver's kernel sets (``LINE``,
``FRESH``, ``INDEX``, ``GRADE`` and ``SEARCH`` in :mod:`rofl.kernels`).

:func:`rofl.kernels.ready` takes a set and, when this
process does not hold its kernels yet, calls its warm-up here: a solve of
a 2x2 puzzle through the same code as real work, so the kernels are
compiled (or loaded from numba's cache) with the argument types real work
passes.  Puzzles of more than 8 colours use a wider line cache and compile
one more variant when they first meet it.
"""

from __future__ import annotations


def _two_ways():
    """A 2x2 puzzle with two solutions (the diagonals): line logic stalls."""
    from rofl.palette import Palette
    from rofl.puzzle import Puzzle

    one = ((1, 1),)
    return Puzzle(2, 2, Palette.black_white(), (one, one), (one, one))


def warm_line() -> None:
    from rofl.solver.propagate import LineSolver

    puzzle = _two_ways()
    LineSolver(cache_mb=0).solve(puzzle)  # without a line cache
    LineSolver(cache_mb=1).solve(puzzle)  # with one


def warm_fresh() -> None:
    from rofl.solver.propagate import _solve_fresh

    _solve_fresh(_two_ways())


def warm_index() -> None:
    from rofl.hexagon import HexPuzzle
    from rofl.solver.lines import propagate_lines

    propagate_lines(HexPuzzle.from_cells(2, [0, 1, 1, 0, 0, 0, 1]))


def warm_grade() -> None:
    from rofl.solver.grade import grade

    grade(_two_ways())  # stalls: probing runs too


def warm_search() -> None:
    from rofl.solver.search import solve_complete

    solve_complete(_two_ways(), time_budget=None)
