"""Timing for the benchmark scripts: the best of several runs.

Other jobs on a shared machine only ever add time, so the fastest run is the
figure to keep.
"""

from __future__ import annotations

import timeit
from collections.abc import Callable


def best_of(fn: Callable[[], object], repeat: int = 3) -> float:
    """Seconds of the fastest of ``repeat`` calls of ``fn``."""
    return min(timeit.repeat(fn, number=1, repeat=repeat))
