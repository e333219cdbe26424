"""Palette and Puzzle: the frozen description of a nonogram.

A puzzle never changes once built; solving states live elsewhere
(:mod:`rofl.solver`).  :class:`Puzzle` is rectangular; the hexagonal
:class:`~rofl.hexagon.HexPuzzle` (:mod:`rofl.hexagon`) shares the clue
storage, the validation and the colour rules below through
``_LinePuzzle``.  Clues are stored
flat, the way the solver reads them (for a rectangle):

* ``lengths`` and ``colors``: one entry per group, rows first (top to
  bottom) then columns (left to right);
* ``offsets``: ``H + W + 1`` indices, groups of line ``i`` are
  ``offsets[i]:offsets[i + 1]``.  Line ``i < H`` is row ``i``, line
  ``H + j`` is column ``j``.

Colour rules: index 0 of the palette is the background; every group has a
colour ``>= 1``; neighbouring groups of different colours may touch, groups
of the same colour need at least one background cell between them.  A
group's colour may be a set of colours (``"?"``: any ink colour): it then
has colour 0 in ``colors`` and its bit mask in ``color_sets``, and the same
rule applies to the colour it takes.

Messages number rows and columns from 1 (top, left), as people read them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

import numpy as np

from rofl._checks import whole as _integer
from rofl.errors import PuzzleError, shown

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
            msg = f"{where}: {shown(value)} is not a colour (#rrggbb, #rgb or a CSS colour name)"
            raise error(msg) from None
        if len(rgb) == 4 and rgb[3] != 255:
            msg = f"{where}: {shown(value)} is partly transparent (alpha {rgb[3]}); puzzle colours are opaque"
            raise error(msg)
        r, g, b = rgb[:3]
    else:
        try:
            r, g, b = (_integer(c) for c in value)
        except (TypeError, ValueError):
            msg = f"{where}: {shown(value)} is not a colour (three integers 0-255)"
            raise error(msg) from None
    if not all(0 <= c <= 255 for c in (r, g, b)):  # also rgb(300, 0, 0), which Pillow passes through
        msg = f"{where}: {shown(value)} has a component outside 0-255"
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


#: How a group whose colour is any foreground colour is written (and may be given).
ANY_COLOR = "?"


def _as_palette(palette: Palette | Iterable[Any]) -> Palette:
    return palette if isinstance(palette, Palette) else Palette(palette)


def _color_set(value: Any, n_colors: int, where: str) -> int:
    """The bit mask of a group colour given as ``"?"`` or a collection of
    colour indices (bit ``c``: colour ``c`` allowed)."""
    if isinstance(value, str):
        if value.strip() != ANY_COLOR:
            msg = f"{where}: colour {shown(value)} is not a palette index, a set of them or {ANY_COLOR!r}"
            raise PuzzleError(msg)
        if n_colors <= 2:
            msg = f"{where}: {ANY_COLOR!r} means any ink colour, but the puzzle has only one; give colour 1"
            raise PuzzleError(msg)
        return (1 << n_colors) - 2
    try:
        members = [_integer(c) for c in value]
    except TypeError:
        msg = f"{where}: colour {shown(value)} is not a palette index, a set of them or {ANY_COLOR!r}"
        raise PuzzleError(msg) from None
    if not members:
        msg = f"{where}: an empty set of colours allows no colour at all"
        raise PuzzleError(msg)
    mask = 0
    for c in members:
        if c == 0:
            msg = f"{where}: colour 0 is the background and cannot form a group"
            raise PuzzleError(msg)
        if not 0 < c < n_colors:
            msg = f"{where}: colour {c} is outside the palette ({n_colors} colours, 0-{n_colors - 1})"
            raise PuzzleError(msg)
        mask |= 1 << c
    return mask


def _parse_lines(
    lines: Sequence[Sequence[Any]], palette: Palette, name
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]:
    """Flat ``lengths``, ``colors``, ``offsets`` and colour sets (or None) of
    the clues ``lines``; ``name(line)`` names a line in messages.

    A group is ``(length, colour)``; the colour is a palette index, ``"?"``
    (any foreground colour) or a collection of indices.  A set of one colour
    is that colour, so that equal puzzles compare equal.
    """
    lengths: list[int] = []
    colors: list[int] = []
    sets: dict[int, int] = {}
    offsets = [0]
    for line, clue in enumerate(lines):
        for index, group in enumerate(clue):
            where = f"{name(line)}, group {index + 1}"
            # operator.index: 1.5 or "2" is not a length (int() would truncate or parse it)
            try:
                length_value, color_value = group
                length = _integer(length_value)
            except (TypeError, ValueError):
                msg = f"{where}: {shown(group)} is not a (length, colour) pair"
                raise PuzzleError(msg) from None
            try:
                color = _integer(color_value)
            except TypeError:
                if isinstance(color_value, str) and color_value.strip() != ANY_COLOR:
                    msg = f"{where}: {shown(group)} is not a (length, colour) pair"
                    raise PuzzleError(msg) from None
                mask = _color_set(color_value, len(palette), where)
                color = mask.bit_length() - 1 if mask & (mask - 1) == 0 else 0
                if color == 0:
                    sets[len(lengths)] = mask
            if not (-_BIG < length < _BIG and -_BIG < color < _BIG):
                # beyond any line and any palette, and beyond what the arrays hold
                msg = f"{where}: {shown(group)} is out of range"
                raise PuzzleError(msg)
            lengths.append(length)
            colors.append(color)
        offsets.append(len(lengths))
    color_sets = None
    if sets:
        color_sets = np.zeros(len(lengths), dtype=np.uint64)
        color_sets[list(sets)] = list(sets.values())
    return (
        np.array(lengths, dtype=np.int64),
        np.array(colors, dtype=np.int64),
        np.array(offsets, dtype=np.int64),
        color_sets,
    )


def _check_arrays(n_lines: int, lengths, colors, offsets, color_sets) -> tuple:
    """The flat clue arrays given to a ``from_arrays`` as int64 (colour sets
    uint64 or None), their shapes checked."""
    offsets = np.asarray(offsets, dtype=np.int64)
    if offsets.shape != (n_lines + 1,) or offsets[0] != 0 or np.any(np.diff(offsets) < 0):
        msg = f"offsets must be {n_lines + 1} non-decreasing indices starting at 0"
        raise PuzzleError(msg)
    lengths = np.asarray(lengths, dtype=np.int64)
    colors = np.asarray(colors, dtype=np.int64)
    if lengths.shape != colors.shape or lengths.shape != (offsets[-1],):
        msg = f"lengths and colours must both hold {offsets[-1]} groups"
        raise PuzzleError(msg)
    if color_sets is not None:
        color_sets = np.asarray(color_sets)
        if color_sets.shape != lengths.shape or not np.issubdtype(color_sets.dtype, np.integer):
            msg = f"colour sets must be {len(lengths)} integer bit masks"
            raise PuzzleError(msg)
        if np.issubdtype(color_sets.dtype, np.signedinteger) and np.any(color_sets < 0):
            color_sets = color_sets.astype(np.int64).view(np.uint64)  # bit 63 of int64 masks
        color_sets = color_sets.astype(np.uint64)
    return lengths, colors, offsets, color_sets


def _normalise_sets(palette: Palette, colors: np.ndarray, color_sets: np.ndarray | None, where) -> np.ndarray | None:
    """Fold ``color_sets`` into ``colors`` (in place): a group with colour 0 and
    a one-colour set takes that colour.  Returns the sets of the groups that
    keep several colours (zero elsewhere), or None when no group does."""
    if color_sets is None:
        return None
    k = len(palette)
    open_groups = np.flatnonzero(colors == 0)
    masks = color_sets[open_groups].astype(np.uint64)
    allowed = np.uint64(((1 << k) - 1) & ~1)
    # whole arrays at once: a file of a million '?' groups is checked in milliseconds
    bad = np.flatnonzero((masks == 0) | (masks & ~allowed != 0))
    if bad.size:
        g, mask = int(open_groups[bad[0]]), int(masks[bad[0]])
        c = next((c for c in range(64) if mask >> c & 1 and not (0 < c < k)), 0)  # none set: the background
        if c == 0:
            msg = f"{where(g)}: colour 0 is the background and cannot form a group"
        else:
            msg = f"{where(g)}: colour {c} is outside the palette ({k} colours, 0-{k - 1})"
        raise PuzzleError(msg)
    single = (masks & (masks - np.uint64(1))) == 0
    # a one-bit mask's colour is the number of bits below it
    colors[open_groups[single]] = np.bitwise_count(masks[single] - np.uint64(1)).astype(colors.dtype)
    several = np.zeros(len(colors), dtype=np.uint64)
    keep = open_groups[colors[open_groups] == 0]
    several[keep] = color_sets[keep]
    return several if keep.size else None


def min_cells(lengths: Sequence[int], masks: Sequence[int]) -> int:
    """Cells a clue with colour sets needs: its groups plus one background
    cell between neighbours that take the same colour, with the colours
    chosen to need the fewest such gaps (a small DP over the colours)."""
    best: dict[int, int] = {}  # colour of the last group -> fewest gaps so far
    for mask in masks:
        colours = []
        while mask:  # the set bits only (a loop over all 64 made big files slow)
            low = mask & -mask
            colours.append(low.bit_length() - 1)
            mask ^= low
        if not best:
            best = dict.fromkeys(colours, 0)
            continue
        lowest = sorted(best.values())[:2]
        owner = min(best, key=best.__getitem__)
        nxt = {}
        for c in colours:
            other = lowest[0] if owner != c else (lowest[1] if len(lowest) > 1 else None)
            same = best.get(c)
            options = [v for v in (other, None if same is None else same + 1) if v is not None]
            nxt[c] = min(options)
        best = nxt
    return int(sum(lengths)) + (min(best.values()) if best else 0)


def _validate(
    lengths: np.ndarray,
    colors: np.ndarray,
    offsets: np.ndarray,
    color_sets: np.ndarray | None,
    palette: Palette,
    capacity: np.ndarray,
    direction: np.ndarray,
    name,
    kind,
    direction_names: Sequence[str],
) -> None:
    """Check clues of either shape; raise :class:`PuzzleError` naming the line.

    ``capacity[i]`` is line ``i``'s cell count, ``direction[i]`` its
    direction (an index into ``direction_names``, plural nouns for the
    totals message), ``name(i)`` its name and ``kind(i)`` what it is
    ("row", "column", "line").  Groups with colour 0 and a mask in
    ``color_sets`` may take any colour of the mask.
    """
    n_lines = len(capacity)
    line_of_group = np.repeat(np.arange(n_lines), np.diff(offsets))
    index_in_line = np.arange(len(lengths)) - offsets[line_of_group]

    def where(g: int) -> str:
        return f"{name(int(line_of_group[g]))}, group {int(index_in_line[g]) + 1}"

    bad = np.flatnonzero(lengths < 1)
    if bad.size:
        g = bad[0]
        msg = f"{where(g)}: length {lengths[g]} (every group needs at least 1 cell)"
        raise PuzzleError(msg)
    is_set = np.zeros(len(lengths), dtype=bool) if color_sets is None else color_sets != 0
    bad = np.flatnonzero(((colors < 1) & ~is_set) | (colors >= len(palette)))
    if bad.size:
        g = bad[0]
        if colors[g] == 0:
            msg = f"{where(g)}: colour 0 is the background and cannot form a group"
        else:
            msg = (
                f"{where(g)}: colour {colors[g]} is outside the palette ({len(palette)} colours, 0-{len(palette) - 1})"
            )
        raise PuzzleError(msg)
    same = np.zeros(len(lengths), dtype=np.int64)
    if len(lengths) > 1:
        same[1:] = (colors[1:] == colors[:-1]) & (colors[1:] != 0) & (line_of_group[1:] == line_of_group[:-1])
    needed = np.bincount(line_of_group, weights=lengths + same, minlength=n_lines).astype(np.int64)
    if is_set.any():
        masks = np.where(is_set, color_sets, np.left_shift(np.uint64(1), colors.astype(np.uint64)))
        # The fewest gaps lie between none and one per pair of neighbours:
        # only a line that fits with none but not with all needs the DP.
        pairs = np.maximum(np.diff(offsets) - 1, 0)
        plain = np.bincount(line_of_group, weights=lengths, minlength=n_lines).astype(np.int64)
        undecided = np.zeros(n_lines, dtype=bool)
        undecided[line_of_group[is_set]] = True
        undecided &= (plain <= capacity) & (plain + pairs > capacity)
        for line in np.flatnonzero(undecided).tolist():
            a, b = offsets[line], offsets[line + 1]
            needed[line] = min_cells(lengths[a:b].tolist(), masks[a:b].tolist())
    bad = np.flatnonzero(needed > capacity)
    if bad.size:
        line = int(bad[0])
        msg = f"{name(line)}: clue needs {needed[line]} cells but the {kind(line)} has {capacity[line]}"
        raise PuzzleError(msg)
    _check_totals(lengths, colors, is_set, color_sets, line_of_group, direction, len(palette), direction_names)


def _check_totals(lengths, colors, is_set, color_sets, line_of_group, direction, k, direction_names) -> None:
    """Every direction covers every cell once, so each must hold the same
    cells of every colour: exactly without colour sets, within what the sets
    allow with them (:func:`check_totals`)."""
    group_direction = direction[line_of_group]
    n_dirs = len(direction_names)
    exact = np.zeros((n_dirs, k), dtype=np.int64)
    fixed = ~is_set
    for d in range(n_dirs):
        mine = (group_direction == d) & fixed
        exact[d] = np.bincount(colors[mine], weights=lengths[mine], minlength=k)[:k]
    sets = np.flatnonzero(is_set)
    masks = color_sets[sets].astype(np.uint64) if sets.size else np.zeros(0, np.uint64)

    def allows(c: int) -> np.ndarray:
        return ((masks >> np.uint64(c)) & np.uint64(1)).astype(bool)

    check_totals(exact, group_direction[sets], lengths[sets], allows, direction_names)


def check_totals(exact, set_direction, set_lengths, allows, direction_names) -> None:
    """The totals rule (``spec/ROFL.md`` R16) for clues in any number of directions.

    Parameters
    ----------
    exact : (D, K) int64 array
        Cells of each colour the groups of fixed colour give, per direction.
    set_direction, set_lengths : (S,) integer arrays
        Direction and length of each set group (``?``).
    allows : callable
        ``allows(c)`` is an (S,) bool array: which set groups may take colour ``c``.
    direction_names : sequence of D str
        Plural nouns for messages ("rows", "columns").

    Raises
    ------
    PuzzleError
        Without set groups, two directions that disagree on a colour; with
        them, directions that hold different numbers of ink cells, or a colour
        that one direction holds more of than another can hold.
    """
    n_dirs, k = exact.shape
    if not len(set_lengths):
        for d in range(1, n_dirs):
            bad = np.flatnonzero(exact[0] != exact[d])
            if bad.size:
                c = int(bad[0])
                msg = (
                    f"colour {c}: the {direction_names[0]} hold {exact[0, c]} cells "
                    f"but the {direction_names[d]} hold {exact[d, c]}"
                )
                raise PuzzleError(msg)
        return
    set_direction = np.asarray(set_direction, dtype=np.int64)
    set_lengths = np.asarray(set_lengths, dtype=np.int64)
    total = exact.sum(axis=1) + np.bincount(set_direction, weights=set_lengths, minlength=n_dirs).astype(np.int64)
    for d in range(1, n_dirs):
        if total[d] != total[0]:
            msg = f"the {direction_names[0]} hold {total[0]} ink cells but the {direction_names[d]} hold {total[d]}"
            raise PuzzleError(msg)
    # cells that may take colour c: the exact ones and every set that allows it
    maybe = exact.copy()
    for c in range(1, k):
        bit = allows(c)
        if bit.any():
            maybe[:, c] += np.bincount(set_direction[bit], weights=set_lengths[bit], minlength=n_dirs).astype(np.int64)
    for d in range(n_dirs):
        for e in range(n_dirs):
            bad = np.flatnonzero(exact[d] > maybe[e])
            if d != e and bad.size:
                c = int(bad[0])
                msg = (
                    f"colour {c}: the {direction_names[d]} hold at least {exact[d, c]} cells of it "
                    f"but the {direction_names[e]} at most {maybe[e, c]}"
                )
                raise PuzzleError(msg)


def _line_runs(values: np.ndarray, offsets: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Run-length groups of lines laid end to end in ``values`` (line ``i``
    is ``values[offsets[i]:offsets[i + 1]]``): the lengths and colours of all
    non-background runs, in order, and the number of runs per line."""
    n_lines = len(offsets) - 1
    first = np.zeros(len(values), dtype=bool)
    last = np.zeros(len(values), dtype=bool)
    first[offsets[:-1][np.diff(offsets) > 0]] = True
    last[offsets[1:][np.diff(offsets) > 0] - 1] = True
    prev = np.empty_like(values)
    nxt = np.empty_like(values)
    prev[1:], nxt[:-1] = values[:-1], values[1:]
    starts = np.flatnonzero((values != 0) & (first | (values != prev)))
    ends = np.flatnonzero((values != 0) & (last | (values != nxt)))
    # the line of each run: the last line starting at or before it (an empty line
    # starts where the next does), found for the runs alone
    line_of = np.searchsorted(offsets, starts, side="right") - 1
    return ends - starts + 1, values[starts], np.bincount(line_of, minlength=n_lines)


class _LinePuzzle:
    """What puzzles of every shape share: a frozen set of clues over lines.

    Clues are stored flat (``lengths``, ``colors``, ``offsets``: line ``i``
    owns groups ``offsets[i]:offsets[i + 1]``).  A group whose colour is a
    set of several colours (``"?"`` is the set of every foreground colour)
    has colour 0 in ``colors`` and its bit mask in ``color_sets`` (bit ``c``:
    colour ``c`` allowed); ``color_sets`` is None when every group has one
    colour, which keeps the plain case exactly as it was.
    """

    __slots__ = ("palette", "lengths", "colors", "color_sets", "offsets", "meta", "_hash", "_lines")

    palette: Palette
    lengths: np.ndarray
    colors: np.ndarray
    color_sets: np.ndarray | None
    offsets: np.ndarray
    meta: Mapping[str, str]

    def _set_fields(self, fields: dict[str, Any], palette, lengths, colors, offsets, color_sets, meta) -> None:
        for name, value in (
            *fields.items(),
            ("palette", palette),
            ("lengths", _frozen(lengths, np.int32)),
            ("colors", _frozen(colors, np.uint8)),
            ("color_sets", None if color_sets is None else _frozen(color_sets, np.uint64)),
            ("offsets", _frozen(offsets, np.int64)),
            ("meta", MappingProxyType(_clean_meta(meta))),
            ("_hash", None),
            ("_lines", None),
        ):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        msg = f"{type(self).__name__} is immutable"
        raise AttributeError(msg)

    # ----------------------------------------------------------------- access

    @property
    def n_colors(self) -> int:
        """Number of palette colours, background included."""
        return len(self.palette)

    @property
    def n_lines(self) -> int:
        return len(self.offsets) - 1

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

    def _first_unmet(self, derived: _LinePuzzle) -> int | None:
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
        if not isinstance(other, _LinePuzzle):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        if self._hash is None:
            object.__setattr__(self, "_hash", hash(self._key()))
        return self._hash  # type: ignore[return-value]


class Puzzle(_LinePuzzle):
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
        width, height = _check_size(width, height)
        if len(rows) != height:
            msg = f"{len(rows)} row clues for a puzzle {height} rows high"
            raise PuzzleError(msg)
        if len(cols) != width:
            msg = f"{len(cols)} column clues for a puzzle {width} columns wide"
            raise PuzzleError(msg)
        palette = _as_palette(palette)
        lengths, colors, offsets, color_sets = _parse_lines(
            [*rows, *cols], palette, lambda line: _line_name(line, height)
        )
        self._init_arrays(width, height, palette, lengths, colors, offsets, meta, color_sets)

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
        color_sets: np.ndarray | None = None,
        meta: Mapping[str, str] | None = None,
    ) -> Puzzle:
        """Build from the flat clue arrays (see the module docstring); validates like ``__init__``.

        ``color_sets`` (bit masks, one per group) gives the colours of the
        groups whose ``colors`` entry is 0; other entries are not read.
        """
        self = cls.__new__(cls)
        width, height = _check_size(width, height)
        lengths, colors, offsets, color_sets = _check_arrays(width + height, lengths, colors, offsets, color_sets)
        self._init_arrays(width, height, palette, lengths, colors, offsets, meta, color_sets)
        return self

    def _init_arrays(self, width, height, palette, lengths, colors, offsets, meta, color_sets=None) -> None:
        palette = _as_palette(palette)
        if color_sets is not None:
            colors = colors.copy()
            offs = offsets

            def where(g: int) -> str:
                line = int(np.searchsorted(offs, g, side="right") - 1)
                return f"{_line_name(line, height)}, group {g - int(offs[line]) + 1}"

            color_sets = _normalise_sets(palette, colors, color_sets, where)
        capacity = np.concatenate([np.full(height, width), np.full(width, height)]).astype(np.int64)
        direction = (np.arange(width + height) >= height).astype(np.int64)
        _validate(
            lengths,
            colors,
            offsets,
            color_sets,
            palette,
            capacity,
            direction,
            lambda line: _line_name(line, height),
            lambda line: "row" if line < height else "column",
            ("rows", "columns"),
        )
        self._set_fields(
            {"width": width, "height": height, "_packed": None}, palette, lengths, colors, offsets, color_sets, meta
        )

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
        palette = _as_palette(palette)
        grid = np.asarray(grid)
        lengths, colors, offsets = _grid_clues(grid, len(palette))
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
        return _line_name(line, self.height)

    def unmet_line(self, grid: np.ndarray) -> int | None:
        """The first line (rows, then columns) whose clue ``grid`` does not
        give, or None when it gives every clue.

        ``grid`` is an ``(H, W)`` array of palette indices of this puzzle's
        shape; a value outside the palette raises :class:`PuzzleError`.
        """
        grid = np.asarray(grid)
        lengths, colors, offsets = _grid_clues(grid, len(self.palette))
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

    def __reduce__(self):
        state = (
            self.width,
            self.height,
            self.palette.colors,
            self.lengths,
            self.colors,
            self.offsets,
            dict(self.meta),
            self.color_sets,
        )
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


def _rebuild(width, height, palette, lengths, colors, offsets, meta, color_sets=None) -> Puzzle:
    return Puzzle.from_arrays(
        width, height, Palette(palette), lengths, colors, offsets, color_sets=color_sets, meta=meta
    )


def _check_size(width: Any, height: Any) -> tuple[int, int]:
    try:
        width, height = _integer(width), _integer(height)
    except TypeError:
        msg = f"size {shown(width)}x{shown(height)} is not two integers"
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


def _grid_clues(grid: np.ndarray, n_colors: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The clues of the rows, then the columns, of an ``(H, W)`` grid of
    palette indices as flat ``lengths``, ``colors`` and ``offsets`` (int64).

    Raises
    ------
    PuzzleError
        Not two-dimensional, an empty or too large grid, or a value outside
        the ``n_colors`` of the palette.
    """
    if grid.ndim != 2:
        msg = f"a grid must be two-dimensional, not of shape {grid.shape}"
        raise PuzzleError(msg)
    height, width = grid.shape
    _check_size(width, height)
    if not np.issubdtype(grid.dtype, np.integer):
        msg = f"a grid must hold integer palette indices, not {grid.dtype}"
        raise PuzzleError(msg)
    bad = np.argwhere((grid < 0) | (grid >= n_colors))
    if bad.size:
        r, c = bad[0]
        msg = f"row {r + 1}, column {c + 1}: value {grid[r, c]} is outside the palette ({n_colors} colours)"
        raise PuzzleError(msg)
    grid = grid.astype(np.int64)
    row_len, row_col, row_count = _runs(grid)
    col_len, col_col, col_count = _runs(np.ascontiguousarray(grid.T))
    offsets = np.zeros(width + height + 1, dtype=np.int64)
    np.cumsum(np.concatenate([row_count, col_count]), out=offsets[1:])
    return np.concatenate([row_len, col_len]), np.concatenate([row_col, col_col]), offsets


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
