"""Pixel art to grid and back: pictures whose pixels already are the cells.

``rofl encode`` and the Pillow plugin's save use :func:`grid_from_image`;
``rofl decode`` and the plugin's load use :func:`image_from_grid`.  Nothing
here scales or quantises (that is the photo pipeline's job: :mod:`.fit`,
:mod:`.quantise`): a picture with more colours than a puzzle may hold is
refused.  :func:`check_pixels` bounds the pictures rofl draws of a puzzle.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rofl.errors import ImageError, OptionError
from rofl.picture.colour import parse_color
from rofl.puzzle import MAX_COLORS, Palette

#: Largest picture accepted as pixel art (cells).
MAX_PIXELS = 1 << 22

#: Most pixels of a picture rofl draws of a puzzle (``decode --scale``):
#: Pillow's ``Image.MAX_IMAGE_PIXELS`` default, the convention for "a
#: picture this large is an attack, not a photo".
MAX_IMAGE_PIXELS = 89_478_485


def grid_from_image(image: Any, *, background: str | tuple[int, int, int] | None = None):
    """The grid and palette of a pixel-art picture.

    Parameters
    ----------
    image : PIL.Image.Image
        Any mode: palette, greyscale, RGB, with or without alpha.  Fully
        transparent pixels are background; partly transparent ones are
        refused (they have no single colour).
    background : colour, optional
        Palette entry 0: a colour string (``"#rrggbb"``, a CSS name...: see
        :func:`rofl.puzzle.parse_color`) or an RGB triple.  Default: white
        when the picture has transparent pixels; for a palette (``P``)
        picture the colour of its lowest palette index in use; else the
        most frequent colour (ties: the lightest).

    Returns
    -------
    grid : (H, W) uint8 array of palette indices
    palette : Palette
        Background first, then the other colours in the picture's palette
        order (``P`` pictures) or by decreasing frequency.

    Raises
    ------
    ImageError
        Too large, partly transparent pixels, or more colours than
        :data:`rofl.puzzle.MAX_COLORS`.
    OptionError
        ``background`` is not a colour.
    """
    width, height = image.size
    if width * height > MAX_PIXELS:
        msg = f"{width}x{height} pixels: larger than the {MAX_PIXELS}-pixel limit"
        raise ImageError(msg)
    if width == 0 or height == 0:
        msg = "the picture is empty"
        raise ImageError(msg)
    rgba = np.asarray(image.convert("RGBA"), dtype=np.uint8)
    alpha = rgba[..., 3]
    partial = (alpha > 0) & (alpha < 255)
    if partial.any():
        r, c = np.argwhere(partial)[0]
        msg = (
            f"pixel at row {r + 1}, column {c + 1} is partly transparent (alpha {alpha[r, c]}); "
            "pixel art needs opaque or fully transparent pixels"
        )
        raise ImageError(msg)
    # one int per pixel: RGB, or -1 for transparent
    key = (rgba[..., 0].astype(np.int64) << 16) | (rgba[..., 1].astype(np.int64) << 8) | rgba[..., 2]
    key[alpha == 0] = -1
    values, inverse, freq = np.unique(key.ravel(), return_inverse=True, return_counts=True)
    inverse = inverse.reshape(-1)
    # Order of the colours: for a palette picture its own palette order
    # (so decode -> encode gives back the same file), else by frequency.
    if image.mode == "P":
        rank = np.full(len(values), 1 << 30, dtype=np.int64)
        np.minimum.at(rank, inverse, np.asarray(image, dtype=np.int64).reshape(-1))
    else:
        rank = -freq.astype(np.int64)
    if background is not None:
        bg_rgb = parse_color(background, "background")
        bg_key = (bg_rgb[0] << 16) | (bg_rgb[1] << 8) | bg_rgb[2]
    elif values[0] == -1:
        bg_key = 0xFFFFFF
    else:
        # first in that order; among equals the lightest (largest R+G+B)
        light = ((values >> 16) & 255) + ((values >> 8) & 255) + (values & 255)
        bg_key = int(values[np.lexsort((-light, rank))[0]])
    # transparent pixels join the background
    is_bg = (values == bg_key) | (values == -1)
    others = np.flatnonzero(~is_bg)
    others = others[np.lexsort((values[others], rank[others]))]
    n_colors = 1 + len(others)
    if n_colors > MAX_COLORS:
        msg = (
            f"the picture has {n_colors} colours (background included); a puzzle holds at most {MAX_COLORS}: "
            f"this is not pixel art -- use `rofl make` to turn a photo into a puzzle"
        )
        raise ImageError(msg)
    index = np.zeros(len(values), dtype=np.uint8)
    index[others] = np.arange(1, n_colors, dtype=np.uint8)
    grid = index[inverse].reshape(height, width)
    colors = [((bg_key >> 16) & 255, (bg_key >> 8) & 255, bg_key & 255)]
    colors += [((int(v) >> 16) & 255, (int(v) >> 8) & 255, int(v) & 255) for v in values[others]]
    return grid, Palette(colors)


def image_from_grid(grid: np.ndarray, palette: Palette, *, scale: int = 1):
    """A mode ``P`` picture of a grid, each cell ``scale`` x ``scale`` pixels.

    Parameters
    ----------
    grid : (H, W) uint8 array of palette indices
    palette : Palette
    scale : int
        Pixels per cell side (``>= 1``).
    """
    from PIL import Image

    grid = np.ascontiguousarray(grid, dtype=np.uint8)
    if scale > 1:
        grid = np.repeat(np.repeat(grid, scale, axis=0), scale, axis=1)
    height, width = grid.shape
    image = Image.frombytes("P", (width, height), grid.tobytes())
    image.putpalette(palette.to_array().tobytes())
    return image


def check_pixels(width: int, height: int, what: str) -> None:
    """Refuse to draw a picture of more than :data:`MAX_IMAGE_PIXELS` pixels (before any work).

    Raises
    ------
    OptionError
        ``"{what}: a {width}x{height} picture is ... pixels; rofl draws at most ..."``.
    """
    if width * height > MAX_IMAGE_PIXELS:
        msg = f"{what}: a {width}x{height} picture is {width * height} pixels; rofl draws at most {MAX_IMAGE_PIXELS}"
        raise OptionError(msg)


__all__ = ["MAX_IMAGE_PIXELS", "check_pixels", "grid_from_image", "image_from_grid"]
