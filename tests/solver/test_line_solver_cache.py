"""LineSolver: the line-result cache and resuming from an earlier state change no result."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rofl.errors import PuzzleError
from rofl.puzzle import Palette, Puzzle
from rofl.refine.judge import Judge, grid_clues
from rofl.solver import LineSolver, initial_masks, solve
from tests import naive

PALETTE = Palette(["#ffffff", "#000000", "#ff0000", "#00ff00", "#0000ff"])


def _random_grid(rng: np.random.Generator, h: int, w: int, n_colors: int) -> np.ndarray:
    ink = rng.random((h, w)) < rng.choice([0.4, 0.6])
    return np.where(ink, rng.integers(1, n_colors, size=(h, w)), 0).astype(np.uint8)


def _puzzle(grid: np.ndarray, n_colors: int) -> Puzzle:
    return Puzzle.from_grid(grid, Palette(PALETTE.colors[:n_colors]))


def _same(a, b) -> None:
    assert a.status == b.status
    np.testing.assert_array_equal(a.masks, b.masks)
    assert a.bad_line == b.bad_line
    # the cache returns the very results the DP would, so the queue runs alike
    assert (a.line_solves, a.sweeps) == (b.line_solves, b.sweeps)


@st.composite
def edit_sequences(draw):
    """A random grid and a few variants, each one or two cells away from the previous."""
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    n_colors = draw(st.integers(2, 5))
    h, w = draw(st.integers(2, 16)), draw(st.integers(2, 16))
    grid = _random_grid(rng, h, w, n_colors)
    grids = [grid]
    for _ in range(draw(st.integers(1, 6))):
        g = grids[-1].copy()
        for _ in range(draw(st.integers(1, 2))):
            g[rng.integers(h), rng.integers(w)] = rng.integers(n_colors)
        grids.append(g)
    return grids, n_colors


@settings(deadline=None, max_examples=120)
@given(edit_sequences(), st.sampled_from([0.001, 0.05, 64.0]))
def test_cache_changes_no_result(case, cache_mb):
    # 0.001 MB holds a handful of entries: constant evictions and slot collisions.
    grids, n_colors = case
    cached = LineSolver(cache_mb=cache_mb)
    for _ in range(2):  # the second round runs mostly from the cache
        for grid in grids:
            puzzle = _puzzle(grid, n_colors)
            _same(cached.solve(puzzle), solve(puzzle))


def test_cache_is_used_across_similar_puzzles():
    rng = np.random.default_rng(7)
    grid = _random_grid(rng, 20, 20, 3)
    solver = LineSolver()
    first = solver.solve(_puzzle(grid, 3))
    assert first.cache_hits == 0 and first.cache_misses == first.line_solves
    again = solver.solve(_puzzle(grid, 3))
    assert again.cache_misses == 0 and again.cache_hits == again.line_solves
    grid[5, 5] = (grid[5, 5] + 1) % 3
    changed = solver.solve(_puzzle(grid, 3))
    assert changed.cache_hits > 0
    assert solver.hits == first.cache_hits + again.cache_hits + changed.cache_hits
    assert solver.misses == first.cache_misses + again.cache_misses + changed.cache_misses
    solver.clear_cache()
    assert solver.solve(_puzzle(grid, 3)).cache_hits == 0


def test_cache_across_sizes_and_palettes():
    # A bigger puzzle regrows the cache; another palette gives other line states.
    rng = np.random.default_rng(3)
    solver = LineSolver(cache_mb=1)
    for h, w, k in [(5, 5, 2), (12, 9, 3), (5, 5, 2), (30, 40, 5), (12, 9, 3), (5, 5, 4)]:
        puzzle = _puzzle(_random_grid(rng, h, w, k), k)
        _same(solver.solve(puzzle), solve(puzzle))


def test_cache_switches_to_wide_masks_for_many_colours():
    # Up to 8 colours the cache stores masks as bytes; a puzzle with more
    # colours switches it to int64 for good, and no result changes.
    rng = np.random.default_rng(4)
    many = Palette([f"#{i * 12:02x}{255 - i * 12:02x}{(i * 37) % 256:02x}" for i in range(20)])
    solver = LineSolver(cache_mb=1)
    for h, w, k in [(9, 11, 3), (14, 12, 20), (9, 11, 3), (20, 16, 12), (6, 6, 2)]:
        palette = Palette(many.colors[:k]) if k > 5 else Palette(PALETTE.colors[:k])
        grid = _random_grid(rng, h, w, k)
        puzzle = Puzzle.from_grid(grid, palette)
        for _ in range(2):  # the second solve comes from the cache
            _same(solver.solve(puzzle), solve(puzzle))
    assert solver._cache_wide and solver.hits > 0


def test_cached_contradictions():
    rng = np.random.default_rng(11)
    grid = _random_grid(rng, 8, 8, 3)
    puzzle = _puzzle(grid, 3)
    solver = LineSolver()
    for _ in range(40):
        start = initial_masks(puzzle)
        r, c = rng.integers(8), rng.integers(8)
        start[r, c] = 1 << rng.integers(3)
        fresh = solve(puzzle, start=start)
        for _ in range(2):
            _same(solver.solve(puzzle, start=start), fresh)
    assert solver.hits > 0


# -------------------------------------------------------------------- resume


@st.composite
def puzzles(draw, max_side=14):
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    n_colors = draw(st.integers(2, 4))
    h, w = draw(st.integers(1, max_side)), draw(st.integers(1, max_side))
    grid = _random_grid(rng, h, w, n_colors)
    return _puzzle(grid, n_colors), grid, rng


@settings(deadline=None, max_examples=100)
@given(puzzles(), st.booleans())
def test_resume_from_widened_state(case, use_cache):
    # Any state between the initial masks and the fixpoint leads back to the fixpoint.
    puzzle, _, rng = case
    solver = LineSolver(cache_mb=4 if use_cache else 0)
    fixpoint = solve(puzzle)
    start = fixpoint.masks.copy()
    widen = rng.random(start.shape) < rng.choice([0.05, 0.3, 1.0])
    start[widen] |= initial_masks(puzzle)[widen]
    r, c = np.nonzero(widen)
    touched = sorted({*r.tolist(), *(puzzle.height + c).tolist()})
    resumed = solver.solve(puzzle, start=start, lines=touched)
    assert resumed.status == fixpoint.status
    np.testing.assert_array_equal(resumed.masks, fixpoint.masks)
    # the start array is copied, not changed
    assert np.array_equal(start[widen], (fixpoint.masks | initial_masks(puzzle))[widen])


@settings(deadline=None, max_examples=100)
@given(puzzles(max_side=8))
def test_resume_after_a_probe(case):
    # The search solver's move: fix one cell of a stalled state, look at its row and column.
    puzzle, grid, rng = case
    state = solve(puzzle)
    cells = np.argwhere(state.masks & (state.masks - 1))
    if len(cells) == 0:
        cells = np.argwhere(state.masks != 0)
    r, c = cells[rng.integers(len(cells))]
    options = [b for b in range(puzzle.n_colors) if (state.masks[r, c] >> b) & 1]
    probe = state.masks.copy()
    probe[r, c] = 1 << options[rng.integers(len(options))]
    resumed = LineSolver().solve(puzzle, start=probe, lines=[r, puzzle.height + c])
    full = solve(puzzle, start=probe)
    status, masks = naive.propagate(puzzle, start=probe)
    assert resumed.status == full.status == status
    if status != "contradiction":
        np.testing.assert_array_equal(resumed.masks, masks)
        np.testing.assert_array_equal(full.masks, masks)
    if probe[r, c] == 1 << int(grid[r, c]):
        assert status != "contradiction"  # the picture itself is still possible


def test_resume_with_no_lines_keeps_the_state():
    puzzle = Puzzle.from_grid(np.eye(4, dtype=np.uint8))
    start = initial_masks(puzzle)
    result = solve(puzzle, start=start, lines=[])
    assert result.status == "stalled" and result.line_solves == 0
    np.testing.assert_array_equal(result.masks, start)


def test_resume_arguments_are_checked():
    puzzle = Puzzle.from_grid(np.eye(4, dtype=np.uint8))
    with pytest.raises(PuzzleError, match=r"start masks have shape \(3, 4\), the puzzle is 4x4"):
        solve(puzzle, start=np.zeros((3, 4), dtype=np.int64))
    with pytest.raises(PuzzleError, match=r"line indices must be within 0..7"):
        solve(puzzle, lines=[8])
    with pytest.raises(PuzzleError, match=r"line indices must be within 0..7"):
        solve(puzzle, lines=[-1])


def test_lines_sharing_a_cache_set_do_not_evict_each_other():
    # The table is two-way set-associative: every line of a large solve finds
    # its entry again on the next solve, although with one way per slot some
    # of them would share a slot and evict each other.
    solver = LineSolver(cache_mb=16)
    rng = np.random.default_rng(5)
    for _ in range(6):
        puzzle = _puzzle(_random_grid(rng, 40, 40, 4), 4)
        first = solver.solve(puzzle)
        again = solver.solve(puzzle)
        assert again.cache_misses == 0 and again.cache_hits == first.line_solves


def _changed_lines(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    diff = a != b
    return np.concatenate([diff.any(axis=1), diff.any(axis=0)])


@settings(deadline=None, max_examples=150)
@given(edit_sequences(), st.sampled_from([0.0, 0.001, 64.0]))
def test_replaying_a_similar_solve_reaches_the_same_fixpoint(case, cache_mb):
    # Each grid is solved by replaying the previous grid's record (itself a
    # replay), and sometimes the record before that (more cells differ).
    grids, n_colors = case
    solver = LineSolver(cache_mb=cache_mb)
    shape = grids[0].shape
    records = []
    for i, grid in enumerate(grids):
        expected = solve(_puzzle(grid, n_colors))
        packed = grid_clues(grid)
        bases = [None] + [j for j in (i - 1, i - 2) if j >= 0]
        for j in bases:
            base, changed = (None, None) if j is None else (records[j], _changed_lines(grid, grids[j]))
            result, record = Judge(solver).replay(packed, shape, n_colors, base, changed)
            assert result.status == expected.status
            np.testing.assert_array_equal(result.masks, expected.masks)
            assert record is not None
        records.append(record)


def test_replay_skips_the_lines_it_can_and_says_so_when_its_record_is_full():
    rng = np.random.default_rng(3)
    grid = _random_grid(rng, 30, 30, 2)
    solver = LineSolver(cache_mb=0)
    packed = grid_clues(grid)
    first, record = Judge(solver).replay(packed, grid.shape, 2, None, None)
    assert first.line_solves >= 60 and len(record.line) > 0
    # the same puzzle again: every recorded visit replays, nothing is solved
    again, _ = Judge(solver).replay(packed, grid.shape, 2, record, np.zeros(60, dtype=bool))
    assert again.line_solves == 0
    np.testing.assert_array_equal(again.masks, first.masks)
    # one cell off: far fewer line solves than from nothing
    edited = grid.copy()
    edited[4, 7] ^= 1
    near, _ = Judge(solver).replay(grid_clues(edited), grid.shape, 2, record, _changed_lines(edited, grid))
    full = solve(_puzzle(edited, 2))
    np.testing.assert_array_equal(near.masks, full.masks)
    assert near.line_solves < full.line_solves
    grid = edited
    # a record without room: the solve is still right, the record is None
    tight, none = Judge(solver).replay(grid_clues(grid), grid.shape, 2, None, None, room=3)
    assert none is None
    np.testing.assert_array_equal(tight.masks, full.masks)
