"""Refinement kernels' own named structure, without numba.

:mod:`rofl.kernels._refine` defines the kernels and uses it;
:class:`rofl.refine.judge.Judge` builds it from here, so that refinement
through the ahead-of-time compiled kernels (:mod:`rofl.kernels._aot`)
never imports numba.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class CountMemo(NamedTuple):
    """A direct-mapped memo of arrangement counts (natural logs), keyed like
    the line cache: ``tag`` ``(entries, 3)`` int64 (hash, clue hash,
    length), ``io`` the lines' masks (as the cache's), ``val`` the log
    counts (float64)."""

    tag: np.ndarray
    io: np.ndarray
    val: np.ndarray
