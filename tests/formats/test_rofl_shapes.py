"""ROFL version 2 (spec/ROFL.md section 13): hexagonal boards and colour-set groups.

Round trips in construct's style (parse(build(x)) == x, build(parse(b)) == b,
the size the spec gives, the construct reference schema), the promise that a
version-1 reader refuses every version-2 file at byte 5, and hostile bytes.
"""

from __future__ import annotations

import json
import zlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rofl.errors import FormatError, PuzzleError
from rofl.formats import read_puzzle, write_puzzle
from rofl.formats import rofl as codec
from rofl.hexagon import Hexagon, HexPuzzle
from rofl.puzzle import Palette, Puzzle
from tests.places import REPO

VECTORS = REPO / "spec" / "vectors"
MANIFEST = json.loads((VECTORS / "vectors.json").read_text(encoding="utf-8"))
ALL_VECTORS = [v["file"] for v in MANIFEST["valid"] + MANIFEST["invalid"]]
VERSION_2 = [name for name in ALL_VECTORS if (VECTORS / name).read_bytes()[4:6] == b"\x00\x02"]
VALID_2 = [v["file"] for v in MANIFEST["valid"] if v.get("version") == 2]


def palette_of(k: int) -> Palette:
    return Palette([(255, 255, 255)] + [((i * 67) % 256, (i * 29) % 256, (i * 113) % 256) for i in range(1, k)])


def version_1_reader(data: bytes) -> str | None:
    """The version check of rofl's reader before version 2 existed (rofl.formats.rofl.parse_header
    at commit c25f645), kept verbatim in effect: its message for a file it refuses there, else None.

    Run on the version-2 vectors, that reader said ``byte 5: ROFL version 2 is
    not supported (this reader knows version 1)`` for each, before reading
    any other byte; this copy keeps the property testable after the change.
    """
    if data[:4] != b"ROFL" or len(data) < 6 or data[4] != 0:
        return None
    version = data[5]
    if version != 1:
        return f"byte 5: ROFL version {version} is not supported (this reader knows version 1)"
    return None


@st.composite
def hex_puzzles(draw, max_side=6, max_colors=5, sets=True):
    side = draw(st.integers(1, max_side))
    k = draw(st.integers(1, max_colors))
    board = Hexagon.of(side)
    cells = np.array(draw(st.lists(st.integers(0, k - 1), min_size=board.n_cells, max_size=board.n_cells)), np.uint8)
    puzzle = HexPuzzle.from_cells(side, cells, palette_of(k))
    if sets and k >= 3 and puzzle.n_groups:
        which = draw(st.lists(st.booleans(), min_size=puzzle.n_groups, max_size=puzzle.n_groups))
        puzzle = puzzle.with_unknown_colors(which)
    return puzzle, cells


@st.composite
def set_rectangles(draw, max_side=10, max_colors=6):
    k = draw(st.integers(3, max_colors))
    h, w = draw(st.integers(1, max_side)), draw(st.integers(1, max_side))
    grid = np.array(draw(st.lists(st.integers(0, k - 1), min_size=w * h, max_size=w * h)), np.uint8).reshape(h, w)
    puzzle = Puzzle.from_grid(grid, palette_of(k))
    which = draw(st.lists(st.booleans(), min_size=puzzle.n_groups, max_size=puzzle.n_groups))
    return puzzle.with_unknown_colors(which), grid


def expected_size(puzzle, meta_bytes: int, with_crc: bool) -> int:
    """Section 13.1: header, palette, counts, groups, chunks ('QSET', 'meta', 'pcrc', 'IEND')."""
    k = puzzle.n_colors
    hexagonal = isinstance(puzzle, HexPuzzle)
    longest = 2 * puzzle.side - 1 if hexagonal else max(puzzle.width, puzzle.height)
    nb = 2 if longest > 255 else 1
    header = 10 if hexagonal else 12
    sets = 0 if puzzle.color_sets is None else int(np.count_nonzero(puzzle.color_sets))
    qset = 8 + sets * ((k + 7) // 8) if sets else 0
    groups = puzzle.n_groups * (nb + (k >= 3))
    return header + 3 * k + nb * puzzle.n_lines + groups + qset + meta_bytes + 12 * with_crc + 8


def check_round_trip(puzzle, cells, meta: dict[str, str], with_crc: bool) -> bytes:
    puzzle = type(puzzle).from_arrays(
        *puzzle._shape_args(),
        puzzle.palette,
        puzzle.lengths,
        puzzle.colors,
        puzzle.offsets,
        color_sets=puzzle.color_sets,
        meta=meta,
    )
    data = codec.dumps(puzzle, cells if with_crc else None)
    parsed = codec.parse(data)
    assert parsed.puzzle == puzzle and type(parsed.puzzle) is type(puzzle)  # parse(build(x)) == x
    assert dict(parsed.puzzle.meta) == meta
    assert codec.dumps(parsed.puzzle, cells if with_crc else None) == data  # build(parse(b)) == b
    assert codec.dumps(parsed.puzzle, crc32=parsed.crc32) == data
    assert parsed.crc32 == (zlib.crc32(cells.tobytes()) if with_crc else None)
    hexagonal = isinstance(puzzle, HexPuzzle)
    flags = (1 if hexagonal else 0) | (2 if puzzle.color_sets is not None else 0)
    if flags:
        assert data[4:7] == bytes([0, 2, flags]) and parsed.version == 2
        assert version_1_reader(data) is not None
    else:  # a rectangle without sets is version 1 (or plain), as before
        assert data[4] != 0 or data[5] == 1
    meta_bytes = sum(8 + len(k) + 1 + len(v.encode()) for k, v in meta.items())
    if flags:
        assert len(data) == expected_size(puzzle, meta_bytes, with_crc)
    # the construct reference reads the same lines and rebuilds the same bytes
    schema = codec.SCHEMA.parse(data)
    assert len(schema.lines) == puzzle.n_lines and codec.SCHEMA.build(schema) == data
    assert schema.head.get("side") == (puzzle.side if hexagonal else None)
    return data


meta_values = st.text(st.characters(blacklist_characters="\x00", blacklist_categories=("Cs",)), max_size=8)


@settings(deadline=None, max_examples=120)
@given(hex_puzzles(), st.dictionaries(st.sampled_from(["title", "author", "id"]), meta_values), st.booleans())
def test_hexagon_round_trip(case, meta, with_crc):
    puzzle, cells = case
    check_round_trip(puzzle, cells, meta, with_crc)


@settings(deadline=None, max_examples=120)
@given(set_rectangles(), st.dictionaries(st.sampled_from(["title", "source"]), meta_values), st.booleans())
def test_colour_set_rectangle_round_trip(case, meta, with_crc):
    puzzle, grid = case
    check_round_trip(puzzle, grid, meta, with_crc)


def test_large_hexagon_uses_two_byte_counts():
    side = 129  # lines of up to 257 cells: N = 2
    board = Hexagon.of(side)
    cells = (np.arange(board.n_cells) % 3 == 0).astype(np.uint8)
    puzzle = HexPuzzle.from_cells(side, cells, Palette.black_white())
    data = check_round_trip(puzzle, cells, {}, True)
    assert data[7:9] == b"\x00\x81" and data[16:18] == (len(puzzle.clue(0))).to_bytes(2, "big")


def test_masks_of_many_colours_take_several_bytes():
    k = 12  # M = 2
    grid = np.arange(1, 12, dtype=np.uint8).reshape(1, 11)
    puzzle = Puzzle.from_grid(grid, palette_of(k))
    which = np.zeros(puzzle.n_groups, bool)
    which[0] = True
    data = check_round_trip(puzzle.with_unknown_colors(which), grid, {}, False)
    at = data.index(b"QSET")
    assert data[at + 4 : at + 8] == b"\x00\x00\x00\x02" and data[at + 8 : at + 10] == b"\x0f\xfe"  # colours 1-11


@pytest.mark.parametrize("name", VERSION_2)
def test_a_version_1_reader_refuses_every_version_2_vector_at_byte_5(name):
    data = (VECTORS / name).read_bytes()
    assert version_1_reader(data) == "byte 5: ROFL version 2 is not supported (this reader knows version 1)"


def test_the_version_2_vectors_are_there():
    revision_3 = {"hex-small.rofl", "hex-sets.rofl", "rect-sets.rofl"}
    revision_4 = {
        "hex-two-byte-counts.rofl",
        "rect-sets-two-byte-counts.rofl",
        "sets-ten-colours.rofl",
        "64-colours-sets.rofl",
    }
    assert set(VALID_2) == revision_3 | revision_4
    assert len(VERSION_2) >= 18


@pytest.mark.parametrize("name", VALID_2)
def test_every_cut_of_a_version_2_vector_is_one_format_error(name):
    data = (VECTORS / name).read_bytes()
    cuts = range(len(data))
    if len(data) > 2000:  # the header, the end and 200 cuts between
        cuts = sorted({*range(300), *range(len(data) - 300, len(data)), *range(0, len(data), len(data) // 200)})
    for n in cuts:
        with pytest.raises(FormatError) as info:
            codec.parse(data[:n], where="cut")
        message = str(info.value)
        assert message.startswith("cut: byte ") and "\n" not in message
        assert int(message.split()[2].rstrip(":")) <= n


@settings(deadline=None, max_examples=300)
@given(st.sampled_from(VALID_2), st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)), max_size=3))
def test_mutated_version_2_vectors_give_one_format_error_or_a_valid_puzzle(name, changes):
    data = bytearray((VECTORS / name).read_bytes())
    for at, value in changes:
        data[at % len(data)] = value
    try:
        parsed = codec.parse(bytes(data), where="m")
    except FormatError as exc:
        assert "\n" not in str(exc) and str(exc).startswith("m: ")
        return
    puzzle = parsed.puzzle
    again = codec.dumps(puzzle, crc32=parsed.crc32)
    assert codec.loads(again) == puzzle


def test_the_writer_refuses_the_plain_form_for_version_2():
    puzzle = HexPuzzle.from_cells(2, np.array([1, 0, 0, 1, 0, 0, 1], np.uint8), Palette.black_white())
    with pytest.raises(FormatError, match="a hexagon, colour sets"):
        codec.dumps(puzzle, extended=False)


def test_format_table_writes_and_reads_hexagons(tmp_path):
    data = (VECTORS / "hex-sets.rofl").read_bytes()
    opened = codec.parse(data)
    target = tmp_path / "copy.rofl"
    write_puzzle(target, opened.puzzle, crc32=opened.crc32)
    assert target.read_bytes() == data
    puzzle, solution = read_puzzle(target)
    assert puzzle == opened.puzzle and solution is None


def test_one_colour_sets_are_refused_by_the_model_not_stored():
    """A set of one colour is that colour (the model folds it), so no file holds a one-colour mask."""
    puzzle = Puzzle(2, 1, palette_of(4), [[(1, [2])]], [[(1, 2)], []])
    assert puzzle.color_sets is None and codec.dumps(puzzle)[4] != 0
    with pytest.raises(PuzzleError):
        Puzzle(2, 1, palette_of(4), [[(1, [0, 2])]], [[(1, 2)], []])
