"""Secrets as puzzles: a text drawn in rofl's pixel font, read back exactly.

This *hides* a text, it does not encrypt it: anyone who solves the puzzle
(by hand or with ``rofl reveal``) reads the text.

Layout
------
Every character gets a box of its own; boxes sit side by side in lines of at
most ``width`` characters (:data:`LINE_WIDTH` by default), lines one under
the other.  The text is wrapped as a person would (:func:`wrap`): after the
spaces that end a word, and after a newline, which has a glyph of its own
(a return arrow); only a word longer than a line is cut.  The spaces and
newlines stay in the picture, at the end of their lines, so reading the
lines one after the other gives back the exact text::

    ##.......##.......##      2 frame columns, then for each character:
    ##.......##.......##      1 paper column, 5 glyph columns, 1 paper column,
    ##.#####.##.#...#.##      2 frame columns ...
    ##...#...##.#...#.##
    ...

Frames are 2 cells thick (full rows across the picture and full columns down
it), a 1-cell margin of paper surrounds each 5x9 glyph.  A line shorter than
the longest is filled up with solid boxes (all 45 glyph cells inked) that
mark "no character"; every line holds at least one character.

Why every hidden text is uniquely line-solvable
-----------------------------------------------
* Frame rows and frame columns are entirely ink: their clue fills the line,
  so line logic knows them at once.  The margin rows and columns then hold
  only the 2-cell frame crossings, which line logic places at once too.
* In a row through glyphs, each frame is a run of exactly 2 between two
  known paper cells, and no glyph row of the font has a run of exactly 2
  (a property of the font, checked by the tests).  So the 2s of the clue are
  the frames, in order, and the runs between the k-th and (k+1)-th 2 belong
  to the k-th character's 5 cells.  Columns work the same way.
* Line logic on the whole picture is therefore line logic on each 5x9 glyph
  alone, and every glyph of the font is uniquely line-solvable on its own
  (checked by the tests).  Hence the whole picture is, whatever the text.

No refinement is needed, so nothing can change what :func:`read_text`
reads: it checks the frames and matches every box against the same font.
"""

from __future__ import annotations

import functools
import re
from importlib import resources
from typing import Any

import numpy as np

from rofl._checks import is_whole
from rofl.errors import FormatError, OptionError, UnsolvableError

#: Size of a glyph in cells (width, height).
GLYPH_W, GLYPH_H = 5, 9
#: Thickness of the frame between boxes, and of the paper margin inside a box.
FRAME, MARGIN = 2, 1
#: Distance between the left (top) edges of neighbouring boxes.
PITCH_X = FRAME + MARGIN + GLYPH_W + MARGIN
PITCH_Y = FRAME + MARGIN + GLYPH_H + MARGIN
#: Most characters on one line of the picture.
LINE_WIDTH = 16
#: Longest secret accepted (keeps the picture printable).
MAX_CHARS = 1024
#: Characters the font draws: printable ASCII and the newline.
ALPHABET = "\n" + "".join(chr(c) for c in range(0x20, 0x7F))

_FILLER = np.ones((GLYPH_H, GLYPH_W), dtype=np.uint8)


@functools.lru_cache(maxsize=1)
def font() -> dict[str, np.ndarray]:
    """rofl's pixel font: character -> ``(9, 5)`` uint8 array (1 = ink).

    Read once from ``rofl/data/font.txt``; the arrays are read-only.
    """
    text = resources.files("rofl").joinpath("data/font.txt").read_text(encoding="utf-8")
    return _parse_font(text.splitlines(), "rofl/data/font.txt")


def _parse_font(lines: list[str], where: str) -> dict[str, np.ndarray]:
    glyphs: dict[str, np.ndarray] = {}
    i = 0
    while i < len(lines):
        head = lines[i].strip()
        i += 1
        if not head or head.startswith("#"):
            continue
        try:
            char = chr(int(head.split()[0], 16))
        except ValueError:
            msg = f"{where}, line {i}: {head!r} is not a glyph header (hex code point)"
            raise FormatError(msg) from None
        rows = lines[i : i + GLYPH_H]
        if len(rows) != GLYPH_H or any(len(r) != GLYPH_W or set(r) - {"#", "."} for r in rows):
            msg = f"{where}, line {i + 1}: glyph {char!r} needs {GLYPH_H} rows of {GLYPH_W} '#'/'.' cells"
            raise FormatError(msg)
        glyph = np.array([[c == "#" for c in r] for r in rows], dtype=np.uint8)
        glyph.flags.writeable = False
        glyphs[char] = glyph
        i += GLYPH_H
    return glyphs


def check_text(text: str) -> None:
    """Refuse a text the font cannot draw.

    Raises
    ------
    OptionError
        Empty, longer than :data:`MAX_CHARS`, or a character outside
        printable ASCII and the newline (the message gives its position,
        1-based).
    """
    if not isinstance(text, str):
        msg = f"the secret must be text (str), not {type(text).__name__}"
        raise OptionError(msg)
    if not text:
        msg = "the secret is empty"
        raise OptionError(msg)
    if len(text) > MAX_CHARS:
        msg = f"the secret has {len(text)} characters; rofl hides at most {MAX_CHARS}"
        raise OptionError(msg)
    for pos, ch in enumerate(text, 1):
        if not (" " <= ch <= "~" or ch == "\n"):
            msg = (
                f"character {pos} of the secret ({ch!r}, U+{ord(ch):04X}) cannot be hidden: "
                "rofl's font draws printable ASCII and the newline only"
            )
            raise OptionError(msg)


def check_width(width: Any) -> int:
    """Validate the most characters on one line of the picture.

    Raises
    ------
    OptionError
        Not a whole number from 1 to :data:`MAX_CHARS`.
    """
    if not is_whole(width) or not 1 <= width <= MAX_CHARS:
        msg = f"the width of a hidden text must be a whole number of characters from 1 to {MAX_CHARS}, not {width!r}"
        raise OptionError(msg)
    return width


def wrap(text: str, width: int = LINE_WIDTH) -> list[str]:
    """Break ``text`` into the lines of its picture, none longer than ``width``.

    A word goes whole onto the next line when it does not fit, its
    following spaces with it; a newline ends its line (it is a character of
    the line, drawn as a return arrow); only a word longer than a line is
    cut.  Then the lines are balanced: the narrowest width that needs no
    more lines and cuts no more words is used, so the last line is not much
    shorter than the others.  ``"".join(wrap(text, width)) == text`` always.

    Raises
    ------
    OptionError
        A ``width`` that :func:`check_width` refuses.
    """
    check_width(width)
    lines = _greedy(text, width)
    for narrower in range(max(1, -(-len(text) // len(lines))), width):
        tried = _greedy(text, narrower)
        if len(tried) == len(lines) and _cuts(tried) <= _cuts(lines):
            return tried
    return lines


def _cuts(lines: list[str]) -> int:
    """How many line breaks fall elsewhere than after a word's spaces or a newline."""
    return sum(not (a.endswith((" ", "\n")) and not b.startswith(" ")) for a, b in zip(lines, lines[1:], strict=False))


def _greedy(text: str, width: int) -> list[str]:
    """:func:`wrap` without the balancing: fill each line with as many words as fit."""
    lines, line = [], ""
    for token in re.findall(r"[^ \n]*[ ]*\n?", text):  # a word, the spaces after it, a newline
        while token:
            room = width - len(line)
            if len(token) > room and line and len(token) <= width:
                lines.append(line)  # the word starts the next line
                line = ""
                continue
            take = min(len(token), room)  # all of it, or as much as fits of a word longer than a line
            line, token = line + token[:take], token[take:]
            if len(line) == width or line.endswith("\n"):
                lines.append(line)
                line = ""
    if line or not lines:
        lines.append(line)
    return lines


def grid_size(lines: int, per_line: int) -> tuple[int, int]:
    """``(height, width)`` in cells of a picture of ``lines`` x ``per_line`` boxes."""
    return lines * PITCH_Y + FRAME, per_line * PITCH_X + FRAME


def text_grid(text: str, width: int = LINE_WIDTH) -> np.ndarray:
    """Draw ``text`` in boxes, in lines of at most ``width`` characters
    (:func:`wrap`; see the module docstring).

    Returns
    -------
    grid : (H, W) uint8 array, 1 = ink

    Raises
    ------
    OptionError
        The text cannot be drawn (see :func:`check_text`), or a bad
        ``width`` (:func:`check_width`).
    """
    check_text(text)
    glyphs = font()
    lines = wrap(text, width)
    per_line = max(len(line) for line in lines)
    height, width = grid_size(len(lines), per_line)
    grid = np.zeros((height, width), dtype=np.uint8)
    for k in range(len(lines) + 1):
        grid[k * PITCH_Y : k * PITCH_Y + FRAME, :] = 1
    for k in range(per_line + 1):
        grid[:, k * PITCH_X : k * PITCH_X + FRAME] = 1
    for n, line in enumerate(lines):
        for column in range(per_line):
            r, c = _glyph_origin(n, column)
            grid[r : r + GLYPH_H, c : c + GLYPH_W] = glyphs[line[column]] if column < len(line) else _FILLER
    return grid


def _glyph_origin(line: int, column: int) -> tuple[int, int]:
    return line * PITCH_Y + FRAME + MARGIN, column * PITCH_X + FRAME + MARGIN


def read_text(grid: np.ndarray) -> str:
    """Read back the text of a picture made by :func:`text_grid`.

    Parameters
    ----------
    grid : (H, W) integer array, nonzero = ink

    Raises
    ------
    FormatError
        The picture is not a hidden text: wrong size, a frame or margin cell
        out of place, a box that is no glyph of the font, a line that starts
        with an end-of-line box, or a character after one.
    """
    grid = (np.asarray(grid) != 0).astype(np.uint8)
    if grid.ndim != 2:
        msg = f"a hidden text is a two-dimensional picture, not of shape {grid.shape}"
        raise FormatError(msg)
    height, width = grid.shape
    lines, rest_y = divmod(height - FRAME, PITCH_Y)
    per_line, rest_x = divmod(width - FRAME, PITCH_X)
    if lines < 1 or per_line < 1 or rest_x or rest_y:
        msg = (
            f"a {width}x{height} picture is not a rofl hidden text "
            f"(its size must be {PITCH_X}*n+{FRAME} by {PITCH_Y}*m+{FRAME} cells)"
        )
        raise FormatError(msg)
    expected = np.zeros_like(grid)
    expected[[r for k in range(lines + 1) for r in range(k * PITCH_Y, k * PITCH_Y + FRAME)], :] = 1
    expected[:, [c for k in range(per_line + 1) for c in range(k * PITCH_X, k * PITCH_X + FRAME)]] = 1
    glyph_area = np.zeros_like(grid, dtype=bool)
    for line in range(lines):
        for column in range(per_line):
            r, c = _glyph_origin(line, column)
            glyph_area[r : r + GLYPH_H, c : c + GLYPH_W] = True
    wrong = np.argwhere((grid != expected) & ~glyph_area)
    if wrong.size:
        r, c = (int(v) + 1 for v in wrong[0])
        should = "ink (frame)" if grid[r - 1, c - 1] == 0 else "paper (margin)"
        msg = f"not a rofl hidden text: row {r}, column {c} should be {should}"
        raise FormatError(msg)
    by_bitmap = {g.tobytes(): ch for ch, g in font().items()}
    chars: list[str] = []
    for line in range(lines):
        ended = False
        for column in range(per_line):
            r, c = _glyph_origin(line, column)
            box = np.ascontiguousarray(grid[r : r + GLYPH_H, c : c + GLYPH_W])
            where = f"line {line + 1}, box {column + 1}"
            if np.array_equal(box, _FILLER):
                if column == 0:
                    msg = f"not a rofl hidden text: {where} is an end-of-line box, the line is empty"
                    raise FormatError(msg)
                ended = True
                continue
            ch = by_bitmap.get(box.tobytes())
            if ch is None:
                msg = f"not a rofl hidden text: {where} is not a character of rofl's font"
                raise FormatError(msg)
            if ended:
                msg = f"not a rofl hidden text: {where} holds a character after the end-of-line boxes"
                raise FormatError(msg)
            chars.append(ch)
    return "".join(chars)


def hide(text: str, width: int = LINE_WIDTH):
    """The puzzle that hides ``text``, in lines of at most ``width`` characters (:func:`wrap`).

    Returns
    -------
    puzzle : Puzzle
        Black and white; its unique line-logic solution is ``grid``.
    grid : (H, W) uint8 array
        The picture (1 = ink).

    Raises
    ------
    OptionError
        The text cannot be drawn (see :func:`check_text`), or a bad
        ``width`` (:func:`check_width`).
    UnsolvableError
        Line logic does not reach the picture.  The layout rules this out
        (see the module docstring); the check guards against a broken font.
    """
    from rofl.palette import Palette
    from rofl.puzzle import Puzzle
    from rofl.solver import solve

    grid = text_grid(text, width)
    puzzle = Puzzle.from_grid(grid, Palette.black_white())
    result = solve(puzzle)
    if not result.solved or not np.array_equal(result.grid, grid):
        msg = f"internal error: the hidden text is not line-solvable ({result.undetermined} cells undetermined)"
        raise UnsolvableError(msg)
    return puzzle, grid


def reveal(puzzle, *, budget: float | None = None) -> str:
    """Solve ``puzzle`` from its clues alone and read the hidden text.

    ``budget`` bounds the seconds line logic may take (default: no limit).

    Raises
    ------
    BudgetError
        (an :class:`UnsolvableError`) ``budget`` ran out.
    UnsolvableError
        Line logic does not solve the puzzle (so it is no hidden text).
    FormatError
        The solution is not a picture made by :func:`hide`.
    """
    from rofl.solver import LineStatus, solve

    if puzzle.n_colors != 2:
        msg = f"a hidden text is a black-and-white puzzle; this one has {puzzle.n_colors} colours"
        raise FormatError(msg)
    result = solve(puzzle, budget=budget)
    if not result.solved:
        if result.status == LineStatus.CONTRADICTION:
            msg = "the puzzle has no solution, so it hides no text"
        else:
            msg = f"line logic leaves {result.undetermined} cells undetermined: this is no rofl hidden text"
        raise UnsolvableError(msg)
    return read_text(result.grid)
