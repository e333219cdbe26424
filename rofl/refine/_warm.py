"""The tiny refinement that compiles refinement's kernel set
(:data:`rofl.refine.judge.REFINE`; see :func:`rofl.solver._compile.ensure_compiled`)."""

from __future__ import annotations


def warm_refine() -> None:
    """Refine a 4x4 grid of two ambiguous 2x2 checkerboards with every pass on."""
    import numpy as np

    from rofl.puzzle import Palette
    from rofl.refine.refinement import refine

    grid = np.array([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]], dtype=np.uint8)
    grid[0, 2], grid[1, 3] = 1, 0
    refine(grid, Palette.black_white(), polish=1, relocate=1, pairs=True)
