"""Refinement of hexagonal pictures (rofl.refine.refine over a Hexagon, its
adapter rofl.refine.hexagon): every result is a
puzzle line logic solves to exactly the returned cells, that the brute
force (small boards) or the SAT engine finds unique, and no change it keeps
could go back on its own."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rofl
from rofl.errors import PuzzleError
from rofl.hexagon import Hexagon, HexPuzzle
from rofl.puzzle import Palette
from rofl.refine import refine
from rofl.solver.lines import propagate_lines
from tests.naive import all_solutions

BW = Palette.black_white()
THREE = Palette(["#ffffff", "#000000", "#d02030"])


def line_solves_to(puzzle: HexPuzzle, cells: np.ndarray) -> bool:
    status, masks, _ = propagate_lines(puzzle)
    return status == 0 and bool((masks.ravel() == (1 << cells.astype(np.int64))).all())


def pictures(max_side: int, n_colors: int):
    return st.integers(1, max_side).flatmap(
        lambda side: st.tuples(
            st.just(side),
            st.lists(
                st.integers(0, n_colors - 1), min_size=Hexagon.of(side).n_cells, max_size=Hexagon.of(side).n_cells
            ),
        )
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pictures(3, 2))
def test_small_boards_are_unique_by_brute_force(picture):
    side, cells = picture
    result = refine(np.array(cells), BW, board=Hexagon.of(side))
    board = Hexagon.of(side)
    assert line_solves_to(result.puzzle, result.grid)
    lines = [board.line(i).tolist() for i in range(board.n_lines)]
    clues = [result.puzzle.clue(i) for i in range(board.n_lines)]
    solutions = all_solutions(lines, clues, board.n_cells)
    assert solutions == [tuple(result.grid.tolist())]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pictures(7, 3), st.integers(0, 2**32 - 1))
def test_results_are_unique_and_every_change_is_needed(picture, seed):
    side, cells = picture
    cells = np.array(cells)
    # sparse pictures are the ambiguous ones: blank most cells
    cells[np.random.default_rng(seed).random(len(cells)) < 0.7] = 0
    cost = np.random.default_rng(seed).random((len(cells), 3))
    cost[np.arange(len(cells)), cells] = 0
    result = refine(cells, THREE, board=Hexagon.of(side), cost=cost)
    assert line_solves_to(result.puzzle, result.grid)
    sat = rofl.solve_complete(result.puzzle, engine="sat")
    assert sat.status == "unique" and (sat.solutions[0].ravel() == result.grid).all()
    assert (result.changed == (result.grid != cells)).all()
    for cell in np.flatnonzero(result.changed):
        back = result.grid.copy()
        back[cell] = cells[cell]
        assert not line_solves_to(HexPuzzle.from_cells(side, back, THREE), back), cell


def test_a_line_solvable_picture_is_kept():
    cells = np.zeros(Hexagon.of(4).n_cells, dtype=np.uint8)
    cells[:4] = 1  # the top row filled
    result = refine(cells, BW, board=Hexagon.of(4))
    assert result.n_changed == 0 and result.iterations == 0 and (result.grid == cells).all()


def test_an_ambiguous_picture_changes_one_cell():
    """Five dots on a side-5 board that the clues allow in other places too
    (two solutions at least): one change makes it unique."""
    cells = np.zeros(Hexagon.of(5).n_cells, dtype=np.uint8)
    cells[[9, 31, 36, 39, 55]] = 1
    assert rofl.solve_complete(HexPuzzle.from_cells(5, cells)).status == "multiple"
    result = refine(cells, BW, board=Hexagon.of(5))
    assert line_solves_to(result.puzzle, result.grid)
    assert result.n_changed == 1 and result.iterations >= 1


def test_bad_inputs():
    with pytest.raises(PuzzleError, match="side 3 has 19 cells"):
        refine(np.zeros(7), BW, board=Hexagon.of(3))
    with pytest.raises(PuzzleError, match="palette indices"):
        refine(np.full(7, 2), BW, board=Hexagon.of(2))
    with pytest.raises(PuzzleError, match="cost must have shape"):
        refine(np.zeros(7), BW, board=Hexagon.of(2), cost=np.zeros((7, 3)))


@pytest.mark.slow
def test_a_large_textured_board_crosses_its_plateau():
    """Noise averaged into a side-60 hexagon is a random half-filled board on
    which line logic determines nothing: refinement takes moves on distinct
    lines in batches across that plateau, then puts back nearly all of them
    (runs of changes in one solve), with no blank-row fallback."""
    pixels = (np.random.default_rng(0).random((400, 400, 3)) * 255).astype(np.uint8)
    result = rofl.make(pixels, shape="hex", size=60, style="photo")  # the averaged noise, not a drawing of it
    assert line_solves_to(result.puzzle, result.grid)
    assert result.refinement.fallback_lines == 0
    assert result.refinement.iterations > 500  # the plateau took many changes...
    assert result.stats.changed_pct < 1.0  # ...and nearly all went back


def test_locked_cells_stay_on_a_hexagon():
    """The passes are one for both shapes: a hexagon's refinement keeps
    locked cells as a rectangle's does."""
    cells = np.zeros(Hexagon.of(5).n_cells, dtype=np.uint8)
    cells[[9, 31, 36, 39, 55]] = 1
    free = refine(cells, BW, board=Hexagon.of(5))
    locked = free.changed.copy()  # the cell refinement chose: it may not change now
    result = refine(cells, BW, board=Hexagon.of(5), locked=locked)
    assert line_solves_to(result.puzzle, result.grid)
    assert not (result.changed & locked).any()


def test_a_hexagon_ignores_polishing_and_relocation():
    """Polishing and relocation need a rectangle's failure certificates: on a
    hexagon the same picture comes out whatever their effort."""
    cells = np.random.default_rng(3).integers(0, 2, Hexagon.of(6).n_cells).astype(np.uint8)
    plain = refine(cells, BW, board=Hexagon.of(6), polish=0, relocate=0)
    asked = refine(cells, BW, board=Hexagon.of(6), polish=3, relocate=2, pairs=True)
    assert (plain.grid == asked.grid).all() and asked.polish_rounds == asked.relocated == 0
