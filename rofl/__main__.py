"""Where ``rofl`` and ``python -m rofl`` start: the command line of
:mod:`rofl.cli`, and Ctrl-C while it loads gives the same one line and
status 130 as Ctrl-C later (:mod:`rofl.cli._app`), not a traceback.

SIGTERM (``kill``, a batch system's time limit) is turned into an
exception too (:class:`rofl.errors.Terminated`), so that the command ends as after
Ctrl-C, through its ``finally`` blocks: an atomic write in progress removes
its hidden temporary file (``.name.XXXX.tmp``), a batch records its
summary.  One ``Error: terminated`` line, status 143 (128 + SIGTERM).
"""

from __future__ import annotations

import gc
import signal
import sys

from rofl.errors import Terminated


def _terminate(signum: int, frame) -> None:
    raise Terminated


def handle_sigterm() -> None:
    """Raise :class:`Terminated` in the main thread on SIGTERM (what the
    ``rofl`` command does before anything else)."""
    signal.signal(signal.SIGTERM, _terminate)


def forget_handled_interrupt() -> None:
    """Clear CPython's mark of a Ctrl-C left unhandled, once rofl has handled it.

    CPython sets that mark whenever a ``KeyboardInterrupt`` stops code run by
    ``exec`` of a string -- dataclasses and namedtuples build their methods
    that way while rofl's modules load -- caught or not, and a process
    started as ``python -m rofl`` then kills itself with SIGINT at exit:
    status -2 after rofl's ``Error: interrupted``, not 130.  A string run to
    its end clears the mark.  A Ctrl-C that really goes unhandled marks it
    again on its way out.
    """
    exec("None")  # noqa: S102 -- a constant string: see above


def run() -> None:
    """The ``rofl`` command: :data:`rofl.cli.main` on ``sys.argv``, which ends the process."""
    handle_sigterm()
    try:
        from rofl.cli import main
    except Terminated:
        sys.stderr.write("Error: terminated\n")
        raise SystemExit(143) from None
    except KeyboardInterrupt:
        sys.stderr.write("Error: interrupted\n")
        forget_handled_interrupt()
        raise SystemExit(130) from None
    try:
        main()
    finally:
        forget_handled_interrupt()
        # The process ends here.  Python's last garbage collection would
        # visit every object of numpy and rofl to free memory the system
        # takes back anyway (some 20 ms of a 0.2 s `rofl solve`): the objects
        # are set aside.  Exit handlers still run and files still close.
        gc.freeze()


if __name__ == "__main__":
    run()
