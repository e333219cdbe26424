"""The shared base of puzzles of every shape: :class:`LinePuzzle`, a frozen
set of clues over the lines of a board (:mod:`rofl.board`).

:class:`rofl.Puzzle` (rectangles) and :class:`rofl.hexagon.HexPuzzle`
build on it: it stores the clues flat, answers for them line by line, turns
groups to ``?``, compares, hashes, pickles and shows itself in notebooks;
each shape adds its board, its constructors and its ``repr``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from os import PathLike
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Self

import numpy as np

from rofl.board import Frozen
from rofl.errors import PuzzleError
from rofl.palette import Palette, as_palette
from rofl.validate import ANY_COLOR, Group, check_arrays, normalise_sets, validate

if TYPE_CHECKING:  # pragma: no cover
    from rofl.board import Board


#: The drawing a notebook shows for a puzzle, ``{"svg": draw}`` with ``draw(puzzle) -> str``. The
#: renderer sits layers above the model, so the model does not import it: ``import rofl`` fills this
#: slot as soon as this module loads (``rofl._show_puzzles_in_notebooks``), and the renderer itself is
#: imported only when a notebook first shows a puzzle.
SVG_DISPLAY: dict[str, Callable[[Any], str]] = {}


class LinePuzzle(Frozen):
    """What puzzles of every shape share: a frozen set of clues over lines.

    Clues are stored flat (``lengths``, ``colors``, ``offsets``: line ``i``
    owns groups ``offsets[i]:offsets[i + 1]``).  A group whose colour is a
    set of several colours (``"?"`` is the set of every foreground colour)
    has colour 0 in ``colors`` and its bit mask in ``color_sets`` (bit ``c``:
    colour ``c`` allowed); ``color_sets`` is None when every group has one
    colour, which keeps the plain case exactly as it was.
    """

    __slots__ = ("board", "palette", "lengths", "colors", "color_sets", "offsets", "meta", "_hash", "_lines")

    board: Board
    palette: Palette
    lengths: np.ndarray
    colors: np.ndarray
    color_sets: np.ndarray | None
    offsets: np.ndarray
    meta: Mapping[str, str]

    @classmethod
    def from_board_arrays(
        cls,
        board: Board,
        palette: Palette | Iterable[Any],
        lengths: np.ndarray,
        colors: np.ndarray,
        offsets: np.ndarray,
        *,
        color_sets: np.ndarray | None = None,
        meta: Mapping[str, str] | None = None,
    ) -> Self:
        """Build from the flat clue arrays over ``board``'s lines (line ``i``
        owns groups ``offsets[i]:offsets[i + 1]``); validates like the
        class's ``__init__``.  ``board`` must be the class's shape.

        ``color_sets`` (bit masks, one per group) gives the colours of the
        groups whose ``colors`` entry is 0; other entries are not read.
        """
        self = cls.__new__(cls)
        lengths, colors, offsets, color_sets = check_arrays(board.n_lines, lengths, colors, offsets, color_sets)
        self._init_arrays(board, palette, lengths, colors, offsets, meta, color_sets)
        return self

    def _init_arrays(self, board: Board, palette, lengths, colors, offsets, meta, color_sets) -> None:
        """Set checked flat clues over ``board`` (each shape adds its own fields)."""
        raise NotImplementedError

    def _init_board(
        self, board: Board, fields: dict[str, Any], palette, lengths, colors, offsets, color_sets, meta
    ) -> None:
        """Check the flat clues over ``board`` (:func:`rofl.validate.validate`)
        and set them, with the shape's own ``fields``, on this new puzzle."""
        palette = as_palette(palette)
        if color_sets is not None:
            colors = colors.copy()

            def where(g: int) -> str:
                line = int(np.searchsorted(offsets, g, side="right") - 1)
                return f"{board.line_name(line)}, group {g - int(offsets[line]) + 1}"

            color_sets = normalise_sets(palette, colors, color_sets, where)
        validate(
            lengths,
            colors,
            offsets,
            color_sets,
            palette,
            np.diff(board.line_offsets),
            board.line_directions,
            board.line_name,
            lambda line: board.directions[board.direction(line)][0],
            [plural for _, plural in board.directions],
        )
        for name, value in (
            *fields.items(),
            ("board", board),
            ("palette", palette),
            ("lengths", frozen(lengths, np.int32)),
            ("colors", frozen(colors, np.uint8)),
            ("color_sets", None if color_sets is None else frozen(color_sets, np.uint64)),
            ("offsets", frozen(offsets, np.int64)),
            ("meta", MappingProxyType(clean_meta(meta))),
            ("_hash", None),
            ("_lines", None),
        ):
            object.__setattr__(self, name, value)

    # ----------------------------------------------------------------- access

    @property
    def n_cells(self) -> int:
        """How many cells the board has."""
        return self.board.n_cells

    @property
    def n_colors(self) -> int:
        """Number of palette colours, background included."""
        return len(self.palette)

    @property
    def n_lines(self) -> int:
        """How many lines the board has (each has a clue)."""
        return self.board.n_lines

    @property
    def n_groups(self) -> int:
        return len(self.lengths)

    @property
    def has_color_sets(self) -> bool:
        """Whether a group's colour is a set of several colours (``?`` clues)."""
        return self.color_sets is not None

    def clue(self, line: int) -> tuple[Group, ...]:
        """Groups of line ``line`` as ``(length, colour)`` tuples; the colour
        of a group with a colour set is a ``frozenset`` of indices."""
        return self._all_lines()[line]

    def _all_lines(self) -> tuple[tuple[Group, ...], ...]:
        if self._lines is None:
            colours: list[Any] = self.colors.tolist()
            if self.color_sets is not None:
                for g in np.flatnonzero(self.color_sets).tolist():
                    mask = int(self.color_sets[g])
                    colours[g] = frozenset(c for c in range(64) if mask >> c & 1)
            pairs = list(zip(self.lengths.tolist(), colours, strict=True))
            offs = self.offsets.tolist()
            lines = tuple(tuple(pairs[offs[i] : offs[i + 1]]) for i in range(self.n_lines))
            object.__setattr__(self, "_lines", lines)
        return self._lines  # type: ignore[return-value]

    def _first_unmet(self, derived: LinePuzzle) -> int | None:
        """The first line whose clue the exact clues ``derived`` (of a
        filling of the same board) do not give, or None."""
        if derived == self:
            return None
        if self.color_sets is None:
            return next(i for i in range(self.n_lines) if derived.clue(i) != self.clue(i))
        # Line by line: as many groups, of the same lengths, each colour in its set.
        counts = np.diff(self.offsets)
        line_of = np.repeat(np.arange(self.n_lines), counts)
        fits = np.diff(derived.offsets) == counts
        mine = np.flatnonzero(fits[line_of])  # groups of lines with as many groups
        theirs = derived.offsets[line_of[mine]] + (mine - self.offsets[line_of[mine]])
        allowed = np.where(
            self.color_sets != 0, self.color_sets, np.left_shift(np.uint64(1), self.colors.astype(np.uint64))
        )[mine]
        colour_bit = np.left_shift(np.uint64(1), derived.colors[theirs].astype(np.uint64))
        good = (derived.lengths[theirs] == self.lengths[mine]) & ((allowed & colour_bit) != 0)
        fits[line_of[mine[~good]]] = False
        bad = np.flatnonzero(~fits)
        return int(bad[0]) if bad.size else None

    def with_unknown_colors(self, which: Sequence[bool] | np.ndarray):
        """This puzzle with the colours of the groups flagged in ``which``
        (one bool per group, in the order of ``lengths``) turned to ``?``:
        any ink colour.  A puzzle of the same class and shape.

        Raises
        ------
        PuzzleError
            ``which`` is not one flag per group, or flags a group of a
            puzzle with one ink colour, where ``?`` says nothing.
        """
        which = np.asarray(which, dtype=bool)
        if which.shape != self.lengths.shape:
            msg = f"{which.shape} flags for a puzzle of {self.n_groups} groups"
            raise PuzzleError(msg)
        if which.any() and self.n_colors <= 2:
            msg = f"{ANY_COLOR!r} means any ink colour, but the puzzle has only one"
            raise PuzzleError(msg)
        sets = np.zeros(self.n_groups, dtype=np.uint64) if self.color_sets is None else self.color_sets.copy()
        sets[which] = (1 << self.n_colors) - 2
        colors = self.colors.astype(np.int64)
        colors[which] = 0
        return type(self).from_arrays(
            *self._shape_args(),
            self.palette,
            self.lengths,
            colors,
            self.offsets,
            color_sets=sets if sets.any() else None,
            meta=self.meta,
        )

    # ------------------------------------------------------------ value object

    def _shape_key(self) -> tuple:
        raise NotImplementedError

    def _shape_args(self) -> tuple:
        """The size arguments of the class's ``from_arrays``."""
        raise NotImplementedError

    def _key(self) -> tuple:
        return (
            self._shape_key(),
            self.palette,
            self.lengths.tobytes(),
            self.colors.tobytes(),
            self.offsets.tobytes(),
            b"" if self.color_sets is None else self.color_sets.tobytes(),
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LinePuzzle):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        if self._hash is None:
            object.__setattr__(self, "_hash", hash(self._key()))
        return self._hash  # type: ignore[return-value]

    # ------------------------------------------------- pickling and notebooks

    def __reduce__(self):
        state = (
            type(self),
            self._shape_args(),
            self.palette.colors,
            self.lengths,
            self.colors,
            self.offsets,
            dict(self.meta),
            self.color_sets,
        )
        return (_rebuild, state)

    def _repr_svg_(self) -> str | None:
        """The puzzle's sheet as SVG, which notebooks show (None: no renderer set, see :data:`SVG_DISPLAY`)."""
        draw = SVG_DISPLAY.get("svg")
        return None if draw is None else draw(self)


def expect_puzzle(value: Any, who: str) -> None:
    """Refuse ``value`` unless it is a puzzle (:class:`LinePuzzle`): one
    clear TypeError naming what ``who`` takes, instead of an AttributeError
    from deep inside when a caller passes a path or a grid."""
    if not isinstance(value, LinePuzzle):
        hint = ""
        if isinstance(value, str | PathLike):
            hint = " (open a file with rofl.open_puzzle(path).puzzle)"
        elif isinstance(value, np.ndarray):
            hint = " (a picture's puzzle: rofl.Puzzle.from_grid(grid))"
        msg = f"{who} takes a Puzzle or HexPuzzle, not {type(value).__name__}{hint}"
        raise TypeError(msg)


def _rebuild(cls, shape_args, palette, lengths, colors, offsets, meta, color_sets) -> LinePuzzle:
    """A pickled puzzle of class ``cls`` again (``shape_args``: its ``from_arrays``'s size arguments)."""
    return cls.from_arrays(*shape_args, Palette(palette), lengths, colors, offsets, color_sets=color_sets, meta=meta)


_SURROGATE = re.compile("[\ud800-\udfff]")


def clean_meta(meta: Mapping[str, str] | None) -> dict[str, str]:
    """``meta`` with every lone surrogate replaced by U+FFFD.

    Metadata comes from files (a JSON title ``"\\ud800"``), command-line
    arguments and file names that are not UTF-8 (Python keeps their bytes
    as surrogates); no encoder can write a surrogate, so this boundary
    replaces them once, as a UTF-8 decoder replaces undecodable bytes.
    """
    return {_no_surrogates(k): _no_surrogates(v) for k, v in (meta or {}).items()}


def _no_surrogates(value):
    return _SURROGATE.sub("\ufffd", value) if isinstance(value, str) else value


def frozen(array: np.ndarray, dtype) -> np.ndarray:
    out = np.ascontiguousarray(array, dtype=dtype)
    if out is array:
        out = out.copy()
    out.flags.writeable = False
    return out
