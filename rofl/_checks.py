"""Checks of plain values that every layer makes: whole numbers that are not booleans.

Python's ``bool`` is an ``int`` (``True + 1 == 2``), and JSON's ``true``
reads as one; no size, count, colour or length of rofl is a boolean, so the
checks below refuse them where ``isinstance(x, int)`` would not.  numpy's
integers and floats count as numbers (they register as
:class:`numbers.Integral` and :class:`numbers.Real`), numpy's ``bool_``
does not.
"""

from __future__ import annotations

import numbers
import operator
from typing import Any


def is_whole(value: Any) -> bool:
    """Whether ``value`` is an integer (Python's or numpy's) and not a boolean."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def is_real(value: Any) -> bool:
    """Whether ``value`` is a real number (an integer or a float, Python's or numpy's) and not a boolean."""
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def whole(value: Any) -> int:
    """``operator.index(value)``, but a boolean is no number here (JSON
    ``true`` is no length, colour or size); 1.5 or "2" are refused too,
    where ``int()`` would truncate or parse them.

    Raises
    ------
    TypeError
    """
    if _is_bool(value):
        msg = f"{value!r} is a boolean, not an integer"
        raise TypeError(msg)
    return operator.index(value)


def _is_bool(value: Any) -> bool:
    """Python's ``bool`` or numpy's (told by its dtype, without importing numpy)."""
    return isinstance(value, bool) or getattr(getattr(value, "dtype", None), "kind", None) == "b"
