"""The ``rofl`` command line.

Each command lives in its own module and registers itself on
:data:`rofl.cli._app.main`; heavy libraries are imported inside the command
functions so that ``rofl --help`` stays fast.
"""

from __future__ import annotations

import importlib

from rofl.cli._app import main

_COMMAND_MODULES = (
    "rofl.cli.solve",
    "rofl.cli.make",
    "rofl.cli.secret",
    "rofl.cli.pictures",
    "rofl.cli.convert",
    "rofl.cli.page",
    "rofl.cli.sheet",
    "rofl.cli.bench",
    "rofl.cli.cache",
    "rofl.cli.studio",
)

for _name in _COMMAND_MODULES:
    importlib.import_module(_name)

__all__ = ["main"]
