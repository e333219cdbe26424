"""Drawing surfaces for sheets: a Pillow image (PNG) and an fpdf2 page (PDF)
behind one small set of calls, in a layout's units.

A layout (:mod:`rofl.render.hexlayout` for hexagons) says where everything
goes; :func:`draw_hex_sheet` draws a hexagonal sheet once, on either
surface: :class:`RasterCanvas` (:func:`rofl.render.sheet.sheet_bytes`'s PNG)
or :class:`PdfCanvas` (:func:`rofl.render.pdf.puzzle_pdf`).  A surface maps
layout units to its own (``k`` of its units per layout unit, from the
layout's top left corner ``(left, top)`` to ``origin``), sizes lines in
layout units and keeps what each medium needs of its own: Pillow's pixel
widths and text anchors, PDF's baselines and graphics state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rofl.render.hexlayout import FONT, UNKNOWN
from rofl.render.layout import THIN

if TYPE_CHECKING:  # pragma: no cover
    from rofl.palette import Palette
    from rofl.render.fonts import FontFile
    from rofl.render.hexlayout import HexSheet

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
        from rofl.render.fonts import pil_font

        self.face = pil_font(max(6, round(size * self.k)), self.font_file)

    def text(self, x: float, y: float, text: str, ink, anchor: str) -> None:
        """``text`` centred on ``y``, ending at, centred on or starting at ``x`` (``anchor``)."""
        self.draw.text(self.p(x, y), text, fill=tuple(ink), font=self.face, anchor=_PIL_ANCHORS[anchor])

    def heading(self, x: float, top: float, text: str) -> None:
        """A title centred on ``x``, its middle just over a digit below ``top``."""
        from rofl.render.fonts import pil_font

        face = pil_font(max(8, round(FONT * 1.3 * self.k)), self.font_file)
        self.draw.text(self.p(x, top + FONT * 1.1), text, fill=BLACK, font=face, anchor="mm")

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
