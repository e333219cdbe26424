"""A tournament file's cost before its first answer is bounded: the file is
checked whole before any solving, but each puzzle is built only when it is
reached and its answer streams to the ``--answers`` file (session 10's audit:
a 30 MB file of 63 puzzles of 2048 x 2048 took 20 s of reading and 240 MB
before the first answer)."""

from __future__ import annotations

import numpy as np
import pytest

from rofl.batch.tournament import TournamentRow, answer_text, answers_text, run_tournament
from rofl.formats import taai
from rofl.puzzle import Palette, Puzzle
from tests.cli.test_bench_tournament import GRIDS, _tournament, forbid_solving
from tests.clirun import one_error_line, run


def test_each_puzzle_is_built_when_it_is_reached(tmp_path, monkeypatch):
    path, _ = _tournament(tmp_path, GRIDS)
    built = []
    real = taai._build

    def counted(label, *args):
        built.append(label)
        return real(label, *args)

    monkeypatch.setattr(taai, "_build", counted)
    rows = run_tournament(path, budget=5)
    assert next(rows).label == 1 and built == [1]
    assert [row.label for row in rows] == [2, 3] and built == [1, 2, 3]


def test_a_malformed_block_anywhere_is_refused_before_any_solving(tmp_path, monkeypatch):
    forbid_solving(monkeypatch, "solved a puzzle of a file it should have refused")
    path, _ = _tournament(tmp_path, GRIDS)
    for bad, words in (
        ("$4\n1 x\n1\n", ["line 25", "expected a block length"]),
        ("$4\n1\n99999999999\n", ["line 26", "too large"]),
        ("$4\n1\n1\n1\n", ["$4 has 3 lines"]),
    ):
        broken = tmp_path / "broken.txt"
        broken.write_text(path.read_text() + bad)
        one_error_line(run("bench", "--tournament", broken, "--answers", tmp_path / "a.txt"), *words)
        assert not (tmp_path / "a.txt").exists()


def test_clues_that_disagree_stop_the_run_after_the_figures_of_the_puzzles_done(tmp_path):
    """The sums of a puzzle's clues are checked as it is built: the puzzles
    before it are reported, then the one error; no answer file is left."""
    path, _ = _tournament(tmp_path, GRIDS[:2])
    with path.open("a") as f:
        f.write("$3\n2\n1\n1\n1\n")  # the columns paint 3 cells, the rows 2
    answers = tmp_path / "answers.txt"
    result = run("bench", "--tournament", path, "--answers", answers)
    assert result.exit_code == 1, result.output
    lines = result.output.strip().splitlines()
    assert lines[0].startswith(f"{path}: stopped after 2 puzzles: 2 of 2 solved; CPU "), result.output
    assert lines[-1].startswith("Error: ") and "$3" in lines[-1] and "columns hold 3" in lines[-1], result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["set.txt"]  # no answers, no temporary file


def _answer_reference(row: TournamentRow) -> str:
    """The solution format a cell at a time (what answers_text wrote before)."""
    grid = row.answer if row.answer is not None else np.zeros(row.shape, dtype=np.uint8)
    return "\n".join([f"${row.label}", *("\t".join(str(int(v)) for v in line) for line in grid)]) + "\n"


@pytest.mark.parametrize("shape", [(1, 1), (3, 5), (25, 25)])
def test_answer_text_is_the_solution_format(shape):
    rng = np.random.default_rng(sum(shape))
    solved = TournamentRow(7, "found", rng.integers(0, 2, shape).astype(np.uint8), 0.0, 0.0, shape)
    unsolved = TournamentRow(8, "budget", None, 0.0, 0.0, shape)
    for row in (solved, unsolved):
        assert answer_text(row) == _answer_reference(row)
    assert answers_text([solved, unsolved]) == _answer_reference(solved) + _answer_reference(unsolved)
    if shape[0] == shape[1]:  # a tournament's answers are square
        assert (taai.read_bytes(answer_text(solved).encode())[1] == solved.answer).all()


def test_bulk_clue_lines_read_as_the_slow_reader_reads_them():
    """The lines of plain numbers are read in bulk; odd ones (leading zeros,
    commas, ten digits) by _text.bw_clue: both give the same clues."""
    rng = np.random.default_rng(5)
    grid = (rng.random((30, 30)) < 0.6).astype(np.uint8)
    puzzle = Puzzle.from_grid(grid, Palette.black_white())
    seps = ["\t", " ", ", ", " ,\t"]
    out = ["$1"]
    for i, line in enumerate((*puzzle.cols, *puzzle.rows)):
        numbers = [f"{'00' if i % 3 == 0 else ''}{n}" for n, _ in line]  # leading zeros on every third
        out.append(seps[i % len(seps)].join(numbers) if numbers else "0")
    back = taai.read_bytes("\n".join(out).encode())[0]
    assert back.rows == puzzle.rows and back.cols == puzzle.cols


def test_answers_that_cannot_be_written_are_refused_before_any_solving(tmp_path, monkeypatch):
    """A read-only folder (simulated: root writes anywhere) failed only after the whole run,
    which was lost; the answers' file is now opened first."""
    import errno
    import os
    import tempfile

    real = tempfile.mkstemp

    def read_only(*args, dir=None, **kwargs):  # noqa: A002 -- mkstemp's own name
        if dir is not None and os.path.samefile(dir, tmp_path / "ro"):
            raise OSError(errno.EROFS, os.strerror(errno.EROFS))
        return real(*args, dir=dir, **kwargs)

    forbid_solving(monkeypatch, "solved a tournament whose answers cannot be written")
    monkeypatch.setattr(tempfile, "mkstemp", read_only)
    (tmp_path / "ro").mkdir()
    path, _ = _tournament(tmp_path, GRIDS)
    one_error_line(run("bench", "--tournament", path, "--answers", tmp_path / "ro" / "a.txt"), "Read-only file system")
    assert list((tmp_path / "ro").iterdir()) == []
