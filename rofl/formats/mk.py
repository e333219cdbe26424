"""Olšák's ``.mk`` format: black-and-white clues only.

The plain format of Mirek and Petr Olšák's ``grid`` solver, which pbnsolve
reads too; the description in pbnsolve's README ("OLSAK .MK FORMAT"), its
reader (``load_mk_puzzle`` in ``pbnsolve/read_bw.c``) and the ``.mk``
example files that come with it (``examples/*.mk``) were followed::

    H W               height, then width
    row 1 clue        one line per row, top to bottom
    ...
    #                 a line starting with '#' ends the rows
    column 1 clue     one line per column, left to right
    ...

A clue is its block lengths separated by spaces (pbnsolve also takes
commas).  An empty line of the puzzle is a lone ``0`` or, as pbnsolve
reads it, a blank line: so blank lines count, and this reader only lets
surplus blank lines go at the end of the rows and of the file.  ``H`` and
``W`` may also stand on two lines.  The format has no room for a title or a
solution: the writer drops them, and writes ``0`` for an empty line.
"""

from __future__ import annotations

from rofl.formats import _text
from rofl.palette import Palette
from rofl.puzzle import Puzzle


def _section(lines: list[tuple[int, str]], count: int, what: str, where: str, end: str) -> list:
    """``count`` clues from ``lines``, after dropping surplus blank lines at the end."""
    kept = len(lines)
    while kept > count and not lines[kept - 1][1]:
        kept -= 1
    lines = lines[:kept]  # (one copy: a copy per blank line made this quadratic)
    if len(lines) != count:
        place = f"line {lines[-1][0]}" if lines else None
        msg = (
            f"{len(lines)} {what} clue lines {end} where the header promises {count} "
            "(a lone 0 or a blank line is an empty line)"
        )
        raise _text.fail(where, place, msg)
    return [_text.bw_clue(text, where, number) for number, text in lines]


def loads(text: str | bytes, *, where: str = "<mk>") -> Puzzle:
    """Parse a ``.mk`` document.

    Raises
    ------
    FormatError
        No ``H W`` header, no ``#`` line, a clue that is not numbers, more
        or fewer clue lines than the header promises, or clues that are not
        a valid puzzle (the message names the line).
    """
    lines = [(number, line.strip()) for number, line in enumerate(_text.decode(text, where).splitlines(), 1)]
    height, width, at = _text.bw_size_header(
        lines, where, "'height width'", "no 'height width' header (a .mk file starts with it)"
    )
    hash_at = next((i for i in range(at, len(lines)) if lines[i][1].startswith("#")), None)
    if hash_at is None:
        raise _text.fail(where, None, "no '#' line between the row and the column clues")
    rows = _section(lines[at:hash_at], height, "row", where, "before the '#' line")
    cols = _section(lines[hash_at + 1 :], width, "column", where, "after the '#' line")
    return _text.build(width, height, Palette.black_white(), rows, cols, None, where)


def dumps(puzzle: Puzzle) -> str:
    """The ``.mk`` text of a black-and-white puzzle: its palette\'s exact colours are not kept,
    and a colour puzzle is a :class:`~rofl.errors.FormatError`."""
    return _text.bw_text(puzzle, FORMAT.extension, [f"{puzzle.height} {puzzle.width}"], ["#"])


#: How :mod:`rofl.formats` knows the format.
FORMAT = _text.clue_format("Olsak .mk", loads, dumps)
FORMATS = (FORMAT,)
