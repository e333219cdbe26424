"""Line logic and complete search over lines given as index sequences:
hexagonal puzzles, and puzzles of either shape with colour sets (``?``).

The rectangular solver (:mod:`rofl.solver.line_logic`, :mod:`rofl.solver.search`)
keeps its ``(H, W)`` kernels, tuned for the corpus; puzzles it cannot read
come here, where a board is its lines as lists of cells
(:class:`LineBoard`) and the cells' masks are flat.  :func:`rofl.solve`
and :func:`rofl.solve_complete` send them here themselves and wrap what
comes back in their usual results.

The search is depth-first over the cell with the fewest colours left, line
logic after every guess, in Python around the compiled propagation
(:mod:`rofl.kernels._index`): plain, and enough for the sizes people
solve; its answers are as sure as the rectangular search's (every solution
is checked against the clues, ``unique`` and ``none`` only after the whole
tree).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from rofl._cache import bytes_cache
from rofl.errors import PuzzleError
from rofl.hexagon import Hexagon, HexPuzzle
from rofl.solver._stop import Deadlines
from rofl.solver.status import SearchStatus


@dataclass(frozen=True, eq=False)
class LineBoard:
    """A board as lines over flat cells.

    ``line_cells[line_offsets[i]:line_offsets[i + 1]]`` are line ``i``'s
    cells in order; ``cell_lines[cell_offsets[c]:cell_offsets[c + 1]]`` the
    lines through cell ``c``; ``shape`` the shape of a solution array.
    """

    line_cells: np.ndarray
    line_offsets: np.ndarray
    cell_lines: np.ndarray
    cell_offsets: np.ndarray
    shape: tuple[int, ...]

    @property
    def n_cells(self) -> int:
        return len(self.cell_offsets) - 1


def full_mask(n_colors: int) -> int:
    """The int64 cell mask with bits ``0..n_colors-1`` set: every colour possible.

    Masks are int64 in the kernels; with 64 colours bit 63 is the sign bit,
    so the full mask is ``-1`` (``(1 << 64) - 1`` does not fit an int64).
    """
    return -1 if n_colors >= 64 else (1 << n_colors) - 1


def colour_bit(colour: int) -> int:
    """The int64 mask of colour ``colour`` alone, as a Python int that fits an
    int64 array: colour 63's bit is the sign bit, ``-(1 << 63)``."""
    return -(1 << 63) if colour == 63 else 1 << colour


def needs_lines(puzzle) -> bool:
    """Whether ``puzzle`` is solved here rather than by the rectangular kernels."""
    return isinstance(puzzle, HexPuzzle) or puzzle.color_sets is not None


def board_of(puzzle) -> LineBoard:
    """The :class:`LineBoard` of a puzzle of either shape (kept per size)."""
    if isinstance(puzzle, HexPuzzle):
        return hex_board(puzzle.side)
    return _rect_board(puzzle.height, puzzle.width)


#: Bytes of boards kept for reuse (a hexagon of side 1024's holds some 200 MB,
#: a 2048 x 2048 rectangle's 260 MB): see :func:`rofl._cache.bytes_cache`.
BOARD_CACHE_BYTES = 320 * 1024 * 1024


def _board_bytes(board: LineBoard) -> int:
    return sum(a.nbytes for a in (board.line_cells, board.line_offsets, board.cell_lines, board.cell_offsets))


@bytes_cache(BOARD_CACHE_BYTES, _board_bytes)
def hex_board(side: int) -> LineBoard:
    board = Hexagon.of(side)
    # every cell lies on one line of each direction: its row, its falling
    # and its rising diagonal, in that order (no sort of all the lines' cells)
    m, per = side - 1, 2 * side - 1
    q, r = board.coords[:, 0], board.coords[:, 1]
    cell_lines = np.empty((board.n_cells, 3), dtype=np.int64)
    np.add(r, m, out=cell_lines[:, 0])
    np.add(q, m + per, out=cell_lines[:, 1])
    np.add(q + r, m + 2 * per, out=cell_lines[:, 2])
    cell_offsets = np.arange(0, 3 * board.n_cells + 1, 3, dtype=np.int64)
    for a in (cell_lines, cell_offsets):
        a.flags.writeable = False
    return LineBoard(board.line_cells, board.line_offsets, cell_lines.reshape(-1), cell_offsets, (board.n_cells,))


@bytes_cache(BOARD_CACHE_BYTES, _board_bytes)
def _rect_board(height: int, width: int) -> LineBoard:
    cells = np.arange(height * width, dtype=np.int64).reshape(height, width)
    offsets = np.concatenate([[0], np.full(height, width), np.full(width, height)]).cumsum()
    return _board(np.concatenate([cells.ravel(), cells.T.ravel()]), offsets, (height, width))


def _board(line_cells: np.ndarray, line_offsets: np.ndarray, shape: tuple[int, ...]) -> LineBoard:
    n_cells = int(np.prod(shape))
    line_of = np.repeat(np.arange(len(line_offsets) - 1), np.diff(line_offsets))
    order = np.argsort(line_cells, kind="stable")
    cell_offsets = np.zeros(n_cells + 1, dtype=np.int64)
    np.cumsum(np.bincount(line_cells, minlength=n_cells), out=cell_offsets[1:])
    arrays = [np.ascontiguousarray(a, dtype=np.int64) for a in (line_cells, line_offsets, line_of[order], cell_offsets)]
    for a in arrays:
        a.flags.writeable = False
    return LineBoard(*arrays, shape=shape)


def kernel_clues(puzzle) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``lens``, ``cols`` and ``offs`` (int64) for the kernels: a group with a
    colour set gets :func:`~rofl.kernels._line.set_color` of its mask."""
    cols = puzzle.colors.astype(np.int64)
    if puzzle.color_sets is not None:
        open_groups = np.flatnonzero(puzzle.color_sets)
        # ~(mask >> 1), computed on uint64 so that bit 63 does not sign-extend
        cols[open_groups] = ~(puzzle.color_sets[open_groups] >> np.uint64(1)).view(np.int64)
    return puzzle.lengths.astype(np.int64), cols, puzzle.offsets.astype(np.int64)


def propagate_board(
    board: LineBoard, clues, masks: np.ndarray, queue: np.ndarray, deadline: float | None = None, cells: int = 0
) -> tuple[int, np.ndarray]:
    """The compiled line logic on ``masks`` in place, stopped at ``deadline``
    (``time.monotonic()``) or on Ctrl-C (:func:`~rofl.solver._stop.run_stoppable`,
    which weighs the call by ``cells``, by default the board's): the status
    is then STOPPED."""
    from rofl import kernels
    from rofl.kernels import structs as k
    from rofl.solver._stop import run_stoppable, setting

    stats = np.zeros(k.INDEX_N_STATS, dtype=np.int64)  # the index kernels' stats, not the rectangle's
    # read-only, as hexagon refinement's kernel passes it (a slice of the
    # board's read-only arrays): the kernel is compiled for one type, not two
    first = queue.view()
    first.flags.writeable = False
    status = run_stoppable(
        lambda: kernels.propagate_lines(
            masks, board.line_cells, board.line_offsets, board.cell_lines, board.cell_offsets, *clues, first, stats
        ),
        setting(stats, k.INDEX_STOP),
        cells=cells or board.n_cells,
        deadline=deadline,
    )
    return status, stats


def propagate_lines(
    puzzle, start: np.ndarray | None = None, *, budget: float | None = None
) -> tuple[int, np.ndarray, tuple[int, int, int | None]]:
    """Line logic alone for a puzzle :func:`needs_lines` (:func:`rofl.solve`
    calls it and wraps the result).

    Parameters
    ----------
    puzzle : Puzzle or HexPuzzle
    start : int64 array, optional
        Masks to start from, of the shape of a solution: ``(n_cells,)`` for
        a hexagon, ``(H, W)`` for a rectangle.
    budget : float, optional
        Seconds allowed; checked before every line solve on large boards
        (as :meth:`rofl.solver.LineSolver.solve` does).

    Returns
    -------
    status : int
        The kernels' SOLVED, STALLED or CONTRADICTION.
    masks : int64 array of the shape of a solution
    counts : (line solves, sweeps, failed line or None)

    Raises
    ------
    BudgetError
        ``budget`` ran out first.  Ctrl-C stops it within a fraction of a
        second (``KeyboardInterrupt``).
    """
    from rofl.errors import BudgetError
    from rofl.kernels.structs import STOPPED
    from rofl.solver._stop import THREAD_CELLS

    board = board_of(puzzle)
    if start is None:
        masks = np.full(board.n_cells, full_mask(puzzle.n_colors), dtype=np.int64)
    else:
        start = np.asarray(start)
        if start.shape != board.shape:
            msg = f"start masks have shape {start.shape}, the puzzle's cells {board.shape}"
            raise PuzzleError(msg)
        masks = np.array(start, dtype=np.int64).ravel()
    deadline = None if budget is None else time.monotonic() + budget
    queue = np.arange(puzzle.n_lines, dtype=np.int64)
    # one call: with a budget it runs stoppable whatever its size (a small board
    # of long lines of ? groups can take seconds; a thread costs ~0.1 ms)
    cells = board.n_cells if deadline is None else max(board.n_cells, THREAD_CELLS)
    status, stats = propagate_board(board, kernel_clues(puzzle), masks, queue, deadline, cells)
    if status == STOPPED:
        hexagon = isinstance(puzzle, HexPuzzle)
        size = f"hexagon of side {puzzle.side}" if hexagon else f"{puzzle.width}x{puzzle.height} puzzle"
        msg = f"line logic did not finish within the {budget:g} s budget on this {size} "
        msg += f"({int(stats[0])} line solves; try a larger --budget)"
        raise BudgetError(msg)
    bad = int(stats[2])
    return status, masks.reshape(board.shape), (int(stats[0]), int(stats[1]), bad if bad >= 0 else None)


def search_lines(
    puzzle,
    masks: np.ndarray,
    *,
    time_budget: float | None,
    node_budget: int | None,
    want: int = 2,
    cpu_budget: float | None = None,
) -> tuple[SearchStatus, list[np.ndarray], dict[str, int]]:
    """The complete search for a puzzle :func:`needs_lines`, from the masks
    where line logic stalled (:func:`rofl.solve_complete` calls it, having
    checked the budgets, and checks every solution against the clues).

    ``want`` 1 stops at the first solution (status ``"found"``).  The
    budgets are looked at before every node: ``time_budget`` and
    ``cpu_budget`` (seconds of the process's CPU time) are seconds from now.

    Returns
    -------
    status : SearchStatus
    solutions : list of arrays of the shape of ``masks``
        One when unique or found, two distinct ones when multiple, at most
        one when the budget ran out.
    counts : dict
        ``nodes``, ``line_solves`` and ``max_depth`` of the search.
    """
    from rofl.kernels.structs import CONTRADICTION, SOLVED, STOPPED

    board = board_of(puzzle)
    clues = kernel_clues(puzzle)
    solutions: list[np.ndarray] = []
    counts = {"nodes": 0, "line_solves": 0, "max_depth": 0}
    clock = Deadlines(time_budget, cpu_budget)
    # Depth-first; each frame's children split one cell's colours, so the
    # solutions of different branches differ and two prove "multiple".
    stack = [(masks.ravel().copy(), 0)]
    while stack:
        node, depth = stack.pop()
        if (node_budget is not None and counts["nodes"] >= node_budget) or clock.passed():
            return SearchStatus.BUDGET, solutions[:1], counts
        counts["nodes"] += 1
        counts["max_depth"] = max(counts["max_depth"], depth)
        left = np.bitwise_count(node.view(np.uint64)).astype(np.int64)
        left[left < 2] = 1 << 30
        cell = int(np.argmin(left))  # fewest colours left: fewest children
        # a writable copy: the board's arrays are read-only, and numba would
        # compile the kernel again for a read-only queue
        queue = board.cell_lines[board.cell_offsets[cell] : board.cell_offsets[cell + 1]].copy()
        bits = int(node[cell])
        children = []
        for colour in range(64):
            if not bits >> colour & 1:
                continue
            child = node.copy()
            child[cell] = np.int64(1) << np.int64(colour)
            status, stats = propagate_board(board, clues, child, queue, clock.wall)
            counts["line_solves"] += int(stats[0])
            if status == STOPPED:
                return SearchStatus.BUDGET, solutions[:1], counts
            if status == CONTRADICTION:
                continue
            if status == SOLVED:
                # a single-bit mask's colour is the number of bits below it
                solutions.append(np.bitwise_count(child - 1).astype(np.uint8).reshape(board.shape))
                if len(solutions) >= want:
                    return (SearchStatus.MULTIPLE if want == 2 else SearchStatus.FOUND), solutions, counts
            else:
                children.append((child, depth + 1))
        stack.extend(reversed(children))
    return (SearchStatus.UNIQUE if solutions else SearchStatus.NONE), solutions, counts
