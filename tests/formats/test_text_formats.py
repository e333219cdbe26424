"""Other tools' puzzle formats: webpbn XML, Simpson's .non, Wilk's .nin, Olšák's .g and .mk, .cwd,
saved games of Tatham's Pattern (.sav) and Gnonograms' puzzle files (.gno).

Round trips (hypothesis), hand-written samples in ``tests/data/formats/``
with the quirks real files have, every corpus puzzle through every format
that can hold it, and hostile input that must end in one FormatError.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from rofl.errors import FormatError
from rofl.formats import corpus as corpus_json
from rofl.formats import cwd, gnonograms, mk, nin, non, olsak, read_puzzle, tatham, webpbn, write_puzzle
from rofl.puzzle import Palette, Puzzle
from tests.mangle import edits, mangle
from tests.places import CORPUS, DATA_DIR

DATA = DATA_DIR / "formats"
BW = Palette.black_white()

# every text format: module, extension, holds colour, holds the solution
FORMATS = [
    pytest.param(webpbn, ".xml", True, True, id="webpbn"),
    pytest.param(non, ".non", True, True, id="non"),
    pytest.param(nin, ".nin", False, False, id="nin"),
    pytest.param(olsak, ".g", True, False, id="olsak"),
    pytest.param(mk, ".mk", False, False, id="mk"),
    pytest.param(cwd, ".cwd", False, False, id="cwd"),
    pytest.param(tatham, ".sav", False, False, id="tatham"),
    pytest.param(gnonograms, ".gno", False, True, id="gnonograms"),
]
MODULES = {
    "webpbn": webpbn,
    "non": non,
    "nin": nin,
    "olsak": olsak,
    "mk": mk,
    "cwd": cwd,
    "tatham": tatham,
    "gnonograms": gnonograms,
}
BLACK_WHITE_ONLY = (nin, mk, cwd, tatham, gnonograms)
BY_SUFFIX = {
    ".xml": webpbn,
    ".non": non,
    ".nin": nin,
    ".g": olsak,
    ".mk": mk,
    ".cwd": cwd,
    ".sav": tatham,
    ".gno": gnonograms,
}

HOUSE = np.array(
    [
        [c == "X" for c in row]
        for row in ["...X...", "..XXX..", ".XXXXX.", "XX...XX", ".X.X.X.", ".X.X.X.", ".......", ".XXXXX."]
    ],
    dtype=np.uint8,
)
FLAG = np.array([[0, 2, 2, 0, 3, 3], [1, 2, 0, 0, 3, 0], [1, 1, 1, 3, 3, 0], [0, 0, 2, 2, 0, 1]], dtype=np.uint8)
FLAG_PALETTE = Palette(["#ffffff", "#000000", "#ff0000", "#0000ff"])


def read(module, data: bytes | str, where: str = "test.file"):
    """(puzzle, solution or None) through a module's read_bytes."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    return module.read_bytes(data, where=where)


# ------------------------------------------------------------------ round trips


def bw_grids():
    return st.tuples(st.integers(1, 14), st.integers(1, 14)).flatmap(
        lambda shape: arrays(np.uint8, shape, elements=st.integers(0, 1))
    )


def colour_puzzles():
    """(grid, palette): up to 8 colours, random (possibly repeated) RGB values."""
    rgb = st.tuples(st.integers(0, 255), st.integers(0, 255), st.integers(0, 255))
    return st.integers(2, 8).flatmap(
        lambda k: st.tuples(
            st.tuples(st.integers(1, 12), st.integers(1, 12)).flatmap(
                lambda shape: arrays(np.uint8, shape, elements=st.integers(0, k - 1))
            ),
            st.lists(rgb, min_size=k, max_size=k).map(Palette),
        )
    )


@pytest.mark.parametrize(("module", "suffix", "colour", "keeps"), FORMATS)
@settings(deadline=None, max_examples=150)
@given(grid=bw_grids())
def test_black_and_white_round_trip(module, suffix, colour, keeps, grid):
    puzzle = Puzzle.from_grid(grid, BW)
    back, solution = read(module, module.write_bytes(puzzle, grid))
    assert back == puzzle
    if keeps:
        assert np.array_equal(solution, grid)
    else:
        assert solution is None
    # without a solution nothing is invented
    assert read(module, module.write_bytes(puzzle))[0] == puzzle


@pytest.mark.parametrize("module", [webpbn, olsak], ids=["webpbn", "olsak"])
@settings(deadline=None, max_examples=150)
@given(case=colour_puzzles())
def test_colour_round_trip(module, case):
    grid, palette = case
    puzzle = Puzzle.from_grid(grid, palette)
    back, solution = read(module, module.write_bytes(puzzle, grid))
    assert back == puzzle and back.palette == palette
    if module is webpbn:
        assert np.array_equal(solution, grid)


def test_the_largest_palette_round_trips():
    palette = Palette([(i, 255 - i, (7 * i) % 256) for i in range(64)])
    grid = np.arange(63, dtype=np.uint8).reshape(7, 9) + 1
    puzzle = Puzzle.from_grid(grid, palette)
    for module in (webpbn, olsak):
        back, solution = read(module, module.write_bytes(puzzle, grid))
        assert back == puzzle
    assert np.array_equal(read(webpbn, webpbn.write_bytes(puzzle, grid))[1], grid)


meta_text = (
    st.text(
        st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\ufffe\uffff"), min_size=1, max_size=40
    )
    .map(str.strip)
    .filter(bool)
)


@pytest.mark.parametrize("module", [webpbn, non], ids=["webpbn", "non"])
@settings(deadline=None, max_examples=100)
@given(title=meta_text, author=meta_text, licence=meta_text)
def test_title_author_copyright_round_trip(module, title, author, licence):
    puzzle = Puzzle.from_grid(HOUSE, BW, meta={"title": title, "author": author, "licence": licence})
    back, _ = read(module, module.write_bytes(puzzle))
    assert {k: back.meta.get(k) for k in ("title", "author", "licence")} == {
        "title": title,
        "author": author,
        "licence": licence,
    }


def test_non_keeps_line_ends_in_properties_as_references():
    puzzle = Puzzle.from_grid(HOUSE, BW, meta={"notes": 'two\nlines & a "quote"', "title": "Zürich"})
    text = non.dumps(puzzle)
    assert 'notes "two&#10;lines &amp; a &quot;quote&quot;"' in text and 'title "Z&#252;rich"' in text
    assert text.isascii()
    assert dict(non.loads(text)[0].meta) == dict(puzzle.meta)


def test_write_puzzle_and_read_puzzle_use_the_extensions(tmp_path):
    puzzle = Puzzle.from_grid(HOUSE, BW)
    for suffix in BY_SUFFIX:
        path = tmp_path / f"house{suffix.upper()}"  # extensions are case-insensitive
        write_puzzle(path, puzzle, HOUSE)
        assert read_puzzle(path)[0] == puzzle


# ---------------------------------------------------------------- the samples


def house_puzzle():
    return Puzzle.from_grid(HOUSE, BW)


@pytest.mark.parametrize(
    ("name", "solution"),
    [
        ("house.non", True),
        ("house-pbnsolve.non", True),
        ("house.nin", False),
        ("house.g", False),
        ("house.mk", False),
        ("house.cwd", False),
        ("house.sav", False),
        ("house.gno", True),
        ("house-numberloom.xml", True),
    ],
)
def test_house_samples(name, solution):
    puzzle, grid = read_puzzle(DATA / name)
    assert puzzle == house_puzzle()
    if solution:
        assert np.array_equal(grid, HOUSE)
    else:
        assert grid is None


def test_house_non_properties():
    puzzle, _ = read_puzzle(DATA / "house.non")
    # HTML character references decoded; unknown keywords (maxrule, difficulty, saved) ignored
    assert dict(puzzle.meta) == {
        "id": "rofl-test-1",
        "title": "House with a fence",
        "author": "René O'Test",
        "licence": "(c) 2026 the rofl authors, CC0",
    }


def test_flag_xml_sample():
    puzzle, grid = read_puzzle(DATA / "flag.xml")
    assert puzzle == Puzzle.from_grid(FLAG, FLAG_PALETTE)
    assert np.array_equal(grid, FLAG)  # the goal, not the 'saved' image
    assert puzzle.meta["notes"] == "A small colour picture & its goal."
    assert puzzle.meta["licence"] == "(c) 2026 the rofl authors, CC0"
    assert puzzle.meta["id"] == "#1 (v.1)"


def test_flag_g_sample():
    puzzle, grid = read_puzzle(DATA / "flag.g")
    # palette: background (redefined by 0:), then r, 1, b in declaration order
    assert puzzle.palette == Palette(["#ffffff", "#ff0000", "#000000", "#0000ff"])
    remap = np.array([0, 2, 1, 3], dtype=np.uint8)  # FLAG's indices -> the file's
    assert puzzle == Puzzle.from_grid(remap[FLAG], puzzle.palette)
    assert grid is None


@pytest.mark.parametrize("name", sorted(p.name for p in DATA.iterdir()))
def test_samples_survive_crlf_bom_and_latin1(tmp_path, name):
    """Windows line ends, a UTF-8 byte-order mark and an 8-bit comment change nothing."""
    original = read_puzzle(DATA / name)
    data = (DATA / name).read_bytes()
    variants = [data.replace(b"\n", b"\r\n"), b"\xef\xbb\xbf" + data]
    if name.endswith(".g"):
        variants.append(b"Koment\xe1\xf8 v k\xf3dov\xe1n\xed Latin-2\n" + data)
    for i, variant in enumerate(variants):
        path = tmp_path / f"v{i}-{name}"
        path.write_bytes(variant)
        puzzle, grid = read_puzzle(path)
        assert puzzle == original[0] and dict(puzzle.meta) == dict(original[0].meta)
        assert (grid is None) == (original[1] is None)


def test_xml_is_found_by_its_content(tmp_path):
    path = tmp_path / "flag.txt"
    path.write_bytes(b"\n  " + (DATA / "flag.xml").read_bytes())
    assert read_puzzle(path)[0] == read_puzzle(DATA / "flag.xml")[0]


def test_xml_with_goal_only_gets_its_clues_from_the_goal():
    text = """<puzzleset><puzzle><solution><image>|.X|\n|XX|</image></solution></puzzle></puzzleset>"""
    puzzle, grid = read(webpbn, text)
    assert puzzle == Puzzle.from_grid(np.array([[0, 1], [1, 1]]), BW)
    assert np.array_equal(grid, [[0, 1], [1, 1]])


def test_xml_puzzleset_metadata_and_first_puzzle():
    text = """<puzzleset><author>Set Author</author><title>A series</title>
    <puzzle><title>One</title><clues type="rows"><line><count>1</count></line></clues>
    <clues type="columns"><line><count>1</count></line></clues></puzzle>
    <puzzle><title>Two</title></puzzle></puzzleset>"""
    puzzle, _ = read(webpbn, text)
    assert puzzle.meta["title"] == "One" and puzzle.meta["author"] == "Set Author"
    assert puzzle.rows == (((1, 1),),)


def test_xml_lone_zero_count_is_an_empty_line():
    text = """<puzzleset><puzzle><clues type="rows"><line><count>0</count></line><line><count>1</count></line>
    </clues><clues type="columns"><line><count>1</count></line></clues></puzzle></puzzleset>"""
    assert read(webpbn, text)[0].rows == ((), ((1, 1),))


def test_xml_undeclared_css_colour_and_background_attribute():
    text = """<puzzleset><puzzle backgroundcolor="yellow" defaultcolor="navy">
    <clues type="rows"><line><count>1</count><count color="red">1</count></line></clues>
    <clues type="columns"><line><count>1</count></line><line><count color="red">1</count></line></clues>
    </puzzle></puzzleset>"""
    puzzle, _ = read(webpbn, text)
    assert puzzle.palette == Palette(["#ffff00", "#000080", "#ff0000"])


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


def test_g_without_closing_colon_ignores_trailing_blank_lines():
    text = ": rows\n1\n\n: columns\n1\n\n\n\n"
    puzzle, _ = read(olsak, text)
    assert (puzzle.width, puzzle.height) == (1, 2)


def test_g_lone_zero_and_commas():
    text = ": rows\n0\n1, 1\n: columns\n1\n0\n1\n:\n"
    puzzle, _ = read(olsak, text)
    assert puzzle.rows == ((), ((1, 1), (1, 1)))


def test_g_x11_names():
    text = "#d\n 0: gray50\n g:g green\n p:p Purple\n: rows\n1g 1p\n: columns\n1g\n1p\n:\n"
    puzzle, _ = read(olsak, text)
    assert puzzle.palette == Palette([(128, 128, 128), (0, 255, 0), (160, 32, 240)])


def test_g_writer_forms():
    plain = olsak.dumps(house_puzzle())
    assert not plain.startswith("#d") and "\n\n5\n" in plain  # blank line = empty row
    two = Puzzle.from_grid(HOUSE, Palette(["#ffffff", "#2040c0"]))
    text = olsak.dumps(two)
    assert "1:*  #2040c0" in text and "2 2" in text
    assert read(olsak, text)[0] == two


def test_nin_and_non_writers_keep_zero_for_empty_lines():
    assert "\n0\n" in nin.dumps(house_puzzle())
    assert "\n0\n" in non.dumps(house_puzzle())
    assert "\n0\n" in mk.dumps(house_puzzle())
    assert "\n0\n" in cwd.dumps(house_puzzle())


def test_mk_and_cwd_writer_forms():
    assert mk.dumps(house_puzzle()).splitlines()[:2] == ["8 7", "1"]  # height first
    assert mk.dumps(house_puzzle()).splitlines()[9] == "#"
    assert cwd.dumps(house_puzzle()).splitlines()[:3] == ["8", "7", "1"]
    assert cwd.dumps(house_puzzle()).splitlines()[10] == ""  # the blank line between rows and columns


def test_mk_blank_lines_are_empty_lines_and_the_header_may_take_two_lines():
    text = "3\n2\n1\n\n0\n# the columns\n1\n\n\n"  # a blank row and a blank last line to spare
    puzzle = mk.loads(text)
    assert puzzle.rows == (((1, 1),), (), ())
    assert puzzle.cols == (((1, 1),), ())


def test_cwd_skips_blank_lines_and_takes_the_header_on_one_line():
    assert cwd.loads("\n8 7\n" + "\n".join(cwd.dumps(house_puzzle()).splitlines()[2:]) + "\n\n") == house_puzzle()


# ------------------------------------------------------------------ the corpus


def corpus_files():
    if not CORPUS.is_dir():
        return []
    return sorted(CORPUS.glob("*/*.json"))


@pytest.mark.skipif(not CORPUS.is_dir(), reason="corpus not available")
def test_the_corpus_is_there():
    assert len(corpus_files()) > 400


@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_corpus_puzzle_through_every_format(path):
    puzzle, solution = corpus_json.load(path)
    for name, module in MODULES.items():
        if module in BLACK_WHITE_ONLY and puzzle.n_colors > 2:
            with pytest.raises(FormatError, match="black-and-white"):
                module.write_bytes(puzzle, solution)
            continue
        back, grid = read(module, module.write_bytes(puzzle, solution), where=str(path))
        assert back == puzzle, name
        if module in (webpbn, gnonograms) and solution is not None:
            assert np.array_equal(grid, solution), name
        if module is non and solution is not None:
            # pbnsolve's goal is black and white; Nonny has no colour goal
            assert np.array_equal(grid, solution) if puzzle.n_colors == 2 else grid is None, name
        if module is webpbn:
            for key in ("title", "author", "licence", "source", "id", "notes"):
                assert back.meta.get(key) == puzzle.meta.get(key, None), key
        if module is gnonograms:
            for key in ("title", "author", "licence"):
                assert back.meta.get(key) == puzzle.meta.get(key, None), key


# ---------------------------------------------------------------- hostile input

BOMB = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol9 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
]>
<puzzleset><puzzle><title>&lol9;</title></puzzle></puzzleset>"""
EXTERNAL = b"""<?xml version="1.0"?>
<!DOCTYPE puzzleset [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<puzzleset><puzzle><title>&secret;</title></puzzle></puzzleset>"""
PARAMETER = b"""<?xml version="1.0"?>
<!DOCTYPE puzzleset [<!ENTITY % remote SYSTEM "http://127.0.0.1:9/evil.dtd"> %remote;]>
<puzzleset/>"""

XML_ROWS = '<clues type="rows"><line><count>1</count></line></clues>'
XML_COLS = '<clues type="columns"><line><count>1</count></line></clues>'


def xml(body: str, attrs: str = "") -> bytes:
    return f"<puzzleset><puzzle{attrs}>{body}</puzzle></puzzleset>".encode()


NONNY = b"width 1\nheight 1\ncolor red ff0000 r\n"

SAVE = b"SAVEFILE:41:Simon Tatham's Portable Puzzle Collection\nVERSION :1:1\n"


def pattern_save(params: str, desc: str) -> bytes:
    """A minimal saved game of Pattern with these CPARAMS and DESC."""
    fields = [("GAME", "Pattern"), ("PARAMS", params), ("CPARAMS", params), ("DESC", desc)]
    return SAVE + "".join(f"{k:<8}:{len(v)}:{v}\n" for k, v in fields).encode("ascii")


def gno(*sections: str) -> bytes:
    """A Gnonograms file of these sections ("[Heading]\nbody lines")."""
    return "\n".join(sections).encode()


GNO_2X2 = "[Dimensions]\n2\n2"

HOSTILE = [
    # webpbn XML
    ("webpbn", BOMB, r"declares entities \('lol"),
    ("webpbn", EXTERNAL, r"declares entities \('secret'\)"),
    ("webpbn", PARAMETER, r"declares entities"),
    ("webpbn", b"", r"not well-formed XML"),
    ("webpbn", b"<puzzleset><puzzle>", r"not well-formed XML"),
    ("webpbn", b"\x00\xff\xfe junk \x89PNG", r"not well-formed XML"),
    ("webpbn", b"<html><body/></html>", r"root element is <html>"),
    ("webpbn", b'<?xml version="1.0" encoding="UTRF-8"?><puzzleset/>', r"declares an unknown encoding: UTRF-8"),
    ("webpbn", b"<puzzleset/>", r"no <puzzle>"),
    ("webpbn", xml("", ' type="triddler"'), r"grid puzzles only"),
    ("webpbn", xml(XML_ROWS), r'no <clues type="columns">'),
    ("webpbn", xml(""), r"neither <clues> nor a goal"),
    (
        "webpbn",
        xml(XML_ROWS.replace(">1<", ">99999999999999999999<") + XML_COLS),
        r"<count> 1: block length .* too large",
    ),
    ("webpbn", xml(XML_ROWS.replace(">1<", ">-1<") + XML_COLS), r"expected a block length, not '-1'"),
    ("webpbn", xml(XML_ROWS.replace(">1<", ">7<") + XML_COLS), r"row 1: clue needs 7 cells but the row has 1"),
    ("webpbn", xml(XML_ROWS.replace("<count>", '<count color="mauvish">') + XML_COLS), r"'mauvish' is used"),
    ("webpbn", xml(XML_ROWS + XML_COLS, ' defaultcolor="white"'), r"background colour 'white'"),
    ("webpbn", xml('<color name="black">zzz</color>' + XML_ROWS + XML_COLS), r"'zzz' is not an RGB value"),
    (
        "webpbn",
        xml(XML_ROWS + XML_COLS + '<solution type="goal"><image>|XX|</image></solution>'),
        r"goal image is 2x1, the clues are 1x1",
    ),
    (
        "webpbn",
        xml(XML_ROWS + XML_COLS + '<solution type="goal"><image>|.|</image></solution>'),
        r"goal picture does not match the clues \(row 1\)",
    ),
    (
        "webpbn",
        xml(XML_ROWS + XML_COLS + '<solution type="goal"><image>|[X.]|</image></solution>'),
        r"row 1, column 1: '\[': not one colour",
    ),
    # .non
    ("non", b"", r"no 'width' line"),
    ("non", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", r"a NUL byte"),
    ("non", b"width 2\nheight 2\nrows\n1\n", r"'rows' has 1 rules where the height is 2"),
    ("non", b"width 2\nheight 1\nrows\n1\ncolumns\n1\n0\n1\n", r"line 8: a rule outside"),
    ("non", b"width 3000000000\nheight 1\n", r"line 1: the width 3000000000 is larger than rofl's limit"),
    ("non", b"width 99999999999999999999999\n", r"line 1: width '9999.* is too large"),
    ("non", b"width 0\n", r"the width must be at least 1"),
    ("non", b"width 2\nwidth 3\n", r"line 2: the width is given twice"),
    ("non", b"rows\n1\n", r"line 1: 'rows' before the height"),
    ("non", b"width 1\nheight 1\nrows\n2\ncolumns\n1\n", r"row 1: clue needs 2 cells but the row has 1"),
    ("non", b"width 1\nheight 1\nrows\n1\ncolumns\n1\ngoal 0\n", r"line 7: the goal picture does not match"),
    ("non", b"width 2\nheight 1\nrows\n1\ncolumns\n1\n0\ngoal 1\n", r"line 8: the goal has 1 cells"),
    ("non", b"width 1\nheight 1\nrows\n1 0\ncolumns\n1\n", r"line 4: a block of length 0"),
    # Nonny's colour lines
    ("non", NONNY + b"rows\nblue 1\ncolumns\nred 1\n", r"line 5: colour 'blue' is not declared before this rule"),
    ("non", NONNY + b"rows\nred 1 mauve 1\n", r"line 5: colour 'mauve' is not declared"),
    ("non", b"width 1\nheight 1\nrows\nred 1\ncolumns\n1\n", r"line 4: 'red' is not a number, and no 'color'"),
    ("non", NONNY + b"color red 00ff00\n", r"line 4: colour 'red' is declared twice \(first on line 3\)"),
    ("non", b"color background ffffff\ncolor background 000000\n", r"line 2: colour 'background' is declared twice"),
    ("non", b"color red ff00zz r\n", r"line 1: colour 'red': 'ff00zz' is not six hex digits RRGGBB"),
    ("non", b"color red #ff0000 r\n", r"line 1: colour 'red': '#ff0000' is not six hex digits"),
    ("non", b"color red fff r\n", r"line 1: colour 'red': 'fff' is not six hex digits"),
    ("non", b"color red\n", r"line 1: expected 'color NAME RRGGBB \[SYMBOL\]', not 'color red'"),
    ("non", b"color red ff0000 r extra\n", r"line 1: expected 'color NAME RRGGBB \[SYMBOL\]'"),
    ("non", b"color red ff0000 rr\n", r"line 1: colour 'red': the symbol 'rr' is not one character"),
    ("non", b"color 1st ff0000\n", r"line 1: colour name '1st' must start with a letter"),
    ("non", b"color re:d ff0000\n", r"line 1: colour name 're:d' must start with a letter and hold no"),
    ("non", b"".join(b"color c%d %06x\n" % (i, i) for i in range(64)), r"line 64: more than 64 colours"),
    ("non", NONNY + b"rows\nbackground 1\n", r"line 5: a block in the background colour"),
    ("non", NONNY + b"rows\n1\ncolor black 101010\n", r"line 6: 'color black' after line 5 already used"),
    ("non", NONNY + b"rows\nred 1 0\n", r"line 5: a block of length 0"),
    ("non", NONNY + b"rows\nred 99999999999\n", r"line 5: block length '99999999999' is too large"),
    ("non", NONNY + b"rows\nred -1\n", r"'rows' has 0 rules where the height is 1"),
    (
        "non",
        NONNY + b"color blue 0000ff\nrows\nred 1\ncolumns\nred 1\ngoal 1\n",
        r"line 9: the goal is pbnsolve's black-and-white picture; this puzzle has 3 colours",
    ),
    (
        "non",
        b"width 1\nheight 1\n" + b"".join(b"color c%d %06x\n" % (i, i) for i in range(63)) + b"rows\n1\n"
        b"columns\n1\n",
        r"line 67: the default black makes more than 64 colours",
    ),
    ("non", NONNY + b"rows\nred 1\ncolumns\nred 2\n", r"column 1: clue needs 2 cells"),
    # .nin
    ("nin", b"", r"empty file"),
    ("nin", b"\x00\x01\x02", r"a NUL byte"),
    ("nin", b"2 2\n1\n1\n1\n", r"3 clue lines where the 'W H' line promises 4"),
    ("nin", b"1 1\n1\n1\n1\n", r"line 4: more clue lines"),
    ("nin", b"1 1 1\n1\n1\n", r"line 1: expected 'width height'"),
    ("nin", b"99999999999 1\n", r"width '99999999999' is too large"),
    ("nin", b"1 1\nx\n1\n", r"line 2: expected a block length, not 'x'"),
    ("nin", b"1 1\n1 0\n1\n", r"a block of length 0"),
    ("nin", b"2 1\n1\n0\n0\n", r"colour 1: the rows hold 1 cells but the columns hold 0"),
    # Olšák .mk
    ("mk", b"", r"no 'height width' header"),
    ("mk", b"2 2\n1\n1\n1\n1\n", r"no '#' line"),
    ("mk", b"1 2 3\n", r"line 1: expected 'height width'"),
    ("mk", b"2 1\n1\n#\n1\n", r"line 2: 1 row clue lines before the '#' line where the header promises 2"),
    ("mk", b"1 1\n1\n#\n1\n1\n", r"line 5: 2 column clue lines after the '#' line where the header promises 1"),
    ("mk", b"1 1\nx\n#\n1\n", r"line 2: expected a block length, not 'x'"),
    ("mk", b"0 1\n#\n", r"the height must be at least 1"),
    ("mk", b"70000 1\n#\n", r"the height 70000 is larger than rofl's limit"),
    # .cwd
    ("cwd", b"", r"no height and width"),
    ("cwd", b"2\n3 1\n", r"line 2: expected the height, then the width"),
    ("cwd", b"2\n2\n1\n1\n\n1\n", r"line 6: 3 clue lines where the header promises 4"),
    ("cwd", b"1\n1\n1 0\n\n1\n", r"line 3: a block of length 0"),
    ("cwd", b"1\n2\n1\n\n0\n0\n", r"colour 1: the rows hold 1 cells but the columns hold 0"),
    # Tatham's Pattern .sav
    ("tatham", b"", r"an empty file, not a saved game"),
    ("tatham", b"GAME    :7:Pattern\n", r"not a saved game of Simon Tatham's"),
    ("tatham", SAVE + b"GAME    :4:Mine\n", r"a saved game of 'Mine', not of Pattern"),
    ("tatham", SAVE + b"VERSION :1:2\n", r"saved-game format version '2'; rofl reads version 1"),
    ("tatham", SAVE + b"GAME    :7:Pattern\nDESC    :3:1/1\n", r"no CPARAMS record"),
    ("tatham", SAVE + b"GAME    :7:Pattern\nCPARAMS :3:1x1\n", r"no DESC record"),
    ("tatham", SAVE + b"GAME    :7:Pat", r"record 3 \(byte 67\): the GAME record is cut short \(7 bytes promised\)"),
    ("tatham", SAVE + b"GAME    :x:Pattern\n", r"record 3 \(byte 67\): the GAME record has no length"),
    ("tatham", SAVE + b"GAME:7:Pattern\n", r"record 3 \(byte 67\): expected an 8-character key and ':'"),
    ("tatham", SAVE + b"DESC    :2:\x01\x02\n", r"the DESC record holds characters other than printable ASCII"),
    ("tatham", pattern_save("1x1", "1/1,a"), r"gives some cells in advance"),
    ("tatham", pattern_save("axb", "1/1"), r"the size: expected W or WxH, not 'axb'"),
    ("tatham", pattern_save("0x1", "/"), r"the width must be at least 1"),
    ("tatham", pattern_save("2x1", "1/1"), r"2 clues where a 2x1 puzzle has 3 \(columns, then rows\)"),
    ("tatham", pattern_save("1x1", "1/x"), r"description character 3: unexpected 'x'"),
    ("tatham", pattern_save("1x1", "1/1.0"), r"row 1: a block of length 0"),
    ("tatham", pattern_save("1x1", "1/2"), r"row 1: clue needs 2 cells but the row has 1"),
    ("tatham", pattern_save("1x1", "1/."), r"row 1: expected a block length, not ''"),
    ("tatham", pattern_save("2x1", "1/1/"), r"colour 1: the rows hold 0 cells but the columns hold 2"),
    # Gnonograms .gno
    ("gnonograms", b"", r"no \[section\] found: not a Gnonograms puzzle"),
    ("gnonograms", gno("[Description]", "x"), r"no \[Dimensions\] section"),
    ("gnonograms", gno("[Dimensions", "2", "2"), r"line 1: a section heading with no closing '\]'"),
    ("gnonograms", gno("[Dimensions]", "2"), r"line 2: \[Dimensions\] must hold two numbers \(rows, then columns\)"),
    ("gnonograms", gno("[Dimensions]", "0", "2"), r"the number of rows must be at least 1"),
    ("gnonograms", gno("[Dimensions]", "2", "99999999999"), r"number of columns '99999999999' is too large"),
    ("gnonograms", gno(GNO_2X2), r"no \[Row clues\] section and no \[Solution grid\]"),
    ("gnonograms", gno(GNO_2X2, "[Row clues]", "1", "1"), r"no \[Column clues\] section"),
    ("gnonograms", gno(GNO_2X2, "[Row clues]", "1", "[Column clues]", "1", "1"), r"line 5: 1 row clues where"),
    ("gnonograms", gno(GNO_2X2, "[Row clues]", "1", "x", "[Col]", "1", "1"), r"line 6: expected a block length"),
    ("gnonograms", gno(GNO_2X2, "[Row clues]", "3", "0", "[Col]", "1", "1"), r"row 1: clue needs 3 cells"),
    ("gnonograms", gno(GNO_2X2, "[Solution]", "1 2"), r"line 5: 1 rows in the solution grid where the dimensions"),
    ("gnonograms", gno(GNO_2X2, "[Solution]", "1 2", "1"), r"line 6: 1 cells in a solution row where"),
    ("gnonograms", gno(GNO_2X2, "[Solution]", "1 2", "0 2"), r"line 6: cell 1 of the solution is '0'; expected 1"),
    ("gnonograms", gno(GNO_2X2, "[Row]", "1", "1", "[Col]", "2", "0", "[Sol]", "1 2", "1 2"), r"does not match"),
    # Olšák .g
    ("olsak", b"", r"no ':' line"),
    ("olsak", b"just some text\nwithout clues\n", r"no ':' line"),
    ("olsak", b": rows\n1\n", r"only one clue section"),
    ("olsak", b"#t\n: rows\n", r"line 1: a triddler"),
    ("olsak", b"#d\n  a:a  black/white\n: rows\n", r"line 2: 'black/white' is a triangle colour"),
    ("olsak", b"#d\n  a:a  notacolour\n: rows\n", r"line 2: 'notacolour' is not a colour"),
    ("olsak", b"#d\n  a:a  red\n: rows\n1\n: columns\n1a\n:\n", r"line 4: block '1' has no colour letter"),
    ("olsak", b"#d\n  a:a  red\n: rows\n1z\n: columns\n1a\n:\n", r"line 4: block '1z': no colour 'z'"),
    ("olsak", b"#d\n  5:5  red\n: rows\n", r"line 2: '5' cannot name a colour"),
    ("olsak", b": rows\n1x2\n: columns\n1\n:\n", r"line 2: '1x2' is not a block"),
    ("olsak", b": rows\n123456789012\n: columns\n1\n:\n", r"too large"),
    ("olsak", b": rows\n: columns\n:\n", r"at least one row and one column"),
    # a flood of empty lines would be a puzzle of a million empty rows
    ("olsak", b": rows\n" + b"\n" * 1_000_000 + b": columns\n1\n:\n", r"1000004 lines: more than any puzzle"),
    ("non", b"width 1\nheight 1\n" + b"\n" * 300_000, r"lines: more than any puzzle of at most 65535"),
    ("nin", b"1 70000\n" + b"0\n" * 70_001, r"the height 70000 is larger than rofl's limit \(65535\)"),
    (
        "webpbn",
        b"<puzzleset><puzzle><clues type='rows'>" + b"<line/>" * 70_000 + b"</clues>"
        b"<clues type='columns'><line/></clues></puzzle></puzzleset>",
        r"size 1x70000 is too large \(at most 65535 cells a side\)",
    ),
]


@pytest.mark.timeout(30)
@pytest.mark.parametrize(("fmt", "data", "message"), HOSTILE, ids=[f"{h[0]}-{i}" for i, h in enumerate(HOSTILE)])
def test_hostile_input_is_one_format_error(fmt, data, message):
    with pytest.raises(FormatError) as info:
        read(MODULES[fmt], data, where="bad.file")
    text = str(info.value)
    assert text.startswith("bad.file: ") and "\n" not in text
    assert re.search(message, text), text


@pytest.mark.timeout(60)
@pytest.mark.parametrize("name", sorted(p.name for p in DATA.iterdir()))
def test_every_truncation_of_a_sample_is_a_puzzle_or_one_format_error(name):
    data = (DATA / name).read_bytes()
    module = BY_SUFFIX[Path(name).suffix]
    errors = 0
    for cut in range(len(data)):
        try:
            read(module, data[:cut], where=name)
        except FormatError as exc:
            assert str(exc).startswith(f"{name}: ")
            errors += 1
    assert errors > len(data) // 2  # most cuts are not a valid puzzle


@pytest.mark.parametrize("module", MODULES.values(), ids=MODULES.keys())
@settings(deadline=None, max_examples=300)
@given(data=st.binary(max_size=300) | st.text('0123456789 ,:#\n\r\tabrowsclumnwidthegl<>/"=[]DS', max_size=200))
def test_junk_is_a_puzzle_or_one_format_error(module, data):
    try:
        read(module, data)
    except FormatError as exc:
        assert str(exc).startswith("test.file: ")


def test_writers_refuse_what_the_format_cannot_hold():
    colour = Puzzle.from_grid(FLAG, FLAG_PALETTE)
    for module in BLACK_WHITE_ONLY:
        with pytest.raises(FormatError, match=r"the .\w+ format holds black-and-white puzzles only; .* 4 colours"):
            module.write_bytes(colour)
    wrong = HOUSE.copy()
    wrong[0, 0] = 1
    for module in MODULES.values():
        with pytest.raises(FormatError, match="does not match the clues"):
            module.write_bytes(house_puzzle(), wrong)


def test_colour_names_after_pillow_has_used_them():
    """Pillow's ImageColor.getrgb replaces colormap strings by tuples as it
    goes; looking a name up must work before and after that."""
    from PIL import ImageColor

    from rofl.formats._text import named_colour

    assert named_colour("Light Blue") == (0xAD, 0xD8, 0xE6)
    ImageColor.getrgb("lightblue")
    ImageColor.getrgb("orchid")
    assert named_colour("lightblue") == (0xAD, 0xD8, 0xE6)
    assert named_colour("orchid") == (0xDA, 0x70, 0xD6)
    assert named_colour("rgb(1,2,3)") is None  # names only


_SPLICES = [b"0", b"9", b"99999999999", b"-1", b",", b" ", b"\n", b"\r", b"<", b">", b"&", b"#", b":", b'"', b"\xff"]
_SPLICES += [b"rows", b"columns", b"goal", b"<count>", b"</line>", b"<line/>", b"#d\n", b"2a", b"&#0;", b"\t"]
_SPLICES += [b"[", b"]", b"[Solution]\n", b"[Row clues]\n", b"%", b"%zz"]


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(sorted(p.name for p in DATA.iterdir())),
    edits(_SPLICES),
)
def test_mangled_samples_are_a_puzzle_or_one_format_error(name, changes):
    """Cut, splice and overwrite a real-looking file anywhere: the reader
    returns a valid puzzle (whose goal, if any, fits its clues) or raises
    one FormatError naming the file -- never another exception."""
    data = mangle((DATA / name).read_bytes(), changes)
    try:
        puzzle, goal = read(BY_SUFFIX[Path(name).suffix], data, where=name)
    except FormatError as exc:
        assert str(exc).startswith(f"{name}: ") and "\n" not in str(exc)
        return
    assert isinstance(puzzle, Puzzle)
    if goal is not None:
        assert puzzle.is_solution(goal)


# ------------------------------------------------------- .non: Nonny's colours


def many_colour_puzzles():
    """(grid, palette) of 3 to 8 colours, random (possibly repeated) RGB values."""
    return colour_puzzles().filter(lambda case: len(case[1]) > 2)


@settings(deadline=None, max_examples=200)
@given(case=many_colour_puzzles(), title=meta_text, author=meta_text)
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
@given(grid=bw_grids())
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
    text = non.dumps(Puzzle.from_grid(FLAG, FLAG_PALETTE, meta={"title": "Flag"}), FLAG)
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
    return [p for p in corpus_files() if corpus_json.load(p)[0].n_colors > 2]


@pytest.mark.skipif(not CORPUS.is_dir(), reason="corpus not available")
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


# ---------------------------------------------------------------- Tatham's Pattern


def pattern_new_game(params: str, desc: str) -> tuple[int, int, list[list[int]]]:
    """Pattern's own reading of a size and a description, line for line as
    ``decode_params``, ``validate_desc`` and ``new_game`` in ``pattern.c``
    do it (a C string walked with a pointer): ``(w, h, rowdata)``, columns
    first.  Raises AssertionError where ``validate_desc`` returns an error."""
    digits = re.match(r"\d*", params).group()
    w = int(digits or 0)
    rest = params[len(digits) :]
    h = int(re.match(r"\d*", rest[1:]).group() or 0) if rest.startswith("x") else w
    assert w > 0 and h > 0
    s = desc + "\0"
    at = 0
    rowdata: list[list[int]] = []
    for i in range(w + h):
        rowspace = h + 1 if i < w else w + 1
        data: list[int] = []
        if s[at].isdigit():
            while True:
                start = at
                while s[at].isdigit():
                    at += 1
                n = int(s[start:at])
                rowspace -= n + 1
                assert rowspace >= 0, "more numbers than will fit"
                data.append(n)
                at += 1
                if s[at - 1] != ".":
                    break
        else:
            at += 1  # expect a slash immediately
        end = s[at - 1]
        if end == "/":
            assert i + 1 < w + h, "too many row/column specifications"
        elif end in ("\0", ","):
            assert i + 1 == w + h, "too few row/column specifications"
        else:
            pytest.fail("unrecognised character in game specification")
        rowdata.append(data)
    assert s[at - 1] == "\0"  # no clue squares after a ','
    return w, h, rowdata


def midend_records(data: bytes) -> list[tuple[str, str]]:
    """The records of a saved game as ``midend_deserialise_internal`` reads
    them: newlines skipped, an 8-byte key ending at ':' or ' ', ':', a
    decimal length, ':', exactly that many bytes."""
    out, at = [], 0
    while at < len(data):
        while at < len(data) and data[at : at + 1] in (b"\r", b"\n"):
            at += 1
        if at == len(data):
            break
        key = data[at : at + 9]
        assert key[8:9] == b":"
        name = re.match(rb"[^: ]*", key[:8]).group().decode()
        at += 9
        length = 0
        while data[at : at + 1] != b":":
            assert data[at : at + 1].isdigit()
            length = length * 10 + int(data[at : at + 1])
            at += 1
        value = data[at + 1 : at + 1 + length]
        assert len(value) == length and all(32 <= b < 127 for b in value)
        out.append((name, value.decode()))
        at += 1 + length
    return out


@settings(deadline=None, max_examples=200)
@given(grid=bw_grids())
def test_pattern_reads_what_the_writer_writes(grid):
    """Pattern's own parsing (transliterated) of every record and of the
    description the writer produces gives the puzzle's clues back."""
    puzzle = Puzzle.from_grid(grid, BW)
    fields = dict(midend_records(tatham.write_bytes(puzzle)))
    assert midend_records(tatham.write_bytes(puzzle))[0] == ("SAVEFILE", tatham.MAGIC)
    assert fields["VERSION"] == "1" and fields["GAME"] == "Pattern"
    assert fields["NSTATES"] == "1" and fields["STATEPOS"] == "1"  # a game not yet started
    assert fields["PARAMS"] == fields["CPARAMS"] == f"{puzzle.width}x{puzzle.height}"
    w, h, rowdata = pattern_new_game(fields["CPARAMS"], fields["DESC"])
    assert (w, h) == (puzzle.width, puzzle.height)
    want = [[n for n, _ in clue] for clue in (*puzzle.cols, *puzzle.rows)]
    assert rowdata == want
    assert tatham.game_id(puzzle) == f"{fields['CPARAMS']}:{fields['DESC']}"


def test_pattern_sources_own_game_id():
    # pattern.c's comment gives this puzzle (Bella Image's): unique, but no
    # single row or column starts it
    from rofl.solver import solve
    from rofl.solver.search import solve_complete

    puzzle = tatham.parse_game_id("4x4:2/1/2/1/1.1/2/1/1")
    assert [[n for n, _ in c] for c in puzzle.cols] == [[2], [1], [2], [1]]
    assert [[n for n, _ in c] for c in puzzle.rows] == [[1, 1], [2], [1], [1]]
    assert solve(puzzle).status == "stalled"
    assert solve_complete(puzzle).status == "unique"
    # a lone W is a square; a lone 0 is an empty line, as in Pattern
    assert tatham.parse_game_id("2:0/2/1/1") == Puzzle.from_grid(np.array([[0, 1], [0, 1]], dtype=np.uint8), BW)
    with pytest.raises(FormatError, match="no ':' found"):
        tatham.parse_game_id("4x4")
    with pytest.raises(FormatError, match="black-and-white puzzles only"):
        tatham.game_id(Puzzle.from_grid(FLAG, FLAG_PALETTE))


def test_pattern_save_file_is_found_by_its_content(tmp_path):
    path = tmp_path / "puzzle.txt"
    path.write_bytes((DATA / "house.sav").read_bytes())
    assert read_puzzle(path)[0] == house_puzzle()


# ------------------------------------------------------- .gno: Gnonograms


def glib_unescape(text: str) -> str | None:
    """``g_uri_unescape_string(text, NULL)``: %XX sequences decoded as UTF-8
    bytes; None for a '%' not followed by two hex digits or an escaped NUL."""
    out = bytearray()
    at = 0
    raw = text.encode("utf-8")
    while at < len(raw):
        if raw[at : at + 1] == b"%":
            pair = raw[at + 1 : at + 3]
            if len(pair) < 2 or not all(chr(b) in "0123456789abcdefABCDEF" for b in pair) or pair == b"00":
                return None
            out.append(int(pair, 16))
            at += 3
        else:
            out.append(raw[at])
            at += 1
    return out.decode("utf-8", "replace")


def gnonograms_read(text: str) -> dict:
    """Gnonograms' own reading of a file, as ``Filereader.vala`` does it
    (``parse_gnonogram_game_file``: read up to '[', then heading up to ']'
    and body up to '[' in turn; headings matched by their first three
    letters; ``remove_blank_lines``; clue lines split at ',' and ' ' with
    the remaining space checked; cell states parsed and clamped) and
    ``Controller.load_common`` (its size limits, the solution preferred to
    the clues).  Raises AssertionError where Gnonograms reports an error."""
    at = text.index("[") + 1
    headings, bodies = [], []
    while True:
        end = text.find("]", at)
        headings.append(text[at:] if end < 0 else text[at:end])
        if end < 0:
            break
        at = end + 1
        end = text.find("[", at)
        bodies.append(text[at:] if end < 0 else text[at:end])
        if end < 0:
            break
        at = end + 1
        if headings[-1] == "" or bodies[-1] == "":
            break
    assert len(headings) >= 3 and len(headings) == len(bodies)

    def lines(body):
        return [s for s in body.split("\n") if s != ""]

    def numbers(line):
        return [int(t) for t in re.split("[, ]", line) if t != ""]

    def clue(line, maxblock):
        blocks, zero_count, remaining = [], 0, maxblock
        for b in numbers(line):
            if b == 0 and zero_count > 0:
                continue
            zero_count += 1
            assert 0 <= b <= remaining, "Invalid clue"
            blocks.append(b)
            if b > 0:
                remaining -= b + 1
        return blocks

    got: dict = {"name": "", "difficulty": 99}
    for heading, body in zip(headings, bodies, strict=True):
        key = heading[:3].upper()
        if key == "DIM":
            s = lines(body)
            assert len(s) == 2, "Wrong number of dimensions"
            got["rows"], got["cols"] = int(s[0]), int(s[1])
        elif key in ("ROW", "COL"):
            got[key] = [clue(line, got["cols"] if key == "ROW" else got["rows"]) for line in lines(body)]
        elif key == "SOL":
            grid = [[min(max(v, 0), 4) for v in numbers(line)] for line in lines(body)]
            assert len(grid) == got["rows"] and all(len(row) == got["cols"] for row in grid)
            assert all(v in (1, 2) for row in grid for v in row), "Invalid cell state"
            got["solution"] = grid
        elif key == "DES":
            s = lines(body)
            got["name"] = glib_unescape(s[0]) if s else ""
            grade = s[2].strip() if len(s) >= 3 else ""
            got["difficulty"] = int(grade) if len(grade) == 1 and grade.isdigit() else 99
        elif key == "LOC":
            got["locked"] = lines(body)[0].lower() == "true"
    assert len(got.get("ROW", [])) in (0, got["rows"]) and len(got.get("COL", [])) in (0, got["cols"])
    assert got.get("solution") or ("ROW" in got and "COL" in got), "Clues missing"
    return got


@settings(deadline=None, max_examples=200)
@given(grid=bw_grids(), title=st.text(max_size=12), author=st.text(max_size=6), licence=st.text(max_size=6))
@example(grid=np.zeros((1, 1), dtype=np.uint8), title=" ", author="0", licence="")  # a blank title
def test_gnonograms_reads_what_the_writer_writes(grid, title, author, licence):
    """Gnonograms' own parsing (transliterated) of the writer's file gives
    the picture, the clues and the title back; rofl reads its metadata back."""
    meta = {"title": title, "author": author, "licence": licence}
    puzzle = Puzzle.from_grid(grid, BW, meta=meta)
    data = gnonograms.write_bytes(puzzle, grid)
    got = gnonograms_read(data.decode("utf-8"))
    assert (got["rows"], got["cols"]) == grid.shape
    assert np.array_equal(np.array(got["solution"]) == 2, grid)
    assert got["ROW"] == [[n for n, _ in line] or [0] for line in puzzle.rows]
    assert got["COL"] == [[n for n, _ in line] or [0] for line in puzzle.cols]
    # the name is written on one line and unescaped back (line ends and
    # other control characters aside, which no name needs)
    stripped = title.strip()
    if stripped and all(ch.isprintable() for ch in stripped):
        assert got["name"] == stripped
    assert got["difficulty"] == 99 and got["locked"]  # not graded; Save asks for a new file
    back, solution = read(gnonograms, data)
    assert back == puzzle and np.array_equal(solution, grid)
    for key, value in meta.items():
        if value.strip() and all(ch.isprintable() for ch in value.strip()):
            assert back.meta[key] == value.strip(), key


def test_gnonograms_house_sample_metadata_and_progress():
    puzzle, grid = read_puzzle(DATA / "house.gno")
    # no author line (blank), so the date comes second; the game's progress is read past
    assert dict(puzzle.meta) == {"title": "House", "date": "2026-11-23T10:15:00+01", "licence": "CC0-1.0"}
    got = gnonograms_read((DATA / "house.gno").read_text())
    assert got["name"] == "House" and got["difficulty"] == 1 and not got["locked"]


def test_gnonograms_description_forms():
    clues = "[Dimensions]\n1\n1\n[Row clues]\n1\n[Column clues]\n1\n"
    four = read(gnonograms, "[Description]\nMeaning of life\nFido\n2010/06/27\n4\n" + clues)[0]
    assert dict(four.meta) == {"title": "Meaning of life", "author": "Fido", "date": "2010/06/27"}
    untitled = read(gnonograms, "[description]\nUntitled\n\n2026-01-01\n99\n" + clues)[0]
    assert dict(untitled.meta) == {"date": "2026-01-01"}
    escaped = read(gnonograms, "[Description]\n100%25 %5Bsure%5D\n" + clues)[0]
    assert escaped.meta["title"] == "100% [sure]"
    # no description at all; a repeated section: the last counts, as in Gnonograms
    repeated = "[Dimensions]\n1\n1\n[Row clues]\n0\n[Column clues]\n1\n[Row clues]\n1\n"
    assert read(gnonograms, repeated)[0] == Puzzle.from_grid(np.ones((1, 1), dtype=np.uint8), BW)


def test_gnonograms_solution_alone_gives_the_clues():
    puzzle, grid = read(gnonograms, "[Dimensions]\n8\n7\n[Solution]\n" + gnonograms_rows(HOUSE))
    assert puzzle == house_puzzle() and np.array_equal(grid, HOUSE)


def gnonograms_rows(grid) -> str:
    return "".join(" ".join("2" if v else "1" for v in row) + " \n" for row in grid)


def test_gnonograms_writer_form(monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")  # 2026-01-01
    text = gnonograms.write_bytes(house_puzzle()).decode()
    assert text.startswith("[Description]\nUntitled\n\n2026-01-01\n99\n[Dimensions]\n8\n7\n[Row clues]\n1\n3\n")
    assert "2, 2\n" in text and "\n0\n" in text and "[Solution grid]" not in text
    assert text.endswith("[Locked]\ntrue\n")
    assert gnonograms.write_bytes(house_puzzle()) == gnonograms.write_bytes(house_puzzle())
    blank = Puzzle.from_grid(HOUSE, BW, meta={"title": " \t", "date": " "})  # blanks would shift the lines
    assert gnonograms.write_bytes(blank).decode().startswith("[Description]\nUntitled\n\n2026-01-01\n99\n")


def test_gnonograms_file_is_found_by_its_content(tmp_path):
    path = tmp_path / "puzzle.txt"
    path.write_bytes(gnonograms.write_bytes(house_puzzle(), HOUSE))
    puzzle, grid = read_puzzle(path)
    assert puzzle == house_puzzle() and np.array_equal(grid, HOUSE)
