"""The packed kernel form of clues: :class:`PackedClues`, the flat int64
arrays the rectangle's compiled kernels take (:attr:`rofl.Puzzle.packed`)."""

from __future__ import annotations

from typing import Any

import numpy as np


class PackedClues:
    """Clues in the solver kernels' types: flat int64 arrays, rows first.

    Line ``i``'s groups are ``lens[offs[i]:offs[i + 1]]`` (lengths) and
    ``cols[...]`` (colours); ``kmax`` is the most groups of any line.  The
    arrays are not checked here (a :class:`Puzzle` checks its clues; the
    refinement derives them from grids) and must never be changed: they
    stay writable only because the compiled kernels take one array type.

    ``extras`` is for what the solver derives from the clues on first use
    (their hashes), so that it is derived once per set of clues; it is not
    part of the value.
    """

    __slots__ = ("lens", "cols", "offs", "kmax", "extras")

    def __init__(self, lens: np.ndarray, cols: np.ndarray, offs: np.ndarray) -> None:
        self.lens = lens
        self.cols = cols
        self.offs = offs
        counts = np.diff(offs)
        self.kmax = int(counts.max()) if counts.size else 0
        self.extras: dict[str, Any] = {}

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PackedClues):
            return NotImplemented
        return all(np.array_equal(a, b) for a, b in zip(self._arrays(), other._arrays(), strict=True))

    __hash__ = None  # type: ignore[assignment]  # mutable arrays: compared, never hashed

    def _arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return self.lens, self.cols, self.offs

    def __repr__(self) -> str:
        return f"<PackedClues {len(self.offs) - 1} lines, {len(self.lens)} groups>"
