"""Refinement's kernels in the extension compiled at install, without numba.

:mod:`rofl.solver._aot` builds the extension and runs its kernels; the
solver being a layer below refinement, it does not know refinement's
kernels: they are listed here, and added to the ones it looks up
(:func:`~rofl.solver._aot.register`) when this module is imported.
:class:`rofl.refine.judge.Judge` calls them through :func:`call`, which is
the solver's, imported from here so that they are.  ``setup.py`` compiles
them with the solver's (:func:`~rofl.solver._aot.build`).
"""

from __future__ import annotations

from rofl.solver._aot import B1, CLUES, F1, I1, I2, SCRATCH, U1, U2, Export, cached_variants, call, register

_KERNELS = "rofl.refine._kernels"
_TRAJECTORY = (I1,) * 4  # rofl.refine.judge.Trajectory

#: Every signature :class:`rofl.refine.judge.Judge` calls refinement's
#: kernels with (kernel sets ``REFINE`` and ``REPAIR``), each kernel that
#: takes a line cache with a byte-wide and an int64 one.
EXPORTS = (
    Export("grid_clues", f"{_KERNELS}:_grid_clues", f"UniTuple({I1}, 3)", (U2,)),
    *cached_variants(
        "replay",
        f"{_KERNELS}:_replay",
        "int64",
        *(I2, *CLUES, B1, *_TRAJECTORY, *_TRAJECTORY, *SCRATCH, I2, "io", "boolean", I1),
    ),
    *cached_variants(
        "resume_certificate",
        f"{_KERNELS}:_resume_certificate",
        "int64",
        *(U2, U2, *CLUES, U1, I1, U1, I1, I1, "int64", "boolean", *SCRATCH, I2, "io", "boolean", I1, I2),
    ),
    *cached_variants(
        "estimate_moves",
        f"{_KERNELS}:_estimate_moves",
        "none",
        *(U2, I2, *CLUES, I2, *SCRATCH, I2, "io", "boolean", I2, "io", F1, I1, I1, F1, I1, "boolean"),
    ),
)

register(EXPORTS)

__all__ = ["EXPORTS", "call"]
