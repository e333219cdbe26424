"""Solve a single line: the public wrapper of the compiled line kernel."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from rofl.errors import PuzzleError


def solve_line(cells: Sequence[int] | np.ndarray, clue: Sequence[Sequence[int]]) -> np.ndarray | None:
    """Narrow one line's cell masks by its clue.

    Parameters
    ----------
    cells : (n,) int64 array of colour bitmasks
        Bit ``c`` set: colour ``c`` still possible (bit 0 = background).
    clue : sequence of ``(length, colour)``

    Returns
    -------
    (n,) int64 array or None
        For each cell, the colours it takes in at least one arrangement
        that fits ``cells``; None when no arrangement fits.
    """
    from rofl.solver import _kernels as k

    cells = np.ascontiguousarray(cells, dtype=np.int64)
    n = cells.shape[0]
    groups = np.array(clue, dtype=np.int64).reshape(-1, 2)
    if n < 1:
        msg = "a line needs at least one cell"
        raise PuzzleError(msg)
    if groups.size and (groups[:, 0].min() < 1 or groups[:, 1].min() < 1 or groups[:, 1].max() > 63):
        msg = f"invalid clue {clue!r}: lengths must be >= 1 and colours 1..63"
        raise PuzzleError(msg)
    kk = len(groups)
    lens = np.ascontiguousarray(groups[:, 0])
    cols = np.ascontiguousarray(groups[:, 1])
    out = np.empty(n, dtype=np.int64)
    scratch = k.LineScratch(
        run=np.empty((max(kk, 1), n + 1), dtype=np.int64),
        slot=np.empty(max(kk, 1), dtype=np.int64),
        gap=np.empty(max(kk, 1), dtype=np.int64),
        fwd=np.empty((kk + 1, n + 2), dtype=np.uint8),
        bwd=np.empty((kk + 1, n + 2), dtype=np.uint8),
        color_slot=np.empty(64, dtype=np.int64),
    )
    ok = k._solve_line(cells, n, lens, cols, 0, kk, out, *scratch)
    return out if ok else None
