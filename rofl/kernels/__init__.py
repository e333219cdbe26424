"""rofl's compiled core: every numba kernel, their structures, the flags
they are compiled with, the step that compiles or loads them, and the
extension that holds them compiled at install.

This is the ground floor: it imports nothing else of rofl, and nothing
outside it imports its private modules.  The door is small:

* the kernels, as handles that Python calls like functions --
  ``propagate(...)``, ``solve_fresh(...)``, ``search(...)``,
  ``grade(...)``, ``propagate_lines(...)``, refinement's ``replay(...)``
  and the rest (:class:`Kernel`).  A call runs the extension compiled at
  install when it holds a variant for exactly those argument types, numba's
  JIT otherwise; importing the door imports no numba.
* :class:`KernelSet` and the sets that kinds of work need (:data:`LINE`,
  :data:`FRESH`, :data:`INDEX`, :data:`SEARCH`, :data:`GRADE`,
  :data:`REFINE`, :data:`REPAIR`, :data:`HEX_REFINE`; all in :data:`SETS`),
  and the modules that hold the kernels (:data:`MODULES`, the one list of
  them) and that compiled code reads beside them (:data:`SUPPORT`),
  with the measured seconds each takes to compile (:data:`COMPILE_SECONDS`,
  the one source of that figure);
* :func:`ready`: compile or load the sets' kernels before a budget starts.
  The public functions that run kernels call it (``rofl.solve``,
  ``solve_complete`` for the search, ``rofl.grade``, ``refine``,
  ``refine_hex``; the parent of a batch for its workers), nothing else;
  every clock that reports a time or keeps a budget (``rofl.make``,
  ``solve_complete``, ``decode.solve_picture``) is a :class:`Stopwatch`,
  which stops while :func:`ready` works, so compiling never counts as
  solve or refinement time; :func:`set_notice` chooses who hears that rofl
  compiles;
* :func:`processors`: how many processors this process may use (threads,
  a batch's workers and the install's compile are sized by it);
* what ``rofl cache`` shows and does: :func:`aot_status`,
  :func:`all_cached`, :func:`is_compiled`, :func:`cache_files`,
  :func:`clear_cache`.

The kernels' structures and codes, which the wrappers read and which need
no numba, are public modules of their own: :mod:`rofl.kernels.structs`
(line logic), :mod:`rofl.kernels.search_stats`,
:mod:`rofl.kernels.grade_codes` and :mod:`rofl.kernels.refine_structs`.

Inside, private: the kernels by kind (``_line``, ``_bits``, ``_wide``:
line logic; ``_fresh``: a solve from scratch; ``_index``: index lines;
``_search``; ``_grade``; ``_refine``, ``_hexrefine``: refinement),
``_config`` (numba's flags), ``_compile`` (:func:`ready`) and ``_aot``
(the handles and the extension's two parts ``_aot_kernels_0`` and ``_1``,
built by ``setup.py``).
"""

from rofl.kernels._aot import (
    MODULES,
    SUPPORT,
    Kernel,
    clue_hashes,
    estimate_moves,
    grade,
    grid_clues,
    hex_estimate_moves,
    processors,
    propagate,
    propagate_lines,
    replay,
    resume_certificate,
    search,
    solve_fresh,
    solve_line,
    solve_line_sets,
)
from rofl.kernels._aot import status as aot_status
from rofl.kernels._compile import (
    COMPILE_SECONDS,
    FRESH,
    GRADE,
    HEX_REFINE,
    INDEX,
    LINE,
    REFINE,
    REPAIR,
    SEARCH,
    SETS,
    KernelSet,
    Stopwatch,
    all_cached,
    cache_files,
    clear_cache,
    is_compiled,
    ready,
    set_notice,
)

__all__ = [
    "COMPILE_SECONDS",
    "FRESH",
    "GRADE",
    "HEX_REFINE",
    "INDEX",
    "LINE",
    "MODULES",
    "REFINE",
    "REPAIR",
    "SEARCH",
    "SETS",
    "SUPPORT",
    "Kernel",
    "KernelSet",
    "Stopwatch",
    "aot_status",
    "all_cached",
    "cache_files",
    "clear_cache",
    "clue_hashes",
    "estimate_moves",
    "grade",
    "grid_clues",
    "hex_estimate_moves",
    "is_compiled",
    "processors",
    "propagate",
    "propagate_lines",
    "ready",
    "replay",
    "resume_certificate",
    "search",
    "set_notice",
    "solve_fresh",
    "solve_line",
    "solve_line_sets",
]
