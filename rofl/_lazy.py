"""Submodules reached as attributes (``rofl.render.svg.puzzle_svg`` after
``import rofl``), imported on first access as scikit-image's ``lazy_loader``
does, so that ``import rofl`` stays cheap; and :func:`after_import`, which
runs a function once a module some other code imports has loaded."""

from __future__ import annotations

import importlib
import importlib.util
import sys
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


class _AfterImport:
    """A finder on ``sys.meta_path`` that runs ``then()`` once module ``name``
    has been imported, wherever the import comes from (see :func:`after_import`).

    It finds the module as the other finders do and wraps its loader; the
    finder leaves ``sys.meta_path`` once the module has run (a spec looked up
    without an import, or an import that failed, leaves it waiting).
    """

    def __init__(self, name: str, then) -> None:
        self.name = name
        self.then = then
        self._looking = False

    def find_spec(self, fullname: str, path=None, target=None):
        if fullname != self.name or self._looking:
            return None
        self._looking = True  # the search below asks this finder too
        try:
            spec = importlib.util.find_spec(fullname)
        finally:
            self._looking = False
        if spec is not None and spec.loader is not None and hasattr(spec.loader, "exec_module"):
            # a Loader in all but name: importlib.abc would cost more than this module
            spec.loader = _ThenLoader(spec.loader, self._imported)  # type: ignore[assignment]
        return spec

    def _imported(self) -> None:
        if self in sys.meta_path:
            sys.meta_path.remove(self)
            self.then()


class _ThenLoader:
    """A module's own loader, and ``then()`` after the module has run."""

    def __init__(self, loader, then) -> None:
        self.loader = loader
        self.then = then

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        module.__loader__ = self.loader  # nothing later sees this wrapper
        if module.__spec__ is not None:
            module.__spec__.loader = self.loader
        self.loader.exec_module(module)
        self.then()


def after_import(name: str, then) -> None:
    """Call ``then()`` as soon as module ``name`` is imported: now if it
    already is, else right after it first runs, whoever imports it (once,
    however often this is asked before).

    ``import rofl`` registers its Pillow plugin this way: a program that
    uses Pillow finds ``.rofl`` files as if ``import rofl`` had imported
    ``PIL.Image``, and one that does not (``rofl solve`` of a text
    puzzle) never pays for Pillow.
    """
    if name in sys.modules:
        then()
    elif not any(isinstance(f, _AfterImport) and (f.name, f.then) == (name, then) for f in sys.meta_path):
        sys.meta_path.insert(0, _AfterImport(name, then))
