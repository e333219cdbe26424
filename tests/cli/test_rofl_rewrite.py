"""What ``rofl convert`` and ``rofl encode`` keep of a ROFL file (spec/ROFL.md
revision 4, issue 40): unknown ancillary chunks safe to copy (fourth letter
lower case) survive a ROFL-to-ROFL rewrite, others are dropped with a
warning; an empty metadata value given on the command line is stored."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from rofl.errors import FormatError
from rofl.formats import open_puzzle
from rofl.formats import rofl as codec
from rofl.puzzle import Puzzle
from tests.clirun import run

HANDS_UP = np.array(
    [[1, 0, 1, 0, 1], [1, 1, 1, 1, 1], [0, 1, 1, 1, 0], [0, 1, 1, 1, 0], [0, 1, 0, 1, 0]], dtype=np.uint8
)


def with_chunks(*chunks: tuple[bytes, bytes]) -> bytes:
    base = codec.dumps(Puzzle.from_grid(HANDS_UP), meta={"title": "t"})
    extra = b"".join(tag + len(payload).to_bytes(4, "big") + payload for tag, payload in chunks)
    return base[:-8] + extra + base[-8:]


def test_convert_keeps_safe_to_copy_chunks_and_drops_the_others(tmp_path):
    source = tmp_path / "in.rofl"
    source.write_bytes(with_chunks((b"zzzz", b"future"), (b"zzzZ", b"tied to the clues"), (b"abcd", b"")))
    target = tmp_path / "out.rofl"
    result = run("convert", source, target)
    assert result.exit_code == 0, result.output
    kept = codec.parse(target.read_bytes())
    assert kept.ancillary == (("zzzz", b"future"), ("abcd", b""))
    assert "unknown ROFL chunks dropped (not safe to copy): 'zzzZ'" in result.output
    # the canonical order: meta, pcrc, the kept chunks, IEND
    data = target.read_bytes()
    assert data.index(b"meta") < data.index(b"pcrc") < data.index(b"zzzz") < data.index(b"abcd") < data.index(b"IEND")


def test_convert_to_another_format_says_the_chunks_are_dropped(tmp_path):
    source = tmp_path / "in.rofl"
    source.write_bytes(with_chunks((b"zzzz", b"future")))
    result = run("convert", source, tmp_path / "out.clues")
    assert result.exit_code == 0, result.output
    assert "unknown ROFL chunks dropped (.clues has no room for them): 'zzzz'" in result.output


def test_a_file_without_unknown_chunks_converts_silently(tmp_path):
    source = tmp_path / "in.rofl"
    source.write_bytes(with_chunks())
    result = run("convert", source, tmp_path / "out.rofl")
    assert result.exit_code == 0 and "warning" not in result.output


def test_the_writer_refuses_a_chunk_it_may_not_write():
    puzzle = Puzzle.from_grid(HANDS_UP)
    for tag in ("ABCD", "meta", "pcrc", "ab1d", "abc", "QSET"):
        with pytest.raises(FormatError, match="chunk tag"):
            codec.dumps(puzzle, ancillary=[(tag, b"")])


def test_encode_keeps_an_empty_author(tmp_path):
    picture = tmp_path / "p.png"
    Image.fromarray((1 - HANDS_UP) * 255).convert("L").save(picture)
    out = tmp_path / "p.rofl"
    result = run("encode", picture, "-o", out, "--author", "", "--title", "Hands up")
    assert result.exit_code == 0, result.output
    assert dict(open_puzzle(out).puzzle.meta) == {"title": "Hands up", "author": ""}
    assert b"meta\x00\x00\x00\x07author\x00" in out.read_bytes()


def test_the_vectors_of_section_4(tmp_path):
    """``unknown-ancillary`` ('zzzz') keeps its chunk through a rewrite,
    ``unknown-unsafe-ancillary`` ('zzzZ') loses it."""
    from tests.places import REPO

    vectors = REPO / "spec" / "vectors"
    for name, kept in (("unknown-ancillary", (("zzzz", b"future data"),)), ("unknown-unsafe-ancillary", ())):
        result = run("convert", vectors / f"{name}.rofl", tmp_path / f"{name}.rofl")
        assert result.exit_code == 0, result.output
        assert codec.parse((tmp_path / f"{name}.rofl").read_bytes()).ancillary == kept
        assert ("dropped" in result.output) == (not kept)
