"""Jan Wolter's webpbn XML format (``.xml``), black-and-white and colour.

Specified in "XML Format for Paint-by-Number Puzzles" (``webpbn.com/pbn_fmt.html``,
version 0.3); what real files do was taken from pbnsolve's reader
(``avi-levy/pbnsolve``, ``pbnsolve/read_xml.c``), webpbn's own exports
(``saulrh/nonogram`` ``puzzles/*.xml``, ``paulstansifer/number-loom``
``examples/wolter/*.xml``) and number-loom's writer (its ``puzzles/*.xml``)::

    <?xml version="1.0"?>
    <!DOCTYPE pbn SYSTEM "https://webpbn.com/pbn-0.3.dtd">
    <puzzleset>
    <puzzle type="grid" defaultcolor="black" backgroundcolor="white">
    <title>...</title> <author>...</author> <copyright>...</copyright>
    <color name="white" char=".">FFFFFF</color>
    <color name="black" char="X">000000</color>
    <color name="red" char="*">F00</color>
    <clues type="columns">
    <line><count>2</count><count color="red">1</count></line>
    <line></line>
    ...
    </clues>
    <clues type="rows"> ... </clues>
    <solution type="goal"><image>
    |.XX*.|
    ...
    </image></solution>
    </puzzle>
    </puzzleset>

Reading
    The first ``<puzzle>`` of the set (as pbnsolve does); only ``type="grid"``.
    Colour 0 of the palette is ``backgroundcolor`` (default ``white``), then
    the ``<color>`` elements in file order, then colours that counts name
    without declaring them.  A ``<count>`` without ``color`` has
    ``defaultcolor`` (default ``black``).  An undeclared ``white`` or ``black``
    is ``#ffffff`` / ``#000000`` with character ``.`` / ``X`` (pbnsolve); any
    other undeclared name is looked up as a CSS colour name.  Without
    ``<clues>`` the clues are derived from the goal (pbnsolve does too); with
    both, the goal must fit the clues.  ``<solution type="saved">`` and
    ``"solution"`` are ignored.  The file is parsed with defusedxml: entity
    declarations (billion laughs, external entities) are refused; the usual
    ``<!DOCTYPE pbn SYSTEM ...>`` is accepted and never fetched.
Metadata
    ``title``, ``author``, ``copyright`` (rofl's ``licence``), ``source``,
    ``id`` and ``description`` (rofl's ``notes``); puzzle-level elements win
    over the puzzleset's.
Writing
    No DOCTYPE (pbnsolve then tries to fetch the DTD and warns).  Colours are
    named ``white``/``black`` when they are exactly that, else ``color1``...
    ``defaultcolor`` is colour 1, whose counts carry no ``color``.
"""

from __future__ import annotations

import re

import numpy as np

from rofl._xml import xml_text
from rofl.formats import _text
from rofl.formats._format import Format
from rofl.palette import MAX_COLORS, Palette
from rofl.puzzle import Puzzle

_META = (("title", "title"), ("author", "author"), ("copyright", "licence"), ("source", "source"), ("id", "id"))
_DESCRIPTION = ("description", "notes")
# pbnsolve's defaults for black and white when a file names them without declaring them
_BUILTIN = {"white": ((255, 255, 255), "."), "black": ((0, 0, 0), "X")}
# characters the writer gives colours in the goal image: printable, none of
# the image's syntax (| [ ] ?), nothing XML must escape
_CHARS = "X" + "".join(c for c in map(chr, range(33, 127)) if c not in "|[]?<>&\"'.X" and not c.isspace())


def _children(element, tag: str) -> list:
    return [child for child in element if isinstance(child.tag, str) and child.tag.lower() == tag]


def _text_of(element) -> str:
    return "".join(element.itertext()).strip()


class _Colours:
    """Palette under construction: colour names (case-insensitive) to index, rgb and image character."""

    def __init__(self, where: str) -> None:
        self.where = where
        self.index: dict[str, int] = {}
        self.rgb: list[tuple[int, int, int] | None] = []
        self.char: list[str | None] = []
        self.names: list[str] = []

    def add(self, name: str, rgb, char: str | None) -> int:
        key = name.strip().lower()
        if key in self.index:
            i = self.index[key]
            if rgb is not None:
                self.rgb[i] = rgb
            if char is not None:
                self.char[i] = char
            return i
        if len(self.rgb) >= MAX_COLORS:
            raise _text.fail(self.where, f"<color name={name!r}>", f"more than {MAX_COLORS} colours")
        self.index[key] = len(self.rgb)
        self.rgb.append(rgb)
        self.char.append(char)
        self.names.append(name)
        return len(self.rgb) - 1

    def use(self, name: str) -> int:
        """Index of a colour a count or attribute names (added if new, resolved in :meth:`palette`)."""
        return self.add(name, None, None)

    def palette(self) -> Palette:
        for i, name in enumerate(self.names):
            if self.rgb[i] is not None:
                continue
            builtin = _BUILTIN.get(name.strip().lower())
            rgb = builtin[0] if builtin else _text.named_colour(name)
            if rgb is None:
                msg = f"colour {name!r} is used but has no <color> element giving its RGB value"
                raise _text.fail(self.where, None, msg)
            self.rgb[i] = rgb
            if self.char[i] is None and builtin:
                self.char[i] = builtin[1]
        return Palette([c for c in self.rgb if c is not None])


def _rgb_of(element, name: str, where: str):
    value = _text_of(element)
    if not value:
        return None  # resolved by name later, as for an undeclared colour
    rgb = _text.named_colour("#" + value.removeprefix("#"))
    if rgb is None:
        raise _text.fail(where, f"<color name={name!r}>", f"{value[:20]!r} is not an RGB value (rrggbb or rgb)")
    return rgb


def _parse_clues(clues, kind: str, colours: _Colours, default: str, where: str) -> list:
    lines = []
    for n, line in enumerate(_children(clues, "line"), 1):
        place = f'<clues type="{kind}"> <line> {n}'
        groups = []
        counts = _children(line, "count")
        for k, count in enumerate(counts, 1):
            length = _text.number(_text_of(count), where, f"{place}, <count> {k}", "block length")
            if length == 0 and len(counts) == 1:
                break  # some writers mark an empty line with a lone 0
            colour = count.get("color")
            groups.append((length, colours.use(default if colour is None else colour)))
        lines.append(groups)
    return lines


def _parse_image(text: str, colours: _Colours, where: str) -> np.ndarray:
    place = '<solution type="goal"> <image>'
    # whitespace is layout (pbnsolve skips it), unless a colour's character
    # is a space, as number-loom writes for white
    spaces = " " in colours.char
    rows = [re.sub(r"[\t\r\n]" if spaces else r"\s", "", row) for row in re.findall(r"\|([^|]*)\|", text)]
    leftover = re.sub(r"\|[^|]*\|", "", text)
    if leftover.strip() or not rows:
        raise _text.fail(where, place, "expected rows written |...| (one character per cell)")
    width = len(rows[0])
    if any(len(row) != width for row in rows) or width == 0:
        raise _text.fail(where, place, "the rows of the image differ in length")
    lookup: dict[str, int] = {}
    for i, ch in enumerate(colours.char):
        if ch is not None:
            if ch in lookup:
                raise _text.fail(
                    where,
                    place,
                    f"colours {colours.names[lookup[ch]]!r} and {colours.names[i]!r} share the character {ch!r}",
                )
            lookup[ch] = i
    grid = np.zeros((len(rows), width), dtype=np.uint8)
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch not in lookup:
                what = "not one colour" if ch in "[]?" else "no colour has this character"
                raise _text.fail(where, f"{place} row {r + 1}, column {c + 1}", f"{ch!r}: {what}")
            grid[r, c] = lookup[ch]
    return grid


def loads(data: bytes | str, *, where: str = "<xml>") -> tuple[Puzzle, np.ndarray | None]:
    """Parse a webpbn XML document (its first puzzle).

    Returns
    -------
    puzzle : Puzzle
    solution : (H, W) uint8 array or None
        The ``<solution type="goal">`` picture when the file has one.

    Raises
    ------
    FormatError
        Not XML, entity declarations, not a ``<puzzleset>`` of grid puzzles,
        a count that is not a number, an unknown colour, a goal picture that
        does not fit the clues, or clues that are not a valid puzzle (the
        message names the element).
    """
    root = _text.parse_xml(data, where)
    if not isinstance(root.tag, str) or root.tag.lower() != "puzzleset":
        raise _text.fail(where, None, f"the root element is <{root.tag}>, not <puzzleset> (not a webpbn file)")
    puzzles = _children(root, "puzzle")
    if not puzzles:
        raise _text.fail(where, "<puzzleset>", "no <puzzle> element")
    node = puzzles[0]
    kind = node.get("type", "grid")
    if kind.lower() != "grid":
        raise _text.fail(where, "<puzzle>", f'type="{kind}": rofl reads grid puzzles only')

    meta: dict[str, str] = {}
    for tag, key in (*_META, _DESCRIPTION):
        for scope in (node, root):
            found = _children(scope, tag)
            if found and _text_of(found[0]):
                meta[key] = _text_of(found[0])
                break

    colours = _Colours(where)
    colours.use(node.get("backgroundcolor", "white"))
    for element in _children(node, "color"):
        name = element.get("name")
        if not name:
            raise _text.fail(where, "<color>", "a colour without a name attribute")
        char = element.get("char")
        if char is not None and len(char) != 1:
            raise _text.fail(where, f"<color name={name!r}>", f"char={char!r} is not one character")
        colours.add(name, _rgb_of(element, name, where), char)
    default = node.get("defaultcolor", "black")

    rows = cols = None
    for clues in _children(node, "clues"):
        kind = (clues.get("type") or "").lower()
        if kind not in ("rows", "columns"):
            raise _text.fail(where, "<clues>", f"type={clues.get('type')!r}: expected rows or columns")
        parsed = _parse_clues(clues, kind, colours, default, where)
        if (rows if kind == "rows" else cols) is not None:
            raise _text.fail(where, f'<clues type="{kind}">', "given twice")
        if kind == "rows":
            rows = parsed
        else:
            cols = parsed
    if any(g[1] == 0 for line in (rows or []) + (cols or []) for g in line):
        name = colours.names[0]
        raise _text.fail(where, "<count>", f"a block of the background colour {name!r} (defaultcolor?)")

    if rows is None and cols is None:
        colours.use(default)  # a goal-only file may draw in the (undeclared) default colour
    palette = colours.palette()
    goals = [s for s in _children(node, "solution") if (s.get("type") or "goal").lower() == "goal"]
    grid = None
    if goals:
        images = _children(goals[0], "image")
        if len(images) != 1:
            raise _text.fail(where, '<solution type="goal">', "expected one <image>")
        grid = _parse_image("".join(images[0].itertext()), colours, where)

    if rows is None and cols is None:
        if grid is None:
            raise _text.fail(where, "<puzzle>", "neither <clues> nor a goal <solution>")
        return Puzzle.from_grid(grid, palette, meta=meta), grid
    if rows is None or cols is None:
        missing = "rows" if rows is None else "columns"
        raise _text.fail(where, "<puzzle>", f'no <clues type="{missing}">')
    if not rows or not cols:
        raise _text.fail(where, "<clues>", "a puzzle needs at least one row and one column <line>")
    puzzle = _text.build(len(cols), len(rows), palette, rows, cols, meta, where)
    if grid is None:
        return puzzle, None
    if grid.shape != (puzzle.height, puzzle.width):
        msg = f"the goal image is {grid.shape[1]}x{grid.shape[0]}, the clues are {puzzle.width}x{puzzle.height}"
        raise _text.fail(where, '<solution type="goal">', msg)
    return puzzle, _text.check_goal(puzzle, grid, where, '<solution type="goal">')


def _names(palette: Palette) -> list[str]:
    names = []
    for i, rgb in enumerate(palette):
        if rgb == (255, 255, 255) and "white" not in names:
            names.append("white")
        elif rgb == (0, 0, 0) and "black" not in names:
            names.append("black")
        else:
            names.append("background" if i == 0 else f"color{i}")
    return names


def _chars(palette: Palette) -> list[str]:
    chars = ["."]
    pool = iter(_CHARS)
    for _ in range(1, len(palette)):
        chars.append(next(pool))
    return chars


def dumps(puzzle: Puzzle, solution: np.ndarray | None = None) -> str:
    """The webpbn XML of ``puzzle`` (and of its goal picture when ``solution`` is given).

    Raises
    ------
    FormatError
        A solution that does not fit the puzzle.
    """
    from xml.sax.saxutils import quoteattr  # not at start-up: it imports urllib.request

    grid = _text.check_writable(puzzle, solution, "webpbn XML", colours=True)
    names = _names(puzzle.palette)
    chars = _chars(puzzle.palette)
    default = names[1] if len(names) > 1 else names[0]
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        "<puzzleset>",
        f'<puzzle type="grid" defaultcolor={quoteattr(default)} backgroundcolor={quoteattr(names[0])}>',
    ]
    for tag, key in (
        ("source", "source"),
        ("id", "id"),
        ("title", "title"),
        ("author", "author"),
        ("copyright", "licence"),
        _DESCRIPTION,
    ):
        if puzzle.meta.get(key):
            out.append(f"<{tag}>{xml_text(str(puzzle.meta[key]))}</{tag}>")
    for name, char, rgb in zip(names, chars, puzzle.palette.hex(), strict=True):
        out.append(f"<color name={quoteattr(name)} char={quoteattr(char)}>{rgb[1:]}</color>")
    for kind, lines in (("columns", puzzle.cols), ("rows", puzzle.rows)):
        out.append(f'<clues type="{kind}">')
        for line in lines:
            counts = "".join(
                f"<count>{n}</count>" if c == 1 else f'<count color="{names[c]}">{n}</count>' for n, c in line
            )
            out.append(f"<line>{counts}</line>")
        out.append("</clues>")
    if grid is not None:
        out += ['<solution type="goal">', "<image>"]
        out += ["|" + "".join(chars[v] for v in row) + "|" for row in np.asarray(grid).tolist()]
        out += ["</image>", "</solution>"]
    out += ["</puzzle>", "</puzzleset>"]
    return "\n".join(out) + "\n"


#: How :mod:`rofl.formats` knows the format.
FORMAT = Format("webpbn XML", loads, _text.encoded(dumps), colour=True, keeps="solution kept (goal)")
FORMATS = (FORMAT,)
