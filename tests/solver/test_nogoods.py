"""The search's learned nogoods (rofl.kernels._search: ``_learn``,
``_nogood_pass``, ``_live_nogoods``) against brute force and against the
search without them.

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
from tests.naive import all_solutions

LINES_6X6 = [[r * 6 + c for c in range(6)] for r in range(6)] + [[r * 6 + c for r in range(6)] for c in range(6)]
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


def test_nogoods_against_brute_force_over_many_attempts(monkeypatch):
    # Every attempt one node: what an attempt proves empty comes back as
    # nogoods at the next one's root and below.
    monkeypatch.setattr(search, "FIRST_ATTEMPT_NODES", 1)
    total = _counting(monkeypatch)
    rng = np.random.default_rng(45)
    for _ in range(80):
        grid = (rng.random((6, 6)) < 0.35).astype(np.uint8)
        puzzle = Puzzle.from_grid(grid, Palette.black_white())
        truth = all_solutions(LINES_6X6, [*puzzle.rows, *puzzle.cols], 36)
        result = solve_complete(puzzle, time_budget=None)
        assert result.status == ("unique" if len(truth) == 1 else "multiple")
        assert {tuple(g.ravel().tolist()) for g in result.solutions} <= set(truth)
    assert total[search_stats.ST_LEARNED] > 20
    assert total[search_stats.ST_NOGOOD_HITS] > 0


def _random_puzzles(seed: int, count: int, colours: int) -> list[Puzzle]:
    rng = np.random.default_rng(seed)
    puzzles = []
    for _ in range(count):
        size = int(rng.integers(10, 18))
        grid = rng.choice(colours, size=(size, size), p=[0.6, *[0.4 / (colours - 1)] * (colours - 1)])
        palette = Palette.black_white() if colours == 2 else COLOURS
        puzzles.append(Puzzle.from_grid(grid.astype(np.uint8), palette))
    return puzzles


def _verdicts(monkeypatch, puzzles, words: int, flags: int = 0):
    monkeypatch.setattr(search_stats, "NOGOOD_WORDS", words)
    original = search._Restarts.__init__

    def init(self, *args):
        original(self, *args)
        if self.learned.shape[0] > 1:
            self.learned[1] = flags

    monkeypatch.setattr(search._Restarts, "__init__", init)
    results = [solve_complete(p, time_budget=None) for p in puzzles]
    monkeypatch.setattr(search._Restarts, "__init__", original)
    return results


def test_with_and_without_nogoods_the_same_verdicts(monkeypatch):
    # Black and white (the word path) and three colours (the masks' path);
    # without a store, with nogoods checked at nodes only, at nodes and in
    # probes, and with a store too small to hold more than a few.
    monkeypatch.setattr(search, "FIRST_ATTEMPT_NODES", 2)
    monkeypatch.setattr(search, "STRATEGIES", (3, 4, 2))
    puzzles = _random_puzzles(7, 40, 2) + _random_puzzles(8, 25, 3)
    total = _counting(monkeypatch)
    plain = _verdicts(monkeypatch, puzzles, 0)
    assert total[search_stats.ST_LEARNED] == 0
    searched = sum(r.nodes > 2 for r in plain)
    assert searched > 15
    for words, flags in ((1 << 19, 0), (1 << 19, 1), (9, 0)):
        total[:] = 0
        learning = _verdicts(monkeypatch, puzzles, words, flags)
        assert total[search_stats.ST_LEARNED] > 0
        for puzzle, one, other in zip(puzzles, plain, learning, strict=True):
            assert one.status == other.status != "none"
            assert all(puzzle.is_solution(s) for s in other.solutions)
            if other.status == "multiple":
                assert not np.array_equal(*other.solutions)
            else:
                assert np.array_equal(one.grid, other.grid)


def test_a_puzzle_without_solution_stays_without(monkeypatch):
    # Nogoods learned while proving there is none must not invent one.
    monkeypatch.setattr(search, "FIRST_ATTEMPT_NODES", 1)
    rng = np.random.default_rng(3)
    checked = 0
    for _ in range(60):
        grid = (rng.random((7, 7)) < 0.4).astype(np.uint8)
        puzzle = Puzzle.from_grid(grid, Palette.black_white())
        rows = list(puzzle.rows)
        rows[0], rows[3] = rows[3], rows[0]  # clues that may no longer fit together
        other = Puzzle(7, 7, Palette.black_white(), rows, list(puzzle.cols))
        lines = [[r * 7 + c for c in range(7)] for r in range(7)] + [[r * 7 + c for r in range(7)] for c in range(7)]
        truth = all_solutions(lines, [*other.rows, *other.cols], 49)
        result = solve_complete(other, time_budget=None)
        expected = {0: "none", 1: "unique"}.get(len(truth), "multiple")
        assert result.status == expected
        checked += result.nodes > 1
    assert checked > 5
