"""The SAT engine's first solution (issue 45): by Kissat (``sat.KISSAT``)
against brute force, its call capped by conflicts and by the time budget, a
call that runs out handing over to CaDiCaL, a python-sat without Kissat; and
the root's probes as clauses (``sat.PROBE_CLAUSES``), which every solution
satisfies."""

from __future__ import annotations

import time

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rofl
from rofl.puzzle import Palette, Puzzle
from rofl.solver import sat
from rofl.solver._stop import Deadlines
from rofl.solver.sat import solve_sat
from rofl.solver.status import SearchStatus
from tests.naive import puzzle_solutions
from tests.places import corpus_file
from tests.solver.puzzles import small_puzzles

pytest.importorskip("pysat")


def _kissat_calls(monkeypatch) -> list:
    """The answers :func:`sat._kissat_first` gives, recorded."""
    calls: list = []
    real = sat._kissat_first

    def spy(*args):
        calls.append(real(*args))
        return calls[-1]

    monkeypatch.setattr(sat, "_kissat_first", spy)
    return calls


def _knotty() -> Puzzle:
    from rofl.formats import read_puzzle

    return read_puzzle(corpus_file("webpbn-survey/knotty.json"))[0]  # hard for every solver


@settings(
    deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(small_puzzles(), st.booleans())
def test_kissat_s_first_solution_against_brute_force(monkeypatch, puzzle, from_line_logic):
    calls = _kissat_calls(monkeypatch)
    truth = set(puzzle_solutions(puzzle))
    start = rofl.solve(puzzle).masks if from_line_logic else None
    status, solutions, _ = solve_sat(puzzle, time_budget=None, start=start, want=1)
    assert calls and calls[-1] is not None  # Kissat answered, within its conflicts
    if truth:
        assert status == SearchStatus.FOUND and len(solutions) == 1
        assert tuple(int(v) for v in solutions[0].ravel()) in truth
        assert puzzle.is_solution(solutions[0])
    else:
        assert status == SearchStatus.NONE and solutions == [] and calls[-1] is False


def test_kissat_is_asked_for_a_first_solution_only(monkeypatch):
    calls = _kissat_calls(monkeypatch)
    puzzle = Puzzle.from_grid(np.eye(3, dtype=np.uint8), Palette.black_white())  # several solutions
    status, solutions, _ = solve_sat(puzzle, time_budget=None, want=2)
    assert status == SearchStatus.MULTIPLE and not calls
    known = [solutions[0]]
    assert solve_sat(puzzle, time_budget=None, known=known, want=1)[0] == SearchStatus.FOUND
    assert not calls  # a known solution is the first: nothing to look for


def test_a_call_out_of_conflicts_hands_over_to_cadical(monkeypatch):
    """Kissat capped at the fewest conflicts it is given: a puzzle that needs
    more is solved by CaDiCaL all the same."""
    monkeypatch.setattr(sat, "KISSAT_CONFLICTS", sat.FIRST_SLICE)
    monkeypatch.setattr(sat, "KISSAT_RESTARTS", False)
    calls = _kissat_calls(monkeypatch)
    rng = np.random.default_rng(7)
    for _ in range(12):
        puzzle = Puzzle.from_grid((rng.random((20, 20)) < 0.5).astype(np.uint8), Palette.black_white())
        status, solutions, _ = solve_sat(puzzle, time_budget=None, want=1)
        assert status == SearchStatus.FOUND and puzzle.is_solution(solutions[0])
    assert calls
    # a random 20 x 20 takes Kissat more than 1000 conflicts only now and then:
    # Knotty always does, and then CaDiCaL's slices keep the budget.  The budget
    # is of CPU time, which a loaded machine does not eat up while the formula is
    # built (its wall clock it did, once, under a load of 20: Kissat was never
    # asked), and any of it left fits Kissat's capped call, so it is always asked.
    monkeypatch.setattr(sat, "KISSAT_FIT_CPU", False)
    monkeypatch.setattr(sat, "KISSAT_CPU_RATE", 10**12)
    calls.clear()
    began = time.process_time()
    status, solutions, _ = solve_sat(_knotty(), time_budget=None, cpu_budget=2.0, want=1)
    assert calls == [None] and status == SearchStatus.BUDGET and solutions == []
    assert time.process_time() - began < 10  # the formula, Kissat's 1000 conflicts, then CaDiCaL to the budget


def test_a_call_in_this_process_fits_the_time_budget(monkeypatch):
    """Where Kissat's calls cannot be killed (not :data:`sat.KISSAT_FORKED`),
    the conflicts it gets shrink to what :data:`sat.KISSAT_RATE` fits before
    the deadline; too few, and Kissat is not asked."""
    monkeypatch.setattr(sat, "KISSAT_FORKED", False)
    asked: list[int] = []
    real = sat._slice

    def spy(solver, budget):
        asked.append(budget)
        return real(solver, budget)

    monkeypatch.setattr(sat, "_slice", spy)
    clauses = [[1, 2], [-1, 2]]
    assert sat._kissat_first(clauses, None) is not False  # a model
    assert asked == [sat.KISSAT_CONFLICTS]
    assert sat._kissat_first(clauses, Deadlines(2 * sat.FIRST_SLICE / sat.KISSAT_RATE)) is not None
    assert sat.FIRST_SLICE <= asked[-1] < 2 * sat.FIRST_SLICE
    assert sat._kissat_first(clauses, Deadlines(0.5 * sat.FIRST_SLICE / sat.KISSAT_RATE)) is None
    assert len(asked) == 2  # not asked at all


def test_a_python_sat_without_kissat_falls_back_to_cadical(monkeypatch):
    monkeypatch.setattr(sat, "KISSAT", "no-such-solver")
    calls = _kissat_calls(monkeypatch)
    puzzle = Puzzle.from_grid(np.eye(4, dtype=np.uint8), Palette.black_white())
    status, solutions, _ = solve_sat(puzzle, time_budget=None, want=1)
    assert calls == [None]
    assert status == SearchStatus.FOUND and puzzle.is_solution(solutions[0])


def test_the_first_solution_mode_of_the_sat_engine_uses_kissat(monkeypatch):
    calls = _kissat_calls(monkeypatch)
    puzzle = Puzzle.from_grid(np.eye(5, dtype=np.uint8), Palette.black_white())
    result = rofl.solve_complete(puzzle, time_budget=None, engine="sat", solutions=1)
    assert result.status == "found" and puzzle.is_solution(result.solutions[0])
    assert calls and calls[-1] is not None


@settings(deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(small_puzzles())
def test_every_solution_satisfies_the_probe_clauses(puzzle):
    truth = set(puzzle_solutions(puzzle))
    start = rofl.solve(puzzle).masks
    encoding = sat.Encoding(puzzle)
    clauses = sat._probe_clauses(puzzle, start, encoding.x, None)
    open_cells = int(np.count_nonzero(start & (start - 1)))
    assert bool(clauses) <= bool(open_cells)  # only open cells are probed
    for solution in truth:
        colour = np.array(solution)
        true = {int(v) for v in encoding.x[np.arange(colour.size), colour]}  # the cells' colour variables that hold
        for clause in clauses:
            assert any(lit in true if lit > 0 else -lit not in true for lit in clause), clause


def test_probe_clauses_keep_to_their_literals(monkeypatch):
    rng = np.random.default_rng(3)
    puzzle = Puzzle.from_grid((rng.random((15, 15)) < 0.5).astype(np.uint8), Palette.black_white())
    start = rofl.solve(puzzle).masks
    x = sat.Encoding(puzzle).x
    every = sat._probe_clauses(puzzle, start, x, None)
    monkeypatch.setattr(sat, "PROBE_LITERALS", 10)
    few = sat._probe_clauses(puzzle, start, x, None)
    assert 0 < len(few) < len(every) and few == every[: len(few)]
    assert sat._probe_clauses(puzzle, start, x, Deadlines(-1.0)) == []  # past the deadline: none
    assert sat._probe_clauses(puzzle, start, x, Deadlines(None, -1.0)) == []  # past the CPU's end: none


def test_probe_clauses_serve_a_first_solution_from_start_only(monkeypatch):
    asked: list = []
    real = sat._probe_clauses
    monkeypatch.setattr(sat, "_probe_clauses", lambda *args: asked.append(args) or real(*args))
    puzzle = Puzzle.from_grid(np.eye(4, dtype=np.uint8), Palette.black_white())
    start = rofl.solve(puzzle).masks
    assert solve_sat(puzzle, time_budget=None, want=1)[0] == SearchStatus.FOUND  # the clues alone
    assert solve_sat(puzzle, time_budget=None, start=start, want=2)[0] == SearchStatus.MULTIPLE
    assert not asked
    status, solutions, counts = solve_sat(puzzle, time_budget=None, start=start, want=1)
    assert status == SearchStatus.FOUND and puzzle.is_solution(solutions[0]) and len(asked) == 1


# ---- Kissat's calls restarted on the formula renamed (sat.KISSAT_RESTARTS)


@settings(deadline=None, max_examples=40, suppress_health_check=[HealthCheck.too_slow])
@given(small_puzzles(), st.integers(1, 2**31))
def test_a_renamed_formula_has_the_same_solutions(puzzle, seed):
    """Every model of the renamed formula, named back, is a model of the
    formula before: both give the puzzle's solutions, as many."""
    from pysat.solvers import Solver

    encoding = sat.Encoding(puzzle)
    renamed, new = sat._renamed(encoding.clauses, encoding.top, seed)
    assert sorted(map(len, renamed)) == sorted(map(len, encoding.clauses))
    grids = set()
    with Solver(name="cadical195", bootstrap_with=renamed) as solver:
        for model in solver.enum_models():
            back = sat._named_back(model, new)
            grid = sat._grid(back, encoding, sat.board_of(puzzle))
            assert puzzle.is_solution(grid)
            grids.add(grid.tobytes())
    assert len(grids) == len(set(puzzle_solutions(puzzle)))


def test_kissat_s_calls_restart_on_the_formula_renamed(monkeypatch):
    """Calls of 128 conflicts, then 256, 512...: a puzzle that needs more is
    solved by a later call, on the formula renamed, and the answer is a
    solution of the puzzle itself."""
    monkeypatch.setattr(sat, "KISSAT_FORKED", False)  # the schedule of a wall-clock budget's unkillable calls
    asked: list[int] = []
    real = sat._slice
    monkeypatch.setattr(sat, "_slice", lambda solver, budget: asked.append(budget) or real(solver, budget))
    monkeypatch.setattr(sat, "KISSAT_RESTARTS", True)
    monkeypatch.setattr(sat, "KISSAT_CONFLICTS", 128)
    monkeypatch.setattr(sat, "FIRST_SLICE", 1)
    rng = np.random.default_rng(11)
    restarted = 0
    for _ in range(6):  # sparse: Kissat takes 64-4000 conflicts over them
        puzzle = Puzzle.from_grid((rng.random((20, 20)) < 0.3).astype(np.uint8), Palette.black_white())
        asked.clear()
        status, solutions, _ = solve_sat(puzzle, time_budget=600.0, want=1)  # the wall clock's fit: 6 million
        assert status == SearchStatus.FOUND and puzzle.is_solution(solutions[0])
        assert asked == [128 << i for i in range(len(asked))]  # Kissat's only: CaDiCaL never asked
        restarted += len(asked) > 1
    assert restarted >= 2, restarted


def test_restarts_end_at_the_cpu_budget(monkeypatch):
    """However many calls the schedule has left, none starts past the CPU
    budget, and the last fits what was left of it."""
    monkeypatch.setattr(sat, "KISSAT_RESTARTS", True)
    calls = _kissat_calls(monkeypatch)
    status, solutions, _ = solve_sat(_knotty(), time_budget=None, cpu_budget=2.0, want=1)
    assert status == SearchStatus.BUDGET and solutions == [] and calls == [None]


def test_without_a_budget_a_call_that_runs_out_hands_over_to_cadical(monkeypatch):
    """No budget, no growing calls (Ctrl-C would wait for each): CaDiCaL's slices."""
    monkeypatch.setattr(sat, "KISSAT_CONFLICTS", sat.FIRST_SLICE)
    monkeypatch.setattr(sat, "KISSAT_FORKED", False)  # its calls made in this process, to see them
    calls = _kissat_calls(monkeypatch)
    kissat: list[int] = []
    call = sat._kissat_call
    monkeypatch.setattr(sat, "_kissat_call", lambda f, budget: kissat.append(budget) or call(f, budget))
    cadical: list[int] = []
    real = sat._slice
    monkeypatch.setattr(sat, "_slice", lambda solver, budget: cadical.append(budget) or real(solver, budget))
    from rofl.formats import read_puzzle

    puzzle = read_puzzle(corpus_file("taai-tournament/taai2011-0500.json"))[0]  # Kissat: over 1000 conflicts
    status, solutions, _ = solve_sat(puzzle, time_budget=None, want=1)
    assert status == SearchStatus.FOUND and puzzle.is_solution(solutions[0])
    assert calls == [None] and kissat == [sat.FIRST_SLICE]  # one Kissat call
    assert cadical and cadical[0] == sat.FIRST_SLICE  # then CaDiCaL's slices


@pytest.mark.skipif(not sat.KISSAT_FORKED, reason="Kissat's calls run in this process here")
def test_the_pace_kissat_s_child_measured_comes_back(monkeypatch):
    """The calls run in a child process: the pace its short call measured
    is this process's afterwards, for the next hand-over."""
    monkeypatch.setattr(sat, "_PACE", sat._Pace())
    encoding = sat.Encoding(_knotty())
    got = sat._kissat_first(encoding.clauses, Deadlines(None, 0.5), encoding.top)  # Knotty: not within 0.5 s
    assert got is None
    assert sat._PACE.rate is not None and sat._PACE.rate > 0 and sat._PACE.variables == encoding.top


@pytest.mark.skipif(not sat.KISSAT_FORKED, reason="Kissat's calls run in this process here")
def test_no_process_to_be_had_and_kissat_runs_in_this_one(monkeypatch):
    """A user at their limit of processes (``os.fork`` fails) still gets
    the first solution, from calls in this process."""
    import os

    def no_fork():
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", no_fork)
    puzzle = Puzzle.from_grid(np.eye(6, dtype=np.uint8)[::-1] | np.eye(6, dtype=np.uint8), Palette.black_white())
    calls = _kissat_calls(monkeypatch)
    status, solutions, _ = solve_sat(puzzle, time_budget=60.0, want=1)
    assert status == SearchStatus.FOUND and puzzle.is_solution(solutions[0])
    assert calls and calls[-1] not in (None, False)  # Kissat's model
