"""Stopping a long compiled call at a deadline or on Ctrl-C.

A numba kernel that releases the GIL (``nogil=True``) runs without ever
returning to the interpreter, so a Python signal handler cannot run until
it is done: Ctrl-C in one line-logic pass over a 2048 x 2048 puzzle used to
act after about 11 s, and a ``--budget`` was overrun by the whole pass.

:func:`run_stoppable` runs such a call in a worker thread.  The calling
thread waits in short slices; at the deadline, or when Ctrl-C raises
``KeyboardInterrupt`` in it, it stops the call -- sets a flag
(:func:`setting`) that the kernel reads before
every line solve (``stats[ST_STOP]`` of
:func:`rofl.kernels._line._propagate_trail`; the complete search,
:func:`rofl.kernels._search._search`, reads its own at every node and
probe), or interrupts the SAT solver (:mod:`rofl.solver.sat`, which
releases the GIL too) -- waits for the call to return, and raises.  Work too small to
need it runs in the calling thread: starting a thread costs about as much
as line logic on a 30 x 30 puzzle.

This is the one place that knows about the worker thread, so a caller that
compiles or loads the kernels first (the first run's compile step) does it
before any call arrives here.

A call that can be neither stopped nor interrupted (python-sat's Kissat
holds the interpreter and has no interrupt) runs in a child process
instead (:func:`run_forked`): Ctrl-C or the deadline kills the child at
once.  Its CPU time is charged to this process's clock, :func:`cpu_time`,
which every CPU budget and CPU figure of rofl reads.
"""

from __future__ import annotations

import os
import select
import signal
import sys
import threading
import time
import warnings
from collections.abc import Callable
from typing import TypeVar

import numpy as np

from rofl.errors import ChildError

T = TypeVar("T")

#: Cells from which a call runs in a worker thread even without a deadline:
#: line logic on fewer cells ends well within :data:`POLL_SECONDS` x 4 (a
#: 256 x 256 pass takes milliseconds).
THREAD_CELLS = 1 << 16

#: How often the waiting thread looks at the clock and lets Ctrl-C in.
POLL_SECONDS = 0.05


#: Whether :func:`run_forked` can run a call in a child process: where
#: ``os.fork`` is safe (Linux; macOS's system libraries are not fork-safe).
FORKS = hasattr(os, "fork") and sys.platform.startswith("linux")

#: CPU seconds of this process's finished children run by :func:`run_forked`.
_children_cpu = [0.0]


def cpu_time() -> float:
    """CPU seconds of this process (``time.process_time``: every thread's)
    and of the children :func:`run_forked` ran for it: the work one solve
    did, whatever else the machine runs."""
    return time.process_time() + _children_cpu[0]


class Deadlines:
    """The ends of one solve's budget: ``wall`` (``time.monotonic()``) and
    ``cpu`` (:func:`cpu_time`: the process's CPU time, every thread's and
    its SAT solver children's), each None when not limited.

    A wall-clock budget holds on an idle machine; on a loaded one a second
    of the clock holds a fraction of a second of work, so a benchmark that
    counts CPU time (``benchmarks/tournament.py``) gives the solve a CPU
    budget as well, and whichever ends first stops it.
    """

    __slots__ = ("cpu", "wall")

    def __init__(self, seconds: float | None = None, cpu_seconds: float | None = None) -> None:
        self.wall = None if seconds is None else time.monotonic() + seconds
        self.cpu = None if cpu_seconds is None else cpu_time() + cpu_seconds

    def wall_left(self) -> float | None:
        """Seconds of the wall clock left (None: no limit)."""
        return None if self.wall is None else self.wall - time.monotonic()

    def cpu_left(self) -> float | None:
        """Seconds of CPU time left (None: no limit)."""
        return None if self.cpu is None else self.cpu - cpu_time()

    def left(self) -> float | None:
        """The fewer seconds left of the two (None: no limit): the most work
        that may still be done, one thread working, whatever the load."""
        both = [x for x in (self.wall_left(), self.cpu_left()) if x is not None]
        return min(both) if both else None

    def passed(self) -> bool:
        """Whether either end has passed."""
        left = self.left()
        return left is not None and left <= 0


def setting(flag: np.ndarray, index: int) -> Callable[[], None]:
    """The ``stop`` of a kernel that polls ``flag[index]`` (an int64 array
    shared with it, 0 on entry): sets it to 1."""

    def stop() -> None:
        flag[index] = 1

    return stop


def run_stoppable(
    call: Callable[[], T],
    stop: Callable[[], None],
    *,
    cells: int,
    deadline: float | None,
    cpu_deadline: float | None = None,
) -> T:
    """``call()``, stopped by ``stop()`` at ``deadline`` or ``cpu_deadline``, or on Ctrl-C.

    Parameters
    ----------
    call : callable
        A call that releases the GIL and, once ``stop()`` was called,
        returns early with a value that says so: a compiled kernel polling
        a flag (:func:`setting`), or a SAT solver (``stop`` its interrupt).
    stop : callable
        Called from the waiting thread, at most once.
    cells : int
        Size of the work, to run small calls in the calling thread.
    deadline : float or None
        ``time.monotonic()`` at which to stop.
    cpu_deadline : float or None
        :func:`cpu_time` at which to stop (the process's CPU time:
        an amount of work, whatever else the machine runs), looked at as
        often as the clock.

    Returns
    -------
    What ``call`` returned: at the deadline, the value it returns when
    stopped (or its result, when it ended just then).  A small call runs
    to its end, deadline or not.

    Raises
    ------
    KeyboardInterrupt
        Ctrl-C arrived while waiting (after ``call`` has stopped: nothing
        keeps writing to the caller's arrays afterwards).
    """
    limited = deadline is not None or cpu_deadline is not None
    threaded = cells >= THREAD_CELLS and (limited or threading.current_thread() is threading.main_thread())
    if not threaded:
        return call()

    out: list = []
    failure: list[BaseException] = []
    # Set when ``call`` has returned.  Waited on instead of ``Thread.join``:
    # in Python 3.11 a KeyboardInterrupt inside ``join`` can mark a thread
    # that is still running as stopped (``is_alive()`` False, ``join()``
    # returning at once), and a SAT solver freed under its running thread
    # crashed the process.
    done = threading.Event()

    def work() -> None:
        try:
            out.append(call())
        except BaseException as exc:  # handed to the calling thread  # noqa: BLE001
            failure.append(exc)
        finally:
            done.set()

    worker = threading.Thread(target=work, name="rofl-stoppable", daemon=True)
    worker.start()
    try:
        while not done.is_set():
            wait = POLL_SECONDS
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                wait = min(wait, left)
            if cpu_deadline is not None and cpu_time() >= cpu_deadline:
                break
            done.wait(wait)
    except KeyboardInterrupt:
        stop()
        _wait(done)
        raise
    if not done.is_set():  # the deadline passed
        stop()
        _wait(done)
    if failure:
        raise failure[0]
    return out[0]


def _wait(done: threading.Event) -> None:
    """Wait for a stopped call to return, through any further Ctrl-C: nothing
    may return to the caller while the call still uses its arrays."""
    while True:
        try:
            done.wait()
        except KeyboardInterrupt:
            continue
        return


def run_forked(call: Callable[[], bytes], *, deadline: float | None) -> bytes | None:
    """``call()`` run in a child process (:data:`FORKS`), killed at
    ``deadline`` (``time.monotonic()``) or on Ctrl-C.

    For a call that can be neither stopped nor interrupted in this process.
    The child works on a copy of this process's memory and hands back only
    the bytes ``call`` returns; in it :func:`cpu_time` goes on from this
    process's (so a CPU budget's :class:`Deadlines` hold there too), and its
    CPU time is charged to this process's once it has ended, killed or not.

    Returns
    -------
    What ``call`` returned, or None when the deadline killed it first.

    Raises
    ------
    KeyboardInterrupt
        Ctrl-C arrived while waiting (the child is killed and reaped first).
    ChildError
        ``call`` raised in the child, or the child died without an answer
        (killed by the system, say for want of memory).
    BlockingIOError
        No child process could be started (``os.fork``: the user's or the
        system's limit of processes reached); nothing ran.
    """
    read, write = os.pipe()
    pid = status = 0
    chunks: list[bytes] = []
    killed = False
    clock, parent = cpu_time(), os.getpid()
    try:
        with warnings.catch_warnings():
            # Python 3.12 on warns of fork() in a process with threads (numpy's, a test
            # runner's timer): the child only runs ``call`` and leaves with os._exit
            warnings.filterwarnings("ignore", r".*use of fork\(\) may lead to deadlocks", DeprecationWarning)
            pid = os.fork()
        if pid == 0:  # the child: never returns
            _children_cpu[0] = clock - time.process_time()  # its cpu_time() goes on from this process's
            _child(call, read, write, parent)
        os.close(write)
        write = -1
        poll = select.poll()  # not select(): a process with many files open may get a pipe past its 1024
        poll.register(read, select.POLLIN)
        while True:
            wait = POLL_SECONDS
            if deadline is not None:
                wait = min(wait, deadline - time.monotonic())
                if wait <= 0:
                    os.kill(pid, signal.SIGKILL)
                    killed = True
                    break
            if poll.poll(wait * 1000):
                chunk = os.read(read, 1 << 20)
                if not chunk:
                    break
                chunks.append(chunk)
    except BaseException:  # Ctrl-C, or a failed read: the child goes
        if pid > 0:
            _kill(pid)
        raise
    finally:
        if os.getpid() != parent:
            # the child, raising before _child ignores Ctrl-C: a terminal's Ctrl-C goes to
            # the whole process group, the new child too; it must not return into the caller
            os._exit(1)
        os.close(read)
        if write >= 0:
            os.close(write)
        if pid > 0:
            status = _reap(pid)
    data = b"".join(chunks)
    if killed:
        return None
    if data[:1] == b"+":
        return data[1:]
    if data[:1] == b"!":
        msg = f"a child process of rofl failed: {data[1:].decode(errors='replace')}"
    else:
        code = os.waitstatus_to_exitcode(status)
        how = f"killed by signal {-code}" if code < 0 else f"status {code}"
        msg = f"a child process of rofl died without an answer ({how})"
    raise ChildError(msg)


def _child(call: Callable[[], bytes], read: int, write: int, parent: int) -> None:
    """The child of :func:`run_forked`: ``call()``'s bytes (``+``) or its
    error (``!``) down ``write``, then out without running the parent's exit
    handlers or flushing its buffers.  Ctrl-C is the parent's to answer, and
    the child ends with the parent (``parent``: its pid), however that ends."""
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        _die_with_parent(parent)
        os.close(read)
        try:
            data = b"+" + call()
        except BaseException as exc:  # told to the parent  # noqa: BLE001
            data = b"!" + f"{type(exc).__name__}: {exc}".encode()
        view = memoryview(data)
        while view:
            view = view[os.write(write, view) :]
    finally:
        os._exit(0)


def _die_with_parent(parent: int) -> None:
    """Have the kernel kill this process when its parent ends (Linux's
    ``PR_SET_PDEATHSIG``): a parent killed outright cannot kill its child."""
    import ctypes

    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:  # it ended before that took hold
        os._exit(1)


def _kill(pid: int) -> None:
    """Kill the child ``pid`` (it may have ended already)."""
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def _reap(pid: int) -> int:
    """Wait for the child ``pid`` through any further Ctrl-C, charge its
    CPU time to :func:`cpu_time`, and return its wait status (0 when
    someone else reaped it)."""
    while True:
        try:
            _, status, usage = os.wait4(pid, 0)
        except KeyboardInterrupt:
            _kill(pid)
            continue
        except ChildProcessError:
            return 0
        _children_cpu[0] += usage.ru_utime + usage.ru_stime
        return status
