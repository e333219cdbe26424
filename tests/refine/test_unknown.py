"""``?`` clues made from a solved puzzle: still unique, proved by both engines."""

from __future__ import annotations

import numpy as np
import pytest

import rofl
from rofl.errors import PuzzleError
from rofl.hexagon import HexPuzzle
from rofl.puzzle import Puzzle
from rofl.refine.unknown import unknown_colours
from rofl.solver.search import solve_complete
from tests.places import SAMPLES


@pytest.fixture(scope="module")
def rocket():
    return rofl.open_puzzle(SAMPLES / "rocket.rofl").puzzle


@pytest.mark.parametrize("fraction", [0.0, 0.2, 0.5, 1.0])
def test_unique_by_both_engines_and_the_same_picture(rocket, fraction):
    hidden = unknown_colours(rocket, fraction, seed=3)
    count = 0 if hidden.color_sets is None else int(np.count_nonzero(hidden.color_sets))
    assert count <= round(fraction * rocket.n_groups)
    if 0 < fraction < 1:
        assert count == round(fraction * rocket.n_groups)  # the rocket allows that many
    assert rofl.solve(hidden).status == "solved"
    picture = rofl.solve(rocket).grid
    for engine in ("search", "sat"):
        result = solve_complete(hidden, engine=engine)
        assert result.status == "unique" and (result.grid == picture).all()
    # only colours were hidden: the same lengths, and the other groups keep theirs
    assert (hidden.lengths == rocket.lengths).all()
    kept = hidden.color_sets is None or hidden.color_sets == 0
    assert (np.where(kept, hidden.colors, 0) == np.where(kept, rocket.colors, 0)).all()


def test_the_order_follows_the_seed(rocket):
    first, again, other = (unknown_colours(rocket, 0.3, seed=s) for s in (1, 1, 2))
    assert first == again and first != other


def test_a_group_is_hidden_only_if_line_logic_still_solves(monkeypatch):
    # a hexagon too; each group tried alone (the runs split down to single groups) must keep it solved
    rng = np.random.default_rng(5)
    for _ in range(10):
        side = 3
        cells = rng.integers(0, 4, size=rofl.Hexagon.of(side).n_cells)
        puzzle = HexPuzzle.from_cells(side, cells, ["#fff", "#000", "#f00", "#0f0"])
        if rofl.solve(puzzle).status != "solved":
            continue
        hidden = unknown_colours(puzzle, 1.0, seed=0)
        assert isinstance(hidden, HexPuzzle) and rofl.solve(hidden).status == "solved"
        assert solve_complete(hidden, engine="sat").status == "unique"
        flags = np.zeros(puzzle.n_groups, bool) if hidden.color_sets is None else hidden.color_sets != 0
        for g in np.flatnonzero(~flags):  # maximal: no group left could be hidden as well
            more = flags.copy()
            more[g] = True
            assert rofl.solve(puzzle.with_unknown_colors(more)).status != "solved"


def test_refusals(rocket):
    with pytest.raises(PuzzleError, match="only one"):
        unknown_colours(Puzzle.from_grid(np.eye(3, dtype=int)), 0.5)
    with pytest.raises(PuzzleError, match="from 0 to 1"):
        unknown_colours(rocket, 1.5)
    two = Puzzle.from_grid(np.array([[1, 2], [2, 1]]), ["#fff", "#000", "#f00"]).with_unknown_colors([True] * 8)
    with pytest.raises(PuzzleError, match="does not solve"):
        unknown_colours(two, 0.5)
