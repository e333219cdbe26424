"""The cells' activity kept over the restarts of a search for a first
solution (``search.KEEP_ACTIVITY_FROM``).

The first attempts start with no activity, as every attempt once did; from
``KEEP_ACTIVITY_FROM`` on an attempt starts with what the one before left,
which changes where the search branches, never what it proves.  A search
for two solutions starts every attempt with none.
"""

from __future__ import annotations

import numpy as np
import pytest

from rofl import kernels
from rofl.puzzle import Palette, Puzzle
from rofl.solver import search
from rofl.solver.search import solve_complete


def _random_puzzles(seed: int, count: int) -> list[Puzzle]:
    rng = np.random.default_rng(seed)
    grids = [rng.choice(2, size=(s, s), p=[0.55, 0.45]) for s in rng.integers(12, 18, size=count)]
    return [Puzzle.from_grid(g.astype(np.uint8), Palette.black_white()) for g in grids]


def _recording(monkeypatch) -> list[tuple[int, np.ndarray, np.ndarray]]:
    """Every call of the compiled search from now on: its attempt, and its activity on entry and on return."""
    calls = []
    original = kernels.search

    def recorded(*args):
        attempt, act = int(args[-3]), args[-1]
        before = act.copy()
        got = original(*args)
        calls.append((attempt, before, act.copy()))
        return got

    monkeypatch.setattr(kernels, "search", recorded)
    return calls


@pytest.mark.parametrize("solutions", [1, 2])
def test_early_attempts_start_without_activity_and_later_ones_where_the_last_left_it(monkeypatch, solutions):
    monkeypatch.setattr(search, "FIRST_ATTEMPT_NODES", 2)  # many short attempts
    calls = _recording(monkeypatch)
    carried = late = 0
    for puzzle in _random_puzzles(3, 30):
        calls.clear()
        solve_complete(puzzle, time_budget=None, solutions=solutions)
        for i, (attempt, before, _) in enumerate(calls):
            if attempt < search.KEEP_ACTIVITY_FROM or solutions == 2:
                fresh = np.zeros_like(before)
                fresh[-1] = 1.0
                np.testing.assert_array_equal(before, fresh)
            else:
                np.testing.assert_array_equal(before, calls[i - 1][2])
                carried += bool(before[:-1].any())
            late += attempt >= search.KEEP_ACTIVITY_FROM
    assert late > 0  # the puzzles reach the later attempts
    assert carried > 0 or solutions == 2  # some attempt did start with the cells' activity


def test_keeping_the_activity_changes_no_verdict(monkeypatch):
    monkeypatch.setattr(search, "FIRST_ATTEMPT_NODES", 2)
    puzzles = _random_puzzles(5, 40)
    kept = [solve_complete(p, time_budget=None, solutions=1) for p in puzzles]
    monkeypatch.setattr(search, "KEEP_ACTIVITY_FROM", 10**9)
    fresh = [solve_complete(p, time_budget=None, solutions=1) for p in puzzles]
    assert [str(r.status) for r in kept] == [str(r.status) for r in fresh]
    for puzzle, result in zip(puzzles, kept, strict=True):
        assert all(puzzle.is_solution(grid) for grid in result.solutions)
    # the trees differ where an attempt started with activity
    assert any(a.nodes != b.nodes for a, b in zip(kept, fresh, strict=True))
