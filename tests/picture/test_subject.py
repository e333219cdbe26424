"""The faces a made puzzle is judged by (rofl.picture.subject.face_boxes, face_likeness; issue 46)."""

from __future__ import annotations

import numpy as np
import pytest
import skimage.data

from rofl.picture.measures import lightness_ssim
from rofl.picture.subject import FACE_REGION_GROW, face_boxes, face_likeness


def test_face_likeness_measures_the_grown_box_only():
    rng = np.random.default_rng(0)
    source = rng.random((40, 40)) * 100
    box = (10.0, 12.0, 10.0, 8.0)  # rows 10-20, columns 12-20, grown by 0.6: rows 7-23, columns 9.6-22.4
    assert face_likeness(source, source.copy(), box) == pytest.approx(1.0)
    final = source.copy()
    final[:6], final[25:], final[:, :9], final[:, 23:] = 0, 100, 0, 100  # all outside the grown box
    assert face_likeness(source, final, box) == pytest.approx(1.0)
    final[15, 15] = 100 - source[15, 15]  # inside the face
    inside = (slice(7, 23), slice(9, 23))
    assert face_likeness(source, final, box) == pytest.approx(lightness_ssim(source[inside], final[inside]))
    assert face_likeness(source, final, box, grow=0) < 1
    assert FACE_REGION_GROW == 0.6
    # a region under 3 cells on a side says nothing
    assert face_likeness(source, final, (0.0, 0.0, 1.0, 1.0), grow=0) is None


def test_face_boxes_finds_the_astronauts_face_and_none_in_coffee():
    photo = skimage.data.astronaut()
    faces = face_boxes(photo)
    assert len(faces) == 1
    r, c, h, w = faces[0]
    # the face as benchmarks/_photos.py records it: (0.13, 0.34, 0.19, 0.19) of the photo's 512 pixels
    assert abs(r - 0.13 * 512) < 15 and abs(c - 0.34 * 512) < 15 and abs(w - 0.19 * 512) < 15
    assert face_boxes(skimage.data.coffee()) == []
