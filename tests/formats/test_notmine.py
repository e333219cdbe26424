"""The NotMine cipher: the seed's examples, round trips, and malformed ciphers."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from rofl.errors import FormatError
from rofl.formats import notmine, read_puzzle, write_puzzle
from rofl.puzzle import Palette, Puzzle

# The five examples of section 9, exactly as the seed prints them.
SEED_EXAMPLES = [
    r"NotMine{ 2, 8, NONOGRAM }",
    r"NotMine{ 3, 2, !!!!!!!!!!!!! }",
    r"NotMine{ 2, 12, HELLO_WORLD! }",
    r"NotMine{ 10, 14, EINS!!!!ZWEI!!!!DREI!!!VIER!FUENF!SECHS!!!!SIEBEN!ACHT!!NEUN!!!!ZEHN!! }",
    r'NotMine{ 5, 15, *\"*\"*\"*\"\")!)!!\")!*!*\")!\")!!)!\")!*\"*\")!" }',
]


def reference_bits(content: str, rows: int, cols: int) -> np.ndarray:
    """Section 8 read literally, one glyph at a time (slow and obvious)."""
    cells = []
    for ch in content:
        value = (ord(ch) - ord("!")) % 64
        cells += [value & 7, (value >> 3) & 7]
    cells += [0] * (rows * cols)
    return np.array(cells[: rows * cols], dtype=np.uint8).reshape(rows, cols)


def picture(rows: list[str]) -> np.ndarray:
    return np.array([[c == "#" for c in r] for r in rows])


@pytest.mark.parametrize("cipher", SEED_EXAMPLES)
def test_seed_examples_parse(cipher):
    field = notmine.loads(cipher)
    inner = cipher[len("NotMine{ ") : -len(" }")]
    rows, cols, content = (part.strip() for part in inner.split(",", 2))
    rows, cols = int(rows), int(cols)
    assert (field.rows, field.cols) == (rows, cols)
    np.testing.assert_array_equal(field.bits(), reference_bits(content.replace('\\"', '"'), rows, cols))


def test_seed_example_pictures():
    test = notmine.loads(SEED_EXAMPLES[4])
    np.testing.assert_array_equal(
        test.picture,
        picture(["###.###.###.###", ".#..#...#....#.", ".#..##..###..#.", ".#..#.....#..#.", ".#..###.###..#."]),
    )
    assert not test.fill.any() and not test.mark.any()
    nonogram = notmine.loads(SEED_EXAMPLES[0])  # N = 45 = 0b101101: filled and marked, both cells
    np.testing.assert_array_equal(nonogram.picture, picture(["##.###.#", "..#....#"]))
    assert nonogram.mark[0].tolist() == [True] * 8
    assert nonogram.fill[0, 2] and not nonogram.fill[0, 0]  # O = 46: the player filled the even cell
    empty = notmine.loads(SEED_EXAMPLES[1])  # more glyphs than cells: the extra ones are ignored
    assert empty.bits().shape == (3, 2) and not empty.bits().any()


def test_canonical_ciphers_are_written_back_byte_for_byte():
    for cipher in (SEED_EXAMPLES[0], SEED_EXAMPLES[2], SEED_EXAMPLES[3]):
        assert notmine.dumps(notmine.loads(cipher)) == cipher
    # the quote example without its surplus glyph is canonical too
    canonical = SEED_EXAMPLES[4][: -len('" }')] + " }"
    assert notmine.dumps(notmine.loads(SEED_EXAMPLES[4])) == canonical


@st.composite
def fields(draw):
    rows = draw(st.integers(1, 12))
    cols = draw(st.integers(1, 12))
    bits = draw(arrays(np.uint8, (rows, cols), elements=st.integers(0, 7)))
    return notmine.Field.from_bits(bits)


@settings(deadline=None, max_examples=200)
@given(fields())
def test_play_state_round_trips(field):
    text = notmine.dumps(field)
    again = notmine.loads(text)
    assert again == field
    np.testing.assert_array_equal(again.fill, field.fill)
    np.testing.assert_array_equal(again.mark, field.mark)
    assert notmine.dumps(again) == text
    assert text.isascii() and "\n" not in text


@settings(deadline=None, max_examples=100)
@given(arrays(np.uint8, st.tuples(st.integers(1, 9), st.integers(1, 9)), elements=st.integers(0, 1)))
def test_picture_round_trips_through_the_puzzle_codec(grid):
    puzzle = Puzzle.from_grid(grid, Palette.black_white())
    data = notmine.write_bytes(puzzle, grid)
    again, solution = notmine.read_bytes(data)
    assert again == puzzle
    np.testing.assert_array_equal(solution, grid)


def test_escapes_make_every_glyph_safe():
    # value 1 is '"' and value 59 is '\\': both written escaped, both read back
    field = notmine.Field.from_bits(np.array([[1, 0, 3, 7, 1, 0]], dtype=np.uint8))
    text = notmine.dumps(field)
    assert text == r"NotMine{ 1, 6, \"\\\" }"
    assert notmine.loads(text) == field
    assert notmine.dumps(field, escape=False) == 'NotMine{ 1, 6, "\\" }'
    assert notmine.loads('NotMine{ 1, 2, " }') == notmine.loads(r"NotMine{ 1, 2, \" }")


def test_missing_glyphs_are_blank_and_high_bits_are_ignored():
    assert notmine.loads("NotMine{ 2, 2, }") == notmine.Field.from_picture(np.zeros((2, 2)))
    short = notmine.loads("NotMine{2,3,*}")
    np.testing.assert_array_equal(short.picture, [[1, 1, 0], [0, 0, 0]])
    assert notmine.loads("NotMine{ 1, 2, a }") == notmine.loads("NotMine{ 1, 2, ! }")  # 'a' = 64 + 0
    tilde = (ord("~") - 33) % 64  # 93 - 64 = 29 = 0b011101
    assert notmine.loads("NotMine{ 1, 2, ~ }").bits().tolist() == [[tilde & 7, tilde >> 3]] == [[5, 3]]
    assert notmine.loads("  NotMine{ 1, 4,\n  ** \n ** }\n") == notmine.loads("NotMine{ 1, 4, ** }")


def test_odd_fields_use_half_a_glyph():
    field = notmine.Field.from_picture(np.ones((1, 3)))
    assert notmine.dumps(field) == 'NotMine{ 1, 3, *\\" }'
    assert notmine.loads("NotMine{ 1, 3, ** }") == field  # the odd half of the last glyph is ignored


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "does not start with 'NotMine{'"),
        ("notmine{ 1, 1, ! }", "does not start with 'NotMine{'"),
        ("NotMine{ 1, 1, !", "does not end with '}'"),
        ("NotMine{ 1 1 ! }", "expected 'NotMine{ rows, columns, content }'"),
        ("NotMine{ -1, 2, ! }", "expected 'NotMine{ rows, columns, content }'"),
        ("NotMine{ 1.5, 2, ! }", "expected"),
        ("NotMine{ 0, 2, ! }", "at least one row and one column, not 0x2"),
        ("NotMine{ 3, 0, }", "not 3x0"),
        ("NotMine{ 99999, 99999, ! }", "rofl reads puzzles of at most 4194304 cells"),
        ("NotMine{ 1, 2, !\x01 }", r"content character 2 \('\\x01'\) is not a glyph"),
        ("NotMine{ 1, 2, é }", r"content character 1 \('é'\) is not a glyph"),
        (b"NotMine{ 1, 2, \xff }", "byte 16 is not ASCII"),
    ],
)
def test_malformed_ciphers(text, message):
    with pytest.raises(FormatError, match=message):
        notmine.loads(text)


def test_field_validation():
    with pytest.raises(ValueError, match="differ in shape"):
        notmine.Field(np.zeros((2, 2)), np.zeros((2, 3)), np.zeros((2, 2)))
    with pytest.raises(ValueError, match="non-empty two-dimensional"):
        notmine.Field.from_picture(np.zeros(4))
    field = notmine.Field.from_picture(np.eye(3))
    assert eval(repr(field), {"notmine": notmine}) == field
    assert not field.picture.flags.writeable


def test_read_and_write_puzzle_files(tmp_path):
    grid = np.array([[1, 0, 1], [0, 1, 0]], dtype=np.uint8)
    puzzle = Puzzle.from_grid(grid, Palette.black_white())
    path = tmp_path / "p.notmine"
    write_puzzle(path, puzzle, grid)
    assert path.read_text().startswith("NotMine{ 2, 3, ")
    again, solution = read_puzzle(path)
    assert again == puzzle
    np.testing.assert_array_equal(solution, grid)
    other = tmp_path / "cipher.txt"  # found by its leader, whatever the extension
    other.write_text("\n  " + SEED_EXAMPLES[4] + "\n")
    test, solution = read_puzzle(other)
    assert (test.width, test.height) == (15, 5)
    assert solution.sum() == 35


def test_writer_needs_black_and_white_and_a_solution():
    colour = Puzzle.from_grid(np.array([[1, 2]]), Palette(["#fff", "#000", "#f00"]))
    with pytest.raises(FormatError, match="black-and-white"):
        notmine.write_bytes(colour)
    solvable = Puzzle.from_grid(np.array([[1, 1, 0]]), Palette.black_white())
    assert notmine.write_bytes(solvable) == b"NotMine{ 1, 3, *! }\n"
    ambiguous = Puzzle.from_grid(np.eye(2, dtype=np.uint8), Palette.black_white())
    with pytest.raises(FormatError, match="give the solution"):
        notmine.write_bytes(ambiguous)


def unescape_reference(content: str) -> str:
    """Read left to right; a backslash before a quote or backslash escapes it."""
    out, i = [], 0
    while i < len(content):
        if content[i] == "\\" and i + 1 < len(content) and content[i + 1] in '"\\':
            out.append(content[i + 1])
            i += 2
        else:
            out.append(content[i])
            i += 1
    return "".join(out)


@settings(deadline=None, max_examples=300)
@given(st.text(alphabet='\\"!ab', max_size=30))
def test_unescape_matches_reference(content):
    assert notmine._unescape(content) == unescape_reference(content)


@pytest.mark.slow
def test_large_cipher():
    # a million escaped quotes: every even cell filled
    field = notmine.loads("NotMine{ 1000, 2000, " + '\\"' * 1_000_000 + " }")
    assert field.picture[:, 0::2].all() and not field.picture[:, 1::2].any()


@settings(deadline=None, max_examples=300)
@given(
    st.one_of(
        st.binary(max_size=60),
        st.text(max_size=60),
        st.builds(lambda a, b: "NotMine{" + a + "}" + b, st.text(max_size=40), st.text(" \n}", max_size=3)),
        st.builds(
            lambda r, c, t: f"NotMine{{ {r}, {c}, {t} }}",
            st.integers(-3, 40),
            st.integers(-3, 40),
            st.text(max_size=30),
        ),
    )
)
def test_hostile_ciphers_fail_cleanly(data):
    try:
        field = notmine.loads(data)
    except FormatError:
        return
    assert field.rows >= 1 and field.cols >= 1
    assert notmine.loads(notmine.dumps(field)) == field
