"""Steering a refined picture toward a difficulty grade (``rofl make --difficulty``).

Refinement (:func:`rofl.refine.refine`) changes as few cells as it can; the
puzzle it leaves has whatever difficulty the picture gives it.
:func:`steer` then moves that puzzle toward a grade of
:func:`rofl.solver.grade.grade`, one cell at a time, every step a puzzle
that line logic still solves (so still unique):

* **easier** (``easy``, ``medium`` when the puzzle is harder): a cell on
  the edge of a region takes its neighbour's colour where that costs the
  picture least (extending or joining blocks, which opens the solve: more
  overlap, fewer narrow rounds), the change that lowers the grader's
  score most is kept, until the grade is reached or :data:`EASY_LIMIT` of
  the cells are changed in all, refinement's changes included (``make``
  refines again at :data:`EASY_EFFORT` when refinement alone passes it);
* **harder** (``hard``, ``expert`` when the puzzle is easier): refinement's
  fewest changes are kept and at most :data:`HARD_EXTRA` of the cells more
  may change, each the one that raises the score most (closing the easy
  entry points: broken long blocks, fewer overlaps).

After each move kept, refinement's changes within :data:`NEAR` lines of it
are tried back at the picture's colour: one the move made needless goes
back and gives its cell of room back (the limits count the cells that
differ from the picture's in the end); with no room left, every one of
refinement's changes is a move (back to the picture's colour).

A step judges :data:`CANDIDATES` to :data:`MAX_CANDIDATES` moves (with a
seeded jitter among equally cheap ones, so the same seed gives the same
puzzle), each graded by line logic alone (a move that would need probing
is refused without it); steering stops after :data:`MAX_TRIES` judged moves or :data:`MAX_WORK`
rounds of the grader in all: a count, not seconds, so the result does not
depend on the machine.  One ``make --difficulty`` spends at most
:data:`MAKE_WORK` rounds in all (:class:`Budget`: every steering, and every
other drawing :func:`pick_style` makes); when that stops the search, the
note says so.
When the grade is out of reach within the limit, :attr:`Steering.note`
says so in one line.  :func:`pick_style` steers the picture pipeline:
the puzzle of another drawing of the picture (style, threshold) when it
comes closer to the grade, its likeness within :data:`STYLE_MARGIN` of the
puzzle made without steering, within easy's limit first.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from rofl import kernels
from rofl.errors import OptionError
from rofl.puzzle import Palette, Puzzle
from rofl.solver.grade import GRADES, NAMES, Difficulty, Technique, grade, solve_graded, solve_graded_clues
from rofl.solver.index_lines import board_of

#: The share of cells an easier puzzle may have changed in all (refinement's
#: changes and steering's).
EASY_LIMIT = 0.02
#: The share of cells steering may change beyond refinement's to make a
#: puzzle harder (at least one cell).
HARD_EXTRA = 0.005
#: The refinement effort (``MakeOptions.effort``: polishing's repair
#: attempts per change, relocation's passes) ``difficulty="easy"`` refines
#: a picture again with when the usual effort leaves more than
#: :data:`EASY_LIMIT` of its cells changed: longer polishing and relocation
#: find a unique puzzle with a few changes fewer (``text`` at 50 cells,
#: photo style: 46 instead of 51).
EASY_EFFORT = 8.0
#: The most cells refinement may have changed for easy to refine again
#: (:data:`EASY_EFFORT`): a quarter over :data:`EASY_LIMIT`.  Refining
#: longer saves a few changes, not hundreds (``gravel`` at 50 cells, photo
#: style at 115: 10% changed, 11 s more, still 9.6%).
EASY_AGAIN = 1.25 * EASY_LIMIT
#: How much likeness (a style's score, SSIM + edge F1, 0-2) ``rofl make
#: --difficulty`` may give up for a style that reaches the grade asked for
#: (:func:`pick_style`): about a tenth of a good picture's score.
STYLE_MARGIN = 0.2
#: How far below the likeness of auto's puzzle a drawing may be when easy's
#: limit binds harder than :data:`STYLE_MARGIN` (no drawing within that
#: margin keeps within :data:`EASY_LIMIT`): twice the margin.  A drawing
#: further than that no longer shows the photo (``hubble_deep_field`` at 30
#: cells kept within 2% only at threshold 20, the sky drawn as noise,
#: likeness 0.44 against 0.92): easy then passes its limit, and says so.
FAR_MARGIN = 2 * STYLE_MARGIN
#: Black-and-white thresholds (sRGB grey, 0-255) :func:`pick_style` also
#: draws the picture at in the photo style.
THRESHOLDS = (70, 85, 100, 115, 130, 145, 160, 175, 190)
#: The thresholds :func:`pick_style` draws a black-and-white photo at when
#: no drawing at :data:`THRESHOLDS` or in another style keeps within easy's
#: limit: darker, every 5 grey levels (what refinement changes jumps from
#: one to the next), rarely a likeness, but easy's limit binds harder (a
#: drawing of one colour is never taken).
LAST_THRESHOLDS = tuple(range(10, 70, 5))
#: The share of the cells of auto's puzzle another drawing must keep
#: (``trim`` leaves out blank border lines: a drawing of a few dark cells
#: would shrink to them, and its likeness tell nothing).  A drawing with its
#: specks repainted may lose a few border lines of them and no more
#: (``hubble_deep_field`` at 30 cells: its poster drawing cleaned keeps 84%
#: of auto's cells, likeness 0.87 against 0.88, and eases to easy).
KEEP_CELLS = 0.8
#: :func:`pick_style` smooths the drawings (:func:`rofl.picture.smooth`)
#: to ease a puzzle only when auto's and every drawing within the margin
#: before them grade at least this: a textured photo (``chelsea``, ``text``
#: at 50 cells), whose speckle smoothing evens out.  Smoothing gives up thin
#: features too; where a drawing is nearer the grade, the budget is better
#: spent steering it (``logo`` at 50 cells: its smoothed lines drawing,
#: steered, crowded out the cleaned photo that reaches medium).
SMOOTH_FROM = GRADES["expert"]
#: Drawings :func:`pick_style` steers in full, most promising first (it
#: grades more: every drawing within the likeness margin).
STEERED = 3
#: How :func:`pick_style` ranks drawings before steering them: easing by
#: ``n`` cells is taken to leave the score times ``exp(-n / EASE_CELLS)``
#: (about what steering reached on the benchmark's photos: a drawing with
#: room left beats a slightly easier one without).
EASE_CELLS = 15.0
#: Moves judged per step (each a grade of the whole puzzle), at least: a
#: step judges up to :data:`MAX_CANDIDATES` when :data:`MAX_WORK` is enough
#: for that many in each step the limit leaves (a puzzle of few rounds, or
#: little room left: each move must count).
CANDIDATES = 9
MAX_CANDIDATES = 36
#: After a move is kept, refinement's changes in the rows and columns
#: within this many lines of it are tried back at their picture's colour:
#: a move that opens the solve can make one needless, which gives its cell
#: of room back (kept when the puzzle stays line-solvable and the score
#: moves no further from the grade).
NEAR = 2
#: Moves judged in all before steering gives up.
MAX_TRIES = 2_000
#: Rounds of the grader's solves one steering may spend in all (its time grows
#: with them: a textured photo's puzzle takes hundreds of rounds a grade).
MAX_WORK = 100_000
#: What steering auto's drawing may spend when :func:`pick_style` may try
#: other drawings after it: half of :data:`MAX_WORK`, so that the budget
#: leaves the most promising drawing a whole steering (``coffee`` at 50
#: cells: auto's poster spent 100,000 rounds to reach 76.5, the cleaned
#: poster then ran out of budget at 43.8).
FIRST_WORK = MAX_WORK // 2
#: The rounds of the budget the other drawings :func:`pick_style` makes
#: leave for steering the most promising of them: a drawing is made and
#: graded only while more than this is left (``chelsea`` at 50 cells: the
#: drawings at the thresholds spent the whole budget before its smoothed
#: lines drawing, expert 48.1 as drawn, could be steered to hard, 27.0).
SCAN_RESERVE = FIRST_WORK
#: The effort budget of one ``make --difficulty`` (:class:`Budget`), in
#: rounds of the grader: steering's rounds, and the refinement of every
#: other drawing :func:`pick_style` makes (:data:`SOLVES_PER_ROUND`).  About
#: 10 s of CPU at 50 cells (at most 9.8 s on the benchmark's photos, which
#: took up to 38 s without it); when it runs out the search stops where it
#: is and ``stats.difficulty_note`` says so.
MAKE_WORK = 200_000
#: Refinement's line solves that cost the budget one grader round (a round
#: solves every line once, from what is known: about ten line solves' time).
SOLVES_PER_ROUND = 10


@dataclass(eq=False)
class Budget:
    """The effort one ``make --difficulty`` may spend (:data:`MAKE_WORK`),
    shared by every steering and drawing it makes: a count, not seconds,
    so the same seed gives the same puzzle on any machine.

    Attributes
    ----------
    left : int
        Rounds left.
    reserve : int
        Rounds kept for steering: another drawing is made only while more
        than this is left (:data:`SCAN_RESERVE`).
    stopped : bool
        Whether the budget ran out before the search was done.
    """

    left: int = field(default_factory=lambda: MAKE_WORK)
    reserve: int = field(default_factory=lambda: SCAN_RESERVE)
    stopped: bool = False

    def spend(self, work: int) -> None:
        self.left -= work

    def empty(self) -> bool:
        """Whether nothing is left (and so the search stops: ``stopped``)."""
        if self.left <= 0:
            self.stopped = True
        return self.left <= 0

    def drawing(self) -> bool:
        """Whether another drawing may be made: more than ``reserve`` left
        (else the search stops: ``stopped``)."""
        if self.left <= self.reserve:
            self.stopped = True
        return self.left > self.reserve

    def note(self) -> str:
        return f"the effort budget ({MAKE_WORK:,} grader rounds) stopped the search"


def likeness(result: Any) -> float:
    """How much a made puzzle looks like its picture: SSIM + edge F1 of its
    cells against the picture's (0-2, :class:`~rofl.maker.MakeStats`); 0 for
    a one-colour grid, which draws nothing whatever its figures say."""
    stats, grid = result.stats, np.asarray(result.grid)
    if stats.ssim is None or stats.edge_f1 is None or not grid.size or (grid == grid.flat[0]).all():
        return 0.0
    return float(stats.ssim + stats.edge_f1)


def pick_style(
    first: Any,
    target: str,
    eligible: tuple[str, ...],
    made: Callable[..., Any],
    *,
    plain: float | None = None,
    budget: Budget | None = None,
) -> Any:
    """Steer the picture pipeline too: the puzzle of another drawing of the
    picture, when it comes closer to the grade ``target``.

    ``first`` is the :class:`~rofl.maker.MakeResult` of the style auto chose
    (refined and steered).  When it misses the grade (or, for ``easy``, has
    more than :data:`EASY_LIMIT` of its cells changed), the other drawings
    are made refined but not steered (``made(style, threshold,
    steered=False, cleanup=...)``): each other style of ``eligible``, then,
    unless one of those has the grade already, every style of ``eligible``
    with its isolated cells repainted before refinement (``cleanup=True``,
    auto's style first; not when ``first`` was cleaned up already: fewer
    specks, fewer changes to make it unique, often an easier solve), then,
    to ease a textured picture (auto's drawing and every one so far within
    the margin at least :data:`SMOOTH_FROM`), every style of ``eligible``
    smoothed (``smooth=True``, :func:`rofl.picture.smooth`), then, for black
    and white, the photo style at each of :data:`THRESHOLDS`; a drawing is
    made only while the budget has more than its ``reserve`` left (for the
    steering below).  Those that keep :data:`KEEP_CELLS` of ``first``'s cells and whose
    :func:`likeness` is at most :data:`STYLE_MARGIN` below ``plain`` (the
    likeness of auto's puzzle before steering, as ``make`` gives it without
    a difficulty; ``first``'s when not given) are graded; the
    :data:`STEERED` most promising (within easy's limit, the grade nearest,
    then the score nearest, an easing's score as :data:`EASE_CELLS` expects
    it after the room the drawing leaves) are steered (``made(style,
    threshold, cleanup=..., smooth=...)``, unless one has the grade already)
    and the result closest to the grade kept by the same order (one that
    steering made less like the picture than the margin allows after those
    still within it); at the grade, the likelier picture.

    Easy's limit binds harder than likeness, down to :data:`FAR_MARGIN`
    below ``plain``: when no drawing within the margin stays within it, the
    :data:`STEERED` - 1 least over it are steered first (``make`` refines
    them again, longer), then the photo style with its specks repainted at
    each of :data:`THRESHOLDS` and :data:`LAST_THRESHOLDS` (from the lighter
    end); when none within the margin keeps within it either, those that do
    and are within :data:`FAR_MARGIN` are taken, then, when none does, the
    photo style at each of :data:`LAST_THRESHOLDS` is tried (on the same
    terms), but only when it grades easier than the best drawing within
    the margin (at the same grade or harder, that one is kept past the
    limit); ``stats.difficulty_note`` says so in one line (as it says when
    no drawing at all stays within it).  A drawing changes how the picture
    is put into cells, not the cells refinement and steering change, which
    are counted against that drawing's own cells.

    Every drawing made costs ``budget`` (its refinement's line solves, as
    :data:`SOLVES_PER_ROUND` tell, and the rounds its steering spends); when it runs out, the search stops with
    the best found so far and the note says so.
    """
    from dataclasses import replace

    want = target_grade(target)
    limit = 100 * EASY_LIMIT if want == GRADES["easy"] else math.inf

    def over(result: Any) -> float:
        return max(0.0, result.stats.changed_pct - limit - 1e-9)

    def key(result: Any, difficulty: Difficulty) -> tuple[float, int, float, float]:
        # within easy's limit, the grade nearest; missed, the score nearest; then the likelier picture
        gap = difficulty.grade - want
        return over(result), abs(gap), 0.0 if gap == 0 else math.copysign(difficulty.score, gap), -likeness(result)

    best, best_key = first, key(first, first.stats.difficulty)
    if best_key[:2] == (0.0, 0):
        return first
    floor = (likeness(first) if plain is None else plain) - STYLE_MARGIN
    far = floor + STYLE_MARGIN - FAR_MARGIN  # the least likeness easy's limit may take
    budget = Budget() if budget is None else budget

    def faithful(like: float) -> bool:
        """Whether a likeness is within the margin of auto's."""
        return like >= floor - 1e-9

    def make(name: str, cut: float | None, clean: bool, smooth: bool, steered: bool = True) -> Any:
        result = made(name, cut, steered=steered, cleanup=clean, smooth=smooth)
        budget.spend(result.stats.line_solves // SOLVES_PER_ROUND)  # its refinement; steering spent its own
        return result

    def fits(one: tuple) -> bool:
        return key(*one[:2])[:2] == (0.0, 0) and faithful(one[2])

    # (style, threshold, cleanup, smoothed)
    drawings: list[tuple[str, float | None, bool, bool]] = [
        (name, None, False, False) for name in eligible if name != first.stats.style
    ]
    ordered = sorted(eligible, key=lambda name: name != first.stats.style)
    if not first.stats.cleanup:  # every style with its specks repainted, auto's first
        drawings += [(name, None, True, False) for name in ordered]
    if want < min(GRADES["hard"], first.stats.difficulty.grade):  # easing: every style smoothed, auto's first
        drawings += [(name, None, False, True) for name in ordered]
    if "photo" in eligible and first.stats.colors == 2:
        drawings += [("photo", float(cut), False, False) for cut in THRESHOLDS]
    scanned: list[tuple] = []

    def scan(name: str, cut: float | None, clean: bool = False, smooth: bool = False) -> None:
        if not budget.drawing():
            return  # what is left is for steering the most promising drawings
        result = make(name, cut, clean, smooth, steered=False)
        like = likeness(result)
        if like > 0 and result.grid.size >= KEEP_CELLS * first.grid.size:
            difficulty = result.stats.difficulty or grade(result.puzzle)
            if _line_solved(difficulty):
                scanned.append((result, difficulty, like, name, cut, clean, smooth))

    textured = None
    for name, cut, clean, smooth in drawings:
        if (cut is not None or clean or smooth) and any(fits(one) for one in scanned):
            break  # a style auto could keep has the grade: the others are for pictures none fits
        if smooth and textured is None:  # every drawing so far expert (or worse): a textured picture
            drawn = [first.stats.difficulty.grade, *(one[1].grade for one in scanned if faithful(one[2]))]
            textured = min(drawn) >= SMOOTH_FROM
        if smooth and not textured:
            continue
        scan(name, cut, clean, smooth)
    near = [one for one in scanned if faithful(one[2])]
    done: set[int] = set()  # results steered already
    if over(first) and near and all(over(one[0]) for one in near):
        # easy refines a drawing past its limit again, longer: the nearest ones get that chance first
        for one in sorted(near, key=lambda one: over(one[0]))[: STEERED - 1]:
            if budget.empty():
                break
            again = make(*one[3:])
            done.add(id(again))
            scanned[scanned.index(one)] = (again, again.stats.difficulty, likeness(again), *one[3:])
        near = [one for one in scanned if faithful(one[2])]
    if over(first) and all(over(one[0]) for one in near) and "photo" in eligible and first.stats.colors == 2:
        # easy's limit binds within the margin: the photo at every threshold with its specks repainted
        for cut in (*THRESHOLDS, *reversed(LAST_THRESHOLDS)):
            scan("photo", float(cut), True)
        near = [one for one in scanned if faithful(one[2])]
    within = [one for one in scanned if not over(one[0]) and one[2] >= far - 1e-9]
    if over(first) and not within and "photo" in eligible and first.stats.colors == 2:
        for cut in LAST_THRESHOLDS:  # the last resort of easy's limit: the photo at the far thresholds
            scan("photo", float(cut))
        within = [one for one in scanned if not over(one[0]) and one[2] >= far - 1e-9]
    if over(first) and within and all(over(one[0]) for one in near):
        near = within  # the limit binds: at any likeness
    if any(not over(one[0]) for one in near):
        near = [one for one in near if not over(one[0])]  # steering never eases one past easy's limit

    def promise(one: tuple) -> tuple[float, int, float, float]:
        result, difficulty = one[:2]
        found = key(result, difficulty)
        if difficulty.grade <= want:
            return found
        room = max(0.0, 100 * EASY_LIMIT - result.stats.changed_pct) / 100 * result.grid.size
        return found[0], found[1], found[2] * math.exp(-room / EASE_CELLS), found[3]

    def below(result: Any) -> bool:
        # steering made the puzzle less like the picture than the margin allows (it was within it as drawn)
        return not faithful(likeness(result))

    def ranked(result: Any, found: tuple) -> tuple:
        # within easy's limit first, then within the likeness margin, then as key
        return found[0], below(result), *found[1:]

    as_drawn: set[int] = set()
    further = False  # a drawing further from the picture kept easy's limit, but was no easier
    for rank, (result, difficulty, _, name, cut, clean, smooth) in enumerate(sorted(near, key=promise)):
        if rank >= STEERED and not budget.empty():
            break  # with the budget out, every drawing graded competes as drawn
        if id(result) in done:
            pass
        elif difficulty.grade == want or budget.empty():  # kept as it is (the budget out: as drawn)
            result = replace(result, stats=replace(result.stats, difficulty=difficulty, steered=0))
            as_drawn.add(id(result))
        else:
            result = make(name, cut, clean, smooth)
        found = key(result, result.stats.difficulty)
        if ranked(result, found) < ranked(best, best_key):
            best, best_key = result, found
        if found[:2] == (0.0, 0) and not below(result):
            break
    if below(best) and not best_key[0]:
        # easy's limit kept only further from the picture: worth it only for an easier puzzle
        close = [(first, first.stats.difficulty)]
        close += [one[:2] for one in scanned if faithful(one[2])]
        result, difficulty = min(close, key=lambda one: (abs(one[1].grade - want), one[1].score, over(one[0])))
        if difficulty.grade <= best.stats.difficulty.grade:
            if result is not first and result.stats.difficulty is not difficulty:  # graded as drawn
                result = replace(result, stats=replace(result.stats, difficulty=difficulty, steered=0))
                as_drawn.add(id(result))
            best, best_key = result, key(result, difficulty)
            further = True
    # steering's note, but refinement alone passing easy's limit is every drawing's case here
    said = (best.stats.difficulty_note or "").removeprefix("difficulty: ")
    notes = [part for part in said.split("; ") if part and not part.startswith("refinement alone")]
    if best_key[1] and id(best) in as_drawn:  # not steered: no steering's note says it
        reached = best.stats.difficulty
        notes.append(f"{NAMES[want]} not reached; the puzzle is {reached.name} ({reached.grade}/5)")
    if budget.stopped and budget.note() not in notes:
        notes.append(budget.note())
    if further:
        notes.insert(
            0,
            f"easy's {EASY_LIMIT:.0%} limit passed ({best.stats.changed_pct:.2f}% of the cells changed): "
            "the drawings that keep within it are further from the picture and no easier",
        )
    elif best_key[0]:
        notes.insert(
            0,
            f"every drawing tried that keeps the picture's size needs more than easy's {EASY_LIMIT:.0%} of the "
            "cells changed to be unique "
            f"({best.stats.changed_pct:.2f}% here)",
        )
    elif below(best):
        drawn = f"{best.stats.style} style"
        if best.stats.style == "photo" and best.stats.threshold is not None:  # lines cuts the ink's share, not grey
            drawn += f" at threshold {best.stats.threshold:.0f}"
        notes.insert(
            0,
            f"easy's {EASY_LIMIT:.0%} limit kept only by drawing the picture in the {drawn} "
            f"(likeness {likeness(best):.2f}, auto's {floor + STYLE_MARGIN:.2f})",
        )
    note = "difficulty: " + "; ".join(notes) if notes else None
    if note == best.stats.difficulty_note:
        return best
    return replace(best, stats=replace(best.stats, difficulty_note=note))


@dataclass(frozen=True, eq=False)
class Steering:
    """What :func:`steer` did.

    Attributes
    ----------
    grid : (H, W) uint8 array
        The steered picture; line logic solves its clues.
    difficulty : Difficulty
        Its grade.
    target : int
        The grade asked for (1-4).
    added : int
        Cells steering changed.
    note : str or None
        One line when ``target`` was not reached within the limit.
    """

    grid: np.ndarray
    difficulty: Difficulty
    target: int
    added: int
    note: str | None


def target_grade(name: str) -> int:
    """The grade of a ``--difficulty`` name; an :class:`OptionError` for another."""
    if name not in GRADES:
        msg = f"difficulty must be one of {', '.join(GRADES)}, not {name!r}"
        raise OptionError(msg)
    return GRADES[name]


def _line_solved(difficulty: Difficulty) -> bool:
    return difficulty.hardest <= Technique.WHOLE_LINE and not difficulty.needs_guessing


def steer(
    grid: np.ndarray,
    palette: Palette,
    original: np.ndarray,
    target: str,
    *,
    cost: np.ndarray,
    seed: int = 0,
    budget: Budget | None = None,
    max_work: int = MAX_WORK,
) -> Steering:
    """Move a line-solvable picture toward the grade ``target``.

    ``easy`` only eases, ``hard`` and ``expert`` only harden (a harder
    puzzle than asked keeps refinement's fewest changes), ``medium`` goes
    either way; each within its limit (:data:`EASY_LIMIT`, :data:`HARD_EXTRA`).

    Parameters
    ----------
    grid : (H, W) uint8 array
        The refined picture (line logic solves its clues).
    palette : Palette
    original : (H, W) uint8 array
        The picture before refinement: the changes counted against
        :data:`EASY_LIMIT` are the cells where the result differs from it.
    target : {"easy", "medium", "hard", "expert"}
    cost : (H, W, K) float array
        How visibly wrong each colour is for each cell (refinement's cost).
    seed : int
        Seed of the jitter that orders equally cheap moves.
    budget : Budget, optional
        The effort budget of the whole ``make`` (steering spends its
        grader rounds from it, and stops when it runs out).
    max_work : int
        Rounds this steering may spend (:data:`MAX_WORK`; ``make`` gives
        auto's drawing :data:`FIRST_WORK` when other drawings may follow).

    Returns
    -------
    Steering
    """
    want = target_grade(target)
    work = np.array(grid, dtype=np.uint8)
    start = Puzzle.from_grid(work, palette)
    board = board_of(start)
    kernels.ready(kernels.REFINE)

    budget = Budget() if budget is None else budget

    def graded() -> tuple[Difficulty, np.ndarray]:
        """``work``'s grade and when: its clues straight from the grid (no puzzle built)."""
        found = solve_graded_clues(board, *kernels.grid_clues(work), len(palette), probe_work=-1)
        budget.spend(found[0].steps)
        return found

    current, when = solve_graded(start, probe_work=-1)
    if not _line_solved(current):
        msg = "steer needs a picture that line logic solves"
        raise ValueError(msg)
    cells = work.size
    if current.grade == want:
        return Steering(work, current, want, 0, _passed(work, original, want))
    easier = current.grade > want
    changed = int(np.count_nonzero(work != original))
    if easier and want >= GRADES["hard"]:
        cap, limit = -1, "the fewest changes (hard and expert never ease a puzzle)"
    elif easier:
        cap, limit = int(EASY_LIMIT * cells), f"{EASY_LIMIT:.0%} of the cells changed in all"
    elif want == GRADES["easy"]:
        cap, limit = -1, "easy (it never makes a puzzle harder)"
    else:
        cap = changed + max(1, int(HARD_EXTRA * cells))
        limit = f"{HARD_EXTRA:.1%} of the cells changed beyond the fewest"
    rng = np.random.default_rng(seed)
    steered = np.zeros(work.shape, dtype=bool)
    added = tries = work_done = 0
    rejected: set[tuple[int, int, int]] = set()
    sign = -1.0 if easier else 1.0
    while (
        cap >= 0
        and tries < MAX_TRIES
        and work_done < max_work
        and not budget.empty()
        and (current.grade > want if easier else current.grade < want)
    ):
        room = cap - changed  # a move back to the picture's colour gives a cell of room back
        share = min(max_work - work_done, budget.left) // (max(1, room) * max(1, current.steps))
        moves = _moves(work, original, cost, steered, rejected, when, rng, easier=easier, count=int(share), room=room)
        if not moves:
            break
        best = None
        for r, c, k in moves:
            tries += 1
            old = work[r, c]
            work[r, c] = k
            trial = graded()
            work[r, c] = old
            work_done += trial[0].steps
            if _line_solved(trial[0]) and sign * (trial[0].score - current.score) > 0:
                if best is None or sign * (trial[0].score - best[1][0].score) > 0:
                    best = ((r, c, k), trial)
            else:
                rejected.add((r, c, k))
        if best is None:
            continue
        (r, c, k), (current, when) = best
        changed += int(k != original[r, c]) - int(work[r, c] != original[r, c])
        work[r, c] = k
        steered[r, c] = True
        rejected.clear()  # the puzzle changed: every move may help now
        added += 1
        for rr, cc in _near_changes(work, original, steered, r, c):
            # a refinement's change the move made needless goes back: one more cell of room
            old = work[rr, cc]
            work[rr, cc] = original[rr, cc]
            trial = graded()
            work_done += trial[0].steps
            if _line_solved(trial[0]) and sign * (trial[0].score - current.score) >= 0:
                current, when = trial
                steered[rr, cc] = True
                added += 1
                changed -= 1
            else:
                work[rr, cc] = old
    reached = current.grade <= want if easier else current.grade >= want
    note = passed = _passed(work, original, want)
    if not reached and cap >= 0 and changed < cap and (tries >= MAX_TRIES or work_done >= max_work):
        # stopped by its own work, not the cells: say so, with the room it had left
        limit = f"the steering's work limit ({changed / cells:.1%} of the cells changed)"
    if not reached:
        note = f"difficulty: {NAMES[want]} not reached within {limit}; the puzzle is {current.name} ({current.grade}/5)"
        note = f"{passed}; {note[len('difficulty: ') :]}" if passed else note
        note = f"{note}; {budget.note()}" if budget.stopped else note
    return Steering(work, current, want, added, note)


def _passed(grid: np.ndarray, original: np.ndarray, want: int) -> str | None:
    """The note of an easy puzzle whose refinement changed more than
    :data:`EASY_LIMIT` of the cells, even after steering gave back what it
    could (steering itself never passes the limit); None within it."""
    changed = np.count_nonzero(grid != original)
    if want != GRADES["easy"] or changed <= int(EASY_LIMIT * grid.size):
        return None
    share = changed / grid.size
    return f"difficulty: refinement alone changed {share:.2%} of the cells, more than easy's {EASY_LIMIT:.0%}"


def _near_changes(
    grid: np.ndarray, original: np.ndarray, steered: np.ndarray, row: int, col: int
) -> list[tuple[int, int]]:
    """Refinement's changes (cells that differ from ``original`` and that
    steering has not touched) in the lines within :data:`NEAR` of
    ``(row, col)``: the ones a move there may have made needless."""
    rows, cols = np.nonzero((grid != original) & ~steered)
    near = (np.abs(rows - row) <= NEAR) | (np.abs(cols - col) <= NEAR)
    return list(zip(rows[near].tolist(), cols[near].tolist(), strict=True))


def _moves(
    grid: np.ndarray,
    original: np.ndarray,
    cost: np.ndarray,
    steered: np.ndarray,
    rejected: set,
    when: np.ndarray,
    rng: np.random.Generator,
    *,
    easier: bool,
    count: int,
    room: int,
) -> list[tuple[int, int, int]]:
    """The ``count`` moves of one step (within :data:`CANDIDATES` and
    :data:`MAX_CANDIDATES`), never on a cell steering changed already: a
    third of them the cells on the edge of a region given a 4-neighbour's
    colour, cheapest for the picture first; a third the same among the
    cells the grader's solve found last (where a bottleneck holds the solve
    up); a third, to ease, the one-cell gaps between two pieces of a colour
    filled (a longer block: more overlap), to harden, the longest blocks
    split in their middle (less overlap); and, beyond those, once no room
    is left, as many of refinement's changes (cells that differ from
    ``original``) given back their picture's colour.  A move that would change more cells than
    ``room`` allows is left out (one back to the picture's colour gives a
    cell of room back)."""
    found: dict[tuple[int, int, int], float] = {}
    shaped: dict[tuple[int, int, int], float] = {}
    given: dict[tuple[int, int, int], float] = {}
    height, width = grid.shape
    for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):
        r0, r1 = max(0, -dr), height - max(0, dr)
        c0, c1 = max(0, -dc), width - max(0, dc)
        here = grid[r0:r1, c0:c1]
        there = grid[r0 + dr : r1 + dr, c0 + dc : c1 + dc]
        rows, cols = np.nonzero(here != there)
        for row, col in zip((rows + r0).tolist(), (cols + c0).tolist(), strict=True):
            key = (row, col, int(grid[row + dr, col + dc]))
            if not steered[row, col] and key not in rejected:
                found[key] = float(cost[row, col, key[2]] - cost[row, col, grid[row, col]])
    for view, flip in ((grid, False), (grid.T, True)):
        for i, line in enumerate(view):
            for j, k in _shape_moves(line, easier):
                row, col = (j, i) if flip else (i, j)
                key = (row, col, k)
                if not steered[row, col] and key not in rejected:
                    shaped[key] = float(cost[row, col, k] - cost[row, col, grid[row, col]])
    for row, col in zip(*(a.tolist() for a in np.nonzero((grid != original) & ~steered)), strict=True):
        key = (row, col, int(original[row, col]))
        if room <= 0 and key not in rejected:  # with room, each move kept tries those near it back
            given[key] = float(cost[row, col, key[2]] - cost[row, col, grid[row, col]])
    pools = ((found, None), (found, "late"), (shaped, None), (given, None))
    part = min(max(count, CANDIDATES), MAX_CANDIDATES) // (len(pools) - 1)
    chosen: list[tuple[int, int, int]] = []
    late = when >= (np.percentile(when, 75) if when.size else 0)

    def fits(key: tuple[int, int, int]) -> bool:
        row, col, k = key
        return int(k != original[row, col]) - int(grid[row, col] != original[row, col]) <= max(0, room)

    for pool, keep in pools:
        keys = [key for key in pool if key not in chosen and (keep is None or late[key[0], key[1]]) and fits(key)]
        price = np.array([pool[key] for key in keys]) + rng.uniform(0, 1e-3, len(keys))
        chosen += [keys[i] for i in np.argsort(price, kind="stable")[:part]]
    return chosen


def _shape_moves(line: np.ndarray, easier: bool) -> list[tuple[int, int]]:
    """``(cell, colour)`` moves of one line that reshape its blocks: to ease,
    a one-cell gap between two pieces of one colour filled with it; to
    harden, the middle cell of each block of 4 cells or more blanked."""
    moves = []
    n = len(line)
    if easier:
        for j in range(1, n - 1):
            if line[j - 1] == line[j + 1] != 0 and line[j] != line[j - 1]:
                moves.append((j, int(line[j - 1])))
        return moves
    start = 0
    for j in range(1, n + 1):
        if j == n or line[j] != line[start]:
            if line[start] != 0 and j - start >= 4:
                moves.append(((start + j) // 2, 0))
            start = j
    return moves
