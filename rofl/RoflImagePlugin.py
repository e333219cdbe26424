"""Pillow plugin for ROFL files: ``Image.open("x.rofl")`` solves the puzzle.

Modelled on Pillow's ``QoiImagePlugin``: :func:`_accept` checks the magic,
``_open`` reads the header only (size, palette) and raises ``SyntaxError``
for files that are not ROFL so ``Image.open`` tries the next plugin; the
decoder reads the whole file, parses it and solves the puzzle when the
picture is loaded.  A broken, unsolvable or too large file raises
:class:`rofl.errors.RoflImageError`, an ``OSError`` as Pillow's convention
is (and a :class:`rofl.FormatError`), from ``Image.open`` or ``load()``;
the error rofl found is its ``__cause__``.  The message names the file
opened by name; a file opened from memory goes unnamed, for its caller
(``rofl make``, the studio) names it.  A hexagonal ROFL file (version
2, ``spec/ROFL.md`` section 13) is refused by ``Image.open`` with such an
error: a hexagon is not a grid of pixels (``rofl sheet`` draws it); a
rectangle with ``?`` groups opens as any other.

Limits, like Pillow's ``Image.MAX_IMAGE_PIXELS`` (module attributes a
program may change):

:data:`MAX_CELLS`
    The largest picture (width x height) opened; larger ones are refused by
    ``Image.open`` from the header alone.
:data:`BUDGET`
    Seconds of complete search ``load()`` spends on a puzzle line logic
    cannot finish.  (Line logic itself is not yet counted in it: see
    ``docs/formats.md``, "Limits".)
Saving follows ``rofl encode``: the picture's pixels are the cells, and the
file is written only when line logic solves it back.

``import rofl`` registers the plugin (:func:`register` is idempotent).
"""

from __future__ import annotations

import contextlib
from typing import IO

from PIL import Image, ImageFile, ImagePalette

#: Largest picture (cells) ``Image.open`` accepts: rofl's limit for every reader.
MAX_CELLS = 1 << 22
#: Seconds of complete search ``load()`` may spend.
BUDGET = 10.0

FORMAT = "ROFL"
MIME = "image/x-rofl"
EXTENSION = ".rofl"
# magic + extended header + colour count + the largest palette
_HEADER_BYTES = 12 + 3 * 255  # a version-2 rectangle: 12 bytes before its palette
# what the messages of a file opened from memory say instead of its name;
# _as_os_error drops it, so that the caller (who knows the name) names the file
_UNNAMED = "<rofl>"


def _accept(prefix: bytes) -> bool:
    return prefix[:4] == b"ROFL"


class RoflImageFile(ImageFile.ImageFile):
    format = FORMAT
    format_description = "ROFL nonogram picture"

    def _open(self) -> None:
        from rofl.errors import FormatError, LimitError
        from rofl.formats.rofl import parse_header

        assert self.fp is not None
        prefix = self.fp.read(_HEADER_BYTES)
        if not _accept(prefix):
            msg = "not a ROFL file"
            raise SyntaxError(msg)
        where = str(self.filename) if self.filename else _UNNAMED
        with _as_os_error():
            header = parse_header(prefix, where=where)
            if header.side is not None:
                # a hexagon is no grid of W x H pixels: refused, not squeezed into one
                msg = (
                    f"{where}: a hexagonal ROFL puzzle (side {header.side}) is not a rectangular picture; "
                    "rofl solve, sheet and convert read it"
                )
                raise FormatError(msg)
            if header.width * header.height > MAX_CELLS:
                msg = (
                    f"{where}: {header.width}x{header.height} is {header.width * header.height} cells; "
                    f"RoflImagePlugin.MAX_CELLS is {MAX_CELLS}"
                )
                raise LimitError(msg)
        self._size = (header.width, header.height)
        self._mode = "P"
        self.palette = ImagePalette.raw("RGB", header.palette)
        self.info["rofl_form"] = "extended" if header.extended else "plain"
        # the decoder fills self.info with the metadata once it has read the file
        self.tile = [ImageFile._Tile("rofl", (0, 0, *self._size), 0, (where, self.info))]


class RoflDecoder(ImageFile.PyDecoder):
    _pulls_fd = True

    def decode(self, buffer: bytes | Image.SupportsArrayInterface) -> tuple[int, int]:
        with _as_os_error():
            return self._decode()

    def _decode(self) -> tuple[int, int]:
        from rofl.decode import solve_picture
        from rofl.errors import FormatError, LimitError
        from rofl.formats import MAX_FILE_BYTES, open_puzzle

        assert self.fd is not None
        where, info = self.args
        data = self.fd.read(MAX_FILE_BYTES + 1)
        if len(data) > MAX_FILE_BYTES:
            msg = f"{where}: larger than the {MAX_FILE_BYTES}-byte limit"
            raise LimitError(msg)
        opened = open_puzzle(data, name=where)
        puzzle = opened.puzzle
        if opened.rofl is None or (puzzle.width, puzzle.height) != (self.state.xsize, self.state.ysize):
            msg = f"{where}: the file changed while it was read"
            raise FormatError(msg)
        grid = solve_picture(puzzle, crc32=opened.crc32, where=where, budget=BUDGET)
        info.update(opened.metadata)
        if opened.crc32 is not None:
            info["rofl_crc32"] = opened.crc32
        self.set_as_raw(grid.tobytes())
        return -1, 0


@contextlib.contextmanager
def _as_os_error():
    """rofl's errors as :class:`~rofl.errors.RoflImageError` (an ``OSError``), Pillow's convention."""
    from rofl.errors import RoflError, RoflImageError

    try:
        yield
    except RoflImageError:
        raise
    except RoflError as exc:
        raise RoflImageError(str(exc).removeprefix(f"{_UNNAMED}: ")) from exc


def _save(im: Image.Image, fp: IO[bytes], filename: str | bytes) -> None:
    """Write ``im`` (one pixel per cell) as ROFL.

    The whole file is built before the first byte is written, so a refused
    picture writes nothing.  (Pillow itself opens a path with truncation
    before calling any plugin, so replacing an existing file through
    ``im.save(path)`` is not atomic; ``rofl encode`` is.)

    Options (``im.save(path, title=...)``): ``background``, ``title``,
    ``author``, ``licence``, ``crc``, ``search`` (also store a picture that
    only a complete search proves unique) and ``budget`` (its seconds).
    """
    from rofl.encode import encode_grid
    from rofl.picture import grid_from_image

    options = im.encoderinfo
    grid, palette = grid_from_image(im, background=options.get("background"))
    # an empty value is stored (spec section 6); only an option not given is left out
    meta = {k: str(options[k]) for k in ("title", "author", "licence") if options.get(k) is not None}
    where = filename.decode() if isinstance(filename, bytes) else str(filename)
    data = encode_grid(
        grid,
        palette,
        meta=meta,
        crc=bool(options.get("crc", False)),
        where=where,
        search=bool(options.get("search", False)),
        budget=float(options.get("budget", 10.0)),
    )
    fp.write(data)


def register() -> None:
    """Register the ROFL format with Pillow (open, save, extension, MIME type); idempotent."""
    Image.register_open(FORMAT, RoflImageFile, _accept)
    Image.register_decoder("rofl", RoflDecoder)
    Image.register_save(FORMAT, _save)
    Image.register_extension(FORMAT, EXTENSION)
    Image.register_mime(FORMAT, MIME)


register()
