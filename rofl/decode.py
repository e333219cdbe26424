"""Decoding a ROFL picture means solving its puzzle.

:func:`solve_picture` is the one place that turns a puzzle into a picture;
``rofl decode``, ``rofl info`` and the Pillow plugin all call it, so a
stronger solver plugs in here and nowhere else.  It never returns a picture
it has not proved: line logic first, then the complete search within a
time budget; an ambiguous puzzle, one with no solution or an exhausted
budget raises.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from rofl.errors import AmbiguousError, FormatError, UnsolvableError
from rofl.puzzle import Puzzle

if TYPE_CHECKING:
    from rofl.solver.search import CompleteResult

#: Seconds of complete search a reader spends on a puzzle line logic cannot finish.
DEFAULT_BUDGET = 10.0


def solve_picture(
    puzzle: Puzzle,
    *,
    crc32: int | None = None,
    where: str = "",
    budget: float = DEFAULT_BUDGET,
) -> np.ndarray:
    """Solve ``puzzle`` into its picture.

    Line logic first; when it stalls, the complete search
    (:func:`rofl.solver.search.solve_complete`) within ``budget`` seconds.
    Only a picture proved to be the puzzle's one solution is returned.

    Parameters
    ----------
    puzzle : Puzzle
    crc32 : int, optional
        CRC-32 the file stores for the picture (``pcrc`` chunk); when given,
        the solved picture must match it.
    where : str
        Prefix for error messages (a file name).
    budget : float
        Seconds the complete search may take.

    Returns
    -------
    (H, W) uint8 array of palette indices

    Raises
    ------
    AmbiguousError
        The clues have several solutions (``exc.solutions`` holds two).
    UnsolvableError
        The clues have no solution, or the search ran out of budget.
    FormatError
        The picture does not match the stored CRC-32.
    """
    from rofl.solver.search import solve_complete
    from rofl.solver.status import LineStatus

    prefix = f"{where}: " if where else ""
    complete = solve_complete(puzzle, time_budget=budget)
    if complete.line_status == LineStatus.CONTRADICTION:
        line = puzzle.line_name(complete.bad_line) if complete.bad_line is not None else "a line"
        msg = f"{prefix}the clues have no solution ({line} cannot be filled)"
        raise UnsolvableError(msg)
    grid = _proved_grid(complete, prefix, budget)
    check_crc(grid, crc32, prefix)
    return grid


def _proved_grid(complete: CompleteResult, prefix: str, budget: float) -> np.ndarray:
    """The picture when ``complete`` proved it unique, else the error that says why not."""
    from rofl.solver.status import SearchStatus

    puzzle = complete.puzzle
    if complete.status == SearchStatus.UNIQUE:
        assert complete.grid is not None
        return complete.grid
    if complete.status == SearchStatus.MULTIPLE:
        first, second = complete.solutions[:2]
        differ = int(np.count_nonzero(first != second))
        msg = (
            f"{prefix}the puzzle has several solutions (two of them differ in {differ} cells), "
            "so it does not define one picture"
        )
        raise AmbiguousError(msg, complete.solutions)
    if complete.status == SearchStatus.NONE:
        msg = f"{prefix}the clues have no solution (proved by search)"
        raise UnsolvableError(msg)
    cells = puzzle.width * puzzle.height
    msg = (
        f"{prefix}not decoded within the {budget:g} s search budget: line logic leaves {complete.undetermined} "
        f"of {cells} cells undetermined and the search did not finish (try a larger --budget)"
    )
    raise UnsolvableError(msg)


def check_crc(grid: np.ndarray, crc32: int | None, prefix: str = "") -> None:
    """Raise :class:`FormatError` when ``grid`` does not match a stored CRC-32."""
    if crc32 is None:
        return
    from rofl.formats.rofl import picture_crc

    actual = picture_crc(grid)
    if actual != crc32:
        msg = f"{prefix}the solved picture has CRC-32 {actual:08x} but the file says {crc32:08x}"
        raise FormatError(msg)


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


__all__ = [
    "DEFAULT_BUDGET",
    "AmbiguousError",
    "FormatError",
    "UnsolvableError",
    "check_crc",
    "decode_bytes",
    "solve_picture",
]
