"""The board protocol (:mod:`rofl.board`): both shapes' boards and puzzles
implement it, and what it says agrees with each shape's own model."""

from __future__ import annotations

import numpy as np
import pytest

from rofl.board import Board, BoardPuzzle
from rofl.hexagon import Hexagon, HexPuzzle
from rofl.puzzle import Puzzle, Rectangle

RNG = np.random.default_rng(41)


def _rectangle_puzzle() -> Puzzle:
    return Puzzle.from_grid(RNG.integers(0, 3, size=(4, 6)), [(255, 255, 255), (0, 0, 0), (200, 0, 0)])


def _hexagon_puzzle() -> HexPuzzle:
    board = Hexagon.of(3)
    return HexPuzzle.from_cells(3, RNG.integers(0, 3, size=board.n_cells), [(255, 255, 255), (0, 0, 0), (0, 0, 200)])


PUZZLES = [pytest.param(_rectangle_puzzle, id="rectangle"), pytest.param(_hexagon_puzzle, id="hexagon")]


@pytest.mark.parametrize("make", PUZZLES)
def test_both_shapes_implement_the_protocol(make):
    puzzle = make()
    assert isinstance(puzzle, BoardPuzzle)
    assert isinstance(puzzle.board, Board)
    board = puzzle.board
    assert board.n_cells == puzzle.n_cells
    assert board.n_lines == puzzle.n_lines
    assert board.kind == ("rectangle" if isinstance(puzzle, Puzzle) else "hexagon")
    assert int(np.prod(board.grid_shape)) == board.n_cells


@pytest.mark.parametrize("make", PUZZLES)
def test_index_lines_give_the_clues_of_a_filling(make):
    """Reading a filling along ``line_cells`` gives, line by line, the clues
    the puzzle was made from: the index lines are the clues' lines."""
    puzzle = make()
    board = puzzle.board
    cells = RNG.integers(0, puzzle.n_colors, size=board.grid_shape)
    derived = board.puzzle(cells, puzzle.palette)
    flat = cells.reshape(-1)
    for line in range(board.n_lines):
        along = flat[board.line_cells[board.line_offsets[line] : board.line_offsets[line + 1]]]
        np.testing.assert_array_equal(along, flat[board.line(line)])
        runs = []
        for value in along.tolist():
            if runs and runs[-1][1] == value:
                runs[-1][0] += 1
            else:
                runs.append([1, value])
        assert derived.clue(line) == tuple((n, c) for n, c in runs if c), board.line_name(line)
    lengths, colors, offsets = board.clues_of(cells)
    np.testing.assert_array_equal(lengths, derived.lengths)
    np.testing.assert_array_equal(colors, derived.colors)
    np.testing.assert_array_equal(offsets, derived.offsets)
    assert derived.is_solution(cells)


@pytest.mark.parametrize("make", PUZZLES)
def test_every_cell_lies_on_one_line_of_each_direction(make):
    board = make().board
    directions = board.line_directions
    assert directions.shape == (board.n_lines,)
    assert sorted(set(directions.tolist())) == list(range(len(board.directions)))
    for d in range(len(board.directions)):
        cells = np.concatenate([board.line(line) for line in np.flatnonzero(directions == d)])
        assert sorted(cells.tolist()) == list(range(board.n_cells))
        assert all(board.direction(int(line)) == d for line in np.flatnonzero(directions == d))


def test_line_names_follow_each_shape():
    rect = Rectangle(6, 4)
    assert [rect.line_name(i) for i in (0, 3, 4, 9)] == ["row 1", "row 4", "column 1", "column 6"]
    assert rect.size_text() == "6x4"
    hexagon = Hexagon.of(3)
    assert [hexagon.line_name(i) for i in (0, 5, 14)] == ["row 1", "falling diagonal 1", "rising diagonal 5"]
    assert hexagon.size_text() == "hexagon of side 3"


def test_rectangle_geometry():
    board = Rectangle(3, 2)
    centres = board.centres(10)
    assert centres.shape == (6, 2)
    assert centres[0].tolist() == [5.0, 5.0]
    assert centres[5].tolist() == [25.0, 15.0]  # row 2, column 3
    assert sorted(map(tuple, board.corners(10).tolist())) == [(-5, -5), (-5, 5), (5, -5), (5, 5)]


def test_hexagon_geometry():
    """Neighbouring cells along a row are one width apart, cells of a
    falling diagonal lie on a line, and every corner is ``size`` from the centre."""
    board = Hexagon.of(4)
    centres = board.centres(12.0)
    row = centres[board.line(0)]
    np.testing.assert_allclose(np.diff(row[:, 0]), np.sqrt(3) * 12)
    np.testing.assert_allclose(np.diff(row[:, 1]), 0)
    falling = centres[board.line(2 * 4 - 1 + 3)]
    np.testing.assert_allclose(np.diff(falling, axis=0), [[np.sqrt(3) * 6, 18]] * (len(falling) - 1))
    np.testing.assert_allclose(np.hypot(*board.corners(12.0).T), 12.0)
    assert board.centres()[board.cell(0, 0)].tolist() == [0.0, 0.0]


def test_rectangle_board_refuses_a_filling_of_another_shape():
    from rofl.errors import PuzzleError

    with pytest.raises(PuzzleError, match=r"6x4 board takes a grid of shape \(4, 6\)"):
        Rectangle(6, 4).puzzle(np.zeros((6, 4), dtype=np.uint8))


def test_puzzles_of_equal_clues_on_other_boards_differ():
    assert Rectangle(2, 3) == Rectangle(2, 3) != Rectangle(3, 2)
    assert hash(Rectangle(2, 3)) == hash(Rectangle(2, 3))
    with pytest.raises(AttributeError):
        Rectangle(2, 3).width = 4  # type: ignore[misc]


@pytest.mark.parametrize("make", PUZZLES)
def test_both_shapes_pickle_as_themselves(make):
    import pickle

    plain = make()
    puzzle = plain.with_unknown_colors([True] + [False] * (plain.n_groups - 1))
    again = pickle.loads(pickle.dumps(puzzle))
    assert type(again) is type(puzzle)
    assert again == puzzle
    assert again.board.size_text() == puzzle.board.size_text()


@pytest.mark.parametrize("make", PUZZLES)
def test_one_renderer_draws_both_shapes(make):
    """``puzzle_svg``, ``sheet_bytes`` (SVG, PNG, PDF) and the notebook hook
    take a puzzle of either shape, and draw a cell for every cell of its board."""
    import io
    import xml.etree.ElementTree as ET

    from PIL import Image

    from rofl.render.sheet import sheet_bytes
    from rofl.render.svg import puzzle_svg

    puzzle = make()
    svg = puzzle_svg(puzzle)
    assert svg == puzzle._repr_svg_() == sheet_bytes(puzzle, ".svg").decode()
    root = ET.fromstring(svg)
    ns = {"svg": "http://www.w3.org/2000/svg"}
    if puzzle.board.kind == "hexagon":
        assert len(root.findall(".//svg:g[@id='cells']/svg:polygon", ns)) == puzzle.n_cells
    else:
        paths = [root.find(f".//svg:path[@id='{kind}-lines']", ns).get("d") for kind in ("thin", "thick")]
        assert sum(path.count("M") for path in paths) == puzzle.n_lines + 2  # a line between and around cells
    image = Image.open(io.BytesIO(sheet_bytes(puzzle, ".png")))
    assert image.format == "PNG" and min(image.size) > 50
    assert sheet_bytes(puzzle, ".pdf").startswith(b"%PDF-")


@pytest.mark.parametrize("make", PUZZLES)
@pytest.mark.parametrize("suffix", [".svg", ".png", ".pdf"])
def test_a_sheet_refuses_a_solution_that_does_not_fit_either_shape(make, suffix):
    from rofl.errors import OptionError
    from rofl.render.sheet import sheet_bytes

    puzzle = make()
    board = puzzle.board
    with pytest.raises(OptionError, match=r"^the solution has shape \(3,\) but the puzzle is "):
        sheet_bytes(puzzle, suffix, solution=np.zeros(3, dtype=np.uint8))
    wrong = np.zeros(board.grid_shape, dtype=np.uint8)
    with pytest.raises(OptionError, match=r"^the solution does not fit the clues \((row|column|.* diagonal) \d+\)$"):
        sheet_bytes(puzzle, suffix, solution=wrong)
    with pytest.raises(OptionError, match=r"^the solution: .*outside the palette"):
        sheet_bytes(puzzle, suffix, solution=wrong + 9)


def test_the_solution_shape_messages_name_the_board():
    from rofl.errors import OptionError
    from rofl.render.layout import check_solution

    with pytest.raises(OptionError, match=r"has shape \(6, 4\) but the puzzle is 4 rows by 6 columns$"):
        check_solution(_rectangle_puzzle(), np.zeros((6, 4)))
    with pytest.raises(OptionError, match=r"has shape \(3,\) but the puzzle is a hexagon of side 3 of 19 cells$"):
        check_solution(_hexagon_puzzle(), np.zeros(3))
