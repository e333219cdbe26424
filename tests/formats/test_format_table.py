"""The table of formats (rofl.formats.FORMATS) says what every writer does."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from rofl.errors import FormatError
from rofl.formats import FORMATS, find_format, is_puzzle_path, open_puzzle, writer_for
from rofl.puzzle import Palette, Puzzle

BW = np.array([[1, 0, 1], [0, 1, 1]], dtype=np.uint8)
COLOUR = np.array([[1, 2, 0], [2, 2, 1]], dtype=np.uint8)
PALETTES = {2: Palette(["#ffffff", "#000000"]), 3: Palette(["#ffffff", "#000000", "#c80000"])}


WRITTEN = [f for f in FORMATS if f.write is not None]


@pytest.mark.parametrize("fmt", WRITTEN, ids=lambda f: f.extension)
@pytest.mark.parametrize("grid", [BW, COLOUR], ids=["bw", "colour"])
def test_writer_does_what_the_table_says(fmt, grid):
    n_colors = int(grid.max()) + 1
    puzzle = Puzzle.from_grid(grid, PALETTES[n_colors])
    module = importlib.import_module(fmt.module)
    assert module.FORMATS == (fmt,)  # what the module declares, no fallback
    assert writer_for(f"x{fmt.extension.upper()}") is fmt
    if n_colors > 2 and not fmt.colour:
        with pytest.raises(FormatError):
            module.FORMAT.write(puzzle, grid)
        return
    data = module.FORMAT.write(puzzle, grid)
    assert find_format(data, f"x{fmt.extension}") is fmt
    opened = open_puzzle(data, name=f"x{fmt.extension}")
    back, solution = opened.puzzle, opened.solution
    assert back.rows == puzzle.rows and back.cols == puzzle.cols
    kept = solution is not None
    assert kept == (fmt.keeps_solution(puzzle) and fmt.picture)
    if kept:
        assert (solution == grid).all()


def test_one_format_per_extension_and_puzzle_paths():
    assert len({f.extension for f in WRITTEN}) == len(WRITTEN)
    assert all(is_puzzle_path(f"a/b{f.extension}") for f in WRITTEN)
    assert not is_puzzle_path("a/b.png") and not is_puzzle_path("a/b")


def test_convert_help_and_readme_list_every_format():
    from tests.clirun import run
    from tests.places import REPO

    help_text = run("convert", "--help").output
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    for fmt in WRITTEN:
        assert f"  {fmt.extension} " in help_text, fmt.extension
        assert f"`{fmt.extension}`" in readme, fmt.extension


def test_caveat_only_where_the_program_cannot_open_the_puzzle():
    from rofl.formats import caveat

    small = Puzzle.from_grid(BW, PALETTES[2])  # 3x2: Gnonograms opens 5 to 54 a side
    for fmt in WRITTEN:
        note = caveat(f"x{fmt.extension}", small)
        assert (note is None) == (fmt.extension != ".gno"), fmt.extension
    assert "this one is 3x2" in caveat("x.gno", small)
    assert caveat("x.gno", Puzzle.from_grid(np.zeros((5, 54), dtype=np.uint8), PALETTES[2])) is None
    assert "55x5" in caveat("x.GNO", Puzzle.from_grid(np.zeros((5, 55), dtype=np.uint8), PALETTES[2]))
    with pytest.raises(FormatError):
        caveat("x.png", small)


TWO_COLOURS = {
    "white on black": Palette(["#000000", "#ffffff"]),
    "red on yellow": Palette(["#ffff00", "#c80000"]),
    "black on white": Palette.black_white(),
}


@pytest.mark.parametrize("fmt", WRITTEN, ids=lambda f: f.extension)
@pytest.mark.parametrize("palette", TWO_COLOURS.values(), ids=TWO_COLOURS.keys())
def test_a_warning_names_the_two_colours_a_format_loses(fmt, palette):
    """A two-colour puzzle reads back in its own colours, or the caveat
    ``rofl make``, ``convert`` and a batch print says what is lost."""
    from rofl.formats import caveat

    puzzle = Puzzle.from_grid(BW, palette)
    back = open_puzzle(fmt.write(puzzle, BW), name=f"x{fmt.extension}").puzzle
    note = caveat(f"x{fmt.extension}", puzzle)
    loses = note is not None and " back as " in note  # not Gnonograms' size, say
    assert (back.palette == palette) == (not loses), note
    if loses and fmt.extension != ".pzl":  # .pzl keeps its cells' colour, and says what it loses
        assert back.palette == Palette.black_white()
        shown = ["#{:02x}{:02x}{:02x}".format(*c) for c in palette.colors]
        assert f"the puzzle's {shown[1]} cells on {shown[0]} read back as black on white" in note
