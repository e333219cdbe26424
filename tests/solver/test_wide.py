"""Colour lines on bit sets: one word (rofl.kernels._bits._line_colours)
and several (rofl.kernels._wide._line_wide), their answers against brute
force and placements, and their groups' start bounds against the DP's."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rofl.kernels import _wide as wide
from rofl.kernels._bits import MAX_GROUPS, _line_colours
from rofl.kernels._fresh import _new_line_scratch
from rofl.kernels._line import _solve_line_dp
from tests import naive
from tests.solver.test_fast import _same


def _groups(clue):
    groups = np.array(clue, dtype=np.int64).reshape(-1, 2)
    return np.ascontiguousarray(groups[:, 0]), np.ascontiguousarray(groups[:, 1])


def solve_with(kind: str, cells, clue, bounds: bool = False):
    """One line by ``kind`` ("colours", "wide" or "dp"): the answer (None: no
    arrangement fits) and, with ``bounds``, the groups' start bounds found."""
    cells = np.asarray(cells, dtype=np.int64)
    n = len(cells)
    lens, cols = _groups(clue)
    k = len(lens)
    out = np.empty(n, dtype=np.int64)
    first, last = np.zeros(k, dtype=np.int64), np.full(k, n, dtype=np.int64)
    if not bounds:
        first = last = first[:0]
    if kind == "colours":
        ok = _line_colours(cells, n, lens, cols, 0, k, out, np.empty(64, dtype=np.uint64), first, last, 0)
    elif kind == "wide":
        ws = np.empty((wide.rows(k), wide.MAX_WORDS), dtype=np.uint64)
        ok = wide._line_wide(cells, n, lens, cols, 0, k, out, ws, np.empty(64, dtype=np.int64), first, last, 0)
    else:
        scratch = _new_line_scratch(k, n)
        ok = _solve_line_dp(cells, n, lens, cols, 0, k, out, *scratch, first, last, 0)
    answer = out if ok else None
    return (answer, first, last) if bounds else answer


@pytest.mark.parametrize(("n", "n_colors"), [(1, 2), (5, 2), (8, 2), (4, 3), (6, 3), (5, 4)])
def test_every_clue_and_many_states(n, n_colors):
    """Every clue of ``n`` cells, on free, known, half-known and partly
    empty lines, against listing every filling."""
    f, by_clue = naive.fillings(n, n_colors)
    full = (1 << n_colors) - 1
    known = np.int64(1) << f
    rng = np.random.default_rng(n * 10 + n_colors)
    for clue in by_clue:
        if not clue:
            continue  # the callers hand lines without groups elsewhere
        rows = by_clue[clue]
        states = [np.full(n, full), *known[rows[:: max(1, len(rows) // 5)]]]
        states += [np.where(rng.random(n) < 0.5, full, known[i]) for i in rows[:: max(1, len(rows) // 5)]]
        states += [rng.integers(0, full + 1, n) for _ in range(5)]  # some cells with no colour left
        for cells in states:
            want = naive.brute_line(cells, clue, n_colors)
            _same(solve_with("colours", cells, clue), want, ("colours", clue, cells.tolist()))
            _same(solve_with("wide", cells, clue), want, ("wide", clue, cells.tolist()))


@st.composite
def lines(draw, longest: int):
    """A line of up to ``longest`` cells in 2-5 colours: some cells known from
    a picture, the others free or narrowed at random; the clue the
    picture's or another's."""
    n = draw(st.integers(1, longest))
    n_colors = draw(st.integers(2, 5))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    ink = draw(st.floats(0.1, 0.9))
    truth = np.where(rng.random(n) < ink, rng.integers(1, n_colors, n), 0)
    clue = naive.clue_of(truth)
    if draw(st.booleans()):
        clue = naive.clue_of(np.where(rng.random(n) < ink, rng.integers(1, n_colors, n), 0))
    if not clue:
        clue = ((1, 1),)
    full = (1 << n_colors) - 1
    cells = np.full(n, full, dtype=np.int64)
    known = rng.random(n) < draw(st.floats(0, 1))
    cells[known] = np.int64(1) << truth[known]
    narrowed = rng.random(n) < draw(st.floats(0, 0.5))
    cells[narrowed] &= rng.integers(0, full + 1, n)[narrowed] | (np.int64(1) << truth[narrowed])
    return cells, clue


@settings(max_examples=300, deadline=None)
@given(lines(63))
def test_one_word_against_placements(line):
    cells, clue = line
    if len(clue) > MAX_GROUPS:
        clue = clue[:MAX_GROUPS]
    n, k = len(cells), len(clue)
    slack = n - naive.min_cells(clue)
    if slack < 0:  # the clue needs more cells than the line has
        want = None
    elif math.comb(slack + k, k) <= 300:
        want = naive.placement_line(cells, clue)
    else:
        want = solve_with("dp", cells, clue)
    _same(solve_with("colours", cells, clue), want, (clue, cells.tolist()))


@settings(max_examples=300, deadline=None)
@given(lines(wide.MAX_CELLS))
def test_several_words_and_bounds_against_the_dp(line):
    """Lines up to 511 cells (one to eight words): the answer and every
    group's lowest and highest valid start, as the DP finds them."""
    cells, clue = line
    _same_with_bounds("wide", cells, clue)


def test_bounds_of_one_word_against_the_dp():
    rng = np.random.default_rng(3)
    for _ in range(300):
        n = int(rng.integers(1, 64))
        truth = np.where(rng.random(n) < 0.6, rng.integers(1, 4, n), 0)
        clue = naive.clue_of(truth)[:MAX_GROUPS] or ((1, 1),)
        cells = np.where(rng.random(n) < 0.3, np.int64(1) << truth, 15).astype(np.int64)
        _same_with_bounds("colours", cells, clue)


def _same_with_bounds(kind: str, cells, clue) -> None:
    """``kind``'s answer and start bounds are the DP's."""
    got, got_first, got_last = solve_with(kind, cells, clue, bounds=True)
    want, want_first, want_last = solve_with("dp", cells, clue, bounds=True)
    _same(got, want, (kind, clue, cells.tolist()))
    if want is not None:
        np.testing.assert_array_equal(got_first, want_first)
        np.testing.assert_array_equal(got_last, want_last)
