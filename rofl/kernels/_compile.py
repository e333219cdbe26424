"""The one step that compiles rofl's kernels, and the notice that it does.

Compiling takes seconds (line logic about 10 s of CPU, the complete search
and refinement more), so it is never left to happen silently inside the
first call of a kernel, where it would count as solve or refinement time
and eat a search budget.  Each kind of work declares its kernels as a
:class:`KernelSet` (:data:`LINE` and :data:`SEARCH` here, refinement's in
:mod:`rofl.refine.judge`); the code that runs them calls
:func:`ensure_compiled` first, before it starts its clock.  That step tells
whether numba's cache holds the kernels for this machine, says so through
the notice hook (:func:`set_notice`; the CLI prints it on stderr) when it
must compile, compiles or loads them by calling them on a tiny input, and
returns the seconds it took, which the caller reports as their own figure.

Importing this module imports neither numba nor the kernels: a kernel set
names its module, loaded only when some work needs it.
"""

from __future__ import annotations

import importlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class KernelSet:
    """The compiled kernels one kind of work needs, and how to compile them.

    Attributes
    ----------
    name : str
        What they do, for the notice ("line logic", "complete search").
    module : str
        The module that defines them (imported only by :func:`ensure_compiled`).
    entry_points : tuple of str
        The kernels Python calls; compiling them compiles what they call.
        A name of ``module`` or, for a kernel defined elsewhere,
        ``"other.module:name"``.
    warm : str
        ``"module:function"`` of a function that calls every entry point on
        a tiny input, with the argument types real work uses.
    seconds : float
        About how long compiling takes on a 2-core machine, for the notice.
    aot : bool
        Whether the extension compiled at install (:mod:`rofl.solver._aot`)
        holds the entry points: when it is usable, the set is ready
        without compiling, loading or even importing numba.
    """

    name: str
    module: str
    entry_points: tuple[str, ...]
    warm: str
    seconds: float
    aot: bool = False

    def ahead_of_time(self) -> bool:
        """Whether this process runs the set from the extension compiled at install."""
        if not self.aot:
            return False
        from rofl.solver._aot import available

        return available()

    def dispatchers(self) -> list:
        found = []
        for entry in self.entry_points:
            module, _, name = entry.rpartition(":")
            found.append(getattr(importlib.import_module(module or self.module), name))
        return found


def _UNSET(message: str) -> None:  # noqa: N802 -- a sentinel: nobody chose a notice yet (silent)
    """Stand-in for the notice until someone calls :func:`set_notice`."""


_notice: Callable[[str], None] | None = _UNSET
_ready: dict[str, float] = {}  # name -> seconds it took to compile or load
_warming: set[str] = set()
_fresh: set[str] = set()  # sets this process compiled rather than loaded
_lock = threading.RLock()  # a set's warm-up may ensure another set


#: The line DP and propagation with a line cache or a start: refinement,
#: the search's root, ``rofl.solve`` from given masks.
LINE = KernelSet(
    "line logic",
    "rofl.solver._kernels",
    ("_propagate", "_clue_hashes"),
    warm="rofl.solver._warm:warm_line",
    seconds=10,
    aot=True,
)

#: The lean path of a fresh ``rofl.solve``
#: (:mod:`rofl.solver._fast`).  A set of its own, so that ``rofl make``
#: never compiles it and ``rofl solve`` of such a puzzle compiles only it;
#: :func:`rofl.solver.propagate.line_kernels` says which set a solve needs.
FRESH = KernelSet(
    "lean line logic",
    "rofl.solver._fast",
    ("_solve_fresh",),
    warm="rofl.solver._warm:warm_fresh",
    seconds=10,
    aot=True,
)

#: Line logic over lines given as index lists: hexagonal puzzles and
#: puzzles with ``?`` groups (:mod:`rofl.solver.lines`), and the
#: refinement of hexagonal pictures (:mod:`rofl.refine.hexagon`).
INDEX = KernelSet(
    "line logic for hexagons and ? clues",
    "rofl.solver._index_kernels",
    ("_propagate_lines",),
    warm="rofl.solver._warm:warm_index",
    seconds=8,
)

#: The difficulty grader (:mod:`rofl.solver.grade`): one kernel of its own,
#: over lines given as index lists; ``rofl info`` and ``rofl solve`` grade
#: every puzzle, so it is compiled at install with line logic.
GRADE = KernelSet(
    "difficulty grader",
    "rofl.solver._grade_kernels",
    ("_grade",),
    warm="rofl.solver._warm:warm_grade",
    seconds=15,
    aot=True,
)

#: The complete search: only for puzzles line logic does not finish.
SEARCH = KernelSet(
    "complete search",
    "rofl.solver._search",
    ("_search",),
    warm="rofl.solver._warm:warm_search",
    seconds=20,
    aot=True,
)


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


def ensure_compiled(*sets: KernelSet) -> float:
    """Compile (or load from numba's cache) the kernels of ``sets`` if this
    process does not hold them yet.

    Before compiling, i.e. when the cache lacks a kernel or holds a stale
    one, the notice hook is called once with e.g. ``compiling rofl's line
    logic for this machine (once, about 10 s)...``.  Loading from the cache
    is silent.  A set the extension compiled at install holds
    (:meth:`KernelSet.ahead_of_time`) is ready at once.

    Returns
    -------
    float
        Seconds spent importing, compiling or loading (0 when every set was
        ready): time the caller reports on its own, never as solve,
        refinement or budget time.
    """
    if all(s.name in _ready for s in sets):
        return 0.0
    start = time.perf_counter()
    with _lock:  # two threads would compile the same kernels twice
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
        _fresh.update(s.name for s in missing)
        for s in todo:
            began = time.perf_counter()
            module, function = s.warm.split(":")
            _warming.add(s.name)
            try:
                getattr(importlib.import_module(module), function)()
            finally:
                _warming.discard(s.name)
            _ready[s.name] = time.perf_counter() - began
    return time.perf_counter() - start


def compile_count() -> int:
    """How many kernel sets this process has compiled (rather than loaded
    from numba's cache) so far.  A report compares the count before and
    after its work to say whether *that* run compiled: a process compiles
    each set at most once."""
    return len(_fresh)


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
