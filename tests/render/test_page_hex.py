"""The page's logic on hexagons and ``?`` groups, run in V8 (test_page.py's engine).

Boards of index lines against :class:`rofl.hexagon.Hexagon`, the solved
check against ``HexPuzzle.is_solution``, the line programme over colour
sets against brute force and rofl's compiled line solver, lineSolve and
hints against rofl's line logic for hexagons
(:func:`rofl.solver.index_lines.propagate_lines`), and a drag's straight run.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rofl.hexagon import Hexagon, HexPuzzle
from rofl.kernels.structs import CONTRADICTION
from rofl.puzzle import Palette
from rofl.render.page import page_data
from rofl.solver import solve_line
from rofl.solver.index_lines import propagate_lines
from tests.naive import brute_line_sets, fillings
from tests.render import test_page
from tests.render.test_page import mask_states, player_masks, py_clue

js = test_page.js  # the V8 engine fixture, shared

BW = Palette.black_white()
THREE = Palette(["#ffffff", "#000000", "#d02030", "#3050d0"])
SETTINGS = {"deadline": None, "suppress_health_check": [HealthCheck.function_scoped_fixture]}


def star(side: int = 3) -> np.ndarray:
    """The three lines through the centre: line-solvable, with a run in every direction."""
    return np.array([int(q == 0 or r == 0 or s == 0) for q, r, s in Hexagon.of(side).coords])


def states(cells) -> list[int]:
    """A filling as a finished player's cells: background marked with dots."""
    return [int(v) if v else -1 for v in cells]


def as_sets(clue) -> list[list]:
    """A page clue (a set as a list) as rofl's: a set as a frozenset."""
    return [(n, frozenset(c) if isinstance(c, list) else c) for n, c in clue]


@st.composite
def hex_fillings(draw, max_side: int = 4, palettes=(BW, THREE)):
    palette = draw(st.sampled_from(palettes))
    side = draw(st.integers(1, max_side))
    n = Hexagon.of(side).n_cells
    values = st.sampled_from([0, 0, *range(1, len(palette))])
    cells = np.array(draw(st.lists(values, min_size=n, max_size=n)), dtype=np.int64)
    return side, palette, cells


def with_questions(puzzle, data):
    """``puzzle`` with some groups' colours turned to ``?`` (colour puzzles only)."""
    if puzzle.n_colors <= 2 or puzzle.n_groups == 0:
        return puzzle
    which = data.draw(st.lists(st.booleans(), min_size=puzzle.n_groups, max_size=puzzle.n_groups), label="?")
    return puzzle.with_unknown_colors(np.array(which, dtype=bool))


# ---------------------------------------------------------------- boards


@pytest.mark.parametrize("side", [1, 2, 3, 5, 8])
def test_hexagon_lines_are_rofls(js, side):
    board = Hexagon.of(side)
    puzzle = HexPuzzle.from_cells(side, np.zeros(board.n_cells, np.int64))
    got = js.call("boardOf", page_data(puzzle, "t"))
    assert got["n"] == board.n_cells
    assert [line["cells"] for line in got["lines"]] == [board.line(i).tolist() for i in range(board.n_lines)]
    per = 2 * side - 1
    assert [line["kind"] for line in got["lines"]] == ["row"] * per + ["falling"] * per + ["rising"] * per
    assert [line["index"] for line in got["lines"]] == list(range(per)) * 3
    through = [sorted(i for i in range(board.n_lines) if c in board.line(i)) for c in range(board.n_cells)]
    assert got["ofCell"] == through
    assert js.call("hexGeometry", side)["coords"] == board.coords[:, :2].tolist()


def test_rectangle_lines_are_rows_then_columns(js):
    from rofl.puzzle import Puzzle

    got = js.call("boardOf", page_data(Puzzle.from_grid(np.eye(3, 2, dtype=np.uint8)), "t"))
    assert [line["cells"] for line in got["lines"]] == [[0, 1], [2, 3], [4, 5], [0, 2, 4], [1, 3, 5]]
    assert [line["kind"] for line in got["lines"]] == ["row"] * 3 + ["column"] * 2


# --------------------------------------------------------- solved, statuses


@given(hex_fillings(), st.data())
@settings(max_examples=150, **SETTINGS)
def test_solved_check_agrees_with_is_solution(js, case, data):
    side, palette, cells = case
    puzzle = with_questions(HexPuzzle.from_cells(side, cells, palette), data)
    spec = page_data(puzzle, "t")
    assert js.call("isSolved", spec, states(cells)) is True
    report = js.call("gridReport", spec, states(cells))
    assert report["solved"] and not report["wrong"] and not report["unfit"]
    assert len(report["rows"]) == len(report["falling"]) == len(report["rising"]) == 2 * side - 1
    # some cells changed: solved exactly when rofl says the filling is a solution
    player = cells.copy()
    for i in data.draw(st.lists(st.integers(0, len(cells) - 1), max_size=4), label="flips"):
        player[i] = data.draw(st.integers(0, len(palette) - 1))
    expected = puzzle.is_solution(player)
    assert js.call("isSolved", spec, states(player)) is expected
    report = js.call("gridReport", spec, states(player))
    assert report["solved"] is expected
    board = Hexagon.of(side)
    for i in report["unfitLines"]:
        assert board.line_name(i) in report["unfit"]


def test_question_mark_groups_take_any_colour_of_their_set(js):
    assert js.call("clueMatches", [[2, 3]], [[2, [1, 3]]]) is True
    assert js.call("clueMatches", [[2, 2]], [[2, [1, 3]]]) is False
    assert js.call("clueMatches", [[2, 3], [1, 1]], [[2, [1, 3]], [1, 1]]) is True
    assert js.call("clueMatches", [[2, 3]], [[2, [1, 3]], [1, 1]]) is False
    # a set's colour still keeps the gap rule: two 1s of one colour need a gap
    assert js.call("lineFits", [0, 0], [[1, [1, 2]], [1, 1]]) is True  # colour 2 then 1
    assert js.call("lineDeductions", [0, 0], [[1, [1, 2]], [1, 1]], 3) == [[2], [1]]
    assert js.call("lineFits", [1, 0], [[1, [1, 2]], [1, 1]]) is False
    assert js.call("lineStatus", [3, 3, 0], [[2, [1, 3]]]) == "done"
    assert js.call("lineStatus", [2, 2, 0], [[2, [1, 3]]]) == "wrong"  # as much ink as the clue, wrong colour
    assert js.call("lineStatus", [1, 0, 0, 0], [[2, [1, 3]]]) == "open"


@st.composite
def set_lines(draw):
    """A short line of a player's marks and a clue with colour sets (often one of a filling of it)."""
    n_colors = draw(st.integers(3, 4))
    n = draw(st.integers(1, 6))
    f, by_clue = fillings(n, n_colors)
    filling = f[draw(st.integers(0, len(f) - 1), label="filling")]
    shown = draw(st.lists(st.sampled_from("uus"), min_size=n, max_size=n), label="shown")
    other = draw(st.lists(st.integers(-1, n_colors - 1), min_size=n, max_size=n), label="other")
    cells = [0 if s == "u" else (-1 if v == 0 else int(v)) for s, v in zip(shown, filling, strict=True)]
    if draw(st.booleans(), label="a mistake"):
        k = draw(st.integers(0, n - 1))
        cells[k] = other[k]
    clue = []
    for length, colour in py_clue(filling):
        extra = draw(st.lists(st.integers(1, n_colors - 1), max_size=2), label="set")
        choice = sorted({colour, *extra})
        clue.append([length, choice if len(choice) > 1 else colour])
    return n_colors, cells, clue


@given(set_lines())
@settings(max_examples=400, **SETTINGS)
def test_line_logic_over_colour_sets_agrees_with_brute_force(js, case):
    n_colors, cells, clue = case
    want = brute_line_sets(player_masks(cells, n_colors), as_sets(clue), n_colors)
    got = js.call("lineDeductions", cells, clue, n_colors)
    assert got == (None if want is None else mask_states(want, n_colors))
    assert js.call("lineFits", cells, clue) is (want is not None)
    status = js.call("lineStatus", cells, clue)
    if status == "wrong":  # never for a line that could still be completed
        assert want is None
    # rofl's compiled line solver, which reads sets too
    solver = solve_line(np.array(player_masks(cells, n_colors)), as_sets(clue), n_colors=n_colors)
    assert (solver is None) is (want is None)
    if solver is not None:
        assert mask_states(solver, n_colors) == got


# -------------------------------------------------------- solution, hints


def fixpoint(puzzle, start=None) -> tuple[bool, list[int] | None]:
    """rofl's line logic for hexagons from ``start`` (page states): complete, and the cells as page states."""
    masks = None
    if start is not None:
        masks = np.array(player_masks(start, puzzle.n_colors), dtype=np.int64)
    status, masks, _ = propagate_lines(puzzle, masks)
    if status == CONTRADICTION:
        return False, None
    single = (masks & (masks - 1)) == 0
    colour = np.log2(np.where(single, masks, 1)).astype(np.int64)
    return bool(single.all()), [(-1 if c == 0 else int(c)) if s else 0 for s, c in zip(single, colour, strict=True)]


@given(hex_fillings(max_side=5), st.data())
@settings(max_examples=80, **SETTINGS)
def test_line_solve_reaches_rofls_fixpoint(js, case, data):
    side, palette, cells = case
    puzzle = with_questions(HexPuzzle.from_cells(side, cells, palette), data)
    complete, reached = fixpoint(puzzle)
    got = js.call("lineSolve", page_data(puzzle, "t"))
    assert got is not None and reached is not None  # the filling is a solution
    assert got["grid"] == reached
    assert got["complete"] is complete
    if complete:
        assert puzzle.is_solution(np.maximum(np.array(got["grid"]), 0))


def follow_hints(js, puzzle, start: list[int]) -> tuple[dict | None, list[int]]:
    spec = page_data(puzzle, "hints")
    grid = list(start)
    for _ in range(len(grid) + 1):
        answer = js.call("hint", spec, grid)
        if answer is None or "contradiction" in answer:
            return answer, grid
        for i, state in answer["cells"]:
            assert grid[i] == 0
            grid[i] = state
    pytest.fail("more hints than cells")


@pytest.mark.parametrize("question", [False, True], ids=["plain", "with ?"])
def test_hints_solve_a_line_solvable_hexagon(js, question):
    cells = star(4)
    colours = np.where(cells == 0, 0, 1 + np.arange(len(cells)) % 3)
    puzzle = HexPuzzle.from_cells(4, colours, THREE)
    if question:
        puzzle = puzzle.with_unknown_colors(np.arange(puzzle.n_groups) % 2 == 0)
        assert puzzle.has_color_sets
    complete, truth = fixpoint(puzzle)
    assert complete  # the premise
    answer, reached = follow_hints(js, puzzle, [0] * len(cells))
    assert answer is None and reached == truth == states(colours)
    first = js.call("hint", page_data(puzzle, "t"), [0] * len(cells))
    assert first["line"]["kind"] in ("row", "falling", "rising") and first["cells"]


def test_a_wrong_mark_ends_in_a_contradiction_or_a_stall(js):
    puzzle = HexPuzzle.from_cells(3, star())
    spec = page_data(puzzle, "t")
    truth = states(star())
    ends = set()
    for i in range(len(truth)):
        start = [0] * len(truth)
        start[i] = 1 if truth[i] == -1 else -1
        answer, reached = follow_hints(js, puzzle, start)
        assert js.call("isSolved", spec, reached) is False
        complete, fix = fixpoint(puzzle, start)
        if answer is None:
            assert fix is not None and reached == fix
            ends.add("stalled")
        else:
            assert fix is None and answer["contradiction"]["kind"] in ("row", "falling", "rising")
            ends.add("contradiction")
    assert "contradiction" in ends


def test_storage_keys_tell_shapes_apart(js):
    from rofl.puzzle import Puzzle

    hexagon = page_data(HexPuzzle.from_cells(1, np.array([1])), "t")
    square = page_data(Puzzle.from_grid(np.ones((1, 1), np.uint8)), "t")
    keys = {js.call("storageKey", hexagon), js.call("storageKey", square)}
    assert len(keys) == 2
    other = page_data(HexPuzzle.from_cells(2, star(2)), "another title")
    assert js.call("storageKey", other) == js.call("storageKey", page_data(HexPuzzle.from_cells(2, star(2)), "t"))


# ------------------------------------------------------------------ drags


def py_stroke(side: int, start: int, dx: float, dy: float) -> list[int]:
    """hexStrokeCells from its definition: the direction of the longest projection, then cell by cell."""
    board = Hexagon.of(side)
    h = math.sqrt(3) / 2
    directions = [((1, 0), dx), ((0, 1), 0.5 * dx + h * dy), ((-1, 1), -0.5 * dx + h * dy)]
    (dq, dr), along = max(directions, key=lambda d: abs(d[1]))  # the first of equals: rows, then falling
    steps = round(along)
    sign = -1 if steps < 0 else 1
    q, r, _ = board.coords[start].tolist()
    out = [start]
    m = side - 1
    for k in range(1, abs(steps) + 1):
        qq, rr = q + sign * k * dq, r + sign * k * dr
        if max(abs(qq), abs(rr), abs(qq + rr)) > m:
            break
        out.append(board.cell(qq, rr))
    return out


@given(st.integers(1, 6), st.data(), st.floats(-12, 12), st.floats(-12, 12))
@settings(max_examples=300, **SETTINGS)
def test_drags_run_straight_along_a_line(js, side, data, dx, dy):
    board = Hexagon.of(side)
    start = data.draw(st.integers(0, board.n_cells - 1), label="start")
    # away from the ties between directions, where float rounding may go either way
    h = math.sqrt(3) / 2
    along = sorted(abs(v) for v in (dx, 0.5 * dx + h * dy, -0.5 * dx + h * dy))
    if along[2] - along[1] < 1e-6 or abs(along[2] % 1 - 0.5) < 1e-6:
        return
    path = js.call("hexStrokeCells", side, start, dx, dy)
    assert path == py_stroke(side, start, dx, dy)
    assert path[0] == start
    # every cell of the run is on one line through the start, in order
    lines = [board.line(i).tolist() for i in range(board.n_lines)]
    assert any(all(c in line for c in path) for line in lines)


def test_drag_examples(js):
    # side 3: the centre is cell 9; row 0 is cells 7-11
    assert js.call("hexStrokeCells", 3, 9, 2.1, 0.2) == [9, 10, 11]
    assert js.call("hexStrokeCells", 3, 9, -5, 0) == [9, 8, 7]  # stops at the board's edge
    assert js.call("hexStrokeCells", 3, 9, 0.5, 0.9) == [9, 14]  # down-right: the falling diagonal
    assert js.call("hexStrokeCells", 3, 9, -1, 1.75) == [9, 13, 16]  # down-left: the rising diagonal
    assert js.call("hexStrokeCells", 3, 16, 2, -3.5) == [16, 13, 9, 5, 2]  # up-right along it
    assert js.call("hexStrokeCells", 3, 0, 0.2, 0.1) == [0]
