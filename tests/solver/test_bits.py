"""Black-and-white line logic on bit sets (rofl.kernels._bits): one line
against brute force and placements, whole solves against the reference
kernel (the corpus's and random puzzles, up to 63 cells a side)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from rofl.kernels._bits import MAX_CELLS, _line_bw
from rofl.kernels._fresh import _new_line_scratch
from rofl.kernels._line import _solve_line_dp
from rofl.kernels.structs import ALL_RULES, BITS
from rofl.puzzle import Palette, Puzzle
from rofl.solver import LineSolver, solve
from tests import naive
from tests.solver.test_fast import _same, fast_line


def bits_line(cells, clue) -> np.ndarray | None:
    """:func:`_line_bw` on one line of int64 masks (bit 0 background, bit 1
    black), its answer as such masks (None: no arrangement fits)."""
    cells = [int(c) for c in cells]
    n = len(cells)
    w = sum((c & 1) << i for i, c in enumerate(cells))
    b = sum(((c >> 1) & 1) << i for i, c in enumerate(cells))
    lens = np.array([length for length, _ in clue] or [0], dtype=np.int64)
    k = len(clue)
    ok, nw, nb = _line_bw(np.uint64(w), np.uint64(b), n, lens, 0, k, np.empty(64, dtype=np.uint64))
    if not ok:
        return None
    nw, nb = int(nw), int(nb)
    return np.array([((nw >> i) & 1) | (((nb >> i) & 1) << 1) for i in range(n)], dtype=np.int64)


@pytest.mark.parametrize("n", [1, 2, 5, 8])
def test_every_clue_and_many_states(n):
    """Every clue of ``n`` cells, on free, known, half-known and partly
    empty lines, against listing every filling (and the DP too)."""
    f, by_clue = naive.fillings(n, 2)
    known = np.int64(1) << f
    rng = np.random.default_rng(n)
    for clue in [*by_clue, ((n + 1, 1),), ((1, 1),) * n]:  # and two clues that fit no line
        states = [np.full(n, 3), *known[:: max(1, len(known) // 20)]]
        states += [np.where(rng.random(n) < 0.5, 3, cells) for cells in known[:: max(1, len(known) // 20)]]
        states += [rng.integers(0, 4, n) for _ in range(10)]  # some cells with no colour left
        for cells in states:
            want = naive.brute_line(cells, clue, 2)
            _same(bits_line(cells, clue), want, (clue, cells.tolist()))
            _same(dp_line(cells, clue), want, (clue, cells.tolist()))  # the DP, which longer lines take


@st.composite
def lines(draw):
    """A line of up to 63 cells: some cells known from a picture, others
    free; the clue the picture's or another's."""
    n = draw(st.integers(1, MAX_CELLS))
    truth = draw(arrays(np.int64, n, elements=st.integers(0, 1)))
    clue = naive.clue_of(truth)
    if draw(st.booleans()):
        clue = naive.clue_of(draw(arrays(np.int64, n, elements=st.integers(0, 1))))
    known = draw(arrays(np.bool_, n, elements=st.booleans()))
    if draw(st.booleans()):
        known[:] = False
    cells = np.where(known, np.int64(1) << truth, 3)
    return cells, clue


def dp_line(cells, clue) -> np.ndarray | None:
    """The colour DP (``_solve_line_dp``, itself checked against brute force
    in test_line_kernel.py) on one line."""
    cells = np.asarray(cells, dtype=np.int64)
    n = len(cells)
    groups = np.array(clue, dtype=np.int64).reshape(-1, 2)
    out = np.empty(n, dtype=np.int64)
    lens, cols = np.ascontiguousarray(groups[:, 0]), np.ascontiguousarray(groups[:, 1])
    scratch = _new_line_scratch(len(groups), n)
    ok = _solve_line_dp(cells, n, lens, cols, 0, len(groups), out, *scratch, scratch[1][:0], scratch[1][:0], 0)
    return out if ok else None


@settings(max_examples=300, deadline=None)
@given(lines())
def test_long_lines_against_placements(line):
    """Against listing placements where they are few, else against the
    colour DP."""
    cells, clue = line
    n, k = len(cells), len(clue)
    slack = n - sum(length for length, _ in clue) - max(k - 1, 0)
    want = naive.placement_line(cells, clue) if slack < 0 or math.comb(slack + k, k) <= 300 else dp_line(cells, clue)
    _same(bits_line(cells, clue), want, (clue, cells.tolist()))


def _assert_same_solve(puzzle: Puzzle) -> None:
    got = solve(puzzle)
    want = LineSolver(cache_mb=0).solve(puzzle)
    assert got.status == want.status
    np.testing.assert_array_equal(got.masks, want.masks)
    assert (got.line_solves, got.sweeps, got.bad_line) == (want.line_solves, want.sweeps, want.bad_line)


@st.composite
def puzzles(draw):
    """Black-and-white puzzles up to 63 cells a side from random pictures
    (some with two row clues swapped: often no solution)."""
    height, width = draw(st.integers(1, MAX_CELLS)), draw(st.integers(1, MAX_CELLS))
    density = draw(st.floats(0.2, 0.8))
    seed = draw(st.integers(0, 2**32 - 1))
    grid = (np.random.default_rng(seed).random((height, width)) < density).astype(np.uint8)
    rows, cols = naive.clues_of_grid(grid)
    if draw(st.booleans()):
        i, j = draw(st.integers(0, height - 1)), draw(st.integers(0, height - 1))
        rows[i], rows[j] = rows[j], rows[i]
    return Puzzle(width, height, Palette([(255, 255, 255), (0, 0, 0)]), rows, cols)


@settings(max_examples=150, deadline=None)
@given(puzzles())
def test_puzzles_same_as_reference(puzzle):
    _assert_same_solve(puzzle)


def test_bits_is_part_of_the_lean_path():
    assert ALL_RULES & BITS


@pytest.mark.parametrize("n_colors", [3, 4])
def test_lines_of_one_colour_in_colour_puzzles(n_colors):
    """``_solve_line`` hands a line whose groups share one colour to the bit
    sets, whatever that colour and the other colours its cells still allow."""
    n = 6
    f, by_clue = naive.fillings(n, n_colors)
    full = (1 << n_colors) - 1
    rng = np.random.default_rng(n_colors)
    one_colour = [clue for clue in by_clue if len({c for _, c in clue}) <= 1]
    assert len(one_colour) > 10
    for clue in one_colour:
        for cells in [np.full(n, full), *(rng.integers(0, full + 1, n) for _ in range(20))]:
            cells = cells.astype(np.int64)
            _same(fast_line(cells, clue, rules=0), naive.brute_line(cells, clue, n_colors), (clue, cells.tolist()))
