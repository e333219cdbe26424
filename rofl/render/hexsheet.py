"""Hexagonal puzzle sheets as PNG and PDF: the layout of
:func:`rofl.render.hexlayout.hex_layout` (which :mod:`rofl.render.hexsvg`
draws as SVG) drawn with Pillow or fpdf2.

The PDF is one A4 page (margins that also print on Letter), the sheet as
large as fits, portrait or landscape, whichever prints it larger.  The PNG
is drawn to fit that page at :data:`PNG_DPI` and marked with it.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

from rofl.render.hexlayout import FONT, SQ3, UNKNOWN, R, hex_layout
from rofl.render.layout import PAGE_INCHES, THIN

if TYPE_CHECKING:  # pragma: no cover
    from rofl.hexagon import HexPuzzle
    from rofl.render.fonts import FontFile

PNG_DPI = 150
GREY = (221, 221, 221)
HATCH = (153, 153, 153)


def _scale(width: float, height: float, page: tuple[float, float]) -> tuple[float, bool]:
    """Units to page units, and whether landscape prints the sheet larger."""
    portrait = min(page[0] / width, page[1] / height)
    landscape = min(page[1] / width, page[0] / height)
    return (landscape, True) if landscape > portrait * 1.001 else (portrait, False)


def hex_puzzle_png(
    puzzle: HexPuzzle, *, solution=None, title: str | None = None, letters: bool = False, font: FontFile | None = None
) -> bytes:
    """The PNG sheet of ``puzzle`` (with ``solution``, its solution picture)."""
    from PIL import Image, ImageDraw

    from rofl.render.fonts import pil_font as _font

    sheet = hex_layout(puzzle, solution=solution, title=title, letters=letters)
    k, _ = _scale(sheet.width, sheet.height, (PAGE_INCHES[0] * PNG_DPI, PAGE_INCHES[1] * PNG_DPI))
    size = (max(1, round(sheet.width * k)), max(1, round(sheet.height * k)))
    image = Image.new("RGB", size, (255, 255, 255))
    draw = ImageDraw.Draw(image)
    digits = _font(max(6, round(FONT * k)), font)

    def p(x: float, y: float) -> tuple[float, float]:
        return (x - sheet.left) * k, (y - sheet.top) * k

    def box(rect, fill) -> None:
        (x1, y1), (x2, y2) = p(*rect[:2]), p(*rect[2:])
        if fill == UNKNOWN:
            draw.rectangle((x1, y1, x2, y2), fill=GREY)
            step = max(3, k * 3)
            t = x1 - (y2 - y1)
            while t < x2:  # hatching at 45 degrees, clipped to the box
                a = (max(t, x1), y2 - (max(t, x1) - t))
                b = (min(t + (y2 - y1), x2), y2 - (min(t + (y2 - y1), x2) - t))
                draw.line((a, b), fill=HATCH, width=max(1, round(k * 0.8)))
                t += step
            draw.rectangle((x1, y1, x2, y2), outline=THIN)
        else:
            draw.rectangle((x1, y1, x2, y2), fill=tuple(fill), outline=THIN)

    for a, b, c, d in sheet.guides:
        draw.line((p(a, b), p(c, d)), fill=(192, 192, 192), width=max(1, round(k * 0.6)))
    colours = puzzle.palette
    for x, y, colour in sheet.cells:
        fill = (255, 255, 255) if colour < 0 else tuple(colours[colour])
        draw.polygon([p(*c) for c in sheet.hexagon(x, y)], fill=fill, outline=THIN, width=max(1, round(k * 0.8)))
    for num in sheet.numbers:
        if num.fill is not None:
            box(num.box, num.fill)
        draw.text(
            p(num.x, num.y), num.text, fill=tuple(num.ink), font=digits, anchor="rm" if num.anchor == "end" else "mm"
        )
    title = sheet.title  # the puzzle's own when none is given
    if title:
        heading = _font(max(8, round(FONT * 1.3 * k)), font)
        draw.text(
            p(sheet.left + sheet.width / 2, sheet.top + FONT * 1.1), title, fill=(0, 0, 0), font=heading, anchor="mm"
        )
    x, y = sheet.key_at
    for fill, text in sheet.key:
        box((x, y - FONT * 0.6, x + FONT * 1.2, y + FONT * 0.6), fill)
        draw.text(p(x + FONT * 1.6, y), text, fill=(0, 0, 0), font=digits, anchor="lm")
        y += FONT * 1.5
    buf = io.BytesIO()
    image.save(buf, format="PNG", dpi=(PNG_DPI, PNG_DPI))
    return buf.getvalue()


def _pdf_scale(sheet) -> tuple[float, bool]:
    """Layout units to PDF points on one A4 page, and whether it is landscape."""
    from rofl.render.pdf import A4_POINTS

    margin = 36.0  # half an inch: inside what A4 and Letter printers reach
    page = (min(A4_POINTS[0], 612.0) - 2 * margin, min(A4_POINTS[1], 792.0) - 2 * margin)
    return _scale(sheet.width, sheet.height, page)


def hex_sheet_cell_mm(puzzle: HexPuzzle, *, title: str | None = None) -> tuple[float, bool]:
    """How large :func:`hex_puzzle_pdf` prints ``puzzle``'s cells: their
    width across (flat side to flat side) in millimetres, and whether the
    page is landscape."""
    k, landscape = _pdf_scale(hex_layout(puzzle, title=title))
    return SQ3 * R * k * 25.4 / 72, landscape


def hex_puzzle_pdf(
    puzzle: HexPuzzle, *, solution=None, title: str | None = None, letters: bool = False, font: FontFile | None = None
) -> bytes:
    """The PDF sheet of ``puzzle``: one A4 page, vector drawing."""
    from rofl.render.pdf import A4_POINTS, _Document

    sheet = hex_layout(puzzle, solution=solution, title=title, letters=letters)
    k, landscape = _pdf_scale(sheet)
    with _Document(font) as doc:
        pdf = doc.pdf
        pdf.add_page(orientation="L" if landscape else "P")
        page_w, page_h = sorted(A4_POINTS, reverse=landscape)
        ox = (page_w - sheet.width * k) / 2
        oy = (page_h - sheet.height * k) / 2

        def p(x: float, y: float) -> tuple[float, float]:
            return ox + (x - sheet.left) * k, oy + (y - sheet.top) * k

        def box(rect, fill) -> None:
            (x1, y1), (x2, y2) = p(*rect[:2]), p(*rect[2:])
            pdf.set_line_width(0.4)
            pdf.set_draw_color(*THIN)
            pdf.set_fill_color(*(GREY if fill == UNKNOWN else fill))
            pdf.rect(x1, y1, x2 - x1, y2 - y1, style="DF")
            if fill == UNKNOWN:
                pdf.set_draw_color(*HATCH)
                step = 3 * k
                t = x1 - (y2 - y1)
                while t < x2:
                    ax, bx = max(t, x1), min(t + (y2 - y1), x2)
                    pdf.line(ax, y2 - (ax - t), bx, y2 - (bx - t))
                    t += step

        pdf.set_draw_color(192, 192, 192)
        pdf.set_line_width(0.6 * k)
        for a, b, c, d in sheet.guides:
            pdf.line(*p(a, b), *p(c, d))
        pdf.set_draw_color(*THIN)
        pdf.set_line_width(0.8 * k)
        for x, y, colour in sheet.cells:
            pdf.set_fill_color(*((255, 255, 255) if colour < 0 else tuple(puzzle.palette[colour])))
            pdf.polygon([p(*c) for c in sheet.hexagon(x, y)], style="DF")
        size = FONT * k
        pdf.set_font(doc.family, size=size)
        for num in sheet.numbers:
            if num.fill is not None:
                box(num.box, num.fill)
            x, y = p(num.x, num.y)
            w = pdf.get_string_width(num.text)
            pdf.set_text_color(*num.ink)
            pdf.text(x - w if num.anchor == "end" else x - w / 2, y + size * 0.36, num.text)
        pdf.set_text_color(0, 0, 0)
        title = sheet.title  # the puzzle's own when none is given
        if title:
            pdf.set_font(doc.family, size=size * 1.3)
            x, y = p(sheet.left + sheet.width / 2, sheet.top + FONT * 1.5)
            pdf.text(x - pdf.get_string_width(title) / 2, y, title)
            pdf.set_font(doc.family, size=size)
        x, y = sheet.key_at
        for fill, text in sheet.key:
            box((x, y - FONT * 0.6, x + FONT * 1.2, y + FONT * 0.6), fill)
            tx, ty = p(x + FONT * 1.6, y)
            pdf.text(tx, ty + size * 0.36, text)
            y += FONT * 1.5
        return doc.output()
