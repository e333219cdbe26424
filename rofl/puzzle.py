"""Puzzle: the frozen description of a rectangular nonogram.

A puzzle never changes once built; solving states live elsewhere
(:mod:`rofl.solver`).  :class:`Puzzle` is rectangular (its board is a
:class:`Rectangle`); the hexagonal
:class:`~rofl.hexagon.HexPuzzle` (:mod:`rofl.hexagon`) shares the clue
storage and everything else of :class:`~rofl.linepuzzle.LinePuzzle`.
The parts of the model live by role: colours in :mod:`rofl.palette`, clue
validation in :mod:`rofl.validate`, clue derivation in :mod:`rofl.derive`,
the kernels' packed form in :mod:`rofl.packed`, the board protocol in
:mod:`rofl.board`; this module keeps their public names importable from
``rofl.puzzle`` as before.  Clues are stored flat, the way the solver reads
them (for a rectangle):

* ``lengths`` and ``colors``: one entry per group, rows first (top to
  bottom) then columns (left to right);
* ``offsets``: ``H + W + 1`` indices, groups of line ``i`` are
  ``offsets[i]:offsets[i + 1]``.  Line ``i < H`` is row ``i``, line
  ``H + j`` is column ``j``.

The colour rules are :mod:`rofl.validate`'s.  Messages number rows and
columns from 1 (top, left), as people read them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from rofl.board import BoardKind, Frozen
from rofl.derive import grid_clues, grid_runs
from rofl.errors import PuzzleError
from rofl.linepuzzle import LinePuzzle
from rofl.packed import PackedClues
from rofl.palette import MAX_COLORS, RGB, Palette, as_palette, parse_color
from rofl.validate import (
    ANY_COLOR,
    MAX_SIDE,
    Group,
    check_size,
    check_totals,
    min_cells,
    parse_lines,
)

__all__ = [
    "ANY_COLOR",
    "MAX_COLORS",
    "MAX_SIDE",
    "RGB",
    "Group",
    "PackedClues",
    "Palette",
    "Puzzle",
    "Rectangle",
    "check_totals",
    "min_cells",
    "parse_color",
]


class Rectangle(Frozen):
    """The board of a rectangular puzzle, ``width`` x ``height`` cells.

    Cells are numbered row by row, top to bottom, left to right (a filling
    is an ``(H, W)`` array; ``reshape(-1)`` gives that order).  Line ``i <
    H`` is row ``i + 1`` (cells left to right), line ``H + j`` column ``j +
    1`` (top to bottom), as a :class:`~rofl.puzzle.Puzzle` stores its clues.

    The sizes are not checked here: a :class:`~rofl.puzzle.Puzzle` checks
    them before it makes its board.
    """

    __slots__ = ("width", "height", "_line_cells")

    kind: BoardKind = "rectangle"
    directions = (("row", "rows"), ("column", "columns"))

    width: int
    height: int
    _line_cells: np.ndarray | None

    def __init__(self, width: int, height: int) -> None:
        object.__setattr__(self, "width", int(width))
        object.__setattr__(self, "height", int(height))
        object.__setattr__(self, "_line_cells", None)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Rectangle):
            return NotImplemented
        return (self.width, self.height) == (other.width, other.height)

    def __hash__(self) -> int:
        return hash(("rectangle", self.width, self.height))

    def __repr__(self) -> str:
        return f"Rectangle({self.width}, {self.height})"

    @property
    def n_cells(self) -> int:
        return self.width * self.height

    @property
    def n_lines(self) -> int:
        return self.width + self.height

    @property
    def grid_shape(self) -> tuple[int, int]:
        return (self.height, self.width)

    @property
    def line_cells(self) -> np.ndarray:
        """Made on first use and kept (``2 * n_cells`` int64: 64 MB for a 2048 x 2048 board)."""
        if self._line_cells is None:
            flat = np.arange(self.n_cells, dtype=np.int64)
            cells = np.concatenate([flat, flat.reshape(self.height, self.width).T.reshape(-1)])
            cells.flags.writeable = False
            object.__setattr__(self, "_line_cells", cells)
        return self._line_cells  # type: ignore[return-value]

    @property
    def line_offsets(self) -> np.ndarray:
        h, w = self.height, self.width
        return np.concatenate([np.arange(h + 1, dtype=np.int64) * w, h * w + np.arange(1, w + 1, dtype=np.int64) * h])

    @property
    def line_directions(self) -> np.ndarray:
        return (np.arange(self.n_lines) >= self.height).astype(np.int64)

    def line(self, line: int) -> np.ndarray:
        if line < self.height:  # a row, left to right
            return np.arange(line * self.width, (line + 1) * self.width, dtype=np.int64)
        return np.arange(line - self.height, self.n_cells, self.width, dtype=np.int64)  # a column, top to bottom

    def line_name(self, line: int) -> str:
        return f"row {line + 1}" if line < self.height else f"column {line - self.height + 1}"

    def direction(self, line: int) -> int:
        return 0 if line < self.height else 1

    def size_text(self) -> str:
        return f"{self.width}x{self.height}"

    def clues_of(self, cells: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return grid_runs(np.asarray(cells).reshape(self.grid_shape))

    def centres(self, size: float = 1.0) -> np.ndarray:
        rows, cols = np.divmod(np.arange(self.n_cells, dtype=np.float64), self.width)
        return np.stack([(cols + 0.5) * size, (rows + 0.5) * size], axis=1)

    def corners(self, size: float = 1.0) -> np.ndarray:
        half = size / 2
        return np.array([(-half, -half), (half, -half), (half, half), (-half, half)], dtype=np.float64)

    def extent(self, size: float = 1.0) -> tuple[float, float]:
        return self.width * size, self.height * size

    def puzzle(self, cells: np.ndarray, palette: Palette | Any = None, *, meta: Mapping[str, str] | None = None):
        grid = np.asarray(cells)
        if grid.shape != self.grid_shape:
            msg = f"a {self.size_text()} board takes a grid of shape {self.grid_shape}, not {grid.shape}"
            raise PuzzleError(msg)
        return Puzzle.from_grid(grid, palette, meta=meta)


class Puzzle(LinePuzzle):
    """A rectangular nonogram: size, palette and the clues of every row and column.

    Frozen, hashable and validated when built.

    Parameters
    ----------
    width, height : int
        Size in cells, both ``>= 1``.
    palette : Palette or sequence of colours
        Index 0 is the background.
    rows, cols : sequence of sequences of ``(length, colour)``
        ``height`` row clues (top to bottom) and ``width`` column clues (left
        to right).  An empty line has an empty clue.  A colour is a palette
        index, ``"?"`` (any foreground colour) or a set of indices; two
        touching groups take different colours, and a group next to one of
        the same colour needs a background cell between them.
    meta : mapping of str to str, optional
        Free-form metadata (title, author, licence...).  Not part of
        equality or hashing.

    Raises
    ------
    PuzzleError
        With a message naming the line: a clue that cannot fit its line, a
        colour outside the palette, a group shorter than 1, ``?`` in a
        puzzle with one ink colour, per-colour cell totals of rows and
        columns that differ, a zero size.
    """

    __slots__ = ("width", "height", "_packed")

    width: int
    height: int
    board: Rectangle

    def __init__(
        self,
        width: int,
        height: int,
        palette: Palette | Iterable[Any],
        rows: Sequence[Sequence[Sequence[Any]]],
        cols: Sequence[Sequence[Sequence[Any]]],
        *,
        meta: Mapping[str, str] | None = None,
    ) -> None:
        width, height = check_size(width, height)
        if len(rows) != height:
            msg = f"{len(rows)} row clues for a puzzle {height} rows high"
            raise PuzzleError(msg)
        if len(cols) != width:
            msg = f"{len(cols)} column clues for a puzzle {width} columns wide"
            raise PuzzleError(msg)
        palette = as_palette(palette)
        board = Rectangle(width, height)
        lengths, colors, offsets, color_sets = parse_lines([*rows, *cols], palette, board.line_name)
        self._init_arrays(board, palette, lengths, colors, offsets, meta, color_sets)

    @classmethod
    def from_arrays(cls, width: int, height: int, *arrays: Any, **keywords: Any) -> Puzzle:
        """Build from the flat clue arrays ``palette, lengths, colors, offsets``
        (see the module docstring) and the keywords ``color_sets`` and
        ``meta``: :meth:`~rofl.linepuzzle.LinePuzzle.from_board_arrays` on the
        ``width`` x ``height`` rectangle; validates like ``__init__``."""
        return cls.from_board_arrays(Rectangle(*check_size(width, height)), *arrays, **keywords)

    def _init_arrays(self, board, palette, lengths, colors, offsets, meta, color_sets=None) -> None:
        fields = {"width": board.width, "height": board.height, "_packed": None}
        self._init_board(board, fields, palette, lengths, colors, offsets, color_sets, meta)

    # ------------------------------------------------------------------ build

    @classmethod
    def from_grid(
        cls,
        grid: np.ndarray,
        palette: Palette | Iterable[Any] | None = None,
        *,
        meta: Mapping[str, str] | None = None,
    ) -> Puzzle:
        """Derive the clues of a picture.

        Parameters
        ----------
        grid : (H, W) integer array of palette indices
        palette : Palette, optional
            Defaults to black and white.

        Raises
        ------
        PuzzleError
            Empty grid, wrong shape, or a value outside the palette.
        """
        palette = Palette.black_white() if palette is None else palette
        palette = as_palette(palette)
        grid = np.asarray(grid)
        lengths, colors, offsets = grid_clues(grid, len(palette))
        height, width = grid.shape
        return cls.from_arrays(width, height, palette, lengths, colors, offsets, meta=meta)

    # ----------------------------------------------------------------- access

    @property
    def n_cells(self) -> int:
        """How many cells the grid has (as :attr:`HexPuzzle.n_cells <rofl.hexagon.HexPuzzle.n_cells>`)."""
        return self.width * self.height

    @property
    def rows(self) -> tuple[tuple[Group, ...], ...]:
        """Row clues, top to bottom, as ``(length, colour)`` tuples."""
        return self._all_lines()[: self.height]

    @property
    def cols(self) -> tuple[tuple[Group, ...], ...]:
        """Column clues, left to right, as ``(length, colour)`` tuples."""
        return self._all_lines()[self.height :]

    @property
    def packed(self) -> PackedClues:
        """The clues in the solver's types (:class:`PackedClues`), made on
        first use and kept: the puzzle is frozen, so they never go stale.

        Raises
        ------
        PuzzleError
            The puzzle has colour sets (``?`` clues), which the solver does
            not read yet.
        """
        if self._packed is None:
            if self.color_sets is not None:
                g = int(np.flatnonzero(self.color_sets)[0])
                line = int(np.searchsorted(self.offsets, g, side="right") - 1)
                msg = (
                    f"{self.line_name(line)} has a group of several possible colours ('?'), "
                    "which the rectangular kernels cannot read (rofl.solve and rofl.solve_complete can)"
                )
                raise PuzzleError(msg)
            packed = PackedClues(
                self.lengths.astype(np.int64), self.colors.astype(np.int64), self.offsets.astype(np.int64)
            )
            object.__setattr__(self, "_packed", packed)
        return self._packed  # type: ignore[return-value]

    def line_name(self, line: int) -> str:
        """``"row 3"`` or ``"column 5"`` for line index ``line`` (1-based in the text)."""
        return self.board.line_name(line)

    def unmet_line(self, grid: np.ndarray) -> int | None:
        """The first line (rows, then columns) whose clue ``grid`` does not
        give, or None when it gives every clue.

        ``grid`` is an ``(H, W)`` array of palette indices of this puzzle's
        shape; a value outside the palette raises :class:`PuzzleError`.
        """
        grid = np.asarray(grid)
        lengths, colors, offsets = grid_clues(grid, len(self.palette))
        if (
            self.color_sets is None
            and np.array_equal(offsets, self.offsets)
            and np.array_equal(lengths, self.lengths)
            and np.array_equal(colors, self.colors)
        ):
            return None  # the common case, told without building a puzzle
        height, width = grid.shape
        return self._first_unmet(Puzzle.from_arrays(width, height, self.palette, lengths, colors, offsets))

    def is_solution(self, grid: np.ndarray) -> bool:
        """Whether ``grid`` (an ``(H, W)`` array of palette indices) satisfies every clue."""
        grid = np.asarray(grid)
        if grid.shape != (self.height, self.width):
            return False
        try:
            return self.unmet_line(grid) is None
        except PuzzleError:
            return False

    # ------------------------------------------------------------ value object

    def _shape_key(self) -> tuple:
        return (self.width, self.height)

    def _shape_args(self) -> tuple:
        return (self.width, self.height)

    def __repr__(self) -> str:
        if self.n_groups <= 60:
            rows = [list(line) for line in self.rows]
            cols = [list(line) for line in self.cols]
            return f"Puzzle({self.width}, {self.height}, {self.palette!r}, rows={rows!r}, cols={cols!r})"
        return f"<Puzzle {self.width}x{self.height}, {self.n_colors} colours, {self.n_groups} groups>"
