"""Complete solving: line logic, then probing and backtracking.

:func:`solve_complete` decides every puzzle within its budget: it finds the
unique solution, or two distinct solutions, or proves there is none.  It is
the one place that runs "line logic, then the complete search within a
budget": decoding a file (:func:`rofl.decode.solve_picture`) and encoding a
picture (:func:`rofl.encode.encode_grid`) both call it.  The search itself
is the compiled kernel in :mod:`rofl.kernels._search`; this module checks the
inputs, runs line logic first, calls the kernel and checks every solution
it returns against the clues before handing it out.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field, replace

import numpy as np

from rofl.errors import BudgetError, OptionError
from rofl.linepuzzle import expect_puzzle
from rofl.puzzle import Puzzle
from rofl.solver._stop import cpu_time
from rofl.solver.index_lines import needs_lines, search_lines
from rofl.solver.line_logic import (
    LineSolver,
    SolveResult,
    determined,
    full_mask,
    kernel_clues,
    masks_to_grid,
    solve,
)
from rofl.solver.status import LineStatus, SearchStatus

#: The search's statuses, in order (:class:`SearchStatus` members).
STATUSES = tuple(SearchStatus)

#: Memory for the line cache shared by the probes of one search.  Small on
#: purpose: a lookup that misses the processor's caches, as most did in the
#: 64 MB table of line logic, costs more than solving a short line on bit
#: sets.  On 60 tournament puzzles 2 MB measured best: 1 and 4 MB within 3%,
#: 64 MB 16% slower, no cache 24% slower.
CACHE_MB = 2.0
#: Node limit of the first search attempt; it doubles with every restart.
#: Most puzzles with several solutions settle within 50 nodes; for the
#: rest the cost of an order is heavy-tailed, so short attempts in fresh
#: orders pay (docs/design.md, "Where the search's time goes").
FIRST_ATTEMPT_NODES = 50
#: Colour orders of the attempts, in turn (see ``_search``): 1 least
#: narrowing first, 0 most narrowing first, 2 random (seeded by the attempt
#: number, so results are reproducible), 3 white (the background) first, 4
#: black (the last colour) first; with 3 and 4 the third attempt on adds
#: noise of up to 50% to the branching scores.  3 and 4 in turn are
#: LalaFrogKK's and nonosolve's order: on the 37 tournament puzzles rofl
#: took longest over, search alone to 5000 nodes solved 36 in 57,000 nodes
#: and 31.7 CPU s, against 34, 65,600 and 35.1 s with random colours
#: (docs/benchmarks.md, "rofl beside nonosolve").
STRATEGIES = (3, 4)
#: The quick first try of :func:`solve_complete`, in the calling thread: at
#: most this many cells (probing the root of a 32 x 32 puzzle takes
#: milliseconds) and nodes (the kernel stops after ``limit + 1``).
QUICK_CELLS = 1024
QUICK_NODES = 1
#: Search nodes after which :func:`solve_complete` hands a puzzle of at
#: most :data:`HANDOVER_CELLS` over to the SAT solver, when python-sat is
#: installed and no node budget was given.  The search is much the faster
#: on most puzzles (median 12 ms against 234 ms on the corpus's 184 that
#: need search), the SAT solver on a few tournament puzzles that the
#: search's orders find no way into (taai2011-0500: 9 s against 1 s); see
#: docs/design.md, "Handing over to the SAT solver".  A count of nodes, not
#: seconds: on a busy machine a second of wall clock held a fifth of a
#: second of search, and the hand-over came before the search had had its
#: chance (docs/benchmarks.md, "rofl beside nonosolve").  6400: about the
#: end of the search's seventh attempt (50 + 100 + ... + 3200 nodes), where
#: 8000 cut the eighth short after 1650 of its 6400 nodes, which settled
#: two of taai2020's 1000 puzzles and cost the 20 handed over about 0.6 s
#: each.  An earlier hand-over is a trade, not a gain: after 3150 nodes
#: taai2020's puzzles of more than 1900 nodes took 41.6 CPU s in place of
#: 61.5, but the sample's tail, which the search settles in 3400--4500
#: nodes, 42.9 s in place of 36.9 (docs/benchmarks.md, the fourth round);
#: after 2000 nodes, with CaDiCaL 3.0, the whole of taai2020 took 145.0 s
#: in place of 154.6--173.7 and the sample 39.9 in place of 35.6--37.3
#: (the seventh round); with Kissat, the puzzles the search settles in
#: 2000--6400 nodes took 18.3--19.7 s in place of 11.7 (the ninth round).
HANDOVER_NODES = 6400
#: Search nodes after which a search for a first solution (``solutions=1``,
#: the tournaments' question) hands over in place of :data:`HANDOVER_NODES`.
#: Kissat with the root's probes as clauses (``rofl.solver.sat.KISSAT``), which
#: serves first solutions only, made the SAT side cheap enough to hand over
#: early (750 nodes, the tenth round); since nodes got cheaper (the
#: two-solution round's kept line words), many puzzles that reach 750 nodes
#: are settled by 2000 in less than the SAT run they were handed (0.2--0.6
#: CPU s against 0.5--3 s).  On the puzzles of five whole sets that reach
#: 750 nodes, each hand-over's SAT run counted at its 750-node length (a run's
#: length is a draw that any change of the formula redraws): 2000 nodes
#: saved 6--13 s a set (tcga2014 93.3 -> 80.1 s, taai2022 72.1 -> 62.4,
#: icga2019 88.8 -> 82.4; held out, icga2021 93.3 -> 86.4, tcga2017 87.1
#: -> 80.0); 1550 and 2500 nodes about as much, 3150 less on two of five
#: (docs/benchmarks.md, "A twelfth round").  Nothing the search counts
#: foretells which puzzles the SAT solver will be slow on (the tenth round).
HANDOVER_NODES_FIRST = 2000
#: CPU seconds of search (the process's, :func:`rofl.solver.cpu_time`) after which
#: the search hands over all the same: puzzles larger than the tournaments'
#: whose nodes are slow.  CPU, not wall-clock, seconds: on a busy machine a
#: few seconds of the clock held a fraction of that of search, and puzzles
#: the search settles in a second went to the SAT solver.
HANDOVER_SECONDS = 4.0
#: Whether a search for a first solution hands the SAT solver the nogoods it
#: learned (``solve_sat(nogoods=...)``: a few dozen clauses "not every one
#: of these cells in the colours the search chose") besides the probed
#: root.  On 140 hand-overs of four whole sets, interleaved: 275.9 -> 242.7
#: CPU s, faster on 82 (docs/benchmarks.md, "A twelfth round").
HANDOVER_NOGOODS = True
#: Largest puzzle (cells) handed over: the formula is built in Python and
#: grows faster than the cells (a random 100 x 100 puzzle: 830 000 clauses,
#: 0.85 s and 180 MB; 150 x 150: 2.7 million, 3.4 s and 480 MB; a 2048 x 2048
#: search handed over asked for more than 10 GB).
HANDOVER_CELLS = 10_000


@dataclass(eq=False)
class CompleteResult:
    """What the complete solver found.

    Attributes
    ----------
    status : SearchStatus
        A string enum.  ``"unique"``: exactly one solution, proved.  ``"multiple"``: two
        distinct solutions were found (there may be more).  ``"none"``: the
        clues contradict each other, proved.  ``"budget"``: the time or node
        budget ran out before the answer was known.  ``"found"``: one
        solution was asked for (``solutions=1``) and found, not proved unique.
    solutions : list of (H, W) uint8 arrays
        Palette indices; one grid when unique or found, two distinct grids when
        multiple, none when ``"none"``.  When the budget ran out it holds
        the solution found so far, if any (a valid solution, but not proved
        unique).  Every grid has been checked against the clues.
    line_status : LineStatus
        What line logic alone reached.
    masks : (H, W) int64 array
        The cells' possible colours after line logic (bit ``c`` = colour
        ``c``), before any search.
    bad_line : int or None
        When line logic met a contradiction, the line (rows first, then
        columns) that had no arrangement left.
    nodes, probes, line_solves : int
        Search nodes visited, probes run, lines solved (line logic included).
    max_depth : int
        Deepest nesting of search frames.
    splits : int
        Times the undetermined cells fell apart into independent parts.
    attempts : int
        Search attempts: the search restarts in another order, with a
        larger node limit, when an attempt runs out of nodes.
    sat_seconds : float
        Seconds the SAT solver took after the search handed the puzzle over
        to it (:data:`HANDOVER_SECONDS`; included in ``seconds``), 0 when
        it did not.
    seconds : float
        Wall time of the call; compiling or loading the kernels it needed
        (:func:`rofl.kernels.ready`, once a process) is not in it and not
        taken from the time budget.
    line_stopped : bool
        The budget ran out inside line logic (``"budget"``, and ``masks``
        know nothing).
    """

    puzzle: Puzzle = field(repr=False)
    status: SearchStatus
    solutions: list[np.ndarray] = field(repr=False)
    line_status: LineStatus
    masks: np.ndarray = field(repr=False)
    nodes: int = 0
    probes: int = 0
    line_solves: int = 0
    max_depth: int = 0
    splits: int = 0
    attempts: int = 0
    sat_seconds: float = 0.0
    seconds: float = 0.0
    bad_line: int | None = None
    line_stopped: bool = False

    @property
    def undetermined(self) -> int:
        """Cells line logic left with more than one colour (before any search)."""
        return int(self.masks.size - np.count_nonzero(determined(self.masks)))

    @property
    def grid(self) -> np.ndarray | None:
        """The ``(H, W)`` uint8 solution when it is unique, else None."""
        return self.solutions[0] if self.status == SearchStatus.UNIQUE else None

    @property
    def unique(self) -> bool:
        return self.status == SearchStatus.UNIQUE

    @property
    def line_solvable(self) -> bool:
        """Whether line logic alone reaches the (unique) solution."""
        return self.line_status == LineStatus.SOLVED


_LOCAL = threading.local()


def _line_solver() -> LineSolver:
    # one solver (and line cache) per thread: the kernels write into its buffers
    solver = getattr(_LOCAL, "solver", None)
    if solver is None:
        solver = _LOCAL.solver = LineSolver(cache_mb=CACHE_MB)
    return solver


def _sat_installed() -> bool:
    """Whether the SAT solver can take over a long search (python-sat imports)."""
    from rofl.solver.sat import _require_pysat

    try:
        _require_pysat()
    except OptionError:
        return False
    return True


def learned_nogoods(learned: np.ndarray) -> list[list[tuple[int, int]]]:
    """The nogoods in a store of the compiled search (its ``learned``; the
    layout: :data:`rofl.kernels.search_stats.NOGOOD_HEAD`), each a list of
    (cell, colours) pairs that no solution all keeps."""
    from rofl.kernels.search_stats import NOGOOD_HEAD

    found = []
    at, end = NOGOOD_HEAD, int(learned[0]) if learned.shape[0] > NOGOOD_HEAD else 0
    while at < end:
        k = int(learned[at])
        pairs = learned[at + 1 : at + 1 + 2 * k].reshape(k, 2)
        found.append([(int(cell), int(colours)) for cell, colours in pairs])
        at += 1 + 2 * k
    return found


def _decided(found: list[np.ndarray], wanted: int) -> SearchStatus:
    """The status of a search that ended with the distinct solutions ``found`` when ``wanted`` were asked for."""
    if not found:
        return SearchStatus.NONE
    if len(found) >= wanted:
        return SearchStatus.MULTIPLE if wanted == 2 else SearchStatus.FOUND
    return SearchStatus.UNIQUE


def solve_complete(
    puzzle: Puzzle,
    *,
    time_budget: float | None = 10.0,
    node_budget: int | None = None,
    cpu_budget: float | None = None,
    search: bool = True,
    line: SolveResult | None = None,
    engine: str = "search",
    solutions: int = 2,
) -> CompleteResult:
    """Solve ``puzzle`` completely: line logic, then probing and backtracking.

    A thin wrapper over the compiled search (:mod:`rofl.kernels._search`):
    it runs line logic, and when that stalls, searches with probing and
    backtracking until it has proved the solution unique, found two
    distinct solutions, proved that there is none, or run out of budget.
    The answer is never wrong: every returned grid satisfies the clues, and
    ``"unique"`` / ``"none"`` are only reported after the whole search tree
    was covered.

    Parameters
    ----------
    puzzle : Puzzle
    time_budget : float or None
        Seconds for line logic and the search together (None: no limit), as
        every budget of rofl counts them (``--budget``, :func:`rofl.decode.solve_picture`);
        the one-off loading of the compiled code is not counted.  Running out
        is the result ``"budget"``, never an exception, whether line logic or
        the search was running.  A caller that ran line logic itself (``line``)
        gives what it left of its budget.  Line logic and the search look at
        the clock often, so they stop within milliseconds of the budget.
    node_budget : int or None
        Largest number of search nodes (None: no limit).
    cpu_budget : float or None
        Seconds of the process's CPU time (:func:`rofl.solver.cpu_time`:
        every thread's, and its SAT solver children's) for the search and
        the SAT solver, besides ``time_budget``
        (None: no limit): whichever runs out first ends the solve with
        ``"budget"``.  A budget that a benchmark counts in CPU time holds
        however loaded the machine is, where the wall clock's may hold many
        times as much work.  Line logic, before them, is stopped by
        ``time_budget`` only (milliseconds on a tournament puzzle), and
        counts in it.
    search : bool
        False: line logic only; a puzzle it does not finish reports
        ``"budget"`` (nothing searched, nothing proved).
    line : SolveResult, optional
        What :func:`rofl.solver.solve` already found for ``puzzle`` (a caller
        that looked at line logic first): it is not run a second time.
    engine : {"search", "sat"}
        ``"search"``: rofl's compiled search.  ``"sat"``: the SAT engine
        (:mod:`rofl.solver.sat`, the ``sat`` extra), which reads the clues
        only, independently of line logic (still run for ``line_status``);
        it takes ``time_budget`` but no ``node_budget``.
    solutions : {2, 1}
        2: tell a unique solution from several (find a second or prove there
        is none).  1: stop at the first solution, as a tournament asks; its
        status is ``"found"`` (not proved unique) unless line logic alone
        solved the puzzle (then ``"unique"``), ``"none"`` when there is none.

    Returns
    -------
    CompleteResult

    Raises
    ------
    TypeError
        ``puzzle`` is no puzzle (a path, a grid: open or build one first).
    OptionError
        A budget that is not positive (of time, nodes or CPU), an unknown engine, a node budget for
        the SAT engine, the SAT engine without python-sat, or ``solutions``
        other than 1 or 2.
    """
    expect_puzzle(puzzle, "rofl.solve_complete")
    _check_options(engine, node_budget, solutions, time_budget)
    _check_budget("cpu_budget", cpu_budget)
    # Compiling or loading the line kernels (a fresh process's first solve,
    # in rofl.solve) is not the solve's time; nor are the search kernels,
    # readied in _Restarts only for the puzzles line logic does not finish:
    # the clock stops meanwhile.
    from rofl import kernels

    clock = kernels.Stopwatch()
    cpu = cpu_time()
    line, line_stopped = _line_logic(puzzle, line, time_budget)
    stopped = line_stopped
    settled = line.status != LineStatus.STALLED and not (engine == "sat" and search)
    if time_budget is not None:  # the search gets what line logic left of the budget
        time_budget -= clock.seconds()
        stopped = stopped or (time_budget <= 0 and not settled)
    if cpu_budget is not None:  # and of the CPU budget
        cpu_budget -= cpu_time() - cpu
        stopped = stopped or (cpu_budget <= 0 and not settled)
    answer = _Answer(puzzle, line, clock)
    if stopped:
        return replace(answer(SearchStatus.BUDGET, []), line_stopped=line_stopped)
    if engine == "sat" and search:  # the clues alone, not what line logic found
        from rofl.solver.sat import solve_sat

        status, grids, _ = solve_sat(puzzle, time_budget=time_budget, cpu_budget=cpu_budget, want=solutions)
        return answer(status, grids)
    if line.status == LineStatus.SOLVED:
        return answer(SearchStatus.UNIQUE, [line.grid])
    if line.status == LineStatus.CONTRADICTION:
        return answer(SearchStatus.NONE, [])
    if not search:
        return answer(SearchStatus.BUDGET, [])
    if needs_lines(puzzle):  # hexagons and colour sets (issue 27)
        status, grids, counts = search_lines(
            puzzle, answer.root, time_budget=time_budget, node_budget=node_budget, want=solutions, cpu_budget=cpu_budget
        )
        done = answer(status, grids)
        return replace(done, nodes=counts["nodes"], max_depth=counts["max_depth"], attempts=1,
                       line_solves=line.line_solves + counts["line_solves"])  # fmt: skip
    return _Restarts(puzzle, line, answer, time_budget, node_budget, solutions, cpu_budget).run()


def check_solutions(solutions: int) -> None:
    """Refuse ``solutions`` (of :func:`solve_complete` and the tournament
    run) unless it is 1 or 2, with one OptionError (not True, not 1.0)."""
    if isinstance(solutions, (bool, float)) or solutions not in (1, 2):
        msg = f"solutions must be 1 (the first one) or 2 (tell unique from several), not {solutions!r}"
        raise OptionError(msg)


def _check_options(engine: str, node_budget: int | None, solutions: int, time_budget: float | None) -> None:
    """:func:`solve_complete`'s options, each refused with one OptionError."""
    if engine not in ("search", "sat"):
        msg = f"engine must be 'search' or 'sat', not {engine!r}"
        raise OptionError(msg)
    if engine == "sat" and node_budget is not None:
        msg = "the SAT engine takes a time budget, not a node budget"
        raise OptionError(msg)
    check_solutions(solutions)
    _check_budget("time_budget", time_budget)
    if node_budget is not None and node_budget < 1:
        msg = f"node_budget must be at least 1, not {node_budget!r}"
        raise OptionError(msg)


def _check_budget(name: str, seconds: float | None) -> None:
    """A budget of seconds is None or a positive number, or one OptionError."""
    if seconds is not None and not seconds > 0:
        msg = f"{name} must be a positive number of seconds, not {seconds!r}"
        raise OptionError(msg)


def _line_logic(puzzle: Puzzle, line: SolveResult | None, time_budget: float | None) -> tuple[SolveResult, bool]:
    """Line logic, the first part of the budget, and whether the budget ran
    out inside it (then nothing is known: every cell open).  Without the
    line cache, as rofl.solve does (most puzzles end here); the search keeps
    one for its probes.  ``line``, when given, is what the caller already ran."""
    if line is None:
        try:
            line = solve(puzzle, budget=time_budget)
        except BudgetError:
            full = np.full(puzzle.board.grid_shape, full_mask(puzzle.n_colors), dtype=np.int64)
            return SolveResult(puzzle, LineStatus.STALLED, full, 0, 0), True
    return line, False


class _Answer:
    """Builds :func:`solve_complete`'s result from a status and the grids
    found, each grid checked against the clues (a wrong one is a bug in the
    search, never an answer), with the search's counters when it ran."""

    def __init__(self, puzzle: Puzzle, line: SolveResult, clock) -> None:
        self.puzzle, self.line, self.clock = puzzle, line, clock
        self.root = line.masks.copy()  # what line logic left, as the result shows it

    def __call__(
        self, status: SearchStatus, grids: list[np.ndarray], stats: np.ndarray | None = None, attempts: int = 0
    ) -> CompleteResult:
        for grid in grids:
            if not self.puzzle.is_solution(grid):
                msg = "complete solver returned a grid that does not satisfy the clues"
                raise RuntimeError(msg)
        extra: dict = {"line_solves": self.line.line_solves}
        if stats is not None:
            from rofl.kernels import search_stats as s

            extra = {
                "attempts": attempts,
                "nodes": int(stats[s.ST_NODES]),
                "probes": int(stats[s.ST_PROBES]),
                "line_solves": self.line.line_solves + int(stats[s.ST_LINE_SOLVES]),
                "max_depth": int(stats[s.ST_MAX_DEPTH]),
                "splits": int(stats[s.ST_SPLITS]),
            }
        return CompleteResult(
            puzzle=self.puzzle,
            status=status,
            solutions=grids,
            line_status=self.line.status,
            masks=self.root,
            seconds=self.clock.seconds(),
            bad_line=self.line.bad_line,
            **extra,
        )


class _Restarts:
    """The compiled search of a rectangle that line logic left open, with
    restarts: each attempt searches the whole tree in its own order, with a
    node limit that doubles from one attempt to the next.  A search that is
    slow to meet solutions in one order is often quick in another, and
    every attempt that finishes is a complete proof.  Past
    ``HANDOVER_NODES`` nodes (``HANDOVER_NODES_FIRST`` for a first solution)
    or ``HANDOVER_SECONDS`` of CPU, a search that has not finished goes to
    the SAT solver (where it is installed and the formula fits)."""

    def __init__(self, puzzle, line, answer, time_budget, node_budget, solutions, cpu_budget=None) -> None:
        from rofl import kernels

        kernels.ready(kernels.SEARCH)  # only for the puzzles line logic does not finish; not the search's time
        from rofl.kernels import search_stats as s

        self.puzzle, self.answer, self.s = puzzle, answer, s
        self.time_budget, self.node_budget, self.want = time_budget, node_budget, solutions
        self.packed = puzzle.packed
        solver = _line_solver()
        self.total = np.zeros(s.N_STATS, dtype=np.int64)
        self.met: list[np.ndarray] = []  # distinct solutions met by attempts cut short
        self.search_start = time.perf_counter()
        cpu_start = cpu_time()
        self.cpu_end = None if cpu_budget is None else cpu_start + cpu_budget  # the search's and the SAT solver's
        self.probed = line.masks.copy()  # each attempt leaves here what probing the root taught
        solver.prepare(self.packed.kmax, self.probed)
        self.scratch, self.cache = solver.work()
        small = puzzle.height * puzzle.width <= HANDOVER_CELLS
        self.handover = cpu_start + HANDOVER_SECONDS if small and node_budget is None and _sat_installed() else None
        self.handover_nodes = HANDOVER_NODES_FIRST if solutions == 1 else HANDOVER_NODES
        self.attempt = 0
        self.learned = np.zeros(s.NOGOOD_WORDS, dtype=np.int64)  # nogoods, kept from attempt to attempt

    def result(self, status: SearchStatus, grids: list[np.ndarray]) -> CompleteResult:
        return self.answer(status, grids, self.total, attempts=self.attempt + 1)

    def cut_short(self) -> CompleteResult:
        """Out of budget: the first solution met, if any (valid, not proved unique)."""
        return self.result(SearchStatus.BUDGET, self.met[:1])

    def hand_over(self) -> CompleteResult | None:
        """The SAT solver's answer, from what probing taught and the solutions
        met; None (and no more hand-over) when the formula would be too large:
        the search goes on alone."""
        from rofl.errors import LimitError
        from rofl.solver.sat import solve_sat

        began = time.perf_counter()
        seconds = None if self.time_budget is None else self.time_budget - (began - self.search_start)
        cpu = None if self.cpu_end is None else self.cpu_end - cpu_time()
        if (seconds is not None and seconds <= 0) or (cpu is not None and cpu <= 0):
            return self.cut_short()
        nogoods = learned_nogoods(self.learned) if HANDOVER_NOGOODS and self.want == 1 else []
        try:
            status, grids, _ = solve_sat(
                self.puzzle, time_budget=seconds, cpu_budget=cpu, start=self.probed, known=self.met[: self.want],
                want=self.want, nogoods=nogoods,
            )  # fmt: skip
        except LimitError:  # the formula would pass MAX_LITERALS (counted before anything is built)
            self.handover = None
            return None
        return replace(self.result(status, grids), sat_seconds=time.perf_counter() - began)

    def run(self) -> CompleteResult:
        s = self.s
        # First a try of at most QUICK_NODES nodes in the calling thread (a worker
        # thread costs about 0.1 ms, as much as the whole search of most puzzles
        # that need one: probing the root decides them), on puzzles small enough
        # for that to end within milliseconds whatever the deadline.
        quick = self.puzzle.height * self.puzzle.width <= QUICK_CELLS
        while True:
            limit = QUICK_NODES if quick else FIRST_ATTEMPT_NODES << self.attempt
            if self.node_budget is not None:
                limit = min(limit, self.node_budget - int(self.total[s.ST_NODES]))
            if self.handover is not None:  # the attempt stops at the hand-over's node count
                limit = max(1, min(limit, self.handover_nodes - int(self.total[s.ST_NODES])))
            deadline = None
            if self.time_budget is not None:
                seconds = self.time_budget - (time.perf_counter() - self.search_start)
                if seconds <= 0:
                    return self.cut_short()
                deadline = time.monotonic() + seconds
            if self.cpu_end is not None and cpu_time() >= self.cpu_end:
                return self.cut_short()
            if self.handover is not None and cpu_time() >= self.handover:
                done = self.hand_over()
                if done is not None:
                    return done
            stats, sols, got = self.search(limit, quick, deadline)
            if got >= 0:
                found = [masks_to_grid(sols[i]) for i in range(got)]
                return self.result(_decided(found, self.want), found)
            for i in range(int(stats[s.ST_MET])):
                grid = masks_to_grid(sols[i])
                if not any(np.array_equal(grid, other) for other in self.met):
                    self.met.append(grid)
            if len(self.met) >= self.want:
                return self.result(_decided(self.met, self.want), self.met[: self.want])
            out_of_nodes = stats[s.ST_NODES] > limit
            if out_of_nodes and self.handover is not None and self.total[s.ST_NODES] >= self.handover_nodes:
                done = self.hand_over()
                if done is not None:
                    return done
            if not out_of_nodes and self.cpu_end is not None and cpu_time() >= self.cpu_end:
                return self.cut_short()  # stopped at the CPU budget's end
            # stopped at the hand-over's CPU seconds (rather than the budget's end)
            if not out_of_nodes and self.handover is not None and cpu_time() >= self.handover:
                done = self.hand_over()
                if done is not None:
                    return done
                continue
            if not out_of_nodes or (self.node_budget is not None and self.total[s.ST_NODES] >= self.node_budget):
                return self.cut_short()
            if quick:  # the first attempt proper: it finds the root probed already
                quick = False
            else:
                self.attempt += 1

    def search(self, limit: int, quick: bool, deadline: float | None) -> tuple[np.ndarray, np.ndarray, int]:
        """One attempt of at most ``limit`` nodes: its counters (added to the
        total), the solutions it met, and how many it proved (-1: cut short)."""
        from rofl import kernels
        from rofl.solver._stop import THREAD_CELLS, run_stoppable, setting

        s = self.s
        sols = np.zeros((self.want, self.puzzle.height, self.puzzle.width), dtype=np.int64)
        stats = np.zeros(s.N_STATS, dtype=np.int64)
        args = (
            self.probed, *kernel_clues(self.packed), *self.scratch, *self.cache, sols, self.want, limit, stats,
            STRATEGIES[self.attempt % len(STRATEGIES)], self.attempt, self.learned,
        )  # fmt: skip
        # But for the quick try, in a worker thread whatever the puzzle's size
        # (a search's work does not follow it), stopped through stats[ST_STOP]
        # at the deadline or on Ctrl-C, which then raises KeyboardInterrupt here.
        got = run_stoppable(
            lambda args=args: kernels.search(*args),
            setting(stats, s.ST_STOP),
            cells=0 if quick else THREAD_CELLS,
            deadline=deadline,
            cpu_deadline=min((t for t in (self.handover, self.cpu_end) if t is not None), default=None),
        )
        stats[s.ST_STOP] = 0
        depth = max(int(self.total[s.ST_MAX_DEPTH]), int(stats[s.ST_MAX_DEPTH]))
        self.total += stats
        self.total[s.ST_MAX_DEPTH] = depth
        return stats, sols, got


__all__ = ["STATUSES", "CompleteResult", "check_solutions", "solve_complete"]
