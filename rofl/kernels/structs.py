"""The line-logic kernels' status codes, ``stats`` slots and named
structures, without numba.

:mod:`rofl.kernels._line` defines the kernels and re-exports all of this;
the Python wrappers (:mod:`rofl.solver.line_logic`) read it from here, so
that a solve through the ahead-of-time compiled line logic
(:mod:`rofl.kernels._aot`) never imports numba.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

SOLVED, STALLED, CONTRADICTION = 0, 1, 2
#: :func:`_propagate_trail` saw ``stats[ST_STOP]`` set and gave up
STOPPED = 3

# stats slots filled by _propagate
ST_LINE_SOLVES, ST_SWEEPS, ST_HITS, ST_MISSES, ST_BAD_LINE, ST_TRAIL, ST_NEWLY = 0, 1, 2, 3, 4, 5, 6
# ... and the one slot it reads: another thread sets it to stop the loop
# (rofl.solver._stop), as a Python signal handler cannot run while the
# kernel holds the thread
ST_STOP = 7
N_STATS = 8

# the index-line kernels' stats (rofl.kernels._index: hexagons and '?' groups),
# with their own stop slot
INDEX_LINE_SOLVES, INDEX_SWEEPS, INDEX_BAD_LINE, INDEX_STOP = 0, 1, 2, 3
INDEX_N_STATS = 4

#: Shortcuts the lean path's line solve may take (:func:`rofl.kernels._fresh._line`;
#: a bit set, ``benchmarks/line_profile.py`` measures them one by one): lines
#: that allow every colour of their clue, lines whose cells are all known, the
#: DP only between the known ends; black-and-white puzzles of at most 63
#: cells a side on bit sets (:mod:`rofl.kernels._bits`); the DP only over the
#: starts each group still had at its line's last solve.
FREE, KNOWN, TRIM, BITS, BOUNDS = 1, 2, 4, 8, 16
ALL_RULES = FREE | KNOWN | TRIM | BITS | BOUNDS

# ------------------------------------------------------- named structures


class Clues(NamedTuple):
    """A puzzle's clues in the kernels' types (all int64, writable).

    Line ``i``'s groups are ``lens[starts[i]:ends[i]]`` and
    ``cols[starts[i]:ends[i]]``, so a kernel can relocate one line's clue
    (a candidate change) without moving the others; ``hashes[i]`` is the
    hash of line ``i``'s clue, the line cache's key.
    """

    lens: np.ndarray
    cols: np.ndarray
    starts: np.ndarray
    ends: np.ndarray
    hashes: np.ndarray


class LineScratch(NamedTuple):
    """Work arrays of the line DP (:func:`_solve_line`), for clues of up to
    ``kmax`` groups and lines of up to ``nmax`` cells."""

    run: np.ndarray  # (kmax, nmax + 1) int64
    slot: np.ndarray  # (kmax,) int64
    gap: np.ndarray  # (kmax,) int64
    fwd: np.ndarray  # (kmax + 1, nmax + 2) uint8
    bwd: np.ndarray  # (kmax + 1, nmax + 2) uint8
    color_slot: np.ndarray  # (64,) int64


class LineCache(NamedTuple):
    """The line cache (see :func:`_cached_line`): ``tag`` ``(entries, 4)``
    int64, ``io`` ``(entries, 2 * nmax)`` uint8 or int64; unused (``use``
    False) when the solver has none."""

    tag: np.ndarray
    io: np.ndarray
    use: bool


class Trail(NamedTuple):
    """Where :func:`_propagate_trail` logs the first change of every cell
    (``cell``, ``old``: capacity ``H * W``), with ``stamp`` (``H * W``)
    marking cells already logged; empty arrays when nothing is logged."""

    cell: np.ndarray
    old: np.ndarray
    stamp: np.ndarray


class PropagationScratch(NamedTuple):
    """Work arrays of :func:`_propagate_trail` (``queued`` all False between calls)."""

    buf: np.ndarray  # (nmax,) int64: a line's masks
    res: np.ndarray  # (nmax,) int64: what the line solve made of them
    queue: np.ndarray  # (H + W,) int64
    generation: np.ndarray  # (H + W,) int64
    queued: np.ndarray  # (H + W,) bool


def set_color(mask: int) -> int:
    """The ``cols`` entry of a group that may take any colour of ``mask``
    (bit ``c``: colour ``c``; bit 0, the background, is never set): the
    negative number ``~(mask >> 1)``, which no single colour can be."""
    return ~(int(mask) >> 1)
