"""A picture sampled on a hexagonal lattice: the cells of a hexagonal puzzle.

The board (:class:`rofl.hexagon.Hexagon`) is drawn with pointy-top cells,
as the sheets and the page draw it (:mod:`rofl.render.hexlayout`): cell
``(q, r)`` has its centre at ``(√3 (q + r/2), 1.5 r)`` in units of a cell's
circumradius.  :func:`hex_fit` takes the largest part of the picture with
the board's outline box ratio, centred, as for any board
(:func:`rofl.picture.fit.fit_board`: the picture's corners beyond the
hexagon are not used), and :meth:`HexGeometry.average` gives every cell the
area average of its hexagon in linear light, as :func:`rofl.picture.cell_colors`
does for squares: the box is averaged into a fine grid of up to :data:`FINE`
sub-cells per circumradius, each sub-cell goes to the hexagon its centre
lies in, and each hexagon averages its sub-cells.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from rofl._checks import is_whole
from rofl.errors import OptionError
from rofl.hexagon import Hexagon
from rofl.picture.fit import Geometry, cell_colors, fit_board

#: Side of a made hexagonal puzzle when none is given, and the largest.
DEFAULT_HEX_SIDE = 15
MAX_HEX_SIDE = 128
#: Sub-cells per circumradius along each axis when averaging hexagons (about
#: 166 per hexagon), fewer on large boards so that the fine grid stays under
#: :data:`FINE_CELLS` sub-cells.  A sub-cell goes whole to one hexagon, so a
#: sharp edge through a hexagon moves its average by at most the share of
#: the sub-cells along its border.
FINE = 8
FINE_CELLS = 2_000_000

SQ3 = math.sqrt(3.0)


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
        return board_extent(self.side)

    def average(self, pixels: np.ndarray, background: tuple[int, int, int] = (255, 255, 255)) -> np.ndarray:
        """Every hexagon's area of the picture averaged in linear light:
        ``(n_cells, 3)`` float64 in the board's order (see
        :func:`~rofl.picture.cell_colors`).  The box is averaged into
        :attr:`fine` sub-cells, each goes to the hexagon its centre lies in,
        and each hexagon averages its sub-cells."""
        fw, fh = self.fine
        fine = cell_colors(pixels, Geometry(self.box, (fw, fh), (fw, fh), (0, 0)), background)
        owners = fine_owners(self).ravel()
        inside = owners >= 0
        n = Hexagon.of(self.side).n_cells
        counts = np.bincount(owners[inside], minlength=n).astype(np.float64)
        flat = fine.reshape(-1, 3)[inside]
        sums = np.stack([np.bincount(owners[inside], weights=flat[:, c], minlength=n) for c in range(3)], axis=1)
        return np.clip(sums / counts[:, None], 0.0, 1.0)


def check_side(side: object) -> int:
    """``side`` as an int in 1..:data:`MAX_HEX_SIDE`, or an :class:`OptionError`."""
    if not is_whole(side) or not 1 <= side <= MAX_HEX_SIDE:
        msg = f"a hexagon's side must be a whole number from 1 to {MAX_HEX_SIDE}, not {side!r}"
        raise OptionError(msg)
    return int(side)


def board_extent(side: int) -> tuple[float, float]:
    """Width and height, in circumradii, of the box around a board of ``side``
    with pointy-top cells (:meth:`rofl.hexagon.Hexagon.extent`)."""
    return Hexagon.of(side).extent()


def hex_fit(image_size: tuple[int, int], side: object) -> HexGeometry:
    """The largest box of the board's proportions centred on the picture
    (:func:`~rofl.picture.fit.fit_board` on the hexagon of side ``side``).

    Parameters
    ----------
    image_size : (width, height) in pixels
    side : int

    Raises
    ------
    OptionError
        A side outside 1..:data:`MAX_HEX_SIDE`.
    """
    return fit_board(image_size, Hexagon.of(check_side(side)))  # type: ignore[return-value]


def hex_geometry(side: int, box: tuple[float, float, float, float]) -> HexGeometry:
    """The board of side ``side`` over the part ``box`` of a picture, averaged
    through up to :data:`FINE` sub-cells per circumradius."""
    ew, eh = board_extent(side)
    per = max(2.0, min(float(FINE), math.sqrt(FINE_CELLS / (ew * eh))))
    fine = (max(1, math.ceil(ew * per)), max(1, math.ceil(eh * per)))
    return HexGeometry(side, box, fine)


def cell_centres(side: int) -> tuple[np.ndarray, np.ndarray]:
    """Every cell's centre (``x``, ``y`` float arrays in the board's order), in
    circumradii from the centre of the middle cell: :func:`owner_of`'s inverse."""
    centres = Hexagon.of(side).centres()
    return centres[:, 0], centres[:, 1]


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


def hex_cell_colors(
    pixels: np.ndarray, geometry: HexGeometry, background: tuple[int, int, int] = (255, 255, 255)
) -> np.ndarray:
    """:func:`~rofl.picture.cell_colors` of a hexagonal board (:meth:`HexGeometry.average`)."""
    return geometry.average(pixels, background)


__all__ = [
    "DEFAULT_HEX_SIDE",
    "MAX_HEX_SIDE",
    "HexGeometry",
    "board_extent",
    "cell_centres",
    "check_side",
    "fine_owners",
    "hex_cell_colors",
    "hex_fit",
    "owner_of",
]
