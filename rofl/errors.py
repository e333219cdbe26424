"""rofl's exceptions: one small hierarchy, each class refining a built-in.

The CLI turns any :class:`RoflError` into one line on stderr and a non-zero
exit status; library callers can catch the built-in they already expect
(``ValueError``, ``OSError``...).

A bad argument to a library function (``rofl.make(width=0)``, a palette
string that names no colour, an unknown dither) is an :class:`OptionError`;
:class:`UsageError` is its subclass for the checks the command line makes
itself, so ``except OptionError`` catches both.
"""

from __future__ import annotations

import reprlib
from typing import Any


class Terminated(KeyboardInterrupt):
    """SIGTERM arrived (the ``rofl`` command raises it, :mod:`rofl.__main__`).
    A :class:`KeyboardInterrupt`, so that what stops a long compiled call on
    Ctrl-C (:mod:`rofl.solver._stop`) stops it on SIGTERM too, and
    ``finally`` blocks run (an atomic write removes its temporary file)."""


class RoflError(Exception):
    """Base class of every error rofl raises on purpose."""


class PuzzleError(RoflError, ValueError):
    """A puzzle (clues or palette) is inconsistent or impossible."""


class FormatError(RoflError, ValueError):
    """A file or string is not valid in the format it claims to be."""


class UnsolvableError(RoflError, ValueError):
    """A puzzle could not be solved to one picture (stalled, ambiguous, contradictory)."""


class AmbiguousError(UnsolvableError):
    """The clues have several solutions; ``solutions`` holds two that differ."""

    def __init__(self, message: str, solutions: list | None = None) -> None:
        super().__init__(message)
        self.solutions = solutions or []


class ImageError(RoflError, ValueError):
    """A picture could not be read or turned into a grid."""


class OptionError(RoflError, ValueError):
    """An option or argument given to a library function is invalid."""


class UsageError(OptionError):
    """A command-line argument is invalid (raised by :mod:`rofl.cli`'s own checks)."""


class NotDecodedError(RoflError):
    """A file that may well be valid was not decoded: it is beyond this reader's limits or its search budget.

    ``spec/ROFL.md`` section 5 keeps this result apart from "invalid file":
    the fault is the reader's, and a larger limit or budget (or another
    reader) may decode the file.  Catch this class to tell the two apart.
    """


class RoflImageError(FormatError, OSError):
    """A ROFL file Pillow could not open or load (``Image.open``, ``load()``).

    Pillow's plugins raise ``OSError`` for a broken file (applications catch
    ``OSError`` around ``Image.open(...).load()``); this is both that and a
    :class:`FormatError`.  Only :mod:`rofl.RoflImagePlugin` raises it; the
    error rofl found (a :class:`FormatError`, :class:`UnsolvableError`,
    :class:`BudgetError`, :class:`LimitError`...) is its ``__cause__``.
    """


class LimitError(NotDecodedError, FormatError):
    """A file beyond a limit of this reader (colours, cells, file size), not a broken one."""


class BudgetError(NotDecodedError, UnsolvableError):
    """The complete search did not finish within its time budget: not decoded, not known to be invalid."""


class ChildError(RoflError, RuntimeError):
    """A child process rofl ran work in (the SAT solver Kissat's) failed, or died without an answer."""


def _short_repr() -> reprlib.Repr:
    short = reprlib.Repr()
    short.maxstring = short.maxother = short.maxlong = 40
    short.maxlist = short.maxtuple = short.maxdict = short.maxset = short.maxfrozenset = 6
    short.maxlevel = 3
    return short


_SHORT = _short_repr()


def shown(value: Any) -> str:
    """``repr(value)`` cut short for an error message: a 10 MB string or a
    deeply nested list from a hostile file is named by its first characters
    and items, never echoed whole (issue 40)."""
    return _SHORT.repr(value)
