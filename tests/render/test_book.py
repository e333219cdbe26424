"""Puzzle books (several puzzles in one PDF, with answer pages) and the font
file of PNG and PDF sheets (``rofl sheet --font``).

Books are read back page by page: every puzzle page must give its puzzle's
clues, and every picture on the answer pages must paint its puzzle's
solution.  The font tests build small fonts with fontTools, so they need no
font installed on the machine.
"""

from __future__ import annotations

import gc
import io
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from rofl.errors import OptionError
from rofl.formats import read_puzzle, write_puzzle
from rofl.puzzle import Palette, Puzzle
from rofl.render.fonts import core_covers, load_font, missing, pillow_covers, shown
from rofl.render.pdf import ANSWER_GRID, puzzle_book, puzzle_pdf
from rofl.render.sheet import puzzle_sheet, sheet_bytes
from tests.clirun import one_error_line, run, usage_error_line
from tests.pdfread import clue_box, expected_clues, pdf_clues, pdf_fills, read_pdf
from tests.places import SAMPLES

FOUR = Palette(["#ffffff", "#000000", "#ff0000", "#ffff00"])
CYRILLIC = "Ёжик в тумане"
BASIC = "0123456789 .?-'\"ABCabc"


def make_font(path, chars: str = BASIC + CYRILLIC, *, cmap: bool = True) -> str:
    """Write a TrueType font with a box glyph for each of ``chars`` (each
    character its own width, so layouts differ from Helvetica's)."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.ttGlyphPen import TTGlyphPen

    chars = "".join(dict.fromkeys(chars))
    names = [".notdef"] + [f"uni{ord(c):04X}" for c in chars]
    fb = FontBuilder(1000, isTTF=True)
    fb.setupGlyphOrder(names)
    fb.setupCharacterMap({ord(c): f"uni{ord(c):04X}" for c in chars})
    glyphs, metrics = {}, {}
    for i, name in enumerate(names):
        width = 400 + 20 * (i % 9)
        pen = TTGlyphPen(None)
        if name != "uni0020":
            pen.moveTo((50, 0))
            pen.lineTo((50, 700))
            pen.lineTo((width - 50, 700))
            pen.lineTo((width - 50, 0))
            pen.closePath()
        glyphs[name] = pen.glyph()
        metrics[name] = (width, 50)
    fb.setupGlyf(glyphs)
    fb.setupHorizontalMetrics(metrics)
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": "Rofl Boxes", "styleName": "Regular", "psName": "RoflBoxes-Regular"})
    fb.setupOS2(sTypoAscender=800, sTypoDescender=-200, usWinAscent=800, usWinDescent=200)
    fb.setupPost()
    if not cmap:
        del fb.font["cmap"]
    fb.save(str(path))
    return str(path)


@pytest.fixture(scope="module")
def box_font(tmp_path_factory):
    return make_font(tmp_path_factory.mktemp("font") / "boxes.ttf")


def solved(puzzle: Puzzle) -> np.ndarray:
    from rofl.decode import solve_picture

    return solve_picture(puzzle)


@st.composite
def pictures(draw, max_side: int = 9):
    h = draw(st.integers(1, max_side))
    w = draw(st.integers(1, max_side))
    cells = draw(st.lists(st.integers(0, 3), min_size=h * w, max_size=h * w))
    grid = np.array(cells, dtype=np.uint8).reshape(h, w)
    return Puzzle.from_grid(grid, FOUR), grid


# ------------------------------------------------------------------ books


def answer_pictures(page: dict, puzzles: list[Puzzle]) -> list[np.ndarray]:
    """The pictures of an answer page, in reading order: each is framed by
    one stroked rectangle whose width is the puzzle's width in cells; every
    filled rectangle inside a frame covers whole cells."""
    frames = sorted(page["frames"], key=lambda f: (round(f["y"]), f["x"]))
    assert len(frames) == len(puzzles)
    out = []
    for frame, puzzle in zip(frames, puzzles, strict=True):
        cell = frame["w"] / puzzle.width
        assert frame["h"] == pytest.approx(cell * puzzle.height, abs=0.01)
        painted = np.full((puzzle.height, puzzle.width), "", dtype=object)
        for r in page["rects"]:
            inside = frame["x"] - 0.01 <= r["x"] <= frame["x"] + frame["w"] and (
                frame["y"] - 0.01 <= r["y"] <= frame["y"] + frame["h"]
            )
            if not inside:
                continue
            edges = [(r["x"] - frame["x"]) / cell, (r["y"] - frame["y"]) / cell, r["w"] / cell, r["h"] / cell]
            for v in edges:
                assert v == pytest.approx(round(v), abs=0.01)
            j, i, w, h = (round(v) for v in edges)
            painted[i : i + h, j : j + w] = r["fill"]
        out.append(painted)
    return out


def check_book(data: bytes, puzzles: list[Puzzle], answers: list[np.ndarray] | None, titles: list[str]) -> None:
    """Every page of a book as it must be: the numbered puzzle pages, then the answers."""
    import pypdf

    per_page = ANSWER_GRID[0] * ANSWER_GRID[1]
    n_answer_pages = 0 if answers is None else -(-len(puzzles) // per_page)
    assert len(pypdf.PdfReader(io.BytesIO(data)).pages) == len(puzzles) + n_answer_pages
    for index, (puzzle, title) in enumerate(zip(puzzles, titles, strict=True)):
        page = read_pdf(data, index)
        assert pdf_clues(page, puzzle) == expected_clues(puzzle)
        label = f"{index + 1}. {title}" if title else f"{index + 1}"
        big = max(t["size"] for t in page["texts"])
        assert [t["text"] for t in page["texts"] if t["size"] == big] == [label]
    for p in range(n_answer_pages):
        page = read_pdf(data, len(puzzles) + p)
        part = slice(p * per_page, (p + 1) * per_page)
        texts = [t["text"] for t in page["texts"]]
        assert texts[0] == "Solutions"
        labels = [f"{i + 1}. {t}" if t else f"{i + 1}" for i, t in enumerate(titles)][part]
        assert texts[1:] == labels
        pictures = answer_pictures(page, puzzles[part])
        for painted, puzzle, grid in zip(pictures, puzzles[part], answers[part], strict=True):
            np.testing.assert_array_equal(painted, np.array(puzzle.palette.hex())[grid])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(pictures(), min_size=1, max_size=8), st.booleans())
def test_book_pages_read_back(cases, with_answers):
    puzzles = [p for p, _ in cases]
    grids = [g for _, g in cases]
    titles = [f"Pic {i}" if i % 3 else "" for i in range(len(cases))]
    data = puzzle_book(puzzles, answers=grids if with_answers else None, titles=titles, cell=13)
    check_book(data, puzzles, grids if with_answers else None, titles)


@pytest.mark.slow
def test_book_of_samples_with_solution_sheets():
    files = sorted(SAMPLES.glob("*.rofl"))
    puzzles = [read_puzzle(f)[0] for f in files]
    answers = [solved(p) for p in puzzles]
    titles = [p.meta.get("title") for p in puzzles]
    assert all(titles)  # rofl make stores the picture's name
    data = puzzle_book(puzzles, answers=answers)
    check_book(data, puzzles, answers, titles)
    # solution sheets: the puzzles' own grids filled, no answer pages
    filled = puzzle_book(puzzles[:2], solutions=answers[:2])
    for i in range(2):
        check_pdf_sheet_page(filled, i, puzzles[i], answers[i])


def check_pdf_sheet_page(data: bytes, index: int, puzzle: Puzzle, solution: np.ndarray) -> None:
    page = read_pdf(data, index)
    assert pdf_clues(page, puzzle) == expected_clues(puzzle)
    np.testing.assert_array_equal(pdf_fills(page, puzzle), np.array(puzzle.palette.hex())[solution])


def test_book_answers_keep_their_place_and_size():
    # a tiny puzzle's answer is not blown up; a wide one fits its place; long titles are cut short
    tiny = Puzzle.from_grid(np.array([[1]]))
    wide = Puzzle.from_grid(np.eye(10, 300, dtype=np.uint8))
    data = puzzle_book([tiny, wide], answers=[np.array([[1]]), np.eye(10, 300, dtype=np.uint8)], titles=["", "W" * 200])
    page = read_pdf(data, 2)
    frames = sorted(page["frames"], key=lambda f: f["x"])
    assert frames[0]["w"] == pytest.approx(12.0)  # ANSWER_CELL
    assert frames[1]["x"] + frames[1]["w"] <= page["width"] - 27  # inside the printable area
    label = page["texts"][2]["text"]
    assert label.startswith("2. WWW") and label.endswith("\u2026") and len(label) < 100


def test_book_refuses_bad_lists():
    p = Puzzle.from_grid(np.array([[1, 0]]))
    with pytest.raises(OptionError, match="at least one puzzle"):
        puzzle_book([])
    with pytest.raises(OptionError, match="answers has 1 entries for 2 puzzles"):
        puzzle_book([p, p], answers=[np.array([[1, 0]])])
    with pytest.raises(OptionError, match="does not fit the clues"):
        puzzle_book([p], answers=[np.array([[0, 1]])])


def test_book_is_reproducible(monkeypatch, box_font):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    puzzles = [Puzzle.from_grid(np.eye(4, dtype=np.uint8), meta={"title": CYRILLIC})] * 2
    font = load_font(box_font)
    first = puzzle_book(puzzles, answers=[np.eye(4, dtype=np.uint8)] * 2, font=font)
    assert puzzle_book(puzzles, answers=[np.eye(4, dtype=np.uint8)] * 2, font=font) == first


# ------------------------------------------------------------------ fonts


def test_shown_and_missing():
    covers = set("abcoAE?-").__contains__
    assert shown("aőb\u2013c", covers) == "aob-c"  # accent dropped, dash made plain
    assert shown("ÄΩ\x00", covers) == "A??"
    assert missing("aőbΩőΩ", covers) == "őΩ"
    assert shown(CYRILLIC, core_covers) == "???? ? ??????"
    assert shown("Ёж a", pillow_covers) == "?? a"  # Pillow's small font has ASCII, no Cyrillic
    assert missing("plain ASCII 123", pillow_covers) == ""


def test_pdf_embeds_the_font(box_font):
    puzzle = Puzzle.from_grid(np.array([[1, 0, 2], [3, 3, 0]]), FOUR, meta={"title": CYRILLIC})
    plain = read_pdf(puzzle_pdf(puzzle))
    assert not plain["embedded"]
    data = puzzle_pdf(puzzle, font=load_font(box_font))
    assert b"/FontFile2" in data
    page = read_pdf(data)
    assert page["embedded"]
    big = max(t["size"] for t in page["texts"])
    assert [t["text"] for t in page["texts"] if t["size"] == big] == [CYRILLIC]
    # the numbers are placed by the font's own widths: the clues still read back
    assert pdf_clues_any_font(page, puzzle) == expected_clues(puzzle)
    # the title metadata keeps the title either way
    assert page["reader"].metadata.title == CYRILLIC


def pdf_clues_any_font(page: dict, puzzle: Puzzle):
    """:func:`pdf_clues` without its Helvetica digit widths: numbers by row
    (same height as the row) and by column (above the grid), in order."""
    xs = sorted({round(v["x1"], 2) for v in page["lines"] if v["x1"] == v["x2"]})
    ys = sorted({round(v["y1"], 2) for v in page["lines"] if v["y1"] == v["y2"]})
    texts = [t for t in page["texts"] if t["y"] < ys[-1]]  # the key stands below the grid
    texts = [t for t in texts if t["size"] == min(x["size"] for x in texts)]
    x0, y0 = xs[0], ys[0]
    cell = (xs[-1] - x0) / puzzle.width
    rows: list[list] = [[] for _ in range(puzzle.height)]
    cols: list[list] = [[] for _ in range(puzzle.width)]
    for t in texts:
        box = clue_box(page, t)
        fill = t["fill"] if box is None else box["fill"]
        if t["y"] > y0:
            rows[int((t["y"] - y0) // cell)].append((t["x"], int(t["text"]), fill))
        else:
            cols[int((t["x"] - x0) // cell)].append((t["y"], int(t["text"]), fill))
    return tuple([[(n, f) for _, n, f in sorted(line)] for line in lines] for lines in (rows, cols))


def test_png_draws_with_the_font(box_font):
    puzzle = Puzzle.from_grid(np.array([[1, 0], [1, 1]]))
    font = load_font(box_font)

    def title_area(title, font=None):
        image = puzzle_sheet(puzzle, title=title, font=font, cell=20)
        return np.asarray(image)[:40]

    # the built-in font has no Cyrillic: the title is drawn as question marks
    assert np.array_equal(title_area("Ёж"), title_area("??"))
    # the font file has it: the letters are drawn, as its boxes
    boxed = title_area("Ёж", font)
    assert not np.array_equal(boxed, title_area("??", font))
    assert (boxed < 128).sum() > 200
    # sheet_bytes passes the font on; an SVG sheet takes none
    png = sheet_bytes(puzzle, ".png", title="Ёж", font=font)
    assert Image.open(io.BytesIO(png)).size[0] > 0
    with pytest.raises(OptionError, match="for .png and .pdf sheets"):
        sheet_bytes(puzzle, ".svg", font=font)


def test_load_font_refuses_what_is_not_a_usable_font(tmp_path):
    png = tmp_path / "x.ttf"
    png.write_bytes((SAMPLES / "horse.png").read_bytes())
    with pytest.raises(OptionError, match=r"x\.ttf: not a TrueType or OpenType font file"):
        load_font(png)
    with pytest.raises(OptionError, match="has no digit 5, 6, 7, 8, 9"):
        load_font(make_font(tmp_path / "few.ttf", "01234 abc"))
    with pytest.raises(OptionError, match="no Unicode character map"):
        load_font(make_font(tmp_path / "nomap.ttf", cmap=False))
    empty = tmp_path / "empty.ttf"
    empty.write_bytes(b"")
    with pytest.raises(OptionError, match="not a TrueType"):
        load_font(empty)


@pytest.mark.slow
# fpdf2 may leave a damaged font file open when it gives up on it (rofl
# closes what it can reach and collects the rest): not rofl's handle
@pytest.mark.filterwarnings("ignore::ResourceWarning", "ignore::pytest.PytestUnraisableExceptionWarning")
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_damaged_fonts_give_a_clear_error(tmp_path, box_font, data):
    """A truncated or corrupted font file is either drawn with or refused
    with an OptionError naming it, whichever step notices: never another
    exception, never a log line."""
    raw = bytearray(Path(box_font).read_bytes())
    if data.draw(st.booleans()):
        raw = raw[: data.draw(st.integers(0, len(raw) - 1))]
    else:
        for _ in range(data.draw(st.integers(1, 20))):
            raw[data.draw(st.integers(0, len(raw) - 1))] = data.draw(st.integers(0, 255))
    path = tmp_path / "damaged.ttf"
    path.write_bytes(bytes(raw))
    puzzle = Puzzle.from_grid(np.array([[1, 0], [1, 1]]), meta={"title": "Ёж 12"})
    try:
        font = load_font(path)
        for suffix in (".png", ".pdf"):
            sheet_bytes(puzzle, suffix, font=font)
    except OptionError as exc:
        assert str(exc).startswith(f"{path}: ")
    finally:
        gc.collect()  # whatever fpdf2 left open is closed here, not in a later test


# ------------------------------------------------------------------ the command


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """Three puzzle files: a made colour puzzle, a corpus puzzle that needs
    search, and a black-and-white sample."""
    folder = tmp_path_factory.mktemp("book")
    out = folder / "horse.json"
    assert run("make", SAMPLES / "horse.png", "-o", out, "-w", 14, "-c", 3, "-q").exit_code == 0
    return [out, SAMPLES / "camera.rofl", SAMPLES / "astronaut.rofl"]


def test_cli_book_with_answers(made, tmp_path):
    out = tmp_path / "book.pdf"
    result = run("sheet", *made, "-o", out, "--answers")
    assert result.exit_code == 0, result.output
    assert result.output.strip() == f"{out}: 3 puzzles and their solutions, 4 pages"
    puzzles = [read_puzzle(f)[0] for f in made]
    check_book(out.read_bytes(), puzzles, [solved(p) for p in puzzles], [p.meta.get("title") for p in puzzles])
    # several puzzles without answers: just the pages; one puzzle with answers: two pages
    assert run("sheet", *made[:2], "-o", out).output.strip() == f"{out}: 2 puzzles, 2 pages"
    assert run("sheet", made[0], "-o", out, "--answers", "--title", "Mine").exit_code == 0
    check_book(out.read_bytes(), puzzles[:1], [solved(puzzles[0])], ["Mine"])


def test_cli_book_errors_write_nothing(made, tmp_path, box_font):
    out = tmp_path / "book.pdf"
    out.write_bytes(b"keep me")
    ambiguous = tmp_path / "two.json"
    write_puzzle(ambiguous, Puzzle.from_grid(np.eye(2, dtype=np.uint8)))
    usages = [  # bad options (the library's judgement included): exit status 2
        (["sheet", *made, "-o", tmp_path / "b.png"], ["several puzzles need a .pdf output", "'.png'"]),
        (["sheet", made[0], "-o", tmp_path / "b.svg", "--answers"], ["--answers need a .pdf output"]),
        (["sheet", *made, "-o", out, "--title", "x"], ["--title names one sheet"]),
        (["sheet", made[0], "-o", out, "--answers", "--solution"], ["choose one"]),
        (["sheet", made[0], "-o", tmp_path / "s.svg", "--font", box_font], ["--font", "for .png and .pdf"]),
        # the font is checked before any puzzle is solved
        (["sheet", ambiguous, "-o", out, "--answers", "--font", SAMPLES / "horse.png"], ["not a TrueType"]),
    ]
    for args, words in usages:
        usage_error_line(run(*args), *words)
        assert out.read_bytes() == b"keep me"
    cases = [  # puzzles and files: exit status 1
        (["sheet", made[0], ambiguous, "-o", out, "--answers"], [str(ambiguous), "several solutions"]),
        (["sheet", made[0], tmp_path / "none.json", "-o", out], ["none.json"]),
        (["sheet", made[0], "-o", out, "--font", tmp_path / "none.ttf"], ["none.ttf"]),
    ]
    for args, words in cases:
        one_error_line(run(*args), *words)
        assert out.read_bytes() == b"keep me"


def test_cli_font_and_warning(made, tmp_path, box_font):
    out = tmp_path / "s.pdf"
    result = run("sheet", made[0], "-o", out, "--title", CYRILLIC)
    assert result.exit_code == 0, result.output
    warning = [line for line in result.output.splitlines() if line.startswith("warning:")]
    assert len(warning) == 1 and "the built-in font lacks" in warning[0] and "--font" in warning[0]
    assert "\u0401" in warning[0]  # names the letters (Ё)
    result = run("sheet", made[0], "-o", out, "--title", CYRILLIC, "--font", box_font)
    assert result.exit_code == 0 and "warning:" not in result.output, result.output
    page = read_pdf(out.read_bytes())
    assert CYRILLIC in [t["text"] for t in page["texts"]]
    # a font that lacks some letters: the warning names the font
    small = make_font(tmp_path / "small.ttf", BASIC)
    result = run("sheet", made[0], "-o", tmp_path / "s.png", "--title", CYRILLIC, "--font", small)
    assert result.exit_code == 0 and "the font 'Rofl Boxes' lacks" in result.output, result.output
    # a Western title needs no font
    assert "warning:" not in run("sheet", made[0], "-o", out, "--title", "Café").output
