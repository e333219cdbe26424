"""Saved games of Tatham's Pattern (``.sav``), checked against a re-implementation
of Pattern's own reader of game IDs and save files."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings

from rofl.errors import FormatError
from rofl.formats import read_puzzle, tatham
from rofl.puzzle import Puzzle
from tests.formats.textcases import BW, DATA, FLAG, FLAG_PALETTE, bw_grids, house_puzzle


def pattern_new_game(params: str, desc: str) -> tuple[int, int, list[list[int]]]:
    """Pattern's own reading of a size and a description, line for line as
    ``decode_params``, ``validate_desc`` and ``new_game`` in ``pattern.c``
    do it (a C string walked with a pointer): ``(w, h, rowdata)``, columns
    first.  Raises AssertionError where ``validate_desc`` returns an error."""
    digits = re.match(r"\d*", params).group()
    w = int(digits or 0)
    rest = params[len(digits) :]
    h = int(re.match(r"\d*", rest[1:]).group() or 0) if rest.startswith("x") else w
    assert w > 0 and h > 0
    s = desc + "\0"
    at = 0
    rowdata: list[list[int]] = []
    for i in range(w + h):
        rowspace = h + 1 if i < w else w + 1
        data: list[int] = []
        if s[at].isdigit():
            while True:
                start = at
                while s[at].isdigit():
                    at += 1
                n = int(s[start:at])
                rowspace -= n + 1
                assert rowspace >= 0, "more numbers than will fit"
                data.append(n)
                at += 1
                if s[at - 1] != ".":
                    break
        else:
            at += 1  # expect a slash immediately
        end = s[at - 1]
        if end == "/":
            assert i + 1 < w + h, "too many row/column specifications"
        elif end in ("\0", ","):
            assert i + 1 == w + h, "too few row/column specifications"
        else:
            pytest.fail("unrecognised character in game specification")
        rowdata.append(data)
    assert s[at - 1] == "\0"  # no clue squares after a ','
    return w, h, rowdata


def midend_records(data: bytes) -> list[tuple[str, str]]:
    """The records of a saved game as ``midend_deserialise_internal`` reads
    them: newlines skipped, an 8-byte key ending at ':' or ' ', ':', a
    decimal length, ':', exactly that many bytes."""
    out, at = [], 0
    while at < len(data):
        while at < len(data) and data[at : at + 1] in (b"\r", b"\n"):
            at += 1
        if at == len(data):
            break
        key = data[at : at + 9]
        assert key[8:9] == b":"
        name = re.match(rb"[^: ]*", key[:8]).group().decode()
        at += 9
        length = 0
        while data[at : at + 1] != b":":
            assert data[at : at + 1].isdigit()
            length = length * 10 + int(data[at : at + 1])
            at += 1
        value = data[at + 1 : at + 1 + length]
        assert len(value) == length and all(32 <= b < 127 for b in value)
        out.append((name, value.decode()))
        at += 1 + length
    return out


@settings(deadline=None, max_examples=200)
@given(grid=bw_grids())
def test_pattern_reads_what_the_writer_writes(grid):
    """Pattern's own parsing (transliterated) of every record and of the
    description the writer produces gives the puzzle's clues back."""
    puzzle = Puzzle.from_grid(grid, BW)
    fields = dict(midend_records(tatham.FORMAT.write(puzzle)))
    assert midend_records(tatham.FORMAT.write(puzzle))[0] == ("SAVEFILE", tatham.MAGIC)
    assert fields["VERSION"] == "1" and fields["GAME"] == "Pattern"
    assert fields["NSTATES"] == "1" and fields["STATEPOS"] == "1"  # a game not yet started
    assert fields["PARAMS"] == fields["CPARAMS"] == f"{puzzle.width}x{puzzle.height}"
    w, h, rowdata = pattern_new_game(fields["CPARAMS"], fields["DESC"])
    assert (w, h) == (puzzle.width, puzzle.height)
    want = [[n for n, _ in clue] for clue in (*puzzle.cols, *puzzle.rows)]
    assert rowdata == want
    assert tatham.game_id(puzzle) == f"{fields['CPARAMS']}:{fields['DESC']}"


def test_pattern_sources_own_game_id():
    # pattern.c's comment gives this puzzle (Bella Image's): unique, but no
    # single row or column starts it
    from rofl.solver import solve
    from rofl.solver.search import solve_complete

    puzzle = tatham.parse_game_id("4x4:2/1/2/1/1.1/2/1/1")
    assert [[n for n, _ in c] for c in puzzle.cols] == [[2], [1], [2], [1]]
    assert [[n for n, _ in c] for c in puzzle.rows] == [[1, 1], [2], [1], [1]]
    assert solve(puzzle).status == "stalled"
    assert solve_complete(puzzle).status == "unique"
    # a lone W is a square; a lone 0 is an empty line, as in Pattern
    assert tatham.parse_game_id("2:0/2/1/1") == Puzzle.from_grid(np.array([[0, 1], [0, 1]], dtype=np.uint8), BW)
    with pytest.raises(FormatError, match="no ':' found"):
        tatham.parse_game_id("4x4")
    with pytest.raises(FormatError, match="black-and-white puzzles only"):
        tatham.game_id(Puzzle.from_grid(FLAG, FLAG_PALETTE))


def test_pattern_save_file_is_found_by_its_content(tmp_path):
    path = tmp_path / "puzzle.txt"
    path.write_bytes((DATA / "house.sav").read_bytes())
    assert read_puzzle(path)[0] == house_puzzle()
