"""Encoding a picture as a ROFL file: only when its puzzle proves the picture.

Shared by ``rofl encode`` and the Pillow plugin's save, so both follow one
rule: a file is written only when line logic alone solves the puzzle to the
very picture given (which also proves the solution unique); otherwise the
error says how many cells stay undetermined and points to ``rofl make``.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from rofl.errors import UnsolvableError
from rofl.puzzle import Palette, Puzzle


def encode_grid(
    grid: np.ndarray,
    palette: Palette,
    *,
    meta: Mapping[str, str] | None = None,
    crc: bool = False,
    where: str = "",
) -> bytes:
    """The ROFL file of a picture, if line logic can decode it.

    Parameters
    ----------
    grid : (H, W) integer array of palette indices
    palette : Palette
        Entry 0 is the background.
    meta : mapping of str to str, optional
        Title, author, licence... (stored in the extended form).
    crc : bool
        Store the CRC-32 of the picture (extended form).
    where : str
        Prefix for error messages.

    Returns
    -------
    bytes
        The smallest form that holds what was asked for.

    Raises
    ------
    UnsolvableError
        Line logic leaves cells undetermined (the message says how many).
    PuzzleError, FormatError
        The grid does not fit the palette, or the picture the format.
    """
    from rofl.formats.rofl import dumps
    from rofl.solver import solve

    grid = np.asarray(grid)
    puzzle = Puzzle.from_grid(grid, palette, meta=meta)
    result = solve(puzzle)
    prefix = f"{where}: " if where else ""
    if result.status != "solved":
        msg = (
            f"{prefix}line logic leaves {result.undetermined} of {grid.size} cells undetermined, so the "
            "puzzle would not decode to this picture; use `rofl make` to derive a solvable puzzle from it"
        )
        raise UnsolvableError(msg)
    # line logic reached a single grid; it is the picture because the picture
    # satisfies the clues and line logic never removes a possible colour
    assert np.array_equal(result.grid, grid)
    return dumps(puzzle, grid if crc else None)


__all__ = ["encode_grid"]
