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
* ``lines``: an outline drawing over a light tone fill (after the
  extended difference of Gaussians, XDoG, Winnemöller, Kyprianidis and
  Olsen 2012): every edge of the picture at the grid's scale becomes a step
  from one ink cell on its dark side to one paper cell on its light side
  (two ink cells where it runs at a slant the cells cannot follow one for
  one, so that each of its edge cells has a boundary cell of its own),
  clearly dark regions are filled (Otsu's threshold lowered and drawn
  toward the lightness around), features thinner than a cell through
  light paper become lines one cell wide, and lone specks go.  On a grid
  of :data:`WIDE_CELLS` cells or more, in black and white, the ink grows by
  a cell toward the darker picture (wide ink: one-cell lines at a slant
  are what line logic cannot place at that size).  In colour, the ink is
  painted over the photo.
* ``poster``: flat regions whose boundaries follow the picture's edges.
  In black and white, edge-preserving smoothing (a median three quarters
  of a cell wide) and dark outlines, one cell wide, on the dark side of
  strong edges before quantising; in colour, the area averages.  After
  quantising, :func:`follow_edges` clears specks away from edges, steps
  through an in-between colour across a sharp edge, and darkens one side
  of every edge the palette missed by one palette step (a dark outline in
  the palette's own colours).  ``lines`` goes through it too.

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
#: The least contrast (L*/100) of a feature thinner than a cell that draws a line.
THIN_STEP = 0.3
#: Pieces of line shorter than this many cells are texture and go.
SHORTEST = 1.5
#: ``lines`` draws a feature thinner than a cell when it runs at least this many cells.
THIN_LONGEST = 4.0
#: ... through cells at least this much (L*) lighter than Otsu's threshold
#: (of the picture without such features),
THIN_PAPER = 20.0
#: ... one cell wide: the cells its middle line crosses, where that covers
#: at least this share of a row of the cell's pixels (a line one pixel wide
#: across a cell covers one row, a corner it cuts a pixel or two).
THIN_CROSSES = 0.5
#: The difference of Gaussians' peak at a sharp step of height 1 (ratio 1.6).
_DOG_PEAK = 0.11
#: Share of a cell a line (three pixels wide) must cover to run through it
#: (see :func:`_middle_line`).
LINE_SHARE = 0.18
#: ``lines``: the sigma (cells) of the tone that decides dark regions.
TONE_SIGMA = 0.7
#: ``lines``: where the tone fills, Otsu's threshold made TONE_LIFT (L*)
#: darker and moved LOCAL_SHARE of the way to the lightness around
#: (LOCAL_SIGMA cells); TONE_STEP (L*) from it, the fill is sure.
LOCAL_SIGMA = 3.0
LOCAL_SHARE = 0.4
TONE_LIFT = 15.0
TONE_STEP = 10.0
#: ``lines`` draws an edge that runs at least this many cells (shorter ones are texture).
EDGE_CELLS = 5
#: ``lines`` in black and white widens its ink by a cell on a grid of at
#: least this many cells (200×200; :func:`_widen`).
WIDE_CELLS = 200 * 200
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
    thin : (...) bool array or None
        The cells ``lines`` inked for features thinner than a cell
        (:func:`follow_edges`' ``keep``).
    follow : bool
        Whether the quantised grid is to be passed through
        :func:`follow_edges` (``lines`` and ``poster``; :func:`rofl.make`
        does it).
    """

    cells: np.ndarray
    photo: np.ndarray
    ink: np.ndarray | None = None
    threshold: float | None = None
    follow: bool = False
    thin: np.ndarray | None = None


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
    scaled to it.

    A picture much larger than that is first averaged over whole blocks of
    pixels a strip of rows at a time, so that no float copy of the whole
    picture is made (a 64 Mpx picture would need 768 MB for one).
    """
    h, w = pixels.shape[:2]
    scale = min(1.0, per_cell / max(cell_pitch(geometry), 1e-9))
    lin = _linear_blocks(pixels, background, max(1, int(1 / scale) // 2))
    return _smaller(lin, geometry, (w, h), per_cell)


def _smaller(lin: np.ndarray, geometry, size: tuple[int, int], per_cell: float) -> tuple[np.ndarray, Any]:
    """A linear-light picture ``lin`` of a picture of ``size`` (width,
    height) pixels, box-filtered to about ``per_cell`` pixels per cell of
    ``geometry`` (the picture's), and the geometry scaled to it: how each
    working picture of :func:`draw_styles` is derived from the finest one."""
    w, h = size
    scale = min(1.0, per_cell / max(cell_pitch(geometry), 1e-9))
    sw, sh = max(1, round(w * scale)), max(1, round(h * scale))
    if lin.shape[:2] != (sh, sw):
        lin = np.stack([_box(lin[:, :, c], (sw, sh)) for c in range(3)], axis=-1)
    fx, fy = sw / w, sh / h
    x0, y0, x1, y1 = geometry.box
    return lin.astype(np.float64), replace(geometry, box=(x0 * fx, y0 * fy, x1 * fx, y1 * fy))


def _linear_blocks(pixels: np.ndarray, background, factor: int) -> np.ndarray:
    """``pixels`` in linear light (float32, alpha over ``background``), the
    mean of each ``factor`` x ``factor`` block (:func:`~rofl.picture.fit.block_means`)."""
    from rofl.picture.fit import _linear_lut, block_means

    lut = _linear_lut(pixels.dtype)
    top = 255 if pixels.dtype == np.uint8 else 65535
    bg = srgb_to_linear(np.asarray(background, dtype=np.float64) / 255.0).astype(np.float32)

    def linear(rows: np.ndarray) -> np.ndarray:
        lin = lut[rows[:, :, :3]]
        if rows.shape[2] == 4:
            alpha = rows[:, :, 3:4].astype(np.float32) / top
            lin = lin * alpha + bg * (1 - alpha)
        return lin

    return block_means(pixels, factor, linear, np.float32)


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
        if style == "poster" and colors > 2:
            out[style] = StyledCells(photo, photo, follow=True)  # see _poster
            continue
        if work is None:
            work = _Work.of(pixels, geometry, background, fine="lines" in styles)
        draw = _lines if style == "lines" else _poster
        out[style] = replace(draw(geometry, background, photo, work, colors=colors), follow=True)
    return out


@dataclass(eq=False)
class _Work:
    """What the styles share: the working picture (:data:`WORK_PIXELS` per
    cell) with its geometry, cell pitch, lightness and difference of
    Gaussians, and the finer and coarser pictures it is derived with.

    The picture is read into linear light once, at the finest resolution
    asked (:data:`FINE_PIXELS` per cell when ``lines`` is drawn), and the
    coarser ones are box-filtered from it (:func:`_smaller`)."""

    geo: Any
    pitch: float
    light: np.ndarray
    edge: np.ndarray
    base: np.ndarray
    base_geo: Any
    geometry: Any
    size: tuple[int, int]

    @classmethod
    def of(cls, pixels, geometry, background, *, fine: bool) -> _Work:
        h, w = pixels.shape[:2]
        base, base_geo = _working(pixels, geometry, background, FINE_PIXELS if fine else WORK_PIXELS)
        lin, geo = _smaller(base, geometry, (w, h), WORK_PIXELS)
        pitch = cell_pitch(geo)
        light = _lightness(lin)
        return cls(geo, pitch, light, _dog(light, pitch), base, base_geo, geometry, (w, h))

    def at(self, per_cell: float) -> tuple[np.ndarray, Any]:
        """The picture at about ``per_cell`` pixels per cell (at most the
        base's) and its geometry."""
        return _smaller(self.base, self.geometry, self.size, per_cell)


def _lines(geometry, background, photo, work: _Work, *, colors: int) -> StyledCells:
    """The ``lines`` style: an outline drawing over a light tone fill.

    Where the picture has an edge at the grid's scale (Canny's edges of the
    cells' lightness, those :func:`~rofl.picture.measures.edge_agreement`
    measures), the cell on its dark side is ink and the one on its light
    side paper (of the edge cell and its neighbour across the largest step
    in lightness), so every edge is drawn as a step between one ink and one
    paper cell: an outline one cell wide on a light region, a light line
    through a dark one.  Elsewhere the tone decides, cut :data:`TONE_LIFT`
    darker than Otsu's threshold and a share (:data:`LOCAL_SHARE`) of the
    way to the lightness around (:data:`LOCAL_SIGMA` cells), so that only
    clearly dark regions are filled and a region's fill follows its
    surroundings (the extended difference of Gaussians' tone term, XDoG).
    Features thinner than a cell (a black top-hat) are drawn as lines one
    cell wide, through the cells their middle line crosses by half a row of
    pixels or more and whose paper, judged on the picture without them, is
    clear (:data:`THIN_CROSSES`, :data:`THIN_PAPER`), wherever they cross
    their cells; :attr:`StyledCells.thin` names those cells (where they
    touch at corners, :func:`follow_edges` clears none as a speck).  Specks
    of the fill smaller than a cell go.  Last, an edge cell left with no
    boundary cell of its own (two edge cells beside one ink cell, where the
    edge runs at an angle the cells cannot follow one for one) is inked too
    (:func:`_thicken`).
    """
    from scipy.ndimage import gaussian_filter

    from rofl.picture.measures import cell_neighbours, picture_edges

    geo, pitch, light = work.geo, work.pitch, work.light
    side = getattr(geometry, "side", None)
    here = 100.0 * _lightness(photo)
    tone_l = gaussian_filter(light, max(TONE_SIGMA * pitch, 0.5), mode="nearest")
    around_l = gaussian_filter(light, max(LOCAL_SIGMA * pitch, 0.5), mode="nearest")
    thin_dark, unlined = _thin_features(work.base, work.base_geo, light.shape)
    fill = _luminance_of(background)
    tone, around, thin = np.moveaxis(
        _coverage(_light_to_lin(tone_l), _light_to_lin(around_l), _skeleton(thin_dark, pitch, THIN_LONGEST),
                  geometry=geo, fill=(fill, fill, 0.0)),
        -1,
        0,
    )  # fmt: skip
    tone, around = _grey_l(tone), _grey_l(around)
    # the tone of the paper a thin feature crosses, judged on the picture without it: its own
    # darkness, which depends on where it crosses its cell, does not hide it
    unlined_tone = _grey_l(
        _coverage(_light_to_lin(gaussian_filter(unlined, max(TONE_SIGMA * pitch, 0.5), mode="nearest")),
                  geometry=geo, fill=(fill, 0.0, 0.0))[..., 0]
    )  # fmt: skip
    otsu = _tone_cut(tone / 100.0) * 100.0
    cut = otsu - TONE_LIFT
    cut = (1.0 - LOCAL_SHARE) * cut + LOCAL_SHARE * around
    # +1 ink, -1 paper, sure by how far the tone is from the cut
    score = np.clip((cut - tone) / TONE_STEP, -1.0, 1.0).ravel()
    flat = here.ravel()
    if np.ptp(flat) >= FLAT * 100:
        nb = cell_neighbours(here.shape, side=side)
        steps = np.where(nb >= 0, np.abs(flat[np.maximum(nb, 0)] - flat[:, None]), -1.0)
        across = nb[np.arange(flat.size), steps.argmax(axis=1)]
        edges = np.flatnonzero(_long(picture_edges(here, side=side), side, EDGE_CELLS))
        darker = flat[across[edges]] > flat[edges]
        score[np.where(darker, across[edges], edges)] = -1.0
        score[np.where(darker, edges, across[edges])] = 1.0
    score = score.reshape(here.shape)
    # a thin line, one cell wide, through every cell its middle crosses (half a pixel's
    # share of the cell or more: the same wherever it crosses), and only through clear
    # paper (hair and texture are no line)
    unlined_otsu = _tone_cut(unlined_tone / 100.0) * 100.0
    unlined_cut = (1.0 - LOCAL_SHARE) * (unlined_otsu - TONE_LIFT) + LOCAL_SHARE * around
    paper = (unlined_tone - unlined_cut >= TONE_STEP) & (here > unlined_otsu + THIN_PAPER)
    lined = (thin * pitch >= THIN_CROSSES) & paper
    score = np.where(lined, 1.0, score)
    score = _lone_ink(score, side)
    if np.ptp(flat) >= FLAT * 100:
        score = _thicken(score, picture_edges(here, side=side), side)
    if colors == 2 and score.size >= WIDE_CELLS:
        score = _widen(score, here, side)
    score = 0.5 + 0.5 * score
    ink = score > 0.5
    if colors == 2:
        # the cells' lightness is 1 - score, cut at 1/2 (linear light), so
        # the refinement's cost says how sure each cell is
        cells = np.repeat(1.0 - score[..., None], 3, axis=-1)
        return StyledCells(cells, photo, ink, threshold=float(linear_to_srgb(np.float64(0.5)) * 255), thin=lined)
    return replace(_inked(photo, photo, ink, colors), thin=lined)


def _thicken(score: np.ndarray, edges: np.ndarray, side: int | None) -> np.ndarray:
    """``score`` (+1 ink, -1 paper) with the paper cells on a picture edge
    that the drawing shows with no boundary cell of their own inked.

    An edge is drawn as a step from ink on its dark side to paper on its
    light side; where Canny's edge runs on the light side at an angle the
    grid's cells cannot follow one for one (a zigzag, most of all on a
    hexagon), one ink cell stands beside two edge cells, and the outline
    shows one of them.  Inking the other thickens the outline to two cells
    there, so every edge cell has its own boundary cell
    (:func:`~rofl.picture.measures.unmatched_edges`)."""
    from rofl.picture.measures import unmatched_edges

    ink = score > 0
    lost = unmatched_edges(edges, np.where(ink, 0.0, 100.0), side=side) & ~ink
    return np.where(lost, 1.0, score)


def _widen(score: np.ndarray, here: np.ndarray, side: int | None) -> np.ndarray:
    """``score`` (+1 ink, -1 paper) with, beside every ink cell, its darkest
    paper neighbour (by the picture's lightness ``here``) inked: the large
    grids' wide ink (:data:`WIDE_CELLS`).

    A line one cell wide becomes two, on the side where the picture is
    darker, and a filled region's border moves a cell out where the picture
    is darkest; the boundaries move by at most one cell, the edge measure's
    slack.  At a few hundred cells a side a one-cell line at a slant is a
    staircase of clues of 1 in every row and column it crosses, which line
    logic cannot place, and refinement must break up cell by cell (the
    camera at 200: 292 changes in 9.5 s of processor time with one-cell ink,
    95 in 4.6 s with wide ink; at 400, 1,459 changes and 698; docs/decisions.md,
    "At scale")."""
    from rofl.picture.measures import cell_neighbours

    ink = (score > 0).ravel()
    nb = cell_neighbours(here.shape, side=side)
    at = np.maximum(nb, 0)
    light = np.where((nb >= 0) & ~ink[at], here.ravel()[at], np.inf)
    darkest = light.argmin(axis=1)  # the first of equals: up, down, left, right
    grow = np.flatnonzero(ink & np.isfinite(light.min(axis=1)))
    out = score.ravel().copy()
    out[nb[grow, darkest[grow]]] = 1.0
    return out.reshape(score.shape)


def _long(cells: np.ndarray, side: int | None, least: int) -> np.ndarray:
    """The flat bool map ``cells`` without pieces (joined through the 8
    cells around a square or the 6 around a hexagon) of fewer than
    ``least`` cells."""
    from scipy.ndimage import label

    if side is None:
        labels, _ = label(cells, structure=np.ones((3, 3), dtype=bool))
        labels = labels.ravel()
    else:
        from scipy.sparse import coo_matrix
        from scipy.sparse.csgraph import connected_components

        from rofl.picture.measures import cell_neighbours

        nb = cell_neighbours(cells.shape, side=side)
        on = cells.ravel()
        src, k = np.nonzero((nb >= 0) & on[:, None])
        dst = nb[src, k]
        keep = on[dst]
        graph = coo_matrix((np.ones(keep.sum()), (src[keep], dst[keep])), shape=(on.size, on.size))
        _, labels = connected_components(graph, directed=False)
        labels = np.where(on, labels + 1, 0)
    sizes = np.bincount(labels)
    sizes[0] = 0
    return sizes[labels] >= least


def _lone_ink(score: np.ndarray, side: int | None) -> np.ndarray:
    """``score`` with every ink cell that touches no other ink cell (of 8
    on a square grid, of 6 on a hexagon) made paper: a speck, not a line."""
    from scipy.ndimage import convolve

    ink = score > 0
    if side is None:
        company = convolve(ink.astype(np.int8), np.ones((3, 3), dtype=np.int8), mode="constant") - ink
    else:
        from rofl.picture.measures import cell_neighbours

        nb = cell_neighbours(ink.shape, side=side)
        company = np.where(nb >= 0, ink[np.maximum(nb, 0)], False).sum(axis=1)
    return np.where(ink & (company == 0), -1.0, score)


def _grey_l(luminance: np.ndarray) -> np.ndarray:
    """L* (0-100) of a map of linear luminance."""
    return 100.0 * _lightness(np.repeat(np.asarray(luminance)[..., None], 3, axis=-1))


def _light_to_lin(light: np.ndarray) -> np.ndarray:
    """A lightness map (L*/100) as the linear luminance that has it, so
    that cells average it as they average the picture."""
    light = np.asarray(light, dtype=np.float64)
    return np.where(light > 0.08, ((light + 0.16) / 1.16) ** 3, light * 100 * 27 / 24389)


def _luminance_of(background) -> float:
    """The linear luminance of the background colour."""
    bg = srgb_to_linear(np.asarray(background, dtype=np.float64) / 255.0)
    return float(bg @ np.array([0.2126, 0.7152, 0.0722]))


def _poster(geometry, background, photo, work: _Work, *, colors: int) -> StyledCells:
    """The ``poster`` style's cells in black and white, from the working
    picture's edges: a median three quarters of a cell wide and dark
    outlines on strong edges.  In colour the median costs a picture its
    shading (SSIM 0.06 lower at 4 colours), so there the cells are the
    area averages, and :func:`follow_edges` alone makes the poster."""
    from PIL import Image, ImageFilter

    # a 3x3 median at 4 pixels per cell: three quarters of a cell wide, and
    # quick (Pillow's median takes long over wide windows)
    small, small_geo = work.at(4)
    srgb = np.rint(linear_to_srgb(np.clip(small, 0.0, 1.0)) * 255).astype(np.uint8)
    smooth = np.asarray(Image.fromarray(srgb, "RGB").filter(ImageFilter.MedianFilter(3)))
    tone = _average(smooth, small_geo, background)
    # outlines only on strong edges, on their dark side
    line = _coverage(_middle_line(work.edge < -POSTER_EDGE * _DOG_PEAK, work.pitch), geometry=work.geo)[..., 0]
    return _inked(tone, photo, line > LINE_SHARE, colors)


def _inked(tone: np.ndarray, photo: np.ndarray, ink: np.ndarray, colors: int) -> StyledCells:
    """``tone``'s cells with the ink cells darkened (black in black and white)."""
    cells = tone.copy()
    cells[ink] *= INK_DARKEN if colors > 2 else 0.0
    threshold = None
    if colors == 2 and np.ptp(_lightness(cells)) < FLAT and not ink.any():
        threshold = float(linear_to_srgb(np.float64(0.18)) * 255)  # a flat picture: mid-grey (L* 50) decides
    return StyledCells(cells, photo, ink, threshold=threshold)


def _thin_features(lin: np.ndarray, geo, shape: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """Where features thinner than a cell are at least :data:`THIN_STEP`
    darker than their surroundings, as a ``shape`` bool map of the working
    picture, and the working picture's lightness (L*/100) without them.

    A line much thinner than a cell is nearly lost to the difference of
    Gaussians (whose answer shrinks with the line's width) and to the
    working picture's averaging, so the black top-hat of the lightness over
    a cell finds them on ``lin``, the picture at :data:`FINE_PIXELS` per
    cell (``geo`` its geometry), and a working pixel it touches is marked.
    The picture without them is the closing of the lightness where they are
    (the lightness elsewhere), box-filtered to ``shape``.
    """
    from scipy.ndimage import grey_closing

    light = _lightness(lin)
    size = max(3, int(round(cell_pitch(geo))) | 1)
    closed = grey_closing(light, size=size)
    found = (closed - light) > THIN_STEP
    marked, unlined = found.astype(np.float32), np.where(found, closed, light)
    if marked.shape != shape:
        marked = _box(marked, (shape[1], shape[0]))
        unlined = _box(unlined, (shape[1], shape[0]))
    return marked > 0, unlined.astype(np.float64)


def _middle_line(band: np.ndarray, pitch: float, shortest: float = None) -> np.ndarray:
    """The band of an edge thinned to its middle line and drawn three pixels
    wide, whatever the edge's contrast, without pieces shorter than
    :data:`SHORTEST` cells: a line crossing a cell of :data:`WORK_PIXELS`
    covers 3/8 of it, a diagonal one about half of the cells it runs
    through, and a cell beside it at most 1/8 (:data:`LINE_SHARE` lies
    between), so the line comes out one cell wide."""
    from scipy.ndimage import binary_dilation

    return binary_dilation(_skeleton(band, pitch, shortest), np.ones((3, 3), dtype=bool))


def _skeleton(band: np.ndarray, pitch: float, shortest: float = None) -> np.ndarray:
    """The band thinned to its middle line, one pixel wide, without pieces
    shorter than :data:`SHORTEST` (or ``shortest``) cells of ``pitch`` pixels."""
    from skimage.morphology import remove_small_objects, skeletonize

    middle = skeletonize(band)
    if pitch >= 2:
        middle = remove_small_objects(middle, max_size=int((shortest or SHORTEST) * pitch), connectivity=2)
    return middle


def _coverage(*maps: np.ndarray, geometry, fill: tuple[float, float, float] = (0.0, 0.0, 0.0)) -> np.ndarray:
    """Every cell's average of each of up to three maps (bool maps: the
    share of it they cover), the last axis one map each; ``fill`` is what
    each map holds outside the picture (a ``pad`` margin)."""
    stack = np.zeros((*maps[0].shape, 3))
    for i, m in enumerate(maps):
        stack[:, :, i] = m
    background = tuple(float(linear_to_srgb(np.float64(v)) * 255) for v in fill)
    return _average(stack, geometry, background)


def _tone_cut(light: np.ndarray) -> float:
    """Where the ``lines`` style fills regions: Otsu's threshold of the
    lightness (L*/100), or mid-grey for a flat picture (:data:`FLAT`)."""
    from skimage.filters import threshold_otsu

    if np.ptp(light) < FLAT:
        return 0.5
    return float(threshold_otsu(light))


def follow_edges(
    grid: np.ndarray,
    source: np.ndarray,
    palette: np.ndarray,
    *,
    side: int | None = None,
    keep: np.ndarray | None = None,
) -> np.ndarray:
    """The ``poster`` style's step after quantising: a grid of palette
    indices whose region boundaries follow the picture's edges.

    Quantising few colours draws boundaries the picture does not have
    (specks of texture, a step through an in-between colour) and misses
    edges between two shades that fall to one colour.  So, in order:

    1. a speck (a region of at most :data:`SPECK` cells, joined through
       the 4 sides of a square or the 6 of a hexagon) not next to an edge
       of the picture takes the colour most of its neighbours have;
    2. a cell next to an edge whose colour lies between the lightness of
       its two neighbours' on either side (a ramp across a sharp step)
       takes the colour of the one whose picture it is nearer;
    3. where the picture has an edge (:func:`~rofl.picture.measures.picture_edges`)
       that the grid does not show (no boundary cell of its own within a
       cell, :func:`~rofl.picture.measures.unmatched_edges`: an edge
       already drawn is left alone) and the cell on it and its neighbour
       across the largest step have one colour, the darker of the two takes the palette's colour nearest
       its own (CIELAB) among those darker than the one it has (or, the
       darkest already, the lighter the nearest lighter): a dark outline
       where it is missing, in the palette's own colours (a face's glasses
       in a dark colour, not in the sky's blue a shade darker than skin); a
       cell so changed that shares its colour with none of its neighbours
       is a speck and keeps its own;
    4. on a hexagon, an edge cell still without a boundary cell of its own
       takes the nearest darker colour where that makes it one and no
       speck (:func:`_darken_lost`): where an edge runs at an angle the
       board's zigzag rows cannot follow one cell for one, two edge cells
       stand beside one boundary cell (on squares this costs colour SSIM
       more than it gains: 0.769 -> 0.767 on the benchmark's colour cases);
    5. :func:`_polish` gives back the lightness SSIM the steps above cost
       where that is cheap in edges: a changed cell whose
       own colour SSIM clearly prefers takes it back, and a cell may take
       the colour that raises SSIM most where that moves no boundary near
       the picture's edges and adds none away from them.

    Parameters
    ----------
    grid : (H, W) or (n_cells,) int array
        Palette indices (a hexagon's in :class:`~rofl.hexagon.Hexagon`'s order, with ``side``).
    source : grid's shape + (3,) float array
        The picture's CIELAB in every cell (its area average).
    palette : (k, 3) float array
        The palette's CIELAB.
    keep : bool array of ``grid``'s shape, optional
        The lines ``lines`` drew for features thinner than a cell
        (:attr:`StyledCells.thin`): on a rectangle, those of their cells
        that touch another at a corner are no speck to step 1 and keep
        their colour in ``grid`` (a one-pixel diagonal is a staircase of
        cells touching at their corners, which the picture's edges at grid
        scale hardly show).

    Returns
    -------
    A new array of ``grid``'s shape and dtype.
    """
    from rofl.picture.measures import cell_neighbours, picture_edges, unmatched_edges

    shape, dtype = np.shape(grid), np.asarray(grid).dtype
    g = np.asarray(grid).ravel().astype(np.int64)
    lab = np.asarray(source, dtype=np.float64).reshape(-1, 3)
    light = lab[:, 0]
    palette = np.asarray(palette, dtype=np.float64).reshape(-1, 3)
    levels = palette[:, 0]
    nb = cell_neighbours(shape, side=side)
    full = picture_edges(light.reshape(shape), side=side)
    edge = _long(full, side, MISSED_RUN).ravel() if MISSED_RUN > 1 else full.ravel()
    near = edge | np.where(nb >= 0, edge[np.maximum(nb, 0)], False).any(axis=1)
    if side is None:  # the diagonal neighbours too, as the measure's tolerance
        near |= _diagonal_near(edge.reshape(shape)).ravel()
    g = _despeckle(g, nb, near, shape, side)
    if keep is not None:
        g = np.where(_corner_joined(np.asarray(keep, dtype=bool).reshape(shape), side), np.asarray(grid).ravel(), g)
    order = np.argsort(levels, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    g = _unstep(g, nb, near, light, rank)
    lost = unmatched_edges(full, levels[g].reshape(shape), side=side).ravel()
    g = _mark_missed(g, nb, edge & lost, lab, palette)
    if side is not None:
        lost = unmatched_edges(full, levels[g].reshape(shape), side=side).ravel()
        g = _darken_lost(g, nb, np.flatnonzero(lost), lab, palette)
    g = _polish(g, np.asarray(grid).ravel(), light, levels, nb, shape, side)
    return g.reshape(shape).astype(dtype)


#: ``poster``: regions of at most this many cells away from the picture's edges are specks.
SPECK = 4
#: ``poster``: the edges it follows run at least this many cells (shorter ones are texture).
MISSED_RUN = 3


#: :func:`_polish`: the least SSIM (summed over the 7x7 windows, see
#: :func:`~rofl.picture.measures.ssim_gains`) that takes a changed cell back
#: to its quantised colour, and what SSIM a cell may give up, per boundary
#: cell away from the picture's edges its change removes.
POLISH_BACK = 1.2
POLISH_CLEAR = 1.2
#: :func:`_polish`: the least gain for which a cell takes a colour none of its neighbours
#: has (a speck, and a clue of 1 in its row and column, more).
POLISH_SPECK = 0.35
#: :func:`_polish`'s rounds ...
POLISH_ROUNDS = 4
#: ... each moving the best cell of every square of this many cells on a side around it.
POLISH_APART = 3
#: ... and, in black and white, does not lighten a cell the picture has this much (L*) darker
#: than its neighbours' mean.
POLISH_KEEP = 1.0


def _polish(g, quantised, light, levels, nb, shape, side) -> np.ndarray:
    """The last step of :func:`follow_edges`: back some of the lightness
    SSIM (:func:`~rofl.picture.measures.lightness_ssim`, or
    :func:`~rofl.picture.measures.hex_lightness_ssim`) its steps cost,
    keeping the boundaries that follow the picture's edges.

    A greedy search over single cells (flat arrays: ``g``, the grid;
    ``quantised``, the grid before the steps; ``light``, the picture's
    lightness; ``levels``, the palette's; ``nb``, every cell's neighbours),
    each judged by the exact change of SSIM
    (:func:`~rofl.picture.measures.ssim_gains`) and of the grid's boundary
    cells (a cell with a lighter neighbour, as
    :func:`~rofl.picture.measures.edge_agreement` marks them):

    * a cell the steps changed takes its quantised colour back when that
      gains at least :data:`POLISH_BACK`;
    * any cell takes the colour that gains most, counting
      :data:`POLISH_CLEAR` for each boundary cell away from the picture's
      edges the change removes, if the change moves no boundary cell near
      an edge (within one cell, the measure's slack) and adds none away
      from them, and (in black and white) does not lighten a cell the
      picture has darker than around it or than its two neighbours on
      either side (:data:`POLISH_KEEP`: a thin line); a colour
      none of its neighbours has (a speck: a clue of 1 more in its row and
      its column) needs a gain over :data:`POLISH_SPECK`.

    Each round moves the cells whose gain is the largest among the cells
    around them (a square of :data:`POLISH_APART` cells, on the axial grid
    of a hexagon), so that no two neighbours move at once, for
    :data:`POLISH_ROUNDS` rounds or until nothing gains.  A grid too small
    for SSIM's 7x7 window is left as it is.
    """
    from scipy.ndimage import maximum_filter

    from rofl.picture.measures import SSIM_WINDOW, picture_edges, ssim_gains

    if (min(shape) if side is None else 2 * side - 1) < SSIM_WINDOW:
        return g
    edge = picture_edges(light.reshape(shape), side=side)
    if side is None:
        near = _diagonal_near(edge).ravel()
        layout = np.arange(g.size).reshape(shape)
    else:
        from rofl.hexagon import Hexagon

        edge = edge.ravel()
        near = edge | np.where(nb >= 0, edge[np.maximum(nb, 0)], False).any(axis=1)
        coords = Hexagon.of(side).coords
        layout = np.full((2 * side - 1, 2 * side - 1), -1)
        layout[coords[:, 1] + side - 1, coords[:, 0] + side - 1] = np.arange(g.size)
    on = layout >= 0
    # in black and white, a cell the picture has darker than around it, or than the two
    # neighbours on either side of it (a line: the cells along it are as dark), is not made
    # lighter: a thin feature the style drew, below Canny's notice at this scale (a line, an
    # eye), stays
    count = np.maximum((nb >= 0).sum(axis=1), 1)
    around = np.where(nb >= 0, light[np.maximum(nb, 0)], 0.0).sum(axis=1) / count
    dark = light - around < -POLISH_KEEP
    for a, b in ((0, 1), (2, 3), (4, 5))[: nb.shape[1] // 2]:  # opposite neighbours
        across = (light[np.maximum(nb[:, a], 0)] + light[np.maximum(nb[:, b], 0)]) / 2
        dark |= (nb[:, a] >= 0) & (nb[:, b] >= 0) & (light - across < -POLISH_KEEP)
    dark &= levels.size == 2
    order = np.arange(g.size) * 1e-12  # ties: the first cell
    colours = np.arange(levels.size)[:, None]
    g = g.copy()
    # a move changes the gains of the cells whose windows hold it and so the moves of the cells
    # beside those: after the first round only the cells that near a move are judged again
    reach = SSIM_WINDOW - 1 + POLISH_APART // 2
    active = decide = np.ones(g.size, dtype=bool)
    for _ in range(POLISH_ROUNDS):
        final = levels[g]
        judged = np.flatnonzero(active)
        keeps = (levels[:, None] > final[None]) & dark[None]
        near_change = np.ones(keeps.shape, dtype=np.int64)  # cells not judged: not safe
        far_change = np.zeros(keeps.shape, dtype=np.int64)
        near_change[:, judged], far_change[:, judged] = _boundary_changes(final, levels, near, nb, judged)
        back = (colours == quantised[None]) & (quantised != g)[None]
        safe = (near_change == 0) & (far_change <= 0) & ~keeps
        # a new speck (a cell of a colour none of its neighbours has, which it had with one)
        company = np.ones(keeps.shape, dtype=bool)
        company[:, judged] = (
            np.where(nb[judged] >= 0, g[np.maximum(nb[judged], 0)], -1)[None] == colours[:, :, None]
        ).any(axis=2)
        speck = ~company & company[g, np.arange(g.size)][None]
        colour, cell = np.nonzero((back | safe) & (colours != g[None]) & active[None])
        gain = ssim_gains(light.reshape(shape), final.reshape(shape), cell, levels[colour], side=side)
        if gain is None:
            break
        good = np.where(back[colour, cell], gain >= POLISH_BACK, False)
        gain = gain - POLISH_CLEAR * np.where(safe[colour, cell], far_change[colour, cell], 0)
        good |= safe[colour, cell] & (gain > np.where(speck[colour, cell], POLISH_SPECK, 0.0))
        score = np.full(back.shape, -np.inf)
        score[colour[good], cell[good]] = gain[good]
        best, value = score.argmax(axis=0), score.max(axis=0)
        laid = np.full(layout.shape, -np.inf)
        laid[on] = np.where(np.isfinite(value), value + order, -np.inf)[layout[on]]
        local = maximum_filter(laid, size=POLISH_APART, mode="constant", cval=-np.inf)
        move = np.zeros(g.size, dtype=bool)
        move[layout[on]] = np.isfinite(laid[on]) & (laid[on] >= local[on])
        move &= decide
        if not move.any():
            break
        g[move] = best[move]
        moved = np.zeros(layout.shape, dtype=bool)
        moved[on] = move[layout[on]]
        decide, active = (
            _laid_out(maximum_filter(moved, size=2 * n + 1, mode="constant"), layout, on) for n in (reach, reach + 1)
        )
    return g


def _corner_joined(cells: np.ndarray, side: int | None) -> np.ndarray:
    """The flat map of ``cells`` (a rectangle's) that touch another of them
    at a corner; none on a hexagon, whose cells along a line share sides."""
    if side is not None:
        return np.zeros(cells.size, dtype=bool)
    p = np.pad(cells, 1)
    return (cells & (p[:-2, :-2] | p[:-2, 2:] | p[2:, :-2] | p[2:, 2:])).ravel()


def _laid_out(values: np.ndarray, layout: np.ndarray, on: np.ndarray) -> np.ndarray:
    """A map on ``layout`` (each cell's flat index, where ``on``) as one value a cell."""
    out = np.empty(int(on.sum()), dtype=values.dtype)
    out[layout[on]] = values[on]
    return out


def _boundary_changes(final, levels, near, nb, cells) -> tuple[np.ndarray, np.ndarray]:
    """For every colour of ``levels`` (lightness) and each of ``cells`` of
    ``final`` (the grid's lightness, flat; ``nb``, every cell's neighbours),
    how many boundary cells (a cell with a lighter neighbour) near
    (``near``) and away from the picture's edges the grid gains when that
    cell takes that colour: two ``(len(levels), len(cells))`` int arrays.
    The cell's own mark and each of its neighbours' can change: a
    neighbour ``q`` of cell ``p`` is marked after the change when its
    lightest neighbour but ``p`` (its lightest, or the next lightest where
    that is ``p``) or ``p``'s new colour is lighter than it."""
    n = final.shape[0]
    values = np.where(nb >= 0, final[np.maximum(nb, 0)], -np.inf)  # (n, k): each neighbour's lightness
    top = values.argmax(axis=1)
    lightest = values[np.arange(n), top]
    values[np.arange(n), top] = -np.inf
    next_lightest = values.max(axis=1)
    marked = lightest > final
    new = levels[:, None]  # (colours, 1)
    change = (lightest[cells][None] > new).astype(np.int64) - marked[cells][None]
    near_change = np.where(near[cells][None], change, 0)
    far_change = change - near_change
    # each neighbour q of a cell p: marked if one of its neighbours, p with its new colour included, is lighter
    has = nb[cells] >= 0
    q = np.maximum(nb[cells], 0)  # (m, k)
    others = np.where(nb[q, top[q]] == cells[:, None], next_lightest[q], lightest[q])
    now = np.maximum(others[None], new[:, :, None]) > final[q][None]  # (colours, m, k)
    d = np.where(has[None], now.astype(np.int64) - marked[q][None], 0)
    q_near = near[q]
    near_change += np.where(q_near[None], d, 0).sum(axis=2)
    far_change += np.where(q_near[None], 0, d).sum(axis=2)
    return near_change, far_change


def _diagonal_near(edge: np.ndarray) -> np.ndarray:
    from scipy.ndimage import binary_dilation

    return binary_dilation(edge, np.ones((3, 3), dtype=bool))


def _regions(g: np.ndarray, nb: np.ndarray, shape: tuple[int, ...], side: int | None) -> np.ndarray:
    """Each cell's region, numbered from 0: cells of one colour joined
    through neighbours (``nb``).  On a rectangle, scipy's labelling of each
    colour's cells, joined through their 4 sides (the graph search a
    hexagon needs costs ``rofl make`` the import of ``scipy.sparse.csgraph``,
    0.05 s)."""
    if side is None:
        from scipy.ndimage import label

        region = np.empty(g.size, dtype=np.int64)
        grid = g.reshape(shape)
        n = 0
        for colour in np.unique(g).tolist():
            cells = grid == colour
            labels, count = label(cells)
            region[cells.ravel()] = labels[cells] + (n - 1)
            n += count
        return region
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    src, k = np.nonzero(nb >= 0)
    dst = nb[src, k]
    same = g[src] == g[dst]
    graph = coo_matrix((np.ones(same.sum()), (src[same], dst[same])), shape=(g.size, g.size))
    return connected_components(graph, directed=False)[1]


def _despeckle(g: np.ndarray, nb: np.ndarray, near: np.ndarray, shape: tuple[int, ...], side: int | None) -> np.ndarray:
    region = _regions(g, nb, shape, side)
    n = region.max() + 1
    size = np.bincount(region, minlength=n)
    touches = np.bincount(region, near.astype(np.float64), minlength=n) > 0
    speck = (size <= SPECK) & ~touches
    if not speck.any():
        return g
    # votes of the neighbours outside each speck for their colours
    src, k = np.nonzero((nb >= 0) & speck[region][:, None])
    dst = nb[src, k]
    outside = region[dst] != region[src]
    src, dst = src[outside], dst[outside]
    if not src.size:
        return g
    colours = int(g.max()) + 1
    votes = np.zeros((n, colours))
    np.add.at(votes, (region[src], g[dst]), 1.0)
    out = g.copy()
    cells = speck[region] & (votes[region].sum(axis=1) > 0)
    out[cells] = votes[region[cells]].argmax(axis=1)  # the first of equals: the lowest index
    return out


def _unstep(g: np.ndarray, nb: np.ndarray, near: np.ndarray, light: np.ndarray, rank: np.ndarray) -> np.ndarray:
    out = g.copy()
    r = rank[g]
    for a, b in ((0, 1), (2, 3), (4, 5))[: nb.shape[1] // 2]:
        na, nbb = nb[:, a], nb[:, b]
        ok = (na >= 0) & (nbb >= 0) & near & (out == g)
        na, nbb = np.maximum(na, 0), np.maximum(nbb, 0)
        ra, rb = r[na], r[nbb]
        between = ok & (((ra < r) & (r < rb)) | ((rb < r) & (r < ra)))
        nearer_a = np.abs(light - light[na]) <= np.abs(light - light[nbb])
        out = np.where(between, np.where(nearer_a, g[na], g[nbb]), out)
    return out


def _mark_missed(g, nb, edge, lab, palette) -> np.ndarray:
    light, levels = lab[:, 0], palette[:, 0]
    cells = np.flatnonzero(edge)
    if not cells.size:
        return g
    steps = np.where(nb[cells] >= 0, np.abs(light[np.maximum(nb[cells], 0)] - light[cells, None]), -1.0)
    across = nb[cells, steps.argmax(axis=1)]
    keep = (across >= 0) & (g[cells] == g[np.maximum(across, 0)])
    cells, across = cells[keep], across[keep]
    darker = light[cells] <= light[across]
    dark, lit = np.where(darker, cells, across), np.where(darker, across, cells)
    distance = ((lab[:, None, :] - palette[None, :, :]) ** 2).sum(axis=-1)  # (cells, colours)
    out = g.copy()
    # the nearest colour darker than the dark cell's, else the nearest lighter than the light one's
    down = np.where(levels[None, :] < levels[g[dark]][:, None], distance[dark], np.inf)
    up = np.where(levels[None, :] > levels[g[lit]][:, None], distance[lit], np.inf)
    can_down = np.isfinite(down).any(axis=1)
    out[dark[can_down]] = down[can_down].argmin(axis=1)
    can_up = ~can_down & np.isfinite(up).any(axis=1)
    out[lit[can_up]] = up[can_up].argmin(axis=1)
    return _no_specks(out, g, nb)


def _darken_lost(g, nb, cells, lab, palette) -> np.ndarray:
    """Step 4 of :func:`follow_edges`: each of ``cells`` (edge cells the grid
    shows with no boundary cell of their own) takes the palette's colour
    nearest its own (CIELAB) among those darker than the one it has, where
    that makes it darker than a neighbour (a boundary cell) and leaves it
    no speck."""
    levels = palette[:, 0]
    if not cells.size:
        return g
    distance = ((lab[cells, None, :] - palette[None, :, :]) ** 2).sum(axis=-1)
    down = np.where(levels[None, :] < levels[g[cells]][:, None], distance, np.inf)
    ok = np.isfinite(down).any(axis=1)
    cells, new = cells[ok], down[ok].argmin(axis=1)
    lighter = np.where(nb[cells] >= 0, levels[g[np.maximum(nb[cells], 0)]], -np.inf).max(axis=1) > levels[new]
    out = g.copy()
    out[cells[lighter]] = new[lighter]
    return _no_specks(out, g, nb)


def _no_specks(out: np.ndarray, g: np.ndarray, nb: np.ndarray) -> np.ndarray:
    """``out`` (``g`` with some cells marked or darkened, in place) with each
    changed cell that shares its colour with no neighbour given back its
    colour in ``g``: a speck, not an outline."""
    changed = np.flatnonzero(out != g)
    company = np.where(nb[changed] >= 0, out[np.maximum(nb[changed], 0)] == out[changed, None], False).any(axis=1)
    out[changed[~company]] = g[changed[~company]]
    return out
