"""Drawing surfaces for sheets: a Pillow image (PNG) and an fpdf2 page (PDF)
behind one small set of calls, in a layout's units.

A layout (:mod:`rofl.render.layout` for rectangles,
:mod:`rofl.render.hexlayout` for hexagons) says where everything goes;
:func:`draw_sheet` draws a rectangular sheet and :func:`draw_hex_sheet` a
hexagonal one once, on either surface: :class:`RasterCanvas`
(:func:`rofl.render.sheet.sheet_bytes`'s PNG) or :class:`PdfCanvas`
(:func:`rofl.render.pdf.puzzle_pdf`).  A surface maps
layout units to its own (``k`` of its units per layout unit, from the
layout's top left corner ``(left, top)`` to ``origin``), sizes lines in
layout units and keeps what each medium needs of its own: Pillow's pixel
widths and text anchors, PDF's baselines and graphics state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rofl.render.fonts import pil_font
from rofl.render.hexlayout import FONT, UNKNOWN
from rofl.render.layout import BAND, DIGIT_DROP, THIN, TITLE_EM, fill_runs

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Callable

    import numpy as np

    from rofl.palette import Palette
    from rofl.render.fonts import FontFile
    from rofl.render.hexlayout import HexSheet
    from rofl.render.layout import Layout, Number

#: A ``?`` group's box: light grey with darker hatching at 45 degrees.
GREY = (221, 221, 221)
HATCH = (153, 153, 153)
#: The light lines from a board to its clues.
GUIDE = (192, 192, 192)
BLACK = (0, 0, 0)
WHITE = (255, 255, 255)

#: How far a PDF baseline sits below the middle of digits, in em.
_DROP = 0.36
_PIL_ANCHORS = {"end": "rm", "middle": "mm", "start": "lm"}


class RasterCanvas:
    """A Pillow image drawn in layout units (line widths at least a pixel)."""

    def __init__(
        self, size: tuple[int, int], k: float, corner: tuple[float, float], font: FontFile | None = None
    ) -> None:
        from PIL import Image, ImageDraw

        self.image = Image.new("RGB", size, WHITE)
        self.draw = ImageDraw.Draw(self.image)
        self.k = k
        self.left, self.top = corner
        self.font_file = font
        self.face = None
        self.faces: dict[int, object] = {}

    def p(self, x: float, y: float) -> tuple[float, float]:
        return (x - self.left) * self.k, (y - self.top) * self.k

    def width(self, units: float) -> int:
        return max(1, round(self.k * units))

    def line(self, x1: float, y1: float, x2: float, y2: float, colour, width: float) -> None:
        self.draw.line((self.p(x1, y1), self.p(x2, y2)), fill=colour, width=self.width(width))

    def polygon(self, points, fill, outline, width: float) -> None:
        self.draw.polygon([self.p(*c) for c in points], fill=fill, outline=outline, width=self.width(width))

    def box(self, rect, fill) -> None:
        """A clue's box: ``fill`` or, for :data:`~rofl.render.hexlayout.UNKNOWN`, grey hatching; framed thin."""
        (x1, y1), (x2, y2) = self.p(*rect[:2]), self.p(*rect[2:])
        if fill != UNKNOWN:
            self.draw.rectangle((x1, y1, x2, y2), fill=tuple(fill), outline=THIN)
            return
        self.draw.rectangle((x1, y1, x2, y2), fill=GREY)
        step = max(3, self.k * 3)
        t = x1 - (y2 - y1)
        while t < x2:  # hatching at 45 degrees, clipped to the box
            a = (max(t, x1), y2 - (max(t, x1) - t))
            b = (min(t + (y2 - y1), x2), y2 - (min(t + (y2 - y1), x2) - t))
            self.draw.line((a, b), fill=HATCH, width=self.width(0.8))
            t += step
        self.draw.rectangle((x1, y1, x2, y2), outline=THIN)

    def font(self, size: float) -> None:
        """Set the size of the texts that follow (at least 6 pixels)."""
        self.face = self.sized(max(6, round(size * self.k)))

    def text(self, x: float, y: float, text: str, ink, anchor: str) -> None:
        """``text`` centred on ``y``, ending at, centred on or starting at ``x`` (``anchor``)."""
        self.draw.text(self.p(x, y), text, fill=tuple(ink), font=self.face, anchor=_PIL_ANCHORS[anchor])

    def heading(self, x: float, top: float, text: str) -> None:
        """A title centred on ``x``, its middle just over a digit below ``top``."""
        face = self.sized(max(8, round(FONT * 1.3 * self.k)))
        self.draw.text(self.p(x, top + FONT * 1.1), text, fill=BLACK, font=face, anchor="mm")

    # a rectangle's sheet: one layout pixel an image pixel, in Pillow's own fonts

    def sized(self, size: int):
        """Pillow's font of ``size`` pixels in this sheet's font file (kept)."""
        if size not in self.faces:
            self.faces[size] = pil_font(size, self.font_file)
        return self.faces[size]

    def title(self, x: float, y: float, text: str, size: int) -> None:
        """A title whose top left corner is ``(x, y)``."""
        self.draw.text(self.p(x, y), text, fill="black", font=self.sized(size))

    def fills(self, rects, colour) -> None:
        """Rectangles ``(left, top, right, bottom)`` filled with ``colour``, unframed."""
        for left, top, right, bottom in rects:
            self.draw.rectangle([*self.p(left, top), *self.p(right - 1, bottom - 1)], fill=colour)

    def cells(self, x0: float, y0: float, cell: int, grid: np.ndarray, palette: Palette) -> None:
        """The cells of ``grid`` filled, its top left corner at ``(x0, y0)``."""
        import numpy as np
        from PIL import Image

        rgb = palette.to_array()[grid]
        block = np.repeat(np.repeat(rgb, cell, axis=0), cell, axis=1)
        self.image.paste(Image.fromarray(np.ascontiguousarray(block), "RGB"), (round(x0), round(y0)))

    def framed(self, rect, fill, frame) -> None:
        """A rectangle filled with ``fill``, framed by a line of one layout pixel."""
        self.draw.rectangle([*self.p(*rect[:2]), *self.p(*rect[2:])], fill=fill, outline=frame, width=1)

    def number(self, number: Number, size: int) -> None:
        """A clue number of ``size`` pixels: a row's ends at x and is centred
        on y; a column's is centred on x and stands on y (a boxed one on its
        baseline, as in the vector sheets)."""
        anchor = "rm" if number.in_row else "mb" if number.box is None else "ms"
        self.draw.text(self.p(number.x, number.y), number.text, fill=number.color, font=self.sized(size), anchor=anchor)

    def label(self, x: float, y: float, text: str, size: int) -> None:
        """Black text of ``size`` pixels starting at ``x``, its digits centred on ``y``."""
        self.draw.text(self.p(x, y), text, fill="black", font=self.sized(size), anchor="lm")

    def rule(self, x1: float, y1: float, x2: float, y2: float, bold: bool) -> None:
        """A line between cells: thin and grey, or bold and black."""
        colour, width = (BLACK, 2) if bold else (THIN, 1)
        self.draw.line([self.p(x1, y1), self.p(x2, y2)], fill=colour, width=self.width(width))

    def png(self, dpi: float) -> bytes:
        import io

        buf = io.BytesIO()
        self.image.save(buf, format="PNG", dpi=(dpi, dpi))
        return buf.getvalue()


class PdfCanvas:
    """An fpdf2 page drawn in layout units, in the font family ``family``."""

    def __init__(self, pdf, family: str, k: float, origin: tuple[float, float], corner: tuple[float, float]) -> None:
        self.pdf = pdf
        self.family = family
        self.k = k
        self.ox, self.oy = origin
        self.left, self.top = corner
        self.size = FONT * k

    def p(self, x: float, y: float) -> tuple[float, float]:
        return self.ox + (x - self.left) * self.k, self.oy + (y - self.top) * self.k

    def line(self, x1: float, y1: float, x2: float, y2: float, colour, width: float) -> None:
        self.pdf.set_draw_color(*colour)
        self.pdf.set_line_width(width * self.k)
        self.pdf.line(*self.p(x1, y1), *self.p(x2, y2))

    def polygon(self, points, fill, outline, width: float) -> None:
        self.pdf.set_draw_color(*outline)
        self.pdf.set_line_width(width * self.k)
        self.pdf.set_fill_color(*fill)
        self.pdf.polygon([self.p(*c) for c in points], style="DF")

    def box(self, rect, fill) -> None:
        pdf = self.pdf
        (x1, y1), (x2, y2) = self.p(*rect[:2]), self.p(*rect[2:])
        pdf.set_line_width(0.4)
        pdf.set_draw_color(*THIN)
        pdf.set_fill_color(*(GREY if fill == UNKNOWN else fill))
        pdf.rect(x1, y1, x2 - x1, y2 - y1, style="DF")
        if fill == UNKNOWN:
            pdf.set_draw_color(*HATCH)
            step = 3 * self.k
            t = x1 - (y2 - y1)
            while t < x2:
                ax, bx = max(t, x1), min(t + (y2 - y1), x2)
                pdf.line(ax, y2 - (ax - t), bx, y2 - (bx - t))
                t += step

    def font(self, size: float) -> None:
        self.size = size * self.k
        self.pdf.set_font(self.family, size=self.size)

    def text(self, x: float, y: float, text: str, ink, anchor: str) -> None:
        px, py = self.p(x, y)
        w = self.pdf.get_string_width(text)
        self.pdf.set_text_color(*ink)
        shift = w if anchor == "end" else w / 2 if anchor == "middle" else 0
        self.pdf.text(px - shift, py + self.size * _DROP, text)

    def heading(self, x: float, top: float, text: str) -> None:
        size = self.size
        self.pdf.set_text_color(*BLACK)
        self.pdf.set_font(self.family, size=size * 1.3)
        px, py = self.p(x, top + FONT * 1.5)
        self.pdf.text(px - self.pdf.get_string_width(text) / 2, py, text)
        self.pdf.set_font(self.family, size=size)


class RectPdfCanvas(PdfCanvas):
    """An fpdf2 page that a rectangular sheet is drawn on: its clue numbers
    placed by ``text_width`` (in layout pixels, at a size in layout pixels)
    and :data:`~rofl.render.layout.DIGIT_DROP`, lines one or two layout
    pixels wide."""

    def __init__(self, pdf, family: str, k: float, origin: tuple[float, float], text_width: Callable) -> None:
        super().__init__(pdf, family, k, origin, (0.0, 0.0))
        self.text_width = text_width
        self._size: int | None = None  # the text size set last, in layout pixels
        self._pen: tuple | None = None  # the line colour and width set last

    def _font(self, size: int) -> None:
        if size != self._size:
            self.pdf.set_font(self.family, size=size * self.k)
            self._size = size

    def _set_pen(self, colour, width: float) -> None:
        if (colour, width) != self._pen:
            self.pdf.set_draw_color(*colour)
            self.pdf.set_line_width(width * self.k)
            self._pen = (colour, width)

    def title(self, x: float, y: float, text: str, size: int) -> None:
        self._font(size)
        self.pdf.set_text_color(0, 0, 0)
        self.pdf.text(*self.p(x, y + TITLE_EM * size), text)

    def _rect(self, left: float, top: float, right: float, bottom: float, style: str) -> None:
        x, y = self.p(left, top)
        self.pdf.rect(x, y, (right - left) * self.k, (bottom - top) * self.k, style=style)

    def fills(self, rects, colour) -> None:
        self.pdf.set_fill_color(*colour)
        for rect in rects:
            self._rect(*rect, "F")

    def cells(self, x0: float, y0: float, cell: int, grid: np.ndarray, palette: Palette) -> None:
        """The background, then a rectangle per run of same-coloured cells."""
        c = cell * self.k
        x, y = self.p(x0, y0)
        self.pdf.set_fill_color(*palette[0])
        self.pdf.rect(x, y, grid.shape[1] * c, grid.shape[0] * c, style="F")
        for i, j, k, colour in fill_runs(grid):
            self.pdf.set_fill_color(*palette[colour])
            self.pdf.rect(x + j * c, y + i * c, (k - j) * c, c, style="F")

    def framed(self, rect, fill, frame) -> None:
        self.pdf.set_fill_color(*fill)
        self._rect(*rect, "F")
        self._set_pen(frame, 1)
        self._rect(*rect, "D")

    def number(self, number: Number, size: int) -> None:
        self._font(size)
        self.pdf.set_text_color(*number.color)
        width = self.text_width(number.text, size)
        if number.in_row:
            x, y = number.x - width, number.y + DIGIT_DROP * size
        else:
            x, y = number.x - width / 2, number.y
        self.pdf.text(*self.p(x, y), number.text)

    def label(self, x: float, y: float, text: str, size: int) -> None:
        self._font(size)
        self.pdf.set_text_color(0, 0, 0)
        self.pdf.text(*self.p(x, y + DIGIT_DROP * size), text)

    def rule(self, x1: float, y1: float, x2: float, y2: float, bold: bool) -> None:
        # fpdf2 (like FPDF) starts every page with square line caps ("2 J"),
        # which close the corners of the thick frame
        self._set_pen(BLACK if bold else THIN, 2 if bold else 1)
        self.pdf.line(*self.p(x1, y1), *self.p(x2, y2))


def draw_sheet(layout: Layout, palette: Palette, grid: np.ndarray | None, canvas: RasterCanvas | RectPdfCanvas) -> None:
    """Draw a rectangular sheet on ``canvas``: title, bands, cells, clue
    numbers, lines (thin ones first, so that the thick ones stay whole where
    they cross) and key."""
    if layout.title:
        canvas.title(layout.margin, layout.margin, layout.title, layout.title_size)
    canvas.fills(layout.bands, BAND)
    if grid is not None:
        canvas.cells(layout.x0, layout.y0, layout.cell, grid, palette)
    for number in layout.numbers:
        if number.box is not None:  # in its group's exact colour, framed
            canvas.framed(number.box, number.fill, THIN)
        canvas.number(number, layout.font_size)
    for bold in (False, True):
        for x1, y1, x2, y2, b in layout.lines:
            if b == bold:
                canvas.rule(x1, y1, x2, y2, bold)
    for entry in layout.key:
        canvas.framed((entry.x, entry.y, entry.x + entry.side, entry.y + entry.side), entry.color, BLACK)
        canvas.label(entry.text_x, entry.y + entry.side / 2, entry.text, layout.font_size)


def draw_hex_sheet(sheet: HexSheet, palette: Palette, canvas: RasterCanvas | PdfCanvas) -> None:
    """Draw a hexagonal sheet on ``canvas``: guides, cells, clue numbers, title, key."""
    for a, b, c, d in sheet.guides:
        canvas.line(a, b, c, d, GUIDE, 0.6)
    for x, y, colour in sheet.cells:
        fill = WHITE if colour < 0 else tuple(palette[colour])
        canvas.polygon(sheet.hexagon(x, y), fill, THIN, 0.8)
    canvas.font(FONT)
    for num in sheet.numbers:
        if num.fill is not None:
            canvas.box(num.box, num.fill)
        canvas.text(num.x, num.y, num.text, num.ink, num.anchor)
    if sheet.title:  # the puzzle's own when none is given
        canvas.heading(sheet.left + sheet.width / 2, sheet.top, sheet.title)
    x, y = sheet.key_at
    for swatch, text in sheet.key:
        canvas.box((x, y - FONT * 0.6, x + FONT * 1.2, y + FONT * 0.6), swatch)
        canvas.text(x + FONT * 1.6, y, text, BLACK, "start")
        y += FONT * 1.5
