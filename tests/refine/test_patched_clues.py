"""Clues patched from a nearby grid's (:func:`rofl.refine.judge.patched_clues`,
and its patching alone, which a small grid skips) against the clues derived
whole (:func:`rofl.refine.judge.grid_clues`)."""

from __future__ import annotations

import numpy as np
import pytest

from rofl.refine.judge import WHOLE_CELLS, _patched, grid_clues, patched_clues


def _assert_same(a, b):
    for field in ("lens", "cols", "offs"):
        x, y = getattr(a, field), getattr(b, field)
        assert x.dtype == y.dtype == np.int64
        assert np.array_equal(x, y), field
    assert a.kmax == b.kmax


@pytest.mark.parametrize("shape", [(1, 1), (1, 9), (9, 1), (7, 11), (30, 30)])
@pytest.mark.parametrize("k", [2, 4])
def test_patched_clues_equal_the_clues_of_the_whole_grid(shape, k):
    rng = np.random.default_rng(shape[0] * 100 + shape[1] + k)
    for _ in range(20):
        near = rng.integers(0, k, size=shape).astype(np.uint8)
        grid = near.copy()
        n = rng.integers(1, 5)
        cells = rng.integers(0, grid.size, size=n)
        grid.flat[cells] = rng.integers(0, k, size=n)
        diff = grid != near
        lines = np.concatenate([diff.any(axis=1), diff.any(axis=0)])
        for patch in (patched_clues, _patched):
            _assert_same(patch(grid, grid_clues(near), lines), grid_clues(grid))


def test_patched_clues_of_lines_that_became_blank_or_full():
    near = np.zeros((5, 6), dtype=np.uint8)
    near[2] = 1
    grid = near.copy()
    grid[2] = 0  # a full row goes blank, every column changes
    grid[:, 4] = 1  # a blank column fills
    diff = grid != near
    lines = np.concatenate([diff.any(axis=1), diff.any(axis=0)])
    _assert_same(_patched(grid, grid_clues(near), lines), grid_clues(grid))


def test_a_large_grid_is_patched_and_a_small_one_derived_whole(monkeypatch):
    """The clues of a grid of fewer than WHOLE_CELLS cells a changed line
    are derived whole; a larger grid's are patched (the same value)."""
    import rofl.refine.judge as judge

    calls = []
    monkeypatch.setattr(judge, "_patched", lambda *args: calls.append(args[0].shape) or _patched(*args))
    for shape in ((20, 30), (60, 70)):
        near = np.zeros(shape, dtype=np.uint8)
        grid = near.copy()
        grid[3, 4] = 1
        lines = np.zeros(sum(shape), dtype=bool)
        lines[[3, shape[0] + 4]] = True
        _assert_same(patched_clues(grid, grid_clues(near), lines), grid_clues(grid))
    assert 20 * 30 < 2 * WHOLE_CELLS < 60 * 70
    assert calls == [(60, 70)]
