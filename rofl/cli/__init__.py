"""The ``rofl`` command line.

Each command lives in its own module and registers itself on
:data:`rofl.cli._app.main`, which imports the module when the command is
first used (:data:`COMMANDS`); heavy libraries are imported inside the
command functions, so that ``rofl --help`` stays fast and ``rofl solve``
loads what solving needs only.
"""

from __future__ import annotations

import functools
import importlib

from rofl.cli._app import main

#: Every command -> the module that defines it (and registers it on :data:`main`).
COMMANDS = {
    "bench": "rofl.cli.bench",
    "cache": "rofl.cli.cache",
    "convert": "rofl.cli.convert",
    "decode": "rofl.cli.pictures",
    "encode": "rofl.cli.pictures",
    "hide": "rofl.cli.secret",
    "info": "rofl.cli.pictures",
    "make": "rofl.cli.make",
    "page": "rofl.cli.page",
    "reveal": "rofl.cli.secret",
    "sheet": "rofl.cli.sheet",
    "solve": "rofl.cli.solve",
    "studio": "rofl.cli.studio",
}

main.lazy.update({name: functools.partial(importlib.import_module, module) for name, module in COMMANDS.items()})

__all__ = ["main"]
