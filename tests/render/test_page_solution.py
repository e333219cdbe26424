"""The page's own solution, run in V8: lineSolve (for Check and Reveal), wrongCells, progressPercent,
rectangle drags, and the contrast of clue numbers on their colours.

The engine and the references are test_page.py's: lineSolve must reach what
rofl's line solver reaches from an empty grid, so Check knows the solution
exactly when line logic does.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rofl.formats import read_puzzle
from rofl.puzzle import Palette, Puzzle
from rofl.render.page import page_data
from tests.places import SAMPLES
from tests.render import test_page
from tests.render.test_page import grids, masks_fixpoint, player_view, truth_states

js = test_page.js  # the V8 engine fixture, shared


@given(grids())
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_line_solve_reaches_the_line_solvers_fixpoint(js, case):
    palette, grid = case
    puzzle = Puzzle.from_grid(grid, palette)
    status, reached = masks_fixpoint(puzzle, np.zeros(grid.shape, np.int64))
    got = js.call("lineSolve", page_data(puzzle, "t"))
    assert status != "contradiction" and got is not None  # the picture is a solution
    assert got["grid"] == player_view(reached)
    assert got["complete"] is (status == "solved")
    if got["complete"]:
        assert got["grid"] == player_view(truth_states(grid))


def test_line_solve_finishes_the_samples(js):
    paths = sorted(SAMPLES.glob("*.rofl"))
    for path in paths:
        puzzle, _ = read_puzzle(path)
        data = page_data(puzzle, path.stem)
        got = js.call("lineSolve", data)
        assert got["complete"], path  # rofl makes line-solvable puzzles: Check knows their solution
        assert js.call("isSolved", data, got["grid"]), path
    assert paths


def test_line_solve_of_an_ambiguous_puzzle(js):
    got = js.call("lineSolve", page_data(Puzzle.from_grid(np.eye(2, dtype=np.uint8)), "t"))
    assert got == {"grid": [0, 0, 0, 0], "complete": False}


def test_line_solve_of_a_puzzle_without_solution(js):
    puzzle = Puzzle.from_grid(np.eye(2, dtype=np.uint8))
    data = page_data(puzzle, "t")
    data["rows"] = [[[2, 1]], [[2, 1]]]  # rows full, columns of one cell each
    assert js.call("lineSolve", data) is None


@given(st.lists(st.integers(-1, 3), min_size=1, max_size=30), st.data())
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_wrong_cells_and_progress(js, grid, data):
    solution = data.draw(st.lists(st.sampled_from([-1, 1, 2, 3]), min_size=len(grid), max_size=len(grid)))
    wrong = [i for i, (g, s) in enumerate(zip(grid, solution, strict=True)) if g != 0 and g != s]
    assert js.call("wrongCells", grid, solution) == wrong
    assert js.call("progressPercent", grid) == 100 * sum(g != 0 for g in grid) // len(grid)


def test_rectangles(js):
    assert js.call("rectCells", 2, 3, 1, 1) == [[1, 1], [1, 2], [1, 3], [2, 1], [2, 2], [2, 3]]
    assert js.call("rectCells", 0, 0, 0, 0) == [[0, 0]]


@given(st.integers(0, 0xFFFFFF))
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_clue_numbers_have_enough_contrast(js, rgb):
    colour = f"#{rgb:06x}"

    def lum(hex_: str) -> float:
        parts = [int(hex_[k : k + 2], 16) / 255 for k in (1, 3, 5)]
        lin = [v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in parts]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    ink = js.call("textOn", colour)
    a, b = sorted((lum(colour), lum(ink)))
    assert (b + 0.05) / (a + 0.05) >= 4.5  # WCAG AA for text, on any palette colour


def test_the_solution_worked_out_a_slice_at_a_time_is_the_same(tmp_path):
    """lineSolving(puzzle).run(until) pauses after a line once the time is up and goes on from there: the
    page works its solution out so while the player starts; run to the end, it is lineSolve's answer."""
    import json
    import shutil
    import subprocess

    from tests.render.test_page import PAGE_JS

    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not available")
    grid = np.random.default_rng(5).integers(0, 4, size=(9, 12)).astype(np.uint8)
    data = page_data(Puzzle.from_grid(grid, Palette(["#ffffff", "#ff0000", "#00aa00", "#0000ff"])), "t")
    script = f"""
require({json.dumps(str(PAGE_JS))});
const puzzle = {json.dumps(data)};
const job = RoflPage.lineSolving(puzzle);
let slices = 1, got;
while ((got = job.run(0)) === undefined) slices++;
process.stdout.write(JSON.stringify([slices, got, RoflPage.lineSolve(puzzle)]));
"""
    slices, sliced, whole = json.loads(
        subprocess.run([node, "-e", script], capture_output=True, text=True, check=True).stdout
    )
    assert slices > 21 and sliced == whole  # a slice a line: at least every row and column once
