"""Statuses are string enums: members of one type, equal to the strings they replace."""

from __future__ import annotations

import json

import numpy as np
import pytest

from rofl.puzzle import Palette, Puzzle
from rofl.solver import LineStatus, SearchStatus, solve, solve_complete
from rofl.solver.search import STATUSES


def test_statuses_compare_and_print_as_their_strings():
    for member, text in (
        (LineStatus.SOLVED, "solved"),
        (LineStatus.STALLED, "stalled"),
        (LineStatus.CONTRADICTION, "contradiction"),
        (SearchStatus.UNIQUE, "unique"),
        (SearchStatus.MULTIPLE, "multiple"),
        (SearchStatus.NONE, "none"),
        (SearchStatus.BUDGET, "budget"),
        (SearchStatus.FOUND, "found"),
    ):
        assert member == text and text == member
        assert str(member) == text and f"{member}" == text
        assert hash(member) == hash(text)  # usable as a key where strings were
        assert json.dumps(member) == json.dumps(text)
    assert STATUSES == ("unique", "multiple", "none", "budget", "found")
    assert LineStatus.SOLVED != SearchStatus.UNIQUE


@pytest.mark.parametrize(
    ("grid", "line", "search"),
    [
        (np.array([[1, 0], [0, 0]]), LineStatus.SOLVED, SearchStatus.UNIQUE),
        (np.eye(2, dtype=np.uint8), LineStatus.STALLED, SearchStatus.MULTIPLE),
    ],
)
def test_solvers_return_enum_members(grid, line, search):
    puzzle = Puzzle.from_grid(grid)
    result = solve(puzzle)
    assert type(result.status) is LineStatus and result.status is line
    complete = solve_complete(puzzle)
    assert type(complete.status) is SearchStatus and complete.status is search
    assert type(complete.line_status) is LineStatus and complete.line_status is line


def test_contradiction_and_line_logic_only():
    # row 1's "1 1" needs column 3, which is empty
    puzzle = Puzzle(3, 3, Palette.black_white(), rows=[[(1, 1), (1, 1)], [(1, 1)], []], cols=[[(2, 1)], [(1, 1)], []])
    complete = solve_complete(puzzle)
    assert complete.line_status is LineStatus.CONTRADICTION and complete.status is SearchStatus.NONE
    assert complete.bad_line is not None
    # search=False stops after line logic: a stalled puzzle is not proved anything
    stalled = solve_complete(Puzzle.from_grid(np.eye(3, dtype=np.uint8)), search=False)
    assert stalled.status is SearchStatus.BUDGET and stalled.line_status is LineStatus.STALLED
    assert stalled.nodes == 0 and stalled.solutions == [] and stalled.undetermined == 9
