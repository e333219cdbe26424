"""The page with big colour boards in Chromium (issue 43): phones, printing,
unknown cells that no colour can be taken for, letters, keyboard runs.

Measured from the DOM and from pixels, as a player would see them; one
browser for the module (``test_page_browser.browser``).  Timings are not
asserted here: ``benchmarks/page_speed.py`` prints them.
"""

from __future__ import annotations

import io

import numpy as np
import pytest

import rofl
from rofl.formats import read_puzzle
from rofl.hexagon import Hexagon, HexPuzzle
from rofl.picture import colour
from rofl.puzzle import Palette, Puzzle
from rofl.render.page import puzzle_page
from tests.places import SAMPLES
from tests.render import test_page_browser
from tests.render.test_page_browser import centre, click, page_opener, reload_saved, state, write_pages

browser = test_page_browser.browser  # the Chromium fixture, shared

#: five ink colours no reader mixes up (no letters by default), one of them near-white
FIVE = Palette(["#ffffff", "#1f3a93", "#d35400", "#27ae60", "#f6e6da", "#111111"])
#: red and green: alike under simulated protanopia, so the page turns letters on
RED_GREEN = Palette(["#ffffff", "#ff0000", "#008000", "#0000ff"])


def _blobs(size: int, colours: int, seed: int) -> np.ndarray:
    """A size x size grid of rectangles in colours 1..colours: clues of one and two digits."""
    rng = np.random.default_rng(seed)
    grid = np.zeros((size, size), np.uint8)
    for _ in range(size * 4):
        r, c = rng.integers(0, size, 2)
        h, w = rng.integers(1, 7, 2)
        grid[r : r + h, c : c + w] = rng.integers(1, colours + 1)
    return grid


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    folder = tmp_path_factory.mktemp("layout-pages")
    hexagon = Hexagon.of(8)
    made = {
        "forty": Puzzle.from_grid(_blobs(40, 5, 4), FIVE, meta={"title": "Forty"}),
        "redgreen": Puzzle.from_grid(_blobs(12, 3, 5), RED_GREEN),
        "wide": Puzzle.from_grid(_blobs(27, 5, 6)[:20], FIVE),
        "bw": Puzzle.from_grid((_blobs(30, 1, 7) > 0).astype(np.uint8), meta={"title": "Black and white"}),
        "hex": HexPuzzle.from_cells(8, np.array([(q - r) % 4 for q, r, _ in hexagon.coords]), FIVE),
    }
    return write_pages(folder, made)


@pytest.fixture
def open_page(browser, pages, request, tmp_path_factory):
    yield from page_opener(browser, pages, request, tmp_path_factory, "layout-screenshots")


#: Pairs of visible clue numbers whose boxes overlap, and the smallest font size among them, measured in the page.
_CHIPS = """sel => {
  const boxes = [];
  let font = Infinity;
  for (const n of document.querySelectorAll(sel)) {
    const r = n.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || getComputedStyle(n).visibility === "hidden") continue;
    boxes.push(r);
    font = Math.min(font, parseFloat(getComputedStyle(n).fontSize));
  }
  boxes.sort((a, b) => a.left - b.left);
  let overlaps = 0;
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length && boxes[j].left < boxes[i].right - 0.5; j++) {
      if (boxes[j].top < boxes[i].bottom - 0.5 && boxes[i].top < boxes[j].bottom - 0.5) overlaps++;
    }
  }
  return {count: boxes.length, overlaps: overlaps, font: font};
}"""


def chips(page, selector: str = ".colband .n, .rowband .n") -> dict:
    return page.evaluate(_CHIPS, selector)


def cells_in_view(page) -> tuple[float, float]:
    """How many cells (columns, rows) show on the screen beside and under the clue bands."""
    return page.evaluate(
        """() => {
      const board = document.getElementById("board").getBoundingClientRect();
      const rows = document.querySelector(".rowband").getBoundingClientRect();
      const cols = document.querySelector(".colband").getBoundingClientRect();
      const cell = RoflPageState().cell;
      const right = Math.min(board.right, innerWidth), bottom = Math.min(board.bottom, innerHeight);
      return [(right - rows.right) / cell, (bottom - cols.bottom) / cell];
    }"""
    )


# ------------------------------------------------------------------ phones


@pytest.mark.parametrize("size", [(320, 568), (390, 844)], ids=["320x568", "390x844"])
def test_a_phone_shows_12_by_12_cells_of_20_px_with_readable_clues(open_page, size):
    page = open_page("forty", phone=True, width=size[0])
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.evaluate("document.getElementById('zoomfit').click()")
    s = state(page)
    assert s["cell"] >= 20
    across, down = cells_in_view(page)
    assert across >= 12 and down >= 12, (across, down)
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
    shown = chips(page)
    assert shown["count"] > 100 and shown["overlaps"] == 0 and shown["font"] >= 10, shown
    # the bar gives the whole clues of the touched cell's row and column, and the touch leaves no highlight
    page.touchscreen.tap(*centre(page, 5 * 40 + 3))
    data = page.evaluate("JSON.parse(document.getElementById('rofl-puzzle').textContent)")
    assert page.locator(".barclues .n").count() == len(data["rows"][5]) + len(data["cols"][3])
    assert chips(page, ".barclues .n")["overlaps"] == 0
    assert not page.locator(".linemark.row").is_visible()  # no highlight left
    # zoomed right out, the bands turn compact rather than overlap
    for _ in range(8):
        page.evaluate("document.getElementById('zoomout').click()")
    assert state(page)["cell"] <= 10
    assert chips(page)["overlaps"] == 0


def test_a_hexagon_fits_a_phone_s_width_and_takes_letters(open_page):
    page = open_page("hex", phone=True)
    box = page.locator("svg.hex").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    letter = page.locator("svg.hex .n.chip tspan.l").first
    assert not letter.is_visible()
    page.click("#more")
    page.click(".options summary")
    page.check("#opt-letters")
    assert letter.is_visible()


@pytest.fixture
def open_graded(browser, request, tmp_path_factory):
    """open_graded(name, phone=False): a page with ``--difficulty``'s line, of
    the horse sample (a short title) or of a hexagon (a long size line)."""
    folder = tmp_path_factory.mktemp("graded-pages")
    hexagon = Hexagon.of(8)
    made = {
        "horse": read_puzzle(SAMPLES / "horse.rofl")[0],
        "hex": HexPuzzle.from_cells(8, np.array([int(q * r > 0) for q, r, _ in hexagon.coords])),
    }
    urls = {}
    for name, puzzle in made.items():
        path = folder / f"{name}.html"
        path.write_text(puzzle_page(puzzle, title="horse", difficulty=True), encoding="utf-8")
        urls[name] = path.as_uri()
    yield from page_opener(browser, urls, request, tmp_path_factory, "graded-screenshots")


#: The header's title and difficulty line: how wide each shows and how wide its text is.
_HEADER = """() => {
  const h = document.querySelector("header h1"), d = document.getElementById("difficulty");
  return {title: [h.clientWidth, h.scrollWidth], right: d.getBoundingClientRect().right, text: d.innerText};
}"""


@pytest.mark.parametrize("name", ["horse", "hex"])
def test_the_difficulty_line_leaves_a_phone_s_title_whole(open_graded, name):
    """A phone's header is one line: the grade's figures fold away (as the
    toolbar's words do) rather than squeeze the title to its first letter
    or run past the screen; a desktop shows them."""
    grade = rofl.grade(read_puzzle(SAMPLES / "horse.rofl")[0]) if name == "horse" else None
    phone = open_graded(name, phone=True).evaluate(_HEADER)
    assert phone["title"][0] >= phone["title"][1], phone  # "horse" not cut
    assert phone["right"] <= 390, phone
    assert phone["text"].startswith("Difficulty: ") and "steps" not in phone["text"], phone
    desktop = open_graded(name).evaluate(_HEADER)
    assert "steps, hardest: " in desktop["text"], desktop
    if grade is not None:
        assert (
            desktop["text"]
            == f"Difficulty: {grade.name} ({grade.grade}/5, {grade.steps} steps, hardest: {grade.hardest.label})"
        )


def test_fit_shows_a_27_by_20_board_whole_on_a_desktop(open_page):
    page = open_page("wide")
    page.click("#zoomin")
    page.click("#zoomfit")
    board = page.locator("#board").bounding_box()
    assert board["y"] + board["height"] <= 800
    assert page.evaluate("(b => b.scrollHeight <= b.clientHeight && b.scrollWidth <= b.clientWidth)(board)")
    # a drag's length shows above the board, on the screen
    page.mouse.move(*centre(page, 0))
    page.mouse.down()
    page.mouse.move(*centre(page, 4), steps=4)
    where = page.locator("#where")
    assert "5 cells" in where.inner_text()
    assert 0 <= where.bounding_box()["y"] <= 800
    page.mouse.up()


# ------------------------------------------------------- cells and lines


def _pixels(page, i: int) -> np.ndarray:
    """The RGB pixels inside cell i (its lines left out), from a screenshot."""
    from PIL import Image

    x, y = centre(page, i)
    half = state(page)["cell"] / 2 - 3
    shot = page.screenshot(clip={"x": x - half, "y": y - half, "width": 2 * half, "height": 2 * half})
    return np.asarray(Image.open(io.BytesIO(shot)).convert("RGB"), dtype=np.float64)


def test_unknown_cells_are_told_apart_from_near_white_painted_ones(open_page):
    page = open_page("forty")
    page.keyboard.press("4")  # #f6e6da: ΔE2000 9 from white
    click(page, 0)
    assert state(page)["grid"][0] == 4
    page.mouse.move(5, 5)  # no highlight
    painted, unknown = _pixels(page, 0), _pixels(page, 2)
    lab = colour.rgb8_to_lab(np.array([painted.mean(axis=(0, 1)), unknown.mean(axis=(0, 1))]).round().astype(np.uint8))
    assert colour.ciede2000(lab[0], lab[1]) >= 10
    assert painted.std(axis=(0, 1)).max() < 2  # a flat colour...
    assert unknown.std(axis=(0, 1)).max() > 4  # ...against a hatch
    # grid lines: at least 3:1 against white
    x, y = centre(page, 0)
    cell = state(page)["cell"]
    from PIL import Image

    shot = page.screenshot(clip={"x": x + cell / 2 - 2, "y": y - 2, "width": 5, "height": 4})
    darkest = np.asarray(Image.open(io.BytesIO(shot)).convert("L"), dtype=np.float64).min() / 255
    linear = darkest / 12.92 if darkest <= 0.04045 else ((darkest + 0.055) / 1.055) ** 2.4
    assert 1.05 / (linear + 0.05) >= 3


# ---------------------------------------------------------------- letters


def test_letters_turn_on_for_colours_alike_to_colour_blind_readers(open_page):
    page = open_page("redgreen")
    assert "letters" in page.locator("body").get_attribute("class")
    first = page.locator(".rowband .n.chip").first
    assert first.locator(".l").is_visible()
    assert "protanopia" in page.locator("label:has(#opt-letters)").text_content()
    label = page.locator(".tool").first.get_attribute("aria-label")
    assert label.startswith("Paint colour 1 (") and ", a)" in label  # a name and the letter
    assert chips(page)["overlaps"] == 0
    page.click(".options summary")
    page.uncheck("#opt-letters")
    assert not first.locator(".l").is_visible()
    reload_saved(page)
    assert "letters" not in (page.locator("body").get_attribute("class") or "")


def test_letters_are_an_option_for_other_palettes(open_page):
    page = open_page("forty")
    assert "letters" not in (page.locator("body").get_attribute("class") or "")
    page.click(".options summary")
    page.check("#opt-letters")
    assert page.locator(".colband .n.chip .l").first.is_visible()
    assert chips(page)["overlaps"] == 0


# ---------------------------------------------------------------- keyboard


def test_shift_arrows_paint_a_run_and_keys_strike_clues(open_page):
    page = open_page("forty")
    page.keyboard.press("2")
    page.focus("#board")
    page.keyboard.down("Shift")
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    page.keyboard.up("Shift")
    assert state(page)["grid"][:5] == [2, 2, 2, 2, 0]
    assert "4 cells" in page.locator("#where").inner_text() or state(page)["grid"][3] == 2
    page.keyboard.press("Control+z")  # one step
    assert state(page)["grid"][:4] == [0, 0, 0, 0]
    page.keyboard.press("r")
    page.keyboard.press("c")
    page.keyboard.press("c")
    assert state(page)["struck"] == ["c3.0", "c3.1", "r0.0"]
    assert "struck" in page.locator('.rowband [data-k="r0.0"]').get_attribute("class")
    # screen readers hear the colour's name
    page.keyboard.press("Space")
    assert "terracotta" not in page.locator("#where").inner_text()  # this palette has no terracotta...
    assert "colour 2 (" in page.locator("#where").inner_text()  # ...but a name in brackets


# ----------------------------------------------------------------- printing


@pytest.mark.parametrize("name", ["forty", "bw"])
def test_printing_fills_the_page_with_legible_clues_and_a_key(open_page, name):
    from pypdf import PdfReader

    page = open_page(name)
    pdf = page.pdf(format="A4", print_background=True, prefer_css_page_size=True)
    reader = PdfReader(io.BytesIO(pdf))
    assert len(reader.pages) == 1
    text = reader.pages[0].extract_text()
    assert name in text  # the title
    if name == "forty":
        assert "sapphire" in text and "blank" in text  # the key names the colours
    # the print layout itself, as page.pdf() saw it
    page.emulate_media(media="print")
    page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
    grid = page.locator(".gridwrap").bounding_box()
    printable = (210 - 20) / 25.4 * 96, (297 - 20) / 25.4 * 96  # A4 less page.css's margins, CSS px
    if "landscape" in page.evaluate("document.getElementById('page-size').textContent"):
        printable = printable[::-1]
    assert grid["width"] >= 0.85 * printable[0] or grid["height"] >= 0.75 * printable[1], grid
    shown = chips(page)
    assert shown["overlaps"] == 0 and shown["font"] >= 6.5, shown
    assert page.locator(".n.hid").count() == 0  # every number printed


def test_axe_finds_no_violations_in_the_bands_and_the_bar(open_page):
    axe = pytest.importorskip("axe_playwright_python.sync_playwright", reason="axe-playwright-python not installed")
    page = open_page("forty", phone=True, width=320)
    page.touchscreen.tap(*centre(page, 41))
    assert page.locator(".barclues .n").count() > 0
    page.click("#more")
    results = axe.Axe().run(page)
    assert results.violations_count == 0, results.generate_report()
