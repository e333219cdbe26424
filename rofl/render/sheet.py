"""Printable puzzle sheets: the grid with its clues, empty or filled with the solution.

:func:`sheet_layout` places every clue number, band and line once;
:func:`puzzle_sheet` draws that layout with Pillow,
:func:`rofl.render.svg.puzzle_svg` writes it as SVG and
:func:`rofl.render.pdf.puzzle_pdf` as a vector PDF, so a PNG, an SVG and a
PDF sheet of one puzzle look alike.  :func:`sheet_bytes` gives the bytes of
a ``.png``, ``.pdf`` or ``.svg`` sheet file, sized to print on A4 or Letter.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np
    from PIL import Image

    from rofl.puzzle import Puzzle
    from rofl.render.fonts import FontFile

#: Largest sheet drawn, in pixels (SVG: user units) per side.
MAX_SIDE = 30000
#: Largest raster sheet in pixels all told (three bytes each while drawing;
#: an A4 page at 600 dpi is 35 million).
MAX_PIXELS = 64_000_000
#: Smallest cell that still holds a legible clue number.
MIN_CELL = 6
#: File name extensions a sheet can be written as.
SUFFIXES = (".png", ".pdf", ".svg")
#: Why an SVG sheet takes no font file.
SVG_FONT = (
    "a font file is for .png and .pdf sheets: an SVG sheet names its fonts "
    "(Helvetica, Arial, DejaVu Sans) and the viewer draws its title in any script"
)
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


def _choices() -> str:
    return f"{', '.join(SUFFIXES[:-1])} or {SUFFIXES[-1]}"


def check_sheet_path(path: str | Path) -> str:
    """The lower-case extension of a sheet file name, or :class:`OptionError`
    when no sheet can be written under it."""
    from rofl.errors import OptionError

    suffix = Path(path).suffix.lower()
    if suffix not in SUFFIXES:
        msg = f"{path}: a sheet is written as {_choices()}, not {suffix or '(no extension)'!r}"
        raise OptionError(msg)
    return suffix


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


# ------------------------------------------------------------------ layout


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


# ------------------------------------------------------------------ raster


def _font(size: int, font: FontFile | None = None):
    import io

    from PIL import ImageFont

    if font is not None:
        try:
            return ImageFont.truetype(io.BytesIO(font.data), size=size)
        except OSError as exc:
            from rofl.errors import OptionError

            msg = f"{font.path}: Pillow cannot draw with this font ({exc})"
            raise OptionError(msg) from None
    try:
        return ImageFont.load_default(size=size)
    except (TypeError, OSError):  # pragma: no cover - Pillow without FreeType
        return ImageFont.load_default()


def puzzle_sheet(
    puzzle: Puzzle,
    *,
    solution=None,
    cell: int | None = None,
    title: str | None = None,
    font: FontFile | None = None,
) -> Image.Image:
    """Draw ``puzzle`` as a sheet to print and solve by hand.

    Row clues stand left of their rows, column clues above their columns,
    read left to right and top to bottom.  Thin lines separate cells, thick
    lines every fifth cell.  In colour puzzles each number is printed in its
    group's colour (darkened when too light to read, see :func:`ink`).

    Parameters
    ----------
    puzzle : Puzzle
    solution : (H, W) uint8 array of palette indices, optional
        Fill the cells with this picture (a solution sheet); it must fit
        the clues.
    cell : int, optional
        Cell size in pixels (default :func:`default_cell`, smaller when the
        sheet would exceed :data:`MAX_SIDE` or :data:`MAX_PIXELS`; clue
        numbers are about 55 % of it, so two digits fit a column).
    title : str, optional
        Printed above the grid; defaults to ``puzzle.meta["title"]``; an
        empty string prints none.  Characters the font lacks print as a
        stand-in (see :func:`rofl.render.fonts.shown`).
    font : FontFile, optional
        Draw numbers and title in this font (default: the small font Pillow
        ships, which covers little more than ASCII).

    Returns
    -------
    PIL.Image.Image
        RGB image, white background.

    Raises
    ------
    rofl.OptionError
        A cell smaller than :data:`MIN_CELL`, a sheet too large, or a
        solution that does not fit the puzzle.
    """
    from rofl.render.fonts import sheet_covers, shown

    grid, title = sheet_inputs(puzzle, solution, title)
    if title:
        title = shown(title, sheet_covers(".png", font))
    try:
        return _draw_sheet(puzzle, grid, cell, title, font)
    except OSError as exc:  # FreeType meets a damaged glyph only when it draws it
        if font is None:
            raise
        from rofl.errors import OptionError

        msg = f"{font.path}: Pillow cannot draw with this font ({exc})"
        raise OptionError(msg) from None


def _draw_sheet(puzzle: Puzzle, grid, cell: int | None, title: str | None, font: FontFile | None) -> Image.Image:
    import numpy as np
    from PIL import Image, ImageDraw

    faces: dict[int, object] = {}

    def face(size: int):
        if size not in faces:
            faces[size] = _font(size, font)
        return faces[size]

    def text_width(text: str, size: int) -> float:
        return face(size).getlength(text)  # type: ignore[attr-defined]

    def title_height(text: str, size: int) -> float:
        box = face(size).getbbox(text)  # type: ignore[attr-defined]
        return box[3] - box[1]

    layout = sheet_layout(
        puzzle, cell=cell, title=title, text_width=text_width, title_height=title_height, max_pixels=MAX_PIXELS
    )
    cell = layout.cell
    image = Image.new("RGB", (layout.width, layout.height), "white")
    draw = ImageDraw.Draw(image)
    if layout.title:
        draw.text((layout.margin, layout.margin), layout.title, fill="black", font=face(layout.title_size))
    for left, top, right, bottom in layout.bands:
        draw.rectangle([left, top, right - 1, bottom - 1], fill=BAND)
    if grid is not None:
        rgb = puzzle.palette.to_array()[grid]
        block = np.repeat(np.repeat(rgb, cell, axis=0), cell, axis=1)
        image.paste(Image.fromarray(np.ascontiguousarray(block), "RGB"), (layout.x0, layout.y0))
    number_font = face(layout.font_size)
    for number in layout.numbers:
        anchor = "rm" if number.in_row else "mb"
        draw.text((number.x, number.y), number.text, fill=number.color, font=number_font, anchor=anchor)
    # thin lines first so that the thick ones stay whole where they cross
    for bold in (False, True):
        style = {"fill": "black", "width": 2} if bold else {"fill": THIN, "width": 1}
        for x1, y1, x2, y2, b in layout.lines:
            if b == bold:
                draw.line([(x1, y1), (x2, y2)], **style)  # type: ignore[arg-type]
    return image


# ------------------------------------------------------------------ files


def sheet_bytes(
    puzzle: Puzzle,
    suffix: str,
    *,
    solution=None,
    cell: int | None = None,
    title: str | None = None,
    font: FontFile | None = None,
) -> bytes:
    """The bytes of a sheet file: ``suffix`` is ``".png"``, ``".pdf"`` or ``".svg"``.

    The PNG sheet is drawn by :func:`puzzle_sheet` and marked to print at
    :func:`print_dpi` (so it fits A4 and Letter paper); the SVG sheet is
    :func:`rofl.render.svg.puzzle_svg`, sized in millimetres at the same
    scale; the PDF sheet is :func:`rofl.render.pdf.puzzle_pdf`, vector
    drawing on one A4 page.  Arguments as for :func:`puzzle_sheet`.

    Every sheet carries its puzzle as a ROFL file (with the CRC-32 of
    ``solution`` when given), so rofl reads it back as that puzzle
    (:mod:`rofl.formats.sheets`).

    Raises
    ------
    rofl.OptionError
        An unknown suffix, a font for an SVG sheet (SVG names its fonts and
        the viewer draws the text), or as :func:`puzzle_sheet`.
    """
    import io

    from rofl.errors import OptionError

    suffix = suffix.lower() if suffix.startswith(".") else "." + suffix.lower()
    if suffix not in SUFFIXES:
        msg = f"a sheet is written as {_choices()}, not {suffix!r}"
        raise OptionError(msg)
    if suffix == ".svg":
        from rofl.render.svg import puzzle_svg

        if font is not None:
            raise OptionError(SVG_FONT)
        return puzzle_svg(puzzle, solution=solution, cell=cell, title=title).encode("utf-8")
    if suffix == ".pdf":
        from rofl.render.pdf import puzzle_pdf

        return puzzle_pdf(puzzle, solution=solution, cell=cell, title=title, font=font)
    from rofl.formats.sheets import png_info

    image = puzzle_sheet(puzzle, solution=solution, cell=cell, title=title, font=font)
    dpi = round(print_dpi(*image.size), 2)
    buf = io.BytesIO()
    image.save(buf, format="PNG", dpi=(dpi, dpi), pnginfo=png_info(puzzle, solution))
    return buf.getvalue()
