"""Fit and scale: which part of the picture becomes how many cells, averaged in linear light.

:func:`fit_board` gives a board of any shape the largest part of the
picture with the proportions of the box around its cells, centred (a
hexagon's; a rectangle's cropped to its size), and the geometry that
averages it into the board's cells; :func:`fit` decides a rectangle's grid
size and the part of the picture it shows (``fit`` / ``crop`` / ``pad``).
A geometry's ``average`` (:func:`cell_colors`) averages each cell's area
of the picture **in linear light**: a :class:`Geometry` (squares) by a box
filter with fractional coverage at the edges, never nearest-neighbour; a
:class:`HexGeometry` (pointy-top hexagons, :mod:`rofl.picture.hexfit`)
through a fine grid of square sub-cells, each given to the hexagon its
centre lies in.  Averaging the encoded sRGB values would make every fine
black-and-white texture too dark.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from rofl._checks import is_whole
from rofl.errors import OptionError
from rofl.hexagon import Hexagon
from rofl.picture.colour import srgb_to_linear

if TYPE_CHECKING:  # pragma: no cover
    from rofl.board import Board

#: Largest number of cells on a side of a made puzzle.
MAX_CELLS = 1024
#: Longest side of the grid when neither width nor height is given.
DEFAULT_SIDE = 40

MODES = ("fit", "crop", "pad")
#: Sub-cells per circumradius along each axis when averaging hexagons (about
#: 166 per hexagon), fewer on large boards so that the fine grid stays under
#: :data:`FINE_CELLS` sub-cells.  A sub-cell goes whole to one hexagon, so a
#: sharp edge through a hexagon moves its average by at most the share of
#: the sub-cells along its border.
FINE = 8
FINE_CELLS = 2_000_000

SQ3 = math.sqrt(3.0)


@dataclass(frozen=True)
class Geometry:
    """Where the picture goes.

    Attributes
    ----------
    box : (x0, y0, x1, y1) floats
        The part of the picture (in pixels) that becomes the cells.
    size : (width, height)
        Cells the box is averaged into.
    grid : (width, height)
        Size of the whole grid (larger than ``size`` in ``pad`` mode).
    offset : (left, top)
        Where the picture's cells sit in the grid.
    """

    box: tuple[float, float, float, float]
    size: tuple[int, int]
    grid: tuple[int, int]
    offset: tuple[int, int]

    def average(self, pixels: np.ndarray, background: tuple[int, int, int] = (255, 255, 255)) -> np.ndarray:
        """Every cell's area of the picture averaged in linear light: ``(rows,
        cols, 3)`` float64 (see :func:`cell_colors`)."""
        return _square_cells(pixels, self, background)


@dataclass(frozen=True)
class HexGeometry:
    """Where a hexagonal board goes on a picture.

    Attributes
    ----------
    side : int
        The board's side.
    box : (x0, y0, x1, y1) floats
        The part of the picture (pixels) under the board's outline box.
    fine : (width, height) ints
        Sub-cells the box is averaged into before the hexagons.
    """

    side: int
    box: tuple[float, float, float, float]
    fine: tuple[int, int]

    @property
    def extent(self) -> tuple[float, float]:
        """The outline box's width and height in circumradii."""
        return Hexagon.of(self.side).extent()

    def average(self, pixels: np.ndarray, background: tuple[int, int, int] = (255, 255, 255)) -> np.ndarray:
        """Every hexagon's area of the picture averaged in linear light:
        ``(n_cells, 3)`` float64 in the board's order (see
        :func:`~rofl.picture.cell_colors`).  The box is averaged into
        :attr:`fine` sub-cells, each goes to the hexagon its centre lies in,
        and each hexagon averages its sub-cells."""
        fw, fh = self.fine
        fine = Geometry(self.box, (fw, fh), (fw, fh), (0, 0)).average(pixels, background)
        owners = fine_owners(self).ravel()
        inside = owners >= 0
        n = Hexagon.of(self.side).n_cells
        counts = np.bincount(owners[inside], minlength=n).astype(np.float64)
        flat = fine.reshape(-1, 3)[inside]
        sums = np.stack([np.bincount(owners[inside], weights=flat[:, c], minlength=n) for c in range(3)], axis=1)
        return np.clip(sums / counts[:, None], 0.0, 1.0)


def _check_cells(value: Any, name: str) -> int | None:
    if value is None:
        return None
    if not is_whole(value):
        msg = f"{name} must be a whole number of cells, not {value!r}"
        raise OptionError(msg)
    if not 1 <= value <= MAX_CELLS:
        msg = f"{name} must be between 1 and {MAX_CELLS} cells, not {value}"
        raise OptionError(msg)
    return int(value)


def fit(
    image_size: tuple[int, int], width: int | None = None, height: int | None = None, mode: str = "fit"
) -> Geometry:
    """Decide the grid size and the part of the picture it shows.

    Parameters
    ----------
    image_size : (width, height) in pixels
    width, height : int, optional
        Cells.  With one of them the other follows from the picture's
        aspect ratio (cells are square).  With neither, a picture no larger
        than :data:`DEFAULT_SIDE` pixels keeps one cell per pixel (pixel
        art), a larger one gets :data:`DEFAULT_SIDE` cells on its longer side.
    mode : {"fit", "crop", "pad"}
        Only matters when both width and height are given: ``fit`` shows
        the whole picture in at most width x height cells (one side may be
        shorter), ``crop`` fills exactly width x height cells and cuts the
        excess off both ends of the longer side, ``pad`` shows the whole
        picture centred in exactly width x height cells, with background
        margins.

    Raises
    ------
    OptionError
        A size outside 1..MAX_CELLS or an unknown mode.
    """
    if mode not in MODES:
        msg = f"unknown fit mode {mode!r} (use {', '.join(MODES)})"
        raise OptionError(msg)
    width = _check_cells(width, "width")
    height = _check_cells(height, "height")
    iw, ih = image_size
    full = (0.0, 0.0, float(iw), float(ih))

    def clamp(n: float) -> int:
        return int(min(MAX_CELLS, max(1, round(n))))

    if width is None and height is None:
        if max(iw, ih) <= DEFAULT_SIDE:
            size = (iw, ih)
        else:
            scale = DEFAULT_SIDE / max(iw, ih)
            size = (clamp(iw * scale), clamp(ih * scale))
        return Geometry(full, size, size, (0, 0))
    if height is None:
        assert width is not None
        size = (width, clamp(width * ih / iw))
        return Geometry(full, size, size, (0, 0))
    if width is None:
        size = (clamp(height * iw / ih), height)
        return Geometry(full, size, size, (0, 0))
    if mode == "crop":
        from rofl.puzzle import Rectangle

        return fit_board(image_size, Rectangle(width, height))  # type: ignore[return-value]
    scale = min(width / iw, height / ih)
    size = (min(width, clamp(iw * scale)), min(height, clamp(ih * scale)))
    if mode == "fit":
        return Geometry(full, size, size, (0, 0))
    offset = ((width - size[0]) // 2, (height - size[1]) // 2)
    return Geometry(full, size, (width, height), offset)


def fit_board(image_size: tuple[int, int], board: Board) -> Geometry | HexGeometry:
    """The largest part of the picture with the proportions of the box
    around ``board``'s cells (:meth:`~rofl.board.Board.extent`), centred,
    and the geometry that averages it into the board's cells: a
    :class:`Geometry` for a rectangle (``fit``'s ``crop``), a
    :class:`~rofl.picture.hexfit.HexGeometry` for a hexagon (the picture's
    corners beyond the hexagon are not used).

    Parameters
    ----------
    image_size : (width, height) in pixels
    board : Board
    """
    w, h = image_size
    ew, eh = board.extent()
    aspect = ew / eh
    if w / h > aspect:
        bw, bh = h * aspect, float(h)
    else:
        bw, bh = float(w), w / aspect
    x0, y0 = (w - bw) / 2, (h - bh) / 2
    box = (x0, y0, x0 + bw, y0 + bh)
    if board.kind == "hexagon":
        return hex_geometry(board.side, box)  # type: ignore[attr-defined]
    size = board.grid_shape[::-1]
    return Geometry(box, size, size, (0, 0))  # type: ignore[arg-type]


def hex_geometry(side: int, box: tuple[float, float, float, float]) -> HexGeometry:
    """The board of side ``side`` over the part ``box`` of a picture, averaged
    through up to :data:`FINE` sub-cells per circumradius."""
    ew, eh = Hexagon.of(side).extent()
    per = max(2.0, min(float(FINE), math.sqrt(FINE_CELLS / (ew * eh))))
    fine = (max(1, math.ceil(ew * per)), max(1, math.ceil(eh * per)))
    return HexGeometry(side, box, fine)


def owner_of(x: np.ndarray, y: np.ndarray, side: int) -> np.ndarray:
    """The cell index (:class:`~rofl.hexagon.Hexagon` order) whose hexagon holds
    each point, or -1 outside the board.

    Parameters
    ----------
    x, y : float arrays
        Points in circumradii, relative to the centre of the middle cell.
    """
    r = y / 1.5
    q = x / SQ3 - r / 2
    s = -q - r
    rq, rr, rs = np.rint(q), np.rint(r), np.rint(s)
    dq, dr, ds = np.abs(rq - q), np.abs(rr - r), np.abs(rs - s)
    # cube rounding: fix the coordinate that moved most
    fix_q = (dq > dr) & (dq > ds)
    fix_r = ~fix_q & (dr > ds)
    rq = np.where(fix_q, -rr - rs, rq)
    rr = np.where(fix_r, -rq - rs, rr)
    return Hexagon.of(side).cells_at(rq.astype(np.int64), rr.astype(np.int64))


def fine_owners(geometry: HexGeometry) -> np.ndarray:
    """``(fine height, fine width)`` array: the cell each sub-cell's centre
    lies in, or -1."""
    fw, fh = geometry.fine
    ew, eh = geometry.extent
    xs = (np.arange(fw) + 0.5) * (ew / fw) - ew / 2
    ys = (np.arange(fh) + 0.5) * (eh / fh) - eh / 2
    x, y = np.meshgrid(xs, ys)
    return owner_of(x, y, geometry.side)


def area_weights(n_src: int, start: float, stop: float, n_out: int):
    """Box-filter weights of ``n_out`` cells over source pixels ``[start, stop)``.

    Returns
    -------
    scipy.sparse.csr_matrix of shape (n_out, n_src)
        Row ``j`` holds the fraction of cell ``j``'s extent each pixel
        covers; every row sums to 1.
    """
    from scipy import sparse

    edges = start + (stop - start) * np.arange(n_out + 1, dtype=np.float64) / n_out
    rows, cols, vals = [], [], []
    for j in range(n_out):
        lo, hi = edges[j], edges[j + 1]
        first = max(0, int(math.floor(lo)))
        last = min(n_src, max(first + 1, int(math.ceil(hi))))
        pix = np.arange(first, last)
        w = np.minimum(pix + 1, hi) - np.maximum(pix, lo)
        w = np.clip(w, 0.0, None)
        if w.sum() <= 0:  # a cell thinner than rounding: take the pixel it sits in
            pix, w = np.array([min(n_src - 1, first)]), np.array([1.0])
        rows.append(np.full(pix.size, j))
        cols.append(pix)
        vals.append(w / w.sum())
    return sparse.csr_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))), shape=(n_out, n_src))


def _linear_lut(dtype) -> np.ndarray:
    top = 255 if dtype == np.uint8 else 65535
    return srgb_to_linear(np.arange(top + 1) / top).astype(np.float32)


def block_means(pixels: np.ndarray, factor: int, convert, dtype=np.float64) -> np.ndarray:
    """The mean of each ``factor`` x ``factor`` block of ``convert(pixels)``
    (an (H, W, 3) float picture; the last row and column of blocks may be
    smaller), converting a strip of ``factor`` rows at a time, so that no
    float copy of the whole picture is made (a 64 Mpx picture would need
    1.5 GB for one).  ``convert`` takes rows of pixels to floats of
    ``dtype`` (the styles' linear light, the subject's sRGB)."""
    if factor == 1:
        return convert(pixels)
    h, w = pixels.shape[:2]
    starts = np.arange(0, w, factor)
    widths = np.diff(np.append(starts, w)).astype(dtype)[:, None]
    out = np.empty((-(-h // factor), len(starts), 3), dtype)
    for i, r0 in enumerate(range(0, h, factor)):
        strip = convert(pixels[r0 : r0 + factor])
        out[i] = np.add.reduceat(strip.sum(axis=0), starts, axis=0) / (widths * strip.shape[0])
    return out


def cell_colors(pixels: np.ndarray, geometry: Any, background: tuple[int, int, int] = (255, 255, 255)) -> np.ndarray:
    """Average each cell's area of the picture in linear light, for a board of
    either shape: the ``geometry``'s :meth:`~Geometry.average`.

    Parameters
    ----------
    pixels : (H, W, 3|4) uint8 or uint16 array from :func:`rofl.picture.load_pixels`
        (sRGB-encoded), or a float array already in linear light (0-1,
        three channels: any three maps to average, as the styles do).
    geometry : Geometry from :func:`fit`, or HexGeometry from :func:`rofl.picture.hex_fit`
    background : (r, g, b)
        Transparent pixels are composited onto it (in linear light), and
        ``pad`` margins take it.

    Returns
    -------
    float64 array of linear-light RGB in [0, 1]
        ``(rows, cols, 3)`` for a rectangle's cells; ``(n_cells, 3)`` in the
        board's order for a hexagon's (:meth:`rofl.picture.HexGeometry.average`).
    """
    return geometry.average(pixels, background)


def _square_cells(pixels: np.ndarray, geometry: Geometry, background: tuple[int, int, int]) -> np.ndarray:
    """:meth:`Geometry.average`: a box filter with fractional coverage at the
    edges, by sparse weights over strips of rows."""
    h_img, w_img = pixels.shape[:2]
    x0, y0, x1, y1 = geometry.box
    cw, ch = geometry.size
    gw, gh = geometry.grid
    ax = area_weights(w_img, x0, x1, cw)  # (cw, W)
    ay = area_weights(h_img, y0, y1, ch).tocsc()  # (ch, H)
    lut = None if pixels.dtype.kind == "f" else _linear_lut(pixels.dtype)
    bg = srgb_to_linear(np.asarray(background, dtype=np.float64) / 255.0).astype(np.float32)
    cols_used = np.flatnonzero(np.asarray(ax.sum(axis=0)).ravel() > 0)
    c0, c1 = int(cols_used[0]), int(cols_used[-1]) + 1
    ax = ax[:, c0:c1]
    rows_used = np.flatnonzero(np.diff(ay.indptr) > 0)
    out = np.zeros((ch, cw, 3), dtype=np.float64)
    # strips of rows keep the float copy of a large picture small
    strip = max(1, 2_000_000 // max(1, c1 - c0))
    for r0 in range(int(rows_used[0]), int(rows_used[-1]) + 1, strip):
        r1 = min(int(rows_used[-1]) + 1, r0 + strip)
        block = pixels[r0:r1, c0:c1]
        lin = block[:, :, :3] if lut is None else lut[block[:, :, :3]]
        if block.shape[2] == 4:
            alpha = block[:, :, 3:4].astype(np.float32) / (255 if pixels.dtype == np.uint8 else 65535)
            lin = lin * alpha + bg * (1 - alpha)
        s = r1 - r0
        # columns: (cw, c) @ (c, s*3) -> cells across, then rows: (ch, s) @ (s, cw*3)
        across = ax @ lin.transpose(1, 0, 2).reshape(c1 - c0, s * 3)
        across = across.reshape(cw, s, 3).transpose(1, 0, 2).reshape(s, cw * 3)
        out += (ay[:, r0:r1] @ across).reshape(ch, cw, 3)
    if (gw, gh) == (cw, ch):
        return np.clip(out, 0.0, 1.0)
    grid = np.empty((gh, gw, 3), dtype=np.float64)
    grid[:] = bg
    left, top = geometry.offset
    grid[top : top + ch, left : left + cw] = out
    return np.clip(grid, 0.0, 1.0)
