"""Puzzle files of Evgeny Shulgin's (Izaron's) ``nonograms_solver``
(``.pzl``): black and white, or colour.

No specification was written; this module follows the solver's reader
(``src/puzzle.cpp`` of github.com/Izaron/Nonograms: ``ReadColored`` with
``ReadColorsFromStream`` and ``ReadGroupInfoColored``, ``ReadBlack`` with
``ReadGroupInfoBlack``) and the puzzles it ships (``puzzles/*.pzl``).  The
file is a stream of numbers and words separated by any white space (the
reader uses C++ ``>>``), in one of two variants the solver is told apart
by its ``-b`` option::

    colour                            black and white (-b)

    3             listed colours      2 3            rows, columns
    #000000       one #rrggbb each    1 1            a line: its group count,
    #ff9900                           2 1 1          then the group lengths
    #03aaf5                           0              (0 groups: an empty line)
    2 3           rows, columns       ...            every row, then every column
    2 1 0 0 0 2 255 153 0
    ...           a line: its group count, then each group's
                  length and colour as three decimal numbers r g b

Colours.  The solver adds white (``#ffffff``) in front of the listed
colours as its colour 0, the background; so the palette of a file read
here is white followed by the listed colours, in order, and rofl's index
0 is the solver's background.  A group's ``r g b`` names the listed
colour of that value; when two listed colours are equal, the solver's
lookup table keeps the later one, and so does this reader.  A listed
colour equal to white (the sparkle example has one) is a colour of its
own, distinct from the background, as in the solver.  The writer writes
the palette after index 0 as the listed colours: a puzzle whose
background is not white reads back with a white one, and a puzzle with
two equal colours besides the background is refused, since the solver
could not tell their groups apart.

The variant is recognised without the solver's option: a file with a
``#`` colour, or whose first number is 0 (a colour file listing no
colours, whose sizes cannot be 0), is a colour file; any other is black
and white.  The writer writes black on white puzzles in the black and
white variant, and every other puzzle in the colour variant.

Where the solver is lenient this reader refuses, with one error naming
the line: text after the last column (the solver ignores it), a colour
not written ``#rrggbb`` (the solver warns and takes black, or crashes),
a group colour that is not listed (the solver takes the background), a
channel above 255 (the solver wraps it), a negative count, a group of
length 0, and a line whose groups need more cells than it has (checked
as each line is read).  The format has no room for a title or a solution.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from rofl.errors import FormatError
from rofl.formats import _limits, _text
from rofl.palette import MAX_COLORS, RGB, Palette
from rofl.puzzle import Puzzle

#: The solver's background, colour 0 of every puzzle it reads.
WHITE: RGB = (255, 255, 255)
#: The most colours the solver itself solves (white included): it keeps a
#: cell's possible colours in a C ``int`` of ``1 << colours`` bits.
SOLVER_MAX_COLORS = 31

_FIRST = re.compile(r"\s*(\S+)")
_HEX_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")
# a colour file: a count, then a first #rrggbb colour
_SNIFF = re.compile(rb"\A(?:\xef\xbb\xbf)?\s*\d{1,2}\s+#[0-9a-fA-F]{6}\s")


class _Tokens:
    """The file's words in order, each with its line number, read lazily
    (in linear time and without a list of every word of a large file)."""

    def __init__(self, text: str, where: str) -> None:
        self._text = text
        self._where = where
        self._words: Iterator[re.Match[str]] = re.finditer(r"\S+", text)
        self._at = 0  # where line counting stopped
        self.line = 1

    def next(self, what: str) -> str:
        """The next word; an error saying ``what`` was expected at the end of the file."""
        found = next(self._words, None)
        if found is None:
            raise _text.fail(self._where, None, f"the file ends where {what} was expected")
        self.line += self._text.count("\n", self._at, found.start())
        self._at = found.start()
        return found.group()

    def number(self, what: str, largest: int | None = None) -> int:
        """The next word as a non-negative number, at most ``largest``."""
        value = _text.number(self.next(what), self._where, self.line, what)
        if largest is not None and value > largest:
            raise _text.fail(self._where, self.line, f"{what} {value} is more than {largest}")
        return value

    def rest(self) -> str | None:
        """The next word, or None at the end of the file."""
        found = next(self._words, None)
        if found is None:
            return None
        self.line += self._text.count("\n", self._at, found.start())
        return found.group()


def is_colour(text: str) -> bool:
    """Whether the text of a ``.pzl`` file is of the colour variant (see the module's docstring)."""
    if "#" in text:
        return True
    first = _FIRST.match(text)
    return first is not None and first.group(1).strip("0") == ""


def loads(data: bytes | str, *, where: str = "<pzl>") -> Puzzle:
    """Parse a ``.pzl`` file of either variant.

    Raises
    ------
    FormatError
        A word that is not the number or colour expected, a line's groups
        cut short, a group colour that is not listed, text after the last
        column, or clues that are not a valid puzzle (the message names
        the line).
    LimitError
        A puzzle larger than :data:`rofl.formats._limits.MAX_CELLS`.
    """
    text = _text.decode(data, where)
    tokens = _Tokens(text, where)
    if is_colour(text):
        palette, index = _colours(tokens, where)
    else:
        palette, index = Palette.black_white(), None
    height = _text.size(tokens.next("the number of rows"), where, tokens.line, "number of rows")
    width = _text.size(tokens.next("the number of columns"), where, tokens.line, "number of columns")
    _limits.check_cells(width, height, where)  # before a clue is read
    rows = [_line(tokens, index, width, f"row {r + 1}") for r in range(height)]
    cols = [_line(tokens, index, height, f"column {c + 1}") for c in range(width)]
    extra = tokens.rest()
    if extra is not None:
        msg = f"{_text._show(extra)} after the last column (a {height}x{width} puzzle ends there)"
        raise _text.fail(where, tokens.line, msg)
    return _text.build(width, height, palette, rows, cols, None, where)


def _colours(tokens: _Tokens, where: str) -> tuple[Palette, dict[RGB, int]]:
    """The palette (white, then the listed colours) and the index of each RGB value."""
    count = tokens.number("the number of colours", MAX_COLORS - 1)
    colours = [WHITE]
    for i in range(count):
        word = tokens.next(f"colour {i + 1} of {count}")
        if not _HEX_COLOUR.fullmatch(word):
            raise _text.fail(where, tokens.line, f"colour {i + 1} is {_text._show(word)}; expected #rrggbb")
        colours.append((int(word[1:3], 16), int(word[3:5], 16), int(word[5:7], 16)))
    # as the solver's std::map: a later equal colour replaces an earlier one
    index = {rgb: i for i, rgb in enumerate(colours)}
    return Palette(colours), index


def _line(tokens: _Tokens, index: dict[RGB, int] | None, side: int, name: str) -> list[tuple[int, int]]:
    """One line's groups: ``(length, colour)`` pairs."""
    where = tokens._where
    # a line of `side` cells holds at most `side` groups: checked before any is read
    count = tokens.number(f"the group count of {name}", side)
    groups = []
    for g in range(count):
        length = tokens.number(f"the length of group {g + 1} of {name}", side)
        if length == 0:
            raise _text.fail(where, tokens.line, f"{name}: group {g + 1} has length 0")
        if index is None:
            groups.append((length, 1))
            continue
        rgb = tuple(tokens.number(f"a colour channel of group {g + 1} of {name}", 255) for _ in range(3))
        colour = index.get(rgb)  # type: ignore[arg-type]
        if not colour:  # not listed, or the background itself
            shown = " ".join(map(str, rgb))
            raise _text.fail(where, tokens.line, f"{name}: group {g + 1} has colour {shown}, which is not listed")
        groups.append((length, colour))
    # checked line by line, so that a hostile file never holds more groups
    # than a puzzle of its size can have
    needed = sum(n for n, _ in groups) + sum(g[1] == h[1] for g, h in zip(groups, groups[1:], strict=False))
    if needed > side:
        raise _text.fail(where, tokens.line, f"{name}: its groups need {needed} cells but it has {side}")
    return groups


def dumps(puzzle: Puzzle) -> str:
    """The ``.pzl`` text of ``puzzle``: black and white when its palette is
    black on white, else colour.

    Raises
    ------
    FormatError
        Two equal colours besides the background.
    """
    lines: list[str] = []
    if puzzle.palette == Palette.black_white():
        lines.append(f"{puzzle.height} {puzzle.width}")
        lines.append("")
        body = [[str(len(line)), *(str(n) for n, _ in line)] for line in puzzle.rows]
        body.append([])
        body += [[str(len(line)), *(str(n) for n, _ in line)] for line in puzzle.cols]
    else:
        listed = puzzle.palette.colors[1:]
        for i, rgb in enumerate(listed):
            if rgb in listed[i + 1 :]:
                shown = "#{:02x}{:02x}{:02x}".format(*rgb)
                msg = (
                    f"the .pzl format names a group's colour by its value, and colours {i + 1} and "
                    f"{listed.index(rgb, i + 1) + 1} are both {shown}"
                )
                raise FormatError(msg)
        lines.append(str(len(listed)))
        lines += ["#{:02x}{:02x}{:02x}".format(*rgb) for rgb in listed]
        lines.append("")
        lines.append(f"{puzzle.height} {puzzle.width}")
        lines.append("")
        colours = puzzle.palette.colors

        def groups(line):
            return [str(len(line)), *(f"{n} {' '.join(map(str, colours[c]))}" for n, c in line)]

        body = [groups(line) for line in puzzle.rows]
        body.append([])
        body += [groups(line) for line in puzzle.cols]
    lines += [" ".join(words) for words in body]
    return "\n".join(lines) + "\n"


def sniff(data: bytes) -> bool:
    """Whether ``data`` starts as a colour ``.pzl`` file does: a colour count, then ``#rrggbb``."""
    return _SNIFF.match(data[:64]) is not None


def caveat(puzzle: Puzzle) -> str | None:
    """What a ``.pzl`` file of ``puzzle`` loses, or why the solver cannot
    solve it (rofl reads it all the same); None when neither."""
    notes = []
    if puzzle.palette.colors[0] != WHITE and puzzle.palette != Palette.black_white():
        shown = "#{:02x}{:02x}{:02x}".format(*puzzle.palette.colors[0])
        note = f"the background of a .pzl file is always white: {shown} reads back as #ffffff"
        if WHITE in puzzle.palette.colors[1:]:
            note += ", and its #ffffff cells vanish on it"
        notes.append(note)
    if puzzle.n_colors > SOLVER_MAX_COLORS:
        notes.append(
            f"nonograms_solver handles at most {SOLVER_MAX_COLORS - 1} colours besides white; "
            f"this puzzle has {puzzle.n_colors - 1} (rofl reads it all the same)"
        )
    return "; ".join(notes) or None


#: How :mod:`rofl.formats` knows the format.
FORMAT = _text.clue_format("nonograms_solver .pzl", loads, dumps, colour=True, caveat=caveat)
FORMATS = (FORMAT,)
