"""The photo set of issue 46: every openly licensed photo we can get here.

Used by ``benchmarks/styles.py`` and ``tools/gallery.py``.  Photos that
scikit-image ships (a dependency of rofl) are loaded from it; the others come
from packages that are no dependency of rofl (matplotlib, scikit-learn,
mahotas, face_recognition) and are kept as small copies (at most 480 pixels
on a side, JPEG) in ``benchmarks/data/photos/``, whose README gives each
one's source and licence.

``FACES`` holds, for each portrait, the box of its face as shares of the
photo's height and width ``(top, left, height, width)``: the box scikit-image's
LBP frontal-face cascade finds in the photo (:func:`rofl.picture.measures.find_faces`),
checked by eye to be the face and not one of the cascade's false finds.  A
puzzle keeps the face when the cascade finds a box overlapping it
(:func:`rofl.picture.measures.faces_kept`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
COPIES = HERE / "data" / "photos"


@dataclass(frozen=True)
class Photo:
    """One photo of the set.

    Attributes
    ----------
    name : str
    kind : str
        ``portrait``, ``person``, ``pet``, ``object``, ``landscape`` or ``text``.
    source : str
        Where it comes from (package and file, or ``skimage.data`` function).
    licence : str
    face : (top, left, height, width) floats or None
        The face's box (shares of the photo), for portraits.
    """

    name: str
    kind: str
    source: str
    licence: str
    face: tuple[float, float, float, float] | None = None

    def load(self) -> np.ndarray:
        """``(H, W, 3)`` uint8 sRGB pixels."""
        if self.source.startswith("skimage.data."):
            import skimage.data

            pixels = getattr(skimage.data, self.source.rsplit(".", 1)[1])()
        else:
            from PIL import Image

            with Image.open(COPIES / f"{self.name}.jpg") as im:
                pixels = np.asarray(im.convert("RGB"))
        if pixels.ndim == 2:
            pixels = np.repeat(pixels[:, :, None], 3, axis=2)
        return np.ascontiguousarray(pixels[:, :, :3])


PHOTOS: tuple[Photo, ...] = (
    Photo("astronaut", "portrait", "skimage.data.astronaut", "public domain (NASA)", (0.13, 0.34, 0.19, 0.19)),
    Photo(
        "grace_hopper",
        "portrait",
        "matplotlib 3.11 mpl-data/sample_data/grace_hopper.jpg",
        "public domain (US Navy photograph)",
        (0.188, 0.315, 0.362, 0.425),
    ),
    Photo(
        "luispedro",
        "portrait",
        "mahotas 1.4.19 mahotas/demos/data/luispedro.jpg",
        "MIT (mahotas; a photo of its author, Luis Pedro Coelho)",
        (0.15, 0.055, 0.378, 0.475),
    ),
    Photo(
        "obama",
        "portrait",
        "face_recognition 1.3.0 sdist tests/test_images/obama.jpg",
        "public domain (White House photograph, a work of the US federal government)",
        (0.05, 0.438, 0.231, 0.289),
    ),
    Photo(
        "obama2",
        "portrait",
        "face_recognition 1.3.0 sdist tests/test_images/obama2.jpg",
        "public domain (White House photograph, a work of the US federal government)",
        (0.209, 0.257, 0.253, 0.485),
    ),
    Photo(
        "biden",
        "portrait",
        "face_recognition 1.3.0 sdist tests/test_images/biden.jpg (top 3:4 kept)",
        "public domain (White House photograph, a work of the US federal government)",
        (0.159, 0.442, 0.259, 0.346),
    ),
    Photo(
        "obama3",
        "portrait",
        "face_recognition 1.3.0 sdist tests/test_images/obama3.jpg (top 3:4 kept)",
        "public domain (White House photograph, a work of the US federal government)",
        (0.138, 0.446, 0.166, 0.221),
    ),
    Photo("camera", "person", "skimage.data.camera", "CC0 (Lav Varshney)"),
    Photo("chelsea", "pet", "skimage.data.chelsea", "CC0 (Stefan van der Walt)"),
    Photo("coffee", "object", "skimage.data.coffee", "CC0 (Rachel Michetti)"),
    Photo("rocket", "object", "skimage.data.rocket", "public domain (SpaceX)"),
    Photo("coins", "object", "skimage.data.coins", "no known copyright restrictions (Brooklyn Museum)"),
    Photo(
        "flower",
        "object",
        "scikit-learn 1.9 sklearn/datasets/images/flower.jpg",
        "CC BY 2.0 (vultilion, Flickr)",
    ),
    Photo(
        "china",
        "landscape",
        "scikit-learn 1.9 sklearn/datasets/images/china.jpg",
        "CC BY 2.0 (danielbuechele, Flickr)",
    ),
    Photo("text", "text", "skimage.data.text", "public domain (Wikipedia File:Corner.png)"),
    Photo("page", "text", "skimage.data.page", "scikit-image sample data (BSD-3-Clause package)"),
)

BY_NAME = {p.name: p for p in PHOTOS}
