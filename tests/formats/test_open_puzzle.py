"""rofl.open_puzzle, the one way to open a puzzle file, and the stored CRC-32 every command checks."""

from __future__ import annotations

import numpy as np
import pytest

import rofl
from rofl.errors import FormatError
from rofl.formats import FORMATS, PuzzleFile, corpus, open_puzzle, read_puzzle, sheets
from rofl.formats import rofl as codec
from rofl.puzzle import Palette, Puzzle
from rofl.secret import hide
from tests.clirun import one_error_line, run
from tests.places import REPO, SAMPLES

VECTORS = REPO / "spec" / "vectors"
MISMATCH = "the solved picture has CRC-32 3bc99d37 but the file says 12345678"
BW = Palette.black_white()


def test_open_puzzle_is_exported_lazily():
    assert rofl.open_puzzle is open_puzzle and rofl.PuzzleFile is PuzzleFile
    assert {"open_puzzle", "PuzzleFile"} <= set(dir(rofl))


def test_a_rofl_file_keeps_what_only_rofl_stores():
    opened = open_puzzle(VECTORS / "1x1-meta-crc.rofl")
    assert opened.format is codec.FORMAT and opened.format.name == "ROFL"
    assert opened.solution is None and opened.crc32 == opened.rofl.crc32 is not None
    assert opened.details == "58 bytes, extended form, version 1"
    assert opened.metadata == opened.puzzle.meta and opened.metadata["title"]
    assert opened.name == str(VECTORS / "1x1-meta-crc.rofl")


def test_bytes_are_opened_by_content_then_by_name():
    grid = np.array([[1, 0], [1, 1]], dtype=np.int64)
    data = corpus.FORMAT.write(Puzzle.from_grid(grid, BW), grid)
    by_content = open_puzzle(data)
    assert by_content.format.name == "corpus JSON" and by_content.name == "<bytes>"
    assert by_content.details == f"{len(data)} bytes, corpus JSON, not ROFL"
    assert np.array_equal(by_content.solution, grid) and by_content.solution.dtype == np.uint8
    nin = b"2 1\n1\n1\n0\n"  # no signature: only the name says .nin
    assert open_puzzle(nin, name="x.nin").format.name == "Wilk .nin"
    with pytest.raises(FormatError, match=r"^x\.dat: unknown puzzle format \(known extensions: \.clues, \.cwd, "):
        open_puzzle(nin, name="x.dat")


def test_a_sheet_is_opened_as_the_rofl_file_it_carries():
    puzzle = Puzzle.from_grid(np.array([[1, 0], [1, 1]], dtype=np.uint8), BW)
    from rofl.render.sheet import sheet_bytes

    data = sheet_bytes(puzzle, ".png", solution=np.array([[1, 0], [1, 1]]))
    opened = open_puzzle(data, name="s.png")
    assert opened.format.name == sheets.NAMES["png"] and opened.puzzle == puzzle
    assert opened.crc32 == codec.picture_crc(np.array([[1, 0], [1, 1]]))
    assert opened.details.startswith(f"{len(data)} bytes, PNG sheet carrying a ROFL puzzle: ")


def test_numbered_puzzles(tmp_path):
    path = tmp_path / "one.rofl"
    path.write_bytes(codec.dumps(Puzzle.from_grid(np.eye(2, dtype=np.uint8), BW)))
    assert open_puzzle(f"{path}#1").puzzle == open_puzzle(path).puzzle
    with pytest.raises(FormatError, match=r"one\.rofl#2: a ROFL file holds one puzzle, so there is no puzzle 2"):
        open_puzzle(f"{path}#2")


def test_every_format_is_declared_once():
    names = [f.name for f in FORMATS]
    assert len(names) == len(set(names))
    written = [f.extension for f in FORMATS if f.write is not None]
    assert len(written) == len(set(written))
    for fmt in FORMATS:
        assert fmt.magic or fmt.starts or fmt.sniff or fmt.extensions, fmt.name  # something finds it
        assert fmt.keeps_crc() == (fmt is codec.FORMAT)


def test_read_puzzle_is_open_puzzle():
    puzzle, solution = read_puzzle(SAMPLES / "hands-up.json")
    opened = open_puzzle(SAMPLES / "hands-up.json")
    assert puzzle == opened.puzzle and np.array_equal(solution, opened.solution)


# ------------------------------------------------------------------ the stored CRC-32


def _bad_secret(tmp_path):
    puzzle, grid = hide("hi")
    path = tmp_path / "secret.rofl"
    path.write_bytes(codec.write_bytes(puzzle, crc32=codec.picture_crc(grid) ^ 1))
    return path


@pytest.mark.parametrize(
    "command",
    [
        ("solve", "{file}"),
        ("solve", "--line-only", "{file}"),
        ("convert", "{file}", "{out}.json"),
        ("convert", "{file}", "{out}.rofl"),
        ("convert", "{file}", "{out}.nin"),
        ("page", "{file}", "-o", "{out}.html"),
        ("decode", "{file}", "-o", "{out}.png"),
        ("sheet", "{file}", "--solution", "-o", "{out}.png"),
        ("sheet", "{file}", "-o", "{out}.svg"),
    ],
    ids=" ".join,
)
def test_a_wrong_crc_is_refused(tmp_path, command):
    file, out = VECTORS / "crc-mismatch.rofl", tmp_path / "out"
    result = run(*(part.format(file=file, out=out) for part in command))
    one_error_line(result, f"{file}: {MISMATCH}")
    assert not list(tmp_path.iterdir())  # nothing written


def test_reveal_refuses_a_wrong_crc(tmp_path):
    path = _bad_secret(tmp_path)
    one_error_line(run("reveal", path), f"{path}: the solved picture has CRC-32")
    one_error_line(run("reveal", input=path.read_bytes()), "standard input: the solved picture has CRC-32")


def test_info_reports_a_wrong_crc():
    result = run("info", VECTORS / "crc-mismatch.rofl")
    assert result.exit_code == 0
    assert f"picture: not decodable: {MISMATCH}" in result.output


def test_convert_keeps_the_crc_and_the_metadata(tmp_path):
    source = VECTORS / "1x1-meta-crc.rofl"
    target = tmp_path / "copy.rofl"
    result = run("convert", source, target)
    assert result.exit_code == 0, result.output
    assert result.output == f"{target}: 1x1, 2 colours, solution kept as its CRC-32\n"
    before, after = open_puzzle(source), open_puzzle(target)
    assert after.crc32 == before.crc32 and after.metadata == before.metadata and after.puzzle == before.puzzle


def test_convert_keeps_a_crc_it_cannot_check(tmp_path):
    # two solutions: no one picture to check the CRC against, so it is kept as it is
    grid = np.array([[1, 0], [0, 1]], dtype=np.uint8)
    source = tmp_path / "ambiguous.rofl"
    source.write_bytes(codec.write_bytes(Puzzle.from_grid(grid, BW), grid))
    result = run("convert", source, tmp_path / "copy.rofl")
    assert result.exit_code == 0, result.output
    assert open_puzzle(tmp_path / "copy.rofl").crc32 == codec.picture_crc(grid)
    assert run("page", source, "-o", tmp_path / "p.html").exit_code == 0


def test_a_right_crc_passes(tmp_path):
    for command in (("solve", "{file}"), ("page", "{file}", "-o", "{out}.html"), ("convert", "{file}", "{out}.json")):
        result = run(*(part.format(file=VECTORS / "crc.rofl", out=tmp_path / "out") for part in command))
        assert result.exit_code == 0, result.output
