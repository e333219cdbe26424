"""Palette and Puzzle: the frozen description of a nonogram.

A puzzle never changes once built; solving states live elsewhere
(:mod:`rofl.solver`).  Clues are stored flat, the way the solver reads them:

* ``lengths`` and ``colors``: one entry per group, rows first (top to
  bottom) then columns (left to right);
* ``offsets``: ``H + W + 1`` indices, groups of line ``i`` are
  ``offsets[i]:offsets[i + 1]``.  Line ``i < H`` is row ``i``, line
  ``H + j`` is column ``j``.

Colour rules: index 0 of the palette is the background; every group has a
colour ``>= 1``; neighbouring groups of different colours may touch, groups
of the same colour need at least one background cell between them.

Messages number rows and columns from 1 (top, left), as people read them.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

import numpy as np

from rofl.errors import PuzzleError

#: The most colours (background included) a puzzle may have: the solver keeps
#: one bit per colour in a 64-bit mask per cell.
MAX_COLORS = 64

#: The most rows or columns a puzzle may have: the ROFL format's limit, far
#: beyond any puzzle a person solves, and it keeps a hostile file from
#: asking for millions of lines.
MAX_SIDE = 65535

# Bound on lengths and colours read from input: small enough for the
# int32/int64 arrays (a too-long clue is then refused with its line named).
_BIG = 2**31

RGB = tuple[int, int, int]
Group = tuple[int, int]

# bare hex digits: read as "#..." (rofl has always accepted "ff0000"; Pillow does not)
_BARE_HEX = re.compile(r"[0-9a-fA-F]{3}|[0-9a-fA-F]{6}")


def parse_color(value: Any, where: str = "colour", *, error: type[Exception] = PuzzleError) -> RGB:
    """A colour as an ``(r, g, b)`` triple of 0-255 integers.

    rofl's one reader of colour strings: a palette, ``--background`` and
    ``--palette`` options, and pixel art's background all go through it.

    Parameters
    ----------
    value : str or sequence of 3 integers
        A string :func:`PIL.ImageColor.getrgb` reads (``#rgb``, ``#rrggbb``,
        a CSS colour name, ``rgb(...)``, ``hsl(...)``, ``hsv(...)``; case and
        surrounding spaces ignored) or 3 or 6 hex digits without ``#``; or
        an ``(r, g, b)`` triple.  A form with alpha (``#rgba``,
        ``#rrggbbaa``, ``rgba(...)``) is accepted only when fully opaque:
        puzzle colours have no transparency, and dropping a partial alpha
        would silently give another colour than the one asked for.
    where : str
        What the value is, for the message (``"background"``, ``"palette colour 2"``).
    error : exception class
        Raised for a value that is not a colour: :class:`PuzzleError` for a
        puzzle's palette, :class:`rofl.errors.OptionError` for an option.

    Raises
    ------
    error
        One line naming ``where`` and the value.
    """
    if isinstance(value, str):
        text = value.strip()
        if _BARE_HEX.fullmatch(text):
            text = "#" + text
        from PIL import ImageColor  # here, not at the top: the model imports no Pillow until a string comes

        try:
            rgb = ImageColor.getrgb(text)
        except ValueError:
            msg = f"{where}: {value!r} is not a colour (#rrggbb, #rgb or a CSS colour name)"
            raise error(msg) from None
        if len(rgb) == 4 and rgb[3] != 255:
            msg = f"{where}: {value!r} is partly transparent (alpha {rgb[3]}); puzzle colours are opaque"
            raise error(msg)
        r, g, b = rgb[:3]
    else:
        try:
            r, g, b = (int(c) for c in value)
        except (TypeError, ValueError, OverflowError):
            msg = f"{where}: {value!r} is not a colour (three integers 0-255)"
            raise error(msg) from None
    if not all(0 <= c <= 255 for c in (r, g, b)):  # also rgb(300, 0, 0), which Pillow passes through
        msg = f"{where}: {value!r} has a component outside 0-255"
        raise error(msg)
    return (r, g, b)


class Palette:
    """The colours of a puzzle; index 0 is the background.

    Parameters
    ----------
    colors : sequence of ``(r, g, b)`` tuples or colour strings
        (``"#rrggbb"``, ``"#rgb"``, CSS names...: see :func:`parse_color`).
        At least one and at most :data:`MAX_COLORS` colours.

    Raises
    ------
    PuzzleError
        Empty, too many colours, or a colour that is not one.
    """

    __slots__ = ("_colors",)

    def __init__(self, colors: Iterable[RGB | str | Sequence[int]]) -> None:
        parsed = tuple(parse_color(c, f"palette colour {i}") for i, c in enumerate(colors))
        if not parsed:
            msg = "the palette is empty: it needs at least the background colour"
            raise PuzzleError(msg)
        if len(parsed) > MAX_COLORS:
            msg = f"the palette has {len(parsed)} colours; rofl supports at most {MAX_COLORS}"
            raise PuzzleError(msg)
        self._colors = parsed

    @classmethod
    def black_white(cls) -> Palette:
        """White background, black ink."""
        return cls([(255, 255, 255), (0, 0, 0)])

    @classmethod
    def from_array(cls, array: np.ndarray) -> Palette:
        """Build from an ``(N, 3)`` array of 0-255 values."""
        return cls([tuple(int(v) for v in row) for row in np.asarray(array).reshape(-1, 3)])

    @property
    def colors(self) -> tuple[RGB, ...]:
        return self._colors

    def to_array(self) -> np.ndarray:
        """The colours as an ``(N, 3)`` uint8 array."""
        return np.array(self._colors, dtype=np.uint8).reshape(-1, 3)

    def hex(self) -> list[str]:
        """The colours as ``"#rrggbb"`` strings."""
        return ["#{:02x}{:02x}{:02x}".format(*c) for c in self._colors]

    def __len__(self) -> int:
        return len(self._colors)

    def __iter__(self):
        return iter(self._colors)

    def __getitem__(self, index: int) -> RGB:
        return self._colors[index]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Palette) and self._colors == other._colors

    def __hash__(self) -> int:
        return hash(self._colors)

    def __repr__(self) -> str:
        return f"Palette({self.hex()!r})"


def _line_name(line: int, height: int) -> str:
    return f"row {line + 1}" if line < height else f"column {line - height + 1}"


class Puzzle:
    """A nonogram: size, palette and the clues of every row and column.

    Frozen, hashable and validated when built.

    Parameters
    ----------
    width, height : int
        Size in cells, both ``>= 1``.
    palette : Palette or sequence of colours
        Index 0 is the background.
    rows, cols : sequence of sequences of ``(length, colour)``
        ``height`` row clues (top to bottom) and ``width`` column clues (left
        to right).  An empty line has an empty clue.
    meta : mapping of str to str, optional
        Free-form metadata (title, author, licence...).  Not part of
        equality or hashing.

    Raises
    ------
    PuzzleError
        With a message naming the line: a clue that cannot fit its line, a
        colour outside the palette, a group shorter than 1, per-colour cell
        totals of rows and columns that differ, a zero size.
    """

    __slots__ = ("width", "height", "palette", "lengths", "colors", "offsets", "meta", "_hash", "_lines", "_packed")

    width: int
    height: int
    palette: Palette
    lengths: np.ndarray
    colors: np.ndarray
    offsets: np.ndarray
    meta: Mapping[str, str]

    def __init__(
        self,
        width: int,
        height: int,
        palette: Palette | Iterable[Any],
        rows: Sequence[Sequence[Sequence[int]]],
        cols: Sequence[Sequence[Sequence[int]]],
        *,
        meta: Mapping[str, str] | None = None,
    ) -> None:
        width, height = _check_size(width, height)
        if len(rows) != height:
            msg = f"{len(rows)} row clues for a puzzle {height} rows high"
            raise PuzzleError(msg)
        if len(cols) != width:
            msg = f"{len(cols)} column clues for a puzzle {width} columns wide"
            raise PuzzleError(msg)
        lengths: list[int] = []
        colors: list[int] = []
        offsets = [0]
        for line, clue in enumerate([*rows, *cols]):
            for index, group in enumerate(clue):
                # operator.index: 1.5 or "2" is not a length (int() would truncate or parse it)
                try:
                    length, color = (operator.index(v) for v in group)
                except (TypeError, ValueError):
                    msg = (
                        f"{_line_name(line, height)}, group {index + 1}: {group!r} is not a (length, colour) pair"
                    )
                    raise PuzzleError(msg) from None
                if not (-_BIG < length < _BIG and -_BIG < color < _BIG):
                    # beyond any line and any palette, and beyond what the arrays hold
                    msg = f"{_line_name(line, height)}, group {index + 1}: {group!r} is out of range"
                    raise PuzzleError(msg)
                lengths.append(length)
                colors.append(color)
            offsets.append(len(lengths))
        self._init_arrays(
            width,
            height,
            palette,
            np.array(lengths, dtype=np.int64),
            np.array(colors, dtype=np.int64),
            np.array(offsets, dtype=np.int64),
            meta,
        )

    @classmethod
    def from_arrays(
        cls,
        width: int,
        height: int,
        palette: Palette | Iterable[Any],
        lengths: np.ndarray,
        colors: np.ndarray,
        offsets: np.ndarray,
        *,
        meta: Mapping[str, str] | None = None,
    ) -> Puzzle:
        """Build from the flat clue arrays (see the module docstring); validates like ``__init__``."""
        self = cls.__new__(cls)
        width, height = _check_size(width, height)
        offsets = np.asarray(offsets, dtype=np.int64)
        if offsets.shape != (width + height + 1,) or offsets[0] != 0 or np.any(np.diff(offsets) < 0):
            msg = f"offsets must be {width + height + 1} non-decreasing indices starting at 0"
            raise PuzzleError(msg)
        lengths = np.asarray(lengths, dtype=np.int64)
        colors = np.asarray(colors, dtype=np.int64)
        if lengths.shape != colors.shape or lengths.shape != (offsets[-1],):
            msg = f"lengths and colours must both hold {offsets[-1]} groups"
            raise PuzzleError(msg)
        self._init_arrays(width, height, palette, lengths, colors, offsets, meta)
        return self

    def _init_arrays(self, width, height, palette, lengths, colors, offsets, meta) -> None:
        palette = palette if isinstance(palette, Palette) else Palette(palette)
        n_lines = width + height
        line_of_group = np.repeat(np.arange(n_lines), np.diff(offsets))
        index_in_line = np.arange(len(lengths)) - offsets[line_of_group]

        def where(g: int) -> str:
            return f"{_line_name(int(line_of_group[g]), height)}, group {int(index_in_line[g]) + 1}"

        bad = np.flatnonzero(lengths < 1)
        if bad.size:
            g = bad[0]
            msg = f"{where(g)}: length {lengths[g]} (every group needs at least 1 cell)"
            raise PuzzleError(msg)
        bad = np.flatnonzero((colors < 1) | (colors >= len(palette)))
        if bad.size:
            g = bad[0]
            if colors[g] == 0:
                msg = f"{where(g)}: colour 0 is the background and cannot form a group"
            else:
                msg = (
                    f"{where(g)}: colour {colors[g]} is outside the palette "
                    f"({len(palette)} colours, 0-{len(palette) - 1})"
                )
            raise PuzzleError(msg)
        per_line, capacity = cells_needed(width, height, lengths, colors, line_of_group)
        bad = np.flatnonzero(per_line > capacity)
        if bad.size:
            line = int(bad[0])
            kind = "row" if line < height else "column"
            msg = (
                f"{_line_name(line, height)}: clue needs {per_line[line]} cells "
                f"but the {kind} has {capacity[line]}"
            )
            raise PuzzleError(msg)
        is_row = line_of_group < height
        k = len(palette)
        by_rows = np.bincount(colors[is_row], weights=lengths[is_row], minlength=k).astype(np.int64)
        by_cols = np.bincount(colors[~is_row], weights=lengths[~is_row], minlength=k).astype(np.int64)
        bad = np.flatnonzero(by_rows != by_cols)
        if bad.size:
            c = int(bad[0])
            msg = f"colour {c}: the rows hold {by_rows[c]} cells but the columns hold {by_cols[c]}"
            raise PuzzleError(msg)

        for name, value in (
            ("width", width),
            ("height", height),
            ("palette", palette),
            ("lengths", _frozen(lengths, np.int32)),
            ("colors", _frozen(colors, np.uint8)),
            ("offsets", _frozen(offsets, np.int64)),
            ("meta", MappingProxyType(_clean_meta(meta))),
            ("_hash", None),
            ("_lines", None),
            ("_packed", None),
        ):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        msg = "Puzzle is immutable"
        raise AttributeError(msg)

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
        palette = palette if isinstance(palette, Palette) else Palette(palette)
        grid = np.asarray(grid)
        if grid.ndim != 2:
            msg = f"a grid must be two-dimensional, not of shape {grid.shape}"
            raise PuzzleError(msg)
        height, width = grid.shape
        _check_size(width, height)
        if not np.issubdtype(grid.dtype, np.integer):
            msg = f"a grid must hold integer palette indices, not {grid.dtype}"
            raise PuzzleError(msg)
        bad = np.argwhere((grid < 0) | (grid >= len(palette)))
        if bad.size:
            r, c = bad[0]
            msg = (
                f"row {r + 1}, column {c + 1}: value {grid[r, c]} is outside the palette "
                f"({len(palette)} colours)"
            )
            raise PuzzleError(msg)
        grid = grid.astype(np.int64)
        row_len, row_col, row_count = _runs(grid)
        col_len, col_col, col_count = _runs(np.ascontiguousarray(grid.T))
        offsets = np.zeros(width + height + 1, dtype=np.int64)
        np.cumsum(np.concatenate([row_count, col_count]), out=offsets[1:])
        return cls.from_arrays(
            width,
            height,
            palette,
            np.concatenate([row_len, col_len]),
            np.concatenate([row_col, col_col]),
            offsets,
            meta=meta,
        )

    # ----------------------------------------------------------------- access

    @property
    def n_colors(self) -> int:
        """Number of palette colours, background included."""
        return len(self.palette)

    @property
    def n_lines(self) -> int:
        return self.width + self.height

    @property
    def n_groups(self) -> int:
        return len(self.lengths)

    def clue(self, line: int) -> tuple[Group, ...]:
        """Groups of line ``line`` (rows ``0..H-1``, then columns)."""
        return self._all_lines()[line]

    @property
    def rows(self) -> tuple[tuple[Group, ...], ...]:
        """Row clues, top to bottom, as ``(length, colour)`` tuples."""
        return self._all_lines()[: self.height]

    @property
    def cols(self) -> tuple[tuple[Group, ...], ...]:
        """Column clues, left to right, as ``(length, colour)`` tuples."""
        return self._all_lines()[self.height :]

    def _all_lines(self) -> tuple[tuple[Group, ...], ...]:
        if self._lines is None:
            pairs = list(zip(self.lengths.tolist(), self.colors.tolist(), strict=True))
            offs = self.offsets.tolist()
            lines = tuple(tuple(pairs[offs[i] : offs[i + 1]]) for i in range(self.n_lines))
            object.__setattr__(self, "_lines", lines)
        return self._lines  # type: ignore[return-value]

    @property
    def packed(self) -> PackedClues:
        """The clues in the solver's types (:class:`PackedClues`), made on
        first use and kept: the puzzle is frozen, so they never go stale."""
        if self._packed is None:
            packed = PackedClues(
                self.lengths.astype(np.int64), self.colors.astype(np.int64), self.offsets.astype(np.int64)
            )
            object.__setattr__(self, "_packed", packed)
        return self._packed  # type: ignore[return-value]

    def line_name(self, line: int) -> str:
        """``"row 3"`` or ``"column 5"`` for line index ``line`` (1-based in the text)."""
        return _line_name(line, self.height)

    def unmet_line(self, grid: np.ndarray) -> int | None:
        """The first line (rows, then columns) whose clue ``grid`` does not
        give, or None when it gives every clue.

        ``grid`` is an ``(H, W)`` array of palette indices of this puzzle's
        shape; a value outside the palette raises :class:`PuzzleError`.
        """
        derived = Puzzle.from_grid(grid, self.palette)
        if derived == self:
            return None
        return next(i for i in range(self.n_lines) if derived.clue(i) != self.clue(i))

    def is_solution(self, grid: np.ndarray) -> bool:
        """Whether ``grid`` (an ``(H, W)`` array of palette indices) satisfies every clue."""
        grid = np.asarray(grid)
        if grid.shape != (self.height, self.width):
            return False
        try:
            return Puzzle.from_grid(grid, self.palette) == self
        except PuzzleError:
            return False

    # ------------------------------------------------------------ value object

    def _key(self) -> tuple:
        return (
            self.width,
            self.height,
            self.palette,
            self.lengths.tobytes(),
            self.colors.tobytes(),
            self.offsets.tobytes(),
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Puzzle):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        if self._hash is None:
            object.__setattr__(self, "_hash", hash(self._key()))
        return self._hash  # type: ignore[return-value]

    def __repr__(self) -> str:
        if self.n_groups <= 60:
            rows = [list(line) for line in self.rows]
            cols = [list(line) for line in self.cols]
            return f"Puzzle({self.width}, {self.height}, {self.palette!r}, rows={rows!r}, cols={cols!r})"
        return f"<Puzzle {self.width}x{self.height}, {self.n_colors} colours, {self.n_groups} groups>"

    def __reduce__(self):
        state = (self.width, self.height, self.palette.colors, self.lengths, self.colors, self.offsets, dict(self.meta))
        return (_rebuild, state)

    def _repr_svg_(self) -> str:
        """The puzzle's sheet as SVG, which notebooks show (the renderer loads on first use)."""
        from rofl.render.svg import puzzle_svg

        return puzzle_svg(self)


class PackedClues:
    """Clues in the solver kernels' types: flat int64 arrays, rows first.

    Line ``i``'s groups are ``lens[offs[i]:offs[i + 1]]`` (lengths) and
    ``cols[...]`` (colours); ``kmax`` is the most groups of any line.  The
    arrays are not checked here (a :class:`Puzzle` checks its clues; the
    refinement derives them from grids) and must never be changed: they
    stay writable only because the compiled kernels take one array type.

    ``extras`` is for what the solver derives from the clues on first use
    (their hashes), so that it is derived once per set of clues; it is not
    part of the value.
    """

    __slots__ = ("lens", "cols", "offs", "kmax", "extras")

    def __init__(self, lens: np.ndarray, cols: np.ndarray, offs: np.ndarray) -> None:
        self.lens = lens
        self.cols = cols
        self.offs = offs
        counts = np.diff(offs)
        self.kmax = int(counts.max()) if counts.size else 0
        self.extras: dict[str, Any] = {}

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PackedClues):
            return NotImplemented
        return all(np.array_equal(a, b) for a, b in zip(self._arrays(), other._arrays(), strict=True))

    __hash__ = None  # type: ignore[assignment]  # mutable arrays: compared, never hashed

    def _arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return self.lens, self.cols, self.offs

    def __repr__(self) -> str:
        return f"<PackedClues {len(self.offs) - 1} lines, {len(self.lens)} groups>"


def cells_needed(
    width: int, height: int, lengths: np.ndarray, colors: np.ndarray, line_of_group: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Cells every line's clue needs, and the cells it has.

    A clue needs its groups plus one background cell between neighbours of
    the same colour.  ``line_of_group`` gives each group's line (rows first).
    Returns two ``(H + W,)`` int64 arrays: needed and available.
    """
    n_lines = width + height
    same = np.zeros(len(lengths), dtype=np.int64)
    if len(lengths) > 1:
        same[1:] = (colors[1:] == colors[:-1]) & (line_of_group[1:] == line_of_group[:-1])
    needed = np.bincount(line_of_group, weights=lengths + same, minlength=n_lines).astype(np.int64)
    capacity = np.concatenate([np.full(height, width), np.full(width, height)]).astype(np.int64)
    return needed, capacity


_SURROGATE = re.compile("[\ud800-\udfff]")


def _clean_meta(meta: Mapping[str, str] | None) -> dict[str, str]:
    """``meta`` with every lone surrogate replaced by U+FFFD.

    Metadata comes from files (a JSON title ``"\\ud800"``), command-line
    arguments and file names that are not UTF-8 (Python keeps their bytes
    as surrogates); no encoder can write a surrogate, so this boundary
    replaces them once, as a UTF-8 decoder replaces undecodable bytes.
    """
    return {_no_surrogates(k): _no_surrogates(v) for k, v in (meta or {}).items()}


def _no_surrogates(value):
    return _SURROGATE.sub("\ufffd", value) if isinstance(value, str) else value


def _rebuild(width, height, palette, lengths, colors, offsets, meta) -> Puzzle:
    return Puzzle.from_arrays(width, height, Palette(palette), lengths, colors, offsets, meta=meta)


def _check_size(width: Any, height: Any) -> tuple[int, int]:
    try:
        width, height = operator.index(width), operator.index(height)
    except TypeError:
        msg = f"size {width!r}x{height!r} is not two integers"
        raise PuzzleError(msg) from None
    if width < 1 or height < 1:
        msg = f"size {width}x{height}: a puzzle needs at least one row and one column"
        raise PuzzleError(msg)
    if width > MAX_SIDE or height > MAX_SIDE:
        msg = f"size {width}x{height} is too large (at most {MAX_SIDE} cells a side)"
        raise PuzzleError(msg)
    return width, height


def _frozen(array: np.ndarray, dtype) -> np.ndarray:
    out = np.ascontiguousarray(array, dtype=dtype)
    if out is array:
        out = out.copy()
    out.flags.writeable = False
    return out


def _runs(grid: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Run-length groups of every row of ``grid`` (vectorised).

    Returns the lengths and colours of all non-background runs in row-major
    order, and the number of runs per row.
    """
    h, w = grid.shape
    padded = np.full((h, w + 2), -1, dtype=np.int64)
    padded[:, 1:-1] = grid
    inner = padded[:, 1:-1]
    starts = (inner != 0) & (inner != padded[:, :-2])
    ends = (inner != 0) & (inner != padded[:, 2:])
    sr, sc = np.nonzero(starts)
    _, ec = np.nonzero(ends)
    lengths = ec - sc + 1
    colors = grid[sr, sc]
    counts = np.bincount(sr, minlength=h)
    return lengths, colors, counts
