"""The one refinement of both shapes (rofl.refine.passes over the adapters
rofl.refine.rectangle and rofl.refine.hexagon): the shared steps against
slow, obviously correct references, and the adapters' views of their boards."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from rofl.errors import UnsolvableError
from rofl.hexagon import Hexagon
from rofl.puzzle import Palette, Rectangle
from rofl.refine import passes, refine
from rofl.refine.hexagon import HexLines
from rofl.refine.rectangle import RectLines
from rofl.solver import LineSolver


@st.composite
def _boards(draw, most_cells: int = 40):
    """A flat filling, masks that allow its colours, open cells and costs."""
    k = draw(st.integers(2, 4))
    n = draw(st.integers(1, most_cells))
    cells = draw(arrays(np.uint8, n, elements=st.integers(0, k - 1)))
    extra = draw(arrays(np.int64, n, elements=st.integers(0, (1 << k) - 1)))
    masks = extra | (np.int64(1) << cells.astype(np.int64))
    open_cells = draw(arrays(np.bool_, n))
    cost = draw(arrays(np.float64, (n, k), elements=st.sampled_from([0.0, 0.25, 0.5, 1.0, 2.0])))
    return cells, masks, open_cells, cost


@settings(max_examples=80, deadline=None)
@given(_boards())
def test_cheapest_moves_match_a_slow_reference(board):
    cells, masks, open_cells, cost = board
    expected = []
    for c in range(len(cells)):
        if not open_cells[c]:
            continue
        options = [
            (cost[c, k] - cost[c, cells[c]], k) for k in range(cost.shape[1]) if k != cells[c] and (masks[c] >> k) & 1
        ]
        if options:
            added, colour = min(options)  # the cheapest, the lowest colour of equals
            expected.append((c, colour, added))
    where, colours, added = passes.cheapest_moves(cells, cost, masks, open_cells)
    assert list(zip(where.tolist(), colours.tolist(), added.tolist(), strict=True)) == expected


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 3), st.data())
def test_plateau_batches_take_moves_on_unused_lines_in_order(directions, data):
    n_moves = data.draw(st.integers(0, 30))
    lines = data.draw(arrays(np.int64, (n_moves, directions), elements=st.integers(0, 6)))
    lines += np.arange(directions) * 7  # each direction its own lines
    order = np.array(data.draw(st.permutations(range(n_moves))), dtype=np.intp)
    most = data.draw(st.integers(1, 10))
    used, expected = set(), []
    for i in order:
        if len(expected) < most and not used & set(lines[i].tolist()):
            used |= set(lines[i].tolist())
            expected.append(int(i))
    assert passes.plateau_batch(order, lines, most).tolist() == expected


def test_the_fallback_blanks_the_most_undetermined_line_it_may_paint():
    board = Rectangle(3, 2)  # rows 0-1, then columns 2-4
    grid = np.array([1, 1, 0, 1, 1, 1])
    known = np.array([True, False, True, False, False, True])
    locked = np.array([False, False, False, True, False, False])
    work, cells = passes.blank_line(grid, known, locked, board.line_cells, board.line_offsets, board.n_lines)
    assert cells.tolist() == [3, 4, 5]  # row 2: two undetermined cells, the first of the most
    assert work.tolist() == [1, 1, 0, 1, 0, 0]  # its locked cell stays
    with np.testing.assert_raises(UnsolvableError):
        passes.blank_line(grid, known, np.ones(6, dtype=bool), board.line_cells, board.line_offsets, 5)


def test_each_adapter_names_the_lines_of_a_cell():
    hexagon = Hexagon.of(4)
    lines = HexLines(4, 2).move_lines(np.arange(hexagon.n_cells))
    for line in range(hexagon.n_lines):
        on_it = np.flatnonzero((lines == line).any(axis=1))
        assert sorted(on_it.tolist()) == sorted(hexagon.line(line).tolist())
    rect = RectLines(LineSolver(), (3, 4), 2, verify=12, lazy_top=256, refresh_every=8)
    board = Rectangle(4, 3)
    lines = rect.move_lines(np.arange(12))
    for line in range(board.n_lines):
        assert np.flatnonzero((lines == line).any(axis=1)).tolist() == sorted(board.line(line).tolist())
    assert np.array_equal(rect.line_cells, board.line_cells)
    assert np.array_equal(rect.line_offsets, board.line_offsets)


def test_a_rectangle_board_given_or_not_is_the_same_refinement():
    grid = (np.random.default_rng(2).random((12, 14)) < 0.4).astype(np.uint8)
    plain = refine(grid, Palette.black_white())
    boarded = refine(grid, Palette.black_white(), board=Rectangle(14, 12))
    assert np.array_equal(plain.grid, boarded.grid) and plain.evaluations == boarded.evaluations
