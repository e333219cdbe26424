"""The compile step (rofl.kernels.ready): the notice exactly when numba's
cache lacks the kernels, compile time kept out of solve, refinement and
budget figures, and only the kernels a command needs.  The commands' notices
end to end, in an empty cache, are tests/cli/test_cache.py's (it compiles
every kernel once)."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from rofl.kernels import _aot, _compile
from tests.places import REPO, SAMPLES

# A one-kernel set compiles in a second: the notice's logic, without
# compiling rofl's own kernels in a fresh cache.
_TOY = """
from numba import njit
from rofl.kernels import COMPILE_SECONDS, KernelSet
from rofl.kernels._aot import kernel
from rofl.kernels._config import JIT

@njit(**JIT)
def twice(x):
    return 2 * x

@kernel
def twice_kernel():
    return twice

def warm():
    twice_kernel(1)

TOY = KernelSet("toy", (twice_kernel,), "toykernels:warm")
COMPILE_SECONDS["toy"] = 1
"""

_MAIN = """
import sys
from rofl.kernels import ready, set_notice
from toykernels import TOY, twice
set_notice(lambda message: print("NOTICE", message))
ready(TOY)
ready(TOY)  # ready: nothing more
print("compiled", len(twice.signatures))
"""


def _python(code: str, cache, *paths) -> str:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), *map(str, paths)])
    env["NUMBA_CACHE_DIR"] = str(cache)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return out.stdout


def test_notice_exactly_when_the_cache_lacks_the_kernels(tmp_path):
    (tmp_path / "toykernels.py").write_text(_TOY, encoding="utf-8")
    cache = tmp_path / "cache"
    first = _python(_MAIN, cache, tmp_path).splitlines()
    assert first[0] == "NOTICE compiling rofl's toy for this machine (once, about 1 s)..."
    assert first[1].startswith("NOTICE compiled in ") and first[1].endswith(" s")
    assert first[2:] == ["compiled 1"]
    assert _python(_MAIN, cache, tmp_path).splitlines() == ["compiled 1"]  # loaded from the cache, silently
    # a changed source makes the cached code stale: numba compiles, and says so
    (tmp_path / "toykernels.py").write_text(_TOY.replace("2 * x", "x + x") + "\n", encoding="utf-8")
    assert _python(_MAIN, cache, tmp_path).splitlines()[0].startswith("NOTICE compiling")
    # another cache folder is another fresh install
    assert _python(_MAIN, tmp_path / "other", tmp_path).startswith("NOTICE")


@pytest.fixture
def slow_line_compile(monkeypatch):
    """Make this process get line logic ready again, taking at least 0.3 s,
    as a compile would: its two sets are taken as not compiled at install,
    so ready() runs their warm-ups (through the extension where it is in
    use, which compiles nothing: the sleep stands for the compile)."""
    import time

    from rofl.solver import warmup as _warm

    plain = _compile.KernelSet.ahead_of_time
    again = (_compile.LINE.name, _compile.FRESH.name)
    monkeypatch.setattr(_compile.KernelSet, "ahead_of_time", lambda s: s.name not in again and plain(s))

    real = _warm.warm_line

    def slow() -> None:
        time.sleep(0.3)
        real()

    real_fresh = _warm.warm_fresh

    def slow_fresh() -> None:
        time.sleep(0.3)
        real_fresh()

    monkeypatch.setattr(_warm, "warm_line", slow)
    monkeypatch.setattr(_warm, "warm_fresh", slow_fresh)
    monkeypatch.delitem(_compile._ready, _compile.LINE.name, raising=False)
    monkeypatch.delitem(_compile._ready, _compile.FRESH.name, raising=False)
    messages = []
    monkeypatch.setattr(_compile, "_notice", messages.append)
    return messages


def test_search_keeps_compile_time_out_of_its_seconds_and_budget(slow_line_compile):
    import time

    from rofl.solver.search import solve_complete

    puzzle = _eye(4)
    began = time.perf_counter()
    result = solve_complete(puzzle, time_budget=0.25)  # less than the compile takes
    assert time.perf_counter() - began >= 0.3  # it compiled
    assert result.seconds < 0.3
    assert result.status == "multiple"  # the budget was not spent compiling


def test_line_logic_keeps_compile_time_out_of_its_budget(slow_line_compile):
    from rofl.solver import solve

    result = solve(_eye(4), budget=0.25)  # less than the compile takes: no BudgetError
    assert result.status == "stalled" and result.seconds < 0.25


def test_make_keeps_compile_time_out_of_its_time(slow_line_compile):
    import time

    from rofl.maker import make

    picture = np.zeros((6, 6, 3), dtype=np.uint8)
    picture[::2, ::2] = 255
    began = time.perf_counter()
    stats = make(picture, width=6, height=6).stats
    assert stats.seconds < time.perf_counter() - began - 0.3  # compiling came before make's clock
    assert stats.refine_seconds <= stats.seconds
    assert "compil" not in stats.report()


def _eye(n: int):
    from rofl.puzzle import Palette, Puzzle

    return Puzzle.from_grid(np.eye(n, dtype=np.uint8), Palette.black_white())


_COMPILED = """
import sys
from rofl.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
from rofl.kernels import _aot
from rofl.kernels._compile import is_compiled
names = ("rofl.kernels._line", "rofl.kernels._fresh", "rofl.kernels._search", "rofl.kernels._refine")
loaded = {name: [] if name in sys.modules else "absent" for name in names}
# the entry points Python called (their handles' dispatchers): a kernel compiled from
# source registers its callees' signatures too, one loaded from numba's cache does not
for handle in vars(_aot).values():
    dispatcher = handle._dispatcher if isinstance(handle, _aot.Kernel) else None
    if dispatcher is not None and is_compiled(dispatcher):
        found = loaded.get(dispatcher.py_func.__module__)
        if isinstance(found, list):
            found.append(dispatcher.py_func.__name__)
shown = {name: sorted(v) if isinstance(v, list) else v for name, v in loaded.items()}
print("numba" in sys.modules, shown, file=sys.stderr)
"""


def _compiled(*args: str, jit: bool = False) -> tuple[bool, dict]:
    """Whether ``rofl *args`` imported numba, and the kernels Python called
    that it compiled or loaded from numba's cache (the same either way);
    ``jit``: ignoring the extension compiled at install."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO)
    if jit:
        env[_aot.ENV_OFF] = "1"
    out = subprocess.run([sys.executable, "-c", _COMPILED, *args], env=env, capture_output=True, text=True, check=False)
    numba, loaded = out.stderr.strip().splitlines()[-1].split(" ", 1)
    return numba == "True", eval(loaded)  # noqa: S307 -- our own repr


def test_line_solvable_commands_compile_no_search():
    for args in (["info", SAMPLES / "coffee.rofl"], ["solve", SAMPLES / "horse.rofl"]):
        numba, loaded = _compiled(*map(str, args), jit=True)
        assert numba
        # a fresh solve of a small puzzle takes the lean path, and compiles only it
        assert loaded["rofl.kernels._fresh"] == ["_solve_fresh"]
        assert "_propagate" not in loaded["rofl.kernels._line"]
        assert loaded["rofl.kernels._search"] == "absent"
        assert loaded["rofl.kernels._refine"] == "absent"


needs_aot = pytest.mark.skipif(
    not _aot.available(), reason=f"line logic was not compiled at install ({_aot.status()[0]})"
)


@needs_aot
def test_line_solvable_commands_import_no_numba_with_the_extension(tmp_path):
    """Line logic compiled at install: solving a line-solvable puzzle
    compiles, loads and imports nothing of numba."""
    for args in (
        ["info", SAMPLES / "coffee.rofl"],
        ["solve", SAMPLES / "horse.rofl"],
        ["decode", SAMPLES / "horse.rofl", "-o", tmp_path / "horse.png"],
        ["convert", SAMPLES / "coffee.rofl", tmp_path / "coffee.non"],
    ):
        numba, loaded = _compiled(*map(str, args))
        assert not numba, args
        assert loaded["rofl.kernels._line"] == "absent"
        assert loaded["rofl.kernels._fresh"] == "absent"
    assert (tmp_path / "horse.png").is_file() and (tmp_path / "coffee.non").is_file()


def test_search_compiled_only_when_line_logic_stalls():
    _, loaded = _compiled("solve", str(SAMPLES / "two-ways.non"), jit=True)
    assert "_search" in loaded["rofl.kernels._search"]
    assert loaded["rofl.kernels._refine"] == "absent"


def test_make_compiles_the_repair_kernels_only_for_a_picture_that_needs_repair(tmp_path):
    _, loaded = _compiled(
        "make", str(SAMPLES / "coffee.jpg"), "--style", "photo", "-q", "-o", str(tmp_path / "c.rofl"), jit=True
    )
    assert loaded["rofl.kernels._refine"] == ["_grid_clues", "_replay"]  # line-solvable as it is
    assert loaded["rofl.kernels._search"] == "absent"
    assert loaded["rofl.kernels._fresh"] in ("absent", [])  # refinement's line logic is LineSolver's
    _, loaded = _compiled("make", str(SAMPLES / "camera.jpg"), "-q", "-o", str(tmp_path / "h.rofl"), jit=True)
    assert "_estimate_moves" in loaded["rofl.kernels._refine"]


@needs_aot
def test_make_imports_no_numba_with_the_extension(tmp_path):
    """Refinement compiled at install: making a puzzle of a picture that
    needs repair (camera.jpg) or none (coffee.jpg) imports nothing of numba."""
    for name in ("coffee.jpg", "camera.jpg"):
        numba, loaded = _compiled("make", str(SAMPLES / name), "-q", "-o", str(tmp_path / f"{name}.rofl"))
        assert not numba, name
        assert loaded["rofl.kernels._refine"] == "absent"
        assert (tmp_path / f"{name}.rofl").is_file()


@needs_aot
def test_search_imports_no_numba_with_the_extension():
    """The complete search compiled at install: a puzzle that needs it
    compiles, loads and imports nothing of numba."""
    numba, loaded = _compiled("solve", str(SAMPLES / "two-ways.non"))
    assert not numba
    assert loaded["rofl.kernels._search"] == "absent"


def test_commands_that_do_not_solve_import_no_numba(tmp_path):
    two_ways = str(SAMPLES / "two-ways.non")
    for args in (
        ["info", "--no-solve", str(SAMPLES / "coffee.rofl")],
        ["convert", two_ways, str(tmp_path / "a.nin")],
        ["sheet", two_ways, "-o", str(tmp_path / "a.svg")],
        ["page", two_ways, "-o", str(tmp_path / "a.html")],
    ):
        numba, _ = _compiled(*args)
        assert not numba, args


def test_solve_says_it_compiles_apart_from_its_time(slow_line_compile, monkeypatch):
    from click.testing import CliRunner

    from rofl.cli import main

    monkeypatch.setattr(_compile, "is_cached", lambda dispatcher: False)  # as if the cache had been empty
    monkeypatch.setattr(_compile, "_notice", _compile._UNSET)  # the CLI installs its own notice
    result = CliRunner().invoke(main, ["solve", str(SAMPLES / "horse.rofl")], catch_exceptions=False)
    assert result.exit_code == 0
    notices = [line for line in result.stderr.splitlines() if "compil" in line]
    assert notices[0].startswith("compiling rofl's lean line logic for this machine (once, about ")
    assert notices[1].startswith("compiled in ")
    summary = [line for line in result.stdout.splitlines() if line.startswith("unique: ")]
    assert summary and "compil" not in summary[0]  # the solve's time is the solve's alone
    # the process compiled once: a later run in it compiles nothing and says nothing
    again = CliRunner().invoke(main, ["solve", str(SAMPLES / "horse.rofl")], catch_exceptions=False)
    assert "compil" not in again.stderr


_ONCE = """
import importlib
from numba.core.registry import CPUDispatcher
from rofl.kernels import MODULES, SETS, ready
ready(*SETS)
again = []
for name in MODULES:
    for key, value in vars(importlib.import_module(name)).items():
        if isinstance(value, CPUDispatcher) and len(value.signatures) > 1:
            again.append(f"{name}.{key}: {value.signatures}")
print(again)
"""


@pytest.mark.slow
@pytest.mark.compiles_everything
# compiling every kernel is some 190 s of CPU (kernels.COMPILE_SECONDS): past pytest's 300 s on a loaded machine
@pytest.mark.timeout(1800)
def test_every_kernel_is_compiled_once(tmp_path):
    # A constant argument (f(x, 0)) gives its callee a literal type and a
    # compile of its own: seconds each for the big kernels (docs/design.md,
    # "Compiling the kernels"); so does an array read-only at one call and
    # writable at another.  The warm-ups run every kernel set through the
    # real code, so every call site is typed.  In an empty cache of its own:
    # kernels loaded from a cache register no signatures of their callees,
    # and the check would pass whatever they were compiled for.
    env = {**os.environ, "PYTHONPATH": str(REPO), _aot.ENV_OFF: "1", "NUMBA_CACHE_DIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", _ONCE], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "[]", out.stdout


class _FakeClock:
    """``time`` for rofl.kernels._compile: seconds pass only when a test says."""

    now = 100.0

    @classmethod
    def perf_counter(cls) -> float:
        return cls.now


def _outer_warm() -> None:
    from rofl import kernels

    _FakeClock.now += 2.0
    kernels.ready(_INNER)  # a warm-up that needs another set: counted once, by the outer call
    _FakeClock.now += 3.0


def _inner_warm() -> None:
    _FakeClock.now += 5.0


_OUTER = _compile.KernelSet("outer toy", (), f"{__name__}:_outer_warm")
_INNER = _compile.KernelSet("inner toy", (), f"{__name__}:_inner_warm")


def test_a_stopwatch_stops_while_rofl_compiles(monkeypatch):
    """What ready() spends is left out of every Stopwatch running meanwhile,
    once however deep the warm-ups nest; the rest of the time counts."""
    from rofl import kernels

    monkeypatch.setattr(_compile, "time", _FakeClock)
    monkeypatch.setattr(_compile, "_ready", {})
    monkeypatch.setattr(_compile, "_spent", 0.0)
    clock = kernels.Stopwatch()
    _FakeClock.now += 1.0  # work
    kernels.ready(_OUTER)  # 10 s compiling, 5 of them the inner set's
    _FakeClock.now += 0.5  # more work
    assert clock.seconds() == 1.5
    assert _compile._spent == 10.0
    later = kernels.Stopwatch()
    kernels.ready(_OUTER, _INNER)  # ready: nothing to do, nothing spent
    assert later.seconds() == 0.0 and clock.seconds() == 1.5


def test_processors_are_this_process_s_affinity_or_else_the_machine_s(monkeypatch):
    """What threads, a batch's workers and the install's compile are sized by."""
    from rofl.kernels import processors

    monkeypatch.setattr("os.sched_getaffinity", lambda pid: {0, 3}, raising=False)
    assert processors() == 2
    monkeypatch.delattr("os.sched_getaffinity")  # not on Linux
    monkeypatch.setattr("os.cpu_count", lambda: 6)
    assert processors() == 6
    monkeypatch.setattr("os.cpu_count", lambda: None)  # cannot tell
    assert processors() == 1
