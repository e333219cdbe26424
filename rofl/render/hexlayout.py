"""Where everything of a hexagonal puzzle's sheet goes: the geometry the SVG,
PNG and PDF hexagonal sheets share (:func:`rofl.render.svg.puzzle_svg`, and
:func:`rofl.render.canvas.draw_hex_sheet` for :func:`rofl.render.sheet.puzzle_png`
and :func:`rofl.render.pdf.puzzle_pdf`), and the scale each prints at.

Cells are pointy-top hexagons placed as :class:`~rofl.hexagon.Hexagon`
numbers them.  Each line's clue stands on the line's own axis, beyond the
board, with a light guide line from the board to its last number, so every
clue visibly belongs to its line:

* rows: to the left of the board, read left to right toward it;
* rising diagonals (``/``): beyond their top end (top and upper-right
  edges), first group farthest from the board;
* falling diagonals (``\\``): beyond their bottom end (bottom and
  lower-right edges), first group nearest the board.

Colour clues stand in boxes of their group's colour with readable digits
(:func:`rofl.render.layout.text_on`); a ``?`` group (colour unknown among
several) is a grey hatched box marked ``?``, which the key explains.  Units are abstract
(a cell's circumradius is :data:`R`); each output scales them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rofl.render.layout import A4_POINTS, PAGE_INCHES, RGB, check_solution, clue_label, key_text

if TYPE_CHECKING:  # pragma: no cover
    from rofl.hexagon import HexPuzzle

R = 12.0  # circumradius of a cell
SQ3 = math.sqrt(3)
FONT = 0.85 * R  # clue digits' size
DIGIT_EM = 0.62  # advance of a digit, in em (as rofl.render.svg)
STEP = 1.25 * R  # between numbers along a diagonal's axis
UNKNOWN = "unknown"  # the fill of a ? group's box: grey hatching
KINDS = ("row-clues", "falling-clues", "rising-clues")
UNKNOWN_KEY = "? = a group of one of several colours (the clue does not say which)"


@dataclass(frozen=True)
class HexNumber:
    """One clue number: ``anchor`` "end" (x is its right end) or "middle";
    ``y`` is its centre line; ``fill`` is None (black on paper), an RGB
    box or :data:`UNKNOWN`; ``line`` counts within its direction ``kind``."""

    kind: str
    line: int
    index: int  # the group's place in the line's clue, from 0
    text: str
    x: float
    y: float
    anchor: str
    ink: RGB
    fill: RGB | str | None

    @property
    def box(self) -> tuple[float, float, float, float]:
        w = text_width(self.text)
        left = self.x - w if self.anchor == "end" else self.x - w / 2
        return left - 1.5, self.y - FONT * 0.62, left + w + 1.5, self.y + FONT * 0.62


@dataclass(frozen=True)
class HexSheet:
    """A hexagonal sheet: cells ``(x, y, colour)`` (colour -1 for a blank
    cell to fill in), numbers, guide lines, the key ``(fill, text)`` at
    ``key_at`` (x, y of the first entry, one line apart), and the bounds."""

    cells: tuple[tuple[float, float, int], ...]
    numbers: tuple[HexNumber, ...]
    guides: tuple[tuple[float, float, float, float], ...]
    key: tuple[tuple[RGB | str, str], ...]
    key_at: tuple[float, float]
    title: str | None
    left: float
    top: float
    width: float
    height: float

    def hexagon(self, x: float, y: float) -> list[tuple[float, float]]:
        """The corners of the cell centred on ``(x, y)``."""
        return [(x + R * math.cos(math.radians(a)), y + R * math.sin(math.radians(a))) for a in range(30, 390, 60)]


#: Pixels per inch of a hexagonal PNG sheet, drawn to fit the printable page (:data:`PAGE_INCHES`).
PNG_DPI = 150


def page_scale(width: float, height: float, page: tuple[float, float]) -> tuple[float, bool]:
    """Page units per layout unit of a ``width`` x ``height`` sheet as large as
    fits ``page`` (width, height), and whether landscape prints it larger."""
    portrait = min(page[0] / width, page[1] / height)
    landscape = min(page[1] / width, page[0] / height)
    return (landscape, True) if landscape > portrait * 1.001 else (portrait, False)


def png_scale(sheet: HexSheet) -> float:
    """Pixels per layout unit of the PNG sheet: the page at :data:`PNG_DPI`."""
    return page_scale(sheet.width, sheet.height, (PAGE_INCHES[0] * PNG_DPI, PAGE_INCHES[1] * PNG_DPI))[0]


def pdf_scale(sheet: HexSheet) -> tuple[float, bool]:
    """PDF points per layout unit on one A4 page, and whether it is landscape."""
    margin = 36.0  # half an inch: inside what A4 and Letter printers reach
    page = (min(A4_POINTS[0], 612.0) - 2 * margin, min(A4_POINTS[1], 792.0) - 2 * margin)
    return page_scale(sheet.width, sheet.height, page)


def text_width(text: str) -> float:
    return max(1, len(text)) * DIGIT_EM * FONT


#: Largest side of a hexagon drawn on a sheet (SVG, PNG, PDF) or a page.  A
#: hexagonal sheet draws every cell, so it grows with the square of the side
#: while its file grows with the side: an empty side-1024 file of 12 kB gave
#: a 437 MB SVG (issue 40).  At side 128 (``rofl make --shape hex``'s
#: largest: 48 769 cells) the SVG is some 6 MB and the PDF's cells are
#: already under a millimetre on A4.
MAX_SHEET_SIDE = 128


def check_hex_sheet(puzzle: HexPuzzle, what: str = "a hexagonal sheet") -> None:
    """Refuse a hexagon larger than :data:`MAX_SHEET_SIDE` before anything is drawn.

    Raises
    ------
    LimitError
        (a :class:`~rofl.errors.FormatError`: the puzzle, not an option, is too large)
    """
    from rofl.errors import LimitError

    if puzzle.side > MAX_SHEET_SIDE:
        msg = f"{what} draws every cell: at most a hexagon of side {MAX_SHEET_SIDE} "
        msg += f"({3 * MAX_SHEET_SIDE * (MAX_SHEET_SIDE - 1) + 1} cells); this one has side {puzzle.side}"
        raise LimitError(msg)


def hex_title(puzzle: HexPuzzle, cell: int | None, title: str | None, suffix: str, font=None) -> str | None:
    """The title a hexagonal sheet file prints (default: the puzzle's), with
    the characters a PNG's or PDF's font lacks shown by stand-ins
    (:func:`rofl.render.fonts.shown`; an SVG names its fonts).

    Raises
    ------
    rofl.OptionError
        A ``cell`` size: a hexagonal sheet fills its page.
    """
    if cell is not None:
        from rofl.errors import OptionError

        msg = "--cell sizes a rectangular grid's cells; a hexagonal sheet fills its page"
        raise OptionError(msg)
    title = puzzle.meta.get("title") or None if title is None else title
    if title and suffix != ".svg":
        from rofl.render.fonts import sheet_covers, shown

        title = shown(title, sheet_covers(suffix, font))
    return title


def hex_layout(puzzle: HexPuzzle, *, solution=None, title: str | None = None, letters: bool = False) -> HexSheet:
    """Lay out ``puzzle``'s sheet; with ``solution`` (a flat cell array in
    the board's order) the cells are filled with it.  ``title`` defaults to
    the puzzle's (``meta["title"]``), as on a rectangle's sheet.

    Raises
    ------
    LimitError
        A hexagon larger than :data:`MAX_SHEET_SIDE`.
    rofl.OptionError
        A solution that is not a filling of the board or does not fit the
        clues (:func:`rofl.render.layout.check_solution`).
    """
    check_hex_sheet(puzzle)
    if title is None:
        title = puzzle.meta.get("title") or None
    board, palette = puzzle.board, puzzle.palette
    colour_puzzle = puzzle.n_colors > 2 or puzzle.has_color_sets
    xs: list[float] = []
    ys: list[float] = []
    numbers: list[HexNumber] = []
    guides = []

    def label(group) -> tuple[str, RGB, RGB | str | None]:
        length, colour = group
        if isinstance(colour, frozenset):
            return f"{length}?", (0, 0, 0), UNKNOWN  # the possible colours' letters would not fit a diagonal
        # letters only where the numbers stand in boxes: a black-and-white sheet's need none
        return clue_label(length, colour, palette, colour_puzzle, letters and colour_puzzle)

    def place(kind, line, index, group, x, y, anchor) -> HexNumber:
        text, ink, fill = label(group)
        number = HexNumber(kind, line, index, text, x, y, anchor, ink, fill)
        left, top, right, bottom = number.box
        xs.extend([left - 1, right + 1])
        ys.extend([top - 1, bottom + 1])
        numbers.append(number)
        return number

    cells = None if solution is None else check_solution(puzzle, solution)
    centres = board.centres(R).tolist()  # the board's geometry, cells of circumradius R
    placed = []
    for i, (x, y) in enumerate(centres):
        xs.extend([x - R, x + R])
        ys.extend([y - R, y + R])
        placed.append((x, y, -1 if cells is None else int(cells[i])))

    clues = puzzle.rows, puzzle.falling, puzzle.rising
    per = 2 * board.side - 1
    for d, kind in enumerate(KINDS):
        for k in range(per):
            line = board.line(d * per + k)
            clue = clues[d][k] or ((0, 0),)
            if d == 0:
                x0, y0 = centres[line[0]]
                x = x0 - R * 1.3
                for index in range(len(clue) - 1, -1, -1):
                    number = place(kind, k, index, clue[index], x, y0, "end")
                    x = number.box[0] - 3.5
                guides.append((x, y0, x0 - R, y0))
            else:
                end = line[-1] if d == 1 else line[0]
                x0, y0 = centres[end]
                dx, dy = (0.5, SQ3 / 2) if d == 1 else (0.5, -SQ3 / 2)
                order = range(len(clue)) if d == 1 else range(len(clue) - 1, -1, -1)
                t = R * 1.6
                for index in order:
                    place(kind, k, index, clue[index], x0 + dx * t, y0 + dy * t, "middle")
                    t += STEP
                t -= STEP * 0.4
                guides.append((x0 + dx * R, y0 + dy * R, x0 + dx * t, y0 + dy * t))

    key = []
    if colour_puzzle:
        key = [(tuple(palette[c]), key_text(puzzle, c, letters)) for c in range(len(palette))]
        if puzzle.has_color_sets:
            key.append((UNKNOWN, UNKNOWN_KEY))
    key_at = (min(xs), max(ys) + FONT * 1.5)
    bottom = key_at[1] + FONT * 1.5 * len(key) - (FONT * 0.8 if key else 0)
    top = min(ys) - (FONT * 2.2 if title else 4)
    left, right = min(xs) - 4, max(xs) + 4
    if key:
        right = max(right, key_at[0] + FONT * 1.6 + max(len(t) for _, t in key) * 0.55 * FONT + 4)
    if title:
        left = min(left, (left + right) / 2 - len(title) * 0.4 * FONT * 1.3)
        right = max(right, (left + right) / 2 + len(title) * 0.4 * FONT * 1.3)
    return HexSheet(
        tuple(placed),
        tuple(numbers),
        tuple(guides),
        tuple(key),
        key_at,
        title,
        left,
        top,
        right - left,
        max(bottom, max(ys)) + 4 - top,
    )
