"""rofl's resource policy for every reader: one place for the limits a file meets.

A small hostile file must never cost more than a bounded amount of memory
and time.  Every reader (ROFL, the text formats, NotMine, the sheets) takes
its limits from here, so they are the same for every format; ``docs/formats.md``
("Limits") and ``spec/ROFL.md`` describe them for users.

- :data:`MAX_FILE_BYTES`: the whole file is read under this cap.
- :data:`MAX_CELLS`: the most cells (width x height) a puzzle may have,
  checked as soon as a reader knows both sides, before anything is allocated.
- :data:`MAX_DIGITS`: the most digits a number may have; checked before
  ``int()`` (which refuses more than 4300 digits with a traceback).
- :data:`MAX_LINES`: the most lines a text file may have, counted on every
  character :meth:`str.splitlines` splits on, as the readers split.
- :data:`MAX_ATTACHMENT_BYTES`: the most bytes one embedded file of a PDF
  sheet may decompress to.
- :data:`MAX_OBJECT_STREAM_BYTES`, :data:`MAX_PDF_WHITESPACE`: what a PDF's
  object streams may hold, and how far before its object an offset may point
  (pypdf skips whitespace a byte at a time, once per object).
"""

from __future__ import annotations

import re

from rofl.errors import FormatError, LimitError
from rofl.validate import MAX_SIDE

#: Largest puzzle file any reader accepts (bytes).
MAX_FILE_BYTES = 64 * 1024 * 1024

#: Largest puzzle any reader decodes (cells): 2048 x 2048.  The solver keeps
#: 8 bytes per cell and a few arrays per line; a 20-byte file declaring
#: 65535 x 65535 would otherwise ask for gigabytes.
MAX_CELLS = 1 << 22

#: Most decimal digits of one number: ten hold every length rofl accepts
#: (below 2**31), and a 100 000-digit number never reaches ``int()``.
MAX_DIGITS = 10

#: Most lines in a text puzzle file: a line per row and column, twice over
#: for a goal picture, header and comments.
MAX_LINES = 4 * (MAX_SIDE + 1)

#: Most bytes one embedded file of a PDF sheet may decompress to (a ROFL
#: file is at most :data:`MAX_FILE_BYTES`, and in practice a few kilobytes).
MAX_ATTACHMENT_BYTES = MAX_FILE_BYTES
#: The most bytes a PDF's object streams (``/Type /ObjStm``: dictionaries
#: and arrays, no pictures or attachments) may hold decompressed, all
#: together: a book of thousands of puzzles needs well under a megabyte
#: (issue 40: 287 kB inflated to 70 MB of padding took 44 s).
MAX_OBJECT_STREAM_BYTES = 16 * 1024 * 1024
#: The most whitespace between where a PDF's cross-reference (or an object
#: stream's index) says an object starts and where it does: pypdf skips it a
#: byte at a time, for each object, so a few offsets into a long run of
#: spaces cost minutes.  Writers point at the object itself.
MAX_PDF_WHITESPACE = 64

# What str.splitlines splits on: \n, \r (and \r\n as one), \v, \f, the
# file/group/record separators, NEL and the Unicode line and paragraph
# separators.
_LINE_BREAKS = "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"


def count_lines(text: str) -> int:
    """How many lines :meth:`str.splitlines` would make of ``text`` (at most
    one more than this), counted in linear time without splitting."""
    return sum(text.count(c) for c in _LINE_BREAKS) - text.count("\r\n")


def check_lines(text: str, where: str) -> None:
    """Refuse a text of more than :data:`MAX_LINES` lines (a
    :class:`~rofl.errors.LimitError` naming ``where``)."""
    n_lines = count_lines(text)
    if n_lines > MAX_LINES:
        msg = (
            f"{where}: {n_lines} lines: more than rofl reads in one text file, {MAX_LINES} (four a row and "
            f"column of a puzzle of {MAX_SIDE}; a tournament file of 25x25 puzzles holds up to 5140 of them)"
        )
        raise LimitError(msg)


def check_cells(width: int, height: int, where: str) -> None:
    """Refuse a puzzle of more than :data:`MAX_CELLS` cells (a :class:`~rofl.errors.LimitError`)."""
    if width * height > MAX_CELLS:
        msg = f"{where}: {width}x{height} is {width * height} cells; rofl reads puzzles of at most {MAX_CELLS} cells"
        raise LimitError(msg)


_DECIMAL = re.compile(r"[0-9]+")


def integer(digits: str, where: str, what: str = "number", *, base: int = 10) -> int:
    """``int(digits, base)`` for a string of ASCII digits of at most
    :data:`MAX_DIGITS` significant digits (leading zeros are free).

    Raises
    ------
    FormatError
        More digits than the limit (before ``int()`` sees them).
    """
    significant = digits.lstrip("0")
    if len(significant) > MAX_DIGITS:
        shown = digits[:20] + "..." if len(digits) > 20 else digits
        msg = f"{where}: {what} {shown!r} has {len(significant)} digits; rofl reads at most {MAX_DIGITS}"
        raise FormatError(msg)
    return int(significant or "0", base)
