""":func:`rofl.batch.run.run_tasks`: every task's result once, a task that needs no worker, a worker that dies."""

from __future__ import annotations

import os

from rofl.batch.run import Done, run_tasks


def tenfold_or_die(x: int) -> int:
    """A task whose worker dies on 2 (as one killed for its memory would)."""
    if x == 2:
        os._exit(1)
    return 10 * x


def test_every_task_gives_one_result_and_done_ones_need_no_worker():
    def prepare(i: int):
        return Done(-1) if i in (2, 3) else (i,)

    # with one worker the tasks run here, in order (2, which would end this process, never runs)
    results = list(run_tasks(tenfold_or_die, 5, prepare, lost=lambda i, why: None, jobs=1))
    assert results == [(0, 0), (1, 10), (2, -1), (3, -1), (4, 40)]


def test_a_dead_worker_loses_its_tasks_and_the_batch_goes_on():
    results = dict(run_tasks(tenfold_or_die, 12, lambda i: (i,), lost=lambda i, why: ("lost", why), jobs=2))
    assert sorted(results) == list(range(12))  # one result each, the batch ended
    assert results[2][0] == "lost" and "died" in results[2][1]
    # the tasks handed out after the death run on a fresh pool
    assert results[11] == 110


def test_the_parent_compiles_once_before_local_workers_start(monkeypatch):
    """On a fresh install the workers would all compile at once, silently:
    the parent compiles first (saying so once), and they load the cache."""
    from rofl.solver import _compile

    calls = []
    monkeypatch.setattr(_compile, "ensure_compiled", lambda *sets: calls.append([s.name for s in sets]) or 0.0)
    results = dict(run_tasks(tenfold_or_die, 2, lambda i: (i,), lost=lambda i, why: ("lost", why), jobs=2))
    assert results == {0: 0, 1: 10}
    assert len(calls) == 1
    assert len(calls[0]) == 5  # both line logics, search, refinement and its repair
