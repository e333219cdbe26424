"""Gnonograms' puzzle files (``.gno``), checked against a re-implementation of
its reader (GLib key files)."""

from __future__ import annotations

import re

import numpy as np
from hypothesis import example, given, settings
from hypothesis import strategies as st

from rofl.formats import gnonograms, read_puzzle
from rofl.puzzle import Puzzle
from tests.formats.textcases import BW, DATA, HOUSE, bw_grids, house_puzzle, read


def glib_unescape(text: str) -> str | None:
    """``g_uri_unescape_string(text, NULL)``: %XX sequences decoded as UTF-8
    bytes; None for a '%' not followed by two hex digits or an escaped NUL."""
    out = bytearray()
    at = 0
    raw = text.encode("utf-8")
    while at < len(raw):
        if raw[at : at + 1] == b"%":
            pair = raw[at + 1 : at + 3]
            if len(pair) < 2 or not all(chr(b) in "0123456789abcdefABCDEF" for b in pair) or pair == b"00":
                return None
            out.append(int(pair, 16))
            at += 3
        else:
            out.append(raw[at])
            at += 1
    return out.decode("utf-8", "replace")


def gnonograms_read(text: str) -> dict:
    """Gnonograms' own reading of a file, as ``Filereader.vala`` does it
    (``parse_gnonogram_game_file``: read up to '[', then heading up to ']'
    and body up to '[' in turn; headings matched by their first three
    letters; ``remove_blank_lines``; clue lines split at ',' and ' ' with
    the remaining space checked; cell states parsed and clamped) and
    ``Controller.load_common`` (its size limits, the solution preferred to
    the clues).  Raises AssertionError where Gnonograms reports an error."""
    at = text.index("[") + 1
    headings, bodies = [], []
    while True:
        end = text.find("]", at)
        headings.append(text[at:] if end < 0 else text[at:end])
        if end < 0:
            break
        at = end + 1
        end = text.find("[", at)
        bodies.append(text[at:] if end < 0 else text[at:end])
        if end < 0:
            break
        at = end + 1
        if headings[-1] == "" or bodies[-1] == "":
            break
    assert len(headings) >= 3 and len(headings) == len(bodies)

    def lines(body):
        return [s for s in body.split("\n") if s != ""]

    def numbers(line):
        return [int(t) for t in re.split("[, ]", line) if t != ""]

    def clue(line, maxblock):
        blocks, zero_count, remaining = [], 0, maxblock
        for b in numbers(line):
            if b == 0 and zero_count > 0:
                continue
            zero_count += 1
            assert 0 <= b <= remaining, "Invalid clue"
            blocks.append(b)
            if b > 0:
                remaining -= b + 1
        return blocks

    got: dict = {"name": "", "difficulty": 99}
    for heading, body in zip(headings, bodies, strict=True):
        key = heading[:3].upper()
        if key == "DIM":
            s = lines(body)
            assert len(s) == 2, "Wrong number of dimensions"
            got["rows"], got["cols"] = int(s[0]), int(s[1])
        elif key in ("ROW", "COL"):
            got[key] = [clue(line, got["cols"] if key == "ROW" else got["rows"]) for line in lines(body)]
        elif key == "SOL":
            grid = [[min(max(v, 0), 4) for v in numbers(line)] for line in lines(body)]
            assert len(grid) == got["rows"] and all(len(row) == got["cols"] for row in grid)
            assert all(v in (1, 2) for row in grid for v in row), "Invalid cell state"
            got["solution"] = grid
        elif key == "DES":
            s = lines(body)
            got["name"] = glib_unescape(s[0]) if s else ""
            grade = s[2].strip() if len(s) >= 3 else ""
            got["difficulty"] = int(grade) if len(grade) == 1 and grade.isdigit() else 99
        elif key == "LOC":
            got["locked"] = lines(body)[0].lower() == "true"
    assert len(got.get("ROW", [])) in (0, got["rows"]) and len(got.get("COL", [])) in (0, got["cols"])
    assert got.get("solution") or ("ROW" in got and "COL" in got), "Clues missing"
    return got


@settings(deadline=None, max_examples=200)
@given(grid=bw_grids(), title=st.text(max_size=12), author=st.text(max_size=6), licence=st.text(max_size=6))
@example(grid=np.zeros((1, 1), dtype=np.uint8), title=" ", author="0", licence="")  # a blank title
def test_gnonograms_reads_what_the_writer_writes(grid, title, author, licence):
    """Gnonograms' own parsing (transliterated) of the writer's file gives
    the picture, the clues and the title back; rofl reads its metadata back."""
    meta = {"title": title, "author": author, "licence": licence}
    puzzle = Puzzle.from_grid(grid, BW, meta=meta)
    data = gnonograms.FORMAT.write(puzzle, grid)
    got = gnonograms_read(data.decode("utf-8"))
    assert (got["rows"], got["cols"]) == grid.shape
    assert np.array_equal(np.array(got["solution"]) == 2, grid)
    assert got["ROW"] == [[n for n, _ in line] or [0] for line in puzzle.rows]
    assert got["COL"] == [[n for n, _ in line] or [0] for line in puzzle.cols]
    # the name is written on one line and unescaped back (line ends and
    # other control characters aside, which no name needs)
    stripped = title.strip()
    if stripped and all(ch.isprintable() for ch in stripped):
        assert got["name"] == stripped
    assert got["difficulty"] == 99 and got["locked"]  # not graded; Save asks for a new file
    back, solution = read(gnonograms, data)
    assert back == puzzle and np.array_equal(solution, grid)
    for key, value in meta.items():
        if value.strip() and all(ch.isprintable() for ch in value.strip()):
            assert back.meta[key] == value.strip(), key


def test_gnonograms_house_sample_metadata_and_progress():
    puzzle, grid = read_puzzle(DATA / "house.gno")
    # no author line (blank), so the date comes second; the game's progress is read past
    assert dict(puzzle.meta) == {"title": "House", "date": "2026-11-23T10:15:00+01", "licence": "CC0-1.0"}
    got = gnonograms_read((DATA / "house.gno").read_text())
    assert got["name"] == "House" and got["difficulty"] == 1 and not got["locked"]


def test_gnonograms_description_forms():
    clues = "[Dimensions]\n1\n1\n[Row clues]\n1\n[Column clues]\n1\n"
    four = read(gnonograms, "[Description]\nMeaning of life\nFido\n2010/06/27\n4\n" + clues)[0]
    assert dict(four.meta) == {"title": "Meaning of life", "author": "Fido", "date": "2010/06/27"}
    untitled = read(gnonograms, "[description]\nUntitled\n\n2026-01-01\n99\n" + clues)[0]
    assert dict(untitled.meta) == {"date": "2026-01-01"}
    escaped = read(gnonograms, "[Description]\n100%25 %5Bsure%5D\n" + clues)[0]
    assert escaped.meta["title"] == "100% [sure]"
    # no description at all; a repeated section: the last counts, as in Gnonograms
    repeated = "[Dimensions]\n1\n1\n[Row clues]\n0\n[Column clues]\n1\n[Row clues]\n1\n"
    assert read(gnonograms, repeated)[0] == Puzzle.from_grid(np.ones((1, 1), dtype=np.uint8), BW)


def test_gnonograms_solution_alone_gives_the_clues():
    puzzle, grid = read(gnonograms, "[Dimensions]\n8\n7\n[Solution]\n" + gnonograms_rows(HOUSE))
    assert puzzle == house_puzzle() and np.array_equal(grid, HOUSE)


def gnonograms_rows(grid) -> str:
    return "".join(" ".join("2" if v else "1" for v in row) + " \n" for row in grid)


def test_gnonograms_writer_form(monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")  # 2026-01-01
    text = gnonograms.FORMAT.write(house_puzzle()).decode()
    assert text.startswith("[Description]\nUntitled\n\n2026-01-01\n99\n[Dimensions]\n8\n7\n[Row clues]\n1\n3\n")
    assert "2, 2\n" in text and "\n0\n" in text and "[Solution grid]" not in text
    assert text.endswith("[Locked]\ntrue\n")
    assert gnonograms.FORMAT.write(house_puzzle()) == gnonograms.FORMAT.write(house_puzzle())
    blank = Puzzle.from_grid(HOUSE, BW, meta={"title": " \t", "date": " "})  # blanks would shift the lines
    assert gnonograms.FORMAT.write(blank).decode().startswith("[Description]\nUntitled\n\n2026-01-01\n99\n")


def test_gnonograms_file_is_found_by_its_content(tmp_path):
    path = tmp_path / "puzzle.txt"
    path.write_bytes(gnonograms.FORMAT.write(house_puzzle(), HOUSE))
    puzzle, grid = read_puzzle(path)
    assert puzzle == house_puzzle() and np.array_equal(grid, HOUSE)
