"""Hexagonal puzzle sheets as SVG: the board of a :class:`~rofl.hexagon.HexPuzzle`
with its clues in all three directions, or its solution picture.

Cells are pointy-top hexagons placed as :class:`~rofl.hexagon.Hexagon`
numbers them.  Each line's clue stands on the line's own axis, beyond the
board, with a light guide line from the board to the last number, so every
clue visibly belongs to its line:

* rows: to the left of the board, read left to right toward it;
* rising diagonals (``/``): beyond their top end (top and upper-right
  edges), first group farthest from the board;
* falling diagonals (``\\``): beyond their bottom end (bottom and
  lower-right edges), first group nearest the board.

Colour clues stand in boxes of their group's colour with readable digits
(:func:`rofl.render.layout.text_on`); a ``?`` group (colour unknown among
several) is a grey hatched box marked ``?``, and the key explains it.  The
numbers are ``<text>`` elements in ``<g id="row-clues">``,
``<g id="falling-clues">`` and ``<g id="rising-clues">``, one ``<g
class="clue">`` per line in line order; cells are ``<polygon>`` elements in
``<g id="cells">`` with ``data-colour`` set to the palette index.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from rofl.formats._text import xml_text
from rofl.render.layout import THIN, key_text, letter, text_on
from rofl.render.svg import FONT_FAMILY, SvgString, _hex, _n

if TYPE_CHECKING:  # pragma: no cover
    from rofl.hexagon import HexPuzzle

R = 12.0  # circumradius of a cell, in SVG user units
SQ3 = math.sqrt(3)
FONT = 0.85 * R
STEP = 1.25 * R  # distance between numbers along a diagonal's axis
QUESTION = (200, 200, 200)


def _centre(q: int, r: int) -> tuple[float, float]:
    return SQ3 * R * (q + r / 2), 1.5 * R * r


def _polygon(x: float, y: float, fill: str) -> str:
    pts = " ".join(
        f"{_n(x + R * math.cos(math.radians(a)))},{_n(y + R * math.sin(math.radians(a)))}" for a in range(30, 390, 60)
    )
    return f'<polygon points="{pts}" fill="{fill}"/>'


def _label(group, letters: bool) -> tuple[str, str | None, str]:
    """Text, box fill (None for a black-and-white clue) and text colour of a group."""
    length, colour = group
    if isinstance(colour, frozenset):
        marks = "".join(letter(c) for c in sorted(colour)) if letters else "?"
        return f"{length}{marks}", "url(#unknown)", "#000000"
    return str(length), None, "#000000"


def hex_puzzle_svg(puzzle: HexPuzzle, *, solution=None, title: str | None = None, letters: bool = False) -> SvgString:
    """Draw ``puzzle``'s hexagonal sheet (or, with ``solution``, a flat cell
    array in the board's order, its solution picture) as an SVG document."""
    board = puzzle.board
    coords = board.coords
    colour_puzzle = puzzle.n_colors > 2 or puzzle.has_color_sets
    palette = puzzle.palette
    out_cells, texts = [], {"row-clues": [], "falling-clues": [], "rising-clues": []}
    boxes: list[str] = []
    guides: list[str] = []
    xs, ys = [], []

    def number(kind: str, group, x: float, y: float, anchor: str) -> None:
        text, fill, ink = _label(group, letters)
        length, colour = group
        if fill is None and colour_puzzle and length > 0 and not isinstance(colour, frozenset):
            fill = _hex(palette[colour])
            ink = _hex(text_on(palette[colour]))
        if letters and colour_puzzle and not isinstance(colour, frozenset) and length > 0:
            text += letter(colour)
        w = max(1, len(text)) * 0.62 * FONT
        left = x - w if anchor == "end" else x - w / 2
        if fill is not None:
            boxes.append(
                f'<rect x="{_n(left - 1.5)}" y="{_n(y - FONT * 0.62)}" width="{_n(w + 3)}" '
                f'height="{_n(FONT * 1.24)}" fill="{fill}"/>'
            )
        texts[kind][-1].append(
            f'<text x="{_n(x)}" y="{_n(y + FONT * 0.36)}" fill="{ink}" text-anchor="{anchor}">{xml_text(text)}</text>'
        )
        xs.extend([left - 2, left + w + 2])
        ys.extend([y - FONT, y + FONT])

    cells = None if solution is None else np.asarray(solution).reshape(-1)
    for i, (q, r, _s) in enumerate(coords):
        x, y = _centre(int(q), int(r))
        xs.extend([x - R, x + R])
        ys.extend([y - R, y + R])
        fill = "#ffffff" if cells is None else _hex(palette[int(cells[i])])
        colour = 0 if cells is None else int(cells[i])
        out_cells.append(_polygon(x, y, fill).replace("<polygon", f'<polygon data-colour="{colour}"'))

    groups = puzzle.rows, puzzle.falling, puzzle.rising
    per = 2 * board.side - 1
    for d, kind in enumerate(("row-clues", "falling-clues", "rising-clues")):
        for k in range(per):
            line = board.line(d * per + k)
            clue = groups[d][k] or ((0, 1),)
            texts[kind].append([])
            if d == 0:
                q, r = coords[line[0]][:2]
                x, y = _centre(int(q), int(r))
                x -= R * 1.3
                for g in reversed(clue):
                    number(kind, g, x, y, "end")
                    x -= (len(_label(g, letters)[0]) + (1 if letters and colour_puzzle else 0)) * 0.62 * FONT + 5
                guides.append(
                    f'<line x1="{_n(x)}" y1="{_n(y)}" x2="{_n(_centre(int(q), int(r))[0] - R)}" y2="{_n(y)}"/>'
                )
            else:
                end = line[-1] if d == 1 else line[0]
                q, r = coords[end][:2]
                x0, y0 = _centre(int(q), int(r))
                dx, dy = (0.5, SQ3 / 2) if d == 1 else (0.5, -SQ3 / 2)
                order = clue if d == 1 else tuple(reversed(clue))
                t = R * 1.6
                for g in order:
                    number(kind, g, x0 + dx * t, y0 + dy * t, "middle")
                    t += STEP
                t -= STEP * 0.4
                guides.append(
                    f'<line x1="{_n(x0 + dx * R)}" y1="{_n(y0 + dy * R)}" x2="{_n(x0 + dx * t)}" y2="{_n(y0 + dy * t)}"/>'
                )

    key: list[str] = []
    if colour_puzzle:
        ky = max(ys) + FONT * 1.5
        for c in range(len(palette)):
            key.append(
                f'<rect x="{_n(min(xs))}" y="{_n(ky - FONT * 0.6)}" width="{_n(FONT * 1.2)}" height="{_n(FONT * 1.2)}" '
                f'fill="{_hex(palette[c])}" stroke="#000000" stroke-width="0.5"/>'
                f'<text x="{_n(min(xs) + FONT * 1.6)}" y="{_n(ky + FONT * 0.36)}">{xml_text(key_text(puzzle, c, letters))}</text>'
            )
            ky += FONT * 1.5
        if puzzle.has_color_sets:
            key.append(
                f'<rect x="{_n(min(xs))}" y="{_n(ky - FONT * 0.6)}" width="{_n(FONT * 1.2)}" height="{_n(FONT * 1.2)}" '
                f'fill="url(#unknown)" stroke="#000000" stroke-width="0.5"/>'
                f'<text x="{_n(min(xs) + FONT * 1.6)}" y="{_n(ky + FONT * 0.36)}">? = a group of one of several colours '
                "(the line's clue does not say which)</text>"
            )
            ky += FONT * 1.5
        ys.append(ky)
    top = min(ys) - (FONT * 2 if title else 4)
    x_min, x_max, y_max = min(xs) - 4, max(xs) + 4, max(ys) + 4
    width, height = x_max - x_min, y_max - top
    parts = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{_n(width * 0.75)}mm" '
        f'height="{_n(height * 0.75)}mm" viewBox="{_n(x_min)} {_n(top)} {_n(width)} {_n(height)}">',
        '<defs><pattern id="unknown" width="4" height="4" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><rect width="4" height="4" fill="#dddddd"/>'
        '<line x1="0" y1="0" x2="0" y2="4" stroke="#999999" stroke-width="1.5"/></pattern></defs>',
        f'<rect x="{_n(x_min)}" y="{_n(top)}" width="{_n(width)}" height="{_n(height)}" fill="#ffffff"/>',
    ]
    if title:
        parts.append(
            f'<text x="{_n((x_min + x_max) / 2)}" y="{_n(top + FONT * 1.4)}" text-anchor="middle" '
            f'font-family="{FONT_FAMILY}" font-size="{_n(FONT * 1.3)}">{xml_text(title)}</text>'
        )
    parts.append(f'<g id="guides" stroke="#c8c8c8" stroke-width="0.6">{"".join(guides)}</g>')
    parts.append(f'<g id="cells" stroke="{_hex(THIN)}" stroke-width="0.8">{"".join(out_cells)}</g>')
    parts.append(f'<g id="clue-boxes" stroke="{_hex(THIN)}" stroke-width="0.5">{"".join(boxes)}</g>')
    for kind, lines in texts.items():
        parts.append(f'<g id="{kind}" font-family="{FONT_FAMILY}" font-size="{_n(FONT)}">')
        parts.extend(f'<g class="clue">{"".join(reversed(t) if kind != "falling-clues" else t)}</g>' for t in lines)
        parts.append("</g>")
    if key:
        parts.append(f'<g id="key" font-family="{FONT_FAMILY}" font-size="{_n(FONT)}">{"".join(key)}</g>')
    parts.append("</svg>")
    return SvgString("\n".join(parts) + "\n")
