"""Pictures as terminal text: a rectangular grid row by row, a hexagonal board
as offset rows (each row half a cell right of the longer row next to it)."""

from __future__ import annotations

import numpy as np

from rofl.hexagon import Hexagon
from rofl.palette import Palette
from rofl.render.layout import letter


def grid_text(grid: np.ndarray, palette: Palette, *, color: bool = False, unknown: int = -1) -> str:
    """The picture as text, one line per row.

    Parameters
    ----------
    grid : (H, W) integer array of palette indices, ``unknown`` for an undetermined cell
    palette : Palette
    color : bool
        Use 24-bit ANSI colours (two spaces per cell); otherwise ``.`` is the
        background, ``?`` an undetermined cell, and the ink colours have the
        letters sheets print with ``--letters`` (``a``, ``b``...;
        :func:`rofl.render.layout.letter`), but for the one ink of a
        black-and-white puzzle, ``#``.
    """
    lines = []
    for row in np.asarray(grid).tolist():
        text = "".join(_cell(v, palette, color, unknown) for v in row)
        lines.append(text + "\x1b[0m" if color else text)
    return "\n".join(lines)


def _cell(v: int, palette: Palette, color: bool, unknown: int) -> str:
    if color:
        if v == unknown:
            return "\x1b[0m??"
        r, g, b = palette[v]
        return f"\x1b[48;2;{r};{g};{b}m  "
    if v == unknown:
        return "?"
    if v == 0:
        return "."
    return "#" if len(palette) == 2 else letter(v)


def hex_text(board: Hexagon, cells: np.ndarray, palette: Palette, *, color: bool = False, unknown: int = -1) -> str:
    """A hexagonal board's filling as text: its rows, each indented by half a
    cell per step away from the middle row, so that every cell sits between
    its two neighbours of the rows above and below.

    Parameters
    ----------
    board : Hexagon
    cells : (n_cells,) integer array of palette indices in the board's cell order, ``unknown`` for undetermined
    palette : Palette
    color : bool
        24-bit ANSI colours (a cell two spaces wide); otherwise the
        characters of :func:`grid_text` separated by spaces.
    """
    values = np.asarray(cells).tolist()
    m = board.side - 1
    lines = []
    for row in range(2 * m + 1):
        indices = board.line(row).tolist()
        indent = " " * abs(row - m)
        if color:
            lines.append(indent + "".join(_cell(values[i], palette, True, unknown) for i in indices) + "\x1b[0m")
        else:
            lines.append(indent + " ".join(_cell(values[i], palette, False, unknown) for i in indices))
    return "\n".join(lines)


def puzzle_text(puzzle, cells: np.ndarray, *, color: bool = False, unknown: int = -1) -> str:
    """A filling of ``puzzle``'s board as text: :func:`hex_text` for a
    :class:`~rofl.hexagon.HexPuzzle`, :func:`grid_text` otherwise."""
    if puzzle.board.kind == "hexagon":
        return hex_text(puzzle.board, cells, puzzle.palette, color=color, unknown=unknown)
    return grid_text(cells, puzzle.palette, color=color, unknown=unknown)
