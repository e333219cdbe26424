"""Pictures of made puzzles: the solution scaled up, and a side-by-side comparison."""

from __future__ import annotations

import numpy as np

from rofl.puzzle import Palette


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
        Pixels per cell; default :func:`cell_size` for a third of 1200 pixels.

    Returns
    -------
    PIL.Image.Image (mode "RGB")
        Changed cells of the final grid get a magenta frame with a black or
        white inner frame, whichever contrasts with the cell's new colour.
    """
    from PIL import Image, ImageDraw

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
