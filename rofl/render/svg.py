"""Puzzle sheets as SVG: vector drawings that notebooks show and printers scale.

:func:`puzzle_svg` draws a puzzle of either shape as plain SVG 1.1 text,
with no dependency beyond the standard library: a rectangle's sheet as
:func:`rofl.render.layout.sheet_layout` places it, a hexagon's as
:func:`rofl.render.hexlayout.hex_layout` does (the layouts the PNG and PDF
sheets draw too).  It returns an :class:`SvgString`, which Jupyter displays
as a picture; a puzzle's ``_repr_svg_`` calls it, so a puzzle shows as its
sheet in a notebook (python-chess ``chess/svg.py`` does the same for boards).

The documents are structured so that programs can read them back.  A
rectangle's grid is ``<g id="grid" transform="translate(x0 y0)">`` with one
``<rect>`` per run of same-coloured cells of the solution (cell units times
the cell size) and the lines; its clue numbers are ``<text>`` elements in
``<g id="row-clues">`` and ``<g id="column-clues">``; the puzzle itself is
in ``<metadata>`` as a ROFL file (:mod:`rofl.formats.sheets`), so rofl reads
the sheet back exactly.  A hexagon's cells are ``<polygon>`` elements in
``<g id="cells">`` with ``data-colour`` (the palette index of a solution
picture's cell, -1 for a blank cell); its numbers are ``<text>`` elements in
``<g id="row-clues">``, ``<g id="falling-clues">`` and
``<g id="rising-clues">``, one ``<g class="clue">`` per line in line order
and each line's numbers in clue order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from rofl._xml import xml_text
from rofl.formats.sheets import svg_metadata
from rofl.render.hexlayout import FONT, KINDS, UNKNOWN, hex_layout, hex_title
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
    from rofl.board import BoardPuzzle
    from rofl.hexagon import HexPuzzle
    from rofl.puzzle import Puzzle
    from rofl.render.layout import Layout

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
    puzzle: BoardPuzzle, *, solution=None, cell: int | None = None, title: str | None = None, letters: bool = False
) -> SvgString:
    """Draw ``puzzle``'s sheet, of either shape, as an SVG document.

    The same sheet as the PNG and PDF ones (:func:`rofl.render.sheet.sheet_bytes`):
    a rectangle's is laid out by :func:`rofl.render.layout.sheet_layout`
    and sized in millimetres to print at :func:`rofl.render.layout.print_dpi`;
    a hexagon's by :func:`rofl.render.hexlayout.hex_layout`.

    Parameters
    ----------
    puzzle : Puzzle or HexPuzzle
    solution : array of palette indices, optional
        Fill the cells with this picture (a solution sheet): an ``(H, W)``
        grid that fits the clues, or a hexagon's flat cell array in its board's order.
    cell : int, optional
        A rectangle's cell size in SVG user units (pixels at 96 dpi); default
        :func:`rofl.render.layout.default_cell`.  A hexagonal sheet takes none.
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
        A cell smaller than :data:`rofl.render.layout.MIN_CELL` (or any for
        a hexagon), a sheet larger than :data:`rofl.render.layout.MAX_SIDE`
        a side, or a solution that does not fit the puzzle.
    """
    if puzzle.board.kind == "hexagon":
        hexagon = cast("HexPuzzle", puzzle)
        return _hexagon_svg(hexagon, solution, hex_title(hexagon, cell, title, ".svg"), letters)
    return _rectangle_svg(cast("Puzzle", puzzle), solution, cell, title, letters)


# ------------------------------------------------------------------ rectangles


def _rectangle_svg(puzzle: Puzzle, solution, cell: int | None, title: str | None, letters: bool) -> SvgString:
    grid, title = sheet_inputs(puzzle, solution, title)
    layout = sheet_layout(
        puzzle, cell=cell, title=title, text_width=_width, title_height=_title_height, letters=letters
    )
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
        out.extend(_rect(x1, y1, x2, y2) for x1, y1, x2, y2 in layout.bands)
        out.append("</g>")
    out += _grid(puzzle, layout, grid)
    out += _numbers(layout)
    out += _key(layout)
    if layout.title:
        baseline = layout.margin + TITLE_EM * layout.title_size
        out.append(
            f'<text id="title" x="{layout.margin}" y="{_n(baseline)}" font-family="{FONT_FAMILY}" '
            f'font-size="{layout.title_size}" fill="#000000">{xml_text(layout.title)}</text>'
        )
    out.append("</svg>")
    return SvgString("\n".join(out) + "\n")


def _rect(x1: float, y1: float, x2: float, y2: float, attributes: str = "") -> str:
    """A ``<rect>`` from its corners ``(x1, y1)`` and ``(x2, y2)``, with more ``attributes``."""
    return f'<rect x="{_n(x1)}" y="{_n(y1)}" width="{_n(x2 - x1)}" height="{_n(y2 - y1)}"{attributes}/>'


def _grid(puzzle: Puzzle, layout: Layout, grid) -> list[str]:
    """The grid: the solution's runs of cells (if any) and the lines, thin then thick."""
    cell = layout.cell
    out = [f'<g id="grid" transform="translate({layout.x0} {layout.y0})">']
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
    return out


def _numbers(layout: Layout) -> list[str]:
    """The clue numbers: their boxes (colour puzzles), then the rows' and the columns' numbers."""
    out = []
    # rows: right-aligned, baseline about half a digit's height below the centre
    common = f'font-family="{FONT_FAMILY}" font-size="{layout.font_size}"'
    shift = DIGIT_DROP * layout.font_size
    boxes = [num for num in layout.numbers if num.box is not None]
    if boxes:  # behind the numbers: each in its group's exact colour, framed
        out.append(f'<g id="clue-boxes" stroke="{_hex(THIN)}" stroke-width="1">')
        out.extend(_rect(*num.box, f' fill="{_hex(num.fill)}"') for num in boxes)  # type: ignore[call-arg, misc]
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
    return out


def _key(layout: Layout) -> list[str]:
    """The key below the grid: a framed swatch and a text per colour."""
    if not layout.key:
        return []
    shift = DIGIT_DROP * layout.font_size
    out = [f'<g id="key" font-family="{FONT_FAMILY}" font-size="{layout.font_size}">']
    for entry in layout.key:
        out.append(
            f'<rect x="{_n(entry.x)}" y="{_n(entry.y)}" width="{_n(entry.side)}" height="{_n(entry.side)}" '
            f'fill="{_hex(entry.color)}" stroke="#000000" stroke-width="1"/>'
        )
        baseline = entry.y + entry.side / 2 + shift
        out.append(f'<text x="{_n(entry.text_x)}" y="{_n(baseline)}" fill="#000000">{xml_text(entry.text)}</text>')
    out.append("</g>")
    return out


# ------------------------------------------------------------------ hexagons

#: A ``?`` group's box on a hexagonal sheet: light grey with darker hatching.
HATCH = (
    '<pattern id="unknown" width="4" height="4" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
    '<rect width="4" height="4" fill="#dddddd"/><line x1="0" y1="0" x2="0" y2="4" stroke="#999999" stroke-width="1.5"/>'
    "</pattern>"
)
#: Millimetres per unit of a hexagonal sheet's layout (a cell about 18 mm across... scaled by the viewer).
MM = 0.75


def _fill(fill) -> str:
    return "url(#unknown)" if fill == UNKNOWN else _hex(fill)


def _hexagon_svg(puzzle: HexPuzzle, solution, title: str | None, letters: bool) -> SvgString:
    """A hexagonal sheet (``solution``: a flat cell array in the board's order)."""
    sheet = hex_layout(puzzle, solution=solution, title=title, letters=letters)
    colours = puzzle.palette.hex()
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{_n(sheet.width * MM)}mm" '
        f'height="{_n(sheet.height * MM)}mm" viewBox="{_n(sheet.left)} {_n(sheet.top)} {_n(sheet.width)} '
        f'{_n(sheet.height)}">',
        f"<defs>{HATCH}</defs>",
        f'<rect x="{_n(sheet.left)}" y="{_n(sheet.top)}" width="{_n(sheet.width)}" height="{_n(sheet.height)}" '
        'fill="#ffffff"/>',
    ]
    title = sheet.title  # the puzzle's own when none is given
    if title:
        out.append(
            f'<text x="{_n(sheet.left + sheet.width / 2)}" y="{_n(sheet.top + FONT * 1.5)}" text-anchor="middle" '
            f'font-family="{FONT_FAMILY}" font-size="{_n(FONT * 1.3)}">{xml_text(title)}</text>'
        )
    out.append('<g id="guides" stroke="#c0c0c0" stroke-width="0.6">')
    out.extend(f'<line x1="{_n(a)}" y1="{_n(b)}" x2="{_n(c)}" y2="{_n(d)}"/>' for a, b, c, d in sheet.guides)
    out.append("</g>")
    out.append(f'<g id="cells" stroke="{_hex(THIN)}" stroke-width="0.8">')
    for x, y, colour in sheet.cells:
        points = " ".join(f"{_n(px)},{_n(py)}" for px, py in sheet.hexagon(x, y))
        fill = "#ffffff" if colour < 0 else colours[colour]
        out.append(f'<polygon data-colour="{colour}" points="{points}" fill="{fill}"/>')
    out.append("</g>")
    out.append(f'<g id="clue-boxes" stroke="{_hex(THIN)}" stroke-width="0.5">')
    out.extend(_rect(*num.box, f' fill="{_fill(num.fill)}"') for num in sheet.numbers if num.fill is not None)
    out.append("</g>")
    for kind in KINDS:
        out.append(f'<g id="{kind}" font-family="{FONT_FAMILY}" font-size="{_n(FONT)}">')
        lines: dict[int, list] = {}
        for num in sheet.numbers:
            if num.kind == kind:
                lines.setdefault(num.line, []).append(num)
        for line in sorted(lines):
            texts = (
                f'<text x="{_n(n.x)}" y="{_n(n.y + FONT * 0.36)}" fill="{_hex(n.ink)}" text-anchor="{n.anchor}">'
                f"{xml_text(n.text)}</text>"
                for n in sorted(lines[line], key=lambda n: n.index)
            )
            out.append(f'<g class="clue">{"".join(texts)}</g>')
        out.append("</g>")
    if sheet.key:
        out.append(f'<g id="key" font-family="{FONT_FAMILY}" font-size="{_n(FONT)}">')
        x, y = sheet.key_at
        for swatch, text in sheet.key:
            out.append(
                f'<rect x="{_n(x)}" y="{_n(y - FONT * 0.6)}" width="{_n(FONT * 1.2)}" height="{_n(FONT * 1.2)}" '
                f'fill="{_fill(swatch)}" stroke="#000000" stroke-width="0.5"/>'
                f'<text x="{_n(x + FONT * 1.6)}" y="{_n(y + FONT * 0.36)}">{xml_text(text)}</text>'
            )
            y += FONT * 1.5
        out.append("</g>")
    out.append("</svg>")
    return SvgString("\n".join(out) + "\n")
