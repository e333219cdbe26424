"""A cache of values bounded by the bytes they hold (boards of lines, hexagons).

``functools.lru_cache(maxsize=16)`` bounds the number of entries, not
their size: sixteen boards of side 1024 held 3.1 GB in one ``rofl bench``
(issue 40).  :func:`bytes_cache` keeps the most recently used values while
their total stays within a budget of bytes, and does not keep a value larger
than the whole budget at all.
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def bytes_cache(max_bytes: int, size_of: Callable[[Any], int]) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """Decorate a function of hashable arguments: its results are kept, most
    recently used first, while their ``size_of`` totals at most ``max_bytes``.

    The wrapper has ``cache_clear()`` and ``cache_bytes()`` (what it holds).
    """

    def decorate(make: Callable[..., T]) -> Callable[..., T]:
        kept: OrderedDict[tuple, tuple[T, int]] = OrderedDict()
        lock = threading.Lock()
        held = [0]

        @functools.wraps(make)
        def cached(*args: Any) -> T:
            with lock:
                hit = kept.get(args)
                if hit is not None:
                    kept.move_to_end(args)
                    return hit[0]
            value = make(*args)  # outside the lock: building may take a while
            size = size_of(value)
            if size > max_bytes:
                return value
            with lock:
                if args not in kept:
                    kept[args] = (value, size)
                    held[0] += size
                    while held[0] > max_bytes:
                        _, (_, old) = kept.popitem(last=False)
                        held[0] -= old
            return value

        def cache_clear() -> None:
            with lock:
                kept.clear()
                held[0] = 0

        cached.cache_clear = cache_clear  # type: ignore[attr-defined]
        cached.cache_bytes = lambda: held[0]  # type: ignore[attr-defined]
        return cached

    return decorate


def array_bytes(value: Any) -> int:
    """The bytes of the numpy arrays among an object's attributes (``__slots__`` or ``__dict__``)."""
    names = getattr(value, "__slots__", None) or list(vars(value))
    return sum(int(getattr(getattr(value, name, None), "nbytes", 0)) for name in names)
