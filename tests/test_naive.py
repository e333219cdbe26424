"""The references themselves: ``naive.all_solutions`` prunes its brute force
(the one shortcut in tests/naive.py), so it is checked against the plain
product of every line's fillings on boards small enough for that."""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tests import naive


def _every_product(lines, clues, n_cells, n_rows):
    """Every product of fillings of the ``n_rows`` first lines (which cover
    the board), kept if every line gives its clue."""
    out = []
    rows = lines[:n_rows]
    options = [list(naive.placements_sets(len(line), clue)) for line, clue in zip(rows, clues[:n_rows], strict=True)]
    for pick in itertools.product(*options):
        cells = [0] * n_cells
        for line, filling in zip(rows, pick, strict=True):
            for c, v in zip(line, filling, strict=True):
                cells[c] = v
        if all(naive.fits_clue([cells[c] for c in line], clue) for line, clue in zip(lines, clues, strict=True)):
            out.append(tuple(cells))
    return sorted(out)


@settings(deadline=None, max_examples=150)
@given(st.integers(1, 4), st.integers(1, 4), st.integers(2, 3), st.booleans(), st.data())
def test_pruned_brute_force_finds_what_the_plain_product_finds(height, width, k, sets, data):
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    grid = rng.integers(0, k, (height, width)) * (rng.random((height, width)) < rng.random())
    clues = [naive.clue_of(r) for r in grid] + [naive.clue_of(c) for c in grid.T]
    if sets and k > 2:  # groups that may take either colour
        clues = [tuple((n, frozenset({1, 2})) for n, _ in clue) for clue in clues]
    lines = naive.rect_lines(height, width)
    found = sorted(naive.all_solutions(lines, clues, height * width))
    assert found == _every_product(lines, clues, height * width, height)


@settings(deadline=None, max_examples=60)
@given(st.integers(1, 3), st.data())
def test_pruned_brute_force_on_hexagons(side, data):
    lines = naive.hex_lines(side)
    n = 3 * side * (side - 1) + 1
    cells = data.draw(st.lists(st.integers(0, 2), min_size=n, max_size=n))
    clues = [naive.clue_of([cells[i] for i in line]) for line in lines]
    found = sorted(naive.all_solutions(lines, clues, n))
    assert tuple(cells) in found and found == _every_product(lines, clues, n, 2 * side - 1)
