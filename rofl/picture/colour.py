"""Colour science and colour options: sRGB and linear light, CIELAB, ΔE2000.

Every stage of the picture pipeline measures colour here: :mod:`.fit`
averages cells in linear light (:func:`srgb_to_linear`), :mod:`.quantise`
clusters and compares colours in CIELAB (:func:`rgb8_to_lab`,
:func:`delta_e`) and states a black-and-white threshold as a grey level
(:func:`lightness_of_grey`).  :func:`parse_color` and :func:`parse_palette`
read the colours a caller gives as options.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from rofl.errors import OptionError
from rofl.puzzle import MAX_COLORS, RGB
from rofl.puzzle import parse_color as _parse_any_color

# ------------------------------------------------------- colour spaces


def srgb_to_linear(values: np.ndarray) -> np.ndarray:
    """sRGB-encoded values in [0, 1] to linear light (IEC 61966-2-1)."""
    v = np.asarray(values, dtype=np.float64)
    return np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)


def linear_to_srgb(values: np.ndarray) -> np.ndarray:
    """Linear light in [0, 1] to sRGB-encoded values in [0, 1]."""
    v = np.clip(np.asarray(values, dtype=np.float64), 0.0, 1.0)
    return np.where(v <= 0.0031308, v * 12.92, 1.055 * v ** (1 / 2.4) - 0.055)


def rgb8_to_lab(rgb: np.ndarray) -> np.ndarray:
    """``(..., 3)`` 0-255 sRGB to CIELAB (D65), float64."""
    from skimage.color import rgb2lab

    rgb = np.asarray(rgb, dtype=np.float64) / 255.0
    return rgb2lab(rgb.reshape(-1, 1, 3)).reshape(rgb.shape)


def lab_to_rgb8(lab: np.ndarray) -> np.ndarray:
    """``(..., 3)`` CIELAB to the nearest 0-255 sRGB colours (clipped into the gamut), uint8."""
    from skimage.color import lab2rgb

    lab = np.asarray(lab, dtype=np.float64)
    with warnings.catch_warnings():
        # lab2rgb warns when it clips an out-of-gamut colour; clipping is what we want
        warnings.simplefilter("ignore", UserWarning)
        rgb = lab2rgb(lab.reshape(-1, 1, 3)).reshape(lab.shape)
    return np.clip(np.rint(rgb * 255.0), 0, 255).astype(np.uint8)


def delta_e(lab_cells: np.ndarray, lab_palette: np.ndarray) -> np.ndarray:
    """ΔE2000 between every cell and every palette colour.

    Parameters
    ----------
    lab_cells : (..., 3) float array
    lab_palette : (K, 3) float array

    Returns
    -------
    (..., K) float64 array
    """
    from skimage.color import deltaE_ciede2000

    cells = np.asarray(lab_cells, dtype=np.float64)
    flat = cells.reshape(-1, 1, 3)
    out = deltaE_ciede2000(flat, np.asarray(lab_palette, dtype=np.float64)[None, :, :])
    return np.asarray(out).reshape(*cells.shape[:-1], -1)


def lightness_of_grey(level: float) -> float:
    """CIELAB L* of the sRGB grey ``level`` (0-255)."""
    y = float(srgb_to_linear(np.array(level / 255.0)))
    return float(116 * np.cbrt(y) - 16) if y > 216 / 24389 else float(y * 24389 / 27)


def grey_of_lightness(lightness: float) -> float:
    """Inverse of :func:`lightness_of_grey`."""
    lo, hi = 0.0, 255.0
    for _ in range(50):
        mid = (lo + hi) / 2
        if lightness_of_grey(mid) < lightness:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


# --------------------------------------------------------- colour options


def parse_color(value: Any, where: str = "colour") -> RGB:
    """A colour option as a 0-255 triple: :func:`rofl.puzzle.parse_color`
    (``#rgb``, ``#rrggbb``, CSS names, ``rgb(...)``... or an ``(r, g, b)``
    triple), with errors as :class:`OptionError` (a bad option, not a bad puzzle).

    Raises
    ------
    OptionError
        Not a colour, partly transparent, or a component outside 0-255.
    """
    return _parse_any_color(value, where, error=OptionError)


def parse_palette(value: Any) -> list[RGB]:
    """A palette given as ``"#fff,#000,#f00"`` or a sequence of colours.

    Raises
    ------
    OptionError
        A colour that is not one, fewer than 2 colours, one named twice, or
        more than :data:`rofl.puzzle.MAX_COLORS`.
    """
    items = [s for s in value.split(",") if s.strip()] if isinstance(value, str) else list(value)
    colors = [parse_color(c, f"palette colour {i + 1}") for i, c in enumerate(items)]
    if len(colors) < 2:
        msg = f"a palette needs at least 2 colours, got {len(colors)}"
        raise OptionError(msg)
    if len(set(colors)) != len(colors):
        msg = "the palette names the same colour twice"
        raise OptionError(msg)
    if len(colors) > MAX_COLORS:
        msg = f"the palette has {len(colors)} colours; rofl supports at most {MAX_COLORS}"
        raise OptionError(msg)
    return colors
