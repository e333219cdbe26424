"""The likeness measures of rofl.picture.measures against hand-computed cases."""

from __future__ import annotations

import numpy as np
import pytest

from rofl.hexagon import Hexagon
from rofl.picture.hexfit import cell_centres
from rofl.picture.measures import (
    Face,
    edge_agreement,
    edge_f1,
    faces_kept,
    find_faces,
    hex_lightness_ssim,
    lightness_ssim,
    ssim_gains,
)


def step(width: int = 10, height: int = 10, at: int = 5, low: float = 30.0, high: float = 70.0) -> np.ndarray:
    """Lightness with one sharp vertical edge between columns ``at - 1`` and ``at``."""
    light = np.full((height, width), low)
    light[:, at:] = high
    return light


def bands(*runs: tuple[int, float], width: int = 10, height: int = 10) -> np.ndarray:
    """A grid's lightness in vertical bands: ``(first column, L*)`` runs."""
    light = np.zeros((height, width))
    for start, value in runs:
        light[:, start:] = value
    return light


def test_ssim_of_identical_pictures_is_one():
    light = np.random.default_rng(0).uniform(0, 100, (12, 15))
    assert lightness_ssim(light, light) == pytest.approx(1.0)
    assert lightness_ssim(light[:2], light[:2]) is None


def test_the_edge_of_a_step_is_one_column_of_cells():
    # Canny marks one side of the step: column 5 of every row; the grid's
    # boundary is marked on its darker side: column 4
    assert edge_agreement(step(), bands((0, 30), (5, 70))) == (1.0, 1.0, 1.0, 10, 10, 10)
    assert edge_agreement(step(), bands((0, 30), (5, 70)), tolerance=0) == (0.0, 0.0, 0.0, 10, 10, 0)
    # the darker side of the same boundary, the other way round, is column 5
    assert edge_agreement(step(), bands((0, 70), (5, 30)), tolerance=0) == (1.0, 1.0, 1.0, 10, 10, 10)


def test_an_outline_along_the_edge_scores_as_the_step():
    # a dark line one cell wide in column 5 on a light field: its two
    # boundaries are marked once, on the line
    outline = bands((0, 100), (5, 0), (6, 100))
    assert edge_agreement(step(), outline) == (1.0, 1.0, 1.0, 10, 10, 10)
    # a light line on a dark field marks both its sides: one is an edge
    assert edge_agreement(step(), bands((0, 0), (5, 100), (6, 0))) == (0.5, 1.0, pytest.approx(2 / 3), 10, 20, 10)


def test_a_boundary_far_from_the_edge_scores_zero():
    assert edge_agreement(step(), bands((0, 30), (8, 70))) == (0.0, 0.0, 0.0, 10, 10, 0)
    assert edge_agreement(step(), bands((0, 30), (3, 70))) == (0.0, 0.0, 0.0, 10, 10, 0)


def test_a_boundary_too_many_halves_the_precision():
    # boundaries in columns 4 (beside the edge) and 8 (the darker side of 70 | 30: nothing there)
    precision, recall, f1, edges, boundaries, matched = edge_agreement(step(), bands((0, 30), (5, 70), (8, 30)))
    assert (edges, boundaries, matched) == (10, 20, 10)
    assert (precision, recall) == (0.5, 1.0)
    assert f1 == pytest.approx(2 * 0.5 * 1.0 / 1.5)


def test_edges_match_one_to_one():
    # boundaries in columns 4 and 6, both beside the edge in column 5: only one of them matches it
    two = bands((0, 30), (5, 100), (6, 0), (7, 100))
    agreement = edge_agreement(step(), two)
    assert (agreement.edges, agreement.matched) == (10, 10) and agreement.boundaries == 20
    assert agreement.precision == 0.5 and agreement.recall == 1.0


def test_a_grid_without_the_edge_has_no_recall():
    assert edge_agreement(step(), bands((0, 50))) == (1.0, 0.0, 0.0, 10, 0, 0)


def test_tolerance_is_one_cell():
    # column 6 is within one cell of the edge in column 5, column 3 is not
    assert edge_agreement(step(), bands((0, 30), (7, 70))).f1 == 1.0
    assert edge_agreement(step(), bands((0, 30), (4, 70))).f1 == 0.0
    # a ragged boundary: every other row's one column to the right (columns 4 and 5)
    ragged = bands((0, 30), (5, 70))
    ragged[::2, 5] = 30
    assert edge_agreement(step(), ragged).f1 == 1.0


def test_a_flat_picture_has_no_edges():
    flat = np.full((10, 10), 50.0)
    assert edge_agreement(flat, flat) == (1.0, 1.0, 1.0, 0, 0, 0)
    assert edge_agreement(flat, bands((0, 30), (5, 70))) == (0.0, 1.0, 0.0, 0, 10, 0)
    # a faint texture (steps under 4 L*) is no edge either
    faint = flat + np.random.default_rng(1).uniform(-2, 2, flat.shape)
    assert edge_agreement(faint, flat).edges == 0


def test_the_measure_is_symmetric_in_the_edge_direction():
    grid = bands((0, 30), (5, 70))
    assert edge_agreement(step().T, grid.T) == edge_agreement(step(), grid)


def test_edges_along_the_border_count():
    light = np.full((6, 6), 20.0)
    light[0, :] = 90.0
    agreement = edge_agreement(light, light)
    assert agreement.edges == 6 and agreement.boundaries == 6 and agreement.f1 == 1.0


def test_edge_f1_is_the_f1():
    grid = bands((0, 30), (5, 70), (8, 30))
    assert edge_f1(step(), grid) == edge_agreement(step(), grid).f1
    with pytest.raises(ValueError, match="differ in shape"):
        edge_f1(step(), bands(width=9))


def test_hexagon_boundaries_are_marked_on_the_darker_side():
    board = Hexagon.of(3)
    flat = np.full(board.n_cells, 50.0)
    dark_centre = np.full(board.n_cells, 100.0)
    dark_centre[board.cell(0, 0)] = 0.0
    assert edge_agreement(flat, dark_centre, side=3) == (0.0, 1.0, 0.0, 0, 1, 0)
    # a light centre: its six neighbours are marked
    assert edge_agreement(flat, 100.0 - dark_centre, side=3) == (0.0, 1.0, 0.0, 0, 6, 0)
    assert edge_agreement(flat, flat, side=3).f1 == 1.0


@pytest.mark.parametrize("axis", [0, 1])
def test_hexagons_find_a_straight_edge(axis):
    x, y = cell_centres(8)
    along = x if axis == 0 else y
    light = np.where(along > 0.1, 75.0, 40.0)
    # one boundary cell per edge cell, but for Canny's missing the line's last cell
    assert edge_agreement(light, light, side=8).f1 > 0.95
    far = np.where(along > 6, 75.0, 40.0)
    assert edge_agreement(light, far, side=8).f1 == 0.0
    assert edge_agreement(np.where(along > 0.1, 44.0, 40.0), light, side=8).edges == 0


def test_hexagon_tolerance_reaches_the_neighbours():
    x, _ = cell_centres(4)
    light = np.where(x > 0.1, 80.0, 30.0)
    # the boundary one column of cells further right is still within one cell
    moved = np.where(x > 0.1 + np.sqrt(3), 80.0, 30.0)
    assert edge_agreement(light, moved, side=4).f1 == 1.0
    assert edge_agreement(light, moved, side=4, tolerance=0).f1 < 0.6
    assert edge_agreement(light, np.where(x > 0.1 + 3 * np.sqrt(3), 80.0, 30.0), side=4).f1 == 0.0


def test_ssim_of_identical_hexagons_is_one():
    light = np.random.default_rng(2).uniform(0, 100, Hexagon.of(5).n_cells)
    assert hex_lightness_ssim(light, light, 5) == pytest.approx(1.0)


def test_face_boxes_overlap():
    a = Face(0.1, 0.1, 0.2, 0.2)
    assert a.overlap(a) == pytest.approx(1.0)
    assert a.overlap(Face(0.2, 0.1, 0.2, 0.2)) == pytest.approx(0.5 / 1.5)
    assert a.overlap(Face(0.5, 0.5, 0.2, 0.2)) == 0.0
    assert faces_kept([a], [Face(0.5, 0.5, 0.1, 0.1), Face(0.12, 0.1, 0.2, 0.2)])
    assert not faces_kept([a], [Face(0.25, 0.1, 0.2, 0.2)])  # 1/7 overlap
    assert not faces_kept([], [a])


@pytest.mark.slow
def test_the_cascade_finds_the_astronauts_face():
    from skimage.data import astronaut

    face = Face(0.13, 0.35, 0.18, 0.18)  # checked by eye
    assert faces_kept([face], find_faces(astronaut(), cells=False))
    flat = np.full((40, 40, 3), 200, dtype=np.uint8)
    assert find_faces(flat) == []


@pytest.mark.parametrize("side", [None, 4, 7])
def test_ssim_gains_are_the_measure_s_own_changes(side):
    # against the slow, obviously correct way: change one cell, measure again with scikit-image
    rng = np.random.default_rng(side or 0)
    n = Hexagon.of(side).coords.shape[0] if side else None
    shape = (n,) if side else (9, 13)
    source = rng.uniform(0, 100, shape)
    levels = np.array([5.0, 40.0, 70.0, 95.0])
    final = levels[rng.integers(0, 4, shape)]
    cells = rng.integers(0, final.size, 40)
    values = levels[rng.integers(0, 4, 40)]
    gains = ssim_gains(source, final, cells, values, side=side)

    def measure(grid):
        return hex_lightness_ssim(source, grid, side) if side else lightness_ssim(source, grid)

    windows = n if side else (9 - 6) * (13 - 6)
    for cell, value, gain in zip(cells, values, gains, strict=True):
        changed = final.copy().ravel()
        changed[cell] = value
        assert gain / windows == pytest.approx(measure(changed.reshape(shape)) - measure(final), abs=1e-12)


def test_ssim_gains_need_the_measure_s_whole_window():
    assert ssim_gains(np.zeros((6, 20)), np.zeros((6, 20)), [0], [50.0]) is None
    assert ssim_gains(np.zeros(Hexagon.of(3).coords.shape[0]), np.zeros(19), [0], [50.0], side=3) is None


def test_unmatched_edges_are_the_edge_cells_left_without_a_boundary():
    from rofl.picture.measures import unmatched_edges

    edges = np.zeros((5, 5), dtype=bool)
    edges[2, 1:4] = True
    final = np.full((5, 5), 100.0)
    final[1, 2] = 0.0  # one boundary cell, beside all three edge cells: it matches the one straight below it
    lost = unmatched_edges(edges, final)
    assert lost.tolist() == [[c in ((2, 1), (2, 3)) for c in ((r, k) for k in range(5))] for r in range(5)]
    assert not unmatched_edges(edges, np.where(edges, 0.0, 100.0)).any()
