"""The board protocol: what a puzzle's board tells the rest of rofl, whatever its shape.

A board is the set of cells a puzzle is played on and the lines its clues
run along.  Two shapes implement :class:`Board`: :class:`~rofl.puzzle.Rectangle`
(the board of a :class:`~rofl.puzzle.Puzzle`) and
:class:`~rofl.hexagon.Hexagon` (of a :class:`~rofl.hexagon.HexPuzzle`).
Code that works on any puzzle asks its ``puzzle.board`` (every puzzle has
one; :class:`BoardPuzzle`) instead of telling shapes apart by their
attributes:

* **cells**: ``n_cells`` cells in one flat order (a rectangle's row by row,
  a hexagon's as :class:`~rofl.hexagon.Hexagon` numbers them); a filling of
  the board is an array of palette indices of shape ``grid_shape``
  (``(H, W)`` for a rectangle, ``(n_cells,)`` for a hexagon), which
  ``reshape(-1)`` turns into that flat order;
* **index lines**: ``line_cells[line_offsets[i]:line_offsets[i + 1]]`` are
  the flat indices of line ``i``'s cells in order along it, the form the
  index-line kernels take (:mod:`rofl.kernels`), and ``clues_of`` derives
  the clues of a filling along them;
* **names**: ``line_name(i)`` (``"row 3"``, ``"falling diagonal 2"``),
  ``directions`` (singular and plural nouns of each direction, lines
  numbered direction by direction) and ``size_text()`` for messages;
* **geometry for drawing**: ``centres(size)`` and ``corners(size)``, the
  centre of every cell and the corners of a cell around its centre, for a
  cell of ``size`` drawing units (a square's side, a hexagon's circumradius).

``kind`` names the shape (``"rectangle"``, ``"hexagon"``) for what is
declared per shape elsewhere, such as which file formats hold it.
:class:`Frozen` is the base of the model's values (boards and puzzles),
which never change once built.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    from rofl.palette import Palette

#: The shapes of board rofl knows.
BoardKind = Literal["rectangle", "hexagon"]


class Frozen:
    """A value of the model that never changes once built (boards, puzzles):
    its constructor sets each attribute once with ``object.__setattr__``;
    any later assignment raises ``AttributeError``."""

    __slots__ = ()

    def __setattr__(self, name: str, value: Any) -> None:
        msg = f"{type(self).__name__} is immutable"
        raise AttributeError(msg)


@runtime_checkable
class Board(Protocol):
    """The cells and lines of a puzzle of any shape (see the module's docstring)."""

    @property
    def kind(self) -> BoardKind:
        """``"rectangle"`` or ``"hexagon"``."""
        ...

    @property
    def n_cells(self) -> int: ...

    @property
    def n_lines(self) -> int: ...

    @property
    def grid_shape(self) -> tuple[int, ...]:
        """The shape of an array that fills the board: ``(H, W)`` or ``(n_cells,)``."""
        ...

    @property
    def line_cells(self) -> np.ndarray:
        """(sum of line lengths,) int64: every line's flat cell indices, line after line."""
        ...

    @property
    def line_offsets(self) -> np.ndarray:
        """(n_lines + 1,) int64: line ``i`` is ``line_cells[line_offsets[i]:line_offsets[i + 1]]``."""
        ...

    @property
    def directions(self) -> tuple[tuple[str, str], ...]:
        """The directions' names, singular and plural (``("row", "rows")``), in line order."""
        ...

    @property
    def line_directions(self) -> np.ndarray:
        """(n_lines,) int64: the direction of every line (an index into :attr:`directions`)."""
        ...

    def line(self, line: int) -> np.ndarray:
        """The flat cell indices of line ``line``, in order along it."""
        ...

    def line_name(self, line: int) -> str:
        """``"row 3"``, ``"column 5"``, ``"rising diagonal 2"``: numbered from 1 in each direction."""
        ...

    def direction(self, line: int) -> int:
        """The index into :attr:`directions` of line ``line``."""
        ...

    def size_text(self) -> str:
        """The board's size as messages print it: ``20x15`` or ``hexagon of side 5``."""
        ...

    def clues_of(self, cells: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The flat clues (``lengths``, ``colors``, ``offsets``, int64) of a
        filling of the board (an array of ``grid_shape``), unchecked."""
        ...

    def centres(self, size: float = 1.0) -> np.ndarray:
        """(n_cells, 2) float64: the centre ``(x, y)`` of every cell in flat
        order, for cells of ``size`` drawing units, y growing downwards."""
        ...

    def corners(self, size: float = 1.0) -> np.ndarray:
        """(k, 2) float64: the corners of a cell of ``size`` units around its centre."""
        ...

    def extent(self, size: float = 1.0) -> tuple[float, float]:
        """The width and height of the box around the board's cells, for
        cells of ``size`` drawing units (what a picture is fitted to)."""
        ...

    def puzzle(
        self, cells: np.ndarray, palette: Palette | Any = None, *, meta: Mapping[str, str] | None = None
    ) -> BoardPuzzle:
        """The puzzle whose clues a filling of this board gives (checked;
        :meth:`rofl.Puzzle.from_grid`, :meth:`rofl.hexagon.HexPuzzle.from_cells`)."""
        ...


@runtime_checkable
class BoardPuzzle(Protocol):
    """What every puzzle offers over its :class:`Board` (:class:`rofl.Puzzle`,
    :class:`rofl.hexagon.HexPuzzle`)."""

    @property
    def board(self) -> Board: ...

    @property
    def palette(self) -> Palette: ...

    @property
    def meta(self) -> Mapping[str, str]: ...

    @property
    def n_cells(self) -> int: ...

    @property
    def n_lines(self) -> int: ...

    @property
    def n_colors(self) -> int: ...

    @property
    def has_color_sets(self) -> bool: ...

    def clue(self, line: int) -> tuple[tuple[Any, Any], ...]: ...

    def line_name(self, line: int) -> str: ...

    def unmet_line(self, grid: np.ndarray) -> int | None: ...

    def is_solution(self, grid: np.ndarray) -> bool: ...
