"""``rofl make PICTURES... -o DIR/`` and :func:`rofl.batch.make_many`: outputs, summary, resumption, failures."""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rofl.batch import MakeOptions, make_many
from rofl.formats import open_puzzle
from tests.batch.conftest import shape_picture
from tests.clirun import one_error_line, run, usage_error_line
from tests.places import REPO

PUZZLES = ("a.rofl", "b.rofl", "c.rofl")


def _rows(folder: Path) -> dict[str, dict]:
    document = json.loads((folder / "summary.json").read_text())
    return {Path(row["picture"]).name: row for row in document["rows"]}


def _inodes(folder: Path) -> dict[str, int]:
    """Each puzzle file's inode: an atomic write (a rename) gives it a new one."""
    return {name: (folder / name).stat().st_ino for name in PUZZLES}


def test_outputs_are_the_same_with_one_and_two_workers(pictures, tmp_path, monkeypatch):
    from rofl.batch import run as batch_run

    # so short a batch would stay in this process: this one goes to the workers after two pictures
    monkeypatch.setattr(batch_run, "SMALL_BATCH_SECONDS", 0.0)
    one, two = tmp_path / "one", tmp_path / "two"
    first = run("make", pictures, "-o", f"{one}/", "-w", 12, "-j", 1, "-q")
    second = run("make", pictures, "-o", f"{two}/", "-w", 12, "-j", 2, "-q")
    # the broken picture fails both batches, after the others were made
    assert first.exit_code == second.exit_code == 1
    for name in PUZZLES:
        assert (one / name).read_bytes() == (two / name).read_bytes(), name
    assert sorted(p.name for p in one.iterdir()) == sorted([*PUZZLES, "summary.csv", "summary.json"])


def test_a_broken_picture_is_a_row_and_exit_status_1(pictures, tmp_path):
    out = tmp_path / "out"
    result = run("make", pictures, "-o", f"{out}/", "-w", 12, "-j", 1)
    assert result.exit_code == 1
    assert "failed: " in result.output and "broken.png" in result.output
    rows = _rows(out)
    assert set(rows) == {"a.png", "b.png", "c.bmp", "broken.png"}  # notes.txt is not a picture
    broken = rows["broken.png"]
    assert broken["status"] == "failed" and "broken.png" in broken["error"] and broken["output_sha256"] is None
    assert not (out / "broken.rofl").exists()
    assert all(rows[name]["status"] == "made" for name in ("a.png", "b.png", "c.bmp"))


def test_summary_csv_and_json_describe_each_puzzle(pictures, tmp_path):
    out = tmp_path / "out"
    run("make", pictures / "a.png", pictures / "c.bmp", "-o", f"{out}/", "-w", 12, "-j", 1, "-q")
    rows = _rows(out)
    with open(out / "summary.csv", newline="") as f:
        table = list(csv.DictReader(f))
    assert [Path(r["picture"]).name for r in table] == ["a.png", "c.bmp"]  # the pictures' order
    for line in table:
        row = rows[Path(line["picture"]).name]
        opened = open_puzzle(row["output"])
        assert (row["width"], row["height"], row["colours"]) == (
            opened.puzzle.width,
            opened.puzzle.height,
            opened.puzzle.n_colors,
        )
        assert opened.puzzle.meta["title"] == Path(row["picture"]).stem
        assert row["status"] == "made" and row["error"] == ""
        assert isinstance(row["cells_changed"], int) and isinstance(row["sweeps"], int) and row["sweeps"] > 0
        assert row["delta_e"] >= 0 and -1 <= row["ssim"] <= 1 and row["seconds"] > 0
        # the CSV holds the same figures as text
        for column in ("output", "width", "height", "colours", "cells_changed", "delta_e", "ssim", "sweeps", "status"):
            assert line[column] == str(row[column]), column


def test_up_to_date_puzzles_are_skipped_and_force_redoes_them(pictures, tmp_path):
    out = tmp_path / "out"
    sources = [pictures / "a.png", pictures / "b.png", pictures / "c.bmp"]
    assert run("make", *sources, "-o", f"{out}/", "-w", 12, "-j", 1, "-q").exit_code == 0
    before = _inodes(out)
    made = _rows(out)

    again = run("make", *sources, "-o", f"{out}/", "-w", 12, "-j", 1)
    assert again.exit_code == 0 and "3 pictures: 3 skipped;" in again.output
    assert _inodes(out) == before
    rows = _rows(out)
    assert {row["status"] for row in rows.values()} == {"skipped"}
    assert rows["a.png"]["sweeps"] == made["a.png"]["sweeps"]  # the figures are kept

    # a changed picture, a changed output and other options are made again
    shape_picture(pictures / "a.png", 7)
    (out / "b.rofl").write_bytes((out / "b.rofl").read_bytes() + b"\0")
    run("make", *sources, "-o", f"{out}/", "-w", 12, "-j", 1, "-q")
    rows = _rows(out)
    assert [rows[n]["status"] for n in ("a.png", "b.png", "c.bmp")] == ["made", "made", "skipped"]
    run("make", *sources, "-o", f"{out}/", "-w", 10, "-j", 1, "-q")
    assert {row["status"] for row in _rows(out).values()} == {"made"}

    before = _inodes(out)
    forced = run("make", *sources, "-o", f"{out}/", "-w", 10, "-j", 1, "-q", "--force")
    assert forced.exit_code == 0
    assert {row["status"] for row in _rows(out).values()} == {"made"}
    assert all(_inodes(out)[name] != before[name] for name in PUZZLES)


def test_one_picture_is_counted_in_the_singular(pictures, tmp_path):
    result = run("make", pictures / "a.png", pictures / "a.png", "-o", f"{tmp_path}/out/", "-w", 12, "-j", 1)
    assert result.exit_code == 0 and f"1 picture: 1 made; summary in {tmp_path}/out/summary.csv" in result.output


def test_an_unwritable_output_is_a_row_and_the_others_are_written(pictures, tmp_path):
    out = tmp_path / "out"
    (out / "b.rofl").mkdir(parents=True)  # a folder where the puzzle file should go
    result = run("make", pictures / "a.png", pictures / "b.png", "-o", f"{out}/", "-w", 12, "-j", 1, "-q")
    assert result.exit_code == 1
    rows = _rows(out)
    assert rows["a.png"]["status"] == "made" and (out / "a.rofl").is_file()
    assert rows["b.png"]["status"] == "failed" and "b.rofl" in rows["b.png"]["error"]


def test_no_output_overwrites_an_input(pictures, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    # a .rofl file is also a picture (rofl's Pillow plugin): named as an input, it is not remade in place
    assert run("make", pictures / "a.png", "-o", out / "a.rofl", "-q").exit_code == 0
    kept = (out / "a.rofl").read_bytes()
    usage_error_line(run("make", out / "a.rofl", pictures / "b.png", "-o", f"{out}/", "-q"), "a.rofl", "input")
    assert (out / "a.rofl").read_bytes() == kept and not (out / "b.rofl").exists()
    (tmp_path / "book.pdf").symlink_to(pictures / "b.png")  # the book is the picture under another name
    book = run("make", pictures / "b.png", "-o", f"{tmp_path}/more/", "--book", tmp_path / "book.pdf", "-q")
    usage_error_line(book, "book.pdf", "b.png", "input")
    assert (tmp_path / "book.pdf").resolve() == pictures / "b.png" and not (tmp_path / "more").exists()


def test_book_holds_every_puzzle_made_and_their_answers(pictures, tmp_path):
    book = tmp_path / "book.pdf"
    result = run("make", pictures, "-o", f"{tmp_path}/out/", "-w", 12, "-j", 1, "--book", book, "--answers")
    assert result.exit_code == 1  # the broken picture
    assert f"{book}: 3 puzzles and their solutions" in result.output
    for n, name in enumerate(("a", "b", "c"), 1):
        assert open_puzzle(f"{book}#{n}").puzzle == open_puzzle(tmp_path / "out" / f"{name}.rofl").puzzle


def test_one_picture_to_a_file_refuses_the_batch_options(pictures, tmp_path):
    for option in (["-j", 2], ["--force"], ["--book", tmp_path / "b.pdf"], ["-f", "json"]):
        result = run("make", pictures / "a.png", "-o", tmp_path / "a.rofl", *option)
        usage_error_line(result, "batch")
    assert not (tmp_path / "a.rofl").exists()


def test_a_batch_refuses_one_picture_options_and_bad_formats(pictures, tmp_path):
    out = f"{tmp_path}/out/"
    usage_error_line(run("make", pictures, "-o", out, "--sheet", tmp_path / "s.png"), "--sheet", "--book")
    usage_error_line(run("make", pictures, "-o", out, "-f", "png"), "--format")
    usage_error_line(run("make", pictures, "-o", out, "-f", "nin", "-c", 3), "black-and-white")
    usage_error_line(run("make", tmp_path / "nothing*.png", "-o", out), "no pictures")
    one_error_line(run("make", tmp_path / "missing.png", pictures, "-o", out), "missing.png")
    # several pictures to a file name: a slip, not a new folder called a.rofl
    usage_error_line(run("make", pictures / "a.png", pictures / "b.png", "-o", tmp_path / "a.rofl"), "folder")
    assert not (tmp_path / "a.rofl").exists()
    assert not Path(out).exists()


def test_make_many_yields_a_row_per_picture(pictures, tmp_path):
    options, suffix = MakeOptions(width=12), ".json"
    rows = list(make_many([pictures / "*.png"], tmp_path / "out", options, suffix=suffix, jobs=1))
    assert sorted(Path(r["picture"]).name for r in rows) == ["a.png", "b.png", "broken.png"]
    made = [r for r in rows if r["status"] == "made"]
    assert [open_puzzle(r["output"]).format.extension for r in made] == [".json", ".json"]


@pytest.mark.slow
def test_ctrl_c_stops_the_batch_and_leaves_no_half_written_file(tmp_path):
    """SIGINT to the process group, as Ctrl-C sends it: the workers stop, the
    summary records what was finished, and every file in the folder is whole."""
    folder = tmp_path / "pictures"
    folder.mkdir()
    for seed in range(40):
        shape_picture(folder / f"p{seed:02}.png", seed, size=200)
    out = tmp_path / "out"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
    command = [sys.executable, "-m", "rofl", "make", folder, "-o", f"{out}/", "-w", 120, "--effort", 4, "-j", 2]
    process = subprocess.Popen(
        [str(c) for c in command], env=env, start_new_session=True, stderr=subprocess.PIPE, text=True
    )
    # the workers are started and busy once the first puzzle is written
    deadline = time.monotonic() + 180
    while process.poll() is None and time.monotonic() < deadline:
        if out.is_dir() and any(p.suffix == ".rofl" for p in out.iterdir()):
            break
        time.sleep(0.1)
    os.killpg(process.pid, signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130 and "Error: interrupted" in err and "Traceback" not in err
    assert not [p.name for p in out.iterdir() if p.name.startswith(".")]  # no temporary file left
    rows = {Path(r["output"]).name: r for r in json.loads((out / "summary.json").read_text())["rows"]}
    assert len(rows) < 40  # stopped before the end
    for name, row in rows.items():
        assert row["status"] == "made" and open_puzzle(out / name).puzzle.width == row["width"]


def test_the_key_of_an_output_is_what_batches_recorded_before_make_options_moved():
    # issue 41: MakeOptions moved from rofl.batch.tasks to rofl.maker, the suffix to make_many;
    # summaries written before must still say their outputs are up to date
    import hashlib
    import json

    from rofl.batch.tasks import options_key

    fields = {"width": 12, "height": None, "colors": 2, "palette": None, "background": None, "threshold": None,
              "mode": "fit", "dither": "none", "cleanup": False, "min_delta_e": 20.0, "trim": True, "effort": 1.0,
              "seed": 0, "suffix": ".json", "style": "auto", "crop": "none"}  # fmt: skip
    before = hashlib.sha256(hashlib.sha256(b"picture").digest() + json.dumps(fields, sort_keys=True).encode())
    assert options_key(MakeOptions(width=12), ".json", b"picture") == before.hexdigest()
