"""Replaying a recorded solve (:meth:`rofl.refine.judge.Judge.replay`)
against line logic the slow, obvious way (:func:`tests.naive.propagate`).

A replay takes a recorded visit as it is where the line's cells equal the
recording's, intersects the cells with the recorded result where they are
narrower (a *weak* visit, recorded as ``~line``), and solves the line for
real otherwise; whatever it takes, it must reach the fixpoint line logic
reaches from nothing known, and its own record must replay in turn.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rofl.puzzle import Palette, Puzzle
from rofl.refine.judge import Judge, grid_clues
from rofl.solver import LineSolver
from tests import naive

PALETTE = Palette(["#ffffff", "#000000", "#ff0000", "#00ff00"])


def _grid(rng: np.random.Generator, h: int, w: int, n_colors: int) -> np.ndarray:
    ink = rng.random((h, w)) < rng.choice([0.4, 0.6, 0.8])
    return np.where(ink, rng.integers(1, n_colors, size=(h, w)), 0).astype(np.uint8)


def _changed(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    diff = a != b
    return np.concatenate([diff.any(axis=1), diff.any(axis=0)])


def _reference(grid: np.ndarray, n_colors: int) -> tuple[str, np.ndarray]:
    return naive.propagate(Puzzle.from_grid(grid, Palette(PALETTE.colors[:n_colors])))


def _walk(rng: np.random.Generator, h: int, w: int, n_colors: int, steps: int) -> list[np.ndarray]:
    """A grid and variants, each one or two cells away from the one before
    (as refinement's candidates are from the grid they come from)."""
    grids = [_grid(rng, h, w, n_colors)]
    for _ in range(steps):
        g = grids[-1].copy()
        for _ in range(int(rng.integers(1, 3))):
            g[rng.integers(h), rng.integers(w)] = rng.integers(n_colors)
        grids.append(g)
    return grids


def _replay_chain(grids: list[np.ndarray], n_colors: int, cache_mb: float) -> list:
    """Replay every grid from the records of the one or two before it (records
    of replays themselves); check each against the reference."""
    solver = LineSolver(cache_mb=cache_mb)
    shape = grids[0].shape
    records = []
    for i, grid in enumerate(grids):
        status, masks = _reference(grid, n_colors)
        packed = grid_clues(grid)
        record = None
        for j in [None] + [j for j in (i - 1, i - 2) if j >= 0]:
            base, changed = (None, None) if j is None else (records[j], _changed(grid, grids[j]))
            result, record = Judge(solver).replay(packed, shape, n_colors, base, changed)
            assert result.status == status
            np.testing.assert_array_equal(result.masks, masks)
            assert record is not None
        records.append(record)
    return records


@settings(deadline=None, max_examples=120)
@given(
    st.integers(0, 2**32 - 1),
    st.integers(2, 3),
    st.integers(1, 7),
    st.integers(1, 7),
    st.integers(1, 8),
    st.sampled_from([0.0, 0.001, 64.0]),
)
def test_replays_reach_the_fixpoint_of_line_logic(seed, n_colors, h, w, steps, cache_mb):
    rng = np.random.default_rng(seed)
    _replay_chain(_walk(rng, h, w, n_colors, steps), n_colors, cache_mb)


def test_weak_visits_are_recorded_and_replay_to_the_same_fixpoint():
    # Chains long enough that some replay meets cells narrower than its
    # record's and takes the recorded results as upper bounds: its record
    # then holds weak visits, which later replays must take right too (the
    # chain checks every replay against the reference).
    weak = 0
    for seed in range(40):
        rng = np.random.default_rng(seed)
        records = _replay_chain(_walk(rng, 7, 7, 2, 12), 2, 64.0)
        weak += sum(int((r.line < 0).sum()) for r in records)
    assert weak > 0


def test_a_record_with_weak_visits_replays_its_own_puzzle_without_solving():
    # Every weak visit of a record is followed by a line solve of that line
    # (the replay's last pass), so the same puzzle replays from the record
    # with nothing solved.
    for seed in range(60):
        rng = np.random.default_rng(seed)
        grids = _walk(rng, 7, 7, 2, 12)
        solver = LineSolver(cache_mb=64.0)
        record = None
        for i, grid in enumerate(grids):
            changed = None if i == 0 else _changed(grid, grids[i - 1])
            _, record = Judge(solver).replay(grid_clues(grid), grid.shape, 2, record, changed)
            if (record.line < 0).any():
                again, _ = Judge(solver).replay(
                    grid_clues(grid), grid.shape, 2, record, np.zeros(sum(grid.shape), dtype=bool)
                )
                assert again.line_solves == 0
                np.testing.assert_array_equal(again.masks, _reference(grid, 2)[1])
                return
    pytest.fail("no record with weak visits")
