"""Line logic and the complete search over index lines (hexagons, colour
sets) against brute force over every filling of small boards, and
against the rectangular solver where both apply."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rofl
from rofl.hexagon import HexPuzzle
from rofl.puzzle import Palette, Puzzle
from rofl.solver.index_lines import board_of, needs_lines, propagate_lines, search_lines
from tests import naive

PALETTES = {k: Palette([(60 * i, 0, 0) for i in range(k)]) for k in (2, 3, 4)}


def _lines_of(puzzle) -> list[list[int]]:
    board = board_of(puzzle)
    bounds = zip(board.line_offsets[:-1], board.line_offsets[1:], strict=True)
    return [board.line_cells[a:b].tolist() for a, b in bounds]


def _check_against_brute_force(puzzle):
    lines = _lines_of(puzzle)
    clues = [puzzle.clue(i) for i in range(puzzle.n_lines)]
    n_cells = board_of(puzzle).n_cells
    truth = set(naive.all_solutions(lines, clues, n_cells))
    result = rofl.solve_complete(puzzle, time_budget=None)
    found = {tuple(int(v) for v in s.ravel()) for s in result.solutions}
    assert found <= truth
    want = {0: "none", 1: "unique"}.get(len(truth), "multiple")
    assert result.status == want, (len(truth), result.status)
    assert len(found) == min(len(truth), 2)
    # line logic never removes a colour some solution needs
    line = rofl.solve(puzzle)
    masks = line.masks.ravel()
    for sol in truth:
        assert all(masks[c] >> v & 1 for c, v in enumerate(sol))
    if line.status == "solved":
        assert len(truth) == 1


@settings(deadline=None, max_examples=80)
@given(st.integers(1, 2), st.sampled_from([2, 3, 4]), st.data())
def test_hexagons_match_brute_force(side, k, data):
    n = 3 * side * (side - 1) + 1
    cells = np.array(data.draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n)))
    exact = HexPuzzle.from_cells(side, cells, PALETTES[k])
    hide = data.draw(st.lists(st.booleans(), min_size=exact.n_groups, max_size=exact.n_groups))
    puzzle = exact.with_unknown_colors(hide) if k > 2 else exact
    assert puzzle.is_solution(cells)
    _check_against_brute_force(puzzle)


@settings(deadline=None, max_examples=60)
@given(st.integers(1, 3), st.integers(1, 4), st.sampled_from([3, 4]), st.data())
def test_rectangles_with_question_marks_match_brute_force(h, w, k, data):
    grid = np.array(data.draw(st.lists(st.integers(0, k - 1), min_size=h * w, max_size=h * w))).reshape(h, w)
    exact = Puzzle.from_grid(grid, PALETTES[k])
    hide = data.draw(st.lists(st.booleans(), min_size=exact.n_groups, max_size=exact.n_groups))
    puzzle = exact.with_unknown_colors(hide)
    assert puzzle.is_solution(grid)
    _check_against_brute_force(puzzle)


def test_side_three_with_question_marks():
    rng = np.random.default_rng(3)
    for _ in range(6):
        cells = rng.integers(0, 3, 19)
        exact = HexPuzzle.from_cells(3, cells, PALETTES[3])
        _check_against_brute_force(exact.with_unknown_colors(rng.random(exact.n_groups) < 0.3))


def test_no_solution_and_budget():
    # a hexagon of side 2 whose middle row holds 3 cells but no diagonal any
    empty = [[], [], []]
    with pytest.raises(rofl.PuzzleError):
        HexPuzzle(2, PALETTES[2], [[], [(3, 1)], []], empty, empty)
    clash = HexPuzzle(2, PALETTES[2], [[(1, 1)], [], [(1, 1)]], [[(1, 1)], [], [(1, 1)]], [[], [(2, 1)], []])
    assert rofl.solve_complete(clash).status == "none"
    # an empty-ish hexagon with many solutions, and a node budget of 1
    many = HexPuzzle.from_cells(6, np.tile([1, 0], 46)[:91], PALETTES[2])
    got = rofl.solve_complete(many, node_budget=1)
    assert got.status in ("budget", "unique", "multiple")
    assert got.nodes <= 1
    with pytest.raises(rofl.OptionError, match="node_budget must be at least 1"):
        rofl.solve_complete(many, node_budget=0)


def test_same_answers_as_the_rectangular_solver():
    """Exact clues solved over index lines agree with the (H, W) kernels."""
    rng = np.random.default_rng(7)
    statuses = set()
    for _ in range(30):
        grid = (rng.random((8, 9)) < 0.5).astype(int)
        puzzle = Puzzle.from_grid(grid)
        assert not needs_lines(puzzle)
        rect = rofl.solve(puzzle)
        status, masks, _ = propagate_lines(puzzle)
        assert rect.status == ("solved", "stalled", "contradiction")[status] and np.array_equal(masks, rect.masks)
        if rect.status == "stalled":
            got, solutions, _ = search_lines(puzzle, masks, time_budget=None, node_budget=None)
            assert got == rofl.solve_complete(puzzle).status
            assert all(puzzle.is_solution(s) for s in solutions)
            statuses.add(got)
    assert "multiple" in statuses


def test_hexagon_results():
    cells = np.array([1, 0, 1, 1, 1, 0, 1])
    p = HexPuzzle.from_cells(2, cells)
    r = rofl.solve(p)
    assert r.masks.shape == (7,) and r.line_solves >= 9
    if r.solved:
        assert np.array_equal(r.grid, cells)
    c = rofl.solve_complete(p)
    assert c.status == "unique" and np.array_equal(c.grid, cells)
    with pytest.raises(rofl.PuzzleError, match=r"start masks have shape \(2, 2\), the puzzle's cells \(7,\)"):
        rofl.solve(p, start=np.zeros((2, 2)))
