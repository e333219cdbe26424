"""Pictures as terminal text."""

from __future__ import annotations

import numpy as np

from rofl.puzzle import Palette

_SYMBOLS = "#123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ@%&*"


def grid_text(grid: np.ndarray, palette: Palette, *, color: bool = False, unknown: int = -1) -> str:
    """The picture as text, one line per row.

    Parameters
    ----------
    grid : (H, W) integer array of palette indices, ``unknown`` for an undetermined cell
    palette : Palette
    color : bool
        Use 24-bit ANSI colours (two spaces per cell); otherwise ``.`` is the
        background, ``#`` the first colour, then digits and letters, ``?``
        an undetermined cell.
    """
    lines = []
    for row in np.asarray(grid).tolist():
        if color:
            parts = []
            for v in row:
                if v == unknown:
                    parts.append("\x1b[0m??")
                else:
                    r, g, b = palette[v]
                    parts.append(f"\x1b[48;2;{r};{g};{b}m  ")
            lines.append("".join(parts) + "\x1b[0m")
        else:
            lines.append("".join("?" if v == unknown else "." if v == 0 else _SYMBOLS[v - 1] for v in row))
    return "\n".join(lines)
