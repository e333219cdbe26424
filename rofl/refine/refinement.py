"""The entry point of refinement: :func:`refine` checks its inputs, runs the
passes (:mod:`rofl.refine.passes`) in order and reports a
:class:`Refinement`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from rofl._checks import is_whole
from rofl.errors import PuzzleError, UnsolvableError
from rofl.puzzle import Palette, Puzzle
from rofl.refine.passes import (
    LARGE_AFTER_CELL,
    LARGE_AFTER_SHARE,
    LARGE_CACHE_MB,
    LARGE_CELLS,
    LARGE_POLISH_PART,
    _Run,
    default_cost,
)
from rofl.solver.line_logic import LineSolver, SolveResult
from rofl.solver.status import LineStatus


@dataclass(eq=False)
class Refinement:
    """The outcome of :func:`refine`.

    Attributes
    ----------
    grid : (H, W) uint8 array
        The final picture; its puzzle is uniquely line-solvable.
    puzzle : Puzzle
        The clues of ``grid``.
    changed : (H, W) bool array
        Cells that differ from the input grid.
    iterations : int
        Refinement rounds (solves of a candidate grid that was kept).
    evaluations : int
        Candidate grids solved in all.
    line_solves : int
        Line solves spent over the whole run (cache hits included; line
        visits a replay takes from a recorded solve are not solves).
    sweeps : int
        Sweeps of the final solve: the puzzle's difficulty.
    fallback_lines : int
        Lines blanked by the last-resort fallback (0 for real pictures).
    reverted : int
        Changes put back by the revert passes (after the greedy pass and
        after polishing) because later changes made them unnecessary.
    polish_rounds : int
        Local repairs tried by polishing.
    relocated : int
        Changes moved elsewhere by relocation, each time letting at least
        one other change go back.
    seconds : float
        Wall time; compiling or loading the kernels
        (:func:`rofl.kernels.ready`, once a process) is not in it.
    """

    grid: np.ndarray = field(repr=False)
    puzzle: Puzzle = field(repr=False)
    changed: np.ndarray = field(repr=False)
    iterations: int
    evaluations: int
    line_solves: int
    sweeps: int
    fallback_lines: int
    reverted: int
    polish_rounds: int
    relocated: int
    seconds: float
    result: SolveResult = field(repr=False)

    @property
    def n_changed(self) -> int:
        return int(np.count_nonzero(self.changed))


def refine(
    grid: np.ndarray,
    palette: Palette,
    *,
    cost: np.ndarray | None = None,
    locked: np.ndarray | None = None,
    solver: LineSolver | None = None,
    progress: Callable[[int], None] | None = None,
    verify: int = 12,
    lazy_top: int = 256,
    refresh_every: int = 8,
    polish: float = 1.0,
    seed: int = 0,
    polish_progress: Callable[[int, int], None] | None = None,
    revert_progress: Callable[[int, int], None] | None = None,
    relocate: int = 1,
    relocate_progress: Callable[[int, int], None] | None = None,
    pairs: bool = False,
) -> Refinement:
    """Change as few, and as little visible, cells of ``grid`` as possible until
    its puzzle is uniquely line-solvable.

    Parameters
    ----------
    grid : (H, W) integer array of palette indices
    palette : Palette
    cost : (H, W, K) float array, optional
        ``cost[r, c, k]``: how visibly wrong colour ``k`` is for cell
        ``(r, c)``.  Default: 0 for the grid's own colour, 1 for the others.
    locked : (H, W) bool array, optional
        Cells that must never change.
    solver : LineSolver, optional
        Reused for its line cache; a fresh one by default (with a cache of
        ``LARGE_CACHE_MB`` on a grid of more than ``LARGE_CELLS`` cells).
    progress : callable, optional
        Called with the number of undetermined cells after every round.
    lazy_top, refresh_every : int
        Between full refreshes (every ``refresh_every`` rounds, or after a
        round that gained nothing), only the ``lazy_top`` moves with the
        best earlier estimates, and moves never estimated, are estimated
        again.
    verify : int
        At most this many best-estimated changes are judged by a full
        solve per round (fewer when the estimates prove no other can win).
    polish : float
        Effort spent after the greedy pass on changing fewer cells: about
        this many local repair attempts per changed cell, for at most
        ``POLISH_MOST`` (256) changed cells (0: none).  The budget counts
        attempts, not seconds, so results do not depend on the machine.  On
        a grid of more than ``LARGE_CELLS`` cells polishing and relocation
        also stop at a budget of line solves: ``max(polish, relocate)``
        times ``LARGE_AFTER_SHARE`` of those the greedy and revert passes
        made, or ``LARGE_AFTER_CELL`` a cell if that is more (polishing at
        most ``LARGE_POLISH_PART`` of it) -- a count too, not seconds.
    seed : int
        Seed of polishing's random choices: the same input, options and seed
        give the same picture.
    polish_progress : callable, optional
        Called while polishing with the attempts made and the most it will
        make.
    relocate : int
        At most this many passes, after polishing, that try to move each
        change elsewhere (0: none); they stop after a pass without a gain.
    relocate_progress : callable, optional
        Called during each relocation pass with the changes tried so far
        and the pass's total.
    pairs : bool
        Relocation also tries two for one: put back a change and one of the
        ``PAIR_PARTNERS`` (3) changes nearest to it, and make a single change
        anywhere instead (``rofl make --effort 2`` and more).
    revert_progress : callable, optional
        Called during each pass that puts back unneeded changes (after the
        greedy pass and after polishing) with the changes tried so far and
        the pass's total; a new pass starts again from 0.

    Returns
    -------
    Refinement

    Raises
    ------
    PuzzleError
        Bad shapes or values.
    UnsolvableError
        Only with ``locked`` cells: when the locked cells alone keep the
        puzzle ambiguous.
    """
    from rofl import kernels

    kernels.ready(kernels.LINE, kernels.REFINE)  # before the clock: compiling is not refinement
    clock = kernels.Stopwatch()
    if not isinstance(palette, Palette):
        palette = Palette(palette)
    original = np.asarray(grid)
    if original.ndim != 2 or original.size == 0:
        msg = f"refine needs a non-empty (H, W) grid, not shape {original.shape}"
        raise PuzzleError(msg)
    k = len(palette)
    work = original.astype(np.uint8, copy=True)
    if original.min() < 0 or original.max() >= k:
        msg = f"grid values must be palette indices 0..{k - 1}"
        raise PuzzleError(msg)
    if cost is None:
        cost = default_cost(work, k)
    cost = np.asarray(cost, dtype=np.float64)
    if cost.shape != (*work.shape, k):
        msg = f"cost must have shape {(*work.shape, k)}, not {cost.shape}"
        raise PuzzleError(msg)
    user_locked = np.zeros(work.shape, dtype=bool) if locked is None else np.asarray(locked, dtype=bool)
    if user_locked.shape != work.shape:
        msg = f"locked must have shape {work.shape}, not {user_locked.shape}"
        raise PuzzleError(msg)
    if not 0 <= polish < float("inf"):  # also refuses NaN
        msg = f"polish must be a finite number >= 0, not {polish!r}"
        raise PuzzleError(msg)
    if not is_whole(relocate) or relocate < 0:
        msg = f"relocate must be a whole number >= 0, not {relocate!r}"
        raise PuzzleError(msg)
    if solver is None:
        # a large grid's line solves outgrow the default cache (docs/decisions.md, "At scale")
        solver = LineSolver(cache_mb=LARGE_CACHE_MB) if work.size > LARGE_CELLS else LineSolver()
    run = _Run(solver, cost, work, verify=verify, lazy_top=lazy_top, refresh_every=refresh_every)

    state = run.judge(work)
    # a picture line logic solves as it is needs no repair kernels: only
    # the others compile them, and the clock stops meanwhile
    if state.result.status != LineStatus.SOLVED:
        kernels.ready(kernels.REPAIR)
    state = run.greedy(state, user_locked.copy(), progress)
    state, fallback_lines = run.fallback(state, user_locked)
    reverted = 0
    polish_rounds = 0
    relocated = 0
    if state.result.status == LineStatus.SOLVED and fallback_lines == 0:
        # Later changes often make earlier ones unnecessary.
        state, reverted = run.revert(state, np.argwhere(state.grid != original), revert_progress)
        # On a large grid polishing and relocation get a budget of work, a
        # share of what the greedy and revert passes took (docs/decisions.md,
        # "At scale"); on a small one they run to their own ends.
        polish_budget = relocate_budget = None
        if work.size > LARGE_CELLS:
            spent = run.work()
            allowed = max(polish, relocate) * max(LARGE_AFTER_SHARE * spent, LARGE_AFTER_CELL * work.size)
            polish_budget = int(spent + LARGE_POLISH_PART * allowed)
            relocate_budget = int(spent + allowed)
        if polish > 0:
            polished, polish_rounds = run.polish(
                state, user_locked, polish, seed, polish_progress, budget=polish_budget
            )
            if polished is not state:
                # Polishing reverts near its repairs only: one last full pass
                # leaves no change that could go back on its own.
                changed = np.argwhere(polished.grid != original)
                state, more = run.revert(polished, changed, revert_progress)
                reverted += more
        if relocate > 0:
            state, relocated = run.relocate(
                state, user_locked, relocate, relocate_progress, pairs=pairs, budget=relocate_budget
            )
            if relocated and work.size > LARGE_CELLS:
                # there a swap's revert pass tries only the changes near it
                state, more = run.revert(state, np.argwhere(state.grid != original), revert_progress)
                reverted += more
    work = state.grid
    # Replayed solves count no sweeps: the difficulty figure comes from a
    # plain solve (first in, first out) of the final grid.
    result = solver.run(state.packed, run.full_masks.copy())
    if result.status != LineStatus.SOLVED:  # pragma: no cover - a grid's own clues cannot contradict
        msg = f"refinement ended in state {result.status!r}"
        raise UnsolvableError(msg)
    puzzle = Puzzle.from_grid(work, palette)
    if progress is not None:
        progress(0)
    return Refinement(
        grid=work,
        puzzle=puzzle,
        changed=work != original,
        iterations=run.iterations,
        evaluations=run.evaluations,
        line_solves=run.line_solves,
        sweeps=result.sweeps,
        fallback_lines=fallback_lines,
        reverted=reverted,
        polish_rounds=polish_rounds,
        relocated=relocated,
        seconds=clock.seconds(),
        result=result,
    )


def unique_line_solvable(puzzle: Puzzle, solver: LineSolver | None = None) -> bool:
    """Whether line logic alone solves ``puzzle`` (which proves it unique)."""
    return (solver or LineSolver(cache_mb=0)).solve(puzzle).status == LineStatus.SOLVED


__all__ = ["Refinement", "refine", "unique_line_solvable"]
