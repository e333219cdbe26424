"""The subject of a picture: the part a small grid should spend its cells on.

``rofl make --crop auto`` (:func:`crop_to_subject`) cuts the picture to a
box around its subject before it is fitted: around the largest face that
scikit-image's LBP frontal-face cascade finds (head and shoulders), or,
without a face, around the salient part (frequency-tuned saliency, Achanta
et al. 2009: colours far from the picture's mean), when that part is clearly smaller than the picture.  Both
shapes fit the cut picture as they fit any other.

:func:`face_boxes` and :func:`face_likeness` tell whether a made grid kept
the face of a portrait (``rofl make``'s hint, :mod:`rofl.hints`): the
largest face the cascade finds in the picture, and the lightness SSIM of
the grid against the picture over the face's box grown to take in the hair
and the head's outline.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rofl.errors import OptionError

#: The values of ``crop``: ``none`` keeps the whole picture.
CROPS = ("none", "auto")
#: Pixels on the longer side the subject is looked for at.
LOOK_PIXELS = 256
#: A face's box grows by this many face widths on each side (and as much
#: more below, for the shoulders), so that the head and its outline show.
FACE_MARGIN = 0.6
#: The salient box is used only when it leaves out at least this share of
#: the picture's area; a picture whose subject fills it stays whole.
LEAVES_OUT = 0.2
#: The share of the saliency the box holds along each axis, and its margin.
MASS = 0.9
PAD = 0.06
#: :func:`face_likeness` measures a face's box grown by this share of its
#: size (half on each side): the hair and the head's outline against the
#: background are what tells a face at 30-50 cells, more than its features.
FACE_REGION_GROW = 0.6
#: :func:`face_boxes` keeps the faces this many of the cascade's windows
#: find: on the photos of ``benchmarks/_photos.py`` at 30-50 cells, 4 also
#: finds a face in a dahlia and in a page of text, 6 only the portraits'.
FACE_NEIGHBOURS = 6


def check_crop(crop: Any) -> str:
    """``crop`` if it is one of :data:`CROPS`, else an :class:`OptionError`."""
    if not isinstance(crop, str) or crop not in CROPS:
        msg = f"crop must be one of {', '.join(CROPS)}, not {crop!r}"
        raise OptionError(msg)
    return crop


def crop_to_subject(
    pixels: np.ndarray, crop: str = "auto", *, background: tuple[int, int, int] = (255, 255, 255)
) -> np.ndarray:
    """The part of ``pixels`` around its subject (all of it for ``crop="none"``).

    Parameters
    ----------
    pixels : (H, W, C) array from :func:`rofl.picture.load_pixels`
    crop : {"none", "auto"}
    background : (r, g, b)
        What transparent pixels are composited onto (as the cells are): a
        transparent part of the picture is no subject.

    Returns
    -------
    (h, w, C) array: a view of ``pixels``
    """
    check_crop(crop)
    if crop == "none":
        return pixels
    x0, y0, x1, y1 = subject_box(pixels, background=background)
    return pixels[y0:y1, x0:x1]


def subject_box(pixels: np.ndarray, *, background: tuple[int, int, int] = (255, 255, 255)) -> tuple[int, int, int, int]:
    """``(x0, y0, x1, y1)`` pixels: the box :func:`crop_to_subject` keeps
    (transparent pixels composited onto ``background``)."""
    from skimage.color import rgb2gray

    h, w = pixels.shape[:2]
    rgb, scale = _small(pixels, background)
    faces = find_faces(rgb2gray(rgb))
    if faces:
        r, c, fh, fw = max(faces, key=lambda f: f[2] * f[3])
        m = FACE_MARGIN * max(fw, fh)
        box = (c - m, r - m, c + fw + m, r + fh + 2 * m)
    else:
        box = _salient_box(rgb)
        if box is None:
            return 0, 0, w, h
    bx0, by0, bx1, by1 = (v / scale for v in box)
    x0, y0 = max(0, int(np.floor(bx0))), max(0, int(np.floor(by0)))
    x1, y1 = min(w, int(np.ceil(bx1))), min(h, int(np.ceil(by1)))
    if x1 - x0 < 2 or y1 - y0 < 2:
        return 0, 0, w, h
    return x0, y0, x1, y1


def _small(pixels: np.ndarray, background: tuple[int, int, int] = (255, 255, 255)) -> tuple[np.ndarray, float]:
    """The picture's RGB (0-1, an alpha composited onto ``background``) at
    :data:`LOOK_PIXELS` on its longer side, and the scale.

    A picture more than twice that size is first averaged over whole blocks
    of pixels, a strip of rows at a time, to between two and four times it
    (:func:`_blocks`), so that no float copy of the whole picture is made (a
    64 Mpx picture would need 1.5 GB for one)."""
    from skimage.transform import resize

    h, w = pixels.shape[:2]
    scale = min(1.0, LOOK_PIXELS / max(h, w))
    rgb = _blocks(pixels, max(1, int(1 / scale) // 2), background)
    small = resize(rgb, (max(1, round(h * scale)), max(1, round(w * scale))), anti_aliasing=scale < 1)
    return small, scale


def _blocks(pixels: np.ndarray, factor: int, background: tuple[int, int, int]) -> np.ndarray:
    """``pixels`` as RGB 0-1 (float64; an alpha channel composited onto
    ``background`` in sRGB), the mean of each ``factor`` x ``factor`` block
    (:func:`~rofl.picture.fit.block_means`)."""
    from rofl.picture.fit import block_means

    top = 255.0 if pixels.dtype == np.uint8 else 65535.0
    bg = np.asarray(background, dtype=np.float64) / 255.0

    def rgb(rows: np.ndarray) -> np.ndarray:
        out = rows[:, :, :3] / top
        if rows.shape[2] == 4:
            alpha = rows[:, :, 3:4] / top
            out = out * alpha + bg * (1.0 - alpha)
        return out

    return block_means(pixels, factor, rgb)


def find_faces(grey: np.ndarray, *, neighbours: int = 4, smallest: int = 24) -> list[tuple[int, int, int, int]]:
    """Frontal faces in a grey (0-1) picture by scikit-image's LBP cascade:
    ``(row, col, height, width)`` boxes (an empty list when none), each
    found by at least ``neighbours`` overlapping windows and at least
    ``smallest`` pixels wide (the cascade's window, 24, at the least)."""
    from skimage.data import lbp_frontal_face_cascade_filename
    from skimage.feature import Cascade

    h, w = grey.shape
    smallest = max(24, smallest)
    if min(h, w) < smallest:
        return []
    detector = Cascade(lbp_frontal_face_cascade_filename())
    found = detector.detect_multi_scale(
        img=grey,
        scale_factor=1.2,
        step_ratio=1,
        min_size=(smallest, smallest),
        max_size=(h, w),
        min_neighbor_number=neighbours,
    )
    return [(int(f["r"]), int(f["c"]), int(f["height"]), int(f["width"])) for f in found]


def _salient_box(rgb: np.ndarray) -> tuple[float, float, float, float] | None:
    """The box holding most of the salient part, or None when it would leave
    out less than :data:`LEAVES_OUT` of the picture.

    Saliency is frequency-tuned (Achanta et al. 2009): how far each pixel's
    softened CIELAB colour is from the picture's mean colour.  The box holds
    :data:`MASS` of the saliency above its mean along each axis, padded by
    :data:`PAD` of the picture's longer side.
    """
    from scipy.ndimage import gaussian_filter
    from skimage.color import rgb2lab

    h, w = rgb.shape[:2]
    if min(h, w) < 8:
        return None
    lab = rgb2lab(gaussian_filter(rgb, (max(h, w) / 200, max(h, w) / 200, 0)))
    saliency = np.linalg.norm(lab - lab.reshape(-1, 3).mean(axis=0), axis=2)
    weight = np.clip(saliency - saliency.mean(), 0.0, None)
    if weight.sum() <= 0:
        return None
    tail = (1 - MASS) / 2

    def span(marginal: np.ndarray) -> tuple[float, float]:
        cum = np.cumsum(marginal) / marginal.sum()
        return float(np.searchsorted(cum, tail)), float(np.searchsorted(cum, 1 - tail) + 1)

    (x0, x1), (y0, y1) = span(weight.sum(axis=0)), span(weight.sum(axis=1))
    pad = PAD * max(h, w)
    x0, y0, x1, y1 = max(0.0, x0 - pad), max(0.0, y0 - pad), min(float(w), x1 + pad), min(float(h), y1 + pad)
    if (x1 - x0) * (y1 - y0) > (1 - LEAVES_OUT) * h * w:
        return None
    return x0, y0, x1, y1


def face_boxes(
    rgb: np.ndarray, *, neighbours: int = FACE_NEIGHBOURS, smallest: float = 0.0
) -> list[tuple[float, float, float, float]]:
    """The frontal faces in an ``(H, W, 3)`` picture (:func:`find_faces` at
    :data:`LOOK_PIXELS` on the longer side, found by ``neighbours``
    windows, at least ``smallest`` of the picture's pixels wide: a smaller
    face is not looked for, which saves time): ``(row, col, height, width)``
    in the picture's own pixels, largest first."""
    from skimage.color import rgb2gray

    small, scale = _small(rgb)
    found = find_faces(rgb2gray(small), neighbours=neighbours, smallest=int(smallest * scale))
    boxes = [tuple(v / scale for v in face) for face in found]
    return sorted(boxes, key=lambda f: -f[2] * f[3])


def face_likeness(
    source: np.ndarray, final: np.ndarray, box: tuple[float, float, float, float], *, grow: float = FACE_REGION_GROW
) -> float | None:
    """The lightness SSIM (:func:`rofl.picture.measures.lightness_ssim`) of a
    grid's ``final`` lightness against the picture's ``source`` lightness
    (``(H, W)`` L* arrays at the grid's scale) over a face's ``box``
    (``(row, col, height, width)`` in cells) grown by ``grow`` of its size;
    None where that region is under 3 cells on a side."""
    from rofl.picture.measures import lightness_ssim

    r, c, fh, fw = box
    h, w = source.shape
    r0, r1 = max(0, int(np.floor(r - grow * fh / 2))), min(h, int(np.ceil(r + fh + grow * fh / 2)))
    c0, c1 = max(0, int(np.floor(c - grow * fw / 2))), min(w, int(np.ceil(c + fw + grow * fw / 2)))
    if min(r1 - r0, c1 - c0) < 3:
        return None
    return lightness_ssim(source[r0:r1, c0:c1], final[r0:r1, c0:c1])
