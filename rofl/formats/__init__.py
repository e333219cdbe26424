"""Readers and writers of puzzle files.

Each format lives in its own module.  :func:`read_puzzle` picks the reader
by the file's first bytes, then by its extension.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import numpy as np

from rofl.errors import FormatError

#: Largest puzzle file any reader accepts.
MAX_FILE_BYTES = 64 * 1024 * 1024

# A file is recognised by its first bytes (text formats after a byte-order
# mark and white space), then by its extension; module.read_bytes(data,
# where=...) -> (Puzzle, solution | None).
_BY_MAGIC: list[tuple[bytes, str]] = [
    (b"ROFL", "rofl.formats.rofl"),
]
_BY_TEXT_START: list[tuple[bytes, str]] = [
    (b"NotMine{", "rofl.formats.notmine"),
    (b"<?xml", "rofl.formats.webpbn"),
    (b"<puzzleset", "rofl.formats.webpbn"),
]
# The .non, .nin and .g formats have no signature (pbnsolve cannot sniff
# them either): only their extension names them.
_BY_SUFFIX: dict[str, str] = {
    ".json": "rofl.formats.corpus",
    ".rofl": "rofl.formats.rofl",
    ".notmine": "rofl.formats.notmine",
    ".xml": "rofl.formats.webpbn",
    ".non": "rofl.formats.non",
    ".nin": "rofl.formats.nin",
    ".g": "rofl.formats.olsak",
}
_BOM_AND_SPACE = b"\xef\xbb\xbf \t\r\n"

#: What each reader's format is called in messages and reports.
FORMAT_NAMES: dict[str, str] = {
    "rofl.formats.rofl": "ROFL",
    "rofl.formats.corpus": "corpus JSON",
    "rofl.formats.notmine": "NotMine cipher",
    "rofl.formats.webpbn": "webpbn XML",
    "rofl.formats.non": "Simpson .non",
    "rofl.formats.nin": "Wilk .nin",
    "rofl.formats.olsak": "Olsak .g",
}


def _reader(data: bytes, suffix: str) -> str | None:
    """The module that reads ``data`` (a file with extension ``suffix``), or None."""
    head = data.lstrip(_BOM_AND_SPACE)[:16]
    for magic, name in _BY_MAGIC:
        if data.startswith(magic):
            return name
    for start, name in _BY_TEXT_START:
        if head.startswith(start):
            return name
    if suffix in _BY_SUFFIX:
        return _BY_SUFFIX[suffix]
    if head.startswith(b"{"):
        return "rofl.formats.corpus"
    return None


def format_name(data: bytes, path: str | Path) -> str | None:
    """The name of the format ``data`` (read from ``path``) would be read as, or None."""
    module = _reader(data, Path(path).suffix.lower())
    return None if module is None else FORMAT_NAMES[module]


def read_puzzle(path: str | Path):
    """Read a puzzle file of any supported format.

    Returns
    -------
    puzzle : Puzzle
    solution : (H, W) uint8 array or None
        The picture stored with the puzzle, when the format carries one.

    Raises
    ------
    FormatError
        Unknown format or a malformed file (the message names the file).
    OSError
        The file cannot be read.
    """
    from rofl._io import read_capped

    path = Path(path)
    return read_puzzle_data(read_capped(path, MAX_FILE_BYTES), path)


def read_puzzle_data(data: bytes, path: str | Path):
    """:func:`read_puzzle` of the bytes ``data`` already read from ``path``
    (whose name picks the format when the bytes do not)."""
    path = Path(path)
    module = _reader(data, path.suffix.lower())
    if module is None:
        known = ", ".join(sorted(_BY_SUFFIX))
        msg = f"{path}: unknown puzzle format (known extensions: {known})"
        raise FormatError(msg)
    puzzle, solution = importlib.import_module(module).read_bytes(data, where=str(path))
    if solution is not None:
        solution = np.asarray(solution, dtype=np.uint8)
    return puzzle, solution


# extension -> module exposing write_bytes(puzzle, solution=None) -> bytes
_WRITERS: dict[str, str] = {
    ".json": "rofl.formats.corpus",
    ".rofl": "rofl.formats.rofl",
    ".notmine": "rofl.formats.notmine",
    ".xml": "rofl.formats.webpbn",
    ".non": "rofl.formats.non",
    ".nin": "rofl.formats.nin",
    ".g": "rofl.formats.olsak",
}


#: Writers that hold black-and-white puzzles only.
BLACK_WHITE_ONLY = frozenset({".nin", ".notmine"})


def write_puzzle(path: str | Path, puzzle, solution=None, *, private: bool = False) -> None:
    """Write ``puzzle`` to ``path`` atomically, in the format its extension names.

    ``solution`` (an ``(H, W)`` grid) is stored when the format can hold it.
    ``private=True`` makes the file readable by its owner only (secrets).

    Raises
    ------
    FormatError
        An extension no writer handles.
    """
    from rofl._io import atomic_write

    module = writer_for(path)
    atomic_write(path, importlib.import_module(module).write_bytes(puzzle, solution), private=private)


def writer_for(path: str | Path) -> str:
    """The module that writes puzzles under ``path``'s extension.

    Raises
    ------
    FormatError
        An extension no writer handles (the message lists the known ones).
    """
    suffix = Path(path).suffix.lower()
    module = _WRITERS.get(suffix)
    if module is None:
        known = ", ".join(sorted(_WRITERS))
        msg = f"{path}: cannot write puzzles with extension {suffix or '(none)'!r} (known: {known})"
        raise FormatError(msg)
    return module
