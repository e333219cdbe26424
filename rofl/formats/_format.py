"""How a format is declared: its :class:`Sign` here, its :class:`Format` in its module.

Each fact about a format is stated once.  What recognises a file of it --
name, module, extensions, signature, and why rofl does not write it if it
does not -- is its :class:`Sign` in :data:`SIGNS`, this module's table, so
that :mod:`rofl.formats` can tell a file's format (and which extensions it
writes) without importing every format module.  What the module holds --
reader, writer and what they do -- is the :class:`Format` it ends with
(``FORMAT = Format(name, read, write, ...)`` and ``FORMATS = (FORMAT,)``;
:mod:`rofl.formats.sheets` declares three), the way a Pillow plugin
registers its opener and saver; the declaration finds its sign by
``name`` and gives the sign's facts as its own attributes.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

#: What a text format may start with before its signature: a UTF-8
#: byte-order mark and white space.
BOM_AND_SPACE = b"\xef\xbb\xbf \t\r\n"


@dataclass(frozen=True)
class Sign:
    """How a format is known without importing its module.

    Attributes
    ----------
    name : str
        What the format is called in messages and reports; its
        :class:`Format` declares the same name.
    module : str
        The module that declares the format and holds its reader.
    extensions : tuple of str
        The extensions that name it (lower case, with the dot); the first
        is the one written.
    magic : bytes
        The first bytes of every file (empty: none).
    starts : tuple of bytes
        What a text file of the format starts with after a byte-order mark
        and white space.
    sniff : str
        The name of the module's function ``sniff(data) -> bool``, for a
        signature the fields above cannot say ("" for none).
    guess : bytes
        A text start that names the format only when the extension names no
        other (``{`` for JSON: Olšák's ``.g`` files may start with any comment).
    not_written : str
        For a format rofl reads only although it has extensions: why
        :func:`rofl.formats.write_puzzle` refuses them, and what writes
        such files instead.  A format with extensions and no such reason
        is written (its :class:`Format` has a writer).
    """

    name: str
    module: str
    extensions: tuple[str, ...] = ()
    magic: bytes = b""
    starts: tuple[bytes, ...] = ()
    sniff: str = ""
    guess: bytes = b""
    not_written: str = ""

    @property
    def written(self) -> bool:
        """Whether rofl writes the format (under its first extension)."""
        return bool(self.extensions) and not self.not_written


_SHEET = "a printable sheet, which carries its puzzle, is written by `rofl sheet` or --sheet"

#: Every format's :class:`Sign`, in table order: the order in which
#: :func:`rofl.formats.find_format` tries them, and of
#: :data:`rofl.formats.FORMATS`.
SIGNS = (
    Sign("ROFL", "rofl.formats.rofl", (".rofl",), magic=b"ROFL"),
    Sign("corpus JSON", "rofl.formats.corpus", (".json",), guess=b"{"),
    Sign("NotMine cipher", "rofl.formats.notmine", (".notmine",), starts=(b"NotMine{",)),
    Sign("webpbn XML", "rofl.formats.webpbn", (".xml",), starts=(b"<?xml", b"<puzzleset")),
    Sign("Simpson .non", "rofl.formats.non", (".non",)),
    Sign("Wilk .nin", "rofl.formats.nin", (".nin",)),
    Sign("Olsak .g", "rofl.formats.olsak", (".g",)),
    Sign("Olsak .mk", "rofl.formats.mk", (".mk",)),
    Sign("QNonograms .cwd", "rofl.formats.cwd", (".cwd",)),
    Sign("Tatham's Pattern .sav", "rofl.formats.tatham", (".sav",), starts=(b"SAVEFILE:",)),
    Sign("Gnonograms .gno", "rofl.formats.gnonograms", (".gno",), starts=(b"[Description]", b"[Dimensions]")),
    Sign("nonograms_solver .pzl", "rofl.formats.pzl", (".pzl",), sniff="sniff"),
    Sign("PNG sheet", "rofl.formats.sheets", (".png",), magic=b"\x89PNG\r\n\x1a\n", not_written=_SHEET),
    Sign("SVG sheet", "rofl.formats.sheets", (".svg",), sniff="is_svg", not_written=_SHEET),
    Sign("PDF sheet", "rofl.formats.sheets", (".pdf",), magic=b"%PDF-", not_written=_SHEET),
    Sign("TAAI tournament file", "rofl.formats.taai", sniff="looks_like"),
    Sign("rofl clue text", "rofl.formats.clues", (".clues",), starts=(b"rofl clues 1",)),
)


def sign_of(name: str) -> Sign:
    """The :class:`Sign` of the format called ``name``.

    Raises
    ------
    ValueError
        No sign has that name.
    """
    found = next((s for s in SIGNS if s.name == name), None)
    if found is None:
        msg = f"no format is called {name!r}: add its Sign to rofl.formats._format.SIGNS"
        raise ValueError(msg)
    return found


@dataclass(frozen=True)
class Format:
    """What rofl knows of one puzzle file format: what its module holds, and
    (as attributes of its own) the facts of its :class:`Sign`.

    Attributes
    ----------
    name : str
        The name of its :class:`Sign` in :data:`SIGNS`, which must be there.
    read : callable
        ``read(data, *, where, number=None)``: the puzzle of the file
        ``data`` (``where`` names it in error messages; ``number`` picks a
        puzzle of a :attr:`many` format), as ``(puzzle, solution or None)``,
        or, for a format that :attr:`carries_rofl`, as the
        :class:`~rofl.formats.rofl.RoflFile` it holds.  Defined in the
        sign's module.
    write : callable or None
        ``write(puzzle, solution=None) -> bytes``; None exactly when the
        sign says rofl does not write the format.
    colour : bool
        Whether it holds colour puzzles, not only black-and-white ones.
    plain_two : bool
        Whether, although it holds colour puzzles, it writes a puzzle of
        two colours as plain black and white (its two colours are lost, as
        in a format without colour).
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
    sign : Sign
        Its sign; :attr:`extensions`, :attr:`magic`, :attr:`starts`,
        :attr:`sniff`, :attr:`guess`, :attr:`not_written` and :attr:`module`
        are the sign's (with :attr:`sniff` the function itself).

    Raises
    ------
    ValueError
        A declaration that disagrees with its sign: no sign of that name,
        another module, or a writer for a format the sign says is not
        written (or none for one it says is).
    """

    name: str
    read: Callable[..., Any]
    write: Callable[..., bytes] | None = None
    colour: bool = False
    plain_two: bool = False
    keeps: str = ""
    colour_keeps: bool = True
    picture: bool = True
    many: bool = False
    carries_rofl: bool = False
    caveat: Callable[[Any], str | None] | None = None
    hexagon: bool = False
    color_sets: bool = False
    sign: Sign = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        sign = sign_of(self.name)
        if self.read.__module__ != sign.module:
            msg = f"the format {self.name!r} is declared in {self.read.__module__}, its sign says {sign.module}"
            raise ValueError(msg)
        if (self.write is not None) != sign.written:
            msg = f"the format {self.name!r} has {'a' if self.write else 'no'} writer, its sign says otherwise"
            raise ValueError(msg)
        object.__setattr__(self, "sign", sign)

    @property
    def extensions(self) -> tuple[str, ...]:
        """The extensions that name it (:attr:`Sign.extensions`)."""
        return self.sign.extensions

    @property
    def magic(self) -> bytes:
        """The first bytes of every file (:attr:`Sign.magic`)."""
        return self.sign.magic

    @property
    def starts(self) -> tuple[bytes, ...]:
        """What a text file starts with (:attr:`Sign.starts`)."""
        return self.sign.starts

    @property
    def sniff(self) -> Callable[[bytes], bool] | None:
        """``sniff(data) -> bool``, the function :attr:`Sign.sniff` names, or None."""
        return getattr(sys.modules[self.module], self.sign.sniff) if self.sign.sniff else None

    @property
    def guess(self) -> bytes:
        """The text start that names it when no extension does (:attr:`Sign.guess`)."""
        return self.sign.guess

    @property
    def not_written(self) -> str:
        """Why rofl does not write it (:attr:`Sign.not_written`)."""
        return self.sign.not_written

    @property
    def module(self) -> str:
        """The module that declares the format."""
        return self.sign.module

    @property
    def extension(self) -> str:
        """The extension files of this format are written with ("" for none)."""
        return self.extensions[0] if self.extensions else ""

    def keeps_two_colours(self) -> bool:
        """Whether a two-colour puzzle reads back with its own two colours,
        not as black on white."""
        return self.colour and not self.plain_two

    def keeps_solution(self, puzzle) -> bool:
        """Whether a solution of ``puzzle`` written in this format is kept."""
        return bool(self.keeps) and (self.colour_keeps or puzzle.n_colors <= 2)

    def keeps_crc(self) -> bool:
        """Whether the writer keeps a solution as its CRC-32 (and so takes a stored one)."""
        return bool(self.keeps) and not self.picture
