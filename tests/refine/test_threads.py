"""Refinement in several threads (``refine(..., threads=N)``): a large
batch of move estimates split between threads.  The answers must not
depend on the threads: the same picture, the same judged grids and the
same line solves (the work budgets count them) as in one thread."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from rofl import make
from rofl.errors import OptionError
from rofl.puzzle import Palette
from rofl.refine import judge as judge_module
from rofl.refine import passes as refine_module
from rofl.refine import refine
from rofl.refine.judge import Judge, grid_clues
from rofl.refine.refinement import THREADS_MOST, default_threads
from rofl.solver import LineSolver

from .test_refine import ADVERSARIAL, PALETTES, assert_valid

BW = Palette(["#ffffff", "#000000"])


def _picture(n: int, seed: int) -> np.ndarray:
    """A blotchy black-and-white picture: line logic gets part of the way."""
    rng = np.random.default_rng(seed)
    field = rng.random((n // 4 + 2, n // 4 + 2))
    big = np.kron(field, np.ones((4, 4)))[:n, :n] + 0.35 * rng.random((n, n))
    return (big > 0.7).astype(np.uint8)


def _stalled(grid: np.ndarray) -> tuple[np.ndarray, object, np.ndarray]:
    """Line logic's stalled fixpoint of ``grid``'s clues and every move of an open cell to the other colour."""
    packed = grid_clues(grid)
    result, _ = Judge(LineSolver()).replay(packed, grid.shape, 2, None, None)
    masks = result.masks.copy()
    open_cells = np.flatnonzero((masks & (masks - 1)).reshape(-1) != 0)
    rows, cols = np.divmod(open_cells, grid.shape[1])
    moves = np.stack([rows, cols, 1 - grid.reshape(-1)[open_cells]], axis=1).astype(np.int64)
    return masks, packed, moves


@pytest.mark.parametrize("threads", [2, 3])
def test_split_estimates_equal_one_threads(threads, monkeypatch):
    monkeypatch.setattr(judge_module, "SPLIT_MOVES", 8)
    grid = _picture(48, 1)
    masks, packed, moves = _stalled(grid)
    assert len(moves) >= 8 * threads  # the batch is split
    before = (grid.copy(), masks.copy())
    one, many = Judge(LineSolver(), 1), Judge(LineSolver(), threads)
    expected = one.estimate_moves(grid, masks, packed, moves)
    assert (expected[0] > 0).any() and (expected[2] != 0).any()  # moves that determine cells, and counts
    got = many.estimate_moves(grid, masks, packed, moves)
    for a, b in zip(expected, got, strict=True):
        np.testing.assert_array_equal(a, b)
    assert many.line_solves_estimated == one.line_solves_estimated
    assert len(many._helpers) == threads - 1
    # the grid and masks come back as they were
    np.testing.assert_array_equal(grid, before[0])
    np.testing.assert_array_equal(masks, before[1])


def test_a_small_batch_stays_in_the_calling_thread(monkeypatch):
    grid = _picture(24, 2)
    masks, packed, moves = _stalled(grid)
    assert len(moves) < 2 * judge_module.SPLIT_MOVES
    started = []
    monkeypatch.setattr(judge_module, "ThreadPoolExecutor", lambda *args, **kwargs: started.append(args))
    Judge(LineSolver(), 4).estimate_moves(grid, masks, packed, moves)
    assert started == []


@pytest.mark.parametrize("name", ["noise", "noise-4", "checkerboard-3"])
def test_the_large_grid_path_in_threads_makes_the_same_puzzle(name, monkeypatch):
    monkeypatch.setattr(refine_module, "LARGE_CELLS", 0)
    monkeypatch.setattr(judge_module, "SPLIT_MOVES", 16)
    grid = ADVERSARIAL[name]
    palette = PALETTES[max(2, int(grid.max()) + 1)]
    one = refine(grid, palette, threads=1)
    two = refine(grid, palette, threads=2)
    assert_valid(two, grid)
    np.testing.assert_array_equal(two.grid, one.grid)
    assert (two.evaluations, two.line_solves, two.estimates, two.reverted) == (
        one.evaluations,
        one.line_solves,
        one.estimates,
        one.reverted,
    )


@pytest.mark.slow
def test_a_large_picture_in_threads_is_the_same_puzzle(monkeypatch):
    grid = _picture(150, 3)  # 22,500 cells: the large-grid path as it is
    assert grid.size > refine_module.LARGE_CELLS
    # the greedy pass alone: only its estimates are split between threads
    one = refine(grid, BW, threads=1, revert=False)
    split = []
    plain = Judge._split_estimate

    def counting(self, *args):
        split.append(args[-1])
        return plain(self, *args)

    monkeypatch.setattr(Judge, "_split_estimate", counting)
    two = refine(grid, BW, threads=2, revert=False)
    assert split and set(split) == {2}  # batches were split between two threads
    np.testing.assert_array_equal(two.grid, one.grid)
    assert (two.evaluations, two.line_solves, two.estimates) == (one.evaluations, one.line_solves, one.estimates)


def test_make_takes_threads_and_gives_the_same_puzzle():
    picture = np.kron(_picture(48, 4), np.ones((3, 3), dtype=np.uint8)) * 255
    rgb = np.repeat(picture[..., None], 3, axis=2).astype(np.uint8)
    one = make(rgb, width=48, threads=1)
    two = make(rgb, width=48, threads=2)
    assert one.puzzle == two.puzzle


@pytest.mark.parametrize("threads", [0, -1, 1.5, "2"])
def test_threads_must_be_a_whole_number_of_at_least_one(threads):
    with pytest.raises(OptionError, match="threads"):
        refine(np.ones((3, 3), dtype=np.uint8), BW, threads=threads)
    with pytest.raises(OptionError, match="threads"):  # before any work
        make(np.zeros((4, 4, 3), dtype=np.uint8), threads=threads)


def test_default_threads_are_the_processors_this_process_may_use_at_most_threads_most(monkeypatch):
    monkeypatch.setattr("os.sched_getaffinity", lambda pid: set(range(64)))
    assert default_threads() == THREADS_MOST
    monkeypatch.setattr("os.sched_getaffinity", lambda pid: {0})
    assert default_threads() == 1


def test_a_helpers_exception_reaches_the_caller_and_helpers_run_in_named_threads(monkeypatch):
    monkeypatch.setattr(judge_module, "SPLIT_MOVES", 8)
    grid = _picture(48, 1)
    masks, packed, moves = _stalled(grid)
    plain = Judge._estimate
    names = []

    def recording(self, *args):
        names.append(threading.current_thread().name)
        return plain(self, *args)

    monkeypatch.setattr(Judge, "_estimate", recording)
    Judge(LineSolver(), 2).estimate_moves(grid, masks, packed, moves)
    assert sorted(name.split("_")[0] for name in names) == ["MainThread", "rofl-estimate"]

    def failing(self, *args):
        if threading.current_thread() is not threading.main_thread():
            msg = "boom"
            raise ValueError(msg)
        return plain(self, *args)

    monkeypatch.setattr(Judge, "_estimate", failing)
    with pytest.raises(ValueError, match="boom"):
        Judge(LineSolver(), 2).estimate_moves(grid, masks, packed, moves)
