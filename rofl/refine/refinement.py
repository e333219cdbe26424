"""The entry point of refinement, for boards of every shape: :func:`refine`
checks its inputs, picks the shape's adapter (:mod:`rofl.refine.rectangle`,
:mod:`rofl.refine.hexagon`), runs the passes (:mod:`rofl.refine.passes`)
in order and reports a :class:`Refinement`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from rofl._checks import is_whole
from rofl.errors import OptionError, PuzzleError, UnsolvableError
from rofl.palette import Palette
from rofl.puzzle import Puzzle, Rectangle
from rofl.refine.passes import (
    CACHE_MB_PER_CELL,
    FAR_POLISH_ABOVE,
    LARGE_AFTER_CELL,
    LARGE_AFTER_SHARE,
    LARGE_CACHE_MB,
    LARGE_CELLS,
    LARGE_POLISH_PART,
    QUICK_REVERT_CELL,
    QUICK_REVERT_SHARE,
    _Run,
    _State,
    default_cost,
)
from rofl.refine.rectangle import RectLines
from rofl.solver.line_logic import LineSolver
from rofl.solver.status import LineStatus


@dataclass(eq=False)
class Refinement:
    """The outcome of :func:`refine`.

    Attributes
    ----------
    grid : uint8 array of the board's ``grid_shape``
        The final picture (``(H, W)``, or ``(n_cells,)`` in a hexagon's
        order); its puzzle is uniquely line-solvable.
    puzzle : Puzzle or HexPuzzle
        The clues of ``grid``.
    changed : bool array of the grid's shape
        Cells that differ from the input grid.
    iterations : int
        Refinement rounds (solves of a candidate grid that was kept); on a
        hexagon, the changes the greedy pass made (a plateau round makes
        several).
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
    result : SolveResult or rofl.refine.hexagon.HexResult
        Line logic's final solve of ``grid``.
    estimates : int
        Moves estimated by the greedy pass (resumed solves).
    """

    grid: np.ndarray = field(repr=False)
    puzzle: Any = field(repr=False)
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
    result: Any = field(repr=False)
    estimates: int = 0

    @property
    def n_changed(self) -> int:
        return int(np.count_nonzero(self.changed))


def refine(
    grid: np.ndarray, palette: Palette, *, board: Any = None, cost: np.ndarray | None = None,
    locked: np.ndarray | None = None, solver: LineSolver | None = None, progress: Callable[[int], None] | None = None,
    verify: int | None = None, lazy_top: int = 256, refresh_every: int = 8, revert: bool = True, polish: float = 1.0,
    seed: int = 0, polish_progress: Callable[[int, int], None] | None = None,
    revert_progress: Callable[[int, int], None] | None = None, relocate: int = 1,
    relocate_progress: Callable[[int, int], None] | None = None, pairs: bool = False, quick: bool = False,
    threads: int | None = None,
) -> Refinement:  # fmt: skip
    """Change as few, and as little visible, cells of ``grid`` as possible until
    its puzzle is uniquely line-solvable.

    Parameters
    ----------
    grid : integer array of palette indices
        ``(H, W)`` for a rectangle; ``(n_cells,)`` in the order of
        :class:`~rofl.hexagon.Hexagon` for a hexagon.
    palette : Palette
    board : Hexagon, optional
        The board ``grid`` fills: a :class:`~rofl.hexagon.Hexagon`, or None
        for the rectangle of ``grid``'s shape.
    cost : float array of shape ``(*grid.shape, K)``, optional
        ``cost[..., k]``: how visibly wrong colour ``k`` is for each cell.
        Default: 0 for the grid's own colour, 1 for the others.
    locked : bool array of the grid's shape, optional
        Cells that must never change.
    solver : LineSolver, optional
        A rectangle's: reused for its line cache; a fresh one by default,
        with a cache of ``LARGE_CACHE_MB`` on a grid of more than
        ``LARGE_CELLS`` cells, else ``CACHE_MB_PER_CELL`` a cell (at least
        a megabyte).
    lazy_top, refresh_every : int
        A rectangle's: between full refreshes (every ``refresh_every``
        rounds, or after a round that gained nothing), only the
        ``lazy_top`` moves with the best earlier estimates, and moves never
        estimated, are estimated again (a hexagon's: :mod:`.hexagon`).
    verify : int, optional
        At most this many best-estimated changes are judged by a full solve
        per round (fewer when the estimates prove no other can win); default
        12 on a rectangle, :data:`.hexagon.VERIFY` on a hexagon.
    revert : bool
        Put back the changes that later ones made unnecessary (False:
        stop after the greedy pass; polishing and relocation need it).
    polish : float
        Effort spent after the greedy pass on changing fewer cells: about
        this many local repair attempts per changed cell, for at most
        ``POLISH_MOST`` (256) changed cells (0: none).  The budget counts
        attempts, not seconds, so results do not depend on the machine (on a
        large grid, line solves too: :func:`_polish_and_relocate`).
        Polishing and relocation run on rectangles only (they need a
        rectangle's failure certificates); a hexagon ignores them.  On a
        grid of more than ``FAR_REUSE_CELLS`` cells (and not ``quick``) they
        run only when ``polish`` or ``relocate`` is above
        ``FAR_POLISH_ABOVE`` (1, ``rofl make``'s default effort): there
        they cost a quarter of the time and leave the likeness as it was.
        Without them (a *lean* run) the greedy pass keeps no failure
        certificates and the revert pass tries its own only within
        ``FAR_CHECK_REUSE`` cells: certificates only spare judges, so the
        same picture, with fewer checks that prove nothing.  At every
        effort such a grid's plateau rounds change at most
        ``FAR_PLATEAU_SHARE`` (0.18) of a side's cells, not half.
    seed : int
        Seed of polishing's random choices: the same input, options and seed
        give the same picture.
    relocate : int
        At most this many passes, after polishing, that try to move each
        change elsewhere (0: none); they stop after a pass without a gain.
    pairs : bool
        Relocation also tries two for one: put back a change and one of the
        ``PAIR_PARTNERS`` (3) changes nearest to it, and make a single change
        anywhere instead (``rofl make --effort 2`` and more).
    quick : bool
        On a grid of more than ``LARGE_CELLS`` cells and at most
        ``QUICK_MOST_CELLS`` (a rectangle's), trade changed cells for time (``rofl make --effort 0``): a greedy round
        first judges up to ``QUICK_BATCH`` of its best-estimated moves that
        gain, in distinct rows and columns, together, and takes them if the
        grid gains (else their better half, down to two); estimates are refreshed only after a round that gains
        nothing (or a plateau round with at most half the cells open), and
        then one move in ``QUICK_REFRESH_PART`` in turn, besides the lazy top; a plateau round changes at most
        ``QUICK_PLATEAU_SHARE`` of a side's cells; and the revert pass
        stops once it has spent ``QUICK_REVERT_SHARE`` times the line
        solves made before it, or ``QUICK_REVERT_CELL`` a cell if that is
        more -- a count, so the same picture on any machine.  Still
        uniquely line-solvable, with more cells changed (docs/design.md,
        "Effort 0 on a large grid").  Ignored on other grids (at 400x400 it
        took longer) and on hexagons.
    threads : int, optional
        A rectangle's: threads the greedy pass may split a batch of move
        estimates between, at least
        :data:`~rofl.refine.judge.SPLIT_MOVES` (512) moves each (a batch
        that large estimates as many open cells); by default
        :func:`default_threads`.  The picture does not depend on it, only
        the wall time (the processor time a little, the other way).
    progress, revert_progress, polish_progress, relocate_progress : callable, optional
        ``progress(undetermined)`` after every greedy round (and 0 at the
        end); the others ``(done, total)`` during each revert pass (changes
        tried), while polishing (attempts) and during each relocation pass
        (changes tried), starting again from 0 with each pass.

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
    OptionError
        ``threads`` is not a whole number of at least 1.
    """
    from rofl import kernels

    hexagon = _hexagon(board)
    # before the clock: compiling is not refinement
    kernels.ready(*((kernels.INDEX, kernels.HEX_REFINE) if hexagon else (kernels.LINE, kernels.REFINE)))
    clock = kernels.Stopwatch()
    palette = palette if isinstance(palette, Palette) else Palette(palette)
    original, cost, user_locked = _checked(grid, len(palette), hexagon, cost, locked, polish, relocate)
    threads = check_threads(threads)
    shape = _shape(hexagon, original, len(palette), solver, verify, lazy_top, refresh_every, threads)
    run = _Run(shape, cost, original, quick, lean=max(polish, relocate) <= FAR_POLISH_ABOVE)
    state = run.judge(original.copy())
    # a picture line logic solves as it is needs no repair kernels: only
    # the others compile them, and the clock stops meanwhile
    if state.result.status != LineStatus.SOLVED and not hexagon:
        kernels.ready(kernels.REPAIR)
    state, fallback_lines = _greedy_and_fallback(run, state, user_locked, progress)
    counts = {"fallback_lines": fallback_lines, "reverted": 0, "polish_rounds": 0, "relocated": 0}
    if revert and (fallback_lines == 0 or run.shape.revert_after_fallback):
        # quick: a revert pass in proportion to the work before it (docs/decisions.md, "At scale")
        spent = run.work()
        budget = spent + int(max(QUICK_REVERT_SHARE * spent, QUICK_REVERT_CELL * original.size)) if run.quick else None
        state, counts["reverted"] = run.revert(state, np.flatnonzero(state.grid != original), revert_progress, budget)
        # a far grid at the default effort: likeness as good without them (docs/decisions.md, "At scale")
        if run.shape.certificates and not run.lean:
            state = _polish_and_relocate(
                run, state, user_locked, counts, polish=polish, seed=seed, relocate=relocate, pairs=pairs,
                polish_progress=polish_progress, revert_progress=revert_progress,
                relocate_progress=relocate_progress,
            )  # fmt: skip
    result = run.shape.final_solve(run, state)
    if result.status != LineStatus.SOLVED:  # pragma: no cover - a grid's own clues cannot contradict
        msg = f"refinement ended in state {result.status!r}"
        raise UnsolvableError(msg)
    if progress is not None:
        progress(0)
    board = hexagon or Rectangle(original.shape[1], original.shape[0])
    return Refinement(
        grid=state.grid, puzzle=board.puzzle(state.grid, palette), changed=state.grid != original,
        iterations=run.iterations, evaluations=run.evaluations, line_solves=run.line_solves, sweeps=result.sweeps,
        seconds=clock.seconds(), result=result, estimates=run.estimates, **counts,
    )  # fmt: skip


#: the most threads :func:`default_threads` gives a refinement
THREADS_MOST = 4


def check_threads(threads: int | None) -> int:
    """``threads`` as a number of threads (None: :func:`default_threads`).

    Raises
    ------
    OptionError
        Not a whole number of at least 1.
    """
    if threads is None:
        return default_threads()
    if not is_whole(threads) or threads < 1:
        msg = f"threads must be a whole number of at least 1, not {threads!r}"
        raise OptionError(msg)
    return int(threads)


def default_threads() -> int:
    """Threads a refinement splits its estimates between when not told: the
    processors this process may run on, at most ``THREADS_MOST``."""
    from rofl.kernels import processors

    return max(1, min(processors(), THREADS_MOST))


#: times a large grid's greedy pass reopens the changed cells it stalled on
LARGE_REOPEN = 4


def _hexagon(board: Any):
    """``board`` if it is a hexagon, None for a rectangle (None or a
    :class:`~rofl.puzzle.Rectangle`)."""
    if board is None or board.kind == "rectangle":
        return None
    return board


def _checked(grid, k: int, hexagon, cost, locked, polish: float, relocate: int):
    """The grid (uint8, a copy), its cost and locked cells, checked."""
    original = np.asarray(grid)
    if hexagon is not None and original.shape != hexagon.grid_shape:
        msg = f"a {hexagon.size_text()} has {hexagon.n_cells} cells, not an array of shape {original.shape}"
        raise PuzzleError(msg)
    if hexagon is None and (original.ndim != 2 or original.size == 0):
        msg = f"refine needs a non-empty (H, W) grid, not shape {original.shape}"
        raise PuzzleError(msg)
    if original.size and (original.min() < 0 or original.max() >= k):
        msg = f"grid values must be palette indices 0..{k - 1}"
        raise PuzzleError(msg)
    work = original.astype(np.uint8, copy=True)
    cost = default_cost(work, k) if cost is None else np.asarray(cost, dtype=np.float64)
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
    return work, cost, user_locked


def _shape(hexagon, work: np.ndarray, k: int, solver, verify, lazy_top: int, refresh_every: int, threads: int):
    """The shape's adapter for the passes."""
    if hexagon is not None:
        from rofl.refine.hexagon import VERIFY, HexLines

        return HexLines(hexagon.side, k, verify=VERIFY if verify is None else verify)
    if solver is None:
        # A large grid's line solves outgrow the default cache (docs/decisions.md,
        # "At scale"); a small one's leave most of it untouched, and the
        # fresh memory pages they do touch cost more than the line solves a
        # smaller cache repeats: at 40x27 (about 50 000 lines solved, the
        # rest of 350 000 from the cache) a 1 MB cache makes the cat's
        # ``lines`` refinement 0.03 s quicker than the default 64 MB, at
        # 100x100 0.08 s, with the same results (the cache changes no answer).
        cache_mb = LARGE_CACHE_MB if work.size > LARGE_CELLS else max(1.0, CACHE_MB_PER_CELL * work.size)
        solver = LineSolver(cache_mb=cache_mb)
    verify = 12 if verify is None else verify
    return RectLines(
        solver, work.shape, k, verify=verify, lazy_top=lazy_top, refresh_every=refresh_every, threads=threads
    )


def _greedy_and_fallback(run: _Run, state: _State, user_locked: np.ndarray, progress) -> tuple[_State, int]:
    """The greedy pass, then the fallback until line logic solves the grid
    (on a hexagon, the greedy pass again after each blanked line): the
    state and the lines blanked."""
    frozen = user_locked.copy()
    state = run.greedy(state, frozen, progress)
    if run.large:
        state = _reopen_stuck(run, state, frozen, user_locked, progress)
    lines = 0
    while state.result.status == LineStatus.STALLED:
        state = run.fallback(state, user_locked, frozen)
        lines += 1
        if run.shape.greedy_after_fallback:
            state = run.greedy(state, frozen, progress)
    return state, lines


def _reopen_stuck(run: _Run, state: _State, frozen: np.ndarray, user_locked: np.ndarray, progress) -> _State:
    """On a large grid, the greedy pass again where it stalled only because
    every undetermined cell is one it changed already (and so froze): those
    cells are opened once more, at most ``LARGE_REOPEN`` times.

    Such a stall is typically a swap of four changed cells that line logic
    cannot tell from its mirror image.  The fallback would settle it by
    blanking whole lines, with no revert pass after: the camera at 400
    (`lines` style) ended with 17,887 cells changed instead of about 1,300
    (docs/decisions.md, "At scale").  On a small grid the fallback stays as
    it was."""
    for _ in range(LARGE_REOPEN):
        if state.result.status != LineStatus.STALLED:
            break
        stuck = ~state.result.known & frozen & ~user_locked
        if not stuck.any():
            break
        frozen[stuck] = False
        state = run.greedy(state, frozen, progress)
    return state


def _polish_and_relocate(
    run: _Run, state: _State, user_locked: np.ndarray, counts: dict[str, int], *, polish: float, seed: int,
    relocate: int, pairs: bool, polish_progress, revert_progress, relocate_progress,
) -> _State:  # fmt: skip
    """Polishing, then relocation, each followed by a revert pass where it
    may have left changes that could go back: the state; ``counts`` gets
    the changes put back, the repair attempts and the changes moved.

    On a grid of more than ``LARGE_CELLS`` cells polishing and relocation
    also stop at a budget of line solves: ``max(polish, relocate)`` times
    ``LARGE_AFTER_SHARE`` of those the greedy and revert passes made, or
    ``LARGE_AFTER_CELL`` a cell if that is more (polishing at most
    ``LARGE_POLISH_PART`` of it) -- a count too, not seconds."""
    original, size = run.original, run.original.size
    # On a large grid polishing and relocation get a budget of work, a
    # share of what the greedy and revert passes took (docs/decisions.md,
    # "At scale"); on a small one they run to their own ends.
    polish_budget = relocate_budget = None
    if size > LARGE_CELLS:
        spent = run.work()
        allowed = max(polish, relocate) * max(LARGE_AFTER_SHARE * spent, LARGE_AFTER_CELL * size)
        polish_budget = int(spent + LARGE_POLISH_PART * allowed)
        relocate_budget = int(spent + allowed)
    if polish > 0:
        polished, counts["polish_rounds"] = run.polish(
            state, user_locked, polish, seed, polish_progress, budget=polish_budget
        )
        if polished is not state:
            # Polishing reverts near its repairs only: one last full pass
            # leaves no change that could go back on its own.
            state, more = run.revert(polished, np.flatnonzero(polished.grid != original), revert_progress)
            counts["reverted"] += more
    if relocate > 0:
        state, counts["relocated"] = run.relocate(
            state, user_locked, relocate, relocate_progress, pairs=pairs, budget=relocate_budget
        )
        if counts["relocated"] and size > LARGE_CELLS:
            # there a swap's revert pass tries only the changes near it
            state, more = run.revert(state, np.flatnonzero(state.grid != original), revert_progress)
            counts["reverted"] += more
    return state


def unique_line_solvable(puzzle: Puzzle, solver: LineSolver | None = None) -> bool:
    """Whether line logic alone solves ``puzzle`` (which proves it unique)."""
    return (solver or LineSolver(cache_mb=0)).solve(puzzle).status == LineStatus.SOLVED


__all__ = ["Refinement", "refine", "unique_line_solvable"]
