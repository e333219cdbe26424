"""Decoding a ROFL picture means solving its puzzle.

:func:`solve_picture` is the one place that turns a puzzle into a picture;
``rofl decode``, ``rofl info`` and the Pillow plugin all call it, so a
stronger solver plugs in here and nowhere else.  It never returns a picture
it has not proved: line logic first, then the complete search within a
time budget; an ambiguous puzzle, one with no solution or an exhausted
budget raises.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

import numpy as np

from rofl.errors import AmbiguousError, BudgetError, FormatError, UnsolvableError
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
    line=None,
    line_seconds: float = 0.0,
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
        Seconds line logic and the complete search may take together.
    line : SolveResult, optional
        What :func:`rofl.solver.solve` already found for ``puzzle`` (``rofl
        info`` shows it first): line logic is not run a second time.
    line_seconds : float
        Seconds that ``line`` took, counted in ``budget`` (messages name
        ``budget`` itself, the one the user gave).

    Returns
    -------
    (H, W) uint8 array of palette indices

    Raises
    ------
    AmbiguousError
        The clues have several solutions (``exc.solutions`` holds two).
    UnsolvableError
        The clues have no solution: the file is invalid.
    BudgetError
        (an :class:`UnsolvableError`) The search ran out of budget: the
        file was not decoded, which does not make it invalid.
    FormatError
        The picture does not match the stored CRC-32.
    """
    from rofl import kernels
    from rofl.solver import solve
    from rofl.solver.search import solve_complete
    from rofl.solver.status import LineStatus

    prefix = f"{where}: " if where else ""
    clock = kernels.Stopwatch()  # compiling the kernels (once) is not line logic: not in the budget
    if line is None:
        try:
            line = solve(puzzle, budget=budget)
        except BudgetError as exc:
            msg = f"{prefix}not decoded: {exc}"
            raise BudgetError(msg) from None
    result = line
    # line logic counts in the budget: the search gets what it left
    spent = line_seconds + clock.seconds()
    if result.status == LineStatus.CONTRADICTION:
        line = puzzle.line_name(result.bad_line) if result.bad_line is not None else "a line"
        msg = f"{prefix}the clues have no solution ({line} cannot be filled)"
        raise UnsolvableError(msg)
    if result.status == LineStatus.SOLVED:
        grid = result.grid
    else:
        if spent >= budget:
            msg = (
                f"{prefix}not decoded within the {budget:g} s budget: line logic took {spent:.1f} s and leaves "
                f"{result.undetermined} of {puzzle.n_cells} cells undetermined (try a larger --budget)"
            )
            raise BudgetError(msg)
        grid = _proved_grid(solve_complete(puzzle, time_budget=budget - spent, line=result), prefix, budget)
    assert grid is not None
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
    cells = puzzle.n_cells
    msg = (
        f"{prefix}not decoded within the {budget:g} s search budget: line logic leaves {complete.undetermined} "
        f"of {cells} cells undetermined and the search did not finish (try a larger --budget)"
    )
    raise BudgetError(msg)


def check_crc(grid: np.ndarray, crc32: int | None, prefix: str = "") -> None:
    """Raise :class:`FormatError` when ``grid`` does not match a stored CRC-32."""
    if crc32 is None:
        return
    from rofl.formats.rofl import picture_crc

    actual = picture_crc(grid)
    if actual != crc32:
        msg = f"{prefix}the solved picture has CRC-32 {actual:08x} but the file says {crc32:08x}"
        raise FormatError(msg)


def check_stored_crc(opened, *, budget: float = DEFAULT_BUDGET) -> float:
    """Check the CRC-32 a file stores for its picture where the command itself
    needs no picture (``rofl page``, ``rofl convert``, ``rofl reveal``): the
    puzzle is solved as by :func:`solve_picture` and the picture compared.

    Nothing is checked when the file stores no CRC-32, nor when the clues do
    not define one picture within ``budget`` seconds (several solutions, none,
    or a search out of time): the command goes on as it would without one.

    Parameters
    ----------
    opened : rofl.formats.PuzzleFile

    Returns
    -------
    float
        Seconds the check took (of ``budget``): compiling or loading the
        kernels (:func:`rofl.kernels.ready`) is not in it.

    Raises
    ------
    FormatError
        The picture the clues define does not match the stored CRC-32.
    """
    if opened.crc32 is None:
        return 0.0
    from rofl import kernels

    clock = kernels.Stopwatch()
    # AmbiguousError is an UnsolvableError: no one picture to check
    with contextlib.suppress(UnsolvableError):
        solve_picture(opened.puzzle, crc32=opened.crc32, where=opened.name, budget=budget)
    return clock.seconds()


def decode_bytes(data: bytes, *, where: str = "<rofl>"):
    """Open and solve a puzzle file held in memory (a ROFL file, or any
    format :func:`rofl.formats.open_puzzle` reads).

    ``where`` names the file in messages; its extension picks the format
    when the bytes do not.

    Returns
    -------
    grid : (H, W) uint8 array of palette indices
    puzzle_file : rofl.formats.PuzzleFile
        What the file holds besides (its ``rofl`` is the parsed ROFL file).

    Raises
    ------
    FormatError
        A malformed file, or a picture that does not match its stored CRC-32.
    AmbiguousError, UnsolvableError
        As :func:`solve_picture`.
    """
    from rofl.formats import open_puzzle

    opened = open_puzzle(data, name=where)
    return solve_picture(opened.puzzle, crc32=opened.crc32, where=where), opened


__all__ = [
    "DEFAULT_BUDGET",
    "AmbiguousError",
    "FormatError",
    "UnsolvableError",
    "check_crc",
    "check_stored_crc",
    "decode_bytes",
    "solve_picture",
]
