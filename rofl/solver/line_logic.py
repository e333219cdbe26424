"""Line logic over a whole puzzle: the public wrappers of the compiled kernels.

:func:`solve` is the one-shot call.  :class:`LineSolver` keeps its work
buffers and a cache of line results between calls, for callers that solve
many similar puzzles (the generator changes one or two clues at a time) or
resume from an earlier state (probing in the complete solver).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from rofl.errors import BudgetError, PuzzleError
from rofl.linepuzzle import expect_puzzle
from rofl.packed import PackedClues
from rofl.puzzle import Puzzle
from rofl.solver.index_lines import full_mask, needs_lines, propagate_lines
from rofl.solver.status import LineStatus

if TYPE_CHECKING:
    from rofl.kernels.structs import Clues, LineCache, LineScratch

#: Line statuses by the kernels' codes (SOLVED, STALLED, CONTRADICTION).
STATUS_NAMES = (LineStatus.SOLVED, LineStatus.STALLED, LineStatus.CONTRADICTION)


def initial_masks(puzzle: Puzzle) -> np.ndarray:
    """``(H, W)`` int64 masks with every colour of the palette possible."""
    return np.full((puzzle.height, puzzle.width), full_mask(puzzle.n_colors), dtype=np.int64)


def masks_to_grid(masks: np.ndarray) -> np.ndarray:
    """Palette index of every single-bit mask, as an ``(H, W)`` uint8 array.

    Cells that are not determined get the lowest colour still possible.
    """
    low = (masks & -masks).view(np.uint64)  # lowest set bit, a power of two
    # log2 of a power of two is exact in float64 (up to 2**63)
    with np.errstate(divide="ignore"):
        idx = np.log2(low.astype(np.float64))
    return np.where(low == 0, 0, idx).astype(np.uint8)


def determined(masks: np.ndarray) -> np.ndarray:
    """Boolean ``(H, W)``: cells with exactly one colour left."""
    return (masks != 0) & ((masks & (masks - 1)) == 0)


@dataclass(eq=False)
class SolveResult:
    """What line logic found.

    Attributes
    ----------
    status : LineStatus
        ``"solved"``, ``"stalled"`` or ``"contradiction"`` (a string enum).
    masks : (H, W) int64 array
        Bit ``c`` of a cell is set when colour ``c`` is still possible.
    line_solves : int
        Lines solved (a difficulty figure; cache hits count too).
    sweeps : int
        Generations of the line queue: 1 when every line was solved once
        with nothing left to learn, more for puzzles that need lines to
        help each other back and forth.
    cache_hits, cache_misses : int
        Line results taken from the cache / computed.
    bad_line : int or None
        On a contradiction, the line (rows first, then columns) that had no
        arrangement left.
    """

    puzzle: Puzzle | None = field(repr=False)
    status: LineStatus
    masks: np.ndarray = field(repr=False)
    line_solves: int
    sweeps: int
    cache_hits: int = 0
    cache_misses: int = 0
    bad_line: int | None = None
    seconds: float = 0.0

    @property
    def solved(self) -> bool:
        return self.status == LineStatus.SOLVED

    @property
    def known(self) -> np.ndarray:
        """Boolean ``(H, W)``: cells line logic determined."""
        return determined(self.masks)

    @property
    def undetermined(self) -> int:
        """Number of cells with more than one colour left."""
        return int(self.masks.size - np.count_nonzero(self.known))

    @property
    def grid(self) -> np.ndarray | None:
        """The ``(H, W)`` uint8 picture when solved, else None."""
        return masks_to_grid(self.masks) if self.status == LineStatus.SOLVED else None

    def partial_grid(self, unknown: int = -1) -> np.ndarray:
        """``(H, W)`` int16 picture with ``unknown`` where a cell is undetermined."""
        grid = masks_to_grid(self.masks).astype(np.int16)
        grid[~self.known] = unknown
        return grid


class LineSolver:
    """Line-logic solver that keeps a cache of line results between calls.

    One instance must not be used by two threads at once (it owns the
    kernels' work buffers and the cache); give each thread its own.

    Parameters
    ----------
    cache_mb : float
        Memory for the line cache (0 disables it).  Entries are keyed by
        the clue and the line's current masks, so they stay valid across
        puzzles: a puzzle that differs from an earlier one in a few clues
        re-solves mostly from the cache.
    """

    def __init__(self, cache_mb: float = 64.0) -> None:
        self.cache_mb = float(cache_mb)
        self._kmax = -1
        self._nmax = -1
        self._cache_n = -1
        self._alloc_cache(1)
        self.hits = 0
        self.misses = 0

    def _alloc_cache(self, nmax: int, wide: bool = False) -> None:
        # Masks of puzzles with at most 8 colours fit in a byte: the cache then
        # stores bytes, holds 8 times as many lines and moves 8 times less
        # memory per lookup.  A wider puzzle switches it to int64 for good.
        itemsize = 8 if wide else 1
        entries = 1
        if self.cache_mb > 0:
            budget = int(self.cache_mb * 2**20) // (2 * itemsize * nmax + 32)
            while entries * 2 <= min(budget, 1 << 20):
                entries *= 2
        use = self.cache_mb > 0 and entries > 1
        width = nmax if use else 1
        self._use_cache = use
        self._cache_n = nmax
        self._cache_wide = wide
        dtype = np.int64 if wide else np.uint8
        # Per entry: (hash, clue hash, line length, "nothing deduced") in one
        # row, and the line's input then output masks in another: two memory
        # accesses, one when the line solve deduced nothing.
        self._cache_tag = np.zeros((entries, 4), dtype=np.int64)
        self._cache_io = np.zeros((entries, 2 * width), dtype=dtype)
        self._line_cache: LineCache | None = None  # made by work(), once per table

    def work(self) -> tuple[LineScratch, LineCache]:
        """The line DP's work arrays and the line cache, as the kernels take
        them (for compiled callers in other packages, e.g. refinement)."""
        cache = self._line_cache
        if cache is None:  # kept: a solve of a small puzzle takes tens of microseconds
            from rofl.kernels import structs as k

            cache = self._line_cache = k.LineCache(self._cache_tag, self._cache_io, self._use_cache)
        return self._scratch, cache

    def clear_cache(self) -> None:
        self._cache_tag[:] = 0

    def prepare(self, kmax: int, masks: np.ndarray) -> None:
        """Size the work buffers and the cache for clues of up to ``kmax``
        groups per line and a state ``masks`` (only narrowed from here on)."""
        wide = bool((masks & ~np.int64(0xFF)).any())
        self.reserve(kmax, max(masks.shape), wide)

    def reserve(self, kmax: int, nmax: int, wide: bool = False) -> None:
        """Size the work buffers for clues of up to ``kmax`` groups and lines
        of up to ``nmax`` cells, and the cache for masks wider than a byte
        when ``wide``.  Buffers only grow."""
        if kmax > self._kmax or nmax > self._nmax:
            from rofl.kernels import structs as k

            self._kmax = max(kmax, self._kmax, 1)
            self._nmax = max(nmax, self._nmax)
            self._scratch = k.LineScratch(
                run=np.empty((self._kmax, self._nmax + 1), dtype=np.int64),
                slot=np.empty(self._kmax, dtype=np.int64),
                gap=np.empty(self._kmax, dtype=np.int64),
                fwd=np.empty((self._kmax + 1, self._nmax + 2), dtype=np.uint8),
                bwd=np.empty((self._kmax + 1, self._nmax + 2), dtype=np.uint8),
                color_slot=np.empty(64, dtype=np.int64),
            )
        if self.cache_mb > 0 and (nmax > self._cache_n or (wide and not self._cache_wide)):
            self._alloc_cache(max(nmax, self._cache_n), wide or self._cache_wide)

    def solve(
        self,
        puzzle: Puzzle,
        *,
        start: np.ndarray | None = None,
        lines: Iterable[int] | None = None,
        budget: float | None = None,
    ) -> SolveResult:
        """Run line logic to its fixpoint.

        Parameters
        ----------
        puzzle : Puzzle
        start : (H, W) int64 array, optional
            Masks to start from (copied), e.g. an earlier state of the same
            puzzle with some cells narrowed.  The result is exact as long as
            ``start`` excludes nothing that the puzzle's solutions need.
            Default: every colour possible everywhere.
        lines : iterable of int, optional
            Lines to examine first (rows ``0..H-1``, then columns); default
            all.  When resuming, pass the lines whose cells changed.
        budget : float, optional
            Seconds line logic may take (default: no limit).  It is
            checked while the compiled loop runs, on puzzles of 2**16 cells
            and more; smaller ones take milliseconds and always finish.

        Returns
        -------
        SolveResult

        Raises
        ------
        BudgetError
            ``budget`` ran out before line logic reached its fixpoint.

        Ctrl-C stops line logic on a large puzzle within a fraction of a
        second (``KeyboardInterrupt``), as it does between kernel calls.
        """
        packed = puzzle.packed
        if start is None:
            masks = initial_masks(puzzle)
        else:
            masks = np.array(start, dtype=np.int64, order="C", copy=True)
            if masks.shape != (puzzle.height, puzzle.width):
                msg = f"start masks have shape {masks.shape}, the puzzle is {puzzle.height}x{puzzle.width}"
                raise PuzzleError(msg)
        if lines is None:
            queue = None
        else:
            queue = np.fromiter(lines, dtype=np.int64)
            if queue.size and (queue.min() < 0 or queue.max() >= puzzle.n_lines):
                msg = f"line indices must be within 0..{puzzle.n_lines - 1}"
                raise PuzzleError(msg)
        return self.run(packed, masks, queue, puzzle=puzzle, budget=budget)

    def run(
        self,
        packed: PackedClues,
        masks: np.ndarray,
        queue: np.ndarray | None = None,
        *,
        puzzle=None,
        budget: float | None = None,
    ) -> SolveResult:
        """Propagate in place on ``masks`` (``(H, W)`` int64, C order) for packed clues.

        The unchecked fast path behind :meth:`solve`, for callers (refinement,
        search) that already hold :class:`~rofl.puzzle.PackedClues` and valid
        masks.  On :class:`BudgetError` or ``KeyboardInterrupt``, ``masks``
        is left part of the way to the fixpoint (narrowed soundly).
        """
        from rofl.kernels import propagate
        from rofl.kernels import structs as k
        from rofl.solver._stop import run_stoppable, setting

        if queue is None:
            queue = np.arange(sum(masks.shape), dtype=np.int64)
        deadline = None if budget is None else time.monotonic() + budget
        self.prepare(packed.kmax, masks)
        stats = np.zeros(k.N_STATS, dtype=np.int64)
        scratch, cache = self.work()
        clues = kernel_clues(packed)
        status = run_stoppable(
            lambda: propagate(masks, *clues, queue, *scratch, *cache, stats),
            setting(stats, k.ST_STOP),
            cells=masks.size,
            deadline=deadline,
        )
        if status == k.STOPPED:
            height, width = masks.shape
            raise BudgetError(_over_budget(budget, width, height, int(stats[k.ST_LINE_SOLVES])))
        return self.result(status, masks, stats, puzzle)

    def result(self, status: int, masks: np.ndarray, stats: np.ndarray, puzzle: Puzzle | None = None) -> SolveResult:
        """A kernel's outcome (a status code and its ``stats`` array) as a
        :class:`SolveResult`; counts its cache hits and misses."""
        from rofl.kernels import structs as k

        self.hits += int(stats[k.ST_HITS])
        self.misses += int(stats[k.ST_MISSES])
        bad = int(stats[k.ST_BAD_LINE])
        return SolveResult(
            puzzle=puzzle,
            status=STATUS_NAMES[status],
            masks=masks,
            line_solves=int(stats[k.ST_LINE_SOLVES]),
            sweeps=int(stats[k.ST_SWEEPS]),
            cache_hits=int(stats[k.ST_HITS]),
            cache_misses=int(stats[k.ST_MISSES]),
            bad_line=bad if bad >= 0 else None,
        )


def kernel_clues(packed: PackedClues) -> Clues:
    """``packed`` as the kernels take it (:class:`~rofl.kernels.structs.Clues`),
    with every line's clue hash; derived once and kept in ``packed.extras``."""
    clues = packed.extras.get("kernel")
    if clues is None:
        from rofl.kernels import clue_hashes
        from rofl.kernels.structs import Clues

        lens, cols, offs = packed.lens, packed.cols, packed.offs
        hashes = clue_hashes(lens, cols, offs, len(offs) - 1)
        clues = packed.extras["kernel"] = Clues(lens, cols, offs[:-1], offs[1:], hashes)
    return clues


def _takes_fresh(puzzle: Puzzle, start=None, lines=None) -> bool:
    """Whether :func:`solve` takes the lean compiled path of
    :mod:`rofl.kernels._fresh`: a solve from scratch (no ``start``, no
    ``lines``)."""
    return start is None and lines is None


def line_kernels(puzzle: Puzzle, start=None, lines=None):
    """The kernel set that :func:`solve` of ``puzzle`` runs, for
    :func:`rofl.kernels.ready` before a clock starts."""
    from rofl.kernels import FRESH, INDEX, LINE

    if needs_lines(puzzle):
        return INDEX
    return FRESH if _takes_fresh(puzzle, start, lines) else LINE


def _solve_fresh(puzzle: Puzzle, budget: float | None = None) -> SolveResult:
    """:func:`solve` from scratch in one compiled call (no cache, no start),
    stopped at ``budget`` or on Ctrl-C (:func:`~rofl.solver._stop.run_stoppable`)."""
    from rofl.kernels import solve_fresh
    from rofl.kernels.structs import ALL_RULES, N_STATS, ST_STOP, STOPPED
    from rofl.solver._stop import run_stoppable, setting

    packed = puzzle.packed
    stats = np.zeros(N_STATS, dtype=np.int64)
    args = (puzzle.height, puzzle.width, full_mask(puzzle.n_colors), packed.lens, packed.cols, packed.offs, packed.kmax)
    deadline = None if budget is None else time.monotonic() + budget
    status, masks = run_stoppable(
        lambda: solve_fresh(*args, stats, ALL_RULES),
        setting(stats, ST_STOP),
        cells=puzzle.width * puzzle.height,
        deadline=deadline,
    )
    if status == STOPPED:
        raise BudgetError(_over_budget(budget, puzzle.width, puzzle.height, int(stats[0])))
    solves, sweeps, _, _, bad = stats[:5].tolist()
    return SolveResult(puzzle, STATUS_NAMES[status], masks, solves, sweeps, 0, solves, bad if bad >= 0 else None)


def _over_budget(budget: float, width: int, height: int, line_solves: int) -> str:
    """The message of line logic stopped at its budget."""
    return (
        f"line logic did not finish within the {budget:g} s budget on this {width}x{height} puzzle "
        f"({line_solves} line solves; try a larger --budget)"
    )


# One default solver per thread: the kernels release the GIL and write to the
# solver's work buffers, so threads must not share one.
_DEFAULT = threading.local()


def solve(
    puzzle: Puzzle,
    *,
    start: np.ndarray | None = None,
    lines: Iterable[int] | None = None,
    budget: float | None = None,
) -> SolveResult:
    """Solve ``puzzle`` by line logic alone (propagation, no guessing).

    A thin wrapper over a :class:`LineSolver` without a cache (one per
    thread, so threads may call it at once); see :meth:`LineSolver.solve`
    for the parameters.

    Returns
    -------
    SolveResult
        ``status`` (:class:`LineStatus`) is ``"solved"`` (``grid`` holds the picture),
        ``"stalled"`` (line logic can go no further; ``masks`` tells what is
        known) or ``"contradiction"`` (the clues have no solution).

    Raises
    ------
    TypeError
        ``puzzle`` is no puzzle (a path, a grid: open or build one first).
    BudgetError
        ``budget`` seconds ran out first.
    """
    from rofl import kernels

    expect_puzzle(puzzle, "rofl.solve")
    indexed = needs_lines(puzzle)  # hexagons and colour sets (issue 27)
    fresh = not indexed and _takes_fresh(puzzle, start, lines)
    kernels.ready(kernels.INDEX if indexed else kernels.FRESH if fresh else kernels.LINE)  # not in the budget
    began = time.perf_counter()
    if indexed:
        status, masks, (line_solves, sweeps, bad_line) = propagate_lines(puzzle, start, budget=budget)
        result = SolveResult(puzzle, STATUS_NAMES[status], masks, line_solves, sweeps, bad_line=bad_line)
    elif fresh:
        result = _solve_fresh(puzzle, budget)
    else:
        solver = getattr(_DEFAULT, "solver", None)
        if solver is None:
            solver = _DEFAULT.solver = LineSolver(cache_mb=0)
        result = solver.solve(puzzle, start=start, lines=lines, budget=budget)
    result.seconds = time.perf_counter() - began
    return result
