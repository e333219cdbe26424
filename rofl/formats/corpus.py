"""The corpus JSON format (see ``shared/corpus/README.md``).

One puzzle per file::

    {"width": W, "height": H, "colors": ["#ffffff", "#000000"],
     "rows": [[[len, colour], ...], ...], "cols": [...],
     "solution": ["0110", ...] or null, "title": ..., ...}

A colour may also be ``"?"`` (any ink colour) or a list of indices (any
of them), rofl's extension for ``?`` clues.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from rofl.errors import FormatError, PuzzleError
from rofl.formats import _text
from rofl.formats._format import Format
from rofl.palette import Palette
from rofl.puzzle import Puzzle
from rofl.validate import ANY_COLOR

_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
_META_KEYS = ("title", "author", "licence", "source", "id", "origin", "notes")
MAX_BYTES = 64 * 1024 * 1024


def loads(text: str | bytes, *, where: str = "<json>") -> tuple[Puzzle, np.ndarray | None]:
    """Parse a corpus JSON document.

    Returns
    -------
    puzzle : Puzzle
    solution : (H, W) uint8 array or None
        The designer's picture when the file gives one.

    Raises
    ------
    FormatError
        Not JSON, missing or ill-typed fields, or clues that are not a valid
        puzzle (the message names the line).
    """
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError) as exc:
        msg = f"{where}: not valid JSON ({exc})"
        raise FormatError(msg) from None
    if not isinstance(doc, dict):
        msg = f"{where}: a puzzle must be a JSON object"
        raise FormatError(msg)
    try:
        width, height = doc["width"], doc["height"]
        if not (isinstance(width, int) and isinstance(height, int)):
            msg = "width and height must be integers"
            raise TypeError(msg)
        palette = Palette(doc.get("colors") or ["#ffffff", "#000000"])
        meta = {k: str(doc[k]) for k in _META_KEYS if doc.get(k) is not None}
        puzzle = Puzzle(width, height, palette, _lines(doc["rows"]), _lines(doc["cols"]), meta=meta)
    except KeyError as exc:
        msg = f"{where}: missing field {exc.args[0]!r}"
        raise FormatError(msg) from None
    except (TypeError, ValueError) as exc:
        if isinstance(exc, PuzzleError):
            msg = f"{where}: {exc}"
        else:
            msg = f"{where}: invalid puzzle ({exc})"
        raise FormatError(msg) from None
    solution = doc.get("solution")
    if solution is None:
        return puzzle, None
    grid = _parse_solution(solution, puzzle, where)
    return puzzle, grid


def _lines(value: Any) -> list:
    if not isinstance(value, list) or not all(isinstance(line, list) for line in value):
        msg = "rows and cols must be lists of lists of [length, colour] pairs"
        raise TypeError(msg)
    return value


def _parse_solution(solution: Any, puzzle: Puzzle, where: str) -> np.ndarray:
    if not isinstance(solution, list) or len(solution) != puzzle.height:
        msg = f"{where}: solution must be {puzzle.height} strings"
        raise FormatError(msg)
    grid = np.zeros((puzzle.height, puzzle.width), dtype=np.uint8)
    for r, row in enumerate(solution):
        if not isinstance(row, str) or len(row) != puzzle.width:
            msg = f"{where}: solution row {r + 1} must be a string of {puzzle.width} digits"
            raise FormatError(msg)
        for c, ch in enumerate(row.lower()):
            v = _DIGITS.find(ch)
            if v < 0 or v >= puzzle.n_colors:
                msg = f"{where}: solution row {r + 1}, column {c + 1}: {ch!r} is not a colour index"
                raise FormatError(msg)
            grid[r, c] = v
    # The format promises that a given solution fits the clues; a file that
    # breaks the promise would hand callers a wrong picture as the answer.
    line = puzzle.unmet_line(grid)
    if line is not None:
        msg = f"{where}: the solution does not match the clues ({puzzle.line_name(line)})"
        raise FormatError(msg)
    return grid


def load(path: str | Path) -> tuple[Puzzle, np.ndarray | None]:
    """Read a corpus JSON file; see :func:`loads`."""
    from rofl._io import read_capped

    return loads(read_capped(path, MAX_BYTES), where=str(path))


def dumps(puzzle: Puzzle, solution: np.ndarray | None = None) -> str:
    """Write a puzzle (and optionally its solution) as corpus JSON.

    Raises
    ------
    FormatError
        A solution this format cannot hold or :func:`loads` would reject:
        not an ``(H, W)`` grid of the puzzle, a colour index above 35 (one
        character per cell), or a picture that does not fit the clues.
    """
    if solution is not None:
        solution = np.asarray(solution)
        if solution.shape != (puzzle.height, puzzle.width):
            msg = f"the solution has shape {solution.shape}, the puzzle is {puzzle.height}x{puzzle.width}"
            raise FormatError(msg)
        if solution.size and int(solution.max()) >= len(_DIGITS):
            msg = f"corpus JSON writes solutions of at most {len(_DIGITS)} colours (one character per cell)"
            raise FormatError(msg)
        if not puzzle.is_solution(solution):
            msg = "the solution does not match the clues"
            raise FormatError(msg)
    doc: dict[str, Any] = dict(puzzle.meta)
    doc.update(
        width=puzzle.width,
        height=puzzle.height,
        colors=puzzle.palette.hex(),
        rows=[[_group(g, puzzle.n_colors) for g in line] for line in puzzle.rows],
        cols=[[_group(g, puzzle.n_colors) for g in line] for line in puzzle.cols],
        solution=None
        if solution is None
        else ["".join(_DIGITS[v] for v in row) for row in np.asarray(solution).tolist()],
    )
    return json.dumps(doc, indent=1) + "\n"


def _group(group: tuple[int, Any], n_colors: int) -> list:
    """``[length, colour]``: the colour an index, ``"?"`` (any ink colour) or a list of indices."""
    length, colour = group
    if isinstance(colour, frozenset):
        colour = ANY_COLOR if colour == frozenset(range(1, n_colors)) else sorted(colour)
    return [length, colour]


#: How :mod:`rofl.formats` knows the format.
FORMAT = Format(
    "corpus JSON",
    loads,
    _text.encoded(dumps),
    colour=True,
    keeps="solution kept",
    color_sets=True,
)
FORMATS = (FORMAT,)
