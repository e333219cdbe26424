"""The SAT engine's formula against brute force (issue 45, "An eleventh
round"): read on the cells, its models are exactly the puzzle's solutions,
in two colours (the order encoding) and three, and with the hand-over's
clauses added (the root's ruled-out colours and probes); and the order
encoding and the probe clauses, clause for clause, against the
literal-by-literal references of ``tests/naive.py`` (session 17)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rofl
from rofl.solver import sat
from rofl.solver.index_lines import board_of
from tests.naive import order_line, probe_clauses, puzzle_solutions
from tests.solver.puzzles import small_puzzles

pytest.importorskip("pysat")


def _models(puzzle, clauses: list[list[int]], encoding: sat.Encoding) -> set[tuple[int, ...]]:
    """Every model of ``clauses`` read as a grid (CaDiCaL, each grid banned in turn)."""
    from pysat.solvers import Solver

    board = board_of(puzzle)
    found: set[tuple[int, ...]] = set()
    with Solver(name=sat._solver_name(), bootstrap_with=clauses) as solver:
        while solver.solve():
            grid = sat._grid(solver.get_model(), encoding, board).reshape(-1)
            assert tuple(grid.tolist()) not in found
            found.add(tuple(grid.tolist()))
            solver.add_clause([-int(encoding.x[cell, grid[cell]]) for cell in range(grid.size)])
    return found


@settings(deadline=None, max_examples=80, suppress_health_check=[HealthCheck.too_slow])
@given(small_puzzles())
def test_the_models_are_the_solutions(puzzle):
    truth = set(puzzle_solutions(puzzle))
    encoding = sat.Encoding(puzzle)
    assert _models(puzzle, encoding.clauses, encoding) == truth


@settings(deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(small_puzzles())
def test_the_root_s_clauses_keep_every_solution(puzzle):
    """The hand-over's formula: the colours line logic ruled out as unit
    clauses and the root's probes as binary clauses lose no solution."""
    truth = set(puzzle_solutions(puzzle))
    start = rofl.solve(puzzle).masks
    encoding = sat.Encoding(puzzle)
    allowed = start.reshape(-1)
    ruled_out = (allowed[:, None] >> np.arange(puzzle.n_colors)[None, :]) & 1 == 0
    clauses = encoding.clauses + [[-int(v)] for v in encoding.x[ruled_out]]
    clauses += sat._probe_clauses(puzzle, start, encoding.x, None)
    assert _models(puzzle, clauses, encoding) == truth


@st.composite
def _order_lines(draw):
    """A line's group lengths (mostly ones that fit, some that do not), its
    cells' variables and the highest variable before the line's own."""
    n = draw(st.integers(1, 30))
    if draw(st.integers(0, 9)):
        cells = draw(st.lists(st.booleans(), min_size=n, max_size=n))
        lengths = [len(run) for run in "".join("x" if c else "." for c in cells).split(".") if run]
    else:
        lengths = draw(st.lists(st.integers(1, 8), max_size=8))
    top = draw(st.integers(n, 500))
    black = draw(st.lists(st.integers(1, top), min_size=n, max_size=n))
    return lengths, black, top


@settings(deadline=None, max_examples=400)
@given(_order_lines())
def test_the_order_encoding_writes_the_reference_s_clauses(line):
    """``Encoding._order_line`` against ``tests/naive.py``'s literal-by-literal
    ``order_line``: the same clauses in the same order, the same variables."""
    lengths, black, top = line
    encoding = object.__new__(sat.Encoding)
    encoding.top = top
    clauses: list[list[int]] = []
    encoding._order_line(lengths, black, clauses)
    assert (clauses, encoding.top) == order_line(lengths, black, top)


@settings(deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(small_puzzles())
def test_the_probe_clauses_are_the_reference_s(puzzle):
    """``sat._probe_clauses`` (the line-logic kernel, one probe a call)
    against ``tests/naive.py``'s ``probe_clauses`` (every line solved by
    listing its placements): the same clauses in the same order."""
    start = rofl.solve(puzzle).masks
    x = sat.Encoding(puzzle).x
    assert sat._probe_clauses(puzzle, start, x, None) == probe_clauses(puzzle, start, x)
