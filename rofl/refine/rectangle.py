"""Refinement's view of a rectangle: the shape adapter (:class:`RectLines`)
that the one pass code (:mod:`rofl.refine.passes`) calls for what only a
rectangle does, and how.

A rectangle's grids are judged by the packed-clue kernels: a solve replays
the recorded solve of a similar grid (:meth:`~rofl.refine.judge.Judge.replay`),
an estimate of a move counts the cells it newly determines and how much it
cuts its row's and column's arrangements, and a failed revert leaves a
certificate that proves later ones fail without a solve.  Those make the
polishing and relocation passes affordable: they run on rectangles only.
"""

from __future__ import annotations

import numpy as np

from rofl.puzzle import Rectangle
from rofl.refine.judge import PATCH_LINES, Judge, grid_clues, patched_clues
from rofl.refine.passes import LARGE_PLATEAU_SHARE, _top
from rofl.solver.line_logic import STATUS_NAMES, LineSolver, full_mask
from rofl.solver.status import LineStatus

# the code Judge.estimate_moves gives a move whose estimate met a contradiction
CONTRADICTION = STATUS_NAMES.index(LineStatus.CONTRADICTION)


class RectLines:
    """A rectangle's kernels and greedy policy, for :class:`~rofl.refine.passes._Run`.

    Parameters
    ----------
    solver : LineSolver
        Lends its work buffers and line cache.
    shape : (H, W)
    k : int
        Palette size.
    verify, lazy_top, refresh_every : int
        See :func:`rofl.refine.refine`.
    threads : int
        Threads a large batch of estimates may be split between
        (:class:`~rofl.refine.judge.Judge`).
    """

    #: polishing, relocation and failure certificates need the replay kernels
    certificates = True
    #: a grid of more than LARGE_CELLS cells takes the large-grid path
    large_path = True
    #: the greedy pass counts rounds, and takes a plateau batch whenever a
    #: round gains nothing (the hexagon: only on a wide plateau)
    count_rounds = True
    wide_plateaus_only = False
    #: the fallback blanks any line (a row or a column), again and again
    #: until line logic solves the grid, and then no change goes back
    greedy_after_fallback = False
    revert_after_fallback = False
    #: the revert pass: the latest changes first, then the most visible;
    #: runs stop before a change known to fail, and one cut to a single
    #: change fails for good
    revert_latest_first = True
    skip_failed_in_runs = False
    retry_short_runs = False

    def __init__(
        self, solver: LineSolver, shape: tuple[int, int], k: int, *, verify, lazy_top, refresh_every, threads: int = 1
    ):
        self.solver = solver
        self.lines = Judge(solver, threads)  # replays, estimates and certificates over the solver's buffers
        self.grid_shape = shape
        self.n_cells = shape[0] * shape[1]
        self.n_lines = shape[0] + shape[1]
        self.fallback_lines = self.n_lines
        self.board = Rectangle(shape[1], shape[0])
        self.k = k
        self.full_masks = np.full(shape, full_mask(k), dtype=np.int64)
        self.verify = verify
        self.lazy_top = lazy_top
        self.refresh_every = refresh_every

    @property
    def line_cells(self) -> np.ndarray:
        """The board's index lines (rows, then columns): the fallback's."""
        return self.board.line_cells

    @property
    def line_offsets(self) -> np.ndarray:
        return self.board.line_offsets

    def plateau_most(self, large: bool) -> int:
        """The most moves a plateau round takes: one per row and column, on
        a large grid (:data:`~rofl.refine.passes.LARGE_CELLS`) at most
        ``LARGE_PLATEAU_SHARE`` of a side (docs/decisions.md, "At scale")."""
        shape = self.grid_shape
        return min(int(LARGE_PLATEAU_SHARE * min(shape)) if large else self.n_cells, *shape)

    def estimated(self) -> int:
        """Line solves spent estimating moves (counted in the work budgets)."""
        return self.lines.line_solves_estimated

    def judge(self, grid: np.ndarray, near=None):
        """The clues of ``grid`` and line logic's result on them, replaying
        ``near``'s recorded solve where the two puzzles agree: ``(clues,
        result, record)``."""
        base, changed = None, None
        if near is not None:
            diff = grid != near.grid
            changed = np.concatenate([diff.any(axis=1), diff.any(axis=0)])
            few = np.count_nonzero(changed) <= PATCH_LINES
            packed = patched_clues(grid, near.packed, changed) if few else grid_clues(grid)
            if near.record is not None:
                base = near.record
        else:
            packed = grid_clues(grid)
        result, record = self.lines.replay(packed, grid.shape, self.k, base, changed)
        return packed, result, record

    def final_solve(self, run, state):
        """A plain solve (first in, first out) of the final grid: replayed
        solves count no sweeps, and the difficulty figure needs them."""
        return self.solver.run(state.packed, self.full_masks.copy())

    def move_lines(self, where: np.ndarray) -> np.ndarray:
        """``(M, 2)``: the row and column (numbered ``H + j``) of each flat cell."""
        rows, cols = np.divmod(where, self.grid_shape[1])
        return np.stack([rows, cols + self.grid_shape[0]], axis=1)

    def estimate(self, state, where: np.ndarray, colours: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per move: the cells it newly determines (stored; :meth:`scores`
        turns them into what stays undetermined) and the change of the log
        of its row's and column's arrangements (negative: tightens them)."""
        rows, cols = np.divmod(where, self.grid_shape[1])
        moves = np.stack([rows, cols, colours], axis=1).astype(np.int64)
        newly, status, entropy = self.lines.estimate_moves(state.grid, state.result.masks, state.packed, moves)
        newly[status == CONTRADICTION] = -(10**9)  # cannot happen (see passes); never pick it
        return newly, entropy

    @staticmethod
    def scores(stored: np.ndarray, undetermined: int) -> np.ndarray:
        """What each move leaves undetermined, from its stored estimate."""
        return undetermined - stored

    def lazy(self, stored: np.ndarray) -> np.ndarray:
        """The moves estimated again between refreshes: the best earlier gains."""
        return _top(-stored, self.lazy_top)

    @staticmethod
    def plateau_candidates(order, scores, tie, undetermined) -> np.ndarray:
        """The moves a plateau batch takes from: those that gain nothing and
        tighten their row and column."""
        return order[(scores[order] >= undetermined) & (tie[order] < 0)]

    def refresh(self, *, batched: bool, gained: bool, n_moves: int, rounds: int) -> bool:
        """Whether the next round estimates every move again: stale
        estimates misled us when the round gained little."""
        return batched or not gained or rounds % self.refresh_every == 0


__all__ = ["RectLines"]
