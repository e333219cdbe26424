"""Where ``rofl`` and ``python -m rofl`` start: the command line of
:mod:`rofl.cli`, and Ctrl-C while it loads gives the same one line and
status 130 as Ctrl-C later (:mod:`rofl.cli._app`), not a traceback."""

from __future__ import annotations

import sys


def run() -> None:
    try:
        from rofl.cli import main
    except KeyboardInterrupt:
        sys.stderr.write("Error: interrupted\n")
        raise SystemExit(130) from None
    main()


if __name__ == "__main__":
    run()
