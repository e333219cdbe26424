"""Palette and Puzzle: clue derivation against a naive reference, validation messages, value semantics."""

from __future__ import annotations

import pickle
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from rofl.errors import PuzzleError
from rofl.puzzle import MAX_COLORS, Palette, Puzzle
from tests import naive

RGB3 = Palette(["#fff", "#000", "#f00"])


# ---------------------------------------------------------------- from_grid


@settings(deadline=None, max_examples=200)
@given(
    arrays(np.uint8, st.tuples(st.integers(1, 30), st.integers(1, 30)), elements=st.integers(0, 5)),
)
def test_from_grid_matches_naive_clues(grid):
    palette = Palette([(i * 40, i * 40, i * 40) for i in range(6)])
    puzzle = Puzzle.from_grid(grid, palette)
    rows, cols = naive.clues_of_grid(grid)
    assert list(puzzle.rows) == rows
    assert list(puzzle.cols) == cols
    assert (puzzle.width, puzzle.height) == (grid.shape[1], grid.shape[0])
    # the flat arrays say the same as the tuples
    assert puzzle.lengths.dtype == np.int32 and puzzle.colors.dtype == np.uint8 and puzzle.offsets.dtype == np.int64
    for line in range(puzzle.n_lines):
        a, b = puzzle.offsets[line], puzzle.offsets[line + 1]
        assert list(zip(puzzle.lengths[a:b].tolist(), puzzle.colors[a:b].tolist(), strict=True)) == list(
            puzzle.clue(line)
        )
    assert puzzle == Puzzle(puzzle.width, puzzle.height, palette, rows, cols)
    assert puzzle.is_solution(grid)


def test_from_grid_example():
    grid = [[1, 1, 2, 0, 1], [0, 0, 0, 0, 0], [2, 0, 2, 2, 1]]
    p = Puzzle.from_grid(np.array(grid), RGB3)
    assert p.rows == (((2, 1), (1, 2), (1, 1)), (), ((1, 2), (2, 2), (1, 1)))
    assert p.cols == (((1, 1), (1, 2)), ((1, 1),), ((1, 2), (1, 2)), ((1, 2),), ((1, 1), (1, 1)))
    assert p.line_name(0) == "row 1" and p.line_name(3) == "column 1" and p.line_name(7) == "column 5"


def test_from_grid_errors():
    with pytest.raises(PuzzleError, match=r"two-dimensional, not of shape \(3,\)"):
        Puzzle.from_grid(np.zeros(3, dtype=np.uint8))
    with pytest.raises(PuzzleError, match=r"size 0x2: a puzzle needs at least one row and one column"):
        Puzzle.from_grid(np.zeros((2, 0), dtype=np.uint8))
    with pytest.raises(PuzzleError, match=r"integer palette indices, not float64"):
        Puzzle.from_grid(np.zeros((2, 2)))
    with pytest.raises(PuzzleError, match=r"row 2, column 3: value 3 is outside the palette \(3 colours\)"):
        Puzzle.from_grid(np.array([[0, 0, 0], [0, 1, 3]]), RGB3)
    with pytest.raises(PuzzleError, match=r"row 1, column 1: value -1 is outside the palette"):
        Puzzle.from_grid(np.array([[-1]]))


# ---------------------------------------------------------- validation errors


def _err(match: str):
    return pytest.raises(PuzzleError, match="^" + re.escape(match) + "$")


def test_clue_that_cannot_fit():
    with _err("row 2: clue needs 4 cells but the row has 3"):
        Puzzle(3, 2, RGB3, [[], [(2, 1), (1, 1)]], [[(1, 1)], [], [(1, 1)]])
    # the same pair of different colours may touch: 3 cells are enough
    Puzzle(3, 1, RGB3, [[(2, 1), (1, 2)]], [[(1, 1)], [(1, 1)], [(1, 2)]])
    with _err("column 2: clue needs 3 cells but the column has 2"):
        Puzzle(2, 2, RGB3, [[(1, 1)], [(1, 1)]], [[], [(1, 1), (1, 1)]])


def test_colour_outside_palette():
    with _err("column 2, group 1: colour 5 is outside the palette (3 colours, 0-2)"):
        Puzzle(2, 1, RGB3, [[(1, 1)]], [[(1, 1)], [(1, 5)]])
    with _err("row 1, group 2: colour 2 is outside the palette (2 colours, 0-1)"):
        Puzzle(3, 1, Palette.black_white(), [[(1, 1), (1, 2)]], [[], [], []])


def test_colour_zero_in_a_group():
    with _err("row 1, group 1: colour 0 is the background and cannot form a group"):
        Puzzle(2, 1, RGB3, [[(1, 0)]], [[], []])


def test_group_length_below_one():
    with _err("column 1, group 2: length 0 (every group needs at least 1 cell)"):
        Puzzle(1, 3, RGB3, [[], [], []], [[(1, 1), (0, 1)]])
    with _err("row 1, group 1: length -2 (every group needs at least 1 cell)"):
        Puzzle(3, 1, RGB3, [[(-2, 1)]], [[], [], []])


def test_totals_of_rows_and_columns_differ():
    with _err("colour 1: the rows hold 2 cells but the columns hold 1"):
        Puzzle(2, 2, RGB3, [[(1, 1)], [(1, 1)]], [[(1, 1)], []])
    with _err("colour 2: the rows hold 0 cells but the columns hold 1"):
        Puzzle(2, 1, RGB3, [[(1, 1)]], [[(1, 1)], [(1, 2)]])


def test_zero_size():
    with _err("size 0x3: a puzzle needs at least one row and one column"):
        Puzzle(0, 3, RGB3, [[], [], []], [])
    with _err("size 2x0: a puzzle needs at least one row and one column"):
        Puzzle(2, 0, RGB3, [], [[], []])
    with _err("size 'a'x2 is not two integers"):
        Puzzle("a", 2, RGB3, [[], []], [])


def test_wrong_number_of_clues():
    with _err("1 row clues for a puzzle 2 rows high"):
        Puzzle(1, 2, RGB3, [[]], [[]])
    with _err("3 column clues for a puzzle 2 columns wide"):
        Puzzle(2, 1, RGB3, [[]], [[], [], []])


def test_group_that_is_not_a_pair():
    with _err("column 1, group 1: 7 is not a (length, colour) pair"):
        Puzzle(1, 1, RGB3, [[]], [[7]])
    with _err("row 1, group 1: (1, 1, 1) is not a (length, colour) pair"):
        Puzzle(1, 1, RGB3, [[(1, 1, 1)]], [[(1, 1)]])


def test_from_arrays_errors():
    lengths, colors = np.array([1]), np.array([1])
    with _err("offsets must be 3 non-decreasing indices starting at 0"):
        Puzzle.from_arrays(1, 1, RGB3, lengths, colors, [0, 1])
    with _err("offsets must be 3 non-decreasing indices starting at 0"):
        Puzzle.from_arrays(1, 1, RGB3, lengths, colors, [0, 1, 0])
    with _err("lengths and colours must both hold 2 groups"):
        Puzzle.from_arrays(1, 1, RGB3, lengths, colors, [0, 1, 2])
    p = Puzzle.from_arrays(1, 1, RGB3, [1, 1], [2, 2], [0, 1, 2])
    assert p == Puzzle(1, 1, RGB3, [[(1, 2)]], [[(1, 2)]])


def test_palette_errors():
    with _err("the palette is empty: it needs at least the background colour"):
        Palette([])
    with _err(f"the palette has {MAX_COLORS + 1} colours; rofl supports at most {MAX_COLORS}"):
        Palette([(i, i, i) for i in range(MAX_COLORS + 1)])
    with _err("palette colour 1: '#12345' is not a colour (#rrggbb, #rgb or a CSS colour name)"):
        Palette(["#fff", "#12345"])
    with _err("palette colour 0: (1, 2) is not a colour (three integers 0-255)"):
        Palette([(1, 2)])
    with _err("palette colour 2: (0, 256, 0) has a component outside 0-255"):
        Palette(["#fff", "#000", (0, 256, 0)])
    with _err("2 row clues for a puzzle 1 rows high"):
        Puzzle(1, 1, [], [[], []], [[]])  # sizes are checked before the palette
    with _err("the palette is empty: it needs at least the background colour"):
        Puzzle(1, 1, [], [[]], [[]])


def test_max_colours_is_allowed():
    palette = Palette([(i, i, i) for i in range(MAX_COLORS)])
    grid = np.arange(MAX_COLORS, dtype=np.uint8).reshape(8, 8)
    from rofl.solver import solve

    result = solve(Puzzle.from_grid(grid, palette))
    assert result.status == "solved"
    np.testing.assert_array_equal(result.grid, grid)


# -------------------------------------------------------------- value object


def test_palette_value():
    p = Palette(["#FFF", (0, 0, 0), "#10a0ff"])
    assert p.hex() == ["#ffffff", "#000000", "#10a0ff"]
    assert p.to_array().dtype == np.uint8 and p.to_array().shape == (3, 3)
    assert Palette.from_array(p.to_array()) == p
    assert eval(repr(p), {"Palette": Palette}) == p
    assert len(p) == 3 and p[2] == (16, 160, 255) and list(p)[0] == (255, 255, 255)
    assert hash(p) == hash(Palette(p.hex()))


def test_puzzle_value():
    grid = np.array([[1, 0, 2], [1, 1, 0]])
    p = Puzzle.from_grid(grid, RGB3, meta={"title": "t"})
    q = Puzzle(3, 2, RGB3, p.rows, p.cols)
    assert p == q and hash(p) == hash(q)  # meta is not part of equality
    assert p.meta["title"] == "t"
    assert eval(repr(p), {"Puzzle": Puzzle, "Palette": Palette}) == p
    assert pickle.loads(pickle.dumps(p)) == p and pickle.loads(pickle.dumps(p)).meta == p.meta
    assert p != Puzzle(3, 2, Palette(["#fff", "#000", "#0f0"]), p.rows, p.cols)
    with pytest.raises(AttributeError, match="immutable"):
        p.width = 4
    with pytest.raises(ValueError, match="read-only"):
        p.lengths[0] = 5
    with pytest.raises(TypeError):
        p.meta["title"] = "u"
    assert not p.is_solution(np.zeros((2, 3), dtype=np.uint8))
    assert not p.is_solution(np.zeros((3, 2), dtype=np.uint8))
    assert not p.is_solution(np.full((2, 3), 7))
    assert p.is_solution(grid)
    assert p.unmet_line(grid) is None
    wrong = np.array(grid, copy=True)
    wrong[1, 2] = 0 if wrong[1, 2] else 1
    assert p.unmet_line(wrong) == 1  # row 2 is the first line the change breaks (then column 3)
    with pytest.raises(PuzzleError):
        p.unmet_line(np.full((2, 3), 7))


def test_values_that_are_not_clue_numbers():
    # no silent truncation of 1.5, no parsing of "2", no overflow tracebacks
    with _err("row 1, group 1: (1.5, 1) is not a (length, colour) pair"):
        Puzzle(2, 1, RGB3, [[(1.5, 1)]], [[(1, 1)], []])
    with _err("row 1, group 1: ('1', 1) is not a (length, colour) pair"):
        Puzzle(2, 1, RGB3, [[("1", 1)]], [[(1, 1)], []])
    with _err("row 1, group 1: (inf, 1) is not a (length, colour) pair"):
        Puzzle(2, 1, RGB3, [[(float("inf"), 1)]], [[(1, 1)], []])
    with _err(f"row 1, group 1: ({10**30}, 1) is out of range"):
        Puzzle(2, 1, RGB3, [[(10**30, 1)]], [[(1, 1)], []])
    with _err(f"column 2, group 1: (1, {-(10**30)}) is out of range"):
        Puzzle(2, 1, RGB3, [[(1, 1)]], [[(1, 1)], [(1, -(10**30))]])
    with _err("size 2.5x1 is not two integers"):
        Puzzle(2.5, 1, RGB3, [[]], [[], []])
    with _err(f"size {2**40}x1 is too large (at most 65535 cells a side)"):
        Puzzle(2**40, 1, RGB3, [[]], [])
    with _err("size 1x65536 is too large (at most 65535 cells a side)"):
        Puzzle(1, 65536, RGB3, [[]] * 65536, [[]])
    assert Puzzle(1, 65535, RGB3, [[]] * 65535, [[]]).height == 65535
    with _err("palette colour 0: (0, 0, inf) is not a colour (three integers 0-255)"):
        Palette([(0, 0, float("inf"))])
    # numpy integers are integers
    p = Puzzle(np.int64(2), np.uint8(1), RGB3, [[(np.int32(1), np.uint8(1))]], [[(1, 1)], []])
    assert p.rows == (((1, 1),),)


def test_one_check_refuses_booleans_as_whole_numbers():
    # issue 41: puzzle._integer and five `isinstance(x, bool) or not isinstance(x, int | np.integer)` checks
    from rofl._checks import is_real, is_whole, whole

    assert is_whole(3) and is_whole(np.int16(3)) and not is_whole(True) and not is_whole(np.bool_(True))
    assert not is_whole(1.0) and is_real(1.5) and is_real(np.float32(1)) and not is_real(False)
    assert whole(np.uint8(7)) == 7
    for value, message in ((True, "True is a boolean"), (np.False_, "is a boolean"), (1.5, "float"), ("2", "str")):
        with pytest.raises(TypeError, match=message):
            whole(value)
