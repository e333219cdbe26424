"""``rofl cache``: where the compiled solver lives, and --clear removing only rofl's cache files."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.places import REPO, SAMPLES


def _rofl(*args: str, cache: Path, jit: bool = True) -> subprocess.CompletedProcess:
    """``rofl *args`` with its own numba cache; ``jit``: ignoring the
    kernels compiled at install (rofl.kernels._aot), as an install without
    a C compiler would."""
    env = dict(os.environ, PYTHONPATH=str(REPO), NUMBA_CACHE_DIR=str(cache))
    if jit:
        env["ROFL_NO_AOT"] = "1"
    return subprocess.run([sys.executable, "-m", "rofl", *args], env=env, capture_output=True, text=True, check=True)


def _folders(output: str) -> list[Path]:
    return [Path(line.rpartition(":")[0]) for line in output.splitlines() if " files, " in line]


def test_cache_shows_folders_and_clear_removes_only_rofls_files(tmp_path):
    cache = tmp_path / "numba"
    shown = _rofl("cache", cache=cache).stdout
    assert "line logic: not compiled" in shown
    folders = _folders(shown)
    assert len(folders) == 2 and all(f.is_relative_to(cache) for f in folders)
    solver = folders[0]
    solver.mkdir(parents=True, exist_ok=True)
    ours = [solver / "_kernels._propagate-390.py311.nbi", solver / "_search._search-480.py311.1.nbc"]
    theirs = [solver / "_kernels.cpython-311.pyc", solver / "other._f-1.py311.nbi", solver / "notes.txt"]
    for path in ours + theirs:
        path.write_bytes(b"x" * 1000)
    assert "2 files, 2 kB" in _rofl("cache", cache=cache).stdout
    cleared = _rofl("cache", "--clear", cache=cache).stdout
    assert cleared.splitlines()[0] == "cleared: 2 files, 2 kB"
    assert not any(p.exists() for p in ours)
    assert all(p.exists() for p in theirs)


@pytest.mark.slow
def test_warm_compiles_everything_so_that_no_command_says_it_compiles(tmp_path):
    warmed = _rofl("cache", "--warm", cache=tmp_path)
    assert warmed.stderr.startswith(
        "compiling rofl's line logic, lean line logic, line logic for hexagons and ? clues, complete search,"
        " difficulty grader, refinement, picture repair and hexagon refinement"
        " for this machine (once, about"
    )
    assert "picture repair: compiled for this machine" in warmed.stdout
    solved = subprocess.run(
        [sys.executable, "-m", "rofl", "solve", str(SAMPLES / "two-ways.non")],
        env=dict(os.environ, PYTHONPATH=str(REPO), NUMBA_CACHE_DIR=str(tmp_path), ROFL_NO_AOT="1"),
        capture_output=True,
        text=True,
        check=False,
    )
    assert solved.returncode == 3 and "compiling" not in solved.stderr


def test_cache_says_which_kernels_were_compiled_at_install(tmp_path):
    from rofl.kernels import _aot

    shown = _rofl("cache", cache=tmp_path, jit=False).stdout
    if _aot.available():
        assert "kernels compiled at install: in use (" in shown
        for name in ("line logic", "lean line logic", "complete search", "refinement", "picture repair"):
            assert f"\n{name}: compiled at install\n" in shown
        for name in ("line logic for hexagons and ? clues", "hexagon refinement"):
            assert f"\n{name}: not compiled (about " in shown
    else:
        assert "kernels compiled at install: in use" not in shown
    assert "kernels compiled at install: off (ROFL_NO_AOT is set)" in _rofl("cache", cache=tmp_path).stdout
