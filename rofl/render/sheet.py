"""Printable puzzle sheets: the empty grid with its clues, as a Pillow image."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from PIL import Image

    from rofl.puzzle import Puzzle

#: Largest sheet drawn, in pixels per side (Pillow refuses far larger images
#: anyway; this keeps the error clear).
MAX_SIDE = 30000


def _font(size: int):
    from PIL import ImageFont

    try:
        return ImageFont.load_default(size=size)
    except (TypeError, OSError):  # pragma: no cover - Pillow without FreeType
        return ImageFont.load_default()


def _ink(rgb: tuple[int, int, int]) -> tuple[int, int, int]:
    """The colour a clue number is printed in: its group's colour, darkened
    when that colour is too light to read on white paper."""
    r, g, b = rgb
    if 0.299 * r + 0.587 * g + 0.114 * b > 170:
        return (int(r * 0.55), int(g * 0.55), int(b * 0.55))
    return rgb


def puzzle_sheet(puzzle: Puzzle, *, cell: int | None = None, title: str | None = None) -> Image.Image:
    """Draw ``puzzle`` as a sheet to print and solve by hand.

    Row clues stand left of their rows, column clues above their columns,
    read left to right and top to bottom.  Thin lines separate cells, thick
    lines every fifth cell.  In colour puzzles each number is printed in its
    group's colour.

    Parameters
    ----------
    puzzle : Puzzle
    cell : int, optional
        Cell size in pixels (default: 26 for puzzles up to 80 cells a side,
        22 up to 160, 18 beyond; clue numbers are about 55 % of it, so two
        digits fit a column).
    title : str, optional
        Printed above the grid; defaults to ``puzzle.meta["title"]``.

    Returns
    -------
    PIL.Image.Image
        RGB image, white background.

    Raises
    ------
    rofl.UsageError
        The sheet would be larger than :data:`MAX_SIDE` pixels.
    """
    from PIL import Image, ImageDraw

    from rofl.errors import UsageError

    if cell is None:
        side = max(puzzle.width, puzzle.height)
        cell = 26 if side <= 80 else 22 if side <= 160 else 18
    if cell < 6:
        msg = f"cell size {cell} px is too small to print clues"
        raise UsageError(msg)
    if title is None:
        title = puzzle.meta.get("title")
    font = _font(max(8, round(cell * 0.55)))
    title_font = _font(max(10, round(cell * 1.1)))
    palette = puzzle.palette
    gap = max(3, cell // 3)  # between neighbouring numbers of a row clue

    def text_width(text: str) -> float:
        return font.getlength(text)

    rows, cols = puzzle.rows, puzzle.cols
    row_widths = [sum(text_width(str(n)) for n, _ in clue) + gap * max(0, len(clue) - 1) for clue in rows]
    clue_w = int(max(row_widths, default=0) + 2 * gap)
    line_h = cell  # one number per cell height in the column clues
    clue_h = max((len(clue) for clue in cols), default=0) * line_h + gap
    margin = cell
    title_h = 0
    if title:
        box = title_font.getbbox(title)
        title_h = int(box[3] - box[1]) + cell
    width = margin + clue_w + puzzle.width * cell + margin
    height = margin + title_h + clue_h + puzzle.height * cell + margin
    if width > MAX_SIDE or height > MAX_SIDE:
        msg = f"a sheet of {width}x{height} pixels is too large; choose a smaller cell size"
        raise UsageError(msg)

    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    x0 = margin + clue_w
    y0 = margin + title_h + clue_h
    if title:
        draw.text((margin, margin), title, fill="black", font=title_font)

    # light bands behind every other group of five lines guide the eye from clue to line
    for i in range(0, puzzle.height, 10):
        top = y0 + (i + 5) * cell
        if i + 5 < puzzle.height:
            draw.rectangle([margin, top, x0 - 1, top + min(5, puzzle.height - i - 5) * cell], fill=(238, 238, 238))
    for j in range(0, puzzle.width, 10):
        left = x0 + (j + 5) * cell
        if j + 5 < puzzle.width:
            right = left + min(5, puzzle.width - j - 5) * cell
            draw.rectangle([left, margin + title_h, right, y0 - 1], fill=(238, 238, 238))

    for i, clue in enumerate(rows):
        x = x0 - gap
        cy = y0 + i * cell + cell / 2
        for n, c in reversed(clue):
            text = str(n)
            x -= text_width(text)
            draw.text((x, cy), text, fill=_ink(palette[c]), font=font, anchor="lm")
            x -= gap
    for j, clue in enumerate(cols):
        cx = x0 + j * cell + cell / 2
        y = y0 - gap
        for n, c in reversed(clue):
            draw.text((cx, y), str(n), fill=_ink(palette[c]), font=font, anchor="mb")
            y -= line_h

    # thin grey lines between cells; thick black ones every fifth cell, drawn
    # out through the clues so a row's numbers are easy to follow
    grid_w, grid_h = puzzle.width * cell, puzzle.height * cell
    thin, thick = {"fill": (160, 160, 160), "width": 1}, {"fill": "black", "width": 2}
    for i in range(puzzle.height + 1):
        y = y0 + i * cell
        bold = i % 5 == 0 or i == puzzle.height
        draw.line([(margin if bold else x0, y), (x0 + grid_w, y)], **(thick if bold else thin))
    for j in range(puzzle.width + 1):
        x = x0 + j * cell
        bold = j % 5 == 0 or j == puzzle.width
        draw.line([(x, margin + title_h if bold else y0), (x, y0 + grid_h)], **(thick if bold else thin))
    return image
