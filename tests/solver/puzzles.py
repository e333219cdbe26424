"""Small random puzzles for the solver's property tests: brute force
(:func:`tests.naive.puzzle_solutions`) decides them all."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from rofl.puzzle import Palette, Puzzle

PALETTES = {2: Palette.black_white(), 3: Palette([(255, 255, 255), (0, 0, 0), (200, 0, 0)])}


@st.composite
def small_puzzles(draw):
    """Puzzles of 1 to 6 cells a side in two colours (5 in three) drawn from a seeded random grid."""
    k = draw(st.sampled_from([2, 2, 3]))
    height = draw(st.integers(1, 6 if k == 2 else 5))  # brute force tries every product of the rows' fillings
    width = draw(st.integers(1, 6 if k == 2 else 5))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    grid = np.where(rng.random((height, width)) < 0.4, rng.integers(1, k, (height, width)), 0)
    return Puzzle.from_grid(grid.astype(np.uint8), PALETTES[k])


def sparse_puzzles(seed: int, count: int):
    """``count`` black-and-white 6 x 6 puzzles of a seeded random grid, about a third of it ink:
    small enough for brute force, and many need the search."""
    rng = np.random.default_rng(seed)
    for _ in range(count):
        yield Puzzle.from_grid((rng.random((6, 6)) < 0.35).astype(np.uint8), Palette.black_white())
