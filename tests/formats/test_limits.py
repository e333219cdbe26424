"""The resource policy of every reader (:mod:`rofl.formats._limits`): digit,
cell and line limits give one clear error, never a traceback or gigabytes."""

from __future__ import annotations

import pytest

from rofl.errors import FormatError, LimitError
from rofl.formats import _limits, open_puzzle
from rofl.formats.non import loads as non_loads

HUGE = "9" * 5000  # more digits than int() converts (4300)


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("big.notmine", f"NotMine{{{HUGE},2,!!}}"),
        ("big2.notmine", f"NotMine{{2,{HUGE},!!}}"),
        ("big.nin", f"{HUGE} 1\n1\n1\n"),
        ("big.mk", f"1 {HUGE}\n1\n#\n1\n"),
        ("big.g", f"{HUGE}\n"),
    ],
)
def test_numbers_of_thousands_of_digits_are_format_errors(name, data):
    with pytest.raises(FormatError, match=name):
        open_puzzle(data.encode(), name=name)


@pytest.mark.parametrize("reference", [f"&#{HUGE};", f"&#x{'f' * 5000};", f"&#{HUGE}", f"&#x{'F' * 5000} tail"])
def test_non_character_references_of_thousands_of_digits_read_as_replacement(reference):
    text = f'title "{reference}"\nwidth 1\nheight 1\nrows\n1\ncolumns\n1\n'
    assert non_loads(text)[0].meta["title"].startswith("\ufffd")


def test_digit_limit_counts_significant_digits():
    assert _limits.integer("0" * 50 + "42", "f") == 42
    with pytest.raises(FormatError, match="11 digits"):
        _limits.integer("1" * 11, "f")


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("huge.nin", "8192 8192\n" + "1\n" * 16384),
        ("tiny.notmine", "NotMine{4096,4096,!}"),
        ("huge.non", "width 4096\nheight 4096\n"),
        ("huge.gno", "[Dimensions]\n4096\n4096\n[Solution grid]\n"),
    ],
)
def test_every_format_has_the_rofl_cell_cap(name, data):
    with pytest.raises(LimitError, match=f"at most {_limits.MAX_CELLS} cells"):
        open_puzzle(data.encode(), name=name)


@pytest.mark.parametrize("brk", ["\n", "\r", "\f", "\v", "\x1c", "\x85", "\u2028", "\u2029"])
def test_line_limit_counts_what_splitlines_splits_on(brk):
    text = "1 1\n1\n" + brk * (_limits.MAX_LINES + 1) + "1\n"
    with pytest.raises(LimitError, match="lines"):
        open_puzzle(text.encode(), name="many.nin")


def test_crlf_is_one_line():
    assert _limits.count_lines("a\r\nb\rc\n") == 3 == len("a\r\nb\rc\n".splitlines())


def test_a_book_decompresses_only_the_puzzle_asked_for(tmp_path, monkeypatch):
    import numpy as np

    from rofl.formats import sheets
    from rofl.puzzle import Palette, Puzzle
    from rofl.render.pdf import puzzle_book

    grid = np.array([[1, 0], [1, 1]], np.uint8)
    puzzle = Puzzle.from_grid(grid, Palette.black_white())
    book = puzzle_book([puzzle] * 5)
    loaded = []
    real = sheets._attachment

    def counting(entry, where):
        loaded.append(entry.name)
        return real(entry, where)

    monkeypatch.setattr(sheets, "_attachment", counting)
    assert open_puzzle(book, name="book.pdf", number=4).puzzle == puzzle
    assert loaded == ["puzzle-4.rofl"]


def test_decode_scale_has_a_pixel_cap(tmp_path):
    import numpy as np

    from rofl.formats import write_puzzle
    from rofl.picture.pixelart import MAX_IMAGE_PIXELS
    from rofl.puzzle import Palette, Puzzle
    from tests.clirun import run, usage_error_line

    grid = np.eye(2048, dtype=np.uint8)
    write_puzzle(tmp_path / "big.rofl", Puzzle.from_grid(grid, Palette.black_white()), grid)
    out = tmp_path / "big.png"
    usage_error_line(run("decode", tmp_path / "big.rofl", "-o", out, "--scale", 64), "pixels", str(MAX_IMAGE_PIXELS))
    assert not out.exists()


def test_the_copies_of_the_limits_kept_for_cheap_imports_agree():
    # rofl.formats and the Pillow plugin keep their own copy so that importing
    # them does not load rofl.puzzle (and numpy); they must say the same
    import rofl.formats
    from rofl import RoflImagePlugin
    from rofl.formats import _limits

    assert rofl.formats.MAX_FILE_BYTES == _limits.MAX_FILE_BYTES
    assert RoflImagePlugin.MAX_CELLS == _limits.MAX_CELLS
