"""Timing for the benchmark scripts: the best of several runs, and one
first solution as a tournament asks for it.

Other jobs on a shared machine only ever add time, so the fastest run is the
figure to keep.
"""

from __future__ import annotations

import sys
import time
import timeit
from collections.abc import Callable


def cpu_clock() -> float:
    """CPU seconds of this process and of the SAT solver's child processes
    (``rofl.solver.cpu_time``: Kissat's calls run in a child); plain
    ``time.process_time`` for a checkout from before that."""
    try:
        from rofl.solver import cpu_time
    except ImportError:
        return time.process_time()
    return cpu_time()


def best_of(fn: Callable[[], object], repeat: int = 3) -> float:
    """Seconds of the fastest of ``repeat`` calls of ``fn``."""
    return min(timeit.repeat(fn, number=1, repeat=repeat))


def first_solution(puzzle, budget: float) -> dict:
    """``solve_complete(puzzle, solutions=1, cpu_budget=budget)``, the wall
    clock six times the budget: its status, CPU seconds
    (:func:`cpu_clock`: Kissat's child processes included),
    search nodes and whether it handed over to the SAT solver.  A grid that
    breaks the clues ends the script."""
    from rofl import solve_complete

    cpu = cpu_clock()
    result = solve_complete(puzzle, solutions=1, cpu_budget=budget, time_budget=6 * budget)
    cpu = cpu_clock() - cpu
    if not all(puzzle.is_solution(grid) for grid in result.solutions):
        sys.exit("a grid that breaks the clues")
    return {"status": str(result.status), "cpu": cpu, "nodes": result.nodes, "sat": result.sat_seconds > 0}
