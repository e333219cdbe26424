"""Line logic over whole puzzles: the real corpus, and small puzzles against naive propagation."""

from __future__ import annotations

import numpy as np
from hypothesis import event, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from rofl.formats.corpus import load
from rofl.puzzle import Palette, Puzzle
from rofl.solver import determined, initial_masks, solve
from tests import naive
from tests.places import CORPUS, needs_corpus

# CI clones the repository with shared/ beside it.
CORPUS_FILES = sorted(CORPUS.glob("*/*.json"))


def _excludes(masks: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """Cells where ``masks`` rule out the colour ``grid`` has there."""
    return (masks & (np.int64(1) << grid.astype(np.int64))) == 0


@needs_corpus
def test_corpus():
    counts = {"solved": 0, "stalled": 0}
    solved_to_given = 0
    for path in CORPUS_FILES:
        puzzle, solution = load(path)
        result = solve(puzzle)
        assert result.status in counts, f"{path}: {result.status}"
        counts[result.status] += 1
        if result.status == "solved":
            assert result.undetermined == 0
            assert result.grid.dtype == np.uint8
            assert result.grid.shape == (puzzle.height, puzzle.width)
            assert puzzle.is_solution(result.grid), path
            if solution is not None:
                # a puzzle line logic finishes has exactly one solution
                np.testing.assert_array_equal(result.grid, solution, err_msg=str(path))
                solved_to_given += 1
        else:
            assert result.grid is None
            assert result.undetermined > 0
            assert np.all(result.masks != 0), path
            if solution is not None:
                assert not _excludes(result.masks, solution).any(), f"{path}: the known solution was excluded"
    assert sum(counts.values()) == len(CORPUS_FILES)
    # the corpus has both kinds; if it changed, these say how
    assert counts["solved"] > 0 and counts["stalled"] > 0, counts
    assert solved_to_given > 0


@needs_corpus
def test_corpus_multicolour_present():
    # The colour puzzles are the only real test of the colour DP on big lines.
    n = sum(1 for p in CORPUS_FILES if load(p)[0].n_colors > 2)
    assert n > 0


# ------------------------------------------- small puzzles: naive propagation


@st.composite
def grids(draw, max_side=7, max_colors=4):
    n_colors = draw(st.integers(2, max_colors))
    h = draw(st.integers(1, max_side))
    w = draw(st.integers(1, max_side))
    density = draw(st.sampled_from([0.3, 0.5, 0.7]))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    ink = rng.random((h, w)) < density
    grid = np.where(ink, rng.integers(1, n_colors, size=(h, w)), 0)
    return grid.astype(np.uint8), n_colors


def _palette(n_colors: int) -> Palette:
    return Palette([(255, 255, 255), *[(10 * i, 20 * i % 256, 255 - 9 * i) for i in range(1, n_colors)]])


@settings(deadline=None, max_examples=200)
@given(grids(max_side=8))
def test_fixpoint_equals_naive_propagation(case):
    grid, n_colors = case
    puzzle = Puzzle.from_grid(grid, _palette(n_colors))
    result = solve(puzzle)
    status, masks = naive.propagate(puzzle)
    event(status)
    assert result.status == status
    np.testing.assert_array_equal(result.masks, masks)
    # the picture the clues came from is never ruled out
    assert not _excludes(result.masks, grid).any()
    if status == "solved":
        np.testing.assert_array_equal(result.grid, grid)


@settings(deadline=None, max_examples=60)
@given(grids(max_side=6, max_colors=3), st.integers(0, 2**32 - 1))
def test_contradictions_match_naive(case, seed):
    # Start from masks with a few cells narrowed at random: often a contradiction.
    grid, n_colors = case
    puzzle = Puzzle.from_grid(grid, _palette(n_colors))
    rng = np.random.default_rng(seed)
    start = initial_masks(puzzle)
    pick = rng.random(start.shape) < 0.2
    start[pick] = np.int64(1) << rng.integers(0, n_colors, size=int(pick.sum()))
    result = solve(puzzle, start=start)
    status, masks = naive.propagate(puzzle, start=start)
    event(status)
    assert result.status == status
    if status == "contradiction":
        assert result.bad_line is not None and 0 <= result.bad_line < puzzle.n_lines
        assert result.grid is None
    else:
        assert result.bad_line is None
        np.testing.assert_array_equal(result.masks, masks)


@settings(deadline=None, max_examples=80)
@given(arrays(np.uint8, st.tuples(st.integers(1, 25), st.integers(1, 25)), elements=st.integers(0, 4)))
def test_from_grid_then_solve(grid):
    # Any picture's own clues: solved back to it, or stalled with it still possible.
    puzzle = Puzzle.from_grid(grid, _palette(5))
    result = solve(puzzle)
    event(result.status)
    assert result.status in ("solved", "stalled")
    assert not _excludes(result.masks, grid).any()
    if result.status == "solved":
        np.testing.assert_array_equal(result.grid, grid)
    else:
        assert result.undetermined == int((~determined(result.masks)).sum()) > 0


def test_from_grid_solve_picture():
    grid = np.array(
        [
            [0, 1, 1, 0, 2],
            [1, 1, 2, 2, 2],
            [0, 3, 3, 3, 0],
            [0, 0, 1, 0, 0],
        ]
    )
    result = solve(Puzzle.from_grid(grid, _palette(4)))
    assert result.status == "solved"
    np.testing.assert_array_equal(result.grid, grid)


def test_threads_may_solve_at_once():
    # The kernels release the GIL; rofl.solve must not share work buffers between threads.
    from concurrent.futures import ThreadPoolExecutor

    rng = np.random.default_rng(5)
    puzzles = []
    for _ in range(120):
        h, w = rng.integers(10, 40, size=2)
        grid = (rng.random((h, w)) < rng.choice([0.5, 0.65, 0.8])).astype(np.uint8)
        puzzles.append(Puzzle.from_grid(grid))
    expected = [solve(p) for p in puzzles]
    with ThreadPoolExecutor(4) as pool:
        for _ in range(3):
            for want, got in zip(expected, pool.map(solve, puzzles), strict=True):
                assert got.status == want.status
                np.testing.assert_array_equal(got.masks, want.masks)
