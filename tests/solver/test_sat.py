"""The SAT engine against rofl's compiled search and brute force: the
corpus puzzles of at most 30x30, random hexagonal and ``?`` puzzles."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rofl
from rofl.errors import OptionError
from rofl.hexagon import HexPuzzle
from rofl.puzzle import Palette, Puzzle
from tests.places import CORPUS

pytest.importorskip("pysat")

PALETTES = {k: Palette([(60 * i, 0, 0) for i in range(k)]) for k in (2, 3, 4)}
SMALL = sorted(p for p in CORPUS.glob("*/*.json")) if CORPUS.is_dir() else []  # filtered to <= 30x30 when read


def _same_answer(puzzle, budget=5.0):
    """Both engines give the same status, and solutions that satisfy the clues
    (the same one when unique); None when either ran out of budget."""
    search = rofl.solve_complete(puzzle, time_budget=budget)
    if search.status == "budget":
        return None  # nothing to compare the SAT engine's answer with
    sat = rofl.solve_complete(puzzle, time_budget=budget, engine="sat")
    if sat.status == "budget":
        return None
    assert sat.status == search.status, (search.status, sat.status)
    for grid in sat.solutions:
        assert puzzle.is_solution(grid)
    if sat.status == "unique":
        assert np.array_equal(sat.grid, search.grid)
    if sat.status == "multiple":
        assert not np.array_equal(*sat.solutions)
    return sat.status


def _corpus_cases(every: int, skip: tuple[str, ...] = ()):
    from rofl.formats import read_puzzle

    for path in SMALL[::every]:
        if path.parent.name in skip:
            continue
        puzzle, _ = read_puzzle(path)
        if puzzle.width <= 30 and puzzle.height <= 30:
            yield path, puzzle


@pytest.mark.skipif(not SMALL, reason="shared corpus not available")
def test_corpus_sample():
    """Every tenth corpus puzzle of at most 30x30 but the tournament's, which
    take the SAT engine seconds each (all of them: the slow test below)."""
    seen = {_same_answer(p) for _, p in _corpus_cases(10, skip=("taai-tournament",))}
    assert "unique" in seen


FOLDERS = sorted({p.parent.name for p in SMALL})
# the tournament's 150 puzzles take the SAT engine up to seconds each
BUDGET = {"taai-tournament": 0.5}


@pytest.mark.slow
@pytest.mark.skipif(not SMALL, reason="shared corpus not available")
@pytest.mark.parametrize("folder", FOLDERS)
def test_every_corpus_puzzle_up_to_30(folder):
    """Every corpus puzzle of at most 30x30, a folder at a time; those either
    engine cannot decide within the budget are counted, not compared."""
    tally: dict = {}
    others = tuple(f for f in FOLDERS if f != folder)
    for path, puzzle in _corpus_cases(1, skip=others):
        got = _same_answer(puzzle, budget=BUDGET.get(folder, 2.0))
        tally[got] = tally.get(got, 0) + 1
        assert got != "none", path.name
    print(f"\n{folder}: {tally}")
    if not tally:
        pytest.skip(f"{folder}: no puzzle of at most 30x30")
    assert set(tally) - {None}


@settings(deadline=None, max_examples=40)
@given(st.integers(1, 6), st.sampled_from([2, 3, 4]), st.floats(0, 1), st.data())
def test_random_hexagons_with_question_marks(side, k, fraction, data):
    n = 3 * side * (side - 1) + 1
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    cells = rng.integers(0, k, n)
    exact = HexPuzzle.from_cells(side, cells, PALETTES[k])
    puzzle = exact.with_unknown_colors(rng.random(exact.n_groups) < fraction) if k > 2 else exact
    assert _same_answer(puzzle) in ("unique", "multiple", None)


@settings(deadline=None, max_examples=40)
@given(st.integers(1, 8), st.integers(1, 8), st.sampled_from([3, 4]), st.data())
def test_random_rectangles_with_question_marks(h, w, k, data):
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    grid = rng.integers(0, k, (h, w))
    exact = Puzzle.from_grid(grid, PALETTES[k])
    _same_answer(exact.with_unknown_colors(rng.random(exact.n_groups) < 0.5))


def test_no_solution():
    clash = HexPuzzle(2, PALETTES[2], [[(1, 1)], [], [(1, 1)]], [[(1, 1)], [], [(1, 1)]], [[], [(2, 1)], []])
    assert rofl.solve_complete(clash, engine="sat").status == "none"
    # a rectangle whose clues contradict: the rows and columns agree in totals only
    p = Puzzle(2, 2, PALETTES[2], [[(1, 1)], [(1, 1)]], [[(2, 1)], []])
    assert rofl.solve_complete(p, engine="sat").status == rofl.solve_complete(p).status


def test_engine_options():
    p = Puzzle.from_grid(np.eye(3, dtype=int))
    with pytest.raises(OptionError, match=r"engine must be 'search' or 'sat', not 'picosat'"):
        rofl.solve_complete(p, engine="picosat")
    with pytest.raises(OptionError, match="the SAT engine takes a time budget, not a node budget"):
        rofl.solve_complete(p, engine="sat", node_budget=10)
    assert rofl.solve_complete(p, engine="sat", search=False).status == rofl.solve_complete(p, search=False).status
