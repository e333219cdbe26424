"""Olšák's ``.g``: the flag sample, line forms, X11 colour names, the writer."""

from __future__ import annotations

import numpy as np

from rofl.formats import olsak, read_puzzle
from rofl.puzzle import Palette, Puzzle
from tests.formats.textcases import DATA, FLAG, HOUSE, house_puzzle, read


def test_flag_g_sample():
    puzzle, grid = read_puzzle(DATA / "flag.g")
    # palette: background (redefined by 0:), then r, 1, b in declaration order
    assert puzzle.palette == Palette(["#ffffff", "#ff0000", "#000000", "#0000ff"])
    remap = np.array([0, 2, 1, 3], dtype=np.uint8)  # FLAG's indices -> the file's
    assert puzzle == Puzzle.from_grid(remap[FLAG], puzzle.palette)
    assert grid is None


def test_g_without_closing_colon_ignores_trailing_blank_lines():
    text = ": rows\n1\n\n: columns\n1\n\n\n\n"
    puzzle, _ = read(olsak, text)
    assert (puzzle.width, puzzle.height) == (1, 2)


def test_g_lone_zero_and_commas():
    text = ": rows\n0\n1, 1\n: columns\n1\n0\n1\n:\n"
    puzzle, _ = read(olsak, text)
    assert puzzle.rows == ((), ((1, 1), (1, 1)))


def test_g_x11_names():
    text = "#d\n 0: gray50\n g:g green\n p:p Purple\n: rows\n1g 1p\n: columns\n1g\n1p\n:\n"
    puzzle, _ = read(olsak, text)
    assert puzzle.palette == Palette([(128, 128, 128), (0, 255, 0), (160, 32, 240)])


def test_g_writer_forms():
    plain = olsak.dumps(house_puzzle())
    assert not plain.startswith("#d") and "\n\n5\n" in plain  # blank line = empty row
    two = Puzzle.from_grid(HOUSE, Palette(["#ffffff", "#2040c0"]))
    text = olsak.dumps(two)
    assert "1:*  #2040c0" in text and "2 2" in text
    assert read(olsak, text)[0] == two
