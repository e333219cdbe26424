"""Refinement's view of a hexagon: the shape adapter (:class:`HexLines`)
that the one pass code (:mod:`rofl.refine.passes`) calls for what only a
hexagon does, and how.

A hexagon's grids are judged by the compiled propagation over index lines
(:mod:`rofl.kernels._index`, kernel set :data:`~rofl.kernels._compile.INDEX`),
from nothing known each time (no replay), and a move is *estimated* by
resuming line logic from the stalled masks with the changed cell's three
lines queued under their new clues (:mod:`rofl.kernels._hexrefine`): the
stalled masks still hold the changed picture, so this never fails, and
since it starts below the top of the lattice it can only reach a narrower
fixpoint -- the estimate never determines fewer cells than the truth.

The greedy pass was tuned on hexagons apart from rectangles, and the
adapter keeps what was measured: between full refreshes only the
:data:`LAZY_TOP` best earlier estimates are estimated again; among equal
counts a move that leaves its three lines less slack (cells not covered by
groups and gaps: what the overlap rule needs to fire) and a less visible one
wins; a batch of moves on distinct lines, up to one per row, is taken only
on a *wide* plateau (most of the board undetermined), where single moves
are not even judged; the fallback blanks a row and the greedy pass goes on;
the revert pass tries the most visible changes first.  There are no
failure certificates, so polishing and relocation do not run on a hexagon.
"""

from __future__ import annotations

import numpy as np

from rofl.hexagon import Hexagon
from rofl.solver.propagate import STATUS_NAMES

#: Moves whose earlier estimates were best, estimated again between refreshes.
LAZY_TOP = 48
#: Rounds between full refreshes of every estimate.
REFRESH_EVERY = 3
#: Best-estimated moves judged by a full solve per round (at most).
VERIFY = 6
#: Above this many possible moves a full refresh of the estimates comes
#: proportionally less often, so that a round costs about as much as
#: estimating this many moves (a large textured board starts on a plateau
#: of ten thousand moves that each determine nothing).
REFRESH_MOVES = 4000


class HexResult:
    """Line logic's outcome on a hexagon's clues, as a pass reads it."""

    __slots__ = ("status", "masks", "undetermined", "line_solves", "sweeps")

    def __init__(self, status: int, masks: np.ndarray, line_solves: int, sweeps: int) -> None:
        self.status = STATUS_NAMES[status]
        self.masks = masks
        self.undetermined = int(np.count_nonzero(masks & (masks - 1)))
        self.line_solves = line_solves
        self.sweeps = sweeps

    @property
    def known(self) -> np.ndarray:
        return (self.masks & (self.masks - 1)) == 0


class HexLines:
    """A hexagon's kernels and greedy policy, for :class:`~rofl.refine.passes._Run`.

    Parameters
    ----------
    side : int
    k : int
        Palette size.
    verify : int
        Best-estimated moves judged by a full solve per round (at most).
    """

    certificates = False
    large_path = False
    #: the greedy pass counts changes (a plateau round makes several)
    count_rounds = False
    wide_plateaus_only = True
    lazy_top = LAZY_TOP
    #: the fallback blanks one of the rows (the first direction's lines)
    #: and the greedy pass goes on; the revert pass runs after it too
    greedy_after_fallback = True
    revert_after_fallback = True
    #: the revert pass: the most visible changes first, whatever their
    #: age; a pass leaves out the changes known to fail, and a run cut
    #: short by the end of the list is halved and tried again
    revert_latest_first = False
    skip_failed_in_runs = True
    retry_short_runs = True

    def __init__(self, side: int, k: int, *, verify: int = VERIFY) -> None:
        from rofl.solver.lines import full_mask, hex_board

        self.board = hex_board(side)
        self.hexagon = Hexagon.of(side)
        self.n_cells = self.hexagon.n_cells
        self.n_lines = self.hexagon.n_lines
        self.grid_shape = (self.n_cells,)
        self.line_cells, self.line_offsets = self.board.line_cells, self.board.line_offsets
        self.fallback_lines = 2 * side - 1
        self.full = np.int64(full_mask(k))
        self.all_lines = np.arange(self.n_lines, dtype=np.int64)
        self.verify = verify

    def plateau_most(self, large: bool) -> int:
        """The most moves a plateau round takes: one per row."""
        return 2 * self.hexagon.side - 1

    @staticmethod
    def estimated() -> int:
        return 0  # no budget counts a hexagon's work

    def judge(self, cells: np.ndarray, near=None):
        """Line logic from scratch on ``cells``' own clues: ``(clues, result, None)``."""
        from rofl.solver.lines import propagate_board

        clues = self.hexagon.clues_of(cells)
        masks = np.full(len(cells), self.full, dtype=np.int64)
        status, stats = propagate_board(self.board, clues, masks, self.all_lines)
        return clues, HexResult(int(status), masks, int(stats[0]), int(stats[1])), None

    @staticmethod
    def final_solve(run, state):
        """The difficulty figure: a plain solve, judged (and counted) as any other."""
        return run.judge(state.grid).result

    def move_lines(self, where: np.ndarray) -> np.ndarray:
        """``(M, 3)``: each flat cell's row, falling and rising diagonal."""
        return self.board.cell_lines.reshape(-1, 3)[where]

    def estimate(self, state, where: np.ndarray, colours: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """For each move (``where[i]`` to ``colours[i]``): the cells left
        undetermined when line logic resumes from ``state``'s masks with
        the changed cell's three lines queued under their new clues (never
        more than the truth), and the slack left on those lines per cell
        of a row (0-3)."""
        from rofl.kernels import hex_estimate_moves

        undetermined = np.empty(len(where), dtype=np.int64)
        slack = np.empty(len(where), dtype=np.int64)
        b = self.board
        hex_estimate_moves(
            state.result.masks, state.grid.astype(np.int64), b.line_cells, b.line_offsets, b.cell_lines,
            b.cell_offsets, *state.packed, where.astype(np.int64), colours.astype(np.int64), undetermined, slack,
        )  # fmt: skip
        return undetermined, slack / max(1, 2 * self.hexagon.side - 1)

    @staticmethod
    def scores(stored: np.ndarray, undetermined: int) -> np.ndarray:
        return stored

    @staticmethod
    def lazy(stored: np.ndarray) -> np.ndarray:
        """The moves estimated again between refreshes: those never
        estimated, then the best earlier estimates."""
        return np.argsort(stored, kind="stable")[:LAZY_TOP]

    @staticmethod
    def plateau_candidates(order, scores, tie, undetermined) -> np.ndarray:
        return order

    @staticmethod
    def refresh(*, batched: bool, gained: bool, n_moves: int, rounds: int) -> bool:
        """Above :data:`REFRESH_MOVES` moves a full refresh comes
        proportionally less often."""
        every = REFRESH_EVERY * max(1, -(-n_moves // REFRESH_MOVES))
        return (n_moves <= REFRESH_MOVES and not gained) or rounds % every == 0


__all__ = ["HexLines", "HexResult"]
