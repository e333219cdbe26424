"""Text that is not printable as it is: lone surrogates (a JSON ``"\\ud800"``,
undecodable argv or file names) and terminal control sequences in metadata."""

from __future__ import annotations

import json
import os

import numpy as np
from PIL import Image

from rofl.cli._show import printable
from rofl.formats import open_puzzle
from tests.clirun import run

TITLE = "\ud800 \x1b]0;pwned\x07\x1b[2J\x9b"


def hostile_json(tmp_path):
    path = tmp_path / "t.json"
    data = {"title": TITLE, "width": 1, "height": 1, "rows": [[[1, 1]]], "cols": [[[1, 1]]]}
    path.write_text(json.dumps(data))  # ensure_ascii: the surrogate is written as \ud800
    return path


def test_metadata_never_holds_a_surrogate(tmp_path):
    assert open_puzzle(hostile_json(tmp_path)).metadata["title"].startswith("\ufffd ")


def test_info_escapes_control_characters(tmp_path):
    result = run("info", hostile_json(tmp_path))
    assert result.exit_code == 0, result.output
    assert "\x1b" not in result.output and "\x07" not in result.output and "\x9b" not in result.output
    assert "title: \ufffd \\x1b]0;pwned\\x07\\x1b[2J\\x9b" in result.output


def test_convert_to_gno_writes_a_surrogate_title_as_replacement(tmp_path):
    out = tmp_path / "t.gno"
    result = run("convert", hostile_json(tmp_path), out)
    assert result.exit_code == 0, result.output
    assert "\ufffd" in out.read_text(encoding="utf-8")


def test_undecodable_argv_and_file_name(tmp_path):
    picture = os.fsdecode(bytes(tmp_path) + b"/caf\xe9.png")  # as Python gives a non-UTF-8 name
    grid = np.zeros((6, 6), np.uint8)
    grid[1:5, 2:4] = 255
    Image.fromarray(grid).save(picture)
    out, page = tmp_path / "x.rofl", tmp_path / "x.html"
    title = os.fsdecode(b"a\xffb")
    result = run("make", picture, "-o", out, "--width", 6, "--title", title, "--page", page)
    assert result.exit_code == 0, result.output
    assert open_puzzle(out).metadata["title"] == "a\ufffdb"
    assert page.is_file()
    result = run("make", picture, "-o", tmp_path / "y.gno", "--width", 6)
    assert result.exit_code == 0, result.output


def test_printable_keeps_what_is_asked():
    assert printable("a\nb\tc", keep="\n") == "a\nb\\x09c"


ESCAPE_NAME = "a\x1b]0;pwned\x07"


def test_failed_lines_and_bench_list_escape_file_names(tmp_path):
    # issue 40: a file name that set the terminal's title
    import shutil

    from tests.places import SAMPLES

    folder = tmp_path / "in"
    folder.mkdir()
    shutil.copy(SAMPLES / "rocket.rofl", folder / f"{ESCAPE_NAME}.rofl")
    (folder / f"{ESCAPE_NAME}-broken.json").write_text("{")
    result = run("bench", folder, "--list")
    assert result.exit_code == 1, result.output
    assert "\x1b" not in result.output and "\x07" not in result.output
    assert "a\\x1b]0;pwned\\x07.rofl  line-solvable" in result.output
    assert "failed: " in result.output and "a\\x1b]0;pwned\\x07-broken.json" in result.output
    pictures = tmp_path / "pictures"
    pictures.mkdir()
    (pictures / f"{ESCAPE_NAME}.png").write_bytes(b"\x89PNG\r\n\x1a\n not really")
    Image.new("L", (8, 8), 255).save(pictures / "fine.png")
    result = run("make", pictures, "-o", f"{tmp_path}/out/")
    assert result.exit_code == 1, result.output
    assert "\x1b" not in result.output and "\x07" not in result.output
    assert "failed: " in result.output and "a\\x1b]0;pwned\\x07.png" in result.output


def test_usage_errors_escape_the_values_they_quote(tmp_path):
    result = run("make", "x.png", "-o", str(tmp_path / f"{ESCAPE_NAME}.foo"))
    assert result.exit_code == 2
    assert "\x1b" not in result.output and "a\\x1b]0;pwned\\x07.foo" in result.output
