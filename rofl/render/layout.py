"""Where everything of a printable sheet goes: the geometry the PNG, SVG and PDF sheets share.

:func:`sheet_layout` places every clue number, band and line once, in
pixels; :mod:`rofl.render.sheet` draws that layout with Pillow,
:mod:`rofl.render.svg` writes it as SVG and :mod:`rofl.render.pdf` as a
vector PDF, so the three sheets of one puzzle look alike.  This module also
holds the scale they print at, the colours of bands and lines, and the
checks of the inputs every renderer takes (:func:`sheet_inputs`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from rofl.puzzle import Puzzle

#: Largest sheet drawn, in pixels (SVG: user units) per side.
MAX_SIDE = 30000
#: Largest raster sheet in pixels all told (three bytes each while drawing;
#: an A4 page at 600 dpi is 35 million).
MAX_PIXELS = 64_000_000
#: Smallest cell that still holds a legible clue number.
MIN_CELL = 6
#: Printable area A4 (8.27 x 11.69 in) and US Letter (8.5 x 11 in) share,
#: less margins of about 1/2 inch, in inches (width, height).
PAGE_INCHES = (7.5, 10.0)
#: Finest scale a sheet prints at, in pixels per inch: at 96 dpi the default
#: 26-pixel cell is 6.9 mm, a comfortable square to fill with a pencil.
#: Larger sheets print at a higher density so they fit the page.
BASE_DPI = 96

#: Font metrics the vector sheets (SVG, PDF) place text by, in em: how far a
#: row's clue baseline sits below the row's centre (half the 0.70 em height
#: of Helvetica's digits), and the height of a title (cap height and a
#: little more).
DIGIT_DROP = 0.36
TITLE_EM = 0.75

RGB = tuple[int, int, int]
BAND = (238, 238, 238)  # behind every other group of five lines
THIN = (160, 160, 160)  # between cells


def ink(rgb: RGB) -> RGB:
    """The colour a clue number is printed in: its group's colour, darkened
    when that colour is too light to read on white paper."""
    r, g, b = rgb
    if 0.299 * r + 0.587 * g + 0.114 * b > 170:
        return (int(r * 0.55), int(g * 0.55), int(b * 0.55))
    return rgb


def default_cell(width: int, height: int) -> int:
    """Cell size in pixels for a ``width`` x ``height`` puzzle: 26 up to 80
    cells a side, 22 up to 160, 18 beyond."""
    side = max(width, height)
    return 26 if side <= 80 else 22 if side <= 160 else 18


def print_dpi(width: float, height: float) -> float:
    """Pixels per inch at which a ``width`` x ``height`` pixel sheet prints:
    :data:`BASE_DPI`, or more when needed to fit :data:`PAGE_INCHES`."""
    return max(BASE_DPI, width / PAGE_INCHES[0], height / PAGE_INCHES[1])


def check_solution(puzzle: Puzzle, solution) -> np.ndarray:
    """``solution`` as an ``(H, W)`` uint8 grid, checked against the clues.

    Raises
    ------
    rofl.OptionError
        Wrong shape, a value outside the palette, or a grid whose rows or
        columns do not give the puzzle's clues (the message names the first
        such line).
    """
    import numpy as np

    from rofl.errors import OptionError, PuzzleError

    grid = np.asarray(solution)
    if grid.shape != (puzzle.height, puzzle.width):
        msg = f"the solution has shape {grid.shape} but the puzzle is {puzzle.height} rows by {puzzle.width} columns"
        raise OptionError(msg)
    try:
        line = puzzle.unmet_line(grid)
    except PuzzleError as exc:
        msg = f"the solution: {exc}"
        raise OptionError(msg) from None
    if line is not None:
        msg = f"the solution does not fit the clues ({puzzle.line_name(line)})"
        raise OptionError(msg)
    return grid.astype(np.uint8)


def sheet_inputs(puzzle: Puzzle, solution, title: str | None) -> tuple[np.ndarray | None, str | None]:
    """What every renderer draws: the checked solution grid (None without
    one, see :func:`check_solution`) and the title (default: the puzzle's)."""
    grid = None if solution is None else check_solution(puzzle, solution)
    return grid, puzzle.meta.get("title") if title is None else title


def fill_runs(grid: np.ndarray) -> Iterator[tuple[int, int, int, int]]:
    """``(row, start, stop, colour)`` of every run of same-coloured cells
    that are not background, row by row: the vector sheets draw one
    rectangle per run, which keeps their files small."""
    for i, row in enumerate(grid.tolist()):
        j = 0
        while j < len(row):
            k = j
            while k < len(row) and row[k] == row[j]:
                k += 1
            if row[j]:
                yield i, j, k, row[j]
            j = k


# ------------------------------------------------------------------ placing


@dataclass(frozen=True)
class Number:
    """One printed clue number.

    A row's number ends at ``x`` and is centred on ``y``; a column's number
    is centred on ``x`` and its foot stands on ``y``.
    """

    text: str
    x: float
    y: float
    color: RGB
    in_row: bool


@dataclass(frozen=True)
class Layout:
    """Where everything of a sheet goes, in pixels from the top left corner.

    The grid's top left corner is ``(x0, y0)``; ``lines`` are
    ``(x1, y1, x2, y2, bold)``, ``bands`` are ``(left, top, right, bottom)``.
    """

    width: int
    height: int
    cell: int
    margin: int
    font_size: int
    title_size: int
    title: str | None
    x0: int
    y0: int
    numbers: list[Number]
    bands: list[tuple[int, int, int, int]]
    lines: list[tuple[int, int, int, int, bool]]


Measure = Callable[[str, int], float]


def sheet_layout(
    puzzle: Puzzle,
    *,
    cell: int | None,
    title: str | None,
    text_width: Measure,
    title_height: Measure,
    max_pixels: int | None = None,
) -> Layout:
    """Place the clues, bands and lines of ``puzzle``'s sheet.

    Parameters
    ----------
    puzzle : Puzzle
    cell : int or None
        Cell size in pixels; None picks :func:`default_cell`, made smaller
        (down to :data:`MIN_CELL`) when the sheet would exceed the limits.
    title : str or None
        None or an empty string: no title.
    text_width, title_height : callable ``(text, font_size) -> pixels``
        How wide a text is, and how tall the title is, in the renderer's font.
    max_pixels : int, optional
        Limit on width x height (raster sheets).

    Raises
    ------
    rofl.OptionError
        A cell smaller than :data:`MIN_CELL`, or a sheet larger than
        :data:`MAX_SIDE` a side (or ``max_pixels`` in all).
    """
    from rofl.errors import OptionError

    if cell is not None:
        if cell < MIN_CELL:
            msg = f"cell size {cell} px is too small to print clues (at least {MIN_CELL})"
            raise OptionError(msg)
        layout = _place(puzzle, cell, title, text_width, title_height)
    else:
        cell = default_cell(puzzle.width, puzzle.height)
        layout = _place(puzzle, cell, title, text_width, title_height)
        while not _fits(layout, max_pixels) and cell > MIN_CELL:
            # the sheet grows about linearly with the cell: jump close, then step down
            w, h = layout.width, layout.height
            shrink = min(MAX_SIDE / w, MAX_SIDE / h, ((max_pixels or w * h) / (w * h)) ** 0.5, 1.0)
            cell = max(MIN_CELL, min(cell - 1, int(cell * shrink)))
            layout = _place(puzzle, cell, title, text_width, title_height)
    if not _fits(layout, max_pixels):
        msg = (
            f"a sheet of {layout.width}x{layout.height} pixels (cell {cell} px) is too large "
            f"(at most {MAX_SIDE} a side"
            + (f", {max_pixels // 1_000_000} million in all" if max_pixels else "")
            + "); choose a smaller cell size"
        )
        raise OptionError(msg)
    return layout


def _fits(layout: Layout, max_pixels: int | None) -> bool:
    if layout.width > MAX_SIDE or layout.height > MAX_SIDE:
        return False
    return max_pixels is None or layout.width * layout.height <= max_pixels


def _number_ink(palette, colour: int) -> RGB:
    return ink(palette[colour]) if colour else (0, 0, 0)  # the 0 of an empty line: black


def _place(puzzle: Puzzle, cell: int, title: str | None, text_width: Measure, title_height: Measure) -> Layout:
    font_size = max(8, round(cell * 0.55))
    title_size = max(10, round(cell * 1.1))
    palette = puzzle.palette
    gap = max(3, cell // 3)  # between neighbouring numbers of a row clue
    margin = cell
    # An empty line shows a single 0, as on most printed puzzles: a blank
    # would look like a clue the printer forgot.
    rows, cols = ([clue or ((0, 0),) for clue in lines] for lines in (puzzle.rows, puzzle.cols))

    widths = [[text_width(str(n), font_size) for n, _ in clue] for clue in rows]
    clue_w = int(max((sum(w) + gap * max(0, len(w) - 1) for w in widths), default=0) + 2 * gap)
    line_h = cell  # one number per cell height in the column clues
    clue_h = max((len(clue) for clue in cols), default=0) * line_h + gap
    title_h = title_w = 0
    if title:
        title_h = int(title_height(title, title_size)) + cell
        title_w = int(text_width(title, title_size) + 1)
    x0 = margin + clue_w
    top = margin + title_h  # where the clues start
    y0 = top + clue_h
    grid_w, grid_h = puzzle.width * cell, puzzle.height * cell
    # a long title widens the sheet to its right; the grid stays where it is
    width = max(x0 + grid_w, margin + title_w) + margin
    height = y0 + grid_h + margin

    numbers: list[Number] = []
    for i, (clue, clue_widths) in enumerate(zip(rows, widths, strict=True)):
        x = x0 - gap
        cy = y0 + i * cell + cell / 2
        for (n, c), w in zip(reversed(clue), reversed(clue_widths), strict=True):
            numbers.append(Number(str(n), x, cy, _number_ink(palette, c), True))
            x -= w + gap
    for j, clue in enumerate(cols):
        cx = x0 + j * cell + cell / 2
        y = y0 - gap
        for n, c in reversed(clue):
            numbers.append(Number(str(n), cx, y, _number_ink(palette, c), False))
            y -= line_h

    # light bands behind every other group of five lines guide the eye from clue to line
    bands = []
    for i in range(5, puzzle.height, 10):
        bands.append((margin, y0 + i * cell, x0, y0 + min(i + 5, puzzle.height) * cell))
    for j in range(5, puzzle.width, 10):
        bands.append((x0 + j * cell, top, x0 + min(j + 5, puzzle.width) * cell, y0))

    # thin lines between cells; thick ones every fifth cell, drawn out
    # through the clues so a row's numbers are easy to follow
    lines = []
    for i in range(puzzle.height + 1):
        y = y0 + i * cell
        bold = i % 5 == 0 or i == puzzle.height
        lines.append((margin if bold else x0, y, x0 + grid_w, y, bold))
    for j in range(puzzle.width + 1):
        x = x0 + j * cell
        bold = j % 5 == 0 or j == puzzle.width
        lines.append((x, top if bold else y0, x, y0 + grid_h, bold))
    return Layout(
        width=width,
        height=height,
        cell=cell,
        margin=margin,
        font_size=font_size,
        title_size=title_size,
        title=title or None,
        x0=x0,
        y0=y0,
        numbers=numbers,
        bands=bands,
        lines=lines,
    )
