"""Puzzle files of Gnonograms (``.gno``), Jeremy Wootten's nonogram game
and designer for Linux (GNOME and elementary OS): black and white.

No specification was found; this module follows Gnonograms' own reader
and writer (``src/services/Filereader.vala`` and ``Filewriter.vala``) and
the puzzles it ships (``data/games/*.gno``).  A file is a list of sections,
each a heading in square brackets and a body up to the next ``[``::

    [Description]
    42                    the puzzle's name (URI-escaped)
    Fido                  its author (Gnonograms writes a blank line)
    2010-06-27            the date it was made
    99                    Gnonograms' grade (99: not graded)
    [License]
    CC BY-SA
    [Dimensions]
    23                    rows
    35                    columns
    [Row clues]
    5, 8                  block lengths, separated by commas and spaces;
    0                     0 for an empty line
    ...
    [Column clues]
    ...
    [Solution grid]
    1 1 2 2 1 ...         one line per row: 1 an empty cell, 2 a filled one
    [Locked]
    true

Gnonograms reads a heading by its first three letters, in any case
(``[Solution]`` and ``[Solution grid]`` are the same section) and ignores
headings it does not know; so does this reader.  The sections of a game in
progress (``[Working grid]``, ``[State]``, ``[History]``, ``[Original
path]``) are read past: rofl reads the puzzle, not the play.  Blank lines
are skipped everywhere, as Gnonograms does.

Gnonograms builds the puzzle from the solution grid whenever a file has
one, and solves the clues itself only when it has none; so the writer
always writes the solution it is given.  A file with clues and a solution
that disagree is refused; a file with a solution and no clues is read as
the puzzle of that picture.

The description is positional with blank lines dropped, so the writer
never leaves the name or the date blank: a puzzle with no title is named
"Untitled" (Gnonograms' own placeholder, which the reader takes back as no
title) and the date is the puzzle's ``date`` metadata or the day of
writing (``SOURCE_DATE_EPOCH`` when that is set).  The author line comes
second, as Gnonograms' writer puts it; Gnonograms' current reader takes a
non-blank one for the date, which it does not show.  Text that would break
the layout (``%``, ``[``, ``]``, line ends and other control characters)
is percent-escaped, as Gnonograms' reader unescapes the name.
"""

from __future__ import annotations

import unicodedata
from urllib.parse import quote, unquote

import numpy as np

from rofl._io import stamp_time
from rofl.formats import _limits, _text
from rofl.formats._format import Format
from rofl.palette import Palette
from rofl.puzzle import Puzzle

UNTITLED = "Untitled"
#: The sizes Gnonograms opens (``MINSIZE`` and ``MAXSIZE`` in its ``Constants.vala``).
SMALLEST, LARGEST = 5, 54
#: Gnonograms' grade for a puzzle it has not graded (``Difficulty.UNDEFINED``).
UNGRADED = "99"
#: Cell states of a solution grid (``CellState`` in Gnonograms' ``Enums.vala``).
EMPTY, FILLED = "1", "2"

# Escaped in text lines: the escape character, the section brackets and line ends.
_ESCAPED = "%[]\r\n"


def _sections(text: str, where: str) -> list[tuple[str, int, list[tuple[int, str]]]]:
    """``(key, heading line, [(line number, stripped line), ...])`` per section.

    ``key`` is the heading's first three letters in upper case, as
    Gnonograms matches it; the body's blank lines are dropped."""
    start = text.find("[")
    if start < 0:
        raise _text.fail(where, None, "no [section] found: not a Gnonograms puzzle")
    out = []
    # line numbers are counted on from the previous section, never from the
    # top, so that a file of many '[' is read in linear time
    line, counted = 1, 0
    while start >= 0:
        line += text.count("\n", counted, start)
        counted = start
        close = text.find("]", start)
        # (searched up to the ']' only: the next section starts after it)
        if close < 0 or text.find("\n", start, close) >= 0:
            raise _text.fail(where, line, "a section heading with no closing ']'")
        heading = text[start + 1 : close]
        following = text.find("[", close)
        body = text[close + 1 : following if following >= 0 else len(text)]
        lines = [(line + i, s.strip()) for i, s in enumerate(body.split("\n")) if s.strip()]
        out.append((heading.strip()[:3].upper(), line, lines))
        start = following
    return out


def _numbers(content: str) -> list[str]:
    # Gnonograms' BLOCKSEPARATOR is ", "; its readers split at either character
    return [t for t in _text.BW_SEPARATORS.split(content) if t]


def _clues(lines, count: int, what: str, where: str, heading: int) -> list[list[tuple[int, int]]]:
    if len(lines) != count:
        place = lines[-1][0] if lines else heading
        msg = f"{len(lines)} {what} clues where the dimensions give {count} (write 0 for an empty line)"
        raise _text.fail(where, place, msg)
    return [_text.bw_clue(content, where, number) for number, content in lines]


def _solution(lines, height: int, width: int, where: str, heading: int) -> np.ndarray:
    if len(lines) != height:
        place = lines[-1][0] if lines else heading
        raise _text.fail(where, place, f"{len(lines)} rows in the solution grid where the dimensions give {height}")
    grid = np.zeros((height, width), dtype=np.uint8)
    for r, (number, content) in enumerate(lines):
        cells = _numbers(content)
        if len(cells) != width:
            raise _text.fail(where, number, f"{len(cells)} cells in a solution row where the dimensions give {width}")
        for c, cell in enumerate(cells):
            if cell not in (EMPTY, FILLED):
                msg = f"cell {c + 1} of the solution is {cell[:20]!r}; expected {EMPTY} (empty) or {FILLED} (filled)"
                raise _text.fail(where, number, msg)
            grid[r, c] = cell == FILLED
    return grid


def _description(lines) -> dict[str, str]:
    """Name, author and date from the description's lines (blank ones
    already dropped): Gnonograms' writer puts name, author, date and grade;
    with no author that leaves three lines."""
    values = [unquote(content).strip() for _, content in lines]
    if len(values) >= 4:
        name, author, date = values[:3]
    else:
        name = values[0] if values else ""
        author, date = "", (values[1] if len(values) == 3 else "")
    meta = {"title": name if name != UNTITLED else "", "author": author, "date": date}
    return {key: value for key, value in meta.items() if value}


def loads(text: str | bytes, *, where: str = "<gno>") -> tuple[Puzzle, np.ndarray | None]:
    """Parse a Gnonograms puzzle file.

    Returns
    -------
    puzzle : Puzzle
    solution : (H, W) uint8 array or None
        The solution grid, when the file has one.

    Raises
    ------
    FormatError
        No sections, a heading not closed, no dimensions, neither clues nor
        a solution, clue or grid lines that do not match the dimensions,
        a cell other than 1 or 2, clues that are not a valid puzzle, or a
        solution that does not satisfy the clues (the message names the line).
    """
    found: dict[str, tuple[int, list[tuple[int, str]]]] = {}
    for key, line, body in _sections(_text.decode(text, where), where):
        found[key] = (line, body)  # a repeated section: the last one counts
    if "DIM" not in found:
        raise _text.fail(where, None, "no [Dimensions] section")
    line, body = found["DIM"]
    numbers = [t for _, content in body for t in _numbers(content)]
    if len(numbers) != 2:
        place = body[-1][0] if body else line
        raise _text.fail(where, place, f"[Dimensions] must hold two numbers (rows, then columns), not {len(numbers)}")
    height = _text.size(numbers[0], where, line, "number of rows")
    width = _text.size(numbers[1], where, line, "number of columns")
    _limits.check_cells(width, height, where)  # before the solution grid is allocated
    meta = _description(found["DES"][1]) if "DES" in found else {}
    if "LIC" in found:
        licence = " ".join(unquote(content).strip() for _, content in found["LIC"][1])
        if licence:
            meta["licence"] = licence
    grid = _solution(found["SOL"][1], height, width, where, found["SOL"][0]) if "SOL" in found else None
    if "ROW" in found and "COL" in found:
        rows = _clues(found["ROW"][1], height, "row", where, found["ROW"][0])
        cols = _clues(found["COL"][1], width, "column", where, found["COL"][0])
        puzzle = _text.build(width, height, Palette.black_white(), rows, cols, meta, where)
        if grid is not None:
            _text.check_goal(puzzle, grid, where, "[Solution grid]")
        return puzzle, grid
    if grid is None:
        missing = "[Column clues]" if "ROW" in found else "[Row clues]"
        raise _text.fail(where, None, f"no {missing} section and no [Solution grid] to take the clues from")
    return Puzzle.from_grid(grid, Palette.black_white(), meta=meta), grid


def _line(value: str) -> str:
    """``value`` as one line of text that Gnonograms unescapes back (other
    control characters, which no name needs, become U+FFFD)."""
    return "".join(
        quote(ch, safe="") if ch in _ESCAPED else "\ufffd" if unicodedata.category(ch) == "Cc" and ch != "\t" else ch
        for ch in value.strip()
    )


def dumps(puzzle: Puzzle, solution: np.ndarray | None = None) -> str:
    """The ``.gno`` text of a black-and-white puzzle, with its solution grid when given.

    Raises
    ------
    FormatError
        A puzzle with more than two colours, or a solution that does not
        satisfy the clues.
    """
    grid = _text.check_writable(puzzle, solution, FORMAT.extension, colours=False)
    meta = puzzle.meta
    out = [
        "[Description]",
        # a blank name or date line would shift the lines after it
        _line(meta.get("title", "")) or UNTITLED,
        _line(meta.get("author", "")),
        _line(meta.get("date", "")) or stamp_time().date().isoformat(),
        UNGRADED,
    ]
    if meta.get("licence"):
        out += ["[License]", _line(meta["licence"])]
    out += ["[Dimensions]", str(puzzle.height), str(puzzle.width)]
    out += ["[Row clues]", *(_text.bw_clue_text(line, ", ") for line in puzzle.rows)]
    out += ["[Column clues]", *(_text.bw_clue_text(line, ", ") for line in puzzle.cols)]
    if grid is not None:
        out += ["[Solution grid]", *(" ".join(FILLED if v else EMPTY for v in row) for row in grid)]
    out += ["[Locked]", "true"]
    return "\n".join(out) + "\n"


def caveat(puzzle: Puzzle) -> str | None:
    """Why Gnonograms will not open ``puzzle`` (rofl reads it all the same), or None."""
    if SMALLEST <= min(puzzle.width, puzzle.height) and max(puzzle.width, puzzle.height) <= LARGEST:
        return None
    return (
        f"Gnonograms opens puzzles of {SMALLEST} to {LARGEST} rows and columns only; "
        f"this one is {puzzle.width}x{puzzle.height} (rofl reads it all the same)"
    )


#: How :mod:`rofl.formats` knows the format.
FORMAT = Format("Gnonograms .gno", loads, _text.encoded(dumps), keeps="solution kept", caveat=caveat)
FORMATS = (FORMAT,)
