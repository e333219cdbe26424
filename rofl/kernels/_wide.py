"""Line logic on bit sets of several words: the long lines.

:mod:`rofl.kernels._bits` solves a line of at most 63 cells in one 64-bit
word per state.  Here the same sets (``Z_j``, ``D_j``, ``Y_j`` and the
answers, see there) are rows of up to :data:`MAX_WORDS` words, so lines of
up to :data:`MAX_CELLS` cells with groups of up to :data:`MAX_COLOURS`
colours get the same handful of word operations per group instead of the
DP's table of ``groups x slack`` entries: on 200-cell lines of four-colour
pictures about twice as fast as the DP with start bounds.  Shifts carry
bits from word to word; the fill upward through background cells is one
addition (its carry runs through each stretch of passable positions from
the stretch's lowest seed), the fill downward the same addition on the row with its bits reversed.
As in :func:`rofl.kernels._bits._line_bw`, the backward pass follows only
the ends the forward pass reached, so each group's runs are found once;
each shift is folded into the pass that reads it, and the word loops index
with unsigned integers (numba tests a signed index for a negative value):
together about 1.4 times as fast on 400-cell lines as the first form.

:func:`rofl.kernels._line._solve_line_within` hands such lines here;
``tests/solver/test_bits.py`` checks the answers and the groups' start
bounds against the DP.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from rofl.kernels._bits import _highest, _lowest, _reverse_bits
from rofl.kernels._config import JIT, LEAF

#: The longest line (positions 0..n in MAX_WORDS words).
MAX_CELLS = 511
MAX_WORDS = 8
#: The most colours among a line's groups (a row of words each, twice).
MAX_COLOURS = 8

ONE = np.uint64(1)
ZERO = np.uint64(0)
# rows of the work array: the cells that may be background, temporaries,
# each colour's cells and answer, the background's answer, then Z_j and
# D_{j+1} of every group
_W_ROW = 0
_W_REVERSED = 1  # the same, bit-reversed over the row (for _fill_down)
_TMP = 2  # rows 2..5
_W_UP = 6  # the positions that may be entered going up: _W_ROW shifted up one (for _fill_up)
_COL = 7
_ANS = _COL + MAX_COLOURS
_WHITE = _ANS + MAX_COLOURS
_SETS = _WHITE + 1


@njit(**JIT, inline="always")
def rows(k):
    """The work rows :func:`_line_wide` needs for ``k`` groups."""
    return _SETS + 2 * k


@njit(**JIT, inline="always")
def _down(ws, src, i, q, r, nw):
    """Word ``i`` of row ``src`` shifted down by ``64 q + r`` bits: it reads
    words ``i + q`` and up, so a loop over ``i`` going up may write its
    result into ``src`` itself."""
    a = i + q
    v = ZERO
    if a < nw:
        v = ws[src, a] >> r
        if r and a + ONE < nw:
            v |= ws[src, a + ONE] << (np.uint64(64) - r)
    return v


@njit(**JIT, inline="always")
def _up(ws, src, i, q, r, nw):
    """Word ``i`` of row ``src`` shifted up by ``64 q + r`` bits: it reads
    words ``i - q`` and down, so a loop over ``i`` going down may write its
    result into ``src`` itself."""
    v = ZERO
    if i >= q:
        a = i - q
        v = ws[src, a] << r
        if r and a > ZERO:
            v |= ws[src, a - ONE] >> (np.uint64(64) - r)
    return v


@njit(**JIT, inline="always")
def _shl(ws, dst, src, s, nw):
    """Row ``dst`` = row ``src`` shifted up by ``s`` bits (``dst`` may be ``src``)."""
    q = np.uint64(s >> 6)
    r = np.uint64(s & 63)
    for back in range(nw):
        i = nw - ONE - back
        ws[dst, i] = _up(ws, src, i, q, r, nw)


@njit(**JIT, inline="always")
def _carry_fill(ws, dst, seeds, passable, nw):
    """Row ``dst`` = the seeds and every position above one reached through
    ``passable`` positions: ``S | (T & ~(T + S))`` with ``T = passable | S``
    (the sum's carry runs through each stretch of ``T`` from its lowest
    seed, clearing it).  ``dst`` may be ``seeds``."""
    carry = ZERO
    for i in range(nw):
        s = ws[seeds, i]
        tv = ws[passable, i] | s
        total = tv + s
        c1 = ONE if total < tv else ZERO
        total2 = total + carry
        c2 = ONE if total2 < total else ZERO
        carry = c1 | c2
        ws[dst, i] = s | (tv & ~total2)


@njit(**JIT, inline="always")
def _fill_up(ws, dst, seeds, nw):
    """dst = seeds and every position reached going up through cells that may
    be background (position ``i + 1`` from ``i`` when ``w`` has cell ``i``)."""
    _carry_fill(ws, dst, seeds, _W_UP, nw)


@njit(**JIT, inline="always")
def _fill_down(ws, dst, seeds, nw):
    """dst = seeds and every position reached going down through cells that
    may be background: :func:`_carry_fill` on the row bit-reversed
    (position ``p`` becomes ``64 nw - 1 - p``, where going down is going
    up; position ``q`` may be entered from ``q - 1`` when the reversed
    ``w`` has it)."""
    t = _TMP + 3
    for i in range(nw):
        ws[t, i] = _reverse_bits(ws[seeds, nw - ONE - i])
    _carry_fill(ws, t, t, _W_REVERSED, nw)
    for i in range(nw):
        ws[dst, i] = _reverse_bits(ws[t, nw - ONE - i])


@njit(**JIT, inline="always")
def _runs(ws, dst, src, length, nw):
    """dst = positions s whose cells s..s+length-1 are all in src (``dst``
    is not ``src``): ``O(log length)`` passes, each shifting and meeting in
    place."""
    for i in range(nw):
        ws[dst, i] = ws[src, i]
    t = 1
    while t < length:
        step = min(t, length - t)
        q = np.uint64(step >> 6)
        r = np.uint64(step & 63)
        for i in range(nw):
            ws[dst, i] &= _down(ws, dst, i, q, r, nw)
        t += step


@njit(**JIT, inline="always")
def _spread_or(ws, dst, src, length, nw):
    """dst |= the cells s..s+length-1 for every s in src (src is clobbered)."""
    t = 1
    while t < length:
        step = min(t, length - t)
        q = np.uint64(step >> 6)
        r = np.uint64(step & 63)
        for back in range(nw):
            i = nw - ONE - back
            ws[src, i] |= _up(ws, src, i, q, r, nw)
        t += step
    for i in range(nw):
        ws[dst, i] |= ws[src, i]


@njit(**LEAF)
def _line_wide(cells, n, lens, cols, g0, g1, out, ws, cid, first, last, shift):
    """:func:`rofl.kernels._line._solve_line`'s contract for a line of
    ``n <= MAX_CELLS`` cells with at least one group, of at most
    :data:`MAX_COLOURS` colours: :func:`rofl.kernels._bits._line_colours` on
    rows of ``(n + 64) // 64`` words.  ``ws``: uint64 work rows, at least
    ``rows(k)`` of :data:`MAX_WORDS` words; ``cid``: an int64 array of at
    least :data:`MAX_COLOURS` entries.  ``first`` / ``last``, when not
    empty, receive every group's lowest and highest valid start ``+ shift``
    (as :func:`rofl.kernels._line._solve_line_dp` puts them).  Returns
    False when no arrangement fits."""
    k = g1 - g0
    words = (n + 64) // 64  # positions 0..n
    # the word loops index with an unsigned count: numba tests a signed
    # index for a negative value (rofl.kernels._search does the same)
    nw = np.uint64(words)
    nc = 0
    for j in range(g0, g1):
        c = cols[j]
        s = 0
        while s < nc and cid[s] != c:
            s += 1
        if s == nc:
            cid[s] = c
            nc += 1
    for s in range(nc):  # the answers gather with |=; every other row is set before it is read
        for i in range(nw):
            ws[_ANS + s, i] = ZERO
    for q in range(words):
        lo = 64 * q
        hi = min(n, lo + 64)
        v = ZERO
        for i in range(hi - 1, lo - 1, -1):
            v = (v << ONE) | (np.uint64(cells[i]) & ONE)
        ws[_W_ROW, q] = v
        for s in range(nc):
            c = np.uint64(cid[s])
            v = ZERO
            for i in range(hi - 1, lo - 1, -1):
                v = (v << ONE) | ((np.uint64(cells[i]) >> c) & ONE)
            ws[_COL + s, q] = v
    for i in range(nw):
        ws[_W_REVERSED, i] = _reverse_bits(ws[_W_ROW, nw - ONE - i])
    _shl(ws, _W_UP, _W_ROW, 1, nw)
    t0, t1, t2 = _TMP, _TMP + 1, _TMP + 2
    # forward: Z_j at row _SETS + j, D_{j+1} at _SETS + k + j
    for i in range(nw):
        ws[t0, i] = ZERO
    ws[t0, 0] = ONE
    _fill_up(ws, _SETS, t0, nw)  # Z_0
    for j in range(k):
        length = lens[g0 + j]
        s = _slot(cid, nc, cols[g0 + j])
        z = _SETS + j
        d = _SETS + k + j
        _runs(ws, t1, _COL + s, length, nw)
        for i in range(nw):
            ws[t1, i] &= ws[z, i]
        _shl(ws, d, t1, length, nw)
        if j + 1 < k:
            if cols[g0 + j + 1] == cols[g0 + j]:  # a gap: (D & w) << 1
                for i in range(nw):
                    ws[t0, i] = _up(ws, d, i, ZERO, ONE, nw) & ws[_W_UP, i]
            else:
                for i in range(nw):
                    ws[t0, i] = ws[d, i]
            _fill_up(ws, z + 1, t0, nw)
    _fill_up(ws, t2, _SETS + 2 * k - 1, nw)  # ends
    if not (ws[t2, n >> 6] >> np.uint64(n & 63)) & ONE:
        return False
    # backward: y in row t0
    for i in range(nw):
        ws[t1, i] = ZERO
    ws[t1, n >> 6] = ONE << np.uint64(n & 63)
    y = t0
    _fill_down(ws, y, t1, nw)
    for i in range(nw):
        ws[_WHITE, i] = ws[t2, i] & ws[_W_ROW, i] & _down(ws, y, i, ZERO, ONE, nw)
    for j in range(k - 1, -1, -1):
        length = lens[g0 + j]
        s = _slot(cid, nc, cols[g0 + j])
        # the valid starts (t2): the ends D_{j+1} the forward pass reached
        # that the groups after can follow, shifted back.  Only they are
        # filled down (as rofl.kernels._bits._line_bw does): the answer reads
        # Y_j only just after an end of group j - 1 or a position of Z_j,
        # and the background from there up to a start makes it one of Z_j's
        if j + 1 < k and cols[g0 + j + 1] == cols[g0 + j]:
            for i in range(nw):
                ws[t2, i] = _down(ws, y, i, ZERO, ONE, nw) & ws[_W_ROW, i] & ws[_SETS + k + j, i]
        else:
            for i in range(nw):
                ws[t2, i] = ws[y, i] & ws[_SETS + k + j, i]
        q = np.uint64(length >> 6)
        r = np.uint64(length & 63)
        for i in range(nw):  # shifted back, into t2 and its copy t1
            v = _down(ws, t2, i, q, r, nw)
            ws[t2, i] = v
            ws[t1, i] = v
        if first.shape[0] > 0:
            lo = -1
            hi = -1
            for i in range(nw):
                v = ws[t1, i]
                if v:
                    if lo < 0:
                        lo = 64 * np.int64(i) + _lowest(v)
                    hi = 64 * np.int64(i) + _highest(v)
            first[g0 + j] = lo + shift
            last[g0 + j] = hi + shift
        _spread_or(ws, _ANS + s, t1, length, nw)
        _fill_down(ws, y, t2, nw)
        # white |= before & w & (y >> 1)
        for i in range(nw):
            before = ws[_SETS, i] if j == 0 else ws[_SETS + k + j - 1, i] | ws[_SETS + j, i]
            ws[_WHITE, i] |= before & ws[_W_ROW, i] & _down(ws, y, i, ZERO, ONE, nw)
    for q in range(words):
        lo = 64 * q
        hi = min(n, lo + 64)
        v = ws[_WHITE, q]
        for i in range(lo, hi):
            out[i] = np.int64((v >> np.uint64(i - lo)) & ONE)
        for s in range(nc):
            v = ws[_ANS + s, q]
            c = cid[s]
            for i in range(lo, hi):
                out[i] |= np.int64((v >> np.uint64(i - lo)) & ONE) << c
    return True


@njit(**JIT, inline="always")
def _slot(cid, nc, colour):
    """The slot of ``colour`` among the line's ``nc`` colours ``cid``."""
    s = 0
    while s < nc - 1 and cid[s] != colour:
        s += 1
    return s
