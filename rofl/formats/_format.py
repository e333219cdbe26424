"""How a format module declares itself: one :class:`Format` per format it reads.

Each module of :mod:`rofl.formats` ends with its declaration (``FORMAT =
Format(...)`` and ``FORMATS = (FORMAT,)``; :mod:`rofl.formats.sheets`
declares three), the way a Pillow plugin registers its opener, saver and
extensions.  :mod:`rofl.formats` builds its table from these declarations
and from nothing else, so a format is known in one place.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

#: What a text format may start with before its signature: a UTF-8
#: byte-order mark and white space.
BOM_AND_SPACE = b"\xef\xbb\xbf \t\r\n"


@dataclass(frozen=True)
class Format:
    """What rofl knows of one puzzle file format.

    Attributes
    ----------
    name : str
        What the format is called in messages and reports.
    read : callable
        ``read(data, *, where, number=None)``: the puzzle of the file
        ``data`` (``where`` names it in error messages; ``number`` picks a
        puzzle of a :attr:`many` format), as ``(puzzle, solution or None)``,
        or, for a format that :attr:`carries_rofl`, as the
        :class:`~rofl.formats.rofl.RoflFile` it holds.
    write : callable or None
        ``write(puzzle, solution=None) -> bytes``; None for a format rofl
        reads only.
    extensions : tuple of str
        The extensions that name it (lower case, with the dot); the first
        is the one written.
    magic : bytes
        The first bytes of every file (empty: none).
    starts : tuple of bytes
        What a text file of the format starts with after a byte-order mark
        and white space.
    sniff : callable or None
        ``sniff(data) -> bool`` for a signature the fields above cannot say.
    guess : bytes
        A text start that names the format only when the extension names no
        other (``{`` for JSON: Olšák's ``.g`` files may start with any comment).
    colour : bool
        Whether it holds colour puzzles, not only black-and-white ones.
    keeps : str
        What its writer does with a solution it is given ("" when it writes
        clues only), in the words ``rofl convert`` reports.
    colour_keeps : bool
        Whether that also holds for colour puzzles (Nonny's colour ``.non``
        files have no goal).
    picture : bool
        Whether the solution is stored as the picture itself (ROFL stores a
        checksum of it).
    many : bool
        Whether a file may hold several puzzles (``read`` takes ``number``).
    carries_rofl : bool
        Whether the file is, or carries, a ROFL file: ``read`` gives its
        :class:`~rofl.formats.rofl.RoflFile`, with the CRC-32 and the form.
    caveat : callable or None
        ``caveat(puzzle) -> str | None``: what the program the format belongs
        to cannot do with ``puzzle`` although rofl reads it back.
    hexagon : bool
        Whether it holds hexagonal puzzles (:class:`~rofl.hexagon.HexPuzzle`).
    color_sets : bool
        Whether it holds groups of several possible colours (``?``).
    not_written : str
        Why :func:`rofl.formats.write_puzzle` refuses the extensions of a
        format rofl reads only, and what writes such files instead.
    """

    name: str
    read: Callable[..., Any]
    write: Callable[..., bytes] | None = None
    extensions: tuple[str, ...] = ()
    magic: bytes = b""
    starts: tuple[bytes, ...] = ()
    sniff: Callable[[bytes], bool] | None = None
    guess: bytes = b""
    colour: bool = False
    keeps: str = ""
    colour_keeps: bool = True
    picture: bool = True
    many: bool = False
    carries_rofl: bool = False
    caveat: Callable[[Any], str | None] | None = None
    not_written: str = ""
    hexagon: bool = False
    color_sets: bool = False

    @property
    def extension(self) -> str:
        """The extension files of this format are written with ("" for none)."""
        return self.extensions[0] if self.extensions else ""

    @property
    def module(self) -> str:
        """The module that declares the format."""
        return self.read.__module__

    def keeps_solution(self, puzzle) -> bool:
        """Whether a solution of ``puzzle`` written in this format is kept."""
        return bool(self.keeps) and (self.colour_keeps or puzzle.n_colors <= 2)

    def keeps_crc(self) -> bool:
        """Whether the writer keeps a solution as its CRC-32 (and so takes a stored one)."""
        return bool(self.keeps) and not self.picture

    def signed(self, data: bytes, head: bytes) -> bool:
        """Whether ``data`` bears this format's signature (:attr:`magic`, :attr:`starts` or :attr:`sniff`);
        ``head`` is its start after a byte-order mark and white space."""
        if self.magic and data.startswith(self.magic):
            return True
        if self.starts and head.startswith(self.starts):
            return True
        return self.sniff is not None and self.sniff(data)
