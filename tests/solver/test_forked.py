"""A call that cannot be stopped in this process runs in a child one
(rofl.solver._stop.run_forked, Kissat's calls): its answer comes back, the
deadline and Ctrl-C kill it, an error in it is one error here, and its CPU
time is charged to rofl's clock (cpu_time)."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest

from rofl.errors import ChildError
from rofl.solver import cpu_time
from rofl.solver._stop import FORKS, run_forked
from tests.procs import all_gone, children, needs_children

pytestmark = pytest.mark.skipif(not FORKS, reason="run_forked forks (Linux)")


def _spin(seconds: float) -> bytes:
    """``seconds`` of CPU, then the child's pid."""
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass
    return str(os.getpid()).encode()


@needs_children
def test_the_answer_comes_back_and_the_child_s_cpu_is_charged():
    before, own = cpu_time(), time.process_time()
    data = run_forked(lambda: _spin(0.3), deadline=None)
    assert data is not None and int(data) != os.getpid()  # worked out in another process
    assert int(data) not in children(os.getpid())  # and reaped
    assert cpu_time() - before >= 0.29  # its CPU counts
    assert time.process_time() - own < 0.29  # though this process did not spend it


def test_a_large_answer_comes_back_whole():
    big = bytes(range(256)) * 40_000  # 10 MB, many times a pipe's buffer
    assert run_forked(lambda: big, deadline=None) == big


@needs_children
def test_the_deadline_kills_the_child():
    before = set(children(os.getpid()))
    assert run_forked(lambda: _spin(60.0), deadline=time.monotonic() + 0.3) is None
    assert children(os.getpid()) <= before  # killed and reaped
    assert cpu_time() >= 0  # charged all the same: nothing raised


@needs_children
def test_ctrl_c_kills_the_child_and_raises():
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signals reach the main thread")
    before = set(children(os.getpid()))
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            run_forked(lambda: _spin(60.0), deadline=None)
    finally:
        timer.cancel()
    assert children(os.getpid()) <= before


def test_an_error_in_the_child_is_one_error_here():
    def fails() -> bytes:
        msg = "no room for the formula"
        raise MemoryError(msg)

    with pytest.raises(ChildError, match="failed: MemoryError: no room for the formula"):
        run_forked(fails, deadline=None)


def test_a_child_that_dies_is_an_error_not_an_answer():
    def dies() -> bytes:
        os.kill(os.getpid(), signal.SIGKILL)
        return b""

    with pytest.raises(ChildError, match=r"died without an answer \(killed by signal 9\)"):
        run_forked(dies, deadline=None)


def test_the_child_s_cpu_clock_goes_on_from_this_process_s():
    """So a CPU budget's deadlines, taken here, hold in the child."""
    before = cpu_time()
    inside = float(run_forked(lambda: repr(cpu_time()).encode(), deadline=None))
    assert before <= inside < before + 5


def test_the_child_ends_with_its_parent(tmp_path):
    """A parent killed outright (no Ctrl-C to answer) takes the child with it."""
    import subprocess
    import sys

    from tests.places import REPO

    pidfile = tmp_path / "child"
    script = f"""
import pathlib, time
from rofl.solver._stop import run_forked
def spin():
    pathlib.Path({str(pidfile)!r}).write_text(str(__import__("os").getpid()))
    while True:
        pass
run_forked(spin, deadline=None)
"""
    parent = subprocess.Popen([sys.executable, "-c", script], cwd=REPO)
    try:
        give_up = time.monotonic() + 60
        while not (pidfile.exists() and pidfile.read_text()) and time.monotonic() < give_up:
            time.sleep(0.05)
        child = int(pidfile.read_text())
    finally:
        parent.kill()
        parent.wait()
    assert all_gone([child])


def test_python_s_warning_of_fork_in_a_threaded_process_is_not_an_error(monkeypatch):
    """Python 3.12 on warns when a process with threads forks (numpy's, the
    test runner's timer); the child only runs its call, so the warning is
    not raised, even where warnings are errors (as in this suite)."""
    import warnings

    real = os.fork

    def warning_fork():
        msg = f"This process (pid={os.getpid()}) is multi-threaded, use of fork() may lead to deadlocks in the child."
        warnings.warn(msg, DeprecationWarning, stacklevel=2)
        return real()

    monkeypatch.setattr(os, "fork", warning_fork)
    assert run_forked(lambda: b"ok", deadline=None) == b"ok"


def test_a_ctrl_c_as_it_forks_never_runs_the_caller_s_code_in_the_child(monkeypatch, tmp_path):
    """A terminal's Ctrl-C goes to the whole process group, a child just
    forked too, which may raise KeyboardInterrupt before it ignores Ctrl-C
    and reaches its call.  It must leave there: gone back up into its
    caller, it would go on running the caller's code as a second copy of
    the command (or of a test runner's worker)."""
    me, real = os.getpid(), os.fork
    escaped = tmp_path / "escaped"

    def fork_interrupted_in_the_child():
        pid = real()
        if pid == 0:
            raise KeyboardInterrupt  # Ctrl-C, reaching the child as it starts
        return pid

    monkeypatch.setattr(os, "fork", fork_interrupted_in_the_child)
    try:
        with pytest.raises(ChildError, match="died without an answer"):
            run_forked(lambda: b"ok", deadline=None)
    finally:
        if os.getpid() != me:  # the child came back up to here: say so, and go
            escaped.touch()
            os._exit(3)
    assert not escaped.exists()
