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
lies in, and each hexagon averages its sub-cells.  The geometry itself
(:class:`HexGeometry`, :func:`owner_of`, :func:`fine_owners`) is in
:mod:`rofl.picture.fit` beside the rectangle's; this module holds the
hexagon's sizes and checks and names them again.
"""

from __future__ import annotations

import numpy as np

from rofl._checks import is_whole
from rofl.errors import OptionError
from rofl.hexagon import Hexagon
from rofl.picture.fit import FINE, FINE_CELLS, HexGeometry, fine_owners, fit_board, hex_geometry, owner_of

#: Side of a made hexagonal puzzle when none is given, and the largest.
DEFAULT_HEX_SIDE = 15
MAX_HEX_SIDE = 128


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


def cell_centres(side: int) -> tuple[np.ndarray, np.ndarray]:
    """Every cell's centre (``x``, ``y`` float arrays in the board's order), in
    circumradii from the centre of the middle cell: :func:`owner_of`'s inverse."""
    centres = Hexagon.of(side).centres()
    return centres[:, 0], centres[:, 1]


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
    "hex_geometry",
    "owner_of",
    "FINE",
    "FINE_CELLS",
]
