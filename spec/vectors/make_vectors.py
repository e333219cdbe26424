"""Regenerate the ROFL test vectors in this folder.

    PYTHONPATH=. python spec/vectors/make_vectors.py [--hexdump]

Valid vectors are written with the codec and checked: each must decode to
the picture stored beside it as a palette PNG (by line logic, except the
``NEEDS_SEARCH`` ones, which only a complete search decodes).  Invalid ones
are a valid file with one thing broken by hand (bytes spelled out below),
and ``vectors.json`` records the error each must raise.  ``README.md`` is
rewritten from the same table.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from rofl.decode import decode_bytes
from rofl.errors import RoflError
from rofl.formats.rofl import dumps
from rofl.pixelart import image_from_grid
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
    many = (np.arange(64 * 4, dtype=np.int64).reshape(4, 64) % 64).astype(np.uint8)
    many[:, 0] = 0
    pal64 = Palette([(255, 255, 255)] + [((i * 37) % 256, (i * 91) % 256, (i * 53) % 256) for i in range(1, 64)])
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


def invalid_cases():
    """(name, description, bytes, error class, message fragment)."""
    bw = build(hands_up(), BW, {})  # 52 4F 46 4C 05 05 02 ...
    colour = build(np.array([[1, 2], [0, 1]], np.uint8), RGBW, {})
    ext_full = build(hands_up(), BW, {"extended": True})
    ext, iend = ext_full[:-8], ext_full[-8:]  # chunks go before 'IEND'
    assert iend == b"IEND" + bytes(4)
    yield "bad-magic", "magic 'ROFX'", b"ROFX" + bw[4:], "FormatError", "not a ROFL file"
    yield "truncated-header", "file ends after the width", bw[:5], "FormatError", "ends inside the plain header"
    yield (
        "version-2",
        "extended header with version 2",
        ext_full[:5] + b"\x02" + ext_full[6:],
        "FormatError",
        "version 2",
    )
    yield "zero-height", "plain header with height 0", bw[:5] + b"\x00" + bw[6:], "FormatError", "height 0"
    yield "zero-colours", "colour count 0", bw[:6] + b"\x00" + bw[7:], "FormatError", "colour count 0"
    yield (
        "65-colours",
        "colour count 65 (legal in the format, above this reader's limit of 64)",
        bw[:6] + bytes([65]) + bytes(195) + b"\x00" * 10,
        "FormatError",
        "65 colours",
    )
    yield "truncated-palette", "file ends inside the palette", bw[:10], "FormatError", "palette of 2 colours"
    yield "truncated-clues", "file cut inside the last column clue", bw[:-1], "FormatError", "only 0 remain"
    yield (
        "count-too-large",
        "row 1 says 9 groups in a 5-cell row",
        bw[:13] + b"\x09" + bw[14:],
        "FormatError",
        ("9 groups cannot fit in 5 cells"),
    )
    # hands-up row 1 is 03 01 01 01 at offset 13
    yield "zero-length", "a group of length 0", bw[:14] + b"\x00" + bw[15:], "FormatError", "length 0"
    # colour file: 2x2, 4 colours, rows at 19: 02 01 01 01 02 (count, length, colour, length, colour)
    yield (
        "colour-out-of-range",
        "group colour 5 with 4 colours",
        colour[:23] + b"\x05" + colour[24:],
        "FormatError",
        ("colour 5 is outside the palette"),
    )
    yield (
        "colour-zero",
        "group colour 0 (the background)",
        colour[:23] + b"\x00" + colour[24:],
        "FormatError",
        ("colour 0 is the background"),
    )
    yield (
        "line-overflow",
        "row 2 is 5+1 in a 5-cell row",
        bw[:17] + b"\x02\x05\x01" + bw[19:],
        "FormatError",
        ("need 7 cells but the row has 5"),
    )
    yield (
        "totals-mismatch",
        "row 2 is 4 instead of 5: rows and columns disagree",
        bw[:18] + b"\x04" + bw[19:],
        ("FormatError"),
        "the rows hold",
    )
    yield (
        "trailing-bytes",
        "a plain file with a byte after the last column",
        bw + b"\x00",
        "FormatError",
        ("after the last column"),
    )
    yield (
        "unknown-critical-chunk",
        "extended file with chunk 'ABCD'",
        ext + chunk(b"ABCD", b"x") + iend,
        "FormatError",
        ("unknown critical chunk 'ABCD'"),
    )
    yield (
        "chunk-overrun",
        "chunk length beyond the end of the file",
        ext + b"meta" + (100).to_bytes(4, "big") + (b"title\x00x"),
        "FormatError",
        "length 100 but only 7 bytes remain",
    )
    yield "bad-chunk-tag", "chunk tag '12ab'", ext + chunk(b"12ab", b"") + iend, "FormatError", "not four ASCII letters"
    yield (
        "meta-not-utf8",
        "metadata value that is not UTF-8",
        ext + chunk(b"meta", b"title\x00\xff") + iend,
        ("FormatError"),
        "not UTF-8",
    )
    yield (
        "meta-twice",
        "metadata key 'title' twice",
        ext + chunk(b"meta", b"title\x00a") + chunk(b"meta", b"title\x00b") + iend,
        "FormatError",
        "appears twice",
    )
    yield (
        "crc-mismatch",
        "'pcrc' chunk that does not match the solved picture",
        ext + chunk(b"pcrc", b"\x12\x34\x56\x78") + iend,
        "FormatError",
        "CRC-32",
    )
    contradiction = b"ROFL\x02\x02\x02\xff\xff\xff\x00\x00\x00" + b"\x01\x02" + b"\x00" + b"\x01\x02" + b"\x00"
    yield "missing-iend", "extended file cut before its 'IEND' chunk", ext, "FormatError", "before its 'IEND'"
    yield "after-iend", "a byte after the 'IEND' chunk", ext_full + b"\x00", "FormatError", "after the 'IEND'"
    yield (
        "contradiction",
        "2x2 whose clues agree in total but have no solution",
        contradiction,
        ("UnsolvableError"),
        "no solution",
    )
    ambiguous = b"ROFL\x02\x02\x02\xff\xff\xff\x00\x00\x00" + b"\x01\x01" * 4
    yield (
        "ambiguous",
        "2x2 diagonal: two solutions, line logic determines no cell",
        ambiguous,
        "AmbiguousError",
        "several solutions",
    )


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
                "description": text,
            }
        )
    for name, text, data, error, fragment in invalid_cases():
        try:
            decode_bytes(data, where=name)
        except RoflError as exc:
            assert type(exc).__name__ == error and fragment in str(exc), (name, exc)
            message = str(exc)
        else:
            msg = f"{name} decoded"
            raise AssertionError(msg)
        (HERE / f"{name}.rofl").write_bytes(data)
        manifest["invalid"].append(
            {
                "file": f"{name}.rofl",
                "bytes": len(data),
                "error": error,
                "fragment": fragment,
                "message": message.removeprefix(f"{name}: "),
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
        "repository root); `vectors.json` holds the same table for programs.  See `../ROFL.md`.",
        "",
        "## Valid files",
        "",
        "Each `NAME.rofl` must decode to `NAME.png` (a palette PNG whose palette is the file's palette).",
        "",
        "| file | size | colours | form | bytes | what it exercises |",
        "|---|---|---|---|---|---|",
    ]
    for v in manifest["valid"]:
        lines.append(
            f"| `{v['file']}` | {v['size']} | {v['colours']} | {v['form']} | {v['bytes']} | {v['description']} |"
        )
    lines += [
        "",
        "## Invalid files",
        "",
        "Each must be rejected.  `FormatError` files break a rule of the format and must fail when parsed (or,",
        "for `crc-mismatch`, when the solved picture is checked); `UnsolvableError` files are well formed but",
        "their puzzle has no solution or several, so no picture may be produced.  The message column is what",
        "this implementation says (after the file name); other readers need only reject the file.",
        "",
        "| file | bytes | error | what is wrong | message |",
        "|---|---|---|---|---|",
    ]
    for v in manifest["invalid"]:
        message = v["message"].replace("|", "\\|")
        lines.append(f"| `{v['file']}` | {v['bytes']} | {v['error']} | {v['description']} | {message} |")
    (HERE / "README.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
