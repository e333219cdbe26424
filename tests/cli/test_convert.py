"""``rofl convert`` end to end, and the new formats through the other commands."""

from __future__ import annotations

import numpy as np
import pytest

from rofl.formats import corpus as corpus_json
from rofl.formats import find_format, read_puzzle, write_puzzle
from rofl.formats import rofl as codec
from rofl.puzzle import Palette, Puzzle
from tests.clirun import one_error_line, run, usage_error_line
from tests.places import DATA_DIR, corpus_file

DATA = DATA_DIR / "formats"
DANCER = "webpbn-survey/webpbn-00001.json"
COLOUR = "webpbn-survey-color/webpbn-00047.json"


def test_corpus_json_to_xml_to_non_to_rofl_then_solve(tmp_path):
    source = corpus_file(DANCER)
    puzzle, solution = corpus_json.load(source)
    chain = [source, tmp_path / "dancer.xml", tmp_path / "dancer.non", tmp_path / "dancer.rofl"]
    for before, after in zip(chain, chain[1:], strict=False):
        result = run("convert", before, after)
        assert result.exit_code == 0, result.output
        assert result.output.startswith(f"{after}: 5x10, 2 colours, solution kept")
    for path in chain[1:3]:
        back, grid = read_puzzle(path)
        assert back == puzzle and np.array_equal(grid, solution)
        assert back.meta["title"] == "Demo Puzzle from Front Page" and back.meta["author"] == "Jan Wolter"
    info = codec.read(chain[-1])
    assert info.puzzle == puzzle
    assert info.crc32 == codec.picture_crc(solution)  # the solution travels as its CRC
    assert info.puzzle.meta["title"] == "Demo Puzzle from Front Page"
    result = run("solve", chain[-1], "--no-color")
    assert result.exit_code == 0, result.output
    assert result.output.startswith(".##..\n.##.#\n")
    result = run("decode", chain[-1], "-o", tmp_path / "dancer.png")
    assert result.exit_code == 0, result.output


def test_colour_puzzle_to_xml_and_g_then_solve(tmp_path):
    colour = corpus_file(COLOUR)
    puzzle, solution = corpus_json.load(colour)
    xml, g = tmp_path / "map.xml", tmp_path / "map.g"
    assert run("convert", colour, xml).exit_code == 0
    result = run("convert", xml, g)
    assert result.exit_code == 0 and "solution not kept (.g holds clues only)" in result.output
    back, grid = read_puzzle(g)
    assert back == puzzle and grid is None
    assert np.array_equal(read_puzzle(xml)[1], solution)
    result = run("solve", g, "--no-color")
    assert result.exit_code == 0, result.output
    back = run("convert", g, tmp_path / "again.json")
    # .g keeps no picture, but line logic finds it again for the JSON file
    assert back.exit_code == 0 and "solution added (line logic finds it)" in back.output
    assert np.array_equal(read_puzzle(tmp_path / "again.json")[1], solution)


def test_colour_to_a_black_and_white_format_is_one_error(tmp_path):
    source = tmp_path / "flag.json"
    grid = np.array([[0, 1, 2], [2, 1, 0]], dtype=np.uint8)
    write_puzzle(source, Puzzle.from_grid(grid, Palette(["#ffffff", "#000000", "#ff0000"])), grid)
    target = tmp_path / "flag.nin"
    line = one_error_line(run("convert", source, target))
    assert f"cannot convert {source} to {target}" in line
    assert "the .nin format holds black-and-white puzzles only; this puzzle has 3 colours" in line
    assert not target.exists()


def test_colour_to_non_and_back(tmp_path):
    """.non holds colour in Nonny's extension ('color' lines), without a goal."""
    source = tmp_path / "flag.json"
    grid = np.array([[0, 1, 2], [2, 1, 0]], dtype=np.uint8)
    puzzle = Puzzle.from_grid(grid, Palette(["#ffffff", "#000000", "#ff0000"]))
    write_puzzle(source, puzzle, grid)
    target = tmp_path / "flag.non"
    result = run("convert", source, target)
    assert result.exit_code == 0, result.output
    kept = "solution not kept (.non holds the solutions of black-and-white puzzles only)"
    assert result.output == f"{target}: 3x2, 3 colours, {kept}\n"
    text = target.read_text()
    assert "color black 000000 X\ncolor red FF0000 #\n" in text and "goal" not in text
    assert read_puzzle(target) == (puzzle, None)
    back = run("convert", target, tmp_path / "again.json")
    assert back.exit_code == 0 and "solution added (line logic finds it)" in back.output
    assert read_puzzle(tmp_path / "again.json")[0] == puzzle
    assert np.array_equal(read_puzzle(tmp_path / "again.json")[1], grid)


def test_colour_corpus_puzzle_to_non_then_solve(tmp_path):
    colour = corpus_file(COLOUR)
    puzzle, _ = corpus_json.load(colour)
    target = tmp_path / "colour.non"
    assert run("convert", colour, target).exit_code == 0
    assert read_puzzle(target)[0] == puzzle
    result = run("solve", target, "--no-color")
    assert result.exit_code == 0, result.output


def test_existing_output_is_untouched_when_conversion_fails(tmp_path):
    target = tmp_path / "out.non"
    target.write_text("precious")
    bad = tmp_path / "bad.xml"
    bad.write_text("<puzzleset><puzzle>")
    one_error_line(run("convert", bad, target))
    assert target.read_text() == "precious"


def test_unknown_output_extension_is_a_usage_error(tmp_path):
    line = usage_error_line(run("convert", DATA / "house.nin", tmp_path / "house.txt"))
    assert "cannot write puzzles with extension '.txt'" in line and ".non" in line and ".g" in line
    assert not (tmp_path / "house.txt").exists()


def test_unknown_input_format_and_missing_file_are_one_error(tmp_path):
    mystery = tmp_path / "mystery.dat"
    mystery.write_text("7 8\n1\n")
    assert "unknown puzzle format" in one_error_line(run("convert", mystery, tmp_path / "x.xml"))
    assert "No such file" in one_error_line(run("convert", tmp_path / "absent.non", tmp_path / "x.xml"))


HOSTILE_FILES = {
    "bomb.xml": b'<?xml version="1.0"?><!DOCTYPE p [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]>'
    b"<puzzleset>&b;</puzzleset>",
    "external.xml": b'<!DOCTYPE p [<!ENTITY e SYSTEM "file:///etc/passwd">]><puzzleset>&e;</puzzleset>',
    "truncated.xml": (DATA / "flag.xml").read_bytes()[:700],
    "junk.non": bytes(range(256)),
    "huge.nin": b"99999999999999999999999999 2\n1\n",
    "short.nin": b"3 3\n1\n1\n1\n1\n",
    "toolong.non": b"width 1\nheight 1\nrows\n5\ncolumns\n1\n",
    "colour.non": b"width 1\nheight 1\ncolor red ff0000 r\nrows\nblue 1\ncolumns\nred 1\n",
    "triddler.g": b"#t\n: rows\n",
}


@pytest.mark.timeout(30)
@pytest.mark.parametrize("name", sorted(HOSTILE_FILES))
def test_hostile_files_are_one_error_line(tmp_path, name):
    path = tmp_path / name
    path.write_bytes(HOSTILE_FILES[name])
    line = one_error_line(run("convert", path, tmp_path / "out.json"))
    assert str(path) in line
    assert not (tmp_path / "out.json").exists()
    one_error_line(run("solve", path))
    one_error_line(run("info", path))


def test_samples_through_solve_and_info():
    names = ("house.non", "house.nin", "house.g", "house.mk", "house.cwd", "house-numberloom.xml", "flag.xml", "flag.g")
    for name in names:
        result = run("info", DATA / name, "--no-solve")
        assert result.exit_code == 0, result.output
        assert f"file: {DATA / name} ({(DATA / name).stat().st_size} bytes, " in result.output
        assert f"{find_format((DATA / name).read_bytes(), name).name}, not ROFL)" in result.output
    result = run("solve", DATA / "house.g", "--no-color")
    assert result.exit_code == 0, result.output
    assert result.output.startswith("...#...\n..###..\n")
    result = run("info", DATA / "house.non", "--no-solve")
    assert "author: René O'Test" in result.output


def test_nin_to_non_has_no_goal_and_notmine_needs_a_picture(tmp_path):
    result = run("convert", DATA / "house.nin", tmp_path / "house.non")
    assert result.exit_code == 0 and "no solution in the input, and line logic does not find one" in result.output
    assert "goal" not in (tmp_path / "house.non").read_text()
    # line logic alone cannot solve the house (it needs search): the cipher needs the picture
    line = one_error_line(run("convert", DATA / "house.nin", tmp_path / "house.notmine"))
    assert "the NotMine cipher stores the picture" in line
    assert not (tmp_path / "house.notmine").exists()
    # a puzzle line logic solves gets its picture from the solver
    (tmp_path / "l.nin").write_text("2 2\n1\n2\n1\n2\n")
    assert run("convert", tmp_path / "l.nin", tmp_path / "l.notmine").exit_code == 0
    assert np.array_equal(read_puzzle(tmp_path / "l.notmine")[1], [[0, 1], [1, 1]])


def test_convert_in_place_to_the_same_format(tmp_path):
    path = tmp_path / "flag.xml"
    path.write_bytes((DATA / "flag.xml").read_bytes())
    before = read_puzzle(path)
    assert run("convert", path, path).exit_code == 2  # refused: OUT is IN
    assert run("convert", path, path, "--force").exit_code == 0
    after = read_puzzle(path)
    assert after[0] == before[0] and np.array_equal(after[1], before[1])
    assert dict(after[0].meta) == dict(before[0].meta)


def test_gnonograms_round_trip_and_its_size_warning(tmp_path):
    """.gno keeps the picture and the title; a puzzle Gnonograms cannot open
    (it takes 5 to 54 rows and columns) is written with a warning."""
    house = DATA / "house.gno"
    xml, gno = tmp_path / "house.xml", tmp_path / "house.gno"
    assert run("convert", house, xml).exit_code == 0
    result = run("convert", xml, gno)
    assert result.exit_code == 0 and result.output == f"{gno}: 7x8, 2 colours, solution kept\n"
    back, grid = read_puzzle(gno)
    assert back == read_puzzle(house)[0] and back.meta["title"] == "House"
    assert np.array_equal(grid, read_puzzle(house)[1])
    small = tmp_path / "small.json"
    write_puzzle(small, Puzzle.from_grid(np.eye(3, dtype=np.uint8), Palette.black_white()))
    result = run("convert", small, tmp_path / "small.gno")
    assert result.exit_code == 0, result.output
    assert "warning: " in result.output and "Gnonograms opens puzzles of 5 to 54 rows and columns only" in result.output
    assert "this one is 3x3" in result.output
    assert read_puzzle(tmp_path / "small.gno")[0] == read_puzzle(small)[0]  # rofl reads it all the same
