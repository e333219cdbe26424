"""Clean-up before refinement: repaint the cells that stand alone.

A cell none of whose neighbours shares its colour makes a 1-cell clue in
its row and in its column; ``rofl make --cleanup`` repaints such cells
(:func:`remove_isolated`) before refinement starts.  :func:`smooth` goes
further, for ``rofl make --difficulty`` (a drawing an easier puzzle may
take): a cell most of whose eight neighbours share another colour takes
it, which evens out the speckle of a textured photo (fur, grass, text).
"""

from __future__ import annotations

import numpy as np


def remove_isolated(grid: np.ndarray, cost: np.ndarray | None = None) -> np.ndarray:
    """Repaint every cell none of whose (up to 4) neighbours shares its colour.

    The cell takes the neighbouring colour that suits it best (lowest
    ``cost``), or the most common neighbouring colour without a cost.  All
    cells are judged on the input grid, so the result does not depend on
    the scanning order.

    Parameters
    ----------
    grid : (H, W) integer array
    cost : (H, W, K) float array, optional

    Returns
    -------
    (H, W) uint8 array (a new array)
    """
    g = np.asarray(grid)
    h, w = g.shape
    k = int(g.max()) + 1 if cost is None else cost.shape[2]
    pad = np.pad(g.astype(np.int64), 1, constant_values=-1)
    neigh = np.stack([pad[:-2, 1:-1], pad[2:, 1:-1], pad[1:-1, :-2], pad[1:-1, 2:]])  # (4, H, W)
    exists = neigh >= 0
    isolated = exists.any(axis=0) & ~((neigh == g[None]) & exists).any(axis=0)
    out = g.astype(np.uint8).copy()
    for r, c in zip(*np.nonzero(isolated), strict=True):
        options = [int(v) for v in neigh[:, r, c] if v >= 0]
        if cost is not None:
            out[r, c] = min(options, key=lambda v: (cost[r, c, v], v))
        else:
            counts = np.bincount(options, minlength=k)
            out[r, c] = int(np.argmax(counts))
    return out


#: :func:`smooth` repaints a cell when at least this many of its eight
#: neighbours share one other colour (a majority filter with hysteresis:
#: a border between two regions stays where it is).
SMOOTH_NEIGHBOURS = 6


def smooth(grid: np.ndarray) -> np.ndarray:
    """Repaint every cell at least :data:`SMOOTH_NEIGHBOURS` of whose eight
    neighbours share another colour, with that colour.

    Beyond the picture's edge a cell's neighbours are taken as the nearest
    cells inside (so a border cell is judged by the cells along it).  All
    cells are judged on the input grid, so the result does not depend on
    the scanning order.

    Parameters
    ----------
    grid : (H, W) integer array

    Returns
    -------
    (H, W) uint8 array (a new array)
    """
    from scipy.ndimage import uniform_filter

    g = np.asarray(grid).astype(np.uint8)
    out = g.copy()
    for colour in np.unique(g).tolist():
        mine = (g == colour).astype(np.float64)
        # the 3x3 window's count, the cell itself taken out (rounded: uniform_filter averages in floats)
        around = np.rint(uniform_filter(mine, size=3, mode="nearest") * 9) - mine
        out[(around >= SMOOTH_NEIGHBOURS) & (g != colour)] = colour
    return out
