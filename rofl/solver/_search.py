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
  solution and is recorded.
* **branching** splits a node that probing cannot narrow into ``cell ==
  colour`` and ``cell != colour``; the cell is the one whose probes narrowed
  the grid the most in their weakest branch.  Pending nodes live on an
  explicit stack of mask snapshots.

The search stops at ``max_solutions`` distinct solutions, when the tree is
exhausted, or when the node or time budget runs out.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit, objmode

from rofl.solver._config import SEARCH_JIT
from rofl.solver._kernels import CONTRADICTION, SOLVED, STALLED, _propagate

# return codes of _search
DONE, BUDGET = 0, 1

# stats slots
ST_NODES, ST_PROBES, ST_LINE_SOLVES, ST_N_SOLUTIONS, ST_MAX_DEPTH, ST_SPLITS = 0, 1, 2, 3, 4, 5
N_STATS = 6

# how many probes between two looks at the clock (a look costs ~1 us)
_CLOCK_EVERY = 16


@njit(**SEARCH_JIT)
def _now():
    # numba has no clock of its own; object mode costs about a microsecond
    with objmode(t="float64"):
        t = time.perf_counter()
    return t


@njit(**SEARCH_JIT)
def _prop(masks, queue, ctx, use_cache, pstats, stats):
    """``_propagate`` on ``masks`` from the lines in ``queue``; counts line solves."""
    lens, cols, offs, clue_hash, run, fwd, bwd, ckey, cclue, clen, cin, cout = ctx
    st = _propagate(
        masks, lens, cols, offs, clue_hash, queue, run, fwd, bwd, ckey, cclue, clen, cin, cout, use_cache, pstats
    )
    stats[ST_LINE_SOLVES] += pstats[0]
    return st


@njit(**SEARCH_JIT)
def _add_solution(masks, sols, stats):
    """Record ``masks`` (all cells single-bit) unless it is already known.

    Returns the number of distinct solutions now known.
    """
    n = stats[ST_N_SOLUTIONS]
    height, width = masks.shape
    for s in range(n):
        same = True
        for r in range(height):
            for c in range(width):
                if sols[s, r, c] != masks[r, c]:
                    same = False
                    break
            if not same:
                break
        if same:
            return n
    if n < sols.shape[0]:
        sols[n, :, :] = masks
        n += 1
        stats[ST_N_SOLUTIONS] = n
    return n


@njit(**SEARCH_JIT)
def _count_undetermined(masks):
    k = 0
    for m in masks.ravel():
        if m & (m - 1):
            k += 1
    return k


# probe_node results beyond SOLVED / STALLED / CONTRADICTION
_ENOUGH = 3  # max_solutions reached
_OUT_OF_TIME = 4


@njit(**SEARCH_JIT)
def _probe_node(cur, ctx, use_cache, tmp, acc, score, first, sols, max_solutions, stats, deadline, pstats):
    """Probe every undetermined cell of ``cur`` until no probe narrows it.

    Cells are visited cyclically; the loop ends once every undetermined cell
    has been probed since the last change, so ``score`` / ``first`` of every
    undetermined cell describe the final ``cur``: ``score`` the product of
    ``1 + newly determined cells`` over the cell's surviving colours,
    ``first`` the colour bit whose probe determined the most.

    Returns SOLVED, STALLED, CONTRADICTION, _ENOUGH or _OUT_OF_TIME.
    """
    height, width = cur.shape
    n = height * width
    q2 = np.empty(2, dtype=np.int64)
    mark = np.zeros(height + width, dtype=np.bool_)
    lines = np.empty(height + width, dtype=np.int64)
    n_und = _count_undetermined(cur)
    if n_und == 0:
        return SOLVED
    flat = cur.ravel()
    tflat = tmp.ravel()
    aflat = acc.ravel()
    quiet = 0
    p = 0
    while quiet < n_und:
        m = flat[p]
        if (m & (m - 1)) == 0:
            p += 1
            if p == n:
                p = 0
            continue
        r = p // width
        c = p - r * width
        mm = m
        ok_bits = np.int64(0)
        prod = 1.0
        best_gain = -1
        best_bit = np.int64(0)
        while mm != 0:
            low = mm & -mm
            mm ^= low
            tmp[:, :] = cur
            tmp[r, c] = low
            q2[0] = r
            q2[1] = height + c
            st = _prop(tmp, q2, ctx, use_cache, pstats, stats)
            stats[ST_PROBES] += 1
            if deadline > 0 and stats[ST_PROBES] % _CLOCK_EVERY == 0 and _now() > deadline:
                return _OUT_OF_TIME
            if st == CONTRADICTION:
                continue
            if st == SOLVED:
                if _add_solution(tmp, sols, stats) >= max_solutions:
                    return _ENOUGH
            gain = 0
            if ok_bits == 0:
                for i in range(n):
                    t = tflat[i]
                    aflat[i] = t
                    f = flat[i]
                    if (f & (f - 1)) != 0 and (t & (t - 1)) == 0:
                        gain += 1
            else:
                for i in range(n):
                    t = tflat[i]
                    aflat[i] |= t
                    f = flat[i]
                    if (f & (f - 1)) != 0 and (t & (t - 1)) == 0:
                        gain += 1
            ok_bits |= low
            prod *= gain + 1.0
            if gain > best_gain:
                best_gain = gain
                best_bit = low
        if ok_bits == 0:
            return CONTRADICTION
        # keep what every surviving branch agrees on
        changed = False
        for i in range(n):
            nm = flat[i] & aflat[i]
            if nm != flat[i]:
                flat[i] = nm
                rr = i // width
                if not mark[rr]:
                    mark[rr] = True
                cc = height + i - rr * width
                if not mark[cc]:
                    mark[cc] = True
                changed = True
        if changed:
            k = 0
            for line in range(height + width):
                if mark[line]:
                    lines[k] = line
                    k += 1
                    mark[line] = False
            st = _prop(cur, lines[:k], ctx, use_cache, pstats, stats)
            if st != STALLED:
                return st
            n_und = _count_undetermined(cur)
            quiet = 0
        else:
            score[p] = prod
            first[p] = best_bit
            quiet += 1
        p += 1
        if p == n:
            p = 0
    return STALLED


@njit(**SEARCH_JIT)
def _search(
    root,
    lens,
    cols,
    offs,
    clue_hash,
    run,
    fwd,
    bwd,
    ckey,
    cclue,
    clen,
    cin,
    cout,
    use_cache,
    sols,
    max_solutions,
    node_budget,
    deadline,
    stats,
):
    """Find up to ``max_solutions`` distinct solutions below ``root``.

    Parameters
    ----------
    root : (H, W) int64 masks, a line-logic fixpoint (not modified)
    lens, cols, offs, clue_hash : the clues, as for ``_propagate``
    run, fwd, bwd : line work buffers; ckey..cout, use_cache : line cache
    sols : (>= max_solutions, H, W) int64, receives the solutions (single-bit masks)
    max_solutions : stop after this many distinct solutions
    node_budget : stop after this many search nodes (<= 0: no limit)
    deadline : stop when ``time.perf_counter()`` passes it (<= 0: no limit)
    stats : (N_STATS,) int64, receives nodes, probes, line solves, solutions
        found, the deepest stack, splits

    Returns
    -------
    DONE (the tree is exhausted or enough solutions were found: the count is
    ``stats[ST_N_SOLUTIONS]``) or BUDGET.
    """
    ctx = (lens, cols, offs, clue_hash, run, fwd, bwd, ckey, cclue, clen, cin, cout)
    height, width = root.shape
    n = height * width
    pstats = np.zeros(8, dtype=np.int64)
    tmp = np.empty((height, width), dtype=np.int64)
    acc = np.empty((height, width), dtype=np.int64)
    score = np.zeros(n, dtype=np.float64)
    first = np.zeros(n, dtype=np.int64)
    q2 = np.empty(2, dtype=np.int64)

    cap = 16
    stack = np.empty((cap, height, width), dtype=np.int64)
    stack_cell = np.empty(cap, dtype=np.int64)
    stack[0, :, :] = root
    stack_cell[0] = -1
    top = 1
    cur = np.empty((height, width), dtype=np.int64)
    while top > 0:
        top -= 1
        cur[:, :] = stack[top]
        cell = stack_cell[top]
        stats[ST_NODES] += 1
        if node_budget > 0 and stats[ST_NODES] > node_budget:
            return BUDGET
        if cell >= 0:
            r = cell // width
            q2[0] = r
            q2[1] = height + cell - r * width
            st = _prop(cur, q2, ctx, use_cache, pstats, stats)
            if st == CONTRADICTION:
                continue
        st = _probe_node(cur, ctx, use_cache, tmp, acc, score, first, sols, max_solutions, stats, deadline, pstats)
        if st == _OUT_OF_TIME:
            return BUDGET
        if st == _ENOUGH:
            return DONE
        if st == CONTRADICTION:
            continue
        if st == SOLVED:
            if _add_solution(cur, sols, stats) >= max_solutions:
                return DONE
            continue

        # branch on the cell whose weakest probe still narrows the most
        best = -1
        best_score = -1.0
        flat = cur.ravel()
        for i in range(n):
            m = flat[i]
            if (m & (m - 1)) != 0 and score[i] > best_score:
                best_score = score[i]
                best = i
        bit = first[best]
        if bit & flat[best] == 0:  # cannot happen after a full probe pass; stay safe
            bit = flat[best] & -flat[best]
        if top + 2 > cap:
            bigger = np.empty((cap * 2, height, width), dtype=np.int64)
            bigger[:top] = stack[:top]
            stack = bigger
            bigger_cell = np.empty(cap * 2, dtype=np.int64)
            bigger_cell[:top] = stack_cell[:top]
            stack_cell = bigger_cell
            cap *= 2
        r = best // width
        c = best - r * width
        # cell != colour, explored second
        stack[top, :, :] = cur
        stack[top, r, c] = flat[best] & ~bit
        stack_cell[top] = best
        # cell == colour, explored first
        stack[top + 1, :, :] = cur
        stack[top + 1, r, c] = bit
        stack_cell[top + 1] = best
        top += 2
        if top > stats[ST_MAX_DEPTH]:
            stats[ST_MAX_DEPTH] = top
    return DONE
