"""Ctrl-C (SIGINT) ends a command with one ``Error: interrupted`` line and
exit status 130, also inside one long pass of compiled line logic.

These run ``rofl`` as a process, as a user's Ctrl-C reaches it; the
timeouts are generous, the tests assert what happens, not how fast (the
latency is measured by ``benchmarks/interrupt.py``).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from rofl.formats.rofl import write_bytes
from rofl.puzzle import Puzzle
from tests.places import REPO, SAMPLES, corpus_file
from tests.procs import all_gone, children, needs_children

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process")


def start(*args, **env_vars: str) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(REPO), **env_vars)
    return subprocess.Popen(
        [sys.executable, "-m", "rofl", *map(str, args)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def threads(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/task"))


def assert_interrupted(proc: subprocess.Popen) -> str:
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "Aborted" not in err, err
    # a progress bar may precede it on the same terminal line
    assert err.endswith("Error: interrupted\n"), err
    assert err.count("Error:") == 1, err
    return err


def interrupt_once(proc: subprocess.Popen, busy, what: str, *, within: float) -> None:
    """Wait until ``busy()`` (at most ``within`` seconds, generous on a loaded machine), then Ctrl-C ``proc``."""
    give_up = time.monotonic() + within
    while not busy() and proc.poll() is None and time.monotonic() < give_up:
        time.sleep(0.05)
    assert proc.poll() is None, f"{what} ended before the test could interrupt it"
    assert_interrupted(proc)


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs /proc to see the line-logic thread")
def test_ctrl_c_in_line_logic_of_a_large_puzzle(tmp_path):
    grid = (np.random.default_rng(1).random((2048, 2048)) < 0.5).astype(np.uint8)
    path = tmp_path / "random-2048.rofl"
    path.write_bytes(write_bytes(Puzzle.from_grid(grid)))
    # numpy's BLAS starts a thread of its own as numpy loads, unless told to
    # use one: the Ctrl-C then arrived while rofl's modules loaded, not in
    # line logic (where CPython sometimes drops it, in a weakref callback)
    proc = start("solve", path, "--budget", 600, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    try:
        # line logic runs in a worker thread of its own: wait for it (the
        # process has one thread until then: with line logic compiled at
        # install it imports no numba, and it may get there within a second,
        # so counting from a baseline taken after a second could miss it)
        interrupt_once(proc, lambda: threads(proc.pid) >= 2, "line logic", within=120)
    finally:
        proc.kill()


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


@pytest.mark.slow  # 4 s of CPU before the interrupt: 35 s of wall time on a loaded 2-core machine (issue 41)
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc to see the work start")
def test_ctrl_c_in_make(tmp_path):
    out = tmp_path / "camera.rofl"
    proc = start("make", SAMPLES / "camera.jpg", "-w", 500, "-o", out)
    try:
        # the start-up takes about a second of CPU; by 4 s make is refining
        # (a 500-wide picture takes half a minute or more; 200 wide now
        # takes about 3 s, which the test could miss)
        interrupt_once(proc, lambda: cpu_seconds(proc.pid) >= 4, "make", within=300)
        assert not out.exists()
    finally:
        proc.kill()


def test_ctrl_c_while_the_command_line_loads(monkeypatch, capsys):
    import rofl.__main__

    class Interrupting:  # a Ctrl-C arriving while rofl.cli's modules import
        def find_spec(self, name, path=None, target=None):
            if name == "rofl.cli":
                raise KeyboardInterrupt
            return None

    for name in [n for n in sys.modules if n == "rofl.cli" or n.startswith("rofl.cli.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setattr(sys, "meta_path", [Interrupting(), *sys.meta_path])
    sigterm = signal.getsignal(signal.SIGTERM)
    try:
        with pytest.raises(SystemExit) as stop:
            rofl.__main__.run()
    finally:
        signal.signal(signal.SIGTERM, sigterm)  # run() installs rofl's: not for the rest of this worker
    assert stop.value.code == 130
    assert capsys.readouterr().err == "Error: interrupted\n"


@pytest.mark.slow  # a pytest of its own
def test_a_run_started_with_ctrl_c_ignored_still_gets_it():
    """A shell starts a background command without job control (``pytest &``
    in a script) with SIGINT ignored, and every process of the run inherits
    that (tests/conftest.py); the run's Ctrl-C tests must still get theirs."""
    test = "tests/solver/test_stop.py::test_ctrl_c_returns_only_after_the_call_has_stopped"
    ignored = signal.signal(signal.SIGINT, signal.SIG_IGN)  # what the pytest below inherits
    try:
        run = subprocess.Popen(
            [sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider", "--timeout", "60", test],
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
    finally:
        signal.signal(signal.SIGINT, ignored)
    out, _ = run.communicate(timeout=300)
    assert run.returncode == 0, out
    assert "1 passed" in out, out


@pytest.mark.slow  # the SAT solver on Knotty until Ctrl-C: a few seconds of CPU
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc to see the work start")
def test_ctrl_c_in_the_sat_solver():
    proc = start("solve", "--engine", "sat", corpus_file("webpbn-survey/knotty.json"), "--budget", 600)
    try:
        # start-up and the formula take about a second of CPU; Knotty keeps CaDiCaL busy for minutes
        interrupt_once(proc, lambda: cpu_seconds(proc.pid) >= 3, "the SAT solver", within=300)
    finally:
        proc.kill()


# What ``python -m rofl`` runs, with one more command whose Ctrl-C arrives in
# code run by ``exec`` of a string, as dataclasses and namedtuples build their
# methods while rofl's modules load (the moment CI's Ctrl-C once hit)
_EXEC_INTERRUPTED = """
import rofl.__main__
from rofl.cli import main

@main.command("interrupted-in-exec")
def interrupted_in_exec():
    exec("raise KeyboardInterrupt")

rofl.__main__.run()
"""


def test_ctrl_c_inside_exec_code_ends_with_status_130(tmp_path):
    # CPython marks such an interrupt unhandled even when rofl handles it, and
    # a process run with -m then kills itself with SIGINT at exit: status -2,
    # after rofl's "Error: interrupted" (rofl.__main__ clears the mark)
    (tmp_path / "rofl_exec_interrupted.py").write_text(_EXEC_INTERRUPTED, encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO), str(tmp_path)]))
    done = subprocess.run(
        [sys.executable, "-m", "rofl_exec_interrupted", "interrupted-in-exec"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 130, done.stderr
    assert done.stderr == "Error: interrupted\n"


@needs_children
def test_ctrl_c_while_kissat_runs():
    """Kissat cannot be interrupted inside python-sat: its calls run in a
    child process, which Ctrl-C kills with the command (Knotty: the search
    hands it over within a second or two, and Kissat then runs for the rest
    of the budget)."""
    proc = start("solve", "--first-only", corpus_file("webpbn-survey/knotty.json"), "--budget", 600)
    try:
        kissat: set[int] = set()

        def kissat_runs() -> bool:
            kissat.update(children(proc.pid))
            return bool(kissat)

        interrupt_once(proc, kissat_runs, "the search", within=120)
        assert kissat, "Kissat never ran in a child process"
        assert all_gone(kissat), "Kissat's process outlived the command"
    finally:
        proc.kill()
