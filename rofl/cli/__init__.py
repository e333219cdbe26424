"""The ``rofl`` command line.

Each command lives in its own module and registers itself on
:data:`rofl.cli._app.main`, which imports the module when the command is
first used (:data:`rofl.cli._app.COMMANDS`); heavy libraries are imported
inside the command functions, so that ``rofl --help`` stays fast and
``rofl solve`` loads what solving needs only.
"""

from __future__ import annotations

from rofl.cli._app import main

__all__ = ["main"]
