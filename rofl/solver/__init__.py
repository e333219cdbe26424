"""Solvers: line logic (compiled, incremental) and, on top, complete search."""

from rofl.solver.line import solve_line
from rofl.solver.propagate import LineSolver, SolveResult, determined, initial_masks, masks_to_grid, solve

__all__ = ["LineSolver", "SolveResult", "determined", "initial_masks", "masks_to_grid", "solve", "solve_line"]
