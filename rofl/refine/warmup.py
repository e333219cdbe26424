"""The tiny refinements that compile refinement's kernel sets
(``REFINE``, ``REPAIR`` and ``HEX_REFINE`` in :mod:`rofl.kernels`; see
:func:`rofl.kernels.ready`, which names these functions)."""

from __future__ import annotations


def warm_refine() -> None:
    """Refine a 2x2 grid line logic solves as it is: derives clues, replays a solve."""
    import numpy as np

    from rofl.puzzle import Palette
    from rofl.refine.refinement import refine

    refine(np.ones((2, 2), dtype=np.uint8), Palette.black_white(), polish=0, relocate=0)


def warm_repair() -> None:
    """Refine a 4x4 grid of two ambiguous 2x2 checkerboards with every pass on."""
    import numpy as np

    from rofl.puzzle import Palette
    from rofl.refine.refinement import refine

    grid = np.array([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]], dtype=np.uint8)
    grid[0, 2], grid[1, 3] = 1, 0
    refine(grid, Palette.black_white(), polish=1, relocate=1, pairs=True)


def warm_hex() -> None:
    """Refine the five ambiguous dots of a side-5 hexagon: estimates moves."""
    import numpy as np

    from rofl.hexagon import Hexagon
    from rofl.puzzle import Palette
    from rofl.refine.refinement import refine

    cells = np.zeros(61, dtype=np.uint8)
    cells[[9, 31, 36, 39, 55]] = 1
    refine(cells, Palette.black_white(), board=Hexagon.of(5))
