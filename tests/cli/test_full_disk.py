"""A full or read-only disk: commands that write several files write all or
none, and a batch fails before its work, or names each input it could not save.

The disk is simulated: ``fsync`` fails with ENOSPC from its n-th call (a
full disk fails in ``write`` or ``fsync``, which :func:`rofl._io.atomic_open`
both calls before renaming)."""

from __future__ import annotations

import errno
import os

import pytest
from PIL import Image

import rofl._io
from tests.clirun import one_error_line, run
from tests.places import SAMPLES


def fill_disk_after(monkeypatch, calls: int) -> None:
    real = os.fsync
    count = [0]

    def fsync(fd):
        count[0] += 1
        if count[0] > calls:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(fd)

    monkeypatch.setattr(rofl._io.os, "fsync", fsync)


def test_make_writes_the_puzzle_and_its_sheet_or_neither(tmp_path, monkeypatch):
    # issue 40: `make -o X --sheet Y` on a full disk wrote X, failed at Y, exit 1
    fill_disk_after(monkeypatch, 1)
    result = run("make", SAMPLES / "horse.png", "-w", "20", "-o", tmp_path / "x.rofl", "--sheet", tmp_path / "y.png")
    one_error_line(result, "y.png", "No space left on device")
    assert list(tmp_path.iterdir()) == []  # neither, and no temporary file


def test_a_batch_on_a_full_disk_fails_before_making(tmp_path, monkeypatch):
    # issue 40: every puzzle was made, and only the summary failed
    import rofl.batch.make

    made = []
    real = rofl.batch.make.make_task
    monkeypatch.setattr(rofl.batch.make, "make_task", lambda *a, **k: made.append(1) or real(*a, **k))
    pictures = tmp_path / "pictures"
    pictures.mkdir()
    for name in ("a.png", "b.png"):
        Image.new("L", (8, 8), 255).save(pictures / name)
    fill_disk_after(monkeypatch, 0)
    result = run("make", pictures, "-o", f"{tmp_path}/out/", "-j", "1")
    one_error_line(result, f"{tmp_path}/out", "No space left on device")
    assert made == []


@pytest.mark.parametrize("room", [1, 2])
def test_a_batch_that_fills_the_disk_names_each_picture_it_could_not_save(tmp_path, monkeypatch, room):
    pictures = tmp_path / "pictures"
    pictures.mkdir()
    for i, name in enumerate(("a.png", "b.png", "c.png")):
        image = Image.new("L", (8, 8), 255)
        image.putpixel((i, i), 0)
        image.save(pictures / name)
    fill_disk_after(monkeypatch, room)  # the folder's check, then room - 1 puzzles
    result = run("make", pictures, "-o", f"{tmp_path}/out/", "-j", "1")
    assert result.exit_code == 1, result.output
    lines = result.output.strip().splitlines()
    failed = [line for line in lines if line.startswith("failed: ")]
    assert len(failed) == 3 - (room - 1), result.output
    assert all("No space left on device" in line for line in failed)
    assert lines[-1].startswith("Error: ") and "summary" in lines[-1] and "No space left" in lines[-1]
    assert not [p for p in (tmp_path / "out").iterdir() if p.name.startswith(".")]


def test_solve_writes_every_step_picture_and_the_animation_or_none(tmp_path, monkeypatch):
    fill_disk_after(monkeypatch, 3)  # a few step pictures, then the disk is full
    steps = tmp_path / "steps"
    result = run("solve", SAMPLES / "rocket.rofl", "--steps", steps, "--gif", tmp_path / "s.gif")
    assert result.exit_code == 1 and "No space left on device" in result.output.splitlines()[-1]
    assert not (tmp_path / "s.gif").exists()
    assert not steps.exists() or list(steps.iterdir()) == []
