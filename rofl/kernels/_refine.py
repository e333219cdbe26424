"""Refinement's compiled kernels (numba).  Private: call them through
:class:`rofl.refine.judge.Judge`, which sizes their buffers and wraps
their results.

They build on the solver's line kernels (:mod:`rofl.kernels._line`: the
line DP, the line cache, propagation) and use the same named structures
(``Clues``, ``LineScratch``, ``LineCache``), plus refinement's own:
recorded solves (:class:`rofl.refine.judge.Trajectory`) and the memo of
arrangement counts (:class:`~rofl.kernels.refine_structs.CountMemo`).  As there, the
kernels Python calls take those structures' fields flat, named and ordered
as the fields (prefixed ``base_``, ``out_``, ``memo_`` where a kernel takes
two of a kind), and pack them on entry: a named tuple argument would cost
numba about 15 us a call to type, and refinement makes thousands.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from rofl.kernels import structs
from rofl.kernels._config import JIT, LEAF
from rofl.kernels._line import (
    Clues,
    LineCache,
    LineScratch,
    Trail,
    _cached_line,
    _clue_hash,
    _fixpoint,
    _masks_hash,
    _propagate_trail,
    _propagation_scratch,
    _push,
    _same_masks,
    _status,
)
from rofl.kernels.refine_structs import CountMemo

# ------------------------------------------------------- replaying a solve


@njit(**JIT)
def _replay(
    masks,
    lens, cols, starts, ends, hashes,
    changed,
    base_line, base_start, base_cell, base_mask,
    out_line, out_start, out_cell, out_mask,
    run, slot, gap, fwd, bwd, color_slot,
    tag, io, use,
    stats,
):  # fmt: skip
    """Line logic to a fixpoint from nothing known (``masks`` all full on
    entry, narrowed in place), replaying the recorded solve of a similar
    puzzle instead of solving every line again.

    A recorded solve (a *trajectory*, ``base_*``) lists its line visits in
    order: visit ``v`` narrowed line ``base_line[v]`` and set cells
    ``base_cell[j]`` (flat indices) to ``base_mask[j]`` for ``j`` in
    ``base_start[v]:base_start[v + 1]`` (none for a visit that deduced
    nothing).  A visit is *strong* (a line solve: its result is at the
    line's fixpoint) or, recorded as ``~line`` (negative), *weak*: a sound
    narrowing short of a line solve (see below).  ``changed`` flags the
    lines whose clue may differ from the recorded puzzle's (a superset is
    fine).

    The replay walks the recorded visits in order and keeps a shadow copy of
    the recorded puzzle's state.  A visit of a line whose clue is unchanged
    and whose cells all equal the shadow's had exactly the recorded input,
    so its recorded result holds as it is: it is applied without solving
    anything.  When the line's cells are all *narrower* than (or equal to)
    the shadow's instead, the recorded result still holds as an upper
    bound -- line logic is monotone: narrower input, narrower output -- so
    the cells are intersected with it, again without solving anything; the
    line is then not known to be at its fixpoint (a weak visit).  Any other
    visit (a changed clue, or a cell wider than the shadow's) solves its
    line for real (through the line cache), unless none of the line's cells
    changed since its last visit.  Each step is a sound deduction for this
    puzzle, so the state never loses a solution; afterwards every line not
    known to be at its fixpoint is solved again until nothing changes (a
    first-in, first-out queue).  That is a fixpoint that contains every
    fixpoint: the same one the solver's ``_propagate`` reaches from nothing
    known, whatever the order.

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
    off_wide = np.zeros(n_lines, dtype=np.int64)  # cells allowing a colour the shadow's does not, per line
    stale = np.ones(n_lines, dtype=np.bool_)  # not known to be at their fixpoint
    clues = Clues(lens, cols, starts, ends, hashes)
    scratch = LineScratch(run, slot, gap, fwd, bwd, color_slot)
    cache = LineCache(tag, io, use)
    buf, res, queue, generation, queued = _propagation_scratch(masks.shape)
    fifo = (queue, queued, generation)  # the replay reads no generations
    capacity = out_cell.shape[0]
    # np.int64 and np.bool_, not literals: _replay_visit and _replay_end
    # would be compiled once more for the literal types
    n_visits = np.int64(0)
    n_set = np.int64(0)
    recording = np.bool_(True)
    out_start[0] = 0
    solves = np.int64(0)
    # what _replay_visit reads and writes
    state = (flat, shadow, off_shadow, off_wide, stale, height, width)
    work = (buf, res, scratch, cache, stats)
    record = (out_line, out_start, out_cell, out_mask)
    for v in range(base_line.shape[0]):
        weak = base_line[v] < 0
        line = ~base_line[v] if weak else base_line[v]
        is_row = line < height
        d0, d1 = base_start[v], base_start[v + 1]
        if off_shadow[line] == 0 and not changed[line]:
            # the recorded input: the recorded result as it is
            if recording and (n_set + d1 - d0 > capacity or n_visits == out_line.shape[0]):
                recording = False
            for j in range(d0, d1):
                cell = base_cell[j]
                shadow[cell] = base_mask[j]
                flat[cell] = base_mask[j]
                stale[height + cell % width if is_row else cell // width] = True
                if recording:
                    out_cell[n_set] = cell
                    out_mask[n_set] = base_mask[j]
                    n_set += 1
            stale[line] = weak
            if recording:
                out_line[n_visits] = base_line[v]
                n_visits += 1
                out_start[n_visits] = n_set
            continue
        if off_wide[line] == 0 and not changed[line]:
            # a narrower input: the recorded result intersected (a weak visit)
            narrowed = False
            for j in range(d0, d1):
                cell = base_cell[j]
                was_off = flat[cell] != shadow[cell]
                was_wide = (flat[cell] & ~shadow[cell]) != 0
                shadow[cell] = base_mask[j]
                now = flat[cell] & base_mask[j]
                if now == 0:
                    return _replay_end(stats, solves, line, n_visits, recording, np.int64(structs.CONTRADICTION))
                if now != flat[cell]:
                    flat[cell] = now
                    narrowed = True
                    stale[height + cell % width if is_row else cell // width] = True
                    if recording:
                        if n_set == capacity:
                            recording = False
                        else:
                            out_cell[n_set] = cell
                            out_mask[n_set] = now
                            n_set += 1
                _recount_off_shadow(cell, was_off, was_wide, flat, shadow, off_shadow, off_wide, height, width)
            # Back on the record after a strong visit, the line holds a line
            # solve's result, so it is at its fixpoint; else, if narrowed,
            # it is not known to be.
            back = not weak and off_shadow[line] == 0
            if back:
                stale[line] = False
            elif narrowed:
                stale[line] = True
            if back or narrowed:
                if recording and n_visits == out_line.shape[0]:
                    recording = False
                if recording:
                    out_line[n_visits] = line if back else ~line
                    n_visits += 1
                    out_start[n_visits] = n_set
            continue
        # The shadow moves on; the line is solved for real if any of its
        # cells changed since its last visit (else it is at its fixpoint).
        for j in range(d0, d1):
            cell = base_cell[j]
            was_off = flat[cell] != shadow[cell]
            was_wide = (flat[cell] & ~shadow[cell]) != 0
            shadow[cell] = base_mask[j]
            _recount_off_shadow(cell, was_off, was_wide, flat, shadow, off_shadow, off_wide, height, width)
        if not stale[line]:
            continue
        status, n_visits, n_set, recording, unused = _replay_visit(
            line, state, clues, work, record, n_visits, n_set, recording, fifo, np.int64(-1), np.int64(0)
        )
        solves += 1
        if status == structs.CONTRADICTION:
            return _replay_end(stats, solves, line, n_visits, recording, np.int64(structs.CONTRADICTION))
    # Then to a fixpoint: every line not known to be at its fixpoint, each
    # visit queueing the crossing lines it changes (_replay_visit).
    head = np.int64(0)
    size = np.int64(0)
    for line in range(n_lines):
        if stale[line]:
            size = _push(line, np.int64(0), queue, queued, generation, head, size)
    while size > 0:
        line = queue[head]
        head = (head + 1) % n_lines
        size -= 1
        queued[line] = False
        status, n_visits, n_set, recording, size = _replay_visit(
            line, state, clues, work, record, n_visits, n_set, recording, fifo, head, size
        )
        solves += 1
        if status == structs.CONTRADICTION:
            return _replay_end(stats, solves, line, n_visits, recording, np.int64(structs.CONTRADICTION))
    return _replay_end(stats, solves, np.int64(-1), n_visits, recording, _status(flat))


@njit(**LEAF)
def _replay_visit(line, state, clues, work, record, n_visits, n_set, recording, fifo, head, size):
    """Solve one line for real during :func:`_replay`: narrow its cells,
    keep the per-line counts of cells off the shadow, mark crossing lines
    stale and record the visit.  With ``head >= 0`` (the first-in,
    first-out phase) a crossing line it changes joins the queue ``fifo``
    (``queue``, ``queued``, ``generation``; ``head`` and ``size``:
    :func:`_push`).
    Returns the status (SOLVED for "went fine"), the record's new lengths,
    whether it still records, and the queue's new size."""
    flat, shadow, off_shadow, off_wide, stale, height, width = state
    buf, res, scratch, cache, stats = work
    out_line, out_start, out_cell, out_mask = record
    is_row = line < height
    n = width if is_row else height
    for i in range(n):
        buf[i] = flat[line * width + i] if is_row else flat[i * width + line - height]
    g0, g1 = clues.starts[line], clues.ends[line]
    ok, hit, same = _cached_line(buf, n, clues.lens, clues.cols, g0, g1, clues.hashes[line], res, scratch, cache)
    if hit:
        stats[structs.ST_HITS] += 1
    else:
        stats[structs.ST_MISSES] += 1
    stale[line] = False
    if not ok:
        return structs.CONTRADICTION, n_visits, n_set, recording, size
    queue, queued, generation = fifo
    for i in range(n):
        if same or res[i] == buf[i]:
            continue
        cell = line * width + i if is_row else i * width + line - height
        was_off = flat[cell] != shadow[cell]
        was_wide = (flat[cell] & ~shadow[cell]) != 0
        flat[cell] = res[i]
        _recount_off_shadow(cell, was_off, was_wide, flat, shadow, off_shadow, off_wide, height, width)
        other = height + i if is_row else i
        stale[other] = True
        if head >= 0:
            size = _push(other, np.int64(0), queue, queued, generation, head, size)
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
    return structs.SOLVED, n_visits, n_set, recording, size


@njit(**LEAF)
def _recount_off_shadow(cell, was_off, was_wide, flat, shadow, off_shadow, off_wide, height, width):
    """After ``flat[cell]`` or ``shadow[cell]`` changed: keep the per-line
    counts of cells off the shadow and wider than it (``was_off``,
    ``was_wide``: how the cell stood before)."""
    row, col = cell // width, height + cell % width
    off = flat[cell] != shadow[cell]
    if was_off != off:
        step = 1 if off else -1
        off_shadow[row] += step
        off_shadow[col] += step
    wide = (flat[cell] & ~shadow[cell]) != 0
    if was_wide != wide:
        step = 1 if wide else -1
        off_wide[row] += step
        off_wide[col] += step


@njit(**LEAF)
def _replay_end(stats, solves, bad_line, n_visits, recording, status):
    stats[structs.ST_LINE_SOLVES] = solves
    stats[structs.ST_SWEEPS] = 0
    stats[structs.ST_BAD_LINE] = bad_line
    stats[structs.ST_TRAIL] = n_visits if recording else -1
    return status


# ------------------------------------------------------------ clues of a grid


@njit(**JIT)
def _grid_clues(grid):
    """Clues of an ``(H, W)`` grid of palette indices, as flat arrays.

    The compiled twin of :meth:`rofl.puzzle.Puzzle.from_grid` without the
    validation, for the refinement loop that derives clues of thousands of
    candidate grids (several times faster than the vectorised numpy
    derivation on the grids refinement sees); built on :func:`_line_clue`,
    which the kernels below also use to re-derive one line of a changed
    grid.  Returns ``lens``, ``cols`` and ``offs`` (int64).
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


# ---------------------------------------------------- estimates and counts


@njit(**LEAF)
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


@njit(**LEAF)
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


@njit(**LEAF)
def _rederive_line(grid, line, lens, cols, at, starts, ends, line_hash):
    """Write the clue of ``grid``'s line ``line`` into ``lens``/``cols`` from
    index ``at`` on and point ``starts``, ``ends`` and ``line_hash`` at it
    (the other lines keep theirs); returns its number of groups."""
    count = _line_clue(grid, line, lens[at:], cols[at:])
    starts[line] = at
    ends[line] = at + count
    line_hash[line] = _clue_hash(lens, cols, at, at + count)
    return count


@njit(**LEAF)
def _line_log_count(cells, n, lens, cols, g0, g1, cnt):
    """Natural log of the number of arrangements of a clue that fit ``cells``.

    The counting twin of the forward pass of the solver's ``_solve_line`` (same
    states, sums instead of flags), over the band of positions each group
    can take: state ``(j, d)`` -- ``j`` groups placed, the next cell at
    ``d`` past the leftmost place for it -- with ``d`` up to the line's
    slack.  ``cnt`` is a ``(>= k + 1, >= n + 1)`` float64 work array.
    Returns ``-inf`` when nothing fits.

    Row ``j`` is visited only from its first nonzero entry ``lo`` to the
    last one reached ``top`` (entries beyond ``top`` are never read, so a
    row is set as it is reached instead of cleared first): on a line that
    is partly known, the band a group can still take.  Whether group ``j``
    fits at a start comes from a window of its length slid along the line
    (the cells in it that cannot take its colour, one added and one dropped
    a step), so a line costs ``O(n + k * band)`` rather than
    ``O(k * slack * length)``; the sums are the same, in the same order.
    """
    k = g1 - g0
    need = 0
    for j in range(k):
        need += lens[g0 + j] + (1 if j + 1 < k and cols[g0 + j + 1] == cols[g0 + j] else 0)
    slack = n - need
    if slack < 0:
        return -np.inf
    cnt[0, 0] = 1.0
    lo = 0  # row j's first nonzero entry
    top = 0  # row j's last entry set
    start = 0  # leftmost cell after j groups
    for j in range(k + 1):
        length = lens[g0 + j] if j < k else 0
        bit = (np.int64(1) << np.int64(cols[g0 + j])) if j < k else np.int64(0)
        gap = 1 if (j + 1 < k and cols[g0 + j + 1] == cols[g0 + j]) else 0
        blocked = 0  # cells of the window at start + d that cannot take the colour
        if j < k:
            for t in range(start + lo, start + lo + length):
                if not (cells[t] & bit):
                    blocked += 1
        next_lo = -1
        d = lo
        while d <= top:
            i = start + d
            v = cnt[j, d]
            if d < slack and (cells[i] & 1) and v != 0.0:  # a background cell
                if d < top:
                    cnt[j, d + 1] += v
                else:
                    cnt[j, d + 1] = v
                    top = d + 1
            if j < k:  # group j from cell i on
                fits = v != 0.0 and blocked == 0 and (gap == 0 or (cells[i + length] & 1) != 0)
                cnt[j + 1, d] = v if fits else 0.0
                if fits and next_lo < 0:
                    next_lo = d
                if d < slack:  # slide the window one cell on
                    if not (cells[i] & bit):
                        blocked -= 1
                    if not (cells[i + length] & bit):
                        blocked += 1
            d += 1
        if j == k:
            return np.log(cnt[k, slack]) if top == slack and cnt[k, slack] > 0.0 else -np.inf
        if next_lo < 0:
            return -np.inf
        lo = next_lo
        start += length + gap
    return -np.inf  # not reached: row k returns


@njit(**LEAF)
def _memo_log_count(cells, n, lens, cols, g0, g1, clue_h, cnt, memo, use_memo):
    """:func:`_line_log_count` through a direct-mapped memo (``CountMemo``)
    keyed by the clue's hash and the line's masks (compared in full, so a
    hash collision costs a recount, never a wrong count)."""
    memo_tag, memo_io, memo_val = memo
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


@njit(**LEAF)
def _quiet_line(full, line, n, lens, cols, g0, g1):
    """Whether solving line ``line`` with the clue ``lens[g0:g1]`` provably
    changes none of its cells, without a line solve: true when every cell
    of the line allows exactly colours 0 and 1 (``full[line]``), the clue
    has groups of colour 1 only, and its slack (cells left once the groups
    are packed) is at least its longest group.  On such a line every cell
    can be filled (the slack is at least 1, so the groups' ranges touch) and
    every cell can be blank (no group covers a cell in every arrangement:
    the slack exceeds each group's overlap), so line logic, which keeps
    what every arrangement agrees on, keeps every mask."""
    if not full[line] or g1 == g0:
        return False
    need = g1 - g0 - 1
    longest = 0
    for j in range(g0, g1):
        if cols[j] != 1:
            return False
        need += lens[j]
        longest = max(longest, lens[j])
    return n - need >= longest


@njit(**LEAF)
def _quiet_log_count(cells, n, lens, cols, g0, g1, cnt, table):
    """:func:`_line_log_count` for a line and clue that pass
    :func:`_quiet_line` (so ``cells`` all allow colours 0 and 1, and the
    groups are of colour 1): every test the count makes passes, so it
    depends only on the number of groups and the slack, and
    ``table[groups, slack]`` keeps it (NaN: not yet counted)."""
    k = g1 - g0
    need = k - 1
    for j in range(g0, g1):
        need += lens[j]
    slack = n - need
    value = table[k, slack]
    if np.isnan(value):
        value = _line_log_count(cells, n, lens, cols, g0, g1, cnt)
        table[k, slack] = value
    return value


@njit(**JIT)
def _with_room(a, extra):
    """A copy of the int64 array ``a`` followed by ``extra`` unset slots.

    A loop, not ``b[:n] = a``: numba compiles slice assignment with an error
    message built by its string support, seconds of compile for nothing.
    """
    b = np.empty(a.shape[0] + extra, dtype=np.int64)
    for i in range(a.shape[0]):
        b[i] = a[i]
    return b


@njit(**JIT)
def _resume_certificate(
    grid, near_grid,
    lens, cols, starts, ends, hashes,
    original, diff, colours, open_cells, open_masks, limit, settle,
    run, slot, gap, fwd, bwd, color_slot,
    tag, io, use,
    stats, masks,
):  # fmt: skip
    """Propagate ``grid``'s clues from a stalled fixpoint of another grid.

    The other grid (the certificate's) is ``original`` (flat) with the
    flat cells ``diff`` set to ``colours``; its fixpoint has every cell
    determined to that grid's colour except ``open_cells``, whose masks are
    ``open_masks``.  Where ``grid`` differs from it, the cell also gets
    ``grid``'s colour, and the rows and columns of those cells are queued.
    The clues are ``near_grid``'s (``lens``...), with every row and column
    in which ``grid`` differs from ``near_grid`` re-derived from ``grid``.

    With ``settle``, a differing cell in no row or column with an open
    cell takes ``grid``'s colour alone and queues nothing: a narrower start
    that still contains ``grid`` (so its fixpoint is still one of
    ``grid``'s puzzle), and every line with no other kind of differing
    cell is then at a fixpoint already -- all its cells determined to
    ``grid``'s line, which fits that line's clue.  Only the other
    differing cells count towards ``limit``.

    Writes the fixpoint into ``masks`` ((H, W)) and returns its status, or
    -1 without propagating when more than ``limit`` cells differ from the
    certificate's grid, or when a re-derived line has more groups than the
    work buffers hold.
    """
    clues = Clues(lens, cols, starts, ends, hashes)
    scratch = LineScratch(run, slot, gap, fwd, bwd, color_slot)
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
    has_open = np.zeros(n_lines, dtype=np.bool_)
    if settle:
        for j in range(open_cells.shape[0]):
            has_open[open_cells[j] // width] = True
            has_open[height + open_cells[j] % width] = True
    queued = np.zeros(n_lines, dtype=np.bool_)
    moved = 0
    for i in range(n_cells):
        if flat_grid[i] != before[i]:
            if settle and not has_open[i // width] and not has_open[height + i % width]:
                flat_masks[i] = np.int64(1) << np.int64(flat_grid[i])
                continue
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
    g_total = clues.lens.shape[0]
    new_lens = _with_room(clues.lens, n_relined * nmax)
    new_cols = _with_room(clues.cols, n_relined * nmax)
    new_starts = clues.starts.copy()
    new_ends = clues.ends.copy()
    line_hash = clues.hashes.copy()
    room = scratch.fwd.shape[0] - 1
    g = g_total
    for line in range(n_lines):
        if relined[line]:
            count = _rederive_line(grid, line, new_lens, new_cols, g, new_starts, new_ends, line_hash)
            if count > room:
                return -1
            g += count
    queue = np.empty(n_lines, dtype=np.int64)
    n_queue = 0
    for line in range(n_lines):
        if queued[line]:
            queue[n_queue] = line
            n_queue += 1
    # a new name: numba's ahead-of-time compiler cannot give ``relined`` a second type
    near_clues = Clues(new_lens, new_cols, new_starts, new_ends, line_hash)
    return _fixpoint(masks, near_clues, queue[:n_queue], scratch, LineCache(tag, io, use), stats)


@njit(**JIT)
def _estimate_moves(
    grid, masks,
    lens, cols, starts, ends, hashes,
    moves,
    run, slot, gap, fwd, bwd, color_slot,
    tag, io, use,
    memo_tag, memo_io, memo_val,
    out_newly, out_status, out_entropy, totals, counts,
):  # fmt: skip
    """Estimate, for every move ``(row, col, colour)``, how many cells line
    logic would newly determine if that cell of ``grid`` took that colour.

    ``out_newly``, ``out_status`` and ``out_entropy`` receive per move the
    cells newly determined, the status, and how the changed row and column's arrangement
    counts move (difference of natural logs, after propagation): the
    progress a move makes when it determines no cell yet, e.g. on a
    textured picture where line logic starts from almost nothing.

    Each move resumes from ``masks`` (a stalled fixpoint of ``grid``'s
    clues) and propagates from the changed row and column only, then undoes
    itself through the trail; ``grid`` and ``masks`` come back unchanged.
    The estimate is optimistic: ``masks`` may hold deductions that only the
    old clues justified.  ``totals`` accumulates line solves, cache hits and
    misses.  ``scratch`` must have room for two more groups than the
    longest clue (a change can split a group in three); ``memo`` is the
    memo of arrangement counts, used when the line cache is.
    """
    offs_start, offs_end, clue_hash = starts, ends, hashes
    scratch = LineScratch(run, slot, gap, fwd, bwd, color_slot)
    cache = LineCache(tag, io, use)
    memo = CountMemo(memo_tag, memo_io, memo_val)
    use_cache = use
    height, width = grid.shape
    n_lines = height + width
    n_cells = height * width
    nmax = max(height, width)
    # The clues of every move: the grid's, with the changed row's and
    # column's new clues written after them and pointed at (move_starts, move_ends).
    g_total = lens.shape[0]
    new_lens = _with_room(lens, 2 * nmax)
    new_cols = _with_room(cols, 2 * nmax)
    move_starts = offs_start.copy()
    move_ends = offs_end.copy()
    trail = Trail(
        np.empty(n_cells, dtype=np.int64), np.empty(n_cells, dtype=np.int64), np.zeros(n_cells, dtype=np.int64)
    )
    queue = np.empty(2, dtype=np.int64)
    stats = np.zeros(structs.N_STATS, dtype=np.int64)
    kmax = 0
    for line in range(n_lines):
        kmax = max(kmax, offs_end[line] - offs_start[line])
    cnt = np.empty((kmax + 3, nmax + 2), dtype=np.float64)
    line_buf = np.empty(nmax, dtype=np.int64)
    base = np.full(n_lines, np.nan)  # log count of each line now, once needed
    undetermined = np.int64(0)  # not a literal: see _resume_certificate
    for r in range(height):
        for c in range(width):
            if masks[r, c] & (masks[r, c] - 1):
                undetermined += 1
    line_hash = clue_hash.copy()
    moved = Clues(new_lens, new_cols, move_starts, move_ends, line_hash)
    work = _propagation_scratch(grid.shape)
    # Lines whose cells all allow colours 0 and 1 (and no other): there a
    # move's new clue often provably changes nothing (_quiet_line), which
    # spares its line solve -- on a large textured picture, all of the
    # first rounds' estimates (docs/design.md, "At scale").
    full = np.zeros(n_lines, dtype=np.bool_)
    for line in range(n_lines):
        n = _line_cells(masks, line, line_buf)
        full[line] = True
        for i in range(n):
            if line_buf[i] != 3:
                full[line] = False
                break
    quiet_counts = np.full((kmax + 3, nmax + 1), np.nan)
    queue_col = np.empty(1, dtype=np.int64)
    for m in range(moves.shape[0]):
        r = moves[m, 0]
        c = moves[m, 1]
        for line in (r, height + c):
            if counts and np.isnan(base[line]):
                n = _line_cells(masks, line, line_buf)
                base[line] = _memo_log_count(
                    line_buf, n, lens, cols, offs_start[line], offs_end[line], clue_hash[line], cnt, memo, use_cache
                )
        old = grid[r, c]
        grid[r, c] = moves[m, 2]
        row_at, col_at = g_total, g_total + nmax
        nr = _rederive_line(grid, r, new_lens, new_cols, row_at, move_starts, move_ends, line_hash)
        nc = _rederive_line(grid, height + c, new_lens, new_cols, col_at, move_starts, move_ends, line_hash)
        row_hash = line_hash[r]
        col_hash = line_hash[height + c]
        quiet_row = _quiet_line(full, r, width, new_lens, new_cols, row_at, row_at + nr)
        quiet = quiet_row and _quiet_line(full, height + c, height, new_lens, new_cols, col_at, col_at + nc)
        if quiet:
            # neither line changes: the fixpoint is ``masks`` (two line
            # solves, counted as made, for budgets that count line solves)
            status = structs.STALLED
            stats[structs.ST_LINE_SOLVES] = 2
            stats[structs.ST_HITS] = 0
            stats[structs.ST_MISSES] = 0
            stats[structs.ST_NEWLY] = 0
            stats[structs.ST_TRAIL] = 0
        elif quiet_row:
            # the row would be solved first and change nothing: the same
            # propagation from the column alone
            queue_col[0] = height + c
            status = _propagate_trail(masks, moved, queue_col, scratch, cache, stats, trail, m + 1, undetermined, work)
            stats[structs.ST_LINE_SOLVES] += 1
        else:
            queue[0] = r
            queue[1] = height + c
            status = _propagate_trail(masks, moved, queue, scratch, cache, stats, trail, m + 1, undetermined, work)
        line_hash[r] = clue_hash[r]
        line_hash[height + c] = clue_hash[height + c]
        move_starts[r] = offs_start[r]
        move_ends[r] = offs_end[r]
        move_starts[height + c] = offs_start[height + c]
        move_ends[height + c] = offs_end[height + c]
        out_status[m] = status
        out_newly[m] = stats[structs.ST_NEWLY]
        if counts and status != structs.CONTRADICTION:
            n = _line_cells(masks, r, line_buf)
            if quiet:
                after = _quiet_log_count(line_buf, n, new_lens, new_cols, row_at, row_at + nr, cnt, quiet_counts)
            else:
                after = _memo_log_count(
                    line_buf, n, new_lens, new_cols, row_at, row_at + nr, row_hash, cnt, memo, use_cache
                )
            n = _line_cells(masks, height + c, line_buf)
            if quiet:
                after += _quiet_log_count(line_buf, n, new_lens, new_cols, col_at, col_at + nc, cnt, quiet_counts)
            else:
                after += _memo_log_count(
                    line_buf, n, new_lens, new_cols, col_at, col_at + nc, col_hash, cnt, memo, use_cache
                )
            out_entropy[m] = after - base[r] - base[height + c]
        else:
            out_entropy[m] = 0.0
        totals[0] += stats[structs.ST_LINE_SOLVES]
        totals[1] += stats[structs.ST_HITS]
        totals[2] += stats[structs.ST_MISSES]
        for t in range(stats[structs.ST_TRAIL]):
            cell = trail.cell[t]
            masks[cell // width, cell % width] = trail.old[t]
        grid[r, c] = old
