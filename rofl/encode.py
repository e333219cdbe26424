"""Encoding a picture as a ROFL file: only when its puzzle proves the picture.

Shared by ``rofl encode`` and the Pillow plugin's save, so both follow one
rule: a file is written only when line logic alone solves the puzzle to the
very picture given (which also proves the solution unique); otherwise the
error says how many cells stay undetermined and points to ``rofl make``.
On request (``search=True``) a picture that a complete search proves to be
the only solution is stored too.  Solving is the solver's
:func:`~rofl.solver.search.solve_complete` (line logic, then the search
within a budget), the same call that decoding makes.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from rofl.errors import UnsolvableError
from rofl.palette import Palette
from rofl.puzzle import Puzzle


def encode_grid(
    grid: np.ndarray,
    palette: Palette,
    *,
    meta: Mapping[str, str] | None = None,
    crc: bool = False,
    where: str = "",
    search: bool = False,
    budget: float = 10.0,
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
    search : bool
        Also accept a picture that line logic cannot reach but that a
        complete search proves to be the puzzle's only solution (within
        ``budget`` seconds).  Such files need a reader with search (see
        ``spec/ROFL.md``).

    Returns
    -------
    bytes
        The smallest form that holds what was asked for.

    Raises
    ------
    UnsolvableError
        Line logic leaves cells undetermined (the message says how many);
        with ``search``, the puzzle has several solutions or the search did
        not finish in time.
    PuzzleError, FormatError
        The grid does not fit the palette, or the picture the format.
    """
    from rofl.formats.rofl import dumps
    from rofl.solver.search import solve_complete
    from rofl.solver.status import LineStatus, SearchStatus

    grid = np.asarray(grid)
    puzzle = Puzzle.from_grid(grid, palette, meta=meta)
    # the budget bounds line logic and the search together; without a search it is neither used nor checked
    complete = solve_complete(puzzle, time_budget=budget if search else None, search=search)
    prefix = f"{where}: " if where else ""
    if complete.line_status != LineStatus.SOLVED and not search:
        msg = (
            f"{prefix}line logic leaves {complete.undetermined} of {grid.size} cells undetermined, so the "
            "puzzle would not decode to this picture; use `rofl make` to derive a solvable puzzle from it "
            "(or --search to store it if a complete search proves it unique)"
        )
        raise UnsolvableError(msg)
    if complete.status == SearchStatus.MULTIPLE:
        first, second = complete.solutions[:2]
        msg = (
            f"{prefix}the picture's clues have several solutions (two differ in "
            f"{int(np.count_nonzero(first != second))} cells), so a reader could not tell which one "
            "is meant; use `rofl make` to derive a unique puzzle from it"
        )
        raise UnsolvableError(msg)
    if complete.status != SearchStatus.UNIQUE:
        msg = (
            f"{prefix}the search could not prove the picture unique within {budget:g} s "
            "(try a larger --budget, or `rofl make`)"
        )
        raise UnsolvableError(msg)
    solved = complete.grid
    # the solver reached a single grid; it is the picture because the picture
    # satisfies the clues and the solvers never remove a possible colour
    assert np.array_equal(solved, grid)
    return dumps(puzzle, grid if crc else None)


__all__ = ["encode_grid"]
