"""Numba flags for every compiled kernel, kept in one place.

``cache=True`` writes compiled machine code next to the modules (or to
``NUMBA_CACHE_DIR``) so that only the first run of a fresh install compiles.
"""

JIT = {"cache": True, "nogil": True, "boundscheck": False}

# The complete search looks at the clock through numba's object mode, which
# cannot release the GIL (numba warns when asked to).
SEARCH_JIT = {"cache": True, "boundscheck": False}
