"""Mirek and Petr Olšák's ``.g`` format (their ``grid`` solver; pbnsolve reads it too).

The format is documented inside the example files that come with the
solver; the copies in ``avi-levy/pbnsolve`` ``examples/`` were used
(``kocka.g`` for black and white, ``oko.g`` and ``rose.g`` for colour),
with pbnsolve's reader ``pbnsolve/read_olsak.c`` and number-loom's writer
(``src/formats/olsak.rs``) for what other programs accept and produce::

    Any text before a line starting with '#' or ':' is a comment.
    #d                        optional: colour declarations follow
       0:   white   bg        <inchar>:<outchar> <XPM colour> <comment>
       1:*  black             '1' = the default colour (blocks without a letter)
       m:%  #0000FF  blue     any other character but a digit, space or comma
    : rows                    text after the colon is ignored
    5 4                       one line per row: block lengths, each optionally
    2m 1 3m                   followed by its colour's <inchar>
                              a blank line is an empty row
    : columns
    ...
    : end                     everything after the third colon line is ignored

Without ``#d`` the puzzle is black and white.  ``0:`` redefines the
background (white by default).  Colours are XPM words: X11 colour names
(case-insensitive; ``green`` is X11's ``#00ff00``) or ``#rgb``/``#rrggbb``.
Palette order: background, then the declared colours in file order.

This reader also accepts a lone ``0`` for an empty line, commas between
blocks, CRLF, and a file that stops without the final colon line (trailing
blank lines are then not taken as empty columns).  It refuses triddlers
(``#t``) and triangle colours (``black/white``), which rofl cannot
represent.  The format has no size header: the size is the number of row
and column lines, so there is nothing to check them against; the clues must
still form a valid puzzle.  The writer omits ``#d`` for a puzzle in plain
black and white; the format keeps no metadata and no solution.
"""

from __future__ import annotations

import re

from rofl.formats import _text
from rofl.palette import MAX_COLORS, Palette
from rofl.puzzle import Puzzle

_BLOCK = re.compile(r"([0-9]+)(\S?)")
# <inchar>s the writer uses, colour 1 first
_INCHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ!$%&*+-./;<=>?@^_~"


class _Colours:
    def __init__(self) -> None:
        self.rgb: list[tuple[int, int, int]] = [(255, 255, 255)]
        self.by_char: dict[str, int] = {}
        self.default: int | None = None


def _declaration(line: str, number: int, colours: _Colours, where: str) -> None:
    s = line.lstrip(" \t")
    if len(s) < 2 or s[1] != ":":
        raise _text.fail(where, number, "expected a colour declaration '<inchar>:<outchar> <colour> [comment]'")
    inchar = s[0]
    words = s[3:].split()
    if not words:
        raise _text.fail(where, number, f"colour {inchar!r} has no colour name or #rrggbb")
    word = words[0]
    if "/" in word or "\\" in word:
        raise _text.fail(where, number, f"{word!r} is a triangle colour; rofl reads square cells only")
    rgb = _text.named_colour(word, x11=True)
    if rgb is None:
        raise _text.fail(where, number, f"{word!r} is not a colour rofl knows (X11 name or #rrggbb)")
    if inchar == "0":
        colours.rgb[0] = rgb
        return
    if (inchar.isdigit() and inchar != "1") or inchar == ",":
        raise _text.fail(where, number, f"{inchar!r} cannot name a colour (digits other than 0 and 1, commas)")
    if inchar in colours.by_char:
        raise _text.fail(where, number, f"colour {inchar!r} is declared twice")
    if len(colours.rgb) >= MAX_COLORS:
        raise _text.fail(where, number, f"more than {MAX_COLORS} colours")
    colours.by_char[inchar] = len(colours.rgb)
    colours.rgb.append(rgb)
    if inchar == "1":
        colours.default = colours.by_char[inchar]


def _clue(line: str, number: int, colours: _Colours, where: str) -> list[tuple[int, int]]:
    tokens = [t for t in _text.BW_SEPARATORS.split(line.strip()) if t]
    if tokens == ["0"]:
        return []
    groups = []
    for token in tokens:
        m = _BLOCK.fullmatch(token)
        if not m:
            raise _text.fail(where, number, f"{token[:20]!r} is not a block (a length, then a colour letter or none)")
        length = _text.number(m.group(1), where, number, "block length")
        if length == 0:
            raise _text.fail(where, number, "a block of length 0 (an empty line is written blank)")
        letter = m.group(2)
        if not letter:
            if colours.default is None:
                raise _text.fail(where, number, f"block {token!r} has no colour letter and no default colour (1:)")
            colour = colours.default
        elif letter in colours.by_char:
            colour = colours.by_char[letter]
        else:
            raise _text.fail(where, number, f"block {token!r}: no colour {letter!r} is declared")
        groups.append((length, colour))
    return groups


def loads(text: str | bytes, *, where: str = "<g>") -> Puzzle:
    """Parse an Olšák ``.g`` document.

    Raises
    ------
    FormatError
        No clue sections, a bad colour declaration, a block with an unknown
        colour, a triddler, or clues that are not a valid puzzle (the
        message names the line).
    """
    lines = _text.decode(text, where).splitlines()
    colours = _Colours()
    declared = False
    i = 0
    # the preamble: comments, then '#d' colour declarations, up to the first ':' line
    while i < len(lines) and not lines[i].startswith(":"):
        line = lines[i]
        if line[:2].lower() == "#t":
            raise _text.fail(where, i + 1, "a triddler (#t); rofl reads square grids only")
        if line[:2].lower() == "#d" and not declared:
            declared = True
            i += 1
            while i < len(lines) and not lines[i].lstrip().startswith(":"):
                if lines[i].strip():
                    _declaration(lines[i], i + 1, colours, where)
                i += 1
            break
        i += 1
    if i >= len(lines):
        raise _text.fail(where, None, "no ':' line starting the row clues (is this an Olšák .g file?)")
    if not declared:
        colours.rgb.append((0, 0, 0))
        colours.default = 1

    sections: list[list[tuple[int, str]]] = []
    terminated = False
    i += 1
    current: list[tuple[int, str]] = []
    while i < len(lines):
        if lines[i].lstrip().startswith(":"):
            sections.append(current)
            current = []
            if len(sections) == 2:
                terminated = True
                break
        else:
            current.append((i + 1, lines[i]))
        i += 1
    if not terminated:
        if not sections:
            raise _text.fail(where, None, "only one clue section: the ':' line starting the columns is missing")
        # no closing ':' line: trailing blank lines are layout, not empty columns
        while current and not current[-1][1].strip():
            current.pop()
        sections.append(current)
    rows = [_clue(line, n, colours, where) for n, line in sections[0]]
    cols = [_clue(line, n, colours, where) for n, line in sections[1]]
    if not rows or not cols:
        raise _text.fail(where, None, "a puzzle needs at least one row and one column clue line")
    return _text.build(len(cols), len(rows), Palette(colours.rgb), rows, cols, None, where)


def dumps(puzzle: Puzzle) -> str:
    """The ``.g`` text of ``puzzle`` (any number of colours; no metadata, no solution)."""
    palette = puzzle.palette
    out = []
    if palette == Palette.black_white():
        letters = ["", ""]
    else:
        hexes = palette.hex()
        out += ["#d", f"   0:   {hexes[0]}   background"]
        if puzzle.n_colors == 2:
            letters = ["", ""]
            out.append(f"   1:*  {hexes[1]}   colour 1 (the default)")
        else:
            letters = ["", *_INCHARS[: puzzle.n_colors - 1]]
            out += [f"   {ch}:{ch}  {hexes[i]}   colour {i}" for i, ch in enumerate(letters) if i]
    for title, lines in ((": rows", puzzle.rows), (": columns", puzzle.cols)):
        out.append(title)
        out += [" ".join(f"{n}{letters[c]}" for n, c in line) for line in lines]
    out.append(": end")
    return "\n".join(out) + "\n"


#: How :mod:`rofl.formats` knows the format.
FORMAT = _text.clue_format("Olsak .g", loads, dumps, label="Olšák .g", colour=True)
FORMATS = (FORMAT,)
