"""Small pictures for the batch tests: a few distinct shapes that make puzzles in milliseconds."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image


def shape_picture(path: Path, seed: int, size: int = 24) -> Path:
    """A black-and-white picture of a few random rectangles (the same for the same ``seed``)."""
    rng = np.random.default_rng(seed)
    pixels = np.full((size, size), 255, np.uint8)
    for _ in range(4):
        top, left = rng.integers(0, size - 6, 2)
        pixels[top : top + rng.integers(3, 8), left : left + rng.integers(3, 8)] = 0
    Image.fromarray(pixels).save(path)
    return path


@pytest.fixture
def pictures(tmp_path: Path) -> Path:
    """A folder of three pictures and one broken one (``broken.png``)."""
    folder = tmp_path / "pictures"
    folder.mkdir()
    for seed, name in enumerate(("a.png", "b.png", "c.bmp")):
        shape_picture(folder / name, seed)
    (folder / "broken.png").write_bytes(b"\x89PNG\r\n\x1a\n not really")
    (folder / "notes.txt").write_text("not a picture: a folder's listing leaves it out")
    return folder
