"""Sheets a person can solve by hand: the colour key, ``--letters``, the
contrast of clue numbers, and PDF pages the sheet fills.

The key and the letters are read back from the PDF (pypdf, through
:mod:`tests.pdfread`) and from the SVG (as XML); the page's orientation and
the cell size are measured in millimetres from the PDF's lines.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rofl.formats import open_puzzle
from rofl.puzzle import Palette, Puzzle
from rofl.render.layout import (
    DIGIT_DROP,
    LETTERS,
    MIN_CONTRAST,
    PAGE_INCHES,
    colour_name,
    contrast,
    has_key,
    luminance,
    text_on,
)
from rofl.render.pdf import MAX_CELL_MM, book_orientation, puzzle_book, puzzle_pdf
from rofl.render.sheet import sheet_bytes
from rofl.render.svg import puzzle_svg
from rofl.secret import hide
from tests.clirun import run
from tests.pdfread import clue_box, pdf_grid, read_pdf
from tests.places import SAMPLES
from tests.render.test_sheet import by_id, svg_box

SVG = "{http://www.w3.org/2000/svg}"
WHITE, BLACK = (255, 255, 255), (0, 0, 0)
rgbs = st.tuples(*[st.integers(0, 255)] * 3)


def rocket() -> Puzzle:
    return open_puzzle(SAMPLES / "rocket.rofl").puzzle


def hexes(puzzle: Puzzle) -> list[str]:
    return puzzle.palette.hex()


# ------------------------------------------------------------------ contrast


def test_wcag_luminance_and_contrast():
    assert luminance(WHITE) == pytest.approx(1) and luminance(BLACK) == 0
    assert contrast(BLACK, WHITE) == pytest.approx(21) == contrast(WHITE, BLACK)
    # the WCAG figures everyone quotes: #777 on white just fails AA, #767676 passes
    assert contrast((0x77,) * 3, WHITE) == pytest.approx(4.48, abs=0.01)
    assert contrast((0x76,) * 3, WHITE) == pytest.approx(4.54, abs=0.01)
    assert contrast((255, 0, 0), WHITE) == pytest.approx(4.0, abs=0.01)


@given(rgbs)
def test_digits_read_on_every_box_colour(rgb):
    digits = text_on(rgb)
    assert digits in (BLACK, WHITE)
    # the better of black and white: the two contrasts multiply to 21
    assert contrast(digits, rgb) == max(contrast(BLACK, rgb), contrast(WHITE, rgb))
    assert contrast(digits, rgb) >= 21**0.5 - 1e-9 > MIN_CONTRAST


def boxed_numbers_of_svg(svg: str) -> list[tuple[str, str]]:
    """``(box fill, digits fill)`` of every boxed clue number of an SVG sheet."""
    import defusedxml.ElementTree as ET

    root = ET.fromstring(svg)
    out = []
    for name, across in (("row-clues", True), ("column-clues", False)):
        group = by_id(root, name)
        size = float(group.get("font-size"))
        for text in group.iter(f"{SVG}text"):
            x, y = float(text.get("x")), float(text.get("y"))
            box = svg_box(root, x - 1 if across else x, y - DIGIT_DROP * size)
            if text.text != "0":
                out.append((box.get("fill"), text.get("fill")))
    return out


def boxed_numbers_of_pdf(page: dict, puzzle: Puzzle) -> list[tuple[str, str]]:
    _, y0, cell = pdf_grid(page, puzzle)
    texts = [
        t
        for t in page["texts"]
        if t["y"] < y0 + puzzle.height * cell and t["text"] not in ("0", puzzle.meta.get("title"))
    ]
    return [(clue_box(page, t)["fill"], t["fill"]) for t in texts]


def rgb_of(hex_: str) -> tuple[int, int, int]:
    return tuple(int(hex_[i : i + 2], 16) for i in (1, 3, 5))  # type: ignore[return-value]


@settings(max_examples=30, deadline=None)
@given(st.lists(rgbs, min_size=2, max_size=8, unique=True))
def test_every_palette_colour_boxes_readable_digits_in_svg_and_pdf(colours):
    """Read back from the SVG and the PDF: every clue number of a colour
    puzzle stands in a box of its group's exact colour, its digits at a
    WCAG contrast of at least 4.5 on it."""
    palette = Palette([WHITE, *(c for c in colours if c != WHITE)][:8])
    grid = (np.arange(len(palette) - 1)[None, :] + 1).repeat(2, axis=0).astype(np.uint8)  # every colour once a line
    puzzle = Puzzle.from_grid(grid, palette)
    if not has_key(puzzle):  # black on white: plain black digits
        return
    svg = boxed_numbers_of_svg(puzzle_svg(puzzle))
    pdf = boxed_numbers_of_pdf(read_pdf(puzzle_pdf(puzzle)), puzzle)
    for found in (svg, pdf):
        assert {box for box, _ in found} == set(hexes(puzzle)[1:])
        for box, digits in found:
            assert contrast(rgb_of(box), rgb_of(digits)) >= MIN_CONTRAST


@given(rgbs)
def test_every_colour_has_a_name(rgb):
    assert re.fullmatch(r"[a-z][a-z' /]*", colour_name(rgb))


@pytest.mark.parametrize(
    ("rgb", "name"),
    [
        # the xkcd colour survey's names, nearest by ΔE2000, checked by eye against the swatches
        (WHITE, "white"),
        (BLACK, "black"),
        ((0xD2, 0x61, 0x3F), "terracotta"),  # an orange red, not "red" (issue 43)
        ((0x7F, 0x23, 0x23), "crimson"),  # a dark red: maroon-like, not "dark brown" (issue 43)
        ((0x8C, 0x60, 0x3C), "cocoa"),
        ((255, 255, 0), "yellow"),
        ((0, 128, 0), "tree green"),
        ((0x80, 0x80, 0x80), "medium grey"),
        ((0xF6, 0xE6, 0xDA), "very light pink"),
    ],
)
def test_colour_names(rgb, name):
    assert colour_name(rgb) == name


# ------------------------------------------------------------------ the key


def key_of_svg(svg: str) -> tuple[list[str], list[str]]:
    import defusedxml.ElementTree as ET

    root = ET.fromstring(svg)
    group = next((e for e in root.iter() if e.get("id") == "key"), None)
    if group is None:
        return [], []
    return [r.get("fill") for r in group.iter(f"{SVG}rect")], [t.text for t in group.iter(f"{SVG}text")]


def key_of_pdf(page: dict, puzzle: Puzzle) -> tuple[list[str], list[str]]:
    """Swatches and texts below the grid, in drawing order."""
    _, y0, cell = pdf_grid(page, puzzle)
    bottom = y0 + puzzle.height * cell
    swatches = [r["fill"] for r in page["rects"] if r["y"] > bottom]
    framed = [f for f in page["frames"] if f["y"] > bottom]
    assert len(framed) == len(swatches)  # every swatch has its frame
    return swatches, [t["text"] for t in page["texts"] if t["y"] > bottom]


def expected_key(puzzle: Puzzle, letters: bool = False) -> tuple[list[str], list[str]]:
    order = [*range(1, puzzle.n_colors), 0]
    colours = hexes(puzzle)
    texts = [f"{LETTERS[c - 1] if letters else c} = {colour_name(puzzle.palette[c])} {colours[c]}" for c in order[:-1]]
    texts.append(f"blank ({colour_name(puzzle.palette[0])} {colours[0]})")
    return [colours[c] for c in order], texts


@pytest.mark.parametrize("letters", [False, True])
def test_rocket_key_reads_back(letters):
    puzzle = rocket()
    swatches, texts = expected_key(puzzle, letters)
    assert texts[-1] == "blank (navy #0c1930)"  # the background is named, with its colour
    assert key_of_pdf(read_pdf(puzzle_pdf(puzzle, letters=letters)), puzzle) == (swatches, texts)
    assert key_of_svg(puzzle_svg(puzzle, letters=letters)) == (swatches, texts)


def test_black_and_white_sheets_have_no_key():
    # filled is black and blank is white on every printed griddler: nothing to explain
    puzzle = open_puzzle(SAMPLES / "hands-up.json").puzzle
    assert not has_key(puzzle)
    assert key_of_svg(puzzle_svg(puzzle)) == ([], [])
    assert key_of_pdf(read_pdf(puzzle_pdf(puzzle)), puzzle) == ([], [])
    # one colour that is not black on white is explained
    red = Puzzle.from_grid(np.array([[1, 0]]), Palette(["#ffffff", "#ff0000"]))
    assert key_of_svg(puzzle_svg(red))[1] == ["1 = fire engine red #ff0000", "blank (white #ffffff)"]


def test_png_key_widens_a_small_sheet():
    from PIL import Image

    puzzle = Puzzle.from_grid(np.array([[1, 2]]), Palette(["#1b2a4a", "#ff0000", "#ffff00"]))
    image = Image.open(__import__("io").BytesIO(sheet_bytes(puzzle, ".png")))
    plain = Image.open(__import__("io").BytesIO(sheet_bytes(Puzzle.from_grid(np.array([[1, 1]])), ".png")))
    assert image.height > plain.height + 2 * 26  # three key lines below the grid
    pixels = {tuple(p) for p in np.asarray(image.convert("RGB")).reshape(-1, 3).tolist()}
    assert {(0x1B, 0x2A, 0x4A), (255, 0, 0), (255, 255, 0)} <= pixels  # the swatches


# ------------------------------------------------------------------ letters


def lettered_clues(texts: list[str]) -> list[tuple[int, int]]:
    out = []
    for text in texts:
        m = re.fullmatch(r"(\d+)(\D?)", text)
        assert m, text
        out.append((int(m.group(1)), LETTERS.index(m.group(2)) + 1 if m.group(2) else 0))
    return out


def test_letters_read_back_from_svg_and_pdf():
    puzzle = rocket()
    groups = sorted((n, c) for clue in (*puzzle.rows, *puzzle.cols) for n, c in clue)
    empty = sum(not clue for clue in (*puzzle.rows, *puzzle.cols))
    want = sorted(groups + [(0, 0)] * empty)  # an empty line's 0 has no letter

    import defusedxml.ElementTree as ET

    root = ET.fromstring(puzzle_svg(puzzle, letters=True))
    texts = [t.text for e in root.iter() if e.get("id") in ("row-clues", "column-clues") for t in e.iter(f"{SVG}text")]
    assert sorted(lettered_clues(texts)) == want

    page = read_pdf(puzzle_pdf(puzzle, letters=True))
    _, y0, cell = pdf_grid(page, puzzle)
    size = min(t["size"] for t in page["texts"])
    texts = [t["text"] for t in page["texts"] if t["y"] < y0 + puzzle.height * cell and t["size"] == size]
    assert sorted(lettered_clues(texts)) == want


def test_letters_on_the_command_line(tmp_path):
    sheet = tmp_path / "r.svg"
    result = run("sheet", SAMPLES / "rocket.rofl", "-o", sheet, "--letters")
    assert result.exit_code == 0, result.output
    assert ">17c<" in sheet.read_text()  # "17c": 17 cells of colour 3
    assert key_of_svg(sheet.read_text())[1][0] == "a = charcoal grey #574d44"
    book = tmp_path / "b.pdf"
    assert run("sheet", SAMPLES / "rocket.rofl", SAMPLES / "coffee.rofl", "-o", book, "--letters").exit_code == 0
    page = read_pdf(book.read_bytes(), 1)
    assert "a = chocolate brown #37140d" in [t["text"] for t in page["texts"]]
    made = tmp_path / "m.pdf"
    result = run(
        "make", SAMPLES / "coffee.jpg", "-o", tmp_path / "m.rofl", "-w", 12, "-c", 3, "-q", "--sheet", made, "--letters"
    )
    assert result.exit_code == 0, result.output
    assert any(re.fullmatch(r"\d+a", t["text"]) for t in read_pdf(made.read_bytes())["texts"])


# ------------------------------------------------------------------ the page


def measure(data: bytes, puzzle: Puzzle, index: int | None = None) -> tuple[str, float, float]:
    """Orientation, cell size in mm, and how much of the printable area's
    width or height (whichever is tighter) the sheet takes."""
    page = read_pdf(data, index)
    _, _, cell = pdf_grid(page, puzzle)
    landscape = page["width"] > page["height"]
    area_w, area_h = (72 * s for s in sorted(PAGE_INCHES, reverse=landscape))
    xs = [v for line in page["lines"] for v in (line["x1"], line["x2"])] + [t["x"] for t in page["texts"]]
    ys = [v for line in page["lines"] for v in (line["y1"], line["y2"])] + [t["y"] for t in page["texts"]]
    used = max((max(xs) - min(xs)) / area_w, (max(ys) - min(ys)) / area_h)
    assert min(xs) >= (page["width"] - area_w) / 2 - 0.1 and max(xs) <= (page["width"] + area_w) / 2 + 0.1
    return ("landscape" if landscape else "portrait"), cell * 25.4 / 72, used


def test_small_puzzle_is_drawn_large():
    puzzle = open_puzzle(SAMPLES / "hands-up.json").puzzle  # 5x5
    orientation, cell_mm, _ = measure(puzzle_pdf(puzzle), puzzle)
    assert orientation == "portrait" and cell_mm == pytest.approx(MAX_CELL_MM, abs=0.01)  # as large as allowed
    # an explicit cell size prints at 96 dpi, as before
    assert measure(puzzle_pdf(puzzle, cell=26), puzzle)[1] == pytest.approx(26 * 25.4 / 96, abs=0.01)


def test_long_strip_turns_to_landscape():
    puzzle, _ = hide("correct horse")
    assert (puzzle.width, puzzle.height) == (119, 15)
    orientation, cell_mm, used = measure(puzzle_pdf(puzzle, title="Solve me"), puzzle)
    # 119 cells and row clues of up to ~40 numbers do not fit 4 mm cells on
    # A4 or Letter (docs/guide.md): the strip is turned and fills the width
    assert orientation == "landscape" and cell_mm > 1.7 and used == pytest.approx(1, abs=0.02)


def test_large_puzzle_fills_a_portrait_page():
    grid = (np.random.default_rng(1).random((100, 100)) < 0.5).astype(np.uint8)
    puzzle = Puzzle.from_grid(grid)
    orientation, cell_mm, used = measure(puzzle_pdf(puzzle), puzzle)
    assert orientation == "portrait" and 1.4 < cell_mm < MAX_CELL_MM and used == pytest.approx(1, abs=0.02)


def test_book_keeps_one_orientation():
    strip, _ = hide("correct horse")
    wide = Puzzle.from_grid(np.eye(20, 60, dtype=np.uint8))
    small = open_puzzle(SAMPLES / "hands-up.json").puzzle  # 12 mm either way: no preference
    data = puzzle_book([small, strip, wide, small])
    assert {measure(data, p, i)[0] for i, p in enumerate([small, strip, wide, small])} == {"landscape"}
    tall = Puzzle.from_grid(np.eye(60, 20, dtype=np.uint8))
    data = puzzle_book([tall, tall, strip])
    assert {measure(data, p, i)[0] for i, p in enumerate([tall, tall, strip])} == {"portrait"}
    assert book_orientation([(5.0, 5.0), (3.0, 4.0)]) is True
    assert book_orientation([(5.0, 5.0), (5.0, 5.0)]) is False  # a tie: portrait
    assert book_orientation([(5.0, 5.0), (5.0, 5.0), (3.0, 4.0)]) is True  # the small ones have no say


def test_letters_of_many_colours_stay_xml():
    # colours beyond 52 are signs, "&" among them: escaped in the SVG
    palette = Palette(["#ffffff", *[f"#{v:02x}0000" for v in range(4, 4 * 60, 4)]])
    puzzle = Puzzle.from_grid(np.arange(60, dtype=np.uint8).reshape(1, 60), palette)
    import defusedxml.ElementTree as ET

    root = ET.fromstring(puzzle_svg(puzzle, letters=True))
    rows = next(e for e in root.iter() if e.get("id") == "row-clues")
    assert sorted(lettered_clues([t.text for t in rows.iter(f"{SVG}text")])) == [(1, c) for c in range(1, 60)]
    assert "1&" in {t.text for t in rows.iter(f"{SVG}text")}


def test_png_clue_boxes_are_the_palette_colours():
    from rofl.render.sheet import puzzle_sheet, raster_layout

    puzzle = rocket()
    layout = raster_layout(puzzle, cell=26, title="")
    pixels = puzzle_sheet(puzzle, cell=26, title="").load()
    boxed = [n for n in layout.numbers if n.box is not None]
    assert len(boxed) == puzzle.n_groups  # every group's number, no empty line's 0
    for number in boxed:
        left, top, _, _ = number.box
        # just inside the frame, clear of the digits: the exact palette colour
        assert pixels[int(left) + 2, int(top) + 2] == number.fill
        assert contrast(number.color, number.fill) >= MIN_CONTRAST
