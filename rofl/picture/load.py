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
        ``PIL.Image`` its current frame).  A grey 16-bit or floating-point
        picture gives a read-only view of one (H, W) array as three channels.

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
        return _pil_pixels(_open(data, where, max_pixels), where, max_pixels, owned=True)


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


#: Pixels converted at a time: the temporaries (floats for 16-bit and
#: floating-point pictures, an ICC conversion's copy) of a strip of rows,
#: not of the whole picture (a 64 Mpx 16-bit PNG peaked at 1.6 GB with
#: float64 copies of all of it, issue 40).
STRIP_PIXELS = 1 << 20
#: Pictures of more pixels than this are decoded by one worker of a batch
#: at a time (:func:`decoding`), so that ``-j N`` does not hold N of them.
LARGE_PIXELS = 8_000_000

# what decoding() holds for a large picture: nothing in one process; a lock
# file the batch's worker processes share (share_large_decodes)
_large_decodes: Any = contextlib.nullcontext()


class _FileLock:
    """An exclusive ``flock`` on a file: the kernel releases it when its
    process dies (a worker killed while it holds it blocks no other), and
    a file name is all the workers are given.  Without ``fcntl`` (Windows),
    or once the file is gone (the batch ended), it holds nothing."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.fd: int | None = None

    def __enter__(self) -> None:
        try:
            import fcntl

            self.fd = os.open(self.path, os.O_RDWR)
            fcntl.flock(self.fd, fcntl.LOCK_EX)
        except (ImportError, OSError):
            self._close()

    def __exit__(self, *exc) -> None:
        self._close()  # closing the file releases the lock

    def _close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def share_large_decodes(path: str) -> None:
    """Make :func:`decoding` of a large picture hold an exclusive lock on the
    file ``path``, which the processes of a batch share."""
    global _large_decodes  # noqa: PLW0603 - one setting per worker process
    _large_decodes = _FileLock(path)


@contextlib.contextmanager
def decoding(source: Any):
    """Hold the large-picture lock of :func:`share_large_decodes` while a
    picture of more than :data:`LARGE_PIXELS` is decoded and reduced to cells
    (its header tells; an array or ``PIL.Image`` is already in memory)."""
    size = None
    if isinstance(source, bytes | bytearray | memoryview | str | os.PathLike):
        from PIL import Image

        with contextlib.suppress(Exception), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            where = io.BytesIO(source) if isinstance(source, bytes | bytearray | memoryview) else source
            with Image.open(where, formats=readable_formats()) as header:  # the header only
                size = header.size
    if size is not None and size[0] * size[1] > LARGE_PIXELS:
        with _large_decodes:
            yield
    else:
        yield


def _pil_pixels(image, where: str, max_pixels: int, *, owned: bool = False) -> np.ndarray:
    """The pixels of ``image``; ``owned``: rofl opened it, so it may be
    turned upright in place instead of copied."""
    from PIL import ImageOps

    _check_pixels(image.size, where, max_pixels)
    # Image.open stands on the first frame of an animation; counting frames (n_frames) would
    # read the whole file, so we do not ask
    image.load()
    if owned:
        ImageOps.exif_transpose(image, in_place=True)  # upright, no copy of a large picture
    else:
        image = ImageOps.exif_transpose(image)  # a copy of the current (first) frame, upright
    if image.mode.startswith("I;16") or image.mode in ("I", "F"):
        return _grey_pixels(image)
    return _colour_pixels(image)


def _strips(image):
    """``(rows, part)``: the picture a strip of rows at a time (each a small
    Pillow image), so that no conversion holds a second copy of a large one."""
    width, height = image.size
    step = max(1, STRIP_PIXELS // max(1, width))
    for r0 in range(0, height, step):
        r1 = min(height, r0 + step)
        yield slice(r0, r1), image.crop((0, r0, width, r1))


def _grey_pixels(image) -> np.ndarray:
    """(H, W, 3) uint16 grey of a 16-bit, 32-bit integer or floating-point
    picture, converted a strip of rows at a time; the three
    channels are one (H, W) array seen three times (a read-only view)."""
    mode = image.mode
    if mode.startswith("I;16"):
        top = 65535.0
    else:
        highest = max((_strip_max(np.asarray(part)) for _, part in _strips(image)), default=0.0)
        if mode == "F":
            top = 1.0 if highest <= 1.0 else 255.0
        else:  # 32-bit integers: 16-bit PNGs and TIFFs usually, 8-bit values sometimes
            top = 65535.0 if highest > 255 else 255.0
    width, height = image.size
    grey = np.empty((height, width), dtype=np.uint16)
    for rows, part in _strips(image):
        strip = np.nan_to_num(np.asarray(part).astype(np.float64), nan=0.0)
        grey[rows] = np.rint(np.clip(strip / top, 0.0, 1.0) * 65535.0)
    return np.broadcast_to(grey[:, :, None], (height, width, 3))


def _strip_max(values: np.ndarray) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # an all-NaN strip
        highest = np.nanmax(values) if values.size else 0.0
    return 0.0 if np.isnan(highest) else float(highest)


def _colour_pixels(image) -> np.ndarray:
    """(H, W, 3) or (H, W, 4) uint8 sRGB(A) of any other mode, through the
    embedded ICC profile when there is one, a strip of rows at a time."""
    mode = image.mode
    has_alpha = mode in ("RGBA", "LA", "PA", "RGBa", "La") or "transparency" in image.info
    # what the colour conversion starts from: RGB after an alpha is split off, but CMYK stays CMYK
    base = "RGB" if has_alpha and mode != "CMYK" else mode
    transform = _srgb_transform(image, base)
    width, height = image.size
    out = np.empty((height, width, 4 if has_alpha else 3), dtype=np.uint8)
    for rows, part in _strips(image):
        if has_alpha:
            rgba = part.convert("RGBA")
            out[rows, :, 3] = np.asarray(rgba)[:, :, 3]
            part = rgba.convert("RGB") if mode != "CMYK" else part
        out[rows, :, :3] = _to_srgb(part, transform)
    return out


def _srgb_transform(image, mode: str):
    """The ImageCms transform from the embedded ICC profile to sRGB, or None
    (no profile, a mode it does not apply to, or a broken profile: the plain
    conversion then)."""
    profile = image.info.get("icc_profile")
    if not profile or mode not in ("RGB", "CMYK"):
        return None
    try:
        from PIL import ImageCms

        source = ImageCms.ImageCmsProfile(io.BytesIO(profile))
        return ImageCms.buildTransform(source, ImageCms.createProfile("sRGB"), mode, "RGB")
    except Exception:  # noqa: BLE001 - a broken profile falls back to the plain conversion
        return None


def _to_srgb(image, transform) -> np.ndarray:
    """RGB uint8 array of a (small) image, through ``transform`` when given."""
    if transform is not None:
        try:
            from PIL import ImageCms

            converted = ImageCms.applyTransform(image, transform)
            if converted is not None:
                return np.asarray(converted, dtype=np.uint8)
        except Exception:  # noqa: BLE001, S110 - as a broken profile: the plain conversion
            pass
    return np.asarray(image if image.mode == "RGB" else image.convert("RGB"), dtype=np.uint8)


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
