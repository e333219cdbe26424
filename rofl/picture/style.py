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
* ``lines``: a drawing after the extended difference of Gaussians (XDoG,
  Winnemöller, Kyprianidis and Olsen 2012): regions darker than Otsu's
  threshold are filled, and the dark side of every edge and every dark
  feature thinner than a cell (a black top-hat) becomes a line, thinned to
  its middle so that it is one cell wide whatever its contrast; light
  edges and features clear a line through a filled region; specks smaller
  than a cell go, so a flat field stays flat.  In colour, the lines are
  painted over the photo.
* ``poster``: edge-preserving smoothing (a median three quarters of a cell
  wide) before quantising, so that regions come out flat, and dark
  outlines, one cell wide, on the dark side of strong edges.

``auto`` is not a style of its own: :func:`rofl.make` draws the candidates
with :func:`draw_styles`, which shares their common work, quantises and
measures them and keeps the best (``rofl.maker._styled``, docs/guide.md).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from rofl.errors import OptionError
from rofl.picture.colour import linear_to_srgb, srgb_to_linear
from rofl.picture.fit import Geometry, cell_colors
from rofl.picture.hexfit import HexGeometry, hex_cell_colors

#: The styles :func:`rofl.make` takes (``auto`` picks one of the others).
STYLES = ("auto", "photo", "lines", "poster")
#: Pixels per cell the styles work at (a larger picture is scaled down
#: first), and finer, where they look for features thinner than a cell.
WORK_PIXELS = 8
FINE_PIXELS = 32
#: The difference of Gaussians, in cells: the inner Gaussian's sigma (a
#: feature about a cell wide answers most) and the outer's ratio to it.
SIGMA, RATIO = 0.45, 1.6
#: The least edge that draws a line, as the step in lightness (L*/100) whose
#: difference of Gaussians peaks at it: a step of 0.2 (20 L*) and more, or
#: a thin line of about as much ink.
EDGE_STEP = 0.2
#: The least contrast (L*/100) of a feature thinner than a cell that draws a line.
THIN_STEP = 0.3
#: Pieces of line shorter than this many cells are texture and go.
SHORTEST = 1.5
#: The difference of Gaussians' peak at a sharp step of height 1 (ratio 1.6).
_DOG_PEAK = 0.11
#: Share of a cell a line (three pixels wide) must cover to run through it
#: (see :func:`_middle_line`).
LINE_SHARE = 0.18
#: ``lines``: the sigma (cells) of the tone that decides dark regions, and
#: the blobs of ink (or holes) smaller than this share of a cell's area that
#: are texture, not features, and go.
TONE_SIGMA = 0.7
SPECKLE = 1.2
#: Lightness range (L*/100) under which a black-and-white picture is flat:
#: mid-grey decides it whole instead of Otsu's threshold splitting its noise.
FLAT = 0.05
#: Linear-light share of its colour an ink cell keeps in a colour puzzle.
INK_DARKEN = 0.15
#: ``poster``: the least step (L*/100) that gets an outline.
POSTER_EDGE = 0.3


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


def _working(pixels: np.ndarray, geometry, background, per_cell: float = WORK_PIXELS) -> tuple[np.ndarray, Any]:
    """The picture in linear light at about ``per_cell`` pixels per cell
    (never enlarged; area-averaged by Pillow's box filter), and the geometry
    scaled to it."""

    from rofl.picture.fit import _linear_lut

    h, w = pixels.shape[:2]
    scale = min(1.0, per_cell / max(cell_pitch(geometry), 1e-9))
    sw, sh = max(1, round(w * scale)), max(1, round(h * scale))
    lin = _linear_lut(pixels.dtype)[pixels[:, :, :3]]
    if pixels.shape[2] == 4:
        alpha = pixels[:, :, 3:4].astype(np.float32) / (255 if pixels.dtype == np.uint8 else 65535)
        bg = srgb_to_linear(np.asarray(background, dtype=np.float64) / 255.0).astype(np.float32)
        lin = lin * alpha + bg * (1 - alpha)
    if (sw, sh) != (w, h):
        lin = np.stack([_box(lin[:, :, c], (sw, sh)) for c in range(3)], axis=-1)
    fx, fy = sw / w, sh / h
    x0, y0, x1, y1 = geometry.box
    return lin.astype(np.float64), replace(geometry, box=(x0 * fx, y0 * fy, x1 * fx, y1 * fy))


def _box(channel: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """One float channel area-averaged to ``size`` (width, height) by Pillow's box filter."""
    from PIL import Image

    return np.asarray(Image.fromarray(np.ascontiguousarray(channel, dtype=np.float32), "F").resize(size, Image.BOX))


def _lightness(linear: np.ndarray) -> np.ndarray:
    """CIE L* / 100 of a linear-light picture (its luminance's lightness)."""
    y = linear @ np.array([0.2126, 0.7152, 0.0722])
    return np.where(y > 216 / 24389, 1.16 * np.cbrt(y) - 0.16, y * (24389 / 27) / 100)


def _dog(light: np.ndarray, pitch: float) -> np.ndarray:
    """The difference of Gaussians ``G_s - G_ks`` of the lightness at the
    scale of a cell of ``pitch`` pixels: negative on the dark side of an
    edge and on a thin dark feature, positive on the light side."""
    from scipy.ndimage import gaussian_filter

    sigma = max(SIGMA * pitch, 0.5)
    return gaussian_filter(light, sigma, mode="nearest") - gaussian_filter(light, RATIO * sigma, mode="nearest")


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
    return draw_styles(pixels, geometry, (style,), colors=colors, background=background)[style]


def draw_styles(
    pixels: np.ndarray,
    geometry: Geometry | HexGeometry,
    styles: tuple[str, ...],
    *,
    colors: int = 2,
    background: tuple[int, int, int] = (255, 255, 255),
) -> dict[str, StyledCells]:
    """:func:`style_cells` of several styles, sharing the work they have in
    common (the working picture, its lightness and edges): the candidates
    of ``style="auto"``."""
    for style in styles:
        if check_style(style) == "auto":
            msg = "style_cells draws one style; rofl.make picks among them for 'auto'"
            raise OptionError(msg)
    photo = _average(pixels, geometry, background)
    out = {}
    work = None
    for style in styles:
        if style == "photo":
            out[style] = StyledCells(photo, photo)
            continue
        if work is None:
            lin, geo = _working(pixels, geometry, background)
            pitch = cell_pitch(geo)
            light = _lightness(lin)
            work = (geo, pitch, light, _dog(light, pitch))
        draw = _lines if style == "lines" else _poster
        out[style] = draw(pixels, geometry, background, photo, *work, colors=colors)
    return out


def _lines(pixels, geometry, background, photo, geo, pitch, light, edge, *, colors: int) -> StyledCells:
    """The ``lines`` style, from the working picture's lightness and edges."""
    from scipy.ndimage import gaussian_filter

    # regions: the tone at the scale of a cell, cut at Otsu's threshold;
    # lines: the dark side of every edge of EDGE_STEP or more inks a light
    # region, the light side clears a dark one
    e = EDGE_STEP * _DOG_PEAK
    tone_l = gaussian_filter(light, max(TONE_SIGMA * pitch, 0.5), mode="nearest")
    thin_dark, thin_light = _thin_features(pixels, geometry, background, light.shape)
    fill, dark, clear = np.moveaxis(
        _coverage(
            _despeckle(tone_l < _tone_cut(tone_l), pitch),
            _middle_line((edge < -e) | thin_dark, pitch),
            _middle_line((edge > e) | thin_light, pitch),
            geometry=geo,
        ),
        -1,
        0,
    )
    dark, clear = (np.clip(share / (2 * LINE_SHARE), 0.0, 1.0) for share in (dark, clear))
    # ink where the score passes 1/2: a dark line, or a dark region no light line crosses
    score = np.maximum(dark, np.minimum(fill, 1.0 - clear))
    ink = score > 0.5
    if colors == 2:
        # the cells' lightness is 1 - score, cut at 1/2 (linear light), so
        # the refinement's cost says how sure each cell is
        cells = np.repeat(1.0 - score[..., None], 3, axis=-1)
        return StyledCells(cells, photo, ink, threshold=float(linear_to_srgb(np.float64(0.5)) * 255))
    return _inked(photo, photo, ink, colors)


def _poster(pixels, geometry, background, photo, geo, pitch, light, edge, *, colors: int) -> StyledCells:
    """The ``poster`` style, from the working picture's edges."""
    from PIL import Image, ImageFilter

    # a 3x3 median at 4 pixels per cell: three quarters of a cell wide, and
    # quick (Pillow's median takes long over wide windows)
    small, small_geo = _working(pixels, geometry, background, 4)
    srgb = np.rint(linear_to_srgb(np.clip(small, 0.0, 1.0)) * 255).astype(np.uint8)
    smooth = np.asarray(Image.fromarray(srgb, "RGB").filter(ImageFilter.MedianFilter(3)))
    tone = _average(smooth, small_geo, background)
    # outlines only on strong edges, on their dark side
    line = _coverage(_middle_line(edge < -POSTER_EDGE * _DOG_PEAK, pitch), geometry=geo)[..., 0]
    return _inked(tone, photo, line > LINE_SHARE, colors)


def _inked(tone: np.ndarray, photo: np.ndarray, ink: np.ndarray, colors: int) -> StyledCells:
    """``tone``'s cells with the ink cells darkened (black in black and white)."""
    cells = tone.copy()
    cells[ink] *= INK_DARKEN if colors > 2 else 0.0
    threshold = None
    if colors == 2 and np.ptp(_lightness(cells)) < FLAT and not ink.any():
        threshold = float(linear_to_srgb(np.float64(0.18)) * 255)  # a flat picture: mid-grey (L* 50) decides
    return StyledCells(cells, photo, ink, threshold=threshold)


def _thin_features(pixels: np.ndarray, geometry, background, shape: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """Where features thinner than a cell are at least :data:`THIN_STEP`
    darker (and lighter) than their surroundings, as ``shape`` bool maps of
    the working picture.

    A line much thinner than a cell is nearly lost to the difference of
    Gaussians (whose answer shrinks with the line's width) and to the
    working picture's averaging, so the black and white top-hats of the
    lightness over a cell find them on the picture at :data:`FINE_PIXELS`
    per cell, and a working pixel any of them touches is marked.
    """
    from scipy.ndimage import grey_closing, grey_opening

    lin, geo = _working(pixels, geometry, background, FINE_PIXELS)
    light = _lightness(lin)
    size = max(3, int(round(cell_pitch(geo))) | 1)
    out = []
    for found in (grey_closing(light, size=size) - light, light - grey_opening(light, size=size)):
        marked = (found > THIN_STEP).astype(np.float32)
        if marked.shape != shape:
            marked = _box(marked, (shape[1], shape[0]))
        out.append(marked > 0)
    return out[0], out[1]


def _despeckle(ink_map: np.ndarray, pitch: float) -> np.ndarray:
    """``ink_map`` without blobs of ink, or holes in it, smaller than
    :data:`SPECKLE` of a cell: the speckle of texture, not features."""
    from skimage.morphology import remove_small_holes, remove_small_objects

    least = SPECKLE * pitch * pitch
    if least < 2:
        return ink_map
    out = remove_small_objects(ink_map, max_size=int(least), connectivity=2)
    return remove_small_holes(out, max_size=int(least), connectivity=2)


def _middle_line(band: np.ndarray, pitch: float) -> np.ndarray:
    """The band of an edge thinned to its middle line and drawn three pixels
    wide, whatever the edge's contrast, without pieces shorter than
    :data:`SHORTEST` cells: a line crossing a cell of :data:`WORK_PIXELS`
    covers 3/8 of it, a diagonal one about half of the cells it runs
    through, and a cell beside it at most 1/8 (:data:`LINE_SHARE` lies
    between), so the line comes out one cell wide."""
    from scipy.ndimage import binary_dilation
    from skimage.morphology import remove_small_objects, skeletonize

    middle = skeletonize(band)
    if pitch >= 2:
        middle = remove_small_objects(middle, max_size=int(SHORTEST * pitch), connectivity=2)
    return binary_dilation(middle, np.ones((3, 3), dtype=bool))


def _coverage(*maps: np.ndarray, geometry) -> np.ndarray:
    """The share of every cell each of up to three bool maps covers
    (0-1, the last axis one map each): one averaging for all three."""
    stack = np.zeros((*maps[0].shape, 3))
    for i, m in enumerate(maps):
        stack[:, :, i] = m
    return _average(stack, geometry, (0, 0, 0))


def _tone_cut(light: np.ndarray) -> float:
    """Where the ``lines`` style fills regions: Otsu's threshold of the
    lightness (L*/100), or mid-grey for a flat picture (:data:`FLAT`)."""
    from skimage.filters import threshold_otsu

    if np.ptp(light) < FLAT:
        return 0.5
    return float(threshold_otsu(light))
