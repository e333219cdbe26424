"""rofl: pictures into nonogram puzzles and back.

``import rofl`` is cheap: numpy, numba and the image libraries load only
when a function that needs them is first called.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from rofl._version import __version__
from rofl.errors import FormatError, ImageError, OptionError, PuzzleError, RoflError, UnsolvableError, UsageError

# public name -> module that defines it (loaded on first access)
_LAZY = {
    "Palette": "rofl.palette",
    "Puzzle": "rofl.puzzle",
    "HexPuzzle": "rofl.hexagon",
    "Hexagon": "rofl.hexagon",
    "solve": "rofl.solver.line_logic",
    "LineSolver": "rofl.solver.line_logic",
    "SolveResult": "rofl.solver.line_logic",
    "solve_line": "rofl.solver.single_line",
    "grade": "rofl.solver.grade",
    "Difficulty": "rofl.solver.grade",
    "make": "rofl.maker",
    "MakeOptions": "rofl.maker",
    "MakeResult": "rofl.maker",
    "hide": "rofl.secret",
    "reveal": "rofl.secret",
    "solve_complete": "rofl.solver.search",
    "CompleteResult": "rofl.solver.search",
    "open_puzzle": "rofl.formats",
    "PuzzleFile": "rofl.formats",
    "make_many": "rofl.batch",
    "solve_many": "rofl.batch",
}

__all__ = [
    "FormatError",
    "ImageError",
    "OptionError",
    "PuzzleError",
    "RoflError",
    "UnsolvableError",
    "UsageError",
    "__version__",
    "register",
    *_LAZY,
]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        from rofl._lazy import submodule

        found = submodule(__name__, name)  # rofl.render, rofl.picture...: imported on first use
        if found is None:
            msg = f"module 'rofl' has no attribute {name!r}"
            raise AttributeError(msg)
        return found
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


def register() -> None:
    """Register the ROFL format with Pillow (``Image.open``/``save`` of ``.rofl``); idempotent.

    ``import rofl`` has it done as soon as ``PIL.Image`` is imported (at
    once if it already is), so that importing rofl does not import Pillow.
    """
    try:
        from rofl import RoflImagePlugin
    except ImportError:  # Pillow missing: everything but pictures still works
        return
    RoflImagePlugin.register()


def _register_with_pillow() -> None:
    from rofl._lazy import after_import

    after_import("PIL.Image", register)


_register_with_pillow()


def _draw_svg(puzzle) -> str:
    from rofl.render.svg import puzzle_svg

    return puzzle_svg(puzzle)


def _show_puzzles_in_notebooks() -> None:
    """Give the model its notebook drawing (``LinePuzzle._repr_svg_``) without the model importing the renderer."""
    from rofl._lazy import after_import

    def fill() -> None:
        from rofl.linepuzzle import SVG_DISPLAY

        SVG_DISPLAY["svg"] = _draw_svg

    after_import("rofl.linepuzzle", fill)


_show_puzzles_in_notebooks()


if TYPE_CHECKING:
    from rofl.batch import make_many, solve_many  # noqa: F401
    from rofl.formats import PuzzleFile, open_puzzle  # noqa: F401
    from rofl.hexagon import Hexagon, HexPuzzle  # noqa: F401
    from rofl.maker import MakeResult, make  # noqa: F401
    from rofl.palette import Palette  # noqa: F401
    from rofl.puzzle import Puzzle  # noqa: F401
    from rofl.secret import hide, reveal  # noqa: F401
    from rofl.solver.grade import Difficulty, grade  # noqa: F401
    from rofl.solver.line_logic import LineSolver, SolveResult, solve  # noqa: F401
    from rofl.solver.search import CompleteResult, solve_complete  # noqa: F401
    from rofl.solver.single_line import solve_line  # noqa: F401
