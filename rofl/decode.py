"""Decoding a ROFL picture means solving its puzzle.

:func:`solve_picture` is the one place that turns a puzzle into a picture;
``rofl decode``, ``rofl info`` and the Pillow plugin all call it, so a
stronger solver plugs in here and nowhere else.  It never returns a picture
it has not proved: when the solver cannot determine every cell it raises.
"""

from __future__ import annotations

import numpy as np

from rofl.errors import FormatError, UnsolvableError
from rofl.puzzle import Puzzle


def solve_picture(puzzle: Puzzle, *, crc32: int | None = None, where: str = "") -> np.ndarray:
    """Solve ``puzzle`` into its picture.

    Parameters
    ----------
    puzzle : Puzzle
    crc32 : int, optional
        CRC-32 the file stores for the picture (``pcrc`` chunk); when given,
        the solved picture must match it.
    where : str
        Prefix for error messages (a file name).

    Returns
    -------
    (H, W) uint8 array of palette indices

    Raises
    ------
    UnsolvableError
        Line logic stalls (the message gives the number of undetermined
        cells) or the clues contradict each other.
    FormatError
        The picture does not match the stored CRC-32.
    """
    from rofl.formats.rofl import picture_crc
    from rofl.solver import solve

    prefix = f"{where}: " if where else ""
    result = solve(puzzle)
    if result.status == "contradiction":
        line = puzzle.line_name(result.bad_line) if result.bad_line is not None else "a line"
        msg = f"{prefix}the clues have no solution ({line} cannot be filled)"
        raise UnsolvableError(msg)
    if result.status != "solved":
        cells = puzzle.width * puzzle.height
        msg = (
            f"{prefix}cannot decode: line logic leaves {result.undetermined} of {cells} cells undetermined "
            f"(the puzzle needs guessing or has several solutions)"
        )
        raise UnsolvableError(msg)
    grid = result.grid
    assert grid is not None
    if crc32 is not None:
        actual = picture_crc(grid)
        if actual != crc32:
            msg = f"{prefix}the solved picture has CRC-32 {actual:08x} but the file says {crc32:08x}"
            raise FormatError(msg)
    return grid


def decode_bytes(data: bytes, *, where: str = "<rofl>"):
    """Parse and solve a ROFL file held in memory.

    Returns
    -------
    grid : (H, W) uint8 array of palette indices
    rofl_file : rofl.formats.rofl.RoflFile
    """
    from rofl.formats.rofl import parse

    info = parse(data, where=where)
    return solve_picture(info.puzzle, crc32=info.crc32, where=where), info


__all__ = ["FormatError", "UnsolvableError", "decode_bytes", "solve_picture"]
