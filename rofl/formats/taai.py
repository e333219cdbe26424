"""The tournament files of the computer-olympiad nonogram contests (read only).

The nonogram tournaments of TAAI, TCGA and the ICGA Computer Olympiad give
the programs one text file of many puzzles (1000 a year, each 25x25); the
recorded sets are in ``zxkyjimmy/NonogramRecord`` (``question/*.txt``, the
answers in ``solution/*.txt``)::

    $1
    2<TAB>4<TAB>1<TAB>1          column 1, top to bottom
    ...                          the N columns, then the N rows (left to right)
    $2
    ...

Reading
    A puzzle starts at a line ``$L`` (``L`` its label, a positive number,
    unique in the file).  A block of ``2N`` lines is an ``N x N`` puzzle: the
    ``N`` column clues, then the ``N`` row clues, numbers separated by tabs,
    spaces or commas, ``0`` (or a blank line) for an empty line.  A block of
    ``N`` lines of ``N`` cells that are all ``0`` or ``1`` is an answer (the
    solution files): it reads as the puzzle of that picture, with the
    picture as its solution.  Blank lines at the end of a block are dropped.
    The tournaments ask for any one solution, so many puzzles have several.

Several puzzles in a file
    A file of one puzzle reads as that puzzle.  Of a file of several, the
    commands read the one named ``FILE#L`` (``taai2016.txt#250``: the block
    ``$250``); :func:`read_bytes` takes ``number=L``.
"""

from __future__ import annotations

import re

import numpy as np

from rofl.formats import _text
from rofl.formats._format import Format
from rofl.palette import Palette
from rofl.puzzle import Puzzle

_LABEL = re.compile(r"\$(\S*)")


def looks_like(data: bytes) -> bool:
    """Whether ``data`` starts (after a byte-order mark and white space) with a ``$1``-style label line."""
    head = data.lstrip(b"\xef\xbb\xbf \t\r\n")[:24]
    return re.match(rb"\$[0-9]+[ \t]*(\r?\n|$)", head) is not None


def _blocks(text: str, where: str) -> dict[int, tuple[int, list[tuple[int, str]]]]:
    """Label -> (line of the label, [(line number, text)...]) for every block."""
    blocks: dict[int, tuple[int, list[tuple[int, str]]]] = {}
    current: list[tuple[int, str]] | None = None
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        found = _LABEL.fullmatch(stripped)
        if found:
            label = _text.number(found.group(1), where, number, "puzzle label")
            if label < 1:
                raise _text.fail(where, number, "a puzzle label is a number from 1 up, not 0")
            if label in blocks:
                raise _text.fail(where, number, f"a second puzzle labelled ${label} (line {blocks[label][0]})")
            current = []
            blocks[label] = (number, current)
        elif current is not None:
            current.append((number, stripped))
        elif stripped:
            raise _text.fail(where, number, f"expected a '$1' label line, not {stripped[:40]!r}")
    for _, lines in blocks.values():
        while lines and not lines[-1][1]:
            lines.pop()
    return blocks


def labels(data: bytes, *, where: str = "<taai>") -> list[int]:
    """The labels of the puzzles in ``data``, in file order."""
    return list(_blocks(_text.decode(data, where), where))


def _picture(lines: list[tuple[int, str]], where: str) -> np.ndarray | None:
    """The block as an ``N x N`` 0/1 picture, or None when it is not one."""
    n = len(lines)
    rows = []
    for _, content in lines:
        cells = [t for t in _text.BW_SEPARATORS.split(content) if t]
        if len(cells) != n or any(c not in ("0", "1") for c in cells):
            return None
        rows.append([c == "1" for c in cells])
    return np.array(rows, dtype=np.uint8)


def _puzzle(label: int, at: int, lines: list[tuple[int, str]], where: str) -> tuple[Puzzle, np.ndarray | None]:
    here = f"{where}: ${label}"
    if not lines:
        raise _text.fail(where, at, f"puzzle ${label} has no lines")
    picture = _picture(lines, here)
    if picture is not None:
        return Puzzle.from_grid(picture, Palette.black_white(), meta={"id": str(label)}), picture
    if len(lines) % 2:
        msg = (
            f"puzzle ${label} has {len(lines)} lines: a puzzle of N x N has 2N clue lines (the columns, then "
            "the rows; write 0 for an empty line), an answer N lines of N cells 0 or 1"
        )
        raise _text.fail(where, at, msg)
    n = len(lines) // 2
    if n > _text.MAX_SIDE:
        raise _text.fail(where, at, f"puzzle ${label}: {n} columns is larger than rofl's limit ({_text.MAX_SIDE})")
    clues = [_text.bw_clue(content, where, number) for number, content in lines]
    puzzle = _text.build(n, n, Palette.black_white(), clues[n:], clues[:n], {"id": str(label)}, here)
    return puzzle, None


def read_bytes(data: bytes, *, where: str = "<taai>", number: int | None = None) -> tuple[Puzzle, np.ndarray | None]:
    """The :mod:`rofl.formats` reader: the puzzle labelled
    ``$number``, or the only one when ``number`` is None.

    Raises
    ------
    FormatError
        A malformed file or block (the message names the line), no puzzle
        ``$number``, or several puzzles and no ``number``.
    """
    blocks = _blocks(_text.decode(data, where), where)
    if not blocks:
        raise _text.fail(where, None, "no puzzle (a TAAI file is '$1' and its clue lines, then '$2'...)")
    label, at, lines = _text.pick_numbered({k: (k, *v) for k, v in blocks.items()}, number, where, "$")
    return _puzzle(label, at, lines, where)


def read_all(data: bytes, *, where: str = "<taai>") -> list[tuple[int, Puzzle]]:
    """Every puzzle of ``data`` with its label, in file order (a tournament's
    questions, for ``rofl bench``; answer blocks read as their puzzles).

    Raises
    ------
    FormatError
        A malformed file or block (the message names the line), or no puzzle.
    """
    blocks = _blocks(_text.decode(data, where), where)
    if not blocks:
        raise _text.fail(where, None, "no puzzle (a TAAI file is '$1' and its clue lines, then '$2'...)")
    return [(label, _puzzle(label, at, lines, where)[0]) for label, (at, lines) in blocks.items()]


#: How :mod:`rofl.formats` knows the format (read only; a ``.txt`` is no
#: name to claim, so it is found by its content).
FORMAT = Format(name="TAAI tournament file", read=read_bytes, many=True)
FORMATS = (FORMAT,)
