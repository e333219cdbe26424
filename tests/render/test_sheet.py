"""Printable sheets: the SVG and raster renderers, ``rofl sheet``, and ``--sheet`` of make and hide.

The SVG is read back as XML: the clue numbers of every row and column (by
their position and colour) must be the puzzle's clues, and the filled
rectangles of a solution sheet must paint exactly the solution.
"""

from __future__ import annotations

import math
import os
import re
from pathlib import Path

import defusedxml.ElementTree as ET
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from rofl.errors import LimitError, OptionError
from rofl.formats import read_puzzle, write_puzzle
from rofl.puzzle import Palette, Puzzle
from rofl.render.layout import DIGIT_DROP, MAX_PIXELS, MAX_SIDE, default_cell, print_dpi, sheet_layout
from rofl.render.pdf import puzzle_pdf
from rofl.render.sheet import puzzle_sheet, raster_layout, sheet_bytes
from rofl.render.svg import SvgString, puzzle_svg
from rofl.solver import solve
from tests.clirun import one_error_line, run, usage_error_line
from tests.pdfread import A4, check_pdf_sheet, expected_clues, pdf_clues, pdf_fills, pdf_grid, read_pdf
from tests.places import SAMPLES, corpus_file

SVG = "{http://www.w3.org/2000/svg}"
HOSTILE_TITLE = 'a</text><script>alert("x")</script> & "q" <b> \'s\' ]]>'


# ------------------------------------------------------------------ reading an SVG sheet back


def parse(svg: str | bytes):
    root = ET.fromstring(svg.encode("utf-8") if isinstance(svg, str) else svg)
    assert root.tag == f"{SVG}svg" and root.get("version") == "1.1"
    return root


def by_id(root, name: str):
    found = [e for e in root.iter() if e.get("id") == name]
    assert len(found) <= 1
    return found[0] if found else None


def origin(root) -> tuple[float, float]:
    m = re.fullmatch(r"translate\(([-\d.]+) ([-\d.]+)\)", by_id(root, "grid").get("transform"))
    assert m
    return float(m.group(1)), float(m.group(2))


def svg_box(root, x: float, y: float):
    """The clue box (``<rect>`` of group ``clue-boxes``) around ``(x, y)``, or None."""
    group = by_id(root, "clue-boxes")
    for rect in [] if group is None else group.iter(f"{SVG}rect"):
        left, top = float(rect.get("x")), float(rect.get("y"))
        if left <= x <= left + float(rect.get("width")) and top <= y <= top + float(rect.get("height")):
            return rect
    return None


def read_clues(root, puzzle: Puzzle, cell: int):
    """Every row's and column's numbers as ``(number, "#rrggbb")``, found by
    where they stand: a row's left of the grid within its height, a
    column's above the grid within its width.  The colour is the box's the
    number stands in (:func:`svg_box`, around the middle of its digits),
    else the number's own."""
    x0, y0 = origin(root)
    _, _, width, height = (float(v) for v in root.get("viewBox").split())
    rows: list[list] = [[] for _ in range(puzzle.height)]
    cols: list[list] = [[] for _ in range(puzzle.width)]
    for group, lines, across in ((by_id(root, "row-clues"), rows, True), (by_id(root, "column-clues"), cols, False)):
        for text in group.iter(f"{SVG}text"):
            x, y = float(text.get("x")), float(text.get("y"))
            assert 0 <= x <= width and 0 <= y <= height  # on the page
            if across:
                assert x <= x0
                i = math.floor((y - y0) / cell)
                key = x
            else:
                assert y <= y0
                i = math.floor((x - x0) / cell)
                key = y
            assert 0 <= i < len(lines), (text.text, x, y)
            size = float(group.get("font-size"))
            box = svg_box(root, x - 1 if across else x, y - DIGIT_DROP * size)
            lines[i].append((key, int(text.text), text.get("fill") if box is None else box.get("fill")))
    return [[(n, fill) for _, n, fill in sorted(line)] for line in rows], [
        [(n, fill) for _, n, fill in sorted(line)] for line in cols
    ]


def read_fills(root, puzzle: Puzzle, cell: int) -> np.ndarray:
    """The colour every cell ends up painted, rectangle after rectangle."""
    painted = np.full((puzzle.height, puzzle.width), "", dtype=object)
    for rect in by_id(root, "solution").iter(f"{SVG}rect"):
        x, y = float(rect.get("x", 0)), float(rect.get("y", 0))
        w, h = float(rect.get("width")), float(rect.get("height"))
        for v in (x, y, w, h):
            assert v == int(v) and int(v) % cell == 0  # whole cells
        painted[int(y) // cell : int(y + h) // cell, int(x) // cell : int(x + w) // cell] = rect.get("fill")
    return painted


# ------------------------------------------------------------------ puzzles to draw


@st.composite
def pictures(draw, max_side: int = 12):
    k = draw(st.integers(2, 5))
    colours = draw(
        st.lists(st.tuples(*[st.integers(0, 255)] * 3), min_size=k - 1, max_size=k - 1)
    )  # background is white, as on paper
    palette = Palette([(255, 255, 255), *colours])
    h, w = draw(st.integers(1, max_side)), draw(st.integers(1, max_side))
    # sparse grids too, so that empty lines are common
    density = draw(st.sampled_from([0.0, 0.2, 0.6, 1.0]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    grid = np.where(rng.random((h, w)) < density, rng.integers(1, k, (h, w)), 0).astype(np.uint8)
    return Puzzle.from_grid(grid, palette), grid


SMALL = [
    np.array([[0]]),
    np.array([[1]]),
    np.array([[0, 0, 0]]),
    np.array([[1], [0], [1]]),
    np.array([[1, 2, 2, 0, 1], [0, 0, 0, 0, 0], [3, 3, 1, 1, 2]]),
]
FOUR = Palette(["#ffffff", "#000000", "#ff0000", "#ffff00"])


# ------------------------------------------------------------------ SVG


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pictures(), st.sampled_from([None, 6, 13, 26]), st.booleans())
def test_svg_clues_and_solution_read_back(case, cell, with_solution):
    puzzle, grid = case
    svg = puzzle_svg(puzzle, solution=grid if with_solution else None, cell=cell)
    root = parse(svg)
    size = cell or default_cell(puzzle.width, puzzle.height)
    assert read_clues(root, puzzle, size) == expected_clues(puzzle)
    if with_solution:
        np.testing.assert_array_equal(read_fills(root, puzzle, size), np.array(puzzle.palette.hex())[grid])
    else:
        assert by_id(root, "solution") is None


@pytest.mark.parametrize("grid", SMALL, ids=lambda g: "x".join(map(str, g.shape)))
def test_svg_small_and_empty_lines(grid):
    puzzle = Puzzle.from_grid(grid, FOUR)
    root = parse(puzzle_svg(puzzle, solution=grid, cell=20))
    assert read_clues(root, puzzle, 20) == expected_clues(puzzle)
    np.testing.assert_array_equal(read_fills(root, puzzle, 20), np.array(FOUR.hex())[grid])
    # one number per group, and a single 0 for each empty line
    texts = [t.text for name in ("row-clues", "column-clues") for t in by_id(root, name).iter(f"{SVG}text")]
    empty = sum(not clue for clue in (*puzzle.rows, *puzzle.cols))
    assert len(texts) == puzzle.n_groups + empty
    assert texts.count("0") == empty


def test_svg_colour_clues_stand_in_boxes_of_their_colour():
    puzzle = Puzzle.from_grid(np.array([[1, 2, 3]]), FOUR)
    root = parse(puzzle_svg(puzzle))
    boxes = [r.get("fill") for r in by_id(root, "clue-boxes").iter(f"{SVG}rect")]
    texts = [t.get("fill") for t in by_id(root, "row-clues").iter(f"{SVG}text")]
    # the exact colours (red and yellow are too light for digits on white,
    # so they no longer print darkened): white digits on black, black on
    # red and yellow; the column of each cell has the same
    assert sorted(boxes) == sorted(["#000000", "#ff0000", "#ffff00"] * 2)
    assert sorted(texts) == ["#000000", "#000000", "#ffffff"]
    # black on white needs no boxes
    plain = parse(puzzle_svg(Puzzle.from_grid(np.array([[1, 0, 1]]))))
    assert by_id(plain, "clue-boxes") is None


def test_svg_background_colour_fills_the_grid():
    palette = Palette(["#203040", "#ffffff"])  # white figure on a dark background
    grid = np.array([[0, 1], [1, 1]])
    puzzle = Puzzle.from_grid(grid, palette)
    root = parse(puzzle_svg(puzzle, solution=grid, cell=10))
    assert read_fills(root, puzzle, 10).tolist() == [["#203040", "#ffffff"], ["#ffffff", "#ffffff"]]


def test_svg_title_is_escaped():
    puzzle = Puzzle.from_grid(np.array([[1, 0], [1, 1]]))
    root = parse(puzzle_svg(puzzle, title=HOSTILE_TITLE + "\x00\x1b"))
    shown = HOSTILE_TITLE + "\ufffd\ufffd"  # characters XML cannot hold at all
    assert root.find(f"{SVG}title").text == shown
    assert by_id(root, "title").text == shown
    assert not any(e.tag.endswith("script") or e.tag.endswith("b") for e in root.iter())
    # the title comes from the puzzle's metadata by default; "" prints none
    titled = Puzzle.from_grid(np.array([[1]]), meta={"title": "<&>"})
    assert parse(puzzle_svg(titled)).find(f"{SVG}title").text == "<&>"
    assert parse(puzzle_svg(titled, title="")).find(f"{SVG}title") is None


def test_svg_is_shown_by_notebooks():
    puzzle = Puzzle.from_grid(np.array([[1, 0, 1]]), meta={"title": "nb"})
    svg = puzzle_svg(puzzle)
    assert isinstance(svg, SvgString) and svg._repr_svg_() is svg
    shown = puzzle._repr_svg_()
    assert shown == svg
    root = parse(shown)
    assert read_clues(root, puzzle, default_cell(3, 1)) == expected_clues(puzzle)


def test_svg_prints_at_page_scale():
    small = parse(puzzle_svg(Puzzle.from_grid(np.eye(3, dtype=np.uint8))))
    _, _, w, h = (float(v) for v in small.get("viewBox").split())
    assert small.get("width") == f"{w * 25.4 / 96:.2f}".rstrip("0").rstrip(".") + "mm"  # 96 dpi: cells 1:1
    big = parse(puzzle_svg(Puzzle.from_grid(np.eye(120, dtype=np.uint8))))
    width_mm, height_mm = float(big.get("width")[:-2]), float(big.get("height")[:-2])
    assert max(width_mm / 190.5, height_mm / 254) == pytest.approx(1, abs=0.01)  # fills the page


def test_bad_solutions_are_refused():
    grid = np.array([[1, 0], [1, 1]])
    puzzle = Puzzle.from_grid(grid)
    for render in (puzzle_svg, puzzle_sheet):
        with pytest.raises(OptionError, match=r"shape \(3, 2\)"):
            render(puzzle, solution=np.zeros((3, 2), dtype=np.uint8))
        with pytest.raises(OptionError, match="row 1, column 2: value 5 is outside the palette"):
            render(puzzle, solution=np.array([[1, 5], [1, 1]]))
        with pytest.raises(OptionError, match=r"does not fit the clues \(row 1\)"):
            render(puzzle, solution=np.array([[1, 1], [1, 1]]))


def test_size_limits():
    big = Puzzle.from_grid(np.zeros((1, 2000), dtype=np.uint8))
    for render in (puzzle_svg, puzzle_sheet):
        with pytest.raises(OptionError, match="too large"):
            render(big, cell=20)
        with pytest.raises(OptionError, match="too small"):
            render(big, cell=5)
    # by default the cell shrinks until the sheet fits
    root = parse(puzzle_svg(big))
    _, _, w, h = (float(v) for v in root.get("viewBox").split())
    assert w <= MAX_SIDE and h <= MAX_SIDE and w > 2000 * 6
    # no cell fits: the puzzle is too large, not an option (a LimitError, exit status 1)
    with pytest.raises(LimitError, match="too large: at least 36012x"):
        puzzle_svg(Puzzle.from_grid(np.zeros((1, 6000), dtype=np.uint8)))

    def width(text, size):
        return 0.6 * size * len(text)

    square = Puzzle.from_grid(np.eye(1000, dtype=np.uint8))
    layout = sheet_layout(
        square, cell=None, title=None, text_width=width, title_height=lambda t, s: s, max_pixels=MAX_PIXELS
    )
    assert layout.width * layout.height <= MAX_PIXELS and layout.cell < default_cell(1000, 1000)


# ------------------------------------------------------------------ raster


def centres(image: Image.Image, puzzle: Puzzle, cell: int) -> np.ndarray:
    """Colours at the cell centres of a sheet without a title, where :func:`raster_layout` puts the grid."""
    layout = raster_layout(puzzle, cell=cell, title="")
    assert image.size == (layout.width, layout.height)
    x0, y0 = layout.x0, layout.y0
    ys = y0 + np.arange(puzzle.height) * cell + cell // 2
    xs = x0 + np.arange(puzzle.width) * cell + cell // 2
    return np.asarray(image.convert("RGB"))[np.ix_(ys, xs)]


@settings(max_examples=25, deadline=None)
@given(pictures(max_side=9), st.sampled_from([6, 11, 20]))
def test_raster_solution_sheet_cells(case, cell):
    puzzle, grid = case
    filled = puzzle_sheet(puzzle, solution=grid, cell=cell, title="")
    np.testing.assert_array_equal(centres(filled, puzzle, cell), puzzle.palette.to_array()[grid])
    empty = puzzle_sheet(puzzle, cell=cell, title="")
    assert empty.size == filled.size
    assert (centres(empty, puzzle, cell) == 255).all()


def test_sheet_bytes_formats():
    puzzle = Puzzle.from_grid(SMALL[-1], FOUR, meta={"title": HOSTILE_TITLE})
    png = sheet_bytes(puzzle, ".png", solution=SMALL[-1])
    with Image.open(__import__("io").BytesIO(png)) as image:
        assert image.format == "PNG"
        assert image.info["dpi"][0] == pytest.approx(print_dpi(*image.size), abs=0.05)  # stored per metre
    page = check_pdf_sheet(sheet_bytes(puzzle, "pdf"), puzzle, None)  # one page, the clues, no fills
    assert list(page["reader"].attachments) == ["puzzle.rofl"]
    parse(sheet_bytes(puzzle, "SVG"))
    with pytest.raises(OptionError, match=r"written as \.png, \.pdf or \.svg, not '\.gif'"):
        sheet_bytes(puzzle, ".gif")


# ------------------------------------------------------------------ rofl sheet


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """A .rofl file that ``rofl make`` made from a sample picture (stores no solution, only its CRC)."""
    out = tmp_path_factory.mktemp("made") / "horse.rofl"
    result = run("make", SAMPLES / "horse.png", "-o", out, "-w", 16, "-q")
    assert result.exit_code == 0, result.output
    return out


def check_sheet_file(path: Path, puzzle: Puzzle, solution: np.ndarray | None, cell: int) -> None:
    data = path.read_bytes()
    if path.suffix == ".svg":
        root = parse(data)
        assert read_clues(root, puzzle, cell) == expected_clues(puzzle)
        if solution is None:
            assert by_id(root, "solution") is None
        else:
            np.testing.assert_array_equal(read_fills(root, puzzle, cell), np.array(puzzle.palette.hex())[solution])
    elif path.suffix == ".png":
        with Image.open(path) as image:
            assert image.format == "PNG"
            got = centres(image, puzzle, cell)
        want = np.full_like(got, 255) if solution is None else puzzle.palette.to_array()[solution]
        np.testing.assert_array_equal(got, want)
    else:
        assert data.startswith(b"%PDF") and data.rstrip().endswith(b"%%EOF")
        check_pdf_sheet(data, puzzle, solution)  # vector: clues and fills read back


@pytest.mark.parametrize("suffix", [".png", ".pdf", ".svg"])
@pytest.mark.parametrize("with_solution", [False, True])
def test_cli_sheet_of_a_made_puzzle(made, tmp_path, suffix, with_solution):
    out = tmp_path / f"sheet{suffix}"
    args = ["sheet", made, "-o", out, "--cell", 14, "--title", ""] + (["--solution"] if with_solution else [])
    result = run(*args)
    assert result.exit_code == 0, result.output
    puzzle, _ = read_puzzle(made)
    what = "solution sheet" if with_solution else "sheet"
    assert result.output == f"{out}: {what} of a {puzzle.width}x{puzzle.height} puzzle, 2 colours\n"
    check_sheet_file(out, puzzle, solve(puzzle).grid if with_solution else None, 14)
    assert [p.name for p in tmp_path.iterdir()] == [out.name]  # no temporary file left


def test_cli_sheet_title_from_file_and_hostile(made, tmp_path):
    out = tmp_path / "t.svg"
    assert run("sheet", made, "-o", out).exit_code == 0
    assert parse(out.read_bytes()).find(f"{SVG}title").text == "horse"  # rofl make stores the picture's name
    for suffix in (".svg", ".png", ".pdf"):
        out = tmp_path / f"h{suffix}"
        assert run("sheet", made, "-o", out, "--title", HOSTILE_TITLE).exit_code == 0
    assert by_id(parse((tmp_path / "h.svg").read_bytes()), "title").text == HOSTILE_TITLE


@pytest.mark.parametrize(
    "name",
    [
        "jwilk-nonogram/jwilk-data000.json",  # no stored solution: solved
        "nonny/color-rainbow.json",  # colour, stored solution
        "webpbn-survey-color/webpbn-00047.json",
    ],
)
def test_cli_sheet_of_corpus_puzzles(tmp_path, name):
    path = corpus_file(name)
    puzzle, stored = read_puzzle(path)
    solution = stored if stored is not None else solve(puzzle).grid
    assert solution is not None
    for suffix in (".svg", ".png", ".pdf"):
        for flag in ([], ["--solution"]):
            out = tmp_path / f"c{suffix}"
            result = run("sheet", path, "-o", out, "--cell", 12, "--title", "", *flag)
            assert result.exit_code == 0, result.output
            check_sheet_file(out, puzzle, solution if flag else None, 12)


def test_cli_sheet_errors(made, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    ambiguous = tmp_path / "diagonal.json"  # two solutions: either diagonal
    write_puzzle(ambiguous, Puzzle(2, 2, Palette.black_white(), [[(1, 1)], [(1, 1)]], [[(1, 1)], [(1, 1)]]))
    junk = tmp_path / "junk.json"
    junk.write_bytes(b"\x00\xffnot a puzzle")
    truncated = tmp_path / "cut.rofl"
    truncated.write_bytes(made.read_bytes()[:-5])
    before = sorted(p.name for p in tmp_path.iterdir())
    cases = [
        (["sheet", "missing.json", "-o", "out.svg"], ["missing.json"]),
        (["sheet", junk, "-o", "out.svg"], ["junk.json", "not valid JSON"]),
        (["sheet", truncated, "-o", "out.svg"], ["cut.rofl"]),
        (["sheet", tmp_path, "-o", "out.svg"], [str(tmp_path)]),
        (["sheet", ambiguous, "-o", "out.svg", "--solution"], ["diagonal.json", "several solutions"]),
    ]
    for args, words in cases:
        one_error_line(run(*args), *words)
    usages = [
        (["sheet", made, "-o", "out.gif"], ["out.gif", "a sheet is written as .png, .pdf or .svg"]),
        (["sheet", made, "-o", "out"], ["'(no extension)'"]),
        (["sheet", made, "-o", "out.png", "--cell", 3], ["cell size 3 px is too small"]),
        (["sheet", made, "-o", "out.png", "--cell", 0], ["--cell"]),
        (["sheet", made, "-o", "out.png", "--cell", 4000], ["too large"]),  # judged by the library
        (["sheet", made, "-o", "nowhere/out.png"], ["nowhere/out.png", "does not exist"]),
        (["sheet", made, "-o", "out.png", "--budget", "nan"], ["--budget"]),
    ]
    for args, words in usages:
        usage_error_line(run(*args), *words)
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    # without --solution an ambiguous puzzle still has a sheet to solve
    assert run("sheet", ambiguous, "-o", "ok.svg").exit_code == 0


# ------------------------------------------------------------------ make --sheet, hide --sheet


def test_make_sheet(samples, tmp_path):
    out, sheet = tmp_path / "h.json", tmp_path / "h.svg"
    result = run("make", samples / "horse.png", "-o", out, "-w", 12, "-q", "--sheet", sheet)
    assert result.exit_code == 0, result.output
    puzzle, solution = read_puzzle(out)
    root = parse(sheet.read_bytes())
    assert read_clues(root, puzzle, default_cell(puzzle.width, puzzle.height)) == expected_clues(puzzle)
    assert by_id(root, "solution") is None  # a sheet to solve, not the answer
    for suffix in (".png", ".pdf"):
        sheet = tmp_path / f"h{suffix}"
        assert run("make", samples / "horse.png", "-o", out, "-w", 12, "-q", "--sheet", sheet).exit_code == 0
        assert sheet.stat().st_size > 1000


@pytest.mark.parametrize(
    ("name", "words"), [("s.gif", ["--sheet", "a sheet is written as"]), ("no/s.svg", ["--sheet"])]
)
def test_make_sheet_checked_before_the_run(samples, tmp_path, name, words):
    result = run("make", samples / "horse.png", "-o", tmp_path / "h.json", "--sheet", tmp_path / name)
    assert result.exit_code != 0
    lines = [line for line in result.output.splitlines() if line.startswith("Error")]
    assert len(lines) == 1 and all(w in lines[0] for w in words), result.output
    assert list(tmp_path.iterdir()) == []  # refused before anything was made


def test_hide_sheet_svg_is_private(tmp_path):
    sheet = tmp_path / "s.svg"
    result = run("hide", "hi", "--sheet", sheet)
    assert result.exit_code == 0, result.output
    root = parse(sheet.read_bytes())
    assert root.find(f"{SVG}title").text == "Solve me"
    from rofl.secret import hide

    puzzle, _ = hide("hi")
    assert read_clues(root, puzzle, default_cell(puzzle.width, puzzle.height)) == expected_clues(puzzle)
    if os.name == "posix":
        assert sheet.stat().st_mode & 0o777 == 0o600


# ------------------------------------------------------------------ PDF


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pictures(), st.sampled_from([None, 6, 13, 26]), st.booleans())
def test_pdf_clues_and_solution_read_back(case, cell, with_solution):
    from rofl.render.pdf import puzzle_pdf

    puzzle, grid = case
    solution = grid if with_solution else None
    page = check_pdf_sheet(puzzle_pdf(puzzle, solution=solution, cell=cell), puzzle, solution)
    if cell is not None:  # an explicit cell prints at the PNG's and SVG's scale: 96 layout pixels to the inch
        assert pdf_grid(page, puzzle)[2] == pytest.approx(cell * 72 / 96, abs=0.01)
    else:  # the sheet fills the page, up to cells of 12 mm (tests/render/test_page_fill.py)
        assert pdf_grid(page, puzzle)[2] <= 12 * 72 / 25.4 + 0.01


@pytest.mark.parametrize("grid", SMALL, ids=lambda g: "x".join(map(str, g.shape)))
def test_pdf_small_and_empty_lines(grid):
    from rofl.render.pdf import puzzle_pdf

    puzzle = Puzzle.from_grid(grid, FOUR)
    page = check_pdf_sheet(sheet_bytes(puzzle, ".pdf", solution=grid, cell=20), puzzle, grid)
    _, y0, c = pdf_grid(page, puzzle)
    texts = [t["text"] for t in page["texts"] if t["y"] < y0 + puzzle.height * c]  # the key stands below
    empty = sum(not clue for clue in (*puzzle.rows, *puzzle.cols))
    assert len(texts) == puzzle.n_groups + empty and texts.count("0") == empty
    # digits are black or white (on boxes of their colour, read by check_pdf_sheet);
    # thick lines are black and twice as wide as the thin grey ones
    assert {t["fill"] for t in page["texts"]} <= {"#000000", "#ffffff"}
    widths = {(line["stroke"], line["w"]) for line in page["lines"]}
    assert {s for s, _ in widths} <= {"#000000", "#a0a0a0"}
    for stroke, w in widths:
        assert w == pytest.approx(1.5 if stroke == "#000000" else 0.75)
    check_pdf_sheet(puzzle_pdf(puzzle, cell=20), puzzle, None)


def test_pdf_background_colour_fills_the_grid():
    from rofl.render.pdf import puzzle_pdf

    palette = Palette(["#203040", "#ffffff"])  # white figure on a dark background
    grid = np.array([[0, 1], [1, 1]])
    puzzle = Puzzle.from_grid(grid, palette)
    page = read_pdf(puzzle_pdf(puzzle, solution=grid, cell=10))
    assert pdf_fills(page, puzzle).tolist() == [["#203040", "#ffffff"], ["#ffffff", "#ffffff"]]


@pytest.mark.parametrize(
    ("title", "printed"),
    [
        ("<&>", "<&>"),
        (HOSTILE_TITLE, HOSTILE_TITLE),
        ("Ωμέγα 日本", "????? ??"),  # Helvetica has no Greek nor CJK
        ("Café – “ﬁne” Łódź ő", "Café – “fine” ?ódz o"),  # Windows-1252 prints; ligature and accents plainer
        ("a\x00\x1b\ud800b", "a???b"),  # control characters, a lone surrogate from a file
    ],
    ids=["xml", "hostile", "greek-cjk", "western", "control"],
)
def test_pdf_title(title, printed):
    from rofl.render.pdf import puzzle_pdf

    grid = np.array([[1, 0], [1, 1]])
    puzzle = Puzzle.from_grid(grid, meta={"title": title})
    page = read_pdf(puzzle_pdf(puzzle))
    big = max(t["size"] for t in page["texts"])
    assert [t["text"] for t in page["texts"] if t["size"] == big] == [printed]
    # the metadata keeps the title itself, less what no PDF string can hold
    want = "".join("\ufffd" if ch in "\x00\x1b\ud800" else ch for ch in title)
    assert page["reader"].metadata.title == want
    # the title stands above the clues and the grid; the clues still read back
    title_text = next(t for t in page["texts"] if t["size"] == big)
    assert all(title_text["y"] < t["y"] - t["size"] for t in page["texts"] if t is not title_text)
    assert pdf_clues(page, puzzle) == expected_clues(puzzle)
    untitled = read_pdf(puzzle_pdf(puzzle, title=""))
    assert untitled["reader"].metadata.title is None
    assert pdf_clues(untitled, puzzle) == expected_clues(puzzle)


def test_pdf_page_and_scale(monkeypatch):
    from rofl.render.pdf import puzzle_pdf

    def extent(page):
        xs = [v for line in page["lines"] for v in (line["x1"], line["x2"])] + [t["x"] for t in page["texts"]]
        ys = [v for line in page["lines"] for v in (line["y1"], line["y2"])] + [t["y"] for t in page["texts"]]
        return min(xs), min(ys), max(xs), max(ys)

    tall = Puzzle.from_grid(np.eye(120, 60, dtype=np.uint8))
    wide = Puzzle.from_grid(np.eye(40, 200, dtype=np.uint8))
    for puzzle, size, area in ((tall, A4, (540, 720)), (wide, A4[::-1], (720, 540))):
        page = check_pdf_sheet(puzzle_pdf(puzzle), puzzle, None)
        assert (page["width"], page["height"]) == pytest.approx(size)  # A4, turned for a wide sheet
        left, top, right, bottom = extent(page)
        # a large sheet shrinks to the printable area A4 and Letter share, centred on the page
        margins = ((page["width"] - area[0]) / 2, (page["height"] - area[1]) / 2)
        assert left >= margins[0] - 0.1 and top >= margins[1] - 0.1
        assert right <= page["width"] - margins[0] + 0.1 and bottom <= page["height"] - margins[1] + 0.1
        assert max(left - margins[0], top - margins[1]) > 20  # centred: not stuck in a corner
        assert min(left - margins[0], top - margins[1]) < 30  # and it fills one way
    # the same bytes every time when SOURCE_DATE_EPOCH fixes the creation date
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    first = puzzle_pdf(tall)
    assert puzzle_pdf(tall) == first and b"D:20231114221320Z" in first


def test_hide_and_make_sheet_pdf(samples, tmp_path):
    from rofl.secret import hide

    sheet = tmp_path / "s.pdf"
    result = run("hide", "hi", "--sheet", sheet)
    assert result.exit_code == 0, result.output
    puzzle, _ = hide("hi")
    page = check_pdf_sheet(sheet.read_bytes(), puzzle, None)
    assert page["reader"].metadata.title == "Solve me"
    if os.name == "posix":
        assert sheet.stat().st_mode & 0o777 == 0o600
    out, sheet = tmp_path / "h.json", tmp_path / "h.pdf"
    assert run("make", samples / "horse.png", "-o", out, "-w", 12, "-q", "--sheet", sheet).exit_code == 0
    made, _ = read_puzzle(out)
    check_pdf_sheet(sheet.read_bytes(), made, None)


def test_two_digit_column_clues_fit_their_cells_at_a_small_cell_size():
    """A 6 pt cell used to keep the 8 pt floor: "10" and "10" over two
    columns overlapped, boxes and digits (found by hypothesis)."""
    puzzle = Puzzle.from_grid(np.ones((10, 2), dtype=np.uint8), Palette(["#ffffff", "#000001"]))
    check_pdf_sheet(puzzle_pdf(puzzle, cell=6), puzzle, None)


@pytest.mark.parametrize("suffix", [".png", ".pdf", ".svg"])
def test_a_rectangle_with_question_marks_is_refused_with_one_error(suffix):
    # the library drew them into a TypeError deep inside the layout; the CLI refused them first
    from rofl.errors import FormatError
    from rofl.render.pdf import puzzle_book

    grid = np.array([[1, 1, 0], [0, 1, 1], [1, 0, 1]])
    puzzle = Puzzle.from_grid(grid, Palette(["#fff", "#000", "#f00"]))
    unknown = puzzle.with_unknown_colors(np.arange(puzzle.n_groups) == 0)
    with pytest.raises(FormatError, match=r"cannot draw groups of unknown colour \('\?'\)"):
        sheet_bytes(unknown, suffix)
    with pytest.raises(FormatError, match="unknown colour"):
        puzzle_book([unknown])


def test_the_sheets_take_one_set_of_options(monkeypatch):
    # puzzle_sheet, puzzle_pdf and sheet_bytes build one SheetOptions from their keywords
    import dataclasses

    from rofl.render.layout import SheetOptions
    from rofl.render.pdf import puzzle_pdf

    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # the same creation date in both PDFs
    puzzle = Puzzle.from_grid(np.array([[1, 0], [1, 1]]), Palette.black_white())
    assert [f.name for f in dataclasses.fields(SheetOptions)] == ["solution", "cell", "title", "font", "letters"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        SheetOptions().cell = 3  # type: ignore[misc]
    for draw in (puzzle_sheet, puzzle_pdf, lambda p, **kw: sheet_bytes(p, ".png", **kw)):
        with pytest.raises(TypeError, match="colour"):
            draw(puzzle, colour=True)
    assert sheet_bytes(puzzle, ".pdf", cell=20, title="T") == puzzle_pdf(puzzle, cell=20, title="T")
