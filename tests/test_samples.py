"""The bundled sample puzzles made from the sample pictures line-solve to their stored pictures."""

from __future__ import annotations

import pytest

from rofl.formats import read_puzzle
from rofl.solver import solve
from tests.places import SAMPLES

PICTURES = sorted(p for p in SAMPLES.iterdir() if p.suffix in (".jpg", ".png"))


def test_every_picture_is_small_and_has_a_licence_line():
    readme = (SAMPLES / "README.md").read_text(encoding="utf-8")
    assert 4 <= len(PICTURES) <= 6
    for p in PICTURES:
        assert p.stat().st_size < 200_000
        assert f"`{p.name}`" in readme


@pytest.mark.parametrize("picture", PICTURES, ids=lambda p: p.stem)
def test_sample_puzzle_solves_to_its_picture(picture):
    made = [picture.with_suffix(ext) for ext in (".rofl", ".json") if picture.with_suffix(ext).exists()]
    assert made, f"no puzzle made from {picture.name}"
    for path in made:
        puzzle, solution = read_puzzle(path)
        result = solve(puzzle)
        assert result.status == "solved"
        if path.suffix == ".rofl":
            # a ROFL file stores the picture as its clues plus the picture's CRC-32
            from rofl.formats import rofl as codec

            stored = codec.read(path)
            assert stored.crc32 == codec.picture_crc(result.grid)
            assert stored.puzzle.meta.get("title") == picture.stem
        else:
            assert solution is not None and (result.grid == solution).all()
