"""The SAT engine: a puzzle as a CNF formula, solved with python-sat.

An engine independent of rofl's own line logic and search, for
:func:`rofl.solve_complete` with ``engine="sat"`` (and ``rofl solve
--engine sat``): it reads the clues only, so the two engines check each
other.  Both shapes and colour sets (``?``) are encoded alike, over the
lines of :func:`rofl.solver.index_lines.board_of`.

Encoding (per line, over the cells' colour variables)
-----------------------------------------------------
* ``x[cell, c]``: the cell has colour ``c`` (background included); exactly
  one per cell.
* ``y[g, c, p]``: group ``g`` of the line has colour ``c`` (one of those it
  allows) and starts at ``p`` (only where the groups before and after it
  leave room); exactly one per group.
* ``y[g, c, p]`` implies one of the starts of group ``g + 1`` at
  ``p + length + (1 if the colours are equal else 0)`` or later: the order
  of the groups and the gap rule, colour sets included.
* ``y[g, c, p]`` implies ``x[i, c]`` for every cell it covers, and
  ``x[i, c]`` (``c >= 1``) implies some group of colour ``c`` covering ``i``:
  so an uncovered cell is background.

The seed document encodes each line as the disjunction of all its fillings
(one auxiliary variable per filling, Tseytin); their number grows
exponentially with the line (a 30-cell line with five 1s has 65 780), the
start variables above grow with ``groups x colours x cells``.
Uniqueness: after a solution, one clause bans it (some cell has another
colour); a black-and-white puzzle's second solution is first looked for
among the first's rectangle swaps (:func:`swapped`), and only then is the
solver asked again, incrementally, the last solution's colours tried first.
A first solution alone (``want=1``) is asked of Kissat before CaDiCaL
(:data:`KISSAT`).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence

import numpy as np

from rofl.errors import OptionError
from rofl.solver._stop import FORKS, Deadlines, cpu_time, run_forked
from rofl.solver.index_lines import board_of, needs_lines
from rofl.solver.status import SearchStatus

#: The SAT solvers python-sat runs, the first it has: CaDiCaL 3.0 (python-sat
#: 1.9.dev24 on), else CaDiCaL 1.9.5 (about twice as fast as Glucose 4 on the
#: tournament puzzles handed over; docs/benchmarks.md, "SAT engine").
#: python-sat cannot interrupt either from another thread, so a solve runs in
#: slices of conflicts (:func:`_solve_until`; the solver keeps what it
#: learned from one to the next) and the clock and Ctrl-C are read between them.
SOLVERS = ("cadical300", "cadical195")
#: Conflicts of the first slice (some 10 ms on a 25 x 25 puzzle); each next
#: slice has twice as many, and at most what the last slice's rate fits
#: before the deadline.  Slices of a fixed 1000 conflicts kept CaDiCaL in its
#: first mode (it switches to its "stable" mode after 1000 conflicts and
#: starts each call afresh): on taai2020's ten hardest puzzles it needed
#: twice the conflicts.
FIRST_SLICE = 1000
#: Seconds a slice may grow to (at the last slice's rate): Ctrl-C waits for
#: the slice it meets (:func:`_slice`).
SLICE_SECONDS = 1.0
#: Whether :func:`solve_sat` looks for another solution among the swaps of
#: those it has (:func:`swapped`) before asking the solver again: all ten
#: taai2020 puzzles the hand-over took longest over had one, and their two
#: solutions took 21.7 CPU s in place of 39.5 (docs/benchmarks.md, "A
#: seventh round").
SWAP = True
#: Whether the solver, asked for another solution, tries the last one's
#: colours first (CaDiCaL's phases): nearby solutions are found sooner (the
#: ten without swaps: 30.2 CPU s in place of 37.7).
GUIDED = True
#: The solver that looks for a first solution (``want=1``) before CaDiCaL,
#: when python-sat has it: Kissat (nonosolve's first solver too).  Kissat
#: cannot go on from where a call stopped (no incremental solving in
#: python-sat) nor be interrupted (python-sat holds the interpreter while a
#: solver runs), so its calls run in a child process where the platform
#: forks (:data:`KISSAT_FORKED`), which Ctrl-C and the wall clock's deadline
#: kill, and each is capped in conflicts: at :data:`KISSAT_CONFLICTS`, or with a
#: budget (:data:`KISSAT_FIT_CPU`) at what Kissat's pace fits in the time
#: left.  A call that runs out is followed by another on the formula
#: renamed (:data:`KISSAT_RESTARTS`), or by CaDiCaL's slices, from the start.
#: ``KISSAT_CONFLICTS = 0``: CaDiCaL only.
KISSAT = "kissat404"
KISSAT_CONFLICTS = 100_000
#: Whether Kissat's calls run in a child process, one for each hand-over
#: (:func:`rofl.solver._stop.run_forked`, on Linux): Ctrl-C and the wall
#: clock's deadline then end them at once (in this process, a worker
#: thread's call that Ctrl-C waited for: up to 17 s on Knotty), so a
#: wall-clock budget alone fits them at the pace measured, as a CPU budget
#: does.  Without it the calls are this process's, and a wall-clock budget
#: alone caps each at :data:`KISSAT_RATE`.  The child's CPU time is charged
#: to :func:`rofl.solver.cpu_time`.
KISSAT_FORKED = FORKS
#: Whether, under a budget (of CPU time, or of the wall clock when
#: :data:`KISSAT_FORKED`), the first call's only cap is what the budget
#: fits (:data:`KISSAT_CPU_RATE`) rather than :data:`KISSAT_CONFLICTS`: from
#: the hand-over's root one call as built settled each of the 163 hand-overs of
#: tcga2013 and taai2015 within 8.3 CPU s, where every schedule of shorter
#: calls on the formula renamed took longer in total (docs/benchmarks.md,
#: "The hand-over's tail").
KISSAT_FIT_CPU = True
#: Whether a call that ran out is followed by Kissat on the formula renamed
#: (a fresh draw of its run; each call :data:`KISSAT_GROWTH` times the last's
#: conflicts, fitted to the CPU time left at the rate the last measured:
#: :data:`KISSAT_RATE_SHARE`) rather than by CaDiCaL, until the budget's end
#: (without a budget, CaDiCaL follows all the same).
KISSAT_RESTARTS = True
KISSAT_GROWTH = 2.0
#: The share of the conflict rate a call that ran out measured (conflicts a
#: CPU second of this formula, on this machine, now) that the next calls'
#: caps count on to fit the CPU time left (:func:`_kissat_first`).
KISSAT_RATE_SHARE = 0.9
#: Conflicts a CPU second that Kissat is trusted to make at the least, to fit
#: a first call in a CPU budget: 25 x 25 tournament puzzles' formulas made
#: 14,800-15,600 on 2 cores running 14-18 jobs (and some 33,000 on a quieter
#: machine).
KISSAT_CPU_RATE = 14_000
#: Conflicts of a short first call that measures Kissat's pace (conflicts a
#: CPU second on this machine, now) before a first call fitted to a CPU
#: budget, while no call of this process has measured it on a formula of
#: about this size (:data:`KISSAT_PACE_SPAN` times more or fewer
#: variables).  Kissat's pace over its first 5,000 conflicts was within a
#: tenth of its pace over 120,000 on tournament formulas; the call that
#: follows is of the same formula, so it repeats the short call's start (a
#: few tenths of a second, once) where :data:`KISSAT_CPU_RATE`, a floor
#: measured on a machine running 14-18 jobs, gave the first call two thirds
#: of the CPU left or less on a quieter one, and on a machine slower than
#: the floor let it pass the budget (docs/benchmarks.md, "Kissat's pace").
#: Every call that runs out measures the pace again.  0: no pacing.
KISSAT_PACE_CONFLICTS = 5_000
KISSAT_PACE_SPAN = 1.5


class _Pace:
    """Kissat's pace as last measured in this process (conflicts a CPU
    second, None before any), and the variables of the formula it was
    measured on."""

    rate: float | None = None
    variables: int = 0

    def known(self, variables: int) -> float | None:
        """The pace, when measured on a formula of about ``variables``."""
        near = self.variables / KISSAT_PACE_SPAN <= variables <= self.variables * KISSAT_PACE_SPAN
        return self.rate if near else None

    def measured(self, conflicts: int, cpu: float, variables: int) -> float:
        """Keep the pace of a call that made ``conflicts`` in ``cpu`` seconds; return it."""
        self.rate, self.variables = conflicts / max(cpu, 1e-6), variables
        return self.rate


_PACE = _Pace()
#: Whether a first solution's formula (``want=1``, from ``start``) also gets
#: the root's probes as clauses (nonosolve's ``implications``): each open
#: cell in each of its colours, line logic, and for every colour that rules
#: out elsewhere, the binary clause "not this colour here, or not that one
#: there"; a probe that contradicts rules its colour out.  Unit propagation
#: then knows what one probe of line logic knows.  At most
#: :data:`PROBE_LITERALS` literals.
PROBE_CLAUSES = True
PROBE_LITERALS = 2_000_000
#: Conflicts a second of the wall clock that Kissat is trusted to make at the
#: least (25 x 25 tournament puzzles on a loaded machine: 15,000-35,000), to
#: fit a call that cannot be killed (not :data:`KISSAT_FORKED`) before a
#: deadline.
KISSAT_RATE = 10_000


def _solver_name() -> str:
    """The first of :data:`SOLVERS` that the installed python-sat offers."""
    from pysat.solvers import SolverNames

    return next((name for name in SOLVERS if hasattr(SolverNames, name)), SOLVERS[-1])


def _slice(solver, budget: int) -> bool | None:
    """One slice of at most ``budget`` conflicts, solved in a thread of its own.

    In the main thread python-sat installs its own Ctrl-C handler, which jumps
    out of CaDiCaL and leaves a traceback or a process hung in the solver's
    delete; off the main thread it installs none, so Ctrl-C is Python's
    KeyboardInterrupt, raised here once the slice has ended (the solver holds
    the interpreter while it runs, so no slice is cut short).
    """
    import threading

    got: list = []
    abandoned: list = []

    def run() -> None:
        if abandoned:  # Ctrl-C reached the caller before this began: the solver is not ours
            return
        try:
            got.append(solver.solve_limited())
        except BaseException as error:  # raised again in the caller's thread
            got.append(error)

    worker = threading.Thread(target=run, name="rofl-sat", daemon=True)
    solver.conf_budget(budget)
    try:
        worker.start()
        worker.join()
    except BaseException:
        # Ctrl-C, in join or in start (which can wait out a whole slice to hear
        # from the thread): the interrupt goes on once no thread will touch the
        # solver, which the caller then deletes.  The thread skips the solver if
        # it has not begun, is waited for if it has, through any further Ctrl-C.
        while True:
            try:
                abandoned.append(True)
                if worker.is_alive():
                    worker.join()
                break
            except KeyboardInterrupt:
                pass
        raise
    if isinstance(got[0], BaseException):
        raise got[0]
    return got[0]


def _solve_until(solver, clock: Deadlines) -> bool | None:
    """Whether the formula is satisfiable, or None when ``clock`` passes first.

    Slices grow to at most :data:`SLICE_SECONDS` of the wall clock at the
    last slice's rate, so Ctrl-C is answered within about that much time,
    and to what the last slice's rates fit in the wall clock and the CPU
    time left."""
    budget = FIRST_SLICE
    while True:
        if clock.passed():
            return None
        wall, cpu = time.monotonic(), cpu_time()
        got = _slice(solver, budget)
        if got is not None:
            return got
        wall, cpu = max(time.monotonic() - wall, 1e-6), max(cpu_time() - cpu, 1e-6)
        fits = [2 * budget, int(budget * SLICE_SECONDS / wall)]
        if (left := clock.wall_left()) is not None:
            fits.append(int(budget * left / wall))
        if (left := clock.cpu_left()) is not None:
            fits.append(int(budget * left / cpu))
        budget = max(FIRST_SLICE, min(fits))


def _renamed(clauses: list[list[int]], top: int, seed: int) -> tuple[list[list[int]], np.ndarray]:
    """``clauses`` with their variables ``1..top`` renamed at random (seeded)
    and their signs flipped, in a shuffled order: the same formula, a fresh
    draw of a solver's run; and each old variable's new literal (index 0
    unused)."""
    rng = np.random.default_rng(seed)
    new = np.zeros(top + 1, dtype=np.int64)
    new[1:] = (rng.permutation(top) + 1) * rng.choice(np.array([-1, 1], dtype=np.int64), size=top)
    table = new.tolist()
    out = [[table[lit] if lit > 0 else -table[-lit] for lit in clause] for clause in clauses]
    order = rng.permutation(len(out)).tolist()
    return [out[i] for i in order], new


def _named_back(model: list[int], new: np.ndarray) -> list[int]:
    """A model of a formula renamed by :func:`_renamed` (``new``: each old
    variable's new literal) as a model of the formula before."""
    top = len(new) - 1
    value = np.zeros(max(top, max((abs(lit) for lit in model), default=0)) + 1, dtype=bool)
    lits = np.asarray(model, dtype=np.int64)
    value[np.abs(lits)] = lits > 0
    old = value[np.abs(new[1:])] == (new[1:] > 0)
    return np.where(old, np.arange(1, top + 1), -np.arange(1, top + 1)).tolist()


def _kissat_call(formula: list[list[int]], budget: int) -> tuple[bool | None, list[int] | None, float]:
    """One call of :data:`KISSAT` on ``formula``, at most ``budget``
    conflicts: whether it has a model (None: it ran out), the model, and
    the call's CPU seconds."""
    from pysat.solvers import Solver

    cpu = cpu_time()
    with Solver(name=KISSAT, bootstrap_with=formula) as solver:
        got = _slice(solver, budget)
        model = solver.get_model() if got else None
    return got, model, cpu_time() - cpu


def _kissat_first(clauses: list[list[int]], clock: Deadlines | None, top: int = 0) -> list[int] | bool | None:
    """A model of ``clauses`` (over the variables ``1..top``) from capped
    calls of :data:`KISSAT` (:func:`_kissat_calls`), False when they have
    none, None when the calls ran out of conflicts or time, or python-sat
    has no Kissat.

    Where :data:`KISSAT_FORKED`, the calls run in one child process, killed
    at the wall clock's deadline or on Ctrl-C; the pace they measured comes
    back with their answer (:data:`_PACE`)."""
    from pysat.solvers import SolverNames

    if not hasattr(SolverNames, KISSAT):
        return None
    if not KISSAT_FORKED:
        return _kissat_calls(clauses, clock, top, killable=False)

    def in_child() -> bytes:
        got = _kissat_calls(clauses, clock, top, killable=True)
        pace = np.array([_PACE.rate or 0.0, _PACE.variables], dtype=np.float64).tobytes()
        if got is None or got is False:
            return pace + (b"N" if got is None else b"U")
        return pace + b"S" + np.asarray(got, dtype=np.int32).tobytes()

    try:
        data = run_forked(in_child, deadline=None if clock is None else clock.wall)
    except BlockingIOError:  # no process to be had (the user's limit reached): the calls in this one
        return _kissat_calls(clauses, clock, top, killable=False)
    if data is None:  # killed at the deadline
        return None
    rate, variables = np.frombuffer(data[:16], dtype=np.float64)
    if rate > 0:
        _PACE.rate, _PACE.variables = float(rate), int(variables)
    if data[16:] == b"N":
        return None
    if data[16:] == b"U":
        return False
    return np.frombuffer(data[17:], dtype=np.int32).tolist()


def _kissat_calls(
    clauses: list[list[int]], clock: Deadlines | None, top: int, *, killable: bool
) -> list[int] | bool | None:
    """What :func:`_kissat_first` says, from calls in this process
    (``killable``: a process that the wall clock's deadline and Ctrl-C kill).

    The first call is of the formula as built, capped at
    :data:`KISSAT_CONFLICTS` (under a budget, :data:`KISSAT_FIT_CPU`: at
    what Kissat's pace fits in the time left -- :data:`KISSAT_RATE_SHARE`
    of the pace this process measured last on a formula of about this size,
    else :data:`KISSAT_CPU_RATE`, after a short call of
    :data:`KISSAT_PACE_CONFLICTS` that measures it; a wall clock's seconds
    at :data:`KISSAT_RATE` when the calls cannot be killed).  Each next call
    (:data:`KISSAT_RESTARTS`) is of the formula renamed (:func:`_renamed`),
    which Kissat runs as another formula, with :data:`KISSAT_GROWTH` times
    the last call's conflicts, fitted to the time left at the rate the last
    call measured, until the budget's end; without a budget there is no
    next call.  A call that starts ends within its conflicts (or is killed
    with its process at the wall clock's deadline)."""
    budgeted = clock is not None and (clock.cpu is not None or (killable and clock.wall is not None))
    cap = None if budgeted and KISSAT_FIT_CPU else KISSAT_CONFLICTS  # None: what the budget fits
    pace = _PACE.known(top) if cap is None else None
    # conflicts a CPU second: the pace measured, else a floor until a call measures it
    rate = KISSAT_CPU_RATE if pace is None else max(1, int(KISSAT_RATE_SHARE * pace))
    pacing = cap is None and pace is None and KISSAT_PACE_CONFLICTS > 0
    draw = 0  # the formula as built, then renamed
    for _ in itertools.count():
        fits = [] if cap is None else [cap]
        if clock is not None:
            if (left := clock.wall_left()) is not None:
                fits.append(int(left * (rate if killable else KISSAT_RATE)))
            if (left := clock.cpu_left()) is not None:
                fits.append(int(left * rate))
        budget = min(fits)
        if budget < FIRST_SLICE:
            return None
        short = pacing and budget > KISSAT_PACE_CONFLICTS  # the call that measures the pace
        if short:
            budget = KISSAT_PACE_CONFLICTS
        formula, new = (clauses, None) if draw == 0 or not top else _renamed(clauses, top, draw)
        got, model, cpu = _kissat_call(formula, budget)
        if got is False:
            return False
        if got:
            return model if new is None else _named_back(model, new)
        rate = max(1, int(KISSAT_RATE_SHARE * _PACE.measured(budget, cpu, top)))
        if short:  # the same formula again, the whole of the time left at the pace measured
            pacing = False
            continue
        if not (KISSAT_RESTARTS and top) or clock is None or clock.left() is None:
            return None  # without a budget, CaDiCaL's slices: Ctrl-C waits for one slice, not a growing call
        draw += 1
        cap = int(budget * KISSAT_GROWTH)
    return None


def _probe_clauses(puzzle, start: np.ndarray, x: np.ndarray, clock: Deadlines | None) -> list[list[int]]:
    """The clauses of probing every open cell of ``start`` (an ``(H, W)``
    line-logic fixpoint of ``puzzle``) in each of its colours with line
    logic (:data:`PROBE_CLAUSES`); ``x`` the cells' colour variables.  They
    stop at :data:`PROBE_LITERALS` literals or when ``clock`` passes.

    Each probe calls the line-logic kernel itself, from a copy of ``start``
    with the cell narrowed, on the probed cell's row and column (a 25 x 25
    hand-over makes about 1,200 probes; ``tests/naive.py``'s
    ``probe_clauses`` finds the same clauses with a line solver that lists
    every placement)."""
    from rofl import kernels
    from rofl.kernels import structs as k
    from rofl.solver.line_logic import LineSolver, kernel_clues

    line_solver = LineSolver(cache_mb=2.0)
    line_solver.prepare(puzzle.packed.kmax, start)
    scratch, cache = line_solver.work()
    clues = kernel_clues(puzzle.packed)
    stats = np.zeros(k.N_STATS, dtype=np.int64)
    height, width = start.shape
    root = start.reshape(-1)
    colours = np.arange(puzzle.n_colors, dtype=np.int64)
    clauses: list[list[int]] = []
    literals = 0
    masks = np.empty(start.shape, dtype=np.int64)  # C order: ``flat`` is a view of it
    flat = masks.reshape(-1)
    propagate = kernels.propagate.resolved(masks, *clues, np.zeros(2, dtype=np.int64), *scratch, *cache, stats)
    for cell in np.flatnonzero(root & (root - 1)).tolist():  # more than one colour
        if literals > PROBE_LITERALS or (clock is not None and clock.passed()):
            break
        r, c = divmod(cell, width)
        lines = np.array([r, height + c], dtype=np.int64)
        for colour in range(puzzle.n_colors):
            if not (int(root[cell]) >> colour) & 1:
                continue
            masks[...] = start
            masks[r, c] = 1 << colour
            not_here = -int(x[cell, colour])
            if propagate(masks, *clues, lines, *scratch, *cache, stats) == k.CONTRADICTION:  # reads ``lines`` only
                clauses.append([not_here])
                literals += 1
                continue
            flat[cell] = root[cell]  # the probed cell implies nothing of itself
            others = np.flatnonzero(flat != root)
            gone = root[others] & ~flat[others]
            which, lost = np.nonzero((gone[:, None] >> colours[None, :]) & 1)  # by cell, then colour
            clauses.extend([not_here, -v] for v in x[others[which], lost].tolist())
            literals += 2 * len(which)
    return clauses


def _one_cell_moves(line: np.ndarray) -> list[tuple[int, int]]:
    """The moves ``(a, b)`` of one black cell of a black-and-white ``line``
    from ``a`` to the white ``b`` that keep its groups: a group shifted by one
    cell (its first cell to just past its end, or its last to just before its
    start), or a group of one moved anywhere in its gap but next to itself."""
    cells = np.flatnonzero(line)
    if not cells.size:
        return []
    breaks = np.flatnonzero(np.diff(cells) > 1)
    starts = cells[np.concatenate(([0], breaks + 1))].tolist()
    ends = cells[np.concatenate((breaks, [cells.size - 1]))].tolist()
    moves = []
    for b, (a, e) in enumerate(zip(starts, ends, strict=True)):
        lo = ends[b - 1] + 2 if b else 0  # the first cell the group may take
        hi = starts[b + 1] - 2 if b + 1 < len(starts) else len(line) - 1
        if e + 1 <= hi:
            moves.append((a, e + 1))
        if a - 1 >= lo:
            moves.append((e, a - 1))
        if a == e:
            moves.extend((a, c) for c in range(lo, hi + 1) if abs(c - a) > 1)
    return moves


def swapped(grid: np.ndarray) -> np.ndarray | None:
    """Another filling of the same clues as the black-and-white ``grid`` (an
    ``(H, W)`` array of 0 and 1) that differs from it in the four corners of
    one rectangle, or None: row ``r1`` moves a black cell from ``c1`` to
    ``c2``, column ``c1`` from ``r1`` to ``r2``, row ``r2`` from ``c2`` to
    ``c1`` and column ``c2`` from ``r2`` to ``r1``, each move keeping its
    line's groups (:func:`_one_cell_moves`), so every clue still holds.
    Puzzles with several solutions often have such a pair (nonosolve's
    ``swapNeighbour`` looks for the same before asking its SAT solver again)."""
    g = np.asarray(grid) != 0
    rows = {(r, a, b) for r in range(g.shape[0]) for a, b in _one_cell_moves(g[r])}
    cols = {(c, a, b) for c in range(g.shape[1]) for a, b in _one_cell_moves(g[:, c])}
    down: dict[tuple[int, int], list[int]] = {}
    for c, a, b in cols:
        down.setdefault((c, a), []).append(b)
    for r1, c1, c2 in sorted(rows):
        for r2 in sorted(down.get((c1, r1), ())):
            if (r2, c2, c1) in rows and (c2, r2, r1) in cols:
                out = np.array(grid, copy=True)
                out[r1, c1], out[r1, c2], out[r2, c2], out[r2, c1] = 0, 1, 0, 1
                return out
    return None


def _require_pysat():
    try:
        from pysat.card import CardEnc, EncType
        from pysat.solvers import Solver
    except ImportError:  # a dependency, but an install can lack it
        msg = "the SAT engine needs python-sat, which rofl installs: pip install 'python-sat>=1.8.dev0'"
        raise OptionError(msg) from None
    return Solver, CardEnc, EncType


#: The most literals a formula may hold.  A formula is lists of Python ints
#: (about 40 bytes a literal) and the SAT solver's copy: 8 million is some
#: 400 MB at most.  A group's start variables grow with the slack of its
#: line, and the clauses that order two groups with its square, so a
#: 16 kB ``.nin`` once asked for more than 4 GB (issue 40); the count
#: (:func:`formula_literals`) is made before anything is built.
MAX_LITERALS = 8_000_000

#: Literals of the at-most-one of ``n`` variables (sequential counter: about 3n clauses of 2-3 literals).
_AMO_LITERALS_PER_VARIABLE = 8


def _line_spans(clue, n: int) -> tuple[list[int], list[list[int]], list[int], list[int]]:
    """A line's group lengths, colours, earliest and latest starts (as :class:`Encoding` places them)."""
    lengths = [m for m, _ in clue]
    colours = [sorted(c) if isinstance(c, frozenset) else [c] for _, c in clue]
    # earliest start of each group (as if no gaps but the forced ones:
    # a start beyond what the latest start allows is simply unused)
    earliest = [0] * len(clue)
    for g in range(1, len(clue)):
        forced = 1 if len(colours[g]) == 1 and colours[g] == colours[g - 1] else 0
        earliest[g] = earliest[g - 1] + lengths[g - 1] + forced
    latest = [0] * len(clue)
    for g in range(len(clue) - 1, -1, -1):
        if g == len(clue) - 1:
            latest[g] = n - lengths[g]
        else:
            forced = 1 if len(colours[g]) == 1 and colours[g] == colours[g + 1] else 0
            latest[g] = latest[g + 1] - lengths[g] - forced
    return lengths, colours, earliest, latest


def formula_literals(puzzle, *, limit: int | None = None) -> int:
    """The number of literals :class:`Encoding` would write for ``puzzle``
    (the at-most-one constraints estimated from above), counted line by line
    without building anything; the count stops once it passes ``limit``."""
    board = board_of(puzzle)
    k = puzzle.n_colors
    per_cell = k + (k * (k - 1) if k <= 6 else _AMO_LITERALS_PER_VARIABLE * k)
    total = board.n_cells * per_cell
    for line in range(puzzle.n_lines):
        n = int(board.line_offsets[line + 1] - board.line_offsets[line])
        lengths, colours, earliest, latest = _line_spans(puzzle.clue(line), n)
        total += n * (k - 1)  # a cell's ink implies a group covering it: one literal each, ...
        for g, length in enumerate(lengths):
            places = max(latest[g] - earliest[g] + 1, 0)
            starts = len(colours[g]) * places
            # ... plus one per covering start (3 in all per start and cell), the
            # group's clause, its at-most-one and the order clauses' own literal
            total += starts * (3 * length + 2 + _AMO_LITERALS_PER_VARIABLE) + 2
            if g + 1 < len(lengths) and places:
                p = np.arange(earliest[g], latest[g] + 1, dtype=np.int64)
                for c in colours[g]:
                    for c2 in colours[g + 1]:
                        first = np.maximum(earliest[g + 1], p + length + (1 if c2 == c else 0))
                        total += int(np.maximum(latest[g + 1] - first + 1, 0).sum())
        if limit is not None and total > limit:
            return total
    return total


def check_formula_size(puzzle) -> None:
    """Refuse a puzzle whose formula would pass :data:`MAX_LITERALS`.

    Raises
    ------
    LimitError
    """
    from rofl.errors import LimitError

    literals = formula_literals(puzzle, limit=MAX_LITERALS)
    if literals > MAX_LITERALS:
        msg = f"the SAT engine's formula for this puzzle would hold more than {MAX_LITERALS:,} literals "
        msg += "(it grows with the cells, the groups and the room they leave on their lines); "
        msg += "use rofl's own search (--engine search)"
        raise LimitError(msg)


def _black_and_white(puzzle) -> bool:
    """Two colours and no colour sets (``?``): the order encoding's puzzles."""
    return puzzle.n_colors == 2 and not any(
        isinstance(c, frozenset) for line in range(puzzle.n_lines) for _, c in puzzle.clue(line)
    )


class _Stopped(Exception):
    """The deadline passed while a formula was being built."""


class Encoding:
    """The CNF of a puzzle: ``clauses`` (lists of int literals), ``x`` the
    ``(n_cells, n_colors)`` variable numbers of the cells' colours, and
    ``top`` the highest variable.

    ``clock`` is looked at after every line: once it has passed,
    :class:`_Stopped` is raised.  Check the size first
    (:func:`check_formula_size`)."""

    def __init__(self, puzzle, *, clock: Deadlines | None = None) -> None:
        _, card, enc_type = _require_pysat()
        board = board_of(puzzle)
        k = puzzle.n_colors
        n_cells = board.n_cells
        self.x = np.arange(1, n_cells * k + 1, dtype=np.int64).reshape(n_cells, k)
        self.top = int(n_cells * k)
        clauses: list[list[int]] = []
        for cell in range(n_cells):
            lits = self.x[cell].tolist()
            clauses.append(lits)
            if k <= 6:  # pairwise: no auxiliary variables
                clauses.extend([-a, -b] for i, a in enumerate(lits) for b in lits[i + 1 :])
            else:
                self._at_most_one(lits, clauses, card, enc_type)
        if _black_and_white(puzzle):
            # black and white: the order encoding, about half the search of the one below (docs/benchmarks.md);
            # nonosolve's formula but for its one variable a cell, which measured no faster ("An eleventh round")
            for line in range(puzzle.n_lines):
                if clock is not None and clock.passed():
                    raise _Stopped
                cells = board.line_cells[board.line_offsets[line] : board.line_offsets[line + 1]].tolist()
                self._order_line([m for m, _ in puzzle.clue(line)], [int(self.x[c, 1]) for c in cells], clauses)
            self.clauses = clauses
            return
        # covering[cell][c]: the start variables that give cell colour c
        covering: list[dict[int, list[int]]] = [{} for _ in range(n_cells)]
        for line in range(puzzle.n_lines):
            cells = board.line_cells[board.line_offsets[line] : board.line_offsets[line + 1]].tolist()
            if clock is not None and clock.passed():
                raise _Stopped
            self._line(puzzle, line, cells, clauses, covering, card, enc_type)
            # a cell of this line with an ink colour lies in a group of it
            for cell in cells:
                for c in range(1, k):
                    clauses.append([-int(self.x[cell, c]), *covering[cell].get(c, [])])
                covering[cell] = {}
        self.clauses = clauses

    def _order_line(self, lengths: list[int], black: list[int], clauses: list[list[int]]) -> None:
        """A black-and-white line in the order encoding: ``y[g][p]`` is "group
        ``g`` starts at ``p`` or before" (monotone in ``p``; group ``g + 1``
        starts past the end of group ``g`` and a gap), ``v[g][i]`` "group ``g``
        covers cell ``i``" (``y[g][i]`` and not ``y[g][i - length]``); a cell is
        black exactly when some group covers it.  Unit propagation on it is
        weaker than a complete line solver, but the solver learns about
        groups' places as well as cells.

        Every group has the line's slack of places to start at, so ``y[g][p]``
        is a variable for ``p`` in ``earliest[g] .. earliest[g] + slack - 1``,
        false before and true after; the clauses are written in one pass, their
        constants left out (``tests/naive.py``'s ``order_line`` writes the same
        clauses literal by literal)."""
        n, groups = len(black), len(lengths)
        if not groups:
            clauses.extend([-b] for b in black)
            return
        slack = n - sum(lengths) - (groups - 1)
        if slack < 0:  # the clue does not fit: no solution
            v = self._new()
            clauses.extend([[v], [-v]])
            return
        earliest = [0] * groups
        for g in range(1, groups):
            earliest[g] = earliest[g - 1] + lengths[g - 1] + 1
        # y[g][p] = base[g] + p: each group's start variables, numbered in turn
        base = [self.top + 1 + g * slack - earliest[g] for g in range(groups)]
        cover = self.top + groups * slack + 1  # the next cover variable
        self.top += groups * slack
        covering: list[list[int]] = [[] for _ in range(n)]
        for g, length in enumerate(lengths):
            e, y = earliest[g], base[g]
            late = e + slack  # the first start that is always reached: y[g][p] is true from here on
            clauses.extend([-v, v + 1] for v in range(y + e, y + late - 1))
            if g + 1 < groups:  # group g + 1 starts at p or before: group g at p - length - 1 or before
                y1 = base[g + 1]
                clauses.extend([-(y1 + p), y + p - length - 1] for p in range(e + length + 1, late + length + 1))
            for i in range(e, late + length):
                v = cover
                cover += 1
                covering[i].append(v)
                # v: started (y[g][i], true from `late` on) and not over (y[g][i - length], false before e)
                started, over = y + i, y + i - length
                if i < late and i - length >= e:
                    clauses.extend(([-v, started], [-v, -over], [v, -started, over], [-v, black[i]]))
                elif i < late:
                    clauses.extend(([-v, started], [v, -started], [-v, black[i]]))
                elif i - length >= e:
                    clauses.extend(([-v, -over], [v, over], [-v, black[i]]))
                else:
                    clauses.extend(([v], [-v, black[i]]))
        self.top = cover - 1
        for i in range(n):
            clauses.append([-black[i], *covering[i]])

    def _at_most_one(self, lits, clauses, card, enc_type) -> None:
        amo = card.atmost(lits=lits, bound=1, top_id=self.top, encoding=enc_type.seqcounter)
        self.top = max(self.top, amo.nv)
        clauses.extend(amo.clauses)

    def _new(self) -> int:
        self.top += 1
        return self.top

    def _line(self, puzzle, line, cells, clauses, covering, card, enc_type) -> None:
        lengths, colours, earliest, latest = _line_spans(puzzle.clue(line), len(cells))
        starts: list[dict[tuple[int, int], int]] = []
        for g, length in enumerate(lengths):
            mine = {}
            for c in colours[g]:
                for p in range(earliest[g], latest[g] + 1):
                    v = self._new()
                    mine[(c, p)] = v
                    for i in range(p, p + length):
                        clauses.append([-v, int(self.x[cells[i], c])])
                        covering[cells[i]].setdefault(c, []).append(v)
            starts.append(mine)
            group = list(mine.values())
            if not group:  # no room at all: the puzzle has no solution
                v = self._new()
                clauses.extend([[v], [-v]])
                continue
            clauses.append(group)
            if len(group) > 1:
                self._at_most_one(group, clauses, card, enc_type)
        for g in range(len(lengths) - 1):
            for (c, p), v in starts[g].items():
                nxt = [w for (c2, p2), w in starts[g + 1].items() if p2 >= p + lengths[g] + (1 if c2 == c else 0)]
                clauses.append([-v, *nxt])


def _grid(model: list[int], encoding: Encoding, board) -> np.ndarray:
    """The solution a solver's ``model`` gives, in the shape of ``board``'s solutions."""
    chosen = np.array(model, dtype=np.int64)[encoding.x - 1] > 0  # (n_cells, k) booleans, one per row
    return np.argmax(chosen, axis=1).astype(np.uint8).reshape(board.shape)


def solve_sat(
    puzzle,
    *,
    time_budget: float | None = 10.0,
    cpu_budget: float | None = None,
    start: np.ndarray | None = None,
    known: list[np.ndarray] | tuple = (),
    want: int = 2,
    nogoods: Sequence[Sequence[tuple[int, int]]] = (),
) -> tuple[SearchStatus, list[np.ndarray], dict]:
    """Decide ``puzzle`` with the SAT solver: unique, multiple, none or budget
    (or ``"found"``: a solution, when ``want`` is 1).

    :func:`rofl.solve_complete` calls it with ``engine="sat"``, and hands a
    search that runs long over to it (``start`` and ``known``).

    Parameters
    ----------
    puzzle : Puzzle
    time_budget : float or None
        Seconds for the solver (None: no limit), read between slices of
        conflicts (:func:`_solve_until`); Ctrl-C stops it within one.
    cpu_budget : float or None
        Seconds of the process's CPU time (:func:`rofl.solver.cpu_time`:
        its Kissat children's included) for the solver (None: no limit), as
        ``time_budget`` and besides it: a Kissat call is capped at what its
        pace fits in it (:data:`KISSAT_FIT_CPU`), and CaDiCaL's slices fit it.
    start : int64 array of the shape of a solution, optional
        Colour bitmasks that every solution keeps (what line logic and
        probing proved): the colours a cell's mask leaves out become unit
        clauses.
    known : grids already known to solve ``puzzle`` (at most two, distinct):
        counted as found and banned, so that the solver looks for the others.
    want : 1 or 2
        Stop at this many solutions: 2 tells unique from multiple, 1 asks
        for any one solution (status ``"found"``), of Kissat first
        (:data:`KISSAT_CONFLICTS`), then of CaDiCaL.
    nogoods : sequences of (cell, colours) pairs, optional
        What a search proved: no solution has every one of a nogood's cells
        within its colours (a bitmask).  Each becomes the clause "one of
        these cells takes a colour outside its colours".

    Raises
    ------
    LimitError
        The formula would be larger than :data:`MAX_LITERALS`.

    Returns
    -------
    status : SearchStatus
    solutions : list of arrays of the shape of a solution
        (``(H, W)`` or ``(n_cells,)``): one when unique, two distinct ones
        when multiple, at most one when the budget ran out.
    counts : dict
        ``variables``, ``clauses`` and ``conflicts`` of the run.
    """
    clock = Deadlines(time_budget, cpu_budget)  # encoding included
    solver_class, _, _ = _require_pysat()
    board = board_of(puzzle)
    check_formula_size(puzzle)
    try:
        encoding = Encoding(puzzle, clock=clock)
    except _Stopped:
        found = [np.asarray(grid, dtype=np.uint8).reshape(board.shape) for grid in known[:1]]
        return SearchStatus.BUDGET, found, {"variables": 0, "clauses": 0, "conflicts": 0}
    clauses = encoding.clauses
    if start is not None:
        allowed = start.reshape(board.n_cells)
        colours = np.arange(puzzle.n_colors, dtype=np.int64)
        ruled_out = (allowed[:, None] >> colours[None, :]) & 1 == 0
        clauses = clauses + [[-int(v)] for v in encoding.x[ruled_out]]
    solutions = [np.asarray(grid, dtype=np.uint8).reshape(board.shape) for grid in known]
    if start is not None and want == 1 and not known and PROBE_CLAUSES and not needs_lines(puzzle):
        clauses = clauses + _probe_clauses(puzzle, start, encoding.x, clock)
    if nogoods:
        colours = range(puzzle.n_colors)
        clauses = clauses + [
            [int(encoding.x[cell, c]) for cell, allowed in nogood for c in colours if not (allowed >> c) & 1]
            for nogood in nogoods
        ]
    counts = {"variables": encoding.top, "clauses": len(clauses), "conflicts": 0}
    if want == 1 and not solutions and KISSAT_CONFLICTS:
        model = _kissat_first(clauses, clock, encoding.top)
        if model is False:
            return SearchStatus.NONE, [], counts
        if model is not None:
            return SearchStatus.FOUND, [_grid(model, encoding, board)], counts
    with solver_class(name=_solver_name(), bootstrap_with=clauses) as solver:

        def ban(grid: np.ndarray) -> None:  # some cell takes another colour
            flat = grid.reshape(board.n_cells)
            solver.add_clause([-int(encoding.x[cell, flat[cell]]) for cell in range(board.n_cells)])

        for grid in solutions:
            ban(grid)
        swaps = SWAP and _black_and_white(puzzle) and len(board.shape) == 2
        while len(solutions) < want:
            alt = next((a for g in solutions if (a := swapped(g)) is not None), None) if swaps else None
            if alt is not None and not any(np.array_equal(alt, g) for g in solutions):
                solutions.append(alt)
                ban(alt)
                continue
            if solutions and GUIDED:  # look near the last solution first
                last = solutions[-1].reshape(board.n_cells)
                chosen = np.arange(puzzle.n_colors)[None, :] == last[:, None]
                solver.set_phases(np.where(chosen, encoding.x, -encoding.x).reshape(-1).tolist())
            got = _solve_until(solver, clock)
            counts["conflicts"] = int(solver.accum_stats().get("conflicts", 0))
            if got is None:  # interrupted at the deadline
                return SearchStatus.BUDGET, solutions[:1], counts
            if not got:
                break
            grid = _grid(solver.get_model(), encoding, board)
            solutions.append(grid)
            ban(grid)
    if len(solutions) >= want:
        return (SearchStatus.MULTIPLE if want == 2 else SearchStatus.FOUND), solutions[:want], counts
    return (SearchStatus.UNIQUE if solutions else SearchStatus.NONE), solutions, counts
