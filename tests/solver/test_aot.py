"""Kernels compiled ahead of time (rofl.kernels._aot): the extension's
variants of line logic, refinement and the complete search against the
JIT kernels and brute force, the choice between them, and CI's guarantee
that the extension was built."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rofl import kernels
from rofl.formats import open_puzzle
from rofl.kernels import _aot
from rofl.puzzle import Palette, Puzzle
from rofl.solver import LineSolver, solve
from rofl.solver.index_lines import needs_lines
from tests import naive
from tests.places import CORPUS, DATA_DIR, SAMPLES

needs_aot = pytest.mark.skipif(not _aot.available(), reason=f"no kernels compiled at install: {_aot.status()[0]}")


def test_ci_built_the_extension():
    """CI (``ROFL_REQUIRE_AOT=1`` in .ci/run) installs with a C compiler: the
    extension must be there and match these sources, or this fails."""
    if os.environ.get("ROFL_REQUIRE_AOT", "") in ("", "0"):
        pytest.skip("ROFL_REQUIRE_AOT is not set: the extension is optional")
    assert _aot.status()[0] == "in use"


@pytest.fixture
def aot_only(monkeypatch):
    """Every kernel call through the extension: falling back to the JIT (a
    signature that does not match) fails the test."""
    if not _aot.available():
        pytest.skip(f"no kernels compiled at install: {_aot.status()[0]}")

    def refuse(kernel):
        msg = f"{kernel} fell back to the JIT"
        raise AssertionError(msg)

    monkeypatch.setattr(_aot, "_jit", refuse)


def _palette(n_colors: int) -> Palette:
    return Palette([(255, 255, 255), *[(4 * i, 20 * i % 256, 255 - 3 * i) for i in range(1, n_colors)]])


def _random_grid(h: int, w: int, n_colors: int, seed: int, density: float = 0.5) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.where(rng.random((h, w)) < density, rng.integers(1, n_colors, size=(h, w)), 0).astype(np.uint8)


def _random(h: int, w: int, n_colors: int, seed: int, density: float = 0.5) -> Puzzle:
    return Puzzle.from_grid(_random_grid(h, w, n_colors, seed, density), _palette(n_colors))


def _puzzles() -> list[tuple[str, Puzzle]]:
    """Rectangles from the samples, the tests' files and the corpus (a few
    hundred), and random ones of more than 8 colours (the int64 line cache)."""
    found = []
    paths = [*sorted(SAMPLES.glob("*.rofl")), *sorted(SAMPLES.glob("*.non")), *sorted(DATA_DIR.rglob("*.non"))]
    paths += sorted(CORPUS.glob("*/*.json"))[:300] if CORPUS.is_dir() else []
    for path in paths:
        try:
            puzzle = open_puzzle(path).puzzle
        except Exception:  # noqa: BLE001 -- hostile files among the tests' data
            continue
        if isinstance(puzzle, Puzzle) and not needs_lines(puzzle) and puzzle.packed.lens.size:
            found.append((Path(path).name, puzzle))
    found += [(f"random {n} colours", _random(25, 20, n, seed=n)) for n in (12, 30, 64)]
    return found


def _outcomes(puzzle: Puzzle) -> list:
    """What every entry point of line logic makes of ``puzzle``."""
    out = []
    for result in (solve(puzzle), LineSolver(cache_mb=0).solve(puzzle), LineSolver(cache_mb=1).solve(puzzle)):
        out.append((str(result.status), result.masks.tobytes(), result.line_solves, result.sweeps, result.bad_line))
    return out


@pytest.mark.slow
def test_extension_and_jit_agree_on_puzzles(aot_only, monkeypatch):
    puzzles = _puzzles()
    assert len(puzzles) > 10
    ahead = [_outcomes(p) for _, p in puzzles]
    monkeypatch.undo()  # the JIT from here on
    monkeypatch.setenv(_aot.ENV_OFF, "1")
    _aot.reset()
    try:
        for (name, puzzle), expected in zip(puzzles, ahead, strict=True):
            assert _outcomes(puzzle) == expected, name
    finally:
        monkeypatch.undo()
        _aot.reset()


@st.composite
def grids(draw, max_side=7, max_colors=4):
    n_colors = draw(st.integers(2, max_colors))
    h, w = draw(st.integers(1, max_side)), draw(st.integers(1, max_side))
    return _random(h, w, n_colors, draw(st.integers(0, 2**32 - 1)), draw(st.sampled_from([0.3, 0.5, 0.7])))


@settings(deadline=None, max_examples=100, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(grids())
def test_extension_equals_naive_propagation(aot_only, puzzle):
    status, masks = naive.propagate(puzzle)
    for solver in (solve, LineSolver(cache_mb=0).solve, LineSolver(cache_mb=1).solve):
        result = solver(puzzle)
        assert result.status == status
        np.testing.assert_array_equal(result.masks, masks)


@needs_aot
def test_arguments_of_other_types_go_to_the_jit(monkeypatch):
    """pycc's wrappers check only the item size: a strided or wrongly typed
    array must never reach them."""
    used = []
    monkeypatch.setattr(_aot, "_jit", lambda kernel: lambda *args: used.append(kernel) or "jit")
    lens = np.array([1, 2, 3, 4], dtype=np.int64)
    offs = np.array([0, 2, 4], dtype=np.int64)
    assert isinstance(kernels.clue_hashes(lens, lens, offs, 2), np.ndarray)
    frozen = lens.copy()
    frozen.flags.writeable = False
    for bad in (lens[::2], lens.astype(np.uint64), lens.reshape(2, 2), list(lens), frozen):
        assert kernels.clue_hashes(bad, lens, offs, 2) == "jit"
    assert kernels.clue_hashes(lens, lens, offs, 2.0) == "jit"
    assert kernels.clue_hashes(lens, lens, offs, True) == "jit"
    assert kernels.clue_hashes(lens, lens, offs, np.uint64(2)) == "jit"
    assert kernels.clue_hashes(lens, lens, offs, 2**63) == "jit"
    assert isinstance(kernels.clue_hashes(lens, lens, offs, np.int64(2)), np.ndarray)
    assert used == [kernels.clue_hashes] * 9


def _fake_parts(monkeypatch, digests: dict[int, int | None]) -> None:
    """Parts of the extension in ``sys.modules``, built from sources of
    these digests (None: the part is missing); any call fails the test."""
    import sys
    import types

    for part, module in enumerate(_aot.PARTS):
        digest = digests.get(part)
        if digest is None:
            monkeypatch.setitem(sys.modules, module, None)  # import raises ImportError naming it
            continue
        fake = types.ModuleType(module)
        fake.source_digest = lambda digest=digest: digest
        for export in _aot.EXPORTS:
            setattr(fake, export.name, lambda *args: pytest.fail("an unusable extension was called"))
        monkeypatch.setitem(sys.modules, module, fake)
    monkeypatch.delenv(_aot.ENV_OFF, raising=False)
    _aot.reset()


@pytest.mark.parametrize(
    ("digests", "status"),
    [
        ({0: "stale", 1: "stale"}, "not used: built from other sources"),
        ({0: "current", 1: "stale"}, "not used: built from other sources"),
        ({0: "current", 1: None}, "not usable: built in part"),
        ({0: None, 1: None}, "not built"),
    ],
)
def test_an_extension_from_other_sources_or_in_part_is_not_used(monkeypatch, digests, status):
    """A stale extension (an older install beside newer sources), or one
    part without the other (a build that failed half way), never answers."""
    value = {"current": _aot.source_digest(), "stale": _aot.source_digest() ^ 1, None: None}
    _fake_parts(monkeypatch, {part: value[digest] for part, digest in digests.items()})
    try:
        assert not _aot.available()
        assert _aot.status()[0].startswith(status)
    finally:
        monkeypatch.undo()
        _aot.reset()


def test_both_parts_together_answer_every_export(monkeypatch):
    """Each variant comes from the part that holds it: both parts load, and
    every kernel of the extension has its variants."""
    _fake_parts(monkeypatch, dict.fromkeys(range(len(_aot.PARTS)), _aot.source_digest()))
    try:
        assert _aot.status()[0] == "in use" and _aot.available()
        assert len(_aot.status()[1]) == len(_aot.PARTS)
        functions = _aot._load().functions  # noqa: SLF001
        assert sum(map(len, functions.values())) == len(_aot.EXPORTS)
    finally:
        monkeypatch.undo()
        _aot.reset()


def test_the_parts_share_the_work():
    """Both parts hold variants, and each kernel that takes a line cache has
    its byte-wide variant in one part and its int64 one in the other (the
    two compiles then take about as long)."""
    parts = {export.part for export in _aot.EXPORTS}
    assert parts == set(range(len(_aot.PARTS))) == {0, 1}
    for export in _aot.EXPORTS:
        if export.name.endswith(("_u8", "_i64")):
            assert export.part == (0 if export.name.endswith("_u8") else 1), export.name


def test_the_build_compiles_from_sources_not_from_numbas_cache():
    """While the extension builds, no kernel loads or saves numba's cache
    (pycc takes callees from it, and numba checks a cached kernel against
    its own module only: a stale caller would carry an old callee); after
    it, every kernel has its own cache back, those that other modules
    import too."""
    import importlib

    from numba.core.caching import NullCache
    from numba.core.registry import CPUDispatcher

    from rofl.kernels import _line

    kernels = {
        id(value): value
        for name in _aot.MODULES
        for value in vars(importlib.import_module(name)).values()
        if isinstance(value, CPUDispatcher)
    }
    before = {key: kernel._cache for key, kernel in kernels.items()}  # noqa: SLF001
    assert len(kernels) > 100
    with _aot._uncached():  # noqa: SLF001
        for kernel in kernels.values():
            assert isinstance(kernel._cache, NullCache), kernel.__name__  # noqa: SLF001
        assert isinstance(_line._solve_line._cache, NullCache)  # noqa: SLF001
    for key, kernel in kernels.items():
        assert kernel._cache is before[key], kernel.__name__  # noqa: SLF001
    assert not isinstance(_line._line_colours._cache, NullCache)  # noqa: SLF001 -- imported from _bits


def _warm_wide() -> None:
    """The kernel sets' warm-ups over more than 8 colours: the int64 line cache."""
    from rofl.refine.refinement import refine
    from rofl.solver.search import solve_complete

    LineSolver(cache_mb=1).solve(_random(4, 4, 12, seed=1))
    grid = np.array([[1, 0, 1, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]], dtype=np.uint8) * 9
    refine(grid, _palette(12), polish=1, relocate=1, pairs=True)
    one = ((1, 9),)
    assert solve_complete(Puzzle(2, 2, _palette(12), (one, one), (one, one)), time_budget=None).nodes > 0


def test_exports_are_the_signatures_real_work_calls(monkeypatch):
    """The extension holds exactly the variants real work calls: in the
    warm-ups of every kernel set it holds (which run through the same code as
    real work) and the same over more than 8 colours, the numba types of
    every exported kernel's arguments -- what numba's JIT compiles a variant
    for each of -- are its exports.  The types are read at the call, so no
    kernel is compiled for this (with the extension in use; without it the
    calls compile through the JIT, as real work would)."""
    import numba
    from numba.core import sigutils

    from rofl.refine import warmup as refine_warm
    from rofl.solver import warmup as _warm

    called: dict = {}
    resolved = _aot.Kernel.resolved

    def recording(kernel, *args):
        called.setdefault(kernel, set()).add(tuple(numba.typeof(arg) for arg in args))
        return resolved(kernel, *args)

    monkeypatch.setattr(_aot.Kernel, "resolved", recording)
    _warm.warm_line()
    _warm.warm_fresh()
    _warm.warm_search()
    _warm.warm_grade()
    refine_warm.warm_refine()
    refine_warm.warm_repair()
    _warm_wide()
    exports = _aot.EXPORTS
    for kernel in {e.kernel for e in exports}:
        exported = {sigutils.normalize_signature(e.signature)[0] for e in exports if e.kernel == kernel}
        assert called.get(kernel) == exported, kernel


def test_the_extension_holds_the_sets_marked_ahead_of_time():
    """Every entry point of a kernel set marked ``aot`` is exported, and
    every export is an entry point of such a set."""
    k = kernels
    marked = {s.name for s in k.SETS if s.aot}
    assert marked == {s.name for s in (k.LINE, k.FRESH, k.SEARCH, k.GRADE, k.REFINE, k.REPAIR)}
    entries = {kernel for s in k.SETS if s.aot for kernel in s.entry_points}
    assert entries == {e.kernel for e in _aot.EXPORTS}


def test_the_extension_lives_in_the_kernels_package():
    """Built beside the kernels' sources (an editable install finds it there)."""
    assert all(module.startswith("rofl.kernels._aot_kernels_") for module in _aot.PARTS)
    _, paths = _aot.status()
    for path in paths:
        assert Path(path).parent == Path(kernels.__file__).parent


# ------------------------------------------------- refinement and the search


def _refinements() -> list[tuple[str, np.ndarray, Palette]]:
    """Noisy grids refinement must repair, of 2, 4 and 12 colours (the int64 line cache)."""
    found = []
    for n_colors, side in ((2, 14), (4, 12), (12, 10)):
        for seed in range(2):
            grid = _random_grid(side, side + 2, n_colors, seed=100 * n_colors + seed)
            found.append((f"{n_colors} colours, seed {seed}", grid, _palette(n_colors)))
    return found


def _refined(grid: np.ndarray, palette: Palette) -> tuple:
    from rofl.refine.refinement import refine

    done = refine(grid, palette, polish=1, relocate=1, pairs=True)
    return (
        done.grid.tobytes(),
        done.iterations,
        done.evaluations,
        done.line_solves,
        done.sweeps,
        done.reverted,
        done.polish_rounds,
        done.relocated,
    )


def _searches() -> list[tuple[str, Puzzle]]:
    """Puzzles line logic does not finish: random grids whose clues are
    ambiguous, of 2, 3 and 12 colours, and the samples that need search."""
    found = []
    for n_colors, side in ((2, 6), (3, 5), (12, 5)):
        seed = 0
        while sum(1 for name, _ in found if name.startswith(f"{n_colors} ")) < 4:
            puzzle = _random(side, side, n_colors, seed=seed)
            seed += 1
            if puzzle.packed.lens.size and solve(puzzle).status == "stalled":
                found.append((f"{n_colors} colours, seed {seed - 1}", puzzle))
    found.append(("two-ways.non", open_puzzle(SAMPLES / "two-ways.non").puzzle))
    return found


def _searched(puzzle: Puzzle) -> tuple:
    from rofl.solver.search import solve_complete

    done = solve_complete(puzzle, time_budget=None)
    solutions = tuple(grid.tobytes() for grid in done.solutions)
    return str(done.status), solutions, done.nodes, done.probes, done.line_solves, done.attempts


def _ahead_and_jit(monkeypatch, cases, outcome) -> tuple[list, list]:
    """``outcome(*case)`` of every case through the extension only, then through the JIT."""
    ahead = [outcome(*case[1:]) for case in cases]
    monkeypatch.undo()  # the JIT from here on
    monkeypatch.setenv(_aot.ENV_OFF, "1")
    _aot.reset()
    try:
        return ahead, [outcome(*case[1:]) for case in cases]
    finally:
        monkeypatch.undo()
        _aot.reset()


@pytest.mark.slow
def test_extension_and_jit_agree_on_refinement(aot_only, monkeypatch):
    cases = _refinements()
    ahead, jit = _ahead_and_jit(monkeypatch, cases, _refined)
    for (name, *_), a, j in zip(cases, ahead, jit, strict=True):
        assert a == j, name
    assert any(a[0] != grid.tobytes() for a, (_, grid, _) in zip(ahead, cases, strict=True))  # some repaired


@pytest.mark.slow
def test_extension_and_jit_agree_on_the_search(aot_only, monkeypatch):
    cases = _searches()
    ahead, jit = _ahead_and_jit(monkeypatch, cases, _searched)
    for (name, _), a, j in zip(cases, ahead, jit, strict=True):
        assert a == j, name
    assert {a[0] for a in ahead} >= {"unique", "multiple"}


def test_extension_search_equals_brute_force(aot_only):
    """Through the extension, the search counts what enumerating every grid
    counts: every puzzle of 3x3 cells in 2 colours and of 2x3 in 3."""
    from tests.solver.test_search import all_puzzles, check

    for height, width, n_colors in ((3, 3, 2), (2, 3, 3)):
        palette = _palette(n_colors)
        for (rows, cols), (count, solution) in all_puzzles(height, width, n_colors).items():
            check(Puzzle(width, height, palette, rows, cols), count, solution)


def test_an_editable_install_builds_the_extension_into_the_source_tree():
    """``pip install -e .`` imports rofl from the source tree: the extension
    is built there, beside the kernels; a wheel holds it in the same place."""
    import importlib.util
    from types import SimpleNamespace

    from tests.places import REPO

    spec = importlib.util.spec_from_file_location("rofl_setup", REPO / "setup.py")
    setup = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(setup)  # defines, does not run setup()
    kernels_folder = Path(kernels.__file__).parent
    editable = SimpleNamespace(inplace=False, editable_mode=True, build_lib="/tmp/build/lib")
    assert setup.extension_folder(editable) == REPO / "rofl" / "kernels" == kernels_folder
    assert setup.extension_folder(SimpleNamespace(inplace=True, build_lib="b")) == kernels_folder
    wheel = SimpleNamespace(inplace=False, editable_mode=False, build_lib="/tmp/build/lib")
    assert setup.extension_folder(wheel) == Path("/tmp/build/lib/rofl/kernels")


def test_the_module_lists_cover_the_package():
    """Every module of rofl.kernels is in MODULES (kernels) or SUPPORT (what
    they read), which the extension's digest covers, but the two that compiled
    code never reads: a new kernel module cannot be left out of the digest,
    the compile benchmark and the compiled-once test."""
    from pathlib import Path

    from rofl import kernels

    here = {path.stem for path in Path(kernels.__file__).parent.glob("*.py")}
    listed = [name.rpartition(".")[2] for name in kernels.MODULES + kernels.SUPPORT]
    assert len(listed) == len(set(listed))
    assert here - set(listed) == {"__init__", "_compile"}
    assert set(listed) <= here


def _value(kind: str):
    """A value of numba type ``kind`` (see rofl.kernels._aot.Export)."""
    if kind == "int64":
        return np.int64(3)
    if kind == "boolean":
        return True
    dtype, _, dims = kind.partition("[")
    return np.zeros((3,) * (dims.count(",") + 1), dtype=np.bool_ if dtype == "boolean" else dtype)


def _wrong(kind: str) -> list:
    """Values that numba types other than ``kind``."""
    if kind == "int64":
        return [2.0, True, np.uint64(2), np.int32(2), 2**63, np.zeros(1, dtype=np.int64)]
    if kind == "boolean":
        return [1, np.int64(1), None, np.zeros(1, dtype=np.bool_)]
    good = _value(kind)
    frozen = good.copy()
    frozen.flags.writeable = False
    other = np.float32 if good.dtype != np.float32 else np.float64
    return [
        good.astype(other),
        good[..., ::2],
        good.reshape(-1)[:1].reshape((1,) * (good.ndim + 1)),
        frozen,
        list(good),
    ]


def test_the_type_check_of_every_variant_takes_exactly_its_types():
    """The one test per variant that guards the extension's wrappers: the
    exact types pass (Python ints and bools too), one wrong argument or a
    wrong count sends the call to the JIT."""
    for export in _aot.EXPORTS:
        check = _aot._checker(export.args)
        args = [_value(kind) for kind in export.args]
        assert check(tuple(args)), export.name
        assert check(tuple(3 if kind == "int64" else a for kind, a in zip(export.args, args, strict=True)))
        assert not check(tuple(args[:-1])) and not check((*args, 1))
        for i, kind in enumerate(export.args):
            for bad in _wrong(kind):
                assert not check((*args[:i], bad, *args[i + 1 :])), (export.name, i, kind, bad)


def test_a_part_that_fails_to_build_is_named(monkeypatch, tmp_path):
    """Each part builds in a child process; one that fails makes the build
    raise, naming the part and what it said last, after every child ended."""
    fails = tmp_path / "fails"
    fails.write_text("#!/bin/sh\necho 'numba.core.errors.TypingError: no C compiler here' >&2\nexit 3\n")
    fails.chmod(0o755)
    monkeypatch.setattr(_aot.sys, "executable", str(fails))
    with pytest.raises(RuntimeError) as raised:
        _aot.build(tmp_path)
    message = "TypingError: no C compiler here"
    assert str(raised.value) == f"part 0: numba.core.errors.{message}; part 1: numba.core.errors.{message}"
