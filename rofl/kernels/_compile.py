"""The one step that compiles rofl's kernels, and the notice that it does.

Compiling takes seconds (see each set's ``seconds``), so it is never left
to happen silently inside the first call of a kernel, where it would count
as solve or refinement time and eat a search budget.  Each kind of work
needs a :class:`KernelSet` (every set is declared here: :data:`SETS`); the
public functions that run kernels call :func:`ready` with the sets they
need before their budget starts, and every clock that reports a time is a
:class:`Stopwatch`, which leaves out what :func:`ready` spent.  That step tells whether
numba's cache holds the kernels for this machine, says so through the
notice hook (:func:`set_notice`; the CLI prints it on stderr) when it must
compile, and compiles or loads them by running the set's warm-up: a tiny
piece of real work through the same wrappers, so that the kernels are
compiled with the argument types real work passes.

A set names its warm-up as ``"module:function"`` in the layer that wraps
the kernels (:mod:`rofl.solver.warmup`, :mod:`rofl.refine.warmup`): the
one reference from this ground floor up, resolved only when a set is
compiled.  Importing this module imports neither numba nor the kernels.
"""

from __future__ import annotations

import importlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rofl.kernels import _aot
from rofl.kernels._aot import Kernel, available


@dataclass(frozen=True)
class KernelSet:
    """The compiled kernels one kind of work needs, and how to compile them.

    Attributes
    ----------
    name : str
        What they do, for the notice ("line logic", "complete search").
    entry_points : tuple of Kernel
        The kernels Python calls (:mod:`rofl.kernels._aot`); compiling
        them compiles what they call.
    warm : str
        ``"module:function"`` of a function that calls every entry point on
        a tiny input, with the argument types real work uses.
    seconds : float
        How long compiling takes, from :data:`COMPILE_SECONDS` (measured),
        for the notice and ``rofl cache``.
    aot : bool
        Whether the extension compiled at install (:mod:`rofl.kernels._aot`)
        holds the entry points: when it is usable, the set is ready
        without compiling, loading or even importing numba.
    """

    name: str
    entry_points: tuple[Kernel, ...]
    warm: str
    aot: bool = False

    @property
    def seconds(self) -> float:
        return COMPILE_SECONDS[self.name]

    def ahead_of_time(self) -> bool:
        """Whether this process runs the set from the extension compiled at install."""
        return self.aot and available()

    def dispatchers(self) -> list:
        return [kernel.dispatcher for kernel in self.entry_points]


def _UNSET(message: str) -> None:  # noqa: N802 -- a sentinel: nobody chose a notice yet (silent)
    """Stand-in for the notice until someone calls :func:`set_notice`."""


_notice: Callable[[str], None] | None = _UNSET
_ready: dict[str, float] = {}  # name -> seconds it took to compile or load
_warming: set[str] = set()
_lock = threading.RLock()  # a set's warm-up may ensure another set
_depth = 0  # ready() calls under way (a warm-up may call ready() again)
_spent = 0.0  # seconds this process spent in ready(), for Stopwatch


#: CPU seconds each set takes to compile alone (in a fresh process and cache,
#: with what it calls of other sets), measured by ``benchmarks/compile_time.py
#: --alone`` on the 2-core machine (2026-11-29, rounded up to 5 s; wall time
#: there was 2 to 6 times more, the machine being loaded): the one source of
#: every estimate rofl prints (the notice sums the sets it compiles, so sets
#: that share kernels take less than it says; ``rofl cache``).
COMPILE_SECONDS = {
    "line logic": 30,
    "lean line logic": 25,
    "line logic for hexagons and ? clues": 25,
    "complete search": 60,
    "difficulty grader": 20,
    "refinement": 35,
    "picture repair": 45,
    "hexagon refinement": 30,
}

#: The line DP and propagation with a line cache or a start: refinement,
#: the search's root, ``rofl.solve`` from given masks.
LINE = KernelSet("line logic", (_aot.propagate, _aot.clue_hashes), "rofl.solver.warmup:warm_line", aot=True)

#: The lean path of a fresh ``rofl.solve`` (:mod:`rofl.kernels._fresh`).
#: A set of its own, so that ``rofl make`` never compiles it and ``rofl
#: solve`` of such a puzzle compiles only it;
#: :func:`rofl.solver.propagate.line_kernels` says which set a solve needs.
FRESH = KernelSet("lean line logic", (_aot.solve_fresh,), "rofl.solver.warmup:warm_fresh", aot=True)

#: Line logic over lines given as index lists: hexagonal puzzles and
#: puzzles with ``?`` groups (:mod:`rofl.solver.lines`), and the
#: refinement of hexagonal pictures (:mod:`rofl.refine.hexagon`).
INDEX = KernelSet("line logic for hexagons and ? clues", (_aot.propagate_lines,), "rofl.solver.warmup:warm_index")

#: The difficulty grader (:mod:`rofl.solver.grade`): one kernel of its own,
#: over lines given as index lists; ``rofl info`` and ``rofl solve`` grade
#: every puzzle, so it is compiled at install with line logic.
GRADE = KernelSet("difficulty grader", (_aot.grade,), "rofl.solver.warmup:warm_grade", aot=True)

#: The complete search: only for puzzles line logic does not finish.
SEARCH = KernelSet("complete search", (_aot.search,), "rofl.solver.warmup:warm_search", aot=True)

#: The kernels every refinement runs (clue derivation, replaying a solve).
REFINE = KernelSet("refinement", (_aot.grid_clues, _aot.replay), "rofl.refine.warmup:warm_refine", aot=True)

#: The kernels that repair a picture line logic cannot solve as it is
#: (estimates of single-cell changes, failure certificates).
REPAIR = KernelSet(
    "picture repair", (_aot.resume_certificate, _aot.estimate_moves), "rofl.refine.warmup:warm_repair", aot=True
)

#: The kernel that estimates moves on a hexagon, a set of its own: solving
#: a hexagon never compiles it.
HEX_REFINE = KernelSet("hexagon refinement", (_aot.hex_estimate_moves,), "rofl.refine.warmup:warm_hex")

#: Every set, in the order ``rofl cache`` lists them.
SETS = (LINE, FRESH, INDEX, SEARCH, GRADE, REFINE, REPAIR, HEX_REFINE)


def set_notice(callback: Callable[[str], None] | None, *, default: bool = False) -> None:
    """Have ``callback(message)`` called before rofl compiles (None: silence).

    The library is silent until someone chooses; the command line installs
    its notice (stderr) with ``default=True``, which leaves a choice made
    earlier in the process alone (a program or test suite that runs the
    CLI in-process and chose silence), and ``make --quiet`` silences it.
    """
    global _notice  # noqa: PLW0603 -- one process-wide setting, like warnings filters
    if not default or _notice is _UNSET:
        _notice = callback


def is_cached(dispatcher) -> bool:
    """Whether numba's cache holds ``dispatcher`` compiled for this machine from its current source.

    Numba keys cached code by the source file's time stamp and size, the
    function's byte code and the CPU; an entry that does not match is stale
    and is compiled again.  This reads the same index numba reads.
    """
    try:
        cache = dispatcher._cache  # noqa: SLF001 -- numba has no public query
        index = cache._cache_file._load_index()  # noqa: SLF001
        key = cache._index_key(None, dispatcher.targetctx.codegen())  # noqa: SLF001
    except (AttributeError, OSError, TypeError, ValueError):
        return False  # another numba: assume the worst, the notice is harmless
    return any(k[1:] == key[1:] for k in index)


def is_compiled(dispatcher) -> bool:
    """Whether this process holds ``dispatcher`` compiled (or loaded from the cache)."""
    return bool(dispatcher.signatures)


def all_cached(*sets: KernelSet) -> bool:
    """Whether numba's cache holds every kernel of ``sets``, fresh, or the
    extension compiled at install does: then a process loads them without
    compiling (and without the notice)."""
    return all(s.ahead_of_time() or all(is_cached(d) for d in s.dispatchers()) for s in sets)


def ready(*sets: KernelSet) -> None:
    """Compile (or load from numba's cache) the kernels of ``sets`` if this
    process does not hold them yet: call it before starting a clock, so
    that compiling never counts as solve, refinement or budget time.

    Before compiling, i.e. when the cache lacks a kernel or holds a stale
    one, the notice hook is called once with e.g. ``compiling rofl's line
    logic for this machine (once, about 30 s)...``, and once more when it
    is done (``compiled in 38 s``).  Loading from the cache is silent.  A
    set the extension compiled at install holds
    (:meth:`KernelSet.ahead_of_time`) is ready at once.
    """
    global _depth, _spent  # noqa: PLW0603 -- process-wide, like numba's own dispatchers
    for s in sets:  # the common case, on every rofl.solve: all ready (a loop is the quickest test)
        if s.name not in _ready:
            break
    else:
        return
    with _lock:  # two threads would compile the same kernels twice
        began_all = time.perf_counter()
        _depth += 1
        try:
            _ready_under_lock(sets)
        finally:
            _depth -= 1
            if _depth == 0:  # the outermost call counts, once
                _spent += time.perf_counter() - began_all


def _ready_under_lock(sets: tuple[KernelSet, ...]) -> None:
    """:func:`ready`'s work, the lock held."""
    # a warm-up's own solve asks for its set again: it is under way
    todo = [s for s in sets if s.name not in _ready and s.name not in _warming]
    for s in [s for s in todo if s.ahead_of_time()]:
        _ready[s.name] = 0.0
        todo.remove(s)
    missing = [s for s in todo if not all_cached(s)]
    if missing and _notice is not None and _notice is not _UNSET:
        names = [s.name for s in missing]
        what = " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)
        about = sum(s.seconds for s in missing)
        _notice(f"compiling rofl's {what} for this machine (once, about {about:.0f} s)...")
    began_all = time.perf_counter()
    for s in todo:
        began = time.perf_counter()
        module, function = s.warm.split(":")
        _warming.add(s.name)
        try:
            getattr(importlib.import_module(module), function)()
        finally:
            _warming.discard(s.name)
        _ready[s.name] = time.perf_counter() - began
    if missing and _notice is not None and _notice is not _UNSET:
        _notice(f"compiled in {time.perf_counter() - began_all:.0f} s")


class Stopwatch:
    """Wall time since it was made, less the time this process spent in
    :func:`ready` meanwhile: a clock that stops while rofl compiles.

    An entry point readies what it surely needs before it starts its
    stopwatch; a set it needs only sometimes (the complete search after
    line logic stalls, the picture repair for a picture line logic cannot
    solve as it is) is readied when needed, and no stopwatch running then
    counts it, so no result has to carry compile time.
    """

    def __init__(self) -> None:
        self._start = time.perf_counter()
        self._spent = _spent

    def seconds(self) -> float:
        return time.perf_counter() - self._start - (_spent - self._spent)


def cache_files(*sets: KernelSet) -> dict[Path, list[Path]]:
    """numba's cache files of the modules defining ``sets``, by folder.

    Numba names them ``<module>.<function>-<line>.pyXY.nbi`` (an index) and
    ``...<n>.nbc`` (machine code), in the module's ``__pycache__`` or under
    ``NUMBA_CACHE_DIR``; nothing else in those folders is listed (the
    ``__pycache__`` also holds Python's own ``.pyc`` files).
    """
    found: dict[Path, list[Path]] = {}
    modules: dict[str, object] = {}  # one dispatcher of every module that defines kernels of ``sets``
    for s in sets:
        for d in s.dispatchers():
            modules.setdefault(d.py_func.__module__, d)
    for module, dispatcher in modules.items():
        folder = Path(dispatcher._cache.cache_path)  # noqa: SLF001 -- where numba writes this module's code
        stem = module.rpartition(".")[2]
        files = sorted(p for p in folder.glob(f"{stem}.*.nb[ic]") if p.is_file()) if folder.is_dir() else []
        found.setdefault(folder, []).extend(files)
    return found


def clear_cache(*sets: KernelSet) -> tuple[int, int]:
    """Delete numba's cache files of ``sets`` (see :func:`cache_files`);
    the number of files and of bytes removed.  The next use compiles again."""
    count = size = 0
    for files in cache_files(*sets).values():
        for path in files:
            try:
                length = path.stat().st_size
                path.unlink()
            except FileNotFoundError:
                continue  # another process cleared it first
            count += 1
            size += length
    return count, size
