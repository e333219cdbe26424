"""Outputs whose size grows faster than their input are bounded (issue 40):
hexagonal sheets draw every cell, a page's browser builds every cell, so a
few kilobytes of clues asked for hundreds of megabytes.  Each limit is an
error before any drawing (docs/formats.md, "Output limits")."""

from __future__ import annotations

import numpy as np
import pytest

from rofl.errors import LimitError
from rofl.formats import write_puzzle
from rofl.hexagon import HexPuzzle
from rofl.puzzle import Palette, Puzzle
from rofl.render.hexlayout import MAX_SHEET_SIDE
from rofl.render.page import MAX_PAGE_CELLS, MAX_PAGE_SIDE, puzzle_page
from rofl.render.sheet import sheet_bytes
from tests.clirun import one_error_line, run, usage_error_line


def empty_hexagon(side: int) -> HexPuzzle:
    n_lines = 3 * (2 * side - 1)
    none = np.zeros(0, np.int64)
    return HexPuzzle.from_arrays(side, Palette.black_white(), none, none, np.zeros(n_lines + 1, np.int64))


@pytest.mark.parametrize("suffix", [".svg", ".png", ".pdf"])
def test_a_hexagonal_sheet_past_the_largest_side_is_refused(tmp_path, suffix):
    big = empty_hexagon(MAX_SHEET_SIDE + 1)  # a 1.6 kB file; side 1024 gave a 437 MB SVG
    with pytest.raises(LimitError, match=f"at most a hexagon of side {MAX_SHEET_SIDE}"):
        sheet_bytes(big, suffix)
    write_puzzle(tmp_path / "big.rofl", big)
    out = tmp_path / f"big{suffix}"
    one_error_line(run("sheet", tmp_path / "big.rofl", "-o", out, "--solution"), "big.rofl", "side 129")
    assert not out.exists()


def test_the_largest_hexagonal_sheet_is_drawn():
    assert sheet_bytes(empty_hexagon(MAX_SHEET_SIDE), ".svg").startswith(b"<?xml")


def test_a_page_past_the_most_cells_is_refused(tmp_path):
    side = int(MAX_PAGE_CELLS**0.5)
    fits = Puzzle.from_grid(np.zeros((side, MAX_PAGE_CELLS // side), np.uint8), Palette.black_white())
    assert "<html" in puzzle_page(fits)
    wide = Puzzle.from_grid(np.zeros((side, MAX_PAGE_CELLS // side + 1), np.uint8), Palette.black_white())
    with pytest.raises(LimitError, match="a page holds at most"):
        puzzle_page(wide)
    write_puzzle(tmp_path / "wide.rofl", wide)
    one_error_line(run("page", tmp_path / "wide.rofl", "-o", tmp_path / "wide.html"), "wide.rofl: ", "262,144 cells")
    assert not (tmp_path / "wide.html").exists()
    assert "<html" in puzzle_page(empty_hexagon(MAX_PAGE_SIDE))
    with pytest.raises(LimitError, match="side 129"):
        puzzle_page(empty_hexagon(MAX_PAGE_SIDE + 1))


def test_a_hexagon_picture_of_rofl_solve_is_bounded_as_its_sheet(tmp_path):
    # --first/--solutions draw every cell (side 1024: some 100 million pixels)
    write_puzzle(tmp_path / "big.rofl", empty_hexagon(MAX_SHEET_SIDE + 1))
    for option, out in (("--first", tmp_path / "first.png"), ("--solutions", tmp_path / "all")):
        one_error_line(run("solve", tmp_path / "big.rofl", option, out), "a picture of a hexagon", "side 129")
        assert not out.exists()
    # a puzzle file holding the solution draws nothing
    result = run("solve", tmp_path / "big.rofl", "--first", tmp_path / "first.rofl")
    assert result.exit_code == 0 and (tmp_path / "first.rofl").exists()


@pytest.mark.parametrize("suffix", [".png", ".svg", ".pdf"])
def test_a_title_of_100000_characters_is_cut_short_not_refused(tmp_path, suffix):
    """Session 9's audit: a title as long as a book asked for a sheet 600,000
    pixels wide and the error blamed the cell size; a title longer than the
    sheet (or 60 cells, for a small one) now ends in an ellipsis."""
    from rofl.formats import open_puzzle
    from rofl.render.layout import TITLE_CELLS, sheet_layout

    puzzle = Puzzle.from_grid(np.ones((1, 1), np.uint8), Palette.black_white(), meta={"title": "T" * 100_000})
    write_puzzle(tmp_path / "t.rofl", puzzle)
    out = tmp_path / f"t{suffix}"
    result = run("sheet", tmp_path / "t.rofl", "-o", out)
    assert result.exit_code == 0, result.output
    assert open_puzzle(out).puzzle.rows == puzzle.rows

    def laid_out(title: str):
        return sheet_layout(
            puzzle, cell=26, title=title, text_width=lambda text, size: 0.6 * size * len(text),
            title_height=lambda text, size: size,
        )  # fmt: skip

    layout = laid_out("T" * 100_000)
    assert layout.title.endswith("\u2026") and layout.width <= (TITLE_CELLS + 2) * 26
    assert laid_out("Tiny").title == "Tiny"


def test_a_sheet_no_cell_fits_is_refused_before_its_clues_are_placed(tmp_path):
    """Session 9's audit: a 2048x2048 checkerboard's PNG sheet laid out its 4
    million clue numbers at ever smaller cells (170 s, 2.5 GB) before saying
    it was too large, and blamed the cell size; a lower bound on the sheet
    refuses it at once (a LimitError: the puzzle is too large, not an option)."""
    from rofl.errors import OptionError
    from rofl.render.layout import sheet_layout

    side = 512
    grid = (np.indices((side, side)).sum(axis=0) % 2).astype(np.uint8)
    puzzle = Puzzle.from_grid(grid, Palette.black_white())

    def laid_out(cell, max_pixels):
        def fail(*args):
            msg = "no clue is measured: the sheet is refused before"
            raise AssertionError(msg)

        return sheet_layout(puzzle, cell=cell, title=None, text_width=fail, title_height=fail, max_pixels=max_pixels)

    with pytest.raises(LimitError, match=r"even with the smallest cell, 6 px \(at most 30000 pixels a side, 1 million"):
        laid_out(None, 1_000_000)
    with pytest.raises(OptionError, match="at cell 60 px .*; choose a smaller cell size"):
        laid_out(60, None)
    write_puzzle(tmp_path / "c.rofl", puzzle)
    usage_error_line(run("sheet", tmp_path / "c.rofl", "-o", tmp_path / "c.png", "--cell", 60), "choose a smaller")
    assert not (tmp_path / "c.png").exists()


def _stripes(height: int) -> Puzzle:
    """Every other column black: each row has 1000 clue numbers, each column one."""
    grid = np.zeros((height, 2000), np.uint8)
    grid[:, ::2] = 1
    return Puzzle.from_grid(grid, Palette.black_white())


@pytest.mark.parametrize("suffix", [".svg", ".pdf", ".png"])
def test_a_sheet_of_more_clue_numbers_than_the_most_is_refused_before_any_drawing(tmp_path, suffix, monkeypatch):
    """An SVG or PDF sheet had no limit: a 4 MB file of a 2048x2048 puzzle of random dots made a
    116 MB SVG, and either took 1.3 GB and 20-30 s of CPU (session 10's audit)."""
    from rofl.render.layout import MAX_NUMBERS, check_numbers

    assert MAX_NUMBERS == 1_000_000
    check_numbers(_stripes(999))  # 999,000 + 1,000 numbers: the most, still drawn
    big = _stripes(1001)  # 1,002,000
    with pytest.raises(LimitError, match="its 1,002,000 clue numbers; rofl prints at most 1,000,000 on one sheet"):
        sheet_bytes(big, suffix)
    write_puzzle(tmp_path / "big.rofl", big)

    import rofl.decode

    def never(*args, **kwargs):
        msg = "solved a puzzle whose sheet it should have refused"
        raise AssertionError(msg)

    monkeypatch.setattr(rofl.decode, "solve_picture", never)
    out = tmp_path / f"big{suffix}"
    one_error_line(run("sheet", tmp_path / "big.rofl", "-o", out, "--solution"), "big.rofl: a sheet of 2000x1001")
    assert not out.exists()
    if suffix == ".pdf":  # a book: every page is a sheet
        one_error_line(run("sheet", tmp_path / "big.rofl", tmp_path / "big.rofl", "-o", out), "1,002,000")
