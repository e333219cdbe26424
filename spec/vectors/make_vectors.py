"""Regenerate the ROFL test vectors in this folder.

    PYTHONPATH=. python spec/vectors/make_vectors.py [--hexdump]

Valid vectors are written with the codec and checked: each must decode to
the picture stored beside it as a palette PNG (by line logic, except the
``NEEDS_SEARCH`` ones, which only a complete search decodes).  Limit vectors
are valid files beyond this reader's limits, spelled out byte by byte (the
codec refuses to write them): they come with their picture too, and with the
"not decoded" error this reader gives.  Invalid ones are a valid file with
one thing broken by hand (bytes spelled out below), and ``vectors.json``
records the error each must raise and the byte offset it must name
(``spec/ROFL.md`` section 5 says which byte each rule names).  ``README.md``
is rewritten from the same table.  Every run writes the same bytes.
"""

from __future__ import annotations

import json
import re
import sys
import zlib
from pathlib import Path

import numpy as np
from PIL import Image

from rofl.decode import decode_bytes
from rofl.errors import RoflError
from rofl.formats.rofl import MAX_COLORS, dumps
from rofl.hexagon import Hexagon, HexPuzzle
from rofl.picture import image_from_grid
from rofl.puzzle import Palette, Puzzle
from rofl.solver import solve

HERE = Path(__file__).resolve().parent
BW = Palette.black_white()
RGBW = Palette(["#ffffff", "#000000", "#d03030", "#3050d0"])


def hands_up() -> np.ndarray:
    return np.array(
        [[1, 0, 1, 0, 1], [1, 1, 1, 1, 1], [0, 1, 1, 1, 0], [0, 1, 1, 1, 0], [0, 1, 0, 1, 0]], dtype=np.uint8
    )


def valid_cases():
    """(name, description, grid, palette, dumps options)."""
    cross = np.zeros((8, 8), np.uint8)
    cross[1:7, 2] = 1
    cross[2, 1:7] = 2
    cross[6, 3:6] = 3
    yield "bw-hands-up", "5x5 black and white, plain form (2 colours: no colour bytes)", hands_up(), BW, {}
    yield "colour-cross", "8x8, 4 colours, plain form, empty rows and columns", cross, RGBW, {}
    yield "1x1-filled", "1x1, one black cell", np.ones((1, 1), np.uint8), BW, {}
    yield (
        "1x1-meta-crc",
        "1x1 with a title and a CRC: every part of the extended form in 58 bytes",
        np.ones((1, 1), np.uint8),
        BW,
        {"meta": {"title": "Dot"}, "crc": True},
    )
    yield (
        "1x1-blank",
        "1x1, palette of the background alone (1 colour, every line empty)",
        np.zeros((1, 1), np.uint8),
        Palette(["#ffeedd"]),
        {},
    )
    blank_lines = np.zeros((6, 7), np.uint8)
    blank_lines[1, 1:6] = 1
    blank_lines[4, 1:6] = 1
    blank_lines[1:5, 1] = 1
    blank_lines[1:5, 5] = 1
    yield "empty-lines", "7x6 black and white frame: first/last rows and columns empty", blank_lines, BW, {}
    touching = np.array([[1, 2, 3, 0], [1, 2, 3, 3], [0, 2, 2, 1]], np.uint8)
    yield "touching-colours", "4x3, groups of different colours touching", touching, RGBW, {}
    y, x = np.indices((255, 255))
    rings = ((np.hypot(y - 127, x - 127) // 8).astype(np.uint8) % 3).astype(np.uint8)
    text = "255x255 rings, 3 colours: the largest size of the plain form"
    yield "255x255", text, rings, Palette(RGBW.colors[:3]), {}
    y, x = np.indices((200, 300))
    target = (((np.hypot(y - 100, x - 150) // 10).astype(np.int64)) % 2).astype(np.uint8)
    yield "300x200-extended", "300x200 target, extended form (side > 255: 2-byte counts and lengths)", target, BW, {}
    meta = {"title": "Hands up", "author": "Gregory Kikola", "licence": "GPL-3.0", "note": "Grüße ♥ 手"}
    yield "metadata", "5x5 with four 'meta' chunks (UTF-8 values)", hands_up(), BW, {"meta": meta}
    yield "crc", "8x8 colour with a 'pcrc' chunk (CRC-32 of the picture)", cross, RGBW, {"crc": True}
    yield (
        "extended-small",
        "5x5 in the extended form with no chunk but 'IEND' (allowed, 12 bytes larger)",
        hands_up(),
        BW,
        {"extended": True},
    )
    yield (
        "unknown-ancillary",
        "5x5 with an ancillary chunk 'zzzz' a reader must skip, and a title",
        hands_up(),
        BW,
        {"meta": {"title": "skip me"}, "extra_chunk": (b"zzzz", b"future data")},
    )
    many, pal64 = sixty_four()
    yield "64-colours", "64x4, 64 colours (the most this reader supports)", many, pal64, {}
    needs_search = np.array(
        [[1, 0, 0, 0, 0], [0, 0, 1, 0, 1], [0, 0, 1, 1, 1], [1, 1, 0, 0, 0], [0, 0, 0, 1, 1]], np.uint8
    )
    yield (
        "needs-search",
        "5x5 whose only solution line logic cannot reach (20 cells stay open): a reader must search",
        needs_search,
        BW,
        {"crc": True},
    )
    two_blacks = hands_up()
    two_blacks[1, 1:4] = 2
    two_blacks[2:4, 2] = 2
    yield (
        "duplicate-colours",
        "5x5 whose palette holds black twice (entries 1 and 2): a reader keeps them apart",
        two_blacks,
        Palette(["#ffffff", "#000000", "#000000"]),
        {},
    )
    yield (
        "unused-colour",
        "5x5 with a palette entry (2, red) that no group uses; 3 colours, so groups carry colour bytes",
        hands_up(),
        Palette(RGBW.colors[:3]),
        {},
    )
    yield "meta-empty-value", "5x5 with a 'meta' chunk whose value is empty", hands_up(), BW, {"meta": {"title": ""}}
    yield (
        "meta-bom",
        "5x5 whose title starts with U+FEFF (EF BB BF): an ordinary character, kept",
        hands_up(),
        BW,
        {"meta": {"title": "\ufeffHands up"}},
    )
    yield (
        "meta-key-64",
        "5x5 with a metadata key of 64 characters, the longest allowed",
        hands_up(),
        BW,
        {"meta": {"k" + "0123456789._-" * 4 + "abcdefghijk": "x"}},
    )
    # added in revision 4: the fourth letter of a tag (section 4)
    yield (
        "unknown-unsafe-ancillary",
        "5x5 with an ancillary chunk 'zzzZ', unsafe to copy: a reader skips it, a rewriter drops it",
        hands_up(),
        BW,
        {"meta": {"title": "skip me"}, "extra_chunk": (b"zzzZ", b"tied to this file")},
    )


def hex_flower() -> np.ndarray:
    """A side-4 hexagon (37 cells, row by row): a ring of colour 1 around a centre of 2, a stem of 3."""
    board = Hexagon.of(4)
    cells = np.zeros(board.n_cells, np.uint8)
    for i, (q, r, s_) in enumerate(board.coords.tolist()):
        ring = max(abs(q), abs(r), abs(s_))
        cells[i] = 2 if ring == 0 else 1 if ring == 1 else 3 if (q == 0 and r > 1) else 0
    return cells


def with_sets(puzzle, tries):
    """``puzzle`` with the groups ``tries`` (indices, in order) turned to '?' while line logic still solves it."""
    which = np.zeros(puzzle.n_groups, dtype=bool)
    for g in tries:
        which[g] = True
        if solve(puzzle.with_unknown_colors(which)).status != "solved":
            which[g] = False
    assert which.any()
    return puzzle.with_unknown_colors(which)


def shape_cases():
    """Version 2 (spec section 13): (name, description, puzzle, solution cells, dumps options).

    The solution of a hexagon is its flat cells (row by row), stored beside
    it as ``NAME.cells``; a rectangle's is its grid, stored as a PNG.
    """
    cells = np.zeros(Hexagon.of(3).n_cells, np.uint8)
    cells[[0, 4, 8, 9, 10, 14, 18]] = 1  # a vertical bar and two corners
    small = HexPuzzle.from_cells(3, cells, BW)
    yield "hex-small", "hexagon of side 3, black and white: flag 01, side 00 03", small, cells, {}
    flower = hex_flower()
    plain = HexPuzzle.from_cells(4, flower, RGBW)
    sets = with_sets(plain, range(0, plain.n_groups, 2))
    text = "hexagon of side 4, 4 colours, '?' groups (flags 03) with a title and a CRC"
    yield "hex-sets", text, sets, flower, {"meta": {"title": "flower"}, "crc": True}
    cross = np.zeros((8, 8), np.uint8)
    cross[1:7, 2] = 1
    cross[2, 1:7] = 2
    cross[6, 3:6] = 3
    rect = Puzzle.from_grid(cross, RGBW)
    yield (
        "rect-sets",
        "8x8, 4 colours, '?' groups (flag 02, masks in 'QSET')",
        with_sets(rect, range(rect.n_groups)),
        cross,
        {},
    )
    # added in revision 4 of spec/ROFL.md: rules that had no vector
    board = Hexagon.of(129)
    rings = (board.coords.__abs__().max(axis=1) // 8 % 3).astype(np.uint8)
    yield (
        "hex-two-byte-counts",
        "hexagon of side 129 (lines of up to 257 cells): 2-byte counts and lengths, 3 colours in rings",
        HexPuzzle.from_cells(129, rings, Palette(RGBW.colors[:3])),
        rings,
        {},
    )
    stripes = np.zeros((4, 300), np.uint8)
    for r in range(4):
        stripes[r, 5 * r : 5 * r + 280] = 1 + (np.arange(280) // 40 + r) % 3
    wide = Puzzle.from_grid(stripes, RGBW)
    yield (
        "rect-sets-two-byte-counts",
        "300x4, 4 colours, '?' groups (flag 02) with 2-byte counts and lengths",
        with_sets(wide, range(0, wide.n_groups, 8)),
        stripes,
        {},
    )
    tens = np.array([[1, 2, 3, 4, 5, 6, 7, 8, 9], [9, 8, 7, 6, 5, 4, 3, 2, 1], [0, 5, 5, 9, 0, 9, 1, 1, 0]], np.uint8)
    ten = Puzzle.from_grid(tens, TEN)
    yield (
        "sets-ten-colours",
        "9x3, 10 colours: 2-byte masks in 'QSET' (bits 1-9)",
        with_sets(ten, range(ten.n_groups)),
        tens,
        {},
    )
    many, pal64 = sixty_four()
    full = Puzzle.from_grid(many, pal64)
    yield (
        "64-colours-sets",
        "64x4, 64 colours, the first group of colour 63 given as '?': an 8-byte mask with bit 63",
        full.with_unknown_colors(np.arange(full.n_groups) == np.argmax(full.colors == 63)),
        many,
        {},
    )


TEN = Palette(["#ffffff", *(f"#{(i * 0x1F3A5B) % 0xFFFFFF:06x}" for i in range(1, 10))])


def sixty_four() -> tuple[np.ndarray, Palette]:
    """The picture and palette of ``64-colours``."""
    many = (np.arange(64 * 4, dtype=np.int64).reshape(4, 64) % 64).astype(np.uint8)
    many[:, 0] = 0
    pal64 = Palette([(255, 255, 255)] + [((i * 37) % 256, (i * 91) % 256, (i * 53) % 256) for i in range(1, 64)])
    return many, pal64


def cells_text(puzzle: HexPuzzle, cells: np.ndarray) -> str:
    """A hexagon's cells as text: one line per row, indented like the board."""
    board = puzzle.board
    lines = []
    for row in range(2 * board.side - 1):
        idx = board.line(row)
        lines.append(" " * abs(board.side - 1 - row) + " ".join(str(int(cells[i])) for i in idx))
    return "\n".join(lines) + "\n"


#: Valid vectors that line logic alone cannot decode (unique, proved by search).
NEEDS_SEARCH = {"needs-search"}


def build(grid, palette, options) -> bytes:
    puzzle = Puzzle.from_grid(grid, palette)
    opts = dict(options)
    crc = opts.pop("crc", False)
    extra = opts.pop("extra_chunk", None)
    data = dumps(puzzle, grid if crc else None, **opts)
    if extra is not None:  # a chunk this writer never makes, before 'IEND'
        data = data[:-8] + chunk(*extra) + data[-8:]
    return data


def chunk(tag: bytes, payload: bytes) -> bytes:
    return tag + len(payload).to_bytes(4, "big") + payload


def limit_cases():
    """(name, description, grid, palette bytes, file bytes, limit, error class, message fragment, offset).

    Valid files beyond a limit of this reader: the format allows 255 colours,
    rofl decodes at most 64.  A reader without the limit decodes the picture.
    """
    grid = np.arange(1, 65, dtype=np.uint8).reshape(8, 8)  # colours 1-64, one cell each, no background
    palette = bytes([255, 255, 255]) + bytes(c for i in range(1, 65) for c in ((i * 37) % 256, (i * 91) % 256, i))
    # every line: 8 touching groups of length 1 (K >= 3: length then colour)
    rows = b"".join(b"\x08" + b"".join(bytes([1, c]) for c in row) for row in grid)
    cols = b"".join(b"\x08" + b"".join(bytes([1, c]) for c in col) for col in grid.T)
    data = b"ROFL\x08\x08" + bytes([65]) + palette + rows + cols
    yield (
        "65-colours",
        "8x8, 65 colours (64 used, one cell each): valid, beyond this reader's limit of 64",
        grid,
        palette,
        data,
        MAX_COLORS,
        "LimitError",
        "65 colours",
        6,
    )


def invalid_cases():
    """(name, description, bytes, error class, message fragment, offset the error names or None)."""
    bw = build(hands_up(), BW, {})  # 52 4F 46 4C 05 05 02 ...; rows from byte 13
    colour = build(np.array([[1, 2], [0, 1]], np.uint8), RGBW, {})
    ext_full = build(hands_up(), BW, {"extended": True})
    ext, iend = ext_full[:-8], ext_full[-8:]  # chunks go before 'IEND', at byte 40
    assert iend == b"IEND" + bytes(4) and len(ext) == 40
    pcrc = build(hands_up(), BW, {"crc": True})[40:-8]  # the right 'pcrc' chunk, 12 bytes
    assert pcrc[:8] == b"pcrc" + bytes([0, 0, 0, 4])

    def meta(payload: bytes) -> bytes:  # payload at byte 48, a value after 'title' 00 at 54
        return ext + chunk(b"meta", payload) + iend

    yield "bad-magic", "magic 'ROFX'", b"ROFX" + bw[4:], "FormatError", "not a ROFL file", 0
    yield "truncated-header", "file ends after the width", bw[:5], "FormatError", "ends inside the plain header", 5
    yield (
        "version-3",
        "extended header with version 3 (revision 3 of the spec retired 'version-2': version 2 now exists)",
        ext_full[:5] + b"\x03" + ext_full[6:],
        "FormatError",
        "version 3",
        5,
    )
    yield "zero-height", "plain header with height 0", bw[:5] + b"\x00" + bw[6:], "FormatError", "height 0", 5
    yield "zero-colours", "colour count 0", bw[:6] + b"\x00" + bw[7:], "FormatError", "colour count 0", 6
    yield "truncated-palette", "file ends inside the palette", bw[:10], "FormatError", "palette of 2 colours", 7
    yield "truncated-clues", "file cut inside the last column clue", bw[:-1], "FormatError", "only 0 remain", 35
    yield (
        "count-too-large",
        "row 1 says 9 groups in a 5-cell row",
        bw[:13] + b"\x09" + bw[14:],
        "FormatError",
        ("9 groups cannot fit in 5 cells"),
        13,
    )
    # hands-up row 1 is 03 01 01 01 at offset 13
    yield "zero-length", "a group of length 0", bw[:14] + b"\x00" + bw[15:], "FormatError", "length 0", 14
    # colour file: 2x2, 4 colours, rows at 19: 02 01 01 01 02 (count, length, colour, length, colour)
    yield (
        "colour-out-of-range",
        "group colour 5 with 4 colours",
        colour[:23] + b"\x05" + colour[24:],
        "FormatError",
        ("colour 5 is outside the palette"),
        23,
    )
    yield (
        "colour-zero",
        "group colour 0 (the background)",
        colour[:23] + b"\x00" + colour[24:],
        "FormatError",
        ("colour 0 is the background"),
        23,
    )
    yield (
        "line-overflow",
        "row 2 is 5+1 in a 5-cell row",
        bw[:17] + b"\x02\x05\x01" + bw[19:],
        "FormatError",
        ("need 7 cells but the row has 5"),
        17,
    )
    yield (
        "totals-mismatch",
        "row 2 is 4 instead of 5: rows and columns disagree",
        bw[:18] + b"\x04" + bw[19:],
        ("FormatError"),
        "the rows hold",
        None,
    )
    yield (
        "trailing-bytes",
        "a plain file with a byte after the last column",
        bw + b"\x00",
        "FormatError",
        ("after the last column"),
        36,
    )
    yield (
        "unknown-critical-chunk",
        "extended file with chunk 'ABCD'",
        ext + chunk(b"ABCD", b"x") + iend,
        "FormatError",
        ("unknown critical chunk 'ABCD'"),
        40,
    )
    yield (
        "chunk-overrun",
        "chunk length beyond the end of the file",
        ext + b"meta" + (100).to_bytes(4, "big") + (b"title\x00x"),
        "FormatError",
        "length 100 but only 7 bytes remain",
        44,
    )
    yield (
        "bad-chunk-tag",
        "chunk tag '12ab'",
        ext + chunk(b"12ab", b"") + iend,
        "FormatError",
        "not four ASCII letters",
        40,
    )
    yield (
        "meta-not-utf8",
        "metadata value that is not UTF-8 (byte FF)",
        meta(b"title\x00\xff"),
        ("FormatError"),
        "not well-formed UTF-8",
        54,
    )
    yield (
        "meta-twice",
        "metadata key 'title' twice",
        ext + chunk(b"meta", b"title\x00a") + chunk(b"meta", b"title\x00b") + iend,
        "FormatError",
        "appears twice",
        55,
    )
    yield (
        "crc-mismatch",
        "'pcrc' chunk that does not match the solved picture",
        ext + chunk(b"pcrc", b"\x12\x34\x56\x78") + iend,
        "FormatError",
        "CRC-32",
        None,
    )
    contradiction = b"ROFL\x02\x02\x02\xff\xff\xff\x00\x00\x00" + b"\x01\x02" + b"\x00" + b"\x01\x02" + b"\x00"
    yield "missing-iend", "extended file cut before its 'IEND' chunk", ext, "FormatError", "before its 'IEND'", 40
    yield "after-iend", "a byte after the 'IEND' chunk", ext_full + b"\x00", "FormatError", "after the 'IEND'", 48
    yield (
        "contradiction",
        "2x2 whose clues agree in total but have no solution",
        contradiction,
        ("UnsolvableError"),
        "no solution",
        None,
    )
    ambiguous = b"ROFL\x02\x02\x02\xff\xff\xff\x00\x00\x00" + b"\x01\x01" * 4
    yield (
        "ambiguous",
        "2x2 diagonal: two solutions, line logic determines no cell",
        ambiguous,
        "AmbiguousError",
        "several solutions",
        None,
    )
    # added in revision 2 of spec/ROFL.md, a vector for every rule:
    # (name, what is wrong, bytes, error, fragment of the message, offset)
    fe = "FormatError"
    # fmt: off
    yield from [
        ("truncated-count", "plain file that ends right before the last column's count", bw[:-2], fe,
         "ends before its group count", 34),
        ("version-0", "extended header with version 0", ext_full[:5] + b"\x00" + ext_full[6:], fe, "version 0", 5),
        ("truncated-extended-header", "extended file that ends inside the width", ext_full[:7], fe,
         "ends inside the extended header, in the width", 6),
        ("extended-zero-width", "extended header with width 0", ext_full[:6] + b"\x00\x00" + ext_full[8:], fe,
         "width 0", 6),
        ("extended-zero-height", "extended header with height 0", ext_full[:8] + b"\x00\x00" + ext_full[10:], fe,
         "height 0", 8),
        ("count-with-one-colour", "1x1 with the background alone (K = 1) whose row and column say 1 group",
         b"ROFL\x01\x01\x01\xff\xee\xdd" + b"\x01\x01" * 2, fe, "palette holds only the background", 10),
        ("colour-line-overflow", "2x2 row 1 is (1, colour 1) (1, colour 1): equal colours need a gap, 3 cells",
         colour[:23] + b"\x01" + colour[24:], fe, "need 3 cells but the row has 2", 19),
        ("truncated-chunk-tag", "extended file that ends inside a chunk tag ('IE')", ext + b"IE", fe,
         "too few for a chunk tag", 40),
        ("truncated-chunk-length", "extended file that ends inside a chunk length ('IEND' 00 00)",
         ext + b"IEND\x00\x00", fe, "ends inside its length", 44),
        ("iend-not-empty", "'IEND' with length 1 (and its byte)", ext + chunk(b"IEND", b"\x00"), fe,
         "length 1, must be 0", 44),
        ("meta-no-nul", "'meta' chunk without a 00", meta(b"title"), fe, "without the NUL", 48),
        ("meta-bad-key", "metadata key 'Title' (upper case)", meta(b"Title\x00x"), fe, "b'Title'", 48),
        ("meta-key-newline", "metadata key 'title' followed by a line feed (a '$'-anchored pattern would accept it)",
         meta(b"title\n\x00x"), fe, "b'title\\n'", 48),
        ("meta-key-too-long", "metadata key of 65 letters", meta(b"a" * 65 + b"\x00x"), fe, "is not 1-64", 48),
        ("meta-empty-key", "metadata with an empty key", meta(b"\x00x"), fe, "key b''", 48),
        ("meta-nul-in-value", "metadata value with a 00 (the payload splits at its first 00)",
         meta(b"title\x00a\x00b"), fe, "contains a NUL", 54),
        ("meta-overlong", "metadata value 'x' then C0 AF, an overlong '/'", meta(b"title\x00x\xc0\xaf"), fe,
         "bytes c0 at byte 55", 54),
        ("meta-surrogate", "metadata value ED A0 80 ED B0 80: U+10000 as two surrogates (CESU-8)",
         meta(b"title\x00\xed\xa0\x80\xed\xb0\x80"), fe, "not well-formed UTF-8", 54),
        ("pcrc-bad-length", "'pcrc' chunk of 5 bytes", ext + chunk(b"pcrc", pcrc[8:] + b"\x00") + iend, fe,
         "must be 4", 44),
        ("pcrc-twice", "two (right) 'pcrc' chunks", ext + pcrc + pcrc + iend, fe, "second 'pcrc'", 52),
    ]
    # fmt: on


def shape_bytes(name: str) -> bytes:
    """The bytes of the version-2 valid vector ``name``."""
    for case, _, puzzle, cells, options in shape_cases():
        if case == name:
            return dumps(puzzle, cells if options.get("crc") else None, meta=options.get("meta"))
    raise KeyError(name)


def first_set_colour(data: bytes, start: int, capacities) -> int:
    """Offset of the first colour byte 0 in a clue block with 1-byte counts and colour bytes."""
    pos = start
    for _ in capacities:
        count = data[pos]
        for g in range(count):
            if data[pos + 2 + 2 * g] == 0:
                return pos + 2 + 2 * g
        pos += 1 + 2 * count
    raise ValueError


def invalid_shape_cases():
    """Version 2 (spec section 13) broken by hand: as :func:`invalid_cases`."""
    fe = "FormatError"
    small = shape_bytes("hex-small")  # flags at 6, side at 7, K at 9, row 1's count at 16: 01 01
    assert small[6:10] == b"\x01\x00\x03\x02" and small[16:18] == b"\x01\x01"
    rect = shape_bytes("rect-sets")
    qset = rect.index(b"QSET")  # its length at +4, the first mask at +8
    mask = rect[qset + 8]
    assert mask == 0x0E  # '?' with 4 colours: colours 1, 2, 3
    n_masks = int.from_bytes(rect[qset + 4 : qset + 8], "big")
    qset_chunk = rect[qset : qset + 8 + n_masks]
    sets = shape_bytes("hex-sets")
    bw_ext = build(hands_up(), BW, {"extended": True})
    two = build(np.array([[1, 2], [0, 1]], np.uint8), RGBW, {"extended": True})
    # fmt: off
    yield from [
        ("shapes-truncated-flags", "version-2 file that ends before its flags", small[:6], fe,
         "in the flags", 6),
        ("shapes-flags-zero", "version 2 with flags 00 (it would be a version-1 file)", small[:6] + b"\x00" + small[7:],
         fe, "flags 00", 6),
        ("shapes-unknown-flag", "version 2 with flag bit 04, which no version defines",
         small[:6] + b"\x05" + small[7:], fe, "unknown bits 04", 6),
        ("hex-truncated-side", "hexagonal file that ends inside its side", small[:8], fe, "in the side", 7),
        ("hex-side-zero", "hexagon of side 0", small[:7] + b"\x00\x00" + small[9:], fe, "side 0", 7),
        ("hex-count-too-large", "hexagon of side 3: row 1 (3 cells) says 4 groups", small[:16] + b"\x04" + small[17:],
         fe, "row 1: 4 groups cannot fit in 3 cells", 16),
        ("hex-line-overflow", "hexagon of side 3: row 1 (3 cells) holds a group of 4",
         small[:17] + b"\x04" + small[18:], fe, "row 1: the groups need 4 cells", 16),
        ("hex-colour-zero", "hexagon with colour bytes 0 but flags 01 (no colour sets)",
         sets[:6] + b"\x01" + sets[7:], fe, "colour 0 is the background",
         first_set_colour(sets, 22, range(21))),
        ("sets-one-ink-colour", "flag 02 (colour sets) in a black-and-white picture (K = 2)",
         bw_ext[:5] + b"\x02\x02" + bw_ext[6:], fe, "colour count 2", 11),
        ("sets-no-set-group", "flag 02 but no group has colour 0", two[:5] + b"\x02\x02" + two[6:], fe,
         "no group has colour 0", 6),
        ("sets-mask-background", "a 'QSET' mask with bit 0, the background (0F)",
         rect[: qset + 8] + b"\x0f" + rect[qset + 9 :], fe, "holds colour 0", qset + 8),
        ("sets-mask-out-of-range", "a 'QSET' mask with colour 4 of a 4-colour palette (1E)",
         rect[: qset + 8] + b"\x1e" + rect[qset + 9 :], fe, "colour 4, outside the palette", qset + 8),
        ("sets-mask-one-colour", "a 'QSET' mask of one colour (04): written as colour 2 instead",
         rect[: qset + 8] + b"\x04" + rect[qset + 9 :], fe, "fewer than two colours", qset + 8),
        ("sets-missing-qset", "flag 02 and set groups, but no 'QSET' chunk", rect[:qset] + rect[qset + 8 + n_masks :],
         fe, "no 'QSET' chunk", qset),
        ("sets-qset-bad-length", "a 'QSET' chunk one mask short",
         rect[: qset + 4] + (n_masks - 1).to_bytes(4, "big") + rect[qset + 8 : qset + 7 + n_masks]
         + rect[qset + 8 + n_masks :], fe, f"length {n_masks - 1}, must be {n_masks}", qset + 4),
        ("sets-qset-twice", "two 'QSET' chunks", rect[: qset + 8 + n_masks] + qset_chunk + rect[qset + 8 + n_masks :],
         fe, "a second 'QSET'", qset + 8 + n_masks),
        ("qset-in-version-1", "a version-1 file with a 'QSET' chunk: critical, and unknown to version 1",
         bw_ext[:-8] + qset_chunk + bw_ext[-8:], fe, "unknown critical chunk 'QSET'", 40),
    ]
    # fmt: on


def v2_rect(width: int, height: int, palette: Palette, lines, masks: list[int]) -> bytes:
    """A version-2 rectangle with colour sets (flags 02), spelled out byte by byte.

    ``lines``: each row, then each column, as (length, colour) groups with
    1-byte counts and lengths, colour 0 for a set group; ``masks``: the
    ``QSET`` masks in order.
    """
    k = len(palette)
    m = (k + 7) // 8
    clue = b"".join(bytes([len(line)]) + b"".join(bytes([n, c]) for n, c in line) for line in lines)
    qset = b"".join(mask.to_bytes(m, "big") for mask in masks)
    head = b"ROFL\x00\x02\x02" + width.to_bytes(2, "big") + height.to_bytes(2, "big") + bytes([k])
    return head + palette.to_array().tobytes() + clue + chunk(b"QSET", qset) + b"IEND" + bytes(4)


def revision_4_cases():
    """Invalid vectors added in revision 4 of ``spec/ROFL.md``: rules in
    version 2 that had none, the order of checks (R39) and the precedence of
    "invalid" over "not decoded" (R29).  As :func:`invalid_cases`."""
    fe = "FormatError"
    small = shape_bytes("hex-small")
    bw = build(hands_up(), BW, {})
    ext_full = build(hands_up(), BW, {"extended": True})
    ext, iend = ext_full[:-8], ext_full[-8:]
    rect = shape_bytes("rect-sets")
    qset = rect.index(b"QSET")
    qset_chunk = rect[qset : qset + 8 + int.from_bytes(rect[qset + 4 : qset + 8], "big")]
    # rect-sets with one group a cell longer, found by trying each in turn: every line still fits
    bumped = next(
        data
        for at in range(24, qset)
        for data in [rect[:at] + bytes([rect[at] + 1]) + rect[at + 1 :]]
        if "ink cells" in attempt(data)
    )
    ten = shape_bytes("sets-ten-colours")
    ten_qset = ten.index(b"QSET")
    ambiguous = b"ROFL\x00\x01\x00\x02\x00\x02\x02\xff\xff\xff\x00\x00\x00" + b"\x01\x01" * 4
    diagonal = np.array([[1, 0], [0, 1]], np.uint8)
    sixty_five = next(c for c in limit_cases() if c[0] == "65-colours")[4]
    mismatch = ext[:22] + b"\x04" + ext[23:]  # row 2 is 4 instead of 5: the totals disagree
    # fmt: off
    yield from [
        ("qset-without-flag-02", "a hexagon with flags 01 and a 'QSET' chunk: an unknown critical chunk there",
         small[:-8] + qset_chunk + small[-8:], fe, "unknown critical chunk 'QSET'", len(small) - 8),
        ("sets-line-overflow", "flags 02, 2x2: row 1 is (1, colour 1) (1, colour 1), no set group in it: 3 cells",
         v2_rect(2, 2, RGBW, [[(1, 1), (1, 1)], [(1, 0)], [(1, 1)], [(1, 1), (1, 2)]], [0b0110]), fe,
         "row 1: the groups need 3 cells but the row has 2", 24),
        ("sets-set-line-overflow",
         "flags 02, 3x1: row 1 is colour 1, a set of colours 1 and 2, colour 2: the set takes neither, 4 cells",
         v2_rect(3, 1, RGBW, [[(1, 1), (1, 0), (1, 2)], [(1, 1)], [(1, 0)], [(1, 2)]], [0b0110, 0b0110]), fe,
         "row 1: the groups need 4 cells but the row has 3", 24),
        ("hex-totals-mismatch",
         "hexagon of side 3 whose row 1 holds 2 cells: the rows hold one cell more than the diagonals",
         small[:17] + b"\x02" + small[18:], fe, "the rows hold 8 cells but the falling diagonals hold 7", None),
        ("sets-totals-mismatch", "rect-sets with one group a cell longer: the rows and columns hold different numbers",
         bumped, fe, "ink cells", None),
        ("sets-mask-two-bytes-out-of-range", "a 2-byte 'QSET' mask (10 colours) with colour 10 (04 06)",
         ten[: ten_qset + 8] + b"\x04\x06" + ten[ten_qset + 10 :], fe, "colour 10, outside the palette",
         ten_qset + 8),
        ("ambiguous-crc", "2x2 diagonal (two solutions) whose 'pcrc' is the CRC of one of them: still ambiguous",
         ambiguous + chunk(b"pcrc", zlib.crc32(diagonal.tobytes()).to_bytes(4, "big")) + b"IEND" + bytes(4),
         "AmbiguousError", "several solutions", None),
        ("order-length-before-count", "row 1 has a group of length 0 and row 3 says 9 groups: row 1 comes first",
         bw[:14] + b"\x00" + bw[15:19] + b"\x09" + bw[20:], fe, "row 1, group 1: length 0", 14),
        ("order-value-before-repeat",
         "metadata key 'title' twice, the second value not UTF-8: the value is wrong first",
         ext + chunk(b"meta", b"title\x00a") + chunk(b"meta", b"title\x00\xff") + iend, fe,
         "not well-formed UTF-8", 55 + 8 + 6),
        ("order-chunk-before-totals", "rows and columns disagree in total, and a chunk tag is '12ab': the tag first",
         mismatch + chunk(b"12ab", b"") + iend, fe, "not four ASCII letters", 40),
        ("65-colours-truncated-palette", "65-colours cut inside its palette: invalid, not beyond this reader's limit",
         sixty_five[:37], fe, "the palette of 65 colours", 7),
        ("4096x4096-truncated", "4096x4096, 2 colours, cut after the palette: invalid, not beyond this reader's limit",
         b"ROFL\x00\x01\x10\x00\x10\x00\x02\xff\xff\xff\x00\x00\x00", fe, "before its group count", 17),
        ("hex-1100-truncated", "hexagon of side 1100 cut after the palette: invalid, not beyond this reader's limit",
         b"ROFL\x00\x02\x01\x04\x4c\x02\xff\xff\xff\x00\x00\x00", fe, "before its group count", 16),
    ]
    # fmt: on


def attempt(data: bytes) -> str:
    """This reader's message for ``data``, or "" when it decodes."""
    try:
        decode_bytes(data, where="x")
    except RoflError as exc:
        return str(exc)
    return ""


def offset_of(message: str) -> int | None:
    """The byte offset a message of this reader names, or None."""
    found = re.match(r"byte (\d+): ", message)
    return int(found[1]) if found else None


def refusal(name: str, data: bytes, error: str, fragment: str, offset: int | None) -> str:
    """This reader's message for a file it must refuse, checked against the expected error and offset."""
    try:
        decode_bytes(data, where=f"{name}.rofl")  # the extension names the format when the magic cannot
    except RoflError as exc:
        message = str(exc).removeprefix(f"{name}.rofl: ")
        assert type(exc).__name__ == error and fragment in message, (name, exc)
        assert offset_of(message) == offset, (name, exc, offset)
        return message
    msg = f"{name} decoded"
    raise AssertionError(msg)


def main() -> None:
    manifest = {"valid": [], "invalid": []}
    for name, text, grid, palette, options in valid_cases():
        data = build(grid, palette, options)
        line_logic = solve(Puzzle.from_grid(grid, palette)).status
        assert line_logic == ("stalled" if name in NEEDS_SEARCH else "solved"), name
        decoded, info = decode_bytes(data, where=name)
        assert np.array_equal(decoded, grid), name
        (HERE / f"{name}.rofl").write_bytes(data)
        image_from_grid(grid, palette).save(HERE / f"{name}.png", optimize=True)
        manifest["valid"].append(
            {
                "file": f"{name}.rofl",
                "picture": f"{name}.png",
                "bytes": len(data),
                "form": info.rofl.form,
                "size": f"{grid.shape[1]}x{grid.shape[0]}",
                "colours": len(palette),
                "line_logic": "stalls" if name in NEEDS_SEARCH else "solves",
                "description": text,
            }
        )
    for name, text, grid, palette, data, limit, error, fragment, offset in limit_cases():
        message = refusal(name, data, error, fragment, offset)
        (HERE / f"{name}.rofl").write_bytes(data)
        image = Image.frombytes("P", (grid.shape[1], grid.shape[0]), grid.tobytes())
        image.putpalette(palette)
        image.save(HERE / f"{name}.png", optimize=True)
        manifest["valid"].append(
            {
                "file": f"{name}.rofl",
                "picture": f"{name}.png",
                "bytes": len(data),
                "form": "plain" if data[4] else "extended",
                "size": f"{grid.shape[1]}x{grid.shape[0]}",
                "colours": len(palette) // 3,
                "line_logic": "solves",
                "reader_limit": limit,
                "beyond_limit": {"result": "not decoded", "error": error, "offset": offset, "message": message},
                "description": text,
            }
        )
    for name, text, puzzle, cells, options in shape_cases():
        data = dumps(puzzle, cells if options.get("crc") else None, meta=options.get("meta"))
        assert solve(puzzle).status == "solved", name
        decoded, info = decode_bytes(data, where=name)
        assert np.array_equal(decoded, cells) and info.rofl.version == 2, name
        (HERE / f"{name}.rofl").write_bytes(data)
        entry = {"file": f"{name}.rofl", "bytes": len(data), "form": "extended", "version": 2}
        if isinstance(puzzle, HexPuzzle):
            (HERE / f"{name}.cells").write_text(cells_text(puzzle, cells), encoding="utf-8")
            entry |= {"cells": f"{name}.cells", "size": f"hexagon of side {puzzle.side}"}
        else:
            image_from_grid(cells, puzzle.palette).save(HERE / f"{name}.png", optimize=True)
            entry |= {"picture": f"{name}.png", "size": f"{cells.shape[1]}x{cells.shape[0]}"}
        sets = 0 if puzzle.color_sets is None else int(np.count_nonzero(puzzle.color_sets))
        entry |= {"colours": puzzle.n_colors, "set_groups": sets, "line_logic": "solves", "description": text}
        manifest["valid"].append(entry)
    for name, text, data, error, fragment, offset in [*invalid_cases(), *invalid_shape_cases(), *revision_4_cases()]:
        message = refusal(name, data, error, fragment, offset)
        (HERE / f"{name}.rofl").write_bytes(data)
        manifest["invalid"].append(
            {
                "file": f"{name}.rofl",
                "bytes": len(data),
                "error": error,
                "offset": offset,
                "fragment": fragment,
                "message": message,
                "description": text,
            }
        )
    (HERE / "vectors.json").write_text(json.dumps(manifest, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    write_readme(manifest)
    if "--hexdump" in sys.argv:
        for entry in manifest["valid"] + manifest["invalid"]:
            data = (HERE / entry["file"]).read_bytes()
            if len(data) <= 64:
                print(entry["file"], data.hex(" "))


def write_readme(manifest) -> None:
    lines = [
        "# ROFL test vectors",
        "",
        "Generated by `make_vectors.py` (run `PYTHONPATH=. python spec/vectors/make_vectors.py` from the",
        "repository root); `vectors.json` holds the same table for programs.  See `../ROFL.md`: each rule",
        "of its section 5 names its vectors, and every vector here is named by a rule.",
        "",
        "A reader's result for a file is one of three (section 5): **decoded** (the picture), **invalid**",
        "(the file breaks a rule, or its puzzle has no solution or several), or **not decoded** (the file",
        "is beyond the reader's limits, or its solver could not finish: a fault of the reader, not the file).",
        "",
        "## Valid files",
        "",
        "Each `NAME.rofl` must decode to `NAME.png` (a palette PNG whose palette is the file's palette), or,",
        "for a hexagon (version 2, `../ROFL.md` section 13), to `NAME.cells`: its palette indices, one line per",
        "row of the board, top to bottom, left to right (the file's cell order).",
        "`line logic` says whether line logic alone decodes it: a reader without a complete search must",
        "report *not decoded* for `stalls`, never *invalid*.  An entry with `reader_limit` is a valid file",
        "beyond a limit of this reader (`vectors.json`: `beyond_limit` holds what this reader says);",
        "a reader without that limit decodes it.",
        "",
        "| file | size | colours | form | bytes | line logic | what it exercises |",
        "|---|---|---|---|---|---|---|",
    ]
    for v in manifest["valid"]:
        text = v["description"]
        if "reader_limit" in v:
            beyond = v["beyond_limit"]
            text += f"; a reader limited to {v['reader_limit']} colours: not decoded ({beyond['message']})"
        lines.append(
            f"| `{v['file']}` | {v['size']} | {v['colours']} | {v['form']} | {v['bytes']} | {v['line_logic']} "
            f"| {text} |"
        )
    lines += [
        "",
        "## Invalid files",
        "",
        "Each must be rejected.  `FormatError` files break a rule of the format and must fail when parsed (or,",
        "for `crc-mismatch`, when the solved picture is checked); `UnsolvableError` files are well formed but",
        "their puzzle has no solution or several, so no picture may be produced.  The offset is the byte the",
        "rule names (section 5; empty: the rule names none).  The message column is what this implementation",
        "says (after the file name); other readers need only reject the file, naming that offset if they name one.",
        "",
        "| file | bytes | error | offset | what is wrong | message |",
        "|---|---|---|---|---|---|",
    ]
    for v in manifest["invalid"]:
        message = v["message"].replace("|", "\\|")
        offset = "" if v["offset"] is None else v["offset"]
        lines.append(f"| `{v['file']}` | {v['bytes']} | {v['error']} | {offset} | {v['description']} | {message} |")
    (HERE / "README.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
