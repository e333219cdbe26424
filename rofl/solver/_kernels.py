"""Compiled line-logic kernels (numba).  Private: call them through
:mod:`rofl.solver.line` and :mod:`rofl.solver.propagate`, which check and
convert their inputs.

Cell states are int64 bitmasks: bit ``c`` set means colour ``c`` is still
possible (bit 0 = background).  Masks are signed so that every operation
stays in one integer type; with 64 colours bit 63 is the sign bit, which
bitwise code does not mind.

Clues arrive flat: ``lens``/``cols`` hold every group, line ``i`` owns
``offs[i]:offs[i + 1]``; rows come first, then columns.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from rofl.solver._config import JIT, skip_blas_probe

skip_blas_probe()

SOLVED, STALLED, CONTRADICTION = 0, 1, 2

# stats slots filled by _propagate
ST_LINE_SOLVES, ST_SWEEPS, ST_HITS, ST_MISSES, ST_BAD_LINE, ST_TRAIL, ST_NEWLY = 0, 1, 2, 3, 4, 5, 6
N_STATS = 7

_FNV = np.int64(0x100000001B3)
# Flags in a cache entry's tag row (column 3): the line solve deduced
# nothing; the entry is the newer of its set.
_SAME = np.int64(1)
_NEWER = np.int64(2)
_SEED = np.int64(-3750763034362895579)  # FNV-1a offset basis as int64


# --------------------------------------------------------------- one line


@njit(**JIT)
def _solve_line(cells, n, lens, cols, g0, g1, out, run, slot, gap, fwd, bwd, color_slot):
    """Narrow one line by the colour DP, in ``O(k * (slack + 1) + n * c)``.

    ``k`` groups, ``c`` distinct colours among them, ``slack`` = ``n`` minus
    the cells the clue needs (at most ``n``).

    Parameters
    ----------
    cells : (>= n,) int64 masks of the line, read only
    n : line length
    lens, cols, g0, g1 : the line's groups are ``lens[g0:g1]`` / ``cols[g0:g1]``
    out : (>= n,) int64, receives for every cell the colours that appear
        there in at least one arrangement consistent with ``cells``
    run : (>= c, >= n + 1) int64 work buffer
    slot, gap : (>= k,) int64 work buffers
    fwd, bwd : (>= k + 1, >= n + 2) uint8 work buffers
    color_slot : (64,) int64 work buffer

    Returns
    -------
    bool
        False when no arrangement fits (``out`` is then undefined).
    """
    k = g1 - g0
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
    # least), nor after lo_j + slack (the later groups must still fit), so
    # both tables are only filled in that window of slack + 1 cells per row:
    # O(k * slack) instead of O(k * n), a large saving on the tight lines
    # that make up most of a puzzle.  Entries outside the window are never
    # read.
    total = 0
    for j in range(k):
        total += lens[g0 + j] + gap[j]
    slack = n - total
    if slack < 0:
        return False

    # fwd[j, i]: cells [0, i) can hold exactly groups 0..j-1.
    lo = 0
    for j in range(k + 1):
        for i in range(lo, lo + slack + 1):
            fwd[j, i] = 0
        if j < k:
            lo += lens[g0 + j] + gap[j]
    fwd[0, 0] = 1
    lo = 0
    for j in range(k + 1):
        length = lens[g0 + j] if j < k else 0
        top = lo + slack
        for i in range(lo, top + 1):
            if fwd[j, i] == 0:
                continue
            if i < top and (cells[i] & 1):
                fwd[j, i + 1] = 1
            if j < k and run[slot[j], i] >= length:
                e = i + length  # e + gap[j] <= n: inside row j + 1's window
                if gap[j]:
                    if cells[e] & 1:
                        fwd[j + 1, e + 1] = 1
                else:
                    fwd[j + 1, e] = 1
        if j < k:
            lo += length + gap[j]
    if fwd[k, n] == 0:
        return False

    # bwd[j, i]: cells [i, n) can hold exactly groups j..k-1.
    bwd[k, n] = 1
    lo = total  # window of row k: [total, n]
    for j in range(k, -1, -1):
        length = lens[g0 + j] if j < k else 0
        top = lo + slack
        if j == k:
            bwd[k, top] = 1  # top == n
            first = top - 1
        else:
            first = top
        for i in range(first, lo - 1, -1):
            v = 0
            if i < top and (cells[i] & 1) and bwd[j, i + 1]:
                v = 1
            elif j < k and run[slot[j], i] >= length:
                e = i + length
                if gap[j]:
                    if (cells[e] & 1) and bwd[j + 1, e + 1]:
                        v = 1
                elif bwd[j + 1, e]:
                    v = 1
            bwd[j, i] = v
        if j > 0:
            lo -= lens[g0 + j - 1] + gap[j - 1]

    for i in range(n):
        out[i] = 0
    lo = 0
    for j in range(k + 1):
        top = lo + slack
        for i in range(lo, top):
            if fwd[j, i] and bwd[j, i + 1] and (cells[i] & 1):
                out[i] |= 1
        if j < k:
            length = lens[g0 + j]
            bit = np.int64(1) << np.int64(cols[g0 + j])
            g = gap[j]
            s_run = slot[j]
            last = -n - 1  # latest valid start so far
            for i in range(lo, min(top + length, n)):
                if i <= top and fwd[j, i] and run[s_run, i] >= length:
                    e = i + length
                    if g:
                        if (cells[e] & 1) and bwd[j + 1, e + 1]:
                            last = i
                            out[e] |= 1
                    elif bwd[j + 1, e]:
                        last = i
                if last + length > i:
                    out[i] |= bit
            lo += length + g
    return True


# ------------------------------------------------------------ propagation


@njit(**JIT)
def _clue_hashes(lens, cols, offs, n_lines):
    """A 64-bit hash of every line's clue (lengths and colours)."""
    out = np.empty(n_lines, dtype=np.int64)
    for line in range(n_lines):
        out[line] = _clue_hash(lens, cols, offs[line], offs[line + 1])
    return out


@njit(**JIT)
def _clue_hash(lens, cols, g0, g1):
    """The hash of one clue, ``lens[g0:g1]`` and ``cols[g0:g1]``."""
    h = _SEED
    for g in range(g0, g1):
        h = (h ^ np.int64(lens[g])) * _FNV
        h = (h ^ (np.int64(cols[g]) + 257)) * _FNV
    return (h ^ np.int64(g1 - g0)) * _FNV


@njit(**JIT)
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


@njit(**JIT)
def _same_masks(stored, buf, n):
    """Whether a table row holds exactly the masks ``buf[:n]``."""
    diff = 0
    for i in range(n):  # no early exit: the loop vectorises
        diff |= stored[i] ^ buf[i]
    return diff == 0


@njit(**JIT)
def _cached_line(
    buf, n, lens, cols, g0, g1, line_hash, res, run, slot, gap, fwd, bwd, color_slot,
    cache_tag, cache_io, use_cache,
):
    """Solve one line (``buf[:n]`` into ``res[:n]``) through the line cache.

    With ``use_cache`` the result is looked up in a two-way set-associative
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
    lens,
    cols,
    offs,
    clue_hash,
    queue_init,
    work_run,
    work_fwd,
    work_bwd,
    cache_tag,
    cache_io,
    use_cache,
    stats,
):
    """Line logic to a fixpoint, in place on ``masks`` (H, W); see :func:`_propagate_trail`."""
    no_trail = np.empty(0, dtype=np.int64)
    return _propagate_trail(
        masks, lens, cols, offs[:-1], offs[1:], clue_hash, queue_init, work_run, work_fwd, work_bwd,
        cache_tag, cache_io, use_cache, stats, no_trail, no_trail, no_trail, 0, -1,
        _propagation_scratch(masks.shape, work_fwd.shape[0] - 1),
    )


@njit(**JIT)
def _propagation_scratch(shape, kmax):
    """Work arrays of :func:`_propagate_trail`, for callers that propagate many
    times (``queued`` must be all False between calls)."""
    height, width = shape
    n_lines = height + width
    nmax = max(height, width)
    return (
        np.empty(nmax, dtype=np.int64),  # buf
        np.empty(nmax, dtype=np.int64),  # res
        np.empty(max(kmax, 1), dtype=np.int64),  # slot
        np.empty(max(kmax, 1), dtype=np.int64),  # gap
        np.empty(64, dtype=np.int64),  # color_slot
        np.empty(n_lines, dtype=np.int64),  # queue
        np.zeros(n_lines, dtype=np.int64),  # generation
        np.zeros(n_lines, dtype=np.bool_),  # queued
    )


@njit(**JIT)
def _propagate_trail(
    masks,
    lens,
    cols,
    starts,
    ends,
    clue_hash,
    queue_init,
    work_run,
    work_fwd,
    work_bwd,
    cache_tag,
    cache_io,
    use_cache,
    stats,
    trail_cell,
    trail_old,
    stamp,
    stamp_value,
    undetermined_before,
    scratch,
):
    """Line logic to a fixpoint, in place on ``masks`` (H, W).

    Line ``i``'s groups are ``lens[starts[i]:ends[i]]`` (and ``cols``), so
    a caller can relocate one line's clue without moving the others.
    ``scratch`` holds the work arrays (:func:`_propagation_scratch`), so a
    caller that propagates many times allocates them once.

    With ``stamp_value > 0``, the first change of every cell is logged:
    ``trail_cell``/``trail_old`` (capacity ``H * W``) receive the flat cell
    index and its mask before the call, and ``stamp`` (``H * W``) marks
    logged cells with ``stamp_value`` -- so a caller can undo the call
    without copying the masks.  ``stats[ST_TRAIL]`` is the trail length and
    ``stats[ST_NEWLY]`` the number of cells that became determined.  A
    caller that knows how many cells were undetermined before passes it as
    ``undetermined_before`` (else -1): the status then follows from the
    count instead of a scan of the whole grid.

    ``queue_init`` lists the lines to look at first (all of them for a fresh
    solve; only the touched ones when resuming from an earlier state).  A
    line whose cells change queues the crossing lines.  With ``use_cache``
    every line result is kept in a two-way set-associative table keyed by
    the clue and the line's input masks, so a later solve of a similar
    puzzle skips the DP for every line it has already seen in the same
    state.

    Returns SOLVED, STALLED or CONTRADICTION; ``stats`` receives the line
    solves, sweeps (the queue's generations), cache hits and misses, and the
    line that failed.
    """
    height, width = masks.shape
    n_lines = height + width
    buf, res, slot, gap, color_slot, queue, generation, queued = scratch
    head = 0
    size = 0
    for q in range(queue_init.shape[0]):
        line = queue_init[q]
        if not queued[line]:
            queued[line] = True
            generation[line] = 1
            queue[(head + size) % n_lines] = line
            size += 1

    trail_len = 0
    newly = 0
    solves = 0
    sweeps = 0
    hits = 0
    misses = 0
    while size > 0:
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
        ok, hit, same = _cached_line(
            buf, n, lens, cols, starts[line], ends[line], clue_hash[line], res, work_run, slot, gap,
            work_fwd, work_bwd, color_slot, cache_tag, cache_io, use_cache,
        )
        if hit:
            hits += 1
        else:
            misses += 1
        if not ok:
            while size > 0:  # leave the scratch clean for the next call
                queued[queue[head]] = False
                head = (head + 1) % n_lines
                size -= 1
            stats[0] = solves
            stats[1] = sweeps
            stats[2] = hits
            stats[3] = misses
            stats[4] = line
            stats[5] = trail_len
            stats[6] = newly
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
                if not queued[other]:
                    queued[other] = True
                    generation[other] = gen + 1
                    queue[(head + size) % n_lines] = other
                    size += 1

    stats[0] = solves
    stats[1] = sweeps
    stats[2] = hits
    stats[3] = misses
    stats[4] = -1
    stats[5] = trail_len
    stats[6] = newly
    if undetermined_before >= 0:  # no mask became 0 (every line solve succeeded)
        return SOLVED if newly == undetermined_before else STALLED
    return _status(masks.reshape(height * width))


@njit(**JIT)
def _status(flat):
    """SOLVED, STALLED or CONTRADICTION for a fixpoint's masks (flat)."""
    for i in range(flat.shape[0]):
        m = flat[i]
        if m == 0:
            return CONTRADICTION
        if m & (m - 1):
            return STALLED
    return SOLVED


# ------------------------------------------------------- replaying a solve


@njit(**JIT)
def _replay(
    masks,
    lens,
    cols,
    offs,
    clue_hash,
    changed,
    base_line,
    base_start,
    base_cell,
    base_mask,
    out_line,
    out_start,
    out_cell,
    out_mask,
    work_run,
    work_fwd,
    work_bwd,
    cache_tag,
    cache_io,
    use_cache,
    stats,
):
    """Line logic to a fixpoint from nothing known (``masks`` all full on
    entry, narrowed in place), replaying the recorded solve of a similar
    puzzle instead of solving every line again.

    A recorded solve (a *trajectory*) lists its line visits in order: visit
    ``v`` solved line ``base_line[v]`` and set cells ``base_cell[j]`` (flat
    indices) to ``base_mask[j]`` for ``j`` in ``base_start[v]:base_start[v +
    1]`` (none for a visit that deduced nothing).  ``changed`` flags the
    lines whose clue may differ from the recorded puzzle's (a superset is
    fine).

    The replay walks the recorded visits in order and keeps a shadow copy of
    the recorded puzzle's state.  A visit of a line whose clue is unchanged
    and whose cells all equal the shadow's had exactly the recorded input,
    so its recorded result holds as it is: it is applied without solving
    anything.  Any other visit solves its line for real (through the line
    cache), unless none of the line's cells changed since its last visit.
    Each step is a sound line deduction for this puzzle, so the state never
    loses a solution; afterwards every line changed since its last visit is
    solved again until nothing changes (a first-in, first-out queue).  That
    is a fixpoint reached from nothing known: the same one
    :func:`_propagate` reaches, whatever the order.

    This solve's visits are recorded in ``out_*`` (same layout; room for
    ``out_line.shape[0]`` visits and ``out_cell.shape[0]`` cell changes),
    so it can be replayed in turn.  ``stats``: line solves, 0 sweeps (no
    generations here), cache hits and misses, the contradicting line,
    visits recorded (-1 when the room ran out: the record is then
    unusable).  An empty trajectory with
    every line flagged is a plain solve from nothing known.
    """
    height, width = masks.shape
    n_lines = height + width
    n_cells = height * width
    flat = masks.reshape(n_cells)
    shadow = flat.copy()
    off_shadow = np.zeros(n_lines, dtype=np.int64)  # cells differing from the shadow, per line
    stale = np.ones(n_lines, dtype=np.bool_)  # not known to be at their fixpoint: changed since their last visit
    buf, res, slot, gap, color_slot, queue, _, queued = _propagation_scratch(masks.shape, work_fwd.shape[0] - 1)
    capacity = out_cell.shape[0]
    n_visits = 0
    n_set = 0
    recording = True
    out_start[0] = 0
    solves = 0
    # what _replay_visit reads and writes
    state = (flat, shadow, off_shadow, stale, height, width)
    clues = (lens, cols, offs, clue_hash)
    work = (buf, res, work_run, slot, gap, work_fwd, work_bwd, color_slot, cache_tag, cache_io, use_cache, stats)
    record = (out_line, out_start, out_cell, out_mask)
    for v in range(base_line.shape[0]):
        line = base_line[v]
        is_row = line < height
        if off_shadow[line] == 0 and not changed[line]:
            d1 = base_start[v + 1]
            if recording and (n_set + d1 - base_start[v] > capacity or n_visits == out_line.shape[0]):
                recording = False
            for j in range(base_start[v], d1):
                cell = base_cell[j]
                shadow[cell] = base_mask[j]
                flat[cell] = base_mask[j]
                stale[height + cell % width if is_row else cell // width] = True
                if recording:
                    out_cell[n_set] = cell
                    out_mask[n_set] = base_mask[j]
                    n_set += 1
            stale[line] = False
            if recording:
                out_line[n_visits] = line
                n_visits += 1
                out_start[n_visits] = n_set
            continue
        # The shadow moves on; the line is solved for real if any of its
        # cells changed since its last visit (else it is at its fixpoint).
        for j in range(base_start[v], base_start[v + 1]):
            cell = base_cell[j]
            was = flat[cell] != shadow[cell]
            shadow[cell] = base_mask[j]
            _recount_off_shadow(cell, was, flat, shadow, off_shadow, height, width)
        if not stale[line]:
            continue
        status, n_visits, n_set, recording = _replay_visit(line, state, clues, work, record, n_visits, n_set, recording)
        solves += 1
        if status == CONTRADICTION:
            return _replay_end(stats, solves, line, n_visits, recording, CONTRADICTION)
    # Then to a fixpoint: every line changed since its last visit.
    head = 0
    size = 0
    for line in range(n_lines):
        if stale[line]:
            queued[line] = True
            queue[size] = line
            size += 1
    while size > 0:
        line = queue[head]
        head = (head + 1) % n_lines
        size -= 1
        queued[line] = False
        status, n_visits, n_set, recording = _replay_visit(line, state, clues, work, record, n_visits, n_set, recording)
        solves += 1
        if status == CONTRADICTION:
            return _replay_end(stats, solves, line, n_visits, recording, CONTRADICTION)
        # queue the lines this visit changed (marked stale by _replay_visit)
        if line < height:
            for i in range(width):
                other = height + i
                if stale[other] and not queued[other]:
                    queued[other] = True
                    queue[(head + size) % n_lines] = other
                    size += 1
        else:
            for i in range(height):
                if stale[i] and not queued[i]:
                    queued[i] = True
                    queue[(head + size) % n_lines] = i
                    size += 1
    return _replay_end(stats, solves, -1, n_visits, recording, _status(flat))


@njit(**JIT)
def _replay_visit(line, state, clues, work, record, n_visits, n_set, recording):
    """Solve one line for real during :func:`_replay`: narrow its cells,
    keep the per-line count of cells off the shadow, mark crossing lines
    stale and record the visit.  Returns the status (SOLVED for "went
    fine"), the record's new lengths and whether it still records."""
    flat, shadow, off_shadow, stale, height, width = state
    lens, cols, offs, clue_hash = clues
    buf, res, work_run, slot, gap, work_fwd, work_bwd, color_slot, cache_tag, cache_io, use_cache, stats = work
    out_line, out_start, out_cell, out_mask = record
    is_row = line < height
    n = width if is_row else height
    for i in range(n):
        buf[i] = flat[line * width + i] if is_row else flat[i * width + line - height]
    ok, hit, same = _cached_line(
        buf, n, lens, cols, offs[line], offs[line + 1], clue_hash[line], res, work_run, slot, gap,
        work_fwd, work_bwd, color_slot, cache_tag, cache_io, use_cache,
    )
    if hit:
        stats[ST_HITS] += 1
    else:
        stats[ST_MISSES] += 1
    stale[line] = False
    if not ok:
        return CONTRADICTION, n_visits, n_set, recording
    for i in range(n):
        if same or res[i] == buf[i]:
            continue
        cell = line * width + i if is_row else i * width + line - height
        was = flat[cell] != shadow[cell]
        flat[cell] = res[i]
        _recount_off_shadow(cell, was, flat, shadow, off_shadow, height, width)
        stale[height + i if is_row else i] = True
        if recording:
            if n_set == out_cell.shape[0]:
                recording = False
            else:
                out_cell[n_set] = cell
                out_mask[n_set] = res[i]
                n_set += 1
    if recording and n_visits == out_line.shape[0]:
        recording = False
    if recording:  # even when nothing changed: a later replay learns the line was at its fixpoint
        out_line[n_visits] = line
        n_visits += 1
        out_start[n_visits] = n_set
    return SOLVED, n_visits, n_set, recording


@njit(**JIT)
def _recount_off_shadow(cell, was, flat, shadow, off_shadow, height, width):
    """After ``flat[cell]`` or ``shadow[cell]`` changed: keep the per-line
    counts of cells off the shadow (``was``: the cell was off before)."""
    if was != (flat[cell] != shadow[cell]):
        step = -1 if was else 1
        off_shadow[cell // width] += step
        off_shadow[height + cell % width] += step


@njit(**JIT)
def _replay_end(stats, solves, bad_line, n_visits, recording, status):
    stats[ST_LINE_SOLVES] = solves
    stats[ST_SWEEPS] = 0
    stats[ST_BAD_LINE] = bad_line
    stats[ST_TRAIL] = n_visits if recording else -1
    return status


# ------------------------------------------------------------ clues of a grid


@njit(**JIT)
def _grid_clues(grid):
    """Clues of an ``(H, W)`` grid of palette indices, as flat arrays.

    The compiled twin of :meth:`rofl.puzzle.Puzzle.from_grid` without the
    validation, for the refinement loop that derives clues of thousands of
    candidate grids.  Returns ``lens``, ``cols`` and ``offs`` (int64).
    """
    height, width = grid.shape
    cap = 2 * height * width + 1  # rows and columns each hold at most H * W groups
    lens = np.empty(cap, dtype=np.int64)
    cols = np.empty(cap, dtype=np.int64)
    offs = np.empty(height + width + 1, dtype=np.int64)
    g = 0
    offs[0] = 0
    for line in range(height + width):
        g += _line_clue(grid, line, lens[g:], cols[g:])
        offs[line + 1] = g
    return lens[:g].copy(), cols[:g].copy(), offs


# ------------------------------------------------------- refinement support


@njit(**JIT)
def _line_cells(masks, line, out):
    """Copy line ``line`` of ``masks`` (rows first, then columns) into ``out``; returns its length."""
    height, width = masks.shape
    if line < height:
        for i in range(width):
            out[i] = masks[line, i]
        return width
    for i in range(height):
        out[i] = masks[i, line - height]
    return height


@njit(**JIT)
def _line_clue(grid, line, out_lens, out_cols):
    """Groups of one line of ``grid`` (rows first, then columns); returns their count."""
    height, width = grid.shape
    is_row = line < height
    n = width if is_row else height
    g = 0
    i = 0
    while i < n:
        v = grid[line, i] if is_row else grid[i, line - height]
        e = i + 1
        while e < n and (grid[line, e] if is_row else grid[e, line - height]) == v:
            e += 1
        if v != 0:
            out_lens[g] = e - i
            out_cols[g] = v
            g += 1
        i = e
    return g


@njit(**JIT)
def _rederive_line(grid, line, lens, cols, at, starts, ends, line_hash):
    """Write the clue of ``grid``'s line ``line`` into ``lens``/``cols`` from
    index ``at`` on and point ``starts``, ``ends`` and ``line_hash`` at it
    (the other lines keep theirs); returns its number of groups."""
    count = _line_clue(grid, line, lens[at:], cols[at:])
    starts[line] = at
    ends[line] = at + count
    line_hash[line] = _clue_hash(lens, cols, at, at + count)
    return count


@njit(**JIT)
def _line_log_count(cells, n, lens, cols, g0, g1, cnt):
    """Natural log of the number of arrangements of a clue that fit ``cells``.

    The counting twin of the forward pass of :func:`_solve_line` (same
    states, sums instead of flags), over the band of positions each group
    can take: state ``(j, d)`` -- ``j`` groups placed, the next cell at
    ``d`` past the leftmost place for it -- with ``d`` up to the line's
    slack.  ``cnt`` is a ``(>= k + 1, >= n + 1)`` float64 work array.
    Returns ``-inf`` when nothing fits.
    """
    k = g1 - g0
    need = 0
    for j in range(k):
        need += lens[g0 + j] + (1 if j + 1 < k and cols[g0 + j + 1] == cols[g0 + j] else 0)
    slack = n - need
    if slack < 0:
        return -np.inf
    for d in range(slack + 1):
        cnt[0, d] = 0.0
    cnt[0, 0] = 1.0
    start = 0  # leftmost cell after j groups
    for j in range(k + 1):
        length = lens[g0 + j] if j < k else 0
        bit = (np.int64(1) << np.int64(cols[g0 + j])) if j < k else np.int64(0)
        gap = 1 if (j + 1 < k and cols[g0 + j + 1] == cols[g0 + j]) else 0
        if j < k:
            for d in range(slack + 1):
                cnt[j + 1, d] = 0.0
        for d in range(slack + 1):
            v = cnt[j, d]
            if v == 0.0:
                continue
            i = start + d
            if d < slack and (cells[i] & 1):  # a background cell
                cnt[j, d + 1] += v
            if j < k:  # group j from cell i on
                ok = True
                for t in range(i, i + length):
                    if not (cells[t] & bit):
                        ok = False
                        break
                if ok and gap:
                    ok = (cells[i + length] & 1) != 0
                if ok:
                    cnt[j + 1, d] += v
        start += length + gap
    total = cnt[k, slack]
    if total <= 0.0:
        return -np.inf
    return np.log(total)


@njit(**JIT)
def _memo_log_count(cells, n, lens, cols, g0, g1, clue_h, cnt, memo_tag, memo_io, memo_val, use_memo):
    """:func:`_line_log_count` through a direct-mapped memo keyed by the
    clue's hash and the line's masks (compared in full, so a hash collision
    costs a recount, never a wrong count)."""
    if not use_memo:
        return _line_log_count(cells, n, lens, cols, g0, g1, cnt)
    h = _masks_hash(cells, n, clue_h)
    slot = h & (memo_tag.shape[0] - 1)
    if memo_tag[slot, 0] == h and memo_tag[slot, 1] == clue_h and memo_tag[slot, 2] == n:
        if _same_masks(memo_io[slot], cells, n):
            return memo_val[slot]
    value = _line_log_count(cells, n, lens, cols, g0, g1, cnt)
    memo_tag[slot, 0] = h
    memo_tag[slot, 1] = clue_h
    memo_tag[slot, 2] = n
    for i in range(n):
        memo_io[slot, i] = cells[i]
    memo_val[slot] = value
    return value


@njit(**JIT)
def _resume_certificate(
    grid,
    near_grid,
    lens,
    cols,
    offs,
    clue_hash,
    original,
    diff,
    colours,
    open_cells,
    open_masks,
    limit,
    work_run,
    work_fwd,
    work_bwd,
    cache_tag,
    cache_io,
    use_cache,
    stats,
    masks,
):
    """Propagate ``grid``'s clues from a stalled fixpoint of another grid.

    The other grid (the certificate's) is ``original`` (flat) with the flat
    cells ``diff`` set to ``colours``; its fixpoint has every cell
    determined to that grid's colour except ``open_cells``, whose masks are
    ``open_masks``.  Where ``grid`` differs from it, the cell also gets
    ``grid``'s colour, and the rows and columns of those cells are queued.
    The clues are ``near_grid``'s (``lens``...), with every row and column
    in which ``grid`` differs from ``near_grid`` re-derived from ``grid``.

    Writes the fixpoint into ``masks`` ((H, W)) and returns its status, or
    -1 without propagating when more than ``limit`` cells differ from the
    certificate's grid, or when a re-derived line has more groups than the
    work buffers hold.
    """
    height, width = grid.shape
    n_cells = height * width
    n_lines = height + width
    flat_grid = grid.reshape(n_cells)
    flat_masks = masks.reshape(n_cells)
    before = original.copy()
    for j in range(diff.shape[0]):
        before[diff[j]] = colours[j]
    for i in range(n_cells):
        flat_masks[i] = np.int64(1) << np.int64(before[i])
    for j in range(open_cells.shape[0]):
        flat_masks[open_cells[j]] = open_masks[j]
    queued = np.zeros(n_lines, dtype=np.bool_)
    moved = 0
    for i in range(n_cells):
        if flat_grid[i] != before[i]:
            moved += 1
            if moved > limit:
                return -1
            flat_masks[i] |= np.int64(1) << np.int64(flat_grid[i])
            queued[i // width] = True
            queued[height + i % width] = True
    # Clues: near_grid's, with the lines where grid differs re-derived and
    # written after them (pointed at by starts and ends).
    relined = np.zeros(n_lines, dtype=np.bool_)
    n_relined = 0
    for r in range(height):
        for c in range(width):
            if grid[r, c] != near_grid[r, c]:
                for line in (r, height + c):
                    if not relined[line]:
                        relined[line] = True
                        n_relined += 1
    nmax = max(height, width)
    g_total = lens.shape[0]
    new_lens = np.empty(g_total + n_relined * nmax, dtype=np.int64)
    new_cols = np.empty(g_total + n_relined * nmax, dtype=np.int64)
    new_lens[:g_total] = lens
    new_cols[:g_total] = cols
    starts = offs[:-1].copy()
    ends = offs[1:].copy()
    line_hash = clue_hash.copy()
    room = work_fwd.shape[0] - 1
    g = g_total
    for line in range(n_lines):
        if relined[line]:
            count = _rederive_line(grid, line, new_lens, new_cols, g, starts, ends, line_hash)
            if count > room:
                return -1
            g += count
    queue = np.empty(n_lines, dtype=np.int64)
    n_queue = 0
    for line in range(n_lines):
        if queued[line]:
            queue[n_queue] = line
            n_queue += 1
    no_trail = np.empty(0, dtype=np.int64)
    return _propagate_trail(
        masks, new_lens, new_cols, starts, ends, line_hash, queue[:n_queue], work_run, work_fwd, work_bwd,
        cache_tag, cache_io, use_cache, stats, no_trail, no_trail, no_trail, 0, -1,
        _propagation_scratch(masks.shape, room),
    )


@njit(**JIT)
def _estimate_moves(
    grid,
    masks,
    lens,
    cols,
    offs,
    clue_hash,
    moves,
    work_run,
    work_fwd,
    work_bwd,
    cache_tag,
    cache_io,
    use_cache,
    memo_tag,
    memo_io,
    memo_val,
    out_newly,
    out_status,
    out_entropy,
    totals,
    counts,
):
    """Estimate, for every move ``(row, col, colour)``, how many cells line
    logic would newly determine if that cell of ``grid`` took that colour.

    ``out_entropy`` receives how the changed row and column's arrangement
    counts move (difference of natural logs, after propagation): the
    progress a move makes when it determines no cell yet, e.g. on a
    textured picture where line logic starts from almost nothing.

    Each move resumes from ``masks`` (a stalled fixpoint of ``grid``'s
    clues) and propagates from the changed row and column only, then undoes
    itself through the trail; ``grid`` and ``masks`` come back unchanged.
    The estimate is optimistic: ``masks`` may hold deductions that only the
    old clues justified.  ``totals`` accumulates line solves, cache hits and
    misses.  ``work_fwd`` and ``work_run`` must have room for two more
    groups than the longest clue (a change can split a group in three).
    """
    height, width = grid.shape
    n_lines = height + width
    n_cells = height * width
    nmax = max(height, width)
    # The clues of every move: the grid's, with the changed row's and
    # column's new clues written after them and pointed at (starts, ends).
    g_total = lens.shape[0]
    new_lens = np.empty(g_total + 2 * nmax, dtype=np.int64)
    new_cols = np.empty(g_total + 2 * nmax, dtype=np.int64)
    new_lens[:g_total] = lens
    new_cols[:g_total] = cols
    starts = offs[:-1].copy()
    ends = offs[1:].copy()
    trail_cell = np.empty(n_cells, dtype=np.int64)
    trail_old = np.empty(n_cells, dtype=np.int64)
    stamp = np.zeros(n_cells, dtype=np.int64)
    queue = np.empty(2, dtype=np.int64)
    stats = np.zeros(N_STATS, dtype=np.int64)
    kmax = 0
    for line in range(n_lines):
        kmax = max(kmax, offs[line + 1] - offs[line])
    cnt = np.empty((kmax + 3, nmax + 2), dtype=np.float64)
    line_buf = np.empty(nmax, dtype=np.int64)
    base = np.full(n_lines, np.nan)  # log count of each line now, once needed
    undetermined = 0
    for r in range(height):
        for c in range(width):
            if masks[r, c] & (masks[r, c] - 1):
                undetermined += 1
    line_hash = clue_hash.copy()
    scratch = _propagation_scratch(grid.shape, work_fwd.shape[0] - 1)
    for m in range(moves.shape[0]):
        r = moves[m, 0]
        c = moves[m, 1]
        for line in (r, height + c):
            if counts and np.isnan(base[line]):
                n = _line_cells(masks, line, line_buf)
                base[line] = _memo_log_count(
                    line_buf, n, lens, cols, offs[line], offs[line + 1], clue_hash[line], cnt,
                    memo_tag, memo_io, memo_val, use_cache,
                )
        old = grid[r, c]
        grid[r, c] = moves[m, 2]
        row_at, col_at = g_total, g_total + nmax
        nr = _rederive_line(grid, r, new_lens, new_cols, row_at, starts, ends, line_hash)
        nc = _rederive_line(grid, height + c, new_lens, new_cols, col_at, starts, ends, line_hash)
        row_hash = line_hash[r]
        col_hash = line_hash[height + c]
        queue[0] = r
        queue[1] = height + c
        status = _propagate_trail(
            masks, new_lens, new_cols, starts, ends, line_hash, queue, work_run, work_fwd, work_bwd,
            cache_tag, cache_io, use_cache, stats,
            trail_cell, trail_old, stamp, m + 1, undetermined, scratch,
        )
        line_hash[r] = clue_hash[r]
        line_hash[height + c] = clue_hash[height + c]
        starts[r] = offs[r]
        ends[r] = offs[r + 1]
        starts[height + c] = offs[height + c]
        ends[height + c] = offs[height + c + 1]
        out_status[m] = status
        out_newly[m] = stats[ST_NEWLY]
        if counts and status != CONTRADICTION:
            n = _line_cells(masks, r, line_buf)
            after = _memo_log_count(
                line_buf, n, new_lens, new_cols, row_at, row_at + nr, row_hash, cnt, memo_tag, memo_io, memo_val,
                use_cache,
            )
            n = _line_cells(masks, height + c, line_buf)
            after += _memo_log_count(
                line_buf, n, new_lens, new_cols, col_at, col_at + nc, col_hash, cnt, memo_tag, memo_io, memo_val,
                use_cache,
            )
            out_entropy[m] = after - base[r] - base[height + c]
        else:
            out_entropy[m] = 0.0
        totals[0] += stats[ST_LINE_SOLVES]
        totals[1] += stats[ST_HITS]
        totals[2] += stats[ST_MISSES]
        for t in range(stats[ST_TRAIL]):
            cell = trail_cell[t]
            masks[cell // width, cell % width] = trail_old[t]
        grid[r, c] = old
