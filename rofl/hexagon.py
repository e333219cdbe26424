"""Hexagon and HexPuzzle: the board and the frozen puzzle of a hexagonal nonogram.

The model of :mod:`rofl.puzzle` on another board: a :class:`Hexagon` of
side *s* (cells in cube coordinates, lines in three directions; a
:class:`rofl.board.Board`) and a :class:`HexPuzzle`, which shares the
rectangle's clue storage, validation and colour rules (``?`` groups
included) through :class:`rofl.linepuzzle.LinePuzzle`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from rofl._cache import array_bytes, bytes_cache
from rofl._checks import whole
from rofl.board import BoardKind, Frozen
from rofl.derive import line_runs
from rofl.errors import PuzzleError, shown
from rofl.linepuzzle import LinePuzzle
from rofl.packed import PackedClues
from rofl.palette import Palette, as_palette
from rofl.validate import Group, parse_lines

#: The most cells along a side of a hexagonal board: 785 665 cells.  A
#: hexagon's cell costs about three times a rectangle's (a line of each
#: direction through it, cube coordinates), so this keeps solving the
#: largest empty board (a 6 kB file) under the resource policy's 256 MB, as
#: a 2048 x 2048 rectangle is (issue 40: side 1024 took 584 MB).  Sheets,
#: pictures and pages of hexagons stop at side 128.
MAX_HEX_SIDE = 512


class Hexagon(Frozen):
    """The board of a hexagonal puzzle of side ``side``: its cells and lines.

    Hexagons point up, so rows are horizontal.  A cell is addressed by cube
    coordinates ``(q, r, s)`` with ``q + r + s == 0`` and
    ``max(|q|, |r|, |s|) < side``; the centre is ``(0, 0, 0)``, ``r`` grows
    downwards and ``q`` to the right along a row.  There are
    ``3 * side * (side - 1) + 1`` cells, numbered row by row, top to
    bottom, left to right: cell arrays of a hexagonal puzzle are flat in
    that order.

    Lines run in three directions, ``2 * side - 1`` in each, every one
    ``side`` to ``2 * side - 1`` cells long, cells listed top to bottom
    (left to right along a row).  Line ``i`` of a puzzle is:

    * ``0 <= i < 2s - 1``: row ``i + 1`` (constant ``r``), top to bottom;
    * then the falling diagonals (``\\``, constant ``q``), by growing ``q``:
      the first starts at the left corner, the last is the top-right edge;
    * then the rising diagonals (``/``, constant ``s``), by falling ``s``:
      the first is the top-left edge, the last starts at the right corner.

    So both diagonal directions are numbered left to right along the top of
    the board.  (The seed document's 1-based coordinates are ``(r, q, s)``
    plus ``side``.)

    Instances are cached per side; use :meth:`of`.
    """

    __slots__ = ("side", "coords", "line_cells", "line_offsets", "_index")

    #: Direction names in messages (singular, plural).
    DIRECTIONS = (("row", "rows"), ("falling diagonal", "falling diagonals"), ("rising diagonal", "rising diagonals"))
    directions = DIRECTIONS
    kind: BoardKind = "hexagon"

    side: int
    coords: np.ndarray
    line_cells: np.ndarray
    line_offsets: np.ndarray

    def __init__(self, side: int) -> None:
        side = _check_side(side)
        m = side - 1
        # Row by row (r from -m to m), q growing: no (2m+1)^2 grid of
        # candidates, and each array made once (a side-1024 board peaked at
        # 440 MB with a grid and copies; its arrays then held 185 MB).
        per_row = line_lengths(side)[: 2 * m + 1]
        n = int(per_row.sum())
        rows = np.arange(-m, m + 1, dtype=np.int64)
        # coordinates and the index are for Python (drawing, fitting) and fit
        # in 32 bits; the kernels take line_cells, as int64
        coords = np.empty((n, 3), dtype=np.int32)
        r = coords[:, 1]
        r[:] = np.repeat(rows, per_row)
        q = coords[:, 0]
        first = np.zeros(2 * m + 1, dtype=np.int64)
        np.cumsum(per_row[:-1], out=first[1:])
        q[:] = np.arange(n, dtype=np.int64)
        q += np.repeat(np.maximum(-m, -m - rows) - first, per_row)
        np.negative(q, out=coords[:, 2])
        coords[:, 2] -= r
        # Each direction sorts the cells by its constant coordinate (in the
        # numbering order above, by r then q; a stable sort keeps it), then
        # top to bottom.
        line_cells = np.empty(3 * n, dtype=np.int64)
        line_cells[:n] = np.arange(n, dtype=np.int64)
        line_cells[n : 2 * n] = np.argsort(q, kind="stable")
        line_cells[2 * n :] = np.argsort(q + r, kind="stable")  # s falling == q + r growing
        offsets = np.zeros(3 * (2 * m + 1) + 1, dtype=np.int64)
        np.cumsum(line_lengths(side), out=offsets[1:])
        index = np.full((2 * m + 1, 2 * m + 1), -1, dtype=np.int32)
        index[r + m, q + m] = np.arange(n, dtype=np.int32)
        for name, value in (
            ("side", side),
            ("coords", coords),
            ("line_cells", line_cells),
            ("line_offsets", offsets),
            ("_index", index),
        ):
            if isinstance(value, np.ndarray):
                value.flags.writeable = False
            object.__setattr__(self, name, value)

    @staticmethod
    def of(side: int) -> Hexagon:
        """The board of side ``side`` (made once per side and kept)."""
        return _hexagon(_check_side(side))

    @property
    def n_cells(self) -> int:
        return len(self.coords)

    @property
    def n_lines(self) -> int:
        return len(self.line_offsets) - 1

    @property
    def grid_shape(self) -> tuple[int]:
        """A filling of the board is flat: ``(n_cells,)``."""
        return (self.n_cells,)

    @property
    def line_directions(self) -> np.ndarray:
        return np.arange(self.n_lines, dtype=np.int64) // (2 * self.side - 1)

    def size_text(self) -> str:
        return f"hexagon of side {self.side}"

    def line(self, line: int) -> np.ndarray:
        """Cell indices of line ``line``, in order along it."""
        return self.line_cells[self.line_offsets[line] : self.line_offsets[line + 1]]

    def line_length(self, line: int) -> int:
        return int(self.line_offsets[line + 1] - self.line_offsets[line])

    def direction(self, line: int) -> int:
        """0 (rows), 1 (falling diagonals) or 2 (rising diagonals)."""
        return line // (2 * self.side - 1)

    def line_name(self, line: int) -> str:
        """``"row 3"``, ``"falling diagonal 1"``...: numbered from 1 in each direction."""
        return line_name(self.side, line)

    def cell(self, q: int, r: int) -> int:
        """Index of the cell at cube coordinates ``(q, r, -q - r)``.

        Raises
        ------
        PuzzleError
            The coordinates are outside the board.
        """
        m = self.side - 1
        if not (abs(q) <= m and abs(r) <= m and abs(q + r) <= m):
            msg = f"cell (q={q}, r={r}) is outside a hexagon of side {self.side}"
            raise PuzzleError(msg)
        return int(self._index[r + m, q + m])

    def clues_of(self, cells: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The flat clues of a filled board, unchecked: ``lengths``, ``colors``
        and ``offsets`` (int64; line ``i`` owns groups ``offsets[i]:offsets[i + 1]``)
        of ``cells``, an ``(n_cells,)`` array of palette indices."""
        lengths, colors, counts = line_runs(np.asarray(cells)[self.line_cells], self.line_offsets)
        offsets = np.zeros(self.n_lines + 1, dtype=np.int64)
        np.cumsum(counts, out=offsets[1:])
        return lengths.astype(np.int64), colors.astype(np.int64), offsets

    def cells_at(self, q: np.ndarray, r: np.ndarray) -> np.ndarray:
        """Indices of the cells at cube coordinates ``(q, r, -q - r)``, -1 where
        a coordinate pair lies outside the board (arrays of any one shape)."""
        q, r = np.asarray(q, dtype=np.int64), np.asarray(r, dtype=np.int64)
        m = self.side - 1
        inside = (np.abs(q) <= m) & (np.abs(r) <= m) & (np.abs(q + r) <= m)
        out = np.full(q.shape, -1, dtype=np.int64)
        out[inside] = self._index[r[inside] + m, q[inside] + m]
        return out

    def centres(self, size: float = 1.0) -> np.ndarray:
        """Cell centres for pointy-top cells of circumradius ``size``, the
        centre cell at ``(0, 0)``, ``y`` growing downwards."""
        q = self.coords[:, 0].astype(np.float64)
        r = self.coords[:, 1].astype(np.float64)
        return np.stack([math.sqrt(3) * size * (q + r / 2), 1.5 * size * r], axis=1)

    def corners(self, size: float = 1.0) -> np.ndarray:
        """The six corners of a pointy-top cell of circumradius ``size``, from the lower right, clockwise."""
        return np.array(
            [(size * math.cos(math.radians(a)), size * math.sin(math.radians(a))) for a in range(30, 390, 60)]
        )

    def extent(self, size: float = 1.0) -> tuple[float, float]:
        """The box around pointy-top cells of circumradius ``size``: ``2s - 1``
        cells of width √3 across the middle row, ``2s - 1`` rows 1.5 apart
        plus half a cell above and below."""
        return (2 * self.side - 1) * math.sqrt(3) * size, (3.0 * self.side - 1.0) * size

    def puzzle(self, cells: np.ndarray, palette: Palette | Any = None, *, meta: Mapping[str, str] | None = None):
        """:meth:`HexPuzzle.from_cells` on this board."""
        return HexPuzzle.from_cells(self.side, cells, palette, meta=meta)

    def __repr__(self) -> str:
        return f"Hexagon({self.side})"


#: Bytes of boards kept for reuse (a board of side 1024 holds some 190 MB).
CACHE_BYTES = 256 * 1024 * 1024


@bytes_cache(CACHE_BYTES, array_bytes)
def _hexagon(side: int) -> Hexagon:
    return Hexagon(side)


def line_lengths(side: int) -> np.ndarray:
    """Cells of every line of the hexagon of side ``side``, in :class:`Hexagon`'s
    order (rows, falling, rising diagonals), computed without building the
    board: a reader checks a file's counts against them before the file has
    shown that it holds the board's clues."""
    side = _check_side(side)
    m = side - 1
    t = np.arange(2 * m + 1, dtype=np.int64)
    return np.tile(side + np.minimum(t, 2 * m - t), 3)


def line_name(side: int, line: int) -> str:
    """``"row 3"``, ``"falling diagonal 1"``...: line ``line`` of the hexagon of side ``side``,
    numbered from 1 in each direction (without building the board)."""
    per = 2 * side - 1
    return f"{Hexagon.DIRECTIONS[line // per][0]} {line % per + 1}"


def _check_side(side: Any) -> int:
    try:
        side = whole(side)
    except TypeError:
        msg = f"side {shown(side)} is not an integer"
        raise PuzzleError(msg) from None
    if side < 1:
        msg = f"side {side}: a hexagonal puzzle needs a side of at least 1 cell"
        raise PuzzleError(msg)
    if side > MAX_HEX_SIDE:
        msg = f"side {side} is too large (at most {MAX_HEX_SIDE})"
        raise PuzzleError(msg)
    return side


class HexPuzzle(LinePuzzle):
    """A hexagonal nonogram: side, palette and the clues of every line in
    the three directions (see :class:`Hexagon` for the cells and lines).

    Frozen, hashable and validated when built, like :class:`Puzzle`, and
    with the same colour rules (``?`` and colour sets included).  A filling
    of the board is a flat ``(n_cells,)`` array of palette indices in the
    board's cell order.

    Parameters
    ----------
    side : int
        Cells along each edge, ``1..MAX_HEX_SIDE``.
    palette : Palette or sequence of colours
    rows, falling, rising : sequences of ``2 * side - 1`` clues each
        In the order :class:`Hexagon` numbers the lines; a clue is a
        sequence of ``(length, colour)`` groups along the line.
    meta : mapping of str to str, optional

    Raises
    ------
    PuzzleError
        With a message naming the line ("falling diagonal 4, group 2: ...").
    """

    __slots__ = ("side",)

    side: int
    board: Hexagon

    def __init__(
        self,
        side: int,
        palette: Palette | Iterable[Any],
        rows: Sequence[Sequence[Sequence[Any]]],
        falling: Sequence[Sequence[Sequence[Any]]],
        rising: Sequence[Sequence[Sequence[Any]]],
        *,
        meta: Mapping[str, str] | None = None,
    ) -> None:
        board = Hexagon.of(side)
        per = 2 * board.side - 1
        for (_, plural), clues in zip(Hexagon.DIRECTIONS, (rows, falling, rising), strict=True):
            if len(clues) != per:
                msg = f"{len(clues)} clues for the {plural} of a hexagon of side {board.side}, which has {per}"
                raise PuzzleError(msg)
        palette = as_palette(palette)
        lengths, colors, offsets, color_sets = parse_lines([*rows, *falling, *rising], palette, board.line_name)
        self._init_arrays(board, palette, lengths, colors, offsets, meta, color_sets)

    @classmethod
    def from_arrays(cls, side: int, *arrays: Any, **keywords: Any) -> HexPuzzle:
        """Build from flat clue arrays over the board's lines (as
        :meth:`Puzzle.from_arrays`): :meth:`~rofl.linepuzzle.LinePuzzle.from_board_arrays`
        on the hexagon of side ``side``; validates like ``__init__``."""
        return cls.from_board_arrays(Hexagon.of(side), *arrays, **keywords)

    def _init_arrays(self, board, palette, lengths, colors, offsets, meta, color_sets) -> None:
        self._init_board(board, {"side": board.side}, palette, lengths, colors, offsets, color_sets, meta)

    @classmethod
    def from_cells(
        cls,
        side: int,
        cells: np.ndarray,
        palette: Palette | Iterable[Any] | None = None,
        *,
        meta: Mapping[str, str] | None = None,
    ) -> HexPuzzle:
        """Derive the clues of a filled board.

        Parameters
        ----------
        side : int
        cells : (n_cells,) integer array of palette indices, in the board's cell order
        palette : Palette, optional
            Defaults to black and white.

        Raises
        ------
        PuzzleError
            Wrong length, or a value outside the palette.
        """
        board = Hexagon.of(side)
        palette = as_palette(Palette.black_white() if palette is None else palette)
        cells = _check_cells(board, cells, palette)
        return cls.from_arrays(board.side, palette, *board.clues_of(cells), meta=meta)

    # ----------------------------------------------------------------- access

    @property
    def rows(self) -> tuple[tuple[Group, ...], ...]:
        """Row clues, top to bottom."""
        return self._direction(0)

    @property
    def falling(self) -> tuple[tuple[Group, ...], ...]:
        """Clues of the falling diagonals (``\\``), in the board's order."""
        return self._direction(1)

    @property
    def rising(self) -> tuple[tuple[Group, ...], ...]:
        """Clues of the rising diagonals (``/``), in the board's order."""
        return self._direction(2)

    def _direction(self, d: int) -> tuple[tuple[Group, ...], ...]:
        per = 2 * self.side - 1
        return self._all_lines()[d * per : (d + 1) * per]

    @property
    def packed(self) -> PackedClues:
        """None: the rectangular kernels (refinement, the line cache) do not
        read hexagons; :func:`rofl.solve` and :func:`rofl.solve_complete` do.

        Raises
        ------
        PuzzleError
            Always.
        """
        msg = "the rectangular kernels cannot read a hexagonal puzzle (rofl.solve and rofl.solve_complete can)"
        raise PuzzleError(msg)

    def line_name(self, line: int) -> str:
        """``"row 3"``, ``"falling diagonal 5"``...: see :meth:`Hexagon.line_name`."""
        return self.board.line_name(line)

    def unmet_line(self, cells: np.ndarray) -> int | None:
        """The first line whose clue ``cells`` (a filling of the board) does
        not give, or None when it gives every clue.

        Raises
        ------
        PuzzleError
            ``cells`` is not a filling of this board with this palette.
        """
        return self._first_unmet(HexPuzzle.from_cells(self.side, cells, self.palette))

    def is_solution(self, cells: np.ndarray) -> bool:
        """Whether ``cells`` (``(n_cells,)`` palette indices) satisfies every clue."""
        try:
            return self.unmet_line(cells) is None
        except PuzzleError:
            return False

    # ------------------------------------------------------------ value object

    def _shape_key(self) -> tuple:
        return ("hexagon", self.side)

    def _shape_args(self) -> tuple:
        return (self.side,)

    def __repr__(self) -> str:
        if self.n_groups <= 60:
            lines = ", ".join(
                f"{name}={[list(line) for line in self._direction(d)]!r}"
                for d, name in enumerate(("rows", "falling", "rising"))
            )
            return f"HexPuzzle({self.side}, {self.palette!r}, {lines})"
        return f"<HexPuzzle side {self.side}, {self.n_colors} colours, {self.n_groups} groups>"


def _check_cells(board: Hexagon, cells: Any, palette: Palette) -> np.ndarray:
    cells = np.asarray(cells)
    if cells.shape != (board.n_cells,):
        msg = f"a hexagon of side {board.side} has {board.n_cells} cells, not an array of shape {cells.shape}"
        raise PuzzleError(msg)
    if not np.issubdtype(cells.dtype, np.integer):
        msg = f"cells must hold integer palette indices, not {cells.dtype}"
        raise PuzzleError(msg)
    bad = np.flatnonzero((cells < 0) | (cells >= len(palette)))
    if bad.size:
        i = int(bad[0])
        q, r, s = board.coords[i].tolist()
        msg = f"cell {i} (q={q}, r={r}, s={s}): value {cells[i]} is outside the palette ({len(palette)} colours)"
        raise PuzzleError(msg)
    # palette indices fit a byte (at most 256 colours): the clues' temporaries
    # over the three directions' 3 x n_cells entries stay small
    return cells.astype(np.uint8 if len(palette) <= 256 else np.int64)
