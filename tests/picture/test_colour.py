"""The lean colour conversions and ΔE2000 of :mod:`rofl.picture.colour`
against scikit-image's, which they replace for speed: the same figures."""

from __future__ import annotations

import warnings

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from skimage.color import deltaE_ciede2000, lab2rgb, rgb2lab

from rofl.picture.colour import ciede2000, lab_to_rgb8, nearest_delta_e, pairwise_ciede2000, rgb8_to_lab

rgb8 = arrays(np.uint8, st.tuples(st.integers(1, 12), st.just(3)))
# CIELAB colours inside and outside the sRGB gamut, greys (no hue) among them
lab = st.tuples(st.floats(0, 100), st.sampled_from([0.0, 1e-9]) | st.floats(-128, 127), st.floats(-128, 127))
labs = st.lists(lab, min_size=1, max_size=10).map(lambda v: np.array(v, dtype=np.float64))


@given(rgb8)
def test_rgb8_to_lab_is_scikit_images(rgb):
    want = rgb2lab(rgb.reshape(-1, 1, 3) / 255.0).reshape(rgb.shape)
    np.testing.assert_array_equal(rgb8_to_lab(rgb), want)


@given(labs)
def test_lab_to_rgb8_is_scikit_images(values):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # clipping out-of-gamut colours
        want = np.clip(np.rint(lab2rgb(values.reshape(-1, 1, 3)).reshape(values.shape) * 255), 0, 255)
    np.testing.assert_array_equal(lab_to_rgb8(values), want.astype(np.uint8))


@given(rgb8)
def test_srgb_round_trip(rgb):
    np.testing.assert_array_equal(lab_to_rgb8(rgb8_to_lab(rgb)), rgb)


@given(labs, labs)
def test_ciede2000_is_scikit_images(a, b):
    got = ciede2000(a[:, None, :], b[None, :, :])
    np.testing.assert_array_equal(got, deltaE_ciede2000(a[:, None, :], b[None, :, :]))


@given(labs)
def test_pairwise_ciede2000_matches(values):
    # plain Python floats: the same formula, to rounding
    got = pairwise_ciede2000(values)
    want = deltaE_ciede2000(values[:, None, :], values[None, :, :])
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-9)
    np.testing.assert_array_equal(np.diag(got), 0)


@given(labs, labs)
def test_nearest_delta_e_matches(cells, palette):
    # one sine and cosine of the mean hue for four cosines: the same figure, to rounding
    want = deltaE_ciede2000(cells[:, None, :], palette[None, :, :]).min(axis=1)
    np.testing.assert_allclose(nearest_delta_e(cells, palette), want, rtol=1e-12, atol=1e-9)
