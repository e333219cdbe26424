"""Uploads the studio's tests send: a photo, a bomb, a file that is not a picture, one too large."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image

from tests.places import SAMPLES

#: A real photo (scikit-image's cat).
PHOTO = SAMPLES / "chelsea.jpg"


def bomb() -> bytes:
    """A 20000 x 20000 PNG of a few tens of kilobytes: 400 million pixels once decoded."""
    buf = io.BytesIO()
    Image.new("1", (20_000, 20_000)).save(buf, format="PNG", optimize=True)
    return buf.getvalue()


def not_a_picture() -> bytes:
    return b"this is a shopping list, not a photo\n" * 10


def noise(nbytes: int) -> bytes:
    """Random bytes: larger than a small upload limit, and no picture."""
    return np.random.default_rng(0).integers(0, 256, nbytes, dtype=np.uint8).tobytes()
