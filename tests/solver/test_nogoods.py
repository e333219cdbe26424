"""The search's learned nogoods (rofl.kernels._search: ``_learn``,
``_nogood_pass``, ``_live_nogoods``) against the search without them (which
tests/solver/test_search.py checks against brute force).

A frame proved empty leaves the decisions on its path as a nogood that later
nodes and later attempts (restarts) check; these tests force many short
attempts so that nogoods learned in one attempt prune the next, and check
that nothing a search proves changes: the same verdicts, only solutions.
"""

from __future__ import annotations

import numpy as np

from rofl.kernels import search_stats
from rofl.puzzle import Palette, Puzzle
from rofl.solver import search
from rofl.solver.search import solve_complete

COLOURS = Palette(["#ffffff", "#000000", "#ff0000"])


def _counting(monkeypatch) -> np.ndarray:
    """Sum the kernel's counters over every attempt of every search from now on."""
    total = np.zeros(search_stats.N_STATS, dtype=np.int64)
    original = search._Restarts.search

    def counted(self, *args):
        stats, sols, got = original(self, *args)
        total[:] += stats
        return stats, sols, got

    monkeypatch.setattr(search._Restarts, "search", counted)
    return total


def _random_puzzles(seed: int, count: int, colours: int) -> list[Puzzle]:
    rng = np.random.default_rng(seed)
    puzzles = []
    for _ in range(count):
        size = int(rng.integers(10, 18))
        grid = rng.choice(colours, size=(size, size), p=[0.6, *[0.4 / (colours - 1)] * (colours - 1)])
        palette = Palette.black_white() if colours == 2 else COLOURS
        puzzles.append(Puzzle.from_grid(grid.astype(np.uint8), palette))
    return puzzles


def _verdicts(monkeypatch, puzzles, words: int):
    monkeypatch.setattr(search_stats, "NOGOOD_WORDS", words)
    return [solve_complete(p, time_budget=None) for p in puzzles]


def test_with_and_without_nogoods_the_same_verdicts(monkeypatch):
    # Black and white (the word path) and three colours (the masks' path);
    # without a store, with one, and with one too small to hold more than a
    # few nogoods.
    monkeypatch.setattr(search, "FIRST_ATTEMPT_NODES", 2)
    monkeypatch.setattr(search, "STRATEGIES", (3, 4, 2))
    puzzles = _random_puzzles(7, 40, 2) + _random_puzzles(8, 25, 3)
    total = _counting(monkeypatch)
    plain = _verdicts(monkeypatch, puzzles, 0)
    assert total[search_stats.ST_LEARNED] == 0
    searched = sum(r.nodes > 2 for r in plain)
    assert searched > 15
    for words in (1 << 19, 12):
        total[:] = 0
        learning = _verdicts(monkeypatch, puzzles, words)
        assert total[search_stats.ST_LEARNED] > 0
        assert total[search_stats.ST_NOGOOD_HITS] > 0
        for puzzle, one, other in zip(puzzles, plain, learning, strict=True):
            assert one.status == other.status != "none"
            assert all(puzzle.is_solution(s) for s in other.solutions)
            if other.status == "multiple":
                assert not np.array_equal(*other.solutions)
            else:
                assert np.array_equal(one.grid, other.grid)


def test_clues_of_no_drawn_grid_the_same_verdicts(monkeypatch):
    # Two neighbouring columns' clues swapped: clues no grid was drawn for,
    # some without solution; the verdicts must not change.
    monkeypatch.setattr(search, "FIRST_ATTEMPT_NODES", 2)
    rng = np.random.default_rng(3)
    puzzles = []
    for _ in range(40):
        grid = (rng.random((16, 16)) < 0.4).astype(np.uint8)
        puzzle = Puzzle.from_grid(grid, Palette.black_white())
        cols = list(puzzle.cols)
        i = int(rng.integers(16))
        cols[i], cols[(i + 1) % 16] = cols[(i + 1) % 16], cols[i]
        puzzles.append(Puzzle(16, 16, Palette.black_white(), list(puzzle.rows), cols))
    total = _counting(monkeypatch)
    plain = _verdicts(monkeypatch, puzzles, 0)
    assert total[search_stats.ST_LEARNED] == 0
    learning = _verdicts(monkeypatch, puzzles, 1 << 19)
    assert total[search_stats.ST_LEARNED] > 20
    assert [r.status for r in plain] == [r.status for r in learning]
    for puzzle, one, other in zip(puzzles, plain, learning, strict=True):
        assert all(puzzle.is_solution(s) for s in other.solutions)
        if other.status == "unique":
            assert np.array_equal(one.grid, other.grid)
