"""The ROFL codec: round trips, sizes, the construct reference schema, every error path."""

from __future__ import annotations

import io
import zlib

import numpy as np
import pytest
from construct import ConstructError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rofl.decode import decode_bytes, solve_picture
from rofl.errors import AmbiguousError, FormatError, UnsolvableError
from rofl.formats import read_puzzle, write_puzzle
from rofl.formats import rofl as codec
from rofl.puzzle import Palette, Puzzle

HANDS_UP = np.array([[1, 0, 1, 0, 1], [1, 1, 1, 1, 1], [0, 1, 1, 1, 0], [0, 1, 1, 1, 0], [0, 1, 0, 1, 0]])
HANDS_UP_BYTES = bytes.fromhex(
    "52 4f 46 4c 05 05 02 ff ff ff 00 00 00 03 01 01 01 01 05 01 03 01 03 02 01 01 01 02 01 04 01 04 01 04 01 02"
)


def palette_of(k: int) -> Palette:
    return Palette([(255, 255, 255)] + [((i * 67) % 256, (i * 29) % 256, (i * 113) % 256) for i in range(1, k)])


@st.composite
def grids(draw, max_side=12, max_colors=5):
    k = draw(st.integers(1, max_colors))
    h = draw(st.integers(1, max_side))
    w = draw(st.integers(1, max_side))
    cells = draw(st.lists(st.integers(0, k - 1), min_size=w * h, max_size=w * h))
    return np.array(cells, dtype=np.uint8).reshape(h, w), palette_of(k)


meta_keys = st.from_regex(r"[a-z][a-z0-9_.-]{0,10}", fullmatch=True)
meta_values = st.text(st.characters(blacklist_characters="\x00", blacklist_categories=("Cs",)), max_size=20)


def expected_size(puzzle: Puzzle, chunk_bytes: int, extended: bool) -> int:
    """Size the spec gives: header + palette + counts + groups (+ chunks and the 8-byte 'IEND')."""
    nb = 2 if max(puzzle.width, puzzle.height) > 255 else 1
    gsize = nb + (1 if puzzle.n_colors >= 3 else 0)
    header = 11 + 8 if extended else 7
    return header + 3 * puzzle.n_colors + puzzle.n_lines * nb + puzzle.n_groups * gsize + chunk_bytes


def reference(data: bytes):
    """The construct schema's view: (width, height, palette bytes, per-line group bytes, chunks)."""
    c = codec.SCHEMA.parse(data)
    return c.head.width, c.head.height, b"".join(c.palette), [line.groups for line in c.lines], c.chunks


# ------------------------------------------------------------------ round trips


def test_hands_up_bytes_match_the_spec():
    puzzle = Puzzle.from_grid(HANDS_UP)
    assert codec.dumps(puzzle) == HANDS_UP_BYTES
    assert codec.loads(HANDS_UP_BYTES) == puzzle


@settings(deadline=None, max_examples=150)
@given(grids(), st.dictionaries(meta_keys, meta_values, max_size=3), st.booleans(), st.booleans())
def test_round_trip(case, meta, with_crc, force_extended):
    grid, palette = case
    puzzle = Puzzle.from_grid(grid, palette, meta=meta)
    data = codec.dumps(puzzle, grid if with_crc else None, extended=force_extended or None)
    parsed = codec.parse(data)
    assert parsed.puzzle == puzzle  # parse(build(x)) == x
    assert dict(parsed.puzzle.meta) == meta
    assert parsed.crc32 == (zlib.crc32(grid.tobytes()) if with_crc else None)
    again = codec.dumps(parsed.puzzle, grid if with_crc else None, extended=force_extended or None)
    assert again == data  # build(parse(b)) == b
    extended = bool(meta) or with_crc or force_extended
    assert parsed.extended == extended
    chunk_bytes = sum(8 + len(k.encode()) + 1 + len(v.encode()) for k, v in meta.items()) + (12 if with_crc else 0)
    assert len(data) == expected_size(puzzle, chunk_bytes, extended)
    # the construct reference schema agrees on every field, and rebuilds the same bytes
    w, h, pal, lines, chunks = reference(data)
    assert (w, h, pal) == (puzzle.width, puzzle.height, palette.to_array().tobytes())
    assert [len(g) for g in lines] == [
        len(c) * (1 if palette_len_le2(palette) else 2) for c in puzzle.rows + puzzle.cols
    ]
    assert codec.SCHEMA.build(codec.SCHEMA.parse(data)) == data
    if extended:
        assert len(chunks) == len(meta) + with_crc + 1 and chunks[-1].tag == b"IEND"


def palette_len_le2(palette: Palette) -> bool:
    return len(palette) <= 2


@settings(deadline=None, max_examples=120, suppress_health_check=[HealthCheck.too_slow])
@given(grids(max_side=10, max_colors=4), st.booleans())
def test_decoding_never_gives_a_wrong_picture(case, with_crc):
    """Bytes -> the identical grid whenever the clues have one solution; otherwise an error, never another picture."""
    grid, palette = case
    puzzle = Puzzle.from_grid(grid, palette)
    data = codec.dumps(puzzle, grid if with_crc else None)
    try:
        decoded, _ = decode_bytes(data)
    except AmbiguousError as exc:
        first, second = exc.solutions
        assert not np.array_equal(first, second)
        assert puzzle.is_solution(first) and puzzle.is_solution(second)
    else:
        assert np.array_equal(decoded, grid)


def test_random_solvable_grids_decode_identically():
    rng = np.random.default_rng(7)
    solved = 0
    for _ in range(300):
        k = int(rng.integers(2, 6))
        h, w = (int(v) for v in rng.integers(1, 15, size=2))
        grid = rng.integers(0, k, size=(h, w)).astype(np.uint8)
        grid[rng.random((h, w)) < 0.5] = 0
        data = codec.dumps(Puzzle.from_grid(grid, palette_of(k)), grid)
        try:
            decoded, info = decode_bytes(data)
        except UnsolvableError:
            continue
        solved += 1
        assert np.array_equal(decoded, grid) and info.crc32 == zlib.crc32(grid.tobytes())
    assert solved > 100


def test_two_byte_fields_above_255():
    rng = np.random.default_rng(1)
    grid = (rng.random((3, 300)) < 0.5).astype(np.uint8)
    grid[1] = 1  # a 300-cell group: needs a 2-byte length
    puzzle = Puzzle.from_grid(grid)
    data = codec.dumps(puzzle)
    assert data[4] == 0 and data[6:10] == bytes([1, 44, 0, 3])
    assert codec.loads(data) == puzzle
    assert len(data) == expected_size(puzzle, 0, True)
    assert reference(data)[0] == 300
    with pytest.raises(FormatError, match="needs the extended form"):
        codec.dumps(puzzle, extended=False)


def test_worst_case_255_parses():
    """255x255, every line 255 touching groups: the densest plain file (timed in benchmarks/)."""
    grid = (np.indices((255, 255)).sum(0) % 2 + 1).astype(np.uint8)
    puzzle = Puzzle.from_grid(grid, palette_of(3))
    data = codec.dumps(puzzle)
    assert len(data) == 7 + 9 + 510 * (1 + 255 * 2)
    assert codec.loads(data) == puzzle


# ------------------------------------------------------------------ file API


def test_load_dump_paths_and_file_objects(tmp_path):
    puzzle = Puzzle.from_grid(HANDS_UP, meta={"title": "Hands up"})
    path = tmp_path / "h.rofl"
    codec.dump(puzzle, path, HANDS_UP)
    assert codec.load(path) == puzzle and codec.load(str(path)).meta["title"] == "Hands up"
    assert codec.read(path).crc32 == zlib.crc32(HANDS_UP.astype(np.uint8).tobytes())
    buf = io.BytesIO()
    codec.dump(puzzle, buf)
    buf.seek(0)
    assert codec.load(buf) == puzzle
    with open(path, "rb") as f:
        assert codec.load(f) == puzzle
    assert list(tmp_path.iterdir()) == [path]  # atomic write left no temporary file


def test_registries(tmp_path):
    puzzle = Puzzle.from_grid(HANDS_UP, meta={"author": "me"})
    path = tmp_path / "x.rofl"
    write_puzzle(path, puzzle, HANDS_UP)
    read, solution = read_puzzle(path)
    assert read == puzzle and solution is None and read.meta["author"] == "me"
    other = tmp_path / "no-extension"
    other.write_bytes(path.read_bytes())
    assert read_puzzle(other)[0] == puzzle  # found by its magic


def test_registry_writer_makes_metadata_storable(tmp_path):
    puzzle = Puzzle.from_grid(HANDS_UP, meta={"Title": "a\x00b", "2nd key": "x", "": "dropped", "notes": "\ud800!"})
    write_puzzle(tmp_path / "m.rofl", puzzle)
    assert dict(read_puzzle(tmp_path / "m.rofl")[0].meta) == {"title": "a b", "m2nd_key": "x", "notes": "\ufffd!"}


def test_write_rejects_bad_solution_and_metadata():
    puzzle = Puzzle.from_grid(HANDS_UP)
    with pytest.raises(FormatError, match="does not satisfy"):
        codec.dumps(puzzle, 1 - HANDS_UP)
    with pytest.raises(FormatError, match="metadata key 'Title'"):
        codec.dumps(puzzle, meta={"Title": "x"})
    with pytest.raises(FormatError, match="NUL"):
        codec.dumps(puzzle, meta={"title": "a\x00b"})
    with pytest.raises(FormatError, match="lone surrogate"):
        codec.dumps(puzzle, meta={"title": "a\udfffb"})  # e.g. from a JSON "\udfff" escape


def test_solve_picture_checks_the_crc():
    puzzle = Puzzle.from_grid(HANDS_UP)
    grid = solve_picture(puzzle, crc32=zlib.crc32(HANDS_UP.astype(np.uint8).tobytes()))
    assert np.array_equal(grid, HANDS_UP)
    with pytest.raises(FormatError, match="CRC-32"):
        solve_picture(puzzle, crc32=0)


# ------------------------------------------------------------------ errors


def test_every_truncation_is_a_format_error():
    cross = np.zeros((8, 8), np.uint8)
    cross[1:7, 2] = 1
    cross[2, 1:7] = 2
    for data in (
        HANDS_UP_BYTES,
        codec.dumps(Puzzle.from_grid(cross, palette_of(3), meta={"title": "t"}), cross),
        codec.dumps(Puzzle.from_grid(np.ones((2, 260), np.uint8))),
    ):
        for cut in range(len(data)):
            with pytest.raises(FormatError):
                codec.parse(data[:cut])


@pytest.mark.parametrize(
    ("data", "message"),
    [
        # a blank 65535 x 65535 picture (K = 1, every count 0): valid, beyond this reader
        (b"ROFL\x00\x01\xff\xff\xff\xff\x01" + bytes(3 + 4 * 65535) + b"IEND" + bytes(4), "decodes at most"),
        # the same header cut after the palette: invalid, not "beyond this reader" (spec 5.1)
        (b"ROFL\x00\x01\xff\xff\xff\xff\x02" + bytes(6), "byte 17: row 1: the file ends before its group count"),
        (b"ROFL\x00\x01\x00\x00\x00\x05\x02", "byte 6: width 0"),
        (b"ROFL\x00\x01\x01\x2c\x00\x01\x02" + bytes(6) + b"\xff\xff", "65535 groups cannot fit in 300 cells"),
        (b"ROFL\x01\x01\x01\x00\x00\x00\x01", "1 group but the palette holds only the background"),
        (HANDS_UP_BYTES[:4] + b"\x00\x01" + b"\x00\x05\x00\x05" + HANDS_UP_BYTES[6:] + b"mex", "too few for a chunk"),
        (
            HANDS_UP_BYTES[:4] + b"\x00\x01" + b"\x00\x05\x00\x05" + HANDS_UP_BYTES[6:] + b"pcrc\0\0\0\x05" + bytes(5),
            "must be 4",
        ),
        (
            HANDS_UP_BYTES[:4] + b"\x00\x01" + b"\x00\x05\x00\x05" + HANDS_UP_BYTES[6:] + b"meta\0\0\0\x02ab",
            "without the NUL",
        ),
    ],
)
def test_errors_name_the_problem(data, message):
    with pytest.raises(FormatError, match=message):
        codec.parse(data, where="f.rofl")


def test_unknown_ancillary_chunks_are_skipped():
    data = codec.dumps(Puzzle.from_grid(HANDS_UP), extended=True)
    data = data[:-8] + b"zzzz\0\0\0\x03abc" + data[-8:]
    parsed = codec.parse(data)
    assert parsed.skipped == ("zzzz",) and parsed.puzzle == Puzzle.from_grid(HANDS_UP)


@settings(deadline=None, max_examples=300)
@given(
    st.binary(max_size=80),
    st.integers(0, 200),
    st.sampled_from(
        [
            HANDS_UP_BYTES,
            bytes.fromhex(
                "52 4f 46 4c 04 03 04 ff ff ff 00 00 00 d0 30 30 30 50 d0 03 01 01 01 02 01 03 03 01 01 01 02"
                " 02 03 02 02 02 01 01 01 02 01 01 03 02 02 02 03 01 02 02 01 03 01 01"
            ),
        ]
    ),
)
def test_fast_parser_agrees_with_the_construct_schema(patch, at, base):
    """Mutated files: whenever the fast parser accepts, the reference schema reads the same clues."""
    at = min(at, len(base))
    data = base[:at] + patch + base[at + len(patch) // 2 :]
    try:
        parsed = codec.parse(data)
    except FormatError:
        return
    w, h, pal, lines, _ = reference(data)
    puzzle = parsed.puzzle
    assert (w, h, pal) == (puzzle.width, puzzle.height, puzzle.palette.to_array().tobytes())
    colour = puzzle.n_colors >= 3
    for groups, clue in zip(lines, puzzle.rows + puzzle.cols, strict=True):
        step = 2 if colour else 1
        assert list(groups[::step]) == [g[0] for g in clue]
        if colour:
            assert list(groups[1::2]) == [g[1] for g in clue]


def test_schema_rejects_what_the_fast_parser_rejects_structurally():
    for data in (HANDS_UP_BYTES[:-1], HANDS_UP_BYTES + b"\0", b"ROFX" + HANDS_UP_BYTES[4:]):
        with pytest.raises(ConstructError):
            codec.SCHEMA.parse(data)
        with pytest.raises(FormatError):
            codec.parse(data)
