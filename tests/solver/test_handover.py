"""The complete search's hand-over to the SAT solver
(``rofl.solver.search.HANDOVER_SECONDS``), and the SAT solver's start masks
and known solutions, against brute force; stopping it at a budget and on
Ctrl-C."""

from __future__ import annotations

import os
import signal
import threading
import time

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rofl
from rofl.puzzle import Palette, Puzzle
from rofl.solver import search
from rofl.solver.sat import solve_sat
from rofl.solver.status import SearchStatus
from tests.clirun import run
from tests.naive import puzzle_solutions
from tests.places import corpus_file
from tests.solver.puzzles import PALETTES, sparse_puzzles


@st.composite
def small_puzzles(draw):
    height = draw(st.integers(1, 5))  # brute force tries every product of the rows' fillings
    width = draw(st.integers(1, 5))
    k = draw(st.sampled_from([2, 3]))
    density = draw(st.sampled_from([0.3, 0.5]))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    grid = np.where(rng.random((height, width)) < density, rng.integers(1, k, (height, width)), 0)
    return Puzzle.from_grid(grid.astype(np.uint8), PALETTES[k])


def _expected(n_solutions: int) -> SearchStatus:
    return SearchStatus.NONE if n_solutions == 0 else SearchStatus.UNIQUE if n_solutions == 1 else SearchStatus.MULTIPLE


@settings(deadline=None, max_examples=80, suppress_health_check=[HealthCheck.too_slow])
@given(small_puzzles(), st.integers(0, 2))
def test_sat_from_line_logic_with_known_solutions_against_brute_force(puzzle, n_known):
    truth = puzzle_solutions(puzzle)
    start = rofl.solve(puzzle).masks  # a line-logic fixpoint: the same solutions as the clues
    known = [np.array(t, dtype=np.uint8).reshape(puzzle.height, puzzle.width) for t in truth[:n_known]]
    status, solutions, _ = solve_sat(puzzle, time_budget=None, start=start, known=known)
    assert status == _expected(len(truth))
    got = [tuple(int(v) for v in g.ravel()) for g in solutions]
    assert got[: len(known)] == truth[: len(known)]  # the known ones first, as given
    assert len(set(got)) == len(got) and set(got) <= set(truth)
    assert len(got) == min(len(truth), 2)


def test_start_masks_that_rule_out_every_solution_give_none():
    puzzle = Puzzle.from_grid(np.eye(2, dtype=np.uint8), Palette.black_white())  # two solutions
    start = np.array([[1, 1], [3, 3]], dtype=np.int64)  # the first row white: neither diagonal
    assert solve_sat(puzzle, time_budget=None, start=start)[0] == SearchStatus.NONE


def test_a_search_handed_over_at_once_decides_like_brute_force(monkeypatch):
    """Random sparse 6x6 grids, many of which stall line logic: handed to the
    SAT solver before any search, the answers are brute force's."""
    monkeypatch.setattr(search, "HANDOVER_SECONDS", 0.0)
    rng = np.random.default_rng(31)
    handed = 0
    for _ in range(60):
        grid = (rng.random((6, 6)) < 0.35).astype(np.uint8)
        puzzle = Puzzle.from_grid(grid, Palette.black_white())
        truth = puzzle_solutions(puzzle)
        result = rofl.solve_complete(puzzle, time_budget=None)
        assert result.status == _expected(len(truth))
        assert {tuple(g.ravel().tolist()) for g in result.solutions} <= set(truth)
        if not result.line_solvable:
            assert result.sat_seconds > 0 and result.nodes == 0
            handed += 1
    assert handed >= 10, handed


def _knotty() -> Puzzle:
    from rofl.formats import read_puzzle

    return read_puzzle(corpus_file("webpbn-survey/knotty.json"))[0]  # hard for both engines


def test_a_hand_over_keeps_to_the_time_budget(monkeypatch):
    monkeypatch.setattr(search, "HANDOVER_SECONDS", 0.02)  # CPU seconds: a loaded machine gives few
    result = rofl.solve_complete(_knotty(), time_budget=0.8)
    assert result.status == "budget"
    assert result.nodes > 0 and result.sat_seconds > 0
    assert result.seconds < 5  # stops near the budget: the SAT solver was interrupted


def test_no_hand_over_of_a_large_puzzle(monkeypatch):
    # a formula built in Python grows faster than the cells: a 2048 x 2048
    # search handed over asked for more than 10 GB
    monkeypatch.setattr(search, "HANDOVER_SECONDS", 0.0)
    rng = np.random.default_rng(5)
    side = 101  # just over HANDOVER_CELLS
    assert side * side > search.HANDOVER_CELLS
    puzzle = Puzzle.from_grid((rng.random((side, side)) < 0.5).astype(np.uint8), Palette.black_white())
    result = rofl.solve_complete(puzzle, time_budget=0.5)
    assert result.line_status == "stalled" and result.sat_seconds == 0


def test_no_hand_over_under_a_node_budget(monkeypatch):
    monkeypatch.setattr(search, "HANDOVER_SECONDS", 0.0)
    result = rofl.solve_complete(_knotty(), node_budget=3, time_budget=None)
    assert result.status == "budget" and result.sat_seconds == 0


def test_ctrl_c_stops_the_sat_solver():
    puzzle = _knotty()
    timer = threading.Timer(1.5, os.kill, (os.getpid(), signal.SIGINT))  # after the formula is built
    began = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            solve_sat(puzzle, time_budget=None)
    finally:
        timer.cancel()
    assert time.monotonic() - began < 6


def test_the_command_says_when_the_sat_solver_finished(monkeypatch):
    monkeypatch.setattr(search, "HANDOVER_SECONDS", 0.0)
    result = run("solve", corpus_file("taai-tournament/tcga2012-0500.json"))
    assert result.exit_code == 3, result.output  # multiple
    assert "then the SAT solver" in result.output and "multiple" in result.output


def test_no_hand_over_of_a_formula_over_the_limit(monkeypatch):
    # the search goes on alone, and still decides the puzzles
    from rofl.solver import sat

    monkeypatch.setattr(search, "HANDOVER_SECONDS", 0.0)
    monkeypatch.setattr(sat, "MAX_LITERALS", 10)
    searched = 0
    for puzzle in sparse_puzzles(31, 30):
        truth = puzzle_solutions(puzzle)
        result = rofl.solve_complete(puzzle, time_budget=None)
        assert result.status == _expected(len(truth)) and result.sat_seconds == 0
        searched += not result.line_solvable
    assert searched >= 5


def _taai2011_0500() -> Puzzle:
    from rofl.formats import read_puzzle

    return read_puzzle(corpus_file("taai-tournament/taai2011-0500.json"))[0]  # some 500 search nodes


def test_a_first_solution_is_handed_over_sooner(monkeypatch):
    """``solutions=1`` hands over after HANDOVER_NODES_FIRST nodes, with a
    checked answer; telling unique from several keeps HANDOVER_NODES."""
    monkeypatch.setattr(search, "HANDOVER_SECONDS", 1000.0)  # nodes decide, not the machine's load
    monkeypatch.setattr(search, "HANDOVER_NODES_FIRST", 100)
    puzzle = _taai2011_0500()
    first = rofl.solve_complete(puzzle, solutions=1, time_budget=None)
    assert first.status == "found" and puzzle.is_solution(first.solutions[0])
    assert first.sat_seconds > 0 and 100 <= first.nodes <= 102
    both = rofl.solve_complete(puzzle, solutions=2, time_budget=None)
    assert both.status == "multiple" and both.sat_seconds == 0 and both.nodes > 102
    assert all(puzzle.is_solution(grid) for grid in both.solutions)


def test_a_first_solution_met_before_the_hand_over_is_the_search_s(monkeypatch):
    monkeypatch.setattr(search, "HANDOVER_SECONDS", 1000.0)
    monkeypatch.setattr(search, "HANDOVER_NODES_FIRST", 100_000)
    puzzle = _taai2011_0500()
    result = rofl.solve_complete(puzzle, solutions=1, time_budget=None)
    assert result.status == "found" and result.sat_seconds == 0 and puzzle.is_solution(result.solutions[0])


def test_first_solutions_handed_over_after_one_node_are_brute_force_s(monkeypatch):
    """Random sparse 6x6 grids, a first solution asked for, the hand-over
    after one node: every answer is one of brute force's solutions."""
    monkeypatch.setattr(search, "HANDOVER_NODES_FIRST", 1)
    monkeypatch.setattr(search, "HANDOVER_SECONDS", 1e9)
    handed = 0
    for puzzle in sparse_puzzles(45, 40):
        truth = set(puzzle_solutions(puzzle))
        result = rofl.solve_complete(puzzle, time_budget=None, solutions=1)
        assert len(result.solutions) == 1 and tuple(result.solutions[0].ravel().tolist()) in truth
        assert result.status in ("found", "unique")
        handed += result.sat_seconds > 0
    assert handed >= 3, handed


def test_nogoods_become_clauses_against_brute_force():
    """``solve_sat(nogoods=...)``, a first solution (as the hand-over asks):
    a nogood that a solution keeps rules that one out and nothing else (two
    and three colours); nogoods that every solution keeps leave none."""
    for grid, palette in (
        (np.eye(2, dtype=np.uint8), Palette.black_white()),  # two solutions: the diagonals
        (np.array([[1, 0, 2], [0, 2, 1]], dtype=np.uint8), PALETTES[3]),
    ):
        puzzle = Puzzle.from_grid(grid, palette)
        truth = puzzle_solutions(puzzle)
        ends = (0, len(truth[0]) - 1)
        nogoods = []
        for banned in truth:
            # "not every one of these cells in its solution's colour", on two cells of it
            nogoods.append([(cell, 1 << banned[cell]) for cell in ends])
            left = [t for t in truth if not any(all(t[c] == b[c] for c in ends) for b in truth[: len(nogoods)])]
            status, solutions, _ = solve_sat(puzzle, time_budget=None, nogoods=nogoods, want=1)
            if left:
                assert status == SearchStatus.FOUND and tuple(int(v) for v in solutions[0].ravel()) in left
            else:
                assert status == SearchStatus.NONE and solutions == []
        assert not left  # every solution banned at the end


def test_a_first_solution_s_hand_over_gives_the_search_s_nogoods(monkeypatch):
    """The nogoods the search learned go to the SAT solver with the probed
    root (``HANDOVER_NOGOODS``); each is one that no solution keeps."""
    monkeypatch.setattr(search, "HANDOVER_SECONDS", 1000.0)
    monkeypatch.setattr(search, "HANDOVER_NODES_FIRST", 300)
    puzzle = _taai2011_0500()
    given: list = []

    def recording(*args, **kwargs):
        given.append(kwargs["nogoods"])
        return solve_sat(*args, **kwargs)

    monkeypatch.setattr("rofl.solver.sat.solve_sat", recording)
    result = rofl.solve_complete(puzzle, solutions=1, time_budget=None)
    assert result.status == "found" and result.sat_seconds > 0 and puzzle.is_solution(result.solutions[0])
    assert len(given) == 1 and len(given[0]) > 0
    both = rofl.solve_complete(puzzle, solutions=2, time_budget=None)
    flat = [grid.ravel() for grid in [*both.solutions, result.solutions[0]]]
    for nogood in given[0]:
        assert all(any(not (colours >> int(grid[cell])) & 1 for cell, colours in nogood) for grid in flat)
    monkeypatch.setattr(search, "HANDOVER_NOGOODS", False)
    given.clear()
    rofl.solve_complete(puzzle, solutions=1, time_budget=None)
    assert given == [[]]


def test_learned_nogoods_reads_the_kernel_s_store():
    from rofl.kernels.search_stats import NOGOOD_HEAD

    store = np.zeros(32, dtype=np.int64)
    words = [2, 5, 1, 7, 2, 1, 3, 5]  # (5: colour 0, 7: colour 1), then (3: colours 0 and 2)
    store[NOGOOD_HEAD : NOGOOD_HEAD + len(words)] = words
    store[0] = NOGOOD_HEAD + len(words)
    assert search.learned_nogoods(store) == [[(5, 1), (7, 2)], [(3, 5)]]
    store[0] = 0  # a new store: none
    assert search.learned_nogoods(store) == []
    assert search.learned_nogoods(np.zeros(0, dtype=np.int64)) == []
