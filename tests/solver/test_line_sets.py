"""The compiled line DP on clues with colour sets (``?``) against brute
force: every filling of short lines, hypothesis-made lines, and the lines of
hexagonal boards."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rofl.errors import PuzzleError
from rofl.hexagon import Hexagon, HexPuzzle
from rofl.puzzle import Palette
from rofl.solver import solve_line
from tests import naive


def _sets(n_colors: int) -> list[frozenset[int]]:
    """Every colour set of two or more inks."""
    inks = range(1, n_colors)
    return [frozenset(s) for r in range(2, n_colors) for s in itertools.combinations(inks, r)]


def _check(cells, clue, n_colors):
    want = naive.brute_line_sets(cells, clue, n_colors)
    got = solve_line(cells, clue)
    if want is None:
        assert got is None, (clue, cells.tolist(), got.tolist())
    else:
        assert got is not None, (clue, cells.tolist(), want.tolist())
        np.testing.assert_array_equal(got, want, err_msg=f"{clue=} cells={cells.tolist()}")
    return want is None


def test_the_seed_rules_are_the_colour_rule():
    """The seed's recursive mask generation and "its clue is the clue with
    some choice of colours" give the same fillings."""
    for n, k in ((5, 3), (6, 4)):
        f, _ = naive.fillings(n, k)
        for clue in [((1, 1), (1, "?")), ((2, "?"), (1, "?")), ((1, "?"), (1, 1)), ((1, 1), (1, "?"), (1, 2))]:
            clue = tuple((m, frozenset(range(1, k)) if c == "?" else c) for m, c in clue)
            by_rules = {tuple(x) for x in naive.placements_sets(n, clue)}
            by_fit = {tuple(x) for x in f.tolist() if naive.fits_clue(x, clue)}
            assert by_rules == by_fit, clue


@pytest.mark.parametrize(("n", "n_colors"), [(n, 3) for n in range(1, 8)] + [(n, 4) for n in range(1, 6)])
def test_every_clue_with_sets(n, n_colors):
    """Every clue of an n-cell line, each group's colour widened to every
    set that holds it, on unknown cells and on random knowledge."""
    rng = np.random.default_rng(10 * n + n_colors)
    _, by_clue = naive.fillings(n, n_colors)
    full = (1 << n_colors) - 1
    sets = _sets(n_colors)
    contradictions = checked = 0
    for clue in by_clue:
        if not clue:
            continue
        for _ in range(3):
            widened = tuple((m, sets[rng.integers(len(sets))]) if rng.random() < 0.6 else (m, c) for m, c in clue)
            for cells in (np.full(n, full, dtype=np.int64), rng.integers(1, full + 1, n).astype(np.int64)):
                contradictions += _check(cells, widened, n_colors)
                checked += 1
    if n >= 3:
        assert 0 < contradictions < checked


@st.composite
def set_lines(draw, max_n=9, max_colors=5):
    k = draw(st.integers(3, max_colors))
    n = draw(st.integers(1, max_n if k < 5 else max_n - 1))  # brute force lists k**n fillings: 5**9 takes 19 s
    colour = st.one_of(st.integers(1, k - 1), st.sampled_from(_sets(k)))
    clue = draw(st.lists(st.tuples(st.integers(1, 3), colour), max_size=4))
    full = (1 << k) - 1
    cells = draw(st.lists(st.one_of(st.just(full), st.integers(1, full)), min_size=n, max_size=n))
    return np.array(cells, dtype=np.int64), tuple(clue), k


@settings(deadline=None, max_examples=300)
@given(set_lines())
def test_sets_match_brute_force(line):
    cells, clue, k = line
    _check(cells, clue, k)


def test_a_set_of_one_colour_is_that_colour():
    cells = np.full(6, 0b111, dtype=np.int64)
    exact = solve_line(cells, [(2, 1), (1, 1), (1, 2)])
    assert np.array_equal(solve_line(cells, [(2, {1}), (1, frozenset({1})), (1, [2])]), exact)


def test_question_mark_needs_the_palette():
    cells = np.full(3, 0b111, dtype=np.int64)
    both = solve_line(cells, [(1, {1, 2}), (1, {1, 2})])
    assert np.array_equal(solve_line(cells, [(1, "?"), (1, "?")], n_colors=3), both)
    assert both.tolist() == [0b111, 0b111, 0b111]
    # two touching ?s differ in colour: in two cells, one colour fixes the other
    assert solve_line(np.array([0b010, 0b111]), [(1, "?"), (1, "?")], n_colors=3).tolist() == [0b010, 0b100]
    # a ? next to a group of the colour it takes needs a gap between them
    assert solve_line(np.array([0b111, 0b111, 0b010]), [(1, "?"), (1, 1)], n_colors=3).tolist() == [0b111, 0b101, 0b010]
    assert solve_line(np.array([0b010, 0b111, 0b010]), [(1, "?"), (1, 1)], n_colors=3).tolist() == [0b010, 0b001, 0b010]
    with pytest.raises(PuzzleError, match=r"a colour an index, a set of them or '\?' \(with n_colors of 3 to 64\)"):
        solve_line(cells, [(1, "?")])
    with pytest.raises(PuzzleError, match=r"colours 1\.\.63"):
        solve_line(cells, [(1, {0, 1})])


@settings(deadline=None, max_examples=60)
@given(st.integers(2, 4), st.integers(3, 4), st.data())
def test_hexagon_lines_match_brute_force(side, k, data):
    """The lines of a hexagonal board with ? groups: the DP on each line's
    cells (gathered by the board's index sequence) against brute force."""
    board = Hexagon.of(side)
    cells = np.array(data.draw(st.lists(st.integers(0, k - 1), min_size=board.n_cells, max_size=board.n_cells)))
    exact = HexPuzzle.from_cells(side, cells, Palette([(60 * i, 0, 0) for i in range(k)]))
    hide = data.draw(st.lists(st.booleans(), min_size=exact.n_groups, max_size=exact.n_groups))
    full = (1 << k) - 1
    knowledge = np.where(
        np.array(data.draw(st.lists(st.booleans(), min_size=board.n_cells, max_size=board.n_cells))),
        full,
        (1 << cells) | 1,
    ).astype(np.int64)
    g = 0
    for line in range(board.n_lines):
        clue = []
        for m, c in exact.clue(line):
            clue.append((m, frozenset(range(1, k)) if hide[g] else c))
            g += 1
        line_cells = knowledge[board.line(line)]
        assert not _check(line_cells, tuple(clue), k)  # the true filling always fits
