"""Black-and-white line logic on bit sets: the lean path's common case.

Most puzzles are black and white and at most 63 cells a side.  A line of
such a puzzle fits one 64-bit word per colour (``w``: the cells that may
still be background, ``b``: those that may still be black), and the exact
line DP of :func:`rofl.solver._kernels._solve_line` becomes a handful of
word operations per group instead of a table of ``groups x (slack + 1)``
entries.  Positions ``0..n`` (the boundaries before each cell and after
the last) are the bits of a word:

* going forward, ``Z_j`` is where group ``j`` may start after groups
  ``0..j-1`` (each followed by its background gap) and any background;
  group ``j`` may start at ``s`` when ``s`` is in ``Z_j`` and its cells
  ``s..s+L-1`` may all be black (:func:`_runs`, in ``O(log L)`` shifts);
  the ends it reaches are ``D_{j+1}``, the background after them a fill
  (:func:`_fill_up`, ``O(log n)`` shifts);
* going backward, ``Y_j`` is where the suffix may hold groups ``j..k-1``,
  built the same way from the right;
* a cell may be black when a start of some group is in both and covers it
  (:func:`_spread`), background when some ``j`` has groups ``0..j-1``
  before it and ``j..k-1`` after it.

:func:`_solve_bw` is :func:`rofl.solver._fast._solve_fresh`'s fixpoint loop
over such words (rows' and columns' bits kept side by side), with the same
queue in the same order: the same masks and statistics.
``tests/solver/test_bits.py`` checks the line answer against brute force
and whole solves against the reference kernel.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from rofl.solver._config import JIT
from rofl.solver._kernels import CONTRADICTION, ST_BAD_LINE, ST_LINE_SOLVES, ST_MISSES, ST_SWEEPS, _status

#: The longest line the bit sets hold (positions 0..n in one word).
MAX_CELLS = 63

_ONE = np.uint64(1)


@njit(**JIT)
def _fill_up(seeds, w):
    """``seeds`` and every position reached from one going up through cells
    that may be background (``i + 1`` from ``i`` when ``w`` has cell ``i``)."""
    r = seeds
    p = w << _ONE  # p: the positions that may be entered from the one below
    s = np.uint64(1)
    while p:
        r |= p & (r << s)
        p &= p << s
        s += s
        if s >= np.uint64(64):
            break
    return r


@njit(**JIT)
def _fill_down(seeds, w):
    """``seeds`` and every position reached from one going down through cells
    that may be background (``i`` from ``i + 1`` when ``w`` has cell ``i``)."""
    r = seeds
    p = w
    s = np.uint64(1)
    while p:
        r |= p & (r >> s)
        p &= p >> s
        s += s
        if s >= np.uint64(64):
            break
    return r


@njit(**JIT)
def _runs(b, length):
    """The positions ``s`` whose cells ``s..s+length-1`` all are in ``b``."""
    r = b
    t = 1
    while t < length:
        step = min(t, length - t)
        r &= r >> np.uint64(step)
        t += step
    return r


@njit(**JIT)
def _spread(v, length):
    """The cells ``s..s+length-1`` for every ``s`` in ``v``."""
    r = v
    t = 1
    while t < length:
        step = min(t, length - t)
        r |= r << np.uint64(step)
        t += step
    return r


@njit(**JIT)
def _line_bw(w, b, n, lens, g0, g1, zs, ds, runs):
    """The exact answer of one black-and-white line of ``n <= 63`` cells.

    ``w`` / ``b``: the cells that may be background / black (bit ``i``:
    cell ``i``); the line's groups are ``lens[g0:g1]``.  ``zs``, ``ds``,
    ``runs``: uint64 work arrays of at least ``g1 - g0 + 1`` entries.

    Returns ``(ok, w, b)``: whether some arrangement fits, and the cells
    that may be background / black in at least one arrangement.
    """
    k = g1 - g0
    cells = (_ONE << np.uint64(n)) - _ONE
    if k == 0:
        return (w & cells) == cells, cells, np.uint64(0)
    # forward: zs[j] = Z_j, ds[j] = D_j (j >= 1), ends = every position after the last group
    z = _fill_up(_ONE, w)
    for j in range(k):
        length = lens[g0 + j]
        run = _runs(b, length)
        runs[j] = run
        zs[j] = z
        d = (z & run) << np.uint64(length)
        ds[j + 1] = d
        z = _fill_up((d & w) << _ONE, w)
    ends = _fill_up(ds[k], w)
    if not (ends >> np.uint64(n)) & _ONE:
        return False, w, b
    # backward: y = Y_{j+1} on entry to step j, Y_j on leaving it
    y = _fill_down(_ONE << np.uint64(n), w)
    white = ends & w & (y >> _ONE)  # background between the last group and the end
    black = np.uint64(0)
    for j in range(k - 1, -1, -1):
        length = np.uint64(lens[g0 + j])
        if j == k - 1:
            after = y >> length
        else:
            after = ((y >> _ONE) & w) >> length
        starts = runs[j] & after
        black |= _spread(zs[j] & starts, lens[g0 + j])
        y = _fill_down(starts, w)
        before = zs[0] if j == 0 else ds[j] | zs[j]  # groups 0..j-1 placed, cell free
        white |= before & w & (y >> _ONE)
    return True, white & cells, black & cells


@njit(**JIT)
def _masks(rw, rb, height, width):
    """The ``(height, width)`` int64 masks of rows' bit sets (bit 0
    background, bit 1 black)."""
    masks = np.empty((height, width), dtype=np.int64)
    for r in range(height):
        for c in range(width):
            bit = np.uint64(c)
            masks[r, c] = np.int64((rw[r] >> bit) & _ONE) | (np.int64((rb[r] >> bit) & _ONE) << 1)
    return masks


@njit(**JIT)
def _solve_bw(height, width, lens, offs, kmax, stats):
    """:func:`rofl.solver._fast._solve_fresh` for a black-and-white puzzle
    of at most :data:`MAX_CELLS` cells a side, on bit sets; the same
    returns and statistics."""
    rw = np.full(height, (_ONE << np.uint64(width)) - _ONE, dtype=np.uint64)
    rb = rw.copy()
    cw = np.full(width, (_ONE << np.uint64(height)) - _ONE, dtype=np.uint64)
    cb = cw.copy()
    kk = max(kmax, 1) + 1
    zs = np.empty(kk, dtype=np.uint64)
    ds = np.empty(kk, dtype=np.uint64)
    runs = np.empty(kk, dtype=np.uint64)
    n_lines = height + width
    queue = np.arange(n_lines)
    queued = np.ones(n_lines, dtype=np.bool_)
    generation = np.ones(n_lines, dtype=np.int64)
    head = 0
    size = n_lines
    solves = 0
    sweeps = 0
    while size > 0:
        line = queue[head]
        head = (head + 1) % n_lines
        size -= 1
        queued[line] = False
        gen = generation[line]
        sweeps = max(sweeps, gen)
        is_row = line < height
        if is_row:
            n, w, b = width, rw[line], rb[line]
        else:
            n, w, b = height, cw[line - height], cb[line - height]
        solves += 1
        ok, nw, nb = _line_bw(w, b, n, lens, offs[line], offs[line + 1], zs, ds, runs)
        if not ok:
            stats[ST_LINE_SOLVES] = stats[ST_MISSES] = solves
            stats[ST_SWEEPS] = sweeps
            stats[ST_BAD_LINE] = line
            return CONTRADICTION, _masks(rw, rb, height, width)
        changed = (w ^ nw) | (b ^ nb)
        if not changed:
            continue
        if is_row:
            rw[line], rb[line] = nw, nb
            here = np.uint64(line)
        else:
            cw[line - height], cb[line - height] = nw, nb
            here = np.uint64(line - height)
        i = 0
        while changed:
            if changed & _ONE:
                bit = np.uint64(i)
                keep = ~(_ONE << here)
                if is_row:
                    cw[i] = (cw[i] & keep) | (((nw >> bit) & _ONE) << here)
                    cb[i] = (cb[i] & keep) | (((nb >> bit) & _ONE) << here)
                    other = height + i
                else:
                    rw[i] = (rw[i] & keep) | (((nw >> bit) & _ONE) << here)
                    rb[i] = (rb[i] & keep) | (((nb >> bit) & _ONE) << here)
                    other = i
                if not queued[other]:
                    queued[other] = True
                    generation[other] = gen + 1
                    queue[(head + size) % n_lines] = other
                    size += 1
            changed >>= _ONE
            i += 1
    stats[ST_LINE_SOLVES] = stats[ST_MISSES] = solves
    stats[ST_SWEEPS] = sweeps
    stats[ST_BAD_LINE] = -1
    masks = _masks(rw, rb, height, width)
    return _status(masks.reshape(height * width)), masks
