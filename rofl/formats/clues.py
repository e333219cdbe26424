"""rofl's clue text (``.clues``): clues of hexagonal and rectangular puzzles, ``?`` groups included.

The one text format that holds what the other formats cannot: the three
line directions of a :class:`~rofl.hexagon.HexPuzzle` and groups whose colour
is ``?`` (any ink colour) or a set of colours.  A file::

    rofl clues 1
    hexagon 3                    or: rectangle WIDTH HEIGHT
    title A small flower         optional metadata, one key and its text a line
    colours #ffffff #000000 #d02030
    rows                         then one clue line per line of the section
    1a
    2a 1b
    ...
    falling
    ...
    rising
    ...

The sections are ``rows``, ``falling`` and ``rising`` for a hexagon (2s-1
clue lines each, in :class:`~rofl.hexagon.Hexagon`'s order: rows top to
bottom, both diagonal directions left to right along the top edge) and
``rows`` and ``columns`` for a rectangle.  A group is its length and its
colour: a letter name (``a`` is palette index 1, ..., ``z`` 26, then
``aa``..``az``, ``ba``.. as spreadsheet columns), ``?`` (any ink colour)
or names joined by ``|`` (``2a|c``: colour a or c).  A bare length is
colour ``a``, so black-and-white clues read as in ``.nin``.  An empty line
is ``0``; blank lines and lines starting with ``#`` are ignored.  Colours
are ``#rrggbb``, the background first.  The format holds clues only (no
solution); ``docs/formats.md`` describes it for users.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from rofl.errors import FormatError, PuzzleError
from rofl.formats import _limits, _text
from rofl.formats._format import Format, sign_of
from rofl.hexagon import MAX_HEX_SIDE, HexPuzzle
from rofl.palette import MAX_COLORS, Palette
from rofl.puzzle import Puzzle
from rofl.validate import ANY_COLOR

#: The first line of every file (the number is the format's version; the sign's ``starts``).
SIGNATURE = sign_of("rofl clue text").starts[0].decode()

#: Metadata keys a file may give, one a line (the keys of rofl's other formats).
META_KEYS = ("title", "author", "licence", "source", "id", "origin", "notes")

_SECTIONS = {"hexagon": ("rows", "falling", "rising"), "rectangle": ("rows", "columns")}
_GROUP = re.compile(r"([0-9]+)((?:[a-z]+(?:\|[a-z]+)*)|\?)?")
_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")
_WORD = re.compile(r"\S+")


def colour_name(index: int) -> str:
    """The letter name of ink colour ``index`` (``1`` -> ``a``, ``27`` -> ``aa``)."""
    name = ""
    while index > 0:
        index, digit = divmod(index - 1, 26)
        name = chr(ord("a") + digit) + name
    return name


def _colour_index(name: str) -> int:
    value = 0
    for ch in name:
        value = value * 26 + ord(ch) - ord("a") + 1
        if value >= MAX_COLORS:  # bounded before a long name grows a big number
            return MAX_COLORS
    return value


def _content(text: str):
    """(line number, stripped text) of the lines that are neither blank nor comments."""
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            yield number, stripped


def _words(text: str, most: int, where: str, place: int, what: str) -> list[str]:
    """The words of ``text``, refused as soon as there are more than ``most``
    (a 64 MB line is never split into millions of strings)."""
    words = []
    for found in _WORD.finditer(text):
        if len(words) == most:
            raise _text.fail(where, place, f"more than {most} {what}")
        words.append(found.group())
    return words


#: What a line of each section is called in messages (as the puzzles name them).
_LINE_NAMES = {"rows": "row", "columns": "column", "falling": "falling diagonal", "rising": "rising diagonal"}


class _Groups:
    """The clue lines of a file, read into flat arrays as they come (the
    layout of :meth:`Puzzle.from_arrays <rofl.puzzle.Puzzle.from_arrays>`).

    Linear in the file: each distinct token (``2a``, ``1?``, ``3a|c``) is
    parsed once and its group kept, so a million ``1?`` cost a dictionary
    look-up each, and the puzzle is built from arrays, not from a list of
    tuples checked group by group.
    """

    def __init__(self, n_colors: int, where: str) -> None:
        self.n_colors = n_colors
        self.where = where
        self.lengths: list[int] = []
        self.colors: list[int] = []
        self.masks: list[int] = []  # a colour set's bit mask (its colour is then 0), else 0
        self.offsets = [0]
        self.known: dict[str, tuple[int, int, int]] = {}

    def line(self, text: str, cells: int, place: int, name: str) -> None:
        """Add the groups of a clue line along a line of ``cells`` cells."""
        # a cell at least each: more groups cannot fit, whatever their colours;
        # split at most that far, so a 64 MB line is never split into millions of strings
        tokens = text.split(None, cells)
        if len(tokens) > cells:
            raise _text.fail(self.where, place, f"more than {cells} groups for a line of {cells} cells")
        if tokens != ["0"]:
            known = self.known
            for token in tokens:
                group = known.get(token)
                if group is None:
                    at = f"{name}, group {len(self.lengths) - self.offsets[-1] + 1}"
                    group = known[token] = self._group(token, place, at)
                length, colour, mask = group
                self.lengths.append(length)
                self.colors.append(colour)
                self.masks.append(mask)
        self.offsets.append(len(self.lengths))

    def _group(self, token: str, place: int, name: str) -> tuple[int, int, int]:
        """``(length, colour, mask)`` of one group token."""
        where = self.where
        found = _GROUP.fullmatch(token)
        if found is None:
            raise _text.fail(where, place, f"{_show(token)} is not a group (a length and a colour: 3, 2a, 1?, 2a|c)")
        length = _text.number(found.group(1), where, place, "group length")
        if length == 0:
            raise _text.fail(where, place, "a group of length 0 (only a lone 0 marks an empty line)")
        colour = found.group(2) or "a"
        n_colors = self.n_colors
        if colour == ANY_COLOR:
            if n_colors <= 2:
                msg = f"{name}: {ANY_COLOR!r} means any ink colour, but the puzzle has only one; give colour 1"
                raise _text.fail(where, place, msg)
            return length, 0, (1 << n_colors) - 2
        mask = 0
        for member in colour.split("|"):
            index = _colour_index(member)
            if index >= n_colors:
                msg = f"colour {_show(member)} of {_show(token)} is not in the palette "
                msg += f"({n_colors - 1} ink colours, a to {colour_name(n_colors - 1)})"
                raise _text.fail(where, place, msg)
            mask |= 1 << index
        if mask & (mask - 1) == 0:  # one colour (also 'a|a')
            return length, mask.bit_length() - 1, 0
        return length, 0, mask

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]:
        """``lengths``, ``colors``, ``offsets`` and the colour sets (None without any)."""
        sets = np.array(self.masks, dtype=np.uint64) if any(self.masks) else None
        return (
            np.array(self.lengths, dtype=np.int64),
            np.array(self.colors, dtype=np.int64),
            np.array(self.offsets, dtype=np.int64),
            sets,
        )


def _show(token: str) -> str:
    return repr(token if len(token) <= 20 else token[:20] + "...")


def loads(data: bytes | str, *, where: str = "<clues>") -> HexPuzzle | Puzzle:
    """Parse a ``.clues`` file.

    Raises
    ------
    FormatError
        Anything out of place, named by its line: a missing or unknown
        header, a bad colour or group, more or fewer clue lines than the
        shape has, clues that are not a valid puzzle.
    LimitError
        A puzzle beyond the readers' limits.
    """
    lines = _content(_text.decode(data, where))
    first = next(lines, None)
    if first is None or first[1] != SIGNATURE:
        raise _text.fail(where, first and first[0], f"a .clues file starts with the line {SIGNATURE!r}")
    place, text = next(lines, (first[0], ""))
    shape, _, size = text.partition(" ")
    sizes = size.split()
    if shape == "hexagon" and len(sizes) == 1:
        side = _text.number(sizes[0], where, place, "side")
        if not 1 <= side <= MAX_HEX_SIDE:
            raise _text.fail(where, place, f"the side must be from 1 to {MAX_HEX_SIDE}, not {side}")
        m = side - 1
        counts = [2 * m + 1] * 3
        cells = [[side + min(t, 2 * m - t) for t in range(2 * m + 1)]] * 3
    elif shape == "rectangle" and len(sizes) == 2:
        width = _text.size(sizes[0], where, place, "width")
        height = _text.size(sizes[1], where, place, "height")
        _limits.check_cells(width, height, where)
        counts = [height, width]
        cells = [[width] * height, [height] * width]
    else:
        raise _text.fail(where, place, f"expected 'hexagon SIDE' or 'rectangle WIDTH HEIGHT', not {text[:40]!r}")
    meta: dict[str, str] = {}
    palette = None
    for place, text in lines:
        key, _, value = text.partition(" ")
        if key in META_KEYS:
            meta[key] = value.strip()
        elif key == "colours":
            palette = _palette(_words(value, MAX_COLORS, where, place, "colours"), where, place)
        elif key == _SECTIONS[shape][0]:
            break
        else:
            expected = f"{', '.join(META_KEYS)}, colours or {_SECTIONS[shape][0]}"
            raise _text.fail(where, place, f"expected a line starting {expected}, not {text[:40]!r}")
    else:
        raise _text.fail(where, None, f"no {_SECTIONS[shape][0]!r} section")
    if palette is None:
        palette = Palette.black_white()
    groups = _Groups(len(palette), where)
    for number, (name, count, lengths) in enumerate(zip(_SECTIONS[shape], counts, cells, strict=True)):
        if number:
            place, text = next(lines, (place, ""))
            if text != name:
                raise _text.fail(
                    where, place, f"expected the {name!r} section after {count} clue lines, not {text[:40]!r}"
                )
        for index in range(count):
            place, text = next(lines, (place, ""))
            if not text or text in _SECTIONS[shape]:
                msg = f"the {name} section needs {count} clue lines, found {index} (0 is an empty line)"
                raise _text.fail(where, place, msg)
            groups.line(text, lengths[index], place, f"{_LINE_NAMES[name]} {index + 1}")
    extra = next(lines, None)
    if extra is not None:
        raise _text.fail(where, extra[0], f"text after the last section: {extra[1][:40]!r}")
    lengths_, colors, offsets, sets = groups.arrays()
    try:
        if shape == "hexagon":
            return HexPuzzle.from_arrays(side, palette, lengths_, colors, offsets, color_sets=sets, meta=meta)
        return Puzzle.from_arrays(width, height, palette, lengths_, colors, offsets, color_sets=sets, meta=meta)
    except PuzzleError as exc:
        raise _text.fail(where, None, str(exc)) from None


def _palette(tokens: list[str], where: str, place: int) -> Palette:
    for token in tokens:
        if not _COLOUR.fullmatch(token):
            raise _text.fail(where, place, f"colour {_show(token)} is not written #rrggbb")
    if not 2 <= len(tokens) <= MAX_COLORS:
        raise _text.fail(where, place, f"{len(tokens)} colours: a puzzle has 2 to {MAX_COLORS}, the background first")
    return Palette(tokens)


def _group_text(length: int, colour: Any, n_colors: int) -> str:
    if isinstance(colour, frozenset):
        if colour == frozenset(range(1, n_colors)):
            return f"{length}{ANY_COLOR}"
        return f"{length}" + "|".join(colour_name(c) for c in sorted(colour))
    return str(length) if n_colors <= 2 else f"{length}{colour_name(colour)}"


def dumps(puzzle: HexPuzzle | Puzzle) -> str:
    """The ``.clues`` text of ``puzzle`` (either shape); metadata on one
    line each (line breaks become spaces)."""
    if isinstance(puzzle, HexPuzzle):
        out = [SIGNATURE, f"hexagon {puzzle.side}"]
        sections = {"rows": puzzle.rows, "falling": puzzle.falling, "rising": puzzle.rising}
    else:
        out = [SIGNATURE, f"rectangle {puzzle.width} {puzzle.height}"]
        sections = {"rows": puzzle.rows, "columns": puzzle.cols}
    for key in META_KEYS:
        value = " ".join(puzzle.meta.get(key, "").split())
        if value:
            out.append(f"{key} {value}")
    out.append("colours " + " ".join(puzzle.palette.hex()))
    for name, clues in sections.items():
        out.append(name)
        out.extend(" ".join(_group_text(n, c, puzzle.n_colors) for n, c in clue) if clue else "0" for clue in clues)
    return "\n".join(out) + "\n"


def _read(data: bytes, *, where: str = "<clues>") -> tuple[HexPuzzle | Puzzle, None]:
    return loads(data, where=where), None


def _write(puzzle: HexPuzzle | Puzzle, solution: np.ndarray | None = None) -> bytes:
    if solution is not None and not puzzle.is_solution(np.asarray(solution)):
        msg = "the solution does not match the clues"
        raise FormatError(msg)
    return dumps(puzzle).encode("utf-8")


#: How :mod:`rofl.formats` knows the format.
FORMAT = Format(
    "rofl clue text",
    _read,
    _write,
    colour=True,
    hexagon=True,
    color_sets=True,
)
FORMATS = (FORMAT,)
