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

Rules are lengths separated by commas (spaces accepted, as pbnsolve does).
Following the specification, blank lines are ignored everywhere, so an
empty line of the puzzle must be written ``0``; lines that start with an
unknown word are properties and ignored unless rofl keeps them as metadata
(``title``, ``by``, ``copyright``, ``catalogue``, ``source``, ``origin``,
``notes``, ``licence``).  ``rows h`` followed directly by the rules (no
separate ``rows`` line) is read as pbnsolve reads it.  ``goal`` may also
be spread over the following lines, as pbnsolve allows.  Non-ASCII
characters in properties are HTML character references (``&#233;``), as
the specification asks; the reader decodes them, the writer produces them.

Black and white only: the writer refuses a puzzle with more colours.
"""

from __future__ import annotations

import html
import re

import numpy as np

from rofl.formats import _text
from rofl.puzzle import Palette, Puzzle

EXTENSION = ".non"

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
_SEPARATORS = re.compile(r"[\s,]+")
_RULE = re.compile(r"[0-9][0-9\s,]*")
_GOAL_LINE = re.compile(r"[01\s\"']*")
_SAVED_LINE = re.compile(r"[01?\s\"']*")


def _keyword(line: str) -> tuple[str, str]:
    parts = line.split(None, 1)
    return parts[0].lower(), (parts[1] if len(parts) > 1 else "")


def _property(value: str) -> str:
    value = value.strip()
    if value[:1] in ("'", '"'):
        end = value.find(value[0], 1)
        value = value[1:] if end < 0 else value[1:end]
    return html.unescape(value)


class _Reader:
    def __init__(self, text: str, where: str) -> None:
        self.where = where
        self.lines = text.splitlines()
        self.pos = 0  # index of the next line to read
        self.width: int | None = None
        self.height: int | None = None
        self.rows: list | None = None
        self.cols: list | None = None
        self.goal: tuple[str, int] | None = None  # (cells, line number)
        self.meta: dict[str, str] = {}
        self.colour_line: int | None = None  # Nonny's 'color' extension, for the error message

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
                self.colour_line = self.colour_line or i + 1
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

    def block(self, word: str, rest: str, line: int) -> None:
        if rest.strip():
            # 'rows h' is the specification's other spelling of 'height h';
            # pbnsolve also reads the rules right after it, so do that when a
            # rule follows
            self.set_size(word, rest, line)
            following = self.next_content()
            if following is None or not _RULE.fullmatch(self.lines[following].strip()):
                return
        attr = "height" if word == "rows" else "width"
        count = getattr(self, attr)
        if count is None:
            raise self.fail(line, f"'{word}' before the {attr}: width and height must come first")
        store = "rows" if word == "rows" else "cols"
        if getattr(self, store) is not None:
            raise self.fail(line, f"a second '{word}' block")
        rules: list[list[tuple[int, int]]] = []
        last = line
        while len(rules) < count:
            i = self.next_content()
            text = self.lines[i].strip() if i is not None else ""
            if i is None or not _RULE.fullmatch(text):
                where = f"line {last}" if i is None else f"line {i + 1}"
                if self.colour_line is not None:
                    extra = (
                        f" -- this looks like a colour .non file ('color' on line {self.colour_line}, "
                        "Nonny's extension); rofl reads black-and-white .non only"
                    )
                elif i is not None and text[:1].isdigit():
                    extra = f" ({text[:20]!r} is not a rule of numbers)"
                else:
                    extra = "; write 0 for an empty line (blank lines are ignored)"
                msg = f"'{word}' has {len(rules)} rules where the {attr} is {count}{extra}"
                raise _text.fail(self.where, where, msg)
            self.pos = i + 1
            last = i + 1
            rules.append(self.rule(text, i + 1))
        setattr(self, store, rules)

    def rule(self, text: str, line: int) -> list[tuple[int, int]]:
        lengths = [_text.number(t, self.where, line, "block length") for t in _SEPARATORS.split(text) if t]
        if lengths == [0]:
            return []
        if 0 in lengths:
            raise self.fail(line, "a block of length 0 (only a lone 0 marks an empty line)")
        return [(n, 1) for n in lengths]

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

    def finish(self) -> tuple[Puzzle, np.ndarray | None]:
        for attr, keyword in (("width", "width"), ("height", "height"), ("rows", "rows"), ("cols", "columns")):
            if getattr(self, attr) is None:
                raise _text.fail(self.where, None, f"no '{keyword}' line (is this a .non file?)")
        assert self.width is not None and self.height is not None
        puzzle = _text.build(
            self.width, self.height, Palette.black_white(), self.rows, self.cols, self.meta, self.where
        )
        if self.goal is None:
            return puzzle, None
        cells, line = self.goal
        grid = (np.frombuffer(cells.encode("ascii"), dtype=np.uint8) - ord("0")).reshape(self.height, self.width)
        return puzzle, _text.check_goal(puzzle, grid, self.where, line)


def loads(text: str | bytes, *, where: str = "<non>") -> tuple[Puzzle, np.ndarray | None]:
    """Parse a ``.non`` document.

    Returns
    -------
    puzzle : Puzzle
        Black and white; ``meta`` from the properties rofl knows.
    solution : (H, W) uint8 array or None
        The ``goal`` picture when the file has one.

    Raises
    ------
    FormatError
        A missing or repeated width/height, a rules block that is short or
        long, a rule that is not numbers, a goal of the wrong size or one
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


def dumps(puzzle: Puzzle, solution: np.ndarray | None = None) -> str:
    """The ``.non`` text of a black-and-white puzzle, with its goal when ``solution`` is given.

    Raises
    ------
    FormatError
        More than two colours (the format is black and white), or a
        solution that does not fit the puzzle.
    """
    grid = _text.check_writable(puzzle, solution, ".non", colours=False)
    out = [f"{keyword} {_quote(puzzle.meta[key])}" for key, keyword in _META_OUT.items() if puzzle.meta.get(key)]
    out += [f"width {puzzle.width}", f"height {puzzle.height}", "", "rows"]
    out += [",".join(str(n) for n, _ in line) if line else "0" for line in puzzle.rows]
    out += ["", "columns"]
    out += [",".join(str(n) for n, _ in line) if line else "0" for line in puzzle.cols]
    if grid is not None:
        cells = (np.asarray(grid) != 0).astype(np.uint8) + ord("0")
        out += ["", f'goal "{cells.tobytes().decode("ascii")}"']
    return "\n".join(out) + "\n"


def read_bytes(data: bytes, *, where: str = "<non>") -> tuple[Puzzle, np.ndarray | None]:
    """The :func:`rofl.formats.read_puzzle` entry point."""
    return loads(data, where=where)


def write_bytes(puzzle: Puzzle, solution: np.ndarray | None = None) -> bytes:
    """The :func:`rofl.formats.write_puzzle` entry point."""
    return dumps(puzzle, solution).encode("ascii")
