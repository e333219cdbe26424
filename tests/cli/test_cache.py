"""``rofl cache``: where the compiled solver lives, and --clear removing only rofl's cache files."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.places import REPO, SAMPLES


def _rofl(*args: str, cache: Path, jit: bool = True, check: bool = True) -> subprocess.CompletedProcess:
    """``rofl *args`` with its own numba cache; ``jit``: ignoring the
    kernels compiled at install (rofl.kernels._aot), as an install without
    a C compiler would; ``check``: its status must be 0."""
    env = dict(os.environ, PYTHONPATH=str(REPO), NUMBA_CACHE_DIR=str(cache))
    if jit:
        env["ROFL_NO_AOT"] = "1"
    return subprocess.run([sys.executable, "-m", "rofl", *args], env=env, capture_output=True, text=True, check=check)


def _folders(output: str) -> list[Path]:
    return [Path(line.rpartition(":")[0]) for line in output.splitlines() if " files, " in line]


def test_cache_shows_folders_and_clear_removes_only_rofls_files(tmp_path):
    cache = tmp_path / "numba"
    shown = _rofl("cache", cache=cache).stdout
    assert "line logic: not compiled" in shown
    folders = _folders(shown)
    assert len(folders) == 1 and folders[0].is_relative_to(cache)  # every kernel in rofl/kernels/
    solver = folders[0]
    solver.mkdir(parents=True, exist_ok=True)
    ours = [solver / "_line._propagate-390.py311.nbi", solver / "_search._search-480.py311.1.nbc"]
    theirs = [solver / "_line.cpython-311.pyc", solver / "other._f-1.py311.nbi", solver / "notes.txt"]
    for path in ours + theirs:
        path.write_bytes(b"x" * 1000)
    assert "2 files, 2 kB" in _rofl("cache", cache=cache).stdout
    cleared = _rofl("cache", "--clear", cache=cache).stdout
    assert cleared.splitlines()[0] == "cleared: 2 files, 2 kB"
    assert not any(p.exists() for p in ours)
    assert all(p.exists() for p in theirs)


@pytest.mark.slow
@pytest.mark.compiles_everything
# compiling every kernel is some 270 s of CPU (kernels.COMPILE_SECONDS): past pytest's 300 s on a loaded machine
@pytest.mark.timeout(1800)
def test_a_fresh_cache_compiles_on_first_use_and_warm_compiles_the_rest(tmp_path):
    """End to end in one empty numba cache, each kernel compiled once: the
    first solve says it compiles the kernels it needs and a second says
    nothing; ``make -q`` compiles refinement silently; ``rofl cache --warm``
    compiles everything left, after which no command says it compiles."""
    from rofl import kernels

    cache = tmp_path / "numba"
    horse = str(SAMPLES / "horse.rofl")
    lines = _rofl("solve", horse, cache=cache).stderr.splitlines()
    fresh, grader = (f"{kernels.COMPILE_SECONDS[name]:.0f}" for name in ("lean line logic", "difficulty grader"))
    assert lines[0] == f"compiling rofl's lean line logic for this machine (once, about {fresh} s)..."
    assert lines[2] == f"compiling rofl's difficulty grader for this machine (once, about {grader} s)..."
    assert lines[1].startswith("compiled in ") and lines[3].startswith("compiled in ") and len(lines) == 4
    assert _rofl("solve", horse, cache=cache).stderr == ""
    made = _rofl("make", str(SAMPLES / "horse.png"), "-q", "-o", str(tmp_path / "h.rofl"), cache=cache)
    assert made.stderr == ""  # refinement compiled, silently under -q
    warmed = _rofl("cache", "--warm", cache=cache)
    left = "line logic for hexagons and ? clues, complete search and hexagon refinement"
    assert warmed.stderr.startswith(f"compiling rofl's {left} for this machine (once, about ")
    assert all(f"\n{s.name}: compiled for this machine\n" in warmed.stdout for s in kernels.SETS)
    solved = _rofl("solve", str(SAMPLES / "two-ways.non"), cache=cache, check=False)
    assert solved.returncode == 3 and "compiling" not in solved.stderr


def test_cache_says_which_kernels_were_compiled_at_install(tmp_path):
    from rofl.kernels import _aot

    shown = _rofl("cache", cache=tmp_path, jit=False).stdout
    if _aot.available():
        assert "kernels compiled at install: in use (" in shown
        for name in ("line logic", "lean line logic", "complete search", "difficulty grader", "refinement"):
            assert f"\n{name}: compiled at install\n" in shown
        for name in ("line logic for hexagons and ? clues", "hexagon refinement"):
            assert f"\n{name}: not compiled (about " in shown
    else:
        assert "kernels compiled at install: in use" not in shown
    assert "kernels compiled at install: off (ROFL_NO_AOT is set)" in _rofl("cache", cache=tmp_path).stdout


def _estimates(text: str) -> dict[str, int]:
    """``{set: seconds}`` of the lines ``NAME: not compiled (about N s of CPU when first needed)``."""
    found = re.findall(r"^(.+): not compiled \(about (\d+) s of CPU when first needed\)$", text, flags=re.MULTILINE)
    return {name: int(seconds) for name, seconds in found}


def test_compile_estimates_have_one_source(monkeypatch):
    """Issue 41: the notice, ``rofl cache``, its help, the README and the
    guide gave different figures.  Now the table ``COMPILE_SECONDS``
    (measured by ``benchmarks/compile_time.py --alone``) is the one source:
    ``rofl cache`` and the notice print it, the guide's example shows it,
    and no other text states one."""
    from click.testing import CliRunner

    from rofl import kernels
    from rofl.cli import main
    from rofl.kernels import _compile

    assert set(kernels.COMPILE_SECONDS) == {s.name for s in kernels.SETS}
    assert all(s.seconds == kernels.COMPILE_SECONDS[s.name] for s in kernels.SETS)
    monkeypatch.setattr(_compile, "is_cached", lambda dispatcher: False)
    monkeypatch.setattr(_compile, "available", lambda: False)
    shown = CliRunner().invoke(main, ["cache"], catch_exceptions=False).stdout
    assert _estimates(shown) == kernels.COMPILE_SECONDS
    guide = (REPO / "docs" / "guide.md").read_text(encoding="utf-8")
    example = guide[guide.index("$ rofl cache\n") :]
    example = example[: example.index("```")]
    assert _estimates(example).items() <= kernels.COMPILE_SECONDS.items() and _estimates(example)
    notice = re.search(r"compiling rofl's lean line logic for this machine \(once, about (\d+) s\)", guide)
    assert notice and int(notice[1]) == kernels.COMPILE_SECONDS["lean line logic"]
    helped = CliRunner().invoke(main, ["cache", "--help"]).stdout
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    for text in (helped, readme):
        assert not re.search(r"compil[^.]*about \d+ s", text, flags=re.IGNORECASE)
