"""Compiled line-logic kernels (numba).  Private: call them through
:mod:`rofl.solver.single_line` and :mod:`rofl.solver.line_logic`, which check and
convert their inputs.

Cell states are int64 bitmasks: bit ``c`` set means colour ``c`` is still
possible (bit 0 = background).  Masks are signed so that every operation
stays in one integer type; with 64 colours bit 63 is the sign bit, which
bitwise code does not mind.

Clues arrive flat (:class:`Clues`): ``lens``/``cols`` hold every group,
line ``i`` owns ``starts[i]:ends[i]``; rows come first, then columns.  A
negative ``cols`` entry is a group of several possible colours (``?``, see
:func:`set_color`), which only :func:`_solve_line_sets` reads.  No kernel
of the ordinary path calls it, so that they compile without it (about 4 s
CPU on a cold start).

Work buffers travel as named tuples (:class:`Clues`, :class:`LineScratch`,
:class:`LineCache`, :class:`Trail`, :class:`PropagationScratch`) instead of
long positional lists whose order was a contract between caller and
kernel.  Inside compiled code a named tuple costs nothing; across the
Python boundary it does: numba types a named tuple argument in Python, about
15 us a call, which would add a fifth to a typical solve.  So the kernels
that Python calls once per solve (here :func:`_propagate`; refinement's in
:mod:`rofl.kernels._refine`) take the structures' fields flat -- the caller
splats them, ``*clues, *scratch, *cache`` -- and pack them again on entry.
Their parameters carry the fields' names in the fields' order, which
``tests/test_kernel_buffers.py`` checks, so the order is no hidden
contract.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from rofl.kernels import _wide as wide
from rofl.kernels._bits import MAX_CELLS, MAX_COLOURS, MAX_GROUPS, _line_colours, _line_one_colour
from rofl.kernels._config import JIT, LEAF, skip_blas_probe
from rofl.kernels.structs import (  # noqa: F401 -- the kernels' callers read them here too
    CONTRADICTION,
    N_STATS,
    SOLVED,
    ST_BAD_LINE,
    ST_HITS,
    ST_LINE_SOLVES,
    ST_MISSES,
    ST_NEWLY,
    ST_STOP,
    ST_SWEEPS,
    ST_TRAIL,
    STALLED,
    STOPPED,
    Clues,
    LineCache,
    LineScratch,
    PropagationScratch,
    Trail,
)

skip_blas_probe()

_FNV = np.int64(0x100000001B3)
# Flags in a cache entry's tag row (column 3): the line solve deduced
# nothing; the entry is the newer of its set.
_SAME = np.int64(1)
_NEWER = np.int64(2)
_SEED = np.int64(-3750763034362895579)  # FNV-1a offset basis as int64


# --------------------------------------------------------------- one line


@njit(**JIT, inline="always")
def _one_colour(n, cols, g0, g1):
    """The colour of a line of at most 63 cells whose groups all have one
    colour (1 for a line without groups), which the bit sets solve; -1 for
    any other line."""
    if n > MAX_CELLS:
        return -1
    colour = cols[g0] if g1 > g0 else 1
    for j in range(g0 + 1, g1):
        if cols[j] != colour:
            return -1
    return colour


@njit(**LEAF)
def _solve_line(cells, n, lens, cols, g0, g1, out, run, slot, gap, fwd, bwd, color_slot):
    """Narrow one line: on bit sets when it is short enough and its groups
    have few colours (:func:`_solve_line_within`), else by the colour DP
    (:func:`_solve_line_dp`); the same answer either way.

    Parameters
    ----------
    cells : (>= n,) int64 masks of the line, read only
    n : line length
    lens, cols, g0, g1 : the line's groups are ``lens[g0:g1]`` / ``cols[g0:g1]``
    out : (>= n,) int64, receives for every cell the colours that appear
        there in at least one arrangement consistent with ``cells``
    run, slot, gap, fwd, bwd, color_slot : the fields of a
        :class:`LineScratch` with room for ``k`` groups and ``n`` cells.
        Passed one by one, the one kernel that does: it is the innermost
        call, once per line solve, and measured about 1% faster so.

    Returns
    -------
    bool
        False when no arrangement fits (``out`` is then undefined).
    """
    none = slot[:0]  # no bounds
    return _solve_line_within(
        cells, n, lens, cols, g0, g1, out, run, slot, gap, fwd, bwd, color_slot, none, none, np.int64(0)
    )


@njit(**JIT, inline="always")
def _n_colours(cols, g0, g1):
    """How many distinct colours the groups ``g0..g1`` have."""
    seen = np.uint64(0)
    for j in range(g0, g1):
        seen |= np.uint64(1) << np.uint64(cols[j])
    count = 0
    while seen:
        seen &= seen - np.uint64(1)
        count += 1
    return count


# Which solver a line goes to (:func:`_line_kind`).
_ONE_WORD = 0  # rofl.kernels._bits._line_one_colour
_COLOUR_WORDS = 1  # rofl.kernels._bits._line_colours
_WIDE_ROWS = 2  # rofl.kernels._wide._line_wide
_DP = 3  # _solve_line_dp


@njit(**JIT, inline="always")
def _line_kind(n, cols, g0, g1, run_size):
    """Which solver takes a line of ``n`` cells with groups ``g0..g1``: one
    word for a line of at most 63 cells of one colour, a word per colour
    for a line of at most 63 cells, 20 groups and 8 colours, rows of words
    for one of at most 511 cells and 8 colours (when the DP's run table,
    ``run_size`` entries, holds the rows), else the DP."""
    if _one_colour(n, cols, g0, g1) >= 0:
        return _ONE_WORD
    k = g1 - g0
    if k == 0 or n > wide.MAX_CELLS or _n_colours(cols, g0, g1) > MAX_COLOURS:
        return _DP
    if n <= MAX_CELLS and k <= MAX_GROUPS:
        return _COLOUR_WORDS
    if wide.rows(k) * wide.MAX_WORDS <= run_size:
        return _WIDE_ROWS
    return _DP


@njit(**JIT, inline="always")
def _wide_work(run, k):
    """:func:`rofl.kernels._wide._line_wide`'s work rows for ``k`` groups, in
    the DP's run table (which that line does not use)."""
    rows = wide.rows(k)
    return run.reshape(run.size).view(np.uint64)[: rows * wide.MAX_WORDS].reshape((rows, wide.MAX_WORDS))


@njit(**JIT, inline="always")
def _solve_line_within(cells, n, lens, cols, g0, g1, out, run, slot, gap, fwd, bwd, color_slot, first, last, shift):
    """:func:`_solve_line` with the groups' start bounds of
    :func:`_solve_line_dp` (empty ``first``/``last``: none), which the DP
    reads and the bit sets of several colours update; the solver is
    :func:`_line_kind`'s."""
    kind = _line_kind(n, cols, g0, g1, run.size)
    if kind == _ONE_WORD:
        colour = cols[g0] if g1 > g0 else 1
        return _line_one_colour(cells, n, lens, colour, g0, g1, out, color_slot.view(np.uint64))
    if kind == _COLOUR_WORDS:
        work = color_slot.view(np.uint64)
        return _line_colours(cells, n, lens, cols, g0, g1, out, work, first, last, shift)
    if kind == _WIDE_ROWS:
        ws = _wide_work(run, g1 - g0)
        return wide._line_wide(cells, n, lens, cols, g0, g1, out, ws, color_slot, first, last, shift)
    return _solve_line_dp(cells, n, lens, cols, g0, g1, out, run, slot, gap, fwd, bwd, color_slot, first, last, shift)


@njit(**LEAF)
def _solve_line_dp(cells, n, lens, cols, g0, g1, out, run, slot, gap, fwd, bwd, color_slot, first, last, shift):
    """Narrow one line by the colour DP, in ``O(k * (slack + 1) + n * c)``:
    :func:`_solve_line`'s contract for any line.

    ``k`` groups, ``c`` distinct colours among them, ``slack`` = ``n`` minus
    the cells the clue needs (at most ``n``).  ``first`` / ``last``, when
    not empty, bound the starts of group ``g`` to
    ``[first[g] - shift, last[g] - shift]`` (any bounds that hold every
    start still valid: earlier answers of the same line, whose cells have
    only narrowed since), and receive the valid starts' bounds found
    (``+ shift``): a caller that keeps them makes every later solve of the
    line visit only those starts.
    """
    k = g1 - g0
    bounded = first.shape[0] > 0
    for c in range(color_slot.shape[0]):
        color_slot[c] = -1
    nslot = 0
    # run[s, i]: how many cells from i on may all take slot s's colour, so a
    # group of length L fits at i iff run[s, i] >= L (O(1) per test).
    for j in range(k):
        c = cols[g0 + j]
        s = color_slot[c]
        if s < 0:
            s = nslot
            nslot += 1
            color_slot[c] = s
            bit = np.int64(1) << np.int64(c)
            run[s, n] = 0
            for i in range(n - 1, -1, -1):
                if cells[i] & bit:
                    run[s, i] = run[s, i + 1] + 1
                else:
                    run[s, i] = 0
        slot[j] = s
        # A following group of the same colour needs one background cell in
        # between: it is placed together with the group.
        gap[j] = 1 if (j + 1 < k and cols[g0 + j + 1] == c) else 0

    # Group j cannot start before lo_j (the cells groups 0..j-1 need at
    # least), nor after lo_j + slack (the later groups must still fit), nor
    # outside its given bounds: [s_lo(j), s_hi(j)] (_starts).  Row j of the
    # tables ("groups 0..j-1 placed, the next may start here") is then the
    # window [A_j, B_j] = [s_lo(j-1) + len + gap, s_hi(j)] ([0, .] and
    # [., n] at the ends): O(k * slack) at most instead of O(k * n), a
    # large saving on the tight lines that make up most of a puzzle, and
    # less as the bounds narrow.  Entries outside the windows are never
    # read.
    total = 0
    for j in range(k):
        total += lens[g0 + j] + gap[j]
    slack = n - total
    if slack < 0:
        return False

    # fwd[j, i]: cells [0, i) can hold exactly groups 0..j-1.
    lo = 0  # lo_j
    row_lo = 0  # A_j
    for j in range(k + 1):
        s_lo, _, row_hi = _row(j, k, n, lo, slack, first, last, g0, shift, bounded)
        for i in range(row_lo, row_hi + 1):
            fwd[j, i] = 0
        if j < k:
            lo += lens[g0 + j] + gap[j]
            row_lo = s_lo + lens[g0 + j] + gap[j]
    if row_lo > n:  # row k is empty: the groups' bounds leave no room
        return False
    fwd[0, 0] = 1
    lo = 0
    row_lo = 0
    for j in range(k + 1):
        length = lens[g0 + j] if j < k else 0
        s_lo, s_hi, row_hi = _row(j, k, n, lo, slack, first, last, g0, shift, bounded)
        for i in range(row_lo, row_hi + 1):
            if fwd[j, i] == 0:
                continue
            if i < row_hi and (cells[i] & 1):
                fwd[j, i + 1] = 1
            if i >= s_lo and i <= s_hi and run[slot[j], i] >= length:
                e = i + length  # e + gap[j] >= A_{j+1}; beyond B_{j+1} never read
                if gap[j]:
                    if cells[e] & 1:
                        fwd[j + 1, e + 1] = 1
                else:
                    fwd[j + 1, e] = 1
        if j < k:
            lo += length + gap[j]
            row_lo = s_lo + length + gap[j]
    if fwd[k, n] == 0:
        return False

    # bwd[j, i]: cells [i, n) can hold exactly groups j..k-1.
    lo = total  # lo_k
    next_hi = n  # B_{j+1}
    for j in range(k, -1, -1):
        length = lens[g0 + j] if j < k else 0
        s_lo, s_hi, row_hi = _row(j, k, n, lo, slack, first, last, g0, shift, bounded)
        row_lo = 0
        if j > 0:
            before = lens[g0 + j - 1] + gap[j - 1]
            p_lo, _ = _starts(lo - before, slack, first, last, g0 + j - 1, shift, bounded)
            row_lo = p_lo + before
        if j == k:
            bwd[k, n] = 1
            top = n - 1
        else:
            top = row_hi
        for i in range(top, row_lo - 1, -1):
            v = 0
            if i < row_hi and (cells[i] & 1) and bwd[j, i + 1]:
                v = 1
            elif i >= s_lo and i <= s_hi and run[slot[j], i] >= length:
                e = i + length + gap[j]
                if e <= next_hi and (gap[j] == 0 or cells[e - 1] & 1) and bwd[j + 1, e]:
                    v = 1
            bwd[j, i] = v
        next_hi = row_hi
        if j > 0:
            lo -= lens[g0 + j - 1] + gap[j - 1]

    for i in range(n):
        out[i] = 0
    lo = 0
    row_lo = 0
    for j in range(k + 1):
        s_lo, s_hi, row_hi = _row(j, k, n, lo, slack, first, last, g0, shift, bounded)
        for i in range(row_lo, row_hi):
            if fwd[j, i] and bwd[j, i + 1] and (cells[i] & 1):
                out[i] |= 1
        if j < k:
            length = lens[g0 + j]
            bit = np.int64(1) << np.int64(cols[g0 + j])
            g = gap[j]
            s_run = slot[j]
            if j + 1 < k:
                _, next_hi = _starts(lo + length + g, slack, first, last, g0 + j + 1, shift, bounded)
            else:
                next_hi = n
            low = n  # earliest valid start
            latest = -n - 1  # latest valid start so far
            for i in range(row_lo, min(s_hi + length, n)):
                if i >= s_lo and i <= s_hi and fwd[j, i] and run[s_run, i] >= length:
                    e = i + length
                    if e + g <= next_hi and bwd[j + 1, e + g] and (g == 0 or cells[e] & 1):
                        latest = i
                        if i < low:
                            low = i
                        if g:
                            out[e] |= 1
                if latest + length > i:
                    out[i] |= bit
            if bounded:
                first[g0 + j] = low + shift
                last[g0 + j] = latest + shift
            lo += length + g
            row_lo = s_lo + length + g
    return True


@njit(**JIT, inline="always")
def _starts(lo, slack, first, last, g, shift, bounded):
    """Group ``g``'s possible starts: ``[lo, lo + slack]`` from its clue,
    within its bounds when ``bounded`` (see :func:`_solve_line_dp`)."""
    if not bounded:
        return lo, lo + slack
    return max(lo, first[g] - shift), min(lo + slack, last[g] - shift)


@njit(**JIT, inline="always")
def _row(j, k, n, lo, slack, first, last, g0, shift, bounded):
    """Row ``j`` of :func:`_solve_line_dp`'s tables: the starts of group
    ``j`` (none past the last group) and the row's last position."""
    if j == k:
        return n + 1, -1, n
    s_lo, s_hi = _starts(lo, slack, first, last, g0 + j, shift, bounded)
    return s_lo, s_hi, s_hi


@njit(**JIT)
def _solve_line_sets(cells, n, lens, cols, g0, g1, out):
    """:func:`_solve_line` for a clue with colour sets, in ``O(k * n * c)``.

    A group whose ``cols`` entry is negative may take any colour of the
    mask ``~cols[g] << 1`` (see :func:`set_color`); the others have their
    one colour.  Touching groups take different colours; a group next to
    one of the same colour needs a background cell between them.  Since
    whether a gap is needed now depends on the colours chosen, the DP keeps,
    besides "groups 0..j-1 placed and the next may start here" (``fa``), the
    colours with which group ``j - 1`` can end exactly here (``fb``, a
    mask).  Its work arrays are allocated here: this path serves the rare
    puzzles with ``?`` clues and leaves :class:`LineScratch` as it is.

    Returns False when no arrangement fits (``out`` is then undefined).
    """
    k = g1 - g0
    # every group's colours as a flat list (gc[gco[j]:gco[j + 1]]), and a
    # slot per colour used for its run table
    slot_of = np.full(64, -1, dtype=np.int64)
    gco = np.zeros(k + 1, dtype=np.int64)
    gc = np.empty(64 * max(k, 1), dtype=np.int64)
    nslot = 0
    count = 0
    for j in range(k):
        c = cols[g0 + j]
        mask = (~c) << np.int64(1) if c < 0 else np.int64(1) << np.int64(c)
        for colour in range(1, 64):
            if (mask >> np.int64(colour)) & 1:
                gc[count] = colour
                count += 1
                if slot_of[colour] < 0:
                    slot_of[colour] = nslot
                    nslot += 1
        gco[j + 1] = count
    run = np.empty((max(nslot, 1), n + 1), dtype=np.int64)
    for colour in range(1, 64):
        s = slot_of[colour]
        if s >= 0:
            bit = np.int64(1) << np.int64(colour)
            run[s, n] = 0
            for i in range(n - 1, -1, -1):
                run[s, i] = run[s, i + 1] + 1 if cells[i] & bit else 0

    # fa[j, i]: cells [0, i) hold groups 0..j-1 and the next may start at i
    # whatever its colour; fb[j, i]: the colours with which they hold them
    # with group j - 1 ending exactly at i.
    fa = np.zeros((k + 1, n + 2), dtype=np.uint8)
    fb = np.zeros((k + 1, n + 2), dtype=np.int64)
    fa[0, 0] = 1
    for j in range(k + 1):
        for i in range(n + 1):
            a = fa[j, i]
            b = fb[j, i]
            if a == 0 and b == 0:
                continue
            if i < n and (cells[i] & 1):
                fa[j, i + 1] = 1
            if j < k:
                length = lens[g0 + j]
                if i + length <= n:
                    for t in range(gco[j], gco[j + 1]):
                        colour = gc[t]
                        bit = np.int64(1) << np.int64(colour)
                        if run[slot_of[colour], i] >= length and (a or (b & ~bit) != 0):
                            fb[j + 1, i + length] |= bit
    if fa[k, n] == 0 and fb[k, n] == 0:
        return False

    # ba[j, i]: cells [i, n) can hold groups j..k-1 after a free start;
    # bb[j, i]: the colours c such that, group j - 1 having colour c and
    # ending at i, cells [i, n) can hold groups j..k-1.
    every = np.int64(-1)
    ba = np.zeros((k + 1, n + 2), dtype=np.uint8)
    bb = np.zeros((k + 1, n + 2), dtype=np.int64)
    for j in range(k, -1, -1):
        for i in range(n, -1, -1):
            free = i < n and (cells[i] & 1) != 0 and ba[j, i + 1] != 0
            if j == k:
                if i == n or free:
                    ba[k, i] = 1
                    bb[k, i] = every
                continue
            length = lens[g0 + j]
            placeable = np.int64(0)  # colours group j can take starting at i
            if i + length <= n:
                for t in range(gco[j], gco[j + 1]):
                    colour = gc[t]
                    bit = np.int64(1) << np.int64(colour)
                    if run[slot_of[colour], i] >= length and (bb[j + 1, i + length] & bit) != 0:
                        placeable |= bit
            if free or placeable != 0:
                ba[j, i] = 1
            if free or (placeable & (placeable - 1)) != 0:
                bb[j, i] = every  # two colours to choose from: one differs from the last group's
            elif placeable != 0:
                bb[j, i] = ~placeable

    for i in range(n):
        out[i] = 0
    for j in range(k + 1):
        for i in range(n):
            if (fa[j, i] or fb[j, i] != 0) and (cells[i] & 1) and ba[j, i + 1]:
                out[i] |= 1
    for j in range(k):
        length = lens[g0 + j]
        for t in range(gco[j], gco[j + 1]):
            colour = gc[t]
            bit = np.int64(1) << np.int64(colour)
            s = slot_of[colour]
            last = -n - 1  # latest start of the group in this colour so far
            for i in range(n):
                if (
                    i + length <= n
                    and run[s, i] >= length
                    and (fa[j, i] or (fb[j, i] & ~bit) != 0)
                    and (bb[j + 1, i + length] & bit) != 0
                ):
                    last = i
                if last + length > i:
                    out[i] |= bit
    return True


# ------------------------------------------------------------ propagation


@njit(**JIT)
def _clue_hashes(lens, cols, offs, n_lines):
    """A 64-bit hash of every line's clue (lengths and colours)."""
    out = np.empty(n_lines, dtype=np.int64)
    for line in range(n_lines):
        out[line] = _clue_hash(lens, cols, offs[line], offs[line + 1])
    return out


@njit(**LEAF)
def _clue_hash(lens, cols, g0, g1):
    """The hash of one clue, ``lens[g0:g1]`` and ``cols[g0:g1]``."""
    h = _SEED
    for g in range(g0, g1):
        h = (h ^ np.int64(lens[g])) * _FNV
        h = (h ^ (np.int64(cols[g]) + 257)) * _FNV
    return (h ^ np.int64(g1 - g0)) * _FNV


@njit(**LEAF)
def _masks_hash(buf, n, seed):
    """64-bit hash of a line's masks ``buf[:n]``, mixed into ``seed`` (the
    clue's hash): the key of the line cache and of the count memo."""
    # Four independent lanes (the CPU overlaps their multiplications), mixed
    # at the end.
    h0 = seed
    h1 = seed ^ np.int64(0x5851F42D4C957F2D)
    h2 = seed ^ np.int64(0x14057B7EF767814F)
    h3 = seed ^ np.int64(0x2545F4914F6CDD1D)
    i = 0
    while i + 4 <= n:
        h0 = (h0 ^ buf[i]) * _FNV
        h1 = (h1 ^ buf[i + 1]) * _FNV
        h2 = (h2 ^ buf[i + 2]) * _FNV
        h3 = (h3 ^ buf[i + 3]) * _FNV
        i += 4
    while i < n:
        h0 = (h0 ^ buf[i]) * _FNV
        h0 ^= h0 >> 29
        i += 1
    h = h0
    for lane in (h1, h2, h3):
        h = (h ^ (lane ^ (lane >> 29))) * _FNV
        h ^= h >> 29
    return h


@njit(**LEAF)
def _same_masks(stored, buf, n):
    """Whether a table row holds exactly the masks ``buf[:n]``."""
    diff = 0
    for i in range(n):  # no early exit: the loop vectorises
        diff |= stored[i] ^ buf[i]
    return diff == 0


@njit(**LEAF)
def _cached_line(buf, n, lens, cols, g0, g1, line_hash, res, scratch, cache):
    """Solve one line (``buf[:n]`` into ``res[:n]``) through the line cache.

    The line's groups are ``lens[g0:g1]`` and ``cols[g0:g1]``, its clue's
    hash ``line_hash``: scalars rather than the :class:`Clues` and a line
    number, since this runs once per line solve.

    With ``cache.use`` the result is looked up in a two-way set-associative
    table keyed by the clue's hash and the line's input masks (checked in
    full, so a hash collision costs a miss, never a wrong result), and stored
    after a miss; a contradiction is stored as all-zero masks.

    Returns
    -------
    ok : bool
        False when no arrangement fits (``res`` is then all zero).
    hit : bool
        Whether the result came from the cache.
    same : bool
        The line solve deduced nothing: the result is the input (``res`` is
        then left as it was on a cache hit; callers skip it).
    """
    cache_tag, cache_io, use_cache = cache
    slot_index = 0
    h = line_hash
    if use_cache:
        h = _masks_hash(buf, n, line_hash)
        # Two ways per set: two lines whose keys share a set (a few percent
        # of the lines of one large solve) no longer evict each other.
        slot_index = h & (cache_tag.shape[0] - 2)
        for way in range(slot_index, slot_index + 2):
            if cache_tag[way, 0] != h or cache_tag[way, 1] != line_hash or cache_tag[way, 2] != n:
                continue
            if _same_masks(cache_io[way], buf, n):
                if cache_tag[way, 3] & _SAME:
                    return True, True, True  # the line solve deduced nothing
                ok = True
                for i in range(n):
                    res[i] = cache_io[way, n + i]
                    if res[i] == 0:
                        ok = False
                return ok, True, False
    run, slot, gap, fwd, bwd, color_slot = scratch
    ok = _solve_line(buf, n, lens, cols, g0, g1, res, run, slot, gap, fwd, bwd, color_slot)
    same = ok
    if ok:
        for i in range(n):
            if res[i] != buf[i]:
                same = False
                break
    else:
        for i in range(n):
            res[i] = 0
    if use_cache:
        # Replace the older entry of the set (first in, first out).
        victim = slot_index + 1 if cache_tag[slot_index, 3] & _NEWER else slot_index
        cache_tag[victim ^ 1, 3] &= ~_NEWER
        cache_tag[victim, 0] = h
        cache_tag[victim, 1] = line_hash
        cache_tag[victim, 2] = n
        cache_tag[victim, 3] = _NEWER | (_SAME if same else 0)
        for i in range(n):
            cache_io[victim, i] = buf[i]
            cache_io[victim, n + i] = res[i]
    return ok, False, same


@njit(**JIT)
def _propagate(
    masks,
    lens, cols, starts, ends, hashes,
    queue_init,
    run, slot, gap, fwd, bwd, color_slot,
    tag, io, use,
    stats,
):  # fmt: skip
    """:func:`_fixpoint` for callers in Python: the fields of :class:`Clues`,
    :class:`LineScratch` and :class:`LineCache` come flat (see the module
    docstring)."""
    clues = Clues(lens, cols, starts, ends, hashes)
    scratch = LineScratch(run, slot, gap, fwd, bwd, color_slot)
    return _fixpoint(masks, clues, queue_init, scratch, LineCache(tag, io, use), stats)


@njit(**JIT)
def _fixpoint(masks, clues, queue_init, scratch, cache, stats):
    """Line logic to a fixpoint, in place on ``masks`` (H, W), logging
    nothing; see :func:`_propagate_trail`."""
    return _propagate_trail(
        masks,
        clues,
        queue_init,
        scratch,
        cache,
        stats,
        _no_trail(),
        np.int64(0),  # np.int64, not literals: one compiled _propagate_trail for every caller
        np.int64(-1),
        _propagation_scratch(masks.shape),
    )


@njit(**JIT)
def _no_trail():
    none = np.empty(0, dtype=np.int64)
    return Trail(none, none, none)


@njit(**JIT)
def _propagation_scratch(shape):
    """Work arrays of :func:`_propagate_trail`, for callers that propagate many
    times (``queued`` must be all False between calls)."""
    height, width = shape
    n_lines = height + width
    nmax = max(height, width)
    return PropagationScratch(
        np.empty(nmax, dtype=np.int64),
        np.empty(nmax, dtype=np.int64),
        np.empty(n_lines, dtype=np.int64),
        np.zeros(n_lines, dtype=np.int64),
        np.zeros(n_lines, dtype=np.bool_),
    )


@njit(**LEAF)
def _propagate_trail(masks, clues, queue_init, scratch, cache, stats, trail, stamp_value, undetermined_before, work):
    """Line logic to a fixpoint, in place on ``masks`` (H, W).

    ``clues`` (:class:`Clues`) may point a line at a relocated clue.
    ``scratch`` and ``cache`` are the line solves' (:class:`LineScratch`,
    :class:`LineCache`); ``work`` holds this function's own work arrays
    (:class:`PropagationScratch`), so a caller that propagates many times
    allocates them once.

    With ``stamp_value > 0``, the first change of every cell is logged on
    ``trail`` (:class:`Trail`): ``trail.cell``/``trail.old`` receive the
    flat cell index and its mask before the call, and ``trail.stamp`` marks
    logged cells with ``stamp_value`` -- so a caller can undo the call
    without copying the masks.  ``stats[ST_TRAIL]`` is the trail length and
    ``stats[ST_NEWLY]`` the number of cells that became determined.  A
    caller that knows how many cells were undetermined before passes it as
    ``undetermined_before`` (else -1): the status then follows from the
    count instead of a scan of the whole grid.

    ``queue_init`` lists the lines to look at first (all of them for a fresh
    solve; only the touched ones when resuming from an earlier state).  A
    line whose cells change queues the crossing lines.  With ``cache.use``
    every line result is kept in a two-way set-associative table keyed by
    the clue and the line's input masks, so a later solve of a similar
    puzzle skips the DP for every line it has already seen in the same
    state.

    Returns SOLVED, STALLED or CONTRADICTION; ``stats`` receives the line
    solves, sweeps (the queue's generations), cache hits and misses, and the
    line that failed.  Another thread may set ``stats[ST_STOP]`` while the
    loop runs: it is read before every line solve (a load beside a line DP
    that costs microseconds), and the call then returns STOPPED at once with
    ``masks`` narrowed only soundly (part of the way to the fixpoint).
    """
    height, width = masks.shape
    n_lines = height + width
    buf, res, queue, generation, queued = work
    trail_cell, trail_old, stamp = trail
    # np.int64, not literals: _drain and _put_stats would be compiled again
    # for every mix of literal and int64 arguments their calls see
    head = np.int64(0)
    size = _queue_lines(queue_init, queue, queued, generation)

    trail_len = np.int64(0)
    newly = np.int64(0)
    solves = np.int64(0)
    sweeps = np.int64(0)
    hits = np.int64(0)
    misses = np.int64(0)
    no_line = np.int64(-1)
    while size > 0:
        if stats[ST_STOP] != 0:
            _drain(queue, queued, head, size, n_lines)
            _put_stats(stats, solves, sweeps, hits, misses, no_line, trail_len, newly)
            return STOPPED
        line = queue[head]
        head = (head + 1) % n_lines
        size -= 1
        queued[line] = False
        gen = generation[line]
        if gen > sweeps:
            sweeps = gen
        is_row = line < height
        if is_row:
            n = width
            for i in range(n):
                buf[i] = masks[line, i]
        else:
            n = height
            c = line - height
            for i in range(n):
                buf[i] = masks[i, c]
        solves += 1
        g0, g1 = clues.starts[line], clues.ends[line]
        ok, hit, same = _cached_line(buf, n, clues.lens, clues.cols, g0, g1, clues.hashes[line], res, scratch, cache)
        if hit:
            hits += 1
        else:
            misses += 1
        if not ok:
            _drain(queue, queued, head, size, n_lines)
            _put_stats(stats, solves, sweeps, hits, misses, line, trail_len, newly)
            return CONTRADICTION
        if same:
            continue

        for i in range(n):
            if res[i] != buf[i]:
                if is_row:
                    masks[line, i] = res[i]
                    other = height + i
                    cell = line * width + i
                else:
                    masks[i, line - height] = res[i]
                    other = i
                    cell = i * width + (line - height)
                if stamp_value > 0 and stamp[cell] != stamp_value:
                    stamp[cell] = stamp_value
                    trail_cell[trail_len] = cell
                    trail_old[trail_len] = buf[i]
                    trail_len += 1
                if (buf[i] & (buf[i] - 1)) != 0 and (res[i] & (res[i] - 1)) == 0:
                    newly += 1
                size = _push(other, gen + 1, queue, queued, generation, head, size)

    _put_stats(stats, solves, sweeps, hits, misses, no_line, trail_len, newly)
    if undetermined_before >= 0:  # no mask became 0 (every line solve succeeded)
        return SOLVED if newly == undetermined_before else STALLED
    return _status(masks.reshape(height * width))


@njit(**JIT, inline="always")
def _push(line, gen, queue, queued, generation, head, size):
    """Queue ``line`` with generation ``gen`` on the ring ``queue`` (its
    ``queued`` marks and ``generation``; ``head`` and ``size`` the ring's)
    unless it is queued already: the ring's new size.  Every fixpoint loop
    queues a crossing line this way."""
    if queued[line]:
        return size
    queued[line] = True
    generation[line] = gen
    queue[(head + size) % queue.shape[0]] = line
    return size + 1


@njit(**JIT, inline="always")
def _queue_lines(queue_init, queue, queued, generation):
    """Queue the lines ``queue_init`` on an empty ring (``queue``, its
    ``queued`` marks, ``generation`` 1: the first sweep), each once: the
    queue's size, its head 0."""
    size = np.int64(0)
    for q in range(queue_init.shape[0]):
        size = _push(queue_init[q], np.int64(1), queue, queued, generation, np.int64(0), size)
    return size


@njit(**LEAF)
def _drain(queue, queued, head, size, n_lines):
    """Empty the line queue of an interrupted loop: the scratch is left clean
    (``queued`` all False) for the next call."""
    while size > 0:
        queued[queue[head]] = False
        head = (head + 1) % n_lines
        size -= 1


@njit(**LEAF)
def _put_stats(stats, solves, sweeps, hits, misses, bad_line, trail_len, newly):
    stats[ST_LINE_SOLVES] = solves
    stats[ST_SWEEPS] = sweeps
    stats[ST_HITS] = hits
    stats[ST_MISSES] = misses
    stats[ST_BAD_LINE] = bad_line
    stats[ST_TRAIL] = trail_len
    stats[ST_NEWLY] = newly


@njit(**LEAF)
def _status(flat):
    """SOLVED, STALLED or CONTRADICTION for a fixpoint's masks (flat)."""
    for i in range(flat.shape[0]):
        m = flat[i]
        if m == 0:
            return CONTRADICTION
        if m & (m - 1):
            return STALLED
    return SOLVED
