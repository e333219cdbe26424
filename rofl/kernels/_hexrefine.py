"""Compiled estimates of single-cell changes on a hexagonal board (numba).

Private: :mod:`rofl.refine.hexagon` calls :func:`_estimate_moves` (as
``rofl.kernels.hex_estimate_moves``), a kernel set of its own
(``rofl.kernels.HEX_REFINE``) so that solving hexagons never compiles it.  For each move it derives the new clues of the
three lines through the changed cell (the others are copied), resumes line
logic (:func:`rofl.kernels._index._propagate_lines`) from the
stalled masks with those lines queued, and counts the cells left
undetermined and the slack of the three lines.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from rofl.kernels._config import JIT
from rofl.kernels._index import _propagate_lines
from rofl.kernels.structs import INDEX_N_STATS as N_STATS


@njit(**JIT)
def _estimate_moves(
    masks, cells, line_cells, line_offsets, cell_lines, cell_offsets, lens, cols, offs, move_cell, move_colour,
    out_undetermined, out_slack,
):  # fmt: skip
    """For move ``m`` (``cells[move_cell[m]] = move_colour[m]``): the cells
    line logic leaves undetermined when resumed from ``masks`` under the new
    clues (``out_undetermined[m]``) and the cells of the three lines that
    neither a group nor a needed gap covers (``out_slack[m]``).  ``cells``
    and ``masks`` are left as they were."""
    n_lines = line_offsets.shape[0] - 1
    n_groups = lens.shape[0]
    new_lens = np.empty(n_groups + 8, dtype=np.int64)
    new_cols = np.empty(n_groups + 8, dtype=np.int64)
    new_offs = np.empty(n_lines + 1, dtype=np.int64)
    work = np.empty_like(masks)
    stats = np.zeros(N_STATS, dtype=np.int64)
    for m in range(move_cell.shape[0]):
        cell = move_cell[m]
        old = cells[cell]
        cells[cell] = move_colour[m]
        first = cell_offsets[cell]
        last = cell_offsets[cell + 1]
        pos = 0
        slack = 0
        for line in range(n_lines):
            new_offs[line] = pos
            through = False
            for k in range(first, last):
                if cell_lines[k] == line:
                    through = True
            if not through:
                for g in range(offs[line], offs[line + 1]):
                    new_lens[pos] = lens[g]
                    new_cols[pos] = cols[g]
                    pos += 1
                continue
            start = pos
            prev = 0
            for i in range(line_offsets[line], line_offsets[line + 1]):
                v = cells[line_cells[i]]
                if v != 0:
                    if v == prev:
                        new_lens[pos - 1] += 1
                    else:
                        new_lens[pos] = 1
                        new_cols[pos] = v
                        pos += 1
                prev = v
            covered = 0
            for g in range(start, pos):
                covered += new_lens[g]
                if g > start and new_cols[g] == new_cols[g - 1]:
                    covered += 1
            slack += line_offsets[line + 1] - line_offsets[line] - covered
        new_offs[n_lines] = pos
        work[:] = masks
        _propagate_lines(
            work, line_cells, line_offsets, cell_lines, cell_offsets, new_lens[:pos], new_cols[:pos], new_offs,
            cell_lines[first:last], stats,
        )  # fmt: skip
        undetermined = 0
        for c in range(work.shape[0]):
            if work[c] & (work[c] - 1):
                undetermined += 1
        out_undetermined[m] = undetermined
        out_slack[m] = slack
        cells[cell] = old
