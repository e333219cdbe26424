"""Numba flags for every compiled kernel, kept in one place.

``cache=True`` writes compiled machine code next to the modules (or to
``NUMBA_CACHE_DIR``) so that only the first run of a fresh install compiles;
:mod:`rofl.kernels._compile` decides when that happens and says so.
"""

JIT = {"cache": True, "nogil": True, "boundscheck": False}


def skip_blas_probe() -> None:
    """Import ``numba.np.arraymath`` without its import-time probe for a BLAS.

    When numba first compiles or loads a kernel it imports
    ``numba.np.arraymath``, whose module body imports ``scipy.linalg`` (when
    scipy is installed) only to decide whether ``np.convolve`` and
    ``np.correlate`` on floats may call BLAS.  That import is about a
    quarter of the start-up of ``rofl solve`` (~0.14 s CPU) and rofl's
    kernels use no BLAS, so the probe is made to fail: those two functions
    then use numba's own loop.  Everything else is unchanged; ``np.dot``
    and ``np.linalg`` in compiled code still find BLAS when they are
    compiled, and ``scipy.linalg`` imports normally afterwards.
    """
    import sys

    if "numba.np.arraymath" in sys.modules or "scipy.linalg" in sys.modules:
        return  # too late, or scipy.linalg is already paid for
    from importlib.abc import MetaPathFinder

    class _RefuseScipyLinalg(MetaPathFinder):
        def find_spec(self, name, path, target=None):
            if name == "scipy.linalg" or name.startswith("scipy.linalg."):
                msg = f"No module named {name!r}"
                raise ModuleNotFoundError(msg, name=name)
            return None

    finder = _RefuseScipyLinalg()
    sys.meta_path.insert(0, finder)
    try:
        import numba.np.arraymath  # noqa: F401
    finally:
        sys.meta_path.remove(finder)


# The search's internal kernels, which only compiled code calls: no Python
# wrapper (numba would compile one for each, to box and unbox its tuples of
# arrays, for nothing).
SEARCH_INNER = {**JIT, "no_cpython_wrapper": True}

# Hot kernels that create no array (``LEAF``): compiled without numba's
# runtime, so they take their array arguments without reference counts.
# With it, every call of such a kernel added and dropped a reference on
# each array it was given, an atomic operation each (tuples of arrays
# count every member): 74% of the complete search's time went to
# ``NRT_incref`` / ``NRT_decref``.  Such a kernel cannot create arrays,
# views included (``a.ravel()`` too): callers pass the flat view.
LEAF = {**JIT, "_nrt": False}
SEARCH_LEAF = {**SEARCH_INNER, "_nrt": False}
