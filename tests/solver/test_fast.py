"""The lean one-shot path (rofl.kernels._fresh): its line shortcuts against brute
force, and whole solves against the reference propagation kernel."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from rofl.formats.corpus import load
from rofl.kernels._fresh import ALL_RULES, FREE, KNOWN, TRIM, _line, _new_line_scratch
from rofl.puzzle import Palette, Puzzle
from rofl.solver import LineSolver, solve
from tests import naive
from tests.places import CORPUS, needs_corpus

RULES = (0, FREE, KNOWN, TRIM, ALL_RULES)
CORPUS_FILES = sorted(CORPUS.glob("*/*.json"))


def fast_line(cells, clue, rules: int = ALL_RULES) -> np.ndarray | None:
    """:func:`_line` on one line, with work buffers of the right size."""
    cells = np.asarray(cells, dtype=np.int64)
    n = len(cells)
    groups = np.array(clue, dtype=np.int64).reshape(-1, 2)
    out = np.empty(n, dtype=np.int64)
    scratch = _new_line_scratch(len(groups), n)
    lens, cols = np.ascontiguousarray(groups[:, 0]), np.ascontiguousarray(groups[:, 1])
    first, last = np.zeros(len(groups), dtype=np.int64), np.full(len(groups), n, dtype=np.int64)
    ok = _line(cells, n, lens, cols, 0, len(groups), out, *scratch, rules, first, last)
    return out if ok else None


def _same(got, want, context) -> None:
    if want is None:
        assert got is None, context
    else:
        assert got is not None, context
        np.testing.assert_array_equal(got, want, err_msg=str(context))


@pytest.mark.parametrize(("n", "n_colors"), [(1, 2), (4, 2), (7, 2), (9, 2), (3, 3), (6, 3), (5, 4)])
def test_shortcuts_on_every_clue(n, n_colors):
    """Free lines (every colour possible, or just the clue's) and known lines
    (every filling, so most do not give the clue) against brute force."""
    f, by_clue = naive.fillings(n, n_colors)
    full = (1 << n_colors) - 1
    known = np.int64(1) << f
    shortcuts = {FREE: 0, KNOWN: 0}  # lines each shortcut applies to
    for clue in by_clue:
        need = 1 | sum(1 << c for _, c in clue)
        states = [np.full(n, full), np.full(n, need), *known[:: max(1, len(known) // 40)]]
        states.append(np.where(np.arange(n) == n // 2, 0, np.full(n, full)))  # a cell with no colour left
        own = known[by_clue[clue][:: max(1, len(by_clue[clue]) // 10)]]  # fillings of this clue
        middle = (np.arange(n) >= n // 3) & (np.arange(n) <= 2 * n // 3)
        states += [np.where(middle, full, cells) for cells in own]  # known ends, unknown middle
        states += [np.where(middle, cells, full) for cells in own]  # unknown ends
        for cells in states:
            want = naive.brute_line(cells, clue, n_colors)
            for rules in RULES:
                _same(fast_line(cells, clue, rules), want, (clue, cells.tolist(), rules))
            free = all(c & need == need for c in cells)
            shortcuts[FREE] += free
            shortcuts[KNOWN] += not free and all(c & (c - 1) == 0 for c in cells)
    assert shortcuts[FREE] and shortcuts[KNOWN]  # both shortcuts were taken


@st.composite
def lines(draw):
    """A line's cells (free, known, narrowed or mixed) and a clue, often its own."""
    n = draw(st.integers(1, 14))
    n_colors = draw(st.integers(2, 4))
    truth = draw(arrays(np.int64, n, elements=st.integers(0, n_colors - 1)))
    clue = naive.clue_of(truth)
    if draw(st.booleans()):  # someone else's clue: often no filling
        clue = naive.clue_of(draw(arrays(np.int64, n, elements=st.integers(0, n_colors - 1))))
    full = (1 << n_colors) - 1
    kind = draw(st.sampled_from(["free", "known", "mixed"]))
    if kind == "free":
        cells = np.full(n, full, dtype=np.int64)
    elif kind == "known":
        cells = np.int64(1) << truth
    else:
        noise = draw(arrays(np.int64, n, elements=st.integers(0, full)))
        cells = np.where(noise & 1, full, (np.int64(1) << truth) | (noise >> 1))
    return cells.astype(np.int64), clue


@settings(max_examples=400, deadline=None)
@given(lines())
def test_line_against_placements(line):
    cells, clue = line
    want = naive.placement_line(cells, clue)
    _same(fast_line(cells, clue), want, (clue, cells.tolist()))


def _assert_same_solve(puzzle: Puzzle, context) -> None:
    """``rofl.solve`` (the lean path) and the reference propagation agree in everything."""
    got = solve(puzzle)
    want = LineSolver(cache_mb=0).solve(puzzle)
    assert got.status == want.status, context
    np.testing.assert_array_equal(got.masks, want.masks, err_msg=str(context))
    assert (got.line_solves, got.sweeps, got.bad_line) == (want.line_solves, want.sweeps, want.bad_line), context
    assert (got.cache_hits, got.cache_misses) == (0, got.line_solves)


@needs_corpus
def test_corpus_same_as_reference():
    for path in CORPUS_FILES:
        _assert_same_solve(load(path)[0], path)


@st.composite
def puzzles(draw):
    """Small puzzles from random pictures, some with two row clues swapped or
    one reversed (the colour totals still agree; many have no solution)."""
    height, width = draw(st.integers(1, 9)), draw(st.integers(1, 9))
    n_colors = draw(st.integers(2, 4))
    grid = draw(arrays(np.uint8, (height, width), elements=st.integers(0, n_colors - 1)))
    palette = Palette([(255, 255, 255), (0, 0, 0), (200, 0, 0), (0, 0, 200)][:n_colors])
    rows, cols = naive.clues_of_grid(grid)
    i, j = draw(st.integers(0, height - 1)), draw(st.integers(0, height - 1))
    change = draw(st.sampled_from(["none", "swap", "reverse"]))
    if change == "swap":
        rows[i], rows[j] = rows[j], rows[i]
    elif change == "reverse":
        rows[i] = tuple(reversed(rows[i]))
    return Puzzle(width, height, palette, rows, cols)


@settings(max_examples=300, deadline=None)
@given(puzzles())
def test_puzzles_same_as_reference(puzzle):
    _assert_same_solve(puzzle, puzzle)


def test_resumed_solves_take_the_reference_path():
    """Solves from given masks keep the reference path: ``start`` and
    ``lines`` still work through ``solve``."""
    grid = (np.random.default_rng(1).random((4, 5)) < 0.6).astype(np.uint8)
    puzzle = Puzzle.from_grid(grid)
    first = solve(puzzle)
    again = solve(puzzle, start=first.masks, lines=[0])
    np.testing.assert_array_equal(again.masks, first.masks)
    assert again.line_solves >= 1
