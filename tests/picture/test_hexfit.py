"""Sampling a picture on a hexagonal lattice (rofl.picture.hexfit) against
plain per-pixel references."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rofl.errors import OptionError
from rofl.hexagon import Hexagon
from rofl.picture import hex_cell_colors, hex_fit, srgb_to_linear
from rofl.picture.hexfit import board_extent, cell_centres, check_side, fine_owners, owner_of

SQ3 = math.sqrt(3)


def test_every_cell_centre_is_its_own():
    for side in (1, 2, 5, 12):
        coords = Hexagon.of(side).coords
        x, y = SQ3 * (coords[:, 0] + coords[:, 1] / 2), 1.5 * coords[:, 1]
        assert np.allclose(cell_centres(side), (x, y))
        assert (owner_of(x, y, side) == np.arange(len(coords))).all()


@given(st.integers(1, 9), st.floats(-30, 30), st.floats(-30, 30))
def test_owner_is_the_nearest_centre(side, x, y):
    """A point belongs to the hexagon whose centre is nearest (Voronoi cells
    of a hexagonal lattice are its hexagons), or to none beyond the board."""
    coords = Hexagon.of(side).coords
    cx, cy = SQ3 * (coords[:, 0] + coords[:, 1] / 2), 1.5 * coords[:, 1]
    d = np.hypot(cx - x, cy - y)
    got = int(owner_of(np.array([x]), np.array([y]), side)[0])
    # lattice points: the nearest of the infinite lattice, inside or not
    r = round(y / 1.5)
    candidates = [
        (q, rr) for rr in range(r - 2, r + 3) for q in range(round(x / SQ3 - rr / 2) - 2, round(x / SQ3 - rr / 2) + 3)
    ]
    best = min(candidates, key=lambda c: math.hypot(SQ3 * (c[0] + c[1] / 2) - x, 1.5 * c[1] - y))
    nearest_dist = math.hypot(SQ3 * (best[0] + best[1] / 2) - x, 1.5 * best[1] - y)
    if got == -1:
        assert d.min() > nearest_dist - 1e-9  # the nearest lattice point is off the board
    else:
        assert d[got] <= nearest_dist + 1e-9


def test_fine_grid_covers_every_cell_about_equally():
    for side in (3, 10):
        g = hex_fit((1000, 800), side)
        counts = np.bincount(fine_owners(g).ravel() + 1)[1:]
        assert len(counts) == Hexagon.of(side).n_cells
        assert counts.min() >= 0.8 * counts.mean() and counts.max() <= 1.2 * counts.mean()


@pytest.mark.parametrize(("w", "h"), [(400, 300), (300, 400), (100, 100), (7, 5)])
def test_fit_is_the_largest_centred_box_of_the_board(w, h):
    g = hex_fit((w, h), 6)
    x0, y0, x1, y1 = g.box
    ew, eh = board_extent(6)
    assert (x1 - x0) / (y1 - y0) == pytest.approx(ew / eh)
    assert x0 >= -1e-9 and y0 >= -1e-9 and x1 <= w + 1e-9 and y1 <= h + 1e-9
    assert min(x0, y0) == pytest.approx(0, abs=1e-9)  # touches two sides
    assert (x0 + x1) / 2 == pytest.approx(w / 2) and (y0 + y1) / 2 == pytest.approx(h / 2)


@pytest.mark.parametrize("side", [0, 129, 2.5, True, "7"])
def test_bad_sides(side):
    with pytest.raises(OptionError, match="side"):
        check_side(side)


def test_a_flat_picture_gives_its_colour():
    pixels = np.full((90, 120, 3), (200, 40, 10), dtype=np.uint8)
    cells = hex_cell_colors(pixels, hex_fit((120, 90), 4))
    assert np.allclose(cells, srgb_to_linear(np.array([200, 40, 10]) / 255.0))


def test_cells_average_their_hexagon_in_linear_light():
    """Against a reference that gives every pixel to the hexagon its centre
    lies in and averages them: on a large picture the two agree closely."""
    rng = np.random.default_rng(3)
    side = 4
    small = rng.integers(0, 256, (9, 12, 3)).astype(np.uint8)
    pixels = np.repeat(np.repeat(small, 60, axis=0), 60, axis=1)  # 540 x 720, blocks of colour
    g = hex_fit((720, 540), side)
    got = hex_cell_colors(pixels, g)
    x0, y0, x1, y1 = g.box
    ew, eh = board_extent(side)
    ys, xs = np.mgrid[0:540, 0:720] + 0.5
    owner = owner_of((xs - x0) / (x1 - x0) * ew - ew / 2, (ys - y0) / (y1 - y0) * eh - eh / 2, side)
    lin = srgb_to_linear(pixels / 255.0)
    for cell in range(Hexagon.of(side).n_cells):
        want = lin[owner == cell].mean(axis=0)
        assert np.allclose(got[cell], want, atol=0.02), cell


@pytest.mark.parametrize("image_size", [(320, 214), (262, 262), (100, 400), (1, 1), (640, 480)])
def test_one_fit_serves_both_shapes(image_size):
    # fit_board gives any board the largest centred box of its proportions:
    # a hexagon's is hex_fit's, a rectangle's is fit's crop
    from rofl.picture.fit import fit, fit_board
    from rofl.puzzle import Rectangle

    for side in (1, 5, 17):
        assert fit_board(image_size, Hexagon.of(side)) == hex_fit(image_size, side)
    for width, height in ((40, 30), (13, 41), (7, 7)):
        geometry = fit_board(image_size, Rectangle(width, height))
        assert geometry == fit(image_size, width, height, "crop")
        x0, y0, x1, y1 = geometry.box
        assert geometry.size == geometry.grid == (width, height)
        # the box keeps the picture's edges exactly on the side it fills
        assert (x0, x1) == (0.0, image_size[0]) or (y0, y1) == (0.0, image_size[1])
        assert 0.0 <= x0 <= x1 <= image_size[0] and 0.0 <= y0 <= y1 <= image_size[1]
        assert (x1 - x0) / (y1 - y0) == pytest.approx(width / height)


def test_a_boards_extent_is_the_box_around_its_cells():
    from rofl.puzzle import Rectangle

    assert Rectangle(7, 3).extent(2.0) == (14.0, 6.0)
    for side in (1, 2, 9):
        board = Hexagon.of(side)
        centres, corners = board.centres(1.5), board.corners(1.5)
        points = (centres[:, None, :] + corners[None, :, :]).reshape(-1, 2)
        assert board.extent(1.5) == pytest.approx(tuple(points.max(axis=0) - points.min(axis=0)))
