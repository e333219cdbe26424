"""``rofl make --unknown-colours``: '?' groups in the made puzzle, still
unique by both engines; what it cannot make is refused before any work."""

from __future__ import annotations

import numpy as np
import pytest

from rofl.formats import open_puzzle
from rofl.solver.search import solve_complete
from tests.clirun import run, usage_error_line
from tests.places import SAMPLES

ROCKET = SAMPLES / "rocket.jpg"


@pytest.mark.parametrize("ext", [".clues", ".json"])
def test_make_writes_question_marks_that_keep_the_puzzle_unique(tmp_path, ext):
    out = tmp_path / f"rocket{ext}"
    result = run("make", ROCKET, "-w", 20, "-c", 3, "--unknown-colours", 0.4, "-o", out)
    assert result.exit_code == 0, result.output
    puzzle = open_puzzle(out).puzzle
    hidden = int(np.count_nonzero(puzzle.color_sets))
    assert f"unknown colours: {hidden} of {puzzle.n_groups} groups given as '?' (asked 40%" in result.output
    assert 0 < hidden <= round(0.4 * puzzle.n_groups)
    for engine in ("search", "sat"):
        assert solve_complete(puzzle, engine=engine).status == "unique"
    assert any(line.startswith("unique: ") for line in run("solve", out).output.splitlines())


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["-o", "x.non"], ["'-o'", ".non format cannot hold '?' groups", ".clues, .json or .rofl"]),
        (["-o", "x.clues", "-c", 2], ["two ink colours"]),
        (["-o", "x.clues", "--sheet", "x.png"], ["--sheet cannot draw '?'"]),
        (["-o", "x.clues", "--page", "x.html"], ["--page cannot draw '?'"]),
        (["-o", "x.clues", "--unknown-colours", 1.5], ["0<=x<=1"]),
    ],
)
def test_refused_before_any_work(tmp_path, args, words):
    args = [tmp_path / a if isinstance(a, str) and a.startswith("x.") else a for a in args]
    usage_error_line(run("make", ROCKET, "-c", 3, "--unknown-colours", 0.3, *args), *words)
    assert list(tmp_path.iterdir()) == []


def test_refused_for_a_batch(tmp_path):
    result = run("make", ROCKET, SAMPLES / "horse.png", "-c", 3, "--unknown-colours", 0.3, "-o", f"{tmp_path}/")
    usage_error_line(result, "one puzzle at a time")
