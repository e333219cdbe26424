"""Hexagonal SVG sheets: the clues read back from the drawing equal the puzzle's."""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from rofl.cli import main
from rofl.errors import OptionError
from rofl.formats import open_puzzle
from rofl.hexagon import Hexagon, HexPuzzle
from rofl.render.sheet import sheet_bytes
from rofl.render.svg import puzzle_svg as hex_puzzle_svg

NS = "{http://www.w3.org/2000/svg}"
FLOWER = str(Path(__file__).resolve().parents[2] / "samples" / "hex-flower.clues")


def _clues(svg: str, kind: str) -> list[list[str]]:
    root = ET.fromstring(svg)
    group = next(g for g in root.iter(f"{NS}g") if g.get("id") == kind)
    return [[t.text for t in line.iter(f"{NS}text")] for line in group.findall(f"{NS}g")]


def _expected(lines) -> list[list[str]]:
    out = []
    for clue in lines:
        texts = [f"{n}?" if isinstance(c, frozenset) else str(n) for n, c in clue]
        out.append(texts or ["0"])
    return out


def _random_puzzle(side: int, inks: int, seed: int) -> tuple[HexPuzzle, np.ndarray]:
    rng = np.random.default_rng(seed)
    cells = rng.integers(0, inks + 1, Hexagon.of(side).n_cells)
    palette = ["#ffffff", "#000000", "#d02030", "#f0c020"][: inks + 1]
    return HexPuzzle.from_cells(side, cells, palette=palette), cells


@pytest.mark.parametrize(("side", "inks", "seed"), [(1, 1, 0), (5, 1, 1), (10, 1, 2), (6, 3, 3), (20, 2, 4)])
def test_clues_read_back_in_all_three_directions(side, inks, seed):
    puzzle, _ = _random_puzzle(side, inks, seed)
    svg = hex_puzzle_svg(puzzle)
    assert _clues(svg, "row-clues") == _expected(puzzle.rows)
    assert _clues(svg, "falling-clues") == _expected(puzzle.falling)
    assert _clues(svg, "rising-clues") == _expected(puzzle.rising)


def test_question_mark_groups_are_marked_and_explained():
    puzzle = open_puzzle(FLOWER).puzzle
    svg = hex_puzzle_svg(puzzle)
    for kind, lines in (("row-clues", puzzle.rows), ("falling-clues", puzzle.falling), ("rising-clues", puzzle.rising)):
        assert _clues(svg, kind) == _expected(lines)
    assert 'fill="url(#unknown)"' in svg
    assert "? = a group of one of several colours" in svg
    assert "blank (white #ffffff)" in svg


def test_solution_picture_cells_equal_the_solution():
    puzzle, cells = _random_puzzle(7, 3, 5)
    root = ET.fromstring(hex_puzzle_svg(puzzle, solution=cells))
    drawn = [int(p.get("data-colour")) for p in root.iter(f"{NS}polygon")]
    assert drawn == cells.tolist()
    fills = [p.get("fill") for p in root.iter(f"{NS}polygon")]
    assert fills == [puzzle.palette.hex()[c] for c in cells]


def test_blank_sheet_cells_are_empty():
    puzzle, _ = _random_puzzle(4, 1, 6)
    root = ET.fromstring(hex_puzzle_svg(puzzle))
    assert {p.get("fill") for p in root.iter(f"{NS}polygon")} == {"#ffffff"}


def _pdf_texts(data: bytes) -> list[str]:
    import io

    import pypdf
    from pypdf.generic import ContentStream

    reader = pypdf.PdfReader(io.BytesIO(data))
    assert len(reader.pages) == 1
    page = reader.pages[0]
    ops = ContentStream(page.get_contents(), reader).operations
    return [
        operands[0].decode("latin-1") if isinstance(operands[0], bytes) else str(operands[0])
        for operands, op in ops
        if op == b"Tj"
    ]


@pytest.mark.parametrize(("side", "inks", "seed"), [(5, 1, 8), (10, 3, 9), (20, 1, 10)])
def test_pdf_sheet_prints_every_clue_in_line_order(side, inks, seed):
    from rofl.render.hexlayout import hex_layout

    puzzle, _ = _random_puzzle(side, inks, seed)
    sheet = hex_layout(puzzle)
    texts = _pdf_texts(sheet_bytes(puzzle, ".pdf"))
    assert texts[: len(sheet.numbers)] == [n.text for n in sheet.numbers]
    # the layout's numbers, line by line, are the puzzle's clues in all three directions
    for kind, lines in (("row-clues", puzzle.rows), ("falling-clues", puzzle.falling), ("rising-clues", puzzle.rising)):
        got: dict[int, list] = {}
        for n in sheet.numbers:
            if n.kind == kind:
                got.setdefault(n.line, []).append(n)
        assert [[n.text for n in sorted(got[k], key=lambda n: n.index)] for k in sorted(got)] == _expected(lines)


def test_png_solution_picture_shows_the_solution():
    import io

    from PIL import Image

    from rofl.render.hexlayout import hex_layout, png_scale

    puzzle, cells = _random_puzzle(6, 3, 11)
    image = Image.open(io.BytesIO(sheet_bytes(puzzle, ".png", solution=cells))).convert("RGB")
    sheet = hex_layout(puzzle, solution=cells)
    k = png_scale(sheet)
    assert image.size == (round(sheet.width * k), round(sheet.height * k))
    seen = [image.getpixel((round((x - sheet.left) * k), round((y - sheet.top) * k))) for x, y, _ in sheet.cells]
    assert seen == [tuple(puzzle.palette[c]) for c in cells]


def test_cell_size_is_refused_for_a_hexagon():
    puzzle, _ = _random_puzzle(3, 1, 7)
    with pytest.raises(OptionError, match="--cell"):
        sheet_bytes(puzzle, ".pdf", cell=20)


@pytest.mark.parametrize("suffix", [".png", ".pdf"])
def test_cli_png_and_pdf_of_a_question_mark_puzzle(tmp_path, suffix):
    out = tmp_path / f"flower{suffix}"
    result = CliRunner().invoke(main, ["sheet", FLOWER, "--letters", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.stat().st_size > 1000
    if suffix == ".pdf":
        assert "? = a group of one of several colours" in "".join(_pdf_texts(out.read_bytes()))


def test_cli_svg_sheet_and_solution(tmp_path):
    runner = CliRunner()
    out = tmp_path / "flower.svg"
    result = runner.invoke(main, ["sheet", FLOWER, "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "side 5 hexagonal" in result.output
    puzzle = open_puzzle(FLOWER).puzzle
    assert _clues(out.read_text(), "rising-clues") == _expected(puzzle.rising)
    sol = tmp_path / "sol.svg"
    result = runner.invoke(main, ["sheet", FLOWER, "--solution", "-o", str(sol)])
    assert result.exit_code == 0, result.output
    root = ET.fromstring(sol.read_text())
    drawn = np.array([int(p.get("data-colour")) for p in root.iter(f"{NS}polygon")])
    assert puzzle.is_solution(drawn)


@pytest.mark.parametrize(
    ("args", "status", "message"),
    [
        (["-o", "x.gif"], 2, ".gif"),
        (["--cell", "20", "-o", "x.svg"], 2, "--cell"),
        ([FLOWER, "-o", "x.pdf"], 1, "rectangular puzzles only"),
    ],
)
def test_cli_refusals(tmp_path, monkeypatch, args, status, message):
    monkeypatch.chdir(tmp_path)
    shutil.copy(FLOWER, tmp_path / "f.clues")
    args = ["f.clues" if a == FLOWER else a for a in args]
    result = CliRunner().invoke(main, ["sheet", "f.clues", *args])
    assert result.exit_code == status, result.output
    assert message in result.output
    assert "Traceback" not in result.output
    assert not list(tmp_path.glob("x.*"))


def test_letters_name_each_group_colour():
    from rofl.render.layout import letter

    puzzle = open_puzzle(FLOWER).puzzle
    svg = hex_puzzle_svg(puzzle, letters=True)
    for kind, lines in (("row-clues", puzzle.rows), ("falling-clues", puzzle.falling), ("rising-clues", puzzle.rising)):
        want = [
            [f"{n}?" if isinstance(c, frozenset) else f"{n}{letter(c)}" for n, c in clue] or ["0"] for clue in lines
        ]
        assert _clues(svg, kind) == want
    assert "a = cherry #d02030" in svg
