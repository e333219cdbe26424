"""The suite's per-test timeout (pyproject.toml) ends a compiled kernel that loops.

rofl's kernels release the GIL and a small search runs in the calling thread
(``rofl.solver._stop.THREAD_CELLS``): pytest-timeout's default ``signal``
method can then never run its handler, and a broken kernel stalled a run for
good (a search kernel whose word cache ignored the black word looped for 30
minutes under ``timeout = 300``).  The ``thread`` method ends the process
with a stack dump: under xdist the worker's test fails and a new worker
goes on.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.places import REPO

_LOOPING = """
from numba import njit

@njit(nogil=True)  # as rofl's kernels (rofl.kernels._config.JIT)
def spin(n):
    x = 0
    while n > 0:
        x += 1
    return x

def test_spins():
    spin(1)
"""


@pytest.mark.slow  # a pytest of its own, and numba compiling
def test_a_looping_kernel_is_ended_by_the_timeout(tmp_path):
    (tmp_path / "test_looping.py").write_text(_LOOPING)
    test = str(tmp_path / "test_looping.py")
    command = [sys.executable, "-m", "pytest", "-c", str(REPO / "pyproject.toml"), "--rootdir", str(tmp_path),
               "-q", "-n", "0", "-p", "no:cacheprovider", "-o", "timeout=5", test]  # fmt: skip
    try:
        run = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        pytest.fail("the looping kernel ran on past the suite's timeout")
    assert run.returncode != 0
    assert "Timeout" in run.stdout + run.stderr
