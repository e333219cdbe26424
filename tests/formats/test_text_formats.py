"""Other tools' puzzle formats together: webpbn XML, Simpson's .non, Wilk's .nin, Olšák's .g and .mk, .cwd,
saved games of Tatham's Pattern (.sav) and Gnonograms' puzzle files (.gno).

Round trips (hypothesis), hand-written samples in ``tests/data/formats/``
with the quirks real files have, every corpus puzzle through every format
that can hold it, and hostile input that must end in one FormatError.  What
one format alone does is tested in its own file (``test_webpbn.py``,
``test_olsak.py``, ``test_non.py``, ``test_tatham.py``, ``test_gnonograms.py``).
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rofl.errors import FormatError
from rofl.formats import corpus as corpus_json
from rofl.formats import cwd, gnonograms, mk, nin, non, olsak, read_puzzle, tatham, webpbn, write_puzzle
from rofl.puzzle import Palette, Puzzle
from tests.formats.textcases import (
    BW,
    DATA,
    FLAG,
    FLAG_PALETTE,
    HOUSE,
    bw_grids,
    colour_puzzles,
    corpus_files,
    house_puzzle,
    meta_text,
    read,
)
from tests.mangle import edits, mangle
from tests.places import needs_corpus

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


# ------------------------------------------------------------------ round trips


@pytest.mark.parametrize(("module", "suffix", "colour", "keeps"), FORMATS)
@settings(deadline=None, max_examples=150)
@given(grid=bw_grids())
def test_black_and_white_round_trip(module, suffix, colour, keeps, grid):
    puzzle = Puzzle.from_grid(grid, BW)
    back, solution = read(module, module.FORMAT.write(puzzle, grid))
    assert back == puzzle
    if keeps:
        assert np.array_equal(solution, grid)
    else:
        assert solution is None
    # without a solution nothing is invented
    assert read(module, module.FORMAT.write(puzzle))[0] == puzzle


@pytest.mark.parametrize("module", [webpbn, olsak], ids=["webpbn", "olsak"])
@settings(deadline=None, max_examples=150)
@given(case=colour_puzzles())
def test_colour_round_trip(module, case):
    grid, palette = case
    puzzle = Puzzle.from_grid(grid, palette)
    back, solution = read(module, module.FORMAT.write(puzzle, grid))
    assert back == puzzle and back.palette == palette
    if module is webpbn:
        assert np.array_equal(solution, grid)


def test_the_largest_palette_round_trips():
    palette = Palette([(i, 255 - i, (7 * i) % 256) for i in range(64)])
    grid = np.arange(63, dtype=np.uint8).reshape(7, 9) + 1
    puzzle = Puzzle.from_grid(grid, palette)
    for module in (webpbn, olsak):
        back, solution = read(module, module.FORMAT.write(puzzle, grid))
        assert back == puzzle
    assert np.array_equal(read(webpbn, webpbn.FORMAT.write(puzzle, grid))[1], grid)


@pytest.mark.parametrize("module", [webpbn, non], ids=["webpbn", "non"])
@settings(deadline=None, max_examples=100)
@given(title=meta_text, author=meta_text, licence=meta_text)
def test_title_author_copyright_round_trip(module, title, author, licence):
    puzzle = Puzzle.from_grid(HOUSE, BW, meta={"title": title, "author": author, "licence": licence})
    back, _ = read(module, module.FORMAT.write(puzzle))
    assert {k: back.meta.get(k) for k in ("title", "author", "licence")} == {
        "title": title,
        "author": author,
        "licence": licence,
    }


def test_write_puzzle_and_read_puzzle_use_the_extensions(tmp_path):
    puzzle = Puzzle.from_grid(HOUSE, BW)
    for suffix in BY_SUFFIX:
        path = tmp_path / f"house{suffix.upper()}"  # extensions are case-insensitive
        write_puzzle(path, puzzle, HOUSE)
        assert read_puzzle(path)[0] == puzzle


# ---------------------------------------------------------------- the samples


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


@needs_corpus
def test_the_corpus_is_there():
    assert len(corpus_files()) > 400


@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_corpus_puzzle_through_every_format(path):
    puzzle, solution = corpus_json.load(path)
    for name, module in MODULES.items():
        if module in BLACK_WHITE_ONLY and puzzle.n_colors > 2:
            with pytest.raises(FormatError, match="black-and-white"):
                module.FORMAT.write(puzzle, solution)
            continue
        back, grid = read(module, module.FORMAT.write(puzzle, solution), where=str(path))
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
        b"width 1\nheight 1\n" + b"".join(b"color c%d %06x\n" % (i, i) for i in range(63)) + b"rows\n1\ncolumns\n1\n",
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
    ("olsak", b": rows\n" + b"\n" * 1_000_000 + b": columns\n1\n:\n", r"1000004 lines: more than rofl reads in one"),
    ("non", b"width 1\nheight 1\n" + b"\n" * 300_000, r"lines: more than rofl reads in one text file, 262144 \(four"),
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
            module.FORMAT.write(colour)
    wrong = HOUSE.copy()
    wrong[0, 0] = 1
    for module in MODULES.values():
        with pytest.raises(FormatError, match="does not match the clues"):
            module.FORMAT.write(house_puzzle(), wrong)


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
