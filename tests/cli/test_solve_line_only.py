"""``rofl solve --line-only``, and the errors ``rofl solve`` reports for bad files."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from rofl.formats import write_puzzle
from rofl.puzzle import Palette, Puzzle
from tests.clirun import run

SOLVABLE = np.array([[1, 1, 0], [0, 1, 2], [2, 0, 2]], dtype=np.uint8)
PALETTE = Palette(["#ffffff", "#000000", "#ff0000"])


def _write(tmp_path, grid, palette=PALETTE, name="p.json"):
    path = tmp_path / name
    write_puzzle(path, Puzzle.from_grid(np.asarray(grid), palette))
    return str(path)


def test_cli_solved(tmp_path):
    # line logic alone; the complete solver has its own tests (test_solve.py)
    result = run("solve", "--line-only", "--no-color", _write(tmp_path, SOLVABLE))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[:3] == ["aa.", ".ab", "b.b"]
    assert re.fullmatch(r"solved: 3x3, 3 colours, \d+ line solves, \d+ sweeps", lines[3])
    assert result.stderr == ""


def test_cli_solved_colour(tmp_path):
    result = run("solve", "--line-only", "--color", _write(tmp_path, SOLVABLE))
    assert result.exit_code == 0
    assert "\x1b[48;2;255;0;0m" in result.stdout


def test_cli_stalled(tmp_path):
    # two diagonals fit the same clues: line logic decides nothing
    path = _write(tmp_path, np.eye(2, dtype=np.uint8))
    result = run("solve", "--line-only", "--no-color", path)
    assert result.exit_code == 5
    grid, grade = result.stdout.splitlines()[:2], result.stdout.splitlines()[2:]
    assert grid == ["??", "??"]
    assert len(grade) == 1 and grade[0].startswith("difficulty: 5/5 needs guessing ("), result.stdout
    assert result.stderr == "stalled: line logic leaves 4 of 4 cells undetermined (shown as ?)\n"


def test_cli_stalled_partly(tmp_path):
    grid = np.zeros((4, 5), dtype=np.uint8)
    grid[0] = 1
    grid[2:4, 1:3] = np.eye(2)
    result = run("solve", "--line-only", "--no-color", _write(tmp_path, grid))
    assert result.exit_code == 5
    assert result.stdout.splitlines()[0] == "aaaaa"
    assert result.stderr == "stalled: line logic leaves 4 of 20 cells undetermined (shown as ?)\n"


def test_cli_contradiction(tmp_path):
    path = tmp_path / "c.json"
    doc = {"width": 2, "height": 1, "colors": ["#fff", "#000", "#f00"]}
    doc.update(rows=[[[1, 1], [1, 2]]], cols=[[[1, 2]], [[1, 1]]])
    path.write_text(json.dumps(doc))
    result = run("solve", "--line-only", str(path))
    assert result.exit_code == 5
    assert result.stdout == ""
    expected = r"contradiction: the clues have no solution \((row 1|column [12]) cannot be filled\)\n"
    assert re.fullmatch(expected, result.stderr)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"{not json", r"Error: .*bad\.json: not valid JSON"),
        (b'{"width": 1, "height": 1, "rows": [[[2, 1]]], "cols": [[]]}', r"Error: .*bad\.json: row 1: clue needs 2"),
        (b"", r"Error: .*bad\.json: not valid JSON"),
    ],
)
def test_cli_bad_file(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    result = run("solve", str(path))
    assert result.exit_code == 1
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1
    assert re.match(message, result.stderr)


def test_cli_missing_file(tmp_path):
    result = run("solve", str(tmp_path / "nope.json"))
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [f"Error: {tmp_path / 'nope.json'}: No such file or directory"]


def test_cli_directory(tmp_path):
    result = run("solve", str(tmp_path))
    # exit status 2 means "stalled", so a bad argument must not look like one
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [f"Error: {tmp_path}: Is a directory"]


@pytest.mark.parametrize(
    ("options", "named"),
    [
        (["--first-only"], "--first-only"),
        (["--engine", "sat"], "--engine sat"),
        (["--first", "one.png"], "--first"),
        (["--solutions", "sols"], "--solutions"),
        (["--first-only", "--first", "one.png"], "--first-only and --first"),
    ],
)
def test_options_line_logic_would_ignore_are_refused(tmp_path, options, named):
    """--line-only does no search: an option only the search serves is a usage error, before any work."""
    result = run(
        "solve",
        "--line-only",
        _write(tmp_path, SOLVABLE),
        *[str(tmp_path / o) if o.endswith((".png", "sols")) else o for o in options],
    )
    assert result.exit_code == 2
    verb = "need" if " and " in named else "needs"
    assert f"{named} {verb} the search: drop --line-only" in result.output
    assert not (tmp_path / "one.png").exists() and not (tmp_path / "sols").exists()


def test_line_only_keeps_to_the_budget(tmp_path):
    """--budget bounds line logic alone too: --line-only once ignored it (session 10's audit: a
    2048x2048 puzzle whose line logic takes 37 s of CPU ran them all with --budget 1)."""
    # a random 2048x2048 picture: one pass of line logic takes about 0.6 s (tests/test_budget.py)
    grid = (np.random.default_rng(3).random((2048, 2048)) < 0.5).astype(np.uint8)
    path = _write(tmp_path, grid, Palette.black_white(), "big.rofl")
    result = run("solve", "--line-only", "--budget", "0.05", "--no-color", path)
    assert result.exit_code == 4, result.output[-300:]
    assert result.stdout == ""  # no grid of question marks: nothing is known
    assert result.stderr.strip() == (
        "budget: no answer: line logic did not finish within the 0.05 s budget (try a larger --budget)"
    )
