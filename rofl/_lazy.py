"""Submodules reached as attributes (``rofl.render.svg.puzzle_svg`` after
``import rofl``), imported on first access as scikit-image's ``lazy_loader``
does, so that ``import rofl`` stays cheap."""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType


def submodule(package: str, name: str) -> ModuleType | None:
    """The module ``package.name`` imported, or None when ``package`` has no
    such submodule (a package's ``__getattr__`` then raises ``AttributeError``)."""
    if name.startswith("__"):
        return None
    try:
        spec = importlib.util.find_spec(f"{package}.{name}")
    except (ImportError, ValueError):
        return None
    return None if spec is None else importlib.import_module(f"{package}.{name}")


def submodules(package: str):
    """A package's module ``__getattr__`` that imports its submodules on
    first access: ``__getattr__ = submodules(__name__)``."""

    def __getattr__(name: str) -> ModuleType:
        found = submodule(package, name)
        if found is None:
            msg = f"module {package!r} has no attribute {name!r}"
            raise AttributeError(msg)
        return found

    return __getattr__
