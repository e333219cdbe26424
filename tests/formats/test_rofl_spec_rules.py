"""spec/ROFL.md section 5 against the vectors and rofl's reader and writer.

The rules of section 5.3 (``R1`` ... ``Rn``) each name their vectors; this
file parses them out of the spec and checks that every named vector exists,
is listed in ``vectors.json`` on the side the rule says and behaves so, and
that no vector is left unnamed.  The rest pins down what the rules leave to
no one's judgement: the offsets of section 5.2 at every cut of a file, the
metadata key and value rules (RFC 3629 UTF-8, empty values, the BOM) in the
reader and the writer, and the "not decoded" results.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from PIL import Image

from rofl.decode import decode_bytes, solve_picture
from rofl.errors import (
    BudgetError,
    FormatError,
    LimitError,
    NotDecodedError,
    RoflError,
    UnsolvableError,
)
from rofl.formats import rofl as codec
from rofl.puzzle import Palette, Puzzle
from tests.places import REPO

SPEC_DIR = REPO / "spec"
VECTORS = SPEC_DIR / "vectors"
SPEC = (SPEC_DIR / "ROFL.md").read_text(encoding="utf-8")
MANIFEST = json.loads((VECTORS / "vectors.json").read_text(encoding="utf-8"))
VALID = {Path(v["file"]).stem: v for v in MANIFEST["valid"]}
INVALID = {Path(v["file"]).stem: v for v in MANIFEST["invalid"]}

HANDS_UP = np.array(
    [[1, 0, 1, 0, 1], [1, 1, 1, 1, 1], [0, 1, 1, 1, 0], [0, 1, 1, 1, 0], [0, 1, 0, 1, 0]], dtype=np.uint8
)


def section(title: str) -> str:
    """The text of the section whose heading starts with ``title``, up to the next heading of its level."""
    found = re.search(rf"^(#+) {re.escape(title)}.*?$", SPEC, re.M)
    assert found, title
    level = len(found[1])
    rest = SPEC[found.end() :]
    end = re.search(rf"^#{{1,{level}}} ", rest, re.M)
    return rest[: end.start()] if end else rest


def parse_rules() -> dict[int, dict]:
    """Rule number -> {"text": the rule on one line, "valid": [names], "invalid": [names]} from section 5.3."""
    rules: dict[int, dict] = {}
    for block in re.split(r"^- (?=\*\*R\d+ )", section("5.3 Rules"), flags=re.M)[1:]:
        block = re.split(r"\n\s*\n", block)[0]  # a rule ends at the first blank line
        number = int(re.match(r"\*\*R(\d+) ", block)[1])
        assert number not in rules, f"R{number} appears twice"
        entry = {"text": " ".join(block.split()), "valid": [], "invalid": []}
        for kind, names in re.findall(r"\*(Valid|Invalid):\*([^*]*)", block):
            entry[kind.lower()] += re.findall(r"`([a-z0-9-]+)`", names)
        rules[number] = entry
    return rules


RULES = parse_rules()
NAMED = {(name, kind) for rule in RULES.values() for kind in ("valid", "invalid") for name in rule[kind]}


def test_rules_are_numbered_in_order_and_every_reference_exists():
    assert sorted(RULES) == list(range(1, len(RULES) + 1)) and len(RULES) >= 25
    for match in re.finditer(r"\bR(\d+)\b", SPEC):
        assert 1 <= int(match[1]) <= len(RULES), match[0]


@pytest.mark.parametrize("number", sorted(RULES), ids=lambda n: f"R{n}")
def test_each_rule_names_vectors_that_exist_on_its_side(number):
    rule = RULES[number]
    assert rule["valid"] or rule["invalid"], f"R{number} names no vector"
    for name in rule["valid"]:
        assert name in VALID, f"R{number}: {name} is not a valid vector in vectors.json"
        solution = VALID[name].get("picture") or VALID[name]["cells"]  # a hexagon's is a .cells text
        assert (VECTORS / f"{name}.rofl").is_file() and (VECTORS / solution).is_file()
    for name in rule["invalid"]:
        assert name in INVALID, f"R{number}: {name} is not an invalid vector in vectors.json"
        assert (VECTORS / f"{name}.rofl").is_file()


def test_every_vector_is_named_by_a_rule():
    on_disk = {p.stem for p in VECTORS.glob("*.rofl")}
    assert on_disk == set(VALID) | set(INVALID)
    assert {(name, "valid") for name in VALID} | {(name, "invalid") for name in INVALID} == NAMED


def test_the_limit_vector_is_named_as_such():
    limited = {name for name, v in VALID.items() if "reader_limit" in v}
    assert limited == {"65-colours"}
    assert "65-colours" in RULES[29]["valid"] and "not decoded" in RULES[29]["text"]


@pytest.mark.parametrize("name", sorted(name for name, kind in NAMED if kind == "valid"))
def test_a_valid_vector_decodes_or_is_beyond_a_stated_limit(name):
    data = (VECTORS / f"{name}.rofl").read_bytes()
    entry = VALID[name]
    if "reader_limit" in entry:
        with pytest.raises(LimitError) as info:
            decode_bytes(data, where=f"{name}.rofl")
        assert isinstance(info.value, NotDecodedError)
        assert str(info.value) == f"{name}.rofl: {entry['beyond_limit']['message']}"
        return
    grid, _ = decode_bytes(data, where=f"{name}.rofl")
    if "cells" in entry:
        cells = (VECTORS / entry["cells"]).read_text(encoding="utf-8").split()
        assert np.array_equal(grid, np.array(cells, dtype=np.uint8))
        return
    with Image.open(VECTORS / entry["picture"]) as image:
        assert np.array_equal(grid, np.asarray(image))


@pytest.mark.parametrize("name", sorted(name for name, kind in NAMED if kind == "invalid"))
def test_an_invalid_vector_is_invalid_at_its_offset(name):
    entry = INVALID[name]
    with pytest.raises(RoflError) as info:
        decode_bytes((VECTORS / f"{name}.rofl").read_bytes(), where=f"{name}.rofl")
    assert not isinstance(info.value, NotDecodedError)
    message = str(info.value).removeprefix(f"{name}.rofl: ")
    named = re.match(r"byte (\d+): ", message)
    assert (int(named[1]) if named else None) == entry["offset"]


def test_the_rules_state_the_offsets_rofl_names():
    """Spot checks of section 5.2 in the rules' own words."""
    assert "Offset: 5." in RULES[3]["text"] and INVALID["version-0"]["offset"] == 5
    assert "(offset: its tag)" in RULES[23]["text"] and INVALID["meta-twice"]["offset"] == 55
    assert "first byte of the groups" in RULES[10]["text"] and INVALID["truncated-clues"]["offset"] == 35
    assert "the field the file ends in" in RULES[4]["text"] and INVALID["truncated-header"]["offset"] == 5


# ------------------------------------------------------------ offsets (5.2)


def offset_of(data: bytes) -> int | None:
    with pytest.raises(FormatError) as info:
        codec.parse(data, where="f")
    named = re.match(r"f: byte (\d+): ", str(info.value))
    return int(named[1]) if named else None


def first_cut_field(fields: list[tuple[int, int]], n: int) -> int:
    """Start of the first (start, size) field that a file of ``n`` bytes does not hold whole."""
    return next(start for start, size in fields if size and start + size > n)


def clue_fields(data: bytes, at: int, lines: int, group_size: int) -> tuple[list[tuple[int, int]], int]:
    """(count, groups) fields of ``lines`` one-byte-count lines from ``at``, and the end of the clue block."""
    fields = []
    for _ in range(lines):
        count = data[at]
        fields += [(at, 1), (at + 1, count * group_size)]
        at += 1 + count * group_size
    return fields, at


def test_every_cut_of_a_plain_file_names_the_field_the_file_ends_in():
    data = codec.dumps(Puzzle.from_grid(HANDS_UP))
    fields, end = clue_fields(data, 13, 10, 1)
    fields = [(0, 4), (4, 1), (5, 1), (6, 1), (7, 6), *fields]
    assert end == len(data)
    for n in range(len(data)):
        assert offset_of(data[:n]) == first_cut_field(fields, n), n


def test_every_cut_of_an_extended_file_names_the_field_the_file_ends_in():
    grid = np.array([[1, 2], [0, 1]], np.uint8)
    palette = Palette(["#ffffff", "#000000", "#d03030"])
    data = codec.dumps(Puzzle.from_grid(grid, palette, meta={"title": "t"}), grid)
    clues, at = clue_fields(data, 11 + 9, 4, 2)  # K = 3: length and colour
    fields = [(0, 4), (4, 1), (5, 1), (6, 2), (8, 2), (10, 1), (11, 9), *clues]
    while at < len(data):  # a payload cut names the length that promised it (R18)
        length = int.from_bytes(data[at + 4 : at + 8], "big")
        fields += [(at, 4), (at + 4, 4 + length)]
        at += 8 + length
    for n in range(len(data)):
        expected = 4 if n == 4 else first_cut_field(fields, n)  # 4 bytes: no marker yet, a plain width
        assert offset_of(data[:n]) == expected, n


def test_a_repeated_chunk_names_its_tag():
    base = codec.dumps(Puzzle.from_grid(HANDS_UP), extended=True)[:-8]
    first = b"meta\0\0\0\x07title\0a"
    second = b"meta\0\0\0\x08title\0bc"
    assert offset_of(base + first + second + b"IEND\0\0\0\0") == len(base) + len(first)


# ------------------------------------------------------------- metadata


def with_meta(payload: bytes) -> bytes:
    base = codec.dumps(Puzzle.from_grid(HANDS_UP), extended=True)
    return base[:-8] + b"meta" + len(payload).to_bytes(4, "big") + payload + base[-8:]


VALUE_AT = 40 + 8 + len(b"title\0")  # where the value of with_meta(b"title\0...") starts


@pytest.mark.parametrize(
    "value",
    [
        b"\xc0\x80",  # overlong U+0000
        b"\xc1\xbf",  # overlong U+007F
        b"\xe0\x80\xaf",  # overlong '/'
        b"\xf0\x80\x80\xaf",  # overlong '/', 4 bytes
        b"\xed\xa0\x80",  # U+D800, a lone high surrogate
        b"\xed\xbf\xbf",  # U+DFFF
        b"\xed\xa0\xbd\xed\xb8\x80",  # U+1F600 as CESU-8 (two surrogates)
        b"\xf4\x90\x80\x80",  # U+110000, beyond Unicode
        b"\xf5\x80\x80\x80",
        b"\xff",
        b"ok \xe2\x82",  # cut inside a sequence
        b"\x80",  # a lone continuation byte
    ],
)
def test_reader_rejects_ill_formed_utf8_at_the_value(value):
    data = with_meta(b"title\0" + value)
    assert offset_of(data) == VALUE_AT
    with pytest.raises(FormatError, match="not well-formed UTF-8"):
        codec.parse(data)


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (b"", ""),
        (b"\xef\xbb\xbfHands up", "\ufeffHands up"),  # a BOM at the start is kept
        (b"a\xef\xbb\xbfb", "a\ufeffb"),
        (b"\xef\xbf\xbe\xef\xb7\x90", "\ufffe\ufdd0"),  # noncharacters are ordinary
        (b"\xf4\x8f\xbf\xbf", "\U0010ffff"),
        (b"\xed\x9f\xbf\xee\x80\x80", "\ud7ff\ue000"),  # either side of the surrogates
        (b"\xf0\x9f\x98\x80", "\U0001f600"),
    ],
)
def test_reader_accepts_well_formed_values(value, text):
    assert dict(codec.parse(with_meta(b"title\0" + value)).puzzle.meta) == {"title": text}


@pytest.mark.parametrize("text", ["", "\ufeff", "\ufeffHands up", "a\ufeff", "\U0010ffff\ufffe"])
def test_writer_stores_the_value_as_it_is(text):
    data = codec.dumps(Puzzle.from_grid(HANDS_UP), meta={"title": text})
    assert b"meta" + (6 + len(text.encode())).to_bytes(4, "big") + b"title\0" + text.encode("utf-8") in data
    assert codec.parse(data).puzzle.meta["title"] == text


@pytest.mark.parametrize("text", ["\ud800", "x\udfff", "\ud83d\ude00"])  # the last: a pair left unjoined
def test_surrogates_become_replacement_characters_before_the_writer(text):
    # (issue 31) the Puzzle replaces them at the boundary, so no writer meets one
    puzzle = Puzzle.from_grid(HANDS_UP, meta={"title": text})
    assert "\ufffd" in puzzle.meta["title"]
    assert codec.parse(codec.dumps(puzzle)).puzzle.meta == puzzle.meta
    stored = codec.parse(codec.write_bytes(puzzle)).puzzle.meta["title"]
    assert "\ufffd" in stored and not re.search("[\ud800-\udfff]", stored)


@pytest.mark.parametrize(
    ("key", "ok"),
    [
        (b"title", True),
        (b"a", True),
        (b"k" + b"0123456789._-" * 4 + b"abcdefghijk", True),  # 64 bytes
        (b"x" * 65, False),
        (b"title\n", False),  # '$' would accept it
        (b"\ntitle", False),
        (b"Title", False),
        (b"1title", False),
        (b"_title", False),
        (b"", False),
        (b"t\xc3\xadtulo", False),
        (b"ti tle", False),
    ],
)
def test_the_whole_key_must_match_in_reader_and_writer(key, ok):
    data = with_meta(key + b"\0x")
    if ok:
        assert dict(codec.parse(data).puzzle.meta) == {key.decode(): "x"}
        codec.dumps(Puzzle.from_grid(HANDS_UP), meta={key.decode(): "x"})
        return
    assert offset_of(data) == 48
    with pytest.raises(FormatError, match="metadata key"):
        codec.dumps(Puzzle.from_grid(HANDS_UP), meta={key.decode("utf-8"): "x"})


def test_the_payload_splits_at_its_first_nul():
    assert offset_of(with_meta(b"title\0a\0")) == VALUE_AT  # a second 00 is in the value
    assert offset_of(with_meta(b"title")) == 48  # no 00: the key cannot be completed


def test_meta_and_pcrc_are_checked_even_unused():
    """R21: rofl's parse (which shows nothing and solves nothing) still checks both chunks."""
    for broken in (with_meta(b"title"), with_meta(b"title\0\xff")):
        with pytest.raises(FormatError):
            codec.parse(broken)
    base = codec.dumps(Puzzle.from_grid(HANDS_UP), extended=True)
    with pytest.raises(FormatError, match="must be 4"):
        codec.parse(base[:-8] + b"pcrc\0\0\0\x03abc" + base[-8:])


# ------------------------------------------------------------ not decoded


def test_limits_are_not_decoded_not_invalid():
    # a blank 2049 x 2049 picture: one colour, every count 0 (2 bytes each)
    too_many_cells = b"ROFL\x00\x01\x08\x01\x08\x01\x01" + bytes(3 + 2 * 4098) + b"IEND" + bytes(4)
    for data in (too_many_cells, (VECTORS / "65-colours.rofl").read_bytes()):
        with pytest.raises(LimitError) as info:
            codec.parse(data)
        assert isinstance(info.value, FormatError) and isinstance(info.value, NotDecodedError)
        assert "this reader" in str(info.value)


def test_an_exhausted_budget_is_not_decoded_not_invalid(monkeypatch):
    import rofl.solver.search

    def no_time(puzzle, **_):  # what a search that runs out of its budget returns
        return SimpleNamespace(
            status="budget",
            line_status="stalled",
            grid=None,
            solutions=[],
            puzzle=puzzle,
            undetermined=1,
            bad_line=None,
        )

    for name in ("contradiction", "ambiguous"):  # invalid, proved by the search
        with pytest.raises(UnsolvableError) as info:
            decode_bytes((VECTORS / f"{name}.rofl").read_bytes())
        assert not isinstance(info.value, NotDecodedError)
    puzzle = codec.parse((VECTORS / "needs-search.rofl").read_bytes()).puzzle
    monkeypatch.setattr(rofl.solver.search, "solve_complete", no_time)
    with pytest.raises(BudgetError) as info:
        solve_picture(puzzle, budget=0.5)
    assert isinstance(info.value, UnsolvableError) and isinstance(info.value, NotDecodedError)
    assert "not decoded within the 0.5 s search budget" in str(info.value)


# ------------------------------------------------ order of checks (5.2, R39)


def test_inside_a_chunk_its_length_comes_before_its_repetition():
    base = codec.dumps(Puzzle.from_grid(HANDS_UP), HANDS_UP)[:-8]  # ends with the right 'pcrc' chunk
    second = len(base)
    assert offset_of(base + b"pcrc\0\0\0\x05" + bytes(5) + b"IEND\0\0\0\0") == second + 4
    rect = (VECTORS / "rect-sets.rofl").read_bytes()
    at = rect.index(b"QSET")
    qset = rect[at:-8]
    short = qset[:7] + bytes([qset[7] - 1]) + qset[8:-1]  # one byte short
    assert offset_of(rect[:-8] + short + rect[-8:]) == len(rect) - 8 + 4


@pytest.mark.parametrize("name", sorted(VALID) + sorted(INVALID))
def test_batches_of_lines_do_not_change_a_result(monkeypatch, name):
    """The clue block is checked in batches of lines: with batches of 2
    groups every vector gives the same result as in one batch."""
    data = (VECTORS / f"{name}.rofl").read_bytes()

    def result():
        try:
            parsed = codec.parse(data, where="v")
        except FormatError as exc:
            return str(exc)
        return parsed.puzzle

    whole = result()
    monkeypatch.setattr(codec, "_BATCH_GROUPS", 2)
    assert result() == whole


def test_a_file_beyond_a_limit_that_breaks_a_rule_is_invalid():
    data = bytearray((VECTORS / "65-colours.rofl").read_bytes())
    clues = 7 + 3 * 65
    assert data[clues] == 8 and data[clues + 1] == 1  # row 1: 8 groups, the first of length 1
    for at, value, offset in [
        (clues + 1, 0, clues + 1),  # a length 0 (R13)
        (clues + 2, 65, clues + 2),  # colour 65 of 65 (R14)
        (clues + 1, 2, clues),  # row 1 (8 cells, full) needs 9 (R15)
        (len(data), 0, len(data)),  # a byte after the clue block (R17)
    ]:
        broken = bytes(data[:at]) + bytes([value]) + bytes(data[at + 1 :])
        with pytest.raises(FormatError) as info:
            codec.parse(broken, where="f")
        assert not isinstance(info.value, NotDecodedError), info.value
        assert offset_of(broken) == offset
    with pytest.raises(LimitError):
        codec.parse(bytes(data))


def test_a_hexagon_cut_short_builds_no_board(monkeypatch):
    """Lines' lengths come from the side alone (spec 13.2): a 16-byte file of a
    side-1024 hexagon is refused before any board of 3 million cells is made."""
    import rofl.hexagon

    def no_board(side):
        msg = f"a board of side {side} was built"
        raise AssertionError(msg)

    monkeypatch.setattr(rofl.hexagon, "_hexagon", no_board)
    data = b"ROFL\x00\x02\x01\x04\x00\x02\xff\xff\xff\x00\x00\x00"
    assert offset_of(data) == 16
    assert offset_of(data + b"\x00\x01") == 18  # row 1 (1024 cells) says 1 group; its groups are missing
