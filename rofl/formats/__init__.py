"""Readers and writers of puzzle files, and :func:`open_puzzle`, the one way to open one.

:func:`open_puzzle` reads a puzzle file of any format (a path, ``FILE#N``
for puzzle ``N`` of a file that holds several, or bytes) into a
:class:`PuzzleFile`: the puzzle, the solution the file stores, the CRC-32 a
ROFL file keeps of its picture, the format and a description.  Every
command, :func:`rofl.decode.decode_bytes` and the Pillow plugin open files
through it.  :func:`write_puzzle` writes a puzzle in the format a file
name's extension names.

A file is recognised by its signature first (a ROFL or PNG magic, the
start of a text format, or a format's own ``sniff``), then by its
extension, then by a guess from its first character (JSON's ``{``).  The
``.non``, ``.nin``, ``.g``, ``.mk`` and ``.cwd`` formats have no signature
(pbnsolve cannot sniff them either): only their extension names them.

How to add a format
    Two steps, each fact in one of them.  First its
    :class:`~rofl.formats._format.Sign` in
    :data:`~rofl.formats._format.SIGNS` (where it goes there is the order
    in which formats are tried): its name, its module, its extensions,
    its signature (``magic``, ``starts``, or the name of the module's
    ``sniff`` function) and, if rofl reads it only, why (``not_written``):
    what :func:`find_format` and :func:`writer_for` need without importing
    the module.  Then the module,
    ``rofl/formats/<name>.py``, with a reader ``loads(data, *, where) ->
    (puzzle, solution or None)`` that raises one
    :class:`~rofl.errors.FormatError` naming ``where`` for any bad file, a
    writer (``dumps(puzzle, solution=None) -> str`` for a text format),
    and at its end the declaration ``FORMAT = Format(name, loads,
    _text.encoded(dumps), ...)`` (or ``_text.clue_format(name, loads,
    dumps)`` for a text format of clues only) and ``FORMATS = (FORMAT,)``:
    what the module holds -- whether the format holds colour, what its
    writer keeps of a solution (see :class:`~rofl.formats._format.Format`).
    The declaration finds its sign by name and refuses to disagree with it
    (another module, a writer for a format whose sign says why it is not
    written).  Nothing else names a format: reading, writing, ``rofl
    convert``, ``rofl info`` and the tests of the table take it from these
    two.  Add the format to the list in ``rofl convert --help`` and to the
    README, which a test checks.
"""

from __future__ import annotations

import functools
import importlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rofl.errors import FormatError
from rofl.formats._format import BOM_AND_SPACE, SIGNS, Format, Sign

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Mapping

    import numpy as np

    from rofl.formats.rofl import RoflFile
    from rofl.puzzle import Puzzle

#: Largest puzzle file any reader accepts (see :mod:`rofl.formats._limits`).
MAX_FILE_BYTES = 64 * 1024 * 1024  # the same as _limits.MAX_FILE_BYTES, without importing rofl.puzzle


def _declared(sign: Sign) -> Format:
    """The declaration of the format of ``sign`` (imports its module)."""
    return next(f for f in importlib.import_module(sign.module).FORMATS if f.name == sign.name)


def _sniffs(sign: Sign, data: bytes) -> bool:
    """Whether the format's ``sniff`` function recognises ``data`` (imports its module)."""
    sniff = _declared(sign).sniff
    return sniff is not None and sniff(data)


@functools.cache
def _table() -> tuple[Format, ...]:
    """Every format, as the modules declare them, in the order of
    :data:`~rofl.formats._format.SIGNS` (imports every format module)."""
    return tuple(_declared(sign) for sign in SIGNS)


@functools.cache
def _writers() -> dict[str, Format]:
    """Extension -> the format written under it (imports every format module)."""
    return {f.extension: f for f in _table() if f.write is not None}


#: Extension -> the format written under it, known without importing a format module.
_WRITTEN = {sign.extensions[0]: sign for sign in SIGNS if sign.written}


def __getattr__(name: str) -> Any:
    if name == "FORMATS":  # built on first use: it imports every format module
        return _table()
    from rofl._lazy import submodule

    found = submodule(__name__, name)  # rofl.formats.rofl... after `import rofl`
    if found is not None:
        return found
    msg = f"module {__name__!r} has no attribute {name!r}"
    raise AttributeError(msg)


def find_format(data: bytes, name: str | Path = "") -> Format | None:
    """The format the file ``data`` (named ``name``) is read as, or None.

    Signatures first (magic bytes, then the formats' own ``sniff``, then
    the start of a text format), then the extension of ``name``, then a
    guess from the first character.
    """
    head = data.lstrip(BOM_AND_SPACE)[:16]
    suffix = Path(name).suffix.lower()
    tiers = (
        lambda s: s.magic and data.startswith(s.magic),
        lambda s: s.sniff and _sniffs(s, data),
        lambda s: s.starts and head.startswith(s.starts),
        lambda s: suffix and suffix in s.extensions,
        lambda s: s.guess and head.startswith(s.guess),
    )
    for matches in tiers:
        for sign in SIGNS:
            if matches(sign):
                return _declared(sign)
    return None


@dataclass(frozen=True, eq=False)
class PuzzleFile:
    """A puzzle file as :func:`open_puzzle` read it.

    Attributes
    ----------
    puzzle : Puzzle
        Clues, palette and metadata.
    solution : (H, W) uint8 array or None
        The picture the file stores (never for ROFL, which stores its CRC-32).
    crc32 : int or None
        The CRC-32 of the picture a ROFL file stores (also inside a sheet).
        Whoever derives the picture checks it
        (:func:`rofl.decode.check_crc`).
    format : Format
        The format the file was read as.
    details : str
        Its size and form, as ``rofl info`` says: ``"201 bytes, extended
        form, version 1"``, ``"2331 bytes, PNG sheet carrying a ROFL puzzle:
        64 bytes, plain form"``, ``"120 bytes, Wilk .nin, not ROFL"``.
    name : str
        The file as error messages name it (``book.pdf#3``).
    rofl : RoflFile or None
        The ROFL file read, for formats that are or carry one: its form,
        version and the ancillary chunks skipped.
    """

    puzzle: Puzzle
    solution: np.ndarray | None
    crc32: int | None
    format: Format
    details: str
    name: str
    rofl: RoflFile | None = None

    @property
    def metadata(self) -> Mapping[str, str]:
        """Title, author, licence... (the puzzle's ``meta``)."""
        return self.puzzle.meta


def open_puzzle(
    source: str | Path | bytes,
    *,
    name: str | Path | None = None,
    number: int | None = None,
) -> PuzzleFile:
    """Open a puzzle file of any format rofl reads.

    Parameters
    ----------
    source : str, path or bytes
        A file name (``FILE#N`` names puzzle ``N`` of a file that holds
        several, see :func:`split_number`) or the bytes of a file.
    name : str or path, optional
        For bytes: the file name whose extension picks a format the bytes do
        not reveal, and that messages give (default ``"<bytes>"``).  For a
        path: what messages call the file (default: the path).
    number : int, optional
        Puzzle ``number`` of a file that holds several (a TAAI tournament
        file, a PDF puzzle book).

    Returns
    -------
    PuzzleFile

    Raises
    ------
    FormatError
        An unknown format or a malformed file (the message names the file).
    OSError
        The file cannot be read.
    """
    if isinstance(source, bytes | bytearray | memoryview):
        data = bytes(source)
        where = str(name) if name is not None else "<bytes>"
        path = Path(where)
    else:
        from rofl._io import read_capped

        path, split = split_number(source)
        where = str(source) if split is None else str(source).rpartition("#")[0]
        if name is not None:
            where = str(name)
        number = split if split is not None else number
        data = read_capped(path, MAX_FILE_BYTES)
    fmt = find_format(data, path)
    if fmt is None:
        known = ", ".join(sorted(_WRITTEN))
        msg = f"{where}: unknown puzzle format (known extensions: {known}; and the PNG, SVG and PDF sheets rofl draws)"
        raise FormatError(msg)
    if number is not None:
        if fmt.many:
            where = f"{where}#{number}"
        elif number != 1:
            msg = f"{where}#{number}: a {fmt.name} file holds one puzzle, so there is no puzzle {number}"
            raise FormatError(msg)
    found = fmt.read(data, where=where, number=number) if fmt.many else fmt.read(data, where=where)
    if fmt.carries_rofl:
        form = f"{found.size} bytes, {found.form} form" + (
            f", version {found.version}" if found.version is not None else ""
        )
        # a ROFL file is the whole file; a sheet carries one among its other bytes
        details = form if found.size == len(data) else f"{len(data)} bytes, {fmt.name} carrying a ROFL puzzle: {form}"
        return PuzzleFile(found.puzzle, None, found.crc32, fmt, details, where, found)
    puzzle, solution = found
    if solution is not None:
        import numpy as np

        solution = np.asarray(solution, dtype=np.uint8)
    return PuzzleFile(puzzle, solution, None, fmt, f"{len(data)} bytes, {fmt.name}, not ROFL", where)


def read_puzzle(path: str | Path):
    """``(puzzle, solution or None)`` of a puzzle file: :func:`open_puzzle`, for
    callers that need nothing else.

    Raises
    ------
    FormatError
        Unknown format or a malformed file (the message names the file).
    OSError
        The file cannot be read.
    """
    opened = open_puzzle(path)
    return opened.puzzle, opened.solution


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


def write_puzzle(
    path: str | Path,
    puzzle,
    solution=None,
    *,
    crc32: int | None = None,
    private: bool = False,
    ancillary: tuple[tuple[str, bytes], ...] = (),
) -> None:
    """Write ``puzzle`` to ``path`` atomically, in the format its extension names.

    ``solution`` (an ``(H, W)`` grid) is stored when the format can hold it.
    ``crc32``, the CRC-32 of a picture another file stored
    (:attr:`PuzzleFile.crc32`), is kept when no solution is given and the
    format stores one (ROFL).  ``private=True`` makes the file readable by
    its owner only (secrets).  ``ancillary``: unknown ancillary chunks of a
    ROFL file read, kept when ``path`` is a ROFL file too
    (:attr:`RoflFile.safe_to_copy`), dropped otherwise.

    Raises
    ------
    FormatError
        An extension no writer handles, a colour puzzle for a
        black-and-white format, or what the format cannot hold.
    """
    from rofl._io import atomic_write

    atomic_write(path, puzzle_bytes(path, puzzle, solution, crc32=crc32, ancillary=ancillary), private=private)


def hexagon_extensions() -> list[str]:
    """File extensions of the formats that hold hexagonal puzzles."""
    return [f.extension for f in _writers().values() if f.hexagon]


def _holders(names: list[str]) -> str:
    """``".a, .b and .c"``."""
    return " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)


def puzzle_bytes(
    path: str | Path, puzzle, solution=None, *, crc32: int | None = None, ancillary: tuple[tuple[str, bytes], ...] = ()
) -> bytes:
    """The bytes :func:`write_puzzle` writes to ``path`` (for a worker that
    returns the file rather than writing it).

    Raises
    ------
    FormatError
        As :func:`write_puzzle`.
    """
    fmt = writer_for(path)
    # Refused rather than written with colour 0 or as rows and columns.
    hexagonal = puzzle.board.kind == "hexagon"
    if hexagonal and not fmt.hexagon:
        msg = f"the {fmt.extension} format cannot hold a hexagonal puzzle ({_holders(hexagon_extensions())} can)"
        raise FormatError(msg)
    if puzzle.has_color_sets and not fmt.color_sets:
        names = [f.extension for f in _writers().values() if f.color_sets and (f.hexagon or not hexagonal)]
        msg = f"the {fmt.extension} format cannot hold groups of several possible colours ('?'); {_holders(names)} can"
        raise FormatError(msg)
    if not fmt.colour and puzzle.n_colors > 2:
        others = [f.extension for f in _writers().values() if f.colour]
        msg = (
            f"the {fmt.extension} format holds black-and-white puzzles only; this puzzle has "
            f"{puzzle.n_colors} colours (background included) -- use {', '.join(others[:-1])} or {others[-1]}"
        )
        raise FormatError(msg)
    assert fmt.write is not None
    extra = {"ancillary": ancillary} if ancillary and fmt.name == "ROFL" else {}
    if crc32 is not None and solution is None and fmt.keeps_crc():
        return fmt.write(puzzle, crc32=crc32, **extra)
    return fmt.write(puzzle, solution, **extra)


def caveat(path: str | Path, puzzle) -> str | None:
    """What the file of ``path`` loses of ``puzzle``, or what the program its
    format belongs to cannot do with it although rofl reads it back
    (Gnonograms opens puzzles of 5 to 54 rows and columns only): a sentence
    for a warning, or None.

    A two-colour puzzle in other colours than black on white loses them in
    a format that stores no colours (``.nin``, ``.mk``, ...) or writes two
    colours as black and white (``.non``); any other caveat a format
    declares with ``Format(caveat=...)``.

    Raises
    ------
    FormatError
        An extension no writer handles.
    """
    fmt = writer_for(path)
    notes = [note for note in (_colours_lost(fmt, puzzle), fmt.caveat and fmt.caveat(puzzle)) if note]
    return "; ".join(notes) or None


def _colours_lost(fmt: Format, puzzle) -> str | None:
    """What a two-colour puzzle loses in a format that writes it as black on
    white (a light picture on a dark background reads back inverted)."""
    from rofl.palette import Palette

    if fmt.keeps_two_colours() or puzzle.n_colors > 2:
        return None
    colours = ["#{:02x}{:02x}{:02x}".format(*c) for c in puzzle.palette.colors]
    if puzzle.palette.colors == Palette.black_white().colors[: len(colours)]:
        return None
    keepers = [f.extension for f in _writers().values() if f.keeps_two_colours() and f.caveat is None]
    shown = f"{colours[1]} cells on {colours[0]}" if len(colours) > 1 else f"the {colours[0]} background"
    what = "stores no colours" if not fmt.colour else "writes a two-colour puzzle as black and white"
    return (
        f"the {fmt.extension} format {what}: the puzzle's {shown} read back as black on white "
        f"({_holders(keepers)} keep them)"
    )


def writer_for(path: str | Path) -> Format:
    """The format of puzzles written under ``path``'s extension.

    Raises
    ------
    FormatError
        An extension no writer handles (the message lists the known ones).
    """
    suffix = Path(path).suffix.lower()
    sign = _WRITTEN.get(suffix)
    if sign is None:
        known = ", ".join(sorted(_WRITTEN))
        msg = f"{path}: cannot write puzzles with extension {suffix or '(none)'!r} (known: {known})"
        read_only = next((s for s in SIGNS if suffix and suffix in s.extensions), None)
        if read_only is not None and read_only.not_written:
            msg += f"; {read_only.not_written}"
        raise FormatError(msg)
    return _declared(sign)


def is_puzzle_path(path: str | Path) -> bool:
    """Whether ``path``'s extension names a puzzle format rofl writes (rather than a picture)."""
    return Path(path).suffix.lower() in _WRITTEN
