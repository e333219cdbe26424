"""What a solve found, as string enums: line logic's and the complete search's.

They are :class:`enum.StrEnum` members, so each compares equal to its value
(``LineStatus.SOLVED == "solved"``) and prints as it: code and files that
compare or store the bare strings keep working.  Light on purpose (no
numpy): the CLI may name a status without loading the solver.
"""

from __future__ import annotations

from enum import StrEnum


class LineStatus(StrEnum):
    """Where line logic stopped (:class:`rofl.solver.SolveResult`)."""

    #: every cell has one colour left: the picture, and the only solution
    SOLVED = "solved"
    #: a fixpoint with cells still open: line logic can go no further
    STALLED = "stalled"
    #: a line had no arrangement left: the clues have no solution
    CONTRADICTION = "contradiction"


class SearchStatus(StrEnum):
    """What the complete search proved (:class:`rofl.solver.CompleteResult`)."""

    #: exactly one solution, proved
    UNIQUE = "unique"
    #: two distinct solutions found (there may be more)
    MULTIPLE = "multiple"
    #: the clues contradict each other, proved
    NONE = "none"
    #: the time or node budget ran out before the answer was known
    BUDGET = "budget"
    #: a solution, found when one was asked for (``solutions=1``): whether
    #: it is the only one was not looked into
    FOUND = "found"


__all__ = ["LineStatus", "SearchStatus"]
