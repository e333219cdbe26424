"""Whether everyone can tell a palette's colours apart, and what to call them.

A colour puzzle's clues are told apart by their colour alone unless they
carry letters.  :func:`confusions` lists the ink colours (1 and up) that a
reader may mix up: two colours close in lightness (a grey-scale print, or a
reader who sees hue poorly), or close once seen through a simulated colour
vision deficiency: protanopia, deuteranopia and tritanopia as Machado,
Oliveira and Fernandes (2009) model them, at full severity, from
colour-science's ``colour.blindness`` (imported when first needed).
:func:`needs_letters` is the page's and the sheet's rule for letters.

:func:`colour_name` names a colour after the nearest (ΔE2000) of the 949
names of the xkcd colour survey (``rofl/data/xkcd-colours.txt``, CC0), so
that a key or a screen reader says "terracotta" rather than "#d2613f".

:func:`colour_likeness` asks the opposite question of a made puzzle: do
its colours follow the picture's at all?  A palette of shades of one hue
(a tabby cat in 4 browns) keeps the picture's lightness, so SSIM and the
edge F1 find it fine, while the features a person knows the picture by
when they differ in hue (green eyes, a pink nose) take the fur's colour.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from functools import cache
from importlib import resources

import numpy as np

from rofl.palette import RGB
from rofl.picture import colour

#: Least ΔE2000 between two ink colours seen through a simulated colour
#: vision deficiency before they count as confusable (the palette's own
#: least distance, ``--min-delta-e``, defaults to 20).
CVD_DELTA_E = 10.0
#: Least WCAG contrast ratio between two ink colours' lightness before they
#: count as confusable in grey (1 is the same luminance).
LIGHTNESS_CONTRAST = 1.25
#: The deficiencies simulated: colour-science's name and the reader's.
DEFICIENCIES = (("Protanomaly", "protanopia"), ("Deuteranomaly", "deuteranopia"), ("Tritanomaly", "tritanopia"))
#: :func:`colour_likeness` judges only pictures whose cells' chroma (a*, b*)
#: spreads at least this far (root mean square distance from its mean):
#: a grey picture has no colours to lose.
COLOUR_SPREAD = 3.0


@dataclass(frozen=True)
class Confusion:
    """Two palette colours (indices ``a < b``) a reader may mix up, and why:
    ``reason`` is ``"lightness"`` or a deficiency (``"protanopia"``...), with
    ``value`` the contrast ratio or the ΔE2000 under simulation."""

    a: int
    b: int
    reason: str
    value: float

    def __str__(self) -> str:
        if self.reason == "lightness":
            return f"colours {self.a} and {self.b} are close in lightness ({self.value:.2f}:1)"
        return f"colours {self.a} and {self.b} are close under simulated {self.reason} (ΔE2000 {self.value:.1f})"


@cache
def _machado(deficiency: str) -> np.ndarray:
    """The 3x3 linear-RGB matrix of a full-severity deficiency (Machado et al. 2009)."""
    with warnings.catch_warnings():
        # colour-science warns at import about optional plotting libraries it does not find
        warnings.simplefilter("ignore")
        # and that its tritanopia is the shift model's approximation (Machado et al. say so too)
        from colour.blindness import matrix_cvd_Machado2009

        return np.asarray(matrix_cvd_Machado2009(deficiency, 1.0), dtype=np.float64)


def simulate(rgb: np.ndarray, deficiency: str) -> np.ndarray:
    """``(..., 3)`` 0-255 sRGB colours as a reader with ``deficiency``
    (``"protanopia"``, ``"deuteranopia"`` or ``"tritanopia"``) sees them, 0-255 floats."""
    name = {reader: ours for ours, reader in DEFICIENCIES}[deficiency]
    linear = colour.srgb_to_linear(np.asarray(rgb, dtype=np.float64) / 255.0)
    seen = np.clip(linear @ _machado(name).T, 0.0, 1.0)
    return colour.linear_to_srgb(seen) * 255.0


def _luminance(rgb: np.ndarray) -> np.ndarray:
    linear = colour.srgb_to_linear(np.asarray(rgb, dtype=np.float64) / 255.0)
    return linear @ np.array([0.2126, 0.7152, 0.0722])


def confusions(palette: list[RGB] | np.ndarray) -> list[Confusion]:
    """The pairs of ink colours (palette indices 1 and up) a reader may mix
    up: WCAG contrast under :data:`LIGHTNESS_CONTRAST`, or ΔE2000 under
    :data:`CVD_DELTA_E` through any simulated deficiency.  One entry a pair
    (the first reason found: lightness, then protanopia, deuteranopia,
    tritanopia), in palette order."""
    rgb = np.asarray(palette, dtype=np.float64).reshape(-1, 3)
    k = len(rgb)
    out: dict[tuple[int, int], Confusion] = {}
    lum = _luminance(rgb)
    for i in range(1, k):
        for j in range(i + 1, k):
            hi, lo = max(lum[i], lum[j]), min(lum[i], lum[j])
            ratio = (hi + 0.05) / (lo + 0.05)
            if ratio < LIGHTNESS_CONTRAST:
                out[i, j] = Confusion(i, j, "lightness", float(ratio))
    if k > 2:
        for _, reader in DEFICIENCIES:
            lab = colour.rgb8_to_lab(np.clip(np.rint(simulate(rgb, reader)), 0, 255).astype(np.uint8))
            d = colour.pairwise_ciede2000(lab)
            for i in range(1, k):
                for j in range(i + 1, k):
                    if (i, j) not in out and d[i, j] < CVD_DELTA_E:
                        out[i, j] = Confusion(i, j, reader, float(d[i, j]))
    return [out[p] for p in sorted(out)]


def needs_letters(palette: list[RGB] | np.ndarray) -> bool:
    """Whether clues in ``palette``'s colours should carry letters: some two
    ink colours are :func:`confusions`."""
    return bool(confusions(palette))


def colour_likeness(source: np.ndarray, final: np.ndarray) -> float | None:
    """How well a grid's colours follow its picture's: the correlation of
    the cells' chroma (CIELAB a* and b* together, as vectors about their
    means) in the picture, ``source``, and in the grid, ``final`` (``(..., 3)``
    CIELAB arrays of one entry per cell, any shape).  1 when every change
    of hue and chroma in the picture is a like change in the grid, 0 when
    the grid's colours vary unrelated to the picture's; None for a picture
    whose chroma spreads less than :data:`COLOUR_SPREAD` (a grey picture),
    or a grid of one chroma."""
    x = np.asarray(source, dtype=np.float64)[..., 1:].reshape(-1, 2)
    y = np.asarray(final, dtype=np.float64)[..., 1:].reshape(-1, 2)
    x, y = x - x.mean(axis=0), y - y.mean(axis=0)
    xx, yy = float((x * x).sum()), float((y * y).sum())
    if not len(x) or np.sqrt(xx / len(x)) < COLOUR_SPREAD or yy == 0.0:
        return None
    return float((x * y).sum() / np.sqrt(xx * yy))


@cache
def _names() -> tuple[tuple[str, ...], np.ndarray]:
    text = resources.files("rofl.data").joinpath("xkcd-colours.txt").read_text(encoding="utf-8")
    names, rgb = [], []
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        name, code = line.split("\t")
        names.append(name)
        rgb.append([int(code[k : k + 2], 16) for k in (1, 3, 5)])
    return tuple(names), colour.rgb8_to_lab(np.array(rgb, dtype=np.uint8))


def colour_name(rgb: RGB) -> str:
    """The xkcd colour survey's name nearest ``rgb`` by ΔE2000: ``(210, 97, 63)``
    is "terracotta", ``(127, 35, 35)`` "dried blood"."""
    names, lab = _names()
    d = colour.delta_e(colour.rgb8_to_lab(np.array([rgb], dtype=np.uint8)), lab)[0]
    return names[int(np.argmin(d))]
