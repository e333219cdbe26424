"""Reading and writing checks the commands share."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from rofl.formats.rofl import RoflFile
    from rofl.puzzle import Puzzle


class Loaded(NamedTuple):
    """A puzzle file as the commands need it."""

    puzzle: Puzzle
    solution: np.ndarray | None  # the picture the file stores (never for ROFL)
    crc32: int | None  # the CRC-32 a ROFL file stores for its picture
    rofl: RoflFile | None  # the parsed ROFL file (chunks, form), None for other formats
    description: str  # size and format, e.g. "201 bytes, extended form, version 1"


def load_puzzle(file: str) -> Loaded:
    """Read a ROFL file (keeping what only ROFL stores) or any other puzzle format, reading it once."""
    from rofl._io import read_capped
    from rofl.formats import MAX_FILE_BYTES, format_name, read_puzzle_data, sheets, split_number
    from rofl.formats import rofl as codec

    path, number = split_number(file)
    data = read_capped(path, MAX_FILE_BYTES)
    sheet = None if data.startswith(codec.MAGIC) else sheets.kind(data)
    if sheet is not None:  # the ROFL file a sheet rofl drew carries
        where = file if number is None else f"{path}#{number}"
        info = codec.parse(sheets.extract(data, where=where, number=number), where=f"{where}: its ROFL puzzle")
        what = f"{len(data)} bytes, {sheets.NAMES[sheet]} carrying a ROFL puzzle: {_rofl_form(info)}"
        return Loaded(info.puzzle, None, info.crc32, info, what)
    if number is None and (data.startswith(codec.MAGIC) or path.suffix.lower() == codec.EXTENSION):
        info = codec.parse(data, where=file)
        return Loaded(info.puzzle, None, info.crc32, info, _rofl_form(info))
    puzzle, solution = read_puzzle_data(data, path, number=number)
    return Loaded(puzzle, solution, None, None, f"{len(data)} bytes, {format_name(data, path)}, not ROFL")


def _rofl_form(info: RoflFile) -> str:
    version = f", version {info.version}" if info.version is not None else ""
    return f"{info.size} bytes, {info.form} form{version}"


def write_puzzle_file(path, puzzle, solution=None, *, private: bool = False, quiet: bool = False) -> None:
    """:func:`rofl.formats.write_puzzle`, then a warning on stderr (unless
    ``quiet``) when the program the format belongs to cannot open the puzzle."""
    import click

    from rofl.formats import caveat, write_puzzle

    write_puzzle(path, puzzle, solution, private=private)
    note = caveat(path, puzzle)
    if note and not quiet:
        click.echo(f"warning: {path}: {note}", err=True)


def check_parent(path: str) -> None:
    """Refuse to write ``path`` when its directory does not exist (before any work is done)."""
    from rofl.errors import UsageError

    parent = Path(path).parent
    if not parent.is_dir():
        msg = f"{path}: the directory {str(parent)!r} does not exist"
        raise UsageError(msg)
