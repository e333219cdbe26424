"""Compiled one-shot line logic for the common call: ``rofl.solve(puzzle)``.

:func:`rofl.solver.line_logic.solve` on a puzzle small enough to run in the
calling thread, from scratch (no start masks, no line cache), spent about a
tenth of its time in Python (sizing buffers, a call with 17 arguments, the
result) and the rest in line DPs, many of which need not run in full: a
line whose cells still allow every colour of its clue has the "simple boxes
and spaces" of its clue as its exact answer, a line whose cells are all
known only has to be checked, and the known ends of a line (background,
then a group that must start at its first known cell) are the same in every
arrangement, so the DP need only see the middle.  :func:`_solve_fresh` is
the fixpoint loop of :func:`rofl.kernels._line._propagate_trail` for that
case alone (same queue order, so the same masks and statistics), with those
shortcuts in front of the line DP (:func:`_line`) and its buffers made
inside: one call with nine arguments.

Behind the shortcuts a line goes to the bit sets
(:mod:`rofl.kernels._bits`, :mod:`rofl.kernels._wide`) or the DP
(:func:`rofl.kernels._line._solve_line_within`), which here keep every
group's start bounds from one solve of its line to the next: cells only
narrow during a solve, so the starts valid last time hold every start
valid now, and a line re-solved after a crossing cell changed visits only
those.  The masks are kept twice, by rows and by columns, so that every
line is read in place.  A black-and-white puzzle of at most 63 cells a
side runs on bit sets throughout (:func:`_solve_bw`).  The fixpoint loops
are kernels of their own, apart from the allocations, so that they run
without reference counts (:data:`~rofl.kernels._config.LEAF`).
``tests/solver/test_fast.py`` checks the shortcuts against brute force and
the whole path against the reference kernel.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from rofl.kernels._bits import MAX_CELLS, ONE, _line_bw
from rofl.kernels._config import JIT, LEAF
from rofl.kernels._line import (
    CONTRADICTION,
    ST_BAD_LINE,
    ST_LINE_SOLVES,
    ST_MISSES,
    ST_STOP,
    ST_SWEEPS,
    STOPPED,
    LineScratch,
    _push,
    _solve_line_within,
    _status,
)
from rofl.kernels.structs import ALL_RULES, BITS, BOUNDS, FREE, KNOWN, TRIM  # noqa: F401 -- _line's rules, read here too

# ----------------------------------------------------------- line shortcuts

#: A fixpoint loop's return when it ran to the end (the caller tells solved
#: from stalled).
_DONE = -1


@njit(**JIT, inline="always")
def _overlap(n, lens, cols, g0, g1, slack, out):
    """The line answer when every cell still allows the background and every
    colour of the clue: exact, in ``O(n + cells the groups may cover)``.

    Group ``j`` may start anywhere in ``[lo_j, lo_j + slack]`` (``lo_j``:
    the cells the groups before it need), so colour ``c`` is possible where
    a group of colour ``c`` may reach, and the background everywhere except
    the "core" ``[lo_j + slack, lo_j + len_j)`` every placement of a group
    covers (shift the groups from ``j`` on past a cell otherwise).
    """
    for i in range(n):
        out[i] = 1
    lo = 0
    for j in range(g0, g1):
        length = lens[j]
        bit = np.int64(1) << np.int64(cols[j])
        for i in range(lo, lo + slack + length):
            out[i] |= bit
        for i in range(lo + slack, lo + length):
            out[i] = bit
        lo += length
        if j + 1 < g1 and cols[j + 1] == cols[j]:
            lo += 1


@njit(**JIT, inline="always")
def _check_known(cells, n, lens, cols, g0, g1):
    """Whether a line whose cells each allow one colour (or none) gives its
    clue: its runs of one non-background colour are the clue's groups."""
    j = g0
    i = 0
    while i < n:
        m = cells[i]
        if m == 1:
            i += 1
            continue
        start = i
        while i < n and cells[i] == m:
            i += 1
        if j >= g1 or (np.int64(1) << np.int64(cols[j])) != m or lens[j] != i - start:
            return False
        j += 1
    return j == g1


@njit(**JIT, inline="always")
def _line(cells, n, lens, cols, g0, g1, out, run, slot, gap, fwd, bwd, color_slot, rules, first, last):
    """:func:`~rofl.kernels._line._solve_line`'s contract and answer, with
    the DP skipped on lines that are free (:func:`_overlap`) or known
    (:func:`_check_known`), as far as ``rules`` allows; ``first`` / ``last``
    the groups' start bounds the DP keeps (:data:`BOUNDS`,
    :func:`~rofl.kernels._line._solve_line_dp`)."""
    need = np.int64(1)
    total = 0
    for j in range(g0, g1):
        need |= np.int64(1) << np.int64(cols[j])
        total += lens[j]
        if j + 1 < g1 and cols[j + 1] == cols[j]:
            total += 1
    slack = n - total
    if slack < 0:
        return False
    free = True
    known = True
    for i in range(n):
        m = cells[i]
        if m & need != need:
            free = False
        if m & (m - 1):
            known = False
    if free and rules & FREE:
        _overlap(n, lens, cols, g0, g1, slack, out)
        return True
    if known and rules & KNOWN:
        if not _check_known(cells, n, lens, cols, g0, g1):
            return False
        for i in range(n):
            out[i] = cells[i]
        return True
    if not rules & BOUNDS:
        first = last = slot[:0]
    if not rules & TRIM:
        return _solve_line_within(
            cells, n, lens, cols, g0, g1, out, run, slot, gap, fwd, bwd, color_slot, first, last, np.int64(0)
        )
    a, gl = _trim_left(cells, n, lens, cols, g0, g1, out)
    b, gr = _trim_right(cells, a, n, lens, cols, gl, g1, out)
    if a == b:
        return gl == gr
    return _solve_line_within(
        cells[a:b], b - a, lens, cols, gl, gr, out[a:b], run, slot, gap, fwd, bwd, color_slot, first, last, a
    )


# The known ends of a line: known background, then a known cell of the next
# group's colour, which must be where that group starts (the cells before it
# are background and the groups before it placed), so the whole group and
# the gap after it are placed too when the cells allow them.  What is left
# between the two ends is the same line problem with the groups not placed
# (arrangements of the line = the placed ends x arrangements of the middle);
# when the cells do not allow a group where it must go, the middle keeps it
# and the DP finds the contradiction.


@njit(**JIT, inline="always")
def _trim_left(cells, n, lens, cols, g0, g1, out):
    """Place the known start of a line into ``out``: the first cell and group
    left for the DP."""
    a = 0
    j = g0
    while True:
        while a < n and cells[a] == 1:
            out[a] = 1
            a += 1
        if a == n or j == g1:
            return a, j
        bit = np.int64(1) << np.int64(cols[j])
        end = a + lens[j]
        if cells[a] != bit or end > n:
            return a, j
        for i in range(a, end):
            if not cells[i] & bit:
                return a, j
        gap = j + 1 < g1 and cols[j + 1] == cols[j]
        if gap and (end == n or not cells[end] & 1):
            return a, j
        for i in range(a, end):
            out[i] = bit
        a = end
        if gap:
            out[a] = 1
            a += 1
        j += 1


@njit(**JIT, inline="always")
def _trim_right(cells, a, n, lens, cols, g0, g1, out):
    """:func:`_trim_left` from the other end, down to cell ``a`` and group
    ``g0``: the end (exclusive) of the cells and groups left for the DP."""
    b = n
    j = g1
    while True:
        while b > a and cells[b - 1] == 1:
            out[b - 1] = 1
            b -= 1
        if b == a or j == g0:
            return b, j
        bit = np.int64(1) << np.int64(cols[j - 1])
        start = b - lens[j - 1]
        if cells[b - 1] != bit or start < a:
            return b, j
        for i in range(start, b):
            if not cells[i] & bit:
                return b, j
        gap = j - 1 > g0 and cols[j - 2] == cols[j - 1]
        if gap and (start == a or not cells[start - 1] & 1):
            return b, j
        for i in range(start, b):
            out[i] = bit
        b = start
        if gap:
            b -= 1
            out[b] = 1
        j -= 1


# ------------------------------------------------------------ fixpoint loop


@njit(**JIT, inline="always")
def _new_queue(n_lines):
    """The lines' queue: a ring holding every line once, rows first, as
    ``(queue, queued, generation)``; a line's generation is its sweep (1
    for the first); the loops keep the ring's head and size as locals
    (:func:`_pop`, :func:`_push`).  These helpers are inlined into the
    loops by numba (``inline="always"``): called as functions they made
    the loops 1.6 times as slow."""
    return np.arange(n_lines), np.ones(n_lines, dtype=np.bool_), np.ones(n_lines, dtype=np.int64)


@njit(**JIT, inline="always")
def _pop(stats, queue, queued, generation, head, size, solves, sweeps):
    """The loops' next line to solve: ``(line, generation, head, size,
    solves, sweeps)`` after taking it off the queue and counting its solve,
    or line -1 when another thread asked the loop to stop
    (:func:`_stop_asked`; nothing taken)."""
    if _stop_asked(stats, solves, sweeps):
        return -1, 0, head, size, solves, sweeps
    line = queue[head]
    queued[line] = False
    gen = generation[line]
    return line, gen, (head + 1) % queue.shape[0], size - 1, solves + 1, max(sweeps, gen)


@njit(**JIT, inline="always")
def _stop_asked(stats, solves, sweeps):
    """Whether another thread asked the loop to stop (``stats[ST_STOP]``);
    then the statistics so far are in ``stats``."""
    if stats[ST_STOP] == 0:
        return False
    _put_stats(stats, solves, sweeps, -1)
    return True


@njit(**JIT, inline="always")
def _put_stats(stats, solves, sweeps, bad_line):
    """What the fixpoint loops report in ``stats`` (every line solve a cache miss)."""
    stats[ST_LINE_SOLVES] = stats[ST_MISSES] = solves
    stats[ST_SWEEPS] = sweeps
    stats[ST_BAD_LINE] = bad_line


@njit(**JIT)
def _masks(rw, rb, height, width):
    """The ``(height, width)`` int64 masks of rows' bit sets (bit 0
    background, bit 1 black)."""
    masks = np.empty((height, width), dtype=np.int64)
    for r in range(height):
        for c in range(width):
            bit = np.uint64(c)
            masks[r, c] = np.int64((rw[r] >> bit) & ONE) | (np.int64((rb[r] >> bit) & ONE) << 1)
    return masks


@njit(**JIT)
def _solve_bw(height, width, lens, offs, stats):
    """:func:`_solve_fresh` for a black-and-white puzzle of at most
    :data:`~rofl.kernels._bits.MAX_CELLS` cells a side, its rows and columns
    kept as bit sets side by side (:mod:`rofl.kernels._bits`): the same
    queue in the same order, so the same returns and statistics."""
    rw = np.full(height, (ONE << np.uint64(width)) - ONE, dtype=np.uint64)
    rb = rw.copy()
    cw = np.full(width, (ONE << np.uint64(height)) - ONE, dtype=np.uint64)
    cb = cw.copy()
    work = np.empty(64, dtype=np.uint64)
    queue, queued, generation = _new_queue(height + width)
    status = _bw_loop(rw, rb, cw, cb, work, queue, queued, generation, lens, offs, stats)
    masks = _masks(rw, rb, height, width)
    if status == _DONE:
        status = _status(masks.reshape(height * width))
    return status, masks


@njit(**LEAF)
def _bw_loop(rw, rb, cw, cb, work, queue, queued, generation, lens, offs, stats):
    """:func:`_solve_bw`'s fixpoint loop, in place on the bit sets: STOPPED,
    CONTRADICTION or :data:`_DONE`.  Apart from the allocations, so that it
    runs without reference counts (:data:`~rofl.kernels._config.LEAF`)."""
    height, width = rw.shape[0], cw.shape[0]
    head, size, solves, sweeps = 0, height + width, 0, 0
    while size > 0:
        line, gen, head, size, solves, sweeps = _pop(stats, queue, queued, generation, head, size, solves, sweeps)
        if line < 0:
            return STOPPED
        if line < height:
            n, w, b = width, rw[line], rb[line]
        else:
            n, w, b = height, cw[line - height], cb[line - height]
        ok, nw, nb = _line_bw(w, b, n, lens, offs[line], offs[line + 1], work)
        if not ok:
            _put_stats(stats, solves, sweeps, line)
            return CONTRADICTION
        changed = (w ^ nw) | (b ^ nb)
        if not changed:
            continue
        if line < height:
            rw[line], rb[line] = nw, nb
            here = np.uint64(line)
        else:
            cw[line - height], cb[line - height] = nw, nb
            here = np.uint64(line - height)
        i = 0
        while changed:
            if changed & ONE:
                bit = np.uint64(i)
                keep = ~(ONE << here)
                if line < height:
                    cw[i] = (cw[i] & keep) | (((nw >> bit) & ONE) << here)
                    cb[i] = (cb[i] & keep) | (((nb >> bit) & ONE) << here)
                    other = height + i
                else:
                    rw[i] = (rw[i] & keep) | (((nw >> bit) & ONE) << here)
                    rb[i] = (rb[i] & keep) | (((nb >> bit) & ONE) << here)
                    other = i
                size = _push(other, gen + 1, queue, queued, generation, head, size)
            changed >>= ONE
            i += 1
    _put_stats(stats, solves, sweeps, -1)
    return _DONE


@njit(**JIT)
def _new_line_scratch(kmax, nmax):
    """A :class:`~rofl.kernels._line.LineScratch` for clues of up to
    ``kmax`` groups and lines of up to ``nmax`` cells, made in compiled code."""
    kk = max(kmax, 1)
    return LineScratch(
        np.empty((kk, nmax + 1), dtype=np.int64),
        np.empty(kk, dtype=np.int64),
        np.empty(kk, dtype=np.int64),
        np.empty((kk + 1, nmax + 2), dtype=np.uint8),
        np.empty((kk + 1, nmax + 2), dtype=np.uint8),
        np.empty(64, dtype=np.int64),
    )


@njit(**JIT)
def _solve_fresh(height, width, full, lens, cols, offs, kmax, stats, rules):
    """Line logic from every colour ``full`` possible everywhere to the
    fixpoint, no cache, no trail.

    Returns the status code (SOLVED, STALLED, CONTRADICTION, or STOPPED when
    another thread set ``stats[ST_STOP]``, read before every line solve) and
    the ``(height, width)`` masks; ``stats`` receives what
    :func:`~rofl.kernels._line._propagate_trail` puts there (every line
    solve counts as a cache miss).  ``rules`` picks the shortcuts of
    :func:`_line` (for measurements; the answer is the same), and whether
    a black-and-white puzzle of at most 63 cells a side runs on bit sets
    (:func:`_solve_bw`).
    """
    if rules & BITS and full == 3 and max(height, width) <= MAX_CELLS:
        return _solve_bw(height, width, lens, offs, stats)
    # the masks twice, by rows and by columns, so that every line is one
    # contiguous stretch: a line's cells are read in place
    masks = np.full((height, width), full, dtype=np.int64)
    across = np.full((width, height), full, dtype=np.int64)
    n_lines = height + width
    nmax = max(height, width)
    run, slot, gap, fwd, bwd, color_slot = _new_line_scratch(kmax, nmax)
    res = np.empty(nmax, dtype=np.int64)
    # every group's start bounds, narrowed by each solve of its line
    first = np.zeros(lens.shape[0], dtype=np.int64)
    last = np.full(lens.shape[0], nmax, dtype=np.int64)
    queue, queued, generation = _new_queue(n_lines)
    status = _fresh_loop(
        masks, across, lens, cols, offs, res, run, slot, gap, fwd, bwd, color_slot, first, last,
        queue, queued, generation, stats, rules,
    )  # fmt: skip
    if status == _DONE:
        status = _status(masks.reshape(height * width))
    return status, masks


@njit(**LEAF)
def _fresh_loop(
    masks, across, lens, cols, offs, res, run, slot, gap, fwd, bwd, color_slot, first, last,
    queue, queued, generation, stats, rules,
):  # fmt: skip
    """:func:`_solve_fresh`'s fixpoint loop, in place on ``masks`` and
    ``across``: STOPPED, CONTRADICTION or :data:`_DONE` (as :func:`_bw_loop`)."""
    height, width = masks.shape
    head, size, solves, sweeps = 0, height + width, 0, 0
    while size > 0:
        line, gen, head, size, solves, sweeps = _pop(stats, queue, queued, generation, head, size, solves, sweeps)
        if line < 0:
            return STOPPED
        is_row = line < height
        n = width if is_row else height
        cells = masks[line] if is_row else across[line - height]
        g0, g1 = offs[line], offs[line + 1]
        ok = _line(cells, n, lens, cols, g0, g1, res, run, slot, gap, fwd, bwd, color_slot, rules, first, last)
        if not ok:
            _put_stats(stats, solves, sweeps, line)
            return CONTRADICTION
        for i in range(n):
            if res[i] == cells[i]:
                continue
            cells[i] = res[i]
            if is_row:
                across[i, line] = res[i]
                other = height + i
            else:
                masks[i, line - height] = res[i]
                other = i
            size = _push(other, gen + 1, queue, queued, generation, head, size)
    _put_stats(stats, solves, sweeps, -1)
    return _DONE
