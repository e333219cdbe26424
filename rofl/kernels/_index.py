"""Compiled line logic over lines given as index sequences (numba).

Private: :mod:`rofl.solver.index_lines` calls it.  The rectangular kernels of
:mod:`rofl.kernels._line` walk rows and columns of an ``(H, W)`` array;
these take any board whose lines are lists of cells -- a hexagon's three
directions, or a rectangle whose clues have colour sets -- with the cells'
masks flat.  Line ``i`` is ``cells[line_cells[line_offsets[i]:line_offsets[i + 1]]]``
and cell ``c`` lies on lines ``cell_lines[cell_offsets[c]:cell_offsets[c + 1]]``.

A line whose clue has a colour set (a negative ``cols`` entry) goes to
:func:`~rofl.kernels._line._solve_line_sets`, any other to the ordinary
:func:`~rofl.kernels._line._solve_line`.  Being a kernel of its own, this
module compiles only when such a puzzle is first solved.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from rofl.kernels._config import JIT
from rofl.kernels._line import CONTRADICTION, SOLVED, STALLED, _push, _queue_lines, _solve_line, _solve_line_sets
from rofl.kernels.structs import INDEX_BAD_LINE as ST_BAD_LINE
from rofl.kernels.structs import INDEX_LINE_SOLVES as ST_LINE_SOLVES
from rofl.kernels.structs import INDEX_STOP as ST_STOP
from rofl.kernels.structs import INDEX_SWEEPS as ST_SWEEPS
from rofl.kernels.structs import STOPPED

# stats slots (structs.INDEX_*); another thread sets ST_STOP to stop the loop (rofl.solver._stop)


@njit(**JIT, inline="always")
def _largest_line(line_offsets, offs):
    """The most cells and groups (at least 1 each) of the index lines:
    line ``i`` is ``line_offsets[i]:line_offsets[i + 1]`` of the cell list,
    its groups ``offs[i]:offs[i + 1]``."""
    nmax = 1
    kmax = 1
    for line in range(line_offsets.shape[0] - 1):
        nmax = max(nmax, line_offsets[line + 1] - line_offsets[line])
        kmax = max(kmax, offs[line + 1] - offs[line])
    return nmax, kmax


@njit(**JIT)
def _solve_any_line(buf, n, lens, cols, g0, g1, res, run, slot, gap, fwd, bwd, color_slot):
    for g in range(g0, g1):
        if cols[g] < 0:
            return _solve_line_sets(buf, n, lens, cols, g0, g1, res)
    return _solve_line(buf, n, lens, cols, g0, g1, res, run, slot, gap, fwd, bwd, color_slot)


@njit(**JIT)
def _propagate_lines(masks, line_cells, line_offsets, cell_lines, cell_offsets, lens, cols, offs, queue_init, stats):
    """Line logic to a fixpoint, in place on the flat ``masks``.

    ``queue_init`` lists the lines to look at first; a line whose cells
    change queues the other lines through them.  Returns SOLVED, STALLED or
    CONTRADICTION; ``stats`` receives the line solves, the sweeps (the
    queue's generations) and the line that failed (-1).  Another thread may
    set ``stats[ST_STOP]`` while the loop runs (a deadline, Ctrl-C): it is
    read before every line solve, and the call then returns STOPPED with
    ``masks`` narrowed soundly part of the way.
    """
    n_lines = line_offsets.shape[0] - 1
    nmax, kmax = _largest_line(line_offsets, offs)
    buf = np.empty(nmax, dtype=np.int64)
    res = np.empty(nmax, dtype=np.int64)
    run = np.empty((kmax, nmax + 1), dtype=np.int64)
    slot = np.empty(kmax, dtype=np.int64)
    gap = np.empty(kmax, dtype=np.int64)
    fwd = np.empty((kmax + 1, nmax + 2), dtype=np.uint8)
    bwd = np.empty((kmax + 1, nmax + 2), dtype=np.uint8)
    color_slot = np.empty(64, dtype=np.int64)
    queue = np.empty(n_lines, dtype=np.int64)
    generation = np.zeros(n_lines, dtype=np.int64)
    queued = np.zeros(n_lines, dtype=np.bool_)
    head = 0
    size = _queue_lines(queue_init, queue, queued, generation)
    solves = 0
    sweeps = 0
    while size > 0:
        line = queue[head]
        head = (head + 1) % n_lines
        size -= 1
        queued[line] = False
        gen = generation[line]
        sweeps = max(sweeps, gen)
        if stats[ST_STOP] != 0:
            stats[ST_LINE_SOLVES] = solves
            stats[ST_SWEEPS] = sweeps
            stats[ST_BAD_LINE] = -1
            return STOPPED
        a = line_offsets[line]
        n = line_offsets[line + 1] - a
        for i in range(n):
            buf[i] = masks[line_cells[a + i]]
        solves += 1
        ok = _solve_any_line(buf, n, lens, cols, offs[line], offs[line + 1], res, run, slot, gap, fwd, bwd, color_slot)
        if not ok:
            stats[ST_LINE_SOLVES] = solves
            stats[ST_SWEEPS] = sweeps
            stats[ST_BAD_LINE] = line
            return CONTRADICTION
        for i in range(n):
            if res[i] != buf[i]:
                cell = line_cells[a + i]
                masks[cell] = res[i]
                for t in range(cell_offsets[cell], cell_offsets[cell + 1]):
                    other = cell_lines[t]
                    if other != line:
                        size = _push(other, gen + 1, queue, queued, generation, head, size)
    stats[ST_LINE_SOLVES] = solves
    stats[ST_SWEEPS] = sweeps
    stats[ST_BAD_LINE] = -1
    status = SOLVED
    for i in range(masks.shape[0]):
        m = masks[i]
        if m == 0:
            return CONTRADICTION
        if m & (m - 1):
            status = STALLED
    return status
