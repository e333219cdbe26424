"""Colour science and colour options: sRGB and linear light, CIELAB, ΔE2000.

Every stage of the picture pipeline measures colour here: :mod:`.fit`
averages cells in linear light (:func:`srgb_to_linear`), :mod:`.quantise`
clusters and compares colours in CIELAB (:func:`rgb8_to_lab`,
:func:`delta_e`) and states a black-and-white threshold as a grey level
(:func:`lightness_of_grey`).  :func:`parse_palette` reads the palette a
caller gives as an option, each colour by :func:`rofl.palette.parse_color`.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from rofl.errors import OptionError
from rofl.palette import MAX_COLORS, RGB, parse_color

# ------------------------------------------------------- colour spaces


def srgb_to_linear(values: np.ndarray) -> np.ndarray:
    """sRGB-encoded values in [0, 1] to linear light (IEC 61966-2-1)."""
    v = np.asarray(values, dtype=np.float64)
    return np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)


def linear_to_srgb(values: np.ndarray) -> np.ndarray:
    """Linear light in [0, 1] to sRGB-encoded values in [0, 1]."""
    v = np.clip(np.asarray(values, dtype=np.float64), 0.0, 1.0)
    return np.where(v <= 0.0031308, v * 12.92, 1.055 * v ** (1 / 2.4) - 0.055)


# scikit-image's sRGB (D65) matrices and white point, so that the lean
# conversions below give exactly its figures
_XYZ_FROM_RGB_T = np.array(
    [[0.412453, 0.357580, 0.180423], [0.212671, 0.715160, 0.072169], [0.019334, 0.119193, 0.950227]]
).T
_RGB_FROM_XYZ_T = np.linalg.inv(_XYZ_FROM_RGB_T.T).T
_WHITE = np.array([0.95047, 1.0, 1.08883])


def rgb8_to_lab(rgb: np.ndarray) -> np.ndarray:
    """``(..., 3)`` 0-255 sRGB to CIELAB (D65), float64.

    scikit-image's ``rgb2lab`` step by step, without its input checks and
    copies, which cost more than the arithmetic on the few colours of a
    palette (converted hundreds of times by :mod:`.quantise`).
    """
    rgb = np.asarray(rgb, dtype=np.float64) / 255.0
    arr = rgb.reshape(-1, 1, 3)
    arr = np.where(arr > 0.04045, ((arr + 0.055) / 1.055) ** 2.4, arr / 12.92)
    arr = (arr @ _XYZ_FROM_RGB_T) / _WHITE
    arr = np.where(arr > 0.008856, np.cbrt(arr), 7.787 * arr + 16.0 / 116.0)
    x, y, z = arr[..., 0], arr[..., 1], arr[..., 2]
    return np.stack([116.0 * y - 16.0, 500.0 * (x - y), 200.0 * (y - z)], axis=-1).reshape(rgb.shape)


def lab_to_rgb8(lab: np.ndarray) -> np.ndarray:
    """``(..., 3)`` CIELAB to the nearest 0-255 sRGB colours (clipped into the gamut), uint8.

    scikit-image's ``lab2rgb`` (a negative Z clipped to 0, then every
    channel to 0-1) step by step, lean like :func:`rgb8_to_lab`.
    """
    lab = np.asarray(lab, dtype=np.float64)
    arr = lab.reshape(-1, 1, 3)
    y = (arr[..., 0] + 16.0) / 116.0
    x = arr[..., 1] / 500.0 + y
    z = y - arr[..., 2] / 200.0
    z = np.where(z < 0, 0.0, z)
    out = np.stack([x, y, z], axis=-1)
    out = np.where(out > 0.2068966, out**3.0, (out - 16.0 / 116.0) / 7.787) * _WHITE
    arr = out @ _RGB_FROM_XYZ_T
    arr = np.where(arr > 0.0031308, 1.055 * np.power(np.maximum(arr, 0.0031308), 1 / 2.4) - 0.055, arr * 12.92)
    rgb = np.clip(arr, 0, 1).reshape(lab.shape)
    return np.clip(np.rint(rgb * 255.0), 0, 255).astype(np.uint8)


def delta_e(lab_cells: np.ndarray, lab_palette: np.ndarray) -> np.ndarray:
    """ΔE2000 between every cell and every palette colour.

    Parameters
    ----------
    lab_cells : (..., 3) float array
    lab_palette : (K, 3) float array

    Returns
    -------
    (..., K) float64 array
    """
    cells = np.asarray(lab_cells, dtype=np.float64)
    flat = cells.reshape(-1, 1, 3)
    out = ciede2000(flat, np.asarray(lab_palette, dtype=np.float64)[None, :, :])
    return out.reshape(*cells.shape[:-1], -1)


_TWO_PI = 2 * np.pi
_25_7 = 25.0**7
_COS30, _SIN30 = math.cos(math.radians(30)), math.sin(math.radians(30))
_COS6, _SIN6 = math.cos(math.radians(6)), math.sin(math.radians(6))
_COS63, _SIN63 = math.cos(math.radians(63)), math.sin(math.radians(63))


def ciede2000(lab1: np.ndarray, lab2: np.ndarray) -> np.ndarray:
    """CIEDE2000 between two broadcastable ``(..., 3)`` float64 CIELAB arrays.

    The formula and the order of its operations are scikit-image's
    ``deltaE_ciede2000`` (Sharma, Wu and Dalal's notes), without its input
    checks and copies: the distinct-palette search (:mod:`.quantise`) calls
    it hundreds of times on a handful of colours, where those cost several
    times the arithmetic.
    """
    return _ciede2000(lab1, lab2, lean=False)


def _pow7(x: np.ndarray, lean: bool) -> np.ndarray:
    """``x ** 7``; lean: by products (faster, rounded differently)."""
    if not lean:
        return x**7
    x2 = x * x
    return x2 * x2 * x2 * x


def _hue_weight(Hbar: np.ndarray, lean: bool) -> np.ndarray:
    """CIEDE2000's hue weighting ``T`` of the mean hue (radians); lean: from
    one cosine and one sine by multiple-angle formulas, not four cosines."""
    if not lean:
        return (
            1
            - 0.17 * np.cos(Hbar - np.deg2rad(30))
            + 0.24 * np.cos(2 * Hbar)
            + 0.32 * np.cos(3 * Hbar + np.deg2rad(6))
            - 0.20 * np.cos(4 * Hbar - np.deg2rad(63))
        )
    c, s = np.cos(Hbar), np.sin(Hbar)
    c2, s2 = 2 * c * c - 1, 2 * s * c
    c3, s3 = c * (4 * c * c - 3), s * (3 - 4 * s * s)
    c4, s4 = 2 * c2 * c2 - 1, 2 * s2 * c2
    return (
        1
        - 0.17 * (c * _COS30 + s * _SIN30)
        + 0.24 * c2
        + 0.32 * (c3 * _COS6 - s3 * _SIN6)
        - 0.20 * (c4 * _COS63 + s4 * _SIN63)
    )


def _ciede2000(lab1: np.ndarray, lab2: np.ndarray, *, lean: bool) -> np.ndarray:
    """:func:`ciede2000`, or with ``lean`` its faster form (:func:`nearest_delta_e`)."""
    L1, a1, b1 = lab1[..., 0], lab1[..., 1], lab1[..., 2]
    L2, a2, b2 = lab2[..., 0], lab2[..., 1], lab2[..., 2]
    c7 = _pow7(0.5 * (np.hypot(a1, b1) + np.hypot(a2, b2)), lean)
    scale = 1 + 0.5 * (1 - np.sqrt(c7 / (c7 + _25_7)))
    a1s, a2s = a1 * scale, a2 * scale
    C1, C2 = np.hypot(a1s, b1), np.hypot(a2s, b2)
    h1, h2 = np.arctan2(b1, a1s), np.arctan2(b2, a2s)
    h1 = h1 + np.where(h1 < 0.0, _TWO_PI, 0.0)
    h2 = h2 + np.where(h2 < 0.0, _TWO_PI, 0.0)
    tmp = (0.5 * (L1 + L2) - 50) ** 2
    L_term = (L2 - L1) / (1 + 0.015 * tmp / np.sqrt(20 + tmp))
    Cbar = 0.5 * (C1 + C2)
    C_term = (C2 - C1) / (1 + 0.045 * Cbar)
    h_diff = h2 - h1
    h_sum = h1 + h2
    CC = C1 * C2
    zero = CC == 0.0
    wrap = np.abs(h_diff) > np.pi
    dH = np.where(h_diff > np.pi, h_diff - _TWO_PI, np.where(h_diff < -np.pi, h_diff + _TWO_PI, h_diff))
    dH = np.where(zero, 0.0, dH)
    dH_term = 2 * np.sqrt(CC) * np.sin(dH / 2)
    mask = ~zero & wrap
    Hbar = np.where(mask, np.where(h_sum < _TWO_PI, h_sum + _TWO_PI, h_sum - _TWO_PI), h_sum)
    Hbar = np.where(zero, Hbar * 2, Hbar) * 0.5
    T = _hue_weight(Hbar, lean)
    H_term = dH_term / (1 + 0.015 * Cbar * T)
    c7 = _pow7(Cbar, lean)
    Rc = 2 * np.sqrt(c7 / (c7 + _25_7))
    dtheta = np.deg2rad(30) * np.exp(-(((np.rad2deg(Hbar) - 275) / 25) ** 2))
    dE2 = L_term**2 + C_term**2 + H_term**2 - np.sin(2 * dtheta) * Rc * C_term * H_term
    return np.sqrt(np.maximum(dE2, 0))


def nearest_delta_e(lab_cells: np.ndarray, lab_palette: np.ndarray) -> np.ndarray:
    """ΔE2000 from each of ``(N, 3)`` CIELAB cells to the nearest of ``(K, 3)`` palette colours, ``(N,)``.

    :func:`ciede2000` to rounding (within 1e-9), leaner for the
    distinct-palette search (:mod:`.quantise`), which measures every cell
    against each palette it tries: the seventh powers are products, and the
    hue weighting ``T`` takes one cosine and one sine of the mean hue
    (multiple-angle formulas) instead of four cosines.
    """
    cells = np.asarray(lab_cells, dtype=np.float64)[:, None, :]
    return _ciede2000(cells, np.asarray(lab_palette, dtype=np.float64)[None, :, :], lean=True).min(axis=1)


def pairwise_ciede2000(lab: np.ndarray) -> np.ndarray:
    """ΔE2000 between every two of a few ``(K, 3)`` CIELAB colours, ``(K, K)``, 0 on the diagonal.

    Plain Python arithmetic on each pair (:func:`pairwise_lists`): for the
    handful of colours of a palette that is several times faster than any
    numpy call, whose fixed cost per operation dominates on such small
    arrays, and the distinct-palette search (:mod:`.quantise`) measures its
    palettes hundreds of times.  Same formula as :func:`ciede2000`.
    """
    return np.array(pairwise_lists(np.asarray(lab, dtype=np.float64).tolist()), dtype=np.float64).reshape(len(lab), -1)


def pairwise_lists(rows: list[list[float]]) -> list[list[float]]:
    """:func:`pairwise_ciede2000` of colours given as lists of ``[L, a, b]``, as nested lists."""
    k = len(rows)
    out = [[0.0] * k for _ in range(k)]
    for i in range(k):
        for j in range(i + 1, k):
            out[i][j] = out[j][i] = _ciede2000_pair(*rows[i], *rows[j])
    return out


_DEG30, _DEG6, _DEG63 = math.radians(30), math.radians(6), math.radians(63)


def _ciede2000_pair(L1: float, a1: float, b1: float, L2: float, a2: float, b2: float) -> float:
    """:func:`ciede2000` of one pair of colours, in plain Python floats."""
    c7 = (0.5 * (math.hypot(a1, b1) + math.hypot(a2, b2))) ** 7
    scale = 1 + 0.5 * (1 - math.sqrt(c7 / (c7 + _25_7)))
    a1s, a2s = a1 * scale, a2 * scale
    C1, C2 = math.hypot(a1s, b1), math.hypot(a2s, b2)
    h1, h2 = math.atan2(b1, a1s), math.atan2(b2, a2s)
    if h1 < 0.0:
        h1 += _TWO_PI
    if h2 < 0.0:
        h2 += _TWO_PI
    tmp = (0.5 * (L1 + L2) - 50) ** 2
    L_term = (L2 - L1) / (1 + 0.015 * tmp / math.sqrt(20 + tmp))
    Cbar = 0.5 * (C1 + C2)
    C_term = (C2 - C1) / (1 + 0.045 * Cbar)
    h_diff, h_sum, CC = h2 - h1, h1 + h2, C1 * C2
    if CC == 0.0:
        dH, Hbar = 0.0, h_sum
    else:
        dH = h_diff - _TWO_PI if h_diff > math.pi else h_diff + _TWO_PI if h_diff < -math.pi else h_diff
        if abs(h_diff) > math.pi:
            h_sum = h_sum + _TWO_PI if h_sum < _TWO_PI else h_sum - _TWO_PI
        Hbar = h_sum * 0.5
    dH_term = 2 * math.sqrt(CC) * math.sin(dH / 2)
    T = (
        1
        - 0.17 * math.cos(Hbar - _DEG30)
        + 0.24 * math.cos(2 * Hbar)
        + 0.32 * math.cos(3 * Hbar + _DEG6)
        - 0.20 * math.cos(4 * Hbar - _DEG63)
    )
    H_term = dH_term / (1 + 0.015 * Cbar * T)
    c7 = Cbar**7
    Rc = 2 * math.sqrt(c7 / (c7 + _25_7))
    dtheta = _DEG30 * math.exp(-(((math.degrees(Hbar) - 275) / 25) ** 2))
    dE2 = L_term**2 + C_term**2 + H_term**2 - math.sin(2 * dtheta) * Rc * C_term * H_term
    return math.sqrt(max(dE2, 0.0))


def lightness_of_grey(level: float) -> float:
    """CIELAB L* of the sRGB grey ``level`` (0-255)."""
    y = float(srgb_to_linear(np.array(level / 255.0)))
    return float(116 * np.cbrt(y) - 16) if y > 216 / 24389 else float(y * 24389 / 27)


def grey_of_lightness(lightness: float) -> float:
    """Inverse of :func:`lightness_of_grey`."""
    lo, hi = 0.0, 255.0
    for _ in range(50):
        mid = (lo + hi) / 2
        if lightness_of_grey(mid) < lightness:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


# --------------------------------------------------------- colour options


def parse_palette(value: Any) -> list[RGB]:
    """A palette given as ``"#fff,#000,#f00"`` or a sequence of colours.

    Raises
    ------
    OptionError
        A colour that is not one, fewer than 2 colours, one named twice, or
        more than :data:`rofl.puzzle.MAX_COLORS`.
    """
    items = [s for s in value.split(",") if s.strip()] if isinstance(value, str) else list(value)
    colors = [parse_color(c, f"palette colour {i + 1}") for i, c in enumerate(items)]
    if len(colors) < 2:
        msg = f"a palette needs at least 2 colours, got {len(colors)}"
        raise OptionError(msg)
    if len(set(colors)) != len(colors):
        msg = "the palette names the same colour twice"
        raise OptionError(msg)
    if len(colors) > MAX_COLORS:
        msg = f"the palette has {len(colors)} colours; rofl supports at most {MAX_COLORS}"
        raise OptionError(msg)
    return colors
