"""Words in rofl's messages and reports: a count with its noun ("1 cell", "2 cells").

The one place a count is put into words, so that every layer (a reader's
error, ``rofl make``'s report, a batch's closing line) says it the same way.
"""

from __future__ import annotations


def plural(n: int, noun: str) -> str:
    """``n`` and ``noun``, the noun plural unless ``n`` is 1: ``"1 cell"``, ``"2 cells"``, ``"0 cells"``.

    The plural is the noun with an ``s`` (rofl's nouns: cell, byte, group,
    clue, sweep, picture, ...); for a phrase, the last word is the noun
    (``"blank row"`` -> ``"2 blank rows"``).
    """
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
