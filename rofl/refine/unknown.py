"""``?`` clues: turn colour clues into "any ink colour" while line logic still solves the puzzle.

:func:`unknown_colours` is what ``rofl make --unknown-colours`` runs after
the puzzle is made.  A group given as ``?`` tells the solver its length but
not its colour, so every such group makes the puzzle harder; line logic
(:func:`rofl.solve`, which takes colour sets through
:mod:`rofl.solver.index_lines`) must still solve it completely, which proves the
puzzle unique, as refinement's own puzzles are.

Groups are tried in a seeded random order.  Trying them one at a time costs
a solve per group (a few milliseconds each on a 40x20 puzzle); instead a
run of as many groups as are still wanted is tried at once and, when line
logic no longer finishes, split in halves (group testing), so a run that
all may take costs one solve.
"""

from __future__ import annotations

import numpy as np

from rofl.errors import PuzzleError


def unknown_colours(puzzle, fraction: float, *, seed: int = 0):
    """``puzzle`` with about ``fraction`` of its groups turned to ``?``, still solved by line logic.

    Parameters
    ----------
    puzzle : Puzzle or HexPuzzle
        A puzzle of at least two ink colours that line logic solves.
    fraction : float
        The share of all groups to turn, 0 to 1.  Fewer are turned when line
        logic stops finishing: each group is turned only if the puzzle stays
        line-solvable with it.
    seed : int
        The order in which groups are tried.

    Returns
    -------
    Puzzle or HexPuzzle
        Of the same class; ``color_sets`` marks the ``?`` groups.

    Raises
    ------
    PuzzleError
        One ink colour (``?`` would say nothing), a fraction outside 0..1, or
        a puzzle line logic does not solve to begin with.
    """
    from rofl.solver import solve

    if not 0 <= fraction <= 1:
        msg = f"the fraction of '?' groups must be from 0 to 1, not {fraction}"
        raise PuzzleError(msg)
    if puzzle.n_colors <= 2:
        msg = "'?' means any ink colour, but the puzzle has only one"
        raise PuzzleError(msg)
    if solve(puzzle).status != "solved":
        msg = "line logic does not solve the puzzle, so no colour can be hidden"
        raise PuzzleError(msg)
    flags = np.zeros(puzzle.n_groups, dtype=bool) if puzzle.color_sets is None else puzzle.color_sets != 0
    wanted = round(fraction * puzzle.n_groups) - int(flags.sum())
    order = np.random.default_rng(seed).permutation(np.flatnonzero(~flags))

    def solved_with(groups: np.ndarray) -> bool:
        trial = flags.copy()
        trial[groups] = True
        return solve(puzzle.with_unknown_colors(trial)).status == "solved"

    def take(groups: np.ndarray) -> int:
        """Turn what line logic allows of ``groups``; how many were turned."""
        if solved_with(groups):
            flags[groups] = True
            return len(groups)
        if len(groups) == 1:
            return 0
        half = len(groups) // 2
        return take(groups[:half]) + take(groups[half:])

    at = 0
    while wanted > 0 and at < len(order):
        run = order[at : at + wanted]
        at += len(run)
        wanted -= take(run)
    return puzzle.with_unknown_colors(flags)
