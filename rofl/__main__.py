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

import signal
import sys

from rofl.errors import Terminated


def _terminate(signum: int, frame) -> None:
    raise Terminated


def handle_sigterm() -> None:
    """Raise :class:`Terminated` in the main thread on SIGTERM (what the
    ``rofl`` command does before anything else)."""
    signal.signal(signal.SIGTERM, _terminate)


def run() -> None:
    handle_sigterm()
    try:
        from rofl.cli import main
    except Terminated:
        sys.stderr.write("Error: terminated\n")
        raise SystemExit(143) from None
    except KeyboardInterrupt:
        sys.stderr.write("Error: interrupted\n")
        raise SystemExit(130) from None
    main()


if __name__ == "__main__":
    run()
