"""``rofl bench --tournament`` (a tournament file: every puzzle in order, one
checked answer each) and ``rofl solve --first-only``."""

from __future__ import annotations

import numpy as np
import pytest

from rofl.formats import taai
from rofl.puzzle import Palette, Puzzle
from tests.clirun import one_error_line, run, usage_error_line


def _taai_block(label: int, puzzle: Puzzle) -> str:
    def line(clue) -> str:
        return "\t".join(str(n) for n, _ in clue) or "0"

    lines = [f"${label}"]
    lines += [line(puzzle.clue(puzzle.height + c)) for c in range(puzzle.width)]
    lines += [line(puzzle.clue(r)) for r in range(puzzle.height)]
    return "\n".join(lines) + "\n"


def _tournament(tmp_path, grids) -> tuple:
    puzzles = [Puzzle.from_grid(np.array(g, dtype=np.uint8), Palette.black_white()) for g in grids]
    path = tmp_path / "set.txt"
    path.write_text("".join(_taai_block(i + 1, p) for i, p in enumerate(puzzles)))
    return path, puzzles


GRIDS = [np.eye(3), [[1, 0, 1], [0, 1, 0], [1, 1, 1]], np.eye(4)[::-1]]


def test_a_tournament_file_is_solved_in_order_and_the_answers_fit_the_clues(tmp_path):
    path, puzzles = _tournament(tmp_path, GRIDS)
    answers = tmp_path / "answers.txt"
    result = run("bench", "--tournament", path, "--list", "--answers", answers)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert [line.split()[0] for line in lines[:3]] == ["$1", "$2", "$3"]
    assert "found" in lines[0] and "unique" in lines[1]  # line logic proves the second unique
    assert "3 of 3 solved" in lines[-1] and "CPU" in lines[-1]
    # the answer file reads back as pictures whose clues are the puzzles'
    got = taai.read_all(answers.read_bytes())
    assert [label for label, _ in got] == [1, 2, 3]
    for (_, picture), puzzle in zip(got, puzzles, strict=True):
        assert picture.rows == puzzle.rows and picture.cols == puzzle.cols


def test_two_solutions_and_an_unsolvable_puzzle(tmp_path):
    path = tmp_path / "set.txt"
    # $2: the middle column is all black, the middle row all white
    path.write_text("$1\n1\n1\n1\n1\n$2\n0\n3\n0\n1\t1\n0\n1\n")
    result = run("bench", "--tournament", path, "--two", "--list")
    assert result.exit_code == 1, result.output  # a puzzle left unsolved
    assert "$1  multiple" in result.output and "$2  none" in result.output
    assert "1 of 2 solved" in result.output


def test_tournament_errors(tmp_path):
    path, _ = _tournament(tmp_path, GRIDS[:1])
    for args, words in (
        (["-o", tmp_path / "t.csv"], "-o (a table of puzzle files) is not for it"),
        ([path, "--answers", tmp_path / "a.txt"], "name one FILE"),
    ):
        result = run("bench", "--tournament", path, *args)
        assert result.exit_code == 2 and words in result.output, result.output  # a usage error
    other = tmp_path / "other.txt"
    other.write_text("hello\n")
    one_error_line(run("bench", "--tournament", other), "not a tournament file")
    assert "Error" in run("bench", "--tournament", path, "--answers", path).output  # never over its input
    # session 9's audit: FILE#N said "No such file or directory"
    usage_error_line(run("bench", "--tournament", f"{path}#1"), "names one puzzle of one: rofl solve")


def test_solve_first_only(tmp_path):
    path, _ = _tournament(tmp_path, [np.eye(2)])  # two solutions
    result = run("solve", "--first-only", path, "--no-color")
    assert result.exit_code == 0, result.output
    assert "a solution (not checked for others: --first-only)" in result.output
    assert run("solve", path, "--no-color").exit_code == 3  # without it: multiple


def _knotty_block(label: int) -> str:
    """Knotty (webpbn survey, 40x40) as a tournament block: the search takes seconds over it."""
    from rofl.formats import open_puzzle
    from tests.places import corpus_file

    return _taai_block(label, open_puzzle(corpus_file("webpbn-survey/knotty.json")).puzzle)


def test_the_summary_names_the_puzzles_left_unsolved_and_why(tmp_path):
    path = tmp_path / "set.txt"
    # $1 is solved by line logic, whatever the load (a puzzle that needed the search ran out of
    # the 0.01 s on a loaded machine); $2 has no solution (the middle column all black, the middle
    # row all white); $3 is over the budget
    path.write_text("$1\n2\n1\n2\n1\n$2\n0\n3\n0\n1\t1\n0\n1\n" + _knotty_block(3))
    result = run("bench", "--tournament", path, "--budget", 0.01)
    assert result.exit_code == 1, result.output
    lines = result.output.splitlines()
    assert "1 of 3 solved" in lines[0], result.output
    assert lines[1:] == [
        "  no solution: $2",
        "  not decided within the 0.01 s budget (wall clock): $3",
    ], result.output


def forbid_solving(monkeypatch, why: str) -> None:
    """Make any solving fail the test, with ``why``."""
    from rofl.solver import search

    def never(*args, **kwargs):
        raise AssertionError(why)

    monkeypatch.setattr(search, "solve_complete", never)


def test_answers_in_a_missing_folder_are_refused_before_any_solving(tmp_path, monkeypatch):
    forbid_solving(monkeypatch, "solved before the answers' folder was checked")
    path, _ = _tournament(tmp_path, GRIDS)
    result = run("bench", "--tournament", path, "--answers", tmp_path / "missing" / "answers.txt")
    usage_error_line(result, "does not exist")


def test_a_tournament_takes_no_workers(tmp_path):
    path, _ = _tournament(tmp_path, GRIDS)
    for args in (["-j", 2], ["--scheduler", "tcp://localhost:8786"]):
        usage_error_line(run("bench", "--tournament", path, *args), "in this process", "no -j or --scheduler")


def test_two_and_answers_go_with_tournament(tmp_path):
    path, _ = _tournament(tmp_path, GRIDS)
    for args in (["--two"], ["--answers", tmp_path / "a.txt"]):
        usage_error_line(run("bench", path, *args), args[0], "--tournament")
    assert not (tmp_path / "a.txt").exists()


def test_ctrl_c_prints_the_figures_of_the_puzzles_done(tmp_path, monkeypatch):
    from rofl.solver import search

    solve = search.solve_complete
    calls = []

    def interrupted_at_the_third(*args, **kwargs):  # Ctrl-C arrives during the third puzzle's solve
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return solve(*args, **kwargs)

    monkeypatch.setattr(search, "solve_complete", interrupted_at_the_third)
    path, _ = _tournament(tmp_path, GRIDS)
    result = run("bench", "--tournament", path)
    assert result.exit_code == 130, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith(f"{path}: interrupted after 2 puzzles: 2 of 2 solved; CPU "), result.output
    assert lines[-1] == "Error: interrupted", result.output


def test_solve_first_only_pictures_a_solution_not_the_solution(tmp_path):
    path, _ = _tournament(tmp_path, [np.eye(2)])  # two solutions
    gif = tmp_path / "steps.gif"
    result = run("solve", "--first-only", path, "--no-color", "--gif", gif)
    assert result.exit_code == 0, result.output
    assert f"{gif}: " in result.output and "the last is a solution (not checked for others" in result.output


def test_an_answer_that_does_not_fit_its_clues_is_never_handed_in(tmp_path, monkeypatch):
    """The check of every answer can fail: a solver bug that returned a wrong grid stops the run."""
    from rofl.batch.tournament import run_tournament
    from rofl.solver import search

    solve = search.solve_complete

    def one_cell_wrong(*args, **kwargs):
        result = solve(*args, **kwargs)
        for grid in result.solutions:
            grid[0, 0] ^= 1
        return result

    monkeypatch.setattr(search, "solve_complete", one_cell_wrong)
    path, _ = _tournament(tmp_path, GRIDS)
    with pytest.raises(RuntimeError, match=r"\$1: the answer does not satisfy the clues"):
        list(run_tournament(path))


@pytest.mark.parametrize("solutions", [0, 3, 1.0, True])
def test_a_tournament_run_takes_one_or_two_solutions(tmp_path, solutions):
    """The same check as solve_complete's, before any puzzle is read."""
    from rofl.batch.tournament import run_tournament
    from rofl.errors import OptionError

    path, _ = _tournament(tmp_path, GRIDS)
    with pytest.raises(OptionError, match="solutions must be 1"):
        next(run_tournament(path, solutions=solutions))


def test_bench_without_tournament_names_it_for_a_tournament_file(tmp_path):
    path, _ = _tournament(tmp_path, GRIDS)
    result = run("bench", path, "-q", "-j", 1)
    assert result.exit_code == 1, result.output  # a file of three puzzles is no one puzzle
    assert f"{path} is a tournament file: rofl bench --tournament {path} solves all its puzzles" in result.output
