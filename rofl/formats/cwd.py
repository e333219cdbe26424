"""The ``.cwd`` format of Meshcheryakov's QNonograms and Sukhoy's solver:
black-and-white clues only.

No specification or sample file of it was found; pbnsolve's README
("MESHCHERYAKOV AND SUKHOY'S .CWD FORMAT") describes it as the ``.mk``
format with the height and the width on separate lines and always a blank
line between the row clues and the column clues::

    H                 height
    W                 width
    row 1 clue        one line per row, top to bottom
    ...
                      a blank line
    column 1 clue     one line per column, left to right
    ...

Since blank lines separate, an empty line of the puzzle is a lone ``0``.
This reader skips blank lines wherever they are and takes the first ``H``
clue lines as the rows and the next ``W`` as the columns; it also takes
``H W`` on one line and commas between numbers.  The format has no room
for a title or a solution: the writer drops them.
"""

from __future__ import annotations

from rofl.formats import _text
from rofl.palette import Palette
from rofl.puzzle import Puzzle


def loads(text: str | bytes, *, where: str = "<cwd>") -> Puzzle:
    """Parse a ``.cwd`` document.

    Raises
    ------
    FormatError
        No height and width, a clue that is not numbers, more or fewer than
        ``H + W`` clue lines, or clues that are not a valid puzzle (the
        message names the line).
    """
    lines = [
        (number, line.strip()) for number, line in enumerate(_text.decode(text, where).splitlines(), 1) if line.strip()
    ]
    height, width, used = _text.bw_size_header(
        lines, where, "the height, then the width", "no height and width (a .cwd file starts with them, one per line)"
    )
    clue_lines = lines[used:]
    if len(clue_lines) != height + width:
        msg = (
            f"{len(clue_lines)} clue lines where the header promises {height + width} "
            f"({height} rows, then {width} columns; write 0 for an empty line)"
        )
        raise _text.fail(where, f"line {clue_lines[-1][0]}" if clue_lines else None, msg)
    clues = [_text.bw_clue(content, where, number) for number, content in clue_lines]
    return _text.build(width, height, Palette.black_white(), clues[:height], clues[height:], None, where)


def dumps(puzzle: Puzzle) -> str:
    """The ``.cwd`` text of a black-and-white puzzle: its palette\'s exact colours are not kept,
    and a colour puzzle is a :class:`~rofl.errors.FormatError`."""
    return _text.bw_text(puzzle, FORMAT.extension, [str(puzzle.height), str(puzzle.width)], [""])


#: How :mod:`rofl.formats` knows the format.
FORMAT = _text.clue_format("QNonograms .cwd", loads, dumps)
FORMATS = (FORMAT,)
