"""Styles: how a picture is drawn into cells before it is quantised.

Area averaging and one global threshold keep large regions and lose the
thin dark features a person recognises a picture by (eyes, outlines,
lettering).  A style is a stage between the picture and the cell colours
that both shapes share: :func:`style_cells` takes the pixels and a
rectangle's :class:`~rofl.picture.fit.Geometry` or a hexagon's
:class:`~rofl.picture.hexfit.HexGeometry`, works on the picture at a
resolution of :data:`WORK_PIXELS` pixels per cell, and averages what it
drew into the cells with the shape's own averaging
(:func:`~rofl.picture.fit.cell_colors` or
:func:`~rofl.picture.hexfit.hex_cell_colors`).

* ``photo``: the picture itself (area averages in linear light).
* ``lines``: an extended difference of Gaussians (XDoG, Winnemöller,
  Kyprianidis and Olsen 2012) at the scale of a cell draws ink on the
  dark side of every edge and on thin dark features, and fills the
  darkest regions; a cell is ink when :data:`INK_SHARE` of it is, so a
  line about half a cell wide becomes one cell wide wherever it falls, and
  a flat field stays flat.  In colour, the ink is painted over the photo.
* ``poster``: edge-preserving smoothing (a bilateral filter at the scale of
  a cell) before quantising, so that regions come out flat, and dark
  outlines on the strongest edges only (the XDoG's edge part, without
  filled regions).

``auto`` is not a style of its own: :func:`rofl.make` makes the candidates
of :func:`candidates` and keeps the best (docs/guide.md).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from rofl.errors import OptionError
from rofl.picture.colour import linear_to_srgb
from rofl.picture.fit import Geometry, cell_colors
from rofl.picture.hexfit import HexGeometry, hex_cell_colors

#: The styles :func:`rofl.make` takes (``auto`` picks one of the others).
STYLES = ("auto", "photo", "lines", "poster")
#: Pixels per cell the styles work at (a larger picture is scaled down first).
WORK_PIXELS = 8
#: Share of a cell the ink must cover for the cell to be ink.
INK_SHARE = 0.3
#: The XDoG's parameters, in cells: the inner Gaussian's sigma, the ratio of
#: the outer's, and the sharpening (the weight of the difference).
SIGMA, RATIO, SHARPEN = 0.3, 1.6, 12.0
TONE_PCT = 25
TONE_SIGMA = 0.7
EDGE_STEP = 0.2
#: The difference of Gaussians' peak at a step of height 1 (sigma ratio 1.6).
_DOG_PEAK = 0.11
#: Linear-light lightness an ink cell keeps of its colour in a colour puzzle.
INK_DARKEN = 0.15
#: ``poster``: the bilateral filter's colour sigma (linear light), the least
#: edge (the XDoG's sharpened difference) that gets an outline, and the
#: share of a cell that outline must cover.
BILATERAL_COLOUR = 0.08
POSTER_EDGE = 0.35
POSTER_INK_SHARE = 0.45


@dataclass(eq=False)
class StyledCells:
    """What :func:`style_cells` drew.

    Attributes
    ----------
    cells : (..., 3) float64 array
        Linear-light RGB of every cell as the style draws it (what is
        quantised).
    photo : (..., 3) float64 array
        The plain area averages (what the likeness is measured against).
    ink : (...) bool array or None
        The cells the style inked (None for ``photo``).
    threshold : float or None
        The black-and-white threshold (sRGB grey 0-255) the style's cells
        are meant to be cut at, or None for Otsu's.
    """

    cells: np.ndarray
    photo: np.ndarray
    ink: np.ndarray | None = None
    threshold: float | None = None


def check_style(style: Any) -> str:
    """``style`` if it is one of :data:`STYLES`, else an :class:`OptionError`."""
    if not isinstance(style, str) or style not in STYLES:
        msg = f"style must be one of {', '.join(STYLES)}, not {style!r}"
        raise OptionError(msg)
    return style


def _average(pixels: np.ndarray, geometry: Geometry | HexGeometry, background) -> np.ndarray:
    if isinstance(geometry, HexGeometry):
        return hex_cell_colors(pixels, geometry, background)
    return cell_colors(pixels, geometry, background)


def cell_pitch(geometry: Geometry | HexGeometry) -> float:
    """Pixels of the picture from one cell's centre to the next one's."""
    x0, _, x1, _ = geometry.box
    if isinstance(geometry, HexGeometry):
        return (x1 - x0) / geometry.extent[0] * math.sqrt(3.0)
    return (x1 - x0) / geometry.size[0]


def _working(pixels: np.ndarray, geometry, background) -> tuple[np.ndarray, Any]:
    """The picture in linear light at about :data:`WORK_PIXELS` pixels per
    cell (never enlarged), and the geometry scaled to it."""
    h, w = pixels.shape[:2]
    scale = min(1.0, WORK_PIXELS / max(cell_pitch(geometry), 1e-9))
    sw, sh = max(1, round(w * scale)), max(1, round(h * scale))
    lin = cell_colors(pixels, Geometry((0.0, 0.0, float(w), float(h)), (sw, sh), (sw, sh), (0, 0)), background)
    fx, fy = sw / w, sh / h
    x0, y0, x1, y1 = geometry.box
    return lin, replace(geometry, box=(x0 * fx, y0 * fy, x1 * fx, y1 * fy))


def _as_pixels(linear: np.ndarray) -> np.ndarray:
    """A linear-light float picture as 16-bit sRGB pixels (what the averaging reads)."""
    return np.rint(linear_to_srgb(np.clip(linear, 0.0, 1.0)) * 65535).astype(np.uint16)


def _lightness(linear: np.ndarray) -> np.ndarray:
    """CIE L* / 100 of a linear-light picture (its luminance's lightness)."""
    y = linear @ np.array([0.2126, 0.7152, 0.0722])
    return np.where(y > 216 / 24389, 1.16 * np.cbrt(y) - 0.16, y * (24389 / 27) / 100)


def _xdog(light: np.ndarray, pitch: float) -> tuple[np.ndarray, np.ndarray]:
    """The sharpened lightness ``S = G_s + p (G_s - G_ks)`` and its edge part
    ``G_s - G_ks``, at the scale of a cell of ``pitch`` pixels."""
    from scipy.ndimage import gaussian_filter

    sigma = max(SIGMA * pitch, 0.5)
    g1 = gaussian_filter(light, sigma, mode="nearest")
    g2 = gaussian_filter(light, RATIO * sigma, mode="nearest")
    return g1 + SHARPEN * (g1 - g2), g1 - g2


def style_cells(
    pixels: np.ndarray,
    geometry: Geometry | HexGeometry,
    style: str,
    *,
    colors: int = 2,
    background: tuple[int, int, int] = (255, 255, 255),
) -> StyledCells:
    """Draw the picture in ``style`` and average it into the cells of ``geometry``.

    Parameters
    ----------
    pixels : (H, W, 3|4) uint8 or uint16 array from :func:`rofl.picture.load_pixels`
    geometry : Geometry or HexGeometry
        A rectangle's (:func:`rofl.picture.fit`) or a hexagon's
        (:func:`rofl.picture.hex_fit`); the cells come out in its shape.
    style : {"photo", "lines", "poster"}
    colors : int
        2 for black and white (``lines`` then draws ink on white), more for
        colour (``lines`` paints its ink over the photo).
    background : (r, g, b)
        What transparent pixels are composited onto.

    Returns
    -------
    StyledCells
    """
    check_style(style)
    if style == "auto":
        msg = "style_cells draws one style; rofl.make picks among them for 'auto'"
        raise OptionError(msg)
    photo = _average(pixels, geometry, background)
    if style == "photo":
        return StyledCells(photo, photo)
    lin, geo = _working(pixels, geometry, background)
    pitch = cell_pitch(geo)
    light = _lightness(lin)
    sharp, edge = _xdog(light, pitch)
    if style == "lines":
        # regions: the tone at the scale of a cell cut at Otsu's threshold;
        # lines: the dark side of every edge (a step of EDGE_STEP or more in
        # L*) inks a light region, and the light side of one clears a dark region
        from scipy.ndimage import gaussian_filter

        tone_l = gaussian_filter(light, max(TONE_SIGMA * pitch, 0.5), mode="nearest")
        e = EDGE_STEP * _DOG_PEAK
        ink_map = ((tone_l < _tone_cut(tone_l)) & ~(edge > e)) | (edge < -e)
        tone, share = photo, INK_SHARE
    else:
        from skimage.restoration import denoise_bilateral

        smooth = denoise_bilateral(
            lin, sigma_color=BILATERAL_COLOUR, sigma_spatial=max(pitch / 2, 1.0), channel_axis=-1, mode="edge"
        ).reshape(lin.shape)  # it drops a picture's axis of length 1
        tone = _average(_as_pixels(smooth), geo, background)
        # outlines only on strong edges: the dark side of a large step
        ink_map = SHARPEN * edge < -POSTER_EDGE
        tone, share = tone, POSTER_INK_SHARE
    coverage = _coverage(ink_map, geo)
    ink = coverage < 1 - share
    if style == "lines" and colors == 2:
        # the cells' lightness is the share of them the ink leaves white: cut
        # at INK_SHARE, and the refinement's cost says how far each is from it
        cells = np.repeat(coverage[..., None], 3, axis=-1)
        return StyledCells(cells, photo, ink, threshold=float(linear_to_srgb(np.float64(1 - share)) * 255))
    cells = tone.copy()
    cells[ink] *= INK_DARKEN if colors > 2 else 0.0
    return StyledCells(cells, photo, ink)


def _coverage(ink_map: np.ndarray, geometry) -> np.ndarray:
    """The share of every cell the ink leaves white (1: no ink)."""
    white = np.repeat((~ink_map)[:, :, None], 3, axis=2).astype(np.float64)
    return _average(_as_pixels(white), geometry, (255, 255, 255))[..., 1]


def _tone_cut(light: np.ndarray) -> float:
    """Where the ``lines`` style fills regions: Otsu's threshold of the
    lightness, but never above the 30th percentile, so that at most about a
    third of the picture is solid ink and the outlines inside it show."""
    from skimage.filters import threshold_otsu

    if np.ptp(light) < 1e-6:
        return 0.5
    return float(min(threshold_otsu(light), np.percentile(light, TONE_PCT)))
