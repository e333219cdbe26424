"""Clue derivation: the clues a filled board gives, as flat arrays
(``lengths``, ``colors``, ``offsets``), vectorised with numpy.

:func:`grid_clues` checks a rectangle's grid first; :func:`grid_runs` and
:func:`line_runs` take what the caller has checked (a board's ``clues_of``).
"""

from __future__ import annotations

import numpy as np

from rofl.errors import PuzzleError
from rofl.validate import check_size


def line_runs(values: np.ndarray, offsets: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Run-length groups of lines laid end to end in ``values`` (line ``i``
    is ``values[offsets[i]:offsets[i + 1]]``): the lengths and colours of all
    non-background runs, in order, and the number of runs per line."""
    n_lines = len(offsets) - 1
    first = np.zeros(len(values), dtype=bool)
    last = np.zeros(len(values), dtype=bool)
    first[offsets[:-1][np.diff(offsets) > 0]] = True
    last[offsets[1:][np.diff(offsets) > 0] - 1] = True
    prev = np.empty_like(values)
    nxt = np.empty_like(values)
    prev[1:], nxt[:-1] = values[:-1], values[1:]
    starts = np.flatnonzero((values != 0) & (first | (values != prev)))
    ends = np.flatnonzero((values != 0) & (last | (values != nxt)))
    # the line of each run: the last line starting at or before it (an empty line
    # starts where the next does), found for the runs alone
    line_of = np.searchsorted(offsets, starts, side="right") - 1
    return ends - starts + 1, values[starts], np.bincount(line_of, minlength=n_lines)


def grid_clues(grid: np.ndarray, n_colors: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The clues of the rows, then the columns, of an ``(H, W)`` grid of
    palette indices as flat ``lengths``, ``colors`` and ``offsets`` (int64).

    Raises
    ------
    PuzzleError
        Not two-dimensional, an empty or too large grid, or a value outside
        the ``n_colors`` of the palette.
    """
    if grid.ndim != 2:
        msg = f"a grid must be two-dimensional, not of shape {grid.shape}"
        raise PuzzleError(msg)
    height, width = grid.shape
    check_size(width, height)
    if not np.issubdtype(grid.dtype, np.integer):
        msg = f"a grid must hold integer palette indices, not {grid.dtype}"
        raise PuzzleError(msg)
    bad = np.argwhere((grid < 0) | (grid >= n_colors))
    if bad.size:
        r, c = bad[0]
        msg = f"row {r + 1}, column {c + 1}: value {grid[r, c]} is outside the palette ({n_colors} colours)"
        raise PuzzleError(msg)
    return grid_runs(grid)


def grid_runs(grid: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The clues of the rows, then the columns, of an ``(H, W)`` grid of
    palette indices, unchecked (as :func:`grid_clues`)."""
    height, width = grid.shape
    grid = grid.astype(np.int64)
    row_len, row_col, row_count = _runs(grid)
    col_len, col_col, col_count = _runs(np.ascontiguousarray(grid.T))
    offsets = np.zeros(width + height + 1, dtype=np.int64)
    np.cumsum(np.concatenate([row_count, col_count]), out=offsets[1:])
    return np.concatenate([row_len, col_len]), np.concatenate([row_col, col_col]), offsets


def _runs(grid: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Run-length groups of every row of ``grid`` (vectorised).

    Returns the lengths and colours of all non-background runs in row-major
    order, and the number of runs per row.
    """
    h, w = grid.shape
    padded = np.full((h, w + 2), -1, dtype=np.int64)
    padded[:, 1:-1] = grid
    inner = padded[:, 1:-1]
    starts = (inner != 0) & (inner != padded[:, :-2])
    ends = (inner != 0) & (inner != padded[:, 2:])
    sr, sc = np.nonzero(starts)
    _, ec = np.nonzero(ends)
    lengths = ec - sc + 1
    colors = grid[sr, sc]
    counts = np.bincount(sr, minlength=h)
    return lengths, colors, counts
