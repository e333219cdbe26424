"""The NotMine cipher: a black-and-white field as one line of ASCII.

From Project NotMine (October 2017), sections 8 and 9 of
``shared/seeds/000_9d8b6a51ac583c7d.txt``::

    NotMine{ 2, 8, NONOGRAM }
    leader   rows, columns, content   trailer

* The content is a sequence of *glyphs*, one character for two consecutive
  cells in row-major order; a field with an odd number of cells ends with a
  glyph that holds one cell.
* A glyph is ``chr(ord('!') + bits)``; bits 0-2 describe the even cell,
  bits 3-5 the odd cell: bit 0 (3) = filled by the program (the picture),
  bit 1 (4) = filled by the player, bit 2 (5) = marked empty by the player.
  Other bits are ignored, so every character from ``!`` to ``~`` is a glyph
  (``a`` reads like ``!``).
* Cells without a glyph are ``!`` (all bits clear): a cipher may stop early.
  Glyphs beyond the field are ignored (the seed's examples have some).
* Quotes appear escaped in the seed's examples (``\\"``), as in a string
  literal; the reader turns ``\\"`` into ``"`` and ``\\\\`` into ``\\`` (any
  other backslash is the glyph ``\\``).  The writer escapes both, so what it
  writes reads back exactly.
* Whitespace inside the content is ignored, so a long cipher may be wrapped.

:class:`Field` holds the picture and the player's state; :func:`loads` and
:func:`dumps` convert, :func:`read_bytes` / :func:`write_bytes` plug the
cipher into :func:`rofl.formats.open_puzzle` / ``write_puzzle`` (extension
``.notmine``, or any file starting with ``NotMine{``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from rofl.errors import FormatError
from rofl.formats import _limits
from rofl.formats._format import Format, sign_of

#: What a cipher starts with (the sign's ``starts``).
LEADER = sign_of("NotMine cipher").starts[0].decode()
TRAILER = "}"
#: Largest field accepted (rows * columns), so a hostile header cannot ask
#: for gigabytes.
MAX_CELLS = _limits.MAX_CELLS

_HEADER = re.compile(r"\s*NotMine\{\s*([0-9]+)\s*,\s*([0-9]+)\s*,(.*)\}\s*", re.DOTALL)
_OFFSET = ord("!")
_NOT_GLYPH = re.compile(r"[^!-~]")
_ESCAPE = re.compile(r'\\(["\\])')


@dataclass(frozen=True, eq=False)
class Field:
    """A NotMine field: the picture and what a player has done to it.

    Attributes
    ----------
    picture : (rows, cols) bool array
        Cells filled by the program (bit 0 of a cell): the solution.
    fill : (rows, cols) bool array
        Cells the player filled (bit 1).
    mark : (rows, cols) bool array
        Cells the player marked as empty (bit 2).  A cell may be both filled
        and marked; the seed shows it as filled and stores both.
    """

    picture: np.ndarray
    fill: np.ndarray
    mark: np.ndarray

    def __post_init__(self) -> None:
        arrays = []
        for name in ("picture", "fill", "mark"):
            a = np.array(getattr(self, name), dtype=bool)
            if a.ndim != 2 or 0 in a.shape:
                msg = f"Field.{name} must be a non-empty two-dimensional array, not of shape {a.shape}"
                raise ValueError(msg)
            a.flags.writeable = False
            arrays.append(a)
        if not arrays[0].shape == arrays[1].shape == arrays[2].shape:
            msg = f"Field arrays differ in shape: {[a.shape for a in arrays]}"
            raise ValueError(msg)
        for name, a in zip(("picture", "fill", "mark"), arrays, strict=True):
            object.__setattr__(self, name, a)

    @classmethod
    def from_picture(cls, picture: np.ndarray) -> Field:
        """A fresh field (nothing played yet) for a ``(rows, cols)`` picture, nonzero = filled."""
        picture = np.asarray(picture) != 0
        blank = np.zeros(picture.shape, dtype=bool)
        return cls(picture, blank, blank)

    @property
    def rows(self) -> int:
        return int(self.picture.shape[0])

    @property
    def cols(self) -> int:
        return int(self.picture.shape[1])

    def bits(self) -> np.ndarray:
        """``(rows, cols)`` uint8 array of the three bits of every cell."""
        return (self.picture | (self.fill.astype(np.uint8) << 1) | (self.mark.astype(np.uint8) << 2)).astype(np.uint8)

    @classmethod
    def from_bits(cls, bits: np.ndarray) -> Field:
        """Inverse of :meth:`bits`."""
        bits = np.asarray(bits)
        return cls(bits & 1 != 0, bits & 2 != 0, bits & 4 != 0)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Field):
            return NotImplemented
        return self.picture.shape == other.picture.shape and np.array_equal(self.bits(), other.bits())

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"notmine.loads({dumps(self)!r})"


def _unescape(content: str) -> str:
    # left to right, like a string literal: \\ and \" stand for one character
    return _ESCAPE.sub(r"\1", content)


def loads(text: str | bytes, *, where: str = "NotMine cipher") -> Field:
    """Parse a cipher ``NotMine{ rows, cols, content }``.

    Raises
    ------
    FormatError
        No leader or trailer, a size that is not two positive integers, a
        field larger than :data:`MAX_CELLS`, or a content character that is
        not a glyph (the message gives its position).
    """
    if isinstance(text, bytes):
        try:
            text = text.decode("ascii")
        except UnicodeDecodeError as exc:
            msg = f"{where}: byte {exc.start + 1} is not ASCII (a cipher is ASCII text)"
            raise FormatError(msg) from None
    stripped = text.strip()
    if not stripped.startswith(LEADER):
        msg = f"{where}: does not start with {LEADER!r}"
        raise FormatError(msg)
    if not stripped.endswith(TRAILER):
        msg = f"{where}: does not end with {TRAILER!r}"
        raise FormatError(msg)
    m = _HEADER.fullmatch(text)
    if m is None:
        msg = f"{where}: expected 'NotMine{{ rows, columns, content }}' with rows and columns as decimal integers"
        raise FormatError(msg)
    rows = _limits.integer(m.group(1), where, "the number of rows")
    cols = _limits.integer(m.group(2), where, "the number of columns")
    if rows < 1 or cols < 1:
        msg = f"{where}: a field needs at least one row and one column, not {rows}x{cols}"
        raise FormatError(msg)
    _limits.check_cells(cols, rows, where)
    content = _unescape("".join(m.group(3).split()))
    bad = _NOT_GLYPH.search(content)
    if bad:
        msg = f"{where}: content character {bad.start() + 1} ({bad.group()!r}) is not a glyph ('!' to '~')"
        raise FormatError(msg)
    codes = np.frombuffer(content.encode("ascii"), dtype=np.uint8)
    n = rows * cols
    n_glyphs = (n + 1) // 2
    values = np.zeros(n_glyphs, dtype=np.uint8)
    used = codes[:n_glyphs]
    values[: used.size] = (used - _OFFSET) & 0x3F
    cells = np.empty(2 * n_glyphs, dtype=np.uint8)
    cells[0::2] = values & 7
    cells[1::2] = values >> 3
    return Field.from_bits(cells[:n].reshape(rows, cols))


def dumps(field: Field, *, escape: bool = True) -> str:
    """The cipher of ``field``: ``NotMine{ rows, cols, content }``.

    Every cell is written (no trailing ``!`` is dropped).  With ``escape``
    (the default, as in the seed's examples) ``"`` is written ``\\"`` and
    ``\\`` is written ``\\\\``; without it the content is the raw glyphs.
    """
    cells = field.bits().ravel()
    if cells.size % 2:
        cells = np.append(cells, 0)
    values = cells[0::2] | (cells[1::2] << 3)
    content = (values + _OFFSET).astype(np.uint8).tobytes().decode("ascii")
    if escape:
        content = content.replace("\\", "\\\\").replace('"', '\\"')
    return f"{LEADER} {field.rows}, {field.cols}, {content} {TRAILER}"


def read_bytes(data: bytes, *, where: str = "NotMine cipher"):
    """Read a cipher as a puzzle (the reader :func:`rofl.formats.open_puzzle` calls).

    Returns
    -------
    puzzle : Puzzle
        Black and white, clues of the picture.
    solution : (rows, cols) uint8 array
        The picture (the player's state is dropped; use :func:`loads` to keep it).
    """
    from rofl.palette import Palette
    from rofl.puzzle import Puzzle

    field = loads(data, where=where)
    grid = field.picture.astype(np.uint8)
    return Puzzle.from_grid(grid, Palette.black_white()), grid


def write_bytes(puzzle, solution=None) -> bytes:
    """The cipher of a black-and-white puzzle's picture, one line of ASCII.

    ``solution`` is the picture; without it the puzzle is solved by line
    logic.

    Raises
    ------
    FormatError
        More than two colours, or no solution given and line logic cannot
        find the unique one.
    """
    if puzzle.n_colors != 2:
        msg = f"the NotMine cipher holds black-and-white fields; this puzzle has {puzzle.n_colors} colours"
        raise FormatError(msg)
    if solution is None:
        from rofl.solver import solve

        result = solve(puzzle)
        if not result.solved:
            msg = "the NotMine cipher stores the picture; give the solution (line logic cannot find it)"
            raise FormatError(msg)
        solution = result.grid
    return (dumps(Field.from_picture(solution)) + "\n").encode("ascii")


#: How :mod:`rofl.formats` knows the format.
FORMAT = Format(
    name="NotMine cipher",
    read=read_bytes,
    write=write_bytes,
    keeps="solution kept",
)
FORMATS = (FORMAT,)
