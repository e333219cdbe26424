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

# (module, function) pairs: function(data: bytes, where: str) -> (Puzzle, solution | None)
_BY_MAGIC: list[tuple[bytes, str]] = [
    (b"ROFL", "rofl.formats.rofl"),
    (b"NotMine{", "rofl.formats.notmine"),
]
_BY_SUFFIX: dict[str, str] = {
    ".json": "rofl.formats.corpus",
    ".rofl": "rofl.formats.rofl",
    ".notmine": "rofl.formats.notmine",
}


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
    data = read_capped(path, MAX_FILE_BYTES)
    module = None
    for magic, name in _BY_MAGIC:
        if data.startswith(magic):
            module = name
            break
    if module is None:
        module = _BY_SUFFIX.get(path.suffix.lower())
    if module is None and data.lstrip()[:1] == b"{":
        module = "rofl.formats.corpus"
    if module is None and data.lstrip().startswith(b"NotMine{"):
        module = "rofl.formats.notmine"
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
}


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

    path = Path(path)
    module = _WRITERS.get(path.suffix.lower())
    if module is None:
        known = ", ".join(sorted(_WRITERS))
        msg = f"{path}: cannot write puzzles with extension {path.suffix!r} (known: {known})"
        raise FormatError(msg)
    atomic_write(path, importlib.import_module(module).write_bytes(puzzle, solution), private=private)
