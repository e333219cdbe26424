"""Running a batch's tasks: in this process, on local worker processes, or on a Dask cluster.

:func:`run_tasks` hands the tasks to the workers a few at a time, in
chunks sized so that each lasts about 50 ms (short tasks, such as solving
a small puzzle, would otherwise spend more time in the round trip to the
worker than in the work), and yields each result as it comes, in
whatever order they finish; the caller
(the parent) reads the inputs just before their task is handed out and
writes the outputs, so no worker touches the file system and no more than
a few inputs are in memory at once, however long the batch.

Local workers are a :class:`concurrent.futures.ProcessPoolExecutor` whose
processes are not forked from the caller: numba's threading layer (and any
thread of the caller) does not survive a fork.  They are forked from
:mod:`multiprocessing`'s fork server instead, a clean single-threaded
process that loads the compiled kernels once (:mod:`rofl.batch._preload`),
so that the workers start with them in memory rather than each loading
them from numba's cache; where there is no fork server they are spawned
and each loads them (:func:`rofl.batch.tasks.warm_up`) before its first
task.  One worker runs the tasks in this process: no start-up to pay.

On a Dask cluster (``scheduler``) the tasks travel with their bytes, and
Dask runs a task again on another worker when its worker dies (the tasks
are pure, so that is safe).
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

#: Times Dask runs a task again when the worker running it dies.
RETRIES = 2
#: How long to try reaching a Dask scheduler before giving up.
CONNECT_TIMEOUT = "10s"
#: Chunks of tasks handed out per worker ahead of the results: enough to
#: keep every worker busy, few enough to keep the inputs in flight small.
AHEAD = 2
#: Work left (measured on the first tasks) below which a batch is finished
#: in this process rather than on workers that take longer to start.
SMALL_BATCH_SECONDS = 2.0
#: How long a chunk of tasks should take, and the most tasks in one.
CHUNK_SECONDS = 0.05
MAX_CHUNK = 64


class Done:
    """What ``prepare`` returns for a task that needs no worker: its result."""

    __slots__ = ("result",)

    def __init__(self, result: Any) -> None:
        self.result = result


def run_tasks(
    fn: Callable[..., Any],
    count: int,
    prepare: Callable[[int], tuple | Done],
    *,
    lost: Callable[[int, str], Any],
    jobs: int | None = None,
    scheduler: str | None = None,
) -> Iterator[tuple[int, Any]]:
    """Run task ``i`` for every ``i < count`` and yield ``(i, result)`` as each finishes.

    Parameters
    ----------
    fn : callable
        A pure task of :mod:`rofl.batch.tasks` (it returns its failures).
    count : int
        The number of tasks.
    prepare : callable
        ``prepare(i)``: the arguments of task ``i`` (read when it is handed
        out), or :class:`Done` with its result when it needs no running (an
        output up to date, an input that cannot be read).
    lost : callable
        ``lost(i, why)``: the result of task ``i`` when its worker died
        (local workers; Dask first runs it again :data:`RETRIES` times).
    jobs : int, optional
        Local worker processes (default: all cores); 1 runs the tasks in
        this process.
    scheduler : str, optional
        The address of a Dask scheduler (``tcp://host:8786``) to run the
        tasks on instead.

    Raises
    ------
    UsageError
        ``scheduler`` without Dask installed, or a scheduler that cannot be
        reached.
    """
    if count == 0:
        return
    if scheduler is not None:
        yield from _on_dask(fn, _Tasks(count, prepare), lost, scheduler)
        return
    from rofl.kernels import processors  # all the cores this process may use

    jobs = min(jobs or processors(), count)
    # The tasks run here (all of them with one job).  With more, the first
    # ones tell how long a task takes, and a batch that this process
    # finishes sooner than workers would start (the fork server loading the
    # kernels: 1.5 s or more) is done here too.
    tasks = _Tasks(count, prepare)
    seconds: list[float] = []
    while (item := tasks.take()) is not None:
        i, a = item
        if isinstance(a, Done):
            yield i, a.result
            continue
        results, took = run_chunk(fn, [a])
        seconds.append(took)
        yield i, results[0]
        # the first task also loads the kernels: its time says little
        if jobs > 1 and len(seconds) >= 2 and sum(seconds[1:]) / (len(seconds) - 1) * tasks.left > SMALL_BATCH_SECONDS:
            yield from _on_processes(fn, tasks, lost, jobs, local=True)
            return


class _Tasks:
    """A batch's tasks in order, each prepared when it is taken."""

    def __init__(self, count: int, prepare: Callable[[int], tuple | Done]) -> None:
        self.count, self.prepare, self.taken = count, prepare, 0

    @property
    def left(self) -> int:
        return self.count - self.taken

    def take(self) -> tuple[int, tuple | Done] | None:
        """The next task's index and arguments (or :class:`Done`), None at the end."""
        if self.taken == self.count:
            return None
        self.taken += 1
        return self.taken - 1, self.prepare(self.taken - 1)


def run_chunk(fn: Callable[..., Any], chunk: list[tuple]) -> tuple[list[Any], float]:
    """Run ``fn`` on each argument tuple of ``chunk`` (in a worker); return
    the results and the seconds they took, from which the parent sizes
    the next chunks."""
    start = time.perf_counter()
    results = [fn(*a) for a in chunk]
    return results, time.perf_counter() - start


def _chunk_size(seconds_per_task: float | None, remaining: int, workers: int) -> int:
    """How many tasks to hand out at once: enough that a chunk lasts about
    :data:`CHUNK_SECONDS` (so the round trip to a worker does not weigh on
    tasks of a millisecond), never more than :data:`MAX_CHUNK`, and small
    enough near the end that the last tasks spread over all the workers."""
    if seconds_per_task is None:
        return 1  # nothing measured yet: one task tells how long they take
    size = int(CHUNK_SECONDS / max(seconds_per_task, 1e-6))
    return max(1, min(size, MAX_CHUNK, remaining // (2 * workers)))


def _windowed(
    tasks: _Tasks, submit, finished, lost, workers: int, local: Callable | None = None, retry: bool = True
) -> Iterator[tuple[int, Any]]:
    """Hand ``tasks`` out in chunks with ``submit(chunk) -> handle`` while
    fewer than ``AHEAD * workers`` chunks are running, and yield ``(i,
    result)`` from ``finished(pending, block)``, which yields ``(handle,
    results, seconds)`` for the ``pending`` ``{handle: ...}`` that are
    done (waiting for at least one if ``block``); ``results`` is a list, or
    a string saying why they were lost (``lost(i, why)`` is then each one's
    result).

    With ``retry`` (local workers), since a dying worker takes down every
    chunk in flight on its pool, not only its own task, and which task
    killed it is not known, the tasks of a lost chunk are tried again, each
    alone, with nothing else running (no new chunk is handed out
    meanwhile); only one that is lost alone is given up, with ``lost(i,
    why)`` as its result.  (Dask runs a dead worker's tasks again itself.)

    With ``local`` (the task function, in a process that holds the kernels
    already), this process runs tasks itself until the workers deliver
    their first results, so that their start is not time lost.  (Before it
    holds them, running tasks here only slowed the start: loading the
    kernels here and in the fork server at once, a batch of 36 pictures
    took 4.7 s instead of 3.8 s.)
    """
    pending: dict = {}  # handle: (indices, chunk, tried alone)
    suspects: list[tuple[int, tuple]] = []  # lost with a dying worker, to try again alone
    spent, measured = 0.0, 0
    delivered = local is None
    while True:
        if suspects and not pending:
            i, a = suspects.pop(0)
            pending[submit([a])] = ([i], [a], True)
        while not suspects and tasks.left and len(pending) < AHEAD * workers:
            size = _chunk_size(spent / measured if measured else None, tasks.left, workers)
            indices, chunk = [], []
            while len(chunk) < size and (item := tasks.take()) is not None:
                i, a = item
                if isinstance(a, Done):
                    yield i, a.result
                else:
                    indices.append(i)
                    chunk.append(a)
            if chunk:
                pending[submit(chunk)] = (indices, chunk, False)
            if measured == 0 and len(pending) >= workers:
                break  # one task per worker until the first results size the chunks
        if not pending:
            return
        done = list(finished(pending, delivered or not tasks.left or bool(suspects)))
        if not done:  # the workers are still starting: a task here meanwhile
            i, a = tasks.take()  # type: ignore[misc]  # some are left, or finished() would have waited
            if isinstance(a, Done):
                yield i, a.result
                continue
            results, seconds = run_chunk(local, [a])
            spent += seconds
            measured += 1
            yield i, results[0]
            continue
        delivered = True
        for handle, results, seconds in done:
            indices, chunk, alone = pending.pop(handle)
            if isinstance(results, str):
                if retry and not alone:
                    suspects.extend(zip(indices, chunk, strict=True))
                else:
                    for i in indices:
                        yield i, lost(i, results)
                continue
            spent += seconds
            measured += len(indices)
            yield from zip(indices, results, strict=True)


def _on_processes(fn, tasks: _Tasks, lost, jobs: int, *, local: bool = False) -> Iterator[tuple[int, Any]]:
    """The ``tasks`` left, on ``jobs`` worker processes; with ``local``,
    this process (which ran the first tasks) runs more while they start."""
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool

    from rofl import kernels

    # Compile once here, with the one notice, before the workers start: on a
    # fresh install they would otherwise all compile at once, silently.  With
    # the cache in place this process needs none of the kernels (the workers
    # load them), so it does not spend a second loading them first.
    needed = (kernels.LINE, kernels.FRESH, kernels.SEARCH, kernels.REFINE, kernels.REPAIR)
    if not kernels.all_cached(*needed):
        kernels.ready(*needed)

    # one lock file for all the workers: a large picture is made by one worker
    # at a time (rofl.picture.load.decoding), so -j N does not hold N of them
    import tempfile

    context = _context()
    handle, large = tempfile.mkstemp(prefix="rofl-large-pictures-", suffix=".lock")
    os.close(handle)

    def new_pool() -> ProcessPoolExecutor:
        return ProcessPoolExecutor(jobs, mp_context=context, initializer=_worker_start, initargs=(large,))

    pools = [new_pool()]

    def submit(chunk: list[tuple]):
        with _ctrl_c_held():  # a submit may start processes
            try:
                return pools[-1].submit(run_chunk, fn, chunk)
            except BrokenProcessPool:
                # a worker died (killed, out of memory): the tasks it took down
                # are lost, the ones still to come get a fresh pool
                pools[-1].shutdown(wait=False)
                pools.append(new_pool())
                return pools[-1].submit(run_chunk, fn, chunk)

    def finished(pending: dict, block: bool):
        done, _ = wait(pending, timeout=None if block else 0, return_when=FIRST_COMPLETED)
        for future in done:
            try:
                yield future, *future.result()
            except BrokenProcessPool:
                yield future, "a worker process died (out of memory?)", None

    try:
        yield from _windowed(tasks, submit, finished, lost, jobs, local=fn if local else None)
    except BaseException:
        # Ctrl-C (or the caller's early close): stop the workers now rather
        # than after their tasks; they write nothing, so nothing is left half done
        pool = pools[-1]
        terminate = getattr(pool, "terminate_workers", None)  # Python 3.14
        if terminate is not None:
            terminate()
        else:
            processes = list((getattr(pool, "_processes", None) or {}).values())
            for process in processes:
                process.terminate()
            # a worker still starting unpickles the pool's queues: it must be
            # gone before the shutdown below releases their semaphores, or it
            # prints a FileNotFoundError traceback of its own
            for process in processes:
                process.join(timeout=5)
        raise
    finally:
        for pool in pools:
            pool.shutdown(wait=True, cancel_futures=True)
        with contextlib.suppress(OSError):
            os.unlink(large)


@contextmanager
def _ctrl_c_held() -> Iterator[None]:
    """Hold Ctrl-C back while worker processes may start (POSIX, main thread).

    A process started meanwhile starts with SIGINT blocked: the fork server,
    a fresh interpreter, would otherwise die of a Ctrl-C that comes while it
    imports its first modules, printing "Fatal Python error" and a
    traceback (it ignores Ctrl-C once it runs; the workers do too,
    :func:`_worker_start`).  The Ctrl-C reaches this process as soon as
    the block ends.
    """
    import signal
    import threading

    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _context():
    """The fork server where there is one (POSIX): workers forked from a clean
    process that loaded the kernels once (:mod:`rofl.batch._preload`); else spawn."""
    import multiprocessing

    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["rofl.batch._preload"])
    return context


def _worker_start(large: str | None = None) -> None:
    """A local worker's start: leave Ctrl-C to the parent (which stops the
    workers itself, without a traceback from each), take the lock file that
    the workers share for large pictures, then load the kernels."""
    import signal

    from rofl.batch.tasks import warm_up
    from rofl.picture.load import share_large_decodes

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if large is not None:
        share_large_decodes(large)
    warm_up()


def _on_dask(fn, tasks: _Tasks, lost, scheduler: str) -> Iterator[tuple[int, Any]]:
    from rofl.batch.tasks import warm_up
    from rofl.errors import RoflError, UsageError

    # A missing extra and an unreachable scheduler are failures of the
    # machine, not of the command line (exit status 1); an address Dask
    # cannot parse is a bad option (a UsageError, status 2).
    try:
        from distributed import Client, as_completed
    except ImportError:
        msg = "--scheduler needs Dask distributed: pip install 'rofl[dask]'"
        raise RoflError(msg) from None
    try:
        client = Client(scheduler, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError, ValueError) as exc:
        msg = f"--scheduler {scheduler}: cannot reach the Dask scheduler ({exc})"
        if isinstance(exc, ValueError):
            raise UsageError(msg) from None
        raise ConnectionError(msg) from None
    running = as_completed()

    def submit(chunk: list[tuple]):
        future = client.submit(run_chunk, fn, chunk, retries=RETRIES, pure=False)
        running.add(future)
        return future

    def finished(pending: dict, block: bool):  # noqa: ARG001 -- Dask: the workers are up
        future = next(running)
        try:
            yield future, *future.result()
        except Exception as exc:  # noqa: BLE001 -- its workers died RETRIES + 1 times
            yield future, f"lost on the cluster: {type(exc).__name__}: {exc}", None

    try:
        client.run(warm_up)  # every worker loads the kernels once, not inside a timed task
        workers = max(1, sum(client.nthreads().values()))
        yield from _windowed(tasks, submit, finished, lost, workers, retry=False)
    finally:
        client.close()
