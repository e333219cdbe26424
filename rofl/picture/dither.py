"""Dithering: ordered (Bayer) and Floyd–Steinberg, for two colours or a palette.

:func:`rofl.picture.quantise` calls these when asked to dither.  Dithering
trades clean areas for texture, and texture multiplies 1-cell clues and
ambiguity, so :func:`rofl.make` warns with :data:`DITHER_WARNING`.
"""

from __future__ import annotations

import numpy as np

from rofl.errors import OptionError
from rofl.picture.colour import srgb_to_linear

DITHERS = ("none", "ordered", "floyd-steinberg")
DITHER_WARNING = (
    "dithering multiplies clues and ambiguity: expect many more 1-cell clues and more cells changed by refinement"
)


def check_dither(dither: str) -> None:
    """Refuse a dither name that is not one of :data:`DITHERS` (:class:`OptionError`)."""
    if dither not in DITHERS:
        msg = f"unknown dither {dither!r} (use {', '.join(DITHERS)})"
        raise OptionError(msg)


def dither_two(v: np.ndarray, dither: str) -> np.ndarray:
    """Which cells of a black-and-white picture take the light colour.

    Parameters
    ----------
    v : (H, W) float array
        Each cell's lightness scaled so that 0.5 is the threshold (0 the
        dark colour, 1 the light one).
    dither : {"ordered", "floyd-steinberg"}

    Returns
    -------
    (H, W) bool array
    """
    if dither == "ordered":
        return v >= _tile(_bayer(), v.shape)
    return _floyd_steinberg_bw(v)


def dither_palette(
    cells_linear: np.ndarray, lab: np.ndarray, rgb: np.ndarray, pal_lab: np.ndarray, dither: str
) -> np.ndarray:
    """Palette indices of a dithered colour picture.

    Parameters
    ----------
    cells_linear : (H, W, 3) float array
        Linear-light RGB of every cell (ordered dithering mixes there).
    lab : (H, W, 3) float array
        The same cells in CIELAB (Floyd–Steinberg spreads its error there).
    rgb : (K, 3) uint8 array
        The palette.
    pal_lab : (K, 3) float array
        The palette in CIELAB.
    dither : {"ordered", "floyd-steinberg"}

    Returns
    -------
    (H, W) uint8 array of palette indices
    """
    if dither == "ordered":
        pal_lin = srgb_to_linear(rgb.astype(np.float64) / 255.0)
        return _ordered_mix(np.asarray(cells_linear, dtype=np.float64), pal_lin)
    return _floyd_steinberg_lab(lab, pal_lab)


def _bayer(n: int = 8) -> np.ndarray:
    m = np.zeros((1, 1))
    while m.shape[0] < n:
        m = np.block([[4 * m, 4 * m + 2], [4 * m + 3, 4 * m + 1]])
    return (m + 0.5) / m.size


def _tile(pattern: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    reps = (-(-shape[0] // pattern.shape[0]), -(-shape[1] // pattern.shape[1]))
    return np.tile(pattern, reps)[: shape[0], : shape[1]]


def _floyd_steinberg_bw(v: np.ndarray) -> np.ndarray:
    """1 where the cell becomes the light colour; ``v`` in [0, 1] (0.5 = threshold)."""
    h, w = v.shape
    work = v.astype(np.float64).tolist()
    out = np.zeros((h, w), dtype=bool)
    for r in range(h):
        # serpentine scan: alternate direction to avoid diagonal worm artefacts
        cols = range(w) if r % 2 == 0 else range(w - 1, -1, -1)
        step = 1 if r % 2 == 0 else -1
        row, below = work[r], work[r + 1] if r + 1 < h else None
        for c in cols:
            light = row[c] >= 0.5
            out[r, c] = light
            err = row[c] - (1.0 if light else 0.0)
            if 0 <= c + step < w:
                row[c + step] += err * 7 / 16
            if below is not None:
                if 0 <= c - step < w:
                    below[c - step] += err * 3 / 16
                below[c] += err * 5 / 16
                if 0 <= c + step < w:
                    below[c + step] += err * 1 / 16
    return out


def _floyd_steinberg_lab(lab: np.ndarray, pal_lab: np.ndarray) -> np.ndarray:
    h, w, _ = lab.shape
    work = lab.astype(np.float64).copy()
    out = np.zeros((h, w), dtype=np.uint8)
    for r in range(h):
        cols = range(w) if r % 2 == 0 else range(w - 1, -1, -1)
        step = 1 if r % 2 == 0 else -1
        for c in cols:
            px = work[r, c]
            k = int(np.argmin(((pal_lab - px) ** 2).sum(axis=1)))
            out[r, c] = k
            err = px - pal_lab[k]
            if 0 <= c + step < w:
                work[r, c + step] += err * (7 / 16)
            if r + 1 < h:
                if 0 <= c - step < w:
                    work[r + 1, c - step] += err * (3 / 16)
                work[r + 1, c] += err * (5 / 16)
                if 0 <= c + step < w:
                    work[r + 1, c + step] += err * (1 / 16)
    return out


def _ordered_mix(cells: np.ndarray, pal_lin: np.ndarray) -> np.ndarray:
    """Ordered dithering for any palette (after Yliluoma's "algorithm 1").

    Every cell finds the pair of palette colours whose mix (in linear light,
    where mixing is physical) comes closest to it, plus a small penalty on
    pairs far apart, and the Bayer matrix decides which of the two it shows,
    in proportion to the mix.

    Parameters
    ----------
    cells : (H, W, 3) linear RGB
    pal_lin : (K, 3) linear RGB

    Returns
    -------
    (H, W) uint8 palette indices
    """
    h, w, _ = cells.shape
    k = len(pal_lin)
    ii, jj = np.triu_indices(k)  # pairs (i, j), i <= j; i == j is the plain colour
    a, d = pal_lin[ii], pal_lin[jj] - pal_lin[ii]  # (P, 3)
    dd = np.maximum((d * d).sum(axis=1), 1e-12)
    flat = cells.reshape(-1, 3)
    threshold = _tile(_bayer(), (h, w)).ravel()
    out = np.empty(flat.shape[0], dtype=np.uint8)
    step = max(1, 400_000 // len(ii))
    for s0 in range(0, flat.shape[0], step):
        c = flat[s0 : s0 + step, None, :]  # (n, 1, 3)
        t = np.clip(((c - a) * d).sum(axis=2) / dd, 0.0, 1.0)  # (n, P)
        err = (((a + t[:, :, None] * d) - c) ** 2).sum(axis=2) + 0.1 * dd * t * (1 - t)
        best = err.argmin(axis=1)
        rows = np.arange(len(best))
        pick_j = t[rows, best] > threshold[s0 : s0 + step]
        out[s0 : s0 + step] = np.where(pick_j, jj[best], ii[best])
    return out.reshape(h, w)
