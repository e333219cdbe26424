"""Clean-up before refinement: repaint the cells that stand alone.

A cell none of whose neighbours shares its colour makes a 1-cell clue in
its row and in its column; ``rofl make --cleanup`` repaints such cells
(:func:`remove_isolated`) before refinement starts.
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
