"""No command destroys an input: an output that is the same file as an input
(the same name, a symlink, ``FILE#N`` of a book) is refused before any work,
and the input is left byte for byte as it was."""

from __future__ import annotations

import os
import shutil

import numpy as np
import pytest
from PIL import Image

from rofl.formats import open_puzzle, write_puzzle
from rofl.puzzle import Palette, Puzzle
from tests.clirun import one_error_line, run, usage_error_line

GRID = np.array([[1, 0, 1], [1, 1, 1], [0, 1, 0]], np.uint8)


@pytest.fixture
def files(tmp_path):
    Image.fromarray((1 - GRID) * 255).convert("L").save(tmp_path / "s.png")
    puzzle = Puzzle.from_grid(GRID, Palette.black_white(), meta={"title": "t"})
    write_puzzle(tmp_path / "meta.rofl", puzzle, GRID)
    assert run("sheet", tmp_path / "meta.rofl", "-o", tmp_path / "sheet.png").exit_code == 0
    assert run("sheet", tmp_path / "meta.rofl", tmp_path / "meta.rofl", "-o", tmp_path / "book.pdf").exit_code == 0
    os.symlink(tmp_path / "s.png", tmp_path / "link.png")
    os.symlink(tmp_path / "meta.rofl", tmp_path / "meta.html")
    return tmp_path


CASES = [
    ("encode {d}/s.png -o {d}/s.rofl", None),  # control: allowed
    ("encode {d}/s.png -o {d}/link.rofl", None),
    ("decode {d}/sheet.png -o {d}/sheet.png", "sheet.png"),
    ("decode {d}/meta.rofl -o {d}/meta.rofl", "meta.rofl"),
    ("solve {d}/s.png --first {d}/s.png", "s.png"),
    ("solve {d}/meta.rofl --first {d}/meta.rofl", "meta.rofl"),
    ("sheet {d}/book.pdf#2 -o {d}/book.pdf", "book.pdf"),
    ("make {d}/s.png -o {d}/x.rofl --preview {d}/s.png --width 3", "s.png"),
    ("make {d}/s.png -o {d}/x.rofl --preview {d}/link.png --width 3", "s.png"),
    ("page {d}/meta.rofl -o {d}/meta.html", "meta.rofl"),
    ("convert {d}/meta.rofl {d}/meta.rofl", "meta.rofl"),
]


@pytest.mark.parametrize(("command", "victim"), [c for c in CASES if c[1]], ids=lambda c: str(c))
def test_an_output_that_is_an_input_is_refused(files, command, victim):
    before = {p.name: p.read_bytes() for p in files.iterdir() if p.is_file()}
    args = command.format(d=files).split()
    result = run(*args)
    if args[0] == "solve":
        # status 2 is also rofl solve's "no solution": the usage banner tells them apart
        assert result.exit_code == 2 and "Usage: " in result.output and "is the input" in result.output
    else:
        usage_error_line(result, "is the input", victim)
    after = {p.name: p.read_bytes() for p in files.iterdir() if p.is_file()}
    assert after == before


def test_convert_force_rewrites_in_place(files):
    result = run("convert", files / "meta.rofl", files / "meta.rofl", "--force")
    assert result.exit_code == 0, result.output
    assert open_puzzle(files / "meta.rofl").metadata["title"] == "t"


def test_encode_refuses_a_name_that_is_not_rofl(files):
    shutil.copy(files / "s.png", files / "t.png")
    before = (files / "t.png").read_bytes()
    usage_error_line(run("encode", files / "s.png", "-o", files / "t.png"), ".rofl")
    usage_error_line(run("encode", files / "t.png", "-o", files / "t.png"), ".rofl")
    assert (files / "t.png").read_bytes() == before


def test_convert_to_rofl_derives_the_crc_by_line_logic(tmp_path):
    puzzle = Puzzle.from_grid(GRID, Palette.black_white())
    write_puzzle(tmp_path / "x.nin", puzzle)
    result = run("convert", tmp_path / "x.nin", tmp_path / "y.rofl")
    assert result.exit_code == 0, result.output
    assert "CRC-32 of the solution added (line logic finds it)" in result.output
    assert open_puzzle(tmp_path / "y.rofl").crc32 is not None


def test_a_full_disk_names_the_file(files, monkeypatch):
    import errno

    import rofl._io

    real = rofl._io.os.fsync

    def full(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(rofl._io.os, "fsync", full)
    out = files / "full.rofl"
    line = one_error_line(run("convert", files / "meta.rofl", out), str(out), "No space left on device")
    assert line
    monkeypatch.setattr(rofl._io.os, "fsync", real)
    assert not out.exists() and not list(files.glob(".full.rofl.*"))


@pytest.mark.parametrize("command", ["info", "decode", "solve", "sheet"])
def test_a_budget_of_nan_is_a_usage_error(files, command):
    from tests.clirun import usage_error_line

    extra = ["-o", files / "o.png"] if command in ("decode", "sheet") else []
    usage_error_line(run(command, files / "meta.rofl", *extra, "--budget", "nan"), "--budget")


# ---- every output of every command, batches included (issue 40, defects 1-3)


def _snapshot(folder):
    return {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@pytest.fixture
def more(files):
    write_puzzle(files / "p.json", Puzzle.from_grid(GRID, Palette.black_white()), GRID)
    (files / "sol").mkdir()
    shutil.copy(files / "sheet.png", files / "sol" / "solution-1.png")
    (files / "pics").mkdir()
    shutil.copy(files / "s.png", files / "pics" / "summary.png")
    shutil.copy(files / "s.png", files / "pics" / "other.png")
    (files / "out").mkdir()
    (files / "out" / "summary.csv").write_text("my own spreadsheet\n")
    return files


MORE = [
    # the table named as one of the puzzles: read as a puzzle, then replaced
    ("bench {d}/p.json {d}/meta.rofl -o {d}/p.json -q", ("is the input", "p.json")),
    # a puzzle file (not a table bench wrote) in the place of the table
    ("bench {d}/meta.rofl -o {d}/p.json -q", ("not a table rofl bench wrote",)),
    ("bench {d} -o {d}/p.json -q", ("not a table rofl bench wrote",)),
    # a sheet read, and the first solution's picture written over it
    ("solve {d}/sol/solution-1.png --solutions {d}/sol", ("is the input", "solution-1.png")),
    # a picture whose puzzle would be the batch's summary
    ("make {d}/pics -o {d}/new/ -f json -w 3", ("summary.png", "summary")),
    # a summary.csv of someone else's in the output folder
    ("make {d}/pics/other.png {d}/s.png -o {d}/out/ -w 3", ("not a table rofl make wrote",)),
    # two outputs of one command to one file
    ("make {d}/s.png -o {d}/x.rofl --preview {d}/a.png --compare {d}/a.png --width 3", ("name one file",)),
    ("hide hello -o {d}/h.rofl --sheet {d}/h.png --sheet {d}/h.png", None),  # the last --sheet wins: allowed
    ("solve {d}/meta.rofl --first {d}/g.gif --gif {d}/g.gif", ("name one file",)),
]


@pytest.mark.parametrize(("command", "words"), MORE, ids=lambda c: str(c))
def test_no_output_replaces_an_input_or_another_output(more, command, words):
    before = _snapshot(more)
    args = command.format(d=more).split()
    result = run(*args)
    if words is None:
        assert result.exit_code == 0, result.output
        return
    if args[0] == "solve":
        assert result.exit_code == 2 and "Usage: " in result.output, result.output
        assert all(word in result.output for word in words), result.output
    else:
        usage_error_line(result, *words)
    assert _snapshot(more) == before


def test_a_batch_rewrites_its_own_summary_and_table(more):
    made = run("make", more / "pics" / "other.png", more / "s.png", "-o", f"{more}/new/", "-w", 3, "-q")
    assert made.exit_code == 0, made.output
    again = run("make", more / "pics" / "other.png", more / "s.png", "-o", f"{more}/new/", "-w", 3, "-q", "--force")
    assert again.exit_code == 0, again.output
    table = more / "t.csv"
    for _ in range(2):
        result = run("bench", more / "meta.rofl", "-o", table, "-q")
        assert result.exit_code == 0, result.output
    table.write_text("")  # an empty file holds nothing to lose
    assert run("bench", more / "meta.rofl", "-o", table, "-q").exit_code == 0
