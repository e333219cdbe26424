"""The ``.pzl`` files of Izaron's nonograms_solver, checked against a
transliteration of its reader and with the example puzzles it ships."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from rofl.errors import FormatError, LimitError, RoflError
from rofl.formats import find_format, open_puzzle, pzl
from rofl.puzzle import Palette, Puzzle
from rofl.solver import solve_complete
from tests.formats.textcases import BW, FLAG, FLAG_PALETTE, bw_grids, colour_puzzles, house_puzzle, read
from tests.mangle import edits, mangle
from tests.places import DATA_DIR

PZL = DATA_DIR / "pzl"
EXAMPLES = ("emoji", "kolobok", "sparkle")


class CinFailed(Exception):
    """Where the solver's ``fin >> x`` fails and its reader returns false or ``{}``."""


class Cin:
    """C++ ``std::ifstream >> int`` and ``>> string`` over a text."""

    def __init__(self, text: str) -> None:
        self.text, self.at = text, 0

    def _skip(self) -> None:
        while self.at < len(self.text) and self.text[self.at] in " \t\n\v\f\r":
            self.at += 1

    def _read(self, pattern: str) -> str:
        self._skip()
        m = re.compile(pattern).match(self.text, self.at)
        if m is None:
            raise CinFailed
        self.at = m.end()
        return m.group()

    def int(self) -> int:
        value = int(self._read(r"[+-]?\d+"))
        if not -(2**31) <= value < 2**31:
            raise CinFailed  # out of range: failbit
        return value

    def string(self) -> str:
        return self._read(r"\S+")


def parse_color(hex_color: str) -> tuple[int, int, int]:
    """``Puzzle::ParseColor``: a malformed colour is black (with a warning);
    ``stoul`` reads a hex prefix and throws when there is none."""
    if len(hex_color) != 7 or hex_color[0] != "#":
        return (0, 0, 0)

    def stoul(s: str) -> int:
        m = re.match(r"\s*[0-9a-fA-F]+", s)
        assert m is not None, "std::invalid_argument: the solver aborts"
        return int(m.group(), 16) % 256

    return (stoul(hex_color[1:3]), stoul(hex_color[3:5]), stoul(hex_color[5:7]))


def izaron_read(text: str, black: bool) -> dict | None:
    """The solver's ``ReadBlack`` / ``ReadColored`` of a file: its colours
    (white first), sizes and groups as ``(length, colour index)``; None
    where the solver reports an error.  ``uint8_t`` channels wrap, as
    ``make_tuple(r, g, b)`` into the solver's ``Color`` does."""
    cin = Cin(text)
    try:
        if black:
            colors = [(255, 255, 255), (0, 0, 0)]
        else:
            count = cin.int() + 1  # the default white
            colors = [(255, 255, 255)] + [parse_color(cin.string()) for _ in range(count - 1)]
        color_map = {c: i for i, c in enumerate(colors)}  # later equal colours win
        n, m = cin.int(), cin.int()

        def groups(length):
            res = []
            for _ in range(length):
                size = cin.int()
                line = []
                for _ in range(size):  # a negative size: no groups (resize would throw)
                    if black:
                        line.append((cin.int(), 1))
                    else:
                        length_, r, g, b = cin.int(), cin.int(), cin.int(), cin.int()
                        line.append((length_, color_map.get((r % 256, g % 256, b % 256), 0)))
                res.append(line)
            return res

        rows = groups(n)
        cols = groups(m)
    except CinFailed:
        return None
    if not rows or not cols:  # the solver reads an empty result as failure
        return None
    return {"colors": colors, "n": n, "m": m, "rows": rows, "cols": cols}


def as_lists(lines) -> list[list[tuple[int, int]]]:
    return [list(line) for line in lines]


# ------------------------------------------------------------ round trips


@settings(deadline=None, max_examples=150)
@given(grid=bw_grids())
@example(grid=np.zeros((1, 1), dtype=np.uint8))  # every line empty
def test_black_and_white_written_as_the_solver_reads_it_with_b(grid):
    puzzle = Puzzle.from_grid(grid, BW)
    text = pzl.FORMAT.write(puzzle).decode("ascii")
    assert "#" not in text  # the -b variant
    got = izaron_read(text, black=True)
    assert got is not None
    assert (got["n"], got["m"]) == grid.shape  # rows first
    assert got["rows"] == as_lists(puzzle.rows) and got["cols"] == as_lists(puzzle.cols)
    assert read(pzl, text)[0] == puzzle


@settings(deadline=None, max_examples=150)
@given(case=colour_puzzles())
def test_colour_written_as_the_solver_reads_it(case):
    grid, palette = case
    puzzle = Puzzle.from_grid(grid, palette)
    listed = palette.colors[1:]
    if len(set(listed)) < len(listed):
        with pytest.raises(FormatError, match="are both #"):
            pzl.FORMAT.write(puzzle)
        return
    text = pzl.FORMAT.write(puzzle).decode("ascii")
    if palette == Palette.black_white():
        assert izaron_read(text, black=True)["rows"] == as_lists(puzzle.rows)
        return
    got = izaron_read(text, black=False)
    assert got is not None
    # the solver's colour i is rofl's palette index i; only the background becomes white
    assert got["colors"] == [(255, 255, 255), *listed]
    assert got["rows"] == as_lists(puzzle.rows) and got["cols"] == as_lists(puzzle.cols)
    back = read(pzl, text)[0]
    assert back.rows == puzzle.rows and back.cols == puzzle.cols
    assert back.palette.colors == ((255, 255, 255), *listed)


def test_flag_and_house_forms():
    flag = Puzzle.from_grid(FLAG, FLAG_PALETTE)
    text = pzl.FORMAT.write(flag).decode()
    assert text.startswith("3\n#000000\n#ff0000\n#0000ff\n\n4 6\n\n2 2 255 0 0 2 0 0 255\n")
    assert "\n\n" in text.split("4 6\n\n", 1)[1]  # a blank line between rows and columns
    house = pzl.FORMAT.write(house_puzzle()).decode()
    assert house.startswith("8 7\n\n1 1\n1 3\n1 5\n2 2 2\n")
    assert read(pzl, house)[0] == house_puzzle()


# ------------------------------------------------------------ the solver's examples


@pytest.mark.parametrize("name", EXAMPLES)
def test_example_puzzles_read_as_the_solver_reads_them_and_solve(name):
    path = PZL / f"{name}.pzl"
    text = path.read_text()
    opened = open_puzzle(path)
    puzzle = opened.puzzle
    assert opened.format is pzl.FORMAT
    got = izaron_read(text, black=False)
    assert [tuple(c) for c in got["colors"]] == list(puzzle.palette.colors)
    assert got["rows"] == as_lists(puzzle.rows) and got["cols"] == as_lists(puzzle.cols)
    result = solve_complete(puzzle)
    assert result.status == "unique" and result.line_solvable  # the solver solves them by line logic alone
    # written from their clues, they are the same files but for blank space
    written = pzl.FORMAT.write(puzzle).decode()
    assert written.split() == text.split()


def test_a_listed_white_is_a_colour_of_its_own():
    # emoji lists #ffffff (its eyes' whites): the solver's colour 5, not its background
    puzzle = open_puzzle(PZL / "emoji.pzl").puzzle
    assert puzzle.palette.colors[0] == puzzle.palette.colors[5] == (255, 255, 255)
    assert any(colour == 5 for line in puzzle.rows for _, colour in line)
    assert not any(colour == 0 for line in puzzle.rows for _, colour in line)


def test_equal_listed_colours_the_later_wins():
    text = "2\n#ff0000\n#ff0000\n1 1\n1 1 255 0 0\n1 1 255 0 0\n"
    puzzle = read(pzl, text)[0]
    assert puzzle.rows == (((1, 2),),)  # as the solver's map: the later index
    assert izaron_read(text, black=False)["rows"] == [[(1, 2)]]


# ------------------------------------------------------------ recognising the file


def test_colour_files_are_found_by_content_and_black_and_white_by_extension():
    colour = (PZL / "kolobok.pzl").read_bytes()
    assert find_format(colour, "kolobok.txt") is pzl.FORMAT
    bw = pzl.FORMAT.write(house_puzzle())
    assert find_format(bw, "house.pzl") is pzl.FORMAT
    assert find_format(bw, "house.txt") is not pzl.FORMAT


def test_a_colour_file_listing_no_colours():
    # only empty lines; its first number, 0, cannot be a side of the -b variant
    assert read(pzl, "0\n1 2\n0\n0\n0\n")[0] == Puzzle(2, 1, Palette([(255, 255, 255)]), [[]], [[], []])


# ------------------------------------------------------------ hostile files


HOSTILE = [
    ("", "ends where the number of rows"),
    ("2 2\n1 1\n1 1\n1 1\n", "ends where the group count of column 2"),
    ("2 2\n1 1\n1 1\n1 1\n1 1\n7\n", "after the last column"),
    ("x 2\n", "expected a number"),
    ("-1 2\n", "expected a number"),
    ("0 2\n", "ends where"),  # a colour file (first number 0) with no sizes
    ("1 1\n2 1 1\n1 1\n", "is more than 1"),  # more groups than cells
    ("1 1\n1 0\n0\n", "has length 0"),
    ("1 2\n2 1 1\n", r"row 1: its groups need 3 cells but it has 2"),  # before the columns are read
    ("1\n#ff0000\n1 3\n2 1 255 0 0 2 255 0 0\n", "need 4 cells but it has 3"),  # same colour: a gap
    ("1 3\n1 2\n1 1\n1 1\n1 1\n", "does not fit|column"),  # clues that do not agree
    ("99999999999 1\n", "too large"),
    ("65536 1\n", "larger than rofl's limit"),
    ("1\n#ff00\n1 1\n0\n0\n", "expected #rrggbb"),
    ("1\n#gg0000\n1 1\n0\n0\n", "expected #rrggbb"),
    ("64\n#ff0000\n", "is more than 63"),
    ("1\n#ff0000\n1 1\n1 1 0 0 255\n1 1 255 0 0\n", "not listed"),
    ("1\n#ff0000\n1 1\n1 1 255 255 255\n0\n", "not listed"),  # the background is not a group colour
    ("1\n#ff0000\n1 1\n1 1 256 0 0\n0\n", "is more than 255"),
    ("1\n#ff0000\n1 1\n1 1 255 0\n", "ends where a colour channel"),
    ("1 1\n\x001 1\n", "NUL"),
]


@pytest.mark.parametrize(("data", "message"), HOSTILE)
def test_hostile_file_is_one_format_error(data, message):
    with pytest.raises(FormatError) as info:
        read(pzl, data, where="bad.pzl")
    text = str(info.value)
    assert text.startswith("bad.pzl: ") and "\n" not in text
    assert re.search(message, text), text


def test_huge_sizes_are_refused_before_anything_is_allocated():
    with pytest.raises(LimitError, match="cells"):
        read(pzl, "65535 65535\n")
    with pytest.raises(LimitError, match="lines"):
        read(pzl, "1 1\n" + "\n" * 300_000)


def test_the_error_names_the_line():
    with pytest.raises(FormatError, match=r"line 5: .*not listed"):
        read(pzl, "1\n#ff0000\n\n1 1\n1 1 0 0 255\n1 1 255 0 0\n")


@settings(deadline=None, max_examples=300)
@given(words=st.lists(st.sampled_from(["0", "1", "2", "3", "255", "#ff0000", "#000000", "-1", "x", "\n"]), max_size=40))
def test_junk_is_a_puzzle_or_one_rofl_error(words):
    data = " ".join(words).encode()
    try:
        opened = open_puzzle(data, name="junk.pzl")
    except RoflError as exc:
        assert "\n" not in str(exc)
        return
    assert opened.format is pzl.FORMAT
    again = open_puzzle(pzl.FORMAT.write(opened.puzzle), name="again.pzl").puzzle
    assert again.rows == opened.puzzle.rows and again.cols == opened.puzzle.cols


def test_the_caveat_names_the_solver_limit():
    assert pzl.caveat(house_puzzle()) is None
    many = Puzzle.from_grid(np.arange(40, dtype=np.uint8).reshape(5, 8) % 40, Palette([f"#{i:06x}" for i in range(40)]))
    assert "at most 30 colours" in pzl.caveat(many) and "background" in pzl.caveat(many)
    dark = Puzzle.from_grid(FLAG, Palette(["#102030", "#000000", "#ff0000", "#0000ff"]))
    assert pzl.caveat(dark) == "the background of a .pzl file is always white: #102030 reads back as #ffffff"
    assert pzl.caveat(Puzzle.from_grid(FLAG, FLAG_PALETTE)) is None


@pytest.mark.timeout(60)
def test_every_truncation_is_a_puzzle_or_one_format_error():
    data = pzl.FORMAT.write(Puzzle.from_grid(FLAG, FLAG_PALETTE))
    errors = 0
    for cut in range(len(data)):
        try:
            read(pzl, data[:cut], where="cut.pzl")
        except FormatError as exc:
            assert str(exc).startswith("cut.pzl: ") and "\n" not in str(exc)
            errors += 1
    assert errors == len(data) - 1  # only the last cut (the final line end) still reads


_SPLICES = [b"0", b"9", b"99999999999", b"-1", b" ", b"\n", b"#", b"#ff0000", b"255", b"256", b"\xff", b"\x00"]


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(EXAMPLES), edits(_SPLICES))
def test_mangled_examples_are_a_puzzle_or_one_format_error(name, changes):
    data = mangle((PZL / f"{name}.pzl").read_bytes(), changes)
    try:
        puzzle = read(pzl, data, where=name)[0]
    except (FormatError, LimitError) as exc:
        assert str(exc).startswith(f"{name}: ") and "\n" not in str(exc)
        return
    assert isinstance(puzzle, Puzzle)
