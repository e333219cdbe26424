"""Atomic writes: all or nothing, with sensible permissions."""

from __future__ import annotations

import os
import stat

import pytest

from rofl._io import atomic_open, atomic_write


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_a_failed_write_leaves_the_old_file_untouched(tmp_path):
    target = tmp_path / "x.bin"
    target.write_bytes(b"old content")
    with pytest.raises(RuntimeError), atomic_open(target) as f:
        f.write(b"half of the new")
        raise RuntimeError
    assert target.read_bytes() == b"old content"
    assert os.listdir(tmp_path) == ["x.bin"]  # no temporary file left behind


def test_a_failed_write_creates_nothing(tmp_path):
    with pytest.raises(RuntimeError), atomic_open(tmp_path / "new.bin") as f:
        f.write(b"x")
        raise RuntimeError
    assert os.listdir(tmp_path) == []


def test_permissions(tmp_path):
    old = os.umask(0o022)
    try:
        atomic_write(tmp_path / "a.txt", "text")
        assert mode(tmp_path / "a.txt") == 0o644
        existing = tmp_path / "b.bin"
        existing.write_bytes(b"")
        os.chmod(existing, 0o640)
        atomic_write(existing, b"new")
        assert mode(existing) == 0o640
        assert existing.read_bytes() == b"new"
        atomic_write(tmp_path / "secret.rofl", b"s", private=True)
        assert mode(tmp_path / "secret.rofl") == 0o600
    finally:
        os.umask(old)


def test_errors_name_the_target_not_the_temporary_file(tmp_path):
    with pytest.raises(OSError) as missing:
        atomic_write(tmp_path / "no-such-dir" / "x.rofl", b"x")
    assert missing.value.filename == str(tmp_path / "no-such-dir" / "x.rofl")
    (tmp_path / "a-dir").mkdir()
    (tmp_path / "a-dir" / "inside").write_bytes(b"")
    with pytest.raises(OSError) as onto_dir:
        atomic_write(tmp_path / "a-dir", b"x")  # a rename cannot replace a non-empty directory
    assert onto_dir.value.filename == str(tmp_path / "a-dir")
    assert sorted(os.listdir(tmp_path)) == ["a-dir"]  # the temporary file is gone


def test_a_rewrite_never_keeps_setuid_setgid_or_sticky_bits(tmp_path):
    # issue 40: the permissions were copied whole, setuid included
    path = tmp_path / "t.bin"
    path.write_bytes(b"old")
    os.chmod(path, 0o6755 | stat.S_ISVTX)
    atomic_write(path, b"new")
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o755


def test_a_symbolic_link_is_replaced_without_its_targets_permissions(tmp_path):
    target = tmp_path / "target"
    target.write_bytes(b"old")
    os.chmod(target, 0o4700)
    link = tmp_path / "link"
    link.symlink_to(target)
    old_umask = os.umask(0o022)
    try:
        atomic_write(link, b"new")
    finally:
        os.umask(old_umask)
    assert not link.is_symlink() and link.read_bytes() == b"new"
    assert stat.S_IMODE(os.stat(link).st_mode) == 0o644
    assert target.read_bytes() == b"old"


def test_sigterm_mid_write_leaves_no_temporary_file(tmp_path):
    # issue 40: SIGTERM left a hidden .name.XXXX.tmp (67 MB seen); the
    # command now raises on it, and the write cleans up as on any error
    import subprocess
    import sys

    from tests.places import REPO, SAMPLES

    script = (
        "import os, signal, sys, time\n"
        "def fsync(fd):\n"
        "    os.kill(os.getpid(), signal.SIGTERM)\n"
        "    time.sleep(30)\n"
        "os.fsync = fsync\n"
        "from rofl.__main__ import run\n"
        "sys.argv = ['rofl', 'convert', sys.argv[1], sys.argv[2]]\n"
        "run()\n"
    )
    out = tmp_path / "out" / "rocket.json"
    out.parent.mkdir()
    proc = subprocess.run(
        [sys.executable, "-c", script, str(SAMPLES / "rocket.rofl"), str(out)],
        env=dict(os.environ, PYTHONPATH=str(REPO)),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 143, proc.stderr
    assert proc.stderr.endswith("Error: terminated\n") and "Traceback" not in proc.stderr, proc.stderr
    assert list(out.parent.iterdir()) == []


def test_one_check_finds_an_output_that_is_an_input(tmp_path):
    # issue 41: the commands and the batches each had their own
    from rofl._io import input_written

    read = tmp_path / "a.rofl"
    read.write_bytes(b"x")
    (tmp_path / "link.rofl").symlink_to(read)
    assert input_written([read], [("-o", tmp_path / "new.rofl"), ("--sheet", None)]) is None
    assert input_written([read], [("-o", tmp_path / "new.rofl"), ("--page", tmp_path / "link.rofl")]) == (
        "--page", tmp_path / "link.rofl", read,
    )  # fmt: skip
    assert input_written([tmp_path / "missing"], [("-o", tmp_path / "missing")]) is None
