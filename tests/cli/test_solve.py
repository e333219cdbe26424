"""``rofl solve``: what it prints, writes and exits with for each outcome."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from rofl.formats import read_puzzle, write_puzzle
from rofl.puzzle import Palette, Puzzle
from tests.clirun import run, usage_error_line
from tests.places import corpus_file

BW = Palette.black_white()


def _file(tmp_path: Path, puzzle: Puzzle, name: str = "p.json") -> str:
    path = tmp_path / name
    write_puzzle(path, puzzle)
    return str(path)


def test_unique_prints_the_picture(tmp_path):
    grid = np.array([[1, 0, 1], [1, 1, 1], [0, 1, 0]], dtype=np.uint8)
    result = run("solve", _file(tmp_path, Puzzle.from_grid(grid, BW)), "--no-color")
    assert result.exit_code == 0, result.output
    assert "#.#\n###\n.#." in result.output
    assert "unique" in result.output and "line logic alone" in result.output


def test_unique_that_needs_search(tmp_path):
    # unique, but line logic stalls (found by enumeration of 4x4 grids)
    rows = [[(1, 1)], [(1, 1), (1, 1)], [(1, 1), (1, 1)], [(2, 1)]]
    cols = [[(1, 1), (1, 1)], [(1, 1), (1, 1)], [(1, 1)], [(2, 1)]]
    puzzle = Puzzle(4, 4, BW, rows, cols)
    from rofl.solver import solve

    if solve(puzzle).status != "stalled":
        pytest.skip("example is line-solvable")
    result = run("solve", _file(tmp_path, puzzle), "--no-color")
    assert result.exit_code == 0, result.output
    assert "unique" in result.output and "search" in result.output


def test_ambiguous_shows_and_writes_two_solutions(tmp_path):
    puzzle = Puzzle.from_grid(np.eye(2, dtype=np.uint8), BW)
    first = tmp_path / "first.png"
    sols = tmp_path / "sols"
    result = run("solve", _file(tmp_path, puzzle), "--no-color", "--first", str(first), "--solutions", str(sols))
    assert result.exit_code == 3, result.output
    assert "solution 1:" in result.output and "solution 2:" in result.output
    assert "more than one solution" in result.output and "differ in 4 cells" in result.output
    pictures = [np.asarray(Image.open(sols / f"solution-{i}.png").convert("L")) for i in (1, 2)]
    assert not np.array_equal(*pictures)
    for picture in pictures:
        grid = (picture < 128).astype(np.uint8)  # black cells are colour 1
        assert puzzle.is_solution(grid)
    assert np.array_equal(np.asarray(Image.open(first)), np.asarray(Image.open(sols / "solution-1.png")))


def test_first_as_a_puzzle_file_holds_the_solution(tmp_path):
    grid = np.array([[1, 1, 0], [0, 1, 0]], dtype=np.uint8)
    puzzle = Puzzle.from_grid(grid, BW)
    out = tmp_path / "solved.json"
    assert run("solve", _file(tmp_path, puzzle), "--first", str(out)).exit_code == 0
    again, solution = read_puzzle(out)
    assert again == puzzle and np.array_equal(solution, grid)


def test_no_solution(tmp_path):
    # valid clues (each line fits, totals agree) that no grid satisfies;
    # line logic stalls on them, the search refutes them
    rows = [[(2, 1)], [(2, 1)], [(1, 1)], [(1, 1), (1, 1)]]
    cols = [[(1, 1)], [(1, 1), (1, 1)], [(1, 1), (1, 1)], [(2, 1)]]
    puzzle = Puzzle(4, 4, BW, rows, cols)
    result = run("solve", _file(tmp_path, puzzle))
    assert result.exit_code == 5, result.output
    assert "no solution" in result.output


def test_budget_exhausted(tmp_path):
    # knotty takes the search more than a minute, its line logic milliseconds: a second runs out in
    # the search on any machine, however loaded (0.05 s could run out inside line logic)
    path = corpus_file("webpbn-survey/knotty.json")
    result = run("solve", str(path), "--budget", "1", "--no-color")
    assert result.exit_code == 4, result.output
    assert "no answer within 1 s" in result.output and "?" in result.output


def test_line_only_keeps_the_line_logic_behaviour(tmp_path):
    puzzle = Puzzle.from_grid(np.eye(2, dtype=np.uint8), BW)
    result = run("solve", _file(tmp_path, puzzle), "--line-only", "--no-color")
    assert result.exit_code == 5
    assert "stalled" in result.output and "??" in result.output


def test_bad_picture_extension_is_a_usage_error(tmp_path):
    puzzle = Puzzle.from_grid(np.eye(2, dtype=np.uint8), BW)
    result = run("solve", _file(tmp_path, puzzle), "--first", str(tmp_path / "x.nope"))
    usage_error_line(result, "x.nope")
    assert not (tmp_path / "x.nope").exists()


@pytest.mark.parametrize("budget", ["0", "-1", "abc"])
def test_bad_budget_is_a_usage_error(tmp_path, budget):
    puzzle = Puzzle.from_grid(np.eye(2, dtype=np.uint8), BW)
    result = run("solve", _file(tmp_path, puzzle), "--budget", budget)
    usage_error_line(result, "--budget")


@pytest.mark.parametrize(
    ("grid_or_clues", "status", "exit_code"),
    [
        (np.array([[1, 0, 1], [1, 1, 1], [0, 1, 0]]), "unique", 0),
        (np.eye(2, dtype=np.uint8), "multiple", 3),
        (([[(2, 1)], [(2, 1)], [(1, 1)], [(1, 1), (1, 1)]], [[(1, 1)], [(1, 1), (1, 1)], [(1, 1), (1, 1)], [(2, 1)]]),
         "none", 5),
    ],
)  # fmt: skip
def test_sat_engine_gives_the_same_outcomes(tmp_path, grid_or_clues, status, exit_code):
    pytest.importorskip("pysat")
    if isinstance(grid_or_clues, tuple):
        puzzle = Puzzle(4, 4, BW, *grid_or_clues)
    else:
        puzzle = Puzzle.from_grid(grid_or_clues, BW)
    path = _file(tmp_path, puzzle)
    sat = run("solve", path, "--no-color", "--engine", "sat")
    search = run("solve", path, "--no-color")
    assert sat.exit_code == search.exit_code == exit_code, sat.output
    assert f"{status}:" in sat.output and "SAT engine" in sat.output
    if status != "multiple":  # the two engines may meet two solutions in either order
        assert sat.output.split(f"{status}:")[0] == search.output.split(f"{status}:")[0]


def test_unknown_engine(tmp_path):
    grid = np.array([[1, 0], [1, 1]], dtype=np.uint8)
    result = run("solve", _file(tmp_path, Puzzle.from_grid(grid, BW)), "--engine", "picosat")
    assert result.exit_code == 2
    assert "'picosat' is not one of 'search', 'sat'" in usage_error_line(result)


def test_the_exit_statuses_of_answers_differ_from_a_bad_option_and_from_the_help(tmp_path):
    # issue 41: "no solution" was status 2, a bad option's too, and the help said a bad option was 1
    rows = [[(2, 1)], [(2, 1)], [(1, 1)], [(1, 1), (1, 1)]]
    cols = [[(1, 1)], [(1, 1), (1, 1)], [(1, 1), (1, 1)], [(2, 1)]]
    path = _file(tmp_path, Puzzle(4, 4, BW, rows, cols))
    none = run("solve", path)
    bad = run("solve", path, "--budget", "-1")
    assert none.exit_code == 5 and bad.exit_code == 2
    usage_error_line(bad, "--budget")
    helped = " ".join(run("solve", "--help").output.split())
    meanings = ((5, "no solution"), (3, "more than one"), (4, "the budget"), (1, "error"), (2, "bad option"))
    for status, meaning in meanings:
        assert f"{status} {meaning}" in helped


@pytest.mark.slow
def test_a_budget_spent_inside_line_logic_is_one_line_not_a_grid_of_question_marks(tmp_path):
    # line logic and the search share the budget (issue 41): the 2048x2048 puzzle's line logic cannot
    # finish in 1 ms on any machine, and rofl solve reports it as every exhausted budget, status 4
    grid = (np.random.default_rng(3).random((2048, 2048)) < 0.5).astype(np.uint8)
    result = run("solve", _file(tmp_path, Puzzle.from_grid(grid, BW), "big.rofl"), "--budget", "0.001")
    assert result.exit_code == 4, result.output[-300:]
    assert result.output.splitlines()[-1] == (
        "budget: no answer: line logic did not finish within the 0.001 s budget (try a larger --budget)"
    )


def test_plain_characters_are_the_letters_of_the_sheets():
    # issue 41: --no-color drew colours 1, 2, 3 as #, 1, 2 while sheets print a, b, c (--letters)
    from rofl.render.layout import letter
    from rofl.render.terminal import grid_text

    palette = Palette(["#ffffff", "#000000", "#d03030", "#3050d0"])
    grid = np.array([[0, 1, 2, 3]], np.uint8)
    assert grid_text(grid, palette) == "." + "".join(letter(k) for k in (1, 2, 3)) == ".abc"
    assert grid_text(np.array([[0, 1, -1]]), BW) == ".#?"  # black and white keeps the nonogram's #
