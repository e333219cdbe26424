"""How hard a puzzle feels to a person: :func:`grade` and :class:`Difficulty`.

The grader solves the puzzle the way people are taught to, with ranked
techniques (:class:`Technique`: overlap, edges, joining and splitting,
whole-line logic, then probing across lines), always with the easiest one
that finds something, and reads the difficulty off that solve: how many
rounds it took (Batenburg, Henstra, Kosters and Palenstijn's measure for
puzzles that local reasoning solves), the hardest technique it needed, and
its bottlenecks (rounds in which only a few cells could be found).  The
model and its reasons are in ``docs/difficulty.md``.

The solver is one compiled kernel (:mod:`rofl.kernels._grade`,
kernel set ``GRADE``, compiled at install with line logic when a C
compiler is there); it reads the clues only, like every solver.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import IntEnum
from functools import lru_cache, partial

import numpy as np

from rofl.errors import PuzzleError, UnsolvableError
from rofl.hexagon import HexPuzzle
from rofl.linepuzzle import expect_puzzle
from rofl.puzzle import Puzzle


class Technique(IntEnum):
    """The techniques of the grader's solver, easiest first (the value is its rank)."""

    NONE = 0
    #: first and last placements from the clue alone overlap
    OVERLAP = 1
    #: groups pushed against the ends and crossed-out cells
    EDGES = 2
    #: known ink held by the groups that reach it, runs closed, cells split
    JOINING = 3
    #: every arrangement of a line (full line logic)
    WHOLE_LINE = 4
    #: a colour struck because it leads to a contradiction across lines
    PROBING = 5
    #: nothing above helps: a guess is needed
    GUESSING = 6

    @property
    def label(self) -> str:
        return self.name.lower().replace("_", " ")


#: Grade names, by grade.
NAMES = {1: "easy", 2: "medium", 3: "hard", 4: "expert", 5: "needs guessing"}
#: The grades ``rofl make --difficulty`` can aim for, by name.
GRADES = {"easy": 1, "medium": 2, "hard": 3, "expert": 4}

#: Weight of a round by its technique in the effort score: a round that needs
#: a harder technique costs a person more looking.
_WEIGHTS = {1: 1.0, 2: 1.0, 3: 2.0, 4: 4.0, 5: 8.0}
#: A narrow round (a bottleneck) costs this many rounds' worth more: the
#: solver must find the one place that moves among all the lines.
_NARROW_EXTRA = 1.0
#: Upper bounds of the effort score of grades 1-3 (about the 25th, 55th and
#: 85th percentiles of the corpus puzzles that logic solves, docs/difficulty.md);
#: above the last one a line-solvable puzzle is expert.
_BOUNDS = (11.5, 22.0, 42.0)
#: Puzzles of more cells are graded only on request, not by the commands'
#: reports, sheets, pages and tables (:func:`grade_shown`): grading a
#: 2048x2048 picture takes seconds, and nobody solves one by hand.
MAX_SHOWN_CELLS = 250_000
#: Puzzles whose :func:`grade_shown` is remembered.
SHOWN_REMEMBERED = 16
#: Line solves probing may spend before the grader gives up and calls the
#: puzzle one that needs guessing (about half a second at 50x50), for lines
#: of up to :data:`PROBE_LINE` cells; longer lines get fewer, in proportion
#: to the square of their length (:func:`probe_budget`), as a line solve of
#: a long line costs more and a large puzzle has more cells to probe: about
#: a second at most at any size (a random 200x200 took 14 s at the full
#: count).
PROBE_WORK = 200_000
PROBE_LINE = 50


@dataclass(frozen=True)
class Difficulty:
    """A puzzle's grade and the figures behind it (:func:`grade`).

    Attributes
    ----------
    grade : int
        1 (easy) to 4 (expert) for puzzles that logic solves, 5 when it
        needs guessing.
    name : str
        ``"easy"``, ``"medium"``, ``"hard"``, ``"expert"`` or ``"needs guessing"``.
    steps : int
        Rounds of the solve: each finds what the easiest technique that
        still helps finds on every line at once.
    hardest : Technique
        The hardest technique the solve needed (``GUESSING`` when it stalled).
    rounds : tuple of int
        Rounds per technique, ``rounds[t - 1]`` for technique ``t`` (overlap .. probing).
    narrow : int
        Bottlenecks: rounds that found at most ``few`` cells.
    few : int
        What counts as a few cells for this size (``max(1, round(sqrt(cells) / 10))``).
    fewest : int
        The fewest cells one round found (0 for a puzzle without rounds).
    probes : int
        Trial colours probing ran line logic on (a colour known to fail,
        from an earlier probe, is not tried again).
    score : float
        The effort score the grade is read from: weighted rounds plus
        bottlenecks, divided by the square root of the side in tens of
        cells (a large puzzle takes more rounds, but people also find it harder).
    """

    grade: int
    name: str
    steps: int
    hardest: Technique
    rounds: tuple[int, ...]
    narrow: int
    few: int
    fewest: int
    probes: int
    score: float

    @property
    def needs_guessing(self) -> bool:
        return self.grade == 5

    def summary(self) -> str:
        """One line, e.g. ``3/5 hard (24 steps, hardest: whole line, 5 narrow)``."""
        return (
            f"{self.grade}/5 {self.name} ({self.steps} steps, hardest: {self.hardest.label}, "
            f"{self.narrow} narrow, score {self.score:.1f})"
        )


def grade(puzzle: Puzzle | HexPuzzle) -> Difficulty:
    """Grade how hard ``puzzle`` is for a person, from its clues alone.

    Parameters
    ----------
    puzzle : Puzzle or HexPuzzle
        Black-and-white or colour, rectangular or hexagonal; not a puzzle
        with ``?`` groups (colour sets).

    Returns
    -------
    Difficulty

    Raises
    ------
    TypeError
        ``puzzle`` is no puzzle (a path, a grid: open or build one first).
    PuzzleError
        The puzzle has ``?`` groups: people have no taught techniques for
        them, and the grader does not guess at one.
    UnsolvableError
        The clues contradict each other (no solution).
    """
    return solve_graded(puzzle)[0]


def probe_budget(longest_line: int) -> int:
    """The line solves probing may spend on a puzzle whose longest line has
    ``longest_line`` cells: :data:`PROBE_WORK`, scaled down by the square
    of how much longer than :data:`PROBE_LINE` it is."""
    if longest_line <= PROBE_LINE:
        return PROBE_WORK
    return max(1, PROBE_WORK * PROBE_LINE**2 // longest_line**2)


def solve_graded(puzzle: Puzzle | HexPuzzle, probe_work: int | None = None) -> tuple[Difficulty, np.ndarray]:
    """:func:`grade`, and the round of the grader's solve that found each
    cell: an int64 array of the shape of a solution, -1 where it found none.
    Steering (:mod:`rofl.refine.difficulty`) looks near the late cells, and
    passes ``probe_work=-1``: it keeps only puzzles line logic solves, so a
    puzzle it would have to probe is graded "needs guessing" at once."""
    return _read(*run(puzzle, probe_work))


def solve_graded_clues(board, lens, cols, offs, n_colors: int, probe_work: int | None = None):
    """:func:`solve_graded` of clues given as flat int64 arrays (as
    :attr:`Puzzle.lengths <rofl.puzzle.Puzzle.lengths>`, ``colors`` and
    ``offsets`` hold them) on ``board`` (:func:`rofl.solver.index_lines.board_of`),
    without building a puzzle: steering grades thousands of grids of one
    board, their clues derived by the compiled kernel.

    Raises
    ------
    UnsolvableError
        The clues contradict each other.
    """
    from rofl.kernels.grade_codes import RECALL

    return _read(*_run(board, lens, cols, offs, n_colors, probe_work, RECALL, lambda line: f"line {line + 1}"))


def _read(status, masks, log, when, stats) -> tuple[Difficulty, np.ndarray]:
    from rofl.kernels import grade_codes as k

    steps = int(stats[k.ST_ROUNDS])
    difficulty = _difficulty(log[:steps], when.size, solved=status == k.SOLVED, probes=int(stats[k.ST_PROBES]))
    return difficulty, when


def run(puzzle: Puzzle | HexPuzzle, probe_work: int | None = None, *, recall: bool = True, words: bool = True):
    """The grader's solve: ``(status, masks, log, when, stats)`` of
    :func:`rofl.kernels._grade._grade` (codes in
    :mod:`rofl.kernels.grade_codes`; masks and ``when`` of the
    shape of a solution).  ``probe_work`` line solves may go to probing
    (None: :func:`probe_budget` of the puzzle's longest line); ``-1`` stops where line logic stops
    (status BUDGET when it does not finish), as tests compare it with the
    line solver.  ``recall=False`` tries every failed probe again after
    each success (the plain rule, as tests compare the rounds with it).
    ``words=False`` probes a black-and-white puzzle on the general path
    instead of its lines' words (tests compare the two).

    Raises
    ------
    PuzzleError, UnsolvableError
        As :func:`grade`.
    """
    expect_puzzle(puzzle, "rofl.grade")
    if puzzle.color_sets is not None:
        msg = "rofl.grade does not grade puzzles with '?' groups (colour sets): their techniques are not modelled"
        raise PuzzleError(msg)
    from rofl.kernels import grade_codes as k
    from rofl.solver.index_lines import board_of

    lens, cols, offs = (a.astype(np.int64) for a in (puzzle.lengths, puzzle.colors, puzzle.offsets))
    flags = (k.RECALL if recall else 0) | (0 if words else k.GENERAL_PATH)
    return _run(board_of(puzzle), lens, cols, offs, puzzle.n_colors, probe_work, flags, partial(_line_name, puzzle))


def _run(board, lens, cols, offs, n_colors: int, probe_work: int | None, flags: int, line_name):
    from rofl import kernels
    from rofl.kernels import grade_codes as k

    if probe_work is None:
        probe_work = probe_budget(int(np.diff(board.line_offsets).max(initial=0)))

    kernels.ready(kernels.GRADE)
    # writable copies: the extension compiled at install takes writable arrays only
    lines = [np.array(a) for a in (board.line_cells, board.line_offsets, board.cell_lines, board.cell_offsets)]
    full = (1 << n_colors) - 1 if n_colors < 64 else -1
    size = board.n_cells + 64
    while True:
        masks = np.full(board.n_cells, full, dtype=np.int64)
        log = np.zeros((size, 2), dtype=np.int64)
        when = np.full(board.n_cells, -1, dtype=np.int64)
        stats = np.zeros(k.N_STATS, dtype=np.int64)
        status = kernels.grade(masks, *lines, lens, cols, offs, probe_work, flags, log, when, stats)
        if status != k.LOG_FULL:
            break
        size *= 4
    if status == k.CONTRADICTION:
        bad = int(stats[k.ST_BAD_LINE])
        where = "" if bad < 0 else f" ({line_name(bad)} has no arrangement left)"
        msg = f"the clues have no solution{where}"
        raise UnsolvableError(msg)
    return status, masks.reshape(board.shape), log, when.reshape(board.shape), stats


@lru_cache(maxsize=SHOWN_REMEMBERED)
def grade_shown(puzzle: Puzzle | HexPuzzle) -> tuple[Difficulty | None, str | None]:
    """:func:`grade` for what rofl shows beside a puzzle (reports, sheets,
    pages, tables): ``(difficulty, None)``, or ``(None, why)`` for a puzzle
    rofl does not grade (``?`` groups, no solution, more than
    :data:`MAX_SHOWN_CELLS` cells: not seconds of work), which is then
    shown without a grade.  The last :data:`SHOWN_REMEMBERED` puzzles'
    answers are remembered (puzzles are frozen, the grade is a function of
    the clues): a sheet's command grades a puzzle to warn or to order a
    book, and its title shows the same grade."""
    cells = puzzle.n_cells if isinstance(puzzle, HexPuzzle) else puzzle.width * puzzle.height
    if cells > MAX_SHOWN_CELLS:
        return None, f"more than {MAX_SHOWN_CELLS} cells"
    try:
        return grade(puzzle), None
    except (PuzzleError, UnsolvableError) as exc:
        return None, str(exc)


def _line_name(puzzle, line: int) -> str:
    return puzzle.line_name(line) if isinstance(puzzle, Puzzle) else f"line {line + 1}"


def _difficulty(log: np.ndarray, n_cells: int, *, solved: bool, probes: int) -> Difficulty:
    """Read the grade off the solve's log: ``log[r] = (technique, cells found)``."""
    levels, found = log[:, 0], log[:, 1]
    rounds = tuple(int(np.count_nonzero(levels == t)) for t in range(1, 6))
    few = max(1, round(math.sqrt(n_cells) / 10))
    narrow = int(np.count_nonzero(found[:-1] <= few))  # the last round finishes: never a bottleneck
    effort = sum(_WEIGHTS[t] * count for t, count in enumerate(rounds, start=1)) + _NARROW_EXTRA * narrow
    score = effort / math.sqrt(max(1.0, math.sqrt(n_cells) / 10))
    hardest = Technique(int(levels.max())) if len(levels) else Technique.NONE
    if not solved:
        value, hardest = 5, Technique.GUESSING
    elif hardest >= Technique.PROBING:
        value = 4
    else:
        value = 1 + sum(score > bound for bound in _BOUNDS)
    return Difficulty(
        grade=value,
        name=NAMES[value],
        steps=len(levels),
        hardest=hardest,
        rounds=rounds,
        narrow=narrow,
        few=few,
        fewest=int(found.min()) if len(found) else 0,
        probes=probes,
        score=round(score, 2),
    )
