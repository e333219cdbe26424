"""A recorded solve, step by step: what ``rofl solve --steps`` and ``--gif`` draw.

The compiled solvers (:mod:`rofl.solver.line_logic`, :mod:`rofl.solver.search`)
run to their answer without stopping; a picture of every step needs a
solver that stops after each one.  :func:`trace_solve` is that solver, a
Python loop around the compiled single-line solver
(:func:`rofl.solver.single_line.solve_line`), slower than the compiled loop but
still quick (a 50x50 puzzle takes a fraction of a second):

* **line logic**: passes over the rows, then over the columns, and again,
  as the seed solver (Izaron's ``nonograms_solver``) does, solving each line
  whose cells changed since it was last solved.  A line solve that learns
  something is one step; one that learns nothing is not recorded.
* **probing**, when line logic stalls: each open cell is given each of its
  colours in turn and line logic (the compiled one, silently) runs from
  there; a colour that leads to a contradiction is struck out, a step, and
  line logic resumes.
* **branching**, when no probe teaches anything: a guess (a step), solved
  on as above; a guess that ends in a contradiction is undone and its
  colour struck out (a step), as in any backtracking search.

A step keeps only the cells it changed (a delta), so a long solve costs
memory in proportion to what it learns, not to its length times the grid.
:meth:`Trace.frames` replays the steps into pictures' worth of states, a
step or a sweep per frame, at most ``max_frames`` of them: when there are
more steps, consecutive ones share a frame.  The last frame is the
solution whenever one was found (by the trace, or by the compiled search
when the trace's own budget ran out).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import StrEnum

import numpy as np

from rofl.errors import OptionError
from rofl.puzzle import Puzzle
from rofl.solver.index_lines import colour_bit, full_mask, needs_lines
from rofl.solver.line_logic import LineSolver, determined, masks_to_grid
from rofl.solver.status import LineStatus

#: Frames written unless asked for more (``--max-frames``): a 100x100
#: puzzle takes thousands of line solves, and a folder of thousands of
#: pictures is seldom what anyone wants.
DEFAULT_MAX_FRAMES = 300
#: Most frames ever written (``--max-frames`` above it is refused).
MAX_FRAMES = 100_000
#: Most guesses the trace makes before it hands the rest to the compiled search.
MAX_GUESSES = 2_000


class StepKind(StrEnum):
    """What a step of a :class:`Trace` did."""

    #: the empty grid, before any step
    START = "start"
    #: line logic solved one line (or, merged, several)
    LINE = "line"
    #: probing struck a colour out of a cell
    PROBE = "probe"
    #: the search guessed a cell's colour
    GUESS = "guess"
    #: a line had no arrangement left under the current guesses
    CONTRADICTION = "contradiction"
    #: a guess was undone and its colour struck out
    BACKTRACK = "backtrack"
    #: the compiled search finished what the trace's budget left open
    SEARCH = "search"


class Per(StrEnum):
    """How many steps a frame shows (``--steps-per``)."""

    #: one line solve (or one probe, guess or backtrack) per frame
    LINE = "line"
    #: one pass of line logic over the rows, or over the columns, per frame
    SWEEP = "sweep"


@dataclass(frozen=True, eq=False)
class Step:
    """One step of a solve.

    Attributes
    ----------
    kind : StepKind
    label : str
        What happened, in a few words ("row 5", "guess row 2, column 7 = 1").
    lines : tuple of int
        The lines it solved (rows ``0..H-1``, then columns), to highlight.
    cell : int or None
        The cell probed, guessed or backtracked on (``row * W + column``).
    changed : (n,) int64 array
        The cells whose masks changed (``row * W + column``).
    masks : (n,) int64 array
        Their new masks (bit ``c``: colour ``c`` still possible).
    sweep : int
        The pass of line logic it belongs to (steps of one pass share it).
    depth : int
        Guesses in force.
    """

    kind: StepKind
    label: str
    lines: tuple[int, ...] = ()
    cell: int | None = None
    changed: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64), repr=False)
    masks: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64), repr=False)
    sweep: int = 0
    depth: int = 0


@dataclass(frozen=True, eq=False)
class Frame:
    """One picture's worth of a trace: the state after some steps.

    Attributes
    ----------
    number, count : int
        This frame's number (0: the empty grid) and how many frames there are.
    label : str
    kinds : tuple of StepKind
        The kinds of the steps it shows (one, unless steps were merged).
    lines : tuple of int
        Lines to highlight.
    cells : tuple of int
        Cells to highlight (probed, guessed, backtracked on).
    steps : range
        The steps (indices into :attr:`Trace.steps`) it shows.
    masks : (H, W) int64 array
        The state after them.
    depth : int
        Guesses in force after them (0: everything shown is proved).
    """

    number: int
    count: int
    label: str
    kinds: tuple[StepKind, ...]
    lines: tuple[int, ...]
    cells: tuple[int, ...]
    steps: range
    masks: np.ndarray = field(repr=False)
    depth: int = 0

    @property
    def known(self) -> np.ndarray:
        """Boolean ``(H, W)``: the cells determined so far."""
        return determined(self.masks)

    @property
    def grid(self) -> np.ndarray:
        """``(H, W)`` int16 palette indices, -1 where a cell is still open."""
        grid = masks_to_grid(self.masks).astype(np.int16)
        grid[~self.known] = -1
        return grid


@dataclass(eq=False)
class Trace:
    """A solve of ``puzzle`` recorded step by step (:func:`trace_solve`)."""

    puzzle: Puzzle
    #: The steps in order; the empty grid before them is frame 0.
    steps: list[Step]
    #: ``"solved"`` (the last step leaves the solution), ``"contradiction"``
    #: (the clues have no solution) or ``"stalled"`` (line logic only and it
    #: stalled, or neither the trace nor the compiled search found an answer
    #: within the budget).
    status: LineStatus
    #: Guesses made and probes run.
    guesses: int = 0
    probes: int = 0

    @property
    def solution(self) -> np.ndarray | None:
        """The ``(H, W)`` uint8 picture the steps end on, when solved."""
        if self.status != LineStatus.SOLVED:
            return None
        return masks_to_grid(self.final_masks())

    def final_masks(self) -> np.ndarray:
        """The masks after every step."""
        flat = _start(self.puzzle).ravel()
        for step in self.steps:
            flat[step.changed] = step.masks
        return flat.reshape(self.puzzle.height, self.puzzle.width)

    def frame_count(self, per: Per | str = Per.LINE, max_frames: int = DEFAULT_MAX_FRAMES) -> int:
        """How many frames :meth:`frames` gives with these arguments."""
        return len(self._groups(Per(per), max_frames)) + 1

    def frames(self, per: Per | str = Per.LINE, max_frames: int = DEFAULT_MAX_FRAMES) -> Iterator[Frame]:
        """The frames: the empty grid, then the state after each step
        (``per="line"``) or each pass of line logic (``per="sweep"``).

        Parameters
        ----------
        per : "line" or "sweep"
        max_frames : int
            At most this many frames (2 or more): when there are more steps,
            consecutive ones are merged, evenly, into one frame.  The last
            frame always shows the state after the last step.

        Raises
        ------
        OptionError
            ``max_frames`` below 2 or above :data:`MAX_FRAMES`.
        """
        groups = self._groups(Per(per), max_frames)
        count = len(groups) + 1
        flat = _start(self.puzzle).ravel()
        shape = (self.puzzle.height, self.puzzle.width)
        yield Frame(0, count, "start: nothing known", (StepKind.START,), (), (), range(0), flat.reshape(shape).copy())
        for number, span in enumerate(groups, 1):
            steps = [self.steps[i] for i in span]
            for step in steps:
                flat[step.changed] = step.masks
            label = self._label(steps, span)
            if number == count - 1 and self.status == LineStatus.SOLVED:
                label += ": solved"
            yield Frame(
                number,
                count,
                label,
                tuple(dict.fromkeys(step.kind for step in steps)),
                tuple(dict.fromkeys(line for step in steps for line in step.lines)),
                tuple(dict.fromkeys(step.cell for step in steps if step.cell is not None)),
                span,
                flat.reshape(shape).copy(),
                steps[-1].depth,
            )

    def _groups(self, per: Per, max_frames: int) -> list[range]:
        if not 2 <= max_frames <= MAX_FRAMES:
            msg = f"the frame count must be from 2 to {MAX_FRAMES}, not {max_frames}"
            raise OptionError(msg)
        groups: list[range] = []
        for i, step in enumerate(self.steps):
            previous = self.steps[i - 1] if i else None
            if (
                per == Per.SWEEP
                and groups
                and previous is not None
                and step.kind == previous.kind == StepKind.LINE
                and step.sweep == previous.sweep
            ):
                groups[-1] = range(groups[-1].start, i + 1)
            else:
                groups.append(range(i, i + 1))
        room = max_frames - 1  # frame 0 is the empty grid
        if len(groups) <= room:
            return groups
        # merge evenly: chunk j takes the groups bounds[j]:bounds[j + 1]
        bounds = np.linspace(0, len(groups), room + 1).round().astype(int)
        return [range(groups[a].start, groups[b - 1].stop) for a, b in zip(bounds[:-1], bounds[1:], strict=True)]

    def _label(self, steps: list[Step], span: range) -> str:
        if len(steps) == 1:
            return steps[0].label
        kinds = {step.kind for step in steps}
        if kinds == {StepKind.LINE} and len({step.sweep for step in steps}) == 1:
            rows = steps[0].lines[0] < self.puzzle.height
            return f"{'rows' if rows else 'columns'}, pass {steps[0].sweep}: {len(steps)} lines"
        counts = {kind: sum(step.kind == kind for step in steps) for kind in StepKind if kind in kinds}
        what = ", ".join(f"{n} {_PLURAL[kind] if n > 1 else kind.value}" for kind, n in counts.items())
        return f"steps {span.start + 1}-{span.stop}: {what}"


_PLURAL = {
    StepKind.LINE: "lines",
    StepKind.PROBE: "probes",
    StepKind.GUESS: "guesses",
    StepKind.CONTRADICTION: "contradictions",
    StepKind.BACKTRACK: "backtracks",
    StepKind.SEARCH: "searches",
    StepKind.START: "starts",
}


def _start(puzzle: Puzzle) -> np.ndarray:
    return np.full((puzzle.height, puzzle.width), full_mask(puzzle.n_colors), dtype=np.int64)


def trace_solve(puzzle: Puzzle, *, search: bool = True, time_budget: float | None = 10.0) -> Trace:
    """Solve ``puzzle`` step by step, recording every step (see the module's docstring).

    Parameters
    ----------
    puzzle : Puzzle
    search : bool
        False: line logic only (the trace ends where it stalls).
    time_budget : float or None
        Seconds for probing and branching (None: no limit).  When they run
        out, or after :data:`MAX_GUESSES` guesses, the compiled search
        (:func:`rofl.solver.solve_complete`) finishes the solve from the
        state reached, as one last step, within what is left of the budget.

    Returns
    -------
    Trace
    """
    return _Tracer(puzzle, search, time_budget).run()


class _Tracer:
    """The state of one :func:`trace_solve`."""

    def __init__(self, puzzle: Puzzle, search: bool, time_budget: float | None) -> None:
        self.puzzle = puzzle
        self.search = search
        self.deadline = None if time_budget is None else time.perf_counter() + time_budget
        self.height, self.width = puzzle.height, puzzle.width
        # a clue as the puzzle gives it: a group's colour may be a set ('?' groups)
        self.clues = [puzzle.clue(i) for i in range(puzzle.n_lines)]
        self.steps: list[Step] = []
        self.sweep = 0
        self.depth = 0
        self.guesses = 0
        self.probes = 0
        self.probe_at = 0  # where the next round of probing starts (round robin)
        self.silent = LineSolver(cache_mb=0)  # the compiled loop, for probes

    # ------------------------------------------------------------ recording

    def record(self, kind: StepKind, label: str, before: np.ndarray, after: np.ndarray, **fields) -> None:
        """A step from the masks ``before`` to ``after`` (flat views)."""
        changed = np.flatnonzero(before != after)
        step = Step(
            kind, label, changed=changed, masks=after[changed].copy(), sweep=self.sweep, depth=self.depth, **fields
        )
        self.steps.append(step)

    def cell_name(self, cell: int) -> str:
        """``r5 c7``: row 5, column 7, counted from 1 as people do."""
        return f"r{cell // self.width + 1} c{cell % self.width + 1}"

    def colour_name(self, bit: int) -> str:
        """What a cell of colour ``bit`` is: filled or empty in black and
        white, else its palette index (0: the background)."""
        colour = bit.bit_length() - 1
        if self.puzzle.n_colors == 2:
            return "filled" if colour else "empty"
        return f"colour {colour}" if colour else "background"

    # ------------------------------------------------------------ the solve

    def run(self) -> Trace:
        masks = _start(self.puzzle)
        dirty = np.ones(self.puzzle.n_lines, dtype=bool)
        stack: list[tuple[np.ndarray, int, int]] = []  # (masks before a guess, cell, colour bit)
        status = LineStatus.STALLED
        while True:
            ok = self.line_logic(masks, dirty)
            if ok and determined(masks).all():
                status = LineStatus.SOLVED
                break
            if ok and not self.search:
                break
            if ok and self.out_of_budget():
                status = self.finish(masks)
                break
            if ok:
                found = self.probe(masks, dirty)
                if found is None:  # every colour of a cell fails: a contradiction
                    ok = False
                elif found:
                    continue
            if ok:  # branch
                cell, bit = self.choose(masks)
                stack.append((masks.copy(), cell, bit))
                self.guesses += 1
                self.depth += 1
                before = masks.ravel().copy()
                masks.ravel()[cell] = bit
                name = self.cell_name(cell)
                label = f"guess {name}: {self.colour_name(bit)}"
                self.record(StepKind.GUESS, label, before, masks.ravel(), cell=cell)
                self.touch(dirty, cell)
                continue
            # a contradiction: undo the latest guess and strike its colour out
            if not stack:
                status = LineStatus.CONTRADICTION
                break
            saved, cell, bit = stack.pop()
            self.depth -= 1
            saved.ravel()[cell] &= ~bit
            label = f"backtrack: {self.cell_name(cell)} not {self.colour_name(bit)}"
            self.record(StepKind.BACKTRACK, label, masks.ravel(), saved.ravel(), cell=cell)
            masks = saved
            dirty[:] = False
            self.touch(dirty, cell)
        return Trace(self.puzzle, self.steps, status, guesses=self.guesses, probes=self.probes)

    def touch(self, dirty: np.ndarray, cell: int) -> None:
        """Mark the row and column of ``cell`` for line logic."""
        dirty[cell // self.width] = True
        dirty[self.height + cell % self.width] = True

    def line_logic(self, masks: np.ndarray, dirty: np.ndarray) -> bool:
        """Passes over the rows, then the columns, until nothing changes;
        False on a contradiction (recorded as a step)."""
        from rofl.solver.single_line import solve_line

        height = self.height
        while dirty.any():
            for first, last in ((0, height), (height, len(dirty))):
                todo = np.flatnonzero(dirty[first:last]) + first
                if not todo.size:
                    continue
                self.sweep += 1
                for line in todo:
                    dirty[line] = False
                    cells = masks[line] if line < height else masks[:, line - height]
                    new = solve_line(np.ascontiguousarray(cells), self.clues[line], n_colors=self.puzzle.n_colors)
                    name = self.puzzle.line_name(int(line))
                    if new is None:
                        label = f"contradiction: {name} cannot be filled"
                        self.steps.append(
                            Step(StepKind.CONTRADICTION, label, lines=(int(line),), sweep=self.sweep, depth=self.depth)
                        )
                        dirty[:] = False
                        return False
                    moved = np.flatnonzero(new != cells)
                    if not moved.size:
                        continue
                    if line < height:
                        flat = line * self.width + moved
                        masks[line, moved] = new[moved]
                        dirty[height + moved] = True
                    else:
                        flat = moved * self.width + (line - height)
                        masks[moved, line - height] = new[moved]
                        dirty[moved] = True
                    self.steps.append(
                        Step(
                            StepKind.LINE,
                            name,
                            lines=(int(line),),
                            changed=flat.astype(np.int64),
                            masks=new[moved].astype(np.int64),
                            sweep=self.sweep,
                            depth=self.depth,
                        )  # fmt: skip
                    )
        return True

    def out_of_budget(self) -> bool:
        late = self.deadline is not None and time.perf_counter() > self.deadline
        return late or self.guesses >= MAX_GUESSES

    def probe(self, masks: np.ndarray, dirty: np.ndarray) -> bool | None:
        """One round of probing from where the last stopped: True when a
        colour was struck out (a step), False when no probe taught
        anything, None when every colour of a cell fails."""
        flat = masks.ravel()
        open_cells = np.flatnonzero(~determined(masks).ravel())
        if not open_cells.size:
            return False
        start = int(np.searchsorted(open_cells, self.probe_at))
        order = np.concatenate([open_cells[start:], open_cells[:start]])
        for cell in order:
            cell = int(cell)
            if self.out_of_budget():
                return False
            bits = int(flat[cell])  # negative when colour 63 (the sign bit) is possible
            for colour in range(64):
                if not bits >> colour & 1:
                    continue
                bit = colour_bit(colour)
                trial = masks.copy()
                trial.ravel()[cell] = bit
                self.probes += 1
                r, c = divmod(cell, self.width)
                got = self.silent_solve(trial, (r, self.height + c))
                if got.status != LineStatus.CONTRADICTION:
                    continue
                self.probe_at = cell + 1
                before = flat.copy()
                flat[cell] &= ~bit
                if flat[cell] == 0:
                    return None
                label = f"probe {self.cell_name(cell)}: not {self.colour_name(bit)}"
                self.record(StepKind.PROBE, label, before, flat, cell=cell)
                self.touch(dirty, cell)
                return True
        return False

    def silent_solve(self, start: np.ndarray, lines: tuple[int, int]):
        """The compiled line logic from ``start``, beginning with ``lines``
        (colour sets: the set kernels, from every line)."""
        from rofl.solver.line_logic import solve

        if needs_lines(self.puzzle):  # '?' groups: the rectangular kernels cannot read them
            return solve(self.puzzle, start=start)
        return self.silent.solve(self.puzzle, start=start, lines=lines)

    def choose(self, masks: np.ndarray) -> tuple[int, int]:
        """The cell to guess (fewest colours left, first in reading order)
        and its colour (the lowest ink colour it may have)."""
        flat = masks.ravel()
        open_cells = np.flatnonzero(~determined(masks).ravel())
        counts = np.bitwise_count(flat[open_cells].view(np.uint64))
        cell = int(open_cells[int(np.argmin(counts))])
        bits = int(flat[cell])
        ink = bits & ~1
        bit = colour_bit((ink & -ink).bit_length() - 1) if ink else 1
        return cell, bit

    def finish(self, masks: np.ndarray) -> LineStatus:
        """Hand what is left to the compiled search (one step); its status."""
        from rofl.solver.line_logic import solve
        from rofl.solver.search import solve_complete

        remaining = 1.0 if self.deadline is None else max(self.deadline - time.perf_counter(), 1.0)
        # the compiled search from the puzzle's start: it proves what the
        # trace's guesses in force do not
        result = solve_complete(self.puzzle, time_budget=remaining, line=solve(self.puzzle))
        if not result.solutions:
            return LineStatus.STALLED
        goal = (np.int64(1) << result.solutions[0].astype(np.int64)).ravel()
        self.depth = 0
        self.record(StepKind.SEARCH, "the rest by the compiled search", masks.ravel(), goal)
        return LineStatus.SOLVED
