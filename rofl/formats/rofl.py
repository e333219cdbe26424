"""The ROFL file format: a picture stored as its nonogram (see ``spec/ROFL.md``).

Two forms share one layout of clues:

* **plain** -- exactly the original proposal: ``"ROFL"``, width, height and
  colour count in one byte each, the palette (3-byte RGB, entry 0 is the
  background), then for every row and then every column a group count
  followed by the groups.  Nothing may follow the last column.
* **extended** -- byte 4 is ``0x00`` (a width no plain file can have), then a
  version byte, 16-bit width and height, the same colour count, palette and
  clue block, and finally a sequence of tagged chunks (metadata, a CRC-32 of
  the solved picture) closed by an empty ``IEND`` chunk, the last bytes of
  the file.
* **version 2** of the extended form (section 13 of the spec) -- a flags
  byte after the version: a hexagonal board (its side instead of width and
  height, the lines of :class:`~rofl.hexagon.Hexagon` in its order) and/or
  groups of several possible colours (colour byte 0, their masks in the
  critical ``QSET`` chunk).  Only such puzzles are written so; a reader of
  version 1 alone refuses them at the version byte.

A group is its length followed by its colour index; with two colours or
fewer the colour byte is left out (every group is colour 1).  Counts and
lengths take one byte, or two (big-endian) when a side exceeds 255.

Reading is done in two layers: ``construct`` structs describe the header and
the chunks (and, in :data:`SCHEMA`, the whole file: the slow, obviously
correct reference the tests compare against), while the clue block -- up to
hundreds of thousands of groups -- is located line by line and decoded with
numpy, never with one ``Struct`` per group.  Every count is checked against
what its line can hold and against the bytes left before the array it sizes
is touched.  Every error names the byte offset the specification assigns to
its rule (section 5): the first byte of the field that is wrong or that the
file ends in, the tag of a repeated chunk, a line's count for a line that
does not fit.  When a file breaks several rules the first in the order of
section 5.2 is reported: the clue block line by line (numpy finds the first
bad group or line of a batch of lines), the chunks in file order, then what
needs the whole file (the fits of lines with set groups, the totals).  A
file beyond this reader's limits raises :class:`~rofl.errors.LimitError`,
which says "not decoded" rather than "invalid", and only once every other
rule has been checked: a damaged file is invalid whatever its size.
"""

from __future__ import annotations

import os
import re
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import numpy as np
from construct import (
    Array,
    Bytes,
    Check,
    Computed,
    Const,
    ConstructError,
    Error,
    GreedyBytes,
    If,
    IfThenElse,
    Int8ub,
    Int16ub,
    Int32ub,
    Peek,
    Prefixed,
    RepeatUntil,
    Struct,
    Switch,
    Terminated,
    this,
)

from rofl._words import plural
from rofl.errors import FormatError, LimitError, PuzzleError
from rofl.formats import _limits
from rofl.formats._format import Format, sign_of
from rofl.hexagon import MAX_HEX_SIDE, Hexagon, HexPuzzle
from rofl.palette import MAX_COLORS, Palette
from rofl.puzzle import Puzzle
from rofl.validate import check_totals, min_cells

#: The first four bytes of every ROFL file (the sign's ``magic``).
MAGIC = sign_of("ROFL").magic
#: Version written in the extended header of a rectangle without colour
#: sets; readers reject versions they do not know.
VERSION = 1
#: Version of the extension for hexagonal boards and colour-set groups
#: (``spec/ROFL.md`` section 13): a readers of version 1 alone refuses it at byte 5.
VERSION_SHAPES = 2
#: Versions this reader knows.
VERSIONS = (VERSION, VERSION_SHAPES)
#: Flag bits of the version-2 header (byte 6).
FLAG_HEXAGON = 0x01
FLAG_COLOR_SETS = 0x02
#: Largest file this reader accepts (the whole file is read before parsing).
MAX_FILE_BYTES = _limits.MAX_FILE_BYTES
#: Largest picture this reader decodes (cells): 2048 x 2048, the limit of
#: every reader (:mod:`rofl.formats._limits`).  The solver keeps 8 bytes per
#: cell and a hostile 16 KB file could otherwise ask for 4096 x 4096.
MAX_CELLS = _limits.MAX_CELLS
#: Largest side of either form.
MAX_SIDE_PLAIN = 255
MAX_SIDE_EXTENDED = 65535
#: Metadata keys: short lowercase ASCII names.
META_KEY = re.compile(r"[a-z][a-z0-9_.-]{0,63}")
MIME = "image/x-rofl"

# ---------------------------------------------------------------- construct

PLAIN_HEAD = Struct(
    "width" / Int8ub,
    "height" / Int8ub,
)
EXTENDED_HEAD = Struct(
    "marker" / Const(b"\x00"),
    "version" / Int8ub,
    "width" / Int16ub,
    "height" / Int16ub,
)
#: Version 2: flags, then the size (a hexagon's side, or width and height).
SHAPES_FLAGS = Struct("flags" / Int8ub)
HEX_SIZE = Struct("side" / Int16ub)
RECT_SIZE = Struct("width" / Int16ub, "height" / Int16ub)
CHUNK_HEAD = Struct(
    "tag" / Bytes(4),
    "length" / Int32ub,
)
META_CHUNK = b"meta"
CRC_CHUNK = b"pcrc"
END_CHUNK = b"IEND"
#: Critical chunk of version 2: the colour masks of the set groups.
SETS_CHUNK = b"QSET"
CRC_PAYLOAD = Struct("crc" / Int32ub, Terminated)


def _count_field(ctx) -> int:
    """Bytes of a count or a length: 1, or 2 when a side exceeds 255."""
    return 2 if max(ctx.head.width, ctx.head.height) > MAX_SIDE_PLAIN else 1


def _line_capacity(ctx) -> int:
    """Cells of the line being parsed: rows come first, then columns (or the hexagon's lines)."""
    head = ctx._.head
    if head.get("side"):
        t, m = ctx._index % (2 * head.side - 1), head.side - 1  # as hexagon.line_lengths, without an array
        return head.side + min(t, 2 * m - t)
    return head.width if ctx._index < head.height else head.height


def _n_lines(ctx) -> int:
    head = ctx.head
    return 3 * (2 * head.side - 1) if head.get("side") else head.width + head.height


#: The extended header of either version, for :data:`SCHEMA` (a version-2
#: hexagon stores its side; its width and height are the ``2 * side - 1``
#: cells of its middle row and its rows).
_ANY_EXTENDED_HEAD = Struct(
    "marker" / Const(b"\x00"),
    "version" / Int8ub,
    Check(lambda ctx: ctx.version in VERSIONS),
    "flags" / IfThenElse(this.version == VERSION_SHAPES, Int8ub, Computed(0)),
    Check(lambda ctx: ctx.version == VERSION or ctx.flags in (1, 2, 3)),
    "side" / IfThenElse(this.flags & FLAG_HEXAGON, Int16ub, Computed(None)),
    Check(lambda ctx: ctx.side is None or 1 <= ctx.side),
    "width" / IfThenElse(this.flags & FLAG_HEXAGON, Computed(2 * this.side - 1), Int16ub),
    "height" / IfThenElse(this.flags & FLAG_HEXAGON, Computed(2 * this.side - 1), Int16ub),
)


_LINE = Struct(
    "count" / Switch(this._.nbytes, {1: Int8ub, 2: Int16ub}, default=Error),
    # a line of n cells holds at most n groups (groups of different colours may touch)
    Check(lambda ctx: ctx.count <= _line_capacity(ctx)),
    "groups" / Bytes(this.count * this._.group_size),
)

#: The whole file as one construct schema: the reference parser and builder.
#: It walks one ``Struct`` per line (fine for tests, slow for big files) and
#: checks the structure only; :func:`parse` is the fast reader and adds every
#: semantic check.  Never ``compile()`` it: it may see untrusted data.
SCHEMA = Struct(
    "magic" / Const(MAGIC),
    "first" / Peek(Int8ub),
    "extended" / Computed(this.first == 0),
    "head" / IfThenElse(this.extended, _ANY_EXTENDED_HEAD, PLAIN_HEAD),
    Check((this.head.width >= 1) & (this.head.height >= 1)),
    "ncolors" / Int8ub,
    Check(this.ncolors >= 1),
    "palette" / Array(this.ncolors, Bytes(3)),
    "nbytes" / Computed(_count_field),
    "group_size" / Computed(lambda ctx: ctx.nbytes + (1 if ctx.ncolors >= 3 else 0)),
    "lines" / Array(_n_lines, _LINE),
    "chunks"
    / If(
        this.extended,
        RepeatUntil(
            lambda chunk, chunks, ctx: chunk.tag == END_CHUNK,
            Struct("tag" / Bytes(4), "data" / Prefixed(Int32ub, GreedyBytes)),
        ),
    ),
    Terminated,
)


# ------------------------------------------------------------------ reading


@dataclass(frozen=True)
class Header:
    """What the first bytes of a ROFL file say (all a Pillow ``_open`` needs).

    For a hexagonal board (version 2, ``side`` set) ``width`` and ``height``
    are both ``2 * side - 1``: its rows, and the cells of the longest one.
    """

    extended: bool
    version: int | None
    width: int
    height: int
    palette: bytes
    #: offset of the first row's group count
    clue_offset: int
    #: version 2 flags (:data:`FLAG_HEXAGON`, :data:`FLAG_COLOR_SETS`); 0 otherwise
    flags: int = 0
    #: side of a hexagonal board, None for a rectangle
    side: int | None = None
    #: (offset, message) of the first limit of this reader the file is beyond
    #: (checked last: a file is "not decoded" only when it is otherwise valid)
    limit: tuple[int, str] | None = None

    @property
    def n_colors(self) -> int:
        return len(self.palette) // 3

    @property
    def hexagon(self) -> Hexagon | None:
        """The board of a hexagonal file (None for a rectangle)."""
        return None if self.side is None else Hexagon.of(self.side)

    @property
    def color_sets(self) -> bool:
        """Whether groups may have a set of colours (colour byte 0, masks in ``QSET``)."""
        return bool(self.flags & FLAG_COLOR_SETS)

    @property
    def count_bytes(self) -> int:
        """Bytes of every count and length: 1, or 2 when a line is longer than 255 cells."""
        return 2 if max(self.width, self.height) > MAX_SIDE_PLAIN else 1

    def capacities(self) -> np.ndarray:
        """Cells of every line, in the file's order: rows then columns, or the
        hexagon's lines (line ``i`` of a direction has ``2s - 1 - |i - (s - 1)|``
        cells; computed, so that no board is built for a file not yet checked)."""
        if self.side is not None:
            per = 2 * self.side - 1
            one = per - np.abs(np.arange(per, dtype=np.int64) - (self.side - 1))
            return np.tile(one, 3)
        return np.concatenate([np.full(self.height, self.width), np.full(self.width, self.height)]).astype(np.int64)

    def directions(self) -> np.ndarray:
        """The direction of every line (0 rows, 1 columns; or the hexagon's 0, 1, 2)."""
        if self.side is not None:
            return np.repeat(np.arange(3, dtype=np.int64), 2 * self.side - 1)
        return np.repeat(np.arange(2, dtype=np.int64), [self.height, self.width])

    @property
    def direction_names(self) -> tuple[tuple[str, str], ...]:
        """(singular, plural) name of each direction."""
        return Hexagon.DIRECTIONS if self.side is not None else (("row", "rows"), ("column", "columns"))

    def line_name(self, line: int) -> str:
        if self.side is not None:
            per = 2 * self.side - 1
            return f"{Hexagon.DIRECTIONS[line // per][0]} {line % per + 1}"
        return _line_name(line, self.height)

    def line_kind(self, line: int) -> str:
        """``"row"``, ``"column"``, ``"falling diagonal"``...: what line ``line`` is."""
        per = 2 * self.side - 1 if self.side is not None else self.height
        return self.direction_names[min(line // per, len(self.direction_names) - 1)][0]

    def refuse_beyond_limits(self, where: str) -> None:
        """Raise :class:`~rofl.errors.LimitError` when the file is beyond a limit of this reader."""
        if self.limit is not None:
            raise _fail(where, *self.limit, LimitError)


@dataclass(frozen=True, eq=False)
class RoflFile:
    """A parsed ROFL file: the puzzle and what the container said about it.

    Attributes
    ----------
    puzzle : Puzzle or HexPuzzle
        Clues, palette and ``meta`` (from the ``meta`` chunks); a version-2
        file gives a :class:`~rofl.hexagon.HexPuzzle` for a hexagon and
        ``color_sets`` for its set groups.
    extended : bool
        Whether the file uses the extended form.
    version : int or None
        The extended header's version; None for a plain file.
    crc32 : int or None
        CRC-32 of the solved picture, when the file stores one.
    skipped : tuple of str
        Tags of ancillary chunks this reader does not know and skipped.
    size : int
        Bytes in the file.
    ancillary : tuple of (str, bytes)
        Those chunks, tag and payload, in file order.
    """

    puzzle: Puzzle | HexPuzzle
    extended: bool = False
    version: int | None = None
    crc32: int | None = None
    skipped: tuple[str, ...] = field(default=())
    size: int = 0
    ancillary: tuple[tuple[str, bytes], ...] = field(default=())

    @property
    def form(self) -> str:
        return "extended" if self.extended else "plain"

    @property
    def safe_to_copy(self) -> tuple[tuple[str, bytes], ...]:
        """The unknown ancillary chunks a rewriter keeps (``spec/ROFL.md``
        section 4): those whose tag's fourth letter is lower case."""
        return tuple((tag, payload) for tag, payload in self.ancillary if tag[3].islower())


def _fail(where: str, offset: int, message: str, error: type[FormatError] = FormatError) -> FormatError:
    return error(f"{where}: byte {offset}: {message}")


def _line_name(line: int, height: int) -> str:
    return f"row {line + 1}" if line < height else f"column {line - height + 1}"


def parse_header(data: bytes, *, where: str = "<rofl>", limits: bool = True) -> Header:
    """Parse the header and palette of a ROFL file.

    Parameters
    ----------
    data : bytes
        The file, or at least its first ``12 + 3 * 255`` bytes.
    limits : bool
        Whether to refuse a file beyond this reader's limits here, once the
        header and palette are read (the Pillow plugin, which reads no more);
        :func:`parse` passes False, records them in ``Header.limit`` and
        refuses such a file only once the rest of it has been checked.

    Raises
    ------
    FormatError
        Not a ROFL file, a version other than 1 or 2, a zero size, a colour
        count of 0, or a file that ends inside the header or the palette.
    LimitError
        (a :class:`FormatError`) More than :data:`MAX_COLORS` colours or a
        picture larger than :data:`MAX_CELLS`: valid, but not for this reader.
    """
    head = _parse_header(data, where)
    if limits:
        head.refuse_beyond_limits(where)
    return head


def _parse_header(data: bytes, where: str) -> Header:
    n = len(data)
    if bytes(data[:4]) != MAGIC:
        raise _fail(where, 0, f"not a ROFL file (magic {bytes(data[:4])!r}, expected {MAGIC!r})")
    extended = n > 4 and data[4] == 0
    form = "extended" if extended else "plain"
    if extended and n > 5:
        # the version says how the rest of the header reads
        if data[5] not in VERSIONS:
            known = " and ".join(map(str, VERSIONS))
            raise _fail(where, 5, f"ROFL version {data[5]} is not supported (this reader knows versions {known})")
        if data[5] == VERSION_SHAPES:
            return _parse_shapes_header(data, where)
    struct = EXTENDED_HEAD if extended else PLAIN_HEAD
    try:
        head = struct.parse(bytes(data[4:11]))
    except ConstructError:
        at, name = _cut_field(struct, 4, n)
        raise _fail(where, at, f"the file ends inside the {form} header, in the {name} ({n} bytes)") from None
    version = head.version if extended else None
    size_at = 6 if extended else 4
    if head.width == 0:
        raise _fail(where, size_at, "width 0: a picture needs at least one column")
    if head.height == 0:
        raise _fail(where, size_at + (2 if extended else 1), "height 0: a picture needs at least one row")
    limit = None
    if head.width * head.height > MAX_CELLS:
        cells = head.width * head.height
        limit = (size_at, f"{head.width}x{head.height} is {cells} cells; this reader decodes at most {MAX_CELLS}")
    pos = 10 if extended else 6
    palette, end, colour_limit = _parse_palette(data, pos, where)
    return Header(extended, version, head.width, head.height, palette, end, limit=limit or colour_limit)


def _parse_palette(
    data: bytes, pos: int, where: str, *, sets: bool = False
) -> tuple[bytes, int, tuple[int, str] | None]:
    """The palette whose colour count is at ``pos``, the offset after it, and
    the colour limit of this reader it is beyond (None: within)."""
    n = len(data)
    if pos >= n:
        raise _fail(where, pos, "the file ends before the colour count")
    k = data[pos]
    if k == 0:
        raise _fail(where, pos, "colour count 0: the palette needs at least the background")
    if sets and k < 3:
        msg = f"colour count {k}: groups with a set of colours (flag 02) need at least two ink colours (3 in all)"
        raise _fail(where, pos, msg)
    end = pos + 1 + 3 * k
    if end > n:
        raise _fail(where, pos + 1, f"the palette of {k} colours needs {3 * k} bytes but only {n - pos - 1} remain")
    limit = (pos, f"{k} colours; this reader supports at most {MAX_COLORS}") if k > MAX_COLORS else None
    return bytes(data[pos + 1 : end]), end, limit


def _parse_shapes_header(data: bytes, where: str) -> Header:
    """The rest of a version-2 header (from byte 6): flags, the size, the palette."""
    n = len(data)
    if n <= 6:
        raise _fail(where, 6, f"the file ends inside the extended header, in the flags ({n} bytes)")
    flags = SHAPES_FLAGS.parse(data[6:7]).flags
    if flags & ~(FLAG_HEXAGON | FLAG_COLOR_SETS):
        raise _fail(where, 6, f"flags {flags:02X}: unknown bits {flags & ~3:02X} (version 2 defines 01 and 02)")
    if not flags:
        raise _fail(where, 6, "flags 00: a version-2 file is hexagonal (01), has colour sets (02) or both")
    hexagonal = bool(flags & FLAG_HEXAGON)
    struct = HEX_SIZE if hexagonal else RECT_SIZE
    try:
        size = struct.parse(bytes(data[7 : 7 + struct.sizeof()]))
    except ConstructError:
        at, name = _cut_field(struct, 7, n)
        raise _fail(where, at, f"the file ends inside the extended header, in the {name} ({n} bytes)") from None
    side = None
    limit = None
    if hexagonal:
        side = size.side
        if side == 0:
            raise _fail(where, 7, "side 0: a hexagonal board needs at least one cell")
        cells = 3 * side * (side - 1) + 1
        if side > MAX_HEX_SIDE or cells > MAX_CELLS:
            limit = (7, f"a hexagon of side {side} has {cells} cells; this reader decodes sides up to {MAX_HEX_SIDE}")
        width = height = 2 * side - 1
    else:
        width, height = size.width, size.height
        if width == 0:
            raise _fail(where, 7, "width 0: a picture needs at least one column")
        if height == 0:
            raise _fail(where, 9, "height 0: a picture needs at least one row")
        if width * height > MAX_CELLS:
            limit = (7, f"{width}x{height} is {width * height} cells; this reader decodes at most {MAX_CELLS}")
    sets = bool(flags & FLAG_COLOR_SETS)
    palette, end, colour_limit = _parse_palette(data, 7 + struct.sizeof(), where, sets=sets)
    return Header(True, VERSION_SHAPES, width, height, palette, end, flags, side, limit or colour_limit)


def _cut_field(struct: Struct, start: int, n: int) -> tuple[int, str]:
    """(offset, name) of the first field of ``struct`` (at ``start``) that a file of ``n`` bytes cuts."""
    for sub in struct.subcons:
        if start + sub.sizeof() > n:
            break
        start += sub.sizeof()
    return start, sub.name


def parse(data: bytes | bytearray | memoryview, *, where: str = "<rofl>") -> RoflFile:
    """Parse a whole ROFL file held in memory.

    Parameters
    ----------
    data : bytes-like
        The complete file.
    where : str
        Name used in error messages (usually the path).

    Returns
    -------
    RoflFile

    Raises
    ------
    FormatError
        The first violation of the specification in the order of its
        section 5.2, with the byte offset its rule names: truncation, a
        count larger than its line or than the bytes left, a group of
        length 0, a colour outside the palette, groups that do not fit
        their line, trailing bytes, an unknown critical chunk, bad
        metadata or masks, totals that disagree between directions.
    LimitError
        (a :class:`FormatError`) A file beyond this reader's limits that
        breaks no rule.
    """
    data = bytes(data)
    n = len(data)
    if n > MAX_FILE_BYTES:
        msg = f"{where}: {n} bytes, larger than the {MAX_FILE_BYTES}-byte limit"
        raise LimitError(msg)
    head = parse_header(data, where=where, limits=False)
    clues = _read_clue_block(data, head, where)
    if head.extended:
        chunks = _read_chunks(data, head, clues, where)
    else:
        if clues.end != n:
            msg = f"{plural(n - clues.end, 'byte')} after the last column clue (a plain file ends there)"
            raise _fail(where, clues.end, msg)
        chunks = _Chunks(clues.end)
    if head.color_sets and chunks.masks is None:
        raise _fail(
            where, chunks.end - 8, "flag 02 (colour sets) but no 'QSET' chunk gives the masks of the set groups"
        )
    if chunks.masks is not None:
        _check_set_lines(data, head, clues, chunks.masks, where)
    try:
        _check_clue_totals(head, clues, chunks.masks)
    except PuzzleError as exc:
        msg = f"{where}: {exc}"
        raise FormatError(msg) from None
    # the file is valid as far as rules without solving go: only now may it
    # be "not decoded" for this reader's limits (spec section 5.1)
    head.refuse_beyond_limits(where)
    puzzle = _build_puzzle(head, clues, chunks, where)
    return RoflFile(puzzle, head.extended, head.version, chunks.crc, tuple(chunks.skipped), n, tuple(chunks.ancillary))


@dataclass
class _Chunks:
    """What the chunks of an extended file gave (:func:`_read_chunks`);
    ``end`` is where they end (the end of the file)."""

    end: int
    meta: dict[str, str] = field(default_factory=dict)
    crc: int | None = None
    skipped: list[str] = field(default_factory=list)
    ancillary: list[tuple[str, bytes]] = field(default_factory=list)
    masks: np.ndarray | None = None  # (set groups, M) uint8: the QSET masks, big-endian


def _read_chunks(data: bytes, head: Header, clues: _Clues, where: str) -> _Chunks:
    """Read the chunks after the clue block up to ``IEND``, which must end
    the file (so a file cut between two chunks is detected)."""
    n = len(data)
    found = _Chunks(clues.end)
    pos = clues.end
    while True:
        if pos >= n:
            raise _fail(where, pos, "the file ends before its 'IEND' chunk")
        tag, length = _chunk_head(data, pos, where)
        body = pos + 8
        if tag == END_CHUNK:
            if length:
                raise _fail(where, pos + 4, f"chunk 'IEND': length {length}, must be 0")
            pos = body
            break
        _read_chunk(found, tag, data[body : body + length], pos, head, clues, where)
        pos = body + length
    if pos != n:
        raise _fail(where, pos, f"{plural(n - pos, 'byte')} after the 'IEND' chunk")
    found.end = pos
    return found


def _chunk_head(data: bytes, pos: int, where: str) -> tuple[bytes, int]:
    """The tag and the payload's length of the chunk at ``pos``, checked
    against the bytes that remain."""
    n = len(data)
    tag = data[pos : pos + 4]
    if len(tag) < 4:
        raise _fail(where, pos, f"{plural(n - pos, 'byte')} left, too few for a chunk tag (4 bytes)")
    if not (tag.isascii() and tag.isalpha()):
        raise _fail(where, pos, f"chunk tag {tag!r} is not four ASCII letters")
    tag_name = tag.decode("ascii")
    if n - pos < CHUNK_HEAD.sizeof():
        raise _fail(where, pos + 4, f"chunk {tag_name!r}: the file ends inside its length (4 bytes)")
    chunk = CHUNK_HEAD.parse(data[pos : pos + 8])
    if chunk.length > n - pos - 8:
        raise _fail(where, pos + 4, f"chunk {tag_name!r}: length {chunk.length} but only {n - pos - 8} bytes remain")
    return tag, chunk.length


def _read_chunk(found: _Chunks, tag: bytes, payload: bytes, pos: int, head: Header, clues: _Clues, where: str) -> None:
    """Add the chunk at ``pos`` (not ``IEND``) to ``found``: inside a chunk
    (spec section 5.2), its length, then its payload's fields in order, then
    whether it repeats an earlier one."""
    tag_name = tag.decode("ascii")
    body = pos + 8
    if tag == META_CHUNK:
        key, value = _parse_meta(payload, where, body)
        if key in found.meta:
            raise _fail(where, pos, f"metadata key {key!r} appears twice")
        found.meta[key] = value
    elif tag == CRC_CHUNK:
        if len(payload) != 4:
            raise _fail(where, pos + 4, f"chunk 'pcrc': length {len(payload)}, must be 4")
        if found.crc is not None:
            raise _fail(where, pos, "a second 'pcrc' chunk")
        found.crc = CRC_PAYLOAD.parse(payload).crc
    elif tag == SETS_CHUNK and head.color_sets:
        masks = _parse_masks(payload, clues.n_sets, head.n_colors, where, body, pos + 4)
        if found.masks is not None:
            raise _fail(where, pos, "a second 'QSET' chunk")
        found.masks = masks
    elif tag_name[0].islower():
        found.skipped.append(tag_name)  # ancillary: safe to ignore
        found.ancillary.append((tag_name, bytes(payload)))
    else:
        msg = f"unknown critical chunk {tag_name!r} (upper-case first letter: a reader must understand it)"
        raise _fail(where, pos, msg)


def _build_puzzle(head: Header, clues: _Clues, chunks: _Chunks, where: str) -> Puzzle | HexPuzzle:
    """The puzzle of a valid file within this reader's limits."""
    lengths, colors = clues.lengths, clues.colors
    assert lengths is not None and colors is not None  # kept for a file within the limits
    color_sets = None
    if chunks.masks is not None:
        color_sets = np.zeros(len(lengths), dtype=np.uint64)
        color_sets[colors == 0] = _masks_to_uint64(chunks.masks)
    palette = Palette.from_array(np.frombuffer(head.palette, dtype=np.uint8).reshape(head.n_colors, 3))
    arrays = (palette, lengths, colors, clues.offsets)
    try:
        if head.side is not None:
            return HexPuzzle.from_arrays(head.side, *arrays, color_sets=color_sets, meta=chunks.meta)
        return Puzzle.from_arrays(head.width, head.height, *arrays, color_sets=color_sets, meta=chunks.meta)
    except PuzzleError as exc:
        msg = f"{where}: {exc}"
        raise FormatError(msg) from None


#: Groups checked at once: the clue block is read in batches of lines, so a
#: file beyond this reader's limits (checked last) costs memory in proportion
#: to a batch, not to the file.
_BATCH_GROUPS = 1 << 20


@dataclass
class _Clues:
    """What :func:`_read_clue_block` found: every line located and checked.

    ``lengths`` and ``colors`` (int64, colour 0 for a set group) are kept only
    for a file within this reader's limits; the rest is what the later
    checks need (fits of lines with set groups, totals).
    """

    end: int
    starts: np.ndarray  # first byte of each line's groups
    counts: np.ndarray
    offsets: np.ndarray
    plain: np.ndarray  # sum of each line's lengths
    line_sets: np.ndarray  # set groups in each line
    exact: np.ndarray  # (directions, K) cells of each fixed colour
    set_direction: np.ndarray
    set_lengths: np.ndarray
    lengths: np.ndarray | None
    colors: np.ndarray | None

    @property
    def n_sets(self) -> int:
        return len(self.set_lengths)


def _read_clue_block(data: bytes, head: Header, where: str) -> _Clues:
    """Locate and check every line of the clue block (spec section 5.2's order).

    The first error in file order is raised: a line's count (R10-R12), its
    groups as one field (R10), then each group's length (R13) and colour
    (R14, R33) in turn, then the line's fit (R15) when it has no set group
    (the fit of a line with one needs the masks of ``QSET``).
    """
    k = head.n_colors
    n_lines = len(head.capacities())
    starts, counts, end, located = _locate_lines(data, head, where)
    done = n_lines if located is None else located[0]
    offsets = np.zeros(n_lines + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    n_dirs = len(head.direction_names)
    directions = head.directions()
    exact = np.zeros((n_dirs, k), dtype=np.int64)
    lines = _LineSums(np.zeros(n_lines, dtype=np.int64), np.zeros(n_lines, dtype=np.int64))
    set_direction: list[np.ndarray] = []
    set_lengths: list[np.ndarray] = []
    keep = head.limit is None
    all_lengths: list[np.ndarray] = []
    all_colors: list[np.ndarray] = []
    lo = 0
    while lo < done:
        # lines lo..hi-1: at most _BATCH_GROUPS groups, at least one line
        hi = max(lo + 1, int(np.searchsorted(offsets, offsets[lo] + _BATCH_GROUPS, side="right")) - 1)
        hi = min(hi, done)
        lengths, colors, is_set, line_of = _read_groups(data, head, where, lo, hi, starts, offsets, lines)
        group_direction = directions[line_of]
        # cells of each (direction, colour), the fixed colours only (a set group's is colour 0)
        key = group_direction * k + colors
        exact += np.bincount(key, weights=lengths, minlength=n_dirs * k).astype(np.int64).reshape(n_dirs, k)
        set_direction.append(group_direction[is_set])
        set_lengths.append(lengths[is_set])
        if keep:
            all_lengths.append(lengths)
            all_colors.append(colors)
        lo = hi
    if located is not None:
        raise located[1]
    exact[:, 0] = 0  # colour 0 is a set group's mark, not a colour it holds
    if head.color_sets and not int(lines.sets.sum()):
        raise _fail(where, 6, "flag 02 (colour sets) but no group has colour 0, the mark of a set group")
    empty = np.zeros(0, dtype=np.int64)
    return _Clues(
        end,
        starts,
        counts,
        offsets,
        lines.plain,
        lines.sets,
        exact,
        np.concatenate([empty, *set_direction]),
        np.concatenate([empty, *set_lengths]),
        np.concatenate([empty, *all_lengths]) if keep else None,
        np.concatenate([empty, *all_colors]) if keep else None,
    )


def _locate_lines(
    data: bytes, head: Header, where: str
) -> tuple[np.ndarray, np.ndarray, int, tuple[int, FormatError] | None]:
    """Where every line's groups start, and how many it has: one Python step
    per line, each count checked before the bytes it sizes are touched.

    Returns the starts and counts (zero from the first line that cannot be
    located on), where the block ends, and that first line with its error
    (None when every line is located), which is raised once the lines
    before it have been checked.
    """
    n = len(data)
    k = head.n_colors
    nb = head.count_bytes
    gsize = nb + (1 if k >= 3 else 0)
    capacities = head.capacities()
    name = head.line_name
    n_lines = len(capacities)
    starts = np.empty(n_lines, dtype=np.int64)
    counts = np.zeros(n_lines, dtype=np.int64)
    pos = head.clue_offset
    for i in range(n_lines):
        if pos + nb > n:
            return starts, counts, pos, (i, _fail(where, pos, f"{name(i)}: the file ends before its group count"))
        c = data[pos] if nb == 1 else (data[pos] << 8) | data[pos + 1]
        cap = int(capacities[i])
        if c > cap:
            msg = f"{name(i)}: {plural(c, 'group')} cannot fit in {plural(cap, 'cell')}"
            return starts, counts, pos, (i, _fail(where, pos, msg))
        if c and k == 1:
            msg = f"{name(i)}: {plural(c, 'group')} but the palette holds only the background"
            return starts, counts, pos, (i, _fail(where, pos, msg))
        end = pos + nb + c * gsize
        if end > n:
            # the line's groups are one field, checked whole before any is read
            msg = f"{name(i)}: group count {c} needs {plural(c * gsize, 'byte')} but only {n - pos - nb} remain"
            return starts, counts, pos, (i, _fail(where, pos + nb, msg))
        starts[i] = pos + nb
        counts[i] = c
        pos = end
    return starts, counts, pos, None


@dataclass
class _LineSums:
    """Per line, filled batch by batch: the sum of its lengths, and its set groups."""

    plain: np.ndarray
    sets: np.ndarray


def _read_groups(
    data: bytes,
    head: Header,
    where: str,
    lo: int,
    hi: int,
    starts: np.ndarray,
    offsets: np.ndarray,
    lines: _LineSums,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Read and check the groups of lines ``lo..hi-1``: their lengths (R13),
    colours (R14, R33) and the fit of the lines without a set group (R15),
    raising the first error in file order; fill ``lines`` for them.

    Returns the groups' lengths and colours (int64), whether each is a set
    group, and the line of each.
    """
    k = head.n_colors
    nb = head.count_bytes
    with_colour = k >= 3
    gsize = nb + (1 if with_colour else 0)
    capacities = head.capacities()
    name = head.line_name
    counts = np.diff(offsets[lo : hi + 1])
    buf = np.frombuffer(data, dtype=np.uint8)
    g0, g1 = int(offsets[lo]), int(offsets[hi])
    line_of = np.repeat(np.arange(lo, hi, dtype=np.int64), counts)
    gpos = np.repeat(starts[lo:hi], counts) + (np.arange(g0, g1, dtype=np.int64) - offsets[line_of]) * gsize
    lengths = buf[gpos].astype(np.int64)
    if nb == 2:
        lengths = (lengths << 8) | buf[gpos + 1]
    colors = buf[gpos + nb].astype(np.int64) if with_colour else np.ones(g1 - g0, dtype=np.int64)
    is_set = colors == 0 if head.color_sets else np.zeros(g1 - g0, dtype=bool)
    errors: list[tuple[tuple[int, int, int], FormatError]] = []

    def group_name(g: int) -> str:
        line = int(line_of[g])
        return f"{name(line)}, group {g0 + g - int(offsets[line]) + 1}"

    bad = np.flatnonzero(lengths < 1)
    if bad.size:
        g = int(bad[0])
        msg = f"{group_name(g)}: length 0 (every group needs at least 1 cell)"
        errors.append(((int(line_of[g]), 1, int(gpos[g])), _fail(where, int(gpos[g]), msg)))
    if with_colour:
        lowest = 0 if head.color_sets else 1  # colour 0: a set group, its mask in 'QSET'
        bad = np.flatnonzero((colors < lowest) | (colors >= k))
        if bad.size:
            g = int(bad[0])
            what = (
                "colour 0 is the background and cannot form a group"
                if colors[g] == 0
                else f"colour {colors[g]} is outside the palette ({k} colours, 0-{k - 1})"
            )
            at = int(gpos[g]) + nb
            errors.append(((int(line_of[g]), 1, at), _fail(where, at, f"{group_name(g)}: {what}")))
    # fits of the lines without a set group (spec R15); the groups of a
    # line are contiguous, so per-line sums are differences of running sums
    bounds = offsets[lo : hi + 1] - g0
    same = np.zeros(g1 - g0, dtype=np.int64)
    if g1 - g0 > 1:
        same[1:] = (colors[1:] == colors[:-1]) & (colors[1:] != 0) & (line_of[1:] == line_of[:-1])
    lines.plain[lo:hi] = _line_sums(lengths, bounds)
    need = lines.plain[lo:hi] + _line_sums(same, bounds)
    lines.sets[lo:hi] = _line_sums(is_set, bounds)
    bad = np.flatnonzero((need > capacities[lo:hi]) & (lines.sets[lo:hi] == 0))
    if bad.size:
        i = lo + int(bad[0])
        msg = f"{name(i)}: the groups need {need[i - lo]} cells but the {head.line_kind(i)} has {capacities[i]}"
        errors.append(((i, 2, 0), _fail(where, int(starts[i]) - nb, msg)))
    if errors:
        raise min(errors, key=lambda e: e[0])[1]
    return lengths, colors, is_set, line_of


def _line_sums(values: np.ndarray, bounds: np.ndarray) -> np.ndarray:
    """The sum of ``values[bounds[i]:bounds[i + 1]]`` for every ``i`` (int64)."""
    running = np.zeros(len(values) + 1, dtype=np.int64)
    np.cumsum(values, out=running[1:])
    return running[bounds[1:]] - running[bounds[:-1]]


def _check_set_lines(data: bytes, head: Header, clues: _Clues, masks: np.ndarray, where: str) -> None:
    """The fit (R15) of every line with a set group, now that the masks are known.

    A line needs its lengths plus a gap between neighbours that take the
    same colour, the set groups' colours chosen to need the fewest gaps; so
    between its lengths alone and one gap per pair of neighbours.  The
    lines in between are decided by :func:`rofl.puzzle.min_cells`.
    """
    capacities = head.capacities()
    nb = head.count_bytes
    gsize = nb + (1 if head.n_colors >= 3 else 0)
    first_set = np.concatenate([[0], np.cumsum(clues.line_sets)])  # index of each line's first mask
    pairs = np.maximum(clues.counts - 1, 0)
    candidates = np.flatnonzero((clues.line_sets > 0) & (clues.plain + pairs > capacities))
    for i in candidates.tolist():
        groups = data[int(clues.starts[i]) : int(clues.starts[i]) + int(clues.counts[i]) * gsize]
        lengths, line_masks = [], []
        j = int(first_set[i])
        for g in range(int(clues.counts[i])):
            at = g * gsize
            lengths.append(int.from_bytes(groups[at : at + nb], "big"))
            colour = groups[at + nb]
            if colour:
                line_masks.append(1 << colour)
            else:
                line_masks.append(int.from_bytes(masks[j].tobytes(), "big"))
                j += 1
        need = min_cells(lengths, line_masks)
        if need > capacities[i]:
            msg = f"{head.line_name(i)}: the groups need {need} cells but the {head.line_kind(i)} has {capacities[i]}"
            raise _fail(where, int(clues.starts[i]) - nb, msg)


def _check_clue_totals(head: Header, clues: _Clues, masks: np.ndarray | None) -> None:
    """The totals rule (R16) over every direction, with or without set groups."""
    table = np.zeros((0, 1), dtype=np.uint8) if masks is None else masks
    m = table.shape[1]

    def allows(c: int) -> np.ndarray:
        return ((table[:, m - 1 - c // 8] >> (c % 8)) & 1).astype(bool)

    names = [many for _, many in head.direction_names]
    check_totals(clues.exact, clues.set_direction, clues.set_lengths, allows, names)


def _masks_to_uint64(masks: np.ndarray) -> np.ndarray:
    """(S, M) big-endian mask bytes as S uint64 (a palette of at most 64 colours)."""
    out = np.zeros(len(masks), dtype=np.uint64)
    for j in range(masks.shape[1]):
        out = (out << np.uint64(8)) | masks[:, j].astype(np.uint64)
    return out


def mask_bytes(n_colors: int) -> int:
    """Bytes of one colour mask in a ``QSET`` chunk: one bit per palette entry."""
    return (n_colors + 7) // 8


def _parse_masks(payload: bytes, n_sets: int, k: int, where: str, offset: int, length_at: int) -> np.ndarray:
    """The masks of a ``QSET`` payload (at ``offset``): one per set group, in file order.

    Each mask is ``mask_bytes(k)`` bytes, big-endian, bit ``c`` for colour
    ``c``: at least two ink colours, never the background or a colour
    outside the palette.  Returned as an ``(n_sets, M)`` uint8 array, so that
    a palette of any size (up to 255 colours, 32 bytes a mask) is checked.
    """
    m = mask_bytes(k)
    if len(payload) != n_sets * m:
        msg = (
            f"chunk 'QSET': length {len(payload)}, must be {n_sets * m} "
            f"({plural(n_sets, 'set group')} x {plural(m, 'byte')} per mask)"
        )
        raise _fail(where, length_at, msg)
    rows = np.frombuffer(payload, dtype=np.uint8).reshape(n_sets, m)
    # the bits a mask may hold, byte by byte: colours 1 to K - 1
    allowed = np.frombuffer((((1 << k) - 1) & ~1).to_bytes(m, "big"), dtype=np.uint8)
    background = (rows[:, m - 1] & 1) != 0
    outside = ((rows & ~allowed) != 0).any(axis=1)
    few = np.bitwise_count(rows).sum(axis=1, dtype=np.int64) < 2
    # numpy finds the first bad mask; Python words the error
    bad = np.flatnonzero(background | outside | few)
    if bad.size:
        i = int(bad[0])
        mask, at = int.from_bytes(rows[i].tobytes(), "big"), offset + i * m
        if mask & 1:
            raise _fail(where, at, f"set group {i + 1}: mask {mask:0{2 * m}X} holds colour 0, the background")
        if outside[i]:
            c = mask.bit_length() - 1
            msg = f"set group {i + 1}: mask {mask:0{2 * m}X} holds colour {c}, outside the palette (0-{k - 1})"
            raise _fail(where, at, msg)
        few_text = "fewer than two colours (one colour is written as its index)"
        raise _fail(where, at, f"set group {i + 1}: mask {mask:0{2 * m}X} holds {few_text}")
    return rows


def _parse_meta(payload: bytes, where: str, offset: int) -> tuple[str, str]:
    key, sep, value = payload.partition(b"\x00")
    if not sep:
        raise _fail(where, offset, "metadata chunk without the NUL byte that ends its key")
    try:
        key_text = key.decode("ascii")
    except UnicodeDecodeError:
        key_text = ""
    if not META_KEY.fullmatch(key_text):
        raise _fail(where, offset, f"metadata key {key!r} is not 1-64 lower-case ASCII letters, digits, '_.-'")
    if b"\x00" in value:
        raise _fail(where, offset + len(key) + 1, f"metadata {key_text!r}: the value contains a NUL byte")
    try:
        # Python's strict decoder is RFC 3629: no overlong forms, no
        # surrogates (CESU-8), nothing above U+10FFFF; a BOM is U+FEFF, kept
        text = value.decode("utf-8")
    except UnicodeDecodeError as exc:
        start = offset + len(key) + 1
        bad = value[exc.start : exc.end].hex(" ")
        msg = f"metadata {key_text!r}: the value is not well-formed UTF-8 (bytes {bad} at byte {start + exc.start})"
        raise _fail(where, start, msg) from None
    return key_text, text


# ------------------------------------------------------------------ writing


def picture_crc(grid: np.ndarray) -> int:
    """CRC-32 (ISO-HDLC, as zlib) of a picture: its ``H * W`` palette indices, row by row, one byte each."""
    return zlib.crc32(np.ascontiguousarray(grid, dtype=np.uint8).tobytes())


def dumps(
    puzzle: Puzzle,
    solution: np.ndarray | None = None,
    *,
    meta: Mapping[str, str] | None = None,
    extended: bool | None = None,
    crc32: int | None = None,
    ancillary: Sequence[tuple[str, bytes]] = (),
) -> bytes:
    """Encode a puzzle as a ROFL file.

    Chunks are written in the order ``spec/ROFL.md`` section 4 gives:
    ``QSET``, the ``meta`` chunks (in the order of ``meta``), ``pcrc``, the
    ``ancillary`` chunks, ``IEND``.

    Parameters
    ----------
    puzzle : Puzzle or HexPuzzle
        A hexagon, or a puzzle with colour sets, is written as version 2.
    solution : (H, W) integer array, or (n_cells,) for a hexagon, optional
        The picture; when given, it must satisfy the clues and its CRC-32 is
        stored (``pcrc`` chunk), so a reader can prove it decoded this very
        picture.
    meta : mapping of str to str, optional
        Metadata to store (default: ``puzzle.meta``; pass ``{}`` for none).
    extended : bool, optional
        Force (True) or forbid (False) the extended form.  By default the
        plain form -- the smallest file -- is written whenever nothing needs
        the extended one (a side above 255, metadata, a CRC).
    crc32 : int, optional
        The CRC-32 to store when no ``solution`` is given: the one another
        file stored (``rofl convert`` keeps it).
    ancillary : sequence of (str, bytes)
        Other ancillary chunks, tag and payload: those of another file that a
        rewriter keeps (:attr:`RoflFile.safe_to_copy`).

    Raises
    ------
    FormatError
        A picture too large for the format, metadata that cannot be stored,
        ``extended=False`` with something that needs the extended form, or
        a solution that does not satisfy the clues.
    """
    k = puzzle.n_colors
    hexagonal = isinstance(puzzle, HexPuzzle)
    flags = (FLAG_HEXAGON if hexagonal else 0) | (FLAG_COLOR_SETS if puzzle.has_color_sets else 0)
    w, h = (2 * puzzle.side - 1,) * 2 if hexagonal else (puzzle.width, puzzle.height)
    if max(w, h) > MAX_SIDE_EXTENDED:
        msg = f"{w}x{h}: a ROFL picture has at most {MAX_SIDE_EXTENDED} cells per side"
        raise FormatError(msg)
    meta = dict(puzzle.meta if meta is None else meta)
    chunks = []
    if puzzle.has_color_sets:
        masks = puzzle.color_sets[puzzle.color_sets != 0].astype(np.uint64)
        m = mask_bytes(k)
        table = np.zeros((len(masks), m), dtype=np.uint8)
        for j in range(m):
            table[:, m - 1 - j] = (masks >> np.uint64(8 * j)) & np.uint64(0xFF)
        chunks.append(_chunk(SETS_CHUNK, table.tobytes()))
    for key, value in meta.items():
        if not isinstance(key, str) or not META_KEY.fullmatch(key):
            msg = f"metadata key {key!r} is not 1-64 lower-case ASCII letters, digits, '_.-' (starting with a letter)"
            raise FormatError(msg)
        value = str(value)
        if "\x00" in value:
            msg = f"metadata {key!r}: the value contains a NUL character"
            raise FormatError(msg)
        try:
            encoded = value.encode("utf-8")
        except UnicodeEncodeError:
            msg = f"metadata {key!r}: the value contains a lone surrogate, which UTF-8 cannot hold"
            raise FormatError(msg) from None
        chunks.append(_chunk(META_CHUNK, key.encode("ascii") + b"\x00" + encoded))
    if solution is not None:
        if not puzzle.is_solution(solution):
            msg = "the solution does not satisfy the clues"
            raise FormatError(msg)
        crc32 = picture_crc(solution)
    if crc32 is not None:
        chunks.append(_chunk(CRC_CHUNK, CRC_PAYLOAD.build({"crc": crc32})))
    for tag, payload in ancillary:
        name = tag.encode("ascii", "replace")
        if not (len(name) == 4 and name.isalpha() and name[:1].islower()) or name in (META_CHUNK, CRC_CHUNK):
            msg = (
                f"chunk tag {tag!r} is not four ASCII letters starting with a lower-case one, other than meta and pcrc"
            )
            raise FormatError(msg)
        chunks.append(_chunk(name, bytes(payload)))
    needs = max(w, h) > MAX_SIDE_PLAIN or bool(chunks) or bool(flags)
    if extended is False and needs:
        msg = "this puzzle needs the extended form (a side above 255, a hexagon, colour sets, metadata or a CRC)"
        raise FormatError(msg)
    use_extended = needs or bool(extended)

    if flags:
        size = HEX_SIZE.build({"side": puzzle.side}) if hexagonal else RECT_SIZE.build({"width": w, "height": h})
        head = MAGIC + bytes([0, VERSION_SHAPES]) + SHAPES_FLAGS.build({"flags": flags}) + size
    elif use_extended:
        head = MAGIC + EXTENDED_HEAD.build({"version": VERSION, "width": w, "height": h})
    else:
        head = MAGIC + PLAIN_HEAD.build({"width": w, "height": h})
    palette = puzzle.palette.to_array().tobytes()
    if use_extended:
        chunks.append(_chunk(END_CHUNK, b""))
    return b"".join([head, bytes([k]), palette, _clue_block(puzzle), *chunks])


def _chunk(tag: bytes, payload: bytes) -> bytes:
    return CHUNK_HEAD.build({"tag": tag, "length": len(payload)}) + payload


def _clue_block(puzzle: Puzzle | HexPuzzle) -> bytes:
    """Every line's count and groups, laid out with numpy (no per-group Python).

    A set group has colour 0 here; its mask goes to the ``QSET`` chunk.
    """
    if isinstance(puzzle, HexPuzzle):
        longest = 2 * puzzle.side - 1
    else:
        longest = max(puzzle.width, puzzle.height)
    nb = 2 if longest > MAX_SIDE_PLAIN else 1
    with_colour = puzzle.n_colors >= 3
    gsize = nb + (1 if with_colour else 0)
    offsets = puzzle.offsets
    counts = np.diff(offsets)
    n_lines = len(counts)
    total = int(offsets[-1])
    out = np.zeros(n_lines * nb + total * gsize, dtype=np.uint8)
    line_pos = np.arange(n_lines, dtype=np.int64) * nb + offsets[:-1] * gsize
    line_of = np.repeat(np.arange(n_lines, dtype=np.int64), counts)
    gpos = np.arange(total, dtype=np.int64) * gsize + (line_of + 1) * nb
    lengths = puzzle.lengths.astype(np.int64)
    if nb == 1:
        out[line_pos] = counts
        out[gpos] = lengths
    else:
        out[line_pos] = counts >> 8
        out[line_pos + 1] = counts & 0xFF
        out[gpos] = lengths >> 8
        out[gpos + 1] = lengths & 0xFF
    if with_colour:
        out[gpos + nb] = puzzle.colors
    return out.tobytes()


# -------------------------------------------------------- convenience layer


def loads(data: bytes | bytearray | memoryview, *, where: str = "<bytes>") -> Puzzle:
    """The puzzle of a ROFL file held in memory (see :func:`parse`)."""
    return parse(data, where=where).puzzle


def read(source: str | os.PathLike[str] | IO[bytes]) -> RoflFile:
    """Parse a ROFL file from a path or a binary file object (read whole, under :data:`MAX_FILE_BYTES`)."""
    if hasattr(source, "read"):
        where = str(getattr(source, "name", "<file>"))
        data = source.read(MAX_FILE_BYTES + 1)  # type: ignore[union-attr]
        if len(data) > MAX_FILE_BYTES:
            msg = f"{where}: larger than the {MAX_FILE_BYTES}-byte limit"
            raise LimitError(msg)
        return parse(data, where=where)
    from rofl._io import read_capped

    return parse(read_capped(source, MAX_FILE_BYTES), where=str(source))  # type: ignore[arg-type]


def load(source: str | os.PathLike[str] | IO[bytes]) -> Puzzle:
    """The puzzle of a ROFL file given by path or binary file object."""
    return read(source).puzzle


def dump(
    puzzle: Puzzle,
    target: str | os.PathLike[str] | IO[bytes],
    solution: np.ndarray | None = None,
    **options: Any,
) -> None:
    """Write a ROFL file to a path (atomically) or a binary file object; options as :func:`dumps`."""
    data = dumps(puzzle, solution, **options)
    if hasattr(target, "write"):
        target.write(data)  # type: ignore[union-attr]
        return
    from rofl._io import atomic_write

    atomic_write(Path(target), data)  # type: ignore[arg-type]


def write_bytes(
    puzzle: Puzzle,
    solution: np.ndarray | None = None,
    *,
    crc32: int | None = None,
    ancillary: Sequence[tuple[str, bytes]] = (),
) -> bytes:
    """The :func:`rofl.formats.write_puzzle` entry point: metadata and, given a
    solution (or the ``crc32`` another file stored), its CRC; ``ancillary``
    chunks as :func:`dumps`.

    Metadata from other formats is made storable instead of refused: keys
    are lower-cased with other characters turned into ``_``, NUL characters
    in values become spaces and lone surrogates (from a JSON ``\\ud800``
    escape, say) U+FFFD.
    """
    return dumps(puzzle, solution, meta=storable_meta(puzzle.meta), crc32=crc32, ancillary=ancillary)


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def storable_meta(meta: Mapping[str, str]) -> dict[str, str]:
    """``meta`` with keys and values that a ``meta`` chunk can hold (see :func:`write_bytes`)."""
    out: dict[str, str] = {}
    for key, value in meta.items():
        name = re.sub(r"[^a-z0-9_.-]", "_", str(key).lower())[:64]
        if name and not name[0].isalpha():
            name = ("m" + name)[:64]
        if name and name not in out:
            out[name] = _LONE_SURROGATE.sub("\ufffd", str(value).replace("\x00", " "))
    return out


#: How :mod:`rofl.formats` knows the format.
FORMAT = Format(
    name="ROFL",
    read=parse,
    write=write_bytes,
    colour=True,
    keeps="solution kept as its CRC-32",
    picture=False,
    carries_rofl=True,
    hexagon=True,
    color_sets=True,
)
FORMATS = (FORMAT,)


__all__ = [
    "FORMAT",
    "MAGIC",
    "MAX_CELLS",
    "MAX_FILE_BYTES",
    "SCHEMA",
    "VERSION",
    "VERSION_SHAPES",
    "Header",
    "RoflFile",
    "dump",
    "dumps",
    "load",
    "loads",
    "parse",
    "parse_header",
    "picture_crc",
    "read",
    "write_bytes",
]
