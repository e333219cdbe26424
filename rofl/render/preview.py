"""Pictures of made puzzles: the solution scaled up, and a side-by-side
comparison, of rectangular and of hexagonal puzzles."""

from __future__ import annotations

import numpy as np

from rofl.palette import Palette


def cell_size(width: int, height: int, target: int = 600) -> int:
    """Pixels per cell so that the longer side is about ``target`` pixels (2-32)."""
    return int(min(32, max(2, target // max(width, height, 1))))


def solution_image(grid: np.ndarray, palette: Palette, cell: int | None = None):
    """The picture of a grid, each cell a ``cell`` x ``cell`` block.

    Parameters
    ----------
    grid : (H, W) integer array of palette indices
    palette : Palette
    cell : int, optional
        Pixels per cell; default :func:`cell_size`.

    Returns
    -------
    PIL.Image.Image (mode "RGB")
    """
    from PIL import Image

    grid = np.asarray(grid)
    cell = cell or cell_size(grid.shape[1], grid.shape[0])
    rgb = palette.to_array()[grid]
    return Image.fromarray(np.repeat(np.repeat(rgb, cell, axis=0), cell, axis=1), "RGB")


def compare_image(result, cell: int | None = None, gap: int | None = None):
    """Source, quantised grid and final grid side by side; changed cells are marked.

    Parameters
    ----------
    result : rofl.maker.MakeResult
    cell : int, optional
        Pixels per cell; default :func:`cell_size` for a third of 1200
        pixels.  For a hexagonal puzzle, pixels per cell circumradius
        (default :func:`hex_radius` for a third of 1200 pixels).

    Returns
    -------
    PIL.Image.Image (mode "RGB")
        Changed cells of the final grid get a magenta frame with a black or
        white inner frame, whichever contrasts with the cell's new colour.
    """
    from PIL import Image, ImageDraw

    if result.side is not None:
        return _hex_compare_image(result, cell)
    h, w = result.grid.shape
    cell = cell or max(cell_size(w, h, 400), 4)
    gap = cell if gap is None else gap
    panels = [
        Image.fromarray(result.source_image(cell), "RGB"),
        solution_image(result.quantised, result.palette, cell),
        solution_image(result.grid, result.palette, cell),
    ]
    pw, ph = w * cell, h * cell
    out = Image.new("RGB", (3 * pw + 2 * gap, ph), (128, 128, 128))
    for i, panel in enumerate(panels):
        out.paste(panel, (i * (pw + gap), 0))
    draw = ImageDraw.Draw(out)
    left = 2 * (pw + gap)
    lab_light = _is_light(result.palette)
    frame = max(1, cell // 6)
    for r, c in zip(*np.nonzero(result.changed), strict=True):
        x0, y0 = left + c * cell, r * cell
        box = (x0, y0, x0 + cell - 1, y0 + cell - 1)
        draw.rectangle(box, outline=(255, 0, 255), width=frame)
        if cell >= 6:
            inner = (box[0] + frame, box[1] + frame, box[2] - frame, box[3] - frame)
            tone = (0, 0, 0) if lab_light[result.grid[r, c]] else (255, 255, 255)
            draw.rectangle(inner, outline=tone, width=1)
    return out


def _is_light(palette: Palette) -> np.ndarray:
    rgb = palette.to_array().astype(np.float64)
    return (0.2126 * rgb[:, 0] + 0.7152 * rgb[:, 1] + 0.0722 * rgb[:, 2]) >= 128


# ---------------------------------------------------------------- hexagons


def hex_radius(side: int, target: int = 600) -> float:
    """Pixels per cell circumradius so that the board is about ``target`` pixels wide (3-24)."""
    from rofl.hexagon import Hexagon

    return float(min(24.0, max(3.0, target / Hexagon.of(side).extent()[0])))


def hex_image(rgb: np.ndarray, side: int, radius: float | None = None, *, outline: bool = False):
    """A hexagonal board's cells drawn as pointy-top hexagons.

    Parameters
    ----------
    rgb : (n_cells, 3) uint8 array
        Each cell's colour, in the order of :class:`rofl.hexagon.Hexagon`.
    side : int
    radius : float, optional
        Pixels per cell circumradius; default :func:`hex_radius`.
    outline : bool
        Thin grey cell borders (for sparse boards).

    Returns
    -------
    PIL.Image.Image (mode "RGB"), grey outside the board
    """
    from PIL import Image, ImageDraw

    radius = radius or hex_radius(side)
    size, centres = _hex_centres(side, radius)
    out = Image.new("RGB", size, (128, 128, 128))
    draw = ImageDraw.Draw(out)
    for (x, y), colour in zip(centres, np.asarray(rgb).tolist(), strict=True):
        draw.polygon(_hexagon_points(x, y, radius), fill=tuple(colour), outline=(160, 160, 160) if outline else None)
    return out


def hex_solution_image(cells: np.ndarray, palette: Palette, side: int, radius: float | None = None):
    """The picture of a hexagonal puzzle's solution (``cells`` in the board's order)."""
    return hex_image(palette.to_array()[np.asarray(cells)], side, radius)


def _hex_compare_image(result, radius: float | None = None, gap: int | None = None):
    """:func:`compare_image` of a hexagonal :class:`~rofl.maker.MakeResult`:
    the picture under the board, the quantised and the final cells; changed
    cells are outlined in magenta."""
    from PIL import Image, ImageDraw

    side = result.side
    radius = radius or hex_radius(side, 400)
    gap = int(radius * 2) if gap is None else gap
    panels = [
        Image.fromarray(result.source_image(radius), "RGB"),
        hex_solution_image(result.quantised, result.palette, side, radius),
        hex_solution_image(result.grid, result.palette, side, radius),
    ]
    pw, ph = panels[0].size
    out = Image.new("RGB", (3 * pw + 2 * gap, ph), (128, 128, 128))
    for i, panel in enumerate(panels):
        out.paste(panel, (i * (pw + gap), 0))
    draw = ImageDraw.Draw(out)
    left = 2 * (pw + gap)
    _, centres = _hex_centres(side, radius)
    light = _is_light(result.palette)
    width = max(1, int(radius // 4))
    for cell in np.flatnonzero(result.changed).tolist():
        x, y = centres[cell]
        draw.polygon(_hexagon_points(left + x, y, radius - width / 2), outline=(255, 0, 255), width=width)
        if radius >= 6:
            tone = (0, 0, 0) if light[result.grid[cell]] else (255, 255, 255)
            draw.polygon(_hexagon_points(left + x, y, radius - 1.5 * width - 1), outline=tone, width=1)
    return out


def _hex_centres(side: int, radius: float) -> tuple[tuple[int, int], list[tuple[float, float]]]:
    """The image size of a board and each cell's centre in pixels."""
    from rofl.hexagon import Hexagon

    board = Hexagon.of(side)
    ew, eh = board.extent()
    centres = board.centres()
    x, y = (ew / 2 + centres[:, 0]) * radius, (eh / 2 + centres[:, 1]) * radius
    return (int(np.ceil(ew * radius)), int(np.ceil(eh * radius))), list(zip(x.tolist(), y.tolist(), strict=True))


def _hexagon_points(x: float, y: float, radius: float) -> list[tuple[float, float]]:
    angles = np.radians(np.arange(6) * 60 - 90)
    return list(zip((x + radius * np.cos(angles)).tolist(), (y + radius * np.sin(angles)).tolist(), strict=True))
