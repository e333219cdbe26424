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


def best_of(fn: Callable[[], object], repeat: int = 3) -> float:
    """Seconds of the fastest of ``repeat`` calls of ``fn``."""
    return min(timeit.repeat(fn, number=1, repeat=repeat))


def best_in_turns(
    variants: dict[str, Callable[[], object]], repeat: int, clock: Callable[[], float] = time.perf_counter
) -> dict[str, float]:
    """Seconds of each variant's fastest call over ``repeat`` rounds in which
    the variants take turns (so a load that comes and goes slows them all
    alike), by ``clock``."""
    best = dict.fromkeys(variants, float("inf"))
    for _ in range(repeat):
        for name, call in variants.items():
            start = clock()
            call()
            best[name] = min(best[name], clock() - start)
    return best


def first_solution(puzzle, budget: float) -> dict:
    """``solve_complete(puzzle, solutions=1, cpu_budget=budget)``, the wall
    clock six times the budget: its status, CPU seconds
    (``rofl.solver.cpu_time``: Kissat's child processes included),
    search nodes and whether it handed over to the SAT solver.  A grid that
    breaks the clues ends the script."""
    from rofl import solve_complete
    from rofl.solver import cpu_time

    cpu = cpu_time()
    result = solve_complete(puzzle, solutions=1, cpu_budget=budget, time_budget=6 * budget)
    cpu = cpu_time() - cpu
    if not all(puzzle.is_solution(grid) for grid in result.solutions):
        sys.exit("a grid that breaks the clues")
    return {"status": str(result.status), "cpu": cpu, "nodes": result.nodes, "sat": result.sat_seconds > 0}
