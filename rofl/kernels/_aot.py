"""Kernels compiled ahead of time, and the one place that decides whether
a call runs them or numba's JIT.

At install, ``setup.py`` calls :func:`build`, which compiles the entry
points of the kernel sets marked ``aot`` -- line logic (``LINE``,
``FRESH``), the complete search (``SEARCH``), the difficulty grader
(``GRADE``) and refinement (``REFINE``, ``REPAIR``; all in
:mod:`rofl.kernels._compile`) -- with ``numba.pycc`` into ordinary
extension modules inside this package: the two parts of :data:`PARTS`
(``rofl/kernels/_aot_kernels_0.*.so`` and ``_1``; an editable install
builds them into the source tree), each compiled in a process of its own,
side by side where rofl may use two processors.  The build is optional:
without a compiler or numba it is skipped with a warning, and rofl
compiles the same kernels with the JIT on first use.  Hexagons and ``?``
clues (``INDEX``, ``HEX_REFINE``) are left to the JIT: few puzzles need
them, and every kernel here adds to the install's compile.

Python calls a kernel through its :class:`Kernel` handle (``propagate(...)``,
``search(...)``): the call runs the extension when it is usable and
holds a variant whose signature matches the arguments' types exactly
(dtype, dimensions, C order, writable: pycc's wrappers check only the
item size, so anything else must not reach them), the JIT dispatcher
otherwise.  :func:`available` tells :func:`~rofl.kernels._compile.ready`
that nothing needs compiling; a process that runs only these kernels
then never imports numba.  The extension is used only
if it was built from the kernels' current sources (:func:`source_digest`,
compiled into it): an extension left by an older install never answers
for newer code.  ``ROFL_NO_AOT=1`` in the environment turns it off (at
build time: skips the build), for tests and comparisons.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

#: The extension's modules, inside this package beside this module: part
#: ``i`` holds the variants whose :attr:`Export.part` is ``i`` (a line
#: cache's byte-wide variants in one, its int64 ones in the other, so that
#: their compiles take about as long: :func:`build` runs them side by side).
#: Both must load, built from these sources, for either to be used.
PARTS = ("rofl.kernels._aot_kernels_0", "rofl.kernels._aot_kernels_1")

#: Set to 1 to ignore the extension (and, when building, not to build it).
ENV_OFF = "ROFL_NO_AOT"

# numba's types of the kernels' arguments (for :class:`Export`)
I1 = "int64[::1]"
I2 = "int64[:, ::1]"
I3 = "int64[:, :, ::1]"
U1 = "uint8[::1]"
U2 = "uint8[:, ::1]"
B1 = "boolean[::1]"
F1 = "float64[::1]"
# the fields of the named structures, as the kernels Python calls take them flat
CLUES = (I1,) * 5  # Clues
SCRATCH = (I2, I1, I1, U2, U2, I1)  # LineScratch
_PROPAGATE = (I2, *CLUES, I1, *SCRATCH)
_TRAJECTORY = (I1,) * 4  # rofl.refine.judge.Trajectory


class Kernel:
    """A compiled kernel that Python calls, by reference: ``kernel(*args)``.

    The call runs the extension compiled at install when it holds a variant
    that takes exactly these argument types, numba's JIT dispatcher
    otherwise (see :func:`call`).  A handle imports neither numba nor the
    kernel's module until the JIT is needed; ``load`` is a function that
    imports the module and returns the dispatcher, so that the kernel is
    named in code (a search for its callers finds the handle, and the
    handle's callers).
    """

    def __init__(self, load):
        self._load = load
        self._dispatcher = None
        self.name = load.__name__

    def __repr__(self) -> str:
        return f"<kernel {self.name}>"

    @property
    def dispatcher(self):
        """The JIT dispatcher (imports numba and the kernel's module, once)."""
        if self._dispatcher is None:
            self._dispatcher = self._load()
        return self._dispatcher

    def __call__(self, *args):
        return call(self, *args)

    def resolved(self, *args):
        """The function a call with ``args`` runs: the extension's variant
        for their types, else the JIT dispatcher.  For a caller that makes
        many short calls with arguments of the same types (the choice costs
        a few microseconds a call)."""
        for function, check in _load().functions.get(self, ()):
            if check(args):
                return function
        return _jit(self)


def kernel(load) -> Kernel:
    """Decorator: a :class:`Kernel` handle of the dispatcher ``load()`` returns."""
    return Kernel(load)


# The kernels Python calls (every entry point of a kernel set), by module.


@kernel
def propagate():
    """Line logic to a fixpoint with a line cache (:mod:`rofl.kernels._line`)."""
    from rofl.kernels._line import _propagate

    return _propagate


@kernel
def clue_hashes():
    from rofl.kernels._line import _clue_hashes

    return _clue_hashes


@kernel
def solve_line():
    from rofl.kernels._line import _solve_line

    return _solve_line


@kernel
def solve_line_sets():
    from rofl.kernels._line import _solve_line_sets

    return _solve_line_sets


@kernel
def solve_fresh():
    """Line logic from scratch in one call (:mod:`rofl.kernels._fresh`)."""
    from rofl.kernels._fresh import _solve_fresh

    return _solve_fresh


@kernel
def propagate_lines():
    """Line logic over index lines: hexagons, ``?`` clues (:mod:`rofl.kernels._index`)."""
    from rofl.kernels._index import _propagate_lines

    return _propagate_lines


@kernel
def search():
    """The complete search (:mod:`rofl.kernels._search`)."""
    from rofl.kernels._search import _search

    return _search


@kernel
def grade():
    """The difficulty grader (:mod:`rofl.kernels._grade`)."""
    from rofl.kernels._grade import _grade

    return _grade


@kernel
def grid_clues():
    """Refinement's clues of a grid (:mod:`rofl.kernels._refine`)."""
    from rofl.kernels._refine import _grid_clues

    return _grid_clues


@kernel
def replay():
    from rofl.kernels._refine import _replay

    return _replay


@kernel
def resume_certificate():
    from rofl.kernels._refine import _resume_certificate

    return _resume_certificate


@kernel
def estimate_moves():
    from rofl.kernels._refine import _estimate_moves

    return _estimate_moves


@kernel
def hex_estimate_moves():
    """Refinement's estimates on a hexagon (:mod:`rofl.kernels._hexrefine`)."""
    from rofl.kernels._hexrefine import _estimate_moves

    return _estimate_moves


@dataclass(frozen=True)
class Export:
    """One compiled variant of a kernel.

    Attributes
    ----------
    name : str
        Its name in the extension.
    kernel : Kernel
        The kernel it is compiled from (its JIT dispatcher's source).
    result : str
        numba's type of the return value.
    args : tuple of str
        numba's types of the arguments: ``int64``, ``boolean`` or C-order
        arrays such as ``int64[:, ::1]``.  The runtime uses this
        variant only for arguments of exactly these types.
    part : int
        The module of :data:`PARTS` that holds it.
    """

    name: str
    kernel: Kernel
    result: str
    args: tuple[str, ...]
    part: int = 0

    @property
    def signature(self) -> str:
        return f"{self.result}({', '.join(self.args)})"


def cached_variants(name: str, kernel: Kernel, result: str, *args: str) -> tuple[Export, Export]:
    """The two variants of a kernel that takes a line cache (``LineCache``,
    and a ``CountMemo`` as wide, written ``"io"`` in ``args``): ``_u8`` for
    the byte-wide cache of up to 8 colours (in part 0), ``_i64`` for the
    int64 one (in part 1)."""
    u8, i64 = (
        Export(f"{name}_{suffix}", kernel, result, tuple(io if a == "io" else a for a in args), part)
        for part, (suffix, io) in enumerate((("u8", U2), ("i64", I2)))
    )
    return u8, i64


#: Every variant the extension holds: every signature Python calls the
#: kernels of the sets marked ``aot`` with -- line logic (``LineSolver.run``,
#: the clue hashes, the lean fresh solve), the complete search
#: (:func:`rofl.solver.search.solve_complete`), the grader
#: (:func:`rofl.solver.grade.grade`) and refinement
#: (:class:`rofl.refine.judge.Judge`) -- each kernel that takes a line cache
#: with a byte-wide and an int64 one.  ``tests/solver/test_aot.py`` checks
#: them all against the JIT dispatchers' signatures after a warm-up.
EXPORTS = (
    *cached_variants("propagate", propagate, "int64", *_PROPAGATE, I2, "io", "boolean", I1),
    Export("clue_hashes", clue_hashes, I1, (I1, I1, I1, "int64")),
    Export(
        "solve_fresh",
        solve_fresh,
        f"Tuple((int64, {I2}))",
        ("int64", "int64", "int64", I1, I1, I1, "int64", I1, "int64"),
    ),
    *cached_variants(
        "search",
        search,
        "int64",
        *(I2, *CLUES, *SCRATCH, I2, "io", "boolean", I3, "int64", "int64", I1, "int64", "int64", I1),
    ),
    Export("grade", grade, "int64", (*(I1,) * 8, "int64", "int64", I2, I1, I1), part=1),
    # refinement (kernel sets REFINE and REPAIR)
    Export("grid_clues", grid_clues, f"UniTuple({I1}, 3)", (U2,), part=1),
    *cached_variants(
        "replay",
        replay,
        "int64",
        *(I2, *CLUES, B1, *_TRAJECTORY, *_TRAJECTORY, *SCRATCH, I2, "io", "boolean", I1),
    ),
    *cached_variants(
        "resume_certificate",
        resume_certificate,
        "int64",
        *(U2, U2, *CLUES, U1, I1, U1, I1, I1, "int64", "boolean", *SCRATCH, I2, "io", "boolean", I1, I2),
    ),
    *cached_variants(
        "estimate_moves",
        estimate_moves,
        "none",
        *(U2, I2, *CLUES, I2, *SCRATCH, I2, "io", "boolean", I2, "io", F1, I1, I1, F1, I1, "boolean"),
    ),
)


#: Every module of this package that holds kernels, those the kernel sets'
#: entry points call included (:data:`rofl.kernels.SETS`): what
#: ``benchmarks/compile_time.py`` and the test that every kernel is compiled
#: once look through, and with :data:`SUPPORT` what the extension's digest
#: covers (:func:`source_digest`).
MODULES = (
    "rofl.kernels._line",
    "rofl.kernels._bits",
    "rofl.kernels._wide",
    "rofl.kernels._fresh",
    "rofl.kernels._search",
    "rofl.kernels._index",
    "rofl.kernels._grade",
    "rofl.kernels._refine",
    "rofl.kernels._hexrefine",
)
#: The modules that compiled code reads beside the kernels: numba's flags,
#: the structures and codes, the extension's exports.  With :data:`MODULES`,
#: ``_compile`` and ``__init__`` (which compiled code never reads), every
#: module of the package (``tests/solver/test_aot.py`` checks).
SUPPORT = (
    "rofl.kernels._config",
    "rofl.kernels.structs",
    "rofl.kernels.search_stats",
    "rofl.kernels.grade_codes",
    "rofl.kernels.refine_structs",
    "rofl.kernels._aot",
)


def source_digest() -> int:
    """A 63-bit digest of the kernels' sources -- the modules
    :data:`rofl.kernels.MODULES` and :data:`rofl.kernels.SUPPORT` list: the
    kernels, their structures, the flags numba compiles them with and the
    exports -- compiled into the extension and compared on load."""
    digest = hashlib.sha256()
    for name in sorted(module.rpartition(".")[2] + ".py" for module in MODULES + SUPPORT):
        digest.update(name.encode())
        digest.update((Path(__file__).parent / name).read_bytes())
    return int.from_bytes(digest.digest()[:8], "little") >> 1


# ------------------------------------------------------------------ runtime


def _test(kind: str, arg: str, env: dict) -> str:
    """A Python expression that is true when the value named ``arg`` has
    numba type ``kind`` exactly; ``env`` gets the names it uses."""
    if kind == "int64":  # what numba types as int64: no bool, no other width, no overflow
        return f"(type({arg}) is int64 or (type({arg}) is int and {-(2**63)} <= {arg} < {2**63}))"
    if kind == "boolean":
        return f"(type({arg}) is bool or type({arg}) is bool_)"
    dtype, _, dims = kind.partition("[")
    env[f"{arg}_dtype"] = np.dtype(np.bool_ if dtype == "boolean" else dtype)
    # numba types a read-only array apart (and the kernels write to some):
    # C order and writable (and aligned, as every array numpy allocates is)
    return (
        f"(type({arg}) is ndarray and {arg}.dtype == {arg}_dtype and {arg}.ndim == {dims.count(',') + 1}"
        f" and {arg}.flags.carray)"
    )


def _checker(kinds: tuple[str, ...]):
    """``check(args)``: whether the tuple ``args`` has exactly the numba
    types ``kinds`` (see :class:`Export`), and as many values.

    The test is written out from ``kinds`` as one function and compiled
    once per variant: a refinement calls kernels thousands of times with
    about twenty arguments each, and a test per argument through a
    function of its own cost a tenth of its time."""
    env = {"ndarray": np.ndarray, "int64": np.int64, "bool_": np.bool_}
    names = [f"a{i}" for i in range(len(kinds))]
    tests = [_test(kind, name, env) for kind, name in zip(kinds, names, strict=True)]
    source = (
        "def check(args):\n"
        f"    if len(args) != {len(kinds)}:\n"
        "        return False\n"
        f"    ({''.join(f'{name}, ' for name in names)}) = args\n"
        f"    return {' and '.join(tests) or 'True'}\n"
    )
    exec(source, env)
    return env["check"]


@dataclass(frozen=True)
class _Loaded:
    status: str  # what rofl cache says
    functions: dict  # kernel -> [(compiled function, argument check)]
    paths: tuple[str, ...] = ()


@cache
def _load() -> _Loaded:
    if os.environ.get(ENV_OFF, "") not in ("", "0"):
        return _Loaded(f"off ({ENV_OFF} is set)", {})
    parts, paths, current = [], [], source_digest()  # the sources read and hashed once, not per part
    for module in PARTS:
        try:
            ext = importlib.import_module(module)
        except ImportError as exc:
            if exc.name != module:
                return _Loaded(f"not loadable ({exc})", {}, tuple(paths))
            if paths:  # one part without the other: a build that failed half way
                return _Loaded("not usable: built in part (reinstall rofl)", {}, tuple(paths))
            return _Loaded("not built (installed without a C compiler or numba)", {})
        paths.append(getattr(ext, "__file__", None) or module)
        try:
            digest = ext.source_digest()
        except AttributeError:
            return _Loaded("not usable (no source digest)", {}, tuple(paths))
        if digest != current:
            return _Loaded("not used: built from other sources than these (reinstall rofl)", {}, tuple(paths))
        parts.append(ext)
    functions: dict = {}
    for export in EXPORTS:
        function = getattr(parts[export.part], export.name, None)
        if function is not None:
            functions.setdefault(export.kernel, []).append((function, _checker(export.args)))
    return _Loaded("in use", functions, tuple(paths))


def available() -> bool:
    """Whether the extension is usable: line logic needs no compiling."""
    return bool(_load().functions)


def status() -> tuple[str, tuple[str, ...]]:
    """What becomes of the extension in this process (``"in use"``, or why
    not) and the files of its parts that were loaded."""
    loaded = _load()
    return loaded.status, loaded.paths


def reset() -> None:
    """Look for the extension again at the next call (after ``ROFL_NO_AOT`` changed)."""
    _load.cache_clear()


def _jit(kernel: Kernel):
    return kernel.dispatcher


def call(kernel: Kernel, *args):
    """``kernel(*args)``: compiled ahead of time when a variant of the
    extension takes exactly these argument types, by numba's JIT otherwise
    (what a :class:`Kernel` handle's call does)."""
    return kernel.resolved(*args)(*args)


# -------------------------------------------------------------------- build


def build(output_dir: str | os.PathLike) -> tuple[Path, ...]:
    """Compile :data:`EXPORTS` with ``numba.pycc`` into the parts of
    :data:`PARTS` in ``output_dir``; their paths.  Needs numba and a C
    compiler (``setup.py`` runs it at install; a failure there only means
    rofl uses the JIT).

    Each part compiles in a child process (:func:`_build_part`), as many at
    once as this process may use processors (at most one per part): a
    compile is one thread's work for minutes, and the two halves side by
    side take about two thirds of the time of the whole in one.  A part
    that fails raises :class:`RuntimeError` with the last line it wrote
    (its exception), once every child has ended; the parts already written
    stay, and :func:`_load` uses none unless all load.
    """
    root = Path(__file__).resolve().parents[2]  # the tree this rofl is imported from
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")])))
    code = "import sys; from rofl.kernels._aot import _build_part; print(_build_part(sys.argv[1], int(sys.argv[2])))"

    def run(part: int) -> subprocess.CompletedProcess:
        args = [sys.executable, "-c", code, str(output_dir), str(part)]
        return subprocess.run(args, env=env, capture_output=True, text=True, check=False)

    at_once = max(1, min(len(PARTS), processors()))
    with ThreadPoolExecutor(at_once, thread_name_prefix="rofl-build") as pool:
        done = list(pool.map(run, range(len(PARTS))))
    failures = [f"part {part}: {_last_line(child)}" for part, child in enumerate(done) if child.returncode != 0]
    if failures:
        raise RuntimeError("; ".join(failures))
    return tuple(Path(child.stdout.strip().splitlines()[-1]) for child in done)


def processors() -> int:
    """The processors this process may run on (its affinity where the
    system has one, else the machine's count): what rofl sizes its threads,
    a batch's worker processes and the install's parallel compile by."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _last_line(child: subprocess.CompletedProcess) -> str:
    """What a failed child said last (a traceback's exception), or its status."""
    lines = [line.strip() for line in child.stderr.splitlines() if line.strip()]
    return lines[-1] if lines else f"exit status {child.returncode}"


def _build_part(output_dir: str, part: int) -> Path:
    """Compile the variants of :data:`EXPORTS` in part ``part`` into its
    module of :data:`PARTS` in ``output_dir``; its path (in the child
    process :func:`build` starts).

    pycc's exported wrappers keep the GIL by default; they are built to
    release it like the JIT kernels (``nogil=True``), so that line logic in
    a worker thread (:mod:`rofl.solver._stop`) leaves the calling thread
    free to watch the deadline and Ctrl-C.

    The kernels compile from their sources, never from numba's cache
    (:func:`_uncached`): pycc takes a kernel's callees from the JIT's
    cached code when there is some, and numba checks a cached kernel
    against its own module's file only, so a source tree whose
    ``__pycache__`` holds a kernel compiled before one of its callees'
    modules changed would build the old callee into the extension.
    """
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numba.pycc is deprecated (still shipped)
        from numba.pycc import CC, compiler

    class _NoGilFlags(compiler.Flags):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.release_gil = True

    digest = source_digest()

    def _source_digest():
        return digest

    cc = CC(PARTS[part].rpartition(".")[2])
    cc.output_dir = str(output_dir)
    cc.verbose = False
    for export in EXPORTS:
        if export.part == part:
            cc.export(export.name, export.signature)(_jit(export.kernel).py_func)
    cc.export("source_digest", "int64()")(_source_digest)
    plain = compiler.Flags
    compiler.Flags = _NoGilFlags
    try:
        with warnings.catch_warnings(), _uncached():
            warnings.simplefilter("ignore")
            cc.compile()
    finally:
        compiler.Flags = plain
    return Path(cc.output_dir) / cc.output_file


@contextmanager
def _uncached():
    """numba's cache off for every kernel of :data:`MODULES` while the
    block runs: nothing loaded from it, nothing saved to it."""
    from numba.core.caching import NullCache
    from numba.core.registry import CPUDispatcher

    dispatchers = [
        kernel
        for name in MODULES
        for kernel in vars(importlib.import_module(name)).values()
        if isinstance(kernel, CPUDispatcher)
    ]
    caches = [kernel._cache for kernel in dispatchers]  # noqa: SLF001 -- numba has no switch for one dispatcher
    for kernel in dispatchers:
        kernel._cache = NullCache()  # noqa: SLF001
    try:
        yield
    finally:
        for kernel, kept in zip(dispatchers, caches, strict=True):
            kernel._cache = kept  # noqa: SLF001
