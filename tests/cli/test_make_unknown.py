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


def test_compiling_the_question_marks_line_logic_says_so(tmp_path, monkeypatch):
    """Issue 41: ``make --unknown-colours`` compiled the line logic of '?'
    clues for 41 s without the notice.  Now the notice comes first, and the
    time reported is make's own, compiling apart."""
    import time

    from click.testing import CliRunner

    from rofl.cli import main
    from rofl.kernels import _compile
    from rofl.solver import warmup

    real = warmup.warm_index

    def slow() -> None:
        time.sleep(1.0)
        real()

    monkeypatch.setattr(warmup, "warm_index", slow)
    monkeypatch.setattr(_compile, "_ready", {})  # as in a fresh process
    monkeypatch.setattr(_compile, "is_cached", lambda dispatcher: False)  # with an empty cache
    monkeypatch.setattr(_compile, "available", lambda: False)  # and no extension
    monkeypatch.setattr(_compile, "_notice", _compile._UNSET)  # the CLI installs its own notice
    args = ["make", str(ROCKET), "-w", "20", "-c", "3", "--unknown-colours", "0.3", "-o", str(tmp_path / "r.clues")]
    began = time.perf_counter()
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    elapsed = time.perf_counter() - began
    assert result.exit_code == 0, result.output
    notices = [line for line in result.stderr.splitlines() if line.startswith("compil")]
    assert "compiling rofl's line logic for hexagons and ? clues for this machine (once, about " in "".join(notices)
    seconds = float(next(line for line in result.stdout.splitlines() if line.startswith("time: ")).split()[1])
    assert seconds < elapsed - 1.0  # the second spent compiling is not in the time reported
