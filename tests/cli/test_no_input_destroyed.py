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
