"""A Puzzle keeps its packed (kernel) form; the two clue derivations agree."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from rofl.puzzle import PackedClues, Palette, Puzzle
from rofl.refine.judge import grid_clues
from rofl.solver.line_logic import kernel_clues


def _fresh(puzzle: Puzzle) -> PackedClues:
    return PackedClues(
        np.array(puzzle.lengths, dtype=np.int64),
        np.array(puzzle.colors, dtype=np.int64),
        np.array(puzzle.offsets, dtype=np.int64),
    )


def test_packed_form_is_made_once_and_kept():
    puzzle = Puzzle.from_grid(np.array([[1, 1, 0], [0, 2, 2]]), Palette(["#fff", "#000", "#f00"]))
    packed = puzzle.packed
    assert puzzle.packed is packed
    assert packed == _fresh(puzzle) and packed.kmax == 2
    for array in (packed.lens, packed.cols, packed.offs):
        assert array.dtype == np.int64 and array.flags.c_contiguous
    # the kernel form (with clue hashes) is derived once too, from the same arrays
    clues = kernel_clues(packed)
    assert kernel_clues(packed) is clues
    assert clues.lens is packed.lens and clues.cols is packed.cols
    np.testing.assert_array_equal(clues.starts, packed.offs[:-1])
    np.testing.assert_array_equal(clues.ends, packed.offs[1:])
    # a copy of the puzzle makes its own, equal, packed form
    copy = pickle.loads(pickle.dumps(puzzle))
    assert copy == puzzle and copy.packed is not packed and copy.packed == packed
    np.testing.assert_array_equal(kernel_clues(copy.packed).hashes, clues.hashes)


def test_packed_clues_compare_by_value_and_are_not_hashable():
    a = Puzzle.from_grid(np.eye(3, dtype=np.uint8)).packed
    b = Puzzle.from_grid(np.tri(3, dtype=np.uint8)).packed
    assert a == Puzzle.from_grid(np.eye(3, dtype=np.uint8)).packed
    assert a != b
    assert "6 groups" in repr(a) and "6 lines" in repr(a)
    with pytest.raises(TypeError):
        hash(a)  # mutable arrays inside


@settings(deadline=None, max_examples=200)
@given(
    st.integers(2, 5).flatmap(
        lambda k: st.tuples(
            st.just(k),
            arrays(np.uint8, st.tuples(st.integers(1, 9), st.integers(1, 9)), elements=st.integers(0, k - 1)),
        )
    )
)
def test_refinements_compiled_derivation_matches_the_puzzles(case):
    # Refinement derives the clues of thousands of candidate grids in
    # compiled code; Puzzle.from_grid derives them in numpy.  Same clues.
    k, grid = case
    palette = Palette([(i * 40, i * 40, i * 40) for i in range(k)])
    assert grid_clues(grid) == Puzzle.from_grid(grid, palette).packed
