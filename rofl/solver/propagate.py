"""Line logic over a whole puzzle: the public wrappers of the compiled kernels.

:func:`solve` is the one-shot call.  :class:`LineSolver` keeps its work
buffers and a cache of line results between calls, for callers that solve
many similar puzzles (the generator changes one or two clues at a time) or
resume from an earlier state (probing in the complete solver).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from rofl.errors import PuzzleError
from rofl.puzzle import Puzzle

STATUS_NAMES = ("solved", "stalled", "contradiction")


def full_mask(n_colors: int) -> int:
    """The int64 mask with bits ``0..n_colors-1`` set (``-1`` for 64 colours)."""
    return -1 if n_colors >= 64 else (1 << n_colors) - 1


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
    status : {"solved", "stalled", "contradiction"}
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
    status: str
    masks: np.ndarray = field(repr=False)
    line_solves: int
    sweeps: int
    cache_hits: int = 0
    cache_misses: int = 0
    bad_line: int | None = None

    @property
    def solved(self) -> bool:
        return self.status == "solved"

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
        return masks_to_grid(self.masks) if self.status == "solved" else None

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
        Memory for the line cache (0 disables it), and for a memo of
        arrangement counts an eighth its size (refinement's estimates).
        Entries are keyed by the clue and the line's current masks, so they
        stay valid across puzzles: a puzzle that differs from an earlier one
        in a few clues re-solves mostly from the cache.
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
        # A smaller memo of arrangement counts (log) for refinement's
        # estimates, keyed the same way: 1/8 of the budget.
        memo = 1
        while use and memo * 2 <= entries // 8:
            memo *= 2
        self._memo_tag = np.zeros((memo, 3), dtype=np.int64)
        self._memo_io = np.zeros((memo, width), dtype=dtype)
        self._memo_val = np.zeros(memo, dtype=np.float64)

    def _work(self) -> tuple:
        """Work buffers and cache tables, in the order the kernels take them."""
        return (
            self._run,
            self._fwd,
            self._bwd,
            self._cache_tag,
            self._cache_io,
            self._use_cache,
        )

    def clear_cache(self) -> None:
        self._cache_tag[:] = 0
        self._memo_tag[:] = 0

    def prepare(self, kmax: int, masks: np.ndarray) -> None:
        """Size the work buffers and the cache for clues of up to ``kmax``
        groups per line and a state ``masks`` (only narrowed from here on)."""
        wide = bool((masks & ~np.int64(0xFF)).any())
        self._buffers(kmax, max(masks.shape), wide)

    def _buffers(self, kmax: int, nmax: int, wide: bool = False) -> None:
        if kmax > self._kmax or nmax > self._nmax:
            self._kmax = max(kmax, self._kmax, 1)
            self._nmax = max(nmax, self._nmax)
            self._run = np.empty((self._kmax, self._nmax + 1), dtype=np.int64)
            self._fwd = np.empty((self._kmax + 1, self._nmax + 2), dtype=np.uint8)
            self._bwd = np.empty((self._kmax + 1, self._nmax + 2), dtype=np.uint8)
        if self.cache_mb > 0 and (nmax > self._cache_n or (wide and not self._cache_wide)):
            self._alloc_cache(max(nmax, self._cache_n), wide or self._cache_wide)

    def solve(
        self,
        puzzle: Puzzle,
        *,
        start: np.ndarray | None = None,
        lines: Iterable[int] | None = None,
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

        Returns
        -------
        SolveResult
        """
        packed = _packed(puzzle)
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
        return self.run(packed, masks, queue, puzzle=puzzle)

    def run(self, packed: Packed, masks: np.ndarray, queue: np.ndarray | None = None, *, puzzle=None) -> SolveResult:
        """Propagate in place on ``masks`` (``(H, W)`` int64, C order) for packed clues.

        The unchecked fast path behind :meth:`solve`, for callers (refinement,
        search) that already hold :class:`Packed` clues and valid masks.
        """
        from rofl.solver import _kernels as k

        if queue is None:
            queue = np.arange(sum(masks.shape), dtype=np.int64)
        self.prepare(packed.kmax, masks)
        stats = np.zeros(k.N_STATS, dtype=np.int64)
        status = k._propagate(
            masks,
            *packed.clues,
            queue,
            *self._work(),
            stats,
        )
        return self._result(status, masks, stats, puzzle)

    def _result(self, status: int, masks: np.ndarray, stats: np.ndarray, puzzle: Puzzle | None) -> SolveResult:
        """A kernel's outcome as a :class:`SolveResult`; counts its cache hits and misses."""
        from rofl.solver import _kernels as k

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

    def replay(
        self,
        packed: Packed,
        shape: tuple[int, int],
        n_colors: int,
        base: Trajectory | None,
        changed: np.ndarray | None,
        *,
        room: int | None = None,
    ) -> tuple[SolveResult, Trajectory | None]:
        """Line logic from nothing known, replaying the recorded solve ``base``
        of a similar puzzle: the lines whose clue is unchanged and whose cells
        are as they were in that solve take its recorded results without
        solving anything.  Same fixpoint as :meth:`run` from full masks
        (``sweeps`` is 0: no generations here); see ``_kernels._replay``.

        Parameters
        ----------
        packed : Packed
            The puzzle's clues.
        shape : (H, W)
        n_colors : int
        base : Trajectory or None
            A recorded solve of a puzzle of the same shape and colours (None:
            solve every line).
        changed : (H + W,) bool array
            Lines whose clue may differ from ``base``'s puzzle (ignored
            without ``base``).
        room : int, optional
            Cell changes the record of this solve may hold; by default
            ``min(K - 1, 8)`` per cell, which only a solve of more than 9
            colours can exceed.

        Returns
        -------
        SolveResult, and the record of this solve (None if it did not fit
        its room).
        """
        from rofl.solver import _kernels as k

        height, width = shape
        masks = np.full(shape, full_mask(n_colors), dtype=np.int64)
        if base is None:
            base = Trajectory.empty()
            changed = np.ones(height + width, dtype=bool)
        self.prepare(packed.kmax, masks)
        capacity = height * width * max(1, min(n_colors - 1, 8)) if room is None else room
        # every visit but the first of each line follows a cell change
        out_line = np.empty(capacity + height + width, dtype=np.int64)
        out_start = np.empty(capacity + height + width + 1, dtype=np.int64)
        out_cell = np.empty(capacity, dtype=np.int64)
        out_mask = np.empty(capacity, dtype=np.int64)
        stats = np.zeros(k.N_STATS, dtype=np.int64)
        status = k._replay(
            masks,
            *packed.clues,
            np.ascontiguousarray(changed, dtype=np.bool_),
            base.line,
            base.start,
            base.cell,
            base.mask,
            out_line,
            out_start,
            out_cell,
            out_mask,
            *self._work(),
            stats,
        )
        result = self._result(status, masks, stats, None)  # the kernel counts 0 sweeps
        visits = int(stats[k.ST_TRAIL])
        if visits < 0:
            return result, None
        n_set = int(out_start[visits])
        record = Trajectory(out_line[:visits], out_start[: visits + 1], out_cell[:n_set], out_mask[:n_set])
        return result, record

    def resume_certificate(
        self,
        grid: np.ndarray,
        near_grid: np.ndarray,
        near_packed: Packed,
        original: np.ndarray,
        certificate: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
        limit: int,
    ) -> SolveResult | None:
        """For refinement: propagate ``grid``'s clues from a stalled fixpoint
        of a grid near it (a certificate), instead of from nothing known.

        Parameters
        ----------
        grid : (H, W) uint8 array
        near_grid : (H, W) uint8 array
            A grid whose clues ``near_packed`` holds; ``grid``'s are derived
            from them, only the rows and columns where the two differ anew.
        original : (H, W) uint8 array
        certificate : (diff, colours, open_cells, open_masks)
            The other grid: ``original`` with the flat cells ``diff`` set to
            ``colours``; its fixpoint: every cell determined to that grid's
            colour except the flat cells ``open_cells``, which have
            ``open_masks``.  Where ``grid`` differs from that grid, the cell
            gets ``grid``'s colour too, and its row and column are queued.
        limit : int
            Give up (None) when ``grid`` differs from the certificate's grid
            in more cells than this.

        Returns
        -------
        SolveResult or None
            A fixpoint of ``grid``'s puzzle that contains ``grid`` (so
            narrower than or equal to the one line logic reaches from
            nothing known).  None past ``limit``, or when a line of ``grid``
            has more than two groups more than ``near_packed``'s longest
            clue: the work buffers are sized for grids that differ from
            ``near_grid`` in one cell.
        """
        from rofl.solver import _kernels as k

        # A changed cell can split a group in three: two more groups per line.
        wide = int(grid.max()) >= 8 or int(original.max()) >= 8 or bool((certificate[3] & ~np.int64(0xFF)).any())
        self._buffers(near_packed.kmax + 2, max(grid.shape), wide)
        masks = np.empty(grid.shape, dtype=np.int64)
        stats = np.zeros(k.N_STATS, dtype=np.int64)
        status = k._resume_certificate(
            grid, near_grid, *near_packed.clues, original.ravel(), *certificate, limit, *self._work(), stats, masks
        )
        if status < 0:
            return None
        return self._result(status, masks, stats, None)

    def estimate_moves(
        self, grid: np.ndarray, masks: np.ndarray, packed: Packed, moves: np.ndarray, counts: bool = True
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """For refinement: how many cells each single-cell change would newly determine.

        Parameters
        ----------
        grid : (H, W) uint8 array
            The current picture; ``packed`` holds its clues.
        masks : (H, W) int64 array
            Line logic's stalled fixpoint for those clues.
        moves : (M, 3) int64 array of ``(row, col, colour)``
            Each colour must still be possible in its cell's mask.
        counts : bool
            Whether to work out ``entropy`` (about a tenth of the time; all
            zeros without it).

        Returns
        -------
        newly : (M,) int64 array
            Cells newly determined by resuming from ``masks`` with the
            changed clues -- an optimistic estimate (see
            ``_kernels._estimate_moves``); judge the winner with a full solve.
        status : (M,) int64 array
            0 solved, 1 stalled, 2 contradiction, per move.
        entropy : (M,) float64 array
            Change of ``log(arrangements)`` of the changed row plus column
            (after propagation): negative when the move tightens them.
        """
        from rofl.solver import _kernels as k

        # Recolouring the middle of a group splits it in three: room for two
        # more groups per line.
        self.prepare(packed.kmax + 2, masks)
        newly = np.zeros(len(moves), dtype=np.int64)
        status = np.zeros(len(moves), dtype=np.int64)
        entropy = np.zeros(len(moves), dtype=np.float64)
        totals = np.zeros(3, dtype=np.int64)
        k._estimate_moves(
            grid,
            masks,
            *packed.clues,
            np.ascontiguousarray(moves, dtype=np.int64).reshape(-1, 3),
            *self._work(),
            self._memo_tag,
            self._memo_io,
            self._memo_val,
            newly,
            status,
            entropy,
            totals,
            counts,
        )
        self.line_solves_estimated = getattr(self, "line_solves_estimated", 0) + int(totals[0])
        self.hits += int(totals[1])
        self.misses += int(totals[2])
        return newly, status, entropy


@dataclass(frozen=True)
class Trajectory:
    """A recorded line-logic solve (see :meth:`LineSolver.replay`): visit
    ``v`` solved line ``line[v]`` and set the flat cells
    ``cell[start[v]:start[v + 1]]`` to ``mask[start[v]:start[v + 1]]``
    (none when it deduced nothing)."""

    line: np.ndarray
    start: np.ndarray
    cell: np.ndarray
    mask: np.ndarray

    @classmethod
    def empty(cls) -> Trajectory:
        none = np.zeros(0, dtype=np.int64)
        return cls(none, np.zeros(1, dtype=np.int64), none, none)


@dataclass(frozen=True)
class Packed:
    """Clues in the kernels' types: writable int64 flat arrays plus a hash per line."""

    lens: np.ndarray
    cols: np.ndarray
    offs: np.ndarray
    clue_hash: np.ndarray
    kmax: int

    @property
    def clues(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """``(lens, cols, offs, clue_hash)``, in the order the kernels take them."""
        return self.lens, self.cols, self.offs, self.clue_hash

    @classmethod
    def from_arrays(cls, lens: np.ndarray, cols: np.ndarray, offs: np.ndarray) -> Packed:
        from rofl.solver import _kernels as k

        counts = np.diff(offs)
        return cls(
            lens=lens,
            cols=cols,
            offs=offs,
            clue_hash=k._clue_hashes(lens, cols, offs, len(offs) - 1),
            kmax=int(counts.max()) if counts.size else 0,
        )

    @classmethod
    def from_grid(cls, grid: np.ndarray) -> Packed:
        """Clues of an ``(H, W)`` grid (compiled, unvalidated: the caller
        guarantees palette indices)."""
        from rofl.solver import _kernels as k

        return cls.from_arrays(*k._grid_clues(np.ascontiguousarray(grid, dtype=np.uint8)))


_PACK_CACHE: dict[int, tuple[Puzzle, Packed]] = {}


def _packed(puzzle: Puzzle) -> Packed:
    """The clue arrays of ``puzzle`` in the kernels' types, memoised per puzzle."""
    hit = _PACK_CACHE.get(id(puzzle))
    if hit is not None and hit[0] is puzzle:
        return hit[1]
    packed = Packed.from_arrays(
        puzzle.lengths.astype(np.int64), puzzle.colors.astype(np.int64), puzzle.offsets.astype(np.int64)
    )
    if len(_PACK_CACHE) > 64:
        _PACK_CACHE.clear()
    _PACK_CACHE[id(puzzle)] = (puzzle, packed)
    return packed


# One default solver per thread: the kernels release the GIL and write to the
# solver's work buffers, so threads must not share one.
_DEFAULT = threading.local()


def solve(puzzle: Puzzle, *, start: np.ndarray | None = None, lines: Iterable[int] | None = None) -> SolveResult:
    """Solve ``puzzle`` by line logic alone (propagation, no guessing).

    A thin wrapper over a :class:`LineSolver` without a cache (one per
    thread, so threads may call it at once); see :meth:`LineSolver.solve`
    for the parameters.

    Returns
    -------
    SolveResult
        ``status`` is ``"solved"`` (``grid`` holds the picture),
        ``"stalled"`` (line logic can go no further; ``masks`` tells what is
        known) or ``"contradiction"`` (the clues have no solution).
    """
    solver = getattr(_DEFAULT, "solver", None)
    if solver is None:
        solver = _DEFAULT.solver = LineSolver(cache_mb=0)
    return solver.solve(puzzle, start=start, lines=lines)
