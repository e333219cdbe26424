"""Quantise: cell colours into palette indices, and the cost of every other choice.

Black and white by a threshold on CIELAB lightness (Otsu's by default);
colour by a perceptual palette found by k-means in CIELAB, or a palette the
caller gives; optionally dithered (:mod:`.dither`).  The cost array
:func:`quantise` returns tells the refinement which changes would show least.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from rofl.errors import OptionError
from rofl.picture import colour
from rofl.picture.dither import check_dither, dither_palette, dither_two
from rofl.puzzle import Palette


@dataclass(eq=False)
class Quantised:
    """A grid of palette indices and what the refinement needs to know about it.

    Attributes
    ----------
    grid : (H, W) uint8 array of palette indices
    palette : Palette (index 0 is the background)
    cost : (H, W, K) float64 array
        How visibly wrong colour ``k`` is for each cell: ΔE2000 between the
        cell's averaged colour and palette colour ``k`` (colour puzzles);
        for black and white, the distance (in L*) of the cell's lightness
        from the threshold for the colour on the wrong side, 0 for the
        right side.
    lab : (H, W, 3) float64 array
        CIELAB colour of every cell (area-averaged source).
    threshold : float or None
        Black-and-white threshold as an sRGB grey level 0-255.
    """

    grid: np.ndarray
    palette: Palette
    cost: np.ndarray
    lab: np.ndarray
    threshold: float | None = None


def kmeans_lab(
    points: np.ndarray, k: int, *, fixed: np.ndarray | None = None, seed: int = 0, n_init: int = 4, max_iter: int = 100
) -> np.ndarray:
    """Deterministic k-means (k-means++ seeding, Lloyd iterations) on CIELAB points.

    Parameters
    ----------
    points : (N, 3) float array
    k : int
        Centres wanted (at most the number of distinct points).
    fixed : (3,) float array, optional
        A centre that must stay where it is (a background colour the user
        chose); it counts towards ``k``.
    seed : int
        The random generator's seed: the same picture always gives the
        same palette.

    Returns
    -------
    (k, 3) float64 array of centres (``fixed`` first when given)
    """
    pts = np.asarray(points, dtype=np.float64)
    n = len(pts)
    rng = np.random.default_rng(seed)
    n_fixed = 0 if fixed is None else 1
    sq = (pts * pts).sum(axis=1)

    def sq_dist(centres: np.ndarray) -> np.ndarray:
        # |p - c|^2 = |p|^2 - 2 p.c + |c|^2: one matrix product instead of an (N, k, 3) temporary
        d = sq[:, None] - 2.0 * (pts @ centres.T) + (centres * centres).sum(axis=1)[None, :]
        return np.maximum(d, 0.0)

    best, best_inertia = None, np.inf
    for _ in range(n_init):
        centres = np.empty((k, 3))
        centres[0] = fixed if fixed is not None else pts[rng.integers(n)]
        d2 = sq_dist(centres[:1])[:, 0]
        for i in range(1, k):
            total = d2.sum()
            idx = int(rng.choice(n, p=d2 / total)) if total > 0 else int(rng.integers(n))
            centres[i] = pts[idx]
            d2 = np.minimum(d2, sq_dist(centres[i : i + 1])[:, 0])
        for _ in range(max_iter):
            dist = sq_dist(centres)
            label = dist.argmin(axis=1)
            counts = np.bincount(label, minlength=k).astype(np.float64)
            sums = np.stack([np.bincount(label, weights=pts[:, j], minlength=k) for j in range(3)], axis=1)
            new = centres.copy()
            filled = counts > 0
            filled[:n_fixed] = False
            new[filled] = sums[filled] / counts[filled, None]
            empty = np.flatnonzero(counts == 0)
            empty = empty[empty >= n_fixed]
            if empty.size:  # an empty cluster takes the points worst served so far
                worst = np.argsort(dist.min(axis=1))[::-1][: empty.size]
                new[empty] = pts[worst]
            moved = np.abs(new - centres).max()
            centres = new
            if moved < 1e-6:
                break
        inertia = sq_dist(centres).min(axis=1).sum()
        if inertia < best_inertia - 1e-9:
            best, best_inertia = centres, inertia
    assert best is not None
    return best


def quantise(
    cells_linear: np.ndarray,
    *,
    colors: int = 2,
    palette: Any = None,
    background: Any = None,
    threshold: float | None = None,
    dither: str = "none",
) -> Quantised:
    """Turn cell colours into palette indices.

    Parameters
    ----------
    cells_linear : (H, W, 3) float array
        Linear-light RGB of every cell (from :func:`rofl.picture.cell_colors`).
    colors : int
        2: black and white (or the two colours of ``palette``) by a
        lightness threshold.  3-64: a palette of that many colours found by
        k-means in CIELAB (fewer when the picture has fewer distinct colours).
    palette : str or sequence of colours, optional
        Use these colours instead of finding them (``colors`` is then the
        palette's size).
    background : colour, optional
        The background (palette index 0).  Default: the colour that covers
        the most cells.  With an automatic palette the colour is kept
        exactly as given; with a given palette it must be one of its colours.
    threshold : float, optional
        Black-and-white threshold as an sRGB grey level 0-255 (cells darker
        than it take the dark colour).  Default: Otsu's threshold of the
        cells' lightness.
    dither : {"none", "ordered", "floyd-steinberg"}

    Returns
    -------
    Quantised

    Raises
    ------
    OptionError
        An unknown dither, a bad palette or background, a number of colours
        outside 2-64, or a threshold outside 0-255 or for more than 2 colours.
    """
    check_dither(dither)
    given = colour.parse_palette(palette) if palette is not None else None
    if given is not None:
        colors = len(given)
    if isinstance(colors, bool) or not isinstance(colors, int | np.integer) or not 2 <= colors <= 64:
        msg = f"colors must be a whole number from 2 to 64, not {colors!r}"
        raise OptionError(msg)
    bg = colour.parse_color(background, "background") if background not in (None, "auto") else None
    if given is not None and bg is not None and bg not in given:
        msg = f"background #{bg[0]:02x}{bg[1]:02x}{bg[2]:02x} is not one of the palette's colours"
        raise OptionError(msg)
    if threshold is not None:
        if (
            isinstance(threshold, bool)
            or not isinstance(threshold, int | float | np.number)
            or not (0 <= threshold <= 255)
        ):
            msg = f"threshold must be a grey level from 0 to 255, not {threshold!r}"
            raise OptionError(msg)
        if colors != 2:
            msg = "a threshold only applies to black-and-white (2-colour) puzzles"
            raise OptionError(msg)

    from skimage.color import rgb2lab

    srgb = colour.linear_to_srgb(cells_linear)
    lab = rgb2lab(srgb)
    h, w = lab.shape[:2]

    if colors == 2:
        if given is None:
            two = [(255, 255, 255), (0, 0, 0)]
            if bg is not None and bg not in two:
                msg = "for a black-and-white puzzle the background must be white or black"
                raise OptionError(msg)
        else:
            two = given
        pal_lab = colour.rgb8_to_lab(np.array(two))
        light = int(np.argmax(pal_lab[:, 0]))
        dark = 1 - light
        big_l = lab[:, :, 0]
        if threshold is not None:
            t = colour.lightness_of_grey(float(threshold))
        elif np.ptp(big_l) < 1e-6:
            t = 50.0  # one colour only: a dark picture stays dark, a light one light
        else:
            from skimage.filters import threshold_otsu

            t = float(threshold_otsu(big_l))
            # Otsu puts the threshold inside the lower class (<= t); cells at t are dark
            t = float(np.nextafter(t, np.inf))
        is_light = big_l >= t
        if dither != "none":
            lo = big_l[~is_light].mean() if (~is_light).any() else 0.0
            hi = big_l[is_light].mean() if is_light.any() else 100.0
            spread = max(hi - lo, 1.0)
            v = (big_l - t) / spread + 0.5
            is_light = dither_two(v, dither)
        grid = np.where(is_light, light, dark).astype(np.uint8)
        off = np.abs(big_l - t)
        cost = np.zeros((h, w, 2))
        cost[:, :, dark] = np.where(big_l >= t, off, 0.0)
        cost[:, :, light] = np.where(big_l < t, off, 0.0)
        rgb = np.array(two, dtype=np.uint8)
        grid, rgb, cost = _order_background(grid, rgb, cost, bg)
        return Quantised(grid, Palette.from_array(rgb), cost, lab, colour.grey_of_lightness(t))

    if given is not None:
        rgb = np.array(given, dtype=np.uint8)
    else:
        flat = lab.reshape(-1, 3)
        distinct = np.unique(np.round(flat, 3), axis=0)
        k = int(min(colors, len(distinct) + (1 if bg is not None else 0)))
        fixed = colour.rgb8_to_lab(np.array(bg)) if bg is not None else None
        centres = kmeans_lab(flat, max(k, 1), fixed=fixed)
        rgb = colour.lab_to_rgb8(centres)
        if bg is not None:
            rgb[0] = bg
        _, first = np.unique(rgb, axis=0, return_index=True)
        rgb = rgb[np.sort(first)]
        if len(rgb) < 2:  # a one-colour picture: add its opposite so the palette has ink
            other = (0, 0, 0) if colour.rgb8_to_lab(rgb[0])[0] >= 50 else (255, 255, 255)
            if tuple(int(v) for v in rgb[0]) == other:
                other = (255, 255, 255) if other == (0, 0, 0) else (0, 0, 0)
            rgb = np.vstack([rgb, np.array(other, dtype=np.uint8)])
    pal_lab = colour.rgb8_to_lab(rgb)
    cost = colour.delta_e(lab, pal_lab)
    if dither == "none":
        grid = cost.argmin(axis=2).astype(np.uint8)
    else:
        grid = dither_palette(cells_linear, lab, rgb, pal_lab, dither)
    grid, rgb, cost = _order_background(grid, rgb, cost, bg)
    return Quantised(grid, Palette.from_array(rgb), cost, lab, None)


def _order_background(grid: np.ndarray, rgb: np.ndarray, cost: np.ndarray, bg):
    """Move the background to index 0: the given colour, else the one covering the most cells."""
    if bg is not None:
        matches = np.flatnonzero((rgb == np.array(bg, dtype=np.uint8)).all(axis=1))
        b = int(matches[0])
    else:
        counts = np.bincount(grid.ravel(), minlength=len(rgb))
        b = int(np.argmax(counts))  # ties: the lower index, so the result is deterministic
    if b == 0:
        return grid, rgb, cost
    order = np.array([b] + [i for i in range(len(rgb)) if i != b])
    inverse = np.argsort(order)
    return inverse[grid].astype(np.uint8), rgb[order], cost[:, :, order]
