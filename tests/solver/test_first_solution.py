"""The first-solution mode (``solve_complete(..., solutions=1)``): any one
solution, checked against brute force, by the search, by the SAT engine and
after a hand-over; and the hand-over after ``search.HANDOVER_NODES`` nodes."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rofl
from rofl.errors import OptionError
from rofl.puzzle import Palette, Puzzle
from rofl.solver import search
from rofl.solver.sat import solve_sat
from rofl.solver.status import SearchStatus
from tests.naive import puzzle_solutions
from tests.solver.puzzles import PALETTES, small_puzzles, sparse_puzzles


def _check_first(puzzle: Puzzle, result_status, solutions, truth, *, line_solved: bool = False) -> None:
    got = [tuple(int(v) for v in g.ravel()) for g in solutions]
    if not truth:
        assert result_status == SearchStatus.NONE and not got
        return
    assert len(got) == 1 and got[0] in truth
    expected = SearchStatus.UNIQUE if line_solved else SearchStatus.FOUND
    assert result_status == expected


@settings(deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(small_puzzles(), st.sampled_from(["search", "sat", "hand-over"]))
def test_one_solution_is_a_solution(puzzle, how):
    truth = set(puzzle_solutions(puzzle))
    if how == "sat":
        result = rofl.solve_complete(puzzle, time_budget=None, engine="sat", solutions=1)
        _check_first(puzzle, result.status, result.solutions, truth)
        return
    with pytest.MonkeyPatch.context() as patch:
        if how == "hand-over":
            patch.setattr(search, "HANDOVER_NODES", 1)
        result = rofl.solve_complete(puzzle, time_budget=None, solutions=1)
    _check_first(puzzle, result.status, result.solutions, truth, line_solved=result.line_solvable)


@settings(deadline=None, max_examples=40, suppress_health_check=[HealthCheck.too_slow])
@given(small_puzzles(), st.sampled_from([1, 2]))
def test_sat_engine_wants_one_or_two(puzzle, want):
    truth = set(puzzle_solutions(puzzle))
    status, solutions, _ = solve_sat(puzzle, time_budget=None, start=rofl.solve(puzzle).masks, want=want)
    got = [tuple(int(v) for v in g.ravel()) for g in solutions]
    assert len(set(got)) == len(got) and set(got) <= truth
    assert len(got) == min(len(truth), want)
    if len(truth) >= want:
        assert status == (SearchStatus.FOUND if want == 1 else SearchStatus.MULTIPLE)
    else:
        assert status == (SearchStatus.NONE if not truth else SearchStatus.UNIQUE)


def test_two_solutions_still_tell_unique_from_several():
    diagonal = Puzzle.from_grid(np.eye(3, dtype=np.uint8), Palette.black_white())  # several solutions
    assert rofl.solve_complete(diagonal, solutions=1).status == SearchStatus.FOUND
    assert rofl.solve_complete(diagonal, solutions=2).status == SearchStatus.MULTIPLE


@pytest.mark.parametrize("solutions", [0, 3, "1", 1.0, True])
def test_solutions_is_one_or_two(solutions):
    puzzle = Puzzle.from_grid(np.eye(2, dtype=np.uint8), Palette.black_white())
    with pytest.raises(OptionError, match="solutions must be 1"):
        rofl.solve_complete(puzzle, solutions=solutions)


def test_the_search_hands_over_after_its_nodes(monkeypatch):
    """Random sparse 6x6 grids: with a hand-over after one node (and none by
    the clock), every search that needs more goes to the SAT solver, and the
    answers are brute force's."""
    monkeypatch.setattr(search, "HANDOVER_NODES", 1)
    monkeypatch.setattr(search, "HANDOVER_SECONDS", 1e9)
    handed = 0
    for puzzle in sparse_puzzles(7, 40):
        truth = set(puzzle_solutions(puzzle))
        result = rofl.solve_complete(puzzle, time_budget=None)
        expected = SearchStatus.NONE if not truth else SearchStatus.UNIQUE if len(truth) == 1 else SearchStatus.MULTIPLE
        assert result.status == expected
        assert {tuple(g.ravel().tolist()) for g in result.solutions} <= truth
        if result.sat_seconds > 0:
            assert result.nodes >= 1
            handed += 1
    assert handed >= 3, handed


def test_a_hexagon_stops_at_its_first_solution():
    from rofl.hexagon import HexPuzzle

    rng = np.random.default_rng(14)
    many = HexPuzzle.from_cells(3, (rng.random(19) < 0.5).astype(np.uint8), PALETTES[2])  # several solutions
    two = rofl.solve_complete(many, time_budget=None)
    one = rofl.solve_complete(many, time_budget=None, solutions=1)
    assert two.status == SearchStatus.MULTIPLE
    assert one.status == SearchStatus.FOUND and len(one.solutions) == 1 and many.is_solution(one.solutions[0])
