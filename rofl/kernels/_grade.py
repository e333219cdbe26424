"""Compiled kernel of the difficulty grader (numba): a solver that uses
ranked human techniques and logs what each round found.

Private: :mod:`rofl.solver.grade` calls :func:`_grade` and turns its log
into a :class:`~rofl.solver.grade.Difficulty`.  One entry point, so the
grader compiles as one small set (``GRADE`` in
:mod:`rofl.kernels._compile`) and never drags the line solver's kernels in.

A board is its lines as lists of flat cells (``line_cells``,
``line_offsets``; ``cell_lines``, ``cell_offsets`` the other way round),
as in :mod:`rofl.kernels._index`, so rectangles and hexagons take
the same path.  Groups have one colour each (no ``?`` sets).

Each line's deductions, easiest first, are masks of what its cells may
still be (bit ``c``: colour ``c``), each narrower than the one before:

1. **overlap**: the first and last placements of the groups from the clue
   alone (the line's ends are its only walls): a cell every placement of a
   group covers takes its colour, a cell no group can reach is background;
2. **edges**: the same with each group pushed as far as it goes against
   the line's ends and the cells that cannot take its colour (crossed-out
   cells, other colours), and a line whose ink is all known crossed out;
   known ink is not looked at otherwise;
3. **joining and splitting**: the first and last placements that known ink
   allows too (each known piece held by a group that can reach it, pieces
   only one group can hold joined), a known run as long as the longest
   group that can hold it closed at both ends, a cell that would join two
   runs into one longer than any group that can hold it split;
4. **whole line**: every arrangement of the line (the dynamic programme of
   full line logic): what all of them agree on.

A round applies, to every line at once, the easiest technique that finds
something anywhere; when none does, **probing** (reasoning across lines)
gives each open cell each of its colours in turn and strikes a colour that
leads line logic to a contradiction.  When probing finds nothing either the
puzzle needs guessing.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from rofl.kernels._bits import MAX_CELLS, MAX_COLOURS, MAX_GROUPS, ONE, _line_bw, _line_colours, _lowest
from rofl.kernels._config import JIT, LEAF
from rofl.kernels._index import _largest_line
from rofl.kernels.grade_codes import (
    BUDGET,
    CONTRADICTION,
    GENERAL_PATH,
    LOG_FULL,
    N_LINE_LEVELS,
    PROBE,
    RECALL,
    SOLVED,
    ST_BAD_LINE,
    ST_LINE_DPS,
    ST_PROBES,
    ST_ROUNDS,
    STALLED,
)


@njit(**LEAF)
def _line_dp(m, n, lens, cols, g0, k, run, fb, fe, bb, be, lo, hi, poss, diff):
    """Every arrangement of one line: ``poss`` (what each cell may be),
    ``lo``/``hi`` (each group's first and last valid start).  False when
    the line has no arrangement.

    ``fb[j, i]``: groups ``0..j-1`` fit in cells ``0..i-1`` with cell ``i-1``
    background; ``fe[j, i]``: the same with group ``j-1`` ending at ``i-1``;
    ``bb``/``be`` the same from the right (groups ``j..k-1`` in ``i..n-1``,
    cell ``i`` background / group ``j`` starting at ``i``).
    """
    for j in range(k):
        bit = np.int64(1) << cols[g0 + j]
        r = 0
        run[j, 0] = 0
        for i in range(n):
            r = r + 1 if m[i] & bit else 0
            run[j, i + 1] = r
    for j in range(k + 1):
        fb[j, 0] = 0
        fe[j, 0] = 0
    fb[0, 0] = 1
    for i in range(1, n + 1):
        blank = m[i - 1] & 1
        for j in range(k + 1):
            fb[j, i] = (fb[j, i - 1] | fe[j, i - 1]) if blank else 0
        fe[0, i] = 0
        for j in range(k):
            length = lens[g0 + j]
            s = i - length
            ok = 0
            if s >= 0 and run[j, i] >= length:
                if fb[j, s] or (fe[j, s] and j > 0 and cols[g0 + j - 1] != cols[g0 + j]):
                    ok = 1
            fe[j + 1, i] = ok
    if not (fb[k, n] or fe[k, n]):
        return False
    for j in range(k + 1):
        bb[j, n] = 0
        be[j, n] = 0
    bb[k, n] = 1
    for i in range(n - 1, -1, -1):
        blank = m[i] & 1
        for j in range(k + 1):
            bb[j, i] = (bb[j, i + 1] | be[j, i + 1]) if blank else 0
        be[k, i] = 0
        for j in range(k):
            length = lens[g0 + j]
            e = i + length
            ok = 0
            if e <= n and run[j, e] >= length:
                if bb[j + 1, e] or (be[j + 1, e] and j + 1 < k and cols[g0 + j + 1] != cols[g0 + j]):
                    ok = 1
            be[j, i] = ok
    for i in range(n):
        poss[i] = 0
        if m[i] & 1:
            for j in range(k + 1):
                if (fb[j, i] or fe[j, i]) and (bb[j, i + 1] or be[j, i + 1]):
                    poss[i] = 1
                    break
    for j in range(k):
        length = lens[g0 + j]
        bit = np.int64(1) << cols[g0 + j]
        lo[j] = -1
        for i in range(n + 1):
            diff[i] = 0
        for s in range(n - length + 1):
            if be[j, s] and (fb[j, s] or (fe[j, s] and j > 0 and cols[g0 + j - 1] != cols[g0 + j])):
                if lo[j] < 0:
                    lo[j] = s
                hi[j] = s
                diff[s] += 1
                diff[s + length] -= 1
        acc = 0
        for i in range(n):
            acc += diff[i]
            if acc > 0:
                poss[i] |= bit
    return True


@njit(**LEAF)
def _solve_line(m, n, lens, cols, g0, k, use_bits, word, first, last, dp, lo, hi, poss):
    """:func:`_line_dp`'s answer, on bit sets when the line fits in a word
    (:func:`rofl.kernels._bits._line_colours`: most lines of most puzzles;
    ``use_bits``: the puzzle has at most its number of colours)."""
    if use_bits and n <= 63 and k <= MAX_GROUPS:
        # np.int64, not the literal 0: _line_colours compiled once, as line logic's
        if not _line_colours(m, n, lens, cols, g0, g0 + k, poss, word, first, last, np.int64(0)):
            return False
        for j in range(k):
            lo[j] = first[g0 + j]
            hi[j] = last[g0 + j]
        return True
    run, fb, fe, bb, be, diff = dp
    return _line_dp(m, n, lens, cols, g0, k, run, fb, fe, bb, be, lo, hi, poss, diff)


@njit(**LEAF)
def _bare_ranges(n, lens, cols, g0, k, lo, hi):
    """First and last starts of each group from the clue alone."""
    pos = 0
    for j in range(k):
        if j > 0 and cols[g0 + j - 1] == cols[g0 + j]:
            pos += 1
        lo[j] = pos
        pos += lens[g0 + j]
    pos = n
    for j in range(k - 1, -1, -1):
        pos -= lens[g0 + j]
        hi[j] = pos
        if j > 0 and cols[g0 + j - 1] == cols[g0 + j]:
            pos -= 1


@njit(**LEAF)
def _pushed_ranges(m, n, lens, cols, g0, k, lo, hi):
    """First and last starts of each group pushed against the line's ends
    and the cells that cannot take its colour (known ink is not looked at)."""
    pos = 0
    for j in range(k):
        length = lens[g0 + j]
        bit = np.int64(1) << cols[g0 + j]
        if j > 0 and cols[g0 + j - 1] == cols[g0 + j]:
            pos += 1
        count = 0
        s = pos
        while s + count < n and count < length:
            if m[s + count] & bit:
                count += 1
            else:
                s = s + count + 1
                count = 0
        if s + length > n:
            return False
        lo[j] = s
        pos = s + length
    pos = n
    for j in range(k - 1, -1, -1):
        length = lens[g0 + j]
        bit = np.int64(1) << cols[g0 + j]
        if j < k - 1 and cols[g0 + j + 1] == cols[g0 + j]:
            pos -= 1
        count = 0
        e = pos  # the group ends before e
        while e - count > 0 and count < length:
            if m[e - count - 1] & bit:
                count += 1
            else:
                e = e - count - 1
                count = 0
        if e - length < lo[j]:
            return False
        hi[j] = e - length
        pos = e - length
    return True


@njit(**LEAF)
def _overlap(n, lens, cols, g0, k, lo, hi, out, forced):
    """What the placements between ``lo`` and ``hi`` leave a cell: colours
    of the groups that reach it, background unless a group covers it in
    its first and last placement alike (it then takes that group's colour)."""
    for i in range(n):
        out[i] = 1
        forced[i] = 0
    for j in range(k):
        length = lens[g0 + j]
        bit = np.int64(1) << cols[g0 + j]
        for i in range(lo[j], hi[j] + length):
            out[i] |= bit
        for i in range(hi[j], lo[j] + length):
            forced[i] = bit
    for i in range(n):
        if forced[i]:
            out[i] = forced[i]


@njit(**LEAF)
def _complete(m, n, lens, cols, g0, k, out):
    """A colour whose groups' cells are all known already is struck from
    the line's other cells (``out``, narrowed in place)."""
    for j in range(k):
        again = False  # each colour once, at its first group
        for g in range(j):
            if cols[g0 + g] == cols[g0 + j]:
                again = True
                break
        if again:
            continue
        bit = np.int64(1) << cols[g0 + j]
        total = 0
        for g in range(j, k):
            if cols[g0 + g] == cols[g0 + j]:
                total += lens[g0 + g]
        known = 0
        for i in range(n):
            if m[i] == bit:
                known += 1
        if known == total:
            for i in range(n):
                if m[i] != bit:
                    out[i] &= ~bit


@njit(**LEAF)
def _holders(lens, cols, g0, k, lo, hi, bit, a, b):
    """The longest group of colour ``bit`` that can hold cells ``a..b`` (0: none)."""
    best = 0
    for j in range(k):
        length = lens[g0 + j]
        if (np.int64(1) << cols[g0 + j]) == bit and length >= b - a + 1 and lo[j] <= a and hi[j] + length - 1 >= b:
            best = max(best, length)
    return best


@njit(**LEAF)
def _split(m, n, lens, cols, g0, k, lo, hi, out):
    """Capping and splitting on ``out`` (narrowed in place)."""
    i = np.int64(0)  # not the literal 0: _holders would be compiled for it too
    while i < n:
        v = m[i]
        if v != 1 and (v & (v - 1)) == 0:
            a = i
            while i + 1 < n and m[i + 1] == v:
                i += 1
            b = i
            if _holders(lens, cols, g0, k, lo, hi, v, a, b) == b - a + 1:
                if a > 0:
                    out[a - 1] &= ~v
                if b + 1 < n:
                    out[b + 1] &= ~v
            # a gap of one open cell before a run of the same colour
            if b + 2 < n and (m[b + 1] & v) and m[b + 1] != v and m[b + 2] == v:
                c = b + 2
                while c + 1 < n and m[c + 1] == v:
                    c += 1
                if _holders(lens, cols, g0, k, lo, hi, v, a, c) == 0:
                    out[b + 1] &= ~v
        i += 1


@njit(**LEAF)
def _mark(masks, line_cells, res, p0, n, first, last, line, news):
    """``news[t, line]``: whether technique ``t + 1`` narrows a cell of the line."""
    for t in range(first, last):
        news[t, line] = 0
        # unsigned indices: numba checks a signed one for a negative value
        for p in range(np.uint64(p0), np.uint64(p0 + n)):
            cell = np.uint64(line_cells[p])
            if (masks[cell] & res[t, p]) != masks[cell]:
                news[t, line] = 1
                break


@njit(**LEAF)
def _first_level(news, first, last):
    """The easiest technique of ``first + 1 .. last`` that narrows some cell (0: none)."""
    for t in range(first, last):
        for line in range(news.shape[1]):
            if news[t, line]:
                return t + 1
    return 0


#: A board's lines (as in :mod:`rofl.kernels._index`) and its clues.
Board = namedtuple("Board", "line_cells line_offsets cell_lines cell_offsets lens cols offs")
#: Probing's work arrays (:func:`_grade` makes them): a line's masks
#: (``m``) and the line solvers' arrays (``use_bits`` .. ``poss``, as
#: :func:`_solve_line` takes them), the ring of queued lines (``queue``,
#: ``queued``), the trail of cells narrowed and their masks before
#: (``trail``, ``held``; ``final``: a failed probe's fixpoint), the lines
#: solved (``visited``, bits) and each cell's first line.
Work = namedtuple("Work", "m use_bits word first last dp lo hi poss queue queued trail held visited final first_line")
#: The word path (:func:`_propagate_words`): whether it is on (``on[0]``),
#: each line's words (``lw``, ``lb``: its cells that may be white, black),
#: each cell's place in its lines (``at``), :func:`_line_bw`'s work array,
#: each line's words when the round's probing started (``lw0``, ``lb0``:
#: every probe starts from them and gives them back),
#: each place's crossing lines (``cross``, ``cross_line``, ``cross_at``) and
#: each line's places whose cell it is the first line of (``primary``).
Words = namedtuple("Words", "on lw lb at bwork lw0 lb0 cross cross_line cross_at primary")
#: The probes that failed (:func:`_probe`), by ``cell * n_colours + colour``.
Record = namedtuple("Record", "failed seen start count cells values used implied")


@njit(**LEAF)
def _gather(masks, line_cells, p0, n, m):
    for i in range(n):
        m[i] = masks[np.uint64(line_cells[p0 + i])]  # unsigned: no test for a negative index


@njit(**JIT, inline="always")
def _load_line(masks, line_cells, line_offsets, offs, line, m):
    """Gather line ``line``'s masks into ``m``: ``(p0, g0, n, k)``, its first
    position in ``line_cells``, its first group, its cells and groups."""
    p0 = line_offsets[line]
    g0 = offs[line]
    n = line_offsets[line + 1] - p0
    k = offs[line + 1] - g0
    _gather(masks, line_cells, p0, n, m)
    return p0, g0, n, k


@njit(**LEAF)
def _load_words(masks, board, words, changed, since):
    """The words of every line changed after version ``since`` from
    ``masks``: bit ``i`` of ``lw[line]`` / ``lb[line]`` when its cell ``i``
    may be white / black."""
    line_cells, line_offsets = board.line_cells, board.line_offsets
    for line in range(line_offsets.shape[0] - 1):
        if changed[line] <= since:
            continue
        w = np.uint64(0)
        b = np.uint64(0)
        for p in range(line_offsets[line + 1] - 1, line_offsets[line] - 1, -1):
            v = np.uint64(masks[line_cells[p]])
            w = (w << ONE) | (v & ONE)
            b = (b << ONE) | (v >> ONE)
        words.lw[line] = w
        words.lb[line] = b
        words.lw0[line] = w
        words.lb0[line] = b


@njit(**LEAF, inline="always")
def _word_value(cell, board, work, words):
    """What ``cell`` may be on the word path (1 white, 2 black, 3 either),
    read from its first line's words."""
    line = work.first_line[cell]
    i = np.uint64(words.at[board.cell_offsets[cell]])
    return np.int64((words.lw[line] >> i) & ONE) | np.int64(((words.lb[line] >> i) & ONE) << ONE)


@njit(**LEAF, inline="always")
def _set_word(cell, value, board, words):
    """On the word path, ``cell`` takes ``value`` (1 white, 2 black) in the
    words of each of its lines."""
    lw, lb = words.lw, words.lb
    # unsigned indices: numba checks a signed one for a negative value
    for q in range(np.uint64(board.cell_offsets[cell]), np.uint64(board.cell_offsets[cell + 1])):
        line = np.uint64(board.cell_lines[q])
        bit = ONE << np.uint64(words.at[q])
        lw[line] = (lw[line] & ~bit) | (bit if value & 1 else np.uint64(0))
        lb[line] = (lb[line] & ~bit) | (bit if value & 2 else np.uint64(0))


@njit(**LEAF, inline="always")
def _enqueue(other, work, tail, waiting, n_lines):
    """Queue line ``other`` unless it waits already: ``(tail, waiting)``
    (without a branch: the slot is taken only when it did not wait; it is
    free, as the ring never holds every line: the line being solved is not
    queued for its own cells)."""
    u = np.uint64(other)  # unsigned indices, as in :func:`_set_word`
    work.queue[np.uint64(tail)] = other
    step = 1 - np.int64(work.queued[u])
    work.queued[u] = 1
    tail += step
    if tail == n_lines:
        tail = 0
    return tail, waiting + step


@njit(**LEAF, inline="always")
def _dequeue(work, head, n_lines):
    """The next line of the ring from ``head``, marked solved in ``visited``: ``(line, head)``."""
    line = work.queue[np.uint64(head)]
    head += 1
    if head == n_lines:
        head = 0
    u = np.uint64(line)  # unsigned indices, as in :func:`_set_word`
    work.queued[u] = 0
    work.visited[u >> np.uint64(6)] |= np.int64(1) << (line & 63)
    return line, head


@njit(**LEAF)
def _propagate(masks, board, work, stats, n_trail, waiting):
    """Whole-line logic to a fixpoint from the ``waiting`` lines queued
    (probing), on ``masks`` in place: the cells it narrows and their masks
    before go on the trail (``trail``, ``held``, after the ``n_trail``
    already there), so that :func:`_undo` gives ``masks`` back, and the
    lines it solves join ``visited`` (bits of line numbers).
    ``(ok, cells on the trail)``; ok is False on a contradiction.

    A line is not queued again for the cells its own solve changed: the
    answer of whole-line logic is its own answer (every arrangement that
    fitted still fits), so it would find nothing.  :func:`_propagate_words`
    is the same on a black-and-white puzzle's words."""
    line_cells, line_offsets, cell_lines, cell_offsets = (
        board.line_cells, board.line_offsets, board.cell_lines, board.cell_offsets,
    )  # fmt: skip
    lens, cols, offs = board.lens, board.cols, board.offs
    m, poss, trail, held = work.m, work.poss, work.trail, work.held
    n_lines = line_offsets.shape[0] - 1
    head = 0
    # a count: with every line queued the ring's head and tail meet, which
    # ``head != tail`` took for empty (the probe then stopped short of line
    # logic's fixpoint and could miss its contradiction)
    tail = waiting % n_lines
    while waiting:
        waiting -= 1
        line, head = _dequeue(work, head, n_lines)
        p0 = line_offsets[line]
        n = line_offsets[line + 1] - p0
        g0 = offs[line]
        stats[ST_LINE_DPS] += 1
        _gather(masks, line_cells, p0, n, m)
        if not _solve_line(
            m, n, lens, cols, g0, offs[line + 1] - g0, work.use_bits, work.word, work.first, work.last, work.dp,
            work.lo, work.hi, poss,
        ):  # fmt: skip
            return False, n_trail
        for i in range(n):
            new = m[i] & poss[i]
            if new != m[i]:
                cell = line_cells[p0 + i]
                trail[n_trail] = cell
                held[n_trail] = m[i]
                n_trail += 1
                masks[cell] = new
                for q in range(cell_offsets[cell], cell_offsets[cell + 1]):
                    other = cell_lines[q]
                    if other != line:
                        tail, waiting = _enqueue(other, work, tail, waiting, n_lines)
    return True, n_trail


@njit(**LEAF)
def _propagate_words(board, work, words, stats, waiting):
    """:func:`_propagate` on the word path (a black-and-white puzzle of
    lines of at most 63 cells, ``words``): a line is solved on its two
    words (:func:`rofl.kernels._bits._line_bw`), only the cells whose bits
    changed are visited, and ``masks`` are not touched: the probe's
    words are given back from the words it started from (``lw0``,
    ``lb0``; :func:`_undo_words`), no trail kept: a line whose words it
    wrote was queued, so at a fixpoint it is among the lines solved
    (``visited``).  The same fixpoint, after the same line solves.
    False on a contradiction."""
    line_offsets, lens, offs = board.line_offsets, board.lens, board.offs
    lw, lb, bwork = words.lw, words.lb, words.bwork
    cross, cross_line, cross_at = words.cross, words.cross_line, words.cross_at
    n_lines = line_offsets.shape[0] - 1
    head = 0
    tail = waiting % n_lines  # a count, as in :func:`_propagate`
    while waiting:
        waiting -= 1
        line, head = _dequeue(work, head, n_lines)
        u = np.uint64(line)  # unsigned indices, as in :func:`_set_word`
        p0 = line_offsets[u]
        stats[ST_LINE_DPS] += 1
        ok, nw, nb = _line_bw(lw[u], lb[u], line_offsets[u + ONE] - p0, lens, offs[u], offs[u + ONE], bwork)
        if not ok:
            return False
        changed = (lw[u] ^ nw) | (lb[u] ^ nb)
        if not changed:
            continue
        lw[u] = nw
        lb[u] = nb
        while changed:
            i = np.uint64(_lowest(changed))
            changed &= changed - ONE
            p = np.uint64(p0) + i
            white = (nw >> i) & ONE
            black = (nb >> i) & ONE
            for r in range(np.uint64(cross[p]), np.uint64(cross[p + ONE])):
                other = np.uint64(cross_line[r])  # unsigned
                j = np.uint64(cross_at[r])
                lw[other] = (lw[other] & ~(ONE << j)) | (white << j)
                lb[other] = (lb[other] & ~(ONE << j)) | (black << j)
                tail, waiting = _enqueue(other, work, tail, waiting, n_lines)
    return True


@njit(**LEAF)
def _undo(masks, work, n_trail):
    """Give back the masks :func:`_propagate` narrowed (latest first)."""
    for t in range(n_trail - 1, -1, -1):
        masks[work.trail[t]] = work.held[t]


@njit(**LEAF)
def _undo_words(words):
    """Give back every line the words probing started from (after a
    contradiction, when the lines written need not all have been solved)."""
    for line in range(words.lw.shape[0]):
        words.lw[line] = words.lw0[line]
        words.lb[line] = words.lb0[line]


@njit(**LEAF)
def _undo_words_reading(board, work, words):
    """Give back the words of the lines a probe that reached its fixpoint
    solved (``visited``: every line whose words it wrote), reading on the
    way the cells it decided and their colours (1 white, 2 black) into
    ``trail`` and ``final``: the cells a probe changed in a line are the
    bits between its words before and after, and each cell is read at its
    first line only.  Returns how many."""
    trail, final, visited = work.trail, work.final, work.visited
    lw, lb = words.lw, words.lb
    n = 0
    for v in range(visited.shape[0]):
        lines = np.uint64(visited[v])
        while lines:
            line = (np.uint64(v) << np.uint64(6)) + np.uint64(_lowest(lines))
            lines &= lines - ONE
            w = lw[line]
            b = lb[line]
            w0 = words.lw0[line]
            b0 = words.lb0[line]
            diff = ((w ^ w0) | (b ^ b0)) & words.primary[line]
            while diff:
                i = np.uint64(_lowest(diff))
                diff &= diff - ONE
                slot = np.uint64(n)
                trail[slot] = board.line_cells[np.uint64(board.line_offsets[line]) + i]
                final[slot] = np.int64((w >> i) & ONE) | np.int64(((b >> i) & ONE) << ONE)
                n += 1
            lw[line] = w0
            lb[line] = b0
    return n


@njit(**LEAF)
def _give_back(masks, work, words, bw, n_trail):
    """Undo a probe on the word path (``bw``) or the general path."""
    if bw:
        _undo_words(words)
    else:
        _undo(masks, work, n_trail)


@njit(**LEAF)
def _probe(masks, board, work, words, stats, cell, bit, probe, record, changed, version):
    """Whether colour ``bit`` of ``cell`` leads line logic to a
    contradiction (``masks``, and on the word path ``on[0]`` the words,
    are given back as they were).

    ``record`` (probe ``probe``'s row; ``failed`` empty: none kept) keeps
    each probe that failed: the version of ``masks`` then (``failed``),
    the lines it solved (``seen``) and the fixpoint it reached (its cells
    that differ from ``masks`` then, in ``cells``/``values`` from ``start``,
    ``count`` of them; ``values`` empty: each cell and its mask in one word
    of ``cells``, the mask in its low :data:`MASK_BITS` bits).  Line logic
    is monotone, and probing starts from masks where line logic is at its
    fixpoint, so the probe's fixpoint now is the one from its old fixpoint
    narrowed by what changed since, and only lines it solved that changed
    since (``changed``) can move: none,
    and it fails again without a line solve; else line logic goes on from
    there.  Either way the answer is that of a fresh probe.  ``implied``:
    the version at which a failed probe decided the cell to the colour (a
    probe of it reaches a fixpoint inside the failed one's, so it fails
    too, while ``masks`` stay as they are): :func:`_grade` skips those
    before calling, and writes ``implied`` here."""
    queue, queued, trail, held, visited, final = (
        work.queue,
        work.queued,
        work.trail,
        work.held,
        work.visited,
        work.final,
    )
    failed, seen, start, count = record.failed, record.seen, record.start, record.count
    cells, values, used, implied = record.cells, record.values, record.used, record.implied
    cell_lines, cell_offsets = board.cell_lines, board.cell_offsets
    n_lines = board.line_offsets.shape[0] - 1
    for line in range(n_lines):
        queued[line] = 0
    waiting = np.int64(0)  # np.int64, not literals: _propagate(_words) compiled once
    bw = words.on[0] != 0
    n_trail = np.int64(0)  # cells on the trail (general path)
    if bw:
        _set_word(cell, bit, board, words)
    else:
        trail[0] = cell
        held[0] = masks[cell]
        masks[cell] = bit
        n_trail = 1
    kept = failed.shape[0] > 0 and failed[probe] >= 0
    if kept:
        for w in range(visited.shape[0]):
            bits = seen[probe, w]
            visited[w] = bits
            b = 0
            while bits != 0:
                line = (w << 6) + b
                if bits & 1 and changed[line] > failed[probe]:
                    queue[waiting] = line
                    queued[line] = 1
                    waiting += 1
                bits = (bits >> 1) & ~(np.int64(1) << 63)
                b += 1
        if waiting == 0:
            _give_back(masks, work, words, bw, n_trail)
            return False
        packed = values.shape[0] == 0
        for t in range(start[probe], start[probe] + count[probe]):
            entry = np.int64(cells[t])
            c = entry >> MASK_BITS if packed else entry
            value = entry & MASK_ALL if packed else values[t]
            now = _word_value(c, board, work, words) if bw else masks[c]
            new = now & value
            if new != now:
                if new == 0:
                    _give_back(masks, work, words, bw, n_trail)
                    return True
                if bw:
                    _set_word(c, new, board, words)
                else:
                    trail[n_trail] = c
                    held[n_trail] = masks[c]
                    n_trail += 1
                    masks[c] = new
    else:
        for w in range(visited.shape[0]):
            visited[w] = 0
        for q in range(cell_offsets[cell], cell_offsets[cell + 1]):
            queue[waiting] = cell_lines[q]
            queued[cell_lines[q]] = 1
            waiting += 1
    stats[ST_PROBES] += 1
    if bw:
        if not _propagate_words(board, work, words, stats, waiting):
            _undo_words(words)
            return True
        n_trail = _undo_words_reading(board, work, words)
    else:
        ok, n_trail = _propagate(masks, board, work, stats, n_trail, waiting)
        if ok:
            for t in range(n_trail):
                final[t] = masks[trail[t]]
        _undo(masks, work, n_trail)
        if not ok:
            return True
    # the probe failed: its fixpoint is ``final`` of the ``n_trail`` cells of ``trail``
    if failed.shape[0] > 0:
        if used[0] + n_trail > cells.shape[0]:  # full: forget every probe kept
            used[0] = 0
            for p in range(failed.shape[0]):
                failed[p] = -1
        if n_trail <= cells.shape[0]:
            start[probe] = used[0]
            count[probe] = n_trail
            at = np.uint64(used[0])  # unsigned indices: numba checks a signed one for a negative value
            if values.shape[0] == 0:
                for t in range(n_trail):
                    cells[at + np.uint64(t)] = (trail[t] << MASK_BITS) | final[t]
            else:
                for t in range(n_trail):
                    cells[at + np.uint64(t)] = trail[t]
                    values[at + np.uint64(t)] = final[t]
            used[0] += n_trail
            failed[probe] = version
            for w in range(visited.shape[0]):
                seen[probe, w] = visited[w]
        # a cell the probe decided: that colour leads to a fixpoint inside
        # this one, without a contradiction: its probe fails too
        n_colours = failed.shape[0] // masks.shape[0]
        for t in range(n_trail):
            value = final[t]
            if not value & (value - 1):  # one colour (never none: the probe failed)
                colour = np.int64(_lowest(np.uint64(value)))
                implied[np.uint64(trail[t] * n_colours + colour)] = version
    return False


#: The most int64 words the record of failed probes may take (32 MB):
#: larger puzzles probe without it.
RECALL_WORDS = 1 << 22
#: A puzzle of at most this many colours keeps each cell of a failed
#: probe's fixpoint and its mask in one 32-bit word (:func:`_probe`): the
#: record takes a quarter of the memory.  The kernel's arrays are fresh
#: pages on each call (glibc gives the top of its heap back when they are
#: freed), each a page fault: the record's two int64 arrays were 280 of
#: 00803's 400 a call.
MASK_BITS = 8
MASK_ALL = (1 << MASK_BITS) - 1


@njit(**JIT)
def _grade(
    masks, line_cells, line_offsets, cell_lines, cell_offsets, lens, cols, offs, work_budget, flags, log, when, stats
):
    """Solve ``masks`` (flat int64, in place) round by round with the
    easiest technique that finds something; ``log[r] = (level, cells)``,
    ``when[cell]``: the round that found the cell's colour (-1: never).

    Returns SOLVED, STALLED (probing found nothing: guessing needed),
    CONTRADICTION (``stats[ST_BAD_LINE]`` names the line, -1 for a
    probe's), LOG_FULL (``log`` too short: call again with a longer one) or
    BUDGET (probing used more than ``work_budget`` line solves).

    Probing goes round the board from the cell of the last probe that
    found something.  With ``RECALL`` in ``flags`` (and the record within
    ``RECALL_WORDS``) it skips probes known to fail: a colour that a failed
    probe of the same round decided, and a probe that failed before whose
    lines did not change since; a probe tried again goes on from the
    fixpoint it reached (:func:`_probe`).  The rounds are the same, with
    fewer line solves.  A black-and-white puzzle of lines of at most 63
    cells probes on its lines' words (:func:`_propagate`) unless ``flags``
    has ``GENERAL_PATH``: the same rounds, faster.
    """
    board = Board(line_cells, line_offsets, cell_lines, cell_offsets, lens, cols, offs)
    n_lines = line_offsets.shape[0] - 1
    n_cells = masks.shape[0]
    n_pos = line_cells.shape[0]
    nmax, kmax = _largest_line(line_offsets, offs)
    m = np.empty(nmax, dtype=np.int64)
    run = np.empty((kmax, nmax + 1), dtype=np.int64)
    fb = np.empty((kmax + 1, nmax + 2), dtype=np.uint8)
    fe = np.empty((kmax + 1, nmax + 2), dtype=np.uint8)
    bb = np.empty((kmax + 1, nmax + 2), dtype=np.uint8)
    be = np.empty((kmax + 1, nmax + 2), dtype=np.uint8)
    lo = np.empty(kmax, dtype=np.int64)
    hi = np.empty(kmax, dtype=np.int64)
    poss = np.empty(nmax, dtype=np.int64)
    diff = np.empty(nmax + 1, dtype=np.int64)
    forced = np.empty(nmax, dtype=np.int64)
    queue = np.empty(n_lines, dtype=np.int64)
    queued = np.empty(n_lines, dtype=np.uint8)
    use_bits = np.bool_(True)  # not the literal: _solve_line compiled once
    for g in range(lens.shape[0]):
        if cols[g] > MAX_COLOURS:  # more colours than the bit sets hold
            use_bits = False
    word = np.zeros(64, dtype=np.uint64)
    first = np.zeros(lens.shape[0], dtype=np.int64)
    last = np.zeros(lens.shape[0], dtype=np.int64)
    dp = (run, fb, fe, bb, be, diff)
    every = np.int64(0)
    for cell in range(n_cells):
        every |= masks[cell]
    n_colours = 1
    for colour in range(64):
        if every >> colour & 1:
            n_colours = colour + 1
    trail = np.empty(n_cells * n_colours, dtype=np.int64)
    held = np.empty(n_cells * n_colours, dtype=np.int64)
    n_words = (n_lines + 63) >> 6
    visited = np.zeros(n_words, dtype=np.int64)
    final = np.empty(n_cells * n_colours, dtype=np.int64)
    first_line = np.empty(n_cells, dtype=np.int64)  # each cell's first line
    for cell in range(n_cells):
        first_line[cell] = cell_lines[cell_offsets[cell]]
    work = Work(
        m, use_bits, word, first, last, dp, lo, hi, poss, queue, queued, trail, held, visited, final, first_line
    )
    # the word path (:func:`_propagate`): a black-and-white puzzle whose
    # lines have at most 63 cells, unless ``flags`` asks for the general path (tests)
    bw = (flags & GENERAL_PATH) == 0 and n_colours == 2 and nmax <= MAX_CELLS
    for g in range(lens.shape[0]):
        if cols[g] != 1:
            bw = False
    at = np.zeros(cell_lines.shape[0], dtype=np.uint8)  # each cell's place in its lines
    # each place of each line: the other lines through its cell
    # (``cross_line[cross[p]:cross[p + 1]]``) and the cell's place in them
    # (``cross_at``); ``primary[line]``: the places of the cells whose first line it is
    cross = np.zeros(n_pos + 1, dtype=np.int64)
    n_cross = 0
    if bw:
        for cell in range(n_cells):
            through = cell_offsets[cell + 1] - cell_offsets[cell]
            n_cross += through * (through - 1)
    cross_line = np.empty(n_cross, dtype=np.uint32)
    cross_at = np.empty(cross_line.shape[0], dtype=np.uint8)
    primary = np.zeros(n_lines, dtype=np.uint64)
    if bw:
        for line in range(n_lines):
            for p in range(line_offsets[line], line_offsets[line + 1]):
                cell = line_cells[p]
                for q in range(cell_offsets[cell], cell_offsets[cell + 1]):
                    if cell_lines[q] == line:
                        at[q] = p - line_offsets[line]
        r = 0
        for line in range(n_lines):
            for p in range(line_offsets[line], line_offsets[line + 1]):
                cell = line_cells[p]
                cross[p] = r
                if first_line[cell] == line:
                    primary[line] |= ONE << np.uint64(p - line_offsets[line])
                for q in range(cell_offsets[cell], cell_offsets[cell + 1]):
                    if cell_lines[q] != line:
                        cross_line[r] = cell_lines[q]
                        cross_at[r] = at[q]
                        r += 1
        cross[n_pos] = r
    on = np.zeros(1, dtype=np.uint8)
    lw = np.zeros(n_lines, dtype=np.uint64)
    lb = np.zeros(n_lines, dtype=np.uint64)
    words = Words(
        on,
        lw,
        lb,
        at,
        np.empty(64, dtype=np.uint64),
        np.zeros(n_lines, np.uint64),
        np.zeros(n_lines, np.uint64),
        cross,
        cross_line,
        cross_at,
        primary,
    )
    loaded = np.int64(-1)  # the version of masks the words were last loaded at
    # probes that failed (:func:`_probe`), by ``cell * n_colours + colour``
    probes = n_cells * n_colours
    remember = (flags & RECALL) != 0 and work_budget >= 0 and probes * (n_words + 3) <= RECALL_WORDS
    kept = probes if remember else 0
    pool = min(RECALL_WORDS // 2, 16 * probes) if remember else 0
    record = Record(
        np.full(kept, -1, dtype=np.int32),
        np.zeros((kept, n_words), dtype=np.int64),
        np.zeros(kept, dtype=np.int32),
        np.zeros(kept, dtype=np.int32),
        # a record is kept for fewer than 2^20 cells: a cell, and its mask
        # beside it, fit 32 bits
        np.empty(pool, dtype=np.uint32),
        np.empty(0 if n_colours <= MASK_BITS else pool, dtype=np.int64),
        np.zeros(1, dtype=np.int64),
        np.full(kept, -1, dtype=np.int32),
    )
    version = 0  # counts the rounds and probes that changed masks
    changed = np.zeros(n_lines, dtype=np.int64)  # the version that last changed each line
    res = np.empty((N_LINE_LEVELS, n_pos), dtype=np.int64)
    dirty = np.ones(n_lines, dtype=np.uint8)  # edges to redo
    stale = np.ones(n_lines, dtype=np.uint8)  # dynamic programme to redo
    news = np.zeros((N_LINE_LEVELS, n_lines), dtype=np.uint8)
    stamp = np.full(n_cells, -1, dtype=np.int64)
    stats[ST_BAD_LINE] = -1
    for line in range(n_lines):
        p0 = line_offsets[line]
        g0 = offs[line]
        n = line_offsets[line + 1] - p0
        k = offs[line + 1] - g0
        _bare_ranges(n, lens, cols, g0, k, lo, hi)
        _overlap(n, lens, cols, g0, k, lo, hi, res[0, p0:], forced)
        _mark(masks, line_cells, res, p0, n, np.int64(0), np.int64(1), line, news)
    rounds = 0
    probe_from = 0
    open_cells = 0  # kept up to date, not counted again before each round of probing
    for cell in range(n_cells):
        if masks[cell] & (masks[cell] - 1):
            open_cells += 1
    while True:
        # edges (cheap) for every changed line; the dynamic programme only
        # when overlap and edges find nothing anywhere
        for line in range(n_lines):
            if not dirty[line]:
                continue
            dirty[line] = 0
            p0, g0, n, k = _load_line(masks, line_cells, line_offsets, offs, line, m)
            if not _pushed_ranges(m, n, lens, cols, g0, k, lo, hi):
                stats[ST_BAD_LINE] = line
                stats[ST_ROUNDS] = rounds
                return CONTRADICTION
            _overlap(n, lens, cols, g0, k, lo, hi, res[1, p0:], forced)
            _complete(m, n, lens, cols, g0, k, res[1, p0:])
            for i in range(n):
                res[1, p0 + i] &= m[i]
            _mark(masks, line_cells, res, p0, n, np.int64(0), np.int64(2), line, news)
        level = _first_level(news, np.int64(0), np.int64(2))
        if not level:
            for line in range(n_lines):
                if not stale[line]:
                    continue
                stale[line] = 0
                p0, g0, n, k = _load_line(masks, line_cells, line_offsets, offs, line, m)
                stats[ST_LINE_DPS] += 1
                if not _solve_line(m, n, lens, cols, g0, k, use_bits, word, first, last, dp, lo, hi, poss):
                    stats[ST_BAD_LINE] = line
                    stats[ST_ROUNDS] = rounds
                    return CONTRADICTION
                # joining and splitting: the exact first and last placements
                _overlap(n, lens, cols, g0, k, lo, hi, res[2, p0:], forced)
                _split(m, n, lens, cols, g0, k, lo, hi, res[2, p0:])
                for i in range(n):
                    res[2, p0 + i] &= res[1, p0 + i]
                    res[3, p0 + i] = res[2, p0 + i] & poss[i]
                _mark(masks, line_cells, res, p0, n, np.int64(2), np.int64(4), line, news)
            level = _first_level(news, np.int64(2), np.int64(4))
        found = 0
        version += 1
        if level:
            for line in range(n_lines):
                if not news[level - 1, line]:
                    continue
                for p in range(line_offsets[line], line_offsets[line + 1]):
                    cell = line_cells[p]
                    new = masks[cell] & res[level - 1, p]
                    if new == masks[cell]:
                        continue
                    if new == 0:
                        stats[ST_BAD_LINE] = -1
                        stats[ST_ROUNDS] = rounds
                        return CONTRADICTION
                    masks[cell] = new
                    if not new & (new - 1):
                        when[cell] = rounds
                        open_cells -= 1
                    if stamp[cell] != rounds:
                        stamp[cell] = rounds
                        found += 1
                        for q in range(cell_offsets[cell], cell_offsets[cell + 1]):
                            dirty[cell_lines[q]] = 1
                            stale[cell_lines[q]] = 1
                            changed[cell_lines[q]] = version
                if not dirty[line]:
                    news[level - 1, line] = 0  # nothing of it was new after all
        else:
            if open_cells == 0:
                stats[ST_ROUNDS] = rounds
                return SOLVED
            if bw:
                on[0] = 1
                _load_words(masks, board, words, changed, loaded)
                loaded = version
            # probing: from where the last successful probe was, once round the board
            cell = probe_from - 1
            for _ in range(n_cells):
                cell += 1
                if cell == n_cells:
                    cell = 0
                bits = masks[cell]
                if not bits & (bits - 1):
                    continue
                for colour in range(64):
                    bit = np.int64(1) << colour
                    if not bits & bit:
                        continue
                    if stats[ST_LINE_DPS] > work_budget:
                        stats[ST_ROUNDS] = rounds
                        return BUDGET
                    probe = cell * n_colours + colour
                    # a probe that failed since masks last changed decided the cell to this colour: fails too
                    if remember and record.implied[probe] == version:
                        continue
                    if _probe(masks, board, work, words, stats, cell, bit, probe, record, changed, version):
                        on[0] = 0
                        masks[cell] &= ~bit
                        if not masks[cell] & (masks[cell] - 1):
                            when[cell] = rounds
                            open_cells -= 1
                        found = 1
                        level = PROBE
                        probe_from = cell
                        version += 1
                        for q in range(cell_offsets[cell], cell_offsets[cell + 1]):
                            dirty[cell_lines[q]] = 1
                            stale[cell_lines[q]] = 1
                            changed[cell_lines[q]] = version
                        break
                if found:
                    break
            if not found:
                stats[ST_ROUNDS] = rounds
                return STALLED
            if masks[cell] == 0:
                stats[ST_ROUNDS] = rounds
                return CONTRADICTION
        if rounds == log.shape[0]:
            stats[ST_ROUNDS] = rounds
            return LOG_FULL
        log[rounds, 0] = level
        log[rounds, 1] = found
        rounds += 1
