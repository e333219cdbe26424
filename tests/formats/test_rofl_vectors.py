"""The golden files in spec/vectors: every valid one decodes to its PNG, every invalid one fails as listed.

A valid file beyond this reader's limits (``reader_limit`` in ``vectors.json``)
is refused with the "not decoded" error listed there, and its PNG is checked
against its clues without rofl's limit.
"""

from __future__ import annotations

import importlib.util
import json

import numpy as np
import pytest
from PIL import Image

import rofl  # registers the Pillow plugin
import rofl.formats.rofl
from rofl.decode import decode_bytes
from rofl.errors import (
    AmbiguousError,
    FormatError,
    LimitError,
    NotDecodedError,
    RoflError,
    RoflImageError,
    UnsolvableError,
)
from rofl.formats.rofl import SCHEMA
from rofl.hexagon import HexPuzzle
from tests.places import REPO

VECTORS = REPO / "spec" / "vectors"
MANIFEST = json.loads((VECTORS / "vectors.json").read_text(encoding="utf-8"))
VALID = [v["file"] for v in MANIFEST["valid"]]
INVALID = {v["file"]: v for v in MANIFEST["invalid"]}
DECODED = [v for v in MANIFEST["valid"] if "reader_limit" not in v and "picture" in v]
#: version-2 hexagons: their solution is a ``.cells`` text (a hexagon is no PNG)
HEXAGONS = [v for v in MANIFEST["valid"] if "cells" in v]
LIMITED = [v for v in MANIFEST["valid"] if "reader_limit" in v]
ERRORS = {
    "FormatError": FormatError,
    "UnsolvableError": UnsolvableError,
    "AmbiguousError": AmbiguousError,
    "LimitError": LimitError,
}


def png_grid(name: str):
    """(indices, RGB palette array) of a vector's PNG."""
    with Image.open(VECTORS / name) as image:
        assert image.mode == "P"
        indices = np.asarray(image)
        palette = np.array(image.getpalette()[: 3 * (int(indices.max()) + 1)], dtype=np.uint8).reshape(-1, 3)
    return indices, palette


def test_counts():
    assert len(VALID) >= 10 and len(INVALID) >= 10
    assert sorted(p.name for p in VECTORS.glob("*.rofl")) == sorted([*VALID, *INVALID])


@pytest.mark.parametrize("entry", DECODED, ids=lambda e: e["file"])
def test_valid_vector_decodes_to_its_png(entry):
    data = (VECTORS / entry["file"]).read_bytes()
    grid, info = decode_bytes(data, where=entry["file"])
    assert info.rofl.form == entry["form"] and len(data) == entry["bytes"]
    indices, png_palette = png_grid(entry["picture"])
    assert np.array_equal(grid, indices)
    assert np.array_equal(info.puzzle.palette.to_array()[: len(png_palette)], png_palette)
    # and through Pillow
    with Image.open(VECTORS / entry["file"]) as image:
        assert image.format == "ROFL" and image.mode == "P"
        assert np.array_equal(np.asarray(image), indices)
        assert dict(info.puzzle.meta).items() <= image.info.items()


def cells_of(name: str) -> np.ndarray:
    """The flat cells a ``.cells`` file lists, row by row."""
    return np.array((VECTORS / name).read_text(encoding="utf-8").split(), dtype=np.uint8)


@pytest.mark.parametrize("entry", HEXAGONS, ids=lambda e: e["file"])
def test_hexagon_vector_decodes_to_its_cells(entry):
    data = (VECTORS / entry["file"]).read_bytes()
    cells, info = decode_bytes(data, where=entry["file"])
    assert isinstance(info.puzzle, HexPuzzle) and entry["size"] == f"hexagon of side {info.puzzle.side}"
    assert info.rofl.version == entry["version"] == 2 and len(data) == entry["bytes"]
    assert np.array_equal(cells, cells_of(entry["cells"]))
    sets = info.puzzle.color_sets
    assert entry["set_groups"] == (0 if sets is None else int(np.count_nonzero(sets)))
    # the .cells text is laid out as the board's rows
    rows = (VECTORS / entry["cells"]).read_text(encoding="utf-8").splitlines()
    assert [len(r.split()) for r in rows] == [len(info.puzzle.board.line(i)) for i in range(len(rows))]
    # Pillow: a hexagon is no rectangular picture, refused from the header with a clear error
    with pytest.raises(RoflImageError, match="hexagonal ROFL puzzle"):
        Image.open(VECTORS / entry["file"])


def test_set_vectors_have_their_set_groups():
    entries = [v for v in MANIFEST["valid"] if v.get("set_groups")]
    assert {v["file"] for v in entries} == {
        "hex-sets.rofl",
        "rect-sets.rofl",
        "rect-sets-two-byte-counts.rofl",
        "sets-ten-colours.rofl",
        "64-colours-sets.rofl",
    }
    for entry in entries:
        puzzle = decode_bytes((VECTORS / entry["file"]).read_bytes(), where=entry["file"])[1].puzzle
        assert int(np.count_nonzero(puzzle.color_sets)) == entry["set_groups"]


def assert_refused(name: str, expected: dict) -> RoflError:
    """``name`` fails with the error, message and byte offset ``expected`` lists; returns the error."""
    data = (VECTORS / name).read_bytes()
    error = ERRORS[expected["error"]]
    with pytest.raises(error) as info:
        decode_bytes(data, where=name)
    assert type(info.value) is error
    assert expected["fragment" if "fragment" in expected else "message"] in str(info.value)
    assert str(info.value) == f"{name}: {expected['message']}"
    offset = expected["offset"]
    if offset is None:  # the rule names no byte (a property of the whole puzzle)
        assert not expected["message"].startswith("byte ")
    else:
        assert expected["message"].startswith(f"byte {offset}: ")
        assert offset <= len(data)
    return info.value


@pytest.mark.parametrize("name", sorted(INVALID))
def test_invalid_vector_fails_as_listed(name):
    error = assert_refused(name, INVALID[name])
    assert not isinstance(error, NotDecodedError)  # invalid, not merely beyond this reader


def runs(line) -> list[tuple[int, int]]:
    """The clue of one line of palette indices: (length, colour) of each run of non-zero cells."""
    out: list[tuple[int, int]] = []
    previous = 0
    for cell in map(int, line):
        if cell and cell == previous:
            out[-1] = (out[-1][0] + 1, cell)
        elif cell:
            out.append((1, cell))
        previous = cell
    return out


@pytest.mark.parametrize("entry", LIMITED, ids=lambda e: e["file"])
def test_vector_beyond_a_reader_limit(entry):
    """rofl says "not decoded" (not "invalid"); without the limit the PNG's grid is the file's picture."""
    name = entry["file"]
    error = assert_refused(name, entry["beyond_limit"])
    assert isinstance(error, NotDecodedError) and entry["beyond_limit"]["result"] == "not decoded"
    assert entry["colours"] > entry["reader_limit"]
    # a reader without the limit: the construct reference reads every clue, and they are the PNG's
    data = (VECTORS / name).read_bytes()
    parsed = SCHEMA.parse(data)
    assert parsed.ncolors == entry["colours"] and len(data) == entry["bytes"]
    indices, png_palette = png_grid(entry["picture"])
    assert png_palette.tobytes() == b"".join(parsed.palette)[: png_palette.size]
    assert (parsed.head.width, parsed.head.height) == (indices.shape[1], indices.shape[0])
    step = 1 + (parsed.ncolors >= 3)
    for parsed_line, line in zip(parsed.lines, [*indices, *indices.T], strict=True):
        groups = bytes(parsed_line.groups)  # one byte per count and length: both sides are <= 255
        clue = list(zip(groups[::step], groups[1::step] if step == 2 else [1] * len(groups), strict=True))
        assert clue == runs(line)
    # every line is full, so the clues leave no choice: the picture is unique
    assert all(sum(n for n, _ in runs(line)) == len(line) for line in indices)


@pytest.mark.parametrize("name", sorted(INVALID) + [v["file"] for v in LIMITED])
def test_invalid_vector_through_pillow(name):
    """Pillow: a clear rofl error from open() (header) or load() (body), never a wrong picture."""
    with pytest.raises(RoflError if name != "bad-magic.rofl" else Image.UnidentifiedImageError):
        with Image.open(VECTORS / name) as image:
            image.load()


@pytest.mark.parametrize(
    ("name", "hexdump"),
    [  # as printed in spec/ROFL.md section 8
        ("1x1-filled", "52 4F 46 4C 01 01 02 FF FF FF 00 00 00 01 01 01 01"),
        ("1x1-blank", "52 4F 46 4C 01 01 01 FF EE DD 00 00"),
        (
            "1x1-meta-crc",
            "52 4F 46 4C 00 01 00 01 00 01 02 FF FF FF 00 00 00 01 01 01 01 6D 65 74 61 00 00 00 09"
            "74 69 74 6C 65 00 44 6F 74 70 63 72 63 00 00 00 04 A5 05 DF 1B 49 45 4E 44 00 00 00 00",
        ),
        (  # section 13.4
            "hex-small",
            "52 4F 46 4C 00 02 01 00 03 02 FF FF FF 00 00 00 01 01 01 01 01 03 01 01 01 01"
            "00 01 01 01 05 01 01 00 01 01 01 02 01 01 01 02 01 01 49 45 4E 44 00 00 00 00",
        ),
    ],
)
def test_spec_hexdumps(name, hexdump):
    assert (VECTORS / f"{name}.rofl").read_bytes() == bytes.fromhex(hexdump)
    spec = (VECTORS.parent / "ROFL.md").read_text(encoding="utf-8")
    assert name in spec


def test_generator_reproduces_the_files():
    spec = importlib.util.spec_from_file_location("make_vectors", VECTORS / "make_vectors.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for name, _, grid, palette, options in module.valid_cases():
        assert module.build(grid, palette, options) == (VECTORS / f"{name}.rofl").read_bytes(), name
    for name, *_, data, _, _, _, _ in module.limit_cases():
        assert data == (VECTORS / f"{name}.rofl").read_bytes(), name
    for name, _, data, *_ in [*module.invalid_cases(), *module.invalid_shape_cases(), *module.revision_4_cases()]:
        assert data == (VECTORS / f"{name}.rofl").read_bytes(), name
    for name, _, puzzle, cells, options in module.shape_cases():
        data = rofl.formats.rofl.dumps(puzzle, cells if options.get("crc") else None, meta=options.get("meta"))
        assert data == (VECTORS / f"{name}.rofl").read_bytes(), name


def test_plugin_is_registered():
    assert rofl.register is not None
    assert Image.registered_extensions()[".rofl"] == "ROFL"
