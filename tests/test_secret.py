"""Hidden texts: the font's two properties, exact round trips, and refusals."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rofl import secret
from rofl.errors import FormatError, OptionError, UnsolvableError
from rofl.puzzle import Palette, Puzzle
from rofl.solver import solve


def runs(line) -> list[int]:
    """Lengths of the runs of ink in a sequence of 0/1 (slow and obvious)."""
    out, n = [], 0
    for v in [*line, 0]:
        if v:
            n += 1
        elif n:
            out.append(n)
            n = 0
    return out


def from_clues_only(puzzle: Puzzle) -> Puzzle:
    """A fresh puzzle built from nothing but the clue lists."""
    return Puzzle(puzzle.width, puzzle.height, Palette.black_white(), puzzle.rows, puzzle.cols)


# ------------------------------------------------------------------- font


def test_font_covers_printable_ascii_and_the_newline_exactly():
    font = secret.font()
    assert sorted(font) == sorted(secret.ALPHABET)
    assert len(secret.ALPHABET) == 96 and "\n" in secret.ALPHABET
    for ch, glyph in font.items():
        assert glyph.shape == (secret.GLYPH_H, secret.GLYPH_W), ch
        assert glyph.dtype == np.uint8
    assert not font[" "].any()


def test_font_glyphs_are_distinct_and_not_the_end_marker():
    bitmaps = [g.tobytes() for g in secret.font().values()]
    assert len(set(bitmaps)) == len(bitmaps)
    assert secret._FILLER.tobytes() not in bitmaps


@pytest.mark.parametrize("ch", list(secret.ALPHABET) + ["<end>"])
def test_glyph_has_no_run_of_two(ch):
    # 2-runs are the frames' signature: the layout's proof needs glyphs without them
    glyph = secret._FILLER if ch == "<end>" else secret.font()[ch]
    for line in [*glyph, *glyph.T]:
        assert 2 not in runs(line.tolist()), ch


@pytest.mark.parametrize("ch", [c for c in secret.ALPHABET if c != " "] + ["<end>"])  # the newline too
def test_glyph_alone_is_uniquely_line_solvable(ch):
    glyph = secret._FILLER if ch == "<end>" else secret.font()[ch]
    puzzle = Puzzle.from_grid(glyph, Palette.black_white())
    result = solve(puzzle)
    assert result.status == "solved", ch
    np.testing.assert_array_equal(result.grid, glyph)


def test_font_parser_names_a_bad_glyph():
    with pytest.raises(FormatError, match="glyph 'A' needs 9 rows"):
        secret._parse_font(["41 A", "#####"], "font.txt")
    with pytest.raises(FormatError, match="line 1: 'zz' is not a glyph header"):
        secret._parse_font(["zz"], "font.txt")


# ----------------------------------------------------------------- layout


def shape(text: str, width: int = secret.LINE_WIDTH) -> tuple[int, int]:
    lines = secret.wrap(text, width)
    return len(lines), max(map(len, lines))


def test_wrap_balances_lines():
    assert shape("x") == (1, 1)
    assert shape("x" * 16) == (1, 16)
    assert shape("x" * 17) == (2, 9)
    assert shape("x" * 64) == (4, 16)
    assert shape("x" * 65) == (5, 13)


@pytest.mark.parametrize(
    ("text", "width", "lines"),
    [
        ("correct horse", 16, ["correct horse"]),
        ("correct horse", 8, ["correct ", "horse"]),  # the space stays with its word
        ("correct horse", 10, ["correct ", "horse"]),  # balanced: no wider than it needs
        ("correct horse", 5, ["corre", "ct ", "horse"]),  # a word longer than a line is cut
        ("a\n\nb", 16, ["a\n", "\n", "b"]),  # a newline ends its line, and has a box
        ("the quick brown fox jumps", 10, ["the quick ", "brown fox ", "jumps"]),
    ],
)
def test_wrap_breaks_after_words(text, width, lines):
    assert secret.wrap(text, width) == lines


@given(st.text(alphabet=st.sampled_from(secret.ALPHABET), min_size=1, max_size=80), st.integers(1, 20))
def test_wrap_keeps_every_character(text, width):
    lines = secret.wrap(text, width)
    assert "".join(lines) == text
    assert all(1 <= len(line) <= width for line in lines)
    assert all("\n" not in line[:-1] for line in lines)  # a newline ends its line
    assert len(lines) == len(secret._greedy(text, width))  # balancing never adds a line


@pytest.mark.parametrize("width", [0, -1, 1.5, True, secret.MAX_CHARS + 1])
def test_bad_width_is_refused(width):
    with pytest.raises(OptionError, match="width of a hidden text"):
        secret.hide("abc", width)


def test_grid_shape_frames_and_end_boxes():
    text = "x" * 17  # two lines of 9 boxes, the last box is an end marker
    grid = secret.text_grid(text)
    assert grid.shape == secret.grid_size(2, 9) == (2 * 13 + 2, 9 * 9 + 2)
    assert grid[:2].all() and grid[-2:].all() and grid[:, :2].all() and grid[:, -2:].all()
    r, c = secret._glyph_origin(1, 8)
    assert grid[r : r + 9, c : c + 5].all()
    np.testing.assert_array_equal(grid[r : r + 9, c - 9 : c - 4], secret.font()["x"])


def test_hide_small_text_picture():
    puzzle, grid = secret.hide("Hi")
    assert (puzzle.width, puzzle.height) == (20, 15)
    assert puzzle.is_solution(grid)
    r, c = secret._glyph_origin(0, 0)
    np.testing.assert_array_equal(grid[r : r + 9, c : c + 5], secret.font()["H"])


# ------------------------------------------------------------- round trip

# newlines and spaces often, so lines of every kind come up
printable = st.text(alphabet=st.sampled_from(secret.ALPHABET) | st.sampled_from(" \n"), min_size=1, max_size=64)


@settings(deadline=None, max_examples=60)
@given(printable, st.integers(1, 20))
def test_random_text_round_trips_from_the_clues_alone(text, width):
    puzzle, grid = secret.hide(text, width)
    bare = from_clues_only(puzzle)
    result = solve(bare)
    assert result.status == "solved"  # uniquely line-solvable from the clues
    np.testing.assert_array_equal(result.grid, grid)
    assert secret.reveal(bare) == text


@pytest.mark.parametrize(
    "text",
    [
        " ",
        "abc ",
        "  two leading and trailing  ",
        "~" * 64,
        secret.ALPHABET,
        secret.ALPHABET[::-1] * 3,
        "a" * 17 + " ",  # the space before the end-of-text boxes survives
        "x" * secret.MAX_CHARS,
        "\n",
        "\n\n two\nlines \n",
    ],
)
def test_edge_texts_round_trip(text):
    puzzle, _ = secret.hide(text)
    assert secret.reveal(from_clues_only(puzzle)) == text


# --------------------------------------------------------------- refusals


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "the secret is empty"),
        ("héllo", r"character 2 of the secret \('é', U\+00E9\)"),
        ("two\r\nlines", r"character 4 of the secret \('\\r', U\+000D\)"),
        ("tab\there", r"character 4 of the secret \('\\t', U\+0009\)"),
        ("\x7f", r"character 1 .*U\+007F"),
        ("emoji 🙂", r"character 7 .*U\+1F642"),
        ("x" * (secret.MAX_CHARS + 1), "rofl hides at most 1024"),
    ],
)
def test_unsupported_text_is_refused(text, message):
    with pytest.raises(OptionError, match=message):
        secret.hide(text)


def test_non_text_is_refused():
    with pytest.raises(OptionError, match="must be text"):
        secret.text_grid(b"bytes")  # type: ignore[arg-type]


# ---------------------------------------------------------- reading back


def test_read_text_refuses_other_pictures():
    grid = secret.text_grid("ok")
    with pytest.raises(FormatError, match="not a rofl hidden text"):
        secret.read_text(grid[:, :-1])
    broken = grid.copy()
    broken[0, 5] = 0
    with pytest.raises(FormatError, match="row 1, column 6 should be ink"):
        secret.read_text(broken)
    margin = grid.copy()
    margin[2, 2] = 1
    with pytest.raises(FormatError, match="row 3, column 3 should be paper"):
        secret.read_text(margin)
    unknown = grid.copy()
    r, c = secret._glyph_origin(0, 1)
    unknown[r, c] ^= 1
    with pytest.raises(FormatError, match="line 1, box 2 is not a character"):
        secret.read_text(unknown)
    with pytest.raises(FormatError, match="two-dimensional"):
        secret.read_text(np.zeros(5))


def test_read_text_refuses_characters_after_the_end():
    grid = secret.text_grid("a" * 17)
    r, c = secret._glyph_origin(1, 8)
    grid[r : r + 9, c : c + 5] = secret.font()["b"]
    r, c = secret._glyph_origin(1, 7)
    grid[r : r + 9, c : c + 5] = 1
    with pytest.raises(FormatError, match="line 2, box 9 holds a character after the end"):
        secret.read_text(grid)
    empty = secret.text_grid("a")
    r, c = secret._glyph_origin(0, 0)
    empty[r : r + 9, c : c + 5] = 1
    with pytest.raises(FormatError, match="line 1, box 1 is an end-of-line box, the line is empty"):
        secret.read_text(empty)


def test_reveal_refuses_puzzles_that_hide_nothing():
    ambiguous = Puzzle.from_grid(np.eye(2, dtype=np.uint8), Palette.black_white())
    with pytest.raises(UnsolvableError, match="undetermined"):
        secret.reveal(ambiguous)
    plain = Puzzle.from_grid(np.ones((3, 3), dtype=np.uint8), Palette.black_white())
    with pytest.raises(FormatError, match="3x3 picture is not a rofl hidden text"):
        secret.reveal(plain)
    colour = Puzzle.from_grid(np.array([[1, 2]]), Palette(["#fff", "#000", "#f00"]))
    with pytest.raises(FormatError, match="3 colours"):
        secret.reveal(colour)
    # totals agree, but the row needs "#.#" while the columns want ink in the middle
    bad = Puzzle(3, 1, Palette.black_white(), [[(1, 1), (1, 1)]], [[(1, 1)], [(1, 1)], []])
    with pytest.raises(UnsolvableError, match="no solution"):
        secret.reveal(bad)
    assert secret.reveal(from_clues_only(secret.hide("fine")[0])) == "fine"


def test_library_names():
    import rofl

    assert rofl.hide is secret.hide
    assert rofl.reveal is secret.reveal
