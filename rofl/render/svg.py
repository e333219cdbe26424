"""Puzzle sheets as SVG: vector drawings that notebooks show and printers scale.

:func:`puzzle_svg` draws the layout of :func:`rofl.render.layout.sheet_layout`
(the one the PNG and PDF sheets use) as plain SVG 1.1 text, with no
dependency beyond the standard library.  It returns an :class:`SvgString`,
which Jupyter displays as a picture; ``Puzzle._repr_svg_`` calls it, so a
puzzle shows as its sheet in a notebook (python-chess ``chess/svg.py`` does
the same for boards).

The document is structured so that programs can read it back: the grid is
``<g id="grid" transform="translate(x0 y0)">`` with one ``<rect>`` per run
of same-coloured cells of the solution (cell units times the cell size)
and the lines; the clue numbers are ``<text>`` elements in
``<g id="row-clues">`` and ``<g id="column-clues">``.  The puzzle itself is
in ``<metadata>`` as a ROFL file (:mod:`rofl.formats.sheets`), so rofl reads
the sheet back exactly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rofl._xml import xml_text
from rofl.formats.sheets import svg_metadata
from rofl.render.layout import (
    BAND,
    DIGIT_DROP,
    THIN,
    TITLE_EM,
    fill_runs,
    print_dpi,
    sheet_inputs,
    sheet_layout,
)

if TYPE_CHECKING:  # pragma: no cover
    from rofl.puzzle import Puzzle

#: Advance of a digit, in em.  Helvetica and Arial digits are 0.556 em,
#: DejaVu Sans 0.636 em: numbers are placed by their right end (rows) or
#: centre (columns), so an estimate only changes the spaces between them.
DIGIT_EM = 0.62
#: Average advance of a title's characters, in em (a little above most fonts').
TEXT_EM = 0.68
FONT_FAMILY = "Helvetica, Arial, 'DejaVu Sans', sans-serif"


class SvgString(str):
    """An SVG document; notebooks (IPython, Jupyter) display it as a picture."""

    __slots__ = ()

    def _repr_svg_(self) -> SvgString:
        return self


def _n(value: float) -> str:
    """A coordinate: at most two decimals, no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _hex(rgb) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def _width(text: str, size: int) -> float:
    # digits are all one width in the fonts named; the letters of a title
    # vary, so they get a generous average (the sheet widens to hold it)
    return len(text) * (DIGIT_EM if text.isdigit() else TEXT_EM) * size


def _title_height(text: str, size: int) -> float:
    return TITLE_EM * size


def puzzle_svg(
    puzzle: Puzzle, *, solution=None, cell: int | None = None, title: str | None = None, letters: bool = False
) -> SvgString:
    """Draw ``puzzle``'s sheet as an SVG document.

    The same sheet as :func:`rofl.render.sheet.puzzle_sheet`: clues left of
    the rows and above the columns (in colour puzzles each number in a box of
    its group's colour, in black or white, whichever contrasts more), thin lines between
    cells, thick lines every fifth, an optional title.  Sized in millimetres
    to print at :func:`rofl.render.layout.print_dpi`.

    Parameters
    ----------
    puzzle : Puzzle
    solution : (H, W) uint8 array of palette indices, optional
        Fill the cells with this picture (a solution sheet); it must fit
        the clues.
    cell : int, optional
        Cell size in SVG user units (pixels at 96 dpi); default
        :func:`rofl.render.layout.default_cell`.
    title : str, optional
        Defaults to ``puzzle.meta["title"]``; an empty string prints none.
    letters : bool
        Print each clue number with its colour's letter (``2a 3b``), as the
        key does, so a colour puzzle can be solved from a black-and-white print.

    Returns
    -------
    SvgString
        A standalone SVG 1.1 document (UTF-8 text).

    Raises
    ------
    rofl.OptionError
        A cell smaller than :data:`rofl.render.layout.MIN_CELL`, a sheet
        larger than :data:`rofl.render.layout.MAX_SIDE` a side, or a
        solution that does not fit the puzzle.
    """
    grid, title = sheet_inputs(puzzle, solution, title)
    layout = sheet_layout(
        puzzle, cell=cell, title=title, text_width=_width, title_height=_title_height, letters=letters
    )
    cell = layout.cell
    w, h = layout.width, layout.height
    mm = 25.4 / print_dpi(w, h)
    out = [
        '<?xml version="1.0" encoding="UTF-8" standalone="no"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{_n(w * mm)}mm" '
        f'height="{_n(h * mm)}mm" viewBox="0 0 {w} {h}">',
    ]
    if layout.title:
        out.append(f"<title>{xml_text(layout.title)}</title>")
    out.append(svg_metadata(puzzle, grid))
    out.append(f'<rect width="{w}" height="{h}" fill="#ffffff"/>')
    if layout.bands:
        out.append(f'<g id="bands" fill="{_hex(BAND)}">')
        out.extend(
            f'<rect x="{_n(x1)}" y="{_n(y1)}" width="{_n(x2 - x1)}" height="{_n(y2 - y1)}"/>'
            for x1, y1, x2, y2 in layout.bands
        )
        out.append("</g>")

    out.append(f'<g id="grid" transform="translate({layout.x0} {layout.y0})">')
    if grid is not None:
        colors = puzzle.palette.hex()
        out.append('<g id="solution" shape-rendering="crispEdges">')
        out.append(f'<rect width="{puzzle.width * cell}" height="{puzzle.height * cell}" fill="{colors[0]}"/>')
        out.extend(
            f'<rect x="{j * cell}" y="{i * cell}" width="{(k - j) * cell}" height="{cell}" fill="{colors[colour]}"/>'
            for i, j, k, colour in fill_runs(grid)
        )
        out.append("</g>")
    x0, y0 = layout.x0, layout.y0
    for bold in (False, True):
        path = " ".join(
            f"M{_n(x1 - x0)} {_n(y1 - y0)}{'H' + _n(x2 - x0) if y1 == y2 else 'V' + _n(y2 - y0)}"
            for x1, y1, x2, y2, b in layout.lines
            if b == bold
        )
        stroke = '"#000000" stroke-width="2" stroke-linecap="square"' if bold else f'"{_hex(THIN)}" stroke-width="1"'
        out.append(f'<path id="{"thick" if bold else "thin"}-lines" d="{path}" fill="none" stroke={stroke}/>')
    out.append("</g>")

    # rows: right-aligned, baseline about half a digit's height below the centre
    common = f'font-family="{FONT_FAMILY}" font-size="{layout.font_size}"'
    shift = DIGIT_DROP * layout.font_size
    boxes = [num for num in layout.numbers if num.box is not None]
    if boxes:  # behind the numbers: each in its group's exact colour, framed
        out.append(f'<g id="clue-boxes" stroke="{_hex(THIN)}" stroke-width="1">')
        out.extend(
            f'<rect x="{_n(x1)}" y="{_n(y1)}" width="{_n(x2 - x1)}" height="{_n(y2 - y1)}" fill="{_hex(num.fill)}"/>'
            for num in boxes
            for x1, y1, x2, y2 in (num.box,)
        )
        out.append("</g>")
    for in_row, name, anchor in ((True, "row-clues", "end"), (False, "column-clues", "middle")):
        out.append(f'<g id="{name}" {common} text-anchor="{anchor}">')
        out.extend(
            f'<text x="{_n(num.x)}" y="{_n(num.y + shift if in_row else num.y)}" fill="{_hex(num.color)}">'
            f"{xml_text(num.text)}</text>"
            for num in layout.numbers
            if num.in_row == in_row
        )
        out.append("</g>")
    if layout.key:
        out.append(f'<g id="key" {common}>')
        for entry in layout.key:
            out.append(
                f'<rect x="{_n(entry.x)}" y="{_n(entry.y)}" width="{_n(entry.side)}" height="{_n(entry.side)}" '
                f'fill="{_hex(entry.color)}" stroke="#000000" stroke-width="1"/>'
            )
            baseline = entry.y + entry.side / 2 + shift
            out.append(f'<text x="{_n(entry.text_x)}" y="{_n(baseline)}" fill="#000000">{xml_text(entry.text)}</text>')
        out.append("</g>")
    if layout.title:
        baseline = layout.margin + TITLE_EM * layout.title_size
        out.append(
            f'<text id="title" x="{layout.margin}" y="{_n(baseline)}" font-family="{FONT_FAMILY}" '
            f'font-size="{layout.title_size}" fill="#000000">{xml_text(layout.title)}</text>'
        )
    out.append("</svg>")
    return SvgString("\n".join(out) + "\n")
