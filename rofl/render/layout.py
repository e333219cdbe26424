"""Where everything of a printable sheet goes: the geometry the PNG, SVG and PDF sheets share.

:func:`sheet_layout` places every clue number, band and line once, in
pixels; :mod:`rofl.render.sheet` draws that layout with Pillow,
:mod:`rofl.render.svg` writes it as SVG and :mod:`rofl.render.pdf` as a
vector PDF, so the three sheets of one puzzle look alike.  This module also
holds the scale they print at, the colours of bands and lines, the colour
key below the grid (:class:`KeyEntry`, named by :func:`colour_name`), the
box of a colour clue number (its group's exact colour) and the black or
white its digits print in (:func:`text_on`: WCAG contrast at least 4.58), the
letters of ``--letters`` clues, and the checks of the inputs every renderer
takes (:class:`SheetOptions`, :func:`sheet_inputs`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from rofl.board import BoardPuzzle
    from rofl.puzzle import Puzzle
    from rofl.render.fonts import FontFile

#: Largest sheet drawn, in pixels (SVG: user units) per side.
MAX_SIDE = 30000
#: Largest raster sheet in pixels all told (three bytes each while drawing;
#: an A4 page at 600 dpi is 35 million).
MAX_PIXELS = 64_000_000
#: Most clue numbers one sheet of a rectangle draws, in any format.  An SVG
#: or PDF sheet has no limit on pixels, and each number costs about 500
#: bytes while it is drawn: a 2048x2048 puzzle of random dots (2.1 million
#: numbers, from a 4 MB file) took 1.3 GB and 20-30 s of CPU for a sheet
#: no printer shows (session 10's audit).  A million is twice a 1000x1000
#: picture's, more than any PNG sheet fits (:data:`MAX_PIXELS`).
MAX_NUMBERS = 1_000_000
#: Smallest cell that still holds a legible clue number.
MIN_CELL = 6
#: Widest a title may make a sheet narrower than this, in cells: a longer
#: title is cut short with an ellipsis, "…" (every sheet's default font has
#: it; a title of 100,000 characters once asked for a sheet 600,000 pixels
#: wide).
TITLE_CELLS = 60
#: Printable area A4 (8.27 x 11.69 in) and US Letter (8.5 x 11 in) share,
#: less margins of about 1/2 inch, in inches (width, height).
PAGE_INCHES = (7.5, 10.0)
#: A4 in PostScript points (1/72 inch), portrait: the page of a PDF sheet.
A4_POINTS = (595.28, 841.89)
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


#: Least WCAG contrast ratio between a clue number and the box (or paper)
#: it stands on (WCAG 2 level AA for normal text).  Black or white reaches
#: at least the square root of 21, 4.58, on any colour (:func:`text_on`).
MIN_CONTRAST = 4.5
#: A clue box's height, and most width in a column, as a share of the cell:
#: what is left parts it from its neighbours.
BOX = 0.84
#: Letters that stand for colours 1, 2, ... in ``--letters`` clues and the
#: key, as in colour clue files (Olsak's ``.g``): lower case, upper case,
#: then signs that cannot be taken for a digit.
LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ!$%&*+/;<=>?@^_~"
PAPER = (255, 255, 255)


@dataclass(frozen=True)
class SheetOptions:
    """What a sheet is drawn with, whatever its file type: the keywords of
    :func:`rofl.render.sheet.puzzle_sheet`, :func:`rofl.render.pdf.puzzle_pdf`
    and :func:`rofl.render.sheet.sheet_bytes`, which build one.

    Attributes
    ----------
    solution : array of palette indices, optional
        Fill the cells with this picture (a solution sheet): a rectangle's
        ``(H, W)`` grid or a hexagon's flat cell array; it must fit the clues.
    cell : int, optional
        A rectangle's cell size in pixels (default :func:`default_cell`,
        smaller when the sheet would exceed :data:`MAX_SIDE` or
        :data:`MAX_PIXELS`; clue numbers are about 55 % of it, so two digits
        fit a column); a PDF sheet prints it at :data:`BASE_DPI` (default:
        the sheet fills its page).  A hexagonal sheet takes none.
    title : str, optional
        Printed above the grid; defaults to ``puzzle.meta["title"]``; an
        empty string prints none.  Characters the font lacks print as a
        stand-in (see :func:`rofl.render.fonts.shown`).
    font : FontFile, optional
        Draw numbers and title in this font (default: a PNG's, the small
        font Pillow ships, which covers little more than ASCII; a PDF's,
        Helvetica, not embedded).
    letters : bool
        Print each clue number with its colour's letter (``2a 3b``), as the
        key does, so a colour puzzle can be solved from a black-and-white print.
    """

    solution: Any = None
    cell: int | None = None
    title: str | None = None
    font: FontFile | None = None
    letters: bool = False


def _linear(v: int) -> float:
    """An sRGB channel (0-255) in linear light (0-1)."""
    c = v / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def luminance(rgb: RGB) -> float:
    """WCAG 2 relative luminance of an sRGB colour: 0 (black) to 1 (white)."""
    r, g, b = (_linear(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: RGB, b: RGB) -> float:
    """WCAG 2 contrast ratio of two colours, 1 (the same) to 21 (black on white)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def text_on(rgb: RGB) -> RGB:
    """Black or white, whichever has the higher WCAG contrast on ``rgb``: the
    digits of a clue number in a box of that colour.  The two contrasts
    multiply to 21, so the better one is at least its square root, 4.58,
    above :data:`MIN_CONTRAST` whatever the colour."""
    return (0, 0, 0) if contrast(rgb, (0, 0, 0)) >= contrast(rgb, PAPER) else PAPER


def colour_name(rgb: RGB) -> str:
    """A plain English name for ``rgb`` for the key of a sheet: the xkcd colour
    survey's name nearest it by ΔE2000 ("terracotta", "dark taupe";
    :func:`rofl.picture.legibility.colour_name`).  The hex code that follows
    it is exact; the name helps a reader at a glance."""
    from rofl.picture.legibility import colour_name as named

    return named(rgb)


def has_key(puzzle: Puzzle) -> bool:
    """Whether ``puzzle``'s sheet prints a key: every puzzle but black on
    white, whose filled and blank cells need no explaining."""
    return tuple(puzzle.palette.hex()) != ("#ffffff", "#000000")


def letter(colour: int) -> str:
    """The letter of palette colour ``colour`` (1 is ``a``) in ``--letters`` clues."""
    return LETTERS[colour - 1]


def clue_text(length: int, colour: int, letters: bool) -> str:
    """A clue number as it prints: ``"3"``, or with ``letters`` its colour's letter after it (``"3b"``)."""
    return f"{length}{letter(colour)}" if letters and colour else str(length)


def clue_label(length: int, colour: int, palette, boxed: bool, letters: bool) -> tuple[str, RGB, RGB | None]:
    """How a clue number of a sheet of either shape prints: its text
    (:func:`clue_text`), its ink and the fill of its box.  In a sheet with
    boxes (``boxed``: a colour puzzle) a group's number stands in a box of
    its colour, its digits black or white (:func:`text_on`); the 0 of an
    empty line and every number of a sheet without boxes print black on the
    paper, with no box (fill None)."""
    text = clue_text(length, colour, letters)
    if not (boxed and colour):
        return text, (0, 0, 0), None
    rgb = tuple(palette[colour])
    return text, text_on(rgb), rgb  # type: ignore[return-value]


def default_cell(width: int, height: int) -> int:
    """Cell size in pixels for a ``width`` x ``height`` puzzle: 26 up to 80
    cells a side, 22 up to 160, 18 beyond."""
    side = max(width, height)
    return 26 if side <= 80 else 22 if side <= 160 else 18


def print_dpi(width: float, height: float) -> float:
    """Pixels per inch at which a ``width`` x ``height`` pixel sheet prints:
    :data:`BASE_DPI`, or more when needed to fit :data:`PAGE_INCHES`."""
    return max(BASE_DPI, width / PAGE_INCHES[0], height / PAGE_INCHES[1])


def check_solution(puzzle: BoardPuzzle, solution) -> np.ndarray:
    """``solution`` as a uint8 filling of the puzzle's board (an ``(H, W)``
    grid, or a hexagon's flat cell array), checked against the clues.

    Raises
    ------
    rofl.OptionError
        Wrong shape, a value outside the palette, or a filling whose lines
        do not give the puzzle's clues (the message names the first such line).
    """
    import numpy as np

    from rofl.errors import OptionError, PuzzleError

    grid = np.asarray(solution)
    board = puzzle.board
    if grid.shape != board.grid_shape:
        if len(board.grid_shape) == len(board.directions):  # an axis a direction: "4 rows by 6 columns"
            extent = " by ".join(f"{n} {plural}" for n, (_, plural) in zip(board.grid_shape, board.directions))  # noqa: B905
        else:
            extent = f"a {board.size_text()} of {board.n_cells} cells"
        msg = f"the solution has shape {grid.shape} but the puzzle is {extent}"
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
    """What every renderer of a rectangle draws: the checked solution grid
    (None without one, see :func:`check_solution`) and the title (default:
    the puzzle's).

    Raises
    ------
    rofl.FormatError
        Groups of unknown colour (``?``), which a rectangle's sheet cannot
        draw yet (a hexagon's draws them hatched).
    """
    if puzzle.has_color_sets:
        from rofl.errors import FormatError

        msg = "a rectangular sheet cannot draw groups of unknown colour ('?') yet; a hexagonal one can"
        raise FormatError(msg)
    grid = None if solution is None else check_solution(puzzle, solution)
    return grid, puzzle.meta.get("title") if title is None else title


def difficulty_title(puzzle, title: str | None) -> str | None:
    """``title`` (None: the puzzle's own) with the puzzle's grade
    (:func:`rofl.grade`) after it, ``"Camera (medium, 2/5)"``; the title
    alone for a puzzle rofl does not grade (``?`` groups, no solution, huge)."""
    from rofl.solver.grade import grade_shown

    title = puzzle.meta.get("title") if title is None else title
    difficulty, _ = grade_shown(puzzle)
    if difficulty is None:
        return title
    tag = f"{difficulty.name}, {difficulty.grade}/5"
    return f"{title} ({tag})" if title else tag


def split_grade(text: str) -> tuple[str, str]:
    """``text`` as the title and the grade :func:`difficulty_title` put
    after it, ``("Camera ", "(medium, 2/5)")``; ``(text, "")`` without one.
    A title cut short to fit keeps its grade."""
    from rofl.solver.grade import NAMES

    names = "|".join(re.escape(name) for name in NAMES.values())
    found = re.search(rf"\((?:{names}), [1-5]/5\)$", text)
    return (text, "") if found is None else (text[: found.start()], found.group())


def cut_short(text: str, width: float, measure: Callable[[str], float], ellipsis: str = "...") -> str:
    """``text``, cut short with ``ellipsis`` when ``measure(text)`` is wider
    than ``width``; a grade after a title (:func:`split_grade`) stays whole
    after the ellipsis when it fits alone.  The longest head that fits is
    found by bisection (a title may have many thousands of characters)."""
    if measure(text) <= width:
        return text
    head, grade = split_grade(text)
    if grade and measure(f"{ellipsis} {grade}") <= width:
        head, tail = head.rstrip(), f" {grade}"
    else:
        head, tail = text, ""
    low, high = 0, len(head)  # head[:low] fits, head[:high + 1] does not
    while low < high:
        mid = (low + high + 1) // 2
        if measure(head[:mid].rstrip() + ellipsis + tail) <= width:
            low = mid
        else:
            high = mid - 1
    return head[:low].rstrip() + ellipsis + tail


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
    is centred on ``x`` and its foot stands on ``y``.  In a colour puzzle
    (one with a key, :func:`has_key`) each number but an empty line's 0
    stands in a framed ``box`` ``(left, top, right, bottom)`` filled with
    its group's exact colour ``fill``, and ``color`` is black or white
    (:func:`text_on`): the colour stays the palette's, so it matches the
    key and the grid, and the digits still read.  Otherwise ``box`` and
    ``fill`` are None and the number is black on the paper.
    """

    text: str
    x: float
    y: float
    color: RGB
    in_row: bool
    box: tuple[float, float, float, float] | None = None
    fill: RGB | None = None


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
    key: list[KeyEntry]


@dataclass(frozen=True)
class KeyEntry:
    """One colour of a sheet's key: a framed square swatch of side ``side``
    with its top left corner at ``(x, y)``, then ``text`` (at the key's font
    size, which is the clue numbers') starting at ``text_x``, its digits
    centred on the swatch's middle."""

    x: float
    y: float
    side: float
    color: RGB
    text: str
    text_x: float


def key_text(puzzle: Puzzle, colour: int, letters: bool) -> str:
    """What the key says of palette colour ``colour``: its letter (with
    ``letters``) or number, name and hex code; the background is "blank"."""
    rgb = puzzle.palette[colour]
    named = f"{colour_name(rgb)} #{rgb[0]:02x}{rgb[1]:02x}{rgb[2]:02x}"
    if colour == 0:
        return f"blank ({named})"
    return f"{letter(colour) if letters else colour} = {named}"


Measure = Callable[[str, int], float]


def sheet_layout(
    puzzle: Puzzle,
    *,
    cell: int | None,
    title: str | None,
    text_width: Measure,
    title_height: Measure,
    max_pixels: int | None = None,
    letters: bool = False,
    title_size: int | None = None,
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
    letters : bool
        Print each clue number with its colour's letter (``2a 3b``), so a
        colour puzzle can be solved from a black-and-white print.
    title_size : int, optional
        Size of the title's type in pixels (default 1.1 cells; a PDF that
        scales the sheet to its page keeps the title at one size in points).

    Raises
    ------
    rofl.OptionError
        A cell smaller than :data:`MIN_CELL`, or a sheet larger than
        :data:`MAX_SIDE` a side (or ``max_pixels`` in all).
    """
    from rofl.errors import OptionError

    _check_size(puzzle, cell or MIN_CELL, max_pixels, given=cell is not None)
    if cell is not None:
        if cell < MIN_CELL:
            msg = f"cell size {cell} px is too small to print clues (at least {MIN_CELL})"
            raise OptionError(msg)
        layout = _place(puzzle, cell, title, text_width, title_height, letters, title_size)
    else:
        cell = default_cell(puzzle.width, puzzle.height)
        layout = _place(puzzle, cell, title, text_width, title_height, letters, title_size)
        while not _fits(layout, max_pixels) and cell > MIN_CELL:
            # the sheet grows about linearly with the cell: jump close, then step down
            w, h = layout.width, layout.height
            shrink = min(MAX_SIDE / w, MAX_SIDE / h, ((max_pixels or w * h) / (w * h)) ** 0.5, 1.0)
            cell = max(MIN_CELL, min(cell - 1, int(cell * shrink)))
            layout = _place(puzzle, cell, title, text_width, title_height, letters, title_size)
    if not _fits(layout, max_pixels):
        msg = (
            f"a sheet of {layout.width}x{layout.height} pixels (cell {cell} px) is too large "
            f"(at most {MAX_SIDE} a side"
            + (f", {max_pixels // 1_000_000} million in all" if max_pixels else "")
            + "); choose a smaller cell size"
        )
        raise OptionError(msg)
    return layout


def check_numbers(puzzle: Puzzle, what: str = "a sheet") -> None:
    """Refuse a rectangle of more than :data:`MAX_NUMBERS` clue numbers
    before anything is placed or solved.

    Raises
    ------
    LimitError
        (a :class:`~rofl.errors.FormatError`: the puzzle, not an option, is too large)
    """
    from rofl.errors import LimitError

    numbers = len(puzzle.lengths)
    if numbers > MAX_NUMBERS:
        msg = (
            f"{what} of {puzzle.width}x{puzzle.height} cells would print its {numbers:,} clue numbers; "
            f"rofl prints at most {MAX_NUMBERS:,} on one sheet"
        )
        raise LimitError(msg)


def _check_size(puzzle: Puzzle, cell: int, max_pixels: int | None, *, given: bool) -> None:
    """Refuse, before millions of clue numbers are placed, a sheet that cannot
    fit at ``cell`` (the smallest cell when none is ``given``): its grid,
    margins and clue cells, with at least 3 pixels a row clue number, are a
    lower bound on its size.

    Raises
    ------
    LimitError
        No cell fits, or more than :data:`MAX_NUMBERS` clue numbers (the
        puzzle, not an option, is too large).
    OptionError
        The cell given does not fit.
    """
    from rofl.errors import LimitError, OptionError

    check_numbers(puzzle)
    if cell < MIN_CELL:
        return  # sheet_layout's own message
    row_groups = max((len(clue) for clue in puzzle.rows), default=0)
    col_groups = max((len(clue) for clue in puzzle.cols), default=0)
    width = (puzzle.width + 2) * cell + 3 * row_groups
    height = (puzzle.height + 2 + col_groups) * cell
    if width <= MAX_SIDE and height <= MAX_SIDE and (max_pixels is None or width * height <= max_pixels):
        return
    limit = f"at most {MAX_SIDE} pixels a side" + (f", {max_pixels // 1_000_000} million in all" if max_pixels else "")
    size = f"{puzzle.width}x{puzzle.height} cells and clues of up to {max(row_groups, col_groups)} numbers"
    if given:
        msg = f"a sheet of {size} is too large: at least {width}x{height} pixels at cell {cell} px ({limit})"
        msg += "; choose a smaller cell size"
        raise OptionError(msg)
    msg = (
        f"a sheet of {size} is too large: at least {width}x{height} pixels even with the smallest cell, "
        f"{MIN_CELL} px ({limit})"
    )
    if max_pixels is not None:
        msg += "; a .svg or .pdf sheet has no such limit on pixels"
    raise LimitError(msg)


def _fits(layout: Layout, max_pixels: int | None) -> bool:
    if layout.width > MAX_SIDE or layout.height > MAX_SIDE:
        return False
    return max_pixels is None or layout.width * layout.height <= max_pixels


def _place(
    puzzle: Puzzle,
    cell: int,
    title: str | None,
    text_width: Measure,
    title_height: Measure,
    letters: bool,
    title_size: int | None,
) -> Layout:
    # a number and a letter ("12a") must still fit a column's cell
    font_size = max(8, round(cell * (0.46 if letters else 0.55)))
    title_size = title_size or max(10, round(cell * 1.1))
    palette = puzzle.palette
    gap = max(3, cell // 3)  # between neighbouring numbers of a row clue
    margin = cell
    # An empty line shows a single 0, as on most printed puzzles: a blank
    # would look like a clue the printer forgot.
    rows, cols = ([clue or ((0, 0),) for clue in lines] for lines in (puzzle.rows, puzzle.cols))

    def text_of(n: int, c: int) -> str:
        return clue_text(n, c, letters)

    boxed = has_key(puzzle)
    half = BOX * cell / 2
    pad = max(1.0, gap / 2 - 1)  # a row's boxes stay apart by at least 2 pixels

    def number(n: int, c: int, x: float, y: float, w: float, in_row: bool) -> Number:
        text, ink, fill = clue_label(n, c, palette, boxed, letters)
        if fill is None:
            return Number(text, x, y, ink, in_row)
        if in_row:  # ends at x, centred on y
            box = (x - w - pad, y - half, x + pad, y + half)
        else:  # centred on x, the digits' middle half their height above the foot
            middle = y - DIGIT_DROP * font_size
            side = max(w + 2, min(w + 2 * pad, BOX * cell)) / 2
            box = (x - side, middle - half, x + side, middle + half)
        return Number(text, x, y, ink, in_row, box, fill)

    # Every column's numbers must fit its cell, or neighbouring columns'
    # numbers (and their boxes) run into each other: with very small cells
    # (a sheet asked for at 6 pt) the floor of 8 points gives way.
    widest = max((text_of(n, c) for clue in cols for n, c in clue), key=lambda t: text_width(t, font_size), default="")
    while font_size > 4 and text_width(widest, font_size) > BOX * cell:
        font_size -= 1
    widths = [[text_width(text_of(n, c), font_size) for n, c in clue] for clue in rows]
    clue_w = int(max((sum(w) + gap * max(0, len(w) - 1) for w in widths), default=0) + 2 * gap)
    line_h = cell  # one number per cell height in the column clues
    clue_h = max((len(clue) for clue in cols), default=0) * line_h + gap
    title_h = title_w = 0
    x0 = margin + clue_w
    if title:
        room = max(x0 + puzzle.width * cell - margin, TITLE_CELLS * cell)
        title = cut_short(title, room - 1, lambda text: text_width(text, title_size), "\u2026")
        title_h = int(title_height(title, title_size)) + cell
        title_w = int(text_width(title, title_size) + 1)
    top = margin + title_h  # where the clues start
    y0 = top + clue_h
    grid_w, grid_h = puzzle.width * cell, puzzle.height * cell
    # a long title widens the sheet to its right; the grid stays where it is
    width = max(x0 + grid_w, margin + title_w) + margin
    key = _key(puzzle, letters, margin, y0 + grid_h + cell, width - margin, cell, font_size, text_width)
    if key:  # an entry wider than a small sheet widens it
        width = max(width, int(max(e.text_x + text_width(e.text, font_size) for e in key)) + 1 + margin)
    height = int(max(e.y for e in key) + cell if key else y0 + grid_h) + margin

    numbers: list[Number] = []
    for i, (clue, clue_widths) in enumerate(zip(rows, widths, strict=True)):
        x = x0 - gap
        cy = y0 + i * cell + cell / 2
        for (n, c), w in zip(reversed(clue), reversed(clue_widths), strict=True):
            numbers.append(number(n, c, x, cy, w, True))
            x -= w + gap
    for j, clue in enumerate(cols):
        cx = x0 + j * cell + cell / 2
        y = y0 - gap
        for n, c in reversed(clue):
            numbers.append(number(n, c, cx, y, text_width(text_of(n, c), font_size) if boxed else 0.0, False))
            y -= line_h

    # light bands behind every other group of five lines guide the eye from clue to line
    bands = [(margin, y0 + a, x0, y0 + b) for a, b in _stripes(puzzle.height, cell)]
    bands += [(x0 + a, top, x0 + b, y0) for a, b in _stripes(puzzle.width, cell)]

    # thin lines between cells; thick ones every fifth cell, drawn out
    # through the clues so a row's numbers are easy to follow
    lines = [(margin if bold else x0, y0 + at, x0 + grid_w, y0 + at, bold) for at, bold in _rules(puzzle.height, cell)]
    lines += [(x0 + at, top if bold else y0, x0 + at, y0 + grid_h, bold) for at, bold in _rules(puzzle.width, cell)]
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
        key=key,
    )


def _stripes(count: int, cell: int) -> list[tuple[int, int]]:
    """Where the bands across ``count`` lines of ``cell`` pixels start and
    stop, from the grid's edge: behind lines 6-10, 16-20, ..."""
    return [(i * cell, min(i + 5, count) * cell) for i in range(5, count, 10)]


def _rules(count: int, cell: int) -> list[tuple[int, bool]]:
    """Where the ``count + 1`` lines between and around ``count`` cells of
    ``cell`` pixels stand, from the grid's edge, and whether each is thick
    (every fifth, and the last)."""
    return [(i * cell, i % 5 == 0 or i == count) for i in range(count + 1)]


def _key(
    puzzle: Puzzle,
    letters: bool,
    left: float,
    top: float,
    right: float,
    cell: int,
    font_size: int,
    text_width: Measure,
) -> list[KeyEntry]:
    """The key below the grid: the filled colours in palette order, then the
    background as "blank", each a swatch and its text, flowing left to
    right and onto a new line where the sheet ends."""
    if not has_key(puzzle):
        return []
    side = cell * 0.8
    gap = cell  # between entries
    entries = []
    x, y = left, top
    for colour in (*range(1, puzzle.n_colors), 0):
        text = key_text(puzzle, colour, letters)
        width = side + cell / 3 + text_width(text, font_size)
        if x > left and x + width > right:
            x, y = left, y + cell
        entries.append(KeyEntry(x, y + (cell - side) / 2, side, puzzle.palette[colour], text, x + side + cell / 3))
        x += width + gap
    return entries
