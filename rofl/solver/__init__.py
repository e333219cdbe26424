"""Solvers: line logic (compiled, incremental) and, on top, complete search.

Only what solving needs lives here; refinement's own kernels (replaying a
recorded solve, estimating moves, failure certificates) are in
:mod:`rofl.refine`, which builds on this package.
"""

from rofl.solver._stop import cpu_time
from rofl.solver.line_logic import LineSolver, SolveResult, determined, initial_masks, masks_to_grid, solve
from rofl.solver.search import CompleteResult, solve_complete
from rofl.solver.single_line import solve_line
from rofl.solver.status import LineStatus, SearchStatus

__all__ = [
    "CompleteResult",
    "LineSolver",
    "LineStatus",
    "SearchStatus",
    "SolveResult",
    "cpu_time",
    "determined",
    "initial_masks",
    "masks_to_grid",
    "solve",
    "solve_complete",
    "solve_line",
]


from rofl._lazy import submodules  # noqa: E402 -- the rest of the package loads on first use

__getattr__ = submodules(__name__)
