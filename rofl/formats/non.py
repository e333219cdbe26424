"""Steve Simpson's ``.non`` format, with pbnsolve's ``goal`` extension.

The format is specified at ``comp.lancs.ac.uk/~ss/nonogram/fmt2``
("Puzzle-file format"); pbnsolve's ``doc/input.md`` and ``read_bw.c`` add
``goal`` (the designer's picture).  A file is a sequence of lines::

    title "Dancer"          properties: a keyword, then a string (quotes optional)
    by "Jan Wolter"
    copyright "(c) 2004 Jan Wolter"
    catalogue "webpbn #1"
    width 5                 also written 'columns 5'
    height 10               also written 'rows 10'

    rows                    then one rule per row, top to bottom
    2
    2,1
    0                       an empty line of the puzzle
    ...
    columns                 then one rule per column, left to right
    ...
    goal "0110001101..."    pbnsolve: the picture, row by row, 1 = black

Rules are lengths separated by commas (spaces accepted, as pbnsolve does;
colons too, as Nonny does).
Following the specification, blank lines are ignored everywhere, so an
empty line of the puzzle must be written ``0``; lines that start with an
unknown word are properties and ignored unless rofl keeps them as metadata
(``title``, ``by``, ``copyright``, ``catalogue``, ``source``, ``origin``,
``notes``, ``licence``).  ``rows h`` followed directly by the rules (no
separate ``rows`` line) is read as pbnsolve reads it.  ``goal`` may also
be spread over the following lines, as pbnsolve allows.  Non-ASCII
characters in properties are HTML character references (``&#233;``), as
the specification asks; the reader decodes them, the writer produces them.

Colour: Nonny's extension
-------------------------
Gregory Kikola's Nonny (``gkikola/nonny``, ``src/puzzle/puzzle_io.cpp``,
``non_format::read``, ``parse_color``, ``parse_clue_line`` and
``write_clues`` / ``write_colors``; ``src/color/color_palette.cpp`` and
``color.cpp``) adds colours to the format::

    color red FF0000 #      a colour: a name, six hex digits, an optional symbol
    color background FFFFCC .
    rows
    red 4                   a name sets the colour of the numbers after it
    red: 1, yellow: 4, 1    (what Nonny writes: names end in ':', commas)
    2 green 1               a number before any name is 'black'
    0

What rofl takes from Nonny's code:

* ``color NAME RRGGBB [SYMBOL]``: Nonny reads the value as three pairs of
  hex digits (no ``#``) and the symbol as one character.  Nonny keeps the
  symbol for solution grids and its ``.g`` writer; its ``.non`` files have
  no goal, so rofl checks the symbol and does not use it.
* Nonny's palette starts as ``black`` (``000000``) and ``background``
  (white) (the ``ColorPalette`` constructor).  ``color background RRGGBB``
  changes the background; ``color black ...`` redeclares black.  A colour
  whose name *or value* is already in the palette replaces that entry
  (``ColorPalette::add``).
* In a rule, commas, colons, spaces and tabs all separate; a word that
  starts with a letter names a colour (names are case-sensitive) and holds
  for the rest of the rule (``purple 1 1`` is two purple blocks); every
  rule starts in ``black``.  A name right after a number (``3red``) is read
  as Nonny reads it: the 3 keeps the colour before, red holds from then on.
  A lone ``0`` (with or without a name) is an empty line.
* Colours must be declared before the rules that use them: Nonny looks a
  name up when it reads the rule, and fails on an unknown one.
* Nonny writes ``color`` lines (background only when it is not white, each
  with its symbol), then the rules as ``name: n, n, other: n``, naming the
  colour whenever it changes (not at the start of a rule that begins in
  black); it writes no ``goal``, and reads ``goal`` as an unknown property.

rofl's palette for a ``.non`` file is the background first (white unless
``color background`` says otherwise), then the built-in ``black`` when a
rule uses it without declaring it or when the file has no ``color`` line at
all (a black-and-white file reads as white and black, as before), then the
declared colours in the order of their ``color`` lines, used or not.  Where Nonny is loose rofl refuses, with one
error naming the line: an unknown colour name, a value that is not six hex
digits, a name declared twice, ``color black`` after rules already used
the default black, more than 64 colours, a block in the background colour.
Two names of the same value stay two colours (Nonny would merge them).
Inside a block, a line that starts with a keyword of the format
(``columns``, ``goal``, ``title``...) ends the block early, as before.

The writer writes a puzzle of two colours as plain Simpson text, which
every tool reads (the exact colours are not kept: ``.non`` has no
palette); a puzzle of more colours in Nonny's style: ``color`` lines named
after CSS colours where the value is one (``black``, ``red``...), else
``colorN`` (N = palette index; a repeated value gets ``redN``), each
with a symbol (Nonny leaves an absent one unset), and every rule starts
with its colour name, black included.  pbnsolve's ``goal`` is black and white, and Nonny has no colour
goal, so a colour puzzle is written without its picture, and a ``goal``
in a file of more than two colours is refused.
"""

from __future__ import annotations

import html
import re
import string

import numpy as np

from rofl.formats import _limits, _text
from rofl.formats._format import Format
from rofl.palette import MAX_COLORS, RGB, Palette
from rofl.puzzle import Puzzle

# property keyword -> puzzle.meta key
_META_IN = {
    "title": "title",
    "by": "author",
    "copyright": "licence",
    "licence": "licence",
    "license": "licence",
    "catalogue": "id",
    "source": "source",
    "origin": "origin",
    "notes": "notes",
}
# puzzle.meta key -> property keyword, in the order written
_META_OUT = {
    "title": "title",
    "author": "by",
    "licence": "copyright",
    "id": "catalogue",
    "source": "source",
    "origin": "origin",
    "notes": "notes",
}
# Nonny splits rules at ",: \t\v\f"
_SEPARATORS = re.compile(r"[\s,:]+")
_RULE = re.compile(r"[0-9][0-9\s,:]*")
# one piece of a rule: a length, a colour name, or a length with a name stuck to it ('3red')
_TOKEN = re.compile(r"([0-9]+)?([A-Za-z][^\s,:]*)?")
_NAME = re.compile(r"[A-Za-z][^\s,:]*")
_HEX = re.compile(r"[0-9A-Fa-f]{6}")
_GOAL_LINE = re.compile(r"[01\s\"']*")
_SAVED_LINE = re.compile(r"[01?\s\"']*")

# words that start a line of the format, never a colour rule (a block cut short runs into them)
_KEYWORDS = frozenset({"width", "height", "rows", "columns", "goal", "saved", "color", *_META_IN})

_WHITE: RGB = (255, 255, 255)
_BLACK: RGB = (0, 0, 0)
# Nonny's names for its two built-in colours
_BACKGROUND = "background"
_DEFAULT_INK = "black"


def _keyword(line: str) -> tuple[str, str]:
    parts = line.split(None, 1)
    return parts[0].lower(), (parts[1] if len(parts) > 1 else "")


def _property(value: str) -> str:
    value = value.strip()
    if value[:1] in ("'", '"'):
        end = value.find(value[0], 1)
        value = value[1:] if end < 0 else value[1:end]
    return _unescape(value)


# (";" is optional, as html.unescape reads it: every numeric reference is
# read here, so that a reference of thousands of digits never reaches int())
_NUMERIC_REFERENCE = re.compile(r"(&#(?:[xX][0-9a-fA-F]+|[0-9]+);?)")


def _unescape(value: str) -> str:
    """HTML references resolved, but a numeric one as the code point it
    names: :func:`html.unescape` follows HTML in dropping noncharacters such
    as U+FDD0 and reading C1 controls as Windows-1252, and :func:`_quote`
    writes every non-ASCII character as a numeric reference."""
    parts = _NUMERIC_REFERENCE.split(value)
    for i in range(1, len(parts), 2):
        digits = parts[i][2:].removesuffix(";")
        hexadecimal = digits[:1] in "xX"
        digits = (digits[1:] if hexadecimal else digits).lstrip("0")
        code = -1 if len(digits) > 8 else int(digits or "0", 16 if hexadecimal else 10)
        if 0 < code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF:
            parts[i] = chr(code)
        else:
            parts[i] = "\ufffd"  # as HTML reads a reference to no character
    for i in range(0, len(parts), 2):
        parts[i] = html.unescape(parts[i])
    return "".join(parts)


def _tokens(text: str) -> list[re.Match[str]] | None:
    """The pieces of a rule line, or None when it is not one (a piece that is neither, or no number)."""
    matches = []
    for token in _SEPARATORS.split(text):
        if not token:
            continue
        m = _TOKEN.fullmatch(token)
        if m is None:
            return None
        matches.append(m)
    return matches if any(m.group(1) for m in matches) else None


class _Reader:
    def __init__(self, text: str, where: str) -> None:
        self.where = where
        self.lines = text.splitlines()
        self.pos = 0  # index of the next line to read
        self.width: int | None = None
        self.height: int | None = None
        # rules hold (length, colour name); None is Nonny's undeclared default black
        self.rows: list[list[tuple[int, str | None]]] | None = None
        self.cols: list[list[tuple[int, str | None]]] | None = None
        self.goal: tuple[str, int] | None = None  # (cells, line number)
        self.meta: dict[str, str] = {}
        # Nonny's 'color' lines: name -> (value, line); 'background' is kept apart
        self.colours: dict[str, tuple[RGB, int]] = {}
        self.background: tuple[RGB, int] | None = None
        self.default_black_line: int | None = None  # first rule that used the undeclared black

    def fail(self, line: int, message: str):
        return _text.fail(self.where, line, message)

    def next_content(self) -> int | None:
        """Index of the next non-blank line (not consumed), or None at the end."""
        i = self.pos
        while i < len(self.lines) and not self.lines[i].strip():
            i += 1
        return i if i < len(self.lines) else None

    def read(self) -> tuple[Puzzle, np.ndarray | None]:
        while (i := self.next_content()) is not None:
            self.pos = i + 1
            line = self.lines[i].strip()
            if _RULE.fullmatch(line):
                raise self.fail(i + 1, "a rule outside a 'rows' or 'columns' block (more rules than the size?)")
            word, rest = _keyword(line)
            if word in ("width", "height"):
                self.set_size(word, rest, i + 1)
            elif word in ("rows", "columns"):
                self.block(word, rest, i + 1)
            elif word == "goal":
                self.read_goal(rest, i + 1)
            elif word == "saved":
                self.skip_saved(rest, i + 1)
            elif word == "color":
                self.declare(rest, i + 1)
            elif word in _META_IN:
                self.meta.setdefault(_META_IN[word], _property(rest))
            # any other word is a property rofl does not use ('maxrule', 'difficulty'...)
        return self.finish()

    def set_size(self, word: str, rest: str, line: int) -> None:
        attr = "width" if word in ("width", "columns") else "height"
        tokens = rest.split()
        if len(tokens) != 1:
            raise self.fail(line, f"expected '{word} N', not {(word + ' ' + rest).strip()[:40]!r}")
        value = _text.size(tokens[0], self.where, line, attr)
        known = getattr(self, attr)
        # 'height 8' then 'rows 8' (pbnsolve's block header) says the same thing twice
        if known is not None and (known != value or word == attr):
            again = "" if known == value else f" ({known}, then {value})"
            raise self.fail(line, f"the {attr} is given twice{again}")
        setattr(self, attr, value)
        if self.width is not None and self.height is not None:  # before a goal is read
            _limits.check_cells(self.width, self.height, self.where)

    def declare(self, rest: str, line: int) -> None:
        """Nonny's ``color NAME RRGGBB [SYMBOL]``."""
        parts = rest.split()
        if len(parts) not in (2, 3):
            shown = ("color " + rest.strip())[:40]
            raise self.fail(line, f"expected 'color NAME RRGGBB [SYMBOL]', not {shown!r}")
        name, value = parts[0], parts[1]
        if not _NAME.fullmatch(name):
            msg = f"colour name {name[:20]!r} must start with a letter and hold no ',' or ':'"
            raise self.fail(line, msg)
        if not _HEX.fullmatch(value):
            raise self.fail(line, f"colour {name!r}: {value[:20]!r} is not six hex digits RRGGBB")
        if len(parts) == 3 and len(parts[2]) != 1:
            raise self.fail(line, f"colour {name!r}: the symbol {parts[2][:20]!r} is not one character")
        rgb = (int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16))
        first = self.background if name == _BACKGROUND else self.colours.get(name)
        if first is not None:
            raise self.fail(line, f"colour {name!r} is declared twice (first on line {first[1]})")
        if name == _BACKGROUND:
            self.background = (rgb, line)
            return
        if name == _DEFAULT_INK and self.default_black_line is not None:
            msg = f"'color black' after line {self.default_black_line} already used the default black"
            raise self.fail(line, msg)
        if len(self.colours) + 1 >= MAX_COLORS:
            msg = f"more than {MAX_COLORS} colours (background included): rofl's limit"
            raise self.fail(line, msg)
        self.colours[name] = (rgb, line)

    def block(self, word: str, rest: str, line: int) -> None:
        if rest.strip():
            # 'rows h' is the specification's other spelling of 'height h';
            # pbnsolve also reads the rules right after it, so do that when a
            # rule follows
            self.set_size(word, rest, line)
            following = self.next_content()
            if following is None or self.rule_tokens(self.lines[following], strict=True) is None:
                return
        attr = "height" if word == "rows" else "width"
        count = getattr(self, attr)
        if count is None:
            raise self.fail(line, f"'{word}' before the {attr}: width and height must come first")
        store = "rows" if word == "rows" else "cols"
        if getattr(self, store) is not None:
            raise self.fail(line, f"a second '{word}' block")
        rules: list[list[tuple[int, str | None]]] = []
        last = line
        while len(rules) < count:
            i = self.next_content()
            text = self.lines[i].strip() if i is not None else ""
            plain = i is not None and _RULE.fullmatch(text) is not None  # numbers only: most files
            tokens = None if plain or i is None else self.rule_tokens(text)
            if not plain and tokens is None:
                where = f"line {last}" if i is None else f"line {i + 1}"
                if i is not None and text[:1].isdigit():
                    extra = f" ({text[:20]!r} is not a rule of numbers and colour names)"
                else:
                    extra = "; write 0 for an empty line (blank lines are ignored)"
                msg = f"'{word}' has {len(rules)} rules where the {attr} is {count}{extra}"
                raise _text.fail(self.where, where, msg)
            self.pos = i + 1
            last = i + 1
            rules.append(self.plain_rule(text, i + 1) if plain else self.rule(tokens, i + 1))
        setattr(self, store, rules)

    def rule_tokens(self, text: str, *, strict: bool = False) -> list[re.Match[str]] | None:
        """The pieces of ``text`` if it is a rule, else None.

        A rule starts with a number or a colour name.  A line that starts with
        a keyword of the format is not one; nor, when ``strict``, is one that
        starts with a word no 'color' line declared.
        """
        tokens = _tokens(text)
        if tokens is None or tokens[0].group(1) is not None:
            return tokens
        word = tokens[0].group(2)
        if word in self.colours or word in (_DEFAULT_INK, _BACKGROUND):
            return tokens
        return None if strict or word.lower() in _KEYWORDS else tokens

    def plain_rule(self, text: str, line: int) -> list[tuple[int, str | None]]:
        """A rule of numbers only, all in the colour every rule starts with."""
        lengths = [_text.number(t, self.where, line, "block length") for t in _SEPARATORS.split(text) if t]
        if lengths == [0]:
            return []
        if 0 in lengths:
            raise self.fail(line, "a block of length 0 (only a lone 0 marks an empty line)")
        colour = self.start_colour()
        if colour is None and self.default_black_line is None:
            self.default_black_line = line
        return [(n, colour) for n in lengths]

    def start_colour(self) -> str | None:
        """Every rule starts in Nonny's 'black': the declared one, else the built-in (None)."""
        return _DEFAULT_INK if _DEFAULT_INK in self.colours else None

    def rule(self, tokens: list[re.Match[str]], line: int) -> list[tuple[int, str | None]]:
        colour = self.start_colour()
        groups: list[tuple[int, str | None]] = []
        for m in tokens:
            digits, name = m.groups()
            if digits is not None:
                groups.append((_text.number(digits, self.where, line, "block length"), colour))
            if name is not None:
                colour = self.colour(name, line)
        if [n for n, _ in groups] == [0]:
            return []
        if any(n == 0 for n, _ in groups):
            raise self.fail(line, "a block of length 0 (only a lone 0 marks an empty line)")
        if self.default_black_line is None and any(c is None for _, c in groups):
            self.default_black_line = line
        return groups

    def colour(self, name: str, line: int) -> str | None:
        if name in self.colours:
            return name
        if name == _DEFAULT_INK:
            return None  # Nonny's built-in black, never declared
        if name == _BACKGROUND:
            raise self.fail(line, "a block in the background colour")
        shown = name if len(name) <= 20 else name[:20] + "..."
        if not self.colours:
            msg = f"{shown!r} is not a number, and no 'color' line declares a colour of that name"
        else:
            known = ", ".join(list(self.colours)[:8]) + (", ..." if len(self.colours) > 8 else "")
            msg = f"colour {shown!r} is not declared before this rule (declared: {known})"
        raise self.fail(line, msg)

    def read_goal(self, rest: str, line: int) -> None:
        if self.width is None or self.height is None:
            raise self.fail(line, "'goal' before the width and height")
        if self.goal is not None:
            raise self.fail(line, "a second 'goal'")
        need = self.width * self.height
        if not _GOAL_LINE.fullmatch(rest):
            raise self.fail(line, "the goal may hold only 0 (white) and 1 (black)")
        cells = [c for c in rest if c in "01"]
        # pbnsolve's readable form: the picture on the lines that follow
        while len(cells) < need and self.pos < len(self.lines) and _GOAL_LINE.fullmatch(self.lines[self.pos]):
            cells.extend(c for c in self.lines[self.pos] if c in "01")
            self.pos += 1
        if len(cells) != need:
            msg = f"the goal has {len(cells)} cells; the puzzle has {self.width}x{self.height} = {need}"
            raise self.fail(line, msg)
        self.goal = ("".join(cells), line)

    def skip_saved(self, rest: str, line: int) -> None:
        """Step over pbnsolve's 'saved' grid (a partly solved state, '?' = unknown) and its lines."""
        if self.width is None or self.height is None:
            return
        need = self.width * self.height
        cells = sum(c in "01?" for c in rest)
        while cells < need and self.pos < len(self.lines) and _SAVED_LINE.fullmatch(self.lines[self.pos]):
            cells += sum(c in "01?" for c in self.lines[self.pos])
            self.pos += 1

    def palette(self) -> tuple[Palette, dict[str | None, int]]:
        """Background, the built-in black if a rule used it (always, without 'color' lines), the declared colours."""
        colours = [self.background[0] if self.background else _WHITE]
        index: dict[str | None, int] = {}
        if self.default_black_line is not None or not self.colours:
            if len(self.colours) + 2 > MAX_COLORS:
                msg = f"the default black makes more than {MAX_COLORS} colours (background included)"
                raise self.fail(self.default_black_line or 0, msg)
            index[None] = len(colours)
            colours.append(_BLACK)
        for name, (rgb, _) in self.colours.items():
            index[name] = len(colours)
            colours.append(rgb)
        return Palette(colours), index

    def finish(self) -> tuple[Puzzle, np.ndarray | None]:
        for attr, keyword in (("width", "width"), ("height", "height"), ("rows", "rows"), ("cols", "columns")):
            if getattr(self, attr) is None:
                raise _text.fail(self.where, None, f"no '{keyword}' line (is this a .non file?)")
        assert self.width is not None and self.height is not None
        assert self.rows is not None and self.cols is not None
        palette, index = self.palette()
        rows = [[(n, index[c]) for n, c in rule] for rule in self.rows]
        cols = [[(n, index[c]) for n, c in rule] for rule in self.cols]
        puzzle = _text.build(self.width, self.height, palette, rows, cols, self.meta, self.where)
        if self.goal is None:
            return puzzle, None
        cells, line = self.goal
        if len(palette) > 2:
            msg = f"the goal is pbnsolve's black-and-white picture; this puzzle has {len(palette)} colours"
            raise self.fail(line, msg)
        grid = (np.frombuffer(cells.encode("ascii"), dtype=np.uint8) - ord("0")).reshape(self.height, self.width)
        return puzzle, _text.check_goal(puzzle, grid, self.where, line)


def loads(text: str | bytes, *, where: str = "<non>") -> tuple[Puzzle, np.ndarray | None]:
    """Parse a ``.non`` document, black and white or with Nonny's colours.

    Returns
    -------
    puzzle : Puzzle
        ``meta`` from the properties rofl knows.  Without ``color`` lines
        the palette is white and black; with them, see the module notes.
    solution : (H, W) uint8 array or None
        The ``goal`` picture when the file has one.

    Raises
    ------
    FormatError
        A missing or repeated width/height, a rules block that is short or
        long, a rule that is not numbers and colour names, a bad or repeated
        ``color`` line, an undeclared colour, a goal of the wrong size or one
        that breaks the clues, or clues that are not a valid puzzle (the
        message names the line).
    """
    return _Reader(_text.decode(text, where), where).read()


def _quote(value: str) -> str:
    """A property string: quoted, with HTML references for '&', '"', line ends and non-ASCII."""
    escaped = value.replace("&", "&amp;").replace('"', "&quot;")
    out = []
    for ch in escaped:
        code = ord(ch)
        out.append(ch if 32 <= code < 127 else f"&#{code};")
    return '"' + "".join(out) + '"'


# Symbols for Nonny's 'color' lines: it reads one whatever follows the
# value (a missing one is left unset), so rofl always writes one.  'X' is
# Nonny's black and '.' its background.
_SYMBOLS = "#@%&*+=$" + string.ascii_uppercase.replace("X", "") + string.ascii_lowercase + string.digits


def _css_names() -> dict[RGB, str]:
    """One CSS name per value Pillow knows (the first in alphabetical order: 'aqua', not 'cyan')."""
    from PIL import ImageColor

    names: dict[RGB, str] = {}
    for name in sorted(ImageColor.colormap):
        rgb = ImageColor.getrgb(name)
        names.setdefault((rgb[0], rgb[1], rgb[2]), name)
    return names


def _colour_lines(palette: Palette) -> tuple[list[str], list[str]]:
    """Nonny's ``color`` lines for a palette, and the name of each palette index."""
    css = _css_names()
    names = [_BACKGROUND]
    lines = []
    if palette[0] != _WHITE:
        lines.append(f"color {_BACKGROUND} {'{:02X}{:02X}{:02X}'.format(*palette[0])} .")
    used = set(names)
    spare = iter(_SYMBOLS)
    for i, rgb in enumerate(palette.colors[1:], start=1):
        name = css.get(rgb, "color")
        # 'colorN' for values without a CSS name; a second 'red' becomes 'redN'
        if name == "color" or name in used:
            name = f"{name}{i}"
        used.add(name)
        names.append(name)
        symbol = "X" if name == _DEFAULT_INK else next(spare)
        lines.append(f"color {name} {'{:02X}{:02X}{:02X}'.format(*rgb)} {symbol}")
    return lines, names


def _colour_rule(line, names: list[str]) -> str:
    """A rule as Nonny writes it: ``red: 1, 2, blue: 3``, the colour named wherever it changes."""
    if not line:
        return "0"
    out = []
    current = None
    for length, colour in line:
        out.append(f"{length}" if colour == current else f"{names[colour]}: {length}")
        current = colour
    return ", ".join(out)


def dumps(puzzle: Puzzle, solution: np.ndarray | None = None) -> str:
    """The ``.non`` text of a puzzle.

    Two colours: plain Simpson text, with pbnsolve's goal when ``solution``
    is given.  More: Nonny's ``color`` lines and colour rules, and no goal
    (neither tool has a colour one).

    Raises
    ------
    FormatError
        A solution that does not fit the puzzle.
    """
    grid = _text.check_writable(puzzle, solution, ".non", colours=True)
    out = [f"{keyword} {_quote(puzzle.meta[key])}" for key, keyword in _META_OUT.items() if puzzle.meta.get(key)]
    out += [f"width {puzzle.width}", f"height {puzzle.height}", ""]
    if puzzle.n_colors > 2:
        lines, names = _colour_lines(puzzle.palette)
        out += [*lines, "", "rows"]
        out += [_colour_rule(line, names) for line in puzzle.rows]
        out += ["", "columns"]
        out += [_colour_rule(line, names) for line in puzzle.cols]
        return "\n".join(out) + "\n"
    out += ["rows"]
    out += [",".join(str(n) for n, _ in line) if line else "0" for line in puzzle.rows]
    out += ["", "columns"]
    out += [",".join(str(n) for n, _ in line) if line else "0" for line in puzzle.cols]
    if grid is not None:
        cells = (np.asarray(grid) != 0).astype(np.uint8) + ord("0")
        out += ["", f'goal "{cells.tobytes().decode("ascii")}"']
    return "\n".join(out) + "\n"


#: How :mod:`rofl.formats` knows the format.
FORMAT = Format(
    "Simpson .non",
    loads,
    _text.encoded(dumps, "ascii"),
    colour=True,
    plain_two=True,
    keeps="solution kept (goal)",
    colour_keeps=False,
)
FORMATS = (FORMAT,)
