"""Batches: many pictures into puzzles, many puzzle files solved, on every core or a Dask cluster.

:func:`make_many` and :func:`solve_many` return iterators of result rows,
for notebooks as for ``rofl make PICTURES... -o DIR/`` and ``rofl bench``.
The work is done by pure tasks (:mod:`rofl.batch.tasks`: bytes in, bytes
and a row out) that :mod:`rofl.batch.run` hands to local worker processes
or to a Dask cluster; the caller's process reads the inputs and writes
every output (:mod:`rofl.batch.make`, :mod:`rofl.batch.solve`), with the
summary tables of :mod:`rofl.batch.summary`.
"""

from __future__ import annotations

from rofl.batch.make import make_many, write_book
from rofl.batch.solve import solve_many
from rofl.maker import MakeOptions  # the options of a batch are those of rofl.make

__all__ = ["MakeOptions", "make_many", "solve_many", "write_book"]


from rofl._lazy import submodules  # noqa: E402 -- the rest of the package loads on first use

__getattr__ = submodules(__name__)
