"""Pictures into grids: load, fit and scale, quantise, dither, clean up.

The first half of :func:`rofl.make`'s data flow::

    picture file ──load──▶ pixels ──fit/scale──▶ cell colours ──quantise (+dither)──▶ grid + palette + cost

* :func:`load_pixels` reads anything Pillow reads (EXIF orientation applied,
  first frame of an animation, 16-bit, CMYK, palette, greyscale and alpha
  modes) or a numpy array, into an ``(H, W, 3|4)`` uint8/uint16 array of
  sRGB-encoded values (plus alpha).
* :func:`fit` decides which part of the picture becomes how many cells
  (``crop`` / ``fit`` / ``pad``), :func:`cell_colors` averages each cell's
  area of the picture **in linear light** (box filter with fractional
  coverage at the edges, never nearest-neighbour): averaging the encoded sRGB
  values would make every fine black-and-white texture too dark.
* :func:`quantise` turns cell colours into palette indices: black and white
  by a threshold on CIELAB lightness (Otsu by default), or a perceptual
  palette found by k-means in CIELAB, or a palette the user gives, with
  optional ordered or Floyd–Steinberg dithering.  It also returns the cost
  array the refinement uses to pick the least visible changes.
"""

from __future__ import annotations

import contextlib
import io
import math
import os
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from rofl.errors import ImageError, UsageError

#: Largest picture file :func:`load_pixels` reads.
MAX_FILE_BYTES = 256 * 1024 * 1024
#: Largest picture, in pixels (Pillow's own decompression-bomb limit is 89 million).
MAX_PIXELS = 64_000_000
#: Largest number of cells on a side of a made puzzle.
MAX_CELLS = 1024
#: Longest side of the grid when neither width nor height is given.
DEFAULT_SIDE = 40

MODES = ("fit", "crop", "pad")
DITHERS = ("none", "ordered", "floyd-steinberg")
DITHER_WARNING = (
    "dithering multiplies clues and ambiguity: expect many more 1-cell clues and more cells changed by refinement"
)

# ---------------------------------------------------------------- colour spaces


def srgb_to_linear(values: np.ndarray) -> np.ndarray:
    """sRGB-encoded values in [0, 1] to linear light (IEC 61966-2-1)."""
    v = np.asarray(values, dtype=np.float64)
    return np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)


def linear_to_srgb(values: np.ndarray) -> np.ndarray:
    """Linear light in [0, 1] to sRGB-encoded values in [0, 1]."""
    v = np.clip(np.asarray(values, dtype=np.float64), 0.0, 1.0)
    return np.where(v <= 0.0031308, v * 12.92, 1.055 * v ** (1 / 2.4) - 0.055)


def rgb8_to_lab(rgb: np.ndarray) -> np.ndarray:
    """``(..., 3)`` 0-255 sRGB to CIELAB (D65), float64."""
    from skimage.color import rgb2lab

    rgb = np.asarray(rgb, dtype=np.float64) / 255.0
    return rgb2lab(rgb.reshape(-1, 1, 3)).reshape(rgb.shape)


def lab_to_rgb8(lab: np.ndarray) -> np.ndarray:
    """``(..., 3)`` CIELAB to the nearest 0-255 sRGB colours (clipped into the gamut), uint8."""
    from skimage.color import lab2rgb

    lab = np.asarray(lab, dtype=np.float64)
    with warnings.catch_warnings():
        # lab2rgb warns when it clips an out-of-gamut colour; clipping is what we want
        warnings.simplefilter("ignore", UserWarning)
        rgb = lab2rgb(lab.reshape(-1, 1, 3)).reshape(lab.shape)
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
    from skimage.color import deltaE_ciede2000

    cells = np.asarray(lab_cells, dtype=np.float64)
    flat = cells.reshape(-1, 1, 3)
    out = deltaE_ciede2000(flat, np.asarray(lab_palette, dtype=np.float64)[None, :, :])
    return np.asarray(out).reshape(*cells.shape[:-1], -1)


_COLOR_NAMES = {"white": "#ffffff", "black": "#000000", "red": "#ff0000", "green": "#008000", "blue": "#0000ff"}


def parse_color(value: Any, where: str = "colour") -> tuple[int, int, int]:
    """``"#rgb"``, ``"#rrggbb"``, a few names, or an ``(r, g, b)`` triple, as a 0-255 triple.

    The palette's own parser (:class:`rofl.puzzle.Palette`) plus colour
    names, with errors as :class:`UsageError` (a bad option, not a bad puzzle).

    Raises
    ------
    UsageError
        Anything else.
    """
    from rofl.errors import PuzzleError
    from rofl.puzzle import _parse_color

    if isinstance(value, str):
        value = _COLOR_NAMES.get(value.strip().lower(), value)
    try:
        return _parse_color(value, where)
    except PuzzleError as exc:
        if isinstance(value, str):
            msg = f"{where}: {value!r} is not a colour (use #rrggbb, #rgb, white or black)"
            raise UsageError(msg) from None
        raise UsageError(str(exc)) from None


def parse_palette(value: Any) -> list[tuple[int, int, int]]:
    """A palette given as ``"#fff,#000,#f00"`` or a sequence of colours."""
    items = [s for s in value.split(",") if s.strip()] if isinstance(value, str) else list(value)
    colors = [parse_color(c, f"palette colour {i + 1}") for i, c in enumerate(items)]
    if len(colors) < 2:
        msg = f"a palette needs at least 2 colours, got {len(colors)}"
        raise UsageError(msg)
    if len(set(colors)) != len(colors):
        msg = "the palette names the same colour twice"
        raise UsageError(msg)
    if len(colors) > 64:
        msg = f"the palette has {len(colors)} colours; rofl supports at most 64"
        raise UsageError(msg)
    return colors


# ------------------------------------------------------------------- loading


def load_pixels(source: Any, *, max_pixels: int = MAX_PIXELS) -> np.ndarray:
    """Read a picture into an array of sRGB-encoded values.

    Parameters
    ----------
    source : path, bytes, PIL.Image.Image or numpy array
        A file in any format Pillow reads, or an array of shape ``(H, W)``
        (grey), ``(H, W, 2)`` (grey + alpha), ``(H, W, 3)`` (RGB) or
        ``(H, W, 4)`` (RGBA) of bools, uint8, uint16 or floats in [0, 1].
    max_pixels : int
        Larger pictures are refused (decompression bombs).

    Returns
    -------
    (H, W, 3) or (H, W, 4) uint8 or uint16 array
        RGB(A), EXIF orientation applied; for animations the first frame (for a
        ``PIL.Image`` its current frame).

    Raises
    ------
    ImageError
        Not a picture, truncated or corrupt, too large, or an array of the
        wrong shape or values.  The message names the file.
    OSError
        The file cannot be read (missing, permissions).
    """
    from PIL import Image

    if isinstance(source, np.ndarray):
        return _array_pixels(source, max_pixels)
    if isinstance(source, Image.Image):
        return _pil_pixels(source, "<image>", max_pixels)
    if isinstance(source, bytes | bytearray | memoryview):
        data, where = bytes(source), "<bytes>"
    elif isinstance(source, str | os.PathLike):
        data, where = _read_picture_file(source), str(source)
    else:
        msg = f"cannot read a picture from a {type(source).__name__}"
        raise ImageError(msg)
    with _picture_errors(where):
        return _pil_pixels(_open(data, where, max_pixels), where, max_pixels)


def open_picture(path: str | os.PathLike, *, max_pixels: int = MAX_PIXELS):
    """Open a picture file as a loaded ``PIL.Image`` (its first frame), as it
    is: no orientation or colour conversion (``rofl encode`` needs its
    palette and alpha).

    Raises
    ------
    ImageError
        The same refusals as :func:`load_pixels`, the message naming the file.
    OSError
        The file cannot be read (missing, permissions).
    """
    where = str(path)
    data = _read_picture_file(path)
    with _picture_errors(where):
        image = _open(data, where, max_pixels)
        image.load()
        return image


def _read_picture_file(path: str | os.PathLike) -> bytes:
    from rofl._io import read_capped

    try:
        return read_capped(path, MAX_FILE_BYTES)
    except IsADirectoryError:
        msg = f"{path}: is a directory, not a picture"
        raise ImageError(msg) from None
    except ValueError as exc:  # FormatError from read_capped: too large
        raise ImageError(str(exc)) from None


def _open(data: bytes, where: str, max_pixels: int):
    """``Image.open`` on ``data``, refusing empty files and too many pixels
    before anything is decoded.  Call within :func:`_picture_errors`."""
    from PIL import Image

    if not data:
        msg = f"{where}: empty file, not a picture"
        raise ImageError(msg)
    image = Image.open(io.BytesIO(data))
    _check_pixels(image.size, where, max_pixels)
    return image


@contextlib.contextmanager
def _picture_errors(where: str):
    """Turn every failure of Pillow on hostile data into one ImageError naming ``where``."""
    from PIL import Image, UnidentifiedImageError

    with warnings.catch_warnings():
        # Pillow warns (then errors) on huge pictures; we refuse them ourselves (_check_pixels)
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)
        try:
            yield
        except ImageError:
            raise
        except UnidentifiedImageError:
            msg = f"{where}: not a picture in a format Pillow reads"
            raise ImageError(msg) from None
        except Image.DecompressionBombError as exc:
            msg = f"{where}: refused as a decompression bomb ({exc})"
            raise ImageError(msg) from None
        except MemoryError:
            msg = f"{where}: out of memory while decoding the picture"
            raise ImageError(msg) from None
        except Exception as exc:  # noqa: BLE001 - any decoder failure on hostile data is "corrupt"
            detail = str(exc) or type(exc).__name__
            msg = f"{where}: cannot decode the picture ({detail})"
            raise ImageError(msg) from None


def _check_pixels(size: tuple[int, int], where: str, max_pixels: int) -> None:
    w, h = size
    if w < 1 or h < 1:
        msg = f"{where}: the picture is empty ({w}x{h} pixels)"
        raise ImageError(msg)
    if w * h > max_pixels:
        msg = f"{where}: {w}x{h} pixels is more than the {max_pixels} allowed (decompression bomb?)"
        raise ImageError(msg)


def _pil_pixels(image, where: str, max_pixels: int) -> np.ndarray:
    from PIL import ImageOps

    _check_pixels(image.size, where, max_pixels)
    # Image.open stands on the first frame of an animation; counting frames (n_frames) would
    # read the whole file, so we do not ask
    image.load()
    image = ImageOps.exif_transpose(image)  # a copy of the current (first) frame, upright
    mode = image.mode
    if mode.startswith("I;16") or mode in ("I", "F"):
        grey = np.asarray(image).astype(np.float64)
        if mode.startswith("I;16"):
            top = 65535.0
        elif mode == "F":
            top = 1.0 if grey.size and np.nanmax(grey) <= 1.0 else 255.0
        else:  # 32-bit integers: 16-bit PNGs and TIFFs usually, 8-bit values sometimes
            top = 65535.0 if grey.size and grey.max() > 255 else 255.0
        grey = np.nan_to_num(grey, nan=0.0)
        values = np.rint(np.clip(grey / top, 0.0, 1.0) * 65535.0).astype(np.uint16)
        return np.repeat(values[:, :, None], 3, axis=2)
    has_alpha = mode in ("RGBA", "LA", "PA", "RGBa", "La") or "transparency" in image.info
    alpha = None
    if has_alpha:
        rgba = image.convert("RGBA")
        alpha = np.asarray(rgba)[:, :, 3]
        image = rgba.convert("RGB") if mode not in ("CMYK",) else image
    rgb = _to_srgb(image)
    if alpha is None:
        return rgb
    return np.concatenate([rgb, alpha[:, :, None]], axis=2)


def _to_srgb(image) -> np.ndarray:
    """RGB uint8 array, through the embedded ICC profile when there is one."""
    profile = image.info.get("icc_profile")
    if profile and image.mode in ("RGB", "CMYK"):
        try:
            from PIL import ImageCms

            src = ImageCms.ImageCmsProfile(io.BytesIO(profile))
            dst = ImageCms.createProfile("sRGB")
            converted = ImageCms.profileToProfile(image, src, dst, outputMode="RGB")
            if converted is not None:
                return np.asarray(converted, dtype=np.uint8)
        except Exception:  # noqa: BLE001, S110 - a broken profile falls back to the plain conversion
            pass
    return np.asarray(image.convert("RGB"), dtype=np.uint8)


def _array_pixels(array: np.ndarray, max_pixels: int) -> np.ndarray:
    a = np.asarray(array)
    if a.ndim == 2:
        a = a[:, :, None]
    if a.ndim != 3 or a.shape[2] not in (1, 2, 3, 4):
        msg = f"an image array must have shape (H, W), (H, W, 2), (H, W, 3) or (H, W, 4), not {array.shape}"
        raise ImageError(msg)
    _check_pixels((a.shape[1], a.shape[0]), "image array", max_pixels)
    if a.dtype == np.bool_:
        a = a.astype(np.uint8) * 255
    elif a.dtype == np.uint8 or a.dtype == np.uint16:
        pass
    elif np.issubdtype(a.dtype, np.floating):
        if not np.all(np.isfinite(a)):
            msg = "image array: holds NaN or infinite values"
            raise ImageError(msg)
        if a.min() < 0 or a.max() > 1:
            msg = f"image array: float values must lie in [0, 1], not [{a.min():g}, {a.max():g}]"
            raise ImageError(msg)
        a = np.rint(a * 65535.0).astype(np.uint16)
    elif np.issubdtype(a.dtype, np.integer):
        if a.min() < 0 or a.max() > 65535:
            msg = f"image array: integer values must lie in 0-65535, not {a.min()}-{a.max()}"
            raise ImageError(msg)
        a = a.astype(np.uint8) if a.max() <= 255 else a.astype(np.uint16)
    else:
        msg = f"image array: unsupported dtype {a.dtype}"
        raise ImageError(msg)
    channels = a.shape[2]
    if channels == 1:
        a = np.repeat(a, 3, axis=2)
    elif channels == 2:
        a = np.concatenate([np.repeat(a[:, :, :1], 3, axis=2), a[:, :, 1:]], axis=2)
    return np.ascontiguousarray(a)


# ------------------------------------------------------------- fit and scale


@dataclass(frozen=True)
class Geometry:
    """Where the picture goes.

    Attributes
    ----------
    box : (x0, y0, x1, y1) floats
        The part of the picture (in pixels) that becomes the cells.
    size : (width, height)
        Cells the box is averaged into.
    grid : (width, height)
        Size of the whole grid (larger than ``size`` in ``pad`` mode).
    offset : (left, top)
        Where the picture's cells sit in the grid.
    """

    box: tuple[float, float, float, float]
    size: tuple[int, int]
    grid: tuple[int, int]
    offset: tuple[int, int]


def _check_cells(value: Any, name: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        msg = f"{name} must be a whole number of cells, not {value!r}"
        raise UsageError(msg)
    if not 1 <= value <= MAX_CELLS:
        msg = f"{name} must be between 1 and {MAX_CELLS} cells, not {value}"
        raise UsageError(msg)
    return int(value)


def fit(
    image_size: tuple[int, int], width: int | None = None, height: int | None = None, mode: str = "fit"
) -> Geometry:
    """Decide the grid size and the part of the picture it shows.

    Parameters
    ----------
    image_size : (width, height) in pixels
    width, height : int, optional
        Cells.  With one of them the other follows from the picture's
        aspect ratio (cells are square).  With neither, a picture no larger
        than :data:`DEFAULT_SIDE` pixels keeps one cell per pixel (pixel
        art), a larger one gets :data:`DEFAULT_SIDE` cells on its longer side.
    mode : {"fit", "crop", "pad"}
        Only matters when both width and height are given: ``fit`` shows
        the whole picture in at most width x height cells (one side may be
        shorter), ``crop`` fills exactly width x height cells and cuts the
        excess off both ends of the longer side, ``pad`` shows the whole
        picture centred in exactly width x height cells, with background
        margins.

    Raises
    ------
    UsageError
        A size outside 1..MAX_CELLS or an unknown mode.
    """
    if mode not in MODES:
        msg = f"unknown fit mode {mode!r} (use {', '.join(MODES)})"
        raise UsageError(msg)
    width = _check_cells(width, "width")
    height = _check_cells(height, "height")
    iw, ih = image_size
    full = (0.0, 0.0, float(iw), float(ih))

    def clamp(n: float) -> int:
        return int(min(MAX_CELLS, max(1, round(n))))

    if width is None and height is None:
        if max(iw, ih) <= DEFAULT_SIDE:
            size = (iw, ih)
        else:
            scale = DEFAULT_SIDE / max(iw, ih)
            size = (clamp(iw * scale), clamp(ih * scale))
        return Geometry(full, size, size, (0, 0))
    if height is None:
        assert width is not None
        size = (width, clamp(width * ih / iw))
        return Geometry(full, size, size, (0, 0))
    if width is None:
        size = (clamp(height * iw / ih), height)
        return Geometry(full, size, size, (0, 0))
    if mode == "crop":
        scale = max(width / iw, height / ih)
        cw, ch = width / scale, height / scale
        x0, y0 = (iw - cw) / 2, (ih - ch) / 2
        return Geometry((x0, y0, x0 + cw, y0 + ch), (width, height), (width, height), (0, 0))
    scale = min(width / iw, height / ih)
    size = (min(width, clamp(iw * scale)), min(height, clamp(ih * scale)))
    if mode == "fit":
        return Geometry(full, size, size, (0, 0))
    offset = ((width - size[0]) // 2, (height - size[1]) // 2)
    return Geometry(full, size, (width, height), offset)


def area_weights(n_src: int, start: float, stop: float, n_out: int):
    """Box-filter weights of ``n_out`` cells over source pixels ``[start, stop)``.

    Returns
    -------
    scipy.sparse.csr_matrix of shape (n_out, n_src)
        Row ``j`` holds the fraction of cell ``j``'s extent each pixel
        covers; every row sums to 1.
    """
    from scipy import sparse

    edges = start + (stop - start) * np.arange(n_out + 1, dtype=np.float64) / n_out
    rows, cols, vals = [], [], []
    for j in range(n_out):
        lo, hi = edges[j], edges[j + 1]
        first = max(0, int(math.floor(lo)))
        last = min(n_src, max(first + 1, int(math.ceil(hi))))
        pix = np.arange(first, last)
        w = np.minimum(pix + 1, hi) - np.maximum(pix, lo)
        w = np.clip(w, 0.0, None)
        if w.sum() <= 0:  # a cell thinner than rounding: take the pixel it sits in
            pix, w = np.array([min(n_src - 1, first)]), np.array([1.0])
        rows.append(np.full(pix.size, j))
        cols.append(pix)
        vals.append(w / w.sum())
    return sparse.csr_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))), shape=(n_out, n_src))


def _linear_lut(dtype) -> np.ndarray:
    top = 255 if dtype == np.uint8 else 65535
    return srgb_to_linear(np.arange(top + 1) / top).astype(np.float32)


def cell_colors(
    pixels: np.ndarray, geometry: Geometry, background: tuple[int, int, int] = (255, 255, 255)
) -> np.ndarray:
    """Average each cell's area of the picture in linear light.

    Parameters
    ----------
    pixels : (H, W, 3|4) uint8 or uint16 array from :func:`load_pixels`
    geometry : Geometry from :func:`fit`
    background : (r, g, b)
        Transparent pixels are composited onto it (in linear light), and
        ``pad`` margins take it.

    Returns
    -------
    (rows, cols, 3) float64 array
        Linear-light RGB in [0, 1] of every cell of the grid.
    """
    h_img, w_img = pixels.shape[:2]
    x0, y0, x1, y1 = geometry.box
    cw, ch = geometry.size
    gw, gh = geometry.grid
    ax = area_weights(w_img, x0, x1, cw)  # (cw, W)
    ay = area_weights(h_img, y0, y1, ch).tocsc()  # (ch, H)
    lut = _linear_lut(pixels.dtype)
    bg = srgb_to_linear(np.asarray(background, dtype=np.float64) / 255.0).astype(np.float32)
    cols_used = np.flatnonzero(np.asarray(ax.sum(axis=0)).ravel() > 0)
    c0, c1 = int(cols_used[0]), int(cols_used[-1]) + 1
    ax = ax[:, c0:c1]
    rows_used = np.flatnonzero(np.diff(ay.indptr) > 0)
    out = np.zeros((ch, cw, 3), dtype=np.float64)
    # strips of rows keep the float copy of a large picture small
    strip = max(1, 2_000_000 // max(1, c1 - c0))
    for r0 in range(int(rows_used[0]), int(rows_used[-1]) + 1, strip):
        r1 = min(int(rows_used[-1]) + 1, r0 + strip)
        block = pixels[r0:r1, c0:c1]
        lin = lut[block[:, :, :3]]
        if block.shape[2] == 4:
            alpha = block[:, :, 3:4].astype(np.float32) / (255 if pixels.dtype == np.uint8 else 65535)
            lin = lin * alpha + bg * (1 - alpha)
        s = r1 - r0
        # columns: (cw, c) @ (c, s*3) -> cells across, then rows: (ch, s) @ (s, cw*3)
        across = ax @ lin.transpose(1, 0, 2).reshape(c1 - c0, s * 3)
        across = across.reshape(cw, s, 3).transpose(1, 0, 2).reshape(s, cw * 3)
        out += (ay[:, r0:r1] @ across).reshape(ch, cw, 3)
    if (gw, gh) == (cw, ch):
        return np.clip(out, 0.0, 1.0)
    grid = np.empty((gh, gw, 3), dtype=np.float64)
    grid[:] = bg
    left, top = geometry.offset
    grid[top : top + ch, left : left + cw] = out
    return np.clip(grid, 0.0, 1.0)


# ---------------------------------------------------------------- quantise


@dataclass(eq=False)
class Quantised:
    """A grid of palette indices and what the refinement needs to know about it.

    Attributes
    ----------
    grid : (H, W) uint8 array of palette indices
    palette : rofl.Palette (index 0 is the background)
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
    palette: Any
    cost: np.ndarray
    lab: np.ndarray
    threshold: float | None = None


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
        Linear-light RGB of every cell (from :func:`cell_colors`).
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
    """
    from rofl.puzzle import Palette

    if dither not in DITHERS:
        msg = f"unknown dither {dither!r} (use {', '.join(DITHERS)})"
        raise UsageError(msg)
    given = parse_palette(palette) if palette is not None else None
    if given is not None:
        colors = len(given)
    if isinstance(colors, bool) or not isinstance(colors, int | np.integer) or not 2 <= colors <= 64:
        msg = f"colors must be a whole number from 2 to 64, not {colors!r}"
        raise UsageError(msg)
    bg = parse_color(background, "background") if background not in (None, "auto") else None
    if given is not None and bg is not None and bg not in given:
        msg = f"background #{bg[0]:02x}{bg[1]:02x}{bg[2]:02x} is not one of the palette's colours"
        raise UsageError(msg)
    if threshold is not None:
        if (
            isinstance(threshold, bool)
            or not isinstance(threshold, int | float | np.number)
            or not (0 <= threshold <= 255)
        ):
            msg = f"threshold must be a grey level from 0 to 255, not {threshold!r}"
            raise UsageError(msg)
        if colors != 2:
            msg = "a threshold only applies to black-and-white (2-colour) puzzles"
            raise UsageError(msg)

    from skimage.color import rgb2lab

    srgb = linear_to_srgb(cells_linear)
    lab = rgb2lab(srgb)
    h, w = lab.shape[:2]

    if colors == 2:
        if given is None:
            two = [(255, 255, 255), (0, 0, 0)]
            if bg is not None and bg not in two:
                msg = "for a black-and-white puzzle the background must be white or black"
                raise UsageError(msg)
        else:
            two = given
        pal_lab = rgb8_to_lab(np.array(two))
        light = int(np.argmax(pal_lab[:, 0]))
        dark = 1 - light
        big_l = lab[:, :, 0]
        if threshold is not None:
            t = lightness_of_grey(float(threshold))
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
            is_light = v >= _tile(_bayer(), (h, w)) if dither == "ordered" else _floyd_steinberg_bw(v)
        grid = np.where(is_light, light, dark).astype(np.uint8)
        off = np.abs(big_l - t)
        cost = np.zeros((h, w, 2))
        cost[:, :, dark] = np.where(big_l >= t, off, 0.0)
        cost[:, :, light] = np.where(big_l < t, off, 0.0)
        rgb = np.array(two, dtype=np.uint8)
        grid, rgb, cost = _order_background(grid, rgb, cost, bg)
        return Quantised(grid, Palette.from_array(rgb), cost, lab, grey_of_lightness(t))

    if given is not None:
        rgb = np.array(given, dtype=np.uint8)
    else:
        flat = lab.reshape(-1, 3)
        distinct = np.unique(np.round(flat, 3), axis=0)
        k = int(min(colors, len(distinct) + (1 if bg is not None else 0)))
        fixed = rgb8_to_lab(np.array(bg)) if bg is not None else None
        centres = kmeans_lab(flat, max(k, 1), fixed=fixed)
        rgb = lab_to_rgb8(centres)
        if bg is not None:
            rgb[0] = bg
        _, first = np.unique(rgb, axis=0, return_index=True)
        rgb = rgb[np.sort(first)]
        if len(rgb) < 2:  # a one-colour picture: add its opposite so the palette has ink
            other = (0, 0, 0) if rgb8_to_lab(rgb[0])[0] >= 50 else (255, 255, 255)
            if tuple(int(v) for v in rgb[0]) == other:
                other = (255, 255, 255) if other == (0, 0, 0) else (0, 0, 0)
            rgb = np.vstack([rgb, np.array(other, dtype=np.uint8)])
    pal_lab = rgb8_to_lab(rgb)
    cost = delta_e(lab, pal_lab)
    if dither == "none":
        grid = cost.argmin(axis=2).astype(np.uint8)
    elif dither == "ordered":
        pal_lin = srgb_to_linear(rgb.astype(np.float64) / 255.0)
        grid = _ordered_mix(np.asarray(cells_linear, dtype=np.float64), pal_lin)
    else:
        grid = _floyd_steinberg_lab(lab, pal_lab)
    grid, rgb, cost = _order_background(grid, rgb, cost, bg)
    return Quantised(grid, Palette.from_array(rgb), cost, lab, None)


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


# ---------------------------------------------------------------- clean-up


def remove_isolated(grid: np.ndarray, cost: np.ndarray | None = None) -> np.ndarray:
    """Repaint every cell none of whose (up to 4) neighbours shares its colour.

    The cell takes the neighbouring colour that suits it best (lowest
    ``cost``), or the most common neighbouring colour without a cost.  All
    cells are judged on the input grid, so the result does not depend on
    the scanning order.

    Parameters
    ----------
    grid : (H, W) integer array
    cost : (H, W, K) float array, optional

    Returns
    -------
    (H, W) uint8 array (a new array)
    """
    g = np.asarray(grid)
    h, w = g.shape
    k = int(g.max()) + 1 if cost is None else cost.shape[2]
    pad = np.pad(g.astype(np.int64), 1, constant_values=-1)
    neigh = np.stack([pad[:-2, 1:-1], pad[2:, 1:-1], pad[1:-1, :-2], pad[1:-1, 2:]])  # (4, H, W)
    exists = neigh >= 0
    isolated = exists.any(axis=0) & ~((neigh == g[None]) & exists).any(axis=0)
    out = g.astype(np.uint8).copy()
    for r, c in zip(*np.nonzero(isolated), strict=True):
        options = [int(v) for v in neigh[:, r, c] if v >= 0]
        if cost is not None:
            out[r, c] = min(options, key=lambda v: (cost[r, c, v], v))
        else:
            counts = np.bincount(options, minlength=k)
            out[r, c] = int(np.argmax(counts))
    return out


def picture_size(pixels: np.ndarray) -> tuple[int, int]:
    """(width, height) of a pixel array."""
    return int(pixels.shape[1]), int(pixels.shape[0])


def source_name(source: Any) -> str | None:
    """A short title for a picture source (its file name without extension)."""
    if isinstance(source, str | os.PathLike):
        return Path(source).stem
    return None
