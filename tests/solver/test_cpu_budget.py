"""A budget of CPU time (``solve_complete(..., cpu_budget=...)``, issue 45):
refused unless positive, handed down to the search and to the SAT solver,
whose Kissat calls and CaDiCaL slices fit the CPU time left whatever the
wall clock says.  Fake clocks stand for a loaded machine: no test here
measures time."""

from __future__ import annotations

import numpy as np
import pytest

import rofl
from rofl.errors import OptionError
from rofl.puzzle import Palette, Puzzle
from rofl.solver import _stop, sat, search
from rofl.solver._stop import Deadlines
from tests.places import corpus_file

pytest.importorskip("pysat")


def _taai2011_0500() -> Puzzle:
    from rofl.formats import read_puzzle

    return read_puzzle(corpus_file("taai-tournament/taai2011-0500.json"))[0]  # some 500 search nodes


@pytest.mark.parametrize("bad", [0, -1.0, 0.0])
def test_a_cpu_budget_is_a_positive_number_of_seconds(bad):
    puzzle = Puzzle.from_grid(np.eye(3, dtype=np.uint8), Palette.black_white())
    with pytest.raises(OptionError, match="cpu_budget must be a positive number of seconds"):
        rofl.solve_complete(puzzle, cpu_budget=bad)


class _Clocks:
    """A fake machine: ``cpu`` and ``wall`` seconds, the wall clock running
    ``load`` times as fast as the CPU time (the process's share of a loaded
    machine)."""

    def __init__(self, monkeypatch, load: float) -> None:
        self.cpu, self.wall, self.load = 0.0, 0.0, load
        monkeypatch.setattr(sat.time, "process_time", lambda: self.cpu)
        monkeypatch.setattr(sat.time, "monotonic", lambda: self.wall)
        monkeypatch.setattr(_stop, "_children_cpu", [0.0])  # the CPU of earlier tests' Kissat children: none here

    def work(self, seconds: float) -> None:
        self.cpu += seconds
        self.wall += seconds * self.load


class _Slow:
    """A stand-in SAT solver that never decides: each slice costs
    ``seconds_per_conflict`` of CPU on ``clocks``."""

    def __init__(self, clocks: _Clocks, seconds_per_conflict: float) -> None:
        self.clocks, self.rate, self.budgets = clocks, seconds_per_conflict, []

    def conf_budget(self, budget: int) -> None:
        self.budgets.append(budget)

    def solve_limited(self):
        self.clocks.work(self.budgets[-1] * self.rate)
        return None


@pytest.mark.parametrize("load", [1.0, 8.0])
def test_cadical_s_slices_end_at_the_cpu_budget_whatever_the_load(monkeypatch, load):
    clocks = _Clocks(monkeypatch, load)
    solver = _Slow(clocks, 1e-5)  # 1000 conflicts: 10 ms of CPU
    assert sat._solve_until(solver, Deadlines(60.0, 2.0)) is None
    over = sat.FIRST_SLICE * 1e-5  # the last slice may be the first's size
    assert clocks.cpu <= 2.0 + over + 1e-9
    if load == 1.0:
        assert clocks.cpu >= 2.0  # the budget used, not cut short
    else:  # the wall clock's 60 s hold 7.5 s of CPU: the CPU budget ends it
        assert clocks.wall < 60.0


def _asked(monkeypatch) -> list[int]:
    """The conflicts each Kissat call is given, as they are asked for."""
    asked: list[int] = []
    real = sat._kissat_call
    monkeypatch.setattr(sat, "_kissat_call", lambda f, budget: asked.append(budget) or real(f, budget))
    return asked


def test_kissat_s_call_fits_the_cpu_time_left(monkeypatch):
    """Kissat cannot be interrupted: its conflicts are what
    :data:`sat.KISSAT_CPU_RATE` fits in the CPU seconds left, however much
    of the wall clock is left."""
    asked = _asked(monkeypatch)
    clauses = [[1, 2], [-1, 2]]
    left = 3 * sat.FIRST_SLICE / sat.KISSAT_CPU_RATE
    assert sat._kissat_calls(clauses, Deadlines(1000.0, left), 0, killable=False) is not None
    assert sat.FIRST_SLICE <= asked[-1] <= 3 * sat.FIRST_SLICE
    tight = Deadlines(1000.0, 0.5 * sat.FIRST_SLICE / sat.KISSAT_CPU_RATE)
    assert sat._kissat_calls(clauses, tight, 0, killable=False) is None
    assert len(asked) == 1  # too little CPU left: not asked


def test_a_hand_over_gets_what_is_left_of_the_cpu_budget(monkeypatch):
    asked: list = []
    real = sat.solve_sat

    def spy(*args, **kwargs):
        asked.append(kwargs)
        return real(*args, **kwargs)

    monkeypatch.setattr(sat, "solve_sat", spy)
    monkeypatch.setattr(search, "HANDOVER_SECONDS", 1e9)
    monkeypatch.setattr(search, "HANDOVER_NODES_FIRST", 1)
    puzzle = _taai2011_0500()
    result = rofl.solve_complete(puzzle, time_budget=None, cpu_budget=600.0, solutions=1)
    assert result.status == "found" and puzzle.is_solution(result.solutions[0]) and result.sat_seconds > 0
    assert len(asked) == 1 and 0 < asked[0]["cpu_budget"] < 600.0 and asked[0]["time_budget"] is None
    asked.clear()
    rofl.solve_complete(puzzle, time_budget=None, solutions=1)
    assert asked[0]["cpu_budget"] is None  # none given: none kept


def test_no_cpu_left_after_line_logic_is_the_budget_s_end():
    puzzle = _taai2011_0500()  # line logic stalls
    result = rofl.solve_complete(puzzle, time_budget=None, cpu_budget=1e-9, solutions=1)
    assert result.status == "budget" and result.solutions == [] and result.nodes == 0


def test_a_hard_first_solution_stops_at_the_cpu_budget():
    """Knotty (40 x 40), which Kissat takes much longer over: with no wall
    clock budget at all, the CPU budget alone ends the solve."""
    from rofl.formats import read_puzzle

    knotty = read_puzzle(corpus_file("webpbn-survey/knotty.json"))[0]
    for engine in ("search", "sat"):  # the search stops, or the SAT solver's calls and slices
        result = rofl.solve_complete(knotty, time_budget=None, cpu_budget=0.5, solutions=1, engine=engine)
        assert result.status == "budget"


class _Kissat:
    """A stand-in for python-sat's Kissat on ``clocks``: it makes ``rate``
    conflicts a CPU second and finds a model after ``needs`` conflicts
    (never, by default); ``calls`` records each call's cap and whether its
    formula was the one built (not renamed)."""

    def __init__(self, monkeypatch, clocks: _Clocks, rate: float, formula, needs: float = float("inf")) -> None:
        self.calls: list[tuple[int, bool]] = []
        built = formula

        class Solver:
            def __init__(self, name, bootstrap_with):
                self.as_built = bootstrap_with is built

            def __enter__(self):
                return self

            def __exit__(self, *exc):
                return False

            def get_model(self):
                return [1, 2]

        def slice_(solver, budget):
            self.calls.append((budget, solver.as_built))
            clocks.work(min(budget, needs) / rate)
            return True if needs <= budget else None

        import pysat.solvers

        monkeypatch.setattr(pysat.solvers, "Solver", Solver)
        monkeypatch.setattr(sat, "_slice", slice_)
        monkeypatch.setattr(sat, "KISSAT_FORKED", False)  # the stand-in in this process, on the fake clocks


@pytest.mark.parametrize("rate", [4_000, 30_000])
def test_kissat_s_calls_fit_the_cpu_left_at_the_pace_they_measure(monkeypatch, rate):
    """Kissat's calls on a machine making ``rate`` conflicts a CPU second
    (a slow one, below :data:`sat.KISSAT_CPU_RATE`, and a fast one), none
    of which finds anything: a short call measures the pace, the calls after
    it count on the pace the last one measured, and together they end within
    the CPU budget, using most of it."""
    clocks = _Clocks(monkeypatch, load=5.0)
    clauses = [[1, 2], [-1, 2]]
    kissat = _Kissat(monkeypatch, clocks, rate, clauses)
    monkeypatch.setattr(sat, "KISSAT_RESTARTS", True)
    budget = 10.0
    assert sat._kissat_first(clauses, Deadlines(1000.0, budget), 2) is None
    caps = [cap for cap, _ in kissat.calls]
    assert caps[0] == sat.KISSAT_PACE_CONFLICTS  # the pace measured first
    assert kissat.calls[1] == (int(sat.KISSAT_RATE_SHARE * rate * (budget - caps[0] / rate)), True)
    assert clocks.cpu <= budget + 1e-6
    assert clocks.cpu >= 0.8 * budget  # the budget used, not left idle
    assert all(cap >= sat.FIRST_SLICE for cap in caps)


def test_the_pace_measured_serves_formulas_of_about_its_size(monkeypatch):
    """The second hand-over of a process takes the pace the first measured:
    one call of the formula as built, fitted to the CPU left; a formula of
    twice the variables has it measured again."""
    clocks = _Clocks(monkeypatch, load=1.0)
    clauses = [[1, 2], [-1, 2]]
    rate = 25_000
    kissat = _Kissat(monkeypatch, clocks, rate, clauses, needs=100_000)
    assert sat._kissat_first(clauses, Deadlines(1000.0, 10.0), 1000) == [1, 2]  # a model
    assert [cap for cap, _ in kissat.calls] == [sat.KISSAT_PACE_CONFLICTS, int(sat.KISSAT_RATE_SHARE * rate * 9.8)]
    assert all(as_built for _, as_built in kissat.calls)
    assert sat._PACE.rate == pytest.approx(rate)
    kissat.calls.clear()
    assert sat._kissat_first(clauses, Deadlines(1000.0, 10.0), 1200) == [1, 2]
    assert kissat.calls == [(int(sat.KISSAT_RATE_SHARE * rate * 10.0), True)]  # no short call
    kissat.calls.clear()
    assert sat._kissat_first(clauses, Deadlines(1000.0, 10.0), 2000) == [1, 2]
    assert kissat.calls[0][0] == sat.KISSAT_PACE_CONFLICTS  # twice the variables: measured again


def test_a_short_call_that_finds_a_model_is_the_only_call(monkeypatch):
    clocks = _Clocks(monkeypatch, load=1.0)
    clauses = [[1, 2], [-1, 2]]
    kissat = _Kissat(monkeypatch, clocks, 20_000, clauses, needs=sat.KISSAT_PACE_CONFLICTS // 2)
    assert sat._kissat_first(clauses, Deadlines(1000.0, 10.0), 2) == [1, 2]
    assert kissat.calls == [(sat.KISSAT_PACE_CONFLICTS, True)]
    assert sat._PACE.rate is None  # nothing ran out: nothing measured


@pytest.mark.parametrize("killable", [False, True])
def test_without_a_budget_the_first_call_keeps_its_conflicts(monkeypatch, killable):
    """No budget: one call of :data:`sat.KISSAT_CONFLICTS`.  A wall-clock
    budget alone keeps that cap where the calls cannot be killed, and is
    fitted at the pace measured where they can (in a child process,
    :data:`sat.KISSAT_FORKED`; the calls are made here, to see them)."""
    monkeypatch.setattr(sat, "_PACE", sat._Pace())
    asked = _asked(monkeypatch)
    clauses = [[1, 2], [-1, 2]]
    assert sat._kissat_calls(clauses, None, 2, killable=killable) is not None
    assert asked == [sat.KISSAT_CONFLICTS]
    asked.clear()
    assert sat._kissat_calls(clauses, Deadlines(1000.0), 2, killable=killable) is not None
    assert asked == [sat.KISSAT_PACE_CONFLICTS if killable else sat.KISSAT_CONFLICTS]  # the short call finds it
    asked.clear()
    monkeypatch.setattr(sat, "KISSAT_FIT_CPU", False)  # the cap kept under a budget too
    assert sat._kissat_calls(clauses, Deadlines(1000.0, 1000.0), 2, killable=killable) is not None
    assert asked == [sat.KISSAT_CONFLICTS]
