"""What Linux's ``/proc`` says of processes, for the tests of rofl's child
processes (Kissat's, :func:`rofl.solver._stop.run_forked`): a process's
children, whether a process still runs, and waiting until some have gone.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable
from pathlib import Path

import pytest

#: Whether the kernel lists a process's children (``CONFIG_PROC_CHILDREN``).
LISTS_CHILDREN = Path(f"/proc/self/task/{os.getpid()}/children").exists()
needs_children = pytest.mark.skipif(not LISTS_CHILDREN, reason="needs /proc/PID/task/TID/children")


def children(pid: int) -> set[int]:
    """The children of process ``pid``, as the kernel lists them for each of its threads."""
    found: set[int] = set()
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            found.update(int(c) for c in Path(f"/proc/{pid}/task/{task}/children").read_text().split())
        except (FileNotFoundError, ProcessLookupError):  # a thread that ended meanwhile (line logic's workers)
            pass
    return found


def running(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie or a process gone is not running)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError):
        return False


def all_gone(pids: Iterable[int], within: float = 30.0) -> bool:
    """Whether none of ``pids`` runs, waiting up to ``within`` seconds for the last to end."""
    pids = list(pids)
    give_up = time.monotonic() + within
    while any(running(pid) for pid in pids) and time.monotonic() < give_up:
        time.sleep(0.05)
    return not any(running(pid) for pid in pids)
