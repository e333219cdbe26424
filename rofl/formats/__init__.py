"""Readers and writers of puzzle files.

Each format lives in its own module.  :func:`read_puzzle` picks the reader
by the file's first bytes, then by its extension.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from rofl.errors import FormatError

#: Largest puzzle file any reader accepts.
MAX_FILE_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True)
class Format:
    """What rofl knows of one puzzle file format: its module has
    ``read_bytes(data, where=...) -> (Puzzle, solution | None)`` and
    ``write_bytes(puzzle, solution=None) -> bytes``.

    Attributes
    ----------
    name : str
        What the format is called in messages and reports.
    module : str
    extension : str
        The extension that names it (lower case, with the dot).
    colour : bool
        Whether it holds colour puzzles, not only black-and-white ones.
    solution : str
        What its writer does with a solution it is given ("" when it writes
        clues only), in the words ``rofl convert`` reports.
    colour_solution : bool
        Whether that also holds for colour puzzles (Nonny's colour ``.non``
        files have no goal).
    picture : bool
        Whether the solution is stored as the picture itself (ROFL stores a
        checksum of it).
    """

    name: str
    module: str
    extension: str
    colour: bool
    solution: str
    colour_solution: bool = True
    picture: bool = True

    def keeps_solution(self, puzzle) -> bool:
        """Whether a solution of ``puzzle`` written in this format is kept."""
        return bool(self.solution) and (self.colour_solution or puzzle.n_colors <= 2)


#: Every format rofl reads and writes, one per extension.
FORMATS: tuple[Format, ...] = (
    Format("ROFL", "rofl.formats.rofl", ".rofl", True, "solution kept as its CRC-32", picture=False),
    Format("corpus JSON", "rofl.formats.corpus", ".json", True, "solution kept"),
    Format("NotMine cipher", "rofl.formats.notmine", ".notmine", False, "solution kept"),
    Format("webpbn XML", "rofl.formats.webpbn", ".xml", True, "solution kept (goal)"),
    Format("Simpson .non", "rofl.formats.non", ".non", True, "solution kept (goal)", colour_solution=False),
    Format("Wilk .nin", "rofl.formats.nin", ".nin", False, ""),
    Format("Olsak .g", "rofl.formats.olsak", ".g", True, ""),
    Format("Olsak .mk", "rofl.formats.mk", ".mk", False, ""),
    Format("QNonograms .cwd", "rofl.formats.cwd", ".cwd", False, ""),
    Format("Tatham's Pattern .sav", "rofl.formats.tatham", ".sav", False, ""),
    Format("Gnonograms .gno", "rofl.formats.gnonograms", ".gno", False, "solution kept"),
)
_BY_EXTENSION: dict[str, Format] = {f.extension: f for f in FORMATS}
_BY_MODULE: dict[str, Format] = {f.module: f for f in FORMATS}

# A file is recognised by its first bytes (text formats after a byte-order
# mark and white space), then by its extension.  The .non, .nin, .g, .mk and
# .cwd formats have no signature (pbnsolve cannot sniff them either): only
# their extension names them.
_BY_MAGIC: list[tuple[bytes, str]] = [
    (b"ROFL", "rofl.formats.rofl"),
]
_BY_TEXT_START: list[tuple[bytes, str]] = [
    (b"NotMine{", "rofl.formats.notmine"),
    (b"<?xml", "rofl.formats.webpbn"),
    (b"<puzzleset", "rofl.formats.webpbn"),
    (b"SAVEFILE:", "rofl.formats.tatham"),
    (b"[Description]", "rofl.formats.gnonograms"),
    (b"[Dimensions]", "rofl.formats.gnonograms"),
]
_BOM_AND_SPACE = b"\xef\xbb\xbf \t\r\n"


#: Formats rofl reads but does not write, found by their content only; each
#: module's ``sniff(data)`` names the format ``data`` is in, or gives None.
#: Sheets: a ``.png`` is the solution picture for ``solve --first``, and
#: ``rofl sheet`` / ``--sheet`` write them.  Tournament files: ``.txt`` is
#: no name to claim, and they hold 1000 puzzles each.
_SNIFFED = ("rofl.formats.sheets", "rofl.formats.taai")


def _sniffed(data: bytes) -> tuple[str, str] | None:
    """``(module, format name)`` of the read-only format ``data`` is in, or None."""
    for module in _SNIFFED:
        name = importlib.import_module(module).sniff(data)
        if name is not None:
            return module, name
    return None


def _reader(data: bytes, suffix: str) -> str | None:
    """The module that reads ``data`` (a file with extension ``suffix``), or None."""
    head = data.lstrip(_BOM_AND_SPACE)[:16]
    for magic, name in _BY_MAGIC:
        if data.startswith(magic):
            return name
    sniffed = _sniffed(data)
    if sniffed is not None:
        return sniffed[0]
    for start, name in _BY_TEXT_START:
        if head.startswith(start):
            return name
    if suffix in _BY_EXTENSION:
        return _BY_EXTENSION[suffix].module
    if head.startswith(b"{"):
        return "rofl.formats.corpus"
    return None


def format_name(data: bytes, path: str | Path) -> str | None:
    """The name of the format ``data`` (read from ``path``) would be read as, or None."""
    module = _reader(data, Path(path).suffix.lower())
    if module in _SNIFFED:
        return importlib.import_module(module).sniff(data)
    return None if module is None else _BY_MODULE[module].name


def default_output(path: str | Path, suffix: str) -> Path:
    """Where a command writes by default what it makes of puzzle file
    ``path``: the file with ``suffix`` (``book-3.png`` for ``book.pdf#3``)."""
    base, number = split_number(path)
    return base.with_suffix(suffix) if number is None else base.with_name(f"{base.stem}-{number}{suffix}")


def split_number(path: str | Path) -> tuple[Path, int | None]:
    """``FILE#N`` names puzzle ``N`` of a file that holds several (a TAAI
    tournament file, a PDF puzzle book): ``(FILE, N)``.  A path that exists
    as it is, or has no such ending, is ``(path, None)``."""
    whole = Path(path)
    found = re.fullmatch(r"(.+)#([0-9]{1,9})", str(path))
    if found is None or whole.exists() or not Path(found.group(1)).is_file():
        return whole, None
    return Path(found.group(1)), int(found.group(2))


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

    path, number = split_number(path)
    return read_puzzle_data(read_capped(path, MAX_FILE_BYTES), path, number=number)


def read_puzzle_data(data: bytes, path: str | Path, *, number: int | None = None):
    """:func:`read_puzzle` of the bytes ``data`` already read from ``path``
    (whose name picks the format when the bytes do not); ``number`` picks
    puzzle ``number`` of a file that holds several (see :func:`split_number`)."""
    path = Path(path)
    module = _reader(data, path.suffix.lower())
    if module is None:
        known = ", ".join(sorted(_BY_EXTENSION))
        msg = f"{path}: unknown puzzle format (known extensions: {known}; and the PNG, SVG and PDF sheets rofl draws)"
        raise FormatError(msg)
    reader = importlib.import_module(module)
    if number is None:
        puzzle, solution = reader.read_bytes(data, where=str(path))
    elif getattr(reader, "MANY", False):
        puzzle, solution = reader.read_bytes(data, where=f"{path}#{number}", number=number)
    elif number == 1:
        puzzle, solution = reader.read_bytes(data, where=str(path))
    else:
        msg = f"{path}#{number}: a {format_name(data, path)} file holds one puzzle, so there is no puzzle {number}"
        raise FormatError(msg)
    if solution is not None:
        solution = np.asarray(solution, dtype=np.uint8)
    return puzzle, solution


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

    fmt = writer_for(path)
    atomic_write(path, importlib.import_module(fmt.module).write_bytes(puzzle, solution), private=private)


def caveat(path: str | Path, puzzle) -> str | None:
    """What the program the format of ``path`` belongs to cannot do with
    ``puzzle`` although rofl reads it back (Gnonograms opens puzzles of 5 to
    54 rows and columns only): a sentence for a warning, or None.

    A format module says so with an optional ``caveat(puzzle)`` function.

    Raises
    ------
    FormatError
        An extension no writer handles.
    """
    check = getattr(importlib.import_module(writer_for(path).module), "caveat", None)
    return None if check is None else check(puzzle)


def writer_for(path: str | Path) -> Format:
    """The format of puzzles written under ``path``'s extension.

    Raises
    ------
    FormatError
        An extension no writer handles (the message lists the known ones).
    """
    suffix = Path(path).suffix.lower()
    fmt = _BY_EXTENSION.get(suffix)
    if fmt is None:
        known = ", ".join(sorted(_BY_EXTENSION))
        msg = f"{path}: cannot write puzzles with extension {suffix or '(none)'!r} (known: {known})"
        if suffix in (".png", ".svg", ".pdf"):
            msg += "; a printable sheet, which carries its puzzle, is written by `rofl sheet` or --sheet"
        raise FormatError(msg)
    return fmt


def is_puzzle_path(path: str | Path) -> bool:
    """Whether ``path``'s extension names a puzzle format (rather than a picture)."""
    return Path(path).suffix.lower() in _BY_EXTENSION
