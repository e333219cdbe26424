"""Imported by the fork server of the local workers: the kernels loaded once, for every worker forked from it.

Importing this module runs :func:`rofl.batch.tasks.warm_up`.  The fork
server (:mod:`multiprocessing`'s ``forkserver`` start method) is a fresh,
single-threaded process, so forking workers from it is safe where forking
the caller is not; every worker then starts with the imports done and the
compiled kernels in memory, instead of each loading them again.
"""

from __future__ import annotations

from rofl.batch.tasks import warm_up

warm_up()
