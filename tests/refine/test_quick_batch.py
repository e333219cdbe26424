"""The quick regime's greedy rounds (refine's ``quick``, ``rofl make
--effort 0`` on a large grid): a batch of gaining moves that does not gain
is judged again as its better half, down to two moves; estimates are
refreshed only after a round that gained nothing, or a plateau round
with most cells determined."""

from __future__ import annotations

import numpy as np
import pytest

from rofl.refine import passes as refine_module
from rofl.refine import refine

from .test_refine import PALETTES, assert_valid


@pytest.fixture
def large_path(monkeypatch):
    """Every grid takes the large-grid path (so small, fast grids test it)."""
    monkeypatch.setattr(refine_module, "LARGE_CELLS", 0)


@pytest.mark.parametrize("seed", [0, 1])
def test_a_batch_that_does_not_gain_is_judged_again_as_its_better_half(seed, large_path, monkeypatch):
    grid = np.random.default_rng(seed).integers(0, 2, (60, 60)).astype(np.uint8)  # 1 and 6 halved batches
    calls = []  # per _quick_batch call: (the batches judged: size, gained, moves), and what it returned
    inside = []
    original_batch, original_judge = refine_module._Run._quick_batch, refine_module._Run.judge_with

    def batch(self, state, moves, keys, undetermined):
        inside.append([])
        try:
            taken = original_batch(self, state, moves, keys, undetermined)
        finally:
            judged = inside.pop()
        calls.append((judged, taken))
        return taken

    def judge_with(self, state, where, colours):
        trial = original_judge(self, state, where, colours)
        if inside:
            inside[-1].append((np.size(where), trial.undetermined < state.undetermined, np.array(where)))
        return trial

    monkeypatch.setattr(refine_module._Run, "_quick_batch", batch)
    monkeypatch.setattr(refine_module._Run, "judge_with", judge_with)
    result = refine(grid, PALETTES[2], polish=0, relocate=0, quick=True)
    assert_valid(result, grid)
    halved = 0
    for judged, taken in calls:
        # each judge after the first is the better half of the one before, which did not gain
        for (size, gained, where), (next_size, _, next_where) in zip(judged, judged[1:], strict=False):
            assert not gained and next_size == size // 2
            np.testing.assert_array_equal(next_where, where[:next_size])  # the better-estimated half
            halved += 1
        if judged:  # the call returns the batch that gained, or None when none did
            assert (taken is not None) == judged[-1][1]
            assert taken is None or len(taken[0]) == judged[-1][0]
            assert judged[-1][1] or judged[-1][0] // 2 < 2
    assert halved > 0  # the case arises on these grids


@pytest.mark.parametrize("seed", [0, 2])
def test_no_refresh_after_a_plateau_round_that_gains_on_a_wide_plateau(seed, large_path, monkeypatch):
    # a plateau round of blind changes that gains while most cells are open
    # is followed by no refresh, as a batch that gains is not (the
    # fourteenth round of "At scale")
    grid = (np.random.default_rng(seed).random((60, 60)) < 0.4).astype(np.uint8)  # 8 and 5 such plateau rounds
    rounds = []  # per greedy round: (undetermined before it, a refresh asked, a plateau round)
    original_moves, original_round = refine_module._Run._estimated_moves, refine_module._Run._best_round

    def estimated_moves(self, state, frozen, estimates, n, undetermined):
        rounds.append([undetermined, estimates.refresh, False])
        return original_moves(self, state, frozen, estimates, n, undetermined)

    def best_round(self, *args):
        taken = original_round(self, *args)
        rounds[-1][2] = taken is not None and taken[2]
        return taken

    monkeypatch.setattr(refine_module._Run, "_estimated_moves", estimated_moves)
    monkeypatch.setattr(refine_module._Run, "_best_round", best_round)
    result = refine(grid, PALETTES[2], polish=0, relocate=0, quick=True)
    assert_valid(result, grid)
    wide_gained = 0
    for (before, _, plateau), (after, refresh, _) in zip(rounds, rounds[1:], strict=False):
        wide = 2 * before > grid.size
        assert refresh == (after >= before or (plateau and not wide))
        wide_gained += plateau and wide and after < before
    assert wide_gained > 0  # the case arises on these grids
