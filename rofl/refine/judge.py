"""Judging candidate grids fast: the line-logic work refinement adds to the solver.

:class:`Judge` wraps a :class:`~rofl.solver.LineSolver` (its work buffers
and line cache) with what only refinement needs, each backed by a compiled
kernel (:mod:`rofl.kernels`):

* :meth:`Judge.replay`: line logic from nothing known, replaying the
  recorded solve (:class:`Trajectory`) of a similar grid;
* :meth:`Judge.estimate_moves`: how many cells each single-cell change
  would newly determine, with a memo of arrangement counts
  (:class:`rofl.kernels.refine_structs.CountMemo`), a large batch of moves
  split between threads (each with its own solver and memo: the same
  answers, sooner);
* :meth:`Judge.resume_certificate`: propagation from a stalled fixpoint
  of a nearby grid (a failure certificate).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import NamedTuple

import numpy as np

from rofl import kernels
from rofl.kernels import structs as k
from rofl.kernels.refine_structs import CountMemo
from rofl.packed import PackedClues
from rofl.solver.line_logic import LineSolver, SolveResult, full_mask, kernel_clues

#: the fewest moves each thread of a split estimate takes: below this a
#: thread's start and the copies of the grid and masks cost more than the
#: share of the batch it takes (a 400-cell move takes about 20 µs)
SPLIT_MOVES = 512
#: the line cache of each helper thread's solver (the calling thread's
#: solver keeps its own, larger one)
HELPER_CACHE_MB = 64


class Trajectory(NamedTuple):
    """A recorded line-logic solve (see :meth:`Judge.replay`): visit ``v``
    narrowed line ``line[v]`` and set the flat cells
    ``cell[start[v]:start[v + 1]]`` to ``mask[start[v]:start[v + 1]]``
    (none when it deduced nothing).  A negative ``line[v]`` is ``~line``: a
    weak visit, which narrowed the line soundly but short of its fixpoint.
    All int64."""

    line: np.ndarray
    start: np.ndarray
    cell: np.ndarray
    mask: np.ndarray

    @classmethod
    def empty(cls) -> Trajectory:
        none = np.zeros(0, dtype=np.int64)
        return cls(none, np.zeros(1, dtype=np.int64), none, none)


def grid_clues(grid: np.ndarray) -> PackedClues:
    """Clues of an ``(H, W)`` grid (compiled, unvalidated: the caller
    guarantees palette indices)."""
    return PackedClues(*kernels.grid_clues(np.ascontiguousarray(grid, dtype=np.uint8)))


#: A grid whose clues differ from a known grid's in more lines than this
#: gets its clues derived whole (:func:`grid_clues`) rather than patched.
PATCH_LINES = 16


#: Patching one line's clues (:func:`patched_clues`) costs about as much
#: as deriving this many cells' whole (:func:`grid_clues`, compiled).
WHOLE_CELLS = 2000


def patched_clues(grid: np.ndarray, near: PackedClues, lines: np.ndarray) -> PackedClues:
    """Clues of ``grid`` from ``near``, the clues of a grid that differs
    from it only in rows and columns ``lines`` (flags, ``(H + W,)``, rows
    first): those lines derived anew, the others copied.  The same value as
    :func:`grid_clues` of ``grid``, without a pass over every cell (2 ms a
    grid at 400x400).  A grid of fewer than ``WHOLE_CELLS`` cells a changed
    line gets its clues derived whole: there the pass costs less than the
    patching (about 30 us against 25 us a line at 40x27)."""
    flags = np.asarray(lines, dtype=bool)
    if grid.size < WHOLE_CELLS * np.count_nonzero(flags):
        return grid_clues(grid)
    return _patched(grid, near, flags)


def _patched(grid: np.ndarray, near: PackedClues, lines: np.ndarray) -> PackedClues:
    """:func:`patched_clues` by patching, whatever the cost."""
    height = grid.shape[0]
    lens, cols, offs = near.lens, near.cols, near.offs
    pieces_lens, pieces_cols, counts = [], [], np.diff(offs)
    done = 0  # groups of near copied so far
    for line in np.flatnonzero(lines).tolist():
        pieces_lens.append(lens[done : offs[line]])
        pieces_cols.append(cols[done : offs[line]])
        done = int(offs[line + 1])
        cells = grid[line] if line < height else grid[:, line - height]
        # the runs' bounds: where the colour changes, and both ends
        n = cells.size
        bound = np.ones(n + 1, dtype=bool)
        np.not_equal(cells[1:], cells[:-1], out=bound[1:n])
        bounds = bound.nonzero()[0].astype(np.int64)
        starts = bounds[:-1]
        colour = cells[starts].astype(np.int64)
        ink = colour != 0
        pieces_lens.append((bounds[1:] - starts)[ink])
        pieces_cols.append(colour[ink])
        counts[line] = int(np.count_nonzero(ink))
    pieces_lens.append(lens[done:])
    pieces_cols.append(cols[done:])
    new_offs = np.zeros_like(offs)
    np.cumsum(counts, out=new_offs[1:])
    return PackedClues(np.concatenate(pieces_lens), np.concatenate(pieces_cols), new_offs)


class Judge:
    """Refinement's line logic over a :class:`~rofl.solver.LineSolver`.

    Parameters
    ----------
    solver : LineSolver
        Lends its work buffers and line cache (its ``hits`` and ``misses``
        count this judge's too).  Like the solver, a judge belongs to one
        thread.
    threads : int
        Threads :meth:`estimate_moves` may split a large batch of moves
        between (the calling one included); each other thread gets its own
        judge and solver (a line cache of ``HELPER_CACHE_MB``).  The
        answers do not depend on it.

    Attributes
    ----------
    line_solves_estimated : int
        Line solves spent by :meth:`estimate_moves`.
    """

    def __init__(self, solver: LineSolver, threads: int = 1) -> None:
        self.solver = solver
        self.threads = max(1, int(threads))
        self.line_solves_estimated = 0
        self._memo: CountMemo | None = None
        self._memo_for: np.ndarray | None = None
        self._helpers: list[Judge] = []  # made on the first split

    def _count_memo(self) -> CountMemo:
        """The memo of arrangement counts: an eighth of the line cache's
        entries, as wide; made again (empty) whenever the cache is."""
        _, cache = self.solver.work()
        if self._memo is None or self._memo_for is not cache.tag:
            memo = 1
            while cache.use and memo * 2 <= cache.tag.shape[0] // 8:
                memo *= 2
            width = cache.io.shape[1] // 2 if cache.use else 1
            self._memo = CountMemo(
                np.zeros((memo, 3), dtype=np.int64),
                np.zeros((memo, width), dtype=cache.io.dtype),
                np.zeros(memo, dtype=np.float64),
            )
            self._memo_for = cache.tag
        return self._memo

    def replay(
        self,
        packed: PackedClues,
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
        solving anything.  Same fixpoint as :meth:`LineSolver.run` from full
        masks (``sweeps`` is 0: no generations here); see
        ``_kernels._replay``.

        Parameters
        ----------
        packed : PackedClues
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
        height, width = shape
        masks = np.full(shape, full_mask(n_colors), dtype=np.int64)
        if base is None:
            base = Trajectory.empty()
            changed = np.ones(height + width, dtype=bool)
        # (the masks are full: wider than a byte with more than 8 colours)
        self.solver.reserve(packed.kmax, max(shape), n_colors > 8 and masks.size > 0)
        capacity = height * width * max(1, min(n_colors - 1, 8)) if room is None else room
        # every visit but the first of each line follows a cell change
        out = Trajectory(
            np.empty(capacity + height + width, dtype=np.int64),  # line
            np.empty(capacity + height + width + 1, dtype=np.int64),  # start
            np.empty(capacity, dtype=np.int64),  # cell
            np.empty(capacity, dtype=np.int64),  # mask
        )
        stats = np.zeros(k.N_STATS, dtype=np.int64)
        scratch, cache = self.solver.work()
        changed = np.ascontiguousarray(changed, dtype=np.bool_)
        status = kernels.replay(masks, *kernel_clues(packed), changed, *base, *out, *scratch, *cache, stats)
        result = self.solver.result(status, masks, stats)  # the kernel counts 0 sweeps
        visits = int(stats[k.ST_TRAIL])
        if visits < 0:
            return result, None
        n_set = int(out.start[visits])
        record = Trajectory(out.line[:visits], out.start[: visits + 1], out.cell[:n_set], out.mask[:n_set])
        return result, record

    def resume_certificate(
        self,
        grid: np.ndarray,
        near_grid: np.ndarray,
        near_packed: PackedClues,
        original: np.ndarray,
        certificate: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
        limit: int,
        settle: bool = False,
        wide: bool | None = None,
    ) -> SolveResult | None:
        """Propagate ``grid``'s clues from a stalled fixpoint of a grid near
        it (a certificate), instead of from nothing known.

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
        settle : bool
            A cell where ``grid`` differs from the certificate's grid, in no
            row or column with an open cell, starts determined to ``grid``'s
            colour (instead of allowing both) and counts for nothing towards
            ``limit``: only lines that cross the open cells are solved again
            (see ``_kernels._resume_certificate``).
        wide : bool, optional
            Whether a colour of 8 or more or a mask wider than a byte can
            occur in the grids or the certificate; worked out from them when
            not given (the caller may know it from its colour count, a check
            that a refinement's thousands of calls need not repeat).

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
        # A changed cell can split a group in three: two more groups per line.
        if wide is None:
            wide = int(grid.max()) >= 8 or int(original.max()) >= 8 or bool((certificate[3] & ~np.int64(0xFF)).any())
        self.solver.reserve(near_packed.kmax + 2, max(grid.shape), wide)
        masks = np.empty(grid.shape, dtype=np.int64)
        stats = np.zeros(k.N_STATS, dtype=np.int64)
        scratch, cache = self.solver.work()
        clues = kernel_clues(near_packed)
        status = kernels.resume_certificate(
            grid, near_grid, *clues, original.ravel(), *certificate, limit, settle, *scratch, *cache, stats, masks,
        )  # fmt: skip
        if status < 0:
            return None
        return self.solver.result(status, masks, stats)

    def estimate_moves(
        self, grid: np.ndarray, masks: np.ndarray, packed: PackedClues, moves: np.ndarray, counts: bool = True
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """How many cells each single-cell change would newly determine.

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
            :mod:`rofl.kernels._refine`); judge the winner with a full solve.
        status : (M,) int64 array
            0 solved, 1 stalled, 2 contradiction, per move.
        entropy : (M,) float64 array
            Change of ``log(arrangements)`` of the changed row plus column
            (after propagation): negative when the move tightens them.
        """
        moves = np.ascontiguousarray(moves, dtype=np.int64).reshape(-1, 3)
        parts = min(self.threads, len(moves) // SPLIT_MOVES)
        if parts <= 1:
            *answers, totals = self._estimate(grid, masks, packed, moves, counts)
        else:
            answers, totals = self._split_estimate(grid, masks, packed, moves, counts, parts)
        self.line_solves_estimated += int(totals[0])
        self.solver.hits += int(totals[1])
        self.solver.misses += int(totals[2])
        return answers[0], answers[1], answers[2]

    def _split_estimate(self, grid, masks, packed, moves, counts, parts):
        """:meth:`estimate_moves` of ``parts`` slices of ``moves``, the first
        in this thread, each other in a thread of its own with a helper
        judge (:meth:`_helper`)."""
        bounds = np.linspace(0, len(moves), parts + 1).astype(np.intp)
        # leaving the block waits for every thread: the helpers' buffers are free again only then
        with ThreadPoolExecutor(parts - 1, thread_name_prefix="rofl-estimate") as pool:
            # the helpers' copies: the kernel changes the grid and masks while it works, and puts them back
            others = [
                pool.submit(self._helper(i - 1)._estimate, grid.copy(), masks.copy(), packed, moves[lo:hi], counts)
                for i, (lo, hi) in enumerate(zip(bounds[1:-1], bounds[2:], strict=True), start=1)
            ]
            mine = self._estimate(grid, masks, packed, moves[: bounds[1]], counts)
            out = [mine, *(other.result() for other in others)]
        answers = [np.concatenate([result[j] for result in out]) for j in range(3)]
        return answers, np.sum([result[3] for result in out], axis=0)

    def _helper(self, i: int) -> Judge:
        """The ``i``-th helper judge, for work in another thread: a solver
        of its own, with a line cache of ``HELPER_CACHE_MB`` at most."""
        while len(self._helpers) <= i:
            self._helpers.append(Judge(LineSolver(cache_mb=min(HELPER_CACHE_MB, self.solver.cache_mb))))
        return self._helpers[i]

    def _estimate(self, grid, masks, packed, moves, counts):
        """One kernel call of :meth:`estimate_moves` on this judge's solver:
        ``(newly, status, entropy, totals)``, ``totals`` the line solves,
        cache hits and cache misses."""
        # Recolouring the middle of a group splits it in three: room for two
        # more groups per line.
        self.solver.prepare(packed.kmax + 2, masks)
        newly = np.zeros(len(moves), dtype=np.int64)
        status = np.zeros(len(moves), dtype=np.int64)
        entropy = np.zeros(len(moves), dtype=np.float64)
        totals = np.zeros(3, dtype=np.int64)
        scratch, cache = self.solver.work()
        kernels.estimate_moves(
            grid, masks, *kernel_clues(packed), moves, *scratch, *cache, *self._count_memo(),
            newly, status, entropy, totals, counts,
        )  # fmt: skip
        return newly, status, entropy, totals


__all__ = [
    "HELPER_CACHE_MB",
    "PATCH_LINES",
    "SPLIT_MOVES",
    "WHOLE_CELLS",
    "Judge",
    "Trajectory",
    "grid_clues",
    "patched_clues",
]
