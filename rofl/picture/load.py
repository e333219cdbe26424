"""Loading pictures: any file Pillow reads, or an array, as sRGB-encoded pixels.

:func:`load_pixels` is the first stage of :func:`rofl.make`: EXIF
orientation applied, the first frame of an animation, 16-bit, CMYK,
palette, greyscale and alpha modes, an embedded ICC profile converted to
sRGB.  :func:`open_picture` opens a file as it is, for pixel art
(:mod:`.pixelart`).  Both refuse hostile files (empty, truncated,
decompression bombs) with one :class:`~rofl.errors.ImageError` naming the file.
"""

from __future__ import annotations

import contextlib
import io
import os
import warnings
from pathlib import Path
from typing import Any

import numpy as np

from rofl.errors import ImageError

#: Largest picture file :func:`load_pixels` reads.
MAX_FILE_BYTES = 256 * 1024 * 1024
#: Largest picture, in pixels (Pillow's own decompression-bomb limit is 89 million).
MAX_PIXELS = 64_000_000


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


#: Pillow's readers that run another program on the file: EPS (and
#: PostScript, ``.ps``) is drawn by Ghostscript, which executes the file's
#: code (a 67-byte ``{ } loop`` ran forever).  rofl never opens them.
REFUSED_FORMATS = ("EPS",)
# how such a file starts: PostScript text, or the binary header of a DOS EPS
_POSTSCRIPT = (b"%!", b"\xc5\xd0\xd3\xc6")


def readable_formats() -> list[str]:
    """The Pillow formats :func:`load_pixels` opens: all it registered but
    :data:`REFUSED_FORMATS`."""
    from PIL import Image

    Image.init()
    return [name for name in Image.OPEN if name not in REFUSED_FORMATS]


def _open(data: bytes, where: str, max_pixels: int):
    """``Image.open`` on ``data``, refusing empty files, PostScript and too
    many pixels before anything is decoded.  Call within :func:`_picture_errors`."""
    from PIL import Image

    if not data:
        msg = f"{where}: empty file, not a picture"
        raise ImageError(msg)
    if data.lstrip(b"\x04")[:4].startswith(_POSTSCRIPT):  # ^D: what some drivers send first
        msg = (
            f"{where}: an EPS or PostScript file; rofl does not read them (drawing one runs Ghostscript "
            "on the file's code): convert it to PNG first"
        )
        raise ImageError(msg)
    image = Image.open(io.BytesIO(data), formats=readable_formats())
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


def picture_size(pixels: np.ndarray) -> tuple[int, int]:
    """(width, height) of a pixel array."""
    return int(pixels.shape[1]), int(pixels.shape[0])


def source_name(source: Any) -> str | None:
    """A short title for a picture source (its file name without extension)."""
    if isinstance(source, str | os.PathLike):
        return Path(source).stem
    return None
