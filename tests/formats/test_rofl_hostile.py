"""Hostile ROFL files replayed under a time limit: only rofl's own errors may come out.

``tests/data/rofl-hostile/`` holds the corpus the fuzzer (``fuzz/fuzz_rofl.py``)
built from the test vectors; the crafted cases below aim at the limits.
"""

from __future__ import annotations

import io

import pytest
from PIL import Image

import rofl  # noqa: F401  (Pillow plugin)
from rofl.decode import decode_bytes
from rofl.errors import FormatError, RoflError, UnsolvableError
from rofl.hexagon import HexPuzzle
from tests.mangle import empty_hexagon_rofl
from tests.places import DATA_DIR

HOSTILE = DATA_DIR / "rofl-hostile"
ALLOWED = (FormatError, UnsolvableError)


def ext(width: int, height: int, k: int, body: bytes) -> bytes:
    return b"ROFL\x00\x01" + width.to_bytes(2, "big") + height.to_bytes(2, "big") + bytes([k]) + bytes(3 * k) + body


CRAFTED = {
    "max-size-header": ext(65535, 65535, 2, b""),
    "cells-over-limit": ext(2049, 2048, 1, bytes(2 * 4097) + b"IEND\0\0\0\0"),
    "count-ffff": ext(300, 1, 2, b"\xff\xff"),
    "chunk-length-ffffffff": ext(1, 1, 1, b"\0\0\0\0" + b"meta\xff\xff\xff\xff"),
    "many-chunks": ext(1, 1, 1, b"\0\0\0\0" + b"abcd\0\0\0\0" * 100_000 + b"IEND\0\0\0\0"),
    "huge-meta": ext(1, 1, 1, b"\0\0\0\0" + b"meta" + (2**20 + 6).to_bytes(4, "big") + b"title\0" + b"a" * 2**20)
    + b"IEND\0\0\0\0",
    "empty-2048x2048": ext(2048, 2048, 1, bytes(2 * 4096) + b"IEND\0\0\0\0"),
    "all-255-colours": b"ROFL\x01\x01\xff" + bytes(765) + b"\0\0",
    "dense-wrong-totals": b"ROFL\xff\xff\x04" + bytes(12) + (b"\xff" + b"\x01\x01\x01\x02" * 127 + b"\x01\x01") * 510,
    "empty": b"",
    "magic-only": b"ROFL",
    # version 2 (spec section 13): the largest side, a side beyond the cell
    # limit, a hexagon line count of FFFF, a 'QSET' that claims 4 GiB
    "hex-max-side": b"ROFL\x00\x02\x01\xff\xff\x02" + bytes(6),
    "hex-side-1024": empty_hexagon_rofl(1024),
    "hex-count-ffff": b"ROFL\x00\x02\x01\x00\x81\x02" + bytes(6) + b"\xff\xff",
    "qset-ffffffff": b"ROFL\x00\x02\x02\x00\x01\x00\x01\x03"
    + bytes(9)
    + b"\x01\x01\x00\x01\x01\x00"
    + b"QSET\xff\xff\xff\xff\x0e",
}


def corpus():
    files = sorted(HOSTILE.glob("*")) if HOSTILE.is_dir() else []
    return [pytest.param(f.read_bytes(), id=f.name) for f in files] + [
        pytest.param(data, id=name) for name, data in CRAFTED.items()
    ]


def test_the_corpus_is_there():
    assert len(list(HOSTILE.glob("*"))) >= 50


@pytest.mark.timeout(30)
@pytest.mark.parametrize("data", corpus())
def test_hostile_input(data):
    try:
        grid, info = decode_bytes(data, where="hostile")
    except ALLOWED:
        decoded = False
    else:
        decoded = True
        assert info.puzzle.is_solution(grid)
    hexagonal = decoded and isinstance(info.puzzle, HexPuzzle)
    try:
        with Image.open(io.BytesIO(data)) as image:
            image.load()
    except Image.UnidentifiedImageError:
        assert not data.startswith(b"ROFL")
        assert not decoded
    except RoflError as exc:
        # a hexagon decodes, but is no rectangular picture for Pillow
        assert isinstance(exc, ALLOWED) and (not decoded or (hexagonal and "hexagonal" in str(exc)))
    else:
        assert decoded


def test_a_header_alone_builds_no_board(monkeypatch):
    # a 16-byte version-2 header of a hexagon of side 1024 built its board
    # (0.55 GB, half a second) before the file was found to end (issue 40)
    import rofl.hexagon

    def refuse(self, side):
        msg = f"a board of side {side} was built"
        raise AssertionError(msg)

    monkeypatch.setattr(rofl.hexagon.Hexagon, "__init__", refuse)
    data = (HOSTILE / "issue40-v2-side-1024-cut-after-palette").read_bytes()
    assert len(data) == 16
    with pytest.raises(FormatError, match="byte 16: row 1: the file ends before its group count"):
        decode_bytes(data)
    # and a count too large for its line is found the same way
    with pytest.raises(FormatError, match="falling diagonal 1: 1025 groups cannot fit in 1024 cells"):
        decode_bytes(data + bytes(2 * 2047) + b"\x04\x01")
