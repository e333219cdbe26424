"""Every text format is read in linear time, hostile input included.

Each hostile file is built at 1 MB and at 4 MB from a valid file of the
format and a repeated unit (``[`` for Gnonograms' sections, blank lines for
``.mk``, long clue lines, huge numbers...).  A linear reader takes about
four times as long on the larger; a quadratic one (which read a 300 KB
``.gno`` in 15 s) takes sixteen.  The test asserts the ratio of CPU times
(:func:`time.process_time`), not a wall time, and a ratio over eight three
times in a row, so a slow or busy machine does not fail it (under load the
larger file's CPU time grows more: a linear reader measured 6.2 times on a
2-core machine running the suite and other jobs, 3.8 times alone).
"""

from __future__ import annotations

import time

import numpy as np
import pytest

from rofl.errors import RoflError
from rofl.formats import FORMATS, open_puzzle, write_puzzle
from rofl.puzzle import Palette, Puzzle

MB = 1 << 20

# the text formats: those without a binary magic that are not sheets
TEXT = [f for f in FORMATS if not f.magic and f.module != "rofl.formats.sheets"]

UNITS = {
    "brackets": "[",
    "sections": "[a]",
    "blank lines": " " * 15 + "\n",
    "clue line": "1 " * 40 + "\n",
    "digits": "9",
    "references": "&#65;",
    "tags": "<a>",
    "carriage returns": " " * 15 + "\r",
    "form feeds": " " * 15 + "\f",
}
#: Units also put in the middle of the file (where a section or the rows end).
MIDDLE = ("brackets", "sections", "blank lines")


def seed_file(fmt, tmp_path) -> str:
    """A small valid file of ``fmt`` (or its signature alone for a format rofl does not write)."""
    if fmt.write is None:
        return "$1\n" if not fmt.starts else fmt.starts[0].decode()
    grid = np.array([[1, 0], [1, 1]], np.uint8)
    puzzle = Puzzle.from_grid(grid, Palette.black_white(), meta={"title": "t"})
    path = tmp_path / f"seed{fmt.extension}"
    write_puzzle(path, puzzle, grid if fmt.keeps else None)
    return path.read_text(encoding="utf-8")


def cpu_time(data: bytes, name: str) -> float:
    start = time.process_time()
    try:
        open_puzzle(data, name=name)
    except RoflError:
        pass
    return time.process_time() - start


def superlinear(text_of, name: str) -> str | None:
    """How the 4 MB file of ``text_of(size)`` took more than eight times
    the 1 MB one, three times in a row (once or twice may be the machine's
    load); None if it did not."""
    for _ in range(3):
        small, large = (cpu_time(text_of(size).encode(), name) for size in (MB, 4 * MB))
        # below 20 ms the clock's resolution and noise dominate: a
        # quadratic reader takes seconds on 4 MB
        if large <= 8 * max(small, 0.02):
            return None
    return f"{small:.3f} s for 1 MB, {large:.3f} s for 4 MB"


@pytest.mark.slow
@pytest.mark.parametrize("fmt", TEXT, ids=[f.name for f in TEXT])
def test_hostile_text_files_are_read_in_linear_time(fmt, tmp_path):
    seed = seed_file(fmt, tmp_path)
    name = f"x{fmt.extension or '.txt'}"
    slow = []
    for label, unit in UNITS.items():
        for where in ("end", "middle") if label in MIDDLE else ("end",):
            half = len(seed) // 2 if where == "middle" else len(seed)

            def text_of(size, unit=unit, half=half):
                return seed[:half] + unit * (size // len(unit)) + seed[half:]

            found = superlinear(text_of, name)
            if found:
                slow.append(f"{label} at the {where}: {found}")
    assert not slow, slow
