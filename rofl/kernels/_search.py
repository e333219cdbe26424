"""Compiled complete search (numba): probing and backtracking on top of the
line-logic kernels.  Private: call it through :mod:`rofl.solver.search`,
which checks inputs, runs line logic first and wraps the result.

The state is the same as line logic's: an ``(H, W)`` int64 array of colour
bitmasks.  Every step only ever removes colours, and only ones that no
solution below the current node needs, so the set of solutions under a node
is exactly the set of solutions of its masks:

* **probing** sets one undetermined cell to each colour it may still take,
  propagates from that cell's row and column, and keeps in the node what
  every surviving branch agrees on (the union of their masks); a colour
  whose branch contradicts is dropped.  A probe that ends solved is a
  solution and is recorded.  A cell whose probes taught nothing keeps a
  *record* (the lines they solved, when, in which frame): while none of
  those lines changes and the search stays below that frame, probing the
  cell again would teach nothing either, so it is skipped (``_still_quiet``).
  The cells whose probes contradicted most often and most lately are
  probed first.
* **independent parts**: when the undetermined cells fall into groups that
  share no row or column, each group is a puzzle of its own; they are
  solved one after the other and the count is the product.
* **branching** splits a node that probing cannot narrow into ``cell ==
  colour`` and ``cell != colour``; the cell is the one whose weakest probe
  determined the most cells (two colours: LalaFrogKK's score, the weaker
  branch plus 1.85 log(1 + the imbalance); more: ties go to the most over
  all its colours), that score weighted by the cell's *activity* (how
  often and how lately its probes contradicted, beside the most active
  cell's: up to twice the score), the colour the strategy's (white or
  black first, in turn from one attempt to the next, or random).
* **learned nogoods**: a frame proved empty leaves the decisions on its
  path as a nogood, in a store the wrapper keeps from one attempt to the
  next (``learned``); a node where all its literals hold is empty, one
  where all but one hold makes that one false, and a probe that makes one
  hold contradicts.  Nogoods follow from the clues alone, so they change
  how soon a search ends, never what it proves.
* **black-and-white lines on words**: a puzzle of at most 63 cells a side
  whose groups are all black propagates each line on two words, the cells
  that may be white and black (``_spread_bw``), through a cache of its own;
  any other puzzle gathers a line's masks (``_spread``).  The same tree
  either way, in about 60% of the time.

The hot loops (a probe's propagation, its trail, its undo) index arrays
with ``np.uint64`` values: numba tests every signed index for a negative
value (and counts it from the end), a test and a select before each load;
an unsigned one it takes as it is.  The same trees, 7% less time through
the extension (docs/benchmarks.md, "Unsigned indices in the search").
Arithmetic stays in int64 (numba makes int64 with uint64 a float), the
index is converted where it is used.

Frames live on explicit stacks (numba's on-disk cache cannot hold a
recursive function).  The search stops at ``max_solutions`` distinct
solutions, when the tree is exhausted, when the node budget runs out, or
when another thread sets ``stats[ST_STOP]`` (the wrapper does at its
deadline or on Ctrl-C, through :func:`rofl.solver._stop.run_stoppable`:
the kernel reads no clock, so it needs no object mode, releases the GIL
and compiles ahead of time like line logic); the wrapper restarts it in
another colour order with a larger node budget (see
:mod:`rofl.solver.search`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from rofl.kernels._bits import MAX_CELLS, ONE, _line_bw, _lowest
from rofl.kernels._config import JIT, SEARCH_INNER, SEARCH_LEAF
from rofl.kernels._line import (
    CONTRADICTION,
    SOLVED,
    STALLED,
    Clues,
    LineCache,
    LineScratch,
    _cached_line,
)
from rofl.kernels.search_stats import (  # noqa: F401 -- the kernel's callers read them here too
    N_STATS,
    NOGOOD_HEAD,
    ST_LEARNED,
    ST_LESSONS,
    ST_LINE_SOLVES,
    ST_MAX_DEPTH,
    ST_MET,
    ST_NODES,
    ST_NOGOOD_HITS,
    ST_PROBES,
    ST_SPARED,
    ST_SPLITS,
    ST_STOP,
)

# _probe_region results beyond SOLVED / STALLED / CONTRADICTION
_ENOUGH = 3  # ``want`` region solutions found by probes
_ABORT = 4  # out of budget

#: What a contradicting probe adds to its cell's activity grows by this
#: factor at every node, so that recent contradictions weigh more (as a SAT
#: solver's variable activities decay).
_ACTIVITY_GROWTH = 1.05

#: Entries of the probe records' line lists, all cells together (64 MiB of
#: int32): a cell's row holds every line up to 200 x 200; beyond, the rows
#: narrow so that memory stays bounded (a 2048 x 2048 puzzle asked for 64 GiB).
_RECORD_ENTRIES = 1 << 24


@njit(**SEARCH_INNER)
def _record_width(cells, lines):
    """How many lines one cell's probe record can list: all ``lines`` while
    the records fit in :data:`_RECORD_ENTRIES`, else fewer (at least 1)."""
    return max(1, min(lines, _RECORD_ENTRIES // max(cells, 1)))


@njit(**SEARCH_INNER)
def _xorshift(x):
    x ^= x << 13
    x ^= (x >> 7) & 0x1FFFFFFFFFFFFFF
    x ^= x << 17
    return x


@njit(**SEARCH_INNER)
def _keep(masks, out, nout):
    """Append ``masks`` to ``out[:nout]`` unless already there; the new count."""
    for s in range(nout):
        if _equal(out[s], masks):
            return nout
    if nout < out.shape[0]:
        _copy(out[nout], masks)
        nout += 1
    return nout


# Integer arguments that are constants at their call (``f(x, 1)``) are
# passed as ``np.int64(...)``: numba compiles a kernel again for every
# literal value it is called with (``benchmarks/compile_time.py`` lists
# them); the search's compile went from 43 to 25 s of CPU.

# Grids are compared and copied by these loops rather than by
# ``np.array_equal`` and slice assignment (``a[:, :] = b``): numba compiles
# slice assignment with an error message built from f-strings, str() and
# join, which brought its whole string support into the search's compile
# (about 6 s of CPU of the 40).


@njit(**SEARCH_INNER)
def _equal(a, b):
    """Whether the (H, W) grids ``a`` and ``b`` (C-contiguous) are equal."""
    fa = a.ravel()
    fb = b.ravel()
    for i in range(fa.shape[0]):
        if fa[i] != fb[i]:
            return False
    return True


@njit(**SEARCH_INNER)
def _copy(dst, src):
    """``dst[:, :] = src`` for (H, W) grids of the same shape."""
    height, width = dst.shape
    for i in range(height):
        for j in range(width):
            dst[i, j] = src[i, j]


@njit(**SEARCH_INNER)
def _note_full(masks, anysol, stats):
    # whole-grid solutions met on the way, for the caller when the budget
    # runs out before the search could prove anything
    stats[ST_MET] = _keep(masks, anysol, stats[ST_MET])


@njit(**SEARCH_INNER)
def _stopped(stats):
    # set by the waiting thread at the deadline or on Ctrl-C (rofl.solver._stop)
    return stats[ST_STOP] != 0


@njit(**SEARCH_LEAF)
def _spread(flat, width, ntr, ctx, tw, stats):
    """Line logic in place from the rows and columns of the cells
    ``trail[:ntr]`` (already changed, their old masks in ``old``, marked
    in ``seen``), extending the trail with every further change.

    A probe's *trial* (:func:`_probe_region`) sets one cell and calls this
    (or :func:`_spread_bw` straight away): the same propagation as
    ``_fixpoint`` (the same line kernel and line cache), but its cost
    follows the cells that change instead of the grid size: no copy of the
    grid, and the caller reads the changes from the trail and takes them
    back with ``_undo`` (or keeps them: ``_settle``).

    Every line it solves is listed once in ``lsolved[:lcount[0]]``
    (the caller empties the list and sets the stamp ``lcount[1]`` that
    tells lines already listed).

    Returns
    -------
    status : CONTRADICTION or STALLED (whether the grid is now solved is for
        the caller to tell from the trail)
    ntr : the trail's length; ``trail[:ntr]`` are the cells, ``old[:ntr]``
        their masks before the changes
    """
    clues, scratch, cache, words = ctx
    if words[1][0]:
        return _spread_bw(flat, width, ntr, clues, words, tw, stats)
    trail, old, seen, queue, queued, buf, res = tw[:7]
    height = flat.shape[0] // width
    n_lines = height + width
    head, size = 0, _queue_trail(trail, ntr, height, width, queue, queued)
    status = STALLED
    solves = 0
    while size > 0:
        line, head, size = _next_line(queue, queued, head, size, n_lines, tw)
        n, base, step = _line_cells(line, height, width)
        for i in range(n):
            buf[i] = flat[np.uint64(base + i * step)]
        solves += 1
        g0, g1 = clues.starts[line], clues.ends[line]
        ok, _, same = _cached_line(buf, n, clues.lens, clues.cols, g0, g1, clues.hashes[line], res, scratch, cache)
        if not ok:
            status = CONTRADICTION
            break
        if same:
            continue
        for i in range(n):
            if res[i] != buf[i]:
                q = np.uint64(base + i * step)
                ntr = _on_trail(q, flat, trail, old, seen, ntr)
                flat[q] = res[i]
                size = _enqueue(height + i if line < height else i, queue, queued, head, size, n_lines)
    _empty_queue(queue, queued, head, size, n_lines)
    stats[ST_LINE_SOLVES] += solves
    return status, ntr


@njit(**SEARCH_LEAF)
def _spread_bw(flat, width, ntr, clues, words, tw, stats):
    """:func:`_spread` for a black-and-white puzzle of at most 63 cells a
    side: each line is read into two words (the cells that may be white,
    black), solved on them (:func:`rofl.kernels._bits._line_bw`) through a
    cache of the line's own keyed by its two words, and only the cells whose
    words changed are visited.  The general path hashes and compares the
    line's masks cell by cell and converts them to words and back inside
    the line solve; on the tournaments' hardest puzzles this one halves the
    search's time (docs/benchmarks.md, "rofl beside nonosolve").

    The line's words are not gathered from its cells: ``words[3]`` keeps
    every line's two words as the grid's cells have them, and this function
    keeps them so (the caller's changes of ``trail[:ntr]`` are written
    into them first; :func:`_undo` and :func:`_load_words` do the rest).
    Gathering a line's 25 cells was 40% of this function's time on the
    tournaments (docs/benchmarks.md, "Cheaper search nodes")."""
    table, _, work, lwb, rc = words
    trail, old, seen, queue, queued = tw[:5]
    height = flat.shape[0] // width
    n_lines = height + width
    for k in range(ntr):
        q = np.uint64(trail[k])
        _put_words(q, flat[q], height, lwb, rc)
    head, size = 0, _queue_trail(trail, ntr, height, width, queue, queued)
    status = STALLED
    solves = 0
    slots = np.uint64(table.shape[1] - 1)
    while size > 0:
        line, head, size = _next_line(queue, queued, head, size, n_lines, tw)
        n, base, step = _line_cells(line, height, width)
        ul = np.uint64(line)
        w = lwb[ul, 0]
        b = lwb[ul, 1]
        h = (w * _MIX_W) ^ (b * _MIX_B)
        at = (h ^ (h >> np.uint64(29))) & slots
        if table[ul, at, 0] == w and table[ul, at, 1] == b:
            nw, nb = table[ul, at, 2], table[ul, at, 3]
        else:
            solves += 1
            ok, nw, nb = _line_bw(w, b, n, clues.lens, clues.starts[line], clues.ends[line], work)
            if not ok:  # stored as no colour anywhere
                nw = nb = np.uint64(0)
            table[ul, at, 0], table[ul, at, 1] = w, b
            table[ul, at, 2], table[ul, at, 3] = nw, nb
        if (nw | nb) == 0:
            status = CONTRADICTION
            break
        changed = (w ^ nw) | (b ^ nb)
        if changed:
            lwb[ul, 0] = nw
            lwb[ul, 1] = nb
        # the crossing lines' words lose the colours their cell lost
        pos = np.uint64(line if line < height else line - height)
        while changed:
            i = np.int64(_lowest(changed))
            changed &= changed - ONE
            q = np.uint64(base + i * step)
            ntr = _on_trail(q, flat, trail, old, seen, ntr)
            bit = np.uint64(i)
            flat[q] = np.int64((nw >> bit) & ONE) | (np.int64((nb >> bit) & ONE) << 1)
            cross = height + i if line < height else i
            uc = np.uint64(cross)
            lwb[uc, 0] &= ~((((w ^ nw) >> bit) & ONE) << pos)
            lwb[uc, 1] &= ~((((b ^ nb) >> bit) & ONE) << pos)
            size = _enqueue(cross, queue, queued, head, size, n_lines)
    _empty_queue(queue, queued, head, size, n_lines)
    stats[ST_LINE_SOLVES] += solves
    return status, ntr


# The line queue of _spread and _spread_bw: a ring of the rows (0..H-1) and
# columns (H..H+W-1) to solve, each at most once (``queued``).


@njit(**SEARCH_LEAF, inline="always")
def _queue_trail(trail, ntr, height, width, queue, queued):
    """Queue the row and column of every cell ``trail[:ntr]``; the queue's size."""
    size = 0
    for k in range(ntr):
        q = trail[np.uint64(k)]
        r = q // width
        for line in (r, height + q - r * width):
            ul = np.uint64(line)
            if not queued[ul]:
                queued[ul] = True
                queue[np.uint64(size)] = line
                size += 1
    return size


@njit(**SEARCH_LEAF, inline="always")
def _next_line(queue, queued, head, size, n_lines, tw):
    """Take the next line off the queue, listing it once in the pass's
    solved lines (``tw``'s ``lsolved`` / ``lcount``, stamped by ``lstamp``).
    Returns ``(line, head, size)``."""
    lstamp, lsolved, lcount = tw[7], tw[8], tw[9]
    line = queue[np.uint64(head)]
    head += 1
    if head == n_lines:
        head = 0
    ul = np.uint64(line)
    queued[ul] = False
    if lstamp[ul] != lcount[1]:
        lstamp[ul] = lcount[1]
        lsolved[np.uint64(lcount[0])] = line
        lcount[0] += 1
    return line, head, size - 1


@njit(**SEARCH_LEAF, inline="always")
def _enqueue(line, queue, queued, head, size, n_lines):
    """Queue ``line`` unless it waits already; the queue's size."""
    ul = np.uint64(line)
    if not queued[ul]:
        queued[ul] = True
        t = head + size
        if t >= n_lines:
            t -= n_lines
        queue[np.uint64(t)] = line
        size += 1
    return size


@njit(**SEARCH_LEAF, inline="always")
def _empty_queue(queue, queued, head, size, n_lines):
    """Unmark the lines left on the queue (after a contradiction)."""
    while size > 0:
        queued[queue[head]] = False
        head += 1
        if head == n_lines:
            head = 0
        size -= 1


@njit(**SEARCH_LEAF, inline="always")
def _line_cells(line, height, width):
    """Line ``line``'s cells in the flat grid: ``(n, base, step)``, its cells
    ``base + i * step`` for ``i < n``."""
    if line < height:
        return width, line * width, 1
    return height, line - height, width


@njit(**SEARCH_LEAF, inline="always")
def _on_trail(q, flat, trail, old, seen, ntr):
    """Put cell ``q`` on the trail with its mask before this change, unless
    it is there already; the trail's length."""
    if not seen[q]:
        seen[q] = True
        u = np.uint64(ntr)
        trail[u] = q
        old[u] = flat[q]
        ntr += 1
    return ntr


@njit(**SEARCH_LEAF, inline="always")
def _put_words(q, m, height, lwb, rc):
    """Write cell ``q``'s mask ``m`` (1 white, 2 black, 3 either) into its
    row's and column's words (``rc[q]``: its row times 64 plus its column)."""
    r = np.uint64(rc[q] >> 6)
    c = np.uint64(rc[q] & 63)
    cb = ONE << c
    rb = ONE << r
    column = c + np.uint64(height)  # the column's line
    if m & 1:
        lwb[r, 0] |= cb
        lwb[column, 0] |= rb
    else:
        lwb[r, 0] &= ~cb
        lwb[column, 0] &= ~rb
    if m & 2:
        lwb[r, 1] |= cb
        lwb[column, 1] |= rb
    else:
        lwb[r, 1] &= ~cb
        lwb[column, 1] &= ~rb


@njit(**SEARCH_INNER)
def _load_words(flat, width, words):
    """Gather every line's words (``words[3]``) from the grid ``flat``: a
    node's state is a copy the word path has not seen."""
    if not words[1][0]:
        return
    lwb = words[3]
    height = flat.shape[0] // width
    for line in range(height + width):
        n, base, step = _line_cells(line, height, width)
        w = np.uint64(0)
        b = np.uint64(0)
        for i in range(n - 1, -1, -1):
            m = np.uint64(flat[base + i * step])
            w = (w << ONE) | (m & ONE)
            b = (b << ONE) | (m >> ONE)
        lwb[line, 0] = w
        lwb[line, 1] = b


@njit(**SEARCH_LEAF)
def _settle(flat, width, ntr, ctx, tw, stats, memo):
    """Keep the changes of cells ``trail[:ntr]`` (made by the caller, their
    old masks in ``old``, marked in ``seen``): propagate them with
    ``_spread`` and stamp every changed line with a new time in ``memo``,
    which tells ``_probe_region`` whose probe records they invalidate.

    Returns CONTRADICTION or STALLED.
    """
    trail, seen, lcount = tw[0], tw[2], tw[9]
    line_time, clk = memo[0], memo[6]
    height = flat.shape[0] // width
    clk[0] += 1
    now = clk[0]
    lcount[0] = 0
    lcount[1] = now
    st, ntr = _spread(flat, width, ntr, ctx, tw, stats)
    for k in range(ntr):
        q = trail[np.uint64(k)]
        seen[np.uint64(q)] = False
        r = q // width
        line_time[np.uint64(r)] = now
        line_time[np.uint64(height + q - r * width)] = now
    return st


@njit(**SEARCH_LEAF)
def _undo(flat, width, trail, old, seen, ntr, words):
    """Take back the changes of the last trial (and in the word path
    its lines' words: a change only removed colours, so the old ones are
    put back)."""
    if words[1][0]:
        lwb, rc = words[3], words[4]
        height = flat.shape[0] // width
        uh = np.uint64(height)
        for k in range(ntr - 1, -1, -1):
            uk = np.uint64(k)
            q = np.uint64(trail[uk])
            o = np.uint64(old[uk])
            flat[q] = old[uk]
            seen[q] = False
            rb = np.uint64(rc[q] >> 6)
            cb = np.uint64(rc[q] & 63)
            lwb[rb, 0] |= (o & ONE) << cb
            lwb[rb, 1] |= (o >> ONE) << cb
            lwb[uh + cb, 0] |= (o & ONE) << rb
            lwb[uh + cb, 1] |= (o >> ONE) << rb
        return
    for k in range(ntr - 1, -1, -1):
        uk = np.uint64(k)
        q = np.uint64(trail[uk])
        flat[q] = old[uk]
        seen[q] = False


@njit(**SEARCH_LEAF)
def _still_quiet(p, memo, serial, depth):
    """Whether cell ``p``'s last probe record still holds: made in frame
    ``rec_depth[p]`` of the current path (its ``serial`` unchanged, so the
    state then held the current one), and no line its probes changed has
    changed since.  Then probing ``p`` again would teach nothing: each
    colour's probe ends in its old result (a line-logic fixpoint) cut down
    to the cells that changed elsewhere, which no line shares with it.
    """
    line_time, rec_time, rec_serial, rec_depth, rec_lines, rec_len = memo[:6]
    d = rec_depth[p]
    if d < 0 or d > depth or serial[d] != rec_serial[p]:
        return False
    t = rec_time[p]
    for k in range(rec_len[p]):
        if line_time[np.uint64(rec_lines[p, np.uint64(k)])] > t:
            return False
    return True


@njit(**SEARCH_INNER)
def _probe_region(
    cur,
    cells,
    ncell,
    ctx,
    work,
    score,
    first,
    out,
    nfound,
    want,
    anysol,
    stats,
    strategy,
    seed,
    start_cell,
    memo,
    serial,
    depth,
    act,
    learned,
    live,
):
    """Probe the undetermined cells of ``cells[:ncell]`` until no probe narrows ``cur``.

    Cells are visited cyclically, from near ``start_cell`` on, but the
    most *active* first: ``act[cell]`` sums what every contradicting probe of
    the cell added (``act[-1]``, which the caller raises at every node, so
    that recent contradictions weigh more).  On the tournaments' hardest
    puzzles this finds the probe that proves a node empty sooner: 11--13% fewer
    probes there, the same trees (docs/benchmarks.md, "rofl beside
    nonosolve").
    The loop ends once every undetermined
    cell has been probed since the last change, or holds a probe record
    that is still good (``_still_quiet``: ``memo`` and ``serial``, the
    frames' serials, ``depth`` the current frame's), so ``score`` / ``first`` of
    every undetermined cell describe the final ``cur``: ``score`` is the
    fewest cells one of the cell's surviving colours determined, times
    65536, plus the sum over its colours (the weakest branch first, then
    the total), ``first`` the colour to try first when branching on the cell:
    the one whose probe determined the fewest cells (``strategy`` 1), the
    most (0), a random one (2, drawn from ``seed``), the lowest colour (3)
    or the highest (4).  A
    probe that determines the whole region is a solution of it and goes to
    ``out`` (``nfound[0]`` counts them).

    A probe that leaves every literal of one of the learned nogoods
    ``learned[live[1:live[0] + 1]]`` holding contradicts too.

    Returns SOLVED (the region is determined), STALLED, CONTRADICTION,
    _ENOUGH or _ABORT.
    """
    tw, accv, acnt, touched, inreg = work
    trail, old, seen = tw[0], tw[1], tw[2]
    clues, words = ctx[0], ctx[3]
    bw = words[1][0] != 0
    line_time, rec_time, rec_serial, rec_depth, rec_lines, rec_len, clk = memo
    lsolved, lcount = tw[8], tw[9]
    height, width = cur.shape
    n = height * width
    flat = cur.ravel()
    n_und = 0
    for j in range(ncell):
        m = flat[cells[j]]
        inreg[cells[j]] = True
        if m & (m - 1):
            n_und += 1
    n_all = 0  # undetermined cells of the whole grid
    for i in range(n):
        m = flat[i]
        if m & (m - 1):
            n_all += 1
    result = STALLED
    if n_und == 0:
        result = SOLVED
    n_touched = 0
    quiet = 0
    # start near the cell that changed last: its neighbours are the likeliest
    # to teach something, and the pass ends one quiet round after the last
    # lesson; but the cells whose probes contradicted most (and most lately)
    # go first: a node that one probe proves empty ends at that probe
    j = 0
    if start_cell >= 0:
        j = np.searchsorted(cells[:ncell], start_cell - 3 * width)
        if j >= ncell:
            j = 0
    turn = np.concatenate((cells[j:ncell], cells[:j]))
    visit = turn[np.argsort(-act[turn], kind="mergesort")]
    j = 0
    while result == STALLED and quiet < n_und:
        p = visit[j]
        j += 1
        if j == ncell:
            j = 0
        m = flat[p]
        if (m & (m - 1)) == 0:
            continue
        if _still_quiet(p, memo, serial, depth):
            stats[ST_SPARED] += 1
            quiet += 1
            continue
        rec_depth[p] = -1  # until this pass leaves a new record
        clk[0] += 1
        lcount[0] = 0
        lcount[1] = clk[0]
        mm = m
        ok_count = 0
        n_touched = 0
        gmin = 1e9
        gsum = 0.0
        best_key = 0
        best_bit = np.int64(0)
        while mm != 0:
            low = mm & -mm
            mm ^= low
            # the trial: set the cell and propagate, recording the changes on the trail
            trail[0] = p
            old[0] = m
            seen[p] = True
            flat[p] = low
            if bw:  # straight to the word path: each call copies its arrays' descriptors
                st, ntr = _spread_bw(flat, width, np.int64(1), clues, words, tw, stats)
            else:
                st, ntr = _spread(flat, width, np.int64(1), ctx, tw, stats)
            stats[ST_PROBES] += 1
            if st != CONTRADICTION and _violated(flat, learned, live):
                stats[ST_NOGOOD_HITS] += 1
                st = CONTRADICTION
            if st == CONTRADICTION:
                act[p] += act[-1]
                _undo(flat, width, trail, old, seen, ntr, words)
            else:
                gain = 0
                region_gain = 0
                for k in range(ntr):
                    uk = np.uint64(k)
                    q = np.uint64(trail[uk])
                    o = old[uk]
                    v = flat[q]
                    if (o & (o - 1)) != 0 and (v & (v - 1)) == 0:
                        gain += 1
                        if inreg[q]:
                            region_gain += 1
                    # what every surviving colour agrees on: only cells that
                    # changed in all of them can narrow
                    if ok_count == 0:
                        accv[q] = v
                        acnt[q] = 1
                        touched[np.uint64(n_touched)] = q
                        n_touched += 1
                    elif acnt[q] == ok_count:
                        accv[q] |= v
                        acnt[q] += 1
                if gain == n_all:
                    _note_full(cur, anysol, stats)
                if region_gain == n_und:
                    nfound[0] = _keep(cur, out, nfound[0])
                _undo(flat, width, trail, old, seen, ntr, words)
                if nfound[0] >= want:
                    result = _ENOUGH
                    break
                ok_count += 1
                gmin = min(gmin, gain)
                gsum += gain
                # the colour with the smallest key goes first
                key = gain
                if strategy == 2:
                    seed[0] = _xorshift(seed[0])
                    key = seed[0] & 0xFFFF
                elif strategy == 0:
                    key = -gain
                elif strategy == 3:
                    key = low
                elif strategy == 4:
                    key = -low
                if best_bit == 0 or key < best_key:
                    best_key = key
                    best_bit = low
            if _stopped(stats):
                result = _ABORT
                break
        if result != STALLED:
            break
        if ok_count == 0:
            act[p] += act[-1]
            result = CONTRADICTION
            break
        # keep what every surviving colour agrees on
        ntr = 0
        for k in range(n_touched):
            q = np.uint64(touched[np.uint64(k)])
            if acnt[q] == ok_count and accv[q] != flat[q]:
                trail[np.uint64(ntr)] = q
                old[np.uint64(ntr)] = flat[q]
                seen[q] = True
                ntr += 1
                flat[q] &= accv[q]
            acnt[q] = 0
        if ntr > 0:
            stats[ST_LESSONS] += 1
            st = _settle(flat, width, np.int64(ntr), ctx, tw, stats, memo)
            if st == CONTRADICTION:
                result = CONTRADICTION
                break
            n_all = 0
            for i in range(n):
                m = flat[i]
                if m & (m - 1):
                    n_all += 1
            if n_all == 0:
                _note_full(cur, anysol, stats)
            n_und = 0
            for jj in range(ncell):
                m = flat[cells[jj]]
                if m & (m - 1):
                    n_und += 1
            if n_und == 0:
                result = SOLVED
                break
            quiet = 0
        else:
            if ok_count == 2:
                # two colours: LalaFrogKK's score, the weaker branch plus the imbalance
                score[p] = gmin + 1.85 * np.log(1.0 + gsum - 2.0 * gmin)
            else:
                score[p] = gmin * 65536.0 + gsum
            first[p] = best_bit
            # the lines the probes solved are the ones holding cells they
            # changed; a record with more than fit in its row is not kept
            # (the cell is probed again: slower, never wrong)
            if lcount[0] <= rec_lines.shape[1]:
                for k in range(lcount[0]):
                    rec_lines[p, k] = lsolved[k]
                rec_len[p] = lcount[0]
                rec_time[p] = clk[0]
                rec_serial[p] = serial[depth]
                rec_depth[p] = depth
            quiet += 1
    # leave the scratch arrays clean for the next call
    for k in range(n_touched if result != STALLED else 0):
        acnt[touched[k]] = 0
    for jj in range(ncell):
        inreg[cells[jj]] = False
    return result


# The store of learned nogoods (``_search``'s ``learned``): ``learned[0]`` is
# the end of the words in use (0 in a new store: none), then one record a
# nogood, its number of literals ``k`` and ``k`` pairs ``(cell, colours)``: the
# literal holds when the cell may take no colour outside ``colours``.  A
# store shorter than the header learns nothing.
_NG_HEAD = NOGOOD_HEAD


@njit(**SEARCH_INNER)
def _live_nogoods(flat, learned, live):
    """List in ``live`` (``live[0]`` of them, from ``live[1]``) the learned
    nogoods that no literal of which is false in ``flat``: the only ones a
    probe below can make hold (probes only narrow).  Lists none when they
    do not all fit."""
    live[0] = 0
    if learned.shape[0] < _NG_HEAD:
        return
    end = learned[0]
    at = _NG_HEAD
    count = 0
    while at < end:
        k = learned[at]
        ok = True
        for i in range(at + 1, at + 1 + 2 * k, 2):
            if flat[learned[i]] & learned[i + 1] == 0:
                ok = False
                break
        if ok:
            if count + 1 >= live.shape[0]:
                live[0] = 0
                return
            count += 1
            live[count] = at
        at += 1 + 2 * k
    live[0] = count


@njit(**SEARCH_INNER)
def _violated(flat, learned, live):
    """Whether every literal of one of the ``live`` nogoods holds in ``flat``."""
    for j in range(1, live[0] + 1):
        at = live[np.uint64(j)]
        k = learned[np.uint64(at)]
        hold = True
        for i in range(at + 1, at + 1 + 2 * k, 2):
            ui = np.uint64(i)
            if flat[np.uint64(learned[ui])] & ~learned[ui + np.uint64(1)]:
                hold = False
                break
        if hold:
            return True
    return False


@njit(**SEARCH_INNER)
def _nogood_pass(flat, width, ctx, tw, stats, memo, learned):
    """Propagate the learned nogoods on ``flat``: a nogood whose literals all
    hold proves the node empty; one whose literals all hold but one makes
    that one false (its cell loses the colours the literal allows), and
    line logic follows (``_settle``); repeated until no nogood narrows.

    Returns the cells narrowed, or -1 (the node is empty).
    """
    if learned.shape[0] < _NG_HEAD:
        return 0
    trail, old, seen = tw[0], tw[1], tw[2]
    narrowed = 0
    while True:
        end = learned[0]
        at = _NG_HEAD
        ntr = 0
        empty = False
        while at < end:
            k = learned[at]
            at += 1
            open_at = -1
            live = True
            for i in range(at, at + 2 * k, 2):
                m = flat[learned[i]]
                a = learned[i + 1]
                if m & ~a == 0:
                    continue  # holds
                if m & a == 0 or open_at >= 0:
                    live = False  # false, or a second literal still open
                    break
                open_at = i
            if live:
                stats[ST_NOGOOD_HITS] += 1
                if open_at < 0:
                    empty = True
                    break
                q = learned[open_at]
                ntr = _on_trail(q, flat, trail, old, seen, ntr)
                flat[q] &= ~learned[open_at + 1]
            at += 2 * k
        if empty:
            for j in range(ntr):
                seen[trail[j]] = False
            return -1
        if ntr == 0:
            return narrowed
        narrowed += ntr
        if _settle(flat, width, np.int64(ntr), ctx, tw, stats, memo) == CONTRADICTION:
            return -1


@njit(**SEARCH_INNER)
def _learn(learned, f, touch, chosen, mark, stats):
    """Frame ``f`` is proved empty: the decisions on its path (frame ``c``'s
    cell ``touch[c]`` set to the colours ``chosen[c]``, for the frames
    ``1..f`` that a branch made) are a nogood.  It replaces the nogoods its
    subtree learned (from ``mark[f]`` on: each holds these decisions and
    more); nothing is learned once the store is full."""
    if learned.shape[0] < _NG_HEAD:
        return
    at = mark[f]
    k = 0
    for c in range(1, f + 1):
        if touch[c] >= 0:
            k += 1
    if k == 0 or at + 1 + 2 * k > learned.shape[0]:
        learned[0] = at
        return
    learned[at] = k
    i = at + 1
    for c in range(1, f + 1):
        if touch[c] >= 0:
            learned[i] = touch[c]
            learned[i + 1] = chosen[c]
            i += 2
    learned[0] = i
    stats[ST_LEARNED] += 1


@njit(**SEARCH_INNER)
def _components(cur, cells, ncell, parent):
    """Split the undetermined cells of ``cells[:ncell]`` into independent parts.

    Two undetermined cells depend on each other when they share a row or a
    column; the parts are the connected components of that relation, and
    no line holds undetermined cells of two parts, so the parts can be
    solved one by one and the solution count is the product.

    Returns
    -------
    comp_cells : (m,) int64, the undetermined cells grouped by part (row-major within a part)
    comp_start : (parts + 1,) int64, part ``i`` is ``comp_cells[comp_start[i]:comp_start[i + 1]]``
    """
    height, width = cur.shape
    flat = cur.ravel()
    last_col = np.full(width, -1, dtype=np.int64)
    und = np.empty(ncell, dtype=np.int64)
    m_und = 0
    last_row = -1
    last_in_row = np.int64(-1)  # not the literal -1: _union would be compiled for it too
    for j in range(ncell):
        p = cells[j]
        m = flat[p]
        if (m & (m - 1)) == 0:
            continue
        und[m_und] = p
        m_und += 1
        parent[p] = p
        r = p // width
        c = p - r * width
        if r == last_row:
            _union(parent, p, last_in_row)
        last_row = r
        last_in_row = p
        if last_col[c] >= 0:
            _union(parent, p, last_col[c])
        last_col[c] = p
    # label parts by first appearance
    counts = np.zeros(m_und + 1, dtype=np.int64)
    label = np.empty(m_und, dtype=np.int64)
    root_label = np.full(parent.shape[0], -1, dtype=np.int64)
    parts = 0
    for j in range(m_und):
        root = _find(parent, und[j])
        if root_label[root] < 0:
            root_label[root] = parts
            parts += 1
        label[j] = root_label[root]
        counts[label[j] + 1] += 1
    comp_start = np.empty(parts + 1, dtype=np.int64)
    total = 0
    for i in range(parts + 1):
        total += counts[i]
        comp_start[i] = total
    fill = comp_start[:parts].copy()
    comp_cells = np.empty(m_und, dtype=np.int64)
    for j in range(m_und):
        comp_cells[fill[label[j]]] = und[j]
        fill[label[j]] += 1
    return comp_cells, comp_start


@njit(**SEARCH_INNER)
def _find(parent, x):
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


@njit(**SEARCH_INNER)
def _union(parent, a, b):
    ra = _find(parent, a)
    rb = _find(parent, b)
    if ra != rb:
        parent[ra] = rb


# frame phases of the search
_ENTER, _SPLIT, _BRANCH = 0, 1, 2


@njit(**JIT)
def _search(
    root,
    lens, cols, starts, ends, hashes,
    run, slot, gap, fwd, bwd, color_slot,
    tag, io, use,
    sols,
    max_solutions,
    node_budget,
    stats,
    strategy,
    seed,
    learned,
):  # fmt: skip
    """Find up to ``max_solutions`` distinct solutions of a stalled puzzle.

    The search is a depth-first walk over frames kept on explicit stacks
    (numba's cache cannot hold recursive functions).  A frame is a region
    of the grid -- undetermined cells no line shares with cells outside it
    -- in a state, and asks for up to ``want`` of its solutions.  Entering
    a frame probes it; then it either is done (solved, contradiction,
    enough solutions met by probes), or *splits* into independent parts
    that are solved one after the other (the count is the product), or
    *branches* on one cell (``cell == colour``, then ``cell != colour``:
    the two sides share no solution, so the count is the sum).  A frame's
    count is exact when below its ``want``.

    Parameters
    ----------
    root : (H, W) int64 masks, a line-logic fixpoint; once probing at the
        root finishes, it is narrowed to the probing fixpoint (same
        solutions), so that a restart need not probe the root again
    lens ... use : the fields of the clues, the line DP's work arrays and
        the line cache (``_kernels.Clues``, ``LineScratch``, ``LineCache``),
        flat like ``_kernels._propagate``'s (numba's ahead-of-time
        compiler, :mod:`rofl.kernels._aot`, takes no named tuples)
    sols : (>= max_solutions, H, W) int64, receives the solutions (single-bit masks)
    max_solutions : 1 or 2, stop after this many distinct solutions
    node_budget : stop after this many search nodes (<= 0: no limit)
    stats : (N_STATS,) int64, receives nodes, probes, line solves, the
        deepest frame stack and the number of splits into independent parts;
        the search stops (as out of budget) once ``stats[ST_STOP]`` is set,
        which it reads at every node and probe
    strategy : which colour of the branching cell goes first: 1 the one
        whose probe narrowed least, 0 the most, 2 random, 3 the lowest (white,
        the background), 4 the highest (black); with 3 and 4, from ``seed`` 2
        on, up to 50% of noise on the cells' scores; the searches differ
        only in the order of the tree, never in what they prove
    seed : int, for strategy 2 and the choice among equally good cells
    learned : (L,) int64, the store of learned nogoods (see ``_nogood_pass``),
        kept by the caller from one attempt to the next (zeros: empty; fewer
        words than its header: no learning).  Every frame proved empty adds
        the decisions on its path; a later node (in this attempt or
        another) where they all hold is empty, and one where all but one
        hold makes that one false.

    Returns
    -------
    int
        The number of solutions in ``sols`` (exact when below
        ``max_solutions``), or -1 when the budget ran out; ``sols`` then
        holds the ``stats[ST_MET]`` distinct solutions met on the way.
    """
    height, width = root.shape
    ctx = (
        Clues(lens, cols, starts, ends, hashes),
        LineScratch(run, slot, gap, fwd, bwd, color_slot),
        LineCache(tag, io, use),
        _words(root, cols),
    )
    n = height * width
    nmax = max(height, width)
    tw = (
        np.empty(n, dtype=np.int64),  # trail: cells
        np.empty(n, dtype=np.int64),  # trail: old masks
        np.zeros(n, dtype=np.bool_),  # on the trail already
        np.empty(height + width, dtype=np.int64),  # line queue
        np.zeros(height + width, dtype=np.bool_),  # queued
        np.empty(nmax, dtype=np.int64),  # a line's masks
        np.empty(nmax, dtype=np.int64),  # the line solve's result
        np.zeros(height + width, dtype=np.int64),  # stamp of the pass that last listed the line
        np.empty(height + width, dtype=np.int64),  # lines solved by the current pass
        np.zeros(2, dtype=np.int64),  # how many; the current pass's stamp
    )
    work = (
        tw,
        np.zeros(n, dtype=np.int64),  # union of the surviving colours' masks
        np.zeros(n, dtype=np.int64),  # how many surviving colours changed the cell
        np.empty(n, dtype=np.int64),  # cells the first surviving colour changed
        np.zeros(n, dtype=np.bool_),  # cells of the region being probed
    )
    score = np.zeros(n, dtype=np.float64)
    first = np.zeros(n, dtype=np.int64)
    # the cells' activity (see _probe_region); the last entry: what a
    # contradiction adds, which grows from node to node
    act = np.zeros(n + 1, dtype=np.float64)
    act[-1] = 1.0
    live = np.zeros(1 << 12, dtype=np.int64)  # see _live_nogoods
    parent = np.empty(n, dtype=np.int64)
    anysol = np.zeros((max_solutions, height, width), dtype=np.int64)
    nfound = np.zeros(1, dtype=np.int64)
    rng = np.empty(1, dtype=np.int64)
    rng[0] = seed * 2654435761 + 88172645463325252
    stats[ST_MET] = 0
    keep = max(max_solutions, 2)
    if learned.shape[0] >= _NG_HEAD and learned[0] < _NG_HEAD:
        learned[0] = _NG_HEAD

    # per-depth frame storage, grown on demand
    states = [root.copy()]
    outs = [np.empty((keep, height, width), dtype=np.int64)]
    combined = [np.empty((height, width), dtype=np.int64)]
    seconds_sol = [np.empty((height, width), dtype=np.int64)]
    cells_of = [np.arange(n, dtype=np.int64)]
    part_cells = [np.empty(0, dtype=np.int64)]
    part_start = [np.empty(0, dtype=np.int64)]
    part_order = [np.empty(0, dtype=np.int64)]
    # probe records (see _still_quiet): when each line last changed, and
    # per cell the time, frame and lines of its last probe that taught nothing
    clk = np.zeros(1, dtype=np.int64)
    memo = (
        np.zeros(height + width, dtype=np.int64),  # line -> time of its last change
        np.zeros(n, dtype=np.int64),  # cell -> time of its record
        np.zeros(n, dtype=np.int64),  # ... serial of the frame that made it
        np.full(n, -1, dtype=np.int64),  # ... depth of that frame (-1: none)
        np.empty((n, _record_width(n, height + width)), dtype=np.int32),  # ... the lines its probes solved
        np.zeros(n, dtype=np.int64),  # ... how many
        clk,
    )
    serial = np.empty(16, dtype=np.int64)
    want = np.empty(16, dtype=np.int64)
    phase = np.empty(16, dtype=np.int64)
    touch = np.empty(16, dtype=np.int64)
    count = np.empty(16, dtype=np.int64)  # BRANCH: solutions so far; SPLIT: product so far
    step = np.empty(16, dtype=np.int64)  # BRANCH: side (0, 1); SPLIT: part index in order
    cell = np.empty(16, dtype=np.int64)  # BRANCH: the cell; SPLIT: the part with two solutions
    bitv = np.empty(16, dtype=np.int64)  # BRANCH: the colour bit
    mark = np.empty(16, dtype=np.int64)  # the nogood store's end at the frame's entry
    chosen = np.empty(16, dtype=np.int64)  # a branch's child: the colours its cell was set to

    want[0] = max_solutions
    phase[0] = _ENTER
    touch[0] = -1
    top = 0  # index of the current frame
    got = 0  # result of the frame that just finished
    while top >= 0:
        f = top
        cur = states[f]
        if phase[f] == _ENTER:
            stats[ST_NODES] += 1
            if f > stats[ST_MAX_DEPTH]:
                stats[ST_MAX_DEPTH] = f
            if node_budget > 0 and stats[ST_NODES] > node_budget:
                break
            if _stopped(stats):
                break
            clk[0] += 1
            serial[f] = clk[0]
            mark[f] = learned[0] if learned.shape[0] >= _NG_HEAD else 0
            _load_words(cur.ravel(), width, ctx[3])
            if touch[f] >= 0:
                # the branch's cell is set already: propagate it, stamping the lines it changes
                tw[0][0] = touch[f]
                tw[2][touch[f]] = True
                if _settle(cur.ravel(), width, np.int64(1), ctx, tw, stats, memo) == CONTRADICTION:
                    _learn(learned, np.int64(f), touch, chosen, mark, stats)
                    got = 0
                    top -= 1
                    continue
            cells = cells_of[f]
            st = np.int64(STALLED)
            if _nogood_pass(cur.ravel(), width, ctx, tw, stats, memo, learned) < 0:
                st = np.int64(CONTRADICTION)
            while st == STALLED:
                nfound[0] = 0
                _live_nogoods(cur.ravel(), learned, live)
                st = _probe_region(
                    cur,
                    cells,
                    cells.shape[0],
                    ctx,
                    work,
                    score,
                    first,
                    outs[f],
                    nfound,
                    want[f],
                    anysol,
                    stats,
                    strategy,
                    rng,
                    touch[f],
                    memo,
                    serial,
                    np.int64(f),
                    act,
                    learned,
                    live,
                )
                if st != STALLED:
                    break
                # what probing fixed may make a nogood unit: then probe again
                narrowed = _nogood_pass(cur.ravel(), width, ctx, tw, stats, memo, learned)
                if narrowed < 0:
                    st = np.int64(CONTRADICTION)
                elif narrowed == 0:
                    break
            act[-1] *= _ACTIVITY_GROWTH
            if act[-1] > 1e100:
                act /= 1e100
            if st == _ABORT:
                break
            if f == 0:
                _copy(root, cur)
            if stats[ST_MET] >= max_solutions:
                # distinct whole-grid solutions met anywhere in the tree settle it
                for s in range(max_solutions):
                    _copy(sols[s], anysol[s])
                return max_solutions
            if st != STALLED:
                if st == _ENOUGH:
                    got = want[f]
                elif st == CONTRADICTION:
                    _learn(learned, np.int64(f), touch, chosen, mark, stats)
                    got = 0
                else:  # SOLVED: the region is determined
                    _copy(outs[f][0], cur)
                    got = 1
                top -= 1
                continue
            comp_cells, comp_start = _components(cur, cells, cells.shape[0], parent)
            parts = comp_start.shape[0] - 1
            # make room for a child frame
            if f + 1 == len(states):
                states.append(np.empty((height, width), dtype=np.int64))
                outs.append(np.empty((keep, height, width), dtype=np.int64))
                combined.append(np.empty((height, width), dtype=np.int64))
                seconds_sol.append(np.empty((height, width), dtype=np.int64))
                cells_of.append(comp_cells)
                part_cells.append(comp_cells)
                part_start.append(comp_start)
                part_order.append(comp_start)
                if f + 2 > want.shape[0]:
                    size = 2 * want.shape[0]
                    want = _grow(want, size)
                    phase = _grow(phase, size)
                    touch = _grow(touch, size)
                    count = _grow(count, size)
                    step = _grow(step, size)
                    cell = _grow(cell, size)
                    bitv = _grow(bitv, size)
                    serial = _grow(serial, size)
                    mark = _grow(mark, size)
                    chosen = _grow(chosen, size)
            if parts > 1:
                stats[ST_SPLITS] += 1
                # smallest parts first: a part without solutions ends the frame early
                part_cells[f] = comp_cells
                part_start[f] = comp_start
                part_order[f] = _by_size(comp_start)
                _copy(combined[f], cur)
                phase[f] = _SPLIT
                count[f] = 1
                step[f] = 0
                cell[f] = -1
            else:
                # branch on the cell whose weakest probe still narrows the
                # most, weighted by how active the cell is beside the part's
                # most active one (a cell whose probes contradict often is
                # where the node's trouble is: up to twice its score)
                flat = cur.ravel()
                best = -1
                best_score = -1.0
                most = 0.0
                for j in range(comp_cells.shape[0]):
                    most = max(most, act[comp_cells[j]])
                for j in range(comp_cells.shape[0]):
                    p = comp_cells[j]
                    sc = score[p]
                    if most > 0.0:
                        sc *= 1.0 + act[p] / most
                    if strategy == 2:
                        # break near-ties at random
                        rng[0] = _xorshift(rng[0])
                        sc *= 1.0 + (rng[0] & 0xFF) / 4096.0
                    elif strategy >= 3 and seed >= 2:
                        # from the third attempt on, noise as nonosolve's (up to +50%)
                        rng[0] = _xorshift(rng[0])
                        sc *= 1.0 + (rng[0] & 0xFFFF) / 131072.0
                    if sc > best_score:
                        best_score = sc
                        best = p
                bit = first[best]
                if bit & flat[best] == 0:  # cannot happen after a full probe pass; stay safe
                    bit = flat[best] & -flat[best]
                cells_of[f] = comp_cells
                phase[f] = _BRANCH
                cell[f] = best
                bitv[f] = bit
                count[f] = 0
                step[f] = 0
            got = -2  # no child has finished yet

        # f is SPLIT or BRANCH: take the finished child's result, start the next child
        if phase[f] == _SPLIT:
            order = part_order[f]
            starts = part_start[f]
            pcells = part_cells[f]
            if got >= 0:
                part = order[step[f]]
                if got == 0:
                    _learn(learned, np.int64(f), touch, chosen, mark, stats)
                    top -= 1
                    continue
                child_out = outs[f + 1]
                cflat = combined[f].ravel()
                s0 = child_out[0].ravel()
                for j in range(starts[part], starts[part + 1]):
                    cflat[pcells[j]] = s0[pcells[j]]
                if got >= 2 and cell[f] < 0:
                    cell[f] = part
                    _copy(seconds_sol[f], child_out[1])
                count[f] = min(count[f] * got, want[f])
                step[f] += 1
            if step[f] == order.shape[0]:
                total = count[f]
                out = outs[f]
                _copy(out[0], combined[f])
                if total >= 2:
                    _copy(out[1], combined[f])
                    oflat = out[1].ravel()
                    s1 = seconds_sol[f].ravel()
                    part = cell[f]
                    for j in range(starts[part], starts[part + 1]):
                        oflat[pcells[j]] = s1[pcells[j]]
                got = total
                top -= 1
                continue
            part = order[step[f]]
            a = starts[part]
            b = starts[part + 1]
            c = f + 1
            _copy(states[c], cur)
            cells_of[c] = pcells[a:b].copy()
            want[c] = 1 if (count[f] >= want[f] or want[f] == 1) else 2
            phase[c] = _ENTER
            touch[c] = -1
            top = c
            continue

        # BRANCH
        if got >= 0:
            # the two sides share no solution, so their solutions are distinct
            child_out = outs[f + 1]
            out = outs[f]
            for s in range(got):
                _copy(out[count[f] + s], child_out[s])
            count[f] += got
            step[f] += 1
            if count[f] >= want[f]:
                got = want[f]
                top -= 1
                continue
        if step[f] == 2:
            got = count[f]
            if got == 0:
                _learn(learned, np.int64(f), touch, chosen, mark, stats)
            top -= 1
            continue
        c = f + 1
        best = cell[f]
        _copy(states[c], cur)
        cflat = states[c].ravel()
        cflat[best] = bitv[f] if step[f] == 0 else cur.ravel()[best] & ~bitv[f]
        chosen[c] = cflat[best]
        cells_of[c] = cells_of[f]
        want[c] = want[f] - count[f]
        phase[c] = _ENTER
        touch[c] = best
        top = c

    if top >= 0:  # out of budget
        for s in range(max_solutions):
            _copy(sols[s], anysol[s])
        return -1
    for s in range(got):
        _copy(sols[s], outs[0][s])
    return got


#: Entries of the black-and-white search's line cache (:func:`_spread_bw`),
#: at least: each line has a table of its own, a power of two of entries of
#: 32 bytes (200 KB for a 25 x 25 puzzle), so that a lookup reads one
#: cache line of the processor's.  Small on purpose: on four of the
#: tournaments' hardest puzzles, search alone to 1500 nodes, 2.42 CPU s
#: (median of 6 runs) against 2.91 with the table it replaced (one for all
#: lines, 1 << 15 entries of 40 bytes in two arrays); in another sitting
#: 1 << 12 entries 2.61 s, 1 << 10 2.71, 1 << 13 2.67, 1 << 15 2.87
#: (docs/benchmarks.md, "rofl beside nonosolve").
_WORD_SLOTS = 1 << 12
# the word cache's hash: two odd 64-bit multipliers (splitmix64's)
_MIX_W = np.uint64(0x9E3779B97F4A7C15)
_MIX_B = np.uint64(0xBF58476D1CE4E5B9)


@njit(**SEARCH_INNER)
def _words(root, cols):
    """The word path's state (:func:`_spread_bw`): its cache, for each line
    entries of its white and black words (0, 0: empty) and their answer
    (0, 0: no arrangement), whether
    the puzzle takes it (``flags[0]``: every group black, every cell white or
    black, at most 63 cells a side), ``_line_bw``'s work words, each
    line's two words as the grid has them (kept by :func:`_spread_bw`,
    :func:`_undo` and :func:`_load_words`) and each cell's row and column."""
    height, width = root.shape
    bw = max(height, width) <= MAX_CELLS
    for j in range(cols.shape[0]):
        if cols[j] != 1:
            bw = False
    flat = root.ravel()
    for i in range(flat.shape[0]):
        if flat[i] & ~np.int64(3):
            bw = False
    flags = np.zeros(1, dtype=np.int64)
    flags[0] = 1 if bw else 0
    lines = height + width if bw else 1
    slots = 1
    while bw and slots * lines < _WORD_SLOTS:
        slots *= 2
    rc = np.zeros(height * width if bw else 1, dtype=np.int64)
    if bw:
        for q in range(height * width):
            rc[q] = (q // width) * 64 + q % width
    return (
        np.zeros((lines, slots, 4), dtype=np.uint64),
        flags,
        np.empty(64, dtype=np.uint64),
        np.zeros((lines, 2), dtype=np.uint64),  # each line's words as the grid has them
        rc,  # each cell's row times 64 plus its column
    )


@njit(**SEARCH_INNER)
def _grow(a, size):
    b = np.empty(size, dtype=a.dtype)
    for i in range(a.shape[0]):  # a loop: see _copy
        b[i] = a[i]
    return b


@njit(**SEARCH_INNER)
def _by_size(start):
    """The parts ``i`` of ``start`` (part ``i`` is ``start[i]:start[i + 1]``),
    smallest first, equal sizes in their order: a stable insertion sort, as
    there are few parts and ``np.argsort(kind="mergesort")`` costs seconds
    of compile."""
    parts = start.shape[0] - 1
    order = np.empty(parts, dtype=np.int64)
    for i in range(parts):
        size = start[i + 1] - start[i]
        k = i
        while k > 0 and start[order[k - 1] + 1] - start[order[k - 1]] > size:
            order[k] = order[k - 1]
            k -= 1
        order[k] = i
    return order
