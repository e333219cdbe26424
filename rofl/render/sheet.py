"""Printable puzzle sheets: the grid with its clues, empty or filled with the solution.

:func:`rofl.render.layout.sheet_layout` places every clue number, band and
line once; :func:`puzzle_sheet` draws that layout with Pillow and
:func:`rofl.render.pdf.puzzle_pdf` as a vector PDF, both by
:func:`rofl.render.canvas.draw_sheet`, and :func:`rofl.render.svg.puzzle_svg`
writes it as SVG, so a PNG, an SVG and a PDF sheet of one puzzle look alike.  :func:`sheet_bytes` gives the bytes of
a ``.png``, ``.pdf`` or ``.svg`` sheet file, sized to print on A4 or Letter.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from rofl.render.fonts import pil_font as _font
from rofl.render.layout import (
    MAX_PIXELS,
    SheetOptions,
    difficulty_title,
    print_dpi,
    sheet_inputs,
    sheet_layout,
)

if TYPE_CHECKING:  # pragma: no cover
    from PIL import Image

    from rofl.board import BoardPuzzle
    from rofl.puzzle import Puzzle
    from rofl.render.fonts import FontFile
    from rofl.render.layout import Layout

#: File name extensions a sheet can be written as.
SUFFIXES = (".png", ".pdf", ".svg")
#: Why an SVG sheet takes no font file.
SVG_FONT = (
    "a font file is for .png and .pdf sheets: an SVG sheet names its fonts "
    "(Helvetica, Arial, DejaVu Sans) and the viewer draws its title in any script"
)


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


# ------------------------------------------------------------------ raster


def puzzle_sheet(puzzle: Puzzle, **options: Any) -> Image.Image:
    """Draw ``puzzle`` as a sheet to print and solve by hand.

    Row clues stand left of their rows, column clues above their columns,
    read left to right and top to bottom.  Thin lines separate cells, thick
    lines every fifth cell.  In colour puzzles each number stands in a box
    of its group's exact colour, its digits black or white, whichever
    contrasts more (:func:`~rofl.render.layout.text_on`), and a key below
    the grid names every colour and the background ("blank"); only
    black-on-white puzzles go without them (:func:`~rofl.render.layout.has_key`).

    Parameters
    ----------
    puzzle : Puzzle
    **options
        ``solution``, ``cell``, ``title``, ``font``, ``letters``: see
        :class:`~rofl.render.layout.SheetOptions`.

    Returns
    -------
    PIL.Image.Image
        RGB image, white background.

    Raises
    ------
    rofl.OptionError
        A cell smaller than :data:`~rofl.render.layout.MIN_CELL`, a sheet too large, or a
        solution that does not fit the puzzle.
    """
    return _sheet_image(puzzle, SheetOptions(**options))


def _sheet_image(puzzle: Puzzle, options: SheetOptions) -> Image.Image:
    from rofl.render.fonts import sheet_covers, shown

    font = options.font
    grid, title = sheet_inputs(puzzle, options.solution, options.title)
    if title:
        title = shown(title, sheet_covers(".png", font))
    try:
        return _draw_sheet(puzzle, grid, options.cell, title, font, options.letters)
    except OSError as exc:  # FreeType meets a damaged glyph only when it draws it
        if font is None:
            raise
        from rofl.errors import OptionError

        msg = f"{font.path}: Pillow cannot draw with this font ({exc})"
        raise OptionError(msg) from None


class _Faces:
    """Pillow fonts of one sheet, by size, and the measures the layout takes."""

    def __init__(self, font: FontFile | None) -> None:
        self.font = font
        self.faces: dict[int, object] = {}

    def __call__(self, size: int):
        if size not in self.faces:
            self.faces[size] = _font(size, self.font)
        return self.faces[size]

    def text_width(self, text: str, size: int) -> float:
        return self(size).getlength(text)  # type: ignore[attr-defined]

    def title_height(self, text: str, size: int) -> float:
        box = self(size).getbbox(text)  # type: ignore[attr-defined]
        return box[3] - box[1]


def raster_layout(
    puzzle: Puzzle,
    *,
    cell: int | None = None,
    title: str | None = None,
    font: FontFile | None = None,
    letters: bool = False,
) -> Layout:
    """Where :func:`puzzle_sheet` draws everything (the title as given, not
    defaulted), in the pixels of its image: tests and other programs find
    the grid, the clues and the key in the picture from it."""
    return _raster_layout(puzzle, cell, title, _Faces(font), letters)


def _raster_layout(puzzle: Puzzle, cell: int | None, title: str | None, face: _Faces, letters: bool) -> Layout:
    return sheet_layout(
        puzzle,
        cell=cell,
        title=title,
        text_width=face.text_width,
        title_height=face.title_height,
        max_pixels=MAX_PIXELS,
        letters=letters,
    )


def _draw_sheet(
    puzzle: Puzzle, grid, cell: int | None, title: str | None, font: FontFile | None, letters: bool
) -> Image.Image:
    from rofl.render.canvas import RasterCanvas, draw_sheet

    layout = _raster_layout(puzzle, cell, title, _Faces(font), letters)
    canvas = RasterCanvas((layout.width, layout.height), 1.0, (0.0, 0.0), font)
    draw_sheet(layout, puzzle.palette, grid, canvas)
    return canvas.image


# ------------------------------------------------------------------ files


def sheet_bytes(puzzle: BoardPuzzle, suffix: str, *, difficulty: bool = False, **options: Any) -> bytes:
    """The bytes of a sheet file of a puzzle of any shape: ``suffix`` is ``".png"``, ``".pdf"`` or ``".svg"``.

    The PNG sheet (a rectangle's drawn by :func:`puzzle_sheet`) is marked
    to print at its density (so it fits A4 and Letter paper); the SVG sheet
    is :func:`rofl.render.svg.puzzle_svg`,
    sized in millimetres at the same scale; the PDF sheet is
    :func:`rofl.render.pdf.puzzle_pdf`, vector drawing on one A4 page.
    ``options`` as for :func:`puzzle_sheet` (:class:`~rofl.render.layout.SheetOptions`;
    a hexagonal sheet fills its page and takes no ``cell``); ``difficulty``
    prints the puzzle's grade after the title (:func:`~rofl.render.layout.difficulty_title`).

    A rectangle's sheet carries its puzzle as a ROFL file (with the CRC-32
    of ``solution`` when given), so rofl reads it back as that puzzle
    (:mod:`rofl.formats.sheets`).

    Raises
    ------
    rofl.OptionError
        An unknown suffix, a font for an SVG sheet (SVG names its fonts and
        the viewer draws the text), a cell size for a hexagonal sheet, or as
        :func:`puzzle_sheet`.
    """
    from rofl.errors import OptionError

    sheet = SheetOptions(**options)
    suffix = suffix.lower() if suffix.startswith(".") else "." + suffix.lower()
    if suffix not in SUFFIXES:
        msg = f"a sheet is written as {_choices()}, not {suffix!r}"
        raise OptionError(msg)
    if difficulty:
        sheet = replace(sheet, title=difficulty_title(puzzle, sheet.title))
    if suffix == ".svg":
        from rofl.render.svg import puzzle_svg

        if sheet.font is not None:
            raise OptionError(SVG_FONT)
        return puzzle_svg(
            puzzle, solution=sheet.solution, cell=sheet.cell, title=sheet.title, letters=sheet.letters
        ).encode("utf-8")
    if suffix == ".pdf":
        from rofl.render.pdf import sheet_pdf

        return sheet_pdf(puzzle, sheet)
    return _png_bytes(puzzle, sheet)


def _png_bytes(puzzle: BoardPuzzle, sheet: SheetOptions) -> bytes:
    """The PNG sheet file of a puzzle of any shape, marked with the density it
    prints at: a rectangle's is :func:`puzzle_sheet`'s image at
    :func:`~rofl.render.layout.print_dpi`, carrying its puzzle; a hexagon's
    is :func:`~rofl.render.hexlayout.hex_layout` drawn to fit the page at
    :data:`~rofl.render.hexlayout.PNG_DPI` (:func:`rofl.render.canvas.draw_hex_sheet`)."""
    if puzzle.board.kind == "hexagon":
        return _hexagon_png(puzzle, sheet)
    import io

    from rofl.formats.sheets import png_info

    puzzle = cast("Puzzle", puzzle)
    image = _sheet_image(puzzle, sheet)
    dpi = round(print_dpi(*image.size), 2)
    buf = io.BytesIO()
    image.save(buf, format="PNG", dpi=(dpi, dpi), pnginfo=png_info(puzzle, sheet.solution))
    return buf.getvalue()


def _hexagon_png(puzzle, sheet: SheetOptions) -> bytes:
    from rofl.render.canvas import RasterCanvas, draw_hex_sheet
    from rofl.render.hexlayout import PNG_DPI, hex_layout, hex_title, png_scale

    title = hex_title(puzzle, sheet.cell, sheet.title, ".png", sheet.font)
    layout = hex_layout(puzzle, solution=sheet.solution, title=title, letters=sheet.letters)
    k = png_scale(layout)
    canvas = RasterCanvas(
        (max(1, round(layout.width * k)), max(1, round(layout.height * k))), k, (layout.left, layout.top), sheet.font
    )
    draw_hex_sheet(layout, puzzle.palette, canvas)
    return canvas.png(PNG_DPI)
