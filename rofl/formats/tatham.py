"""Saved games of Pattern, the nonogram of Simon Tatham's Portable Puzzle
Collection (``.sav``): black-and-white clues only.

Pattern runs on Windows, macOS, Linux, Android and in web browsers; its web
version downloads saved games as ``puzzle.sav`` and its "Load" loads them
back.  A saved game is a list of records, each an 8-character key padded
with spaces, a colon, the value's length in decimal, a colon, the value
and a newline (``midend_serialise`` in the collection's ``midend.c``)::

    SAVEFILE:41:Simon Tatham's Portable Puzzle Collection
    VERSION :1:1
    GAME    :7:Pattern
    PARAMS  :5:10x10
    CPARAMS :5:10x10
    DESC    :...:the clues
    NSTATES :1:1
    STATEPOS:1:1

``CPARAMS`` gives the size as ``WxH`` (a lone ``W`` means a square), and
``DESC`` is Pattern's game description (``pattern.c``), the part after the
colon of a game ID such as ``4x4:2/1/2/1/1.1/2/1/1``: the clues of the
columns from left to right, then of the rows from top to bottom, separated
by ``/``, the numbers of one clue separated by ``.``; an empty line's clue
is empty.  A ``DESC`` may end in ``,`` and a run-length list of cells given
in advance (only Pattern's picture generator writes those): rofl's puzzles
hold clues only, so such a file is refused.  Further records (``MOVE``
lines of a game in progress, ``AUXINFO``, ``UI``, ``TIME``) are read past:
rofl reads the puzzle, not the play.  The writer writes the records above,
a game not yet started; the format has no room for a title or a solution.

:func:`game_id` gives the game ID itself, which Pattern's "Game → Enter
game ID" (or the ``#`` part of its web page's address) takes.
"""

from __future__ import annotations

import re

from rofl.formats import _text
from rofl.palette import Palette
from rofl.puzzle import Puzzle

MAGIC = "Simon Tatham's Portable Puzzle Collection"
GAME = "Pattern"
#: The version of the saved-game format (``SERIALISE_VERSION``).
VERSION = "1"

_SIZE = re.compile(r"(\d+)(?:x(\d+))?")


def records(data: bytes, where: str) -> list[tuple[str, str]]:
    """The ``(key, value)`` records of a saved game, in file order.

    Raises
    ------
    FormatError
        Not a saved game of the collection, or a record that is cut short,
        has no length or holds characters other than printable ASCII (the
        message gives its place: record number and byte offset).
    """
    out: list[tuple[str, str]] = []
    at = 0
    while True:
        while at < len(data) and data[at] in b"\r\n":
            at += 1
        if at == len(data):
            break
        place = f"record {len(out) + 1} (byte {at})"
        head = data[at : at + 9]
        if len(head) < 9 or head[8:9] != b":":
            if not out:
                raise _text.fail(where, None, "not a saved game of Simon Tatham's Portable Puzzle Collection")
            raise _text.fail(where, place, "expected an 8-character key and ':'")
        key = head[:8].split(b" ")[0].split(b":")[0].decode("ascii", "replace")
        at += 9
        colon = data.find(b":", at, at + _text.MAX_DIGITS + 1)
        if colon < 0 or not data[at:colon].isdigit():
            raise _text.fail(where, place, f"the {key} record has no length")
        length = int(data[at:colon])
        at = colon + 1
        if at + length > len(data):
            raise _text.fail(where, place, f"the {key} record is cut short ({length} bytes promised)")
        raw = data[at : at + length]
        at += length
        if key != "SEED" and any(b < 32 or b >= 127 for b in raw):
            raise _text.fail(where, place, f"the {key} record holds characters other than printable ASCII")
        value = raw.decode("latin-1")
        if not out and (key != "SAVEFILE" or value != MAGIC):
            raise _text.fail(where, None, "not a saved game of Simon Tatham's Portable Puzzle Collection")
        out.append((key, value))
    if not out:
        raise _text.fail(where, None, "an empty file, not a saved game")
    return out


def loads(data: bytes | str, *, where: str = "<sav>") -> Puzzle:
    """Parse a saved game of Pattern.

    Raises
    ------
    FormatError
        Not a saved game, a game other than Pattern, another version of the
        format, no size or description, or a description that is not a
        valid puzzle (see :func:`parse_game_id`).
    """
    if isinstance(data, str):
        data = data.encode("utf-8")
    if data.startswith(b"\xef\xbb\xbf"):  # a byte-order mark an editor added
        data = data[3:]
    found: dict[str, str] = {}
    for key, value in records(data, where):
        found[key] = value  # the last of a repeated key counts, as in Pattern
    if found.get("VERSION", VERSION) != VERSION:
        raise _text.fail(where, None, f"saved-game format version {found['VERSION'][:20]!r}; rofl reads version 1")
    game = found.get("GAME")
    if game != GAME:
        what = f"a saved game of {game[:40]!r}" if game else "a saved game with no GAME record"
        raise _text.fail(where, None, f"{what}, not of {GAME} (the collection's nonogram)")
    params = found.get("CPARAMS", found.get("PARAMS"))
    if params is None:
        raise _text.fail(where, None, "no CPARAMS record: the puzzle's size is missing")
    desc = found.get("PRIVDESC", found.get("DESC"))
    if desc is None:
        raise _text.fail(where, None, "no DESC record: the puzzle's clues are missing")
    return parse_game_id(f"{params}:{desc}", where=where)


def parse_game_id(text: str, *, where: str = "<game id>") -> Puzzle:
    """The puzzle of a Pattern game ID, ``WxH:clues`` (see the module's text).

    Raises
    ------
    FormatError
        A size that is not ``W`` or ``WxH``, a character other than digits,
        ``.`` and ``/``, more or fewer clues than columns and rows, a
        number 0 among other numbers, cells given in advance, or clues that
        do not fit their lines.
    """
    params, sep, desc = text.strip().partition(":")
    if not sep:
        raise _text.fail(where, None, "a Pattern game ID is WxH:clues; no ':' found")
    m = _SIZE.fullmatch(params)
    if m is None:
        raise _text.fail(where, "the size", f"expected W or WxH, not {params[:40]!r}")
    width = _text.size(m.group(1), where, "the size", "width")
    height = _text.size(m.group(2) or m.group(1), where, "the size", "height")
    if "," in desc:
        raise _text.fail(
            where, None, "the description gives some cells in advance (after ','); rofl's puzzles hold clues only"
        )
    bad = re.search(r"[^0-9./]", desc)
    if bad:
        raise _text.fail(where, f"description character {bad.start() + 1}", f"unexpected {bad.group()!r}")
    parts = desc.split("/")
    if len(parts) != width + height:
        raise _text.fail(
            where, None, f"{len(parts)} clues where a {width}x{height} puzzle has {width + height} (columns, then rows)"
        )
    clues = []
    for i, part in enumerate(parts):
        place = f"column {i + 1}" if i < width else f"row {i - width + 1}"
        if part == "":
            clues.append([])
            continue
        lengths = [_text.number(t, where, place, "block length") for t in part.split(".")]
        if lengths == [0]:
            clues.append([])
            continue
        if 0 in lengths:
            raise _text.fail(where, place, "a block of length 0 (only a lone 0 marks an empty line)")
        clues.append([(n, 1) for n in lengths])
    return _text.build(width, height, Palette.black_white(), clues[width:], clues[:width], None, where)


def game_id(puzzle: Puzzle) -> str:
    """The Pattern game ID of a black-and-white puzzle, e.g. ``"4x4:2/1/2/1/1.1/2/1/1"``.

    Raises
    ------
    FormatError
        A puzzle with more than two colours.
    """
    _text.check_writable(puzzle, None, FORMAT.extension, colours=False)
    clues = (".".join(str(n) for n, _ in clue) for clue in (*puzzle.cols, *puzzle.rows))
    return f"{puzzle.width}x{puzzle.height}:" + "/".join(clues)


def dumps(puzzle: Puzzle) -> str:
    """A saved game of Pattern holding ``puzzle``, not yet started."""
    size, desc = game_id(puzzle).split(":", 1)
    fields = [
        ("SAVEFILE", MAGIC),
        ("VERSION", VERSION),
        ("GAME", GAME),
        ("PARAMS", size),
        ("CPARAMS", size),
        ("DESC", desc),
        ("NSTATES", "1"),
        ("STATEPOS", "1"),
    ]
    return "".join(f"{key:<8}:{len(value)}:{value}\n" for key, value in fields)


#: How :mod:`rofl.formats` knows the format.
FORMAT = _text.clue_format("Tatham's Pattern .sav", loads, dumps)
FORMATS = (FORMAT,)
