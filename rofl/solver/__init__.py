"""Solvers: line logic (compiled, incremental) and, on top, complete search."""

from rofl.solver.line import solve_line
from rofl.solver.propagate import LineSolver, SolveResult, determined, initial_masks, masks_to_grid, solve
from rofl.solver.search import CompleteResult, solve_complete

__all__ = [
    "CompleteResult",
    "LineSolver",
    "SolveResult",
    "determined",
    "initial_masks",
    "masks_to_grid",
    "solve",
    "solve_complete",
    "solve_line",
]
