"""Palettes everyone can tell apart, and colour names (rofl.picture.legibility, issue 43)."""

from __future__ import annotations

import numpy as np
import pytest

from rofl.picture import colour
from rofl.picture.legibility import colour_likeness, colour_name, confusions, needs_letters, simulate
from rofl.render.page import unknown_tint


def test_simulation_is_machado_2009_at_full_severity():
    # grey stays grey for every deficiency (each matrix's rows sum to 1), and red and green, distinct to most
    # eyes (ΔE2000 ~ 60), all but meet for a protanope
    for reader in ("protanopia", "deuteranopia", "tritanopia"):
        assert np.allclose(simulate(np.array([128.0, 128, 128]), reader), 128, atol=1.5)
    red, green = simulate(np.array([[255.0, 0, 0], [0, 128, 0]]), "protanopia").round().astype(np.uint8)
    lab = colour.rgb8_to_lab(np.array([red, green]))
    assert colour.ciede2000(lab[0], lab[1]) < 10


@pytest.mark.parametrize(
    ("palette", "reasons"),
    [
        ([(255, 255, 255), (255, 0, 0), (0, 128, 0)], {(1, 2): "protanopia"}),
        # the palette: two inks of the same lightness (1.01:1)
        ([(198, 187, 182), (211, 98, 62), (19, 13, 11), (119, 30, 28), (76, 50, 103)], {(3, 4): "lightness"}),
        ([(255, 255, 255), (0, 0, 0)], {}),
        ([(255, 255, 255), (31, 58, 147), (211, 84, 0), (246, 230, 218)], {}),
    ],
)
def test_confusions(palette, reasons):
    found = confusions(palette)
    assert {(c.a, c.b): c.reason for c in found} == reasons
    assert needs_letters(palette) == bool(reasons)
    for c in found:
        assert f"colours {c.a} and {c.b}" in str(c)


@pytest.mark.parametrize(
    ("rgb", "name"),
    [
        ((0xD2, 0x61, 0x3F), "terracotta"),  # not "red"
        ((0x7F, 0x23, 0x23), "crimson"),  # a dark red, maroon-like
        ((0xF6, 0xE6, 0xDA), "very light pink"),
        ((255, 255, 255), "white"),
        ((0, 0, 0), "black"),
    ],
)
def test_colour_names_from_the_xkcd_survey(rgb, name):
    assert colour_name(rgb) == name


def test_unknown_cells_get_a_tint_far_from_every_ink():
    assert unknown_tint(["#ffffff", "#000000"]) == "#ffffff"
    tint = unknown_tint(["#ffffff", "#f6e6da", "#d2613f"])  # a near-white ink: not white then
    lab = colour.rgb8_to_lab(np.array([[int(tint[k : k + 2], 16) for k in (1, 3, 5)], [0xF6, 0xE6, 0xDA]], np.uint8))
    assert colour.ciede2000(lab[0], lab[1]) >= 10


def test_colour_likeness_by_hand():
    # four cells whose chroma (a*, b*) about its mean is (+10, 0), (-10, 0), (0, +10), (0, -10)
    picture = np.array([[50.0, 10, 0], [50, -10, 0], [50, 0, 10], [50, 0, -10]])
    assert colour_likeness(picture, picture) == pytest.approx(1.0)
    # a grid at any lightness and twice the chroma follows it as well; mirrored, not at all
    assert colour_likeness(picture, picture * [0.5, 2, 2]) == pytest.approx(1.0)
    assert colour_likeness(picture, picture * [1, -1, -1]) == pytest.approx(-1.0)
    # the grid keeps the a* half and loses the b* half: sum x.y = 200, |x|^2 = 400, |y|^2 = 200
    kept = picture * [1, 1, 0]
    assert colour_likeness(picture, kept) == pytest.approx(200 / np.sqrt(400 * 200))
    # a grey picture has no colours to lose; a grid of one chroma follows nothing
    grey = picture * [1, 0.1, 0.1]  # spread 1 < COLOUR_SPREAD
    assert colour_likeness(grey, picture) is None
    assert colour_likeness(picture, picture * [1, 0, 0]) is None
    # any shape: a grid's (H, W, 3) as its (n, 3)
    assert colour_likeness(picture.reshape(2, 2, 3), kept.reshape(2, 2, 3)) == colour_likeness(picture, kept)
