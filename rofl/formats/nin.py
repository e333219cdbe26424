"""Jakub Wilk's ``.nin`` format: black-and-white clues only.

Used by jwilk's ``nonogram`` solver (``jwilk-archive/nonogram``, the DATA
FORMAT section of ``doc/manpage.pod`` and the reader in ``nonogram.c``), by
pbnsolve (``doc/input.md``) and by hyouv's FastNonogramSolver
(``puzzles/survey/*.nin``)::

    W H
    row 1 clue        one line per row, top to bottom
    ...
    column 1 clue     one line per column, left to right
    ...

A clue is its block lengths separated by spaces or tabs; an empty line of
the puzzle is written ``0``.  Both known readers skip blank lines, so a
blank line is *not* an empty clue.  This reader also accepts commas between
numbers (pbnsolve does), CRLF line ends and ``#`` comment lines; it refuses
a file whose clue lines do not number exactly ``H + W``.  The format has no
room for a title or a solution: the writer drops them.
"""

from __future__ import annotations

from rofl.formats import _text
from rofl.palette import Palette
from rofl.puzzle import Puzzle


def _content_lines(text: str):
    """(line number, stripped text) of the lines that are neither blank nor comments."""
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            yield number, stripped


def loads(text: str | bytes, *, where: str = "<nin>") -> Puzzle:
    """Parse a ``.nin`` document.

    Raises
    ------
    FormatError
        No ``W H`` line, a clue that is not numbers, more or fewer than
        ``H + W`` clue lines, or clues that are not a valid puzzle (the
        message names the line).
    """
    lines = _content_lines(_text.decode(text, where))
    try:
        first, header = next(lines)
    except StopIteration:
        raise _text.fail(where, None, "empty file (a .nin file starts with a 'width height' line)") from None
    parts = _text.BW_SEPARATORS.split(header)
    if len(parts) != 2:
        raise _text.fail(where, first, f"expected 'width height', not {header[:40]!r}")
    width = _text.size(parts[0], where, first, "width")
    height = _text.size(parts[1], where, first, "height")
    clues: list[list[tuple[int, int]]] = []
    last = first
    for last, content in lines:
        if len(clues) == height + width:
            raise _text.fail(
                where, last, f"more clue lines than the {height} rows and {width} columns of the 'W H' line"
            )
        clues.append(_text.bw_clue(content, where, last))
    if len(clues) < height + width:
        have_rows = min(len(clues), height)
        msg = (
            f"{len(clues)} clue lines where the 'W H' line promises {height + width} "
            f"({height} rows, then {width} columns); found {have_rows} rows and "
            f"{len(clues) - have_rows} columns (write 0 for an empty line)"
        )
        raise _text.fail(where, f"line {last}", msg)
    return _text.build(width, height, Palette.black_white(), clues[:height], clues[height:], None, where)


def dumps(puzzle: Puzzle) -> str:
    """The ``.nin`` text of a black-and-white puzzle: its palette\'s exact colours are not kept,
    and a colour puzzle is a :class:`~rofl.errors.FormatError`."""
    return _text.bw_text(puzzle, FORMAT.extension, [f"{puzzle.width} {puzzle.height}"], [])


#: How :mod:`rofl.formats` knows the format.
FORMAT = _text.clue_format("Wilk .nin", loads, dumps)
FORMATS = (FORMAT,)
