"""Simpson's ``.non``: properties, goal variants, and Nonny's colour extension."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings

from rofl.formats import corpus as corpus_json
from rofl.formats import non, read_puzzle, write_puzzle
from rofl.puzzle import Palette, Puzzle
from tests.formats import textcases
from tests.formats.textcases import BW, DATA, read
from tests.places import needs_corpus


def test_non_keeps_line_ends_in_properties_as_references():
    puzzle = Puzzle.from_grid(textcases.HOUSE, BW, meta={"notes": 'two\nlines & a "quote"', "title": "Zürich"})
    text = non.dumps(puzzle)
    assert 'notes "two&#10;lines &amp; a &quot;quote&quot;"' in text and 'title "Z&#252;rich"' in text
    assert text.isascii()
    assert dict(non.loads(text)[0].meta) == dict(puzzle.meta)


def test_house_non_properties():
    puzzle, _ = read_puzzle(DATA / "house.non")
    # HTML character references decoded; unknown keywords (maxrule, difficulty, saved) ignored
    assert dict(puzzle.meta) == {
        "id": "rofl-test-1",
        "title": "House with a fence",
        "author": "René O'Test",
        "licence": "(c) 2026 the rofl authors, CC0",
    }


def test_non_goal_variants_agree():
    base = "width 2\nheight 2\nrows\n1\n2\ncolumns\n1\n2\n"
    goals = ['goal "0111"', "goal 0111", "goal\n01\n11", "goal '01 11'"]
    for goal in goals:
        puzzle, grid = read(non, base + goal + "\n")
        assert np.array_equal(grid, [[0, 1], [1, 1]]), goal


def test_non_columns_keyword_as_width():
    text = "columns 3\nheight 1\nrows\n1,1\ncolumns\n1\n0\n1\n"
    puzzle, _ = read(non, text)
    assert puzzle.width == 3 and puzzle.rows == (((1, 1), (1, 1)),)


def many_colour_puzzles():
    """(grid, palette) of 3 to 8 colours, random (possibly repeated) RGB values."""
    return textcases.colour_puzzles().filter(lambda case: len(case[1]) > 2)


@settings(deadline=None, max_examples=200)
@given(case=many_colour_puzzles(), title=textcases.meta_text, author=textcases.meta_text)
# a noncharacter, which html.unescape drops (found by this test in a fresh clone)
@example(case=(np.zeros((1, 1), dtype=np.uint8), Palette(["#000", "#000", "#000"])), title="0", author="\ufdd0")
def test_non_colour_round_trip(case, title, author):
    grid, palette = case
    puzzle = Puzzle.from_grid(grid, palette, meta={"title": title, "author": author})
    text = non.dumps(puzzle, grid)
    back, solution = read(non, text)
    assert back == puzzle and back.palette == palette
    assert (back.meta["title"], back.meta["author"]) == (title, author)
    assert solution is None  # neither pbnsolve nor Nonny has a colour goal
    assert not any(line.startswith("goal") for line in text.splitlines()) and text.isascii()
    assert read(non, non.dumps(puzzle))[0] == puzzle


@pytest.mark.parametrize(
    ("written", "read_back"),
    [
        ("&#64976;&#x10FFFF;&#128;", "\ufdd0\U0010ffff\x80"),  # noncharacters and C1 controls as named
        ("&amp;#65; &#38;#65;", "&#65; &#65;"),  # one level of references only
        ("&lt;&#0;&#xD800;&#1114112;", "<\ufffd\ufffd\ufffd"),  # no such character: U+FFFD, as HTML
        ("Tom &amp Jerry", "Tom & Jerry"),  # HTML's named references without ';'
    ],
)
def test_non_property_references(written, read_back):
    text = f'title "{written}"\nwidth 1\nheight 1\nrows\n0\ncolumns\n0\n'
    assert read(non, text)[0].meta["title"] == read_back


@settings(deadline=None, max_examples=100)
@given(grid=textcases.bw_grids())
def test_non_two_colours_stay_plain_simpson(grid):
    text = non.dumps(Puzzle.from_grid(grid, BW), grid)
    assert "color" not in text and ":" not in text and "goal" in text


def test_non_largest_palette_round_trips():
    palette = Palette([(i, 255 - i, (7 * i) % 256) for i in range(64)])
    grid = np.arange(63, dtype=np.uint8).reshape(7, 9) + 1
    puzzle = Puzzle.from_grid(grid, palette)
    text = non.dumps(puzzle, grid)
    assert text.count("\ncolor ") == 64  # the background is not white: declared too
    assert read(non, text) == (puzzle, None)


def test_non_colour_writer_is_nonny_style():
    text = non.dumps(Puzzle.from_grid(textcases.FLAG, textcases.FLAG_PALETTE, meta={"title": "Flag"}), textcases.FLAG)
    assert text == (
        'title "Flag"\nwidth 6\nheight 4\n\n'
        "color black 000000 X\ncolor red FF0000 #\ncolor blue 0000FF @\n\n"
        "rows\nred: 2, blue: 2\nblack: 1, red: 1, blue: 1\nblack: 3, blue: 2\nred: 2, black: 1\n\n"
        "columns\nblack: 2\nred: 2, black: 1\nred: 1, black: 1, red: 1\nblue: 1, red: 1\n"
        "blue: 3\nblue: 1, black: 1\n"
    )


def test_non_colour_names_repeat_and_fall_back():
    # two reds, a colour without a CSS name, a background that is not white
    palette = Palette(["#102030", "#ff0000", "#123457", "#ff0000"])
    grid = np.array([[1, 0, 2, 3]], dtype=np.uint8)
    text = non.dumps(Puzzle.from_grid(grid, palette))
    assert "color background 102030 .\ncolor red FF0000 #\ncolor color2 123457 @\ncolor red3 FF0000 %\n" in text
    assert "\nred: 1, color2: 1, red3: 1\n" in text
    assert read(non, text)[0] == Puzzle.from_grid(grid, palette)


RAINBOW = np.array(
    [
        [0, 2, 2, 2, 2, 2, 0],
        [2, 3, 3, 3, 3, 3, 2],
        [2, 3, 4, 4, 4, 3, 2],
        [2, 3, 4, 0, 4, 3, 2],
        [1, 1, 1, 1, 1, 1, 1],
    ],
    dtype=np.uint8,
)


def test_rainbow_nonny_sample():
    """Nonny's hand-written style: names before numbers, 'green 1 1', a
    writer-style 'red: 1, ...' line, bare numbers and an undeclared 'black'
    (Nonny's built-in black, placed after the declared background)."""
    puzzle, grid = read_puzzle(DATA / "rainbow-nonny.non")
    palette = Palette(["#d0e8ff", "#000000", "#ff0000", "#ffe000", "#30a040"])
    assert puzzle.palette == palette
    assert puzzle == Puzzle.from_grid(RAINBOW, palette)
    assert puzzle.rows[3] == ((1, 2), (1, 3), (1, 4), (1, 4), (1, 3), (1, 2))
    assert puzzle.cols[1] == ((1, 2), (3, 3), (1, 1))
    assert grid is None
    assert dict(puzzle.meta) == {
        "title": "Rainbow over a field",
        "author": "The rofl authors",
        "licence": "(c) 2026 the rofl authors, CC0",
    }
    assert read(non, non.dumps(puzzle)) == (puzzle, None)


def test_non_colour_rule_forms():
    """Nonny's parse_clue_line: any of ',: ' separates, a name holds until the
    next one, each rule starts in black, '3red' is 3 (black) then red."""
    head = "width 4\nheight 1\ncolor red FF0000\ncolor Red 00FF00\n"
    forms = ["1 red 1 Red 1", "black: 1, red: 1, Red: 1", "1red 1Red 1", "1,red,1,Red:1", "black 1 red\t1 Red 1"]
    for form in forms:
        puzzle, _ = read(non, f"{head}rows\n{form}\ncolumns\n1\nred 1\nRed 1\n0\n")
        assert puzzle.palette == Palette(["#ffffff", "#000000", "#ff0000", "#00ff00"]), form
        assert puzzle.rows == (((1, 1), (1, 2), (1, 3)),), form
    # a declared black replaces the built-in one; unused colours stay in the palette
    text = "width 1\nheight 1\ncolor ink 0000FF\ncolor black 202020\ncolor spare 00FF00\nrows\n1\ncolumns\nblack 1\n"
    puzzle, _ = read(non, text)
    assert puzzle.palette == Palette(["#ffffff", "#0000ff", "#202020", "#00ff00"])
    assert puzzle.rows == (((1, 2),),)
    # colours without a bare number: no black; 'red 0' is an empty line
    puzzle, _ = read(non, "width 2\nheight 1\ncolor red FF0000\nrows\nred 1\ncolumns\nred 1\nred 0\n")
    assert puzzle.palette == Palette(["#ffffff", "#ff0000"]) and puzzle.cols == (((1, 1),), ())


def test_non_two_colour_file_with_colour_lines_keeps_its_goal():
    text = "width 2\nheight 1\ncolor background FFFFCC\nrows\n1\ncolumns\n1\n0\ngoal 10\n"
    puzzle, grid = read(non, text)
    assert puzzle.palette == Palette(["#ffffcc", "#000000"]) and np.array_equal(grid, [[1, 0]])


def colour_corpus_files():
    return [p for p in textcases.corpus_files() if corpus_json.load(p)[0].n_colors > 2]


@needs_corpus
def test_every_colour_corpus_puzzle_through_non(tmp_path):
    files = colour_corpus_files()
    assert len(files) >= 10
    for path in files:
        puzzle, solution = corpus_json.load(path)
        target = tmp_path / f"{path.stem}.non"
        write_puzzle(target, puzzle, solution)
        back, grid = read_puzzle(target)
        assert back == puzzle, path
        assert grid is None, path
        for key in ("title", "author", "licence", "id"):
            assert back.meta.get(key) == puzzle.meta.get(key), (path, key)
