"""Line logic stops inside one compiled pass: at a budget's deadline, on
Ctrl-C, or when its stop slot is already set (rofl.solver._stop)."""

from __future__ import annotations

import gc
import os
import signal
import threading
import time

import numpy as np
import pytest

from rofl.errors import BudgetError
from rofl.kernels import _line as k
from rofl.puzzle import Palette, Puzzle
from rofl.solver import LineSolver, solve
from rofl.solver._stop import THREAD_CELLS, run_stoppable, setting
from rofl.solver.line_logic import initial_masks, kernel_clues

PALETTE3 = Palette([(255, 255, 255), (0, 0, 0), (200, 0, 0)])


def random_puzzle(n: int, seed: int = 1) -> Puzzle:
    # random black-and-white pictures have about n/4 groups per line: every
    # line solve is slow, and line logic needs all 2n lines at least once
    grid = (np.random.default_rng(seed).random((n, n)) < 0.5).astype(np.uint8)
    return Puzzle.from_grid(grid)


@pytest.fixture(scope="module")
def big() -> Puzzle:
    return random_puzzle(1024)


def test_a_stop_slot_already_set_stops_before_the_first_line_solve():
    puzzle = random_puzzle(40)
    solver = LineSolver(cache_mb=0)
    masks = initial_masks(puzzle)
    solver.prepare(puzzle.packed.kmax, masks)
    stats = np.zeros(k.N_STATS, dtype=np.int64)
    stats[k.ST_STOP] = 1
    queue = np.arange(puzzle.n_lines, dtype=np.int64)
    scratch, cache = solver.work()
    status = k._propagate(masks, *kernel_clues(puzzle.packed), queue, *scratch, *cache, stats)
    assert status == k.STOPPED
    assert stats[k.ST_LINE_SOLVES] == 0
    assert (masks == initial_masks(puzzle)).all()
    # nothing is left behind: the same solver then solves as a fresh one
    assert np.array_equal(solver.solve(puzzle).masks, LineSolver(cache_mb=0).solve(puzzle).masks)


@pytest.mark.parametrize(("size", "colours"), [(40, 2), (70, 2), (40, 3)])
def test_the_lean_path_stops_before_the_first_line_solve(size, colours):
    """``rofl.solve``'s lean kernel (bit sets for black and white up to 63
    cells a side, masks otherwise) reads its stop slot too."""
    from rofl.kernels import _fresh as _fast

    grid = np.random.default_rng(size).integers(0, colours, (size, size)).astype(np.uint8)
    puzzle = Puzzle.from_grid(grid) if colours == 2 else Puzzle.from_grid(grid, palette=PALETTE3)
    packed = puzzle.packed
    stats = np.zeros(k.N_STATS, dtype=np.int64)
    stats[k.ST_STOP] = 1
    full = (1 << puzzle.n_colors) - 1
    status, masks = _fast._solve_fresh(
        puzzle.height, puzzle.width, full, packed.lens, packed.cols, packed.offs, packed.kmax, stats, _fast.ALL_RULES
    )
    assert status == k.STOPPED
    assert stats[k.ST_LINE_SOLVES] == 0
    assert (masks == full).all()


def test_a_budget_stops_a_large_puzzle_within_one_pass():
    # rofl.solve's lean path takes about 0.6 s on this one (2 cores, 2026)
    bigger = random_puzzle(2048)
    with pytest.raises(BudgetError, match="line logic did not finish within the 0.05 s budget") as caught:
        solve(bigger, budget=0.05)
    # the whole pass needs every one of the 4096 lines; it stopped long before
    solves = int(str(caught.value).split("(")[1].split()[0])
    assert solves < bigger.n_lines


def test_ctrl_c_stops_a_large_puzzle_and_leaves_the_solver_usable(big):
    solver = LineSolver(cache_mb=1)
    small = random_puzzle(30, seed=2)
    expected = LineSolver(cache_mb=0).solve(small)
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    # no garbage collection meanwhile: a KeyboardInterrupt raised inside a gc
    # callback (hypothesis installs one) is printed and dropped, not raised
    collecting = gc.isenabled()
    gc.disable()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            solver.solve(big)
    finally:
        timer.cancel()
        if collecting:
            gc.enable()
    again = solver.solve(small)
    assert again.status == expected.status and np.array_equal(again.masks, expected.masks)


def test_a_budget_large_enough_changes_nothing():
    puzzle = random_puzzle(300)  # above THREAD_CELLS: runs in the worker thread
    assert puzzle.width * puzzle.height >= THREAD_CELLS
    plain = solve(puzzle)
    budgeted = solve(puzzle, budget=600)
    assert plain.status == budgeted.status and plain.line_solves == budgeted.line_solves
    assert np.array_equal(plain.masks, budgeted.masks)


def test_small_work_runs_in_the_calling_thread_and_large_work_in_a_worker():
    def where():
        return threading.current_thread()

    stop = setting(np.zeros(1, dtype=np.int64), 0)
    assert run_stoppable(where, stop, cells=THREAD_CELLS - 1, deadline=None) is threading.current_thread()
    assert run_stoppable(where, stop, cells=THREAD_CELLS, deadline=None) is not threading.current_thread()


def test_an_error_in_the_worker_reaches_the_caller():
    def fail():
        msg = "from the worker"
        raise ValueError(msg)

    with pytest.raises(ValueError, match="from the worker"):
        run_stoppable(fail, setting(np.zeros(1, dtype=np.int64), 0), cells=THREAD_CELLS, deadline=None)


def test_ctrl_c_returns_only_after_the_call_has_stopped():
    # Python 3.11's Thread.join, interrupted by Ctrl-C, can take a thread that
    # is still running for stopped: the caller must not get control (and free
    # what the call uses) before the call has returned
    stopping = threading.Event()
    finished = []

    def call():
        stopping.wait()
        time.sleep(0.3)  # winding down after the stop, as a SAT solver does
        finished.append(True)

    timer = threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            run_stoppable(call, stopping.set, cells=THREAD_CELLS, deadline=None)
    finally:
        timer.cancel()
    assert finished == [True]


def test_the_index_kernel_reads_its_stop_slot():
    """Line logic of hexagons and ``?`` groups (issue 40 read no stop slot:
    a 0.1 s budget ran a minute, Ctrl-C waited for the pass to end)."""
    from rofl.hexagon import HexPuzzle
    from rofl.kernels import _index as ik
    from rofl.kernels import structs
    from rofl.solver.index_lines import board_of, kernel_clues

    cells = np.random.default_rng(3).integers(0, 2, 3 * 20 * 19 + 1).astype(np.uint8)
    puzzle = HexPuzzle.from_cells(20, cells)
    board = board_of(puzzle)
    masks = np.full(board.n_cells, 3, dtype=np.int64)
    stats = np.zeros(structs.INDEX_N_STATS, dtype=np.int64)  # the index kernels' own slots
    stats[structs.INDEX_STOP] = 1
    queue = np.arange(puzzle.n_lines, dtype=np.int64)
    args = (board.line_cells, board.line_offsets, board.cell_lines, board.cell_offsets, *kernel_clues(puzzle), queue)
    assert ik._propagate_lines(masks, *args, stats) == k.STOPPED
    assert stats[structs.INDEX_LINE_SOLVES] == 0 and (masks == 3).all()
    stats[structs.INDEX_STOP] = 0
    assert ik._propagate_lines(masks, *args, stats) != k.STOPPED and stats[structs.INDEX_LINE_SOLVES] > 0


def test_ctrl_c_stops_line_logic_of_question_mark_groups():
    from tests.test_budget import _random_sets

    puzzle = _random_sets(600)  # some 6 s of line logic on the 2-core build machine
    solve(_random_sets(4))  # compiled before the timer
    timer = threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            solve(puzzle)
    finally:
        timer.cancel()
