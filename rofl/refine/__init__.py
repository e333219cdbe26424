"""Refinement: change a picture as little as possible until its puzzle is
uniquely solvable by line logic.

The solver reads clues only: every candidate grid is judged by deriving its
clues and line-solving them from nothing known -- replaying the recorded
solve of the judged grid it came from (:meth:`judge.Judge.replay`) and
through :class:`~rofl.solver.LineSolver`'s cache of line results, so a grid
that differs in one cell costs a fraction of a full solve.  A puzzle that
line logic solves completely has exactly one solution.

Modules
-------
``refinement``
    :func:`refine`, the entry point for boards of both shapes
    (``board=``: a :class:`~rofl.hexagon.Hexagon`, or None for a
    rectangle), and its outcome :class:`Refinement`.
``passes``
    The passes below, written once for both shapes, as methods of one run
    (``passes._Run``) that calls a small adapter for the shape.
``rectangle``, ``hexagon``
    The adapters: :class:`~rofl.refine.rectangle.RectLines` over a
    rectangle's packed-clue kernels, :class:`~rofl.refine.hexagon.HexLines`
    over a hexagon's index lines (how each judges and estimates, and the
    rules its greedy and revert passes were tuned with).
``judge``
    Line logic only a rectangle's refinement needs: replaying a recorded
    solve, estimating single-cell changes, resuming from a failure
    certificate (compiled kernels in :mod:`rofl.kernels`).
``unknown``
    :func:`~rofl.refine.unknown.unknown_colours`: colour clues turned to
    ``?`` while line logic still solves the puzzle (``rofl make
    --unknown-colours``).

The passes (docs/design.md, "Refinement", has the figures)
-----------------------------------------------------------
1. Greedy (:meth:`passes._Run.greedy`).  Solve the current grid's clues; the cells
   line logic leaves undetermined are where the picture is ambiguous, the
   only candidates for a change, and only towards colours line logic still
   allows there.  Every candidate is estimated in compiled code (resume from
   the stalled state: a lower bound on what stays undetermined), the best
   estimates are judged by full solves, and the one leaving the fewest
   undetermined cells is kept (ties, and plateaus where nothing determines
   anything: the one that most cuts its row's and column's arrangements,
   less its visual cost).  On a plateau the best such move of every free
   row and column is taken at once.  A changed cell is locked, so the loop
   cannot oscillate and ends after at most ``H * W`` changes.
2. Fallback (:meth:`passes._Run.fallback`), a last resort real pictures do not
   reach: blank the line with the most undetermined cells.  A blank line
   stays blank and an all-blank picture is trivially solvable, so this ends.
3. Revert (:meth:`passes._Run.revert`): put back every change whose original colour
   keeps the puzzle line-solvable, latest first, until no single change can
   go back.  Most trials fail; a failure certificate (:meth:`passes._Run._still_fails`)
   proves most of those failures without a solve.
4. Polish (:meth:`passes._Run.polish`): iterated local repair -- undo a few nearby
   changes, mend the picture near them with the greedy loop, revert, keep
   the outcome unless it changes more cells -- then one more revert pass.
5. Relocate (:meth:`passes._Run.relocate`): put one change back,
   make one change anywhere else instead that line logic shows could solve
   the puzzle, and keep the swap when the revert pass then puts back
   another change; with ``pairs``, also put back two nearby changes and
   make one elsewhere.

A hexagon runs the first three passes (polishing and relocation need a
rectangle's failure certificates).  On a grid of more than
``passes.LARGE_CELLS`` cells (docs/design.md, "At scale") the revert pass
tries one change at a time, relocation looks for a
swap near the change it puts back, and polishing and relocation stop at a
budget of line solves, a share of what the first passes took.
"""

from rofl.refine.passes import default_cost
from rofl.refine.refinement import Refinement, refine, unique_line_solvable
from rofl.solver.line_logic import determined

__all__ = ["Refinement", "default_cost", "determined", "refine", "unique_line_solvable"]


from rofl._lazy import submodules  # noqa: E402 -- the rest of the package loads on first use

__getattr__ = submodules(__name__)
