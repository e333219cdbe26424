"""Hexagonal puzzle sheets as SVG: :func:`hex_puzzle_svg` draws the layout of
:func:`rofl.render.hexlayout.hex_layout` (which the PNG and PDF hexagonal
sheets share) as plain SVG 1.1 text.

Programs can read it back: cells are ``<polygon>`` elements in
``<g id="cells">`` with ``data-colour`` (the palette index of a solution
picture's cell, -1 for a blank cell); the numbers are ``<text>`` elements in
``<g id="row-clues">``, ``<g id="falling-clues">`` and
``<g id="rising-clues">``, one ``<g class="clue">`` per line in line order
and each line's numbers in clue order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rofl._xml import xml_text
from rofl.render.hexlayout import FONT, KINDS, UNKNOWN, hex_layout
from rofl.render.layout import THIN
from rofl.render.svg import FONT_FAMILY, SvgString, _hex, _n

if TYPE_CHECKING:  # pragma: no cover
    from rofl.hexagon import HexPuzzle

#: A ? group's box: light grey with darker hatching.
HATCH = (
    '<pattern id="unknown" width="4" height="4" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
    '<rect width="4" height="4" fill="#dddddd"/><line x1="0" y1="0" x2="0" y2="4" stroke="#999999" stroke-width="1.5"/>'
    "</pattern>"
)
MM = 0.75  # millimetres per layout unit (a cell about 18 mm across... scaled by the viewer)


def _fill(fill) -> str:
    return "url(#unknown)" if fill == UNKNOWN else _hex(fill)


def hex_puzzle_svg(puzzle: HexPuzzle, *, solution=None, title: str | None = None, letters: bool = False) -> SvgString:
    """Draw ``puzzle``'s hexagonal sheet (or, with ``solution``, a flat cell
    array in the board's order, its solution picture) as an SVG document."""
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
    for num in sheet.numbers:
        if num.fill is not None:
            x1, y1, x2, y2 = num.box
            size = f'width="{_n(x2 - x1)}" height="{_n(y2 - y1)}"'
            out.append(f'<rect x="{_n(x1)}" y="{_n(y1)}" {size} fill="{_fill(num.fill)}"/>')
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
        for fill, text in sheet.key:
            out.append(
                f'<rect x="{_n(x)}" y="{_n(y - FONT * 0.6)}" width="{_n(FONT * 1.2)}" height="{_n(FONT * 1.2)}" '
                f'fill="{_fill(fill)}" stroke="#000000" stroke-width="0.5"/>'
                f'<text x="{_n(x + FONT * 1.6)}" y="{_n(y + FONT * 0.36)}">{xml_text(text)}</text>'
            )
            y += FONT * 1.5
        out.append("</g>")
    out.append("</svg>")
    return SvgString("\n".join(out) + "\n")
