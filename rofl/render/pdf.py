"""Puzzle sheets as vector PDF, drawn with fpdf2.

:func:`puzzle_pdf` draws the layout of :func:`rofl.render.sheet.sheet_layout`
(the one the PNG and SVG sheets use) on one A4 page: lines, bands and filled
cells as paths, clue numbers as text in Helvetica, one of the fonts every PDF
reader has, so no font is embedded and the sheet prints sharp at any size.

The page is portrait A4, landscape when the sheet is wider than tall.  The
sheet is centred in the area that A4 and US Letter paper share less
margins (:data:`rofl.render.sheet.PAGE_INCHES`, turned with the page), at
the scale the PNG and SVG sheets print at (:data:`rofl.render.sheet.BASE_DPI`,
a 26-pixel cell is 6.9 mm) or smaller when it would not fit: a small puzzle
keeps pencil-sized cells instead of being blown up to fill the paper.
"""

from __future__ import annotations

import os
import unicodedata
from datetime import UTC, datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from rofl.puzzle import Puzzle

#: A4 in PostScript points (1/72 inch), portrait.
A4_POINTS = (595.28, 841.89)
#: Encoding of the core fonts' text: Windows-1252 prints Latin-1 and the
#: typographic quotes, dashes and euro sign too.
CORE_ENCODING = "windows-1252"


def printable(text: str) -> str:
    """``text`` with every character Helvetica cannot print without an
    embedded font replaced: an accented letter outside Windows-1252 by its
    base letter (``"ő"`` -> ``"o"``), a compatibility character by its plain
    form (``"ﬁ"`` -> ``"fi"``), anything else (Greek, CJK, control
    characters) by ``"?"``."""
    out = []
    for ch in text:
        if unicodedata.category(ch) in ("Cc", "Cs"):
            out.append("?")
            continue
        for candidate in (ch, unicodedata.normalize("NFKD", ch)):
            kept = "".join(c for c in candidate if not unicodedata.combining(c))
            try:
                kept.encode(CORE_ENCODING)
            except UnicodeEncodeError:
                continue
            if kept:
                out.append(kept)
                break
        else:
            out.append("?")
    return "".join(out)


def _metadata_text(text: str) -> str:
    # the document title is UTF-16 and holds any character, but not lone
    # surrogates (a title may come from any file) or control characters
    return "".join("\ufffd" if unicodedata.category(ch) in ("Cc", "Cs") else ch for ch in text)


def _creation_date() -> datetime:
    # fpdf2 always writes a creation date; SOURCE_DATE_EPOCH (the
    # reproducible-builds convention) makes the file byte for byte the same
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "")
    if epoch.isdigit():
        return datetime.fromtimestamp(int(epoch), UTC)
    return datetime.now(UTC)


def puzzle_pdf(puzzle: Puzzle, *, solution=None, cell: int | None = None, title: str | None = None) -> bytes:
    """Draw ``puzzle``'s sheet as a one-page vector PDF.

    The same sheet as :func:`rofl.render.sheet.puzzle_sheet`: clues left of
    the rows and above the columns (each number in its group's colour in
    colour puzzles, darkened when too light to read), thin lines between
    cells, thick lines every fifth, an optional title.  A solution sheet
    fills the grid with one rectangle per run of same-coloured cells.

    Parameters
    ----------
    puzzle : Puzzle
    solution : (H, W) uint8 array of palette indices, optional
        Fill the cells with this picture (a solution sheet); it must fit
        the clues.
    cell : int, optional
        Cell size in layout pixels (at 96 dpi; the page may scale it
        down); default :func:`rofl.render.sheet.default_cell`.
    title : str, optional
        Defaults to ``puzzle.meta["title"]``; an empty string prints none.
        Printed in Helvetica, so characters outside Windows-1252 print as
        a stand-in (see :func:`printable`); the document's title metadata
        keeps the title as given.

    Returns
    -------
    bytes
        The PDF file: one A4 page.  Its creation date is the current time,
        or ``SOURCE_DATE_EPOCH`` when that is set.

    Raises
    ------
    rofl.UsageError
        A cell smaller than :data:`rofl.render.sheet.MIN_CELL`, a sheet
        larger than :data:`rofl.render.sheet.MAX_SIDE` a side, or a
        solution that does not fit the puzzle.
    """
    from fpdf import FPDF

    from rofl.render.sheet import (
        BAND,
        BASE_DPI,
        DIGIT_DROP,
        PAGE_INCHES,
        THIN,
        TITLE_EM,
        fill_runs,
        sheet_inputs,
        sheet_layout,
    )

    grid, title = sheet_inputs(puzzle, solution, title)
    shown = printable(title) if title else None

    pdf = FPDF(unit="pt", format="A4")
    pdf.core_fonts_encoding = CORE_ENCODING
    pdf.set_font("helvetica", size=12)
    widths: dict[str, float] = {}  # in em, whatever the size set

    def text_width(text: str, size: float) -> float:
        if text not in widths:
            widths[text] = pdf.get_string_width(text) / pdf.font_size_pt
        return widths[text] * size

    layout = sheet_layout(
        puzzle, cell=cell, title=shown, text_width=text_width, title_height=lambda text, size: TITLE_EM * size
    )
    w, h = layout.width, layout.height
    landscape = w > h
    page_w, page_h = sorted(A4_POINTS, reverse=landscape)
    area_w, area_h = (72 * side for side in sorted(PAGE_INCHES, reverse=landscape))
    scale = min(72 / BASE_DPI, area_w / w, area_h / h)  # points per layout pixel
    left, top = (page_w - w * scale) / 2, (page_h - h * scale) / 2

    def px(x: float) -> float:
        return left + x * scale

    def py(y: float) -> float:
        return top + y * scale

    pdf.set_auto_page_break(False)
    pdf.set_margin(0)
    pdf.add_page(orientation="L" if landscape else "P")
    pdf.set_creation_date(_creation_date())
    pdf.set_creator("rofl")
    pdf.set_display_mode("fullpage")
    if title:
        pdf.set_title(_metadata_text(title))

    if layout.title:
        pdf.set_font("helvetica", size=layout.title_size * scale)
        pdf.set_text_color(0, 0, 0)
        pdf.text(px(layout.margin), py(layout.margin + TITLE_EM * layout.title_size), layout.title)
    pdf.set_fill_color(*BAND)
    for x1, y1, x2, y2 in layout.bands:
        pdf.rect(px(x1), py(y1), (x2 - x1) * scale, (y2 - y1) * scale, style="F")
    if grid is not None:
        c = layout.cell * scale
        palette = puzzle.palette
        pdf.set_fill_color(*palette[0])
        pdf.rect(px(layout.x0), py(layout.y0), puzzle.width * c, puzzle.height * c, style="F")
        for i, j, k, colour in fill_runs(grid):
            pdf.set_fill_color(*palette[colour])
            pdf.rect(px(layout.x0) + j * c, py(layout.y0) + i * c, (k - j) * c, c, style="F")

    # a row's numbers end at x and are centred on y; a column's are centred
    # on x and stand on y
    pdf.set_font("helvetica", size=layout.font_size * scale)
    for number in layout.numbers:
        pdf.set_text_color(*number.color)
        width = text_width(number.text, layout.font_size)
        if number.in_row:
            x, y = number.x - width, number.y + DIGIT_DROP * layout.font_size
        else:
            x, y = number.x - width / 2, number.y
        pdf.text(px(x), py(y), number.text)

    # thin lines first so that the thick ones stay whole where they cross;
    # fpdf2 (like FPDF) starts every page with square line caps ("2 J"),
    # which close the corners of the thick frame
    for bold in (False, True):
        pdf.set_draw_color(*((0, 0, 0) if bold else THIN))
        pdf.set_line_width((2 if bold else 1) * scale)
        for x1, y1, x2, y2, b in layout.lines:
            if b == bold:
                pdf.line(px(x1), py(y1), px(x2), py(y2))
    return bytes(pdf.output())
