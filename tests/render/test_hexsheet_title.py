"""Hexagonal sheets print the puzzle's own title when none is given, as rectangular ones do (issue 43)."""

from __future__ import annotations

import io

import numpy as np
import pytest

from rofl.hexagon import Hexagon, HexPuzzle
from rofl.render.sheet import sheet_bytes


def _titled(title: str) -> HexPuzzle:
    board = Hexagon.of(3)
    cells = np.array([(q - r) % 3 for q, r, _ in board.coords])
    return HexPuzzle.from_cells(3, cells, ["#ffffff", "#000000", "#ff0000"], meta={"title": title})


def test_svg_and_pdf_sheets_print_the_puzzle_s_title():
    from pypdf import PdfReader

    puzzle = _titled("Flower")
    assert b">Flower</text>" in sheet_bytes(puzzle, ".svg")
    assert "Flower" in PdfReader(io.BytesIO(sheet_bytes(puzzle, ".pdf"))).pages[0].extract_text()
    # a title given wins over the puzzle's
    assert b">Rose</text>" in sheet_bytes(puzzle, ".svg", title="Rose")


@pytest.mark.parametrize("suffix", [".png", ".pdf", ".svg"])
def test_a_title_in_any_script_still_draws(suffix):
    assert sheet_bytes(_titled("火箭 🚀 <&>"), suffix)
