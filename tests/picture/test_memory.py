"""Large pictures stay within the memory policy (issue 40): a 64 Mpx picture,
the most rofl reads, is converted a strip at a time, and a batch makes one
large picture at a time however many workers it has.

The peak resident memory is read with :func:`resource.getrusage` of a child
process; the bounds are generous (about twice what it takes), far below what
the float64 copies of the whole picture took (1.6-1.75 GB)."""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys

import numpy as np
import pytest
from PIL import Image

from rofl.picture import load
from tests.mangle import empty_hexagon_rofl
from tests.places import REPO

MB = 1 << 20


def peak_mb(*args: str) -> float:
    """Largest resident size of ``rofl ARGS`` (one process) in MB."""
    script = (
        "import resource, subprocess, sys\n"
        "p = subprocess.run([sys.executable, '-m', 'rofl', *sys.argv[1:]], capture_output=True, text=True)\n"
        "assert p.returncode == 0, p.stderr\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script, *args],
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
        env=dict(os.environ, PYTHONPATH=str(REPO)),
        cwd=REPO,
    ).stdout
    return int(out.split()[-1]) / 1024  # KiB on Linux


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["16-bit PNG", "float TIFF"])
def test_a_64_mpx_picture_is_made_within_the_memory_policy(tmp_path, kind):
    side = 8000  # 64 Mpx, rofl's limit
    if kind == "16-bit PNG":
        values = np.zeros((side, side), np.uint16)
        values[2000:6000, 2000:6000] = 60000
        path = tmp_path / "big.png"
        Image.fromarray(values).save(path)
    else:
        values = np.zeros((side, side), np.float32)
        values[2000:6000, 2000:6000] = 1.0
        path = tmp_path / "big.tif"
        Image.fromarray(values).save(path, compression="tiff_adobe_deflate")
    del values
    assert peak_mb("make", str(path), "-o", str(tmp_path / "x.rofl"), "-w", "20", "-q") < 900


def test_grey_pictures_convert_as_the_whole_array_formula(tmp_path, monkeypatch):
    # strips of a few rows (and float32) give what the whole-picture float64 formula gave
    monkeypatch.setattr(load, "STRIP_PIXELS", 7)
    rng = np.random.default_rng(5)
    cases = {
        "I;16": (rng.integers(0, 65536, (13, 5)).astype(np.uint16), 65535.0),
        "I": (rng.integers(0, 256, (13, 5)).astype(np.int32), 255.0),
        "F": (rng.random((13, 5)).astype(np.float32), 1.0),
    }
    for mode, (values, top) in cases.items():
        image = Image.fromarray(values)
        assert image.mode == mode
        expected = np.rint(np.clip(values.astype(np.float64) / top, 0, 1) * 65535).astype(np.uint16)
        got = load.load_pixels(image)
        assert got.shape == (13, 5, 3) and got.dtype == np.uint16
        assert np.array_equal(got[:, :, 0], expected) and np.array_equal(got[:, :, 2], expected)


def test_colour_pictures_convert_a_strip_at_a_time(tmp_path, monkeypatch):
    monkeypatch.setattr(load, "STRIP_PIXELS", 7)
    rng = np.random.default_rng(6)
    rgba = rng.integers(0, 256, (11, 6, 4)).astype(np.uint8)
    got = load.load_pixels(Image.fromarray(rgba, "RGBA"))
    assert np.array_equal(got, rgba)
    palette = Image.fromarray(rgba[:, :, :3]).convert("P")
    assert np.array_equal(load.load_pixels(palette), np.asarray(palette.convert("RGB")))


class CountingLock:
    def __init__(self) -> None:
        self.entered = 0

    def __enter__(self):
        self.entered += 1

    def __exit__(self, *exc):
        return False


def test_a_large_picture_is_decoded_under_the_shared_lock(monkeypatch):
    # -j 2 doubled the memory: the workers of a batch share one lock for large pictures
    lock = CountingLock()
    monkeypatch.setattr(load, "_large_decodes", lock)
    small, large = io.BytesIO(), io.BytesIO()
    Image.new("L", (100, 100)).save(small, format="PNG")
    Image.new("1", (3000, 3000)).save(large, format="PNG")  # 9 Mpx, a few kB
    with load.decoding(small.getvalue()):
        pass
    assert lock.entered == 0
    with load.decoding(large.getvalue()):
        pass
    assert lock.entered == 1
    with load.decoding(b"not a picture"), contextlib.suppress(Exception):
        pass
    assert lock.entered == 1


@pytest.mark.skipif(sys.platform == "win32", reason="flock")
def test_the_workers_lock_is_an_exclusive_file_lock(tmp_path):
    import fcntl

    path = tmp_path / "large.lock"
    path.write_bytes(b"")
    load.share_large_decodes(str(path))
    try:
        other = os.open(path, os.O_RDWR)
        with load._large_decodes:
            with pytest.raises(BlockingIOError):  # another worker waits
                fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
        fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)  # released
        os.close(other)
        path.unlink()
        with load._large_decodes:  # the batch is over: nothing to hold
            pass
    finally:
        load._large_decodes = contextlib.nullcontext()


@pytest.mark.slow
def test_the_largest_hexagon_is_solved_within_the_memory_policy(tmp_path):
    # issue 40: an empty side-1024 hexagon (12 kB) took 584 MB to solve; the
    # side limit is now 512, whose empty board (6 kB) must stay under the
    # resource policy's 256 MB.  The hexagon kernels are loaded from numba's
    # cache first (a fresh cache compiles them once, which costs more).
    small, large = tmp_path / "small.rofl", tmp_path / "large.rofl"
    small.write_bytes(empty_hexagon_rofl(5))
    large.write_bytes(empty_hexagon_rofl(512))
    assert len(large.read_bytes()) < 7000
    peak_mb("solve", str(small))
    assert peak_mb("solve", str(large)) < 256


def test_a_hexagon_beyond_the_side_limit_is_one_clear_error(tmp_path):
    big = tmp_path / "big.rofl"
    big.write_bytes(empty_hexagon_rofl(1024))
    p = subprocess.run(
        [sys.executable, "-m", "rofl", "solve", str(big)],
        capture_output=True,
        text=True,
        timeout=120,
        env=dict(os.environ, PYTHONPATH=str(REPO)),
    )
    assert p.returncode == 1 and p.stdout == ""
    assert p.stderr.strip().endswith("this reader decodes sides up to 512") and "Traceback" not in p.stderr


#: A known defect (rofl.picture.subject._small): ``--crop auto`` converts the
#: whole picture to float64 before scaling it down to 256 pixels, 24 bytes a
#: pixel: ``rofl make`` of a 64 Mpx PNG with ``--crop auto`` peaked at 3.27 GB
#: resident (497 MB without it), against the policy's 900 MB above.
CROP_COPIES_THE_PICTURE = pytest.mark.xfail(reason="subject._small makes a float64 copy of the whole picture")


@pytest.mark.slow
@CROP_COPIES_THE_PICTURE
def test_the_crop_to_the_subject_makes_no_float_copy_of_the_picture():
    import tracemalloc

    from rofl.picture.subject import subject_box

    pixels = np.full((4000, 4000, 3), 230, dtype=np.uint8)  # 46 MB; a float64 copy is 366 MB
    pixels[1000:1600, 2500:3300] = (30, 60, 160)
    subject_box(pixels[:64, :64])  # imports and the cascade's first load, outside the count
    tracemalloc.start()
    try:
        x0, y0, x1, y1 = subject_box(pixels)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert x0 <= 2500 and y0 <= 1000 and x1 >= 3300 and y1 >= 1600  # the blue block, found
    assert peak < pixels.nbytes, f"{peak / MB:.0f} MB allocated for a {pixels.nbytes / MB:.0f} MB picture"
