"""A two-colour puzzle in other colours than black on white (``--background
black``) written to a format that stores no colours: one warning line naming
what is lost, the same from ``rofl make``, ``rofl convert`` and a batch."""

from __future__ import annotations

import numpy as np
from PIL import Image

from rofl.formats import open_puzzle
from rofl.palette import Palette
from tests.clirun import run

LOST = "the .nin format stores no colours: the puzzle's #ffffff cells on #000000 read back as black on white"


def picture(path):
    grid = np.full((8, 8), 255, np.uint8)
    grid[2:6, 3:5] = 0
    grid[1, 1] = 0
    Image.fromarray(grid).save(path)
    return path


def warnings_of(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.startswith("warning: ")]


def test_make_and_convert_warn_once(tmp_path):
    photo = picture(tmp_path / "p.png")
    result = run("make", photo, "-w", 8, "--background", "black", "-o", tmp_path / "p.nin")
    assert result.exit_code == 0, result.output
    assert warnings_of(result.output) == [
        f"warning: {tmp_path / 'p.nin'}: {LOST} (.rofl, .json, .xml, .g and .clues keep them)"
    ]
    assert open_puzzle(tmp_path / "p.nin").puzzle.palette == Palette.black_white()
    result = run("make", photo, "-w", 8, "--background", "black", "-o", tmp_path / "p.rofl")
    assert result.exit_code == 0 and not warnings_of(result.output), result.output
    result = run("convert", tmp_path / "p.rofl", tmp_path / "q.nin")
    assert result.exit_code == 0, result.output
    assert [line.split(": ", 2)[2] for line in warnings_of(result.output)] == [
        f"{LOST} (.rofl, .json, .xml, .g and .clues keep them)"
    ]
    result = run("make", photo, "-w", 8, "-o", tmp_path / "plain.nin")
    assert result.exit_code == 0 and not warnings_of(result.output), result.output


def test_a_batch_warns_once_for_all_its_puzzles(tmp_path):
    pictures = [picture(tmp_path / f"{name}.png") for name in ("a", "b")]
    out = tmp_path / "out"
    result = run("make", *pictures, "-w", 8, "--background", "black", "-o", f"{out}/", "--format", "nin", "-j", 1)
    assert result.exit_code == 0, result.output
    (line,) = warnings_of(result.output)
    assert line.startswith(f"warning: {out / 'a.nin'} (and 1 other puzzle): {LOST}")
    summary = (out / "summary.csv").read_text()
    assert summary.count(LOST) == 2  # and each row's warnings say it
