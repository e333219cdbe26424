"""Line logic on bit sets for lines of at most 63 cells: most lines of most puzzles.

A line of at most 63 cells whose groups all have one colour (every line of
a black-and-white puzzle) fits one 64-bit word per state (``w``: the cells
that may still be background, ``b``: those that may still take the
colour), and the exact line DP of
:func:`rofl.kernels._line._solve_line_dp` becomes a handful of word
operations per group instead of a table of ``groups x (slack + 1)``
entries.  Positions ``0..n`` (the boundaries before each cell and after
the last) are the bits of a word:

* going forward, ``Z_j`` is where group ``j`` may start after groups
  ``0..j-1`` (each followed by its background gap) and any background;
  group ``j`` may start at ``s`` when ``s`` is in ``Z_j`` and its cells
  ``s..s+L-1`` may all be black (:func:`_runs`, in ``O(log L)`` shifts);
  the ends it reaches are ``D_{j+1}``, the background after them a fill
  (:func:`_fill_up`, ``O(log n)`` shifts);
* going backward, ``Y_j`` is where the suffix may hold groups ``j..k-1``,
  built the same way from the right (:func:`_line_bw` follows only the
  starts whose ends ``D_{j+1}`` the forward pass reached: the same answer
  without a second look at the runs);
* a cell may be black when a start of some group is in both and covers it
  (:func:`_spread`), background when some ``j`` has groups ``0..j-1``
  before it and ``j..k-1`` after it.

With a word per colour the same sets solve a line of several colours
(:func:`_line_colours`: a group's starts come from the runs of its own
colour, and only a group followed by one of the same colour needs a gap);
:mod:`rofl.kernels._wide` spreads them over several words for longer lines.

:func:`rofl.kernels._line._solve_line` hands such lines to
:func:`_line_one_colour` and :func:`_line_colours` (so every kernel that
solves lines gains), and
:func:`rofl.kernels._fresh._solve_bw` keeps a black-and-white puzzle's rows
and columns as such words all along.  ``tests/solver/test_bits.py`` checks
the line answer against brute force and whole solves against the
reference kernel.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.core.extending import intrinsic
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

from rofl.kernels._config import JIT, LEAF

#: The longest line the bit sets hold (positions 0..n in one word).
MAX_CELLS = 63

ONE = np.uint64(1)


@njit(**JIT, inline="always")
def _fill_up(seeds, w):
    """``seeds`` and every position reached from one going up through cells
    that may be background (``i + 1`` from ``i`` when ``w`` has cell ``i``):
    in ``T``, the positions that may be entered from the one below and the
    seeds, adding the seeds carries through each stretch of ``T`` from its
    lowest seed up, clearing it."""
    t = (w << ONE) | seeds
    return seeds | (t & ~(t + seeds))


@njit(**JIT, inline="always")
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


@njit(**JIT, inline="always")
def _runs(b, length):
    """The positions ``s`` whose cells ``s..s+length-1`` all are in ``b``."""
    return _stretch(b, length, False)


@njit(**JIT, inline="always")
def _spread(v, length):
    """The cells ``s..s+length-1`` for every ``s`` in ``v``."""
    return _stretch(v, length, True)


@njit(**JIT, inline="always")
def _stretch(v, length, spread):
    """:func:`_spread` (``spread``: the bits of ``v`` grow ``length - 1``
    cells up) or :func:`_runs` (else: only the bits whose ``length - 1``
    cells above are set stay), in ``O(log length)`` shifts; ``spread`` is a
    constant at both calls, so each compiles to its own loop."""
    r = v
    t = 1
    while t < length:
        step = min(t, length - t)
        if spread:
            r |= r << np.uint64(step)
        else:
            r &= r >> np.uint64(step)
        t += step
    return r


@njit(**LEAF)
def _line_bw(w, b, n, lens, g0, g1, work):
    """The exact answer of one line of ``n <= 63`` cells whose groups have
    one colour (each followed by a background gap but the last).

    ``w`` / ``b``: the cells that may be background / the groups' colour
    (bit ``i``: cell ``i``); the line's group lengths are ``lens[g0:g1]``.
    ``work``: a uint64 work array of 64 entries.

    Returns ``(ok, w, b)``: whether some arrangement fits, and the cells
    that may be background / the colour in at least one arrangement.
    """
    k = g1 - g0
    cells = (ONE << np.uint64(n)) - ONE
    if k == 0:
        return (w & cells) == cells, cells, np.uint64(0)
    if k > 32:  # more than 63 cells needed
        return False, w, b
    # unsigned indices: numba tests a signed one for a negative value
    u0, uk = np.uint64(g0), np.uint64(k)
    # forward: work[j] = Z_j, work[31 + j] = D_j (j >= 1), ends = every position after the last group
    z = _fill_up(ONE, w)
    for j in range(uk):
        length = lens[u0 + j]
        work[j] = z
        d = (z & _runs(b, length)) << np.uint64(length)
        work[np.uint64(32) + j] = d
        z = _fill_up((d & w) << ONE, w)
    ends = _fill_up(work[np.uint64(31) + uk], w)
    if not (ends >> np.uint64(n)) & ONE:
        return False, w, b
    # backward: y = Y_{j+1} on entry to step j, Y_j on leaving it; the last
    # group first.  Only the starts the forward pass reached (``D_{j+1}``
    # shifted back) are followed down: the answer reads Y_j only just after
    # an end of group j - 1 or a position of Z_j, and the background from
    # there up to a start of group j makes that start one of Z_j's too
    y = _fill_down(ONE << np.uint64(n), w)
    white = ends & w & (y >> ONE)  # background between the last group and the end
    black = np.uint64(0)
    after = y
    for back in range(uk):
        j = uk - ONE - back
        length = lens[u0 + j]
        starts = (work[np.uint64(32) + j] & after) >> np.uint64(length)
        black |= _spread(starts, length)
        y = _fill_down(starts, w)
        before = work[0] if j == np.uint64(0) else work[np.uint64(31) + j] | work[j]  # groups 0..j-1 placed, cell free
        white |= before & w & (y >> ONE)
        after = (y >> ONE) & w  # the gap before group j
    return True, white & cells, black & cells


@njit(**LEAF)
def _line_one_colour(cells, n, lens, colour, g0, g1, out, work):
    """:func:`rofl.kernels._line._solve_line`'s contract for a line of
    ``n <= 63`` cells whose groups all have colour ``colour``: ``cells``
    int64 masks in, the cells' possible colours into ``out``; ``work`` a
    uint64 array of 64 entries.  Returns False when no arrangement fits."""
    bit = np.uint64(colour)
    w = np.uint64(0)
    b = np.uint64(0)
    for i in range(n - 1, -1, -1):
        m = np.uint64(cells[i])
        w = (w << ONE) | (m & ONE)
        b = (b << ONE) | ((m >> bit) & ONE)
    ok, w, b = _line_bw(w, b, n, lens, g0, g1, work)
    if not ok:
        return False
    for i in range(n):
        out[i] = np.int64(w & ONE) | (np.int64(b & ONE) << np.int64(colour))
        w >>= ONE
        b >>= ONE
    return True


#: The most groups and colours a line may have for :func:`_line_colours`
#: (its work words: two per group, three per colour).
MAX_GROUPS = 20
MAX_COLOURS = 8


@njit(**LEAF)
def _line_colours(cells, n, lens, cols, g0, g1, out, work, first, last, shift):
    """:func:`rofl.kernels._line._solve_line`'s contract for a line of
    ``n <= 63`` cells, at most :data:`MAX_GROUPS` groups of at most
    :data:`MAX_COLOURS` colours: :func:`_line_bw` with a word per colour.
    Two groups of one colour need a background cell between them, groups
    of two colours may touch.  ``work``: a uint64 array of 64 entries.
    ``first`` / ``last``, when not empty, receive every group's lowest and
    highest valid start ``+ shift``, as
    :func:`rofl.kernels._line._solve_line_dp` puts them there.
    Returns False when no arrangement fits."""
    k = g1 - g0
    # work: Z_j at [j], D_{j+1} at [k + j], then per colour slot s its
    # colour at [top + s], its cells at [top + MAX_COLOURS + s], its answer
    # at [top + 2 * MAX_COLOURS + s]
    top = 2 * k
    nc = 0
    for j in range(g0, g1):
        c = np.uint64(cols[j])
        s = 0
        while s < nc and work[top + s] != c:
            s += 1
        if s == nc:
            work[top + s] = c
            nc += 1
    w = np.uint64(0)
    for i in range(n - 1, -1, -1):
        w = (w << ONE) | (np.uint64(cells[i]) & ONE)
    for s in range(nc):
        c = work[top + s]
        b = np.uint64(0)
        for i in range(n - 1, -1, -1):
            b = (b << ONE) | ((np.uint64(cells[i]) >> c) & ONE)
        work[top + MAX_COLOURS + s] = b
        work[top + 2 * MAX_COLOURS + s] = 0
    line = (ONE << np.uint64(n)) - ONE
    if k == 0:
        if (w & line) != line:
            return False
        for i in range(n):
            out[i] = 1
        return True
    # forward
    z = _fill_up(ONE, w)
    for j in range(k):
        length = lens[g0 + j]
        work[j] = z
        d = (z & _runs(work[top + MAX_COLOURS + _slot(work, top, nc, cols[g0 + j])], length)) << np.uint64(length)
        work[k + j] = d
        if j + 1 < k and cols[g0 + j + 1] == cols[g0 + j]:
            z = _fill_up((d & w) << ONE, w)
        else:
            z = _fill_up(d, w)
    ends = _fill_up(work[2 * k - 1], w)
    if not (ends >> np.uint64(n)) & ONE:
        return False
    # backward
    y = _fill_down(ONE << np.uint64(n), w)
    white = ends & w & (y >> ONE)
    for j in range(k - 1, -1, -1):
        length = lens[g0 + j]
        s = _slot(work, top, nc, cols[g0 + j])
        if j + 1 < k and cols[g0 + j + 1] == cols[g0 + j]:
            after = ((y >> ONE) & w) >> np.uint64(length)
        else:
            after = y >> np.uint64(length)
        starts = _runs(work[top + MAX_COLOURS + s], length) & after
        valid = work[j] & starts
        work[top + 2 * MAX_COLOURS + s] |= _spread(valid, length)
        if first.shape[0] > 0:
            first[g0 + j] = _lowest(valid) + shift
            last[g0 + j] = _highest(valid) + shift
        y = _fill_down(starts, w)
        before = work[0] if j == 0 else work[k + j - 1] | work[j]
        white |= before & w & (y >> ONE)
    for i in range(n):
        out[i] = np.int64((white >> np.uint64(i)) & ONE)
    for s in range(nc):
        c = np.int64(work[top + s])
        a = work[top + 2 * MAX_COLOURS + s]
        for i in range(n):
            out[i] |= np.int64((a >> np.uint64(i)) & ONE) << c
    return True


@njit(**JIT, inline="always")
def _slot(work, top, nc, colour):
    """The slot of ``colour`` among :func:`_line_colours`'s ``nc`` colours."""
    c = np.uint64(colour)
    s = 0
    while s < nc - 1 and work[top + s] != c:
        s += 1
    return s


@intrinsic
def _reverse_bits(typingctx, word):
    """A uint64's bits in reverse order (LLVM's ``bitreverse``)."""

    def codegen(context, builder, signature, args):
        return builder.bitreverse(args[0])

    return types.uint64(types.uint64), codegen


@njit(**JIT, inline="always")
def _lowest(v):
    """The lowest set bit's position of a nonzero word."""
    return trailing_zeros(v)


@njit(**JIT, inline="always")
def _highest(v):
    """The highest set bit's position of a nonzero word."""
    return 63 - leading_zeros(v)
