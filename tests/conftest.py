"""Fixtures every test folder shares.

The tests are a package (``tests/``, one sub-package per package of rofl) so
that their helpers import the same way from every folder::

    from tests.clirun import one_error_line, run   # the one way to run `rofl`
    from tests.places import CORPUS, SAMPLES       # where the files are
    from tests import naive                        # brute-force references

pytest puts the repository on ``sys.path`` (the first folder above
``tests/`` without an ``__init__.py``), so ``rofl`` imports from the working
tree without installing it.  Module-level paths (for ``parametrize``) come
from :mod:`tests.places`; the fixtures below are for test bodies.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rofl.kernels import set_notice
from tests.places import CORPUS, DATA_DIR, REQUIRE_CORPUS, SAMPLES, no_corpus

# In a fresh checkout the first in-process command that solves compiles;
# its notice line would land in the output tests compare.  The notice's own
# tests run rofl in subprocesses.
set_notice(None)


def pytest_configure(config: pytest.Config) -> None:
    """Under ``ROFL_REQUIRE_CORPUS=1`` a missing corpus stops the run before
    any test: the tests parametrized over its files would otherwise be
    collected empty and skipped without ever asking for it."""
    if REQUIRE_CORPUS and not CORPUS.is_dir():
        msg = f"ROFL_REQUIRE_CORPUS is set but the puzzle corpus is not at {CORPUS} (set ROFL_CORPUS)"
        raise pytest.UsageError(msg)
    ctrl_c_as_in_a_terminal()


def ctrl_c_as_in_a_terminal() -> None:
    """Give this process (the run, or an xdist worker) Ctrl-C as a command in
    a terminal has it, when it started with SIGINT ignored.

    A shell runs a command in the background without job control (``pytest
    &`` in a script, ``(pytest &)``, ``sh -c 'pytest &'``: POSIX's
    asynchronous lists of a non-interactive shell) with SIGINT and SIGQUIT
    ignored.  Python keeps an ignored SIGINT (it installs the handler that
    raises ``KeyboardInterrupt`` only over the default), and the xdist
    workers and every ``rofl`` a test starts inherit it through fork and
    exec.  Such a run lost every Ctrl-C the tests send, though each test
    passed alone in a terminal: a ``rofl`` child ran to its end (status 0),
    the studio (whose uvicorn catches SIGINT whatever it was, then restores
    the ignored disposition and raises it again) exited 0 instead of 130,
    and no ``KeyboardInterrupt`` reached the in-process tests."""
    import signal
    import threading

    if threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(scope="session")
def samples() -> Path:
    """The bundled sample pictures and puzzles (``samples/``)."""
    return SAMPLES


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """The tests' own files (``tests/data/``)."""
    return DATA_DIR


@pytest.fixture(scope="session")
def corpus() -> Path:
    """The shared puzzle corpus; the test skips when it is not there (fails
    under ``ROFL_REQUIRE_CORPUS``: :func:`tests.places.no_corpus`)."""
    if not CORPUS.is_dir():
        no_corpus()
    return CORPUS


@pytest.fixture(autouse=True)
def _kissat_pace_unmeasured(monkeypatch):
    """Every test starts with Kissat's pace unmeasured: :mod:`rofl.solver.sat`
    keeps the last pace measured for its process (``_PACE``), and a test's
    caps must not depend on the tests that ran before it."""
    from rofl.solver import sat

    monkeypatch.setattr(sat, "_PACE", sat._Pace())


def pytest_collection_modifyitems(items):
    """The tests that compile every kernel set (minutes each) come first.
    pytest-xdist hands each worker a run of consecutive tests and the rest as
    they finish: last in the order, one of them ran alone at the end of the
    run, a worker idle beside it."""
    items.sort(key=lambda item: item.get_closest_marker("compiles_everything") is None)
