"""Hexagonal boards, HexPuzzle, and groups whose colour is a set (``?``):
geometry and clues against the slow references in tests/naive.py,
validation messages that name the line, value semantics."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rofl
from rofl.errors import FormatError, PuzzleError
from rofl.formats import write_puzzle
from rofl.hexagon import MAX_HEX_SIDE, Hexagon, HexPuzzle
from rofl.puzzle import Palette, Puzzle
from tests import naive

RGB3 = Palette(["#fff", "#000", "#f00"])
RGB4 = Palette(["#fff", "#000", "#f00", "#00f"])
ANY3 = frozenset({1, 2})

# ------------------------------------------------------------------- board


@pytest.mark.parametrize("side", [1, 2, 3, 4, 7])
def test_board_matches_naive(side):
    board = Hexagon.of(side)
    assert board.n_cells == 3 * side * (side - 1) + 1
    assert [tuple(c) for c in board.coords.tolist()] == naive.hex_cells(side)
    assert [board.line(i).tolist() for i in range(board.n_lines)] == naive.hex_lines(side)
    assert board.n_lines == 3 * (2 * side - 1)
    # every cell lies on exactly one line of each direction
    per = 2 * side - 1
    for d in range(3):
        cells = np.concatenate([board.line(i) for i in range(d * per, (d + 1) * per)])
        assert sorted(cells.tolist()) == list(range(board.n_cells))
    # neighbours along a line are one step apart in the line's direction
    steps = [(1, 0, -1), (0, 1, -1), (-1, 1, 0)]
    for i in range(board.n_lines):
        c = board.coords[board.line(i)]
        assert all(tuple(v) == steps[i // per] for v in np.diff(c, axis=0).tolist())


def test_board_names_and_cells():
    board = Hexagon.of(3)
    assert [board.line_name(i) for i in (0, 4, 5, 9, 10, 14)] == [
        "row 1",
        "row 5",
        "falling diagonal 1",
        "falling diagonal 5",
        "rising diagonal 1",
        "rising diagonal 5",
    ]
    assert board.cell(0, -2) == 0 and board.cell(0, 0) == 9 and board.cell(0, 2) == 18
    assert [board.line_length(i) for i in range(5)] == [3, 4, 5, 4, 3]
    assert Hexagon.of(3) is board
    with pytest.raises(PuzzleError, match=r"cell \(q=2, r=1\) is outside a hexagon of side 3"):
        board.cell(2, 1)
    with pytest.raises(AttributeError):
        board.side = 4  # type: ignore[misc]


@pytest.mark.parametrize(
    ("side", "message"),
    [(0, "side 0: a hexagonal puzzle needs a side of at least 1 cell"), (1.5, "side 1.5 is not an integer"),
     (MAX_HEX_SIDE + 1, f"side {MAX_HEX_SIDE + 1} is too large")],
)  # fmt: skip
def test_bad_sides(side, message):
    with pytest.raises(PuzzleError, match=message):
        Hexagon.of(side)


# -------------------------------------------------------------- HexPuzzle


@st.composite
def filled_boards(draw, max_side=6, max_colors=4):
    side = draw(st.integers(1, max_side))
    k = draw(st.integers(2, max_colors))
    n = 3 * side * (side - 1) + 1
    cells = np.array(draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n)), dtype=np.int64)
    return side, k, cells


@settings(deadline=None, max_examples=150)
@given(filled_boards())
def test_clues_of_a_board_match_naive(board):
    side, k, cells = board
    palette = Palette([(40 * i, 0, 0) for i in range(k)])
    puzzle = HexPuzzle.from_cells(side, cells, palette)
    lines = naive.hex_lines(side)
    assert [puzzle.clue(i) for i in range(puzzle.n_lines)] == [naive.clue_of(cells[line]) for line in lines]
    per = 2 * side - 1
    assert puzzle.rows + puzzle.falling + puzzle.rising == tuple(puzzle.clue(i) for i in range(3 * per))
    assert puzzle.is_solution(cells) and puzzle.unmet_line(cells) is None
    # value semantics: rebuilt from its clues, its repr, its pickle
    assert HexPuzzle(side, palette, puzzle.rows, puzzle.falling, puzzle.rising) == puzzle
    assert puzzle.n_groups > 60 or eval(repr(puzzle), {"HexPuzzle": HexPuzzle, "Palette": Palette}) == puzzle
    again = pickle.loads(pickle.dumps(puzzle))
    assert again == puzzle and hash(again) == hash(puzzle)
    # another filling with other clues is no solution, and the line named is one it breaks
    other = cells.copy()
    other[0] = (other[0] + 1) % k
    bad = puzzle.unmet_line(other)
    if bad is None:
        assert HexPuzzle.from_cells(side, other, palette) == puzzle
    else:
        assert naive.clue_of(other[lines[bad]]) != puzzle.clue(bad)
        assert not puzzle.is_solution(other)


def test_hex_puzzle_is_no_rectangle():
    one = HexPuzzle.from_cells(1, np.array([1]))
    assert one != Puzzle.from_grid(np.array([[1]]))
    assert not isinstance(one, Puzzle)
    assert one.rows == one.falling == one.rising == (((1, 1),),)
    assert rofl.HexPuzzle is HexPuzzle and rofl.Hexagon is Hexagon
    assert rofl.solve(one).status == "solved"
    with pytest.raises(PuzzleError, match="the rectangular kernels cannot read a hexagonal puzzle"):
        rofl.LineSolver().solve(one)
    with pytest.raises(AttributeError, match="HexPuzzle is immutable"):
        one.side = 2  # type: ignore[misc]


def test_hex_validation_names_the_line():
    empty = [[], [], []]
    with pytest.raises(PuzzleError, match=r"2 clues for the falling diagonals of a hexagon of side 2, which has 3"):
        HexPuzzle(2, RGB3, empty, [[], []], empty)
    with pytest.raises(PuzzleError, match=r"^rising diagonal 2: clue needs 4 cells but the rising diagonal has 3$"):
        HexPuzzle(2, RGB3, empty, empty, [[], [(2, 1), (1, 1)], []])
    with pytest.raises(PuzzleError, match=r"^falling diagonal 1: clue needs 3 cells but the falling diagonal has 2$"):
        HexPuzzle(2, RGB3, empty, [[(1, 1), (1, 1)], [], []], empty)
    with pytest.raises(PuzzleError, match=r"^row 3, group 1: colour 3 is outside the palette"):
        HexPuzzle(2, RGB3, [[], [], [(1, 3)]], empty, empty)
    with pytest.raises(PuzzleError, match=r"^colour 1: the rows hold 3 cells but the falling diagonals hold 0$"):
        HexPuzzle(2, RGB3, [[], [(3, 1)], []], empty, empty)
    with pytest.raises(PuzzleError, match=r"^colour 2: the rows hold 1 cells but the rising diagonals hold 0$"):
        HexPuzzle(2, RGB3, [[], [(1, 2)], []], [[], [(1, 2)], []], empty)
    with pytest.raises(PuzzleError, match=r"a hexagon of side 2 has 7 cells, not an array of shape \(6,\)"):
        HexPuzzle.from_cells(2, np.zeros(6, dtype=int))
    with pytest.raises(PuzzleError, match=r"cell 3 \(q=0, r=0, s=0\): value 2 is outside the palette"):
        HexPuzzle.from_cells(2, np.array([0, 0, 0, 2, 0, 0, 0]))
    with pytest.raises(PuzzleError, match=r"offsets must be 10 non-decreasing indices"):
        HexPuzzle.from_arrays(2, RGB3, [], [], np.zeros(4, dtype=int))


# ------------------------------------------------------------ colour sets


def test_question_mark_is_the_set_of_every_ink():
    p = Puzzle(3, 1, RGB3, [[(1, "?"), (1, " ? ")]], [[(1, 1)], [], [(1, 2)]])
    assert p.rows == (((1, ANY3), (1, ANY3)),)
    assert p.has_color_sets and p.colors.tolist()[:2] == [0, 0] and p.color_sets.tolist() == [6, 6, 0, 0]
    assert p == Puzzle(3, 1, RGB3, [[(1, {1, 2}), (1, [2, 1])]], [[(1, 1)], [], [(1, 2)]])
    assert p.is_solution(np.array([[1, 0, 2]]))
    assert not p.is_solution(np.array([[2, 0, 1]]))  # the columns say otherwise
    assert p.unmet_line(np.array([[2, 0, 1]])) == 1
    # a set of one colour is that colour: equal puzzles compare equal
    q = Puzzle(3, 1, RGB3, [[(1, {1}), (1, frozenset({2}))]], [[(1, 1)], [], [(1, 2)]])
    assert not q.has_color_sets and q == Puzzle.from_grid(np.array([[1, 0, 2]]), RGB3)
    assert eval(repr(p), {"Puzzle": Puzzle, "Palette": Palette}) == p
    assert pickle.loads(pickle.dumps(p)) == p
    assert Puzzle.from_arrays(3, 1, RGB3, p.lengths, p.colors, p.offsets, color_sets=p.color_sets) == p
    assert Puzzle.from_arrays(3, 1, RGB3, p.lengths, p.colors, p.offsets, color_sets=p.color_sets.view(np.int64)) == p


def test_touching_groups_of_a_set():
    # "1a 1? 1b": the ? touches both neighbours when the row has 3 cells, and
    # can differ from neither, so the clue needs a gap: 4 cells
    rows = [[(1, 1), (1, "?"), (1, 2)]]
    with pytest.raises(PuzzleError, match=r"^row 1: clue needs 4 cells but the row has 3$"):
        Puzzle(3, 1, RGB3, rows, [[(1, 1)], [(1, "?")], [(1, 2)]])
    # two touching ?s differ, so they fit 2 cells
    p = Puzzle(2, 1, RGB3, [[(1, "?"), (1, "?")]], [[(1, "?")], [(1, "?")]])
    assert p.is_solution(np.array([[1, 2]])) and p.is_solution(np.array([[2, 1]]))
    assert not p.is_solution(np.array([[1, 1]]))  # one group of 2, not two of 1
    assert not p.is_solution(np.array([[0, 1]]))


def test_a_set_accepts_every_colour_it_allows():
    grid = np.array([[1, 1, 0, 2], [0, 3, 3, 2]])
    exact = Puzzle.from_grid(grid, RGB4)
    rows = [[(n, "?") for n, _ in line] for line in exact.rows]
    p = Puzzle(4, 2, RGB4, rows, exact.cols)
    assert p.is_solution(grid)
    assert not p.is_solution(np.array([[1, 1, 0, 2], [0, 3, 3, 3]]))  # column 4 says 2 cells of colour 2
    assert p.unmet_line(np.array([[1, 1, 0, 2], [0, 3, 3, 3]])) == 1


@settings(deadline=None, max_examples=200)
@given(
    st.lists(
        st.tuples(
            st.integers(1, 4),
            st.sampled_from([1, 2, 3, frozenset({1, 2}), frozenset({2, 3}), frozenset({1, 2, 3})]),
        ),
        min_size=1,
        max_size=5,
    )
)
def test_cells_a_clue_needs_match_naive(clue):
    need = naive.min_cells(clue)
    # a row of `need` cells takes the clue (only the totals may then
    # disagree, the columns being empty); one cell fewer does not
    for width in (need - 1, need):
        if width < 1:
            continue
        try:
            Puzzle(width, 1, RGB4, [clue], [[] for _ in range(width)])
        except PuzzleError as e:
            fits = "clue needs" not in str(e)
            if not fits:
                assert str(e) == f"row 1: clue needs {need} cells but the row has {width}"
        else:
            fits = True
        assert fits == (width >= need)


@pytest.mark.parametrize(
    ("rows", "cols", "message"),
    [
        (
            [[(1, "?")]],
            [[(1, 1)]],
            r"^row 1, group 1: '\?' means any ink colour, but the puzzle has only one",
        ),
        ([[(1, set())]], [[(1, 1)]], r"^row 1, group 1: an empty set of colours allows no colour at all$"),
        ([[(1, {0, 1})]], [[(1, 1)]], r"^row 1, group 1: colour 0 is the background and cannot form a group$"),
        ([[(1, {1, 5})]], [[(1, 1)]], r"^row 1, group 1: colour 5 is outside the palette \(2 colours, 0-1\)$"),
        ([[(1, "x")]], [[(1, 1)]], r"^row 1, group 1: \(1, 'x'\) is not a \(length, colour\) pair$"),
        ([[(1, {1.5})]], [[(1, 1)]], r"^row 1, group 1: colour \{1.5\} is not a palette index, a set of them or '\?'$"),
    ],
)
def test_colour_set_errors_in_black_and_white(rows, cols, message):
    with pytest.raises(PuzzleError, match=message):
        Puzzle(1, 1, Palette.black_white(), rows, cols)


def test_totals_with_colour_sets():
    with pytest.raises(PuzzleError, match=r"^the rows hold 2 ink cells but the columns hold 1$"):
        Puzzle(2, 1, RGB3, [[(2, "?")]], [[(1, 1)], []])
    with pytest.raises(PuzzleError, match=r"^colour 1: the columns hold at least 2 cells of it but the rows at most 0"):
        Puzzle(2, 1, RGB4, [[(2, {2, 3})]], [[(1, 1)], [(1, 1)]])
    # within what the sets allow: accepted
    Puzzle(2, 1, RGB4, [[(1, {1, 2}), (1, {1, 3})]], [[(1, 1)], [(1, 1)]])
    HexPuzzle(2, RGB3, [[], [(3, 1)], []], [[], [(3, "?")], []], [[], [(3, 1)], []])
    with pytest.raises(PuzzleError, match=r"^colour 1: the rows hold at least 3 cells of it but the falling"):
        HexPuzzle(2, RGB4, [[], [(3, 1)], []], [[], [(3, {2, 3})], []], [[], [(3, 1)], []])


def test_sets_are_refused_where_not_read_yet(tmp_path):
    p = Puzzle(2, 1, RGB3, [[(1, "?"), (1, "?")]], [[(1, "?")], [(1, "?")]])
    assert rofl.solve_complete(p).status == "multiple"
    with pytest.raises(PuzzleError, match=r"^row 1 has a group of several possible colours \('\?'\), which the rect"):
        rofl.LineSolver().solve(p)
    with pytest.raises(FormatError, match=r"the \.non format cannot hold groups of several possible colours"):
        write_puzzle(tmp_path / "p.non", p)
    with pytest.raises(FormatError, match=r"cannot hold a hexagonal puzzle"):
        write_puzzle(tmp_path / "p.non", HexPuzzle.from_cells(1, np.array([1])))
    assert not (tmp_path / "p.non").exists()


def test_with_unknown_colors():
    grid = np.array([[1, 1, 0, 2], [0, 3, 3, 2]])
    exact = Puzzle.from_grid(grid, RGB4)
    hide = np.arange(exact.n_groups) < exact.offsets[exact.height]  # the rows' groups
    p = exact.with_unknown_colors(hide)
    assert p == Puzzle(4, 2, RGB4, [[(n, "?") for n, _ in line] for line in exact.rows], exact.cols)
    assert p.with_unknown_colors([False] * p.n_groups) == p  # sets already there stay
    assert exact.with_unknown_colors([False] * exact.n_groups) == exact
    board = HexPuzzle.from_cells(2, np.array([1, 2, 0, 1, 1, 2, 0]), RGB3)
    hidden = board.with_unknown_colors(np.ones(board.n_groups, dtype=bool))
    assert isinstance(hidden, HexPuzzle) and all(c == ANY3 for line in hidden.rows for _, c in line)
    assert hidden.is_solution(np.array([1, 2, 0, 1, 1, 2, 0]))
    with pytest.raises(PuzzleError, match=r"\(2,\) flags for a puzzle of 9 groups"):
        exact.with_unknown_colors([True, False])
    with pytest.raises(PuzzleError, match=r"'\?' means any ink colour, but the puzzle has only one"):
        Puzzle.from_grid(np.eye(2, dtype=int)).with_unknown_colors([True] * 4)
