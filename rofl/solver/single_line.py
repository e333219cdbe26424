"""Solve a single line: the public wrapper of the compiled line kernel."""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from rofl.errors import PuzzleError


def solve_line(
    cells: Sequence[int] | np.ndarray, clue: Sequence[Sequence[Any]], *, n_colors: int | None = None
) -> np.ndarray | None:
    """Narrow one line's cell masks by its clue.

    Parameters
    ----------
    cells : (n,) int64 array of colour bitmasks
        Bit ``c`` set: colour ``c`` still possible (bit 0 = background).
    clue : sequence of ``(length, colour)``
        A colour is an index ``1..63``, a collection of them (the group
        takes one of them) or ``"?"`` (any ink colour of ``n_colors``).
    n_colors : int, optional
        Colours of the palette, background included: needed for ``"?"``.

    Returns
    -------
    (n,) int64 array or None
        For each cell, the colours it takes in at least one arrangement
        that fits ``cells``; None when no arrangement fits.

    Raises
    ------
    PuzzleError
        An empty line, a length below 1, a colour outside ``1..63``, or
        ``"?"`` without ``n_colors``.
    """
    from rofl.kernels import solve_line as line_kernel
    from rofl.kernels import solve_line_sets
    from rofl.kernels.structs import LineScratch

    cells = np.ascontiguousarray(cells, dtype=np.int64)
    n = cells.shape[0]
    if n < 1:
        msg = "a line needs at least one cell"
        raise PuzzleError(msg)
    lens, cols = _groups(clue, n_colors)
    kk = len(lens)
    out = np.empty(n, dtype=np.int64)
    scratch = LineScratch(
        run=np.empty((max(kk, 1), n + 1), dtype=np.int64),
        slot=np.empty(max(kk, 1), dtype=np.int64),
        gap=np.empty(max(kk, 1), dtype=np.int64),
        fwd=np.empty((kk + 1, n + 2), dtype=np.uint8),
        bwd=np.empty((kk + 1, n + 2), dtype=np.uint8),
        color_slot=np.empty(64, dtype=np.int64),
    )
    if kk and cols.min() < 0:  # colour sets: their own DP, compiled only when used
        ok = solve_line_sets(cells, n, lens, cols, 0, kk, out)
    else:
        ok = line_kernel(cells, n, lens, cols, 0, kk, out, *scratch)
    return out if ok else None


def _groups(clue: Sequence[Sequence[Any]], n_colors: int | None) -> tuple[np.ndarray, np.ndarray]:
    """Lengths and kernel colours of ``clue``: a colour set becomes
    :func:`rofl.kernels.structs.set_color` of its mask."""
    from rofl.kernels.structs import set_color

    lens: list[int] = []
    cols: list[int] = []
    for group in clue:
        try:
            length, colour = group
            length = operator.index(length)
            if isinstance(colour, str):
                if colour.strip() != "?" or n_colors is None or not 2 < n_colors <= 64:
                    raise ValueError
                members = list(range(1, n_colors))
            else:
                try:
                    members = [operator.index(colour)]
                except TypeError:
                    members = [operator.index(c) for c in colour]
        except (TypeError, ValueError):
            msg = f"invalid clue {clue!r}: groups are (length, colour), a colour an index, a set of them or '?'"
            msg += " (with n_colors of 3 to 64)"
            raise PuzzleError(msg) from None
        if length < 1 or not members or min(members) < 1 or max(members) > 63:
            msg = f"invalid clue {clue!r}: lengths must be >= 1 and colours 1..63"
            raise PuzzleError(msg)
        mask = 0
        for c in members:
            mask |= 1 << c
        lens.append(length)
        cols.append(members[0] if mask & (mask - 1) == 0 else set_color(mask))
    return np.array(lens, dtype=np.int64), np.array(cols, dtype=np.int64)
