"""The complete search's ``stats`` slots, without numba.

:mod:`rofl.kernels._search` defines the kernel and re-exports them; the
wrapper (:mod:`rofl.solver.search`) reads them from here, so that a search
through the ahead-of-time compiled kernel (:mod:`rofl.kernels._aot`) never
imports numba.
"""

from __future__ import annotations

# stats slots filled by _search
ST_NODES, ST_PROBES, ST_LINE_SOLVES, ST_MET, ST_MAX_DEPTH, ST_SPLITS = 0, 1, 2, 3, 4, 5
# ... and the one slot it reads: another thread sets it to stop the search
# (rofl.solver._stop), as a Python signal handler cannot run while the
# kernel holds the thread
ST_STOP = 6
# ... and more counters: probing lessons applied, probe passes a record spared
ST_LESSONS, ST_SPARED = 7, 8
# ... nogoods learned from subtrees proved empty, and the times one of them
# narrowed a cell or proved a node empty
ST_LEARNED, ST_NOGOOD_HITS = 9, 10
N_STATS = 11

#: Words of the store of learned nogoods (``_search``'s ``learned``) that the
#: wrapper keeps for all the attempts on one puzzle (4 MiB of int64); when it
#: is full, the search learns no more.
NOGOOD_WORDS = 1 << 19
#: The store's layout: word 0 is where the next nogood goes; from word
#: NOGOOD_HEAD on, each nogood is its count ``k`` of literals, then ``k``
#: pairs (cell, colours): "not every one of these cells within its colours".
NOGOOD_HEAD = 1
