"""Clue validation: reading clues given as groups, checking flat clue
arrays, and the rules every puzzle's clues keep whatever its board.

Colour rules: index 0 of the palette is the background; every group has a
colour ``>= 1``; neighbouring groups of different colours may touch, groups
of the same colour need at least one background cell between them.  A
group's colour may be a set of colours (``"?"``: any ink colour): it then
has colour 0 in ``colors`` and its bit mask in ``color_sets``, and the same
rule applies to the colour it takes.  Every direction of lines covers every
cell once, so each holds the same cells of every colour (:func:`check_totals`).

:func:`validate` checks clues over any board: it takes each line's cell
count, direction and name (:class:`rofl.board.Board`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from rofl._checks import whole as _integer
from rofl.errors import PuzzleError, shown
from rofl.palette import Palette

#: The most rows or columns a puzzle may have: the ROFL format's limit, far
#: beyond any puzzle a person solves, and it keeps a hostile file from
#: asking for millions of lines.
MAX_SIDE = 65535

# Bound on lengths and colours read from input: small enough for the
# int32/int64 arrays (a too-long clue is then refused with its line named).
_BIG = 2**31

Group = tuple[int, int]

#: How a group whose colour is any foreground colour is written (and may be given).
ANY_COLOR = "?"


def color_set(value: Any, n_colors: int, where: str) -> int:
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


def parse_lines(
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
                mask = color_set(color_value, len(palette), where)
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


def check_arrays(n_lines: int, lengths, colors, offsets, color_sets) -> tuple:
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


def normalise_sets(palette: Palette, colors: np.ndarray, color_sets: np.ndarray | None, where) -> np.ndarray | None:
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


def validate(
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


def check_size(width: Any, height: Any) -> tuple[int, int]:
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
