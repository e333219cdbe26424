"""Helpers shared by the readers and writers of other tools' text formats.

The webpbn XML, ``.non``, ``.nin`` and Olšák ``.g`` modules all turn
numbers and colour names from a file into a :class:`~rofl.puzzle.Puzzle`
and must fail the same way: one :class:`~rofl.errors.FormatError` naming
the file and the line (or element).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import numpy as np

from rofl.errors import FormatError, PuzzleError
from rofl.formats import _limits
from rofl.formats._format import Format, sign_of
from rofl.palette import RGB, Palette
from rofl.puzzle import Puzzle
from rofl.validate import MAX_SIDE as PUZZLE_MAX_SIDE

#: Most decimal digits read for one number (see :mod:`rofl.formats._limits`).
MAX_DIGITS = _limits.MAX_DIGITS

#: Sides above this are refused (the bound of :mod:`rofl.puzzle`).
MAX_SIDE = PUZZLE_MAX_SIDE

#: Most lines in a text puzzle file (see :mod:`rofl.formats._limits`).  A
#: file of millions of empty lines (a few megabytes) would otherwise become
#: a puzzle of millions of empty rows, and cost minutes and gigabytes
#: before the size is refused.
MAX_LINES = _limits.MAX_LINES

_BOM = "\ufeff"


def fail(where: str, place: str | int | None, message: str) -> FormatError:
    """A :class:`FormatError` ``"{where}: line {place}: {message}"`` (``place`` may be a phrase)."""
    if place is None:
        return FormatError(f"{where}: {message}")
    if isinstance(place, int):
        place = f"line {place}"
    return FormatError(f"{where}: {place}: {message}")


def decode(data: bytes | str, where: str) -> str:
    """Text of a file: UTF-8 (a BOM is dropped), else Latin-1.

    Real files of these formats are ASCII with, at most, comments in a
    national 8-bit encoding (Olšák's examples are Czech); Latin-1 reads
    every byte, so such comments never stop a puzzle from loading.  A NUL
    byte means the file is binary: refused.
    """
    if isinstance(data, str):
        text = data
    else:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = data.decode("latin-1")
    if text.startswith(_BOM):
        text = text[1:]
    _limits.check_lines(text, where)
    nul = text.find("\x00")
    if nul >= 0:
        line = text.count("\n", 0, nul) + 1
        raise fail(where, line, "a NUL byte: this is not a text file")
    return text


def number(token: str, where: str, place: str | int | None, what: str = "number") -> int:
    """A non-negative decimal integer of at most :data:`MAX_DIGITS` digits."""
    if not token.isascii() or not token.isdigit():
        raise fail(where, place, f"expected a {what}, not {_show(token)}")
    if len(token.lstrip("0")) > MAX_DIGITS:
        raise fail(where, place, f"{what} {_show(token)} is too large")
    return int(token)


def size(token: str, where: str, place: str | int | None, what: str) -> int:
    """A puzzle side: a number from 1 to :data:`MAX_SIDE`."""
    value = number(token, where, place, what)
    if value < 1:
        raise fail(where, place, f"the {what} must be at least 1, not {value}")
    if value > MAX_SIDE:
        raise fail(where, place, f"the {what} {value} is larger than rofl's limit ({MAX_SIDE})")
    return value


#: What separates the numbers of the plain black-and-white formats.
BW_SEPARATORS = re.compile(r"[\s,]+")


def bw_clue(text: str, where: str, line: int) -> list[tuple[int, int]]:
    """A black-and-white clue line of the plain formats (``.nin``, ``.mk``,
    ``.cwd``): block lengths separated by white space or commas; a lone
    ``0`` (or nothing) is an empty line."""
    tokens = [t for t in BW_SEPARATORS.split(text) if t]
    lengths = [number(t, where, line, "block length") for t in tokens]
    if lengths in ([], [0]):
        return []
    if 0 in lengths:
        raise fail(where, line, "a block of length 0 (only a lone 0 marks an empty line)")
    return [(n, 1) for n in lengths]


def bw_size_header(lines: Sequence[tuple[int, str]], where: str, expected: str, missing: str) -> tuple[int, int, int]:
    """``(height, width, lines used)`` from the first of ``lines`` ((line
    number, text) pairs): two numbers on one line or on two, blank lines
    before or between them skipped.  ``expected`` names the header in the
    error for a line with too many numbers; ``missing`` is the error when
    there are fewer than two."""
    numbers: list[str] = []
    used = 0
    while used < len(lines) and len(numbers) < 2:
        place, content = lines[used]
        tokens = [t for t in BW_SEPARATORS.split(content) if t]
        if len(numbers) + len(tokens) > 2:
            raise fail(where, place, f"expected {expected}, not {content.strip()[:40]!r}")
        numbers += tokens
        used += 1
    if len(numbers) < 2:
        raise fail(where, None, missing)
    place = lines[used - 1][0]
    return size(numbers[0], where, place, "height"), size(numbers[1], where, place, "width"), used


def bw_text(puzzle: Puzzle, fmt: str, header: Sequence[str], between: Sequence[str]) -> str:
    """A plain black-and-white format's text: the ``header`` lines, a clue
    line per row, the ``between`` lines, a clue line per column (``0`` for
    an empty line).  Refuses a puzzle with more than two colours."""
    check_writable(puzzle, None, fmt, colours=False)
    out = [*header, *map(bw_clue_text, puzzle.rows), *between, *map(bw_clue_text, puzzle.cols)]
    return "\n".join(out) + "\n"


def bw_clue_text(line: Sequence[tuple[int, int]], sep: str = " ") -> str:
    """The clue line that :func:`bw_clue` reads back (``0`` for an empty line)."""
    return sep.join(str(n) for n, _ in line) if line else "0"


def _show(token: str) -> str:
    return repr(token if len(token) <= 20 else token[:20] + "...")


def build(
    width: int,
    height: int,
    palette: Palette,
    rows: Sequence[Sequence[tuple[int, int]]],
    cols: Sequence[Sequence[tuple[int, int]]],
    meta: Mapping[str, str] | None,
    where: str,
) -> Puzzle:
    """The :class:`Puzzle`, its validation errors (a clue that does not fit...) named with the file.

    A puzzle of more than :data:`rofl.formats._limits.MAX_CELLS` cells is
    refused (:class:`~rofl.errors.LimitError`)."""
    _limits.check_cells(width, height, where)
    try:
        return Puzzle(width, height, palette, rows, cols, meta=meta)
    except PuzzleError as exc:
        raise fail(where, None, str(exc)) from None


def check_goal(puzzle: Puzzle, grid: np.ndarray, where: str, place: str | int | None) -> np.ndarray:
    """``grid`` if it satisfies the clues; else a FormatError naming the first line it breaks."""
    line = puzzle.unmet_line(grid)
    if line is not None:
        raise fail(where, place, f"the goal picture does not match the clues ({puzzle.line_name(line)})")
    return grid


def check_writable(puzzle: Puzzle, solution, fmt: str, *, colours: bool) -> np.ndarray | None:
    """Refuse what a writer's format cannot hold; return the solution as an array (or None).

    ``colours=False``: the format holds black-and-white puzzles only
    (:func:`rofl.formats.write_puzzle` refuses a colour puzzle first, naming
    the formats that hold colour).
    """
    if not colours and puzzle.n_colors > 2:
        msg = (
            f"the {fmt} format holds black-and-white puzzles only; this puzzle has "
            f"{puzzle.n_colors} colours (background included)"
        )
        raise FormatError(msg)
    if solution is None:
        return None
    grid = np.asarray(solution)
    if grid.shape != (puzzle.height, puzzle.width):
        msg = f"the solution has shape {grid.shape}, the puzzle is {puzzle.height}x{puzzle.width}"
        raise FormatError(msg)
    if not puzzle.is_solution(grid):
        msg = "the solution does not match the clues"
        raise FormatError(msg)
    return grid


def clue_format(name: str, loads, dumps, *, label: str = "", colour: bool = False, **fields) -> Format:
    """The declaration of a text format that holds clues only, no solution.

    Its reader is ``loads(data, where=...)`` with no solution; its writer
    checks the puzzle (and a solution given, which it then drops) with
    :func:`check_writable` under ``label`` (default: the extension) and
    writes ``dumps(puzzle)`` as ASCII.  ``fields`` are the rest of the
    :class:`~rofl.formats._format.Format`.
    """
    label = label or sign_of(name).extensions[0]

    def read(data: bytes, *, where: str = f"<{label}>") -> tuple[Puzzle, None]:
        return loads(data, where=where), None

    def write(puzzle: Puzzle, solution: np.ndarray | None = None) -> bytes:
        check_writable(puzzle, solution, label, colours=colour)
        return dumps(puzzle).encode("ascii")

    read.__module__ = write.__module__ = loads.__module__  # the format's module, as Format.module says
    return Format(name=name, read=read, write=write, colour=colour, **fields)


def encoded(dumps, encoding: str = "utf-8"):
    """The writer of a text format whose ``dumps(puzzle, solution)`` gives its text."""

    def write(puzzle: Puzzle, solution: np.ndarray | None = None) -> bytes:
        return dumps(puzzle, solution).encode(encoding)

    write.__module__ = dumps.__module__
    return write


# ---------------------------------------------------------------- colour names

# X11's rgb.txt (which XPM and Olšák's files name colours from) differs from
# the CSS table Pillow ships in these four names.
_X11_DIFFERENT = {
    "gray": (190, 190, 190),
    "grey": (190, 190, 190),
    "green": (0, 255, 0),
    "maroon": (176, 48, 96),
    "purple": (160, 32, 240),
}
_GREY_LEVEL = re.compile(r"gr[ae]y(\d{1,3})")
_XPM_HEX = re.compile(r"#([0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{9}|[0-9a-fA-F]{12})")


def named_colour(name: str, *, x11: bool = False) -> RGB | None:
    """RGB of a colour name (CSS/X11, case and spaces ignored) or ``#rgb`` spec; None if unknown.

    ``x11=True`` gives X11's values where they differ from CSS (``green``
    is ``#00ff00``) and knows ``grey0``-``grey100``; hex specs may then also
    have 3 or 4 digits per channel, as in XPM.
    """
    m = _XPM_HEX.fullmatch(name.strip())
    if m:
        digits = m.group(1)
        n = len(digits) // 3
        channels = [digits[i * n : (i + 1) * n] for i in range(3)]
        if n == 1:
            return tuple(int(c * 2, 16) for c in channels)  # type: ignore[return-value]
        return tuple(int(c[:2], 16) for c in channels)  # type: ignore[return-value]
    key = "".join(name.split()).lower()
    if x11:
        if key in _X11_DIFFERENT:
            return _X11_DIFFERENT[key]
        level = _GREY_LEVEL.fullmatch(key)
        if level and int(level.group(1)) <= 100:
            v = int(int(level.group(1)) * 255 / 100 + 0.5)
            return (v, v, v)
    from PIL import ImageColor

    if key not in ImageColor.colormap:  # names only, not Pillow's other colour syntaxes
        return None
    # (getrgb, not colormap[key]: Pillow replaces the map's strings by tuples as it uses them)
    rgb = ImageColor.getrgb(key)
    return (rgb[0], rgb[1], rgb[2])


def parse_xml(data: bytes | str, where: str):
    """``data`` parsed by defusedxml (entity declarations refused, a DOCTYPE
    accepted and never fetched); errors are one :class:`FormatError` naming ``where``."""
    import defusedxml.ElementTree as SafeET
    from defusedxml import DefusedXmlException

    # some exporters leave blank lines (or a byte-order mark and blank lines)
    # before the XML declaration, which expat refuses
    if isinstance(data, bytes):
        data = data.removeprefix(b"\xef\xbb\xbf").lstrip(b" \t\r\n")
    else:
        data = data.removeprefix("\ufeff").lstrip(" \t\r\n")
    try:
        return SafeET.fromstring(data, forbid_dtd=False, forbid_entities=True, forbid_external=True)
    except DefusedXmlException as exc:
        name = getattr(exc, "name", None)
        what = f" ({name!r})" if name else ""
        msg = (
            f"{where}: the XML declares entities{what}, which rofl refuses "
            "(they can expand without bound or read other files)"
        )
        raise FormatError(msg) from None
    except SyntaxError as exc:  # xml.etree.ElementTree.ParseError
        msg = f"{where}: not well-formed XML ({exc})"
        raise FormatError(msg) from None
    except (ValueError, RecursionError) as exc:
        msg = f"{where}: not readable XML ({exc})"
        raise FormatError(msg) from None
    except LookupError as exc:  # <?xml ... encoding="..."?> names no codec Python knows
        msg = f"{where}: the XML declares an {exc}"
        raise FormatError(msg) from None


def pick_numbered(items: Mapping[int, object], number: int | None, where: str, mark: str = "", what: str = ""):
    """The item numbered ``number`` of a file of several puzzles (``items``
    in file order), or its only one when ``number`` is None; ``mark``
    prefixes numbers in messages (``$`` for tournament labels), ``what``
    says what the file is instead of listing its numbers ("a puzzle book").

    Raises
    ------
    FormatError
        Several items and no ``number`` (the message says to name one as
        ``FILE#N``), or no item ``number`` (the message lists those there are).
    """
    keys = list(items)
    if len(keys) <= 10:
        span = ", ".join(f"{mark}{key}" for key in keys)
    elif keys == sorted(keys):
        span = f"{mark}{keys[0]} to {mark}{keys[-1]}"
    else:
        span = f"{mark}{keys[0]}, {mark}{keys[1]}, ... {mark}{keys[-1]}"
    if number is None:
        if len(keys) > 1:
            msg = f"{len(keys)} puzzles in one file ({what or span}); name one as {where}#N, e.g. {where}#{keys[0]}"
            raise fail(where, None, msg)
        number = keys[0]
    if number not in items:
        raise fail(where, None, f"no puzzle {mark}{number} (the file holds {len(keys)}: {span})")
    return items[number]
