""":func:`rofl.batch.run.run_tasks`: every task's result once, a task that needs no worker, a worker that dies."""

from __future__ import annotations

import multiprocessing
import os
import signal
import time

import pytest

from rofl.batch.run import Done, _on_processes, _Tasks, run_tasks


def tenfold_or_die(x: int) -> int:
    """A task whose worker dies on 2 (as one killed for its memory would)."""
    if x == 2 and multiprocessing.parent_process() is not None:  # never this process
        os._exit(1)
    return 10 * x


def test_every_task_gives_one_result_and_done_ones_need_no_worker():
    def prepare(i: int):
        return Done(-1) if i in (2, 3) else (i,)

    # with one worker the tasks run here, in order
    results = list(run_tasks(tenfold_or_die, 5, prepare, lost=lambda i, why: None, jobs=1))
    assert results == [(0, 0), (1, 10), (2, -1), (3, -1), (4, 40)]


def test_a_dead_worker_loses_only_its_own_task_and_the_batch_goes_on():
    # the workers alone (run_tasks would do these quick tasks in this process)
    results = dict(_on_processes(tenfold_or_die, _Tasks(12, lambda i: (i,)), lambda i, why: ("lost", why), 2))
    assert sorted(results) == list(range(12))  # one result each, the batch ended
    assert results[2][0] == "lost" and "died" in results[2][1]
    # the tasks the death took down with it (however many were in flight:
    # that depends on timing) are tried again alone, on a fresh pool
    assert {i: r for i, r in results.items() if i != 2} == {i: 10 * i for i in range(12) if i != 2}


def test_tasks_lost_together_are_tried_again_alone():
    from rofl.batch.run import _windowed

    # a pretend pool on which task 3 kills the worker, taking down every chunk in flight
    chunks = []

    def submit(chunk):
        chunks.append([a[0] for a in chunk])
        return len(chunks) - 1, tuple(chunk)

    def finished(pending, block):
        if any((3,) in handle[1] for handle in pending):
            yield from ((handle, "a worker process died", None) for handle in list(pending))
        else:
            handle = next(iter(pending))
            yield handle, [10 * a[0] for a in handle[1]], 0.001

    results = dict(_windowed(_Tasks(40, lambda i: (i,)), submit, finished, lambda i, why: "lost", 2))
    assert results == {i: "lost" if i == 3 else 10 * i for i in range(40)}
    assert [c for c in chunks if 3 in c][-1] == [3]  # given up only once it died alone
    assert len([c for c in chunks if 3 in c][0]) > 1  # (first lost in a chunk of several)


def test_the_parent_compiles_once_before_local_workers_start(monkeypatch):
    """On a fresh install the workers would all compile at once, silently:
    the parent compiles first (saying so once), and they load the cache."""
    from rofl import kernels

    calls = []
    monkeypatch.setattr(kernels, "ready", lambda *sets: calls.append([s.name for s in sets]))
    monkeypatch.setattr(kernels, "all_cached", lambda *sets: False)
    results = dict(_on_processes(tenfold_or_die, _Tasks(2, lambda i: (i,)), lambda i, why: ("lost", why), 2))
    assert results == {0: 0, 1: 10}
    assert len(calls) == 1
    assert len(calls[0]) == 5  # both line logics, search, refinement and its repair


def test_chunks_grow_for_quick_tasks_and_shrink_at_the_end():
    from rofl.batch.run import MAX_CHUNK, _chunk_size

    assert _chunk_size(None, 1000, 2) == 1  # nothing measured yet
    assert _chunk_size(1.0, 1000, 2) == 1  # a second per task: one at a time
    assert _chunk_size(1e-4, 10_000, 2) == MAX_CHUNK
    assert _chunk_size(1e-4, 20, 2) == 5  # the last tasks spread over both workers
    assert _chunk_size(1e-4, 1, 2) == 1


def test_chunked_tasks_each_give_one_result_and_a_lost_chunk_loses_its_tasks():
    """The window in process, with a fake pool: chunk sizes and what a lost chunk does."""
    from rofl.batch import run

    sizes = []
    handles = {}

    def submit(chunk):
        sizes.append(len(chunk))
        handle = len(handles)
        handles[handle] = chunk
        return handle

    def finished(pending, block):
        assert block  # nothing to run here meanwhile: always wait
        handle = next(iter(pending))
        chunk = handles[handle]
        if any(a == (57,) for a in chunk):
            yield handle, "gone", None
        else:
            yield handle, [10 * a[0] for a in chunk], 1e-5 * len(chunk)

    def prepare(i):
        return Done(-1) if i == 3 else (i,)

    results = list(run._windowed(_Tasks(300, prepare), submit, finished, lambda i, why: ("lost", why), 2))
    got = dict(results)
    assert len(results) == len(got) == 300
    assert got[3] == -1
    assert got[57] == ("lost", "gone")
    lost = [i for i, r in got.items() if isinstance(r, tuple)]
    assert all(got[i] == 10 * i for i in got if i not in lost and i != 3)
    assert sizes[:2] == [1, 1]  # one task per worker until the first result
    assert max(sizes) > 1 and sizes[-1] <= 2


def test_many_quick_tasks_on_two_workers():
    results = dict(_on_processes(tenfold_or_die, _Tasks(400, lambda i: (i + 3,)), lambda i, why: ("lost", why), 2))
    assert results == {i: 10 * (i + 3) for i in range(400)}


def pid_after(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


def test_a_batch_shorter_than_the_workers_start_runs_here():
    results = dict(run_tasks(pid_after, 10, lambda i: (0.001,), lost=lambda i, why: None, jobs=2))
    assert set(results.values()) == {os.getpid()}


def test_a_long_batch_goes_to_the_workers_and_this_process_helps_while_they_start(monkeypatch):
    from rofl.batch import run

    monkeypatch.setattr(run, "SMALL_BATCH_SECONDS", 0.05)
    results = dict(run_tasks(pid_after, 60, lambda i: (0.02,), lost=lambda i, why: None, jobs=2))
    assert sorted(results) == list(range(60))
    pids = set(results.values())
    assert os.getpid() in pids  # the first tasks at least
    assert len(pids) >= 2  # and workers


def test_with_the_cache_in_place_the_parent_loads_no_kernels_before_the_workers(monkeypatch):
    from rofl import kernels

    calls = []
    monkeypatch.setattr(kernels, "ready", lambda *sets: calls.append(sets))
    monkeypatch.setattr(kernels, "all_cached", lambda *sets: True)
    assert dict(_on_processes(tenfold_or_die, _Tasks(2, lambda i: (i + 3,)), lambda i, why: None, 2)) == {0: 30, 1: 40}
    assert calls == []


def sigint_blocked(_: int) -> bool:
    """Whether this process (a worker) started with Ctrl-C blocked."""
    import signal

    return signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, [])


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="POSIX signal masks")
def test_worker_processes_start_with_ctrl_c_held_back(monkeypatch):
    """A Ctrl-C while the fork server or a worker starts up must not kill it
    halfway through its imports (a "Fatal Python error" on the terminal): the
    processes start with SIGINT blocked, and this process gets it back."""
    from concurrent.futures import ProcessPoolExecutor

    held = []
    real = ProcessPoolExecutor.submit

    def submit(self, *args, **kwargs):
        held.append(signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, []))
        return real(self, *args, **kwargs)

    monkeypatch.setattr(ProcessPoolExecutor, "submit", submit)
    results = dict(_on_processes(sigint_blocked, _Tasks(4, lambda i: (i,)), lambda i, why: ("lost", why), 2))
    assert held and all(held)
    assert set(results.values()) == {True}
    assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, [])  # given back here
