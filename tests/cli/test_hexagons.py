"""What every command does with a hexagonal puzzle (``.clues``) and with
``?`` groups: solve, info, convert, sheet and page take them; the commands
that draw or read rectangular grids refuse them with one error line."""

from __future__ import annotations

import numpy as np
import pytest

from rofl.formats import clues, corpus, open_puzzle
from rofl.hexagon import HexPuzzle
from rofl.puzzle import Puzzle
from rofl.render.terminal import hex_text
from tests.clirun import one_error_line, run, usage_error_line
from tests.places import SAMPLES

FLOWER = SAMPLES / "hex-flower.clues"
CELLS = np.array([1, 1, 2, 0, 1, 2, 1])
PALETTE = ["#ffffff", "#000000", "#d02030"]


@pytest.fixture
def small(tmp_path):
    """A side-2 hexagon with one '?' group, unique."""
    puzzle = HexPuzzle.from_cells(2, CELLS, PALETTE, meta={"title": "small"})
    path = tmp_path / "small.clues"
    path.write_text(clues.dumps(puzzle.with_unknown_colors(np.arange(puzzle.n_groups) == 1)))
    return path


PICTURE = " a a\nb . a\n b a"


@pytest.mark.parametrize("engine", ["search", "sat"])
def test_solve_prints_offset_rows(small, engine):
    result = run("solve", "--engine", engine, small)
    assert result.exit_code == 0, result.output
    picture, summary, difficulty = result.output.rstrip("\n").rsplit("\n", 2)
    assert picture == PICTURE
    assert summary.startswith("unique: hexagon of side 2, 3 colours; ")
    assert difficulty.startswith("difficulty: ")  # rofl.grade grades hexagons


def test_solve_line_only_and_colour_blocks(small):
    result = run("solve", "--line-only", small)
    assert result.exit_code == 0 and result.output.startswith(PICTURE + "\nsolved: hexagon of side 2, 3 colours")
    board = HexPuzzle.from_cells(2, CELLS, PALETTE).board
    coloured = hex_text(board, CELLS, open_puzzle(small).puzzle.palette, color=True).split("\n")
    assert coloured[0].startswith(" \x1b[48;2;0;0;0m  \x1b[48;2;0;0;0m  ")  # half a cell in, two cells
    assert coloured[1].startswith("\x1b[48;2;208;32;48m  \x1b[48;2;255;255;255m  ")
    assert hex_text(board, np.array([-1, 0, 1, 2, 1, 0, -1]), open_puzzle(small).puzzle.palette) == " ? .\na b a\n . ?"


def test_solve_the_sample_by_both_engines():
    outputs = [run("solve", "--engine", engine, FLOWER) for engine in ("search", "sat")]
    assert all(r.exit_code == 0 for r in outputs)
    assert outputs[0].output.rsplit("\n", 3)[0] == outputs[1].output.rsplit("\n", 3)[0]  # but the timing
    assert len(outputs[0].output.splitlines()) == 11 and outputs[0].output.startswith("    . . . . .\n")


def test_several_solutions_and_none_are_reported(tmp_path):
    two = tmp_path / "two.clues"
    two.write_text("rofl clues 1\nhexagon 2\nrows\n1\n1\n1\nfalling\n1\n1\n1\nrising\n1\n1\n1\n")
    result = run("solve", two)
    assert result.exit_code == 3 and "solution 2:" in result.output and "hexagon of side 2" in result.output
    stalled = run("solve", "--line-only", two)
    assert stalled.exit_code == 5 and stalled.output.startswith(" ? ?\n? ? ?\n ? ?\n")
    assert "line logic leaves 7 of 7 cells undetermined" in stalled.output
    none = tmp_path / "none.clues"
    none.write_text("rofl clues 1\nhexagon 2\nrows\n0\n0\n1\nfalling\n0\n1\n0\nrising\n0\n1\n0\n")
    result = run("solve", none)
    assert result.exit_code == 5 and "none: hexagon of side 2" in result.output


def test_info_describes_the_hexagon(small):
    result = run("info", small)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "size: hexagon of side 2 (7 cells)" in lines
    assert "clues: 14 groups (5 in rows, 4 in falling diagonals, 5 in rising diagonals, 1 of them '?' or a set of" in (
        result.output
    )
    assert "filled cells: 6 of 7 (85.7%)" in lines and "picture: decodes by line logic" in lines
    assert not any(line.startswith("Pattern game ID") for line in lines)


def test_convert_between_clue_files_and_refuses_others(small, tmp_path):
    result = run("convert", small, tmp_path / "copy.clues")
    assert (
        result.output
        == f"{tmp_path / 'copy.clues'}: hexagon of side 2, 3 colours, solution not kept (.clues holds clues only)\n"
    )
    assert (tmp_path / "copy.clues").read_bytes() == small.read_bytes()
    # ROFL version 2 holds hexagons (spec/ROFL.md section 13): and back to the same clue file
    assert run("convert", small, tmp_path / "x.rofl").exit_code == 0
    assert run("convert", tmp_path / "x.rofl", tmp_path / "back.clues").exit_code == 0
    assert open_puzzle(tmp_path / "back.clues").puzzle == open_puzzle(small).puzzle
    for ext in (".json", ".non", ".nin"):
        one_error_line(run("convert", small, tmp_path / f"x{ext}"), "cannot hold a hexagonal puzzle")
        assert not (tmp_path / f"x{ext}").exists()


@pytest.mark.parametrize(
    ("command", "args"),
    [
        ("decode", ["-o", "x.png"]),
        ("reveal", []),
    ],
)
def test_drawing_commands_refuse_a_hexagon(small, tmp_path, command, args):
    args = [str(tmp_path / a) if a.startswith("x.") else a for a in args]
    one_error_line(run(command, small, *args), f"rofl {command} takes rectangular puzzles only", "hexagonal")
    assert list(tmp_path.iterdir()) == [small]


@pytest.mark.parametrize("out", ["x.png", "x.pdf", "x.svg"])
def test_sheet_of_a_hexagon(small, tmp_path, out):
    result = run("sheet", small, "-o", tmp_path / out)
    assert result.exit_code == 0, result.output
    assert "hexagonal puzzle" in result.output
    assert (tmp_path / out).stat().st_size > 0


def test_page_of_a_hexagon(small, tmp_path):
    # the page plays hexagons, '?' groups included (tests/render/test_page_hex*.py play it)
    out = tmp_path / "small.html"
    result = run("page", small, "-o", out)
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"{out}: hexagon of side 2, 3 colours, ")
    text = out.read_text(encoding="utf-8")
    assert '"shape":"hexagon","side":2' in text and "<title>small</title>" in text


@pytest.mark.parametrize("option", ["--gif", "--steps"])
def test_solve_refuses_step_pictures_of_a_hexagon(small, tmp_path, option):
    target = tmp_path / ("x.gif" if option == "--gif" else "out")
    usage_error_line(run("solve", option, target, small), option, "rectangular puzzles only")
    assert not target.exists()


def test_solve_writes_a_hexagon_s_solution(small, tmp_path):
    from PIL import Image

    from rofl.formats import open_puzzle

    picture, again, folder = tmp_path / "x.png", tmp_path / "x.rofl", tmp_path / "all"
    for option, target in (("--first", picture), ("--first", again), ("--solutions", folder)):
        result = run("solve", option, target, small)
        assert result.exit_code == 0, result.output
    with Image.open(picture) as one, Image.open(folder / "solution-1.png") as other:
        assert one.size[0] > 10 and one.size == other.size  # the cells drawn as hexagons
    opened = open_puzzle(again)  # the clues and the CRC-32 of the solution (pcrc)
    assert opened.puzzle.side == 2 and opened.crc32 is not None


def test_question_marks_in_a_rectangle(tmp_path):
    puzzle = Puzzle.from_grid(np.array([[1, 2, 0], [0, 1, 2]]), PALETTE)
    unknown = puzzle.with_unknown_colors(np.arange(puzzle.n_groups) < 2)
    path = tmp_path / "q.json"
    path.write_text(corpus.dumps(unknown))
    assert '"?"' in path.read_text()
    result = run("solve", path)
    assert result.exit_code == 0 and result.output.startswith("ab.\n.ab\nunique: 3x2")
    for command, args in (("sheet", ["-o", tmp_path / "q.png"]), ("page", ["-o", tmp_path / "q.html"])):
        one_error_line(run(command, path, *args), "groups of unknown colour ('?')")
    one_error_line(run("convert", path, tmp_path / "q.non"), ".rofl, .json and .clues can")
    assert run("convert", path, tmp_path / "q.clues").exit_code == 0
    assert open_puzzle(tmp_path / "q.clues").puzzle == unknown


def test_bench_tabulates_a_hexagon(small, tmp_path):
    table = tmp_path / "bench.csv"
    result = run("bench", "-j", 1, small, "-o", table)
    assert result.exit_code == 0, result.output
    row = table.read_text().splitlines()[1].split(",")
    assert row[1:7] == ["rofl clue text", "", "", "3", "True", "unique"]  # no width and height


def test_a_book_refuses_a_hexagon_with_one_error_that_says_so(small, tmp_path):
    # issue 41: the guide says books take rectangles only; the error said `rofl sheet` did
    from tests.places import SAMPLES

    result = run("sheet", SAMPLES / "horse.rofl", small, "-o", tmp_path / "book.pdf")
    line = one_error_line(result, "a puzzle book takes rectangular puzzles only", "hexagonal")
    assert "sheet of its own" in line and not (tmp_path / "book.pdf").exists()
    alone = run("sheet", small, "-o", tmp_path / "alone.pdf", "--answers")
    one_error_line(alone, "a puzzle book takes rectangular puzzles only")
