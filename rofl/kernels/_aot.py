"""Kernels compiled ahead of time: the optional extension, and the one
place that decides whether a call runs it or numba's JIT.

At install, ``setup.py`` calls :func:`build`, which compiles the entry
points of the kernel sets marked ``aot`` -- line logic (``LINE``,
``FRESH``), the complete search (``SEARCH``), the difficulty grader
(``GRADE``; :mod:`rofl.solver._compile`)
and refinement (``REFINE``, ``REPAIR``; :mod:`rofl.refine.judge`) -- with
``numba.pycc`` into an ordinary extension module, :data:`MODULE`,
installed as a top-level module beside the ``rofl`` package (so that tests
run from a source tree find it too).  The build is optional: without a
compiler or numba it is skipped with a warning, and rofl compiles the same
kernels with the JIT on first use.  Hexagons and ``?`` clues
(``INDEX``, ``HEX_REFINE``) are left to the JIT: few puzzles need them,
and every kernel here adds to the install's compile.

:func:`call` runs a kernel through the extension when it is usable and
holds a variant whose signature matches the arguments' types exactly
(dtype, dimensions, C order, writable: pycc's wrappers check only the
item size, so anything else must not reach them), through the JIT
dispatcher otherwise.
:func:`available` tells :func:`~rofl.solver._compile.ensure_compiled`
that nothing needs compiling; a process that runs only these kernels
then never imports numba.  The extension is used only
if it was built from the kernels' current sources (:func:`source_digest`,
compiled into it): an extension left by an older install never answers
for newer code.  ``ROFL_NO_AOT=1`` in the environment turns it off (at
build time: skips the build), for tests and comparisons.

The module's name, ``_rofl_line``, dates from when it held line logic only.
"""

from __future__ import annotations

import hashlib
import importlib
import os
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

#: The extension's module name: top level, installed beside ``rofl``.
MODULE = "_rofl_line"

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


@dataclass(frozen=True)
class Export:
    """One compiled variant of a kernel.

    Attributes
    ----------
    name : str
        Its name in the extension.
    kernel : str
        ``"module:function"`` of the JIT dispatcher it is compiled from.
    result : str
        numba's type of the return value.
    args : tuple of str
        numba's types of the arguments: ``int64``, ``boolean`` or C-order
        arrays such as ``int64[:, ::1]``.  The runtime uses this
        variant only for arguments of exactly these types.
    """

    name: str
    kernel: str
    result: str
    args: tuple[str, ...]

    @property
    def signature(self) -> str:
        return f"{self.result}({', '.join(self.args)})"


def cached_variants(name: str, kernel: str, result: str, *args: str) -> tuple[Export, Export]:
    """The two variants of a kernel that takes a line cache (``LineCache``,
    and a ``CountMemo`` as wide, written ``"io"`` in ``args``): ``_u8`` for
    the byte-wide cache of up to 8 colours, ``_i64`` for the int64 one."""
    u8, i64 = (
        Export(f"{name}_{suffix}", kernel, result, tuple(io if a == "io" else a for a in args))
        for suffix, io in (("u8", U2), ("i64", I2))
    )
    return u8, i64


#: The solver's kernels the extension holds: every signature their Python
#: callers use -- line logic (``LineSolver.run``, the clue hashes, the lean
#: fresh solve), the complete search
#: (:func:`rofl.solver.search.solve_complete`) and the grader
#: (:func:`rofl.solver.grade.grade`), each kernel that takes a
#: line cache with a byte-wide and an int64 one.  Refinement's are
#: :data:`rofl.refine._aot.EXPORTS`: a layer above, it adds them itself
#: (:func:`register`).  ``tests/solver/test_aot.py`` checks them all
#: against the JIT dispatchers' signatures after a warm-up.
EXPORTS = (
    *cached_variants("propagate", "rofl.solver._kernels:_propagate", "int64", *_PROPAGATE, I2, "io", "boolean", I1),
    Export("clue_hashes", "rofl.solver._kernels:_clue_hashes", I1, (I1, I1, I1, "int64")),
    Export(
        "solve_fresh",
        "rofl.solver._fast:_solve_fresh",
        f"Tuple((int64, {I2}))",
        ("int64", "int64", "int64", I1, I1, I1, "int64", I1, "int64"),
    ),
    *cached_variants(
        "search",
        "rofl.solver._search:_search",
        "int64",
        *(I2, *CLUES, *SCRATCH, I2, "io", "boolean", I3, "int64", "int64", I1, "int64", "int64"),
    ),
    Export("grade", "rofl.solver._grade_kernels:_grade", "int64", (*(I1,) * 8, "int64", I2, I1, I1)),
)

_registered: list[Export] = []


def register(exports: tuple[Export, ...]) -> None:
    """Have :func:`call` look up ``exports`` too: kernels of a layer above
    the solver's (refinement's, :mod:`rofl.refine._aot`), which
    ``setup.py`` compiles into the same extension."""
    new = [e for e in exports if e not in _registered]
    if new:
        _registered.extend(new)
        _load.cache_clear()


def all_exports() -> tuple[Export, ...]:
    """:data:`EXPORTS` and those registered (:func:`register`)."""
    return (*EXPORTS, *_registered)


# The sources the extension is compiled from, under rofl/ (and this file,
# which names the exports; and the flags numba compiles them with).
_SOURCES = (
    "solver/_config.py",
    "solver/_structs.py",
    "solver/_kernels.py",
    "solver/_fast.py",
    "solver/_bits.py",
    "solver/_wide.py",
    "solver/_search_stats.py",
    "solver/_search.py",
    "solver/_grade_codes.py",
    "solver/_grade_kernels.py",
    "solver/_aot.py",
    "refine/_structs.py",
    "refine/_kernels.py",
    "refine/_aot.py",
)


def source_digest() -> int:
    """A 63-bit digest of the kernels' sources, compiled into the extension
    and compared on load."""
    digest = hashlib.sha256()
    here = Path(__file__).parent.parent
    for name in _SOURCES:
        digest.update((here / name).read_bytes())
    return int.from_bytes(digest.digest()[:8], "little") >> 1


# ------------------------------------------------------------------ runtime


def _checker(kind: str):
    """A test that a value has numba type ``kind`` exactly (see :class:`Export`)."""
    if kind == "int64":  # what numba types as int64: no bool, no other width, no overflow
        return lambda v: type(v) is np.int64 or (type(v) is int and -(2**63) <= v < 2**63)
    if kind == "boolean":
        return lambda v: type(v) is bool or type(v) is np.bool_
    dtype, _, dims = kind.partition("[")
    want = np.dtype(np.bool_ if dtype == "boolean" else dtype)
    ndim = dims.count(",") + 1
    # numba types a read-only array apart (and the kernels write to some): writable only
    return lambda v: (
        type(v) is np.ndarray and v.dtype == want and v.ndim == ndim and v.flags.c_contiguous and v.flags.writeable
    )


@dataclass(frozen=True)
class _Loaded:
    status: str  # what rofl cache says
    functions: dict  # kernel -> [(compiled function, argument checks)]
    path: str | None = None


@cache
def _load() -> _Loaded:
    if os.environ.get(ENV_OFF, "") not in ("", "0"):
        return _Loaded(f"off ({ENV_OFF} is set)", {})
    try:
        ext = importlib.import_module(MODULE)
    except ImportError as exc:
        if exc.name == MODULE:
            return _Loaded("not built (installed without a C compiler or numba)", {})
        return _Loaded(f"not loadable ({exc})", {})
    path = getattr(ext, "__file__", None)
    try:
        digest = ext.source_digest()
    except AttributeError:
        return _Loaded("not usable (no source digest)", {}, path)
    if digest != source_digest():
        return _Loaded("not used: built from other sources than these (reinstall rofl)", {}, path)
    functions: dict = {}
    for export in all_exports():
        function = getattr(ext, export.name, None)
        if function is not None:
            checks = tuple(_checker(kind) for kind in export.args)
            functions.setdefault(export.kernel, []).append((function, checks))
    return _Loaded("in use", functions, path)


def available() -> bool:
    """Whether the extension is usable: line logic needs no compiling."""
    return bool(_load().functions)


def status() -> tuple[str, str | None]:
    """What becomes of the extension in this process (``"in use"``, or why
    not) and the file it was loaded from, if any."""
    loaded = _load()
    return loaded.status, loaded.path


def reset() -> None:
    """Look for the extension again at the next call (after ``ROFL_NO_AOT`` changed)."""
    _load.cache_clear()


def _jit(kernel: str):
    module, _, name = kernel.partition(":")
    return getattr(importlib.import_module(module), name)


def call(kernel: str, *args):
    """``kernel(*args)``: compiled ahead of time when a variant of the
    extension takes exactly these argument types, by numba's JIT otherwise.

    Parameters
    ----------
    kernel : str
        ``"module:function"`` of the JIT dispatcher (see :data:`EXPORTS`
        and :func:`register`).
    """
    for function, checks in _load().functions.get(kernel, ()):
        if len(args) == len(checks) and all(check(a) for check, a in zip(checks, args, strict=True)):
            return function(*args)
    return _jit(kernel)(*args)


# -------------------------------------------------------------------- build


def build(output_dir: str | os.PathLike, exports: tuple[Export, ...] | None = None) -> Path:
    """Compile ``exports`` (by default :func:`all_exports`; ``setup.py``
    passes refinement's too) with ``numba.pycc`` into ``output_dir``; the
    extension's path.  Needs numba and a C compiler (``setup.py`` runs it
    at install; a failure there only means rofl uses the JIT).

    pycc's exported wrappers keep the GIL by default; they are built to
    release it like the JIT kernels (``nogil=True``), so that line logic in
    a worker thread (:mod:`rofl.solver._stop`) leaves the calling thread
    free to watch the deadline and Ctrl-C.
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

    cc = CC(MODULE)
    cc.output_dir = str(output_dir)
    cc.verbose = False
    for export in all_exports() if exports is None else exports:
        cc.export(export.name, export.signature)(_jit(export.kernel).py_func)
    cc.export("source_digest", "int64()")(_source_digest)
    plain = compiler.Flags
    compiler.Flags = _NoGilFlags
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            cc.compile()
    finally:
        compiler.Flags = plain
    return Path(cc.output_dir) / cc.output_file
