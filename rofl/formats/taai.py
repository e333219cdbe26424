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
from collections.abc import Iterator

import numpy as np

from rofl.errors import PuzzleError
from rofl.formats import _limits, _text
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


# an answer's row: N cells 0 or 1 (counted apart); a clue line of plain
# numbers, none of them 0 (a lone 0 is an empty line), each of fewer than
# ten digits: both checked in C, a line at a time, not a number at a time
_BITS = re.compile(r"[\s,]*[01](?:[\s,]+[01])*[\s,]*")
_PLAIN_CLUE = re.compile(r"[\s,]*(?:[1-9][0-9]{0,8}(?:[\s,]+|\Z))*")


def _is_picture(lines: list[tuple[int, str]]) -> bool:
    """Whether the block is an ``N x N`` 0/1 picture (an answer)."""
    n = len(lines)
    return all(
        _BITS.fullmatch(content) is not None and content.count("0") + content.count("1") == n for _, content in lines
    )


def _picture(lines: list[tuple[int, str]]) -> np.ndarray:
    """The answer block (:func:`_is_picture`) as its ``(N, N)`` uint8 picture."""
    digits = "".join(c for _, content in lines for c in content if c in "01")
    n = len(lines)
    return (np.frombuffer(digits.encode("ascii"), dtype=np.uint8) - ord("0")).reshape(n, n)


def _check_block(label: int, at: int, lines: list[tuple[int, str]], where: str) -> bool:
    """Check a block without building its puzzle, and say whether it is an
    answer: it has lines, an answer's or an even count of them (the
    columns, then the rows), a side within rofl's limits, and clue lines
    that read as block lengths (their sums are checked when it is built).

    Raises
    ------
    FormatError
        What is wrong, naming the line.
    """
    if not lines:
        raise _text.fail(where, at, f"puzzle ${label} has no lines")
    if _is_picture(lines):
        return True
    if len(lines) % 2:
        msg = (
            f"puzzle ${label} has {len(lines)} lines: a puzzle of N x N has 2N clue lines (the columns, then "
            "the rows; write 0 for an empty line), an answer N lines of N cells 0 or 1"
        )
        raise _text.fail(where, at, msg)
    n = len(lines) // 2
    if n > _text.MAX_SIDE:
        raise _text.fail(where, at, f"puzzle ${label}: {n} columns is larger than rofl's limit ({_text.MAX_SIDE})")
    _limits.check_cells(n, n, f"{where}: ${label}")
    for number, content in lines:
        if content not in ("", "0") and _PLAIN_CLUE.fullmatch(content) is None:
            _text.bw_clue(content, where, number)  # its error names the line; leading zeros pass
    return False


def _clue_arrays(lines: list[tuple[int, str]], where: str) -> tuple[np.ndarray, np.ndarray]:
    """The flat block lengths and the offsets of the clue ``lines`` (``(line
    number, text)``), as :meth:`Puzzle.from_arrays` takes them.

    The lines of plain numbers (every tournament's) are read in bulk, any
    other by :func:`rofl.formats._text.bw_clue`: a 2048 x 2048 puzzle of
    dense clues reads in a tenth of the time it took a group at a time."""
    lengths: list[int] = []
    offsets = [0]
    for number, content in lines:
        if content in ("", "0"):
            pass
        elif _PLAIN_CLUE.fullmatch(content):
            lengths.extend(map(int, content.replace(",", " ").split()))
        else:
            lengths.extend(n for n, _ in _text.bw_clue(content, where, number))
        offsets.append(len(lengths))
    return np.array(lengths, dtype=np.int64), np.array(offsets, dtype=np.int64)


def _build(label: int, lines: list[tuple[int, str]], answer: bool, where: str) -> tuple[Puzzle, np.ndarray | None]:
    """The puzzle of a block :func:`_check_block` passed, and its picture when it is an answer."""
    meta = {"id": str(label)}
    if answer:
        picture = _picture(lines)
        return Puzzle.from_grid(picture, Palette.black_white(), meta=meta), picture
    n = len(lines) // 2
    lengths, offsets = _clue_arrays([*lines[n:], *lines[:n]], where)  # rows first, as a Puzzle keeps them
    try:
        return Puzzle.from_arrays(n, n, Palette.black_white(), lengths, np.ones_like(lengths), offsets, meta=meta), None
    except PuzzleError as exc:
        place = f"{where}: ${label}"
        raise _text.fail(place, None, str(exc)) from None


def _read(data: bytes, where: str) -> dict[int, tuple[int, list[tuple[int, str]]]]:
    blocks = _blocks(_text.decode(data, where), where)
    if not blocks:
        raise _text.fail(where, None, "no puzzle (a TAAI file is '$1' and its clue lines, then '$2'...)")
    return blocks


def read_bytes(data: bytes, *, where: str = "<taai>", number: int | None = None) -> tuple[Puzzle, np.ndarray | None]:
    """The :mod:`rofl.formats` reader: the puzzle labelled
    ``$number``, or the only one when ``number`` is None.

    Raises
    ------
    FormatError
        A malformed file or block (the message names the line), no puzzle
        ``$number``, or several puzzles and no ``number``.
    """
    blocks = _read(data, where)
    label, at, lines = _text.pick_numbered({k: (k, *v) for k, v in blocks.items()}, number, where, "$")
    return _build(label, lines, _check_block(label, at, lines, where), where)


def iter_all(data: bytes, *, where: str = "<taai>") -> Iterator[tuple[int, Puzzle]]:
    """Every puzzle of ``data`` with its label, in file order (a tournament's
    questions, for ``rofl bench``; answer blocks read as their puzzles),
    each built only when it is asked for.

    The file is checked whole first, when this is called (labels, lines,
    sizes, every number), so a malformed file is refused before any puzzle
    is solved; a puzzle is built as it is reached and let go after, so a
    file of many large puzzles never holds them all (a 30 MB file of 63
    puzzles of 2048 x 2048 held 240 MB and took 20 s to read before its
    first answer, session 10).  Only the sums of a puzzle's clues are
    checked as it is built: a puzzle whose rows and columns disagree is a
    FormatError when it is reached.

    Raises
    ------
    FormatError
        A malformed file or block (the message names the line), or no puzzle.
    """
    blocks = _read(data, where)
    answers = {label: _check_block(label, at, lines, where) for label, (at, lines) in blocks.items()}
    return ((label, _build(label, lines, answers[label], where)[0]) for label, (_, lines) in blocks.items())


def read_all(data: bytes, *, where: str = "<taai>") -> list[tuple[int, Puzzle]]:
    """:func:`iter_all`, every puzzle built at once.

    Raises
    ------
    FormatError
        A malformed file or block (the message names the line), or no puzzle.
    """
    return list(iter_all(data, where=where))


#: How :mod:`rofl.formats` knows the format (read only; a ``.txt`` is no
#: name to claim, so it is found by its content).
FORMAT = Format(name="TAAI tournament file", read=read_bytes, many=True)
FORMATS = (FORMAT,)
